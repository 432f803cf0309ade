// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * repair.c - write fsck's fixes without ever making the volume worse.
 *
 * The passes queue changes here; nothing touches the disk until repair_commit().  The
 * commit never overwrites anything the current checkpoint uses:
 *  - changed node and dentry blocks are written out of place, to segments that are free
 *    both before and after the repair, which become the new warm node and warm data logs;
 *  - changed SIT and NAT blocks go to their inactive copies (the new checkpoint flips the
 *    version bits), and both journals are flushed into those blocks;
 *  - fsync'd node blocks awaiting the kernel's roll-forward are copied behind the new
 *    warm node log's write position, where the new checkpoint's recovery finds them
 *    (keep_chain); the originals and their data blocks are never written over;
 *  - the new checkpoint goes to the inactive pack with the next version; its two CP
 *    blocks are written last, after everything else is on disk.
 * An interruption at any point leaves the current checkpoint, and so the volume, as it
 * was.  Checkpoint counters are recomputed from the final SIT and NAT.  The only in-place
 * writes are summary (SSA) corrections and the rebuilt primary superblock; neither is
 * read through the current checkpoint for the blocks concerned.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/txn.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

struct rnode {
	uint32_t nid, old_addr, new_addr;
	struct zf2fs_node *buf;
};

struct rdata {
	uint32_t owner, ofs, old_addr, new_addr;
	uint8_t *buf;
};

struct rsum {
	uint32_t blkaddr, nid;
	uint16_t ofs;
	uint8_t version;
};

struct fsck_repair {
	struct rnode *nodes;
	size_t nnodes, cap_nodes;
	struct rdata *datas;
	size_t ndatas, cap_datas;
	struct rsum *sums;
	size_t nsums, cap_sums;
	struct rsum *sum_types;      /* blkaddr: segment, ofs: its summary footer type */
	size_t nsum_types, cap_sum_types;
	uint16_t *orig_count;        /* SIT valid counts before any change */
	uint8_t *sit_dirty;          /* per SIT block */
	uint8_t *nat_dirty;          /* per NAT block */
	uint8_t *pinned;             /* per main segment: holds roll-forward blocks (commit) */
	bool cp_dirty, super_primary, any;
};

static void *grow(void *arr, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return arr;
	*cap = *cap ? *cap * 2 : 16;
	return realloc(arr, *cap * size);
}

int repair_begin(struct fsck_ctx *ctx)
{
	struct fsck_repair *r = calloc(1, sizeof(*r));
	const struct zf2fs_vol_info *vi = ctx->vi;

	if (!r)
		return -ENOMEM;
	r->orig_count = calloc(vi->main_segs + 1, sizeof(uint16_t));
	r->sit_dirty = calloc(vi->sit_blocks + 1, 1);
	r->nat_dirty = calloc(vi->nat_blocks + 1, 1);
	if (!r->orig_count || !r->sit_dirty || !r->nat_dirty) {
		free(r->orig_count);
		free(r->sit_dirty);
		free(r->nat_dirty);
		free(r);
		return -ENOMEM;
	}
	/* only SIT blocks that hold anything: untouched pages of orig_count cost nothing */
	for (uint32_t s = 0; s < vi->main_segs; s++) {
		if (!zf2fs_sit_table_block_used(ctx->sit, zf2fs_sit_block_index(s))) {
			s = zf2fs_sit_block_segno(zf2fs_sit_block_index(s) + 1, 0) - 1;
			continue;
		}
		r->orig_count[s] = (uint16_t)zf2fs_sit_valid_blocks(sit_get(ctx, s));
	}
	ctx->repair = r;
	return 0;
}

void repair_free(struct fsck_ctx *ctx)
{
	struct fsck_repair *r = ctx->repair;

	if (!r)
		return;
	for (size_t i = 0; i < r->nnodes; i++)
		free(r->nodes[i].buf);
	for (size_t i = 0; i < r->ndatas; i++)
		free(r->datas[i].buf);
	free(r->nodes);
	free(r->datas);
	free(r->sums);
	free(r->sum_types);
	free(r->orig_count);
	free(r->sit_dirty);
	free(r->nat_dirty);
	free(r->pinned);
	free(r);
	ctx->repair = NULL;
}

bool repair_pending(const struct fsck_ctx *ctx)
{
	return ctx->repair && ctx->repair->any;
}

static void mark_nat(struct fsck_ctx *ctx, uint32_t nid);

/* The queued block of node @nid, or NULL with *@ret_slot a new entry (its buffer
 * allocated, not yet counted: the caller fills it, then bumps nnodes); NULL without a
 * slot when out of memory. */
static struct zf2fs_node *node_slot(struct fsck_repair *r, uint32_t nid, struct rnode **ret_slot)
{
	struct rnode *rn;

	*ret_slot = NULL;
	for (size_t i = 0; i < r->nnodes; i++)
		if (r->nodes[i].nid == nid)
			return r->nodes[i].buf;
	rn = grow(r->nodes, &r->cap_nodes, r->nnodes, sizeof(*rn));
	if (!rn)
		return NULL;
	r->nodes = rn;
	rn = &r->nodes[r->nnodes];
	rn->buf = malloc(ZF2FS_BLKSIZE);
	if (rn->buf)
		*ret_slot = rn;
	return NULL;
}

struct zf2fs_node *repair_node(struct fsck_ctx *ctx, uint32_t nid)
{
	struct fsck_repair *r = ctx->repair;
	struct zf2fs_node *queued;
	struct rnode *rn;
	char why[160];
	uint32_t addr;

	if (!r)
		return NULL;
	queued = node_slot(r, nid, &rn);
	if (queued || !rn)
		return queued;
	if (zf2fs_vol_read_node(ctx->vol, nid, rn->buf, &addr, why, sizeof(why))) {
		free(rn->buf);
		return NULL;
	}
	rn->nid = nid;
	rn->old_addr = addr;
	r->nnodes++;
	r->any = true;
	return rn->buf;
}

/* A node that has no block yet (a new lost+found): zeroed, written out of place at commit
 * like every repaired node, and its NAT entry then points at it. */
struct zf2fs_node *repair_new_node(struct fsck_ctx *ctx, uint32_t nid, uint32_t ino)
{
	struct fsck_repair *r = ctx->repair;
	struct rnode *rn;

	if (!r || nid < ZF2FS_RESERVED_NIDS || nid >= ctx->nids || ctx->nat_addr[nid])
		return NULL;
	rn = grow(r->nodes, &r->cap_nodes, r->nnodes, sizeof(*rn));
	if (!rn)
		return NULL;
	r->nodes = rn;
	rn = &r->nodes[r->nnodes];
	rn->buf = calloc(1, ZF2FS_BLKSIZE);
	if (!rn->buf)
		return NULL;
	rn->nid = nid;
	rn->old_addr = ZF2FS_NULL_ADDR;
	if (nat_put(ctx, nid, ino, ZF2FS_NULL_ADDR)) {
		free(rn->buf);
		return NULL;
	}
	mark_nat(ctx, nid);
	r->nnodes++;
	r->any = true;
	return rn->buf;
}

const struct zf2fs_node *repair_node_pending(const struct fsck_ctx *ctx, uint32_t nid)
{
	const struct fsck_repair *r = ctx->repair;

	for (size_t i = 0; r && i < r->nnodes; i++)
		if (r->nodes[i].nid == nid)
			return r->nodes[i].buf;
	return NULL;
}

struct zf2fs_node *repair_node_from(struct fsck_ctx *ctx, uint32_t nid, const void *blk)
{
	struct fsck_repair *r = ctx->repair;
	struct rnode *rn;

	struct zf2fs_node *queued;

	if (!r || nid >= ctx->nids)
		return NULL;
	queued = node_slot(r, nid, &rn);
	if (queued || !rn)
		return queued;
	memcpy(rn->buf, blk, ZF2FS_BLKSIZE);
	rn->nid = nid;
	rn->old_addr = ctx->nat_addr[nid];
	r->nnodes++;
	r->any = true;
	return rn->buf;
}

static void mark_sit(struct fsck_ctx *ctx, uint32_t segno)
{
	ctx->repair->sit_dirty[zf2fs_sit_block_index(segno)] = 1;
	ctx->repair->any = true;
}

static void mark_nat(struct fsck_ctx *ctx, uint32_t nid)
{
	ctx->repair->nat_dirty[zf2fs_nat_block_index(nid)] = 1;
	ctx->repair->any = true;
}

int repair_set_block(struct fsck_ctx *ctx, uint64_t blk, bool valid)
{
	struct zf2fs_sit_entry *se;
	uint32_t segno;

	if (!ctx->repair || !blk_in_main(ctx, blk))
		return -EINVAL;
	segno = blk_segno(ctx, blk);
	se = sit_mut(ctx, segno);
	if (!se)
		return -ENOMEM;
	if (zf2fs_sit_mark(se, zf2fs_main_seg_off(ctx->vi->main_blkaddr, blk), valid))
		mark_sit(ctx, segno);
	return 0;
}

int repair_sit_from_found(struct fsck_ctx *ctx, uint32_t segno)
{
	struct zf2fs_sit_entry *se = sit_mut(ctx, segno);
	uint64_t base = zf2fs_main_blk(0, segno, 0);
	uint32_t count = 0, type;

	if (!ctx->repair)
		return -EINVAL;
	if (!se)
		return -ENOMEM;
	type = zf2fs_sit_type(se);
	zf2fs_sit_map_clear(se);
	for (uint32_t i = 0; i < BPS; i++)
		if (found_test(ctx, base + i)) {
			zf2fs_sit_block_set(se, i);
			count++;
		}
	if (type > ZF2FS_LOG_COLD_NODE)
		type = ZF2FS_LOG_WARM_DATA;
	zf2fs_sit_set_vblocks(se, type, count);
	mark_sit(ctx, segno);
	return 0;
}

int repair_set_seg_type(struct fsck_ctx *ctx, uint32_t segno, uint32_t type)
{
	struct zf2fs_sit_entry *se = sit_mut(ctx, segno);

	if (!ctx->repair)
		return -EINVAL;
	if (!se)
		return -ENOMEM;
	zf2fs_sit_set_type(se, type);
	mark_sit(ctx, segno);
	return 0;
}

int repair_free_node(struct fsck_ctx *ctx, uint32_t nid)
{
	uint32_t addr;

	if (!ctx->repair || nid >= ctx->nids)
		return -EINVAL;
	addr = ctx->nat_addr[nid];
	/* The block stops being in use: pass 7 then frees it in the SIT, like any block no
	 * node owns. */
	if (blk_in_main(ctx, addr) && (ctx->nid_flags[nid] & NID_REACHED)) {
		uint64_t off = addr - ctx->vi->main_blkaddr;   /* found_* count from main */

		/* only a block this node claimed itself: a bad NAT entry may point at a block
		 * another node owns */
		if (found_test(ctx, off)) {
			found_clear(ctx, off);
			ctx->found_blocks--;
		}
	}
	(void)nat_put(ctx, nid, 0, 0);   /* the implied values: nothing to allocate */
	mark_nat(ctx, nid);
	return 0;
}

int repair_drop_extent(struct fsck_ctx *ctx, uint32_t ino)
{
	struct zf2fs_node *n = repair_node(ctx, ino);

	if (!n)
		return -ENOMEM;
	if (zf2fs_get(n->i.i_ext.len))
		memset(&n->i.i_ext, 0, sizeof(n->i.i_ext));
	return 0;
}

/* Queue a block for slot @ofs of node @owner, replacing @old: its contents are read from
 * @old, or zeros for NULL_ADDR (a hole filled: write_datas checks the slot is still a
 * hole, and there is no old block to release). */
static int queue_data(struct fsck_ctx *ctx, uint32_t owner, uint32_t ofs, uint64_t old,
		      void **ret_buf)
{
	struct fsck_repair *r = ctx->repair;
	struct zf2fs_node *on;
	struct rdata *rd;

	if (!r)
		return -EINVAL;
	/* the block moves: an extent the kernel cached over it would read the old place */
	on = repair_node(ctx, owner);
	if (!on || repair_drop_extent(ctx, (uint32_t)zf2fs_get(on->footer.ino)))
		return -ENOMEM;
	rd = grow(r->datas, &r->cap_datas, r->ndatas, sizeof(*rd));
	if (!rd)
		return -ENOMEM;
	r->datas = rd;
	rd = &r->datas[r->ndatas];
	rd->buf = calloc(1, ZF2FS_BLKSIZE);
	if (!rd->buf)
		return -ENOMEM;
	if (old != ZF2FS_NULL_ADDR && zf2fs_vol_read_block(ctx->vol, old, rd->buf)) {
		free(rd->buf);
		return -EIO;
	}
	rd->owner = owner;
	rd->ofs = ofs;
	rd->old_addr = (uint32_t)old;
	r->ndatas++;
	r->any = true;
	*ret_buf = rd->buf;
	return 0;
}

int repair_data_block(struct fsck_ctx *ctx, uint32_t owner, uint32_t ofs, uint64_t old,
		      void **ret_buf)
{
	struct fsck_repair *r = ctx->repair;

	if (!r)
		return -EINVAL;
	for (size_t i = 0; i < r->ndatas; i++)
		if (r->datas[i].old_addr == old && old != ZF2FS_NULL_ADDR) {
			*ret_buf = r->datas[i].buf;
			return 0;
		}
	return queue_data(ctx, owner, ofs, old, ret_buf);
}

int repair_new_data_block(struct fsck_ctx *ctx, uint32_t owner, uint32_t ofs, void **ret_buf)
{
	return queue_data(ctx, owner, ofs, ZF2FS_NULL_ADDR, ret_buf);
}

int repair_set_summary(struct fsck_ctx *ctx, uint64_t blk, uint32_t nid, uint16_t ofs,
		       uint8_t version)
{
	struct fsck_repair *r = ctx->repair;
	struct rsum *rs;

	if (!r)
		return -EINVAL;
	rs = grow(r->sums, &r->cap_sums, r->nsums, sizeof(*rs));
	if (!rs)
		return -ENOMEM;
	r->sums = rs;
	r->sums[r->nsums++] = (struct rsum){ (uint32_t)blk, nid, ofs, version };
	r->any = true;
	return 0;
}

int repair_set_sum_type(struct fsck_ctx *ctx, uint32_t segno, uint8_t type)
{
	struct fsck_repair *r = ctx->repair;
	struct rsum *rs;

	if (!r)
		return -EINVAL;
	rs = grow(r->sum_types, &r->cap_sum_types, r->nsum_types, sizeof(*rs));
	if (!rs)
		return -ENOMEM;
	r->sum_types = rs;
	r->sum_types[r->nsum_types++] = (struct rsum){ segno, 0, type, 0 };
	r->any = true;
	return 0;
}

void repair_mark_checkpoint(struct fsck_ctx *ctx)
{
	if (ctx->repair) {
		ctx->repair->cp_dirty = true;
		ctx->repair->any = true;
	}
}

int repair_rewrite_primary_super(struct fsck_ctx *ctx)
{
	if (!ctx->repair)
		return -EINVAL;
	ctx->repair->super_primary = true;
	ctx->repair->any = true;
	return 0;
}

int repair_set_nat(struct fsck_ctx *ctx, uint32_t nid, uint32_t ino, uint32_t blkaddr)
{
	if (!ctx->repair || nid >= ctx->nids)
		return -EINVAL;
	if (nat_put(ctx, nid, ino, blkaddr))
		return -ENOMEM;
	mark_nat(ctx, nid);
	return 0;
}

/* ---- lost+found ----------------------------------------------------------------------- */
static bool slots_free(const struct zf2fs_dentry_view *v, uint32_t at, uint32_t n)
{
	if (at + n > v->nr)
		return false;
	for (uint32_t i = at; i < at + n; i++)
		if (zf2fs_dentry_slot_used(v, i))
			return false;
	return true;
}

static void put_dentry(struct zf2fs_dentry_view *v, uint32_t at, const char *name,
		       uint32_t ino, uint8_t type)
{
	size_t len = strlen(name);
	uint32_t n = zf2fs_dentry_slots((uint32_t)len);
	struct zf2fs_dir_entry *de = (struct zf2fs_dir_entry *)&v->dentry[at];
	uint8_t *bm = (uint8_t *)v->bitmap;

	zf2fs_set(de->hash_code, zf2fs_dentry_hash(name, len));
	zf2fs_set(de->ino, ino);
	zf2fs_set(de->name_len, len);
	de->file_type = type;
	memcpy((uint8_t *)v->filename[at], name, len);
	for (uint32_t i = at; i < at + n; i++)
		zf2fs_dentry_bit_set(bm, i);
}

struct first_blocks {
	uint32_t addr[2], owner[2], ofs[2];
	bool have[2];
};

static int note_block(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner, uint32_t ofs)
{
	struct first_blocks *fb = arg;

	if (fofs < 2 && blkaddr != ZF2FS_NEW_ADDR) {
		fb->addr[fofs] = blkaddr;
		fb->owner[fofs] = owner;
		fb->ofs[fofs] = ofs;
		fb->have[fofs] = true;
	}
	return fofs >= 2;
}

/* Writable views of a directory's first dentry areas: the inline area, or dentry blocks
 * 0 and 1 (level 0 of the hash tree, which holds every hash while the directory has one
 * bucket there, as lost+found made by mkfs does).  Returns how many views were filled. */
static int first_dentry_views(struct fsck_ctx *ctx, uint32_t dir, struct zf2fs_dentry_view v[2])
{
	struct zf2fs_node *d = repair_node(ctx, dir);
	struct first_blocks fb = { 0 };
	const struct zf2fs_walk_ops ops = { .data = note_block };
	int n = 0;

	if (!d)
		return -EIO;
	if (d->i.i_inline & ZF2FS_INLINE_DENTRY)
		return zf2fs_dentry_view_inline(d, ctx->vi->features, &v[0]) ? -ZF2FS_EFSCORRUPTED : 1;
	if (d->i.i_dir_level != 0)
		return 0;
	zf2fs_file_walk(ctx->vol, d, &ops, &fb);
	for (int b = 0; b < 2; b++) {
		void *buf;

		if (!fb.have[b] || !blk_in_main(ctx, fb.addr[b]))
			continue;
		if (repair_data_block(ctx, fb.owner[b], fb.ofs[b], fb.addr[b], &buf))
			return -EIO;
		zf2fs_dentry_view_block(buf, &v[n++]);
	}
	return n;
}

int repair_add_dentry(struct fsck_ctx *ctx, uint32_t dir, const char *name, uint32_t ino,
		      uint8_t type)
{
	uint32_t slots = zf2fs_dentry_slots((uint32_t)strlen(name));
	struct zf2fs_dentry_view v[2];
	int n = first_dentry_views(ctx, dir, v);

	for (int k = 0; k < n; k++)
		for (uint32_t at = 0; at + slots <= v[k].nr; at++)
			if (slots_free(&v[k], at, slots)) {
				put_dentry(&v[k], at, name, ino, type);
				return 0;
			}
	return n < 0 ? n : -ENOSPC;
}

/* Point the ".." entry of directory @dir (inline or in its first block) at @parent. */
int repair_set_dotdot(struct fsck_ctx *ctx, uint32_t dir, uint32_t parent)
{
	struct zf2fs_dentry_view v[2];
	int n = first_dentry_views(ctx, dir, v);

	for (uint32_t i = 0; n > 0 && i < v[0].nr; i++)
		if (zf2fs_dentry_slot_used(&v[0], i) && zf2fs_get(v[0].dentry[i].name_len) == 2 &&
		    !memcmp(v[0].filename[i], "..", 2)) {
			zf2fs_set(((struct zf2fs_dir_entry *)v[0].dentry)[i].ino, parent);
			return 0;
		}
	return n < 0 ? n : -ENOENT;
}

/* ---- commit ------------------------------------------------------------------------- */
static bool is_curseg(const uint32_t segs[ZF2FS_NR_CURSEG], uint32_t s)
{
	for (int i = 0; i < ZF2FS_NR_CURSEG; i++)
		if (segs[i] == s)
			return true;
	return false;
}

/* A segment free before and after the repair, first of a section that is all free. */
static int pick_free_segment(struct fsck_ctx *ctx, const uint32_t cur[ZF2FS_NR_CURSEG],
			     uint32_t avoid, uint32_t *ret)
{
	const struct zf2fs_vol_info *vi = ctx->vi;
	uint32_t sps = vi->segs_per_sec;

	for (uint32_t sec = 0; sec < vi->main_secs; sec++) {
		bool ok = true;

		for (uint32_t k = 0; k < sps && ok; k++) {
			uint32_t s = sec * sps + k;

			ok = s != avoid && !is_curseg(cur, s) && ctx->repair->orig_count[s] == 0 &&
			     !(ctx->repair->pinned && ctx->repair->pinned[s]) &&
			     zf2fs_sit_valid_blocks(sit_get(ctx, s)) == 0 &&
			     ctx->seg_found[s] == 0;
		}
		if (ok) {
			*ret = sec * sps;
			return 0;
		}
	}
	return -ENOSPC;
}

struct commit {
	struct fsck_ctx *ctx;
	uint32_t cur[ZF2FS_NR_CURSEG], blkoff[ZF2FS_NR_CURSEG];
	uint8_t alloc[ZF2FS_NR_CURSEG];
	struct zf2fs_summary *sum[ZF2FS_NR_CURSEG];   /* 512 entries each */
	uint64_t ver;
	uint8_t *cpbuf;                               /* the new checkpoint (zf2fs_vol_cp_next) */
	const struct zf2fs_checkpoint *new_cp;        /* the same; its version is set */
	bool chain;                                   /* keep the roll-forward chain (rf_len) */
};

static uint64_t log_addr(const struct commit *c, int t, uint32_t off)
{
	return zf2fs_main_blk(c->ctx->vi->main_blkaddr, c->cur[t], off);
}

/* Retire a log: its summary goes to the SSA, a new free segment takes over. */
static int new_log(struct commit *c, int t, uint32_t avoid)
{
	struct fsck_ctx *ctx = c->ctx;
	uint32_t seg;
	struct zf2fs_sit_entry *se;
	int err;

	err = zf2fs_vol_write_ssa(ctx->vol, c->cur[t], t, c->sum[t]);
	if (err)
		return err;
	err = pick_free_segment(ctx, c->cur, avoid, &seg);
	if (err) {
		fprintf(stderr, "fsck.f2fs: no free segment left to write repairs to\n");
		return err;
	}
	c->cur[t] = seg;
	c->blkoff[t] = 0;
	c->alloc[t] = 0;
	memset(c->sum[t], 0, BPS * sizeof(struct zf2fs_summary));
	se = sit_mut(ctx, seg);
	if (!se)
		return -ENOMEM;
	zf2fs_sit_set_vblocks(se, (uint32_t)t, 0);
	mark_sit(ctx, seg);
	return 0;
}

/* Where slot @ofs of node @n points (inode slots count after the extra attributes). */
static uint8_t *slot_ptr(struct fsck_ctx *ctx, struct zf2fs_node *n, uint32_t nid, uint32_t ofs)
{
	if (zf2fs_get(n->footer.ino) == nid && zf2fs_get(n->footer.nid) == nid) {
		struct zf2fs_inode_geom g;

		if (zf2fs_inode_geometry(&n->i, ctx->vi->features, &g))
			return NULL;
		return (uint8_t *)n + offsetof(struct zf2fs_inode, i_addr) + 4 * (g.extra_words + ofs);
	}
	return (uint8_t *)n + 4 * ofs;
}

static int write_datas(struct commit *c)
{
	struct fsck_ctx *ctx = c->ctx;
	struct fsck_repair *r = ctx->repair;
	const int t = ZF2FS_LOG_WARM_DATA;
	int err;

	if (!r->ndatas)
		return 0;
	if (r->ndatas > BPS)
		return -E2BIG;
	err = new_log(c, t, UINT32_MAX);
	for (size_t i = 0; !err && i < r->ndatas; i++) {
		struct rdata *d = &r->datas[i];
		struct zf2fs_node *owner = repair_node(ctx, d->owner);
		uint8_t *slot;

		if (!owner)
			return -EIO;
		slot = slot_ptr(ctx, owner, d->owner, d->ofs);
		if (!slot || zf2fs_get_le32p(slot) != d->old_addr)
			return -ZF2FS_EFSCORRUPTED;
		d->new_addr = (uint32_t)log_addr(c, t, c->blkoff[t]);
		zf2fs_set(c->sum[t][c->blkoff[t]].nid, d->owner);
		zf2fs_set(c->sum[t][c->blkoff[t]].ofs_in_node, d->ofs);
		c->blkoff[t]++;
		err = zf2fs_vol_write_block(ctx->vol, d->new_addr, d->buf);
		if (!err) {
			zf2fs_put_le32p(slot, d->new_addr);
			if (d->old_addr != ZF2FS_NULL_ADDR)
				repair_set_block(ctx, d->old_addr, false);
			repair_set_block(ctx, d->new_addr, true);
		}
	}
	return err;
}

/* Keep the roll-forward chain (see repair_commit): copies of its blocks, in its order,
 * from the new warm node log's write position on, each naming the next copy and the new
 * checkpoint's version, the last one ending the chain (next block 0, which the kernel's
 * walk never follows).  Everything else in the blocks (fsync and dentry marks, node
 * offsets, the data block addresses) stays as the kernel wrote it, so the kernel replays
 * the copies exactly as it would have the originals.  A chain longer than the rest of the
 * segment goes on in further free segments, as the kernel's own chain does when its log
 * moves.  The copies are not valid in the SIT: like the originals, they live past the
 * log's position until the kernel's recovery checkpoint. */
static int write_chain(struct commit *c)
{
	struct fsck_ctx *ctx = c->ctx;
	const int t = ZF2FS_LOG_WARM_NODE;
	uint32_t seed = zf2fs_checksum_seed(ctx->sb->uuid);
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE);
	uint64_t here = log_addr(c, t, c->blkoff[t]);
	int err = n ? 0 : -ENOMEM;

	for (uint32_t i = 0; i < ctx->rf_len && !err; i++) {
		uint64_t next = 0;

		if (i + 1 < ctx->rf_len) {
			if (zf2fs_main_seg_off(ctx->vi->main_blkaddr, here) + 1 < BPS) {
				next = here + 1;
			} else {
				uint32_t seg;

				err = pick_free_segment(ctx, c->cur, UINT32_MAX, &seg);
				if (err) {
					fprintf(stderr, "fsck.f2fs: no free segment left for the "
						"roll-forward chain\n");
					break;
				}
				ctx->repair->pinned[seg] = 1;
				next = zf2fs_main_blk(ctx->vi->main_blkaddr, seg, 0);
			}
		}
		err = zf2fs_vol_read_block(ctx->vol, ctx->rf_chain[i], n);
		if (err)
			break;
		zf2fs_node_set_chain(n, c->new_cp, (uint32_t)next);
		/* an inode's checksum covers its footer */
		zf2fs_inode_reseal(n, (uint32_t)zf2fs_get(n->footer.nid), ctx->vi->features, seed);
		err = zf2fs_vol_write_block(ctx->vol, here, n);
		here = next;
	}
	free(n);
	return err;
}

static int write_nodes(struct commit *c)
{
	struct fsck_ctx *ctx = c->ctx;
	struct fsck_repair *r = ctx->repair;
	const int t = ZF2FS_LOG_WARM_NODE;
	uint32_t seed = zf2fs_checksum_seed(ctx->sb->uuid);
	int err;

	if (!r->nnodes && !c->chain)
		return 0;
	if (r->nnodes >= BPS)
		return -E2BIG;
	err = new_log(c, t, c->cur[ZF2FS_LOG_WARM_DATA]);
	for (size_t i = 0; !err && i < r->nnodes; i++) {
		struct rnode *n = &r->nodes[i];

		n->new_addr = (uint32_t)log_addr(c, t, c->blkoff[t]);
		zf2fs_set(c->sum[t][c->blkoff[t]].nid, n->nid);
		c->blkoff[t]++;
		zf2fs_node_seal(n->buf, n->nid, c->ver, (uint32_t)log_addr(c, t, c->blkoff[t]),
				ctx->vi->features, seed);
		err = zf2fs_vol_write_block(ctx->vol, n->new_addr, n->buf);
		if (err)
			break;
		if (ctx->nat_addr[n->nid] == n->old_addr) {
			err = nat_put(ctx, n->nid, nat_ino(ctx, n->nid), n->new_addr);
			if (err)
				break;
			mark_nat(ctx, n->nid);
		}
		repair_set_block(ctx, n->old_addr, false);
		repair_set_block(ctx, n->new_addr, true);
	}
	if (!err && c->chain)
		err = write_chain(c);
	return err;
}

static int write_summary_fixes(struct commit *c)
{
	struct fsck_ctx *ctx = c->ctx;
	struct fsck_repair *r = ctx->repair;
	int err = 0;

	for (size_t i = 0; i < r->nsums && !err; i++) {
		uint32_t seg = blk_segno(ctx, r->sums[i].blkaddr);
		uint32_t off = zf2fs_main_seg_off(ctx->vi->main_blkaddr, r->sums[i].blkaddr);
		struct zf2fs_summary *e = NULL;

		/* a current log's summary goes with the new checkpoint */
		for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
			if (c->cur[t] == seg)
				e = &c->sum[t][off];
		if (e) {
			zf2fs_set(e->nid, r->sums[i].nid);
			zf2fs_set(e->ofs_in_node, r->sums[i].ofs);
			e->version = r->sums[i].version;
			continue;
		}
		err = zf2fs_vol_set_ssa_entry(ctx->vol, r->sums[i].blkaddr, r->sums[i].nid,
					      r->sums[i].ofs, r->sums[i].version);
	}
	/* footer types (pass 7 checked only segments that are not current) */
	for (size_t i = 0; i < r->nsum_types && !err; i++)
		err = zf2fs_vol_set_ssa_type(ctx->vol, (uint32_t)r->sum_types[i].blkaddr,
					     r->sum_types[i].ofs == ZF2FS_SUM_TYPE_NODE);
	return err;
}

static const struct zf2fs_sit_entry *repair_sit(void *arg, uint32_t segno)
{
	return sit_get(arg, segno);
}

/* NAT block @b from fsck's table (pass 3 read it, journal included; repairs changed it). */
static void repair_nat(void *arg, uint32_t b, struct zf2fs_nat_block *nb)
{
	struct fsck_ctx *ctx = arg;

	for (uint32_t e = 0; e < ZF2FS_NAT_PER_BLOCK; e++) {
		uint32_t nid = zf2fs_nat_block_nid(b, e);
		struct zf2fs_nat_entry *ne = &nb->entries[e];

		if (nid < ZF2FS_RESERVED_NIDS)
			continue;
		/* past the last nid in use the NAT holds nothing */
		zf2fs_nat_set(ne, ne->version, nid < ctx->nids ? nat_ino(ctx, nid) : 0,
			      nid < ctx->nids ? ctx->nat_addr[nid] : 0);
	}
}

/* Dirty SIT and NAT blocks to their inactive copies (the library flips their bits in
 * the new checkpoint's bitmaps). */
static int write_tables(struct commit *c)
{
	struct fsck_ctx *ctx = c->ctx;
	int err = zf2fs_vol_write_sit_dirty(ctx->vol, ctx->repair->sit_dirty, repair_sit, ctx,
					    c->cpbuf);

	return err ? err : zf2fs_vol_write_nat_dirty(ctx->vol, ctx->repair->nat_dirty, repair_nat,
						     ctx, c->cpbuf);
}

static void final_counters(struct commit *c, struct zf2fs_checkpoint *cp)
{
	struct fsck_ctx *ctx = c->ctx;
	uint64_t blocks = 0;
	uint32_t nodes = 0, inodes = 0, free_segs = 0;

	for (uint32_t s = 0; s < ctx->vi->main_segs; s++) {
		uint32_t n = zf2fs_sit_valid_blocks(sit_get(ctx, s));

		blocks += n;
		if (!n && !is_curseg(c->cur, s) && seg_usable(ctx, s))
			free_segs++;
	}
	for (uint32_t nid = ZF2FS_RESERVED_NIDS; nid < ctx->nids; nid++) {
		if (ctx->nat_addr[nid] == ZF2FS_NULL_ADDR)
			continue;
		nodes++;
		if (nat_ino(ctx, nid) == nid)
			inodes++;
	}
	/* reserved (NEW_ADDR) blocks count as used without a place in the SIT */
	zf2fs_set(cp->valid_block_count, blocks + ctx->found_reserved);
	zf2fs_set(cp->valid_node_count, nodes);
	zf2fs_set(cp->valid_inode_count, inodes);
	if (free_count_known(ctx))   /* else kept: zone capacities unknown */
		zf2fs_set(cp->free_segment_count, free_segs);
	if (zf2fs_get(cp->next_free_nid) >= ctx->vi->max_nid)
		zf2fs_set(cp->next_free_nid, ZF2FS_ROOT_INO + 1);
}

static int write_pack(struct commit *c)
{
	struct fsck_ctx *ctx = c->ctx;
	struct zf2fs_cp_logs logs;
	unsigned flags = 0;

	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		logs.segno[t] = c->cur[t];
		logs.blkoff[t] = c->blkoff[t];
		logs.alloc_type[t] = c->alloc[t];
		logs.sum[t] = c->sum[t];
	}
	if (ctx->quota_clear_flag)
		flags |= ZF2FS_CPN_QUOTA_CHECKED;
	if (c->chain)
		flags |= ZF2FS_CPN_RECOVERY;
	final_counters(c, (struct zf2fs_checkpoint *)c->cpbuf);
	return zf2fs_vol_write_cp_next(ctx->vol, c->cpbuf, &logs, flags);
}

static int write_primary_super(struct fsck_ctx *ctx)
{
	uint8_t *blk = calloc(1, ZF2FS_BLKSIZE);
	int err;

	if (!blk)
		return -ENOMEM;
	/* the good copy, byte for byte, into the bad copy's place */
	err = zf2fs_vol_read_block(ctx->vol, zf2fs_super_blkaddr(ctx->vi->sb_copy), blk);
	if (!err)
		err = zf2fs_vol_write_block(ctx->vol, zf2fs_super_other_blkaddr(ctx->vi->sb_copy),
					    blk);
	if (!err)
		err = zf2fs_dev_sync(zf2fs_vol_dev(ctx->vol, 0));
	free(blk);
	return err;
}

/* Fsync'd data waits for the kernel's roll-forward (pass 2 found the chain).  A new
 * checkpoint has a new version, so the kernel would no longer accept the chain where it
 * is, and rewriting it in place would break the old checkpoint's recovery if the repair
 * were interrupted.  Instead the chain is copied into the new warm node log (write_chain)
 * and the new checkpoint leaves that log's position at the copy, without the umount flag:
 * the kernel replays the copy at mount exactly as it would have replayed the original.
 * Replaying the chain here instead would mean redoing the kernel's recovery (inode
 * updates, new names, data block moves, truncations) and getting it subtly different.
 * (f2fs-tools keeps the version by rewriting the current pack in place: not crash-safe.)
 * The original chain, and the data blocks its nodes point at, lie in blocks the SIT
 * calls free: their segments are pinned so that the repair writes nothing there. */
static int keep_chain(struct commit *c)
{
	struct fsck_ctx *ctx = c->ctx;
	struct fsck_repair *r = ctx->repair;
	uint8_t *b;
	int err = 0;

	r->pinned = calloc(ctx->vi->main_segs + 1, 1);
	b = malloc(ZF2FS_BLKSIZE);
	if (!r->pinned || !b) {
		free(b);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < ctx->rf_len && !err; i++) {
		err = zf2fs_vol_read_block(ctx->vol, ctx->rf_chain[i], b);
		if (err)
			break;
		r->pinned[blk_segno(ctx, ctx->rf_chain[i])] = 1;
		/* Every word of the block that could be a main-area address pins its segment:
		 * the data blocks the kernel will take over are among them.  Pinning a few
		 * segments too many only narrows the choice of free segments. */
		for (uint32_t w = 0; w < zf2fs_node_nr_words(); w++) {
			uint32_t a = zf2fs_node_word(b, w);

			if (blk_in_main(ctx, a))
				r->pinned[blk_segno(ctx, a)] = 1;
		}
	}
	free(b);
	if (err)
		return err;
	c->chain = true;   /* the new checkpoint asks for NOCRC recovery (repair_commit) */
	return 0;
}

int repair_commit(struct fsck_ctx *ctx)
{
	struct fsck_repair *r = ctx->repair;
	struct commit c = { .ctx = ctx, .ver = ctx->vi->cp_ver + 1 };
	bool tables;
	int err = 0;

	if (!repair_pending(ctx))
		return 0;
	if (r->super_primary) {
		err = write_primary_super(ctx);
		if (err)
			return err;
	}
	tables = r->nnodes || r->ndatas || r->nsums || r->nsum_types || r->cp_dirty;
	for (size_t i = 0; !tables && i <= ctx->vi->sit_blocks; i++)
		tables = r->sit_dirty[i];
	for (size_t i = 0; !tables && i <= ctx->vi->nat_blocks; i++)
		tables = r->nat_dirty[i];
	if (!tables)
		return 0;
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
		c.sum[t] = malloc(BPS * sizeof(struct zf2fs_summary));
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
		if (!c.sum[t])
			err = -ENOMEM;
	if (err || zf2fs_vol_cp_next(ctx->vol, ctx->rf_len ? ZF2FS_CPN_RECOVERY : 0, &c.cpbuf)) {
		err = -ENOMEM;
		goto out;
	}
	c.new_cp = (const void *)c.cpbuf;
	if (ctx->rf_len) {
		err = keep_chain(&c);
		if (err)
			goto out;
	}
	for (int t = 0; t < ZF2FS_NR_CURSEG && !err; t++) {
		zf2fs_vol_curseg(ctx->vol, t, &c.cur[t], &c.blkoff[t]);
		c.alloc[t] = ctx->cp->alloc_type[t];
		memcpy(c.sum[t], zf2fs_vol_curseg_summary(ctx->vol, t),
		       BPS * sizeof(struct zf2fs_summary));
	}
	/* the current logs' SIT entries and NAT entries of the journals go into blocks */
	if (!err) {
		zf2fs_vol_journal_blocks(ctx->vol, r->sit_dirty, r->nat_dirty);
		for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
			mark_sit(ctx, c.cur[t]);
	}
	for (int t = 0; t < ZF2FS_NR_CURSEG && !err; t++) {
		if (ctx->curseg_fix[t] < 0)
			continue;
		if (ctx->curseg_fix[t] < (int32_t)BPS)
			c.blkoff[t] = (uint32_t)ctx->curseg_fix[t];
		else
			err = new_log(&c, t, UINT32_MAX);
	}
	if (!err)
		err = write_datas(&c);
	if (!err)
		err = write_nodes(&c);
	if (!err)
		err = write_summary_fixes(&c);
	if (!err)
		err = write_tables(&c);
	if (!err)
		err = write_pack(&c);
	if (err == -E2BIG)
		fprintf(stderr, "fsck.f2fs: too many blocks to rewrite in one run (at most %u); "
			"nothing was committed\n", BPS - 1);
out:
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
		free(c.sum[t]);
	free(c.cpbuf);
	return err;
}
