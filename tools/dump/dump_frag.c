// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump_frag.c - dump.f2fs --frag: how the regular files below a path lie on the disk.
 *
 * Per file its extents (lib/read/file_extents.c's rule); for the set, how many files are in
 * one piece, a histogram of extents per file and the most fragmented files.  Two writers
 * appending at once interleave their blocks in the same log, and this is where that shows.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"

#define WORST_MAX 20

/* histogram buckets of extents per file (files with blocks) */
static const uint64_t bucket_lo[] = { 1, 2, 4, 16, 64, 256 };
#define NBUCKETS (sizeof(bucket_lo) / sizeof(bucket_lo[0]))

struct worst {
	char *path;
	uint32_t ino;
	struct zf2fs_file_extents x;
};

struct frag {
	struct dump_ctx *c;
	const char *root;       /* the walk's directory ("" for "/"), before each path */
	uint8_t *seen;          /* inodes counted, one bit per nid (hard links count once) */
	struct zf2fs_node *node;
	uint64_t files, with_blocks, fragmented, blocks, extents, reserved, longest;
	uint64_t hist[NBUCKETS];
	struct worst worst[WORST_MAX];
	unsigned nworst;
};

static void keep_worst(struct frag *f, const char *path, uint32_t ino,
		       const struct zf2fs_file_extents *x)
{
	unsigned at = f->nworst;

	if (x->extents <= 1)
		return;
	if (f->nworst == WORST_MAX) {
		if (x->extents <= f->worst[WORST_MAX - 1].x.extents)
			return;
		free(f->worst[WORST_MAX - 1].path);
		at = WORST_MAX - 1;
	} else {
		f->nworst++;
	}
	/* most extents first; equal counts keep walk order */
	while (at > 0 && f->worst[at - 1].x.extents < x->extents) {
		f->worst[at] = f->worst[at - 1];
		at--;
	}
	f->worst[at].path = malloc(strlen(f->root) + strlen(path) + 1);
	if (f->worst[at].path)
		strcat(strcpy(f->worst[at].path, f->root), path);
	f->worst[at].ino = ino;
	f->worst[at].x = *x;
}

static int count_file(struct frag *f, const char *path, uint32_t ino)
{
	struct zf2fs_file_extents x;
	char why[256];
	int err;

	if (ino >= f->c->info->max_nid || zf2fs_lbit_test(f->seen, ino))
		return 0;
	zf2fs_lbit_set(f->seen, ino);
	err = zf2fs_inode_read(f->c->vol, ino, f->node, NULL, why, sizeof(why));
	if (err) {
		dump_damage(f->c, "%s: %s", path, why);
		return 0;
	}
	if (zf2fs_mode_to_ftype((uint32_t)zf2fs_get(f->node->i.i_mode)) != ZF2FS_FT_REG_FILE)
		return 0;
	err = zf2fs_file_extents(f->c->vol, f->node, &x);
	if (err == -ZF2FS_EFSCORRUPTED || x.damaged || x.outside) {
		dump_damage(f->c, "%s: the block tree of inode %u is damaged", path, ino);
		if (err)
			return 0;
	} else if (err) {
		return err;
	}
	f->files++;
	if (!x.blocks)
		return 0;
	f->with_blocks++;
	f->blocks += x.blocks;
	f->extents += x.extents;
	f->reserved += x.reserved;
	if (x.longest > f->longest)
		f->longest = x.longest;
	if (x.extents > 1)
		f->fragmented++;
	for (unsigned b = NBUCKETS; b-- > 0;)
		if (x.extents >= bucket_lo[b]) {
			f->hist[b]++;
			break;
		}
	keep_worst(f, path, ino, &x);
	return 0;
}

static int frag_entry(void *arg, const char *path, const struct zf2fs_dentry_info *d,
		      bool encname)
{
	struct frag *f = arg;

	(void)encname;
	return d->type == ZF2FS_FT_REG_FILE ? count_file(f, path, d->ino) : 0;
}

static void report(struct frag *f, const char *path, uint32_t ino)
{
	struct out *o = &f->c->out;

	out_obj(o, NULL);
	out_s(o, "path", path);
	out_u(o, "ino", ino);
	out_u(o, "files", f->files);
	out_u(o, "files_with_blocks", f->with_blocks);
	out_u(o, "one_extent", f->with_blocks - f->fragmented);
	out_u(o, "fragmented", f->fragmented);
	out_u(o, "blocks", f->blocks);
	out_u(o, "extents", f->extents);
	out_f2(o, "extents_per_file", f->with_blocks ? (double)f->extents / (double)f->with_blocks : 0);
	out_f2(o, "blocks_per_extent", f->extents ? (double)f->blocks / (double)f->extents : 0);
	out_u(o, "longest_extent", f->longest);
	out_u(o, "reserved_blocks", f->reserved);
	out_list(o, "extents_histogram");
	for (unsigned b = 0; b < NBUCKETS; b++) {
		out_row(o);
		out_u(o, "from", bucket_lo[b]);
		if (b + 1 < NBUCKETS)
			out_u(o, "to", bucket_lo[b + 1] - 1);
		else
			out_null(o, "to");
		out_u(o, "files", f->hist[b]);
		out_row_end(o);
	}
	out_list_end(o);
	out_list(o, "most_fragmented");
	for (unsigned i = 0; i < f->nworst; i++) {
		out_row(o);
		out_s(o, "path", f->worst[i].path ? f->worst[i].path : "?");
		out_u(o, "ino", f->worst[i].ino);
		out_u(o, "blocks", f->worst[i].x.blocks);
		out_u(o, "extents", f->worst[i].x.extents);
		out_u(o, "longest", f->worst[i].x.longest);
		out_row_end(o);
	}
	out_list_end(o);
	out_obj_end(o);
}

int dump_frag(struct dump_ctx *c, const char *path)
{
	struct frag f = { .c = c, .root = "" };
	char why[256], *root = NULL;
	uint32_t ino;
	int err;

	err = zf2fs_path_lookup(c->vol, path, ZF2FS_LOOKUP_FOLLOW, &ino, why, sizeof(why));
	if (err) {
		dump_error("%s: %s", path, why);
		return err;
	}
	f.seen = calloc(c->info->max_nid / 8 + 1, 1);
	f.node = malloc(ZF2FS_BLKSIZE_MAX);
	if (!f.seen || !f.node) {
		err = -ENOMEM;
		goto out;
	}
	err = zf2fs_inode_read(c->vol, ino, f.node, NULL, why, sizeof(why));
	if (err) {
		dump_error("%s: %s", path, why);
		goto out;
	}
	if (zf2fs_mode_to_ftype((uint32_t)zf2fs_get(f.node->i.i_mode)) == ZF2FS_FT_DIR) {
		/* entries' paths start with '/': a root of "/" or "/a/" adds nothing more */
		size_t len = strlen(path);

		f.root = root = strdup(path);
		if (!root) {
			err = -ENOMEM;
			goto out;
		}
		while (len && root[len - 1] == '/')
			root[--len] = 0;
		err = dump_walk_paths(c, ino, frag_entry, &f);
	} else {
		err = count_file(&f, path, ino);
	}
	if (err)
		dump_error("%s: while reading the files below %s", strerror(-err), path);
	else
		report(&f, path, ino);
out:
	for (unsigned i = 0; i < f.nworst; i++)
		free(f.worst[i].path);
	free(f.seen);
	free(f.node);
	free(root);
	return err;
}
