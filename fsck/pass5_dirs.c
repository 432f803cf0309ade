// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass5_dirs.c - pass 5: the entries of one directory.
 *
 * For every used slot of every dentry block (or of the inline dentry area): the name must
 * fit its slots and hold neither '/' nor NUL; its hash must be the kernel's hash of the name
 * (not checked in casefolded or encrypted directories, whose hash needs the folded or
 * plain name); it must sit in the hash bucket its hash selects; it must name an existing
 * inode, with the file type of that inode; a directory may be named once.  "." and ".."
 * must be present, and a directory's i_pino must name its parent.  Children are handed to
 * pass 4 (visit_child), which checks them and queues subdirectories.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/endian.h"

#define F2FS_ENCRYPT_FL 0x00000800u

struct dscan {
	struct fsck_ctx *ctx;
	uint32_t ino, depth, dir_level;
	bool check_hash, saw_dot, saw_dotdot;
	uint32_t (*visit)(struct fsck_ctx *, uint32_t, uint32_t, uint8_t);
	uint8_t *blk;
};

static uint64_t buckets_at(uint32_t level, uint32_t dir_level)
{
	return level + dir_level < ZF2FS_MAX_DIR_HASH_DEPTH / 2 ? 1ull << (level + dir_level) :
	       1ull << (ZF2FS_MAX_DIR_HASH_DEPTH / 2 - 1);
}

static uint32_t blocks_per_bucket(uint32_t level)
{
	return level < ZF2FS_MAX_DIR_HASH_DEPTH / 2 ? 2 : 4;
}

/* Level and bucket of dentry block @bidx; false beyond the deepest level. */
static bool locate_bucket(uint64_t bidx, uint32_t dir_level, uint32_t *ret_level,
			  uint64_t *ret_bucket)
{
	uint64_t start = 0;

	for (uint32_t l = 0; l < ZF2FS_MAX_DIR_HASH_DEPTH; l++) {
		uint64_t n = buckets_at(l, dir_level) * blocks_per_bucket(l);

		if (bidx < start + n) {
			*ret_level = l;
			*ret_bucket = (bidx - start) / blocks_per_bucket(l);
			return true;
		}
		start += n;
	}
	return false;
}

static bool name_ok(const uint8_t *name, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (name[i] == '/' || name[i] == 0)
			return false;
	return true;
}

struct area {
	int64_t bidx;
	uint32_t blkaddr, owner, ofs_in_node;
};

/* A writable view of the area being scanned: the copy that repair will write. */
static int writable_area(struct dscan *d, const struct area *a, struct zf2fs_dentry_view *v)
{
	if (a->bidx < 0) {
		struct zf2fs_node *n = repair_node(d->ctx, d->ino);

		if (!n)
			return -ENOMEM;
		return zf2fs_dentry_view_inline(n, d->ctx->vi->features, v);
	} else {
		void *buf;
		int err = repair_data_block(d->ctx, a->owner, a->ofs_in_node, a->blkaddr, &buf);

		if (err)
			return err;
		zf2fs_dentry_view_block(buf, v);
		return 0;
	}
}

static void clear_slots(struct zf2fs_dentry_view *v, uint32_t slot, uint32_t n)
{
	uint8_t *bm = (uint8_t *)v->bitmap;

	for (uint32_t i = slot; i < slot + n && i < v->nr; i++)
		bm[i / 8] &= (uint8_t)~(1u << (i % 8));
}

static int scan_area(struct dscan *d, const struct zf2fs_dentry_view *v, const struct area *a)
{
	struct fsck_ctx *ctx = d->ctx;
	uint32_t level = 0;
	uint64_t bucket = 0;
	bool have_bucket = a->bidx >= 0 &&
			   locate_bucket((uint64_t)a->bidx, d->dir_level, &level, &bucket);

	for (uint32_t i = 0; i < v->nr && !ctx->abort;) {
		const struct zf2fs_dir_entry *de = &v->dentry[i];
		uint32_t len = (uint32_t)zf_get(de->name_len);
		uint32_t slots = (len + ZF2FS_SLOT_LEN - 1) / ZF2FS_SLOT_LEN;
		uint32_t child = (uint32_t)zf_get(de->ino), hash = (uint32_t)zf_get(de->hash_code);
		const uint8_t *name = v->filename[i];
		char shown[ZF2FS_NAME_LEN + 1];
		struct problem_ctx p = { .parent = d->ino, .ino = child, .num = i, .str = shown };
		struct zf2fs_dentry_view w;
		uint32_t verdict;

		if (!zf2fs_dentry_slot_used(v, i)) {
			i++;
			continue;
		}
		if (len == 0 || len > ZF2FS_NAME_LEN || i + slots > v->nr) {
			snprintf(shown, sizeof(shown), "length %u", len);
			if (fix_problem(ctx, PR_5_DENTRY_NAME_BAD, &p) && !writable_area(d, a, &w))
				clear_slots(&w, i, 1);
			i++;
			continue;
		}
		memcpy(shown, name, len);
		shown[len] = 0;
		if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.')) {
			uint32_t want = len == 1 ? d->ino : dir_parent(ctx, d->ino);

			if (len == 1)
				d->saw_dot = true;
			else
				d->saw_dotdot = true;
			if (want && child != want) {
				struct problem_ctx q = { .ino = d->ino, .str = shown, .num = child,
							 .num2 = want };

				if (fix_problem(ctx, PR_5_DIR_DOT_WRONG, &q) && !writable_area(d, a, &w))
					zf_set(((struct zf2fs_dir_entry *)w.dentry)[i].ino, want);
			}
			i += slots;
			continue;
		}
		if (!name_ok(name, len)) {
			if (fix_problem(ctx, PR_5_DENTRY_NAME_BAD, &p) && !writable_area(d, a, &w))
				clear_slots(&w, i, slots);
			i += slots;
			continue;
		}
		if (d->check_hash) {
			uint32_t want = zf2fs_dentry_hash(name, len);

			if (want != hash) {
				p.num = hash;
				p.num2 = want;
				if (fix_problem(ctx, PR_5_DENTRY_HASH_BAD, &p) && !writable_area(d, a, &w))
					zf_set(((struct zf2fs_dir_entry *)w.dentry)[i].hash_code, want);
				hash = want;
			}
			if (have_bucket && hash % buckets_at(level, d->dir_level) != bucket) {
				p.num = bucket;
				p.num2 = hash % buckets_at(level, d->dir_level);
				fix_problem(ctx, PR_5_DENTRY_BUCKET_BAD, &p);
			}
		}
		verdict = d->visit(ctx, child, d->ino, de->file_type);
		if ((verdict & 0xff) == 1) {
			if (fix_problem(ctx, PR_5_DENTRY_BAD_INO, &p) && !writable_area(d, a, &w))
				clear_slots(&w, i, slots);
		} else if ((verdict & 0xff) == 2) {
			p.ino = child;
			if (fix_problem(ctx, PR_5_DIR_MULTI_PARENT, &p) && !writable_area(d, a, &w))
				clear_slots(&w, i, slots);
		} else if ((verdict >> 8) != de->file_type) {
			p.num = de->file_type;
			p.num2 = verdict >> 8;
			if (fix_problem(ctx, PR_5_DENTRY_TYPE_BAD, &p) && !writable_area(d, a, &w))
				((struct zf2fs_dir_entry *)w.dentry)[i].file_type = (uint8_t)(verdict >> 8);
		}
		i += slots;
	}
	return 0;
}

static int dir_block(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
		     uint32_t ofs_in_node)
{
	struct dscan *d = arg;
	struct zf2fs_dentry_view v;
	struct area a = { .bidx = (int64_t)fofs, .blkaddr = blkaddr, .owner = owner,
			  .ofs_in_node = ofs_in_node };
	int err;

	if (!blk_in_main(d->ctx, blkaddr))
		return 0;   /* reported by pass 4 */
	err = zf2fs_vol_read_block(d->ctx->vol, blkaddr, d->blk);
	if (err)
		return err;
	zf2fs_dentry_view_block(d->blk, &v);
	return scan_area(d, &v, &a);
}

int pass5_check_dir(struct fsck_ctx *ctx, uint32_t ino, struct zf2fs_node *inode,
		    uint32_t (*visit)(struct fsck_ctx *, uint32_t, uint32_t, uint8_t))
{
	uint32_t flags = (uint32_t)zf_get(inode->i.i_flags);
	struct dscan d = {
		.ctx = ctx, .ino = ino, .visit = visit,
		.depth = (uint32_t)zf_get(inode->i.i_current_depth),
		.dir_level = inode->i.i_dir_level,
		.check_hash = !(flags & (ZF2FS_CASEFOLD_FL | F2FS_ENCRYPT_FL)),
	};
	struct problem_ctx p = { .ino = ino };
	int err;

	if (inode->i.i_inline & ZF2FS_INLINE_DENTRY) {
		struct zf2fs_dentry_view v;
		struct area a = { .bidx = -1 };

		if (zf2fs_dentry_view_inline(inode, ctx->vi->features, &v))
			return 0;   /* reported by pass 4 as bad geometry */
		err = scan_area(&d, &v, &a);
	} else {
		const struct zf2fs_walk_ops ops = { .data = dir_block };

		d.blk = malloc(ZF2FS_BLKSIZE);
		if (!d.blk)
			return -ENOMEM;
		err = zf2fs_file_walk(ctx->vol, inode, &ops, &d);
		free(d.blk);
	}
	if (err < 0)
		return err;
	if (!d.saw_dot) {
		p.str = ".";
		fix_problem(ctx, PR_5_DIR_DOT_MISSING, &p);
	}
	if (!d.saw_dotdot) {
		p.str = "..";
		fix_problem(ctx, PR_5_DIR_DOT_MISSING, &p);
	}
	/* the root's i_pino is not used (mkfs.f2fs 1.15 leaves it 0) */
	if (ino != ZF2FS_ROOT_INO && dir_parent(ctx, ino) &&
	    zf_get(inode->i.i_pino) != dir_parent(ctx, ino)) {
		p.num = zf_get(inode->i.i_pino);
		p.parent = dir_parent(ctx, ino);
		if (fix_problem(ctx, PR_5_INODE_PINO_BAD, &p)) {
			struct zf2fs_node *n = repair_node(ctx, ino);

			if (n)
				zf_set(n->i.i_pino, dir_parent(ctx, ino));
		}
	}
	return 0;
}
