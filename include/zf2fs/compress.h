/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compress.h - the compressed clusters of F2FS files: one cluster of 2^log blocks in,
 * the kernel's on-disk form out (a 24-byte header, clen first, then the algorithm's
 * stream, zero-padded to whole blocks), and back.  Each algorithm needs its library at
 * build time (liblzo2, liblz4, libzstd); zf2fs_compress_supported() says which this build
 * has.
 */
#ifndef ZF2FS_COMPRESS_H
#define ZF2FS_COMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* i_compress_algorithm values (the kernel's numbering) */
#define ZF2FS_COMPRESS_LZO    0
#define ZF2FS_COMPRESS_LZ4    1
#define ZF2FS_COMPRESS_ZSTD   2
#define ZF2FS_COMPRESS_LZORLE 3
#define ZF2FS_COMPRESS_HEADER 24u   /* clen, chksum, 4 reserved words, then the data */
#define ZF2FS_ZSTD_LEVEL      1     /* the level Linux compresses zstd clusters at */

/* The name of algorithm @alg ("lzo", "lz4", "zstd", "lzo-rle"), NULL when unknown. */
ZF2FS_EXPORT const char *zf2fs_compress_name(uint8_t alg);

/* The number of algorithm @name; -EINVAL when unknown. */
ZF2FS_EXPORT int zf2fs_compress_by_name(const char *name);

/* Whether this build compresses and decompresses clusters of algorithm @alg.  lzo-rle
 * needs liblzo2 as lzo does: its clusters are written as plain LZO1X-1 streams, which
 * Linux's lzo-rle decompressor reads.  Reading files (zf2fs_file_read) decompresses lzo
 * and lzo-rle even without liblzo2. */
ZF2FS_EXPORT bool zf2fs_compress_supported(uint8_t alg);



/* Whether this build has liblzo2 and libzstd (--version's +lzo, +zstd). */
ZF2FS_EXPORT bool zf2fs_have_lzo_support(void);
ZF2FS_EXPORT bool zf2fs_have_zstd_support(void);

#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_COMPRESS_H */
