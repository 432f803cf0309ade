// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * features.c - superblock feature names and the rules that tie them together.
 *
 * Names are the ones mkfs.f2fs and the kernel use.  The dependency rules are the
 * kernel's: every per-inode extra field needs extra_attr.  Features whose on-disk
 * initialisation this version cannot write yet are refused here, by name, rather than
 * producing an image the kernel would misread.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "zf2fs/zf2fs.h"

static const struct {
	const char *name;
	uint32_t bit;
	bool supported;
} features[] = {
	{ "encrypt", ZF2FS_FEAT_ENCRYPT, true },
	{ "blkzoned", ZF2FS_FEAT_BLKZONED, true },
	{ "extra_attr", ZF2FS_FEAT_EXTRA_ATTR, true },
	{ "project_quota", ZF2FS_FEAT_PRJQUOTA, true },
	{ "inode_checksum", ZF2FS_FEAT_INODE_CHKSUM, true },
	{ "flexible_inline_xattr", ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR, true },
	{ "quota", ZF2FS_FEAT_QUOTA_INO, true },
	{ "inode_crtime", ZF2FS_FEAT_INODE_CRTIME, true },
	{ "lost_found", ZF2FS_FEAT_LOST_FOUND, true },
	{ "verity", ZF2FS_FEAT_VERITY, true },
	{ "sb_checksum", ZF2FS_FEAT_SB_CHKSUM, true },
	{ "casefold", ZF2FS_FEAT_CASEFOLD, true },
	{ "compression", ZF2FS_FEAT_COMPRESSION, true },
	{ "ro", ZF2FS_FEAT_RO, true },
	/* f2fs-tools' mkfs sets it with -c DEV@ALIAS, pinned files created with the volume */
	{ "device_alias", ZF2FS_FEAT_DEVICE_ALIAS, false },
	/* with 4 KiB blocks (the only size here) the summary area is laid out as without it */
	{ "packed_ssa", ZF2FS_FEAT_PACKED_SSA, true },
};

#define NFEATURES (sizeof(features) / sizeof(features[0]))

ZF2FS_EXPORT const char *zf2fs_feature_name(uint32_t bit)
{
	for (size_t i = 0; i < NFEATURES; i++)
		if (features[i].bit == bit)
			return features[i].name;
	return NULL;
}

ZF2FS_EXPORT const char *zf2fs_encoding_flag_name(uint32_t flag)
{
	switch (flag) {
	case ZF2FS_ENC_STRICT: return "strict";
	case ZF2FS_ENC_HASHONLY: return "hashonly";
	default: return NULL;
	}
}

ZF2FS_EXPORT const char *zf2fs_stop_reason_name(unsigned slot)
{
	static const char *const names[ZF2FS_STOP_REASONS] = {
		[ZF2FS_STOP_SHUTDOWN] = "shutdown",
		[ZF2FS_STOP_FAULT_INJECT] = "fault injection",
		[ZF2FS_STOP_META_PAGE] = "meta page error",
		[ZF2FS_STOP_WRITE_FAIL] = "write failure",
		[ZF2FS_STOP_CORRUPTED_SUMMARY] = "corrupted summary",
		[ZF2FS_STOP_UPDATE_INODE] = "inode update failure",
		[ZF2FS_STOP_FLUSH_FAIL] = "flush failure",
		[ZF2FS_STOP_NO_SEGMENT] = "no free segment",
		[ZF2FS_STOP_CORRUPTED_FREE_BITMAP] = "corrupted free bitmap",
		[ZF2FS_STOP_CORRUPTED_NID] = "corrupted nid",
		[ZF2FS_STOP_READ_META] = "meta read error",
		[ZF2FS_STOP_READ_NODE] = "node read error",
		[ZF2FS_STOP_READ_DATA] = "data read error",
	};

	return slot < ZF2FS_STOP_REASONS ? names[slot] : NULL;
}

/* A flag word's bits and their names. */
struct flag_name {
	uint32_t flag;
	const char *name;
};

static const char *flag_name(const struct flag_name *t, size_t n, uint32_t flag)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].flag == flag)
			return t[i].name;
	return NULL;
}

ZF2FS_EXPORT const char *zf2fs_inode_flag_name(uint32_t flag)
{
	/* the kernel's i_flags bits (include/uapi/linux/fs.h's FS_*_FL of the same values) */
	static const struct flag_name flags[] = {
		{ ZF2FS_COMPR_FL, "compress" },
		{ ZF2FS_SYNC_FL, "sync" },
		{ ZF2FS_IMMUTABLE_FL, "immutable" },
		{ ZF2FS_APPEND_FL, "append" },
		{ ZF2FS_NODUMP_FL, "nodump" },
		{ ZF2FS_NOATIME_FL, "noatime" },
		{ ZF2FS_NOCOMP_FL, "nocompress" },
		{ ZF2FS_INDEX_FL, "index" },
		{ ZF2FS_DIRSYNC_FL, "dirsync" },
		{ ZF2FS_PROJINHERIT_FL, "projinherit" },
		{ ZF2FS_CASEFOLD_FL, "casefold" },
		{ ZF2FS_DEVICE_ALIAS_FL, "device_alias" },
	};

	return flag_name(flags, sizeof(flags) / sizeof(flags[0]), flag);
}

ZF2FS_EXPORT const char *zf2fs_cp_flag_name(uint32_t flag)
{
	static const struct flag_name flags[] = {
		{ ZF2FS_CP_UMOUNT_FLAG, "umount" },
		{ ZF2FS_CP_ORPHAN_PRESENT_FLAG, "orphan_present" },
		{ ZF2FS_CP_COMPACT_SUM_FLAG, "compact_sum" },
		{ ZF2FS_CP_ERROR_FLAG, "error" },
		{ ZF2FS_CP_FSCK_FLAG, "fsck" },
		{ ZF2FS_CP_FASTBOOT_FLAG, "fastboot" },
		{ ZF2FS_CP_CRC_RECOVERY_FLAG, "crc_recovery" },
		{ ZF2FS_CP_NAT_BITS_FLAG, "nat_bits" },
		{ ZF2FS_CP_TRIMMED_FLAG, "trimmed" },
		{ ZF2FS_CP_NOCRC_RECOVERY_FLAG, "nocrc_recovery" },
		{ ZF2FS_CP_LARGE_NAT_BITMAP_FLAG, "large_nat_bitmap" },
		{ ZF2FS_CP_QUOTA_NEED_FSCK_FLAG, "quota_need_fsck" },
		{ ZF2FS_CP_DISABLED_FLAG, "disabled" },
		{ ZF2FS_CP_DISABLED_QUICK_FLAG, "disabled_quick" },
		{ ZF2FS_CP_RESIZEFS_FLAG, "resizefs" },
	};

	return flag_name(flags, sizeof(flags) / sizeof(flags[0]), flag);
}

ZF2FS_EXPORT int zf2fs_features_parse(const char *list, uint32_t *ret_features, char *bad,
				      size_t badlen)
{
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ", ");
		size_t i;

		if (len) {
			for (i = 0; i < NFEATURES; i++)
				if (strlen(features[i].name) == len &&
				    !strncmp(features[i].name, p, len))
					break;
			if (i == NFEATURES) {
				snprintf(bad, badlen, "%.*s", (int)len, p);
				return -EINVAL;
			}
			*ret_features |= features[i].bit;
		}
		p += len;
		p += strspn(p, ", ");
	}
	return 0;
}

ZF2FS_EXPORT int zf2fs_features_check(uint32_t f, char *why, size_t whylen)
{
	static const uint32_t need_extra = ZF2FS_FEAT_PRJQUOTA | ZF2FS_FEAT_INODE_CHKSUM |
		ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR | ZF2FS_FEAT_INODE_CRTIME |
		ZF2FS_FEAT_COMPRESSION;

	if ((f & need_extra) && !(f & ZF2FS_FEAT_EXTRA_ATTR)) {
		for (size_t i = 0; i < NFEATURES; i++)
			if (f & need_extra & features[i].bit) {
				snprintf(why, whylen, "feature %s needs extra_attr "
					 "(add -O extra_attr)", features[i].name);
				return -EINVAL;
			}
	}
	for (size_t i = 0; i < NFEATURES; i++)
		if ((f & features[i].bit) && !features[i].supported) {
			if (features[i].bit == ZF2FS_FEAT_DEVICE_ALIAS) {
				snprintf(why, whylen, "feature device_alias is not offered: "
					 "f2fs-tools sets it with -c DEV@ALIAS, which zf2fs-tools "
					 "does not have");
				return -ENOTSUP;
			}
			snprintf(why, whylen, "feature %s is not supported by this version of "
				 "zf2fs-tools yet", features[i].name);
			return -ENOTSUP;
		}
	return 0;
}
