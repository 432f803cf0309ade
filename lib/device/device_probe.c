// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * device_probe.c - what is on a device before we touch it, and its geometry.
 *
 * mkfs must refuse a mounted device and must not overwrite an existing filesystem
 * without -f: the mount table (including loop devices backed by an image file) and
 * libblkid answer those.  Geometry covers sizes, sector size and, for zoned block
 * devices, the zone model, zone size, capacity and conventional zones (through libzbd).
 */
#include "config.h"
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid.h>
#ifdef HAVE_LIBZBD
#include <libzbd/zbd.h>
#endif

#include "device/device_p.h"
#include "zf2fs-internal/device.h"

/* Does a loop device use @file (resolved path) as its backing file?  Copies its node. */
static bool loop_backing(const char *file, char *loopdev, size_t len)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char p[PATH_MAX], back[PATH_MAX];
		FILE *f;

		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file", e->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(back, sizeof(back), f)) {
			back[strcspn(back, "\n")] = 0;
			if (!strcmp(back, file)) {
				snprintf(loopdev, len, "/dev/%.*s", (int)(len > 6 ? len - 6 : 0), e->d_name);
				found = true;
			}
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

static bool same_node(const char *a, const struct stat *sb)
{
	struct stat sa;

	if (stat(a, &sa))
		return false;
	if (S_ISBLK(sb->st_mode))
		return S_ISBLK(sa.st_mode) && sa.st_rdev == sb->st_rdev;
	return sa.st_dev == sb->st_dev && sa.st_ino == sb->st_ino;
}

ZF2FS_EXPORT int zf2fs_path_is_mounted(const char *path)
{
	char real[PATH_MAX], loopdev[64] = "";
	struct stat st;
	struct mntent *m;
	FILE *f;
	int mounted = 0;

	if (!realpath(path, real) || stat(real, &st))
		return -errno;
	if (S_ISREG(st.st_mode))
		loop_backing(real, loopdev, sizeof(loopdev));
	f = setmntent("/proc/self/mounts", "r");
	if (!f)
		return -errno;
	while (!mounted && (m = getmntent(f))) {
		if (m->mnt_fsname[0] != '/')
			continue;
		if (same_node(m->mnt_fsname, &st) || (loopdev[0] && !strcmp(m->mnt_fsname, loopdev)))
			mounted = 1;
	}
	endmntent(f);
	return mounted;
}

ZF2FS_EXPORT int zf2fs_dev_probe_existing(struct zf2fs_dev *dev, char *type, size_t typelen)
{
	blkid_probe pr;
	const char *val = NULL;
	int rc, found = 0;

	if (dev->is_mem)
		return 0;
	pr = blkid_new_probe();
	if (!pr)
		return -ENOMEM;
	if (blkid_probe_set_device(pr, dev->fd, 0, 0)) {
		blkid_free_probe(pr);
		return -EIO;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		if (!blkid_probe_lookup_value(pr, "TYPE", &val, NULL) ||
		    !blkid_probe_lookup_value(pr, "PTTYPE", &val, NULL)) {
			snprintf(type, typelen, "%s", val);
			found = 1;
		}
	} else if (rc < 0) {
		/* ambivalent results (-2) still mean something is there */
		snprintf(type, typelen, "%s", "unknown");
		found = rc == -2;
	}
	blkid_free_probe(pr);
	return found;
}

ZF2FS_EXPORT bool zf2fs_have_zoned_support(void)
{
#ifdef HAVE_LIBZBD
	return true;
#else
	return false;
#endif
}

/* Zone model from sysfs ("none", "host-aware", "host-managed"). */
static enum zf2fs_zone_model sysfs_zone_model(const struct zf2fs_dev *dev)
{
	char p[PATH_MAX], buf[32] = "";
	struct stat st;
	FILE *f;

	if (!dev->is_bdev || fstat(dev->fd, &st))
		return ZF2FS_ZONED_NONE;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/queue/zoned", major(st.st_rdev),
		 minor(st.st_rdev));
	f = fopen(p, "r");
	if (!f) {
		/* a partition: its queue lives with the parent disk */
		snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/../queue/zoned", major(st.st_rdev),
			 minor(st.st_rdev));
		f = fopen(p, "r");
	}
	if (!f)
		return ZF2FS_ZONED_NONE;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	if (!strncmp(buf, "host-managed", 12))
		return ZF2FS_ZONED_HM;
	if (!strncmp(buf, "host-aware", 10))
		return ZF2FS_ZONED_HA;
	return ZF2FS_ZONED_NONE;
}

#ifdef HAVE_LIBZBD
static int zbd_geometry(struct zf2fs_dev *dev, struct zf2fs_dev_geom *g)
{
	struct zbd_info info;
	struct zbd_zone *zones = NULL;
	unsigned int nr = 0;
	int fd, err = 0;

	fd = zbd_open(dev->path, O_RDONLY, &info);
	if (fd < 0) {
		zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0, "%s: while opening zoned device %s",
			   strerror(errno), dev->path);
		return -errno;
	}
	if (zbd_list_zones(fd, 0, 0, ZBD_RO_ALL, &zones, &nr)) {
		err = -errno;
		goto out;
	}
	g->zone_bytes = info.zone_size;
	g->nr_zones = nr;
	g->nr_conv_zones = 0;
	g->zone_cap_bytes = info.zone_size;
	for (unsigned int i = 0; i < nr; i++) {
		if (zbd_zone_cnv(&zones[i])) {
			if (g->nr_conv_zones == i)
				g->nr_conv_zones++;
			continue;
		}
		if (zbd_zone_capacity(&zones[i]) < g->zone_cap_bytes)
			g->zone_cap_bytes = zbd_zone_capacity(&zones[i]);
	}
	free(zones);
out:
	zbd_close(fd);
	return err;
}
#endif

ZF2FS_EXPORT int zf2fs_dev_geometry(struct zf2fs_dev *dev, struct zf2fs_dev_geom *g)
{
	memset(g, 0, sizeof(*g));
	if (dev->emu) {   /* a zoned device emulated in memory (tests) */
		*g = *dev->emu;
		g->bytes = dev->size;
		return 0;
	}
	g->bytes = dev->size;
	g->sector_size = dev->sector_size;
	g->start_sector = dev->start_sector;
	g->zone_model = sysfs_zone_model(dev);
	if (g->zone_model == ZF2FS_ZONED_NONE)
		return 0;
#ifdef HAVE_LIBZBD
	return zbd_geometry(dev, g);
#else
	zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0,
		   "%s is a zoned block device, but this build has no libzbd support "
		   "(rebuild with libzbd-dev installed)", dev->path);
	return -ENOTSUP;
#endif
}

int zf2fs_dev_reset_zones(struct zf2fs_dev *dev)
{
	if (dev->ops->reset_zones)
		return dev->ops->reset_zones(dev);
#ifdef HAVE_LIBZBD
	struct zbd_info info;
	int fd = zbd_open(dev->path, O_RDWR, &info);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (zbd_reset_zones(fd, 0, 0)) {
		err = -errno;
		zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0, "%s: while resetting the zones of %s",
			   strerror(errno), dev->path);
	}
	zbd_close(fd);
	return err;
#else
	(void)dev;
	return -ENOTSUP;
#endif
}
