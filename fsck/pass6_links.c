// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass6_links.c - pass 6: connectivity and link counts.
 *
 * An inode that no name reaches (and that is not on the orphan list) is reconnected to
 * lost+found as "#<ino>".  A node the NAT holds but no file reaches is released.  Then every
 * inode's link count is compared with the names found: a directory has 2 plus one per
 * subdirectory, anything else one per name.  Uses the maps of pass 4.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/endian.h"

struct find_lpf {
	uint32_t ino;
};

static int match_lpf(void *arg, const struct zf2fs_dentry_info *d)
{
	struct find_lpf *f = arg;

	if (d->name_len == 10 && !memcmp(d->name, "lost+found", 10)) {
		f->ino = d->ino;
		return 1;
	}
	return 0;
}

static uint32_t find_lost_found(struct fsck_ctx *ctx)
{
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE);
	struct find_lpf f = { 0 };
	char why[160];

	if (n && !zf2fs_vol_read_node(ctx->vol, ZF2FS_ROOT_INO, n, NULL, why, sizeof(why)))
		zf2fs_dir_iterate(ctx->vol, n, match_lpf, NULL, &f);
	free(n);
	if (f.ino && f.ino < ctx->nids && (ctx->nid_flags[f.ino] & NID_DIR) &&
	    (ctx->nid_flags[f.ino] & NID_REACHED) && !(ctx->nid_flags[f.ino] & NID_BAD))
		return f.ino;
	return 0;
}

static void reconnect(struct fsck_ctx *ctx, uint32_t ino)
{
	struct problem_ctx p = { .ino = ino };
	char name[16];
	int err;

	if (!ctx->lpf_ino)
		ctx->lpf_ino = find_lost_found(ctx);
	if (!ctx->lpf_ino || ctx->lpf_ino == ino) {
		fix_problem(ctx, PR_6_NO_LOST_FOUND, &p);
		return;
	}
	if (!fix_problem(ctx, PR_6_UNREACHABLE_INODE, &p))
		return;
	snprintf(name, sizeof(name), "#%u", ino);
	err = repair_add_dentry(ctx, ctx->lpf_ino, name, ino, ctx->ftypes[ino]);
	if (err) {
		p.str = "no room";
		fix_problem(ctx, PR_6_NO_LOST_FOUND, &p);
		return;
	}
	links_inc(ctx, ino);
	ctx->nid_flags[ino] |= NID_REACHED;
	/* the name and parent roll-forward recovery would use are the new ones */
	{
		struct zf2fs_node *n = repair_node(ctx, ino);

		if (n) {
			zf_set(n->i.i_pino, ctx->lpf_ino);
			memset(n->i.i_name, 0, sizeof(n->i.i_name));
			memcpy(n->i.i_name, name, strlen(name));
			zf_set(n->i.i_namelen, strlen(name));
		}
	}
	if (ctx->nid_flags[ino] & NID_DIR) {
		struct zf2fs_node *n = repair_node(ctx, ino);

		struct dir_info *di = dir_info(ctx, ctx->lpf_ino);

		/* one lookup at a time: a lookup may grow (move) the table */
		if (di)
			di->subdirs++;
		di = dir_info(ctx, ino);
		if (di)
			di->parent = ctx->lpf_ino;
		if (n)
			zf_set(n->i.i_pino, ctx->lpf_ino);
		repair_set_dotdot(ctx, ino, ctx->lpf_ino);
	}
}

int pass6_connectivity(struct fsck_ctx *ctx)
{
	for (uint32_t nid = ZF2FS_RESERVED_NIDS; nid < ctx->nids && !ctx->abort; nid++) {
		uint8_t f = ctx->nid_flags[nid];
		struct nat_rec *r = &ctx->nat[nid];

		if (f & NID_CLEAR) {
			repair_free_node(ctx, nid);
			continue;
		}
		if (!r->blkaddr || (f & NID_BAD))
			continue;
		if ((f & NID_INODE) && (f & NID_CHECKED)) {
			if (!(f & NID_REACHED) && !(f & NID_ORPHAN))
				reconnect(ctx, nid);
			continue;
		}
		if (!(f & NID_REACHED) && r->ino != nid) {
			struct problem_ctx p = { .nid = nid, .ino = r->ino, .blkaddr = r->blkaddr };

			if (fix_problem(ctx, PR_6_UNREACHABLE_NODE, &p)) {
				repair_free_node(ctx, nid);
			} else if (blk_in_main(ctx, r->blkaddr)) {
				/* left in place: count it, so the accounting agrees */
				uint64_t off = r->blkaddr - ctx->vi->main_blkaddr;

				if (!(ctx->blk_found[off / 8] & (1u << (off % 8)))) {
					ctx->blk_found[off / 8] |= (uint8_t)(1u << (off % 8));
					ctx->seg_found[off / ZF2FS_BLOCKS_PER_SEG]++;
					ctx->found_blocks++;
				}
				ctx->found_nodes++;
			}
		}
	}
	/* link counts, after reconnection */
	for (uint32_t ino = ZF2FS_RESERVED_NIDS; ino < ctx->nids && !ctx->abort; ino++) {
		uint8_t f = ctx->nid_flags[ino];
		uint64_t want;
		struct problem_ctx p = { .ino = ino };

		if (!(f & NID_CHECKED) || !(f & NID_INODE) || (f & NID_BAD) || (f & NID_ORPHAN) ||
		    !(f & NID_REACHED))
			continue;
		want = (f & NID_DIR) ? 2 + (uint64_t)dir_subdirs(ctx, ino) : links_get(ctx, ino);
		if (disk_links_get(ctx, ino) == want)
			continue;
		p.num = disk_links_get(ctx, ino);
		p.num2 = want;
		if (fix_problem(ctx, PR_6_LINK_COUNT_BAD, &p)) {
			struct zf2fs_node *n = repair_node(ctx, ino);

			if (n)
				zf_set(n->i.i_links, want);
		}
	}
	return 0;
}
