// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump_zones.c - dump.f2fs --zones: the zone under each main-area section.
 *
 * For a volume opened on its zoned block devices: one row per section with the device,
 * the zone's start, write pointer and capacity (blocks from the zone start), the blocks
 * the SIT marks valid, the zone condition and the log writing to it, then totals per
 * state.  The write pointers come from the device (libzbd), so an image file copied from
 * a zoned device has no zone view: that is an error with a reason, not an empty list.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "zf2fs/zoned.h"

int dump_zones(struct dump_ctx *c)
{
	const struct zf2fs_vol_info *vi = c->info;
	uint32_t sps = vi->segs_per_sec ? vi->segs_per_sec : 1, nr = 0;
	uint32_t cur[ZF2FS_NR_CURSEG], off[ZF2FS_NR_CURSEG];
	uint64_t nseq = 0, nconv = 0, nregular = 0, nempty = 0, nopen = 0, nfull = 0;
	uint64_t nclosed = 0, nother = 0, beyond = 0;
	struct zf2fs_sec_zone *zones = NULL;
	struct out *o = &c->out;
	struct zf2fs_sit_entry *sit = NULL;
	int err = zf2fs_vol_load_sit(c->vol, &sit);

	if (err) {
		dump_error("%s: while reading the SIT", strerror(err == -ZF2FS_EFSCORRUPTED ?
			   EUCLEAN : -err));
		return err;
	}
	/* the zone report wants the SIT as one array */
	err = zf2fs_vol_zones(c->vol, sit, &zones, &nr);
	free(sit);
	if (err == -ENODEV) {
		dump_error("--zones: %s is not a zoned block device: write pointers can only be "
			   "read from the device itself", zf2fs_dev_path(zf2fs_vol_dev(c->vol, 0)));
		return err;
	}
	if (err == -ENOTSUP) {
		dump_error("--zones: this build has no zoned device support (libzbd)");
		return err;
	}
	if (err) {
		dump_error("%s: while reading the zones of %s", strerror(-err),
			   zf2fs_dev_path(zf2fs_vol_dev(c->vol, 0)));
		return err;
	}
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
		zf2fs_vol_curseg(c->vol, t, &cur[t], &off[t]);
	out_obj(o, "zones");
	out_b(o, "blkzoned", zf2fs_vol_is_zoned(c->vol));
	out_u(o, "section_count", nr);
	out_u(o, "segs_per_sec", sps);
	out_list(o, "devices");
	for (unsigned d = 0; d < zf2fs_vol_ndevs(c->vol); d++) {
		uint64_t first = 0, last = 0;

		zf2fs_vol_dev_range(c->vol, d, &first, &last);
		out_row(o);
		out_u(o, "dev", d);
		out_s(o, "path", zf2fs_dev_path(zf2fs_vol_dev(c->vol, d)));
		out_u(o, "first_blkaddr", first);
		out_u(o, "last_blkaddr", last);
		out_row_end(o);
	}
	out_list_end(o);
	out_list(o, "list");
	for (uint32_t i = 0; i < nr; i++) {
		const struct zf2fs_sec_zone *z = &zones[i];
		const char *state = zf2fs_sec_zone_state(z);
		int log = -1;

		for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
			if (cur[t] / sps == i)
				log = t;
		if (z->type == ZF2FS_ZONE_NONE)
			nregular++;
		else if (z->type == ZF2FS_ZONE_CONV)
			nconv++;
		else
			nseq++;
		if (z->type == ZF2FS_ZONE_SEQ_REQ || z->type == ZF2FS_ZONE_SEQ_PREF) {
			if (!strcmp(state, "empty"))
				nempty++;
			else if (!strcmp(state, "open"))
				nopen++;
			else if (!strcmp(state, "full"))
				nfull++;
			else if (!strcmp(state, "closed"))
				nclosed++;
			else
				nother++;
			if (z->last_valid >= 0 && (uint64_t)z->last_valid >= z->wp_blocks)
				beyond++;
		}
		out_row(o);
		out_u(o, "secno", z->secno);
		out_u(o, "segno", (uint64_t)z->secno * sps);
		out_u(o, "blkaddr", z->blkaddr);
		out_u(o, "dev", z->dev);
		out_s(o, "type", zf2fs_zone_type_name(z->type));
		out_s(o, "state", state);
		if (z->type == ZF2FS_ZONE_NONE) {
			out_null(o, "zone_blkaddr");
			out_null(o, "wp");
			out_null(o, "capacity");
		} else {
			out_u(o, "zone_blkaddr", z->zone_blkaddr);
			if (z->type == ZF2FS_ZONE_CONV)
				out_null(o, "wp");
			else
				out_u(o, "wp", z->wp_blocks);
			out_u(o, "capacity", z->cap_blocks);
		}
		out_u(o, "valid_blocks", z->valid_blocks);
		if (log >= 0) {
			uint64_t pos = zf2fs_sec_blk_pos(sps, cur[log], off[log]);

			out_s(o, "current", zf2fs_log_name((unsigned)log));
			out_u(o, "next_write", pos);
		}
		out_row_end(o);
	}
	out_list_end(o);
	out_u(o, "sequential", nseq);
	out_u(o, "conventional", nconv);
	out_u(o, "regular", nregular);
	out_u(o, "empty", nempty);
	out_u(o, "open", nopen);
	out_u(o, "closed", nclosed);
	out_u(o, "full", nfull);
	out_u(o, "other", nother);
	out_u(o, "valid_beyond_wp", beyond);
	out_obj_end(o);
	if (beyond)
		dump_damage(c, "%llu zones hold valid blocks at or beyond their write pointer",
			    (unsigned long long)beyond);
	free(zones);
	return 0;
}
