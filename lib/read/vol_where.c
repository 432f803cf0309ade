// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vol_where.c - where things of an open volume live on disk, for tools that write one
 * structure in place (inject.f2fs): either copy of a NAT or SIT block, a checkpoint
 * pack, and the block and byte offset of the NAT and SIT journals of the pack in use.
 * Reading goes through volume.c; this file only answers "which block".
 */
#include "config.h"
#include <errno.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "zf2fs-internal/volume.h"
#include "read/volume_p.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

ZF2FS_EXPORT uint64_t zf2fs_vol_nat_block_copy(const struct zf2fs_vol *vol, uint32_t idx,
					       unsigned copy)
{
	return zf2fs_nat_copy_addr(vol->info.nat_blkaddr, idx, copy);
}

ZF2FS_EXPORT uint64_t zf2fs_vol_sit_block_copy(const struct zf2fs_vol *vol, uint32_t idx,
					       unsigned copy)
{
	return zf2fs_sit_copy_addr(vol->info.sit_blkaddr, vol->info.sit_blocks, idx, copy);
}

ZF2FS_EXPORT uint64_t zf2fs_vol_ssa_block_addr(const struct zf2fs_vol *vol, uint32_t segno)
{
	return zf2fs_geom_ssa_block(&vol->geom, vol->info.ssa_blkaddr, segno, NULL);
}

ZF2FS_EXPORT uint64_t zf2fs_vol_cp_pack_addr(const struct zf2fs_vol *vol, unsigned pack)
{
	return zf2fs_get(vol->sb.cp_blkaddr) + (pack ? BPS : 0);
}

ZF2FS_EXPORT int zf2fs_vol_journal_where(const struct zf2fs_vol *vol, bool sit,
					 uint64_t *ret_blkaddr, uint32_t *ret_off)
{
	const struct zf2fs_checkpoint *cp = (const void *)vol->cp;
	uint64_t sum = zf2fs_vol_cp_pack_addr(vol, vol->cp_pack) + zf2fs_get(cp->cp_pack_start_sum);

	if (zf2fs_get(cp->ckpt_flags) & ZF2FS_CP_COMPACT_SUM_FLAG) {
		/* compacted: both journals open the first summary block, NAT then SIT */
		*ret_blkaddr = sum;
		*ret_off = sit ? vol->geom.sum_journal_size : 0;
	} else {
		/* one block per data log: hot data keeps the NAT journal, cold data the SIT */
		*ret_blkaddr = sum + (sit ? ZF2FS_LOG_COLD_DATA : ZF2FS_LOG_HOT_DATA);
		*ret_off = vol->geom.sum_journal_offset;
	}
	return 0;
}

/* ---- the other way round: what a metadata block is (dump.f2fs --blk) ------------------ */
ZF2FS_EXPORT bool zf2fs_vol_cp_block_of(const struct zf2fs_vol *vol, uint64_t blkaddr,
					unsigned *ret_pack, uint32_t *ret_off)
{
	uint64_t cp = zf2fs_get(vol->sb.cp_blkaddr);

	if (blkaddr < cp || blkaddr >= vol->info.sit_blkaddr)
		return false;
	*ret_pack = (unsigned)((blkaddr - cp) / BPS);
	*ret_off = (uint32_t)((blkaddr - cp) % BPS);
	return true;
}

ZF2FS_EXPORT bool zf2fs_vol_sit_block_of(const struct zf2fs_vol *vol, uint64_t blkaddr,
					 uint32_t *ret_idx, unsigned *ret_copy)
{
	uint64_t i = blkaddr - vol->info.sit_blkaddr;

	if (blkaddr < vol->info.sit_blkaddr || blkaddr >= vol->info.nat_blkaddr ||
	    !vol->info.sit_blocks)
		return false;
	/* the two copies are the halves of the area; a third part is slack */
	*ret_idx = (uint32_t)(i % vol->info.sit_blocks);
	*ret_copy = (unsigned)(i / vol->info.sit_blocks);
	return true;
}

ZF2FS_EXPORT bool zf2fs_vol_nat_block_of(const struct zf2fs_vol *vol, uint64_t blkaddr,
					 uint32_t *ret_idx, unsigned *ret_copy)
{
	uint64_t i = blkaddr - vol->info.nat_blkaddr;

	if (blkaddr < vol->info.nat_blkaddr || blkaddr >= vol->info.ssa_blkaddr)
		return false;
	/* pair k of NAT segments holds copy 0 then copy 1 of its 512 blocks */
	*ret_idx = (uint32_t)(i / (2 * BPS) * BPS + i % BPS);
	*ret_copy = (unsigned)(i / BPS % 2);
	return true;
}

ZF2FS_EXPORT bool zf2fs_vol_ssa_block_of(const struct zf2fs_vol *vol, uint64_t blkaddr,
					 uint32_t *ret_segno)
{
	if (blkaddr < vol->info.ssa_blkaddr || blkaddr >= vol->info.main_blkaddr)
		return false;
	*ret_segno = (uint32_t)(blkaddr - vol->info.ssa_blkaddr) * vol->geom.sums_per_block;
	return true;
}
