// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_zoned.c - lib/device/zoned.c without a zoned device: the names of types, conditions and
 * section states, the device ranges and block-to-device mapping of an open volume, and
 * the errors a device without zones gives (a memory device stands for an image file:
 * no zone report, no reset, no finish, and a volume zone view of -ENODEV).  The calls
 * on real zoned devices are proved by the kernel bench (tests/vm/zoned_*.sh).
 */
#include <errno.h>
#include <string.h>

#include "unit.h"
#include "zf2fs/gc.h"
#include "zf2fs/zoned.h"

#define MiB (1024ull * 1024)

static const struct zf2fs_log quiet = { .level = 0 };

static void test_names(void **state)
{
	struct zf2fs_sec_zone z = { .type = ZF2FS_ZONE_SEQ_REQ, .cond = ZF2FS_ZONE_IMP_OPEN };

	(void)state;
	assert_string_equal(zf2fs_zone_type_name(ZF2FS_ZONE_CONV), "conventional");
	assert_string_equal(zf2fs_zone_type_name(ZF2FS_ZONE_SEQ_REQ), "seq-required");
	assert_string_equal(zf2fs_zone_type_name((enum zf2fs_zone_type)77), "none");
	assert_string_equal(zf2fs_zone_cond_name(ZF2FS_ZONE_FULL), "full");
	assert_string_equal(zf2fs_zone_cond_name((enum zf2fs_zone_cond)9), "unknown");
	assert_string_equal(zf2fs_sec_zone_state(&z), "open");
	z.cond = ZF2FS_ZONE_EXP_OPEN;
	assert_string_equal(zf2fs_sec_zone_state(&z), "open");
	z.cond = ZF2FS_ZONE_EMPTY;
	assert_string_equal(zf2fs_sec_zone_state(&z), "empty");
	z.type = ZF2FS_ZONE_CONV;
	assert_string_equal(zf2fs_sec_zone_state(&z), "conventional");
	z.type = ZF2FS_ZONE_NONE;
	assert_string_equal(zf2fs_sec_zone_state(&z), "regular");
}

/* The write-pointer position of a block: counted from its section's first block. */
static void test_sec_blk_pos(void **state)
{
	(void)state;
	assert_int_equal(zf2fs_sec_blk_pos(1, 7, 3), 3);
	assert_int_equal(zf2fs_sec_blk_pos(0, 7, 3), 3);
	assert_int_equal(zf2fs_sec_blk_pos(4, 8, 0), 0);
	assert_int_equal(zf2fs_sec_blk_pos(4, 11, 5), 3 * ZF2FS_BLOCKS_PER_SEG + 5);
	assert_int_equal(zf2fs_sec_blk_pos(1024, 2047, 511), 1024ull * ZF2FS_BLOCKS_PER_SEG - 1);
}

static void test_no_zones(void **state)
{
	struct zf2fs_dev *dev;
	struct zf2fs_dev_geom g;
	struct zf2fs_layout lay;
	struct zf2fs_mkfs_opts mk = { .fixed_cp_version = true, .timestamp = 1 };
	struct zf2fs_vol *vol;
	struct zf2fs_zone *zones = (void *)1;
	struct zf2fs_sec_zone *sz = (void *)1;
	uint64_t first, last, dblk;
	unsigned int nr = 7, d = 9;
	uint32_t nsz = 7;
	struct zf2fs_sec_zone fake = { .type = ZF2FS_ZONE_SEQ_REQ, .zone_blocks = 512 };

	(void)state;
	assert_int_equal(zs_dev_open_memory(64 * MiB, &quiet, &dev), 0);
	assert_int_equal(zf2fs_dev_report_zones(dev, 0, 0, &zones, &nr), -ENOTBLK);
	assert_null(zones);
	assert_int_equal(nr, 0);
	assert_int_equal(zf2fs_dev_reset_zone_range(dev, 0, 8 * MiB), -ENOTBLK);
	assert_int_equal(zf2fs_dev_finish_zone_range(dev, 0, 8 * MiB), -ENOTBLK);

	assert_int_equal(zf2fs_dev_geometry(dev, &g), 0);
	assert_int_equal(zf2fs_layout_compute(&g, 1, &mk.layout, &lay, NULL, 0), 0);
	assert_int_equal(zf2fs_mkfs_write(&dev, &lay, &mk, &quiet), 0);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	assert_false(zf2fs_vol_is_zoned(vol));
	assert_int_equal(zf2fs_vol_dev_range(vol, 0, &first, &last), 0);
	assert_int_equal(first, 0);
	assert_int_equal(last, 64 * MiB / ZF2FS_BLKSIZE - 1);
	assert_int_equal(zf2fs_vol_dev_range(vol, 1, &first, &last), -EINVAL);
	assert_int_equal(zf2fs_vol_block_to_dev(vol, 1000, &d, &dblk), 0);
	assert_int_equal(d, 0);
	assert_int_equal(dblk, 1000);
	assert_int_equal(zf2fs_vol_block_to_dev(vol, 64 * MiB / ZF2FS_BLKSIZE, &d, &dblk), -ERANGE);
	/* a device without zones has no write pointers to show */
	assert_int_equal(zf2fs_vol_zones(vol, NULL, &sz, &nsz), -ENODEV);
	assert_null(sz);
	assert_int_equal(nsz, 0);
	/* nor a zone capacity */
	d = 7;
	{
		uint32_t un = 9;

		assert_int_equal(zf2fs_vol_zone_unusable(vol, &un), -ENODEV);
		assert_int_equal(un, 0);
	}
	/* zone operations refuse what is not a sequential zone, and a read-only device */
	fake.type = ZF2FS_ZONE_CONV;
	assert_int_equal(zf2fs_vol_reset_zone(vol, &fake), -EINVAL);
	fake.type = ZF2FS_ZONE_SEQ_REQ;
	fake.dev = 3;
	assert_int_equal(zf2fs_vol_finish_zone(vol, &fake), -EINVAL);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

/* Usable blocks per segment below a zone capacity, as the kernel counts them. */
static void test_usable_blocks(void **state)
{
	struct zf2fs_vol_info vi = { .blocks_per_seg = 512, .segs_per_sec = 4 };

	(void)state;
	/* 8 MiB zones of 6 MiB: the fourth segment of every section has nothing */
	assert_int_equal(zf2fs_seg_usable_blocks(&vi, 512, 0), 512);
	assert_int_equal(zf2fs_seg_usable_blocks(&vi, 512, 2), 512);
	assert_int_equal(zf2fs_seg_usable_blocks(&vi, 512, 3), 0);
	assert_int_equal(zf2fs_seg_usable_blocks(&vi, 512, 7), 0);
	assert_int_equal(zf2fs_seg_usable_blocks(&vi, 512, 8), 512);
	/* a capacity inside a segment: that segment keeps the part below it */
	assert_int_equal(zf2fs_seg_usable_blocks(&vi, 700, 2), 1348 - 1024);
	assert_int_equal(zf2fs_seg_usable_blocks(&vi, 700, 3), 0);
	/* capacity = zone size, or a nonsense value: whole segments */
	assert_int_equal(zf2fs_seg_usable_blocks(&vi, 0, 3), 512);
	assert_int_equal(zf2fs_seg_usable_blocks(&vi, 2048, 3), 512);
}

static bool empty_of(void *arg, uint32_t s)
{
	return !((const uint8_t *)arg)[s];
}

/* The free segment count as the kernel takes it at mount: empty segments no log is in,
 * counted per segment whatever their section holds, none past a zone's capacity. */
static void test_free_segs(void **state)
{
	struct zf2fs_vol_info vi = { .blocks_per_seg = 512, .segs_per_sec = 4, .main_segs = 16 };
	uint8_t used[16] = { 0 };
	uint32_t logs[ZF2FS_NR_CURSEG] = { 0, 1, 2, 4, 5, 6 };

	(void)state;
	assert_int_equal(zf2fs_free_segs(&vi, 0, logs, empty_of, used), 10);
	used[9] = 1;    /* section 2 is no longer free: its other segments still count */
	assert_int_equal(zf2fs_free_segs(&vi, 0, logs, empty_of, used), 9);
	used[0] = 1;    /* a log's segment never counted */
	assert_int_equal(zf2fs_free_segs(&vi, 0, logs, empty_of, used), 9);
	/* zones of 3 segments' capacity: segments 3, 7, 11, 15 never free */
	assert_int_equal(zf2fs_free_segs(&vi, 512, logs, empty_of, used), 5);
}

/* The GC model with a zone capacity below the zone size: full at the capacity, nothing
 * valid past it, and no allocation there. */
static void test_model_capacity(void **state)
{
	struct zf2fs_gc_geom g = { .main_secs = 6, .segs_per_sec = 4, .log_blocks_per_seg = 9,
				   .unusable_blocks_per_sec = 512, .rsvd_segments = 4,
				   .elapsed_time = 100 };
	struct zf2fs_gc_model *m;
	struct zf2fs_gc_summary sum;
	struct zf2fs_gc_params p;
	struct zf2fs_gc_victim v;
	struct zf2fs_gc_seginfo si;

	(void)state;
	assert_int_equal(zf2fs_gc_model_new(&g, &m), 0);
	/* past the capacity nothing can be valid */
	assert_int_equal(zf2fs_gc_model_set_segment(m, 3, 1, 2, 10), -EINVAL);
	/* section 1: 3 x 512 = the capacity: full, not a victim; section 2: one block less */
	for (uint32_t i = 0; i < 3; i++) {
		assert_int_equal(zf2fs_gc_model_set_segment(m, 4 + i, 512, 2, 10), 0);
		assert_int_equal(zf2fs_gc_model_set_segment(m, 8 + i, i == 2 ? 511 : 512, 2, 10), 0);
	}
	/* section 0 holds the cold data log, its usable segments all written */
	for (uint32_t i = 0; i < 3; i++)
		assert_int_equal(zf2fs_gc_model_set_segment(m, i, 512, 2, 10), 0);
	assert_int_equal(zf2fs_gc_model_set_curseg(m, ZF2FS_LOG_COLD_DATA, 2, 512), 0);
	assert_int_equal(zf2fs_gc_model_ready(m), 0);
	zf2fs_gc_summarize(m, &sum);
	assert_int_equal(sum.blocks_per_sec, 1536);
	assert_int_equal(sum.dirty_secs, 1);
	assert_int_equal(sum.full_secs, 1);
	assert_int_equal(zf2fs_gc_model_segment(m, 7, &si), 0);
	assert_int_equal(si.state, ZF2FS_GC_SEG_FREE);
	/* greedy takes section 2; its blocks go to a new section, not to segment 3 */
	zf2fs_gc_params_init(&p, ZF2FS_GC_FG);
	assert_int_equal(zf2fs_gc_step(m, &p, &v), 0);
	assert_int_equal(v.secno, 2);
	assert_int_equal(v.cost, 1535);
	assert_int_equal(v.moved_blocks, 1535);
	assert_int_equal(zf2fs_gc_model_segment(m, 3, &si), 0);
	assert_int_equal(si.valid_blocks, 0);
	zf2fs_gc_summarize(m, &sum);
	assert_int_not_equal(sum.cur_segno[ZF2FS_LOG_COLD_DATA] / 4, 0);
	assert_int_not_equal(sum.cur_segno[ZF2FS_LOG_COLD_DATA] % 4, 3);
	zf2fs_gc_model_free(m);
}

/* mkfs's free segment count on zoned volumes is the kernel's: every section of the main
 * area holds only the capacity (tests/vm/zz_probe figures: Linux 6.1 mounted these
 * layouts with these free_segments). */
static void test_layout_free_count(void **state)
{
	struct zf2fs_dev_geom g[2];
	struct zf2fs_layout_opts o = { .zoned = true };
	struct zf2fs_layout l;

	(void)state;
	memset(g, 0, sizeof(g));
	g[0] = (struct zf2fs_dev_geom){ .bytes = 512 * MiB, .sector_size = 4096 };
	g[1] = (struct zf2fs_dev_geom){ .bytes = 4096 * MiB, .sector_size = 4096,
		.zone_model = ZF2FS_ZONED_HM, .zone_bytes = 64 * MiB, .zone_cap_bytes = 62 * MiB,
		.nr_zones = 64 };
	assert_int_equal(zf2fs_layout_compute(g, 2, &o, &l, NULL, 0), 0);
	assert_int_equal(l.section_count, 70);
	assert_int_equal(l.usable_segments, 2176);          /* 1.16: conventional part whole */
	assert_int_equal(l.free_segments, 70 * 31 - 6);     /* the kernel: 2164 */
	/* capacity = zone size: every main segment */
	g[1].zone_cap_bytes = 64 * MiB;
	assert_int_equal(zf2fs_layout_compute(g, 2, &o, &l, NULL, 0), 0);
	assert_int_equal(l.free_segments, l.segment_count_main - 6);
	/* not zoned: U - 6 as before */
	o.zoned = false;
	assert_int_equal(zf2fs_layout_compute(g, 1, &o, &l, NULL, 0), 0);
	assert_int_equal(l.free_segments, l.usable_segments - 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_sec_blk_pos),
		cmocka_unit_test(test_no_zones),
		cmocka_unit_test(test_usable_blocks),
		cmocka_unit_test(test_free_segs),
		cmocka_unit_test(test_model_capacity),
		cmocka_unit_test(test_layout_free_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
