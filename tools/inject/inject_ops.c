// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inject_ops.c - what inject.f2fs does to a member's bytes: set it (--val, --str) or fuzz
 * it with one of xfs_db's verbs.  Integers are little-endian of 1 to 8 bytes; bits are
 * numbered as xfs_db shows them, so "firstbit" is the most significant bit and "lastbit"
 * the least significant.  Strings take the verbs over their whole length.
 */
#include "config.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "inject.h"
#include "zf2fs/endian.h"

static const char *const verbs[] = {
	[V_SET] = "set", [V_ZEROES] = "zeroes", [V_ONES] = "ones", [V_FIRSTBIT] = "firstbit",
	[V_MIDDLEBIT] = "middlebit", [V_LASTBIT] = "lastbit", [V_ADD] = "add", [V_SUB] = "sub",
	[V_RANDOM] = "random",
};

int inject_verb_parse(const char *s, enum inject_verb *ret)
{
	for (unsigned i = V_ZEROES; i <= V_RANDOM; i++)
		if (!strcmp(s, verbs[i])) {
			*ret = (enum inject_verb)i;
			return 0;
		}
	return -1;
}

const char *inject_verb_name(enum inject_verb v)
{
	return verbs[v];
}

static uint64_t next_random(struct inject_value *v)
{
	/* xorshift64: reproducible from --seed, never 0 */
	uint64_t x = v->rng ? v->rng : 0x9E3779B97F4A7C15ull;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	v->rng = x;
	return x;
}

uint64_t inject_get_int(const uint8_t *p, uint32_t len)
{
	return zf2fs_get_le_bytes(p, len);
}

static void apply_int(uint8_t *p, uint32_t len, struct inject_value *v, char *desc,
		      size_t desclen)
{
	uint64_t mask = len >= 8 ? UINT64_MAX : (1ull << (8 * len)) - 1;
	uint64_t old = inject_get_int(p, len), x = old;
	uint64_t step = v->have_val ? v->val : 1;

	switch (v->verb) {
	case V_SET: x = v->val; break;
	case V_ZEROES: x = 0; break;
	case V_ONES: x = mask; break;
	case V_FIRSTBIT: x ^= 1ull << (8 * len - 1); break;
	case V_MIDDLEBIT: x ^= 1ull << (4 * len); break;
	case V_LASTBIT: x ^= 1; break;
	case V_ADD: x += step; break;
	case V_SUB: x -= step; break;
	case V_RANDOM: x = next_random(v); break;
	}
	x &= mask;
	zf2fs_put_le_bytes(p, len, x);
	snprintf(desc, desclen, "%" PRIu64 " (0x%" PRIx64 ") -> %" PRIu64 " (0x%" PRIx64 ")",
		 old, old, x, x);
}

static void show_str(const uint8_t *p, uint32_t len, char *out, size_t outlen)
{
	size_t o = 0;

	uint32_t end = len;

	while (end && !p[end - 1])      /* trailing NULs are padding */
		end--;
	for (uint32_t i = 0; i < end && o + 5 < outlen; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			out[o++] = (char)p[i];
		else
			o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", p[i]);
	}
	out[o < outlen ? o : outlen - 1] = 0;
}

void inject_apply(uint8_t *p, uint32_t len, bool str, struct inject_value *v, char *desc,
		  size_t desclen)
{
	char before[96], after[96];

	if (!str && len <= 8) {
		apply_int(p, len, v, desc, desclen);
		return;
	}
	show_str(p, len, before, sizeof(before));
	switch (v->verb) {
	case V_SET: {
		/* like strcpy: the string and its NUL, the bytes after it kept */
		size_t n = strlen(v->str);

		memcpy(p, v->str, n < len ? n : len);
		if (n < len)
			p[n] = 0;
		break;
	}
	case V_ZEROES: memset(p, 0, len); break;
	case V_ONES: memset(p, 0xff, len); break;
	case V_FIRSTBIT: p[0] ^= 0x80; break;
	case V_MIDDLEBIT: p[len / 2] ^= 0x80; break;
	case V_LASTBIT: p[len - 1] ^= 1; break;
	case V_ADD: p[0] = (uint8_t)(p[0] + (v->have_val ? v->val : 1)); break;
	case V_SUB: p[0] = (uint8_t)(p[0] - (v->have_val ? v->val : 1)); break;
	case V_RANDOM:
		for (uint32_t i = 0; i < len; i++)
			p[i] = (uint8_t)next_random(v);
		break;
	}
	show_str(p, len, after, sizeof(after));
	snprintf(desc, desclen, "\"%s\" -> \"%s\"", before, after);
}
