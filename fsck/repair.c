// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * repair.c - queue fsck's fixes; the library writes them without ever making the volume
 * worse.
 *
 * The passes queue changes here: node blocks (read and changed in place in memory, or
 * new), data blocks of a node's slots, NAT entries and SIT validity in fsck's own tables
 * (which pass 3 read and the passes corrected), summary entries and footer types, the
 * write position of a log, the primary superblock.  Nothing touches the disk until
 * repair_commit(), which hands everything to the library's one out-of-place commit
 * (zf2fs_vol_commit, lib/write/commit.c), with fsck's tables behind its callbacks: node and
 * dentry blocks go to new logs in sections free before and after the repair (and free
 * of anything pass 4 found in use), SIT and NAT blocks to their inactive copies with the
 * journals flushed into them, a pending roll-forward chain is copied behind the new warm
 * node log, and the new checkpoint goes to the inactive pack, its CP blocks last.  An
 * interruption at any point leaves the current checkpoint, and so the volume, as it
 * was.  Checkpoint counters are recomputed from the final SIT and NAT (repair_counters).
 * The only in-place writes are summary (SSA) corrections and the rebuilt primary
 * superblock; neither is read through the current checkpoint for the blocks concerned.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/txn.h"
#include "zf2fs-internal/commit.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

struct rnode {
	uint32_t nid, old_addr;
	struct zf2fs_node *buf;
};

struct rdata {
	uint32_t owner, ofs, old_addr;
	uint8_t *buf;
};

struct fsck_repair {
	struct rnode *nodes;
	size_t nnodes, cap_nodes;
	struct rdata *datas;
	size_t ndatas, cap_datas;
	struct zf2fs_commit_sum *sums;
	size_t nsums, cap_sums;
	struct zf2fs_commit_sum_type *sum_types;
	size_t nsum_types, cap_sum_types;
	uint16_t *orig_count;        /* SIT valid counts before any change */
	uint8_t *sit_dirty;          /* per SIT block */
	uint8_t *nat_dirty;          /* per NAT block */
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
		if (!zf2fs_sit_table_block_used(ctx->sit, zf2fs_geom_sit_block_index(ctx->g, s))) {
			s = (zf2fs_geom_sit_block_index(ctx->g, s) + 1) * ctx->g->sit_per_block - 1;
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
	rn->buf = malloc(ZF2FS_BLKSIZE_MAX);
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
	rn->buf = calloc(1, ZF2FS_BLKSIZE_MAX);
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
	memcpy(rn->buf, blk, ctx->g->blocksize);
	rn->nid = nid;
	rn->old_addr = ctx->nat_addr[nid];
	r->nnodes++;
	r->any = true;
	return rn->buf;
}

static void mark_sit(struct fsck_ctx *ctx, uint32_t segno)
{
	ctx->repair->sit_dirty[zf2fs_geom_sit_block_index(ctx->g, segno)] = 1;
	ctx->repair->any = true;
}

static void mark_nat(struct fsck_ctx *ctx, uint32_t nid)
{
	ctx->repair->nat_dirty[zf2fs_geom_nat_block_index(ctx->g, nid)] = 1;
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
 * @old, or zeros for NULL_ADDR (a hole filled: the commit checks the slot is still a
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
	if (!on || repair_drop_extent(ctx, (uint32_t)zf2fs_get(nfoot(ctx, on)->ino)))
		return -ENOMEM;
	rd = grow(r->datas, &r->cap_datas, r->ndatas, sizeof(*rd));
	if (!rd)
		return -ENOMEM;
	r->datas = rd;
	rd = &r->datas[r->ndatas];
	rd->buf = calloc(1, ZF2FS_BLKSIZE_MAX);
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
	struct zf2fs_commit_sum *rs;

	/* a volume without a summary area (the read-only feature) keeps none to correct:
	 * writing one would overwrite a main-area block (zf2fs_vol_has_ssa) */
	if (!zf2fs_vol_has_ssa(ctx->vol))
		return 0;
	if (!r)
		return -EINVAL;
	rs = grow(r->sums, &r->cap_sums, r->nsums, sizeof(*rs));
	if (!rs)
		return -ENOMEM;
	r->sums = rs;
	r->sums[r->nsums++] = (struct zf2fs_commit_sum){ (uint32_t)blk, nid, ofs, version };
	r->any = true;
	return 0;
}

int repair_set_sum_type(struct fsck_ctx *ctx, uint32_t segno, uint8_t type)
{
	struct fsck_repair *r = ctx->repair;
	struct zf2fs_commit_sum_type *rs;

	/* a volume without a summary area (the read-only feature) keeps none to correct:
	 * writing one would overwrite a main-area block (zf2fs_vol_has_ssa) */
	if (!zf2fs_vol_has_ssa(ctx->vol))
		return 0;
	if (!r)
		return -EINVAL;
	rs = grow(r->sum_types, &r->cap_sum_types, r->nsum_types, sizeof(*rs));
	if (!rs)
		return -ENOMEM;
	r->sum_types = rs;
	r->sum_types[r->nsum_types++] = (struct zf2fs_commit_sum_type){ segno, type };
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
		return dview_inline(ctx, d, &v[0]) ? -ZF2FS_EFSCORRUPTED : 1;
	if (d->i.i_dir_level != 0)
		return 0;
	zf2fs_file_walk(ctx->vol, d, &ops, &fb);
	for (int b = 0; b < 2; b++) {
		void *buf;

		if (!fb.have[b] || !blk_in_main(ctx, fb.addr[b]))
			continue;
		if (repair_data_block(ctx, fb.owner[b], fb.ofs[b], fb.addr[b], &buf))
			return -EIO;
		dview_block(ctx, buf, &v[n++]);
	}
	return n;
}

/* The new data block queued in this repair for slot @ofs of @owner, or NULL. */
static void *queued_new_data(struct fsck_ctx *ctx, uint32_t owner, uint32_t ofs)
{
	struct fsck_repair *r = ctx->repair;

	for (size_t i = 0; r && i < r->ndatas; i++)
		if (r->datas[i].owner == owner && r->datas[i].ofs == ofs &&
		    r->datas[i].old_addr == ZF2FS_NULL_ADDR)
			return r->datas[i].buf;
	return NULL;
}

/*
 * A name for directory @dir whose first blocks are full (a lost+found filling with
 * reconnected files): into the bucket its hash picks, level by level, as the kernel's add
 * goes deeper: a block of the bucket with room, else a new dentry block there, the directory's
 * size, depth and block count growing with it.  Only where the inode addresses the block
 * itself, and not in casefolded or encrypted directories, whose names fsck cannot hash.
 */
static int add_dentry_deeper(struct fsck_ctx *ctx, uint32_t dir, const char *name,
			     uint32_t ino, uint8_t type)
{
	struct zf2fs_node *d = repair_node(ctx, dir);
	const size_t bs = ctx->g->blocksize, len = strlen(name);
	struct zf2fs_dentry_view v;
	struct zf2fs_inode_geom g;
	uint32_t hash, dl;

	if (!d)
		return -EIO;
	if ((d->i.i_inline & ZF2FS_INLINE_DENTRY) || (zf2fs_get(d->i.i_flags) & ZF2FS_CASEFOLD_FL) ||
	    (d->i.i_advise & ZF2FS_ADVISE_ENCRYPT) || inode_geom(ctx, &d->i, &g))
		return -ENOSPC;
	hash = zf2fs_dentry_hash(name, len);
	dl = d->i.i_dir_level;
	for (uint32_t level = 0; level < ZF2FS_MAX_DIR_HASH_DEPTH; level++) {
		uint64_t first = zf2fs_dir_bucket_start(level, dl, zf2fs_dir_hash_bucket(hash, level, dl));

		for (uint64_t b = first; b < first + zf2fs_dir_bucket_blocks(level); b++) {
			uint32_t addr;
			void *buf;
			int err;

			if (b >= g.addrs)
				return -ENOSPC;
			addr = zf2fs_le32_to_cpu(zf2fs_inode_addrs(d)[g.extra_words + b]);
			buf = queued_new_data(ctx, dir, (uint32_t)b);
			if (!buf && addr == ZF2FS_NULL_ADDR) {
				/* a new, empty dentry block */
				err = repair_new_data_block(ctx, dir, (uint32_t)b, &buf);
				if (err)
					return err;
				d = repair_node(ctx, dir);
				if (!d)
					return -EIO;
				zf2fs_set(d->i.i_blocks, zf2fs_get(d->i.i_blocks) + 1);
				if (zf2fs_get(d->i.i_size) < (b + 1) * bs)
					zf2fs_set(d->i.i_size, (b + 1) * bs);
				if (zf2fs_get(d->i.i_current_depth) < level + 1)
					zf2fs_set(d->i.i_current_depth, level + 1);
				ctx->found_blocks++;
				err = quota_charge_more(ctx, dir, &d->i, 0, bs);
				if (err)
					return err;
			} else if (!buf) {
				if (!blk_in_main(ctx, addr))
					continue;   /* NEW_ADDR or damage pass 4 reported */
				err = repair_data_block(ctx, dir, (uint32_t)b, addr, &buf);
				if (err)
					return err;
			}
			dview_block(ctx, buf, &v);
			if (zf2fs_dentry_add(&v, name, len, ino, type) >= 0)
				return 0;
		}
	}
	return -ENOSPC;
}

/*
 * A full inline directory becomes a block directory, as the kernel converts one: its
 * entries into a new first dentry block at the same slots, the inline flag and area
 * cleared, one block more.  Not for casefolded or encrypted directories (their names'
 * hashes would not be checked again).
 */
int repair_dir_to_blocks(struct fsck_ctx *ctx, uint32_t dir)
{
	struct zf2fs_node *d = repair_node(ctx, dir);
	const size_t bs = ctx->g->blocksize;
	struct zf2fs_dentry_view iv, bv;
	struct zf2fs_inode_geom g;
	void *buf;
	int err;

	if (!d || dview_inline(ctx, d, &iv))
		return -EIO;
	if ((zf2fs_get(d->i.i_flags) & ZF2FS_CASEFOLD_FL) || (d->i.i_advise & ZF2FS_ADVISE_ENCRYPT))
		return -ENOSPC;
	err = repair_new_data_block(ctx, dir, 0, &buf);
	if (err)
		return err;
	d = repair_node(ctx, dir);   /* the queue may have moved it */
	if (!d || dview_inline(ctx, d, &iv))
		return -EIO;
	dview_block(ctx, buf, &bv);
	for (uint32_t i = 0; i < iv.nr && i < bv.nr; i++) {
		if (!zf2fs_dentry_slot_used(&iv, i))
			continue;
		((struct zf2fs_dir_entry *)bv.dentry)[i] = iv.dentry[i];
		memcpy((void *)bv.filename[i], iv.filename[i], ZF2FS_SLOT_LEN);
		zf2fs_dentry_bit_set((uint8_t *)bv.bitmap, i);
	}
	d->i.i_inline &= (uint8_t)~ZF2FS_INLINE_DENTRY;
	if (inode_geom(ctx, &d->i, &g))
		return -EIO;
	memset(&zf2fs_inode_addrs(d)[g.extra_words], 0, (size_t)g.addrs * sizeof(zf2fs_le32));
	zf2fs_set(d->i.i_size, bs);
	zf2fs_set(d->i.i_blocks, zf2fs_get(d->i.i_blocks) + 1);
	zf2fs_set(d->i.i_current_depth, 1);
	ctx->found_blocks++;
	return quota_charge_more(ctx, dir, &d->i, 0, bs);
}

int repair_add_dentry(struct fsck_ctx *ctx, uint32_t dir, const char *name, uint32_t ino,
		      uint8_t type)
{
	struct zf2fs_dentry_view v[2];
	int n = first_dentry_views(ctx, dir, v);
	const struct zf2fs_node *d;
	int err;

	for (int k = 0; k < n; k++)
		if (zf2fs_dentry_add(&v[k], name, strlen(name), ino, type) >= 0)
			return 0;
	if (n < 0)
		return n;
	d = repair_node(ctx, dir);
	if (d && (d->i.i_inline & ZF2FS_INLINE_DENTRY)) {
		err = repair_dir_to_blocks(ctx, dir);
		if (err)
			return err;
	}
	return add_dentry_deeper(ctx, dir, name, ino, type);
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

/* ---- commit: the library's one out-of-place commit (zf2fs_vol_commit) ---------------- */
static const struct zf2fs_sit_entry *repair_sit(void *arg, uint32_t segno)
{
	return sit_get(arg, segno);
}

static struct zf2fs_sit_entry *repair_sit_mut(void *arg, uint32_t segno)
{
	return sit_mut(arg, segno);
}

/* Blocks pass 4 found in use lie in the segment, whatever its SIT entry counted. */
static bool repair_seg_busy(void *arg, uint32_t segno)
{
	const struct fsck_ctx *ctx = arg;

	return seg_found_get(ctx, segno) != 0;
}

static bool repair_node_at(void *arg, size_t i, struct zf2fs_commit_node *ret)
{
	const struct rnode *n = &((struct fsck_ctx *)arg)->repair->nodes[i];

	*ret = (struct zf2fs_commit_node){ n->nid, n->old_addr, n->buf };
	return true;
}

static bool repair_data_at(void *arg, size_t i, struct zf2fs_commit_data *ret)
{
	const struct rdata *d = &((struct fsck_ctx *)arg)->repair->datas[i];

	*ret = (struct zf2fs_commit_data){ d->owner, d->ofs, d->old_addr, d->buf };
	return true;
}

/* A data block's owner was queued with it (queue_data). */
static struct zf2fs_node *repair_owner(void *arg, uint32_t nid)
{
	const struct fsck_repair *r = ((struct fsck_ctx *)arg)->repair;

	for (size_t i = 0; i < r->nnodes; i++)
		if (r->nodes[i].nid == nid)
			return r->nodes[i].buf;
	return NULL;
}

/* The NAT entry follows a node only where it still names the block the node was read
 * from: a repair that pointed it elsewhere (or cleared it) stands. */
static int repair_node_moved(void *arg, uint32_t nid, const struct zf2fs_node *n, uint32_t old,
			     uint32_t addr)
{
	struct fsck_ctx *ctx = arg;
	int err;

	(void)n;
	if (ctx->nat_addr[nid] != old)
		return 0;
	err = nat_put(ctx, nid, nat_ino(ctx, nid), addr);
	if (!err)
		mark_nat(ctx, nid);
	return err;
}

/* NAT block @b from fsck's table (pass 3 read it, journal included; repairs changed it). */
static void repair_nat(void *arg, uint32_t b, struct zf2fs_nat_block *nb)
{
	struct fsck_ctx *ctx = arg;

	for (uint32_t e = 0; e < ctx->g->nat_per_block; e++) {
		uint32_t nid = b * ctx->g->nat_per_block + e;
		struct zf2fs_nat_entry *ne = zf2fs_nat_block_entry(nb, e);

		if (nid < ZF2FS_RESERVED_NIDS)
			continue;
		/* past the last nid in use the NAT holds nothing */
		zf2fs_nat_set(ne, ne->version, nid < ctx->nids ? nat_ino(ctx, nid) : 0,
			      nid < ctx->nids ? ctx->nat_addr[nid] : 0);
	}
}

/* The counters from the final SIT and NAT, as fsck found them (the commit counts the
 * free segments). */
static void repair_counters(void *arg, struct zf2fs_checkpoint *cp)
{
	struct fsck_ctx *ctx = arg;
	uint64_t blocks = 0;
	uint32_t nodes = 0, inodes = 0;

	for (uint32_t s = 0; s < ctx->vi->main_segs; s++)
		blocks += zf2fs_sit_valid_blocks(sit_get(ctx, s));
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
	if (zf2fs_get(cp->next_free_nid) >= ctx->vi->max_nid)
		zf2fs_set(cp->next_free_nid, ZF2FS_ROOT_INO + 1);
}

static const struct zf2fs_commit_ops repair_ops = {
	.sit = repair_sit,
	.sit_mut = repair_sit_mut,
	.seg_busy = repair_seg_busy,
	.node_at = repair_node_at,
	.data_at = repair_data_at,
	.owner = repair_owner,
	.node_moved = repair_node_moved,
	.nat_block = repair_nat,
	.counters = repair_counters,
};

/* Fsync'd data waits for the kernel's roll-forward (pass 2 found the chain).  A new
 * checkpoint has a new version, so the kernel would no longer accept the chain where it
 * is, and rewriting it in place would break the old checkpoint's recovery if the repair
 * were interrupted.  Instead the commit copies the chain behind the new warm node log's
 * position and leaves the new checkpoint without the umount flag: the kernel replays the
 * copy at mount exactly as it would have replayed the original.  Replaying the chain
 * here instead would mean redoing the kernel's recovery (inode updates, new names, data
 * block moves, truncations) and getting it subtly different.  (f2fs-tools keeps the
 * version by rewriting the current pack in place: not crash-safe.)  The original chain,
 * and the data blocks its nodes point at, lie in blocks the SIT calls free: the commit
 * writes nothing into their segments. */
int repair_commit(struct fsck_ctx *ctx)
{
	struct fsck_repair *r = ctx->repair;
	bool tables;
	int err;

	if (!repair_pending(ctx))
		return 0;
	if (r->super_primary) {
		char why[256];

		/* the copy in use (checked at open) over the bad one, then over itself */
		err = zf2fs_vol_write_super(ctx->vol, zf2fs_vol_super(ctx->vol), why, sizeof(why));
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
	/* a pass that queued a block read its owner's slot: it must still say so */
	return zf2fs_vol_commit(ctx->vol, &(struct zf2fs_commit_req){
		.ops = &repair_ops, .arg = ctx,
		.nnodes = r->nnodes, .ndatas = r->ndatas, .orig_count = r->orig_count,
		.sit_dirty = r->sit_dirty, .nat_dirty = r->nat_dirty,
		.sums = r->sums, .nsums = r->nsums,
		.sum_types = r->sum_types, .nsum_types = r->nsum_types,
		.chain = ctx->rf_chain, .chain_len = ctx->rf_len, .log_fix = ctx->curseg_fix,
		.orphans = ctx->orphans, .norphans = ctx->norphans,
		.flags = ZF2FS_COMMIT_CHECK_SLOTS |
			 (ctx->quota_clear_flag ? ZF2FS_CPN_QUOTA_CHECKED : 0) |
			 (ctx->orphans_rewrite && !ctx->orphans_keep ? ZF2FS_COMMIT_ORPHANS : 0) });
}
