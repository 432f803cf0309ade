// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * resize_run.c - zf2fs_resize_devs: the steps of a resize, in the order that keeps a
 * mountable volume after each write (include/zf2fs/resize.h).  Between steps the volume
 * is opened again and the plan made again from what is on disk, so that a resize
 * interrupted anywhere is finished by running it again.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/move.h"
#include "zf2fs/resize.h"
#include "zf2fs/txn.h"
#include "zf2fs/zoned.h"
#include "zf2fs-internal/commit.h"
#include "zf2fs-internal/move.h"
#include "zf2fs-internal/volume.h"
#include "write/txn_p.h"
#include "move/resize_p.h"
#include "format/why_p.h"

#define DEFAULT_BATCH_BYTES (64u << 20)   /* held in memory per checkpoint by default */

struct run {
	struct zf2fs_dev *const *devs;
	unsigned n;
	int flags;                    /* zf2fs_vol_open's: ZF2FS_VOL_BLOCK16K */
	const struct zf2fs_log *log;
	const struct zf2fs_resize_opts *o;
	struct zf2fs_resize_opts pinned;
	struct zf2fs_resize_report *rep;
	struct zf2fs_vol *vol;
	char *why;
	size_t whylen;
	zf2fs_resize_progress_fn progress;   /* may be NULL */
	void *progress_arg;
};

static int reopen(struct run *r)
{
	int err;

	zf2fs_vol_close(r->vol);
	r->vol = NULL;
	err = zf2fs_vol_open_devs_flags(r->devs, r->n, r->flags, r->log, &r->vol);
	return err ? zf2fs_set_why(r->why, r->whylen, err, "cannot open the volume again") : 0;
}

/* A checkpoint the kernel would replay or check first is not one to build on. */
static int check_clean(struct run *r)
{
	uint32_t f = zf2fs_vol_info(r->vol)->ckpt_flags;

	if (!(f & ZF2FS_CP_UMOUNT_FLAG))
		return zf2fs_set_why(r->why, r->whylen, -EINVAL, "the volume was not cleanly "
				     "unmounted: mount and unmount it, or run fsck.f2fs first");
	if (f & (ZF2FS_CP_ERROR_FLAG | ZF2FS_CP_FSCK_FLAG))
		return zf2fs_set_why(r->why, r->whylen, -EINVAL, "the checkpoint asks for fsck: "
				     "run fsck.f2fs first");
	return 0;
}

/* the blocks a batch holds: the caller's, or 64 MiB of the volume's blocks */
static uint64_t batch_blocks(const struct run *r)
{
	return r->o->batch_blocks ? r->o->batch_blocks :
	       DEFAULT_BATCH_BYTES >> zf2fs_vol_geom(r->vol)->log_blocksize;
}

/* One checkpoint: the valid blocks of sections [*@next, @hi) moved into free sections of
 * [@tlo, @thi), until a batch is queued.  *@next advances past what was queued. */
static int move_batch(struct run *r, uint32_t *next, uint32_t hi, uint32_t tlo, uint32_t thi)
{
	uint64_t batch = batch_blocks(r);
	struct zf2fs_move_stats st = { 0 };
	struct zf2fs_txn *txn;
	bool logs = false;
	int err = zf2fs_txn_begin(r->vol, &txn);

	if (err)
		return zf2fs_set_why(r->why, r->whylen, err, "cannot start a transaction");
	for (; *next < hi && !err && st.data_blocks + st.node_blocks < batch; (*next)++) {
		logs |= zf2fs_resize_sec_has_log(r->vol, *next);
		err = zf2fs_move_section(txn, *next, &st);
	}
	if (err) {
		zf2fs_set_why(r->why, r->whylen, err, "cannot move the blocks of section %u (see "
			      "above)", *next - 1);
		goto out;
	}
	err = zf2fs_move_set_target(txn, tlo, thi);
	if (!err)
		err = zf2fs_txn_commit(txn);
	if (err) {
		zf2fs_set_why(r->why, r->whylen, err, "moving blocks failed (the volume is as the "
			      "last checkpoint left it)");
		goto out;
	}
	r->rep->moved_blocks += st.data_blocks + st.node_blocks;
	if (st.data_blocks + st.node_blocks || logs)
		r->rep->checkpoints++;
out:
	zf2fs_txn_free(txn);
	return err;
}

/* Zoned volumes: the zones of free sections written before (sections an earlier move
 * emptied, or that a grow brings back) are reset, so that the commit's allocator, which
 * writes a fresh section from its start, and the kernel find them empty.  Only sections
 * the checkpoint holds nothing in are reset: crash-safe at any point.  Nothing to do on
 * devices without a zone report. */
static int reset_free_zones(struct run *r)
{
	uint32_t n = 0;
	int err;

	if (!zf2fs_vol_is_zoned(r->vol))
		return 0;
	err = zf2fs_move_reset_free_zones(r->vol, &n);
	if (err)
		return zf2fs_set_why(r->why, r->whylen, err, "cannot reset the zones of free "
				     "sections");
	r->rep->zones_reset += n;
	return 0;
}

/* Empty sections [@lo, @hi): blocks and logs go to [@tlo, @thi). */
static int empty_sections(struct run *r, uint32_t lo, uint32_t hi, uint32_t tlo, uint32_t thi)
{
	uint32_t next = lo;
	int err = 0;

	if (r->progress && lo < hi)
		r->progress(r->progress_arg, 0, hi - lo);
	while (next < hi && !err) {
		err = move_batch(r, &next, hi, tlo, thi);
		if (!err)
			err = reopen(r);
		if (!err && r->progress)
			r->progress(r->progress_arg, next - lo, hi - lo);
	}
	return err;
}

struct victim {
	uint32_t sec, valid;
};

static int by_valid(const void *a, const void *b)
{
	const struct victim *x = a, *y = b;

	return x->valid != y->valid ? (x->valid < y->valid ? -1 : 1) :
	       (x->sec < y->sec ? -1 : x->sec > y->sec);
}

/* Sections of [@tlo, @thi) that are free (no valid block, no log), and the partly valid
 * ones without a log, emptiest first, in *@ret_v (caller frees). */
static int survey(struct run *r, uint32_t tlo, uint32_t thi, uint32_t *ret_free,
		  struct victim **ret_v, uint32_t *ret_n)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(r->vol);
	uint64_t sec_blocks = (uint64_t)vi->segs_per_sec * ZF2FS_BLOCKS_PER_SEG;
	struct zf2fs_sit_entry *sit;
	struct victim *v = calloc(thi - tlo + 1, sizeof(*v));
	uint32_t n = 0, nfree = 0;
	int err = v ? zf2fs_vol_load_sit(r->vol, &sit) : -ENOMEM;

	if (err) {
		free(v);
		return err;
	}
	for (uint32_t sec = tlo; sec < thi; sec++) {
		uint32_t valid = 0;

		for (uint32_t s = sec * vi->segs_per_sec; s < (sec + 1) * vi->segs_per_sec; s++)
			valid += zf2fs_sit_valid_blocks(&sit[s]);
		if (zf2fs_resize_sec_has_log(r->vol, sec))
			continue;
		if (!valid)
			nfree++;
		else if (valid < sec_blocks)
			v[n++] = (struct victim){ sec, valid };
	}
	free(sit);
	qsort(v, n, sizeof(*v), by_valid);
	*ret_free = nfree;
	*ret_v = v;
	*ret_n = n;
	return 0;
}

/* Compaction: until [@tlo, @thi) holds @want free sections, its emptiest partly valid
 * sections are emptied into its free ones, a batch per checkpoint (what fits in the free
 * sections there, keeping one per log).  Progress counts the sections gained. */
static int compact(struct run *r, uint32_t tlo, uint32_t thi, uint32_t want)
{
	uint64_t batch = batch_blocks(r);
	uint32_t last_free = 0, first_free = 0;

	for (;;) {
		const struct zf2fs_vol_info *vi = zf2fs_vol_info(r->vol);
		uint64_t sec_blocks = (uint64_t)vi->segs_per_sec * ZF2FS_BLOCKS_PER_SEG, room;
		struct zf2fs_move_stats st = { 0 };
		struct zf2fs_txn *txn = NULL;
		struct victim *v;
		uint32_t nfree, n, i;
		int err = survey(r, tlo, thi, &nfree, &v, &n);

		if (err)
			return zf2fs_set_why(r->why, r->whylen, err, "cannot read the SIT");
		if (r->progress && nfree < want && !last_free) {
			first_free = nfree;
			r->progress(r->progress_arg, 0, want - first_free);
		} else if (r->progress && last_free && nfree > first_free) {
			r->progress(r->progress_arg, (nfree < want ? nfree : want) - first_free,
				    want - first_free);
		}
		if (nfree >= want) {
			free(v);
			return 0;
		}
		if (!n || nfree <= ZF2FS_NR_CURSEG || (last_free && nfree <= last_free)) {
			free(v);
			return zf2fs_set_why(r->why, r->whylen, -ENOSPC, "compaction cannot free "
					     "enough sections (%u free, %u needed)", nfree, want);
		}
		last_free = nfree;
		room = (uint64_t)(nfree - ZF2FS_NR_CURSEG) * sec_blocks;
		err = zf2fs_txn_begin(r->vol, &txn);
		for (i = 0; !err && i < n && st.data_blocks + st.node_blocks + v[i].valid <= room &&
		     st.data_blocks + st.node_blocks < batch; i++)
			err = zf2fs_move_section(txn, v[i].sec, &st);
		free(v);
		if (!err)
			err = zf2fs_move_set_target(txn, tlo, thi);
		if (!err)
			err = zf2fs_txn_commit(txn);
		zf2fs_txn_free(txn);
		if (err)
			return zf2fs_set_why(r->why, r->whylen, err, "compaction failed (the volume is "
					     "as the last checkpoint left it)");
		r->rep->moved_blocks += st.data_blocks + st.node_blocks;
		r->rep->checkpoints++;
		err = reopen(r);
		/* the victims emptied lie in [@tlo, @thi): the next batch may write there */
		if (!err)
			err = reset_free_zones(r);
		if (err)
			return err;
	}
}

/* One checkpoint with the plan's space counts (and the free segments recounted). */
static int commit_space(struct run *r, const struct zf2fs_resize_plan *p)
{
	struct zf2fs_txn *txn = NULL;
	int err = zf2fs_txn_begin(r->vol, &txn);

	if (!err)
		err = zf2fs_txn_set_space(txn, p->user_block_count, p->rsvd_segments,
					  p->ovp_segments);
	if (!err)
		err = zf2fs_txn_commit(txn);
	if (txn)
		zf2fs_txn_free(txn);
	if (err)
		return zf2fs_set_why(r->why, r->whylen, err, "cannot write the checkpoint with the "
				     "new space counts");
	r->rep->checkpoints++;
	return reopen(r);
}

static int write_super(struct run *r, const struct zf2fs_resize_plan *p)
{
	int err = zf2fs_vol_write_super(r->vol, &p->sb, r->why, r->whylen);

	return err ? err : reopen(r);
}

/* Empty sections [@lo, @hi) into [@tlo, @thi), after making @short more sections free
 * there by compaction when the plan found them lacking. */
static int clear_sections(struct run *r, uint32_t lo, uint32_t hi, uint32_t tlo, uint32_t thi,
			  uint32_t short_secs)
{
	uint32_t free_now, n;
	struct victim *v;
	int err = 0;

	if (short_secs) {
		err = survey(r, tlo, thi, &free_now, &v, &n);
		if (!err) {
			free(v);
			err = compact(r, tlo, thi, free_now + short_secs);
		}
	}
	return err ? err : empty_sections(r, lo, hi, tlo, thi);
}

/* One step of plan @p, whose kind is a size change or a move of the metadata areas. */
static int step(struct run *r, struct zf2fs_resize_plan *p)
{
	uint32_t main_secs = zf2fs_vol_info(r->vol)->main_secs;
	int err = 0;

	/* 1. empty what the new size or the new areas take away: checkpoints of moved
	 * blocks, after room was made for them where the free sections were too few */
	if (p->kind == ZF2FS_RESIZE_SHRINK)
		err = clear_sections(r, p->cut_sec, main_secs, 0, p->cut_sec, p->short_secs);
	else if (p->relocate && p->evac_secs)
		err = clear_sections(r, 0, p->evac_secs, p->evac_secs, main_secs, p->short_secs);
	if (!err)
		err = zf2fs_resize_plan(r->vol, r->o, p, r->why, r->whylen);
	if (err)
		return err;

	/* 2. the new size, or the new areas */
	if (p->relocate) {
		err = zf2fs_resize_write_meta(r->vol, p, &r->rep->meta_blocks);
		if (err == -EBUSY)
			return zf2fs_set_why(r->why, r->whylen, err, "the sections the new metadata "
					     "areas take are still in use");
		if (err)
			return zf2fs_set_why(r->why, r->whylen, err, "cannot write the new metadata "
					     "areas (the old volume is unchanged)");
		r->rep->checkpoints++;
		return write_super(r, p);
	}
	if (p->kind == ZF2FS_RESIZE_SHRINK) {
		/* counts first: they only shrink, so the old superblock accepts them */
		if (p->counters_stale)
			err = commit_space(r, p);
		return err ? err : write_super(r, p);
	}
	/* a grow: superblock first, the old counts are valid in a larger main area */
	return write_super(r, p);
}

/* The size first (one step), then the metadata areas fitted to it (up to two moves),
 * then the counts of the main area the superblock has. */
static int steps(struct run *r)
{
	struct zf2fs_resize_plan p;
	int err = zf2fs_resize_plan(r->vol, r->o, &p, r->why, r->whylen);

	if (err)
		return err;
	r->rep->plan = p;
	/* the rule chosen now holds to the end (the later plans see counts half way): a
	 * ratio as it is, mkfs's default rule as a rule, since each step's main area (the
	 * areas fitted) has a ratio of its own under it */
	r->pinned = *r->o;
	r->pinned.overprovision = p.default_rule ? 0 : p.overprovision;
	r->pinned.default_rule = p.default_rule;
	r->o = &r->pinned;
	err = reset_free_zones(r);
	for (int round = 0; !err && (p.kind != ZF2FS_RESIZE_NONE || p.relocate); round++) {
		if (round == 3 || (round && p.kind != ZF2FS_RESIZE_NONE))
			return zf2fs_set_why(r->why, r->whylen, -EIO, "the volume did not take the "
					     "new size");
		err = step(r, &p);
		if (err == -ENOSPC && p.fit) {
			/* fitting the areas is worth no failure: the volume is the one the last
			 * checkpoint left, of the new size; the areas stay */
			snprintf(r->rep->meta_note, sizeof(r->rep->meta_note), "the metadata areas "
				 "stay larger than the size needs, since fitting them stopped: %s",
				 r->why);
			r->why[0] = '\0';
			r->pinned.safe = true;
			err = reopen(r);
		}
		if (!err)
			err = reset_free_zones(r);
		if (!err)
			err = zf2fs_resize_plan(r->vol, r->o, &p, r->why, r->whylen);
	}
	if (!err && (p.counters_stale || p.free_stale))
		err = commit_space(r, &p);
	if (!err && p.meta_note[0])
		snprintf(r->rep->meta_note, sizeof(r->rep->meta_note), "%s", p.meta_note);
	return err;
}

ZF2FS_EXPORT int zf2fs_resize_devs(struct zf2fs_dev *const *devs, unsigned n,
				   const struct zf2fs_resize_opts *o, const struct zf2fs_log *log,
				   struct zf2fs_resize_report *rep, char *why, size_t whylen)
{
	return zf2fs_resize_devs2(devs, n, 0, o, log, rep, why, whylen);
}

ZF2FS_EXPORT int zf2fs_resize_devs2(struct zf2fs_dev *const *devs, unsigned n, int flags,
				    const struct zf2fs_resize_opts *o, const struct zf2fs_log *log,
				    struct zf2fs_resize_report *rep, char *why, size_t whylen)
{
	return zf2fs_resize_devs_progress(devs, n, flags, o, NULL, NULL, log, rep, why, whylen);
}

ZF2FS_EXPORT int zf2fs_resize_devs_progress(struct zf2fs_dev *const *devs, unsigned n,
					    int flags, const struct zf2fs_resize_opts *o,
					    zf2fs_resize_progress_fn fn, void *arg,
					    const struct zf2fs_log *log,
					    struct zf2fs_resize_report *rep, char *why,
					    size_t whylen)
{
	struct run r = { .devs = devs, .n = n, .flags = flags & ZF2FS_VOL_BLOCK16K, .log = log,
			 .o = o, .rep = rep, .why = why, .whylen = whylen, .progress = fn,
			 .progress_arg = arg };
	int err;

	memset(rep, 0, sizeof(*rep));
	err = zf2fs_vol_open_devs_flags(devs, n, r.flags, log, &r.vol);
	if (err)
		return zf2fs_set_why(why, whylen, err, "cannot open the volume");
	rep->main_blkaddr_before = zf2fs_vol_info(r.vol)->main_blkaddr;
	err = check_clean(&r);
	if (!err)
		err = steps(&r);
	if (r.vol)
		rep->main_blkaddr_after = zf2fs_vol_info(r.vol)->main_blkaddr;
	zf2fs_vol_close(r.vol);
	return err;
}
