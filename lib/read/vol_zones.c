// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vol_zones.c - the zones under a volume's sections (include/zf2fs/zoned.h, volume level).
 *
 * The superblock's device list places each device at a range of block addresses
 * (volume.c computes it at open); a main-area section maps to the zone holding its first
 * block, and for F2FS on zoned devices that zone starts where the section starts (mkfs -m
 * aligns the main area to a zone).  The zone reports and operations themselves are the
 * device layer's (lib/device/zoned.c).
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "read/volume_p.h"
#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "zf2fs/zoned.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

ZF2FS_EXPORT bool zf2fs_vol_is_zoned(const struct zf2fs_vol *vol)
{
	return (zf2fs_get(vol->sb.feature) & ZF2FS_FEAT_BLKZONED) != 0;
}

ZF2FS_EXPORT int zf2fs_vol_dev_range(const struct zf2fs_vol *vol, unsigned i,
				     uint64_t *ret_first, uint64_t *ret_last)
{
	if (i >= vol->ndevs)
		return -EINVAL;
	*ret_first = vol->dev_start[i];
	*ret_last = vol->dev_end[i];
	return 0;
}

ZF2FS_EXPORT int zf2fs_vol_block_to_dev(const struct zf2fs_vol *vol, uint64_t blkaddr,
					unsigned *ret_dev, uint64_t *ret_dev_blk)
{
	for (unsigned i = 0; i < vol->ndevs; i++)
		if (blkaddr >= vol->dev_start[i] && blkaddr <= vol->dev_end[i]) {
			*ret_dev = i;
			*ret_dev_blk = blkaddr - vol->dev_start[i];
			return 0;
		}
	return -ERANGE;
}

/* The zone of @zones (sorted) holding byte @pos, or NULL. */
static const struct zf2fs_zone *zone_at(const struct zf2fs_zone *zones, unsigned int nr,
					uint64_t pos)
{
	unsigned int lo = 0, hi = nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (pos < zones[mid].start)
			hi = mid;
		else if (pos >= zones[mid].start + zones[mid].len)
			lo = mid + 1;
		else
			return &zones[mid];
	}
	return NULL;
}

static void fill_valid(const struct zf2fs_vol *vol, const struct zf2fs_sit_entry *sit,
		       struct zf2fs_sec_zone *z)
{
	uint32_t sps = vol->info.segs_per_sec;

	z->valid_blocks = 0;
	z->last_valid = -1;
	if (!sit)
		return;
	for (uint32_t k = 0; k < sps; k++) {
		uint64_t seg = (uint64_t)z->secno * sps + k;
		const struct zf2fs_sit_entry *se;

		if (seg >= vol->info.main_segs)
			break;
		se = &sit[seg];
		z->valid_blocks += zf2fs_sit_valid_blocks(se);
		for (uint32_t b = 0; b < BPS; b++)
			if (zf2fs_sit_block_valid(se, b))
				z->last_valid = (int64_t)k * BPS + b;
	}
}

ZF2FS_EXPORT int zf2fs_vol_zones(struct zf2fs_vol *vol, const struct zf2fs_sit_entry *sit,
				 struct zf2fs_sec_zone **ret, uint32_t *ret_nr)
{
	const struct zf2fs_vol_info *vi = &vol->info;
	struct zf2fs_zone *zones[ZF2FS_MAX_DEVICES] = { NULL };
	unsigned int nzones[ZF2FS_MAX_DEVICES] = { 0 };
	struct zf2fs_sec_zone *out = NULL;
	bool any = false;
	int err = 0;

	*ret = NULL;
	*ret_nr = 0;
	for (unsigned d = 0; d < vol->ndevs; d++) {
		err = zf2fs_dev_report_zones(vol->dev[d], 0, 0, &zones[d], &nzones[d]);
		if (err == -ENOTBLK) {
			err = 0;
			continue;
		}
		if (err)
			goto out;
		any = true;
	}
	if (!any) {
		err = -ENODEV;
		goto out;
	}
	out = calloc(vi->main_secs ? vi->main_secs : 1, sizeof(*out));
	if (!out) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t sec = 0; sec < vi->main_secs; sec++) {
		struct zf2fs_sec_zone *z = &out[sec];
		const struct zf2fs_zone *zn = NULL;
		uint64_t dblk = 0;

		z->secno = sec;
		z->blkaddr = vi->main_blkaddr + (uint64_t)sec * vi->segs_per_sec * BPS;
		z->zone_blkaddr = z->blkaddr;
		if (!zf2fs_vol_block_to_dev(vol, z->blkaddr, &z->dev, &dblk) && zones[z->dev])
			zn = zone_at(zones[z->dev], nzones[z->dev], dblk * vol->geom.blocksize);
		if (zn) {
			uint64_t wp = zn->wp > zn->start ? zn->wp - zn->start : 0;

			z->type = zn->type;
			z->cond = zn->cond;
			z->zone_blkaddr = vol->dev_start[z->dev] + zn->start / vol->geom.blocksize;
			z->zone_blocks = (uint32_t)(zn->len / vol->geom.blocksize);
			z->cap_blocks = (uint32_t)(zn->capacity / vol->geom.blocksize);
			if (zn->type == ZF2FS_ZONE_CONV) {
				z->wp_blocks = 0;
			} else if (zn->cond == ZF2FS_ZONE_FULL || wp > zn->capacity) {
				z->wp_blocks = z->cap_blocks;
			} else {
				z->wp_blocks = (uint32_t)(wp / vol->geom.blocksize);
				z->wp_partial = wp % vol->geom.blocksize != 0;
			}
		}
		fill_valid(vol, sit, z);
	}
	*ret = out;
	*ret_nr = vi->main_secs;
out:
	for (unsigned d = 0; d < ZF2FS_MAX_DEVICES; d++)
		free(zones[d]);
	return err;
}

ZF2FS_EXPORT int zf2fs_vol_zone_unusable(struct zf2fs_vol *vol, uint32_t *ret_blocks)
{
	const struct zf2fs_vol_info *vi = &vol->info;
	uint64_t sec_blocks = (uint64_t)vi->segs_per_sec * BPS;
	bool any = false, set = false;
	uint32_t unusable = 0;
	int err = 0;

	*ret_blocks = 0;
	for (unsigned d = 0; d < vol->ndevs && !err; d++) {
		struct zf2fs_zone *zones = NULL;
		unsigned int nr = 0;

		err = zf2fs_dev_report_zones(vol->dev[d], 0, 0, &zones, &nr);
		if (err == -ENOTBLK) {
			err = 0;
			continue;
		}
		if (err)
			break;
		any = true;
		for (unsigned int i = 0; i < nr; i++) {
			uint64_t u;

			if (zones[i].type == ZF2FS_ZONE_CONV)
				continue;
			if (zones[i].len / vol->geom.blocksize != sec_blocks ||
			    zones[i].capacity > zones[i].len) {
				err = -EINVAL;
				break;
			}
			u = (zones[i].len - zones[i].capacity) / vol->geom.blocksize;
			/* the kernel keeps the first nonzero value and wants every other
			 * zone with one to agree */
			if (!u)
				continue;
			if (set && u != unusable) {
				err = -EINVAL;
				break;
			}
			unusable = (uint32_t)u;
			set = true;
		}
		free(zones);
	}
	if (!err && !any)
		err = -ENODEV;
	if (!err && unusable >= sec_blocks)
		err = -EINVAL;
	if (!err)
		*ret_blocks = unusable;
	return err;
}

ZF2FS_EXPORT uint32_t zf2fs_seg_usable_blocks(const struct zf2fs_vol_info *vi,
					      uint32_t unusable_per_sec, uint32_t segno)
{
	uint64_t sec_blocks = (uint64_t)vi->segs_per_sec * BPS, cap, start;

	if (!unusable_per_sec || !vi->segs_per_sec || unusable_per_sec >= sec_blocks)
		return BPS;
	cap = sec_blocks - unusable_per_sec;
	start = (uint64_t)(segno % vi->segs_per_sec) * BPS;
	if (start >= cap)
		return 0;
	return cap - start < BPS ? (uint32_t)(cap - start) : BPS;
}

ZF2FS_EXPORT uint32_t zf2fs_free_segs(const struct zf2fs_vol_info *vi, uint32_t unusable_per_sec,
				       const uint32_t log_segs[ZF2FS_NR_CURSEG],
				       bool (*empty)(void *arg, uint32_t segno), void *arg)
{
	uint32_t n = 0;

	for (uint32_t s = 0; s < vi->main_segs; s++) {
		bool log = false;

		for (int i = 0; i < ZF2FS_NR_CURSEG; i++)
			log |= log_segs[i] == s;
		/* whether or not its section is free: the kernel counts segments */
		if (!log && empty(arg, s) && zf2fs_seg_usable_blocks(vi, unusable_per_sec, s))
			n++;
	}
	return n;
}

/* Reset (@finish false) or finish the zone @z of @vol: only sequential zones have a
 * write pointer to move. */
static int vol_zone_op(struct zf2fs_vol *vol, const struct zf2fs_sec_zone *z, bool finish)
{
	uint64_t len = (uint64_t)z->zone_blocks * vol->geom.blocksize;
	uint64_t ofs;

	if (z->type != ZF2FS_ZONE_SEQ_REQ && z->type != ZF2FS_ZONE_SEQ_PREF)
		return -EINVAL;
	if (z->dev >= vol->ndevs || z->zone_blkaddr < vol->dev_start[z->dev])
		return -EINVAL;
	ofs = (z->zone_blkaddr - vol->dev_start[z->dev]) * vol->geom.blocksize;
	return finish ? zf2fs_dev_finish_zone_range(vol->dev[z->dev], ofs, len)
		      : zf2fs_dev_reset_zone_range(vol->dev[z->dev], ofs, len);
}

ZF2FS_EXPORT int zf2fs_vol_reset_zone(struct zf2fs_vol *vol, const struct zf2fs_sec_zone *z)
{
	return vol_zone_op(vol, z, false);
}

ZF2FS_EXPORT int zf2fs_vol_finish_zone(struct zf2fs_vol *vol, const struct zf2fs_sec_zone *z)
{
	return vol_zone_op(vol, z, true);
}
