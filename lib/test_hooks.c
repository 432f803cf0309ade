// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_hooks.c - the memory device and the write-fault counters, for tests.
 *
 * Part of the tools' helper library, not of libzf2fs: the library only honours a device's
 * fail_after field (lib/device.c counts every write against it), the hooks here set it
 * and build memory devices on the backend interface of device_p.h.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "device_p.h"
#include "helper.h"

static int mem_pread(struct zf2fs_dev *dev, void *buf, size_t len, uint64_t off)
{
	memcpy(buf, dev->mem + off, len);
	return 0;
}

static int mem_pwrite(struct zf2fs_dev *dev, const void *buf, size_t len, uint64_t off)
{
	memcpy(dev->mem + off, buf, len);
	return 0;
}

static int mem_zero(struct zf2fs_dev *dev, uint64_t off, uint64_t len)
{
	memset(dev->mem + off, 0, (size_t)len);
	return 0;
}

static int mem_sync(struct zf2fs_dev *dev)
{
	(void)dev;
	return 0;
}

static const struct dev_ops mem_ops = {
	.pread = mem_pread, .pwrite = mem_pwrite, .zero = mem_zero,
	.discard = mem_zero, .sync = mem_sync,
};

int zf2fs_dev_open_memory(uint64_t bytes, const struct zf2fs_log *log,
			  struct zf2fs_dev **ret_dev)
{
	struct zf2fs_dev *dev = calloc(1, sizeof(*dev));

	*ret_dev = NULL;
	if (!dev)
		return -ENOMEM;
	dev->fd = -1;
	dev->path = strdup("<memory>");
	dev->mem = calloc(1, (size_t)bytes);
	if (!dev->path || !dev->mem) {
		zf2fs_dev_close(dev);
		return -ENOMEM;
	}
	if (log)
		dev->log = *log;
	else
		dev->log.level = 1;
	dev->sector_size = 512;
	dev->ops = &mem_ops;
	dev->is_mem = true;
	dev->writable = true;
	dev->size = dev->real_size = bytes;
	*ret_dev = dev;
	return 0;
}

const uint8_t *zf2fs_dev_memory(const struct zf2fs_dev *dev)
{
	return dev->is_mem ? dev->mem : NULL;
}

void zf2fs_dev_fail_writes_after(struct zf2fs_dev *dev, unsigned long n)
{
	dev->fail_after = n ? dev->write_count + n : 0;
}

unsigned long zf2fs_dev_write_count(const struct zf2fs_dev *dev)
{
	return dev->write_count;
}
