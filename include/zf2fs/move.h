/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * move.h - the block mover: queue on a transaction (include/zf2fs/txn.h) the move of
 * every valid block of a set of sections, or of a block range, to the logs, as the
 * kernel's foreground garbage collection moves them (Linux 6.1 fs/f2fs/gc.c):
 *  - a data block through its owner: the summary entry names the node and the slot, the
 *    NAT gives the node, and the node's slot must point back at the block (the kernel's
 *    is_alive check); the block goes to the cold data log, the owner node is rewritten out
 *    of place with the new address;
 *  - a node block (inodes included) through the NAT: rewritten out of place to the log of
 *    its temperature (directories' direct nodes hot, files' direct nodes warm, indirect
 *    nodes cold), the NAT pointing at the new copy.
 * A file's largest extent (i_ext) that covers a moved block is cut to the longest part
 * the move leaves in place.  Nothing reaches the disk before zf2fs_txn_commit(), which
 * writes the moved blocks into sections that were free before the transaction; the
 * sources become free in the new checkpoint.  Zoned volumes: the transaction's
 * allocator writes only at write pointers and inside zone capacity.
 *
 * The moves of one transaction are held in memory (a block each): callers that move much
 * commit in batches (zf2fs_move_batches below).
 * A transaction that moves blocks should do nothing else (its other changes would
 * be written to the same logs, which is safe, but the counts below would not say so).
 */
#ifndef ZF2FS_MOVE_H
#define ZF2FS_MOVE_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/txn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a move queued (added to by each call). */
struct zf2fs_move_stats {
	uint64_t data_blocks;    /* data blocks to move */
	uint64_t node_blocks;    /* node blocks to move, inodes included */
	uint64_t owner_nodes;    /* nodes rewritten only because a data block of theirs moves */
	uint32_t sections;       /* sections every valid block of which is queued */
};

/*
 * Queue the move of every valid block (SIT valid map) of main-area section @secno.
 * A current log in the section moves to a fresh section at the commit, so that the
 * section ends up free.
 * Returns 0; -EINVAL for a section outside the main area; -ZF2FS_EFSCORRUPTED (message through the volume's
 * log) when a valid block has no live owner (summary -> NAT -> node -> slot does not lead
 * back to it: the volume needs fsck) or the summary contradicts the SIT; -EOPNOTSUPP for
 * a block the transaction cannot rewrite yet; -EROFS on a volume without a summary
 * area (the read-only feature: zf2fs_vol_has_ssa), whose blocks' owners are not to be
 * found; -ENOMEM; read errors.  After an error the transaction must be freed without
 * committing.
 */
ZF2FS_EXPORT int zf2fs_move_section(struct zf2fs_txn *txn, uint32_t secno,
				    struct zf2fs_move_stats *stats);

/*
 * The same for the valid blocks of volume addresses [@start, @start + @count), which
 * must lie in the main area (-EINVAL otherwise); sections are counted in @stats only when
 * the range covers them whole.  For resize (the blocks beyond a cut) and defrag.
 */
ZF2FS_EXPORT int zf2fs_move_range(struct zf2fs_txn *txn, uint64_t start, uint64_t count,
				  struct zf2fs_move_stats *stats);

/*
 * Where the commit may write: the logs it starts (for moved blocks and anything else the
 * transaction writes) take free sections in [@first_sec, @end_sec) only, lowest first.
 * Shrinking keeps them below the cut, defragmenting puts them where asked.  Call before
 * zf2fs_txn_commit(); the commit fails with -ENOSPC when the range runs out.  Returns 0;
 * -EINVAL for an empty range or one past the main area.
 */
ZF2FS_EXPORT int zf2fs_move_set_target(struct zf2fs_txn *txn, uint32_t first_sec,
				       uint32_t end_sec);

/*
 * A run of sections kept for the moved data: the cold data log, where moved data go,
 * takes its new sections in [@first_sec, @end_sec) only (instead of
 * zf2fs_move_set_target's range), and no other log takes one there.  A cold data log
 * that a previous commit left in the run goes on where it stands, so data moved in file
 * order over several commits ends up at consecutive addresses (defrag.f2fs --file in
 * batches).  No log fills holes of dirty segments (SSR) while a run is set.  Returns 0;
 * -EINVAL for an empty range or one past the main area.
 */
ZF2FS_EXPORT int zf2fs_move_set_data_target(struct zf2fs_txn *txn, uint32_t first_sec,
					    uint32_t end_sec);


/* ---- moving in batches (lib/move/move_batch.c) ---------------------------------------------
 * A move too large to hold in memory (a block each until the commit) is cut into batches,
 * each its own transaction and its own checkpoint: an interruption leaves the volume as
 * the last completed batch left it, a valid volume with every file intact.  The caller
 * says what to queue next; the loop owns the transaction, the commit, opening the
 * volume again after it (the handle describes the old checkpoint) and, on zoned volumes,
 * resetting the zones a batch emptied before the next one writes.  gc.f2fs collect
 * queues a victim section at a time, defrag.f2fs a piece of its range. */
struct zf2fs_move_batch_ops {
	/* Queue the next piece of work on @txn (adding to @st): at most about @room valid
	 * blocks when the caller can cut its work that finely (a batch closes once it holds
	 * @batch_blocks).  *@ret_done = true, and nothing queued, when no work is left. */
	int (*queue)(void *arg, struct zf2fs_txn *txn, uint64_t room,
		     struct zf2fs_move_stats *st, bool *ret_done);
	/* Open the volume again (as it was opened first) into *@ret_vol. */
	int (*reopen)(void *arg, struct zf2fs_vol **ret_vol);
	/* Optional: a batch is queued (@batch: its stats alone): set the target, check the
	 * room, arm test hooks.  Nonzero stops the loop before this batch is committed. */
	int (*before_commit)(void *arg, struct zf2fs_vol *vol, struct zf2fs_txn *txn,
			     const struct zf2fs_move_stats *batch);
	/* Optional: a batch's commit returned @err; @vol is still the handle it wrote
	 * through (closed next): count its writes. */
	void (*commit_done)(void *arg, struct zf2fs_vol *vol, int err);
	/* Optional: a batch is committed; @vol is the volume opened again, its freed zones
	 * reset.  Nonzero stops the loop. */
	int (*committed)(void *arg, struct zf2fs_vol *vol);
};

#define ZF2FS_MOVE_BATCH_DRY 0x1   /* queue each batch, call before_commit, commit nothing */

/* What a batched move did. */
struct zf2fs_move_batch_result {
	uint32_t batches;       /* batches committed (dry: queued); one that wrote no
				 * checkpoint, having moved nothing, is not counted */
	uint32_t zones_reset;   /* zones reset after the commits */
};

/*
 * Queue through @ops until it is done, in batches of at least @batch_blocks valid blocks
 * (the last may hold fewer; a piece that overshoots is kept whole), each committed in a
 * checkpoint of its own.  *@vol is the volume opened for writing; after a commit it is
 * closed and opened again through @ops->reopen (after a failed commit too, when that
 * works, to reset the zones the batch wrote; *@vol is NULL when reopening failed).  On a
 * zoned volume the free zones are reset before the first batch too.
 * @st gets the sum of every batch's stats.  Returns 0; -EINVAL for @batch_blocks 0;
 * the errors of @ops, zf2fs_txn_begin(), zf2fs_txn_commit() (the batches before stay
 * committed), and of the zone resets (zf2fs_vol_zones(), zf2fs_vol_reset_zone()).
 */
ZF2FS_EXPORT int zf2fs_move_batches(struct zf2fs_vol **vol, uint64_t batch_blocks,
				    unsigned flags, const struct zf2fs_move_batch_ops *ops,
				    void *arg, struct zf2fs_move_stats *st,
				    struct zf2fs_move_batch_result *res);

#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_MOVE_H */
