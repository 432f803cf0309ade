// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * version.c - f2fs_io -V: the version line every tool prints (zs_print_version).
 * The kernel bench's static build of f2fs_io (F2FS_IO_STATIC) does not link libzf2fs
 * and prints the tree's version alone.
 */
#include "config.h"
#include <stdio.h>

#include "f2fs_io.h"
#ifndef F2FS_IO_STATIC
#include "zf2fs/zf2fs.h"
#include "helper.h"
#endif

int io_print_version(void)
{
#ifdef F2FS_IO_STATIC
	printf("f2fs_io (zf2fs-tools %s, static kernel-bench build)\n", PACKAGE_VERSION);
	return fflush(stdout) || ferror(stdout) ? -1 : 0;
#else
	return zs_print_version(stdout, "f2fs_io");
#endif
}
