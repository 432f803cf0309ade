/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * txn_p.h - the transaction's state and queueing helpers (lib/write/txn.c), shared with the
 * files that add more kinds of changes to it (lib/write/txn_file.c: special files, owners and
 * times, inline data, sparse and large files).
 */
#ifndef ZF2FS_TXN_P_H
#define ZF2FS_TXN_P_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/geometry.h"
#include "zf2fs/txn.h"
#include "zf2fs-internal/commit.h"
#include "zf2fs/txn_file.h"


struct tnode {
	uint32_t nid, old_addr;
	bool is_new_inode;
	bool removed;                    /* the node goes: NAT entry cleared, block freed */
	bool was_inode;                  /* an inode on disk before: */
	uint32_t orig_ids[3];            /* its quota ids and charged bytes then */
	uint64_t orig_bytes;
	struct zf2fs_node *buf;          /* NULL: written by a flush (zf2fs_txn_flush) at
					  * @old_addr and not changed since */
	uint8_t log;                     /* ZF2FS_LOG_* + 1 chosen by a mover (lib/move/move.c);
					  * 0: the warm node log */
};

struct tdata {
	uint32_t owner, ofs, old_addr;   /* ofs: slot from the node's first address */
	uint64_t fofs;
	uint8_t *buf;
	uint8_t log;                     /* ZF2FS_LOG_* + 1, or 0: the warm data log */
};

struct tnat {
	uint32_t nid, ino, addr;
};

/* Where a nid or a (owner, file offset) pair sits in one of the arrays below: open
 * addressing over indexes plus one (0 is an empty slot).  Lookups compare the array
 * element itself, so a slot left by an element dropped from the array's end is skipped. */
struct tindex {
	uint32_t *slot;
	size_t cap, used;                /* cap: a power of two */
};

struct zf2fs_txn {
	struct zf2fs_vol *vol;
	const struct zf2fs_vol_info *vi;
	const struct zf2fs_geom *g;      /* the volume's (zf2fs_vol_geom): every block queued
					  * here, node or data, is g->blocksize bytes */
	uint64_t now;
	struct zf2fs_sit_entry *sit;     /* every main segment, journal applied */
	uint16_t *orig_count;            /* valid counts of the current checkpoint */
	uint32_t *orig_ix;               /* per segment: 1 + its index in orig_ent, once the
					  * transaction changed its SIT entry (0: unchanged) */
	struct zf2fs_sit_entry *orig_ent;   /* those entries as the checkpoint had them */
	uint32_t norig, caporig;
	bool orig_lost;                  /* out of memory keeping one: orig unknown */
	uint8_t *emptying;               /* per segment: a mover empties it (lib/move/move.c);
					  * no new block goes there, not even into its holes */
	uint8_t *sit_dirty, *nat_dirty;  /* per SIT / NAT block */
	struct tnode *nodes;
	size_t nnodes, cap_nodes;
	struct tdata *datas;
	size_t ndatas, cap_datas;
	struct tnat *nat;                /* entries changed by this transaction */
	size_t nnat, cap_nat;
	struct tindex node_ix, nat_ix, data_ix;
	uint32_t next_nid;
	int64_t new_inodes, new_nodes, new_blocks;   /* negative when more went than came */
	uint32_t alloc_first, alloc_end; /* new logs only in sections [first, end); end 0:
					  * the main area's end (zf2fs_move_set_target) */
	uint32_t data_first, data_end;   /* zf2fs_move_set_data_target; end 0: none */
	uint8_t retire_logs;             /* bit ZF2FS_LOG_*: a log whose section a mover
					  * empties moves to a fresh one (lib/move/move.c) */
	uint8_t log_tail_free;           /* zf2fs_commit_req.log_tail_free, from the SIT read */
	uint32_t *freed;                 /* data blocks of removed inodes */
	size_t nfreed, cap_freed;
	bool committed;
	struct commit *cm;               /* the commit the flushes began (lib/write/commit_p.h) */
	struct zf2fs_commit_req req;     /* ...and what it was begun with */
	uint64_t flushes;
	bool kernel_logs;                /* zf2fs_txn_place_as_kernel() */
	bool set_space;                  /* zf2fs_txn_set_space(): the counts below, and a
					  * commit even with nothing queued */
	uint64_t user_block_count;
	uint32_t rsvd_segments, ovp_segments;
};

/* The bytes the quota files charge for an inode of @i_blocks blocks (the inode's own
 * block not counted). */
static inline uint64_t txn_quota_bytes(const struct zf2fs_txn *t, uint64_t i_blocks)
{
	return i_blocks ? (i_blocks - 1) << t->g->log_blocksize : 0;
}

/* Blocks of @g's size that @bytes bytes take. */
static inline uint64_t txn_blocks(const struct zf2fs_txn *t, uint64_t bytes)
{
	return (bytes + t->g->blocksize - 1) >> t->g->log_blocksize;
}

/* The node @nid as this transaction will write it, read and queued on first use. */
int get_node(struct zf2fs_txn *t, uint32_t nid, struct zf2fs_node **ret);
/* The queue entry of node @nid, or NULL. */
struct tnode *find_node(struct zf2fs_txn *t, uint32_t nid);
/* Queue a new zeroed node block for @nid (marked as a new inode: clear is_new_inode of
 * the last entry of t->nodes for other nodes). */
int new_node(struct zf2fs_txn *t, uint32_t nid, struct zf2fs_node **ret);
/* The queued data block @fofs of the file whose block map node is @owner, or NULL. */
struct tdata *find_data(struct zf2fs_txn *t, uint32_t owner, uint64_t fofs);
/* Queue data block @buf (taken over on success) for slot @ofs of node @owner. */
int queue_data(struct zf2fs_txn *t, uint32_t owner, uint32_t ofs, uint64_t fofs,
	       uint32_t old_addr, uint8_t *buf);
/* A nid free in the NAT and not yet taken by this transaction; -ENOSPC. */
int alloc_nid(struct zf2fs_txn *t, uint32_t *ret);
int nat_set(struct zf2fs_txn *t, uint32_t nid, uint32_t ino, uint32_t addr);
/* Queue directory @dir for a change of its entries (an inline one converted first). */
int dir_for_change(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node **ret);
/* Add @name -> @ino to directory @dir (node @dn, queued by dir_for_change()). */
int add_dentry(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node *dn,
	       const char *name, size_t len, uint32_t ino, uint8_t type);
/* Enter the inode node just queued last as @ino: its name in @dir and its NAT entry, the
 * counts of the new checkpoint.  On a failed entry the node is dropped again. */
int enter_new_inode(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node *dn,
		    const char *name, size_t len, uint32_t ino, uint8_t type);
/* Queue a copy of @buf as block @fofs of regular file or symlink @ino (its queued inode
 * @n), a hole until now: the nodes that address it allocated on first use
 * (lib/write/txn_file.c; zf2fs_txn_write_block without the checks of the file's origin). */
int file_block(struct zf2fs_txn *t, uint32_t ino, struct zf2fs_node *n,
	       uint64_t fofs, const void *buf);
/* Whether a file of geometry @g addresses @nblk blocks (double indirect nodes included). */
bool file_blocks_fit(const struct zf2fs_txn *t, const struct zf2fs_inode_geom *g, uint64_t nblk);
void put_dentry(uint8_t *bitmap, struct zf2fs_dir_entry *dentry,
		uint8_t (*filename)[ZF2FS_SLOT_LEN], uint32_t at, const char *name,
		size_t len, uint32_t hash, uint32_t ino, uint8_t type);

/* lib/write/txn_temp.c: the log of a data block of the file whose inode is @inode (NULL: not
 * queued) and of node @n; the hot/cold mark of new regular file @inode named @name. */
int txn_data_log(const struct zf2fs_txn *t, const struct zf2fs_node *inode);
int txn_node_log(const struct zf2fs_txn *t, const struct zf2fs_node *n);
void txn_set_temperature(const struct zf2fs_txn *t, struct zf2fs_node *inode,
			 const char *name, size_t len);
/* lib/write/txn_names.c: names in casefolded directories.  The key of @name in directory @dn
 * (its folded form there, else its bytes) and its hash; -EINVAL for a name a strict
 * encoding refuses.  Whether slot @i of @v holds @name by its folded form.  Whether @dn
 * can be changed (0; -EOPNOTSUPP for a casefolded one we cannot fold for). */
int txn_name_key(const struct zf2fs_txn *t, const struct zf2fs_node *dn,
		 const char *name, size_t len, uint8_t *key, size_t *ret_len);
int txn_name_hash(const struct zf2fs_txn *t, const struct zf2fs_node *dn,
		  const char *name, size_t len, uint32_t *ret);
bool txn_slot_matches(const struct zf2fs_txn *t, const struct zf2fs_node *dn,
		      const struct zf2fs_dentry_view *v, uint32_t i, const char *name,
		      size_t len, uint32_t hash);
int txn_casefold_ok(const struct zf2fs_txn *t, const struct zf2fs_node *dn);

/* The new checkpoint's space counts (resize: the policy of a new main area size): user
 * blocks, reserved and overprovision segments; the commit then happens even with
 * nothing else queued.  0; -EINVAL for counts the kernel refuses for this main area. */
int zf2fs_txn_set_space(struct zf2fs_txn *txn, uint64_t user_block_count,
			uint32_t rsvd_segments, uint32_t ovp_segments);
/*
 * Set the permissions, owner and times of inode @ino (created or already queued by this
 * transaction, or on disk) to those of @a; its type stays.  For directories call it after
 * the last entry was added: adding an entry sets the directory's times to the
 * transaction's time.  Returns 0; the read errors of the inode.
 */
int zf2fs_txn_set_attr(struct zf2fs_txn *txn, uint32_t ino,
		       const struct zf2fs_txn_attr *a);

/*
 * Make new regular file @ino, still without data, a compressed one (the volume's
 * compression feature): clusters of 2^@log_cluster blocks (2..8), @algorithm the
 * kernel's number (0 LZO, 1 LZ4, 2 ZSTD, 3 LZO-RLE).  Returns 0; -EBUSY when it has
 * data; -EOPNOTSUPP without the feature or room for the fields; -EINVAL.
 */
int zf2fs_txn_set_compression(struct zf2fs_txn *txn, uint32_t ino,
			      uint8_t algorithm, uint8_t log_cluster);

/*
 * Mark new compressed file @ino, still without data, as released the way
 * F2FS_IOC_RELEASE_COMPRESS_BLOCKS leaves a file (the compress-released bit of i_inline):
 * its compressed clusters then get no reserved slots, and neither those nor the
 * markers count in i_blocks, i_compr_blocks or the volume's valid blocks.  Linux reads
 * such a file and refuses writes to it until the blocks are reserved again.
 * Returns 0; -EINVAL for a file that is not compressed; -EBUSY when it has data.
 */
int zf2fs_txn_release_compressed(struct zf2fs_txn *txn, uint32_t ino);

/*
 * Queue cluster @cluster of compressed file @ino as a compressed one: @nblocks blocks
 * of @data (the compressed form with its header, at most the cluster's blocks minus
 * one) after the cluster's marker; the rest of the cluster's slots are reserved, as the
 * kernel leaves them.  Write the clusters that do not compress with
 * zf2fs_txn_write_block().  Returns 0; -EEXIST when a block of the cluster is not a
 * hole; -EINVAL for a file that is not compressed or a bad @nblocks; the errors of
 * zf2fs_txn_write_block().
 */
int zf2fs_txn_write_cluster(struct zf2fs_txn *txn, uint32_t ino, uint64_t cluster,
			    const void *data, uint32_t nblocks);

/*
 * Place this transaction's blocks in the six logs as the kernel would (lib/write/txn_temp.c):
 * regular files created from now on are marked cold or hot by the superblock's
 * extension list; data goes to the cold, hot or warm data log, direct nodes to the hot
 * (directories) or warm node log, indirect nodes to the cold node log.  Without it data
 * goes to the warm data log and nodes to the warm node log.
 */
void zf2fs_txn_place_as_kernel(struct zf2fs_txn *txn);

/*
 * Blocks (node and data) this transaction adds to the volume so far, and the inodes it
 * adds, so a caller can bound what it queues before committing.
 */
void zf2fs_txn_usage(const struct zf2fs_txn *txn, uint64_t *ret_blocks,
		     uint64_t *ret_inodes);

#endif
