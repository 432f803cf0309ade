// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_chunkmap.c - maps whose memory follows use (lib/format/bitmap.c, lib/read/sit_table.c), the
 * checkpoint's nat_bits and the clean test (lib/read/nat_bits.c).
 *
 * The chunked bitmap must answer like a flat one and allocate only the chunks written; the
 * chunked SIT table must hold the same entries as zf2fs_vol_load_sit while keeping only SIT
 * blocks that hold anything; and opening a clean volume and deciding it is clean must read
 * nothing past the checkpoint area (the device refuses any read outside it).
 */
#include <errno.h>

#include "unit.h"
#include "zf2fs/sit_table.h"
#include "zf2fs-internal/chunkmap.h"
#include "zf2fs-internal/volume.h"

#define MiB (1024ull * 1024)

static const struct zf2fs_log quiet = { .level = 0 };

static void test_bmap_matches_flat(void **state)
{
	const uint64_t nbits = (1ull << 32) + 77;   /* a 16 TiB main area, and a bit more */
	struct zf2fs_bmap *m;
	uint64_t empty_bytes;

	(void)state;
	assert_int_equal(zf2fs_bmap_new(nbits, &m), 0);
	empty_bytes = zf2fs_bmap_bytes(m);
	/* the index of a 4 G-bit map: about 1 MiB, nothing per bit */
	assert_true(empty_bytes < 2 * MiB);
	assert_false(zf2fs_bmap_test(m, 0));
	assert_false(zf2fs_bmap_test(m, nbits - 1));
	assert_false(zf2fs_bmap_any(m, 0, nbits));
	assert_int_equal(zf2fs_bmap_set(m, nbits), -ERANGE);
	assert_false(zf2fs_bmap_test(m, nbits));
	assert_int_equal(zf2fs_bmap_set(m, 5), 0);
	assert_int_equal(zf2fs_bmap_set(m, nbits - 1), 0);
	assert_int_equal(zf2fs_bmap_set(m, 3000000000ull), 0);
	assert_true(zf2fs_bmap_test(m, 5));
	assert_false(zf2fs_bmap_test(m, 4));
	assert_false(zf2fs_bmap_test(m, 6));
	assert_true(zf2fs_bmap_test(m, nbits - 1));
	assert_true(zf2fs_bmap_test(m, 3000000000ull));
	/* three chunks written: three chunks allocated */
	assert_int_equal(zf2fs_bmap_bytes(m) - empty_bytes, 3 * 4096);
	assert_true(zf2fs_bmap_any(m, 0, 6));
	assert_false(zf2fs_bmap_any(m, 0, 5));
	assert_false(zf2fs_bmap_any(m, 6, 3000000000ull - 6));
	assert_true(zf2fs_bmap_any(m, 6, 3000000000ull - 5));
	zf2fs_bmap_clear(m, 5);
	zf2fs_bmap_clear(m, 1ull << 31);   /* a chunk never written: no allocation */
	assert_false(zf2fs_bmap_test(m, 5));
	assert_int_equal(zf2fs_bmap_bytes(m) - empty_bytes, 3 * 4096);
	zf2fs_bmap_free(m);
}

static void make_volume(uint64_t bytes, struct zf2fs_dev **dev)
{
	struct zf2fs_mkfs_opts mk = { .fixed_cp_version = true, .timestamp = 1700000000 };
	struct zf2fs_dev_geom g;
	struct zf2fs_layout lay;

	assert_int_equal(zs_dev_open_memory(bytes, &quiet, dev), 0);
	assert_int_equal(zf2fs_dev_geometry(*dev, &g), 0);
	assert_int_equal(zf2fs_layout_compute(&g, 1, &mk.layout, &lay, NULL, 0), 0);
	assert_int_equal(zf2fs_mkfs_write(dev, &lay, &mk, &quiet), 0);
}

static void test_sit_table_matches_flat(void **state)
{
	struct zf2fs_sit_table *t;
	struct zf2fs_sit_entry *flat, *se;
	const struct zf2fs_vol_info *vi;
	struct zf2fs_dev *dev;
	struct zf2fs_vol *vol;
	uint32_t used = 0, nblocks;

	(void)state;
	make_volume(512 * MiB, &dev);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	vi = zf2fs_vol_info(vol);
	assert_int_equal(zf2fs_vol_load_sit(vol, &flat), 0);
	assert_int_equal(zf2fs_vol_load_sit_table(vol, &t), 0);
	assert_int_equal(zf2fs_sit_table_segs(t), vi->main_segs);
	for (uint32_t s = 0; s < vi->main_segs; s++)
		assert_memory_equal(zf2fs_sit_table_get(t, s), &flat[s], sizeof(flat[s]));
	nblocks = (vi->main_segs + (uint32_t)ZF2FS_SIT_PER_BLOCK - 1) / (uint32_t)ZF2FS_SIT_PER_BLOCK;
	for (uint32_t b = 0; b < nblocks; b++)
		used += zf2fs_sit_table_block_used(t, b);
	/* mkfs's six current segments sit in the first SIT blocks; the rest is zeros */
	assert_true(used >= 1);
	assert_true(used < nblocks);
	assert_true(zf2fs_sit_table_bytes(t) <
		    (uint64_t)vi->main_segs * sizeof(struct zf2fs_sit_entry) / 2);
	/* out of range: zeros to read, nothing to change */
	assert_int_equal(zf2fs_get(zf2fs_sit_table_get(t, vi->main_segs)->vblocks), 0);
	assert_null(zf2fs_sit_table_mut(t, vi->main_segs));
	/* a change to a block never written allocates it and reads back */
	assert_false(zf2fs_sit_table_block_used(t, nblocks - 1));
	se = zf2fs_sit_table_mut(t, vi->main_segs - 1);
	assert_non_null(se);
	zf2fs_set(se->vblocks, 7);
	assert_true(zf2fs_sit_table_block_used(t, nblocks - 1));
	assert_int_equal(zf2fs_get(zf2fs_sit_table_get(t, vi->main_segs - 1)->vblocks), 7);
	zf2fs_sit_table_free(t);
	free(flat);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

static void test_nat_bits(void **state)
{
	const struct zf2fs_checkpoint *cp;
	struct zf2fs_dev *dev;
	struct zf2fs_vol *vol;

	(void)state;
	make_volume(512 * MiB, &dev);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	cp = zf2fs_vol_checkpoint(vol);
	assert_true(zf2fs_get(cp->ckpt_flags) & ZF2FS_CP_NAT_BITS_FLAG);
	/* mkfs: the root's NAT block is in use, every other one is empty */
	assert_false(zf2fs_vol_nat_block_empty(vol, 0));
	assert_true(zf2fs_vol_nat_block_empty(vol, 1));
	assert_true(zf2fs_vol_nat_block_empty(vol, zf2fs_vol_info(vol)->nat_blocks - 1));
	assert_false(zf2fs_vol_nat_block_empty(vol, zf2fs_vol_info(vol)->nat_blocks));
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

/* Open a fresh volume through a device that refuses reads past the checkpoint area. */
static void test_clean_reads_super_and_checkpoint_only(void **state)
{
	struct zf2fs_dev *dev;
	struct zf2fs_vol *vol;
	uint64_t sit_start;

	(void)state;
	make_volume(512 * MiB, &dev);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	sit_start = (uint64_t)zf2fs_vol_info(vol)->sit_blkaddr * ZF2FS_BLKSIZE;
	zf2fs_vol_close(vol);
	/* superblocks (blocks 0-1) and the two checkpoint packs lie below the SIT */
	zs_dev_restrict_reads(dev, 0, sit_start);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	assert_true(zf2fs_vol_clean(vol));
	assert_int_equal(zs_dev_reads_refused(dev), 0);
	/* the restriction bites: the SIT is outside it */
	{
		struct zf2fs_sit_table *t;

		assert_int_equal(zf2fs_vol_load_sit_table(vol, &t), -EACCES);
		assert_true(zs_dev_reads_refused(dev) > 0);
	}
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

/* What makes a volume unclean: the checkpoint's flags, as fsck -p reads them. */
static void test_clean_flags(void **state)
{
	struct zf2fs_dev *dev;
	struct zf2fs_vol *vol;
	uint8_t *blk = malloc(ZF2FS_BLKSIZE);

	(void)state;
	assert_non_null(blk);
	make_volume(512 * MiB, &dev);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	assert_true(zf2fs_vol_clean(vol));
	zf2fs_vol_close(vol);
	/* superblock records an error: not clean */
	assert_int_equal(zf2fs_dev_read(dev, blk, ZF2FS_BLKSIZE, 0), 0);
	{
		struct zf2fs_super *sb = (void *)(blk + ZF2FS_SUPER_OFFSET);

		sb->s_errors[0] = 1;
		if (zf2fs_get(sb->feature) & ZF2FS_FEAT_SB_CHKSUM)
			zf2fs_set(sb->crc, zf2fs_super_checksum(sb));
	}
	assert_int_equal(zf2fs_dev_write(dev, blk, ZF2FS_BLKSIZE, 0), 0);
	assert_int_equal(zf2fs_dev_write(dev, blk, ZF2FS_BLKSIZE, ZF2FS_BLKSIZE), 0);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	assert_false(zf2fs_vol_clean(vol));
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	free(blk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bmap_matches_flat),
		cmocka_unit_test(test_sit_table_matches_flat),
		cmocka_unit_test(test_nat_bits),
		cmocka_unit_test(test_clean_reads_super_and_checkpoint_only),
		cmocka_unit_test(test_clean_flags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
