// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * f2fslabel.c - f2fslabel: print or set the volume label of an F2FS volume.
 *
 *   f2fslabel DEVICE          prints the label
 *   f2fslabel DEVICE LABEL    sets it
 *
 * The interface of f2fs-tools' f2fslabel, with its output: the "Info:" lines it prints on
 * opening a volume, then "Info: volume label = LABEL" (or "... is changed to LABEL").
 * --quiet prints the bare label instead, for scripts of our own.  The label is checked
 * (UTF-8, at most 512 UTF-16 code units) and the device refused when mounted before
 * anything is written; libzf2fs rewrites the superblock so that one valid copy exists at
 * every moment.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "helper.h"
#include "ftinfo.h"

#define PROG "f2fslabel"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [options] device [label]\n"
"Print the volume label of an F2FS volume, or set it to LABEL.\n"
"\n"
"      --quiet       print only the label (or nothing, when setting it) instead\n"
"                    of f2fs-tools' \"Info:\" lines\n"
"  -V, --version     print the version and exit\n"
"  -h, --help        this help\n"
"\n"
"LABEL is UTF-8, at most 512 UTF-16 code units (512 ASCII characters).\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const struct zf2fs_log log = { .level = 0, .fn = zs_cli_log, .arg = (void *)PROG };
	const char *path, *label;
	struct zf2fs_vol *vol;
	char why[256], name[ZF2FS_MAX_VOLUME_NAME * 3 + 1];
	struct timespec start;
	bool quiet = false;
	int c, err;

	zs_ftinfo_start(&start);

	while ((c = getopt_long(argc, argv, "hV", opts, NULL)) != -1) {
		switch (c) {
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			return zs_print_version(stdout, PROG) ? 1 : 0;
		default:
			zs_usage_error(PROG, "unknown option");
		}
	}
	if (optind >= argc)
		zs_usage_error(PROG, "no device given");
	if (argc - optind > 2)
		zs_usage_error(PROG, "too many arguments (a label with spaces needs quotes)");
	path = argv[optind];
	label = optind + 1 < argc ? argv[optind + 1] : NULL;

	if (!label) {
		err = zf2fs_vol_open(&path, 1, ZF2FS_VOL_BLOCK16K, &log, &vol);
		if (err) {
			fprintf(stderr, PROG ": %s: while opening %s\n", strerror(err == -ZF2FS_EFSCORRUPTED ?
				EUCLEAN : -err), path);
			return 1;
		}
		zf2fs_label_to_utf8(zf2fs_vol_super(vol)->volume_name, name, sizeof(name));
		if (quiet) {
			printf("%s\n", name);
		} else {
			zs_ftinfo_open_lines(stdout, vol, 0);
			printf("Info: volume label = %s\n", name);
			zs_ftinfo_done(stdout, &start);
		}
		zf2fs_vol_close(vol);
		return fflush(stdout) ? 1 : 0;
	}

	/* everything that can be refused is refused before the device is opened for writing */
	{
		uint8_t units[ZF2FS_MAX_VOLUME_NAME * 2];

		err = zf2fs_label_from_utf8(label, units, why, sizeof(why));
		if (err) {
			fprintf(stderr, PROG ": label %s\n", why);
			return 1;
		}
	}
	err = zf2fs_path_is_mounted(path);
	if (err) {
		if (err > 0)
			fprintf(stderr, PROG ": %s is mounted; not changing its label\n", path);
		else
			fprintf(stderr, PROG ": %s: while checking whether %s is mounted\n",
				strerror(-err), path);
		return 1;
	}
	err = zf2fs_vol_open(&path, 1, ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL | ZF2FS_VOL_DEVICE_ALIAS |
			     ZF2FS_VOL_BLOCK16K,
			     &log, &vol);
	if (err == -ZF2FS_EUNWRITABLE)	/* the library named the bits it does not write */
		return 1;
	if (err) {
		fprintf(stderr, PROG ": %s: while opening %s\n", strerror(err == -ZF2FS_EFSCORRUPTED ?
			EUCLEAN : -err), path);
		return 1;
	}
	/* tests: the N-th write fails (and every one after), as in fsck.f2fs */
	zs_dev_fail_writes_from_env(zf2fs_vol_dev(vol, 0));
	if (!quiet)
		zs_ftinfo_open_lines(stdout, vol, 0);
	err = zf2fs_vol_set_label(vol, label, why, sizeof(why));
	zf2fs_vol_close(vol);
	if (err) {
		fflush(stdout);
		fprintf(stderr, PROG ": %s\n", why);
		return 1;
	}
	if (!quiet) {
		printf("Info: volume label is changed to %s\n", label);
		zs_ftinfo_done(stdout, &start);
	}
	return fflush(stdout) ? 1 : 0;
}
