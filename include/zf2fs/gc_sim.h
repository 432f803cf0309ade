/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gc_sim.h - libzf2fs GC simulator: write amplification and foreground GC stalls of a
 * workload on an F2FS volume, driven through the same victim selection as
 * zf2fs_gc_select (include/zf2fs/gc.h).
 *
 * A simulation owns a struct zf2fs_gc_model (from an image, or an empty volume laid out
 * as mkfs would) and tracks every block: which logical block (file data or node) lives
 * where.  Host writes go to the warm data log out of place; node pages follow (at once
 * for synchronous writes, at the next checkpoint otherwise); foreground GC runs when the
 * kernel's free-section rule says so (f2fs_balance_fs), moving valid blocks to the cold
 * data log and the node logs; a checkpoint turns prefree segments free.  Two mount
 * modes: mode=lfs (zoned volumes always run it) and mode=adaptive (the kernel's default
 * elsewhere): in-place updates by the kernel's default ipu_policy, and SSR: when free
 * sections run low a full log reuses the free blocks of a dirty segment of its own kind
 * instead of taking a free section.  Everything is deterministic for a given seed.
 *
 * Errors: negative errno.  No global state; one simulation per thread at a time.
 */
#ifndef ZF2FS_GC_SIM_H
#define ZF2FS_GC_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/gc.h"

#ifdef __cplusplus
extern "C" {
#endif

struct zf2fs_gc_sim;

/* Where a stream writes inside its files. */
enum zf2fs_gc_sim_pattern {
	ZF2FS_SIM_UNIFORM = 0,  /* uniform random, aligned to the write size */
	ZF2FS_SIM_ZIPF,         /* zipf(theta) over the stream's write units */
	ZF2FS_SIM_HOTCOLD,      /* hot_writes% of writes to the first hot_data% of the data */
	ZF2FS_SIM_SEQUENTIAL,   /* in order, wrapping: an append log that trims its tail */
};

#define ZF2FS_GC_SIM_MAX_STREAMS 8

/* Mount mode (mount -o mode=...). */
enum zf2fs_gc_sim_mode {
	ZF2FS_SIM_MODE_LFS = 0,      /* out of place always, new segments only from free
				      * sections (zoned volumes: forced by the kernel) */
	ZF2FS_SIM_MODE_ADAPTIVE,     /* in-place updates per @ipu, SSR when free sections
				      * fall to 2 x reserved + dirty node sections */
};

/* In-place updates of data in mode=adaptive (sysfs ipu_policy). */
enum zf2fs_gc_sim_ipu {
	ZF2FS_SIM_IPU_DEFAULT = 0,   /* the kernel's: FORCE on volumes of 8192 main segments
				      * (16 GiB) or fewer, FSYNC above */
	ZF2FS_SIM_IPU_NONE,          /* every write out of place (SSR still applies) */
	ZF2FS_SIM_IPU_FSYNC,         /* O_SYNC writes of 8 blocks or fewer (min_fsync_blocks) */
	ZF2FS_SIM_IPU_FORCE,         /* every overwrite of an allocated block */
};

struct zf2fs_gc_sim_stream {
	enum zf2fs_gc_sim_pattern pattern;
	double data_pct;        /* share of the files this stream owns (0: an equal share) */
	uint32_t weight;        /* relative share of the write operations (0 counts as 1) */
	uint32_t io_blocks;     /* blocks per write (0 counts as 1), of the model's volume:
				 * 4 KiB, or 16 KiB for a model loaded from such a volume */
	bool sync;              /* O_SYNC: node pages written with every write */
	double theta;           /* ZIPF: skew, 0 < theta < 1 (0.99 typical) */
	double hot_writes, hot_data;  /* HOTCOLD: percentages (e.g. 80 and 20) */
};

struct zf2fs_gc_sim_config {
	uint64_t seed;
	double fill;            /* share of the free user blocks the files fill, 0..0.995 */
	uint32_t file_blocks;   /* size of every file, in blocks of the model's volume */
	uint64_t files;         /* number of files; 0: as many as @fill allows */
	uint64_t ops;           /* write operations after the fill */
	unsigned nstreams;      /* 0: one uniform one-block buffered stream */
	struct zf2fs_gc_sim_stream streams[ZF2FS_GC_SIM_MAX_STREAMS];
	struct zf2fs_gc_params fg;   /* foreground selection: policy (default greedy), window */
	uint32_t bg_interval;   /* seconds between background GC passes; 0: none */
	enum zf2fs_gc_policy bg_policy;  /* background policy (default: cost-benefit) */
	uint32_t max_secs_per_cycle;     /* incremental GC: sections per foreground cycle at
					  * most; 0: the kernel's loop (until enough) */
	double write_cost_us;   /* service time of one block written by the host */
	double move_cost_us;    /* GC cost of one block moved (read + write) */
	double cp_cost_us;      /* a checkpoint */
	uint32_t rate;          /* host blocks per simulated second (the fs clock) */
	uint32_t cp_interval;   /* seconds between periodic checkpoints (kernel: 60) */
	uint32_t samples;       /* time-series points over the write phase (0: none) */
	enum zf2fs_gc_sim_mode mode;     /* default mode=lfs (the front-end picks per volume) */
	enum zf2fs_gc_sim_ipu ipu;       /* mode=adaptive only */
	bool fallocate;         /* the files are fallocated, not written: f2fs reserves their
				 * blocks (NEW_ADDR) and writes only the node pages; a block
				 * reaches the device at its first write (fio's layout of a
				 * randwrite file with its default fallocate=native) */
};

/* Counters of one phase (the fill, or the write operations). */
struct zf2fs_gc_sim_stats {
	uint64_t ops;                 /* host write operations */
	uint64_t host_blocks;         /* blocks the host wrote */
	uint64_t data_blocks;         /* data blocks written for the host */
	uint64_t node_blocks;         /* node blocks written (sync writes, checkpoints) */
	uint64_t gc_data_blocks, gc_node_blocks;  /* blocks moved by GC */
	uint64_t meta_blocks;         /* checkpoint packs, SIT, NAT and SSA blocks */
	uint64_t checkpoints;
	uint64_t fg_cycles;           /* f2fs_balance_fs calls that ran foreground GC */
	uint64_t fg_sections, bg_sections;  /* sections reclaimed (victims collected) */
	uint64_t ssr_segments;        /* dirty segments a log reused (SSR) */
	uint64_t ipu_blocks;          /* data blocks rewritten in place (in data_blocks) */
	uint64_t ssr_blocks;          /* blocks written into reused segments (host and GC) */
	uint64_t stalled_ops;         /* operations that waited for foreground GC */
	double waf;                   /* device blocks / host blocks */
	double lat_p50, lat_p99, lat_p999, lat_max;   /* operation latency, microseconds */
	double stall_p50, stall_p99, stall_p999, stall_max;  /* GC stalls (stalled ops) */
	double gc_seconds;            /* simulated foreground GC time, seconds */
	double max_cycle_blocks;      /* blocks moved by the longest foreground cycle */
	uint32_t free_secs;           /* free sections at the end of the phase */
	uint32_t reserved_secs;       /* the reserve foreground GC keeps free */
};

/* One time-series point (every ops / samples operations). */
struct zf2fs_gc_sim_sample {
	uint64_t ops, host_blocks, device_blocks;
	double waf, interval_waf;     /* cumulative, and over the last interval */
	double p99_us, max_us;        /* operation latency over the last interval */
	uint32_t free_secs;
};

/* Fill @cfg with defaults: seed 1, fill 0.8, 256-block files, 100000 ops, one uniform
 * one-block buffered stream, greedy foreground GC with the kernel window, mode=lfs (the
 * kernel's ipu_policy when switched to adaptive), no
 * background GC, costs: write 10 us per block, move 40 us per block, checkpoint 500 us;
 * rate 25600 blocks per second, checkpoints every 60 s, 100 samples. */
ZF2FS_EXPORT void zf2fs_gc_sim_config_init(struct zf2fs_gc_sim_config *cfg);

/* An empty model of the volume @lay describes, as mkfs leaves it (root directory and the
 * six logs placed where mkfs puts them).  -EINVAL for a layout the model cannot hold
 * (block size other than 4 KiB), -ENOMEM. */
ZF2FS_EXPORT int zf2fs_gc_sim_model_from_layout(const struct zf2fs_layout *lay,
						struct zf2fs_gc_model **ret_model);

/* A simulation on @m (taken over: freed by zf2fs_gc_sim_free, also on error).  The
 * blocks valid in @m belong to nobody the workload writes (existing data): GC moves
 * them.  -EINVAL for a bad configuration (no room for one file, fill out of range,
 * bad stream), -ENOSPC when the files do not fit, -ENOMEM; on -EINVAL or -ENOSPC a
 * one-line reason in @why (@len bytes, may be NULL) naming the limit and the numbers:
 * "1 file of 4194304 data + 4128 node blocks need ... blocks; the user space holds ...".
 * Files may be as large as an inode's node tree addresses (923 + 2 x 1018 + 2 x 1018^2 +
 * 1018^3 blocks, about 3.94 TiB). */
ZF2FS_EXPORT int zf2fs_gc_sim_new(struct zf2fs_gc_model *m, const struct zf2fs_gc_sim_config *cfg,
				  char *why, size_t len, struct zf2fs_gc_sim **ret_sim);

ZF2FS_EXPORT void zf2fs_gc_sim_free(struct zf2fs_gc_sim *sim);

/* Run the fill, then the write operations.  0; -ENOSPC when a log found no free section
 * (the volume is too full for the GC settings); -ENOMEM. */
ZF2FS_EXPORT int zf2fs_gc_sim_run(struct zf2fs_gc_sim *sim);

/* How far zf2fs_gc_sim_run is, safe to call from another thread while it runs: 0 while
 * filling (*@ret_done of *@ret_total files), 1 during the write operations (operations,
 * updated every 1024), 2 when finished.  Once it returned 1 or 2, zf2fs_gc_sim_stats of
 * the fill (phase 0) may be read from that thread too. */
ZF2FS_EXPORT int zf2fs_gc_sim_progress(const struct zf2fs_gc_sim *sim, uint64_t *ret_done,
				       uint64_t *ret_total);

/* Counters of the fill (@phase 0) or of the write operations (@phase 1). */
ZF2FS_EXPORT void zf2fs_gc_sim_stats(const struct zf2fs_gc_sim *sim, int phase,
				     struct zf2fs_gc_sim_stats *ret);

/* The time series; *@ret_n gets the number of points. */
ZF2FS_EXPORT const struct zf2fs_gc_sim_sample *zf2fs_gc_sim_samples(const struct zf2fs_gc_sim *sim,
								    unsigned *ret_n);

/* Files and blocks of the workload: files, data blocks, node blocks (logical). */
ZF2FS_EXPORT void zf2fs_gc_sim_size(const struct zf2fs_gc_sim *sim, uint64_t *ret_files,
				    uint64_t *ret_data_blocks, uint64_t *ret_node_blocks);


/* The model the simulation drives (read-only use: zf2fs_gc_summarize ...). */
ZF2FS_EXPORT const struct zf2fs_gc_model *zf2fs_gc_sim_model(const struct zf2fs_gc_sim *sim);

#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_GC_SIM_H */
