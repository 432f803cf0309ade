// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * index.c - the victim index: segment trees over the units (sections) of a model.
 *
 * One tree counts dirty units; it answers "how many dirty units in [lo, hi]" and "which
 * unit is the k-th dirty one from lo", which is all the kernel's windowed scan needs to
 * know about where its window ends.  Per view (greedy or cost-benefit cost, foreground
 * or background eligibility) a second tree keeps the smallest key cost << 32 | unit, so
 * the minimum over a range is the first unit in scan order with the minimum cost, as the
 * kernel's strict "<" comparison picks it.  Updates and queries are O(log n).  The trees
 * are chunked (ctree.c): memory follows the dirty units, not the volume's size.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "gc/gc_p.h"

void gc_index_free(struct gc_index *ix)
{
	gc_ctree_free(&ix->count);
	for (int v = 0; v < GC_NR_VIEWS; v++)
		gc_ctree_free(&ix->key[v]);
	ix->nunits = 0;
	ix->have_count = ix->broken = false;
	for (int v = 0; v < GC_NR_VIEWS; v++)
		ix->have_key[v] = false;
}

static bool view_is_cb(enum gc_view v)
{
	return v == GC_VIEW_CB_FG || v == GC_VIEW_CB_BG;
}

static bool view_is_bg(enum gc_view v)
{
	return v == GC_VIEW_GREEDY_BG || v == GC_VIEW_CB_BG;
}

static uint64_t leaf_key(const struct zf2fs_gc_model *m, enum gc_view v, uint32_t u)
{
	uint32_t cost;

	if (!gc_sec(m, u)->dirty || gc_sec_is_current(m, u))
		return GC_KEY_NONE;
	if (view_is_bg(v) && gc_sec(m, u)->victim)
		return GC_KEY_NONE;
	if (view_is_cb(v))
		cost = gc_cb_cost(m, u, m->idx.cb_min, m->idx.cb_max, NULL);
	else
		cost = gc_sec(m, u)->valid;
	return (uint64_t)cost << 32 | u;
}

static int ensure_count(struct zf2fs_gc_model *m)
{
	struct gc_index *ix = &m->idx;
	int err;

	if (ix->have_count)
		return 0;
	err = gc_ctree_init(&ix->count, m->main_secs, true, false);
	if (err)
		return err;
	ix->have_count = true;
	ix->nunits = m->main_secs;
	for (uint32_t u = 0; u < m->main_secs && !err; u++)
		if (gc_sec(m, u)->dirty)
			err = gc_ctree_set(&ix->count, u, 1, 0);
	return err;
}

static bool sec_cb_in_bounds(const struct zf2fs_gc_model *m, uint32_t u)
{
	uint64_t mt = gc_sec_mtime_cb(m, u);

	return mt >= m->idx.cb_min && mt <= m->idx.cb_max;
}

/* A view from scratch: only dirty units have a key, and the count tree says which. */
static int build_view(struct zf2fs_gc_model *m, enum gc_view v)
{
	struct gc_index *ix = &m->idx;
	struct gc_ctree *t = &ix->key[v];
	int err;

	gc_ctree_free(t);
	ix->have_key[v] = false;
	err = gc_ctree_init(t, ix->nunits, false, true);
	if (err)
		return err;
	ix->have_key[v] = true;
	for (uint32_t c = 0; c < ix->count.nchunks && !err; c++) {
		const uint32_t *cnt = ix->count.cnt[c];

		if (!cnt)
			continue;
		for (uint32_t l = 0; l < GC_CTREE_CHUNK && !err; l++)
			if (cnt[GC_CTREE_CHUNK + l])
				err = gc_ctree_set(t, c * GC_CTREE_CHUNK + l, 0,
						   leaf_key(m, v, c * GC_CTREE_CHUNK + l));
	}
	return err;
}

int gc_index_cb_bounds(struct zf2fs_gc_model *m)
{
	struct gc_index *ix = &m->idx;
	int err = 0;

	if (ix->cb_min == m->min_mtime && ix->cb_max == m->max_mtime &&
	    (ix->have_key[GC_VIEW_CB_FG] || ix->have_key[GC_VIEW_CB_BG]))
		return 0;
	ix->cb_min = m->min_mtime;
	ix->cb_max = m->max_mtime;
	/* The kernel widens its bounds with every cost it computes; when no unit can widen
	 * them the costs do not depend on scan order and the index is exact. */
	ix->cb_exact = true;
	for (uint32_t u = 0; u < m->main_secs && ix->cb_exact; u++)
		ix->cb_exact = sec_cb_in_bounds(m, u);
	if (ix->have_key[GC_VIEW_CB_FG])
		err = build_view(m, GC_VIEW_CB_FG);
	if (!err && ix->have_key[GC_VIEW_CB_BG])
		err = build_view(m, GC_VIEW_CB_BG);
	if (err)
		ix->broken = true;
	return err;
}

int gc_index_view(struct zf2fs_gc_model *m, enum gc_view v)
{
	struct gc_index *ix = &m->idx;
	int err;

	if (ix->broken)
		return -EAGAIN;
	err = ensure_count(m);
	if (!err && view_is_cb(v))
		err = gc_index_cb_bounds(m);
	if (!err && !ix->have_key[v])
		err = build_view(m, v);
	if (err) {
		/* out of memory part way: the literal scan answers from now on */
		ix->broken = true;
		return -EAGAIN;
	}
	return 0;
}

void gc_index_update(struct zf2fs_gc_model *m, uint32_t u)
{
	struct gc_index *ix = &m->idx;
	int err;

	if (!ix->have_count || ix->broken || u >= ix->nunits)
		return;
	err = gc_ctree_set(&ix->count, u, gc_sec(m, u)->dirty, 0);
	if ((ix->have_key[GC_VIEW_CB_FG] || ix->have_key[GC_VIEW_CB_BG]) && !sec_cb_in_bounds(m, u))
		ix->cb_exact = false;
	for (int v = 0; v < GC_NR_VIEWS && !err; v++)
		if (ix->have_key[v])
			err = gc_ctree_set(&ix->key[v], u, 0, leaf_key(m, (enum gc_view)v, u));
	if (err)
		ix->broken = true;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* ---- the segment tree primitives (also the simulator's SSR candidate trees) ---------- */
void gc_tree_set(uint32_t *cnt, uint64_t *key, uint32_t size, uint32_t leaf, uint32_t c,
		 uint64_t k)
{
	uint32_t i;

	if (cnt) {
		cnt[size + leaf] = c;
		for (i = (size + leaf) >> 1; i >= 1; i >>= 1)
			cnt[i] = cnt[2 * i] + cnt[2 * i + 1];
	}
	if (key) {
		key[size + leaf] = k;
		for (i = (size + leaf) >> 1; i >= 1; i >>= 1)
			key[i] = min64(key[2 * i], key[2 * i + 1]);
	}
}

uint32_t gc_tree_count(const uint32_t *cnt, uint32_t size, uint32_t lo, uint32_t hi)
{
	uint32_t sum = 0, l, r;

	for (l = lo + size, r = hi + size + 1; l < r; l >>= 1, r >>= 1) {
		if (l & 1)
			sum += cnt[l++];
		if (r & 1)
			sum += cnt[--r];
	}
	return sum;
}

uint32_t gc_tree_kth(const uint32_t *cnt, uint32_t size, uint32_t lo, uint32_t k)
{
	uint32_t i = 1;

	k += lo ? gc_tree_count(cnt, size, 0, lo - 1) : 0;
	if (!k || k > cnt[1])
		return size;
	while (i < size) {
		if (cnt[2 * i] >= k) {
			i = 2 * i;
		} else {
			k -= cnt[2 * i];
			i = 2 * i + 1;
		}
	}
	return i - size;
}

uint64_t gc_tree_min(const uint64_t *key, uint32_t size, uint32_t lo, uint32_t hi)
{
	uint64_t best = GC_KEY_NONE;
	uint32_t l, r;

	for (l = lo + size, r = hi + size + 1; l < r; l >>= 1, r >>= 1) {
		if (l & 1)
			best = min64(best, key[l++]);
		if (r & 1)
			best = min64(best, key[--r]);
	}
	return best;
}

/* ---- the victim index's queries ---------------------------------------------------------- */
uint32_t gc_index_count(const struct gc_index *ix, uint32_t lo, uint32_t hi)
{
	return gc_ctree_count(&ix->count, lo, hi);
}

uint32_t gc_index_kth(const struct gc_index *ix, uint32_t lo, uint32_t k)
{
	return gc_ctree_kth(&ix->count, lo, k);
}

uint64_t gc_index_min(const struct gc_index *ix, enum gc_view v, uint32_t lo, uint32_t hi)
{
	return gc_ctree_min(&ix->key[v], lo, hi);
}
