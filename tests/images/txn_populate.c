// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * txn_populate.c - create files and directories on an F2FS image in one transaction
 * (lib/write/txn.c), for tests/images/txn_image.sh.
 *
 *   txn_populate IMAGE ITEM...
 *
 * An ITEM "a/b/" makes directory a/b; "a/b=SRC" makes regular file a/b holding the
 * bytes of the host file SRC; "a/b@c/d" makes a/b a hard link to the file c/d on the
 * image; "-a/b" removes the name a/b.  Parents must exist on the image or come earlier.
 * With ZF2FS_TXN_FRESH_LOGS=1 in the environment the commit's logs start in fresh
 * sections (zf2fs_txn_fresh_logs): aging in rounds then leaves each round in sections of
 * its own.  With ZF2FS_FAULT_WRITES=N the N-th write fails, and every one after it (the
 * crash tests); with ZF2FS_WRITE_COUNT=1 the writes made are counted on standard error
 * ("writes N").  Volumes of 4 and 16 KiB blocks.  Exit 0 when the commit succeeded; 1
 * with a one-line error otherwise.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/file.h"
#include "zf2fs/txn.h"
#include "zf2fs-internal/commit.h"
#include "helper.h"

#define PROG "txn_populate"
#define MAX_ITEMS 512

struct made {
	char path[512];
	uint32_t ino;
};

static int read_file(const char *path, uint8_t **ret, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return -errno;
	do {
		if (len == cap) {
			uint8_t *p = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!p) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = p;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	*ret = buf;
	*ret_len = len;
	return 0;
}

/* The inode of directory @dir (a path), made earlier in this run or on the image. */
static int parent_ino(struct zf2fs_vol *vol, const struct made *m, int n, const char *dir,
		      uint32_t *ret)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(m[i].path, dir)) {
			*ret = m[i].ino;
			return 0;
		}
	return zf2fs_path_lookup(vol, dir, 0, ret, NULL, 0);
}

int main(int argc, char **argv)
{
	const char *paths[1];
	struct made *made = calloc(MAX_ITEMS, sizeof(*made));
	struct zf2fs_vol *vol = NULL;
	struct zf2fs_txn *txn = NULL;
	int n = 0, err = 0;

	if (argc < 3 || argc - 2 > MAX_ITEMS || !made) {
		fprintf(stderr, "usage: " PROG " IMAGE ITEM... (at most %d)\n", MAX_ITEMS);
		return 1;
	}
	paths[0] = argv[1];
	err = zf2fs_vol_open(paths, 1, ZF2FS_DEV_WRITE | ZF2FS_VOL_BLOCK16K, NULL, &vol);
	if (!err)
		err = zf2fs_txn_begin(vol, &txn);
	if (err) {
		fprintf(stderr, PROG ": %s: while opening %s\n", strerror(-err), argv[1]);
		goto out;
	}
	if (getenv("ZF2FS_FAULT_WRITES"))
		zs_dev_fail_writes_after(zf2fs_vol_dev(vol, 0),
					 strtoul(getenv("ZF2FS_FAULT_WRITES"), NULL, 10));
	if (getenv("SOURCE_DATE_EPOCH"))
		zf2fs_txn_set_time(txn, strtoull(getenv("SOURCE_DATE_EPOCH"), NULL, 10));
	if (getenv("ZF2FS_TXN_FRESH_LOGS") && strcmp(getenv("ZF2FS_TXN_FRESH_LOGS"), "1") == 0)
		zf2fs_txn_fresh_logs(txn);
	for (int i = 2; i < argc && !err; i++) {
		char item[512], *eq, *slash, *name;
		bool is_dir;
		uint8_t *data = NULL;
		size_t len = 0;
		uint32_t dir = ZF2FS_ROOT_INO, ino;

		if (argv[i][0] == '-' || strchr(argv[i], '@')) {
			const char *spec = argv[i][0] == '-' ? argv[i] + 1 : argv[i];
			char *at, *sl;
			uint32_t target = 0;

			snprintf(item, sizeof(item), "%s", spec);
			at = strchr(item, '@');
			if (at) {
				*at = 0;
				err = zf2fs_path_lookup(vol, at + 1, 0, &target, NULL, 0);
			}
			sl = strrchr(item, '/');
			if (!err && sl) {
				*sl = 0;
				err = parent_ino(vol, made, n, item, &dir);
				*sl = '/';
			}
			if (!err)
				err = at ? zf2fs_txn_link(txn, dir, sl ? sl + 1 : item, target) :
				      zf2fs_txn_unlink(txn, dir, sl ? sl + 1 : item);
			if (err) {
				fprintf(stderr, PROG ": %s: while %s %s\n", strerror(-err),
					at ? "linking" : "removing", argv[i]);
				break;
			}
			continue;
		}
		snprintf(item, sizeof(item), "%s", argv[i]);
		eq = strchr(item, '=');
		if (eq)
			*eq = 0;
		is_dir = !eq && item[0] && item[strlen(item) - 1] == '/';
		if (is_dir)
			item[strlen(item) - 1] = 0;
		if (!eq && !is_dir) {
			fprintf(stderr, PROG ": %s: neither DIR/ nor FILE=SRC\n", argv[i]);
			err = -EINVAL;
			break;
		}
		slash = strrchr(item, '/');
		name = slash ? slash + 1 : item;
		if (slash) {
			*slash = 0;
			err = parent_ino(vol, made, n, item, &dir);
			*slash = '/';
			if (err) {
				fprintf(stderr, PROG ": %s: while looking up the parent of %s\n",
					strerror(-err), item);
				break;
			}
		}
		if (eq) {
			err = read_file(eq + 1, &data, &len);
			if (err) {
				fprintf(stderr, PROG ": %s: while reading %s\n", strerror(-err), eq + 1);
				break;
			}
		}
		err = zf2fs_txn_create(txn, dir, name, is_dir ? 0040755 : 0100644, data, len, &ino);
		free(data);
		if (err) {
			fprintf(stderr, PROG ": %s: while creating %s\n", strerror(-err), item);
			break;
		}
		snprintf(made[n].path, sizeof(made[n].path), "%s", item);
		made[n++].ino = ino;
	}
	if (!err) {
		err = zf2fs_txn_commit(txn);
		if (err)
			fprintf(stderr, PROG ": %s: while committing to %s\n", strerror(-err), argv[1]);
	}
	if (vol && getenv("ZF2FS_WRITE_COUNT"))
		fprintf(stderr, "writes %lu\n", zs_dev_write_count(zf2fs_vol_dev(vol, 0)));
out:
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);
	free(made);
	return err ? 1 : 0;
}
