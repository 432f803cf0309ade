// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * file_read.c - read a file's bytes by inode, map single blocks, resolve paths.
 *
 * Contents come either from the inode itself (inline data, right after one reserved word
 * that follows the extra attributes) or from the block tree walked in file order, in which
 * runs of physically consecutive blocks are read in one request.  A single block is mapped
 * by computing the path through the tree for its offset (the same split the kernel uses:
 * inode, two direct, two indirect, one double-indirect node).  Name lookup follows the
 * kernel's hash levels; path lookup follows symlinks with a fixed budget, so no on-disk
 * value can make either loop.
 */
#include "config.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/file.h"
#include "read/file_read_p.h"
#include "read/volume_p.h"
#include "format/why_p.h"


#define MAX_LINKS_FOLLOWED 40
#define RUN_MAX 64u   /* blocks read in one request */

ZF2FS_EXPORT int zf2fs_inode_read(struct zf2fs_vol *vol, uint32_t ino, struct zf2fs_node *buf,
				  uint32_t *ret_blkaddr, char *why, size_t whylen)
{
	char tmp[160];
	int err;

	err = zf2fs_vol_read_node(vol, ino, buf, ret_blkaddr, tmp, sizeof(tmp));
	if (err == -EINVAL)
		return zf2fs_set_why(why, whylen, -ENOENT, "inode %u: nid beyond the NAT", ino);
	if (err)
		return zf2fs_set_why(why, whylen, err, "inode %u: %s", ino, err == -ZF2FS_EFSCORRUPTED ||
			    err == -ENOENT ? tmp : strerror(-err));
	if (zf2fs_get(zf2fs_node_footer(&vol->geom, buf)->ino) != ino)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "inode %u: node belongs to inode "
			    "%llu, so it is not an inode", ino,
			    (unsigned long long)zf2fs_get(zf2fs_node_footer(&vol->geom, buf)->ino));
	if (zf2fs_node_ofs(&vol->geom, buf))
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "inode %u: node offset %llu, not 0",
			    ino, (unsigned long long)zf2fs_node_ofs(&vol->geom, buf));
	return 0;
}

ZF2FS_EXPORT uint64_t zf2fs_node_fofs(const struct zf2fs_inode_geom *g, uint32_t node_ofs,
				      uint32_t ofs_in_node)
{
	return zf2fs_node_fofs2(zf2fs_geom_4k(), g, node_ofs, ofs_in_node);
}

ZF2FS_EXPORT uint64_t zf2fs_node_fofs2(const struct zf2fs_geom *bg,
				       const struct zf2fs_inode_geom *g, uint32_t node_ofs,
				       uint32_t ofs_in_node)
{
	const uint64_t n = bg->nids_per_block;
	uint64_t ind_end = 2 * n + 4;   /* offset of the last node below the indirect nodes */
	uint64_t idx;                   /* direct nodes that come before this one */

	if (node_ofs == 0)
		return ofs_in_node;
	if (node_ofs <= ZF2FS_OFS_DIR2)
		idx = node_ofs - 1;
	else if (node_ofs <= ind_end)
		idx = node_ofs - 2 - (node_ofs - 4) / (n + 1);
	else
		idx = node_ofs - 5 - (node_ofs - ind_end - 3) / (n + 1);
	return g->addrs + idx * g->addrs_per_block + ofs_in_node;
}

/* Read node @nid as a child in @ino's tree with footer offset @ofs. */
static int tree_node(struct zf2fs_vol *vol, uint32_t ino, uint32_t nid, uint32_t ofs,
		     struct zf2fs_node *buf, char *why, size_t whylen)
{
	const struct zf2fs_node_footer *footer = zf2fs_node_footer(&vol->geom, buf);
	char tmp[160];
	int err = zf2fs_vol_read_node(vol, nid, buf, NULL, tmp, sizeof(tmp));

	if (err == -EINVAL || err == -ENOENT)
		err = -ZF2FS_EFSCORRUPTED;
	if (err)
		return zf2fs_set_why(why, whylen, err, "inode %u: %s", ino,
			    err == -ZF2FS_EFSCORRUPTED ? tmp : strerror(-err));
	if (zf2fs_get(footer->ino) != ino)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "inode %u: node %u belongs to "
			    "inode %llu", ino, nid, (unsigned long long)zf2fs_get(footer->ino));
	if (zf2fs_node_ofs(&vol->geom, buf) != ofs)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "inode %u: node %u has offset "
			    "%llu, expected %u", ino, nid,
			    (unsigned long long)zf2fs_node_ofs(&vol->geom, buf),
			    ofs);
	return 0;
}

ZF2FS_EXPORT int zf2fs_file_bmap(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				 uint64_t fofs, uint32_t *ret_blkaddr, char *why, size_t whylen)
{
	const struct zf2fs_geom *bg = &vol->geom;
	const uint64_t n = bg->nids_per_block;
	uint32_t ino = (uint32_t)zf2fs_get(zf2fs_node_footer(bg, inode)->ino);
	struct zf2fs_inode_geom g;
	struct zf2fs_node *buf;
	uint64_t direct, indirect, b = fofs;
	uint32_t nid, ofs, slot;
	int top, err;

	*ret_blkaddr = ZF2FS_NULL_ADDR;
	if (zf2fs_inode_geometry2(bg, &inode->i, vol->info.features, &g))
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "inode %u: extra attribute or "
			    "inline xattr size is impossible", ino);
	if (inode->i.i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY))
		return zf2fs_set_why(why, whylen, -EINVAL, "inode %u keeps its data inline", ino);
	if (b < g.addrs) {
		*ret_blkaddr = zf2fs_le32_to_cpu(zf2fs_inode_addrs(inode)[g.extra_words + b]);
		return 0;
	}
	direct = g.addrs_per_block;
	indirect = direct * n;
	b -= g.addrs;
	/* pick the top-level pointer and the remaining offset below it */
	if (b < direct) {
		top = 0;
	} else if ((b -= direct) < direct) {
		top = 1;
	} else if ((b -= direct) < indirect) {
		top = 2;
	} else if ((b -= indirect) < indirect) {
		top = 3;
	} else if ((b -= indirect) < indirect * n) {
		top = 4;
	} else {
		return zf2fs_set_why(why, whylen, -ERANGE, "inode %u: block %llu is beyond the largest "
			    "file", ino, (unsigned long long)fofs);
	}
	nid = zf2fs_le32_to_cpu(zf2fs_inode_nids(bg, inode)[top]);
	if (!nid)
		return 0;
	buf = malloc(bg->blocksize);
	if (!buf)
		return -ENOMEM;
	switch (top) {
	case 0:
	case 1:
		err = tree_node(vol, ino, nid, ZF2FS_OFS_DIR1 + (uint32_t)top, buf, why, whylen);
		slot = (uint32_t)b;
		break;
	case 2:
	case 3:
		ofs = top == 2 ? ZF2FS_OFS_IND1 : zf2fs_geom_ofs_ind2(bg);
		err = tree_node(vol, ino, nid, ofs, buf, why, whylen);
		if (err)
			break;
		nid = zf2fs_le32_to_cpu(zf2fs_node_words(buf)[b / direct]);
		if (!nid)
			goto out;
		err = tree_node(vol, ino, nid, ofs + 1 + (uint32_t)(b / direct), buf, why, whylen);
		slot = (uint32_t)(b % direct);
		break;
	default: {
		uint64_t i = b / indirect, j = (b / direct) % n;

		err = tree_node(vol, ino, nid, zf2fs_geom_ofs_dind(bg), buf, why, whylen);
		if (err)
			break;
		nid = zf2fs_le32_to_cpu(zf2fs_node_words(buf)[i]);
		if (!nid)
			goto out;
		ofs = zf2fs_geom_ofs_dind(bg) + 1 + (uint32_t)(i * (n + 1));
		err = tree_node(vol, ino, nid, ofs, buf, why, whylen);
		if (err)
			break;
		nid = zf2fs_le32_to_cpu(zf2fs_node_words(buf)[j]);
		if (!nid)
			goto out;
		err = tree_node(vol, ino, nid, ofs + 1 + (uint32_t)j, buf, why, whylen);
		slot = (uint32_t)(b % direct);
		break;
	}
	}
	if (!err)
		*ret_blkaddr = zf2fs_le32_to_cpu(zf2fs_node_words(buf)[slot]);
out:
	free(buf);
	return err;
}

/* ---- contents ------------------------------------------------------------------------ */
struct reader {
	struct zf2fs_vol *vol;
	zf2fs_file_sink sink;
	void *arg;
	uint64_t size;          /* i_size */
	uint64_t done;          /* bytes handed to the sink so far */
	uint64_t run_fofs;      /* pending run of consecutive blocks */
	uint32_t run_addr, run_len;
	uint8_t *buf;           /* RUN_MAX blocks */
	char *why;
	size_t whylen;
	uint32_t ino;
};

int zf2fs_file_hole_to(zf2fs_file_sink sink, void *arg, uint64_t size, uint64_t *done,
		       uint64_t off)
{
	uint64_t from = *done;

	if (off > size)
		off = size;
	if (off <= from)
		return 0;
	*done = off;
	return sink(arg, from, NULL, off - from);
}

static int emit_hole_to(struct reader *r, uint64_t off)
{
	return zf2fs_file_hole_to(r->sink, r->arg, r->size, &r->done, off);
}

static int flush_run(struct reader *r)
{
	const uint32_t bs = r->vol->geom.blocksize;
	uint64_t off = r->run_fofs * bs;
	uint64_t len = (uint64_t)r->run_len * bs;
	int err;

	if (!r->run_len)
		return 0;
	r->run_len = 0;
	err = emit_hole_to(r, off);
	if (err)
		return err;
	err = zf2fs_vol_read_blocks(r->vol, r->run_addr, (uint32_t)(len / bs), r->buf);
	if (err)
		return zf2fs_set_why(r->why, r->whylen, err, "inode %u: %s while reading blocks %u..%llu",
			    r->ino, strerror(-err), r->run_addr,
			    (unsigned long long)(r->run_addr + len / bs - 1));
	if (off + len > r->size)
		len = r->size - off;
	err = r->sink(r->arg, off, r->buf, (size_t)len);
	r->done = off + len;
	return err;
}

static int read_data(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
		     uint32_t ofs_in_node)
{
	struct reader *r = arg;
	const struct zf2fs_vol_info *in = &r->vol->info;
	int err;

	if (fofs * r->vol->geom.blocksize >= r->size)
		return 0;   /* preallocated past the end */
	if (blkaddr == ZF2FS_NEW_ADDR)
		return 0;   /* reserved, never written: reads as zeros */
	if (blkaddr < in->main_blkaddr || blkaddr >= in->main_end)
		return zf2fs_set_why(r->why, r->whylen, -ZF2FS_EFSCORRUPTED, "inode %u: block %llu (node "
			    "%u slot %u) has address %u outside the main area", r->ino,
			    (unsigned long long)fofs, owner, ofs_in_node, blkaddr);
	if (r->run_len && r->run_len < RUN_MAX && fofs == r->run_fofs + r->run_len &&
	    blkaddr == r->run_addr + r->run_len) {
		r->run_len++;
		return 0;
	}
	err = flush_run(r);
	if (err)
		return err;
	r->run_fofs = fofs;
	r->run_addr = blkaddr;
	r->run_len = 1;
	return 0;
}

static int read_bad(void *arg, uint32_t nid, uint32_t parent, uint32_t slot, uint32_t ofs,
		    const char *why)
{
	(void)slot;
	struct reader *r = arg;

	return zf2fs_set_why(r->why, r->whylen, -ZF2FS_EFSCORRUPTED, "inode %u: node %u (offset %u, "
		    "below %u): %s", r->ino, nid, ofs, parent, why);
}

ZF2FS_EXPORT int zf2fs_file_read(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				 zf2fs_file_sink sink, void *arg, char *why, size_t whylen)
{
	const struct zf2fs_walk_ops ops = { .data = read_data, .bad = read_bad };
	struct reader r = { .vol = vol, .sink = sink, .arg = arg, .why = why, .whylen = whylen };
	struct zf2fs_inode_geom g;
	uint32_t mode = (uint32_t)zf2fs_get(inode->i.i_mode);
	int err;

	r.ino = (uint32_t)zf2fs_get(zf2fs_node_footer(&vol->geom, inode)->ino);
	r.size = zf2fs_get(inode->i.i_size);
	if (zf2fs_mode_type(mode) != ZF2FS_S_IFREG && zf2fs_mode_type(mode) != ZF2FS_S_IFLNK)
		return zf2fs_set_why(why, whylen, -EINVAL, "inode %u is neither a regular file nor a "
			    "symlink (mode 0%o)", r.ino, mode);
	if (zf2fs_inode_geometry2(&vol->geom, &inode->i, vol->info.features, &g))
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "inode %u: extra attribute or "
			    "inline xattr size is impossible", r.ino);
	if (inode->i.i_advise & ZF2FS_ADVISE_ENCRYPT)
		return zf2fs_set_why(why, whylen, -EOPNOTSUPP, "inode %u is encrypted: its contents cannot "
			    "be read without the key", r.ino);
	if (g.compressed)
		return compr_file_read(vol, inode, &g, sink, arg, why, whylen);
	if (inode->i.i_inline & ZF2FS_INLINE_DATA) {
		const uint8_t *data = (const uint8_t *)zf2fs_inode_addrs(inode) +
				      4 * ((size_t)g.extra_words + 1);

		if (r.size > g.inline_bytes)
			return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "inode %u: inline size %llu "
				    "exceeds the %u bytes the inode holds", r.ino,
				    (unsigned long long)r.size, g.inline_bytes);
		return r.size ? sink(arg, 0, data, (size_t)r.size) : 0;
	}
	r.buf = malloc((size_t)RUN_MAX * vol->geom.blocksize);
	if (!r.buf)
		return -ENOMEM;
	err = zf2fs_file_walk(vol, inode, &ops, &r);
	if (!err)
		err = flush_run(&r);
	if (!err)
		err = emit_hole_to(&r, r.size);
	free(r.buf);
	return err;
}

/* ---- names ---------------------------------------------------------------------------- */
/* Search one dentry area; 1 found, 0 not. */
static int scan_for(const struct zf2fs_dentry_view *v, const char *name, size_t len,
		    uint32_t hash, bool use_hash, uint32_t *ino, uint8_t *type)
{
	for (uint32_t i = 0; i < v->nr;) {
		const struct zf2fs_dir_entry *de = &v->dentry[i];
		uint32_t nlen, slots;

		if (!zf2fs_dentry_slot_used(v, i)) {
			i++;
			continue;
		}
		nlen = (uint32_t)zf2fs_get(de->name_len);
		slots = zf2fs_dentry_slots(nlen);
		if (!nlen || nlen > ZF2FS_NAME_LEN || i + slots > v->nr)
			return 0;   /* damaged slot: nothing after it can be trusted */
		if (nlen == len && (!use_hash || zf2fs_get(de->hash_code) == hash) &&
		    !memcmp(v->filename[i], name, len)) {
			*ino = (uint32_t)zf2fs_get(de->ino);
			*type = de->file_type;
			return 1;
		}
		i += slots;
	}
	return 0;
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

ZF2FS_EXPORT size_t zf2fs_enc_name(const uint8_t *name, size_t len, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 5;

	if (len > ZF2FS_NAME_LEN)
		len = ZF2FS_NAME_LEN;
	memcpy(buf, "{enc:", 5);
	for (size_t i = 0; i < len; i++) {
		buf[n++] = hex[name[i] >> 4];
		buf[n++] = hex[name[i] & 15];
	}
	buf[n++] = '}';
	buf[n] = 0;
	return n;
}

/* The bytes "{enc:HEX}" (@len bytes at @s) names, into @ret: 1; 0 when @s is not of that
 * form; -EINVAL when HEX is not an even number of hex digits for 1 to 255 bytes. */
static int parse_enc(const char *s, size_t len, uint8_t *ret, size_t *ret_len)
{
	size_t n;

	if (len < 6 || memcmp(s, "{enc:", 5) || s[len - 1] != '}')
		return 0;
	s += 5;
	len -= 6;
	if (!len || len % 2 || len / 2 > ZF2FS_NAME_LEN)
		return -EINVAL;
	for (n = 0; n < len / 2; n++) {
		int hi = hexval(s[2 * n]), lo = hexval(s[2 * n + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		ret[n] = (uint8_t)(hi << 4 | lo);
	}
	*ret_len = n;
	return 1;
}

ZF2FS_EXPORT int zf2fs_dir_lookup(struct zf2fs_vol *vol, const struct zf2fs_node *dir,
				  const char *name, size_t len, uint32_t *ret_ino,
				  uint8_t *ret_type, char *why, size_t whylen)
{
	uint8_t raw[ZF2FS_NAME_LEN];
	size_t rawlen = 0, shown_len = len;
	const char *shown = name;
	uint32_t dino = (uint32_t)zf2fs_get(zf2fs_node_footer(&vol->geom, dir)->ino);
	uint32_t hash, depth, dir_level = dir->i.i_dir_level, ino = 0;
	uint64_t nblocks;
	bool use_hash = !(zf2fs_get(dir->i.i_flags) & ZF2FS_CASEFOLD_FL);
	struct zf2fs_bucket_iter it;
	struct zf2fs_dentry_view v;
	uint8_t type = 0, *blk;
	int found = 0, err = 0;

	if (zf2fs_inode_type(&dir->i) != ZF2FS_S_IFDIR)
		return zf2fs_set_why(why, whylen, -ENOTDIR, "inode %u is not a directory", dino);
	/* an encrypted directory's names are ciphertext: a name is given as the hex of its
	 * stored bytes; the kernel hashes those bytes, unless the directory is casefolded
	 * too (then a keyed hash: every bucket is searched) */
	if ((dir->i.i_advise & ZF2FS_ADVISE_ENCRYPT) &&
	    !(len == 1 && name[0] == '.') && !(len == 2 && name[0] == '.' && name[1] == '.')) {
		int r = parse_enc(name, len, raw, &rawlen);

		if (r == 0)
			return zf2fs_set_why(why, whylen, -EOPNOTSUPP, "directory %u is encrypted: "
					     "name its entries as {enc:HEX}, as --ls shows them", dino);
		if (r < 0)
			return zf2fs_set_why(why, whylen, -EINVAL, "\"%.*s\" in directory %u: not "
					     "{enc:HEX} (an even number of hex digits, 1 to %d bytes)",
					     (int)len, name, dino, ZF2FS_NAME_LEN);
		name = (const char *)raw;
		len = rawlen;
	}
	if (!len || len > ZF2FS_NAME_LEN)
		return zf2fs_set_why(why, whylen, len ? -ENAMETOOLONG : -ENOENT, "bad name length %zu", len);
	hash = zf2fs_dentry_hash(name, len);
	if (dir->i.i_inline & ZF2FS_INLINE_DENTRY) {
		if (zf2fs_dentry_view_inline2(&vol->geom, dir, vol->info.features, &v))
			return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "directory %u: the inline "
				    "dentry area does not fit the inode", dino);
		found = scan_for(&v, name, len, hash, use_hash, &ino, &type);
		goto out;
	}
	if (dir_level > ZF2FS_MAX_DIR_HASH_DEPTH)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "directory %u: i_dir_level %u is "
			    "impossible", dino, dir_level);
	depth = (uint32_t)zf2fs_get(dir->i.i_current_depth);
	nblocks = (zf2fs_get(dir->i.i_size) + vol->geom.blocksize - 1) >> vol->geom.log_blocksize;
	if (use_hash)
		zf2fs_bucket_iter_init(&it, hash, dir_level, depth, nblocks);
	else
		zf2fs_bucket_iter_all(&it, dir_level, depth, nblocks);
	blk = malloc(vol->geom.blocksize);
	if (!blk)
		return -ENOMEM;
	while (!found && zf2fs_bucket_iter_next(&it)) {
		uint32_t addr;

		err = zf2fs_file_bmap(vol, dir, it.block, &addr, why, whylen);
		if (err)
			break;
		if (addr == ZF2FS_NULL_ADDR || addr == ZF2FS_NEW_ADDR)
			continue;
		if (addr < vol->info.main_blkaddr || addr >= vol->info.main_end) {
			err = zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "directory %u: block %llu "
					    "has address %u outside the main area", dino,
					    (unsigned long long)it.block, addr);
			break;
		}
		err = zf2fs_vol_read_block(vol, addr, blk);
		if (err)
			break;
		zf2fs_dentry_view_block2(&vol->geom, blk, &v);
		found = scan_for(&v, name, len, hash, use_hash, &ino, &type);
	}
	free(blk);
	if (err)
		return err;
out:
	if (!found)
		return zf2fs_set_why(why, whylen, -ENOENT, "no entry \"%.*s\" in directory %u",
				     (int)shown_len, shown, dino);
	*ret_ino = ino;
	if (ret_type)
		*ret_type = type;
	return 0;
}

/* ---- paths ---------------------------------------------------------------------------- */
struct bounded_buf {
	uint8_t *p;
	size_t len, cap;
};

static int bounded_sink(void *arg, uint64_t off, const void *data, size_t len)
{
	struct bounded_buf *b = arg;

	if (off + len > b->cap)
		return -EFBIG;
	if (data)
		memcpy(b->p + off, data, len);
	else
		memset(b->p + off, 0, len);
	b->len = (size_t)(off + len);
	return 0;
}

ZF2FS_EXPORT int zf2fs_file_read_buf(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				     void *buf, size_t cap, size_t *ret_len, char *why,
				     size_t whylen)
{
	struct bounded_buf b = { .p = buf, .cap = cap };
	int err = zf2fs_file_read(vol, inode, bounded_sink, &b, why, whylen);

	*ret_len = b.len;
	return err;
}

#define PATH_MAX_BYTES 4096

ZF2FS_EXPORT int zf2fs_path_lookup(struct zf2fs_vol *vol, const char *path, int flags,
				   uint32_t *ret_ino, char *why, size_t whylen)
{
	uint32_t root = (uint32_t)zf2fs_get(vol->sb.root_ino), cur = root;
	struct zf2fs_node *node = malloc(vol->geom.blocksize);
	char *rest = malloc(2 * PATH_MAX_BYTES + 2), *tmp = malloc(2 * PATH_MAX_BYTES + 2);
	char *target = malloc(PATH_MAX_BYTES);
	size_t target_len;
	int links = 0, err = 0;
	size_t pos = 0;

	if (!node || !rest || !tmp || !target) {
		err = -ENOMEM;
		goto out;
	}
	if (strlen(path) > PATH_MAX_BYTES) {
		err = zf2fs_set_why(why, whylen, -ENAMETOOLONG, "path is longer than %d bytes",
			   PATH_MAX_BYTES);
		goto out;
	}
	strcpy(rest, path);
	for (;;) {
		size_t start, len;
		uint32_t next;
		uint8_t type;
		bool last;

		while (rest[pos] == '/')
			pos++;
		if (!rest[pos])
			break;
		start = pos;
		while (rest[pos] && rest[pos] != '/')
			pos++;
		len = pos - start;
		last = true;
		for (size_t k = pos; rest[k]; k++)
			if (rest[k] != '/') {
				last = false;
				break;
			}
		err = zf2fs_inode_read(vol, cur, node, NULL, why, whylen);
		if (err)
			goto out;
		err = zf2fs_dir_lookup(vol, node, rest + start, len, &next, &type, why, whylen);
		if (err)
			goto out;
		if (type == ZF2FS_FT_SYMLINK && (!last || (flags & ZF2FS_LOOKUP_FOLLOW))) {
			if (++links > MAX_LINKS_FOLLOWED) {
				err = zf2fs_set_why(why, whylen, -ELOOP, "more than %d symlinks in the path",
					   MAX_LINKS_FOLLOWED);
				goto out;
			}
			err = zf2fs_inode_read(vol, next, node, NULL, why, whylen);
			if (err)
				goto out;
			err = zf2fs_file_read_buf(vol, node, target, PATH_MAX_BYTES - 1, &target_len, why,
						  whylen);
			if (err == -EFBIG)
				err = zf2fs_set_why(why, whylen, -ENAMETOOLONG, "symlink %u is too long",
						    next);
			if (err)
				goto out;
			target[target_len] = 0;
			if (strlen(target) + strlen(rest + pos) + 2 > 2 * PATH_MAX_BYTES) {
				err = zf2fs_set_why(why, whylen, -ENAMETOOLONG, "path grows too long through "
					   "symlink %u", next);
				goto out;
			}
			/* splice: target, then what is left of the path */
			{
				size_t tl = strlen(target), rl = strlen(rest + pos);
				char *swap = rest;

				memcpy(tmp, target, tl);
				tmp[tl] = '/';
				memcpy(tmp + tl + 1, rest + pos, rl + 1);
				rest = tmp;
				tmp = swap;
			}
			pos = 0;
			if (target[0] == '/')
				cur = root;
			continue;
		}
		if (!last && type != ZF2FS_FT_DIR) {
			err = zf2fs_set_why(why, whylen, -ENOTDIR, "\"%.*s\" is not a directory", (int)len,
				   rest + start);
			goto out;
		}
		cur = next;
	}
	*ret_ino = cur;
out:
	free(node);
	free(rest);
	free(tmp);
	free(target);
	return err;
}
