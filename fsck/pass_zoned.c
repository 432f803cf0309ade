// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_zoned.c - pass 8: the zones under a zoned volume against the checkpoint.
 *
 * Only for volumes with the blkzoned feature opened on their zoned block devices; on an
 * image file (or a build without libzbd) the zone state cannot be read, and one line says
 * so.  For each main-area section on a sequential-write-required zone, with the SIT of
 * pass 3 and the blocks pass 4 found owned:
 *  - no block in use may sit at or beyond the zone's write pointer (its contents were
 *    never written, or were lost by a reset); the fix finishes the zone so that it reads
 *    back and takes no more writes;
 *  - each current segment's next write position must be the zone's write pointer, or the
 *    kernel's next write to that log fails; the fix moves the log to an empty zone (the
 *    repair writer does it when it writes the new checkpoint), or, when the zone holds
 *    nothing in use and the log is at its start, resets the zone;
 *  - a zone that holds nothing in use should have its write pointer at its start; the
 *    fix resets it;
 *  - a zone no log writes to that holds blocks in use should be full (Linux 7.3 finishes
 *    it at mount); the fix finishes it, and so does moving a log out of its zone.
 * A zone is only ever reset when nothing the current checkpoint uses is in it: no block
 * marked valid by the SIT or found owned, and no fsync'd data awaiting roll-forward
 * (whose node chain may run through free zones: the pass then resets nothing).  Finishing
 * writes nothing.  So these immediate zone operations never break the current checkpoint,
 * and moving a log goes through repair.c's checkpoint written last.
 * Builds nothing for later passes.
 */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/endian.h"
#include "zf2fs/zoned.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

static bool found_bit(const struct fsck_ctx *ctx, uint64_t seg, uint32_t off)
{
	uint64_t b = zf2fs_main_blk(0, (uint32_t)seg, off);

	return found_test(ctx, b);
}

/* Nothing in the section is valid, by the SIT as recorded or by what pass 4 found. */
static bool section_unused(const struct fsck_ctx *ctx, uint32_t sec)
{
	uint32_t sps = ctx->vi->segs_per_sec;

	for (uint32_t k = 0; k < sps; k++) {
		uint32_t s = sec * sps + k;

		if (s >= ctx->vi->main_segs)
			break;
		if (zf2fs_sit_valid_blocks(sit_get(ctx, s)) || seg_found_get(ctx, s))
			return false;
	}
	return true;
}

/* Offset in the section of the last block in use (SIT or found), -1 when none. */
static int64_t last_in_use(const struct fsck_ctx *ctx, const struct zf2fs_sec_zone *z)
{
	uint32_t sps = ctx->vi->segs_per_sec;
	int64_t last = z->last_valid;

	for (uint32_t k = 0; k < sps; k++) {
		uint64_t s = (uint64_t)z->secno * sps + k;

		if (s >= ctx->vi->main_segs)
			break;
		for (uint32_t b = 0; b < BPS; b++)
			if (found_bit(ctx, s, b) &&
			    (int64_t)zf2fs_sec_blk_pos(sps, (uint32_t)s, b) > last)
				last = (int64_t)zf2fs_sec_blk_pos(sps, (uint32_t)s, b);
	}
	return last;
}

static int curseg_log_of(const uint32_t cur[ZF2FS_NR_CURSEG], uint32_t sps, uint32_t sec)
{
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
		if (cur[t] / sps == sec)
			return t;
	return -1;
}

static void wp_words(const struct zf2fs_sec_zone *z, char *buf, size_t len)
{
	if (z->wp_blocks >= z->cap_blocks)
		snprintf(buf, len, "block %u, the zone is full", z->wp_blocks);
	else
		snprintf(buf, len, "block %u%s", z->wp_blocks, z->wp_partial ? " (unaligned)" : "");
}

static void zone_error(struct fsck_ctx *ctx, int err, const char *doing,
		       const struct zf2fs_sec_zone *z)
{
	fprintf(stderr, "fsck.f2fs: %s: while %s the zone at block %" PRIu64 " (section %u)\n",
		strerror(-err), doing, z->zone_blkaddr, z->secno);
	ctx->exit_bits |= FSCK_UNCORRECTED;
}

/* Finishes zone @z (its write pointer to its capacity), which writes nothing, and keeps
 * the zone report as the device now has it. */
static void finish_zone(struct fsck_ctx *ctx, struct zf2fs_sec_zone *z)
{
	int err = zf2fs_vol_finish_zone(ctx->vol, z);

	if (err) {
		zone_error(ctx, err, "finishing", z);
		return;
	}
	z->cond = ZF2FS_ZONE_FULL;
	z->wp_blocks = z->cap_blocks;
}

/* Blocks in use at or beyond the write pointer. */
static void check_beyond_wp(struct fsck_ctx *ctx, struct zf2fs_sec_zone *z)
{
	int64_t last = last_in_use(ctx, z);
	char wp[64];

	if (last < 0 || (uint64_t)last < z->wp_blocks)
		return;
	wp_words(z, wp, sizeof(wp));
	if (!fix_problem(ctx, PR_8_VALID_BEYOND_WP, &(struct problem_ctx){
			.blkaddr = z->zone_blkaddr, .segno = z->secno * ctx->vi->segs_per_sec,
			.num = (uint64_t)last, .str = wp }))
		return;
	finish_zone(ctx, z);
}

/* A current segment's next write against its zone's write pointer. */
static void check_curseg(struct fsck_ctx *ctx, struct zf2fs_sec_zone *z, int t, uint32_t seg,
			 uint32_t blkoff)
{
	uint64_t pos = zf2fs_sec_blk_pos(ctx->vi->segs_per_sec, seg, blkoff);
	bool unused = section_unused(ctx, z->secno) && !ctx->needs_recovery;
	char wp[64];
	int err;

	if (pos == z->wp_blocks && !z->wp_partial)
		return;
	if (ctx->needs_recovery && pos < z->wp_blocks) {
		/* blocks after the checkpoint: the kernel replays them at mount */
		if (ctx->debug >= 2) {
			zs_progress_clear(&ctx->prog);
			fprintf(ctx->out, "log %d: write pointer ahead of the checkpoint (fsync'd "
				"data awaiting roll-forward)\n", t);
		}
		return;
	}
	wp_words(z, wp, sizeof(wp));
	if (!fix_problem(ctx, PR_8_CURSEG_WP_MISMATCH, &(struct problem_ctx){
			.segno = seg, .num = (uint64_t)t, .num2 = pos, .str = wp }))
		return;
	if (unused && pos == 0) {
		/* an empty log at the zone start: rewind the zone, the log stays */
		err = zf2fs_vol_reset_zone(ctx->vol, z);
		if (err)
			zone_error(ctx, err, "resetting", z);
		else
			z->wp_blocks = 0;
		return;
	}
	/* the repair writer retires the log and starts it in an empty zone; the zone it
	 * leaves is reset when it holds nothing, else finished, as Linux 7.3 treats it once
	 * no log writes to it (check_not_full) */
	ctx->curseg_fix[t] = (int32_t)BPS;
	repair_mark_checkpoint(ctx);
	if (unused) {
		err = zf2fs_vol_reset_zone(ctx->vol, z);
		if (err)
			zone_error(ctx, err, "resetting", z);
	} else if (z->wp_blocks < z->cap_blocks) {
		finish_zone(ctx, z);
	}
}

/*
 * A zone no log writes to that holds blocks in use, all below its write pointer, and is
 * not full: Linux 7.3 finishes it at mount (check_zone_write_pointer), so that it counts
 * no longer against the device's open zones; older kernels leave it open.  The fix
 * finishes it, which writes nothing.
 */
static void check_not_full(struct fsck_ctx *ctx, struct zf2fs_sec_zone *z)
{
	char wp[64];

	if (z->cond == ZF2FS_ZONE_FULL || z->wp_blocks >= z->cap_blocks ||
	    section_unused(ctx, z->secno) || ctx->needs_recovery)
		return;
	wp_words(z, wp, sizeof(wp));
	if (!fix_problem(ctx, PR_8_ZONE_NOT_FULL, &(struct problem_ctx){
			.blkaddr = z->zone_blkaddr, .segno = z->secno * ctx->vi->segs_per_sec,
			.num = (uint64_t)last_in_use(ctx, z), .str = wp }))
		return;
	finish_zone(ctx, z);
}

static void check_unused(struct fsck_ctx *ctx, struct zf2fs_sec_zone *z)
{
	int err;

	if (z->wp_blocks == 0 && !z->wp_partial)
		return;
	if (!section_unused(ctx, z->secno) || ctx->needs_recovery)
		return;
	if (!fix_problem(ctx, PR_8_ZONE_NOT_RESET, &(struct problem_ctx){
			.blkaddr = z->zone_blkaddr, .segno = z->secno * ctx->vi->segs_per_sec,
			.num = z->wp_blocks }))
		return;
	err = zf2fs_vol_reset_zone(ctx->vol, z);
	if (err)
		zone_error(ctx, err, "resetting", z);
	else
		z->wp_blocks = 0;
}

/* The zone report wants the SIT as one array: built for the call only. */
static int zoned_read_zones(struct fsck_ctx *ctx)
{
	uint32_t segs = ctx->vi->main_segs;
	struct zf2fs_sit_entry *flat = calloc(segs + 1, sizeof(*flat));
	int err;

	if (!flat)
		return -ENOMEM;
	for (uint32_t s = 0; s < segs; s++)
		flat[s] = *sit_get(ctx, s);
	err = zf2fs_vol_zones(ctx->vol, flat, &ctx->zones, &ctx->nzones);
	free(flat);
	return err;
}

void zoned_prepare(struct fsck_ctx *ctx)
{
	if (ctx->zones_loaded || !zf2fs_vol_is_zoned(ctx->vol) || !ctx->sit)
		return;
	ctx->zones_loaded = true;
	ctx->zones_err = zoned_read_zones(ctx);
	if (ctx->zones_err)
		return;
	/* zones the kernel would not mount (capacities that differ): counts unknown.  As
	 * Linux 6.1 counts, one capacity holds for every section of the main area, those on
	 * conventional zones and on a regular first device included (zf2fs_free_segs). */
	ctx->zone_cap_known = !zf2fs_vol_zone_unusable(ctx->vol, &ctx->zone_unusable);
}

int pass8_zoned(struct fsck_ctx *ctx)
{
	const char *path = zf2fs_dev_path(zf2fs_vol_dev(ctx->vol, 0));
	uint32_t cur[ZF2FS_NR_CURSEG], blkoff[ZF2FS_NR_CURSEG], nr;
	uint32_t sps = ctx->vi->segs_per_sec ? ctx->vi->segs_per_sec : 1;
	struct zf2fs_sec_zone *zones;
	int err;

	if (!zf2fs_vol_is_zoned(ctx->vol) || !ctx->sit)
		return 0;
	zoned_prepare(ctx);
	err = ctx->zones_err;
	if (err == -ENODEV) {
		fprintf(ctx->out, "%s: zoned volume on a device without zones (an image file?): "
			"write pointers and zone capacities not checked\n", path);
		return 0;
	}
	if (err == -ENOTSUP) {
		fprintf(ctx->out, "%s: zoned volume, but this build has no zoned device support "
			"(libzbd): write pointers and zone capacities not checked\n", path);
		return 0;
	}
	if (err) {
		fprintf(stderr, "fsck.f2fs: %s: while reading the zones of %s: write pointers not "
			"checked\n", strerror(-err), path);
		ctx->exit_bits |= FSCK_UNCORRECTED;
		return 0;
	}
	zones = ctx->zones;
	nr = ctx->nzones;
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
		zf2fs_vol_curseg(ctx->vol, t, &cur[t], &blkoff[t]);
	/* blocks beyond the write pointer first: finishing a zone changes what follows */
	for (uint32_t sec = 0; sec < nr && !ctx->abort; sec++)
		if (zones[sec].type == ZF2FS_ZONE_SEQ_REQ)
			check_beyond_wp(ctx, &zones[sec]);
	for (int t = 0; t < ZF2FS_NR_CURSEG && !ctx->abort; t++) {
		uint32_t sec = cur[t] / sps;

		if (sec < nr && zones[sec].type == ZF2FS_ZONE_SEQ_REQ)
			check_curseg(ctx, &zones[sec], t, cur[t], blkoff[t]);
	}
	for (uint32_t sec = 0; sec < nr && !ctx->abort; sec++)
		if (zones[sec].type == ZF2FS_ZONE_SEQ_REQ && curseg_log_of(cur, sps, sec) < 0) {
			check_unused(ctx, &zones[sec]);
			check_not_full(ctx, &zones[sec]);
		}
	if (ctx->debug >= 2) {
		uint32_t seq = 0;

		for (uint32_t sec = 0; sec < nr; sec++)
			seq += zones[sec].type == ZF2FS_ZONE_SEQ_REQ;
		zs_progress_clear(&ctx->prog);
		fprintf(ctx->out, "checked the write pointers of %u sequential zones\n", seq);
	}
	free(ctx->zones);
	ctx->zones = NULL;
	return 0;
}
