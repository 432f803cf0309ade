/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout_p.h - the parts of the layout maths (lib/format/layout.c) that resize uses on a volume
 * that already exists: sizing the metadata areas for a segment count, and the space
 * policy (reserved, overprovision, user blocks) for a main area.  Private to the library.
 */
#ifndef ZF2FS_LAYOUT_P_H
#define ZF2FS_LAYOUT_P_H

#include <stddef.h>

#include "zf2fs/zf2fs.h"

/* From @lay's segment0_blkaddr, segment_count and segs_per_zone: the CP, SIT, NAT and
 * SSA areas (counts, addresses, cp_payload, bitmap sizes), as mkfs sizes them; the SSA
 * padded so that the main area starts on a zone boundary. */
void zf2fs_layout_size_meta(struct zf2fs_layout *lay, const struct zf2fs_layout_opts *o);

/* From @lay's main area (segment_count, segment_count_main, section_count,
 * usable_segments, segs_per_sec): rsvd_segments, ovp_segments, overprovision,
 * free_segments and user_block_count for @o's -o and -Z.  0 or -ENOSPC with @why. */
int zf2fs_layout_space(struct zf2fs_layout *lay, const struct zf2fs_layout_opts *o,
		       char *why, size_t whylen);

/* The usable segments of @lay's main area on devices @devs (zoned: the sequential zones
 * count to their capacity), as zf2fs_layout_compute() finds them: from @lay's zoned,
 * dev_segments, segment0_blkaddr, main_blkaddr and segment_count_main.  Resize gives a
 * resized last device's geometry to size the space policy as mkfs would. */
uint32_t zf2fs_layout_usable(const struct zf2fs_dev_geom *devs, unsigned ndevs,
			     const struct zf2fs_layout *lay);

/* The superblock's area fields from @lay: segment 0, CP, SIT, NAT, SSA and main area
 * addresses, the four area segment counts, segment_count and cp_payload (mkfs, and a
 * grow that rebuilds the areas). */
void zf2fs_layout_set_areas(const struct zf2fs_layout *lay, struct zf2fs_super *sb);

#endif
