/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gc_zones.h - gc.f2fs state: the per-zone view of a volume on zoned devices. */
#ifndef ZF2FS_TOOLS_GC_ZONES_H
#define ZF2FS_TOOLS_GC_ZONES_H

#include <stdbool.h>
#include <stdio.h>

#include "zf2fs/zf2fs.h"

/*
 * Print, for a blkzoned volume, each zone's write pointer, capacity and valid blocks.
 * Text: a heading and one line per zone (or one line saying why there are none).  JSON:
 * one member, starting with ", " so it can follow the members printed before it:
 * "zone_report": [...] or "zone_report": null with "zone_report_note".  Prints nothing
 * for a volume without the blkzoned feature.  Returns 0 or a negative errno (the
 * caller reports it); no write pointers (an image file, no libzbd) is not an error.
 */
int gc_zones_state(struct zf2fs_vol *vol, bool json, FILE *out);

#endif
