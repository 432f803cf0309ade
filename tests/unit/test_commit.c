// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_commit.c - the block builders of lib/write/commit.c for every block size.
 *
 * A segment's summary put into its SSA block (zf2fs_ssa_put): with 4 KiB blocks the block
 * the summary struct of format.h describes; with 16 KiB blocks a summary of 2048 entries
 * (512 used) whose footer ends the block; with packed_ssa four 4 KiB summaries of
 * consecutive segments in one block, the segment's at its quarter and the other three
 * kept byte for byte.  Orphan blocks (zf2fs_orphans_fill): 1020 or 4092 inode numbers to
 * a block, the trailer (index from 1, count, entries) in the block's last 16 bytes, as
 * Linux 7.3 reads them (fs/f2fs/checkpoint.c, f2fs_recover_orphan_inodes).
 */
#include <errno.h>
#include <stddef.h>

#include "unit.h"
#include "zf2fs/format.h"
#include "zf2fs/geometry.h"
#include "zf2fs-internal/commit.h"

#define BS16 16384u

static void entries_of(struct zf2fs_summary *e, uint32_t seed)
{
	for (uint32_t i = 0; i < ZF2FS_ENTRIES_IN_SUM; i++) {
		zf2fs_set(e[i].nid, seed * 1000 + i + 1);
		zf2fs_set(e[i].ofs_in_node, (i * 7 + seed) & 0xffff);
		e[i].version = (uint8_t)(seed + i);
	}
}

static void test_ssa_put_4k(void **state)
{
	const struct zf2fs_geom *g = zf2fs_geom_4k();
	struct zf2fs_summary_block *want = calloc(1, sizeof(*want));
	struct zf2fs_summary e[ZF2FS_ENTRIES_IN_SUM];
	uint8_t *blk = malloc(ZF2FS_BLKSIZE);

	(void)state;
	assert_non_null(want);
	assert_non_null(blk);
	entries_of(e, 3);
	/* the 4 KiB summary struct: entries, an empty journal, the footer's type */
	memcpy(want->entries, e, sizeof(want->entries));
	want->footer.entry_type = ZF2FS_SUM_TYPE_NODE;
	memset(blk, 0xa5, ZF2FS_BLKSIZE);
	zf2fs_ssa_put(g, blk, 7, e, ZF2FS_SUM_TYPE_NODE);
	assert_memory_equal(blk, want, ZF2FS_BLKSIZE);
	free(want);
	free(blk);
}

static void test_ssa_put_16k(void **state)
{
	struct zf2fs_summary e[ZF2FS_ENTRIES_IN_SUM];
	uint8_t *blk = malloc(BS16), *want = calloc(1, BS16);
	struct zf2fs_geom g;
	uint32_t off = 1;

	(void)state;
	assert_non_null(blk);
	assert_non_null(want);
	assert_int_equal(zf2fs_geom_init(&g, 14, 0), 0);
	/* one summary per block: segment 9's is block 9, from byte 0 */
	assert_int_equal(zf2fs_geom_ssa_block(&g, 100, 9, &off), 109);
	assert_int_equal(off, 0);
	entries_of(e, 5);
	/* 2048 entries of 7 bytes (the last 1536 unused), a 2043-byte journal, the footer in
	 * the last 5 bytes: entry type at byte 16379 */
	memcpy(want, e, sizeof(e));
	want[BS16 - 5] = ZF2FS_SUM_TYPE_DATA;
	memset(blk, 0xa5, BS16);
	zf2fs_ssa_put(&g, blk, 9, e, ZF2FS_SUM_TYPE_DATA);
	assert_memory_equal(blk, want, BS16);
	free(blk);
	free(want);
}

static void test_ssa_put_16k_packed(void **state)
{
	struct zf2fs_summary e[ZF2FS_ENTRIES_IN_SUM];
	struct zf2fs_summary_block *quarter = calloc(1, sizeof(*quarter));
	uint8_t *blk = malloc(BS16), *before = malloc(BS16);
	struct zf2fs_geom g;
	uint32_t off = 0;

	(void)state;
	assert_non_null(quarter);
	assert_non_null(blk);
	assert_non_null(before);
	assert_int_equal(zf2fs_geom_init(&g, 14, ZF2FS_FEAT_PACKED_SSA), 0);
	/* segments 8..11 share block 2; segment 10 is its third quarter */
	assert_int_equal(zf2fs_geom_ssa_block(&g, 100, 10, &off), 102);
	assert_int_equal(off, 2 * 4096);
	for (uint32_t q = 0; q < 4; q++)
		memset(blk + q * 4096, 0x11 * (q + 1), 4096);
	memcpy(before, blk, BS16);
	entries_of(e, 10);
	zf2fs_ssa_put(&g, blk, 10, e, ZF2FS_SUM_TYPE_NODE);
	/* the other three summaries as they were */
	assert_memory_equal(blk, before, 2 * 4096);
	assert_memory_equal(blk + 3 * 4096, before + 3 * 4096, 4096);
	/* the segment's: a 4 KiB summary as format.h's struct lays it out */
	memcpy(quarter->entries, e, sizeof(quarter->entries));
	quarter->footer.entry_type = ZF2FS_SUM_TYPE_NODE;
	assert_memory_equal(blk + 2 * 4096, quarter, 4096);
	/* and the first of the block, where segment 8 goes */
	memcpy(before, blk, BS16);
	entries_of(e, 8);
	zf2fs_ssa_put(&g, blk, 8, e, ZF2FS_SUM_TYPE_DATA);
	memcpy(quarter->entries, e, sizeof(quarter->entries));
	quarter->footer.entry_type = ZF2FS_SUM_TYPE_DATA;
	assert_memory_equal(blk, quarter, 4096);
	assert_memory_equal(blk + 4096, before + 4096, 3 * 4096);
	free(quarter);
	free(blk);
	free(before);
}

/* The trailer of orphan block @blk of @bs bytes: index, count, entries. */
static void orphan_trailer(const uint8_t *blk, uint32_t bs, uint32_t *idx, uint32_t *count,
			   uint32_t *entries)
{
	*idx = (uint32_t)blk[bs - 12] | (uint32_t)blk[bs - 11] << 8;
	*count = (uint32_t)blk[bs - 10] | (uint32_t)blk[bs - 9] << 8;
	*entries = zf2fs_get_le32p(blk + bs - 8);
}

static void test_orphans_4k(void **state)
{
	const struct zf2fs_geom *g = zf2fs_geom_4k();
	uint32_t ino[1500], idx, cnt, n;
	uint8_t *blks = calloc(2, ZF2FS_BLKSIZE);
	const struct zf2fs_orphan_block *ob = (const void *)blks;

	(void)state;
	assert_non_null(blks);
	for (uint32_t i = 0; i < 1500; i++)
		ino[i] = 100 + 3 * i;
	zf2fs_orphans_fill(g, blks, 2, ino, 1500);
	/* the trailer where format.h's 4 KiB struct has it */
	assert_int_equal(zf2fs_get(ob[0].entry_count), ZF2FS_ORPHANS_PER_BLOCK);
	assert_int_equal(zf2fs_get(ob[0].blk_addr), 1);
	assert_int_equal(zf2fs_get(ob[0].blk_count), 2);
	assert_int_equal(zf2fs_get(ob[1].entry_count), 1500 - ZF2FS_ORPHANS_PER_BLOCK);
	assert_int_equal(zf2fs_get(ob[1].blk_addr), 2);
	orphan_trailer(blks + ZF2FS_BLKSIZE, ZF2FS_BLKSIZE, &idx, &cnt, &n);
	assert_int_equal(idx, 2);
	assert_int_equal(cnt, 2);
	assert_int_equal(n, 480);
	assert_int_equal(zf2fs_get(ob[0].ino[1019]), 100 + 3 * 1019);
	assert_int_equal(zf2fs_get(ob[1].ino[0]), 100 + 3 * 1020);
	assert_int_equal(zf2fs_get(ob[1].ino[479]), 100 + 3 * 1499);
	assert_int_equal(zf2fs_get(ob[1].ino[480]), 0);
	free(blks);
}

static void test_orphans_16k(void **state)
{
	uint32_t *ino = malloc(5000 * sizeof(*ino)), idx, cnt, n;
	uint8_t *blks = calloc(2, BS16);
	struct zf2fs_geom g;

	(void)state;
	assert_non_null(ino);
	assert_non_null(blks);
	assert_int_equal(zf2fs_geom_init(&g, 14, 0), 0);
	assert_int_equal(g.orphans_per_block, 4092);
	for (uint32_t i = 0; i < 5000; i++)
		ino[i] = 7 + i;
	zf2fs_orphans_fill(&g, blks, 2, ino, 5000);
	orphan_trailer(blks, BS16, &idx, &cnt, &n);
	assert_int_equal(idx, 1);
	assert_int_equal(cnt, 2);
	assert_int_equal(n, 4092);
	orphan_trailer(blks + BS16, BS16, &idx, &cnt, &n);
	assert_int_equal(idx, 2);
	assert_int_equal(cnt, 2);
	assert_int_equal(n, 5000 - 4092);
	/* the numbers from each block's first word on, nothing past them */
	assert_int_equal(zf2fs_get_le32p(blks), 7);
	assert_int_equal(zf2fs_get_le32p(blks + 4091 * 4), 7 + 4091);
	assert_int_equal(zf2fs_get_le32p(blks + BS16), 7 + 4092);
	assert_int_equal(zf2fs_get_le32p(blks + BS16 + 907 * 4), 7 + 4999);
	for (uint32_t w = 908; w < 4092; w++)
		assert_int_equal(zf2fs_get_le32p(blks + BS16 + w * 4), 0);
	/* the reserved word before the trailer stays zero */
	assert_int_equal(zf2fs_get_le32p(blks + BS16 - 16), 0);
	free(ino);
	free(blks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ssa_put_4k),
		cmocka_unit_test(test_ssa_put_16k),
		cmocka_unit_test(test_ssa_put_16k_packed),
		cmocka_unit_test(test_orphans_4k),
		cmocka_unit_test(test_orphans_16k),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
