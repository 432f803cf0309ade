// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_image.c - expand a fuzz input (see fuzz_image.h) into a memory device or a file.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_image.h"

typedef int (*put_fn)(void *arg, uint64_t off, const void *p, size_t n);

static uint64_t image_bytes(const uint8_t *data, size_t size)
{
	uint32_t mib = size >= 2 ? (uint32_t)data[0] | (uint32_t)data[1] << 8 : 0;

	if (mib < 1)
		mib = 1;
	if (mib > FUZZ_MAX_MIB)
		mib = FUZZ_MAX_MIB;
	return (uint64_t)mib << 20;
}

static int fill(const uint8_t *data, size_t size, uint64_t bytes, put_fn put, void *arg)
{
	uint64_t nblocks = bytes / ZF2FS_BLKSIZE;
	size_t pos = 2;

	while (pos + 6 <= size) {
		uint32_t blk = (uint32_t)data[pos] | (uint32_t)data[pos + 1] << 8 |
			       (uint32_t)data[pos + 2] << 16 | (uint32_t)data[pos + 3] << 24;
		size_t len = (size_t)data[pos + 4] | (size_t)data[pos + 5] << 8;
		int err;

		pos += 6;
		if (len > ZF2FS_BLKSIZE)
			len = ZF2FS_BLKSIZE;
		if (len > size - pos)
			len = size - pos;
		err = put(arg, (blk % nblocks) * ZF2FS_BLKSIZE, data + pos, len);
		if (err)
			return err;
		pos += len;
	}
	return 0;
}

static int put_dev(void *arg, uint64_t off, const void *p, size_t n)
{
	return n ? zf2fs_dev_write(arg, p, n, off) : 0;
}

int fuzz_image_memdev(const uint8_t *data, size_t size, struct zf2fs_dev **ret_dev)
{
	struct zf2fs_log log = { .level = 0 };
	uint64_t bytes = image_bytes(data, size);
	int err = zs_dev_open_memory(bytes, &log, ret_dev);

	if (err)
		return err;
	err = fill(data, size, bytes, put_dev, *ret_dev);
	if (err) {
		zf2fs_dev_close(*ret_dev);
		*ret_dev = NULL;
	}
	return err;
}

static int put_fd(void *arg, uint64_t off, const void *p, size_t n)
{
	int fd = *(int *)arg;

	return n && pwrite(fd, p, n, (off_t)off) != (ssize_t)n ? -EIO : 0;
}

static char path[256];

static void remove_image(void)
{
	unlink(path);
}

const char *fuzz_image_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	uint64_t bytes = image_bytes(data, size);

	if (fd < 0) {
		const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");

		snprintf(path, sizeof(path), "%s/zf2fs-fuzz-%ld.img", dir ? dir : "/tmp",
			 (long)getpid());
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0) {
			perror(path);
			abort();
		}
		atexit(remove_image);
	}
	if (ftruncate(fd, 0) || ftruncate(fd, (off_t)bytes))
		abort();
	fill(data, size, bytes, put_fd, &fd);
	return path;
}

void fuzz_quiet_stdout(void)
{
	if (!getenv("FUZZ_VERBOSE") && !freopen("/dev/null", "w", stdout))
		abort();
}
