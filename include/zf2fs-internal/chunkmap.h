/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zf2fs-internal/chunkmap.h - chunk maps: a bitmap whose memory follows the bits set, not
 * its size.
 *
 * A 16 TiB volume has 4 G blocks: a flat bit per block is 512 MiB, although an empty
 * volume uses a few blocks.  The map allocates storage in chunks on the first write into
 * a chunk; reads of a chunk never written see zeros.
 *
 * For zf2fs-tools' own programs (fsck, the tools, the tests): not installed, and no ABI
 * promise.  The functions are exported from libzf2fs.so in the version node ZF2FS_PRIVATE
 * of lib/libzf2fs.sym; the installed API is include/zf2fs/.
 */
#ifndef ZF2FS_INTERNAL_CHUNKMAP_H
#define ZF2FS_INTERNAL_CHUNKMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

struct zf2fs_bmap;

/* A bitmap of @nbits bits, all clear.  -ENOMEM. */
ZF2FS_EXPORT int zf2fs_bmap_new(uint64_t nbits, struct zf2fs_bmap **ret_map);
ZF2FS_EXPORT void zf2fs_bmap_free(struct zf2fs_bmap *map);
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

#endif /* ZF2FS_INTERNAL_CHUNKMAP_H */
