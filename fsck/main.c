// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - fsck.f2fs: check an F2FS volume and repair it safely.
 *
 * The context, the list of passes and the exit code live here (the options in options.c,
 * the superblock tuning they may ask for in tune.c); the passes
 * (pass_*.c, named for what they check) find problems, problem.c decides what to do about them, repair.c writes.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "fsck.h"
#include "helper.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/chunkmap.h"
#include "zf2fs-internal/quota.h"
#include "zf2fs-internal/volume.h"
#include "ftinfo.h"
#include "simg_run.h"

#define PROG "fsck.f2fs"

/* Pass 4 counts the inodes it finds against the checkpoint's count. */
static uint64_t inodes_expected(const struct fsck_ctx *ctx)
{
	return zf2fs_get(ctx->cp->valid_inode_count);
}

/* One table for the passes: the banners, their numbers (the PP of the problem codes each
 * pass reports, 0xPPNNNN) and the order come from here.  Pass 5 (directories) runs inside
 * pass 4's walk, and pass 9 (quota) before 7 (accounting), whose counts it may change.
 * A number is part of every problem code the pass reports, which scripts and the fsck
 * corpus match, so numbers stay fixed while the order may change; the pass files are
 * named for what they check (pass_*.c), not numbered.  --progress-fd numbers the passes
 * by their place here (1 to 8: a front-end expects them in increasing order); a pass
 * without a @total reports its start and its end only. */
static const struct {
	const char *num;
	const char *name;
	int (*run)(struct fsck_ctx *ctx);
	uint64_t (*total)(const struct fsck_ctx *ctx);
} passes[] = {
	{ "1", "superblocks", pass1_super, NULL },
	{ "2", "checkpoint", pass2_checkpoint, NULL },
	{ "3", "SIT and NAT", pass3_tables, NULL },
	{ "4+5", "inodes, nodes and directories", pass4_tree, inodes_expected },
	{ "6", "connectivity and link counts", pass6_connectivity, NULL },
	{ "9", "quota", pass9_quota, NULL },
	{ "7", "accounting", pass7_accounting, NULL },
	{ "8", "zone write pointers", pass8_zoned, NULL },
};
#define NR_PASSES (sizeof(passes) / sizeof(passes[0]))

/* Maps by block: a sparse bitmap over the main area (chunks only where blocks are owned)
 * and a count per segment. */
static int alloc_maps(struct fsck_ctx *ctx)
{
	uint64_t blocks = ctx->vi->main_end - ctx->vi->main_blkaddr;
	int err = zf2fs_bmap_new(blocks, &ctx->blk_found);

	ctx->seg_found = calloc(ctx->vi->main_segs + 1, sizeof(uint16_t));
	ctx->seg_pages = calloc(((ctx->vi->main_segs + 1) >> SEG_PAGE_SHIFT) / 8 + 1, 1);
	ctx->quota_on = ctx->vi->features & ZF2FS_FEAT_QUOTA_INO;
	return !err && ctx->seg_found && ctx->seg_pages ? 0 : -ENOMEM;
}

/* Maps by nid: sized by the nids in use, not by what the NAT could hold, so memory follows
 * the number of files rather than the volume size. */
int fsck_alloc_nid_maps(struct fsck_ctx *ctx)
{
	uint32_t nids = ctx->nids;

	ctx->nid_flags = calloc(nids, 1);
	ctx->links = calloc(nids, 1);
	ctx->ftypes = calloc(nids, 1);
	if (!ctx->nid_flags || !ctx->links || !ctx->ftypes)
		return -ENOMEM;
	return 0;
}

static int grow_bytes(uint8_t **map, uint32_t from, uint32_t to)
{
	uint8_t *m = realloc(*map, to);

	if (!m)
		return -ENOMEM;
	memset(m + from, 0, to - from);
	*map = m;
	return 0;
}

int fsck_grow_nids(struct fsck_ctx *ctx, uint32_t n)
{
	uint32_t old = ctx->nids;

	if (n <= old)
		return 0;
	if (n > ctx->vi->max_nid)
		return -ENOSPC;
	if (n > ctx->nat_cap) {
		uint32_t *t = realloc(ctx->nat_addr, (size_t)n * sizeof(*t));

		if (!t)
			return -ENOMEM;
		memset(t + ctx->nat_cap, 0, (size_t)(n - ctx->nat_cap) * sizeof(*t));
		ctx->nat_addr = t;
		if (grow_bytes(&ctx->nat_ver, ctx->nat_cap, n))
			return -ENOMEM;
		ctx->nat_cap = n;
	}
	if (grow_bytes(&ctx->nid_flags, old, n) || grow_bytes(&ctx->links, old, n) ||
	    grow_bytes(&ctx->ftypes, old, n))
		return -ENOMEM;
	ctx->nids = n;
	return 0;
}

static void free_maps(struct fsck_ctx *ctx)
{
	free(ctx->nid_flags);
	free(ctx->links);
	free(ctx->ftypes);
	dir_map_free(ctx);
	links_free(ctx);
	zf2fs_bmap_free(ctx->blk_found);
	free(ctx->seg_found);
	free(ctx->seg_pages);
	ssa_cache_free(ctx);
	free(ctx->seg_kind);
	dentry_restore_free(ctx);
	free(ctx->orphans);
	free(ctx->pino_fix);
	free(ctx->rf_chain);
	free(ctx->rf_nids);
	free(ctx->sb_own);
	zf2fs_sit_table_free(ctx->sit);
	free(ctx->nat_addr);
	free(ctx->natx);
	free(ctx->nat_ver);
	free(ctx->xattr_node);
	dir_queue_free(&ctx->dirq);
	for (int q = 0; q < ZF2FS_MAX_QUOTAS; q++) {
		zf2fs_quota_usage_free(&ctx->quota_use[q]);
		free(ctx->quota_node[q]);
	}
}

struct tree_print {
	struct fsck_ctx *ctx;
	int depth;
	uint8_t *seen;   /* one bit per nid: directories already listed (cycles, hard links) */
};

static int print_entry(void *arg, const struct zf2fs_dentry_info *d)
{
	struct tree_print *tp = arg;
	struct zf2fs_node *n;
	char why[160];

	if ((d->name_len == 1 && d->name[0] == '.') ||
	    (d->name_len == 2 && d->name[0] == '.' && d->name[1] == '.'))
		return 0;
	fprintf(tp->ctx->out, "%*s%.*s%s\n", 2 * tp->depth, "", (int)d->name_len, d->name,
		d->type == ZF2FS_FT_DIR ? "/" : "");
	if (d->type != ZF2FS_FT_DIR || tp->depth > 64 || d->ino >= tp->ctx->vi->max_nid ||
	    zf2fs_lbit_test(tp->seen, d->ino))
		return 0;
	zf2fs_lbit_set(tp->seen, d->ino);
	n = malloc(ZF2FS_BLKSIZE_MAX);
	if (n && !zf2fs_vol_read_node(tp->ctx->vol, d->ino, n, NULL, why, sizeof(why))) {
		struct tree_print sub = { tp->ctx, tp->depth + 1, tp->seen };

		zf2fs_dir_iterate(tp->ctx->vol, n, print_entry, NULL, &sub);
	}
	free(n);
	return 0;
}

static void print_tree(struct fsck_ctx *ctx)
{
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
	struct tree_print tp = { ctx, 1, calloc(ctx->vi->max_nid / 8 + 1, 1) };
	char why[160];

	fprintf(ctx->out, "/\n");
	if (tp.seen && ZF2FS_ROOT_INO < ctx->vi->max_nid)
		zf2fs_lbit_set(tp.seen, ZF2FS_ROOT_INO);
	if (n && tp.seen && !zf2fs_vol_read_node(ctx->vol, ZF2FS_ROOT_INO, n, NULL, why, sizeof(why)))
		zf2fs_dir_iterate(ctx->vol, n, print_entry, NULL, &tp);
	free(tp.seen);
	free(n);
}

/* Is the block device @path mounted, and every mount of it read-only?  From
 * /proc/self/mountinfo (device numbers, then the mount options): false when that cannot
 * be told, for an image file, or when one mount is read-write. */
static bool mounted_read_only(const char *path)
{
	struct stat st;
	FILE *f;
	char line[4096];
	bool seen = false, rw = false;

	if (stat(path, &st) || !S_ISBLK(st.st_mode) || !(f = fopen("/proc/self/mountinfo", "r")))
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char opts[1024];

		/* id parent maj:min root mountpoint options ... */
		if (sscanf(line, "%*s %*s %u:%u %*s %*s %1023s", &maj, &min, opts) != 3 ||
		    maj != major(st.st_rdev) || min != minor(st.st_rdev))
			continue;
		seen = true;
		if (strncmp(opts, "ro", 2) || (opts[2] && opts[2] != ','))
			rw = true;
	}
	fclose(f);
	return seen && !rw;
}

/* e2fsck's line for a clean volume, from the checkpoint's counts: nothing else was read. */
static void print_clean(struct fsck_ctx *ctx, const char *path)
{
	const struct zf2fs_checkpoint *cp = ctx->cp;
	uint64_t inodes = zf2fs_get(cp->valid_inode_count), nodes = zf2fs_get(cp->valid_node_count);
	uint64_t blocks = zf2fs_get(cp->valid_block_count), user = zf2fs_get(cp->user_block_count);

	if (ctx->json) {
		printf("{\n  \"device\": \"%s\",\n  \"exit_code\": 0,\n  \"clean\": true,\n"
		       "  \"inodes\": %" PRIu64 ",\n  \"nodes\": %" PRIu64 ",\n"
		       "  \"blocks_in_use\": %" PRIu64 ",\n  \"user_blocks\": %" PRIu64 "\n}\n",
		       path, inodes, nodes, blocks, user);
		return;
	}
	fprintf(ctx->out, "%s: clean, %" PRIu64 " inodes, %" PRIu64 "/%" PRIu64 " blocks "
		"(unmounted cleanly; use -f to check anyway)\n", path, inodes, blocks, user);
}

/* One run on the volume at @path (named @shown in messages); returns the exit bits, and in
 * @wrote whether anything was written. */
static int check(const struct fsck_ctx *opts, const char *path, const char *shown, bool *wrote)
{
	struct fsck_ctx ctx = *opts;
	struct zf2fs_log log = { .level = 1 };

	*wrote = false;
	const char *fault = getenv("ZF2FS_FAULT_WRITES");
	/* tests: every read of the (first) device, "offset length" a line */
	const char *trace = getenv("ZF2FS_TRACE_READS");
	int trace_fd = -1;
	char *json_buf = NULL;
	size_t json_len = 0;
	int mounted, err = 0;
	bool writes;

	if (ctx.json)
		ctx.out = stderr;
	zs_progress_init(&ctx.prog, ctx.progress_fd, ctx.progress_bar, shown, NR_PASSES);
	log.level = ctx.debug ? ctx.debug : 1;
	if (ctx.prog.bar) {
		/* the library's messages (-d 3) in place of the bar, not under it */
		log.fn = zs_progress_log;
		log.arg = &ctx.prog;
	}
	/* the superblock tuning f2fs-tools does on request writes even when nothing is
	 * repaired (a plain "fsck.f2fs --nolinear-lookup=1 DEV") */
	writes = ctx.mode != MODE_NO || (fsck_tune_wanted(&ctx) && !ctx.no_writes);
	mounted = zf2fs_path_is_mounted(path);
	if (mounted > 0 && writes && !fsck_tune_wanted(&ctx) && mounted_read_only(path)) {
		/* systemd-fsck checks a root that the kernel mounted read-only (fsck -a [-f]);
		 * f2fs-tools then checks without repairing, and so do we (it repairs with -f;
		 * we never write under a mounted volume) */
		fprintf(stderr, PROG ": %s is mounted read-only: checking it without repairing\n",
			path);
		ctx.mode = MODE_NO;
		ctx.no_writes = true;
		writes = false;
	} else if (mounted > 0) {
		if (writes) {
			fprintf(stderr, PROG ": %s is mounted: refusing to repair it (use -n for a "
				"read-only check)\n", path);
			return FSCK_USAGE;
		}
		fprintf(stderr, PROG ": WARNING: %s is mounted: results may be inconsistent\n", path);
	}
	if (ctx.rebuild) {
		int bits = fsck_rebuild(&ctx, path, shown, &log);

		if (bits)
			return bits;
		*wrote = !ctx.no_writes;
	}
	/* device_alias is handled: pass 4 keeps every alias file's device its own */
	err = zf2fs_vol_open(&path, 1, (writes ? ZF2FS_DEV_WRITE | ZF2FS_VOL_DEVICE_ALIAS : 0) |
			     ZF2FS_VOL_BLOCK16K, &log, &ctx.vol);
	if (err == -ZF2FS_EUNWRITABLE) {
		/* bits this version does not know (the library named them): as e2fsck does,
		 * nothing is written; unlike it, the volume is still checked, read-only */
		if (fsck_tune_wanted(&ctx))
			return FSCK_ERROR;
		ctx.mode = MODE_NO;
		ctx.no_writes = true;
		writes = false;
		err = zf2fs_vol_open(&path, 1, ZF2FS_VOL_BLOCK16K, &log, &ctx.vol);
	}
	if (err) {
		if (err == -ZF2FS_EFSCORRUPTED) {
			fprintf(stderr, PROG ": %s: no usable superblock and checkpoint: cannot check "
				"it (--rebuild finds the files)\n", shown);
			return FSCK_UNCORRECTED;
		}
		fprintf(stderr, PROG ": %s: while opening %s\n", strerror(-err), shown);
		return FSCK_ERROR;
	}
	if (fault)
		zs_dev_fail_writes_after(zf2fs_vol_dev(ctx.vol, 0), strtoul(fault, NULL, 10));
	if (trace) {
		trace_fd = open(trace, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (trace_fd >= 0)
			zs_dev_trace_reads(zf2fs_vol_dev(ctx.vol, 0), trace_fd);
	}
	ctx.vi = zf2fs_vol_info(ctx.vol);
	ctx.sb = zf2fs_vol_super(ctx.vol);
	ctx.cp = zf2fs_vol_checkpoint(ctx.vol);
	ctx.g = zf2fs_vol_geom(ctx.vol);
	if (ctx.layout) {
		zs_ftinfo_layout(ctx.out, ctx.sb, ctx.cp);
		goto out;
	}
	if (ctx.file_map) {
		/* stdout carries the map alone; -a and -p skip a clean volume as without -M,
		 * printing nothing then, as f2fs-tools does */
		if (!ctx.skip_clean || !zf2fs_vol_clean(ctx.vol))
			ctx.exit_bits = fsck_file_map(&ctx, stdout);
		goto out;
	}
	/* f2fs-tools' line of the checkpoint's flags (support/ftinfo.c, shared with dump.f2fs),
	 * which GParted reads to decide to replay the log by a mount ("sudden-power-off") */
	zs_ftinfo_cp_lines(ctx.out, ctx.vol, 0);
	if (fsck_tune_wanted(&ctx)) {
		ctx.exit_bits = fsck_tune_super(&ctx);
		if (ctx.exit_bits)
			goto out;
	}
	/* The boot-time path: a volume unmounted cleanly is not checked, and nothing but the
	 * superblock and the checkpoint (read by the open) is read or allocated for it.
	 * f2fs-tools skips more: a volume not unmounted cleanly but not marked by the kernel
	 * (we check it; it may hold what the kernel never got to mark). */
	if (ctx.skip_clean && zf2fs_vol_clean(ctx.vol)) {
		fprintf(ctx.out, "Info: No error was reported\n");
		print_clean(&ctx, shown);
		goto out;
	}
	if (ctx.json)
		ctx.json_problems = open_memstream(&json_buf, &json_len);
	err = alloc_maps(&ctx);
	if (!err && ctx.mode != MODE_NO &&
	    (err = zf2fs_vol_load_sit_table(ctx.vol, &ctx.sit)) == 0) {
		err = repair_begin(&ctx);
		zf2fs_sit_table_free(ctx.sit);
		ctx.sit = NULL;
	}
	for (size_t i = 0; !err && !ctx.abort && i < NR_PASSES; i++) {
		if (ctx.debug >= 2) {
			zs_progress_clear(&ctx.prog);
			fprintf(ctx.out, "Pass %s: %s\n", passes[i].num, passes[i].name);
		}
		zs_progress_pass(&ctx.prog, (unsigned)i + 1, passes[i].name,
				 passes[i].total ? passes[i].total(&ctx) : 1);
		err = passes[i].run(&ctx);
		if (!err)
			zs_progress_end(&ctx.prog);
	}
	zs_progress_close(&ctx.prog);
	if (!err && ctx.show_tree)
		print_tree(&ctx);
	if (!err && !ctx.abort && ctx.mode != MODE_NO && repair_pending(&ctx)) {
		err = repair_commit(&ctx);
		if (!err && ctx.sb_errors_clear && ctx.unfixed) {
			/* damage remains: the records stay, and were not fixed */
			ctx.fixed--;
			ctx.unfixed++;
			ctx.sb_errors_clear = false;
		}
		if (!err && (ctx.sb_errors_clear || ctx.sb_add_features || ctx.sb_uuid_fix ||
			     ctx.sb_qf_clear || ctx.sb_qf_fix || ctx.sb_segcount_fix))
			err = super_update(&ctx, ctx.sb_errors_clear);
		if (err) {
			fprintf(stderr, PROG ": %s: while writing repairs: the volume is as it was "
				"before this run\n", strerror(-err));
			ctx.exit_bits &= ~FSCK_NONDESTRUCT;
			ctx.exit_bits |= FSCK_UNCORRECTED | (err == -EBUSY ? 0 : FSCK_ERROR);
			/* the summary counts only what reached the disk */
			ctx.unfixed += ctx.fixed;
			ctx.fixed = 0;
			err = 0;
		}
	}
	if (err) {
		fprintf(stderr, PROG ": %s: while checking %s\n", strerror(-err), shown);
		ctx.exit_bits |= FSCK_ERROR;
	}
	if (ctx.abort && ctx.mode == MODE_PREEN)
		ctx.exit_bits |= FSCK_UNCORRECTED;
	if (ctx.rebuild && !(ctx.exit_bits & FSCK_ERROR))
		ctx.exit_bits |= FSCK_NONDESTRUCT;   /* the rebuild changed the volume */
	if (!ctx.json)
		fprintf(ctx.out, "%s: %" PRIu64 " inodes (%" PRIu64 " directories), %" PRIu64
			" blocks in use; %lu problems, %lu fixed%s\n", shown, ctx.found_inodes, ctx.dirs,
			ctx.found_blocks, ctx.problems, ctx.fixed,
			(ctx.exit_bits & FSCK_UNCORRECTED) ? "; errors remain" : "");
	if (ctx.json) {
		fclose(ctx.json_problems);
		printf("{\n  \"device\": \"%s\",\n  \"exit_code\": %d,\n  \"inodes\": %" PRIu64
		       ",\n  \"directories\": %" PRIu64 ",\n  \"files\": %" PRIu64
		       ",\n  \"blocks_in_use\": %" PRIu64 ",\n  \"nodes\": %" PRIu64
		       ",\n  \"problems_found\": %lu,\n  \"problems_fixed\": %lu,\n  \"problems\": [%s\n  ]\n}\n",
		       shown, ctx.exit_bits, ctx.found_inodes, ctx.dirs, ctx.files, ctx.found_blocks,
		       ctx.found_nodes, ctx.problems, ctx.fixed, json_buf ? json_buf : "");
		free(json_buf);
	}
out:
	zs_progress_close(&ctx.prog);
	*wrote = *wrote || zs_dev_write_count(zf2fs_vol_dev(ctx.vol, 0)) > 0;
	repair_free(&ctx);
	free_maps(&ctx);
	zf2fs_vol_close(ctx.vol);
	if (trace_fd >= 0)
		close(trace_fd);
	return ctx.exit_bits;
}

/* -S: f2fs-tools' sparse mode, the volume an Android sparse image.  The check runs on a
 * raw copy (support/simg_run.c), packed back over the image only when the run wrote
 * something and left no error: otherwise the image stays as it was. */
struct sparse_job {
	const struct fsck_ctx *opts;
	const char *shown;
	int bits;
};

static int sparse_check(const char *raw, void *arg)
{
	struct sparse_job *j = arg;
	bool wrote = false;

	j->bits = check(j->opts, raw, j->shown, &wrote);
	return wrote && !(j->bits & (FSCK_UNCORRECTED | FSCK_ERROR)) ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct fsck_ctx opts = { .out = stdout, .json_first = true,
				 .curseg_fix = { -1, -1, -1, -1, -1, -1 } };
	const char *path = fsck_parse_args(&opts, argc, argv);
	struct sparse_job job = { &opts, path, -1 };
	bool wrote;

	if (!opts.sparse)
		return check(&opts, path, path, &wrote);
	if (zs_simg_run(PROG, path, sparse_check, &job) > 0 && job.bits >= 0 &&
	    !(job.bits & (FSCK_UNCORRECTED | FSCK_ERROR))) {
		/* the repaired copy could not be packed back: the image is as it was */
		job.bits &= ~FSCK_NONDESTRUCT;
		job.bits |= FSCK_UNCORRECTED | FSCK_ERROR;
	}
	return job.bits < 0 ? FSCK_ERROR : job.bits;
}
