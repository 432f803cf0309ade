// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rollforward.c - find the node chain the kernel replays at mount after a power cut.
 *
 * After an fsync the kernel writes the file's direct nodes (inodes included) to the warm
 * node log without a checkpoint; each footer names the block the log continues at and
 * carries the checkpoint version.  At mount, when the checkpoint was not written by an
 * unmount, the kernel starts at the warm node log's write position, follows next_blkaddr
 * while the footers carry the current checkpoint's version (lib: the recoverable test),
 * and replays the files that have fsync-marked blocks, up to each file's last marked one.
 * Pass 2 records that chain here (ctx->rf_chain, up to the last fsync-marked block: what
 * follows it is never replayed) so that repair_commit() can keep it for the kernel.
 * It also records the inodes whose chain block carries the dentry mark (ctx->rf_dent): the
 * kernel marks only an inode not checkpointed since it was made, and re-creates its name
 * from i_name and i_pino at recovery; of every other inode it never reads those two.
 * And it records every nid the chain names (ctx->rf_nids): a file made after the
 * checkpoint has a number the checkpoint's NAT shows free, and a repair that gave that
 * number to something new (lost+found) would have the kernel replay the file onto it.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>

#include "fsck.h"
#include "zf2fs/access.h"

/* Adds @nid to ctx->rf_nids unless there; -ENOMEM. */
static int note_nid(struct fsck_ctx *ctx, uint32_t nid)
{
	uint32_t *a;

	if (rollforward_names_nid(ctx, nid))
		return 0;
	if (!(ctx->rf_nnids & (ctx->rf_nnids + 1)) || !ctx->rf_nids) {
		/* full at 0, 1, 3, 7, ...: double */
		a = realloc(ctx->rf_nids, ((size_t)ctx->rf_nnids + 1) * 2 * sizeof(*a));
		if (!a)
			return -ENOMEM;
		ctx->rf_nids = a;
	}
	ctx->rf_nids[ctx->rf_nnids++] = nid;
	return 0;
}

bool rollforward_names_nid(const struct fsck_ctx *ctx, uint32_t nid)
{
	for (uint32_t i = 0; i < ctx->rf_nnids; i++)
		if (ctx->rf_nids[i] == nid)
			return true;
	return false;
}

int rollforward_scan(struct fsck_ctx *ctx)
{
	struct zf2fs_node *n;
	uint32_t segno, off, flag, len = 0, cap = 0, *chain = NULL;
	uint64_t blk, mark = UINT64_MAX;
	uint64_t bound = ctx->vi->main_end - ctx->vi->main_blkaddr;
	int err = 0;

	ctx->rf_len = 0;
	if (ctx->vi->ckpt_flags & ZF2FS_CP_UMOUNT_FLAG)
		return 0;
	n = malloc(ZF2FS_BLKSIZE_MAX);
	if (!n)
		return -ENOMEM;
	zf2fs_vol_curseg(ctx->vol, ZF2FS_LOG_WARM_NODE, &segno, &off);
	blk = zf2fs_main_blk(ctx->vi->main_blkaddr, segno, off);
	/* A hostile chain may loop: bounded by the main area, and stopped at the first
	 * repeat found by Brent's method (compare with the block at the last power of two).
	 * The kernel gives up on such a chain too (it fails the mount). */
	for (uint64_t steps = 0; steps < bound && blk_in_main(ctx, blk); steps++) {
		if (blk == mark)
			break;
		if (!(steps & (steps - 1)))
			mark = blk;
		if (zf2fs_vol_read_block(ctx->vol, blk, n) || !zf2fs_cp_node_recoverable2(ctx->g, ctx->cp, n))
			break;
		if (len == cap) {
			uint32_t *c = realloc(chain, (cap ? cap * 2 : 64) * sizeof(*chain));

			if (!c) {
				err = -ENOMEM;
				break;
			}
			chain = c;
			cap = cap ? cap * 2 : 64;
		}
		chain[len++] = (uint32_t)blk;
		if (note_nid(ctx, (uint32_t)zf2fs_get(nfoot(ctx, n)->nid)) ||
		    note_nid(ctx, (uint32_t)zf2fs_get(nfoot(ctx, n)->ino))) {
			err = -ENOMEM;
			break;
		}
		flag = (uint32_t)zf2fs_get(nfoot(ctx, n)->flag);
		if (flag & ZF2FS_FOOTER_FSYNC_BIT)
			ctx->rf_len = len;
		if ((flag & ZF2FS_FOOTER_FSYNC_BIT) && (flag & ZF2FS_FOOTER_DENT_BIT) &&
		    zf2fs_get(nfoot(ctx, n)->nid) == zf2fs_get(nfoot(ctx, n)->ino) &&
		    ctx->rf_ndent < ZF2FS_RF_DENT_MAX)
			ctx->rf_dent[ctx->rf_ndent++] = (uint32_t)zf2fs_get(nfoot(ctx, n)->ino);
		blk = (uint32_t)zf2fs_get(nfoot(ctx, n)->next_blkaddr);
	}
	free(n);
	if (err || !ctx->rf_len) {
		/* no fsync-marked block: the kernel replays nothing */
		free(chain);
		ctx->rf_len = 0;
		ctx->rf_nnids = 0;
		return err;
	}
	ctx->rf_chain = chain;
	return 0;
}
