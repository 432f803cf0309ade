// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * resize.c - resize.f2fs: grow or shrink an unmounted F2FS volume, with f2fs-tools'
 * interface:
 *
 *   resize.f2fs [-d level] [-t sectors] [-s] [-o percent] [-i] [-f] [-F] [-g android] [-H]
 *               device
 *
 * The work is the library's (include/zf2fs/resize.h): every step is a crash-safe write
 * and an interrupted resize is finished by running the same command again.  This file
 * parses the command line, checks what can be refused before the first write (mounted,
 * target past the device's end) and reports.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/geometry.h"
#include "helper.h"
#include "progress.h"
#include "zf2fs/resize.h"
#include "zf2fs-internal/move.h"

#define PROG "resize.f2fs"

struct opts {
	const char *dev;
	uint64_t target_sectors;
	bool have_target, safe, large_nat;
	double ovp;
	int level;
	bool progress_bar;      /* --progress */
	int progress_fd;        /* --progress-fd; -1: none */
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [options] device\n"
"Grow or shrink an unmounted F2FS volume to a target size (default: the device's size).\n"
"\n"
"  -t, --target SECTORS   new size in the device's logical sectors (512 bytes for\n"
"                         image files); on a multi-device volume, of the last device\n"
"  -s, --safe             never move the metadata areas: grow only as far as they\n"
"                         already cover, and keep them as large after a shrink\n"
"  -o, --overprovision P  overprovision percent for the new size (default: the rule\n"
"                         the volume was made with)\n"
"  -i, --large-nat-bitmap new metadata areas with the large NAT bitmap (a grow that\n"
"                         rebuilds them)\n"
"  -f                     accepted (f2fs-tools: force, ignore errors): the checks\n"
"                         that refuse a resize here guard the volume and stay\n"
"  -F                     accepted (f2fs-tools: no caution message): none is shown\n"
"  -g android             accepted (f2fs-tools' Android defaults: -F)\n"
"  -H                     accepted (f2fs-tools: write hints); none are given\n"
"  -d, --debug LEVEL      more messages (0-3; more counts as 3)\n"
"      --progress         a completion bar on standard error, when it is a terminal\n"
"      --progress-fd FD   lines \"PASS CURRENT TOTAL DEVICE\" on file descriptor FD\n"
"                         for a front-end (as e2fsck -C FD writes them): a pass\n"
"                         per run of sections emptied (or freed by compaction\n"
"                         before one), counting them\n"
"  -h, --help             this help\n"
"  -V, --version          version and build features\n"
"\n"
"Every step leaves a volume that mounts; run the same command again to finish an\n"
"interrupted resize.  Exit: 0 resized or nothing to do, 1 error, 16 usage.\n");
}

static int fail(const char *what, int err)
{
	fprintf(stderr, PROG ": %s%s%s\n", what, err ? ": " : "", err ? strerror(-err) : "");
	return 1;
}

/* The paths of every device of the volume (the superblock's list on a multi-device one),
 * after refusing a mounted one. */
static int device_paths(const struct opts *o, const struct zf2fs_log *log, char paths[][256],
			unsigned *ret_n, uint32_t *ret_blocksize)
{
	struct zf2fs_vol *vol;
	int err = zf2fs_path_is_mounted(o->dev);

	if (err > 0) {
		fprintf(stderr, PROG ": %s is mounted: unmount it first\n", o->dev);
		return -EBUSY;
	}
	err = zf2fs_vol_open(&o->dev, 1, ZF2FS_VOL_BLOCK16K, log, &vol);
	if (err) {
		fprintf(stderr, PROG ": %s: no F2FS volume to resize\n", o->dev);
		return err;
	}
	*ret_blocksize = zf2fs_vol_geom(vol)->blocksize;
	*ret_n = zf2fs_vol_ndevs(vol);
	for (unsigned i = 0; i < *ret_n; i++) {
		snprintf(paths[i], 256, "%s", i ? zf2fs_dev_path(zf2fs_vol_dev(vol, i)) : o->dev);
		if (i && zf2fs_path_is_mounted(paths[i]) > 0) {
			fprintf(stderr, PROG ": %s is mounted: unmount it first\n", paths[i]);
			err = -EBUSY;
		}
	}
	zf2fs_vol_close(vol);
	return err;
}

static void report(const struct zf2fs_resize_report *rep, uint64_t blocks)
{
	const struct zf2fs_resize_plan *p = &rep->plan;
	const char *kind = p->kind == ZF2FS_RESIZE_GROW ? "grown" :
			   p->kind == ZF2FS_RESIZE_SHRINK ? "shrunk" : NULL;
	bool fitted = rep->main_blkaddr_after < rep->main_blkaddr_before;

	if (kind) {
		printf("%s: %u -> %u main segments (%" PRIu64 " blocks of the last device)%s\n",
		       kind, p->old_main_segs, p->new_main_segs, blocks,
		       p->relocate ? ", metadata areas rebuilt" : "");
		printf("user blocks %" PRIu64 ", reserved segments %u, overprovision segments %u "
		       "(%s)\n", p->user_block_count, p->rsvd_segments, p->ovp_segments, p->note);
	} else if (!fitted) {
		printf("%s\n", p->counters_stale || p->free_stale ?
		       "the volume already had the target size: its space counts are now right" :
		       "nothing to do: the volume already has the target size");
	}
	if (fitted)
		printf("metadata areas fitted to the size: the main area starts at block %u, "
		       "not %u (%u segments more for files)\n", rep->main_blkaddr_after,
		       rep->main_blkaddr_before,
		       (rep->main_blkaddr_before - rep->main_blkaddr_after) / ZF2FS_BLOCKS_PER_SEG);
	if (rep->meta_note[0])
		printf("note: %s\n", rep->meta_note);
	if (kind || fitted) {
		printf("%" PRIu64 " blocks moved, %" PRIu64 " metadata blocks written, %u "
		       "checkpoints", rep->moved_blocks, rep->meta_blocks, rep->checkpoints);
		if (rep->zones_reset)
			printf(", %u zones of free sections reset", rep->zones_reset);
		printf("\n");
	}
}

/* --progress: a pass for each run of sections the resize empties (the library says when
 * one starts and after each checkpoint of it). */
struct resize_progress {
	struct zs_progress p;
	unsigned passes;
};

static void emptied(void *arg, uint32_t done, uint32_t total)
{
	struct resize_progress *rp = arg;

	if (!done)
		zs_progress_pass(&rp->p, ++rp->passes, "emptying sections", total);
	else
		zs_progress_set(&rp->p, done);
}

static int run(const struct opts *o, const struct zf2fs_log *log)
{
	char paths[ZF2FS_MAX_DEVICES][256];
	struct zf2fs_dev *devs[ZF2FS_MAX_DEVICES] = { 0 };
	struct zf2fs_resize_opts ro = {
		.safe = o->safe, .overprovision = o->ovp, .large_nat_bitmap = o->large_nat,
	};
	struct zf2fs_resize_report rep;
	struct resize_progress prog = { .passes = 0 };
	struct zf2fs_dev_geom g;
	const char *fault = getenv("ZF2FS_FAULT_WRITES");
	char why[256] = "";
	unsigned n = 0;
	uint32_t blocksize = ZF2FS_BLKSIZE;
	int err = device_paths(o, log, paths, &n, &blocksize), ret = 1;

	if (err)
		return 1;
	for (unsigned i = 0; i < n && !err; i++) {
		err = zf2fs_dev_open(paths[i], ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL, log, &devs[i]);
		if (err)
			fprintf(stderr, PROG ": cannot open %s: %s\n", paths[i], strerror(-err));
	}
	if (err)
		goto out;
	err = zf2fs_dev_geometry(devs[n - 1], &g);
	if (err) {
		ret = fail("cannot read the device's geometry", err);
		goto out;
	}
	if (o->have_target) {
		uint64_t bytes = o->target_sectors * g.sector_size;

		if (bytes > g.bytes) {
			fprintf(stderr, PROG ": target %" PRIu64 " sectors is past the end of %s "
				"(%" PRIu64 " sectors): grow the device or image first\n",
				o->target_sectors, paths[n - 1], g.bytes / g.sector_size);
			goto out;
		}
		ro.target_blocks = bytes / blocksize;
	} else {
		ro.target_blocks = g.bytes / blocksize;
	}
	if (fault)
		zs_dev_fail_writes_after(devs[0], strtoul(fault, NULL, 10));
	/* a pass per run of sections emptied; a resize that empties none is one pass,
	 * reported at its start and its end */
	zs_progress_init(&prog.p, o->progress_fd, o->progress_bar, o->dev, 1);
	err = zf2fs_resize_devs_progress(devs, n, ZF2FS_VOL_BLOCK16K, &ro, emptied, &prog, log,
					 &rep, why, sizeof(why));
	if (!err && !prog.passes)
		zs_progress_pass(&prog.p, 1, "resizing", 1);
	if (!err)
		zs_progress_end(&prog.p);
	zs_progress_close(&prog.p);
	zf2fs_logf(log, ZF2FS_MSG_INFO, 3, "%lu writes", zs_dev_write_count(devs[0]));
	if (err) {
		/* the library named the bits it does not write */
		if (err != -ZF2FS_EUNWRITABLE)
			fprintf(stderr, PROG ": %s\n", why[0] ? why : strerror(-err));
		goto out;
	}
	report(&rep, ro.target_blocks);
	ret = 0;
out:
	for (unsigned i = 0; i < n; i++)
		if (devs[i])
			zf2fs_dev_close(devs[i]);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "target", required_argument, NULL, 't' },
		{ "safe", no_argument, NULL, 's' },
		{ "overprovision", required_argument, NULL, 'o' },
		{ "large-nat-bitmap", no_argument, NULL, 'i' },
		{ "debug", required_argument, NULL, 'd' },
		{ "progress", no_argument, NULL, 1 },
		{ "progress-fd", required_argument, NULL, 2 },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .progress_fd = -1 };
	struct zf2fs_log log = { .level = 0, .fn = zs_cli_log, .arg = (void *)PROG };
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "t:so:id:fFg:HhV", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			o.target_sectors = zs_parse_u64(PROG, optarg, "target sectors", 1,
							UINT64_MAX / 4096);
			o.have_target = true;
			break;
		case 's':
			o.safe = true;
			break;
		case 'o':
			o.ovp = strtod(optarg, &end);
			if (*end || !(o.ovp > 0 && o.ovp < 100))
				zs_usage_error(PROG, "overprovision: a percent above 0 and below "
					       "100 expected, not %s", optarg);
			break;
		case 'i':
			o.large_nat = true;
			break;
		case 'd':
			o.level = (int)zs_parse_u64(PROG, optarg, "debug level", 0, INT32_MAX);
			if (o.level > 3)
				o.level = 3;
			break;
		case 'f':
		case 'F':
		case 'H':
			break;
		case 1:
			o.progress_bar = true;
			break;
		case 2:
			o.progress_fd = zs_progress_fd_arg(PROG, optarg);
			break;
		case 'g':
			if (strcmp(optarg, "android"))
				zs_usage_error(PROG, "-g: only \"android\" is known, not %s",
					       optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			return zs_print_version(stdout, PROG) ? 1 : 0;
		default:
			zs_usage_error(PROG, "unknown option or missing argument: %s",
				       argv[optind - 1]);
		}
	}
	if (optind >= argc)
		zs_usage_error(PROG, "no device given");
	if (argc - optind > 1)
		zs_usage_error(PROG, "too many arguments");
	if (o.safe && o.large_nat)
		zs_usage_error(PROG, "-i rebuilds the metadata areas, which -s forbids");
	o.dev = argv[optind];
	log.level = o.level;
	return run(&o, &log);
}
