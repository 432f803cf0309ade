/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zf2fs-internal/move.h - the block mover's zone resets after a commit (lib/move/), for
 * the mover, resize and their tests; a resize that reports how far it got (resize.f2fs
 * --progress).
 *
 * For zf2fs-tools' own programs (fsck, the tools, the tests): not installed, and no ABI
 * promise.  The functions are exported from libzf2fs.so in the version node ZF2FS_PRIVATE
 * of lib/libzf2fs.sym; the installed API is include/zf2fs/.
 */
#ifndef ZF2FS_INTERNAL_MOVE_H
#define ZF2FS_INTERNAL_MOVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/move.h"

/*
 * After a commit that freed sections on a zoned volume (open it again first): reset the
 * zone of every section that is free in the checkpoint, is no current log's, and whose
 * write pointer is past the zone start, so that a later writer finds it empty (the
 * kernel does the same at mount).  *@ret_reset (may be NULL) gets the count.  Returns 0
 * (and resets nothing) on a volume without zoned devices; the errors of
 * zf2fs_vol_zones() and zf2fs_vol_reset_zone().
 */
ZF2FS_EXPORT int zf2fs_move_reset_free_zones(struct zf2fs_vol *vol, uint32_t *ret_reset);

/*
 * zf2fs_resize_devs2 (include/zf2fs/resize.h) telling @fn (may be NULL) how far it got:
 * @fn(@arg, 0, @total) when it starts to empty a run of @total sections (the cut of a
 * shrink, or the sections new metadata areas take: up to three runs in one resize, each
 * counted from 0) or to make @total more sections free by compaction before one, then
 * @fn(@arg, @done, @total) after each checkpoint of that run.
 */
struct zf2fs_resize_opts;
struct zf2fs_resize_report;
typedef void (*zf2fs_resize_progress_fn)(void *arg, uint32_t done, uint32_t total);
ZF2FS_EXPORT int zf2fs_resize_devs_progress(struct zf2fs_dev *const *devs, unsigned n,
					    int flags, const struct zf2fs_resize_opts *o,
					    zf2fs_resize_progress_fn fn, void *arg,
					    const struct zf2fs_log *log,
					    struct zf2fs_resize_report *rep, char *why,
					    size_t whylen);

#endif /* ZF2FS_INTERNAL_MOVE_H */
