// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * label.c - the volume label: UTF-8 on the command line, UTF-16LE in the superblock's
 * volume_name (512 code units, zero-padded, no terminator needed when full), as the
 * kernel's FS_IOC_GETFSLABEL/SETFSLABEL convert it.  mkfs, f2fslabel and dump share it.
 */
#include "config.h"
#include <errno.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "format/why_p.h"

static void put_unit(void *name, size_t i, uint32_t v)
{
	uint16_t le = zf2fs_cpu_to_le16((uint16_t)v);

	memcpy((uint8_t *)name + 2 * i, &le, 2);
}

static uint32_t get_unit(const void *name, size_t i)
{
	uint16_t le;

	memcpy(&le, (const uint8_t *)name + 2 * i, 2);
	return zf2fs_le16_to_cpu(le);
}

ZF2FS_EXPORT int zf2fs_label_from_utf8(const char *in, void *out, char *why, size_t whylen)
{
	const uint8_t *s = (const uint8_t *)in;
	size_t n = 0;

	memset(out, 0, ZF2FS_MAX_VOLUME_NAME * 2);
	while (*s) {
		static const uint32_t min_cp[4] = { 0, 0x80, 0x800, 0x10000 };
		size_t at = (size_t)(s - (const uint8_t *)in);
		uint32_t cp;
		int extra;

		if (*s < 0x80) {
			cp = *s;
			extra = 0;
		} else if ((*s & 0xE0) == 0xC0) {
			cp = *s & 0x1F;
			extra = 1;
		} else if ((*s & 0xF0) == 0xE0) {
			cp = *s & 0x0F;
			extra = 2;
		} else if ((*s & 0xF8) == 0xF0) {
			cp = *s & 0x07;
			extra = 3;
		} else {
			return zf2fs_set_why(why, whylen, -EINVAL, "invalid UTF-8 at byte %zu", at);
		}
		s++;
		for (int i = 0; i < extra; i++, s++) {
			if ((*s & 0xC0) != 0x80)
				return zf2fs_set_why(why, whylen, -EINVAL, "invalid UTF-8 at byte %zu",
						     at);
			cp = (cp << 6) | (*s & 0x3F);
		}
		/* overlong forms, surrogates and code points past U+10FFFF are not UTF-8 */
		if (cp < min_cp[extra] || (cp >= 0xD800 && cp < 0xE000) || cp > 0x10FFFF)
			return zf2fs_set_why(why, whylen, -EINVAL, "invalid UTF-8 at byte %zu", at);
		if (n + (cp >= 0x10000 ? 2 : 1) > ZF2FS_MAX_VOLUME_NAME)
			return zf2fs_set_why(why, whylen, -ENAMETOOLONG, "longer than %d UTF-16 "
					     "code units", ZF2FS_MAX_VOLUME_NAME);
		if (cp >= 0x10000) {
			cp -= 0x10000;
			put_unit(out, n++, 0xD800 + (cp >> 10));
			put_unit(out, n++, 0xDC00 + (cp & 0x3FF));
		} else {
			put_unit(out, n++, cp);
		}
	}
	return 0;
}

ZF2FS_EXPORT size_t zf2fs_label_to_utf8(const void *in, char *out, size_t cap)
{
	size_t n = 0;

	for (unsigned i = 0; i < ZF2FS_MAX_VOLUME_NAME; i++) {
		uint32_t cp = get_unit(in, i);

		if (!cp)
			break;
		if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < ZF2FS_MAX_VOLUME_NAME) {
			uint32_t lo = get_unit(in, i + 1);

			if (lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				i++;
			} else {
				cp = 0xfffd;
			}
		} else if (cp >= 0xd800 && cp < 0xe000) {
			cp = 0xfffd;   /* an unpaired surrogate */
		}
		if (n + 4 >= cap)
			break;
		if (cp < 0x80) {
			out[n++] = (char)cp;
		} else if (cp < 0x800) {
			out[n++] = (char)(0xc0 | cp >> 6);
			out[n++] = (char)(0x80 | (cp & 0x3f));
		} else if (cp < 0x10000) {
			out[n++] = (char)(0xe0 | cp >> 12);
			out[n++] = (char)(0x80 | ((cp >> 6) & 0x3f));
			out[n++] = (char)(0x80 | (cp & 0x3f));
		} else {
			out[n++] = (char)(0xf0 | cp >> 18);
			out[n++] = (char)(0x80 | ((cp >> 12) & 0x3f));
			out[n++] = (char)(0x80 | ((cp >> 6) & 0x3f));
			out[n++] = (char)(0x80 | (cp & 0x3f));
		}
	}
	if (cap)
		out[n < cap ? n : cap - 1] = 0;
	return n;
}
