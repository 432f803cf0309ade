// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nat_bits.c - the checkpoint's nat_bits, and whether a volume is clean.
 *
 * At unmount the kernel may store two bitmaps at the end of the checkpoint pack's segment:
 * after an 8-byte check value (the pack's version, its CRC in the high half) come a "full"
 * and an "empty" bit per NAT block (bit i in byte i / 8, least significant bit first),
 * nat_blocks / 8 bytes each.  A checkpoint written later carries another version, so a
 * check value that does not match means the bitmaps are stale and are ignored, as the
 * kernel does.  Readers that walk the NAT skip the blocks marked empty.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "zf2fs/sit_table.h"
#include "zf2fs-internal/volume.h"
#include "read/volume_p.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

/* Load the bitmaps once: state 1 usable, -1 absent or stale. */
static void load_nat_bits(struct zf2fs_vol *vol)
{
	const struct zf2fs_checkpoint *cp = (const void *)vol->cp;
	uint64_t bytes = vol->info.nat_blocks / 8;
	const uint32_t bs = vol->geom.blocksize;
	uint64_t nblocks = (2 * bytes + 8 + bs - 1) / bs;
	uint64_t total = zf2fs_get(cp->cp_pack_total_block_count);
	uint64_t start = zf2fs_get(vol->sb.cp_blkaddr) + (uint64_t)vol->cp_pack * BPS;
	uint32_t crc_off = (uint32_t)zf2fs_get(cp->checksum_offset);
	uint64_t check, stored;
	uint8_t *nb;

	vol->nat_bits_state = -1;
	if (!(zf2fs_get(cp->ckpt_flags) & ZF2FS_CP_NAT_BITS_FLAG) || !bytes ||
	    total + nblocks > BPS || crc_off > vol->geom.cp_chksum_offset)
		return;
	nb = malloc(nblocks * bs);
	if (!nb)
		return;
	if (zf2fs_vol_read_blocks(vol, start + BPS - nblocks, (uint32_t)nblocks, nb)) {
		free(nb);
		return;
	}
	check = vol->cp_ver | ((uint64_t)zf2fs_get_le32p(vol->cp + crc_off) << 32);
	memcpy(&stored, nb, sizeof(stored));
	if (zf2fs_le64_to_cpu(stored) != check) {
		free(nb);
		return;
	}
	vol->nat_bits = nb;
	vol->nat_bits_state = 1;
}

ZF2FS_EXPORT bool zf2fs_vol_nat_block_empty(struct zf2fs_vol *vol, uint32_t idx)
{
	const uint8_t *empty;

	if (!vol->nat_bits_state)
		load_nat_bits(vol);
	if (vol->nat_bits_state < 0 || idx >= vol->info.nat_blocks / 8 * 8)
		return false;
	empty = vol->nat_bits + 8 + vol->info.nat_blocks / 8;
	return empty[idx / 8] & (1u << (idx % 8));
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

ZF2FS_EXPORT bool zf2fs_vol_clean(const struct zf2fs_vol *vol)
{
	uint32_t flags = vol->info.ckpt_flags;

	return (flags & ZF2FS_CP_UMOUNT_FLAG) &&
	       !(flags & (ZF2FS_CP_FSCK_FLAG | ZF2FS_CP_ERROR_FLAG | ZF2FS_CP_QUOTA_NEED_FSCK_FLAG |
			  ZF2FS_CP_RESIZEFS_FLAG)) &&
	       !vol->sb_copy_bad[0] && !vol->sb_copy_bad[1] &&
	       all_zero(vol->sb.s_stop_reason, sizeof(vol->sb.s_stop_reason)) &&
	       all_zero(vol->sb.s_errors, sizeof(vol->sb.s_errors));
}
