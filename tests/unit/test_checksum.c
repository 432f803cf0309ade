// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_checksum.c - CRC-32 and the dentry hash against known answers and against values
 * stored by mkfs.f2fs 1.15 in real image blocks (tests/unit/data/README).
 */
#include "unit.h"
#include "zf2fs/geometry.h"
#include "zf2fs-internal/format.h"

static void test_crc_known_answer(void **state)
{
	(void)state;
	/* The standard CRC-32 of "123456789" is 0xCBF43926; F2FS skips the final inversion. */
	assert_int_equal(zf2fs_crc32(0xFFFFFFFFu, "123456789", 9), 0x340BC6D9u);
	assert_int_equal(zf2fs_crc32(0xFFFFFFFFu, "", 0), 0xFFFFFFFFu);
	/* Chaining equals one pass. */
	assert_int_equal(zf2fs_crc32(zf2fs_crc32(7, "1234", 4), "56789", 5),
			 zf2fs_crc32(7, "123456789", 9));
}

static void test_super_crc(void **state)
{
	uint8_t blk[ZF2FS_BLKSIZE];
	struct zf2fs_super *sb = (void *)(blk + ZF2FS_SUPER_OFFSET);

	(void)state;
	load_block("ref115_super.bin", blk);
	assert_int_equal(zf2fs_super_checksum(sb), zf2fs_get(sb->crc));
	sb->segment_count_main ^= 1;
	assert_int_not_equal(zf2fs_super_checksum(sb), zf2fs_get(sb->crc));
}

static void test_cp_crc(void **state)
{
	uint8_t blk[ZF2FS_BLKSIZE];
	uint32_t crc = 0;

	(void)state;
	load_block("ref115_cp.bin", blk);
	assert_int_equal(zf2fs_cp_checksum(blk, &crc), 0);
	assert_int_equal(crc, zf2fs_get_le32p(blk + ZF2FS_CP_CHKSUM_OFFSET));
	blk[100] ^= 0x40;
	assert_int_equal(zf2fs_cp_checksum(blk, &crc), 0);
	assert_int_not_equal(crc, zf2fs_get_le32p(blk + ZF2FS_CP_CHKSUM_OFFSET));
	/* a checksum offset that is neither position is corruption, not a crash */
	zf2fs_put_le32p(blk + offsetof(struct zf2fs_checkpoint, checksum_offset), 5000);
	assert_int_equal(zf2fs_cp_checksum(blk, &crc), -ZF2FS_EFSCORRUPTED);
}

static void check_inode_crc(const char *fixture)
{
	uint8_t sbblk[ZF2FS_BLKSIZE];
	struct zf2fs_node node;
	const struct zf2fs_super *sb = (const void *)(sbblk + ZF2FS_SUPER_OFFSET);
	uint32_t seed;

	load_block("ref115_super.bin", sbblk);
	load_block(fixture, &node);
	seed = zf2fs_checksum_seed(sb->uuid);
	assert_int_equal(zf2fs_inode_checksum(seed, &node), zf2fs_get(node.i.i_inode_checksum));
	node.i.i_size ^= 1;
	assert_int_not_equal(zf2fs_inode_checksum(seed, &node), zf2fs_get(node.i.i_inode_checksum));
}

/* The CRC run backwards: the seed read out of real inodes' checksums is the one their
 * volume's UUID gives, and a UUID made for a seed gives it. */
static void test_crc_backwards(void **state)
{
	uint8_t sbblk[ZF2FS_BLKSIZE], uuid[16];
	struct zf2fs_node node;
	const struct zf2fs_super *sb = (const void *)(sbblk + ZF2FS_SUPER_OFFSET);
	const char *const fixtures[] = { "ref115_root_inode.bin", "ref115_lpf_inode.bin" };

	(void)state;
	/* unshifting n zero bytes undoes feeding them */
	for (uint32_t x = 1; x < 0x40000000u; x = x * 7 + 3)
		assert_int_equal(zf2fs_crc32_unshift(zf2fs_crc32(x, "\0\0\0\0\0", 5), 5), x);
	load_block("ref115_super.bin", sbblk);
	for (size_t i = 0; i < 2; i++) {
		load_block(fixtures[i], &node);
		assert_int_equal(zf2fs_inode_seed_of(zf2fs_geom_4k(), &node),
				 zf2fs_checksum_seed(sb->uuid));
		node.i.i_size ^= 1;   /* a changed inode implies another seed */
		assert_int_not_equal(zf2fs_inode_seed_of(zf2fs_geom_4k(), &node),
				     zf2fs_checksum_seed(sb->uuid));
	}
	for (uint32_t seed = 0; seed < 0xF0000000u; seed += 0x0F0F0F0Fu) {
		zf2fs_uuid_for_seed(seed, uuid);
		assert_int_equal(zf2fs_checksum_seed(uuid), seed);
		assert_int_equal(uuid[6] >> 4, 4);          /* version 4 */
		assert_int_equal(uuid[8] & 0xc0, 0x80);     /* RFC 4122 variant */
	}
}

static void test_inode_crc(void **state)
{
	(void)state;
	check_inode_crc("ref115_root_inode.bin");
	check_inode_crc("ref115_lpf_inode.bin");
}

static void test_dentry_hash(void **state)
{
	struct zf2fs_dentry_block d;

	(void)state;
	load_block("ref115_root_dentry.bin", &d);
	/* slot 2 holds lost+found, hashed by the reference tool */
	assert_int_equal(zf2fs_get(d.dentry[2].name_len), 10);
	assert_int_equal(zf2fs_dentry_hash("lost+found", 10), zf2fs_get(d.dentry[2].hash_code));
	assert_int_equal(zf2fs_dentry_hash(".", 1), 0);
	assert_int_equal(zf2fs_dentry_hash("..", 2), 0);
	/* long names go through several rounds; different names differ */
	assert_int_not_equal(zf2fs_dentry_hash("a-name-longer-than-sixteen-bytes", 32),
			     zf2fs_dentry_hash("a-name-longer-than-sixteen-bytez", 32));
}

/* 16 KiB: the checkpoint crc covers the block up to its last word (or, with the large NAT
 * bitmap, all of it but the word after the header); an inode's covers its whole block,
 * its footer's ino from the block's end */
static void test_crc_16k(void **state)
{
	static uint8_t blk[16384];
	struct zf2fs_checkpoint *cp = (void *)blk;
	struct zf2fs_inode *in = (void *)blk;
	struct zf2fs_geom g;
	const uint8_t zero[4] = { 0 };
	uint32_t crc, want, c1;

	(void)state;
	assert_int_equal(zf2fs_geom_init(&g, 14, 0), 0);
	for (size_t i = 0; i < sizeof(blk); i++)
		blk[i] = (uint8_t)(i * 7 + 3);
	zf2fs_set(cp->checksum_offset, 16380);
	assert_int_equal(zf2fs_cp_checksum2(&g, blk, &crc), 0);
	assert_int_equal(crc, zf2fs_crc32(ZF2FS_MAGIC, blk, 16380));
	/* 4092 is the 4 KiB block's place, no place in a 16 KiB one */
	zf2fs_set(cp->checksum_offset, 4092);
	assert_int_equal(zf2fs_cp_checksum2(&g, blk, &crc), -ZF2FS_EFSCORRUPTED);
	assert_int_equal(zf2fs_cp_checksum(blk, &crc), 0);
	assert_int_equal(crc, zf2fs_crc32(ZF2FS_MAGIC, blk, 4092));
	zf2fs_set(cp->checksum_offset, ZF2FS_CP_BITMAP_OFFSET);
	assert_int_equal(zf2fs_cp_checksum2(&g, blk, &crc), 0);
	want = zf2fs_crc32(zf2fs_crc32(ZF2FS_MAGIC, blk, ZF2FS_CP_BITMAP_OFFSET),
			   blk + ZF2FS_CP_BITMAP_OFFSET + 4, 16384 - ZF2FS_CP_BITMAP_OFFSET - 4);
	assert_int_equal(crc, want);

	/* the inode: ino (footer at 16360, ino its second word), generation, the block with
	 * a zero checksum field */
	want = zf2fs_crc32(0x1234u, blk + 16364, 4);
	want = zf2fs_crc32(want, &in->i_generation, 4);
	want = zf2fs_crc32(want, blk, offsetof(struct zf2fs_inode, i_inode_checksum));
	want = zf2fs_crc32(want, zero, 4);
	want = zf2fs_crc32(want, blk + offsetof(struct zf2fs_inode, i_inode_checksum) + 4,
			   16384 - offsetof(struct zf2fs_inode, i_inode_checksum) - 4);
	c1 = zf2fs_inode_checksum2(&g, 0x1234u, blk);
	assert_int_equal(c1, want);
	assert_int_equal(zf2fs_inode_checksum2(zf2fs_geom_4k(), 0x1234u, blk),
			 zf2fs_inode_checksum(0x1234u, blk));
	blk[10000] ^= 1;   /* past 4 KiB: counted */
	assert_int_not_equal(zf2fs_inode_checksum2(&g, 0x1234u, blk), c1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_known_answer),
		cmocka_unit_test(test_super_crc),
		cmocka_unit_test(test_cp_crc),
		cmocka_unit_test(test_inode_crc),
		cmocka_unit_test(test_crc_backwards),
		cmocka_unit_test(test_dentry_hash),
		cmocka_unit_test(test_crc_16k),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
