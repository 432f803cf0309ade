// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * defrag.c - defrag.f2fs: move the valid blocks of a block range of an unmounted volume
 * to free space at a target address, with f2fs-tools' interface:
 *
 *   defrag.f2fs [-d level] [-s start] [-l length] [-t target] [-i] [-S] [-H]
 *               [--batch-blocks N] device
 *   defrag.f2fs [-d level] [--batch-blocks N] --file PATH device
 *
 * The blocks of [start, start + length) move with the library's block mover
 * (include/zf2fs/move.h), the way the kernel's GC moves them (data through its owner
 * node, nodes through the NAT), into whole free sections on the target's side: from the
 * section at or after the target up to the range (or the end of the main area), or with
 * -i from the section at or before the target down to the range (or the start of the main
 * area); lowest free section first.  The range moves in batches (zf2fs_move_batches), a
 * checkpoint each, so that memory is bounded by --batch-blocks; an interruption leaves
 * the checkpoint of the last completed batch.  Everything that can be refused (mounted,
 * unclean, range outside the main area, a window without room for what the batches
 * need, counted by a first pass that commits nothing) is refused before the first write.
 * --file makes a file contiguous, in batches too: its data fill a run of free sections
 * kept for them, the nodes go elsewhere; or each regular file below a directory
 * (defrag_dir.c lists them), file after file.
 * Volumes of 4 KiB and of 16 KiB blocks alike: addresses and counts are in the volume's
 * blocks, a node is read into a buffer of ZF2FS_BLKSIZE_MAX bytes.
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
#include "helper.h"
#include "zf2fs/access.h"
#include "zf2fs/file.h"
#include "zf2fs/geometry.h"
#include "zf2fs/move.h"
#include "zf2fs/txn.h"
#include "zf2fs/zoned.h"
#include "defrag.h"
#include "simg_run.h"
#include "progress.h"

#define PROG "defrag.f2fs"

struct opts {
	const char *dev;
	uint64_t start, len, target;
	uint64_t batch_blocks;          /* valid blocks held in memory per checkpoint */
	bool have_start, have_len, have_target, left, have_batch;
	int level;
	struct zs_progress *prog;       /* one pass: the blocks moved (the files, --file DIR) */
};

/* every open: for writing, alone, volumes of 4 KiB and of 16 KiB blocks */
#define OPEN_FLAGS (ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL | ZF2FS_VOL_BLOCK16K)

/* The sections the moved blocks may go to, and what they must hold. */
struct plan {
	uint32_t first_sec, end_sec;    /* allocation window */
	uint32_t free_secs;             /* free sections in it */
	uint64_t need_secs;             /* sections the commits may take at most */
	uint32_t batches;               /* checkpoints written */
	struct zf2fs_move_stats st;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [options] device\n"
"Move the valid blocks of a block range of an unmounted F2FS volume to free space\n"
"at a target address.\n"
"\n"
"  -s, --start ADDR   first block of the range (default: the main area's first)\n"
"  -l, --length N     blocks in the range (default: one segment)\n"
"  -t, --target ADDR  where the blocks go (default: right after the range, or with\n"
"                     -i right before it)\n"
"  -i, --left         take free space at or below the target (default: at or above)\n"
"  -S, --sparse       the device is an Android sparse image: unpacked to a raw\n"
"                     file beside it, defragmented, packed back in its place\n"
"  -H                 accepted (f2fs-tools: write hints); none are given\n"
"  -d, --debug LEVEL  print more (0-3; more counts as 3)\n"
"      --batch-blocks N  blocks moved per checkpoint (default: 128 MiB of them,\n"
"                     32768 or 8192): the range or the file moves in batches,\n"
"                     each committed on its own\n"
"      --file PATH    make a regular file's blocks contiguous, or every regular\n"
"                     file's below a directory (none of -s, -l, -t, -i)\n"
"      --progress     a completion bar on standard error, when it is a terminal\n"
"      --progress-fd FD  lines \"PASS CURRENT TOTAL DEVICE\" on file descriptor FD\n"
"                     for a front-end (as e2fsck -C FD writes them)\n"
"  -V, --version      print the version and exit\n"
"  -h, --help         this help\n"
"\n"
"Addresses and counts are in the volume's blocks (4 KiB or 16 KiB), decimal or 0x\n"
"hex.  Blocks move in whole free sections on the target's side of the range.\n");
}

static int say(int err, const char *doing, const char *dev)
{
	/* the library named the bits it does not write, or the block size */
	if (err == -ZF2FS_EUNWRITABLE || err == -ZF2FS_EBLOCKSIZE)
		return 1;
	fprintf(stderr, PROG ": %s while %s %s\n",
		strerror(err == -ZF2FS_EFSCORRUPTED ? EUCLEAN : -err), doing, dev);
	return 1;
}

static uint32_t sec_blocks(const struct zf2fs_vol_info *vi)
{
	return vi->segs_per_sec * vi->blocks_per_seg;
}

/* Section of main-area block @blk, rounded up to the next section boundary when @up. */
static uint32_t sec_of(const struct zf2fs_vol_info *vi, uint64_t blk, bool up)
{
	uint64_t off = blk - vi->main_blkaddr;

	return (uint32_t)((off + (up ? sec_blocks(vi) - 1 : 0)) / sec_blocks(vi));
}

static bool cur_in_sec(struct zf2fs_vol *vol, uint32_t sec)
{
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		uint32_t s, off;

		zf2fs_vol_curseg(vol, t, &s, &off);
		if (s / zf2fs_vol_info(vol)->segs_per_sec == sec)
			return true;
	}
	return false;
}

static bool sec_free(struct zf2fs_vol *vol, const struct zf2fs_sit_entry *sit, uint32_t sec)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);

	if (cur_in_sec(vol, sec))
		return false;
	for (uint32_t k = 0; k < vi->segs_per_sec; k++) {
		uint32_t s = sec * vi->segs_per_sec + k;

		if (s >= vi->main_segs || zf2fs_sit_valid_blocks(&sit[s]))
			return false;
	}
	return true;
}

/* The checks that need the volume: the range inside the main area, the target outside the
 * range, a window of whole sections between them.  0 or a one-line refusal printed. */
static int check_range(const struct opts *o, const struct zf2fs_vol_info *vi, struct plan *p)
{
	uint64_t end = o->start + o->len;

	if (o->start < vi->main_blkaddr || o->len > vi->main_end || end > vi->main_end) {
		fprintf(stderr, PROG ": range [0x%" PRIx64 ", 0x%" PRIx64 ") is not inside the main "
			"area [0x%x, 0x%" PRIx64 ")\n", o->start, end, vi->main_blkaddr,
			vi->main_end);
		return -EINVAL;
	}
	if (o->target < vi->main_blkaddr || o->target >= vi->main_end) {
		fprintf(stderr, PROG ": target 0x%" PRIx64 " is not inside the main area [0x%x, 0x%"
			PRIx64 ")\n", o->target, vi->main_blkaddr, vi->main_end);
		return -EINVAL;
	}
	if (o->target >= o->start && o->target < end) {
		fprintf(stderr, PROG ": target 0x%" PRIx64 " lies inside the range [0x%" PRIx64
			", 0x%" PRIx64 ")\n", o->target, o->start, end);
		return -EINVAL;
	}
	if (!o->left) {
		/* whole sections from the target up to the range or the end */
		p->first_sec = sec_of(vi, o->target, true);
		p->end_sec = o->target < o->start ? sec_of(vi, o->start, false) : vi->main_secs;
	} else {
		/* whole sections from the range or the start up to the target's */
		p->first_sec = o->target >= end ? sec_of(vi, end, true) : 0;
		p->end_sec = sec_of(vi, o->target + 1, false);
	}
	if (p->first_sec >= p->end_sec) {
		fprintf(stderr, PROG ": no whole section between target 0x%" PRIx64 " and the "
			"range [0x%" PRIx64 ", 0x%" PRIx64 ") %s\n", o->target, o->start, end,
			o->left ? "at or below the target" : "at or above the target");
		return -EINVAL;
	}
	return 0;
}

/* The tests' hook over a move in batches: ZF2FS_FAULT_WRITES=N fails the N-th write of
 * the whole move (and every one after); -d 3 tells how many writes the commits made.  It
 * counts the blocks the committed batches moved, for --progress (@prog NULL: not). */
struct hook {
	unsigned long fault, writes, before;
	struct zs_progress *prog;
	uint64_t queued, moved;         /* blocks of the batch being committed; of those before */
};

static void hook_arm(struct hook *h, struct zf2fs_vol *vol)
{
	struct zf2fs_dev *dev = zf2fs_vol_dev(vol, 0);

	h->before = zs_dev_write_count(dev);
	if (h->fault && h->fault > h->writes)
		zs_dev_fail_writes_after(dev, h->before + (h->fault - h->writes));
}

/* zf2fs_move_batch_ops.commit_done for a mover whose state begins with its hook */
static void hook_count(void *arg, struct zf2fs_vol *vol, int err)
{
	struct hook *h = arg;

	h->writes += zs_dev_write_count(zf2fs_vol_dev(vol, 0)) - h->before;
	if (!err && h->prog) {
		h->moved += h->queued;
		zs_progress_set(h->prog, h->moved);
	}
}

/* After zf2fs_move_batches returned @err for @what @name (the range on a device, or a
 * file): the commits' writes at -d 3, and a failure in one line saying what was done
 * before it.  0, or 1 on a failure. */
static int batches_done(const struct zf2fs_log *log, const struct hook *h,
			const struct zf2fs_move_batch_result *res, int err, const char *what,
			const char *name)
{
	zf2fs_logf(log, ZF2FS_MSG_INFO, 3, "the commits made %lu writes in %u checkpoint%s",
		   h->writes, res->batches, res->batches == 1 ? "" : "s");
	if (!err)
		return 0;
	fprintf(stderr, PROG ": %s while moving the blocks of %s%s (%u batch%s committed "
		"before: the volume is valid, that part of it moved)\n",
		strerror(err == -ZF2FS_EFSCORRUPTED ? EUCLEAN : -err), what, name, res->batches,
		res->batches == 1 ? "" : "es");
	return 1;
}

/* A range move in batches (zf2fs_move_batches): the range is queued a piece at a time,
 * each piece at most the room the batch has left, so that what is held in memory is
 * bounded by --batch-blocks, not by the range. */
struct ranger {
	struct hook hook;               /* first: hook_count takes the state as its hook */
	const struct opts *o;           /* the range filled in (defaults applied) */
	const struct zf2fs_log *log;
	struct plan *p;
	/* the SIT of the first checkpoint: the part of the range not queued yet keeps its
	 * blocks until its own batch (the commits write only into the window) */
	struct zf2fs_sit_entry *sit;
	uint32_t main_blkaddr;
	uint64_t pos;                   /* the next block of the range to queue */
	bool dry;                       /* the first pass: count what each batch needs */
};

static int queue_piece(void *arg, struct zf2fs_txn *txn, uint64_t room,
		       struct zf2fs_move_stats *st, bool *done)
{
	struct ranger *r = arg;
	const uint32_t main = r->main_blkaddr;
	uint64_t end = r->o->start + r->o->len, b = r->pos, valid = 0;
	uint32_t segno;
	int err;

	if (r->pos >= end) {
		*done = true;
		return 0;
	}
	/* up to the segment's end (the mover reads a summary block per call), or fewer
	 * blocks when the batch's room is reached */
	segno = zf2fs_main_segno(main, b);
	for (; b < end && zf2fs_main_segno(main, b) == segno && valid < room; b++)
		valid += zf2fs_sit_block_valid(&r->sit[segno], zf2fs_main_seg_off(main, b));
	err = zf2fs_move_range(txn, r->pos, b - r->pos, st);
	r->pos = b;
	return err;
}

static int reopen_dev(void *arg, struct zf2fs_vol **ret)
{
	const struct ranger *r = arg;

	return zf2fs_vol_open(&r->o->dev, 1, OPEN_FLAGS, r->log, ret);
}

/* Current logs in sections [@lo, @hi): each moves on to a section of its own. */
static uint32_t logs_in(struct zf2fs_vol *vol, uint32_t lo, uint32_t hi)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint32_t n = 0;

	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		uint32_t s, off;

		zf2fs_vol_curseg(vol, t, &s, &off);
		n += s / vi->segs_per_sec >= lo && s / vi->segs_per_sec < hi;
	}
	return n;
}

/* Sections a commit may take for what a batch queued, at most: a fresh section for each
 * segment of every log it writes (moved data go to one log, nodes to up to three).  An
 * upper bound: a log goes on in the section the last commit left it in, and fills the
 * segments of a section before taking another where the zone capacity is known. */
static uint64_t batch_sections(const struct zf2fs_vol_info *vi, const struct zf2fs_move_stats *st)
{
	uint64_t bps = vi->blocks_per_seg;
	uint64_t nodes = st->node_blocks + st->owner_nodes;
	uint64_t need = (st->data_blocks + bps - 1) / bps + (nodes + bps - 1) / bps;

	if (nodes)
		need += 2;   /* the nodes may split over the hot, warm and cold node logs */
	return need;
}

/* The dry pass counts; the real one aims the commit at the window and arms the hook. */
static int before_batch(void *arg, struct zf2fs_vol *vol, struct zf2fs_txn *txn,
			const struct zf2fs_move_stats *batch)
{
	struct ranger *r = arg;
	int err;

	if (r->dry) {
		r->p->need_secs += batch_sections(zf2fs_vol_info(vol), batch);
		return 0;
	}
	err = zf2fs_move_set_target(txn, r->p->first_sec, r->p->end_sec);
	if (!err)
		hook_arm(&r->hook, vol);
	r->hook.queued = batch->data_blocks + batch->node_blocks;
	return err;
}

static const struct zf2fs_move_batch_ops range_ops = {
	.queue = queue_piece, .reopen = reopen_dev, .before_commit = before_batch,
	.commit_done = hook_count,
};

/* Count the window's free sections, queue the range batch by batch without committing
 * (the dry pass: what the batches hold and the sections they need), refuse when the
 * window is short.  @r->sit is loaded here and stays for the real pass. */
static int plan_move(struct zf2fs_vol *vol, struct ranger *r)
{
	const struct opts *o = r->o;
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct plan *p = r->p;
	int err = zf2fs_vol_load_sit(vol, &r->sit);

	if (err)
		return say(err, "reading the SIT of", o->dev);
	for (uint32_t sec = p->first_sec; sec < p->end_sec; sec++)
		p->free_secs += sec_free(vol, r->sit, sec);
	r->dry = true;
	r->pos = o->start;
	err = zf2fs_move_batches(&vol, zs_move_batch_blocks(vol, o->batch_blocks),
				 ZF2FS_MOVE_BATCH_DRY, &range_ops, r, &p->st, NULL);
	if (err)
		return say(err, "queueing the moves on", o->dev);
	p->need_secs += logs_in(vol, sec_of(vi, o->start, false), sec_of(vi, o->start + o->len, true));
	if (p->st.data_blocks + p->st.node_blocks && p->free_secs < p->need_secs) {
		fprintf(stderr, PROG ": the target window (sections %u-%u) has %u free section%s, "
			"the %" PRIu64 " blocks of the range may need %" PRIu64 " in batches of %"
			PRIu64 ": nothing moved\n", p->first_sec, p->end_sec - 1, p->free_secs,
			p->free_secs == 1 ? "" : "s", p->st.data_blocks + p->st.node_blocks,
			p->need_secs, zs_move_batch_blocks(vol, o->batch_blocks));
		return 1;
	}
	return 0;
}

/* After the last commit (the volume opened again): the range must hold no valid block. */
static int verify(struct zf2fs_vol *vol, const struct opts *o, const struct plan *p)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_sit_entry *sit;
	uint64_t left = 0;
	int err = zf2fs_vol_load_sit(vol, &sit);

	if (err)
		return say(err, "reading the SIT again of", o->dev);
	for (uint64_t b = o->start; b < o->start + o->len; b++)
		left += zf2fs_sit_block_valid(&sit[zf2fs_main_segno(vi->main_blkaddr, b)],
					      zf2fs_main_seg_off(vi->main_blkaddr, b));
	free(sit);
	printf("moved %" PRIu64 " data and %" PRIu64 " node blocks (%" PRIu64 " owner nodes "
	       "rewritten) from [0x%" PRIx64 ", 0x%" PRIx64 ") into sections %u-%u "
	       "[0x%" PRIx64 ", 0x%" PRIx64 ") in %u checkpoint%s\n", p->st.data_blocks,
	       p->st.node_blocks, p->st.owner_nodes, o->start, o->start + o->len, p->first_sec,
	       p->end_sec - 1, vi->main_blkaddr + (uint64_t)p->first_sec * sec_blocks(vi),
	       vi->main_blkaddr + (uint64_t)p->end_sec * sec_blocks(vi), p->batches,
	       p->batches == 1 ? "" : "s");
	if (left) {
		fprintf(stderr, PROG ": %" PRIu64 " valid blocks are still in the range\n", left);
		return 1;
	}
	return 0;
}

/* The volume opened for writing, refused (1, one line printed) when mounted or unclean. */
static int open_for_moving(const struct opts *o, const struct zf2fs_log *log,
			   struct zf2fs_vol **ret)
{
	const char *why;
	int err = zf2fs_path_is_mounted(o->dev);

	if (err) {
		if (err > 0)
			fprintf(stderr, PROG ": %s is mounted: unmount it first\n", o->dev);
		else
			say(err, "checking whether this is mounted:", o->dev);
		return 1;
	}
	err = zf2fs_vol_open(&o->dev, 1, OPEN_FLAGS, log, ret);
	if (err)
		return say(err, "opening", o->dev);
	why = zs_unclean_reason(zf2fs_vol_info(*ret)->ckpt_flags);
	if (why) {
		fprintf(stderr, PROG ": %s %s: run fsck.f2fs first\n", o->dev, why);
		zf2fs_vol_close(*ret);
		return 1;
	}
	/* blocks are moved by their summaries, which a read-only volume does not keep */
	if (!zf2fs_vol_has_ssa(*ret)) {
		fprintf(stderr, PROG ": %s is a read-only volume (feature ro): it keeps no block "
			"summaries, its blocks cannot be moved\n", o->dev);
		zf2fs_vol_close(*ret);
		return 1;
	}
	return 0;
}

/* The tests' hook: ZF2FS_FAULT_WRITES=N makes the N-th write fail (and every one after),
 * as in fsck.f2fs. */
static unsigned long fault_at(void)
{
	const char *fault = getenv("ZF2FS_FAULT_WRITES");

	return fault && *fault ? strtoul(fault, NULL, 10) : 0;
}

/* -s/-l/-t/-i: the range moved in batches, a checkpoint each; everything refusable is
 * refused by the dry pass, before the first write. */
static int run(const struct opts *o, const struct zf2fs_log *log)
{
	struct zf2fs_vol *vol;
	struct plan p = { 0 };
	struct opts d = *o;
	struct ranger r = { .o = &d, .log = log, .p = &p };
	const struct zf2fs_vol_info *vi;
	struct zf2fs_move_stats st = { 0 };
	struct zf2fs_move_batch_result res = { 0 };
	int err, rc;

	rc = open_for_moving(o, log, &vol);
	if (rc)
		return rc;
	vi = zf2fs_vol_info(vol);
	/* f2fs-tools' defaults: the main area's start, one segment, next to the range */
	if (!d.have_start)
		d.start = vi->main_blkaddr;
	if (!d.have_len)
		d.len = vi->blocks_per_seg;
	if (!d.have_target)
		d.target = d.left ? d.start - 1 : d.start + d.len;
	r.main_blkaddr = vi->main_blkaddr;
	rc = check_range(&d, vi, &p) ? 1 : 0;
	if (!rc)
		rc = plan_move(vol, &r);
	if (rc)
		goto out;
	zs_progress_pass(o->prog, 1, "moving the range's blocks",
			 p.st.data_blocks + p.st.node_blocks);
	if (!(p.st.data_blocks + p.st.node_blocks)) {
		printf("no valid block in [0x%" PRIx64 ", 0x%" PRIx64 "): nothing to move\n",
		       d.start, d.start + d.len);
		zs_progress_end(o->prog);
		goto out;
	}
	r.dry = false;
	r.pos = d.start;
	r.hook.fault = fault_at();
	r.hook.prog = o->prog;
	p.need_secs = 0;
	err = zf2fs_move_batches(&vol, zs_move_batch_blocks(vol, d.batch_blocks), 0, &range_ops,
				 &r, &st, &res);
	p.batches = res.batches;
	rc = batches_done(log, &r.hook, &res, err, "the range on ", o->dev);
	if (rc)
		goto out;
	p.st = st;
	rc = verify(vol, &d, &p);
	if (!rc)
		zs_progress_end(o->prog);
out:
	free(r.sit);
	if (vol)
		zf2fs_vol_close(vol);
	return rc;
}

/* The lowest run of @need consecutive free sections: its first, or UINT32_MAX. */
static uint32_t free_run(struct zf2fs_vol *vol, const struct zf2fs_sit_entry *sit, uint32_t need)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint32_t len = 0;

	for (uint32_t sec = 0; sec < vi->main_secs && need; sec++) {
		len = sec_free(vol, sit, sec) ? len + 1 : 0;
		if (len == need)
			return sec + 1 - need;
	}
	return UINT32_MAX;
}

/* --file in batches (zf2fs_move_batches): the file's blocks are queued in file order, a
 * batch at a time.  The moved data fill a run of free sections kept for them
 * (zf2fs_move_set_data_target): the cold data log, where moved data go, starts at the
 * run's first block and goes on where each batch left it, so the blocks end up at
 * consecutive addresses; the nodes the moves rewrite go to free sections outside the
 * run.  An interruption leaves the last completed batch's checkpoint: a valid volume,
 * the file intact, its first part moved. */
struct filer {
	struct hook hook;               /* first: hook_count takes the state as its hook */
	const struct opts *o;
	const struct zf2fs_log *log;
	struct zf2fs_vol *vol;          /* the handle the next batch is queued through */
	struct zf2fs_node *inode;       /* read again through each new handle */
	uint32_t ino;
	uint64_t fofs, nfofs;           /* the next file block to queue; the file's end */
	uint32_t logs;                  /* bit per current log holding a block of the file */
	uint32_t run_first, run_end;    /* the sections kept for the data */
	uint64_t total;                 /* blocks the batches move (the dry pass's count) */
	bool dry;
	char why[256];
};

/* Queue the moves of the file's next written blocks, at most @room, in file order. */
static int queue_file_piece(void *arg, struct zf2fs_txn *txn, uint64_t room,
			    struct zf2fs_move_stats *st, bool *done)
{
	struct filer *f = arg;
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(f->vol);
	uint64_t found = 0;

	for (; f->fofs < f->nfofs && found < room; f->fofs++) {
		uint32_t addr;
		int err = zf2fs_file_bmap(f->vol, f->inode, f->fofs, &addr, f->why,
					  sizeof(f->why));

		if (err == -ERANGE) {
			f->fofs = f->nfofs;
			break;
		}
		if (err)
			return err;
		if (addr < vi->main_blkaddr || addr >= vi->main_end)
			continue;   /* a hole or a reserved block */
		err = zf2fs_move_range(txn, addr, 1, st);
		if (err)
			return err;
		/* a current log holding one of the blocks moves on to a section of its own:
		 * counted by the dry pass, for plan_file */
		for (int t = 0; f->dry && t < ZF2FS_NR_CURSEG; t++) {
			uint32_t seg, off;

			zf2fs_vol_curseg(f->vol, t, &seg, &off);
			if (seg == zf2fs_main_segno(vi->main_blkaddr, addr))
				f->logs |= 1u << t;
		}
		found++;
	}
	*done = !found;
	return 0;
}

static int reopen_file(void *arg, struct zf2fs_vol **ret)
{
	struct filer *f = arg;
	int err = zf2fs_vol_open(&f->o->dev, 1, OPEN_FLAGS, f->log, ret);

	f->vol = err ? NULL : *ret;
	if (!err)
		err = zf2fs_inode_read(f->vol, f->ino, f->inode, NULL, f->why, sizeof(f->why));
	return err;
}

static int before_file_batch(void *arg, struct zf2fs_vol *vol, struct zf2fs_txn *txn,
			     const struct zf2fs_move_stats *batch)
{
	struct filer *f = arg;
	int err;

	if (f->dry)
		return 0;
	err = zf2fs_move_set_data_target(txn, f->run_first, f->run_end);
	if (!err)
		hook_arm(&f->hook, vol);
	f->hook.queued = batch->data_blocks + batch->node_blocks;
	return err;
}

static const struct zf2fs_move_batch_ops file_ops = {
	.queue = queue_file_piece, .reopen = reopen_file, .before_commit = before_file_batch,
	.commit_done = hook_count,
};

#define EXIT_SKIPPED 2   /* --file DIR: some files skipped for want of free sections */
#define FILE_NO_ROOM 3   /* run_file: no run of free sections large enough, nothing moved */

/* The dry pass over the file (what the batches hold), then the run for its data: the
 * lowest run of free sections that holds them, with free sections enough outside it for
 * the nodes and the logs that move on.  0, FILE_NO_ROOM or 1 (a one-line error printed). */
static int plan_file(struct filer *f, const char *path, uint64_t blocks)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(f->vol);
	struct zf2fs_move_stats st = { 0 };
	struct zf2fs_sit_entry *sit = NULL;
	uint64_t data_secs, outside_need, per_sec = sec_blocks(vi);
	uint32_t free_secs = 0, unusable = 0;
	int err;

	f->dry = true;
	err = zf2fs_move_batches(&f->vol, zs_move_batch_blocks(f->vol, f->o->batch_blocks),
				 ZF2FS_MOVE_BATCH_DRY, &file_ops, f, &st, NULL);
	if (!err)
		err = zf2fs_vol_load_sit(f->vol, &sit);
	if (err) {
		if (f->why[0])
			fprintf(stderr, PROG ": %s: %s\n", path, f->why);
		else
			say(err, "queueing the blocks of", path);
		free(sit);
		return 1;
	}
	/* the blocks a section holds below its zone's capacity, where the report says */
	if (zf2fs_vol_is_zoned(f->vol) && !zf2fs_vol_zone_unusable(f->vol, &unusable) &&
	    unusable < per_sec)
		per_sec -= unusable;
	/* the cold data log starts the run at its first block; when the data end exactly at
	 * a section's end, one more: a log that a commit fills to its section's end moves on
	 * to a fresh section of its range before the checkpoint records it */
	data_secs = st.data_blocks / per_sec + 1;
	/* the node logs go on from batch to batch in the sections they took: the nodes of
	 * all batches (a direct node counted in each batch that rewrites it) fill sections
	 * one after the other, as many blocks each as the data's, plus a section each of
	 * the three node logs may start */
	outside_need = (uint64_t)__builtin_popcount(f->logs);
	if (st.node_blocks + st.owner_nodes)
		outside_need += (st.node_blocks + st.owner_nodes + per_sec - 1) / per_sec + 3;
	for (uint32_t sec = 0; sec < vi->main_secs; sec++)
		free_secs += sec_free(f->vol, sit, sec);
	f->run_first = data_secs && data_secs <= UINT32_MAX ?
		       free_run(f->vol, sit, (uint32_t)data_secs) : UINT32_MAX;
	free(sit);
	if (f->run_first == UINT32_MAX || free_secs < data_secs + outside_need) {
		fprintf(stderr, PROG ": %s: no run of %" PRIu64 " free sections on %s for its %"
			PRIu64 " blocks with %" PRIu64 " more for the nodes and logs (%u free): "
			"nothing moved\n", path, data_secs, f->o->dev, blocks, outside_need,
			free_secs);
		return FILE_NO_ROOM;
	}
	f->run_end = f->run_first + (uint32_t)data_secs;
	f->total = st.data_blocks + st.node_blocks;
	f->dry = false;
	f->fofs = 0;
	return 0;
}

static int run_dir(const struct opts *o, const struct zf2fs_log *log, struct zf2fs_vol *vol,
		   uint32_t ino, const char *path);
static int run_file(const struct opts *o, const struct zf2fs_log *log, const char *path,
		    bool listed);

/* A compressed file puts a cluster's marker, and holes for the blocks compression saved,
 * between its stored blocks, and each of those ends an extent (zf2fs_file_extents): such
 * a file is as contiguous as it gets when its stored blocks below its end lie at
 * consecutive addresses in file order.  stored_runs counts their runs in one walk. */
struct stored {
	uint64_t end;                   /* the file's end in blocks (what --file moves) */
	uint64_t main_lo, main_hi;      /* the main area: other addresses are not stored */
	uint32_t last;
	uint64_t runs;
};

static int stored_block(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
			uint32_t ofs_in_node)
{
	struct stored *s = arg;

	(void)owner;
	(void)ofs_in_node;
	if (fofs >= s->end || blkaddr < s->main_lo || blkaddr >= s->main_hi)
		return 0;   /* past the end, a marker or a reserved block */
	if (!s->runs || blkaddr != s->last + 1)
		s->runs++;
	s->last = blkaddr;
	return 0;
}

static int stored_runs(const struct filer *f, uint64_t *ret)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(f->vol);
	const struct zf2fs_walk_ops ops = { .data = stored_block };
	struct stored s = { .end = f->nfofs, .main_lo = vi->main_blkaddr,
			    .main_hi = vi->main_end };
	int err = zf2fs_file_walk(f->vol, f->inode, &ops, &s);

	*ret = s.runs;
	return err;
}

/* --file PATH: the file's blocks moved, in file order and in batches, into the lowest
 * run of free sections that holds them (plan_file); a directory: every regular file
 * below it (run_dir).  0 (done, or contiguous already), 1 (an error or a refusal, one
 * line printed) or FILE_NO_ROOM. */
static int run_file(const struct opts *o, const struct zf2fs_log *log, const char *path,
		    bool listed)
{
	struct filer f = { .o = o, .log = log };
	struct zf2fs_file_extents before, after;
	struct zf2fs_move_stats st = { 0 };
	struct zf2fs_move_batch_result res = { 0 };
	uint64_t bs, was, now;
	bool compr;
	int err, rc;

	/* a node block of the volume's size, read again through each new handle */
	f.inode = malloc(ZF2FS_BLKSIZE_MAX);
	rc = f.inode ? open_for_moving(o, log, &f.vol) : say(-ENOMEM, "starting on", o->dev);
	if (rc) {
		free(f.inode);
		return rc;
	}
	err = zf2fs_path_lookup(f.vol, path, 0, &f.ino, f.why, sizeof(f.why));
	if (!err)
		err = zf2fs_inode_read(f.vol, f.ino, f.inode, NULL, f.why, sizeof(f.why));
	if (err) {
		fprintf(stderr, PROG ": %s: %s\n", path, f.why[0] ? f.why : strerror(-err));
		goto fail;
	}
	/* a listed path is a regular file by its entry: an inode saying otherwise is damage,
	 * not a directory to walk again */
	if (zf2fs_inode_type(&f.inode->i) == ZF2FS_S_IFDIR && !listed) {
		free(f.inode);
		return run_dir(o, log, f.vol, f.ino, path);
	}
	if (zf2fs_inode_type(&f.inode->i) != ZF2FS_S_IFREG) {
		fprintf(stderr, PROG ": %s is not a regular file or a directory\n", path);
		goto fail;
	}
	err = zf2fs_file_extents(f.vol, f.inode, &before);
	if (!err && (before.damaged || before.outside))
		err = -ZF2FS_EFSCORRUPTED;
	if (err) {
		say(err, "mapping the blocks of", path);
		goto fail;
	}
	bs = zf2fs_vol_geom(f.vol)->blocksize;
	f.nfofs = (zf2fs_get(f.inode->i.i_size) + bs - 1) / bs;
	compr = zf2fs_get(f.inode->i.i_flags) & ZF2FS_COMPR_FL;
	was = before.extents;
	if (compr && (err = stored_runs(&f, &was))) {
		say(err, "mapping the blocks of", path);
		goto fail;
	}
	if (was <= 1) {
		if (!listed) {
			zs_progress_pass(o->prog, 1, "moving the file's blocks", 0);
			zs_progress_end(o->prog);
		}
		if (compr)
			printf("%s: %" PRIu64 " blocks of a compressed file, stored in file order: "
			       "already contiguous\n", path, before.blocks);
		else
			printf("%s: %" PRIu64 " blocks in %" PRIu64 " extent: already contiguous\n",
			       path, before.blocks, before.extents);
		goto done;
	}
	rc = plan_file(&f, path, before.blocks);
	if (rc)
		goto fail;
	f.hook.fault = fault_at();
	if (!listed) {
		zs_progress_pass(o->prog, 1, "moving the file's blocks", f.total);
		f.hook.prog = o->prog;
	}
	err = zf2fs_move_batches(&f.vol, zs_move_batch_blocks(f.vol, o->batch_blocks), 0,
				 &file_ops, &f, &st, &res);
	rc = batches_done(log, &f.hook, &res, err, "", path);
	if (rc)
		goto fail;
	/* the loop left the volume opened again, the inode read again through it */
	err = zf2fs_file_extents(f.vol, f.inode, &after);
	now = after.extents;
	if (!err && compr)
		err = stored_runs(&f, &now);
	if (err) {
		say(err, "mapping again the blocks of", path);
		goto fail;
	}
	printf("%s: %" PRIu64 " blocks%s: %" PRIu64 " %s before, %" PRIu64 " after "
	       "(sections %u-%u, %u checkpoint%s)\n", path, before.blocks,
	       compr ? " of a compressed file" : "", was, compr ? "runs" : "extents", now,
	       f.run_first, f.run_end - 1, res.batches, res.batches == 1 ? "" : "s");
	if (now > 1) {
		fprintf(stderr, PROG ": %s is still in %" PRIu64 " %s\n", path, now,
			compr ? "runs of stored blocks" : "extents");
		goto fail;
	}
	if (!listed)
		zs_progress_end(o->prog);
done:
	zf2fs_vol_close(f.vol);
	free(f.inode);
	return 0;
fail:
	if (f.vol)
		zf2fs_vol_close(f.vol);
	free(f.inode);
	return rc ? rc : 1;
}

/* --file DIR: the regular files below @ino listed first (the volume @vol, closed here),
 * then each made contiguous in a checkpoint of its own.  A file without a run of free
 * sections large enough is named and skipped; any other failure stops.  0 every file is
 * contiguous now, EXIT_SKIPPED some were skipped, 1 an error. */
static int run_dir(const struct opts *o, const struct zf2fs_log *log, struct zf2fs_vol *vol,
		   uint32_t ino, const char *path)
{
	char **paths = NULL, why[256] = "";
	size_t n = 0, skipped = 0, i;
	int err = defrag_list_files(vol, ino, path, &paths, &n, why, sizeof(why)), rc = 0;

	zf2fs_vol_close(vol);
	if (err) {
		if (why[0])
			fprintf(stderr, PROG ": %s while listing %s: %s\n", strerror(-err), path, why);
		else
			say(err, "listing the files below", path);
		return 1;
	}
	zs_progress_pass(o->prog, 1, "files", n);
	for (i = 0; i < n && rc != 1; i++) {
		rc = run_file(o, log, paths[i], true);
		skipped += rc == FILE_NO_ROOM;
		zs_progress_set(o->prog, i + 1);
	}
	if (rc != 1)
		zs_progress_end(o->prog);
	printf("%s: %zu regular file%s, %zu skipped for want of free sections%s\n", path, n,
	       n == 1 ? "" : "s", skipped, rc == 1 && i < n ? ", stopped by the error above" : "");
	defrag_free_paths(paths, n);
	if (rc == 1)
		return 1;
	return skipped ? EXIT_SKIPPED : 0;
}

/* One run on @dev (the device, or -S's raw copy of it). */
struct job {
	struct opts *o;
	const struct zf2fs_log *log;
	const char *file;
	int progress_fd;
	bool progress_bar;
};

static int job_run(const char *dev, void *arg)
{
	struct job *j = arg;
	int c;

	/* the lines name the device as given, not -S's raw copy */
	zs_progress_init(j->o->prog, j->progress_fd, j->progress_bar, j->o->dev, 1);
	j->o->dev = dev;
	if (j->file) {
		c = run_file(j->o, j->log, j->file, false);
		c = c == FILE_NO_ROOM ? 1 : c;
	} else {
		c = run(j->o, j->log);
	}
	zs_progress_close(j->o->prog);
	return c;
}

int main(int argc, char **argv)
{
	enum { OPT_FILE = 256, OPT_BATCH, OPT_PROGRESS, OPT_PROGRESS_FD };
	static const struct option opts[] = {
		{ "start", required_argument, NULL, 's' },
		{ "length", required_argument, NULL, 'l' },
		{ "target", required_argument, NULL, 't' },
		{ "left", no_argument, NULL, 'i' },
		{ "debug", required_argument, NULL, 'd' },
		{ "sparse", no_argument, NULL, 'S' },
		{ "file", required_argument, NULL, OPT_FILE },
		{ "batch-blocks", required_argument, NULL, OPT_BATCH },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "progress-fd", required_argument, NULL, OPT_PROGRESS_FD },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { 0 };   /* batch_blocks 0: zs_move_batch_blocks's default */
	struct zf2fs_log log = { .level = 0, .fn = zs_cli_log, .arg = (void *)PROG };
	struct zs_progress prog;
	const char *file = NULL;
	bool sparse = false, progress_bar = false;
	int c, progress_fd = -1;

	while ((c = getopt_long(argc, argv, "s:l:t:id:SHhV", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o.start = zs_parse_u64(PROG, optarg, "start", 0, UINT32_MAX);
			o.have_start = true;
			break;
		case 'l':
			o.len = zs_parse_u64(PROG, optarg, "length", 1, UINT32_MAX);
			o.have_len = true;
			break;
		case 't':
			o.target = zs_parse_u64(PROG, optarg, "target", 0, UINT32_MAX);
			o.have_target = true;
			break;
		case 'i':
			o.left = true;
			break;
		case 'd':
			o.level = (int)zs_parse_u64(PROG, optarg, "debug level", 0, INT32_MAX);
			if (o.level > 3)
				o.level = 3;
			break;
		case 'S':
			sparse = true;
			break;
		case 'H':
			break;
		case OPT_FILE:
			file = optarg;
			break;
		case OPT_BATCH:
			o.batch_blocks = zs_parse_u64(PROG, optarg, "batch blocks", 1, UINT32_MAX);
			o.have_batch = true;
			break;
		case OPT_PROGRESS:
			progress_bar = true;
			break;
		case OPT_PROGRESS_FD:
			progress_fd = zs_progress_fd_arg(PROG, optarg);
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
	o.dev = argv[optind];
	log.level = o.level;
	if (file && (o.have_start || o.have_len || o.have_target || o.left))
		zs_usage_error(PROG, "--file takes none of -s, -l, -t, -i");
	{
		struct job j = { .o = &o, .log = &log, .file = file, .progress_fd = progress_fd,
				 .progress_bar = progress_bar };

		o.prog = &prog;

		return sparse ? zs_simg_run(PROG, o.dev, job_run, &j) : job_run(o.dev, &j);
	}
}
