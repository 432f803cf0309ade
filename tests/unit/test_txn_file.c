// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_txn_file.c - lib/write/txn_file.c and lib/write/txn_xattr.c on a memory device: blocks written
 * one by one at the edges of every level of the node tree (inode, direct, indirect,
 * double indirect) are found there by the library's own reader (zf2fs_file_bmap) with
 * their contents, holes stay holes and i_blocks counts data and nodes; special files
 * keep their device numbers where the kernel reads them; inline data reads back; xattrs
 * go inline, then spill into an xattr node, and too many are refused.
 */
#include <errno.h>

#include "unit.h"
#include "zf2fs/access.h"
#include "zf2fs/file.h"
#include "zf2fs/txn.h"
#include "zf2fs/txn_file.h"

#define MiB (1024ull * 1024)
#define VOL_BYTES (64 * MiB)

static struct zf2fs_dev *formatted(void)
{
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout lay;
	struct zf2fs_dev_geom g;
	struct zf2fs_dev *dev;

	memset(&mk, 0, sizeof(mk));
	assert_int_equal(zs_dev_open_memory(VOL_BYTES, &unit_quiet, &dev), 0);
	assert_int_equal(zf2fs_dev_geometry(dev, &g), 0);
	mk.fixed_cp_version = true;
	mk.timestamp = 1700000000;
	assert_int_equal(zf2fs_layout_compute(&g, 1, &mk.layout, &lay, NULL, 0), 0);
	assert_int_equal(zf2fs_mkfs_write(&dev, &lay, &mk, &unit_quiet), 0);
	return dev;
}

static struct zf2fs_txn_attr attr(uint32_t mode)
{
	struct zf2fs_txn_attr a = { .mode = mode, .uid = 1000, .gid = 100, .atime = 5,
				    .mtime = 6, .ctime = 7 };

	return a;
}

static void pattern(uint8_t *b, uint64_t fofs)
{
	for (uint32_t i = 0; i < ZF2FS_BLKSIZE; i++)
		b[i] = (uint8_t)(fofs * 31 + i);
}

static void test_node_tree_edges(void **state)
{
	const uint64_t a = 923, d = 1018, ind = d * d;
	/* first and last blocks of every level */
	const uint64_t at[] = { 0, a - 1, a, a + d - 1, a + d, a + 2 * d - 1, a + 2 * d,
				a + 2 * d + ind - 1, a + 2 * d + ind, a + 2 * d + 2 * ind - 1,
				a + 2 * d + 2 * ind, a + 2 * d + 2 * ind + ind + 5 };
	const uint64_t holes[] = { 1, a + 1, a + 2 * d + 1, a + 2 * d + 2 * ind + 1 };
	struct zf2fs_dev *dev = formatted();
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	struct zf2fs_txn_attr fa = attr(0100644);
	struct zf2fs_node *in = malloc(ZF2FS_BLKSIZE);
	uint8_t buf[ZF2FS_BLKSIZE], got[ZF2FS_BLKSIZE];
	uint32_t ino, addr;
	const size_t n = sizeof(at) / sizeof(at[0]);

	(void)state;
	assert_non_null(in);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	assert_int_equal(zf2fs_txn_mknod(txn, ZF2FS_ROOT_INO, "big", &fa, &ino), 0);
	for (size_t i = 0; i < n; i++) {
		pattern(buf, at[i]);
		assert_int_equal(zf2fs_txn_write_block(txn, ino, at[i], buf), 0);
	}
	assert_int_equal(zf2fs_txn_write_block(txn, ino, at[0], buf), -EEXIST);
	assert_int_equal(zf2fs_txn_set_size(txn, ino, (at[n - 1] + 1) * ZF2FS_BLKSIZE), 0);
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);

	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_inode_read(vol, ino, in, NULL, NULL, 0), 0);
	/* nodes: 2 direct, 2 indirect each with 2 direct, the double indirect with 2
	 * indirect and one direct below each */
	assert_int_equal(zf2fs_get(in->i.i_blocks), 1 + n + 2 + 2 * 3 + 1 + 2 + 2);
	assert_int_equal(zf2fs_get(in->i.i_uid), 1000);
	assert_int_equal(zf2fs_get(in->i.i_mode), 0100644);
	assert_false(in->i.i_inline & ZF2FS_INLINE_DATA);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(zf2fs_file_bmap(vol, in, at[i], &addr, NULL, 0), 0);
		assert_true(addr != ZF2FS_NULL_ADDR && addr != ZF2FS_NEW_ADDR);
		assert_int_equal(zf2fs_vol_read_block(vol, addr, got), 0);
		pattern(buf, at[i]);
		assert_memory_equal(got, buf, ZF2FS_BLKSIZE);
	}
	for (size_t i = 0; i < sizeof(holes) / sizeof(holes[0]); i++) {
		assert_int_equal(zf2fs_file_bmap(vol, in, holes[i], &addr, NULL, 0), 0);
		assert_int_equal(addr, ZF2FS_NULL_ADDR);
	}
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	free(in);
}

/* A commit whose data fill their new segment to the last block: the log moves on to a
 * fresh section before the checkpoint (the kernel refuses a log position at the end of
 * its segment), so the new checkpoint is the one in use afterwards, the file reads back,
 * and the next commit still works. */
static void test_log_filled_exactly(void **state)
{
	struct zf2fs_dev *dev = formatted();
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	struct zf2fs_txn_attr fa = attr(0100644);
	struct zf2fs_node *in = malloc(ZF2FS_BLKSIZE);
	uint8_t buf[ZF2FS_BLKSIZE], got[ZF2FS_BLKSIZE];
	uint32_t ino, ino2, addr, segno, blkoff;
	uint64_t ver;

	(void)state;
	assert_non_null(in);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	ver = zf2fs_vol_info(vol)->cp_ver;
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	assert_int_equal(zf2fs_txn_mknod(txn, ZF2FS_ROOT_INO, "seg", &fa, &ino), 0);
	/* with the root's rewritten dentry block, one segment of data exactly */
	for (uint64_t b = 0; b < ZF2FS_BLOCKS_PER_SEG - 1; b++) {
		pattern(buf, b);
		assert_int_equal(zf2fs_txn_write_block(txn, ino, b, buf), 0);
	}
	assert_int_equal(zf2fs_txn_set_size(txn, ino, (ZF2FS_BLOCKS_PER_SEG - 1) * ZF2FS_BLKSIZE),
			 0);
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);

	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_true(zf2fs_vol_info(vol)->cp_ver == ver + 1);
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		zf2fs_vol_curseg(vol, t, &segno, &blkoff);
		assert_true(blkoff < ZF2FS_BLOCKS_PER_SEG);
	}
	assert_int_equal(zf2fs_inode_read(vol, ino, in, NULL, NULL, 0), 0);
	for (uint64_t b = 0; b < ZF2FS_BLOCKS_PER_SEG - 1; b += 73) {
		assert_int_equal(zf2fs_file_bmap(vol, in, b, &addr, NULL, 0), 0);
		assert_int_equal(zf2fs_vol_read_block(vol, addr, got), 0);
		pattern(buf, b);
		assert_memory_equal(got, buf, ZF2FS_BLKSIZE);
	}
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	assert_int_equal(zf2fs_txn_mknod(txn, ZF2FS_ROOT_INO, "next", &fa, &ino2), 0);
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_true(zf2fs_vol_info(vol)->cp_ver == ver + 2);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	free(in);
}

static void test_special_files_and_inline(void **state)
{
	struct zf2fs_dev *dev = formatted();
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	struct zf2fs_txn_attr c = attr(0020600), b = attr(0060640), l = attr(0120777),
			      f = attr(0104755);
	struct zf2fs_node *in = malloc(ZF2FS_BLKSIZE);
	struct zf2fs_inode_geom g;
	uint32_t cino, bino, lino, fino;
	uint8_t out[64];
	size_t len, max;

	(void)state;
	assert_non_null(in);
	c.rdev_major = 8;
	c.rdev_minor = 1;
	b.rdev_major = 259;
	b.rdev_minor = 300000;
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	assert_int_equal(zf2fs_txn_mknod(txn, ZF2FS_ROOT_INO, "c", &c, &cino), 0);
	assert_int_equal(zf2fs_txn_mknod(txn, ZF2FS_ROOT_INO, "b", &b, &bino), 0);
	assert_int_equal(zf2fs_txn_mknod(txn, ZF2FS_ROOT_INO, "l", &l, &lino), 0);
	assert_int_equal(zf2fs_txn_mknod(txn, ZF2FS_ROOT_INO, "f", &f, &fino), 0);
	assert_int_equal(zf2fs_txn_inline_max(txn, fino, &max), 0);
	assert_true(max > 3000 && max < ZF2FS_BLKSIZE);
	assert_int_equal(zf2fs_txn_write_inline(txn, lino, "target", 6), 0);
	assert_int_equal(zf2fs_txn_write_inline(txn, fino, "hello", 5), 0);
	assert_int_equal(zf2fs_txn_write_inline(txn, cino, "x", 1), -EINVAL);
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);

	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_inode_read(vol, cino, in, NULL, NULL, 0), 0);
	assert_int_equal(zf2fs_inode_geometry(&in->i, 0, &g), 0);
	assert_int_equal(zf2fs_get(in->i.i_addr[g.extra_words]), (8u << 8) | 1);
	assert_int_equal(zf2fs_inode_read(vol, bino, in, NULL, NULL, 0), 0);
	assert_int_equal(zf2fs_get(in->i.i_addr[g.extra_words]), 0);
	assert_int_equal(zf2fs_get(in->i.i_addr[g.extra_words + 1]),
			 (300000u & 0xff) | (259u << 8) | ((300000u & ~0xffu) << 12));
	assert_int_equal(zf2fs_get(in->i.i_mode), 0060640);
	assert_int_equal(zf2fs_inode_read(vol, fino, in, NULL, NULL, 0), 0);
	assert_int_equal(zf2fs_get(in->i.i_mode), 0104755);
	assert_true(in->i.i_inline & ZF2FS_INLINE_DATA);
	assert_int_equal(zf2fs_file_read_buf(vol, in, out, sizeof(out), &len, NULL, 0), 0);
	assert_int_equal(len, 5);
	assert_memory_equal(out, "hello", 5);
	assert_int_equal(zf2fs_inode_read(vol, lino, in, NULL, NULL, 0), 0);
	assert_int_equal(zf2fs_file_read_buf(vol, in, out, sizeof(out), &len, NULL, 0), 0);
	assert_int_equal(len, 6);
	assert_memory_equal(out, "target", 6);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	free(in);
}

static void test_xattrs(void **state)
{
	static uint8_t big[3000];
	struct zf2fs_txn_xattr small[] = { { ZF2FS_XATTR_INDEX_USER, "a", 1, "vv", 2 } };
	struct zf2fs_txn_xattr spill[] = {
		{ ZF2FS_XATTR_INDEX_USER, "big", 3, big, sizeof(big) },
		{ ZF2FS_XATTR_INDEX_SECURITY, "selinux", 7, "ctx", 3 },
	};
	struct zf2fs_txn_xattr huge[] = {
		{ ZF2FS_XATTR_INDEX_USER, "x", 1, big, sizeof(big) },
		{ ZF2FS_XATTR_INDEX_USER, "y", 1, big, sizeof(big) },
	};
	struct zf2fs_dev *dev = formatted();
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	struct zf2fs_txn_attr fa = attr(0100644), da = attr(0040755);
	struct zf2fs_node *in = malloc(ZF2FS_BLKSIZE), *xn = malloc(ZF2FS_BLKSIZE);
	uint32_t s, d, h, xnid;
	const uint8_t *area;

	(void)state;
	assert_non_null(in);
	assert_non_null(xn);
	memset(big, 'q', sizeof(big));
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_txn_begin(vol, &txn), 0);
	assert_int_equal(zf2fs_txn_mknod(txn, ZF2FS_ROOT_INO, "s", &fa, &s), 0);
	assert_int_equal(zf2fs_txn_mknod(txn, ZF2FS_ROOT_INO, "d", &da, &d), 0);
	assert_int_equal(zf2fs_txn_mknod(txn, ZF2FS_ROOT_INO, "h", &fa, &h), 0);
	assert_int_equal(zf2fs_txn_set_xattrs(txn, s, small, 1), 0);
	assert_int_equal(zf2fs_txn_set_xattrs(txn, s, small, 1), -EBUSY);
	assert_int_equal(zf2fs_txn_set_xattrs(txn, d, spill, 2), 0);
	assert_true(zf2fs_xattr_bytes(huge, 2) > ZF2FS_XATTR_MAX_BYTES);
	assert_int_equal(zf2fs_txn_set_xattrs(txn, h, huge, 2), -E2BIG);
	assert_int_equal(zf2fs_txn_commit(txn), 0);
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);

	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &unit_quiet, &vol), 0);
	assert_int_equal(zf2fs_inode_read(vol, s, in, NULL, NULL, 0), 0);
	assert_true(in->i.i_inline & ZF2FS_INLINE_XATTR);
	assert_int_equal(zf2fs_get(in->i.i_xattr_nid), 0);
	area = (const uint8_t *)&in->i.i_addr[ZF2FS_ADDRS_PER_INODE - ZF2FS_INLINE_XATTR_ADDRS];
	assert_int_equal(zf2fs_get_le32p(area), 0xF2F52011u);
	assert_int_equal(area[24], ZF2FS_XATTR_INDEX_USER);
	assert_int_equal(area[25], 1);
	assert_memory_equal(area + 28, "avv", 3);
	assert_int_equal(zf2fs_get_le32p(area + 32), 0);   /* the end of the list */
	assert_int_equal(zf2fs_inode_read(vol, d, in, NULL, NULL, 0), 0);
	xnid = (uint32_t)zf2fs_get(in->i.i_xattr_nid);
	assert_true(xnid != 0);
	assert_int_equal(zf2fs_get(in->i.i_blocks), 3);   /* inode, dentry block, xattr node */
	assert_int_equal(zf2fs_vol_read_node(vol, xnid, xn, NULL, NULL, 0), 0);
	assert_int_equal(zf2fs_get(xn->footer.ino), d);
	assert_int_equal(zf2fs_get(xn->footer.flag) >> ZF2FS_FOOTER_OFS_SHIFT, 0x1FFFFFFFu);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	free(in);
	free(xn);
}

/* lib/format/casefold.c: the folded forms Linux 6.1 gives (utf8-12.1: full case folding, NFD,
 * default-ignorable code points left out), and the cases without one. */
static void test_casefold(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "Hello", "hello" },
		{ "Stra\xc3\x9f" "e", "strasse" },            /* sharp s: full folding */
		{ "\xef\xac\x81le", "file" },                  /* fi ligature */
		{ "\xc3\x85", "a\xcc\x8a" },                   /* A ring: decomposed */
		{ "x\xc2\xad" "y", "xy" },                     /* soft hyphen: ignorable */
		{ "\xc4\xb0", "i\xcc\x87" },                   /* dotted capital I */
	};
	uint8_t out[ZF2FS_NAME_LEN];
	char longname[256];
	size_t len;

	(void)state;
	if (!zf2fs_have_casefold_support()) {
		assert_int_equal(zf2fs_casefold("a", 1, out, sizeof(out), &len), -EOPNOTSUPP);
		return;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(zf2fs_casefold(cases[i].in, strlen(cases[i].in), out, sizeof(out),
						&len), 0);
		assert_int_equal(len, strlen(cases[i].out));
		assert_memory_equal(out, cases[i].out, len);
	}
	assert_int_equal(zf2fs_casefold("a\xff", 2, out, sizeof(out), &len), -EINVAL);
	/* 127 sharp s fold to 254 bytes: they fit; 128 (256 bytes in) would not */
	for (int i = 0; i < 127; i++)
		memcpy(longname + 2 * i, "\xc3\x9f", 2);
	assert_int_equal(zf2fs_casefold(longname, 254, out, sizeof(out), &len), 0);
	assert_int_equal(len, 254);
	assert_int_equal(zf2fs_casefold(longname, 254, out, 200, &len), -ENAMETOOLONG);
}

/* The hash fsck checks in casefolded directories: the folded name's, so names that fold
 * alike hash alike; a name that is not UTF-8 hashes as its bytes; the dots hash to 0. */
static void test_casefold_hash(void **state)
{
	uint32_t a = 1, b = 2;

	(void)state;
	if (!zf2fs_have_casefold_support()) {
		assert_int_equal(zf2fs_casefold_hash("a", 1, &a), -EOPNOTSUPP);
		return;
	}
	assert_int_equal(zf2fs_casefold_hash("ReadMe", 6, &a), 0);
	assert_int_equal(zf2fs_casefold_hash("README", 6, &b), 0);
	assert_int_equal(a, b);
	assert_int_equal(a, zf2fs_dentry_hash("readme", 6));
	assert_int_not_equal(a, zf2fs_dentry_hash("ReadMe", 6));
	assert_int_equal(zf2fs_casefold_hash("\xc3\x84", 2, &a), 0);      /* U+00C4 */
	assert_int_equal(a, zf2fs_dentry_hash("a\xcc\x88", 3));           /* a + U+0308 */
	assert_int_equal(zf2fs_casefold_hash("stra\xc3\x9f" "e", 7, &a), 0);
	assert_int_equal(a, zf2fs_dentry_hash("strasse", 7));
	assert_int_equal(zf2fs_casefold_hash("A\xff", 2, &a), 0);
	assert_int_equal(a, zf2fs_dentry_hash("A\xff", 2));
	assert_int_equal(zf2fs_casefold_hash("..", 2, &a), 0);
	assert_int_equal(a, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_tree_edges),
		cmocka_unit_test(test_log_filled_exactly),
		cmocka_unit_test(test_special_files_and_inline),
		cmocka_unit_test(test_xattrs),
		cmocka_unit_test(test_casefold),
		cmocka_unit_test(test_casefold_hash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
