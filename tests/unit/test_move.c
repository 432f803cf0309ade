// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_move.c - lib/move/move.c on memory devices: a volume aged by transactions (files made,
 * half of them removed: sections partly valid), every dirty section moved and committed:
 * the sections are free, every file reads back the same, the tables add up, moved data
 * sits in the cold data log, a largest extent over moved blocks is cut; a fault injected at every write of the move's commit leaves
 * the old volume or the new one (same files either way), on a plain memory device and on
 * an emulated host-managed zoned one; the sections of current logs are emptied too (the
 * logs move on); a block without a live owner and a section out of range are refused
 * before anything is written; a file moved over several commits into a run kept for its
 * data ends in one extent there.
 */
#include <errno.h>

#include "unit.h"
#include "zf2fs/access.h"
#include "zf2fs/file.h"
#include "zf2fs/move.h"
#include "zf2fs/txn.h"
#include "zf2fs/zoned.h"
#include "zf2fs-internal/commit.h"
#include "zf2fs-internal/format.h"
#include "zf2fs-internal/move.h"
#include "zf2fs-internal/volume.h"
#include <inttypes.h>

#define MiB (1024ull * 1024)
#define VOL_BYTES (64 * MiB)
#define ZONED_BYTES (256 * MiB)
#define NFILES 48

/* file i: name, size (some with direct nodes), contents */
static void file_name(char *buf, size_t cap, unsigned i)
{
	snprintf(buf, cap, "f%03u", i);
}

/* with @big, a few files need a direct node */
static size_t file_len(unsigned i, bool big)
{
	return big && i % 16 == 15 ? 4 * MiB + 512 * 1024 + i : (size_t)(i * 1531 % 12000) + 1;
}

static void fill(uint8_t *buf, unsigned i, size_t len)
{
	for (size_t k = 0; k < len; k++)
		buf[k] = (uint8_t)(i * 31 + k / 4096 + k * 7);
}

static bool kept(unsigned i)
{
	return i % 2 == 1 || i % 8 == 6;
}

static struct zf2fs_dev *fresh_plain(void)
{
	struct zf2fs_dev *dev;

	assert_int_equal(zs_dev_open_memory(VOL_BYTES, &unit_quiet, &dev), 0);
	return dev;
}

/* 8 MiB zones (a section of 4 segments) writable for 6 MiB, metadata in conventional
 * zones: every write must land at a write pointer inside the capacity. */
static struct zf2fs_dev *fresh_zoned(void)
{
	struct zf2fs_dev *dev;

	assert_int_equal(zs_dev_open_memory_zoned(ZONED_BYTES, 8 * MiB, 6 * MiB, 4, &unit_quiet,
						     &dev), 0);
	return dev;
}

/* Format @dev, then age it: NFILES files in three transactions, then the ones !kept()
 * removed (only small ones: the transaction removes inodes without node blocks). */
static void make_aged(struct zf2fs_dev **dev, bool zoned, bool big)
{
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout lay;
	struct zf2fs_dev_geom g;
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	uint8_t *buf = malloc(6 * MiB);
	char name[16];

	assert_non_null(buf);
	memset(&mk, 0, sizeof(mk));
	assert_int_equal(zf2fs_dev_geometry(*dev, &g), 0);
	mk.layout.features = ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM;
	mk.layout.zoned = zoned;
	mk.fixed_cp_version = true;
	mk.timestamp = 1700000000;
	assert_int_equal(zf2fs_layout_compute(&g, 1, &mk.layout, &lay, NULL, 0), 0);
	assert_int_equal(zf2fs_mkfs_write(dev, &lay, &mk, &unit_quiet), 0);
	for (unsigned part = 0; part < 3; part++) {
		assert_int_equal(zf2fs_vol_open_devs(dev, 1, &unit_quiet, &vol), 0);
		assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
		zf2fs_txn_set_time(txn, 1700000100 + part);
		/* each part in sections of its own, so that the removals below leave sections
		 * partly valid (data and node) outside the logs */
		zf2fs_txn_fresh_logs(txn);
		for (unsigned i = part; i < NFILES; i += 3) {
			file_name(name, sizeof(name), i);
			fill(buf, i, file_len(i, big));
			assert_int_equal(zf2fs_txn_create(txn, ZF2FS_ROOT_INO, name, 0100644, buf,
							  file_len(i, big), NULL), 0);
		}
		assert_int_equal(zf2fs_txn_commit(txn), 0);
		zf2fs_txn_free(txn);
		zf2fs_vol_close(vol);
	}
	assert_int_equal(zf2fs_vol_open_devs(dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	for (unsigned i = 0; i < NFILES; i++) {
		if (kept(i))
			continue;
		file_name(name, sizeof(name), i);
		assert_int_equal(zf2fs_txn_unlink(txn, ZF2FS_ROOT_INO, name), 0);
	}
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);
	free(buf);
}

/* The contents of file @i, made once (the fault sweeps compare every file thousands of
 * times); freed by free_contents. */
static uint8_t *contents[NFILES][2];

static const uint8_t *contents_of(unsigned i, bool big)
{
	if (!contents[i][big]) {
		contents[i][big] = malloc(file_len(i, big));
		assert_non_null(contents[i][big]);
		fill(contents[i][big], i, file_len(i, big));
	}
	return contents[i][big];
}

static int free_contents(void **state)
{
	(void)state;
	for (unsigned i = 0; i < NFILES; i++)
		for (int b = 0; b < 2; b++)
			free(contents[i][b]);
	return 0;
}

/* Every kept file is there with its contents, the removed ones are not. */
static void check_files(struct zf2fs_vol *vol, bool big)
{
	uint8_t *got = malloc(6 * MiB);
	char name[16];

	assert_non_null(got);
	for (unsigned i = 0; i < NFILES; i++) {
		struct zf2fs_node node;
		uint32_t ino;
		size_t len = 0;
		int err;

		file_name(name, sizeof(name), i);
		err = zf2fs_path_lookup(vol, name, 0, &ino, NULL, 0);
		if (!kept(i)) {
			assert_int_equal(err, -ENOENT);
			continue;
		}
		assert_int_equal(err, 0);
		assert_int_equal(zf2fs_inode_read(vol, ino, &node, NULL, NULL, 0), 0);
		assert_int_equal(zf2fs_file_read_buf(vol, &node, got, 6 * MiB, &len, NULL, 0), 0);
		assert_int_equal(len, file_len(i, big));
		/* memcmp: cmocka's compare goes byte by byte */
		assert_true(memcmp(got, contents_of(i, big), len) == 0);
	}
	free(got);
}

static bool is_current_sec(struct zf2fs_vol *vol, uint32_t sec)
{
	uint32_t sps = zf2fs_vol_info(vol)->segs_per_sec;

	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		uint32_t s, off;

		zf2fs_vol_curseg(vol, t, &s, &off);
		if (s / sps == sec)
			return true;
	}
	return false;
}

/* Valid blocks of section @sec. */
static uint32_t sec_valid(struct zf2fs_vol *vol, const struct zf2fs_sit_entry *sit, uint32_t sec)
{
	uint32_t sps = zf2fs_vol_info(vol)->segs_per_sec, n = 0;

	for (uint32_t k = 0; k < sps; k++)
		n += zf2fs_sit_valid_blocks(&sit[sec * sps + k]);
	return n;
}

/* The victims: sections holding valid blocks that no current log is in, as long as
 * their valid blocks add up to at most @budget. */
static uint32_t pick(struct zf2fs_vol *vol, uint32_t *secs, uint32_t cap, uint32_t budget)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_sit_entry *sit;
	uint32_t n = 0;

	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	for (uint32_t sec = 0; sec < vi->main_secs && n < cap; sec++) {
		uint32_t v = sec_valid(vol, sit, sec);

		if (v && v <= budget && !is_current_sec(vol, sec)) {
			secs[n++] = sec;
			budget -= v;
		}
	}
	free(sit);
	return n;
}

/* Move @secs on @vol and commit; the stats in @st. */
static int move(struct zf2fs_vol *vol, const uint32_t *secs, uint32_t n,
		struct zf2fs_move_stats *st)
{
	struct zf2fs_txn *txn;
	int err = zf2fs_txn_begin(vol, &txn);

	memset(st, 0, sizeof(*st));
	for (uint32_t i = 0; !err && i < n; i++)
		err = zf2fs_move_section(txn, secs[i], st);
	if (!err)
		err = zf2fs_txn_commit(txn);
	zf2fs_txn_free(txn);
	return err;
}

/* Whether every section of @secs is free in @vol's checkpoint. */
static bool all_free(struct zf2fs_vol *vol, const uint32_t *secs, uint32_t n)
{
	struct zf2fs_sit_entry *sit;
	bool ok = true;

	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	for (uint32_t i = 0; i < n; i++)
		ok = ok && !sec_valid(vol, sit, secs[i]) && !is_current_sec(vol, secs[i]);
	free(sit);
	return ok;
}

/* Give file @name (contiguous blocks) a largest extent over all of them, as the
 * kernel keeps in i_ext; written in place (a test's shortcut). */
static void set_extent(struct zf2fs_vol *vol, const char *name, uint32_t len)
{
	struct zf2fs_node node;
	uint32_t ino, at, first, addr;

	assert_int_equal(zf2fs_path_lookup(vol, name, 0, &ino, NULL, 0), 0);
	assert_int_equal(zf2fs_inode_read(vol, ino, &node, &at, NULL, 0), 0);
	assert_int_equal(zf2fs_file_bmap(vol, &node, 0, &first, NULL, 0), 0);
	for (uint32_t k = 1; k < len; k++) {
		assert_int_equal(zf2fs_file_bmap(vol, &node, k, &addr, NULL, 0), 0);
		assert_int_equal(addr, first + k);
	}
	zf2fs_set(node.i.i_ext.fofs, 0);
	zf2fs_set(node.i.i_ext.blk, first);
	zf2fs_set(node.i.i_ext.len, len);
	zf2fs_inode_reseal(&node, ino, zf2fs_vol_info(vol)->features,
			   zf2fs_checksum_seed(zf2fs_vol_super(vol)->uuid));
	assert_int_equal(zf2fs_vol_write_block(vol, at, &node), 0);
}

/* The largest extent of @name names only blocks the file has there; 1 when it was cut. */
static int check_extent(struct zf2fs_vol *vol, const char *name, uint32_t was)
{
	struct zf2fs_node node;
	uint32_t ino, addr, f, b, len;

	assert_int_equal(zf2fs_path_lookup(vol, name, 0, &ino, NULL, 0), 0);
	assert_int_equal(zf2fs_inode_read(vol, ino, &node, NULL, NULL, 0), 0);
	f = (uint32_t)zf2fs_get(node.i.i_ext.fofs);
	b = (uint32_t)zf2fs_get(node.i.i_ext.blk);
	len = (uint32_t)zf2fs_get(node.i.i_ext.len);
	for (uint32_t k = 0; k < len; k++) {
		assert_int_equal(zf2fs_file_bmap(vol, &node, f + k, &addr, NULL, 0), 0);
		assert_int_equal(addr, b + k);
	}
	return len < was;
}

/* The segments of log @type (only the mover writes it here) fill their sections, @usable
 * segments each (those below the zone capacity), before the log takes another: as few
 * sections as the segments need, each written from its first segment on. */
static void check_log_packed(struct zf2fs_vol *vol, const struct zf2fs_sit_entry *sit, int type,
			     uint32_t usable)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint32_t segs = 0, secs = 0, last = UINT32_MAX;

	for (uint32_t s = 0; s < vi->main_segs; s++) {
		if (zf2fs_sit_type(&sit[s]) != (unsigned)type || !zf2fs_sit_valid_blocks(&sit[s]))
			continue;
		segs++;
		if (s / vi->segs_per_sec != last) {
			secs++;
			last = s / vi->segs_per_sec;
			assert_int_equal(s % vi->segs_per_sec, 0);
		}
	}
	assert_true(segs >= 2);
	assert_int_equal(secs, (segs + usable - 1) / usable);
}

static void move_all(struct zf2fs_dev *(*fresh)(void), bool zoned)
{
	const bool big = true;
	struct zf2fs_dev *dev = fresh();
	struct zf2fs_vol *vol;
	struct zf2fs_move_stats st;
	uint32_t secs[64], n, ino, addr, seg;
	struct zf2fs_sit_entry *sit;
	struct zf2fs_node node;
	uint64_t ver;

	make_aged(&dev, zoned, true);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	if (!zoned)   /* an in-place write: not on a sequential zone */
		set_extent(vol, "f007", 3);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	n = pick(vol, secs, 64, 1500);
	assert_true(n >= 2);
	ver = zf2fs_vol_info(vol)->cp_ver;
	assert_int_equal(move(vol, secs, n, &st), 0);
	assert_true(st.data_blocks > 0 && st.node_blocks > 0);
	assert_int_equal(st.sections, n);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_vol_info(vol)->cp_ver, ver + 1);
	assert_true(all_free(vol, secs, n));
	check_files(vol, big);
	/* f007's blocks moved: its extent was cut to what stayed (nothing) */
	if (!zoned)
		assert_int_equal(check_extent(vol, "f007", 3), 1);
	check_tables(vol);
	/* a moved data block went to the cold data log (as the kernel's GC writes them) */
	assert_int_equal(zf2fs_path_lookup(vol, "f001", 0, &ino, NULL, 0), 0);
	assert_int_equal(zf2fs_inode_read(vol, ino, &node, NULL, NULL, 0), 0);
	assert_int_equal(zf2fs_file_bmap(vol, &node, 0, &addr, NULL, 0), 0);
	seg = zf2fs_main_segno(zf2fs_vol_info(vol)->main_blkaddr, addr);
	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	assert_int_equal(zf2fs_sit_type(&sit[seg]), ZF2FS_LOG_COLD_DATA);
	if (zoned)
		check_log_packed(vol, sit, ZF2FS_LOG_COLD_DATA, 3);
	free(sit);
	/* and again: the volume the mover wrote can be moved once more.  Not on the zoned
	 * emulation: the sections freed keep their write pointers until a zone reset
	 * (zf2fs_move_reset_free_zones, which needs a zone report the emulation lacks) */
	if (zoned) {
		zf2fs_vol_close(vol);
		zf2fs_dev_close(dev);
		return;
	}
	n = pick(vol, secs, 64, 1500);
	assert_true(n >= 1);
	assert_int_equal(move(vol, secs, n, &st), 0);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_true(all_free(vol, secs, n));
	check_files(vol, big);
	check_tables(vol);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

static void test_move_all(void **state)
{
	(void)state;
	move_all(fresh_plain, false);
}

static void test_zoned_move_all(void **state)
{
	(void)state;
	move_all(fresh_zoned, true);
}

struct move_sweep {
	uint32_t secs[64], n;
	bool big;
};

static int apply_move(struct zf2fs_vol *vol, void *arg)
{
	struct move_sweep *m = arg;
	struct zf2fs_move_stats st;

	return move(vol, m->secs, m->n, &st);
}

/* the new volume has every victim free; the old one none; the same files in both */
static bool move_is_new(struct zf2fs_vol *vol, void *arg)
{
	const struct move_sweep *m = arg;
	bool now = all_free(vol, m->secs, m->n);

	if (!now)
		for (uint32_t i = 0; i < m->n; i++)
			assert_false(all_free(vol, &m->secs[i], 1));
	check_files(vol, m->big);
	check_tables(vol);
	return now;
}

/* A failure at write k, for every k of the move's commit: the old volume (victims still
 * in use) or the new one (victims free), the same files in both. */
static void fault_at_every_write(struct zf2fs_dev *(*fresh)(void), bool zoned)
{
	struct move_sweep m = { .big = false };   /* few writes: each attempt copies the device */
	struct zf2fs_dev *base = fresh();
	struct zf2fs_vol *vol;
	unsigned long writes;

	make_aged(&base, zoned, m.big);
	assert_int_equal(zf2fs_vol_open_devs(&base, 1, &unit_quiet, &vol), 0);
	m.n = pick(vol, m.secs, 64, 80);
	zf2fs_vol_close(vol);
	assert_true(m.n >= 2);
	writes = fault_sweep(&(struct fault_sweep){ .base = base, .fresh = fresh, .log = &unit_quiet,
						    .apply = apply_move, .is_new = move_is_new,
						    .arg = &m });
	print_message("%s: %u sections moved, a fault at each of the commit's %lu writes\n",
		      zoned ? "zoned" : "plain", m.n, writes);
	zf2fs_dev_close(base);
}

static void test_fault_at_every_write(void **state)
{
	(void)state;
	fault_at_every_write(fresh_plain, false);
}

static void test_zoned_fault_at_every_write(void **state)
{
	(void)state;
	fault_at_every_write(fresh_zoned, true);
}

/* The sections of the current warm data and warm node logs (holding the last
 * transaction's blocks): moved, the logs go on in fresh sections, the sections are free. */
static void test_current_sections(void **state)
{
	struct zf2fs_dev *dev = fresh_plain();
	struct zf2fs_vol *vol;
	struct zf2fs_move_stats st;
	uint32_t secs[2], off;
	const bool big = false;

	(void)state;
	make_aged(&dev, false, big);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	zf2fs_vol_curseg(vol, ZF2FS_LOG_WARM_DATA, &secs[0], &off);
	zf2fs_vol_curseg(vol, ZF2FS_LOG_WARM_NODE, &secs[1], &off);
	secs[0] /= zf2fs_vol_info(vol)->segs_per_sec;
	secs[1] /= zf2fs_vol_info(vol)->segs_per_sec;
	assert_false(all_free(vol, secs, 2));
	assert_int_equal(move(vol, secs, 2, &st), 0);
	assert_true(st.node_blocks > 0 && st.data_blocks > 0);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_true(all_free(vol, secs, 2));
	check_files(vol, big);
	check_tables(vol);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

/* A target range: every block moved lands in the sections asked for (the last quarter
 * of the main area, as a resize that keeps the start free would ask). */
static void test_target(void **state)
{
	struct zf2fs_dev *dev = fresh_plain();
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	struct zf2fs_move_stats st = { 0 };
	struct zf2fs_sit_entry *sit;
	uint32_t secs[64], n, from, end, sps;
	uint16_t *before;
	const struct zf2fs_vol_info *vi;
	const bool big = false;

	(void)state;
	make_aged(&dev, false, big);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	vi = zf2fs_vol_info(vol);
	sps = vi->segs_per_sec;
	from = vi->main_secs * 3 / 4;
	end = vi->main_secs;
	n = pick(vol, secs, 64, 1500);
	assert_true(n >= 2);
	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	before = calloc(vi->main_segs, sizeof(*before));
	assert_non_null(before);
	for (uint32_t s = 0; s < vi->main_segs; s++)
		before[s] = (uint16_t)zf2fs_sit_valid_blocks(&sit[s]);
	free(sit);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	assert_int_equal(zf2fs_move_set_target(txn, end, end), -EINVAL);
	assert_int_equal(zf2fs_move_set_target(txn, from, end + 1), -EINVAL);
	assert_int_equal(zf2fs_move_set_target(txn, from, end), 0);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(zf2fs_move_section(txn, secs[i], &st), 0);
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	vi = zf2fs_vol_info(vol);
	assert_true(all_free(vol, secs, n));
	check_files(vol, big);
	check_tables(vol);
	/* outside the target, no segment gained a block */
	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	for (uint32_t s = 0; s < from * sps; s++)
		assert_true(zf2fs_sit_valid_blocks(&sit[s]) <= before[s]);
	free(sit);
	free(before);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

/* Refusals: nothing is written. */
static void test_refused(void **state)
{
	struct zf2fs_dev *dev = fresh_plain();
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	struct zf2fs_move_stats st = { 0 };
	struct zf2fs_summary_block sum;
	const struct zf2fs_vol_info *vi;
	uint32_t secs[64], n, off, victim = UINT32_MAX;
	unsigned long writes;
	struct zf2fs_sit_entry *sit;

	(void)state;
	make_aged(&dev, false, false);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	vi = zf2fs_vol_info(vol);
	writes = zs_dev_write_count(dev);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	assert_int_equal(zf2fs_move_section(txn, vi->main_secs, &st), -EINVAL);
	assert_int_equal(zf2fs_move_range(txn, 0, 1, &st), -EINVAL);
	assert_int_equal(zf2fs_move_range(txn, vi->main_blkaddr, UINT64_MAX, &st), -EINVAL);
	zf2fs_txn_free(txn);
	/* a data segment whose summary names a wrong owner for a valid block */
	n = pick(vol, secs, 64, 4000);
	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	for (uint32_t i = 0; i < n && victim == UINT32_MAX; i++)
		if (zf2fs_sit_type(&sit[secs[i] * vi->segs_per_sec]) <= ZF2FS_LOG_COLD_DATA &&
		    zf2fs_sit_valid_blocks(&sit[secs[i] * vi->segs_per_sec]))
			victim = secs[i] * vi->segs_per_sec;
	assert_true(victim != UINT32_MAX);
	for (off = 0; !zf2fs_sit_block_valid(&sit[victim], off); off++)
		;
	free(sit);
	assert_int_equal(zf2fs_vol_segment_summary(vol, victim, &sum), 0);
	assert_int_equal(zf2fs_vol_set_ssa_entry(vol, zf2fs_main_blk(vi->main_blkaddr, victim, off),
						 zf2fs_get(sum.entries[off].nid),
						 (uint16_t)(zf2fs_get(sum.entries[off].ofs_in_node) + 1),
						 sum.entries[off].version), 0);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	vi = zf2fs_vol_info(vol);
	writes = zs_dev_write_count(dev);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	assert_int_equal(zf2fs_move_section(txn, victim / vi->segs_per_sec, &st),
			 -ZF2FS_EFSCORRUPTED);
	zf2fs_txn_free(txn);
	assert_int_equal(zs_dev_write_count(dev), writes);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

/* ---- zf2fs_move_batches (lib/move/move_batch.c) ------------------------------------------ */

/* A range queued a piece at a time, at most @room addresses (so at most @room valid
 * blocks), never past a segment: what defrag.f2fs does. */
struct batch_range {
	struct zf2fs_dev *dev;
	uint64_t start, end, pos;
	uint32_t first_sec, end_sec;    /* the window */
	unsigned committed;
};

static int br_queue(void *arg, struct zf2fs_txn *txn, uint64_t room,
		    struct zf2fs_move_stats *st, bool *done)
{
	struct batch_range *b = arg;
	uint64_t seg_end = b->pos + ZF2FS_BLOCKS_PER_SEG -
			   (b->pos - b->start) % ZF2FS_BLOCKS_PER_SEG;
	uint64_t to = b->pos + room;
	int err;

	if (b->pos >= b->end) {
		*done = true;
		return 0;
	}
	if (to > seg_end)
		to = seg_end;
	if (to > b->end)
		to = b->end;
	err = zf2fs_move_range(txn, b->pos, to - b->pos, st);
	b->pos = to;
	return err;
}

static int br_reopen(void *arg, struct zf2fs_vol **ret)
{
	struct batch_range *b = arg;

	return zf2fs_vol_open_devs(&b->dev, 1, &unit_quiet, ret);
}

static int br_target(void *arg, struct zf2fs_vol *vol, struct zf2fs_txn *txn,
		     const struct zf2fs_move_stats *batch)
{
	struct batch_range *b = arg;

	(void)vol;
	assert_true(batch->data_blocks + batch->node_blocks > 0 || batch->owner_nodes == 0);
	return zf2fs_move_set_target(txn, b->first_sec, b->end_sec);
}

static int br_committed(void *arg, struct zf2fs_vol *vol)
{
	struct batch_range *b = arg;

	(void)vol;
	b->committed++;
	return 0;
}

static const struct zf2fs_move_batch_ops br_ops = {
	.queue = br_queue, .reopen = br_reopen, .before_commit = br_target,
	.committed = br_committed,
};

/* The lower half of the main area is the range, the upper half the window. */
static void br_setup(struct batch_range *b, struct zf2fs_vol *vol, struct zf2fs_dev *dev)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint64_t sec_blocks = (uint64_t)vi->segs_per_sec * ZF2FS_BLOCKS_PER_SEG;

	memset(b, 0, sizeof(*b));
	b->dev = dev;
	b->start = vi->main_blkaddr;
	b->end = vi->main_blkaddr + vi->main_secs / 2 * sec_blocks;
	b->pos = b->start;
	b->first_sec = vi->main_secs / 2;
	b->end_sec = vi->main_secs;
}

/* Valid blocks in [@b->start, @b->end). */
static uint64_t br_valid(struct zf2fs_vol *vol, const struct batch_range *b)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_sit_entry *sit;
	uint64_t n = 0;

	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	for (uint64_t a = b->start; a < b->end; a++)
		n += zf2fs_sit_block_valid(&sit[zf2fs_main_segno(vi->main_blkaddr, a)],
					   zf2fs_main_seg_off(vi->main_blkaddr, a));
	free(sit);
	return n;
}

/* No free section of the range keeps its zone's write pointer past the zone start. */
static void check_range_zones_empty(struct zf2fs_vol *vol, const struct batch_range *b)
{
	struct zf2fs_sit_entry *sit;
	struct zf2fs_sec_zone *z;
	uint32_t nr, empty = 0;

	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	assert_int_equal(zf2fs_vol_zones(vol, sit, &z, &nr), 0);
	for (uint32_t i = 0; i < nr; i++) {
		if (z[i].secno >= b->first_sec || z[i].type == ZF2FS_ZONE_CONV ||
		    z[i].valid_blocks || is_current_sec(vol, z[i].secno))
			continue;
		assert_int_equal(z[i].wp_blocks, 0);
		empty++;
	}
	assert_true(empty > 0);
	free(z);
	free(sit);
}

/* A range moved in batches of @batch blocks: one checkpoint per batch, the range empty,
 * every file the same, the tables right; on the zoned emulation the zones the moves
 * emptied reset, and a second batched move into those sections works (a zone whose
 * write pointer had stayed past its start would refuse the first write there). */
static void batches(struct zf2fs_dev *(*fresh)(void), bool zoned)
{
	struct zf2fs_dev *dev = fresh();
	struct zf2fs_vol *vol;
	struct batch_range b;
	struct zf2fs_move_stats st = { 0 };
	struct zf2fs_move_batch_result res;
	uint64_t ver, valid;

	make_aged(&dev, zoned, false);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	br_setup(&b, vol, dev);
	valid = br_valid(vol, &b);
	assert_true(valid > 40);
	ver = zf2fs_vol_info(vol)->cp_ver;
	assert_int_equal(zf2fs_move_batches(&vol, 0, 0, &br_ops, &b, &st, &res), -EINVAL);
	assert_int_equal(zf2fs_move_batches(&vol, 32, 0, &br_ops, &b, &st, &res), 0);
	assert_non_null(vol);
	assert_true(res.batches > 2);
	assert_int_equal(b.committed, res.batches);
	assert_int_equal(zf2fs_vol_info(vol)->cp_ver, ver + res.batches);
	/* a node block of the range rewritten earlier as an owner is not moved again */
	assert_true(st.data_blocks + st.node_blocks + st.owner_nodes >= valid);
	assert_int_equal(br_valid(vol, &b), 0);
	check_files(vol, false);
	check_tables(vol);
	if (zoned) {
		assert_true(res.zones_reset > 0);
		check_range_zones_empty(vol, &b);
	}
	print_message("%s: %" PRIu64 " valid blocks in %u batches of 32, %u zones reset\n",
		      zoned ? "zoned" : "plain", valid, res.batches, res.zones_reset);
	/* back into the lower half, the sections the first move emptied */
	b.start = zf2fs_vol_info(vol)->main_blkaddr + (uint64_t)b.first_sec *
		  zf2fs_vol_info(vol)->segs_per_sec * ZF2FS_BLOCKS_PER_SEG;
	b.end = zf2fs_vol_info(vol)->main_end;
	b.pos = b.start;
	b.end_sec = b.first_sec;
	b.first_sec = 0;
	memset(&st, 0, sizeof(st));
	assert_int_equal(zf2fs_move_batches(&vol, 64, 0, &br_ops, &b, &st, &res), 0);
	assert_int_equal(br_valid(vol, &b), 0);
	check_files(vol, false);
	check_tables(vol);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

static void test_batches(void **state)
{
	(void)state;
	batches(fresh_plain, false);
}

static void test_zoned_batches(void **state)
{
	(void)state;
	batches(fresh_zoned, true);
}

/* A fault at every write of a batched move (its commits' writes counted together): the
 * volume opens with a checkpoint between the old one and the last, every file the same,
 * the tables right; the move run again on it completes (on the zoned emulation: the
 * zones the failed batch wrote were reset). */
static void batch_faults(struct zf2fs_dev *(*fresh)(void), bool zoned)
{
	struct zf2fs_dev *base = fresh(), *dev;
	struct zf2fs_vol *vol;
	struct batch_range b;
	struct zf2fs_move_stats st = { 0 };
	struct zf2fs_move_batch_result res;
	unsigned long writes, k, mids = 0, olds = 0;
	uint64_t ver, last;

	make_aged(&base, zoned, false);
	dev = fresh();
	assert_int_equal(zs_dev_copy_memory(dev, base), 0);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	br_setup(&b, vol, dev);
	ver = zf2fs_vol_info(vol)->cp_ver;
	writes = zs_dev_write_count(dev);
	assert_int_equal(zf2fs_move_batches(&vol, 24, 0, &br_ops, &b, &st, &res), 0);
	writes = zs_dev_write_count(dev) - writes;
	last = ver + res.batches;
	assert_true(res.batches > 1);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	for (k = 1; k <= writes + 1; k++) {
		uint64_t now;
		int err;

		dev = fresh();
		assert_int_equal(zs_dev_copy_memory(dev, base), 0);
		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
		br_setup(&b, vol, dev);
		zs_dev_fail_writes_after(dev, zs_dev_write_count(dev) + k);
		memset(&st, 0, sizeof(st));
		err = zf2fs_move_batches(&vol, 24, 0, &br_ops, &b, &st, &res);
		zs_dev_fail_writes_after(dev, 0);
		if (k <= writes)
			assert_int_equal(err, -EIO);
		else
			assert_int_equal(err, 0);
		if (vol)
			zf2fs_vol_close(vol);
		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
		now = zf2fs_vol_info(vol)->cp_ver;
		assert_true(now >= ver && now <= last);
		assert_true(k <= writes || now == last);
		olds += now == ver;
		mids += now > ver && now < last;
		check_files(vol, false);
		check_tables(vol);
		/* finish the move: it must go through on what the fault left */
		br_setup(&b, vol, dev);
		memset(&st, 0, sizeof(st));
		assert_int_equal(zf2fs_move_batches(&vol, 24, 0, &br_ops, &b, &st, &res), 0);
		assert_int_equal(br_valid(vol, &b), 0);
		check_files(vol, false);
		zf2fs_vol_close(vol);
		zf2fs_dev_close(dev);
	}
	assert_true(olds > 0 && mids > 0);
	print_message("%s: a fault at each of the %lu writes of %u batches: %lu left the old "
		      "volume, %lu a completed batch's\n", zoned ? "zoned" : "plain", writes,
		      (unsigned)(last - ver), olds, mids);
	zf2fs_dev_close(base);
}

static void test_batch_faults(void **state)
{
	(void)state;
	batch_faults(fresh_plain, false);
}

static void test_zoned_batch_faults(void **state)
{
	(void)state;
	batch_faults(fresh_zoned, true);
}

/* Sections [first, first + n) all free in @vol's checkpoint, the lowest such run. */
static uint32_t free_run(struct zf2fs_vol *vol, uint32_t n)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_sit_entry *sit;
	uint32_t len = 0, first = UINT32_MAX;

	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	for (uint32_t sec = 0; sec < vi->main_secs && first == UINT32_MAX; sec++) {
		len = !sec_valid(vol, sit, sec) && !is_current_sec(vol, sec) ? len + 1 : 0;
		if (len == n)
			first = sec + 1 - n;
	}
	free(sit);
	assert_true(first != UINT32_MAX);
	return first;
}

/* Move file @ino (@blocks blocks) in file order, 150 blocks a commit, each commit keeping
 * sections [@first, @end) for the moved data (zf2fs_move_set_data_target); *@vol is
 * opened again after each commit (free zones reset).  0, or the first error (*@vol then
 * NULL or open).  *@commits counts the commits made. */
static int move_in_run(struct zf2fs_dev *dev, struct zf2fs_vol **vol, uint32_t ino,
		       uint64_t blocks, uint32_t first, uint32_t end, uint32_t *commits)
{
	struct zf2fs_node node;
	uint32_t addr;
	int err = 0;

	for (uint64_t fofs = 0; fofs < blocks && !err; fofs += 150) {
		struct zf2fs_move_stats st = { 0 };
		struct zf2fs_txn *txn;

		err = zf2fs_inode_read(*vol, ino, &node, NULL, NULL, 0);
		if (!err)
			err = zf2fs_txn_begin(*vol, &txn);
		if (err)
			break;
		assert_int_equal(zf2fs_move_set_data_target(txn, end, first), -EINVAL);
		err = zf2fs_move_set_data_target(txn, first, end);
		for (uint64_t k = fofs; k < fofs + 150 && k < blocks && !err; k++) {
			err = zf2fs_file_bmap(*vol, &node, k, &addr, NULL, 0);
			if (!err)
				err = zf2fs_move_range(txn, addr, 1, &st);
		}
		if (!err)
			err = zf2fs_txn_commit(txn);
		zf2fs_txn_free(txn);
		if (err)
			break;
		(*commits)++;
		zf2fs_vol_close(*vol);
		*vol = NULL;
		err = zf2fs_vol_open_devs(&dev, 1, &unit_quiet, vol);
		if (!err)
			err = zf2fs_move_reset_free_zones(*vol, NULL);
	}
	return err;
}

/* File f015 of an aged volume (made with big files): its inode and block count, and the
 * lowest run of free sections that holds its data (*@first, *@end). */
static void run_for(struct zf2fs_vol *vol, bool zoned, uint32_t *ino, uint64_t *blocks,
		    uint32_t *first, uint32_t *end)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_node node;
	struct zf2fs_file_extents ext;
	uint32_t usable = vi->segs_per_sec * ZF2FS_BLOCKS_PER_SEG;

	assert_int_equal(zf2fs_path_lookup(vol, "f015", 0, ino, NULL, 0), 0);
	assert_int_equal(zf2fs_inode_read(vol, *ino, &node, NULL, NULL, 0), 0);
	assert_int_equal(zf2fs_file_extents(vol, &node, &ext), 0);
	*blocks = ext.blocks;
	assert_true(*blocks > 1000);
	if (zoned)
		usable = 3 * ZF2FS_BLOCKS_PER_SEG;   /* 6 MiB of each 8 MiB zone */
	*first = free_run(vol, (uint32_t)(*blocks / usable) + 1);
	*end = *first + (uint32_t)(*blocks / usable) + 1;
}

/* The file in one extent at the run's first block, the run holding cold data only. */
static void check_in_run(struct zf2fs_vol *vol, uint32_t ino, uint64_t blocks, uint32_t first,
			 uint32_t end)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_node node;
	struct zf2fs_file_extents ext;
	struct zf2fs_sit_entry *sit;
	uint32_t addr;

	assert_int_equal(zf2fs_inode_read(vol, ino, &node, NULL, NULL, 0), 0);
	assert_int_equal(zf2fs_file_extents(vol, &node, &ext), 0);
	assert_int_equal(ext.blocks, blocks);
	assert_int_equal(ext.extents, 1);
	assert_int_equal(zf2fs_file_bmap(vol, &node, 0, &addr, NULL, 0), 0);
	assert_int_equal(addr, vi->main_blkaddr + (uint64_t)first * vi->segs_per_sec *
			       ZF2FS_BLOCKS_PER_SEG);
	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	for (uint32_t s = first * vi->segs_per_sec; s < end * vi->segs_per_sec; s++)
		if (zf2fs_sit_valid_blocks(&sit[s]))
			assert_int_equal(zf2fs_sit_type(&sit[s]), ZF2FS_LOG_COLD_DATA);
	free(sit);
}

/* A file moved in file order over several commits, each keeping a run of free sections
 * for the moved data (zf2fs_move_set_data_target): the file ends in one extent starting
 * at the run's first block, no segment of the run holds anything but cold data, every
 * file reads back the same and the tables add up; on the zoned emulation every write
 * lands at a write pointer (the cold data log goes on from commit to commit where the
 * last one left it). */
static void data_run(struct zf2fs_dev *(*fresh)(void), bool zoned)
{
	struct zf2fs_dev *dev = fresh();
	struct zf2fs_vol *vol;
	uint32_t ino, first, end, commits = 0;
	uint64_t blocks;

	make_aged(&dev, zoned, true);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	run_for(vol, zoned, &ino, &blocks, &first, &end);
	assert_int_equal(move_in_run(dev, &vol, ino, blocks, first, end, &commits), 0);
	assert_true(commits >= 7);
	check_in_run(vol, ino, blocks, first, end);
	check_files(vol, true);
	check_tables(vol);
	print_message("%s: %" PRIu64 " blocks in %u commits into sections %u-%u, one extent\n",
		      zoned ? "zoned" : "plain", blocks, commits, first, end - 1);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

/* A fault at every write (every 5th under the sanitizers) of that move (its commits'
 * writes counted together): the volume opens with a checkpoint between the old one and
 * the last, every file the same, the tables right.  On every 32nd, the file moved again
 * whole into a new run of the faulted volume ends in one extent there (on the zoned
 * emulation: the zones the failed commit wrote were reset). */
static void data_run_faults(struct zf2fs_dev *(*fresh)(void), bool zoned)
{
	struct zf2fs_dev *base = fresh(), *dev;
	struct zf2fs_vol *vol;
	uint32_t ino, first, end, commits = 0;
	unsigned long writes, k, olds = 0, mids = 0, again = 0;
	uint64_t blocks, ver, last;

	make_aged(&base, zoned, true);
	dev = fresh();
	assert_int_equal(zs_dev_copy_memory(dev, base), 0);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	run_for(vol, zoned, &ino, &blocks, &first, &end);
	ver = zf2fs_vol_info(vol)->cp_ver;
	writes = zs_dev_write_count(dev);
	assert_int_equal(move_in_run(dev, &vol, ino, blocks, first, end, &commits), 0);
	writes = zs_dev_write_count(dev) - writes;
	last = ver + commits;
	zf2fs_vol_close(vol);
	/* one device, its bytes put back each time: allocating one per fault is slow */
	for (k = 1; k <= writes; k += sweep_step(5)) {
		uint32_t c = 0, f2, e2;
		uint64_t now;

		assert_int_equal(zs_dev_copy_memory(dev, base), 0);
		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
		zs_dev_fail_writes_after(dev, k);
		assert_int_equal(move_in_run(dev, &vol, ino, blocks, first, end, &c), -EIO);
		zs_dev_fail_writes_after(dev, 0);
		if (vol)
			zf2fs_vol_close(vol);
		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
		now = zf2fs_vol_info(vol)->cp_ver;
		assert_true(now >= ver && now < last + (k == writes));
		olds += now == ver;
		mids += now > ver;
		check_files(vol, true);
		check_tables(vol);
		if (k % 32 == 1) {
			assert_int_equal(zf2fs_move_reset_free_zones(vol, NULL), 0);
			run_for(vol, zoned, &ino, &blocks, &f2, &e2);
			assert_int_equal(move_in_run(dev, &vol, ino, blocks, f2, e2, &c), 0);
			check_in_run(vol, ino, blocks, f2, e2);
			check_files(vol, true);
			again++;
		}
		zf2fs_vol_close(vol);
	}
	zf2fs_dev_close(dev);
	assert_true(olds > 0 && mids > 0 && again > 0);
	print_message("%s: a fault at %lu of the %lu writes of %u commits into a kept run: %lu "
		      "left the old volume, %lu a completed commit's; %lu moved again whole\n",
		      zoned ? "zoned" : "plain", olds + mids, writes, commits, olds, mids, again);
	zf2fs_dev_close(base);
}

static void test_data_run(void **state)
{
	(void)state;
	data_run(fresh_plain, false);
}

static void test_zoned_data_run(void **state)
{
	(void)state;
	data_run(fresh_zoned, true);
}

static void test_data_run_faults(void **state)
{
	(void)state;
	data_run_faults(fresh_plain, false);
}

static void test_zoned_data_run_faults(void **state)
{
	(void)state;
	data_run_faults(fresh_zoned, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_move_all),
		cmocka_unit_test(test_zoned_move_all),
		cmocka_unit_test(test_current_sections),
		cmocka_unit_test(test_target),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_fault_at_every_write),
		cmocka_unit_test(test_zoned_fault_at_every_write),
		cmocka_unit_test(test_batches),
		cmocka_unit_test(test_zoned_batches),
		cmocka_unit_test(test_batch_faults),
		cmocka_unit_test(test_zoned_batch_faults),
		cmocka_unit_test(test_data_run),
		cmocka_unit_test(test_zoned_data_run),
		cmocka_unit_test(test_data_run_faults),
		cmocka_unit_test(test_zoned_data_run_faults),
	};

	return cmocka_run_group_tests(tests, NULL, free_contents);
}
