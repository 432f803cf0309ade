// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_lzo.c - lib/format/lzo_decompress.c: streams liblzo2 writes (LZO1X-1 and LZO1X-999, on
 * zeros, text, noise, long zero runs and mixes, of many sizes) decode to their input;
 * streams built by hand from the format description with the lzo-rle version header
 * and zero runs decode to the runs (and liblzo2 refuses them, which is why the decoder
 * exists); a version-0 header turns the zero run off; every truncation, bad distance,
 * short output buffer, trailing byte and thousands of garbled streams return an error
 * without reading or writing out of bounds (the sanitizer build checks that part).
 */
#include "config.h"
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#ifdef HAVE_LIBLZO2
#include <lzo/lzo1x.h>
#endif

#include "zf2fs/zf2fs.h"
#include "../../lib/format/lzo_p.h"

#define BIG (1u << 20)   /* the largest cluster: 256 blocks of 4 KiB */

/* xorshift: the same bytes every run */
static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

enum kind { ZEROS, TEXT, NOISE, ZERO_RUNS, MIXED, NKINDS };

static void fill(uint8_t *p, size_t n, enum kind k, uint32_t seed)
{
	uint32_t s = seed * 2654435761u + 1;
	size_t o = 0;

	switch (k) {
	case ZEROS:
		memset(p, 0, n);
		break;
	case TEXT:
		for (unsigned i = 0; o < n; i++) {
			char line[80];
			int len = snprintf(line, sizeof(line), "record %u: value %u, words and words\n",
					   i, rnd(&s) % 1000);

			memcpy(p + o, line, (size_t)len < n - o ? (size_t)len : n - o);
			o += (size_t)len;
		}
		break;
	case NOISE:
		for (size_t i = 0; i < n; i++)
			p[i] = (uint8_t)(rnd(&s) >> 24);
		break;
	case ZERO_RUNS:
		/* a few bytes, then zeros longer than one run can say (2051), and so on */
		memset(p, 0, n);
		for (o = 0; o < n; o += 5000 + rnd(&s) % 3000)
			for (size_t i = 0; i < 7 && o + i < n; i++)
				p[o + i] = (uint8_t)(rnd(&s) | 1);
		break;
	default:
		/* text, noise and zeros in blocks of 512 */
		for (o = 0; o < n; o += 512) {
			size_t m = n - o < 512 ? n - o : 512;

			fill(p + o, m, (enum kind)(rnd(&s) % 4), rnd(&s));
		}
		break;
	}
}

#ifdef HAVE_LIBLZO2
/* @n bytes at @in as liblzo2 compresses them (@best: LZO1X-999, which uses more of the
 * instruction forms); the stream's length. */
static size_t lzo_pack(const uint8_t *in, size_t n, uint8_t *out, int best)
{
	void *wrk = malloc(best ? LZO1X_999_MEM_COMPRESS : LZO1X_1_MEM_COMPRESS);
	lzo_uint len = 0;

	assert_non_null(wrk);
	assert_int_equal(lzo_init(), LZO_E_OK);
	if (best)
		assert_int_equal(lzo1x_999_compress(in, n, out, &len, wrk), LZO_E_OK);
	else
		assert_int_equal(lzo1x_1_compress(in, n, out, &len, wrk), LZO_E_OK);
	free(wrk);
	return len;
}
#endif

static void test_liblzo2_round_trip(void **state)
{
#ifdef HAVE_LIBLZO2
	static const size_t sizes[] = { 1, 3, 4, 17, 100, 4096, 16384, 65536, 200001, BIG };
	uint8_t *in = malloc(BIG), *z = malloc(BIG + BIG / 16 + 64 + 3), *back = malloc(BIG + 1);

	(void)state;
	assert_non_null(in);
	assert_non_null(z);
	assert_non_null(back);
	for (int k = 0; k < NKINDS; k++)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			for (int best = 0; best < 2; best++) {
				size_t n = sizes[i], zl, got = 0;

				/* LZO1X-999 on a megabyte of noise takes seconds: enough below */
				if (best && n > 65536)
					continue;
				fill(in, n, (enum kind)k, (uint32_t)(i + 1));
				zl = lzo_pack(in, n, z, best);
				memset(back, 0xa5, BIG + 1);
				assert_int_equal(zf2fs_lzo1x_decompress(z, zl, back, n, &got), 0);
				assert_int_equal(got, n);
				assert_memory_equal(back, in, n);
				/* one byte less of room: refused, nothing written past it */
				if (n > 1) {
					back[n - 1] = 0x5a;
					assert_int_equal(zf2fs_lzo1x_decompress(z, zl, back, n - 1, &got),
							 -ZF2FS_EFSCORRUPTED);
					assert_int_equal(back[n - 1], 0x5a);
				}
			}
	free(in);
	free(z);
	free(back);
#else
	(void)state;
	skip();
#endif
}

/* The end marker: a far copy of distance 0 with the 1 length bits. */
static size_t put_end(uint8_t *p)
{
	p[0] = 0x11;
	p[1] = 0;
	p[2] = 0;
	return 3;
}

/* A zero run of @run bytes (4..2051) in the lzo-rle form, followed by @lits literals
 * (0..3): 0001 1LLL, a word with every distance bit set and the literal count in its
 * low bits, then the run's upper bits. */
static size_t put_zero_run(uint8_t *p, size_t run, unsigned lits)
{
	size_t r = run - 4;

	p[0] = (uint8_t)(0x18 | (r & 7));
	p[1] = (uint8_t)(0xfc | lits);
	p[2] = 0xff;
	p[3] = (uint8_t)(r >> 3);
	return 4;
}

/* "AB", zero runs of 2051, 4 and 1000 with literals between, a copy, the end marker:
 * the stream and the bytes it stands for. */
static size_t rle_stream(uint8_t *s, uint8_t *want, size_t *ret_want)
{
	size_t n = 0, w = 0;

	s[n++] = 17;            /* the version header: lzo-rle's bitstream 1 */
	s[n++] = 1;
	s[n++] = 17 + 2;        /* two literals */
	s[n++] = 'A';
	s[n++] = 'B';
	want[w++] = 'A';
	want[w++] = 'B';
	n += put_zero_run(s + n, 2051, 1);
	memset(want + w, 0, 2051);
	w += 2051;
	s[n++] = 'C';
	want[w++] = 'C';
	n += put_zero_run(s + n, 4, 0);
	memset(want + w, 0, 4);
	w += 4;
	n += put_zero_run(s + n, 1000, 3);
	memset(want + w, 0, 1000);
	w += 1000;
	memcpy(s + n, "xyz", 3);
	memcpy(want + w, "xyz", 3);
	n += 3;
	w += 3;
	/* 0100 0DDD SS with H: copy 3 from distance 1 + D + (H << 3); "xyz" is 3 back */
	s[n++] = 0x40 | (2 << 2);
	s[n++] = 0;
	memcpy(want + w, "xyz", 3);
	w += 3;
	n += put_end(s + n);
	*ret_want = w;
	return n;
}

static void test_rle_by_hand(void **state)
{
	uint8_t s[64], want[4096], back[4096];
	size_t n, w, got = 0;

	(void)state;
	n = rle_stream(s, want, &w);
	assert_int_equal(zf2fs_lzo1x_decompress(s, n, back, sizeof(back), &got), 0);
	assert_int_equal(got, w);
	assert_memory_equal(back, want, w);
	/* the exact room is enough, one byte less is not */
	assert_int_equal(zf2fs_lzo1x_decompress(s, n, back, w, &got), 0);
	assert_int_equal(zf2fs_lzo1x_decompress(s, n, back, w - 1, &got), -ZF2FS_EFSCORRUPTED);
#ifdef HAVE_LIBLZO2
	{
		lzo_uint len = sizeof(back);

		/* liblzo2 has no zero runs: it cannot read what Linux's lzo-rle writes */
		assert_int_equal(lzo_init(), LZO_E_OK);
		assert_int_not_equal(lzo1x_decompress_safe(s, n, back, &len, NULL), LZO_E_OK);
	}
#endif
	/* version 0 in the header: the same word is a far copy from before the start */
	s[1] = 0;
	assert_int_equal(zf2fs_lzo1x_decompress(s, n, back, sizeof(back), &got),
			 -ZF2FS_EFSCORRUPTED);
	/* no header at all: plain LZO1X, the same */
	assert_int_equal(zf2fs_lzo1x_decompress(s + 2, n - 2, back, sizeof(back), &got),
			 -ZF2FS_EFSCORRUPTED);
}

/* Zeros only, as Linux's lzo-rle writes them: the first byte after the header is
 * always a literal run (a byte above 17 there is one, never an instruction), so four
 * literal zeros, then the run.  A stream too short for a header (under 5 bytes) is
 * plain, so the end marker alone is an empty output. */
static void test_rle_only_zeros(void **state)
{
	uint8_t s[16], back[2100];
	size_t n = 0, got = 1;

	(void)state;
	s[n++] = 17;
	s[n++] = 1;
	s[n++] = 17 + 4;
	memset(s + n, 0, 4);
	n += 4;
	n += put_zero_run(s + n, 2047, 0);
	n += put_end(s + n);
	memset(back, 0xff, sizeof(back));
	assert_int_equal(zf2fs_lzo1x_decompress(s, n, back, sizeof(back), &got), 0);
	assert_int_equal(got, 2051);
	for (size_t i = 0; i < 2051; i++)
		assert_int_equal(back[i], 0);
	assert_int_equal(back[2051], 0xff);
	assert_int_equal(zf2fs_lzo1x_decompress(s + n - 3, 3, back, sizeof(back), &got), 0);
	assert_int_equal(got, 0);
}

static void test_malformed(void **state)
{
	uint8_t s[64], want[4096], back[4096], g[64];
	size_t n, w, got;
	uint32_t seed = 12345;
	unsigned ok = 0;

	(void)state;
	n = rle_stream(s, want, &w);
	/* every truncation fails */
	for (size_t cut = 0; cut < n; cut++)
		assert_int_equal(zf2fs_lzo1x_decompress(s, cut, back, sizeof(back), &got),
				 -ZF2FS_EFSCORRUPTED);
	/* a byte after the end marker */
	memcpy(g, s, n);
	g[n] = 0;
	assert_int_equal(zf2fs_lzo1x_decompress(g, n + 1, back, sizeof(back), &got),
			 -ZF2FS_EFSCORRUPTED);
	/* an end marker with length bits other than 1 */
	memcpy(g, s, n);
	g[n - 3] = 0x12;
	assert_int_equal(zf2fs_lzo1x_decompress(g, n, back, sizeof(back), &got),
			 -ZF2FS_EFSCORRUPTED);
	/* a long length that never ends: zero bytes to the end of the input */
	memset(g, 0, sizeof(g));
	assert_int_equal(zf2fs_lzo1x_decompress(g, sizeof(g), back, sizeof(back), &got),
			 -ZF2FS_EFSCORRUPTED);
	/* a literal run longer than the input */
	g[0] = 255;
	assert_int_equal(zf2fs_lzo1x_decompress(g, 10, back, sizeof(back), &got),
			 -ZF2FS_EFSCORRUPTED);
	/* a copy from before the first byte: one literal, then distance 2 */
	memcpy(g, "\x12" "a" "\x44\x00" "\x11\x00\x00", 7);
	assert_int_equal(zf2fs_lzo1x_decompress(g, 7, back, sizeof(back), &got),
			 -ZF2FS_EFSCORRUPTED);
	/* the same with distance 1 is fine: "aaa" then "a" */
	g[2] = 0x40;
	g[3] = 0x00;
	assert_int_equal(zf2fs_lzo1x_decompress(g, 7, back, sizeof(back), &got), 0);
	assert_int_equal(got, 4);
	assert_memory_equal(back, "aaaa", 4);
	/* NULL buffers */
	assert_int_equal(zf2fs_lzo1x_decompress(NULL, 7, back, 4, &got), -EINVAL);
	/* garbled streams: one to four bytes changed; whatever they decode to stays in
	 * bounds (checked by the sanitizers) and an error is an error */
	for (int i = 0; i < 20000; i++) {
		int e;

		memcpy(g, s, n);
		for (uint32_t k = rnd(&seed) % 4 + 1; k; k--)
			g[rnd(&seed) % n] = (uint8_t)rnd(&seed);
		e = zf2fs_lzo1x_decompress(g, n, back, w, &got);
		assert_true(e == 0 || e == -ZF2FS_EFSCORRUPTED);
		if (!e) {
			assert_true(got <= w);
			ok++;
		}
	}
	/* some of them still decode (a changed literal), most do not */
	assert_true(ok > 0 && ok < 20000);
}

/* liblzo2's streams of mixed data garbled (bytes changed, cut anywhere) and decoded into
 * a buffer of exactly the original size: an error or bytes in bounds, never more; the
 * sanitizer build checks that nothing outside the buffers is touched. */
static void test_garbled_liblzo2(void **state)
{
#ifdef HAVE_LIBLZO2
	const size_t n = 32768;
	uint8_t *in = malloc(n), *z = malloc(2 * n), *g = malloc(2 * n), *back = malloc(n);
	uint32_t seed = 99;
	size_t zl, got;
	unsigned errs = 0;

	(void)state;
	assert_non_null(in);
	assert_non_null(z);
	assert_non_null(g);
	assert_non_null(back);
	fill(in, n, MIXED, 4);
	zl = lzo_pack(in, n, z, 0);
	for (int i = 0; i < 3000; i++) {
		size_t len = i % 3 ? zl : rnd(&seed) % zl;
		int e;

		memcpy(g, z, zl);
		for (uint32_t k = rnd(&seed) % 8 + 1; k; k--)
			g[rnd(&seed) % zl] = (uint8_t)rnd(&seed);
		e = zf2fs_lzo1x_decompress(g, len, back, n, &got);
		assert_true(e == 0 || e == -ZF2FS_EFSCORRUPTED);
		if (e)
			errs++;
		else
			assert_true(got <= n);
	}
	assert_true(errs > 0);
	free(in);
	free(z);
	free(g);
	free(back);
#else
	(void)state;
	skip();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_liblzo2_round_trip),
		cmocka_unit_test(test_rle_by_hand),
		cmocka_unit_test(test_rle_only_zeros),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_garbled_liblzo2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
