// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * log.c - message delivery for the library.
 *
 * The library never prints on its own: it formats a message and hands it to the caller's
 * struct zf2fs_log.  Without a callback, errors and warnings go to stderr with the fixed
 * prefixes "ERROR: " and "WARNING: ", and information to stdout.
 */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>


#include "zf2fs/zf2fs.h"

ZF2FS_EXPORT void zf2fs_logf(const struct zf2fs_log *log, enum zf2fs_msg_kind kind, int level,
			     const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	int threshold = log ? log->level : 1;

	if (kind == ZF2FS_MSG_INFO && level > threshold)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (log && log->fn) {
		log->fn(log->arg, kind, msg);
		return;
	}
	if (kind == ZF2FS_MSG_ERROR)
		fprintf(stderr, "ERROR: %s\n", msg);
	else if (kind == ZF2FS_MSG_WARNING)
		fprintf(stderr, "WARNING: %s\n", msg);
	else
		printf("%s\n", msg);
}

ZF2FS_EXPORT const char *zf2fs_version(void)
{
	return PACKAGE_VERSION;
}
