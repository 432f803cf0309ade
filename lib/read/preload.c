// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * preload.c - a window of blocks read early, in address order, for the reads that follow.
 *
 * A reader that needs many scattered blocks one at a time in an order of its own (fsck
 * checks a directory's children in its names' order) names the next ones; they are read
 * here sorted by address, a request per run of adjacent blocks, and the reads of single
 * blocks that follow are served from memory.  On a cold disk that turns random reads into
 * ordered ones; on a warm one it turns a system call per block into one per run.  The
 * window is bounded (PRELOAD_BYTES) and replaced whole by the next; a write through
 * zf2fs_vol_write_block drops the block it writes.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs-internal/volume.h"
#include "read/volume_p.h"

#define PRELOAD_BYTES (2u << 20)
#define RUN_MAX 256u

ZF2FS_EXPORT size_t zf2fs_vol_preload_max(const struct zf2fs_vol *vol)
{
	return PRELOAD_BYTES >> vol->geom.log_blocksize;
}

void zf2fs_preload_free(struct zf2fs_vol *vol)
{
	free(vol->pre_addr);
	free(vol->pre_buf);
	free(vol->pre_ok);
	vol->pre_addr = NULL;
	vol->pre_buf = NULL;
	vol->pre_ok = NULL;
	vol->pre_n = 0;
}

ZF2FS_EXPORT size_t zf2fs_vol_preload(struct zf2fs_vol *vol, const uint64_t *blks, size_t n)
{
	size_t bs = vol->geom.blocksize, max = zf2fs_vol_preload_max(vol), m = 0;

	if (n > max)
		n = max;
	if (!n) {
		zf2fs_preload_free(vol);
		return 0;
	}
	if (!vol->pre_addr) {
		vol->pre_addr = malloc(max * sizeof(*vol->pre_addr));
		vol->pre_buf = malloc(max * bs);
		vol->pre_ok = malloc(max);
		if (!vol->pre_addr || !vol->pre_buf || !vol->pre_ok) {
			zf2fs_preload_free(vol);
			return 0;   /* only a way to read faster: the reads go to the device */
		}
	}
	memcpy(vol->pre_addr, blks, n * sizeof(*blks));
	qsort(vol->pre_addr, n, sizeof(*vol->pre_addr), zf2fs_cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (!m || vol->pre_addr[i] != vol->pre_addr[m - 1])
			vol->pre_addr[m++] = vol->pre_addr[i];
	vol->pre_n = m;
	for (size_t i = 0, j; i < m; i = j) {
		for (j = i + 1; j < m && j - i < RUN_MAX &&
		     vol->pre_addr[j] == vol->pre_addr[j - 1] + 1; j++)
			;
		/* a run that cannot be read whole is left to the reader, which reads each
		 * block and says which one fails */
		memset(vol->pre_ok + i, !zf2fs_vol_read_quiet(vol, vol->pre_addr[i], (uint32_t)(j - i),
							      vol->pre_buf + i * bs), j - i);
	}
	return n;
}

/* The slot of @blk in the window, or -1. */
static ptrdiff_t find(const struct zf2fs_vol *vol, uint64_t blk)
{
	size_t lo = 0, hi = vol->pre_n;

	if (!hi || blk < vol->pre_addr[0] || blk > vol->pre_addr[hi - 1])
		return -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (vol->pre_addr[mid] < blk)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < vol->pre_n && vol->pre_addr[lo] == blk ? (ptrdiff_t)lo : -1;
}

bool zf2fs_preload_get(const struct zf2fs_vol *vol, uint64_t blk, void *buf)
{
	ptrdiff_t i = find(vol, blk);

	if (i < 0 || !vol->pre_ok[i])
		return false;
	memcpy(buf, vol->pre_buf + (size_t)i * vol->geom.blocksize, vol->geom.blocksize);
	return true;
}

void zf2fs_preload_forget(struct zf2fs_vol *vol, uint64_t blk)
{
	ptrdiff_t i = find(vol, blk);

	if (i >= 0)
		vol->pre_ok[i] = 0;
}

