/* SPDX-License-Identifier: GPL-2.0-or-later */
/* super_p.h - the superblock's rules (lib/format/super.c), for the library's readers and
 * writers of superblocks. */
#ifndef ZF2FS_SUPER_P_H
#define ZF2FS_SUPER_P_H

#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

int zf2fs_super_verify(const struct zf2fs_super *sb, uint64_t dev_blocks,
		       char *why, size_t whylen);

#endif
