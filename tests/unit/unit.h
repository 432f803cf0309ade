/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit.h - what every cmocka unit test includes. */
#ifndef ZF2FS_UNIT_H
#define ZF2FS_UNIT_H

#include "config.h"
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "helper.h"

/* A log that drops every message, errors included: for tests whose injected faults make
 * the library report what the test expects. */
static inline void unit_drop_msg(void *arg, enum zf2fs_msg_kind kind, const char *msg)
{
	(void)arg;
	(void)kind;
	(void)msg;
}

static const struct zf2fs_log unit_quiet = { .level = 0, .fn = unit_drop_msg };

/* Read a 4 KiB fixture block from tests/unit/data. */
static inline void load_block(const char *name, void *buf)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", TEST_DATA_DIR, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, ZF2FS_BLKSIZE, f), ZF2FS_BLKSIZE);
	fclose(f);
}

/* The step of a long fault sweep: every write in the plain build, every @n-th under the
 * sanitizers (quickstart check runs the unit tests in both builds, the sanitizers' with
 * ASAN_OPTIONS set; the plain build's sweep is the whole one). */
static inline unsigned long sweep_step(unsigned long n)
{
	return getenv("ASAN_OPTIONS") ? n : 1;
}

/* SIT counts equal their bitmaps and add up to the checkpoint's valid block count. */
static inline void check_tables(struct zf2fs_vol *vol)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_sit_entry *sit;
	uint64_t blocks = 0;

	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	for (uint32_t s = 0; s < vi->main_segs; s++) {
		assert_int_equal(zf2fs_sit_valid_blocks(&sit[s]), zf2fs_sit_map_weight(&sit[s]));
		blocks += zf2fs_sit_valid_blocks(&sit[s]);
	}
	free(sit);
	assert_int_equal(blocks, zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_block_count));
}

/*
 * A fault at every write of a change: @apply runs once on a copy of @base to count its
 * writes W, then on a fresh copy (@fresh makes an empty device of @base's kind) with the
 * device failing from write k on, for k = 1 .. W + 1; each run must fail with -EIO except
 * the last, which must succeed.  After each, the volume is opened again and @is_new says
 * which one it is (checking it is whole: the old volume or the new one, nothing else);
 * the new volume must carry the next checkpoint version, the old one the old version.
 * Only the run that wrote everything may give the new volume.  Returns W.
 */
struct fault_sweep {
	const struct zf2fs_dev *base;
	struct zf2fs_dev *(*fresh)(void);
	const struct zf2fs_log *log;
	int (*apply)(struct zf2fs_vol *vol, void *arg);
	bool (*is_new)(struct zf2fs_vol *vol, void *arg);
	void *arg;
};

static inline unsigned long fault_sweep(const struct fault_sweep *fs)
{
	struct zf2fs_dev *dev = fs->fresh();
	struct zf2fs_vol *vol;
	unsigned long writes, k;
	unsigned old_seen = 0, new_seen = 0;
	uint64_t ver;

	assert_int_equal(zs_dev_copy_memory(dev, fs->base), 0);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, fs->log, &vol), 0);
	ver = zf2fs_vol_info(vol)->cp_ver;
	writes = zs_dev_write_count(dev);
	assert_int_equal(fs->apply(vol, fs->arg), 0);
	writes = zs_dev_write_count(dev) - writes;
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	assert_true(writes > 10);
	for (k = 1; k <= writes + 1; k++) {
		int err;

		dev = fs->fresh();
		assert_int_equal(zs_dev_copy_memory(dev, fs->base), 0);
		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, fs->log, &vol), 0);
		zs_dev_fail_writes_after(dev, k);
		err = fs->apply(vol, fs->arg);
		zf2fs_vol_close(vol);
		assert_true(k > writes ? err == 0 : err == -EIO);
		zs_dev_fail_writes_after(dev, 0);
		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, fs->log, &vol), 0);
		if (fs->is_new(vol, fs->arg)) {
			assert_true(zf2fs_vol_info(vol)->cp_ver == ver + 1);
			new_seen++;
		} else {
			assert_true(zf2fs_vol_info(vol)->cp_ver == ver);
			old_seen++;
		}
		zf2fs_vol_close(vol);
		zf2fs_dev_close(dev);
	}
	/* only the very last write (the pack's first CP block) makes the new volume */
	assert_int_equal(new_seen, 1);
	assert_int_equal(old_seen, writes);
	return writes;
}

#endif
