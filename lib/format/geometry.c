// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * geometry.c - the numbers a volume's block size decides (include/zf2fs/geometry.h).
 *
 * Each count is the block's bytes, less what a block of that kind keeps at a fixed size
 * (a node footer, an orphan block's four trailing words, a summary footer), divided by
 * the size of one entry; the entry and footer sizes come from format.h, whose structs
 * do not depend on the block size.
 */
#include "config.h"
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/format.h"
#include "zf2fs/geometry.h"
#include "zf2fs/quota.h"

#define SUM_BLOCK_PACKED 4096u          /* a summary's size with packed_ssa */
#define ORPHAN_TRAILER   16u            /* entry_count, blk_count, blk_addr, crc */
#define MIN_INLINE_DENTRY_BYTES 40u     /* room the inline dentry keeps for . and .. */
#define INLINE_RESERVED_WORDS 1u        /* first word of the inline area, always unused */
/* mkfs writes each quota file as six tree blocks: header, root, three levels, one leaf */
#define QUOTA_MKFS_BYTES (6u * ZF2FS_QUOTA_BLKSIZE)
/* File size cap: the block count that fits 2^32 units of 4 KiB (fscrypt's IV_INO_LBLK). */
#define MAX_FILE_BYTES   (4096ull << 32)

int zf2fs_geom_init(struct zf2fs_geom *g, uint32_t log_blocksize, uint32_t features)
{
	const uint32_t footer = sizeof(struct zf2fs_node_footer);
	const uint32_t word = sizeof(zf2fs_le32);
	const uint32_t slot = ZF2FS_DIR_ENTRY_SIZE + ZF2FS_SLOT_LEN;
	uint32_t bs, n, leaf;
	uint64_t max;

	memset(g, 0, sizeof(*g));
	if (log_blocksize != ZF2FS_MIN_LOG_BLOCKSIZE && log_blocksize != ZF2FS_MAX_LOG_BLOCKSIZE)
		return -EINVAL;
	bs = 1u << log_blocksize;

	g->log_blocksize = log_blocksize;
	g->blocksize = bs;
	g->log_sectors_per_block = log_blocksize - 9;
	g->log_blocks_per_seg = ZF2FS_LOG_BLOCKS_PER_SEG;
	g->blocks_per_seg = 1u << ZF2FS_LOG_BLOCKS_PER_SEG;
	g->seg_bytes = (uint64_t)bs << ZF2FS_LOG_BLOCKS_PER_SEG;

	g->node_footer_offset = bs - footer;
	g->nids_per_inode = ZF2FS_NIDS_PER_INODE;
	g->inode_nid_offset = g->node_footer_offset - ZF2FS_NIDS_PER_INODE * word;
	g->addrs_per_inode = (g->inode_nid_offset -
			      (uint32_t)offsetof(struct zf2fs_inode, i_addr)) / word;
	g->addrs_per_block = (bs - footer) / word;
	g->nids_per_block = (bs - footer) / word;
	/* two direct nodes, two indirect, one double indirect; no address of the inode */
	leaf = g->addrs_per_block;
	max = 2ull * leaf + 2ull * leaf * g->nids_per_block +
	      (uint64_t)leaf * g->nids_per_block * g->nids_per_block;
	if (max > (MAX_FILE_BYTES >> log_blocksize))
		max = MAX_FILE_BYTES >> log_blocksize;
	g->max_file_blocks = max;

	g->nat_per_block = bs / sizeof(struct zf2fs_nat_entry);
	g->sit_per_block = bs / sizeof(struct zf2fs_sit_entry);
	g->orphans_per_block = (bs - ORPHAN_TRAILER) / word;

	g->sum_blocksize = (features & ZF2FS_FEAT_PACKED_SSA) ? SUM_BLOCK_PACKED : bs;
	g->sums_per_block = bs / g->sum_blocksize;
	/* one 8-byte share per entry: 7 for the entry, the rest journal and footer */
	g->entries_in_sum = g->sum_blocksize / 8;
	g->sum_journal_offset = g->entries_in_sum * ZF2FS_SUMMARY_SIZE;
	g->sum_footer_offset = g->sum_blocksize - ZF2FS_SUM_FOOTER_SIZE;
	g->sum_journal_size = g->sum_footer_offset - g->sum_journal_offset;
	g->nat_journal_entries = (g->sum_journal_size - 2) /
				 sizeof(struct zf2fs_nat_journal_entry);
	g->sit_journal_entries = (g->sum_journal_size - 2) /
				 sizeof(struct zf2fs_sit_journal_entry);

	/* each slot costs its entry, its name and one bitmap bit */
	n = bs * 8 / (slot * 8 + 1);
	g->dentry_per_block = n;
	g->dentry_bitmap_size = (n + 7) / 8;
	g->dentry_reserved = bs - slot * n - g->dentry_bitmap_size;
	g->dentry_reserved_offset = g->dentry_bitmap_size;
	g->dentry_entries_offset = g->dentry_reserved_offset + g->dentry_reserved;
	g->dentry_names_offset = g->dentry_entries_offset + ZF2FS_DIR_ENTRY_SIZE * n;

	g->cp_chksum_offset = bs - word;
	g->cp_bitmap_room = g->cp_chksum_offset - (uint32_t)ZF2FS_CP_BITMAP_OFFSET;
	g->cp_sit_bitmap_room = g->cp_bitmap_room - (ZF2FS_CP_BITMAP_ROOM - ZF2FS_CP_SIT_BITMAP_ROOM);
	/* Linux wants room in the cp segment for both packs and the six current summaries */
	g->cp_payload_max = g->blocks_per_seg - ZF2FS_CP_PACKS - ZF2FS_NR_CURSEG - 1;

	g->xattr_block_bytes = bs - footer;
	g->inline_xattr_min = ZF2FS_XATTR_HDR_SIZE / word;
	g->inline_xattr_max = g->addrs_per_inode - ZF2FS_EXTRA_ISIZE_MAX / word -
			      INLINE_RESERVED_WORDS - MIN_INLINE_DENTRY_BYTES / word;
	g->quota_file_blocks = (QUOTA_MKFS_BYTES + bs - 1) / bs;
	return 0;
}

int zf2fs_geom_inline_area(const struct zf2fs_geom *g, uint32_t extra_isize,
			   uint32_t xattr_words, struct zf2fs_geom_inline *ret)
{
	const uint32_t slot = ZF2FS_DIR_ENTRY_SIZE + ZF2FS_SLOT_LEN;
	uint32_t words, n;

	memset(ret, 0, sizeof(*ret));
	if (extra_isize % 4)
		return -EINVAL;
	if ((uint64_t)extra_isize / 4 + xattr_words + INLINE_RESERVED_WORDS > g->addrs_per_inode)
		return -EINVAL;
	words = g->addrs_per_inode - extra_isize / 4 - xattr_words - INLINE_RESERVED_WORDS;
	ret->data_bytes = words * 4;
	n = ret->data_bytes * 8 / (slot * 8 + 1);
	ret->dentry_slots = n;
	ret->dentry_bitmap_size = (n + 7) / 8;
	ret->dentry_reserved = ret->data_bytes - slot * n - ret->dentry_bitmap_size;
	return 0;
}

static struct zf2fs_geom geom_4k;

/* filled before main() runs, so that readers on any thread see it complete */
__attribute__((constructor)) static void geom_4k_init(void)
{
	zf2fs_geom_init(&geom_4k, ZF2FS_MIN_LOG_BLOCKSIZE, 0);
}

const struct zf2fs_geom *zf2fs_geom_4k(void)
{
	return &geom_4k;
}
