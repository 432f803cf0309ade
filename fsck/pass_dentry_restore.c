// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_dentry_restore.c - pass 4: dentry blocks a directory lost its pointer to.
 *
 * A directory's dentry blocks are written to the hot data log (the kernel's segment type
 * for directory data), each with a summary entry naming the directory and the slot that
 * points at it.  When a slot of a directory is null while a block of a hot data segment
 * is valid in the SIT, owned by nobody, and its summary names that very slot, the pointer
 * was lost, not the block: pass 4 points the slot back at it before the directory's names
 * are read (otherwise its names would be missed and their inodes reconnected elsewhere).
 * Builds, the first time a directory needs it: ctx->hot_blks, the valid blocks of the hot
 * data segments by the slot their summary names.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"

struct hot_blk {
	uint32_t nid, ofs;
	uint64_t blk;
};

static int cmp_hot(const void *a, const void *b)
{
	const struct hot_blk *x = a, *y = b;

	if (x->nid != y->nid)
		return x->nid < y->nid ? -1 : 1;
	if (x->ofs != y->ofs)
		return x->ofs < y->ofs ? -1 : 1;
	return x->blk < y->blk ? -1 : x->blk > y->blk;
}

static int build(struct fsck_ctx *ctx)
{
	struct zf2fs_summary_block *sum = malloc(ZF2FS_BLKSIZE_MAX);
	struct hot_blk *v = NULL;
	size_t n = 0, cap = 0;

	if (!sum)
		return -ENOMEM;
	ctx->hot_built = true;
	for (uint32_t s = 0; s < ctx->vi->main_segs; s++) {
		const struct zf2fs_sit_entry *se = sit_get(ctx, s);

		if (!zf2fs_sit_valid_blocks(se) || zf2fs_sit_type(se) != ZF2FS_LOG_HOT_DATA ||
		    zf2fs_vol_segment_summary(ctx->vol, s, sum))
			continue;
		for (uint32_t off = 0; off < ZF2FS_BLOCKS_PER_SEG; off++) {
			if (!sit_bit(se, off))
				continue;
			if (n == cap) {
				struct hot_blk *t = realloc(v, (cap ? 2 * cap : 256) * sizeof(*v));

				if (!t) {
					free(v);
					free(sum);
					return -ENOMEM;
				}
				v = t;
				cap = cap ? 2 * cap : 256;
			}
			v[n++] = (struct hot_blk){ (uint32_t)zf2fs_get(sum->entries[off].nid),
				(uint32_t)zf2fs_get(sum->entries[off].ofs_in_node),
				zf2fs_main_blk(ctx->vi->main_blkaddr, s, off) };
		}
	}
	free(sum);
	if (n)
		qsort(v, n, sizeof(*v), cmp_hot);
	ctx->hot_blks = v;
	ctx->nhot = n;
	return 0;
}

int dentry_block_lost(struct fsck_ctx *ctx, uint32_t nid, uint32_t ofs, uint64_t *ret_blk)
{
	size_t lo = 0, hi;

	if (!ctx->hot_built) {
		int err = build(ctx);

		if (err)
			return err;
	}
	hi = ctx->nhot;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct hot_blk *h = &ctx->hot_blks[mid];

		if (h->nid < nid || (h->nid == nid && h->ofs < ofs))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < ctx->nhot && ctx->hot_blks[lo].nid == nid && ctx->hot_blks[lo].ofs == ofs; lo++) {
		uint64_t blk = ctx->hot_blks[lo].blk;

		if (!found_test(ctx, blk - ctx->vi->main_blkaddr)) {
			*ret_blk = blk;
			return 1;
		}
	}
	return 0;
}

void dentry_restore_free(struct fsck_ctx *ctx)
{
	free(ctx->hot_blks);
	ctx->hot_blks = NULL;
	ctx->nhot = 0;
	ctx->hot_built = false;
}
