// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_tree.c - pass 4: every inode reachable from the root, and its block tree.
 *
 * Walks the directory tree breadth first from the root (directories are queued, never
 * recursed into, so depth cannot exhaust the stack), then the orphan list.  Each inode is
 * checked once: mode, extra attributes, checksum, inline data, xattr node, and its block
 * tree (node footers, addresses inside the main area, no block owned twice), and its
 * i_blocks against what was counted (flags and fields the kernel reads at iget:
 * pass_fields.c; dentry blocks a directory lost its pointer to: pass_dentry_restore.c).
 * Directory contents are pass 5's (pass_dirs.c), called from here for each queued
 * directory.
 *
 * Builds: nid_flags (REACHED, INODE, DIR, CHECKED), links (names per inode), subdirs,
 * parent, disk_links, modes, blk_found/seg_found (blocks owned), found_blocks/nodes/inodes;
 * each owned block's summary entry is checked as it is found.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "zf2fs-internal/volume.h"

#define XATTR_NODE_OFS 0x1FFFFFFFu   /* footer offset of an xattr node */

struct inode_walk {
	struct fsck_ctx *ctx;
	uint32_t ino;
	uint64_t counted;        /* blocks for i_blocks: nodes, data, reserved */
	const struct zf2fs_node *inode;
	uint32_t lost_top[ZF2FS_NIDS_PER_INODE];   /* i_nid[] slots cleared: their offsets + 1 */
	uint32_t ext_fofs, ext_blk, ext_len;   /* i_ext, the kernel's cached extent */
	uint64_t ext_hits;       /* file blocks in it that the block map agrees with */
	uint64_t data_blocks;    /* data blocks the block map gives the file */
	/* a compressed file: its cluster size, the cluster the walk is in, whether that
	 * cluster is compressed (a COMPRESS_ADDR marker in its first slot) and how many
	 * data blocks it holds; the markers i_blocks counts, and the blocks its compressed
	 * clusters save (what i_compr_blocks must hold) */
	uint32_t cluster;
	bool released;
	uint64_t cl_index;
	bool cl_compressed;
	uint32_t cl_data, cl_new;
	uint64_t markers, saved;
	uint64_t cl_reserved, cl_bare;   /* compressed clusters with reserved slots, without */
};

#define SSA_CACHE 512

/* Recently read summary blocks, direct-mapped by segment: a file's blocks are mostly
 * close together, so checking summaries as blocks are found costs few reads and no list
 * of every block in the volume.  A slot takes a block when it is first used: an empty
 * volume's check needs a few. */
struct ssa_cache {
	uint32_t segno[SSA_CACHE];
	bool valid[SSA_CACHE];
	/* a summary fills up to a block (its entries first: a segment's 512 sit in the
	 * 4 KiB view) */
	uint8_t *blk[SSA_CACHE];
};

/* The summary entry of main-area block @blk (through a small cache of summary blocks). */
static int ssa_entry(struct fsck_ctx *ctx, uint64_t blk, const struct zf2fs_summary **ret)
{
	uint32_t seg = blk_segno(ctx, blk);
	uint32_t off = zf2fs_main_seg_off(ctx->vi->main_blkaddr, blk);
	unsigned slot = seg % SSA_CACHE;
	struct ssa_cache *c;

	/* A read-only volume (feature ro) keeps no summary area, and nothing reads its
	 * summaries: the kernel mounts it read-only (no garbage collection, no roll-forward)
	 * and f2fs-tools' sload leaves even its two logs' summaries unwritten.  None is
	 * checked or taken as a witness there. */
	if (ctx->vi->features & ZF2FS_FEAT_RO)
		return -ENODATA;
	if (!ctx->ssa) {
		ctx->ssa = calloc(1, sizeof(*ctx->ssa));
		if (!ctx->ssa)
			return -ENOMEM;
	}
	c = ctx->ssa;
	if (!c->blk[slot]) {
		c->blk[slot] = malloc(ctx->g->blocksize);
		if (!c->blk[slot])
			return -ENOMEM;
	}
	if (!c->valid[slot] || c->segno[slot] != seg) {
		int err = zf2fs_vol_segment_summary(ctx->vol, seg,
						    (struct zf2fs_summary_block *)c->blk[slot]);

		c->valid[slot] = !err;
		c->segno[slot] = seg;
		if (err)
			return err;
	}
	*ret = &((const struct zf2fs_summary_block *)c->blk[slot])->entries[off];
	return 0;
}

void ssa_cache_free(struct fsck_ctx *ctx)
{
	if (!ctx->ssa)
		return;
	for (unsigned i = 0; i < SSA_CACHE; i++)
		free(ctx->ssa->blk[i]);
	free(ctx->ssa);
	ctx->ssa = NULL;
}

/* Does the summary of data block @blk name slot @ofs of node @nid? */
static bool ssa_names(struct fsck_ctx *ctx, uint64_t blk, uint32_t nid, uint32_t ofs)
{
	const struct zf2fs_summary *e;

	return blk_in_main(ctx, blk) && ssa_entry(ctx, blk, &e) == 0 &&
	       zf2fs_get(e->nid) == nid && zf2fs_get(e->ofs_in_node) == ofs;
}

/* Does dentry slot @slot of @v name @ino, @len bytes long, as @name? */
static bool dentry_is(const struct zf2fs_dentry_view *v, uint32_t slot, const char *name,
		      uint32_t len, uint32_t ino)
{
	return slot < v->nr && zf2fs_dentry_slot_used(v, slot) &&
	       zf2fs_get(v->dentry[slot].ino) == ino &&
	       zf2fs_get(v->dentry[slot].name_len) == len && !memcmp(v->filename[slot], name, len);
}

/* Dentry area @v starts with "." and ".." as mkfs and the kernel write them (the root's
 * ".." names itself). */
static bool dots_fit(const struct zf2fs_dentry_view *v, uint32_t ino)
{
	return dentry_is(v, 0, ".", 1, ino) &&
	       (ino != ZF2FS_ROOT_INO || dentry_is(v, 1, "..", 2, ino));
}

/*
 * Inode @t (a directory, regular file or symlink) read with its current extra and inline
 * xattr sizes: do its contents sit where they say?  Inline dentries: its first slots are
 * its dots; block pointers: the first one leads to a block whose summary names that very
 * slot of the inode (or, for a directory's slot 0, a block that starts with its dots).
 * Inline data witnesses nothing.  -ENOMEM, or 1 when they fit.
 */
static int contents_fit(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *t)
{
	const uint8_t *addrs = (const uint8_t *)t->i.i_addr;
	bool dir = zf2fs_inode_type(&t->i) == ZF2FS_S_IFDIR;
	struct zf2fs_inode_geom g;
	struct zf2fs_dentry_view v;
	uint32_t blk = 0, k;
	uint8_t *buf;
	int r;

	if (inode_geom(ctx, &t->i, &g) || !inode_xattr_size_ok(ctx, &t->i))
		return 0;
	if (dir && (t->i.i_inline & ZF2FS_INLINE_DENTRY))
		return !dview_inline(ctx, t, &v) && dots_fit(&v, ino);
	if (t->i.i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY))
		return 0;
	for (k = 0; k < g.addrs; k++) {
		blk = zf2fs_get_le32p(addrs + 4 * (g.extra_words + k));
		if (blk != ZF2FS_NULL_ADDR && blk != ZF2FS_NEW_ADDR)
			break;
	}
	if (k == g.addrs || !blk_in_main(ctx, blk))
		return 0;
	if (ssa_names(ctx, blk, ino, k))
		return 1;
	if (!dir || k)
		return 0;
	buf = malloc(ZF2FS_BLKSIZE_MAX);
	if (!buf)
		return -ENOMEM;
	r = 0;
	if (!zf2fs_vol_read_block(ctx->vol, blk, buf)) {
		dview_block(ctx, buf, &v);
		r = dots_fit(&v, ino);
	}
	free(buf);
	return r;
}

/*
 * The extra attribute size of inode @node by its own contents: each size the kernel
 * accepts (a multiple of 4 up to its own) moves the block pointers or inline dentries to
 * another place, and only the one under which they read right is taken; 0 when no size,
 * or more than one, fits.  Stronger than the sizes of other inodes (the kernel gives its
 * inodes 36, mkfs the root less), and the only witness when every inode lost its size.
 * The inline xattr size stays, or becomes the kernel's default when it does not fit.
 */
static uint16_t own_extra_isize(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node,
				uint16_t *ret_xattr)
{
	struct zf2fs_node *t = malloc(ZF2FS_BLKSIZE_MAX);
	uint16_t found = 0, xattr = 0;
	unsigned hits = 0;

	if (!t)
		return 0;
	for (uint16_t e = 4; e <= ZF2FS_EXTRA_ISIZE_MAX; e += 4) {
		for (int k = 0; k < 2; k++) {
			memcpy(t, node, ctx->g->blocksize);
			zf2fs_set(t->i.i_extra_isize, e);
			if (k)
				zf2fs_set(t->i.i_inline_xattr_size, (t->i.i_inline & ZF2FS_INLINE_XATTR) ?
					  ZF2FS_INLINE_XATTR_ADDRS : 0);
			if (k && zf2fs_get(t->i.i_inline_xattr_size) ==
				 zf2fs_get(node->i.i_inline_xattr_size))
				continue;
			if (contents_fit(ctx, ino, t) > 0) {
				hits++;
				found = e;
				xattr = (uint16_t)zf2fs_get(t->i.i_inline_xattr_size);
				break;
			}
		}
	}
	free(t);
	if (hits != 1)
		return 0;
	*ret_xattr = xattr;
	return found;
}

/* The summary entry of a main-area block must name its owner (and slot, for data). */
static int check_summary(struct fsck_ctx *ctx, uint64_t blk, uint32_t nid, uint32_t ofs,
			 bool node)
{
	const struct zf2fs_summary *e;
	struct problem_ctx p = { .blkaddr = blk, .nid = nid };
	int err = ssa_entry(ctx, blk, &e);

	/* a read-only volume: no summary to check (ssa_entry) */
	if (err == -ENODATA)
		return 0;
	if (err)
		return err;
	/* a data block's summary also records its node's NAT version, which the kernel's
	 * garbage collection compares (is_alive: a mismatch asks for fsck); node blocks'
	 * summaries record version 0 */
	uint8_t version = node || nid >= ctx->nids ? e->version : ctx->nat_ver[nid];

	if (zf2fs_get(e->nid) == nid && (node || zf2fs_get(e->ofs_in_node) == ofs)) {
		if (e->version == version)
			return 0;
		/* one report per node: the rest of its blocks follow the answer */
		if (ctx->ver_nid != nid) {
			p.num = e->version;
			p.num2 = version;
			ctx->ver_nid = nid;
			ctx->ver_fix = fix_problem(ctx, PR_4_SSA_VERSION_BAD, &p);
		}
		if (ctx->ver_fix)
			return repair_set_summary(ctx, blk, nid, (uint16_t)ofs, version);
		return 0;
	}
	p.num = zf2fs_get(e->nid);
	p.num2 = zf2fs_get(e->ofs_in_node);
	if (fix_problem(ctx, PR_4_SSA_MISMATCH, &p))
		return repair_set_summary(ctx, blk, nid, node ? 0 : (uint16_t)ofs,
					  node ? 0 : version);
	return 0;
}

/*
 * Does the owner the summary of data block @blk names (node @nid, slot @ofs) really hold
 * it?  Then that owner has two witnesses (its pointer and the summary) against one (the
 * pointer being checked), and keeps the block.
 */
static bool summary_owner_holds(struct fsck_ctx *ctx, uint64_t blk, uint32_t nid, uint32_t ofs)
{
	struct zf2fs_node *n;
	struct zf2fs_inode_geom g;
	bool r = false;

	if (nid < ZF2FS_RESERVED_NIDS || nid >= ctx->nids || !nat_ino(ctx, nid) ||
	    nat_ino(ctx, nid) >= ctx->nids || nat_ino(ctx, nat_ino(ctx, nid)) != nat_ino(ctx, nid))
		return false;
	n = malloc(ZF2FS_BLKSIZE_MAX);
	if (!n)
		return false;
	if (zf2fs_vol_read_node(ctx->vol, nid, n, NULL, NULL, 0) == 0) {
		const uint8_t *addrs = (const uint8_t *)n;
		uint32_t nr = ctx->g->addrs_per_block;

		if (zf2fs_get(nfoot(ctx, n)->ino) == nid) {
			if (inode_geom(ctx, &n->i, &g) ||
			    (n->i.i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY))) {
				free(n);
				return false;
			}
			addrs += zf2fs_inode_addr_pos(g.extra_words, 0);
			nr = g.addrs;
		}
		r = ofs < nr && zf2fs_get_le32p(addrs + 4 * ofs) == blk;
	}
	free(n);
	return r;
}

/* The owner a block's summary records (for messages about blocks owned twice). */
static uint32_t summary_owner(struct fsck_ctx *ctx, uint64_t blk)
{
	struct zf2fs_summary_block *sb = malloc(ZF2FS_BLKSIZE_MAX);
	uint32_t nid = 0;

	if (sb && zf2fs_vol_segment_summary(ctx->vol, blk_segno(ctx, blk), sb) == 0)
		nid = (uint32_t)zf2fs_get(sb->entries[zf2fs_main_seg_off(ctx->vi->main_blkaddr,
									 blk)].nid);
	free(sb);
	return nid;
}

/* Claim a main-area block for an owner; false if somebody has it already. */
static bool claim_block(struct fsck_ctx *ctx, uint64_t blk, bool node)
{
	uint64_t off = blk - ctx->vi->main_blkaddr;

	if (found_test(ctx, off))
		return false;
	if (!ctx->seg_kind)
		ctx->seg_kind = calloc(ctx->vi->main_segs + 1, 1);
	if (ctx->seg_kind)
		ctx->seg_kind[zf2fs_main_segno(0, off)] |= node ? SEG_HAS_NODE : SEG_HAS_DATA;
	found_set(ctx, off);
	ctx->found_blocks++;
	return true;
}

/* Point slot @slot of @parent (the inode's i_nid[] or a node's nid list) at nothing. */
static int clear_child_pointer(struct fsck_ctx *ctx, uint32_t parent, uint32_t ino,
			       uint32_t slot)
{
	struct zf2fs_node *p = repair_node(ctx, parent);
	uint8_t *base = (uint8_t *)p;

	if (!p || repair_drop_extent(ctx, ino))
		return -ENOMEM;
	if (parent == ino)
		base = (uint8_t *)inode_nids(ctx, p);
	zf2fs_put_le32p(base + 4 * slot, 0);
	return 0;
}

static int walk_bad(void *arg, uint32_t nid, uint32_t parent, uint32_t slot, uint32_t ofs,
		    const char *why)
{
	struct inode_walk *w = arg;
	struct problem_ctx p = { .ino = w->ino, .nid = nid, .str = why, .num = ofs };

	if (fix_problem(w->ctx, PR_4_NODE_UNREADABLE, &p)) {
		if (parent == w->ino && slot < ZF2FS_NIDS_PER_INODE)
			w->lost_top[slot] = ofs + 1;
		return clear_child_pointer(w->ctx, parent, w->ino, slot);
	}
	return 0;
}

/*
 * A node whose footer names another nid, inode or offset, while three witnesses agree it
 * is this inode's node at this place: its NAT entry (nid, inode), the summary entry of its
 * block (a node segment's, naming the nid) and its parent's pointer.  The kernel refuses
 * a node whose footer disagrees (f2fs_get_node_page: nid; and the offset tells inodes,
 * direct and indirect nodes apart), so the footer is rewritten from the parent's place
 * rather than the node, and every block below it, being lost.
 */
static int walk_mend(void *arg, uint32_t nid, uint32_t blkaddr, const struct zf2fs_node *node,
		     uint32_t ofs, const char *why)
{
	struct inode_walk *w = arg;
	struct fsck_ctx *ctx = w->ctx;
	struct problem_ctx p = { .ino = w->ino, .nid = nid, .blkaddr = blkaddr, .str = why };
	const struct zf2fs_summary *e;
	struct zf2fs_node *fix;
	uint32_t flag = (uint32_t)zf2fs_get(nfoot(ctx, node)->flag);

	if (nid >= ctx->nids || nat_ino(ctx, nid) != w->ino || ctx->nat_addr[nid] != blkaddr ||
	    (ctx->nid_flags[nid] & NID_REACHED) || !blk_in_main(ctx, blkaddr) ||
	    zf2fs_sit_type(sit_get(ctx, blk_segno(ctx, blkaddr))) < ZF2FS_LOG_HOT_NODE ||
	    zf2fs_sit_type(sit_get(ctx, blk_segno(ctx, blkaddr))) > ZF2FS_LOG_COLD_NODE ||
	    ssa_entry(ctx, blkaddr, &e) || zf2fs_get(e->nid) != nid)
		return 0;
	if (!fix_problem(ctx, PR_4_NODE_FOOTER_BAD, &p))
		return 0;
	fix = repair_node_from(ctx, nid, node);
	if (!fix)
		return 0;
	zf2fs_set(nfoot(ctx, fix)->nid, nid);
	zf2fs_set(nfoot(ctx, fix)->ino, w->ino);
	zf2fs_set(nfoot(ctx, fix)->flag, flag);
	node_set_ofs(ctx, fix, ofs);
	return 1;
}

/*
 * An i_nid[] slot whose node was unusable often had a node of its own before the damage:
 * one the NAT holds for this inode, that nothing reached, whose footer names it, this
 * inode and the offset of that slot.  Point the slot at it again and walk it, so its
 * blocks are the file's again rather than freed.
 */
static int restore_top_nodes(struct inode_walk *w, const struct zf2fs_walk_ops *ops)
{
	struct fsck_ctx *ctx = w->ctx;
	struct zf2fs_node *fake = NULL, *nb = malloc(ZF2FS_BLKSIZE_MAX);
	int err = 0;

	if (!nb)
		return -ENOMEM;
	for (uint32_t slot = 0; slot < ZF2FS_NIDS_PER_INODE && !err; slot++) {
		if (!w->lost_top[slot])
			continue;
		for (uint32_t nid = ZF2FS_RESERVED_NIDS; nid < ctx->nids; nid++) {
			struct problem_ctx p = { .ino = w->ino, .nid = nid, .num = slot };
			struct zf2fs_node *n;

			if (nat_ino(ctx, nid) != w->ino || nid == w->ino ||
			    (ctx->nid_flags[nid] & (NID_REACHED | NID_BAD)) ||
			    !blk_in_main(ctx, ctx->nat_addr[nid]) ||
			    zf2fs_vol_read_node(ctx->vol, nid, nb, NULL, NULL, 0) ||
			    node_ofs(ctx, nb) != w->lost_top[slot] - 1)
				continue;
			if (!fix_problem(ctx, PR_4_NODE_RESTORED, &p))
				break;
			n = repair_node(ctx, w->ino);
			if (!fake)
				fake = malloc(ZF2FS_BLKSIZE_MAX);
			if (!n || !fake) {
				err = -ENOMEM;
				break;
			}
			inode_nids(ctx, n)[slot] = zf2fs_cpu_to_le32(nid);
			/* the inode with only that slot set: the walk gives the subtree the file
			 * offsets and node offsets of its place */
			memcpy(fake, w->inode, ctx->g->blocksize);
			memset(inode_nids(ctx, fake), 0, 4 * ZF2FS_NIDS_PER_INODE);
			inode_nids(ctx, fake)[slot] = zf2fs_cpu_to_le32(nid);
			{
				struct zf2fs_inode_geom g;

				if (inode_geom(ctx, &fake->i, &g) == 0)
					memset((uint8_t *)fake->i.i_addr + 4 * g.extra_words, 0, 4 * g.addrs);
			}
			err = zf2fs_file_walk(ctx->vol, fake, ops, w);
			if (err > 0)
				err = 0;
			break;
		}
	}
	free(fake);
	free(nb);
	return err;
}

static int walk_node(void *arg, uint32_t nid, uint32_t blkaddr, const struct zf2fs_node *node,
		     uint32_t ofs, uint32_t parent, uint32_t slot)
{
	struct inode_walk *w = arg;
	struct fsck_ctx *ctx = w->ctx;
	struct problem_ctx p = { .ino = w->ino, .nid = nid, .blkaddr = blkaddr };

	(void)node;
	(void)ofs;
	if (ctx->nid_flags[nid] & NID_REACHED) {
		p.str = "already used by another file";
		if (fix_problem(ctx, PR_4_NODE_UNREADABLE, &p))
			clear_child_pointer(ctx, parent, w->ino, slot);
		return ZF2FS_WALK_SKIP;
	}
	if (!claim_block(ctx, blkaddr, true)) {
		p.num2 = 0;
		p.str = "its block is owned twice";
		if (fix_problem(ctx, PR_4_NODE_UNREADABLE, &p))
			clear_child_pointer(ctx, parent, w->ino, slot);
		return ZF2FS_WALK_SKIP;
	}
	ctx->nid_flags[nid] |= NID_REACHED;
	ctx->found_nodes++;
	w->counted++;
	return check_summary(ctx, blkaddr, nid, 0, true);
}

/* Point slot @ofs of node @owner (relative to its first data address) at @blkaddr; the
 * inode's cached extent, which may cover the slot, goes. */
static int set_data_slot(struct fsck_ctx *ctx, uint32_t ino, uint32_t owner, uint32_t ofs,
			 uint32_t blkaddr)
{
	struct zf2fs_node *n = repair_node(ctx, owner);
	uint32_t first = 0;

	if (!n || repair_drop_extent(ctx, ino))
		return -ENOMEM;
	if (owner == ino) {
		struct zf2fs_inode_geom g;

		if (inode_geom(ctx, &n->i, &g) == 0)
			first = g.extra_words;
		zf2fs_put_le32p((uint8_t *)n + zf2fs_inode_addr_pos(first, ofs), blkaddr);
	} else {
		zf2fs_put_le32p((uint8_t *)n + 4 * ofs, blkaddr);
	}
	return 0;
}

/* Point the slot at nothing, and remember it: once every owned block is known, a block
 * nobody owns whose summary names this slot is put back (restore_slots). */
static int clear_data_slot(struct fsck_ctx *ctx, uint32_t ino, uint32_t owner, uint32_t ofs)
{
	struct lost_slot *l;

	if (ctx->nlost == ctx->cap_lost) {
		size_t cap = ctx->cap_lost ? ctx->cap_lost * 2 : 16;

		l = realloc(ctx->lost, cap * sizeof(*l));
		if (!l)
			return -ENOMEM;
		ctx->lost = l;
		ctx->cap_lost = cap;
	}
	ctx->lost[ctx->nlost++] = (struct lost_slot){ .ino = ino, .owner = owner, .ofs = ofs };
	return set_data_slot(ctx, ino, owner, ofs, ZF2FS_NULL_ADDR);
}

/*
 * A stray pointer (to another slot's block) was usually moved from the slot's own block by
 * a few blocks: look in the segment it points into for a block valid in the SIT, not owned
 * yet, whose summary names this very slot, and point the slot back at it now, before a
 * directory's blocks are scanned (restore_slots, at the end of pass 4, is too late for a
 * dentry block: its names would be missed and their inodes reconnected twice).  Otherwise
 * the slot is cleared and left to restore_slots.
 */
static int clear_or_restore(struct inode_walk *w, uint32_t owner, uint32_t ofs, uint64_t near)
{
	struct fsck_ctx *ctx = w->ctx;

	if (blk_in_main(ctx, near)) {
		uint32_t s = blk_segno(ctx, near);
		uint64_t first = zf2fs_main_blk(ctx->vi->main_blkaddr, s, 0);
		const struct zf2fs_sit_entry *se = sit_get(ctx, s);

		for (uint32_t off = 0; off < ZF2FS_BLOCKS_PER_SEG; off++) {
			const struct zf2fs_summary *e;
			struct problem_ctx p = { .ino = w->ino, .nid = owner, .num = ofs,
						 .blkaddr = first + off };

			if (!sit_bit(se, off) || found_test(ctx, first + off - ctx->vi->main_blkaddr) ||
			    ssa_entry(ctx, first + off, &e) || zf2fs_get(e->nid) != owner ||
			    zf2fs_get(e->ofs_in_node) != ofs)
				continue;
			if (!fix_problem(ctx, PR_4_BLOCK_RESTORED, &p))
				return clear_data_slot(ctx, w->ino, owner, ofs);
			claim_block(ctx, first + off, false);
			w->counted++;
			w->data_blocks++;
			return set_data_slot(ctx, w->ino, owner, ofs, (uint32_t)(first + off));
		}
	}
	/* a directory's dentry block lies in a hot data segment, wherever the bad pointer
	 * pointed */
	if (zf2fs_inode_type(&w->inode->i) == ZF2FS_S_IFDIR) {
		uint64_t blk;
		int r = dentry_block_lost(ctx, owner, ofs, &blk);

		if (r < 0)
			return r;
		if (r && fix_problem(ctx, PR_4_BLOCK_RESTORED, &(struct problem_ctx){
				.ino = w->ino, .nid = owner, .num = ofs, .blkaddr = blk })) {
			claim_block(ctx, blk, false);
			w->counted++;
			w->data_blocks++;
			return set_data_slot(ctx, w->ino, owner, ofs, (uint32_t)blk);
		}
	}
	return clear_data_slot(ctx, w->ino, owner, ofs);
}

/*
 * Null (or reserved) direct slots of a directory inside its size whose dentry block is still there (a
 * valid hot data block nobody owns, whose summary names the slot): pointed back at it,
 * in the inode and in @copy, which the walk then reads.  Returns 0 or a negative errno.
 */
static int restore_dir_slots(struct fsck_ctx *ctx, uint32_t ino, struct zf2fs_node *copy,
			     const struct zf2fs_inode_geom *g)
{
	uint64_t size = zf2fs_get(copy->i.i_size);
	uint64_t nblk = size / ctx->g->blocksize + (size % ctx->g->blocksize != 0);
	uint8_t *addrs = (uint8_t *)copy->i.i_addr + 4 * g->extra_words;

	for (uint32_t k = 0; k < g->addrs && k < nblk; k++) {
		uint64_t blk;
		int r;

		/* a dentry block is never left reserved (NEW_ADDR) on disk: the kernel writes
		 * a directory's block when it adds it */
		if (zf2fs_get_le32p(addrs + 4 * k) &&
		    zf2fs_get_le32p(addrs + 4 * k) != ZF2FS_NEW_ADDR)
			continue;
		r = dentry_block_lost(ctx, ino, k, &blk);
		if (r < 0)
			return r;
		if (r && fix_problem(ctx, PR_4_BLOCK_RESTORED, &(struct problem_ctx){
				.ino = ino, .nid = ino, .num = k, .blkaddr = blk })) {
			r = set_data_slot(ctx, ino, ino, k, (uint32_t)blk);
			if (r)
				return r;
			zf2fs_put_le32p(addrs + 4 * k, (uint32_t)blk);
		}
	}
	return 0;
}

/* The end of a cluster of a compressed file: its slots past the compressed data are
 * what compression saved, which i_compr_blocks adds up (the kernel's release gives back
 * the cluster's size less its data blocks, and sets i_compr_blocks to 0). */
static void cluster_done(struct inode_walk *w)
{
	if (w->cl_compressed && !w->released && w->cl_data < w->cluster)
		w->saved += w->cluster - w->cl_data;
	if (w->cl_compressed && w->cl_new)
		w->cl_reserved++;
	else if (w->cl_compressed && w->cl_data + 1 < w->cluster)
		w->cl_bare++;
	w->cl_compressed = false;
	w->cl_data = 0;
	w->cl_new = 0;
}

/* ---- device aliasing ------------------------------------------------------------------ */
/* Device @d's block range [@ret_start, @ret_end], as Linux computes it from the superblock's
 * device list (device 0 starts at block 0 and carries segment 0's offset); false past the
 * last device. */
static bool dev_range(const struct fsck_ctx *ctx, unsigned d, uint64_t *ret_start,
		      uint64_t *ret_end)
{
	uint64_t start = 0, end = 0;

	for (unsigned i = 0; i <= d && i < ZF2FS_MAX_DEVICES; i++) {
		uint32_t segs = (uint32_t)zf2fs_get(ctx->sb->devs[i].total_segments);

		if (!segs)
			return false;
		start = i ? end + 1 : 0;
		end = start + (uint64_t)segs * ZF2FS_BLOCKS_PER_SEG - 1 +
		      (i ? 0 : zf2fs_get(ctx->sb->segment0_blkaddr));
	}
	if (d >= ZF2FS_MAX_DEVICES)
		return false;
	*ret_start = start;
	*ret_end = end;
	return true;
}

/* The device (0 or more) holding block @blk; ZF2FS_MAX_DEVICES for none. */
static unsigned dev_of(const struct fsck_ctx *ctx, uint64_t blk)
{
	uint64_t start, end;

	for (unsigned d = 0; dev_range(ctx, d, &start, &end); d++)
		if (blk >= start && blk <= end)
			return d;
	return ZF2FS_MAX_DEVICES;
}

enum alias_verdict { ALIAS_OK, ALIAS_DEV0, ALIAS_ZONED, ALIAS_MISALIGNED, ALIAS_NO_DEVICE };

/* Whether device @d can be aliased, as Linux checks an alias file's extent at iget
 * (sanity_check_extent_cache): never device 0, never a zoned device, and a range that
 * starts and ends on a section boundary. */
static enum alias_verdict dev_aliasable(struct fsck_ctx *ctx, unsigned d)
{
	uint32_t per_sec = ctx->vi->segs_per_sec * ZF2FS_BLOCKS_PER_SEG;
	struct zf2fs_dev *dev = zf2fs_vol_dev(ctx->vol, d);
	struct zf2fs_dev_geom g;
	uint64_t start, end;

	if (!d)
		return ALIAS_DEV0;
	if (dev && zf2fs_dev_geometry(dev, &g) == 0 && g.zone_model != ZF2FS_ZONED_NONE)
		return ALIAS_ZONED;
	if (!dev_range(ctx, d, &start, &end))
		return ALIAS_NO_DEVICE;
	if ((start - zf2fs_get(ctx->sb->segment0_blkaddr)) % per_sec || (end + 1 - start) % per_sec)
		return ALIAS_MISALIGNED;
	return ALIAS_OK;
}

/* What Linux makes of an alias file's extent [@blk, @blk + @len) (@len > 0): the device
 * whose whole range it is (@ret_dev), and whether that device can be aliased. */
static enum alias_verdict alias_verdict(struct fsck_ctx *ctx, uint32_t fofs, uint32_t blk,
					uint32_t len, unsigned *ret_dev)
{
	uint64_t start, end;

	*ret_dev = ZF2FS_MAX_DEVICES;
	for (unsigned d = 0; !fofs && dev_range(ctx, d, &start, &end); d++) {
		if (start == blk && end == (uint64_t)blk + len - 1) {
			*ret_dev = d;
			return dev_aliasable(ctx, d);
		}
	}
	return ALIAS_NO_DEVICE;
}

/* Whether every block of device @d is valid in SIT and owned by nobody yet: the state an
 * alias file's reserve leaves its device in. */
static bool dev_free_for_alias(struct fsck_ctx *ctx, unsigned d)
{
	uint64_t start, end;

	if (!dev_range(ctx, d, &start, &end) || !blk_in_main(ctx, start) || !blk_in_main(ctx, end))
		return false;
	for (uint64_t b = start; b <= end; b++) {
		uint32_t off = zf2fs_main_seg_off(ctx->vi->main_blkaddr, b);

		if (found_test(ctx, b - ctx->vi->main_blkaddr) ||
		    !sit_bit(sit_get(ctx, blk_segno(ctx, b)), off))
			return false;
	}
	return true;
}

static bool alias_flagged(const struct fsck_ctx *ctx, const struct zf2fs_inode *in)
{
	return (ctx->vi->features & ZF2FS_FEAT_DEVICE_ALIAS) &&
	       ((uint32_t)zf2fs_get(in->i_flags) & ZF2FS_DEVICE_ALIAS_FL);
}

struct alias_scan {
	struct fsck_ctx *ctx;
	struct zf2fs_node *n;
	uint32_t lost_found;   /* the root's lost+found, scanned next (0: none) */
};

/* When inode @ino is an alias file with a right extent, its device's blocks are claimed
 * for it. */
static void alias_try(struct alias_scan *a, uint32_t ino)
{
	struct fsck_ctx *ctx = a->ctx;
	const struct zf2fs_inode *in = &a->n->i;
	uint64_t start, end;
	unsigned d;

	if (zf2fs_vol_read_node(ctx->vol, ino, a->n, NULL, NULL, 0) ||
	    zf2fs_get(nfoot(ctx, a->n)->ino) != ino || zf2fs_get(nfoot(ctx, a->n)->nid) != ino ||
	    !alias_flagged(ctx, in) || !zf2fs_get(in->i_ext.len) ||
	    alias_verdict(ctx, (uint32_t)zf2fs_get(in->i_ext.fofs), (uint32_t)zf2fs_get(in->i_ext.blk),
			  (uint32_t)zf2fs_get(in->i_ext.len), &d) != ALIAS_OK ||
	    ctx->alias_ino[d] || !dev_range(ctx, d, &start, &end) || !blk_in_main(ctx, start) ||
	    !blk_in_main(ctx, end))
		return;
	for (uint64_t b = start; b <= end; b++)
		claim_block(ctx, b, false);
	ctx->alias_ino[d] = ino;
}

/* A regular file of the root directory (where mkfs.f2fs -c DEV@ALIAS puts alias files, and
 * Linux looks them up at mount) or of lost+found (where fsck puts an unreachable one;
 * Linux neither links nor renames an alias file): when it is an alias file with a right
 * extent, the device's blocks are claimed for it. */
static int alias_scan_entry(void *arg, const struct zf2fs_dentry_info *de)
{
	struct alias_scan *a = arg;
	struct fsck_ctx *ctx = a->ctx;

	if (de->type == ZF2FS_FT_DIR && de->name_len == 10 && !memcmp(de->name, "lost+found", 10))
		a->lost_found = de->ino;
	if (de->type != ZF2FS_FT_REG_FILE || de->ino < ZF2FS_RESERVED_NIDS || de->ino >= ctx->nids)
		return 0;
	alias_try(a, de->ino);
	return 0;
}

/* Scan directory @ino's entries for alias files; an unusable directory is the walk's. */
static int alias_scan_dir(struct alias_scan *a, uint32_t ino, struct zf2fs_node *dir)
{
	int err;

	if (zf2fs_vol_read_node(a->ctx->vol, ino, dir, NULL, NULL, 0) ||
	    zf2fs_get(nfoot(a->ctx, dir)->ino) != ino || zf2fs_inode_type(&dir->i) != ZF2FS_S_IFDIR)
		return 0;
	err = zf2fs_dir_iterate(a->ctx->vol, dir, alias_scan_entry, NULL, a);
	return err == -ENOMEM ? err : 0;
}

static bool is_inode_nid(const struct fsck_ctx *ctx, uint32_t nid);

/*
 * Before the walk, each device's alias file in the root directory or in lost+found claims
 * the device's blocks: Linux allocates nothing on a device an alias file holds, so any
 * other pointer there is the wrong one, whichever file the walk meets first (walk_data).
 * A device still held (every block valid in SIT, none claimed) whose alias file these
 * directories do not name (a damaged directory, a lost name) has every inode read for
 * it: a cost only such a volume pays.
 */
static int alias_prescan(struct fsck_ctx *ctx)
{
	struct alias_scan a = { .ctx = ctx };
	struct zf2fs_node *root;
	int err = 0;

	if (!(ctx->vi->features & ZF2FS_FEAT_DEVICE_ALIAS))
		return 0;
	root = malloc(ZF2FS_BLKSIZE_MAX);
	a.n = malloc(ZF2FS_BLKSIZE_MAX);
	if (!root || !a.n) {
		err = -ENOMEM;
	} else {
		err = alias_scan_dir(&a, ZF2FS_ROOT_INO, root);
		if (!err && a.lost_found && a.lost_found < ctx->nids) {
			uint32_t lf = a.lost_found;

			err = alias_scan_dir(&a, lf, root);
		}
	}
	for (unsigned d = 1; !err && d < ZF2FS_MAX_DEVICES; d++) {
		uint64_t start, end;

		if (!dev_range(ctx, d, &start, &end))
			break;
		if (ctx->alias_ino[d] || !dev_free_for_alias(ctx, d))
			continue;
		for (uint32_t nid = ZF2FS_RESERVED_NIDS; nid < ctx->nids; nid++) {
			if (is_inode_nid(ctx, nid))
				alias_try(&a, nid);
		}
		break;   /* every inode was read: each held device has what it will get */
	}
	free(a.n);
	free(root);
	return err;
}

/* Whether device @d's path ends in the name @name (@len bytes): Linux's reserve finds an
 * alias file's device by the file's name, the last part of the device's path. */
static bool dev_named(const struct fsck_ctx *ctx, unsigned d, const uint8_t *name, uint32_t len)
{
	const char *path = (const char *)ctx->sb->devs[d].path;
	size_t n = strnlen(path, sizeof(ctx->sb->devs[d].path));
	const char *base = path;

	for (size_t i = 0; i < n; i++)
		if (path[i] == '/')
			base = path + i + 1;
	return len && (size_t)(path + n - base) == len && !memcmp(base, name, len);
}

/* The device alias file @in, whose extent Linux refuses, held: a device Linux accepts an
 * alias of, held by no other alias file, every block valid in SIT and owned by nobody (only
 * an alias file's reserve leaves a device so), chosen as the one @inside the extent lies
 * in, else the one its name names (as Linux's reserve finds it), else the only such device;
 * ZF2FS_MAX_DEVICES for none.  Its extent set to that device's range keeps the device's
 * bytes the file's; releasing the file would make them free space. */
static unsigned alias_held_device(struct fsck_ctx *ctx, const struct zf2fs_inode *in,
				  unsigned inside, const char **ret_how)
{
	uint32_t len = (uint32_t)zf2fs_get(in->i_namelen);
	unsigned found = ZF2FS_MAX_DEVICES, nfree = 0;

	if (len > ZF2FS_NAME_LEN)
		len = 0;
	for (unsigned d = 1; d < ZF2FS_MAX_DEVICES && zf2fs_get(ctx->sb->devs[d].total_segments);
	     d++) {
		if (dev_aliasable(ctx, d) != ALIAS_OK || ctx->alias_ino[d] ||
		    !dev_free_for_alias(ctx, d))
			continue;
		if (d == inside) {
			*ret_how = "it lies inside device";
			return d;
		}
		if (dev_named(ctx, d, in->i_name, len)) {
			*ret_how = "the file's name names device";
			return d;
		}
		found = d;
		nfree++;
	}
	*ret_how = "the only device held for an alias file is device";
	return nfree == 1 ? found : ZF2FS_MAX_DEVICES;
}

/* Points alias file @w's extent at device @d's whole range and claims the device. */
static void alias_reaim(struct inode_walk *w, unsigned d)
{
	struct fsck_ctx *ctx = w->ctx;
	struct zf2fs_node *n = repair_node(ctx, w->ino);
	uint64_t start, end;

	if (!dev_range(ctx, d, &start, &end))
		return;
	if (n) {
		zf2fs_set(n->i.i_ext.fofs, 0);
		zf2fs_set(n->i.i_ext.blk, start);
		zf2fs_set(n->i.i_ext.len, end + 1 - start);
		zf2fs_set(n->i.i_size, (end + 1 - start) * ctx->g->blocksize);
	}
	for (uint64_t b = start; b <= end; b++)
		claim_block(ctx, b, false);
	w->counted += end + 1 - start;
	ctx->alias_ino[d] = w->ino;
}

/* Release device alias file @ino (extent and size 0), as F2FS_IOC_RELEASE_DEV_ALIAS does. */
static void alias_release(struct fsck_ctx *ctx, uint32_t ino)
{
	struct zf2fs_node *n = repair_node(ctx, ino);

	if (!n)
		return;
	memset(&n->i.i_ext, 0, sizeof(n->i.i_ext));
	zf2fs_set(n->i.i_size, 0);
}

/*
 * A device alias file (the device_alias feature, mkfs.f2fs -c DEV@ALIAS) owns every block
 * of its device through its extent, without a block map and without summary entries (its
 * summaries are left as they were: Linux never reads them for it).  A released one (no
 * extent) owns nothing.  Its extent must be one device's whole range, on a device Linux
 * accepts an alias of; otherwise Linux refuses the inode.  The extent then becomes the
 * range of the device the file held (alias_held_device: SIT still holds its blocks valid
 * for nobody), as Linux's reserve sets it, and the file keeps the device's bytes; with no
 * such device the file is released (a state Linux makes and mounts).
 * A file whose block map holds data is no alias file (an alias has no block map): with a
 * wrong extent, the flag goes and the file keeps its blocks.
 */
static void claim_alias_extent(struct inode_walk *w, const struct zf2fs_inode *in)
{
	struct fsck_ctx *ctx = w->ctx;
	struct problem_ctx p = { .ino = w->ino, .blkaddr = w->ext_blk, .num = w->ext_len };
	static const unsigned codes[] = { [ALIAS_DEV0] = PR_4_ALIAS_DEV0,
		[ALIAS_ZONED] = PR_4_ALIAS_ZONED, [ALIAS_MISALIGNED] = PR_4_ALIAS_MISALIGNED };
	enum alias_verdict v;
	uint64_t start, end;
	char why[200];
	unsigned d;

	if (!alias_flagged(ctx, in) || !w->ext_len)
		return;
	v = alias_verdict(ctx, w->ext_fofs, w->ext_blk, w->ext_len, &d);
	p.num2 = d;
	if (v != ALIAS_OK && w->data_blocks) {
		/* an alias file has no block map: a file whose block map holds data is a
		 * file, and the flag is what is wrong (releasing it would drop its data) */
		snprintf(why, sizeof(why), "the file's block map holds %llu blocks of its own, "
			 "which an alias file never has: the device-alias flag goes, and the file "
			 "keeps its blocks", (unsigned long long)w->data_blocks);
		p.str = why;
		if (fix_problem(ctx, PR_4_ALIAS_NO_DEVICE, &p)) {
			struct zf2fs_node *n = repair_node(ctx, w->ino);

			if (n)
				zf2fs_set(n->i.i_flags,
					  (uint32_t)zf2fs_get(in->i_flags) & ~ZF2FS_DEVICE_ALIAS_FL);
		}
		return;   /* the extent is checked as any file's */
	}
	if (v != ALIAS_OK) {
		unsigned inside = ZF2FS_MAX_DEVICES, held;
		const char *how;

		if (v == ALIAS_NO_DEVICE && !w->ext_fofs) {
			inside = dev_of(ctx, w->ext_blk);
			if (inside != dev_of(ctx, (uint64_t)w->ext_blk + w->ext_len - 1))
				inside = ZF2FS_MAX_DEVICES;
		}
		held = alias_held_device(ctx, in, inside, &how);
		if (held < ZF2FS_MAX_DEVICES && dev_range(ctx, held, &start, &end)) {
			snprintf(why, sizeof(why), "%s %u, whose blocks SIT holds valid for no "
				 "other file: the extent becomes the device's whole range (block "
				 "%llu, %llu blocks), as Linux's reserve sets it", how, held,
				 (unsigned long long)start, (unsigned long long)(end + 1 - start));
			p.str = why;
			if (fix_problem(ctx, v == ALIAS_NO_DEVICE ? PR_4_ALIAS_NO_DEVICE : codes[v], &p))
				alias_reaim(w, held);
		} else if (v == ALIAS_NO_DEVICE) {
			p.str = "no device's blocks are free for it to hold: release the file (size 0, "
				"no blocks, as F2FS_IOC_RELEASE_DEV_ALIAS leaves one; the blocks its "
				"extent names stay with whoever else owns them)";
			if (fix_problem(ctx, PR_4_ALIAS_NO_DEVICE, &p))
				alias_release(ctx, w->ino);
		} else {
			p.str = v == ALIAS_DEV0 ?
				"release the file (size 0, no blocks, as F2FS_IOC_RELEASE_DEV_ALIAS "
				"leaves one; no device's blocks are held for it, and device 0's are "
				"the volume's)" :
				"release the file (size 0, no blocks, as F2FS_IOC_RELEASE_DEV_ALIAS "
				"leaves one; no device's blocks are held for it: the device's bytes "
				"stay on it until the volume reuses its blocks)";
			if (fix_problem(ctx, codes[v], &p))
				alias_release(ctx, w->ino);
		}
		w->ext_len = 0;   /* the problem above covers the extent */
		return;
	}
	if (ctx->alias_ino[d] == w->ino) {   /* claimed before the walk */
		w->counted += w->ext_len;
		w->ext_hits += w->ext_len;
		return;
	}
	/* an alias file the scan before the walk did not find (no directory reaches it):
	 * it owns its extent's blocks all the same; one another file took first is
	 * reported (that file's pointer is the wrong one, but its walk is over: once this
	 * file is in lost+found, the next run finds it first and clears the pointer) */
	for (uint32_t i = 0; i < w->ext_len; i++) {
		uint32_t blk = w->ext_blk + i;

		if (!blk_in_main(ctx, blk))
			return;
		w->counted++;
		w->ext_hits++;
		if (!claim_block(ctx, blk, false)) {
			p.blkaddr = blk;
			p.num2 = summary_owner(ctx, blk);
			(void)fix_problem(ctx, PR_4_BLOCK_DUP, &p);
		}
	}
	if (!ctx->alias_ino[d])
		ctx->alias_ino[d] = w->ino;
}

/* The alias file that holds block @blk's device, 0 for none (only held devices' ranges are
 * computed: this runs for every data block of an aliased volume). */
static uint32_t alias_holder(const struct fsck_ctx *ctx, uint64_t blk)
{
	uint64_t start, end;

	if (!(ctx->vi->features & ZF2FS_FEAT_DEVICE_ALIAS))
		return 0;
	for (unsigned d = 1; d < ZF2FS_MAX_DEVICES; d++) {
		if (ctx->alias_ino[d] && dev_range(ctx, d, &start, &end) && blk >= start &&
		    blk <= end)
			return ctx->alias_ino[d];
	}
	return 0;
}

static int walk_data(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
		     uint32_t ofs_in_node)
{
	struct inode_walk *w = arg;
	struct fsck_ctx *ctx = w->ctx;
	struct problem_ctx p = { .ino = w->ino, .nid = owner, .blkaddr = blkaddr,
				 .num = ofs_in_node };

	if (fofs >= w->ext_fofs && fofs - w->ext_fofs < w->ext_len &&
	    blkaddr == w->ext_blk + (fofs - w->ext_fofs))
		w->ext_hits++;
	if (w->cluster && fofs / w->cluster != w->cl_index) {
		cluster_done(w);
		w->cl_index = fofs / w->cluster;
	}
	if (blkaddr == ZF2FS_COMPRESS_ADDR) {
		/* a compressed cluster's marker: the kernel counts it as a used block, until
		 * F2FS_IOC_RELEASE_COMPRESS_BLOCKS releases it with the cluster's reserved
		 * slots (the file's compress-released bit) */
		if (!w->released) {
			ctx->found_reserved++;
			w->markers++;
		}
		if (w->cluster && fofs % w->cluster == 0)
			w->cl_compressed = true;
		return 0;
	}
	if (w->cluster && blkaddr != ZF2FS_NEW_ADDR)
		w->cl_data++;
	else if (w->cluster)
		w->cl_new++;
	if (blkaddr == ZF2FS_NEW_ADDR) {   /* reserved, not yet written */
		w->counted++;
		ctx->found_reserved++;
		return 0;
	}
	if (!blk_in_main(ctx, blkaddr)) {
		if (fix_problem(ctx, PR_4_BLOCK_OUTSIDE_MAIN, &p))
			return clear_or_restore(w, owner, ofs_in_node, blkaddr);
		return 0;
	}
	/* a device an alias file holds is the alias file's alone: Linux allocates nothing
	 * there while it holds it, so the other pointer is the wrong one */
	p.num2 = alias_holder(ctx, blkaddr);
	if (p.num2 && p.num2 != w->ino) {
		if (fix_problem(ctx, PR_4_ALIAS_BLOCK_DUP, &p))
			return clear_or_restore(w, owner, ofs_in_node, blkaddr);
		return 0;
	}
	/* a pointer the summary disagrees with, to a block whose summary owner really holds
	 * it, is the stray one, whichever of the two is met first */
	if (!ssa_names(ctx, blkaddr, owner, ofs_in_node)) {
		const struct zf2fs_summary *e;

		/* both witnesses against it: the SIT says the block is free and its summary
		 * names another slot.  Taking the block would hand the file whatever was
		 * last written there (and, in a log's segment, the log's next block). */
		if (!found_test(ctx, blkaddr - ctx->vi->main_blkaddr) &&
		    !sit_bit(sit_get(ctx, blk_segno(ctx, blkaddr)),
			     zf2fs_main_seg_off(ctx->vi->main_blkaddr, blkaddr))) {
			p.num2 = ssa_entry(ctx, blkaddr, &e) ? 0 : zf2fs_get(e->nid);
			if (fix_problem(ctx, PR_4_BLOCK_FREE_STRAY, &p))
				return clear_or_restore(w, owner, ofs_in_node, blkaddr);
		}

		/* two witnesses against it: the summary names node N and N's NAT entry points
		 * at this very block, so the block is N's own node block, never a file's data
		 * (taking it first would leave N without its block and drop its inode) */
		if (ssa_entry(ctx, blkaddr, &e) == 0 && zf2fs_get(e->nid) < ctx->nids &&
		    ctx->nat_addr[zf2fs_get(e->nid)] == blkaddr) {
			p.num2 = zf2fs_get(e->nid);
			if (fix_problem(ctx, PR_4_BLOCK_DUP, &p))
				return clear_or_restore(w, owner, ofs_in_node, blkaddr);
			return 0;
		}
		if (ssa_entry(ctx, blkaddr, &e) == 0 &&
		    summary_owner_holds(ctx, blkaddr, (uint32_t)zf2fs_get(e->nid),
					(uint32_t)zf2fs_get(e->ofs_in_node))) {
			p.num2 = zf2fs_get(e->nid);
			if (fix_problem(ctx, PR_4_BLOCK_DUP, &p))
				return clear_or_restore(w, owner, ofs_in_node, blkaddr);
			return 0;
		}
	}
	if (!claim_block(ctx, blkaddr, false)) {
		p.num2 = summary_owner(ctx, blkaddr);
		if (fix_problem(ctx, PR_4_BLOCK_DUP, &p))
			return clear_or_restore(w, owner, ofs_in_node, blkaddr);
		return 0;
	}
	w->counted++;
	w->data_blocks++;
	return check_summary(ctx, blkaddr, owner, ofs_in_node, false);
}

static bool mode_known(uint32_t mode)
{
	return zf2fs_mode_to_ftype(mode) != ZF2FS_FT_UNKNOWN;
}

static bool checksum_applies(const struct fsck_ctx *ctx, const struct zf2fs_inode *in)
{
	return zf2fs_inode_has_checksum(in, ctx->vi->features);
}

/* Returns whether the inode keeps a usable xattr node. */
static bool check_xattr_node(struct fsck_ctx *ctx, struct inode_walk *w,
			     const struct zf2fs_node *inode)
{
	uint32_t xnid = (uint32_t)zf2fs_get(inode->i.i_xattr_nid);
	struct zf2fs_node *x;
	struct problem_ctx p = { .ino = w->ino, .nid = xnid };
	uint32_t addr;
	char why[160] = "";
	int err;

	if (!xnid)
		return false;
	x = malloc(ZF2FS_BLKSIZE_MAX);
	if (!x)
		return false;
	/* Linux refuses the inode for an xattr nid that is its own (sanity_check_inode) */
	if (xnid == w->ino) {
		snprintf(why, sizeof(why), "it is the inode's own nid");
		err = -ZF2FS_EFSCORRUPTED;
	} else {
		err = zf2fs_vol_read_node(ctx->vol, xnid, x, &addr, why, sizeof(why));
	}
	if (!err && zf2fs_get(nfoot(ctx, x)->ino) != w->ino) {
		snprintf(why, sizeof(why), "it belongs to inode %llu",
			 (unsigned long long)zf2fs_get(nfoot(ctx, x)->ino));
		err = -ZF2FS_EFSCORRUPTED;
	}
	if (!err && node_ofs(ctx, x) != XATTR_NODE_OFS) {
		snprintf(why, sizeof(why), "wrong footer offset");
		err = -ZF2FS_EFSCORRUPTED;
	}
	if (!err && (ctx->nid_flags[xnid] & NID_REACHED)) {
		snprintf(why, sizeof(why), "already used by another file");
		err = -ZF2FS_EFSCORRUPTED;
	}
	if (!err && !claim_block(ctx, addr, true)) {
		snprintf(why, sizeof(why), "its block is owned twice");
		err = -ZF2FS_EFSCORRUPTED;
	}
	if (err) {
		p.str = why;
		if (fix_problem(ctx, PR_4_XATTR_NODE_BAD, &p)) {
			struct zf2fs_node *n = repair_node(ctx, w->ino);

			if (n)
				zf2fs_set(n->i.i_xattr_nid, 0);
		}
	} else {
		ctx->nid_flags[xnid] |= NID_REACHED;
		ctx->found_nodes++;
		w->counted++;
		check_summary(ctx, addr, xnid, 0, true);
		free(ctx->xattr_node);
		ctx->xattr_node = x;
		ctx->xattr_nid = xnid;
		return true;
	}
	free(x);
	return false;
}

/*
 * The kernel reads an inode's xattrs as one list: the inline area (a header, then entries)
 * continued by the xattr node when there is one, and refuses the whole list when an entry
 * or the word that ends the list lies past its end (__find_xattr: "corrupted xattr").
 * Without an xattr node (none, or dropped above) the list must end inside the inline
 * area: it is cut before the first entry that does not fit with the end word after it
 * (what followed was in the node, which is gone).  Only a list with the xattr magic is
 * checked: sload.f2fs 1.15 leaves block addresses in the inline xattr area of large files
 * it writes, which the kernel would parse too; repairing those is left for later.
 */
static void check_inline_xattrs(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node,
				const struct zf2fs_inode_geom *g)
{
	struct problem_ctx p = { .ino = ino, .num2 = 4 * g->xattr_words };
	uint32_t start, pos;

	if (zf2fs_inline_xattr_cut2(ctx->g, &node->i, g, &start, &pos) != 1)
		return;
	p.num = pos;
	if (fix_problem(ctx, PR_4_XATTR_LIST_BAD, &p)) {
		struct zf2fs_node *n = repair_node(ctx, ino);

		/* the end word at the cut, and zeros to the area's end: what follows the list
		 * is nothing to the kernel, and f2fs-tools' fsck wants it zero */
		if (n)
			memset((uint8_t *)n->i.i_addr + start + pos, 0, 4 * g->xattr_words - pos);
	}
}

/*
 * What the kernel parses before it opens an encrypted or a verity file, and refuses the
 * file for, key or no key: the encryption context (fscrypt: version 1 is 28 bytes,
 * version 2 is 40; fscrypt_policy_from_context) and the verity descriptor's location
 * (f2fs_get_verity_descriptor: version 1, the descriptor at or past the 64 KiB boundary
 * after i_size, at most 16 KiB).  Neither can be rebuilt without the key or the file's
 * Merkle tree: reported, the file left as it is.
 */
struct past_eof {
	uint64_t from;   /* first file block of the Merkle tree's region */
	bool found;
	uint32_t blkaddr;   /* of block @from, when that is where it stops */
};

static int past_eof_cb(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
		       uint32_t ofs_in_node)
{
	struct past_eof *e = arg;

	(void)owner;
	(void)ofs_in_node;
	if (fofs < e->from)
		return 0;
	e->found = true;
	e->blkaddr = fofs == e->from ? blkaddr : 0;
	return 1;
}

/*
 * The size of a verity file is also in its descriptor (fsverity_descriptor.data_size, 8
 * bytes in), which the verity xattr places at @pos, past the Merkle tree: Linux checks
 * the file against it.  When i_size differs and the descriptor's own size puts the
 * Merkle tree's region where the descriptor's place says, i_size is what is wrong.
 * Returns true when it reported the size.
 */
static bool verity_size(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node,
			uint64_t pos)
{
	const struct zf2fs_walk_ops ops = { .data = past_eof_cb };
	struct past_eof e = { .from = pos / ctx->g->blocksize };
	uint64_t size = zf2fs_get(node->i.i_size), want;
	struct problem_ctx p = { .ino = ino, .num = size };
	struct zf2fs_node *n;
	uint8_t *blk;
	bool r = false;

	if (pos % ctx->g->blocksize || zf2fs_file_walk(ctx->vol, node, &ops, &e) < 0 ||
	    !blk_in_main(ctx, e.blkaddr))
		return false;
	blk = malloc(ZF2FS_BLKSIZE_MAX);
	if (!blk || zf2fs_vol_read_block(ctx->vol, e.blkaddr, blk)) {
		free(blk);
		return false;
	}
	want = zf2fs_get_le64p(blk + 8);
	/* version 1, a known hash (1 SHA-256, 2 SHA-512), 4 KiB Merkle blocks or less */
	if (blk[0] == 1 && (blk[1] == 1 || blk[1] == 2) && blk[2] >= 10 && blk[2] <= 16 &&
	    want != size && ((want + 65535) & ~(uint64_t)65535) <= pos) {
		p.num2 = want;
		if (fix_problem(ctx, PR_4_VERITY_SIZE_BAD, &p) && (n = repair_node(ctx, ino)))
			zf2fs_set(n->i.i_size, want);
		r = true;
	}
	free(blk);
	return r;
}

static void check_enc_verity(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node,
			     const struct dentry_ref *ref)
{
	const struct zf2fs_inode *in = &node->i;
	struct problem_ctx p = { .ino = ino };
	uint8_t v[64];
	char why[96];
	size_t len = 0;
	bool context_ok = false;
	int err = -ENODATA;

	if (ctx->vi->features & ZF2FS_FEAT_ENCRYPT) {
		err = zf2fs_vol_get_xattr(ctx->vol, node, ZF2FS_XATTR_INDEX_ENCRYPTION, "c", v,
					  sizeof(v), &len);
		/* fscrypt_policy_from_context: version 1 is 28 bytes, version 2 is 40 */
		context_ok = !err && ((v[0] == 1 && len == 28) || (v[0] == 2 && len == 40));
	}
	/* only an inode the kernel encrypted has a context: with one, a missing mark is what
	 * was lost (read without it, a directory's ciphertext names would be taken for
	 * plain ones, and those holding '/' or NUL removed) */
	if (!(in->i_advise & ZF2FS_ADVISE_ENCRYPT) && context_ok) {
		struct zf2fs_node *n;

		p.num = v[0];
		if (fix_problem(ctx, PR_4_ENC_MARK_LOST, &p) && (n = repair_node(ctx, ino)))
			n->i.i_advise |= ZF2FS_ADVISE_ENCRYPT;
	}
	if ((in->i_advise & ZF2FS_ADVISE_ENCRYPT) && (ctx->vi->features & ZF2FS_FEAT_ENCRYPT)) {
		why[0] = 0;
		/* no context at all, outside an encrypted directory (the root has none above
		 * it): a stray mark */
		if (err == -ENODATA && ((ref && !ref->dir_encrypted) ||
					(!ref && ino == ZF2FS_ROOT_INO))) {
			struct zf2fs_node *n;

			p.parent = ref ? ref->dir : ino;
			if (fix_problem(ctx, PR_4_ENC_MARK_STRAY, &p) && (n = repair_node(ctx, ino)))
				n->i.i_advise &= (uint8_t)~ZF2FS_ADVISE_ENCRYPT;
		} else if (err == -ENODATA) {
			snprintf(why, sizeof(why), "is missing");
		} else if (err) {
			snprintf(why, sizeof(why), "cannot be read (%s)", strerror(-err));
		} else if (!context_ok) {
			snprintf(why, sizeof(why), "has version %u and %zu bytes", len ? v[0] : 0, len);
		}
		if (why[0]) {
			p.str = why;
			fix_problem(ctx, PR_4_ENC_CONTEXT_BAD, &p);
		}
	}
	if ((in->i_advise & ZF2FS_ADVISE_VERITY) && zf2fs_inode_type(in) == ZF2FS_S_IFREG) {
		uint64_t size = zf2fs_get(in->i_size), min = (size + 65535) & ~(uint64_t)65535;

		err = zf2fs_vol_get_xattr(ctx->vol, node, ZF2FS_XATTR_INDEX_VERITY, "v", v,
					  sizeof(v), &len);
		why[0] = 0;
		if (err == -ENODATA) {
			/* a verity file keeps its Merkle tree past EOF: without one, the mark
			 * is what is wrong */
			const struct zf2fs_walk_ops ops = { .data = past_eof_cb };
			struct past_eof e = { .from = min / ctx->g->blocksize };
			struct zf2fs_node *n;

			if (zf2fs_file_walk(ctx->vol, node, &ops, &e) >= 0 && !e.found) {
				if (fix_problem(ctx, PR_4_VERITY_MARK_STRAY, &p) &&
				    (n = repair_node(ctx, ino)))
					n->i.i_advise &= (uint8_t)~ZF2FS_ADVISE_VERITY;
				return;
			}
		}
		if (err == -ENODATA)
			snprintf(why, sizeof(why), "is missing");
		else if (err)
			snprintf(why, sizeof(why), "cannot be read (%s)", strerror(-err));
		else if (len != 16 || zf2fs_get_le32p(v) != 1)
			snprintf(why, sizeof(why), "has %zu bytes, version %u", len,
				 len >= 4 ? zf2fs_get_le32p(v) : 0);
		else if (verity_size(ctx, ino, node, zf2fs_get_le64p(v + 8)))
			return;
		else if (zf2fs_get_le64p(v + 8) < min || zf2fs_get_le32p(v + 4) > 16384 ||
			 zf2fs_get_le64p(v + 8) + zf2fs_get_le32p(v + 4) < zf2fs_get_le64p(v + 8))
			snprintf(why, sizeof(why), "puts %u bytes at %llu (before %llu, or too many)",
				 zf2fs_get_le32p(v + 4), (unsigned long long)zf2fs_get_le64p(v + 8),
				 (unsigned long long)min);
		if (why[0]) {
			p.str = why;
			fix_problem(ctx, PR_4_VERITY_BAD, &p);
		}
	}
}

static int check_inode_as(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node,
			  const struct dentry_ref *ref);

/* "." or ".." where a directory keeps them: slot 0 or 1 of the area. */
static bool has_dots(const struct zf2fs_dentry_view *v)
{
	return (zf2fs_dentry_slot_used(v, 0) && zf2fs_get(v->dentry[0].name_len) == 1 &&
		v->filename[0][0] == '.') ||
	       (zf2fs_dentry_slot_used(v, 1) && zf2fs_get(v->dentry[1].name_len) == 2 &&
		!memcmp(v->filename[1], "..", 2));
}

/* Do the inode's contents read as a directory: its inline dentry area, or its first data
 * block, holding "." or ".."?  (Every directory the kernel makes starts that way.) */
static bool looks_like_dir(struct fsck_ctx *ctx, const struct zf2fs_node *node)
{
	struct zf2fs_dentry_view v;
	struct zf2fs_inode_geom g;
	uint8_t *blk;
	uint32_t addr;
	bool r;

	if (node->i.i_inline & ZF2FS_INLINE_DENTRY)
		return !dview_inline(ctx, node, &v) && has_dots(&v);
	if ((node->i.i_inline & ZF2FS_INLINE_DATA) ||
	    inode_geom(ctx, &node->i, &g))
		return false;
	addr = zf2fs_get_le32p((const uint8_t *)node + zf2fs_inode_addr_pos(g.extra_words, 0));
	if (!blk_in_main(ctx, addr))
		return false;
	blk = malloc(ZF2FS_BLKSIZE_MAX);
	if (!blk)
		return false;
	r = zf2fs_vol_read_block(ctx->vol, addr, blk) == 0;
	if (r) {
		dview_block(ctx, blk, &v);
		r = has_dots(&v);
	}
	free(blk);
	return r;
}

/*
 * The file type an inode's mode should have, weighing three witnesses: the mode, the type
 * in the directory entry that led here (@hint, ZF2FS_FT_UNKNOWN when none), and what the
 * contents are.  A mode is trusted unless it is no file type at all, or the entry and the
 * contents both contradict it: a "directory" whose data are not dentry blocks and whose
 * name calls it something else is that something else, and turning it into a directory
 * would rewrite its data as dentry blocks.  Returns the mode to keep.
 */
static uint32_t settle_mode(struct fsck_ctx *ctx, const struct zf2fs_node *node, uint8_t hint,
			    uint32_t mode)
{
	uint8_t ft = zf2fs_mode_to_ftype(mode);

	if (ft != ZF2FS_FT_UNKNOWN && (hint == ZF2FS_FT_UNKNOWN || hint == ft))
		return mode;
	if (ft == ZF2FS_FT_UNKNOWN) {
		if (looks_like_dir(ctx, node))
			return zf2fs_ftype_to_mode(ZF2FS_FT_DIR, mode);
		/* no word from a name: a regular file keeps whatever data it has */
		if (hint == ZF2FS_FT_UNKNOWN || hint == ZF2FS_FT_DIR || hint >= ZF2FS_FT_MAX)
			hint = ZF2FS_FT_REG_FILE;
		return zf2fs_ftype_to_mode(hint, mode);
	}
	if (ft == ZF2FS_FT_DIR && hint < ZF2FS_FT_MAX && !looks_like_dir(ctx, node))
		return zf2fs_ftype_to_mode(hint, mode);
	/* any other type named a directory (the root always is one) whose contents hold
	 * the dots */
	if (ft != ZF2FS_FT_DIR && hint == ZF2FS_FT_DIR && looks_like_dir(ctx, node))
		return zf2fs_ftype_to_mode(ZF2FS_FT_DIR, mode);
	return mode;
}

struct evidence {
	struct fsck_ctx *ctx;
	uint32_t ino;
	uint64_t verified;       /* block pointers the summaries confirm */
	uint64_t words;          /* nonzero address words */
};

static int ev_data(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner, uint32_t ofs)
{
	struct evidence *e = arg;

	(void)fofs;
	e->words++;
	if (ssa_names(e->ctx, blkaddr, owner, ofs))
		e->verified++;
	return 0;
}

static int ev_node(void *arg, uint32_t nid, uint32_t blkaddr, const struct zf2fs_node *node,
		   uint32_t ofs, uint32_t parent, uint32_t slot)
{
	struct evidence *e = arg;

	(void)nid; (void)blkaddr; (void)node; (void)ofs; (void)parent; (void)slot;
	e->verified++;   /* a node of this inode, at the offset its place calls for */
	return 0;
}

/* Read @node's i_addr/i_nid as a block map (whatever its inline flags say): how many
 * pointers are there, and how many do the summaries and node footers confirm? */
static void block_map_evidence(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node,
			       struct evidence *e)
{
	const struct zf2fs_walk_ops ops = { .node = ev_node, .data = ev_data };
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);

	*e = (struct evidence){ .ctx = ctx, .ino = ino };
	if (!n)
		return;
	memcpy(n, node, ctx->g->blocksize);
	n->i.i_inline &= (uint8_t)~(ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY);
	zf2fs_file_walk(ctx->vol, n, &ops, e);
	free(n);
}

/*
 * The inline dentry flag of a directory, weighed the same way: its inline area holding
 * "." or ".." with no pointer the summaries confirm (and the reserved first word and
 * i_nid[] empty) is an inline directory whose flag was lost; a directory flagged inline
 * whose inline area holds no dots while its pointers are confirmed keeps its dentry
 * blocks.  Returns the i_inline byte to keep.
 */
static uint8_t settle_inline_dir(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node)
{
	const struct zf2fs_inode *in = &node->i;
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
	struct zf2fs_dentry_view v;
	struct zf2fs_inode_geom g;
	struct evidence e;
	uint8_t keep = in->i_inline;
	bool dots;

	if (!n)
		return keep;
	memcpy(n, node, ctx->g->blocksize);
	n->i.i_inline |= ZF2FS_INLINE_DENTRY;
	n->i.i_inline &= (uint8_t)~ZF2FS_INLINE_DATA;
	dots = !dview_inline(ctx, n, &v) && has_dots(&v) &&
	       !inode_geom(ctx, &n->i, &g);
	free(n);
	if (in->i_inline & ZF2FS_INLINE_DENTRY) {
		if (dots)
			return keep;
		block_map_evidence(ctx, ino, node, &e);
		return e.verified ? keep & (uint8_t)~ZF2FS_INLINE_DENTRY : keep;
	}
	if (!dots || (in->i_inline & ZF2FS_INLINE_DATA) ||
	    zf2fs_get_le32p((const uint8_t *)in->i_addr + 4 * g.extra_words) != 0)
		return keep;
	for (int i = 0; i < ZF2FS_NIDS_PER_INODE; i++)
		if (zf2fs_le32_to_cpu(inode_nids(ctx, in)[i]))
			return keep;
	block_map_evidence(ctx, ino, node, &e);
	return e.verified ? keep : keep | ZF2FS_INLINE_DENTRY;
}

/*
 * The inline data flag, weighed against the block map: a file flagged inline whose size
 * does not fit inline and whose i_addr/i_nid hold pointers its summaries confirm has its
 * data in blocks (trusting the flag would free them all); a regular file or symlink not
 * flagged inline whose size fits, whose reserved first word is zero, and none of whose
 * words is a confirmed pointer holds inline data (read as pointers, its bytes would be
 * cleared one by one).  Returns the i_inline byte to keep.
 */
static uint8_t settle_inline(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node);

/* settle_inline on a copy of @node without the i_inline bits @drop */
static uint8_t settle_inline_without(struct fsck_ctx *ctx, uint32_t ino,
				     const struct zf2fs_node *node, uint8_t drop)
{
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
	uint8_t r;

	if (!n)
		return node->i.i_inline;
	memcpy(n, node, ctx->g->blocksize);
	n->i.i_inline &= (uint8_t)~drop;
	r = settle_inline(ctx, ino, n);
	free(n);
	return r;
}

static uint8_t settle_inline(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node)
{
	const struct zf2fs_inode *in = &node->i;
	uint8_t ft = zf2fs_mode_to_ftype((uint32_t)zf2fs_get(in->i_mode));
	uint64_t size = zf2fs_get(in->i_size);
	struct zf2fs_inode_geom g;
	struct evidence e;

	/* only regular files and symlinks hold inline data, only directories inline
	 * dentries (the kernel refuses any other inode with either flag): without the flag
	 * the kind rules out, the rest is weighed as for that kind */
	if ((in->i_inline & ZF2FS_INLINE_DATA) && ft != ZF2FS_FT_REG_FILE &&
	    ft != ZF2FS_FT_SYMLINK)
		return settle_inline_without(ctx, ino, node, ZF2FS_INLINE_DATA);
	if (ft == ZF2FS_FT_DIR)
		return settle_inline_dir(ctx, ino, node);
	if (in->i_inline & ZF2FS_INLINE_DENTRY)
		return settle_inline_without(ctx, ino, node, ZF2FS_INLINE_DENTRY);
	if ((ft != ZF2FS_FT_REG_FILE && ft != ZF2FS_FT_SYMLINK) ||
	    (in->i_inline & ZF2FS_INLINE_DENTRY) ||
	    inode_geom(ctx, in, &g) || g.compressed)
		return in->i_inline;
	if (in->i_inline & ZF2FS_INLINE_DATA) {
		if (size <= g.inline_bytes)
			return in->i_inline;
		block_map_evidence(ctx, ino, node, &e);
		return e.verified ? in->i_inline & (uint8_t)~(ZF2FS_INLINE_DATA | ZF2FS_DATA_EXIST) :
		       in->i_inline;
	}
	if (size > g.inline_bytes || size == 0 ||
	    zf2fs_get_le32p((const uint8_t *)in->i_addr + 4 * g.extra_words) != 0)
		return in->i_inline;
	for (int i = 0; i < ZF2FS_NIDS_PER_INODE; i++)
		if (zf2fs_le32_to_cpu(inode_nids(ctx, in)[i]))
			return in->i_inline;
	block_map_evidence(ctx, ino, node, &e);
	if (e.verified || !e.words)
		return in->i_inline;
	return in->i_inline | ZF2FS_INLINE_DATA | ZF2FS_DATA_EXIST;
}


/*
 * What roll-forward recovery uses: after a power cut, the kernel re-creates the name of an
 * fsync'd regular file with one link from its inode alone, in directory i_pino under
 * i_name (fs/f2fs/recovery.c, recover_dentry), unless i_advise says they were lost.  It
 * does so only for an inode block with the dentry mark, which fsync sets only on an inode
 * not checkpointed since it was made (f2fs_need_dentry_mark: a NAT entry loaded from a
 * checkpoint is IS_CHECKPOINTED).  Of every other inode the kernel never reads i_name, and
 * i_pino only as a hint it checks: a file made with hard links by a tool that does not set
 * LOST_PINO and later unlinked by the kernel keeps its first name there, harmlessly.  So
 * the check applies to the inodes the pending roll-forward recovers with their name.
 */
static bool name_recovered(const struct fsck_ctx *ctx, uint32_t ino)
{
	for (uint32_t i = 0; i < ctx->rf_ndent; i++)
		if (ctx->rf_dent[i] == ino)
			return true;
	return false;
}

static void check_recovery_name(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node,
				const struct dentry_ref *ref)
{
	const struct zf2fs_inode *in = &node->i;
	struct problem_ctx p = { .ino = ino, .parent = ref->dir };
	uint32_t namelen = (uint32_t)zf2fs_get(in->i_namelen);
	char shown[ZF2FS_NAME_LEN + 1];
	struct zf2fs_node *n;

	if (zf2fs_mode_to_ftype((uint32_t)zf2fs_get(in->i_mode)) != ZF2FS_FT_REG_FILE ||
	    zf2fs_get(in->i_links) != 1 || (in->i_advise & ZF2FS_ADVISE_LOST_PINO) ||
	    ref->len > ZF2FS_NAME_LEN)
		return;
	if (namelen != ref->len || memcmp(in->i_name, ref->name, ref->len)) {
		memcpy(shown, ref->name, ref->len);
		shown[ref->len] = 0;
		p.num = namelen;
		p.str = shown;
		if (fix_problem(ctx, PR_4_INODE_NAME_BAD, &p) && (n = repair_node(ctx, ino))) {
			if (ref->name_hashed && ref->len + 4 > ZF2FS_NAME_LEN) {
				n->i.i_advise |= ZF2FS_ADVISE_LOST_PINO;   /* no room for the hash */
			} else {
				memset(n->i.i_name, 0, sizeof(n->i.i_name));
				memcpy(n->i.i_name, ref->name, ref->len);
				if (ref->name_hashed)
					zf2fs_put_le32p(n->i.i_name + ref->len, ref->hash);
				zf2fs_set(n->i.i_namelen, ref->len);
			}
		}
	}
	if (zf2fs_get(in->i_pino) != ref->dir) {
		p.num = zf2fs_get(in->i_pino);
		if (fix_problem(ctx, PR_4_FILE_PINO_BAD, &p) && (n = repair_node(ctx, ino)))
			zf2fs_set(n->i.i_pino, ref->dir);
	}
}

/* With flexible inline xattrs, an inode flagged as having inline xattrs needs a size the
 * kernel accepts (sanity_check_inode: from a header's 6 words up to 903 words). */
/*
 * Check one inode and its blocks; @hint is the file type its directory entry gives
 * (ZF2FS_FT_UNKNOWN when no entry led here).  Returns 0, or 1 when the inode is unusable
 * and the names pointing at it should go (the caller reports that).
 */
int check_inode(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node,
		const struct dentry_ref *ref, uint8_t hint)
{
	struct zf2fs_node *copy = NULL, *n;
	uint32_t mode = (uint32_t)zf2fs_get(node->i.i_mode), want;
	uint32_t seed = zf2fs_checksum_seed(ctx->sb->uuid);
	/* the checksum check that follows is about the inode as it was read */
	bool csum_ok = checksum_applies(ctx, &node->i) &&
		       inode_csum(ctx, seed, node) == zf2fs_get(node->i.i_inode_checksum);
	uint8_t inl;
	int r;

	want = settle_mode(ctx, node, hint, mode);
	if (want != mode) {
		struct problem_ctx p = { .ino = ino, .num = mode, .num2 = zf2fs_mode_to_ftype(want) };
		uint32_t code = zf2fs_mode_to_ftype(mode) == ZF2FS_FT_UNKNOWN ?
				PR_4_INODE_MODE_BAD : PR_4_INODE_MODE_TYPE;

		if (fix_problem(ctx, code, &p)) {
			n = repair_node(ctx, ino);
			copy = malloc(ZF2FS_BLKSIZE_MAX);
			if (!n || !copy) {
				free(copy);
				return -ENOMEM;
			}
			zf2fs_set(n->i.i_mode, want);
			memcpy(copy, node, ctx->g->blocksize);
			zf2fs_set(copy->i.i_mode, want);
			node = copy;
		}
	}
	r = check_extra_attr_flag(ctx, ino, &node, &copy);
	if (r) {
		free(copy);
		return r;
	}
	inl = settle_inline(ctx, ino, node);
	if (inl != node->i.i_inline) {
		struct problem_ctx p = { .ino = ino, .num = zf2fs_get(node->i.i_size),
			.str = (inl & ZF2FS_INLINE_DATA) ? "its bytes are data, not block pointers" :
			       "its size and its confirmed block pointers say it is not" };
		uint32_t code = (inl & ZF2FS_INLINE_DATA) ? PR_4_INLINE_FLAG_MISSING :
				PR_4_INLINE_FLAG_BOGUS;
		uint8_t ft = zf2fs_mode_to_ftype((uint32_t)zf2fs_get(node->i.i_mode));

		if (code == PR_4_INLINE_FLAG_BOGUS && ft != ZF2FS_FT_REG_FILE &&
		    ft != ZF2FS_FT_SYMLINK)
			p.str = "only regular files and symlinks hold inline data (the kernel refuses "
				"any other inode with the flag)";

		if (((inl ^ node->i.i_inline) & ZF2FS_INLINE_DENTRY) &&
		    zf2fs_mode_to_ftype((uint32_t)zf2fs_get(node->i.i_mode)) != ZF2FS_FT_DIR) {
			code = PR_4_INLINE_DENTRY_NOT_DIR;
			p.str = (inl & ZF2FS_INLINE_DATA) ? "its inline area holds its data" :
				"its i_addr holds block pointers";
		} else if ((inl ^ node->i.i_inline) & ZF2FS_INLINE_DENTRY) {
			code = PR_4_INLINE_DENTRY_FLAG_BAD;
			p.str = (inl & ZF2FS_INLINE_DENTRY) ?
				"not flagged inline, but its inline area holds its dots and the "
				"summaries confirm none of its block pointers" :
				"flagged inline, but its inline area holds no dots and the summaries "
				"confirm its block pointers";
		}

		if (fix_problem(ctx, code, &p)) {
			n = inode_fix_copy(ctx, ino, &node, &copy);
			if (!n) {
				free(copy);
				return -ENOMEM;
			}
			n->i.i_inline = inl;
			copy->i.i_inline = inl;
		}
	}
	r = check_inode_fields(ctx, ino, &node, &copy);
	if (r) {
		free(copy);
		return r;
	}
	if (ref && name_recovered(ctx, ino))
		check_recovery_name(ctx, ino, node, ref);
	/* whatever the name, its length fits i_name: f2fs-tools' fsck takes a longer one for
	 * damage and sets it to what i_name holds, and so do we, so both agree */
	if (zf2fs_get(node->i.i_namelen) > ZF2FS_NAME_LEN) {
		struct problem_ctx p = { .ino = ino, .num = zf2fs_get(node->i.i_namelen),
					 .num2 = strnlen((const char *)node->i.i_name, ZF2FS_NAME_LEN) };

		if (fix_problem(ctx, PR_4_INODE_NAMELEN_BAD, &p)) {
			n = repair_node(ctx, ino);
			if (!n) {
				free(copy);
				return -ENOMEM;
			}
			zf2fs_set(n->i.i_namelen, p.num2);
		}
	}
	/* extra attribute or inline xattr sizes the kernel refuses: the root's extra size
	 * (made by the same tool as the other inodes, and checked first) and, with inline
	 * xattrs, the kernel's default inline xattr size (mount option inline_xattr_size),
	 * rather than losing the inode */
	{
		struct zf2fs_inode_geom g;
		struct problem_ctx p = { .ino = ino, .num = zf2fs_get(node->i.i_extra_isize),
					 .num2 = zf2fs_get(node->i.i_inline_xattr_size) };

		/* before the root is known (the root itself): what the other inodes have, or
		 * its own extra size */
		uint16_t eref = ctx->ref_extra_isize;

		if ((node->i.i_inline & ZF2FS_EXTRA_ATTR) &&
		    (inode_geom(ctx, &node->i, &g) ||
		     !inode_xattr_size_ok(ctx, &node->i))) {
			struct zf2fs_node *t = malloc(ZF2FS_BLKSIZE_MAX);
			bool xattr_only = false;
			char own[80];

			if (!eref)
				eref = peer_extra_isize(ctx);
			if (!eref)
				eref = (uint16_t)zf2fs_get(node->i.i_extra_isize);

			if (!t) {
				free(copy);
				return -ENOMEM;
			}
			/* an extra size the kernel accepts is the inode's own (the kernel gives the
			 * inodes it makes a larger one than mkfs gives the root): then only the
			 * inline xattr size is replaced, and the block pointers stay in place */
			memcpy(t, node, ctx->g->blocksize);
			zf2fs_set(t->i.i_inline_xattr_size, (t->i.i_inline & ZF2FS_INLINE_XATTR) ?
				  ZF2FS_INLINE_XATTR_ADDRS : 0);
			if (!inode_geom(ctx, &t->i, &g) &&
			    inode_xattr_size_ok(ctx, &t->i) &&
			    zf2fs_get(t->i.i_inline_xattr_size) != zf2fs_get(node->i.i_inline_xattr_size)) {
				xattr_only = true;
			} else {
				memcpy(t, node, ctx->g->blocksize);
				zf2fs_set(t->i.i_extra_isize, eref);
				if (inode_geom(ctx, &t->i, &g) ||
				    !inode_xattr_size_ok(ctx, &t->i))
					zf2fs_set(t->i.i_inline_xattr_size,
						  (t->i.i_inline & ZF2FS_INLINE_XATTR) ?
						  ZF2FS_INLINE_XATTR_ADDRS : 0);
			}
			/* its own contents decide first, then the size of the other inodes */
			if (!xattr_only) {
				uint16_t xs = 0, es = own_extra_isize(ctx, ino, node, &xs);

				if (es) {
					zf2fs_set(t->i.i_extra_isize, es);
					zf2fs_set(t->i.i_inline_xattr_size, xs);
					snprintf(own, sizeof(own), "with extra size %u and inline xattr "
						 "size %u", es, xs);
					p.str = own;
				}
			}
			if (!inode_geom(ctx, &t->i, &g) && inode_xattr_size_ok(ctx, &t->i) &&
			    fix_problem(ctx, xattr_only ? PR_4_INODE_XATTR_RESET :
					p.str ? PR_4_EXTRA_OWN :
					ctx->ref_extra_isize ? PR_4_INODE_EXTRA_RESET :
					PR_4_ROOT_EXTRA_RESET, &p) &&
			    (n = repair_node(ctx, ino))) {
				n->i.i_extra_isize = t->i.i_extra_isize;
				n->i.i_inline_xattr_size = t->i.i_inline_xattr_size;
				free(copy);
				copy = t;
				node = copy;
				t = NULL;
			}
			free(t);
		}
	}
	if (copy && csum_ok)
		zf2fs_set(copy->i.i_inode_checksum, inode_csum(ctx, seed, copy));
	r = check_inode_as(ctx, ino, node, ref);
	free(copy);
	return r;
}

/*
 * A file with one name records the directory holding it in i_pino (its name in i_name):
 * roll-forward recovery of a file fsync'd after the last checkpoint puts its name back in
 * i_pino's directory.  Linux keeps that true; where it cannot (a rename or a second name)
 * it sets ZF2FS_ADVISE_LOST_PINO and checkpoints on fsync instead.  Directories are
 * pass 5's, the root has no parent.  Whether this first name is the only one is known
 * after the walk: pass 6 decides (pino_fixes).
 */
static int check_pino(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_inode *in,
		      const struct dentry_ref *ref)
{
	if (!ref || !ref->dir || ino == ZF2FS_ROOT_INO ||
	    zf2fs_mode_type((uint32_t)zf2fs_get(in->i_mode)) == ZF2FS_S_IFDIR ||
	    zf2fs_get(in->i_links) != 1 || (in->i_advise & ZF2FS_ADVISE_LOST_PINO) ||
	    zf2fs_get(in->i_pino) == ref->dir)
		return 0;
	if (ctx->npino_fix == ctx->cap_pino_fix) {
		size_t cap = ctx->cap_pino_fix ? 2 * ctx->cap_pino_fix : 64;
		struct pino_fix *f = realloc(ctx->pino_fix, cap * sizeof(*f));

		if (!f)
			return -ENOMEM;
		ctx->pino_fix = f;
		ctx->cap_pino_fix = cap;
	}
	ctx->pino_fix[ctx->npino_fix++] = (struct pino_fix){ ino, ref->dir,
							     (uint32_t)zf2fs_get(in->i_pino) };
	return 0;
}

/* Check one inode, its type settled. */
static int check_inode_as(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node,
			  const struct dentry_ref *ref)
{
	const struct zf2fs_inode *in = &node->i;
	const struct zf2fs_walk_ops ops = { .node = walk_node, .data = walk_data, .bad = walk_bad,
					    .mend = walk_mend };
	struct inode_walk w = { .ctx = ctx, .ino = ino, .counted = 1, .inode = node };
	struct zf2fs_node *dcopy = NULL, *xcopy = NULL;
	const struct zf2fs_node *xview = node;   /* the inode as its xattrs are read */
	struct zf2fs_inode_geom g;
	struct problem_ctx p = { .ino = ino };
	uint32_t mode = (uint32_t)zf2fs_get(in->i_mode);
	uint64_t size = zf2fs_get(in->i_size);
	int err;

	ctx->nid_flags[ino] |= NID_CHECKED | NID_INODE;
	if (in->i_inline & ZF2FS_EXTRA_ATTR)
		ctx->saw_extra_attr = true;
	if (!mode_known(mode)) {
		/* reported by check_inode, and its repair declined: the names go */
		ctx->nid_flags[ino] |= NID_BAD;
		return 1;
	}
	if (inode_geom(ctx, in, &g)) {
		p.num = zf2fs_get(in->i_extra_isize);
		if (fix_problem(ctx, PR_4_INODE_EXTRA_BAD, &p))
			repair_free_node(ctx, ino);
		ctx->nid_flags[ino] |= NID_BAD;
		return 1;
	}
	if (ino == ZF2FS_ROOT_INO && (in->i_inline & ZF2FS_EXTRA_ATTR)) {
		ctx->ref_extra_isize = (uint16_t)zf2fs_get(in->i_extra_isize);
	}
	ctx->ftypes[ino] = zf2fs_mode_to_ftype(mode);
	if (disk_links_set(ctx, ino, (uint32_t)zf2fs_get(in->i_links)))
		return -ENOMEM;
	if (zf2fs_mode_type(mode) == ZF2FS_S_IFDIR) {
		ctx->nid_flags[ino] |= NID_DIR;
		ctx->dirs++;   /* its depth and hash levels are pass 5's */
	} else {
		ctx->files++;
	}
	ctx->found_inodes++;
	ctx->found_nodes++;
	if (check_pino(ctx, ino, in, ref))
		return -ENOMEM;

	if (checksum_applies(ctx, in)) {
		uint32_t seed = zf2fs_checksum_seed(ctx->sb->uuid);

		if (inode_csum(ctx, seed, node) != zf2fs_get(in->i_inode_checksum) &&
		    fix_problem(ctx, PR_4_INODE_CHECKSUM_BAD, &p))
			repair_node(ctx, ino);   /* every rewritten inode gets a fresh checksum */
	}
	if ((in->i_inline & ZF2FS_INLINE_DATA) && size > g.inline_bytes) {
		p.num = size;
		p.num2 = g.inline_bytes;
		if (fix_problem(ctx, PR_4_INODE_INLINE_SIZE_BAD, &p)) {
			struct zf2fs_node *n = repair_node(ctx, ino);

			if (n)
				zf2fs_set(n->i.i_size, g.inline_bytes);
		}
	}
	if (in->i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY)) {
		/* the word before inline data or dentries is where block 0's address goes once
		 * the kernel converts the file: left nonzero, the kernel takes it for a block
		 * the file owns and writes over whoever really owns it */
		uint32_t word = zf2fs_get_le32p((const uint8_t *)in->i_addr + 4 * g.extra_words);

		p.num = word;
		if (word && fix_problem(ctx, PR_4_INLINE_RESERVED_BAD, &p)) {
			struct zf2fs_node *n = repair_node(ctx, ino);

			if (n)
				zf2fs_put_le32p((uint8_t *)n->i.i_addr + 4 * g.extra_words, 0);
		}
	}
	if (!check_xattr_node(ctx, &w, node)) {
		check_inline_xattrs(ctx, ino, node, &g);
		/* an xattr node found unusable (and dropped) is not read for what follows */
		if (zf2fs_get(in->i_xattr_nid)) {
			xcopy = malloc(ZF2FS_BLKSIZE_MAX);
			if (xcopy) {
				memcpy(xcopy, node, ctx->g->blocksize);
				zf2fs_set(xcopy->i.i_xattr_nid, 0);
			}
			xview = xcopy;
		}
	}
	if (xview)
		check_enc_verity(ctx, ino, xview, ref);
	err = xview ? check_acls(ctx, ino, xview) : 0;
	free(ctx->xattr_node);
	ctx->xattr_node = NULL;
	free(xcopy);
	if (err < 0)
		return err;
	w.ext_fofs = (uint32_t)zf2fs_get(in->i_ext.fofs);
	w.ext_blk = (uint32_t)zf2fs_get(in->i_ext.blk);
	w.ext_len = (uint32_t)zf2fs_get(in->i_ext.len);
	w.released = in->i_inline & ZF2FS_COMPRESS_RELEASED;
	if (g.compressed)
		w.cluster = g.cluster_blocks;
	if (zf2fs_mode_type(mode) == ZF2FS_S_IFDIR && !(in->i_inline & ZF2FS_INLINE_DENTRY)) {
		/* the walk reads the inode with its restored dentry block slots */
		dcopy = malloc(ZF2FS_BLKSIZE_MAX);
		if (!dcopy)
			return -ENOMEM;
		memcpy(dcopy, node, ctx->g->blocksize);
		err = restore_dir_slots(ctx, ino, dcopy, &g);
		if (err) {
			free(dcopy);
			return err;
		}
		w.inode = dcopy;
	}
	err = zf2fs_file_walk(ctx->vol, w.inode, &ops, &w);
	if (err >= 0)
		err = restore_top_nodes(&w, &ops);
	w.inode = node;
	free(dcopy);
	if (err < 0)
		return err;
	claim_alias_extent(&w, in);
	/* the kernel refuses an inode whose extent leaves the main area, and reads a
	 * regular file's blocks inside the extent from it, not from the block map: every
	 * block of it must be the block map's (a dropped extent is rebuilt by reads) */
	if (w.ext_len && w.ext_hits != w.ext_len) {
		p.num = w.ext_fofs;
		p.num2 = w.ext_len;
		p.blkaddr = w.ext_blk;
		if (fix_problem(ctx, PR_4_EXTENT_BAD, &p))
			repair_drop_extent(ctx, ino);
		p.blkaddr = 0;
	}
	/* a compressed file's markers count as blocks until they are released */
	if (g.compressed)
		cluster_done(&w);
	/* released clusters keep no reserved slots (the kernel's release makes them holes)
	 * and the release sets i_compr_blocks to 0: with both, the released bit is what was
	 * lost, and the markers do not count */
	if (g.compressed && !w.released && w.cl_bare && !w.cl_reserved &&
	    !zf2fs_get(in->i_compr_blocks)) {
		p.num = w.cl_bare;
		if (fix_problem(ctx, PR_4_COMPR_RELEASED_LOST, &p)) {
			struct zf2fs_node *n = repair_node(ctx, ino);

			if (n)
				n->i.i_inline |= ZF2FS_COMPRESS_RELEASED;
			ctx->found_reserved -= w.markers;
			w.markers = 0;
			w.saved = 0;
		}
	}
	if (g.compressed)
		w.counted += w.markers;
	if (zf2fs_get(in->i_blocks) != w.counted) {
		p.num = zf2fs_get(in->i_blocks);
		p.num2 = w.counted;
		if (fix_problem(ctx, PR_4_INODE_BLOCKS_BAD, &p)) {
			struct zf2fs_node *n = repair_node(ctx, ino);

			if (n)
				zf2fs_set(n->i.i_blocks, w.counted);
		}
	}
	if (g.compressed && zf2fs_get(in->i_compr_blocks) != w.saved) {
		p.num = zf2fs_get(in->i_compr_blocks);
		p.num2 = w.saved;
		if (fix_problem(ctx, PR_4_COMPR_BLOCKS_BAD, &p)) {
			struct zf2fs_node *n = repair_node(ctx, ino);

			if (n)
				zf2fs_set(n->i.i_compr_blocks, w.saved);
		}
	}
	/* charged as the kernel will see it: with i_blocks corrected when it is */
	return quota_charge(ctx, ino, in, w.counted);
}

/* ---- traversal ------------------------------------------------------------------------- */
/* Inode blocks of queued directories kept for pass 5, so that it need not read them
 * again; beyond this many bytes, pass 5 reads them (a wide tree: memory stays bounded). */
#define DIRQ_HELD_MAX (2u << 20)

static int push(struct fsck_ctx *ctx, uint32_t v)
{
	struct dir_queue *q = &ctx->dirq;
	void *node = NULL;

	if (q->tail == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 1024;
		uint32_t *n = realloc(q->items, cap * sizeof(*n));
		void **b;

		if (!n)
			return -ENOMEM;
		q->items = n;
		b = realloc(q->node, cap * sizeof(*b));
		if (!b)
			return -ENOMEM;
		q->node = b;
		q->cap = cap;
	}
	if (q->last && q->last_ino == v && q->held + ctx->g->blocksize <= DIRQ_HELD_MAX) {
		node = q->last;
		q->held += ctx->g->blocksize;
		q->last = NULL;
	}
	q->node[q->tail] = node;
	q->items[q->tail++] = v;
	return 0;
}

/* Is @nid an inode the NAT knows? */
static bool is_inode_nid(const struct fsck_ctx *ctx, uint32_t nid)
{
	return nid >= ZF2FS_RESERVED_NIDS && nid < ctx->nids &&
	       nat_ino(ctx, nid) == nid && ctx->nat_addr[nid] != ZF2FS_NULL_ADDR &&
	       !(ctx->nid_flags[nid] & NID_BAD);
}

/*
 * An inode whose block the NAT points to and whose summary names it, but whose footer
 * says otherwise (nid, inode or offset), has two witnesses against one: mend the footer
 * rather than lose the file.  Fills @n and returns true when it was mended.
 */
static bool mend_inode_footer(struct fsck_ctx *ctx, uint32_t ino, struct zf2fs_node *n)
{
	uint32_t addr = ctx->nat_addr[ino];
	const struct zf2fs_summary *e;
	struct problem_ctx p = { .ino = ino };
	char ofs[16];
	struct zf2fs_node *fix;

	if (!blk_in_main(ctx, addr) || zf2fs_vol_read_block(ctx->vol, addr, n) ||
	    ssa_entry(ctx, addr, &e) || zf2fs_get(e->nid) != ino ||
	    !zf2fs_mode_to_ftype((uint32_t)zf2fs_get(n->i.i_mode)))
		return false;
	if (zf2fs_get(nfoot(ctx, n)->nid) == ino && zf2fs_get(nfoot(ctx, n)->ino) == ino &&
	    !node_ofs(ctx, n))
		return false;
	p.num = zf2fs_get(nfoot(ctx, n)->nid);
	p.num2 = zf2fs_get(nfoot(ctx, n)->ino);
	snprintf(ofs, sizeof(ofs), "%u", node_ofs(ctx, n));
	p.str = ofs;
	if (!fix_problem(ctx, PR_4_INODE_FOOTER_BAD, &p))
		return false;
	zf2fs_set(nfoot(ctx, n)->nid, ino);
	zf2fs_set(nfoot(ctx, n)->ino, ino);
	node_set_ofs(ctx, n, 0);
	fix = repair_node_from(ctx, ino, n);
	if (fix)
		memcpy(fix, n, ctx->g->blocksize);
	return fix != NULL;
}

/* find_inode_block (fsck.h).  Out-of-place updates leave older copies, but only the
 * current one is valid in the SIT; should several be, the newest checkpoint version in the
 * footers wins.  Reads the summary of every segment in use: at most FIND_INODE_SCANS
 * times a run. */
#define FIND_INODE_SCANS 16
uint64_t find_inode_block(struct fsck_ctx *ctx, uint32_t root, bool dir)
{
	struct zf2fs_summary_block *sum = malloc(ZF2FS_BLKSIZE_MAX);
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
	uint64_t best = 0, best_ver = 0;

	if (ctx->inode_scans >= FIND_INODE_SCANS) {
		free(sum);
		free(n);
		return 0;
	}
	ctx->inode_scans++;
	for (uint32_t s = 0; sum && n && s < ctx->vi->main_segs; s++) {
		const struct zf2fs_sit_entry *se = sit_get(ctx, s);

		if (!zf2fs_sit_valid_blocks(se) ||
		    zf2fs_vol_segment_summary(ctx->vol, s, sum) ||
		    sum_footer(ctx, sum)->entry_type != ZF2FS_SUM_TYPE_NODE)
			continue;
		for (uint32_t off = 0; off < ZF2FS_BLOCKS_PER_SEG; off++) {
			uint64_t blk = zf2fs_main_blk(ctx->vi->main_blkaddr, s, off);

			if (!sit_bit(se, off) || zf2fs_get(sum->entries[off].nid) != root ||
			    zf2fs_vol_read_block(ctx->vol, blk, n))
				continue;
			if (zf2fs_get(nfoot(ctx, n)->nid) != root || zf2fs_get(nfoot(ctx, n)->ino) != root ||
			    node_ofs(ctx, n) || found_test(ctx, blk - ctx->vi->main_blkaddr) ||
			    (dir ? zf2fs_inode_type(&n->i) != ZF2FS_S_IFDIR :
			     !mode_known((uint32_t)zf2fs_get(n->i.i_mode))))
				continue;
			if (!best || zf2fs_get(nfoot(ctx, n)->cp_ver) > best_ver) {
				best = blk;
				best_ver = zf2fs_get(nfoot(ctx, n)->cp_ver);
			}
		}
	}
	free(sum);
	free(n);
	return best;
}

/*
 * An inode whose NAT entry points at a block that is not its own (another node's, or one
 * past its end) often still has its own block, valid in the SIT, whose summary and footer
 * name it: point the NAT entry back at it rather than lose the file.  Fills @n.
 */
static bool restore_inode_nat(struct fsck_ctx *ctx, uint32_t ino, struct zf2fs_node *n)
{
	struct problem_ctx p = { .ino = ino, .nid = ino, .num = ctx->nat_addr[ino] };

	if (!(p.blkaddr = find_inode_block(ctx, ino, ino == ZF2FS_ROOT_INO)) ||
	    p.blkaddr == ctx->nat_addr[ino] || !fix_problem(ctx, PR_4_NAT_ADDR_WRONG, &p))
		return false;
	if (repair_set_nat(ctx, ino, ino, (uint32_t)p.blkaddr) ||
	    zf2fs_vol_nat_override(ctx->vol, ino, ino, (uint32_t)p.blkaddr) ||
	    zf2fs_vol_read_block(ctx->vol, p.blkaddr, n))
		return false;
	return true;
}

/* Read and check an inode reached for the first time; -1 if unusable. */
static int reach_inode(struct fsck_ctx *ctx, uint32_t ino, const struct dentry_ref *ref,
		       uint8_t hint)
{
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
	char why[160];
	uint32_t addr;
	int r;

	if (!n)
		return -ENOMEM;
	prefetch_note_inode(ctx);
	r = zf2fs_vol_read_node(ctx->vol, ino, n, &addr, why, sizeof(why));
	/* an inode's footer offset is 0: the kernel tells inodes from other nodes by it */
	if (!r && node_ofs(ctx, n))
		r = -ZF2FS_EFSCORRUPTED;
	if (r == -ZF2FS_EFSCORRUPTED && mend_inode_footer(ctx, ino, n)) {
		r = 0;
		addr = ctx->nat_addr[ino];
	} else if (r && restore_inode_nat(ctx, ino, n)) {
		r = 0;
		addr = ctx->nat_addr[ino];
	}
	if (r || !claim_block(ctx, addr, true)) {
		ctx->nid_flags[ino] |= NID_BAD | NID_CHECKED;
		free(n);
		return 1;
	}
	ctx->nid_flags[ino] |= NID_REACHED;
	zs_progress_set(&ctx->prog, ctx->found_inodes);
	r = check_summary(ctx, addr, ino, 0, true);
	if (!r)
		r = check_inode(ctx, ino, n, ref, hint);
	if (!r && ((ctx->nid_flags[ino] & NID_DIR) || ino == ctx->keep_ino)) {
		/* the block as read (check_inode changes only repair copies), for pass 5 or
		 * 9: a copy of the block's size (n has room for any block size) */
		free(ctx->dirq.last);
		ctx->dirq.last = malloc(ctx->g->blocksize);
		ctx->dirq.last_ino = ino;
		if (ctx->dirq.last)
			memcpy(ctx->dirq.last, n, ctx->g->blocksize);
	}
	free(n);
	return r;
}

/*
 * A name (or the superblock, for the root) leads to a nid whose NAT entry names another
 * inode, while the block it points to is this inode by its footer and its summary entry:
 * the entry's inode number is what was damaged.
 */
static void restore_nat_ino(struct fsck_ctx *ctx, uint32_t child)
{
	struct zf2fs_node *n;
	const struct zf2fs_summary *e;
	struct problem_ctx p = { .ino = child };

	if (child < ZF2FS_RESERVED_NIDS || child >= ctx->nids || nat_ino(ctx, child) == child ||
	    !blk_in_main(ctx, ctx->nat_addr[child]) || (ctx->nid_flags[child] & NID_CHECKED))
		return;
	p.num = nat_ino(ctx, child);
	p.blkaddr = ctx->nat_addr[child];
	n = malloc(ZF2FS_BLKSIZE_MAX);
	if (n && !zf2fs_vol_read_block(ctx->vol, p.blkaddr, n) &&
	    zf2fs_get(nfoot(ctx, n)->nid) == child && zf2fs_get(nfoot(ctx, n)->ino) == child &&
	    !node_ofs(ctx, n) && mode_known((uint32_t)zf2fs_get(n->i.i_mode)) &&
	    !ssa_entry(ctx, p.blkaddr, &e) && zf2fs_get(e->nid) == child &&
	    fix_problem(ctx, PR_4_NAT_INO_WRONG, &p) &&
	    !repair_set_nat(ctx, child, child, (uint32_t)p.blkaddr) &&
	    !zf2fs_vol_nat_override(ctx->vol, child, child, (uint32_t)p.blkaddr))
		ctx->nid_flags[child] &= (uint8_t)~(NID_BAD | NID_CLEAR);
	free(n);
}

/* A name in directory @dir points at @child: verdict for pass 5. */
uint32_t visit_child(struct fsck_ctx *ctx, uint32_t child, const struct dentry_ref *ref)
{
	uint32_t dir = ref->dir;

	restore_nat_ino(ctx, child);
	/* a name leads to an inode whose NAT address pass 3 found outside the main area, or
	 * null: its block may still be there */
	if (child >= ZF2FS_RESERVED_NIDS && child < ctx->nids && nat_ino(ctx, child) == child &&
	    ((ctx->nid_flags[child] & (NID_BAD | NID_CHECKED)) == NID_BAD ||
	     (ctx->nat_addr[child] == ZF2FS_NULL_ADDR && !ctx->nid_flags[child]))) {
		struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);

		if (n && restore_inode_nat(ctx, child, n))
			ctx->nid_flags[child] &= (uint8_t)~(NID_BAD | NID_CLEAR);
		free(n);
	}
	if (!is_inode_nid(ctx, child))
		return 1;
	if (!(ctx->nid_flags[child] & NID_CHECKED)) {
		int r = reach_inode(ctx, child, ref, ref->type);

		if (r)
			return 1;
		if (ctx->nid_flags[child] & NID_DIR) {
			struct dir_info *di = dir_info(ctx, child);

			/* one lookup at a time: a lookup may grow (move) the table */
			if (!di)
				return 1;
			di->parent = dir;
			di = dir_info(ctx, dir);
			if (!di)
				return 1;
			di->subdirs++;
			if (push(ctx, child))
				return 1;
		}
	} else if (ctx->nid_flags[child] & NID_BAD) {
		return 1;
	} else if (ctx->nid_flags[child] & NID_DIR) {
		return 2;   /* a directory may have one name only */
	} else if (!(ctx->nid_flags[child] & NID_REACHED)) {
		ctx->nid_flags[child] |= NID_REACHED;
	}
	if (links_inc(ctx, child))
		return 1;
	return (uint32_t)ctx->ftypes[child] << 8;
}

static int scan_queue(struct fsck_ctx *ctx)
{
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
	char why[160];
	int err = 0;

	if (!n)
		return -ENOMEM;
	while (ctx->dirq.head < ctx->dirq.tail && !ctx->abort && !err) {
		uint32_t ino = ctx->dirq.items[ctx->dirq.head];
		void *held = ctx->dirq.node[ctx->dirq.head++];
		const struct zf2fs_node *fixed = repair_node_pending(ctx, ino);

		if (held)
			ctx->dirq.held -= ctx->g->blocksize;
		/* the inode as pass 4 settled it (its flags may have been repaired) */
		if (fixed)
			memcpy(n, fixed, ctx->g->blocksize);
		else if (held)
			memcpy(n, held, ctx->g->blocksize);
		else if (zf2fs_vol_read_node(ctx->vol, ino, n, NULL, why, sizeof(why)))
			continue;
		free(held);
		err = pass5_check_dir(ctx, ino, n, visit_child);
	}
	free(n);
	return err;
}

/*
 * Slots whose pointer was cleared (owned twice, outside the main area) often had a block
 * of their own before the damage: one the SIT still counts, that no file owns now, and
 * whose summary names that very slot.  Point the slot at it again, so the file loses
 * nothing.  Only segments holding such unowned blocks have their summaries read.
 */
static int restore_slots(struct fsck_ctx *ctx)
{
	uint64_t main0 = ctx->vi->main_blkaddr;

	for (uint32_t s = 0; s < ctx->vi->main_segs && ctx->nlost; s++) {
		const struct zf2fs_sit_entry *se = sit_get(ctx, s);

		if (!zf2fs_sit_valid_blocks(se))
			continue;
		for (uint32_t off = 0; off < ZF2FS_BLOCKS_PER_SEG; off++) {
			uint64_t blk = zf2fs_main_blk(main0, s, off);
			uint64_t bit = blk - main0;
			const struct zf2fs_summary *e;

			if (!sit_bit(se, off) || found_test(ctx, bit) ||
			    ssa_entry(ctx, blk, &e))
				continue;
			for (size_t i = 0; i < ctx->nlost; i++) {
				struct lost_slot *l = &ctx->lost[i];
				struct problem_ctx p = { .ino = l->ino, .nid = l->owner, .num = l->ofs,
							 .blkaddr = blk };
				struct zf2fs_node *n;

				if (zf2fs_get(e->nid) != l->owner || zf2fs_get(e->ofs_in_node) != l->ofs)
					continue;
				if (fix_problem(ctx, PR_4_BLOCK_RESTORED, &p)) {
					int err = set_data_slot(ctx, l->ino, l->owner, l->ofs,
								(uint32_t)blk);

					n = repair_node(ctx, l->ino);
					if (err || !n)
						return -ENOMEM;
					claim_block(ctx, blk, false);
					zf2fs_set(n->i.i_blocks, zf2fs_get(n->i.i_blocks) + 1);
					if (quota_charge_more(ctx, l->ino, &n->i, 0, ctx->g->blocksize))
						return -ENOMEM;
				}
				*l = ctx->lost[--ctx->nlost];
				break;
			}
		}
	}
	return 0;
}

int pass4_tree(struct fsck_ctx *ctx)
{
	uint32_t root = ZF2FS_ROOT_INO;
	struct problem_ctx p = { .ino = root };
	uint64_t witness;
	int err;

	if (root < ctx->nids && ctx->nat_addr[root] == ZF2FS_NULL_ADDR &&
	    !(ctx->nid_flags[root] & NID_BAD) && (p.blkaddr = find_inode_block(ctx, root, true)) &&
	    fix_problem(ctx, PR_4_ROOT_NAT_LOST, &p)) {
		err = repair_set_nat(ctx, root, root, (uint32_t)p.blkaddr);
		if (!err)
			err = zf2fs_vol_nat_override(ctx->vol, root, root, (uint32_t)p.blkaddr);
		if (err)
			return err;
	}
	witness = p.blkaddr;
	restore_nat_ino(ctx, root);
	if (root < ctx->nids && nat_ino(ctx, root) == root &&
	    (ctx->nid_flags[root] & (NID_BAD | NID_CHECKED)) == NID_BAD) {
		struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);

		if (n && restore_inode_nat(ctx, root, n))
			ctx->nid_flags[root] &= (uint8_t)~(NID_BAD | NID_CLEAR);
		free(n);
	}
	if (!is_inode_nid(ctx, root) && !witness && root < ctx->nids && !ctx->nat_addr[root] &&
	    !(ctx->nid_flags[root] & NID_BAD)) {
		/* gone for good (no block names it: see above): a new, empty root */
		err = fsck_create_root(ctx);
		if (err < 0)
			return err;
	}
	if (!is_inode_nid(ctx, root) && !(ctx->nid_flags[root] & NID_CHECKED)) {
		p.str = "no NAT entry";
		fix_problem(ctx, PR_4_ROOT_BAD, &p);
		return 0;
	}
	if (ctx->nid_flags[root] & NID_CHECKED)   /* made anew, empty */
		goto tree_done;
	err = alias_prescan(ctx);
	if (err)
		return err;
	err = reach_inode(ctx, root, NULL, ZF2FS_FT_DIR);
	if (err < 0)
		return err;
	if (err || !(ctx->nid_flags[root] & NID_DIR)) {
		p.str = err ? "unreadable" : "not a directory";
		fix_problem(ctx, PR_4_ROOT_BAD, &p);
		return 0;
	}
	if (!dir_info(ctx, root))
		return -ENOMEM;
	dir_info(ctx, root)->parent = root;
	err = push(ctx, root);
	if (!err) {
		prefetch_start(ctx, root);
		err = scan_queue(ctx);
		prefetch_stop(ctx);
		zf2fs_vol_preload(ctx->vol, NULL, 0);   /* the last window's memory */
	}
tree_done:
	/* Quota files hang from the superblock, not from a directory (with the quota_ino
	 * feature; without it the kernel never reads the superblock's inode numbers). */
	for (int q = 0; !err && ctx->quota_on && q < ZF2FS_MAX_QUOTAS; q++) {
		uint32_t qino = (uint32_t)zf2fs_get(ctx->sb->qf_ino[q]);

		if (!qino || !is_inode_nid(ctx, qino) || (ctx->nid_flags[qino] & NID_CHECKED))
			continue;
		ctx->keep_ino = qino;
		if (reach_inode(ctx, qino, NULL, ZF2FS_FT_REG_FILE) < 0)
			err = -EIO;
		else
			err = links_inc(ctx, qino);   /* the superblock's reference: its name */
		ctx->keep_ino = 0;
		if (ctx->dirq.last && ctx->dirq.last_ino == qino) {
			free(ctx->quota_node[q]);
			ctx->quota_node[q] = ctx->dirq.last;
			ctx->dirq.last = NULL;
		}
	}
	/* Orphans: unlinked inodes still open when the volume was last used.  One that a
	 * name (or the superblock) reached is no orphan: the kernel would free it at mount
	 * under the names; it leaves the list and keeps its names (pass 6 counts them). */
	for (uint32_t i = 0, k = 0; !err && i < ctx->norphans; i++) {
		uint32_t ino = ctx->orphans[i];

		if (ino < ctx->nids && (ctx->nid_flags[ino] & (NID_CHECKED | NID_REACHED)) ==
				       (NID_CHECKED | NID_REACHED)) {
			if (fix_problem(ctx, PR_2_CP_ORPHAN_LINKED, &(struct problem_ctx){
					.ino = ino })) {
				ctx->orphans_rewrite = true;
				repair_mark_checkpoint(ctx);
			} else {
				ctx->orphans_keep = true;
				ctx->orphans[k++] = ino;
			}
		} else {
			ctx->orphans[k++] = ino;
		}
		if (i + 1 == ctx->norphans) {
			ctx->norphans = k;
			break;
		}
	}
	for (uint32_t i = 0; !err && i < ctx->norphans; i++) {
		uint32_t ino = ctx->orphans[i];

		if (ino >= ctx->nids)
			continue;
		ctx->nid_flags[ino] |= NID_ORPHAN;
		if (is_inode_nid(ctx, ino) && !(ctx->nid_flags[ino] & NID_CHECKED))
			err = reach_inode(ctx, ino, NULL, ZF2FS_FT_UNKNOWN) < 0 ? -EIO : 0;
	}
	/* Inodes no name reaches are still checked, so their blocks are accounted for;
	 * pass 6 decides what to do with them. */
	for (uint32_t nid = ZF2FS_RESERVED_NIDS; !err && nid < ctx->nids; nid++) {
		if (!is_inode_nid(ctx, nid) || (ctx->nid_flags[nid] & NID_CHECKED))
			continue;
		if (reach_inode(ctx, nid, NULL, ZF2FS_FT_UNKNOWN) < 0)
			err = -EIO;
		else
			ctx->nid_flags[nid] &= (uint8_t)~NID_REACHED;
		/* directories among them get their contents checked too */
		if (!err && (ctx->nid_flags[nid] & NID_DIR) && !(ctx->nid_flags[nid] & NID_BAD)) {
			err = push(ctx, nid);
			if (!err)
				err = scan_queue(ctx);
		}
	}
	if (!err && ctx->nlost)
		err = restore_slots(ctx);
	/* the kernel refuses every inode with extra attributes on a volume without the
	 * feature (sanity_check_inode): the feature bit is what was lost, not the inodes */
	if (!err && ctx->saw_extra_attr && !(ctx->vi->features & ZF2FS_FEAT_EXTRA_ATTR) &&
	    fix_problem(ctx, PR_4_SB_FEATURE_MISSING, &(struct problem_ctx){ .str = "extra_attr" })) {
		ctx->sb_add_features |= ZF2FS_FEAT_EXTRA_ATTR;
		repair_mark_checkpoint(ctx);   /* a commit, after which the superblocks change */
	}
	free(ctx->lost);
	ctx->lost = NULL;
	ctx->nlost = ctx->cap_lost = 0;
	dir_queue_free(&ctx->dirq);
	zs_progress_set(&ctx->prog, ctx->found_inodes);
	return err;
}
