/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit_aged.h - an aged volume for the resize tests: files written by transactions, some
 * removed, and the blocks of the lowest sections moved into the last ones. */
#ifndef ZF2FS_UNIT_AGED_H
#define ZF2FS_UNIT_AGED_H

#include "unit.h"
#include "zf2fs/file.h"
#include "zf2fs/move.h"
#include "zf2fs/txn.h"
#include "zf2fs-internal/commit.h"

/* Files f000, f001, ...: how long, what they hold, which stay. */
struct unit_files {
	unsigned n;
	size_t (*len)(unsigned i);
	void (*fill)(uint8_t *buf, unsigned i, size_t len);
	bool (*kept)(unsigned i);
};

static inline struct zf2fs_vol *unit_aged_open(struct zf2fs_dev **devs, unsigned nd)
{
	struct zf2fs_vol *vol;

	assert_int_equal(zf2fs_vol_open_devs(devs, nd, &unit_quiet, &vol), 0);
	return vol;
}

/* The files of @f (each at most 1 MiB) written to the volume on @devs in three
 * transactions, each in sections of its own (file i in the (i % 3)-th), then those not
 * kept removed in a fourth: the removals leave partly valid sections outside the logs. */
static inline void unit_write_files(struct zf2fs_dev **devs, unsigned nd,
				    const struct unit_files *f)
{
	uint8_t *buf = malloc(1024 * 1024);
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	char name[16];

	assert_non_null(buf);
	for (unsigned part = 0; part < 3; part++) {
		vol = unit_aged_open(devs, nd);
		assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
		zf2fs_txn_set_time(txn, 1700000100 + part);
		zf2fs_txn_fresh_logs(txn);
		for (unsigned i = part; i < f->n; i += 3) {
			snprintf(name, sizeof(name), "f%03u", i);
			f->fill(buf, i, f->len(i));
			assert_int_equal(zf2fs_txn_create(txn, ZF2FS_ROOT_INO, name, 0100644, buf,
							  f->len(i), NULL), 0);
		}
		assert_int_equal(zf2fs_txn_commit(txn), 0);
		zf2fs_txn_free(txn);
		zf2fs_vol_close(vol);
	}
	vol = unit_aged_open(devs, nd);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	for (unsigned i = 0; i < f->n; i++) {
		if (f->kept(i))
			continue;
		snprintf(name, sizeof(name), "f%03u", i);
		assert_int_equal(zf2fs_txn_unlink(txn, ZF2FS_ROOT_INO, name), 0);
	}
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);
	free(buf);
}

/* The two lowest sections holding valid blocks and no log, moved into the last @tail
 * sections in one transaction, so that a shrink has blocks to move.  Returns the data
 * blocks moved. */
static inline uint64_t unit_move_to_tail(struct zf2fs_dev **devs, unsigned nd, uint32_t tail)
{
	struct zf2fs_vol *vol = unit_aged_open(devs, nd);
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint32_t sps = vi->segs_per_sec, n = 0;
	struct zf2fs_move_stats st = { 0 };
	struct zf2fs_sit_entry *sit;
	struct zf2fs_txn *txn;

	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	for (uint32_t sec = 0; sec + tail < vi->main_secs && n < 2; sec++) {
		uint32_t v = 0;
		bool log = false;

		for (uint32_t k = 0; k < sps; k++)
			v += zf2fs_sit_valid_blocks(&sit[sec * sps + k]);
		for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
			uint32_t s, off;

			zf2fs_vol_curseg(vol, t, &s, &off);
			log |= s / sps == sec;
		}
		if (v && !log) {
			assert_int_equal(zf2fs_move_section(txn, sec, &st), 0);
			n++;
		}
	}
	assert_int_equal(zf2fs_move_set_target(txn, vi->main_secs - tail, vi->main_secs), 0);
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	free(sit);
	zf2fs_vol_close(vol);
	return st.data_blocks;
}

/* Every kept file of @f is there with its contents (read by path), the removed ones are
 * not; @each, when given, is called with each kept file's inode. */
static inline void unit_check_files(struct zf2fs_vol *vol, const struct unit_files *f,
				    void (*each)(struct zf2fs_vol *vol, uint32_t ino,
						 const struct zf2fs_node *node, size_t len))
{
	size_t most = 1;
	uint8_t *want, *got;
	char name[16];

	for (unsigned i = 0; i < f->n; i++)
		if (f->len(i) > most)
			most = f->len(i);
	want = malloc(most);
	got = malloc(most);
	assert_non_null(want);
	assert_non_null(got);
	for (unsigned i = 0; i < f->n; i++) {
		struct zf2fs_node node;
		uint32_t ino;
		size_t len = 0;
		int err;

		snprintf(name, sizeof(name), "f%03u", i);
		err = zf2fs_path_lookup(vol, name, 0, &ino, NULL, 0);
		if (!f->kept(i)) {
			assert_int_equal(err, -ENOENT);
			continue;
		}
		assert_int_equal(err, 0);
		assert_int_equal(zf2fs_inode_read(vol, ino, &node, NULL, NULL, 0), 0);
		assert_int_equal(zf2fs_file_read_buf(vol, &node, got, most, &len, NULL, 0), 0);
		assert_int_equal(len, f->len(i));
		f->fill(want, i, len);
		assert_true(memcmp(got, want, len) == 0);
		if (each)
			each(vol, ino, &node, len);
	}
	free(want);
	free(got);
}

#endif
