/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * quota.h - libzf2fs: quota files (the kernel's "vfsv1" format) and quota usage.
 *
 * With the quota_ino feature, the superblock names one hidden regular file per quota type
 * (user, group, project).  Each holds a radix tree of 1 KiB blocks: block 0 carries the
 * header and the grace times, block 1 is the root, three more levels of 256 references
 * lead to leaf blocks of 72-byte entries, one per id.  The kernel keeps each id's usage
 * there: the inodes it owns and the bytes of every block those inodes own except the
 * inode block itself.
 *
 * Conventions as in zf2fs.h: 0 or a negative errno, -ZF2FS_EFSCORRUPTED for a file that
 * contradicts itself (with a one-line reason in @why when given), ret_* out-parameters.
 */
#ifndef ZF2FS_QUOTA_H
#define ZF2FS_QUOTA_H

#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

#ifdef __cplusplus
extern "C" {
#endif

enum zf2fs_qtype { ZF2FS_QUOTA_USR, ZF2FS_QUOTA_GRP, ZF2FS_QUOTA_PRJ };

#define ZF2FS_QUOTA_BLKSIZE     1024u   /* the tree's block, whatever the volume's */
#define ZF2FS_QUOTA_GRACE       604800u /* default grace period: 7 days, as mkfs writes */
#define ZF2FS_QUOTA_FILE_MAX    (64ull << 20)   /* larger files are refused: 64 Ki tree
						 * blocks hold about 900,000 ids */

/* One id's record. */
struct zf2fs_dquot {
	uint32_t id;
	uint64_t ihardlimit, isoftlimit, curinodes;
	uint64_t bhardlimit, bsoftlimit, curspace;   /* limits in 1 KiB units, usage in bytes */
	uint64_t btime, itime;
};

/* A whole quota file, entries sorted by id. */
struct zf2fs_quota_file {
	uint32_t bgrace, igrace, flags;
	struct zf2fs_dquot *dq;
	size_t n;
};

/* "user", "group" or "project". */
ZF2FS_EXPORT const char *zf2fs_quota_type_name(int type);

ZF2FS_EXPORT void zf2fs_quota_file_free(struct zf2fs_quota_file *qf);


/*
 * Read quota file inode @ino of @type from @vol and parse it.
 * Returns 0; -ZF2FS_EFSCORRUPTED with @why for a file the kernel could not use (not a
 * regular file, larger than ZF2FS_QUOTA_FILE_MAX, a broken tree); -ENOENT when @ino is not
 * in use; errors of zf2fs_inode_read() and zf2fs_file_read().
 */
ZF2FS_EXPORT int zf2fs_quota_load(struct zf2fs_vol *vol, uint32_t ino, int type,
				  struct zf2fs_quota_file *ret, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_QUOTA_H */
