/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zf2fs-internal/compress.h - one cluster through a compression codec: the library's file
 * reader and writer, and the codec tests.
 *
 * For zf2fs-tools' own programs (fsck, the tools, the tests): not installed, and no ABI
 * promise.  The functions are exported from libzf2fs.so in the version node ZF2FS_PRIVATE
 * of lib/libzf2fs.sym; the installed API is include/zf2fs/.
 */
#ifndef ZF2FS_INTERNAL_COMPRESS_H
#define ZF2FS_INTERNAL_COMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/compress.h"

/*
 * Compress one cluster: @in holds 2^@log_cluster blocks (2..8).  On success @out (as big
 * as @in) holds the on-disk form, header first, zero-padded to *@ret_nblocks whole
 * blocks, with *@ret_nblocks <= 2^@log_cluster - @min_saved (@min_saved >= 1: the blocks
 * the cluster must save, the marker slot not counted as saved).  zstd frames use a
 * window no larger than the cluster, as Linux decompresses them.  The output is the same
 * for the same input.
 * Returns 0; -ENOSPC when the cluster does not shrink enough (store it plain);
 * -EOPNOTSUPP for an algorithm this build lacks; -EINVAL; -ENOMEM.
 */
ZF2FS_EXPORT int zf2fs_compress_cluster(uint8_t alg, uint8_t log_cluster, uint32_t min_saved,
					const void *in, void *out, uint32_t *ret_nblocks);

/*
 * Decompress one cluster from its @nblocks on-disk blocks at @in into @out (2^@log_cluster
 * blocks), as Linux does: clen must fit the blocks, the stream must give exactly the
 * cluster's bytes, and a zstd frame's window must not exceed the cluster.  lzo and lzo-rle
 * are decoded by the library's own LZO1X decoder, which reads Linux's lzo-rle zero runs
 * and needs no liblzo2.
 * Returns 0; -ZF2FS_EFSCORRUPTED for a bad header or stream; -EOPNOTSUPP for an
 * algorithm this build lacks (lz4, zstd); -EINVAL; -ENOMEM.
 */
ZF2FS_EXPORT int zf2fs_decompress_cluster(uint8_t alg, uint8_t log_cluster, const void *in,
					  uint32_t nblocks, void *out);

/* The two above for blocks of 2^@log_blocksize bytes (12 or 14; -EINVAL otherwise): a
 * cluster of 2^@log_cluster such blocks; the two above are these with 12. */
ZF2FS_EXPORT int zf2fs_compress_cluster2(uint32_t log_blocksize, uint8_t alg,
					 uint8_t log_cluster, uint32_t min_saved, const void *in,
					 void *out, uint32_t *ret_nblocks);
ZF2FS_EXPORT int zf2fs_decompress_cluster2(uint32_t log_blocksize, uint8_t alg,
					   uint8_t log_cluster, const void *in,
					   uint32_t nblocks, void *out);

#endif /* ZF2FS_INTERNAL_COMPRESS_H */
