// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * resize_meta.c - new metadata areas (include/zf2fs/resize.h): a grow's, and the first
 * move of fitted ones, written into the first sections of the old main area once the
 * block mover has emptied them; the second move of fitted ones, written below segment 0
 * into the space of areas nothing uses any more.
 *
 * Nothing the old volume uses is touched: the old superblock still points at the old
 * areas, so until the new superblock is written the old volume is the one that mounts.
 * Main-area blocks keep their addresses, so NAT entries and node pointers are copied as
 * they are; what changes is the segment numbering (new = old - shift + rise), which the
 * SIT, the SSA and the checkpoint's logs are indexed by.  A smaller NAT keeps every nid
 * in use (the plan sized it so).  Everything comes out as a freshly
 * made volume has it: first copies of SIT and NAT selected (all-zero version bitmaps),
 * the journals flushed into those tables, the pack in the first slot, normal summaries.
 */
#include "config.h"
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"
#include "zf2fs/txn.h"
#include "zf2fs/zoned.h"
#include "zf2fs-internal/volume.h"
#include "write/cp_write_p.h"
#include "move/resize_p.h"

#define BPS ZF2FS_BLOCKS_PER_SEG
#define RUN 256   /* blocks per read when copying the SSA */

struct meta {
	struct zf2fs_vol *vol;
	const struct zf2fs_vol_info *vi;
	const struct zf2fs_geom *g;
	const struct zf2fs_resize_plan *p;
	const struct zf2fs_sit_entry *sit;     /* old numbering, journal applied */
	uint64_t written;
};

static uint32_t sb32(const zf2fs_le32 v)
{
	return (uint32_t)zf2fs_get(v);
}

/* The old segment number of new main-area segment @s; false for a segment new to the
 * main area (free). */
static bool old_seg(const struct meta *m, uint32_t s, uint32_t *ret_old)
{
	int64_t old = (int64_t)s + m->p->shift_segs - m->p->rise_segs;

	if (old < 0 || old >= m->vi->main_segs)
		return false;
	*ret_old = (uint32_t)old;
	return true;
}

static int put(struct meta *m, uint64_t blk, const void *buf)
{
	m->written++;
	return zf2fs_vol_write_block(m->vol, blk, buf);
}

/* The sections the new areas take must hold nothing: no valid block, no log.  Areas
 * going below segment 0 must end there. */
static int check_empty(const struct meta *m)
{
	if (m->p->rise_segs &&
	    sb32(m->p->sb.main_blkaddr) > zf2fs_get(zf2fs_vol_super(m->vol)->segment0_blkaddr))
		return -EBUSY;
	for (uint32_t s = 0; s < m->p->shift_segs; s++)
		if (zf2fs_sit_valid_blocks(&m->sit[s]))
			return -EBUSY;
	for (uint32_t sec = 0; sec < m->p->evac_secs; sec++)
		if (zf2fs_resize_sec_has_log(m->vol, sec))
			return -EBUSY;
	return 0;
}

/* Zero the new areas first (discarded blocks of the old main area may hold anything), so
 * that the second copies, the second pack slot and the tables' tails read as empty. */
static int zero_areas(struct meta *m)
{
	uint64_t first = sb32(m->p->sb.segment0_blkaddr), end = sb32(m->p->sb.main_blkaddr);
	unsigned dev;
	uint64_t dev_blk;
	int err = zf2fs_vol_block_to_dev(m->vol, first, &dev, &dev_blk);

	if (err)
		return err;
	return zf2fs_dev_zero(zf2fs_vol_dev(m->vol, dev), dev_blk * m->g->blocksize,
			      (end - first) * m->g->blocksize);
}

static bool all_zero(const void *buf, size_t len)
{
	const uint8_t *b = buf;

	return !b[0] && !memcmp(b, b + 1, len - 1);
}

static int write_sit(struct meta *m)
{
	const struct zf2fs_super *n = &m->p->sb;
	uint32_t copy_blocks = sb32(n->segment_count_sit) / 2 * BPS;
	uint32_t segs = m->p->new_main_segs, per = m->g->sit_per_block;
	uint8_t *blk = malloc(m->g->blocksize);
	int err = 0;

	if (!blk)
		return -ENOMEM;
	for (uint32_t b = 0; b < zf2fs_geom_sit_blocks(m->g, segs) && !err; b++) {
		memset(blk, 0, m->g->blocksize);
		for (uint32_t e = 0; e < per; e++) {
			uint32_t old;

			if (b * per + e < segs && old_seg(m, b * per + e, &old))
				*zf2fs_sit_block_entry(blk, e) = m->sit[old];
		}
		err = put(m, zf2fs_sit_copy_addr(sb32(n->sit_blkaddr), copy_blocks, b, 0), blk);
	}
	free(blk);
	return err;
}

/* Every NAT block as the current checkpoint has it (the journal's entries in it), as
 * many as the new NAT holds; those without an entry in use are left to the zeroing. */
static int write_nat(struct meta *m)
{
	const struct zf2fs_journal *j = zf2fs_vol_nat_journal(m->vol);
	uint32_t nj = (uint32_t)zf2fs_get(j->n_entries);
	uint32_t blocks = sb32(m->p->sb.segment_count_nat) / 2 * BPS;
	uint8_t *blk = malloc(m->g->blocksize);
	int err = 0;

	if (!blk)
		return -ENOMEM;
	if (nj > m->g->nat_journal_entries)
		nj = m->g->nat_journal_entries;
	if (blocks > m->vi->nat_blocks)
		blocks = m->vi->nat_blocks;
	for (uint32_t b = 0; b < blocks && !err; b++) {
		err = zf2fs_vol_read_block(m->vol, zf2fs_vol_nat_block_addr(m->vol, b), blk);
		for (uint32_t i = 0; i < nj && !err; i++) {
			const struct zf2fs_nat_journal_entry *je = zf2fs_journal_nat(j, i);
			uint32_t nid = (uint32_t)zf2fs_get(je->nid);

			if (nid < m->vi->max_nid && zf2fs_geom_nat_block_index(m->g, nid) == b)
				*zf2fs_nat_block_entry(blk, zf2fs_geom_nat_entry_index(m->g, nid)) =
					je->ne;
		}
		if (!err && !all_zero(blk, m->g->blocksize))
			err = put(m, zf2fs_nat_copy_addr(sb32(m->p->sb.nat_blkaddr), b, 0), blk);
	}
	free(blk);
	return err;
}

/* packed_ssa: each new SSA block, its summaries those of the old segments (read from
 * the old SSA block holding them, which the shift can split across two); blocks whose
 * segments are all new to the main area keep the zeros. */
static int write_ssa_packed(struct meta *m)
{
	const struct zf2fs_geom *g = m->g;
	uint32_t segs = m->p->new_main_segs, spb = g->sums_per_block;
	uint64_t cached = UINT64_MAX;
	uint8_t *buf = malloc(g->blocksize), *old_blk = malloc(g->blocksize);
	int err = buf && old_blk ? 0 : -ENOMEM;

	for (uint32_t nb = 0; nb < (segs + spb - 1) / spb && !err; nb++) {
		bool any = false;

		memset(buf, 0, g->blocksize);
		for (uint32_t k = 0; k < spb && !err; k++) {
			uint32_t s = nb * spb + k, old, off;
			uint64_t at;

			if (s >= segs || !old_seg(m, s, &old))
				continue;
			at = zf2fs_geom_ssa_block(g, sb32(zf2fs_vol_super(m->vol)->ssa_blkaddr), old,
						  &off);
			if (at != cached) {
				err = zf2fs_vol_read_block(m->vol, at, old_blk);
				cached = err ? UINT64_MAX : at;
			}
			if (!err)
				memcpy(buf + (size_t)k * g->sum_blocksize, old_blk + off,
				       g->sum_blocksize);
			any = true;
		}
		if (!err && any)
			err = put(m, (uint64_t)sb32(m->p->sb.ssa_blkaddr) + nb, buf);
	}
	free(buf);
	free(old_blk);
	return err;
}

/* Summary block of each new segment: that of its old segment, in runs of consecutive
 * segments; the segments new to the main area keep the zeros. */
static int write_ssa(struct meta *m)
{
	uint32_t segs = m->p->new_main_segs;
	uint8_t *buf;
	int err = 0;

	if (m->g->sums_per_block > 1)
		return write_ssa_packed(m);
	buf = malloc((size_t)RUN * m->g->blocksize);
	if (!buf)
		return -ENOMEM;
	for (uint32_t s = 0, old; s < segs && !err;) {
		uint32_t n = RUN;

		if (!old_seg(m, s, &old)) {
			s++;
			continue;
		}
		if (n > segs - s)
			n = segs - s;
		if (n > m->vi->main_segs - old)
			n = m->vi->main_segs - old;
		err = zf2fs_vol_read_blocks(m->vol, zf2fs_vol_ssa_block_addr(m->vol, old), n, buf);
		for (uint32_t i = 0; i < n && !err; i++)
			err = put(m, (uint64_t)sb32(m->p->sb.ssa_blkaddr) + s + i,
				  buf + (size_t)i * m->g->blocksize);
		s += n;
	}
	free(buf);
	return err;
}

static int io_write(void *arg, uint64_t blk, const void *buf)
{
	return put(arg, blk, buf);
}

static int io_sync(void *arg)
{
	struct meta *m = arg;

	for (unsigned d = 0; d < zf2fs_vol_ndevs(m->vol); d++) {
		int err = zf2fs_dev_sync(zf2fs_vol_dev(m->vol, d));

		if (err)
			return err;
	}
	return 0;
}

static bool seg_empty(void *arg, uint32_t s)
{
	const struct meta *m = arg;
	uint32_t old;

	return !old_seg(m, s, &old) || !zf2fs_sit_valid_blocks(&m->sit[old]);
}

/* The new checkpoint: the current one's counts and logs (renumbered), the plan's space
 * counts, all-zero version bitmaps of the new sizes. */
static void fill_cp(struct meta *m, struct zf2fs_checkpoint *cp, uint32_t logs[ZF2FS_NR_CURSEG])
{
	const struct zf2fs_checkpoint *old = zf2fs_vol_checkpoint(m->vol);
	const struct zf2fs_super *n = &m->p->sb;
	struct zf2fs_vol_info nvi = *m->vi;
	uint32_t flags = (uint32_t)zf2fs_get(old->ckpt_flags);

	memcpy(cp, old, ZF2FS_CP_BITMAP_OFFSET);
	zf2fs_set(cp->checkpoint_ver, m->vi->cp_ver + 1);
	zf2fs_set(cp->user_block_count, m->p->user_block_count);
	zf2fs_set(cp->rsvd_segment_count, m->p->rsvd_segments);
	zf2fs_set(cp->overprov_segment_count, m->p->ovp_segments);
	for (int i = 0; i < 3; i++) {
		logs[ZF2FS_LOG_HOT_DATA + i] = (uint32_t)zf2fs_get(old->cur_data_segno[i]) -
					       m->p->shift_segs + m->p->rise_segs;
		logs[ZF2FS_LOG_HOT_NODE + i] = (uint32_t)zf2fs_get(old->cur_node_segno[i]) -
					       m->p->shift_segs + m->p->rise_segs;
		zf2fs_set(cp->cur_data_segno[i], logs[ZF2FS_LOG_HOT_DATA + i]);
		zf2fs_set(cp->cur_node_segno[i], logs[ZF2FS_LOG_HOT_NODE + i]);
	}
	/* a smaller NAT: the nid where the next search starts must lie in it; past its end
	 * the search starts over above the root, as the transaction's commit does */
	nvi.max_nid = sb32(n->segment_count_nat) / 2 * BPS * m->g->nat_per_block;
	if (zf2fs_get(cp->next_free_nid) >= nvi.max_nid)
		zf2fs_set(cp->next_free_nid, ZF2FS_ROOT_INO + 1);
	nvi.main_segs = m->p->new_main_segs;
	nvi.main_secs = m->p->new_main_segs / nvi.segs_per_sec;
	zf2fs_set(cp->free_segment_count, zf2fs_free_segs(&nvi, 0, logs, seg_empty, m));
	/* the pack writer sets the pack's own flags; a tool's checkpoint asks nothing of
	 * the kernel */
	flags &= ~(ZF2FS_CP_COMPACT_SUM_FLAG | ZF2FS_CP_ORPHAN_PRESENT_FLAG |
		   ZF2FS_CP_NAT_BITS_FLAG | ZF2FS_CP_FASTBOOT_FLAG | ZF2FS_CP_FSCK_FLAG |
		   ZF2FS_CP_ERROR_FLAG);
	flags |= ZF2FS_CP_UMOUNT_FLAG;
	if (m->p->large_nat_bitmap)
		flags |= ZF2FS_CP_LARGE_NAT_BITMAP_FLAG;
	zf2fs_set(cp->ckpt_flags, flags);
	zf2fs_set(cp->sit_ver_bitmap_bytesize, sb32(n->segment_count_sit) / 2 * BPS / 8);
	zf2fs_set(cp->nat_ver_bitmap_bytesize, sb32(n->segment_count_nat) / 2 * BPS / 8);
	zf2fs_set(cp->checksum_offset, (flags & ZF2FS_CP_LARGE_NAT_BITMAP_FLAG) ?
		  ZF2FS_CP_BITMAP_OFFSET : m->g->cp_chksum_offset);
}

static int write_pack(struct meta *m)
{
	const struct zf2fs_checkpoint *old = zf2fs_vol_checkpoint(m->vol);
	uint32_t old_payload = sb32(zf2fs_vol_super(m->vol)->cp_payload);
	uint32_t payload = sb32(m->p->sb.cp_payload), orphans = 0;
	uint32_t logs[ZF2FS_NR_CURSEG];
	struct zf2fs_cp_io io = { io_write, io_sync, m };
	struct zf2fs_cp_pack pk = { 0 };
	const struct zf2fs_geom *g = m->g;
	uint8_t *cpbuf = calloc(1 + (size_t)payload, g->blocksize);
	uint8_t *sums = calloc(ZF2FS_NR_CURSEG, g->blocksize), *orph = NULL;
	int err = -ENOMEM;

	if (zf2fs_get(old->ckpt_flags) & ZF2FS_CP_ORPHAN_PRESENT_FLAG)
		orphans = (uint32_t)zf2fs_get(old->cp_pack_start_sum) - 1 - old_payload;
	if (orphans >= BPS) {
		err = -ZF2FS_EFSCORRUPTED;
		goto out;
	}
	orph = calloc(orphans ? orphans : 1, g->blocksize);
	if (!cpbuf || !sums || !orph)
		goto out;
	err = 0;
	if (orphans)
		err = zf2fs_vol_read_blocks(m->vol, zf2fs_vol_cp_pack_addr(m->vol, m->vi->cp_pack) +
					    1 + old_payload, orphans, orph);
	if (err)
		goto out;
	fill_cp(m, (struct zf2fs_checkpoint *)cpbuf, logs);
	/* one summary from the start of each block, whatever the block size */
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		uint8_t *sum = sums + (size_t)t * g->blocksize;

		memcpy(zf2fs_sum_entries(sum), zf2fs_vol_curseg_summary(m->vol, t),
		       ZF2FS_ENTRIES_IN_SUM * sizeof(struct zf2fs_summary));
		zf2fs_sum_footer(g, sum)->entry_type = zf2fs_log_sum_type(t);
	}
	pk.cp = cpbuf;
	pk.payload = payload;
	pk.orphans = orph;
	pk.orphan_blocks = orphans;
	pk.sums = sums;
	pk.blocksize = g->blocksize;
	/* both slots valid, as mkfs leaves them (the second one version lower, so never
	 * chosen): readers that check both packs find nothing amiss */
	pk.start = sb32(m->p->sb.cp_blkaddr) + BPS;
	zf2fs_set(((struct zf2fs_checkpoint *)cpbuf)->checkpoint_ver, m->vi->cp_ver);
	err = zf2fs_cp_pack_write(&pk, &io);
	pk.start = sb32(m->p->sb.cp_blkaddr);
	zf2fs_set(((struct zf2fs_checkpoint *)cpbuf)->checkpoint_ver, m->vi->cp_ver + 1);
	if (!err)
		err = zf2fs_cp_pack_write(&pk, &io);
out:
	free(cpbuf);
	free(sums);
	free(orph);
	return err;
}

int zf2fs_resize_write_meta(struct zf2fs_vol *vol, const struct zf2fs_resize_plan *p,
			    uint64_t *ret_blocks)
{
	struct zf2fs_sit_entry *sit = NULL;
	struct meta m = { .vol = vol, .vi = zf2fs_vol_info(vol), .g = zf2fs_vol_geom(vol),
			  .p = p };
	int err;

	/* the summaries are carried over from the SSA, which a read-only volume lacks (the
	 * plan refuses such a volume first) */
	if (!zf2fs_vol_has_ssa(vol))
		return -EROFS;
	err = zf2fs_vol_load_sit(vol, &sit);
	if (err)
		return err;
	m.sit = sit;
	err = check_empty(&m);
	if (!err)
		err = zero_areas(&m);
	if (!err)
		err = write_sit(&m);
	if (!err)
		err = write_nat(&m);
	if (!err)
		err = write_ssa(&m);
	if (!err)
		err = io_sync(&m);
	/* last: the pack, itself written so that it is valid only once complete */
	if (!err)
		err = write_pack(&m);
	free(sit);
	*ret_blocks = m.written;
	return err;
}
