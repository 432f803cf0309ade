/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zf2fs-internal/gc.h - the simulator's self-check, for the tests (lib/gc/).
 *
 * For zf2fs-tools' own programs (fsck, the tools, the tests): not installed, and no ABI
 * promise.  The functions are exported from libzf2fs.so in the version node ZF2FS_PRIVATE
 * of lib/libzf2fs.sym; the installed API is include/zf2fs/.
 */
#ifndef ZF2FS_INTERNAL_GC_H
#define ZF2FS_INTERNAL_GC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/gc.h"
#include "zf2fs/gc_sim.h"

/* Check the simulator's block maps against the model: every logical block where the
 * reverse map says, valid counts per segment, and in mode=adaptive the blocks SSR must
 * not reuse (valid, or valid at the last checkpoint, or written since) equal to the
 * model's checkpointed counts.  0, or -EINVAL when they disagree (a bug). */
ZF2FS_EXPORT int zf2fs_gc_sim_verify(const struct zf2fs_gc_sim *sim);


#endif /* ZF2FS_INTERNAL_GC_H */
