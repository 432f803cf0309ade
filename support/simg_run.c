// SPDX-License-Identifier: GPL-2.0-or-later
/* simg_run.c - work on an Android sparse image through a raw copy (simg_run.h). */
#include "config.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/simg.h"
#include "simg_run.h"

int zs_simg_run(const char *prog, const char *img, int (*fn)(const char *raw, void *arg),
		void *arg)
{
	size_t len = strlen(img) + 40;
	char *raw = malloc(len), *packed = malloc(len), why[512] = "";
	uint32_t blk_sz = 0;
	int rc = 1;

	if (!raw || !packed) {
		fprintf(stderr, "%s: out of memory\n", prog);
		goto out;
	}
	snprintf(raw, len, "%s.zf2fs-%ld.raw", img, (long)getpid());
	snprintf(packed, len, "%s.zf2fs-%ld.new", img, (long)getpid());
	if (!access(raw, F_OK) || !access(packed, F_OK)) {
		fprintf(stderr, "%s: %s or %s exists already: not touching %s\n", prog, raw,
			packed, img);
		goto out;
	}
	if (zf2fs_simg_unpack(img, raw, &blk_sz, why, sizeof(why))) {
		fprintf(stderr, "%s: %s\n", prog, why);
		goto out;
	}
	rc = fn(raw, arg);
	if (rc == 0) {
		if (zf2fs_simg_pack(raw, packed, blk_sz, why, sizeof(why))) {
			fprintf(stderr, "%s: %s\n", prog, why);
			rc = 1;
		} else if (rename(packed, img)) {
			fprintf(stderr, "%s: %s: while replacing %s\n", prog, strerror(errno), img);
			rc = 1;
		}
	}
	if (rc)
		unlink(packed);
	unlink(raw);
out:
	free(raw);
	free(packed);
	return rc;
}
