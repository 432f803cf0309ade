// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_volume.c - libFuzzer target: superblock and checkpoint parsing.
 *
 * Opens the image (a file in /dev/shm: faster than a memory device under ASan) with zf2fs_vol_open_devs, then reads what the open
 * volume offers: NAT lookups, the SIT, the summaries of the current segments and nodes.
 */
#include "config.h"
#include <stdlib.h>

#include "fuzz_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zf2fs_log log = { .level = 0, .fn = NULL };
	struct zf2fs_dev *dev;
	struct zf2fs_vol *vol;
	struct zf2fs_sit_entry *sit = NULL;
	const struct zf2fs_vol_info *vi;
	struct zf2fs_summary_block *sum;
	uint8_t *node;
	char why[160];

	if (zf2fs_dev_open(fuzz_image_file(data, size), 0, &log, &dev))
		return 0;
	if (zf2fs_vol_open_devs(&dev, 1, &log, &vol)) {
		zf2fs_dev_close(dev);
		return 0;
	}
	vi = zf2fs_vol_info(vol);
	sum = malloc(sizeof(*sum));
	node = malloc(ZF2FS_BLKSIZE);
	if (sum && node) {
		for (uint32_t nid = 0; nid < 16 && nid < vi->max_nid; nid++) {
			struct zf2fs_nat_info ni;

			zf2fs_vol_nat_lookup(vol, nid, &ni);
			zf2fs_vol_read_node(vol, nid, node, NULL, why, sizeof(why));
		}
		if (vi->max_nid)
			zf2fs_vol_read_node(vol, vi->max_nid - 1, node, NULL, why, sizeof(why));
		for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
			uint32_t segno, blkoff;

			zf2fs_vol_curseg(vol, t, &segno, &blkoff);
			zf2fs_vol_segment_summary(vol, segno, sum);
		}
		if (vi->main_segs)
			zf2fs_vol_segment_summary(vol, vi->main_segs - 1, sum);
		zf2fs_vol_load_sit(vol, &sit);
	}
	free(sit);
	free(sum);
	free(node);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	return 0;
}
