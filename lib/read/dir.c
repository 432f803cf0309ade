// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dir.c - directory entries, in dentry blocks and inline in the inode.
 *
 * Both forms are a bitmap of slots, an array of 11-byte entries and an array of 8-byte
 * name slots; a name longer than 8 bytes takes consecutive slots.  An inline directory
 * sizes the three arrays to fit what the inode leaves free.  Iteration bounds every name
 * by the slots that remain, so a damaged entry ends the scan of its block, never reads
 * past it.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/format.h"
#include "read/volume_p.h"

ZF2FS_EXPORT void zf2fs_dentry_view_block2(const struct zf2fs_geom *bg, const void *blk,
					   struct zf2fs_dentry_view *v)
{
	const uint8_t *d = blk;

	/* bitmap, reserved bytes, entries, names: their places are the geometry's */
	v->bitmap = d;
	v->dentry = (const struct zf2fs_dir_entry *)(d + bg->dentry_entries_offset);
	v->filename = (const uint8_t (*)[ZF2FS_SLOT_LEN])(d + bg->dentry_names_offset);
	v->nr = bg->dentry_per_block;
}

ZF2FS_EXPORT void zf2fs_dentry_view_block(const void *blk, struct zf2fs_dentry_view *v)
{
	zf2fs_dentry_view_block2(zf2fs_geom_4k(), blk, v);
}

ZF2FS_EXPORT int zf2fs_dentry_view_inline2(const struct zf2fs_geom *bg,
					   const struct zf2fs_node *inode, uint32_t features,
					   struct zf2fs_dentry_view *v)
{
	struct zf2fs_inode_geom g;
	const uint8_t *base;
	uint32_t nr, bitmap;

	if (zf2fs_inode_geometry2(bg, &inode->i, features, &g))
		return -ZF2FS_EFSCORRUPTED;
	/* one reserved word, then bitmap, padding, entries and names */
	base = (const uint8_t *)zf2fs_inode_addrs(inode) + 4 * ((size_t)g.extra_words + 1);
	nr = g.inline_bytes * 8 / ((ZF2FS_DIR_ENTRY_SIZE + ZF2FS_SLOT_LEN) * 8 + 1);
	bitmap = (nr + 7) / 8;
	v->bitmap = base;
	v->dentry = (const struct zf2fs_dir_entry *)(base + g.inline_bytes -
		    nr * (ZF2FS_DIR_ENTRY_SIZE + ZF2FS_SLOT_LEN));
	v->filename = (const uint8_t (*)[ZF2FS_SLOT_LEN])((const uint8_t *)v->dentry +
		      nr * ZF2FS_DIR_ENTRY_SIZE);
	v->nr = nr;
	(void)bitmap;
	return 0;
}

ZF2FS_EXPORT int zf2fs_dentry_view_inline(const struct zf2fs_node *inode, uint32_t features,
					  struct zf2fs_dentry_view *v)
{
	return zf2fs_dentry_view_inline2(zf2fs_geom_4k(), inode, features, v);
}

ZF2FS_EXPORT uint8_t zf2fs_mode_to_ftype(uint32_t mode)
{
	switch (zf2fs_mode_type(mode)) {
	case ZF2FS_S_IFREG: return ZF2FS_FT_REG_FILE;
	case ZF2FS_S_IFDIR: return ZF2FS_FT_DIR;
	case ZF2FS_S_IFCHR: return ZF2FS_FT_CHRDEV;
	case ZF2FS_S_IFBLK: return ZF2FS_FT_BLKDEV;
	case ZF2FS_S_IFIFO: return ZF2FS_FT_FIFO;
	case ZF2FS_S_IFSOCK: return ZF2FS_FT_SOCK;
	case ZF2FS_S_IFLNK: return ZF2FS_FT_SYMLINK;
	default: return ZF2FS_FT_UNKNOWN;
	}
}

ZF2FS_EXPORT uint32_t zf2fs_ftype_to_mode(uint8_t ftype, uint32_t mode)
{
	static const uint32_t fmt[ZF2FS_FT_MAX] = {
		[ZF2FS_FT_REG_FILE] = ZF2FS_S_IFREG, [ZF2FS_FT_DIR] = ZF2FS_S_IFDIR,
		[ZF2FS_FT_CHRDEV] = ZF2FS_S_IFCHR, [ZF2FS_FT_BLKDEV] = ZF2FS_S_IFBLK,
		[ZF2FS_FT_FIFO] = ZF2FS_S_IFIFO, [ZF2FS_FT_SOCK] = ZF2FS_S_IFSOCK,
		[ZF2FS_FT_SYMLINK] = ZF2FS_S_IFLNK,
	};

	if (ftype >= ZF2FS_FT_MAX || !fmt[ftype])
		return mode;
	return (mode & ~ZF2FS_S_IFMT) | fmt[ftype];
}

ZF2FS_EXPORT bool zf2fs_dentry_slot_used(const struct zf2fs_dentry_view *v, uint32_t slot)
{
	return slot < v->nr && zf2fs_dentry_bit_test(v->bitmap, slot);
}

/* The blocks of bucket it->bucket of level it->level. */
static void bucket_blocks(struct zf2fs_bucket_iter *it)
{
	it->next = zf2fs_dir_bucket_start(it->level, it->dir_level, it->bucket);
	it->end = it->next + zf2fs_dir_bucket_blocks(it->level);
}

/* The buckets of level it->level the walk takes, and the first one's blocks. */
static void level_buckets(struct zf2fs_bucket_iter *it)
{
	uint64_t n = zf2fs_dir_buckets(it->level, it->dir_level);

	it->bucket = it->every ? 0 : zf2fs_dir_hash_bucket(it->hash, it->level, it->dir_level);
	it->last = it->every ? n - 1 : it->bucket;
	bucket_blocks(it);
}

static void iter_start(struct zf2fs_bucket_iter *it, uint32_t hash, bool every,
		       uint32_t dir_level, uint32_t depth, uint64_t nblocks)
{
	*it = (struct zf2fs_bucket_iter){
		.depth = depth < ZF2FS_MAX_DIR_HASH_DEPTH ? depth : ZF2FS_MAX_DIR_HASH_DEPTH,
		.dir_level = dir_level, .hash = hash, .every = every, .nblocks = nblocks,
	};
	if (it->depth)
		level_buckets(it);
}

ZF2FS_EXPORT void zf2fs_bucket_iter_init(struct zf2fs_bucket_iter *it, uint32_t hash,
					 uint32_t dir_level, uint32_t depth, uint64_t nblocks)
{
	iter_start(it, hash, false, dir_level, depth, nblocks);
}

ZF2FS_EXPORT void zf2fs_bucket_iter_all(struct zf2fs_bucket_iter *it, uint32_t dir_level,
					uint32_t depth, uint64_t nblocks)
{
	iter_start(it, 0, true, dir_level, depth, nblocks);
}

ZF2FS_EXPORT bool zf2fs_bucket_iter_next(struct zf2fs_bucket_iter *it)
{
	while (it->next == it->end) {
		if (it->bucket < it->last) {
			it->bucket++;   /* the buckets of a level follow each other */
			it->end += zf2fs_dir_bucket_blocks(it->level);
		} else if (it->level + 1 < it->depth) {
			it->level++;
			level_buckets(it);
		} else {
			return false;
		}
	}
	if (it->next >= it->nblocks)
		return false;
	it->block = it->next++;
	return true;
}

ZF2FS_EXPORT int zf2fs_dentry_view_scan(const struct zf2fs_dentry_view *v, int64_t block,
				       int (*fn)(void *, const struct zf2fs_dentry_info *),
				       int (*bad)(void *, int64_t, uint32_t, const char *),
				       void *arg)
{
	for (uint32_t i = 0; i < v->nr;) {
		const struct zf2fs_dir_entry *de = &v->dentry[i];
		struct zf2fs_dentry_info d;
		uint32_t len, slots;
		char why[96];
		int r;

		if (!zf2fs_dentry_slot_used(v, i)) {
			i++;
			continue;
		}
		len = (uint32_t)zf2fs_get(de->name_len);
		slots = zf2fs_dentry_slots(len);
		if (len == 0 || len > ZF2FS_NAME_LEN || i + slots > v->nr) {
			snprintf(why, sizeof(why), "name length %u does not fit (slot %u of %u)", len,
				 i, v->nr);
			return bad ? bad(arg, block, i, why) : 0;
		}
		d.name = v->filename[i];
		d.name_len = len;
		d.ino = (uint32_t)zf2fs_get(de->ino);
		d.hash = (uint32_t)zf2fs_get(de->hash_code);
		d.type = de->file_type;
		d.slot = i;
		d.block = block;
		r = fn(arg, &d);
		if (r)
			return r;
		i += slots;
	}
	return 0;
}

struct dir_walk {
	struct zf2fs_vol *vol;
	int (*fn)(void *, const struct zf2fs_dentry_info *);
	int (*bad)(void *, int64_t, uint32_t, const char *);
	void *arg;
	uint8_t *blk;
};

static int dir_block(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
		     uint32_t ofs_in_node)
{
	struct dir_walk *w = arg;
	struct zf2fs_dentry_view v;
	int err;

	(void)owner;
	(void)ofs_in_node;
	if (blkaddr == ZF2FS_NEW_ADDR)
		return 0;   /* reserved, never written: reads as an empty block */
	if (blkaddr < w->vol->info.main_blkaddr || blkaddr >= w->vol->info.main_end)
		return w->bad ? w->bad(w->arg, (int64_t)fofs, 0, "dentry block address outside "
				       "the main area") : 0;
	err = zf2fs_vol_read_block(w->vol, blkaddr, w->blk);
	if (err)
		return err;
	zf2fs_dentry_view_block2(&w->vol->geom, w->blk, &v);
	return zf2fs_dentry_view_scan(&v, (int64_t)fofs, w->fn, w->bad, w->arg);
}

ZF2FS_EXPORT int zf2fs_dir_iterate(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				   int (*fn)(void *, const struct zf2fs_dentry_info *),
				   int (*bad)(void *, int64_t, uint32_t, const char *), void *arg)
{
	struct dir_walk w = { .vol = vol, .fn = fn, .bad = bad, .arg = arg };
	const struct zf2fs_walk_ops ops = { .data = dir_block };
	struct zf2fs_dentry_view v;
	int r;

	if (inode->i.i_inline & ZF2FS_INLINE_DENTRY) {
		if (zf2fs_dentry_view_inline2(&vol->geom, inode, vol->info.features, &v))
			return bad ? bad(arg, -1, 0, "inline dentry area does not fit the inode") : 0;
		return zf2fs_dentry_view_scan(&v, -1, fn, bad, arg);
	}
	w.blk = malloc(vol->geom.blocksize);
	if (!w.blk)
		return -ENOMEM;
	r = zf2fs_file_walk(vol, inode, &ops, &w);
	free(w.blk);
	return r;
}
