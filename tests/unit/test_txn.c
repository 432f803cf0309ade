// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_txn.c - lib/write/txn.c on memory devices: files and directories created through a
 * transaction read back through the library's reader, the tables stay consistent
 * (every SIT count equals its bitmap, the counts add up to the checkpoint's), a
 * directory grows a hash level when its bucket is full, and a write failure injected at
 * every write of a commit leaves either the old volume or the new one, never a mix, on a
 * plain memory device and on an emulated host-managed zoned one.  A transaction flushed
 * on the way (zf2fs_txn_flush) writes one checkpoint, at its commit: before it the
 * volume reads as the old one, after it every block changed since a flush is there once,
 * and a fault at any write of the flushes or the commit leaves the old volume.
 */
#include <errno.h>

#include "unit.h"
#include "zf2fs/access.h"
#include "zf2fs/file.h"
#include "zf2fs/txn.h"
#include "zf2fs/txn_file.h"
#include "zf2fs-internal/commit.h"
#include "zf2fs-internal/volume.h"

#define MiB (1024ull * 1024)
#define VOL_BYTES (64 * MiB)

/* A freshly formatted image, kept to restore before every attempt. */
static uint8_t *format_image(uint32_t features)
{
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout lay;
	struct zf2fs_dev_geom g;
	struct zf2fs_dev *dev;
	uint8_t *img = malloc(VOL_BYTES);

	assert_non_null(img);
	memset(&mk, 0, sizeof(mk));
	assert_int_equal(zs_dev_open_memory(VOL_BYTES, &unit_quiet, &dev), 0);
	assert_int_equal(zf2fs_dev_geometry(dev, &g), 0);
	mk.layout.features = features;
	mk.fixed_cp_version = true;
	mk.timestamp = 1700000000;
	for (int i = 0; i < 16; i++)
		mk.uuid[i] = (uint8_t)(i * 17 + 1);
	assert_int_equal(zf2fs_layout_compute(&g, 1, &mk.layout, &lay, NULL, 0), 0);
	assert_int_equal(zf2fs_mkfs_write(&dev, &lay, &mk, &unit_quiet), 0);
	memcpy(img, zs_dev_memory(dev), VOL_BYTES);
	zf2fs_dev_close(dev);
	return img;
}

static struct zf2fs_dev *device_with(const uint8_t *img)
{
	struct zf2fs_dev *dev;

	assert_int_equal(zs_dev_open_memory(VOL_BYTES, &unit_quiet, &dev), 0);
	assert_int_equal(zf2fs_dev_write(dev, img, VOL_BYTES, 0), 0);
	return dev;
}

/* What a test creates: path components under the root, in order. */
struct item {
	const char *dir;      /* parent path ("" = root) */
	const char *name;
	bool is_dir;
	size_t len;           /* file bytes: a pattern from the name */
};

static void fill(uint8_t *buf, const char *name, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(name[i % strlen(name)] + i / 7);
}

/* Create @it in one transaction, flushed after every @flush_every items (0: never). */
static int apply_flushing(struct zf2fs_vol *vol, const struct item *it, size_t n,
			  size_t flush_every)
{
	struct zf2fs_txn *txn;
	uint32_t inos[64];
	int err;

	assert_true(n <= 64);
	err = zf2fs_txn_begin(vol, &txn);
	if (err)
		return err;
	zf2fs_txn_set_time(txn, 1700000100);
	for (size_t i = 0; i < n && !err; i++) {
		uint32_t dir = 0;
		uint8_t *data = NULL;

		for (size_t k = 0; k < i; k++)
			if (it[k].is_dir && !strcmp(it[k].name, it[i].dir))
				dir = inos[k];
		if (!dir)   /* a directory of an earlier transaction */
			assert_int_equal(zf2fs_path_lookup(vol, it[i].dir, 0, &dir, NULL, 0), 0);
		if (!it[i].is_dir) {
			data = malloc(it[i].len ? it[i].len : 1);
			assert_non_null(data);
			fill(data, it[i].name, it[i].len);
		}
		err = zf2fs_txn_create(txn, dir, it[i].name, it[i].is_dir ? 0040755 : 0100644,
				       data, it[i].is_dir ? 0 : it[i].len, &inos[i]);
		free(data);
		if (!err && flush_every && (i + 1) % flush_every == 0)
			err = zf2fs_txn_flush(txn);
	}
	if (!err)
		err = zf2fs_txn_commit(txn);
	zf2fs_txn_free(txn);
	return err;
}

static int apply(struct zf2fs_vol *vol, const struct item *it, size_t n)
{
	return apply_flushing(vol, it, n, 0);
}

/* 1: every item is there with its contents; 0: none is; anything else fails the test. */
static int state_of(struct zf2fs_vol *vol, const struct item *it, size_t n)
{
	size_t present = 0;

	for (size_t i = 0; i < n; i++) {
		char path[600];
		uint32_t ino;
		int err;

		snprintf(path, sizeof(path), "%s%s%s", it[i].dir, *it[i].dir ? "/" : "", it[i].name);
		err = zf2fs_path_lookup(vol, path, 0, &ino, NULL, 0);
		if (err == -ENOENT)
			continue;
		assert_int_equal(err, 0);
		present++;
		if (!it[i].is_dir) {
			struct zf2fs_node node;
			uint8_t *want = malloc(it[i].len + 1), *got = malloc(it[i].len + 1);
			size_t len = 0;

			assert_non_null(want);
			assert_non_null(got);
			fill(want, it[i].name, it[i].len);
			assert_int_equal(zf2fs_inode_read(vol, ino, &node, NULL, NULL, 0), 0);
			assert_int_equal(zf2fs_file_read_buf(vol, &node, got, it[i].len + 1, &len,
							     NULL, 0), 0);
			assert_int_equal(len, it[i].len);
			assert_memory_equal(got, want, it[i].len);
			free(want);
			free(got);
		}
	}
	assert_true(present == 0 || present == n);
	return present == n;
}

static const struct item small_set[] = {
	{ "", "a", false, 5000 },
	{ "", "dir", true, 0 },
	{ "dir", "b", false, 10 },
	{ "dir", "a-longer-file-name-than-one-slot", false, 3 * 4096 + 1 },
	{ "", "empty", false, 0 },
};
#define NSMALL (sizeof(small_set) / sizeof(small_set[0]))

static void test_create_and_read_back(void **state)
{
	uint32_t features[] = { 0, ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM |
				ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR | ZF2FS_FEAT_INODE_CRTIME |
				ZF2FS_FEAT_SB_CHKSUM };

	(void)state;
	for (size_t f = 0; f < sizeof(features) / sizeof(features[0]); f++) {
		uint8_t *img = format_image(features[f]);
		struct zf2fs_dev *dev = device_with(img);
		struct zf2fs_vol *vol;
		uint64_t ver;

		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
		ver = zf2fs_vol_info(vol)->cp_ver;
		assert_int_equal(apply(vol, small_set, NSMALL), 0);
		zf2fs_vol_close(vol);
		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
		assert_int_equal(zf2fs_vol_info(vol)->cp_ver, ver + 1);
		assert_int_equal(state_of(vol, small_set, NSMALL), 1);
		check_tables(vol);
		/* a second transaction on top of the first, and a name that exists */
		{
			const struct item more[] = { { "dir", "c", false, 100 } };
			struct zf2fs_txn *txn;
			uint32_t dir;

			assert_int_equal(apply(vol, more, 1), 0);
			zf2fs_vol_close(vol);
			assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
			assert_int_equal(zf2fs_vol_info(vol)->cp_ver, ver + 2);
			assert_int_equal(state_of(vol, more, 1), 1);
			assert_int_equal(state_of(vol, small_set, NSMALL), 1);
			check_tables(vol);
			assert_int_equal(zf2fs_path_lookup(vol, "dir", 0, &dir, NULL, 0), 0);
			assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
			assert_int_equal(zf2fs_txn_create(txn, dir, "c", 0100644, NULL, 0, NULL),
					 -EEXIST);
			assert_int_equal(zf2fs_txn_create(txn, ZF2FS_ROOT_INO, "x/y", 0100644, NULL,
							  0, NULL), -EINVAL);
			zf2fs_txn_free(txn);
		}
		zf2fs_vol_close(vol);
		zf2fs_dev_close(dev);
		free(img);
	}
}

/* A read-only volume (feature ro) has no summary area: its SSA address is the first main
 * block.  A segment that is no current log's has no summary (-ENODATA), nothing writes
 * one (-EROFS, the main area untouched), and a transaction writes through the hot data
 * and hot node logs only, its files read back. */
static void test_read_only_no_ssa(void **state)
{
	uint8_t *img = format_image(ZF2FS_FEAT_RO);
	struct zf2fs_dev *dev = device_with(img);
	struct zf2fs_summary_block sb;
	struct zf2fs_summary entries[ZF2FS_ENTRIES_IN_SUM] = { 0 };
	const struct zf2fs_vol_info *vi;
	struct zf2fs_vol *vol;
	uint32_t seg, off, probe;
	uint8_t *before = malloc(VOL_BYTES);

	(void)state;
	assert_non_null(before);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	vi = zf2fs_vol_info(vol);
	assert_false(zf2fs_vol_has_ssa(vol));
	zf2fs_vol_curseg(vol, ZF2FS_LOG_HOT_DATA, &seg, &off);
	assert_int_equal(zf2fs_vol_segment_summary(vol, seg, &sb), 0);
	assert_int_equal(sb.footer.entry_type, ZF2FS_SUM_TYPE_DATA);
	probe = seg + 3;   /* below the node log's last section: no log's */
	assert_int_equal(zf2fs_vol_segment_summary(vol, probe, &sb), -ENODATA);
	memcpy(before, zs_dev_memory(dev), VOL_BYTES);
	assert_int_equal(zf2fs_vol_write_ssa(vol, probe, ZF2FS_LOG_HOT_DATA, entries), -EROFS);
	assert_int_equal(zf2fs_vol_set_ssa_entry(vol, zf2fs_main_blk(vi->main_blkaddr, probe, 0),
						 1, 0, 0), -EROFS);
	assert_int_equal(zf2fs_vol_set_ssa_type(vol, probe, true), -EROFS);
	assert_memory_equal(before, zs_dev_memory(dev), VOL_BYTES);
	assert_int_equal(apply(vol, small_set, NSMALL), 0);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(state_of(vol, small_set, NSMALL), 1);
	/* the other four logs stay where mkfs put them, every written segment is hot */
	{
		const struct zf2fs_checkpoint *cp = zf2fs_vol_checkpoint(vol);
		const struct zf2fs_checkpoint *cp0 = (const void *)(before + ZF2FS_BLKSIZE *
			(size_t)zf2fs_vol_cp_pack_addr(vol, 0));
		const struct zf2fs_checkpoint *cp1 = (const void *)(before + ZF2FS_BLKSIZE *
			(size_t)zf2fs_vol_cp_pack_addr(vol, 1));
		const struct zf2fs_checkpoint *old = zf2fs_get(cp0->checkpoint_ver) >
						     zf2fs_get(cp1->checkpoint_ver) ? cp0 : cp1;
		struct zf2fs_sit_entry *sit;

		for (int i = 1; i < 3; i++) {
			assert_int_equal(zf2fs_get(cp->cur_data_segno[i]),
					 zf2fs_get(old->cur_data_segno[i]));
			assert_int_equal(zf2fs_get(cp->cur_node_segno[i]),
					 zf2fs_get(old->cur_node_segno[i]));
		}
		assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
		for (uint32_t s = 0; s < zf2fs_vol_info(vol)->main_segs; s++)
			if (zf2fs_sit_valid_blocks(&sit[s]))
				assert_true(zf2fs_sit_type(&sit[s]) == ZF2FS_LOG_HOT_DATA ||
					    zf2fs_sit_type(&sit[s]) == ZF2FS_LOG_HOT_NODE);
		free(sit);
	}
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	free(before);
	free(img);
}

/* The building blocks of a commit (lib/write/commit.c), as fsck's repair uses them: SIT and
 * NAT blocks go to the other copy and the new checkpoint reads them there, an SSA entry
 * is corrected in place, and a checkpoint that keeps a roll-forward chain has no umount
 * flag and no node summaries. */
static void test_commit_blocks(void **state)
{
	uint8_t *img = format_image(0);
	struct zf2fs_dev *dev = device_with(img);
	struct zf2fs_summary_block sb;
	struct zf2fs_vol *vol;
	uint8_t *blk = malloc(ZF2FS_BLKSIZE), *cpbuf;
	uint64_t ver, sit0, nat0, free_blk;
	uint32_t payload;

	(void)state;
	assert_non_null(blk);
	for (int round = 0; round < 2; round++) {
		const struct zf2fs_vol_info *vi;
		struct zf2fs_cp_logs logs;
		const struct zf2fs_checkpoint *cp;
		uint32_t last;

		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
		vi = zf2fs_vol_info(vol);
		ver = vi->cp_ver;
		sit0 = zf2fs_vol_sit_block_addr(vol, 0);
		nat0 = zf2fs_vol_nat_block_addr(vol, 0);
		payload = (uint32_t)zf2fs_get(zf2fs_vol_super(vol)->cp_payload);
		assert_int_equal(zf2fs_vol_cp_next(vol, round ? ZF2FS_CPN_RECOVERY : 0, &cpbuf), 0);
		assert_int_equal(zf2fs_get(((struct zf2fs_checkpoint *)cpbuf)->checkpoint_ver),
				 ver + 1);
		/* the new pack carries no journals: their entries go into the blocks */
		{
			struct zf2fs_sit_block *sblk = (struct zf2fs_sit_block *)blk;
			struct zf2fs_nat_block *nblk = (struct zf2fs_nat_block *)blk;
			struct zf2fs_sit_entry *sit;

			assert_int_equal(zf2fs_vol_read_block(vol, sit0, blk), 0);
			assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
			for (uint32_t e = 0; e < ZF2FS_SIT_PER_BLOCK && e < vi->main_segs; e++)
				sblk->entries[e] = sit[e];
			free(sit);
			assert_int_equal(zf2fs_vol_write_sit_next(vol, 0, blk, cpbuf), 0);
			assert_int_equal(zf2fs_vol_read_block(vol, nat0, blk), 0);
			for (uint32_t nid = 0; nid < ZF2FS_NAT_PER_BLOCK && nid < vi->max_nid; nid++) {
				struct zf2fs_nat_info ni;

				assert_int_equal(zf2fs_vol_nat_lookup(vol, nid, &ni), 0);
				zf2fs_nat_set(&nblk->entries[nid], ni.version, ni.ino, ni.blkaddr);
			}
			assert_int_equal(zf2fs_vol_write_nat_next(vol, 0, blk, cpbuf), 0);
		}
		assert_int_equal(zf2fs_vol_write_sit_next(vol, vi->sit_blocks, blk, cpbuf), -EINVAL);
		assert_int_equal(zf2fs_vol_write_nat_next(vol, vi->nat_blocks, blk, cpbuf), -EINVAL);
		/* the last segment holds no log: its summary is the SSA block */
		free_blk = zf2fs_main_blk(vi->main_blkaddr, vi->main_segs - 1, 7);
		assert_int_equal(zf2fs_vol_set_ssa_entry(vol, free_blk, 1234, 56, 7), 0);
		assert_int_equal(zf2fs_vol_set_ssa_entry(vol, vi->main_end, 1, 1, 0), -EINVAL);
		assert_int_equal(zf2fs_vol_set_ssa_type(vol, vi->main_segs - 1, true), 0);
		assert_int_equal(zf2fs_vol_set_ssa_type(vol, vi->main_segs, true), -EINVAL);
		for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
			zf2fs_vol_curseg(vol, t, &logs.segno[t], &logs.blkoff[t]);
			logs.alloc_type[t] = zf2fs_vol_checkpoint(vol)->alloc_type[t];
			logs.sum[t] = zf2fs_vol_curseg_summary(vol, t);
		}
		assert_int_equal(zf2fs_vol_write_cp_next(vol, cpbuf, &logs,
							 round ? ZF2FS_CPN_RECOVERY : 0), 0);
		free(cpbuf);
		zf2fs_vol_close(vol);

		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
		vi = zf2fs_vol_info(vol);
		cp = zf2fs_vol_checkpoint(vol);
		assert_int_equal(vi->cp_ver, ver + 1);
		assert_true(zf2fs_vol_sit_block_addr(vol, 0) != sit0);
		assert_true(zf2fs_vol_nat_block_addr(vol, 0) != nat0);
		assert_int_equal(zf2fs_vol_segment_summary(vol, vi->main_segs - 1, &sb), 0);
		assert_int_equal(zf2fs_get(sb.entries[7].nid), 1234);
		assert_int_equal(zf2fs_get(sb.entries[7].ofs_in_node), 56);
		assert_int_equal(sb.entries[7].version, 7);
		assert_int_equal(sb.footer.entry_type, ZF2FS_SUM_TYPE_NODE);
		last = round ? 3 : 6;
		assert_int_equal(zf2fs_get(cp->cp_pack_total_block_count), 1 + payload + last + 1);
		assert_int_equal(!!(vi->ckpt_flags & ZF2FS_CP_UMOUNT_FLAG), !round);
		assert_int_equal(!!(vi->ckpt_flags & ZF2FS_CP_NOCRC_RECOVERY_FLAG), round);
		{
			struct zf2fs_node root;

			assert_int_equal(zf2fs_inode_read(vol, ZF2FS_ROOT_INO, &root, NULL, NULL, 0),
					 0);
		}
		if (!round)
			check_tables(vol);
		zf2fs_vol_close(vol);
	}
	zf2fs_dev_close(dev);
	free(blk);
	free(img);
}

/* A checkpoint written with an orphan list of its own (ZF2FS_CPN_ORPHANS, fsck leaving
 * entries out): 1500 entries fill one orphan block and part of a second, each numbered
 * and counted as the kernel reads them, the flag set; then an empty list writes no block
 * and clears the flag. */
static void test_cp_orphans(void **state)
{
	uint8_t *img = format_image(0);
	struct zf2fs_dev *dev = device_with(img);
	struct zf2fs_orphan_block *ob = malloc(sizeof(*ob));
	uint32_t *ino = calloc(1500, sizeof(*ino));
	struct zf2fs_vol *vol;

	(void)state;
	assert_non_null(ob);
	assert_non_null(ino);
	for (uint32_t i = 0; i < 1500; i++)
		ino[i] = 100 + i;
	for (uint32_t n = 1500;; n = 0) {
		const struct zf2fs_checkpoint *cp;
		struct zf2fs_cp_logs logs = { .orphans = ino, .norphans = n };
		uint32_t payload, nblk = n ? 2 : 0;
		uint64_t start;
		uint8_t *cpbuf;

		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
		payload = (uint32_t)zf2fs_get(zf2fs_vol_super(vol)->cp_payload);
		assert_int_equal(zf2fs_vol_cp_next(vol, 0, &cpbuf), 0);
		for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
			zf2fs_vol_curseg(vol, t, &logs.segno[t], &logs.blkoff[t]);
			logs.alloc_type[t] = zf2fs_vol_checkpoint(vol)->alloc_type[t];
			logs.sum[t] = zf2fs_vol_curseg_summary(vol, t);
		}
		assert_int_equal(zf2fs_vol_write_cp_next(vol, cpbuf, &logs, ZF2FS_CPN_ORPHANS), 0);
		free(cpbuf);
		zf2fs_vol_close(vol);

		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
		cp = zf2fs_vol_checkpoint(vol);
		assert_int_equal(!!(zf2fs_get(cp->ckpt_flags) & ZF2FS_CP_ORPHAN_PRESENT_FLAG), !!n);
		assert_int_equal(zf2fs_get(cp->cp_pack_start_sum), 1 + payload + nblk);
		start = zf2fs_vol_cp_pack_addr(vol, zf2fs_vol_info(vol)->cp_pack) + 1 + payload;
		for (uint32_t b = 0; b < nblk; b++) {
			uint32_t cnt = b ? 1500 - ZF2FS_ORPHANS_PER_BLOCK : ZF2FS_ORPHANS_PER_BLOCK;

			assert_int_equal(zf2fs_vol_read_block(vol, start + b, ob), 0);
			assert_int_equal(zf2fs_get(ob->entry_count), cnt);
			assert_int_equal(zf2fs_get(ob->blk_addr), b + 1);
			assert_int_equal(zf2fs_get(ob->blk_count), 2);
			assert_int_equal(zf2fs_le32_to_cpu(ob->ino[0]), 100 + b * ZF2FS_ORPHANS_PER_BLOCK);
			assert_int_equal(zf2fs_le32_to_cpu(ob->ino[cnt - 1]),
					 100 + b * ZF2FS_ORPHANS_PER_BLOCK + cnt - 1);
		}
		zf2fs_vol_close(vol);
		if (!n)
			break;
	}
	zf2fs_dev_close(dev);
	free(ino);
	free(ob);
	free(img);
}

static struct zf2fs_dev *fresh_plain(void);

/* Link "a" as "dir/hard", unlink "a" and "empty": on a copy of @img after small_set. */
static int relink(struct zf2fs_vol *vol)
{
	struct zf2fs_txn *txn;
	uint32_t a, dir;
	int err;

	assert_int_equal(zf2fs_path_lookup(vol, "a", 0, &a, NULL, 0), 0);
	assert_int_equal(zf2fs_path_lookup(vol, "dir", 0, &dir, NULL, 0), 0);
	err = zf2fs_txn_begin(vol, &txn);
	if (!err)
		err = zf2fs_txn_link(txn, dir, "hard", a);
	if (!err)
		err = zf2fs_txn_unlink(txn, ZF2FS_ROOT_INO, "a");
	if (!err)
		err = zf2fs_txn_unlink(txn, ZF2FS_ROOT_INO, "empty");
	if (!err) {
		assert_int_equal(zf2fs_txn_unlink(txn, ZF2FS_ROOT_INO, "dir"), -ENOTEMPTY);
		assert_int_equal(zf2fs_txn_unlink(txn, ZF2FS_ROOT_INO, "nothing"), -ENOENT);
		assert_int_equal(zf2fs_txn_link(txn, ZF2FS_ROOT_INO, "d2", dir), -EPERM);
		err = zf2fs_txn_commit(txn);
	}
	zf2fs_txn_free(txn);
	return err;
}

/* 1 after relink(), 0 before it; anything else fails. */
static int relinked(struct zf2fs_vol *vol)
{
	const struct item hard = { "dir", "hard", false, 0 };
	uint32_t ino;
	int a = zf2fs_path_lookup(vol, "a", 0, &ino, NULL, 0);
	int h = zf2fs_path_lookup(vol, "dir/hard", 0, &ino, NULL, 0);
	int e = zf2fs_path_lookup(vol, "empty", 0, &ino, NULL, 0);

	if (a == 0 && h == -ENOENT && e == 0)
		return 0;
	assert_int_equal(a, -ENOENT);
	assert_int_equal(h, 0);
	assert_int_equal(e, -ENOENT);
	{   /* the link reads as "a" did */
		struct zf2fs_node node;
		uint8_t want[5000], got[5001];
		size_t len;

		(void)hard;
		fill(want, "a", sizeof(want));
		assert_int_equal(zf2fs_inode_read(vol, ino, &node, NULL, NULL, 0), 0);
		assert_int_equal(zf2fs_get(node.i.i_links), 1);
		assert_int_equal(zf2fs_file_read_buf(vol, &node, got, sizeof(got), &len, NULL, 0), 0);
		assert_int_equal(len, sizeof(want));
		assert_memory_equal(got, want, sizeof(want));
	}
	return 1;
}

static int apply_relink(struct zf2fs_vol *vol, void *arg)
{
	(void)arg;
	return relink(vol);
}

static bool relink_is_new(struct zf2fs_vol *vol, void *arg)
{
	bool now = relinked(vol);

	(void)arg;
	/* the rest of the small set is there either way */
	assert_int_equal(state_of(vol, small_set + 1, NSMALL - 2), 1);
	check_tables(vol);
	return now;
}

static void test_link_and_unlink(void **state)
{
	uint8_t *img = format_image(ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM);
	struct zf2fs_dev *base = device_with(img), *dev;
	struct zf2fs_vol *vol;
	uint64_t inodes;

	(void)state;
	assert_int_equal(zf2fs_vol_open_devs(&base, 1, &unit_quiet, &vol), 0);
	assert_int_equal(apply(vol, small_set, NSMALL), 0);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&base, 1, &unit_quiet, &vol), 0);
	inodes = zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_inode_count);
	zf2fs_vol_close(vol);

	dev = fresh_plain();
	assert_int_equal(zs_dev_copy_memory(dev, base), 0);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(relink(vol), 0);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(relinked(vol), 1);
	check_tables(vol);
	/* "empty" went, "a" lives on as dir/hard */
	assert_int_equal(zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_inode_count), inodes - 1);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);

	fault_sweep(&(struct fault_sweep){ .base = base, .fresh = fresh_plain, .log = &unit_quiet,
					   .apply = apply_relink, .is_new = relink_is_new });
	zf2fs_dev_close(base);
	free(img);
}

/* Make directory @path inline, as the kernel creates directories: ".", ".." and one entry
 * @name -> @ino in the inode's inline area, written over the inode in place (the old
 * dentry block stays allocated: a leak, harmless for this test). */
static void make_inline(struct zf2fs_vol *vol, const char *path, const char *name, uint32_t ino)
{
	struct zf2fs_node n;
	struct zf2fs_inode_geom g;
	struct zf2fs_dentry_view v;
	uint32_t dir, addr;
	uint8_t *bitmap;
	struct zf2fs_dir_entry *de;
	uint8_t (*fn)[ZF2FS_SLOT_LEN];
	const char *names[3] = { ".", "..", name };
	uint32_t inos[3];

	assert_int_equal(zf2fs_path_lookup(vol, path, 0, &dir, NULL, 0), 0);
	assert_int_equal(zf2fs_inode_read(vol, dir, &n, &addr, NULL, 0), 0);
	inos[0] = dir;
	inos[1] = (uint32_t)zf2fs_get(n.i.i_pino);
	inos[2] = ino;
	n.i.i_inline |= ZF2FS_INLINE_DENTRY;
	assert_int_equal(zf2fs_inode_geometry(&n.i, 0, &g), 0);
	memset(&n.i.i_addr[g.extra_words], 0, 4 + g.inline_bytes);
	assert_int_equal(zf2fs_dentry_view_inline(&n, 0, &v), 0);
	bitmap = (uint8_t *)v.bitmap;
	de = (struct zf2fs_dir_entry *)v.dentry;
	fn = (uint8_t (*)[ZF2FS_SLOT_LEN])v.filename;
	for (int i = 0; i < 3; i++) {
		size_t len = strlen(names[i]);

		zf2fs_set(de[i].hash_code, zf2fs_dentry_hash(names[i], len));
		zf2fs_set(de[i].ino, inos[i]);
		zf2fs_set(de[i].name_len, len);
		de[i].file_type = i < 2 ? ZF2FS_FT_DIR : ZF2FS_FT_REG_FILE;
		memcpy(fn[i], names[i], len);
		zf2fs_dentry_bit_set(bitmap, (uint32_t)i);
	}
	zf2fs_set(n.i.i_size, g.inline_bytes);
	zf2fs_set(n.i.i_current_depth, 0);
	zf2fs_set(n.i.i_blocks, 1);
	assert_int_equal(zf2fs_vol_write_block(vol, addr, &n), 0);
}

static void test_inline_dir_converted(void **state)
{
	const struct item first[] = { { "", "idir", true, 0 }, { "", "k", false, 33 } };
	const struct item later[] = { { "idir", "new-after-conversion", false, 4097 } };
	uint8_t *img = format_image(0);
	struct zf2fs_dev *dev = device_with(img);
	struct zf2fs_vol *vol;
	struct zf2fs_node n;
	uint32_t k, ino, parent;

	(void)state;
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(apply(vol, first, 2), 0);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_path_lookup(vol, "k", 0, &k, NULL, 0), 0);
	make_inline(vol, "idir", "kept", k);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_path_lookup(vol, "idir/kept", 0, &ino, NULL, 0), 0);
	assert_int_equal(apply(vol, later, 1), 0);
	zf2fs_vol_close(vol);

	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(state_of(vol, later, 1), 1);
	assert_int_equal(zf2fs_path_lookup(vol, "idir/kept", 0, &ino, NULL, 0), 0);
	assert_int_equal(ino, k);
	assert_int_equal(zf2fs_path_lookup(vol, "idir/..", 0, &parent, NULL, 0), 0);
	assert_int_equal(parent, ZF2FS_ROOT_INO);
	assert_int_equal(zf2fs_path_lookup(vol, "idir", 0, &ino, NULL, 0), 0);
	assert_int_equal(zf2fs_inode_read(vol, ino, &n, NULL, NULL, 0), 0);
	assert_false(n.i.i_inline & ZF2FS_INLINE_DENTRY);
	assert_int_equal(zf2fs_get(n.i.i_current_depth), 1);
	assert_int_equal(zf2fs_get(n.i.i_size), ZF2FS_BLKSIZE);
	check_tables(vol);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	free(img);
}

static void test_rmdir(void **state)
{
	const struct item first[] = { { "", "e", true, 0 }, { "", "f", true, 0 },
				      { "f", "x", false, 1 } };
	uint8_t *img = format_image(0);
	struct zf2fs_dev *dev = device_with(img);
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	struct zf2fs_node root;
	uint32_t ino, f;
	uint64_t inodes, blocks;

	(void)state;
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	inodes = zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_inode_count);
	blocks = zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_block_count);
	assert_int_equal(apply(vol, first, 3), 0);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_inode_read(vol, ZF2FS_ROOT_INO, &root, NULL, NULL, 0), 0);
	assert_int_equal(zf2fs_get(root.i.i_links), 4);
	assert_int_equal(zf2fs_path_lookup(vol, "f", 0, &f, NULL, 0), 0);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	assert_int_equal(zf2fs_txn_unlink(txn, ZF2FS_ROOT_INO, "f"), -ENOTEMPTY);
	assert_int_equal(zf2fs_txn_create(txn, f, "y", 0100644, NULL, 0, &ino), 0);
	assert_int_equal(zf2fs_txn_unlink(txn, f, "y"), -EBUSY);
	assert_int_equal(zf2fs_txn_unlink(txn, ZF2FS_ROOT_INO, "e"), 0);
	assert_int_equal(zf2fs_txn_unlink(txn, f, "x"), 0);
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_path_lookup(vol, "e", 0, &ino, NULL, 0), -ENOENT);
	assert_int_equal(zf2fs_path_lookup(vol, "f/x", 0, &ino, NULL, 0), -ENOENT);
	assert_int_equal(zf2fs_path_lookup(vol, "f/y", 0, &ino, NULL, 0), 0);
	assert_int_equal(zf2fs_inode_read(vol, ZF2FS_ROOT_INO, &root, NULL, NULL, 0), 0);
	assert_int_equal(zf2fs_get(root.i.i_links), 3);
	/* e and x went, y came: one directory (inode and dentry block) more than at first,
	 * and one empty file */
	assert_int_equal(zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_inode_count), inodes + 2);
	assert_int_equal(zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_block_count), blocks + 3);
	check_tables(vol);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	free(img);
}

/* zf2fs_dentry_add: first fit over the bitmap, the kernel's hash, -ENOSPC when no run
 * of free slots holds the name. */
static void test_dentry_add(void **state)
{
	struct zf2fs_dentry_block *db = calloc(1, ZF2FS_BLKSIZE);
	const char *long_name = "abcdefghijklmnopqrstuvwx";   /* 24 bytes: 3 slots */
	struct zf2fs_dentry_view v;
	uint32_t n = 0;

	(void)state;
	assert_non_null(db);
	zf2fs_dentry_view_block(db, &v);
	assert_int_equal(zf2fs_dentry_add(&v, "a", 1, 10, ZF2FS_FT_REG_FILE), 0);
	assert_int_equal(zf2fs_dentry_add(&v, long_name, 24, 11, ZF2FS_FT_DIR), 1);
	assert_int_equal(zf2fs_get(db->dentry[1].hash_code), zf2fs_dentry_hash(long_name, 24));
	assert_int_equal(zf2fs_get(db->dentry[1].ino), 11);
	assert_int_equal(zf2fs_get(db->dentry[1].name_len), 24);
	assert_int_equal(db->dentry[1].file_type, ZF2FS_FT_DIR);
	assert_memory_equal(db->filename[1], long_name, 24);
	assert_true(zf2fs_dentry_slot_used(&v, 3) && !zf2fs_dentry_slot_used(&v, 4));
	/* a hole of one slot is passed over by a longer name, filled by a short one */
	zf2fs_dentry_bit_clear(db->dentry_bitmap, 0);
	assert_int_equal(zf2fs_dentry_add(&v, "bb-bb-bb-bb", 11, 12, ZF2FS_FT_REG_FILE), 4);
	assert_int_equal(zf2fs_dentry_add(&v, "c", 1, 13, ZF2FS_FT_REG_FILE), 0);
	while (zf2fs_dentry_add(&v, "x", 1, 14, ZF2FS_FT_REG_FILE) >= 0)
		n++;
	assert_int_equal(n, ZF2FS_DENTRY_PER_BLOCK - 6);
	assert_int_equal(zf2fs_dentry_add(&v, "y", 1, 15, ZF2FS_FT_REG_FILE), -ENOSPC);
	free(db);
}

/* zf2fs_dentry_copy keeps the entry as it is but for the hash it is given, takes the
 * first fit from the slot asked for; zf2fs_dentry_put / zf2fs_dentry_del set and free
 * slots. */
static void test_dentry_copy(void **state)
{
	struct zf2fs_dentry_block *a = calloc(1, ZF2FS_BLKSIZE), *b = calloc(1, ZF2FS_BLKSIZE);
	const char *name = "abcdefghijk";   /* 11 bytes: 2 slots */
	struct zf2fs_dentry_view va, vb;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	zf2fs_dentry_view_block(a, &va);
	zf2fs_dentry_view_block(b, &vb);
	zf2fs_dentry_put(&va, 0, ".", 1, 0, 3, ZF2FS_FT_DIR);
	assert_true(zf2fs_dentry_slot_used(&va, 0) && !zf2fs_dentry_slot_used(&va, 1));
	assert_int_equal(zf2fs_get(a->dentry[0].hash_code), 0);
	assert_int_equal(zf2fs_dentry_add(&va, name, 11, 20, ZF2FS_FT_SYMLINK), 1);
	assert_int_equal(zf2fs_dentry_entry_slots(&va, 1), 2);
	memset(b->filename[2], 'z', 3 * ZF2FS_SLOT_LEN);   /* left by an entry gone */
	assert_int_equal(zf2fs_dentry_copy(&vb, 2, &va, 1, 0x1234), 2);
	assert_int_equal(zf2fs_get(b->dentry[2].hash_code), 0x1234);
	assert_int_equal(zf2fs_get(b->dentry[2].ino), 20);
	assert_int_equal(zf2fs_get(b->dentry[2].name_len), 11);
	assert_int_equal(b->dentry[2].file_type, ZF2FS_FT_SYMLINK);
	assert_memory_equal(b->filename[2], name, 11);
	assert_int_equal(b->filename[3][3], 0);
	assert_int_equal(b->filename[4][0], 'z');
	assert_true(!zf2fs_dentry_slot_used(&vb, 1) && zf2fs_dentry_slot_used(&vb, 3) &&
		    !zf2fs_dentry_slot_used(&vb, 4));
	/* within one area: past the source, which keeps its slots until freed */
	assert_int_equal(zf2fs_dentry_copy(&va, 0, &va, 1, 7), 3);
	zf2fs_dentry_del(&va, 1, 2);
	assert_true(!zf2fs_dentry_slot_used(&va, 1) && !zf2fs_dentry_slot_used(&va, 2) &&
		    zf2fs_dentry_slot_used(&va, 3));
	/* a damaged entry without a name still holds its slot; one running past the end
	 * is refused */
	zf2fs_set(a->dentry[1].name_len, 0);
	zf2fs_dentry_bit_set(a->dentry_bitmap, 1);
	assert_int_equal(zf2fs_dentry_entry_slots(&va, 1), 1);
	zf2fs_set(b->dentry[ZF2FS_DENTRY_PER_BLOCK - 1].name_len, 30);
	assert_int_equal(zf2fs_dentry_copy(&va, 0, &vb, ZF2FS_DENTRY_PER_BLOCK - 1, 0),
			 -ZF2FS_EFSCORRUPTED);
	/* no run long enough */
	for (uint32_t i = 0; i < ZF2FS_DENTRY_PER_BLOCK; i++)
		zf2fs_dentry_bit_set(b->dentry_bitmap, i);
	zf2fs_dentry_del(&vb, ZF2FS_DENTRY_PER_BLOCK - 1, 5);
	assert_int_equal(zf2fs_dentry_copy(&vb, 0, &va, 3, 0), -ENOSPC);
	free(a);
	free(b);
}

/* Create @it (@n items) in one transaction, open the volume again, find them there. */
static void create_and_reopen(struct zf2fs_dev **dev, struct zf2fs_vol **vol,
			      const struct item *it, size_t n)
{
	assert_int_equal(apply(*vol, it, n), 0);
	zf2fs_vol_close(*vol);
	assert_int_equal(zf2fs_vol_open_devs(dev, 1, &unit_quiet, vol), 0);
	assert_int_equal(state_of(*vol, it, n), 1);
}

/* The inode of @name in the root directory. */
static void root_inode(struct zf2fs_vol *vol, const char *name, struct zf2fs_node *ret)
{
	uint32_t ino;

	assert_int_equal(zf2fs_path_lookup(vol, name, 0, &ino, NULL, 0), 0);
	assert_int_equal(zf2fs_inode_read(vol, ino, ret, NULL, NULL, 0), 0);
}

/* Files past the inode's own addresses get direct nodes (one, then two), then indirect
 * nodes, as zf2fs_txn_write_block maps them; only a file past double indirect nodes is
 * refused, before anything of it is queued. */
static void test_direct_nodes(void **state)
{
	const struct item big[] = { { "", "six", false, 6 * MiB + 123 },
				    { "", "ten", false, 10 * MiB } };
	uint8_t *img = format_image(ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM);
	struct zf2fs_dev *dev = device_with(img);
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	struct zf2fs_node n;
	uint8_t *huge = calloc(1, 12 * MiB);

	(void)state;
	assert_non_null(huge);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	create_and_reopen(&dev, &vol, big, 2);
	root_inode(vol, "six", &n);
	assert_true(zf2fs_get(n.i.i_nid[0]) != 0);
	assert_int_equal(zf2fs_get(n.i.i_nid[1]), 0);
	root_inode(vol, "ten", &n);
	assert_true(zf2fs_get(n.i.i_nid[1]) != 0);
	/* inode + data blocks + direct nodes */
	assert_int_equal(zf2fs_get(n.i.i_blocks), 1 + 10 * MiB / ZF2FS_BLKSIZE + 2);
	check_tables(vol);
	/* 12 MiB more than the 64 MiB volume's users may have: refused, nothing changes
	 * (such a commit used to write a checkpoint that the next open passed over) */
	{
		const struct item past[] = { { "", "twelve", false, 12 * MiB + 5 } };
		uint64_t ver = zf2fs_vol_info(vol)->cp_ver;

		assert_int_equal(apply(vol, past, 1), -ENOSPC);
		zf2fs_vol_close(vol);
		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
		assert_int_equal(zf2fs_vol_info(vol)->cp_ver, ver);
		assert_int_equal(state_of(vol, past, 1), 0);
		assert_int_equal(state_of(vol, big, 2), 1);
	}
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	free(img);
	/* a fresh volume for it */
	img = format_image(ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM);
	dev = device_with(img);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	{
		const struct item past[] = { { "", "twelve", false, 12 * MiB + 5 } };
		struct zf2fs_node ind;
		uint64_t blocks = (12 * MiB + 5 + ZF2FS_BLKSIZE - 1) / ZF2FS_BLKSIZE;

		create_and_reopen(&dev, &vol, past, 1);
		root_inode(vol, "twelve", &n);
		assert_true(zf2fs_get(n.i.i_nid[2]) != 0);
		assert_int_equal(zf2fs_get(n.i.i_nid[3]), 0);
		/* the first indirect node names one direct node: the file's last blocks */
		assert_int_equal(zf2fs_vol_read_node(vol, (uint32_t)zf2fs_get(n.i.i_nid[2]), &ind,
						     NULL, NULL, 0), 0);
		assert_true(zf2fs_get(ind.in.nid[0]) != 0);
		assert_int_equal(zf2fs_get(ind.in.nid[1]), 0);
		/* inode + data blocks + two direct nodes, the indirect node and its direct node */
		assert_int_equal(zf2fs_get(n.i.i_blocks), 1 + blocks + 4);
		check_tables(vol);
	}
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	/* about 4 TiB: the data is never read, so @huge need not be that long */
	if (sizeof(size_t) > 4)
		assert_int_equal(zf2fs_txn_create(txn, ZF2FS_ROOT_INO, "too-big", 0100644, huge,
						  (size_t)(1ull << 43), NULL), -EFBIG);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	free(huge);
	free(img);
}

/* More names than level 0's bucket (2 blocks of 214 slots) holds: a new level. */
static void test_new_hash_level(void **state)
{
	uint8_t *img = format_image(0);
	struct zf2fs_dev *dev = device_with(img);
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	struct zf2fs_node root;
	char name[32];
	const unsigned n = 3 * 214;   /* names of 12 bytes take 2 slots */

	(void)state;
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	for (unsigned i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "file-%07u", i);
		assert_int_equal(zf2fs_txn_create(txn, ZF2FS_ROOT_INO, name, 0100644, name,
						  strlen(name), NULL), 0);
	}
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_inode_read(vol, ZF2FS_ROOT_INO, &root, NULL, NULL, 0), 0);
	assert_true(zf2fs_get(root.i.i_current_depth) >= 2);
	for (unsigned i = 0; i < n; i++) {
		uint32_t ino;

		snprintf(name, sizeof(name), "file-%07u", i);
		assert_int_equal(zf2fs_path_lookup(vol, name, 0, &ino, NULL, 0), 0);
	}
	check_tables(vol);
	assert_int_equal(zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_inode_count), 1 + n);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	free(img);
}

/* A failure at write k, for every k of the commit, on copies of @base: the old volume or
 * the new one.  @fresh makes an empty device of @base's kind. */
static int apply_small(struct zf2fs_vol *vol, void *arg)
{
	/* @arg: flush after every so many items (NULL: never) */
	return apply_flushing(vol, small_set, NSMALL, arg ? *(const size_t *)arg : 0);
}

static bool small_is_new(struct zf2fs_vol *vol, void *arg)
{
	bool now = state_of(vol, small_set, NSMALL);

	(void)arg;
	check_tables(vol);
	return now;
}

static void fault_at_every_write(const struct zf2fs_dev *base, struct zf2fs_dev *(*fresh)(void))
{
	static const size_t every_item = 1;
	const struct fault_sweep fs = { .base = base, .fresh = fresh, .log = &unit_quiet,
					.apply = apply_small, .is_new = small_is_new };
	struct fault_sweep flushed = fs;
	unsigned long one, many;

	one = fault_sweep(&fs);
	/* the same changes flushed after every item: more writes, still one checkpoint, and
	 * a fault in a flush leaves the old volume (fault_sweep checks the version) */
	flushed.arg = (void *)&every_item;
	many = fault_sweep(&flushed);
	assert_true(many > one);
}

static struct zf2fs_dev *fresh_plain(void)
{
	struct zf2fs_dev *dev;

	assert_int_equal(zs_dev_open_memory(VOL_BYTES, &unit_quiet, &dev), 0);
	return dev;
}

static void test_fault_at_every_write(void **state)
{
	uint8_t *img = format_image(ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM);
	struct zf2fs_dev *base = device_with(img);

	(void)state;
	fault_at_every_write(base, fresh_plain);
	zf2fs_dev_close(base);
	free(img);
}

/* A host-managed zoned device: 8 MiB zones (a section of 4 segments) writable for 6 MiB,
 * the metadata in 4 conventional zones.  Every write of the commit must land at a write
 * pointer inside the zone capacity, or the emulation fails it. */
#define ZONED_BYTES (256 * MiB)
static struct zf2fs_dev *fresh_zoned(void)
{
	struct zf2fs_dev *dev;

	assert_int_equal(zs_dev_open_memory_zoned(ZONED_BYTES, 8 * MiB, 6 * MiB, 4, &unit_quiet,
						     &dev), 0);
	return dev;
}

static void test_zoned_fault_at_every_write(void **state)
{
	struct zf2fs_dev *base = fresh_zoned();
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout lay;
	struct zf2fs_dev_geom g;
	struct zf2fs_vol *vol;

	(void)state;
	/* the emulation refuses what a zoned drive refuses */
	{
		struct zf2fs_dev *z = fresh_zoned();
		uint8_t blk[ZF2FS_BLKSIZE] = { 0 };
		uint64_t zone5 = 5 * 8 * MiB;

		assert_int_equal(zf2fs_dev_write(z, blk, sizeof(blk), zone5 + 4096), -EIO);
		assert_int_equal(zf2fs_dev_write(z, blk, sizeof(blk), zone5), 0);
		assert_int_equal(zf2fs_dev_write(z, blk, sizeof(blk), zone5 + 4096), 0);
		{   /* at the write pointer, but past the capacity */
			uint8_t *big = calloc(1, 6 * MiB);

			assert_non_null(big);
			assert_int_equal(zf2fs_dev_write(z, big, 6 * MiB, zone5 + 8192), -EIO);
			assert_int_equal(zf2fs_dev_write(z, big, 6 * MiB - 8192, zone5 + 8192), 0);
			free(big);
		}
		assert_int_equal(zf2fs_dev_write(z, blk, sizeof(blk), 4096), 0);   /* conventional */
		zf2fs_dev_close(z);
	}
	memset(&mk, 0, sizeof(mk));
	assert_int_equal(zf2fs_dev_geometry(base, &g), 0);
	assert_int_equal(g.zone_model, ZF2FS_ZONED_HM);
	mk.layout.zoned = true;
	mk.fixed_cp_version = true;
	mk.timestamp = 1700000000;
	assert_int_equal(zf2fs_layout_compute(&g, 1, &mk.layout, &lay, NULL, 0), 0);
	assert_int_equal(lay.segs_per_sec, 4);
	assert_int_equal(zf2fs_mkfs_write(&base, &lay, &mk, &unit_quiet), 0);
	assert_int_equal(zf2fs_vol_open_devs(&base, 1, &unit_quiet, &vol), 0);
	assert_true(zf2fs_vol_info(vol)->features & ZF2FS_FEAT_BLKZONED);
	zf2fs_vol_close(vol);
	fault_at_every_write(base, fresh_zoned);
	zf2fs_dev_close(base);
}

/* The first data block of root file @name. */
static uint32_t first_block(struct zf2fs_vol *vol, const char *name)
{
	struct zf2fs_node node;
	uint32_t addr;

	root_inode(vol, name, &node);
	assert_int_equal(zf2fs_file_bmap(vol, &node, 0, &addr, NULL, 0), 0);
	return addr;
}

/* Logs go on where the checkpoint's logs stand: a commit's file lands at the warm data
 * log's position of the commit before, in its segment (as the kernel's logs go on), so
 * commits fill a section instead of opening one per log each; zf2fs_txn_fresh_logs
 * starts in a fresh section instead.  On the zoned emulation each write must land at
 * its zone's write pointer, or it fails. */
static void logs_go_on(struct zf2fs_dev *dev)
{
	const struct item one[] = { { "", "one", false, 5 * 4096 } };
	const struct item two[] = { { "", "two", false, 3 * 4096 } };
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	uint32_t seg, off, seg2, off2, sps;
	uint64_t want;

	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	create_and_reopen(&dev, &vol, one, 1);
	zf2fs_vol_curseg(vol, ZF2FS_LOG_WARM_DATA, &seg, &off);
	assert_true(off > 0 && off < ZF2FS_BLOCKS_PER_SEG);
	want = zf2fs_main_blk(zf2fs_vol_info(vol)->main_blkaddr, seg, off);
	create_and_reopen(&dev, &vol, two, 1);
	/* right after: the commit's other data (the root's dentry block) may come first */
	assert_true(first_block(vol, "two") >= want && first_block(vol, "two") <= want + 1);
	zf2fs_vol_curseg(vol, ZF2FS_LOG_WARM_DATA, &seg2, &off2);
	assert_int_equal(seg2, seg);
	assert_true(off2 >= off + 3 && off2 <= off + 4);
	/* one of a fresh generation: another section */
	sps = zf2fs_vol_info(vol)->segs_per_sec;
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	zf2fs_txn_fresh_logs(txn);
	assert_int_equal(zf2fs_txn_create(txn, ZF2FS_ROOT_INO, "three", 0100644,
					  (const uint8_t *)"x", 1, NULL), 0);
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	zf2fs_vol_curseg(vol, ZF2FS_LOG_WARM_DATA, &seg2, &off2);
	assert_true(seg2 / sps != seg / sps);
	check_tables(vol);
	zf2fs_vol_close(vol);
}

static void test_logs_go_on(void **state)
{
	uint8_t *img = format_image(ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM);
	struct zf2fs_dev *dev = device_with(img);

	(void)state;
	logs_go_on(dev);
	zf2fs_dev_close(dev);
	free(img);
}

static void test_zoned_logs_go_on(void **state)
{
	struct zf2fs_dev *dev = fresh_zoned();
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout lay;
	struct zf2fs_dev_geom g;

	(void)state;
	memset(&mk, 0, sizeof(mk));
	assert_int_equal(zf2fs_dev_geometry(dev, &g), 0);
	mk.layout.zoned = true;
	mk.fixed_cp_version = true;
	mk.timestamp = 1700000000;
	assert_int_equal(zf2fs_layout_compute(&g, 1, &mk.layout, &lay, NULL, 0), 0);
	assert_int_equal(zf2fs_mkfs_write(&dev, &lay, &mk, &unit_quiet), 0);
	logs_go_on(dev);
	zf2fs_dev_close(dev);
}

/* SSR: a volume without a free section, whose dirty segments have free blocks (every
 * other file of a full volume removed), takes a file into those holes, as the kernel's
 * SSR fills them; the file reads back, the tables add up, the blocks lie in segments
 * that held blocks before; a fault at every write of that commit leaves the old volume
 * or the new one. */
static const struct item ssr_set[] = { { "", "in-holes", false, 300 * 4096 + 17 } };

static int apply_ssr(struct zf2fs_vol *vol, void *arg)
{
	(void)arg;
	return apply(vol, ssr_set, 1);
}

static bool ssr_is_new(struct zf2fs_vol *vol, void *arg)
{
	bool now = state_of(vol, ssr_set, 1);

	(void)arg;
	check_tables(vol);
	return now;
}

/* Free sections of @vol: no valid block in any segment and no log in it. */
static uint32_t free_sections(struct zf2fs_vol *vol)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_sit_entry *sit;
	uint32_t n = 0;

	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	for (uint32_t sec = 0; sec < vi->main_secs; sec++) {
		bool busy = false;

		for (uint32_t k = 0; k < vi->segs_per_sec; k++) {
			uint32_t s = sec * vi->segs_per_sec + k, cs, off;

			busy |= zf2fs_sit_valid_blocks(&sit[s]) != 0;
			for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
				zf2fs_vol_curseg(vol, t, &cs, &off);
				busy |= cs == s;
			}
		}
		n += !busy;
	}
	free(sit);
	return n;
}

static void test_ssr(void **state)
{
	uint8_t *img = format_image(ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM);
	struct zf2fs_dev *dev = device_with(img);
	const struct fault_sweep fs = { .fresh = fresh_plain, .log = &unit_quiet,
					.apply = apply_ssr, .is_new = ssr_is_new };
	struct fault_sweep sweep = fs;
	struct zf2fs_sit_entry *before;
	struct zf2fs_dev *holes_dev;
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	struct zf2fs_node node;
	uint8_t *buf = malloc(64 * 4096);
	unsigned files = 0, holes = 0;
	char name[32];
	int err = 0;

	(void)state;
	assert_non_null(buf);
	/* full: 256 KiB files, a commit of four each in sections of its own, until a commit
	 * finds no room */
	while (!err) {
		assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
		assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
		zf2fs_txn_fresh_logs(txn);
		for (unsigned k = 0; k < 4 && !err; k++) {
			snprintf(name, sizeof(name), "f%u", files + k);
			fill(buf, name, 64 * 4096);
			err = zf2fs_txn_create(txn, ZF2FS_ROOT_INO, name, 0100644, buf, 64 * 4096,
					       NULL);
		}
		if (!err)
			err = zf2fs_txn_commit(txn);
		if (!err)
			files += 4;
		zf2fs_txn_free(txn);
		zf2fs_vol_close(vol);
	}
	assert_int_equal(err, -ENOSPC);
	assert_true(files >= 40);
	/* every other file removed (a commit that itself finds no free section: its nodes
	 * go into holes too): holes, and still no free section */
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(free_sections(vol), 0);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	for (unsigned i = 0; i < files; i += 2) {
		snprintf(name, sizeof(name), "f%u", i);
		assert_int_equal(zf2fs_txn_unlink(txn, ZF2FS_ROOT_INO, name), 0);
	}
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_true(free_sections(vol) < 2);
	assert_int_equal(zf2fs_vol_load_sit(vol, &before), 0);
	holes_dev = fresh_plain();
	assert_int_equal(zs_dev_copy_memory(holes_dev, dev), 0);
	/* the file goes into the holes */
	assert_int_equal(apply(vol, ssr_set, 1), 0);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(state_of(vol, ssr_set, 1), 1);
	check_tables(vol);
	root_inode(vol, "in-holes", &node);
	for (uint32_t f = 0; f < 300; f += 7) {
		uint32_t addr, seg;

		assert_int_equal(zf2fs_file_bmap(vol, &node, f, &addr, NULL, 0), 0);
		seg = zf2fs_main_segno(zf2fs_vol_info(vol)->main_blkaddr, addr);
		holes += zf2fs_sit_valid_blocks(&before[seg]) != 0 &&
			 !zf2fs_sit_block_valid(&before[seg],
						zf2fs_main_seg_off(zf2fs_vol_info(vol)->main_blkaddr,
								   addr));
	}
	assert_true(holes > 30);
	free(before);
	zf2fs_vol_close(vol);
	/* a fault at every write of that commit, from the volume with the holes */
	sweep.base = holes_dev;
	fault_sweep(&sweep);
	zf2fs_dev_close(holes_dev);
	zf2fs_dev_close(dev);
	free(buf);
	free(img);
}

/* Block @b of the big file of test_flush: a pattern of its own. */
static void big_block(uint8_t *buf, uint64_t b)
{
	for (size_t i = 0; i < ZF2FS_BLKSIZE; i++)
		buf[i] = (uint8_t)(b * 31 + i / 13);
}

/* One transaction flushed several times on the way (@flush; else committed at once): a
 * directory that grows a hash level over the flushes (its dentry blocks and inode
 * written again after each), a file of more blocks than the inode addresses written over
 * several flushes (its inode and direct node too).  Before the commit a second look at
 * the device finds the old volume; after it, everything reads back, one checkpoint up.
 * The blocks and nodes the new checkpoint counts go to @ret_counts. */
static void flush_run(bool flush, uint64_t ret_counts[2])
{
	uint8_t *img = format_image(ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM |
				    ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR);
	struct zf2fs_dev *dev = device_with(img);
	const unsigned nfiles = 3 * 214, nblocks = 1200;
	struct zf2fs_txn_attr a = { .mode = 0100644, .mtime = 1700000200 };
	struct zf2fs_vol *vol, *look;
	struct zf2fs_txn *txn;
	struct zf2fs_node root, big;
	uint8_t *buf = malloc(ZF2FS_BLKSIZE), *got = malloc((size_t)nblocks * ZF2FS_BLKSIZE);
	uint64_t ver;
	uint32_t ino, dir;
	size_t len;
	char name[32];

	assert_non_null(buf);
	assert_non_null(got);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	ver = zf2fs_vol_info(vol)->cp_ver;
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	zf2fs_txn_set_time(txn, 1700000100);
	assert_int_equal(zf2fs_txn_flush(txn), 0);   /* nothing queued: nothing written */
	assert_int_equal(zf2fs_txn_flushes(txn), 0);
	assert_int_equal(zf2fs_txn_create(txn, ZF2FS_ROOT_INO, "d", 0040755, NULL, 0, &dir), 0);
	assert_int_equal(zf2fs_txn_mknod(txn, dir, "big", &a, &ino), 0);
	for (unsigned i = 0; i < nfiles; i++) {
		snprintf(name, sizeof(name), "file-%07u", i);
		assert_int_equal(zf2fs_txn_create(txn, dir, name, 0100644, name, strlen(name),
						  NULL), 0);
		if (flush && i % 100 == 99)
			assert_int_equal(zf2fs_txn_flush(txn), 0);
	}
	for (unsigned b = 0; b < nblocks; b++) {
		big_block(buf, b);
		assert_int_equal(zf2fs_txn_write_block(txn, ino, b, buf), 0);
		if (flush && b % 400 == 399) {
			assert_int_equal(zf2fs_txn_flush(txn), 0);
			/* a block once flushed is no hole */
			assert_int_equal(zf2fs_txn_write_block(txn, ino, b, buf), -EEXIST);
		}
	}
	assert_int_equal(zf2fs_txn_set_size(txn, ino, (uint64_t)nblocks * ZF2FS_BLKSIZE), 0);
	if (flush) {   /* the last was written, nothing changed since: no flush more */
		assert_int_equal(zf2fs_txn_flush(txn), 0);
		assert_int_equal(zf2fs_txn_flush(txn), 0);
	}
	assert_int_equal(zf2fs_txn_flushes(txn), flush ? nfiles / 100 + nblocks / 400 + 1 : 0);
	/* flushed, not committed: the volume on the device is the old one */
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &look), 0);
	assert_int_equal(zf2fs_vol_info(look)->cp_ver, ver);
	assert_int_equal(zf2fs_path_lookup(look, "d", 0, &dir, NULL, 0), -ENOENT);
	check_tables(look);
	zf2fs_vol_close(look);
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	assert_int_equal(zf2fs_txn_flush(txn), -EINVAL);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);

	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_vol_info(vol)->cp_ver, ver + 1);
	check_tables(vol);
	assert_int_equal(zf2fs_path_lookup(vol, "d", 0, &dir, NULL, 0), 0);
	assert_int_equal(zf2fs_inode_read(vol, dir, &root, NULL, NULL, 0), 0);
	assert_true(zf2fs_get(root.i.i_current_depth) >= 2);
	for (unsigned i = 0; i < nfiles; i++) {
		uint32_t f;
		struct zf2fs_node n;
		char back[32];

		snprintf(name, sizeof(name), "d/file-%07u", i);
		assert_int_equal(zf2fs_path_lookup(vol, name, 0, &f, NULL, 0), 0);
		assert_int_equal(zf2fs_inode_read(vol, f, &n, NULL, NULL, 0), 0);
		assert_int_equal(zf2fs_file_read_buf(vol, &n, back, sizeof(back), &len, NULL, 0), 0);
		assert_int_equal(len, strlen(name) - 2);
		assert_memory_equal(back, name + 2, len);
	}
	assert_int_equal(zf2fs_path_lookup(vol, "d/big", 0, &ino, NULL, 0), 0);
	assert_int_equal(zf2fs_inode_read(vol, ino, &big, NULL, NULL, 0), 0);
	assert_int_equal(zf2fs_file_read_buf(vol, &big, got, (size_t)nblocks * ZF2FS_BLKSIZE,
					     &len, NULL, 0), 0);
	assert_int_equal(len, (size_t)nblocks * ZF2FS_BLKSIZE);
	for (unsigned b = 0; b < nblocks; b++) {
		big_block(buf, b);
		assert_memory_equal(got + (size_t)b * ZF2FS_BLKSIZE, buf, ZF2FS_BLKSIZE);
	}
	ret_counts[0] = zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_block_count);
	ret_counts[1] = zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_node_count);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	free(buf);
	free(got);
	free(img);
}

/* Flushed or not, the same volume: every block a flush wrote and a later flush or the
 * commit wrote again is counted once (check_tables in flush_run: the SIT's bitmaps, its
 * counts and the checkpoint's agree). */
static void test_flush(void **state)
{
	uint64_t once[2], flushed[2];

	(void)state;
	flush_run(false, once);
	flush_run(true, flushed);
	assert_int_equal(flushed[0], once[0]);
	assert_int_equal(flushed[1], once[1]);
}

/* A transaction that outgrows the free sections on the way: the flush that finds none
 * fails with -ENOSPC, and the volume is the old one, its tables untouched by what the
 * flushes before wrote. */
static void test_flush_enospc(void **state)
{
	uint8_t *img = format_image(0);
	struct zf2fs_dev *dev = device_with(img);
	struct zf2fs_txn_attr a = { .mode = 0100644 };
	uint8_t *buf = calloc(1, ZF2FS_BLKSIZE);
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	uint64_t ver, valid;
	uint32_t ino;
	int err = 0;

	(void)state;
	assert_non_null(buf);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	ver = zf2fs_vol_info(vol)->cp_ver;
	valid = zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_block_count);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	assert_int_equal(zf2fs_txn_mknod(txn, ZF2FS_ROOT_INO, "huge", &a, &ino), 0);
	/* more blocks than the 64 MiB volume holds, 4 MiB per flush */
	for (unsigned b = 0; b < 20000 && !err; b++) {
		buf[0] = (uint8_t)(b + 1);
		err = zf2fs_txn_write_block(txn, ino, b, buf);
		if (!err && b % 1024 == 1023)
			err = zf2fs_txn_flush(txn);
	}
	assert_int_equal(err, -ENOSPC);
	assert_true(zf2fs_txn_flushes(txn) >= 5);
	assert_int_equal(zf2fs_txn_flush(txn), -EINVAL);
	assert_int_equal(zf2fs_txn_commit(txn), -EINVAL);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_vol_info(vol)->cp_ver, ver);
	assert_int_equal(zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_block_count), valid);
	assert_int_equal(zf2fs_path_lookup(vol, "huge", 0, &ino, NULL, 0), -ENOENT);
	check_tables(vol);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	free(buf);
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_and_read_back),
		cmocka_unit_test(test_commit_blocks),
		cmocka_unit_test(test_cp_orphans),
		cmocka_unit_test(test_read_only_no_ssa),
		cmocka_unit_test(test_logs_go_on),
		cmocka_unit_test(test_ssr),
		cmocka_unit_test(test_zoned_logs_go_on),
		cmocka_unit_test(test_new_hash_level),
		cmocka_unit_test(test_link_and_unlink),
		cmocka_unit_test(test_inline_dir_converted),
		cmocka_unit_test(test_rmdir),
		cmocka_unit_test(test_dentry_add),
		cmocka_unit_test(test_dentry_copy),
		cmocka_unit_test(test_direct_nodes),
		cmocka_unit_test(test_flush),
		cmocka_unit_test(test_flush_enospc),
		cmocka_unit_test(test_fault_at_every_write),
		cmocka_unit_test(test_zoned_fault_at_every_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
