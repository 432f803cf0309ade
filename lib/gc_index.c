// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gc_index.c - the victim index: segment trees over the units (sections) of a model.
 *
 * One tree counts dirty units; it answers "how many dirty units in [lo, hi]" and "which
 * unit is the k-th dirty one from lo", which is all the kernel's windowed scan needs to
 * know about where its window ends.  Per view (greedy or cost-benefit cost, foreground
 * or background eligibility) a second tree keeps the smallest key cost << 32 | unit, so
 * the minimum over a range is the first unit in scan order with the minimum cost, as the
 * kernel's strict "<" comparison picks it.  Updates and queries are O(log n).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "gc_p.h"

void gc_index_free(struct gc_index *ix)
{
	free(ix->count);
	ix->count = NULL;
	for (int v = 0; v < GC_NR_VIEWS; v++) {
		free(ix->key[v]);
		ix->key[v] = NULL;
	}
	ix->size = ix->nunits = 0;
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

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static int ensure_count(struct zf2fs_gc_model *m)
{
	struct gc_index *ix = &m->idx;
	uint32_t size = 1;

	if (ix->count)
		return 0;
	while (size < m->main_secs)
		size <<= 1;
	ix->count = calloc(2 * (size_t)size, sizeof(*ix->count));
	if (!ix->count)
		return -ENOMEM;
	ix->size = size;
	ix->nunits = m->main_secs;
	for (uint32_t u = 0; u < m->main_secs; u++)
		ix->count[size + u] = gc_sec(m, u)->dirty;
	for (uint32_t i = size - 1; i >= 1; i--)
		ix->count[i] = ix->count[2 * i] + ix->count[2 * i + 1];
	return 0;
}

static bool sec_cb_in_bounds(const struct zf2fs_gc_model *m, uint32_t u)
{
	uint64_t mt = gc_sec_mtime_cb(m, u);

	return mt >= m->idx.cb_min && mt <= m->idx.cb_max;
}

static void build_view(struct zf2fs_gc_model *m, enum gc_view v)
{
	struct gc_index *ix = &m->idx;
	uint64_t *k = ix->key[v];

	for (uint32_t u = 0; u < ix->size; u++)
		k[ix->size + u] = u < m->main_secs ? leaf_key(m, v, u) : GC_KEY_NONE;
	for (uint32_t i = ix->size - 1; i >= 1; i--)
		k[i] = min64(k[2 * i], k[2 * i + 1]);
}

int gc_index_cb_bounds(struct zf2fs_gc_model *m)
{
	struct gc_index *ix = &m->idx;

	if (ix->cb_min == m->min_mtime && ix->cb_max == m->max_mtime &&
	    (ix->key[GC_VIEW_CB_FG] || ix->key[GC_VIEW_CB_BG]))
		return 0;
	ix->cb_min = m->min_mtime;
	ix->cb_max = m->max_mtime;
	/* The kernel widens its bounds with every cost it computes; when no unit can widen
	 * them the costs do not depend on scan order and the index is exact. */
	ix->cb_exact = true;
	for (uint32_t u = 0; u < m->main_secs && ix->cb_exact; u++)
		ix->cb_exact = sec_cb_in_bounds(m, u);
	if (ix->key[GC_VIEW_CB_FG])
		build_view(m, GC_VIEW_CB_FG);
	if (ix->key[GC_VIEW_CB_BG])
		build_view(m, GC_VIEW_CB_BG);
	return 0;
}

int gc_index_view(struct zf2fs_gc_model *m, enum gc_view v)
{
	struct gc_index *ix = &m->idx;
	int err = ensure_count(m);

	if (err)
		return err;
	if (view_is_cb(v))
		gc_index_cb_bounds(m);
	if (ix->key[v])
		return 0;
	ix->key[v] = malloc(2 * (size_t)ix->size * sizeof(uint64_t));
	if (!ix->key[v])
		return -ENOMEM;
	ix->key[v][0] = GC_KEY_NONE;
	build_view(m, v);
	return 0;
}

void gc_index_update(struct zf2fs_gc_model *m, uint32_t u)
{
	struct gc_index *ix = &m->idx;

	if (!ix->count || u >= ix->nunits)
		return;
	gc_tree_set(ix->count, NULL, ix->size, u, gc_sec(m, u)->dirty, 0);
	if ((ix->key[GC_VIEW_CB_FG] || ix->key[GC_VIEW_CB_BG]) && !sec_cb_in_bounds(m, u))
		ix->cb_exact = false;
	for (int v = 0; v < GC_NR_VIEWS; v++)
		if (ix->key[v])
			gc_tree_set(NULL, ix->key[v], ix->size, u, 0,
				    leaf_key(m, (enum gc_view)v, u));
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
	if (lo > hi || lo >= ix->nunits)
		return 0;
	if (hi >= ix->nunits)
		hi = ix->nunits - 1;
	return gc_tree_count(ix->count, ix->size, lo, hi);
}

uint32_t gc_index_kth(const struct gc_index *ix, uint32_t lo, uint32_t k)
{
	uint32_t u;

	if (!k)
		return ix->nunits;
	u = gc_tree_kth(ix->count, ix->size, lo, k);
	return u < ix->nunits ? u : ix->nunits;
}

uint64_t gc_index_min(const struct gc_index *ix, enum gc_view v, uint32_t lo, uint32_t hi)
{
	if (lo > hi || lo >= ix->nunits)
		return GC_KEY_NONE;
	if (hi >= ix->nunits)
		hi = ix->nunits - 1;
	return gc_tree_min(ix->key[v], ix->size, lo, hi);
}
