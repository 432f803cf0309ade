/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file_read_p.h - what lib/read/file_read.c and lib/read/file_read_compr.c share: the
 * contents of a compressed file, cluster by cluster, and the holes between pieces.
 */
#ifndef ZF2FS_FILE_READ_P_H
#define ZF2FS_FILE_READ_P_H

#include "zf2fs/zf2fs.h"
#include "zf2fs/file.h"

/* zf2fs_file_read() for a compressed regular file (@g its geometry): the same sink
 * contract, the same errors, and -ZF2FS_EFSCORRUPTED for a cluster that does not
 * decompress as the kernel would read it; -EOPNOTSUPP for an algorithm this build
 * lacks. */
int compr_file_read(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
		    const struct zf2fs_inode_geom *g, zf2fs_file_sink sink, void *arg, char *why,
		    size_t whylen);

/* Hand the hole from *@done up to @off (cut at @size, the file's size) to @sink as a
 * NULL piece and move *@done there; nothing when *@done is already past it.  The sink's
 * value.  Shared by the plain and the compressed readers. */
int zf2fs_file_hole_to(zf2fs_file_sink sink, void *arg, uint64_t size, uint64_t *done,
		       uint64_t off);

#endif
