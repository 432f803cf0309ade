// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hash.c - the directory-entry name hash.
 *
 * F2FS places a name in a hash bucket by a TEA-based hash of up to 16 name bytes per
 * round, padded with a word built from the length.  "." and ".." always hash to 0.
 * Casefolded directories hash the casefolded name; callers fold first.
 */
#include "config.h"
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

#define TEA_DELTA 0x9E3779B9u

static void tea_mix(uint32_t state[4], const uint32_t in[4])
{
	uint32_t sum = 0, x = state[0], y = state[1];

	for (int round = 0; round < 16; round++) {
		sum += TEA_DELTA;
		x += ((y << 4) + in[0]) ^ (y + sum) ^ ((y >> 5) + in[1]);
		y += ((x << 4) + in[2]) ^ (x + sum) ^ ((x >> 5) + in[3]);
	}
	state[0] += x;
	state[1] += y;
}

/* Pack up to 16 bytes of the name into four words, big-endian within each word, with the
 * length-derived pad filling partial and missing words. */
static void pack_words(const uint8_t *s, size_t len, uint32_t out[4])
{
	uint32_t pad = (uint32_t)len | ((uint32_t)len << 8);
	size_t take = len < 16 ? len : 16;
	size_t w = 0;
	uint32_t acc = pad;

	pad |= pad << 16;
	acc = pad;
	for (size_t i = 0; i < take; i++) {
		acc = (acc << 8) + s[i];
		if (i % 4 == 3) {
			out[w++] = acc;
			acc = pad;
		}
	}
	if (w < 4 && take % 4)
		out[w++] = acc;
	while (w < 4)
		out[w++] = pad;
}

ZF2FS_EXPORT uint32_t zf2fs_dentry_hash(const void *name, size_t len)
{
	const uint8_t *p = name;
	uint32_t state[4] = { 0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u };
	uint32_t in[4];

	if ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
		return 0;
	for (;;) {
		pack_words(p, len, in);
		tea_mix(state, in);
		if (len <= 16)
			break;
		p += 16;
		len -= 16;
	}
	return state[0];
}
