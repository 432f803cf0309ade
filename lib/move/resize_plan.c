// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * resize_plan.c - what a resize takes (zf2fs_resize_plan) and the steps that do it
 * (zf2fs_resize_devs), each one a crash-safe write: see include/zf2fs/resize.h for the
 * order and why each intermediate volume mounts.  The relocated metadata areas are
 * written by lib/move/resize_meta.c.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"
#include "zf2fs/move.h"
#include "zf2fs/resize.h"
#include "zf2fs/txn.h"
#include "zf2fs/zoned.h"
#include "zf2fs-internal/format.h"
#include "zf2fs-internal/volume.h"
#include "format/layout_p.h"
#include "move/resize_p.h"
#include "format/why_p.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

/* ---- the space policy of a main area ----------------------------------------------------- */
/* @usable: the segments of the main area data can use (zf2fs_layout_usable; on a
 * volume without zones, the main area's). */
static int space_for(const struct zf2fs_vol_info *vi, const struct zf2fs_geom *g,
		     uint32_t segment_count, uint32_t main_segs, uint32_t usable, double ratio,
		     struct zf2fs_layout *lay, char *why, size_t whylen)
{
	struct zf2fs_layout_opts lo = { .overprovision = ratio };

	memset(lay, 0, sizeof(*lay));
	lay->log_blocksize = g->log_blocksize;
	lay->segs_per_sec = vi->segs_per_sec;
	lay->secs_per_zone = vi->secs_per_zone;
	lay->segs_per_zone = vi->segs_per_sec * vi->secs_per_zone;
	lay->segment_count = segment_count;
	lay->segment_count_main = main_segs;
	lay->section_count = main_segs / vi->segs_per_sec;
	lay->usable_segments = usable;
	return zf2fs_layout_space(lay, &lo, why, whylen);
}

/* ---- zoned volumes ------------------------------------------------------------------------ */
/* The geometry of the volume's devices, for the usable-segment rule of mkfs.  -EOPNOTSUPP
 * when no device reports zones (a zoned volume copied to an image file: the zone
 * capacities, which the space policy needs, are not on disk). */
static int zoned_geoms(struct zf2fs_vol *vol, struct zf2fs_dev_geom *g, char *why, size_t whylen)
{
	unsigned nd = zf2fs_vol_ndevs(vol);
	bool any = false;

	for (unsigned i = 0; i < nd; i++) {
		int err = zf2fs_dev_geometry(zf2fs_vol_dev(vol, i), &g[i]);

		if (err)
			return zf2fs_set_why(why, whylen, err, "cannot read the geometry of device "
					     "%u", i);
		any |= g[i].zone_model != ZF2FS_ZONED_NONE;
	}
	if (!any)
		return zf2fs_set_why(why, whylen, -EOPNOTSUPP, "zoned volume on devices without "
				     "zones (an image file?): resize it on its zoned devices");
	return 0;
}

/* The usable segments of the volume when its last device holds @last_segs segments
 * (counted from segment 0 on a single device), segment 0 and the main area start at
 * @seg0 and @main_blkaddr, device 0 loses @dev0_cut segments (segment 0 moved by that
 * much) and the main area has @main_segs: what mkfs gives a device of that size, whose
 * zones past the new end are gone.  Volumes without zones: the main area. */
static uint32_t usable_for(struct zf2fs_vol *vol, const struct zf2fs_dev_geom *geoms,
			   uint32_t seg0, uint32_t main_blkaddr, int64_t dev0_cut,
			   uint64_t last_segs, uint32_t main_segs)
{
	const struct zf2fs_super *sb = zf2fs_vol_super(vol);
	unsigned nd = zf2fs_vol_ndevs(vol);
	struct zf2fs_dev_geom g[ZF2FS_MAX_DEVICES];
	struct zf2fs_layout lay = { 0 };
	struct zf2fs_dev_geom *last = &g[nd - 1];

	if (!geoms)
		return main_segs;
	memcpy(g, geoms, nd * sizeof(*g));
	lay.zoned = true;
	lay.log_blocksize = zf2fs_vol_geom(vol)->log_blocksize;
	lay.segment0_blkaddr = seg0;
	lay.main_blkaddr = main_blkaddr;
	lay.segment_count_main = main_segs;
	for (unsigned i = 0; i + 1 < nd; i++)
		lay.dev_segments[i] = (uint32_t)((int64_t)zf2fs_get(sb->devs[i].total_segments) -
						 (i ? 0 : dev0_cut));
	lay.dev_segments[nd - 1] = (uint32_t)last_segs;
	/* the last device cut (or grown) to its new size, in whole zones */
	last->bytes = last_segs * zf2fs_vol_geom(vol)->seg_bytes +
		      (nd == 1 ? (uint64_t)seg0 * zf2fs_vol_geom(vol)->blocksize : 0);
	if (last->zone_model != ZF2FS_ZONED_NONE && last->zone_bytes) {
		last->nr_zones = (uint32_t)(last->bytes / last->zone_bytes);
		if (last->nr_conv_zones > last->nr_zones)
			last->nr_conv_zones = last->nr_zones;
	}
	return zf2fs_layout_usable(g, nd, &lay);
}

/* The overprovision ratio the volume was made with, so that the new size follows the same
 * rule: 0 (mkfs's default, the ratio leaving most space) when the current counts are what
 * that rule gives; else the ratio the reserved count was made from (the reserved
 * segments are (100 / ratio + 1 + 6 logs) sections, rounded down). */
static double kept_ratio(const struct zf2fs_vol_info *vi, const struct zf2fs_geom *g,
			 const struct zf2fs_checkpoint *cp, uint32_t segment_count, uint32_t usable, char *note, size_t notelen)
{
	uint32_t rsvd = (uint32_t)zf2fs_get(cp->rsvd_segment_count);
	uint32_t ovp = (uint32_t)zf2fs_get(cp->overprov_segment_count);
	struct zf2fs_layout lay;
	double x, r;

	if (!space_for(vi, g, segment_count, vi->main_segs, usable, 0, &lay, NULL, 0) &&
	    lay.rsvd_segments == rsvd && lay.ovp_segments == ovp) {
		snprintf(note, notelen, "overprovision: mkfs's default rule, as the volume has");
		return 0;
	}
	x = (rsvd + 0.5) / vi->segs_per_sec - 1 - ZF2FS_NR_CURSEG;
	if (x <= 0) {
		snprintf(note, notelen, "overprovision: the volume's counts follow no known rule; "
			 "mkfs's default used");
		return 0;
	}
	r = 100 / x;
	snprintf(note, notelen, "overprovision: %.2f%%, the ratio the volume's reserved "
		 "segments were made with", r);
	return r;
}

static bool sit_empty(void *arg, uint32_t segno)
{
	return !zf2fs_sit_valid_blocks(&((const struct zf2fs_sit_entry *)arg)[segno]);
}

/* ---- the plan ------------------------------------------------------------------------------- */
/* Segments of the devices before the last (device 0 counted from segment 0). */
static uint64_t segs_before_last(const struct zf2fs_super *sb, unsigned nd)
{
	uint64_t s = 0;

	for (unsigned i = 0; i + 1 < nd; i++)
		s += zf2fs_get(sb->devs[i].total_segments);
	return s;
}

/* Main-area segments the SSA of @sb has a summary for (sums_per_block per block). */
static uint64_t ssa_covers(const struct zf2fs_super *sb, const struct zf2fs_geom *g)
{
	return (uint64_t)zf2fs_get(sb->segment_count_ssa) * BPS * g->sums_per_block;
}

static bool meta_covers(const struct zf2fs_super *sb, const struct zf2fs_vol_info *vi,
			const struct zf2fs_geom *g, uint32_t main_segs)
{
	return zf2fs_geom_sit_blocks(g, main_segs) <= vi->sit_blocks &&
	       (uint64_t)main_segs <= ssa_covers(sb, g);
}

/* Free sections in [@lo, @hi) (no valid block, no log) and valid blocks in them. */
static void sections_state(struct zf2fs_vol *vol, const struct zf2fs_sit_entry *sit, uint32_t lo,
			   uint32_t hi, uint32_t *ret_free, uint64_t *ret_valid)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);

	*ret_free = 0;
	*ret_valid = 0;
	for (uint32_t sec = lo; sec < hi; sec++) {
		bool empty = !zf2fs_resize_sec_has_log(vol, sec);

		for (uint32_t s = sec * vi->segs_per_sec; s < (sec + 1) * vi->segs_per_sec; s++) {
			*ret_valid += zf2fs_sit_valid_blocks(&sit[s]);
			if (zf2fs_sit_valid_blocks(&sit[s]))
				empty = false;
		}
		*ret_free += empty;
	}
}

bool zf2fs_resize_sec_has_log(struct zf2fs_vol *vol, uint32_t sec)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);

	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		uint32_t s, off;

		zf2fs_vol_curseg(vol, t, &s, &off);
		if (s / vi->segs_per_sec == sec)
			return true;
	}
	return false;
}

/* @valid moved blocks and the owner nodes the move rewrites along with them: a node
 * block per 32 moved blocks at most, counted generously. */
static uint64_t with_owner_nodes(uint64_t valid)
{
	return valid + (valid + 31) / 32;
}

/* Free sections a move of @valid blocks may take.  Where the zone capacity is known (no
 * zones, or the zone report gives it), the commits' logs fill every usable block of a
 * section and go on across commits where the last one stopped: the blocks and their
 * owner nodes (with_owner_nodes) over the section's usable blocks, plus a partly filled
 * section per log and a fresh one per log where it cannot go on.  Elsewhere (a zoned
 * volume read from an image file) a log writes only a section's first segment: a
 * section per segment (and a fresh one per log), which is never less than the packed
 * count with one segment per section. */
static uint32_t sections_for(struct zf2fs_vol *vol, uint64_t valid)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint64_t usable = 0, blocks = with_owner_nodes(valid);
	uint32_t unusable = 0, packed;
	uint32_t per_seg = (uint32_t)((valid + BPS - 1) / BPS) + ZF2FS_NR_CURSEG;

	if (!zf2fs_vol_is_zoned(vol) || !zf2fs_vol_zone_unusable(vol, &unusable))
		for (uint32_t k = 0; k < vi->segs_per_sec; k++)
			usable += zf2fs_seg_usable_blocks(vi, unusable, k);
	if (!usable)
		return per_seg;
	packed = (uint32_t)((blocks + usable - 1) / usable) + 2 * ZF2FS_NR_CURSEG;
	/* with one segment per section the count per segment is already the smaller */
	return packed < per_seg ? packed : per_seg;
}

/* Can the valid blocks of sections [@lo, @hi) move into the free sections outside it?
 * The mover writes into free sections, a section's worth at a time per log, and without
 * zones into the holes of dirty segments once none is free (SSR).  On a zoned volume,
 * when there are too few, but the partly valid sections outside hold enough free
 * blocks, *@ret_short gets the free sections still missing: the steps first empty the
 * emptiest of those sections into the free ones (compaction, as offline GC), then move. */
static int room_to_empty(struct zf2fs_vol *vol, const struct zf2fs_sit_entry *sit, uint32_t lo,
			 uint32_t hi, const char *what, uint32_t *ret_short, char *why,
			 size_t whylen)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint32_t free_in, free_all, need, free_out;
	uint64_t valid_in, valid_all, sec_blocks = (uint64_t)vi->segs_per_sec * BPS, room;

	sections_state(vol, sit, lo, hi, &free_in, &valid_in);
	sections_state(vol, sit, 0, vi->main_secs, &free_all, &valid_all);
	free_out = free_all - free_in;
	need = sections_for(vol, valid_in);
	*ret_short = 0;
	if (!valid_in || free_out >= need)
		return 0;
	/* free blocks outside, in sections no log holds */
	room = (uint64_t)(vi->main_secs - (hi - lo)) * sec_blocks - (valid_all - valid_in);
	for (uint32_t sec = 0; sec < vi->main_secs; sec++)
		if ((sec < lo || sec >= hi) && zf2fs_resize_sec_has_log(vol, sec))
			room -= room >= sec_blocks ? sec_blocks : room;
	/* without zones the logs go on into the holes of dirty segments once no free section
	 * is left (SSR, as the kernel's logs do): the free blocks outside must hold the moved
	 * ones, the owner nodes they take along and a segment per log */
	if (!zf2fs_vol_is_zoned(vol) &&
	    room >= with_owner_nodes(valid_in) + (uint64_t)ZF2FS_NR_CURSEG * BPS)
		return 0;
	if (free_out > ZF2FS_NR_CURSEG && room >= valid_in + (ZF2FS_NR_CURSEG + 1) * sec_blocks) {
		*ret_short = need - free_out;
		return 0;
	}
	return zf2fs_set_why(why, whylen, -ENOSPC, "%s: %llu blocks to move but only %llu free "
			     "blocks outside in %u free sections (%u needed)", what,
			     (unsigned long long)valid_in, (unsigned long long)room, free_out, need);
}

/* Give @lay (sized by zf2fs_layout_size_meta) a NAT of @nat_segs segments (both copies)
 * in place of mkfs's smaller one, so that every nid in use stays: the SIT bitmap moves
 * to cp_payload blocks if both bitmaps no longer fit in the CP block, and the SSA moves
 * along, padded again to a zone boundary. */
static int widen_nat(struct zf2fs_layout *lay, const struct zf2fs_layout_opts *lo,
		     uint32_t nat_segs, char *why, size_t whylen)
{
	uint32_t sit_bm = lay->segment_count_sit / 2 * BPS / 8;
	uint32_t nat_bm = nat_segs / 2 * BPS / 8;
	uint32_t meta;
	struct zf2fs_geom g;

	if (zf2fs_geom_init(&g, lay->log_blocksize, lo->features))
		return zf2fs_set_why(why, whylen, -EINVAL, "block size 2^%u", lay->log_blocksize);
	if (lo->large_nat_bitmap || nat_bm > g.cp_bitmap_room)
		return zf2fs_set_why(why, whylen, -ENOSPC, "the NAT cannot keep its %u segments in "
				     "the new layout", nat_segs);
	if (sit_bm + nat_bm > g.cp_bitmap_room && !lay->cp_payload)
		lay->cp_payload = (sit_bm + g.blocksize - 1) / g.blocksize;
	lay->ssa_blkaddr += (nat_segs - lay->segment_count_nat) * BPS;
	lay->segment_count_nat = nat_segs;
	lay->nat_bitmap_bytes = nat_bm;
	meta = lay->segment_count_ckpt + lay->segment_count_sit + lay->segment_count_nat +
	       lay->segment_count_ssa;
	lay->segment_count_ssa += (lay->segs_per_zone - meta % lay->segs_per_zone) %
				  lay->segs_per_zone;
	return 0;
}

/* Fitting the areas is no reason to fill the holes of dirty segments or to compact: the
 * first move empties sections [0, @evac) only into whole free sections outside them,
 * as many as sections_for counts (with a section to spare for each log). */
static int room_to_fit(struct zf2fs_vol *vol, const struct zf2fs_sit_entry *sit, uint32_t evac,
		       char *why, size_t whylen)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint32_t free_in, free_all, need;
	uint64_t valid_in, valid_all;

	sections_state(vol, sit, 0, evac, &free_in, &valid_in);
	sections_state(vol, sit, 0, vi->main_secs, &free_all, &valid_all);
	need = valid_in ? sections_for(vol, valid_in) : 0;
	if (free_all - free_in >= need)
		return 0;
	return zf2fs_set_why(why, whylen, -ENOSPC, "the main area's first %u sections hold %llu "
			     "blocks, and %u free sections are outside them (%u needed): free "
			     "space first (gc.f2fs collect) and run again", evac,
			     (unsigned long long)valid_in, free_all - free_in, need);
}

static int plan_relocation(struct zf2fs_vol *vol, const struct zf2fs_resize_opts *o,
			   struct zf2fs_resize_plan *p, uint64_t target_end_segs,
			   char *why, size_t whylen)
{
	const struct zf2fs_super *sb = zf2fs_vol_super(vol);
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint32_t spz = vi->segs_per_sec * vi->secs_per_zone;
	uint32_t seg0 = (uint32_t)zf2fs_get(sb->segment0_blkaddr);
	struct zf2fs_layout_opts lo = {
		.features = vi->features,
		.large_nat_bitmap = o->large_nat_bitmap ||
				    (vi->ckpt_flags & ZF2FS_CP_LARGE_NAT_BITMAP_FLAG),
	};
	const struct zf2fs_geom *g = zf2fs_vol_geom(vol);
	struct zf2fs_layout lay = { .log_blocksize = g->log_blocksize };
	uint32_t meta, gap;

	/* segment 0 moves onto the first block of the main area: the new areas take the
	 * first sections of the old main area, and the segments counted from there */
	gap = (vi->main_blkaddr - seg0) / BPS;
	if (target_end_segs <= gap)
		return zf2fs_set_why(why, whylen, -EINVAL, "target too small");
	lay.segs_per_sec = vi->segs_per_sec;
	lay.secs_per_zone = vi->secs_per_zone;
	lay.segs_per_zone = spz;
	lay.segment0_blkaddr = vi->main_blkaddr;
	lay.segment_count = (uint32_t)((target_end_segs - gap) / spz * spz);
	zf2fs_layout_size_meta(&lay, &lo);
	/* mkfs's NAT for the new size can be smaller than the old one (a larger SIT bitmap
	 * leaves the NAT bitmap less room in the CP block): every nid in use must stay, so
	 * the old NAT size is kept */
	if ((uint64_t)lay.segment_count_nat / 2 * BPS < vi->nat_blocks) {
		int err = widen_nat(&lay, &lo, (uint32_t)zf2fs_get(sb->segment_count_nat), why,
				    whylen);

		if (err)
			return err;
	}
	meta = lay.segment_count_ckpt + lay.segment_count_sit + lay.segment_count_nat +
	       lay.segment_count_ssa;
	if (meta % vi->segs_per_sec || meta >= lay.segment_count)
		return zf2fs_set_why(why, whylen, -ENOSPC, "no room for the new metadata areas");
	lay.main_blkaddr = lay.segment0_blkaddr + meta * BPS;
	p->new_main_segs = (lay.segment_count - meta) / spz * spz;
	lay.segment_count = meta + p->new_main_segs;
	if (zf2fs_geom_sit_blocks(g, p->new_main_segs) > lay.segment_count_sit / 2 * BPS ||
	    p->new_main_segs > (uint64_t)lay.segment_count_ssa * BPS * g->sums_per_block ||
	    (uint64_t)lay.segment_count_nat / 2 * BPS < vi->nat_blocks)
		return zf2fs_set_why(why, whylen, -ENOSPC, "the new metadata areas do not cover "
				     "the volume");
	p->relocate = true;
	p->large_nat_bitmap = lo.large_nat_bitmap;
	p->shift_segs = meta;
	p->evac_secs = meta / vi->segs_per_sec;
	if (p->evac_secs + ZF2FS_NR_CURSEG >= vi->main_secs)
		return zf2fs_set_why(why, whylen, -ENOSPC, "the new metadata areas (%u sections) "
				     "do not fit in the current main area", p->evac_secs);

	zf2fs_layout_set_areas(&lay, &p->sb);
	return 0;
}

/* Where the new metadata areas of relocating plan @p go must take them: wholly on the
 * first device (the superblock's device list gives segment 0 to it: a shorter device 0
 * is what moves segment 0), and, on a zoned volume, on conventional space only
 * (conventional zones or a device without zones), since Linux writes the checkpoint, SIT
 * and NAT in place.  The zone of every section involved is read from the zone report. */
static int relocation_room(struct zf2fs_vol *vol, const struct zf2fs_resize_plan *p, char *why,
			   size_t whylen)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint64_t first, last, end = zf2fs_get(p->sb.main_blkaddr);
	struct zf2fs_sec_zone *z = NULL;
	uint32_t nr = 0;
	int err = zf2fs_vol_dev_range(vol, 0, &first, &last);

	if (err)
		return zf2fs_set_why(why, whylen, err, "cannot find the first device's blocks");
	if (end - 1 > last)
		return zf2fs_set_why(why, whylen, -ENOSPC, "the new metadata areas (blocks %llu-%llu) "
				     "do not fit on the first device (its last block is %llu): a "
				     "multi-device volume grows past its SIT and SSA only when the "
				     "first device holds them", (unsigned long long)vi->main_blkaddr,
				     (unsigned long long)(end - 1), (unsigned long long)last);
	if (!zf2fs_vol_is_zoned(vol))
		return 0;
	err = zf2fs_vol_zones(vol, NULL, &z, &nr);
	if (err)
		return zf2fs_set_why(why, whylen, err, "cannot read the zones of the sections the "
				     "new metadata areas take");
	for (uint32_t sec = 0; sec < p->evac_secs && !err; sec++) {
		if (sec >= nr)
			err = zf2fs_set_why(why, whylen, -EIO, "no zone record for section %u", sec);
		else if (z[sec].type != ZF2FS_ZONE_CONV && z[sec].type != ZF2FS_ZONE_NONE)
			err = zf2fs_set_why(why, whylen, -EOPNOTSUPP, "a zoned volume's metadata areas "
					    "move only onto conventional space: the new areas need "
					    "main-area sections 0-%u conventional, section %u is on a "
					    "sequential zone of device %u",
					    p->evac_secs - 1, sec, z[sec].dev);
	}
	free(z);
	return err;
}

/* ---- fitting the metadata areas to the size ------------------------------------------------ */
/* NAT blocks (of a copy) the nids in use need: one past the last block holding an entry
 * in use (an owner or an address), counted from @from on, the checkpoint's NAT journal
 * included; @from when none past it is.  Reads the NAT from its end down to the first
 * block in use. */
static int nat_blocks_in_use(struct zf2fs_vol *vol, uint32_t from, uint32_t *ret_blocks)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	const struct zf2fs_geom *g = zf2fs_vol_geom(vol);
	const struct zf2fs_journal *j = zf2fs_vol_nat_journal(vol);
	uint32_t nj = (uint32_t)zf2fs_get(j->n_entries), used = from;
	uint8_t *blk;
	int err = 0;

	if (nj > g->nat_journal_entries)
		nj = g->nat_journal_entries;
	for (uint32_t i = 0; i < nj; i++) {
		const struct zf2fs_nat_journal_entry *je = zf2fs_journal_nat(j, i);
		uint32_t nid = (uint32_t)zf2fs_get(je->nid);
		const struct zf2fs_nat_entry *e = &je->ne;

		if (nid < vi->max_nid && (zf2fs_get(e->ino) || zf2fs_get(e->block_addr)) &&
		    zf2fs_geom_nat_block_index(g, nid) + 1 > used)
			used = zf2fs_geom_nat_block_index(g, nid) + 1;
	}
	blk = malloc(g->blocksize);
	if (!blk)
		return -ENOMEM;
	for (uint32_t b = vi->nat_blocks; b-- > used && !err;) {
		err = zf2fs_vol_read_block(vol, zf2fs_vol_nat_block_addr(vol, b), blk);
		for (uint32_t e = 0; e < g->nat_per_block && !err; e++)
			if (zf2fs_get(zf2fs_nat_block_entry(blk, e)->ino) ||
			    zf2fs_get(zf2fs_nat_block_entry(blk, e)->block_addr)) {
				used = b + 1;
				break;
			}
	}
	free(blk);
	*ret_blocks = used;
	return err;
}

/* Whether areas laid out as @lay (from "home" @home) are worth fitting a volume whose
 * segment 0 is at @seg0 to: they go home when the space below segment 0 holds them;
 * else the first move, for areas at home larger than the size needs by a zone or more
 * (a shrink's), or areas a grow moved only with a SIT or SSA larger than that: their
 * NAT can be larger than mkfs gives, kept for the nids (plan_relocation), and is not
 * worth moving every area twice for.  Larger areas in @lay never make it true. */
static bool fit_applies(const struct zf2fs_super *sb, const struct zf2fs_vol_info *vi,
			const struct zf2fs_layout *lay, uint32_t home, uint32_t seg0)
{
	uint32_t meta = lay->segment_count_ckpt + lay->segment_count_sit +
			lay->segment_count_nat + lay->segment_count_ssa;
	uint32_t main_home = home + meta * BPS, cur = (vi->main_blkaddr - seg0) / BPS;

	if (main_home >= vi->main_blkaddr)
		return false;
	return seg0 >= main_home ||
	       (cur >= meta + lay->segs_per_zone &&
		(seg0 == home ||
		 (uint32_t)zf2fs_get(sb->segment_count_sit) > lay->segment_count_sit ||
		 (uint32_t)zf2fs_get(sb->segment_count_ssa) > lay->segment_count_ssa));
}

/* The next move of fitting the metadata areas to the size (include/zf2fs/resize.h), in
 * @p: the areas mkfs gives a volume from "home" (where mkfs puts segment 0: segment 0's
 * place modulo a zone, past the superblocks) to the main area's end, with a NAT that
 * keeps every nid in use; when fit_applies, they go home if the space below segment 0
 * holds them (the second move), else into the main area's first sections (the first
 * move).  Nothing set when fitting does not apply. */
static int plan_fit(struct zf2fs_vol *vol, struct zf2fs_resize_plan *p, char *why, size_t whylen)
{
	const struct zf2fs_super *sb = zf2fs_vol_super(vol);
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_layout_opts lo = {
		.features = vi->features,
		.large_nat_bitmap = vi->ckpt_flags & ZF2FS_CP_LARGE_NAT_BITMAP_FLAG,
	};
	struct zf2fs_layout lay = { .log_blocksize = zf2fs_vol_geom(vol)->log_blocksize };
	uint32_t spz = vi->segs_per_sec * vi->secs_per_zone, zone_blks = spz * BPS;
	uint32_t seg0 = (uint32_t)zf2fs_get(sb->segment0_blkaddr), home = seg0 % zone_blks;
	uint32_t meta, used, main_home;
	uint64_t end = seg0 + (uint64_t)zf2fs_get(sb->segment_count) * BPS;
	int err;

	if (home < 2)
		home += zone_blks;
	if (seg0 < home || end <= home)
		return 0;
	lay.segs_per_sec = vi->segs_per_sec;
	lay.secs_per_zone = vi->secs_per_zone;
	lay.segs_per_zone = spz;
	lay.segment0_blkaddr = home;
	lay.segment_count = (uint32_t)((end - home) / BPS);
	zf2fs_layout_size_meta(&lay, &lo);
	/* a NAT widened for the nids in use only makes the areas larger: the NAT is read
	 * only when mkfs's areas would be worth it */
	if (!fit_applies(sb, vi, &lay, home, seg0))
		return 0;
	err = nat_blocks_in_use(vol, lay.segment_count_nat / 2 * BPS, &used);
	if (err)
		return zf2fs_set_why(why, whylen, err, "cannot read the NAT");
	if (used > lay.segment_count_nat / 2 * BPS) {
		err = widen_nat(&lay, &lo, (used + BPS - 1) / BPS * 2, why, whylen);
		if (err)
			return err;
		if (!fit_applies(sb, vi, &lay, home, seg0))
			return 0;
	}
	meta = lay.segment_count_ckpt + lay.segment_count_sit + lay.segment_count_nat +
	       lay.segment_count_ssa;
	main_home = home + meta * BPS;
	p->fit = true;
	if (seg0 >= main_home) {
		/* home, below segment 0: the segments between join the main area, free */
		uint32_t rise = (vi->main_blkaddr - main_home) / BPS;

		if (rise % vi->segs_per_sec || (vi->main_blkaddr - main_home) % BPS)
			return zf2fs_set_why(why, whylen, -EINVAL, "the main area does not start on "
					     "a section boundary counted from block %u", home);
		lay.main_blkaddr = main_home;
		p->new_main_segs = vi->main_segs + rise;
		lay.segment_count = meta + p->new_main_segs;
		if (home + (uint64_t)lay.segment_count * BPS != end)
			return zf2fs_set_why(why, whylen, -EINVAL, "the main area's end is not a "
					     "whole number of segments from block %u", home);
		p->rise_segs = rise;
	} else {
		/* first into the main area's first sections, as a grow moves them */
		uint32_t off = vi->main_blkaddr - home;

		lay.segment0_blkaddr += off;
		lay.cp_blkaddr += off;
		lay.sit_blkaddr += off;
		lay.nat_blkaddr += off;
		lay.ssa_blkaddr += off;
		lay.main_blkaddr = main_home + off;
		p->new_main_segs = vi->main_segs - meta;
		lay.segment_count = vi->main_segs;
		p->shift_segs = meta;
		p->evac_secs = meta / vi->segs_per_sec;
		if (p->evac_secs + ZF2FS_NR_CURSEG >= vi->main_secs)
			return zf2fs_set_why(why, whylen, -ENOSPC, "the main area is too small to "
					     "hold the areas for a while");
	}
	p->relocate = true;
	p->large_nat_bitmap = lo.large_nat_bitmap;
	zf2fs_layout_set_areas(&lay, &p->sb);
	return 0;
}

static int plan(struct zf2fs_vol *vol, const struct zf2fs_resize_opts *o,
		struct zf2fs_resize_plan *p, bool fit, char *why, size_t whylen)
{
	const struct zf2fs_super *sb = zf2fs_vol_super(vol);
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	const struct zf2fs_checkpoint *cp = zf2fs_vol_checkpoint(vol);
	const struct zf2fs_geom *g = zf2fs_vol_geom(vol);
	unsigned nd = zf2fs_vol_ndevs(vol);
	uint32_t spz = vi->segs_per_sec * vi->secs_per_zone;
	uint32_t seg0 = (uint32_t)zf2fs_get(sb->segment0_blkaddr);
	uint64_t last_start, new_last, target_end_segs;
	struct zf2fs_sit_entry *sit = NULL;
	struct zf2fs_dev_geom geoms[ZF2FS_MAX_DEVICES], *zg = NULL;
	bool zoned = zf2fs_vol_is_zoned(vol);
	uint32_t unusable = 0;
	uint64_t old_last;
	struct zf2fs_layout lay;
	double ratio;
	int err;

	memset(p, 0, sizeof(*p));
	p->sb = *sb;
	p->old_main_segs = vi->main_segs;
	if (zoned) {
		err = zoned_geoms(vol, geoms, why, whylen);
		if (err)
			return err;
		zg = geoms;
	}
	if (vi->features & ZF2FS_FEAT_RO)
		return zf2fs_set_why(why, whylen, -EOPNOTSUPP, "read-only volumes (-O ro) cannot be "
				     "resized");

	/* the last device: where it starts (segments from segment 0) and how many segments
	 * it holds now and at the target size, in whole zones */
	old_last = nd == 1 ? zf2fs_get(sb->segment_count) : zf2fs_get(sb->devs[nd - 1].total_segments);
	if (nd == 1) {
		last_start = 0;
		if (o->target_blocks < seg0)
			return zf2fs_set_why(why, whylen, -EINVAL, "target too small");
		new_last = (o->target_blocks - seg0) / BPS;
	} else {
		last_start = segs_before_last(sb, nd);
		new_last = o->target_blocks / BPS;
	}
	/* the main area ends on a zone boundary counted from its start */
	{
		uint64_t meta = (vi->main_blkaddr - seg0) / BPS;
		uint64_t end = last_start + new_last;

		if (end <= meta)
			return zf2fs_set_why(why, whylen, -ENOSPC, "target too small: the metadata "
					     "areas alone take %llu segments",
					     (unsigned long long)meta);
		p->new_main_segs = (uint32_t)((end - meta) / spz * spz);
		target_end_segs = last_start + new_last;
		new_last = meta + p->new_main_segs - last_start;
	}
	if ((uint64_t)p->new_main_segs + (vi->main_blkaddr - seg0) / BPS > ZF2FS_MAX_SEGMENTS)
		return zf2fs_set_why(why, whylen, -EINVAL, "target too large: F2FS addresses at most "
				     "16 TiB");
	if (p->new_main_segs > vi->main_segs)
		p->kind = ZF2FS_RESIZE_GROW;
	else if (p->new_main_segs < vi->main_segs)
		p->kind = ZF2FS_RESIZE_SHRINK;

	err = zf2fs_vol_load_sit(vol, &sit);
	if (err)
		return zf2fs_set_why(why, whylen, err, "cannot read the SIT");

	if (p->kind == ZF2FS_RESIZE_GROW && !meta_covers(sb, vi, g, p->new_main_segs)) {
		if (o->safe) {
			err = zf2fs_set_why(why, whylen, -ENOSPC, "-s: the SIT and SSA cover %u main "
					    "segments, the new size needs %u (run without -s to "
					    "grow them)", (unsigned)(uint64_t)
					    (ssa_covers(sb, g) <
					     (uint64_t)vi->sit_blocks * g->sit_per_block ?
					     ssa_covers(sb, g) :
					     (uint64_t)vi->sit_blocks * g->sit_per_block),
					    p->new_main_segs);
			goto out;
		}
		err = plan_relocation(vol, o, p, target_end_segs, why, whylen);
		if (!err)
			err = relocation_room(vol, p, why, whylen);
		if (!err && nd > 1)
			/* the last device ends where the new segment count does: counted from
			 * the old segment 0, the first device's old segments come first */
			new_last = (vi->main_blkaddr - seg0) / BPS + zf2fs_get(p->sb.segment_count) -
				   last_start;
		if (!err)
			err = room_to_empty(vol, sit, 0, p->evac_secs, "moving the metadata areas",
					    &p->short_secs, why, whylen);
		if (err)
			goto out;
	} else if (o->large_nat_bitmap && !(vi->ckpt_flags & ZF2FS_CP_LARGE_NAT_BITMAP_FLAG)) {
		err = zf2fs_set_why(why, whylen, -EINVAL, "-i applies only when the metadata areas "
				    "are rebuilt (a grow past what they cover)");
		goto out;
	} else if (p->kind == ZF2FS_RESIZE_NONE && fit) {
		err = plan_fit(vol, p, why, whylen);
		if (!err && p->evac_secs)
			err = relocation_room(vol, p, why, whylen);
		if (!err && p->evac_secs)
			err = room_to_fit(vol, sit, p->evac_secs, why, whylen);
		if (err)
			goto out;
	}

	/* the space policy of the new main area, with the rule the volume was made with */
	{
		uint32_t new_count = p->relocate ? (uint32_t)zf2fs_get(p->sb.segment_count) :
				     (uint32_t)((vi->main_blkaddr - seg0) / BPS + p->new_main_segs);
		/* relocating: segment 0 moves, by this many segments */
		uint32_t new_seg0 = (uint32_t)zf2fs_get(p->sb.segment0_blkaddr);
		int64_t gap = ((int64_t)new_seg0 - seg0) / BPS;
		uint32_t new_usable = p->relocate ?
			usable_for(vol, zg, new_seg0, (uint32_t)zf2fs_get(p->sb.main_blkaddr),
				   gap, nd == 1 ? new_count : new_last, p->new_main_segs) :
			usable_for(vol, zg, seg0, vi->main_blkaddr, 0, new_last, p->new_main_segs);

		ratio = o->overprovision;
		if (o->overprovision) {
			snprintf(p->note, sizeof(p->note), "overprovision: %.2f%% as asked", ratio);
		} else if (o->default_rule) {
			snprintf(p->note, sizeof(p->note), "overprovision: mkfs's default rule, as "
				 "the volume has");
		} else if (!space_for(vi, g, new_count, p->new_main_segs, new_usable, 0, &lay, NULL, 0) &&
			   lay.rsvd_segments == zf2fs_get(cp->rsvd_segment_count) &&
			   lay.ovp_segments == zf2fs_get(cp->overprov_segment_count)) {
			/* an interrupted resize already wrote mkfs's default for the new size */
			snprintf(p->note, sizeof(p->note), "overprovision: mkfs's default rule, as "
				 "the volume has");
		} else {
			ratio = kept_ratio(vi, g, cp, zf2fs_super_areas_segments(sb),
					   usable_for(vol, zg, seg0, vi->main_blkaddr, 0, old_last,
					      vi->main_segs), p->note,
					   sizeof(p->note));
		}
		err = space_for(vi, g, new_count, p->new_main_segs, new_usable, ratio, &lay, why,
				whylen);
	}
	if (err)
		goto out;
	p->default_rule = !ratio;
	p->user_block_count = lay.user_block_count;
	p->rsvd_segments = lay.rsvd_segments;
	p->ovp_segments = lay.ovp_segments;
	p->overprovision = lay.overprovision;
	p->counters_stale = p->user_block_count != zf2fs_get(cp->user_block_count) ||
			    p->rsvd_segments != zf2fs_get(cp->rsvd_segment_count) ||
			    p->ovp_segments != zf2fs_get(cp->overprov_segment_count);
	if (zf2fs_get(cp->valid_block_count) > p->user_block_count) {
		err = zf2fs_set_why(why, whylen, -ENOSPC, "the data does not fit: %llu blocks in "
				    "use, the new size holds %llu",
				    (unsigned long long)zf2fs_get(cp->valid_block_count),
				    (unsigned long long)p->user_block_count);
		goto out;
	}
	{
		uint32_t logs[ZF2FS_NR_CURSEG], off;

		for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
			zf2fs_vol_curseg(vol, t, &logs[t], &off);
		/* zoned: segments past the zone capacity are never free; without a zone
		 * report (emulated devices) the commit cannot recount them either */
		if (!zoned || !zf2fs_vol_zone_unusable(vol, &unusable))
			p->free_stale = zf2fs_free_segs(vi, unusable, logs, sit_empty, sit) !=
					zf2fs_get(cp->free_segment_count);
	}
	if (p->kind == ZF2FS_RESIZE_SHRINK) {
		p->cut_sec = p->new_main_segs / vi->segs_per_sec;
		err = room_to_empty(vol, sit, p->cut_sec, vi->main_secs, "shrinking",
				    &p->short_secs, why, whylen);
		if (err)
			goto out;
	}

	/* the new superblock: sizes (areas and addresses already set when relocating) */
	{
		struct zf2fs_super *n = &p->sb;
		/* segments segment 0 moves (up for a grow and the areas' first move, down for
		 * their second), which device 0 counts fewer or more: its last block stays
		 * where it was */
		int64_t gap = ((int64_t)zf2fs_get(n->segment0_blkaddr) - seg0) / BPS;

		if (!p->relocate)
			zf2fs_set(n->segment_count, (uint32_t)((vi->main_blkaddr - seg0) / BPS +
							      p->new_main_segs));
		zf2fs_set(n->segment_count_main, p->new_main_segs);
		zf2fs_set(n->section_count, p->new_main_segs / vi->segs_per_sec);
		if (nd == 1) {
			zf2fs_set(n->block_count, o->target_blocks);
		} else {
			uint64_t start_blk = (uint64_t)seg0 + last_start * BPS;

			zf2fs_set(n->devs[nd - 1].total_segments, (uint32_t)new_last);
			zf2fs_set(n->devs[0].total_segments,
				  (uint32_t)((int64_t)zf2fs_get(n->devs[0].total_segments) - gap));
			zf2fs_set(n->block_count, start_blk + o->target_blocks);
		}
	}
out:
	free(sit);
	return err;
}

ZF2FS_EXPORT int zf2fs_resize_plan(struct zf2fs_vol *vol, const struct zf2fs_resize_opts *o,
				   struct zf2fs_resize_plan *p, char *why, size_t whylen)
{
	char reason[160];
	int err = plan(vol, o, p, !o->safe, why, whylen);

	/* fitting the areas is worth no refusal: the volume keeps them as they are */
	if (err && p->fit) {
		snprintf(reason, sizeof(reason), "%s", why);
		err = plan(vol, o, p, false, why, whylen);
		if (!err)
			snprintf(p->meta_note, sizeof(p->meta_note), "the metadata areas stay larger "
				 "than the size needs, since fitting them cannot go on: %s",
				 reason);
	}
	return err;
}
