// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * txn.c - the crash-safe transaction: queue changes to a volume, commit them in one
 * checkpoint (include/zf2fs/txn.h).
 *
 * Queued changes live in memory: new and changed node blocks (whole copies), new and
 * changed data blocks (owner node and slot), and an overlay of NAT entries over the SIT
 * the transaction loads whole.  The commit charges the quota files, frees what removed
 * inodes held, and hands the rest to the library's one out-of-place commit
 * (zf2fs_vol_commit, lib/write/commit.c): data and node blocks into new logs in free sections,
 * SIT and NAT blocks to their inactive copies, the new checkpoint last.  Until that
 * checkpoint's last write the current one names only blocks nothing here touched.
 * A transaction too big for memory is flushed on the way (zf2fs_txn_flush): the same
 * commit, begun at the first flush (lib/write/commit_p.h), writes the queued data and node
 * blocks and keeps its logs and taken sections for the next flush and the end; the
 * queue keeps one entry per node (NAT overlay, origin for the quota charges) and reads
 * a flushed node back when it changes again.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/file.h"
#include "zf2fs/geometry.h"
#include "zf2fs/quota.h"
#include "zf2fs/txn.h"
#include "zf2fs/zoned.h"
#include "zf2fs-internal/volume.h"
#include "zf2fs-internal/quota.h"
#include "zf2fs-internal/commit.h"
#include "write/commit_p.h"
#include "device/device_p.h"
#include "format/inode_p.h"
#include "write/txn_p.h"
#include "read/volume_p.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

static size_t ix_hash(uint64_t key, size_t cap)
{
	key *= 0x9e3779b97f4a7c15ull;
	return (size_t)(key >> 32) & (cap - 1);
}

/* a file has fewer than 2^32 blocks */
static uint64_t data_key(uint32_t owner, uint64_t fofs)
{
	return ((uint64_t)owner << 32) | (fofs & UINT32_MAX);
}

static uint64_t ix_key(const struct zf2fs_txn *t, const struct tindex *ix, uint32_t i)
{
	if (ix == &t->node_ix)
		return t->nodes[i].nid;
	if (ix == &t->nat_ix)
		return t->nat[i].nid;
	return data_key(t->datas[i].owner, t->datas[i].fofs);
}

/* Record that element @i of @ix's array has key @key; 0 or -ENOMEM. */
static int ix_add(const struct zf2fs_txn *t, struct tindex *ix, size_t n, uint64_t key,
		  uint32_t i)
{
	size_t h;

	if (2 * (ix->used + 1) > ix->cap) {
		size_t cap = ix->cap ? ix->cap * 2 : 1024;
		uint32_t *slot = calloc(cap, sizeof(*slot));

		if (!slot)
			return -ENOMEM;
		free(ix->slot);
		ix->slot = slot;
		ix->cap = cap;
		ix->used = 0;
		/* every element before @i again; stale slots are left behind */
		for (uint32_t j = 0; j < i && j < n; j++) {
			for (h = ix_hash(ix_key(t, ix, j), cap); slot[h]; h = (h + 1) & (cap - 1))
				;
			slot[h] = j + 1;
			ix->used++;
		}
	}
	for (h = ix_hash(key, ix->cap); ix->slot[h]; h = (h + 1) & (ix->cap - 1))
		;
	ix->slot[h] = i + 1;
	ix->used++;
	return 0;
}

/* The element of @ix's array (@n elements) with key @key, or -1. */
static int64_t ix_find(const struct zf2fs_txn *t, const struct tindex *ix, size_t n,
		       uint64_t key)
{
	if (!ix->cap)
		return -1;
	for (size_t h = ix_hash(key, ix->cap); ix->slot[h]; h = (h + 1) & (ix->cap - 1)) {
		uint32_t i = ix->slot[h] - 1;

		if (i < n && ix_key(t, ix, i) == key)
			return i;
	}
	return -1;
}

static void *grow(void *arr, size_t *cap, size_t n, size_t size)
{
	void *p;

	if (n < *cap)
		return arr;
	p = realloc(arr, (*cap ? *cap * 2 : 16) * size);
	if (p)
		*cap = *cap ? *cap * 2 : 16;
	return p;
}

/* ---- begin ------------------------------------------------------------------------ */
ZF2FS_EXPORT int zf2fs_txn_begin(struct zf2fs_vol *vol, struct zf2fs_txn **ret)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_txn *t;
	int err;

	*ret = NULL;
	for (unsigned d = 0; d < vol->ndevs; d++)
		if (!vol->dev[d]->writable)
			return -EROFS;
	/* quota files would need their charges, a pending roll-forward or an error would be
	 * thrown away by a new checkpoint */
	if (!(vi->ckpt_flags & ZF2FS_CP_UMOUNT_FLAG) || (vi->ckpt_flags & ZF2FS_CP_ERROR_FLAG) ||
	    (vi->ckpt_flags & ZF2FS_CP_QUOTA_NEED_FSCK_FLAG))
		return -EOPNOTSUPP;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->vol = vol;
	t->vi = vi;
	t->g = zf2fs_vol_geom(vol);
	t->now = (uint64_t)time(NULL);
	t->next_nid = ZF2FS_ROOT_INO + 1;
	t->orig_count = calloc(vi->main_segs ? vi->main_segs : 1, sizeof(uint16_t));
	t->orig_ix = calloc(vi->main_segs ? vi->main_segs : 1, sizeof(uint32_t));
	t->sit_dirty = calloc(vi->sit_blocks + 1, 1);
	t->nat_dirty = calloc(vi->nat_blocks + 1, 1);
	err = t->orig_count && t->orig_ix && t->sit_dirty && t->nat_dirty ? 0 : -ENOMEM;
	if (!err)
		err = zf2fs_vol_load_sit(vol, &t->sit);
	for (uint32_t s = 0; !err && s < vi->main_segs; s++)
		t->orig_count[s] = (uint16_t)zf2fs_sit_valid_blocks(&t->sit[s]);
	for (int type = 0; !err && type < ZF2FS_NR_CURSEG; type++) {
		uint32_t seg, off;
		bool clear = true;

		zf2fs_vol_curseg(vol, type, &seg, &off);
		if (seg >= vi->main_segs || off >= ZF2FS_BLOCKS_PER_SEG)
			continue;
		for (uint32_t b = off; b < ZF2FS_BLOCKS_PER_SEG && clear; b++)
			clear = !zf2fs_sit_block_valid(&t->sit[seg], b);
		if (clear)
			t->log_tail_free |= (uint8_t)(1u << type);
	}
	if (err) {
		zf2fs_txn_free(t);
		return err;
	}
	*ret = t;
	return 0;
}

ZF2FS_EXPORT void zf2fs_txn_fresh_logs(struct zf2fs_txn *t)
{
	t->log_tail_free = 0;
}

ZF2FS_EXPORT void zf2fs_txn_set_time(struct zf2fs_txn *t, uint64_t seconds)
{
	t->now = seconds;
}

int zf2fs_txn_set_space(struct zf2fs_txn *t, uint64_t user_block_count,
			uint32_t rsvd_segments, uint32_t ovp_segments)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(t->vol);

	/* the kernel's checkpoint checks (f2fs_sanity_check_ckpt) for these three */
	if (!user_block_count || !rsvd_segments || !ovp_segments ||
	    user_block_count >= (uint64_t)vi->main_segs * vi->blocks_per_seg ||
	    rsvd_segments >= vi->main_segs || ovp_segments >= vi->main_segs)
		return -EINVAL;
	t->set_space = true;
	t->user_block_count = user_block_count;
	t->rsvd_segments = rsvd_segments;
	t->ovp_segments = ovp_segments;
	return 0;
}

ZF2FS_EXPORT void zf2fs_txn_free(struct zf2fs_txn *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nnodes; i++)
		free(t->nodes[i].buf);
	for (size_t i = 0; i < t->ndatas; i++)
		free(t->datas[i].buf);
	free(t->nodes);
	free(t->datas);
	free(t->nat);
	free(t->node_ix.slot);
	free(t->nat_ix.slot);
	free(t->data_ix.slot);
	free(t->freed);
	free(t->sit);
	free(t->orig_count);
	free(t->orig_ix);
	free(t->orig_ent);
	free(t->emptying);
	free(t->sit_dirty);
	free(t->nat_dirty);
	commit_free(t->cm);
	free(t);
}

/* ---- the in-memory overlay -------------------------------------------------------- */
static struct tnat *nat_find(struct zf2fs_txn *t, uint32_t nid)
{
	int64_t i = ix_find(t, &t->nat_ix, t->nnat, nid);

	return i < 0 ? NULL : &t->nat[i];
}

static struct tnode *node_find(struct zf2fs_txn *t, uint32_t nid)
{
	int64_t i = ix_find(t, &t->node_ix, t->nnodes, nid);

	return i < 0 ? NULL : &t->nodes[i];
}

struct tnode *find_node(struct zf2fs_txn *t, uint32_t nid)
{
	return node_find(t, nid);
}

int nat_set(struct zf2fs_txn *t, uint32_t nid, uint32_t ino, uint32_t addr)
{
	struct tnat *e = nat_find(t, nid);

	if (!e) {
		struct tnat *n = grow(t->nat, &t->cap_nat, t->nnat, sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->nat = n;
		t->nat[t->nnat].nid = nid;
		if (ix_add(t, &t->nat_ix, t->nnat, nid, (uint32_t)t->nnat))
			return -ENOMEM;
		e = &t->nat[t->nnat++];
	}
	e->ino = ino;
	e->addr = addr;
	t->nat_dirty[zf2fs_geom_nat_block_index(t->g, nid)] = 1;
	return 0;
}

/* The next entry of the node queue, for node @nid, with a block for the caller to fill
 * (get_node reads it, new_node zeroes it); NULL when out of memory.  It is in the queue
 * once queue_node says so. */
static struct tnode *queue_slot(struct zf2fs_txn *t, uint32_t nid)
{
	struct tnode *n = grow(t->nodes, &t->cap_nodes, t->nnodes, sizeof(*n));

	if (!n)
		return NULL;
	t->nodes = n;
	n = &t->nodes[t->nnodes];
	memset(n, 0, sizeof(*n));
	n->nid = nid;
	n->buf = malloc(t->g->blocksize);
	return n->buf ? n : NULL;
}

/* Entry @n from queue_slot joins the queue and its index; its block into @ret. */
static int queue_node(struct zf2fs_txn *t, struct tnode *n, struct zf2fs_node **ret)
{
	if (ix_add(t, &t->node_ix, t->nnodes, n->nid, (uint32_t)t->nnodes)) {
		free(n->buf);
		return -ENOMEM;
	}
	t->nnodes++;
	*ret = n->buf;
	return 0;
}

/* The node @nid as this transaction will write it: queued on first use. */
int get_node(struct zf2fs_txn *t, uint32_t nid, struct zf2fs_node **ret)
{
	struct tnode *n;
	char why[200];
	int err;

	n = node_find(t, nid);
	if (n && !n->buf) {
		/* written by a flush: back from where it went, to be written again (out of
		 * place, that copy then freed) */
		n->buf = malloc(t->g->blocksize);
		if (!n->buf)
			return -ENOMEM;
		err = zf2fs_vol_read_block(t->vol, n->old_addr, n->buf);
		if (err) {
			free(n->buf);
			n->buf = NULL;
			return err;
		}
	}
	if (n) {
		*ret = n->buf;
		return 0;
	}
	n = queue_slot(t, nid);
	if (!n)
		return -ENOMEM;
	err = zf2fs_vol_read_node(t->vol, nid, n->buf, &n->old_addr, why, sizeof(why));
	if (err) {
		zf2fs_logf(&t->vol->log, ZF2FS_MSG_ERROR, 0, "%s", why);
		free(n->buf);
		return err;
	}
	if (zf2fs_get(zf2fs_node_footer(t->g, n->buf)->ino) == nid) {
		n->was_inode = true;
		zf2fs_quota_inode_ids(&n->buf->i, t->vi->features, n->orig_ids);
		n->orig_bytes = txn_quota_bytes(t, zf2fs_get(n->buf->i.i_blocks));
	}
	return queue_node(t, n, ret);
}

int new_node(struct zf2fs_txn *t, uint32_t nid, struct zf2fs_node **ret)
{
	struct tnode *n = queue_slot(t, nid);

	if (!n)
		return -ENOMEM;
	memset(n->buf, 0, t->g->blocksize);
	n->is_new_inode = true;
	return queue_node(t, n, ret);
}

struct tdata *find_data(struct zf2fs_txn *t, uint32_t owner, uint64_t fofs)
{
	int64_t i = ix_find(t, &t->data_ix, t->ndatas, data_key(owner, fofs));

	return i < 0 ? NULL : &t->datas[i];
}

int queue_data(struct zf2fs_txn *t, uint32_t owner, uint32_t ofs, uint64_t fofs,
		      uint32_t old_addr, uint8_t *buf)
{
	struct tdata *d = grow(t->datas, &t->cap_datas, t->ndatas, sizeof(*d));

	if (!d)
		return -ENOMEM;
	t->datas = d;
	t->datas[t->ndatas] = (struct tdata){ owner, ofs, old_addr, fofs, buf, 0 };
	if (ix_add(t, &t->data_ix, t->ndatas, data_key(owner, fofs), (uint32_t)t->ndatas))
		return -ENOMEM;
	t->ndatas++;
	return 0;
}

/* A nid that is free in the NAT and not taken by this transaction. */
int alloc_nid(struct zf2fs_txn *t, uint32_t *ret)
{
	for (uint32_t nid = t->next_nid; nid < t->vi->max_nid; nid++) {
		struct zf2fs_nat_info ni;
		int err;

		if (nat_find(t, nid))
			continue;
		err = zf2fs_vol_nat_lookup(t->vol, nid, &ni);
		if (err)
			return err;
		if (ni.blkaddr == ZF2FS_NULL_ADDR && ni.ino == 0) {
			t->next_nid = nid + 1;
			*ret = nid;
			return 0;
		}
	}
	return -ENOSPC;
}

/* ---- inodes and dentries ------------------------------------------------------------ */
static uint32_t addr_base(const struct zf2fs_txn *t, const struct zf2fs_node *n)
{
	struct zf2fs_inode_geom g;

	if (zf2fs_inode_geometry2(t->g, &n->i, t->vi->features, &g))
		return UINT32_MAX;
	return g.extra_words;
}

static void init_inode(struct zf2fs_txn *t, struct zf2fs_node *n, uint32_t ino, uint32_t pino,
		       const char *name, size_t len, uint32_t mode)
{
	/* the caller checked @len */
	(void)zf2fs_inode_init2(t->g, n, t->vi->features, ino, pino, name, len, mode, t->now);
}

void put_dentry(uint8_t *bitmap, struct zf2fs_dir_entry *dentry,
		       uint8_t (*filename)[ZF2FS_SLOT_LEN], uint32_t at, const char *name,
		       size_t len, uint32_t hash, uint32_t ino, uint8_t type)
{
	zf2fs_set(dentry[at].hash_code, hash);
	zf2fs_set(dentry[at].ino, ino);
	zf2fs_set(dentry[at].name_len, len);
	dentry[at].file_type = type;
	memcpy(filename[at], name, len);
	for (uint32_t i = 0; i < zf2fs_dentry_slots((uint32_t)len); i++)
		zf2fs_dentry_bit_set(bitmap, at + i);
}

/* The first run of @slots free slots from slot @from on (first fit, as the kernel adds
 * names); -1 when there is none. */
static int64_t free_run(const uint8_t *bitmap, uint32_t nr, uint32_t from, uint32_t slots)
{
	for (uint32_t i = from; i + slots <= nr; i++) {
		uint32_t k = 0;

		while (k < slots && !zf2fs_dentry_bit_test(bitmap, i + k))
			k++;
		if (k == slots)
			return i;
		i += k;
	}
	return -1;
}

static int64_t dentry_add_hashed(const struct zf2fs_dentry_view *v, const char *name,
				 size_t len, uint32_t hash, uint32_t ino, uint8_t type)
{
	int64_t at = free_run(v->bitmap, v->nr, 0, zf2fs_dentry_slots((uint32_t)len));

	if (at < 0 || len > ZF2FS_NAME_LEN)
		return -ENOSPC;
	/* the view is read-only for readers; the caller owns the block behind it */
	put_dentry((uint8_t *)v->bitmap, (struct zf2fs_dir_entry *)v->dentry,
		   (uint8_t (*)[ZF2FS_SLOT_LEN])v->filename, (uint32_t)at, name, len, hash, ino,
		   type);
	return at;
}

ZF2FS_EXPORT int64_t zf2fs_dentry_add(const struct zf2fs_dentry_view *v, const char *name,
				      size_t len, uint32_t ino, uint8_t type)
{
	return dentry_add_hashed(v, name, len, zf2fs_dentry_hash(name, len), ino, type);
}

ZF2FS_EXPORT uint32_t zf2fs_dentry_entry_slots(const struct zf2fs_dentry_view *v, uint32_t slot)
{
	uint32_t len = (uint32_t)zf2fs_get(v->dentry[slot].name_len);

	return len ? zf2fs_dentry_slots(len) : 1;
}

ZF2FS_EXPORT void zf2fs_dentry_put(const struct zf2fs_dentry_view *v, uint32_t slot,
				   const char *name, size_t len, uint32_t hash, uint32_t ino,
				   uint8_t type)
{
	put_dentry((uint8_t *)v->bitmap, (struct zf2fs_dir_entry *)v->dentry,
		   (uint8_t (*)[ZF2FS_SLOT_LEN])v->filename, slot, name, len, hash, ino, type);
}

ZF2FS_EXPORT int64_t zf2fs_dentry_copy(const struct zf2fs_dentry_view *to, uint32_t first,
				       const struct zf2fs_dentry_view *from, uint32_t slot,
				       uint32_t hash)
{
	uint32_t n = zf2fs_dentry_entry_slots(from, slot);
	uint32_t len = (uint32_t)zf2fs_get(from->dentry[slot].name_len);
	struct zf2fs_dir_entry *de;
	uint8_t *name;
	int64_t at;

	if (slot + n > from->nr)
		return -ZF2FS_EFSCORRUPTED;   /* a name running past its area */
	at = free_run(to->bitmap, to->nr, first, n);
	if (at < 0)
		return -ENOSPC;
	de = (struct zf2fs_dir_entry *)&to->dentry[at];
	name = (uint8_t *)to->filename[at];
	*de = from->dentry[slot];
	zf2fs_set(de->hash_code, hash);
	/* the slots were free: nothing of what they held stays behind the name */
	memset(name, 0, (size_t)n * ZF2FS_SLOT_LEN);
	memcpy(name, from->filename[slot], len < n * ZF2FS_SLOT_LEN ? len : n * ZF2FS_SLOT_LEN);
	for (uint32_t i = 0; i < n; i++)
		zf2fs_dentry_bit_set((uint8_t *)to->bitmap, (uint32_t)at + i);
	return at;
}

ZF2FS_EXPORT void zf2fs_dentry_del(const struct zf2fs_dentry_view *v, uint32_t slot, uint32_t n)
{
	for (uint32_t i = slot; i < slot + n && i < v->nr; i++)
		zf2fs_dentry_bit_clear((uint8_t *)v->bitmap, i);
}

/* Dentry block @fofs of directory @dir (its queued node @dn) as this transaction sees it;
 * a hole gives a new zeroed block.  The block is queued for writing. */
static int dir_block(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node *dn, uint64_t fofs,
		     struct zf2fs_dentry_block **ret)
{
	struct tdata *d = find_data(t, dir, fofs);
	uint32_t base = addr_base(t, dn), addr;
	struct zf2fs_inode_geom g;
	uint8_t *buf;
	int err;

	if (d) {
		*ret = (struct zf2fs_dentry_block *)d->buf;
		return 0;
	}
	if (base == UINT32_MAX || zf2fs_inode_geometry2(t->g, &dn->i, t->vi->features, &g))
		return -ZF2FS_EFSCORRUPTED;
	if (fofs >= g.addrs)
		return -EFBIG;   /* direct nodes for directories: not yet */
	addr = zf2fs_get_le32p(zf2fs_inode_addrs(dn) + base + fofs);
	buf = calloc(1, t->g->blocksize);
	if (!buf)
		return -ENOMEM;
	if (addr != ZF2FS_NULL_ADDR && addr != ZF2FS_NEW_ADDR) {
		err = zf2fs_vol_read_block(t->vol, addr, buf);
		if (err) {
			free(buf);
			return err;
		}
	} else {
		zf2fs_set(dn->i.i_blocks, zf2fs_get(dn->i.i_blocks) + 1);
		t->new_blocks++;
	}
	err = queue_data(t, dir, (uint32_t)fofs, fofs, addr == ZF2FS_NEW_ADDR ? ZF2FS_NULL_ADDR :
			 addr, buf);
	if (err) {
		free(buf);
		return err;
	}
	*ret = (struct zf2fs_dentry_block *)buf;
	return 0;
}

/* An inline directory becomes a directory with one dentry block, as the kernel converts
 * one whose inline area is full (fs/f2fs/inline.c, f2fs_move_inline_dirents): the inline
 * bitmap, entries and names are copied to the same slots of block 0 (level 0 holds every
 * hash when i_dir_level is 0), the inline area is cleared, the depth becomes 1. */
static int convert_inline_dir(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node *dn)
{
	struct zf2fs_dentry_view v, bv;
	struct zf2fs_inode_geom g;
	uint8_t *db;
	int err;

	if (dn->i.i_dir_level)
		return -EOPNOTSUPP;   /* the kernel rehashes those: not yet */
	if (zf2fs_dentry_view_inline2(t->g, dn, t->vi->features, &v) ||
	    zf2fs_inode_geometry2(t->g, &dn->i, t->vi->features, &g))
		return -ZF2FS_EFSCORRUPTED;
	db = calloc(1, t->g->blocksize);
	if (!db)
		return -ENOMEM;
	zf2fs_dentry_view_block2(t->g, db, &bv);
	memcpy((uint8_t *)bv.bitmap, v.bitmap, (v.nr + 7) / 8);
	memcpy((struct zf2fs_dir_entry *)bv.dentry, v.dentry, (size_t)v.nr * sizeof(v.dentry[0]));
	memcpy((uint8_t *)bv.filename, v.filename, (size_t)v.nr * ZF2FS_SLOT_LEN);
	/* the inline area: one reserved word, then the dentries */
	memset(zf2fs_inode_addrs(dn) + g.extra_words, 0, 4 + (size_t)g.inline_bytes);
	dn->i.i_inline &= (uint8_t)~ZF2FS_INLINE_DENTRY;
	if ((dn->i.i_inline & ZF2FS_EXTRA_ATTR) && !(dn->i.i_inline & ZF2FS_INLINE_XATTR) &&
	    !(t->vi->features & ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR))
		zf2fs_set(dn->i.i_inline_xattr_size, 0);
	zf2fs_set(dn->i.i_current_depth, 1);
	if (zf2fs_get(dn->i.i_size) < t->g->blocksize)
		zf2fs_set(dn->i.i_size, t->g->blocksize);
	zf2fs_set(dn->i.i_blocks, zf2fs_get(dn->i.i_blocks) + 1);
	t->new_blocks++;
	err = queue_data(t, dir, 0, 0, ZF2FS_NULL_ADDR, db);
	if (err)
		free(db);
	return err;
}

int dir_for_change(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node **ret)
{
	int err = get_node(t, dir, ret);

	if (err)
		return err;
	if (zf2fs_inode_type(&(*ret)->i) != ZF2FS_S_IFDIR)
		return -ENOTDIR;
	if ((*ret)->i.i_advise & ZF2FS_ADVISE_ENCRYPT)
		return -EOPNOTSUPP;
	err = txn_casefold_ok(t, *ret);   /* lib/write/txn_names.c */
	if (err)
		return err;
	if ((*ret)->i.i_inline & ZF2FS_INLINE_DENTRY)
		return convert_inline_dir(t, dir, *ret);
	return 0;
}

/* Whether slot @i of @v holds @name (hash, length, bytes; the name fits the block). */
static bool slot_names(const struct zf2fs_dentry_view *v, uint32_t i, const char *name,
		       size_t len, uint32_t hash)
{
	return zf2fs_dentry_slot_used(v, i) && zf2fs_get(v->dentry[i].hash_code) == hash &&
	       zf2fs_get(v->dentry[i].name_len) == len &&
	       i + zf2fs_dentry_slots((uint32_t)len) <= v->nr && !memcmp(v->filename[i], name, len);
}

/* Dentry blocks of directory @dn: its size in blocks. */
static uint64_t dir_nblocks(const struct zf2fs_txn *t, const struct zf2fs_node *dn)
{
	return txn_blocks(t, zf2fs_get(dn->i.i_size));
}

/* Whether @name is already in @dir, looking at the queued blocks first. */
static int name_exists(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node *dn,
		       const char *name, size_t len, uint32_t hash)
{
	struct zf2fs_bucket_iter it;

	zf2fs_bucket_iter_init(&it, hash, dn->i.i_dir_level,
			       (uint32_t)zf2fs_get(dn->i.i_current_depth), dir_nblocks(t, dn));
	while (zf2fs_bucket_iter_next(&it)) {
		struct zf2fs_dentry_view v;
		struct tdata *d = find_data(t, dir, it.block);
		uint8_t blk[ZF2FS_BLKSIZE_MAX];
		uint32_t base = addr_base(t, dn), addr;
		struct zf2fs_inode_geom g;
		int err;

		if (base == UINT32_MAX || zf2fs_inode_geometry2(t->g, &dn->i, t->vi->features, &g))
			return -ZF2FS_EFSCORRUPTED;
		if (d) {
			memcpy(blk, d->buf, t->g->blocksize);
		} else {
			if (it.block >= g.addrs)
				continue;
			addr = zf2fs_get_le32p(zf2fs_inode_addrs(dn) + base + it.block);
			if (addr == ZF2FS_NULL_ADDR || addr == ZF2FS_NEW_ADDR)
				continue;
			err = zf2fs_vol_read_block(t->vol, addr, blk);
			if (err)
				return err;
		}
		zf2fs_dentry_view_block2(t->g, blk, &v);
		for (uint32_t i = 0; i < v.nr; i++)
			if (slot_names(&v, i, name, len, hash) ||
			    txn_slot_matches(t, dn, &v, i, name, len, hash))
				return -EEXIST;
	}
	return 0;
}

/* The next block of walk @it of directory @dir, ready for change, into @v: 1; 0 when the
 * walk is over; a negative errno. */
static int next_dir_block(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node *dn,
			  struct zf2fs_bucket_iter *it, struct zf2fs_dentry_view *v)
{
	struct zf2fs_dentry_block *db;
	int err;

	if (!zf2fs_bucket_iter_next(it))
		return 0;
	err = dir_block(t, dir, dn, it->block, &db);
	if (err)
		return err;
	zf2fs_dentry_view_block2(t->g, db, v);
	return 1;
}

/* Add @name -> @ino to directory @dir: the first bucket block with room, level by level,
 * a new level when every bucket on the way is full (fs/f2fs/dir.c, f2fs_add_regular_entry). */
int add_dentry(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node *dn,
		      const char *name, size_t len, uint32_t ino, uint8_t type)
{
	uint32_t hash;
	uint32_t depth = (uint32_t)zf2fs_get(dn->i.i_current_depth);
	struct zf2fs_bucket_iter it;
	struct zf2fs_dentry_view v;
	int err = txn_name_hash(t, dn, name, len, &hash);

	if (!err)
		err = name_exists(t, dir, dn, name, len, hash);

	if (err)
		return err;
	/* past the current depth and the directory's end too: a new level, new blocks */
	zf2fs_bucket_iter_init(&it, hash, dn->i.i_dir_level, ZF2FS_MAX_DIR_HASH_DEPTH, UINT64_MAX);
	while ((err = next_dir_block(t, dir, dn, &it, &v)) > 0) {
		/* in a casefolded directory the hash is the folded name's (txn_name_hash) */
		if (dentry_add_hashed(&v, name, len, hash, ino, type) < 0)
			continue;
		if (it.level >= depth)
			zf2fs_set(dn->i.i_current_depth, it.level + 1);
		if (zf2fs_get(dn->i.i_size) < (it.block + 1) * t->g->blocksize)
			zf2fs_set(dn->i.i_size, (it.block + 1) * t->g->blocksize);
		zf2fs_set(dn->i.i_mtime, t->now);
		zf2fs_set(dn->i.i_ctime, t->now);
		return 0;
	}
	return err ? err : -ENOSPC;
}

int enter_new_inode(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node *dn, const char *name,
		    size_t len, uint32_t ino, uint8_t type)
{
	int err = add_dentry(t, dir, dn, name, len, ino, type);

	if (err) {
		/* nothing refers to the new node: drop it */
		free(t->nodes[--t->nnodes].buf);
		return err;
	}
	err = nat_set(t, ino, ino, ZF2FS_NULL_ADDR);
	if (err)
		return err;
	t->new_inodes++;
	t->new_nodes++;
	t->new_blocks++;
	return 0;
}

ZF2FS_EXPORT int zf2fs_txn_create(struct zf2fs_txn *t, uint32_t dir, const char *name,
				  uint32_t mode, const void *data, size_t len, uint32_t *ret_ino)
{
	size_t nlen = strlen(name);
	bool is_dir = zf2fs_mode_type(mode) == ZF2FS_S_IFDIR;
	struct zf2fs_node *dn, *n;
	struct zf2fs_inode_geom g;
	uint32_t ino;
	uint64_t nblk = txn_blocks(t, len);
	const size_t bs = t->g->blocksize;
	int err;

	if (!nlen || nlen > ZF2FS_NAME_LEN)
		return nlen ? -ENAMETOOLONG : -EINVAL;
	if (memchr(name, '/', nlen) || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	if (!is_dir && zf2fs_mode_type(mode) != ZF2FS_S_IFREG)
		return -EINVAL;
	if (is_dir && (data || len))
		return -EINVAL;
	err = dir_for_change(t, dir, &dn);
	if (err)
		return err;
	err = alloc_nid(t, &ino);
	if (err)
		return err;
	err = new_node(t, ino, &n);
	if (err)
		return err;
	init_inode(t, n, ino, dir, name, nlen, mode);
	if (zf2fs_inode_geometry2(t->g, &n->i, t->vi->features, &g))
		return -ZF2FS_EFSCORRUPTED;
	/* checked before the name goes in: the inode's own addresses, direct, indirect and
	 * double indirect nodes */
	if (!file_blocks_fit(t, &g, nblk))
		return -EFBIG;
	err = enter_new_inode(t, dir, dn, name, nlen, ino,
			      is_dir ? ZF2FS_FT_DIR : ZF2FS_FT_REG_FILE);
	if (err)
		return err;
	if (is_dir) {
		uint8_t *db = calloc(1, bs);
		struct zf2fs_dentry_view v;

		if (!db)
			return -ENOMEM;
		zf2fs_dentry_view_block2(t->g, db, &v);
		zf2fs_dentry_put(&v, 0, ".", 1, 0, ino, ZF2FS_FT_DIR);
		zf2fs_dentry_put(&v, 1, "..", 2, 0, dir, ZF2FS_FT_DIR);
		zf2fs_set(n->i.i_current_depth, 1);
		zf2fs_set(n->i.i_size, bs);
		zf2fs_set(n->i.i_blocks, 2);
		err = queue_data(t, ino, 0, 0, ZF2FS_NULL_ADDR, db);
		if (err) {
			free(db);
			return err;
		}
		t->new_blocks++;
		zf2fs_set(dn->i.i_links, zf2fs_get(dn->i.i_links) + 1);
	} else {
		uint8_t *tail = NULL;

		/* block by block as zf2fs_txn_write_block maps them (lib/write/txn_file.c) */
		for (uint64_t b = 0; b < nblk && !err; b++) {
			const uint8_t *src = (const uint8_t *)data + b * bs;

			if (len - b * bs < bs) {
				tail = calloc(1, bs);
				if (!tail)
					return -ENOMEM;
				memcpy(tail, src, len - b * bs);
				src = tail;
			}
			err = file_block(t, ino, n, b, src);
		}
		free(tail);
		if (err)
			return err;
		zf2fs_set(n->i.i_size, len);
	}
	if (ret_ino)
		*ret_ino = ino;
	return 0;
}

/* Where @name is in directory @dn: dentry block @ret_fofs, slot @ret_slot. */
static int find_entry(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node *dn,
		      const char *name, size_t len, uint64_t *ret_fofs, uint32_t *ret_slot,
		      uint32_t *ret_ino)
{
	uint32_t hash;
	struct zf2fs_bucket_iter it;
	struct zf2fs_dentry_view v;
	int err = txn_name_hash(t, dn, name, len, &hash);

	if (!err)
		err = name_exists(t, dir, dn, name, len, hash);

	if (err != -EEXIST)
		return err ? err : -ENOENT;
	zf2fs_bucket_iter_init(&it, hash, dn->i.i_dir_level,
			       (uint32_t)zf2fs_get(dn->i.i_current_depth), dir_nblocks(t, dn));
	while ((err = next_dir_block(t, dir, dn, &it, &v)) > 0)
		for (uint32_t i = 0; i < v.nr; i++)
			if (slot_names(&v, i, name, len, hash)) {
				*ret_fofs = it.block;
				*ret_slot = i;
				*ret_ino = (uint32_t)zf2fs_get(v.dentry[i].ino);
				return 0;
			}
	return err ? err : -ENOENT;
}


ZF2FS_EXPORT int zf2fs_txn_link(struct zf2fs_txn *t, uint32_t dir, const char *name,
				uint32_t ino)
{
	size_t len = strlen(name);
	struct zf2fs_node *dn, *n;
	int err;

	if (!len || len > ZF2FS_NAME_LEN || memchr(name, '/', len) || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return len > ZF2FS_NAME_LEN ? -ENAMETOOLONG : -EINVAL;
	err = dir_for_change(t, dir, &dn);
	if (!err)
		err = get_node(t, ino, &n);
	if (err)
		return err;
	if (zf2fs_inode_type(&n->i) == ZF2FS_S_IFDIR)
		return -EPERM;   /* no hard links to directories */
	err = add_dentry(t, dir, dn, name, len, ino, zf2fs_mode_to_ftype((uint32_t)zf2fs_get(n->i.i_mode)));
	if (err)
		return err;
	zf2fs_set(n->i.i_links, zf2fs_get(n->i.i_links) + 1);
	zf2fs_set(n->i.i_ctime, t->now);
	/* as the kernel does on link: i_pino and i_name now name one of several places */
	n->i.i_advise |= ZF2FS_ADVISE_LOST_PINO;
	return 0;
}

/* Data block @addr is freed at commit (its SIT bit cleared). */
static int push_freed(struct zf2fs_txn *t, uint32_t addr)
{
	uint32_t *f = grow(t->freed, &t->cap_freed, t->nfreed, sizeof(*f));

	if (!f)
		return -ENOMEM;
	t->freed = f;
	t->freed[t->nfreed++] = addr;
	return 0;
}

/* Drop inode @n (its node block, its data blocks); the caller checked it has no other
 * nodes. */
static int remove_inode(struct zf2fs_txn *t, uint32_t ino, struct zf2fs_node *n)
{
	struct zf2fs_inode_geom g;
	struct tnode *tn = node_find(t, ino);

	if (!tn || zf2fs_inode_geometry2(t->g, &n->i, t->vi->features, &g))
		return -ZF2FS_EFSCORRUPTED;
	if (!(n->i.i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY))) {
		for (uint32_t i = 0; i < g.addrs; i++) {
			uint32_t a = zf2fs_get_le32p(zf2fs_inode_addrs(n) + g.extra_words + i);

			if (a == ZF2FS_NULL_ADDR || a == ZF2FS_NEW_ADDR)
				continue;
			if (push_freed(t, a))
				return -ENOMEM;
			t->new_blocks--;
		}
	}
	tn->removed = true;
	t->new_inodes--;
	t->new_nodes--;
	t->new_blocks--;
	return 0;
}

static int not_dot(void *arg, const struct zf2fs_dentry_info *d)
{
	(void)arg;
	if ((d->name_len == 1 && d->name[0] == '.') ||
	    (d->name_len == 2 && d->name[0] == '.' && d->name[1] == '.'))
		return 0;
	return -ENOTEMPTY;
}

/* 0 when directory @n holds nothing but "." and "..". */
static int dir_empty(struct zf2fs_txn *t, const struct zf2fs_node *n)
{
	return zf2fs_dir_iterate(t->vol, n, not_dot, NULL, NULL);
}

static bool created_here(struct zf2fs_txn *t, uint32_t ino)
{
	struct tnode *n = node_find(t, ino);

	return n && n->is_new_inode;
}

ZF2FS_EXPORT int zf2fs_txn_unlink(struct zf2fs_txn *t, uint32_t dir, const char *name)
{
	size_t len = strlen(name);
	struct zf2fs_dentry_block *db;
	struct zf2fs_dentry_view v;
	struct zf2fs_node *dn, *n;
	uint32_t slot, ino;
	uint64_t fofs;
	bool is_dir;
	int err;

	if (!len || len > ZF2FS_NAME_LEN || !strcmp(name, ".") || !strcmp(name, ".."))
		return len > ZF2FS_NAME_LEN ? -ENAMETOOLONG : -EINVAL;
	err = dir_for_change(t, dir, &dn);
	if (!err)
		err = find_entry(t, dir, dn, name, len, &fofs, &slot, &ino);
	if (!err)
		err = get_node(t, ino, &n);
	if (err)
		return err;
	is_dir = zf2fs_inode_type(&n->i) == ZF2FS_S_IFDIR;
	if (created_here(t, ino))
		return -EBUSY;   /* queued blocks would still point at it */
	if (is_dir) {
		err = dir_empty(t, n);
		if (err)
			return err;
		for (size_t i = 0; i < t->ndatas; i++)
			if (t->datas[i].owner == ino)
				return -EBUSY;   /* entries changed in this transaction */
	}
	/* what this version cannot free yet is refused before anything changes */
	if (is_dir || zf2fs_get(n->i.i_links) <= 1) {
		for (uint32_t i = 0; i < t->g->nids_per_inode; i++)
			if (zf2fs_get_le32p(zf2fs_inode_nids(t->g, n) + i))
				return -EOPNOTSUPP;
		if (zf2fs_get(n->i.i_xattr_nid) || (zf2fs_get(n->i.i_flags) & ZF2FS_COMPR_FL))
			return -EOPNOTSUPP;
	}
	err = dir_block(t, dir, dn, fofs, &db);
	if (err)
		return err;
	zf2fs_dentry_view_block2(t->g, db, &v);
	zf2fs_dentry_del(&v, slot, zf2fs_dentry_slots((uint32_t)len));
	zf2fs_set(dn->i.i_mtime, t->now);
	zf2fs_set(dn->i.i_ctime, t->now);
	if (is_dir) {   /* its ".." counted in the parent's links */
		zf2fs_set(dn->i.i_links, zf2fs_get(dn->i.i_links) - 1);
		return remove_inode(t, ino, n);
	}
	if (zf2fs_get(n->i.i_links) > 1) {
		zf2fs_set(n->i.i_links, zf2fs_get(n->i.i_links) - 1);
		zf2fs_set(n->i.i_ctime, t->now);
		return 0;
	}
	return remove_inode(t, ino, n);
}

/* ---- quota charges ------------------------------------------------------------------------ */
static bool is_quota_ino(const struct zf2fs_txn *t, uint32_t ino)
{
	for (int q = 0; q < ZF2FS_MAX_QUOTAS; q++)
		if (zf2fs_get(t->vol->sb.qf_ino[q]) == ino)
			return true;
	return false;
}

static int charge(struct zf2fs_quota_file *qf, uint32_t id, int64_t inodes, int64_t bytes)
{
	size_t i = 0;

	if (!inodes && !bytes)
		return 0;
	while (i < qf->n && qf->dq[i].id != id)
		i++;
	if (i == qf->n) {
		struct zf2fs_dquot *dq = realloc(qf->dq, (qf->n + 1) * sizeof(*dq));

		if (!dq)
			return -ENOMEM;
		qf->dq = dq;
		memset(&dq[qf->n], 0, sizeof(dq[0]));
		dq[qf->n++].id = id;
	}
	qf->dq[i].curinodes = (uint64_t)((int64_t)qf->dq[i].curinodes + inodes);
	qf->dq[i].curspace = (uint64_t)((int64_t)qf->dq[i].curspace + bytes);
	return 0;
}

/* Replace the contents of quota file @qino by @buf (@size bytes): its blocks rewritten out
 * of place, blocks it no longer needs freed. */
static int rewrite_quota_file(struct zf2fs_txn *t, uint32_t qino, const uint8_t *buf,
			      size_t size)
{
	struct zf2fs_node *n;
	struct zf2fs_inode_geom g;
	const size_t bs = t->g->blocksize;
	uint64_t nblk = txn_blocks(t, size), oblk;
	zf2fs_le32 *addrs;
	int err = get_node(t, qino, &n);

	if (err)
		return err;
	if (zf2fs_inode_geometry2(t->g, &n->i, t->vi->features, &g) ||
	    (n->i.i_inline & ZF2FS_INLINE_DATA))
		return -ZF2FS_EFSCORRUPTED;
	addrs = zf2fs_inode_addrs(n) + g.extra_words;
	oblk = txn_blocks(t, zf2fs_get(n->i.i_size));
	if (nblk > g.addrs || oblk > g.addrs || zf2fs_get_le32p(zf2fs_inode_nids(t->g, n)))
		return -EOPNOTSUPP;   /* quota files past the inode's addresses: not yet */
	for (uint64_t b = 0; b < nblk; b++) {
		uint8_t *blk = calloc(1, bs);
		uint32_t old = zf2fs_get_le32p(addrs + b);
		size_t piece = size - b * bs < bs ? size - b * bs : bs;

		if (!blk)
			return -ENOMEM;
		memcpy(blk, buf + b * bs, piece);
		if (old == ZF2FS_NEW_ADDR)
			old = ZF2FS_NULL_ADDR;
		err = queue_data(t, qino, (uint32_t)b, b, old, blk);
		if (err) {
			free(blk);
			return err;
		}
		if (old == ZF2FS_NULL_ADDR) {
			t->new_blocks++;
			zf2fs_set(n->i.i_blocks, zf2fs_get(n->i.i_blocks) + 1);
		}
	}
	for (uint64_t b = nblk; b < oblk; b++) {
		uint32_t old = zf2fs_get_le32p(addrs + b);

		if (old == ZF2FS_NULL_ADDR || old == ZF2FS_NEW_ADDR)
			continue;
		if (push_freed(t, old))
			return -ENOMEM;
		zf2fs_put_le32p(addrs + b, ZF2FS_NULL_ADDR);
		zf2fs_set(n->i.i_blocks, zf2fs_get(n->i.i_blocks) - 1);
		t->new_blocks--;
	}
	zf2fs_set(n->i.i_size, size);
	zf2fs_set(n->i.i_mtime, t->now);
	return 0;
}

/* Charge every inode this transaction created, removed or resized to its ids in each
 * quota file, as the kernel's dquot accounting would have (quota files themselves are
 * not charged). */
static int charge_quotas(struct zf2fs_txn *t)
{
	struct zf2fs_node *tmp = NULL;
	int ret = 0;

	if (!(t->vi->features & ZF2FS_FEAT_QUOTA_INO))
		return 0;
	for (int q = 0; q < ZF2FS_MAX_QUOTAS; q++) {
		uint32_t qino = (uint32_t)zf2fs_get(t->vol->sb.qf_ino[q]);
		struct zf2fs_quota_file qf = { 0 };
		uint8_t *buf = NULL;
		size_t size = 0, nnodes = t->nnodes;
		char why[200];
		int err;

		if (!qino)
			continue;
		err = zf2fs_quota_load(t->vol, qino, q, &qf, why, sizeof(why));
		if (err) {
			zf2fs_logf(&t->vol->log, ZF2FS_MSG_ERROR, 0, "quota file %u: %s", qino, why);
			return err;
		}
		for (size_t i = 0; i < nnodes && !err; i++) {
			struct tnode *n = &t->nodes[i];
			const struct zf2fs_node *b = n->buf;
			uint32_t ids[3];

			/* a node a flush wrote out: read back for the moment */
			if (!b) {
				if (!tmp)
					tmp = malloc(t->g->blocksize);
				err = tmp ? zf2fs_vol_read_block(t->vol, n->old_addr, tmp) : -ENOMEM;
				b = tmp;
			}
			if (err || is_quota_ino(t, n->nid) ||
			    zf2fs_get(zf2fs_node_footer(t->g, b)->ino) != n->nid)
				continue;
			if (n->was_inode)
				err = charge(&qf, n->orig_ids[q], -1, -(int64_t)n->orig_bytes);
			if (!err && !n->removed) {
				zf2fs_quota_inode_ids(&b->i, t->vi->features, ids);
				err = charge(&qf, ids[q], 1, (int64_t)txn_quota_bytes(
					     t, zf2fs_get(b->i.i_blocks)));
			}
		}
		if (!err)
			err = zf2fs_quota_build(q, &qf, &buf, &size);
		if (!err)
			err = rewrite_quota_file(t, qino, buf, size);
		free(buf);
		zf2fs_quota_file_free(&qf);
		if (err) {
			ret = err;
			break;
		}
	}
	free(tmp);
	return ret;
}

/* ---- commit: the library's one out-of-place commit (zf2fs_vol_commit) --------------- */
/* Keep segment @seg's SIT entry as the checkpoint has it, before its first change. */
static void keep_orig(struct zf2fs_txn *t, uint32_t seg)
{
	if (t->orig_ix[seg] || t->orig_lost)
		return;
	if (t->norig == t->caporig) {
		uint32_t nc = t->caporig ? t->caporig * 2 : 256;
		struct zf2fs_sit_entry *n = realloc(t->orig_ent, (size_t)nc * sizeof(*n));

		if (!n) {
			t->orig_lost = true;
			return;
		}
		t->orig_ent = n;
		t->caporig = nc;
	}
	t->orig_ent[t->norig++] = t->sit[seg];
	t->orig_ix[seg] = t->norig;
}

static void set_block(struct zf2fs_txn *t, uint32_t blk, bool valid)
{
	uint32_t seg;

	if (blk < t->vi->main_blkaddr || blk >= t->vi->main_end)
		return;
	seg = zf2fs_main_segno(t->vi->main_blkaddr, blk);
	keep_orig(t, seg);
	if (zf2fs_sit_mark_at(&t->sit[seg], zf2fs_main_seg_off(t->vi->main_blkaddr, blk), valid,
			      zf2fs_vol_now(t->vol)))
		t->sit_dirty[zf2fs_geom_sit_block_index(t->g, seg)] = 1;
}

/* Data blocks of removed inodes and the removed nodes' own blocks are freed, their NAT
 * entries cleared: nothing of them is written. */
static int free_removed(struct zf2fs_txn *t)
{
	for (size_t i = 0; i < t->nfreed; i++)
		set_block(t, t->freed[i], false);
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct tnode *n = &t->nodes[i];

		if (!n->removed)
			continue;
		if (nat_set(t, n->nid, 0, ZF2FS_NULL_ADDR))
			return -ENOMEM;
		set_block(t, n->old_addr, false);
	}
	return 0;
}

static const struct zf2fs_sit_entry *txn_sit(void *arg, uint32_t segno)
{
	return &((struct zf2fs_txn *)arg)->sit[segno];
}

static struct zf2fs_sit_entry *txn_sit_mut(void *arg, uint32_t segno)
{
	keep_orig(arg, segno);
	return &((struct zf2fs_txn *)arg)->sit[segno];
}

static bool txn_seg_busy(void *arg, uint32_t segno)
{
	const struct zf2fs_txn *t = arg;

	return t->emptying && t->emptying[segno];
}

static const struct zf2fs_sit_entry *txn_sit_orig(void *arg, uint32_t segno)
{
	struct zf2fs_txn *t = arg;

	if (t->orig_lost)
		return NULL;
	return t->orig_ix[segno] ? &t->orig_ent[t->orig_ix[segno] - 1] : &t->sit[segno];
}

static bool txn_node_at(void *arg, size_t i, struct zf2fs_commit_node *ret)
{
	const struct tnode *n = &((struct zf2fs_txn *)arg)->nodes[i];

	*ret = (struct zf2fs_commit_node){ n->nid, n->old_addr, n->buf };
	return !n->removed && n->buf;   /* a flushed node not changed since stays */
}

static bool txn_data_at(void *arg, size_t i, struct zf2fs_commit_data *ret)
{
	const struct tdata *d = &((struct zf2fs_txn *)arg)->datas[i];

	*ret = (struct zf2fs_commit_data){ d->owner, d->ofs, d->old_addr, d->buf };
	return true;
}

static struct zf2fs_node *txn_owner(void *arg, uint32_t nid)
{
	struct tnode *n = node_find(arg, nid);

	return n ? n->buf : NULL;
}

/* The owner of a data block to write: a node a flush wrote out is read back, to be
 * written again with the block's new address. */
static struct zf2fs_node *txn_owner_load(void *arg, uint32_t nid)
{
	struct zf2fs_node *n;

	return node_find(arg, nid) && !get_node(arg, nid, &n) ? n : NULL;
}

/* The log a mover chose for the block (lib/move/move.c), else the kernel's temperatures when
 * the loader asked for them (lib/write/txn_temp.c): a data block by its file's inode, a node by
 * its kind; else the warm logs. */
static int txn_log_of(void *arg, bool node, size_t i)
{
	struct zf2fs_txn *t = arg;
	const struct zf2fs_node *owner;

	if (node && t->nodes[i].log)
		return t->nodes[i].log - 1;
	if (!node && t->datas[i].log)
		return t->datas[i].log - 1;
	if (node)
		return txn_node_log(t, t->nodes[i].buf);
	owner = txn_owner(t, t->datas[i].owner);
	return txn_data_log(t, owner ? txn_owner(t, (uint32_t)zf2fs_get(
		zf2fs_node_footer(t->g, owner)->ino)) : NULL);
}

static int txn_node_moved(void *arg, uint32_t nid, const struct zf2fs_node *n, uint32_t old,
			  uint32_t addr)
{
	struct tnode *q = node_find(arg, nid);

	(void)old;
	/* the block a later flush or the commit replaces, if the node changes again */
	if (q)
		q->old_addr = addr;
	return nat_set(arg, nid, (uint32_t)zf2fs_get(
		zf2fs_node_footer(((struct zf2fs_txn *)arg)->g, n)->ino), addr);
}

/* NAT block @b as the new checkpoint has it: the journal's entries, then this
 * transaction's changes. */
static void txn_nat(void *arg, uint32_t b, struct zf2fs_nat_block *nb)
{
	struct zf2fs_txn *t = arg;
	const struct zf2fs_geom *g = t->g;
	const struct zf2fs_journal *nj = &t->vol->nat_journal;
	uint32_t nn = (uint32_t)zf2fs_get(nj->n_entries);

	for (uint32_t i = 0; i < nn && i < g->nat_journal_entries; i++) {
		const struct zf2fs_nat_journal_entry *je = zf2fs_journal_nat(nj, i);
		uint32_t nid = (uint32_t)zf2fs_get(je->nid);

		if (nid < t->vi->max_nid && zf2fs_geom_nat_block_index(g, nid) == b)
			*zf2fs_nat_block_entry(nb, zf2fs_geom_nat_entry_index(g, nid)) = je->ne;
	}
	/* the block's own nids through the index: a scan of every queued entry per dirty
	 * block made a big transaction quadratic */
	for (uint32_t e = 0; t->nnat && e < g->nat_per_block; e++) {
		const struct tnat *q = nat_find(t, b * g->nat_per_block + e);
		struct zf2fs_nat_entry *ne = zf2fs_nat_block_entry(nb, e);

		/* the version stays: the kernel bumps it only when a node goes, and data
		 * summaries record it */
		if (q)
			zf2fs_nat_set(ne, ne->version, q->ino, q->addr);
	}
}

static void txn_counters(void *arg, struct zf2fs_checkpoint *cp)
{
	struct zf2fs_txn *t = arg;

	zf2fs_set(cp->valid_block_count, (uint64_t)((int64_t)zf2fs_get(cp->valid_block_count) +
						  t->new_blocks));
	zf2fs_set(cp->valid_node_count, (uint64_t)((int64_t)zf2fs_get(cp->valid_node_count) +
						 t->new_nodes));
	zf2fs_set(cp->valid_inode_count, (uint64_t)((int64_t)zf2fs_get(cp->valid_inode_count) +
						  t->new_inodes));
	if (zf2fs_get(cp->next_free_nid) < t->next_nid)
		zf2fs_set(cp->next_free_nid, t->next_nid < t->vi->max_nid ? t->next_nid :
		       ZF2FS_ROOT_INO + 1);
	if (t->set_space) {
		zf2fs_set(cp->user_block_count, t->user_block_count);
		zf2fs_set(cp->rsvd_segment_count, t->rsvd_segments);
		zf2fs_set(cp->overprov_segment_count, t->ovp_segments);
	}
}

static const struct zf2fs_commit_ops txn_ops = {
	.sit = txn_sit,
	.sit_mut = txn_sit_mut,
	.sit_orig = txn_sit_orig,
	.seg_busy = txn_seg_busy,
	.node_at = txn_node_at,
	.data_at = txn_data_at,
	.owner = txn_owner_load,
	.node_moved = txn_node_moved,
	.log_of = txn_log_of,
	.nat_block = txn_nat,
	.counters = txn_counters,
};

/* The request of this transaction's commit: the same for every flush and the end. */
static void fill_req(struct zf2fs_txn *t)
{
	struct zf2fs_commit_req *r = &t->req;

	r->ops = &txn_ops;
	r->arg = t;
	r->nnodes = t->nnodes;
	r->ndatas = t->ndatas;
	r->orig_count = t->orig_count;
	r->sit_dirty = t->sit_dirty;
	r->nat_dirty = t->nat_dirty;
	r->alloc_first = t->alloc_first;
	r->alloc_end = t->alloc_end;
	r->data_first = t->data_first;
	r->data_end = t->data_end;
	r->retire_logs = t->retire_logs;
	r->log_tail_free = t->log_tail_free;
}

ZF2FS_EXPORT int zf2fs_txn_flush(struct zf2fs_txn *t)
{
	bool queued = t->ndatas > 0;
	int err = 0;

	if (t->committed)
		return -EINVAL;
	/* nodes a flush wrote keep their entries, without a block unless changed since */
	for (size_t i = 0; i < t->nnodes && !queued; i++)
		queued = t->nodes[i].buf && !t->nodes[i].removed;
	if (!queued)
		return 0;
	fill_req(t);
	if (!t->cm)
		err = commit_begin(t->vol, &t->req, &t->cm);
	if (!err)
		err = commit_write(t->cm, &t->req);
	if (err) {
		/* the blocks and logs are half written: only zf2fs_txn_free is left */
		t->committed = true;
		return err;
	}
	t->flushes++;
	/* the data blocks are on disk, their owners (written just after them) hold their
	 * addresses: a block wanted again is read back through its owner */
	for (size_t i = 0; i < t->ndatas; i++)
		free(t->datas[i].buf);
	t->ndatas = 0;
	if (t->data_ix.slot)
		memset(t->data_ix.slot, 0, t->data_ix.cap * sizeof(*t->data_ix.slot));
	t->data_ix.used = 0;
	/* the nodes keep their queue entries (their NAT entries, quota ids, origins): only
	 * their blocks go, read back from @old_addr on the next change (get_node) */
	for (size_t i = 0; i < t->nnodes; i++) {
		struct tnode *n = &t->nodes[i];

		if (n->removed || !n->buf)
			continue;
		free(n->buf);
		n->buf = NULL;
	}
	return 0;
}

ZF2FS_EXPORT int zf2fs_txn_commit(struct zf2fs_txn *t)
{
	int err;

	if (t->committed)
		return -EINVAL;
	if (!t->nnodes && !t->ndatas && !t->retire_logs && !t->set_space && !t->cm)
		return 0;
	t->committed = true;
	err = charge_quotas(t);
	if (!err)
		err = free_removed(t);
	if (err)
		return err;
	/* a checkpoint counting more blocks than the users may have is not a valid one: it
	 * would be written, then passed over at the next open */
	if ((int64_t)zf2fs_get(zf2fs_vol_checkpoint(t->vol)->valid_block_count) + t->new_blocks >
	    (int64_t)(t->set_space ? t->user_block_count :
		      zf2fs_get(zf2fs_vol_checkpoint(t->vol)->user_block_count))) {
		zf2fs_logf(&t->vol->log, ZF2FS_MSG_ERROR, 0, "the new blocks exceed the volume's user "
			   "blocks");
		return -ENOSPC;
	}
	fill_req(t);
	if (!t->cm)
		return zf2fs_vol_commit(t->vol, &t->req);
	err = commit_write(t->cm, &t->req);
	return err ? err : commit_finish(t->cm, &t->req);
}

ZF2FS_EXPORT uint64_t zf2fs_txn_flushes(const struct zf2fs_txn *t)
{
	return t->flushes;
}
