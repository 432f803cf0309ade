// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sit_table.c - the SIT in memory, one SIT block's worth of entries at a time.
 *
 * The index has one pointer per SIT block (55 segments, 221 with 16 KiB blocks); a
 * block's entries are kept only when they hold anything but zeros on disk or were
 * changed since.  Segments never used
 * since mkfs (all zeros: no valid block, no type, no mtime) cost nothing, so the table of
 * an empty 16 TiB volume is its 1 MiB index.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "zf2fs/sit_table.h"
#include "zf2fs-internal/volume.h"
#include "read/volume_p.h"

/* the entries of one SIT block of the volume (g->sit_per_block) */
#define PER (t->per)

struct zf2fs_sit_table {
	uint32_t segs, nblocks, used, per;
	struct zf2fs_sit_entry **blk;
};

static const struct zf2fs_sit_entry zero_entry;

static int table_new(uint32_t segs, uint32_t per, struct zf2fs_sit_table **ret)
{
	struct zf2fs_sit_table *t = calloc(1, sizeof(*t));

	*ret = NULL;
	if (!t)
		return -ENOMEM;
	t->segs = segs;
	t->per = per;
	t->nblocks = (segs + PER - 1) / PER;
	t->blk = calloc(t->nblocks ? t->nblocks : 1, sizeof(*t->blk));
	if (!t->blk) {
		free(t);
		return -ENOMEM;
	}
	*ret = t;
	return 0;
}

ZF2FS_EXPORT void zf2fs_sit_table_free(struct zf2fs_sit_table *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->nblocks; i++)
		free(t->blk[i]);
	free(t->blk);
	free(t);
}

ZF2FS_EXPORT uint32_t zf2fs_sit_table_segs(const struct zf2fs_sit_table *t)
{
	return t->segs;
}

ZF2FS_EXPORT const struct zf2fs_sit_entry *zf2fs_sit_table_get(const struct zf2fs_sit_table *t,
							       uint32_t segno)
{
	const struct zf2fs_sit_entry *b;

	if (segno >= t->segs)
		return &zero_entry;
	b = t->blk[segno / PER];
	return b ? &b[segno % PER] : &zero_entry;
}

ZF2FS_EXPORT struct zf2fs_sit_entry *zf2fs_sit_table_mut(struct zf2fs_sit_table *t,
							 uint32_t segno)
{
	struct zf2fs_sit_entry **b;

	if (segno >= t->segs)
		return NULL;
	b = &t->blk[segno / PER];
	if (!*b) {
		*b = calloc(PER, sizeof(**b));
		if (!*b)
			return NULL;
		t->used++;
	}
	return &(*b)[segno % PER];
}

ZF2FS_EXPORT bool zf2fs_sit_table_block_used(const struct zf2fs_sit_table *t, uint32_t blk)
{
	return blk < t->nblocks && t->blk[blk];
}

ZF2FS_EXPORT uint64_t zf2fs_sit_table_bytes(const struct zf2fs_sit_table *t)
{
	return sizeof(*t) + (uint64_t)t->nblocks * sizeof(*t->blk) +
	       (uint64_t)t->used * PER * sizeof(struct zf2fs_sit_entry);
}

static bool zero_bytes(const uint8_t *p, size_t n)
{
	/* word at a time: this runs over the whole SIT area */
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		if (w)
			return false;
	}
	for (; i < n; i++)
		if (p[i])
			return false;
	return true;
}

ZF2FS_EXPORT int zf2fs_vol_sit_lookup(struct zf2fs_vol *vol, uint32_t segno,
				      struct zf2fs_sit_entry *ret_entry)
{
	const struct zf2fs_geom *g = &vol->geom;
	const struct zf2fs_journal *j = zf2fs_vol_sit_journal(vol);
	uint32_t n = (uint32_t)zf2fs_get(j->n_entries);
	uint8_t *buf;
	int err;

	memset(ret_entry, 0, sizeof(*ret_entry));
	if (segno >= vol->info.main_segs ||
	    zf2fs_geom_sit_block_index(g, segno) >= vol->info.sit_blocks)
		return -EINVAL;
	for (uint32_t k = 0; k < n && k < g->sit_journal_entries; k++)
		if (zf2fs_get(zf2fs_journal_sit(j, k)->segno) == segno) {
			*ret_entry = zf2fs_journal_sit(j, k)->se;
			return 0;
		}
	buf = malloc(g->blocksize);
	if (!buf)
		return -ENOMEM;
	err = zf2fs_vol_read_block(vol, zf2fs_vol_sit_block_addr(vol,
				   zf2fs_geom_sit_block_index(g, segno)), buf);
	if (!err)
		*ret_entry = *zf2fs_sit_block_entry(buf, zf2fs_geom_sit_entry_index(g, segno));
	free(buf);
	return err;
}

static int table_block(void *arg, uint32_t idx, uint32_t first, uint32_t cnt,
		       const struct zf2fs_sit_entry *src)
{
	struct zf2fs_sit_table *t = arg;

	if (zero_bytes((const uint8_t *)src, cnt * sizeof(*src)))
		return 0;
	if (!zf2fs_sit_table_mut(t, first))
		return -ENOMEM;
	memcpy(t->blk[idx], src, cnt * sizeof(*src));
	return 0;
}

static int table_journal(void *arg, uint32_t segno, const struct zf2fs_sit_entry *je)
{
	struct zf2fs_sit_entry *se = zf2fs_sit_table_mut(arg, segno);

	if (!se)
		return -ENOMEM;
	*se = *je;
	return 0;
}

ZF2FS_EXPORT int zf2fs_vol_load_sit_table(struct zf2fs_vol *vol,
					  struct zf2fs_sit_table **ret_table)
{
	static const struct zf2fs_sit_scan_ops ops = { table_block, table_journal };
	struct zf2fs_sit_table *t = NULL;
	int err;

	*ret_table = NULL;
	err = table_new(zf2fs_vol_info(vol)->main_segs, vol->geom.sit_per_block, &t);
	if (!err)
		err = zf2fs_sit_scan(vol, &ops, t);
	if (err) {
		zf2fs_sit_table_free(t);
		return err;
	}
	*ret_table = t;
	return 0;
}
