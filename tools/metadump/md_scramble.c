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
 * kept, like encryption contexts, ACLs and the verity descriptor; values of user and
 * trusted xattrs, and their names, are scrambled.  Inline file data is zeroed (it is
 * file data).  An inode whose checksum was right gets a new one.
 */
#include "config.h"
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
	if (d->scramble && (in->i_inline & ZF2FS_INLINE_XATTR) && ig.xattr_words)
		md_scramble_xattrs(d, addrs + 4 * ((size_t)g->addrs_per_inode - ig.xattr_words),
				   4 * (size_t)ig.xattr_words);
	if (csum_ok)
		zf2fs_set(in->i_inode_checksum, zf2fs_inode_checksum2(g, seed, blk));
}
