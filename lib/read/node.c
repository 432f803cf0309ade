// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * node.c - inodes and the block trees hanging from them.
 *
 * An inode holds up to 923 addresses (3995 in a 16 KiB block), fewer when extra
 * attributes sit at the front of i_addr or inline xattrs at its end; then two direct nodes, two indirect nodes and one
 * double-indirect node.  Every node's footer records its own nid, its inode and its offset
 * in this tree; the walk checks each before trusting it.  The tree's shape bounds the walk:
 * it is at most three levels deep, so a corrupted pointer can waste reads but never loop.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/volume.h"
#include "format/inode_p.h"
#include "read/volume_p.h"

ZF2FS_EXPORT int zf2fs_inline_xattr_cut2(const struct zf2fs_geom *bg, const struct zf2fs_inode *in,
					 const struct zf2fs_inode_geom *g, uint32_t *ret_start,
					 uint32_t *ret_cut)
{
	uint32_t start = 4 * (bg->addrs_per_inode - g->xattr_words);
	uint32_t end = 4 * g->xattr_words, pos = ZF2FS_XATTR_HDR_SIZE;
	const uint8_t *area = (const uint8_t *)in->i_addr + start;

	*ret_start = start;
	if (!(in->i_inline & ZF2FS_INLINE_XATTR) || end < ZF2FS_XATTR_HDR_SIZE + 4 ||
	    zf2fs_get_le32p(area) != ZF2FS_XATTR_MAGIC)
		return 0;
	while (pos + 4 <= end && zf2fs_get_le32p(area + pos)) {
		struct zf2fs_xattr_entry e;
		uint32_t size;

		memcpy(&e, area + pos, sizeof(e));
		size = zf2fs_xattr_entry_size(&e);
		if (pos + size + 4 > end)
			break;
		pos += size;
	}
	if (pos + 4 <= end && !zf2fs_get_le32p(area + pos))
		return 0;
	*ret_cut = pos;
	return 1;
}

ZF2FS_EXPORT int zf2fs_inline_xattr_cut(const struct zf2fs_inode *in,
					const struct zf2fs_inode_geom *g, uint32_t *ret_start,
					uint32_t *ret_cut)
{
	return zf2fs_inline_xattr_cut2(zf2fs_geom_4k(), in, g, ret_start, ret_cut);
}

ZF2FS_EXPORT uint32_t zf2fs_inode_flags_bad2(const struct zf2fs_geom *bg,
					     const struct zf2fs_inode *in, uint32_t features)
{
	uint32_t flags = (uint32_t)zf2fs_get(in->i_flags), bad = 0;
	bool dir = zf2fs_inode_type(in) == ZF2FS_S_IFDIR;

	if ((flags & ZF2FS_CASEFOLD_FL) && (!(features & ZF2FS_FEAT_CASEFOLD) || !dir))
		bad |= ZF2FS_CASEFOLD_FL;
	if ((flags & ZF2FS_COMPR_FL) &&
	    (!(features & ZF2FS_FEAT_COMPRESSION) || (in->i_inline & ZF2FS_INLINE_DATA)))
		bad |= ZF2FS_COMPR_FL;
	/* a regular file flagged compressed whose extra attributes hold no cluster size the
	 * kernel knows (it refuses the inode), and whose slots hold no cluster marker: the
	 * flag is what is wrong, not the file (an unknown algorithm alone is fsck's to
	 * replace: the cluster size says the fields are the kernel's) */
	if ((flags & ZF2FS_COMPR_FL) && !(bad & ZF2FS_COMPR_FL) &&
	    zf2fs_inode_type(in) == ZF2FS_S_IFREG) {
		bool known = (in->i_inline & ZF2FS_EXTRA_ATTR) &&
			     zf2fs_get(in->i_extra_isize) >= ZF2FS_EXTRA_ISIZE_MAX &&
			     in->i_log_cluster_size >= 2 && in->i_log_cluster_size <= 8;
		uint32_t markers, log;

		zf2fs_inode_cluster_markers2(bg, in, features, &markers, &log);
		if (!known && !markers)
			bad |= ZF2FS_COMPR_FL;
	}
	return bad;
}

ZF2FS_EXPORT uint32_t zf2fs_inode_flags_bad(const struct zf2fs_inode *in, uint32_t features)
{
	return zf2fs_inode_flags_bad2(zf2fs_geom_4k(), in, features);
}

/* The words of i_addr that extra attributes take at its front and inline xattrs at its
 * end; -ZF2FS_EFSCORRUPTED when the sizes are impossible. */
static int slot_words(const struct zf2fs_geom *bg, const struct zf2fs_inode *in,
		      uint32_t features, uint32_t *ret_extra, uint32_t *ret_xattr)
{
	uint32_t extra = 0, xattr = 0;

	if (in->i_inline & ZF2FS_EXTRA_ATTR) {
		extra = (uint32_t)zf2fs_get(in->i_extra_isize);
		if (extra % 4 || extra < 4 || extra > ZF2FS_EXTRA_ISIZE_MAX + 4 * 16)
			return -ZF2FS_EFSCORRUPTED;
		extra /= 4;
	}
	if (features & ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR)
		xattr = (in->i_inline & ZF2FS_EXTRA_ATTR) ? (uint32_t)zf2fs_get(in->i_inline_xattr_size) : 0;
	else if (in->i_inline & (ZF2FS_INLINE_XATTR | ZF2FS_INLINE_DENTRY))
		xattr = ZF2FS_INLINE_XATTR_ADDRS;
	if (xattr > bg->inline_xattr_max || extra + xattr + 1 > bg->addrs_per_inode)
		return -ZF2FS_EFSCORRUPTED;
	*ret_extra = extra;
	*ret_xattr = xattr;
	return 0;
}

ZF2FS_EXPORT void zf2fs_inode_cluster_markers2(const struct zf2fs_geom *bg,
					       const struct zf2fs_inode *in, uint32_t features,
					       uint32_t *ret_markers, uint32_t *ret_log)
{
	const zf2fs_le32 *addrs = zf2fs_inode_addrs(in);
	uint32_t extra, xattr, log = 8, n = 0;

	if (!slot_words(bg, in, features, &extra, &xattr))
		for (uint32_t k = 0; k < bg->addrs_per_inode - extra - xattr; k++) {
			if (zf2fs_le32_to_cpu(addrs[extra + k]) != ZF2FS_COMPRESS_ADDR)
				continue;
			n++;
			while (log && k % (1u << log))
				log--;
		}
	*ret_markers = n;
	*ret_log = log;
}

ZF2FS_EXPORT void zf2fs_inode_cluster_markers(const struct zf2fs_inode *in, uint32_t features,
					      uint32_t *ret_markers, uint32_t *ret_log)
{
	zf2fs_inode_cluster_markers2(zf2fs_geom_4k(), in, features, ret_markers, ret_log);
}

ZF2FS_EXPORT int zf2fs_inode_geometry(const struct zf2fs_inode *in, uint32_t features,
				      struct zf2fs_inode_geom *g)
{
	return zf2fs_inode_geometry2(zf2fs_geom_4k(), in, features, g);
}

ZF2FS_EXPORT int zf2fs_inode_geometry2(const struct zf2fs_geom *bg, const struct zf2fs_inode *in,
				       uint32_t features, struct zf2fs_inode_geom *g)
{
	uint32_t extra = 0, xattr = 0;
	int err;

	memset(g, 0, sizeof(*g));
	err = slot_words(bg, in, features, &extra, &xattr);
	if (err)
		return err;
	g->extra_words = extra;
	g->xattr_words = xattr;
	g->addrs = bg->addrs_per_inode - extra - xattr;
	g->addrs_per_block = bg->addrs_per_block;
	g->inline_bytes = 4 * (bg->addrs_per_inode - extra - xattr - 1);
	bool regular = zf2fs_inode_type(in) == ZF2FS_S_IFREG;

	if ((features & ZF2FS_FEAT_COMPRESSION) && regular &&
	    (zf2fs_get(in->i_flags) & ZF2FS_COMPR_FL)) {
		uint32_t log = (in->i_inline & ZF2FS_EXTRA_ATTR) && extra * 4 >= ZF2FS_EXTRA_ISIZE_MAX ?
			       in->i_log_cluster_size : 0;

		if (log < 2 || log > 8)
			return -ZF2FS_EFSCORRUPTED;
		g->compressed = true;
		g->cluster_blocks = 1u << log;
		g->addrs -= g->addrs % g->cluster_blocks;
		g->addrs_per_block -= g->addrs_per_block % g->cluster_blocks;
	}
	return 0;
}

ZF2FS_EXPORT int zf2fs_vol_read_node(struct zf2fs_vol *vol, uint32_t nid, void *buf,
				     uint32_t *ret_blkaddr, char *why, size_t whylen)
{
	const struct zf2fs_node_footer *footer = zf2fs_node_footer(&vol->geom, buf);
	struct zf2fs_nat_info ni;
	int err;

	if (ret_blkaddr)
		*ret_blkaddr = 0;
	if (nid < ZF2FS_RESERVED_NIDS || nid >= vol->info.max_nid) {
		snprintf(why, whylen, "nid %u is out of range (3..%u)", nid, vol->info.max_nid - 1);
		return -ZF2FS_EFSCORRUPTED;
	}
	err = zf2fs_vol_nat_lookup(vol, nid, &ni);
	if (err)
		return err;
	if (ni.blkaddr == ZF2FS_NULL_ADDR) {
		snprintf(why, whylen, "nid %u has no NAT entry", nid);
		return -ENOENT;
	}
	if (ni.blkaddr < vol->info.main_blkaddr || ni.blkaddr >= vol->info.main_end) {
		snprintf(why, whylen, "nid %u: NAT address %u is outside the main area", nid,
			 ni.blkaddr);
		return -ZF2FS_EFSCORRUPTED;
	}
	if (ret_blkaddr)
		*ret_blkaddr = ni.blkaddr;
	err = zf2fs_vol_read_block(vol, ni.blkaddr, buf);
	if (err)
		return err;
	if (zf2fs_get(footer->nid) != nid) {
		snprintf(why, whylen, "nid %u: the block at %u says nid %llu", nid, ni.blkaddr,
			 (unsigned long long)zf2fs_get(footer->nid));
		return -ZF2FS_EFSCORRUPTED;
	}
	if (zf2fs_get(footer->ino) != ni.ino) {
		snprintf(why, whylen, "nid %u: footer ino %llu differs from NAT ino %u", nid,
			 (unsigned long long)zf2fs_get(footer->ino), ni.ino);
		return -ZF2FS_EFSCORRUPTED;
	}
	return 0;
}

struct walk {
	struct zf2fs_vol *vol;
	const struct zf2fs_geom *bg;
	const struct zf2fs_walk_ops *ops;
	void *arg;
	uint32_t ino;
	struct zf2fs_inode_geom g;
	uint8_t *buf[3];        /* one node buffer per tree level */
};

static int data_run(struct walk *w, const void *addrs, uint32_t n, uint64_t fofs,
		    uint32_t owner, uint32_t first_slot)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = zf2fs_get_le32p((const uint8_t *)addrs + 4 * (first_slot + i));
		int r;

		if (a == ZF2FS_NULL_ADDR || !w->ops->data)
			continue;
		/* slots count from the first address, after any extra attributes */
		r = w->ops->data(w->arg, fofs + i, a, owner, i);
		if (r)
			return r;
	}
	return 0;
}

/* Read and check one node of the tree: @level 0 direct, 1 indirect, 2 double. */
static int visit(struct walk *w, uint32_t nid, uint32_t parent, uint32_t slot, uint32_t ofs,
		 int level, uint64_t fofs);

static int children(struct walk *w, const struct zf2fs_node *n, uint32_t nid, uint32_t ofs,
		    int level, uint64_t fofs)
{
	const uint32_t per = w->bg->nids_per_block;
	const zf2fs_le32 *nids = zf2fs_node_words(n);
	uint64_t span = w->g.addrs_per_block;

	for (int l = 1; l < level; l++)
		span *= per;
	for (uint32_t i = 0; i < per; i++) {
		uint32_t child = zf2fs_le32_to_cpu(nids[i]);
		uint32_t cofs;
		int r;

		if (!child)
			continue;
		/* offsets of children: after an indirect node come its direct nodes; under the
		 * double-indirect node each indirect child is followed by its own children */
		if (level == 1)
			cofs = ofs + 1 + i;
		else
			cofs = ofs + 1 + i * (per + 1);
		r = visit(w, child, nid, i, cofs, level - 1, fofs + (uint64_t)i * span);
		if (r)
			return r;
	}
	return 0;
}

static int visit(struct walk *w, uint32_t nid, uint32_t parent, uint32_t slot, uint32_t ofs,
		 int level, uint64_t fofs)
{
	struct zf2fs_node *n = (struct zf2fs_node *)w->buf[level];
	struct zf2fs_node_footer *footer = zf2fs_node_footer(w->bg, n);
	uint32_t addr;
	char why[160];
	int err, r;

	err = zf2fs_vol_read_node(w->vol, nid, n, &addr, why, sizeof(why));
	if (!err && zf2fs_get(footer->ino) != w->ino) {
		snprintf(why, sizeof(why), "nid %u belongs to inode %llu, not %u", nid,
			 (unsigned long long)zf2fs_get(footer->ino), w->ino);
		err = -ZF2FS_EFSCORRUPTED;
	}
	if (!err && zf2fs_node_ofs(w->bg, n) != ofs) {
		snprintf(why, sizeof(why), "nid %u: footer offset %u, expected %u", nid,
			 zf2fs_node_ofs(w->bg, n), ofs);
		err = -ZF2FS_EFSCORRUPTED;
	}
	/* the block was read (@addr set) but its footer disagrees: the caller may know better */
	if (err == -ZF2FS_EFSCORRUPTED && addr && w->ops->mend &&
	    w->ops->mend(w->arg, nid, addr, n, ofs, why) == 1) {
		uint32_t flag = (uint32_t)zf2fs_get(footer->flag);

		zf2fs_set(footer->nid, nid);
		zf2fs_set(footer->ino, w->ino);
		zf2fs_set(footer->flag, (flag & ((1u << ZF2FS_FOOTER_OFS_SHIFT) - 1)) |
			  (ofs << ZF2FS_FOOTER_OFS_SHIFT));
		err = 0;
	}
	if (err == -ZF2FS_EFSCORRUPTED || err == -ENOENT)
		return w->ops->bad ? w->ops->bad(w->arg, nid, parent, slot, ofs, why) : 0;
	if (err)
		return err;
	if (w->ops->node) {
		r = w->ops->node(w->arg, nid, addr, n, ofs, parent, slot);
		if (r == ZF2FS_WALK_SKIP)
			return 0;
		if (r)
			return r;
	}
	if (level == 0)
		return data_run(w, (const uint8_t *)n, w->g.addrs_per_block, fofs, nid, 0);
	return children(w, n, nid, ofs, level, fofs);
}

ZF2FS_EXPORT int zf2fs_file_walk(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				 const struct zf2fs_walk_ops *ops, void *arg)
{
	const struct zf2fs_geom *bg = &vol->geom;
	const struct { uint32_t ofs; int level; } tops[ZF2FS_NIDS_PER_INODE] = {
		{ ZF2FS_OFS_DIR1, 0 }, { ZF2FS_OFS_DIR2, 0 }, { ZF2FS_OFS_IND1, 1 },
		{ zf2fs_geom_ofs_ind2(bg), 1 }, { zf2fs_geom_ofs_dind(bg), 2 },
	};
	const zf2fs_le32 *inids = zf2fs_inode_nids(bg, inode);
	struct walk w = { .vol = vol, .bg = bg, .ops = ops, .arg = arg };
	uint64_t fofs;
	int r;

	w.ino = (uint32_t)zf2fs_get(zf2fs_node_footer(bg, inode)->ino);
	if (zf2fs_inode_geometry2(bg, &inode->i, vol->info.features, &w.g))
		return -ZF2FS_EFSCORRUPTED;
	if (inode->i.i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY))
		return 0;
	switch (zf2fs_inode_type(&inode->i)) {
	case ZF2FS_S_IFCHR: case ZF2FS_S_IFBLK: case ZF2FS_S_IFIFO: case ZF2FS_S_IFSOCK:
		return 0;   /* devices keep their number in i_addr; fifos and sockets have no data */
	}
	for (int i = 0; i < 3; i++) {
		w.buf[i] = malloc(bg->blocksize);
		if (!w.buf[i]) {
			r = -ENOMEM;
			goto out;
		}
	}
	r = data_run(&w, (const uint8_t *)inode + offsetof(struct zf2fs_inode, i_addr), w.g.addrs,
		     0, w.ino, w.g.extra_words);
	fofs = w.g.addrs;
	for (int i = 0; !r && i < ZF2FS_NIDS_PER_INODE; i++) {
		uint32_t nid = zf2fs_le32_to_cpu(inids[i]);
		uint64_t span = w.g.addrs_per_block;

		for (int l = 0; l < tops[i].level; l++)
			span *= bg->nids_per_block;
		if (nid)
			r = visit(&w, nid, w.ino, (uint32_t)i, tops[i].ofs, tops[i].level, fofs);
		fofs += span;
	}
out:
	for (int i = 0; i < 3; i++)
		free(w.buf[i]);
	return r;
}

/* ---- new inodes --------------------------------------------------------------------- */
ZF2FS_EXPORT int zf2fs_inode_init2(const struct zf2fs_geom *g, void *node, uint32_t features,
				   uint32_t ino, uint32_t pino, const char *name, size_t len,
				   uint32_t mode, uint64_t now)
{
	struct zf2fs_node_footer *footer = zf2fs_node_footer(g, node);
	struct zf2fs_inode *in = node;
	bool dir = zf2fs_mode_type(mode) == ZF2FS_S_IFDIR;

	if (len > ZF2FS_NAME_LEN)
		return -EINVAL;
	zf2fs_set(in->i_mode, mode);
	zf2fs_set(in->i_links, dir ? 2 : 1);
	zf2fs_set(in->i_blocks, 1);
	zf2fs_set(in->i_atime, now);
	zf2fs_set(in->i_ctime, now);
	zf2fs_set(in->i_mtime, now);
	zf2fs_set(in->i_pino, pino);
	zf2fs_set(in->i_namelen, len);
	if (len)
		memcpy(in->i_name, name, len);
	if (features & ZF2FS_FEAT_EXTRA_ATTR) {
		in->i_inline = ZF2FS_EXTRA_ATTR;
		zf2fs_set(in->i_extra_isize, zf2fs_extra_isize(features));
		if (features & ZF2FS_FEAT_INODE_CRTIME)
			zf2fs_set(in->i_crtime, now);
	}
	zf2fs_set(footer->nid, ino);
	zf2fs_set(footer->ino, ino);
	/* the kernel keeps directories' nodes hot and files' nodes cold */
	zf2fs_set(footer->flag, dir ? 0 : ZF2FS_FOOTER_COLD_BIT);
	return 0;
}

ZF2FS_EXPORT int zf2fs_inode_init(struct zf2fs_node *node, uint32_t features, uint32_t ino,
				  uint32_t pino, const char *name, size_t len, uint32_t mode,
				  uint64_t now)
{
	return zf2fs_inode_init2(zf2fs_geom_4k(), node, features, ino, pino, name, len, mode, now);
}
