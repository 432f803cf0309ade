// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ctree.c - segment trees in chunks: memory that follows the marked units.
 *
 * A 15 TiB volume has 7.8 million sections; one flat tree of counts and one of keys per
 * view took 64 + 128 MiB per view there even when a handful of sections were dirty.  The
 * units are cut into chunks of GC_CTREE_CHUNK; a chunk's own small tree exists only while
 * one of its units is marked (count nonzero or key set), and a top tree over the chunks
 * holds each chunk's root.  A query covers a partial chunk at each end and whole chunks
 * in between through the top tree: the answers are those of one flat tree.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gc/gc_p.h"

#define CHUNK GC_CTREE_CHUNK
#define CHUNK_MASK (CHUNK - 1)

int gc_ctree_init(struct gc_ctree *t, uint32_t nunits, bool with_count, bool with_key)
{
	uint32_t size = 1;

	memset(t, 0, sizeof(*t));
	t->nunits = nunits;
	t->nchunks = (uint32_t)(((uint64_t)nunits + CHUNK - 1) / CHUNK);
	while (size < t->nchunks)
		size <<= 1;
	t->top_size = size;
	if (with_count) {
		t->top_cnt = calloc(2 * (size_t)size, sizeof(*t->top_cnt));
		t->cnt = calloc(t->nchunks ? t->nchunks : 1, sizeof(*t->cnt));
		if (!t->top_cnt || !t->cnt)
			goto nomem;
	}
	if (with_key) {
		t->top_key = malloc(2 * (size_t)size * sizeof(*t->top_key));
		t->key = calloc(t->nchunks ? t->nchunks : 1, sizeof(*t->key));
		if (!t->top_key || !t->key)
			goto nomem;
		for (size_t i = 0; i < 2 * (size_t)size; i++)
			t->top_key[i] = GC_KEY_NONE;
	}
	return 0;
nomem:
	gc_ctree_free(t);
	return -ENOMEM;
}

void gc_ctree_free(struct gc_ctree *t)
{
	for (uint32_t c = 0; c < t->nchunks; c++) {
		if (t->cnt)
			free(t->cnt[c]);
		if (t->key)
			free(t->key[c]);
	}
	free(t->cnt);
	free(t->key);
	free(t->top_cnt);
	free(t->top_key);
	memset(t, 0, sizeof(*t));
}

size_t gc_ctree_chunks_held(const struct gc_ctree *t)
{
	size_t n = 0;

	for (uint32_t c = 0; c < t->nchunks; c++)
		n += (t->cnt && t->cnt[c]) + (t->key && t->key[c]);
	return n;
}

static int set_count(struct gc_ctree *t, uint32_t c, uint32_t leaf, uint32_t v)
{
	uint32_t *a = t->cnt[c];

	if (!a) {
		if (!v)
			return 0;
		a = t->cnt[c] = calloc(2 * CHUNK, sizeof(*a));
		if (!a)
			return -ENOMEM;
	}
	gc_tree_set(a, NULL, CHUNK, leaf, v, 0);
	gc_tree_set(t->top_cnt, NULL, t->top_size, c, a[1], 0);
	if (!a[1]) {
		free(a);
		t->cnt[c] = NULL;
	}
	return 0;
}

static int set_key(struct gc_ctree *t, uint32_t c, uint32_t leaf, uint64_t k)
{
	uint64_t *a = t->key[c];

	if (!a) {
		if (k == GC_KEY_NONE)
			return 0;
		a = t->key[c] = malloc(2 * CHUNK * sizeof(*a));
		if (!a)
			return -ENOMEM;
		for (uint32_t i = 0; i < 2 * CHUNK; i++)
			a[i] = GC_KEY_NONE;
	}
	gc_tree_set(NULL, a, CHUNK, leaf, 0, k);
	gc_tree_set(NULL, t->top_key, t->top_size, c, 0, a[1]);
	if (a[1] == GC_KEY_NONE) {
		free(a);
		t->key[c] = NULL;
	}
	return 0;
}

int gc_ctree_set(struct gc_ctree *t, uint32_t u, uint32_t count, uint64_t key)
{
	uint32_t c = u / CHUNK, leaf = u & CHUNK_MASK;
	int err = 0;

	if (u >= t->nunits)
		return 0;
	if (t->cnt)
		err = set_count(t, c, leaf, count);
	if (!err && t->key)
		err = set_key(t, c, leaf, key);
	return err;
}

static uint32_t chunk_count(const struct gc_ctree *t, uint32_t c, uint32_t lo, uint32_t hi)
{
	return t->cnt[c] ? gc_tree_count(t->cnt[c], CHUNK, lo, hi) : 0;
}

uint32_t gc_ctree_count(const struct gc_ctree *t, uint32_t lo, uint32_t hi)
{
	uint32_t cl, ch, sum;

	if (!t->cnt || lo > hi || lo >= t->nunits)
		return 0;
	if (hi >= t->nunits)
		hi = t->nunits - 1;
	cl = lo / CHUNK;
	ch = hi / CHUNK;
	if (cl == ch)
		return chunk_count(t, cl, lo & CHUNK_MASK, hi & CHUNK_MASK);
	sum = chunk_count(t, cl, lo & CHUNK_MASK, CHUNK - 1) + chunk_count(t, ch, 0, hi & CHUNK_MASK);
	if (cl + 1 < ch)
		sum += gc_tree_count(t->top_cnt, t->top_size, cl + 1, ch - 1);
	return sum;
}

uint32_t gc_ctree_kth(const struct gc_ctree *t, uint32_t lo, uint32_t k)
{
	uint32_t cl, here, c, u;

	if (!t->cnt || !k || lo >= t->nunits)
		return t->nunits;
	cl = lo / CHUNK;
	here = chunk_count(t, cl, lo & CHUNK_MASK, CHUNK - 1);
	if (k <= here) {
		u = cl * CHUNK + gc_tree_kth(t->cnt[cl], CHUNK, lo & CHUNK_MASK, k);
		return u < t->nunits ? u : t->nunits;
	}
	k -= here;
	if (cl + 1 >= t->nchunks)
		return t->nunits;
	c = gc_tree_kth(t->top_cnt, t->top_size, cl + 1, k);
	if (c >= t->nchunks || !t->cnt[c])
		return t->nunits;
	if (c > cl + 1)
		k -= gc_tree_count(t->top_cnt, t->top_size, cl + 1, c - 1);
	u = c * CHUNK + gc_tree_kth(t->cnt[c], CHUNK, 0, k);
	return u < t->nunits ? u : t->nunits;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t chunk_min(const struct gc_ctree *t, uint32_t c, uint32_t lo, uint32_t hi)
{
	return t->key[c] ? gc_tree_min(t->key[c], CHUNK, lo, hi) : GC_KEY_NONE;
}

uint64_t gc_ctree_min(const struct gc_ctree *t, uint32_t lo, uint32_t hi)
{
	uint32_t cl, ch;
	uint64_t best;

	if (!t->key || lo > hi || lo >= t->nunits)
		return GC_KEY_NONE;
	if (hi >= t->nunits)
		hi = t->nunits - 1;
	cl = lo / CHUNK;
	ch = hi / CHUNK;
	if (cl == ch)
		return chunk_min(t, cl, lo & CHUNK_MASK, hi & CHUNK_MASK);
	best = min64(chunk_min(t, cl, lo & CHUNK_MASK, CHUNK - 1),
		     chunk_min(t, ch, 0, hi & CHUNK_MASK));
	if (cl + 1 < ch)
		best = min64(best, gc_tree_min(t->top_key, t->top_size, cl + 1, ch - 1));
	return best;
}
