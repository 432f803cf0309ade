// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_resize_zoned.c - lib/move/resize_*.c on emulated host-managed zoned devices (every write
 * must land at a write pointer inside the zone capacity): a single zoned device with the
 * metadata in conventional zones, and a regular metadata device followed by a zoned one
 * (the last device changes size).  An aged volume with blocks moved into its last zones
 * is shrunk by whole zones (the blocks past the cut move below it), then grown back:
 * every file reads back the same, the SIT adds up, the superblock has the new size, and
 * the reserved, overprovision and user block counts are what mkfs gives a device of the
 * new size (the metadata areas being the same size) and the free segment count is the
 * kernel's (zone capacity applied); running again does nothing; a shrink below the data
 * is refused with nothing written, and so is a zoned volume on a device without zones.  A fault at every write of a
 * shrink and of a grow leaves the old or the new size with every file, and running
 * again finishes.
 * A grow past what the SIT and SSA cover (2 MiB zones, a volume made for 128 MiB of a
 * 1152 MiB device: more than the 512 segments one SSA segment covers) moves the
 * metadata areas onto the first sections of the main area when those lie on
 * conventional zones (one device) or on the regular metadata device (two): segment 0
 * moves there, the device list adds up, every file reads back, the free count is the
 * kernel's, a fault at every write leaves the old size (the superblock is the last
 * write) and running again finishes; with conventional zones for only one of the
 * sections the new areas take, it is refused and the device is byte-identical.  Shrunk
 * back to its first size, such a volume gets its metadata areas fitted: they return in
 * one move to where mkfs put them, with mkfs's counts (a fault at every write of that
 * shrink leaves the old size or the new, and running again finishes).
 */
#include <errno.h>

#include "unit.h"
#include "unit_aged.h"
#include "zf2fs/access.h"
#include "zf2fs/file.h"
#include "zf2fs/move.h"
#include "zf2fs/resize.h"
#include "zf2fs/txn.h"
#include "zf2fs/zoned.h"
#include "zf2fs-internal/move.h"

#define MiB (1024ull * 1024)
#define ZONE (8 * MiB)
#define CAP (6 * MiB)
#define NFILES 40

/* A rig: one zoned device of 256 MiB (4 conventional zones), or a 64 MiB regular
 * metadata device and a 128 MiB zoned one without conventional zones.  The last device
 * is @full bytes; the shrink takes four zones away (@cut bytes left).  Volumes are made
 * for @fmt bytes of the last device (@full unless a test grows past that). */
struct rig {
	unsigned nd;
	uint64_t full, cut, fmt;
	uint64_t zone, cap;
	uint32_t nconv;
	struct zf2fs_dev *devs[2];
};

static void rig_open_geom(struct rig *r, unsigned nd, uint64_t full, uint64_t fmt,
			  uint64_t zone, uint64_t cap, uint32_t nconv)
{
	r->nd = nd;
	r->full = full;
	r->fmt = fmt;
	r->zone = zone;
	r->cap = cap;
	r->nconv = nconv;
	r->cut = r->full - 4 * zone;
	if (nd == 1) {
		assert_int_equal(zs_dev_open_memory_zoned(full, zone, cap, nconv, &unit_quiet,
							     &r->devs[0]), 0);
		return;
	}
	assert_int_equal(zs_dev_open_memory(64 * MiB, &unit_quiet, &r->devs[0]), 0);
	assert_int_equal(zs_dev_open_memory_zoned(full, zone, cap, nconv, &unit_quiet,
						     &r->devs[1]), 0);
}

static void rig_open(struct rig *r, unsigned nd)
{
	uint64_t full = nd == 1 ? 256 * MiB : 128 * MiB;

	rig_open_geom(r, nd, full, full, ZONE, CAP, nd == 1 ? 4 : 0);
}

static void rig_close(struct rig *r)
{
	for (unsigned i = 0; i < r->nd; i++)
		zf2fs_dev_close(r->devs[i]);
}

static void rig_copy(struct rig *dst, const struct rig *src)
{
	rig_open_geom(dst, src->nd, src->full, src->fmt, src->zone, src->cap, src->nconv);
	for (unsigned i = 0; i < src->nd; i++)
		assert_int_equal(zs_dev_copy_memory(dst->devs[i], src->devs[i]), 0);
}

/* @dst (a copy of @src once) back to @src's contents, its devices kept: a fault sweep
 * restores thousands of times, and allocating a gigabyte device each time is slow */
static void rig_restore(struct rig *dst, const struct rig *src)
{
	for (unsigned i = 0; i < src->nd; i++)
		assert_int_equal(zs_dev_copy_memory(dst->devs[i], src->devs[i]), 0);
}

static struct zf2fs_vol *rig_vol(struct rig *r)
{
	struct zf2fs_vol *vol;

	assert_int_equal(zf2fs_vol_open_devs(r->devs, r->nd, &unit_quiet, &vol), 0);
	return vol;
}

static size_t file_len(unsigned i)
{
	return i % 10 == 9 ? 300 * 1024 + i : (size_t)(i * 1531 % 12000) + 1;
}

static void fill(uint8_t *buf, unsigned i, size_t len)
{
	for (size_t k = 0; k < len; k++)
		buf[k] = (uint8_t)(i * 31 + k / 4096 + k * 7);
}

static bool kept(unsigned i)
{
	return i % 2 == 1 || i % 8 == 6;
}

/* The layout mkfs -m gives these devices, the last one cut to @last_bytes. */
static void mkfs_layout(const struct rig *r, uint64_t last_bytes, struct zf2fs_mkfs_opts *mk,
			struct zf2fs_layout *lay)
{
	struct zf2fs_dev_geom g[2];

	memset(mk, 0, sizeof(*mk));
	mk->layout.features = ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM;
	mk->layout.zoned = true;
	mk->fixed_cp_version = true;
	mk->timestamp = 1700000000;
	for (unsigned i = 0; i < r->nd; i++) {
		assert_int_equal(zf2fs_dev_geometry(r->devs[i], &g[i]), 0);
		g[i].sector_size = 4096;   /* the memory device says 512, the zoned one 4096 */
	}
	g[r->nd - 1].bytes = last_bytes;
	g[r->nd - 1].nr_zones = (uint32_t)(last_bytes / r->zone);
	if (g[r->nd - 1].nr_conv_zones > g[r->nd - 1].nr_zones)
		g[r->nd - 1].nr_conv_zones = g[r->nd - 1].nr_zones;
	assert_int_equal(zf2fs_layout_compute(g, r->nd, &mk->layout, lay, NULL, 0), 0);
}

/* Format, age (files in three transactions, some removed), then move the sections
 * holding blocks into the last zones, so that a shrink has blocks to move. */
static void make_aged_on(struct rig *r);

static void make_aged(struct rig *r, unsigned nd)
{
	rig_open(r, nd);
	make_aged_on(r);
}

/* make_aged on the open rig @r, the volume made for @r->fmt bytes of its last device */
static void make_aged_on(struct rig *r)
{
	const struct unit_files files = { NFILES, file_len, fill, kept };
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout lay;

	mkfs_layout(r, r->fmt, &mk, &lay);
	assert_int_equal(zf2fs_mkfs_write(r->devs, &lay, &mk, &unit_quiet), 0);
	unit_write_files(r->devs, r->nd, &files);
	assert_true(unit_move_to_tail(r->devs, r->nd, 4) > 10);
}

/* Every kept file is there with its contents, the removed ones are not; the SIT adds up. */
static void check_files(struct zf2fs_vol *vol)
{
	const struct unit_files files = { NFILES, file_len, fill, kept };

	unit_check_files(vol, &files, NULL);
	check_tables(vol);
}

/* The highest main-area segment holding a valid block. */
static uint32_t last_used(struct zf2fs_vol *vol)
{
	struct zf2fs_sit_entry *sit;
	uint32_t last = 0;

	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	for (uint32_t s = 0; s < zf2fs_vol_info(vol)->main_segs; s++)
		if (zf2fs_sit_valid_blocks(&sit[s]))
			last = s;
	free(sit);
	return last;
}

/* The progress a resize reported: its calls (done, total), in order. */
struct progress_log {
	unsigned n;
	uint32_t done[256], total[256];
};

static struct progress_log plog;

static void record_progress(void *arg, uint32_t done, uint32_t total)
{
	struct progress_log *l = arg;

	assert_true(l->n < 256);
	l->done[l->n] = done;
	l->total[l->n++] = total;
}

/* The runs @plog holds, each opening with (0, total), counting up to its total and ending
 * there; the first run's total in *@first_total. */
static unsigned progress_runs(uint32_t *first_total)
{
	unsigned runs = 0;

	for (unsigned i = 0; i < plog.n; i++) {
		assert_true(plog.total[i] > 0);
		assert_true(plog.done[i] <= plog.total[i]);
		if (!plog.done[i]) {
			/* the run before it ended at its total */
			if (runs)
				assert_int_equal(plog.done[i - 1], plog.total[i - 1]);
			if (!runs)
				*first_total = plog.total[i];
			runs++;
			continue;
		}
		assert_true(i > 0 && plog.total[i] == plog.total[i - 1]);
		assert_true(plog.done[i] > plog.done[i - 1]);
	}
	if (runs)
		assert_int_equal(plog.done[plog.n - 1], plog.total[plog.n - 1]);
	return runs;
}

static int resize(struct rig *r, uint64_t last_bytes, struct zf2fs_resize_report *rep)
{
	struct zf2fs_resize_opts o = { .target_blocks = last_bytes / ZF2FS_BLKSIZE,
				       .batch_blocks = 0 };
	char why[256] = "";
	int err;

	plog.n = 0;
	err = zf2fs_resize_devs_progress(r->devs, r->nd, 0, &o, record_progress, &plog,
					 &unit_quiet, rep, why, sizeof(why));

	if (err && getenv("RESIZE_DEBUG"))
		print_message("resize to %llu MiB: %s\n", (unsigned long long)(last_bytes / MiB), why);
	return err;
}

static bool sit_empty(void *arg, uint32_t segno)
{
	return !zf2fs_sit_valid_blocks(&((const struct zf2fs_sit_entry *)arg)[segno]);
}

/* The free segment count is the kernel's (segments past the zone capacity never free). */
static void check_free(struct rig *r)
{
	struct zf2fs_vol *vol = rig_vol(r);
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint32_t unusable, logs[ZF2FS_NR_CURSEG], off;
	struct zf2fs_sit_entry *sit;

	assert_int_equal(zf2fs_vol_zone_unusable(vol, &unusable), 0);
	assert_int_equal(unusable, (r->zone - r->cap) / ZF2FS_BLKSIZE);
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
		zf2fs_vol_curseg(vol, t, &logs[t], &off);
	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	assert_int_equal(zf2fs_free_segs(vi, unusable, logs, sit_empty, sit),
			 zf2fs_get(zf2fs_vol_checkpoint(vol)->free_segment_count));
	free(sit);
	zf2fs_vol_close(vol);
}

/* The volume's counts are those of a fresh mkfs for a last device of @last_bytes; the
 * free segment count is the kernel's (segments past the zone capacity never free). */
static void check_counts(struct rig *r, uint64_t last_bytes)
{
	struct zf2fs_vol *vol = rig_vol(r);
	const struct zf2fs_checkpoint *cp = zf2fs_vol_checkpoint(vol);
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout lay;

	mkfs_layout(r, last_bytes, &mk, &lay);
	/* the metadata areas coincide, so the main areas do too */
	assert_int_equal(lay.main_blkaddr, vi->main_blkaddr);
	assert_int_equal(lay.segment_count_main, vi->main_segs);
	assert_int_equal(lay.segment_count, zf2fs_get(zf2fs_vol_super(vol)->segment_count));
	assert_int_equal(lay.rsvd_segments, zf2fs_get(cp->rsvd_segment_count));
	assert_int_equal(lay.ovp_segments, zf2fs_get(cp->overprov_segment_count));
	assert_int_equal(lay.user_block_count, zf2fs_get(cp->user_block_count));
	assert_int_equal(lay.block_count, zf2fs_get(zf2fs_vol_super(vol)->block_count));
	{
		uint32_t unusable, logs[ZF2FS_NR_CURSEG], off;
		struct zf2fs_sit_entry *sit;

		assert_int_equal(zf2fs_vol_zone_unusable(vol, &unusable), 0);
		assert_int_equal(unusable, (r->zone - r->cap) / ZF2FS_BLKSIZE);
		for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
			zf2fs_vol_curseg(vol, t, &logs[t], &off);
		assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
		assert_int_equal(zf2fs_free_segs(vi, unusable, logs, sit_empty, sit),
				 zf2fs_get(cp->free_segment_count));
		free(sit);
	}
	zf2fs_vol_close(vol);
}

static void shrink_and_grow(unsigned nd)
{
	struct zf2fs_resize_report rep;
	struct zf2fs_vol *vol;
	struct rig r, copy;
	uint32_t old_main, used;
	uint8_t *before;

	make_aged(&r, nd);
	vol = rig_vol(&r);
	old_main = zf2fs_vol_info(vol)->main_segs;
	used = last_used(vol);
	print_message("%u device(s): %u main segments, last used %u\n", nd, old_main, used);
	assert_true(used >= old_main - 4 * 4);   /* blocks in the last zones */
	check_files(vol);
	zf2fs_vol_close(vol);

	/* below the data: refused, nothing written */
	before = malloc(r.full);
	assert_non_null(before);
	memcpy(before, zs_dev_memory(r.devs[nd - 1]), r.full);
	assert_int_equal(resize(&r, 2 * ZONE, &rep), -ENOSPC);
	assert_memory_equal(before, zs_dev_memory(r.devs[nd - 1]), r.full);
	free(before);

	/* 128 -> 96 MiB: four zones go, their blocks move below the cut */
	assert_int_equal(resize(&r, r.cut, &rep), 0);
	assert_int_equal(rep.plan.kind, ZF2FS_RESIZE_SHRINK);
	assert_true(rep.moved_blocks > 10);
	/* progress: compaction's run first when free sections were short (counting those it
	 * freed), then the run emptying the four zones */
	{
		uint32_t first = 0;
		unsigned runs = progress_runs(&first);

		print_message("%u device(s): %u sections short, %u progress runs\n", nd,
			      rep.plan.short_secs, runs);
		assert_int_equal(runs, rep.plan.short_secs ? 2 : 1);
		/* a section is a zone: four of them past the cut */
		assert_int_equal(first, rep.plan.short_secs ? rep.plan.short_secs : 4);
	}
	vol = rig_vol(&r);
	assert_int_equal(zf2fs_vol_info(vol)->main_segs, old_main - 4 * 4);
	assert_true(last_used(vol) < old_main - 4 * 4);
	check_files(vol);
	zf2fs_vol_close(vol);
	check_counts(&r, r.cut);
	print_message("%u device(s): shrunk by 4 zones, %llu blocks moved, %u checkpoints\n",
		      nd, (unsigned long long)rep.moved_blocks, rep.checkpoints);

	/* again: nothing to do */
	assert_int_equal(resize(&r, r.cut, &rep), 0);
	assert_int_equal(rep.plan.kind, ZF2FS_RESIZE_NONE);
	assert_int_equal(rep.checkpoints, 0);

	/* and back to 128 MiB: within what the SIT and SSA cover */
	rig_copy(&copy, &r);
	assert_int_equal(resize(&r, r.full, &rep), 0);
	assert_int_equal(rep.plan.kind, ZF2FS_RESIZE_GROW);
	assert_false(rep.plan.relocate);
	vol = rig_vol(&r);
	assert_int_equal(zf2fs_vol_info(vol)->main_segs, old_main);
	check_files(vol);
	zf2fs_vol_close(vol);
	check_counts(&r, r.full);
	/* more data fits in the zones the grow brought back */
	vol = rig_vol(&r);
	{
		struct zf2fs_txn *txn;
		uint8_t *buf = calloc(1, 4 * MiB);

		assert_non_null(buf);
		assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
		assert_int_equal(zf2fs_txn_create(txn, ZF2FS_ROOT_INO, "more", 0100644, buf,
						  4 * MiB, NULL), 0);
		assert_int_equal(zf2fs_txn_commit(txn), 0);
		zf2fs_txn_free(txn);
		free(buf);
	}
	zf2fs_vol_close(vol);
	vol = rig_vol(&r);
	check_files(vol);
	zf2fs_vol_close(vol);
	rig_close(&copy);
	rig_close(&r);
}

/* A zoned volume copied to a device without zones (an image file): its zone capacity is
 * not on disk, so the space policy cannot be made: refused, nothing written. */
static void test_image_refused(void **state)
{
	struct zf2fs_resize_report rep;
	struct zf2fs_dev *plain;
	struct zf2fs_resize_opts o = { .target_blocks = 128 * MiB / ZF2FS_BLKSIZE };
	char why[256] = "";
	struct rig r;

	(void)state;
	make_aged(&r, 1);
	assert_int_equal(zs_dev_open_memory(r.full, &unit_quiet, &plain), 0);
	assert_int_equal(zf2fs_dev_write(plain, zs_dev_memory(r.devs[0]), r.full, 0), 0);
	assert_int_equal(zf2fs_resize_devs(&plain, 1, &o, &unit_quiet, &rep, why, sizeof(why)),
			 -EOPNOTSUPP);
	assert_non_null(strstr(why, "without zones"));
	assert_memory_equal(zs_dev_memory(plain), zs_dev_memory(r.devs[0]), r.full);
	zf2fs_dev_close(plain);
	rig_close(&r);
}

static void test_single_shrink_grow(void **state)
{
	(void)state;
	shrink_and_grow(1);
}

static void test_multi_shrink_grow(void **state)
{
	(void)state;
	shrink_and_grow(2);
}

/* A fault at every write of a resize of @base to @last_bytes: the volume left is the old
 * size or the new, whole, with every file; running again finishes.  The fault is on
 * device @fdev (its writes are counted). */
static void fault_sweep_resize(const struct rig *base, uint64_t last_bytes, unsigned fdev)
{
	struct zf2fs_resize_report rep;
	struct zf2fs_vol *vol;
	struct rig r;
	uint32_t old_main, new_main, fit_main;
	unsigned long writes, k, old_seen = 0, new_seen = 0;
	bool relocating, fitting;
	uint64_t old_blocks;

	rig_copy(&r, base);
	vol = rig_vol(&r);
	old_main = zf2fs_vol_info(vol)->main_segs;
	old_blocks = zf2fs_get(zf2fs_vol_super(vol)->block_count);
	zf2fs_vol_close(vol);
	writes = zs_dev_write_count(r.devs[fdev]);
	assert_int_equal(resize(&r, last_bytes, &rep), 0);
	writes = zs_dev_write_count(r.devs[fdev]) - writes;
	new_main = rep.plan.new_main_segs;
	relocating = rep.plan.relocate;
	/* a shrink that fits the metadata areas ends with more main segments than its cut,
	 * after a step with fewer: those are the new size too */
	vol = rig_vol(&r);
	fit_main = zf2fs_vol_info(vol)->main_segs;
	zf2fs_vol_close(vol);
	fitting = fit_main != new_main;
	assert_true(new_main != old_main);
	assert_true(writes > 0);
	for (k = 1; k <= writes; k++) {
		uint32_t main;
		int err;

		rig_restore(&r, base);
		zs_dev_fail_writes_after(r.devs[fdev], k);
		err = resize(&r, last_bytes, &rep);
		zs_dev_fail_writes_after(r.devs[fdev], 0);
		assert_int_not_equal(err, 0);
		vol = rig_vol(&r);
		main = zf2fs_vol_info(vol)->main_segs;
		if (fitting && zf2fs_get(zf2fs_vol_super(vol)->block_count) != old_blocks)
			new_seen++;   /* the cut done; the areas where one step put them */
		else if (main == new_main)
			new_seen++;
		else if (main == old_main)
			old_seen++;
		else
			fail_msg("a fault left %u main segments (%u before, %u after)", main,
				 old_main, new_main);
		check_files(vol);
		zf2fs_vol_close(vol);
		/* running again finishes */
		assert_int_equal(resize(&r, last_bytes, &rep), 0);
		vol = rig_vol(&r);
		assert_int_equal(zf2fs_vol_info(vol)->main_segs, fit_main);
		check_files(vol);
		zf2fs_vol_close(vol);
		/* a grow interrupted between its superblock and its counts leaves the old
		 * size's counts, from which the rule they were made with is guessed (the
		 * ratio its reserved count gives), not always mkfs's default */
		if (relocating)
			check_free(&r);
		else if (main == old_main || new_main < old_main)
			check_counts(&r, last_bytes);
	}
	rig_close(&r);
	assert_true(old_seen > 0);
	print_message("%u device(s): resize to %llu MiB: a fault at each of %lu writes of "
		      "device %u (%lu left the old size, %lu the new)\n", base->nd,
		      (unsigned long long)(last_bytes / MiB), writes, fdev, old_seen, new_seen);
}

static void faults(unsigned nd)
{
	struct zf2fs_resize_report rep;
	struct rig base, grown;

	make_aged(&base, nd);
	fault_sweep_resize(&base, base.cut, 0);
	/* a grow from the shrunk volume */
	rig_copy(&grown, &base);
	assert_int_equal(resize(&grown, base.cut, &rep), 0);
	fault_sweep_resize(&grown, base.full, 0);
	rig_close(&grown);
	rig_close(&base);
}

static void test_single_faults(void **state)
{
	(void)state;
	faults(1);
}

static void test_multi_faults(void **state)
{
	(void)state;
	faults(2);
}

/* ---- a grow past what the SIT and SSA cover ------------------------------------------- */
/* 2 MiB zones (a section is one segment); the volume is made for 128 MiB of a 1152 MiB
 * device, so that the main area outgrows what one SSA segment covers (512 segments) */
#define GZONE (2 * MiB)
#define GCAP (3 * MiB / 2)
#define GFMT (128 * MiB)
#define GFULL (1152 * MiB)
#define GCONV 48   /* conventional zones: the old and the new metadata areas */

static void make_small(struct rig *r, unsigned nd, uint32_t nconv)
{
	rig_open_geom(r, nd, GFULL, GFMT, GZONE, GCAP, nd == 1 ? nconv : 0);
	make_aged_on(r);
}

/* @r was relocated from a volume whose main area started at @old_main: segment 0 is
 * there, the main area passes what the old SSA covered, the device list adds up, the
 * new areas lie on conventional space, every file reads back, the free count is the
 * kernel's; running again does nothing. */
static void check_relocated(struct rig *r, uint32_t old_main, uint32_t old_ssa_segs)
{
	struct zf2fs_resize_report rep;
	struct zf2fs_vol *vol = rig_vol(r);
	const struct zf2fs_super *sb = zf2fs_vol_super(vol);
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint64_t first, last;

	assert_int_equal(zf2fs_get(sb->segment0_blkaddr), old_main);
	assert_true(vi->main_segs > old_ssa_segs * ZF2FS_BLOCKS_PER_SEG);
	assert_true(zf2fs_get(sb->segment_count_ssa) > old_ssa_segs);
	if (r->nd > 1) {
		assert_int_equal(zf2fs_get(sb->devs[0].total_segments) +
				 zf2fs_get(sb->devs[1].total_segments),
				 zf2fs_get(sb->segment_count));
		/* the first device still ends where it did (64 MiB) */
		assert_int_equal(zf2fs_vol_dev_range(vol, 0, &first, &last), 0);
		assert_int_equal(last + 1, 64 * MiB / ZF2FS_BLKSIZE);
	} else {
		assert_true(vi->main_blkaddr <= (uint64_t)r->nconv * (r->zone / ZF2FS_BLKSIZE));
	}
	check_files(vol);
	zf2fs_vol_close(vol);
	check_free(r);
	assert_int_equal(resize(r, r->full, &rep), 0);
	assert_int_equal(rep.plan.kind, ZF2FS_RESIZE_NONE);
}

static void relocate(unsigned nd)
{
	struct zf2fs_resize_report rep;
	struct zf2fs_vol *vol;
	struct rig r;
	uint32_t old_main, old_ssa, old_segs;

	make_small(&r, nd, GCONV);
	vol = rig_vol(&r);
	old_main = zf2fs_vol_info(vol)->main_blkaddr;
	old_segs = zf2fs_vol_info(vol)->main_segs;
	old_ssa = (uint32_t)zf2fs_get(zf2fs_vol_super(vol)->segment_count_ssa);
	zf2fs_vol_close(vol);
	assert_int_equal(resize(&r, r.full, &rep), 0);
	assert_int_equal(rep.plan.kind, ZF2FS_RESIZE_GROW);
	assert_true(rep.plan.relocate);
	print_message("%u device(s): relocating grow %u -> %u main segments, %llu blocks moved, "
		      "%llu metadata blocks\n", nd, old_segs, rep.plan.new_main_segs,
		      (unsigned long long)rep.moved_blocks, (unsigned long long)rep.meta_blocks);
	check_relocated(&r, old_main, old_ssa);
	/* shrunk back: the areas the grow rebuilt are larger than the old size needs, and
	 * the old areas' space in front of segment 0 holds mkfs's: they go back there, the
	 * layout and counts mkfs's for that size */
	assert_int_equal(resize(&r, r.fmt, &rep), 0);
	print_message("%u device(s): shrunk back: %s\n", nd, rep.plan.note);
	assert_int_equal(rep.plan.kind, ZF2FS_RESIZE_SHRINK);
	assert_int_equal(rep.main_blkaddr_after, old_main);
	check_counts(&r, r.fmt);
	vol = rig_vol(&r);
	check_files(vol);
	zf2fs_vol_close(vol);
	check_free(&r);
	assert_int_equal(resize(&r, r.fmt, &rep), 0);
	assert_int_equal(rep.plan.kind, ZF2FS_RESIZE_NONE);
	assert_false(rep.plan.relocate);
	print_message("%u device(s): shrunk back, the areas fitted (main area at block %u)\n",
		      nd, old_main);
	rig_close(&r);
}

static void test_single_relocate(void **state)
{
	(void)state;
	relocate(1);
}

static void test_multi_relocate(void **state)
{
	(void)state;
	relocate(2);
}

/* Too few conventional zones for the new areas: refused with the reason, nothing
 * written (device byte-identical). */
static void test_relocate_refused(void **state)
{
	struct zf2fs_resize_report rep;
	struct zf2fs_resize_opts o = { .target_blocks = GFULL / ZF2FS_BLKSIZE };
	struct zf2fs_vol *vol;
	struct rig probe, r, before;
	uint32_t main_zone;
	char why[256] = "";

	(void)state;
	/* the old metadata's zones, and one more: the new areas need several */
	make_small(&probe, 1, GCONV);
	vol = rig_vol(&probe);
	main_zone = (uint32_t)(zf2fs_vol_info(vol)->main_blkaddr / (GZONE / ZF2FS_BLKSIZE));
	zf2fs_vol_close(vol);
	rig_close(&probe);
	make_small(&r, 1, main_zone + 1);
	vol = rig_vol(&r);
	assert_int_equal(zf2fs_vol_info(vol)->main_blkaddr, main_zone * (GZONE / ZF2FS_BLKSIZE));
	zf2fs_vol_close(vol);
	rig_copy(&before, &r);
	assert_int_equal(zf2fs_resize_devs(r.devs, 1, &o, &unit_quiet, &rep, why, sizeof(why)),
			 -EOPNOTSUPP);
	print_message("refused: %s\n", why);
	assert_non_null(strstr(why, "conventional"));
	assert_non_null(strstr(why, "sequential zone"));
	assert_memory_equal(zs_dev_memory(before.devs[0]), zs_dev_memory(r.devs[0]), GFULL);
	rig_close(&before);
	rig_close(&r);
}

static void test_relocate_faults(void **state)
{
	struct zf2fs_resize_report rep;
	struct rig base, grown;

	(void)state;
	make_small(&base, 1, GCONV);
	fault_sweep_resize(&base, GFULL, 0);
	/* the shrink back, fitting the areas */
	rig_copy(&grown, &base);
	assert_int_equal(resize(&grown, GFULL, &rep), 0);
	fault_sweep_resize(&grown, GFMT, 0);
	rig_close(&grown);
	rig_close(&base);
}

/* Compaction: a 1 GiB zoned device filled with files of half a section (two to a
 * section), the nine lowest sections of two such files moved into the top ten, one file removed from each of
 * 50 other sections (half valid), then more files written until eight free sections are
 * left outside the top ten.  A shrink cutting those ten (nine sections of valid blocks, eight
 * free ones below) compacts the emptiest sections first: progress reports that as a run of its
 * own, counting the sections it freed, before the run emptying the cut; every file reads
 * back and the tables add up. */
#define HALF_SEC_BLOCKS (CAP / ZF2FS_BLKSIZE / 2)
#define TOP_SECS 10

static void half_fill(uint8_t *buf, unsigned i, size_t len)
{
	for (size_t k = 0; k < len; k += ZF2FS_BLKSIZE)
		memset(buf + k, (int)(i * 7 + k / ZF2FS_BLKSIZE) & 0xff, ZF2FS_BLKSIZE);
}

static size_t half_len(unsigned i)
{
	(void)i;
	return HALF_SEC_BLOCKS * ZF2FS_BLKSIZE;
}

/* the files test_compact_progress removed */
static bool *compact_gone;

static bool compact_kept(unsigned i)
{
	return !compact_gone[i];
}

/* Files f<first>... f<first + n - 1> of half a section, 16 to a transaction. */
static void write_halves(struct rig *r, unsigned first, unsigned n, uint8_t *buf)
{
	char name[16];

	for (unsigned done = 0; done < n;) {
		struct zf2fs_vol *vol = rig_vol(r);
		struct zf2fs_txn *txn;

		assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
		for (unsigned k = 0; k < 16 && done < n; k++, done++) {
			snprintf(name, sizeof(name), "f%03u", first + done);
			half_fill(buf, first + done, HALF_SEC_BLOCKS * ZF2FS_BLKSIZE);
			assert_int_equal(zf2fs_txn_create(txn, ZF2FS_ROOT_INO, name, 0100644, buf,
							  HALF_SEC_BLOCKS * ZF2FS_BLKSIZE, NULL), 0);
		}
		assert_int_equal(zf2fs_txn_commit(txn), 0);
		zf2fs_txn_free(txn);
		zf2fs_vol_close(vol);
	}
}

/* Free sections (no valid block, no log) below section @end. */
static uint32_t free_below(struct zf2fs_vol *vol, uint32_t end)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_sit_entry *sit;
	uint32_t n = 0;

	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	for (uint32_t sec = 0; sec < end; sec++) {
		uint32_t v = 0;
		bool log = false;

		for (uint32_t k = 0; k < vi->segs_per_sec; k++)
			v += zf2fs_sit_valid_blocks(&sit[sec * vi->segs_per_sec + k]);
		for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
			uint32_t seg, off;

			zf2fs_vol_curseg(vol, t, &seg, &off);
			log |= seg / vi->segs_per_sec == sec;
		}
		n += !v && !log;
	}
	free(sit);
	return n;
}

static void test_compact_progress(void **state)
{
	uint8_t *buf = malloc(HALF_SEC_BLOCKS * ZF2FS_BLKSIZE);
	struct zf2fs_resize_report rep;
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout lay;
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	uint32_t *sec_of, main_secs, sps, files, low = 0, first = 0, nfree;
	bool *gone;
	char name[16];
	struct rig r;

	(void)state;
	assert_non_null(buf);
	rig_open_geom(&r, 1, 1024 * MiB, 1024 * MiB, ZONE, CAP, 4);
	mkfs_layout(&r, r.fmt, &mk, &lay);
	assert_int_equal(zf2fs_mkfs_write(r.devs, &lay, &mk, &unit_quiet), 0);
	vol = rig_vol(&r);
	main_secs = zf2fs_vol_info(vol)->main_secs;
	sps = zf2fs_vol_info(vol)->segs_per_sec;
	zf2fs_vol_close(vol);
	/* all the volume holds but a few sections, ending well below the top ten */
	files = 2 * (main_secs - TOP_SECS - 20);
	sec_of = calloc(files + 64, sizeof(*sec_of));
	gone = calloc(files + 64, sizeof(*gone));
	assert_non_null(sec_of);
	assert_non_null(gone);
	write_halves(&r, 0, files, buf);
	vol = rig_vol(&r);
	for (unsigned i = 0; i < files; i++) {
		struct zf2fs_node node;
		uint32_t ino, addr;

		snprintf(name, sizeof(name), "f%03u", i);
		assert_int_equal(zf2fs_path_lookup(vol, name, 0, &ino, NULL, 0), 0);
		assert_int_equal(zf2fs_inode_read(vol, ino, &node, NULL, NULL, 0), 0);
		assert_int_equal(zf2fs_file_bmap(vol, &node, 0, &addr, NULL, 0), 0);
		sec_of[i] = (addr - zf2fs_vol_info(vol)->main_blkaddr) / ZF2FS_BLOCKS_PER_SEG / sps;
	}
	assert_true(sec_of[files - 1] < main_secs - TOP_SECS);
	/* the ten lowest data sections (full) to the top ten */
	{
		struct zf2fs_move_stats st = { 0 };

		uint32_t moved = 0;

		assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
		/* nine: the tenth is room for the moved blocks' log to end in */
		for (unsigned i = 0; i + 1 < files && moved < TOP_SECS - 1; i++) {
			/* a section holding two of the files and nothing else */
			if (sec_of[i] != sec_of[i + 1] || (i && sec_of[i - 1] == sec_of[i]) ||
			    (i + 2 < files && sec_of[i + 2] == sec_of[i]))
				continue;
			assert_int_equal(zf2fs_move_section(txn, sec_of[i], &st), 0);
			low = sec_of[i];
			moved++;
		}
		assert_int_equal(moved, TOP_SECS - 1);
		assert_int_equal(zf2fs_move_set_target(txn, main_secs - TOP_SECS, main_secs), 0);
		assert_int_equal(zf2fs_txn_commit(txn), 0);
		zf2fs_txn_free(txn);
		print_message("compaction: %llu data blocks moved to the top %u sections\n",
			      (unsigned long long)st.data_blocks, TOP_SECS);
	}
	zf2fs_vol_close(vol);
	/* the zones of the sections emptied, reset for the writes to come */
	vol = rig_vol(&r);
	assert_int_equal(zf2fs_move_reset_free_zones(vol, NULL), 0);
	zf2fs_vol_close(vol);

	/* one file out of 50 full sections above those: half valid */
	vol = rig_vol(&r);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	{
		uint32_t halved = 0;

		for (unsigned i = 0; i + 1 < files && halved < 50; i++) {
			if (sec_of[i] <= low || sec_of[i] != sec_of[i + 1] ||
			    (i && sec_of[i - 1] == sec_of[i]))
				continue;
			snprintf(name, sizeof(name), "f%03u", i);
			assert_int_equal(zf2fs_txn_unlink(txn, ZF2FS_ROOT_INO, name), 0);
			gone[i] = true;
			halved++;
		}
		assert_int_equal(halved, 50);
	}
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	nfree = free_below(vol, main_secs - TOP_SECS);
	zf2fs_vol_close(vol);
	/* then files until eight free sections are left below the top ten */
	assert_true(nfree > 8 && nfree - 8 <= 32);
	write_halves(&r, files, 2 * (nfree - 8), buf);
	files += 2 * (nfree - 8);
	vol = rig_vol(&r);
	nfree = free_below(vol, main_secs - TOP_SECS);
	zf2fs_vol_close(vol);
	assert_int_equal(nfree, 8);

	/* cut the top ten: their valid blocks need nine sections, eight are free */
	assert_int_equal(resize(&r, r.full - TOP_SECS * ZONE, &rep), 0);
	assert_int_equal(rep.plan.kind, ZF2FS_RESIZE_SHRINK);
	print_message("compaction: %u sections short, %llu blocks moved, %u checkpoints, %u "
		      "progress calls\n", rep.plan.short_secs, (unsigned long long)rep.moved_blocks,
		      rep.checkpoints, plog.n);
	assert_true(rep.plan.short_secs > 0);
	assert_int_equal(progress_runs(&first), 2);
	assert_int_equal(first, rep.plan.short_secs);

	/* every file left reads back */
	vol = rig_vol(&r);
	assert_int_equal(zf2fs_vol_info(vol)->main_secs, main_secs - TOP_SECS);
	{
		const struct unit_files left = { files, half_len, half_fill, compact_kept };

		compact_gone = gone;
		unit_check_files(vol, &left, NULL);
	}
	check_tables(vol);
	zf2fs_vol_close(vol);
	free(sec_of);
	free(gone);
	free(buf);
	rig_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image_refused),
		cmocka_unit_test(test_single_shrink_grow),
		cmocka_unit_test(test_multi_shrink_grow),
		cmocka_unit_test(test_single_faults),
		cmocka_unit_test(test_multi_faults),
		cmocka_unit_test(test_single_relocate),
		cmocka_unit_test(test_multi_relocate),
		cmocka_unit_test(test_relocate_refused),
		cmocka_unit_test(test_relocate_faults),
		cmocka_unit_test(test_compact_progress),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
