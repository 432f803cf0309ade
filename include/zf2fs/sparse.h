/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sparse.h - maps whose memory follows what is in use, not the size of the volume.
 *
 * A 16 TiB volume has 4 G blocks and 8 M segments: a flat bit per block is 512 MiB and a
 * flat SIT is 580 MiB, although an empty volume uses a few blocks.  These maps allocate
 * storage in chunks on the first write into a chunk; reads of a chunk never written see
 * zeros.  Part of libzf2fs.
 */
#ifndef ZF2FS_SPARSE_H
#define ZF2FS_SPARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

/* ---- a sparse bitmap --------------------------------------------------------------------- */
struct zf2fs_bmap;

/* A bitmap of @nbits bits, all clear.  -ENOMEM. */
ZF2FS_EXPORT int zf2fs_bmap_new(uint64_t nbits, struct zf2fs_bmap **ret_map);
ZF2FS_EXPORT void zf2fs_bmap_free(struct zf2fs_bmap *map);
ZF2FS_EXPORT uint64_t zf2fs_bmap_nbits(const struct zf2fs_bmap *map);
/* Bit @nr (false past the end). */
ZF2FS_EXPORT bool zf2fs_bmap_test(const struct zf2fs_bmap *map, uint64_t nr);
/* Set bit @nr: 0, -ENOMEM (the chunk could not be allocated), -ERANGE past the end. */
ZF2FS_EXPORT int zf2fs_bmap_set(struct zf2fs_bmap *map, uint64_t nr);
/* Clear bit @nr (never allocates). */
ZF2FS_EXPORT void zf2fs_bmap_clear(struct zf2fs_bmap *map, uint64_t nr);
/* Whether any bit in [@first, @first + @count) is set; skips chunks never written. */
ZF2FS_EXPORT bool zf2fs_bmap_any(const struct zf2fs_bmap *map, uint64_t first, uint64_t count);
/* Bytes allocated for the chunks and their index (for tests and benchmarks). */
ZF2FS_EXPORT uint64_t zf2fs_bmap_bytes(const struct zf2fs_bmap *map);

/* ---- a sparse SIT ---------------------------------------------------------------------------- */
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
/* The same, for changing it: allocates its chunk; NULL on -ENOMEM or out of range. */
ZF2FS_EXPORT struct zf2fs_sit_entry *zf2fs_sit_table_mut(struct zf2fs_sit_table *t,
							 uint32_t segno);
/* Whether the segments of SIT block @blk (ZF2FS_SIT_PER_BLOCK of them) hold anything
 * but zeros: callers skip whole blocks that do not. */
ZF2FS_EXPORT bool zf2fs_sit_table_block_used(const struct zf2fs_sit_table *t, uint32_t blk);
ZF2FS_EXPORT uint64_t zf2fs_sit_table_bytes(const struct zf2fs_sit_table *t);
/* One segment's SIT entry, journal first, then the live copy of its SIT block (one block
 * read): for views of a few segments, which need not load the whole SIT.  -EINVAL past
 * the main area, read errors. */
ZF2FS_EXPORT int zf2fs_vol_sit_lookup(struct zf2fs_vol *vol, uint32_t segno,
				      struct zf2fs_sit_entry *ret_entry);

/* ---- nat_bits -------------------------------------------------------------------------------- */
/* Whether the checkpoint's nat_bits (written at unmount, tied to the checkpoint by its
 * version and checksum) say NAT block @idx holds no entry.  False when the checkpoint has
 * no valid nat_bits.  The first call reads them from the checkpoint pack. */
ZF2FS_EXPORT bool zf2fs_vol_nat_block_empty(struct zf2fs_vol *vol, uint32_t idx);

/* ---- the clean test -------------------------------------------------------------------------- */
/* Whether the volume may skip a full check at boot: the newest checkpoint was written at
 * unmount and carries no fsck, error or quota-needs-fsck flag, both superblock copies are
 * valid and the superblock records no stop reason or error.  Reads nothing. */
ZF2FS_EXPORT bool zf2fs_vol_clean(const struct zf2fs_vol *vol);

#endif
