// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compress.c - one cluster to its on-disk compressed form and back (zf2fs/compress.h).
 *
 * The on-disk form is Linux's: a 24-byte header (clen, a checksum word left 0 since we
 * never set the checksum flag, four reserved words), the stream, zeros to the end of
 * the last block.  Each algorithm writes what the kernel's own backend would let it
 * read back: LZO1X-1 streams, LZ4 blocks, and zstd frames at the kernel's default level
 * whose window is at most the cluster (the kernel refuses larger ones).  lzo-rle
 * clusters are plain LZO1X-1 streams too: Linux decodes lzo and lzo-rle with one
 * decompressor, which takes a stream without the version header as plain LZO1X.
 * Every library is optional: without it the algorithm is refused with -EOPNOTSUPP.
 * Reading lzo and lzo-rle needs no library: lib/format/lzo_decompress.c decodes both as
 * Linux does, the zero runs of the kernel's lzo-rle streams included, which liblzo2
 * cannot.  Nothing random goes in, so the same cluster always gives the same bytes.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_LIBLZ4
#include <lz4.h>
#endif
#ifdef HAVE_LIBLZO2
#include <lzo/lzo1x.h>
#endif
#ifdef HAVE_LIBZSTD
#include <zstd.h>
#endif

#include "zf2fs/zf2fs.h"
#include "zf2fs/compress.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/compress.h"
#include "format/lzo_p.h"

static const char *const names[] = { "lzo", "lz4", "zstd", "lzo-rle" };

ZF2FS_EXPORT const char *zf2fs_compress_name(uint8_t alg)
{
	return alg < sizeof(names) / sizeof(names[0]) ? names[alg] : NULL;
}

ZF2FS_EXPORT int zf2fs_compress_by_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return (int)i;
	return -EINVAL;
}

ZF2FS_EXPORT bool zf2fs_have_lz4_support(void)
{
#ifdef HAVE_LIBLZ4
	return true;
#else
	return false;
#endif
}

ZF2FS_EXPORT bool zf2fs_have_lzo_support(void)
{
#ifdef HAVE_LIBLZO2
	return true;
#else
	return false;
#endif
}

ZF2FS_EXPORT bool zf2fs_have_zstd_support(void)
{
#ifdef HAVE_LIBZSTD
	return true;
#else
	return false;
#endif
}

ZF2FS_EXPORT bool zf2fs_compress_supported(uint8_t alg)
{
	switch (alg) {
	case ZF2FS_COMPRESS_LZO:
	case ZF2FS_COMPRESS_LZORLE:
		return zf2fs_have_lzo_support();
	case ZF2FS_COMPRESS_LZ4:
		return zf2fs_have_lz4_support();
	case ZF2FS_COMPRESS_ZSTD:
		return zf2fs_have_zstd_support();
	default:
		return false;
	}
}

/* The stream of @n bytes at @in into @out (room for @cap bytes): its length, 0 when it
 * does not fit, negative errno. */
static long compress_stream(uint8_t alg, uint32_t log_blocksize, uint8_t log_cluster,
			    const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
	switch (alg) {
#ifdef HAVE_LIBLZ4
	case ZF2FS_COMPRESS_LZ4: {
		int len = LZ4_compress_default((const char *)in, (char *)out, (int)n, (int)cap);

		return len > 0 ? len : 0;
	}
#endif
#ifdef HAVE_LIBLZO2
	case ZF2FS_COMPRESS_LZO:
	case ZF2FS_COMPRESS_LZORLE: {
		/* LZO writes past a tight buffer: compress into its worst case, then check */
		size_t worst = n + n / 16 + 64 + 3;
		void *wrk = calloc(1, LZO1X_1_MEM_COMPRESS);
		uint8_t *tmp = malloc(worst);
		lzo_uint len = 0;
		long ret = 0;

		if (!wrk || !tmp || lzo_init() != LZO_E_OK) {
			free(wrk);
			free(tmp);
			return -ENOMEM;
		}
		if (lzo1x_1_compress(in, n, tmp, &len, wrk) == LZO_E_OK && len <= cap) {
			memcpy(out, tmp, len);
			ret = (long)len;
		}
		free(wrk);
		free(tmp);
		return ret;
	}
#endif
#ifdef HAVE_LIBZSTD
	case ZF2FS_COMPRESS_ZSTD: {
		ZSTD_CCtx *cc = ZSTD_createCCtx();
		size_t len;

		if (!cc)
			return -ENOMEM;
		/* the window: the cluster itself, which Linux's decompressor allows */
		if (ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel,
							ZF2FS_ZSTD_LEVEL)) ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog,
							(int)(log_blocksize + log_cluster))) ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 0))) {
			ZSTD_freeCCtx(cc);
			return -EINVAL;
		}
		len = ZSTD_compress2(cc, out, cap, in, n);
		ZSTD_freeCCtx(cc);
		return ZSTD_isError(len) ? 0 : (long)len;
	}
#endif
	default:
		(void)log_blocksize;
		(void)log_cluster;
		(void)in;
		(void)n;
		(void)out;
		(void)cap;
		return -EOPNOTSUPP;
	}
}

ZF2FS_EXPORT int zf2fs_compress_cluster2(uint32_t log_blocksize, uint8_t alg,
					 uint8_t log_cluster, uint32_t min_saved, const void *in,
					 void *out, uint32_t *ret_nblocks)
{
	const uint32_t cs = 1u << (log_cluster & 15);
	const size_t bs = (size_t)1 << (log_blocksize & 31);
	const size_t cbytes = (size_t)cs * bs;
	uint8_t *o = out;
	size_t cap;
	long len;

	if (log_cluster < 2 || log_cluster > 8 || !min_saved || min_saved >= cs ||
	    (log_blocksize != ZF2FS_BLKSIZE_BITS && log_blocksize != 14))
		return -EINVAL;
	if (!zf2fs_compress_supported(alg))
		return -EOPNOTSUPP;
	/* at most cs - min_saved blocks, header included */
	cap = (size_t)(cs - min_saved) * bs - ZF2FS_COMPRESS_HEADER;
	len = compress_stream(alg, log_blocksize, log_cluster, in, cbytes,
			      o + ZF2FS_COMPRESS_HEADER, cap);
	if (len < 0)
		return (int)len;
	if (!len || (size_t)len > cap)
		return -ENOSPC;
	memset(o, 0, ZF2FS_COMPRESS_HEADER);
	zf2fs_put_le32p(o, (uint32_t)len);
	*ret_nblocks = (uint32_t)((ZF2FS_COMPRESS_HEADER + (size_t)len + bs - 1) / bs);
	memset(o + ZF2FS_COMPRESS_HEADER + len, 0,
	       (size_t)*ret_nblocks * bs - ZF2FS_COMPRESS_HEADER - (size_t)len);
	return 0;
}

ZF2FS_EXPORT int zf2fs_compress_cluster(uint8_t alg, uint8_t log_cluster, uint32_t min_saved,
					const void *in, void *out, uint32_t *ret_nblocks)
{
	return zf2fs_compress_cluster2(ZF2FS_BLKSIZE_BITS, alg, log_cluster, min_saved, in, out,
				       ret_nblocks);
}

ZF2FS_EXPORT int zf2fs_decompress_cluster2(uint32_t log_blocksize, uint8_t alg,
					   uint8_t log_cluster, const void *in,
					   uint32_t nblocks, void *out)
{
	const size_t bs = (size_t)1 << (log_blocksize & 31);
	const size_t cbytes = bs << (log_cluster & 15);
	const uint8_t *src = (const uint8_t *)in + ZF2FS_COMPRESS_HEADER;
	uint32_t clen;

	if (log_cluster < 2 || log_cluster > 8 || !nblocks || nblocks >= (1u << log_cluster) ||
	    (log_blocksize != ZF2FS_BLKSIZE_BITS && log_blocksize != 14))
		return -EINVAL;
	if (alg != ZF2FS_COMPRESS_LZO && alg != ZF2FS_COMPRESS_LZORLE &&
	    !zf2fs_compress_supported(alg))
		return -EOPNOTSUPP;
	clen = zf2fs_get_le32p(in);
	if (clen > (size_t)nblocks * bs - ZF2FS_COMPRESS_HEADER)
		return -ZF2FS_EFSCORRUPTED;
	switch (alg) {
#ifdef HAVE_LIBLZ4
	case ZF2FS_COMPRESS_LZ4:
		return LZ4_decompress_safe((const char *)src, out, (int)clen, (int)cbytes) ==
		       (int)cbytes ? 0 : -ZF2FS_EFSCORRUPTED;
#endif
	case ZF2FS_COMPRESS_LZO:
	case ZF2FS_COMPRESS_LZORLE: {
		size_t len = 0;
		int err = zf2fs_lzo1x_decompress(src, clen, out, cbytes, &len);

		return err ? err : len == cbytes ? 0 : -ZF2FS_EFSCORRUPTED;
	}
#ifdef HAVE_LIBZSTD
	case ZF2FS_COMPRESS_ZSTD: {
		ZSTD_DCtx *dc = ZSTD_createDCtx();
		ZSTD_inBuffer ib = { src, clen, 0 };
		ZSTD_outBuffer ob = { out, cbytes, 0 };
		size_t r;

		if (!dc)
			return -ENOMEM;
		/* Linux sizes its decompressor for a window of one cluster */
		r = ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax,
					   (int)(log_blocksize + log_cluster));
		if (!ZSTD_isError(r))
			r = ZSTD_decompressStream(dc, &ob, &ib);
		ZSTD_freeDCtx(dc);
		return !ZSTD_isError(r) && ob.pos == cbytes ? 0 : -ZF2FS_EFSCORRUPTED;
	}
#endif
	default:
		(void)src;
		(void)out;
		return -EOPNOTSUPP;
	}
}

ZF2FS_EXPORT int zf2fs_decompress_cluster(uint8_t alg, uint8_t log_cluster, const void *in,
					  uint32_t nblocks, void *out)
{
	return zf2fs_decompress_cluster2(ZF2FS_BLKSIZE_BITS, alg, log_cluster, in, nblocks, out);
}
