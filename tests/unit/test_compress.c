// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_compress.c - lib/format/compress.c: each algorithm the build has round-trips a cluster
 * of every size, the on-disk header is Linux's (clen, zero checksum and reserved words,
 * zero padding), the saved-blocks minimum is honoured, incompressible clusters and
 * broken streams are refused, zstd frames keep a window of one cluster (and a frame
 * with a larger window is refused as the kernel refuses it), lzo-rle clusters are written
 * as lzo ones and a cluster in the kernel's lzo-rle form (version header, zero runs)
 * reads back under both LZO algorithms, unknown algorithms are refused, and the output
 * is the same on every call.
 */
#include "config.h"
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#ifdef HAVE_LIBZSTD
#define ZSTD_STATIC_LINKING_ONLY   /* ZSTD_getFrameHeader: the window a frame asks for */
#include <zstd.h>
#endif

#include "zf2fs/zf2fs.h"
#include "zf2fs/compress.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/compress.h"

#define MAXC (ZF2FS_BLKSIZE << 8)

static const uint8_t algs[] = { ZF2FS_COMPRESS_LZO, ZF2FS_COMPRESS_LZ4, ZF2FS_COMPRESS_ZSTD,
				 ZF2FS_COMPRESS_LZORLE };

/* Text-like bytes that compress well; @seed varies them. */
static void text(uint8_t *p, size_t n, unsigned seed)
{
	size_t o = 0;

	for (unsigned i = 0; o < n; i++) {
		char line[64];
		int len = snprintf(line, sizeof(line), "line %u of cluster %u: some words\n", i, seed);

		memcpy(p + o, line, (size_t)len < n - o ? (size_t)len : n - o);
		o += (size_t)len;
	}
}

/* xorshift: bytes that do not compress, the same every run */
static void noise(uint8_t *p, size_t n, uint32_t s)
{
	s = s * 2654435761u + 1;
	for (size_t i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 17;
		s ^= s << 5;
		p[i] = (uint8_t)(s >> 24);
	}
}

static void test_names(void **state)
{
	(void)state;
	assert_int_equal(zf2fs_compress_by_name("lzo"), ZF2FS_COMPRESS_LZO);
	assert_int_equal(zf2fs_compress_by_name("lz4"), ZF2FS_COMPRESS_LZ4);
	assert_int_equal(zf2fs_compress_by_name("zstd"), ZF2FS_COMPRESS_ZSTD);
	assert_int_equal(zf2fs_compress_by_name("lzo-rle"), ZF2FS_COMPRESS_LZORLE);
	assert_int_equal(zf2fs_compress_by_name("gzip"), -EINVAL);
	assert_string_equal(zf2fs_compress_name(ZF2FS_COMPRESS_ZSTD), "zstd");
	assert_null(zf2fs_compress_name(9));
	assert_int_equal(zf2fs_compress_supported(ZF2FS_COMPRESS_LZORLE), zf2fs_have_lzo_support());
	assert_string_equal(zf2fs_compress_name(ZF2FS_COMPRESS_LZORLE), "lzo-rle");
	assert_false(zf2fs_compress_supported(9));
	assert_int_equal(zf2fs_compress_supported(ZF2FS_COMPRESS_LZO), zf2fs_have_lzo_support());
	assert_int_equal(zf2fs_compress_supported(ZF2FS_COMPRESS_ZSTD), zf2fs_have_zstd_support());
}

static void test_round_trip(void **state)
{
	uint8_t *in = malloc(MAXC), *out = malloc(MAXC), *out2 = malloc(MAXC), *back = malloc(MAXC);
	unsigned tested = 0;

	(void)state;
	assert_non_null(in);
	assert_non_null(out);
	assert_non_null(out2);
	assert_non_null(back);
	for (size_t a = 0; a < sizeof(algs); a++) {
		if (!zf2fs_compress_supported(algs[a]))
			continue;
		for (uint8_t log = 2; log <= 8; log++) {
			size_t cbytes = (size_t)ZF2FS_BLKSIZE << log;
			uint32_t nb = 0, nb2 = 0, clen;

			text(in, cbytes, log);
			memset(out, 0xa5, MAXC);
			assert_int_equal(zf2fs_compress_cluster(algs[a], log, 1, in, out, &nb), 0);
			assert_true(nb >= 1 && nb <= (1u << log) - 1);
			/* the header: clen, then zero words; zeros after the stream */
			clen = zf2fs_get_le32p(out);
			assert_true(clen > 0 && clen <= nb * ZF2FS_BLKSIZE - ZF2FS_COMPRESS_HEADER);
			assert_true(clen > (nb - 1) * ZF2FS_BLKSIZE - ZF2FS_COMPRESS_HEADER || nb == 1);
			for (size_t i = 4; i < ZF2FS_COMPRESS_HEADER; i++)
				assert_int_equal(out[i], 0);
			for (size_t i = ZF2FS_COMPRESS_HEADER + clen; i < nb * ZF2FS_BLKSIZE; i++)
				assert_int_equal(out[i], 0);
			memset(back, 0, MAXC);
			assert_int_equal(zf2fs_decompress_cluster(algs[a], log, out, nb, back), 0);
			assert_memory_equal(back, in, cbytes);
			/* the same bytes on a second call */
			memset(out2, 0x5a, MAXC);
			assert_int_equal(zf2fs_compress_cluster(algs[a], log, 1, in, out2, &nb2), 0);
			assert_int_equal(nb2, nb);
			assert_memory_equal(out2, out, nb * ZF2FS_BLKSIZE);
			/* a clen past the blocks given, and a broken stream, do not decompress */
			zf2fs_put_le32p(out2, nb * ZF2FS_BLKSIZE - ZF2FS_COMPRESS_HEADER + 1);
			assert_int_equal(zf2fs_decompress_cluster(algs[a], log, out2, nb, back),
					 -ZF2FS_EFSCORRUPTED);
			memcpy(out2, out, nb * ZF2FS_BLKSIZE);
			zf2fs_put_le32p(out2, clen / 2);
			assert_int_equal(zf2fs_decompress_cluster(algs[a], log, out2, nb, back),
					 -ZF2FS_EFSCORRUPTED);
			tested++;
		}
	}
	if (!tested)
		skip();
	free(in);
	free(out);
	free(out2);
	free(back);
}

/* A cluster that saves exactly two blocks of four (6000 random bytes, then zeros):
 * compressed with a minimum of 2, not with 3; random data never. */
static void test_min_saved(void **state)
{
	uint8_t *in = calloc(1, MAXC), *out = malloc(MAXC);
	uint32_t nb = 0;

	(void)state;
	assert_non_null(in);
	assert_non_null(out);
	for (size_t a = 0; a < sizeof(algs); a++) {
		if (!zf2fs_compress_supported(algs[a]))
			continue;
		memset(in, 0, MAXC);
		noise(in, 6000, 7);
		assert_int_equal(zf2fs_compress_cluster(algs[a], 2, 2, in, out, &nb), 0);
		assert_int_equal(nb, 2);
		assert_int_equal(zf2fs_compress_cluster(algs[a], 2, 3, in, out, &nb), -ENOSPC);
		noise(in, 4 * ZF2FS_BLKSIZE, 9);
		assert_int_equal(zf2fs_compress_cluster(algs[a], 2, 1, in, out, &nb), -ENOSPC);
		/* bad arguments */
		assert_int_equal(zf2fs_compress_cluster(algs[a], 2, 4, in, out, &nb), -EINVAL);
		assert_int_equal(zf2fs_compress_cluster(algs[a], 2, 0, in, out, &nb), -EINVAL);
		assert_int_equal(zf2fs_compress_cluster(algs[a], 9, 1, in, out, &nb), -EINVAL);
		assert_int_equal(zf2fs_decompress_cluster(algs[a], 2, out, 4, in), -EINVAL);
	}
	assert_int_equal(zf2fs_compress_cluster(9, 2, 1, in, out, &nb), -EOPNOTSUPP);
	assert_int_equal(zf2fs_decompress_cluster(9, 2, out, 1, in), -EOPNOTSUPP);
	free(in);
	free(out);
}

/* Linux decompresses zstd with a window of one cluster: ours says so in the frame, and a
 * frame asking for more is refused. */
static void test_zstd_window(void **state)
{
#ifdef HAVE_LIBZSTD
	const size_t cbytes = 4 * ZF2FS_BLKSIZE;
	uint8_t *in = malloc(cbytes), *out = calloc(1, MAXC), *back = malloc(cbytes);
	ZSTD_frameHeader fh;
	ZSTD_CCtx *cc;
	uint32_t nb = 0;
	size_t len;

	(void)state;
	assert_non_null(in);
	text(in, cbytes, 3);
	assert_int_equal(zf2fs_compress_cluster(ZF2FS_COMPRESS_ZSTD, 2, 1, in, out, &nb), 0);
	assert_int_equal(ZSTD_getFrameHeader(&fh, out + ZF2FS_COMPRESS_HEADER,
					     zf2fs_get_le32p(out)), 0);
	assert_true(fh.windowSize <= cbytes);
	/* a frame of the same bytes with a 1 MiB window: streamed, so its size is unknown
	 * when the frame starts and the window stays as asked */
	cc = ZSTD_createCCtx();
	assert_non_null(cc);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, 20);
	{
		ZSTD_inBuffer ib = { in, cbytes, 0 };
		ZSTD_outBuffer ob = { out + ZF2FS_COMPRESS_HEADER, 2 * ZF2FS_BLKSIZE, 0 };

		assert_false(ZSTD_isError(ZSTD_compressStream2(cc, &ob, &ib, ZSTD_e_continue)));
		assert_int_equal(ZSTD_compressStream2(cc, &ob, &ib, ZSTD_e_end), 0);
		len = ob.pos;
	}
	ZSTD_freeCCtx(cc);
	assert_int_equal(ZSTD_getFrameHeader(&fh, out + ZF2FS_COMPRESS_HEADER, len), 0);
	assert_true(fh.windowSize > cbytes);
	memset(out, 0, ZF2FS_COMPRESS_HEADER);
	zf2fs_put_le32p(out, (uint32_t)len);
	assert_int_equal(zf2fs_decompress_cluster(ZF2FS_COMPRESS_ZSTD, 2, out, 3, back),
			 -ZF2FS_EFSCORRUPTED);
	free(in);
	free(out);
	free(back);
#else
	(void)state;
	skip();
#endif
}

/* lzo-rle clusters are lzo's bytes: Linux reads a stream without the version header as
 * plain LZO1X under either algorithm. */
static void test_lzorle_is_lzo(void **state)
{
	uint8_t *in = malloc(MAXC), *a = malloc(MAXC), *b = malloc(MAXC);
	uint32_t na = 0, nb = 0;

	(void)state;
	if (!zf2fs_have_lzo_support())
		skip();
	assert_non_null(in);
	assert_non_null(a);
	assert_non_null(b);
	text(in, 16 * ZF2FS_BLKSIZE, 5);
	assert_int_equal(zf2fs_compress_cluster(ZF2FS_COMPRESS_LZO, 4, 1, in, a, &na), 0);
	assert_int_equal(zf2fs_compress_cluster(ZF2FS_COMPRESS_LZORLE, 4, 1, in, b, &nb), 0);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na * ZF2FS_BLKSIZE);
	assert_true(a[ZF2FS_COMPRESS_HEADER] != 17);
	free(in);
	free(a);
	free(b);
}

/* A cluster of four blocks as Linux's lzo-rle compressor lays it out: the version header,
 * a literal run (the first instruction always is one), zero runs of at most 2051, the
 * end marker.  It reads back under lzo-rle and lzo (one decompressor in Linux), without
 * liblzo2; one zero run too few, and it is short. */
static void test_kernel_lzorle_cluster(void **state)
{
	const size_t cbytes = 4 * ZF2FS_BLKSIZE;
	uint8_t *c = calloc(1, 3 * ZF2FS_BLKSIZE), *back = malloc(cbytes), *want = calloc(1, cbytes);
	uint8_t *s;
	size_t n = 0, left, short_len = 0;

	(void)state;
	assert_non_null(c);
	assert_non_null(back);
	assert_non_null(want);
	s = c + ZF2FS_COMPRESS_HEADER;
	s[n++] = 17;
	s[n++] = 1;
	s[n++] = 17 + 4;
	memcpy(s + n, "f2fs", 4);
	memcpy(want, "f2fs", 4);
	n += 4;
	for (left = cbytes - 4; left; ) {
		/* 16380 = 7 * 2051 + 2023: no run shorter than 4 at the end */
		size_t run = left > 2051 ? 2051 : left, r = run - 4;

		s[n++] = (uint8_t)(0x18 | (r & 7));
		s[n++] = 0xfc;
		s[n++] = 0xff;
		s[n++] = (uint8_t)(r >> 3);
		left -= run;
		if (left && !short_len)
			short_len = n;
	}
	s[n++] = 0x11;
	s[n++] = 0;
	s[n++] = 0;
	zf2fs_put_le32p(c, (uint32_t)n);
	memset(back, 0xee, cbytes);
	assert_int_equal(zf2fs_decompress_cluster(ZF2FS_COMPRESS_LZORLE, 2, c, 1, back), 0);
	assert_memory_equal(back, want, cbytes);
	memset(back, 0xee, cbytes);
	assert_int_equal(zf2fs_decompress_cluster(ZF2FS_COMPRESS_LZO, 2, c, 1, back), 0);
	assert_memory_equal(back, want, cbytes);
	/* the first run's bytes dropped: 2051 bytes short of the cluster */
	memmove(s + short_len - 4, s + short_len, n - short_len);
	zf2fs_put_le32p(c, (uint32_t)(n - 4));
	assert_int_equal(zf2fs_decompress_cluster(ZF2FS_COMPRESS_LZORLE, 2, c, 1, back),
			 -ZF2FS_EFSCORRUPTED);
	free(c);
	free(back);
	free(want);
}

/* 16 KiB blocks: a cluster of 2^log such blocks, padded to whole 16 KiB blocks; its
 * stream does not decompress as a cluster of 4 KiB blocks, and block sizes other than
 * 4 and 16 KiB are refused */
static void test_round_trip_16k(void **state)
{
	const size_t bs = 16384;
	uint8_t *in = malloc(bs << 4), *out = malloc(bs << 4), *back = malloc(bs << 4);
	unsigned tested = 0;

	(void)state;
	assert_non_null(in);
	assert_non_null(out);
	assert_non_null(back);
	for (size_t a = 0; a < sizeof(algs); a++) {
		uint32_t nb = 0, clen;

		if (!zf2fs_compress_supported(algs[a]))
			continue;
		text(in, bs << 2, 3);
		memset(out, 0xa5, bs << 4);
		assert_int_equal(zf2fs_compress_cluster2(14, algs[a], 2, 1, in, out, &nb), 0);
		assert_true(nb >= 1 && nb <= 3);
		clen = zf2fs_get_le32p(out);
		assert_true(clen > (nb - 1) * bs - ZF2FS_COMPRESS_HEADER || nb == 1);
		for (size_t i = ZF2FS_COMPRESS_HEADER + clen; i < nb * bs; i++)
			assert_int_equal(out[i], 0);
		memset(back, 0, bs << 4);
		assert_int_equal(zf2fs_decompress_cluster2(14, algs[a], 2, out, nb, back), 0);
		assert_memory_equal(back, in, bs << 2);
		/* read as a cluster of four 4 KiB blocks, the stream is too long */
		assert_int_equal(zf2fs_decompress_cluster2(12, algs[a], 2, out, nb, back),
				 -ZF2FS_EFSCORRUPTED);
		assert_int_equal(zf2fs_decompress_cluster2(13, algs[a], 2, out, nb, back), -EINVAL);
		assert_int_equal(zf2fs_compress_cluster2(15, algs[a], 2, 1, in, out, &nb), -EINVAL);
		tested++;
	}
	if (!tested)
		skip();
	free(in);
	free(out);
	free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_min_saved),
		cmocka_unit_test(test_zstd_window),
		cmocka_unit_test(test_lzorle_is_lzo),
		cmocka_unit_test(test_kernel_lzorle_cluster),
		cmocka_unit_test(test_round_trip_16k),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
