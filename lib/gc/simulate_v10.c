// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simulate_v10.c - the simulator's entry for libzf2fs1 0.3.0's programs
 * (zf2fs_gc_sim_model_from_layout@ZF2FS_1.0), which pass 0.3.0's struct zf2fs_layout
 * (lib/format/abi_v10_p.h).
 */
#include "config.h"

#include "zf2fs/zf2fs.h"
#include "zf2fs/gc_sim.h"
#include "format/abi_v10_p.h"

int zf2fs_gc_sim_model_from_layout_v10(const struct zf2fs_layout_v10 *old_lay,
				       struct zf2fs_gc_model **ret_model);

ZF2FS_EXPORT_V10(zf2fs_gc_sim_model_from_layout)
int zf2fs_gc_sim_model_from_layout_v10(const struct zf2fs_layout_v10 *old_lay,
				       struct zf2fs_gc_model **ret_model)
{
	struct zf2fs_layout lay;

	zf2fs_layout_from_v10(&lay, old_lay);
	return zf2fs_gc_sim_model_from_layout(&lay, ret_model);
}
