// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftinfo.c - f2fs-tools' "Info:" summary of a volume and its -d 1 tables (see ftinfo.h).
 *
 * Only the wording and layout are f2fs-tools'; the values come from the superblock copy
 * and checkpoint pack the library chose.  The field tables list exactly the fields (and
 * in the order) f2fs-tools 1.15 shows, each as "name<tabs>[0x<hex> : <decimal>]", the form
 * GParted's sscanf patterns expect.
 */
#include "config.h"
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "zf2fs/endian.h"
#include "zf2fs/format.h"
#include "ftinfo.h"

#define ROW_U32 "%-30s\t\t[0x%8" PRIx32 " : %" PRIu32 "]\n"
#define ROW_U64 "%-30s\t\t[0x%8" PRIx64 " : %" PRIu64 "]\n"

/* f2fs-tools shows the superblock and checkpoint fields two ways: dump.f2fs -d 1's tables
 * ("name [0x hex : decimal]" under a banner) and fsck.f2fs -l's plain rows ("name: decimal").
 * One field list serves both. */
struct rows {
	FILE *f;
	bool plain;
};

static void row64(const struct rows *r, const char *name, uint64_t v)
{
	int len = (int)strlen(name) + 1;

	if (r->plain)
		fprintf(r->f, "%s:%*s %" PRIu64 "\n", name, len < 30 ? 30 - len : 0, "", v);
	else
		fprintf(r->f, ROW_U64, name, v, v);
}

static void row32(const struct rows *r, const char *name, uint32_t v)
{
	if (r->plain)
		row64(r, name, v);
	else
		fprintf(r->f, ROW_U32, name, v, v);
}

static void banner(FILE *f, const char *title)
{
	fprintf(f, "\n+--------------------------------------------------------+\n"
		"| %-55s|\n+--------------------------------------------------------+\n", title);
}

/* A stored version string (NUL-padded, maybe unterminated) up to its end or a newline. */
static int bounded_len(const uint8_t *s, size_t cap)
{
	size_t n = 0;

	while (n < cap && s[n] && s[n] != '\n')
		n++;
	return (int)n;
}

/* f2fs-tools shows the running kernel as the version fsck would record. */
static void running_version(char *buf, size_t cap)
{
	FILE *p = fopen("/proc/version", "r");

	buf[0] = 0;
	if (p) {
		if (!fgets(buf, (int)cap, p))
			buf[0] = 0;
		fclose(p);
	}
	buf[strcspn(buf, "\n")] = 0;
}

/* Names in f2fs-tools' order (1.15's, then the development branch's two newer bits, named
 * as it names them); bits it does not name are left out, as it does. */
static const struct { uint32_t bit; const char *name; } features[] = {
	{ ZF2FS_FEAT_ENCRYPT, "encrypt" }, { ZF2FS_FEAT_VERITY, "verity" },
	{ ZF2FS_FEAT_BLKZONED, "blkzoned" }, { ZF2FS_FEAT_EXTRA_ATTR, "extra_attr" },
	{ ZF2FS_FEAT_PRJQUOTA, "project_quota" }, { ZF2FS_FEAT_INODE_CHKSUM, "inode_checksum" },
	{ ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR, "flexible_inline_xattr" },
	{ ZF2FS_FEAT_QUOTA_INO, "quota_ino" }, { ZF2FS_FEAT_INODE_CRTIME, "inode_crtime" },
	{ ZF2FS_FEAT_LOST_FOUND, "lost_found" }, { ZF2FS_FEAT_SB_CHKSUM, "sb_checksum" },
	{ ZF2FS_FEAT_CASEFOLD, "casefold" }, { ZF2FS_FEAT_COMPRESSION, "compression" },
	{ ZF2FS_FEAT_RO, "ro" }, { ZF2FS_FEAT_DEVICE_ALIAS, "device_alias" },
	{ ZF2FS_FEAT_PACKED_SSA, "packed_ssa" },
};

static const struct { uint32_t bit; const char *name; } cp_flags[] = {
	{ ZF2FS_CP_QUOTA_NEED_FSCK_FLAG, "quota_need_fsck" },
	{ ZF2FS_CP_LARGE_NAT_BITMAP_FLAG, "large_nat_bitmap" },
	{ ZF2FS_CP_NOCRC_RECOVERY_FLAG, "allow_nocrc" }, { ZF2FS_CP_TRIMMED_FLAG, "trimmed" },
	{ ZF2FS_CP_NAT_BITS_FLAG, "nat_bits" }, { ZF2FS_CP_CRC_RECOVERY_FLAG, "crc" },
	{ ZF2FS_CP_FASTBOOT_FLAG, "fastboot" }, { ZF2FS_CP_FSCK_FLAG, "fsck" },
	{ ZF2FS_CP_ERROR_FLAG, "error" }, { ZF2FS_CP_COMPACT_SUM_FLAG, "compacted_summary" },
	{ ZF2FS_CP_ORPHAN_PRESENT_FLAG, "orphan_inodes" }, { ZF2FS_CP_DISABLED_FLAG, "disabled" },
	{ ZF2FS_CP_RESIZEFS_FLAG, "resizefs" },
};

static void super_table(const struct rows *r, const struct zf2fs_super *sb)
{
	char label[ZF2FS_MAX_VOLUME_NAME * 4 + 1];
	FILE *f = r->f;

	if (!r->plain)
		banner(f, "Super block");
	row32(r, "magic", (uint32_t)zf2fs_get(sb->magic));
	row32(r, "major_ver", (uint32_t)zf2fs_get(sb->major_ver));
	zf2fs_label_to_utf8(sb->volume_name, label, sizeof(label));
	if (r->plain)
		fprintf(f, "%-30s %s\n", "Filesystem volume name:", label);
	else
		fprintf(f, "%-30s\t\t[%s]\n", "volum_name", label);
	row32(r, "minor_ver", (uint32_t)zf2fs_get(sb->minor_ver));
	row32(r, "log_sectorsize", (uint32_t)zf2fs_get(sb->log_sectorsize));
	row32(r, "log_sectors_per_block", (uint32_t)zf2fs_get(sb->log_sectors_per_block));
	row32(r, "log_blocksize", (uint32_t)zf2fs_get(sb->log_blocksize));
	row32(r, "log_blocks_per_seg", (uint32_t)zf2fs_get(sb->log_blocks_per_seg));
	row32(r, "segs_per_sec", (uint32_t)zf2fs_get(sb->segs_per_sec));
	row32(r, "secs_per_zone", (uint32_t)zf2fs_get(sb->secs_per_zone));
	row32(r, "checksum_offset", (uint32_t)zf2fs_get(sb->checksum_offset));
	row64(r, "block_count", zf2fs_get(sb->block_count));
	row32(r, "section_count", (uint32_t)zf2fs_get(sb->section_count));
	row32(r, "segment_count", (uint32_t)zf2fs_get(sb->segment_count));
	row32(r, "segment_count_ckpt", (uint32_t)zf2fs_get(sb->segment_count_ckpt));
	row32(r, "segment_count_sit", (uint32_t)zf2fs_get(sb->segment_count_sit));
	row32(r, "segment_count_nat", (uint32_t)zf2fs_get(sb->segment_count_nat));
	row32(r, "segment_count_ssa", (uint32_t)zf2fs_get(sb->segment_count_ssa));
	row32(r, "segment_count_main", (uint32_t)zf2fs_get(sb->segment_count_main));
	row32(r, "segment0_blkaddr", (uint32_t)zf2fs_get(sb->segment0_blkaddr));
	row32(r, "cp_blkaddr", (uint32_t)zf2fs_get(sb->cp_blkaddr));
	row32(r, "sit_blkaddr", (uint32_t)zf2fs_get(sb->sit_blkaddr));
	row32(r, "nat_blkaddr", (uint32_t)zf2fs_get(sb->nat_blkaddr));
	row32(r, "ssa_blkaddr", (uint32_t)zf2fs_get(sb->ssa_blkaddr));
	row32(r, "main_blkaddr", (uint32_t)zf2fs_get(sb->main_blkaddr));
	row32(r, "root_ino", (uint32_t)zf2fs_get(sb->root_ino));
	row32(r, "node_ino", (uint32_t)zf2fs_get(sb->node_ino));
	row32(r, "meta_ino", (uint32_t)zf2fs_get(sb->meta_ino));
	row32(r, "cp_payload", (uint32_t)zf2fs_get(sb->cp_payload));
	row32(r, "crc", (uint32_t)zf2fs_get(sb->crc));
	fprintf(f, "%-30s%.*s\n", "version",
		bounded_len(sb->version, r->plain ? sizeof(sb->version) : 252),
		(const char *)sb->version);
}

void zs_ftinfo_open_lines(FILE *f, const struct zf2fs_vol *vol, int level)
{
	const struct zf2fs_super *sb = zf2fs_vol_super(vol);
	const struct zf2fs_checkpoint *cp = zf2fs_vol_checkpoint(vol);
	uint32_t feat = (uint32_t)zf2fs_get(sb->feature);
	uint64_t sectors = zf2fs_get(sb->block_count) << zf2fs_get(sb->log_sectors_per_block);
	unsigned log_ss = (unsigned)zf2fs_get(sb->log_sectorsize);
	char running[ZF2FS_VERSION_LEN];

	running_version(running, sizeof(running));
	fprintf(f, "Info: MKFS version\n  \"%.*s\"\n",
		bounded_len(sb->init_version, ZF2FS_VERSION_LEN), (const char *)sb->init_version);
	fprintf(f, "Info: FSCK version\n  from \"%.*s\"\n    to \"%s\"\n",
		bounded_len(sb->version, ZF2FS_VERSION_LEN), (const char *)sb->version, running);
	fprintf(f, "Info: superblock features = %" PRIx32 " : ", feat);
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		if (feat & features[i].bit)
			fprintf(f, " %s", features[i].name);
	fprintf(f, "\nInfo: superblock encrypt level = %u, salt = ", sb->encryption_level);
	for (size_t i = 0; i < sizeof(sb->encrypt_pw_salt); i++)
		fprintf(f, "%02x", sb->encrypt_pw_salt[i]);
	fputc('\n', f);
	if (level >= 1)
		super_table(&(struct rows){ f, false }, sb);
	fprintf(f, "Info: Segments per section = %" PRIu64 "\n", (uint64_t)zf2fs_get(sb->segs_per_sec));
	fprintf(f, "Info: Sections per zone = %" PRIu64 "\n", (uint64_t)zf2fs_get(sb->secs_per_zone));
	fprintf(f, "Info: total FS sectors = %" PRIu64 " (%" PRIu64 " MB)\n", sectors,
		log_ss <= 20 ? sectors >> (20 - log_ss) : 0);
	fprintf(f, "Info: CKPT version = %" PRIx64 "\n", (uint64_t)zf2fs_get(cp->checkpoint_ver));
}

static void cp_table(const struct rows *r, const struct zf2fs_checkpoint *cp)
{
	static const char *const node_logs[] = { "HOT_NODE", "WARM_NODE", "COLD_NODE" };
	static const char *const data_logs[] = { "HOT_DATA", "WARM_DATA", "COLD_DATA" };
	char name[40];

	if (!r->plain)
		banner(r->f, "Checkpoint");
	row64(r, "checkpoint_ver", zf2fs_get(cp->checkpoint_ver));
	row64(r, "user_block_count", zf2fs_get(cp->user_block_count));
	row64(r, "valid_block_count", zf2fs_get(cp->valid_block_count));
	row32(r, "rsvd_segment_count", (uint32_t)zf2fs_get(cp->rsvd_segment_count));
	row32(r, "overprov_segment_count", (uint32_t)zf2fs_get(cp->overprov_segment_count));
	row32(r, "free_segment_count", (uint32_t)zf2fs_get(cp->free_segment_count));
	/* node logs, then data logs: each as its three allocation types, segments, offsets;
	 * alloc_type is indexed by log, the data logs' three slots first */
	for (int kind = 0; kind < 2; kind++) {
		const char *what = kind ? "data" : "node";

		for (int i = 0; i < 3; i++) {
			snprintf(name, sizeof(name), "alloc_type[CURSEG_%s]",
				 kind ? data_logs[i] : node_logs[i]);
			row32(r, name, cp->alloc_type[kind ? ZF2FS_LOG_HOT_DATA + i :
						      ZF2FS_LOG_HOT_NODE + i]);
		}
		for (int i = 0; i < 3; i++) {
			snprintf(name, sizeof(name), "cur_%s_segno[%d]", what, i);
			row32(r, name, (uint32_t)(kind ? zf2fs_get(cp->cur_data_segno[i]) :
						  zf2fs_get(cp->cur_node_segno[i])));
		}
		for (int i = 0; i < 3; i++) {
			snprintf(name, sizeof(name), "cur_%s_blkoff[%d]", what, i);
			row32(r, name, (uint32_t)(kind ? zf2fs_get(cp->cur_data_blkoff[i]) :
						  zf2fs_get(cp->cur_node_blkoff[i])));
		}
	}
	row32(r, "ckpt_flags", (uint32_t)zf2fs_get(cp->ckpt_flags));
	row32(r, "cp_pack_total_block_count", (uint32_t)zf2fs_get(cp->cp_pack_total_block_count));
	row32(r, "cp_pack_start_sum", (uint32_t)zf2fs_get(cp->cp_pack_start_sum));
	row32(r, "valid_node_count", (uint32_t)zf2fs_get(cp->valid_node_count));
	row32(r, "valid_inode_count", (uint32_t)zf2fs_get(cp->valid_inode_count));
	row32(r, "next_free_nid", (uint32_t)zf2fs_get(cp->next_free_nid));
	row32(r, "sit_ver_bitmap_bytesize", (uint32_t)zf2fs_get(cp->sit_ver_bitmap_bytesize));
	row32(r, "nat_ver_bitmap_bytesize", (uint32_t)zf2fs_get(cp->nat_ver_bitmap_bytesize));
	row32(r, "checksum_offset", (uint32_t)zf2fs_get(cp->checksum_offset));
	row64(r, "elapsed_time", zf2fs_get(cp->elapsed_time));
	row32(r, "sit_nat_version_bitmap[0]", cp->sit_nat_version_bitmap[0]);
	fputs("\n\n", r->f);
}

void zs_ftinfo_cp_lines(FILE *f, const struct zf2fs_vol *vol, int level)
{
	const struct zf2fs_checkpoint *cp = zf2fs_vol_checkpoint(vol);
	uint32_t flags = (uint32_t)zf2fs_get(cp->ckpt_flags);

	if (level >= 1)
		cp_table(&(struct rows){ f, false }, cp);
	fprintf(f, "Info: checkpoint state = %" PRIx32 " : ", flags);
	for (size_t i = 0; i < sizeof(cp_flags) / sizeof(cp_flags[0]); i++)
		if (flags & cp_flags[i].bit)
			fprintf(f, " %s", cp_flags[i].name);
	fputs(flags & ZF2FS_CP_UMOUNT_FLAG ? " unmount\n" : " sudden-power-off\n", f);
}

void zs_ftinfo_start(struct timespec *start)
{
	clock_gettime(CLOCK_MONOTONIC, start);
}

void zs_ftinfo_done(FILE *f, const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	fprintf(f, "\nDone: %f secs\n", (double)(now.tv_sec - start->tv_sec) +
		(double)(now.tv_nsec - start->tv_nsec) / 1e9);
}

void zs_ftinfo_layout(FILE *f, const struct zf2fs_super *sb, const struct zf2fs_checkpoint *cp)
{
	const struct rows r = { f, true };

	super_table(&r, sb);
	cp_table(&r, cp);
}
