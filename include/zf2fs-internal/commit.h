/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zf2fs-internal/commit.h - the steps of the one commit, the dentry editing of fsck's
 * repair, and the superblock written in place (lib/write/), for zf2fs-tools' own programs.
 *
 * Not installed, no ABI promise: these are exported from libzf2fs.so in the version node
 * ZF2FS_PRIVATE (lib/libzf2fs.sym) for fsck's repair, the tools and the tests, which
 * write blocks themselves and hand them to the commit.  Programs outside the tree use the
 * transaction (<zf2fs/txn.h>).
 */
#ifndef ZF2FS_INTERNAL_COMMIT_H
#define ZF2FS_INTERNAL_COMMIT_H

#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/format.h"
#include "zf2fs/txn.h"

/* ---- the building blocks of a commit (lib/write/commit.c) ---------------------------------
 * For a writer that decides itself which blocks change (fsck's repair): it writes its
 * node and data blocks out of place, then hands its SIT and NAT blocks, retired logs'
 * summaries and the new checkpoint to these, which know where each goes.  The same
 * rules as zf2fs_txn_commit(): nothing the current checkpoint uses is overwritten, and
 * the new checkpoint's CP blocks are written last. */

/* Write @blk (a block of the volume's size, zf2fs_vol_geom) as SIT (NAT) block @idx of
 * the copy the current checkpoint does not use, and flip the block's bit in the version
 * bitmap of @cpbuf (from zf2fs_vol_cp_next), so that the new checkpoint reads that copy.
 * Call once per block.  0, -EINVAL for an index beyond the table, write errors. */
ZF2FS_EXPORT int zf2fs_vol_write_sit_next(struct zf2fs_vol *vol, uint32_t idx, const void *blk,
					  uint8_t *cpbuf);
ZF2FS_EXPORT int zf2fs_vol_write_nat_next(struct zf2fs_vol *vol, uint32_t idx, const void *blk,
					  uint8_t *cpbuf);

/* Write the summary of main segment @segno: @entries (ZF2FS_ENTRIES_IN_SUM of them) as
 * written by log @type (ZF2FS_LOG_*), into its SSA block (zf2fs_ssa_put; with packed_ssa
 * the block is read first and its other summaries written back unchanged).  For a log
 * that leaves its segment.  0,
 * -EINVAL, -ENOMEM, write errors; -EROFS, nothing written, on a volume without a
 * summary area (zf2fs_vol_has_ssa). */
ZF2FS_EXPORT int zf2fs_vol_write_ssa(struct zf2fs_vol *vol, uint32_t segno, int type,
				     const struct zf2fs_summary *entries);

/* Put main segment @segno's summary into @ssa_block, its SSA block (of @g's size): the
 * segment's @entries (ZF2FS_ENTRIES_IN_SUM of them), no journal, footer type @sum_type
 * (ZF2FS_SUM_TYPE_*), at the place zf2fs_geom_ssa_block gives.  With packed_ssa the
 * block holds g->sums_per_block summaries of consecutive segments and the others stay
 * as they are: a writer reads the block, puts the one summary in, writes it back. */
struct zf2fs_geom;
ZF2FS_EXPORT void zf2fs_ssa_put(const struct zf2fs_geom *g, void *ssa_block, uint32_t segno,
				 const struct zf2fs_summary *entries, uint8_t sum_type);

/* Fill @nblocks zeroed orphan blocks of @g's size (at @blocks, one after the other) with
 * the @n inode numbers @ino: g->orphans_per_block to a block, each full but the last,
 * numbered from 1 as the kernel numbers them, the trailer (block index, block count,
 * entry count) in the block's last 16 bytes. */
ZF2FS_EXPORT void zf2fs_orphans_fill(const struct zf2fs_geom *g, void *blocks, uint32_t nblocks,
				      const uint32_t *ino, uint32_t n);

/* Correct the summary entry of main-area block @blkaddr in place in the SSA (a segment
 * that is no current log's, whose summary the checkpoint does not carry): its owner @nid,
 * @ofs_in_node and the owner's NAT @version.  0, -EINVAL outside the main area, read and
 * write errors; -EROFS, nothing written, on a volume without a summary area. */
ZF2FS_EXPORT int zf2fs_vol_set_ssa_entry(struct zf2fs_vol *vol, uint64_t blkaddr, uint32_t nid,
					 uint16_t ofs_in_node, uint8_t version);

/* Set the footer type of main segment @segno's summary block in the SSA: node or data
 * (same conditions as above; -EINVAL past the main area). */
ZF2FS_EXPORT int zf2fs_vol_set_ssa_type(struct zf2fs_vol *vol, uint32_t segno, bool node);

/* The logs of the new checkpoint. */
struct zf2fs_cp_logs {
	uint32_t segno[ZF2FS_NR_CURSEG], blkoff[ZF2FS_NR_CURSEG];
	uint8_t alloc_type[ZF2FS_NR_CURSEG];                  /* 0 LFS, 1 SSR */
	const struct zf2fs_summary *sum[ZF2FS_NR_CURSEG];     /* 512 entries each */
	/* with ZF2FS_CPN_ORPHANS only: the new orphan list (read nowhere else) */
	const uint32_t *orphans;
	uint32_t norphans;
};

#define ZF2FS_CPN_RECOVERY      0x1   /* a roll-forward chain waits behind the warm node
				       * log: no umount flag, no node summaries */
#define ZF2FS_CPN_QUOTA_CHECKED 0x2   /* the quota files are right: drop quota_need_fsck */
#define ZF2FS_CPN_ORPHANS       0x4   /* the orphan blocks hold @logs->orphans, not the
				       * current pack's orphan blocks */

/* A copy of the current checkpoint (CP block and cp_payload blocks) with the next
 * version, to become the new one (caller frees).  With ZF2FS_CPN_RECOVERY it asks for
 * NOCRC recovery at once, so that the chain's copies (zf2fs_node_set_chain) can be
 * written before the pack.  0 or -ENOMEM. */
ZF2FS_EXPORT int zf2fs_vol_cp_next(const struct zf2fs_vol *vol, unsigned flags,
				   uint8_t **ret_cpbuf);

/*
 * Write @cpbuf (from zf2fs_vol_cp_next, its counters set by the caller) as the new
 * checkpoint, in the inactive pack: its logs from @logs, the current pack's orphan blocks
 * (with ZF2FS_CPN_ORPHANS: blocks holding @logs->orphans, the flag off when there are none),
 * the umount flag (unless ZF2FS_CPN_RECOVERY), without the fastboot, fsck and error flags,
 * and its CP blocks written last (lib/write/cp_write.c).  Everything else must be on disk.  0,
 * -ENOMEM, -ZF2FS_EFSCORRUPTED for a current pack with too many orphan blocks, read and
 * write errors (the old checkpoint stays in use).
 */
ZF2FS_EXPORT int zf2fs_vol_write_cp_next(struct zf2fs_vol *vol, uint8_t *cpbuf,
					 const struct zf2fs_cp_logs *logs, unsigned flags);

/* ---- one out-of-place commit (lib/write/commit.c) -----------------------------------------
 * Every writer that changes a volume hands its queued blocks and table changes to
 * zf2fs_vol_commit(), which owns the allocation and the order of the writes:
 *  1. data blocks, then node blocks, out of place into new logs (warm data / warm node
 *     unless @ops->log_of chooses, as the kernel's temperatures do):
 *     the first segment of sections free in the current checkpoint that stay free until
 *     the new one (on zoned volumes a zone's write pointer, inside its capacity); a full
 *     log retires (its summary to the SSA) and moves to another free section; each data
 *     block's owner node is given its new address before the nodes are written;
 *  2. a kept roll-forward chain copied behind the new warm node log's position;
 *  3. summary corrections and summary footer types of segments no log holds, in place;
 *  4. dirty SIT and NAT blocks (the journals flushed into them) to their inactive copies;
 *  5. the new checkpoint, one version up, in the inactive pack, its CP blocks last.
 * The SIT and NAT as the new checkpoint has them come from the caller (@ops), who may
 * hold them whole (zf2fs_txn) or sparse (fsck); the commit changes SIT entries through
 * @ops and marks the blocks it changed in @sit_dirty / @nat_dirty. */

/* A node block to write: @nid's @buf, replacing the block at @old_addr (NULL_ADDR: none). */
struct zf2fs_commit_node {
	uint32_t nid, old_addr;
	struct zf2fs_node *buf;
};

/* A data block to write for slot @ofs of node @owner (slots count from the node's first
 * block address: an inode's after its extra attributes), replacing @old_addr. */
struct zf2fs_commit_data {
	uint32_t owner, ofs, old_addr;
	const uint8_t *buf;
};

/* A summary entry of main-area block @blkaddr to correct: owner @nid, @ofs, @version. */
struct zf2fs_commit_sum {
	uint32_t blkaddr, nid;
	uint16_t ofs;
	uint8_t version;
};

/* The footer type (ZF2FS_SUM_TYPE_*) of main segment @segno's summary block. */
struct zf2fs_commit_sum_type {
	uint32_t segno;
	uint8_t type;
};

struct zf2fs_commit_ops {
	/* SIT entry of main segment @segno as the new checkpoint will have it; sit_mut for a
	 * change (NULL: out of memory) */
	const struct zf2fs_sit_entry *(*sit)(void *arg, uint32_t segno);
	struct zf2fs_sit_entry *(*sit_mut)(void *arg, uint32_t segno);
	/* optional: segment @segno holds blocks in use that its SIT entry does not count */
	bool (*seg_busy)(void *arg, uint32_t segno);
	/* optional: SIT entry of main segment @segno as the current checkpoint has it (NULL
	 * when not known); without it, or NULL, no log fills a dirty segment's holes (SSR) */
	const struct zf2fs_sit_entry *(*sit_orig)(void *arg, uint32_t segno);
	/* the i-th node (i < nnodes) or data block (i < ndatas) to write into *@ret; false
	 * skips it */
	bool (*node_at)(void *arg, size_t i, struct zf2fs_commit_node *ret);
	bool (*data_at)(void *arg, size_t i, struct zf2fs_commit_data *ret);
	/* the queued block of node @nid, the owner of a data block to write (NULL: -EIO) */
	struct zf2fs_node *(*owner)(void *arg, uint32_t nid);
	/* node @nid (block @n) now lives at @addr instead of @old_addr: its NAT entry */
	int (*node_moved)(void *arg, uint32_t nid, const struct zf2fs_node *n, uint32_t old_addr,
			  uint32_t addr);
	/* NAT block @idx as the new checkpoint has it (read from the live copy first): a
	 * block of the volume's size, of which struct zf2fs_nat_block is the 4 KiB view, so
	 * its g->nat_per_block entries are reached through zf2fs_nat_block_entry() */
	void (*nat_block)(void *arg, uint32_t idx, struct zf2fs_nat_block *blk);
	/* optional: the log (ZF2FS_LOG_*) the i-th node (@node) or data block goes to; NULL,
	 * or a log of the other kind: the warm node or warm data log */
	int (*log_of)(void *arg, bool node, size_t i);
	/* the new checkpoint's block, node and inode counters and next free nid (the commit
	 * sets the logs and free_segment_count itself: zf2fs_free_segs) */
	void (*counters)(void *arg, struct zf2fs_checkpoint *cp);
};

#define ZF2FS_COMMIT_CHECK_SLOTS 0x100   /* a data block's owner slot must still hold its
					  * old address (else -ZF2FS_EFSCORRUPTED) */
#define ZF2FS_COMMIT_ORPHANS     0x200   /* @orphans replaces the current orphan list */

struct zf2fs_commit_req {
	const struct zf2fs_commit_ops *ops;
	void *arg;
	size_t nnodes, ndatas;
	const uint16_t *orig_count;      /* per main segment: valid blocks in the current
					  * checkpoint (only zero matters) */
	uint8_t *sit_dirty, *nat_dirty;  /* per SIT / NAT block: write it */
	const struct zf2fs_commit_sum *sums;
	size_t nsums;
	const struct zf2fs_commit_sum_type *sum_types;
	size_t nsum_types;
	/* A roll-forward chain (node block addresses in the kernel's order) that the new
	 * checkpoint keeps: copied behind the new warm node log's position, each copy naming
	 * the next and the new version, the last ending it (zf2fs_node_set_chain); the new
	 * checkpoint asks for recovery.  Segments that the originals and the blocks they
	 * name lie in are never written. */
	const uint32_t *chain;
	uint32_t chain_len;
	/* optional, per log: -1 keep; below a segment's blocks: the log's new write position
	 * in its segment; else: the log moves to a free section */
	const int32_t *log_fix;
	/* optional: new logs only in sections [alloc_first, alloc_end) (alloc_end 0: the main
	 * area's end); bit ZF2FS_LOG_* of retire_logs: a log still in its section after the
	 * writes moves to a fresh one (a mover emptied that section) */
	uint32_t alloc_first, alloc_end;
	/* optional: a run kept for moved data (data_end 0: none): the cold data log takes its
	 * new sections in [data_first, data_end) only, and no other log takes one there, so
	 * that data moved over several commits lies in one run (zf2fs_move_set_data_target) */
	uint32_t data_first, data_end;
	uint8_t retire_logs;
	/* bit ZF2FS_LOG_*: every block of the current checkpoint's log segment from the log's
	 * position on was free in that checkpoint, so the log may go on writing there (the
	 * caller's SIT as it was read, before any change of its own) */
	uint8_t log_tail_free;
	unsigned flags;                  /* ZF2FS_CPN_QUOTA_CHECKED, ZF2FS_COMMIT_CHECK_SLOTS,
					  * ZF2FS_COMMIT_ORPHANS */
	/* with ZF2FS_COMMIT_ORPHANS: the new checkpoint's orphan list (inode numbers) */
	const uint32_t *orphans;
	uint32_t norphans;
};

/* Commit @req on @vol as described above.  0; -ENOSPC without free sections for the logs
 * or the chain (logged); -ZF2FS_EFSCORRUPTED; -ENOMEM; read and write errors.  On an error
 * the old checkpoint stays in use.  The callers' node and data buffers get their new
 * footers and addresses. */
ZF2FS_EXPORT int zf2fs_vol_commit(struct zf2fs_vol *vol, const struct zf2fs_commit_req *req);

/* Enter @name (@len bytes) -> @ino, dentry file type @type, in the first run of free
 * slots of @v long enough for it: the entry with the hash the kernel looks it up by, the
 * name bytes, the bitmap bits.  @v views a block or inline area the caller may change
 * (zf2fs_dentry_view_block, zf2fs_dentry_view_inline); which block the name belongs in
 * (its hash bucket) is the caller's choice.  Returns the first slot, or -ENOSPC. */
ZF2FS_EXPORT int64_t zf2fs_dentry_add(const struct zf2fs_dentry_view *v, const char *name,
				      size_t len, uint32_t ino, uint8_t type);

/* Slots the entry at @slot of @v holds: its name's, and one for an entry without a name
 * (damaged: it still holds its own). */
ZF2FS_EXPORT uint32_t zf2fs_dentry_entry_slots(const struct zf2fs_dentry_view *v, uint32_t slot);

/* Enter @name (@len bytes, at most ZF2FS_NAME_LEN) -> @ino, type @type, hash @hash at slot
 * @slot of @v, whose slots for it the caller found free (the dot entries: hash 0). */
ZF2FS_EXPORT void zf2fs_dentry_put(const struct zf2fs_dentry_view *v, uint32_t slot,
				   const char *name, size_t len, uint32_t hash, uint32_t ino,
				   uint8_t type);

/* Copy the entry at @slot of @from (inode, file type, name as they are) into the first run
 * of free slots of @to from slot @first on that holds it, with hash @hash (an entry keeps
 * its own where the kernel hashes the name differently: encrypted, casefolded).  @from may
 * view the same area as @to; the source keeps its slots (zf2fs_dentry_del).  Returns the
 * new slot; -ENOSPC; -ZF2FS_EFSCORRUPTED when the source name runs past its area. */
ZF2FS_EXPORT int64_t zf2fs_dentry_copy(const struct zf2fs_dentry_view *to, uint32_t first,
				       const struct zf2fs_dentry_view *from, uint32_t slot,
				       uint32_t hash);

/* Free slots [@slot, @slot + @n) of @v (those past its end ignored). */
ZF2FS_EXPORT void zf2fs_dentry_del(const struct zf2fs_dentry_view *v, uint32_t slot, uint32_t n);

/* ---- the transaction's own knobs ------------------------------------------------------------ */
/* New blocks start in fresh sections: no log goes on in the segment the current
 * checkpoint's log is in (which commits otherwise do, as the kernel's logs do), so what
 * this commit writes shares no section with what was there (a generation of its own). */
ZF2FS_EXPORT void zf2fs_txn_fresh_logs(struct zf2fs_txn *txn);

/* Flushes made so far (zf2fs_txn_flush calls that wrote something). */
ZF2FS_EXPORT uint64_t zf2fs_txn_flushes(const struct zf2fs_txn *txn);

/* ---- the superblock, written in place ------------------------------------------------------ */
/* Replace the superblock of @vol (opened for writing) by @sb: its crc is set when
 * sb_checksum is on, it must pass zf2fs_super_verify(), and the copy not in use is
 * written and synced before the one in use, so one valid copy exists at every moment.
 * 0, -ZF2FS_EFSCORRUPTED (nothing written) or a write error. */
ZF2FS_EXPORT int zf2fs_vol_write_super(struct zf2fs_vol *vol, const struct zf2fs_super *sb,
				       char *why, size_t whylen);

#endif /* ZF2FS_INTERNAL_COMMIT_H */
