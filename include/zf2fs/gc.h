/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gc.h - libzf2fs garbage-collection model: the kernel's GC victim selection replayed
 * offline on a volume's SIT state.
 *
 * A struct zf2fs_gc_model holds what the kernel keeps in memory for victim selection:
 * per-segment valid counts, log types and mtimes, the current segment of each log, the
 * dirty/prefree/free state derived from them, the round-robin cursors (last_victim),
 * the background victim map and the cost-benefit clock.  It is built from an image
 * (zf2fs_gc_model_load) or filled by the caller (zf2fs_gc_model_new + set calls + ready).
 *
 * Selection follows Linux 6.1 (Debian 6.1.192) get_victim_by_default: windowed scan
 * from last_victim with at most max_search dirty units, wrap-around, first unit of
 * minimum cost wins; on large sections a section an earlier call left unfinished comes
 * first (enum zf2fs_gc_knob; Linux 7.3 where it differs: zf2fs_gc_model_set_kernel).
 * Two engines give the same answer: a plain scan (the reference) and an index (segment
 * trees over the dirty units) that costs O(log n) per selection.
 *
 * Errors: negative errno, as everywhere in libzf2fs.  No global state: everything lives
 * in the model; the model is not thread-safe (one thread at a time).
 */
#ifndef ZF2FS_GC_H
#define ZF2FS_GC_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

#ifdef __cplusplus
extern "C" {
#endif

struct zf2fs_gc_model;

/* gc_type, as the kernel numbers it. */
enum zf2fs_gc_type { ZF2FS_GC_BG = 0, ZF2FS_GC_FG = 1 };

/* Victim policy, as the kernel numbers it (also the index of the last_victim cursor). */
enum zf2fs_gc_policy {
	ZF2FS_GC_POLICY_DEFAULT = -1,   /* what the kernel uses: FG greedy, BG cost-benefit */
	ZF2FS_GC_CB = 0,
	ZF2FS_GC_GREEDY = 1,
	ZF2FS_GC_AT = 2,
};

/* Allocation mode: LFS (GC victim) or SSR (a segment to reuse for log @ssr_type). */
enum zf2fs_gc_alloc { ZF2FS_GC_LFS = 0, ZF2FS_GC_SSR = 1 };

/* Search window. */
enum zf2fs_gc_window {
	ZF2FS_GC_WIN_KERNEL = 0,   /* nr_dirty, capped at max_search unless FG/ATGC (6.1) */
	ZF2FS_GC_WIN_FIXED,        /* min(nr_dirty, window_n) for every gc type (2013: 20) */
	ZF2FS_GC_WIN_ALL,          /* every dirty unit */
	ZF2FS_GC_WIN_PROPORTIONAL, /* nr_dirty if <= 4096 segments, else
				    * max(20, nr_dirty * 4096 / segments) (2013 proposal) */
};

/* Selection engine.  INDEX scans anyway when the window is small (scan_below), or when
 * the index cannot be exact (ATGC, SSR, a cursor off a section boundary, cost-benefit
 * mtimes outside the kernel's bounds). */
enum zf2fs_gc_engine { ZF2FS_GC_ENGINE_INDEX = 0, ZF2FS_GC_ENGINE_SCAN = 1 };

/* The kernel whose GC a model follows where kernels differ.  Linux 7.3 dates a section of
 * several segments by its segments' mtimes weighted by their valid blocks (a section
 * without valid blocks has no date and takes no part in the mount-time bounds); 6.1 by
 * their plain mean. */
enum zf2fs_gc_kernel { ZF2FS_GC_LINUX_6_1 = 0, ZF2FS_GC_LINUX_7_3 = 1 };

/*
 * Settings of the mounted volume a model follows (zf2fs_gc_model_set_knob), named after
 * the kernel's /sys/fs/f2fs/<dev>/ files.  On a volume whose sections hold several
 * segments, one collection of a victim section moves its segments in order from where
 * it starts, and a call that stops before the section's last usable segment leaves the
 * next one for the next call (the kernel's next_victim_seg): that call, of either gc type,
 * continues the section instead of choosing (for a foreground call, one a foreground call
 * left is taken too).  What stops a call:
 *  - background calls move at most migration_granularity segments holding valid blocks
 *    (both kernels; segments without valid blocks are passed over and count nothing);
 *  - Linux 7.3: a background call covers at most migration_window_granularity segments
 *    from its start, times gc_boost_gc_multiple on a zoned volume whose free sections
 *    are gc_boost_zoned_gc_percent of the main area's sections or fewer.
 * Foreground calls go to the section's end.  Linux 6.1 has no window: with the default
 * migration_granularity a call collects the rest of its section.
 */
enum zf2fs_gc_knob {
	ZF2FS_GC_KNOB_ZONED = 0,                /* 1: the volume has the blkzoned feature
						 * (zf2fs_gc_model_load sets it; default 0) */
	ZF2FS_GC_KNOB_MIGRATION_GRANULARITY = 1, /* 1..segs_per_sec; default segs_per_sec */
	ZF2FS_GC_KNOB_MIGRATION_WINDOW = 2,     /* migration_window_granularity (7.3),
						 * 1..segs_per_sec; default 3 on a zoned volume,
						 * segs_per_sec otherwise */
	ZF2FS_GC_KNOB_BOOST_ZONED_GC_PERCENT = 3, /* gc_boost_zoned_gc_percent (7.3), 0..100;
						 * default 25 on a zoned volume (the kernel runs
						 * the GC thread there, which sets it), else 0 */
	ZF2FS_GC_KNOB_BOOST_GC_MULTIPLE = 4,    /* gc_boost_gc_multiple (7.3),
						 * 1..segs_per_sec; default 5 */
};
#define ZF2FS_GC_NR_KNOBS 5

/* Geometry and clock of a model built by hand (zf2fs_gc_model_new). */
struct zf2fs_gc_geom {
	uint32_t main_secs;               /* sections in the main area */
	uint32_t segs_per_sec;            /* 1..512 */
	uint32_t log_blocks_per_seg;      /* 9 for 2 MiB segments; 1..9 */
	uint32_t unusable_blocks_per_sec; /* zoned: zone size - capacity, in blocks; else 0 */
	uint32_t rsvd_segments;           /* checkpoint rsvd_segment_count */
	uint32_t ovp_segments;            /* checkpoint overprov_segment_count */
	uint64_t elapsed_time;            /* checkpoint elapsed_time (fs age in seconds) */
};

/* Per-call parameters; zf2fs_gc_params_init fills the kernel's defaults. */
struct zf2fs_gc_params {
	enum zf2fs_gc_type gc_type;
	enum zf2fs_gc_policy policy;      /* ZF2FS_GC_POLICY_DEFAULT: by gc_type */
	enum zf2fs_gc_alloc alloc;
	int ssr_type;                     /* SSR: log type whose dirty segments are searched */
	enum zf2fs_gc_window window;
	uint32_t window_n;                /* ZF2FS_GC_WIN_FIXED: the window */
	uint32_t max_search;              /* sysfs max_victim_search, default 4096 */
	enum zf2fs_gc_engine engine;
	uint32_t scan_below;              /* INDEX scans windows of this many units or fewer
					   * (default 64; 0: always the index when exact) */
	uint64_t now;                     /* fs clock for writes made by a GC; 0: elapsed_time */
	/* The kernel's clock per step, in seconds after the mount (replaying a trace that
	 * timed the kernel's writes): before step K the newest write was at
	 * step_clock[K] (it raises the cost-benefit age scale as the kernel's writes do),
	 * and step K's own writes are made at step_clock[K + 1]; the last value holds for
	 * later steps.  Steps are counted per model.  NULL: the clock stays at @now. */
	const uint32_t *step_clock;
	uint32_t step_clock_n;
	/* The kernel's GC type per step (ZF2FS_GC_BG or ZF2FS_GC_FG, from a trace): a
	 * background call turns foreground where the kernel's did, instead of where the
	 * free-section rule says (the moment moves with the kernel's page writeback).  The
	 * last value holds.  NULL: the rule decides. */
	const uint8_t *step_type;
	uint32_t step_type_n;
	bool fg_shortcut;                 /* FG takes a BG-marked section first (kernel: true) */
	bool lfs_mode;                    /* mount -o mode=lfs: dirty data pages count in the
					   * free-section rule (default true) */
};

/* One selection. */
struct zf2fs_gc_victim {
	uint32_t segno;        /* first segment of the unit, as the tracepoint reports it;
				* in a section an earlier call left unfinished, the
				* segment it continues at (see enum zf2fs_gc_knob), with
				* the policy's largest cost, as the kernel traces it */
	uint32_t secno;
	uint32_t cost;         /* the kernel's cost (UINT_MAX - benefit for cost-benefit) */
	uint32_t valid_blocks; /* of the unit (section when segs_per_sec > 1) */
	uint32_t age;          /* cost-benefit age 0..100 (also computed for greedy) */
	uint64_t mtime;        /* the unit's average mtime used by cost-benefit */
	enum zf2fs_gc_type gc_type;    /* after the kernel's BG -> FG switch */
	enum zf2fs_gc_policy policy;
	enum zf2fs_gc_alloc alloc;
	uint32_t searched;     /* units the scan visited (n) */
	uint32_t max_search;   /* the window used */
	uint32_t last_victim;  /* the policy's cursor after the selection */
	bool from_bg_map;      /* FG shortcut: a section chosen earlier by BG GC */
	bool checkpointed;     /* zf2fs_gc_step wrote a checkpoint first (prefree -> free) */
	uint32_t moved_blocks; /* zf2fs_gc_step: blocks moved (FG) */
};

/* Segment state as the model derives it. */
enum zf2fs_gc_segstate {
	ZF2FS_GC_SEG_FREE = 0, ZF2FS_GC_SEG_DIRTY, ZF2FS_GC_SEG_FULL, ZF2FS_GC_SEG_PREFREE,
	ZF2FS_GC_SEG_CURRENT,
};

struct zf2fs_gc_seginfo {
	uint32_t valid_blocks;
	uint32_t ckpt_valid_blocks;
	uint32_t type;                /* log type from the SIT entry */
	uint64_t mtime;
	enum zf2fs_gc_segstate state;
};

#define ZF2FS_GC_HIST_BUCKETS 10

/* The volume's GC state (zf2fs_gc_summarize). */
struct zf2fs_gc_summary {
	uint32_t main_segs, main_secs, segs_per_sec, blocks_per_seg;
	uint32_t blocks_per_sec;      /* usable blocks per section (CAP) */
	uint32_t free_secs, dirty_secs, full_secs, prefree_secs, current_secs;
	uint32_t free_segs, dirty_segs, full_segs, prefree_segs;
	uint32_t reserved_secs, ovp_secs;
	uint32_t rsvd_segments, ovp_segments;
	int64_t fg_distance;          /* free_secs - reserved_secs: 0 or less = FG GC now */
	uint64_t valid_blocks;
	uint32_t hist[ZF2FS_GC_HIST_BUCKETS]; /* dirty sections by valid/CAP, 10% buckets */
	uint64_t min_mtime, max_mtime;        /* over in-use segments (mtime != 0) */
	uint64_t elapsed_time;
	uint32_t cur_segno[8], cur_blkoff[8];
};

/* Fill @p with the kernel's defaults for @gc_type: default policy, LFS, kernel window,
 * max_search 4096, index engine, FG shortcut on. */
ZF2FS_EXPORT void zf2fs_gc_params_init(struct zf2fs_gc_params *p, enum zf2fs_gc_type gc_type);

/* A model with every segment free and no current segment.  -EINVAL for a geometry out
 * of range (no section, segs_per_sec 0 or > 512, log_blocks_per_seg > 9, unusable blocks
 * >= a section); -ENOMEM. */
ZF2FS_EXPORT int zf2fs_gc_model_new(const struct zf2fs_gc_geom *geom,
				    struct zf2fs_gc_model **ret_model);

/* Build a model from an open volume: SIT (journal applied), current segments, reserved
 * and overprovision counts, elapsed time.  -ZF2FS_EFSCORRUPTED (message through @log)
 * when a count read from disk is out of range (valid blocks > blocks per segment, a
 * current segment outside the main area, ...); errors of zf2fs_vol_load_sit; -ENOMEM. */
ZF2FS_EXPORT int zf2fs_gc_model_load(struct zf2fs_vol *vol, const struct zf2fs_log *log,
				     struct zf2fs_gc_model **ret_model);

/* zf2fs_gc_model_load for zoned volumes whose zone capacity is below the zone size: the
 * kernel gives every section only @zone_cap_blocks usable blocks (segments past them are
 * never free or dirty, costs and "full" count against the capacity).  0 means: ask the
 * volume's zoned devices (zf2fs_vol_zone_unusable), and when they cannot tell (an image
 * file copied from one) take the zone size with a warning through @log.  Ignored on a
 * volume without the blkzoned feature.  Extra errors: -EINVAL when @zone_cap_blocks is
 * above a section; errors of the zone report. */
ZF2FS_EXPORT int zf2fs_gc_model_load_cap(struct zf2fs_vol *vol, const struct zf2fs_log *log,
					 uint32_t zone_cap_blocks,
					 struct zf2fs_gc_model **ret_model);

ZF2FS_EXPORT void zf2fs_gc_model_free(struct zf2fs_gc_model *m);

/* Follow kernel @k (a new model follows Linux 6.1).  On a model that is ready, the
 * mount-time mtime bounds are derived again by @k's rule: call it before any step. */
ZF2FS_EXPORT void zf2fs_gc_model_set_kernel(struct zf2fs_gc_model *m, enum zf2fs_gc_kernel k);

/* Set knob @k to @value, as writing the kernel's sysfs file does; a knob never set
 * follows its default (which may depend on ZF2FS_GC_KNOB_ZONED).  -EINVAL for a knob or
 * value out of range (the kernel's sysfs ranges). */
ZF2FS_EXPORT int zf2fs_gc_model_set_knob(struct zf2fs_gc_model *m, enum zf2fs_gc_knob k,
					 uint32_t value);

/* The value knob @k has for the model (its default when never set); 0 for a knob out of
 * range. */
ZF2FS_EXPORT uint32_t zf2fs_gc_model_knob(const struct zf2fs_gc_model *m, enum zf2fs_gc_knob k);

/* Set one segment (before zf2fs_gc_model_ready).  The checkpointed valid count is set to
 * @valid too.  -ERANGE: segno outside the main area; -EINVAL: valid > blocks per
 * segment or type > 7; -ENOMEM (the model keeps records only of segments set or used). */
ZF2FS_EXPORT int zf2fs_gc_model_set_segment(struct zf2fs_gc_model *m, uint32_t segno,
					    uint32_t valid, uint32_t type, uint64_t mtime);

/* Set the current segment of log @log (0..5) and its next block offset.  -EINVAL for a
 * log or offset out of range, -ERANGE for a segment outside the main area, -ENOMEM. */
ZF2FS_EXPORT int zf2fs_gc_model_set_curseg(struct zf2fs_gc_model *m, int log, uint32_t segno,
					   uint32_t blkoff);

/* Derive section counts, dirty/free state and the mount-time mtime bounds, as the kernel
 * does at mount.  Must be called once after the set calls; 0 or -ENOMEM. */
ZF2FS_EXPORT int zf2fs_gc_model_ready(struct zf2fs_gc_model *m);

/* Segment @segno's state; -ERANGE outside the main area. */
ZF2FS_EXPORT int zf2fs_gc_model_segment(const struct zf2fs_gc_model *m, uint32_t segno,
					struct zf2fs_gc_seginfo *ret);

/* The runtime state the image cannot give: cursor last_victim[@policy] (a segment
 * number, reduced modulo the main segments).  -EINVAL for a policy out of 0..2. */
ZF2FS_EXPORT int zf2fs_gc_model_set_last_victim(struct zf2fs_gc_model *m,
						enum zf2fs_gc_policy policy, uint32_t segno);
ZF2FS_EXPORT uint32_t zf2fs_gc_model_last_victim(const struct zf2fs_gc_model *m,
						 enum zf2fs_gc_policy policy);

/* Pick a victim as get_victim_by_default does and update the kernel state that the
 * selection itself changes (last_victim, victim_secmap for BG, the cost-benefit bounds).
 * Nothing else is modified.  Returns 0, -ENODATA when the kernel finds no victim, -EINVAL
 * for bad parameters, -ENOMEM (index allocation). */
ZF2FS_EXPORT int zf2fs_gc_select(struct zf2fs_gc_model *m, const struct zf2fs_gc_params *p,
				 struct zf2fs_gc_victim *ret);

/* One f2fs_gc call as F2FS_IOC_GARBAGE_COLLECT makes it: BG turns FG when free sections
 * are short (after a checkpoint when there are prefree segments), select, then collect:
 * FG moves the valid blocks of the victim's segments it collects to the destination logs
 * (data: cold data; node: the log of the segment's type), allocating segments like the
 * kernel, and leaves them prefree; BG marks the section and counts the pages of the
 * segments it collects as dirty (their blocks move at writeback, which the model does not
 * see).  Which segments a call collects, and where the next call continues: enum
 * zf2fs_gc_knob.  Returns as zf2fs_gc_select, and -ENOSPC when a destination log
 * finds no free segment. */
ZF2FS_EXPORT int zf2fs_gc_step(struct zf2fs_gc_model *m, const struct zf2fs_gc_params *p,
			       struct zf2fs_gc_victim *ret);

/* Apply the effect of victim @v (from zf2fs_gc_select with the same @p) as zf2fs_gc_step
 * does: FG moves the valid blocks of the segments it collects, BG counts their pages as
 * dirty; either leaves where the next call continues.  Returns 0, -ENOSPC
 * when a destination log finds no free segment. */
ZF2FS_EXPORT int zf2fs_gc_collect(struct zf2fs_gc_model *m, const struct zf2fs_gc_params *p,
				  struct zf2fs_gc_victim *v);

/* One F2FS_IOC_GARBAGE_COLLECT call (f2fs_gc with the ioctl's arguments): like
 * zf2fs_gc_step, and when free sections are short a background call goes on collecting
 * (as foreground) until they are not, writing checkpoints when the kernel would.  The
 * victims go to @ret (at most @max; *@ret_n gets the count).  Free sections are judged
 * with the dirty pages the model knows of (pages background GC dirtied; one node page
 * per foreground data segment).  Returns 0, -ENODATA when the first selection found no
 * victim, or an error of zf2fs_gc_step. */
ZF2FS_EXPORT int zf2fs_gc_call(struct zf2fs_gc_model *m, const struct zf2fs_gc_params *p,
			       struct zf2fs_gc_victim *ret, unsigned max, unsigned *ret_n);

/* A checkpoint: prefree segments become free, dirty node pages are written (data pages
 * are not: the kernel's checkpoint leaves regular file data to writeback).  Returns the
 * number of segments freed. */
ZF2FS_EXPORT uint32_t zf2fs_gc_checkpoint(struct zf2fs_gc_model *m);

/* Summarize the model's state.  Always succeeds. */
ZF2FS_EXPORT void zf2fs_gc_summarize(const struct zf2fs_gc_model *m,
				     struct zf2fs_gc_summary *ret);

/* Valid blocks greedy GC would move to reclaim @k sections (the k dirty sections with the
 * fewest valid blocks, current sections excluded); @ret_secs gets how many sections were
 * available (< k when there are fewer dirty sections).  0 or -ENOMEM. */
ZF2FS_EXPORT int zf2fs_gc_blocks_to_reclaim(const struct zf2fs_gc_model *m, uint32_t k,
					    uint64_t *ret_blocks, uint32_t *ret_secs);

/* The policy the kernel applies to selections with @p: greedy for SSR, else the one
 * given, else greedy for foreground and cost-benefit for background calls. */
ZF2FS_EXPORT enum zf2fs_gc_policy zf2fs_gc_policy_of(const struct zf2fs_gc_params *p);

/* Name of a policy ("greedy", "cb", "atgc") or gc type ("fg", "bg"). */
ZF2FS_EXPORT const char *zf2fs_gc_policy_name(enum zf2fs_gc_policy policy);
ZF2FS_EXPORT const char *zf2fs_gc_type_name(enum zf2fs_gc_type type);

#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_GC_H */
