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
	unsigned long fail_after;    /* tests (lib/test_hooks.c): fail from this write on */
	uint64_t read_start, read_end;   /* tests: reads outside fail; read_end 0: no limit */
	unsigned long reads_refused;
	struct zf2fs_dev_geom *emu;  /* tests: the zoned geometry a memory device emulates */
	uint64_t *wp;                /* tests: its zones' write pointers (bytes) */
	uint8_t *dirty;              /* tests: per DEV_MEM_CHUNK of mem, 1 once written
				      * (copies skip the chunks zero on both sides) */
	struct zf2fs_log log;
};

#endif
