// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * super.c - is this superblock one the kernel would accept?
 *
 * The same rules Linux applies at mount: magic, checksum when sb_checksum is on, fixed
 * block and segment sizes, segment/section/zone counts that agree with each other and
 * with the block count, the metadata areas back to back in their fixed order, the reserved
 * inode numbers.  Every failure names the field: "corrupt superblock: <field>, <reason>".
 */
#include "config.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/format.h"
#include "zf2fs/geometry.h"

static int bad(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		int n = snprintf(why, len, "corrupt superblock: ");

		va_start(ap, fmt);
		if (n > 0 && (size_t)n < len)
			vsnprintf(why + n, len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -ZF2FS_EFSCORRUPTED;
}

ZF2FS_EXPORT uint32_t zf2fs_super_areas_segments(const struct zf2fs_super *sb)
{
	uint64_t main_end = zf2fs_get(sb->main_blkaddr) +
			    (zf2fs_get(sb->segment_count_main) << ZF2FS_LOG_BLOCKS_PER_SEG);
	uint64_t seg0 = zf2fs_get(sb->segment0_blkaddr);

	return main_end > seg0 ? (uint32_t)((main_end - seg0) >> ZF2FS_LOG_BLOCKS_PER_SEG) : 0;
}

int zf2fs_super_verify(const struct zf2fs_super *sb, uint64_t dev_blocks,
		       char *why, size_t whylen)
{
	uint32_t seg_count = (uint32_t)zf2fs_get(sb->segment_count);
	uint32_t main_segs = (uint32_t)zf2fs_get(sb->segment_count_main);
	uint32_t secs = (uint32_t)zf2fs_get(sb->section_count);
	uint32_t sps = (uint32_t)zf2fs_get(sb->segs_per_sec);
	uint32_t spz = (uint32_t)zf2fs_get(sb->secs_per_zone);
	uint32_t log_ss = (uint32_t)zf2fs_get(sb->log_sectorsize);
	uint64_t seg0 = zf2fs_get(sb->segment0_blkaddr);
	uint64_t at, main_end, seg_end;
	struct {
		const char *name;
		uint64_t start, segs;
	} areas[] = {
		{ "cp_blkaddr", zf2fs_get(sb->cp_blkaddr), zf2fs_get(sb->segment_count_ckpt) },
		{ "sit_blkaddr", zf2fs_get(sb->sit_blkaddr), zf2fs_get(sb->segment_count_sit) },
		{ "nat_blkaddr", zf2fs_get(sb->nat_blkaddr), zf2fs_get(sb->segment_count_nat) },
		{ "ssa_blkaddr", zf2fs_get(sb->ssa_blkaddr), zf2fs_get(sb->segment_count_ssa) },
		{ "main_blkaddr", zf2fs_get(sb->main_blkaddr), main_segs },
	};

	if (zf2fs_get(sb->magic) != ZF2FS_MAGIC)
		return bad(why, whylen, "magic, bad value 0x%llx",
			   (unsigned long long)zf2fs_get(sb->magic));
	if (zf2fs_get(sb->feature) & ZF2FS_FEAT_SB_CHKSUM) {
		if (zf2fs_get(sb->checksum_offset) != offsetof(struct zf2fs_super, crc))
			return bad(why, whylen, "checksum_offset, bad value %llu",
				   (unsigned long long)zf2fs_get(sb->checksum_offset));
		if (zf2fs_super_checksum(sb) != zf2fs_get(sb->crc))
			return bad(why, whylen, "crc, checksum mismatch (stored 0x%08llx, computed "
				   "0x%08x)", (unsigned long long)zf2fs_get(sb->crc),
				   zf2fs_super_checksum(sb));
	}
	if (zf2fs_get(sb->log_blocksize) != ZF2FS_MIN_LOG_BLOCKSIZE &&
	    zf2fs_get(sb->log_blocksize) != ZF2FS_MAX_LOG_BLOCKSIZE)
		return bad(why, whylen, "log_blocksize, only 4 or 16 KiB blocks, bad value %llu",
			   (unsigned long long)zf2fs_get(sb->log_blocksize));
	if (zf2fs_get(sb->log_blocks_per_seg) != ZF2FS_LOG_BLOCKS_PER_SEG)
		return bad(why, whylen, "log_blocks_per_seg, only 512-block segments, bad value %llu",
			   (unsigned long long)zf2fs_get(sb->log_blocks_per_seg));
	if (log_ss < 9 || log_ss > 12)
		return bad(why, whylen, "log_sectorsize, bad value %u", log_ss);
	if (log_ss + zf2fs_get(sb->log_sectors_per_block) != zf2fs_get(sb->log_blocksize))
		return bad(why, whylen, "log_sectors_per_block, %llu + log_sectorsize %u is not "
			   "log_blocksize %llu", (unsigned long long)zf2fs_get(sb->log_sectors_per_block),
			   log_ss, (unsigned long long)zf2fs_get(sb->log_blocksize));
	if (seg_count > ZF2FS_MAX_SEGMENTS || seg_count < ZF2FS_MIN_SEGMENTS)
		return bad(why, whylen, "segment_count, bad value %u", seg_count);
	if (!sps || sps > seg_count)
		return bad(why, whylen, "segs_per_sec, bad value %u", sps);
	if (secs < 1 || secs > main_segs || main_segs != (uint64_t)secs * sps)
		return bad(why, whylen, "section_count, %u sections of %u segments vs %u main "
			   "segments", secs, sps, main_segs);
	if (seg_count / sps < secs)
		return bad(why, whylen, "segment_count, %u is smaller than %u sections", seg_count,
			   secs);
	if (seg_count > zf2fs_get(sb->block_count) >> ZF2FS_LOG_BLOCKS_PER_SEG)
		return bad(why, whylen, "segment_count, %u segments do not fit %llu blocks",
			   seg_count, (unsigned long long)zf2fs_get(sb->block_count));
	if (dev_blocks && zf2fs_get(sb->block_count) > dev_blocks && !sb->devs[0].path[0])
		return bad(why, whylen, "block_count, %llu blocks on a device of %llu",
			   (unsigned long long)zf2fs_get(sb->block_count),
			   (unsigned long long)dev_blocks);
	if (!spz || spz > secs)
		return bad(why, whylen, "secs_per_zone, bad value %u for %u sections", spz, secs);
	if (zf2fs_get(sb->extension_count) > ZF2FS_MAX_EXTENSIONS ||
	    zf2fs_get(sb->extension_count) + sb->hot_ext_count > ZF2FS_MAX_EXTENSIONS)
		return bad(why, whylen, "extension_count, %llu + %u hot exceeds %d",
			   (unsigned long long)zf2fs_get(sb->extension_count), sb->hot_ext_count,
			   ZF2FS_MAX_EXTENSIONS);
	if (zf2fs_get(sb->cp_payload) >= ZF2FS_BLOCKS_PER_SEG - ZF2FS_NR_CURSEG - 2)
		return bad(why, whylen, "cp_payload, bad value %llu",
			   (unsigned long long)zf2fs_get(sb->cp_payload));
	if (zf2fs_get(sb->node_ino) != ZF2FS_NODE_INO || zf2fs_get(sb->meta_ino) != ZF2FS_META_INO ||
	    zf2fs_get(sb->root_ino) != ZF2FS_ROOT_INO)
		return bad(why, whylen, "reserved inode numbers, node %llu meta %llu root %llu",
			   (unsigned long long)zf2fs_get(sb->node_ino),
			   (unsigned long long)zf2fs_get(sb->meta_ino),
			   (unsigned long long)zf2fs_get(sb->root_ino));
	if (zf2fs_get(sb->segment_count_ckpt) != ZF2FS_CP_PACKS)
		return bad(why, whylen, "segment_count_ckpt, bad value %llu",
			   (unsigned long long)zf2fs_get(sb->segment_count_ckpt));
	if (!zf2fs_get(sb->segment_count_sit) || zf2fs_get(sb->segment_count_sit) % 2 ||
	    !zf2fs_get(sb->segment_count_nat) || zf2fs_get(sb->segment_count_nat) % 2)
		return bad(why, whylen, "segment_count_sit/nat, %llu/%llu are not non-zero and even",
			   (unsigned long long)zf2fs_get(sb->segment_count_sit),
			   (unsigned long long)zf2fs_get(sb->segment_count_nat));
	/* nids are 32 bits: a NAT copy naming more is crafted (and would make every per-nid
	 * map of fsck huge). */
	if ((uint64_t)zf2fs_get(sb->segment_count_nat) / 2 * ZF2FS_BLOCKS_PER_SEG *
	    (ZF2FS_NAT_PER_BLOCK << (zf2fs_get(sb->log_blocksize) - ZF2FS_MIN_LOG_BLOCKSIZE)) >
	    UINT32_MAX)
		return bad(why, whylen, "segment_count_nat, %llu segments hold more than 2^32 nids",
			   (unsigned long long)zf2fs_get(sb->segment_count_nat));
	/* The areas follow each other in a fixed order starting at segment 0. */
	at = seg0;
	for (size_t i = 0; i < sizeof(areas) / sizeof(areas[0]); i++) {
		if (areas[i].start != at)
			return bad(why, whylen, "%s, expected %llu, bad value %llu", areas[i].name,
				   (unsigned long long)at, (unsigned long long)areas[i].start);
		at += areas[i].segs << ZF2FS_LOG_BLOCKS_PER_SEG;
	}
	main_end = at;
	seg_end = seg0 + ((uint64_t)seg_count << ZF2FS_LOG_BLOCKS_PER_SEG);
	if (main_end > seg_end)
		return bad(why, whylen, "main area, ends at block %llu past segment end %llu",
			   (unsigned long long)main_end, (unsigned long long)seg_end);
	return 0;
}
