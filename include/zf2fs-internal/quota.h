/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zf2fs-internal/quota.h - building quota files and counting usage as the inodes say (fsck's quota
 * pass and its repair).
 *
 * For zf2fs-tools' own programs (fsck, the tools, the tests): not installed, and no ABI
 * promise.  The functions are exported from libzf2fs.so in the version node ZF2FS_PRIVATE
 * of lib/libzf2fs.sym; the installed API is include/zf2fs/.
 */
#ifndef ZF2FS_INTERNAL_QUOTA_H
#define ZF2FS_INTERNAL_QUOTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/quota.h"

/*
 * Parse quota file @data (@size bytes, the file's i_size) of @type by walking its tree the
 * way the kernel looks ids up; each entry reached is returned once.  Every reference is
 * checked against the block count, a tree block reached twice is corruption (so hostile
 * files cost at most 256 steps per block), and entries a lookup could not reach are not
 * returned.  Free with zf2fs_quota_file_free().
 * Returns 0; -ZF2FS_EFSCORRUPTED with @why; -ENOMEM.
 */
ZF2FS_EXPORT int zf2fs_quota_parse(const uint8_t *data, size_t size, int type,
				   struct zf2fs_quota_file *ret, char *why, size_t whylen);

/*
 * Build a fresh quota file of @type holding @qf's entries (any order; duplicates refused
 * with -EINVAL) and grace times/flags.  The tree is laid out as the kernel would grow it
 * by inserting the ids in ascending order: for one id this is byte for byte what
 * mkfs.f2fs writes.  @ret_buf (free()) gets a multiple of 1 KiB bytes.
 * Returns 0; -EINVAL; -ENOMEM.
 */
ZF2FS_EXPORT int zf2fs_quota_build(int type, const struct zf2fs_quota_file *qf,
				   uint8_t **ret_buf, size_t *ret_size);
/* ---- usage as the inodes say ------------------------------------------------------------ */

/* Usage per id of one quota type, gathered inode by inode (an open hash table). */
struct zf2fs_quota_usage {
	struct zf2fs_quota_use { uint32_t id, used; uint64_t inodes, bytes; } *slot;
	size_t cap, n;
};

/* Charge one inode to @id.  Returns 0 or -ENOMEM. */
ZF2FS_EXPORT int zf2fs_quota_usage_add(struct zf2fs_quota_usage *u, uint32_t id,
				       uint64_t inodes, uint64_t bytes);
/* The usage of @id (zero when none); never fails. */
ZF2FS_EXPORT struct zf2fs_quota_use zf2fs_quota_usage_get(const struct zf2fs_quota_usage *u,
							  uint32_t id);
ZF2FS_EXPORT void zf2fs_quota_usage_free(struct zf2fs_quota_usage *u);

/*
 * The ids an inode is charged to (user, group, project: the project id is the inode's
 * i_projid when the volume has project_quota and the inode's extra area holds it, else 0)
 * and the bytes it is charged: every block of @i_blocks but the inode block.
 */
ZF2FS_EXPORT void zf2fs_quota_inode_ids(const struct zf2fs_inode *in, uint32_t features,
					uint32_t ret_ids[3]);
ZF2FS_EXPORT uint64_t zf2fs_quota_inode_bytes(uint64_t i_blocks);

#endif /* ZF2FS_INTERNAL_QUOTA_H */
