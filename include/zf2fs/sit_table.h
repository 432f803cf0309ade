/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sit_table.h - a volume's SIT in memory that follows what is in use, not the size of the
 * volume, and one segment's SIT entry without loading the table.
 *
 * A 16 TiB volume has 8 M segments: a flat SIT is 580 MiB, although an empty volume uses a
 * few segments.  The table allocates storage per SIT block that holds anything but zeros.
 */
#ifndef ZF2FS_SIT_TABLE_H
#define ZF2FS_SIT_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

struct zf2fs_sit_table;

/* Every main segment's SIT entry, journal applied, like zf2fs_vol_load_sit; a SIT block
 * that is all zeros on disk (no segment in it was ever used) takes no memory.  -ENOMEM,
 * -ZF2FS_EFSCORRUPTED (SIT area too small for the main area), read errors. */
ZF2FS_EXPORT int zf2fs_vol_load_sit_table(struct zf2fs_vol *vol,
					  struct zf2fs_sit_table **ret_table);
ZF2FS_EXPORT void zf2fs_sit_table_free(struct zf2fs_sit_table *t);
ZF2FS_EXPORT uint32_t zf2fs_sit_table_segs(const struct zf2fs_sit_table *t);
/* Segment @segno's entry (an all-zero entry when its block was never written, or when
 * @segno is out of range). */
ZF2FS_EXPORT const struct zf2fs_sit_entry *zf2fs_sit_table_get(const struct zf2fs_sit_table *t,
							       uint32_t segno);
/* Whether the segments of SIT block @blk (the volume geometry's sit_per_block of them)
 * hold anything but zeros: callers skip whole blocks that do not. */
ZF2FS_EXPORT bool zf2fs_sit_table_block_used(const struct zf2fs_sit_table *t, uint32_t blk);
ZF2FS_EXPORT uint64_t zf2fs_sit_table_bytes(const struct zf2fs_sit_table *t);
/* One segment's SIT entry, journal first, then the live copy of its SIT block (one block
 * read): for views of a few segments, which need not load the whole SIT.  -EINVAL past
 * the main area, read errors. */
ZF2FS_EXPORT int zf2fs_vol_sit_lookup(struct zf2fs_vol *vol, uint32_t segno,
				      struct zf2fs_sit_entry *ret_entry);

#endif
