/* SPDX-License-Identifier: GPL-2.0-or-later */
/* defrag.h - what defrag.c takes from defrag_dir.c. */
#ifndef ZF2FS_DEFRAG_H
#define ZF2FS_DEFRAG_H

#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

/* The paths of the regular files below directory @ino (named @path), in a stable order:
 * depth first, each directory's entries sorted by name (bytes).  A directory met twice
 * (a loop on a damaged volume) or deeper than 256 levels is not walked again.  *@ret_paths
 * (@ret_n of them) is freed with defrag_free_paths().  0, -ENOMEM, the errors of
 * zf2fs_inode_read() and zf2fs_dir_iterate() (@why says which directory). */
int defrag_list_files(struct zf2fs_vol *vol, uint32_t ino, const char *path,
		      char ***ret_paths, size_t *ret_n, char *why, size_t whylen);
void defrag_free_paths(char **paths, size_t n);

#endif /* ZF2FS_DEFRAG_H */
