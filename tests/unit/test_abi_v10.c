// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_abi_v10.c - a program built against libzf2fs1 0.3.0 keeps working.
 *
 * 0.3.0's struct zf2fs_layout_opts, struct zf2fs_layout and struct zf2fs_mkfs_opts are
 * written out below as 0.3.0's include/zf2fs/zf2fs.h declared them, and the functions
 * that take them are bound to their ZF2FS_1.0 entries, as a program linked against 0.3.0
 * binds them.  Each struct sits in a buffer whose other bytes (its padding and a guard
 * after it) hold a pattern: the library must leave the guard alone, must not take the
 * pattern for a setting, and must give what the current API gives for 4 KiB blocks.
 * Built with --enable-sanitizers, the structs of one case are also allocated at their
 * exact size, so that AddressSanitizer reports any access past them.
 */
#include "unit.h"
#include "zf2fs/gc.h"
#include "zf2fs/gc_sim.h"

#define MiB (1024ull * 1024)
#define PATTERN 0xa5
#define GUARD 64

/* ---- 0.3.0's structs (include/zf2fs/zf2fs.h of libzf2fs1 0.3.0) ---------------------- */
struct v10_layout_opts {
	uint32_t segs_per_sec;
	uint32_t secs_per_zone;
	double overprovision;
	uint32_t reserved_sections;
	uint32_t features;
	bool zoned;
	bool large_nat_bitmap;
};

struct v10_layout {
	uint32_t log_sectorsize, log_sectors_per_block;
	uint32_t segs_per_sec, secs_per_zone, segs_per_zone;
	uint64_t block_count;
	uint32_t segment_count, segment_count_ckpt, segment_count_sit, segment_count_nat;
	uint32_t segment_count_ssa, segment_count_main, section_count;
	uint32_t segment0_blkaddr, cp_blkaddr, sit_blkaddr, nat_blkaddr, ssa_blkaddr;
	uint32_t main_blkaddr;
	uint32_t cp_payload;
	uint32_t sit_bitmap_bytes, nat_bitmap_bytes, nat_bits_blocks;
	unsigned ndevs;
	uint32_t dev_segments[8];
	uint64_t dev_start_blk[8], dev_end_blk[8];
	enum zf2fs_zone_model dev_model[8];
	uint32_t dev_conv_zones[8];
	bool zoned;
	uint32_t zone_blocks;
	uint32_t zone_cap_blocks;
	uint32_t nr_zones;
	uint32_t usable_segments;
	double overprovision;
	uint32_t rsvd_segments, ovp_segments, free_segments;
	uint64_t user_block_count;
	uint32_t reserved_sections;
	uint32_t cur_seg[6];
	char note[200];
};

struct v10_mkfs_opts {
	struct v10_layout_opts layout;
	const char *label;
	bool have_uuid;
	uint8_t uuid[16];
	const char *cold_extensions;
	const char *hot_extensions;
	uint32_t root_uid, root_gid;
	uint64_t timestamp;
	uint16_t s_encoding, s_encoding_flags;
	bool discard;
	bool fixed_cp_version;
	const char *version_string;
	bool no_nat_bits;
	uint64_t cp_version;
};

#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(sizeof(struct v10_layout_opts) == 32, "0.3.0's size");
_Static_assert(sizeof(struct v10_layout) == 616, "0.3.0's size");
_Static_assert(sizeof(struct v10_mkfs_opts) == 128, "0.3.0's size");
#endif
/* The bytes of 0.3.0's layout that hold its members (the current one begins with them). */
#define V10_LAYOUT_BYTES (offsetof(struct v10_layout, note) + 200)
_Static_assert(offsetof(struct zf2fs_layout, note) == offsetof(struct v10_layout, note),
	       "the current layout begins with 0.3.0's members");

/* ---- the ZF2FS_1.0 entries, as a 0.3.0 program binds them -------------------------- */
int v10_layout_compute(const struct zf2fs_dev_geom *devs, unsigned ndevs,
		       const struct v10_layout_opts *opts, struct v10_layout *ret_layout,
		       char *why, size_t whylen);
void v10_layout_print_json(FILE *out, const struct v10_layout *lay);
int v10_mkfs_write(struct zf2fs_dev **devs, const struct v10_layout *lay,
		   const struct v10_mkfs_opts *opts, const struct zf2fs_log *log);
int v10_gc_sim_model_from_layout(const struct v10_layout *lay, struct zf2fs_gc_model **ret);
__asm__(".symver v10_layout_compute, zf2fs_layout_compute@ZF2FS_1.0");
__asm__(".symver v10_layout_print_json, zf2fs_layout_print_json@ZF2FS_1.0");
__asm__(".symver v10_mkfs_write, zf2fs_mkfs_write@ZF2FS_1.0");
__asm__(".symver v10_gc_sim_model_from_layout, zf2fs_gc_sim_model_from_layout@ZF2FS_1.0");

/* The structs inside buffers: the pattern in their padding and in the guard after them. */
struct g_opts {
	struct v10_layout_opts o;
	unsigned char guard[GUARD];
};
struct g_layout {
	struct v10_layout l;
	unsigned char guard[GUARD];
};
struct g_mkfs_opts {
	struct v10_mkfs_opts o;
	unsigned char guard[GUARD];
};

static void assert_guard(const unsigned char *guard)
{
	for (int i = 0; i < GUARD; i++)
		if (guard[i] != PATTERN)
			fail_msg("the library wrote byte %d past 0.3.0's struct (0x%02x)", i,
				 guard[i]);
}

/* A 0.3.0 program's options: every byte not a member holds the pattern. */
static void v10_opts_set(struct v10_layout_opts *o, const struct zf2fs_layout_opts *cur)
{
	o->segs_per_sec = cur->segs_per_sec;
	o->secs_per_zone = cur->secs_per_zone;
	o->overprovision = cur->overprovision;
	o->reserved_sections = cur->reserved_sections;
	o->features = cur->features;
	o->zoned = cur->zoned;
	o->large_nat_bitmap = cur->large_nat_bitmap;
}

/* One device of @bytes with 512-byte sectors. */
static struct zf2fs_dev_geom geom_of(uint64_t bytes)
{
	struct zf2fs_dev_geom g;

	memset(&g, 0, sizeof(g));
	g.bytes = bytes;
	g.sector_size = 512;
	g.zone_model = ZF2FS_ZONED_NONE;
	return g;
}

static const struct {
	uint64_t bytes;
	struct zf2fs_layout_opts o;
} cases[] = {
	{ 512 * MiB, { 0 } },
	{ 512 * MiB, { .segs_per_sec = 4, .secs_per_zone = 2 } },
	{ 1024 * MiB, { .overprovision = 3.5, .reserved_sections = 40 } },
	{ 256 * MiB, { .features = ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM |
				   ZF2FS_FEAT_SB_CHKSUM, .large_nat_bitmap = true } },
	{ 8 * MiB, { 0 } },                              /* too small: -ENOSPC */
	{ 64 * MiB, { .overprovision = 150 } },          /* no room for the reserve */
};

static void test_entries_are_not_the_current_ones(void **state)
{
	(void)state;
	/* bound to name@ZF2FS_1.0, not to the default name@@ZF2FS_1.1 */
	assert_true((uintptr_t)v10_layout_compute != (uintptr_t)zf2fs_layout_compute);
	assert_true((uintptr_t)v10_layout_print_json != (uintptr_t)zf2fs_layout_print_json);
	assert_true((uintptr_t)v10_mkfs_write != (uintptr_t)zf2fs_mkfs_write);
	assert_true((uintptr_t)v10_gc_sim_model_from_layout !=
		    (uintptr_t)zf2fs_gc_sim_model_from_layout);
}

static void test_layout_compute(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct zf2fs_dev_geom g = geom_of(cases[i].bytes);
		struct zf2fs_layout_opts o = cases[i].o;
		struct zf2fs_layout cur;
		struct g_opts go;
		struct g_layout gl;
		char why[256] = "", why_v10[256] = "";
		int err, err_v10;

		o.log_blocksize = 12;
		err = zf2fs_layout_compute(&g, 1, &o, &cur, why, sizeof(why));
		memset(&go, PATTERN, sizeof(go));
		memset(&gl, PATTERN, sizeof(gl));
		v10_opts_set(&go.o, &o);
		err_v10 = v10_layout_compute(&g, 1, &go.o, &gl.l, why_v10, sizeof(why_v10));
		assert_guard(gl.guard);
		assert_guard(go.guard);
		assert_int_equal(err_v10, err);
		assert_string_equal(why_v10, why);
		if (i < 4)
			assert_int_equal(err, 0);
		else
			assert_int_not_equal(err, 0);
		if (err)
			continue;
		assert_int_equal(cur.log_blocksize, 12);
		assert_memory_equal(&gl.l, &cur, V10_LAYOUT_BYTES);
	}
}

/* The structs alone, at their exact size on the heap (for AddressSanitizer). */
static void test_layout_compute_exact(void **state)
{
	struct zf2fs_dev_geom g = geom_of(512 * MiB);
	struct zf2fs_layout_opts o = { .log_blocksize = 12 };
	struct v10_layout_opts *old_o = calloc(1, sizeof(*old_o));
	struct v10_layout *old_l = calloc(1, sizeof(*old_l));
	struct zf2fs_layout cur;

	(void)state;
	assert_non_null(old_o);
	assert_non_null(old_l);
	assert_int_equal(zf2fs_layout_compute(&g, 1, &o, &cur, NULL, 0), 0);
	assert_int_equal(v10_layout_compute(&g, 1, old_o, old_l, NULL, 0), 0);
	assert_memory_equal(old_l, &cur, V10_LAYOUT_BYTES);
	free(old_o);
	free(old_l);
}

static void test_layout_print_json(void **state)
{
	struct zf2fs_dev_geom g = geom_of(512 * MiB);
	struct zf2fs_layout_opts o = { .segs_per_sec = 2, .log_blocksize = 12 };
	struct zf2fs_layout cur;
	struct g_layout gl;
	char *json = NULL, *json_v10 = NULL;
	size_t len = 0, len_v10 = 0;
	FILE *f;

	(void)state;
	assert_int_equal(zf2fs_layout_compute(&g, 1, &o, &cur, NULL, 0), 0);
	memset(&gl, PATTERN, sizeof(gl));
	memcpy(&gl.l, &cur, V10_LAYOUT_BYTES);
	assert_non_null(f = open_memstream(&json, &len));
	zf2fs_layout_print_json(f, &cur);
	fclose(f);
	assert_non_null(f = open_memstream(&json_v10, &len_v10));
	v10_layout_print_json(f, &gl.l);
	fclose(f);
	assert_non_null(strstr(json, "\"block_size\": 4096,"));
	assert_non_null(strstr(json, "\"packed_ssa\": false,"));
	assert_string_equal(json_v10, json);
	assert_guard(gl.guard);
	free(json);
	free(json_v10);
}

/* mkfs through the ZF2FS_1.0 entries and through the current API: the same image. */
static void test_mkfs_write(void **state)
{
	const uint64_t bytes = 256 * MiB;
	struct zf2fs_dev *dev = NULL, *dev_v10 = NULL;
	struct zf2fs_dev_geom g;
	struct zf2fs_mkfs_opts mk;
	struct zf2fs_layout cur;
	struct g_mkfs_opts gm;
	struct g_layout gl;

	(void)state;
	memset(&mk, 0, sizeof(mk));
	mk.layout.features = ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_INODE_CHKSUM |
			     ZF2FS_FEAT_SB_CHKSUM;
	mk.layout.log_blocksize = 12;
	mk.label = "abi-v10";
	mk.have_uuid = true;
	for (int i = 0; i < 16; i++)
		mk.uuid[i] = (uint8_t)(i * 13 + 7);
	mk.cold_extensions = "iso";
	mk.hot_extensions = "db";
	mk.root_uid = 1000;
	mk.root_gid = 100;
	mk.timestamp = 1700000000;
	mk.version_string = "abi-v10 test";
	mk.cp_version = 12345;

	memset(&gm, PATTERN, sizeof(gm));
	v10_opts_set(&gm.o.layout, &mk.layout);
	gm.o.label = mk.label;
	gm.o.have_uuid = mk.have_uuid;
	memcpy(gm.o.uuid, mk.uuid, sizeof(mk.uuid));
	gm.o.cold_extensions = mk.cold_extensions;
	gm.o.hot_extensions = mk.hot_extensions;
	gm.o.root_uid = mk.root_uid;
	gm.o.root_gid = mk.root_gid;
	gm.o.timestamp = mk.timestamp;
	gm.o.s_encoding = 0;
	gm.o.s_encoding_flags = 0;
	gm.o.discard = false;
	gm.o.fixed_cp_version = false;
	gm.o.version_string = mk.version_string;
	gm.o.no_nat_bits = false;
	gm.o.cp_version = mk.cp_version;

	assert_int_equal(zs_dev_open_memory(bytes, &unit_quiet, &dev), 0);
	assert_int_equal(zs_dev_open_memory(bytes, &unit_quiet, &dev_v10), 0);
	assert_int_equal(zf2fs_dev_geometry(dev, &g), 0);
	assert_int_equal(zf2fs_layout_compute(&g, 1, &mk.layout, &cur, NULL, 0), 0);
	assert_int_equal(zf2fs_mkfs_write(&dev, &cur, &mk, &unit_quiet), 0);

	memset(&gl, PATTERN, sizeof(gl));
	assert_int_equal(v10_layout_compute(&g, 1, &gm.o.layout, &gl.l, NULL, 0), 0);
	assert_guard(gl.guard);
	/* what a 0.3.0 program's padding may hold, in the layout it passes on */
	memset((char *)&gl.l + V10_LAYOUT_BYTES, PATTERN, sizeof(gl.l) - V10_LAYOUT_BYTES);
	assert_int_equal(v10_mkfs_write(&dev_v10, &gl.l, &gm.o, &unit_quiet), 0);
	assert_guard(gl.guard);
	assert_guard(gm.guard);
	assert_memory_equal(zs_dev_memory(dev_v10), zs_dev_memory(dev), bytes);
	zf2fs_dev_close(dev);
	zf2fs_dev_close(dev_v10);
}

static void test_gc_sim_model_from_layout(void **state)
{
	struct zf2fs_dev_geom g = geom_of(1024 * MiB);
	struct zf2fs_layout_opts o = { .segs_per_sec = 2, .log_blocksize = 12 };
	struct zf2fs_gc_model *m = NULL, *m_v10 = NULL;
	struct zf2fs_gc_summary s, s_v10;
	struct zf2fs_layout cur;
	struct g_layout gl;

	(void)state;
	assert_int_equal(zf2fs_layout_compute(&g, 1, &o, &cur, NULL, 0), 0);
	memset(&gl, PATTERN, sizeof(gl));
	memcpy(&gl.l, &cur, V10_LAYOUT_BYTES);
	assert_int_equal(zf2fs_gc_sim_model_from_layout(&cur, &m), 0);
	assert_int_equal(v10_gc_sim_model_from_layout(&gl.l, &m_v10), 0);
	assert_guard(gl.guard);
	memset(&s, 0, sizeof(s));
	memset(&s_v10, 0, sizeof(s_v10));
	zf2fs_gc_summarize(m, &s);
	zf2fs_gc_summarize(m_v10, &s_v10);
	assert_int_equal(s_v10.main_secs, s.main_secs);
	assert_int_equal(s_v10.segs_per_sec, 2);
	assert_int_equal(s_v10.free_secs, s.free_secs);
	assert_int_equal(s_v10.rsvd_segments, s.rsvd_segments);
	assert_int_equal(s_v10.ovp_segments, s.ovp_segments);
	assert_int_equal(s_v10.valid_blocks, s.valid_blocks);
	assert_memory_equal(s_v10.cur_segno, s.cur_segno, sizeof(s.cur_segno));
	zf2fs_gc_model_free(m);
	zf2fs_gc_model_free(m_v10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entries_are_not_the_current_ones),
		cmocka_unit_test(test_layout_compute),
		cmocka_unit_test(test_layout_compute_exact),
		cmocka_unit_test(test_layout_print_json),
		cmocka_unit_test(test_mkfs_write),
		cmocka_unit_test(test_gc_sim_model_from_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
