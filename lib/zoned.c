// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * zoned.c - zone reports and zone operations, and the zones under a volume's sections.
 *
 * Devices: every zone call opens its own descriptor through libzbd (the handle's own
 * descriptor may be exclusive or a plain file); nothing is cached, so a report always
 * shows the device as it is now.  Volumes: the superblock's device list places each
 * device at a range of block addresses (volume.c computes it at open); a main-area
 * section maps to the zone holding its first block, and for F2FS on zoned devices that
 * zone starts where the section starts (mkfs -m aligns the main area to a zone).
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBZBD
#include <libzbd/zbd.h>
#endif

#include "device_p.h"
#include "volume_p.h"
#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "zf2fs/zoned.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

ZF2FS_EXPORT const char *zf2fs_zone_type_name(enum zf2fs_zone_type type)
{
	switch (type) {
	case ZF2FS_ZONE_CONV: return "conventional";
	case ZF2FS_ZONE_SEQ_REQ: return "seq-required";
	case ZF2FS_ZONE_SEQ_PREF: return "seq-preferred";
	default: return "none";
	}
}

ZF2FS_EXPORT const char *zf2fs_zone_cond_name(enum zf2fs_zone_cond cond)
{
	switch (cond) {
	case ZF2FS_ZONE_NOT_WP: return "not-wp";
	case ZF2FS_ZONE_EMPTY: return "empty";
	case ZF2FS_ZONE_IMP_OPEN: return "implicit-open";
	case ZF2FS_ZONE_EXP_OPEN: return "explicit-open";
	case ZF2FS_ZONE_CLOSED: return "closed";
	case ZF2FS_ZONE_READONLY: return "read-only";
	case ZF2FS_ZONE_FULL: return "full";
	case ZF2FS_ZONE_OFFLINE: return "offline";
	default: return "unknown";
	}
}

ZF2FS_EXPORT uint64_t zf2fs_sec_blk_pos(uint32_t segs_per_sec, uint32_t segno, uint32_t blkoff)
{
	uint32_t sps = segs_per_sec ? segs_per_sec : 1;

	return (uint64_t)(segno % sps) * ZF2FS_BLOCKS_PER_SEG + blkoff;
}

ZF2FS_EXPORT const char *zf2fs_sec_zone_state(const struct zf2fs_sec_zone *z)
{
	if (z->type == ZF2FS_ZONE_NONE)
		return "regular";
	if (z->type == ZF2FS_ZONE_CONV)
		return "conventional";
	switch (z->cond) {
	case ZF2FS_ZONE_EMPTY: return "empty";
	case ZF2FS_ZONE_IMP_OPEN:
	case ZF2FS_ZONE_EXP_OPEN: return "open";
	case ZF2FS_ZONE_CLOSED: return "closed";
	case ZF2FS_ZONE_FULL: return "full";
	case ZF2FS_ZONE_READONLY: return "read-only";
	case ZF2FS_ZONE_OFFLINE: return "offline";
	default: return "unknown";
	}
}

/* 0 when @dev is a zoned block device we can talk to; -ENOTBLK or -ENOTSUP otherwise. */
static int zoned_dev_check(struct zf2fs_dev *dev)
{
	if (!dev || !dev->is_bdev)
		return -ENOTBLK;
#ifdef HAVE_LIBZBD
	return zbd_device_is_zoned(dev->path) ? 0 : -ENOTBLK;
#else
	{
		struct zf2fs_dev_geom g;
		int err = zf2fs_dev_geometry(dev, &g);   /* logs the missing libzbd */

		if (err)
			return err;
		return g.zone_model == ZF2FS_ZONED_NONE ? -ENOTBLK : -ENOTSUP;
	}
#endif
}

/* ---- a zoned device emulated in memory (tests: lib/test_hooks.c) ------------------------- */
static int emu_report(struct zf2fs_dev *dev, uint64_t ofs, uint64_t len,
		      struct zf2fs_zone **ret_zones, unsigned int *ret_nr)
{
	const struct zf2fs_dev_geom *g = dev->emu;
	uint64_t end = len ? ofs + len : dev->size;
	struct zf2fs_zone *out = calloc(g->nr_zones ? g->nr_zones : 1, sizeof(*out));
	unsigned int n = 0;

	if (!out)
		return -ENOMEM;
	for (uint32_t z = 0; z < g->nr_zones; z++) {
		struct zf2fs_zone *o = &out[n];
		uint64_t start = z * g->zone_bytes;

		if (start + g->zone_bytes <= ofs || start >= end)
			continue;
		n++;
		o->start = start;
		o->len = g->zone_bytes;
		o->capacity = z < g->nr_conv_zones ? g->zone_bytes : g->zone_cap_bytes;
		if (z < g->nr_conv_zones) {
			o->type = ZF2FS_ZONE_CONV;
			o->cond = ZF2FS_ZONE_NOT_WP;
			o->wp = start;
			continue;
		}
		o->type = ZF2FS_ZONE_SEQ_REQ;
		o->wp = dev->wp[z];
		o->cond = o->wp == start ? ZF2FS_ZONE_EMPTY :
			  o->wp >= start + o->capacity ? ZF2FS_ZONE_FULL : ZF2FS_ZONE_CLOSED;
	}
	*ret_zones = out;
	*ret_nr = n;
	return 0;
}

static int emu_reset(struct zf2fs_dev *dev, uint64_t ofs, uint64_t len)
{
	const struct zf2fs_dev_geom *g = dev->emu;

	if (!dev->writable)
		return -EBADF;
	if (!len || ofs % g->zone_bytes || len % g->zone_bytes || ofs + len > dev->size)
		return -EINVAL;
	for (uint64_t z = ofs / g->zone_bytes; z < (ofs + len) / g->zone_bytes; z++) {
		uint64_t start = z * g->zone_bytes;

		if (z < g->nr_conv_zones)
			continue;
		/* only the written part: past the write pointer nothing was written, and
		 * untouched pages of a large emulated device stay unallocated */
		if (dev->wp[z] > start) {
			memset(dev->mem + start, 0, (size_t)(dev->wp[z] - start));
			zf2fs_dev_mem_mark(dev, start, dev->wp[z] - start);
		}
		dev->wp[z] = start;
	}
	return 0;
}

ZF2FS_EXPORT int zf2fs_dev_report_zones(struct zf2fs_dev *dev, uint64_t ofs, uint64_t len,
					struct zf2fs_zone **ret_zones, unsigned int *ret_nr)
{
	int err;

	*ret_zones = NULL;
	*ret_nr = 0;
	if (dev && dev->emu && dev->wp)
		return emu_report(dev, ofs, len, ret_zones, ret_nr);
	err = zoned_dev_check(dev);
	if (err)
		return err;
#ifdef HAVE_LIBZBD
	{
		struct zbd_info info;
		struct zbd_zone *zz = NULL;
		struct zf2fs_zone *out;
		unsigned int nr = 0;
		int fd = zbd_open(dev->path, O_RDONLY, &info);

		if (fd < 0) {
			err = -errno;
			zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0, "%s: while opening zoned device %s",
				   strerror(-err), dev->path);
			return err;
		}
		if (zbd_list_zones(fd, (off_t)ofs, (off_t)len, ZBD_RO_ALL, &zz, &nr)) {
			err = errno ? -errno : -EIO;
			zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0, "%s: while reporting the zones of %s",
				   strerror(-err), dev->path);
			zbd_close(fd);
			return err;
		}
		zbd_close(fd);
		out = calloc(nr ? nr : 1, sizeof(*out));
		if (!out) {
			free(zz);
			return -ENOMEM;
		}
		for (unsigned int i = 0; i < nr; i++) {
			out[i].start = zbd_zone_start(&zz[i]);
			out[i].len = zbd_zone_len(&zz[i]);
			out[i].capacity = zbd_zone_capacity(&zz[i]);
			out[i].wp = zbd_zone_wp(&zz[i]);
			out[i].type = (enum zf2fs_zone_type)zbd_zone_type(&zz[i]);
			out[i].cond = (enum zf2fs_zone_cond)zbd_zone_cond(&zz[i]);
		}
		free(zz);
		*ret_zones = out;
		*ret_nr = nr;
		return 0;
	}
#else
	(void)ofs;
	(void)len;
	return -ENOTSUP;
#endif
}

enum zone_op { OP_RESET, OP_FINISH };

static int zone_op(struct zf2fs_dev *dev, enum zone_op op, uint64_t ofs, uint64_t len)
{
	int err;

	if (dev && !dev->writable)
		return -EBADF;
	if (dev && dev->emu && dev->wp && op == OP_RESET)
		return emu_reset(dev, ofs, len);
	err = zoned_dev_check(dev);
	if (err)
		return err;
#ifdef HAVE_LIBZBD
	{
		struct zbd_info info;
		int fd = zbd_open(dev->path, O_RDWR, &info);
		const char *what = op == OP_RESET ? "resetting" : "finishing";

		if (fd < 0) {
			err = -errno;
			zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0, "%s: while opening zoned device %s",
				   strerror(-err), dev->path);
			return err;
		}
		if (!len || ofs % info.zone_size || len % info.zone_size) {
			zbd_close(fd);
			return -EINVAL;
		}
		if ((op == OP_RESET ? zbd_reset_zones(fd, (off_t)ofs, (off_t)len) :
		     zbd_finish_zones(fd, (off_t)ofs, (off_t)len))) {
			err = errno ? -errno : -EIO;
			zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0, "%s: while %s the zones at byte %llu "
				   "(+%llu) of %s", strerror(-err), what, (unsigned long long)ofs,
				   (unsigned long long)len, dev->path);
		}
		zbd_close(fd);
		return err;
	}
#else
	(void)op;
	(void)ofs;
	(void)len;
	return -ENOTSUP;
#endif
}

ZF2FS_EXPORT int zf2fs_dev_reset_zone_range(struct zf2fs_dev *dev, uint64_t ofs, uint64_t len)
{
	return zone_op(dev, OP_RESET, ofs, len);
}

ZF2FS_EXPORT int zf2fs_dev_finish_zone_range(struct zf2fs_dev *dev, uint64_t ofs, uint64_t len)
{
	return zone_op(dev, OP_FINISH, ofs, len);
}

/* ---- volumes ------------------------------------------------------------------------ */
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
			zn = zone_at(zones[z->dev], nzones[z->dev], dblk * ZF2FS_BLKSIZE);
		if (zn) {
			uint64_t wp = zn->wp > zn->start ? zn->wp - zn->start : 0;

			z->type = zn->type;
			z->cond = zn->cond;
			z->zone_blkaddr = vol->dev_start[z->dev] + zn->start / ZF2FS_BLKSIZE;
			z->zone_blocks = (uint32_t)(zn->len / ZF2FS_BLKSIZE);
			z->cap_blocks = (uint32_t)(zn->capacity / ZF2FS_BLKSIZE);
			if (zn->type == ZF2FS_ZONE_CONV) {
				z->wp_blocks = 0;
			} else if (zn->cond == ZF2FS_ZONE_FULL || wp > zn->capacity) {
				z->wp_blocks = z->cap_blocks;
			} else {
				z->wp_blocks = (uint32_t)(wp / ZF2FS_BLKSIZE);
				z->wp_partial = wp % ZF2FS_BLKSIZE != 0;
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
			if (zones[i].len / ZF2FS_BLKSIZE != sec_blocks ||
			    zones[i].capacity > zones[i].len) {
				err = -EINVAL;
				break;
			}
			u = (zones[i].len - zones[i].capacity) / ZF2FS_BLKSIZE;
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

static int vol_zone_op(struct zf2fs_vol *vol, const struct zf2fs_sec_zone *z, enum zone_op op)
{
	uint64_t ofs;

	if (z->type != ZF2FS_ZONE_SEQ_REQ && z->type != ZF2FS_ZONE_SEQ_PREF)
		return -EINVAL;
	if (z->dev >= vol->ndevs || z->zone_blkaddr < vol->dev_start[z->dev])
		return -EINVAL;
	ofs = (z->zone_blkaddr - vol->dev_start[z->dev]) * ZF2FS_BLKSIZE;
	return zone_op(vol->dev[z->dev], op, ofs, (uint64_t)z->zone_blocks * ZF2FS_BLKSIZE);
}

ZF2FS_EXPORT int zf2fs_vol_reset_zone(struct zf2fs_vol *vol, const struct zf2fs_sec_zone *z)
{
	return vol_zone_op(vol, z, OP_RESET);
}

ZF2FS_EXPORT int zf2fs_vol_finish_zone(struct zf2fs_vol *vol, const struct zf2fs_sec_zone *z)
{
	return vol_zone_op(vol, z, OP_FINISH);
}
