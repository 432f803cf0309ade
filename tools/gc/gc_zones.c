// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gc_zones.c - gc.f2fs state on zoned devices: each zone's write pointer, capacity and
 * valid blocks, so the GC picture (how full the zones are against how much of them is
 * still valid) reads per zone.  The zones come from libzf2fs (zf2fs/zoned.h); this file
 * only prints them.
 */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gc_zones.h"
#include "zf2fs/zoned.h"

static void note(bool json, FILE *out, const char *why)
{
	if (json)
		fprintf(out, ", \"zone_report\": null, \"zone_report_note\": \"%s\"", why);
	else
		fprintf(out, "zones: %s\n", why);
}

int gc_zones_state(struct zf2fs_vol *vol, bool json, FILE *out)
{
	struct zf2fs_sit_entry *sit = NULL;
	struct zf2fs_sec_zone *z = NULL;
	uint64_t written = 0, valid = 0, cap = 0;
	uint32_t nr = 0, sps = zf2fs_vol_info(vol)->segs_per_sec, cur[ZF2FS_NR_CURSEG], off;
	bool first = true;
	int err;

	if (!zf2fs_vol_is_zoned(vol))
		return 0;
	err = zf2fs_vol_load_sit(vol, &sit);
	if (err)
		return err;
	err = zf2fs_vol_zones(vol, sit, &z, &nr);
	free(sit);
	if (err == -ENODEV) {
		note(json, out, "write pointers not available: not run on the zoned devices");
		return 0;
	}
	if (err == -ENOTSUP) {
		note(json, out, "write pointers not available: this build has no zoned device "
		     "support (libzbd)");
		return 0;
	}
	if (err)
		return err;
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
		zf2fs_vol_curseg(vol, t, &cur[t], &off);
	if (json)
		fprintf(out, ",\n \"zone_report\": [");
	else
		fprintf(out, "zones (blocks; wp = write pointer from the zone start):\n"
			"  section   zone_blkaddr       wp capacity    valid state        log\n");
	for (uint32_t i = 0; i < nr; i++) {
		int log = -1;

		if (z[i].type != ZF2FS_ZONE_SEQ_REQ && z[i].type != ZF2FS_ZONE_SEQ_PREF)
			continue;
		for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
			if (sps && cur[t] / sps == i)
				log = t;
		written += z[i].wp_blocks;
		valid += z[i].valid_blocks;
		cap += z[i].cap_blocks;
		if (json)
			fprintf(out, "%s\n  {\"secno\": %u, \"zone_blkaddr\": %" PRIu64 ", \"wp\": %u, "
				"\"capacity\": %u, \"valid_blocks\": %u, \"state\": \"%s\", "
				"\"current\": %s}", first ? "" : ",", z[i].secno, z[i].zone_blkaddr,
				z[i].wp_blocks, z[i].cap_blocks, z[i].valid_blocks,
				zf2fs_sec_zone_state(&z[i]), log >= 0 ? "true" : "false");
		else
			fprintf(out, "  %7u %14" PRIu64 " %8u %8u %8u %-12s %s\n", z[i].secno,
				z[i].zone_blkaddr, z[i].wp_blocks, z[i].cap_blocks, z[i].valid_blocks,
				zf2fs_sec_zone_state(&z[i]), log >= 0 ? "current" : "");
		first = false;
	}
	if (json)
		fprintf(out, "],\n \"zone_totals\": {\"written_blocks\": %" PRIu64 ", \"valid_blocks\": %"
			PRIu64 ", \"capacity_blocks\": %" PRIu64 "}", written, valid, cap);
	else
		fprintf(out, "zones: %" PRIu64 " blocks written below the write pointers, %" PRIu64
			" of them valid (%.1f%%), capacity %" PRIu64 " blocks\n", written, valid,
			written ? 100.0 * (double)valid / (double)written : 0.0, cap);
	free(z);
	return 0;
}
