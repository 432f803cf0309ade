/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simg.h - Android sparse images (libsparse's format 1.0), unpacked to and packed from
 * raw image files (sload.f2fs -S).
 */
#ifndef ZF2FS_SIMG_H
#define ZF2FS_SIMG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether @path starts with the sparse image magic. */
ZF2FS_EXPORT bool zf2fs_simg_is(const char *path);

/*
 * Unpack sparse image @sparse into the new raw file @raw (created, never overwritten):
 * raw and fill chunks written, don't-care chunks left as holes; its block size in
 * @ret_blk_sz (may be NULL).  @why gets a one-line reason on failure.  Returns 0;
 * -ZF2FS_EFSCORRUPTED for what is not a sparse image of version 1 or has a bad chunk;
 * -EEXIST when @raw exists; open, read and write errors.
 */
ZF2FS_EXPORT int zf2fs_simg_unpack(const char *sparse, const char *raw, uint32_t *ret_blk_sz,
				   char *why, size_t whylen);

/*
 * Pack raw file @raw into sparse image @sparse (created or truncated) with blocks of
 * @blk_sz bytes: holes become don't-care chunks, runs of blocks of one repeated 32-bit
 * value fill chunks (zeros that were written stay zeros on the flashed device), the rest
 * raw chunks.  Returns 0; -EINVAL for a bad block size or a raw file that is not a whole
 * number of blocks; open, read and write errors.
 */
ZF2FS_EXPORT int zf2fs_simg_pack(const char *raw, const char *sparse, uint32_t blk_sz,
				 char *why, size_t whylen);

#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_SIMG_H */
