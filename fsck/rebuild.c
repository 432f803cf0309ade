// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rebuild.c - fsck.f2fs --rebuild: when the checkpoint packs, the NAT or the SIT are gone,
 * the library finds the node blocks on the main area and writes the tables and a new
 * checkpoint from them (lib/write/rebuild.c); the full check that follows in main.c then
 * reconnects what lost its directory (lost+found), fixes link counts and quotas.  Here:
 * opening the volume without a checkpoint (and, when both superblock copies are gone,
 * writing the one the library finds again first), and saying what was found, kept and
 * lost.
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
#include "zf2fs/endian.h"

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

/* Whether either superblock place still carries the magic: a superblock that is damaged
 * rather than gone is not replaced by a guess. */
static bool super_left(struct zf2fs_dev *dev)
{
	uint8_t blk[2 * ZF2FS_BLKSIZE];

	if (zf2fs_dev_read(dev, blk, sizeof(blk), 0))
		return true;
	for (int c = 0; c < 2; c++)
		if (zf2fs_get_le32p(blk + c * ZF2FS_BLKSIZE + ZF2FS_SUPER_OFFSET) == ZF2FS_MAGIC)
			return true;
	return false;
}

static void report_super(FILE *out, const char *shown, const struct zf2fs_super_found *f)
{
	fprintf(out, "%s: both superblock copies are gone: one made again from the blocks "
		"found\n", shown);
	fprintf(out, "  layout: mkfs.f2fs's defaults for this device: %u segments, main area "
		"from block %u%s\n", f->lay.segment_count, f->lay.main_blkaddr,
		f->lay.zoned ? ", a section per zone" : "");
	fprintf(out, "  found: %" PRIu64 " blocks that look like nodes, %" PRIu64 " inodes; "
		"%s\n", f->nodes, f->inodes, f->cp_pack >= 0 ?
		(f->cp_pack ? "checkpoint pack 2 is valid at its place" :
		 "checkpoint pack 1 is valid at its place") :
		f->cp_foreign ? "a checkpoint pack there was written for another layout: "
		"cleared, not used" : "no checkpoint pack at its place");
	fprintf(out, "  features (from the inodes):");
	for (uint32_t bit = 1; bit; bit <<= 1)
		if ((f->features & bit) && zf2fs_feature_name(bit))
			fprintf(out, " %s", zf2fs_feature_name(bit));
	fprintf(out, "%s\n", f->features ? "" : " none");
	if (f->seed_found)
		fprintf(out, "  inode checksums: %" PRIu64 " of %" PRIu64 " inodes agree on one "
			"seed; the new UUID gives it\n", f->seed_votes, f->seed_inodes);
	fprintf(out, "  not found again: the label, the extension lists, mkfs options other "
		"than the defaults\n");
}

/* Both superblock copies gone: make one again (zf2fs_super_find) and, unless @write is
 * false, write it.  0 when it was written, else the exit bits. */
static int find_super(const char *path, const char *shown, bool write, FILE *out)
{
	struct zf2fs_super_found *f = calloc(1, sizeof(*f));
	char version[64];
	struct zf2fs_dev *dev;
	int err;

	if (!f)
		return FSCK_ERROR;
	err = zf2fs_dev_open(path, write ? ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL : 0, NULL, &dev);
	if (err) {
		fprintf(stderr, PROG ": %s: while opening %s\n", strerror(-err), shown);
		free(f);
		return FSCK_ERROR;
	}
	if (super_left(dev)) {
		fprintf(stderr, PROG ": %s: no usable superblock: its copies are damaged, not "
			"gone, and are not replaced by a guess: cannot rebuild it\n", shown);
		err = FSCK_UNCORRECTED;
		goto out;
	}
	snprintf(version, sizeof(version), "zf2fs-tools %s", zf2fs_version());
	err = zf2fs_super_find(dev, version, f);
	if (err) {
		if (err == -ZF2FS_EFSCORRUPTED)
			fprintf(stderr, PROG ": %s: both superblock copies are gone and none can be "
				"made again: %s; nothing written\n", shown, f->why);
		else
			fprintf(stderr, PROG ": %s: while looking for the volume on %s\n",
				strerror(-err), shown);
		err = err == -ZF2FS_EFSCORRUPTED ? FSCK_UNCORRECTED : FSCK_ERROR;
		goto out;
	}
	report_super(out, shown, f);
	if (!write) {
		fprintf(out, "  nothing written (-n or --dry-run)\n");
		err = FSCK_UNCORRECTED;
		goto out;
	}
	zs_dev_fail_writes_from_env(dev);
	err = zf2fs_super_found_write(dev, f);
	if (err) {
		fprintf(stderr, PROG ": %s: while writing the superblock of %s: run fsck "
			"--rebuild again\n", strerror(-err), shown);
		err = FSCK_UNCORRECTED | FSCK_ERROR;
		goto out;
	}
	fprintf(out, "  written: both superblock copies; the tables follow\n");
out:
	zf2fs_dev_close(dev);
	free(f);
	return err;
}

int fsck_rebuild(struct fsck_ctx *ctx, const char *path, const char *shown,
		 const struct zf2fs_log *log)
{
	struct zf2fs_rebuild_report rep;
	char why[2][256];
	struct zf2fs_vol *vol;
	bool write = !ctx->no_writes;
	int err;

	unsigned oflags = (write ? ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL : 0) |
			  ZF2FS_VOL_NO_CHECKPOINT | ZF2FS_VOL_BLOCK16K;

	err = zf2fs_vol_open(&path, 1, oflags, log, &vol);
	if (err == -ZF2FS_EFSCORRUPTED) {
		int bits = find_super(path, shown, write, ctx->json ? stderr : ctx->out);

		if (bits)
			return bits;
		err = zf2fs_vol_open(&path, 1, oflags, log, &vol);
	}
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
	zs_dev_fail_writes_from_env(zf2fs_vol_dev(vol, 0));
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
