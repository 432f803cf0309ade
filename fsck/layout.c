// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout.c - fsck.f2fs -l: the superblock and the checkpoint in use, one "field:  value"
 * row each, in decimal, with the fields and order of f2fs-tools' fsck.f2fs -l (1.15), and
 * nothing else: no check follows.
 */
#include "config.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/endian.h"

static void row(FILE *f, const char *name, uint64_t v)
{
	int len = (int)strlen(name) + 1;

	fprintf(f, "%s:%*s %" PRIu64 "\n", name, len < 30 ? 30 - len : 0, "", v);
}

static void super_rows(FILE *f, const struct zf2fs_super *sb)
{
	char label[ZF2FS_MAX_VOLUME_NAME * 4 + 1];
	int vlen = 0;

	row(f, "magic", zf2fs_get(sb->magic));
	row(f, "major_ver", zf2fs_get(sb->major_ver));
	zf2fs_label_to_utf8(sb->volume_name, label, sizeof(label));
	fprintf(f, "%-30s %s\n", "Filesystem volume name:", label);
	row(f, "minor_ver", zf2fs_get(sb->minor_ver));
	row(f, "log_sectorsize", zf2fs_get(sb->log_sectorsize));
	row(f, "log_sectors_per_block", zf2fs_get(sb->log_sectors_per_block));
	row(f, "log_blocksize", zf2fs_get(sb->log_blocksize));
	row(f, "log_blocks_per_seg", zf2fs_get(sb->log_blocks_per_seg));
	row(f, "segs_per_sec", zf2fs_get(sb->segs_per_sec));
	row(f, "secs_per_zone", zf2fs_get(sb->secs_per_zone));
	row(f, "checksum_offset", zf2fs_get(sb->checksum_offset));
	row(f, "block_count", zf2fs_get(sb->block_count));
	row(f, "section_count", zf2fs_get(sb->section_count));
	row(f, "segment_count", zf2fs_get(sb->segment_count));
	row(f, "segment_count_ckpt", zf2fs_get(sb->segment_count_ckpt));
	row(f, "segment_count_sit", zf2fs_get(sb->segment_count_sit));
	row(f, "segment_count_nat", zf2fs_get(sb->segment_count_nat));
	row(f, "segment_count_ssa", zf2fs_get(sb->segment_count_ssa));
	row(f, "segment_count_main", zf2fs_get(sb->segment_count_main));
	row(f, "segment0_blkaddr", zf2fs_get(sb->segment0_blkaddr));
	row(f, "cp_blkaddr", zf2fs_get(sb->cp_blkaddr));
	row(f, "sit_blkaddr", zf2fs_get(sb->sit_blkaddr));
	row(f, "nat_blkaddr", zf2fs_get(sb->nat_blkaddr));
	row(f, "ssa_blkaddr", zf2fs_get(sb->ssa_blkaddr));
	row(f, "main_blkaddr", zf2fs_get(sb->main_blkaddr));
	row(f, "root_ino", zf2fs_get(sb->root_ino));
	row(f, "node_ino", zf2fs_get(sb->node_ino));
	row(f, "meta_ino", zf2fs_get(sb->meta_ino));
	row(f, "cp_payload", zf2fs_get(sb->cp_payload));
	row(f, "crc", zf2fs_get(sb->crc));
	/* the stored version string: NUL-padded, maybe unterminated */
	while (vlen < (int)sizeof(sb->version) && sb->version[vlen] && sb->version[vlen] != '\n')
		vlen++;
	fprintf(f, "%-30s%.*s\n", "version", vlen, (const char *)sb->version);
}

static void cp_rows(FILE *f, const struct zf2fs_checkpoint *cp)
{
	static const char *const node_logs[] = { "HOT_NODE", "WARM_NODE", "COLD_NODE" };
	static const char *const data_logs[] = { "HOT_DATA", "WARM_DATA", "COLD_DATA" };
	char name[64];

	row(f, "checkpoint_ver", zf2fs_get(cp->checkpoint_ver));
	row(f, "user_block_count", zf2fs_get(cp->user_block_count));
	row(f, "valid_block_count", zf2fs_get(cp->valid_block_count));
	row(f, "rsvd_segment_count", zf2fs_get(cp->rsvd_segment_count));
	row(f, "overprov_segment_count", zf2fs_get(cp->overprov_segment_count));
	row(f, "free_segment_count", zf2fs_get(cp->free_segment_count));
	/* alloc_type holds the data logs' three slots, then the node logs' */
	for (int kind = 0; kind < 2; kind++) {
		const char *what = kind ? "data" : "node";

		for (int i = 0; i < 3; i++) {
			snprintf(name, sizeof(name), "alloc_type[CURSEG_%s]",
				 kind ? data_logs[i] : node_logs[i]);
			row(f, name, cp->alloc_type[kind ? i : 3 + i]);
		}
		for (int i = 0; i < 3; i++) {
			snprintf(name, sizeof(name), "cur_%s_segno[%d]", what, i);
			row(f, name, kind ? zf2fs_get(cp->cur_data_segno[i]) :
			    zf2fs_get(cp->cur_node_segno[i]));
		}
		for (int i = 0; i < 3; i++) {
			snprintf(name, sizeof(name), "cur_%s_blkoff[%d]", what, i);
			row(f, name, kind ? zf2fs_get(cp->cur_data_blkoff[i]) :
			    zf2fs_get(cp->cur_node_blkoff[i]));
		}
	}
	row(f, "ckpt_flags", zf2fs_get(cp->ckpt_flags));
	row(f, "cp_pack_total_block_count", zf2fs_get(cp->cp_pack_total_block_count));
	row(f, "cp_pack_start_sum", zf2fs_get(cp->cp_pack_start_sum));
	row(f, "valid_node_count", zf2fs_get(cp->valid_node_count));
	row(f, "valid_inode_count", zf2fs_get(cp->valid_inode_count));
	row(f, "next_free_nid", zf2fs_get(cp->next_free_nid));
	row(f, "sit_ver_bitmap_bytesize", zf2fs_get(cp->sit_ver_bitmap_bytesize));
	row(f, "nat_ver_bitmap_bytesize", zf2fs_get(cp->nat_ver_bitmap_bytesize));
	row(f, "checksum_offset", zf2fs_get(cp->checksum_offset));
	row(f, "elapsed_time", zf2fs_get(cp->elapsed_time));
	row(f, "sit_nat_version_bitmap[0]", cp->sit_nat_version_bitmap[0]);
	fputs("\n\n", f);
}

void fsck_print_layout(struct fsck_ctx *ctx)
{
	super_rows(ctx->out, ctx->sb);
	cp_rows(ctx->out, ctx->cp);
}
