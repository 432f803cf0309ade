// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rebuild.c - fsck.f2fs --rebuild: when the checkpoint packs, the NAT or the SIT are gone,
 * the library finds the node blocks on the main area and writes the tables and a new
 * checkpoint from them (lib/write/rebuild.c); the full check that follows in main.c then
 * reconnects what lost its directory (lost+found), fixes link counts and quotas.  Here:
 * opening the volume without a checkpoint, and saying what was found, kept and lost.
 */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "helper.h"
#include "zf2fs-internal/rebuild.h"
#include "zf2fs-internal/volume.h"

#define PROG "fsck.f2fs"

static void report(FILE *out, const char *shown, const struct zf2fs_rebuild_report *r,
		   bool wrote, const char *why[2])
{
	fprintf(out, "%s: tables rebuilt from the node blocks (%s)\n", shown,
		!r->had_checkpoint ? "no checkpoint pack was usable" :
		r->sit_used ? "the checkpoint's SIT told live blocks from old ones" :
		"the checkpoint's SIT did not match it and was not used");
	if (!r->had_checkpoint)
		fprintf(out, "  checkpoint pack 1: %s; pack 2: %s\n", why[0], why[1]);
	fprintf(out, "  found: %" PRIu64 " blocks that look like nodes; %" PRIu64 " older copies "
		"passed over", r->candidates, r->older_copies);
	if (r->off_sit)
		fprintf(out, "; %" PRIu64 " in blocks the SIT calls free", r->off_sit);
	fprintf(out, "\n  kept: %" PRIu64 " inodes, %" PRIu64 " nodes, %" PRIu64 " data blocks in "
		"%" PRIu64 " segments\n", r->inodes, r->nodes, r->data_blocks, r->segments_used);
	fprintf(out, "  left out: %" PRIu64 " deleted inodes (no link), %" PRIu64 " older inodes "
		"whose blocks newer files hold, %" PRIu64 " nodes no inode points to\n",
		r->unlinked, r->stale_inodes, r->unreached);
	if (r->damaged_inodes)
		fprintf(out, "  damaged: %" PRIu64 " inodes with no copy whose checksum holds (kept "
			"for the check to mend) or with an impossible layout (left out)\n",
			r->damaged_inodes);
	if (r->missing_nodes || r->bad_pointers)
		fprintf(out, "  lost: %" PRIu64 " nodes the files point to were not found, "
			"%" PRIu64 " block addresses were impossible (those parts of the files "
			"are gone)\n", r->missing_nodes, r->bad_pointers);
	if (wrote)
		fprintf(out, "  written: NAT, SIT, summaries, checkpoint version %" PRIu64 " in "
			"pack %u; the check follows\n", r->cp_ver, r->pack + 1);
	else
		fprintf(out, "  nothing written (-n or --dry-run)\n");
}

int fsck_rebuild(struct fsck_ctx *ctx, const char *path, const char *shown,
		 const struct zf2fs_log *log)
{
	struct zf2fs_rebuild_report rep;
	char why[2][256];
	struct zf2fs_vol *vol;
	bool write = !ctx->no_writes;
	int err;

	err = zf2fs_vol_open(&path, 1, (write ? ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL : 0) |
			     ZF2FS_VOL_NO_CHECKPOINT | ZF2FS_VOL_BLOCK16K, log, &vol);
	if (err) {
		if (err == -ZF2FS_EFSCORRUPTED)
			fprintf(stderr, PROG ": %s: no usable superblock: cannot rebuild it\n", shown);
		else if (err != -ZF2FS_EUNWRITABLE)
			fprintf(stderr, PROG ": %s: while opening %s\n", strerror(-err), shown);
		return err == -ZF2FS_EFSCORRUPTED || err == -ZF2FS_EUNWRITABLE ?
		       FSCK_UNCORRECTED : FSCK_ERROR;
	}
	if (zf2fs_vol_info(vol)->features & ZF2FS_FEAT_DEVICE_ALIAS) {
		fprintf(stderr, PROG ": %s: a volume with device aliases cannot be rebuilt (an "
			"alias file's blocks have no owner in the node blocks)\n", shown);
		zf2fs_vol_close(vol);
		return FSCK_UNCORRECTED;
	}
	/* tests: a write error after so many writes, as for the repair (main.c) */
	if (getenv("ZF2FS_FAULT_WRITES"))
		zs_dev_fail_writes_after(zf2fs_vol_dev(vol, 0),
					 strtoul(getenv("ZF2FS_FAULT_WRITES"), NULL, 10));
	err = zf2fs_vol_rebuild(vol, write ? 0 : ZF2FS_REBUILD_DRY_RUN, &rep);
	if (ctx->debug)
		fprintf(ctx->json ? stderr : ctx->out, "  %" PRIu64 " blocks written\n",
			zs_dev_write_count(zf2fs_vol_dev(vol, 0)));
	for (int i = 0; i < 2; i++)
		snprintf(why[i], sizeof(why[i]), "%s", zf2fs_vol_cp_problem(vol, i));
	zf2fs_vol_close(vol);
	if (err == -EROFS) {
		fprintf(stderr, PROG ": %s: a read-only volume (no summary area) cannot be "
			"rebuilt\n", shown);
		return FSCK_UNCORRECTED;
	}
	if (err == -ENOSPC) {
		fprintf(stderr, PROG ": %s: the blocks found leave no six free sections for the "
			"logs: nothing written\n", shown);
		return FSCK_UNCORRECTED;
	}
	if (err) {
		fprintf(stderr, PROG ": %s: while rebuilding %s: %s\n", strerror(-err), shown,
			!write ? "nothing was written" :
			rep.written ? "the rebuilt checkpoint is in use, its second copy not "
				      "written: run fsck again" :
			"the volume is as it was");
		return FSCK_UNCORRECTED | FSCK_ERROR;
	}
	ctx->rebuilt_blind = !rep.had_checkpoint || !rep.sit_used;
	report(ctx->json ? stderr : ctx->out, shown, &rep, write,
	       (const char *[2]){ why[0], why[1] });
	return write ? 0 : FSCK_UNCORRECTED;
}
