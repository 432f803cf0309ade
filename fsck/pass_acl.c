// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_acl.c - pass 4: an inode's POSIX ACLs (the access and default ACL xattrs), read
 * as Linux reads them (f2fs_acl_from_disk): a version-1 header, then entries of 4 bytes
 * (owner, owning group, mask, others) and 8 bytes (named users and groups), the first four
 * at most short, and nothing left over.  Linux fails what it reads an ACL it cannot
 * parse for (access by anyone but the owner, files made in a directory with a default
 * ACL): a bad ACL is removed from the xattr list, and the file's mode bits give its
 * permissions, as they do for a file without ACLs.
 *
 * Called by check_inode_as (pass_tree.c) with the inode as its xattrs are read (an xattr
 * node found unusable left out).  Builds nothing for later phases.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/volume.h"

#define ACL_VERSION        1
#define ACL_HDR            4      /* the version word */
#define ACL_SHORT          4      /* tag, permissions */
#define ACL_FULL           8      /* tag, permissions, id */
#define XATTR_INDEX_ACL_ACCESS  2
#define XATTR_INDEX_ACL_DEFAULT 3

enum { ACL_USER_OBJ = 0x01, ACL_USER = 0x02, ACL_GROUP_OBJ = 0x04, ACL_GROUP = 0x08,
       ACL_MASK = 0x10, ACL_OTHER = 0x20 };

/* NULL when Linux parses the ACL of @size bytes at @v, else why not. */
static const char *acl_bad(const uint8_t *v, size_t size)
{
	size_t body, count, pos = ACL_HDR;

	if (size < ACL_HDR)
		return "shorter than its header";
	if (zf2fs_get_le32p(v) != ACL_VERSION)
		return "not version 1";
	body = size - ACL_HDR;
	if (body < 4 * ACL_SHORT) {
		if (body % ACL_SHORT)
			return "its size fits no count of entries";
		count = body / ACL_SHORT;
	} else {
		if ((body - 4 * ACL_SHORT) % ACL_FULL)
			return "its size fits no count of entries";
		count = (body - 4 * ACL_SHORT) / ACL_FULL + 4;
	}
	for (size_t i = 0; i < count; i++) {
		if (pos + ACL_SHORT > size)
			return "entries running past its end";
		switch (v[pos] | v[pos + 1] << 8) {
		case ACL_USER_OBJ:
		case ACL_GROUP_OBJ:
		case ACL_MASK:
		case ACL_OTHER:
			pos += ACL_SHORT;
			break;
		case ACL_USER:
		case ACL_GROUP:
			if (pos + ACL_FULL > size)
				return "entries running past its end";
			pos += ACL_FULL;
			break;
		default:
			return "an entry of an unknown kind";
		}
	}
	return pos == size ? NULL : "entries that do not fill it";
}

/*
 * The inode's xattr list as Linux reads it: the inline area, then the xattr node's block
 * but its footer, into @buf (at least 4 * g->inline_xattr_max + g->xattr_block_bytes); the inline area's length in *@ret_inl and the whole in *@ret_len.
 * The inode and xattr node are the ones a repair writes, when it queued them.
 */
static int read_list(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node,
		     uint8_t *buf, uint32_t *ret_inl, uint32_t *ret_len)
{
	const struct zf2fs_node *queued = repair_node_pending(ctx, ino);
	uint32_t xnid = (uint32_t)zf2fs_get(node->i.i_xattr_nid), inl = 0;
	struct zf2fs_inode_geom g;

	if (queued)
		node = queued;
	xnid = (uint32_t)zf2fs_get(node->i.i_xattr_nid);
	if (inode_geom(ctx, &node->i, &g))
		return -ZF2FS_EFSCORRUPTED;
	if (node->i.i_inline & ZF2FS_INLINE_XATTR) {
		inl = 4 * g.xattr_words;
		memcpy(buf, (const uint8_t *)node->i.i_addr + 4 * (ctx->g->addrs_per_inode -
		       g.xattr_words), inl);
	}
	*ret_inl = inl;
	*ret_len = inl;
	if (xnid) {
		const struct zf2fs_node *x = repair_node_pending(ctx, xnid);
		struct zf2fs_node *own = NULL;
		char why[120];

		if (!x && ctx->xattr_node && ctx->xattr_nid == xnid)
			x = ctx->xattr_node;   /* as pass 4 read it a moment ago */
		if (!x) {
			own = malloc(ZF2FS_BLKSIZE_MAX);
			if (!own)
				return -ENOMEM;
			if (zf2fs_vol_read_node(ctx->vol, xnid, own, NULL, why, sizeof(why))) {
				free(own);
				return -ZF2FS_EFSCORRUPTED;
			}
			x = own;
		}
		memcpy(buf + inl, x, ctx->g->xattr_block_bytes);
		*ret_len = inl + ctx->g->xattr_block_bytes;
		free(own);
	}
	return 0;
}

/* Remove the entry at @at of the list in @buf (@len bytes), and write the list back to
 * the inode and the xattr node. */
static int remove_entry(struct fsck_ctx *ctx, uint32_t ino, uint8_t *buf, uint32_t inl,
			uint32_t len, uint32_t at, uint32_t size)
{
	struct zf2fs_node *n, *x;
	struct zf2fs_inode_geom g;
	uint32_t xnid;

	memmove(buf + at, buf + at + size, len - at - size);
	memset(buf + len - size, 0, size);
	n = repair_node(ctx, ino);
	if (!n)
		return -ENOMEM;
	if (inode_geom(ctx, &n->i, &g))
		return -ZF2FS_EFSCORRUPTED;
	if (inl)
		memcpy((uint8_t *)n->i.i_addr + 4 * (ctx->g->addrs_per_inode - g.xattr_words), buf,
		       inl);
	xnid = (uint32_t)zf2fs_get(n->i.i_xattr_nid);
	if (len > inl && xnid) {
		x = repair_node(ctx, xnid);
		if (!x)
			return -ENOMEM;
		memcpy(x, buf + inl, ctx->g->xattr_block_bytes);
	}
	return 0;
}

int check_acls(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *inode)
{
	uint32_t inl, len, pos = ZF2FS_XATTR_HDR_SIZE;
	uint8_t *buf;
	int err;

	if (!(inode->i.i_inline & ZF2FS_INLINE_XATTR) && !zf2fs_get(inode->i.i_xattr_nid))
		return 0;
	buf = calloc(1, 4 * ctx->g->inline_xattr_max + ctx->g->xattr_block_bytes);
	if (!buf)
		return -ENOMEM;
	err = read_list(ctx, ino, inode, buf, &inl, &len);
	if (err || len < ZF2FS_XATTR_HDR_SIZE + 4 || zf2fs_get_le32p(buf) != ZF2FS_XATTR_MAGIC) {
		free(buf);
		return err == -ENOMEM ? err : 0;
	}
	/* entries up to the end word; a list running past its end is check_inline_xattrs'
	 * and Linux refuses all of it, ACLs included */
	while (pos + 4 <= len && zf2fs_get_le32p(buf + pos)) {
		struct zf2fs_xattr_entry e;
		uint32_t size, vlen;
		const char *why;

		memcpy(&e, buf + pos, sizeof(e));
		size = zf2fs_xattr_entry_size(&e);
		vlen = (uint32_t)zf2fs_get(e.e_value_size);
		if (pos + size + 4 > len)
			break;
		why = (e.e_name_index == XATTR_INDEX_ACL_ACCESS ||
		       e.e_name_index == XATTR_INDEX_ACL_DEFAULT) && !e.e_name_len ?
		      acl_bad(buf + pos + sizeof(e), vlen) : NULL;
		if (why) {
			struct problem_ctx p = { .ino = ino, .num = vlen, .str = why };

			p.num2 = e.e_name_index;
			if (fix_problem(ctx, PR_4_ACL_BAD, &p)) {
				err = remove_entry(ctx, ino, buf, inl, len, pos, size);
				if (err)
					break;
				continue;   /* the next entry is at @pos now */
			}
		}
		pos += size;
	}
	free(buf);
	return err;
}
