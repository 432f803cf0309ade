// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_resize_fit.c - a shrink fits the metadata areas to the new size (lib/move/resize_*.c):
 * an aged 1100 MiB volume (SSA of 2 segments, NAT of 2 per copy), with blocks moved
 * near its end, is shrunk to 600 MiB.  After it, segment 0, every area and the main area
 * are where mkfs puts them for 600 MiB (the areas 3 segments smaller), every file reads
 * back the same and owns its blocks (valid in the SIT, named in the summaries), the SIT
 * adds up, and running again does nothing.  With -s the areas stay as they were, and a
 * later run without it fits them.  A fault at every write (every 5th under the
 * sanitizers) of the whole resize (the cut, then the areas' two moves) leaves a volume
 * of the old size or the new, with every file and the main area where one of the steps
 * puts it, and running again finishes.  A nid in use past what mkfs's NAT for the new
 * size holds makes the plan keep a NAT that holds it.
 */
#include <errno.h>

#include "unit.h"
#include "unit_aged.h"
#include "zf2fs/access.h"
#include "zf2fs/file.h"
#include "zf2fs/move.h"
#include "zf2fs/resize.h"
#include "zf2fs/txn.h"
#include "zf2fs-internal/volume.h"

#define MiB (1024ull * 1024)
#define FULL (1100 * MiB)
#define CUT (600 * MiB)
#define NFILES 30

static size_t file_len(unsigned i)
{
	return i % 10 == 9 ? 200 * 1024 + i : (size_t)(i * 1531 % 12000) + 1;
}

static void fill(uint8_t *buf, unsigned i, size_t len)
{
	for (size_t k = 0; k < len; k++)
		buf[k] = (uint8_t)(i * 7 + k * 13 + (k >> 12));
}

static bool kept(unsigned i)
{
	return i % 2 == 1 || i % 8 == 6;
}

static struct zf2fs_vol *open_vol(struct zf2fs_dev *dev)
{
	struct zf2fs_vol *vol;

	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	return vol;
}

/* The layout mkfs gives a device of @bytes. */
static void mkfs_layout(struct zf2fs_dev *dev, uint64_t bytes, struct zf2fs_mkfs_opts *mk,
			struct zf2fs_layout *lay)
{
	struct zf2fs_dev_geom g;

	memset(mk, 0, sizeof(*mk));
	mk->layout.features = ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM;
	mk->fixed_cp_version = true;
	mk->timestamp = 1700000000;
	assert_int_equal(zf2fs_dev_geometry(dev, &g), 0);
	g.bytes = bytes;
	assert_int_equal(zf2fs_layout_compute(&g, 1, &mk->layout, lay, NULL, 0), 0);
}

/* Format, write files in three transactions (some removed), then move the two lowest
 * sections holding blocks into the last ones, so that the cut has blocks to move and
 * the areas' first move has files in the sections it empties. */
static struct zf2fs_dev *make_aged(void)
{
	const struct unit_files files = { NFILES, file_len, fill, kept };
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout lay;
	struct zf2fs_dev *dev;

	assert_int_equal(zs_dev_open_memory(FULL, &unit_quiet, &dev), 0);
	mkfs_layout(dev, FULL, &mk, &lay);
	assert_int_equal(zf2fs_mkfs_write(&dev, &lay, &mk, &unit_quiet), 0);
	unit_write_files(&dev, 1, &files);
	assert_true(unit_move_to_tail(&dev, 1, 8) > 10);
	return dev;
}

static struct zf2fs_dev *copy_of(const struct zf2fs_dev *base)
{
	struct zf2fs_dev *dev;

	assert_int_equal(zs_dev_open_memory(FULL, &unit_quiet, &dev), 0);
	assert_int_equal(zs_dev_copy_memory(dev, base), 0);
	return dev;
}

/* Block @blk is valid in @sit and its summary (a log's, or the SSA's) names node @nid. */
static void check_owner(struct zf2fs_vol *vol, const struct zf2fs_sit_entry *sit, uint64_t blk,
			uint32_t nid)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_summary_block *ssa = malloc(ZF2FS_BLKSIZE);
	uint32_t segno = zf2fs_main_segno(vi->main_blkaddr, blk);
	uint32_t off = zf2fs_main_seg_off(vi->main_blkaddr, blk);
	const struct zf2fs_summary *e = NULL;

	assert_non_null(ssa);
	assert_true(segno < vi->main_segs);
	assert_true(zf2fs_sit_block_valid(&sit[segno], off));
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		uint32_t s, o;

		zf2fs_vol_curseg(vol, t, &s, &o);
		if (s == segno)
			e = &zf2fs_vol_curseg_summary(vol, t)[off];
	}
	if (!e) {
		assert_int_equal(zf2fs_vol_read_block(vol, zf2fs_vol_ssa_block_addr(vol, segno), ssa),
				 0);
		e = &ssa->entries[off];
	}
	assert_int_equal(zf2fs_get(e->nid), nid);
	free(ssa);
}

/* The inode block and data blocks of @node (inode @ino, @len bytes, its addresses all
 * in the inode) are owned by it in the SIT and the summaries. */
static void check_blocks(struct zf2fs_vol *vol, uint32_t ino, const struct zf2fs_node *node,
			 size_t len)
{
	struct zf2fs_sit_entry *sit;
	struct zf2fs_nat_info ni;
	uint32_t extra = 0;

	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	assert_int_equal(zf2fs_vol_nat_lookup(vol, ino, &ni), 0);
	check_owner(vol, sit, ni.blkaddr, ino);
	if (node->i.i_inline & ZF2FS_EXTRA_ATTR)
		extra = (uint32_t)zf2fs_get(node->i.i_extra_isize) / 4;
	for (size_t b = 0; !(node->i.i_inline & ZF2FS_INLINE_DATA) && b * ZF2FS_BLKSIZE < len;
	     b++) {
		zf2fs_le32 a;

		memcpy(&a, (const uint8_t *)node + zf2fs_inode_addr_pos(extra, (uint32_t)b), 4);
		check_owner(vol, sit, zf2fs_get(a), ino);
	}
	free(sit);
}

/* Every kept file is there with its contents and owns its blocks, the removed ones are
 * not there; the SIT adds up. */
static void check_files(struct zf2fs_vol *vol)
{
	const struct unit_files files = { NFILES, file_len, fill, kept };

	unit_check_files(vol, &files, check_blocks);
	check_tables(vol);
}

static int resize(struct zf2fs_dev *dev, uint64_t bytes, bool safe,
		  struct zf2fs_resize_report *rep)
{
	struct zf2fs_resize_opts o = { .target_blocks = bytes / ZF2FS_BLKSIZE, .safe = safe };
	char why[256] = "";
	int err = zf2fs_resize_devs(&dev, 1, &o, &unit_quiet, rep, why, sizeof(why));

	if (err && getenv("RESIZE_DEBUG"))
		print_message("resize to %llu MiB: %s\n", (unsigned long long)(bytes / MiB), why);
	return err;
}

/* The superblock's areas and the checkpoint's space counts are mkfs's for a device of
 * @bytes. */
static void check_areas(struct zf2fs_dev *dev, uint64_t bytes)
{
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout lay;
	struct zf2fs_vol *vol = open_vol(dev);
	const struct zf2fs_super *sb = zf2fs_vol_super(vol);

	mkfs_layout(dev, bytes, &mk, &lay);
	assert_int_equal(zf2fs_get(sb->segment0_blkaddr), lay.segment0_blkaddr);
	assert_int_equal(zf2fs_get(sb->sit_blkaddr), lay.sit_blkaddr);
	assert_int_equal(zf2fs_get(sb->nat_blkaddr), lay.nat_blkaddr);
	assert_int_equal(zf2fs_get(sb->ssa_blkaddr), lay.ssa_blkaddr);
	assert_int_equal(zf2fs_get(sb->main_blkaddr), lay.main_blkaddr);
	assert_int_equal(zf2fs_get(sb->segment_count), lay.segment_count);
	assert_int_equal(zf2fs_get(sb->segment_count_main), lay.segment_count_main);
	assert_int_equal(zf2fs_get(sb->segment_count_nat), lay.segment_count_nat);
	assert_int_equal(zf2fs_get(sb->segment_count_ssa), lay.segment_count_ssa);
	/* and the counts of mkfs's default rule, which the volume was made with */
	assert_int_equal(zf2fs_get(zf2fs_vol_checkpoint(vol)->rsvd_segment_count), lay.rsvd_segments);
	assert_int_equal(zf2fs_get(zf2fs_vol_checkpoint(vol)->overprov_segment_count),
			 lay.ovp_segments);
	assert_int_equal(zf2fs_get(zf2fs_vol_checkpoint(vol)->user_block_count),
			 lay.user_block_count);
	zf2fs_vol_close(vol);
}

static uint32_t main_blkaddr(struct zf2fs_dev *dev)
{
	struct zf2fs_vol *vol = open_vol(dev);
	uint32_t m = zf2fs_vol_info(vol)->main_blkaddr;

	zf2fs_vol_close(vol);
	return m;
}

static void test_fit(void **state)
{
	struct zf2fs_dev *base = make_aged(), *dev = copy_of(base);
	struct zf2fs_resize_report rep;
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout big, small;
	struct zf2fs_vol *vol;
	uint64_t ver;

	(void)state;
	mkfs_layout(base, FULL, &mk, &big);
	mkfs_layout(base, CUT, &mk, &small);
	/* what the test is about: the new size's areas are smaller */
	assert_true(small.main_blkaddr < big.main_blkaddr);
	assert_int_equal(resize(dev, CUT, false, &rep), 0);
	assert_int_equal(rep.plan.kind, ZF2FS_RESIZE_SHRINK);
	assert_true(rep.moved_blocks > 0);
	assert_int_equal(rep.main_blkaddr_before, big.main_blkaddr);
	assert_int_equal(rep.main_blkaddr_after, small.main_blkaddr);
	check_areas(dev, CUT);
	vol = open_vol(dev);
	check_files(vol);
	ver = zf2fs_vol_info(vol)->cp_ver;
	zf2fs_vol_close(vol);
	/* again: nothing to do */
	assert_int_equal(resize(dev, CUT, false, &rep), 0);
	assert_int_equal(rep.plan.kind, ZF2FS_RESIZE_NONE);
	assert_false(rep.plan.relocate);
	vol = open_vol(dev);
	assert_int_equal(zf2fs_vol_info(vol)->cp_ver, ver);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);

	/* -s: the areas stay */
	dev = copy_of(base);
	assert_int_equal(resize(dev, CUT, true, &rep), 0);
	assert_int_equal(main_blkaddr(dev), big.main_blkaddr);
	vol = open_vol(dev);
	check_files(vol);
	zf2fs_vol_close(vol);
	/* and a later run without it fits them */
	assert_int_equal(resize(dev, CUT, false, &rep), 0);
	assert_int_equal(rep.plan.kind, ZF2FS_RESIZE_NONE);
	check_areas(dev, CUT);
	vol = open_vol(dev);
	check_files(vol);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	zf2fs_dev_close(base);
}

/* A fault at every write of the whole resize. */
static void test_fit_faults(void **state)
{
	struct zf2fs_dev *base = make_aged(), *dev = copy_of(base);
	struct zf2fs_resize_report rep;
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout big, small;
	unsigned long writes, k, seen[3] = { 0 };
	uint32_t first_move = 0;

	(void)state;
	mkfs_layout(base, FULL, &mk, &big);
	mkfs_layout(base, CUT, &mk, &small);
	writes = zs_dev_write_count(dev);
	assert_int_equal(resize(dev, CUT, false, &rep), 0);
	writes = zs_dev_write_count(dev) - writes;
	assert_true(writes > 100);
	for (k = 1; k <= writes; k += sweep_step(5)) {
		struct zf2fs_vol *vol;
		uint32_t m;
		uint64_t blocks;

		assert_int_equal(zs_dev_copy_memory(dev, base), 0);
		zs_dev_fail_writes_after(dev, k);
		assert_int_not_equal(resize(dev, CUT, false, &rep), 0);
		zs_dev_fail_writes_after(dev, 0);
		vol = open_vol(dev);
		m = zf2fs_vol_info(vol)->main_blkaddr;
		blocks = zf2fs_get(zf2fs_vol_super(vol)->block_count);
		/* the old size, or the new with the areas as large as before, in the main
		 * area's first sections (one place only), or fitted */
		if (blocks == FULL / ZF2FS_BLKSIZE) {
			assert_int_equal(m, big.main_blkaddr);
			seen[0]++;
		} else {
			assert_int_equal(blocks, CUT / ZF2FS_BLKSIZE);
			if (m != big.main_blkaddr && m != small.main_blkaddr) {
				if (!first_move)
					first_move = m;
				assert_int_equal(m, first_move);
				seen[1]++;
			} else {
				seen[2]++;
			}
		}
		check_files(vol);
		zf2fs_vol_close(vol);
		/* running again finishes */
		assert_int_equal(resize(dev, CUT, false, &rep), 0);
		check_areas(dev, CUT);
		vol = open_vol(dev);
		check_files(vol);
		zf2fs_vol_close(vol);
	}
	assert_true(seen[0] > 0 && seen[1] > 0 && seen[2] > 0);
	assert_true(first_move > big.main_blkaddr);
	print_message("a fault at %lu of %lu writes: %lu left the old size, %lu the new with the "
		      "areas in the main area's first sections, %lu the new otherwise\n",
		      seen[0] + seen[1] + seen[2], writes, seen[0], seen[1], seen[2]);
	zf2fs_dev_close(dev);
	zf2fs_dev_close(base);
}

/* A nid in use far into the NAT: the fitted NAT holds it. */
static void test_fit_keeps_nids(void **state)
{
	struct zf2fs_dev *dev = make_aged();
	struct zf2fs_resize_report rep;
	struct zf2fs_resize_opts o = { .target_blocks = CUT / ZF2FS_BLKSIZE };
	struct zf2fs_resize_plan p;
	struct zf2fs_nat_block *nat = calloc(1, ZF2FS_BLKSIZE);
	struct zf2fs_vol *vol;
	uint32_t plain_nat, idx;
	char why[256];

	(void)state;
	assert_non_null(nat);
	/* the new size with the old areas, then the plan of fitting them */
	assert_int_equal(resize(dev, CUT, true, &rep), 0);
	vol = open_vol(dev);
	assert_int_equal(zf2fs_resize_plan(vol, &o, &p, why, sizeof(why)), 0);
	assert_true(p.fit && p.relocate && p.evac_secs > 0);
	plain_nat = (uint32_t)zf2fs_get(p.sb.segment_count_nat);
	/* an entry in use in the old NAT's last block, past the fitted one */
	idx = zf2fs_vol_info(vol)->nat_blocks - 1;
	assert_true(idx >= plain_nat / 2 * ZF2FS_BLOCKS_PER_SEG);
	assert_int_equal(zf2fs_vol_read_block(vol, zf2fs_vol_nat_block_addr(vol, idx), nat), 0);
	zf2fs_set(nat->entries[3].ino, idx * ZF2FS_NAT_PER_BLOCK + 3);
	zf2fs_set(nat->entries[3].block_addr, zf2fs_vol_info(vol)->main_blkaddr);
	assert_int_equal(zf2fs_vol_write_block(vol, zf2fs_vol_nat_block_addr(vol, idx), nat), 0);
	zf2fs_vol_close(vol);
	vol = open_vol(dev);
	assert_int_equal(zf2fs_resize_plan(vol, &o, &p, why, sizeof(why)), 0);
	zf2fs_vol_close(vol);
	assert_true(zf2fs_get(p.sb.segment_count_nat) > plain_nat);
	assert_true((uint64_t)zf2fs_get(p.sb.segment_count_nat) / 2 * ZF2FS_BLOCKS_PER_SEG > idx);
	print_message("NAT of %u segments fitted, %u with a nid in use in block %u\n", plain_nat,
		      (uint32_t)zf2fs_get(p.sb.segment_count_nat), idx);
	free(nat);
	zf2fs_dev_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_fit_faults),
		cmocka_unit_test(test_fit_keeps_nids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
