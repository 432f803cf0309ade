/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkfs.h - what mkfs.f2fs's command line asks for, shared by the option parser
 * (options.c), the Android sparse output (sparse_out.c) and the formatter (mkfs.c).
 */
#ifndef MKFS_MKFS_H
#define MKFS_MKFS_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

#define PROG "mkfs.f2fs"

struct mkfs_cli {
	const char *paths[ZF2FS_MAX_DEVICES];
	const char *aliases[ZF2FS_MAX_DEVICES];  /* -c DEV@ALIAS: the alias file's name */
	bool aliased;               /* some device has an alias */
	unsigned ndevs;
	uint64_t sectors;           /* [sectors]: size limit in units of wanted_sector */
	bool have_sectors;
	uint32_t wanted_sector;     /* -w (0: the device's logical sector size) */
	bool force, quiet, json;
	bool create_file;           /* --create-file: make or extend the image to [sectors] */
	uint64_t sparse_bytes;      /* -S SIZE: write an Android sparse image of SIZE bytes */
	bool sparse;
	bool android;               /* -g android */
	bool fixed_time;            /* -T or SOURCE_DATE_EPOCH given */
	bool reproducible;          /* SOURCE_DATE_EPOCH given */
	const char *root_dir;       /* --root-dir: copied in after formatting */
	int debug;
	struct zf2fs_mkfs_opts mk;
	char version[ZF2FS_VERSION_LEN];
};

/* Parse the command line into @c (f2fs-tools' option set and meanings, then ours); a
 * usage error exits 16 with one line on stderr. */
void mkfs_parse_args(struct mkfs_cli *c, int argc, char **argv);

/* -S: format a raw scratch file beside c->paths[0] with the volume, pack it into the
 * Android sparse image c->paths[0] and remove the scratch file.  @format formats the
 * raw file whose path it is given (as the block-device/file path would be).  Returns
 * the exit status. */
int mkfs_sparse_output(struct mkfs_cli *c, int (*format)(struct mkfs_cli *c));

#endif /* MKFS_MKFS_H */
