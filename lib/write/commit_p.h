/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commit_p.h - zf2fs_vol_commit (lib/write/commit.c) in steps, for a transaction that writes
 * its blocks in several flushes before its one checkpoint (zf2fs_txn_flush, lib/write/txn.c).
 *
 * commit_begin takes the current checkpoint's logs; each commit_write writes the data and
 * node blocks @req names into sections free in the current checkpoint, going on in the
 * logs and sections of the calls before; commit_finish writes SIT, NAT, summaries and
 * the checkpoint pack.  Until commit_finish's last write the current checkpoint stays
 * whole.  The @req of each call must share ops, arg, orig_count, the dirty maps and the
 * allocation bounds with the one given to commit_begin.
 */
#ifndef ZF2FS_COMMIT_P_H
#define ZF2FS_COMMIT_P_H

#include "zf2fs-internal/commit.h"


struct commit;

/* The checkpoint-pack writer's block write and sync on a volume (@arg the struct
 * zf2fs_vol): a block in place, and every device synced. */
int zf2fs_vol_io_write(void *arg, uint64_t blk, const void *buf);
int zf2fs_vol_io_sync(void *arg);

/* 0, -ENOMEM, -ENOSPC (a log fix found no free section), read errors. */
int commit_begin(struct zf2fs_vol *vol, const struct zf2fs_commit_req *req,
		 struct commit **ret);
/* The errors of zf2fs_vol_commit; after one, only commit_free. */
int commit_write(struct commit *c, const struct zf2fs_commit_req *req);
int commit_finish(struct commit *c, const struct zf2fs_commit_req *req);
void commit_free(struct commit *c);

/* Every SIT block i with @dirty[i] set: read from the live copy, the entry of each main
 * segment in it replaced by *@entry(@arg, segno), written by zf2fs_vol_write_sit_next().
 * Every NAT block i with @dirty[i] set: read from the live copy, changed by @fill, written
 * by zf2fs_vol_write_nat_next().  0, -ENOMEM, read and write errors. */
int zf2fs_vol_write_sit_dirty(struct zf2fs_vol *vol, const uint8_t *dirty,
			      const struct zf2fs_sit_entry *(*entry)(void *arg,
								     uint32_t segno),
					   void *arg, uint8_t *cpbuf);

int zf2fs_vol_write_nat_dirty(struct zf2fs_vol *vol, const uint8_t *dirty,
			      void (*fill)(void *arg, uint32_t idx,
					   struct zf2fs_nat_block *blk),
					   void *arg, uint8_t *cpbuf);

/* The new checkpoint carries empty journals: set @sit_dirty[i] (@nat_dirty[i]) for every
 * SIT (NAT) block i that an entry of the current journals belongs to, so that the caller
 * writes those blocks with the entries in them. */
void zf2fs_vol_journal_blocks(const struct zf2fs_vol *vol, uint8_t *sit_dirty,
			      uint8_t *nat_dirty);

#endif
