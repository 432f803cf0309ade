/* SPDX-License-Identifier: GPL-2.0-or-later */
/* inode_p.h - what the library's writers (mkfs, the transaction) share about new inodes. */
#ifndef ZF2FS_INODE_P_H
#define ZF2FS_INODE_P_H

#include <stdint.h>

/* Bytes of the extra attribute area a new inode gets for the enabled features
 * (ZF2FS_FEAT_*): every attribute up to the last one a feature needs. */
uint16_t zf2fs_extra_isize(uint32_t features) __attribute__((visibility("hidden")));

#endif
