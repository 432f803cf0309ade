// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_json.c - a computed layout as one JSON object (mkfs --json).
 *
 * Field names are stable: they are the superblock and checkpoint names where one exists,
 * so scripts can compare with dump.f2fs --json.
 */
#include "config.h"
#include <inttypes.h>
#include <stdio.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "format/abi_v10_p.h"

/* Exported as zf2fs_layout_print_json@@ZF2FS_1.1 (lib/format/abi_v10_p.h). */
__typeof__(zf2fs_layout_print_json) zf2fs_layout_print_json_v11;
ZF2FS_EXPORT_V11(zf2fs_layout_print_json)
void zf2fs_layout_print_json_v11(FILE *f, const struct zf2fs_layout *l)
{
	fprintf(f, "{\n");
	fprintf(f, "  \"block_size\": %u,\n", 1u << (l->log_blocksize ? l->log_blocksize :
							    ZF2FS_BLKSIZE_BITS));
	fprintf(f, "  \"packed_ssa\": %s,\n", l->packed_ssa ? "true" : "false");
	fprintf(f, "  \"sector_size\": %u,\n", 1u << l->log_sectorsize);
	fprintf(f, "  \"block_count\": %" PRIu64 ",\n", l->block_count);
	fprintf(f, "  \"segs_per_sec\": %u,\n  \"secs_per_zone\": %u,\n", l->segs_per_sec,
		l->secs_per_zone);
	fprintf(f, "  \"segment_count\": %u,\n", l->segment_count);
	fprintf(f, "  \"segment_count_ckpt\": %u,\n  \"segment_count_sit\": %u,\n",
		l->segment_count_ckpt, l->segment_count_sit);
	fprintf(f, "  \"segment_count_nat\": %u,\n  \"segment_count_ssa\": %u,\n",
		l->segment_count_nat, l->segment_count_ssa);
	fprintf(f, "  \"segment_count_main\": %u,\n  \"section_count\": %u,\n",
		l->segment_count_main, l->section_count);
	fprintf(f, "  \"segment0_blkaddr\": %u,\n  \"cp_blkaddr\": %u,\n  \"sit_blkaddr\": %u,\n",
		l->segment0_blkaddr, l->cp_blkaddr, l->sit_blkaddr);
	fprintf(f, "  \"nat_blkaddr\": %u,\n  \"ssa_blkaddr\": %u,\n  \"main_blkaddr\": %u,\n",
		l->nat_blkaddr, l->ssa_blkaddr, l->main_blkaddr);
	fprintf(f, "  \"cp_payload\": %u,\n", l->cp_payload);
	fprintf(f, "  \"usable_segments\": %u,\n", l->usable_segments);
	fprintf(f, "  \"overprovision_ratio\": %.3f,\n", l->overprovision);
	fprintf(f, "  \"rsvd_segment_count\": %u,\n", l->rsvd_segments);
	fprintf(f, "  \"overprov_segment_count\": %u,\n", l->ovp_segments);
	fprintf(f, "  \"reserved_sections\": %u,\n", l->reserved_sections);
	fprintf(f, "  \"free_segment_count\": %u,\n", l->free_segments);
	fprintf(f, "  \"user_block_count\": %" PRIu64 ",\n", l->user_block_count);
	fprintf(f, "  \"zoned\": %s,\n", l->zoned ? "true" : "false");
	if (l->zoned)
		fprintf(f, "  \"zone_blocks\": %u,\n  \"zone_capacity_blocks\": %u,\n"
			"  \"zone_count\": %u,\n", l->zone_blocks, l->zone_cap_blocks, l->nr_zones);
	fprintf(f, "  \"devices\": [");
	for (unsigned i = 0; i < l->ndevs; i++)
		fprintf(f, "%s\n    {\"segments\": %u, \"start_blkaddr\": %" PRIu64
			", \"end_blkaddr\": %" PRIu64 "}", i ? "," : "", l->dev_segments[i],
			l->dev_start_blk[i], l->dev_end_blk[i]);
	fprintf(f, "\n  ],\n  \"current_segments\": {");
	for (int i = 0; i < ZF2FS_NR_CURSEG; i++)
		fprintf(f, "%s\"%s\": %u", i ? ", " : "", zf2fs_log_name(i), l->cur_seg[i]);
	fprintf(f, "}\n}\n");
}
