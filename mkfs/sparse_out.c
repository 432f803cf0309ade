// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sparse_out.c - mkfs.f2fs -S SIZE: the volume as an Android sparse image.
 *
 * f2fs-tools built for Android writes its volume through libsparse, so the file named on
 * the command line receives a sparse image (the format fastboot flashes and simg2img
 * unpacks) of a SIZE-byte volume.  Here the volume is formatted into a raw scratch file
 * beside the output (holes cost nothing) and packed by the library's sparse writer; the
 * output is only written once the volume is complete.
 */
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/simg.h"
#include "zf2fs-internal/device.h"
#include "mkfs.h"

/* What is already at the output, which -f (or -g android) must allow us to replace. */
static int check_output(const struct mkfs_cli *c, const char *out)
{
	struct zf2fs_log quiet = { .level = 0 };
	struct zf2fs_dev *dev;
	struct stat st;
	char type[64];
	int err;

	if (stat(out, &st)) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, PROG ": %s: while checking %s\n", strerror(errno), out);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, PROG ": %s is not a regular file: -S writes a sparse image file\n",
			out);
		return -1;
	}
	if (c->force || st.st_size == 0)
		return 0;
	if (zf2fs_simg_is(out)) {
		fprintf(stderr, PROG ": %s is a sparse image: use -f to overwrite it\n", out);
		return -1;
	}
	err = zf2fs_dev_open(out, 0, &quiet, &dev);
	if (err)
		return 0;
	err = zf2fs_dev_probe_existing(dev, type, sizeof(type));
	zf2fs_dev_close(dev);
	if (err > 0) {
		fprintf(stderr, PROG ": %s contains a %s filesystem: use -f to overwrite it\n", out,
			type);
		return -1;
	}
	return 0;
}

int mkfs_sparse_output(struct mkfs_cli *c, int (*format)(struct mkfs_cli *c))
{
	const char *out = c->paths[0];
	char scratch[PATH_MAX], why[256];
	int fd, ret = 1, err;

	if (check_output(c, out))
		return 1;
	if (snprintf(scratch, sizeof(scratch), "%s.XXXXXX", out) >= (int)sizeof(scratch)) {
		fprintf(stderr, PROG ": %s: path too long\n", out);
		return 1;
	}
	fd = mkstemp(scratch);
	if (fd < 0) {
		fprintf(stderr, PROG ": %s: while creating a scratch file beside %s\n",
			strerror(errno), out);
		return 1;
	}
	if (ftruncate(fd, (off_t)c->sparse_bytes)) {
		fprintf(stderr, PROG ": %s: while sizing %s\n", strerror(errno), scratch);
		close(fd);
		goto out;
	}
	close(fd);

	c->paths[0] = scratch;
	c->force = true;   /* the scratch file is ours and empty */
	ret = format(c);
	c->paths[0] = out;
	if (ret)
		goto out;
	/* chunks of 4 KiB whatever the volume's block: a sparse image's block size is its
	 * own (what simg2img and fastboot unpack is the same), and SIZE is a multiple of it */
	err = zf2fs_simg_pack(scratch, out, ZF2FS_BLKSIZE, why, sizeof(why));
	if (err) {
		fprintf(stderr, PROG ": %s\n", why);
		ret = 1;
	}
out:
	unlink(scratch);
	return ret;
}
