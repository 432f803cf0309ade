// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * defrag_dir.c - defrag.f2fs --file DIR: the regular files below a directory, listed
 * before anything moves (the moves change no name, so the list stays true while each file
 * is made contiguous in a checkpoint of its own).  Directory entries come in hash order;
 * sorting each directory's names gives an order that does not depend on the hashes, so
 * that a rerun visits the files the same way.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/file.h"
#include "defrag.h"

#define MAX_DEPTH 256

struct entry {
	char *name;
	uint32_t ino;
	uint8_t type;
};

/* One directory's entries, "." and ".." left out. */
struct listing {
	struct entry *e;
	size_t n, cap;
};

struct walk {
	struct zf2fs_vol *vol;
	uint8_t *seen;                  /* directories walked, by inode number */
	uint32_t max_nid;
	char **paths;
	size_t n, cap;
	char *why;
	size_t whylen;
};

static int add_entry(void *arg, const struct zf2fs_dentry_info *d)
{
	struct listing *l = arg;

	if ((d->name_len == 1 && d->name[0] == '.') ||
	    (d->name_len == 2 && d->name[0] == '.' && d->name[1] == '.'))
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct entry *e = realloc(l->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		l->e = e;
		l->cap = cap;
	}
	l->e[l->n].name = strndup((const char *)d->name, d->name_len);
	if (!l->e[l->n].name)
		return -ENOMEM;
	l->e[l->n].ino = d->ino;
	l->e[l->n].type = d->type;
	l->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static int add_path(struct walk *w, const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *p;

	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		char **np = realloc(w->paths, cap * sizeof(*np));

		if (!np)
			return -ENOMEM;
		w->paths = np;
		w->cap = cap;
	}
	p = malloc(len);
	if (!p)
		return -ENOMEM;
	snprintf(p, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
	w->paths[w->n++] = p;
	return 0;
}

static int walk_dir(struct walk *w, uint32_t ino, const char *path, int depth)
{
	struct listing l = { 0 };
	struct zf2fs_node *n;
	int err;

	if (ino >= w->max_nid || zf2fs_lbit_test(w->seen, ino) || depth > MAX_DEPTH)
		return 0;
	zf2fs_lbit_set(w->seen, ino);
	n = malloc(ZF2FS_BLKSIZE_MAX);   /* a node block of any volume's size */
	if (!n)
		return -ENOMEM;
	err = zf2fs_inode_read(w->vol, ino, n, NULL, w->why, w->whylen);
	if (!err) {
		err = zf2fs_dir_iterate(w->vol, n, add_entry, NULL, &l);
		if (err && err != -ENOMEM)
			snprintf(w->why, w->whylen, "%s: the directory cannot be read", path);
	}
	free(n);
	if (!err)
		qsort(l.e, l.n, sizeof(*l.e), by_name);
	for (size_t i = 0; !err && i < l.n; i++) {
		if (l.e[i].type == ZF2FS_FT_REG_FILE) {
			err = add_path(w, path, l.e[i].name);
		} else if (l.e[i].type == ZF2FS_FT_DIR) {
			size_t len = strlen(path) + strlen(l.e[i].name) + 2;
			char *sub = malloc(len);

			if (!sub) {
				err = -ENOMEM;
				break;
			}
			snprintf(sub, len, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/",
				 l.e[i].name);
			err = walk_dir(w, l.e[i].ino, sub, depth + 1);
			free(sub);
		}
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.e[i].name);
	free(l.e);
	return err;
}

void defrag_free_paths(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

int defrag_list_files(struct zf2fs_vol *vol, uint32_t ino, const char *path,
		      char ***ret_paths, size_t *ret_n, char *why, size_t whylen)
{
	struct walk w = { .vol = vol, .why = why, .whylen = whylen };
	int err;

	w.max_nid = zf2fs_vol_info(vol)->max_nid;
	w.seen = calloc(w.max_nid / 8 + 1, 1);
	if (!w.seen)
		return -ENOMEM;
	err = walk_dir(&w, ino, path[0] ? path : "/", 0);
	free(w.seen);
	if (err) {
		defrag_free_paths(w.paths, w.n);
		return err;
	}
	*ret_paths = w.paths;
	*ret_n = w.n;
	return 0;
}
