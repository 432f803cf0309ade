/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zf2fs-internal/format.h - the format's rules that fsck and the library's writers share beyond the
 * installed API (lib/format/): the segments the superblock's areas span, an inode's
 * checksum set again.
 *
 * For zf2fs-tools' own programs (fsck, the tools, the tests): not installed, and no ABI
 * promise.  The functions are exported from libzf2fs.so in the version node ZF2FS_PRIVATE
 * of lib/libzf2fs.sym; the installed API is include/zf2fs/.
 */
#ifndef ZF2FS_INTERNAL_FORMAT_H
#define ZF2FS_INTERNAL_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

/* The segments from segment 0 to the end of the main area, which segment_count should
 * be: a larger segment_count passes zf2fs_super_verify (Linux accepts it and corrects the
 * superblock at mount). */
ZF2FS_EXPORT uint32_t zf2fs_super_areas_segments(const struct zf2fs_super *sb);

/* f2fs_mdrestore writes this (with its NUL) at this byte of the volume's first block,
 * which F2FS leaves unused before the superblock, when the metadata image it restores had
 * its names scrambled: fsck.f2fs then does not check the hashes of the names. */
#define ZF2FS_METADUMP_MARKER        "ZF2FS-METADUMP-SCRAMBLED-NAMES"
#define ZF2FS_METADUMP_MARKER_OFFSET 512u

/* Before writing node block @n of node @nid: when it is an inode that carries a checksum
 * (@features has inode_checksum and its extra attributes hold the field), set the
 * checksum from @seed (zf2fs_checksum_seed).  Returns whether it did. */
ZF2FS_EXPORT bool zf2fs_inode_reseal(struct zf2fs_node *n, uint32_t nid, uint32_t features,
				     uint32_t seed);
/* The same in a node block of @g's size (the one above takes 4 KiB). */
struct zf2fs_geom;
ZF2FS_EXPORT bool zf2fs_inode_reseal2(const struct zf2fs_geom *g, void *node, uint32_t nid,
				      uint32_t features, uint32_t seed);

/* The superblock mkfs.f2fs writes for layout @lay and options @o (blocks of
 * 2^@log_blocksize bytes, feature bits *@features: project quota turns quota_ino on there;
 * the quota files numbered from *@next_nid on, which is moved past them; @devs[i]'s paths
 * recorded when the layout has several devices).  0 or -EINVAL/-ENOSPC (label, extensions),
 * said through @log. */
ZF2FS_EXPORT int zf2fs_mkfs_fill_super(const struct zf2fs_layout *lay,
				      const struct zf2fs_mkfs_opts *o, uint32_t log_blocksize,
				      uint32_t *features, uint32_t *next_nid,
				      struct zf2fs_dev **devs, struct zf2fs_super *sb,
				      const struct zf2fs_log *log);

/* The CRC register (zf2fs_crc32's, no inversion) that @crc was @zero_bytes zero bytes
 * before: the CRC run backwards. */
ZF2FS_EXPORT uint32_t zf2fs_crc32_unshift(uint32_t crc, size_t zero_bytes);
/* The checksum seed (zf2fs_checksum_seed) that gives inode block @node of @g's size the
 * checksum it carries: whatever the block holds, some seed does, so a seed means something
 * only when several inodes agree on it. */
ZF2FS_EXPORT uint32_t zf2fs_inode_seed_of(const struct zf2fs_geom *g, const void *node);
/* Fill @uuid with a random version 4 UUID whose checksum seed is @seed. */
ZF2FS_EXPORT void zf2fs_uuid_for_seed(uint32_t seed, uint8_t uuid[16]);
/* The quota type (0 user, 1 group, 2 project) whose magic starts quota file block @data,
 * or -1. */
ZF2FS_EXPORT int zf2fs_quota_magic_type(const uint8_t *data);

/* Device aliasing (mkfs.f2fs -c DEV@ALIAS, Linux 6.13 and later): @aliases holds one entry
 * per device of @lay, the name of the file in the root directory that covers the device's
 * whole part of the main area, or NULL for a device that is not aliased (@aliases NULL:
 * none is).  Adjusts a layout from zf2fs_layout_compute: the logs move off the aliased
 * devices and the free segment count leaves out the aliased segments.  Returns 0, -EINVAL
 * when a device cannot be aliased (the first one, a zoned one, any with -m), -ENOSPC when
 * too little remains for the logs or the aliased blocks exceed the user blocks; @why gets
 * the reason. */
ZF2FS_EXPORT int zf2fs_layout_alias(struct zf2fs_layout *lay, const struct zf2fs_layout_opts *o,
				    const char *const *aliases, char *why, size_t whylen);

/* zf2fs_mkfs_write with aliased devices (@aliases as for zf2fs_layout_alias, which must
 * have adjusted @lay): sets the device_alias feature, writes one pinned alias inode per
 * aliased device with a root dentry, marks the aliased segments fully valid in SIT, and
 * neither discards nor writes the aliased devices. */
ZF2FS_EXPORT int zf2fs_mkfs_write_aliased(struct zf2fs_dev **devs, const struct zf2fs_layout *lay,
					  const struct zf2fs_mkfs_opts *opts,
					  const char *const *aliases,
					  const struct zf2fs_log *log);

/* zf2fs_dir_iterate's scan of one dentry area @v (@block: its index in the directory, -1
 * inline), for a caller that read the block itself: @fn for each entry; a malformed slot
 * ends the scan, through @bad when given (else 0).  Returns the first nonzero return. */
ZF2FS_EXPORT int zf2fs_dentry_view_scan(const struct zf2fs_dentry_view *v, int64_t block,
				       int (*fn)(void *, const struct zf2fs_dentry_info *),
				       int (*bad)(void *, int64_t, uint32_t, const char *),
				       void *arg);

#endif /* ZF2FS_INTERNAL_FORMAT_H */
