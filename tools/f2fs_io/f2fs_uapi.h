/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2fs_uapi.h - the kernel interface f2fs_io drives: F2FS's ioctl numbers and argument
 * structures (Linux include/uapi/linux/f2fs.h), the shutdown levels, the inode advice
 * bits behind "system.advise", and the few generic numbers older C libraries lack.
 *
 * Defined here rather than taken from <linux/f2fs.h>: that header only exists in
 * kernel headers from 5.18 on, and the numbers are ABI, so they never change.  The
 * structures carry our own names so that a system header included later cannot clash.
 */
#ifndef ZF2FS_F2FS_UAPI_H
#define ZF2FS_F2FS_UAPI_H

#include <stdint.h>
#include <linux/fs.h>
#include <linux/ioctl.h>

#define IO_F2FS_MAGIC 0xf5

struct io_gc_range {		/* F2FS_IOC_GARBAGE_COLLECT_RANGE */
	uint32_t sync;
	uint64_t start;		/* block address */
	uint64_t len;		/* blocks */
};

struct io_defragment {		/* F2FS_IOC_DEFRAGMENT */
	uint64_t start;		/* bytes */
	uint64_t len;
};

struct io_move_range {		/* F2FS_IOC_MOVE_RANGE */
	uint32_t dst_fd;
	uint64_t pos_in;
	uint64_t pos_out;
	uint64_t len;
};

struct io_comp_option {		/* F2FS_IOC_{GET,SET}_COMPRESS_OPTION */
	uint8_t algorithm;
	uint8_t log_cluster_size;
};

#define IO_START_ATOMIC_WRITE	_IO(IO_F2FS_MAGIC, 1)
#define IO_COMMIT_ATOMIC_WRITE	_IO(IO_F2FS_MAGIC, 2)
#define IO_ABORT_ATOMIC_WRITE	_IO(IO_F2FS_MAGIC, 5)
#define IO_GARBAGE_COLLECT	_IOW(IO_F2FS_MAGIC, 6, uint32_t)
#define IO_WRITE_CHECKPOINT	_IO(IO_F2FS_MAGIC, 7)
#define IO_DEFRAGMENT		_IOWR(IO_F2FS_MAGIC, 8, struct io_defragment)
#define IO_MOVE_RANGE		_IOWR(IO_F2FS_MAGIC, 9, struct io_move_range)
#define IO_GC_RANGE		_IOW(IO_F2FS_MAGIC, 11, struct io_gc_range)
#define IO_SET_PIN_FILE		_IOW(IO_F2FS_MAGIC, 13, uint32_t)
#define IO_GET_PIN_FILE		_IOR(IO_F2FS_MAGIC, 14, uint32_t)
#define IO_PRECACHE_EXTENTS	_IO(IO_F2FS_MAGIC, 15)
#define IO_GET_COMPRESS_BLOCKS	_IOR(IO_F2FS_MAGIC, 17, uint64_t)
#define IO_RELEASE_COMPRESS_BLOCKS _IOR(IO_F2FS_MAGIC, 18, uint64_t)
#define IO_RESERVE_COMPRESS_BLOCKS _IOR(IO_F2FS_MAGIC, 19, uint64_t)
#define IO_GET_COMPRESS_OPTION	_IOR(IO_F2FS_MAGIC, 21, struct io_comp_option)
#define IO_SET_COMPRESS_OPTION	_IOW(IO_F2FS_MAGIC, 22, struct io_comp_option)
#define IO_DECOMPRESS_FILE	_IO(IO_F2FS_MAGIC, 23)
#define IO_COMPRESS_FILE	_IO(IO_F2FS_MAGIC, 24)
/* Linux 6.2 and later */
#define IO_START_ATOMIC_REPLACE	_IO(IO_F2FS_MAGIC, 25)
/* Linux 6.7 and later */
#define IO_IO_PRIO		_IOW(IO_F2FS_MAGIC, 27, uint32_t)
#define IO_IOPRIO_WRITE		1

/* F2FS_IOC_SHUTDOWN and its levels: 0 full sync, 1 checkpoint, 2 no sync,
 * 3 metadata flush, 4 mark the volume for fsck. */
#define IO_SHUTDOWN		_IOR('X', 125, uint32_t)
#define IO_SHUTDOWN_LEVELS	5

/* The inode's i_advise byte, read and written as the xattr "system.advise". */
#define IO_ADVISE_XATTR		"system.advise"
#define IO_ADV_COLD		0x01
#define IO_ADV_LOST_PINO	0x02
#define IO_ADV_ENCRYPT		0x04
#define IO_ADV_ENC_NAME		0x08
#define IO_ADV_KEEP_SIZE	0x10
#define IO_ADV_HOT		0x20
#define IO_ADV_VERITY		0x40
#define IO_ADV_TRUNC		0x80
/* Per-file advice of newer kernels, a 32-bit word in "user.fadvise". */
#define IO_FADVISE_XATTR	"user.fadvise"
#define IO_FADV_LARGEFOLIO	0x01

/* Inode flags of FS_IOC_GETFLAGS that old <linux/fs.h> lack. */
#ifndef FS_NOCOMP_FL
#define FS_NOCOMP_FL		0x00000400
#endif
#ifndef FS_ENCRYPT_FL
#define FS_ENCRYPT_FL		0x00000800
#endif
#ifndef FS_VERITY_FL
#define FS_VERITY_FL		0x00100000
#endif
#ifndef FS_INLINE_DATA_FL
#define FS_INLINE_DATA_FL	0x10000000
#endif
#ifndef FS_CASEFOLD_FL
#define FS_CASEFOLD_FL		0x40000000
#endif

#endif
