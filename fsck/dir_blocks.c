// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dir_blocks.c - a directory's dentry blocks, read once for the three looks pass 5 takes.
 *
 * Pass 5 looks at a directory's names up to three times: how the names were hashed (the
 * casefold flag), which hash levels they sit in (i_dir_level), and then each name.  The
 * block tree is walked once here and the blocks are read in one go, in runs of adjacent
 * addresses, the kernel asked first to fetch them all in address order; the three looks
 * then work from memory.  A directory larger than DIR_CACHE_BYTES keeps only its list of
 * addresses and reads a block at each look (memory stays bounded).
 *
 * Also the read-ahead of the inodes a directory names: before pass 4 checks them in the
 * names' order, the kernel is asked for all of them at once, and reads them in address
 * order (dirblocks_children_willneed).
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/volume.h"

#define DIR_CACHE_BYTES (16u << 20)

static int collect(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
		   uint32_t ofs_in_node)
{
	struct dir_blocks *db = arg;

	if (db->n == db->cap) {
		size_t cap = db->cap ? db->cap * 2 : 16;
		struct dir_block *e = realloc(db->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		db->e = e;
		db->cap = cap;
	}
	db->e[db->n++] = (struct dir_block){ .fofs = fofs, .blkaddr = blkaddr, .owner = owner,
					     .ofs = ofs_in_node, .err = 1 };
	return 0;
}

/* Read the blocks of entries [@i, @j) (adjacent addresses) into the cache; one at a time
 * when the run cannot be read whole, so that only the bad block is marked. */
static void read_run(struct fsck_ctx *ctx, struct dir_blocks *db, size_t i, size_t j)
{
	size_t bs = ctx->g->blocksize;

	if (!zf2fs_vol_read_blocks(ctx->vol, db->e[i].blkaddr, (uint32_t)(j - i), db->buf + i * bs)) {
		for (size_t k = i; k < j; k++)
			db->e[k].err = 0;
		return;
	}
	for (size_t k = i; k < j; k++)
		db->e[k].err = j - i == 1 ? -EIO :
			       zf2fs_vol_read_block(ctx->vol, db->e[k].blkaddr, db->buf + k * bs);
}

int dirblocks_load(struct fsck_ctx *ctx, const struct zf2fs_node *inode, struct dir_blocks *db)
{
	const struct zf2fs_walk_ops ops = { .data = collect };
	size_t bs = ctx->g->blocksize, n = 0;
	uint64_t *addrs;
	int err;

	memset(db, 0, sizeof(*db));
	db->one = malloc(ZF2FS_BLKSIZE_MAX);
	if (!db->one)
		return -ENOMEM;
	err = zf2fs_file_walk(ctx->vol, inode, &ops, db);
	if (err)
		return err < 0 ? err : -EIO;
	if (!db->n || db->n > DIR_CACHE_BYTES / bs)
		return 0;
	db->buf = malloc(db->n * bs);
	addrs = malloc(db->n * sizeof(*addrs));
	if (!db->buf || !addrs) {
		free(addrs);
		free(db->buf);
		db->buf = NULL;
		return 0;   /* read at each look, as a large directory is */
	}
	for (size_t i = 0; i < db->n; i++)
		if (blk_in_main(ctx, db->e[i].blkaddr))
			addrs[n++] = db->e[i].blkaddr;
	zf2fs_vol_willneed(ctx->vol, addrs, n);
	free(addrs);
	for (size_t i = 0, j; i < db->n; i = j) {
		j = i + 1;
		if (!blk_in_main(ctx, db->e[i].blkaddr))
			continue;
		while (j < db->n && blk_in_main(ctx, db->e[j].blkaddr) &&
		       db->e[j].blkaddr == db->e[j - 1].blkaddr + 1 && j - i < 256)
			j++;
		read_run(ctx, db, i, j);
	}
	return 0;
}

const void *dirblocks_get(struct fsck_ctx *ctx, struct dir_blocks *db, size_t i, int *ret_err)
{
	struct dir_block *e = &db->e[i];

	*ret_err = 0;
	if (!blk_in_main(ctx, e->blkaddr)) {
		*ret_err = 1;
		return NULL;
	}
	if (db->buf) {
		*ret_err = e->err;
		return e->err ? NULL : db->buf + i * ctx->g->blocksize;
	}
	*ret_err = zf2fs_vol_read_block(ctx->vol, e->blkaddr, db->one);
	return *ret_err ? NULL : db->one;
}

void dirblocks_free(struct dir_blocks *db)
{
	free(db->e);
	free(db->buf);
	free(db->one);
	free(db->ra);
	memset(db, 0, sizeof(*db));
}

/* The NAT addresses of the inodes that area @v names and pass 4 has not checked yet. */
static int add_children(struct fsck_ctx *ctx, struct dir_blocks *db,
			const struct zf2fs_dentry_view *v)
{
	for (uint32_t i = 0; i < v->nr;) {
		uint32_t len, child;

		if (!zf2fs_dentry_slot_used(v, i)) {
			i++;
			continue;
		}
		len = (uint32_t)zf2fs_get(v->dentry[i].name_len);
		child = (uint32_t)zf2fs_get(v->dentry[i].ino);
		if (child >= ZF2FS_RESERVED_NIDS && child < ctx->nids &&
		    !(ctx->nid_flags[child] & NID_CHECKED) &&
		    blk_in_main(ctx, ctx->nat_addr[child])) {
			if (db->nra == db->cap_ra) {
				size_t cap = db->cap_ra ? db->cap_ra * 2 : 256;
				uint64_t *ra = realloc(db->ra, cap * sizeof(*ra));

				if (!ra)
					return -ENOMEM;
				db->ra = ra;
				db->cap_ra = cap;
			}
			db->ra[db->nra++] = ctx->nat_addr[child];
		}
		i += len && len <= ZF2FS_NAME_LEN ? zf2fs_dentry_slots(len) : 1;
	}
	return 0;
}

#define CHILDREN_WINDOW 4096

/* The children named from block @from on, into db->ra, until @limit of them (whole blocks);
 * returns the block after the last one looked at. */
static size_t children_from(struct fsck_ctx *ctx, struct dir_blocks *db, size_t from,
			    size_t limit)
{
	struct zf2fs_dentry_view v;
	size_t i;

	db->nra = 0;
	for (i = from; i < db->n && db->nra < limit; i++) {
		const struct dir_block *e = &db->e[i];

		if (!blk_in_main(ctx, e->blkaddr) || e->err)
			continue;
		dview_block(ctx, db->buf + i * ctx->g->blocksize, &v);
		if (add_children(ctx, db, &v))
			break;
	}
	return i;
}

void dirblocks_children_willneed(struct fsck_ctx *ctx, struct dir_blocks *db,
				 const struct zf2fs_dentry_view *cur, size_t from)
{
	size_t pre = zf2fs_vol_preload_max(ctx->vol);

	if (!db->buf) {
		/* an inline area, or a directory read at each look: the area at hand */
		db->nra = 0;
		if (!add_children(ctx, db, cur)) {
			zf2fs_vol_preload(ctx->vol, db->ra, db->nra);
			if (!ctx->pf && db->nra > pre)
				zf2fs_vol_willneed(ctx->vol, db->ra + pre, db->nra - pre);
		}
		return;
	}
	/* the kernel asked for a large window (unless the read-ahead thread reads them);
	 * the first part of it read now, in address order, for the reads that follow */
	if (!ctx->pf && from >= db->ra_upto) {
		db->ra_upto = children_from(ctx, db, from, CHILDREN_WINDOW);
		zf2fs_vol_willneed(ctx->vol, db->ra, db->nra);
	}
	if (from >= db->pre_upto) {
		db->pre_upto = children_from(ctx, db, from, pre);
		zf2fs_vol_preload(ctx->vol, db->ra, db->nra);
	}
}
