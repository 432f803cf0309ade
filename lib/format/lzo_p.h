/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lzo_p.h - lib/format/lzo_decompress.c for lib/format/compress.c: LZO1X streams, plain and with
 * Linux's run-length extension (lzo-rle), back to their bytes.
 */
#ifndef ZF2FS_LZO_P_H
#define ZF2FS_LZO_P_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decode the LZO1X stream of @slen bytes at @src into @dst (room for @cap bytes) as
 * Linux's safe decompressor reads it: a stream opening with byte 17 and at least five
 * bytes long names its bitstream version in its second byte, and a nonzero version
 * turns on the zero-run instruction; any other stream is plain LZO1X.  Every read and
 * write is bounded by @slen and @cap.  0 with the bytes written in *@ret_len; -EINVAL
 * for a NULL buffer; -ZF2FS_EFSCORRUPTED for a stream that is cut short, reaches before
 * the start of the output, does not fit in @cap, or has bytes after its end marker.
 */
int zf2fs_lzo1x_decompress(const void *src, size_t slen, void *dst, size_t cap,
			   size_t *ret_len);

#endif
