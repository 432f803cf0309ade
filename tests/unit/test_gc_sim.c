// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_gc_sim.c - the GC simulator (lib/gc/simulate.c) on small volumes laid out as mkfs
 * would: every block the workload wrote is valid exactly once at the end (no block lost
 * or counted twice through overwrites, GC moves and checkpoints), the device writes add
 * up, a seed gives the same run twice, synchronous 4 KiB writes to small files cost one
 * node block each, fewer reserved sections at equal overprovision give a lower WAF (the
 * 2023 finding), incremental GC bounds the longest foreground stall, and a narrow
 * search window (20) moves more blocks than the kernel's (the 2013 finding).
 * mode=adaptive: SSR starts only when free sections run low, then cuts GC moves under
 * random overwrites; it reuses segments of the log's own kind only (node blocks stay in
 * node segments); in-place updates leave data where it is; mode=lfs ignores the
 * adaptive settings.  A file as big as the user space is simulated; a workload that does
 * not fit says which limit with the numbers.  Fallocated files take space at first write.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/gc.h"
#include "zf2fs/gc_sim.h"
#include "zf2fs-internal/gc.h"

#define MiB (1024ull * 1024)

static void layout_plain(uint64_t bytes, uint32_t sps, struct zf2fs_layout *lay)
{
	struct zf2fs_dev_geom d = { .bytes = bytes, .sector_size = 512 };
	struct zf2fs_layout_opts o = { .segs_per_sec = sps };

	assert_int_equal(zf2fs_layout_compute(&d, 1, &o, lay, NULL, 0), 0);
}

/* null_blk-like: one zoned device of @zones zones of 8 MiB, 4 conventional ones first */
static void layout_zoned(uint32_t zones, uint32_t rsv, double op, struct zf2fs_layout *lay)
{
	struct zf2fs_dev_geom d = { .bytes = (uint64_t)zones * 8 * MiB, .sector_size = 4096,
				    .zone_model = ZF2FS_ZONED_HM, .zone_bytes = 8 * MiB,
				    .zone_cap_bytes = 8 * MiB, .nr_zones = zones,
				    .nr_conv_zones = 4 };
	struct zf2fs_layout_opts o = { .zoned = true, .reserved_sections = rsv,
				       .overprovision = op };

	assert_int_equal(zf2fs_layout_compute(&d, 1, &o, lay, NULL, 0), 0);
}

struct result {
	struct zf2fs_gc_sim_stats fill, run;
	uint64_t files, data, nodes, valid;
	uint64_t node_valid, data_valid;   /* valid blocks in node-typed / data-typed segments */
	int err;
};

static void simulate(const struct zf2fs_layout *lay, const struct zf2fs_gc_sim_config *cfg,
		     struct result *r)
{
	struct zf2fs_gc_model *m;
	struct zf2fs_gc_sim *sim;
	struct zf2fs_gc_summary sum;

	memset(r, 0, sizeof(*r));
	assert_int_equal(zf2fs_gc_sim_model_from_layout(lay, &m), 0);
	assert_int_equal(zf2fs_gc_sim_new(m, cfg, NULL, 0, &sim), 0);
	r->err = zf2fs_gc_sim_run(sim);
	assert_int_equal(zf2fs_gc_sim_verify(sim), 0);
	zf2fs_gc_sim_stats(sim, 0, &r->fill);
	zf2fs_gc_sim_stats(sim, 1, &r->run);
	zf2fs_gc_sim_size(sim, &r->files, &r->data, &r->nodes);
	zf2fs_gc_summarize(zf2fs_gc_sim_model(sim), &sum);
	r->valid = sum.valid_blocks;
	for (uint32_t seg = 0; seg < sum.main_segs; seg++) {
		struct zf2fs_gc_seginfo si;

		assert_int_equal(zf2fs_gc_model_segment(zf2fs_gc_sim_model(sim), seg, &si), 0);
		if (si.type >= ZF2FS_LOG_HOT_NODE && si.type <= ZF2FS_LOG_COLD_NODE)
			r->node_valid += si.valid_blocks;
		else
			r->data_valid += si.valid_blocks;
	}
	zf2fs_gc_sim_free(sim);
}

static void test_conservation(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_gc_sim_config cfg;
	struct result r, r2;

	(void)state;
	layout_plain(128 * MiB, 1, &lay);
	zf2fs_gc_sim_config_init(&cfg);
	cfg.fill = 0.85;
	cfg.ops = 60000;
	simulate(&lay, &cfg, &r);
	assert_int_equal(r.err, 0);
	/* mkfs's two root blocks, every data block and every node block: valid once */
	assert_int_equal(r.valid, 2 + r.data + r.nodes);
	assert_int_equal(r.run.host_blocks, 60000);
	assert_true(r.run.fg_sections > 0);
	assert_true(r.run.waf > 1.0);
	/* the same seed gives the same run */
	simulate(&lay, &cfg, &r2);
	assert_memory_equal(&r.run, &r2.run, sizeof(r.run));
	cfg.seed = 2;
	simulate(&lay, &cfg, &r2);
	assert_true(r.run.gc_data_blocks != r2.run.gc_data_blocks);
}

static void test_sync_nodes(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_gc_sim_config cfg;
	struct result r;

	(void)state;
	layout_plain(128 * MiB, 1, &lay);
	zf2fs_gc_sim_config_init(&cfg);
	cfg.fill = 0.5;
	cfg.ops = 5000;
	cfg.cp_interval = 0;
	cfg.streams[0].sync = true;
	cfg.streams[0].io_blocks = 1;
	cfg.nstreams = 1;
	simulate(&lay, &cfg, &r);
	assert_int_equal(r.err, 0);
	/* 1 MiB files: the inode holds every address, one node block per write */
	assert_int_equal(r.run.node_blocks, 5000);
	assert_int_equal(r.run.data_blocks, 5000);
	assert_int_equal(r.valid, 2 + r.data + r.nodes);
}

/* the 2023 patch: at equal overprovision segments, fewer reserved sections -> lower WAF */
static void test_reserved(void **state)
{
	struct zf2fs_layout a, b;
	struct zf2fs_gc_sim_config cfg;
	struct result ra, rb;
	double lo = 0.001, hi = 99;

	(void)state;
	layout_zoned(64, 0, 0, &a);
	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;

		layout_zoned(64, 8, mid, &b);
		if (b.ovp_segments >= a.ovp_segments)
			hi = mid;
		else
			lo = mid;
	}
	layout_zoned(64, 8, hi, &b);
	assert_int_equal(a.ovp_segments, b.ovp_segments);
	assert_true(b.rsvd_segments < a.rsvd_segments);
	zf2fs_gc_sim_config_init(&cfg);
	cfg.fill = 0.9;
	cfg.ops = 80000;
	simulate(&a, &cfg, &ra);
	simulate(&b, &cfg, &rb);
	assert_int_equal(ra.err, 0);
	assert_int_equal(rb.err, 0);
	assert_int_equal(ra.data, rb.data);
	assert_true(rb.run.waf < ra.run.waf);
	assert_int_equal(ra.valid, 2 + ra.data + ra.nodes);
}

/* incremental GC: one section per cycle bounds the longest stall */
static void test_incremental(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_gc_sim_config cfg;
	struct result full, inc;

	(void)state;
	layout_plain(512 * MiB, 4, &lay);
	zf2fs_gc_sim_config_init(&cfg);
	cfg.fill = 0.85;
	cfg.ops = 100000;
	simulate(&lay, &cfg, &full);
	cfg.max_secs_per_cycle = 1;
	simulate(&lay, &cfg, &inc);
	assert_int_equal(inc.err, 0);
	assert_true(inc.run.max_cycle_blocks <= 4 * 512);
	assert_true(inc.run.stall_max <= full.run.stall_max);
	assert_true(inc.run.fg_cycles >= full.run.fg_cycles);
}

/* 2013: a window of 20 dirty segments moves more than the kernel's 4096 */
static void test_window(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_gc_sim_config cfg;
	struct result k, f20;

	(void)state;
	layout_plain(256 * MiB, 1, &lay);
	zf2fs_gc_sim_config_init(&cfg);
	cfg.file_blocks = 8;
	cfg.fill = 0.97;
	cfg.ops = 40000;
	cfg.streams[0].sync = true;
	cfg.nstreams = 1;
	simulate(&lay, &cfg, &k);
	cfg.fg.window = ZF2FS_GC_WIN_FIXED;
	cfg.fg.window_n = 20;
	simulate(&lay, &cfg, &f20);
	assert_int_equal(k.err, 0);
	assert_int_equal(f20.err, 0);
	assert_true(f20.run.gc_data_blocks + f20.run.gc_node_blocks >
		    k.run.gc_data_blocks + k.run.gc_node_blocks);
	assert_true(f20.run.fg_sections > k.run.fg_sections);
}

/* random buffered overwrites on a nearly full volume: the case SSR is made for */
static void adaptive_config(struct zf2fs_gc_sim_config *cfg)
{
	zf2fs_gc_sim_config_init(cfg);
	cfg->fill = 0.9;
	cfg->ops = 80000;
	cfg->mode = ZF2FS_SIM_MODE_ADAPTIVE;
	cfg->ipu = ZF2FS_SIM_IPU_NONE;      /* out of place, so that SSR has work */
}

static void test_ssr_cuts_gc(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_gc_sim_config cfg;
	struct result lfs, ad, ad2;

	(void)state;
	layout_plain(256 * MiB, 1, &lay);
	adaptive_config(&cfg);
	simulate(&lay, &cfg, &ad);
	cfg.mode = ZF2FS_SIM_MODE_LFS;
	simulate(&lay, &cfg, &lfs);
	assert_int_equal(ad.err, 0);
	assert_int_equal(lfs.err, 0);
	assert_int_equal(lfs.run.ssr_segments + lfs.run.ssr_blocks, 0);
	assert_true(ad.run.ssr_segments > 0);
	/* a reused segment takes at least one block, at most the blocks written */
	assert_true(ad.run.ssr_blocks >= ad.run.ssr_segments);
	assert_true(ad.run.ssr_blocks <= ad.run.data_blocks + ad.run.node_blocks +
		    ad.run.gc_data_blocks + ad.run.gc_node_blocks);
	assert_true(ad.run.gc_data_blocks + ad.run.gc_node_blocks <
		    lfs.run.gc_data_blocks + lfs.run.gc_node_blocks);
	assert_true(ad.run.waf < lfs.run.waf);
	/* SSR never writes over a valid block: everything still valid exactly once */
	assert_int_equal(ad.valid, 2 + ad.data + ad.nodes);
	/* the same seed gives the same run, another seed another one */
	cfg.mode = ZF2FS_SIM_MODE_ADAPTIVE;
	simulate(&lay, &cfg, &ad2);
	assert_memory_equal(&ad.run, &ad2.run, sizeof(ad.run));
	cfg.seed = 7;
	simulate(&lay, &cfg, &ad2);
	assert_true(ad.run.ssr_segments != ad2.run.ssr_segments ||
		    ad.run.gc_data_blocks != ad2.run.gc_data_blocks);
}

/* the simulator's SSR candidate maps pick what the kernel's literal scan picks */
static void test_ssr_engines(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_gc_sim_config cfg;
	struct result idx, scan;

	(void)state;
	/* a window of 16 (sysfs max_victim_search) stops the scan early: the cursor moves */
	for (unsigned i = 0; i < 4; i++) {
		layout_plain(512 * MiB, 1 + i / 2, &lay);
		adaptive_config(&cfg);
		cfg.fg.max_search = i % 2 ? 16 : 4096;
		cfg.ops = 60000;
		cfg.streams[0].pattern = ZF2FS_SIM_ZIPF;
		cfg.streams[0].theta = 0.8;
		cfg.streams[1].sync = true;     /* node logs (scanned from 0) reuse too */
		cfg.nstreams = 2;
		cfg.cp_interval = 2;
		simulate(&lay, &cfg, &idx);
		cfg.fg.engine = ZF2FS_GC_ENGINE_SCAN;
		simulate(&lay, &cfg, &scan);
		assert_int_equal(idx.err, 0);
		assert_true(idx.run.ssr_segments > 0);
		assert_memory_equal(&idx.fill, &scan.fill, sizeof(idx.fill));
		assert_memory_equal(&idx.run, &scan.run, sizeof(idx.run));
	}
}

/* SSR takes dirty segments of the log's kind only: node blocks stay in node segments,
 * data in data segments, whatever the temperature the segment had */
static void test_ssr_kind(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_gc_sim_config cfg;
	struct result r;

	(void)state;
	layout_plain(256 * MiB, 1, &lay);
	adaptive_config(&cfg);
	cfg.streams[0].sync = true;        /* node blocks with every write: node logs reuse too */
	cfg.streams[1].pattern = ZF2FS_SIM_HOTCOLD;
	cfg.streams[1].hot_writes = 90;
	cfg.streams[1].hot_data = 10;
	cfg.streams[1].io_blocks = 4;
	cfg.nstreams = 2;
	simulate(&lay, &cfg, &r);
	assert_int_equal(r.err, 0);
	assert_true(r.run.ssr_segments > 0);
	assert_int_equal(r.node_valid, 1 + r.nodes);    /* the root inode and every node */
	assert_int_equal(r.data_valid, 1 + r.data);     /* the root dentry and every block */
}

/* free sections aplenty: the kernel never asks for SSR */
static void test_ssr_threshold(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_gc_sim_config cfg;
	struct result r;

	(void)state;
	layout_plain(256 * MiB, 1, &lay);
	adaptive_config(&cfg);
	cfg.fill = 0.3;
	cfg.ops = 10000;
	cfg.cp_interval = 1;     /* checkpoints (every 2560 blocks) make invalid blocks */
	cfg.rate = 2560;         /* reusable: SSR could start if it were not gated */
	simulate(&lay, &cfg, &r);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.run.ssr_segments, 0);
	assert_int_equal(r.fill.ssr_segments, 0);
	assert_int_equal(r.run.fg_sections, 0);
}

/* in-place updates: O_SYNC 4 KiB overwrites rewrite data where it is (ipu_policy fsync,
 * and force, the default on small volumes); only inodes (new mtime) move, so GC never
 * moves data */
static void test_ipu(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_gc_sim_config cfg;
	struct result lfs, def, fsync, none;

	(void)state;
	layout_plain(256 * MiB, 1, &lay);
	adaptive_config(&cfg);
	cfg.ops = 40000;
	cfg.streams[0].sync = true;
	cfg.nstreams = 1;
	cfg.ipu = ZF2FS_SIM_IPU_DEFAULT;
	simulate(&lay, &cfg, &def);
	cfg.ipu = ZF2FS_SIM_IPU_FSYNC;
	simulate(&lay, &cfg, &fsync);
	cfg.ipu = ZF2FS_SIM_IPU_NONE;
	simulate(&lay, &cfg, &none);
	cfg.mode = ZF2FS_SIM_MODE_LFS;
	simulate(&lay, &cfg, &lfs);
	assert_int_equal(def.err, 0);
	assert_int_equal(def.run.ipu_blocks, def.run.host_blocks);
	assert_int_equal(fsync.run.ipu_blocks, fsync.run.host_blocks);
	assert_int_equal(def.run.gc_data_blocks, 0);
	assert_int_equal(none.run.ipu_blocks, 0);
	assert_int_equal(lfs.run.ipu_blocks, 0);
	assert_true(lfs.run.gc_data_blocks > 0);
	assert_true(def.run.waf < none.run.waf);
	assert_int_equal(def.valid, 2 + def.data + def.nodes);
	/* buffered writes under fsync policy go out of place */
	cfg.mode = ZF2FS_SIM_MODE_ADAPTIVE;
	cfg.ipu = ZF2FS_SIM_IPU_FSYNC;
	cfg.streams[0].sync = false;
	simulate(&lay, &cfg, &fsync);
	assert_int_equal(fsync.run.ipu_blocks, 0);
}

/* mode=lfs: the adaptive settings change nothing */
static void test_lfs_ignores_adaptive(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_gc_sim_config cfg;
	struct result a, b;

	(void)state;
	layout_plain(256 * MiB, 1, &lay);
	adaptive_config(&cfg);
	cfg.mode = ZF2FS_SIM_MODE_LFS;
	cfg.ipu = ZF2FS_SIM_IPU_DEFAULT;
	simulate(&lay, &cfg, &a);
	cfg.ipu = ZF2FS_SIM_IPU_FORCE;
	simulate(&lay, &cfg, &b);
	assert_int_equal(a.err, 0);
	assert_true(a.run.fg_sections > 0);
	assert_memory_equal(&a.run, &b.run, sizeof(a.run));
	assert_int_equal(a.run.ssr_segments + a.run.ipu_blocks, 0);
}

static void test_bad_config(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_gc_sim_config cfg;
	struct zf2fs_gc_model *m;
	struct zf2fs_gc_sim *sim;

	(void)state;
	layout_plain(64 * MiB, 1, &lay);
	zf2fs_gc_sim_config_init(&cfg);
	cfg.fill = 1.5;
	assert_int_equal(zf2fs_gc_sim_model_from_layout(&lay, &m), 0);
	assert_int_equal(zf2fs_gc_sim_new(m, &cfg, NULL, 0, &sim), -EINVAL);
	zf2fs_gc_sim_config_init(&cfg);
	cfg.file_blocks = 1u << 20;   /* one 4 GiB file on 64 MiB */
	assert_int_equal(zf2fs_gc_sim_model_from_layout(&lay, &m), 0);
	assert_int_equal(zf2fs_gc_sim_new(m, &cfg, NULL, 0, &sim), -ENOSPC);
	zf2fs_gc_sim_config_init(&cfg);
	cfg.nstreams = 1;
	cfg.streams[0].pattern = ZF2FS_SIM_ZIPF;
	cfg.streams[0].theta = 1.5;
	assert_int_equal(zf2fs_gc_sim_model_from_layout(&lay, &m), 0);
	assert_int_equal(zf2fs_gc_sim_new(m, &cfg, NULL, 0, &sim), -EINVAL);
	zf2fs_gc_sim_config_init(&cfg);
	cfg.mode = (enum zf2fs_gc_sim_mode)7;
	assert_int_equal(zf2fs_gc_sim_model_from_layout(&lay, &m), 0);
	assert_int_equal(zf2fs_gc_sim_new(m, &cfg, NULL, 0, &sim), -EINVAL);
}

/* node blocks of a file of @b blocks, counted here independently of the library: the
 * inode (923 addresses), direct nodes of 1018, two indirect nodes for the direct nodes
 * 3 .. 2038, then the double indirect node and indirect nodes under it */
static uint32_t file_nodes(uint32_t b)
{
	uint32_t dn = 0, ind = 0;

	if (b > 923)
		dn = (b - 923 + 1017) / 1018;
	if (dn > 2)
		ind = dn - 2 > 2036 ? 2 : (dn - 2 + 1017) / 1018;
	if (dn > 2038)
		ind += 1 + (dn - 2038 + 1017) / 1018;
	return 1 + dn + ind;
}

/*
 * One file as big as the volume's user space (the 2023 bench's fio file, here on a
 * 10 GiB volume: beyond the double indirect node's first direct nodes, which the old
 * limit of about 8 GiB refused) is accepted and simulated, every block valid once; one
 * block more is refused with the numbers, and a file beyond the node tree names it.
 */
static void test_big_file(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_gc_sim_config cfg;
	struct zf2fs_gc_model *m;
	struct zf2fs_gc_sim *sim;
	struct zf2fs_gc_summary sum;
	struct result r;
	char why[256], num[32];
	uint64_t user;
	uint32_t fb;

	(void)state;
	layout_plain(10240 * MiB, 1, &lay);
	assert_int_equal(zf2fs_gc_sim_model_from_layout(&lay, &m), 0);
	zf2fs_gc_summarize(m, &sum);
	zf2fs_gc_model_free(m);
	/* user blocks: main segments less overprovision, less mkfs's two root blocks */
	user = ((uint64_t)sum.main_segs - sum.ovp_segments) * 512 - 2;
	fb = (uint32_t)user;
	while (fb + file_nodes(fb) > user)
		fb--;
	assert_true(fb > 923 + 2 * 1018 + 2 * 1018 * 1018);   /* needs the double indirect */
	zf2fs_gc_sim_config_init(&cfg);
	cfg.files = 1;
	cfg.file_blocks = fb;
	cfg.ops = 20000;
	cfg.samples = 0;
	cfg.mode = ZF2FS_SIM_MODE_LFS;
	simulate(&lay, &cfg, &r);
	assert_int_equal(r.files, 1);
	assert_int_equal(r.data, fb);
	assert_int_equal(r.nodes, file_nodes(fb));
	assert_int_equal(r.valid, 2 + r.data + r.nodes);
	assert_int_equal(r.run.host_blocks, 20000);
	assert_true(r.run.gc_data_blocks > 0);     /* full: overwrites need GC */

	/* one block more does not fit: the reason names the file and the user space */
	cfg.file_blocks = fb + 1;
	assert_int_equal(zf2fs_gc_sim_model_from_layout(&lay, &m), 0);
	assert_int_equal(zf2fs_gc_sim_new(m, &cfg, why, sizeof(why), &sim), -ENOSPC);
	assert_null(sim);
	snprintf(num, sizeof(num), "%u data", fb + 1);
	assert_non_null(strstr(why, num));
	snprintf(num, sizeof(num), "holds %llu", (unsigned long long)user);
	assert_non_null(strstr(why, num));

	/* beyond what an inode's node tree addresses */
	cfg.file_blocks = 4100u * 262144u;   /* 4100 GiB */
	assert_int_equal(zf2fs_gc_sim_model_from_layout(&lay, &m), 0);
	assert_int_equal(zf2fs_gc_sim_new(m, &cfg, why, sizeof(why), &sim), -EINVAL);
	assert_non_null(strstr(why, "node tree"));
	assert_non_null(strstr(why, "1057053439 blocks"));
}

/*
 * Fallocated files (fio's layout): the fill writes node pages only; a data block takes
 * space at its first write, so the valid blocks are the nodes plus the blocks written
 * (distinct ones: a rewrite of a written block invalidates its old copy), and no GC runs
 * while the writes fit in the free space.
 */
static void test_fallocate(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_gc_sim_config cfg;
	struct result r;

	(void)state;
	layout_plain(128 * MiB, 1, &lay);
	zf2fs_gc_sim_config_init(&cfg);
	cfg.fill = 0.85;
	cfg.ops = 1000;
	cfg.fallocate = true;
	cfg.mode = ZF2FS_SIM_MODE_LFS;
	simulate(&lay, &cfg, &r);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.fill.host_blocks, 0);
	assert_int_equal(r.fill.data_blocks, 0);
	assert_true(r.fill.node_blocks >= r.nodes);
	/* 1000 writes over about 27000 blocks: a few land on a block written before */
	assert_true(r.valid <= 2 + r.nodes + 1000);
	assert_true(r.valid >= 2 + r.nodes + 950);
	assert_int_equal(r.run.gc_data_blocks + r.run.gc_node_blocks, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conservation),
		cmocka_unit_test(test_sync_nodes),
		cmocka_unit_test(test_reserved),
		cmocka_unit_test(test_incremental),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_ssr_cuts_gc),
		cmocka_unit_test(test_ssr_engines),
		cmocka_unit_test(test_ssr_kind),
		cmocka_unit_test(test_ssr_threshold),
		cmocka_unit_test(test_ipu),
		cmocka_unit_test(test_lfs_ignores_adaptive),
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_big_file),
		cmocka_unit_test(test_fallocate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
