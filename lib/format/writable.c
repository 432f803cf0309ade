// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * writable.c - whether this version may write a volume at all.
 *
 * A superblock bit the writers do not handle may change what a block means (a device
 * aliasing file owns blocks that no summary names; a new layout moves structures), so a
 * writer that ignored it could free or overwrite a user's data.  Every writing path opens
 * the volume through zf2fs_vol_open with ZF2FS_DEV_WRITE (or on writable devices), and
 * the volume refuses to open for writing when this says no: such a volume is read, never
 * written.  device_alias is refused here too; a caller that handles it (fsck.f2fs,
 * f2fslabel) says so to zf2fs_vol_open with ZF2FS_VOL_DEVICE_ALIAS.
 */
#include "config.h"
#include <stdio.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "zf2fs/format.h"

/* Feature bits the writers handle.  packed_ssa changes nothing with 4 KiB blocks (a
 * summary block is 4 KiB either way), and this version writes only 4 KiB blocks. */
static const uint32_t writable_features = ZF2FS_FEAT_ENCRYPT | ZF2FS_FEAT_BLKZONED |
	ZF2FS_FEAT_ATOMIC_WRITE | ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_PRJQUOTA |
	ZF2FS_FEAT_INODE_CHKSUM | ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR | ZF2FS_FEAT_QUOTA_INO |
	ZF2FS_FEAT_INODE_CRTIME | ZF2FS_FEAT_LOST_FOUND | ZF2FS_FEAT_VERITY |
	ZF2FS_FEAT_SB_CHKSUM | ZF2FS_FEAT_CASEFOLD | ZF2FS_FEAT_COMPRESSION | ZF2FS_FEAT_RO |
	ZF2FS_FEAT_PACKED_SSA;

/* Casefolding flags the writers handle: strict (refuse names that are not valid UTF-8)
 * and hashonly (no linear lookup: names sit in their hash bucket, as ours always do). */
static const uint16_t writable_encoding_flags = ZF2FS_ENC_STRICT | ZF2FS_ENC_HASHONLY;

ZF2FS_EXPORT bool zf2fs_super_writable(const struct zf2fs_super *sb, char *why, size_t whylen)
{
	uint32_t feat = (uint32_t)zf2fs_get(sb->feature) & ~writable_features;
	uint16_t enc = (uint16_t)zf2fs_get(sb->s_encoding_flags) & ~writable_encoding_flags;
	size_t o = 0;

	if (!feat && !enc)
		return true;
	if (!why || !whylen)
		return false;
	why[0] = 0;
	if (feat) {
		unsigned named = 0;

		o += (size_t)snprintf(why, whylen, "feature bits 0x%x", feat);
		for (unsigned i = 0; i < 32 && o < whylen; i++) {
			const char *name = (feat >> i) & 1 ? zf2fs_feature_name(1u << i) : NULL;

			if (name)
				o += (size_t)snprintf(why + o, whylen - o, "%s%s",
						      named++ ? ", " : " (", name);
		}
		if (named && o < whylen)
			o += (size_t)snprintf(why + o, whylen - o, ")");
	}
	if (enc && o < whylen)
		snprintf(why + o, whylen - o, "%scasefolding flags 0x%x", o ? " and " : "", enc);
	return false;
}
