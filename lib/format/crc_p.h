/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crc_p.h - the checkpoint and inode checksums for any block size (lib/format/crc32.c):
 * both cover the whole block, so its size is a parameter; zf2fs_cp_checksum and
 * zf2fs_inode_checksum are these for 4 KiB blocks.  Private to the library.
 */
#ifndef ZF2FS_CRC_P_H
#define ZF2FS_CRC_P_H

#include <stdint.h>

#include "zf2fs/geometry.h"

/* The crc of checkpoint block @cp_block of @blocksize bytes, its checksum_offset the
 * block's last word or the start of the bitmaps; -ZF2FS_EFSCORRUPTED for another offset. */
int zf2fs_cp_checksum_bs(const void *cp_block, uint32_t blocksize, uint32_t *ret_crc);

/* The inode checksum of node block @node_block on a volume of geometry @g (its footer
 * where @g puts it). */
uint32_t zf2fs_inode_checksum_g(const struct zf2fs_geom *g, uint32_t seed,
				const void *node_block);

#endif
