// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * move.c - the block mover (include/zf2fs/move.h): the valid blocks of sections or of a
 * block range queued on a transaction, as the kernel's foreground GC moves them.
 *
 * Every block the SIT calls valid must have a live owner, found the way the kernel's GC
 * finds it (fs/f2fs/gc.c: gc_node_segment and is_alive): for a node segment the summary
 * names the nid and the NAT must give this very address; for a data segment the summary
 * names the owning node and the slot, the NAT gives the node, and the slot must hold this
 * address.  A valid block without a live owner means the volume is damaged: nothing is
 * moved, the caller is told to run fsck.  Only the queues of lib/write/txn.c change here; the
 * commit writes the blocks (moved data to the cold data log, nodes to the log of their
 * temperature, as the kernel's __get_segment_type_6 does for pages GC dirtied).
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/file.h"
#include "zf2fs/geometry.h"
#include "zf2fs/move.h"
#include "zf2fs/zoned.h"
#include "zf2fs-internal/move.h"
#include "write/txn_p.h"
#include "read/volume_p.h"

#define BPS ZF2FS_BLOCKS_PER_SEG
#define XATTR_NODE_OFS (UINT32_MAX >> ZF2FS_FOOTER_OFS_SHIFT)

/* The inode last looked at: data blocks of one file come in runs. */
struct owner_cache {
	uint32_t ino;
	struct zf2fs_inode_geom g;
	bool pinned;
};

struct mover {
	struct zf2fs_txn *t;
	struct zf2fs_move_stats *st;
	struct owner_cache oc;
};

/* The log a node rewritten by GC goes to: direct nodes of directories hot, of files warm
 * (the footer's cold mark), indirect nodes cold. */
static uint8_t node_temperature(const struct zf2fs_geom *g, const struct zf2fs_node *n)
{
	if (!zf2fs_geom_ofs_dnode(g, zf2fs_node_ofs(g, n)))
		return ZF2FS_LOG_COLD_NODE;
	return (zf2fs_get(zf2fs_node_footer(g, n)->flag) & ZF2FS_FOOTER_COLD_BIT) ?
	       ZF2FS_LOG_WARM_NODE : ZF2FS_LOG_HOT_NODE;
}

/* Queue node @nid (read through the NAT on first use) to be rewritten in the log of its
 * temperature. */
static int queue_node(struct mover *m, uint32_t nid, struct zf2fs_node **ret)
{
	struct tnode *tn;
	int err = get_node(m->t, nid, ret);

	if (err)
		return err;
	tn = find_node(m->t, nid);
	if (!tn)
		return -EIO;
	tn->log = (uint8_t)(node_temperature(m->t->g, *ret) + 1);
	return 0;
}

static int not_alive(struct mover *m, uint64_t blk, const char *what, uint32_t nid)
{
	zf2fs_logf(&m->t->vol->log, ZF2FS_MSG_ERROR, 0,
		   "block %llu is valid in the SIT but %s (nid %u): run fsck first",
		   (unsigned long long)blk, what, nid);
	return -ZF2FS_EFSCORRUPTED;
}

/* The NAT entry of @nid, which the summary of block @blk names. */
static int summary_nat(struct mover *m, uint64_t blk, uint32_t nid, struct zf2fs_nat_info *ni)
{
	if (nid < ZF2FS_ROOT_INO || nid >= m->t->vi->max_nid)
		return not_alive(m, blk, "its summary names no node", nid);
	return zf2fs_vol_nat_lookup(m->t->vol, nid, ni);
}

/* Node block @blk, whose summary names @nid: live when the NAT points at it. */
static int move_node_block(struct mover *m, uint64_t blk, uint32_t nid)
{
	struct zf2fs_nat_info ni;
	struct zf2fs_node *n;
	int err;

	err = summary_nat(m, blk, nid, &ni);
	if (err)
		return err;
	if (ni.blkaddr != blk)
		return not_alive(m, blk, "the NAT places its node elsewhere", nid);
	err = queue_node(m, nid, &n);
	if (err)
		return err;
	m->st->node_blocks++;
	return 0;
}

/* Geometry of inode @ino (read, not queued), remembered for the next block. */
static int owner_geometry(struct mover *m, uint32_t ino, const struct zf2fs_inode_geom **ret)
{
	struct zf2fs_node *in;
	char why[200];
	int err;

	if (m->oc.ino == ino && ino) {
		*ret = &m->oc.g;
		return 0;
	}
	in = malloc(m->t->g->blocksize);
	if (!in)
		return -ENOMEM;
	err = zf2fs_vol_read_node(m->t->vol, ino, in, NULL, why, sizeof(why));
	if (!err && zf2fs_get(zf2fs_node_footer(m->t->g, in)->ino) != ino)
		err = -ZF2FS_EFSCORRUPTED;
	if (!err)
		err = zf2fs_inode_geometry2(m->t->g, &in->i, m->t->vi->features, &m->oc.g);
	m->oc.pinned = !err && (in->i.i_inline & ZF2FS_PIN_FILE);
	free(in);
	if (err) {
		m->oc.ino = 0;
		return err;
	}
	m->oc.ino = ino;
	*ret = &m->oc.g;
	return 0;
}

/* A file's largest extent must not name a block that moves: cut it to the longer side
 * of @fofs (the kernel's extent cache drops or splits it the same way). */
static int cut_extent(struct mover *m, uint32_t ino, uint64_t fofs)
{
	struct zf2fs_node *in;
	uint64_t ef, len;
	int err;

	/* the queued inode when there is one, else a read: most files have no extent there */
	if (!find_node(m->t, ino)) {
		struct zf2fs_node *tmp = malloc(m->t->g->blocksize);
		char why[200];

		if (!tmp)
			return -ENOMEM;
		err = zf2fs_vol_read_node(m->t->vol, ino, tmp, NULL, why, sizeof(why));
		ef = zf2fs_get(tmp->i.i_ext.fofs);
		len = zf2fs_get(tmp->i.i_ext.len);
		free(tmp);
		if (err)
			return err;
		if (!len || fofs < ef || fofs >= ef + len)
			return 0;
	}
	err = queue_node(m, ino, &in);
	if (err)
		return err;
	ef = zf2fs_get(in->i.i_ext.fofs);
	len = zf2fs_get(in->i.i_ext.len);
	if (!len || fofs < ef || fofs >= ef + len)
		return 0;
	if (fofs - ef >= ef + len - fofs - 1) {
		len = fofs - ef;
	} else {
		zf2fs_set(in->i.i_ext.blk, (uint32_t)(zf2fs_get(in->i.i_ext.blk) + (fofs + 1 - ef)));
		len = ef + len - fofs - 1;
		ef = fofs + 1;
	}
	if (!len) {
		ef = 0;
		zf2fs_set(in->i.i_ext.blk, 0);
	}
	zf2fs_set(in->i.i_ext.fofs, (uint32_t)ef);
	zf2fs_set(in->i.i_ext.len, (uint32_t)len);
	return 0;
}

static bool is_quota_file(const struct mover *m, uint32_t ino)
{
	if (!(m->t->vi->features & ZF2FS_FEAT_QUOTA_INO))
		return false;
	for (int q = 0; q < ZF2FS_MAX_QUOTAS; q++)
		if (zf2fs_get(m->t->vol->sb.qf_ino[q]) == ino)
			return true;
	return false;
}

/* Data block @blk, whose summary names slot @ofs of node @nid: live when that slot holds
 * @blk (is_alive). */
static int move_data_block(struct mover *m, uint64_t blk, uint32_t nid, uint32_t ofs)
{
	const struct zf2fs_inode_geom *g;
	struct zf2fs_nat_info ni;
	struct zf2fs_node *n;
	uint32_t ino, nofs, addr, slot;
	uint64_t fofs;
	uint8_t *buf;
	int err;

	err = summary_nat(m, blk, nid, &ni);
	if (err)
		return err;
	if (ni.blkaddr < m->t->vi->main_blkaddr || ni.blkaddr >= m->t->vi->main_end)
		return not_alive(m, blk, "its owner has no node", nid);
	if (!find_node(m->t, nid))
		m->st->owner_nodes++;
	err = queue_node(m, nid, &n);
	if (err)
		return err;
	ino = (uint32_t)zf2fs_get(zf2fs_node_footer(m->t->g, n)->ino);
	nofs = zf2fs_node_ofs(m->t->g, n);
	if (!zf2fs_geom_ofs_dnode(m->t->g, nofs) || nofs == XATTR_NODE_OFS)
		return not_alive(m, blk, "its owner holds no block addresses", nid);
	err = owner_geometry(m, ino, &g);
	if (err)
		return not_alive(m, blk, "its owner's inode cannot be read", nid);
	/* a pinned file (F2FS_IOC_SET_PIN_FILE) is read by block address from outside
	 * the file system (swap, Android's OTA snapshots, bootloaders): the kernel's GC
	 * leaves its blocks where they are, and so does every mover */
	if (m->oc.pinned) {
		zf2fs_logf(&m->t->vol->log, ZF2FS_MSG_ERROR, 0,
			   "block %llu belongs to pinned file %u, whose blocks never move "
			   "(the kernel's GC leaves them too); unpin it first",
			   (unsigned long long)blk, ino);
		return -EBUSY;
	}
	if (ino == nid) {
		if (n->i.i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY) || ofs >= g->addrs)
			return not_alive(m, blk, "its inode has no such slot", nid);
		slot = g->extra_words + ofs;
		addr = zf2fs_get_le32p(zf2fs_inode_addrs(n) + slot);
	} else {
		if (ofs >= g->addrs_per_block || ofs >= m->t->g->addrs_per_block)
			return not_alive(m, blk, "its direct node has no such slot", nid);
		addr = zf2fs_get_le32p(zf2fs_node_words(n) + ofs);
	}
	fofs = zf2fs_node_fofs2(m->t->g, g, nofs, ofs);
	if (find_data(m->t, nid, fofs))
		return 0;   /* queued already */
	if (addr != blk)
		return not_alive(m, blk, "its owner's slot points elsewhere", nid);
	if (is_quota_file(m, ino)) {
		/* the commit rewrites every quota file whole (its charges): the block moves
		 * with it */
		m->st->data_blocks++;
		return 0;
	}
	err = cut_extent(m, ino, fofs);
	if (err)
		return err;
	buf = malloc(m->t->g->blocksize);
	if (!buf)
		return -ENOMEM;
	err = zf2fs_vol_read_block(m->t->vol, blk, buf);
	if (!err)
		err = queue_data(m->t, nid, ofs, fofs, (uint32_t)blk, buf);
	if (err) {
		free(buf);
		return err;
	}
	m->t->datas[m->t->ndatas - 1].log = ZF2FS_LOG_COLD_DATA + 1;
	m->st->data_blocks++;
	return 0;
}

/* The log whose current segment @segno is, or -1. */
static int current_log(const struct zf2fs_vol *vol, uint32_t segno)
{
	for (int type = 0; type < ZF2FS_NR_CURSEG; type++) {
		uint32_t s, off;

		zf2fs_vol_curseg(vol, type, &s, &off);
		if (s == segno)
			return type;
	}
	return -1;
}

static bool is_current_vol(const struct zf2fs_vol *vol, uint32_t segno)
{
	return current_log(vol, segno) >= 0;
}

/* The valid blocks of segment @segno at offsets [@from, @to). */
static int move_segment(struct mover *m, uint32_t segno, uint32_t from, uint32_t to)
{
	struct zf2fs_txn *t = m->t;
	const struct zf2fs_sit_entry *se = &t->sit[segno];
	uint8_t *sum;
	int err, log = current_log(t->vol, segno);
	bool node;

	/* no new block goes where blocks move out, not even into its holes (SSR) */
	if (!t->emptying) {
		t->emptying = calloc(t->vi->main_segs + 1, 1);
		if (!t->emptying)
			return -ENOMEM;
	}
	t->emptying[segno] = 1;
	/* a current log leaves the section for a fresh one at the commit (the kernel never
	 * collects a current section; offline the logs simply move on) */
	if (log >= 0)
		t->retire_logs |= (uint8_t)(1u << log);
	if (!zf2fs_sit_valid_blocks(se))
		return 0;
	sum = malloc(t->g->blocksize);   /* one summary of g->sum_blocksize bytes */
	if (!sum)
		return -ENOMEM;
	err = zf2fs_vol_segment_summary(t->vol, segno, (struct zf2fs_summary_block *)sum);
	if (err)
		goto out;
	node = zf2fs_sit_type(se) >= ZF2FS_LOG_HOT_NODE;
	if (node != (zf2fs_sum_footer(t->g, sum)->entry_type == ZF2FS_SUM_TYPE_NODE) ||
	    zf2fs_sit_type(se) > ZF2FS_LOG_COLD_NODE ||
	    zf2fs_sit_valid_blocks(se) != zf2fs_sit_map_weight(se)) {
		/* the new SIT entry would carry a wrong count on */
		zf2fs_logf(&t->vol->log, ZF2FS_MSG_ERROR, 0,
			   "segment %u: its SIT entry and its summary disagree: run fsck first",
			   segno);
		err = -ZF2FS_EFSCORRUPTED;
		goto out;
	}
	for (uint32_t off = from; off < to && off < BPS && !err; off++) {
		uint64_t blk = zf2fs_main_blk(t->vi->main_blkaddr, segno, off);
		const struct zf2fs_summary *e = zf2fs_sum_entries(sum) + off;

		if (!zf2fs_sit_block_valid(se, off))
			continue;
		if (node)
			err = move_node_block(m, blk, (uint32_t)zf2fs_get(e->nid));
		else
			err = move_data_block(m, blk, (uint32_t)zf2fs_get(e->nid),
					      (uint32_t)zf2fs_get(e->ofs_in_node));
	}
out:
	free(sum);
	return err;
}

ZF2FS_EXPORT int zf2fs_move_range(struct zf2fs_txn *t, uint64_t start, uint64_t count,
				  struct zf2fs_move_stats *st)
{
	const struct zf2fs_vol_info *vi = t->vi;
	struct mover m = { .t = t, .st = st };
	uint64_t end = start + count, blk;
	uint64_t sec_blocks = (uint64_t)vi->segs_per_sec * BPS;
	int err = 0;

	if (start < vi->main_blkaddr || count > vi->main_end || end > vi->main_end ||
	    end < start)
		return -EINVAL;
	/* a block is moved by its summary's owner: a volume without a summary area (the
	 * read-only feature) keeps none of the segments that are no current log's */
	if (!zf2fs_vol_has_ssa(t->vol)) {
		zf2fs_logf(&t->vol->log, ZF2FS_MSG_ERROR, 0, "a read-only volume (feature ro) "
			   "keeps no block summaries: its blocks cannot be moved");
		return -EROFS;
	}
	for (blk = start; blk < end && !err;) {
		uint32_t segno = zf2fs_main_segno(vi->main_blkaddr, blk);
		uint32_t from = zf2fs_main_seg_off(vi->main_blkaddr, blk);
		uint64_t left = end - blk;
		uint32_t to = left < BPS - from ? from + (uint32_t)left : BPS;

		if (segno >= vi->main_segs)
			break;
		err = move_segment(&m, segno, from, to);
		blk += to - from;
	}
	if (err)
		return err;
	/* sections the range covers whole */
	for (uint64_t s = (start - vi->main_blkaddr + sec_blocks - 1) / sec_blocks * sec_blocks;
	     s + sec_blocks <= end - vi->main_blkaddr; s += sec_blocks)
		st->sections++;
	return 0;
}

ZF2FS_EXPORT int zf2fs_move_section(struct zf2fs_txn *t, uint32_t secno,
				    struct zf2fs_move_stats *st)
{
	const struct zf2fs_vol_info *vi = t->vi;
	uint64_t sec_blocks = (uint64_t)vi->segs_per_sec * BPS;

	if (secno >= vi->main_secs)
		return -EINVAL;
	return zf2fs_move_range(t, vi->main_blkaddr + (uint64_t)secno * sec_blocks, sec_blocks, st);
}

/* Sections [@first_sec, @end_sec) into *@first, *@end when not empty and inside the main
 * area; -EINVAL otherwise. */
static int set_sections(const struct zf2fs_txn *t, uint32_t first_sec, uint32_t end_sec,
			uint32_t *first, uint32_t *end)
{
	if (first_sec >= end_sec || end_sec > t->vi->main_secs)
		return -EINVAL;
	*first = first_sec;
	*end = end_sec;
	return 0;
}

ZF2FS_EXPORT int zf2fs_move_set_target(struct zf2fs_txn *t, uint32_t first_sec,
				       uint32_t end_sec)
{
	return set_sections(t, first_sec, end_sec, &t->alloc_first, &t->alloc_end);
}

ZF2FS_EXPORT int zf2fs_move_set_data_target(struct zf2fs_txn *t, uint32_t first_sec,
					    uint32_t end_sec)
{
	return set_sections(t, first_sec, end_sec, &t->data_first, &t->data_end);
}

ZF2FS_EXPORT int zf2fs_move_reset_free_zones(struct zf2fs_vol *vol, uint32_t *ret_reset)
{
	struct zf2fs_sit_entry *sit = NULL;
	struct zf2fs_sec_zone *z = NULL;
	uint32_t nr = 0, done = 0;
	int err;

	if (ret_reset)
		*ret_reset = 0;
	if (!zf2fs_vol_is_zoned(vol))
		return 0;
	err = zf2fs_vol_load_sit(vol, &sit);
	if (!err)
		err = zf2fs_vol_zones(vol, sit, &z, &nr);
	if (err == -ENODEV)
		err = 0;   /* an image file: no write pointers */
	for (uint32_t i = 0; !err && i < nr; i++) {
		bool cur = false;

		if (z[i].type != ZF2FS_ZONE_SEQ_REQ && z[i].type != ZF2FS_ZONE_SEQ_PREF)
			continue;
		if (z[i].valid_blocks || !z[i].wp_blocks)
			continue;
		for (uint32_t k = 0; k < vol->info.segs_per_sec && !cur; k++)
			cur = is_current_vol(vol, z[i].secno * vol->info.segs_per_sec + k);
		if (cur)
			continue;
		err = zf2fs_vol_reset_zone(vol, &z[i]);
		if (!err)
			done++;
	}
	free(z);
	free(sit);
	if (ret_reset)
		*ret_reset = done;
	return err;
}
