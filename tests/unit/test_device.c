// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_device.c - nothing is ever read or written past a device's end.
 *
 * lib/device/device.c checks every transfer against the device size (or the smaller size set by
 * zf2fs_dev_set_size) before it reaches the backend; lib/read/volume.c maps block addresses to
 * devices and refuses addresses outside all of them.  Checked here on a regular file (the
 * unix backend, whose pwrite would happily extend the file) and on a volume in memory,
 * including offsets that overflow 64 bits when the length is added.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "zf2fs-internal/volume.h"

#define MiB (1024ull * 1024)

static const struct zf2fs_log quiet = { .level = 0 };

static void test_file_transfers_stay_inside(void **state)
{
	char path[] = "/tmp/zf2fs-test-device.XXXXXX";
	uint8_t buf[2 * ZF2FS_BLKSIZE] = { 0 };
	struct zf2fs_dev *dev;
	struct stat st;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 16 * ZF2FS_BLKSIZE), 0);
	close(fd);
	assert_int_equal(zf2fs_dev_open(path, ZF2FS_DEV_WRITE, &quiet, &dev), 0);
	/* the last block: fine; one byte further, a block further, a wrapping offset: not */
	assert_int_equal(zf2fs_dev_write(dev, buf, ZF2FS_BLKSIZE, 15 * ZF2FS_BLKSIZE), 0);
	assert_int_equal(zf2fs_dev_write(dev, buf, ZF2FS_BLKSIZE, 15 * ZF2FS_BLKSIZE + 1), -ENOSPC);
	assert_int_equal(zf2fs_dev_write(dev, buf, sizeof(buf), 15 * ZF2FS_BLKSIZE), -ENOSPC);
	assert_int_equal(zf2fs_dev_write(dev, buf, ZF2FS_BLKSIZE, UINT64_MAX - 100), -ENOSPC);
	assert_int_equal(zf2fs_dev_read(dev, buf, ZF2FS_BLKSIZE, 16 * ZF2FS_BLKSIZE), -ENOSPC);
	assert_int_equal(zf2fs_dev_read(dev, buf, ZF2FS_BLKSIZE, UINT64_MAX - 100), -ENOSPC);
	assert_int_equal(zf2fs_dev_zero(dev, 8 * ZF2FS_BLKSIZE, 9 * ZF2FS_BLKSIZE), -ENOSPC);
	assert_int_equal(zf2fs_dev_zero(dev, UINT64_MAX - 100, 200), -ENOSPC);
	assert_int_equal(zf2fs_dev_discard(dev, 0, 17 * ZF2FS_BLKSIZE), -ENOSPC);
	/* a size set below the file's: the rest is out of bounds too */
	assert_int_equal(zf2fs_dev_set_size(dev, 8 * ZF2FS_BLKSIZE), 0);
	assert_int_equal(zf2fs_dev_write(dev, buf, ZF2FS_BLKSIZE, 8 * ZF2FS_BLKSIZE), -ENOSPC);
	assert_int_equal(zf2fs_dev_set_size(dev, 17 * ZF2FS_BLKSIZE), -ENOSPC);
	zf2fs_dev_close(dev);
	/* and the file did not grow */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 16 * ZF2FS_BLKSIZE);
	unlink(path);
}

static void test_read_only_device_refuses_writes(void **state)
{
	char path[] = "/tmp/zf2fs-test-device.XXXXXX";
	uint8_t buf[ZF2FS_BLKSIZE] = { 0 };
	struct zf2fs_dev *dev;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 4 * ZF2FS_BLKSIZE), 0);
	close(fd);
	assert_int_equal(zf2fs_dev_open(path, 0, &quiet, &dev), 0);
	assert_int_equal(zf2fs_dev_write(dev, buf, sizeof(buf), 0), -EBADF);
	zf2fs_dev_close(dev);
	unlink(path);
}

static void test_volume_blocks_stay_inside(void **state)
{
	struct zf2fs_mkfs_opts mk = { .fixed_cp_version = true, .timestamp = 1700000000 };
	uint8_t buf[ZF2FS_BLKSIZE] = { 0 };
	struct zf2fs_dev_geom g;
	struct zf2fs_layout lay;
	struct zf2fs_dev *dev;
	struct zf2fs_vol *vol;
	uint64_t last;

	(void)state;
	assert_int_equal(zs_dev_open_memory(64 * MiB, &quiet, &dev), 0);
	assert_int_equal(zf2fs_dev_geometry(dev, &g), 0);
	assert_int_equal(zf2fs_layout_compute(&g, 1, &mk.layout, &lay, NULL, 0), 0);
	assert_int_equal(zf2fs_mkfs_write(&dev, &lay, &mk, &quiet), 0);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	last = 64 * MiB / ZF2FS_BLKSIZE - 1;
	assert_int_equal(zf2fs_vol_read_block(vol, last, buf), 0);
	assert_int_equal(zf2fs_vol_read_block(vol, last + 1, buf), -ERANGE);
	assert_int_equal(zf2fs_vol_write_block(vol, last + 1, buf), -ERANGE);
	assert_int_equal(zf2fs_vol_write_block(vol, UINT64_MAX, buf), -ERANGE);
	assert_int_not_equal(zf2fs_vol_read_blocks(vol, last, 2, buf), 0);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_transfers_stay_inside),
		cmocka_unit_test(test_read_only_device_refuses_writes),
		cmocka_unit_test(test_volume_blocks_stay_inside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
