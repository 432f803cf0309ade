// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * txn_file.c - inodes of every type, owners, modes and times, inline data and data block
 * by block for the transaction (include/zf2fs/txn_file.h), on top of the queue of
 * lib/write/txn.c.
 *
 * A file's blocks are addressed as the kernel addresses them (fs/f2fs/node.c,
 * get_node_path): the inode's own slots, two direct nodes, two indirect nodes of direct
 * nodes, one double indirect node; each node's footer carries its offset in that tree.
 * A queued block's slot holds NEW_ADDR until the commit writes the block and puts its
 * address there, so a second write to the same block is seen.
 */
#include "config.h"
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/txn_file.h"
#include "zf2fs-internal/volume.h"
#include "write/txn_p.h"


/* Whether this transaction created inode @ino.  Through the index: a load's queue
 * holds every node of the tree (zf2fs_txn_flush keeps the entries), a scan per call
 * made it quadratic. */
static bool created_here(struct zf2fs_txn *t, uint32_t ino)
{
	const struct tnode *n = find_node(t, ino);

	return n && n->is_new_inode;
}

static bool has_data(uint32_t mode)
{
	return zf2fs_mode_type(mode) == ZF2FS_S_IFREG || zf2fs_mode_type(mode) == ZF2FS_S_IFLNK;
}

static void put_attr(const struct zf2fs_txn *t, struct zf2fs_node *n,
		     const struct zf2fs_txn_attr *a)
{
	uint32_t mode = (uint32_t)zf2fs_get(n->i.i_mode);
	const size_t prj_end = offsetof(struct zf2fs_inode, i_projid) + 4 -
			       offsetof(struct zf2fs_inode, i_extra_isize);

	zf2fs_set(n->i.i_mode, zf2fs_mode_type(mode) | (a->mode & 07777u));
	zf2fs_set(n->i.i_uid, a->uid);
	zf2fs_set(n->i.i_gid, a->gid);
	zf2fs_set(n->i.i_atime, a->atime);
	zf2fs_set(n->i.i_mtime, a->mtime);
	zf2fs_set(n->i.i_ctime, a->ctime);
	zf2fs_set(n->i.i_atime_nsec, a->atime_nsec);
	zf2fs_set(n->i.i_mtime_nsec, a->mtime_nsec);
	zf2fs_set(n->i.i_ctime_nsec, a->ctime_nsec);
	/* where the kernel reads a project id (f2fs_iget: project_quota and room for it) */
	if ((t->vi->features & ZF2FS_FEAT_PRJQUOTA) && (n->i.i_inline & ZF2FS_EXTRA_ATTR) &&
	    zf2fs_get(n->i.i_extra_isize) >= prj_end)
		zf2fs_set(n->i.i_projid, a->projid);
}

/* Device numbers where the kernel keeps them: the first data slots, in the old 16-bit
 * encoding when both numbers fit in a byte, else in the new one in the second slot. */
static void put_rdev(const struct zf2fs_txn *t, struct zf2fs_node *n, uint32_t major,
		     uint32_t minor)
{
	struct zf2fs_inode_geom g;
	zf2fs_le32 *a;

	if (zf2fs_inode_geometry2(t->g, &n->i, t->vi->features, &g))
		return;
	a = zf2fs_inode_addrs(n) + g.extra_words;
	if (major < 256 && minor < 256) {
		zf2fs_put_le32p(a, (major << 8) | minor);
	} else {
		zf2fs_put_le32p(a, 0);
		zf2fs_put_le32p(a + 1, (minor & 0xffu) | (major << 8) | ((minor & ~0xffu) << 12));
	}
}

ZF2FS_EXPORT int zf2fs_txn_mknod(struct zf2fs_txn *t, uint32_t dir, const char *name,
				 const struct zf2fs_txn_attr *a, uint32_t *ret_ino)
{
	uint32_t type = zf2fs_mode_type(a->mode), ino;
	size_t nlen = strlen(name);
	struct zf2fs_node *dn, *n;
	int err;

	if (type == ZF2FS_S_IFDIR || type == ZF2FS_S_IFREG) {
		err = zf2fs_txn_create(t, dir, name, a->mode, NULL, 0, &ino);
	} else {
		if (type != ZF2FS_S_IFLNK && type != ZF2FS_S_IFIFO && type != ZF2FS_S_IFSOCK &&
		    type != ZF2FS_S_IFCHR && type != ZF2FS_S_IFBLK)
			return -EINVAL;
		if (!nlen || nlen > ZF2FS_NAME_LEN)
			return nlen ? -ENAMETOOLONG : -EINVAL;
		if (memchr(name, '/', nlen) || !strcmp(name, ".") || !strcmp(name, ".."))
			return -EINVAL;
		err = dir_for_change(t, dir, &dn);
		if (!err)
			err = alloc_nid(t, &ino);
		if (!err)
			err = new_node(t, ino, &n);
		if (err)
			return err;
		(void)zf2fs_inode_init2(t->g, n, t->vi->features, ino, dir, name, nlen, a->mode,
					t->now);
		err = enter_new_inode(t, dir, dn, name, nlen, ino, zf2fs_mode_to_ftype(a->mode));
		if (err)
			return err;
	}
	if (err)
		return err;
	err = get_node(t, ino, &n);
	if (err)
		return err;
	/* the kernel starts regular files and symlinks inline (mount option inline_data) */
	if (has_data(type))
		n->i.i_inline |= ZF2FS_INLINE_DATA;
	if (type == ZF2FS_S_IFREG)
		txn_set_temperature(t, n, name, nlen);
	/* a new directory inherits its parent's casefolding (the kernel's inherited flags,
	 * masked to directories for this one) */
	if (type == ZF2FS_S_IFDIR && !get_node(t, dir, &dn) &&
	    (zf2fs_get(dn->i.i_flags) & ZF2FS_CASEFOLD_FL)) {
		err = get_node(t, ino, &n);
		if (err)
			return err;
		zf2fs_set(n->i.i_flags, zf2fs_get(n->i.i_flags) | ZF2FS_CASEFOLD_FL);
	}
	if (type == ZF2FS_S_IFCHR || type == ZF2FS_S_IFBLK)
		put_rdev(t, n, a->rdev_major, a->rdev_minor);
	put_attr(t, n, a);
	if (ret_ino)
		*ret_ino = ino;
	return 0;
}

int zf2fs_txn_set_attr(struct zf2fs_txn *t, uint32_t ino,
		       const struct zf2fs_txn_attr *a)
{
	struct zf2fs_node *n;
	int err = get_node(t, ino, &n);

	if (err)
		return err;
	put_attr(t, n, a);
	return 0;
}

/* Regular file or symlink @ino, queued: created by this transaction, or (@grow) one on
 * disk already without inline data, whose holes may get blocks. */
static int data_file(struct zf2fs_txn *t, uint32_t ino, bool grow, struct zf2fs_node **ret)
{
	int err;

	if (!created_here(t, ino) && !grow)
		return -EINVAL;
	err = get_node(t, ino, ret);
	if (err)
		return err;
	if (!has_data((uint32_t)zf2fs_get((*ret)->i.i_mode)))
		return -EINVAL;
	if (!created_here(t, ino) && ((*ret)->i.i_inline & ZF2FS_INLINE_DATA))
		return -EINVAL;
	return 0;
}

static int new_file(struct zf2fs_txn *t, uint32_t ino, struct zf2fs_node **ret)
{
	return data_file(t, ino, false, ret);
}

ZF2FS_EXPORT int zf2fs_txn_inline_max(struct zf2fs_txn *t, uint32_t ino, size_t *ret)
{
	struct zf2fs_inode_geom g;
	struct zf2fs_node *n;
	int err = get_node(t, ino, &n);

	if (err)
		return err;
	if (!has_data((uint32_t)zf2fs_get(n->i.i_mode)))
		return -EINVAL;
	if (zf2fs_inode_geometry2(t->g, &n->i, t->vi->features, &g))
		return -ZF2FS_EFSCORRUPTED;
	*ret = (n->i.i_inline & ZF2FS_INLINE_DATA) ? g.inline_bytes : 0;
	return 0;
}

ZF2FS_EXPORT int zf2fs_txn_write_inline(struct zf2fs_txn *t, uint32_t ino, const void *data,
					size_t len)
{
	struct zf2fs_inode_geom g;
	struct zf2fs_node *n;
	int err = new_file(t, ino, &n);

	if (err)
		return err;
	if (!(n->i.i_inline & ZF2FS_INLINE_DATA))
		return -EBUSY;
	if (zf2fs_inode_geometry2(t->g, &n->i, t->vi->features, &g))
		return -ZF2FS_EFSCORRUPTED;
	if (len > g.inline_bytes)
		return -EFBIG;
	/* inline data follows one reserved word after the extra attributes */
	memset(zf2fs_inode_addrs(n) + g.extra_words + 1, 0, g.inline_bytes);
	if (len) {
		memcpy(zf2fs_inode_addrs(n) + g.extra_words + 1, data, len);
		n->i.i_inline |= ZF2FS_DATA_EXIST;
	}
	zf2fs_set(n->i.i_size, len);
	return 0;
}

ZF2FS_EXPORT int zf2fs_txn_set_size(struct zf2fs_txn *t, uint32_t ino, uint64_t size)
{
	struct zf2fs_inode_geom g;
	struct zf2fs_node *n;
	int err = data_file(t, ino, true, &n);

	if (err)
		return err;
	/* a new inode starts inline: a size past the inline room makes it a block file (all
	 * holes until blocks come), as the kernel converts one on truncate to that size */
	if (n->i.i_inline & ZF2FS_INLINE_DATA) {
		if (zf2fs_inode_geometry2(t->g, &n->i, t->vi->features, &g))
			return -ZF2FS_EFSCORRUPTED;
		if (size > g.inline_bytes) {
			if (n->i.i_inline & ZF2FS_DATA_EXIST)
				return -EBUSY;
			n->i.i_inline &= (uint8_t)~ZF2FS_INLINE_DATA;
		}
	}
	zf2fs_set(n->i.i_size, size);
	return 0;
}

/* Where file block @blk is: @level 0 is the inode's own slot @off[0]; otherwise @off[0]
 * is the i_nid index, and at each level k >= 1 @nofs[k] is the footer offset of the node
 * and @off[k] the slot in it. */
struct node_path {
	int level;
	uint32_t nofs[4], off[4];
};

static int node_path(const struct zf2fs_geom *bg, const struct zf2fs_inode_geom *g, uint64_t blk,
		     struct node_path *p)
{
	const uint64_t per = g->addrs_per_block, nids = bg->nids_per_block;
	const uint64_t ind = per * nids, dind = ind * nids;

	memset(p, 0, sizeof(*p));
	if (blk < g->addrs) {
		p->off[0] = (uint32_t)blk;
		return 0;
	}
	blk -= g->addrs;
	for (uint32_t k = 0; k < 2; k++) {
		if (blk < per) {
			p->level = 1;
			p->off[0] = k;
			p->nofs[1] = ZF2FS_OFS_DIR1 + k;
			p->off[1] = (uint32_t)blk;
			return 0;
		}
		blk -= per;
	}
	for (uint32_t k = 0; k < 2; k++) {
		if (blk < ind) {
			p->level = 2;
			p->off[0] = 2 + k;
			p->nofs[1] = k ? zf2fs_geom_ofs_ind2(bg) : ZF2FS_OFS_IND1;
			p->off[1] = (uint32_t)(blk / per);
			p->nofs[2] = p->nofs[1] + 1 + p->off[1];
			p->off[2] = (uint32_t)(blk % per);
			return 0;
		}
		blk -= ind;
	}
	if (blk < dind) {
		p->level = 3;
		p->off[0] = 4;
		p->nofs[1] = zf2fs_geom_ofs_dind(bg);
		p->off[1] = (uint32_t)(blk / ind);
		p->nofs[2] = p->nofs[1] + 1 + p->off[1] * (uint32_t)(nids + 1);
		p->off[2] = (uint32_t)((blk / per) % nids);
		p->nofs[3] = p->nofs[2] + 1 + p->off[2];
		p->off[3] = (uint32_t)(blk % per);
		return 0;
	}
	return -EFBIG;
}

/* One address or nid slot of a queued node: @word, inside the node's block (an inode's
 * i_addr[] or i_nid[], a direct node's addresses, an indirect node's nids; where each
 * lies depends on the block size: geometry.h's accessors). */
struct slot {
	struct zf2fs_node *node;
	zf2fs_le32 *word;
};

static uint32_t slot_get(const struct slot *s)
{
	return zf2fs_get_le32p(s->word);
}

static void slot_set(const struct slot *s, uint32_t v)
{
	zf2fs_put_le32p(s->word, v);
}

/* The node slot @s names, a new one (footer offset @ofs) put there when it names none. */
static int child_node(struct zf2fs_txn *t, struct zf2fs_node *inode, uint32_t ino,
		      const struct slot *s, uint32_t ofs, uint32_t *ret_nid,
		      struct zf2fs_node **ret)
{
	struct zf2fs_node_footer *f;
	uint32_t nid = slot_get(s);
	int err;

	if (nid) {
		*ret_nid = nid;
		return get_node(t, nid, ret);
	}
	err = alloc_nid(t, &nid);
	if (!err)
		err = new_node(t, nid, ret);
	if (!err)
		err = nat_set(t, nid, ino, ZF2FS_NULL_ADDR);
	if (err)
		return err;
	t->nodes[t->nnodes - 1].is_new_inode = false;
	f = zf2fs_node_footer(t->g, *ret);
	zf2fs_set(f->nid, nid);
	zf2fs_set(f->ino, ino);
	/* the kernel keeps the nodes of files other than directories cold */
	zf2fs_set(f->flag, (ofs << ZF2FS_FOOTER_OFS_SHIFT) | ZF2FS_FOOTER_COLD_BIT);
	slot_set(s, nid);
	zf2fs_set(inode->i.i_blocks, zf2fs_get(inode->i.i_blocks) + 1);
	t->new_nodes++;
	t->new_blocks++;
	*ret_nid = nid;
	return 0;
}

bool file_blocks_fit(const struct zf2fs_txn *t, const struct zf2fs_inode_geom *g, uint64_t nblk)
{
	struct node_path p;

	return !nblk || !node_path(t->g, g, nblk - 1, &p);
}

/* The slot that addresses block @fofs of data file @ino, inode @n (nodes allocated on the
 * way), its owner node and offset there; the inline data of a new file goes first. */
static int map_slot(struct zf2fs_txn *t, uint32_t ino, struct zf2fs_node *n, uint64_t fofs,
		    struct slot *ret, uint32_t *ret_owner, uint32_t *ret_ofs)
{
	struct zf2fs_inode_geom g;
	struct zf2fs_node *cur;
	struct node_path p;
	uint32_t owner = ino;
	int err;

	if (n->i.i_inline & ZF2FS_INLINE_DATA) {
		if (n->i.i_inline & ZF2FS_DATA_EXIST)
			return -EBUSY;
		n->i.i_inline &= (uint8_t)~ZF2FS_INLINE_DATA;
	}
	if (zf2fs_inode_geometry2(t->g, &n->i, t->vi->features, &g))
		return -ZF2FS_EFSCORRUPTED;
	err = node_path(t->g, &g, fofs, &p);
	if (err)
		return err;
	if (!p.level) {
		*ret = (struct slot){ n, zf2fs_inode_addrs(n) + g.extra_words + p.off[0] };
		*ret_ofs = p.off[0];
	} else {
		*ret = (struct slot){ n, zf2fs_inode_nids(t->g, n) + p.off[0] };
		for (int l = 1; l <= p.level; l++) {
			err = child_node(t, n, ino, ret, p.nofs[l], &owner, &cur);
			if (err)
				return err;
			/* an indirect node's nids and a direct node's addresses both start at
			 * the block's first word */
			*ret = (struct slot){ cur, zf2fs_node_words(cur) + p.off[l] };
		}
		*ret_ofs = p.off[p.level];
	}
	*ret_owner = owner;
	return 0;
}

int file_block(struct zf2fs_txn *t, uint32_t ino, struct zf2fs_node *n, uint64_t fofs,
	       const void *buf)
{
	struct slot slot;
	uint32_t owner, ofs;
	uint8_t *copy;
	int err = map_slot(t, ino, n, fofs, &slot, &owner, &ofs);

	if (err)
		return err;
	if (slot_get(&slot) != ZF2FS_NULL_ADDR)
		return -EEXIST;
	copy = malloc(t->g->blocksize);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, t->g->blocksize);
	err = queue_data(t, owner, ofs, fofs, ZF2FS_NULL_ADDR, copy);
	if (err) {
		free(copy);
		return err;
	}
	/* the commit puts the block's address here */
	slot_set(&slot, ZF2FS_NEW_ADDR);
	zf2fs_set(n->i.i_blocks, zf2fs_get(n->i.i_blocks) + 1);
	t->new_blocks++;
	return 0;
}

ZF2FS_EXPORT int zf2fs_txn_write_block(struct zf2fs_txn *t, uint32_t ino, uint64_t fofs,
				       const void *buf)
{
	struct zf2fs_node *n;
	int err = data_file(t, ino, true, &n);

	return err ? err : file_block(t, ino, n, fofs, buf);
}

/* Whether file @n counts blocks besides its inode and its xattr node. */
static bool has_data_blocks(const struct zf2fs_node *n)
{
	return zf2fs_get(n->i.i_blocks) > 1u + (zf2fs_get(n->i.i_xattr_nid) != 0);
}

int zf2fs_txn_set_compression(struct zf2fs_txn *t, uint32_t ino, uint8_t algorithm,
			      uint8_t log_cluster)
{
	struct zf2fs_node *n;
	int err = new_file(t, ino, &n);

	if (err)
		return err;
	if (zf2fs_inode_type(&n->i) != ZF2FS_S_IFREG || has_data_blocks(n) ||
	    (n->i.i_inline & ZF2FS_DATA_EXIST))
		return -EBUSY;
	if (!(t->vi->features & ZF2FS_FEAT_COMPRESSION) || !(n->i.i_inline & ZF2FS_EXTRA_ATTR) ||
	    zf2fs_get(n->i.i_extra_isize) < ZF2FS_EXTRA_ISIZE_MAX)
		return -EOPNOTSUPP;
	if (log_cluster < 2 || log_cluster > 8)
		return -EINVAL;
	/* compressed files keep no inline data (f2fs_may_inline_data) */
	n->i.i_inline &= (uint8_t)~ZF2FS_INLINE_DATA;
	zf2fs_set(n->i.i_flags, zf2fs_get(n->i.i_flags) | ZF2FS_COMPR_FL);
	n->i.i_compress_algorithm = algorithm;
	n->i.i_log_cluster_size = log_cluster;
	zf2fs_set(n->i.i_compress_flag, 0);
	zf2fs_set(n->i.i_compr_blocks, 0);
	return 0;
}

int zf2fs_txn_release_compressed(struct zf2fs_txn *t, uint32_t ino)
{
	struct zf2fs_node *n;
	int err = new_file(t, ino, &n);

	if (err)
		return err;
	if (!(zf2fs_get(n->i.i_flags) & ZF2FS_COMPR_FL))
		return -EINVAL;
	if (has_data_blocks(n) || zf2fs_get(n->i.i_compr_blocks))
		return -EBUSY;
	n->i.i_inline |= ZF2FS_COMPRESS_RELEASED;
	return 0;
}

int zf2fs_txn_write_cluster(struct zf2fs_txn *t, uint32_t ino, uint64_t cluster,
			    const void *data, uint32_t nblocks)
{
	struct zf2fs_node *n;
	struct slot slot;
	uint32_t owner, ofs, cs;
	uint64_t first;
	int err = data_file(t, ino, true, &n);

	if (err)
		return err;
	if (!(zf2fs_get(n->i.i_flags) & ZF2FS_COMPR_FL))
		return -EINVAL;
	cs = 1u << n->i.i_log_cluster_size;
	if (!nblocks || nblocks > cs - 1)   /* at least one block saved */
		return -EINVAL;
	first = cluster * cs;
	for (uint32_t k = 0; k < cs; k++) {
		err = map_slot(t, ino, n, first + k, &slot, &owner, &ofs);
		if (!err && slot_get(&slot) != ZF2FS_NULL_ADDR)
			err = -EEXIST;
		if (err)
			return err;
	}
	/* the cluster: its marker, the compressed blocks, then reserved slots (NEW_ADDR)
	 * for the blocks it saves; all count as the file's and the volume's blocks, as the
	 * kernel reserves them, and i_compr_blocks counts the marker and reserved slots */
	err = map_slot(t, ino, n, first, &slot, &owner, &ofs);
	if (err)
		return err;
	slot_set(&slot, ZF2FS_COMPRESS_ADDR);
	for (uint32_t k = 0; k < nblocks; k++) {
		err = zf2fs_txn_write_block(t, ino, first + 1 + k,
					    (const uint8_t *)data + (size_t)k * t->g->blocksize);
		if (err)
			return err;
	}
	err = get_node(t, ino, &n);
	if (err)
		return err;
	/* a released file (F2FS_IOC_RELEASE_COMPRESS_BLOCKS) keeps only the marker and the
	 * compressed blocks: the other slots stay empty and neither the marker nor they
	 * count as blocks, i_compr_blocks stays 0 */
	if (n->i.i_inline & ZF2FS_COMPRESS_RELEASED)
		return 0;
	for (uint32_t k = 1 + nblocks; k < cs; k++) {
		err = map_slot(t, ino, n, first + k, &slot, &owner, &ofs);
		if (err)
			return err;
		slot_set(&slot, ZF2FS_NEW_ADDR);
	}
	err = get_node(t, ino, &n);
	if (err)
		return err;
	zf2fs_set(n->i.i_blocks, zf2fs_get(n->i.i_blocks) + cs - nblocks);
	zf2fs_set(n->i.i_compr_blocks, zf2fs_get(n->i.i_compr_blocks) + cs - nblocks);
	t->new_blocks += cs - nblocks;
	return 0;
}

void zf2fs_txn_usage(const struct zf2fs_txn *t, uint64_t *ret_blocks,
		     uint64_t *ret_inodes)
{
	*ret_blocks = t->new_blocks > 0 ? (uint64_t)t->new_blocks : 0;
	*ret_inodes = t->new_inodes > 0 ? (uint64_t)t->new_inodes : 0;
}
