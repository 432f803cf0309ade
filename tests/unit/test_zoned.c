// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_zoned.c - lib/zoned.c without a zoned device: the names of types, conditions and
 * section states, the device ranges and block-to-device mapping of an open volume, and
 * the errors a device without zones gives (a memory device stands for an image file:
 * no zone report, no reset, no finish, and a volume zone view of -ENODEV).  The calls
 * on real zoned devices are proved by the kernel bench (tests/vm/zoned_*.sh).
 */
#include <errno.h>

#include "unit.h"
#include "zf2fs/zoned.h"

#define MiB (1024ull * 1024)

static const struct zf2fs_log quiet = { .level = 0 };

static void test_names(void **state)
{
	struct zf2fs_sec_zone z = { .type = ZF2FS_ZONE_SEQ_REQ, .cond = ZF2FS_ZONE_IMP_OPEN };

	(void)state;
	assert_string_equal(zf2fs_zone_type_name(ZF2FS_ZONE_CONV), "conventional");
	assert_string_equal(zf2fs_zone_type_name(ZF2FS_ZONE_SEQ_REQ), "seq-required");
	assert_string_equal(zf2fs_zone_type_name((enum zf2fs_zone_type)77), "none");
	assert_string_equal(zf2fs_zone_cond_name(ZF2FS_ZONE_FULL), "full");
	assert_string_equal(zf2fs_zone_cond_name((enum zf2fs_zone_cond)9), "unknown");
	assert_string_equal(zf2fs_sec_zone_state(&z), "open");
	z.cond = ZF2FS_ZONE_EXP_OPEN;
	assert_string_equal(zf2fs_sec_zone_state(&z), "open");
	z.cond = ZF2FS_ZONE_EMPTY;
	assert_string_equal(zf2fs_sec_zone_state(&z), "empty");
	z.type = ZF2FS_ZONE_CONV;
	assert_string_equal(zf2fs_sec_zone_state(&z), "conventional");
	z.type = ZF2FS_ZONE_NONE;
	assert_string_equal(zf2fs_sec_zone_state(&z), "regular");
}

static void test_no_zones(void **state)
{
	struct zf2fs_dev *dev;
	struct zf2fs_dev_geom g;
	struct zf2fs_layout lay;
	struct zf2fs_mkfs_opts mk = { .fixed_cp_version = true, .timestamp = 1 };
	struct zf2fs_vol *vol;
	struct zf2fs_zone *zones = (void *)1;
	struct zf2fs_sec_zone *sz = (void *)1;
	uint64_t first, last, dblk;
	unsigned int nr = 7, d = 9;
	uint32_t nsz = 7;
	struct zf2fs_sec_zone fake = { .type = ZF2FS_ZONE_SEQ_REQ, .zone_blocks = 512 };

	(void)state;
	assert_int_equal(zf2fs_dev_open_memory(64 * MiB, &quiet, &dev), 0);
	assert_int_equal(zf2fs_dev_report_zones(dev, 0, 0, &zones, &nr), -ENOTBLK);
	assert_null(zones);
	assert_int_equal(nr, 0);
	assert_int_equal(zf2fs_dev_reset_zone_range(dev, 0, 8 * MiB), -ENOTBLK);
	assert_int_equal(zf2fs_dev_finish_zone_range(dev, 0, 8 * MiB), -ENOTBLK);

	assert_int_equal(zf2fs_dev_geometry(dev, &g), 0);
	assert_int_equal(zf2fs_layout_compute(&g, 1, &mk.layout, &lay, NULL, 0), 0);
	assert_int_equal(zf2fs_mkfs_write(&dev, &lay, &mk, &quiet), 0);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	assert_false(zf2fs_vol_is_zoned(vol));
	assert_int_equal(zf2fs_vol_dev_range(vol, 0, &first, &last), 0);
	assert_int_equal(first, 0);
	assert_int_equal(last, 64 * MiB / ZF2FS_BLKSIZE - 1);
	assert_int_equal(zf2fs_vol_dev_range(vol, 1, &first, &last), -EINVAL);
	assert_int_equal(zf2fs_vol_block_to_dev(vol, 1000, &d, &dblk), 0);
	assert_int_equal(d, 0);
	assert_int_equal(dblk, 1000);
	assert_int_equal(zf2fs_vol_block_to_dev(vol, 64 * MiB / ZF2FS_BLKSIZE, &d, &dblk), -ERANGE);
	/* a device without zones has no write pointers to show */
	assert_int_equal(zf2fs_vol_zones(vol, NULL, &sz, &nsz), -ENODEV);
	assert_null(sz);
	assert_int_equal(nsz, 0);
	/* zone operations refuse what is not a sequential zone, and a read-only device */
	fake.type = ZF2FS_ZONE_CONV;
	assert_int_equal(zf2fs_vol_reset_zone(vol, &fake), -EINVAL);
	fake.type = ZF2FS_ZONE_SEQ_REQ;
	fake.dev = 3;
	assert_int_equal(zf2fs_vol_finish_zone(vol, &fake), -EINVAL);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_no_zones),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
