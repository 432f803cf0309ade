// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gc_collect.c - gc.f2fs collect: on an unmounted volume, what `gc.f2fs replay` predicts
 * for foreground or background GC calls, done for real.  The victims come from replay's
 * engine (zf2fs_gc_call on the model of the image: the same victims in the same order;
 * background calls only mark theirs, whose blocks the kernel's writeback moves later, and
 * turn foreground when free sections run short, as the kernel's do), their
 * valid blocks are moved by the library's block mover (include/zf2fs/move.h) on one
 * transaction, and one checkpoint is written (one per batch when the moved blocks would
 * not fit the memory budget).  A section is collected whole, once: the later calls of
 * replay's list that continue it (Linux 7.3's background window, migration_granularity)
 * or take over one a background call marked are part of that.  A victim that holds a
 * current log on disk (the model
 * had moved that log on, the disk had not) is emptied too: the log moves to a fresh
 * section at the commit.
 */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "helper.h"
#include "zf2fs/access.h"
#include "zf2fs/gc.h"
#include "zf2fs/move.h"
#include "zf2fs/zoned.h"
#include "zf2fs/txn.h"
#include "gc_collect.h"
#include "progress.h"

#define PROG "gc.f2fs"
#define EXIT_OK 0
#define EXIT_NOVICTIM 1
#define EXIT_OPERATIONAL 8

static int fail(const struct last_error *le, int err, const char *doing, const char *image)
{
	print_error(le, err, doing, image);
	return EXIT_OPERATIONAL;
}

struct victim {
	struct zf2fs_gc_victim v;
	uint64_t data, nodes;           /* blocks the mover queued */
	bool freed;                     /* free in the new checkpoint */
};

struct run {
	const struct gc_collect_opts *o;
	struct last_error le;
	struct zf2fs_log log;
	struct victim *vs;
	uint32_t nv;
	const char *stop;               /* why the list ended early, or NULL */
	uint32_t free_before, free_after, checkpoints, zones_reset;
	uint32_t next, batch_first;     /* the next victim to queue, the batch's first */
	struct zf2fs_move_stats st;
	struct zs_progress prog;        /* one pass: the victims committed */
};

static int open_vol(struct run *r, int flags, struct zf2fs_vol **ret)
{
	r->le.msg[0] = 0;
	return zf2fs_vol_open(r->o->devices, 1 + r->o->ndevices, flags | ZF2FS_VOL_BLOCK16K,
			      &r->log, ret);
}

/* Free sections of the checkpoint in use: no valid block, no current log. */
static int free_sections(struct zf2fs_vol *vol, uint32_t *ret)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_sit_entry *sit;
	uint32_t cur[ZF2FS_NR_CURSEG], n = 0;
	int err = zf2fs_vol_load_sit(vol, &sit);

	if (err)
		return err;
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		uint32_t off;

		zf2fs_vol_curseg(vol, t, &cur[t], &off);
	}
	for (uint32_t sec = 0; sec < vi->main_secs; sec++) {
		bool used = false;

		for (uint32_t k = 0; k < vi->segs_per_sec && !used; k++) {
			uint32_t s = sec * vi->segs_per_sec + k;

			used = s >= vi->main_segs || zf2fs_sit_valid_blocks(&sit[s]);
			for (int t = 0; t < ZF2FS_NR_CURSEG && !used; t++)
				used = cur[t] == s;
		}
		n += !used;
	}
	free(sit);
	*ret = n;
	return 0;
}

static bool is_current_sec(struct zf2fs_vol *vol, uint32_t secno)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);

	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		uint32_t s, off;

		zf2fs_vol_curseg(vol, t, &s, &off);
		if (s / vi->segs_per_sec == secno)
			return true;
	}
	return false;
}

/* The victims replay predicts for the calls of -n's or --until-free's count.  A section a
 * background call marked counts as free for --until-free: this collect moves its blocks
 * as the kernel's writeback would, and the model does not. */
static int pick_victims(struct run *r, struct zf2fs_vol *vol)
{
	const struct gc_collect_opts *o = r->o;
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_gc_model *m;
	uint8_t *seen;
	uint32_t marked = 0, cap;
	int err = gc_zone_cap(vol, o->zone_cap_blocks, &cap, &r->le);

	if (err)
		return err;
	err = zf2fs_gc_model_load_cap(vol, &r->log, cap, &m);
	if (err)
		return err;
	zf2fs_gc_model_set_kernel(m, o->kernel);
	if (o->knobs && gc_knobs_apply(o->knobs, m, r->le.msg, sizeof(r->le.msg))) {
		zf2fs_gc_model_free(m);
		return -EINVAL;
	}
	r->vs = calloc(vi->main_secs + 1, sizeof(*r->vs));
	seen = calloc(vi->main_secs + 1, 1);
	if (!r->vs || !seen) {
		free(seen);
		zf2fs_gc_model_free(m);
		return -ENOMEM;
	}
	/* at most one victim per section, and calls bounded by the volume whatever the
	 * model does (a section takes at most one call per segment) */
	for (uint64_t calls = 0; !r->stop && r->nv < vi->main_secs &&
	     calls <= (uint64_t)vi->main_secs * (vi->segs_per_sec + 1); calls++) {
		struct zf2fs_gc_victim v[64];
		struct zf2fs_gc_summary sum;
		unsigned got = 0;

		if (o->until_free) {
			zf2fs_gc_summarize(m, &sum);
			if ((uint64_t)sum.free_secs + sum.prefree_secs + marked >= o->until_free)
				break;
		} else if (r->nv >= o->sections) {
			break;
		}
		err = zf2fs_gc_call(m, &o->p, v, 64, &got);
		for (unsigned i = 0; i < got && !r->stop; i++) {
			if (!o->until_free && r->nv >= o->sections)
				break;
			/* a call continuing a section an earlier one began (Linux 7.3's window),
			 * or foreground taking over one background marked: collect moves the
			 * whole section once */
			if (v[i].secno < vi->main_secs && seen[v[i].secno] &&
			    (v[i].segno % vi->segs_per_sec || v[i].from_bg_map))
				continue;
			if (v[i].secno >= vi->main_secs || seen[v[i].secno]) {
				r->stop = "the model chose a section it had collected already";
			} else {
				seen[v[i].secno] = 1;
				r->vs[r->nv++].v = v[i];
				marked += v[i].gc_type == ZF2FS_GC_BG;
			}
		}
		if (err == -ENODATA || err == -ENOSPC) {
			r->stop = err == -ENODATA ? "no more victims" : "the model ran out of free segments";
			err = 0;
			break;
		}
		if (err)
			break;
	}
	free(seen);
	zf2fs_gc_model_free(m);
	return err;
}

/* The next victim queued (zf2fs_move_batches asks, a section at a time). */
static int queue_victim(void *arg, struct zf2fs_txn *txn, uint64_t room,
			struct zf2fs_move_stats *st, bool *done)
{
	struct run *r = arg;
	struct victim *v;
	struct zf2fs_move_stats before = *st;
	int err;

	(void)room;   /* a section is the smallest piece */
	if (r->next >= r->nv) {
		*done = true;
		return 0;
	}
	v = &r->vs[r->next];
	err = zf2fs_move_section(txn, v->v.secno, st);
	if (err)
		return err;
	v->data = st->data_blocks - before.data_blocks;
	v->nodes = st->node_blocks - before.node_blocks;
	r->next++;
	return 0;
}

/* Opened again after each batch; a failed batch's message is kept for print_error. */
static int reopen(void *arg, struct zf2fs_vol **ret)
{
	struct run *r = arg;

	return zf2fs_vol_open(r->o->devices, 1 + r->o->ndevices,
			      ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL | ZF2FS_VOL_BLOCK16K, &r->log, ret);
}

static void print_text(const struct run *r)
{
	printf(" step    segno   secno  valid type   data  nodes freed\n");
	for (uint32_t i = 0; i < r->nv; i++)
		printf("%5u %8u %7u %6u %-4s %6" PRIu64 " %6" PRIu64 " %s\n", i + 1,
		       r->vs[i].v.segno, r->vs[i].v.secno, r->vs[i].v.valid_blocks,
		       zf2fs_gc_type_name(r->vs[i].v.gc_type), r->vs[i].data, r->vs[i].nodes,
		       r->o->dry_run ? "-" : r->vs[i].freed ? "yes" : "NO");
	printf("collected %u sections: moved %" PRIu64 " data and %" PRIu64
	       " node blocks (%" PRIu64 " owner nodes rewritten), %u checkpoint%s\n", r->nv,
	       r->st.data_blocks, r->st.node_blocks, r->st.owner_nodes, r->checkpoints,
	       r->checkpoints == 1 ? "" : "s");
	printf("free sections: %u before, %u after\n", r->free_before, r->free_after);
	if (r->zones_reset)
		printf("zones reset: %u\n", r->zones_reset);
	if (r->stop)
		printf("stopped: %s\n", r->stop);
}

static void print_json(const struct run *r)
{
	printf("{\"image\": \"%s\", \"gc_type\": \"%s\", \"policy\": \"%s\", "
	       "\"dry_run\": %s, \"victims\": [", r->o->devices[0],
	       zf2fs_gc_type_name(r->o->p.gc_type), zf2fs_gc_policy_name(zf2fs_gc_policy_of(&r->o->p)),
	       r->o->dry_run ? "true" : "false");
	for (uint32_t i = 0; i < r->nv; i++)
		printf("%s\n  {\"step\": %u, \"segno\": %u, \"secno\": %u, \"valid_blocks\": %u, "
		       "\"gc_type\": \"%s\", \"data_moved\": %" PRIu64 ", \"nodes_moved\": %" PRIu64
		       ", \"freed\": %s}", i ? "," : "", i + 1, r->vs[i].v.segno, r->vs[i].v.secno,
		       r->vs[i].v.valid_blocks, zf2fs_gc_type_name(r->vs[i].v.gc_type),
		       r->vs[i].data, r->vs[i].nodes, r->vs[i].freed ? "true" : "false");
	printf("%s], \"sections\": %u, \"data_blocks\": %" PRIu64 ", \"node_blocks\": %" PRIu64
	       ", \"owner_nodes\": %" PRIu64 ", \"checkpoints\": %u, \"free_before\": %u, "
	       "\"free_after\": %u, \"zones_reset\": %u, \"stopped\": ", r->nv ? "\n" : "", r->nv,
	       r->st.data_blocks, r->st.node_blocks, r->st.owner_nodes, r->checkpoints,
	       r->free_before, r->free_after, r->zones_reset);
	if (r->stop)
		printf("\"%s\"}\n", r->stop);
	else
		printf("null}\n");
}

/* Which of victims [@from, @to) are free now (the volume opened again after their
 * commit: a later batch may take a freed section for its logs, as the kernel reuses
 * sections freed at a checkpoint).  The free sections are counted once, after the last
 * batch. */
static int check_freed(struct run *r, struct zf2fs_vol *vol, uint32_t from, uint32_t to)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_sit_entry *sit;
	int err = zf2fs_vol_load_sit(vol, &sit);

	if (err)
		return err;
	for (uint32_t i = from; i < to && i < r->nv; i++) {
		uint32_t sec = r->vs[i].v.secno;
		bool used = is_current_sec(vol, sec);

		for (uint32_t k = 0; k < vi->segs_per_sec && !used; k++)
			used = zf2fs_sit_valid_blocks(&sit[sec * vi->segs_per_sec + k]) != 0;
		r->vs[i].freed = !used;
	}
	free(sit);
	return 0;
}

/* After each batch: which of its victims are free now. */
static int batch_committed(void *arg, struct zf2fs_vol *vol)
{
	struct run *r = arg;
	int err = check_freed(r, vol, r->batch_first, r->next);

	r->batch_first = r->next;
	zs_progress_set(&r->prog, r->next);
	return err;
}

static int refuse_unclean(const struct run *r, struct zf2fs_vol *vol)
{
	const char *why = zs_unclean_reason(zf2fs_vol_info(vol)->ckpt_flags);

	/* blocks are moved by their summaries, which a read-only volume does not keep (nor
	 * does the kernel collect it: it mounts it read-only) */
	if (!zf2fs_vol_has_ssa(vol)) {
		fprintf(stderr, PROG ": ERROR: %s is a read-only volume (feature ro): it keeps no "
			"block summaries, its blocks cannot be moved\n", r->o->devices[0]);
		return -EINVAL;
	}
	if (!why)
		return 0;
	fprintf(stderr, PROG ": ERROR: %s %s: run fsck.f2fs first\n", r->o->devices[0], why);
	return -EINVAL;
}

int gc_collect_run(const struct gc_collect_opts *o)
{
	struct run r = { .o = o };
	struct zf2fs_vol *vol = NULL;
	int err, rc = EXIT_OK;

	r.log = (struct zf2fs_log){ .level = o->verbose, .fn = log_keep, .arg = &r.le };
	zs_progress_init(&r.prog, o->progress_fd, o->progress_bar, o->devices[0], 1);
	for (unsigned d = 0; d <= o->ndevices; d++) {
		int mnt = zf2fs_path_is_mounted(o->devices[d]);

		if (mnt > 0) {
			fprintf(stderr, PROG ": ERROR: %s is mounted: unmount it first\n",
				o->devices[d]);
			return EXIT_OPERATIONAL;
		}
	}
	/* the block mover and the transaction write 4 KiB volumes: without
	 * ZF2FS_VOL_BLOCK16K a volume of 16 KiB blocks is refused before anything is read */
	err = open_vol(&r, o->dry_run ? 0 : ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL, &vol);
	if (err == -ZF2FS_EBLOCKSIZE) {
		fprintf(stderr, PROG ": ERROR: %s: collect moves blocks on volumes of 4 KiB blocks "
			"only, this one has 16 KiB blocks (state, replay and simulate read it)\n",
			o->devices[0]);
		return EXIT_OPERATIONAL;
	}
	if (err)
		return fail(&r.le, err, "opening", o->devices[0]);
	if (refuse_unclean(&r, vol)) {
		zf2fs_vol_close(vol);
		return EXIT_OPERATIONAL;
	}
	err = free_sections(vol, &r.free_before);
	r.free_after = r.free_before;
	if (!err)
		err = pick_victims(&r, vol);
	if (err) {
		rc = fail(&r.le, err, "choosing victims on", o->devices[0]);
		goto out;
	}
	if (!r.nv) {
		if (o->json)
			print_json(&r);
		fprintf(stderr, PROG ": no victim to collect on %s\n", o->devices[0]);
		rc = EXIT_NOVICTIM;
		goto out;
	}
	/* without zones the moved blocks may also fill holes of dirty segments (SSR) */
	if (!o->dry_run && !r.free_before && zf2fs_vol_is_zoned(vol)) {
		fprintf(stderr, PROG ": ERROR: %s has no free section to move blocks into\n",
			o->devices[0]);
		rc = EXIT_OPERATIONAL;
		goto out;
	}
	zs_progress_pass(&r.prog, 1, "collecting sections", r.nv);
	if (!o->dry_run) {
		static const struct zf2fs_move_batch_ops ops = {
			.queue = queue_victim, .reopen = reopen, .committed = batch_committed,
		};
		struct zf2fs_move_batch_result res;

		err = zf2fs_move_batches(&vol, zs_move_batch_blocks(vol, o->batch_blocks), 0, &ops,
					 &r, &r.st, &res);
		r.checkpoints = res.batches;
		r.zones_reset = res.zones_reset;
		if (err) {
			if (err == -ENOSPC)
				snprintf(r.le.msg, sizeof(r.le.msg), "%s: not enough free sections "
					 "(nor free blocks in dirty segments) for the moved blocks "
					 "(nothing of this batch committed): collect fewer sections",
					 o->devices[0]);
			rc = fail(&r.le, err, "moving blocks on", o->devices[0]);
			goto out;
		}
	}
	if (!o->dry_run) {
		err = free_sections(vol, &r.free_after);
		if (err) {
			rc = fail(&r.le, err, "checking the result on", o->devices[0]);
			goto out;
		}
	}
	zs_progress_end(&r.prog);
	zs_progress_close(&r.prog);
	if (o->json)
		print_json(&r);
	else
		print_text(&r);
	for (uint32_t i = 0; !o->dry_run && i < r.nv; i++)
		if (!r.vs[i].freed)
			rc = EXIT_OPERATIONAL;
out:
	zs_progress_close(&r.prog);
	if (vol)
		zf2fs_vol_close(vol);
	free(r.vs);
	return rc;
}
