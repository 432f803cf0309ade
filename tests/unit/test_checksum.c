// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_checksum.c - CRC-32 and the dentry hash against known answers and against values
 * stored by mkfs.f2fs 1.15 in real image blocks (tests/unit/data/README).
 */
#include "unit.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_known_answer),
		cmocka_unit_test(test_super_crc),
		cmocka_unit_test(test_cp_crc),
		cmocka_unit_test(test_inode_crc),
		cmocka_unit_test(test_dentry_hash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
