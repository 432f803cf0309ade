// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * zoned.c - zone reports and zone operations on zoned devices (include/zf2fs/zoned.h,
 * device level); the zones under a volume's sections are lib/read/vol_zones.c's.
 *
 * Every zone call opens its own descriptor through libzbd (the handle's own descriptor
 * may be exclusive or a plain file); nothing is cached, so a report always shows the
 * device as it is now.
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

#include "device/device_p.h"
#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "zf2fs/zoned.h"

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

/* ---- a zoned device emulated in memory (tests: support/test_hooks.c) ------------------------- */
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
