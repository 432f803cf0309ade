// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * move_batch.c - a move in batches (include/zf2fs/move.h): the transaction loop that
 * gc.f2fs collect and defrag.f2fs share.  Each batch is queued until it holds the
 * caller's block budget, committed in a checkpoint of its own, and the volume is opened
 * again, because the handle keeps describing the checkpoint it was opened on.  On zoned
 * volumes the zones a batch emptied are reset before the next batch allocates: the
 * commit's allocator takes only sections free in the checkpoint, and a freed zone whose
 * write pointer is still past its start could not take a write at its first block.
 */
#include "config.h"
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/move.h"
#include "zf2fs/txn.h"
#include "zf2fs-internal/move.h"

static uint64_t queued(const struct zf2fs_move_stats *st)
{
	return st->data_blocks + st->node_blocks;
}

static void add_stats(struct zf2fs_move_stats *to, const struct zf2fs_move_stats *from)
{
	to->data_blocks += from->data_blocks;
	to->node_blocks += from->node_blocks;
	to->owner_nodes += from->owner_nodes;
	to->sections += from->sections;
}

/* Queue one batch on @txn: *@ret_pieces says how many pieces went in (0: nothing was
 * left), *@done whether the work is over. */
static int queue_batch(struct zf2fs_txn *txn, uint64_t batch_blocks,
		       const struct zf2fs_move_batch_ops *ops, void *arg,
		       struct zf2fs_move_stats *batch, unsigned *ret_pieces, bool *done)
{
	int err = 0;

	*ret_pieces = 0;
	while (!*done && queued(batch) < batch_blocks) {
		err = ops->queue(arg, txn, batch_blocks - queued(batch), batch, done);
		if (err || *done)
			break;
		(*ret_pieces)++;
	}
	return err;
}

/* After a commit (@err its result; @ver the checkpoint version before it): the volume
 * opened again, the zones the commit left empty reset, the caller told.  A failed
 * commit's zones are reset too (best effort) so that the next writer finds them empty.
 * A batch is counted (and ops->committed told) only when its commit wrote a checkpoint:
 * one of pieces without a valid block writes none. */
static int after_commit(struct zf2fs_vol **vol, int err, uint64_t ver,
			const struct zf2fs_move_batch_ops *ops, void *arg,
			struct zf2fs_move_batch_result *res)
{
	uint32_t reset = 0;
	int e;

	zf2fs_vol_close(*vol);
	*vol = NULL;
	e = ops->reopen(arg, vol);
	if (e) {
		*vol = NULL;
		return err ? err : e;
	}
	e = zf2fs_move_reset_free_zones(*vol, &reset);
	res->zones_reset += reset;
	if (err)
		return err;
	if (e)
		return e;
	if (zf2fs_vol_info(*vol)->cp_ver == ver)
		return 0;
	res->batches++;
	return ops->committed ? ops->committed(arg, *vol) : 0;
}

ZF2FS_EXPORT int zf2fs_move_batches(struct zf2fs_vol **vol, uint64_t batch_blocks,
				    unsigned flags, const struct zf2fs_move_batch_ops *ops,
				    void *arg, struct zf2fs_move_stats *st,
				    struct zf2fs_move_batch_result *res)
{
	struct zf2fs_move_batch_result dummy;
	bool done = false;
	int err = 0;

	if (!res)
		res = &dummy;
	res->batches = 0;
	res->zones_reset = 0;
	if (!batch_blocks || !ops || !ops->queue || !ops->reopen || !vol || !*vol || !st)
		return -EINVAL;
	/* zones left written past their start by an earlier writer (an interrupted move, a
	 * kernel that did not reset them) would refuse the first batch's writes */
	if (!(flags & ZF2FS_MOVE_BATCH_DRY)) {
		uint32_t reset = 0;

		err = zf2fs_move_reset_free_zones(*vol, &reset);
		res->zones_reset += reset;
		if (err)
			return err;
	}
	while (!done && !err) {
		struct zf2fs_move_stats batch = { 0 };
		struct zf2fs_txn *txn;
		unsigned pieces;
		uint64_t ver;

		err = zf2fs_txn_begin(*vol, &txn);
		if (err)
			break;
		err = queue_batch(txn, batch_blocks, ops, arg, &batch, &pieces, &done);
		if (!err && !pieces) {
			zf2fs_txn_free(txn);
			break;
		}
		if (!err && ops->before_commit)
			err = ops->before_commit(arg, *vol, txn, &batch);
		if (err || (flags & ZF2FS_MOVE_BATCH_DRY)) {
			zf2fs_txn_free(txn);
			if (!err) {
				add_stats(st, &batch);
				res->batches++;
			}
			continue;
		}
		ver = zf2fs_vol_info(*vol)->cp_ver;
		err = zf2fs_txn_commit(txn);
		zf2fs_txn_free(txn);
		if (ops->commit_done)
			ops->commit_done(arg, *vol, err);
		if (!err)
			add_stats(st, &batch);
		err = after_commit(vol, err, ver, ops, arg, res);
	}
	return err;
}
