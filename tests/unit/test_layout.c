// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_layout.c - the layout maths against published figures.
 *
 * Area sizes and addresses are those mkfs.f2fs 1.15 writes; reserved and overprovision
 * counts are the f2fs-tools 1.16 figures of docs/layout.md, including the
 * zoned examples of the configurable-reserved-sections patch.  16 KiB volumes: the
 * figures of f2fs-tools' development branch (tests/images/mkfs_16k.table).
 */
#include <errno.h>
#include <math.h>

#include "unit.h"

#define MiB (1024ull * 1024)
#define GiB (1024 * MiB)
#define TiB (1024 * GiB)

static struct zf2fs_dev_geom file_geom(uint64_t bytes)
{
	return (struct zf2fs_dev_geom){ .bytes = bytes, .sector_size = 512 };
}

static struct zf2fs_layout compute_ok(const struct zf2fs_dev_geom *g, unsigned n,
				      const struct zf2fs_layout_opts *o)
{
	struct zf2fs_layout l;
	char why[256] = "";
	int err = zf2fs_layout_compute(g, n, o, &l, why, sizeof(why));

	if (err)
		fail_msg("layout failed: %s", why);
	return l;
}

struct row {
	uint64_t bytes;
	uint32_t sps, spz, features;
	double ovp_opt;
	uint32_t main, rsvd, ovp;
	uint64_t user;
	double ratio;
};

/* The reference table of layout.md. */
static const struct row table[] = {
	{ 100 * MiB, 1, 1, 0, 0, 42, 10, 12, 15360, 30.0 },
	{ 1 * GiB, 1, 1, 0, 0, 502, 25, 27, 243200, 5.37 },
	{ 2 * GiB, 2, 1, 0, 0, 1010, 51, 55, 488960, 5.35 },
	{ 8 * GiB, 4, 2, 0, 0, 4056, 140, 148, 2000896, 3.57 },
	{ 4 * GiB, 1, 1, 0, 5, 2029, 27, 102, 986624, 5.0 },
	{ 10 * GiB, 1, 1, ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM | ZF2FS_FEAT_SB_CHKSUM,
	  0, 5081, 74, 76, 2562560, 1.48 },
	{ 1 * TiB, 1, 1, 0, 0, 523141, 721, 733, 267472896, 0.14 },
	{ 15 * TiB, 1, 1, 0, 0, 7848278, 2507, 3140, 4016710656ull, 0.04 },
};

static void test_reference_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct row *r = &table[i];
		struct zf2fs_dev_geom g = file_geom(r->bytes);
		struct zf2fs_layout_opts o = { .segs_per_sec = r->sps, .secs_per_zone = r->spz,
					       .features = r->features, .overprovision = r->ovp_opt };
		struct zf2fs_layout l = compute_ok(&g, 1, &o);

		print_message("row %zu: main %u rsvd %u ovp %u user %llu ratio %.3f\n", i,
			      l.segment_count_main, l.rsvd_segments, l.ovp_segments,
			      (unsigned long long)l.user_block_count, l.overprovision);
		assert_int_equal(l.segment_count_main, r->main);
		assert_int_equal(l.rsvd_segments, r->rsvd);
		assert_int_equal(l.ovp_segments, r->ovp);
		assert_int_equal(l.user_block_count, r->user);
		assert_true(fabs(l.overprovision - r->ratio) < 0.0005);
	}
}

/* Area addresses of a 1 GiB image as mkfs.f2fs 1.15 writes them. */
static void test_areas_1g(void **state)
{
	struct zf2fs_dev_geom g = file_geom(GiB);
	struct zf2fs_layout_opts o = { 0 };
	struct zf2fs_layout l;

	(void)state;
	l = compute_ok(&g, 1, &o);
	assert_int_equal(l.block_count, 262144);
	assert_int_equal(l.segment_count, 511);
	assert_int_equal(l.segment0_blkaddr, 512);
	assert_int_equal(l.cp_blkaddr, 512);
	assert_int_equal(l.sit_blkaddr, 1536);
	assert_int_equal(l.nat_blkaddr, 2560);
	assert_int_equal(l.ssa_blkaddr, 4608);
	assert_int_equal(l.main_blkaddr, 5120);
	assert_int_equal(l.segment_count_sit, 2);
	assert_int_equal(l.segment_count_nat, 4);
	assert_int_equal(l.segment_count_ssa, 1);
	assert_int_equal(l.section_count, 502);
	assert_int_equal(l.cp_payload, 0);
	assert_int_equal(l.sit_bitmap_bytes, 64);
	assert_int_equal(l.nat_bitmap_bytes, 128);
	assert_int_equal(l.free_segments, 502 - 6);
	/* six distinct logs inside the main area */
	for (int i = 0; i < ZF2FS_NR_CURSEG; i++) {
		assert_true(l.cur_seg[i] < l.segment_count_main);
		for (int j = i + 1; j < ZF2FS_NR_CURSEG; j++)
			assert_int_not_equal(l.cur_seg[i], l.cur_seg[j]);
	}
}

/* Big volumes move the SIT bitmap into cp_payload blocks. */
static void test_cp_payload(void **state)
{
	struct zf2fs_dev_geom g = file_geom(15 * TiB);
	struct zf2fs_layout_opts o = { 0 };
	struct zf2fs_layout l = compute_ok(&g, 1, &o);

	(void)state;
	assert_true(l.sit_bitmap_bytes > ZF2FS_CP_SIT_BITMAP_ROOM);
	assert_int_equal(l.cp_payload, (l.sit_bitmap_bytes + ZF2FS_BLKSIZE - 1) / ZF2FS_BLKSIZE);
	assert_int_equal(l.segment_count_nat % 2, 0);
	assert_true(l.segment_count_nat / 2 * ZF2FS_BLOCKS_PER_SEG / 8 <= ZF2FS_CP_BITMAP_ROOM);
}

static void test_too_small_and_too_big(void **state)
{
	struct zf2fs_dev_geom g = file_geom(8 * MiB);
	struct zf2fs_layout_opts o = { 0 };
	struct zf2fs_layout l;
	char why[256];

	(void)state;
	assert_int_equal(zf2fs_layout_compute(&g, 1, &o, &l, why, sizeof(why)), -ENOSPC);
	assert_non_null(strstr(why, "not sufficient"));
	g = file_geom(17 * TiB);
	assert_int_equal(zf2fs_layout_compute(&g, 1, &o, &l, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "too large"));
}

/* The smallest size we accept is formatted; one segment less is refused. */
static void test_minimum_size(void **state)
{
	struct zf2fs_layout_opts o = { 0 };
	struct zf2fs_layout l;
	uint64_t lo = 4 * MiB, hi = 256 * MiB;

	(void)state;
	while (hi - lo > 2 * MiB) {
		uint64_t mid = (lo + hi) / 2 / (2 * MiB) * (2 * MiB);
		struct zf2fs_dev_geom g = file_geom(mid);

		if (zf2fs_layout_compute(&g, 1, &o, &l, NULL, 0) == 0)
			hi = mid;
		else
			lo = mid;
	}
	print_message("minimum size: %llu MiB\n", (unsigned long long)(hi / MiB));
	{
		struct zf2fs_dev_geom g = file_geom(hi), s = file_geom(hi - 2 * MiB);

		assert_int_equal(zf2fs_layout_compute(&g, 1, &o, &l, NULL, 0), 0);
		assert_true(l.usable_segments > l.ovp_segments);
		assert_int_not_equal(zf2fs_layout_compute(&s, 1, &o, &l, NULL, 0), 0);
	}
}

static void test_reserved_sections_option(void **state)
{
	struct zf2fs_dev_geom g = file_geom(4 * GiB);
	struct zf2fs_layout_opts o = { .reserved_sections = 3 };
	struct zf2fs_layout l;
	char why[256];

	(void)state;
	l = compute_ok(&g, 1, &o);
	assert_non_null(strstr(l.note, "raised from 3 to 8"));
	assert_int_equal(l.rsvd_segments, 8);
	assert_true(fabs(l.overprovision - 3.0) < 1e-9);
	/* OP counts on top of the reserve */
	assert_int_equal(l.segment_count_main, 2029);
	assert_int_equal(l.ovp_segments, 60 + 8);   /* trunc((2029 - 8) * 3%) + reserve */
	/* too little OP for -Z: below two sections */
	o.reserved_sections = 8;
	o.overprovision = 0.01;
	assert_int_equal(zf2fs_layout_compute(&g, 1, &o, &l, why, sizeof(why)), -ENOSPC);
	assert_non_null(strstr(why, "overprovision"));
}

/* 448 MiB conventional device + 953 sequential zones of 64 MiB (null_blk). */
static void nullblk_pair(struct zf2fs_dev_geom g[2])
{
	g[0] = file_geom(448 * MiB);
	g[0].sector_size = 4096;
	g[1] = (struct zf2fs_dev_geom){ .bytes = 953 * 64 * MiB, .sector_size = 4096,
		.zone_model = ZF2FS_ZONED_HM, .zone_bytes = 64 * MiB, .zone_cap_bytes = 64 * MiB,
		.nr_zones = 953 };
}

static void test_zoned_patch_example(void **state)
{
	struct zf2fs_dev_geom g[2];
	struct zf2fs_layout_opts o = { .zoned = true };
	struct zf2fs_layout l;

	(void)state;
	nullblk_pair(g);
	l = compute_ok(g, 2, &o);
	assert_int_equal(l.segs_per_sec, 32);
	assert_int_equal(l.section_count, 953);
	assert_int_equal(l.main_blkaddr, 448 * MiB / 4096);   /* main starts on the zoned device */
	assert_true(fabs(l.overprovision - 3.7) < 0.0005);
	assert_int_equal(l.ovp_segments, 1152);
	assert_int_equal(l.rsvd_segments, 1088);

	o.reserved_sections = 8;
	o.overprovision = 2.965;
	l = compute_ok(g, 2, &o);
	assert_int_equal(l.ovp_segments, 1152);
	assert_int_equal(l.rsvd_segments, 256);
}

/* 512 MiB conventional + 4 GiB NVMe ZNS, zone 64 MiB, capacity 62 MiB. */
static void test_zoned_capacity(void **state)
{
	struct zf2fs_dev_geom g[2];
	struct zf2fs_layout_opts o = { .zoned = true };
	struct zf2fs_layout l;

	(void)state;
	g[0] = file_geom(512 * MiB);
	g[0].sector_size = 4096;
	g[1] = (struct zf2fs_dev_geom){ .bytes = 4 * GiB, .sector_size = 4096,
		.zone_model = ZF2FS_ZONED_HM, .zone_bytes = 64 * MiB, .zone_cap_bytes = 62 * MiB,
		.nr_zones = 64 };
	l = compute_ok(g, 2, &o);
	/* 31 usable segments in each of the 64 sequential zones, all 192 main segments of
	 * the conventional device */
	assert_int_equal(l.usable_segments, 64 * 31 + 192);
	assert_true(fabs(l.overprovision - 10.0) < 0.0005);
	assert_int_equal(l.ovp_segments, 608);
	assert_int_equal(l.rsvd_segments, 544);
	assert_int_equal(l.user_block_count, (uint64_t)(l.usable_segments - 608) * 512);

	o.reserved_sections = 10;
	o.overprovision = 5;
	l = compute_ok(g, 2, &o);
	assert_int_equal(l.ovp_segments, 412);
	assert_int_equal(l.rsvd_segments, 320);
	/* the logs sit on the first sequential zones */
	for (int i = 0; i < ZF2FS_NR_CURSEG; i++)
		assert_true(l.main_blkaddr + (uint64_t)l.cur_seg[i] * 512 >= l.dev_start_blk[1]);
}

/* A capacity that is not a whole number of segments still counts its partial segment. */
static void test_zoned_partial_segment(void **state)
{
	struct zf2fs_dev_geom g[2];
	struct zf2fs_layout_opts o = { .zoned = true };
	struct zf2fs_layout l;

	(void)state;
	g[0] = file_geom(512 * MiB);
	g[0].sector_size = 4096;
	g[1] = (struct zf2fs_dev_geom){ .bytes = 4 * GiB, .sector_size = 4096,
		.zone_model = ZF2FS_ZONED_HM, .zone_bytes = 64 * MiB,
		.zone_cap_bytes = 61 * MiB, .nr_zones = 64 };
	l = compute_ok(g, 2, &o);
	assert_int_equal(l.usable_segments, 64 * 31 + 192);   /* 30.5 -> 31 */
}

static void test_bad_geometry(void **state)
{
	struct zf2fs_dev_geom g[2];
	struct zf2fs_layout_opts o = { .zoned = true };
	struct zf2fs_layout l;
	char why[256];

	(void)state;
	nullblk_pair(g);
	g[0].sector_size = 512;
	assert_int_equal(zf2fs_layout_compute(g, 2, &o, &l, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "different sector sizes"));
	nullblk_pair(g);
	o.zoned = false;
	assert_int_equal(zf2fs_layout_compute(g, 2, &o, &l, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "-m"));
	nullblk_pair(g);
	o.zoned = true;
	g[0].bytes = 32 * MiB;   /* metadata does not fit in front of the zoned device */
	assert_int_equal(zf2fs_layout_compute(g, 2, &o, &l, why, sizeof(why)), -ENOSPC);
}

/* 16 KiB blocks: rows of tests/images/mkfs_16k.table (f2fs-tools' development branch). */
struct row16 {
	uint64_t bytes;
	uint32_t sps, spz, features;
	double ovp_opt;
	bool large_nat;
	uint32_t sit, nat, ssa, main, main_blkaddr, rsvd, ovp, free;
	uint64_t user;
};

static const struct row16 table16[] = {
	{ 300 * MiB, 1, 1, 0, 0, false, 2, 2, 1, 29, 4096, 9, 15, 23, 7168 },
	{ 1 * GiB, 1, 1, 0, 0, false, 2, 2, 1, 120, 4096, 13, 22, 114, 50176 },
	{ 8 * GiB, 1, 1, 0, 0, false, 2, 2, 2, 1015, 4608, 35, 41, 1009, 498688 },
	{ 8 * GiB, 1, 1, ZF2FS_FEAT_PACKED_SSA, 0, false, 2, 2, 1, 1016, 4096, 35, 41, 1010,
	  499200 },
	{ 8 * GiB, 2, 2, 0, 0, false, 2, 2, 2, 1012, 6144, 52, 64, 1006, 485376 },
	{ 8 * GiB, 1, 1, 0, 5, false, 2, 2, 2, 1015, 4608, 27, 55, 1009, 491520 },
	{ 1 * TiB, 1, 1, ZF2FS_FEAT_PACKED_SSA, 0, false, 4, 146, 64, 130855, 111104, 364, 371,
	  130849, 66807808 },
	{ 15 * TiB, 1, 1, ZF2FS_FEAT_PACKED_SSA, 0, true, 36, 432, 960, 1964649, 732672, 1435,
	  1441, 1964643, 1005162496ull },
};

static void test_16k_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(table16) / sizeof(table16[0]); i++) {
		const struct row16 *r = &table16[i];
		struct zf2fs_dev_geom g = file_geom(r->bytes);
		struct zf2fs_layout_opts o = { .segs_per_sec = r->sps, .secs_per_zone = r->spz,
					       .features = r->features, .overprovision = r->ovp_opt,
					       .large_nat_bitmap = r->large_nat, .log_blocksize = 14 };
		struct zf2fs_layout l = compute_ok(&g, 1, &o);

		print_message("16K row %zu: main %u at %u, ssa %u, rsvd %u ovp %u user %llu\n", i,
			      l.segment_count_main, l.main_blkaddr, l.segment_count_ssa,
			      l.rsvd_segments, l.ovp_segments, (unsigned long long)l.user_block_count);
		assert_int_equal(l.log_blocksize, 14);
		assert_int_equal(l.log_sectors_per_block, 5);
		assert_int_equal(l.block_count, r->bytes / 16384);
		assert_int_equal(l.packed_ssa, !!(r->features & ZF2FS_FEAT_PACKED_SSA));
		assert_int_equal(l.segment0_blkaddr, 512u * r->sps * r->spz);
		assert_int_equal(l.segment_count_sit, r->sit);
		assert_int_equal(l.segment_count_nat, r->nat);
		assert_int_equal(l.segment_count_ssa, r->ssa);
		assert_int_equal(l.segment_count_main, r->main);
		assert_int_equal(l.main_blkaddr, r->main_blkaddr);
		assert_int_equal(l.cp_payload, 0);
		assert_int_equal(l.rsvd_segments, r->rsvd);
		assert_int_equal(l.ovp_segments, r->ovp);
		assert_int_equal(l.free_segments, r->free);
		assert_int_equal(l.user_block_count, r->user);
	}
}

/* The null_blk pair with 16 KiB blocks: 8 MiB segments, a section of 8 (one 64 MiB zone),
 * segment 0 shifted so that the zoned device starts on a section boundary, reserved
 * segments in whole sections. */
static void test_16k_zoned(void **state)
{
	struct zf2fs_dev_geom g[2];
	struct zf2fs_layout_opts o = { .zoned = true, .log_blocksize = 14 };
	struct zf2fs_layout l;
	char why[256];

	(void)state;
	nullblk_pair(g);
	l = compute_ok(g, 2, &o);
	assert_int_equal(l.log_sectors_per_block, 2);
	assert_int_equal(l.segs_per_sec, 8);
	assert_int_equal(l.zone_blocks, 4096);
	assert_int_equal(l.zone_cap_blocks, 4096);
	assert_int_equal(l.segment0_blkaddr, 4096);              /* 64 MiB */
	assert_int_equal(l.dev_start_blk[1], 448 * MiB / 16384);
	assert_int_equal(l.segment_count, 48 + 953 * 8);
	assert_int_equal(l.segment_count_nat, 10);
	assert_int_equal(l.segment_count_ssa, 18);                /* padded to a zone */
	assert_int_equal(l.main_blkaddr, 320 * MiB / 16384);
	assert_int_equal(l.section_count, 955);
	assert_int_equal(l.rsvd_segments % l.segs_per_sec, 0);
	assert_true(l.ovp_segments >= l.rsvd_segments + 6 * l.segs_per_sec);

	/* a zone of 4 MiB is half a segment */
	g[1].zone_bytes = g[1].zone_cap_bytes = 4 * MiB;
	assert_int_equal(zf2fs_layout_compute(g, 2, &o, &l, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "not a multiple of 8 MiB"));
}

static void test_16k_bad_block_size(void **state)
{
	struct zf2fs_dev_geom g = file_geom(GiB);
	struct zf2fs_layout_opts o = { .log_blocksize = 13 };
	struct zf2fs_layout l;
	char why[256];

	(void)state;
	assert_int_equal(zf2fs_layout_compute(&g, 1, &o, &l, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "4096 or 16384"));
	/* packed_ssa with 4 KiB blocks lays out as without it */
	o.log_blocksize = 12;
	o.features = ZF2FS_FEAT_PACKED_SSA;
	l = compute_ok(&g, 1, &o);
	assert_false(l.packed_ssa);
	assert_int_equal(l.segment_count_ssa, 1);
	assert_int_equal(l.main_blkaddr, 5120);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_table),
		cmocka_unit_test(test_areas_1g),
		cmocka_unit_test(test_cp_payload),
		cmocka_unit_test(test_too_small_and_too_big),
		cmocka_unit_test(test_minimum_size),
		cmocka_unit_test(test_reserved_sections_option),
		cmocka_unit_test(test_zoned_patch_example),
		cmocka_unit_test(test_zoned_capacity),
		cmocka_unit_test(test_zoned_partial_segment),
		cmocka_unit_test(test_bad_geometry),
		cmocka_unit_test(test_16k_table),
		cmocka_unit_test(test_16k_zoned),
		cmocka_unit_test(test_16k_bad_block_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
