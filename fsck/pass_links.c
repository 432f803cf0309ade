// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_links.c - pass 6: connectivity and link counts.
 *
 * An inode that no name reaches (and that is not on the orphan list) is reconnected to
 * lost+found as "#<ino>" (a root without lost+found gets a new one; a volume whose root
 * inode is gone, a new root first).  A node the NAT holds but no file reaches is released.  Then every
 * inode's link count is compared with the names found: a directory has 2 plus one per
 * subdirectory, anything else one per name.  Uses the maps of pass 4.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fsck.h"
#include "zf2fs/endian.h"
#include "zf2fs/file.h"
#include "zf2fs-internal/volume.h"

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

/* The root's inode as the repair has it (a root fsck made anew is not on disk yet). */
static int read_root(struct fsck_ctx *ctx, struct zf2fs_node *n, char *why, size_t whylen)
{
	const struct zf2fs_node *pending = repair_node_pending(ctx, ZF2FS_ROOT_INO);

	if (pending) {
		memcpy(n, pending, ctx->g->blocksize);
		return 0;
	}
	return zf2fs_vol_read_node(ctx->vol, ZF2FS_ROOT_INO, n, NULL, why, whylen);
}

static uint32_t find_lost_found(struct fsck_ctx *ctx)
{
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
	struct find_lpf f = { 0 };
	char why[160];

	if (n && !read_root(ctx, n, why, sizeof(why)))
		zf2fs_dir_iterate(ctx->vol, n, match_lpf, NULL, &f);
	free(n);
	if (f.ino && f.ino < ctx->nids && (ctx->nid_flags[f.ino] & NID_DIR) &&
	    (ctx->nid_flags[f.ino] & NID_REACHED) && !(ctx->nid_flags[f.ino] & NID_BAD))
		return f.ino;
	return 0;
}


/* Is the entry @name of a directory free to take: absent, or naming no usable inode (such
 * an entry was reported by pass 5, and removed if that was accepted)? */
static bool name_free(struct fsck_ctx *ctx, const struct zf2fs_node *dir, const char *name,
		      size_t len)
{
	uint32_t found;
	int err = zf2fs_dir_lookup(ctx->vol, dir, name, len, &found, NULL, NULL, 0);

	if (err == -ENOENT)
		return true;
	return !err && (found >= ctx->nids || nat_ino(ctx, found) != found ||
			!ctx->nat_addr[found] || (ctx->nid_flags[found] & NID_BAD));
}

/*
 * An inode keeps the directory it was created in (i_pino) and its name there (i_name):
 * what roll-forward recovery uses to re-create a name.  When that directory is in the
 * tree and the name is free there, the name goes back where it was, rather than to
 * lost+found as "#ino": a cleared slot bitmap or an entry whose inode number was damaged
 * then loses nothing.  Not for files whose i_advise says the two went stale (renamed),
 * nor in casefolded or encrypted directories, whose entries fsck cannot hash.
 */
static bool reconnect_home(struct fsck_ctx *ctx, uint32_t ino)
{
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX), *d = malloc(ZF2FS_BLKSIZE_MAX);
	struct problem_ctx p = { .ino = ino };
	char name[ZF2FS_NAME_LEN + 1];
	uint32_t pino, len;
	bool ok = false;

	if (!n || !d || zf2fs_vol_read_node(ctx->vol, ino, n, NULL, NULL, 0))
		goto out;
	/* after --rebuild without a SIT to tell live nodes from dead, an unreachable inode is
	 * more often a deleted file than a lost name: only one the kernel's recovery would
	 * name again (fsync'd, with the dentry mark) goes home, the others to lost+found */
	if (ctx->rebuilt_blind && !(zf2fs_get(nfoot(ctx, n)->flag) & ZF2FS_FOOTER_DENT_BIT))
		goto out;
	pino = (uint32_t)zf2fs_get(n->i.i_pino);
	len = (uint32_t)zf2fs_get(n->i.i_namelen);
	/* no links: an unlinked file whose orphan record was lost, not a lost name */
	if (len == 0 || len > ZF2FS_NAME_LEN || pino == ino || pino >= ctx->nids ||
	    !zf2fs_get(n->i.i_links) ||
	    (!(ctx->nid_flags[ino] & NID_DIR) && (n->i.i_advise & ZF2FS_ADVISE_LOST_PINO)) ||
	    (ctx->nid_flags[pino] & (NID_DIR | NID_REACHED | NID_BAD)) != (NID_DIR | NID_REACHED))
		goto out;
	memcpy(name, n->i.i_name, len);
	name[len] = 0;
	if (strlen(name) != len || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		goto out;
	if (zf2fs_vol_read_node(ctx->vol, pino, d, NULL, NULL, 0) ||
	    (zf2fs_get(d->i.i_flags) & ZF2FS_CASEFOLD_FL) || (d->i.i_advise & ZF2FS_ADVISE_ENCRYPT) ||
	    !name_free(ctx, d, name, len))
		goto out;
	p.parent = pino;
	p.str = name;
	if (!fix_problem(ctx, PR_6_RECONNECT_HOME, &p))
		goto out;
	if (repair_add_dentry(ctx, pino, name, ino, ctx->ftypes[ino])) {
		/* no room in its first dentry blocks: lost+found then */
		ctx->fixed--;
		ctx->problems--;
		goto out;
	}
	links_inc(ctx, ino);
	ctx->nid_flags[ino] |= NID_REACHED;
	if (ctx->nid_flags[ino] & NID_DIR) {
		struct dir_info *di = dir_info(ctx, pino);

		/* one lookup at a time: a lookup may grow (move) the table */
		if (di)
			di->subdirs++;
		di = dir_info(ctx, ino);
		if (di)
			di->parent = pino;
		repair_set_dotdot(ctx, ino, pino);
	}
	ok = true;
out:
	free(n);
	free(d);
	return ok;
}

/* A nid no node uses and the roll-forward chain does not name: the first gap, else one
 * past the last nid in use; 0 if none. */
static uint32_t free_nid(struct fsck_ctx *ctx)
{
	uint32_t nid;

	for (nid = ZF2FS_RESERVED_NIDS; nid < ctx->nids; nid++)
		if (!ctx->nat_addr[nid] && !nat_ino(ctx, nid) && !ctx->nid_flags[nid] &&
		    !repair_node_pending(ctx, nid) && !rollforward_names_nid(ctx, nid))
			return nid;
	while (rollforward_names_nid(ctx, nid))
		nid++;
	return fsck_grow_nids(ctx, nid + 1) ? 0 : nid;
}

/* A new, empty directory @nid named @name (@len bytes) under @parent, which gets no entry
 * here: inline dentries "." and "..", @mode, owned by @uid:@gid, two links, counted as
 * found and charged to quota.  0, or -1 with the transaction marked to write nothing. */
static int new_empty_dir(struct fsck_ctx *ctx, uint32_t nid, uint32_t parent, const char *name,
			 size_t len, uint32_t mode, uint32_t uid, uint32_t gid)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	uint64_t now = env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL);
	struct zf2fs_node *n = repair_new_node(ctx, nid, nid);
	struct zf2fs_inode_geom g;
	struct dir_info *di;

	if (!n || zf2fs_inode_init2(ctx->g, n, ctx->vi->features, nid, parent, name, len,
				    ZF2FS_S_IFDIR | mode, now))
		goto fail;
	zf2fs_set(n->i.i_uid, uid);
	zf2fs_set(n->i.i_gid, gid);
	zf2fs_set(n->i.i_current_depth, 1);
	n->i.i_inline |= ZF2FS_INLINE_DENTRY;
	if (inode_geom(ctx, &n->i, &g))
		goto fail;
	/* an inline directory's size is its inline area, as the kernel sets it */
	zf2fs_set(n->i.i_size, g.inline_bytes);
	ctx->found_inodes++;
	ctx->found_nodes++;
	ctx->found_blocks++;
	ctx->dirs++;
	/* charged before any entry is added: an addition may move the queued node */
	if (quota_charge_more(ctx, nid, &n->i, 1, 0) ||   /* its inode block only */
	    repair_add_dentry(ctx, nid, ".", nid, ZF2FS_FT_DIR) ||
	    repair_add_dentry(ctx, nid, "..", parent, ZF2FS_FT_DIR))
		goto fail;
	ctx->nid_flags[nid] = NID_INODE | NID_DIR | NID_REACHED | NID_CHECKED;
	ctx->ftypes[nid] = ZF2FS_FT_DIR;
	if (disk_links_set(ctx, nid, 2))
		goto fail;
	/* one lookup at a time: a lookup may grow (move) the table */
	di = dir_info(ctx, nid);
	if (!di)
		goto fail;
	di->parent = parent;
	return 0;
fail:
	/* the transaction holds half a directory: write nothing */
	ctx->abort = true;
	return -1;
}

/* When the root holds no lost+found, make one as e2fsck does: an empty directory
 * (inline dentries, mode 0700, owned as the root is) named "lost+found" in the root,
 * also when the name is left naming no usable inode (its inode lost).
 * Not when the root is unusable, casefolded or encrypted, or the name is taken by
 * something that is not a usable directory: then 0. */
static uint32_t create_lost_found(struct fsck_ctx *ctx)
{
	struct zf2fs_node *root = malloc(ZF2FS_BLKSIZE_MAX);
	struct problem_ctx p = { 0 };
	uint32_t nid = 0;

	if (!root || (ctx->nid_flags[ZF2FS_ROOT_INO] & (NID_DIR | NID_REACHED | NID_BAD)) !=
		     (NID_DIR | NID_REACHED) ||
	    read_root(ctx, root, NULL, 0) ||
	    (zf2fs_get(root->i.i_flags) & ZF2FS_CASEFOLD_FL) ||
	    (root->i.i_advise & ZF2FS_ADVISE_ENCRYPT) ||
	    !name_free(ctx, root, "lost+found", 10))
		goto out;
	nid = free_nid(ctx);
	if (!nid)
		goto out;
	p.ino = nid;
	if (!fix_problem(ctx, PR_6_CREATE_LOST_FOUND, &p)) {
		nid = 0;
		goto out;
	}
	if (new_empty_dir(ctx, nid, ZF2FS_ROOT_INO, "lost+found", 10, 0700,
			  (uint32_t)zf2fs_get(root->i.i_uid), (uint32_t)zf2fs_get(root->i.i_gid)))
		goto fail;
	if (repair_add_dentry(ctx, ZF2FS_ROOT_INO, "lost+found", nid, ZF2FS_FT_DIR))
		goto fail;
	links_inc(ctx, nid);
	{
		/* the root's count was right: it gains one, silently; else the link pass
		 * reports the count it finds wrong */
		bool right = disk_links_get(ctx, ZF2FS_ROOT_INO) ==
			     2 + (uint64_t)dir_subdirs(ctx, ZF2FS_ROOT_INO);
		struct dir_info *di = dir_info(ctx, ZF2FS_ROOT_INO);
		struct zf2fs_node *r;

		if (di)
			di->subdirs++;
		r = right ? repair_node(ctx, ZF2FS_ROOT_INO) : NULL;
		if (r) {
			zf2fs_set(r->i.i_links, zf2fs_get(r->i.i_links) + 1);
			disk_links_set(ctx, ZF2FS_ROOT_INO, (uint32_t)zf2fs_get(r->i.i_links));
		}
	}
	goto out;
fail:
	/* the transaction holds half a directory: write nothing */
	ctx->abort = true;
	nid = 0;
out:
	free(root);
	return nid;
}

/* The root inode gone (its nid names no inode, and no block was found for it): a new,
 * empty root directory (one dentry block, mode 0755, owned by root), as e2fsck allocates
 * one; what lay under the old root no name reaches now, and pass 6 puts it in lost+found
 * (or back under its recorded name).  Returns 1 when the new root was declined. */
int fsck_create_root(struct fsck_ctx *ctx)
{
	const uint32_t root = ZF2FS_ROOT_INO;
	struct problem_ctx p = { .ino = root };

	if (!fix_problem(ctx, PR_4_ROOT_CREATE, &p))
		return 1;
	/* Linux mounts no root without a block (its i_blocks past the inode's own): the
	 * entries go to a first dentry block, as mkfs.f2fs makes the root */
	if (new_empty_dir(ctx, root, root, "", 0, 0755, 0, 0) ||
	    repair_dir_to_blocks(ctx, root)) {
		ctx->abort = true;   /* half a directory: write nothing */
		return -ENOMEM;
	}
	return 0;
}

static void reconnect(struct fsck_ctx *ctx, uint32_t ino)
{
	struct problem_ctx p = { .ino = ino };
	char name[16];
	int err;

	if (reconnect_home(ctx, ino))
		return;
	if (!ctx->lpf_ino)
		ctx->lpf_ino = find_lost_found(ctx);
	if (!ctx->lpf_ino)
		ctx->lpf_ino = create_lost_found(ctx);
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
			zf2fs_set(n->i.i_pino, ctx->lpf_ino);
			memset(n->i.i_name, 0, sizeof(n->i.i_name));
			memcpy(n->i.i_name, name, strlen(name));
			zf2fs_set(n->i.i_namelen, strlen(name));
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
			zf2fs_set(n->i.i_pino, ctx->lpf_ino);
		repair_set_dotdot(ctx, ino, ctx->lpf_ino);
	}
}

/* Files pass 4 met first in a directory other than their i_pino: those that have that one
 * name (and are still in one piece) get it as i_pino (check_pino, pass_tree.c). */
static void pino_fixes(struct fsck_ctx *ctx)
{
	for (size_t i = 0; i < ctx->npino_fix && !ctx->abort; i++) {
		const struct pino_fix *f = &ctx->pino_fix[i];
		uint8_t fl = ctx->nid_flags[f->ino];
		struct problem_ctx p = { .ino = f->ino, .parent = f->dir, .num = f->pino };
		struct zf2fs_node *n;

		if ((fl & NID_BAD) || !(fl & NID_REACHED) || (fl & NID_ORPHAN) ||
		    links_get(ctx, f->ino) != 1 || disk_links_get(ctx, f->ino) != 1)
			continue;
		if (fix_problem(ctx, PR_4_PINO_BAD, &p) && (n = repair_node(ctx, f->ino)))
			zf2fs_set(n->i.i_pino, f->dir);
	}
}

int pass6_connectivity(struct fsck_ctx *ctx)
{
	for (uint32_t nid = ZF2FS_RESERVED_NIDS; nid < ctx->nids && !ctx->abort; nid++) {
		uint8_t f = ctx->nid_flags[nid];
		uint32_t r_addr = ctx->nat_addr[nid];

		if (f & NID_CLEAR) {
			repair_free_node(ctx, nid);
			continue;
		}
		if (!r_addr)
			continue;
		/* an unusable node nothing reaches any more (its names or pointers went in pass
		 * 4 and 5) still holds its NAT entry: the kernel would count it in use and
		 * never give the nid out again.  Free the entry; its block goes with it only
		 * if no other node owns it (pass 7 frees what nobody claimed). */
		if (f & NID_BAD) {
			struct problem_ctx p = { .nid = nid, .ino = nat_ino(ctx, nid), .blkaddr = r_addr };

			if (!(f & NID_REACHED) && r_addr != ZF2FS_NEW_ADDR &&
			    fix_problem(ctx, PR_6_UNREACHABLE_NODE, &p))
				repair_free_node(ctx, nid);
			continue;
		}
		if ((f & NID_INODE) && (f & NID_CHECKED)) {
			if (!(f & NID_REACHED) && !(f & NID_ORPHAN))
				reconnect(ctx, nid);
			continue;
		}
		if (!(f & NID_REACHED) && nat_ino(ctx, nid) != nid) {
			struct problem_ctx p = { .nid = nid, .ino = nat_ino(ctx, nid), .blkaddr = r_addr };

			if (fix_problem(ctx, PR_6_UNREACHABLE_NODE, &p)) {
				repair_free_node(ctx, nid);
			} else if (blk_in_main(ctx, r_addr)) {
				/* left in place: count it, so the accounting agrees */
				uint64_t off = r_addr - ctx->vi->main_blkaddr;

				if (!found_test(ctx, off)) {
					found_set(ctx, off);
					ctx->found_blocks++;
				}
				ctx->found_nodes++;
			}
		}
	}
	pino_fixes(ctx);
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

			if (n) {
				zf2fs_set(n->i.i_links, want);
				/* a file that had more names than it keeps no longer knows
				 * which is its own: mark it as the kernel marks a linked file,
				 * so neither recovery nor a later check trusts i_name/i_pino */
				if (!(f & NID_DIR) && p.num > want)
					n->i.i_advise |= ZF2FS_ADVISE_LOST_PINO;
			}
		}
	}
	return 0;
}
