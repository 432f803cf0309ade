/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simulate_p.h - private parts of the GC simulator: the simulation state shared by
 * simulate.c (workload, block maps, checkpoints, GC moves) and ssr.c (mode=adaptive's
 * SSR allocation: candidate trees and the kernel's choice of a dirty segment).
 */
#ifndef ZF2FS_GC_SIM_P_H
#define ZF2FS_GC_SIM_P_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/format.h"
#include "zf2fs/gc_sim.h"
#include "zf2fs/geometry.h"
#include "gc/gc_p.h"

#define LID_NONE 0xFFFFFFFFu
#define LID_STALE 0xFFFFFFFEu  /* adaptive: invalid, but valid at the last checkpoint or
				* written since: SSR must not reuse the block until then */
#define SMALL_VOLUME_SEGS 8192u /* the kernel forces in-place updates at or below */
#define MIN_FSYNC_BLOCKS 8u    /* fsync of this many dirty pages or fewer: in place */
/* the node tree of a file in blocks of geometry @g: addresses in the inode and in a direct
 * node; an indirect node holds as many node ids as a direct node holds addresses */
#define ADDRS_INODE(g) ((g)->addrs_per_inode)
#define ADDRS_NODE(g) ((g)->addrs_per_block)
#define NAT_ENTRIES_BLK(g) ((g)->nat_per_block)
#define SIT_ENTRIES_BLK(g) ((g)->sit_per_block)
#define NAT_JOURNAL(g) ((uint64_t)(g)->nat_journal_entries)   /* entries the pack's journal holds */
#define SIT_JOURNAL(g) ((uint64_t)(g)->sit_journal_entries)
#define CP_PACK_BLOCKS 4u      /* header, footer, compacted data summaries */
#define HIST_BUCKETS 3000
#define HIST_STEP 1.01

/* node flags */
#define ND_DIRTY 1u
#define ND_NAT 2u
#define ND_LISTED 4u    /* in dirty_list (possibly no longer dirty) */

struct hist {
	uint64_t n[HIST_BUCKETS];
	uint64_t count;
	double max;
};

struct stream_rt {
	struct zf2fs_gc_sim_stream s;
	uint64_t f0, nfiles, nunits, upf, cursor, hot_units;
	uint32_t io;
	double zeta_n, zipf_alpha, zipf_eta, zipf_half;   /* zipf sampler */
	double base_us;
	int base_bucket;
};

/*
 * SSR candidates of one log type: a segment tree over the segments, per node the number
 * of candidates below it and the smallest key, key = checkpointed valid blocks << 32 |
 * segment (the SSR cost, then scan order).  It answers the kernel's windowed scan
 * (get_victim_by_default with SSR) in O(log n) instead of visiting up to 4096 segments.
 */
struct ssr_tree {
	uint32_t size;          /* leaves: a power of two >= the segments */
	uint32_t *cnt;
	uint64_t *key;
};

struct zf2fs_gc_sim {
	struct zf2fs_gc_model *m;
	struct zf2fs_geom g;              /* the model's block size (gc_model_geom) */
	struct zf2fs_gc_sim_config cfg;
	uint32_t *l2p, *p2l;
	uint64_t nblocks;                 /* main area blocks */
	uint64_t nstatic, data_base, ndata, node_base, nnodes, nlids;
	uint64_t nfiles;
	uint32_t fblocks, npf;            /* blocks and node blocks per file */
	uint8_t *node_fl;
	uint32_t *dirty_list, *nat_list;
	uint64_t ndirty, nlisted, nnat_list;
	uint8_t *nat_blk;
	uint64_t nnat_blk;
	uint8_t *sit_seg;
	uint32_t *sit_list;
	uint64_t nsit_list, nsit_blk;
	uint8_t *sit_blk;
	uint8_t *stale;
	uint32_t *stale_list;
	uint32_t nstale;
	uint64_t now, next_cp, next_bg;
	uint32_t tick;
	uint64_t rng;
	int phase;
	struct zf2fs_gc_sim_stats st[2];
	struct hist lat[2], stall[2], win;
	uint64_t win_host, win_dev;
	struct stream_rt sr[ZF2FS_GC_SIM_MAX_STREAMS];
	unsigned nstreams;
	uint32_t weight_total;
	uint32_t mv_seg, mv_off;
	struct zf2fs_gc_sim_sample *samples;
	unsigned nsamples, maxsamples;
	uint64_t sample_every;
	uint32_t guard_secs;              /* free sections above which no check is needed */
	bool adaptive, ipu_all, ipu_fsync;
	/* SSR candidates per log type (trees), the segments changed since they were last
	 * entered, and the current segments they were entered with */
	struct ssr_tree ssr_tree[GC_NR_LOGS];
	uint32_t *held, nheld, maxheld;   /* blocks made LID_STALE since the checkpoint */
	int err;                          /* a failure where no error can be returned */
	uint8_t *ssr_in;                  /* 1 + the type whose tree holds the segment, or 0 */
	uint8_t *ssr_queued;
	uint32_t *ssr_list, nssr_list;
	uint32_t ssr_cur[GC_NR_LOGS];
	/* progress, read by another thread (zf2fs_gc_sim_progress): relaxed atomics */
	int prog_phase;
	uint64_t prog_done;
};

/* a segment whose valid count or type changed: its SSR candidacy is looked at again
 * before the next SSR selection */
static inline void ssr_touch(struct zf2fs_gc_sim *s, uint32_t seg)
{
	if (s->ssr_queued && !s->ssr_queued[seg]) {
		s->ssr_queued[seg] = 1;
		s->ssr_list[s->nssr_list++] = seg;
	}
}

/* ssr.c */
/* The model's next_free_hook: the next block of @seg at or after @from SSR may write. */
uint32_t gc_ssr_next_free(void *arg, uint32_t seg, uint32_t from);
/* The model's alloc_hook: 1 when log @l took a dirty segment (SSR), 0 for LFS, -errno. */
int gc_ssr_alloc(void *arg, int l);
/* The candidate trees (indexed engine): 0 or -ENOMEM; gc_ssr_free releases them. */
int gc_ssr_setup(struct zf2fs_gc_sim *s);
void gc_ssr_free(struct zf2fs_gc_sim *s);

#endif /* ZF2FS_GC_SIM_P_H */
