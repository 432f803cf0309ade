// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * commit.c - the building blocks of a commit: where the next checkpoint's blocks go.
 *
 * Every change to a volume ends the same way: changed SIT and NAT blocks to the copies
 * the current checkpoint does not use (their bits flipped in the new checkpoint's version
 * bitmaps), retired logs' summaries to the SSA, then the new checkpoint in the inactive
 * pack.  Those addresses and the checkpoint's flags and log fields have one owner here.
 * So has the commit itself (zf2fs_vol_commit, at the end): the one allocator of new log
 * blocks and the one out-of-place writer, used by the transaction (lib/write/txn.c) and fsck's
 * repair (fsck/repair.c), each with its own view of the SIT and NAT behind callbacks.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"
#include "zf2fs/txn.h"
#include "zf2fs/zoned.h"
#include "zf2fs-internal/commit.h"
#include "zf2fs-internal/format.h"
#include "zf2fs-internal/volume.h"
#include "format/inode_p.h"
#include "read/volume_p.h"
#include "write/cp_write_p.h"
#include "write/commit_p.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

ZF2FS_EXPORT int zf2fs_vol_cp_next(const struct zf2fs_vol *vol, unsigned flags,
				   uint8_t **ret_cpbuf)
{
	size_t len = (1 + (size_t)zf2fs_get(vol->sb.cp_payload)) * vol->geom.blocksize;
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

/* The SIT (@sit) or NAT version bitmap inside @cpbuf: at the place lib/read/volume.c found it
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

int zf2fs_vol_write_sit_dirty(struct zf2fs_vol *vol, const uint8_t *dirty,
			      const struct zf2fs_sit_entry *(*entry)(void *arg,
								     uint32_t segno),
					   void *arg, uint8_t *cpbuf)
{
	const struct zf2fs_geom *g = &vol->geom;
	uint32_t segs = vol->info.main_segs;
	uint8_t *blk = malloc(g->blocksize);   /* entries, then padding */
	int err = 0;

	if (!blk)
		return -ENOMEM;
	for (uint32_t b = 0; b < zf2fs_geom_sit_blocks(g, segs) && !err; b++) {
		uint32_t first = b * g->sit_per_block;

		if (!dirty[b])
			continue;
		/* read whole: the bytes past the entries stay as they were */
		err = zf2fs_vol_read_block(vol, zf2fs_vol_sit_block_addr(vol, b), blk);
		for (uint32_t e = 0; !err && e < g->sit_per_block && first + e < segs; e++)
			*zf2fs_sit_block_entry(blk, e) = *entry(arg, first + e);
		if (!err)
			err = write_next(vol, true, b, blk, cpbuf);
	}
	free(blk);
	return err;
}

/* The NAT journal's entries of block @b over the block's own: the journal is newer, and
 * a writer that fills only addresses and inode numbers keeps the version it holds (the
 * one the data blocks' summaries record). */
static void journal_into_nat_block(const struct zf2fs_vol *vol, uint32_t b,
				   struct zf2fs_nat_block *blk)
{
	const struct zf2fs_geom *g = &vol->geom;
	const struct zf2fs_journal *nj = &vol->nat_journal;
	uint32_t n = (uint32_t)zf2fs_get(nj->n_entries);

	for (uint32_t i = 0; i < n && i < g->nat_journal_entries; i++) {
		const struct zf2fs_nat_journal_entry *je = zf2fs_journal_nat(nj, i);
		uint32_t nid = (uint32_t)zf2fs_get(je->nid);

		if (nid < vol->info.max_nid && zf2fs_geom_nat_block_index(g, nid) == b)
			*zf2fs_nat_block_entry(blk, zf2fs_geom_nat_entry_index(g, nid)) = je->ne;
	}
}

int zf2fs_vol_write_nat_dirty(struct zf2fs_vol *vol, const uint8_t *dirty,
			      void (*fill)(void *arg, uint32_t idx,
					   struct zf2fs_nat_block *blk),
					   void *arg, uint8_t *cpbuf)
{
	struct zf2fs_nat_block *blk = malloc(vol->geom.blocksize);   /* the 4 KiB view */
	int err = 0;

	if (!blk)
		return -ENOMEM;
	for (uint32_t b = 0; b < vol->info.nat_blocks && !err; b++) {
		if (!dirty[b])
			continue;
		err = zf2fs_vol_read_block(vol, zf2fs_vol_nat_block_addr(vol, b), blk);
		if (!err) {
			journal_into_nat_block(vol, b, blk);
			fill(arg, b, blk);
			err = write_next(vol, false, b, blk, cpbuf);
		}
	}
	free(blk);
	return err;
}

void zf2fs_vol_journal_blocks(const struct zf2fs_vol *vol, uint8_t *sit_dirty,
			      uint8_t *nat_dirty)
{
	const struct zf2fs_geom *g = &vol->geom;
	const struct zf2fs_journal *nj = &vol->nat_journal, *sj = &vol->sit_journal;
	uint32_t nn = (uint32_t)zf2fs_get(nj->n_entries), ns = (uint32_t)zf2fs_get(sj->n_entries);

	for (uint32_t i = 0; i < nn && i < g->nat_journal_entries; i++) {
		uint32_t nid = (uint32_t)zf2fs_get(zf2fs_journal_nat(nj, i)->nid);

		if (nid < vol->info.max_nid)
			nat_dirty[zf2fs_geom_nat_block_index(g, nid)] = 1;
	}
	for (uint32_t i = 0; i < ns && i < g->sit_journal_entries; i++) {
		uint32_t seg = (uint32_t)zf2fs_get(zf2fs_journal_sit(sj, i)->segno);

		if (seg < vol->info.main_segs)
			sit_dirty[zf2fs_geom_sit_block_index(g, seg)] = 1;
	}
}

/* A volume without a summary area (zf2fs_vol_has_ssa): its SSA address is a main-area
 * block, so a summary written there would overwrite a file's. */
static int no_ssa(struct zf2fs_vol *vol)
{
	zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "a read-only volume (feature ro) has no "
		   "summary area: no summary block written");
	return -EROFS;
}

/* A summary of @g's size at @sum: a segment's @entries, no journal, footer type @type. */
static void sum_fill(const struct zf2fs_geom *g, uint8_t *sum,
		     const struct zf2fs_summary *entries, uint8_t type)
{
	memset(sum, 0, g->sum_blocksize);
	memcpy(zf2fs_sum_entries(sum), entries, ZF2FS_ENTRIES_IN_SUM * sizeof(*entries));
	zf2fs_sum_footer(g, sum)->entry_type = type;
}

ZF2FS_EXPORT void zf2fs_ssa_put(const struct zf2fs_geom *g, void *ssa_block, uint32_t segno,
				 const struct zf2fs_summary *entries, uint8_t sum_type)
{
	uint32_t off;

	zf2fs_geom_ssa_block(g, 0, segno, &off);
	sum_fill(g, (uint8_t *)ssa_block + off, entries, sum_type);
}

/* Read the SSA block of main segment @segno, let @edit change the segment's summary in
 * it (@sum, of g->sum_blocksize bytes), write the block back: with packed_ssa the block's
 * other summaries are written back as they were read. */
static int ssa_edit(struct zf2fs_vol *vol, uint32_t segno, bool whole,
		    void (*edit)(const struct zf2fs_geom *g, uint8_t *sum, const void *arg),
		    const void *arg)
{
	const struct zf2fs_geom *g = &vol->geom;
	uint32_t off;
	uint64_t at;
	uint8_t *blk;
	int err;

	if (segno >= vol->info.main_segs)
		return -EINVAL;
	if (!zf2fs_vol_has_ssa(vol))
		return no_ssa(vol);
	at = zf2fs_geom_ssa_block(g, vol->info.ssa_blkaddr, segno, &off);
	blk = malloc(g->blocksize);
	if (!blk)
		return -ENOMEM;
	/* a @whole summary that fills its block keeps nothing of the block read */
	err = whole && g->sums_per_block == 1 ? 0 : zf2fs_vol_read_block(vol, at, blk);
	if (!err) {
		edit(g, blk + off, arg);
		err = zf2fs_vol_write_block(vol, at, blk);
	}
	free(blk);
	return err;
}

struct ssa_whole {
	const struct zf2fs_summary *entries;
	uint8_t type;
};

static void put_whole(const struct zf2fs_geom *g, uint8_t *sum, const void *arg)
{
	const struct ssa_whole *w = arg;

	sum_fill(g, sum, w->entries, w->type);
}

ZF2FS_EXPORT int zf2fs_vol_write_ssa(struct zf2fs_vol *vol, uint32_t segno, int type,
				     const struct zf2fs_summary *entries)
{
	struct ssa_whole w = { entries, zf2fs_log_sum_type(type) };

	return ssa_edit(vol, segno, true, put_whole, &w);
}

struct ssa_entry_edit {
	uint32_t off, nid;
	uint16_t ofs_in_node;
	uint8_t version;
};

static void set_entry(const struct zf2fs_geom *g, uint8_t *sum, const void *arg)
{
	const struct ssa_entry_edit *e = arg;
	struct zf2fs_summary *ent = zf2fs_sum_entries(sum) + e->off;

	(void)g;
	zf2fs_set(ent->nid, e->nid);
	zf2fs_set(ent->ofs_in_node, e->ofs_in_node);
	ent->version = e->version;
}

ZF2FS_EXPORT int zf2fs_vol_set_ssa_entry(struct zf2fs_vol *vol, uint64_t blkaddr, uint32_t nid,
					 uint16_t ofs_in_node, uint8_t version)
{
	const struct zf2fs_vol_info *vi = &vol->info;
	struct ssa_entry_edit e = { 0, nid, ofs_in_node, version };

	if (blkaddr < vi->main_blkaddr || blkaddr >= vi->main_end)
		return -EINVAL;
	e.off = zf2fs_main_seg_off(vi->main_blkaddr, blkaddr);
	return ssa_edit(vol, zf2fs_main_segno(vi->main_blkaddr, blkaddr), false, set_entry, &e);
}

static void set_type(const struct zf2fs_geom *g, uint8_t *sum, const void *arg)
{
	zf2fs_sum_footer(g, sum)->entry_type = *(const uint8_t *)arg;
}

ZF2FS_EXPORT int zf2fs_vol_set_ssa_type(struct zf2fs_vol *vol, uint32_t segno, bool node)
{
	uint8_t t = node ? ZF2FS_SUM_TYPE_NODE : ZF2FS_SUM_TYPE_DATA;

	return ssa_edit(vol, segno, false, set_type, &t);
}

int zf2fs_vol_io_write(void *arg, uint64_t blk, const void *buf)
{
	return zf2fs_vol_write_block(arg, blk, buf);
}

int zf2fs_vol_io_sync(void *arg)
{
	struct zf2fs_vol *vol = arg;

	for (unsigned d = 0; d < vol->ndevs; d++) {
		int err = zf2fs_dev_sync(vol->dev[d]);

		if (err)
			return err;
	}
	return 0;
}

ZF2FS_EXPORT void zf2fs_orphans_fill(const struct zf2fs_geom *g, void *blocks, uint32_t nblocks,
				      const uint32_t *ino, uint32_t n)
{
	for (uint32_t b = 0; b < nblocks; b++) {
		uint8_t *blk = (uint8_t *)blocks + (size_t)b * g->blocksize;
		/* the trailer ends the block: the 4 KiB view laid over the block's last 4 KiB
		 * has its trailer fields there (its ino[] is not used) */
		struct zf2fs_orphan_block *tail = (struct zf2fs_orphan_block *)
			(blk + g->blocksize - sizeof(struct zf2fs_orphan_block));
		zf2fs_le32 *inos = (zf2fs_le32 *)blk;
		uint32_t first = b * g->orphans_per_block, cnt = n - first;

		if (cnt > g->orphans_per_block)
			cnt = g->orphans_per_block;
		for (uint32_t i = 0; i < cnt; i++)
			inos[i] = zf2fs_cpu_to_le32(ino[first + i]);
		zf2fs_set(tail->blk_addr, b + 1);
		zf2fs_set(tail->blk_count, nblocks);
		zf2fs_set(tail->entry_count, cnt);
	}
}

ZF2FS_EXPORT int zf2fs_vol_write_cp_next(struct zf2fs_vol *vol, uint8_t *cpbuf,
					 const struct zf2fs_cp_logs *logs, unsigned flags)
{
	const struct zf2fs_geom *g = &vol->geom;
	struct zf2fs_checkpoint *cp = (struct zf2fs_checkpoint *)cpbuf;
	uint32_t payload = (uint32_t)zf2fs_get(vol->sb.cp_payload), orphans = 0;
	uint32_t cpf = (uint32_t)zf2fs_get(cp->ckpt_flags);
	uint64_t old_start = zf2fs_vol_cp_pack_addr(vol, vol->cp_pack);
	struct zf2fs_cp_io io = { zf2fs_vol_io_write, zf2fs_vol_io_sync, vol };
	struct zf2fs_cp_pack p = { 0 };
	uint8_t *sums = NULL, *orph = NULL;
	int err = 0;

	/* the orphan blocks of the current pack stay: the orphans are still to be freed */
	if (flags & ZF2FS_CPN_ORPHANS)
		orphans = (logs->norphans + g->orphans_per_block - 1) / g->orphans_per_block;
	else if (cpf & ZF2FS_CP_ORPHAN_PRESENT_FLAG)
		orphans = (uint32_t)zf2fs_get(cp->cp_pack_start_sum) - 1 - payload;
	if (orphans >= BPS)
		return (flags & ZF2FS_CPN_ORPHANS) ? -E2BIG : -ZF2FS_EFSCORRUPTED;
	sums = calloc(ZF2FS_NR_CURSEG, g->blocksize);
	orph = calloc(orphans ? orphans : 1, g->blocksize);
	if (!sums || !orph) {
		err = -ENOMEM;
		goto out;
	}
	if (flags & ZF2FS_CPN_ORPHANS)
		zf2fs_orphans_fill(g, orph, orphans, logs->orphans, logs->norphans);
	else if (orphans)
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
		cp->alloc_type[type] = logs->alloc_type[type];
		/* normal summaries, one from the start of each block whatever the block size,
		 * journals empty: they were flushed into the tables */
		sum_fill(g, sums + (size_t)type * g->blocksize, logs->sum[type],
			 zf2fs_log_sum_type(type));
	}
	p.start = zf2fs_vol_cp_pack_addr(vol, 1 - vol->cp_pack);
	p.cp = cpbuf;
	p.payload = payload;
	p.orphans = orph;
	p.orphan_blocks = orphans;
	p.sums = sums;
	p.compact = false;
	p.blocksize = g->blocksize;
	err = zf2fs_cp_pack_write(&p, &io);
out:
	free(sums);
	free(orph);
	return err;
}

/* ---- the commit (zf2fs_vol_commit) ------------------------------------------------------ */
struct commit {
	struct zf2fs_vol *vol;
	const struct zf2fs_vol_info *vi;
	const struct zf2fs_commit_req *req;
	uint32_t cur[ZF2FS_NR_CURSEG], blkoff[ZF2FS_NR_CURSEG];
	uint32_t orig_cur[ZF2FS_NR_CURSEG];   /* the current checkpoint's logs */
	bool moved[ZF2FS_NR_CURSEG];          /* the log may be written by this commit: in a
					       * section it took, or going on (cont) */
	bool cont[ZF2FS_NR_CURSEG];           /* the log goes on in the section the current
					       * checkpoint's log is in (may_continue) */
	bool ssr[ZF2FS_NR_CURSEG];            /* the log fills the holes of a dirty segment */
	struct zf2fs_sit_entry ssr_was[ZF2FS_NR_CURSEG];   /* that segment's entry when taken:
					       * its free blocks, free in the checkpoint too */
	uint8_t *ssr_done;                    /* per segment: holes filled by this commit */
	struct zf2fs_sec_zone *zones;         /* the zone report, read once (at_write_pointer) */
	uint32_t nzones;
	int zones_state;                      /* 0: not read; 1: read; -1: not to be had */
	struct zf2fs_summary sum[ZF2FS_NR_CURSEG][ZF2FS_ENTRIES_IN_SUM];
	uint8_t *taken;                  /* per section: taken by this commit */
	uint8_t *pinned;                 /* per segment: the kept chain reads from it */
	uint32_t scan_from[2];           /* the run's log, the others (log_range): below
					  * it no section can be taken */
	int room_state;                  /* 0: not asked; 1: zone capacities known (or no
					  * zones); -1: a zoned volume without its zone report */
	uint32_t unusable;               /* blocks of each section past its zone capacity */
	uint8_t *cpbuf;                  /* the new checkpoint (zf2fs_vol_cp_next) */
};

static bool in_logs(const uint32_t logs[ZF2FS_NR_CURSEG], uint32_t s)
{
	for (int i = 0; i < ZF2FS_NR_CURSEG; i++)
		if (logs[i] == s)
			return true;
	return false;
}

static void mark_sit(struct commit *c, uint32_t segno)
{
	c->req->sit_dirty[zf2fs_geom_sit_block_index(&c->vol->geom, segno)] = 1;
}

/* Whether main segment @s may take new blocks: free in the current checkpoint and now,
 * no log's (the current checkpoint's logs included: their positions stay as the old
 * checkpoint left them), and nothing the kept chain reads lies in it. */
static bool seg_free(const struct commit *c, uint32_t s)
{
	const struct zf2fs_commit_req *r = c->req;

	return s < c->vi->main_segs && !in_logs(c->cur, s) && !in_logs(c->orig_cur, s) &&
	       r->orig_count[s] == 0 && !(c->pinned && c->pinned[s]) &&
	       zf2fs_sit_valid_blocks(r->ops->sit(r->arg, s)) == 0 &&
	       !(r->ops->seg_busy && r->ops->seg_busy(r->arg, s));
}

/* Whether log @type is the one a run kept for data serves: the cold data log, where the
 * movers put data (lib/move/move.c). */
static bool is_run_log(int type)
{
	return type == ZF2FS_LOG_COLD_DATA;
}

/* The sections log @type may take: the run kept for data for the cold data log when the
 * caller set one, else the caller's range (the whole main area by default). */
static void log_range(const struct commit *c, int type, uint32_t *first, uint32_t *end)
{
	const struct zf2fs_commit_req *r = c->req;

	if (r->data_end && is_run_log(type)) {
		*first = r->data_first;
		*end = r->data_end;
	} else {
		*first = r->alloc_first;
		*end = r->alloc_end ? r->alloc_end : c->vi->main_secs;
	}
	if (*end > c->vi->main_secs)
		*end = c->vi->main_secs;
}

/* Whether section @sec lies in the run kept for data and log @type is not the run's. */
static bool kept_from(const struct commit *c, int type, uint32_t sec)
{
	const struct zf2fs_commit_req *r = c->req;

	return r->data_end && !is_run_log(type) && sec >= r->data_first && sec < r->data_end;
}

/* Whether log @type may write in section @sec: inside its range (log_range), and not in
 * a run kept from it. */
static bool log_may_use(const struct commit *c, int type, uint32_t sec)
{
	uint32_t first, end;

	log_range(c, type, &first, &end);
	return sec >= first && sec < end && !kept_from(c, type, sec);
}

/* The one allocator: the first segment of a section log @type may use (log_may_use)
 * whose segments are all free (seg_free) and that this commit has not taken yet.  A
 * section once passed over stays unusable for that kind of log (every reason above lasts
 * until the commit ends), so its scan goes on from there. */
static int pick_free_section(struct commit *c, int type, uint32_t *ret)
{
	uint32_t sps = c->vi->segs_per_sec, first, end;
	uint32_t *scan = &c->scan_from[is_run_log(type) ? 0 : 1];

	log_range(c, type, &first, &end);
	for (uint32_t sec = *scan > first ? *scan : first; sec < end; sec++) {
		bool ok = !c->taken[sec] && !kept_from(c, type, sec);

		for (uint32_t k = 0; k < sps && ok; k++)
			ok = seg_free(c, sec * sps + k);
		if (ok) {
			c->taken[sec] = 1;
			*scan = sec + 1;
			*ret = sec * sps;
			return 0;
		}
	}
	return -ENOSPC;
}

static uint64_t log_addr(const struct commit *c, int type, uint32_t off)
{
	return zf2fs_main_blk(c->vi->main_blkaddr, c->cur[type], off);
}

/* Blocks of main segment @seg a log may write: those below its zone's capacity (all of
 * them without zones, or when the zone report is not there to say: then only the first
 * segment of a section is ever written, see next_in_section). */
static uint32_t seg_room(struct commit *c, uint32_t seg)
{
	if (!c->room_state) {
		c->unusable = 0;
		c->room_state = !zf2fs_vol_is_zoned(c->vol) ||
				!zf2fs_vol_zone_unusable(c->vol, &c->unusable) ? 1 : -1;
	}
	return c->room_state > 0 ? zf2fs_seg_usable_blocks(c->vi, c->unusable, seg) : BPS;
}

static uint32_t log_room(struct commit *c, int type)
{
	return seg_room(c, c->cur[type]);
}

/* The segment after log @type's in the same section, when the log may go on there: the
 * section is one this commit took whole (all its segments free), and the segment lies
 * below the zone's capacity.  So a log fills its section before taking another, in the
 * order the kernel's own logs fill one, and a zone is written from its start on. */
static bool next_in_section(struct commit *c, int type, uint32_t *ret)
{
	uint32_t seg = c->cur[type] + 1;

	if (!c->moved[type] || c->ssr[type] || seg % c->vi->segs_per_sec == 0 || seg >= c->vi->main_segs)
		return false;
	if (seg_room(c, seg) == 0 || c->room_state < 0)
		return false;
	/* a section this commit did not take whole: each further segment must be free */
	if (c->cont[type] && !seg_free(c, seg))
		return false;
	*ret = seg;
	return true;
}

/* On a zoned device a log goes on only at its zone's write pointer (a sequential zone
 * takes no other write; one the kernel wrote past its checkpoint's position, or a
 * commit cut short, is left to a fresh section). */
static bool at_write_pointer(struct commit *c, uint32_t seg, uint32_t off)
{
	uint64_t blk = zf2fs_main_blk(c->vi->main_blkaddr, seg, off);
	uint32_t sec = seg / c->vi->segs_per_sec;
	const struct zf2fs_sec_zone *z;

	if (!zf2fs_vol_is_zoned(c->vol))
		return true;
	/* the write pointers do not move during the commit's first allocations, when every
	 * log asks: one report serves them all */
	if (!c->zones_state)
		c->zones_state = zf2fs_vol_zones(c->vol, NULL, &c->zones, &c->nzones) ? -1 : 1;
	if (c->zones_state < 0 || sec >= c->nzones)
		return false;
	z = &c->zones[sec];
	return z->type == ZF2FS_ZONE_NONE || z->type == ZF2FS_ZONE_CONV ||
	       (!z->wp_partial && z->zone_blkaddr + z->wp_blocks == blk);
}

/* Whether log @type, not yet written by this commit, may go on where the current
 * checkpoint's log stands, as the kernel's logs go on after a checkpoint: then the
 * commits of a long move (one per batch) fill each log's segment and section in turn,
 * where a fresh section per log and commit would leave every one partly written (on a
 * zoned volume, a zone each).  Crash-safe because the blocks from the log's position on
 * were free in the current checkpoint (log_tail_free, an LFS log: the kernel keeps
 * them so) and this commit's node footers carry the next version without the fsync
 * mark, so the kernel's roll-forward walk, which starts there, stops at the first one.
 * Not for a log the caller fixes or retires, one outside the sections new blocks may
 * go to, one the kept chain reads from, or one without room left in its segment. */
static bool may_continue(struct commit *c, int type)
{
	const struct zf2fs_commit_req *r = c->req;
	const struct zf2fs_checkpoint *cp = (const struct zf2fs_checkpoint *)c->cpbuf;
	uint32_t seg = c->cur[type], sec;

	if (c->moved[type] || seg != c->orig_cur[type] || seg >= c->vi->main_segs ||
	    !(r->log_tail_free & (1u << type)) || cp->alloc_type[type] != 0 ||
	    (r->retire_logs & (1u << type)) || (r->log_fix && r->log_fix[type] >= 0) ||
	    (c->pinned && c->pinned[seg]) || (r->ops->seg_busy && r->ops->seg_busy(r->arg, seg)))
		return false;
	sec = seg / c->vi->segs_per_sec;
	if (!log_may_use(c, type, sec))
		return false;
	if (c->blkoff[type] >= seg_room(c, seg) || c->room_state < 0)
		return false;
	return at_write_pointer(c, seg, c->blkoff[type]);
}

/* Whether block @off of log @type's SSR segment is free: free when the segment was taken
 * (so in the current checkpoint too) and not written since. */
static bool ssr_slot_free(struct commit *c, int type, uint32_t off)
{
	const struct zf2fs_sit_entry *now = c->req->ops->sit(c->req->arg, c->cur[type]);

	return !zf2fs_sit_block_valid(&c->ssr_was[type], off) && !zf2fs_sit_block_valid(now, off);
}

/* Log @type's next free block in its SSR segment from @off on; the segment's usable
 * blocks when none is left (the log then moves on). */
static uint32_t ssr_next(struct commit *c, int type, uint32_t off)
{
	uint32_t room = seg_room(c, c->cur[type]);

	while (off < room && !ssr_slot_free(c, type, off))
		off++;
	return off;
}

/* Blocks of a segment an SSR log may not take: valid in the current checkpoint (@orig)
 * or now.  Counted a word at a time (every dirty segment of the volume is asked); SSR
 * runs only without zones, where every block of a segment is usable. */
static uint32_t ssr_used(const struct zf2fs_sit_entry *orig, const struct zf2fs_sit_entry *now)
{
	uint32_t used = 0;

	for (size_t w = 0; w < sizeof(orig->valid_map); w += 8) {
		uint64_t a, b;

		memcpy(&a, orig->valid_map + w, 8);
		memcpy(&b, now->valid_map + w, 8);
		used += (uint32_t)__builtin_popcountll(a | b);
	}
	return used;
}

/* When no free section is left, the holes of a dirty segment, as the kernel's SSR
 * (slack space recycling) fills them: the segment with the fewest blocks in use among
 * those of the log's type; for the cold data log (where movers put data), else among
 * the other data segments, which then become cold data.  The kernel also mixes the
 * other temperatures, but fsck.f2fs (1.15) accepts a segment of mixed temperatures only
 * under the cold data type, so this stays within what both fscks find clean.  A block
 * is free to take when it is free both now and in the current checkpoint (one freed
 * since stays as it is until the new checkpoint), as the kernel's SSR goes by its
 * checkpointed map too.  Only on volumes without zones (a
 * sequential zone takes no write below its pointer) with a summary area (the segment's
 * summary comes along), never for a kept chain, and only
 * when the caller knows the checkpoint's entries (ops->sit_orig) and keeps no run for
 * data (its data must stay in one run); no log's segment, none
 * in a section this commit took, none the caller empties or counts busy, only inside
 * the sections new blocks may go to.  The segment's summary comes along: its entries
 * for the blocks it holds stay. */
static int pick_ssr_segment(struct commit *c, int type)
{
	const struct zf2fs_commit_req *r = c->req;
	uint32_t best = UINT32_MAX, best_used = 0, sps = c->vi->segs_per_sec, first, end;
	const struct zf2fs_geom *g = &c->vol->geom;
	const struct zf2fs_sit_entry *orig = NULL;
	uint8_t *sum;
	struct zf2fs_sit_entry *se;
	int err;

	if (zf2fs_vol_is_zoned(c->vol) || r->chain_len || !r->ops->sit_orig || r->data_end ||
	    !zf2fs_vol_has_ssa(c->vol))
		return -ENOSPC;
	log_range(c, type, &first, &end);
	if (!c->ssr_done) {
		c->ssr_done = calloc(c->vi->main_segs + 1, 1);
		if (!c->ssr_done)
			return -ENOMEM;
	}
	for (int pass = 0; pass < (type == ZF2FS_LOG_COLD_DATA ? 2 : 1) && best == UINT32_MAX;
	     pass++) {
		for (uint32_t s = first * sps; s < end * sps; s++) {
			const struct zf2fs_sit_entry *e = r->ops->sit(r->arg, s);
			const struct zf2fs_sit_entry *o = r->ops->sit_orig(r->arg, s);
			uint32_t t = zf2fs_sit_type(e), used;

			if (!o)
				return -ENOSPC;
			/* pass 1 (cold data only): the other data types */
			if (pass == 0 ? t != (uint32_t)type :
			    t == (uint32_t)type || t > ZF2FS_LOG_COLD_DATA)
				continue;
			if (c->ssr_done[s] || c->taken[s / sps] || in_logs(c->cur, s) ||
			    in_logs(c->orig_cur, s) || (c->pinned && c->pinned[s]) ||
			    (r->ops->seg_busy && r->ops->seg_busy(r->arg, s)) ||
			    (!zf2fs_sit_valid_blocks(e) && !zf2fs_sit_valid_blocks(o)))
				continue;
			used = ssr_used(o, e);
			if (used >= seg_room(c, s))
				continue;
			if (best == UINT32_MAX || used < best_used) {
				best = s;
				best_used = used;
				orig = o;
			}
		}
	}
	if (best == UINT32_MAX)
		return -ENOSPC;
	sum = malloc(g->blocksize);   /* one summary of g->sum_blocksize bytes */
	if (!sum)
		return -ENOMEM;
	err = zf2fs_vol_segment_summary(c->vol, best, (struct zf2fs_summary_block *)sum);
	if (!err && zf2fs_sum_footer(g, sum)->entry_type != zf2fs_log_sum_type(type))
		err = -ZF2FS_EFSCORRUPTED;
	if (!err) {
		se = r->ops->sit_mut(r->arg, best);
		if (!se)
			err = -ENOMEM;
	}
	if (!err) {
		c->ssr_done[best] = 1;
		/* asked again: keeping the entry (sit_mut) may have moved the copies */
		orig = r->ops->sit_orig(r->arg, best);
		if (!orig) {
			free(sum);
			return -ENOSPC;
		}
		c->ssr_was[type] = *orig;
		zf2fs_sit_set_type(se, (uint32_t)type);
		mark_sit(c, best);
		c->cur[type] = best;
		c->ssr[type] = true;
		memcpy(c->sum[type], zf2fs_sum_entries(sum), sizeof(c->sum[type]));
		c->blkoff[type] = ssr_next(c, type, 0);
	}
	free(sum);
	return err;
}

/* Retire log @type (its summary to the SSA, where there is one) and start it on the next segment of its
 * section or on a fresh free section, or in the holes of a dirty segment when no free
 * section is left. */
static int new_log(struct commit *c, int type)
{
	const struct zf2fs_commit_req *r = c->req;
	struct zf2fs_sit_entry *se;
	uint32_t seg;
	int err;

	/* without a summary area the retired segment's summary is not kept (nothing reads
	 * it: the kernel mounts such a volume read-only, without GC or roll-forward) */
	err = zf2fs_vol_has_ssa(c->vol) ?
	      zf2fs_vol_write_ssa(c->vol, c->cur[type], type, c->sum[type]) : 0;
	if (err)
		return err;
	if (!next_in_section(c, type, &seg)) {
		err = pick_free_section(c, type, &seg);
		if (err == -ENOSPC) {
			err = pick_ssr_segment(c, type);
			if (!err) {
				c->moved[type] = true;
				c->cont[type] = false;
				return 0;
			}
		}
		if (err) {
			if (err == -ENOSPC)
				zf2fs_logf(&c->vol->log, ZF2FS_MSG_ERROR, 0,
					   "no free section left for the new blocks, nor a "
					   "dirty segment with free blocks");
			return err;
		}
		c->cont[type] = false;
	}
	c->ssr[type] = false;
	c->cur[type] = seg;
	c->blkoff[type] = 0;
	c->moved[type] = true;
	memset(c->sum[type], 0, sizeof(c->sum[type]));
	se = r->ops->sit_mut(r->arg, seg);
	if (!se)
		return -ENOMEM;
	zf2fs_sit_set_vblocks(se, (uint32_t)type, 0);
	mark_sit(c, seg);
	return 0;
}

/* Next block of log @type: new blocks never go where the current checkpoint's log
 * writes, so the log first moves to a section of this commit's, and on again whenever
 * its segment is full. */
static int log_alloc(struct commit *c, int type, uint32_t *ret)
{
	int err;

	if (!c->moved[type] && may_continue(c, type))
		c->moved[type] = c->cont[type] = true;
	if (!c->moved[type] || c->blkoff[type] >= log_room(c, type)) {
		err = new_log(c, type);
		if (err)
			return err;
	}
	*ret = (uint32_t)log_addr(c, type, c->blkoff[type]);
	return 0;
}

/* Past the block just allocated: the next one of the log, in an SSR segment the next
 * free one. */
static void advance(struct commit *c, int type)
{
	c->blkoff[type]++;
	if (c->ssr[type])
		c->blkoff[type] = ssr_next(c, type, c->blkoff[type]);
}

static int set_block(struct commit *c, uint32_t blk, bool valid)
{
	const struct zf2fs_commit_req *r = c->req;
	struct zf2fs_sit_entry *se;
	uint32_t seg;

	if (blk < c->vi->main_blkaddr || blk >= c->vi->main_end)
		return 0;
	seg = zf2fs_main_segno(c->vi->main_blkaddr, blk);
	se = r->ops->sit_mut(r->arg, seg);
	if (!se)
		return -ENOMEM;
	/* the segment's time moves as the kernel's writes and invalidations move it, so
	 * that its cost-benefit and ATGC victims see our blocks as new ones, not as the
	 * oldest of the volume (time 0) */
	if (zf2fs_sit_mark_at(se, zf2fs_main_seg_off(c->vi->main_blkaddr, blk), valid,
			      zf2fs_vol_now(c->vol)))
		mark_sit(c, seg);
	return 0;
}

/* Where slot @ofs of node @n (nid @nid) keeps its block address: an inode's slots count
 * after its extra attributes, a direct node's from its first word. */
static uint8_t *slot_ptr(const struct commit *c, struct zf2fs_node *n, uint32_t nid,
			 uint32_t ofs)
{
	const struct zf2fs_geom *vg = &c->vol->geom;
	const struct zf2fs_node_footer *f = zf2fs_node_footer(vg, n);

	if (zf2fs_get(f->ino) == nid && zf2fs_get(f->nid) == nid) {
		struct zf2fs_inode_geom g;

		if (zf2fs_inode_geometry2(vg, &n->i, c->vi->features, &g) ||
		    (uint64_t)g.extra_words + ofs >= vg->addrs_per_inode)
			return NULL;
		return (uint8_t *)(zf2fs_inode_addrs(n) + g.extra_words + ofs);
	}
	return ofs < vg->addrs_per_block ? (uint8_t *)(zf2fs_node_words(n) + ofs) : NULL;
}

/* The log of the i-th node or data block: the caller's choice when it makes one of the
 * right kind, else the warm log. */
static int log_of(const struct commit *c, bool node, size_t i)
{
	const struct zf2fs_commit_req *r = c->req;
	int lo = node ? ZF2FS_LOG_HOT_NODE : ZF2FS_LOG_HOT_DATA;
	int hi = node ? ZF2FS_LOG_COLD_NODE : ZF2FS_LOG_COLD_DATA;
	int t = r->ops->log_of ? r->ops->log_of(r->arg, node, i) : -1;

	/* a read-only volume has two logs, as the kernel and f2fs-tools read it: every
	 * node goes to the hot node log, every data block to the hot data log */
	if (c->vi->features & ZF2FS_FEAT_RO)
		return lo;
	if (t < lo || t > hi)
		return node ? ZF2FS_LOG_WARM_NODE : ZF2FS_LOG_WARM_DATA;
	return t;
}

static int write_datas(struct commit *c)
{
	const struct zf2fs_commit_req *r = c->req;
	int err = 0;

	for (size_t i = 0; !err && i < r->ndatas; i++) {
		struct zf2fs_commit_data d;
		struct zf2fs_nat_info ni;
		struct zf2fs_node *owner;
		uint8_t *slot;
		uint32_t addr;
		int type;

		if (!r->ops->data_at(r->arg, i, &d))
			continue;
		type = log_of(c, false, i);
		owner = r->ops->owner(r->arg, d.owner);
		if (!owner)
			return -EIO;
		slot = slot_ptr(c, owner, d.owner, d.ofs);
		if (!slot || ((r->flags & ZF2FS_COMMIT_CHECK_SLOTS) &&
			      zf2fs_get_le32p(slot) != d.old_addr))
			return -ZF2FS_EFSCORRUPTED;
		err = log_alloc(c, type, &addr);
		if (err)
			break;
		zf2fs_set(c->sum[type][c->blkoff[type]].nid, d.owner);
		zf2fs_set(c->sum[type][c->blkoff[type]].ofs_in_node, d.ofs);
		/* the owner's NAT version, which the commit keeps: the kernel's GC compares them */
		c->sum[type][c->blkoff[type]].version =
			zf2fs_vol_nat_lookup(c->vol, d.owner, &ni) ? 0 : ni.version;
		advance(c, type);
		err = zf2fs_vol_write_block(c->vol, addr, d.buf);
		if (err)
			break;
		zf2fs_put_le32p(slot, addr);
		if (d.old_addr != ZF2FS_NULL_ADDR)
			err = set_block(c, d.old_addr, false);
		if (!err)
			err = set_block(c, addr, true);
	}
	return err;
}

/* An inode's checksum over a block of @g's size, when it carries one (the inode's own
 * block: footer ino and nid both @nid, checksum room in its extra attributes). */
static void inode_reseal(const struct zf2fs_geom *g, struct zf2fs_node *n, uint32_t nid,
			 uint32_t features, uint32_t seed)
{
	if (zf2fs_get(zf2fs_node_footer(g, n)->ino) != nid ||
	    !zf2fs_inode_has_checksum(&n->i, features))
		return;
	zf2fs_set(n->i.i_inode_checksum, zf2fs_inode_checksum2(g, seed, n));
}

/* A node block written by a checkpoint, not by fsync: version @cp_ver, next block
 * @next_blkaddr, no fsync or dentry mark (nothing for roll-forward to replay), the
 * inode's checksum renewed. */
static void node_seal(const struct zf2fs_geom *g, struct zf2fs_node *n, uint32_t nid,
		      uint64_t cp_ver, uint32_t next_blkaddr, uint32_t features, uint32_t seed)
{
	struct zf2fs_node_footer *f = zf2fs_node_footer(g, n);

	zf2fs_set(f->cp_ver, cp_ver);
	zf2fs_set(f->next_blkaddr, next_blkaddr);
	zf2fs_set(f->flag, zf2fs_get(f->flag) &
		  ~(uint64_t)(ZF2FS_FOOTER_FSYNC_BIT | ZF2FS_FOOTER_DENT_BIT));
	inode_reseal(g, n, nid, features, seed);
}

/* The kept chain: copies of its blocks, in its order, from the warm node log's write
 * position on, each naming the next copy and the new checkpoint's version, the last one
 * ending the chain (next block 0, which the kernel's walk never follows).  Everything
 * else in the blocks (fsync and dentry marks, node offsets, the data block addresses)
 * stays as the kernel wrote it, so the kernel replays the copies exactly as it would
 * have the originals.  A chain longer than the rest of the segment goes on in further
 * free sections, as the kernel's own chain does when its log moves.  The copies are not
 * valid in the SIT: like the originals, they live past the log's position until the
 * kernel's recovery checkpoint. */
static int write_chain(struct commit *c)
{
	const struct zf2fs_commit_req *r = c->req;
	const struct zf2fs_geom *g = &c->vol->geom;
	uint32_t seed = zf2fs_checksum_seed(c->vol->sb.uuid);
	struct zf2fs_node *n = malloc(g->blocksize);   /* the 4 KiB view */
	uint64_t here = log_addr(c, ZF2FS_LOG_WARM_NODE, c->blkoff[ZF2FS_LOG_WARM_NODE]);
	int err = n ? 0 : -ENOMEM;

	for (uint32_t i = 0; i < r->chain_len && !err; i++) {
		uint64_t next = 0;

		if (i + 1 < r->chain_len) {
			if (zf2fs_main_seg_off(c->vi->main_blkaddr, here) + 1 <
			    seg_room(c, zf2fs_main_segno(c->vi->main_blkaddr, here))) {
				next = here + 1;
			} else {
				uint32_t seg;

				err = pick_free_section(c, ZF2FS_LOG_WARM_NODE, &seg);
				if (err) {
					zf2fs_logf(&c->vol->log, ZF2FS_MSG_ERROR, 0,
						   "no free section left for the roll-forward chain");
					break;
				}
				next = zf2fs_main_blk(c->vi->main_blkaddr, seg, 0);
			}
		}
		err = zf2fs_vol_read_block(c->vol, r->chain[i], n);
		if (err)
			break;
		zf2fs_node_set_chain2(g, n, (const struct zf2fs_checkpoint *)c->cpbuf,
				      (uint32_t)next);
		/* an inode's checksum covers its footer */
		inode_reseal(g, n, (uint32_t)zf2fs_get(zf2fs_node_footer(g, n)->nid),
			     c->vi->features, seed);
		err = zf2fs_vol_write_block(c->vol, here, n);
		here = next;
	}
	free(n);
	return err;
}

static int write_nodes(struct commit *c)
{
	const struct zf2fs_commit_req *r = c->req;
	const int chain_log = ZF2FS_LOG_WARM_NODE;
	uint32_t seed = zf2fs_checksum_seed(c->vol->sb.uuid);
	uint64_t ver = c->vi->cp_ver + 1;
	int err = 0;

	for (size_t i = 0; !err && i < r->nnodes; i++) {
		struct zf2fs_commit_node n;
		uint32_t addr, next;
		int type;

		if (!r->ops->node_at(r->arg, i, &n))
			continue;
		type = log_of(c, true, i);
		err = log_alloc(c, type, &addr);
		if (err)
			break;
		zf2fs_set(c->sum[type][c->blkoff[type]].nid, n.nid);
		advance(c, type);
		next = c->blkoff[type] < log_room(c, type) ?
		       (uint32_t)log_addr(c, type, c->blkoff[type]) : 0;
		node_seal(&c->vol->geom, n.buf, n.nid, ver, next, c->vi->features, seed);
		err = zf2fs_vol_write_block(c->vol, addr, n.buf);
		if (!err)
			err = r->ops->node_moved(r->arg, n.nid, n.buf, n.old_addr, addr);
		if (!err && n.old_addr != ZF2FS_NULL_ADDR)
			err = set_block(c, n.old_addr, false);
		if (!err)
			err = set_block(c, addr, true);
	}
	if (err || !r->chain_len)
		return err;
	/* the chain follows the new nodes in a log of this commit's own */
	if (!c->moved[chain_log] || c->blkoff[chain_log] >= log_room(c, chain_log))
		err = new_log(c, chain_log);
	return err ? err : write_chain(c);
}

/* Logs whose section a mover emptied and the writes above did not move on: to a fresh
 * section, so that theirs ends up free. */
static int retire_logs(struct commit *c)
{
	int err = 0;

	for (int type = 0; !err && type < ZF2FS_NR_CURSEG; type++)
		if ((c->req->retire_logs & (1u << type)) && c->cur[type] == c->orig_cur[type])
			err = new_log(c, type);
	/* a log whose segment the writes filled to the last block moves on too: the kernel
	 * refuses a checkpoint whose log position is past its segment's blocks */
	for (int type = 0; !err && type < ZF2FS_NR_CURSEG; type++)
		if (c->blkoff[type] >= log_room(c, type))
			err = new_log(c, type);
	return err;
}

static int write_summary_fixes(struct commit *c)
{
	const struct zf2fs_commit_req *r = c->req;
	int err = 0;

	for (size_t i = 0; i < r->nsums && !err; i++) {
		const struct zf2fs_commit_sum *f = &r->sums[i];
		struct zf2fs_summary *e = NULL;
		uint32_t seg, off;

		if (f->blkaddr < c->vi->main_blkaddr || f->blkaddr >= c->vi->main_end)
			return -EINVAL;
		seg = zf2fs_main_segno(c->vi->main_blkaddr, f->blkaddr);
		off = zf2fs_main_seg_off(c->vi->main_blkaddr, f->blkaddr);
		/* a log's summary goes with the new checkpoint */
		for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
			if (c->cur[t] == seg)
				e = &c->sum[t][off];
		if (e) {
			zf2fs_set(e->nid, f->nid);
			zf2fs_set(e->ofs_in_node, f->ofs);
			e->version = f->version;
			continue;
		}
		err = zf2fs_vol_set_ssa_entry(c->vol, f->blkaddr, f->nid, f->ofs, f->version);
	}
	for (size_t i = 0; i < r->nsum_types && !err; i++)
		err = zf2fs_vol_set_ssa_type(c->vol, r->sum_types[i].segno,
					     r->sum_types[i].type == ZF2FS_SUM_TYPE_NODE);
	return err;
}

/* Every segment the kept chain's blocks lie in, and every segment a word of theirs could
 * name (the data blocks the kernel will take over are among them): pinned, never
 * written by this commit.  A few segments too many only narrow the choice. */
static int pin_chain(struct commit *c)
{
	const struct zf2fs_commit_req *r = c->req;
	const struct zf2fs_geom *g = &c->vol->geom;
	uint32_t mb = c->vi->main_blkaddr;
	uint8_t *b = malloc(g->blocksize);
	int err = 0;

	c->pinned = calloc(c->vi->main_segs + 1, 1);
	if (!c->pinned || !b) {
		free(b);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < r->chain_len && !err; i++) {
		if (r->chain[i] < mb || r->chain[i] >= c->vi->main_end) {
			err = -ZF2FS_EFSCORRUPTED;
			break;
		}
		err = zf2fs_vol_read_block(c->vol, r->chain[i], b);
		if (err)
			break;
		c->pinned[zf2fs_main_segno(mb, r->chain[i])] = 1;
		/* every word before the footer: where an address or a nid may lie */
		for (uint32_t w = 0; w < g->node_footer_offset / 4; w++) {
			uint32_t a = zf2fs_node_word(b, w);

			if (a >= mb && a < c->vi->main_end)
				c->pinned[zf2fs_main_segno(mb, a)] = 1;
		}
	}
	free(b);
	return err;
}

static int write_tables(struct commit *c)
{
	const struct zf2fs_commit_req *r = c->req;
	int err = zf2fs_vol_write_sit_dirty(c->vol, r->sit_dirty, r->ops->sit, r->arg, c->cpbuf);

	return err ? err : zf2fs_vol_write_nat_dirty(c->vol, r->nat_dirty, r->ops->nat_block,
						     r->arg, c->cpbuf);
}

static bool empty_now(void *arg, uint32_t s)
{
	const struct zf2fs_commit_req *r = ((struct commit *)arg)->req;

	return !zf2fs_sit_valid_blocks(r->ops->sit(r->arg, s));
}

static bool empty_before(void *arg, uint32_t s)
{
	return !((struct commit *)arg)->req->orig_count[s];
}

/* The new checkpoint's free segment count (zf2fs_free_segs).  A zoned volume needs the
 * zone capacity, which only the devices' zone report gives; without it (an image file)
 * the current count changes by the segments that changed state: those past a zone's
 * capacity never do. */
static void count_free(struct commit *c, struct zf2fs_checkpoint *cp, const uint32_t *logs)
{
	uint32_t unusable = 0;
	int64_t n;

	if (!zf2fs_vol_is_zoned(c->vol) || !zf2fs_vol_zone_unusable(c->vol, &unusable)) {
		zf2fs_set(cp->free_segment_count,
			  zf2fs_free_segs(c->vi, unusable, logs, empty_now, c));
		return;
	}
	n = (int64_t)zf2fs_get(cp->free_segment_count) +
	    zf2fs_free_segs(c->vi, 0, logs, empty_now, c) -
	    zf2fs_free_segs(c->vi, 0, c->orig_cur, empty_before, c);
	zf2fs_set(cp->free_segment_count, (uint32_t)(n < 0 ? 0 : n));
}

static int write_pack(struct commit *c)
{
	const struct zf2fs_commit_req *r = c->req;
	struct zf2fs_checkpoint *cp = (struct zf2fs_checkpoint *)c->cpbuf;
	unsigned flags = r->flags & ZF2FS_CPN_QUOTA_CHECKED;
	struct zf2fs_cp_logs logs = { .orphans = r->orphans, .norphans = r->norphans };

	for (int type = 0; type < ZF2FS_NR_CURSEG; type++) {
		logs.segno[type] = c->cur[type];
		logs.blkoff[type] = c->blkoff[type];
		/* a log moved to a fresh section continues in LFS order there; one in a
		 * dirty segment's holes in SSR order (its position is a free block) */
		logs.alloc_type[type] = c->ssr[type] ? 1 :
					c->cur[type] != c->orig_cur[type] ? 0 : cp->alloc_type[type];
		logs.sum[type] = c->sum[type];
	}
	if (r->chain_len)
		flags |= ZF2FS_CPN_RECOVERY;
	if (r->flags & ZF2FS_COMMIT_ORPHANS)
		flags |= ZF2FS_CPN_ORPHANS;
	count_free(c, cp, logs.segno);
	r->ops->counters(r->arg, cp);
	/* the check every reader makes of a checkpoint (lib/read/checkpoint.c): a pack failing it
	 * would be written only to be passed over */
	if (zf2fs_get(cp->valid_block_count) > zf2fs_get(cp->user_block_count)) {
		zf2fs_logf(&c->vol->log, ZF2FS_MSG_ERROR, 0, "the new checkpoint would count %llu "
			   "blocks, above the %llu the volume's users may have",
			   (unsigned long long)zf2fs_get(cp->valid_block_count),
			   (unsigned long long)zf2fs_get(cp->user_block_count));
		return -ENOSPC;
	}
	return zf2fs_vol_write_cp_next(c->vol, c->cpbuf, &logs, flags);
}

/* ---- the commit in steps (commit_p.h) -------------------------------------------------- */
int commit_begin(struct zf2fs_vol *vol, const struct zf2fs_commit_req *req,
		 struct commit **ret)
{
	struct commit *c = calloc(1, sizeof(*c));
	int err = 0;

	*ret = NULL;
	if (!c)
		return -ENOMEM;
	c->vol = vol;
	c->vi = &vol->info;
	c->req = req;
	c->taken = calloc(c->vi->main_secs + 1, 1);
	if (!c->taken ||
	    zf2fs_vol_cp_next(vol, req->chain_len ? ZF2FS_CPN_RECOVERY : 0, &c->cpbuf)) {
		err = -ENOMEM;
		goto out;
	}
	if (req->chain_len)
		err = pin_chain(c);
	for (int type = 0; type < ZF2FS_NR_CURSEG && !err; type++) {
		zf2fs_vol_curseg(vol, type, &c->cur[type], &c->blkoff[type]);
		memcpy(c->sum[type], zf2fs_vol_curseg_summary(vol, type), sizeof(c->sum[type]));
		c->orig_cur[type] = c->cur[type];
	}
	/* the current logs' SIT entries and the journals' NAT entries go into blocks */
	if (!err) {
		zf2fs_vol_journal_blocks(vol, req->sit_dirty, req->nat_dirty);
		for (int type = 0; type < ZF2FS_NR_CURSEG; type++)
			if (c->cur[type] < c->vi->main_segs)
				mark_sit(c, c->cur[type]);
	}
	for (int type = 0; type < ZF2FS_NR_CURSEG && !err && req->log_fix; type++) {
		if (req->log_fix[type] < 0)
			continue;
		if (req->log_fix[type] < (int32_t)BPS)
			c->blkoff[type] = (uint32_t)req->log_fix[type];
		else
			err = new_log(c, type);
	}
out:
	if (err)
		commit_free(c);
	else
		*ret = c;
	return err;
}

/* Data, then node blocks.  Called once per flush of a long transaction: the logs go on
 * where the last call left them, and every section a call took stays taken (never
 * written twice) until the commit ends.  A flush writes no SSA but a full log's, no
 * SIT, NAT or checkpoint block, so the current checkpoint stays whole: every block
 * written lies in a section it counts free.
 *
 * Nor can the kernel's roll-forward recovery, after a crash, take the nodes written
 * here for its own: its walk starts at the current checkpoint's warm node log position,
 * in a segment seg_free() never lets this commit write, stops at the first node whose
 * footer lacks that checkpoint's version (is_recoverable_dnode in fs/f2fs/node.h), and
 * replays only nodes with the fsync mark.  Ours carry the next version and no fsync mark
 * (node_seal), so even a stale footer leading into a section written here ends
 * the walk there. */
int commit_write(struct commit *c, const struct zf2fs_commit_req *req)
{
	int err;

	c->req = req;
	err = write_datas(c);
	return err ? err : write_nodes(c);
}

int commit_finish(struct commit *c, const struct zf2fs_commit_req *req)
{
	int err;

	c->req = req;
	err = retire_logs(c);
	if (!err)
		err = write_summary_fixes(c);
	if (!err)
		err = write_tables(c);
	if (!err)
		err = write_pack(c);
	return err;
}

void commit_free(struct commit *c)
{
	if (!c)
		return;
	free(c->cpbuf);
	free(c->taken);
	free(c->pinned);
	free(c->ssr_done);
	free(c->zones);
	free(c);
}

ZF2FS_EXPORT int zf2fs_vol_commit(struct zf2fs_vol *vol, const struct zf2fs_commit_req *req)
{
	struct commit *c;
	int err = commit_begin(vol, req, &c);

	if (!err)
		err = commit_write(c, req);
	if (!err)
		err = commit_finish(c, req);
	commit_free(c);
	return err;
}
