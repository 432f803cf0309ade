// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * file_extents.c - how a file's blocks lie on the disk: its extents.
 *
 * An extent is a run of consecutive file blocks at consecutive block addresses, the unit
 * a sequential read of the file costs one request for.  Holes and blocks reserved but
 * never written (NEW_ADDR) end a run; compressed clusters' markers (COMPRESS_ADDR) too.
 * dump.f2fs's fragmentation report and defrag's choice of files share this one rule.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "zf2fs/file.h"
#include "read/volume_p.h"

struct extent_walk {
	struct zf2fs_file_extents *x;
	uint64_t last_fofs;
	uint32_t last_addr, run;
	bool open;
	uint64_t main_lo, main_hi;
};

static void close_run(struct extent_walk *w)
{
	if (w->open && w->run > w->x->longest)
		w->x->longest = w->run;
	w->open = false;
	w->run = 0;
}

static int extent_data(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
		       uint32_t ofs_in_node)
{
	struct extent_walk *w = arg;

	(void)owner;
	(void)ofs_in_node;
	if (blkaddr == ZF2FS_NEW_ADDR || blkaddr == ZF2FS_COMPRESS_ADDR ||
	    blkaddr < w->main_lo || blkaddr >= w->main_hi) {
		if (blkaddr == ZF2FS_NEW_ADDR)
			w->x->reserved++;
		else if (blkaddr != ZF2FS_COMPRESS_ADDR)
			w->x->outside++;
		close_run(w);
		return 0;
	}
	w->x->blocks++;
	if (w->open && fofs == w->last_fofs + 1 && blkaddr == w->last_addr + 1) {
		w->run++;
	} else {
		close_run(w);
		w->x->extents++;
		w->open = true;
		w->run = 1;
	}
	w->last_fofs = fofs;
	w->last_addr = blkaddr;
	return 0;
}

static int extent_bad(void *arg, uint32_t nid, uint32_t parent, uint32_t slot, uint32_t ofs,
		      const char *why)
{
	struct extent_walk *w = arg;

	(void)nid;
	(void)parent;
	(void)slot;
	(void)ofs;
	(void)why;
	w->x->damaged = true;
	close_run(w);
	return 0;
}

ZF2FS_EXPORT int zf2fs_file_extents(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				    struct zf2fs_file_extents *ret)
{
	const struct zf2fs_walk_ops ops = { .data = extent_data, .bad = extent_bad };
	struct extent_walk w = { .x = ret, .main_lo = vol->info.main_blkaddr,
				 .main_hi = vol->info.main_end };
	int err;

	memset(ret, 0, sizeof(*ret));
	if (inode->i.i_inline & ZF2FS_INLINE_DATA)
		return 0;
	err = zf2fs_file_walk(vol, inode, &ops, &w);
	close_run(&w);
	return err;
}
