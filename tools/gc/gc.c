// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gc.c - gc.f2fs: an F2FS volume's garbage-collection state, and the kernel's GC victim
 * selection replayed on it.
 *
 *   gc.f2fs state IMAGE [--json] [--reclaim K]... [--device PATH]... [--zone-capacity SIZE]
 *   gc.f2fs replay IMAGE [--gc-type fg|bg] [--policy greedy|cb|atgc] [--alloc lfs|ssr]
 *                        [--count N] [--max-search N] [--search SPEC] [--json] ...
 *   gc.f2fs collect IMAGE [-n SECTIONS | --until-free N] [--gc-type fg|bg] [--policy ...] ...
 *   gc.f2fs bench [--segments N] [--selections N] ...
 *
 * This front-end parses options, asks libzf2fs (include/zf2fs/gc.h) for the model and
 * the selections, and prints.  Exit status: 0 success, 1 replay found no victim before
 * --count steps when --strict, 8 operational error (unreadable or damaged image),
 * 16 usage error.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "zf2fs/zf2fs.h"
#include "helper.h"
#include "zf2fs/access.h"
#include "zf2fs/gc.h"
#include "zf2fs/geometry.h"
#include "gc_simulate.h"
#include "gc_zones.h"
#include "gc_bgthread.h"
#include "gc_collect.h"
#include "progress.h"

#define PROG "gc.f2fs"
#define EXIT_OK 0
#define EXIT_NOVICTIM 1
#define EXIT_OPERATIONAL 8
#define EXIT_USAGE 16
#define MAX_RECLAIM 16

struct gc_cli {
	const char *cmd, *image;
	bool json, strict;
	int verbose;
	uint32_t count;
	struct zf2fs_gc_params p;
	const char *search;
	const char *devices[ZF2FS_MAX_DEVICES];   /* [0]: the image; then --device */
	unsigned ndevices;
	uint32_t zone_cap_blocks;                 /* --zone-capacity in 4 KiB; 0: ask the devices */
	bool have_last_victim;
	uint32_t last_victim;
	uint32_t reclaim[MAX_RECLAIM];
	unsigned nreclaim;
	/* bench */
	uint32_t segments, selections, sps;
	uint64_t seed;
	bool bench_scan_only, bench_index_only;
	/* collect */
	uint32_t until_free;
	uint64_t batch_blocks;
	bool dry_run, count_given;
	bool progress_bar;            /* --progress */
	int progress_fd;              /* --progress-fd; -1: none */
	/* replay --step-clock */
	uint32_t *step_clock;
	uint32_t step_clock_n;
	uint8_t *step_type;        /* replay --step-types */
	enum zf2fs_gc_kernel kernel;  /* --kernel */
	struct gc_knobs knobs;        /* --knob */
};

static const char usage_text[] =
"Usage: " PROG " state IMAGE [--json] [--reclaim K]...\n"
"       " PROG " replay IMAGE [OPTIONS]\n"
"       " PROG " collect IMAGE [-n SECTIONS | --until-free N] [OPTIONS]\n"
"       " PROG " bench [--segments N] [--selections N] [OPTIONS]\n"
"       " PROG " simulate [IMAGE] [OPTIONS]   (" PROG " simulate --help)\n"
"\n"
"Commands:\n"
"  state             free/dirty/full/prefree sections, logs, histogram, thresholds\n"
"  replay            the kernel's GC victims, step by step, each step applied\n"
"  collect           move the valid blocks of replay's victims and write\n"
"                    a checkpoint: the victims become free (unmounted volumes only)\n"
"  bench             index vs reference scan on a random volume (no image);\n"
"                    fg steps move the victims' blocks (untimed), bg steps mark them\n"
"\n"
"Options:\n"
"  --json                  print one JSON object\n"
"  --device PATH           the volume's next device (repeatable, in the superblock's\n"
"                          order; default: the paths the superblock records)\n"
"  --zone-capacity SIZE    zoned volume: usable bytes per zone (K/M/G suffixes);\n"
"                          default: from the zone report of the devices, or the zone\n"
"                          size (with a warning) on an image file\n"
"  --kernel 6.1|7.3        the GC of that kernel (default 7.3, the newest): state's\n"
"                          background thread, the victims of replay and collect\n"
"  --knob NAME=VALUE       replay, collect: a sysfs knob of the mount as set\n"
"                          (repeatable): migration_granularity,\n"
"                          migration_window_granularity, gc_boost_zoned_gc_percent,\n"
"                          gc_boost_gc_multiple (default: the kernel's)\n"
"  --reclaim K             state: blocks greedy GC moves to reclaim K sections\n"
"                          (repeatable; default 1, 10, 100)\n"
"  --gc-type fg|bg         replay, collect: foreground (ioctl 1) or background\n"
"                          (ioctl 0) calls (default fg)\n"
"  --policy greedy|cb|atgc replay: victim policy (default: fg greedy, bg cb)\n"
"  --alloc lfs|ssr         replay: GC victim (lfs) or SSR segment reuse (ssr)\n"
"  --ssr-type LOG          replay --alloc ssr: log type 0..5 (default 2, cold data)\n"
"  -n, --count N           replay: number of steps; collect: sections (default 1)\n"
"  --until-free N          collect: victims until N sections are free (replay's count)\n"
"  --dry-run               collect: print the victims, change nothing\n"
"  --batch-blocks N        collect: blocks moved per checkpoint (default 128 MiB\n"
"                          of them: 32768 or 8192)\n"
"  --progress              collect: a completion bar on standard error, when it is\n"
"                          a terminal\n"
"  --progress-fd FD        collect: lines \"PASS CURRENT TOTAL DEVICE\" on file\n"
"                          descriptor FD for a front-end (as e2fsck -C FD writes them)\n"
"  --max-search N          sysfs max_victim_search (default 4096)\n"
"  --search SPEC           kernel (default), fixed:N, all, proportional\n"
"  --engine index|scan     selection engine (default index; same answers)\n"
"  --now SECONDS           fs clock for GC writes (default: checkpoint elapsed time)\n"
"  --step-clock S1,S2,...  replay: the kernel's clock per step, in seconds after the\n"
"                          mount: before step K its newest write was at SK, step K\n"
"                          writes at SK+1 (the last value holds); from a trace\n"
"  --step-types bf...      replay: background (b) or foreground (f) per step, as a\n"
"                          trace shows the kernel's switch (the last value holds)\n"
"  --last-victim SEGNO     start cursor of the policy (default 0, as after mount)\n"
"  --no-fg-shortcut        fg: do not take sections marked by bg first\n"
"  --strict                replay: exit 1 when fewer than N victims were found\n"
"  --segments N            bench: volume size in segments (default 1048576)\n"
"  --selections N          bench: selections to time (default 100000)\n"
"  --segs-per-sec N        bench: segments per section (default 1)\n"
"  --seed N                bench: random seed (default 1)\n"
"  --only index|scan       bench: time one engine only\n"
"  -v, --verbose           more detail\n"
"  -h, --help              this help\n"
"  -V, --version           version\n";

#define die_usage(...) zs_usage_error(PROG, __VA_ARGS__)

#define parse_u64(s, what, min, max) zs_parse_u64(PROG, s, what, min, max)

enum {
	OPT_JSON = 256, OPT_RECLAIM, OPT_GC_TYPE, OPT_POLICY, OPT_ALLOC, OPT_SSR_TYPE,
	OPT_MAX_SEARCH, OPT_SEARCH, OPT_ENGINE, OPT_NOW, OPT_LAST_VICTIM, OPT_NO_SHORTCUT,
	OPT_STRICT, OPT_DEVICE, OPT_ZONE_CAP, OPT_SEGMENTS, OPT_SELECTIONS, OPT_SPS, OPT_SEED, OPT_ONLY,
	OPT_UNTIL_FREE, OPT_DRY_RUN, OPT_BATCH, OPT_STEP_CLOCK, OPT_STEP_TYPES, OPT_KERNEL,
	OPT_KNOB, OPT_PROGRESS, OPT_PROGRESS_FD,
};

/* --step-types: one letter per step, b or f */
static void parse_step_types(struct gc_cli *c, const char *arg)
{
	size_t n = strlen(arg);

	if (!n || n > (1u << 20) || strspn(arg, "bf") != n)
		die_usage("--step-types: '%s' is not a string of b (background) and f "
			  "(foreground), one per step", arg);
	free(c->step_type);
	c->step_type = malloc(n);
	if (!c->step_type) {
		fprintf(stderr, PROG ": out of memory\n");
		exit(EXIT_OPERATIONAL);
	}
	for (size_t i = 0; i < n; i++)
		c->step_type[i] = arg[i] == 'b' ? ZF2FS_GC_BG : ZF2FS_GC_FG;
	c->p.step_type = c->step_type;
	c->p.step_type_n = (uint32_t)n;
}

/* --step-clock: comma-separated seconds, at most one per step a replay can make */
static void parse_step_clock(struct gc_cli *c, const char *arg)
{
	const char *s = arg;
	uint32_t n = 1;

	for (const char *q = arg; *q; q++)
		n += *q == ',';
	if (n > (1u << 20))
		die_usage("--step-clock: more than %u values", 1u << 20);
	free(c->step_clock);
	c->step_clock = calloc(n, sizeof(*c->step_clock));
	if (!c->step_clock) {
		fprintf(stderr, PROG ": out of memory\n");
		exit(EXIT_OPERATIONAL);
	}
	for (uint32_t i = 0; i < n; i++) {
		char *end;
		unsigned long v;

		errno = 0;
		v = *s >= '0' && *s <= '9' ? strtoul(s, &end, 10) : (end = (char *)s, 0);
		if (end == s || errno || v > UINT32_MAX || (*end != ',' && *end != '\0'))
			die_usage("--step-clock: '%s' is not a list of seconds (S1,S2,...)", arg);
		c->step_clock[i] = (uint32_t)v;
		s = end + 1;
	}
	c->step_clock_n = n;
	c->p.step_clock = c->step_clock;
	c->p.step_clock_n = n;
}

static void parse_search(struct gc_cli *c, const char *s)
{
	if (!strcmp(s, "kernel")) {
		c->p.window = ZF2FS_GC_WIN_KERNEL;
	} else if (!strcmp(s, "all")) {
		c->p.window = ZF2FS_GC_WIN_ALL;
	} else if (!strcmp(s, "proportional")) {
		c->p.window = ZF2FS_GC_WIN_PROPORTIONAL;
	} else if (!strncmp(s, "fixed:", 6)) {
		c->p.window = ZF2FS_GC_WIN_FIXED;
		c->p.window_n = (uint32_t)parse_u64(s + 6, "search window", 1, UINT32_MAX);
	} else {
		die_usage("invalid search window '%s' (kernel, fixed:N, all, proportional)", s);
	}
}

/* SIZE in bytes, with an optional K, M or G (binary) suffix: a whole number of 4 KiB
 * blocks, at least one. */
static uint32_t parse_zone_cap(const char *s)
{
	char *end;
	unsigned long long v, mul = 1;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		die_usage("invalid zone capacity '%s'", s);
	switch (*end) {
	case 'k': case 'K': mul = 1ull << 10; end++; break;
	case 'm': case 'M': mul = 1ull << 20; end++; break;
	case 'g': case 'G': mul = 1ull << 30; end++; break;
	default: break;
	}
	if (*end || v > (1ull << 42) / mul || !v || v * mul % ZF2FS_BLKSIZE ||
	    v * mul / ZF2FS_BLKSIZE > UINT32_MAX)
		die_usage("invalid zone capacity '%s' (bytes, a multiple of 4 KiB; K, M, G)", s);
	return (uint32_t)(v * mul / ZF2FS_BLKSIZE);
}

static void parse_args(struct gc_cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "kernel", required_argument, NULL, OPT_KERNEL },
		{ "knob", required_argument, NULL, OPT_KNOB },
		{ "reclaim", required_argument, NULL, OPT_RECLAIM },
		{ "gc-type", required_argument, NULL, OPT_GC_TYPE },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "alloc", required_argument, NULL, OPT_ALLOC },
		{ "ssr-type", required_argument, NULL, OPT_SSR_TYPE },
		{ "count", required_argument, NULL, 'n' },
		{ "max-search", required_argument, NULL, OPT_MAX_SEARCH },
		{ "search", required_argument, NULL, OPT_SEARCH },
		{ "engine", required_argument, NULL, OPT_ENGINE },
		{ "now", required_argument, NULL, OPT_NOW },
		{ "step-clock", required_argument, NULL, OPT_STEP_CLOCK },
		{ "step-types", required_argument, NULL, OPT_STEP_TYPES },
		{ "last-victim", required_argument, NULL, OPT_LAST_VICTIM },
		{ "no-fg-shortcut", no_argument, NULL, OPT_NO_SHORTCUT },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "zone-capacity", required_argument, NULL, OPT_ZONE_CAP },
		{ "segments", required_argument, NULL, OPT_SEGMENTS },
		{ "selections", required_argument, NULL, OPT_SELECTIONS },
		{ "segs-per-sec", required_argument, NULL, OPT_SPS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "until-free", required_argument, NULL, OPT_UNTIL_FREE },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "batch-blocks", required_argument, NULL, OPT_BATCH },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "progress-fd", required_argument, NULL, OPT_PROGRESS_FD },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *gc_type = NULL;
	int opt;

	zf2fs_gc_params_init(&c->p, ZF2FS_GC_FG);
	c->count = 1;
	c->progress_fd = -1;
	c->segments = 1048576;
	c->selections = 100000;
	c->sps = 1;
	c->seed = 1;
	while ((opt = getopt_long(argc, argv, "hn:vV", opts, NULL)) != -1) {
		switch (opt) {
		case OPT_JSON: c->json = true; break;
		case OPT_KERNEL:
			if (gc_kernel_parse(optarg, &c->kernel))
				die_usage("unknown kernel '%s' (6.1 or 7.3)", optarg);
			break;
		case OPT_KNOB:
			if (gc_knob_parse(PROG, optarg, &c->knobs))
				exit(EXIT_USAGE);
			break;
		case OPT_RECLAIM:
			if (c->nreclaim == MAX_RECLAIM)
				die_usage("at most %d --reclaim values", MAX_RECLAIM);
			c->reclaim[c->nreclaim++] = (uint32_t)parse_u64(optarg, "section count", 1,
									UINT32_MAX);
			break;
		case OPT_GC_TYPE:
			if (strcmp(optarg, "fg") && strcmp(optarg, "bg"))
				die_usage("invalid gc type '%s' (fg or bg)", optarg);
			gc_type = optarg;
			break;
		case OPT_POLICY:
			if (!strcmp(optarg, "greedy"))
				c->p.policy = ZF2FS_GC_GREEDY;
			else if (!strcmp(optarg, "cb"))
				c->p.policy = ZF2FS_GC_CB;
			else if (!strcmp(optarg, "atgc"))
				c->p.policy = ZF2FS_GC_AT;
			else
				die_usage("invalid policy '%s' (greedy, cb or atgc)", optarg);
			break;
		case OPT_ALLOC:
			if (!strcmp(optarg, "lfs"))
				c->p.alloc = ZF2FS_GC_LFS;
			else if (!strcmp(optarg, "ssr"))
				c->p.alloc = ZF2FS_GC_SSR;
			else
				die_usage("invalid allocation mode '%s' (lfs or ssr)", optarg);
			break;
		case OPT_SSR_TYPE: c->p.ssr_type = (int)parse_u64(optarg, "log type", 0, 5); break;
		case 'n':
			c->count = (uint32_t)parse_u64(optarg, "count", 1, UINT32_MAX);
			c->count_given = true;
			break;
		case OPT_UNTIL_FREE:
			c->until_free = (uint32_t)parse_u64(optarg, "section count", 1, UINT32_MAX);
			break;
		case OPT_DRY_RUN: c->dry_run = true; break;
		case OPT_PROGRESS: c->progress_bar = true; break;
		case OPT_PROGRESS_FD: c->progress_fd = zs_progress_fd_arg(PROG, optarg); break;
		case OPT_BATCH:
			c->batch_blocks = parse_u64(optarg, "block count", 1, UINT32_MAX);
			break;
		case OPT_MAX_SEARCH:
			c->p.max_search = (uint32_t)parse_u64(optarg, "max search", 0, UINT32_MAX);
			break;
		case OPT_SEARCH: c->search = optarg; parse_search(c, optarg); break;
		case OPT_ENGINE:
			if (!strcmp(optarg, "index"))
				c->p.engine = ZF2FS_GC_ENGINE_INDEX;
			else if (!strcmp(optarg, "scan"))
				c->p.engine = ZF2FS_GC_ENGINE_SCAN;
			else
				die_usage("invalid engine '%s' (index or scan)", optarg);
			break;
		case OPT_NOW: c->p.now = parse_u64(optarg, "time", 1, UINT64_MAX / 256); break;
		case OPT_STEP_CLOCK: parse_step_clock(c, optarg); break;
		case OPT_STEP_TYPES: parse_step_types(c, optarg); break;
		case OPT_LAST_VICTIM:
			c->last_victim = (uint32_t)parse_u64(optarg, "segment number", 0, UINT32_MAX);
			c->have_last_victim = true;
			break;
		case OPT_NO_SHORTCUT: c->p.fg_shortcut = false; break;
		case OPT_STRICT: c->strict = true; break;
		case OPT_DEVICE:
			if (c->ndevices + 1 >= ZF2FS_MAX_DEVICES)
				die_usage("at most %d --device options", ZF2FS_MAX_DEVICES - 1);
			c->devices[1 + c->ndevices++] = optarg;
			break;
		case OPT_ZONE_CAP: c->zone_cap_blocks = parse_zone_cap(optarg); break;
		case OPT_SEGMENTS:
			c->segments = (uint32_t)parse_u64(optarg, "segment count", 64, 1u << 28);
			break;
		case OPT_SELECTIONS:
			c->selections = (uint32_t)parse_u64(optarg, "selection count", 1, UINT32_MAX);
			break;
		case OPT_SPS: c->sps = (uint32_t)parse_u64(optarg, "segments per section", 1, 512); break;
		case OPT_SEED: c->seed = parse_u64(optarg, "seed", 0, UINT64_MAX); break;
		case OPT_ONLY:
			if (!strcmp(optarg, "index"))
				c->bench_index_only = true;
			else if (!strcmp(optarg, "scan"))
				c->bench_scan_only = true;
			else
				die_usage("invalid engine '%s' (index or scan)", optarg);
			break;
		case 'v': c->verbose++; break;
		case 'h': fputs(usage_text, stdout); exit(EXIT_OK);
		case 'V':
			exit(zs_print_version(stdout, PROG) ? EXIT_OPERATIONAL : EXIT_OK);
		default:
			fprintf(stderr, "Try '" PROG " --help' for more information.\n");
			exit(EXIT_USAGE);
		}
	}
	if (optind >= argc)
		die_usage("no command given");
	c->cmd = argv[optind++];
	if (!gc_type)
		gc_type = "fg";
	c->p.gc_type = !strcmp(gc_type, "bg") ? ZF2FS_GC_BG : ZF2FS_GC_FG;
	if (strcmp(c->cmd, "state") && strcmp(c->cmd, "replay") && strcmp(c->cmd, "bench") &&
	    strcmp(c->cmd, "collect"))
		die_usage("unknown command '%s'", c->cmd);
	if (strcmp(c->cmd, "bench")) {
		if (optind >= argc)
			die_usage("%s: no image given", c->cmd);
		c->image = argv[optind++];
		c->devices[0] = c->image;
	} else if (c->ndevices || c->zone_cap_blocks) {
		die_usage("bench: --device and --zone-capacity need an image");
	}
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	if (!c->nreclaim) {
		c->reclaim[0] = 1;
		c->reclaim[1] = 10;
		c->reclaim[2] = 100;
		c->nreclaim = 3;
	}
	if (!strcmp(c->cmd, "collect")) {
		if (c->until_free && c->count_given)
			die_usage("collect: -n and --until-free exclude each other");
		if (c->p.alloc != ZF2FS_GC_LFS)
			die_usage("collect: only LFS garbage collection moves blocks (--alloc ssr "
				  "is replay's)");
	} else if (c->until_free || c->dry_run || c->batch_blocks || c->progress_bar ||
		   c->progress_fd >= 0) {
		die_usage("--until-free, --dry-run, --batch-blocks, --progress and --progress-fd "
			  "are collect's options");
	}
	if ((c->step_clock || c->step_type) && strcmp(c->cmd, "replay"))
		die_usage("--step-clock and --step-types are replay's (they follow a traced "
			  "kernel run)");
	if (c->step_type && c->p.gc_type != ZF2FS_GC_BG)
		die_usage("--step-types needs --gc-type bg (only a background call switches)");
	if (c->step_clock && c->p.now)
		die_usage("--now and --step-clock exclude each other");
	if (c->p.alloc == ZF2FS_GC_SSR && c->p.policy != ZF2FS_GC_POLICY_DEFAULT &&
	    c->p.policy != ZF2FS_GC_GREEDY)
		die_usage("--alloc ssr always uses the greedy policy");
}

/* ---- opening ---------------------------------------------------------------------- */
/* The library's last error is kept so that a failure prints as one line. */
void log_keep(void *arg, enum zf2fs_msg_kind kind, const char *msg)
{
	struct last_error *le = arg;

	if (kind == ZF2FS_MSG_ERROR)
		snprintf(le->msg, sizeof(le->msg), "%s", msg);
	else if (kind == ZF2FS_MSG_WARNING)
		fprintf(stderr, PROG ": WARNING: %s\n", msg);
}

void print_error(const struct last_error *le, int err, const char *doing,
			const char *image)
{
	if (le->msg[0])
		fprintf(stderr, PROG ": ERROR: %s\n", le->msg);   /* names the object already */
	else
		fprintf(stderr, PROG ": ERROR: %s: while %s %s\n",
			err == -ZF2FS_EFSCORRUPTED ? "corrupt file system" : strerror(-err), doing,
			image);
}

/* --zone-capacity is read in 4 KiB units, before the volume says its block size */
int gc_zone_cap(const struct zf2fs_vol *vol, uint32_t cap4k, uint32_t *ret,
		struct last_error *le)
{
	uint32_t per = zf2fs_vol_geom(vol)->blocksize / ZF2FS_BLKSIZE;

	*ret = cap4k / per;
	if (cap4k % per) {
		snprintf(le->msg, sizeof(le->msg), "zone capacity of %u KiB is not a whole number "
			 "of the volume's %u KiB blocks", cap4k * 4,
			 zf2fs_vol_geom(vol)->blocksize / 1024);
		return -EINVAL;
	}
	return 0;
}

static int open_model(const struct gc_cli *c, struct zf2fs_vol **ret_vol,
		      struct zf2fs_gc_model **ret_m, double *ret_secs)
{
	struct last_error le = { .msg = "" };
	struct zf2fs_log log = { .level = c->verbose, .fn = log_keep, .arg = &le };
	struct timespec t0, t1;
	int err;

	uint32_t cap;

	err = zf2fs_vol_open(c->devices, 1 + c->ndevices, ZF2FS_VOL_BLOCK16K, &log, ret_vol);
	if (err) {
		print_error(&le, err, "opening", c->image);
		return err;
	}
	err = gc_zone_cap(*ret_vol, c->zone_cap_blocks, &cap, &le);
	if (err) {
		print_error(&le, err, "opening", c->image);
		zf2fs_vol_close(*ret_vol);
		*ret_vol = NULL;
		return err;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = zf2fs_gc_model_load_cap(*ret_vol, &log, cap, ret_m);
	if (!err) {
		zf2fs_gc_model_set_kernel(*ret_m, c->kernel);
		err = gc_knobs_apply(&c->knobs, *ret_m, le.msg, sizeof(le.msg));
		if (err) {
			fprintf(stderr, PROG ": ERROR: %s\n", le.msg);
			zf2fs_gc_model_free(*ret_m);
			*ret_m = NULL;
			zf2fs_vol_close(*ret_vol);
			*ret_vol = NULL;
			return err;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (err) {
		print_error(&le, err, "reading the SIT of", c->image);
		zf2fs_vol_close(*ret_vol);
		*ret_vol = NULL;
		return err;
	}
	if (ret_secs)
		*ret_secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return 0;
}

/* ---- state ---------------------------------------------------------------------- */
static int cmd_state(const struct gc_cli *c)
{
	struct zf2fs_vol *vol;
	struct zf2fs_gc_model *m;
	struct zf2fs_gc_summary s;
	const struct zf2fs_vol_info *vi;
	uint64_t blocks[MAX_RECLAIM];
	uint32_t secs[MAX_RECLAIM];
	double load_secs = 0, sit_mb;
	uint64_t user_blocks, valid;
	bool zoned;
	int err;

	if (open_model(c, &vol, &m, &load_secs))
		return EXIT_OPERATIONAL;
	vi = zf2fs_vol_info(vol);
	zoned = vi->features & ZF2FS_FEAT_BLKZONED;
	zf2fs_gc_summarize(m, &s);
	user_blocks = zf2fs_get(zf2fs_vol_checkpoint(vol)->user_block_count);
	valid = zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_block_count);
	for (unsigned i = 0; i < c->nreclaim; i++) {
		err = zf2fs_gc_blocks_to_reclaim(m, c->reclaim[i], &blocks[i], &secs[i]);
		if (err) {
			fprintf(stderr, PROG ": %s: while sorting sections\n", strerror(-err));
			goto fail;
		}
	}
	sit_mb = (double)((uint64_t)zf2fs_geom_sit_blocks(zf2fs_vol_geom(vol), s.main_segs) *
			  zf2fs_vol_geom(vol)->blocksize) / 1e6;
	if (c->json) {
		printf("{\"image\": \"%s\", \"main_segments\": %u, \"main_sections\": %u, "
		       "\"segs_per_sec\": %u, \"blocks_per_seg\": %u, \"blocks_per_sec\": %u,\n",
		       c->image, s.main_segs, s.main_secs, s.segs_per_sec, s.blocks_per_seg,
		       s.blocks_per_sec);
		printf(" \"sections\": {\"free\": %u, \"dirty\": %u, \"full\": %u, \"prefree\": %u, "
		       "\"current\": %u},\n", s.free_secs, s.dirty_secs, s.full_secs,
		       s.prefree_secs, s.current_secs);
		printf(" \"segments\": {\"free\": %u, \"dirty\": %u, \"full\": %u, \"prefree\": %u},\n",
		       s.free_segs, s.dirty_segs, s.full_segs, s.prefree_segs);
		printf(" \"prefree_known\": false,\n");
		printf(" \"logs\": [");
		for (int i = 0; i < 6; i++)
			printf("%s{\"log\": \"%s\", \"segno\": %u, \"blkoff\": %u}", i ? ", " : "",
			       zf2fs_log_name(i), s.cur_segno[i], s.cur_blkoff[i]);
		printf("],\n \"dirty_histogram\": [");
		for (int i = 0; i < ZF2FS_GC_HIST_BUCKETS; i++)
			printf("%s{\"from_pct\": %d, \"to_pct\": %d, \"sections\": %u}", i ? ", " : "",
			       i * 10, i * 10 + 10, s.hist[i]);
		printf("],\n \"reserved_segments\": %u, \"reserved_sections\": %u, "
		       "\"overprov_segments\": %u, \"overprov_sections\": %u,\n",
		       s.rsvd_segments, s.reserved_secs, s.ovp_segments, s.ovp_secs);
		printf(" \"foreground_gc\": {\"free_sections\": %u, \"threshold\": %u, "
		       "\"distance\": %" PRId64 ", \"needed\": %s},\n", s.free_secs,
		       s.reserved_secs, s.fg_distance, s.fg_distance <= 0 ? "true" : "false");
		printf(" \"reclaim\": [");
		for (unsigned i = 0; i < c->nreclaim; i++)
			printf("%s{\"sections\": %u, \"available\": %u, \"blocks\": %" PRIu64 "}",
			       i ? ", " : "", c->reclaim[i], secs[i], blocks[i]);
		printf("],\n \"valid_blocks\": %" PRIu64 ", \"mtime\": {\"oldest\": %" PRIu64
		       ", \"newest\": %" PRIu64 ", \"elapsed_time\": %" PRIu64 "},\n",
		       s.valid_blocks, s.min_mtime, s.max_mtime, s.elapsed_time);
		printf(" \"zoned\": %s", zoned ? "true" : "false");
		gc_bgthread_state(stdout, true, c->kernel, zoned, &s, user_blocks, valid);
		if (zoned)
			printf(", \"zones\": {\"sections_per_zone\": %u, \"zones\": %u, "
			       "\"usable_blocks_per_zone\": %u}", vi->secs_per_zone,
			       s.main_secs / (vi->secs_per_zone ? vi->secs_per_zone : 1),
			       s.blocks_per_sec * vi->secs_per_zone);
		printf(",\n \"sit_read\": {\"bytes\": %" PRIu64 ", \"seconds\": %.6f, "
		       "\"mb_per_s\": %.1f}", (uint64_t)(sit_mb * 1e6), load_secs,
		       load_secs > 0 ? sit_mb / load_secs : 0.0);
		err = gc_zones_state(vol, true, stdout);
		printf("}\n");
		if (err)
			goto zones_fail;
	} else {
		printf("%s: %u sections of %u segments (%u blocks each), %u main segments\n",
		       c->image, s.main_secs, s.segs_per_sec, s.blocks_per_seg, s.main_segs);
		printf("sections: free %u, dirty %u, full %u, prefree %u, current %u\n",
		       s.free_secs, s.dirty_secs, s.full_secs, s.prefree_secs, s.current_secs);
		printf("segments: free %u, dirty %u, full %u, prefree %u\n", s.free_segs,
		       s.dirty_segs, s.full_segs, s.prefree_segs);
		printf("prefree: runtime state; none on an unmounted image after a clean checkpoint\n");
		for (int i = 0; i < 6; i++)
			printf("log %-9s segment %u, next block %u\n", zf2fs_log_name(i), s.cur_segno[i],
			       s.cur_blkoff[i]);
		printf("dirty sections by valid blocks:\n");
		for (int i = 0; i < ZF2FS_GC_HIST_BUCKETS; i++)
			printf("  %3d-%3d%%  %u\n", i * 10, i * 10 + 10, s.hist[i]);
		printf("reserved: %u segments (%u sections); overprovision: %u segments (%u sections)\n",
		       s.rsvd_segments, s.reserved_secs, s.ovp_segments, s.ovp_secs);
		printf("foreground GC: %u free sections, runs at %u or fewer: %s (distance %" PRId64 ")\n",
		       s.free_secs, s.reserved_secs, s.fg_distance <= 0 ? "needed now" : "not needed",
		       s.fg_distance);
		gc_bgthread_state(stdout, false, c->kernel, zoned, &s, user_blocks, valid);
		for (unsigned i = 0; i < c->nreclaim; i++)
			printf("reclaim %u sections with greedy: move %" PRIu64 " blocks%s\n",
			       c->reclaim[i], blocks[i], secs[i] < c->reclaim[i] ?
			       " (fewer dirty sections)" : "");
		printf("valid blocks %" PRIu64 "; segment mtime oldest %" PRIu64 ", newest %" PRIu64
		       ", file system age %" PRIu64 " s\n", s.valid_blocks, s.min_mtime, s.max_mtime,
		       s.elapsed_time);
		if (zoned)
			printf("zoned: %u zones of %u sections, %u usable blocks per zone\n",
			       s.main_secs / (vi->secs_per_zone ? vi->secs_per_zone : 1),
			       vi->secs_per_zone, s.blocks_per_sec * vi->secs_per_zone);
		err = gc_zones_state(vol, false, stdout);
		if (err)
			goto zones_fail;
		if (c->verbose)
			printf("SIT read: %.1f MB in %.3f s (%.1f MB/s)\n", sit_mb, load_secs,
			       load_secs > 0 ? sit_mb / load_secs : 0.0);
	}
	zf2fs_gc_model_free(m);
	zf2fs_vol_close(vol);
	return EXIT_OK;
zones_fail:
	fprintf(stderr, PROG ": %s: while reading the zones of %s\n", strerror(-err), c->image);
fail:
	zf2fs_gc_model_free(m);
	zf2fs_vol_close(vol);
	return EXIT_OPERATIONAL;
}

/* ---- replay --------------------------------------------------------------------- */
static void print_victim_text(uint32_t step, const struct zf2fs_gc_victim *v)
{
	printf("%5u %8u %7u %10u %6u %4u %2s %-6s %8u %8u %6u%s%s\n", step, v->segno, v->secno,
	       v->cost, v->valid_blocks, v->age, zf2fs_gc_type_name(v->gc_type),
	       v->alloc == ZF2FS_GC_SSR ? "ssr" : zf2fs_gc_policy_name(v->policy), v->searched,
	       v->last_victim, v->moved_blocks, v->from_bg_map ? " bg-marked" : "",
	       v->checkpointed ? " checkpoint" : "");
}

static void print_victim_json(uint32_t step, const struct zf2fs_gc_victim *v)
{
	printf("%s\n  {\"step\": %u, \"segno\": %u, \"secno\": %u, \"cost\": %u, "
	       "\"valid_blocks\": %u, \"age\": %u, \"mtime\": %" PRIu64 ", \"gc_type\": \"%s\", "
	       "\"policy\": \"%s\", \"alloc\": \"%s\", \"searched\": %u, \"max_search\": %u, "
	       "\"last_victim\": %u, \"moved_blocks\": %u, \"from_bg_map\": %s, "
	       "\"checkpoint\": %s}", step ? "," : "", step + 1, v->segno, v->secno, v->cost,
	       v->valid_blocks, v->age, v->mtime, zf2fs_gc_type_name(v->gc_type),
	       zf2fs_gc_policy_name(v->policy), v->alloc == ZF2FS_GC_SSR ? "ssr" : "lfs",
	       v->searched, v->max_search, v->last_victim, v->moved_blocks,
	       v->from_bg_map ? "true" : "false", v->checkpointed ? "true" : "false");
}

static int cmd_replay(struct gc_cli *c)
{
	struct zf2fs_vol *vol;
	struct zf2fs_gc_model *m;
	uint32_t n;
	int err = 0, rc = EXIT_OK;
	enum zf2fs_gc_policy pol = zf2fs_gc_policy_of(&c->p);

	if (open_model(c, &vol, &m, NULL))
		return EXIT_OPERATIONAL;
	if (c->have_last_victim)
		zf2fs_gc_model_set_last_victim(m, pol, c->last_victim);
	if (c->json)
		printf("{\"image\": \"%s\", \"gc_type\": \"%s\", \"policy\": \"%s\", "
		       "\"alloc\": \"%s\", \"victims\": [", c->image,
		       zf2fs_gc_type_name(c->p.gc_type), zf2fs_gc_policy_name(pol),
		       c->p.alloc == ZF2FS_GC_SSR ? "ssr" : "lfs");
	else
		printf(" step    segno   secno       cost  valid  age gc policy  searched"
		       "  last_vi  moved\n");
	for (n = 0; n < c->count;) {
		struct zf2fs_gc_victim v[64];
		unsigned got = 0;

		/* one ioctl call; several victims when a background call has to go on */
		err = zf2fs_gc_call(m, &c->p, v, 64, &got);
		for (unsigned i = 0; i < got && n < c->count; i++, n++) {
			if (c->json)
				print_victim_json(n, &v[i]);
			else
				print_victim_text(n + 1, &v[i]);
		}
		if (err)
			break;
	}
	if (err && err != -ENODATA) {
		if (c->json)
			printf("\n]}\n");
		fprintf(stderr, PROG ": %s: while replaying step %u on %s\n", strerror(-err), n + 1,
			c->image);
		rc = EXIT_OPERATIONAL;
	} else if (c->json) {
		printf("%s], \"steps\": %u, \"stopped\": %s}\n", n ? "\n" : "", n,
		       err ? "\"no victim\"" : "null");
	} else if (err) {
		printf("no victim at step %u\n", n + 1);
	}
	if (!rc && err == -ENODATA && c->strict)
		rc = EXIT_NOVICTIM;
	zf2fs_gc_model_free(m);
	zf2fs_vol_close(vol);
	return rc;
}

/* ---- bench ---------------------------------------------------------------------- */
static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int bench_model(const struct gc_cli *c, struct zf2fs_gc_model **ret)
{
	struct zf2fs_gc_geom g = { .segs_per_sec = c->sps, .log_blocks_per_seg = 9,
				   .rsvd_segments = 0, .ovp_segments = 0,
				   .elapsed_time = 1000000 };
	uint64_t s = c->seed * 2654435761u + 1;
	int err;

	g.main_secs = c->segments / c->sps;
	err = zf2fs_gc_model_new(&g, ret);
	if (err)
		return err;
	for (uint32_t sec = 0; sec < g.main_secs; sec++) {
		/* 10% free sections; in the others, per segment: 10% empty (sps > 1),
		 * 10% full, the rest with 64 distinct valid counts (many ties) */
		bool free_sec = xorshift(&s) % 10 == 0;

		for (uint32_t k = 0; k < c->sps; k++) {
			uint64_t r = xorshift(&s);
			uint32_t kind = (uint32_t)(r % 10), valid;

			if (free_sec || (kind == 0 && c->sps > 1))
				valid = 0;
			else if (kind <= 1)
				valid = 512;
			else
				valid = (uint32_t)(1 + (r >> 8) % 64 * 8);
			zf2fs_gc_model_set_segment(*ret, sec * c->sps + k, valid,
						   (uint32_t)((r >> 20) % 6), (r >> 32) % 1000000);
		}
	}
	for (int l = 0; l < 6; l++)
		zf2fs_gc_model_set_curseg(*ret, l, (uint32_t)l * c->sps, 0);
	return zf2fs_gc_model_ready(*ret);
}

static double bench_run(const struct gc_cli *c, enum zf2fs_gc_engine e, uint64_t *ret_sum,
			uint32_t *ret_found)
{
	struct zf2fs_gc_model *m;
	struct zf2fs_gc_params p = c->p;
	struct timespec t0, t1;
	uint64_t sum = 0;
	uint32_t found = 0;

	if (bench_model(c, &m)) {
		fprintf(stderr, PROG ": cannot build the bench model\n");
		exit(EXIT_OPERATIONAL);
	}
	double secs = 0;

	p.engine = e;
	for (uint32_t i = 0; i < c->selections; i++) {
		struct zf2fs_gc_victim v;
		int err;

		/* only the selection is timed; FG then moves the victim's blocks, and a
		 * checkpoint every 1000 steps returns prefree segments */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		err = zf2fs_gc_select(m, &p, &v);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		secs += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		if (err)
			continue;
		found++;
		sum = sum * 31 + v.segno * 7 + v.cost;
		if (p.gc_type == ZF2FS_GC_FG && zf2fs_gc_collect(m, &p, &v))
			break;
		if (p.gc_type == ZF2FS_GC_FG && i % 1000 == 999)
			zf2fs_gc_checkpoint(m);
	}
	zf2fs_gc_model_free(m);
	*ret_sum = sum;
	*ret_found = found;
	return secs;
}

static int cmd_bench(struct gc_cli *c)
{
	uint64_t si = 0, ss = 0;
	uint32_t fi = 0, fs = 0;
	double ti = 0, ts = 0;
	enum zf2fs_gc_policy pol = zf2fs_gc_policy_of(&c->p);

	if (!c->bench_scan_only)
		ti = bench_run(c, ZF2FS_GC_ENGINE_INDEX, &si, &fi);
	if (!c->bench_index_only)
		ts = bench_run(c, ZF2FS_GC_ENGINE_SCAN, &ss, &fs);
	printf("bench: %u segments, %u per section, %u %s selections, policy %s, window %s\n",
	       c->segments, c->sps, c->selections, zf2fs_gc_type_name(c->p.gc_type),
	       zf2fs_gc_policy_name(pol),
	       c->search ? c->search : "kernel");
	if (!c->bench_scan_only)
		printf("index: %.3f s, %.2f us per selection, %u victims\n", ti,
		       ti * 1e6 / c->selections, fi);
	if (!c->bench_index_only)
		printf("scan:  %.3f s, %.2f us per selection, %u victims\n", ts,
		       ts * 1e6 / c->selections, fs);
	if (!c->bench_scan_only && !c->bench_index_only) {
		printf("speedup: %.1fx; same victims: %s\n", ti > 0 ? ts / ti : 0.0,
		       si == ss && fi == fs ? "yes" : "NO");
		if (si != ss || fi != fs)
			return EXIT_OPERATIONAL;
	}
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct gc_cli c;

	memset(&c, 0, sizeof(c));
	c.kernel = GC_KERNEL_NEWEST;
	if (argc > 1 && !strcmp(argv[1], "simulate"))
		return gc_simulate_main(argc - 1, argv + 1);
	parse_args(&c, argc, argv);
	if (!strcmp(c.cmd, "state"))
		return cmd_state(&c);
	if (!strcmp(c.cmd, "replay")) {
		int rc = cmd_replay(&c);

		free(c.step_clock);
		free(c.step_type);
		return rc;
	}
	if (!strcmp(c.cmd, "collect")) {
		struct gc_collect_opts o = {
			.devices = c.devices, .ndevices = c.ndevices, .p = c.p,
			.sections = c.count, .until_free = c.until_free,
			.zone_cap_blocks = c.zone_cap_blocks,
			.batch_blocks = c.batch_blocks,   /* 0: gc_collect's default */
			.json = c.json, .dry_run = c.dry_run, .verbose = c.verbose,
			.kernel = c.kernel, .knobs = &c.knobs,
			.progress_bar = c.progress_bar, .progress_fd = c.progress_fd,
		};

		if (c.have_last_victim)
			die_usage("collect: --last-victim is replay's (a volume starts at 0)");
		return gc_collect_run(&o);
	}
	return cmd_bench(&c);
}
