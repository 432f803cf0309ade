// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_format.c - the on-disk structures sit where Linux expects every field.
 *
 * Sizes are also checked at compile time in format.h; here every field the tools rely on
 * is checked at its byte offset, and a superblock written by mkfs.f2fs 1.15 is read back
 * through our struct.
 */
#include "unit.h"

#define OFF(type, field, expect) assert_int_equal(offsetof(struct type, field), expect)

static void test_super_offsets(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct zf2fs_super), 3072);
	OFF(zf2fs_super, magic, 0);
	OFF(zf2fs_super, log_sectorsize, 8);
	OFF(zf2fs_super, log_blocks_per_seg, 20);
	OFF(zf2fs_super, segs_per_sec, 24);
	OFF(zf2fs_super, checksum_offset, 32);
	OFF(zf2fs_super, block_count, 36);
	OFF(zf2fs_super, section_count, 44);
	OFF(zf2fs_super, segment_count, 48);
	OFF(zf2fs_super, segment_count_main, 68);
	OFF(zf2fs_super, segment0_blkaddr, 72);
	OFF(zf2fs_super, main_blkaddr, 92);
	OFF(zf2fs_super, root_ino, 96);
	OFF(zf2fs_super, uuid, 108);
	OFF(zf2fs_super, volume_name, 124);
	OFF(zf2fs_super, extension_count, 1148);
	OFF(zf2fs_super, extension_list, 1152);
	OFF(zf2fs_super, cp_payload, 1664);
	OFF(zf2fs_super, version, 1668);
	OFF(zf2fs_super, init_version, 1924);
	OFF(zf2fs_super, feature, 2180);
	OFF(zf2fs_super, encryption_level, 2184);
	OFF(zf2fs_super, devs, 2201);
	OFF(zf2fs_super, qf_ino, 2745);
	OFF(zf2fs_super, hot_ext_count, 2757);
	OFF(zf2fs_super, s_encoding, 2758);
	OFF(zf2fs_super, s_encoding_flags, 2760);
	OFF(zf2fs_super, s_stop_reason, 2762);
	OFF(zf2fs_super, s_errors, 2794);
	OFF(zf2fs_super, crc, 3068);
}

static void test_checkpoint_offsets(void **state)
{
	(void)state;
	OFF(zf2fs_checkpoint, user_block_count, 8);
	OFF(zf2fs_checkpoint, rsvd_segment_count, 24);
	OFF(zf2fs_checkpoint, overprov_segment_count, 28);
	OFF(zf2fs_checkpoint, free_segment_count, 32);
	OFF(zf2fs_checkpoint, cur_node_segno, 36);
	OFF(zf2fs_checkpoint, cur_node_blkoff, 68);
	OFF(zf2fs_checkpoint, cur_data_segno, 84);
	OFF(zf2fs_checkpoint, cur_data_blkoff, 116);
	OFF(zf2fs_checkpoint, ckpt_flags, 132);
	OFF(zf2fs_checkpoint, cp_pack_total_block_count, 136);
	OFF(zf2fs_checkpoint, next_free_nid, 152);
	OFF(zf2fs_checkpoint, checksum_offset, 164);
	OFF(zf2fs_checkpoint, elapsed_time, 168);
	OFF(zf2fs_checkpoint, alloc_type, 176);
	OFF(zf2fs_checkpoint, sit_nat_version_bitmap, 192);
}

static void test_node_offsets(void **state)
{
	(void)state;
	OFF(zf2fs_inode, i_links, 12);
	OFF(zf2fs_inode, i_size, 16);
	OFF(zf2fs_inode, i_blocks, 24);
	OFF(zf2fs_inode, i_generation, 68);
	OFF(zf2fs_inode, i_current_depth, 72);
	OFF(zf2fs_inode, i_xattr_nid, 76);
	OFF(zf2fs_inode, i_flags, 80);
	OFF(zf2fs_inode, i_pino, 84);
	OFF(zf2fs_inode, i_namelen, 88);
	OFF(zf2fs_inode, i_name, 92);
	OFF(zf2fs_inode, i_dir_level, 347);
	OFF(zf2fs_inode, i_ext, 348);
	OFF(zf2fs_inode, i_addr, 360);
	OFF(zf2fs_inode, i_extra_isize, 360);
	OFF(zf2fs_inode, i_inline_xattr_size, 362);
	OFF(zf2fs_inode, i_projid, 364);
	OFF(zf2fs_inode, i_inode_checksum, 368);
	OFF(zf2fs_inode, i_crtime, 372);
	OFF(zf2fs_inode, i_compr_blocks, 384);
	OFF(zf2fs_inode, i_compress_flag, 394);
	OFF(zf2fs_inode, i_nid, 4052);
	OFF(zf2fs_node, footer, 4072);
	OFF(zf2fs_node_footer, cp_ver, 12);
	OFF(zf2fs_node_footer, next_blkaddr, 20);
	assert_int_equal(sizeof(struct zf2fs_direct_node), 4072);
	assert_int_equal(sizeof(struct zf2fs_indirect_node), 4072);
}

static void test_tables(void **state)
{
	(void)state;
	assert_int_equal(ZF2FS_NAT_PER_BLOCK, 455);
	assert_int_equal(ZF2FS_SIT_PER_BLOCK, 55);
	assert_int_equal(ZF2FS_SUM_JOURNAL_SIZE, 507);
	assert_int_equal(ZF2FS_NAT_JOURNAL_ENTRIES, 38);
	assert_int_equal(ZF2FS_SIT_JOURNAL_ENTRIES, 6);
	OFF(zf2fs_summary_block, journal, 3584);
	OFF(zf2fs_summary_block, footer, 4091);
	OFF(zf2fs_dentry_block, dentry, 27 + 3);
	OFF(zf2fs_dentry_block, filename, 30 + 214 * 11);
	OFF(zf2fs_orphan_block, blk_addr, 4084);
	OFF(zf2fs_orphan_block, check_sum, 4092);
}

/* Every named bit and slot as Linux 7.3 has it: each bit of ZF2FS_FEAT_KNOWN has a name and
 * none past it; names are unique; the stop reasons are the 13 slots of enum
 * stop_cp_reason in their order; feature names parse back to their bits. */
static void test_names(void **state)
{
	static const char *const stops[] = {
		"shutdown", "fault injection", "meta page error", "write failure",
		"corrupted summary", "inode update failure", "flush failure", "no free segment",
		"corrupted free bitmap", "corrupted nid", "meta read error", "node read error",
		"data read error",
	};
	const char *(*const word_fns[])(uint32_t) = {
		zf2fs_feature_name, zf2fs_encoding_flag_name, zf2fs_inode_flag_name,
	};

	(void)state;
	assert_int_equal(ZF2FS_STOP_REASONS, 13);
	for (unsigned i = 0; i < 13; i++)
		assert_string_equal(zf2fs_stop_reason_name(i), stops[i]);
	assert_null(zf2fs_stop_reason_name(13));
	for (unsigned b = 0; b < 32; b++) {
		const char *name = zf2fs_feature_name(1u << b);
		uint32_t back = 0;
		char bad[32];

		if (!(ZF2FS_FEAT_KNOWN & (1u << b))) {
			assert_null(name);
			continue;
		}
		assert_non_null(name);
		assert_int_equal(zf2fs_features_parse(name, &back, bad, sizeof(bad)), 0);
		assert_int_equal(back, 1u << b);
	}
	assert_string_equal(zf2fs_feature_name(0x8000), "device_alias");
	assert_string_equal(zf2fs_feature_name(0x10000), "packed_ssa");
	assert_string_equal(zf2fs_encoding_flag_name(0x1), "strict");
	assert_string_equal(zf2fs_encoding_flag_name(0x2), "hashonly");
	assert_null(zf2fs_encoding_flag_name(0x4));
	assert_string_equal(zf2fs_inode_flag_name(0x80000000u), "device_alias");
	assert_string_equal(zf2fs_inode_flag_name(0x40000000u), "casefold");
	/* no two bits of one word share a name */
	for (size_t f = 0; f < sizeof(word_fns) / sizeof(word_fns[0]); f++)
		for (unsigned a = 0; a < 32; a++)
			for (unsigned b = a + 1; b < 32; b++)
				if (word_fns[f](1u << a) && word_fns[f](1u << b))
					assert_string_not_equal(word_fns[f](1u << a),
								word_fns[f](1u << b));
}

/* mkfs may ask for packed_ssa, never for device_alias (f2fs-tools sets it with -c). */
static void test_features_check_new_bits(void **state)
{
	char why[256] = "";

	(void)state;
	assert_int_equal(zf2fs_features_check(ZF2FS_FEAT_PACKED_SSA, why, sizeof(why)), 0);
	assert_int_equal(zf2fs_features_check(ZF2FS_FEAT_DEVICE_ALIAS, why, sizeof(why)),
			 -ENOTSUP);
	assert_non_null(strstr(why, "device_alias"));
	assert_non_null(strstr(why, "-c DEV@ALIAS"));
}

/* A superblock and inode written by mkfs.f2fs 1.15 read through our structs. */
static void test_reference_super(void **state)
{
	uint8_t blk[ZF2FS_BLKSIZE];
	const struct zf2fs_super *sb = (const void *)(blk + ZF2FS_SUPER_OFFSET);
	struct zf2fs_node node;

	(void)state;
	load_block("ref115_super.bin", blk);
	assert_int_equal(zf2fs_get(sb->magic), ZF2FS_MAGIC);
	assert_int_equal(zf2fs_get(sb->log_blocks_per_seg), 9);
	assert_int_equal(zf2fs_get(sb->root_ino), 3);
	assert_int_equal(zf2fs_get(sb->segment0_blkaddr), 512);
	assert_int_equal(zf2fs_get(sb->cp_blkaddr), 512);
	assert_int_equal(zf2fs_get(sb->main_blkaddr), 4096);
	assert_int_equal(zf2fs_get(sb->feature), ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM |
			 ZF2FS_FEAT_SB_CHKSUM | ZF2FS_FEAT_LOST_FOUND |
			 ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR | ZF2FS_FEAT_INODE_CRTIME);
	assert_int_equal(zf2fs_get(sb->checksum_offset), offsetof(struct zf2fs_super, crc));
	/* label "fixture" in UTF-16LE */
	assert_int_equal(zf2fs_get(sb->volume_name[0]), 'f');
	assert_int_equal(zf2fs_get(sb->volume_name[6]), 'e');
	assert_int_equal(zf2fs_get(sb->volume_name[7]), 0);

	load_block("ref115_lpf_inode.bin", &node);
	assert_int_equal(zf2fs_get(node.i.i_mode), 040700);
	assert_int_equal(zf2fs_get(node.i.i_pino), 3);
	assert_int_equal(zf2fs_get(node.i.i_namelen), 10);
	assert_memory_equal(node.i.i_name, "lost+found", 10);
	assert_int_equal(zf2fs_get(node.footer.nid), zf2fs_get(node.footer.ino));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_super_offsets),
		cmocka_unit_test(test_checkpoint_offsets),
		cmocka_unit_test(test_node_offsets),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_reference_super),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_features_check_new_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
