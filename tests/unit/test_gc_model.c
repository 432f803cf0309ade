// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_gc_model.c - the GC model built from an image in memory: a fresh volume's state,
 * SIT entries read past the first SIT block (the live copy chosen per block), and hostile
 * SIT contents: an impossible valid count is refused with -ZF2FS_EFSCORRUPTED, and random
 * bytes in the SIT either load or are refused, and replay on whatever loads never crashes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "zf2fs/zf2fs.h"
#include "helper.h"
#include "zf2fs/gc.h"

#define MiB (1024ull * 1024)

static const struct zf2fs_log quiet = { .level = -1, .fn = NULL };

static void silent(void *arg, enum zf2fs_msg_kind kind, const char *msg)
{
	(void)arg;
	(void)kind;
	(void)msg;
}

static const struct zf2fs_log mute = { .level = 0, .fn = silent };

static struct zf2fs_dev *format(uint64_t bytes, uint32_t sps)
{
	struct zf2fs_dev *dev;
	struct zf2fs_dev_geom g;
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout lay;

	memset(&mk, 0, sizeof(mk));
	assert_int_equal(zs_dev_open_memory(bytes, &mute, &dev), 0);
	assert_int_equal(zf2fs_dev_geometry(dev, &g), 0);
	mk.layout.segs_per_sec = sps;
	mk.fixed_cp_version = true;
	mk.timestamp = 1700000000;
	assert_int_equal(zf2fs_layout_compute(&g, 1, &mk.layout, &lay, NULL, 0), 0);
	assert_int_equal(zf2fs_mkfs_write(&dev, &lay, &mk, &mute), 0);
	return dev;
}

/* Write SIT entry @segno in both SIT copies. */
static void put_sit(struct zf2fs_dev *dev, const struct zf2fs_vol_info *vi, uint32_t segno,
		    const uint8_t raw[74])
{
	uint8_t blk[ZF2FS_BLKSIZE];

	for (int copy = 0; copy < 2; copy++) {
		uint64_t addr = (uint64_t)vi->sit_blkaddr + segno / 55 +
				(copy ? vi->sit_blocks : 0);

		assert_int_equal(zf2fs_dev_read(dev, blk, sizeof(blk), addr * ZF2FS_BLKSIZE), 0);
		memcpy(blk + (segno % 55) * 74, raw, 74);
		assert_int_equal(zf2fs_dev_write(dev, blk, sizeof(blk), addr * ZF2FS_BLKSIZE), 0);
	}
}

static int load(struct zf2fs_dev *dev, struct zf2fs_gc_model **m, struct zf2fs_vol_info *ret_vi)
{
	struct zf2fs_vol *vol;
	int err = zf2fs_vol_open_devs(&dev, 1, &mute, &vol);

	assert_int_equal(err, 0);
	if (ret_vi)
		*ret_vi = *zf2fs_vol_info(vol);
	err = zf2fs_gc_model_load(vol, &mute, m);
	zf2fs_vol_close(vol);
	return err;
}

static void sit_raw(uint8_t raw[74], uint32_t type, uint32_t valid, uint64_t mtime)
{
	uint16_t vb = (uint16_t)(type << 10 | valid);

	memset(raw, 0, 74);
	raw[0] = (uint8_t)vb;
	raw[1] = (uint8_t)(vb >> 8);
	for (int i = 0; i < 8; i++)
		raw[66 + i] = (uint8_t)(mtime >> (8 * i));
}

static void test_fresh_and_past_first_block(void **state)
{
	struct zf2fs_dev *dev = format(256 * MiB, 1);
	struct zf2fs_gc_model *m;
	struct zf2fs_vol_info vi;
	struct zf2fs_gc_summary s;
	struct zf2fs_gc_params p;
	struct zf2fs_gc_victim v;
	struct zf2fs_gc_seginfo si;
	uint8_t raw[74];

	(void)state;
	assert_int_equal(load(dev, &m, &vi), 0);
	zf2fs_gc_summarize(m, &s);
	assert_int_equal(s.dirty_secs, 0);
	assert_int_equal(s.current_secs, 6);
	assert_int_equal(s.free_secs + s.current_secs, s.main_secs);
	zf2fs_gc_model_free(m);
	/* entries in the second and third SIT blocks: the block stride is 4096 bytes */
	sit_raw(raw, 1, 100, 5);
	put_sit(dev, &vi, 60, raw);
	sit_raw(raw, 1, 300, 7);
	put_sit(dev, &vi, 111, raw);
	assert_int_equal(load(dev, &m, NULL), 0);
	assert_int_equal(zf2fs_gc_model_segment(m, 60, &si), 0);
	assert_int_equal(si.valid_blocks, 100);
	assert_int_equal(si.state, ZF2FS_GC_SEG_DIRTY);
	assert_int_equal(zf2fs_gc_model_segment(m, 111, &si), 0);
	assert_int_equal(si.valid_blocks, 300);
	zf2fs_gc_params_init(&p, ZF2FS_GC_FG);
	assert_int_equal(zf2fs_gc_step(m, &p, &v), 0);
	assert_int_equal(v.segno, 60);
	assert_int_equal(v.cost, 100);
	zf2fs_gc_model_free(m);
	zf2fs_dev_close(dev);
}

static void test_impossible_valid_count(void **state)
{
	struct zf2fs_dev *dev = format(128 * MiB, 1);
	struct zf2fs_gc_model *m = NULL;
	struct zf2fs_vol_info vi;
	uint8_t raw[74];

	(void)state;
	assert_int_equal(load(dev, &m, &vi), 0);
	zf2fs_gc_model_free(m);
	sit_raw(raw, 1, 1023, 5);
	put_sit(dev, &vi, 40, raw);
	m = NULL;
	assert_int_equal(load(dev, &m, NULL), -ZF2FS_EFSCORRUPTED);
	assert_null(m);
	zf2fs_dev_close(dev);
}

static void test_random_sit_no_crash(void **state)
{
	uint64_t r = 0x5eedull;
	int loaded = 0, refused = 0;

	(void)state;
	for (int round = 0; round < 40; round++) {
		struct zf2fs_dev *dev = format(round % 2 ? 256 * MiB : 64 * MiB, round % 2 ? 4 : 1);
		struct zf2fs_gc_model *m = NULL;
		struct zf2fs_vol_info vi;
		int err;

		assert_int_equal(load(dev, &m, &vi), 0);
		zf2fs_gc_model_free(m);
		for (uint32_t s = 0; s < vi.main_segs; s++) {
			uint8_t raw[74];

			r ^= r << 13;
			r ^= r >> 7;
			r ^= r << 17;
			/* mostly plausible entries, some hostile ones (type 6/7, huge mtimes,
			 * counts past the segment) */
			sit_raw(raw, (uint32_t)(r % 8), (uint32_t)((r >> 8) % (round % 3 ? 513 : 1024)),
				(r >> 20) % 5 ? (r >> 24) % 100000 : UINT64_MAX - (r >> 40));
			put_sit(dev, &vi, s, raw);
		}
		m = NULL;
		err = load(dev, &m, NULL);
		assert_true(err == 0 || err == -ZF2FS_EFSCORRUPTED);
		if (err) {
			refused++;
			zf2fs_dev_close(dev);
			continue;
		}
		loaded++;
		for (int i = 0; i < 30; i++) {
			struct zf2fs_gc_params p;
			struct zf2fs_gc_victim v[8];
			unsigned n;

			zf2fs_gc_params_init(&p, i % 3 ? ZF2FS_GC_BG : ZF2FS_GC_FG);
			p.policy = (enum zf2fs_gc_policy)(i % 4 - 1);
			p.engine = i % 2 ? ZF2FS_GC_ENGINE_SCAN : ZF2FS_GC_ENGINE_INDEX;
			err = zf2fs_gc_call(m, &p, v, 8, &n);
			assert_true(err == 0 || err == -ENODATA || err == -ENOSPC);
		}
		zf2fs_gc_model_free(m);
		zf2fs_dev_close(dev);
	}
	assert_true(loaded > 0);
	assert_true(refused > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh_and_past_first_block),
		cmocka_unit_test(test_impossible_valid_count),
		cmocka_unit_test(test_random_sit_no_crash),
	};

	(void)quiet;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
