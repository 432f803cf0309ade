/* SPDX-License-Identifier: GPL-2.0-or-later */
/* resize_p.h - the parts of resize (lib/resize*.c) shared between its files. */
#ifndef ZF2FS_RESIZE_P_H
#define ZF2FS_RESIZE_P_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/resize.h"

/* Is a current log in main-area section @sec? */
bool zf2fs_resize_sec_has_log(struct zf2fs_vol *vol, uint32_t sec);

/* Write the new metadata areas of relocating plan @p (lib/move/resize_meta.c) where the old
 * volume has only free sections: a checkpoint pack, SIT and NAT (first copies, the
 * journals flushed into them) and SSA for the new layout; everything else in the new
 * areas zeroed.  The new superblock is not written here.  0; -EBUSY when a section the
 * areas take still holds a valid block or a log; -ENOMEM, read and write errors.
 * *@ret_blocks gets the blocks written. */
int zf2fs_resize_write_meta(struct zf2fs_vol *vol, const struct zf2fs_resize_plan *p,
			    uint64_t *ret_blocks);

#endif
