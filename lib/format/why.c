// SPDX-License-Identifier: GPL-2.0-or-later
/* why.c - one-line failure reasons (see why_p.h). */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>

#include "format/why_p.h"

int zf2fs_set_why(char *why, size_t len, int ret, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return ret;
}
