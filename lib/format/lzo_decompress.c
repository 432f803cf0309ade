// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lzo_decompress.c - an LZO1X decoder that reads what Linux's f2fs reads for lzo and
 * lzo-rle clusters (lzo_p.h).
 *
 * Written from the published description of the bitstream (Linux's
 * Documentation/staging/lzo.rst).  liblzo2 cannot be used here: the kernel's lzo-rle
 * compressor marks its streams with a version header (byte 17, then the version) and
 * then encodes runs of zeros with a form of the 16..31 instruction that plain LZO1X
 * reads as a far copy.  Linux decodes both algorithms with the same function, so this
 * one serves both, and a cluster reads here exactly when it reads on Linux.
 *
 * The input is hostile: each step checks the bytes it takes from @src and the room it
 * needs in @dst before touching either, every loop consumes input or stops, and a
 * copy may reach back only into what has been written.
 */
#include "config.h"
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "format/lzo_p.h"

#define VERSION_MARK   17     /* first byte of a stream that names its version */
#define VERSION_MINLEN 5      /* shorter streams never carry the version header */
#define ZRUN_MIN       4      /* the shortest zero run the extension encodes */
#define FAR_BIAS       16384  /* the 16..31 instruction's distances start here */
#define FAR_ZRUN_MASK  0xfffcu  /* its distance bits all set (with H = 1): a zero run */
#define MID_BIAS       2049   /* a 3-byte copy right after a literal run of 4 or more */

struct lzo_cursor {
	const uint8_t *ip, *iend;
	uint8_t *out, *op, *oend;
};

#define BAD (-ZF2FS_EFSCORRUPTED)

static bool have_in(const struct lzo_cursor *c, size_t n)
{
	return (size_t)(c->iend - c->ip) >= n;
}

/* A length whose opcode bits were all zero: each following zero byte adds 255, the
 * first nonzero byte ends it and adds itself; @base is the value the bits would have
 * held plus the instruction's constant.  The zeros are bounded by the input, so the
 * sum cannot wrap for any buffer that fits in memory. */
static int long_len(struct lzo_cursor *c, size_t base, size_t *ret)
{
	size_t zeros = 0;

	while (c->ip < c->iend && *c->ip == 0) {
		zeros++;
		c->ip++;
	}
	if (c->ip >= c->iend)
		return BAD;
	*ret = base + zeros * 255 + *c->ip++;
	return 0;
}

static int copy_literals(struct lzo_cursor *c, size_t n)
{
	if (!have_in(c, n) || (size_t)(c->oend - c->op) < n)
		return BAD;
	memcpy(c->op, c->ip, n);
	c->ip += n;
	c->op += n;
	return 0;
}

/* A copy from @dist bytes back.  A distance shorter than the length repeats a pattern
 * of @dist bytes: the output from @dist back on has that period, so a chunk may come from
 * any whole number of periods back; taking twice as many periods each time copies the
 * run in a few non-overlapping memcpy() calls instead of byte by byte. */
static int copy_match(struct lzo_cursor *c, size_t dist, size_t len)
{
	size_t done = 0, back = dist;

	if (!dist || dist > (size_t)(c->op - c->out) || (size_t)(c->oend - c->op) < len)
		return BAD;
	while (done < len) {
		size_t k = len - done < back ? len - done : back;

		memcpy(c->op + done, c->op + done - back, k);
		done += k;
		back *= 2;   /* still at most done + dist: never before the first period */
	}
	c->op += len;
	return 0;
}

static uint16_t le16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

int zf2fs_lzo1x_decompress(const void *src, size_t slen, void *dst, size_t cap,
			   size_t *ret_len)
{
	struct lzo_cursor c;
	bool zero_runs = false;
	unsigned state = 0;   /* literals the last instruction copied: 0..3, or 4 for more */
	size_t len, dist;
	int err;

	if (!src || !dst || !ret_len)
		return -EINVAL;
	c.ip = src;
	c.iend = c.ip + slen;
	c.out = c.op = dst;
	c.oend = c.op + cap;
	/* the shortest stream is the 3-byte end marker */
	if (slen < 3)
		return BAD;
	if (slen >= VERSION_MINLEN && c.ip[0] == VERSION_MARK) {
		zero_runs = c.ip[1] != 0;
		c.ip += 2;
	}
	/* the first byte: above 17 it is a literal run (no dictionary yet to copy from) */
	if (*c.ip > VERSION_MARK) {
		len = (size_t)*c.ip++ - VERSION_MARK;
		if ((err = copy_literals(&c, len)))
			return err;
		state = len < 4 ? (unsigned)len : 4;
	}
	for (;;) {
		unsigned op, next;

		if (!have_in(&c, 1))
			return BAD;
		op = *c.ip++;
		if (op < 16 && state == 0) {
			/* a literal run of 4 or more */
			if (op)
				len = op + 3;
			else if ((err = long_len(&c, 15 + 3, &len)))
				return err;
			if ((err = copy_literals(&c, len)))
				return err;
			state = 4;
			continue;
		}
		if (op < 16) {
			/* a short near copy; how far depends on the literals just copied */
			if (!have_in(&c, 1))
				return BAD;
			dist = ((size_t)*c.ip++ << 2) + ((op >> 2) & 3);
			dist += state == 4 ? MID_BIAS : 1;
			len = state == 4 ? 3 : 2;
			next = op & 3;
		} else if (op >= 64) {
			if (!have_in(&c, 1))
				return BAD;
			len = (op >> 5) + 1;
			dist = ((size_t)*c.ip++ << 3) + ((op >> 2) & 7) + 1;
			next = op & 3;
		} else if (op >= 32) {
			if (op & 31)
				len = (op & 31) + 2;
			else if ((err = long_len(&c, 31 + 2, &len)))
				return err;
			if (!have_in(&c, 2))
				return BAD;
			dist = (size_t)(le16_at(c.ip) >> 2) + 1;
			next = le16_at(c.ip) & 3;
			c.ip += 2;
		} else {
			uint16_t w;

			if (!have_in(&c, 2))
				return BAD;
			w = le16_at(c.ip);
			if (zero_runs && (op & 0xf8) == 0x18 && (w & FAR_ZRUN_MASK) == FAR_ZRUN_MASK) {
				/* version 1's zero run: 3 length bits here, 8 more after the word */
				if (!have_in(&c, 3))
					return BAD;
				len = ((size_t)c.ip[2] << 3 | (op & 7)) + ZRUN_MIN;
				if ((size_t)(c.oend - c.op) < len)
					return BAD;
				memset(c.op, 0, len);
				c.op += len;
				c.ip += 3;
				next = w & 3;
				goto literals;
			}
			if (op & 7)
				len = (op & 7) + 2;
			else if ((err = long_len(&c, 7 + 2, &len)))
				return err;
			if (!have_in(&c, 2))
				return BAD;
			w = le16_at(c.ip);
			c.ip += 2;
			dist = ((size_t)(op & 8) << 11) + (w >> 2);
			if (!dist) {
				/* the end marker: 17 0 0 exactly, and the last input byte */
				if (op != 0x11 || c.ip != c.iend)
					return BAD;
				*ret_len = (size_t)(c.op - c.out);
				return 0;
			}
			dist += FAR_BIAS;
			next = w & 3;
		}
		if ((err = copy_match(&c, dist, len)))
			return err;
literals:
		if ((err = copy_literals(&c, next)))
			return err;
		state = next;
	}
}
