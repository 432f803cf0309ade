/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zf2fs-internal/load.h - the loader's check of a tree for a volume not written yet
 * (lib/write/load_tree.c), for mkfs.f2fs --root-dir; a load that reports how far it got
 * (sload.f2fs --progress).
 *
 * Not installed, no ABI promise: exported in the version node ZF2FS_PRIVATE
 * (lib/libzf2fs.sym).  Programs outside the tree use <zf2fs/load.h>.
 */
#ifndef ZF2FS_INTERNAL_LOAD_H
#define ZF2FS_INTERNAL_LOAD_H

#include <stdint.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/load.h"

/*
 * zf2fs_load_tree's walk and checks of @o->source (as with @o->check_only; no device is
 * opened) for a volume of 2^@log_blocksize-byte blocks: the xattrs of each entry are
 * checked against that block size's room (zf2fs_xattr_max_bytes), so that a formatter
 * refuses the tree before it writes anything.  Returns as zf2fs_load_tree; -EINVAL for
 * a block size other than 4 KiB or 16 KiB.
 */
ZF2FS_EXPORT int zf2fs_load_tree_check(const struct zf2fs_load_opts *o, uint32_t log_blocksize,
				       const struct zf2fs_log *log);

/*
 * zf2fs_load_tree and zf2fs_load_tree_devs telling @fn (may be NULL) how far they got:
 * @fn(@arg, 0, @total) once the source is walked and checked and the volume opened, then
 * @fn(@arg, @done, @total) after each entry is copied and once more, with @done ==
 * @total, after the commit.  The unit is the blocks the loader estimates an entry takes
 * plus one per entry, and one for the commit: @total is never 0 and @done never goes back.
 */
typedef void (*zf2fs_load_progress_fn)(void *arg, uint64_t done, uint64_t total);
ZF2FS_EXPORT int zf2fs_load_tree_progress(const char *const *paths, unsigned n,
					  const struct zf2fs_load_opts *o,
					  zf2fs_load_progress_fn fn, void *arg,
					  const struct zf2fs_log *log,
					  struct zf2fs_load_stats *ret_stats);
ZF2FS_EXPORT int zf2fs_load_tree_devs_progress(struct zf2fs_dev *const *devs, unsigned n,
					       const struct zf2fs_load_opts *o,
					       zf2fs_load_progress_fn fn, void *arg,
					       const struct zf2fs_log *log,
					       struct zf2fs_load_stats *ret_stats);

#endif /* ZF2FS_INTERNAL_LOAD_H */
