// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_hooks.c - the memory device and the write-fault counters, for tests.
 *
 * Part of the tools' helper library, not of libzf2fs: the library only honours a device's
 * fail_after field (lib/device/device.c counts every write against it), the hooks here set it
 * and build memory devices on the backend interface of device_p.h.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "device/device_p.h"
#include "helper.h"
#include "zf2fs/load.h"
#include <stdbool.h>

static int mem_pread(struct zf2fs_dev *dev, void *buf, size_t len, uint64_t off)
{
	memcpy(buf, dev->mem + off, len);
	return 0;
}

/* Memory devices by number, for copies to know their source (test code only). */
static unsigned long mem_devices;

static int mem_pwrite(struct zf2fs_dev *dev, const void *buf, size_t len, uint64_t off)
{
	memcpy(dev->mem + off, buf, len);
	zf2fs_dev_mem_mark(dev, off, len);
	return 0;
}

static int mem_zero(struct zf2fs_dev *dev, uint64_t off, uint64_t len)
{
	memset(dev->mem + off, 0, (size_t)len);
	zf2fs_dev_mem_mark(dev, off, len);
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

/* ---- an emulated host-managed zoned device ---------------------------------------------- */
/* Sequential zones take writes only at their write pointer and below their capacity. */
static int zoned_check(struct zf2fs_dev *dev, uint64_t len, uint64_t off, bool advance)
{
	const struct zf2fs_dev_geom *g = dev->emu;
	uint64_t z = off / g->zone_bytes, start = z * g->zone_bytes;

	if (z < g->nr_conv_zones)
		return (off + len + g->zone_bytes - 1) / g->zone_bytes <= g->nr_conv_zones ? 0 : -EIO;
	if (off != dev->wp[z] || off + len > start + g->zone_cap_bytes) {
		zf2fs_logf(&dev->log, ZF2FS_MSG_ERROR, 0, "%s: zone %llu: write of %llu bytes at "
			   "%llu, write pointer at %llu, capacity %llu", dev->path,
			   (unsigned long long)z, (unsigned long long)len, (unsigned long long)off,
			   (unsigned long long)dev->wp[z], (unsigned long long)g->zone_cap_bytes);
		return -EIO;
	}
	if (advance)
		dev->wp[z] += len;
	return 0;
}

static int zmem_pwrite(struct zf2fs_dev *dev, const void *buf, size_t len, uint64_t off)
{
	int err = zoned_check(dev, len, off, true);

	return err ? err : mem_pwrite(dev, buf, len, off);
}

static int zmem_zero(struct zf2fs_dev *dev, uint64_t off, uint64_t len)
{
	int err = zoned_check(dev, len, off, true);

	return err ? err : mem_zero(dev, off, len);
}

/* Every sequential zone emptied.  Only the written part of each is cleared (nothing lies
 * past a write pointer), so that the untouched pages of a large emulated device (a grow's
 * gigabyte) are never allocated. */
static int zmem_reset(struct zf2fs_dev *dev)
{
	const struct zf2fs_dev_geom *g = dev->emu;

	for (uint64_t z = g->nr_conv_zones; z < g->nr_zones; z++) {
		uint64_t start = z * g->zone_bytes;

		if (dev->wp[z] > start) {
			memset(dev->mem + start, 0, (size_t)(dev->wp[z] - start));
			zf2fs_dev_mem_mark(dev, start, dev->wp[z] - start);
		}
		dev->wp[z] = start;
	}
	return 0;
}

static const struct dev_ops zmem_ops = {
	.pread = mem_pread, .pwrite = zmem_pwrite, .zero = zmem_zero,
	.discard = zmem_zero, .sync = mem_sync, .reset_zones = zmem_reset,
};

int zs_dev_open_memory_zoned(uint64_t bytes, uint64_t zone_bytes, uint64_t cap_bytes,
			     uint32_t nr_conv, const struct zf2fs_log *log,
			     struct zf2fs_dev **ret_dev)
{
	struct zf2fs_dev *dev;
	int err;

	*ret_dev = NULL;
	if (!zone_bytes || bytes % zone_bytes || cap_bytes > zone_bytes ||
	    nr_conv > bytes / zone_bytes)
		return -EINVAL;
	err = zs_dev_open_memory(bytes, log, &dev);
	if (err)
		return err;
	dev->emu = calloc(1, sizeof(*dev->emu));
	dev->wp = calloc(bytes / zone_bytes, sizeof(*dev->wp));
	if (!dev->emu || !dev->wp) {
		zf2fs_dev_close(dev);
		return -ENOMEM;
	}
	dev->emu->sector_size = 4096;
	dev->emu->zone_model = ZF2FS_ZONED_HM;
	dev->emu->zone_bytes = zone_bytes;
	dev->emu->zone_cap_bytes = cap_bytes;
	dev->emu->nr_zones = (uint32_t)(bytes / zone_bytes);
	dev->emu->nr_conv_zones = nr_conv;
	dev->sector_size = 4096;
	dev->ops = &zmem_ops;
	zmem_reset(dev);
	*ret_dev = dev;
	return 0;
}

/* Copy @src's bytes and write pointers into @dst, an emulated device of the same
 * geometry (tests restore a formatted image this way). */
int zs_dev_copy_memory(struct zf2fs_dev *dst, const struct zf2fs_dev *src)
{
	if (!dst->is_mem || !src->is_mem || dst->size != src->size || !dst->emu != !src->emu)
		return -EINVAL;
	/* chunk by chunk, skipping those never written on either side (zero): the untouched
	 * pages of a large device stay unallocated in the copy too, and a copy of a gigabyte
	 * device holding a few megabytes takes no longer than they do */
	/* and, when @dst was last copied from @src as it is now, skipping the chunks not
	 * written since (a fault sweep puts a device back thousands of times) */
	bool same = dst->copy_src == src->mem_id && dst->copy_gen == src->mem_gen;

	for (uint64_t c = 0; c * DEV_MEM_CHUNK < src->size; c++) {
		uint64_t off = c * DEV_MEM_CHUNK;
		size_t n = (size_t)(src->size - off < DEV_MEM_CHUNK ? src->size - off : DEV_MEM_CHUNK);

		if (src->dirty[c] && !(same && dst->dirty[c] == DIRTY_AS_SOURCE))
			memcpy(dst->mem + off, src->mem + off, n);
		else if (!src->dirty[c] && dst->dirty[c])
			memset(dst->mem + off, 0, n);
		dst->dirty[c] = src->dirty[c] ? DIRTY_AS_SOURCE : 0;
	}
	dst->copy_src = src->mem_id;
	dst->copy_gen = src->mem_gen;
	if (src->emu)
		memcpy(dst->wp, src->wp, src->emu->nr_zones * sizeof(*src->wp));
	return 0;
}

int zs_dev_open_memory(uint64_t bytes, const struct zf2fs_log *log,
		       struct zf2fs_dev **ret_dev)
{
	struct zf2fs_dev *dev = calloc(1, sizeof(*dev));

	*ret_dev = NULL;
	if (!dev)
		return -ENOMEM;
	dev->fd = -1;
	dev->read_trace = -1;
	dev->path = strdup("<memory>");
	dev->mem = calloc(1, (size_t)bytes);
	dev->dirty = calloc(bytes / DEV_MEM_CHUNK + 1, 1);
	dev->mem_id = ++mem_devices;
	if (!dev->path || !dev->mem || !dev->dirty) {
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

const uint8_t *zs_dev_memory(const struct zf2fs_dev *dev)
{
	return dev->is_mem ? dev->mem : NULL;
}

void zs_test_load_flush(struct zf2fs_load_opts *o)
{
	const char *v = getenv("ZF2FS_LOAD_FLUSH");
	unsigned long n = v ? strtoul(v, NULL, 10) : 0;

	if (n && n <= UINT32_MAX)
		o->flush_blocks = o->flush_inodes = (uint32_t)n;
}

void zs_dev_fail_writes_after(struct zf2fs_dev *dev, unsigned long n)
{
	dev->fail_after = n ? dev->write_count + n : 0;
}

void zs_dev_fail_writes_from_env(struct zf2fs_dev *dev)
{
	const char *n = getenv("ZF2FS_FAULT_WRITES");

	if (n)
		zs_dev_fail_writes_after(dev, strtoul(n, NULL, 10));
}

unsigned long zs_dev_write_count(const struct zf2fs_dev *dev)
{
	return dev->write_count;
}

void zs_dev_restrict_reads(struct zf2fs_dev *dev, uint64_t start, uint64_t end)
{
	dev->read_start = start;
	dev->read_end = end;
	dev->reads_refused = 0;
}

unsigned long zs_dev_reads_refused(const struct zf2fs_dev *dev)
{
	return dev->reads_refused;
}

void zs_dev_trace_reads(struct zf2fs_dev *dev, int fd)
{
	dev->read_trace = fd;
}
