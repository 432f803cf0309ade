// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_access.c - include/zf2fs/access.h against values computed by hand from the format
 * (Linux 6.1: fs/f2fs/segment.h for SIT entries, fs/f2fs/dir.c for hash buckets,
 * include/linux/f2fs_fs.h for the sizes), including the raw bytes an accessor leaves.
 */
#include "unit.h"
#include "zf2fs/access.h"
#include "zf2fs/zf2fs.h"
#include "zf2fs-internal/volume.h"

static void test_sit_vblocks(void **state)
{
	struct zf2fs_sit_entry se;
	const uint8_t *raw = (const uint8_t *)&se.vblocks;

	(void)state;
	memset(&se, 0, sizeof(se));
	/* warm node (4) with 37 valid blocks: 4 << 10 | 37 = 0x1025, little-endian */
	zf2fs_sit_set_vblocks(&se, ZF2FS_LOG_WARM_NODE, 37);
	assert_int_equal(raw[0], 0x25);
	assert_int_equal(raw[1], 0x10);
	assert_int_equal(zf2fs_sit_valid_blocks(&se), 37);
	assert_int_equal(zf2fs_sit_type(&se), ZF2FS_LOG_WARM_NODE);
	/* a full segment: 512 = 0x200 fits below the type */
	zf2fs_sit_set_valid_blocks(&se, 512);
	assert_int_equal(raw[0], 0x00);
	assert_int_equal(raw[1], 0x12);
	assert_int_equal(zf2fs_sit_type(&se), ZF2FS_LOG_WARM_NODE);
	zf2fs_sit_set_type(&se, ZF2FS_LOG_COLD_DATA);
	assert_int_equal(zf2fs_get(se.vblocks), 0x0a00);
	assert_int_equal(zf2fs_vblocks_count(0xfc01), 1);
	assert_int_equal(zf2fs_vblocks_type(0xfc01), 63);
	assert_int_equal(zf2fs_vblocks_make(5, 3), 0x1403);
}

static void test_sit_bitmap_high_bit_first(void **state)
{
	struct zf2fs_sit_entry se;

	(void)state;
	memset(&se, 0, sizeof(se));
	zf2fs_sit_block_set(&se, 0);
	zf2fs_sit_block_set(&se, 9);
	zf2fs_sit_block_set(&se, 511);
	assert_int_equal(se.valid_map[0], 0x80);
	assert_int_equal(se.valid_map[1], 0x40);
	assert_int_equal(se.valid_map[63], 0x01);
	assert_true(zf2fs_sit_block_valid(&se, 9));
	assert_false(zf2fs_sit_block_valid(&se, 8));
	assert_int_equal(zf2fs_sit_map_weight(&se), 3);
	zf2fs_sit_block_clear(&se, 0);
	assert_int_equal(se.valid_map[0], 0x00);
	zf2fs_hbit_flip(se.valid_map, 15);
	assert_int_equal(se.valid_map[1], 0x41);
	assert_int_equal(zf2fs_sit_map_weight(&se), 3);
}

static void test_low_bit_first(void **state)
{
	struct zf2fs_dentry_block d;

	(void)state;
	memset(&d, 0, sizeof(d));
	zf2fs_dentry_bit_set(d.dentry_bitmap, 0);
	zf2fs_dentry_bit_set(d.dentry_bitmap, 9);
	zf2fs_dentry_bit_set(d.dentry_bitmap, 213);
	assert_int_equal(d.dentry_bitmap[0], 0x01);
	assert_int_equal(d.dentry_bitmap[1], 0x02);
	assert_int_equal(d.dentry_bitmap[26], 0x20);
	assert_true(zf2fs_dentry_bit_test(d.dentry_bitmap, 213));
	zf2fs_dentry_bit_clear(d.dentry_bitmap, 9);
	assert_int_equal(d.dentry_bitmap[1], 0x00);
	assert_false(zf2fs_lbit_test(d.dentry_bitmap, 9));
}

static void test_dentry_slots(void **state)
{
	(void)state;
	assert_int_equal(zf2fs_dentry_slots(0), 0);
	assert_int_equal(zf2fs_dentry_slots(1), 1);
	assert_int_equal(zf2fs_dentry_slots(8), 1);
	assert_int_equal(zf2fs_dentry_slots(9), 2);
	assert_int_equal(zf2fs_dentry_slots(255), 32);
}

static void test_hash_buckets(void **state)
{
	uint32_t level;
	uint64_t bucket;

	(void)state;
	/* dir_level 0: level 0 is 1 bucket of 2 blocks, level 1 2 buckets, level 2 4 ... */
	assert_int_equal(zf2fs_dir_buckets(0, 0), 1);
	assert_int_equal(zf2fs_dir_buckets(3, 0), 8);
	assert_int_equal(zf2fs_dir_buckets(2, 2), 16);
	assert_int_equal(zf2fs_dir_bucket_blocks(0), 2);
	assert_int_equal(zf2fs_dir_bucket_blocks(30), 2);
	assert_int_equal(zf2fs_dir_bucket_blocks(31), 4);
	assert_int_equal(zf2fs_dir_level_start(0, 0), 0);
	assert_int_equal(zf2fs_dir_level_start(2, 0), 6);    /* 2 + 4 */
	assert_int_equal(zf2fs_dir_level_start(3, 0), 14);   /* 2 + 4 + 8 */
	assert_int_equal(zf2fs_dir_level_start(1, 2), 8);    /* 4 buckets of 2 */
	assert_int_equal(zf2fs_dir_bucket_start(2, 0, 3), 12);
	/* from level 31 (level + dir_level >= 31) the count stays at 2^30 */
	assert_int_equal(zf2fs_dir_buckets(30, 0), 1ull << 30);
	assert_int_equal(zf2fs_dir_buckets(29, 1), 1ull << 30);
	assert_int_equal(zf2fs_dir_buckets(30, 1), 1ull << 30);
	assert_int_equal(zf2fs_dir_buckets(62, 0), 1ull << 30);
	/* sum of 2^i * 2 for i < 31 = 2^32 - 2; then 2^30 buckets of 4 blocks: past 32 bits */
	assert_true(zf2fs_dir_level_start(31, 0) == 4294967294ull);
	assert_true(zf2fs_dir_level_start(32, 0) == 8589934590ull);
	/* and back: block 13 is bucket 3 of level 2 */
	assert_true(zf2fs_dir_block_bucket(13, 0, &level, &bucket));
	assert_int_equal(level, 2);
	assert_int_equal(bucket, 3);
	assert_true(zf2fs_dir_block_bucket(4294967294ull + 5, 0, &level, &bucket));
	assert_int_equal(level, 31);
	assert_int_equal(bucket, 1);
	assert_false(zf2fs_dir_block_bucket(UINT64_MAX, 0, &level, &bucket));
}

static void test_table_indexes_and_sizes(void **state)
{
	struct zf2fs_nat_entry e;
	const uint8_t *raw = (const uint8_t *)&e;

	(void)state;
	/* 455 NAT entries and 55 SIT entries per block */
	assert_int_equal(zf2fs_nat_block_index(454), 0);
	assert_int_equal(zf2fs_nat_block_index(455), 1);
	assert_int_equal(zf2fs_nat_block_index(1000), 2);
	assert_int_equal(zf2fs_nat_entry_index(1000), 90);
	assert_int_equal(zf2fs_sit_block_index(109), 1);
	assert_int_equal(zf2fs_sit_entry_index(109), 54);
	assert_int_equal(zf2fs_sit_block_index(110), 2);
	assert_int_equal(zf2fs_sit_entry_index(110), 0);
	assert_int_equal(zf2fs_sit_blocks(0), 0);
	assert_int_equal(zf2fs_sit_blocks(55), 1);
	assert_int_equal(zf2fs_sit_blocks(56), 2);
	assert_int_equal(zf2fs_sit_blocks(ZF2FS_MAX_SEGMENTS), 152521);   /* 8388608 / 55 up */
	assert_int_equal(zf2fs_nat_blocks(455), 1);
	assert_int_equal(zf2fs_nat_blocks(456), 2);
	assert_int_equal(zf2fs_ssa_blocks(502), 502);
	assert_int_equal(zf2fs_blocks_to_segs(513), 2);
	/* a NAT entry: version byte, then ino and block address little-endian */
	memset(&e, 0, sizeof(e));
	zf2fs_nat_set(&e, 1, 0x01020304, 0x0a0b0c0d);
	assert_int_equal(raw[0], 1);
	assert_int_equal(raw[1], 0x04);
	assert_int_equal(raw[4], 0x01);
	assert_int_equal(raw[5], 0x0d);
	assert_int_equal(raw[8], 0x0a);
	assert_int_equal(zf2fs_nat_ino(&e), 0x01020304);
	assert_int_equal(zf2fs_nat_addr(&e), 0x0a0b0c0d);
}

static void test_mark_and_addresses(void **state)
{
	struct zf2fs_sit_entry se;

	(void)state;
	memset(&se, 0, sizeof(se));
	zf2fs_sit_set_vblocks(&se, ZF2FS_LOG_HOT_NODE, 0);
	assert_true(zf2fs_sit_mark(&se, 3, true));
	assert_false(zf2fs_sit_mark(&se, 3, true));     /* already valid: count unchanged */
	assert_true(zf2fs_sit_mark(&se, 500, true));
	assert_int_equal(se.valid_map[0], 0x10);
	assert_int_equal(zf2fs_get(se.vblocks), (3u << 10) | 2);
	assert_true(zf2fs_sit_mark(&se, 3, false));
	assert_false(zf2fs_sit_mark(&se, 4, false));
	assert_int_equal(zf2fs_sit_valid_blocks(&se), 1);
	assert_int_equal(zf2fs_sit_type(&se), ZF2FS_LOG_HOT_NODE);
	/* main area at block 0x1000: segment 2 starts at 0x1400 */
	assert_int_equal(zf2fs_main_segno(0x1000, 0x1400), 2);
	assert_int_equal(zf2fs_main_segno(0x1000, 0x13ff), 1);
	assert_int_equal(zf2fs_main_seg_off(0x1000, 0x13ff), 511);
	assert_int_equal(zf2fs_main_blk(0x1000, 2, 5), 0x1405);
	assert_int_equal(zf2fs_main_blk(0x1000, 0x800000, 0), 0x1000 + 0x100000000ull);
	assert_int_equal(zf2fs_sit_block_segno(2, 0), 110);
	assert_int_equal(zf2fs_sit_block_index(zf2fs_sit_block_segno(7, 54)), 7);
	assert_int_equal(zf2fs_nat_block_nid(2, 90), 1000);
}

static void test_footer_ofs(void **state)
{
	static struct zf2fs_node n;
	const uint8_t *raw = (const uint8_t *)&n.footer.flag;

	(void)state;
	/* offset 3 above the fsync (bit 1) and dentry (bit 2) marks: 3 << 3 | 6 = 0x1e */
	zf2fs_set(n.footer.flag, 0x6);
	zf2fs_footer_set_ofs(&n, 3);
	assert_int_equal(raw[0], 0x1e);
	assert_int_equal(zf2fs_footer_ofs(&n), 3);
	zf2fs_footer_set_ofs(&n, 0);
	assert_int_equal(zf2fs_get(n.footer.flag), 0x6);
	assert_int_equal(zf2fs_footer_ofs(&n), 0);
}

/* The rules moved out of fsck, mkfs and inject.f2fs (issue #14). */
static void test_front_end_rules(void **state)
{
	static struct zf2fs_sit_entry se;
	static uint8_t blk[ZF2FS_BLKSIZE];
	uint8_t bitmap[4] = { 0 };

	(void)state;
	/* clearing the map leaves vblocks alone */
	memset(se.valid_map, 0xff, sizeof(se.valid_map));
	zf2fs_sit_set_vblocks(&se, ZF2FS_LOG_COLD_NODE, 512);
	zf2fs_sit_map_clear(&se);
	assert_int_equal(zf2fs_sit_map_weight(&se), 0);
	assert_int_equal(se.valid_map[ZF2FS_SIT_MAP_SIZE - 1], 0);
	assert_int_equal(zf2fs_sit_valid_blocks(&se), 512);
	assert_int_equal(zf2fs_sit_type(&se), ZF2FS_LOG_COLD_NODE);

	/* superblocks in blocks 0 and 1 */
	assert_int_equal(zf2fs_super_blkaddr(0), 0);
	assert_int_equal(zf2fs_super_blkaddr(1), 1);
	assert_int_equal(zf2fs_super_other_blkaddr(0), 1);
	assert_int_equal(zf2fs_super_other_blkaddr(1), 0);

	/* a pack of 5 blocks at 512 closes at 516; impossible counts stay at the start */
	assert_int_equal(zf2fs_cp_pack_last(512, 5), 516);
	assert_int_equal(zf2fs_cp_pack_last(512, 2), 513);
	assert_int_equal(zf2fs_cp_pack_last(512, ZF2FS_BLOCKS_PER_SEG), 1023);
	assert_int_equal(zf2fs_cp_pack_last(512, ZF2FS_BLOCKS_PER_SEG + 1), 512);
	assert_int_equal(zf2fs_cp_pack_last(512, 1), 512);
	assert_int_equal(zf2fs_cp_pack_last(512, 0), 512);

	/* 512-byte sectors: 8 per block; 256 blocks per MiB */
	assert_int_equal(zf2fs_sector_size(9), 512);
	assert_int_equal(zf2fs_sector_size(12), 4096);
	assert_int_equal(zf2fs_blocks_to_sectors(1000, 3), 8000);
	assert_int_equal(zf2fs_blocks_to_sectors(1000, 0), 1000);
	assert_int_equal(zf2fs_blocks_to_mib(255), 0);
	assert_int_equal(zf2fs_blocks_to_mib(256 * 100 + 7), 100);

	/* dentry bit of slot 10: byte 1, bit 2, the same bit zf2fs_dentry_bit_set sets */
	assert_int_equal(zf2fs_dentry_bit_byte(10), 1);
	assert_int_equal(zf2fs_dentry_bit_mask(10), 0x04);
	assert_int_equal(zf2fs_dentry_bit_mask(7), 0x80);
	zf2fs_dentry_bit_set(bitmap, 10);
	assert_int_equal(bitmap[zf2fs_dentry_bit_byte(10)], zf2fs_dentry_bit_mask(10));

	/* node words: everything before the footer, little-endian */
	assert_int_equal(zf2fs_node_nr_words(), (ZF2FS_BLKSIZE - sizeof(struct zf2fs_node_footer)) / 4);
	blk[8] = 0x78; blk[9] = 0x56; blk[10] = 0x34; blk[11] = 0x12;
	assert_int_equal(zf2fs_node_word(blk, 2), 0x12345678);
	assert_int_equal(zf2fs_node_word(blk, 1), 0);
}

/* lib/read/node.c's inline xattr list walk (fsck's 0x040020): an 8-byte value fits, a 500-byte
 * one runs past the 200-byte default area and the list is cut before it. */
static void test_inline_xattr_cut(void **state)
{
	static struct zf2fs_node n;
	struct zf2fs_inode_geom g;
	uint32_t start = 0, cut = 0;
	uint8_t *area;

	(void)state;
	n.i.i_inline = ZF2FS_INLINE_XATTR;
	assert_int_equal(zf2fs_inode_geometry(&n.i, 0, &g), 0);
	assert_int_equal(g.xattr_words, ZF2FS_INLINE_XATTR_ADDRS);
	area = (uint8_t *)n.i.i_addr + 4 * (ZF2FS_ADDRS_PER_INODE - ZF2FS_INLINE_XATTR_ADDRS);
	/* no magic: nothing to check */
	assert_int_equal(zf2fs_inline_xattr_cut(&n.i, &g, &start, &cut), 0);
	assert_int_equal(start, 4 * (ZF2FS_ADDRS_PER_INODE - ZF2FS_INLINE_XATTR_ADDRS));
	zf2fs_put_le32p(area, ZF2FS_XATTR_MAGIC);
	/* entry at 24: name 4 bytes, value 8: (4 + 4 + 8) = 16 bytes, end word at 40 */
	area[24] = 1;
	area[25] = 4;
	area[26] = 8;
	assert_int_equal(zf2fs_inline_xattr_cut(&n.i, &g, &start, &cut), 0);
	/* a second entry of 500 bytes of value does not fit: cut at 40 */
	area[40] = 1;
	area[41] = 4;
	area[42] = 500 & 0xff;
	area[43] = 500 >> 8;
	assert_int_equal(zf2fs_inline_xattr_cut(&n.i, &g, &start, &cut), 1);
	assert_int_equal(cut, 40);
	/* without the inline xattr flag the area is not a list */
	n.i.i_inline = 0;
	assert_int_equal(zf2fs_inline_xattr_cut(&n.i, &g, &start, &cut), 0);
}

/* Hash placement as pass 5 weighs it: level 0 of dir_level 0 has one bucket of 2 blocks,
 * level 1 two (blocks 2-3 and 4-5); dir_level 1 doubles them. */
/* Walks the bucket iterator and writes the blocks it gives to @out (up to @cap). */
static size_t walk(struct zf2fs_bucket_iter *it, uint64_t *out, size_t cap, uint32_t *levels)
{
	size_t n = 0;

	while (n < cap && zf2fs_bucket_iter_next(it)) {
		levels[n] = it->level;
		out[n++] = it->block;
	}
	return n;
}

/* The blocks a hash may sit in, in the kernel's order (fs/f2fs/dir.c, find_in_level): hash
 * 5 at dir_level 0 is bucket 0 of level 0 (blocks 0-1), bucket 1 of level 1 (2 + 2: 4-5),
 * bucket 1 of level 2 (6 + 2: 8-9); every bucket for a walk of all of them. */
static void test_bucket_iter(void **state)
{
	static const uint64_t hashed[] = { 0, 1, 4, 5, 8, 9 };
	static const uint32_t hashed_level[] = { 0, 0, 1, 1, 2, 2 };
	struct zf2fs_bucket_iter it;
	uint64_t got[16];
	uint32_t level[16];
	size_t n;

	(void)state;
	zf2fs_bucket_iter_init(&it, 5, 0, 3, UINT64_MAX);
	n = walk(&it, got, 16, level);
	assert_int_equal(n, 6);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(got[i], hashed[i]);
		assert_int_equal(level[i], hashed_level[i]);
	}
	assert_false(zf2fs_bucket_iter_next(&it));
	/* the directory's end ends the walk: blocks 0 to 8 */
	zf2fs_bucket_iter_init(&it, 5, 0, 3, 9);
	assert_int_equal(walk(&it, got, 16, level), 5);
	/* dir_level 2: level 0 has 4 buckets, hash 5 takes bucket 1 (blocks 2-3), level 1
	 * bucket 5 of 8 (8 + 10: 18-19) */
	zf2fs_bucket_iter_init(&it, 5, 2, 2, UINT64_MAX);
	n = walk(&it, got, 16, level);
	assert_int_equal(n, 4);
	assert_int_equal(got[0], 2);
	assert_int_equal(got[3], 19);
	/* every bucket: levels 0 and 1 are blocks 0 to 5, in order */
	zf2fs_bucket_iter_all(&it, 0, 2, UINT64_MAX);
	n = walk(&it, got, 16, level);
	assert_int_equal(n, 6);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(got[i], i);
	assert_int_equal(level[5], 1);
	/* depth 0: nothing; a depth past the deepest level is the deepest level */
	zf2fs_bucket_iter_init(&it, 5, 0, 0, UINT64_MAX);
	assert_false(zf2fs_bucket_iter_next(&it));
	zf2fs_bucket_iter_init(&it, 0, 0, 1000, UINT64_MAX);
	n = 0;
	while (zf2fs_bucket_iter_next(&it))
		n++;
	assert_int_equal(n, 31 * 2 + 32 * 4);
}

static void test_dir_hash_placement(void **state)
{
	(void)state;
	assert_true(zf2fs_dir_hash_in_block(7, 0, 0));
	assert_true(zf2fs_dir_hash_in_block(7, 1, 0));
	assert_false(zf2fs_dir_hash_in_block(7, 2, 0));   /* level 1: 7 % 2 = bucket 1 */
	assert_true(zf2fs_dir_hash_in_block(7, 4, 0));
	assert_true(zf2fs_dir_hash_in_block(6, 2, 0));
	assert_int_equal(zf2fs_dir_hash_bucket(7, 1, 0), 1);
	assert_int_equal(zf2fs_dir_hash_bucket(7, 0, 1), 1);
	assert_false(zf2fs_dir_hash_in_block(6, 2, 1));   /* dir_level 1: blocks 2-3 = bucket 1 */
	assert_true(zf2fs_dir_hash_in_block(7, 2, 1));
	assert_int_equal(zf2fs_dir_depth_covering(0, 0), 1);
	assert_int_equal(zf2fs_dir_depth_covering(5, 0), 2);
	assert_int_equal(zf2fs_dir_depth_covering(6, 0), 3);
	assert_int_equal(zf2fs_dir_depth_covering(5, 1), 2);
	/* the last distinct setting: the next one gives the same buckets at every level */
	for (uint32_t l = 0; l < ZF2FS_MAX_DIR_HASH_DEPTH; l++)
		assert_true(zf2fs_dir_buckets(l, ZF2FS_DIR_LEVEL_SETTINGS - 1) ==
			    zf2fs_dir_buckets(l, ZF2FS_DIR_LEVEL_SETTINGS));
	assert_true(zf2fs_dir_buckets(0, ZF2FS_DIR_LEVEL_SETTINGS - 2) !=
		    zf2fs_dir_buckets(0, ZF2FS_DIR_LEVEL_SETTINGS - 1));
}

/* dump.f2fs's checkpoint flag names, and inject.f2fs's fields of any width. */
static void test_cp_flags_and_le_bytes(void **state)
{
	uint8_t b[8] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };

	(void)state;
	assert_string_equal(zf2fs_cp_flag_name(ZF2FS_CP_UMOUNT_FLAG), "umount");
	assert_string_equal(zf2fs_cp_flag_name(0x80), "nat_bits");
	assert_string_equal(zf2fs_cp_flag_name(ZF2FS_CP_RESIZEFS_FLAG), "resizefs");
	assert_null(zf2fs_cp_flag_name(0x8000));
	assert_null(zf2fs_cp_flag_name(ZF2FS_CP_UMOUNT_FLAG | ZF2FS_CP_FSCK_FLAG));

	assert_int_equal(zf2fs_get_le_bytes(b, 1), 0x11);
	assert_int_equal(zf2fs_get_le_bytes(b, 3), 0x332211);
	assert_true(zf2fs_get_le_bytes(b, 8) == 0x8877665544332211ull);
	assert_int_equal(zf2fs_get_le_bytes(b, 4), zf2fs_get_le32p(b));
	zf2fs_put_le_bytes(b, 2, 0xabcdef);
	assert_int_equal(b[0], 0xef);
	assert_int_equal(b[1], 0xcd);
	assert_int_equal(b[2], 0x33);   /* the third byte is not the field's */
}

static void test_log_names(void **state)
{
	(void)state;
	assert_string_equal(zf2fs_log_name(ZF2FS_LOG_HOT_DATA), "hot_data");
	assert_string_equal(zf2fs_log_name(ZF2FS_LOG_WARM_DATA), "warm_data");
	assert_string_equal(zf2fs_log_name(ZF2FS_LOG_COLD_DATA), "cold_data");
	assert_string_equal(zf2fs_log_name(ZF2FS_LOG_HOT_NODE), "hot_node");
	assert_string_equal(zf2fs_log_name(ZF2FS_LOG_WARM_NODE), "warm_node");
	assert_string_equal(zf2fs_log_name(ZF2FS_LOG_COLD_NODE), "cold_node");
	assert_string_equal(zf2fs_log_name(6), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sit_vblocks),
		cmocka_unit_test(test_sit_bitmap_high_bit_first),
		cmocka_unit_test(test_low_bit_first),
		cmocka_unit_test(test_dentry_slots),
		cmocka_unit_test(test_hash_buckets),
		cmocka_unit_test(test_table_indexes_and_sizes),
		cmocka_unit_test(test_mark_and_addresses),
		cmocka_unit_test(test_footer_ofs),
		cmocka_unit_test(test_front_end_rules),
		cmocka_unit_test(test_inline_xattr_cut),
		cmocka_unit_test(test_dir_hash_placement),
		cmocka_unit_test(test_bucket_iter),
		cmocka_unit_test(test_cp_flags_and_le_bytes),
		cmocka_unit_test(test_log_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
