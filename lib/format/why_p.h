/* SPDX-License-Identifier: GPL-2.0-or-later */
/* why_p.h - one-line failure reasons, for the library's "why" out-parameters. */
#ifndef ZF2FS_WHY_P_H
#define ZF2FS_WHY_P_H

#include <stddef.h>

/* Format the reason into @why (when given) and return @ret unchanged. */
int zf2fs_set_why(char *why, size_t len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
