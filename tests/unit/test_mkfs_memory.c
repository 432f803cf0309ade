// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_mkfs_memory.c - format a volume in memory and read every structure back.
 *
 * Checks what the kernel checks first at mount (superblock and checkpoint checksums, the
 * newest valid pack, current segments, bitmap sizes, nat_bits) and that an interrupted
 * mkfs never leaves a superblock behind: with a write failure injected at every possible
 * point, the superblock area stays empty unless every earlier write completed.
 */
#include <errno.h>

#include "unit.h"

#define MiB (1024ull * 1024)

struct fmt {
	struct zf2fs_dev *dev;
	struct zf2fs_layout lay;
	struct zf2fs_mkfs_opts mk;
	const uint8_t *img;
};

static const struct zf2fs_log quiet = { .level = 0 };

static int format(struct fmt *f, uint64_t bytes, uint32_t features, long fail_at)
{
	struct zf2fs_dev_geom g;
	int err;

	memset(f, 0, sizeof(*f));
	assert_int_equal(zs_dev_open_memory(bytes, &quiet, &f->dev), 0);
	assert_int_equal(zf2fs_dev_geometry(f->dev, &g), 0);
	f->mk.layout.features = features;
	f->mk.fixed_cp_version = true;
	f->mk.timestamp = 1700000000;
	for (int i = 0; i < 16; i++)
		f->mk.uuid[i] = (uint8_t)(i * 17 + 1);
	f->mk.label = "memtest";
	assert_int_equal(zf2fs_layout_compute(&g, 1, &f->mk.layout, &f->lay, NULL, 0), 0);
	if (fail_at > 0)
		zs_dev_fail_writes_after(f->dev, (unsigned long)fail_at);
	err = zf2fs_mkfs_write(&f->dev, &f->lay, &f->mk, &quiet);
	f->img = zs_dev_memory(f->dev);
	return err;
}

static const void *blk(const struct fmt *f, uint64_t n)
{
	return f->img + n * ZF2FS_BLKSIZE;
}

static void test_super_and_checkpoint(void **state)
{
	struct fmt f;
	const struct zf2fs_super *sb;
	const struct zf2fs_checkpoint *cp1, *cp2;
	uint32_t crc;

	(void)state;
	assert_int_equal(format(&f, 256 * MiB, ZF2FS_FEAT_SB_CHKSUM, 0), 0);
	sb = (const void *)(f.img + ZF2FS_SUPER_OFFSET);
	assert_int_equal(zf2fs_get(sb->magic), ZF2FS_MAGIC);
	assert_int_equal(zf2fs_super_checksum(sb), zf2fs_get(sb->crc));
	assert_memory_equal(blk(&f, 0), blk(&f, 1), ZF2FS_BLKSIZE);   /* both copies */
	assert_int_equal(zf2fs_get(sb->main_blkaddr), f.lay.main_blkaddr);

	cp1 = blk(&f, f.lay.cp_blkaddr);
	cp2 = blk(&f, f.lay.cp_blkaddr + 512);
	assert_int_equal(zf2fs_cp_checksum(cp1, &crc), 0);
	assert_int_equal(crc, zf2fs_get_le32p((const uint8_t *)cp1 + ZF2FS_CP_CHKSUM_OFFSET));
	assert_int_equal(zf2fs_cp_checksum(cp2, &crc), 0);
	assert_int_equal(crc, zf2fs_get_le32p((const uint8_t *)cp2 + ZF2FS_CP_CHKSUM_OFFSET));
	assert_true(zf2fs_get(cp1->checkpoint_ver) > zf2fs_get(cp2->checkpoint_ver));
	/* each pack ends with a copy of its first block */
	assert_memory_equal(cp1, blk(&f, f.lay.cp_blkaddr +
			    zf2fs_get(cp1->cp_pack_total_block_count) - 1), ZF2FS_BLKSIZE);
	assert_int_equal(zf2fs_get(cp1->ckpt_flags) & (ZF2FS_CP_UMOUNT_FLAG |
			 ZF2FS_CP_COMPACT_SUM_FLAG), ZF2FS_CP_UMOUNT_FLAG | ZF2FS_CP_COMPACT_SUM_FLAG);
	assert_int_equal(zf2fs_get(cp1->valid_block_count), 2);
	assert_int_equal(zf2fs_get(cp1->valid_inode_count), 1);
	assert_int_equal(zf2fs_get(cp1->free_segment_count), f.lay.usable_segments - 6);
	assert_int_equal(zf2fs_get(cp1->sit_ver_bitmap_bytesize), f.lay.sit_bitmap_bytes);
	zf2fs_dev_close(f.dev);
}

static void test_root_and_tables(void **state)
{
	struct fmt f;
	const struct zf2fs_checkpoint *cp;
	const struct zf2fs_node *root, *lpf;
	const struct zf2fs_nat_block *nat;
	const struct zf2fs_dentry_block *d;
	const uint8_t *sum;
	struct zf2fs_journal sitj;
	uint32_t root_addr, seed;

	(void)state;
	assert_int_equal(format(&f, 128 * MiB, ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM |
				ZF2FS_FEAT_LOST_FOUND | ZF2FS_FEAT_INODE_CRTIME, 0), 0);
	cp = blk(&f, f.lay.cp_blkaddr);
	root_addr = f.lay.main_blkaddr + zf2fs_get(cp->cur_node_segno[0]) * 512;
	root = blk(&f, root_addr);
	lpf = blk(&f, root_addr + 1);
	seed = zf2fs_checksum_seed(f.mk.uuid);
	assert_int_equal(zf2fs_inode_checksum(seed, root), zf2fs_get(root->i.i_inode_checksum));
	assert_int_equal(zf2fs_inode_checksum(seed, lpf), zf2fs_get(lpf->i.i_inode_checksum));
	assert_int_equal(zf2fs_get(root->i.i_links), 3);
	assert_int_equal(zf2fs_get(root->footer.ino), 3);
	assert_int_equal(zf2fs_get(lpf->footer.ino), 4);
	assert_int_equal(zf2fs_get(cp->next_free_nid), 5);

	/* NAT: root and lost+found point at their node blocks */
	nat = blk(&f, f.lay.nat_blkaddr);
	assert_int_equal(zf2fs_get(nat->entries[3].block_addr), root_addr);
	assert_int_equal(zf2fs_get(nat->entries[4].block_addr), root_addr + 1);

	/* root's dentry block: ".", "..", "lost+found" with the right hash */
	d = blk(&f, f.lay.main_blkaddr + zf2fs_get(cp->cur_data_segno[0]) * 512);
	assert_int_equal(d->dentry_bitmap[0], 0x0F);
	assert_int_equal(zf2fs_get(d->dentry[2].ino), 4);
	assert_int_equal(zf2fs_get(d->dentry[2].hash_code), zf2fs_dentry_hash("lost+found", 10));

	/* SIT journal in the compacted summary: six logs, hot node and hot data hold 2 */
	sum = blk(&f, f.lay.cp_blkaddr + zf2fs_get(cp->cp_pack_start_sum));
	memcpy(&sitj, sum + ZF2FS_SUM_JOURNAL_SIZE, sizeof(sitj));
	assert_int_equal(zf2fs_get(sitj.n_entries), 6);
	for (int t = 0; t < 6; t++) {
		uint32_t vb = (uint32_t)zf2fs_get(sitj.sit.entries[t].se.vblocks);
		uint32_t want = (t == ZF2FS_LOG_HOT_NODE || t == ZF2FS_LOG_HOT_DATA) ? 2 : 0;

		assert_int_equal(vb >> ZF2FS_SIT_VBLOCKS_BITS, t);
		assert_int_equal(vb & ZF2FS_SIT_VBLOCKS_MASK, want);
		assert_int_equal(sitj.sit.entries[t].se.valid_map[0], want ? 0xC0 : 0);
	}
	zf2fs_dev_close(f.dev);
}

static void test_nat_bits(void **state)
{
	struct fmt f;
	const struct zf2fs_checkpoint *cp;
	const uint8_t *nb;
	uint64_t check;
	uint32_t crc;

	(void)state;
	assert_int_equal(format(&f, 256 * MiB, 0, 0), 0);
	cp = blk(&f, f.lay.cp_blkaddr);
	assert_true(zf2fs_get(cp->ckpt_flags) & ZF2FS_CP_NAT_BITS_FLAG);
	nb = blk(&f, f.lay.cp_blkaddr + 512 - f.lay.nat_bits_blocks);
	memcpy(&check, nb, 8);
	zf2fs_cp_checksum(cp, &crc);
	assert_int_equal(zf2fs_le64_to_cpu(check), zf2fs_get(cp->checkpoint_ver) | ((uint64_t)crc << 32));
	assert_int_equal(nb[8 + f.lay.nat_bitmap_bytes], 0xFE);   /* NAT block 0 is in use */
	assert_int_equal(nb[8], 0);                               /* and not full */
	zf2fs_dev_close(f.dev);
}

/* Fail each write in turn: a superblock may exist only if mkfs got to the very end. */
static void test_interrupted_mkfs_leaves_no_superblock(void **state)
{
	struct fmt f;
	unsigned long total;
	uint8_t zero[ZF2FS_BLKSIZE] = { 0 };

	(void)state;
	assert_int_equal(format(&f, 64 * MiB, 0, 0), 0);
	total = zs_dev_write_count(f.dev);
	zf2fs_dev_close(f.dev);
	assert_true(total > 8);
	for (unsigned long n = 1; n <= total; n++) {
		int err = format(&f, 64 * MiB, 0, (long)n);

		assert_int_equal(err, -EIO);
		/* the last write is the second superblock: before it, block 0 may be written
		 * only if the failure hit block 1 */
		if (n < total - 1)
			assert_memory_equal(blk(&f, 0), zero, ZF2FS_BLKSIZE);
		zf2fs_dev_close(f.dev);
	}
}

static void test_write_past_end_refused(void **state)
{
	struct zf2fs_dev *dev;
	uint8_t buf[ZF2FS_BLKSIZE] = { 0 };

	(void)state;
	assert_int_equal(zs_dev_open_memory(8 * ZF2FS_BLKSIZE, &quiet, &dev), 0);
	assert_int_equal(zf2fs_dev_write(dev, buf, sizeof(buf), 7 * ZF2FS_BLKSIZE), 0);
	assert_int_equal(zf2fs_dev_write(dev, buf, sizeof(buf), 7 * ZF2FS_BLKSIZE + 1), -ENOSPC);
	assert_int_equal(zf2fs_dev_zero(dev, 0, 9 * ZF2FS_BLKSIZE), -ENOSPC);
	zf2fs_dev_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_super_and_checkpoint),
		cmocka_unit_test(test_root_and_tables),
		cmocka_unit_test(test_nat_bits),
		cmocka_unit_test(test_interrupted_mkfs_leaves_no_superblock),
		cmocka_unit_test(test_write_past_end_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
