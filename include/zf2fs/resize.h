/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * resize.h - grow or shrink an unmounted volume, crash-safely (resize.f2fs).
 *
 * Every step leaves a volume Linux mounts, with every file intact:
 *  - shrink: the valid blocks and current logs past the cut move below it with the block
 *    mover (include/zf2fs/move.h), in batches of one checkpoint each; a checkpoint gives
 *    the new reserved, overprovision and user block counts (valid under the old
 *    superblock too: they only shrink); the new superblock; a last checkpoint recounts
 *    the free segments for the new main area.  The metadata areas keep their size (a
 *    larger SIT, NAT or SSA than the main area needs is valid) until they are fitted.
 *  - grow, when the SIT and SSA already cover the new main area (always with -s): the new
 *    superblock (the old checkpoint is valid under it: its user blocks are fewer than the
 *    new main area holds, so the volume mounts as the old size), then a checkpoint with
 *    the new counts.
 *  - grow, when the metadata must grow: the first sections of the main area are emptied
 *    with the mover; a complete new set of metadata areas (checkpoint, SIT, NAT, SSA) for
 *    the new size is written there, where the old volume has nothing it uses; the new
 *    superblock then moves segment 0 onto it, in one write.  Main-area blocks keep their
 *    addresses (node and NAT pointers are unchanged); only segment numbers shift.  The old
 *    metadata areas stay behind segment 0, unused (the price of never overwriting a
 *    block the old volume needs).  The new areas must lie on the first device: on a
 *    multi-device volume the superblock's device list gives device 0 as many segments
 *    fewer as segment 0 moves (Linux counts device 0 from address 0 to segment 0 plus
 *    its segments, so its last block stays), the last device its new count.
 *  - fitting the metadata areas to the size (a shrink leaves them as large as the old
 *    size needed; never with -s): smaller areas cannot be written over the old ones, which
 *    the old volume reads until the superblock switches, so they move twice.  First, as
 *    a grow moves them, into the main area's first sections (emptied), segment 0 moving
 *    there; then back to where mkfs puts segment 0 ("home"), into the old areas' space,
 *    which nothing uses any more, with the main area starting right after them: the
 *    segments between join the main area at its front, free (new segment number = old
 *    + rise_segs).  Each move is written where the volume it replaces has nothing and
 *    switched by one superblock write; between the two the volume mounts with its new
 *    size and a main area smaller by the areas' size.  The NAT keeps every nid in use.
 *    On zoned volumes the first move, as a grow's, goes only onto conventional space
 *    (else the areas stay, with a note); the second lands where areas were before.
 * When the free sections that the moved blocks need are too few but the partly valid
 * sections hold enough free blocks, those with the fewest valid blocks are emptied first
 * (compaction, as offline garbage collection does), in checkpoints of their own.
 * Zoned volumes (sections are zones) change by whole zones, on their zoned devices: the
 * mover writes only at write pointers inside the zone capacity, the zones of free
 * sections holding old writes are reset (free in the checkpoint: crash-safe), the space
 * policy counts sequential zones to their capacity as mkfs does.  Linux writes their
 * checkpoint, SIT and NAT in place, so their metadata areas move only onto conventional
 * space: every section the new areas take must be on a conventional zone or a regular
 * device, as the zone report says, else the grow is refused.
 * An interrupted resize is finished by running it again with the same target.
 * Volumes of 16 KiB blocks (zf2fs_resize_devs2 with ZF2FS_VOL_BLOCK16K), plain or
 * packed_ssa, take the same steps: segments stay 512 blocks; the new areas are laid out
 * with the volume's block size and features as mkfs lays them; each area's blocks,
 * entries and summaries follow the volume's geometry (include/zf2fs/geometry.h).
 */
#ifndef ZF2FS_RESIZE_H
#define ZF2FS_RESIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/format.h"

#ifdef __cplusplus
extern "C" {
#endif

struct zf2fs_resize_opts {
	uint64_t target_blocks;       /* new size of the last device, in blocks of the
				       * volume's size (4 KiB, or 16 KiB: zf2fs_vol_geom) */
	bool safe;                    /* -s: never move the metadata areas */
	double overprovision;         /* -o; 0: the rule the volume was made with */
	bool default_rule;            /* with overprovision 0: mkfs's default rule for the
				       * new size, whatever the volume's counts say (how a
				       * resize keeps the rule its first plan found) */
	bool large_nat_bitmap;        /* -i: new metadata areas with the large NAT bitmap */
	uint64_t batch_blocks;        /* blocks moved per checkpoint (0: 16384) */
};

enum zf2fs_resize_kind { ZF2FS_RESIZE_NONE, ZF2FS_RESIZE_GROW, ZF2FS_RESIZE_SHRINK };

struct zf2fs_resize_plan {
	enum zf2fs_resize_kind kind;
	bool relocate;                /* grow: the metadata areas move (segment 0 moves) */
	bool large_nat_bitmap;        /* relocate: the new areas use the large NAT bitmap */
	bool free_stale;              /* the checkpoint's free segment count is off */
	bool counters_stale;          /* the checkpoint's space counts are not the new size's */
	struct zf2fs_super sb;        /* the new superblock (its crc is set when written) */
	uint32_t old_main_segs, new_main_segs;
	uint32_t cut_sec;             /* shrink: sections from here on must be emptied */
	uint32_t evac_secs;           /* relocate: sections [0, evac_secs) must be emptied */
	uint32_t shift_segs;          /* relocate: new segment number = old - shift_segs */
	uint32_t short_secs;          /* free sections the moves lack: made first by
				       * emptying the emptiest partly valid sections */
	bool fit;                     /* relocate: the areas are fitted to the size */
	uint32_t rise_segs;           /* fitting, second move: new segment number = old +
				       * rise_segs (the areas go home, below segment 0) */
	uint64_t user_block_count;    /* the new size's space policy */
	uint32_t rsvd_segments, ovp_segments;
	double overprovision;
	bool default_rule;            /* the counts follow mkfs's default rule */
	char note[160];               /* how the overprovision was chosen */
	char meta_note[256];          /* why oversized metadata areas stay, when they do */
};

/* What resizing @vol (opened, clean) to @o->target_blocks takes, one step at a time: 0
 * and @p filled (kind NONE when the size does not change and the counts are the new
 * size's; then, unless -s, relocate and fit set when the metadata areas are to be fitted
 * to the size, the next of the two moves above); -EINVAL or
 * -ENOSPC (the data does not fit, -s without room in the metadata areas, not enough
 * free space to empty the sections the new metadata needs, new metadata areas past the
 * first device) or -EOPNOTSUPP (read-only volumes; zoned volumes whose new metadata
 * areas would lie on sequential zones, or on devices without zones) with a one-line
 * reason in @why.  Reads only. */
ZF2FS_EXPORT int zf2fs_resize_plan(struct zf2fs_vol *vol, const struct zf2fs_resize_opts *o,
				   struct zf2fs_resize_plan *p, char *why, size_t whylen);

/* What a resize did. */
struct zf2fs_resize_report {
	struct zf2fs_resize_plan plan;   /* the first plan */
	uint64_t moved_blocks;           /* data and node blocks the mover moved */
	uint32_t checkpoints;            /* checkpoints written */
	uint64_t meta_blocks;            /* blocks of relocated metadata written */
	uint32_t zones_reset;            /* zoned: zones of free sections reset */
	uint32_t main_blkaddr_before;    /* where the main area started, and starts now */
	uint32_t main_blkaddr_after;
	char meta_note[256];             /* why oversized metadata areas stay, when they do */
};

/* Resize the volume on @devs (opened for writing by the caller; the last one already has
 * the new size when growing) as planned above, step by step.  0; the plan's errors
 * (nothing written); or an error of a step (the volume is the one the last completed
 * step left: run again to finish).  Messages go to @log. */
ZF2FS_EXPORT int zf2fs_resize_devs(struct zf2fs_dev *const *devs, unsigned n,
				   const struct zf2fs_resize_opts *o, const struct zf2fs_log *log,
				   struct zf2fs_resize_report *rep, char *why, size_t whylen);

/* The same, with zf2fs_vol_open's @flags: ZF2FS_VOL_BLOCK16K resizes a volume of 16 KiB
 * blocks too (the new areas laid out with its block size and packed_ssa, as mkfs -b
 * 16384 lays them); zf2fs_resize_devs refuses such a volume with -ZF2FS_EBLOCKSIZE. */
ZF2FS_EXPORT int zf2fs_resize_devs2(struct zf2fs_dev *const *devs, unsigned n, int flags,
				    const struct zf2fs_resize_opts *o, const struct zf2fs_log *log,
				    struct zf2fs_resize_report *rep, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_RESIZE_H */
