/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gc_p.h - private parts of the GC model: the model struct, the victim index and the
 * helpers shared by model.c (state, mount-time derivation, moves), select.c
 * (policies, costs, the reference scan and the indexed selection) and index.c.
 */
#ifndef ZF2FS_GC_P_H
#define ZF2FS_GC_P_H

#include <stdint.h>

#include "zf2fs/gc.h"

#define GC_NULL 0xFFFFFFFFu
#define GC_NR_LOGS 6
#define GC_KEY_NONE UINT64_MAX

/*
 * A segment tree over units (sections, or segments when a section has one): per node
 * the number of dirty units below it, and per view the smallest key below it, where a
 * key is cost << 32 | unit (ineligible units: GC_KEY_NONE), so the minimum key is the
 * first unit of minimum cost.
 */
enum gc_view { GC_VIEW_GREEDY_FG, GC_VIEW_GREEDY_BG, GC_VIEW_CB_FG, GC_VIEW_CB_BG,
	       GC_NR_VIEWS };

/* A segment tree cut in chunks of GC_CTREE_CHUNK units (ctree.c): a chunk's tree
 * exists only while one of its units is marked; the top tree holds the chunks' roots. */
#define GC_CTREE_CHUNK 4096u
struct gc_ctree {
	uint32_t nunits, nchunks, top_size;
	uint32_t *top_cnt;          /* 2 * top_size, NULL: no counts */
	uint64_t *top_key;          /* 2 * top_size, NULL: no keys */
	uint32_t **cnt;             /* per chunk: 2 * GC_CTREE_CHUNK, or NULL (all zero) */
	uint64_t **key;             /* per chunk: 2 * GC_CTREE_CHUNK, or NULL (all NONE) */
};

struct gc_index {
	uint32_t nunits;
	struct gc_ctree count;
	struct gc_ctree key[GC_NR_VIEWS]; /* built when a view is first used */
	bool have_count, have_key[GC_NR_VIEWS];
	bool broken;                /* out of memory once: the literal scan answers */
	uint64_t cb_min, cb_max;    /* bounds the CB view was built with */
	bool cb_exact;              /* every section's mtime lies within those bounds */
};

/* What the model keeps of one segment. */
struct gc_seg {
	uint64_t mtime;
	uint16_t valid, ckpt_valid;
	uint8_t type;
	uint8_t prefree;            /* 1: prefree until the next checkpoint */
	uint8_t cp_mark;            /* in cp_list */
};

/* What the model keeps of one section. */
struct gc_sec {
	uint32_t valid;
	uint8_t dirty;              /* in the kernel's dirty unit map (dirty_secmap/DIRTY) */
	uint8_t victim;             /* victim_secmap */
	uint32_t bg_data, bg_node;  /* pages background GC dirtied and did not write yet */
};

#define GC_SEG_CHUNK_SHIFT 9u
#define GC_SEG_CHUNK (1u << GC_SEG_CHUNK_SHIFT)

struct zf2fs_gc_model {
	/* geometry */
	uint32_t main_secs, sps, total_segs, log_bps, bps, cap, usegs, unusable;
	uint32_t log_blocksize;   /* of the volume it was loaded from; 0: 4 KiB blocks */
	uint32_t rsvd_segments, ovp_segments, reserved_secs;
	/* per segment: records in chunks of GC_SEG_CHUNK, allocated when one of their
	 * segments is first written (a never-used segment reads as gc_seg_zero); @oom is set
	 * when a chunk could not be allocated (the write went to @scratch) */
	struct gc_seg **seg_chunk;
	uint32_t seg_nchunks;
	struct gc_seg scratch;
	bool oom;
	/* segments whose valid count changed since the last checkpoint (cp_mark set; the
	 * checkpoint visits these only, not the whole main area) */
	uint32_t *cp_list, cp_n, cp_cap; /* cp_list grows with the segments in use */
	bool cp_all;                /* cp_list could not grow: the checkpoint visits every
				     * segment (same result, more time) */
	/* per section: records in chunks as for segments; never-used sections read as
	 * gc_sec_zero */
	struct gc_sec **sec_chunk;
	uint32_t sec_nchunks;
	struct gc_sec sec_scratch;
	uint32_t nr_marked;         /* sections set in victim_map */
	uint64_t dirty_data, dirty_node;  /* dirty pages the free-section rule counts */
	uint32_t nr_dirty_units;
	uint32_t free_secs, prefree_segs;
	/* logs */
	uint32_t cur_seg[GC_NR_LOGS], cur_off[GC_NR_LOGS];
	/* runtime state */
	uint32_t last_victim[5];
	uint64_t elapsed_time, min_mtime, max_mtime;
	uint32_t steps;             /* selections made (the index into a step clock) */
	uint64_t dirty_max_mtime, dirty_min_mtime;   /* ATGC */
	bool ready;
	struct gc_index idx;
	/* simulation hooks (simulate.c); NULL for replay: a foreground move of one block out of
	 * segment @src to block @dst (main-area block number), and a checkpoint about to
	 * turn prefree segments free (the simulator writes its dirty nodes there) */
	void (*move_hook)(void *arg, uint32_t src, uint32_t dst);
	/* the same for @n blocks at once: the next @n valid blocks of segment @src, in block
	 * order, to blocks @dst .. @dst + @n - 1 of one LFS segment (no mtimes kept) */
	void (*move_run_hook)(void *arg, uint32_t src, uint32_t dst, uint32_t n);
	void (*cp_hook)(void *arg);
	/* SSR (mode=adaptive, simulate.c): a full log asks @alloc_hook first; it returns 1
	 * when it made a dirty segment current in SSR manner (ssr[log] set), 0 to let the
	 * model allocate a free one (LFS), or a negative errno.  In an SSR segment the next
	 * block is the next one neither valid nor valid at the last checkpoint
	 * (@next_free_hook, the block map lives in the simulator). */
	int (*alloc_hook)(void *arg, int log);
	uint32_t (*next_free_hook)(void *arg, uint32_t segno, uint32_t from);
	uint8_t ssr[GC_NR_LOGS];
	void *hook_arg;
	bool no_mtime;              /* simulation with greedy victims only: segment mtimes
				     * are not kept (nothing reads them) */
	enum zf2fs_gc_kernel kernel;
	/* large sections: the segment the next call of each gc type continues at (the
	 * kernel's next_victim_seg), GC_NULL: that call selects */
	uint32_t next_victim[2];
	/* zf2fs_gc_model_set_knob: values of the knobs set (the others follow their
	 * defaults, zf2fs_gc_model_knob) */
	uint32_t knob[ZF2FS_GC_NR_KNOBS];
	uint8_t knob_set[ZF2FS_GC_NR_KNOBS];
};

/* model.c */
extern const struct gc_seg gc_seg_zero;
/* Segment @segno's record, for reading (segno < total_segs). */
static inline const struct gc_seg *gc_seg(const struct zf2fs_gc_model *m, uint32_t segno)
{
	const struct gc_seg *c = m->seg_chunk[segno >> GC_SEG_CHUNK_SHIFT];

	return c ? &c[segno & (GC_SEG_CHUNK - 1)] : &gc_seg_zero;
}
/* Segment @segno's record, for writing: its chunk is allocated first.  Callers that may
 * write a never-used segment call gc_seg_alloc beforehand (for -ENOMEM); elsewhere an
 * allocation failure writes to a scratch record and sets m->oom. */
struct gc_seg *gc_seg_slow(struct zf2fs_gc_model *m, uint32_t segno);
static inline struct gc_seg *gc_segw(struct zf2fs_gc_model *m, uint32_t segno)
{
	struct gc_seg *c = m->seg_chunk[segno >> GC_SEG_CHUNK_SHIFT];

	return c ? &c[segno & (GC_SEG_CHUNK - 1)] : gc_seg_slow(m, segno);
}
/* 0, or -ENOMEM when segment @segno's chunk cannot be allocated. */
int gc_seg_alloc(struct zf2fs_gc_model *m, uint32_t segno);
/* The same for sections. */
extern const struct gc_sec gc_sec_zero;
static inline const struct gc_sec *gc_sec(const struct zf2fs_gc_model *m, uint32_t secno)
{
	const struct gc_sec *c = m->sec_chunk[secno >> GC_SEG_CHUNK_SHIFT];

	return c ? &c[secno & (GC_SEG_CHUNK - 1)] : &gc_sec_zero;
}
struct gc_sec *gc_sec_slow(struct zf2fs_gc_model *m, uint32_t secno);
static inline struct gc_sec *gc_secw(struct zf2fs_gc_model *m, uint32_t secno)
{
	struct gc_sec *c = m->sec_chunk[secno >> GC_SEG_CHUNK_SHIFT];

	return c ? &c[secno & (GC_SEG_CHUNK - 1)] : gc_sec_slow(m, secno);
}
int gc_sec_alloc(struct zf2fs_gc_model *m, uint32_t secno);
uint32_t gc_seg_usable(const struct zf2fs_gc_model *m, uint32_t segno);
bool gc_sec_is_current(const struct zf2fs_gc_model *m, uint32_t secno);
/* Recompute the dirty state of section @secno (its unit) and refresh the index. */
void gc_refresh_sec(struct zf2fs_gc_model *m, uint32_t secno);
uint64_t gc_sec_mtime_cb(const struct zf2fs_gc_model *m, uint32_t secno);
uint64_t gc_sec_mtime_all(const struct zf2fs_gc_model *m, uint32_t secno);
/* FG collection of section @secno: moves, allocation, prefree.  Returns blocks moved or
 * a negative errno. */
int gc_collect_fg(struct zf2fs_gc_model *m, uint32_t secno, uint64_t now);
/* The same from the section's segment @first (0..sps - 1) to its end: a section an earlier
 * call left unfinished, whose first segments keep the pages background GC dirtied. */
int gc_collect_fg_from(struct zf2fs_gc_model *m, uint32_t secno, uint32_t first, uint64_t now);
/* Append one block to log @l at time @now (a new segment when the current one is full):
 * the main-area block number, or -ENOSPC.  The caller refreshes nothing. */
int64_t gc_log_append(struct zf2fs_gc_model *m, int l, uint64_t now);
/* One block of segment @segno becomes invalid at time @now (mtime, counts, prefree);
 * the caller refreshes the section's unit (gc_refresh_sec) before the next selection. */
void gc_invalidate(struct zf2fs_gc_model *m, uint32_t segno, uint64_t now);

/* select.c */
bool gc_not_enough_free(const struct zf2fs_gc_model *m, bool lfs, uint32_t freed);
uint32_t gc_cb_cost(const struct zf2fs_gc_model *m, uint32_t secno, uint64_t min_mtime,
		    uint64_t max_mtime, uint32_t *ret_age);

/* index.c */
void gc_index_free(struct gc_index *ix);
/* Make sure view @v exists (building it from the model); 0 or -ENOMEM. */
int gc_index_view(struct zf2fs_gc_model *m, enum gc_view v);
/* Refresh unit @u in the count tree and every built view. */
void gc_index_update(struct zf2fs_gc_model *m, uint32_t u);
/* Rebuild the CB views when the cost-benefit bounds changed. */
int gc_index_cb_bounds(struct zf2fs_gc_model *m);
uint32_t gc_index_count(const struct gc_index *ix, uint32_t lo, uint32_t hi);
/* Unit of the @k-th (1-based) dirty unit at or after @lo; nunits when none. */
uint32_t gc_index_kth(const struct gc_index *ix, uint32_t lo, uint32_t k);
/* Smallest key of view @v over units [lo, hi] (inclusive); GC_KEY_NONE when empty. */
uint64_t gc_index_min(const struct gc_index *ix, enum gc_view v, uint32_t lo, uint32_t hi);

/* ctree.c: the chunked tree; 0 or -ENOMEM.  Ranges are inclusive and clamped to the
 * units; kth returns nunits when there is no such unit. */
int gc_ctree_init(struct gc_ctree *t, uint32_t nunits, bool with_count, bool with_key);
void gc_ctree_free(struct gc_ctree *t);
int gc_ctree_set(struct gc_ctree *t, uint32_t u, uint32_t count, uint64_t key);
uint32_t gc_ctree_count(const struct gc_ctree *t, uint32_t lo, uint32_t hi);
uint32_t gc_ctree_kth(const struct gc_ctree *t, uint32_t lo, uint32_t k);
uint64_t gc_ctree_min(const struct gc_ctree *t, uint32_t lo, uint32_t hi);
/* chunk trees allocated now (counts and keys): what the memory follows */
size_t gc_ctree_chunks_held(const struct gc_ctree *t);

/* Segment tree primitives (index.c) over arrays of 2 x @size entries (@size a power of
 * two, leaves at @size + i): per node the count of marked leaves below it and the
 * smallest key below it.  Ranges [lo, hi] are inclusive, hi < @size. */
void gc_tree_set(uint32_t *cnt, uint64_t *key, uint32_t size, uint32_t leaf, uint32_t c,
		 uint64_t k);   /* either array may be NULL */
uint32_t gc_tree_count(const uint32_t *cnt, uint32_t size, uint32_t lo, uint32_t hi);
/* Leaf of the @k-th (1-based) counted leaf at or after @lo; @size when there is none. */
uint32_t gc_tree_kth(const uint32_t *cnt, uint32_t size, uint32_t lo, uint32_t k);
uint64_t gc_tree_min(const uint64_t *key, uint32_t size, uint32_t lo, uint32_t hi);

#endif /* ZF2FS_GC_P_H */
