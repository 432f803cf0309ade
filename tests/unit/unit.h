/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit.h - what every cmocka unit test includes. */
#ifndef ZF2FS_UNIT_H
#define ZF2FS_UNIT_H

#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "helper.h"

/* Read a 4 KiB fixture block from tests/unit/data. */
static inline void load_block(const char *name, void *buf)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", TEST_DATA_DIR, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, ZF2FS_BLKSIZE, f), ZF2FS_BLKSIZE);
	fclose(f);
}

#endif
