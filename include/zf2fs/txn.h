/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * txn.h - change a volume crash-safely: queue changes, then commit them in one checkpoint.
 *
 * A transaction works on a volume opened for writing (zf2fs_vol_open with ZF2FS_DEV_WRITE,
 * or zf2fs_vol_open_devs on writable devices).  Nothing reaches the disk before
 * zf2fs_txn_flush() or zf2fs_txn_commit(), and neither ever overwrites a block the
 * current checkpoint uses: node and data blocks go out of place into segments that were
 * free before the transaction, SIT and NAT blocks to their inactive copies (the journals
 * flushed into them), and the new checkpoint to the inactive pack, its CP blocks written
 * last, by the commit alone.  An interruption at any write leaves the old volume; a
 * completed commit the new one.
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
 * The data's blocks are mapped as zf2fs_txn_write_block() maps them (direct, indirect
 * and double indirect nodes).
 * Returns 0; -EEXIST when @dir holds @name; -ENOTDIR; -ENAMETOOLONG; -EINVAL for other
 * modes; -EFBIG when the data needs more blocks than double indirect nodes address
 * (about 3.9 TiB);
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
 * segments do not hold the new blocks or the checkpoint would count more blocks than
 * user_block_count allows (nothing committed); write errors (the old volume stays as it
 * was).
 */
ZF2FS_EXPORT int zf2fs_txn_commit(struct zf2fs_txn *txn);

/*
 * Write the data and node blocks queued so far, out of place, into sections free in the
 * current checkpoint, and free their memory; the transaction goes on, and its one
 * checkpoint is still written by zf2fs_txn_commit().  For a transaction too big to hold
 * in memory: a crash before the commit's last write leaves the old volume whatever was
 * flushed, since no SIT, NAT or checkpoint block is written here and the blocks written
 * lie where the current checkpoint has nothing.  The new blocks' addresses stay in the
 * transaction (its NAT entries, the nodes that own them), and the sections the flushes
 * took are not written again until the commit, which goes on in the same logs.  A block
 * changed after its flush (a directory's dentry block, an inode) is read back and
 * written again out of place at the next flush or the commit, its flushed copy then
 * invalid.  What stays in memory per node: its queue and NAT entries (some 60 bytes).
 * Returns 0 (also with nothing queued); -ENOSPC without free sections for the logs
 * (nothing committed: the old volume stays); -EINVAL after a commit or a failed flush;
 * -ENOMEM, read and write errors.  After an error only zf2fs_txn_free() is left.
 */
ZF2FS_EXPORT int zf2fs_txn_flush(struct zf2fs_txn *txn);


/* Forget what was queued and free the transaction (after a commit, too). */
ZF2FS_EXPORT void zf2fs_txn_free(struct zf2fs_txn *txn);

#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_TXN_H */
