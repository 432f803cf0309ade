// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_geometry.c - lib/format/geometry.c: the numbers each block size decides.
 *
 * 4 KiB: every number equals format.h's constant or the size or offset of its 4 KiB
 * struct, so the geometry and the structs can never drift apart.  16 KiB: a table worked
 * by hand from Linux 7.3's formulas (include/linux/f2fs_fs.h, fs/f2fs/super.c,
 * fs/f2fs/xattr.h, fs/f2fs/f2fs.h), with and without packed_ssa; the working is beside
 * each row.  Block sizes other than 4 and 16 KiB are refused.
 */
#include <errno.h>
#include <stddef.h>

#include "unit.h"
#include "zf2fs/format.h"
#include "zf2fs/geometry.h"

static void test_4k_equals_format_h(void **state)
{
	struct zf2fs_geom g;
	struct zf2fs_geom_inline in;
	const struct zf2fs_dentry_block *d = NULL;

	(void)state;
	assert_int_equal(zf2fs_geom_init(&g, 12, 0), 0);
	assert_int_equal(g.blocksize, ZF2FS_BLKSIZE);
	assert_int_equal(g.log_blocksize, ZF2FS_BLKSIZE_BITS);
	assert_int_equal(g.log_sectors_per_block, 3);
	assert_int_equal(g.log_blocks_per_seg, ZF2FS_LOG_BLOCKS_PER_SEG);
	assert_int_equal(g.blocks_per_seg, ZF2FS_BLOCKS_PER_SEG);
	assert_int_equal(g.seg_bytes, ZF2FS_SEG_BYTES);

	assert_int_equal(g.addrs_per_inode, ZF2FS_ADDRS_PER_INODE);
	assert_int_equal(g.nids_per_inode, ZF2FS_NIDS_PER_INODE);
	assert_int_equal(g.addrs_per_block, ZF2FS_ADDRS_PER_BLOCK);
	assert_int_equal(g.nids_per_block, ZF2FS_NIDS_PER_BLOCK);
	assert_int_equal(g.node_footer_offset, offsetof(struct zf2fs_node, footer));
	assert_int_equal(g.inode_nid_offset, offsetof(struct zf2fs_node, i.i_nid));
	assert_int_equal(sizeof(struct zf2fs_node), g.blocksize);
	/* 2*1018 + 2*1018^2 + 1018^3, below the cap of 2^32 blocks */
	assert_int_equal(g.max_file_blocks, 1057052516ull);

	assert_int_equal(g.nat_per_block, ZF2FS_NAT_PER_BLOCK);
	assert_int_equal(g.sit_per_block, ZF2FS_SIT_PER_BLOCK);
	assert_int_equal(g.orphans_per_block, ZF2FS_ORPHANS_PER_BLOCK);
	assert_int_equal(sizeof(struct zf2fs_orphan_block), g.blocksize);

	assert_int_equal(g.sum_blocksize, sizeof(struct zf2fs_summary_block));
	assert_int_equal(g.sums_per_block, 1);
	assert_int_equal(g.entries_in_sum, ZF2FS_ENTRIES_IN_SUM);
	assert_int_equal(g.sum_journal_offset, offsetof(struct zf2fs_summary_block, journal));
	assert_int_equal(g.sum_journal_size, ZF2FS_SUM_JOURNAL_SIZE);
	assert_int_equal(g.sum_journal_size, sizeof(struct zf2fs_journal));
	assert_int_equal(g.sum_footer_offset, offsetof(struct zf2fs_summary_block, footer));
	assert_int_equal(g.nat_journal_entries, ZF2FS_NAT_JOURNAL_ENTRIES);
	assert_int_equal(g.sit_journal_entries, ZF2FS_SIT_JOURNAL_ENTRIES);

	assert_int_equal(g.dentry_per_block, ZF2FS_DENTRY_PER_BLOCK);
	assert_int_equal(g.dentry_bitmap_size, ZF2FS_DENTRY_BITMAP_SIZE);
	assert_int_equal(g.dentry_reserved, ZF2FS_DENTRY_RESERVED);
	assert_int_equal(g.dentry_reserved_offset, offsetof(struct zf2fs_dentry_block, reserved));
	assert_int_equal(g.dentry_entries_offset, offsetof(struct zf2fs_dentry_block, dentry));
	assert_int_equal(g.dentry_names_offset, offsetof(struct zf2fs_dentry_block, filename));
	assert_int_equal(sizeof(*d), g.blocksize);

	assert_int_equal(g.cp_chksum_offset, ZF2FS_CP_CHKSUM_OFFSET);
	assert_int_equal(g.cp_bitmap_room, ZF2FS_CP_BITMAP_ROOM);
	assert_int_equal(g.cp_sit_bitmap_room, ZF2FS_CP_SIT_BITMAP_ROOM);
	assert_int_equal(g.cp_payload_max, 503);        /* Linux: below 512 - 2 - 6 */

	assert_int_equal(g.xattr_block_bytes, sizeof(struct zf2fs_direct_node));
	assert_int_equal(g.inline_xattr_min, ZF2FS_MIN_INLINE_XATTR_WORDS);
	assert_int_equal(g.inline_xattr_max, ZF2FS_MAX_INLINE_XATTR_WORDS);
	assert_int_equal(g.quota_file_blocks, 2);       /* 6 KiB of quota tree in 4 KiB blocks */

	/* packed_ssa with 4 KiB blocks: a summary already is 4 KiB, nothing changes */
	{
		struct zf2fs_geom p;

		assert_int_equal(zf2fs_geom_init(&p, 12, ZF2FS_FEAT_PACKED_SSA), 0);
		assert_memory_equal(&p, &g, sizeof(g));
	}

	/* inline area, default 50-word inline xattrs, no extra attributes: 923 - 50 - 1 words */
	assert_int_equal(zf2fs_geom_inline_area(&g, 0, ZF2FS_INLINE_XATTR_ADDRS, &in), 0);
	assert_int_equal(in.data_bytes, 3488);
	assert_int_equal(in.dentry_slots, 182);         /* 3488 * 8 / 153 */
	assert_int_equal(in.dentry_bitmap_size, 23);
	assert_int_equal(in.dentry_reserved, 7);        /* 3488 - 19 * 182 - 23 */
	/* with the 36 bytes of extra attributes: 9 words fewer */
	assert_int_equal(zf2fs_geom_inline_area(&g, ZF2FS_EXTRA_ISIZE_MAX,
						ZF2FS_INLINE_XATTR_ADDRS, &in), 0);
	assert_int_equal(in.data_bytes, 3452);
	/* the largest inline xattr leaves exactly the 40 bytes of . and .. */
	assert_int_equal(zf2fs_geom_inline_area(&g, ZF2FS_EXTRA_ISIZE_MAX,
						g.inline_xattr_max, &in), 0);
	assert_int_equal(in.data_bytes, 40);
}

/* 16 KiB, the rows packed_ssa leaves alone */
static void check_16k_common(const struct zf2fs_geom *g)
{
	assert_int_equal(g->blocksize, 16384);
	assert_int_equal(g->log_sectors_per_block, 5);
	/* Linux refuses log_blocks_per_seg other than 9: 512 blocks, 8 MiB */
	assert_int_equal(g->log_blocks_per_seg, 9);
	assert_int_equal(g->blocks_per_seg, 512);
	assert_int_equal(g->seg_bytes, 8ull << 20);
	/* i_addr starts at byte 360; then 5 nids and the 24-byte footer: (16384-360-20-24)/4 */
	assert_int_equal(g->addrs_per_inode, 3995);
	assert_int_equal(g->nids_per_inode, 5);
	/* (16384 - 24) / 4 */
	assert_int_equal(g->addrs_per_block, 4090);
	assert_int_equal(g->nids_per_block, 4090);
	assert_int_equal(g->node_footer_offset, 16360);
	assert_int_equal(g->inode_nid_offset, 16340);
	/* 2*4090 + 2*4090^2 + 4090^3 = 68451393380 blocks, above the cap: 2^32 units of
	 * 4 KiB are 2^30 blocks of 16 KiB (max_file_blocks in super.c) */
	assert_int_equal(g->max_file_blocks, 1ull << 30);
	/* 9-byte NAT entries, 74-byte SIT entries; the orphan block keeps 4 trailing words */
	assert_int_equal(g->nat_per_block, 1820);
	assert_int_equal(g->sit_per_block, 221);
	assert_int_equal(g->orphans_per_block, 4092);
	/* dentry slot: 11-byte entry + 8-byte name + 1 bit: 16384 * 8 / 153 = 856 slots,
	 * 107 bitmap bytes, 16384 - 19 * 856 - 107 = 13 reserved */
	assert_int_equal(g->dentry_per_block, 856);
	assert_int_equal(g->dentry_bitmap_size, 107);
	assert_int_equal(g->dentry_reserved, 13);
	assert_int_equal(g->dentry_reserved_offset, 107);
	assert_int_equal(g->dentry_entries_offset, 120);
	assert_int_equal(g->dentry_names_offset, 120 + 11 * 856);
	assert_int_equal(g->dentry_names_offset + 8 * 856, 16384);
	/* the crc in the last word; the bitmaps after the 192-byte header; the SIT bitmap
	 * alone leaves 64 bytes for the NAT's */
	assert_int_equal(g->cp_chksum_offset, 16380);
	assert_int_equal(g->cp_bitmap_room, 16188);
	assert_int_equal(g->cp_sit_bitmap_room, 16124);
	assert_int_equal(g->cp_payload_max, 503);
	/* an xattr node is the block less its footer; inline xattr bounds: the 24-byte
	 * header (6 words) up to 3995 - 9 (extra attributes) - 1 (reserved) - 10 (. and ..) */
	assert_int_equal(g->xattr_block_bytes, 16360);
	assert_int_equal(g->inline_xattr_min, 6);
	assert_int_equal(g->inline_xattr_max, 3975);
	/* 6 KiB of quota tree fit one block */
	assert_int_equal(g->quota_file_blocks, 1);
}

static void test_16k(void **state)
{
	struct zf2fs_geom g;
	struct zf2fs_geom_inline in;

	(void)state;
	assert_int_equal(zf2fs_geom_init(&g, 14, 0), 0);
	check_16k_common(&g);
	/* a summary fills its block: 16384 / 8 = 2048 entries of 7 bytes (14336), footer
	 * at 16384 - 5, journal 2043 bytes: (2043 - 2) / 13 NAT and / 78 SIT entries */
	assert_int_equal(g.sum_blocksize, 16384);
	assert_int_equal(g.sums_per_block, 1);
	assert_int_equal(g.entries_in_sum, 2048);
	assert_int_equal(g.sum_journal_offset, 14336);
	assert_int_equal(g.sum_footer_offset, 16379);
	assert_int_equal(g.sum_journal_size, 2043);
	assert_int_equal(g.nat_journal_entries, 157);
	assert_int_equal(g.sit_journal_entries, 26);

	/* default inline xattrs: 3995 - 50 - 1 words = 15776 bytes; 15776 * 8 / 153 = 824
	 * slots, 103 bitmap bytes, 15776 - 19 * 824 - 103 = 17 reserved */
	assert_int_equal(zf2fs_geom_inline_area(&g, 0, ZF2FS_INLINE_XATTR_ADDRS, &in), 0);
	assert_int_equal(in.data_bytes, 15776);
	assert_int_equal(in.dentry_slots, 824);
	assert_int_equal(in.dentry_bitmap_size, 103);
	assert_int_equal(in.dentry_reserved, 17);
	assert_int_equal(zf2fs_geom_inline_area(&g, ZF2FS_EXTRA_ISIZE_MAX,
						g.inline_xattr_max, &in), 0);
	assert_int_equal(in.data_bytes, 40);
}

static void test_16k_packed_ssa(void **state)
{
	struct zf2fs_geom g;

	(void)state;
	assert_int_equal(zf2fs_geom_init(&g, 14, ZF2FS_FEAT_PACKED_SSA), 0);
	check_16k_common(&g);
	/* summaries stay 4 KiB (512 entries, 507-byte journal), four to an SSA block */
	assert_int_equal(g.sum_blocksize, 4096);
	assert_int_equal(g.sums_per_block, 4);
	assert_int_equal(g.entries_in_sum, 512);
	assert_int_equal(g.sum_journal_offset, 3584);
	assert_int_equal(g.sum_footer_offset, 4091);
	assert_int_equal(g.sum_journal_size, 507);
	assert_int_equal(g.nat_journal_entries, 38);
	assert_int_equal(g.sit_journal_entries, 6);
}

static void test_ssa_place(void **state)
{
	struct zf2fs_geom g;
	uint32_t off = 1;

	(void)state;
	assert_int_equal(zf2fs_geom_init(&g, 14, 0), 0);
	assert_int_equal(zf2fs_geom_ssa_block(&g, 1000, 7, &off), 1007);
	assert_int_equal(off, 0);
	/* packed: segments 4..7 share block 1001, segment 7's summary is its last quarter */
	assert_int_equal(zf2fs_geom_init(&g, 14, ZF2FS_FEAT_PACKED_SSA), 0);
	assert_int_equal(zf2fs_geom_ssa_block(&g, 1000, 7, &off), 1001);
	assert_int_equal(off, 3 * 4096);
	assert_int_equal(zf2fs_geom_ssa_block(&g, 1000, 8, &off), 1002);
	assert_int_equal(off, 0);
	assert_int_equal(zf2fs_geom_ssa_block(&g, 1000, 3, NULL), 1000);
}

static void test_refused(void **state)
{
	static const uint32_t bad[] = { 0, 9, 11, 13, 15, 16, 32, 0xffffffffu };
	struct zf2fs_geom g;
	struct zf2fs_geom_inline in;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&g, 0xa5, sizeof(g));
		assert_int_equal(zf2fs_geom_init(&g, bad[i], 0), -EINVAL);
		assert_int_equal(g.blocksize, 0);       /* cleared, never half-filled */
	}
	assert_int_equal(zf2fs_geom_init(&g, 12, 0), 0);
	/* extra_isize not in words; inline xattrs leaving no room */
	assert_int_equal(zf2fs_geom_inline_area(&g, 34, 0, &in), -EINVAL);
	assert_int_equal(zf2fs_geom_inline_area(&g, 0, 923, &in), -EINVAL);
	assert_int_equal(zf2fs_geom_inline_area(&g, 0, 0xffffffffu, &in), -EINVAL);
	assert_int_equal(zf2fs_geom_inline_area(&g, 0, 922, &in), 0);
	assert_int_equal(in.data_bytes, 0);
}

/* geometry.h's accessors put each part where the geometry says: node footers and the
 * offsets of the indirect nodes, summary parts, journal and table entries past the 4 KiB
 * structs' arrays */
static void test_accessors(void **state)
{
	static uint8_t blk[16384];
	struct zf2fs_geom g, gp;
	struct zf2fs_node_footer *f;

	(void)state;
	assert_int_equal(zf2fs_geom_init(&g, 14, 0), 0);
	assert_int_equal(zf2fs_geom_init(&gp, 14, ZF2FS_FEAT_PACKED_SSA), 0);
	/* the 4 KiB offsets are format.h's; at 16 KiB 3 + 1 + 4090 and 3 + 2 + 2 * 4090 */
	assert_int_equal(zf2fs_geom_ofs_ind2(zf2fs_geom_4k()), ZF2FS_OFS_IND2);
	assert_int_equal(zf2fs_geom_ofs_dind(zf2fs_geom_4k()), ZF2FS_OFS_DIND);
	assert_int_equal(zf2fs_geom_ofs_ind2(&g), 4094);
	assert_int_equal(zf2fs_geom_ofs_dind(&g), 8185);
	f = zf2fs_node_footer(&g, blk);
	assert_ptr_equal(f, blk + 16360);
	zf2fs_set(f->flag, (4094u << ZF2FS_FOOTER_OFS_SHIFT) | ZF2FS_FOOTER_COLD_BIT);
	assert_int_equal(zf2fs_node_ofs(&g, blk), 4094);
	assert_ptr_equal(zf2fs_inode_nids(&g, blk), blk + 16340);

	/* summary parts: a whole 16 KiB summary, or a 4 KiB one with packed_ssa */
	assert_ptr_equal(zf2fs_sum_entries(blk), blk);
	assert_ptr_equal(zf2fs_sum_journal(&g, blk), blk + 14336);
	assert_ptr_equal(zf2fs_sum_footer(&g, blk), blk + 16379);
	assert_ptr_equal(zf2fs_sum_journal(&gp, blk), blk + 3584);
	assert_ptr_equal(zf2fs_sum_footer(&gp, blk), blk + 4091);
	/* journal entries after the 2-byte count: NAT 13 bytes, SIT 78 bytes each */
	assert_ptr_equal(zf2fs_journal_nat((void *)blk, 156), blk + 2 + 156 * 13);
	assert_ptr_equal(zf2fs_journal_sit((void *)blk, 25), blk + 2 + 25 * 78);
	/* table entries and the blocks that hold them */
	assert_ptr_equal(zf2fs_nat_block_entry(blk, 1819), blk + 1819 * 9);
	assert_ptr_equal(zf2fs_sit_block_entry(blk, 220), blk + 220 * 74);
	assert_int_equal(zf2fs_geom_nat_block_index(&g, 1820), 1);
	assert_int_equal(zf2fs_geom_nat_entry_index(&g, 1821), 1);
	assert_int_equal(zf2fs_geom_sit_block_index(&g, 221), 1);
	assert_int_equal(zf2fs_geom_sit_entry_index(&g, 220), 220);
	assert_int_equal(zf2fs_geom_sit_blocks(&g, 221), 1);
	assert_int_equal(zf2fs_geom_sit_blocks(&g, 222), 2);
	assert_int_equal(zf2fs_geom_nat_block_index(zf2fs_geom_4k(), 455), 1);
	assert_int_equal(zf2fs_geom_sit_blocks(zf2fs_geom_4k(), 56), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_4k_equals_format_h),
		cmocka_unit_test(test_16k),
		cmocka_unit_test(test_16k_packed_ssa),
		cmocka_unit_test(test_ssa_place),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_accessors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
