// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_gc.c - libFuzzer target: gc.f2fs state and replay through the library.
 *
 * Builds the GC model from the image (zf2fs_gc_model_load: SIT, journal, current
 * segments), summarizes it, then runs foreground and background selections and
 * collections with checkpoints between them, as "gc.f2fs state" and "replay" do.
 */
#include "config.h"
#include <stdlib.h>

#include "fuzz_image.h"
#include "zf2fs/gc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zf2fs_log log = { .level = 0 };
	struct zf2fs_gc_model *m = NULL;
	struct zf2fs_gc_summary s;
	struct zf2fs_dev *dev;
	struct zf2fs_vol *vol;
	uint64_t moved;
	uint32_t secs;

	if (zf2fs_dev_open(fuzz_image_file(data, size), 0, &log, &dev))
		return 0;
	if (zf2fs_vol_open_devs(&dev, 1, &log, &vol)) {
		zf2fs_dev_close(dev);
		return 0;
	}
	if (zf2fs_gc_model_load(vol, &log, &m) == 0) {
		zf2fs_gc_summarize(m, &s);
		zf2fs_gc_blocks_to_reclaim(m, 4, &moved, &secs);
		for (int pass = 0; pass < 4; pass++) {
			struct zf2fs_gc_params p;

			zf2fs_gc_params_init(&p, pass & 1 ? ZF2FS_GC_BG : ZF2FS_GC_FG);
			p.policy = (enum zf2fs_gc_policy)(pass / 2 ? ZF2FS_GC_CB : ZF2FS_GC_GREEDY);
			for (int i = 0; i < 8; i++) {
				struct zf2fs_gc_victim v;

				if (zf2fs_gc_select(m, &p, &v))
					break;
				if (zf2fs_gc_collect(m, &p, &v))
					break;
			}
			zf2fs_gc_checkpoint(m);
		}
		zf2fs_gc_summarize(m, &s);
		zf2fs_gc_model_free(m);
	}
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	return 0;
}
