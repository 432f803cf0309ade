// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quota_file.c - quota files in the kernel's v2 (revision 1) tree format, and quota usage.
 *
 * The file is an array of 1 KiB blocks.  Block 0: magic and version, then the info header
 * (grace times, flags, number of blocks, head of the free-block list, head of the list of
 * leaf blocks with a free entry).  Block 1: the root of a four-level radix tree; each tree
 * block holds 256 little-endian block numbers, indexed by one byte of the id (most
 * significant first); the fourth level points at leaf blocks.  A leaf block starts with a
 * 16-byte header (free-list links, number of entries in use) followed by 14 entries of 72
 * bytes.  An entry of all zero bytes is free, which is why an id-0 entry with nothing to
 * say carries itime 1.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "zf2fs/format.h"
#include "zf2fs/quota.h"
#include "zf2fs-internal/quota.h"
#include "zf2fs-internal/format.h"
#include "format/why_p.h"

#define QBLK         ZF2FS_QUOTA_BLKSIZE
#define TREE_DEPTH   4
#define REFS         (QBLK / 4)           /* references per tree block */
#define ROOT_BLK     1u
#define INFO_OFF     8u                   /* after magic and version */
#define LEAF_HDR     16u
#define ENTRY_SIZE   72u
#define ENTRIES      ((QBLK - LEAF_HDR) / ENTRY_SIZE)   /* 14 */
#define QFMT_VERSION 1u

static const uint32_t magics[3] = { 0xd9c01f11u, 0xd9c01927u, 0xd9c03f14u };

ZF2FS_EXPORT const char *zf2fs_quota_type_name(int type)
{
	static const char *const names[3] = { "user", "group", "project" };

	return type >= 0 && type < 3 ? names[type] : "unknown";
}

/* Byte of @id that selects the reference at tree level @depth (0 = root). */
static unsigned tree_index(uint32_t id, int depth)
{
	return (id >> (8 * (TREE_DEPTH - 1 - depth))) & 0xffu;
}

static uint32_t rd32(const uint8_t *p)
{
	return zf2fs_get_le32p(p);
}

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

ZF2FS_EXPORT int zf2fs_quota_magic_type(const uint8_t *data)
{
	for (int t = 0; t < 3; t++)
		if (rd32(data) == magics[t] && rd32(data + 4) == QFMT_VERSION)
			return t;
	return -1;
}

static void wr32(uint8_t *p, uint32_t v)
{
	zf2fs_put_le32p(p, v);
}

static void wr64(uint8_t *p, uint64_t v)
{
	wr32(p, (uint32_t)v);
	wr32(p + 4, (uint32_t)(v >> 32));
}

/* ---- reading -------------------------------------------------------------------------- */
struct parser {
	const uint8_t *data;
	uint32_t blocks;
	uint8_t *tree_seen;       /* a tree block may hang from one place only */
	struct zf2fs_quota_file *qf;
	size_t cap;
	char *why;
	size_t whylen;
};

static bool entry_unused(const uint8_t *e)
{
	for (unsigned i = 0; i < ENTRY_SIZE; i++)
		if (e[i])
			return false;
	return true;
}

static void entry_decode(const uint8_t *e, struct zf2fs_dquot *d)
{
	d->id = rd32(e);
	d->ihardlimit = rd64(e + 8);
	d->isoftlimit = rd64(e + 16);
	d->curinodes = rd64(e + 24);
	d->bhardlimit = rd64(e + 32);
	d->bsoftlimit = rd64(e + 40);
	d->curspace = rd64(e + 48);
	d->btime = rd64(e + 56);
	d->itime = rd64(e + 64);
	/* the kernel's marker of a used but otherwise empty id-0 entry reads back as 0 */
	if (!d->id && d->itime == 1 && !d->ihardlimit && !d->isoftlimit && !d->curinodes &&
	    !d->bhardlimit && !d->bsoftlimit && !d->curspace && !d->btime)
		d->itime = 0;
}

static int add_entry(struct parser *p, const struct zf2fs_dquot *d)
{
	struct zf2fs_quota_file *qf = p->qf;

	if (qf->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct zf2fs_dquot *n = realloc(qf->dq, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		qf->dq = n;
		p->cap = cap;
	}
	qf->dq[qf->n++] = *d;
	return 0;
}

/* The entry of @id in leaf @blk, as a lookup finds it: the first one with that id. */
static int read_leaf(struct parser *p, uint32_t blk, uint32_t id)
{
	const uint8_t *b = p->data + (size_t)blk * QBLK;

	for (unsigned i = 0; i < ENTRIES; i++) {
		const uint8_t *e = b + LEAF_HDR + i * ENTRY_SIZE;
		struct zf2fs_dquot d;

		if (entry_unused(e) || rd32(e) != id)
			continue;
		entry_decode(e, &d);
		return add_entry(p, &d);
	}
	return 0;   /* the tree points here, the leaf does not hold it: nothing to count */
}

static int walk(struct parser *p, uint32_t blk, int depth, uint32_t prefix)
{
	const uint8_t *b;

	if (p->tree_seen[blk])
		return zf2fs_set_why(p->why, p->whylen, -ZF2FS_EFSCORRUPTED,
				     "tree block %u is referenced twice", blk);
	p->tree_seen[blk] = 1;
	b = p->data + (size_t)blk * QBLK;
	for (unsigned i = 0; i < REFS; i++) {
		uint32_t ref = rd32(b + 4 * i);
		uint32_t sub = prefix << 8 | i;
		int err;

		if (!ref)
			continue;
		if (ref <= ROOT_BLK || ref >= p->blocks)
			return zf2fs_set_why(p->why, p->whylen, -ZF2FS_EFSCORRUPTED,
					     "tree block %u points at block %u, outside 2..%u",
					     blk, ref, p->blocks - 1);
		if (depth == TREE_DEPTH - 1)
			err = read_leaf(p, ref, sub);
		else
			err = walk(p, ref, depth + 1, sub);
		if (err)
			return err;
	}
	return 0;
}

static int cmp_dquot(const void *a, const void *b)
{
	uint32_t x = ((const struct zf2fs_dquot *)a)->id, y = ((const struct zf2fs_dquot *)b)->id;

	return x < y ? -1 : x > y;
}

ZF2FS_EXPORT int zf2fs_quota_parse(const uint8_t *data, size_t size, int type,
				   struct zf2fs_quota_file *ret, char *why, size_t whylen)
{
	struct parser p = { .data = data, .qf = ret, .why = why, .whylen = whylen };
	uint32_t magic, version, blocks, free_blk, free_entry;
	int err;

	memset(ret, 0, sizeof(*ret));
	if (type < 0 || type > 2)
		return -EINVAL;
	if (size < 2 * QBLK)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED,
				     "%zu bytes: too short for a header and a root block", size);
	magic = rd32(data);
	version = rd32(data + 4);
	if (magic != magics[type])
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED,
				     "magic 0x%08x, not the %s quota magic 0x%08x", magic,
				     zf2fs_quota_type_name(type), magics[type]);
	if (version != QFMT_VERSION)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED,
				     "format version %u, not %u", version, QFMT_VERSION);
	ret->bgrace = rd32(data + INFO_OFF);
	ret->igrace = rd32(data + INFO_OFF + 4);
	ret->flags = rd32(data + INFO_OFF + 8);
	blocks = rd32(data + INFO_OFF + 12);
	free_blk = rd32(data + INFO_OFF + 16);
	free_entry = rd32(data + INFO_OFF + 20);
	/* the kernel refuses to use a file failing any of these */
	if (blocks < 2 || blocks > size / QBLK)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED,
				     "%u blocks of %u bytes in a file of %zu bytes", blocks, QBLK,
				     size);
	if (free_blk && (free_blk <= ROOT_BLK || free_blk >= blocks))
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED,
				     "free block list starts at %u, outside 2..%u", free_blk,
				     blocks - 1);
	if (free_entry && (free_entry <= ROOT_BLK || free_entry >= blocks))
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED,
				     "free entry list starts at %u, outside 2..%u", free_entry,
				     blocks - 1);
	p.blocks = blocks;
	p.tree_seen = calloc(blocks, 1);
	if (!p.tree_seen)
		return -ENOMEM;
	err = walk(&p, ROOT_BLK, 0, 0);
	free(p.tree_seen);
	if (err) {
		zf2fs_quota_file_free(ret);
		return err;
	}
	/* sorted by id with no sort: the walk goes depth first in index order, one byte of
	 * the id per level, and each leaf reference yields at most the entry of its own id */
	return 0;
}

ZF2FS_EXPORT void zf2fs_quota_file_free(struct zf2fs_quota_file *qf)
{
	free(qf->dq);
	qf->dq = NULL;
	qf->n = 0;
}

/* ---- writing -------------------------------------------------------------------------- */
struct builder {
	uint8_t *buf;
	uint32_t blocks, cap;
};

static int new_block(struct builder *b, uint32_t *ret)
{
	if (b->blocks == b->cap) {
		uint32_t cap = b->cap ? 2 * b->cap : 8;
		uint8_t *n = realloc(b->buf, (size_t)cap * QBLK);

		if (!n)
			return -ENOMEM;
		memset(n + (size_t)b->cap * QBLK, 0, (size_t)(cap - b->cap) * QBLK);
		b->buf = n;
		b->cap = cap;
	}
	*ret = b->blocks++;
	return 0;
}

static void entry_encode(uint8_t *e, const struct zf2fs_dquot *d)
{
	wr32(e, d->id);
	wr64(e + 8, d->ihardlimit);
	wr64(e + 16, d->isoftlimit);
	wr64(e + 24, d->curinodes);
	wr64(e + 32, d->bhardlimit);
	wr64(e + 40, d->bsoftlimit);
	wr64(e + 48, d->curspace);
	wr64(e + 56, d->btime);
	wr64(e + 64, d->itime);
	if (entry_unused(e))
		wr64(e + 64, 1);   /* keep an id-0 entry from reading as free */
}

ZF2FS_EXPORT int zf2fs_quota_build(int type, const struct zf2fs_quota_file *qf, uint8_t **ret_buf,
				   size_t *ret_size)
{
	struct builder b = { 0 };
	struct zf2fs_dquot *dq = NULL;
	uint32_t blk, leaf = 0, in_leaf = 0;
	int err = -EINVAL;

	*ret_buf = NULL;
	*ret_size = 0;
	if (type < 0 || type > 2)
		return -EINVAL;
	if (qf->n) {
		dq = malloc(qf->n * sizeof(*dq));
		if (!dq)
			return -ENOMEM;
		memcpy(dq, qf->dq, qf->n * sizeof(*dq));
		qsort(dq, qf->n, sizeof(*dq), cmp_dquot);
		for (size_t i = 1; i < qf->n; i++)
			if (dq[i].id == dq[i - 1].id)
				goto out;
	}
	err = new_block(&b, &blk);           /* 0: header */
	if (!err)
		err = new_block(&b, &blk);       /* 1: root */
	for (size_t i = 0; !err && i < qf->n; i++) {
		uint32_t cur = ROOT_BLK;
		uint8_t *e;

		/* tree blocks first, then the leaf, as an insertion allocates them */
		for (int depth = 0; !err && depth < TREE_DEPTH - 1; depth++) {
			uint8_t *ref = b.buf + (size_t)cur * QBLK + 4 * tree_index(dq[i].id, depth);

			if (!rd32(ref)) {
				err = new_block(&b, &blk);
				ref = b.buf + (size_t)cur * QBLK + 4 * tree_index(dq[i].id, depth);
				if (!err)
					wr32(ref, blk);
			}
			cur = rd32(ref);
		}
		if (err)
			break;
		if (!leaf || in_leaf == ENTRIES) {
			err = new_block(&b, &leaf);
			if (err)
				break;
			in_leaf = 0;
		}
		wr32(b.buf + (size_t)cur * QBLK + 4 * tree_index(dq[i].id, TREE_DEPTH - 1), leaf);
		e = b.buf + (size_t)leaf * QBLK + LEAF_HDR + in_leaf * ENTRY_SIZE;
		entry_encode(e, &dq[i]);
		in_leaf++;
		b.buf[(size_t)leaf * QBLK + 8] = (uint8_t)in_leaf;   /* le16 entries */
	}
	if (err)
		goto out;
	wr32(b.buf, magics[type]);
	wr32(b.buf + 4, QFMT_VERSION);
	wr32(b.buf + INFO_OFF, qf->bgrace);
	wr32(b.buf + INFO_OFF + 4, qf->igrace);
	wr32(b.buf + INFO_OFF + 8, qf->flags);
	wr32(b.buf + INFO_OFF + 12, b.blocks);
	wr32(b.buf + INFO_OFF + 16, 0);
	/* the last leaf, when not full, is where the kernel adds the next id */
	wr32(b.buf + INFO_OFF + 20, leaf && in_leaf < ENTRIES ? leaf : 0);
	*ret_buf = b.buf;
	*ret_size = (size_t)b.blocks * QBLK;
	b.buf = NULL;
out:
	free(b.buf);
	free(dq);
	return err;
}

/* ---- usage ------------------------------------------------------------------------------ */
static size_t slot_of(const struct zf2fs_quota_usage *u, uint32_t id)
{
	size_t mask = u->cap - 1, i = (id * 2654435761u) & mask;

	while (u->slot[i].used && u->slot[i].id != id)
		i = (i + 1) & mask;
	return i;
}

static int usage_grow(struct zf2fs_quota_usage *u)
{
	struct zf2fs_quota_usage n = { .cap = u->cap ? 2 * u->cap : 64 };

	n.slot = calloc(n.cap, sizeof(*n.slot));
	if (!n.slot)
		return -ENOMEM;
	for (size_t i = 0; i < u->cap; i++)
		if (u->slot[i].used)
			n.slot[slot_of(&n, u->slot[i].id)] = u->slot[i];
	n.n = u->n;
	free(u->slot);
	*u = n;
	return 0;
}

ZF2FS_EXPORT int zf2fs_quota_usage_add(struct zf2fs_quota_usage *u, uint32_t id, uint64_t inodes,
				       uint64_t bytes)
{
	struct zf2fs_quota_use *s;

	if ((u->n + 1) * 4 > u->cap * 3) {   /* keep the table at most 3/4 full */
		int err = usage_grow(u);

		if (err)
			return err;
	}
	s = &u->slot[slot_of(u, id)];
	if (!s->used) {
		s->used = 1;
		s->id = id;
		u->n++;
	}
	s->inodes += inodes;
	s->bytes += bytes;
	return 0;
}

ZF2FS_EXPORT struct zf2fs_quota_use zf2fs_quota_usage_get(const struct zf2fs_quota_usage *u,
							  uint32_t id)
{
	struct zf2fs_quota_use none = { .id = id };

	if (!u->cap)
		return none;
	const struct zf2fs_quota_use *s = &u->slot[slot_of(u, id)];

	return s->used ? *s : none;
}

ZF2FS_EXPORT void zf2fs_quota_usage_free(struct zf2fs_quota_usage *u)
{
	free(u->slot);
	memset(u, 0, sizeof(*u));
}

ZF2FS_EXPORT void zf2fs_quota_inode_ids(const struct zf2fs_inode *in, uint32_t features,
					uint32_t ret_ids[3])
{
	ret_ids[ZF2FS_QUOTA_USR] = (uint32_t)zf2fs_get(in->i_uid);
	ret_ids[ZF2FS_QUOTA_GRP] = (uint32_t)zf2fs_get(in->i_gid);
	ret_ids[ZF2FS_QUOTA_PRJ] = 0;
	if ((features & ZF2FS_FEAT_PRJQUOTA) &&
	    zf2fs_inode_extra_holds(in, offsetof(struct zf2fs_inode, i_projid) + 4))
		ret_ids[ZF2FS_QUOTA_PRJ] = (uint32_t)zf2fs_get(in->i_projid);
}

ZF2FS_EXPORT uint64_t zf2fs_quota_inode_bytes(uint64_t i_blocks)
{
	return i_blocks ? (i_blocks - 1) * ZF2FS_BLKSIZE : 0;
}
