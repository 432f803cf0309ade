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
#include "zf2fs/txn.h"

#define TXN_HIDDEN __attribute__((visibility("hidden")))

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

/* The node @nid as this transaction will write it, read and queued on first use. */
TXN_HIDDEN int get_node(struct zf2fs_txn *t, uint32_t nid, struct zf2fs_node **ret);
/* The queue entry of node @nid, or NULL. */
TXN_HIDDEN struct tnode *find_node(struct zf2fs_txn *t, uint32_t nid);
/* Queue a new zeroed node block for @nid (marked as a new inode: clear is_new_inode of
 * the last entry of t->nodes for other nodes). */
TXN_HIDDEN int new_node(struct zf2fs_txn *t, uint32_t nid, struct zf2fs_node **ret);
/* The queued data block @fofs of the file whose block map node is @owner, or NULL. */
TXN_HIDDEN struct tdata *find_data(struct zf2fs_txn *t, uint32_t owner, uint64_t fofs);
/* Queue data block @buf (taken over on success) for slot @ofs of node @owner. */
TXN_HIDDEN int queue_data(struct zf2fs_txn *t, uint32_t owner, uint32_t ofs, uint64_t fofs,
			  uint32_t old_addr, uint8_t *buf);
/* A nid free in the NAT and not yet taken by this transaction; -ENOSPC. */
TXN_HIDDEN int alloc_nid(struct zf2fs_txn *t, uint32_t *ret);
TXN_HIDDEN int nat_set(struct zf2fs_txn *t, uint32_t nid, uint32_t ino, uint32_t addr);
/* Queue directory @dir for a change of its entries (an inline one converted first). */
TXN_HIDDEN int dir_for_change(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node **ret);
/* Add @name -> @ino to directory @dir (node @dn, queued by dir_for_change()). */
TXN_HIDDEN int add_dentry(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node *dn,
			  const char *name, size_t len, uint32_t ino, uint8_t type);
/* Enter the inode node just queued last as @ino: its name in @dir and its NAT entry, the
 * counts of the new checkpoint.  On a failed entry the node is dropped again. */
TXN_HIDDEN int enter_new_inode(struct zf2fs_txn *t, uint32_t dir, struct zf2fs_node *dn,
			       const char *name, size_t len, uint32_t ino, uint8_t type);
/* Queue a copy of @buf as block @fofs of regular file or symlink @ino (its queued inode
 * @n), a hole until now: the nodes that address it allocated on first use
 * (lib/write/txn_file.c; zf2fs_txn_write_block without the checks of the file's origin). */
TXN_HIDDEN int file_block(struct zf2fs_txn *t, uint32_t ino, struct zf2fs_node *n,
			  uint64_t fofs, const void *buf);
/* Whether a file of geometry @g addresses @nblk blocks (double indirect nodes included). */
TXN_HIDDEN bool file_blocks_fit(const struct zf2fs_inode_geom *g, uint64_t nblk);
TXN_HIDDEN void put_dentry(uint8_t *bitmap, struct zf2fs_dir_entry *dentry,
			   uint8_t (*filename)[ZF2FS_SLOT_LEN], uint32_t at, const char *name,
			   size_t len, uint32_t hash, uint32_t ino, uint8_t type);

/* lib/write/txn_temp.c: the log of a data block of the file whose inode is @inode (NULL: not
 * queued) and of node @n; the hot/cold mark of new regular file @inode named @name. */
TXN_HIDDEN int txn_data_log(const struct zf2fs_txn *t, const struct zf2fs_node *inode);
TXN_HIDDEN int txn_node_log(const struct zf2fs_txn *t, const struct zf2fs_node *n);
TXN_HIDDEN void txn_set_temperature(const struct zf2fs_txn *t, struct zf2fs_node *inode,
				    const char *name, size_t len);
/* lib/write/txn_names.c: names in casefolded directories.  The key of @name in directory @dn
 * (its folded form there, else its bytes) and its hash; -EINVAL for a name a strict
 * encoding refuses.  Whether slot @i of @v holds @name by its folded form.  Whether @dn
 * can be changed (0; -EOPNOTSUPP for a casefolded one we cannot fold for). */
TXN_HIDDEN int txn_name_key(const struct zf2fs_txn *t, const struct zf2fs_node *dn,
			    const char *name, size_t len, uint8_t *key, size_t *ret_len);
TXN_HIDDEN int txn_name_hash(const struct zf2fs_txn *t, const struct zf2fs_node *dn,
			     const char *name, size_t len, uint32_t *ret);
TXN_HIDDEN bool txn_slot_matches(const struct zf2fs_txn *t, const struct zf2fs_node *dn,
				 const struct zf2fs_dentry_view *v, uint32_t i, const char *name,
				 size_t len, uint32_t hash);
TXN_HIDDEN int txn_casefold_ok(const struct zf2fs_txn *t, const struct zf2fs_node *dn);

#endif
