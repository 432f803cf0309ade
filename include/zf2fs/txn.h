/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * txn.h - change a volume crash-safely: queue changes, then commit them in one checkpoint.
 *
 * A transaction works on a volume opened for writing (zf2fs_vol_open with ZF2FS_DEV_WRITE,
 * or zf2fs_vol_open_devs on writable devices).  Nothing reaches the disk before
 * zf2fs_txn_commit(), and the commit never overwrites a block the current checkpoint
 * uses: node and data blocks go out of place into segments that were free before the
 * transaction, SIT and NAT blocks to their inactive copies (the journals flushed into
 * them), and the new checkpoint to the inactive pack, its CP blocks written last.  An
 * interruption at any write leaves the old volume; a completed commit the new one.
 *
 * After a commit (successful or not) the volume handle describes the old checkpoint:
 * close it and open the volume again to see the changes.
 */
#ifndef ZF2FS_TXN_H
#define ZF2FS_TXN_H

#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/format.h"

/* ---- the building blocks of a commit (lib/cp_next.c) ---------------------------------
 * For a writer that decides itself which blocks change (fsck's repair): it writes its
 * node and data blocks out of place, then hands its SIT and NAT blocks, retired logs'
 * summaries and the new checkpoint to these, which know where each goes.  The same
 * rules as zf2fs_txn_commit(): nothing the current checkpoint uses is overwritten, and
 * the new checkpoint's CP blocks are written last. */


/* Write @blk as SIT (NAT) block @idx of the copy the current checkpoint does not use, and
 * flip the block's bit in the version bitmap of @cpbuf (from zf2fs_vol_cp_next), so
 * that the new checkpoint reads that copy.  Call once per block.  0, -EINVAL for an
 * index beyond the table, write errors. */
ZF2FS_EXPORT int zf2fs_vol_write_sit_next(struct zf2fs_vol *vol, uint32_t idx, const void *blk,
					  uint8_t *cpbuf);
ZF2FS_EXPORT int zf2fs_vol_write_nat_next(struct zf2fs_vol *vol, uint32_t idx, const void *blk,
					  uint8_t *cpbuf);

/* Every SIT block i with @dirty[i] set: read from the live copy, the entry of each main
 * segment in it replaced by *@entry(@arg, segno), written by zf2fs_vol_write_sit_next().
 * Every NAT block i with @dirty[i] set: read from the live copy, changed by @fill, written
 * by zf2fs_vol_write_nat_next().  0, -ENOMEM, read and write errors. */
ZF2FS_EXPORT int zf2fs_vol_write_sit_dirty(struct zf2fs_vol *vol, const uint8_t *dirty,
					   const struct zf2fs_sit_entry *(*entry)(void *arg,
										 uint32_t segno),
					   void *arg, uint8_t *cpbuf);
ZF2FS_EXPORT int zf2fs_vol_write_nat_dirty(struct zf2fs_vol *vol, const uint8_t *dirty,
					   void (*fill)(void *arg, uint32_t idx,
							struct zf2fs_nat_block *blk),
					   void *arg, uint8_t *cpbuf);

/* The new checkpoint carries empty journals: set @sit_dirty[i] (@nat_dirty[i]) for every
 * SIT (NAT) block i that an entry of the current journals belongs to, so that the caller
 * writes those blocks with the entries in them. */
ZF2FS_EXPORT void zf2fs_vol_journal_blocks(const struct zf2fs_vol *vol, uint8_t *sit_dirty,
					   uint8_t *nat_dirty);

/* Write the summary block of main segment @segno: @entries (ZF2FS_ENTRIES_IN_SUM of them)
 * as written by log @type (ZF2FS_LOG_*).  For a log that leaves its segment.  0,
 * -EINVAL, -ENOMEM, write errors. */
ZF2FS_EXPORT int zf2fs_vol_write_ssa(struct zf2fs_vol *vol, uint32_t segno, int type,
				     const struct zf2fs_summary *entries);

/* Correct the summary entry of main-area block @blkaddr in place in the SSA (a segment
 * that is no current log's, whose summary the checkpoint does not carry): its owner @nid,
 * @ofs_in_node and the owner's NAT @version.  0, -EINVAL outside the main area, read and
 * write errors. */
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
};

#define ZF2FS_CPN_RECOVERY      0x1   /* a roll-forward chain waits behind the warm node
				       * log: no umount flag, no node summaries */
#define ZF2FS_CPN_QUOTA_CHECKED 0x2   /* the quota files are right: drop quota_need_fsck */

/* A copy of the current checkpoint (CP block and cp_payload blocks) with the next
 * version, to become the new one (caller frees).  With ZF2FS_CPN_RECOVERY it asks for
 * NOCRC recovery at once, so that the chain's copies (zf2fs_node_set_chain) can be
 * written before the pack.  0 or -ENOMEM. */
ZF2FS_EXPORT int zf2fs_vol_cp_next(const struct zf2fs_vol *vol, unsigned flags,
				   uint8_t **ret_cpbuf);

/*
 * Write @cpbuf (from zf2fs_vol_cp_next, its counters set by the caller) as the new
 * checkpoint, in the inactive pack: its logs from @logs, the current pack's orphan blocks,
 * the umount flag (unless ZF2FS_CPN_RECOVERY), without the fastboot, fsck and error flags,
 * and its CP blocks written last (lib/cp_write.c).  Everything else must be on disk.  0,
 * -ENOMEM, -ZF2FS_EFSCORRUPTED for a current pack with too many orphan blocks, read and
 * write errors (the old checkpoint stays in use).
 */
ZF2FS_EXPORT int zf2fs_vol_write_cp_next(struct zf2fs_vol *vol, uint8_t *cpbuf,
					 const struct zf2fs_cp_logs *logs, unsigned flags);

#ifdef __cplusplus
extern "C" {
#endif

struct zf2fs_txn;

/*
 * Start a transaction on @vol.  Returns 0; -EROFS when a device is read-only;
 * -EOPNOTSUPP for volumes this version cannot change safely (a checkpoint that needs
 * roll-forward recovery, carries the error flag or asks for a quota check);
 * -ENOMEM; read errors.
 */
ZF2FS_EXPORT int zf2fs_txn_begin(struct zf2fs_vol *vol, struct zf2fs_txn **ret_txn);

/* Seconds written as the times of the inodes created or changed (default: now). */
ZF2FS_EXPORT void zf2fs_txn_set_time(struct zf2fs_txn *txn, uint64_t seconds);

/*
 * Queue a new inode named @name in directory @dir: a regular file holding @len bytes of
 * @data (S_IFREG in @mode) or an empty directory (S_IFDIR; @data must be NULL).  The entry
 * goes to the hash bucket the kernel searches, adding a level to the directory when the
 * bucket is full; the parent's link count and times follow.  An inline parent directory
 * is first converted to one with a dentry block, as the kernel does when it fills up.
 * @ret_ino (may be NULL) gets the new inode number.
 * Returns 0; -EEXIST when @dir holds @name; -ENOTDIR; -ENAMETOOLONG; -EINVAL for other
 * modes; -EFBIG when the data needs more blocks than the inode and two direct nodes
 * address (about 11 MB);
 * -EOPNOTSUPP for casefolded or encrypted parent directories and for inline ones with
 * a nonzero i_dir_level; -ENOSPC without a
 * free nid.
 */
ZF2FS_EXPORT int zf2fs_txn_create(struct zf2fs_txn *txn, uint32_t dir, const char *name,
				  uint32_t mode, const void *data, size_t len,
				  uint32_t *ret_ino);

/*
 * Queue a new name @name in directory @dir for the existing non-directory inode @ino
 * (a hard link): its link count goes up.  Returns 0; -EEXIST; -EPERM for a directory;
 * the errors of zf2fs_txn_create() about the directory and the name.
 */
ZF2FS_EXPORT int zf2fs_txn_link(struct zf2fs_txn *txn, uint32_t dir, const char *name,
				uint32_t ino);

/*
 * Queue the removal of @name from directory @dir.  The inode's link count goes down; at
 * zero the inode goes, its node block and data blocks freed with it.  An empty directory
 * goes at once, and its parent loses the link of its "..".  Returns 0; -ENOENT;
 * -ENOTEMPTY; -EBUSY for an inode created in this transaction; -EOPNOTSUPP for an inode
 * with node blocks beyond the inode (large files), an xattr node or compressed data (not
 * yet); the errors of zf2fs_txn_create() about the directory.
 */
ZF2FS_EXPORT int zf2fs_txn_unlink(struct zf2fs_txn *txn, uint32_t dir, const char *name);

/*
 * Write everything queued and a new checkpoint.  On volumes with quota files, every inode
 * created, removed or resized is charged to its user, group and project in them first
 * (inodes and bytes, as the kernel counts them).  Returns 0; -ENOSPC when the free
 * segments do not hold the new blocks (nothing committed); write errors (the old volume
 * stays as it was).
 */
ZF2FS_EXPORT int zf2fs_txn_commit(struct zf2fs_txn *txn);

/* Forget what was queued and free the transaction (after a commit, too). */
ZF2FS_EXPORT void zf2fs_txn_free(struct zf2fs_txn *txn);

#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_TXN_H */
