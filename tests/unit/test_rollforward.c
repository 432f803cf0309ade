// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_rollforward.c - the kernel's test for node blocks roll-forward recovery replays
 * (lib/read/checkpoint.c): the version alone, the version with the checkpoint's crc in the
 * upper half (CRC recovery), the lower half only (NOCRC, set by fsck); and the chain
 * fields fsck writes when it keeps a chain.
 */
#include "unit.h"
#include "zf2fs-internal/volume.h"

static void make_cp(uint8_t *blk, uint32_t flags, uint64_t ver, uint32_t crc)
{
	struct zf2fs_checkpoint *cp = (void *)blk;

	memset(blk, 0, ZF2FS_BLKSIZE);
	zf2fs_set(cp->ckpt_flags, flags);
	zf2fs_set(cp->checkpoint_ver, ver);
	zf2fs_set(cp->checksum_offset, ZF2FS_CP_CHKSUM_OFFSET);
	zf2fs_put_le32p(blk + ZF2FS_CP_CHKSUM_OFFSET, crc);
}

static void test_plain_version(void **state)
{
	uint8_t cpb[ZF2FS_BLKSIZE], nb[ZF2FS_BLKSIZE];
	struct zf2fs_node *n = (void *)nb;

	(void)state;
	memset(nb, 0, sizeof(nb));
	make_cp(cpb, 0, 0x1234567890ull, 0xAABBCCDDu);
	zf2fs_set(n->footer.cp_ver, 0x1234567890ull);
	assert_true(zf2fs_cp_node_recoverable((void *)cpb, n));
	zf2fs_set(n->footer.cp_ver, 0x1234567891ull);
	assert_false(zf2fs_cp_node_recoverable((void *)cpb, n));
	/* without CRC recovery the upper half counts too */
	zf2fs_set(n->footer.cp_ver, 0x1234567890ull | (1ull << 40));
	assert_false(zf2fs_cp_node_recoverable((void *)cpb, n));
}

static void test_crc_recovery(void **state)
{
	uint8_t cpb[ZF2FS_BLKSIZE], nb[ZF2FS_BLKSIZE];
	struct zf2fs_node *n = (void *)nb;

	(void)state;
	memset(nb, 0, sizeof(nb));
	make_cp(cpb, ZF2FS_CP_CRC_RECOVERY_FLAG, 77, 0xAABBCCDDu);
	zf2fs_set(n->footer.cp_ver, 77ull | (0xAABBCCDDull << 32));
	assert_true(zf2fs_cp_node_recoverable((void *)cpb, n));
	zf2fs_set(n->footer.cp_ver, 77);
	assert_false(zf2fs_cp_node_recoverable((void *)cpb, n));
	/* NOCRC wins over CRC: only the lower 32 bits */
	make_cp(cpb, ZF2FS_CP_CRC_RECOVERY_FLAG | ZF2FS_CP_NOCRC_RECOVERY_FLAG, 77, 0xAABBCCDDu);
	assert_true(zf2fs_cp_node_recoverable((void *)cpb, n));
	zf2fs_set(n->footer.cp_ver, 77ull | (0x1111ull << 32));
	assert_true(zf2fs_cp_node_recoverable((void *)cpb, n));
	zf2fs_set(n->footer.cp_ver, 78);
	assert_false(zf2fs_cp_node_recoverable((void *)cpb, n));
	/* a checksum offset past the block never reads out of it */
	make_cp(cpb, ZF2FS_CP_CRC_RECOVERY_FLAG, 77, 0);
	zf2fs_set(((struct zf2fs_checkpoint *)(void *)cpb)->checksum_offset, 5000);
	assert_false(zf2fs_cp_node_recoverable((void *)cpb, n));
}

static void test_set_chain(void **state)
{
	uint8_t cpb[ZF2FS_BLKSIZE], nb[ZF2FS_BLKSIZE];
	struct zf2fs_node *n = (void *)nb;

	(void)state;
	memset(nb, 0xA5, sizeof(nb));
	zf2fs_set(n->footer.flag, ZF2FS_FOOTER_FSYNC_BIT);
	make_cp(cpb, ZF2FS_CP_NOCRC_RECOVERY_FLAG, 900, 0x12345678u);
	zf2fs_node_set_chain(n, (void *)cpb, 4242);
	assert_true(zf2fs_cp_node_recoverable((void *)cpb, n));
	assert_int_equal(zf2fs_node_next_blkaddr(n), 4242);
	assert_true(zf2fs_node_fsync_marked(n));
	/* the rest of the block is left alone */
	assert_int_equal(nb[0], 0xA5);
	assert_int_equal(nb[offsetof(struct zf2fs_node, footer) - 1], 0xA5);
	zf2fs_set(n->footer.flag, 0);
	assert_false(zf2fs_node_fsync_marked(n));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_version),
		cmocka_unit_test(test_crc_recovery),
		cmocka_unit_test(test_set_chain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
