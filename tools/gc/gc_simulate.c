// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gc_simulate.c - gc.f2fs simulate: write amplification and foreground GC stalls of a
 * workload, on an image's state or on an empty volume laid out as mkfs would.
 *
 *   gc.f2fs simulate [IMAGE] [--size SIZE | --zoned ZONES:ZONE[:CAP] ...] [-s N] [-z N]
 *                    [-o PCT] [-Z N|auto] [--mode lfs|adaptive] [workload] [GC options]
 *                    [--compare KEY=A,B,...]
 *
 * Options are parsed here; the volume (zf2fs_layout_compute or zf2fs_gc_model_load) and
 * the simulation (include/zf2fs/gc_sim.h) come from the library.  Output: a text report,
 * --format json or csv, a time series (--series) and a plot through gnuplot (--plot).
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "zf2fs/zf2fs.h"
#include "helper.h"
#include "zf2fs/gc.h"
#include "zf2fs/gc_sim.h"
#include "zf2fs/geometry.h"
#include "zf2fs/zoned.h"
#include "gc_simulate.h"

#define PROG "gc.f2fs"
#define MAX_VARIANTS 8
#define MiB (1024.0 * 1024.0)

struct sim_cli {
	const char *image;
	/* geometry */
	uint64_t size, conv_dev, zone_bytes, zone_cap;
	uint32_t zones, conv_zones;
	struct zf2fs_layout_opts lo;
	bool reserved_auto_set;
	bool mode_set;             /* --mode given; else lfs on zoned volumes, adaptive elsewhere */
	struct zf2fs_gc_sim_config cfg;
	/* the default stream, when no --stream */
	struct zf2fs_gc_sim_stream def;
	/* compare */
	const char *cmp_key;
	char *cmp_vals[MAX_VARIANTS];
	unsigned ncmp;
	bool equal_op;
	const char *format, *series, *plot;
	int verbose;
};

struct variant {
	char label[64];
	struct zf2fs_layout lay;
	bool have_lay;
	struct zf2fs_gc_sim_stats fill, run;
	struct zf2fs_gc_sim_sample *samples;
	unsigned nsamples;
	uint64_t files, data_blocks, node_blocks;
	uint32_t reserved_secs, ovp_segs, rsvd_segs, secs, sps;
	enum zf2fs_gc_sim_mode mode;
	double elapsed, cpu;
	char error[400];
	/* --compare runs the variants in threads; the main thread reads their progress */
	struct sim_cli cli;
	int rc;
	pthread_mutex_t lock;
	struct zf2fs_gc_sim *sim;  /* while it runs, under lock */
	bool finished;             /* under lock */
	bool warned;               /* the fill was looked at (warn_past_reserve) */
	uint32_t bs;               /* bytes per block: the image's, 4096 without one */
};

static const char sim_usage[] =
"Usage: " PROG " simulate [IMAGE] [OPTIONS]\n"
"\n"
"Simulates a workload on the kernel's allocation and GC: write amplification, GC work\n"
"and foreground stalls.  Starts from IMAGE's SIT state, or from an empty volume\n"
"laid out exactly as mkfs.f2fs would lay it out.\n"
"\n"
"Volume (without IMAGE):\n"
"  --size SIZE             a regular device (K, M, G, T suffixes)\n"
"  --zoned ZONES:ZONE[:CAP] a host-managed zoned device: zones, zone size, capacity\n"
"  --conv-zones N          conventional zones at the start of the zoned device\n"
"  --conv-dev SIZE         a conventional device in front of it (mkfs -m -c)\n"
"  -b SIZE                 block size: 4096 (default) or 16384 (mkfs -b)\n"
"  -s N, -z N, -o PCT      segments per section, sections per zone, overprovision %\n"
"  -Z N|auto               reserved sections (mkfs -Z; implies -o 3 unless given)\n"
"Workload (deterministic for a seed):\n"
"  --seed N                random seed (default 1)\n"
"  --fill PCT              files fill PCT% of the free user blocks (default 80)\n"
"  --file-size SIZE        size of every file (default 1M)\n"
"  --files N               exactly N files (instead of --fill)\n"
"  --ops N                 write operations after the fill (default 100000)\n"
"  --fallocate             the files are fallocated, not written (fio's layout of a\n"
"                          randwrite file): a block takes space at its first write\n"
"  --bs SIZE               write size of the default stream (default 4K)\n"
"  --sync                  default stream: O_SYNC writes\n"
"  --pattern P             default stream: uniform, zipf:THETA, hotcold:X/Y (X% of the\n"
"                          writes to Y% of the data), seq (an append log)\n"
"  --stream SPEC           a stream (repeatable, up to 8): P[,bs=SIZE][,sync]\n"
"                          [,weight=N][,data=PCT]\n"
"  --preset 2013           the 2013 victim-search case: 2 GiB volume, 52023 files of\n"
"                          32 KiB (full then), 100000 random 4 KiB sync rewrites\n"
"Mount:\n"
"  --mode lfs|adaptive     allocation mode (default: the kernel's, lfs on zoned volumes,\n"
"                          adaptive otherwise: in-place updates and SSR)\n"
"  --ipu-policy P          adaptive: default (force up to 16 GiB, fsync above), none,\n"
"                          fsync, force\n"
"GC:\n"
"  --policy greedy|cb|atgc foreground victim policy (default greedy, as the kernel)\n"
"  --search SPEC           kernel (default), fixed:N, all, proportional\n"
"  --max-search N          sysfs max_victim_search (default 4096)\n"
"  --gc-max-secs N         incremental GC: at most N sections per foreground cycle\n"
"  --bg-gc SECONDS         a background GC pass every SECONDS of fs time (default off)\n"
"  --bg-policy greedy|cb|atgc  background victim policy (default cb)\n"
"Costs and clock:\n"
"  --write-cost US         per block written by the host (default 10)\n"
"  --move-cost US          per block moved by GC (default 40)\n"
"  --cp-cost US            per checkpoint (default 500)\n"
"  --rate BLOCKS           host blocks per second of fs time (default 25600)\n"
"  --cp-interval S         periodic checkpoint (default 60)\n"
"Output:\n"
"  --compare KEY=A,B,...   side by side; KEY: reserved (auto or N), op, search, policy,\n"
"                          gc-max-secs, bg-gc, fill, sync (0 or 1), mode, ipu-policy\n"
"  --equal-op              with --compare reserved=...: pick -o so that every variant\n"
"                          has the first one's overprovision segments\n"
"  --format text|json|csv  report format (default text)\n"
"  --samples N             time-series points (default 100)\n"
"  --series FILE           the time series as CSV\n"
"  --plot FILE.png|.svg    WAF and stalls over time, through gnuplot\n"
"  -v, --verbose           more detail\n";

#define die_usage(...) zs_usage_error(PROG, __VA_ARGS__)

static uint64_t parse_size(const char *s, const char *what)
{
	char *end;
	double v;
	uint64_t mul = 1;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		die_usage("invalid %s '%s'", what, s);
	switch (*end) {
	case 'k': case 'K': mul = 1ull << 10; end++; break;
	case 'm': case 'M': mul = 1ull << 20; end++; break;
	case 'g': case 'G': mul = 1ull << 30; end++; break;
	case 't': case 'T': mul = 1ull << 40; end++; break;
	case '\0': break;
	default: die_usage("invalid %s '%s' (a number with K, M, G or T)", what, s);
	}
	if (*end == 'i' && end[1] == 'B')
		end += 2;
	else if (*end == 'B')
		end++;
	if (*end)
		die_usage("invalid %s '%s'", what, s);
	return (uint64_t)(v * (double)mul);
}

static double parse_double(const char *s, const char *what, double min, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v < min || v > max)
		die_usage("invalid %s '%s' (%g to %g)", what, s, min, max);
	return v;
}

static enum zf2fs_gc_policy parse_policy(const char *s)
{
	if (!strcmp(s, "greedy"))
		return ZF2FS_GC_GREEDY;
	if (!strcmp(s, "cb"))
		return ZF2FS_GC_CB;
	if (!strcmp(s, "atgc"))
		return ZF2FS_GC_AT;
	die_usage("invalid policy '%s' (greedy, cb or atgc)", s);
}

static void parse_search(struct zf2fs_gc_params *p, const char *s)
{
	if (!strcmp(s, "kernel") || !strcmp(s, "4096")) {
		p->window = ZF2FS_GC_WIN_KERNEL;
	} else if (!strcmp(s, "all")) {
		p->window = ZF2FS_GC_WIN_ALL;
	} else if (!strcmp(s, "proportional")) {
		p->window = ZF2FS_GC_WIN_PROPORTIONAL;
	} else if (!strncmp(s, "fixed:", 6)) {
		p->window = ZF2FS_GC_WIN_FIXED;
		p->window_n = (uint32_t)zs_parse_u64(PROG, s + 6, "search window", 1, UINT32_MAX);
	} else {
		die_usage("invalid search window '%s' (kernel, fixed:N, all, proportional)", s);
	}
}

static void parse_pattern(struct zf2fs_gc_sim_stream *st, const char *s)
{
	if (!strcmp(s, "uniform")) {
		st->pattern = ZF2FS_SIM_UNIFORM;
	} else if (!strcmp(s, "seq") || !strcmp(s, "append")) {
		st->pattern = ZF2FS_SIM_SEQUENTIAL;
	} else if (!strncmp(s, "zipf:", 5)) {
		st->pattern = ZF2FS_SIM_ZIPF;
		st->theta = parse_double(s + 5, "zipf theta", 0.01, 0.999);
	} else if (!strncmp(s, "hotcold:", 8)) {
		char buf[64], *slash;

		snprintf(buf, sizeof(buf), "%s", s + 8);
		slash = strchr(buf, '/');
		if (!slash)
			die_usage("invalid pattern '%s' (hotcold:X/Y)", s);
		*slash = '\0';
		st->pattern = ZF2FS_SIM_HOTCOLD;
		st->hot_writes = parse_double(buf, "hot write share", 0, 100);
		st->hot_data = parse_double(slash + 1, "hot data share", 0.001, 99.999);
	} else {
		die_usage("invalid pattern '%s' (uniform, zipf:THETA, hotcold:X/Y, seq)", s);
	}
}

static void parse_stream(struct sim_cli *c, const char *spec)
{
	struct zf2fs_gc_sim_stream st = { .io_blocks = 1, .weight = 1 };
	char buf[256], *tok, *save = NULL;

	if (c->cfg.nstreams == ZF2FS_GC_SIM_MAX_STREAMS)
		die_usage("at most %d streams", ZF2FS_GC_SIM_MAX_STREAMS);
	snprintf(buf, sizeof(buf), "%s", spec);
	tok = strtok_r(buf, ",", &save);
	if (!tok)
		die_usage("empty stream");
	parse_pattern(&st, tok);
	while ((tok = strtok_r(NULL, ",", &save))) {
		if (!strcmp(tok, "sync"))
			st.sync = true;
		else if (!strncmp(tok, "bs=", 3))
			st.io_blocks = (uint32_t)(parse_size(tok + 3, "write size") / 4096);
		else if (!strncmp(tok, "weight=", 7))
			st.weight = (uint32_t)zs_parse_u64(PROG, tok + 7, "weight", 1, 1000000);
		else if (!strncmp(tok, "data=", 5))
			st.data_pct = parse_double(tok + 5, "data share", 0.001, 100);
		else
			die_usage("invalid stream option '%s' (bs=, sync, weight=, data=)", tok);
	}
	if (!st.io_blocks)
		die_usage("write size below 4 KiB in stream '%s'", spec);
	c->cfg.streams[c->cfg.nstreams++] = st;
}

static void preset_2013(struct sim_cli *c)
{
	c->size = 2ull << 30;
	c->cfg.file_blocks = 8;
	c->cfg.files = 52023;      /* "until full" in 2013: 52,023 files */
	c->cfg.ops = 100000;
	c->def.io_blocks = 1;
	c->def.sync = true;
	c->def.pattern = ZF2FS_SIM_UNIFORM;
}

enum {
	O_SIZE = 300, O_ZONED, O_CONV_ZONES, O_CONV_DEV, O_SEED, O_FILL, O_FILE_SIZE, O_OPS,
	O_BS, O_SYNC, O_PATTERN, O_STREAM, O_PRESET, O_POLICY, O_SEARCH, O_MAX_SEARCH,
	O_GC_MAX, O_BG_GC, O_BG_POLICY, O_WCOST, O_MCOST, O_CCOST, O_RATE, O_CPI, O_COMPARE,
	O_EQUAL_OP, O_FORMAT, O_SAMPLES, O_SERIES, O_PLOT, O_FILES, O_MODE, O_IPU, O_FALLOCATE,
};

static void parse_mode(struct sim_cli *c, const char *s)
{
	if (!strcmp(s, "lfs"))
		c->cfg.mode = ZF2FS_SIM_MODE_LFS;
	else if (!strcmp(s, "adaptive"))
		c->cfg.mode = ZF2FS_SIM_MODE_ADAPTIVE;
	else
		die_usage("invalid mode '%s' (lfs or adaptive)", s);
	c->mode_set = true;
}

static void parse_ipu(struct sim_cli *c, const char *s)
{
	if (!strcmp(s, "default"))
		c->cfg.ipu = ZF2FS_SIM_IPU_DEFAULT;
	else if (!strcmp(s, "none"))
		c->cfg.ipu = ZF2FS_SIM_IPU_NONE;
	else if (!strcmp(s, "fsync"))
		c->cfg.ipu = ZF2FS_SIM_IPU_FSYNC;
	else if (!strcmp(s, "force"))
		c->cfg.ipu = ZF2FS_SIM_IPU_FORCE;
	else
		die_usage("invalid ipu policy '%s' (default, none, fsync or force)", s);
}

static void parse_reserved(struct sim_cli *c, const char *s)
{
	if (!strcmp(s, "auto")) {
		c->lo.reserved_sections = 0;
		return;
	}
	c->lo.reserved_sections = (uint32_t)zs_parse_u64(PROG, s, "reserved sections", 1,
							 UINT32_MAX);
}

static void parse_cli(struct sim_cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, O_SIZE },
		{ "zoned", required_argument, NULL, O_ZONED },
		{ "conv-zones", required_argument, NULL, O_CONV_ZONES },
		{ "conv-dev", required_argument, NULL, O_CONV_DEV },
		{ "seed", required_argument, NULL, O_SEED },
		{ "fill", required_argument, NULL, O_FILL },
		{ "file-size", required_argument, NULL, O_FILE_SIZE },
		{ "files", required_argument, NULL, O_FILES },
		{ "ops", required_argument, NULL, O_OPS },
		{ "fallocate", no_argument, NULL, O_FALLOCATE },
		{ "bs", required_argument, NULL, O_BS },
		{ "sync", no_argument, NULL, O_SYNC },
		{ "pattern", required_argument, NULL, O_PATTERN },
		{ "stream", required_argument, NULL, O_STREAM },
		{ "preset", required_argument, NULL, O_PRESET },
		{ "policy", required_argument, NULL, O_POLICY },
		{ "search", required_argument, NULL, O_SEARCH },
		{ "max-search", required_argument, NULL, O_MAX_SEARCH },
		{ "gc-max-secs", required_argument, NULL, O_GC_MAX },
		{ "bg-gc", required_argument, NULL, O_BG_GC },
		{ "bg-policy", required_argument, NULL, O_BG_POLICY },
		{ "write-cost", required_argument, NULL, O_WCOST },
		{ "move-cost", required_argument, NULL, O_MCOST },
		{ "cp-cost", required_argument, NULL, O_CCOST },
		{ "rate", required_argument, NULL, O_RATE },
		{ "cp-interval", required_argument, NULL, O_CPI },
		{ "compare", required_argument, NULL, O_COMPARE },
		{ "equal-op", no_argument, NULL, O_EQUAL_OP },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "samples", required_argument, NULL, O_SAMPLES },
		{ "series", required_argument, NULL, O_SERIES },
		{ "plot", required_argument, NULL, O_PLOT },
		{ "mode", required_argument, NULL, O_MODE },
		{ "ipu-policy", required_argument, NULL, O_IPU },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	zf2fs_gc_sim_config_init(&c->cfg);
	c->def.io_blocks = 1;
	c->def.weight = 1;
	c->format = "text";
	while ((opt = getopt_long(argc, argv, "b:s:z:o:Z:vh", opts, NULL)) != -1) {
		switch (opt) {
		case 'b': {
			uint64_t b = zs_parse_u64(PROG, optarg, "block size", 4096, 16384);

			if (b != 4096 && b != 16384)
				die_usage("block size %s is not supported (4096 or 16384)", optarg);
			c->lo.log_blocksize = b == 16384 ? 14 : 12;
			break;
		}
		case 's': c->lo.segs_per_sec = (uint32_t)zs_parse_u64(PROG, optarg,
							"segments per section", 1, 512); break;
		case 'z': c->lo.secs_per_zone = (uint32_t)zs_parse_u64(PROG, optarg,
							"sections per zone", 1, 65536); break;
		case 'o': c->lo.overprovision = parse_double(optarg, "overprovision", 0.001, 99); break;
		case 'Z': parse_reserved(c, optarg); break;
		case O_SIZE: c->size = parse_size(optarg, "size"); break;
		case O_ZONED: {
			char buf[128], *a, *b;

			snprintf(buf, sizeof(buf), "%s", optarg);
			a = strchr(buf, ':');
			if (!a)
				die_usage("invalid zoned geometry '%s' (ZONES:ZONE[:CAP])", optarg);
			*a++ = '\0';
			b = strchr(a, ':');
			if (b)
				*b++ = '\0';
			c->zones = (uint32_t)zs_parse_u64(PROG, buf, "zone count", 1, 1u << 24);
			c->zone_bytes = parse_size(a, "zone size");
			c->zone_cap = b ? parse_size(b, "zone capacity") : c->zone_bytes;
			if (!c->zone_bytes || c->zone_cap > c->zone_bytes || !c->zone_cap)
				die_usage("invalid zoned geometry '%s'", optarg);
			break;
		}
		case O_CONV_ZONES: c->conv_zones = (uint32_t)zs_parse_u64(PROG, optarg,
							"conventional zones", 0, 1u << 24); break;
		case O_CONV_DEV: c->conv_dev = parse_size(optarg, "device size"); break;
		case O_SEED: c->cfg.seed = zs_parse_u64(PROG, optarg, "seed", 0, UINT64_MAX); break;
		case O_FILL: c->cfg.fill = parse_double(optarg, "fill", 0.01, 99.5) / 100; break;
		case O_FILE_SIZE: {
			uint64_t b = parse_size(optarg, "file size") / 4096;

			if (!b)
				die_usage("file size below 4 KiB");
			/* the library names the node tree's limit for sizes below this */
			if (b > UINT32_MAX)
				die_usage("file size '%s' above 16 TiB", optarg);
			c->cfg.file_blocks = (uint32_t)b;
			break;
		}
		case O_FILES: c->cfg.files = zs_parse_u64(PROG, optarg, "file count", 1, UINT32_MAX); break;
		case O_OPS: c->cfg.ops = zs_parse_u64(PROG, optarg, "operations", 0, UINT64_MAX / 2); break;
		case O_BS:
			c->def.io_blocks = (uint32_t)(parse_size(optarg, "write size") / 4096);
			if (!c->def.io_blocks)
				die_usage("write size below 4 KiB");
			break;
		case O_SYNC: c->def.sync = true; break;
		case O_FALLOCATE: c->cfg.fallocate = true; break;
		case O_PATTERN: parse_pattern(&c->def, optarg); break;
		case O_STREAM: parse_stream(c, optarg); break;
		case O_PRESET:
			if (strcmp(optarg, "2013"))
				die_usage("unknown preset '%s' (2013)", optarg);
			preset_2013(c);
			break;
		case O_POLICY: c->cfg.fg.policy = parse_policy(optarg); break;
		case O_SEARCH: parse_search(&c->cfg.fg, optarg); break;
		case O_MAX_SEARCH: c->cfg.fg.max_search = (uint32_t)zs_parse_u64(PROG, optarg,
							"max search", 1, UINT32_MAX); break;
		case O_GC_MAX: c->cfg.max_secs_per_cycle = (uint32_t)zs_parse_u64(PROG, optarg,
							"sections per cycle", 1, 1u << 20); break;
		case O_BG_GC: c->cfg.bg_interval = (uint32_t)zs_parse_u64(PROG, optarg,
							"background interval", 1, 1u << 30); break;
		case O_BG_POLICY: c->cfg.bg_policy = parse_policy(optarg); break;
		case O_WCOST: c->cfg.write_cost_us = parse_double(optarg, "write cost", 0, 1e9); break;
		case O_MCOST: c->cfg.move_cost_us = parse_double(optarg, "move cost", 0, 1e9); break;
		case O_CCOST: c->cfg.cp_cost_us = parse_double(optarg, "checkpoint cost", 0, 1e12); break;
		case O_RATE: c->cfg.rate = (uint32_t)zs_parse_u64(PROG, optarg, "rate", 1,
							UINT32_MAX); break;
		case O_CPI: c->cfg.cp_interval = (uint32_t)zs_parse_u64(PROG, optarg,
							"checkpoint interval", 0, 1u << 30); break;
		case O_COMPARE: {
			char *eq, *tok, *save = NULL;
			char *dup = strdup(optarg);

			if (!dup || !(eq = strchr(dup, '=')))
				die_usage("invalid comparison '%s' (KEY=A,B,...)", optarg);
			*eq++ = '\0';
			c->cmp_key = dup;
			c->ncmp = 0;
			for (tok = strtok_r(eq, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				if (c->ncmp == MAX_VARIANTS)
					die_usage("at most %d variants", MAX_VARIANTS);
				c->cmp_vals[c->ncmp++] = tok;
			}
			if (c->ncmp < 1)
				die_usage("no variant in '%s'", optarg);
			break;
		}
		case O_EQUAL_OP: c->equal_op = true; break;
		case O_FORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "json") && strcmp(optarg, "csv"))
				die_usage("invalid format '%s' (text, json or csv)", optarg);
			c->format = optarg;
			break;
		case O_SAMPLES: c->cfg.samples = (uint32_t)zs_parse_u64(PROG, optarg, "samples",
							0, 100000); break;
		case O_SERIES: c->series = optarg; break;
		case O_PLOT: c->plot = optarg; break;
		case O_MODE: parse_mode(c, optarg); break;
		case O_IPU: parse_ipu(c, optarg); break;
		case 'v': c->verbose++; break;
		case 'h': fputs(sim_usage, stdout); exit(0);
		default:
			fprintf(stderr, "Try '" PROG " simulate --help' for more information.\n");
			exit(ZS_EXIT_USAGE);
		}
	}
	if (optind < argc)
		c->image = argv[optind++];
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	if (!c->image && !c->size && !c->zones)
		die_usage("simulate: give an image, --size or --zoned");
	if (c->image && (c->size || c->zones || c->conv_dev || c->lo.log_blocksize))
		die_usage("simulate: an image or a geometry, not both");
	if (c->size && c->zones)
		die_usage("simulate: --size or --zoned, not both");
	if (c->cmp_key && strcmp(c->cmp_key, "reserved") && strcmp(c->cmp_key, "op") &&
	    strcmp(c->cmp_key, "search") && strcmp(c->cmp_key, "policy") &&
	    strcmp(c->cmp_key, "gc-max-secs") && strcmp(c->cmp_key, "bg-gc") &&
	    strcmp(c->cmp_key, "fill") && strcmp(c->cmp_key, "sync") &&
	    strcmp(c->cmp_key, "mode") && strcmp(c->cmp_key, "ipu-policy"))
		die_usage("invalid comparison key '%s'", c->cmp_key);
	if (c->zones && c->mode_set && c->cfg.mode == ZF2FS_SIM_MODE_ADAPTIVE)
		die_usage("--mode adaptive: the kernel mounts zoned volumes in mode=lfs only");
	if (c->equal_op && (!c->cmp_key || strcmp(c->cmp_key, "reserved")))
		die_usage("--equal-op goes with --compare reserved=...");
	if (c->image && c->cmp_key && (!strcmp(c->cmp_key, "reserved") || !strcmp(c->cmp_key, "op")))
		die_usage("--compare %s needs a geometry, not an image", c->cmp_key);
	if (!c->cfg.nstreams) {
		c->cfg.streams[0] = c->def;
		c->cfg.nstreams = 1;
	}
}

/* ---- the volume ---------------------------------------------------------------------- */
static int compute_layout(const struct sim_cli *c, const struct zf2fs_layout_opts *lo,
			  struct zf2fs_layout *lay, char *why, size_t len)
{
	struct zf2fs_dev_geom d[2];
	unsigned n = 0;
	struct zf2fs_layout_opts o = *lo;

	memset(d, 0, sizeof(d));
	if (c->conv_dev) {
		d[n].bytes = c->conv_dev;
		d[n].sector_size = 4096;
		n++;
	}
	if (c->zones) {
		d[n].bytes = (uint64_t)c->zones * c->zone_bytes;
		d[n].sector_size = 4096;
		d[n].zone_model = ZF2FS_ZONED_HM;
		d[n].zone_bytes = c->zone_bytes;
		d[n].zone_cap_bytes = c->zone_cap;
		d[n].nr_zones = c->zones;
		d[n].nr_conv_zones = c->conv_zones;
		o.zoned = true;
		n++;
	} else {
		d[n].bytes = c->size;
		d[n].sector_size = 512;
		n++;
	}
	return zf2fs_layout_compute(d, n, &o, lay, why, len);
}

/* The -o that gives @target overprovision segments with reserved sections @rsv. */
static double op_for(const struct sim_cli *c, uint32_t rsv, uint32_t target)
{
	struct zf2fs_layout_opts o = c->lo;
	struct zf2fs_layout lay;
	double lo = 0.001, hi = 99;

	o.reserved_sections = rsv;
	for (int i = 0; i < 80; i++) {
		double mid = (lo + hi) / 2;

		o.overprovision = mid;
		if (compute_layout(c, &o, &lay, NULL, 0) || lay.ovp_segments >= target)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

static void apply(struct sim_cli *c, const char *key, const char *val)
{
	if (!strcmp(key, "reserved"))
		parse_reserved(c, val);
	else if (!strcmp(key, "op"))
		c->lo.overprovision = parse_double(val, "overprovision", 0.001, 99);
	else if (!strcmp(key, "search"))
		parse_search(&c->cfg.fg, val);
	else if (!strcmp(key, "policy"))
		c->cfg.fg.policy = parse_policy(val);
	else if (!strcmp(key, "gc-max-secs"))
		c->cfg.max_secs_per_cycle = (uint32_t)zs_parse_u64(PROG, val, "sections", 0, 1u << 20);
	else if (!strcmp(key, "bg-gc"))
		c->cfg.bg_interval = (uint32_t)zs_parse_u64(PROG, val, "interval", 0, 1u << 30);
	else if (!strcmp(key, "fill"))
		c->cfg.fill = parse_double(val, "fill", 0.01, 99.5) / 100;
	else if (!strcmp(key, "mode"))
		parse_mode(c, val);
	else if (!strcmp(key, "ipu-policy"))
		parse_ipu(c, val);
	else if (!strcmp(key, "sync"))
		for (unsigned i = 0; i < c->cfg.nstreams; i++)
			c->cfg.streams[i].sync = strcmp(val, "0") != 0;
}

/*
 * A fill past the reserve: every write then runs foreground GC on nearly full sections
 * (a write amplification of about a section per write).  Said once per variant, as soon
 * as the fill is over (the main thread looks every half second) or at the end.
 */
static void warn_past_reserve(struct variant *v, const struct zf2fs_gc_sim_stats *fill)
{
	bool say;

	pthread_mutex_lock(&v->lock);
	say = !v->warned && fill->ops && fill->free_secs < fill->reserved_secs;
	v->warned = true;
	pthread_mutex_unlock(&v->lock);
	if (say)
		fprintf(stderr, "%s" PROG ": WARNING: %s%sthe files leave %u free sections, below "
			"the %u reserved that foreground GC keeps free: every write runs foreground "
			"GC on nearly full sections\n", isatty(2) ? "\r\033[K" : "",
			v->cli.cmp_key ? v->label : "", v->cli.cmp_key ? ": " : "",
			fill->free_secs, fill->reserved_secs);
}

static int run_variant(const struct sim_cli *c, struct variant *v)
{
	struct zf2fs_gc_model *m = NULL;
	struct zf2fs_gc_sim *sim = NULL;
	struct zf2fs_vol *vol = NULL;
	const struct zf2fs_gc_sim_sample *smp;
	struct zf2fs_gc_summary sum;
	struct zf2fs_gc_sim_config cfg = c->cfg;
	struct timespec t0, t1, c0, c1;
	bool zoned = false;
	int err;

	v->bs = ZF2FS_BLKSIZE;
	if (c->image) {
		const char *paths[1] = { c->image };
		struct zf2fs_log log = { .level = c->verbose };

		err = zf2fs_vol_open(paths, 1, ZF2FS_VOL_BLOCK16K, &log, &vol);
		if (!err) {
			v->bs = zf2fs_vol_geom(vol)->blocksize;
			err = zf2fs_gc_model_load(vol, &log, &m);
		}
		if (vol) {
			zoned = zf2fs_vol_is_zoned(vol);
			zf2fs_vol_close(vol);
		}
		if (err) {
			snprintf(v->error, sizeof(v->error), "%s: while reading %s",
				 err == -ZF2FS_EFSCORRUPTED ? "corrupt file system" : strerror(-err),
				 c->image);
			return err;
		}
	} else {
		char why[200] = "";

		err = compute_layout(c, &c->lo, &v->lay, why, sizeof(why));
		if (err) {
			snprintf(v->error, sizeof(v->error), "%s", why[0] ? why : strerror(-err));
			return err;
		}
		v->have_lay = true;
		v->bs = 1u << v->lay.log_blocksize;
		zoned = v->lay.zoned;
		err = zf2fs_gc_sim_model_from_layout(&v->lay, &m);
		if (err) {
			snprintf(v->error, sizeof(v->error), "%s: while building the model",
				 strerror(-err));
			return err;
		}
	}
	/* the sizes were read in 4 KiB units: a write or a file takes whole blocks of the
	 * volume's size */
	{
		uint32_t per = v->bs / ZF2FS_BLKSIZE;

		cfg.file_blocks = (cfg.file_blocks + per - 1) / per;
		for (unsigned k = 0; k < cfg.nstreams; k++)
			cfg.streams[k].io_blocks = (cfg.streams[k].io_blocks + per - 1) / per;
	}
	zf2fs_gc_summarize(m, &sum);
	v->reserved_secs = sum.reserved_secs;
	v->ovp_segs = sum.ovp_segments;
	v->rsvd_segs = sum.rsvd_segments;
	v->secs = sum.main_secs;
	v->sps = sum.segs_per_sec;
	/* the kernel's default: zoned volumes are forced to mode=lfs, others mount adaptive */
	if (!c->mode_set)
		cfg.mode = zoned ? ZF2FS_SIM_MODE_LFS : ZF2FS_SIM_MODE_ADAPTIVE;
	if (zoned && cfg.mode == ZF2FS_SIM_MODE_ADAPTIVE) {
		zf2fs_gc_model_free(m);
		snprintf(v->error, sizeof(v->error), "mode=adaptive on a zoned volume (the kernel "
			 "mounts zoned volumes in mode=lfs only)");
		return -EINVAL;
	}
	v->mode = cfg.mode;
	{
		char why[256] = "";

		err = zf2fs_gc_sim_new(m, &cfg, why, sizeof(why), &sim);
		if (err) {
			snprintf(v->error, sizeof(v->error), "%s: while setting up the workload%s%s",
				 err == -ENOSPC ? "no room" : strerror(-err), why[0] ? ": " : "",
				 why);
			return err;
		}
	}
	zf2fs_gc_sim_size(sim, &v->files, &v->data_blocks, &v->node_blocks);
	pthread_mutex_lock(&v->lock);
	v->sim = sim;
	pthread_mutex_unlock(&v->lock);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	err = zf2fs_gc_sim_run(sim);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_mutex_lock(&v->lock);
	v->sim = NULL;
	pthread_mutex_unlock(&v->lock);
	v->elapsed = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	v->cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
	zf2fs_gc_sim_stats(sim, 0, &v->fill);
	zf2fs_gc_sim_stats(sim, 1, &v->run);
	warn_past_reserve(v, &v->fill);
	smp = zf2fs_gc_sim_samples(sim, &v->nsamples);
	v->samples = malloc((v->nsamples + 1) * sizeof(*v->samples));
	if (v->samples)
		memcpy(v->samples, smp, v->nsamples * sizeof(*smp));
	else
		v->nsamples = 0;
	if (err)
		snprintf(v->error, sizeof(v->error), "%s: while simulating (after %" PRIu64 " of %"
			 PRIu64 " operations)", err == -ENOSPC ?
			 "no free section left (too full for these GC settings)" : strerror(-err),
			 v->run.ops, c->cfg.ops);
	zf2fs_gc_sim_free(sim);
	return err;
}

/* ---- output ---------------------------------------------------------------------------- */
static uint64_t dev_blocks(const struct zf2fs_gc_sim_stats *s)
{
	return s->data_blocks + s->node_blocks + s->gc_data_blocks + s->gc_node_blocks +
	       s->meta_blocks;
}

struct row {
	const char *name;
	int kind;      /* 0 u64, 1 double, 2 MiB */
	size_t off;
};

#define R(n, k, f) { n, k, offsetof(struct zf2fs_gc_sim_stats, f) }
static const struct row rows[] = {
	R("host_mib", 2, host_blocks), R("data_mib", 2, data_blocks), R("node_mib", 2, node_blocks),
	R("gc_data_mib", 2, gc_data_blocks), R("gc_node_mib", 2, gc_node_blocks),
	R("meta_mib", 2, meta_blocks), R("waf", 1, waf), R("ops", 0, ops),
	R("checkpoints", 0, checkpoints), R("fg_gc_cycles", 0, fg_cycles),
	R("fg_sections", 0, fg_sections), R("bg_sections", 0, bg_sections),
	R("blocks_moved", 3, gc_data_blocks), R("stalled_ops", 0, stalled_ops),
	R("lat_p50_us", 1, lat_p50), R("lat_p99_us", 1, lat_p99), R("lat_p999_us", 1, lat_p999),
	R("lat_max_us", 1, lat_max), R("stall_p50_us", 1, stall_p50),
	R("stall_p99_us", 1, stall_p99), R("stall_p999_us", 1, stall_p999),
	R("stall_max_us", 1, stall_max), R("gc_seconds", 1, gc_seconds),
	R("longest_cycle_blocks", 1, max_cycle_blocks), R("ssr_segments", 0, ssr_segments),
	R("ipu_mib", 2, ipu_blocks), R("ssr_blocks", 0, ssr_blocks),
};

static double row_value(const struct row *r, const struct zf2fs_gc_sim_stats *s, uint32_t bs)
{
	const char *p = (const char *)s + r->off;

	switch (r->kind) {
	case 0: return (double)*(const uint64_t *)p;
	case 1: return *(const double *)p;
	case 2: return (double)*(const uint64_t *)p * bs / MiB;
	default: return (double)(s->gc_data_blocks + s->gc_node_blocks);
	}
}

static void fmt_value(char *buf, size_t len, const struct row *r, double v)
{
	if (r->kind == 1)
		snprintf(buf, len, v >= 1000 ? "%.0f" : "%.3g", v);
	else if (r->kind == 2)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
}

static void print_header_text(const struct sim_cli *c, const struct variant *v)
{
	const struct zf2fs_gc_sim_config *g = &c->cfg;

	if (c->image)
		printf("volume: %s, %u sections of %u segments; reserved %u segments (%u sections), "
		       "overprovision %u segments\n", c->image, v->secs, v->sps, v->rsvd_segs,
		       v->reserved_secs, v->ovp_segs);
	else
		printf("volume: %.0f MiB%s, %u sections of %u segments; reserved %u segments (%u "
		       "sections), overprovision %u segments (%.3f%%)\n",
		       (double)v->lay.block_count * v->bs / MiB, v->lay.zoned ? " zoned" : "",
		       v->secs, v->sps, v->rsvd_segs, v->reserved_secs, v->ovp_segs,
		       v->lay.overprovision);
	if (!c->cmp_key || strcmp(c->cmp_key, "mode"))
		printf("mount: mode=%s\n", v->mode == ZF2FS_SIM_MODE_ADAPTIVE ? "adaptive" : "lfs");
	if (g->files)           /* --files: no fill share was asked for */
		printf("workload: seed %" PRIu64 ", %" PRIu64 " file%s of %" PRIu64 " KiB, %" PRIu64
		       " operations in %u stream%s\n", g->seed, v->files, v->files == 1 ? "" : "s",
		       (uint64_t)g->file_blocks * 4, g->ops, g->nstreams, g->nstreams > 1 ? "s" : "");
	else
		printf("workload: seed %" PRIu64 ", %" PRIu64 " files of %" PRIu64 " KiB (%.1f%% of "
		       "the free user blocks), %" PRIu64 " operations in %u stream%s\n", g->seed,
		       v->files, (uint64_t)g->file_blocks * 4, g->fill * 100, g->ops, g->nstreams,
		       g->nstreams > 1 ? "s" : "");
}

static void print_text(const struct sim_cli *c, struct variant *vs, unsigned n)
{
	print_header_text(c, &vs[0]);
	if (n == 1 && !c->cmp_key) {
		const struct variant *v = &vs[0];
		const struct zf2fs_gc_sim_stats *s = &v->run;

		printf("fill: %.1f MiB written, WAF %.3f, %" PRIu64 " foreground GC cycles\n",
		       (double)v->fill.host_blocks * v->bs / MiB, v->fill.waf, v->fill.fg_cycles);
		printf("writes: host %.1f MiB; device %.1f MiB = data %.1f + node %.1f + GC moves "
		       "%.1f (data %.1f, node %.1f) + checkpoint %.1f\n",
		       (double)s->host_blocks * v->bs / MiB, (double)dev_blocks(s) * v->bs / MiB,
		       (double)s->data_blocks * v->bs / MiB, (double)s->node_blocks * v->bs / MiB,
		       (double)(s->gc_data_blocks + s->gc_node_blocks) * v->bs / MiB,
		       (double)s->gc_data_blocks * v->bs / MiB, (double)s->gc_node_blocks * v->bs / MiB,
		       (double)s->meta_blocks * v->bs / MiB);
		printf("WAF: %.3f\n", s->waf);
		printf("GC: %" PRIu64 " foreground cycles, %" PRIu64 " sections reclaimed in the "
		       "foreground, %" PRIu64 " in the background, %" PRIu64 " blocks moved, %" PRIu64
		       " checkpoints\n", s->fg_cycles, s->fg_sections, s->bg_sections,
		       s->gc_data_blocks + s->gc_node_blocks, s->checkpoints);
		if (v->mode == ZF2FS_SIM_MODE_ADAPTIVE)
			printf("adaptive: SSR %" PRIu64 " blocks in %" PRIu64 " reused segments, %.1f "
			       "MiB updated in place\n", s->ssr_blocks, s->ssr_segments,
			       (double)s->ipu_blocks * v->bs / MiB);
		printf("latency (us): p50 %.0f, p99 %.0f, p99.9 %.0f, max %.0f\n", s->lat_p50,
		       s->lat_p99, s->lat_p999, s->lat_max);
		printf("foreground stalls: %" PRIu64 " operations; stall (us) p50 %.0f, p99 %.0f, "
		       "p99.9 %.0f, max %.0f; GC time %.2f s, longest cycle %.0f blocks\n",
		       s->stalled_ops, s->stall_p50, s->stall_p99, s->stall_p999, s->stall_max,
		       s->gc_seconds, s->max_cycle_blocks);
		if (c->verbose) {
			double nb = (double)(dev_blocks(&v->fill) + dev_blocks(s));

			printf("simulated %.0f block writes in %.2f s (%.1f M/s); CPU %.2f s (%.1f M/s)\n",
			       nb, v->elapsed, nb / v->elapsed / 1e6, v->cpu,
			       v->cpu > 0 ? nb / v->cpu / 1e6 : 0.0);
		}
		if (v->error[0])
			printf("stopped: %s\n", v->error);
		return;
	}
	printf("%-22s", c->cmp_key ? c->cmp_key : "");
	for (unsigned i = 0; i < n; i++)
		printf(" %14s", vs[i].label);
	printf("\n");
	if (!c->image) {
		printf("%-22s", "reserved_segments");
		for (unsigned i = 0; i < n; i++)
			printf(" %14u", vs[i].rsvd_segs);
		printf("\n%-22s", "overprov_segments");
		for (unsigned i = 0; i < n; i++)
			printf(" %14u", vs[i].ovp_segs);
		printf("\n%-22s", "op_percent");
		for (unsigned i = 0; i < n; i++)
			printf(" %14.3f", vs[i].lay.overprovision);
		printf("\n");
	}
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		printf("%-22s", rows[r].name);
		for (unsigned i = 0; i < n; i++) {
			char buf[32];

			fmt_value(buf, sizeof(buf), &rows[r],
				  row_value(&rows[r], &vs[i].run, vs[i].bs));
			printf(" %14s", vs[i].error[0] && !vs[i].run.ops ? "-" : buf);
		}
		printf("\n");
	}
	for (unsigned i = 0; i < n && c->verbose; i++) {
		double nb = (double)(dev_blocks(&vs[i].fill) + dev_blocks(&vs[i].run));

		printf("%s: WAF %.3f; simulated %.0f block writes in %.2f s (%.1f M/s); CPU %.2f s "
		       "(%.1f M/s)\n", vs[i].label, vs[i].run.waf, nb, vs[i].elapsed, vs[i].elapsed > 0 ? nb / vs[i].elapsed / 1e6 : 0.0,
		       vs[i].cpu, vs[i].cpu > 0 ? nb / vs[i].cpu / 1e6 : 0.0);
	}
	for (unsigned i = 0; i < n; i++)
		if (vs[i].error[0])
			printf("%s: stopped: %s\n", vs[i].label, vs[i].error);
}

static void json_stats(const struct zf2fs_gc_sim_stats *s, uint32_t bs)
{
	printf("{");
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
		printf("%s\"%s\": %.6g", r ? ", " : "", rows[r].name, row_value(&rows[r], s, bs));
	printf(", \"device_mib\": %.6g}", (double)dev_blocks(s) * bs / MiB);
}

static void print_json(const struct sim_cli *c, struct variant *vs, unsigned n)
{
	printf("{\"image\": %s%s%s, \"seed\": %" PRIu64 ", \"ops\": %" PRIu64 ", \"file_kib\": %u, "
	       "\"fill\": %.4f, \"compare\": \"%s\", \"variants\": [", c->image ? "\"" : "",
	       c->image ? c->image : "null", c->image ? "\"" : "", c->cfg.seed, c->cfg.ops,
	       c->cfg.file_blocks * 4, c->cfg.fill, c->cmp_key ? c->cmp_key : "");
	for (unsigned i = 0; i < n; i++) {
		const struct variant *v = &vs[i];

		printf("%s\n {\"label\": \"%s\", \"mode\": \"%s\", \"sections\": %u, \"segs_per_sec\": %u, "
		       "\"reserved_segments\": %u, \"reserved_sections\": %u, \"overprov_segments\": %u, "
		       "\"op_percent\": %.3f, \"files\": %" PRIu64 ", \"error\": %s%s%s,\n  \"fill\": ",
		       i ? "," : "", v->label,
		       v->mode == ZF2FS_SIM_MODE_ADAPTIVE ? "adaptive" : "lfs", v->secs, v->sps, v->rsvd_segs, v->reserved_secs,
		       v->ovp_segs, v->have_lay ? v->lay.overprovision : 0.0, v->files,
		       v->error[0] ? "\"" : "", v->error[0] ? v->error : "null", v->error[0] ? "\"" : "");
		json_stats(&v->fill, v->bs);
		printf(",\n  \"run\": ");
		json_stats(&v->run, v->bs);
		printf(",\n  \"series\": [");
		for (unsigned k = 0; k < v->nsamples; k++) {
			const struct zf2fs_gc_sim_sample *x = &v->samples[k];

			printf("%s[%" PRIu64 ", %.4f, %.4f, %.1f, %.1f, %u]", k ? ", " : "", x->ops,
			       x->waf, x->interval_waf, x->p99_us, x->max_us, x->free_secs);
		}
		printf("]}");
	}
	printf("\n], \"series_columns\": [\"ops\", \"waf\", \"interval_waf\", \"p99_us\", "
	       "\"max_us\", \"free_sections\"]}\n");
}

static void print_csv(const struct sim_cli *c, struct variant *vs, unsigned n)
{
	(void)c;
	printf("label,reserved_segments,overprov_segments,op_percent");
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
		printf(",%s", rows[r].name);
	printf(",error\n");
	for (unsigned i = 0; i < n; i++) {
		printf("%s,%u,%u,%.3f", vs[i].label, vs[i].rsvd_segs, vs[i].ovp_segs,
		       vs[i].have_lay ? vs[i].lay.overprovision : 0.0);
		for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
			printf(",%.6g", row_value(&rows[r], &vs[i].run, vs[i].bs));
		printf(",%s\n", vs[i].error);
	}
}

static int write_series(const char *path, struct variant *vs, unsigned n)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, PROG ": ERROR: %s: while creating %s\n", strerror(errno), path);
		return -1;
	}
	fprintf(f, "variant,ops,host_mib,waf,interval_waf,p99_us,max_us,free_sections\n");
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < vs[i].nsamples; k++) {
			const struct zf2fs_gc_sim_sample *x = &vs[i].samples[k];

			fprintf(f, "%s,%" PRIu64 ",%.2f,%.4f,%.4f,%.1f,%.1f,%u\n", vs[i].label, x->ops,
				(double)x->host_blocks * vs[i].bs / MiB, x->waf, x->interval_waf, x->p99_us,
				x->max_us, x->free_secs);
		}
	return fclose(f) ? -1 : 0;
}

static bool have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char buf[4096], *dir, *save = NULL;

	if (!path)
		return false;
	snprintf(buf, sizeof(buf), "%s", path);
	for (dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		char p[4200];

		snprintf(p, sizeof(p), "%s/gnuplot", dir);
		if (!access(p, X_OK))
			return true;
	}
	return false;
}

static int plot(const char *out, struct variant *vs, unsigned n)
{
	char data[4200];
	const char *ext = strrchr(out, '.');
	bool svg = ext && !strcmp(ext, ".svg");
	FILE *g;
	int rc;

	snprintf(data, sizeof(data), "%s.csv", out);
	if (write_series(data, vs, n))
		return -1;
	if (!have_gnuplot()) {
		fprintf(stderr, PROG ": gnuplot is not installed: no plot; the series is in %s\n",
			data);
		return 0;
	}
	g = popen("gnuplot", "w");
	if (!g) {
		fprintf(stderr, PROG ": ERROR: %s: while starting gnuplot\n", strerror(errno));
		return -1;
	}
	fprintf(g, "set terminal %s size 1000,700\nset output '%s'\nset datafile separator ','\n"
		"set multiplot layout 2,1\nset key outside right\nset xlabel 'host MiB written'\n"
		"set ylabel 'WAF (interval)'\nplot ", svg ? "svg" : "pngcairo", out);
	for (unsigned i = 0; i < n; i++)
		fprintf(g, "%s'%s' using 3:($1 eq '%s' ? $5 : 1/0) with lines title '%s'",
			i ? ", " : "", data, vs[i].label, vs[i].label);
	fprintf(g, "\nset ylabel 'p99 / max latency (us)'\nset logscale y\nplot ");
	for (unsigned i = 0; i < n; i++)
		fprintf(g, "%s'%s' using 3:($1 eq '%s' ? $6 : 1/0) with lines title '%s p99', "
			"'%s' using 3:($1 eq '%s' ? $7 : 1/0) with points title '%s max'",
			i ? ", " : "", data, vs[i].label, vs[i].label, data, vs[i].label, vs[i].label);
	fprintf(g, "\nunset multiplot\n");
	rc = pclose(g);
	if (rc) {
		fprintf(stderr, PROG ": ERROR: gnuplot failed (status %d) while plotting %s\n", rc, out);
		return -1;
	}
	fprintf(stderr, PROG ": plot written to %s (data in %s)\n", out, data);
	return 0;
}

/* ---- running the variants ------------------------------------------------------------ */
struct pool {
	struct variant *vs;
	unsigned n, next;
	pthread_mutex_t lock;
};

/* a worker: variants in order until none is left */
static void *worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		struct variant *v;

		pthread_mutex_lock(&p->lock);
		v = p->next < p->n ? &p->vs[p->next++] : NULL;
		pthread_mutex_unlock(&p->lock);
		if (!v)
			return NULL;
		v->rc = run_variant(&v->cli, v);
		pthread_mutex_lock(&v->lock);
		v->finished = true;
		pthread_mutex_unlock(&v->lock);
	}
}

/* One progress line on stderr: per variant the phase and its share done. */
static void show_progress(struct variant *vs, unsigned n, double secs)
{
	char line[512];
	int len = snprintf(line, sizeof(line), "\r" PROG ": %.0f s", secs);

	for (unsigned i = 0; i < n && len < (int)sizeof(line) - 64; i++) {
		uint64_t done = 0, total = 0;
		int phase = -1;
		bool finished;

		pthread_mutex_lock(&vs[i].lock);
		if (vs[i].sim)
			phase = zf2fs_gc_sim_progress(vs[i].sim, &done, &total);
		finished = vs[i].finished;
		pthread_mutex_unlock(&vs[i].lock);
		len += snprintf(line + len, sizeof(line) - len, "%s %s%s", i ? "," : "",
				n > 1 ? vs[i].label : "", n > 1 ? ":" : "");
		if (phase == 0)
			len += snprintf(line + len, sizeof(line) - len, " filling %.0f%%",
					total ? 100.0 * (double)done / (double)total : 0.0);
		else if (phase == 1)
			len += snprintf(line + len, sizeof(line) - len, " %.1f%% of %" PRIu64 " ops",
					total ? 100.0 * (double)done / (double)total : 0.0, total);
		else
			len += snprintf(line + len, sizeof(line) - len, finished ? " done" :
					" waiting");
	}
	fprintf(stderr, "%s\033[K", line);
	fflush(stderr);
}

/*
 * The variants run in threads, as many at once as there are CPUs (a simulation is
 * single-threaded and memory-bound); the main thread draws a progress line on a
 * terminal every half second (not with ZF2FS_NO_PROGRESS set, nor when stderr is no tty).
 */
static void run_all(struct variant *vs, unsigned n)
{
	struct pool p = { .vs = vs, .n = n };
	pthread_t th[MAX_VARIANTS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned nt = cpus > 0 && (unsigned long)cpus < n ? (unsigned)cpus : n, started = 0;
	bool progress = isatty(2) && !getenv("ZF2FS_NO_PROGRESS");
	struct timespec t0, t;

	pthread_mutex_init(&p.lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned i = 0; i < nt; i++)
		if (!pthread_create(&th[started], NULL, worker, &p))
			started++;
	if (!started)           /* no thread: run them here */
		worker(&p);
	while (started) {
		bool all = true;
		struct timespec d = { 0, 500000000 };

		nanosleep(&d, NULL);
		pthread_mutex_lock(&p.lock);
		all = p.next == p.n;
		pthread_mutex_unlock(&p.lock);
		for (unsigned i = 0; all && i < n; i++) {
			pthread_mutex_lock(&vs[i].lock);
			all = vs[i].finished;
			pthread_mutex_unlock(&vs[i].lock);
		}
		if (all)
			break;
		for (unsigned i = 0; i < n; i++) {
			struct zf2fs_gc_sim_stats fill;
			uint64_t done, total;
			bool look = false;

			pthread_mutex_lock(&vs[i].lock);
			if (vs[i].sim && !vs[i].warned &&
			    zf2fs_gc_sim_progress(vs[i].sim, &done, &total) >= 1) {
				zf2fs_gc_sim_stats(vs[i].sim, 0, &fill);
				look = true;
			}
			pthread_mutex_unlock(&vs[i].lock);
			if (look)
				warn_past_reserve(&vs[i], &fill);
		}
		if (!progress)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &t);
		show_progress(vs, n, (double)(t.tv_sec - t0.tv_sec) +
			      (double)(t.tv_nsec - t0.tv_nsec) / 1e9);
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	if (progress && started)
		fprintf(stderr, "\r\033[K");
	pthread_mutex_destroy(&p.lock);
}

int gc_simulate_main(int argc, char **argv)
{
	static struct sim_cli c;
	struct variant *vs;
	unsigned n;
	int rc = 0;

	memset(&c, 0, sizeof(c));
	parse_cli(&c, argc, argv);
	n = c.cmp_key ? c.ncmp : 1;
	vs = calloc(n, sizeof(*vs));
	if (!vs) {
		fprintf(stderr, PROG ": ERROR: %s: while starting\n", strerror(ENOMEM));
		return 8;
	}
	for (unsigned i = 0; i < n; i++) {
		struct sim_cli *ci = &vs[i].cli;

		*ci = c;
		pthread_mutex_init(&vs[i].lock, NULL);
		if (c.cmp_key) {
			apply(ci, c.cmp_key, c.cmp_vals[i]);
			snprintf(vs[i].label, sizeof(vs[i].label), "%s", c.cmp_vals[i]);
			/* the first variant's overprovision, from its layout (computed here, the
			 * simulations run side by side) */
			if (c.equal_op && i == 0 && !c.image &&
			    !compute_layout(ci, &ci->lo, &vs[0].lay, NULL, 0))
				vs[0].have_lay = true;
			if (c.equal_op && i > 0 && vs[0].have_lay) {
				ci->lo.overprovision = op_for(ci, ci->lo.reserved_sections,
							      vs[0].lay.ovp_segments);
			}
		} else {
			snprintf(vs[i].label, sizeof(vs[i].label), "run");
		}
	}
	run_all(vs, n);
	for (unsigned i = 0; i < n; i++) {
		if (vs[i].rc) {
			if (!vs[i].run.ops && !vs[i].fill.ops) {
				fprintf(stderr, PROG ": ERROR: %s%s%s\n", c.cmp_key ? vs[i].label : "",
					c.cmp_key ? ": " : "", vs[i].error);
				rc = 8;
			} else {
				rc = rc ? rc : 1;
			}
		}
	}
	/* nothing ran (every variant failed to set up, said above): no empty report */
	if (rc == 8 && !c.cmp_key)
		goto out;
	if (!strcmp(c.format, "json"))
		print_json(&c, vs, n);
	else if (!strcmp(c.format, "csv"))
		print_csv(&c, vs, n);
	else
		print_text(&c, vs, n);
	if (c.series && write_series(c.series, vs, n))
		rc = 8;
	if (c.plot && plot(c.plot, vs, n))
		rc = 8;
out:
	for (unsigned i = 0; i < n; i++) {
		free(vs[i].samples);
		pthread_mutex_destroy(&vs[i].lock);
	}
	free(vs);
	return rc;
}
