/* SPDX-License-Identifier: GPL-2.0-or-later */
/* inode_p.h - what the library's writers (mkfs, the transaction) share about new inodes. */
#ifndef ZF2FS_INODE_P_H
#define ZF2FS_INODE_P_H

#include <stdint.h>

/* Bytes of the extra attribute area a new inode gets for the enabled features
 * (ZF2FS_FEAT_*): every attribute up to the last one a feature needs. */
uint16_t zf2fs_extra_isize(uint32_t features);

/* Before writing node block @n of node @nid to a log at checkpoint @cp_ver: the footer's
 * version and next block (@next_blkaddr), the fsync and dentry marks cleared (a
 * checkpoint, not fsync, makes it durable), and an inode's checksum refreshed. */
void zf2fs_node_seal(struct zf2fs_node *n, uint32_t nid, uint64_t cp_ver,
		     uint32_t next_blkaddr, uint32_t features, uint32_t seed);
/* The same in a node block of @g's size. */
struct zf2fs_geom;
void zf2fs_node_seal2(const struct zf2fs_geom *g, void *n, uint32_t nid, uint64_t cp_ver,
		      uint32_t next_blkaddr, uint32_t features, uint32_t seed);

#endif
