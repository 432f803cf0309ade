// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simulate.c - the GC simulator: a workload's writes on a GC model, block by block.
 *
 * State kept on top of the model (model.c): a logical-to-physical map and its
 * inverse over the main area, so that an overwrite invalidates the right segment and a
 * GC move knows whose block it carries.  Logical blocks are, in order: blocks valid in
 * the model at the start (existing data: never overwritten, only moved), the files'
 * data blocks, and the files' node blocks (inode, direct nodes, indirect nodes).
 *
 * What the kernel does and the simulator follows (Linux 6.1, mode=lfs; adaptive below):
 * - data goes out of place to the warm data log; the file's inode or direct node page
 *   is dirtied (and the inode for the new mtime); synchronous writes write those node
 *   pages at once (warm node log), buffered ones at the next checkpoint;
 * - after every operation f2fs_balance_fs: when free sections are short (reserved
 *   sections plus what the dirty node pages need, gc_not_enough_free), a checkpoint if
 *   there are prefree segments, then foreground GC (zf2fs_gc_call, the same selection
 *   as replay) until enough sections are free;
 * - GC moves data to the cold data log and dirties the data's node pages; node blocks
 *   move to their own log;
 * - a checkpoint writes the dirty node pages, the checkpoint pack, dirty SIT and NAT
 *   blocks (journalled in the pack when few), then prefree segments become free;
 * - a periodic checkpoint every cp_interval seconds of fs time;
 * - fallocated files (cfg.fallocate): only their node pages are written at the fill, a
 *   data block takes space at its first write, which invalidates nothing.
 * mode=adaptive (f2fs_need_SSR, get_ssr_segment, change_curseg, the ipu_policy):
 * - overwrites in place by the policy (force on volumes of 8192 segments or fewer, else
 *   O_SYNC writes of 8 blocks or fewer): same address, no node page changes;
 * - when free sections fall to 2 x reserved + dirty node sections, a full log (an LFS
 *   one only when its section has no next free segment) takes a dirty segment of its
 *   own type, else of the other temperatures of its kind, chosen greedy on checkpointed
 *   valid blocks in the max_victim_search window from the greedy cursor (the scan of
 *   select.c, or the same answer from per-type trees here), and writes into the
 *   blocks neither valid nor valid at the last checkpoint (LID_STALE marks those freed
 *   since; the checkpoint releases them); GC's moves allocate the same way.
 * Not modelled: the page cache absorbing rewrites of a block before writeback (writes
 * reach the device at once), directory blocks, dirty data pages in the free-section rule.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "format/why_p.h"
#include "gc/simulate_p.h"
#include "zf2fs-internal/gc.h"
#include "format/abi_v10_p.h"

/* A reason in words for a configuration the simulator cannot set up: -EINVAL. */
#define say(why, len, ...) zf2fs_set_why(why, len, -EINVAL, __VA_ARGS__)

/* ---- small helpers ---------------------------------------------------------------- */
/*
 * The block maps: on a big volume each GC move and each overwrite touches them at a random
 * place, so with 4 KiB pages nearly every access also misses the TLB.  Aligned to 2 MiB and
 * offered to transparent huge pages (madvise mode); plain memory where that is refused.
 */
static void *map_alloc(size_t bytes)
{
	const size_t huge = 2u << 20;
	void *p;

	if (bytes < huge)
		return malloc(bytes);
	if (posix_memalign(&p, huge, (bytes + huge - 1) / huge * huge))
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, (bytes + huge - 1) / huge * huge, MADV_HUGEPAGE);
#endif
	return p;
}

static uint64_t rnd(struct zf2fs_gc_sim *s)
{
	uint64_t z = (s->rng += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint64_t rnd_below(struct zf2fs_gc_sim *s, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rnd(s) * n) >> 64);
}

static double rnd_unit(struct zf2fs_gc_sim *s)
{
	return (double)(rnd(s) >> 11) * (1.0 / 9007199254740992.0);
}

static int bucket_of(double us)
{
	int b;

	if (us < 1.0)
		return 0;
	b = 1 + (int)(log(us) / log(HIST_STEP));
	return b < HIST_BUCKETS ? b : HIST_BUCKETS - 1;
}

static double bucket_value(int b)
{
	return b ? pow(HIST_STEP, b - 1) : 0.0;
}

static void hist_add(struct hist *h, int b, double us)
{
	h->n[b]++;
	h->count++;
	if (us > h->max)
		h->max = us;
}

static double hist_pct(const struct hist *h, double pct)
{
	uint64_t want, acc = 0;

	if (!h->count)
		return 0;
	want = (uint64_t)ceil((double)h->count * pct / 100.0);
	if (!want)
		want = 1;
	for (int b = 0; b < HIST_BUCKETS; b++) {
		acc += h->n[b];
		if (acc >= want) {
			double v = bucket_value(b);

			return v < h->max ? v : h->max;
		}
	}
	return h->max;
}

/* ---- bookkeeping of what a checkpoint writes ------------------------------------- */
static void sit_touch(struct zf2fs_gc_sim *s, uint32_t seg)
{
	if (s->sit_seg[seg])
		return;
	s->sit_seg[seg] = 1;
	s->sit_list[s->nsit_list++] = seg;
	if (!s->sit_blk[seg / SIT_ENTRIES_BLK(&s->g)]) {
		s->sit_blk[seg / SIT_ENTRIES_BLK(&s->g)] = 1;
		s->nsit_blk++;
	}
}

static void nat_touch(struct zf2fs_gc_sim *s, uint64_t node)
{
	if (s->node_fl[node] & ND_NAT)
		return;
	s->node_fl[node] |= ND_NAT;
	s->nat_list[s->nnat_list++] = (uint32_t)node;
	if (!s->nat_blk[node / NAT_ENTRIES_BLK(&s->g)]) {
		s->nat_blk[node / NAT_ENTRIES_BLK(&s->g)] = 1;
		s->nnat_blk++;
	}
}

static void mark_stale(struct zf2fs_gc_sim *s, uint32_t secno)
{
	if (!s->stale[secno]) {
		s->stale[secno] = 1;
		s->stale_list[s->nstale++] = secno;
	}
}

static void flush_stale(struct zf2fs_gc_sim *s)
{
	for (uint32_t i = 0; i < s->nstale; i++) {
		s->stale[s->stale_list[i]] = 0;
		gc_refresh_sec(s->m, s->stale_list[i]);
	}
	s->nstale = 0;
}

/* adaptive: block @blk no longer valid, but SSR may not reuse it before a checkpoint */
static void hold_block(struct zf2fs_gc_sim *s, uint32_t blk)
{
	s->p2l[blk] = LID_STALE;
	if (s->nheld == s->maxheld) {
		/* grows rarely; a block is held at most once per checkpoint (SSR skips held
		 * blocks, LFS takes only free segments, which hold none): nblocks at most */
		uint64_t n = s->maxheld ? 2ull * s->maxheld : 65536;
		uint32_t *v;

		if (n > s->nblocks)
			n = s->nblocks;
		v = realloc(s->held, (size_t)n * sizeof(*v));

		if (!v) {
			s->err = -ENOMEM;   /* the run stops at the end of the operation */
			return;
		}
		s->held = v;
		s->maxheld = (uint32_t)n;
	}
	s->held[s->nheld++] = blk;
}

static void node_dirty(struct zf2fs_gc_sim *s, uint64_t node)
{
	if (s->node_fl[node] & ND_DIRTY)
		return;
	s->node_fl[node] |= ND_DIRTY;
	s->ndirty++;
	if (!(s->node_fl[node] & ND_LISTED)) {
		s->node_fl[node] |= ND_LISTED;
		s->dirty_list[s->nlisted++] = (uint32_t)node;
	}
	s->m->dirty_node = s->ndirty;
}

/* ---- block writes ------------------------------------------------------------------ */
static void invalidate(struct zf2fs_gc_sim *s, uint32_t blk)
{
	struct zf2fs_gc_model *m = s->m;
	uint32_t seg = blk >> m->log_bps;

	if (s->adaptive)
		hold_block(s, blk);
	else
		s->p2l[blk] = LID_NONE;
	gc_invalidate(m, seg, s->now);
	mark_stale(s, seg / m->sps);
	sit_touch(s, seg);
	ssr_touch(s, seg);
}

/* Write logical block @lid to log @l; -ENOSPC when no free section is left. */
static int put_block(struct zf2fs_gc_sim *s, uint64_t lid, int l)
{
	uint32_t old = s->l2p[lid];
	int64_t blk;

	if (old != LID_NONE)
		invalidate(s, old);
	/* a log always has room on entry: its segment now is where the block goes */
	if (s->m->ssr[l])
		s->st[s->phase].ssr_blocks++;
	blk = gc_log_append(s->m, l, s->now);
	if (blk < 0) {
		s->l2p[lid] = LID_NONE;
		return (int)blk;
	}
	s->p2l[blk] = (uint32_t)lid;
	s->l2p[lid] = (uint32_t)blk;
	sit_touch(s, (uint32_t)(blk >> s->m->log_bps));
	ssr_touch(s, (uint32_t)(blk >> s->m->log_bps));
	return 0;
}

static int node_log(const struct zf2fs_gc_sim *s, uint64_t node)
{
	uint32_t k = (uint32_t)(node % s->npf);
	uint32_t ndn = s->fblocks > ADDRS_INODE(&s->g) ?
		(s->fblocks - ADDRS_INODE(&s->g) + ADDRS_NODE(&s->g) - 1) / ADDRS_NODE(&s->g) : 0;

	return k <= ndn ? ZF2FS_LOG_WARM_NODE : ZF2FS_LOG_COLD_NODE;
}

static int write_node(struct zf2fs_gc_sim *s, uint64_t node)
{
	struct zf2fs_gc_sim_stats *st = &s->st[s->phase];
	int err;

	if (s->node_fl[node] & ND_DIRTY) {
		s->node_fl[node] &= (uint8_t)~ND_DIRTY;   /* the list entry goes stale */
		s->m->dirty_node = --s->ndirty;
	}
	err = put_block(s, s->node_base + node, node_log(s, node));
	if (err)
		return err;
	nat_touch(s, node);
	st->node_blocks++;
	return 0;
}

/* The direct node (0 = the inode) holding file block @b. */
static uint32_t dnode_of(const struct zf2fs_geom *g, uint32_t b)
{
	return b < ADDRS_INODE(g) ? 0 : 1 + (b - ADDRS_INODE(g)) / ADDRS_NODE(g);
}

/* ---- checkpoint -------------------------------------------------------------------- */
static void cp_hook(void *arg)
{
	struct zf2fs_gc_sim *s = arg;
	struct zf2fs_gc_sim_stats *st = &s->st[s->phase];
	uint64_t n = s->nlisted;

	/* dirty node pages first (block_operations) */
	for (uint64_t i = 0; i < n; i++) {
		uint32_t node = s->dirty_list[i];

		s->node_fl[node] &= (uint8_t)~ND_LISTED;
		if (!(s->node_fl[node] & ND_DIRTY))
			continue;
		s->node_fl[node] &= (uint8_t)~ND_DIRTY;
		if (put_block(s, s->node_base + node, node_log(s, node)))
			continue;     /* out of space: the run reports it at the next write */
		nat_touch(s, node);
		st->node_blocks++;
	}
	s->nlisted = 0;
	s->ndirty = 0;
	s->m->dirty_node = 0;
	st->meta_blocks += CP_PACK_BLOCKS;
	if (s->nnat_list > NAT_JOURNAL(&s->g))
		st->meta_blocks += s->nnat_blk;
	if (s->nsit_list > SIT_JOURNAL(&s->g))
		st->meta_blocks += s->nsit_blk;
	for (uint64_t i = 0; i < s->nnat_list; i++) {
		s->node_fl[s->nat_list[i]] &= (uint8_t)~ND_NAT;
		s->nat_blk[s->nat_list[i] / NAT_ENTRIES_BLK(&s->g)] = 0;
	}
	/* the new checkpoint's validity maps: blocks invalid now become reusable by SSR, and
	 * the segments' SSR cost (checkpointed valid blocks) changes */
	for (uint32_t i = 0; i < s->nheld; i++)
		s->p2l[s->held[i]] = LID_NONE;
	s->nheld = 0;
	for (uint64_t i = 0; s->adaptive && i < s->nsit_list; i++)
		ssr_touch(s, s->sit_list[i]);
	for (uint64_t i = 0; i < s->nsit_list; i++) {
		s->sit_seg[s->sit_list[i]] = 0;
		s->sit_blk[s->sit_list[i] / SIT_ENTRIES_BLK(&s->g)] = 0;
	}
	s->nnat_list = s->nnat_blk = s->nsit_list = s->nsit_blk = 0;
	st->checkpoints++;
	flush_stale(s);
}

/* ---- GC moves ---------------------------------------------------------------------- */
static void move_hook(void *arg, uint32_t src, uint32_t dst)
{
	struct zf2fs_gc_sim *s = arg;
	struct zf2fs_gc_sim_stats *st = &s->st[s->phase];
	uint32_t base = src << s->m->log_bps, lid;

	if (src != s->mv_seg) {
		s->mv_seg = src;
		s->mv_off = 0;
	}
	for (;;) {
		if (s->mv_off >= s->m->bps)
			s->mv_off = 0;
		if (s->p2l[base + s->mv_off] < LID_STALE)
			break;
		s->mv_off++;
	}
	lid = s->p2l[base + s->mv_off];
	if (s->adaptive)
		hold_block(s, base + s->mv_off);
	else
		s->p2l[base + s->mv_off] = LID_NONE;
	s->mv_off++;
	s->p2l[dst] = lid;
	s->l2p[lid] = dst;
	for (int l = 0; s->adaptive && l < GC_NR_LOGS; l++)
		if (s->m->ssr[l] && s->m->cur_seg[l] == dst >> s->m->log_bps)
			st->ssr_blocks++;
	sit_touch(s, src);
	sit_touch(s, dst >> s->m->log_bps);
	ssr_touch(s, src);
	ssr_touch(s, dst >> s->m->log_bps);
	if (lid >= s->node_base) {
		uint64_t node = lid - s->node_base;

		if (s->node_fl[node] & ND_DIRTY) {   /* moving it writes it */
			s->node_fl[node] &= (uint8_t)~ND_DIRTY;
			s->ndirty--;
		}
		nat_touch(s, node);
		st->gc_node_blocks++;
	} else if (lid >= s->data_base) {
		uint64_t d = lid - s->data_base;

		node_dirty(s, d / s->fblocks * s->npf + dnode_of(&s->g, (uint32_t)(d % s->fblocks)));
		st->gc_data_blocks++;
	} else {
		int t = gc_seg(s->m, src)->type;

		if (t >= ZF2FS_LOG_HOT_NODE && t <= ZF2FS_LOG_COLD_NODE)
			st->gc_node_blocks++;
		else
			st->gc_data_blocks++;
	}
	s->m->dirty_node = s->ndirty;
}

/*
 * @n blocks at once (the model's bulk path, one destination segment): the source's next
 * valid blocks are gathered first with their l2p entries prefetched, since on a big
 * volume each one is a cache miss and a victim section of 64 MiB has up to 16384 of
 * them; then the entries are written.  Same result as @n calls of move_hook.
 */
static void move_run_hook(void *arg, uint32_t src, uint32_t dst, uint32_t n)
{
	struct zf2fs_gc_sim *s = arg;
	struct zf2fs_gc_sim_stats *st = &s->st[s->phase];
	uint32_t base = src << s->m->log_bps, off, lids[1u << 9];
	uint64_t gc_node = 0, gc_data = 0;

	if (src != s->mv_seg) {
		s->mv_seg = src;
		s->mv_off = 0;
	}
	off = s->mv_off;
	for (uint32_t i = 0; i < n; i++) {
		for (;;) {
			if (off >= s->m->bps)
				off = 0;
			if (s->p2l[base + off] < LID_STALE)
				break;
			off++;
		}
		lids[i] = s->p2l[base + off];
		__builtin_prefetch(&s->l2p[lids[i]], 1);
		if (s->adaptive)
			hold_block(s, base + off);
		else
			s->p2l[base + off] = LID_NONE;
		off++;
	}
	s->mv_off = off;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t lid = lids[i];

		s->p2l[dst + i] = lid;
		s->l2p[lid] = dst + i;
		if (lid >= s->node_base) {
			uint64_t node = lid - s->node_base;

			if (s->node_fl[node] & ND_DIRTY) {   /* moving it writes it */
				s->node_fl[node] &= (uint8_t)~ND_DIRTY;
				s->ndirty--;
			}
			nat_touch(s, node);
			gc_node++;
		} else if (lid >= s->data_base) {
			uint64_t d = lid - s->data_base;

			node_dirty(s, d / s->fblocks * s->npf + dnode_of(&s->g, (uint32_t)(d % s->fblocks)));
			gc_data++;
		} else {
			int t = gc_seg(s->m, src)->type;

			if (t >= ZF2FS_LOG_HOT_NODE && t <= ZF2FS_LOG_COLD_NODE)
				gc_node++;
			else
				gc_data++;
		}
	}
	st->gc_node_blocks += gc_node;
	st->gc_data_blocks += gc_data;
	sit_touch(s, src);
	sit_touch(s, dst >> s->m->log_bps);
	ssr_touch(s, src);
	ssr_touch(s, dst >> s->m->log_bps);
	s->m->dirty_node = s->ndirty;
}

static uint64_t moved(const struct zf2fs_gc_sim_stats *st)
{
	return st->gc_data_blocks + st->gc_node_blocks;
}

/* f2fs_balance_fs after an operation: returns the stall in microseconds, or -ENOSPC. */
static double balance(struct zf2fs_gc_sim *s, int *ret_err)
{
	struct zf2fs_gc_model *m = s->m;
	struct zf2fs_gc_sim_stats *st = &s->st[s->phase];
	struct zf2fs_gc_params p = s->cfg.fg;
	struct zf2fs_gc_victim v[64];
	uint64_t mv0 = moved(st), cp0 = st->checkpoints;
	uint32_t budget = s->cfg.max_secs_per_cycle;
	bool ran = false;

	*ret_err = 0;
	/* cheap test first: the rule cannot fire while free sections exceed every bound */
	if ((uint64_t)m->free_secs > m->reserved_secs + 2 + s->ndirty / m->cap)
		return 0;
	flush_stale(s);
	if (!gc_not_enough_free(m, !s->adaptive, 0))
		return 0;
	p.gc_type = ZF2FS_GC_BG;
	p.lfs_mode = !s->adaptive;
	p.now = s->now ? s->now : 1;
	for (;;) {
		unsigned n = 0, max = 64;
		int err;

		/* f2fs_gc from f2fs_balance_fs: a checkpoint first when it frees sections;
		 * no background GC (no_bg_gc) when that was enough */
		if (m->prefree_segs)
			zf2fs_gc_checkpoint(m);
		if (!gc_not_enough_free(m, !s->adaptive, 0))
			break;
		if (budget && budget < max)
			max = budget;
		s->mv_seg = GC_NULL;
		err = zf2fs_gc_call(m, &p, v, max, &n);
		for (unsigned i = 0; i < n; i++) {
			if (v[i].gc_type == ZF2FS_GC_FG)
				st->fg_sections++;
			else
				st->bg_sections++;
		}
		ran = ran || n;
		if (err && err != -ENODATA) {
			*ret_err = err;
			break;
		}
		if (err || n < max)
			break;
		if (budget) {
			budget -= n;
			if (!budget)
				break;
		}
	}
	s->mv_seg = GC_NULL;     /* no section is being emptied any more (SSR may take it) */
	flush_stale(s);
	if (ran)
		st->fg_cycles++;
	if (moved(st) - mv0 > st->max_cycle_blocks)
		st->max_cycle_blocks = (double)(moved(st) - mv0);
	return (double)(moved(st) - mv0) * s->cfg.move_cost_us +
	       (double)(st->checkpoints - cp0) * s->cfg.cp_cost_us;
}

/* one background GC pass: a victim by the background policy, moved at writeback */
static int background(struct zf2fs_gc_sim *s)
{
	struct zf2fs_gc_params p = s->cfg.fg;
	struct zf2fs_gc_victim v;
	int err;

	flush_stale(s);
	if (gc_not_enough_free(s->m, !s->adaptive, 0))
		return 0;          /* foreground GC's business */
	p.gc_type = ZF2FS_GC_BG;
	p.policy = s->cfg.bg_policy;
	err = zf2fs_gc_select(s->m, &p, &v);
	if (err)
		return err == -ENODATA ? 0 : err;
	s->mv_seg = GC_NULL;
	err = gc_collect_fg_from(s->m, v.secno, v.segno % s->m->sps, s->now ? s->now : 1);
	if (err < 0)
		return err;
	s->mv_seg = GC_NULL;
	s->st[s->phase].bg_sections++;
	flush_stale(s);
	return 0;
}

/* the fs clock: @blocks more host blocks; periodic checkpoint and background GC */
static int advance(struct zf2fs_gc_sim *s, uint32_t blocks)
{
	s->tick += blocks;
	while (s->tick >= s->cfg.rate) {
		s->tick -= s->cfg.rate;
		s->now++;
		if (s->cfg.cp_interval && s->now >= s->next_cp) {
			s->next_cp = s->now + s->cfg.cp_interval;
			zf2fs_gc_checkpoint(s->m);
		}
		if (s->cfg.bg_interval && s->now >= s->next_bg) {
			int err = background(s);

			s->next_bg = s->now + s->cfg.bg_interval;
			if (err)
				return err;
		}
	}
	return 0;
}

/* ---- the workload ------------------------------------------------------------------ */
static int write_op(struct zf2fs_gc_sim *s, struct stream_rt *r, uint64_t f, uint32_t b0,
		    uint32_t n, bool sync, double base_us, int base_bucket)
{
	struct zf2fs_gc_sim_stats *st = &s->st[s->phase];
	uint64_t d = s->data_base + f * s->fblocks + b0;
	uint64_t node0 = f * s->npf, dev0 = st->data_blocks + st->node_blocks;
	uint32_t last = UINT32_MAX, opu = 0;
	bool ipu = s->ipu_all || (sync && n <= MIN_FSYNC_BLOCKS && s->ipu_fsync);
	double stall;
	int err;

	(void)r;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = dnode_of(&s->g, b0 + i);

		/* in place: same address, so no node page changes for it */
		if (ipu && s->l2p[d + i] != LID_NONE) {
			st->ipu_blocks++;
			continue;
		}
		opu++;
		err = put_block(s, d + i, ZF2FS_LOG_WARM_DATA);
		if (err)
			return err;
		if (k != last) {
			if (sync && k) {
				err = write_node(s, node0 + k);
				if (err)
					return err;
			} else if (!sync) {
				node_dirty(s, node0 + k);
			}
			last = k;
		}
	}
	/* the inode: new mtime (and the addresses when block 0..922 were written) */
	if (sync) {
		err = write_node(s, node0);
		if (err)
			return err;
	} else if (opu) {       /* lazytime: a new mtime alone does not dirty the inode */
		node_dirty(s, node0);
	}
	st->ops++;
	st->host_blocks += n;
	st->data_blocks += n;
	err = advance(s, n);
	if (err)
		return err;
	stall = balance(s, &err);
	if (err)
		return err;
	if (s->err)
		return s->err;
	if (stall > 0 || sync) {
		double us = base_us + (double)(st->data_blocks + st->node_blocks - dev0 - n) *
			    s->cfg.write_cost_us + stall;
		int bk = bucket_of(us);

		hist_add(&s->lat[s->phase], bk, us);
		hist_add(&s->win, bk, us);
		if (stall > 0) {
			st->stalled_ops++;
			st->gc_seconds += stall / 1e6;
			hist_add(&s->stall[s->phase], bucket_of(stall), stall);
		}
	} else {
		hist_add(&s->lat[s->phase], base_bucket, base_us);
		hist_add(&s->win, base_bucket, base_us);
	}
	return 0;
}

static int fill(struct zf2fs_gc_sim *s)
{
	double us = s->cfg.write_cost_us;
	int err;

	s->phase = 0;
	for (uint64_t f = 0; f < s->nfiles; f++) {
		uint64_t node0 = f * s->npf;

		__atomic_store_n(&s->prog_done, f, __ATOMIC_RELAXED);

		/* the file's data (buffered), then its node pages as writeback sends them;
		 * fallocate writes the node pages only (f2fs_map_blocks, PRE_AIO: the
		 * addresses become NEW_ADDR, no data block is allocated) */
		for (uint32_t b = 0; !s->cfg.fallocate && b < s->fblocks;) {
			uint32_t n = s->fblocks - b < 256 ? s->fblocks - b : 256;

			err = write_op(s, NULL, f, b, n, false, us * n, bucket_of(us * n));
			if (err)
				return err;
			b += n;
		}
		for (uint32_t k = 0; k < s->npf; k++) {
			err = write_node(s, node0 + k);
			if (err)
				return err;
		}
	}
	/* the fill ends with sync: a checkpoint */
	zf2fs_gc_checkpoint(s->m);
	flush_stale(s);
	s->st[0].free_secs = s->m->free_secs;
	return 0;
}

static uint64_t zipf_next(struct zf2fs_gc_sim *s, struct stream_rt *r)
{
	double u = rnd_unit(s), uz = u * r->zeta_n;
	uint64_t v;

	if (uz < 1.0)
		return 0;
	if (uz < 1.0 + r->zipf_half)
		return 1 < r->nunits ? 1 : 0;
	v = (uint64_t)((double)r->nunits * pow(r->zipf_eta * u - r->zipf_eta + 1.0, r->zipf_alpha));
	return v < r->nunits ? v : r->nunits - 1;
}

static void sample(struct zf2fs_gc_sim *s)
{
	const struct zf2fs_gc_sim_stats *st = &s->st[1];
	struct zf2fs_gc_sim_sample *x;
	uint64_t dev = st->data_blocks + st->node_blocks + moved(st) + st->meta_blocks;

	if (s->nsamples >= s->maxsamples)
		return;
	x = &s->samples[s->nsamples++];
	x->ops = st->ops;
	x->host_blocks = st->host_blocks;
	x->device_blocks = dev;
	x->waf = st->host_blocks ? (double)dev / (double)st->host_blocks : 0;
	x->interval_waf = st->host_blocks > s->win_host ?
		(double)(dev - s->win_dev) / (double)(st->host_blocks - s->win_host) : 0;
	x->p99_us = hist_pct(&s->win, 99);
	x->max_us = s->win.max;
	x->free_secs = s->m->free_secs;
	s->win_host = st->host_blocks;
	s->win_dev = dev;
	memset(&s->win, 0, sizeof(s->win));
}

/* One write operation of the workload: stream, file, first block. */
struct op {
	struct stream_rt *r;
	uint64_t f;
	uint32_t b0;
};

static void next_op(struct zf2fs_gc_sim *s, struct op *o)
{
	struct stream_rt *r = &s->sr[0];
	uint64_t u, f;

	if (s->nstreams > 1) {
		uint64_t w = rnd_below(s, s->weight_total);

		for (unsigned k = 0; k < s->nstreams; k++) {
			if (w < s->sr[k].s.weight) {
				r = &s->sr[k];
				break;
			}
			w -= s->sr[k].s.weight;
		}
	}
	switch (r->s.pattern) {
	case ZF2FS_SIM_ZIPF:
		u = zipf_next(s, r);
		break;
	case ZF2FS_SIM_HOTCOLD:
		if (rnd_below(s, 10000) < (uint64_t)(r->s.hot_writes * 100))
			u = rnd_below(s, r->hot_units);
		else
			u = r->hot_units + rnd_below(s, r->nunits - r->hot_units);
		break;
	case ZF2FS_SIM_SEQUENTIAL:
		u = r->cursor++ % r->nunits;
		break;
	default:
		/* a random file, then a random offset in it (as fio/zwork pick them) */
		f = rnd_below(s, r->nfiles);
		u = f * r->upf + rnd_below(s, r->upf);
		break;
	}
	o->r = r;
	o->f = r->f0 + u / r->upf;
	o->b0 = (uint32_t)(u % r->upf) * r->io;
}

/*
 * The operations are drawn LOOKAHEAD ahead of their execution (the random sequence is
 * the same: only the workload draws numbers), so that the two memory reads that miss
 * the cache on a big volume, the block's address (l2p) and then its reverse entry
 * (p2l), are fetched while earlier operations run: the first LOOKAHEAD operations
 * ahead, the second half-way.  The addresses read early are hints only.
 */
#define LOOKAHEAD 16

static inline uint64_t op_lid(const struct zf2fs_gc_sim *s, const struct op *o)
{
	return s->data_base + o->f * s->fblocks + o->b0;
}

static int run_ops(struct zf2fs_gc_sim *s)
{
	struct op ring[LOOKAHEAD];
	uint64_t ops = s->cfg.ops;
	int err;

	s->phase = 1;
	__atomic_store_n(&s->prog_done, 0, __ATOMIC_RELAXED);
	/* release: the fill's counters are final and readable from another thread */
	__atomic_store_n(&s->prog_phase, 1, __ATOMIC_RELEASE);
	memset(&s->win, 0, sizeof(s->win));
	for (uint64_t k = 0; k < ops && k < LOOKAHEAD; k++) {
		next_op(s, &ring[k]);
		__builtin_prefetch(&s->l2p[op_lid(s, &ring[k])]);
	}
	for (uint64_t i = 0; i < ops; i++) {
		struct op o = ring[i % LOOKAHEAD];

		if (i + LOOKAHEAD < ops) {
			struct op *n = &ring[i % LOOKAHEAD];

			next_op(s, n);
			__builtin_prefetch(&s->l2p[op_lid(s, n)], 1);
		}
		if (i + LOOKAHEAD / 2 < ops) {
			uint32_t old = s->l2p[op_lid(s, &ring[(i + LOOKAHEAD / 2) % LOOKAHEAD])];

			if (old < s->nblocks)
				__builtin_prefetch(&s->p2l[old], 1);
		}
		err = write_op(s, o.r, o.f, o.b0, o.r->io, o.r->s.sync, o.r->base_us,
			       o.r->base_bucket);
		if (err)
			return err;
		if (!(i & 1023))
			__atomic_store_n(&s->prog_done, i, __ATOMIC_RELAXED);
		if (s->sample_every && (i + 1) % s->sample_every == 0)
			sample(s);
	}
	return 0;
}

ZF2FS_EXPORT int zf2fs_gc_sim_run(struct zf2fs_gc_sim *sim)
{
	int err = fill(sim);

	if (!err)
		err = run_ops(sim);
	sim->st[1].free_secs = sim->m->free_secs;
	__atomic_store_n(&sim->prog_phase, 2, __ATOMIC_RELAXED);
	return err;
}

ZF2FS_EXPORT int zf2fs_gc_sim_progress(const struct zf2fs_gc_sim *sim, uint64_t *ret_done,
				       uint64_t *ret_total)
{
	int phase = __atomic_load_n(&sim->prog_phase, __ATOMIC_ACQUIRE);

	*ret_done = __atomic_load_n(&sim->prog_done, __ATOMIC_RELAXED);
	*ret_total = phase ? sim->cfg.ops : sim->nfiles;
	if (phase == 2)
		*ret_done = *ret_total;
	return phase;
}

/* ---- setup ------------------------------------------------------------------------- */
ZF2FS_EXPORT void zf2fs_gc_sim_config_init(struct zf2fs_gc_sim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->seed = 1;
	c->fill = 0.8;
	c->file_blocks = 256;
	c->ops = 100000;
	zf2fs_gc_params_init(&c->fg, ZF2FS_GC_FG);
	c->bg_policy = ZF2FS_GC_POLICY_DEFAULT;
	c->write_cost_us = 10;
	c->move_cost_us = 40;
	c->cp_cost_us = 500;
	c->rate = 25600;
	c->cp_interval = 60;
	c->samples = 100;
}

/* Exported as zf2fs_gc_sim_model_from_layout@@ZF2FS_1.1 (lib/format/abi_v10_p.h). */
__typeof__(zf2fs_gc_sim_model_from_layout) zf2fs_gc_sim_model_from_layout_v11;
ZF2FS_EXPORT_V11(zf2fs_gc_sim_model_from_layout)
int zf2fs_gc_sim_model_from_layout_v11(const struct zf2fs_layout *lay,
				       struct zf2fs_gc_model **ret)
{
	struct zf2fs_gc_geom g;
	struct zf2fs_gc_model *m;
	uint32_t bps = 512;
	uint32_t log_bs = lay->log_blocksize ? lay->log_blocksize : ZF2FS_MIN_LOG_BLOCKSIZE;
	int err;

	*ret = NULL;
	if (lay->log_sectorsize + lay->log_sectors_per_block != log_bs || !lay->section_count)
		return -EINVAL;
	memset(&g, 0, sizeof(g));
	g.main_secs = lay->section_count;
	g.segs_per_sec = lay->segs_per_sec;
	g.log_blocks_per_seg = 9;
	g.rsvd_segments = lay->rsvd_segments;
	g.ovp_segments = lay->ovp_segments;
	if (lay->zoned && lay->zone_cap_blocks < lay->zone_blocks &&
	    lay->zone_blocks == lay->segs_per_sec * bps)
		g.unusable_blocks_per_sec = lay->zone_blocks - lay->zone_cap_blocks;
	err = zf2fs_gc_model_new(&g, &m);
	if (err)
		return err;
	m->log_blocksize = log_bs;
	/* mkfs: the root inode and the root directory's dentry block */
	for (int l = 0; l < GC_NR_LOGS && !err; l++) {
		bool root = l == ZF2FS_LOG_HOT_NODE || l == ZF2FS_LOG_HOT_DATA;

		if (root)
			err = zf2fs_gc_model_set_segment(m, lay->cur_seg[l], 1, (uint32_t)l, 0);
		if (!err)
			err = zf2fs_gc_model_set_curseg(m, l, lay->cur_seg[l], root ? 1 : 0);
	}
	if (!err)
		err = zf2fs_gc_model_ready(m);
	if (err) {
		zf2fs_gc_model_free(m);
		return err == -ERANGE ? -EINVAL : err;
	}
	*ret = m;
	return 0;
}

/* The biggest file the node tree addresses: the inode's own addresses, two direct nodes,
 * two indirect nodes and one double indirect node (about 3.94 TiB). */
#define MAX_FILE_BLOCKS(g) ((uint64_t)ADDRS_INODE(g) + 2ull * ADDRS_NODE(g) + \
			    2ull * ADDRS_NODE(g) * ADDRS_NODE(g) + \
			    (uint64_t)ADDRS_NODE(g) * ADDRS_NODE(g) * ADDRS_NODE(g))

/* Node blocks of a file of @blocks: the inode, its direct nodes, and the indirect nodes
 * above them (the first two direct nodes hang off the inode, the next 2 x 1018 off the two
 * indirect nodes, the rest off indirect nodes under the double indirect node). */
static uint32_t nodes_per_file(const struct zf2fs_geom *g, uint32_t blocks)
{
	const uint32_t ai = ADDRS_INODE(g), an = ADDRS_NODE(g);
	uint32_t dn = blocks > ai ? (blocks - ai + an - 1) / an : 0;
	uint32_t single = dn > 2 ? dn - 2 : 0, ind;

	if (single > 2 * an)
		single = 2 * an;
	ind = (single + an - 1) / an;
	if (dn > 2 + 2 * an)
		ind += 1 + (dn - 2 - 2 * an + an - 1) / an;
	return 1 + dn + ind;
}

static int setup_streams(struct zf2fs_gc_sim *s, char *why, size_t len)
{
	const struct zf2fs_gc_sim_config *c = &s->cfg;
	uint64_t f = 0;
	double pct_left = 100;
	unsigned unset = 0;

	s->nstreams = c->nstreams ? c->nstreams : 1;
	if (s->nstreams > ZF2FS_GC_SIM_MAX_STREAMS)
		return say(why, len, "%u streams, at most %d", s->nstreams, ZF2FS_GC_SIM_MAX_STREAMS);
	for (unsigned k = 0; k < s->nstreams; k++) {
		struct stream_rt *r = &s->sr[k];

		if (c->nstreams)
			r->s = c->streams[k];
		else
			memset(&r->s, 0, sizeof(r->s));
		if (!r->s.weight)
			r->s.weight = 1;
		if (r->s.data_pct < 0 || r->s.data_pct > 100)
			return say(why, len, "stream %u: data share %g%%, not within 0 to 100", k + 1,
				   r->s.data_pct);
		if (r->s.data_pct > 0)
			pct_left -= r->s.data_pct;
		else
			unset++;
		s->weight_total += r->s.weight;
	}
	if (pct_left < -1e-9)
		return say(why, len, "the streams' data shares add up to %g%%, over 100",
			   100 - pct_left);
	for (unsigned k = 0; k < s->nstreams; k++) {
		struct stream_rt *r = &s->sr[k];
		double pct = r->s.data_pct > 0 ? r->s.data_pct : pct_left / unset;

		r->nfiles = k + 1 == s->nstreams ? s->nfiles - f :
			(uint64_t)((double)s->nfiles * pct / 100.0);
		if (!r->nfiles || f + r->nfiles > s->nfiles)
			return say(why, len, "stream %u: its %g%% of %" PRIu64 " files is not one "
				   "whole file (fewer files than streams, or a share too small)",
				   k + 1, pct, s->nfiles);
		r->f0 = f;
		f += r->nfiles;
		r->io = r->s.io_blocks ? r->s.io_blocks : 1;
		if (r->io > s->fblocks)
			r->io = s->fblocks;
		r->upf = s->fblocks / r->io;
		r->nunits = r->nfiles * r->upf;
		switch (r->s.pattern) {
		case ZF2FS_SIM_ZIPF: {
			double th = r->s.theta, z2;

			if (th <= 0 || th >= 1)
				return say(why, len, "stream %u: zipf theta %g, not between 0 and 1",
					   k + 1, th);
			r->zeta_n = 0;
			for (uint64_t i = 1; i <= r->nunits; i++)
				r->zeta_n += 1.0 / pow((double)i, th);
			z2 = 1.0 + 1.0 / pow(2.0, th);
			r->zipf_alpha = 1.0 / (1.0 - th);
			r->zipf_half = pow(0.5, th);
			r->zipf_eta = (1.0 - pow(2.0 / (double)r->nunits, 1.0 - th)) /
				      (1.0 - z2 / r->zeta_n);
			break;
		}
		case ZF2FS_SIM_HOTCOLD:
			if (r->s.hot_writes < 0 || r->s.hot_writes > 100 || r->s.hot_data <= 0 ||
			    r->s.hot_data >= 100)
				return say(why, len, "stream %u: hot/cold shares %g/%g%% out of range",
					   k + 1, r->s.hot_writes, r->s.hot_data);
			r->hot_units = (uint64_t)((double)r->nunits * r->s.hot_data / 100.0);
			if (!r->hot_units || r->hot_units >= r->nunits)
				return say(why, len, "stream %u: %g%% of its %" PRIu64 " write units "
					   "is not a hot set (none, or all of them)", k + 1,
					   r->s.hot_data, r->nunits);
			break;
		case ZF2FS_SIM_UNIFORM:
		case ZF2FS_SIM_SEQUENTIAL:
			break;
		default:
			return say(why, len, "stream %u: unknown pattern %d", k + 1,
				   (int)r->s.pattern);
		}
		r->base_us = c->write_cost_us * r->io;
		r->base_bucket = bucket_of(r->base_us);
	}
	return 0;
}

/* the configuration alone (before the volume is looked at) */
static int check_config(const struct zf2fs_geom *g, const struct zf2fs_gc_sim_config *cfg,
			char *why, size_t len)
{
	const double mib_per_block = (double)g->blocksize / (1024.0 * 1024.0);

	if (cfg->fill < 0 || cfg->fill > 0.995)
		return say(why, len, "fill %g%%, not within 0 to 99.5%%", cfg->fill * 100);
	if (!cfg->file_blocks)
		return say(why, len, "file size 0: a file has at least one %u KiB block",
			   g->blocksize / 1024);
	if (cfg->file_blocks > MAX_FILE_BLOCKS(g))
		return say(why, len, "file of %u blocks (%.0f MiB), above the %llu blocks (%.0f "
			   "MiB) an inode's node tree addresses", cfg->file_blocks,
			   cfg->file_blocks * mib_per_block, (unsigned long long)MAX_FILE_BLOCKS(g),
			   (double)MAX_FILE_BLOCKS(g) * mib_per_block);
	if (cfg->mode > ZF2FS_SIM_MODE_ADAPTIVE || cfg->ipu > ZF2FS_SIM_IPU_FORCE)
		return say(why, len, "unknown mount mode %d or ipu policy %d", (int)cfg->mode,
			   (int)cfg->ipu);
	if (!cfg->rate)
		return say(why, len, "a rate of 0 host blocks per second");
	return 0;
}

ZF2FS_EXPORT int zf2fs_gc_sim_new(struct zf2fs_gc_model *m, const struct zf2fs_gc_sim_config *cfg,
				  char *why, size_t len, struct zf2fs_gc_sim **ret)
{
	struct zf2fs_gc_sim *s;
	struct zf2fs_geom g;
	uint64_t usable = 0, valid = 0, user, room, per_file;
	int err;

	*ret = NULL;
	if (why && len)
		why[0] = '\0';
	zf2fs_geom_init(&g, m->log_blocksize ? m->log_blocksize : ZF2FS_MIN_LOG_BLOCKSIZE, 0);
	err = m->ready ? check_config(&g, cfg, why, len) :
		say(why, len, "the model is not ready (zf2fs_gc_model_ready)");
	if (err) {
		zf2fs_gc_model_free(m);
		return err;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		zf2fs_gc_model_free(m);
		return -ENOMEM;
	}
	s->m = m;
	s->g = g;
	s->cfg = *cfg;
	s->rng = cfg->seed * 0x2545F4914F6CDD1Dull + 0x1234567;
	s->nblocks = (uint64_t)m->total_segs << m->log_bps;
	for (uint32_t seg = 0; seg < m->total_segs; seg++) {
		usable += gc_seg_usable(m, seg) ? 1 : 0;
		valid += gc_seg(m, seg)->valid;
	}
	user = usable > m->ovp_segments ? (usable - m->ovp_segments) << m->log_bps : 0;
	room = user > valid ? user - valid : 0;
	s->fblocks = cfg->file_blocks;
	s->npf = nodes_per_file(&s->g, s->fblocks);
	per_file = s->fblocks + s->npf;
	s->nfiles = (uint64_t)((double)room * cfg->fill) / per_file;
	if (cfg->files) {
		if (cfg->files > room / per_file) {
			err = zf2fs_set_why(why, len, -ENOSPC, "%" PRIu64 " file%s of %u data + %u node "
					    "blocks need %.0f blocks; the user space holds %" PRIu64
					    " (%" PRIu64 " user blocks, %" PRIu64 " of them in use)",
					    cfg->files, cfg->files > 1 ? "s" : "", s->fblocks, s->npf,
					    (double)cfg->files * (double)per_file, room, user, valid);
			goto fail;
		}
		s->nfiles = cfg->files;
	}
	if (!s->nfiles) {
		err = zf2fs_set_why(why, len, -ENOSPC, "%.1f%% of the %" PRIu64 " free user blocks "
				    "does not hold one file of %u data + %u node blocks",
				    cfg->fill * 100, room, s->fblocks, s->npf);
		goto fail;
	}
	s->nstatic = valid;
	s->data_base = valid;
	s->ndata = s->nfiles * s->fblocks;
	s->node_base = s->data_base + s->ndata;
	s->nnodes = s->nfiles * s->npf;
	s->nlids = s->node_base + s->nnodes;
	if (s->nblocks >= LID_STALE || s->nlids >= LID_STALE) {
		err = say(why, len, "%" PRIu64 " main-area blocks, %" PRIu64 " logical blocks: the "
			  "simulator's 32-bit block maps hold %u at most (a 16 TiB volume)",
			  s->nblocks, s->nlids, LID_STALE - 1);
		goto fail;
	}
	err = setup_streams(s, why, len);
	if (err)
		goto fail;
	err = -ENOMEM;
	s->l2p = map_alloc((s->nlids + 1) * sizeof(*s->l2p));
	s->p2l = map_alloc(s->nblocks * sizeof(*s->p2l));
	s->node_fl = calloc(s->nnodes + 1, 1);
	s->dirty_list = malloc((s->nnodes + 1) * sizeof(*s->dirty_list));
	s->nat_list = malloc((s->nnodes + 1) * sizeof(*s->nat_list));
	s->nat_blk = calloc(s->nnodes / NAT_ENTRIES_BLK(&s->g) + 1, 1);
	s->sit_seg = calloc(m->total_segs, 1);
	s->sit_list = malloc((size_t)m->total_segs * sizeof(*s->sit_list));
	s->sit_blk = calloc(m->total_segs / SIT_ENTRIES_BLK(&s->g) + 1, 1);
	s->stale = calloc(m->main_secs, 1);
	s->stale_list = malloc((size_t)m->main_secs * sizeof(*s->stale_list));
	s->maxsamples = cfg->samples;
	s->samples = calloc(cfg->samples + 1, sizeof(*s->samples));
	if (!s->l2p || !s->p2l || !s->node_fl || !s->dirty_list || !s->nat_list || !s->nat_blk ||
	    !s->sit_seg || !s->sit_list || !s->sit_blk || !s->stale || !s->stale_list ||
	    !s->samples)
		goto fail;
	memset(s->l2p, 0xff, (s->nlids + 1) * sizeof(*s->l2p));
	memset(s->p2l, 0xff, s->nblocks * sizeof(*s->p2l));
	/* existing valid blocks: anonymous, at the front of their segments */
	{
		uint64_t lid = 0;

		for (uint32_t seg = 0; seg < m->total_segs; seg++)
			for (uint32_t i = 0; i < gc_seg(m, seg)->valid; i++, lid++) {
				uint32_t blk = (seg << m->log_bps) + i;

				s->p2l[blk] = (uint32_t)lid;
				s->l2p[lid] = blk;
			}
	}
	s->sample_every = cfg->samples && cfg->ops >= cfg->samples ? cfg->ops / cfg->samples : 0;
	s->now = m->elapsed_time;
	s->next_cp = s->now + cfg->cp_interval;
	s->next_bg = s->now + cfg->bg_interval;
	s->mv_seg = GC_NULL;
	/* segment mtimes only matter to cost-benefit and age-threshold victims */
	m->no_mtime = !(cfg->fg.policy == ZF2FS_GC_CB || cfg->fg.policy == ZF2FS_GC_AT ||
			(cfg->bg_interval && cfg->bg_policy != ZF2FS_GC_GREEDY));
	m->move_hook = move_hook;
	m->move_run_hook = move_run_hook;
	m->cp_hook = cp_hook;
	if (cfg->mode == ZF2FS_SIM_MODE_ADAPTIVE) {
		bool small = m->total_segs <= SMALL_VOLUME_SEGS;

		s->adaptive = true;
		s->ipu_all = cfg->ipu == ZF2FS_SIM_IPU_FORCE ||
			     (cfg->ipu == ZF2FS_SIM_IPU_DEFAULT && small);
		s->ipu_fsync = cfg->ipu == ZF2FS_SIM_IPU_FSYNC ||
			       (cfg->ipu == ZF2FS_SIM_IPU_DEFAULT && !small);
		m->alloc_hook = gc_ssr_alloc;
		m->next_free_hook = gc_ssr_next_free;
		/* the reference engine scans every segment for SSR candidates instead */
		if (cfg->fg.engine != ZF2FS_GC_ENGINE_SCAN && gc_ssr_setup(s))
			goto nomem;
	}
	m->hook_arg = s;
	*ret = s;
	return 0;
nomem:
	err = -ENOMEM;
fail:
	zf2fs_gc_sim_free(s);
	return err;
}

ZF2FS_EXPORT void zf2fs_gc_sim_free(struct zf2fs_gc_sim *s)
{
	if (!s)
		return;
	gc_ssr_free(s);
	zf2fs_gc_model_free(s->m);
	free(s->held);
	free(s->l2p);
	free(s->p2l);
	free(s->node_fl);
	free(s->dirty_list);
	free(s->nat_list);
	free(s->nat_blk);
	free(s->sit_seg);
	free(s->sit_list);
	free(s->sit_blk);
	free(s->stale);
	free(s->stale_list);
	free(s->samples);
	free(s);
}

ZF2FS_EXPORT void zf2fs_gc_sim_stats(const struct zf2fs_gc_sim *s, int phase,
				     struct zf2fs_gc_sim_stats *ret)
{
	const struct hist *l, *h;
	uint64_t dev;

	phase = phase ? 1 : 0;
	*ret = s->st[phase];
	ret->reserved_secs = s->m->reserved_secs;
	l = &s->lat[phase];
	h = &s->stall[phase];
	/* one SSA block per segment filled */
	ret->meta_blocks += (ret->data_blocks + ret->node_blocks + moved(ret)) >> s->m->log_bps;
	dev = ret->data_blocks + ret->node_blocks + moved(ret) + ret->meta_blocks;
	ret->waf = ret->host_blocks ? (double)dev / (double)ret->host_blocks : 0;
	ret->lat_p50 = hist_pct(l, 50);
	ret->lat_p99 = hist_pct(l, 99);
	ret->lat_p999 = hist_pct(l, 99.9);
	ret->lat_max = l->max;
	ret->stall_p50 = hist_pct(h, 50);
	ret->stall_p99 = hist_pct(h, 99);
	ret->stall_p999 = hist_pct(h, 99.9);
	ret->stall_max = h->max;
}

ZF2FS_EXPORT const struct zf2fs_gc_sim_sample *zf2fs_gc_sim_samples(const struct zf2fs_gc_sim *s,
								    unsigned *ret_n)
{
	*ret_n = s->nsamples;
	return s->samples;
}

ZF2FS_EXPORT void zf2fs_gc_sim_size(const struct zf2fs_gc_sim *s, uint64_t *ret_files,
				    uint64_t *ret_data, uint64_t *ret_nodes)
{
	*ret_files = s->nfiles;
	*ret_data = s->ndata;
	*ret_nodes = s->nnodes;
}

ZF2FS_EXPORT int zf2fs_gc_sim_verify(const struct zf2fs_gc_sim *s)
{
	const struct zf2fs_gc_model *m = s->m;

	for (uint64_t lid = 0; lid < s->nlids; lid++) {
		uint32_t b = s->l2p[lid];

		if (b != LID_NONE && (b >= s->nblocks || s->p2l[b] != lid))
			return -EINVAL;
	}
	for (uint32_t seg = 0; seg < m->total_segs; seg++) {
		const uint32_t *p = s->p2l + ((uint64_t)seg << m->log_bps);
		uint32_t valid = 0, used = 0;

		for (uint32_t b = 0; b < m->bps; b++) {
			valid += p[b] < LID_STALE;
			used += p[b] != LID_NONE;
			if (p[b] < LID_STALE && (p[b] >= s->nlids || s->l2p[p[b]] !=
						 ((uint64_t)seg << m->log_bps) + b))
				return -EINVAL;
		}
		if (valid != gc_seg(m, seg)->valid || (s->adaptive && used != gc_seg(m, seg)->ckpt_valid))
			return -EINVAL;
	}
	return 0;
}

ZF2FS_EXPORT const struct zf2fs_gc_model *zf2fs_gc_sim_model(const struct zf2fs_gc_sim *s)
{
	return s->m;
}
