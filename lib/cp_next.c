// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cp_next.c - the building blocks of a commit: where the next checkpoint's blocks go.
 *
 * Every change to a volume ends the same way: changed SIT and NAT blocks to the copies
 * the current checkpoint does not use (their bits flipped in the new checkpoint's version
 * bitmaps), retired logs' summaries to the SSA, then the new checkpoint in the inactive
 * pack.  The transaction (lib/txn.c) and fsck's repair (fsck/repair.c, which decides
 * itself which blocks change) both write through here, so those addresses and the
 * checkpoint's flags and log fields have one owner.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/txn.h"
#include "volume_p.h"
#include "cp_write_p.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

ZF2FS_EXPORT int zf2fs_vol_cp_next(const struct zf2fs_vol *vol, unsigned flags,
				   uint8_t **ret_cpbuf)
{
	size_t len = (1 + (size_t)zf2fs_get(vol->sb.cp_payload)) * ZF2FS_BLKSIZE;
	uint8_t *buf = malloc(len);

	if (!buf)
		return -ENOMEM;
	memcpy(buf, vol->cp, len);
	zf2fs_set(((struct zf2fs_checkpoint *)buf)->checkpoint_ver, vol->cp_ver + 1);
	/* the chain's copies are written before the pack, sealed by version only */
	if (flags & ZF2FS_CPN_RECOVERY)
		zf2fs_set(((struct zf2fs_checkpoint *)buf)->ckpt_flags,
			  zf2fs_get(((struct zf2fs_checkpoint *)buf)->ckpt_flags) |
			  ZF2FS_CP_NOCRC_RECOVERY_FLAG);
	*ret_cpbuf = buf;
	return 0;
}

/* The SIT (@sit) or NAT version bitmap inside @cpbuf: at the place lib/volume.c found it
 * in the current checkpoint, which @cpbuf copies. */
static uint8_t *next_bitmap(const struct zf2fs_vol *vol, uint8_t *cpbuf, bool sit)
{
	return cpbuf + ((sit ? vol->sit_bitmap : vol->nat_bitmap) - vol->cp);
}

/* Block @idx of the SIT (@sit) or NAT to the copy not in use, its bit flipped in @cpbuf. */
static int write_next(struct zf2fs_vol *vol, bool sit, uint32_t idx, const void *blk,
		      uint8_t *cpbuf)
{
	const uint8_t *live_map = sit ? vol->sit_bitmap : vol->nat_bitmap;
	unsigned live;

	if (idx >= (sit ? vol->info.sit_blocks : vol->info.nat_blocks))
		return -EINVAL;
	live = zf2fs_hbit_test(live_map, idx);
	zf2fs_hbit_flip(next_bitmap(vol, cpbuf, sit), idx);
	return zf2fs_vol_write_block(vol, sit ? zf2fs_vol_sit_block_copy(vol, idx, !live) :
					   zf2fs_vol_nat_block_copy(vol, idx, !live), blk);
}

ZF2FS_EXPORT int zf2fs_vol_write_sit_next(struct zf2fs_vol *vol, uint32_t idx, const void *blk,
					  uint8_t *cpbuf)
{
	return write_next(vol, true, idx, blk, cpbuf);
}

ZF2FS_EXPORT int zf2fs_vol_write_nat_next(struct zf2fs_vol *vol, uint32_t idx, const void *blk,
					  uint8_t *cpbuf)
{
	return write_next(vol, false, idx, blk, cpbuf);
}

ZF2FS_EXPORT int zf2fs_vol_write_sit_dirty(struct zf2fs_vol *vol, const uint8_t *dirty,
					   const struct zf2fs_sit_entry *(*entry)(void *arg,
										 uint32_t segno),
					   void *arg, uint8_t *cpbuf)
{
	uint32_t segs = vol->info.main_segs;
	struct zf2fs_sit_block *blk = malloc(ZF2FS_BLKSIZE);   /* entries, then padding */
	int err = 0;

	if (!blk)
		return -ENOMEM;
	for (uint32_t b = 0; b < zf2fs_sit_blocks(segs) && !err; b++) {
		if (!dirty[b])
			continue;
		/* read whole: the bytes past the entries stay as they were */
		err = zf2fs_vol_read_block(vol, zf2fs_vol_sit_block_addr(vol, b), blk);
		for (uint32_t e = 0; !err && e < ZF2FS_SIT_PER_BLOCK &&
		     zf2fs_sit_block_segno(b, e) < segs; e++)
			blk->entries[e] = *entry(arg, zf2fs_sit_block_segno(b, e));
		if (!err)
			err = write_next(vol, true, b, blk, cpbuf);
	}
	free(blk);
	return err;
}

ZF2FS_EXPORT int zf2fs_vol_write_nat_dirty(struct zf2fs_vol *vol, const uint8_t *dirty,
					   void (*fill)(void *arg, uint32_t idx,
							struct zf2fs_nat_block *blk),
					   void *arg, uint8_t *cpbuf)
{
	struct zf2fs_nat_block *blk = malloc(ZF2FS_BLKSIZE);
	int err = 0;

	if (!blk)
		return -ENOMEM;
	for (uint32_t b = 0; b < vol->info.nat_blocks && !err; b++) {
		if (!dirty[b])
			continue;
		err = zf2fs_vol_read_block(vol, zf2fs_vol_nat_block_addr(vol, b), blk);
		if (!err) {
			fill(arg, b, blk);
			err = write_next(vol, false, b, blk, cpbuf);
		}
	}
	free(blk);
	return err;
}

ZF2FS_EXPORT void zf2fs_vol_journal_blocks(const struct zf2fs_vol *vol, uint8_t *sit_dirty,
					   uint8_t *nat_dirty)
{
	const struct zf2fs_journal *nj = &vol->nat_journal, *sj = &vol->sit_journal;
	uint32_t nn = (uint32_t)zf2fs_get(nj->n_entries), ns = (uint32_t)zf2fs_get(sj->n_entries);

	for (uint32_t i = 0; i < nn && i < ZF2FS_NAT_JOURNAL_ENTRIES; i++) {
		uint32_t nid = (uint32_t)zf2fs_get(nj->nat.entries[i].nid);

		if (nid < vol->info.max_nid)
			nat_dirty[zf2fs_nat_block_index(nid)] = 1;
	}
	for (uint32_t i = 0; i < ns && i < ZF2FS_SIT_JOURNAL_ENTRIES; i++) {
		uint32_t seg = (uint32_t)zf2fs_get(sj->sit.entries[i].segno);

		if (seg < vol->info.main_segs)
			sit_dirty[zf2fs_sit_block_index(seg)] = 1;
	}
}

static uint8_t sum_type(int type)
{
	return type >= ZF2FS_LOG_HOT_NODE ? ZF2FS_SUM_TYPE_NODE : ZF2FS_SUM_TYPE_DATA;
}

ZF2FS_EXPORT int zf2fs_vol_write_ssa(struct zf2fs_vol *vol, uint32_t segno, int type,
				     const struct zf2fs_summary *entries)
{
	struct zf2fs_summary_block *sb;
	int err;

	if (segno >= vol->info.main_segs)
		return -EINVAL;
	sb = calloc(1, sizeof(*sb));
	if (!sb)
		return -ENOMEM;
	memcpy(sb->entries, entries, sizeof(sb->entries));
	sb->footer.entry_type = sum_type(type);
	err = zf2fs_vol_write_block(vol, zf2fs_vol_ssa_block_addr(vol, segno), sb);
	free(sb);
	return err;
}

/* Read the summary block of main segment @segno, let @edit change it, write it back. */
static int ssa_edit(struct zf2fs_vol *vol, uint32_t segno,
		    void (*edit)(struct zf2fs_summary_block *, const void *), const void *arg)
{
	struct zf2fs_summary_block *sb;
	uint64_t at;
	int err;

	if (segno >= vol->info.main_segs)
		return -EINVAL;
	at = zf2fs_vol_ssa_block_addr(vol, segno);
	sb = malloc(sizeof(*sb));
	if (!sb)
		return -ENOMEM;
	err = zf2fs_vol_read_block(vol, at, sb);
	if (!err) {
		edit(sb, arg);
		err = zf2fs_vol_write_block(vol, at, sb);
	}
	free(sb);
	return err;
}

struct ssa_entry_edit {
	uint32_t off, nid;
	uint16_t ofs_in_node;
	uint8_t version;
};

static void set_entry(struct zf2fs_summary_block *sb, const void *arg)
{
	const struct ssa_entry_edit *e = arg;

	zf2fs_set(sb->entries[e->off].nid, e->nid);
	zf2fs_set(sb->entries[e->off].ofs_in_node, e->ofs_in_node);
	sb->entries[e->off].version = e->version;
}

ZF2FS_EXPORT int zf2fs_vol_set_ssa_entry(struct zf2fs_vol *vol, uint64_t blkaddr, uint32_t nid,
					 uint16_t ofs_in_node, uint8_t version)
{
	const struct zf2fs_vol_info *vi = &vol->info;
	struct ssa_entry_edit e = { 0, nid, ofs_in_node, version };

	if (blkaddr < vi->main_blkaddr || blkaddr >= vi->main_end)
		return -EINVAL;
	e.off = zf2fs_main_seg_off(vi->main_blkaddr, blkaddr);
	return ssa_edit(vol, zf2fs_main_segno(vi->main_blkaddr, blkaddr), set_entry, &e);
}

static void set_type(struct zf2fs_summary_block *sb, const void *arg)
{
	sb->footer.entry_type = *(const uint8_t *)arg;
}

ZF2FS_EXPORT int zf2fs_vol_set_ssa_type(struct zf2fs_vol *vol, uint32_t segno, bool node)
{
	uint8_t t = node ? ZF2FS_SUM_TYPE_NODE : ZF2FS_SUM_TYPE_DATA;

	return ssa_edit(vol, segno, set_type, &t);
}

static int io_write(void *arg, uint64_t blk, const void *buf)
{
	return zf2fs_vol_write_block(arg, blk, buf);
}

static int io_sync(void *arg)
{
	struct zf2fs_vol *vol = arg;

	for (unsigned d = 0; d < vol->ndevs; d++) {
		int err = zf2fs_dev_sync(vol->dev[d]);

		if (err)
			return err;
	}
	return 0;
}

ZF2FS_EXPORT int zf2fs_vol_write_cp_next(struct zf2fs_vol *vol, uint8_t *cpbuf,
					 const struct zf2fs_cp_logs *logs, unsigned flags)
{
	struct zf2fs_checkpoint *cp = (struct zf2fs_checkpoint *)cpbuf;
	uint32_t payload = (uint32_t)zf2fs_get(vol->sb.cp_payload), orphans = 0;
	uint32_t cpf = (uint32_t)zf2fs_get(cp->ckpt_flags);
	uint64_t old_start = zf2fs_vol_cp_pack_addr(vol, vol->cp_pack);
	struct zf2fs_cp_io io = { io_write, io_sync, vol };
	struct zf2fs_cp_pack p = { 0 };
	uint8_t *sums = NULL, *orph = NULL;
	int err = 0;

	/* the orphan blocks of the current pack stay: the orphans are still to be freed */
	if (cpf & ZF2FS_CP_ORPHAN_PRESENT_FLAG)
		orphans = (uint32_t)zf2fs_get(cp->cp_pack_start_sum) - 1 - payload;
	if (orphans >= BPS)
		return -ZF2FS_EFSCORRUPTED;
	sums = calloc(ZF2FS_NR_CURSEG, ZF2FS_BLKSIZE);
	orph = calloc(orphans ? orphans : 1, ZF2FS_BLKSIZE);
	if (!sums || !orph) {
		err = -ENOMEM;
		goto out;
	}
	if (orphans)
		err = zf2fs_vol_read_blocks(vol, old_start + 1 + payload, orphans, orph);
	if (err)
		goto out;
	zf2fs_set(cp->checkpoint_ver, vol->cp_ver + 1);
	/* written by a tool: nothing for the kernel to hurry past or to check again */
	cpf &= ~(ZF2FS_CP_FASTBOOT_FLAG | ZF2FS_CP_FSCK_FLAG | ZF2FS_CP_ERROR_FLAG);
	if (flags & ZF2FS_CPN_QUOTA_CHECKED)
		cpf &= ~ZF2FS_CP_QUOTA_NEED_FSCK_FLAG;
	/* Kept roll-forward chain: the volume stays unclean until the kernel replays it.
	 * Without the umount flag the kernel reads no node summaries from the pack (it
	 * rebuilds them from the node footers), so cp_pack_write leaves them out. */
	if (flags & ZF2FS_CPN_RECOVERY)
		cpf &= ~ZF2FS_CP_UMOUNT_FLAG;
	else
		cpf |= ZF2FS_CP_UMOUNT_FLAG;
	zf2fs_set(cp->ckpt_flags, cpf);
	for (int i = 0; i < 3; i++) {
		zf2fs_set(cp->cur_data_segno[i], logs->segno[ZF2FS_LOG_HOT_DATA + i]);
		zf2fs_set(cp->cur_data_blkoff[i], logs->blkoff[ZF2FS_LOG_HOT_DATA + i]);
		zf2fs_set(cp->cur_node_segno[i], logs->segno[ZF2FS_LOG_HOT_NODE + i]);
		zf2fs_set(cp->cur_node_blkoff[i], logs->blkoff[ZF2FS_LOG_HOT_NODE + i]);
	}
	for (int type = 0; type < ZF2FS_NR_CURSEG; type++) {
		struct zf2fs_summary_block *sb =
			(struct zf2fs_summary_block *)(sums + (size_t)type * ZF2FS_BLKSIZE);

		cp->alloc_type[type] = logs->alloc_type[type];
		/* normal summaries, journals empty: they were flushed into the tables */
		memcpy(sb->entries, logs->sum[type], sizeof(sb->entries));
		sb->footer.entry_type = sum_type(type);
	}
	p.start = zf2fs_vol_cp_pack_addr(vol, 1 - vol->cp_pack);
	p.cp = cpbuf;
	p.payload = payload;
	p.orphans = orph;
	p.orphan_blocks = orphans;
	p.sums = sums;
	p.compact = false;
	err = zf2fs_cp_pack_write(&p, &io);
out:
	free(sums);
	free(orph);
	return err;
}
