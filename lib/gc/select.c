// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * select.c - victim selection as Linux 6.1 get_victim_by_default makes it: policy
 * choice, search window, cost functions (greedy, cost-benefit, age-threshold), the
 * literal windowed scan (the reference engine), the same selection answered from the
 * index (index.c), and one f2fs_gc call (zf2fs_gc_step).
 *
 * Scan semantics reproduced: the scan starts at last_victim[policy], visits dirty units
 * in order to the end, then (only when last_victim was not 0) from 0 up to the old
 * start; every visited unit counts toward max_search, skipped ones too; the first unit
 * with the smallest cost wins; when the count is reached the cursor moves past the last
 * unit visited (past the old start when the stop happens after the wrap).
 *
 * Large sections: a call collects its victim's segments from where it starts, a
 * background one up to its window (Linux 7.3's migration_window_granularity, boosted on
 * a zoned volume short of free sections) and migration_granularity segments moved, and
 * leaves the next segment to the next call, which takes it before any search
 * (next_victim_seg of the kernels' get_victim and do_garbage_collect).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gc/gc_p.h"

#define GC_UINT_MAX 0xFFFFFFFFu
#define ATGC_CANDIDATE_RATIO 20
#define ATGC_CANDIDATE_COUNT 10
#define ATGC_AGE_WEIGHT 60
#define ATGC_ACCURACY 10000
#define ATGC_AGE_THRESHOLD 604800u

/* cost-benefit with bounds @min/@max (no side effect here: callers widen them) */
uint32_t gc_cb_cost(const struct zf2fs_gc_model *m, uint32_t secno, uint64_t min,
		    uint64_t max, uint32_t *ret_age)
{
	uint64_t mt = gc_sec_mtime_cb(m, secno);
	uint32_t vb = gc_sec(m, secno)->valid / m->usegs;
	uint8_t u = (uint8_t)((vb * 100) >> m->log_bps);
	uint8_t age = 0;

	if (max != min)
		age = (uint8_t)(100 - (100 * (mt - min)) / (max - min));
	if (ret_age)
		*ret_age = age;
	return GC_UINT_MAX - (uint32_t)((100 * (100 - u) * age) / (100 + u));
}

ZF2FS_EXPORT enum zf2fs_gc_policy zf2fs_gc_policy_of(const struct zf2fs_gc_params *p)
{
	if (p->alloc == ZF2FS_GC_SSR)
		return ZF2FS_GC_GREEDY;
	if (p->policy != ZF2FS_GC_POLICY_DEFAULT)
		return p->policy;
	return p->gc_type == ZF2FS_GC_FG ? ZF2FS_GC_GREEDY : ZF2FS_GC_CB;
}

static uint32_t max_cost(const struct zf2fs_gc_model *m, enum zf2fs_gc_alloc alloc,
			 enum zf2fs_gc_policy pol, uint32_t ofs)
{
	if (alloc == ZF2FS_GC_SSR)
		return m->bps;
	if (pol == ZF2FS_GC_GREEDY)
		return 2 * m->bps * ofs;
	return GC_UINT_MAX;
}

static bool ssr_dirty(const struct zf2fs_gc_model *m, uint32_t segno, int type)
{
	uint32_t v = gc_seg(m, segno)->valid;

	if (!v || v >= gc_seg_usable(m, segno) || gc_seg(m, segno)->type != type)
		return false;
	for (int i = 0; i < GC_NR_LOGS; i++)
		if (m->cur_seg[i] == segno)
			return false;
	return true;
}

static uint32_t ssr_nr_dirty(const struct zf2fs_gc_model *m, int type)
{
	uint32_t n = 0;

	for (uint32_t s = 0; s < m->total_segs; s++)
		n += ssr_dirty(m, s, type);
	return n;
}

static uint32_t window(const struct zf2fs_gc_model *m, const struct zf2fs_gc_params *p,
		       enum zf2fs_gc_type gc_type, enum zf2fs_gc_policy pol, uint32_t nr)
{
	uint64_t w;

	switch (p->window) {
	case ZF2FS_GC_WIN_FIXED:
		return nr < p->window_n ? nr : p->window_n;
	case ZF2FS_GC_WIN_ALL:
		return nr;
	case ZF2FS_GC_WIN_PROPORTIONAL:
		if (m->total_segs <= 4096)
			return nr;
		w = (uint64_t)nr * 4096 / m->total_segs;
		if (w < 20)
			w = 20;
		return w < nr ? (uint32_t)w : nr;
	case ZF2FS_GC_WIN_KERNEL:
	default:
		if (gc_type != ZF2FS_GC_FG && pol != ZF2FS_GC_AT && nr > p->max_search)
			return p->max_search;
		return nr;
	}
}

/* ---- ATGC candidates ---------------------------------------------------------------- */
struct atgc_cand {
	uint64_t mtime;
	uint32_t segno, seq;
};

struct atgc_list {
	struct atgc_cand *v;
	uint32_t n, cap;
};

static int atgc_add(struct zf2fs_gc_model *m, struct atgc_list *l, uint32_t segno,
		    uint32_t threshold)
{
	uint32_t secno = segno / m->sps;
	uint64_t mt = gc_sec_mtime_all(m, secno);

	if (mt < m->min_mtime)
		m->min_mtime = mt;
	if (mt > m->max_mtime)
		m->max_mtime = mt;
	if (mt < m->dirty_min_mtime)
		m->dirty_min_mtime = mt;
	if (mt > m->dirty_max_mtime)
		m->dirty_max_mtime = mt;
	if (m->dirty_max_mtime - mt < threshold)
		return 0;
	if (l->n == l->cap) {
		uint32_t nc = l->cap ? 2 * l->cap : 64;
		struct atgc_cand *nv = realloc(l->v, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		l->v = nv;
		l->cap = nc;
	}
	l->v[l->n].mtime = mt;
	l->v[l->n].segno = segno;
	l->v[l->n].seq = l->n;
	l->n++;
	return 0;
}

static int cmp_cand(const void *a, const void *b)
{
	const struct atgc_cand *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* lookup by age: the oldest candidates first, at most "limit" of them counted */
static void atgc_lookup(struct zf2fs_gc_model *m, struct atgc_list *l, uint32_t *best_seg,
			uint32_t *best_cost)
{
	uint64_t mx, t, accu, best_a = 0;
	uint32_t limit, counted = 0;

	if (!l->n || m->dirty_max_mtime < m->dirty_min_mtime)
		return;
	qsort(l->v, l->n, sizeof(*l->v), cmp_cand);
	mx = m->dirty_max_mtime + 1;
	t = mx - m->dirty_min_mtime;
	accu = UINT64_MAX / t / 100;
	if (accu > ATGC_ACCURACY)
		accu = ATGC_ACCURACY;
	limit = (uint32_t)((uint64_t)ATGC_CANDIDATE_RATIO * l->n / 100);
	if (limit < ATGC_CANDIDATE_COUNT)
		limit = ATGC_CANDIDATE_COUNT;
	for (uint32_t i = 0; i < l->n && counted < limit; i++) {
		const struct atgc_cand *c = &l->v[i];
		uint64_t a, u;
		uint32_t vb, cost;

		if (c->mtime < m->dirty_min_mtime || c->mtime >= mx)
			continue;
		counted++;
		a = accu * (mx - c->mtime) / t * ATGC_AGE_WEIGHT;
		vb = gc_sec(m, c->segno / m->sps)->valid;
		u = accu * (m->cap - vb) / m->cap * (100 - ATGC_AGE_WEIGHT);
		cost = (uint32_t)(GC_UINT_MAX - (a + u));
		if (cost < *best_cost || (cost == *best_cost && a > best_a)) {
			*best_cost = cost;
			*best_seg = c->segno;
			best_a = a;
		}
	}
}

/* ---- the reference scan ------------------------------------------------------------- */
struct sel {
	enum zf2fs_gc_type gc_type;
	enum zf2fs_gc_policy pol;
	enum zf2fs_gc_alloc alloc;
	int type;
	uint32_t ofs, max_search, best_seg, best_cost, searched;
	bool atgc;
};

static bool unit_set(const struct zf2fs_gc_model *m, const struct sel *s, uint32_t u)
{
	if (s->alloc == ZF2FS_GC_SSR)
		return ssr_dirty(m, u, s->type);
	return gc_sec(m, u)->dirty;
}

static uint32_t next_bit(const struct zf2fs_gc_model *m, const struct sel *s, uint32_t size,
			 uint32_t from)
{
	for (uint32_t u = from; u < size; u++)
		if (unit_set(m, s, u))
			return u;
	return size;
}

static uint32_t unit_cost(struct zf2fs_gc_model *m, const struct sel *s, uint32_t segno)
{
	uint32_t secno = segno / m->sps;

	if (s->alloc == ZF2FS_GC_SSR)
		return gc_seg(m, segno)->ckpt_valid;
	if (s->pol == ZF2FS_GC_GREEDY)
		return m->sps > 1 ? gc_sec(m, secno)->valid : gc_seg(m, segno)->valid;
	/* cost-benefit: the kernel widens its bounds before computing the age */
	{
		uint64_t mt = gc_sec_mtime_cb(m, secno);

		if (mt < m->min_mtime)
			m->min_mtime = mt;
		if (mt > m->max_mtime)
			m->max_mtime = mt;
	}
	return gc_cb_cost(m, secno, m->min_mtime, m->max_mtime, NULL);
}

static int scan_select(struct zf2fs_gc_model *m, struct sel *s, uint32_t threshold)
{
	uint32_t *lv = &m->last_victim[s->pol];
	uint32_t last_segment = m->total_segs, l0 = *lv, offset, n = 0;
	struct atgc_list cands = { 0 };
	int err = 0;

	if (s->alloc == ZF2FS_GC_SSR &&
	    (s->type == ZF2FS_LOG_HOT_DATA || (s->type >= ZF2FS_LOG_HOT_NODE &&
					       s->type <= ZF2FS_LOG_COLD_NODE)))
		offset = 0;
	else
		offset = l0;
	for (;;) {
		uint32_t u = next_bit(m, s, last_segment / s->ofs, offset / s->ofs);
		uint32_t segno = u * s->ofs, secno;

		if (segno >= last_segment) {
			if (*lv) {
				last_segment = *lv;
				*lv = 0;
				offset = 0;
				continue;
			}
			break;
		}
		offset = segno + s->ofs;
		n++;
		secno = segno / m->sps;
		if (gc_sec_is_current(m, secno))
			goto next;
		if (s->gc_type == ZF2FS_GC_BG && gc_sec(m, secno)->victim)
			goto next;
		if (s->atgc) {
			err = atgc_add(m, &cands, segno, threshold);
			if (err)
				break;
			goto next;
		}
		{
			uint32_t c = unit_cost(m, s, segno);

			if (c < s->best_cost) {
				s->best_cost = c;
				s->best_seg = segno;
			}
		}
next:
		if (n >= s->max_search) {
			if (!*lv && segno <= l0)
				*lv = l0 + s->ofs;
			else
				*lv = segno + s->ofs;
			*lv %= m->total_segs;
			break;
		}
	}
	s->searched = n;
	if (!err && s->atgc)
		atgc_lookup(m, &cands, &s->best_seg, &s->best_cost);
	free(cands.v);
	return err;
}

/* ---- the indexed selection ---------------------------------------------------------- */
static bool index_usable(const struct zf2fs_gc_model *m, const struct sel *s)
{
	if (s->alloc != ZF2FS_GC_LFS || s->atgc)
		return false;
	/* an unaligned cursor (left by SSR) makes the kernel look at one unit whose bit may
	 * be clear: only the literal scan reproduces that */
	return m->last_victim[s->pol] % s->ofs == 0;
}

static int index_select(struct zf2fs_gc_model *m, struct sel *s)
{
	struct gc_index *ix = &m->idx;
	enum gc_view v;
	uint32_t *lv = &m->last_victim[s->pol];
	uint32_t l0 = *lv, o = l0 / s->ofs, units = m->main_secs, c1;
	uint32_t r1lo = o, r1hi = units - 1, r2hi = 0, nlv = l0;
	bool r2 = false;
	uint64_t k1, k2 = GC_KEY_NONE;
	int err;

	if (s->pol == ZF2FS_GC_GREEDY)
		v = s->gc_type == ZF2FS_GC_FG ? GC_VIEW_GREEDY_FG : GC_VIEW_GREEDY_BG;
	else
		v = s->gc_type == ZF2FS_GC_FG ? GC_VIEW_CB_FG : GC_VIEW_CB_BG;
	err = gc_index_view(m, v);
	if (err)
		return err;
	if (s->pol == ZF2FS_GC_CB) {
		gc_index_cb_bounds(m);
		if (!ix->cb_exact || ix->broken)
			return -EAGAIN;
	}
	c1 = gc_index_count(ix, o, units - 1);
	if (s->max_search <= c1) {
		r1hi = gc_index_kth(ix, o, s->max_search);
		nlv = (uint32_t)(((uint64_t)r1hi + 1) * s->ofs % m->total_segs);
		s->searched = s->max_search;
	} else if (!l0) {
		s->searched = c1;
	} else {
		uint32_t r = s->max_search - c1, c2 = o ? gc_index_count(ix, 0, o - 1) : 0;

		r2 = o > 0;
		if (r <= c2) {
			r2hi = gc_index_kth(ix, 0, r);
			nlv = (l0 + s->ofs) % m->total_segs;
			s->searched = s->max_search;
		} else {
			r2hi = o - 1;
			nlv = 0;
			s->searched = c1 + c2;
		}
	}
	k1 = r1lo < units ? gc_index_min(ix, v, r1lo, r1hi) : GC_KEY_NONE;
	if (r2)
		k2 = gc_index_min(ix, v, 0, r2hi);
	/* pass 1 comes first in scan order: it wins ties */
	if (k2 != GC_KEY_NONE && (k1 == GC_KEY_NONE || (k2 >> 32) < (k1 >> 32)))
		k1 = k2;
	if (k1 != GC_KEY_NONE && (uint32_t)(k1 >> 32) < s->best_cost) {
		s->best_cost = (uint32_t)(k1 >> 32);
		s->best_seg = (uint32_t)k1 * s->ofs;
	}
	*lv = nlv;
	return 0;
}

/* ---- selection ---------------------------------------------------------------------- */
static void fill_victim(struct zf2fs_gc_model *m, const struct sel *s, uint32_t segno,
			struct zf2fs_gc_victim *r)
{
	uint32_t secno = segno / m->sps, age = 0;

	memset(r, 0, sizeof(*r));
	r->segno = segno;
	r->secno = secno;
	r->cost = s->best_cost;
	r->valid_blocks = s->alloc == ZF2FS_GC_SSR ? gc_seg(m, segno)->valid : gc_sec(m, secno)->valid;
	gc_cb_cost(m, secno, m->min_mtime, m->max_mtime, &age);
	r->age = age;
	r->mtime = gc_sec_mtime_cb(m, secno);
	r->gc_type = s->gc_type;
	r->policy = s->pol;
	r->alloc = s->alloc;
	r->searched = s->searched;
	r->max_search = s->max_search;
	r->last_victim = m->last_victim[s->pol];
}

static void mark_victim(struct zf2fs_gc_model *m, uint32_t secno)
{
	if (!gc_sec(m, secno)->victim) {
		gc_secw(m, secno)->victim = 1;
		m->nr_marked++;
		gc_index_update(m, secno);
	}
}

/* One get_victim_by_default pass with ATGC age threshold @threshold.  Returns 0 with
 * s->best_seg (GC_NULL: none), 1 when the FG shortcut answered (in @ret), or an error. */
static int run_select(struct zf2fs_gc_model *m, const struct zf2fs_gc_params *p,
		      uint32_t threshold, struct sel *s, struct zf2fs_gc_victim *ret)
{
	int err = -EAGAIN;

	memset(s, 0, sizeof(*s));
	s->gc_type = p->gc_type;
	s->alloc = p->alloc;
	s->type = p->ssr_type;
	s->pol = zf2fs_gc_policy_of(p);
	s->ofs = s->alloc == ZF2FS_GC_SSR ? 1 : m->sps;
	s->atgc = s->pol == ZF2FS_GC_AT;
	s->best_seg = GC_NULL;
	s->best_cost = max_cost(m, s->alloc, s->pol, s->ofs);
	s->max_search = window(m, p, s->gc_type, s->pol, s->alloc == ZF2FS_GC_SSR ?
			       ssr_nr_dirty(m, s->type) : m->nr_dirty_units);
	if (s->atgc)
		m->dirty_min_mtime = UINT64_MAX;
	if (!s->max_search)
		return 0;
	/* a section an earlier call left unfinished comes first: a background call's
	 * for either gc type, a foreground call's for foreground ones */
	if (s->alloc == ZF2FS_GC_LFS && m->sps > 1) {
		uint32_t *nv = &m->next_victim[ZF2FS_GC_BG];

		if (*nv == GC_NULL && s->gc_type == ZF2FS_GC_FG)
			nv = &m->next_victim[ZF2FS_GC_FG];
		if (*nv != GC_NULL) {
			uint32_t segno = *nv;

			*nv = GC_NULL;
			fill_victim(m, s, segno, ret);
			if (s->gc_type == ZF2FS_GC_BG)
				mark_victim(m, segno / m->sps);
			return 1;
		}
	}
	/* foreground GC first takes a section background GC chose before */
	if (s->alloc == ZF2FS_GC_LFS && s->gc_type == ZF2FS_GC_FG && p->fg_shortcut &&
	    m->nr_marked) {
		for (uint32_t sec = 0; sec < m->main_secs; sec++) {
			if (!gc_sec(m, sec)->victim || gc_sec_is_current(m, sec))
				continue;
			gc_secw(m, sec)->victim = 0;
			m->nr_marked--;
			gc_index_update(m, sec);
			fill_victim(m, s, sec * m->sps, ret);
			ret->from_bg_map = true;
			return 1;
		}
	}
	/* small windows are cheaper to scan than to query: same answer either way */
	if (p->engine == ZF2FS_GC_ENGINE_INDEX && s->max_search > p->scan_below && index_usable(m, s))
		err = index_select(m, s);
	if (err == -EAGAIN)
		err = scan_select(m, s, threshold);
	return err;
}

ZF2FS_EXPORT int zf2fs_gc_select(struct zf2fs_gc_model *m, const struct zf2fs_gc_params *p,
				 struct zf2fs_gc_victim *ret)
{
	struct sel s;
	uint32_t segno;
	int err;

	memset(ret, 0, sizeof(*ret));
	if (!m->ready || (p->gc_type != ZF2FS_GC_BG && p->gc_type != ZF2FS_GC_FG) ||
	    (p->alloc != ZF2FS_GC_LFS && p->alloc != ZF2FS_GC_SSR) ||
	    p->policy < ZF2FS_GC_POLICY_DEFAULT || p->policy > ZF2FS_GC_AT ||
	    (p->alloc == ZF2FS_GC_SSR && (p->ssr_type < 0 || p->ssr_type >= GC_NR_LOGS)))
		return -EINVAL;
	err = run_select(m, p, ATGC_AGE_THRESHOLD, &s, ret);
	if (err == 1)
		return 0;
	if (err)
		return err;
	/* ATGC on a young file system: the kernel retries once with a threshold of 0 */
	if (s.atgc && s.best_seg == GC_NULL && m->elapsed_time < ATGC_AGE_THRESHOLD) {
		err = run_select(m, p, 0, &s, ret);
		if (err == 1)
			return 0;
		if (err)
			return err;
	}
	if (s.best_seg == GC_NULL)
		return -ENODATA;
	segno = s.best_seg / s.ofs * s.ofs;
	fill_victim(m, &s, segno, ret);
	if (s.alloc == ZF2FS_GC_LFS && s.gc_type == ZF2FS_GC_BG)
		mark_victim(m, segno / m->sps);
	return 0;
}

/* ---- f2fs_gc ------------------------------------------------------------------------- */

/* Sections the dirty pages need, as __get_secs_required counts them (reserved excluded). */
static void secs_required(const struct zf2fs_gc_model *m, bool lfs, uint32_t *lower,
			  uint32_t *upper, bool *curseg_ok)
{
	uint64_t node = m->dirty_node, data = lfs ? m->dirty_data : 0;
	uint32_t node_rem = (uint32_t)(node % m->cap), data_rem = (uint32_t)(data % m->cap);

	*lower = (uint32_t)(node / m->cap + data / m->cap);
	*upper = *lower + (node_rem ? 1 : 0) + (data_rem ? 1 : 0);
	*curseg_ok = true;
	for (int l = 0; l < GC_NR_LOGS; l++) {
		uint32_t sec, ck = 0, need = l <= ZF2FS_LOG_COLD_DATA ? data_rem : node_rem;

		/* nothing needed always fits: no need to sum (the simulator asks per write) */
		if (!need || m->cur_seg[l] == GC_NULL)
			continue;
		sec = m->cur_seg[l] / m->sps;
		for (uint32_t i = 0; i < m->sps; i++)
			ck += gc_seg(m, sec * m->sps + i)->ckpt_valid;
		if (need > (ck < m->cap ? m->cap - ck : 0))
			*curseg_ok = false;
	}
}

bool gc_not_enough_free(const struct zf2fs_gc_model *m, bool lfs, uint32_t freed)
{
	uint32_t lower, upper, free_secs = m->free_secs + freed;
	bool curseg_ok;

	secs_required(m, lfs, &lower, &upper, &curseg_ok);
	lower += m->reserved_secs;
	upper += m->reserved_secs;
	if (free_secs > upper)
		return false;
	if (free_secs <= lower)
		return true;
	return !curseg_ok;
}

/* The end of the segments a background call collecting from segment @first covers
 * (exclusive), and the end of the section's usable ones in @ret_sec_end: Linux 7.3's
 * migration window (boosted on a zoned volume short of free sections); the section's end
 * otherwise. */
static uint32_t bg_window_end(const struct zf2fs_gc_model *m, uint32_t first,
			      uint32_t *ret_sec_end)
{
	uint32_t sec_end = first / m->sps * m->sps + m->usegs, w;
	uint64_t end;

	*ret_sec_end = sec_end;
	if (m->sps == 1 || m->kernel != ZF2FS_GC_LINUX_7_3)
		return sec_end;
	w = zf2fs_gc_model_knob(m, ZF2FS_GC_KNOB_MIGRATION_WINDOW);
	if (zf2fs_gc_model_knob(m, ZF2FS_GC_KNOB_ZONED) &&
	    m->free_secs <= (uint64_t)m->main_secs *
			    zf2fs_gc_model_knob(m, ZF2FS_GC_KNOB_BOOST_ZONED_GC_PERCENT) / 100)
		w *= zf2fs_gc_model_knob(m, ZF2FS_GC_KNOB_BOOST_GC_MULTIPLE);
	end = (uint64_t)first + w;
	return end < sec_end ? (uint32_t)end : sec_end;
}

/* Background collection from segment v->segno: the pages of the segments it moves become
 * dirty, at most migration_granularity segments holding valid blocks; a segment moved or
 * found empty tells where the next call continues. */
static void collect_bg(struct zf2fs_gc_model *m, const struct zf2fs_gc_victim *v)
{
	uint32_t sec_end, end = bg_window_end(m, v->segno, &sec_end), migrated = 0;
	uint32_t gran = zf2fs_gc_model_knob(m, ZF2FS_GC_KNOB_MIGRATION_GRANULARITY);
	struct gc_sec *g = gc_secw(m, v->secno);

	for (uint32_t seg = v->segno; seg < end; seg++) {
		uint32_t n = gc_seg(m, seg)->valid;

		if (n) {
			if (m->sps > 1 && migrated >= gran)
				continue;
			if (gc_seg(m, seg)->type >= ZF2FS_LOG_HOT_NODE &&
			    gc_seg(m, seg)->type <= ZF2FS_LOG_COLD_NODE) {
				g->bg_node += n;
				m->dirty_node += n;
			} else {
				g->bg_data += n;
				m->dirty_data += n;
			}
			migrated++;
		}
		if (m->sps > 1)
			m->next_victim[ZF2FS_GC_BG] = seg + 1 < sec_end ? seg + 1 : GC_NULL;
	}
}

/* Apply a selected victim: FG moves its blocks, BG dirties its pages. */
static int collect(struct zf2fs_gc_model *m, const struct zf2fs_gc_params *q,
		   struct zf2fs_gc_victim *v)
{
	if (q->alloc != ZF2FS_GC_LFS)
		return 0;
	if (v->gc_type == ZF2FS_GC_FG) {
		/* a foreground call goes to the section's end: nothing left to continue */
		int moved = gc_collect_fg_from(m, v->secno, v->segno % m->sps,
					       q->now ? q->now : m->elapsed_time);

		if (moved < 0)
			return moved;
		v->moved_blocks = (uint32_t)moved;
		m->next_victim[ZF2FS_GC_FG] = GC_NULL;
		return 0;
	}
	collect_bg(m, v);
	return m->oom ? -ENOMEM : 0;
}

ZF2FS_EXPORT int zf2fs_gc_collect(struct zf2fs_gc_model *m, const struct zf2fs_gc_params *p,
				  struct zf2fs_gc_victim *v)
{
	return collect(m, p, v);
}

/* Index into a per-step list of @n entries for step @step: the last entry holds. */
static uint32_t step_at(uint32_t step, uint32_t n)
{
	return step < n ? step : n - 1;
}

/* Whether a background round turns foreground: where the kernel's trace says (@q's step
 * types), else when free sections are short after a checkpoint of the prefree ones. */
static bool turns_fg(struct zf2fs_gc_model *m, const struct zf2fs_gc_params *q, bool *cp)
{
	bool forced = q->step_type && q->step_type_n;

	if (forced ? q->step_type[step_at(m->steps, q->step_type_n)] != ZF2FS_GC_FG :
		     !gc_not_enough_free(m, q->lfs_mode, 0))
		return false;
	if (m->prefree_segs) {
		zf2fs_gc_checkpoint(m);
		*cp = true;
	}
	return forced || gc_not_enough_free(m, q->lfs_mode, 0);
}

/* One GC round: a background call short of free sections first checkpoints (prefree
 * becomes free) and, if still short, turns foreground (in @q, for the rest of a call);
 * under Linux 7.3 a foreground one short of them checkpoints first as well; then select
 * and collect. */
static int gc_round(struct zf2fs_gc_model *m, struct zf2fs_gc_params *q,
		    struct zf2fs_gc_victim *v)
{
	bool cp = false;
	int err;

	if (q->step_clock && q->step_clock_n) {
		uint32_t k = step_at(m->steps, q->step_clock_n);
		uint64_t seen = m->elapsed_time + q->step_clock[k];

		/* a write the model did not make (the kernel's flusher, an inode) still moved
		 * the newest-write time the cost-benefit ages are scaled by */
		if (seen > m->max_mtime)
			m->max_mtime = seen;
		q->now = m->elapsed_time + q->step_clock[step_at(k + 1, q->step_clock_n)];
	}
	if (q->alloc == ZF2FS_GC_LFS) {
		/* the kernel's step is background: a call it went on with stays so */
		if (q->step_type && q->step_type_n &&
		    q->step_type[step_at(m->steps, q->step_type_n)] == ZF2FS_GC_BG)
			q->gc_type = ZF2FS_GC_BG;
		if (q->gc_type == ZF2FS_GC_BG && turns_fg(m, q, &cp)) {
			q->gc_type = ZF2FS_GC_FG;
		} else if (q->gc_type == ZF2FS_GC_FG && m->kernel == ZF2FS_GC_LINUX_7_3 &&
			   m->prefree_segs && gc_not_enough_free(m, q->lfs_mode, 0)) {
			/* Linux 7.3 checkpoints first in a foreground call too (6.1 only in a
			 * background one): prefree sections become free before the victim */
			zf2fs_gc_checkpoint(m);
			cp = true;
		}
	}
	m->steps++;
	err = zf2fs_gc_select(m, q, v);
	v->checkpointed = cp;
	if (err)
		return err;
	return collect(m, q, v);
}

ZF2FS_EXPORT int zf2fs_gc_step(struct zf2fs_gc_model *m, const struct zf2fs_gc_params *p,
			       struct zf2fs_gc_victim *ret)
{
	struct zf2fs_gc_params q = *p;

	return gc_round(m, &q, ret);
}

ZF2FS_EXPORT int zf2fs_gc_call(struct zf2fs_gc_model *m, const struct zf2fs_gc_params *p,
			       struct zf2fs_gc_victim *ret, unsigned max, unsigned *ret_n)
{
	struct zf2fs_gc_params q = *p;
	uint32_t sec_freed = 0;
	unsigned n = 0;
	int err = 0;

	*ret_n = 0;
	if (!max)
		return -EINVAL;
	for (;;) {
		struct zf2fs_gc_victim *v = &ret[n];
		uint32_t lower, upper;
		bool ok;

		err = gc_round(m, &q, v);
		if (err)
			break;
		n++;
		/* the kernel counts a section freed when the call emptied all its usable
		 * segments: not when it continued one at a later segment */
		if (q.gc_type == ZF2FS_GC_FG && !(v->segno % m->sps))
			sec_freed++;
		if (p->gc_type == ZF2FS_GC_FG || q.alloc != ZF2FS_GC_LFS)
			break;
		if (p->step_type && p->step_type_n) {
			/* the kernel's next step says whether this call went on foreground */
			if (m->steps >= p->step_type_n ||
			    p->step_type[step_at(m->steps, p->step_type_n)] != ZF2FS_GC_FG)
				break;
		} else if (!gc_not_enough_free(m, q.lfs_mode,
					       q.gc_type == ZF2FS_GC_FG ? sec_freed : 0)) {
			break;
		}
		if (n == max)
			break;
		/* a checkpoint when free sections run low and prefree ones exist */
		secs_required(m, q.lfs_mode, &lower, &upper, &ok);
		if (m->free_secs <= upper + 3 && m->prefree_segs)
			zf2fs_gc_checkpoint(m);
	}
	*ret_n = n;
	if (err == -ENODATA && n)
		err = 0;
	return err;
}
