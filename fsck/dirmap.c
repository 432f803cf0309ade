// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dirmap.c - what fsck remembers per inode beyond a byte or two.
 *
 * Directories' parents and subdirectory counts, and link counts other than the common
 * ones, live in small hash tables keyed by inode number, so memory follows the number of
 * directories and hard-linked files, not the number of inodes.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"

struct dir_map {
	struct dir_info *slots;
	size_t cap, used;
};

static size_t slot_of(uint32_t ino, size_t cap)
{
	return (size_t)((ino * 2654435761u) & (cap - 1));
}

static int grow(struct dir_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024;
	struct dir_info *s = calloc(cap, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->slots[i].ino)
			continue;
		for (j = slot_of(m->slots[i].ino, cap); s[j].ino; j = (j + 1) & (cap - 1))
			;
		s[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = s;
	m->cap = cap;
	return 0;
}

struct dir_info *dir_info(struct fsck_ctx *ctx, uint32_t ino)
{
	struct dir_map *m = ctx->dirs_map;
	size_t j;

	if (!m) {
		m = ctx->dirs_map = calloc(1, sizeof(*m));
		if (!m)
			return NULL;
	}
	if ((m->used + 1) * 10 > m->cap * 7 && grow(m))
		return NULL;
	for (j = slot_of(ino, m->cap); m->slots[j].ino; j = (j + 1) & (m->cap - 1))
		if (m->slots[j].ino == ino)
			return &m->slots[j];
	m->slots[j].ino = ino;
	m->used++;
	return &m->slots[j];
}

static const struct dir_info *find(const struct fsck_ctx *ctx, uint32_t ino)
{
	const struct dir_map *m = ctx->dirs_map;

	if (!m || !m->cap)
		return NULL;
	for (size_t j = slot_of(ino, m->cap); m->slots[j].ino; j = (j + 1) & (m->cap - 1))
		if (m->slots[j].ino == ino)
			return &m->slots[j];
	return NULL;
}

uint32_t dir_parent(const struct fsck_ctx *ctx, uint32_t ino)
{
	const struct dir_info *d = find(ctx, ino);

	return d ? d->parent : 0;
}

uint32_t dir_subdirs(const struct fsck_ctx *ctx, uint32_t ino)
{
	const struct dir_info *d = find(ctx, ino);

	return d ? d->subdirs : 0;
}

void dir_map_free(struct fsck_ctx *ctx)
{
	struct dir_map *m = ctx->dirs_map;

	if (m)
		free(m->slots);
	free(m);
	ctx->dirs_map = NULL;
}

/* ---- link counts ----------------------------------------------------------------------- */
/* Counted names: a byte per inode, the rare count of 255 or more in the directory map's
 * table (its "subdirs" field holds the count). */
#define LINKS_SPILL 255

static struct dir_map **spill_map(struct fsck_ctx *ctx, bool disk)
{
	return disk ? &ctx->disk_links_x : &ctx->links_x;
}

static struct dir_info *spill(struct fsck_ctx *ctx, bool disk, uint32_t ino, bool create)
{
	struct dir_map *saved = ctx->dirs_map, **m = spill_map(ctx, disk);
	struct dir_info *d;

	/* reuse the directory table code on another table */
	ctx->dirs_map = *m;
	d = create ? dir_info(ctx, ino) : (struct dir_info *)find(ctx, ino);
	*m = ctx->dirs_map;
	ctx->dirs_map = saved;
	return d;
}

int links_inc(struct fsck_ctx *ctx, uint32_t ino)
{
	struct dir_info *d;

	if (ctx->links[ino] < LINKS_SPILL) {
		ctx->links[ino]++;
		return 0;
	}
	d = spill(ctx, false, ino, true);
	if (!d)
		return -ENOMEM;
	if (!d->subdirs)
		d->subdirs = LINKS_SPILL;
	d->subdirs++;
	return 0;
}

uint32_t links_get(struct fsck_ctx *ctx, uint32_t ino)
{
	const struct dir_info *d;

	if (ctx->links[ino] < LINKS_SPILL)
		return ctx->links[ino];
	d = spill(ctx, false, ino, false);
	return d && d->subdirs ? d->subdirs : LINKS_SPILL;
}

/* Recorded link counts: only those other than 1 are kept. */
int disk_links_set(struct fsck_ctx *ctx, uint32_t ino, uint32_t links)
{
	struct dir_info *d;

	if (links == 1 && !spill(ctx, true, ino, false))
		return 0;
	d = spill(ctx, true, ino, true);
	if (!d)
		return -ENOMEM;
	d->subdirs = links;
	return 0;
}

uint32_t disk_links_get(struct fsck_ctx *ctx, uint32_t ino)
{
	const struct dir_info *d = spill(ctx, true, ino, false);

	return d ? d->subdirs : 1;
}

void links_free(struct fsck_ctx *ctx)
{
	for (int k = 0; k < 2; k++) {
		struct dir_map **m = spill_map(ctx, k);

		if (*m)
			free((*m)->slots);
		free(*m);
		*m = NULL;
	}
}
