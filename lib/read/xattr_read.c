// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xattr_read.c - one xattr of an inode, found as the kernel finds it (fs/f2fs/xattr.c):
 * the inline xattr area and the xattr node read as one list (a header, then entries,
 * ended by a zero word), searched by name index and name.  An entry that runs past the
 * list's end ends the search, as the kernel refuses such a list.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"

ZF2FS_EXPORT int zf2fs_vol_get_xattr(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				     uint8_t index, const char *name, void *buf, size_t cap,
				     size_t *ret_len)
{
	const struct zf2fs_geom *bg = zf2fs_vol_geom(vol);
	/* an xattr node's list takes the block less its footer */
	const size_t node_bytes = bg->xattr_block_bytes;
	const struct zf2fs_inode *in = &inode->i;
	struct zf2fs_inode_geom g;
	size_t nlen = strlen(name), inl, total, pos = ZF2FS_XATTR_HDR_SIZE;
	uint32_t xnid = (uint32_t)zf2fs_get(in->i_xattr_nid);
	uint8_t *list;
	int err;

	err = zf2fs_inode_geometry2(bg, in, zf2fs_vol_info(vol)->features, &g);
	if (err)
		return err;
	inl = (in->i_inline & ZF2FS_INLINE_XATTR) ? 4 * (size_t)g.xattr_words : 0;
	total = inl + (xnid ? node_bytes : 0);
	if (total < ZF2FS_XATTR_HDR_SIZE + 4)
		return -ENODATA;
	list = calloc(1, total);
	if (!list)
		return -ENOMEM;
	memcpy(list, (const uint8_t *)zf2fs_inode_addrs(in) +
	       4 * ((size_t)bg->addrs_per_inode - g.xattr_words), inl);
	if (xnid) {
		uint8_t *blk = malloc(bg->blocksize);

		err = blk ? zf2fs_vol_read_node(vol, xnid, blk, NULL, NULL, 0) : -ENOMEM;
		if (!err)
			memcpy(list + inl, blk, node_bytes);
		free(blk);
		if (err)
			goto out;
	}
	err = -ENODATA;
	if (zf2fs_get_le32p(list) != ZF2FS_XATTR_MAGIC)
		goto out;
	while (pos + 4 <= total && zf2fs_get_le32p(list + pos)) {
		struct zf2fs_xattr_entry e;
		size_t size, vlen;

		memcpy(&e, list + pos, sizeof(e));
		size = zf2fs_xattr_entry_size(&e);
		vlen = (size_t)zf2fs_get(e.e_value_size);
		if (pos + size > total) {
			err = -ZF2FS_EFSCORRUPTED;
			break;
		}
		if (e.e_name_index == index && e.e_name_len == nlen &&
		    !memcmp(list + pos + 4, name, nlen)) {
			memcpy(buf, list + pos + 4 + nlen, vlen < cap ? vlen : cap);
			*ret_len = vlen;
			err = 0;
			break;
		}
		pos += size;
	}
out:
	free(list);
	return err;
}
