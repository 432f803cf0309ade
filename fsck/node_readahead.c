// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * node_readahead.c - every node block, asked of the kernel in address order, while pass 4
 * checks them in the tree's.
 *
 * Pass 4 visits inodes directory by directory, in the order of their names' hashes: on a
 * volume the kernel has aged, that is all over the disk.  When the node blocks fit in half
 * the memory the kernel calls available, a second thread asks the kernel for all of them,
 * segment by segment in address order, a request per run of valid blocks (the SIT's node
 * segments, as pass 3 loaded them); the disk then reads them in one sweep, and pass 4's
 * reads find them in the page cache.  Nothing is kept in this
 * process: the kernel may drop the pages under pressure, and a read it has to do again
 * gives the same bytes.  On a volume whose nodes do not fit, pass 5 still asks for each
 * directory's inodes at once (dir_blocks.c).
 */
#include "config.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/access.h"
#include "zf2fs-internal/volume.h"

struct node_seg {
	uint32_t segno;
	uint8_t map[ZF2FS_SIT_MAP_SIZE];
};

struct node_readahead {
	pthread_t thread;
	struct zf2fs_vol *vol;
	uint64_t main_blkaddr;
	struct node_seg *segs;   /* copies: pass 4 may change the SIT while this runs */
	size_t n;
};

/* MemAvailable of /proc/meminfo in bytes; 0 when unknown. */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	unsigned long long kib = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib << 10;
}

/* Node segments in address order; in each, a request per run of valid blocks. */
static void *run(void *arg)
{
	struct node_readahead *ra = arg;

	for (size_t i = 0; i < ra->n; i++) {
		uint64_t first = zf2fs_main_blk(ra->main_blkaddr, ra->segs[i].segno, 0);

		for (uint32_t off = 0, end; off < ZF2FS_BLOCKS_PER_SEG; off = end) {
			end = off + 1;
			if (!zf2fs_hbit_test(ra->segs[i].map, off))
				continue;
			while (end < ZF2FS_BLOCKS_PER_SEG && zf2fs_hbit_test(ra->segs[i].map, end))
				end++;
			zf2fs_vol_willneed_run(ra->vol, first + off, end - off);
		}
	}
	return NULL;
}

/* The node blocks to read: the valid blocks of the SIT's node segments (the NAT's nodes,
 * on a volume that is not damaged: only a hint either way). */
struct node_readahead *node_readahead_start(struct fsck_ctx *ctx)
{
	struct node_readahead *ra;
	uint64_t room = mem_available() / 2, blocks = 0;
	size_t n = 0;

	if (getenv("ZF2FS_NO_READAHEAD"))
		return NULL;
	for (uint32_t s = 0; s < ctx->vi->main_segs; s++) {
		const struct zf2fs_sit_entry *se = sit_get(ctx, s);

		if (se && zf2fs_sit_valid_blocks(se) && zf2fs_sit_type(se) >= ZF2FS_LOG_HOT_NODE) {
			n++;
			blocks += zf2fs_sit_valid_blocks(se);
		}
	}
	if (!n || blocks * ctx->g->blocksize > room)
		return NULL;
	ra = calloc(1, sizeof(*ra));
	if (!ra)
		return NULL;
	ra->segs = malloc(n * sizeof(*ra->segs));
	if (!ra->segs) {
		free(ra);
		return NULL;
	}
	for (uint32_t s = 0; s < ctx->vi->main_segs; s++) {
		const struct zf2fs_sit_entry *se = sit_get(ctx, s);

		if (se && zf2fs_sit_valid_blocks(se) && zf2fs_sit_type(se) >= ZF2FS_LOG_HOT_NODE) {
			ra->segs[ra->n].segno = s;
			memcpy(ra->segs[ra->n++].map, se->valid_map, sizeof(se->valid_map));
		}
	}
	ra->vol = ctx->vol;
	ra->main_blkaddr = ctx->vi->main_blkaddr;
	if (pthread_create(&ra->thread, NULL, run, ra)) {
		free(ra->segs);
		free(ra);
		return NULL;
	}
	return ra;
}

void node_readahead_end(struct node_readahead *ra)
{
	if (!ra)
		return;
	pthread_join(ra->thread, NULL);
	free(ra->segs);
	free(ra);
}
