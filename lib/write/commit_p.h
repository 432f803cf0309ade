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

#include "zf2fs/txn.h"

#define COMMIT_HIDDEN __attribute__((visibility("hidden")))

struct commit;

/* 0, -ENOMEM, -ENOSPC (a log fix found no free section), read errors. */
COMMIT_HIDDEN int commit_begin(struct zf2fs_vol *vol, const struct zf2fs_commit_req *req,
			       struct commit **ret);
/* The errors of zf2fs_vol_commit; after one, only commit_free. */
COMMIT_HIDDEN int commit_write(struct commit *c, const struct zf2fs_commit_req *req);
COMMIT_HIDDEN int commit_finish(struct commit *c, const struct zf2fs_commit_req *req);
COMMIT_HIDDEN void commit_free(struct commit *c);

#endif
