// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * txn_xattr.c - extended attributes of new inodes for the transaction
 * (include/zf2fs/txn_file.h, zf2fs_txn_set_xattrs).
 *
 * The kernel's layout (fs/f2fs/xattr.[ch]): one area made of the inode's inline xattr
 * words (at the end of i_addr, before i_nid) followed by the xattr node's block but its
 * footer (4072 bytes of a 4 KiB block, 16360 of a 16 KiB one).  The area starts with a 24-byte
 * header (magic, reference count 1), then the entries: name index, name length, value
 * size (16 bits), name, value, each padded to 4 bytes; four zero bytes end the list.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/txn_file.h"
#include "write/txn_p.h"

#define XATTR_MAGIC      0xF2F52011u
#define XATTR_HDR        24u
#define XATTR_END        4u
#define XATTR_NODE_OFS   0x1FFFFFFFu   /* the footer offset of an xattr node */

static size_t entry_bytes(const struct zf2fs_txn_xattr *x)
{
	return (4 + x->name_len + x->value_len + 3) & ~(size_t)3;
}

ZF2FS_EXPORT size_t zf2fs_xattr_bytes(const struct zf2fs_txn_xattr *x, size_t n)
{
	size_t total = XATTR_HDR + XATTR_END;

	for (size_t i = 0; i < n; i++)
		total += entry_bytes(&x[i]);
	return total;
}

ZF2FS_EXPORT int zf2fs_txn_set_xattrs(struct zf2fs_txn *t, uint32_t ino,
				      const struct zf2fs_txn_xattr *x, size_t n)
{
	const struct zf2fs_geom *g = t->g;
	const size_t node_bytes = g->xattr_block_bytes;
	size_t total = zf2fs_xattr_bytes(x, n), inline_bytes = ZF2FS_INLINE_XATTR_ADDRS * 4u;
	struct zf2fs_node_footer *f;
	struct zf2fs_node *in, *xn;
	bool created = false;
	uint8_t *area, *p;
	uint32_t nid;
	int err;

	if (!n)
		return 0;
	if (total > zf2fs_xattr_max_bytes(g))
		return -E2BIG;
	for (size_t i = 0; i < n; i++)
		if (!x[i].name_len || x[i].name_len > 255 || x[i].value_len > 0xffff)
			return -E2BIG;
	/* through the index: a load's queue holds every node of the tree */
	if (find_node(t, ino))
		created = find_node(t, ino)->is_new_inode;
	err = get_node(t, ino, &in);
	if (err)
		return err;
	if ((in->i.i_inline & ZF2FS_DATA_EXIST) || zf2fs_get(in->i.i_xattr_nid))
		return -EBUSY;
	if (created) {
		if (in->i.i_inline & ZF2FS_INLINE_XATTR)
			return -EBUSY;
		if (zf2fs_inode_type(&in->i) == ZF2FS_S_IFREG && zf2fs_get(in->i.i_blocks) > 1)
			return -EBUSY;   /* the inline area would cover data slots already used */
	} else {
		/* an inode on disk without xattrs: its empty inline area if it has one, else
		 * all of them in an xattr node (as the kernel keeps them without inline_xattr) */
		if (in->i.i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY))
			return -EBUSY;
		if (in->i.i_inline & ZF2FS_INLINE_XATTR) {
			const uint8_t *ia = (const uint8_t *)(zf2fs_inode_addrs(in) +
				g->addrs_per_inode - ZF2FS_INLINE_XATTR_ADDRS);

			for (size_t k = 0; k < inline_bytes; k++)
				if (ia[k])
					return -EBUSY;
			if ((in->i.i_inline & ZF2FS_EXTRA_ATTR) &&
			    zf2fs_get(in->i.i_inline_xattr_size) != ZF2FS_INLINE_XATTR_ADDRS)
				return -EBUSY;
		} else {
			if (total > node_bytes)
				return -E2BIG;
			inline_bytes = 0;
		}
	}
	area = calloc(1, inline_bytes + node_bytes);
	if (!area)
		return -ENOMEM;
	p = area;
	zf2fs_put_le32p(p, XATTR_MAGIC);
	zf2fs_put_le32p(p + 4, 1);   /* reference count */
	p += XATTR_HDR;
	for (size_t i = 0; i < n; i++) {
		p[0] = x[i].index;
		p[1] = (uint8_t)x[i].name_len;
		p[2] = (uint8_t)(x[i].value_len & 0xff);
		p[3] = (uint8_t)(x[i].value_len >> 8);
		memcpy(p + 4, x[i].name, x[i].name_len);
		if (x[i].value_len)
			memcpy(p + 4 + x[i].name_len, x[i].value, x[i].value_len);
		p += entry_bytes(&x[i]);
	}
	/* the inline area: the kernel's default size, at the end of the address slots */
	if (inline_bytes) {
		in->i.i_inline |= ZF2FS_INLINE_XATTR;
		if ((in->i.i_inline & ZF2FS_EXTRA_ATTR) &&
		    (t->vi->features & ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR))
			zf2fs_set(in->i.i_inline_xattr_size, ZF2FS_INLINE_XATTR_ADDRS);
		memcpy(zf2fs_inode_addrs(in) + g->addrs_per_inode - ZF2FS_INLINE_XATTR_ADDRS, area,
		       inline_bytes);
	}
	if (total > inline_bytes) {
		err = alloc_nid(t, &nid);
		if (!err)
			err = new_node(t, nid, &xn);
		if (!err)
			err = nat_set(t, nid, ino, ZF2FS_NULL_ADDR);
		if (err) {
			free(area);
			return err;
		}
		t->nodes[t->nnodes - 1].is_new_inode = false;
		memcpy(xn, area + inline_bytes, node_bytes);
		f = zf2fs_node_footer(g, xn);
		zf2fs_set(f->nid, nid);
		zf2fs_set(f->ino, ino);
		/* like every node of a file other than a directory, cold */
		zf2fs_set(f->flag, (XATTR_NODE_OFS << ZF2FS_FOOTER_OFS_SHIFT) |
		       (zf2fs_inode_type(&in->i) == ZF2FS_S_IFDIR ? 0 : ZF2FS_FOOTER_COLD_BIT));
		zf2fs_set(in->i.i_xattr_nid, nid);
		zf2fs_set(in->i.i_blocks, zf2fs_get(in->i.i_blocks) + 1);
		t->new_nodes++;
		t->new_blocks++;
	}
	free(area);
	return 0;
}
