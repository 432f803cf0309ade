// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_gc_select.c - GC victim selection: cost functions against worked numbers, the
 * scan's window and cursor rules on hand-made volumes, and the property that the index
 * engine gives exactly the reference scan's answer (victim, cost, visited count, cursor,
 * and the whole model after each step) on random SIT states, many with equal costs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include <cmocka.h>

#include "zf2fs/gc.h"

static struct zf2fs_gc_model *mk(uint32_t secs, uint32_t sps, uint64_t elapsed)
{
	struct zf2fs_gc_geom g = { .main_secs = secs, .segs_per_sec = sps,
				   .log_blocks_per_seg = 9, .rsvd_segments = 2 * sps,
				   .ovp_segments = 4 * sps, .elapsed_time = elapsed };
	struct zf2fs_gc_model *m = NULL;

	assert_int_equal(zf2fs_gc_model_new(&g, &m), 0);
	return m;
}

/* cursegs parked on the last six sections, full */
static void park_logs(struct zf2fs_gc_model *m, uint32_t secs, uint32_t sps)
{
	for (int l = 0; l < 6; l++)
		assert_int_equal(zf2fs_gc_model_set_curseg(m, l, (secs - 1 - (uint32_t)l) * sps, 0),
				 0);
}

static void test_cb_cost_worked(void **state)
{
	/* spec 5.3: V=100, M=1000, min=0, max=5000 -> u=19, age=80, cost 4294961850 */
	struct zf2fs_gc_model *m = mk(16, 1, 5000);
	struct zf2fs_gc_params p;
	struct zf2fs_gc_victim v;

	(void)state;
	park_logs(m, 16, 1);
	assert_int_equal(zf2fs_gc_model_set_segment(m, 3, 100, 1, 1000), 0);
	assert_int_equal(zf2fs_gc_model_set_segment(m, 4, 400, 1, 4000), 0);
	assert_int_equal(zf2fs_gc_model_ready(m), 0);
	zf2fs_gc_params_init(&p, ZF2FS_GC_BG);
	assert_int_equal(zf2fs_gc_select(m, &p, &v), 0);
	assert_int_equal(v.segno, 3);
	assert_int_equal(v.cost, 4294961850u);
	assert_int_equal(v.age, 80);
	/* BG marked it: the next BG call takes the other one */
	assert_int_equal(zf2fs_gc_select(m, &p, &v), 0);
	assert_int_equal(v.segno, 4);
	assert_int_equal(zf2fs_gc_select(m, &p, &v), -ENODATA);
	/* FG takes the lowest marked section first, with the initial cost */
	zf2fs_gc_params_init(&p, ZF2FS_GC_FG);
	assert_int_equal(zf2fs_gc_select(m, &p, &v), 0);
	assert_int_equal(v.segno, 3);
	assert_true(v.from_bg_map);
	assert_int_equal(v.cost, 2 * 512);
	zf2fs_gc_model_free(m);
}

/* Sections of 4 segments dated by each kernel's rule: 6.1 the plain mean of the segments'
 * mtimes, with the mount-time lower bound over every section (free ones date 0); 7.3 the
 * mean weighted by valid blocks, over sections holding valid blocks only.  Section 3:
 * segments 12 (400 valid, mtime 1000) and 13 (100 valid, mtime 3000); section 4: segment
 * 16 (500 valid, mtime 2000); u = 24 for both.  6.1: dates 1000 and 500 in [0, 5000],
 * ages 80 and 90, section 4 wins (cost UINT_MAX - 5516).  7.3: dates 1400 and 2000 in
 * [1400, 5000], ages 100 and 84, section 3 wins (cost UINT_MAX - 6129). */
static void test_cb_section_date_by_kernel(void **state)
{
	static const struct { enum zf2fs_gc_kernel k; uint32_t segno, cost; } want[] = {
		{ ZF2FS_GC_LINUX_6_1, 16, 4294967295u - 5516 },
		{ ZF2FS_GC_LINUX_7_3, 12, 4294967295u - 6129 },
	};

	(void)state;
	for (unsigned i = 0; i < 2; i++) {
		struct zf2fs_gc_model *m = mk(16, 4, 5000);
		struct zf2fs_gc_params p;
		struct zf2fs_gc_victim v;

		park_logs(m, 16, 4);
		assert_int_equal(zf2fs_gc_model_set_segment(m, 12, 400, 1, 1000), 0);
		assert_int_equal(zf2fs_gc_model_set_segment(m, 13, 100, 1, 3000), 0);
		assert_int_equal(zf2fs_gc_model_set_segment(m, 16, 500, 1, 2000), 0);
		assert_int_equal(zf2fs_gc_model_ready(m), 0);
		zf2fs_gc_model_set_kernel(m, want[i].k);
		zf2fs_gc_params_init(&p, ZF2FS_GC_BG);
		assert_int_equal(zf2fs_gc_select(m, &p, &v), 0);
		assert_int_equal(v.segno, want[i].segno);
		assert_int_equal(v.cost, want[i].cost);
		zf2fs_gc_model_free(m);
	}
}

/* Three dirty segments of the worked example's volume, ready for background calls told
 * the kernel's clock per step. */
static struct zf2fs_gc_model *clocked(struct zf2fs_gc_params *p, const uint32_t *clock)
{
	struct zf2fs_gc_model *m = mk(16, 1, 5000);

	park_logs(m, 16, 1);
	assert_int_equal(zf2fs_gc_model_set_segment(m, 3, 100, 1, 1000), 0);
	assert_int_equal(zf2fs_gc_model_set_segment(m, 4, 400, 1, 4000), 0);
	assert_int_equal(zf2fs_gc_model_set_segment(m, 5, 450, 1, 4500), 0);
	assert_int_equal(zf2fs_gc_model_ready(m), 0);
	zf2fs_gc_params_init(p, ZF2FS_GC_BG);
	p->step_clock = clock;
	p->step_clock_n = 2;
	return m;
}

/* A replay told the kernel's clock per step and its background/foreground switches. */
static void test_step_clock_and_types(void **state)
{
	static const uint32_t clock[] = { 0, 5000 };
	static const uint8_t types[] = { ZF2FS_GC_BG, ZF2FS_GC_FG };
	struct zf2fs_gc_params p;
	struct zf2fs_gc_model *m = clocked(&p, clock);
	struct zf2fs_gc_victim v[4];
	unsigned n;

	(void)state;
	p.step_type = types;
	p.step_type_n = 2;
	/* step 1 at the mount's clock: the worked cost (max_mtime = elapsed 5000); the
	 * kernel's next step is foreground, so this call goes on as one (although free
	 * sections are plenty) and takes the section background GC marked */
	assert_int_equal(zf2fs_gc_call(m, &p, v, 4, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].segno, 3);
	assert_int_equal(v[0].gc_type, ZF2FS_GC_BG);
	assert_int_equal(v[0].cost, 4294961850u);
	assert_int_equal(v[1].gc_type, ZF2FS_GC_FG);
	assert_int_equal(v[1].segno, 3);
	assert_true(v[1].from_bg_map);
	/* the last type holds: a new call is foreground from its start, greedy */
	assert_int_equal(zf2fs_gc_call(m, &p, v, 4, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].gc_type, ZF2FS_GC_FG);
	assert_int_equal(v[0].segno, 4);
	zf2fs_gc_model_free(m);

	/* the clock alone, without types: step 2 is background, at the later clock */
	m = clocked(&p, clock);
	assert_int_equal(zf2fs_gc_call(m, &p, v, 4, &n), 0);
	assert_int_equal(v[0].cost, 4294961850u);
	assert_int_equal(zf2fs_gc_call(m, &p, v, 4, &n), 0);
	assert_int_equal(v[0].gc_type, ZF2FS_GC_BG);
	assert_int_equal(v[0].segno, 4);
	assert_int_equal(v[0].age, 60);
	assert_int_equal(v[0].cost, 4294967295u - 100u * 22 * 60 / 178);
	zf2fs_gc_model_free(m);
}

static void test_greedy_window_and_cursor(void **state)
{
	/* 20 dirty segments 0..19 with valid 100 + i, cursor rules with a window of 5 */
	struct zf2fs_gc_model *m = mk(64, 1, 100);
	struct zf2fs_gc_params p;
	struct zf2fs_gc_victim v;
	int e;

	(void)state;
	park_logs(m, 64, 1);
	for (uint32_t i = 0; i < 20; i++)
		assert_int_equal(zf2fs_gc_model_set_segment(m, i, 300 - i, 1, 10), 0);
	assert_int_equal(zf2fs_gc_model_ready(m), 0);
	for (e = 0; e < 2; e++) {
		zf2fs_gc_params_init(&p, ZF2FS_GC_BG);
		p.policy = ZF2FS_GC_GREEDY;
		p.max_search = 5;
		p.engine = e ? ZF2FS_GC_ENGINE_SCAN : ZF2FS_GC_ENGINE_INDEX;
		p.scan_below = 0;
		zf2fs_gc_model_set_last_victim(m, ZF2FS_GC_GREEDY, 0);
		assert_int_equal(zf2fs_gc_select(m, &p, &v), 0);
		assert_int_equal(v.segno, 4);          /* fewest valid among 0..4 */
		assert_int_equal(v.last_victim, 5);
		assert_int_equal(v.searched, 5);
		/* cursor at 18: 18, 19, wrap, 0, 1, 2 -> stop in pass 2: cursor = 18 + 1 */
		zf2fs_gc_model_set_last_victim(m, ZF2FS_GC_GREEDY, 18);
		assert_int_equal(zf2fs_gc_select(m, &p, &v), 0);
		assert_int_equal(v.segno, 19);
		assert_int_equal(v.last_victim, 19);
		/* ALL from 10: everything (minus marked) visited, cursor 10 -> 0 at the end */
		p.window = ZF2FS_GC_WIN_ALL;
		zf2fs_gc_model_set_last_victim(m, ZF2FS_GC_GREEDY, 10);
		assert_int_equal(zf2fs_gc_select(m, &p, &v), 0);
		assert_int_equal(v.segno, 18);         /* 19 and 4 are marked by BG */
		assert_int_equal(v.searched, 20);
		assert_int_equal(v.last_victim, 11);   /* n reached at the last unit of pass 2 */
		zf2fs_gc_model_free(m);
		m = mk(64, 1, 100);
		park_logs(m, 64, 1);
		for (uint32_t i = 0; i < 20; i++)
			assert_int_equal(zf2fs_gc_model_set_segment(m, i, 300 - i, 1, 10), 0);
		assert_int_equal(zf2fs_gc_model_ready(m), 0);
	}
	zf2fs_gc_model_free(m);
}

static void test_fg_collect(void **state)
{
	/* FG moves the victim's blocks into the cold data log and leaves it prefree */
	struct zf2fs_gc_model *m = mk(32, 1, 100);
	struct zf2fs_gc_params p;
	struct zf2fs_gc_victim v;
	struct zf2fs_gc_seginfo si;
	struct zf2fs_gc_summary sum;

	(void)state;
	park_logs(m, 32, 1);
	assert_int_equal(zf2fs_gc_model_set_curseg(m, 2, 20, 500), 0);
	assert_int_equal(zf2fs_gc_model_set_segment(m, 20, 400, 2, 50), 0);
	assert_int_equal(zf2fs_gc_model_set_segment(m, 5, 30, 1, 10), 0);
	assert_int_equal(zf2fs_gc_model_set_segment(m, 6, 300, 1, 10), 0);
	assert_int_equal(zf2fs_gc_model_ready(m), 0);
	zf2fs_gc_params_init(&p, ZF2FS_GC_FG);
	assert_int_equal(zf2fs_gc_step(m, &p, &v), 0);
	assert_int_equal(v.segno, 5);
	assert_int_equal(v.moved_blocks, 30);
	assert_int_equal(zf2fs_gc_model_segment(m, 5, &si), 0);
	assert_int_equal(si.state, ZF2FS_GC_SEG_PREFREE);
	/* 12 blocks filled segment 20 (400 + 12 of 512: dirty now), 18 went to segment 0 */
	assert_int_equal(zf2fs_gc_model_segment(m, 20, &si), 0);
	assert_int_equal(si.state, ZF2FS_GC_SEG_DIRTY);
	assert_int_equal(si.valid_blocks, 412);
	assert_int_equal(zf2fs_gc_model_segment(m, 21, &si), 0);
	assert_int_equal(si.state, ZF2FS_GC_SEG_CURRENT);
	assert_int_equal(si.valid_blocks, 18);
	assert_int_equal(zf2fs_gc_step(m, &p, &v), 0);
	assert_int_equal(v.segno, 6);
	assert_int_equal(zf2fs_gc_step(m, &p, &v), 0);
	assert_int_equal(v.segno, 20);
	zf2fs_gc_summarize(m, &sum);
	assert_int_equal(sum.prefree_segs, 3);
	assert_int_equal(zf2fs_gc_checkpoint(m), 3);
	zf2fs_gc_model_free(m);
}

/* ---- large sections: the migration window and the section a call continues ------------ */

/*
 * A zoned volume of 16 sections of 8 segments (512 blocks each), no reserved section, the
 * logs parked on sections 10..15: section 1 holds 100 valid blocks in each of segments
 * 8..15 (800), section 3 holds 50 in each of segments 24..31 (400); @full more of
 * sections 0, 2, 4, 5, 6, 7 (in that order) are full.  Free: the rest of 0..9.
 */
static struct zf2fs_gc_model *mk_zoned8(enum zf2fs_gc_kernel k, unsigned full)
{
	static const uint32_t full_secs[] = { 0, 2, 4, 5, 6, 7 };
	struct zf2fs_gc_geom g = { .main_secs = 16, .segs_per_sec = 8, .log_blocks_per_seg = 9,
				   .elapsed_time = 100 };
	struct zf2fs_gc_model *m = NULL;

	assert_int_equal(zf2fs_gc_model_new(&g, &m), 0);
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_ZONED, 1), 0);
	park_logs(m, 16, 8);
	for (uint32_t i = 0; i < 8; i++) {
		assert_int_equal(zf2fs_gc_model_set_segment(m, 8 + i, 100, 1, 10), 0);
		assert_int_equal(zf2fs_gc_model_set_segment(m, 24 + i, 50, 1, 10), 0);
		for (unsigned f = 0; f < full; f++)
			assert_int_equal(zf2fs_gc_model_set_segment(m, full_secs[f] * 8 + i, 512,
								    1, 10), 0);
	}
	assert_int_equal(zf2fs_gc_model_ready(m), 0);
	zf2fs_gc_model_set_kernel(m, k);
	return m;
}

/* one ioctl call of @gc_type with greedy background victims: one victim expected */
static struct zf2fs_gc_victim call1(struct zf2fs_gc_model *m, enum zf2fs_gc_type gc_type)
{
	struct zf2fs_gc_params p;
	struct zf2fs_gc_victim v[4];
	unsigned n = 0;

	zf2fs_gc_params_init(&p, gc_type);
	if (gc_type == ZF2FS_GC_BG)
		p.policy = ZF2FS_GC_GREEDY;
	assert_int_equal(zf2fs_gc_call(m, &p, v, 4, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].gc_type, gc_type);
	return v[0];
}

static void test_window_knobs(void **state)
{
	struct zf2fs_gc_model *m = mk(4, 8, 0);

	(void)state;
	/* defaults: without zones the window is the section, no boost */
	assert_int_equal(zf2fs_gc_model_knob(m, ZF2FS_GC_KNOB_ZONED), 0);
	assert_int_equal(zf2fs_gc_model_knob(m, ZF2FS_GC_KNOB_MIGRATION_WINDOW), 8);
	assert_int_equal(zf2fs_gc_model_knob(m, ZF2FS_GC_KNOB_MIGRATION_GRANULARITY), 8);
	assert_int_equal(zf2fs_gc_model_knob(m, ZF2FS_GC_KNOB_BOOST_ZONED_GC_PERCENT), 0);
	assert_int_equal(zf2fs_gc_model_knob(m, ZF2FS_GC_KNOB_BOOST_GC_MULTIPLE), 5);
	/* zoned: 3 segments, boosted at 25% free sections */
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_ZONED, 1), 0);
	assert_int_equal(zf2fs_gc_model_knob(m, ZF2FS_GC_KNOB_MIGRATION_WINDOW), 3);
	assert_int_equal(zf2fs_gc_model_knob(m, ZF2FS_GC_KNOB_BOOST_ZONED_GC_PERCENT), 25);
	/* the kernel's sysfs ranges */
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_MIGRATION_WINDOW, 0), -EINVAL);
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_MIGRATION_WINDOW, 9), -EINVAL);
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_MIGRATION_GRANULARITY, 0),
			 -EINVAL);
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_BOOST_GC_MULTIPLE, 9), -EINVAL);
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_BOOST_ZONED_GC_PERCENT, 101),
			 -EINVAL);
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_ZONED, 2), -EINVAL);
	assert_int_equal(zf2fs_gc_model_set_knob(m, (enum zf2fs_gc_knob)ZF2FS_GC_NR_KNOBS, 1),
			 -EINVAL);
	assert_int_equal(zf2fs_gc_model_knob(m, (enum zf2fs_gc_knob)ZF2FS_GC_NR_KNOBS), 0);
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_MIGRATION_WINDOW, 8), 0);
	assert_int_equal(zf2fs_gc_model_knob(m, ZF2FS_GC_KNOB_MIGRATION_WINDOW), 8);
	zf2fs_gc_model_free(m);
}

static void test_window_linux_7_3(void **state)
{
	struct zf2fs_gc_model *m = mk_zoned8(ZF2FS_GC_LINUX_7_3, 0);
	struct zf2fs_gc_params p;
	struct zf2fs_gc_victim v;
	unsigned n;

	(void)state;
	/* 8 of 16 sections free, above 25%: windows of 3 segments.  Greedy: section 3
	 * (400 valid) first, its segments 24..26 */
	v = call1(m, ZF2FS_GC_BG);
	assert_int_equal(v.segno, 24);
	assert_int_equal(v.secno, 3);
	assert_int_equal(v.cost, 400);
	/* the next call continues at segment 27 without a search: cost is greedy's largest,
	 * 2 segments' blocks per segment of the section (2 * 512 * 8) */
	v = call1(m, ZF2FS_GC_BG);
	assert_int_equal(v.segno, 27);
	assert_int_equal(v.secno, 3);
	assert_int_equal(v.cost, 8192);
	assert_int_equal(v.searched, 0);
	/* 30..31: the window ends at the section's end; nothing left to continue */
	v = call1(m, ZF2FS_GC_BG);
	assert_int_equal(v.segno, 30);
	assert_int_equal(v.cost, 8192);
	/* a new victim: section 3 is marked, section 1 (800) */
	v = call1(m, ZF2FS_GC_BG);
	assert_int_equal(v.segno, 8);
	assert_int_equal(v.cost, 800);
	/* a foreground call takes the background call's continuation (segment 11) and
	 * moves the rest of the section: segments 11..15, 500 blocks */
	v = call1(m, ZF2FS_GC_FG);
	assert_int_equal(v.segno, 11);
	assert_int_equal(v.cost, 8192);
	assert_false(v.from_bg_map);
	assert_int_equal(v.moved_blocks, 500);
	/* section 1 stays marked, its first segments holding what the background call
	 * dirtied: foreground takes it next from its start (300 blocks), then section 3 */
	v = call1(m, ZF2FS_GC_FG);
	assert_int_equal(v.segno, 8);
	assert_true(v.from_bg_map);
	assert_int_equal(v.moved_blocks, 300);
	v = call1(m, ZF2FS_GC_FG);
	assert_int_equal(v.segno, 24);
	assert_true(v.from_bg_map);
	assert_int_equal(v.moved_blocks, 400);
	zf2fs_gc_model_free(m);

	/* cost-benefit (the default background policy): a continuation is traced with its
	 * largest cost too */
	m = mk_zoned8(ZF2FS_GC_LINUX_7_3, 0);
	zf2fs_gc_params_init(&p, ZF2FS_GC_BG);
	assert_int_equal(zf2fs_gc_call(m, &p, &v, 1, &n), 0);
	assert_int_equal(v.segno % 8, 0);
	assert_int_equal(zf2fs_gc_call(m, &p, &v, 1, &n), 0);
	assert_int_equal(v.segno % 8, 3);
	assert_int_equal(v.cost, 4294967295u);
	assert_int_equal(v.policy, ZF2FS_GC_CB);
	zf2fs_gc_model_free(m);

	/* without zones the window is the section */
	m = mk_zoned8(ZF2FS_GC_LINUX_7_3, 0);
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_ZONED, 0), 0);
	assert_int_equal(call1(m, ZF2FS_GC_BG).segno, 24);
	assert_int_equal(call1(m, ZF2FS_GC_BG).segno, 8);
	zf2fs_gc_model_free(m);
}

static void test_window_linux_6_1(void **state)
{
	struct zf2fs_gc_model *m = mk_zoned8(ZF2FS_GC_LINUX_6_1, 0);
	struct zf2fs_gc_params p;
	struct zf2fs_gc_victim v;
	unsigned n;

	(void)state;
	/* no window: each call collects a whole section, the next one selects */
	v = call1(m, ZF2FS_GC_BG);
	assert_int_equal(v.segno, 24);
	assert_int_equal(v.cost, 400);
	v = call1(m, ZF2FS_GC_BG);
	assert_int_equal(v.segno, 8);
	assert_int_equal(v.cost, 800);
	/* both sections marked: no background victim left */
	zf2fs_gc_params_init(&p, ZF2FS_GC_BG);
	p.policy = ZF2FS_GC_GREEDY;
	assert_int_equal(zf2fs_gc_call(m, &p, &v, 1, &n), -ENODATA);
	zf2fs_gc_model_free(m);

	/* migration_granularity 2 (both kernels): segments 24, 25 move; the next call
	 * continues at 26 */
	m = mk_zoned8(ZF2FS_GC_LINUX_6_1, 0);
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_MIGRATION_GRANULARITY, 2), 0);
	assert_int_equal(call1(m, ZF2FS_GC_BG).segno, 24);
	v = call1(m, ZF2FS_GC_BG);
	assert_int_equal(v.segno, 26);
	assert_int_equal(v.cost, 8192);
	zf2fs_gc_model_free(m);
}

static void test_window_boost(void **state)
{
	/* 6 more sections full: 2 of 16 free, at most 25% (4): the zoned window is boosted
	 * by gc_boost_gc_multiple, 3 * 5 = 15 segments, past the section's end: whole
	 * sections */
	struct zf2fs_gc_model *m = mk_zoned8(ZF2FS_GC_LINUX_7_3, 6);
	struct zf2fs_gc_summary sum;

	(void)state;
	zf2fs_gc_summarize(m, &sum);
	assert_int_equal(sum.free_secs, 2);
	assert_int_equal(call1(m, ZF2FS_GC_BG).segno, 24);
	assert_int_equal(call1(m, ZF2FS_GC_BG).segno, 8);
	zf2fs_gc_model_free(m);

	/* gc_boost_gc_multiple 2: 6 segments, 24..29, then 30..31 */
	m = mk_zoned8(ZF2FS_GC_LINUX_7_3, 6);
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_BOOST_GC_MULTIPLE, 2), 0);
	assert_int_equal(call1(m, ZF2FS_GC_BG).segno, 24);
	assert_int_equal(call1(m, ZF2FS_GC_BG).segno, 30);
	assert_int_equal(call1(m, ZF2FS_GC_BG).segno, 8);
	zf2fs_gc_model_free(m);

	/* the same free sections with gc_boost_zoned_gc_percent 10 (at most 1): 3 segments */
	m = mk_zoned8(ZF2FS_GC_LINUX_7_3, 6);
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_BOOST_GC_MULTIPLE, 2), 0);
	assert_int_equal(zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_BOOST_ZONED_GC_PERCENT, 10), 0);
	assert_int_equal(call1(m, ZF2FS_GC_BG).segno, 24);
	assert_int_equal(call1(m, ZF2FS_GC_BG).segno, 27);
	zf2fs_gc_model_free(m);
}

/* ---- property: index == scan ---------------------------------------------------------- */
static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return n ? (uint32_t)(rng_state % n) : 0;
}

/* @mode: RANDOM_EQUAL_COSTS for costs that tie often; RANDOM_SPARSE for long runs of
 * free sections (whole chunks of the index without a dirty unit) */
#define RANDOM_EQUAL_COSTS 1
#define RANDOM_SPARSE 2

static void build_random(struct zf2fs_gc_model **a, struct zf2fs_gc_model **b, uint32_t secs,
			 uint32_t sps, int mode)
{
	int equal_costs = mode & RANDOM_EQUAL_COSTS;
	uint64_t elapsed = 1000 + rnd(100000);

	*a = mk(secs, sps, elapsed);
	*b = mk(secs, sps, elapsed);
	for (int l = 0; l < 6; l++) {
		uint32_t seg = rnd(secs * sps), off = rnd(512);

		zf2fs_gc_model_set_curseg(*a, l, seg, off);
		zf2fs_gc_model_set_curseg(*b, l, seg, off);
	}
	for (uint32_t s = 0; s < secs * sps; s++) {
		uint32_t kind = rnd(10), valid;
		uint64_t mt = equal_costs ? (uint64_t)rnd(3) * (elapsed / 2) : rnd((uint32_t)elapsed);

		if (kind < 2 || ((mode & RANDOM_SPARSE) && (s / sps / 2500) % 3 != 1))
			valid = 0;
		else if (kind < 3)
			valid = 512;
		else if (equal_costs)
			valid = 128 * (1 + rnd(3));
		else
			valid = 1 + rnd(511);
		zf2fs_gc_model_set_segment(*a, s, valid, rnd(6), mt);
		zf2fs_gc_model_set_segment(*b, s, valid, rnd(0), mt);
	}
	/* same types in both */
	for (uint32_t s = 0; s < secs * sps; s++) {
		struct zf2fs_gc_seginfo si;

		zf2fs_gc_model_segment(*a, s, &si);
		zf2fs_gc_model_set_segment(*b, s, si.valid_blocks, si.type, si.mtime);
	}
	assert_int_equal(zf2fs_gc_model_ready(*a), 0);
	assert_int_equal(zf2fs_gc_model_ready(*b), 0);
}

static void same_models(const struct zf2fs_gc_model *a, const struct zf2fs_gc_model *b,
			uint32_t segs)
{
	for (uint32_t s = 0; s < segs; s++) {
		struct zf2fs_gc_seginfo x, y;

		zf2fs_gc_model_segment(a, s, &x);
		zf2fs_gc_model_segment(b, s, &y);
		assert_int_equal(x.valid_blocks, y.valid_blocks);
		assert_int_equal(x.state, y.state);
		assert_true(x.mtime == y.mtime);
	}
	for (int pol = 0; pol < 3; pol++)
		assert_int_equal(zf2fs_gc_model_last_victim(a, pol),
				 zf2fs_gc_model_last_victim(b, pol));
}

static void property_run(uint32_t secs, uint32_t sps, int equal_costs, int rounds, int steps)
{
	for (int r = 0; r < rounds; r++) {
		struct zf2fs_gc_model *a, *b;

		build_random(&a, &b, secs, sps, equal_costs);
		for (int i = 0; i < steps; i++) {
			struct zf2fs_gc_params p;
			struct zf2fs_gc_victim va, vb;
			int ea, eb, pol = (int)rnd(2);

			zf2fs_gc_params_init(&p, rnd(3) ? ZF2FS_GC_BG : ZF2FS_GC_FG);
			p.policy = pol ? ZF2FS_GC_GREEDY : ZF2FS_GC_CB;
			p.max_search = 1 + rnd(secs / 2 + 2);
			p.window = (enum zf2fs_gc_window)rnd(4);
			p.window_n = 1 + rnd(40);
			p.now = 200000 + (uint64_t)i;
			p.scan_below = 0;       /* the index even for tiny windows */
			if (!rnd(8)) {
				uint32_t lv = rnd(secs) * sps;

				zf2fs_gc_model_set_last_victim(a, p.policy, lv);
				zf2fs_gc_model_set_last_victim(b, p.policy, lv);
			}
			if (!rnd(16)) {
				zf2fs_gc_checkpoint(a);
				zf2fs_gc_checkpoint(b);
			}
			p.engine = ZF2FS_GC_ENGINE_INDEX;
			ea = zf2fs_gc_step(a, &p, &va);
			p.engine = ZF2FS_GC_ENGINE_SCAN;
			eb = zf2fs_gc_step(b, &p, &vb);
			assert_int_equal(ea, eb);
			if (ea == -ENOSPC)
				break;
			if (!ea) {
				assert_int_equal(va.segno, vb.segno);
				assert_int_equal(va.cost, vb.cost);
				assert_int_equal(va.searched, vb.searched);
				assert_int_equal(va.last_victim, vb.last_victim);
				assert_int_equal(va.moved_blocks, vb.moved_blocks);
			}
			same_models(a, b, secs * sps);
		}
		zf2fs_gc_model_free(a);
		zf2fs_gc_model_free(b);
	}
}

static void test_index_equals_scan_sps1(void **state)
{
	(void)state;
	rng_state = 0x9e3779b97f4a7c15ull;
	property_run(97, 1, 0, 60, 60);
	property_run(300, 1, 0, 20, 120);
}

static void test_index_equals_scan_sps4(void **state)
{
	(void)state;
	rng_state = 0x1234567ull;
	property_run(61, 4, 0, 60, 60);
}

static void test_index_equals_scan_equal_costs(void **state)
{
	(void)state;
	rng_state = 0xabcdefull;
	property_run(128, 1, 1, 60, 80);
	property_run(40, 4, 1, 60, 60);
	property_run(7, 2, 1, 60, 20);
}

/* Thousands of sections: the index's trees are cut in chunks of 4096 units, and chunks
 * without a dirty unit hold nothing; the answers must not change at their edges. */
static void test_index_equals_scan_chunks(void **state)
{
	(void)state;
	rng_state = 0x5151ull;
	property_run(9000, 1, RANDOM_SPARSE, 3, 40);
	property_run(12289, 1, 0, 2, 30);
	property_run(2600, 4, RANDOM_SPARSE | RANDOM_EQUAL_COSTS, 2, 30);
}

static void test_bad_input(void **state)
{
	struct zf2fs_gc_geom g = { .main_secs = 0, .segs_per_sec = 1, .log_blocks_per_seg = 9 };
	struct zf2fs_gc_model *m = NULL;

	(void)state;
	assert_int_equal(zf2fs_gc_model_new(&g, &m), -EINVAL);
	g.main_secs = 4;
	g.segs_per_sec = 1000;
	assert_int_equal(zf2fs_gc_model_new(&g, &m), -EINVAL);
	m = mk(4, 1, 0);
	assert_int_equal(zf2fs_gc_model_set_segment(m, 4, 1, 1, 0), -ERANGE);
	assert_int_equal(zf2fs_gc_model_set_segment(m, 0, 513, 1, 0), -EINVAL);
	assert_int_equal(zf2fs_gc_model_set_curseg(m, 6, 0, 0), -EINVAL);
	assert_int_equal(zf2fs_gc_model_set_curseg(m, 0, 9, 0), -ERANGE);
	zf2fs_gc_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cb_cost_worked),
		cmocka_unit_test(test_cb_section_date_by_kernel),
		cmocka_unit_test(test_step_clock_and_types),
		cmocka_unit_test(test_greedy_window_and_cursor),
		cmocka_unit_test(test_fg_collect),
		cmocka_unit_test(test_index_equals_scan_sps1),
		cmocka_unit_test(test_index_equals_scan_sps4),
		cmocka_unit_test(test_index_equals_scan_equal_costs),
		cmocka_unit_test(test_index_equals_scan_chunks),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_window_knobs),
		cmocka_unit_test(test_window_linux_7_3),
		cmocka_unit_test(test_window_linux_6_1),
		cmocka_unit_test(test_window_boost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
