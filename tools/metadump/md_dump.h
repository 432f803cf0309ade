/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * md_dump.h - f2fs_metadump's parts: which blocks go into the image (md_dump.c) and what
 * is scrambled in them (md_scramble.c).
 */
#ifndef MD_DUMP_H
#define MD_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "zf2fs/zf2fs.h"
#include "md_image.h"

struct zs_progress;

struct md_dump {
	struct zf2fs_vol *vol;
	const struct zf2fs_geom *g;
	uint32_t features, csum_seed;
	bool scramble;
	bool scan;                  /* no usable checkpoint: node blocks by a main-area scan */
	uint64_t key;               /* the scrambling key: random, never stored */
	struct md_writer *w;
	struct zs_progress *prog;   /* or NULL */
	/* what was copied and what could not be read */
	uint64_t meta_blocks, node_blocks, data_blocks, unreadable;
	uint64_t inodes, dirs;
};

/* Copy every block f2fs_metadump keeps into d->w: the areas before the main area, the
 * node blocks (through the NAT, the SIT's node segments and the logs' current node
 * segments with what roll-forward would read; with @scan every block whose footer can be
 * a node's), and directories', symlinks' and quota files' blocks (not with @scan: no
 * table says which blocks are theirs now).  Returns 0 or a negative errno (an unreadable block is recorded in the
 * image, not an error). */
int md_dump_volume(struct md_dump *d);

void md_scramble_name(const struct md_dump *d, uint8_t *name, size_t len);
struct zf2fs_dentry_view;
void md_scramble_dentries(const struct md_dump *d, const struct zf2fs_dentry_view *v);
void md_scramble_link(const struct md_dump *d, uint8_t *target, size_t len);
void md_scramble_xattrs(const struct md_dump *d, uint8_t *list, size_t len);
void md_scramble_inode(const struct md_dump *d, void *blk);
void md_scramble_xattr_node(const struct md_dump *d, void *blk);

#endif
