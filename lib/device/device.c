// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * device.c - block I/O on regular files, block devices and memory.
 *
 * One small ops table per backend (unix fd, memory) so that tests can run the whole mkfs
 * in memory and so that a fault can be injected on the N-th write.  Every failed or short
 * transfer is reported with the device path and the byte offset, and nothing is ever
 * written past the end of the device.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#ifdef HAVE_LINUX_FS_H
#include <linux/fs.h>
#include <linux/falloc.h>
#endif

#include "device/device_p.h"
#include "zf2fs-internal/device.h"

/* ---- unix backend ----------------------------------------------------------------------- */
static int fd_pread(struct zf2fs_dev *dev, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(dev->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int fd_pwrite(struct zf2fs_dev *dev, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = pwrite(dev->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int write_zeros(struct zf2fs_dev *dev, uint64_t off, uint64_t len)
{
	static const uint8_t zeros[65536];

	while (len) {
		size_t chunk = len < sizeof(zeros) ? (size_t)len : sizeof(zeros);
		int err = fd_pwrite(dev, zeros, chunk, off);

		if (err)
			return err;
		off += chunk;
		len -= chunk;
	}
	return 0;
}

static int fd_zero(struct zf2fs_dev *dev, uint64_t off, uint64_t len)
{
	if (dev->is_file) {
		if (fallocate(dev->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      (off_t)off, (off_t)len) == 0)
			return 0;
		if (errno != EOPNOTSUPP && errno != ENOSYS)
			return -errno;
	}
#ifdef BLKZEROOUT
	if (dev->is_bdev) {
		uint64_t range[2] = { off, len };

		if (ioctl(dev->fd, BLKZEROOUT, range) == 0)
			return 0;
	}
#endif
	return write_zeros(dev, off, len);
}

static int fd_discard(struct zf2fs_dev *dev, uint64_t off, uint64_t len)
{
	if (dev->is_file) {
		if (fallocate(dev->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      (off_t)off, (off_t)len) == 0)
			return 0;
		return -errno;
	}
#ifdef BLKDISCARD
	if (dev->is_bdev) {
		uint64_t range[2] = { off, len };

		if (ioctl(dev->fd, BLKDISCARD, range) == 0)
			return 0;
		return -errno;
	}
#endif
	return -EOPNOTSUPP;
}

static int fd_sync(struct zf2fs_dev *dev)
{
	return fsync(dev->fd) ? -errno : 0;
}

static const struct dev_ops fd_ops = {
	.pread = fd_pread, .pwrite = fd_pwrite, .zero = fd_zero,
	.discard = fd_discard, .sync = fd_sync,
};

/* ---- common ------------------------------------------------------------------------------ */
static struct zf2fs_dev *dev_alloc(const char *path, const struct zf2fs_log *log)
{
	struct zf2fs_dev *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return NULL;
	dev->path = strdup(path);
	if (!dev->path) {
		free(dev);
		return NULL;
	}
	dev->fd = -1;
	dev->read_trace = -1;
	if (log)
		dev->log = *log;
	else
		dev->log.level = 1;
	dev->sector_size = 512;
	return dev;
}

static int bdev_start_sector(struct zf2fs_dev *dev, const struct stat *st)
{
	char p[PATH_MAX];
	FILE *f;
	unsigned long long start = 0;

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/start", major(st->st_rdev),
		 minor(st->st_rdev));
	f = fopen(p, "r");
	if (!f)
		return 0;   /* a whole disk has no start file */
	if (fscanf(f, "%llu", &start) != 1)
		start = 0;
	fclose(f);
	dev->start_sector = start;
	return 0;
}

ZF2FS_EXPORT int zf2fs_dev_open(const char *path, int flags, const struct zf2fs_log *log,
				struct zf2fs_dev **ret_dev)
{
	struct zf2fs_dev *dev;
	struct stat st;
	int oflags = O_CLOEXEC, err;

	*ret_dev = NULL;
	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return -ENOTBLK;
	dev = dev_alloc(path, log);
	if (!dev)
		return -ENOMEM;
	dev->ops = &fd_ops;
	oflags |= (flags & ZF2FS_DEV_WRITE) ? O_RDWR : O_RDONLY;
	if ((flags & ZF2FS_DEV_EXCL) && S_ISBLK(st.st_mode))
		oflags |= O_EXCL;
	dev->writable = flags & ZF2FS_DEV_WRITE;
	dev->fd = open(path, oflags);
	if (dev->fd < 0) {
		err = -errno;
		goto out_free;
	}
	if (fstat(dev->fd, &st)) {
		err = -errno;
		goto out_free;
	}
	if (S_ISREG(st.st_mode)) {
		dev->is_file = true;
		dev->size = (uint64_t)st.st_size;
	} else {
		dev->is_bdev = true;
#ifdef BLKGETSIZE64
		if (ioctl(dev->fd, BLKGETSIZE64, &dev->size)) {
			err = -errno;
			goto out_free;
		}
#endif
#ifdef BLKSSZGET
		{
			int ss = 0;

			if (ioctl(dev->fd, BLKSSZGET, &ss) == 0 && ss > 0)
				dev->sector_size = (uint32_t)ss;
		}
#endif
		bdev_start_sector(dev, &st);
	}
	dev->real_size = dev->size;
	*ret_dev = dev;
	return 0;
out_free:
	zf2fs_dev_close(dev);
	return err;
}

ZF2FS_EXPORT void zf2fs_dev_close(struct zf2fs_dev *dev)
{
	if (!dev)
		return;
	if (dev->fd >= 0)
		close(dev->fd);
	free(dev->mem);
	free(dev->dirty);
	free(dev->emu);
	free(dev->wp);
	free(dev->path);
	free(dev);
}

ZF2FS_EXPORT const char *zf2fs_dev_path(const struct zf2fs_dev *dev)
{
	return dev->path;
}

uint64_t zf2fs_dev_size(const struct zf2fs_dev *dev)
{
	return dev->size;
}

ZF2FS_EXPORT int zf2fs_dev_set_size(struct zf2fs_dev *dev, uint64_t bytes)
{
	if (bytes > dev->real_size)
		return -ENOSPC;
	dev->size = bytes;
	return 0;
}

static int check_range(struct zf2fs_dev *dev, const char *what, uint64_t len, uint64_t off)
{
	if (off > dev->size || len > dev->size - off) {
		zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0,
			   "%s of %llu bytes at offset %llu is past the end of %s (%llu bytes)",
			   what, (unsigned long long)len, (unsigned long long)off, dev->path,
			   (unsigned long long)dev->size);
		return -ENOSPC;
	}
	return 0;
}

ZF2FS_EXPORT int zf2fs_dev_read(struct zf2fs_dev *dev, void *buf, size_t len, uint64_t off)
{
	int err = check_range(dev, "read", len, off);

	if (err)
		return err;
	if (dev->read_end && (off < dev->read_start || off + len > dev->read_end)) {
		dev->reads_refused++;
		zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0, "%s: read at offset %llu is outside the "
			   "allowed range", dev->path, (unsigned long long)off);
		return -EACCES;
	}
	err = dev->ops->pread(dev, buf, len, off);
	if (err)
		zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0, "%s: while reading %s at offset %llu",
			   strerror(-err), dev->path, (unsigned long long)off);
	else if (dev->read_trace >= 0)
		dprintf(dev->read_trace, "%llu %zu\n", (unsigned long long)off, len);
	return err;
}

int zf2fs_dev_willneed(struct zf2fs_dev *dev, uint64_t off, uint64_t len)
{
	if (dev->fd < 0 || dev->is_mem || !len || off >= dev->size || len > dev->size - off)
		return 0;
	return -posix_fadvise(dev->fd, (off_t)off, (off_t)len, POSIX_FADV_WILLNEED);
}

/* A read that logs nothing: -ERANGE past the end, -EACCES outside a test's allowed range;
 * traced with @mark.  @read_fn is the device's own, or fd_pread for a second thread (which
 * touches no state of @dev but its file descriptor). */
static int read_unlogged(struct zf2fs_dev *dev, void *buf, size_t len, uint64_t off,
			 int (*read_fn)(struct zf2fs_dev *, void *, size_t, uint64_t),
			 const char *mark)
{
	int err;

	if (off > dev->size || len > dev->size - off)
		return -ERANGE;
	if (dev->read_end && (off < dev->read_start || off + len > dev->read_end))
		return -EACCES;
	err = read_fn(dev, buf, len, off);
	if (!err && dev->read_trace >= 0)
		dprintf(dev->read_trace, "%llu %zu%s\n", (unsigned long long)off, len, mark);
	return err;
}

int zf2fs_dev_read_ahead(struct zf2fs_dev *dev, void *buf, size_t len, uint64_t off)
{
	if (dev->fd < 0 || dev->is_mem)
		return -EOPNOTSUPP;
	return read_unlogged(dev, buf, len, off, fd_pread, " ra");
}

int zf2fs_dev_read_quiet(struct zf2fs_dev *dev, void *buf, size_t len, uint64_t off)
{
	return read_unlogged(dev, buf, len, off, dev->ops->pread, "");
}

/* Writes, zeroing and discards all count as writes for fault injection. */
static int injected_fault(struct zf2fs_dev *dev, uint64_t off)
{
	if (!dev->fail_after || dev->write_count + 1 < dev->fail_after)
		return 0;
	zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0,
		   "%s: while writing %s at offset %llu (injected fault)", strerror(EIO),
		   dev->path, (unsigned long long)off);
	return -EIO;
}

ZF2FS_EXPORT int zf2fs_dev_write(struct zf2fs_dev *dev, const void *buf, size_t len,
				 uint64_t off)
{
	int err = check_range(dev, "write", len, off);

	if (err)
		return err;
	if (!dev->writable)
		return -EBADF;
	err = injected_fault(dev, off);
	if (err)
		return err;
	err = dev->ops->pwrite(dev, buf, len, off);
	if (err) {
		zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0, "%s: while writing %s at offset %llu",
			   strerror(-err), dev->path, (unsigned long long)off);
		return err;
	}
	dev->write_count++;
	return 0;
}

ZF2FS_EXPORT int zf2fs_dev_zero(struct zf2fs_dev *dev, uint64_t off, uint64_t len)
{
	int err = check_range(dev, "zeroing", len, off);

	if (err || !len)
		return err;
	err = injected_fault(dev, off);
	if (err)
		return err;
	err = dev->ops->zero(dev, off, len);
	if (err) {
		zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0,
			   "%s: while zeroing %llu bytes of %s at offset %llu", strerror(-err),
			   (unsigned long long)len, dev->path, (unsigned long long)off);
		return err;
	}
	dev->write_count++;
	return 0;
}

ZF2FS_EXPORT int zf2fs_dev_discard(struct zf2fs_dev *dev, uint64_t off, uint64_t len)
{
	int err = check_range(dev, "discard", len, off);

	if (err || !len)
		return err;
	err = injected_fault(dev, off);
	if (err)
		return err;
	err = dev->ops->discard(dev, off, len);
	if (!err)
		dev->write_count++;
	return err;
}

ZF2FS_EXPORT int zf2fs_dev_sync(struct zf2fs_dev *dev)
{
	int err = dev->ops->sync(dev);

	if (err)
		zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0, "%s: while flushing %s", strerror(-err),
			   dev->path);
	return err;
}
