/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * abi_v10_p.h - the public structs whose layout differs from libzf2fs1 0.3.0's, as 0.3.0
 * laid them out, for the entries of version node ZF2FS_1.0 that 0.3.0 programs call.
 * Private to the library.
 *
 * The functions that take these structs are exported twice (lib/libzf2fs.sym):
 *   name@@ZF2FS_1.1  the current definition, the default every new program and the
 *                    library's own callers bind to;
 *   name@ZF2FS_1.0   0.3.0's entry (NAME_v10.c beside the definition: layout_v10.c,
 *                    lib/write/mkfs_write_v10.c, lib/gc/simulate_v10.c): it takes the
 *                    structs below, converts them to the current ones for 4 KiB blocks
 *                    (log_blocksize 12, packed_ssa false), calls the current definition
 *                    and converts what it returns.
 *
 * struct zf2fs_layout_opts has log_blocksize at its end, which 0.3.0's lacks: where a
 * double is 4-byte aligned in structs (i386) the struct is 4 bytes larger and every
 * member after it in struct zf2fs_mkfs_opts sits 4 bytes further; elsewhere (x86-64,
 * arm64, armhf) it fills 0.3.0's tail padding, which 0.3.0 programs leave as anything.
 * struct zf2fs_layout has log_blocksize and packed_ssa at its end, the latter past 0.3.0's
 * end on every target.  The members 0.3.0 has sit at the same offsets in both: the
 * asserts below keep it so.
 */
#ifndef ZF2FS_ABI_V10_P_H
#define ZF2FS_ABI_V10_P_H

#include <stddef.h>

#include "zf2fs/zf2fs.h"

/* The default version of @name, which a definition named @name##_v11 carries, and the
 * 0.3.0 entry of @name, which a definition named @name##_v10 carries.  GCC's attribute is
 * what its LTO keeps; clang has only the assembler's directive. */
#if defined(__has_attribute) && !defined(__clang__)
#if __has_attribute(symver)
#define ZF2FS_SYMVER_ATTRIBUTE 1
#endif
#endif
#ifdef ZF2FS_SYMVER_ATTRIBUTE
#define ZF2FS_EXPORT_V11(name) ZF2FS_EXPORT __attribute__((symver(#name "@@ZF2FS_1.1")))
#define ZF2FS_EXPORT_V10(name) ZF2FS_EXPORT __attribute__((symver(#name "@ZF2FS_1.0")))
#else
#define ZF2FS_EXPORT_V11(name) \
	__asm__(".symver " #name "_v11, " #name "@@ZF2FS_1.1"); ZF2FS_EXPORT
#define ZF2FS_EXPORT_V10(name) \
	__asm__(".symver " #name "_v10, " #name "@ZF2FS_1.0"); ZF2FS_EXPORT
#endif

/* 0.3.0's struct zf2fs_layout_opts (include/zf2fs/zf2fs.h of commit ce6fa5d). */
struct zf2fs_layout_opts_v10 {
	uint32_t segs_per_sec;
	uint32_t secs_per_zone;
	double overprovision;
	uint32_t reserved_sections;
	uint32_t features;
	bool zoned;
	bool large_nat_bitmap;
};

/* 0.3.0's struct zf2fs_layout. */
struct zf2fs_layout_v10 {
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

/* 0.3.0's struct zf2fs_mkfs_opts. */
struct zf2fs_mkfs_opts_v10 {
	struct zf2fs_layout_opts_v10 layout;
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

_Static_assert(ZF2FS_MAX_DEVICES == 8 && ZF2FS_NR_CURSEG == 6, "0.3.0's array sizes");
#if defined(__x86_64__) || defined(__aarch64__)
/* The sizes 0.3.0 had on these targets (measured from ce6fa5d's header). */
_Static_assert(sizeof(struct zf2fs_layout_opts_v10) == 32, "0.3.0 layout opts");
_Static_assert(sizeof(struct zf2fs_layout_v10) == 616, "0.3.0 layout");
_Static_assert(sizeof(struct zf2fs_mkfs_opts_v10) == 128, "0.3.0 mkfs opts");
#endif

/* struct zf2fs_layout begins with 0.3.0's members, where 0.3.0 put them. */
#define ZF2FS_LAYOUT_V10_SAME(m) \
	_Static_assert(offsetof(struct zf2fs_layout_v10, m) == offsetof(struct zf2fs_layout, m) && \
		      sizeof(((struct zf2fs_layout_v10 *)0)->m) == \
		      sizeof(((struct zf2fs_layout *)0)->m), "layout member " #m)
ZF2FS_LAYOUT_V10_SAME(log_sectorsize);
ZF2FS_LAYOUT_V10_SAME(log_sectors_per_block);
ZF2FS_LAYOUT_V10_SAME(segs_per_sec);
ZF2FS_LAYOUT_V10_SAME(secs_per_zone);
ZF2FS_LAYOUT_V10_SAME(segs_per_zone);
ZF2FS_LAYOUT_V10_SAME(block_count);
ZF2FS_LAYOUT_V10_SAME(segment_count);
ZF2FS_LAYOUT_V10_SAME(segment_count_ckpt);
ZF2FS_LAYOUT_V10_SAME(segment_count_sit);
ZF2FS_LAYOUT_V10_SAME(segment_count_nat);
ZF2FS_LAYOUT_V10_SAME(segment_count_ssa);
ZF2FS_LAYOUT_V10_SAME(segment_count_main);
ZF2FS_LAYOUT_V10_SAME(section_count);
ZF2FS_LAYOUT_V10_SAME(segment0_blkaddr);
ZF2FS_LAYOUT_V10_SAME(cp_blkaddr);
ZF2FS_LAYOUT_V10_SAME(sit_blkaddr);
ZF2FS_LAYOUT_V10_SAME(nat_blkaddr);
ZF2FS_LAYOUT_V10_SAME(ssa_blkaddr);
ZF2FS_LAYOUT_V10_SAME(main_blkaddr);
ZF2FS_LAYOUT_V10_SAME(cp_payload);
ZF2FS_LAYOUT_V10_SAME(sit_bitmap_bytes);
ZF2FS_LAYOUT_V10_SAME(nat_bitmap_bytes);
ZF2FS_LAYOUT_V10_SAME(nat_bits_blocks);
ZF2FS_LAYOUT_V10_SAME(ndevs);
ZF2FS_LAYOUT_V10_SAME(dev_segments);
ZF2FS_LAYOUT_V10_SAME(dev_start_blk);
ZF2FS_LAYOUT_V10_SAME(dev_end_blk);
ZF2FS_LAYOUT_V10_SAME(dev_model);
ZF2FS_LAYOUT_V10_SAME(dev_conv_zones);
ZF2FS_LAYOUT_V10_SAME(zoned);
ZF2FS_LAYOUT_V10_SAME(zone_blocks);
ZF2FS_LAYOUT_V10_SAME(zone_cap_blocks);
ZF2FS_LAYOUT_V10_SAME(nr_zones);
ZF2FS_LAYOUT_V10_SAME(usable_segments);
ZF2FS_LAYOUT_V10_SAME(overprovision);
ZF2FS_LAYOUT_V10_SAME(rsvd_segments);
ZF2FS_LAYOUT_V10_SAME(ovp_segments);
ZF2FS_LAYOUT_V10_SAME(free_segments);
ZF2FS_LAYOUT_V10_SAME(user_block_count);
ZF2FS_LAYOUT_V10_SAME(reserved_sections);
ZF2FS_LAYOUT_V10_SAME(cur_seg);
ZF2FS_LAYOUT_V10_SAME(note);
#undef ZF2FS_LAYOUT_V10_SAME

/* The bytes of struct zf2fs_layout that 0.3.0's struct has: its members, in order. */
#define ZF2FS_LAYOUT_V10_BYTES (offsetof(struct zf2fs_layout_v10, note) + \
				sizeof(((struct zf2fs_layout_v10 *)0)->note))

/* The current options for 0.3.0's @old: the same settings, 4 KiB blocks. */
void zf2fs_layout_opts_from_v10(struct zf2fs_layout_opts *o,
				const struct zf2fs_layout_opts_v10 *old);

/* The current layout for 0.3.0's @old: the same numbers, 4 KiB blocks without packed_ssa. */
void zf2fs_layout_from_v10(struct zf2fs_layout *lay, const struct zf2fs_layout_v10 *old);

/* The current mkfs options for 0.3.0's @old (its layout options by
 * zf2fs_layout_opts_from_v10). */
void zf2fs_mkfs_opts_from_v10(struct zf2fs_mkfs_opts *o, const struct zf2fs_mkfs_opts_v10 *old);

#endif
