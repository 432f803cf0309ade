/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zf2fs-internal/move.h - the block mover's zone resets after a commit (lib/move/), for
 * the mover, resize and their tests.
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

#endif /* ZF2FS_INTERNAL_MOVE_H */
