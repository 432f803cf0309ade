// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/populate.c - fill an F2FS image with many small inodes, fast, for
 * bench/fsck-scale.sh and tests/images/fsck_many.sh.
 *
 *   populate IMAGE FILES [PER_DIR [BATCH]]
 *   POPULATE_KIB=N populate IMAGE FILES [PER_DIR]
 *
 * Makes FILES inodes under the root: directories d00000, d00001, ... each holding up to
 * PER_DIR (default 1000) regular files f0000, f0001, ...; the directories count among the
 * FILES.  File i holds (i % 3) * 20 bytes of text, so a third are empty and the rest
 * inline.  The work goes through lib/write/txn.c (the crash-safe writer), BATCH inodes (default
 * 200000) per transaction: each ends in a checkpoint, and the volume is opened again for
 * the next.  A batch costs about 4 KiB of memory per inode (its node block).
 * With POPULATE_KIB set (bench/resize.sh), every file holds N KiB of data blocks (no
 * two alike, none all zeros) and a transaction ends after 64 MiB of them, a large file
 * going on in the next.
 *
 * Prints one line per batch to stderr (unless ZF2FS_NO_PROGRESS is set) and a summary
 * line "populate: N inodes in D directories" on stdout.  Exit 0; 1 with a one-line
 * error naming the cause.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/txn.h"
#include "zf2fs/txn_file.h"

#define PROG "populate"
#define BATCH_BLOCKS 16384ull   /* 64 MiB of data blocks per transaction */

static int parse(const char *s, unsigned long long min, unsigned long long *ret)
{
	char *end;

	errno = 0;
	*ret = strtoull(s, &end, 10);
	return errno || end == s || *end || *ret < min ? -EINVAL : 0;
}

int main(int argc, char **argv)
{
	static const char text[] = "zf2fs populate: a small file, sixty bytes in a data block.\n";
	unsigned long long files, per_dir = 1000, batch = 200000;
	unsigned long long made = 0, dirs = 0, in_dir = 0;
	uint32_t dir_ino = 0;
	bool progress = !getenv("ZF2FS_NO_PROGRESS");
	unsigned long long kib = getenv("POPULATE_KIB") ? strtoull(getenv("POPULATE_KIB"), NULL, 10) :
				 0, next_blk = 0, queued = 0;
	static uint64_t block[512];
	uint32_t file_ino = 0;
	const char *paths[1];

	if (argc < 3 || argc > 5 || parse(argv[2], 1, &files) ||
	    (argc > 3 && parse(argv[3], 1, &per_dir)) || (argc > 4 && parse(argv[4], 2, &batch))) {
		fprintf(stderr, "usage: " PROG " IMAGE FILES [PER_DIR [BATCH]]\n");
		return 1;
	}
	paths[0] = argv[1];
	in_dir = per_dir;   /* the first file opens a directory */
	while (made < files) {
		struct zf2fs_vol *vol = NULL;
		struct zf2fs_txn *txn = NULL;
		unsigned long long start = made;
		const char *doing = "opening";
		char name[32];
		int err;

		err = zf2fs_vol_open(paths, 1, ZF2FS_DEV_WRITE, NULL, &vol);
		if (!err)
			err = zf2fs_txn_begin(vol, &txn);
		if (!err && getenv("SOURCE_DATE_EPOCH"))
			zf2fs_txn_set_time(txn, strtoull(getenv("SOURCE_DATE_EPOCH"), NULL, 10));
		queued = 0;
		while (!err && made < files && made - start < batch) {
			if (kib && queued >= BATCH_BLOCKS)
				break;
			if (in_dir == per_dir) {
				snprintf(name, sizeof(name), "d%05llu", dirs);
				doing = "creating a directory in";
				err = zf2fs_txn_create(txn, ZF2FS_ROOT_INO, name, 0040755, NULL, 0,
						       &dir_ino);
				dirs++;
				in_dir = 0;
			} else if (kib) {
				if (!file_ino) {
					snprintf(name, sizeof(name), "f%04llu", in_dir);
					doing = "creating a file in";
					err = zf2fs_txn_create(txn, dir_ino, name, 0100644, NULL, 0,
							       &file_ino);
					if (!err)
						err = zf2fs_txn_set_size(txn, file_ino, kib * 1024);
					next_blk = 0;
				}
				doing = "writing a file in";
				for (; !err && next_blk < kib / 4 && queued < BATCH_BLOCKS;
				     next_blk++, queued++) {
					block[0] = made;
					block[1] = next_blk;
					err = zf2fs_txn_write_block(txn, file_ino, next_blk, block);
				}
				if (next_blk < kib / 4) {
					if (!err)
						continue;   /* the file goes on in the next batch */
				}
				file_ino = 0;
				in_dir++;
			} else {
				size_t len = made % 100 ? 0 : sizeof(text) - 1;

				snprintf(name, sizeof(name), "f%04llu", in_dir);
				doing = "creating a file in";
				err = zf2fs_txn_create(txn, dir_ino, name, 0100644,
						       len ? text : NULL, len, NULL);
				in_dir++;
			}
			made++;
		}
		if (!err) {
			doing = "committing to";
			err = zf2fs_txn_commit(txn);
		}
		zf2fs_txn_free(txn);
		zf2fs_vol_close(vol);
		if (err) {
			fprintf(stderr, PROG ": %s: while %s %s\n", strerror(-err), doing, argv[1]);
			return 1;
		}
		if (progress)
			fprintf(stderr, PROG ": %llu of %llu inodes\n", made, files);
	}
	printf(PROG ": %llu inodes in %llu directories\n", made, dirs);
	return 0;
}
