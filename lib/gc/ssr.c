// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ssr.c - SSR in the GC simulator (mode=adaptive): when free sections run low
 * (f2fs_need_SSR) a full log takes a dirty segment of its own kind instead of a free
 * section (get_ssr_segment, change_curseg) and writes into the blocks neither valid nor
 * valid at the last checkpoint.  The segment is the one the kernel's windowed greedy scan
 * on checkpointed valid blocks picks; per log type a segment tree (index.c's
 * primitives) holds the candidates and answers that scan in O(log n), the reference scan
 * of select.c stays for the scan engine and for volumes with large sections.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gc/simulate_p.h"


/* The next block of @seg at or after @from that SSR may write: neither valid now nor
 * valid at the last checkpoint (the kernel ORs the two maps). */
uint32_t gc_ssr_next_free(void *arg, uint32_t seg, uint32_t from)
{
	struct zf2fs_gc_sim *s = arg;
	const uint32_t *p = s->p2l + ((uint64_t)seg << s->m->log_bps);
	uint32_t end = gc_seg_usable(s->m, seg);

	while (from < end && p[from] != LID_NONE)
		from++;
	return from;
}

static void tree_set(struct ssr_tree *t, uint32_t seg, uint32_t cnt, uint64_t key)
{
	gc_tree_set(t->cnt, t->key, t->size, seg, cnt, key);
}

/* candidates in [lo, hi] */
static uint32_t tree_count(const struct ssr_tree *t, uint32_t lo, uint32_t hi)
{
	return gc_tree_count(t->cnt, t->size, lo, hi);
}

static uint64_t tree_min(const struct ssr_tree *t, uint32_t lo, uint32_t hi)
{
	return gc_tree_min(t->key, t->size, lo, hi);
}

/* the segment of the @k-th (1-based) candidate at or after @lo (there are k) */
static uint32_t tree_kth(const struct ssr_tree *t, uint32_t lo, uint32_t k)
{
	return gc_tree_kth(t->cnt, t->size, lo, k);
}

/* enter @seg in the tree of its type when it is an SSR candidate: in the kernel's
 * dirty_segmap[type], i.e. some but not all blocks valid, and not current */
static void ssr_map_seg(struct zf2fs_gc_sim *s, uint32_t seg)
{
	struct zf2fs_gc_model *m = s->m;
	uint32_t v = gc_seg(m, seg)->valid;
	int t = gc_seg(m, seg)->type, in = 0;
	uint64_t key = UINT64_MAX;

	if (v && v < gc_seg_usable(m, seg) && t < GC_NR_LOGS) {
		in = t + 1;
		for (int i = 0; i < GC_NR_LOGS; i++)
			if (m->cur_seg[i] == seg)
				in = 0;
	}
	if (in)
		key = (uint64_t)gc_seg(m, seg)->ckpt_valid << 32 | seg;
	if (s->ssr_in[seg] && s->ssr_in[seg] != in)
		tree_set(&s->ssr_tree[s->ssr_in[seg] - 1], seg, 0, UINT64_MAX);
	if (in) {
		struct ssr_tree *tr = &s->ssr_tree[in - 1];

		if (s->ssr_in[seg] != in || tr->key[tr->size + seg] != key)
			tree_set(tr, seg, 1, key);
	}
	s->ssr_in[seg] = (uint8_t)in;
}

/* Bring the SSR candidate trees up to date: the segments touched since, and the current
 * segments then and now (a segment stops or starts being current without a write). */
static void ssr_flush(struct zf2fs_gc_sim *s)
{
	struct zf2fs_gc_model *m = s->m;

	if (!s->ssr_queued)
		return;
	for (int l = 0; l < GC_NR_LOGS; l++)
		if (m->cur_seg[l] != s->ssr_cur[l]) {
			if (s->ssr_cur[l] != GC_NULL)
				ssr_touch(s, s->ssr_cur[l]);
			if (m->cur_seg[l] != GC_NULL)
				ssr_touch(s, m->cur_seg[l]);
			s->ssr_cur[l] = m->cur_seg[l];
		}
	for (uint32_t i = 0; i < s->nssr_list; i++) {
		s->ssr_queued[s->ssr_list[i]] = 0;
		ssr_map_seg(s, s->ssr_list[i]);
	}
	s->nssr_list = 0;
}

static bool seg_free(const struct zf2fs_gc_model *m, uint32_t seg)
{
	if (gc_seg(m, seg)->valid || gc_seg(m, seg)->prefree)
		return false;
	for (int i = 0; i < GC_NR_LOGS; i++)
		if (m->cur_seg[i] == seg)
			return false;
	return true;
}

/* f2fs_need_SSR: free sections down to the dirty node sections plus min_ssr_sections
 * (the reserved sections) plus the reserved sections. */
static bool need_ssr(const struct zf2fs_gc_model *m)
{
	uint64_t per_sec = (uint64_t)m->sps << m->log_bps;
	uint64_t node_secs = ((m->dirty_node + per_sec - 1) >> m->log_bps) / m->sps;

	return m->free_secs <= node_secs + 2ull * m->reserved_secs;
}

/*
 * The kernel's SSR selection from the tree (one segment per section, no section marked by
 * background GC: then no candidate is skipped but the victim being emptied, which the
 * scan counts and passes over): the scan visits the candidates from the cursor on
 * (from 0 for hot data and node logs, no_heap), wraps to the cursor's old value when
 * it started past 0, and stops after the window; the first of the smallest cost wins.
 */
static uint32_t ssr_pick_tree(struct zf2fs_gc_sim *s, int t)
{
	struct zf2fs_gc_model *m = s->m;
	struct ssr_tree *tr = &s->ssr_tree[t];
	uint32_t n = m->total_segs, *lv = &m->last_victim[ZF2FS_GC_GREEDY], l0 = *lv;
	uint32_t w = tr->cnt[1], o, c1, hi1 = n - 1, nlv = l0, vseg = s->mv_seg;
	uint64_t k1, k2 = UINT64_MAX, vkey = 0;
	bool hide = vseg != GC_NULL && s->ssr_in[vseg] == t + 1;

	if (w > s->cfg.fg.max_search)
		w = s->cfg.fg.max_search;
	if (!w)
		return GC_NULL;
	o = t == ZF2FS_LOG_HOT_DATA || t >= ZF2FS_LOG_HOT_NODE ? 0 : l0;
	if (hide) {
		vkey = tr->key[tr->size + vseg];
		tree_set(tr, vseg, 1, UINT64_MAX);
	}
	c1 = tree_count(tr, o, n - 1);
	if (w <= c1) {
		hi1 = tree_kth(tr, o, w);
		nlv = (hi1 + 1) % n;
	} else if (l0) {
		uint32_t r = w - c1, c2 = tree_count(tr, 0, l0 - 1), hi2 = l0 - 1;

		nlv = 0;
		if (r <= c2) {
			hi2 = tree_kth(tr, 0, r);
			nlv = (l0 + 1) % n;
		}
		k2 = tree_min(tr, 0, hi2);
	}
	k1 = o < n ? tree_min(tr, o, hi1) : UINT64_MAX;
	if (hide)
		tree_set(tr, vseg, 1, vkey);
	*lv = nlv;
	/* the first pass comes first in scan order: it wins ties */
	if (k2 != UINT64_MAX && (k1 == UINT64_MAX || (k2 >> 32) < (k1 >> 32)))
		k1 = k2;
	if (k1 == UINT64_MAX || (k1 >> 32) >= m->bps)
		return GC_NULL;
	return (uint32_t)k1;
}

/* One SSR victim of log type @t (greedy on checkpointed valid blocks, the kernel's
 * window); GC_NULL when none.  The section GC is emptying is no candidate (the kernel
 * skips cur_victim_sec): for the scan it is marked as a background victim, which the
 * search skips. */
static int ssr_pick(struct zf2fs_gc_sim *s, int t, uint32_t *ret_seg)
{
	struct zf2fs_gc_model *m = s->m;
	struct zf2fs_gc_params p;
	struct zf2fs_gc_victim v;
	uint32_t vsec = s->mv_seg != GC_NULL ? s->mv_seg / m->sps : GC_NULL;
	bool mark = vsec != GC_NULL && !gc_sec(m, vsec)->victim;
	int err;

	if (s->ssr_in && m->sps == 1 && !m->nr_marked) {
		*ret_seg = ssr_pick_tree(s, t);
		return 0;
	}

	zf2fs_gc_params_init(&p, ZF2FS_GC_BG);
	p.alloc = ZF2FS_GC_SSR;
	p.ssr_type = t;
	p.max_search = s->cfg.fg.max_search;
	p.engine = ZF2FS_GC_ENGINE_SCAN;
	if (mark) {
		gc_secw(m, vsec)->victim = 1;
		m->nr_marked++;
	}
	err = zf2fs_gc_select(m, &p, &v);
	if (mark) {
		gc_secw(m, vsec)->victim = 0;
		m->nr_marked--;
	}
	*ret_seg = err ? GC_NULL : v.segno;
	return err == -ENODATA ? 0 : err;
}

/*
 * A full log wants a segment (need_new_seg / get_ssr_segment / change_curseg): an LFS
 * log whose section has its next segment free goes on there; otherwise, when SSR is
 * needed, a dirty segment of the log's own type, else of the other temperatures of the
 * same kind (data for data logs, node for node logs) in the kernel's order, becomes the
 * current segment and takes that type.
 */
int gc_ssr_alloc(void *arg, int l)
{
	struct zf2fs_gc_sim *s = arg;
	struct zf2fs_gc_model *m = s->m;
	uint32_t cur = m->cur_seg[l], seg = GC_NULL;
	int base = l >= ZF2FS_LOG_HOT_NODE ? ZF2FS_LOG_HOT_NODE : ZF2FS_LOG_HOT_DATA;
	int order[3], n = 0, err;

	if (!m->ssr[l] && cur != GC_NULL && (cur + 1) % m->sps && cur + 1 < m->total_segs &&
	    seg_free(m, cur + 1))
		return 0;
	if (!need_ssr(m))
		return 0;
	ssr_flush(s);
	order[n++] = l;
	if (l - base >= 1) {            /* warm and cold: cold first, downwards */
		for (int t = base + 2; t >= base; t--)
			if (t != l)
				order[n++] = t;
	} else {
		for (int t = base; t <= base + 2; t++)
			if (t != l)
				order[n++] = t;
	}
	for (int i = 0; i < n && seg == GC_NULL; i++) {
		err = ssr_pick(s, order[i], &seg);
		if (err)
			return err;
	}
	/* a slot within the usable blocks (a zone's capacity may end before the segment) */
	if (seg == GC_NULL || gc_ssr_next_free(s, seg, 0) >= gc_seg_usable(m, seg))
		return 0;
	m->cur_seg[l] = seg;
	gc_segw(m, seg)->type = (uint8_t)l;
	m->ssr[l] = 1;
	m->cur_off[l] = gc_ssr_next_free(s, seg, 0);
	ssr_touch(s, seg);
	gc_refresh_sec(m, seg / m->sps);
	if (cur != GC_NULL)
		gc_refresh_sec(m, cur / m->sps);
	s->st[s->phase].ssr_segments++;
	return 1;
}

int gc_ssr_setup(struct zf2fs_gc_sim *s)
{
	struct zf2fs_gc_model *m = s->m;
	uint32_t size = 1;

	while (size < m->total_segs)
		size *= 2;
	s->ssr_in = calloc(m->total_segs, 1);
	s->ssr_queued = calloc(m->total_segs, 1);
	s->ssr_list = malloc((size_t)m->total_segs * sizeof(*s->ssr_list));
	if (!s->ssr_in || !s->ssr_queued || !s->ssr_list)
		return -ENOMEM;
	for (int t = 0; t < GC_NR_LOGS; t++) {
		struct ssr_tree *tr = &s->ssr_tree[t];

		tr->size = size;
		tr->cnt = calloc(2 * (size_t)size, sizeof(*tr->cnt));
		tr->key = malloc(2 * (size_t)size * sizeof(*tr->key));
		if (!tr->cnt || !tr->key)
			return -ENOMEM;
		memset(tr->key, 0xff, 2 * (size_t)size * sizeof(*tr->key));
	}
	for (int l = 0; l < GC_NR_LOGS; l++)
		s->ssr_cur[l] = m->cur_seg[l];
	for (uint32_t seg = 0; seg < m->total_segs; seg++)
		ssr_map_seg(s, seg);
	return 0;
}

void gc_ssr_free(struct zf2fs_gc_sim *s)
{
	for (int t = 0; t < GC_NR_LOGS; t++) {
		free(s->ssr_tree[t].cnt);
		free(s->ssr_tree[t].key);
	}
	free(s->ssr_in);
	free(s->ssr_queued);
	free(s->ssr_list);
}
