/* SPDX-License-Identifier: GPL-2.0-or-later */
/* device_p.h - the device handle, shared by the device modules of the library only. */
#ifndef ZF2FS_DEVICE_P_H
#define ZF2FS_DEVICE_P_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

struct dev_ops;

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
	unsigned long write_count, fail_after;
	uint64_t read_start, read_end;   /* tests: reads outside fail; read_end 0: no limit */
	unsigned long reads_refused;
	struct zf2fs_log log;
};

#endif
