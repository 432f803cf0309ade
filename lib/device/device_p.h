/* SPDX-License-Identifier: GPL-2.0-or-later */
/* device_p.h - the device handle, shared by the device modules of the library only. */
#ifndef ZF2FS_DEVICE_P_H
#define ZF2FS_DEVICE_P_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

/* A backend: whole transfers, the range already checked. */
struct dev_ops {
	int (*pread)(struct zf2fs_dev *dev, void *buf, size_t len, uint64_t off);
	int (*pwrite)(struct zf2fs_dev *dev, const void *buf, size_t len, uint64_t off);
	int (*zero)(struct zf2fs_dev *dev, uint64_t off, uint64_t len);
	int (*discard)(struct zf2fs_dev *dev, uint64_t off, uint64_t len);
	int (*sync)(struct zf2fs_dev *dev);
	int (*reset_zones)(struct zf2fs_dev *dev);   /* emulated zoned devices only */
};

#define DEV_MEM_CHUNK (64 * 1024)
#define DIRTY_WRITTEN 1     /* a memory device's chunk written */
#define DIRTY_AS_SOURCE 2   /* copied, and not written since */

struct zf2fs_dev {
	char *path;
	int fd;
	const struct dev_ops *ops;
	bool is_file, is_bdev, is_mem, writable;
	uint8_t *mem;
	uint64_t size;            /* bytes used (may be limited below real_size) */
	uint64_t real_size;
	uint32_t sector_size;
	uint64_t start_sector;    /* partition start, 512-byte units */
	unsigned long write_count;   /* writes, zeroings and discards that succeeded */
	unsigned long fail_after;    /* tests (support/test_hooks.c): fail from this write on */
	uint64_t read_start, read_end;   /* tests: reads outside fail; read_end 0: no limit */
	unsigned long reads_refused;
	int read_trace;              /* tests: an fd that gets "offset length" per read, or -1 */
	struct zf2fs_dev_geom *emu;  /* tests: the zoned geometry a memory device emulates */
	uint64_t *wp;                /* tests: its zones' write pointers (bytes) */
	uint8_t *dirty;              /* tests: per DEV_MEM_CHUNK of mem, DIRTY_* once
				      * written (copies skip the chunks zero on both sides) */
	unsigned long mem_id;        /* tests: this memory device's number */
	unsigned long mem_gen;       /* tests: bumped by every write */
	unsigned long copy_src, copy_gen;   /* tests: the device and generation last
					     * copied onto this one */
	struct zf2fs_log log;
};

/* Tests: a memory device's bytes [@off, @off + @len) changed (copies compare the marks). */
static inline void zf2fs_dev_mem_mark(struct zf2fs_dev *dev, uint64_t off, uint64_t len)
{
	for (uint64_t c = off / DEV_MEM_CHUNK; len && c <= (off + len - 1) / DEV_MEM_CHUNK; c++)
		dev->dirty[c] = DIRTY_WRITTEN;
	dev->mem_gen++;
}

uint64_t zf2fs_dev_size(const struct zf2fs_dev *dev);

/* Reset every sequential zone of a zoned device (needs libzbd; -ENOTSUP without). */
int zf2fs_dev_reset_zones(struct zf2fs_dev *dev);

#endif
