// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * natmap.c - the NAT as pass 3 recorded it (and repairs changed it), in 4 bytes per nid.
 *
 * Each nid's block address sits in ctx->nat_addr.  Its inode number is nearly always
 * implied: an inode's NAT entry names the inode itself, a free entry names 0.  Only the
 * entries that differ (other nodes: direct, indirect and xattr nodes; damaged entries) are
 * kept in ctx->natx, sorted by nid.  On 10 million small files that is 40 MB less than a
 * table of both fields.
 */
#include "fsck.h"

/* What the inode number is when natx does not say. */
static uint32_t implied_ino(uint32_t nid, uint32_t addr)
{
	return addr == ZF2FS_NULL_ADDR ? 0 : nid;
}

/* Index of @nid in natx, or where it would go (and *found false). */
static size_t natx_find(const struct fsck_ctx *ctx, uint32_t nid, bool *found)
{
	size_t lo = 0, hi = ctx->nnatx;

	/* pass 3 adds entries in nid order: the last one first */
	if (hi && ctx->natx[hi - 1].nid < nid) {
		*found = false;
		return hi;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ctx->natx[mid].nid < nid)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < ctx->nnatx && ctx->natx[lo].nid == nid;
	return lo;
}

uint32_t nat_ino(const struct fsck_ctx *ctx, uint32_t nid)
{
	bool found;
	size_t i = natx_find(ctx, nid, &found);

	return found ? ctx->natx[i].ino : implied_ino(nid, ctx->nat_addr[nid]);
}

int nat_put(struct fsck_ctx *ctx, uint32_t nid, uint32_t ino, uint32_t addr)
{
	bool found;
	size_t i = natx_find(ctx, nid, &found);

	if (ino == implied_ino(nid, addr)) {
		if (found) {
			memmove(&ctx->natx[i], &ctx->natx[i + 1],
				(ctx->nnatx - i - 1) * sizeof(*ctx->natx));
			ctx->nnatx--;
		}
	} else if (found) {
		ctx->natx[i].ino = ino;
	} else {
		if (ctx->nnatx == ctx->cap_natx) {
			size_t cap = ctx->cap_natx ? ctx->cap_natx * 2 : 1024;
			struct nat_x *t = realloc(ctx->natx, cap * sizeof(*t));

			if (!t)
				return -ENOMEM;
			ctx->natx = t;
			ctx->cap_natx = cap;
		}
		memmove(&ctx->natx[i + 1], &ctx->natx[i], (ctx->nnatx - i) * sizeof(*ctx->natx));
		ctx->natx[i].nid = nid;
		ctx->natx[i].ino = ino;
		ctx->nnatx++;
	}
	/* atomic: the read-ahead thread reads the table while pass 4 mends it */
	__atomic_store_n(&ctx->nat_addr[nid], addr, __ATOMIC_RELAXED);
	return 0;
}
