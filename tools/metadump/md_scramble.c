// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * md_scramble.c - what f2fs_metadump changes in a copied block so that it shares no name,
 * link target, xattr value or file byte of the user's.
 *
 * A name becomes letters and digits of the same length, the same for every copy of the
 * name (its dentries and the inode's i_name stay consistent); the output depends on the
 * whole name and on a key drawn at random for each image and never stored, so a name
 * cannot be guessed back from it.  Names of fewer than MIN_SCRAMBLED bytes, "." and
 * ".." and lost+found are kept: short names say little and the hash of a kept name is
 * still checked.  Entries stay in their slots with their stored hash, so each name keeps
 * its bucket.  Names and targets in encrypted directories are ciphertext already and are
 * kept, like encryption contexts, ACLs and the verity xattr; values of user and
 * trusted xattrs, and their names, are scrambled.  Inline file data is zeroed (it is
 * file data).  An inode whose checksum was right gets a new one.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>

#include "md_dump.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"
#include "zf2fs/txn_file.h"
#include "zf2fs-internal/format.h"

#define MIN_SCRAMBLED 5u

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

/* Letters and digits for @len bytes of @p, from the key and the bytes themselves; @keep
 * bytes ('/' in link targets) stay where they are. */
static void scramble_bytes(const struct md_dump *d, uint8_t *p, size_t len, int keep)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	uint64_t h = d->key ^ len;

	for (size_t i = 0; i < len; i++)
		h = mix64(h ^ p[i] ^ ((uint64_t)i << 56));
	for (size_t i = 0; i < len; i++) {
		h = mix64(h + 0x9e3779b97f4a7c15ull);
		if (keep >= 0 && p[i] == keep)
			continue;
		p[i] = (uint8_t)abc[h % (sizeof(abc) - 1)];
	}
}

void md_scramble_name(const struct md_dump *d, uint8_t *name, size_t len)
{
	if (len < MIN_SCRAMBLED || (len == 10 && !memcmp(name, "lost+found", 10)))
		return;
	scramble_bytes(d, name, len, -1);
}

/* The names of dentry area @v (a dentry block or an inline directory, writable). */
void md_scramble_dentries(const struct md_dump *d, const struct zf2fs_dentry_view *v)
{
	for (uint32_t s = 0; s < v->nr; s++) {
		uint32_t len = (uint32_t)zf2fs_get(v->dentry[s].name_len);
		uint32_t slots = (len + ZF2FS_SLOT_LEN - 1) / ZF2FS_SLOT_LEN;

		if (!zf2fs_dentry_slot_used(v, s) || !len || len > ZF2FS_NAME_LEN ||
		    slots > v->nr - s)
			continue;
		md_scramble_name(d, (uint8_t *)(uintptr_t)v->filename[s], len);
		s += slots - 1;
	}
}

void md_scramble_link(const struct md_dump *d, uint8_t *target, size_t len)
{
	scramble_bytes(d, target, len, '/');
}

/* Xattr entries in @list (@len bytes, the 24-byte header first). */
void md_scramble_xattrs(const struct md_dump *d, uint8_t *list, size_t len)
{
	size_t pos = ZF2FS_XATTR_HDR_SIZE;

	if (len < pos + 4 || zf2fs_get_le32p(list) != ZF2FS_XATTR_MAGIC)
		return;
	while (pos + 4 <= len && zf2fs_get_le32p(list + pos)) {
		struct zf2fs_xattr_entry e;
		size_t size, vlen;

		memcpy(&e, list + pos, sizeof(e));
		size = zf2fs_xattr_entry_size(&e);
		vlen = (size_t)zf2fs_get(e.e_value_size);
		if (pos + size > len)
			return;   /* a damaged list: what follows stays as it is */
		if (e.e_name_index == ZF2FS_XATTR_INDEX_USER ||
		    e.e_name_index == ZF2FS_XATTR_INDEX_TRUSTED) {
			md_scramble_name(d, list + pos + 4, e.e_name_len);
			scramble_bytes(d, list + pos + 4 + e.e_name_len, vlen, -1);
		}
		pos += size;
	}
}

/* An inode's xattr list is its inline area followed by its xattr node's; an entry may
 * straddle the two.  The list is put together, scrambled whole, and the part asked for
 * (@inl, @node: NULL when not wanted back) written back. */
static void scramble_split(const struct md_dump *d, const uint8_t *inl, size_t inl_len,
			  const uint8_t *node, size_t node_len, uint8_t *inl_out, uint8_t *node_out)
{
	uint8_t *list = malloc(inl_len + node_len + 1);

	if (!list)
		return;
	if (inl_len)
		memcpy(list, inl, inl_len);
	if (node_len)
		memcpy(list + inl_len, node, node_len);
	md_scramble_xattrs(d, list, inl_len + node_len);
	if (inl_out && inl_len)
		memcpy(inl_out, list, inl_len);
	if (node_out && node_len)
		memcpy(node_out, list + inl_len, node_len);
	free(list);
}

/* The inline part of inode @blk's xattr list: where, and how long (0: none). */
static uint8_t *inline_xattrs(const struct md_dump *d, void *blk, size_t *ret_len)
{
	struct zf2fs_inode *in = &((struct zf2fs_node *)blk)->i;
	struct zf2fs_inode_geom ig;

	*ret_len = 0;
	if (zf2fs_inode_geometry2(d->g, in, d->features, &ig) ||
	    !(in->i_inline & ZF2FS_INLINE_XATTR) || !ig.xattr_words)
		return NULL;
	*ret_len = 4 * (size_t)ig.xattr_words;
	return (uint8_t *)zf2fs_inode_addrs(in) + 4 * ((size_t)d->g->addrs_per_inode - ig.xattr_words);
}

/* The inline xattrs of inode @blk, read with the rest of the list from its xattr node. */
static void scramble_inode_xattrs(const struct md_dump *d, void *blk)
{
	uint32_t xnid = (uint32_t)zf2fs_get(((struct zf2fs_node *)blk)->i.i_xattr_nid);
	size_t inl_len, node_len = 0;
	uint8_t *inl = inline_xattrs(d, blk, &inl_len), *node = NULL;

	if (!inl)
		return;
	if (xnid && (node = malloc(d->g->blocksize)) &&
	    !zf2fs_vol_read_node(d->vol, xnid, node, NULL, NULL, 0))
		node_len = d->g->xattr_block_bytes;
	scramble_split(d, inl, inl_len, node, node_len, inl, NULL);
	free(node);
}

/* Xattr node @blk: its part of its inode's list (the whole block when its inode cannot
 * be read or no longer points at it: nothing reads such a block, and its values stay
 * the user's). */
void md_scramble_xattr_node(const struct md_dump *d, void *blk)
{
	const struct zf2fs_node_footer *ft = zf2fs_node_footer(d->g, blk);
	uint32_t nid = (uint32_t)zf2fs_get(ft->nid), ino = (uint32_t)zf2fs_get(ft->ino);
	uint8_t *inode = malloc(d->g->blocksize), *inl = NULL;
	size_t inl_len = 0;

	if (inode && !zf2fs_vol_read_node(d->vol, ino, inode, NULL, NULL, 0) &&
	    zf2fs_get(((struct zf2fs_node *)inode)->i.i_xattr_nid) == nid) {
		inl = inline_xattrs(d, inode, &inl_len);
		scramble_split(d, inl, inl_len, blk, d->g->xattr_block_bytes, NULL, blk);
	} else {
		scramble_bytes(d, blk, d->g->xattr_block_bytes, -1);
	}
	free(inode);
}

/* An inode block (writable): its name, inline names or target or data,
 * inline xattrs; the checksum again when it was right. */
void md_scramble_inode(const struct md_dump *d, void *blk)
{
	const struct zf2fs_geom *g = d->g;
	struct zf2fs_node *n = blk;
	struct zf2fs_inode *in = &n->i;
	struct zf2fs_inode_geom ig;
	uint32_t mode = zf2fs_inode_type(in), seed = d->csum_seed;
	bool enc = in->i_advise & ZF2FS_ADVISE_ENCRYPT;
	bool csum_ok = zf2fs_inode_has_checksum(in, d->features) &&
		       zf2fs_inode_checksum2(g, seed, blk) == zf2fs_get(in->i_inode_checksum);
	uint8_t *addrs = (uint8_t *)zf2fs_inode_addrs(in);
	uint32_t namelen = (uint32_t)zf2fs_get(in->i_namelen);

	if (zf2fs_inode_geometry2(g, in, d->features, &ig))
		return;   /* sizes that cannot be right: nothing is found where it should be */
	if (d->scramble && !enc && namelen <= ZF2FS_NAME_LEN)
		md_scramble_name(d, in->i_name, namelen);
	if (in->i_inline & ZF2FS_INLINE_DATA) {
		uint8_t *data = addrs + 4 * ((size_t)ig.extra_words + 1);
		uint64_t size = zf2fs_get(in->i_size);

		if (mode == ZF2FS_S_IFLNK) {
			if (d->scramble && !enc)
				md_scramble_link(d, data, size < ig.inline_bytes ? size : ig.inline_bytes);
		} else if (mode == ZF2FS_S_IFREG) {
			memset(data, 0, ig.inline_bytes);
		}
	}
	if (d->scramble && !enc && mode == ZF2FS_S_IFDIR && (in->i_inline & ZF2FS_INLINE_DENTRY)) {
		struct zf2fs_dentry_view v;

		if (!zf2fs_dentry_view_inline2(g, n, d->features, &v))
			md_scramble_dentries(d, &v);
	}
	if (d->scramble)
		scramble_inode_xattrs(d, blk);
	if (csum_ok)
		zf2fs_set(in->i_inode_checksum, zf2fs_inode_checksum2(g, seed, blk));
}
