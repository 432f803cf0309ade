// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout.c - where everything goes on a new volume, as pure arithmetic.
 *
 * From device geometry and mkfs options this computes segment 0's alignment, the sizes and
 * addresses of the checkpoint, SIT, NAT and SSA areas and of the main area, the per-device
 * segment ranges, the usable segments of zoned devices whose zone capacity is below the
 * zone size, and the reserved and overprovision segment counts.  The area maths match
 * mkfs.f2fs 1.15 for 4 KiB blocks (so images line up field by field with the reference
 * tool) and f2fs-tools' development branch for 16 KiB blocks and packed_ssa; the space
 * policy follows f2fs-tools 1.16 (docs/layout.md), including -Z.  Every address and count
 * is in blocks of the volume's size; a segment is 512 of them either way.
 *
 * No I/O and no state: everything comes in through the arguments.
 */
#include "config.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/geometry.h"
#include "format/layout_p.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "format/why_p.h"
#include "zf2fs-internal/format.h"
#include "format/abi_v10_p.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/* The geometry of @lay's block size (0 counts as 4 KiB: resize's layouts) and
 * @features. */
static void lay_geom(const struct zf2fs_layout *lay, uint32_t features, struct zf2fs_geom *g)
{
	if (zf2fs_geom_init(g, lay->log_blocksize, features))
		zf2fs_geom_init(g, ZF2FS_MIN_LOG_BLOCKSIZE, features);
}

static int log2_exact(uint64_t v)
{
	int l = 0;

	if (!v || (v & (v - 1)))
		return -1;
	while ((1ull << l) != v)
		l++;
	return l;
}

/* Segments available to data: all of a conventional device, and for zoned devices only
 * the part of each zone below its capacity (a partial segment counts as usable, as the
 * kernel treats it).  Then minus the metadata segments in front of the main area. */
static uint32_t usable_segments(const struct zf2fs_dev_geom *devs, unsigned ndevs,
				const struct zf2fs_layout *lay)
{
	uint64_t usable = 0, blksize = 1ull << (lay->log_blocksize ? lay->log_blocksize :
						      ZF2FS_MIN_LOG_BLOCKSIZE);

	if (!lay->zoned)
		return lay->segment_count_main;
	for (unsigned i = 0; i < ndevs; i++) {
		const struct zf2fs_dev_geom *d = &devs[i];

		if (d->zone_model != ZF2FS_ZONED_HM) {
			usable += lay->dev_segments[i];
			continue;
		}
		uint64_t zone_blks = d->zone_bytes / blksize;
		uint64_t cap_blks = d->zone_cap_bytes ? d->zone_cap_bytes / blksize : zone_blks;

		for (uint32_t z = 0; z < d->nr_zones; z++) {
			uint64_t cap = z < d->nr_conv_zones ? zone_blks : cap_blks;

			usable += cap / BPS + (cap % BPS ? 1 : 0);
		}
	}
	usable -= (lay->main_blkaddr - lay->segment0_blkaddr) / BPS;
	return (uint32_t)usable;
}

uint32_t zf2fs_layout_usable(const struct zf2fs_dev_geom *devs, unsigned ndevs,
			    const struct zf2fs_layout *lay)
{
	return usable_segments(devs, ndevs, lay);
}

/* The main-area segments Linux 6.1 can ever allocate: it applies the capacity of the
 * sequential zones to every section of the main area (conventional zones and a regular
 * first device included) and counts a segment when any of its blocks lies below it.  The
 * kernel's free segment count starts from this, not from U (the f2fs-tools 1.16 rule
 * above, kept for reserved and overprovision): U also counts the conventional parts at
 * full size and the zone in front of segment 0 on a single zoned device. */
static uint32_t kernel_usable_segments(const struct zf2fs_layout *lay)
{
	uint64_t sec_blocks = (uint64_t)lay->segs_per_sec * BPS;

	if (!lay->zoned || !lay->zone_cap_blocks || lay->zone_cap_blocks >= sec_blocks ||
	    lay->zone_blocks != sec_blocks)
		return lay->segment_count_main;
	return lay->section_count * (uint32_t)div_up(lay->zone_cap_blocks, BPS);
}

/* Two generations of f2fs-tools' space policy: 4 KiB volumes keep f2fs-tools 1.16's (two
 * sections of buffer over the overprovision), 16 KiB volumes follow its development
 * branch, which made them (six sections of buffer, the reserved segments a whole number
 * of sections, a ratio that leaves no overprovision never chosen). */
static bool policy_dev(const struct zf2fs_layout *lay)
{
	return lay->log_blocksize > ZF2FS_MIN_LOG_BLOCKSIZE;
}

/* Sections kept free beside the reserved ones for the logs to move on. */
static uint32_t buffer_segments(const struct zf2fs_layout *lay)
{
	return (policy_dev(lay) ? 6 : 2) * lay->segs_per_sec;
}

/* Reserved segments for ratio @r: enough sections to absorb GC at that overprovision,
 * plus one per log; -Z replaces that with a fixed number of sections.  Kept in double
 * as the reference computes it, so the chosen ratio matches to the last digit. */
static double reserved_for(const struct zf2fs_layout *lay, uint32_t conf_sections, double r)
{
	uint32_t spsu = (uint32_t)div_up(lay->usable_segments, lay->section_count);
	double rsvd;

	if (conf_sections)
		rsvd = (double)conf_sections * spsu;
	else
		rsvd = (100 / r + 1 + ZF2FS_NR_CURSEG) * spsu;
	if (policy_dev(lay))   /* whole segments, then whole sections */
		rsvd = (double)(div_up((uint32_t)rsvd, spsu) * spsu);
	return rsvd;
}

/* The ratio that leaves the most user space: scan candidates in fixed steps (coarse on
 * tiny volumes) and keep the first with the strictly largest result. */
static double best_overprovision(const struct zf2fs_layout *lay)
{
	double cand, end, step, best = 0, best_space = 0;
	double usable = lay->usable_segments;

	if (lay->segment_count_main < 256) {
		cand = 10;
		end = 95;
		step = 5;
	} else {
		cand = 0.01;
		end = 10;
		step = 0.01;
	}
	for (; cand <= end; cand += step) {
		double rsvd = reserved_for(lay, 0, cand);
		double ovp = (usable - rsvd) * cand / 100;
		double space;

		if (ovp < 0 || (ovp == 0 && policy_dev(lay)))
			continue;
		space = usable - (rsvd > ovp ? rsvd : ovp) - buffer_segments(lay);
		if (best_space < space) {
			best_space = space;
			best = cand;
		}
	}
	return best;
}

static int check_devices(const struct zf2fs_dev_geom *devs, unsigned ndevs,
			 const struct zf2fs_layout_opts *o, const struct zf2fs_geom *g,
			 char *why, size_t whylen)
{
	if (ndevs < 1 || ndevs > ZF2FS_MAX_DEVICES)
		return zf2fs_set_why(why, whylen, -EINVAL, "between 1 and %d devices are supported, not %u",
			    ZF2FS_MAX_DEVICES, ndevs);
	for (unsigned i = 0; i < ndevs; i++) {
		const struct zf2fs_dev_geom *d = &devs[i];

		if (log2_exact(d->sector_size) < 9 || d->sector_size > g->blocksize)
			return zf2fs_set_why(why, whylen, -EINVAL, "device %u: unsupported sector size %u",
				    i, d->sector_size);
		if (d->sector_size != devs[0].sector_size)
			return zf2fs_set_why(why, whylen, -EINVAL,
				    "different sector sizes: device 0 has %u, device %u has %u",
				    devs[0].sector_size, i, d->sector_size);
		if (d->zone_model == ZF2FS_ZONED_HM && !o->zoned)
			return zf2fs_set_why(why, whylen, -EINVAL,
				    "device %u is host-managed zoned: format it with -m", i);
		if (d->zone_model != ZF2FS_ZONED_NONE && o->zoned) {
			if (!d->zone_bytes || d->zone_bytes % g->seg_bytes)
				return zf2fs_set_why(why, whylen, -EINVAL,
					    "device %u: zone size %llu is not a multiple of %u MiB "
					    "(a segment)", i, (unsigned long long)d->zone_bytes,
					    (unsigned)(g->seg_bytes >> 20));
			if (d->zone_cap_bytes > d->zone_bytes)
				return zf2fs_set_why(why, whylen, -EINVAL,
					    "device %u: zone capacity above zone size", i);
		}
	}
	return 0;
}

/* Zone size of the zoned devices (they must agree), 0 if none. */
static uint64_t zoned_zone_bytes(const struct zf2fs_dev_geom *devs, unsigned ndevs,
				 char *why, size_t whylen, int *err)
{
	uint64_t zb = 0;

	*err = 0;
	for (unsigned i = 0; i < ndevs; i++) {
		if (devs[i].zone_model == ZF2FS_ZONED_NONE)
			continue;
		if (zb && devs[i].zone_bytes != zb) {
			*err = zf2fs_set_why(why, whylen, -EINVAL, "zoned devices have different zone sizes");
			return 0;
		}
		zb = devs[i].zone_bytes;
	}
	return zb;
}

/* Segments given to the area maths: SIT covers every segment, NAT every block outside
 * CP and SIT, SSA every block outside CP, SIT and NAT.  Both copies of SIT and NAT.
 * The entries per block, the checkpoint block's bitmap room and the summaries per SSA
 * block come from the block size (and packed_ssa). */
void zf2fs_layout_size_meta(struct zf2fs_layout *lay, const struct zf2fs_layout_opts *o)
{
	uint32_t sit_blocks, nat_blocks, ssa_blocks, sit_bitmap, max_sit_bitmap;
	uint32_t nat_bitmap_room, max_nat_segs;
	uint64_t avail;
	struct zf2fs_geom g;

	lay_geom(lay, o->features, &g);
	lay->segment_count_ckpt = ZF2FS_CP_PACKS;
	lay->cp_blkaddr = lay->segment0_blkaddr;
	lay->sit_blkaddr = lay->segment0_blkaddr + lay->segment_count_ckpt * BPS;
	sit_blocks = (uint32_t)div_up(lay->segment_count, g.sit_per_block);
	lay->segment_count_sit = (uint32_t)div_up(sit_blocks, BPS) * 2;
	lay->nat_blkaddr = lay->sit_blkaddr + lay->segment_count_sit * BPS;

	avail = (uint64_t)(lay->segment_count - lay->segment_count_ckpt -
			   lay->segment_count_sit) * BPS;
	nat_blocks = (uint32_t)div_up(avail, g.nat_per_block);

	/* The SIT version bitmap lives in the CP block unless it is too big for it, then in
	 * cp_payload blocks; the NAT bitmap gets what room is left (or its own room with the
	 * large NAT bitmap option, where NAT is a fixed fifth of what it could be). */
	sit_bitmap = lay->segment_count_sit / 2 * BPS / 8;
	max_sit_bitmap = sit_bitmap;
	{
		uint32_t max_sit_total = (uint32_t)(div_up(div_up(ZF2FS_MAX_SEGMENTS,
							   g.sit_per_block), BPS) * BPS / 8);
		if (max_sit_bitmap > max_sit_total)
			max_sit_bitmap = max_sit_total;
	}
	if (o->large_nat_bitmap) {
		uint32_t segs = (uint32_t)div_up(nat_blocks, BPS) * 20 / 100;
		uint32_t nat_bitmap;

		lay->segment_count_nat = segs ? segs : 1;
		nat_bitmap = lay->segment_count_nat * BPS / 8;
		lay->segment_count_nat *= 2;
		if (max_sit_bitmap + nat_bitmap > g.cp_bitmap_room)
			lay->cp_payload = (uint32_t)div_up(max_sit_bitmap + nat_bitmap -
							   g.cp_bitmap_room, g.blocksize);
		else
			lay->cp_payload = 0;
	} else {
		lay->segment_count_nat = (uint32_t)div_up(nat_blocks, BPS);
		if (max_sit_bitmap > g.cp_sit_bitmap_room) {
			nat_bitmap_room = g.cp_bitmap_room;
			lay->cp_payload = (uint32_t)div_up(max_sit_bitmap, g.blocksize);
		} else {
			nat_bitmap_room = g.cp_bitmap_room - max_sit_bitmap;
			lay->cp_payload = 0;
		}
		max_nat_segs = nat_bitmap_room * 8 / BPS;
		if (lay->segment_count_nat > max_nat_segs)
			lay->segment_count_nat = max_nat_segs;
		lay->segment_count_nat *= 2;
	}
	lay->ssa_blkaddr = lay->nat_blkaddr + lay->segment_count_nat * BPS;

	/* One summary per segment outside CP, SIT and NAT.  With 4 KiB blocks one block more,
	 * as mkfs.f2fs 1.15 counts; with 16 KiB blocks exactly one block per segment, and with
	 * packed_ssa one per sums_per_block segments. */
	avail = (uint64_t)(lay->segment_count - lay->segment_count_ckpt -
			   lay->segment_count_sit - lay->segment_count_nat) * BPS;
	if (g.log_blocksize == ZF2FS_MIN_LOG_BLOCKSIZE)
		ssa_blocks = (uint32_t)(avail / BPS + 1);
	else
		ssa_blocks = (uint32_t)div_up(avail / BPS, g.sums_per_block);
	if (o->features & ZF2FS_FEAT_RO)
		ssa_blocks = 0;
	lay->segment_count_ssa = (uint32_t)div_up(ssa_blocks, BPS);

	/* Pad SSA so that the main area starts on a zone boundary. */
	{
		uint32_t meta = lay->segment_count_ckpt + lay->segment_count_sit +
				lay->segment_count_nat + lay->segment_count_ssa;
		uint32_t rem = meta % lay->segs_per_zone;

		if (rem)
			lay->segment_count_ssa += lay->segs_per_zone - rem;
	}
	lay->sit_bitmap_bytes = lay->segment_count_sit / 2 * BPS / 8;
	lay->nat_bitmap_bytes = lay->segment_count_nat / 2 * BPS / 8;
	/* nat_bits: 8 bytes of check value, then a "full" and an "empty" bit per NAT block;
	 * a bitmap of one bit per NAT block is exactly as long as the NAT version bitmap. */
	lay->nat_bits_blocks = (uint32_t)div_up(2ull * lay->nat_bitmap_bytes + 8, g.blocksize);
}

/* Six logs, each in its own zone: nodes first, then data.  On a zoned volume with a
 * conventional device in front, the logs start on the first sequential zone when there
 * are enough of those, so metadata-heavy random writes stay where they are allowed. */
static void place_logs(struct zf2fs_layout *lay, uint32_t first_seg)
{
	static const int order[ZF2FS_NR_CURSEG] = {
		ZF2FS_LOG_HOT_NODE, ZF2FS_LOG_WARM_NODE, ZF2FS_LOG_COLD_NODE,
		ZF2FS_LOG_HOT_DATA, ZF2FS_LOG_WARM_DATA, ZF2FS_LOG_COLD_DATA,
	};

	for (int i = 0; i < ZF2FS_NR_CURSEG; i++)
		lay->cur_seg[order[i]] = first_seg + (uint32_t)i * lay->segs_per_zone;
}

int zf2fs_layout_space(struct zf2fs_layout *lay, const struct zf2fs_layout_opts *o,
		       char *why, size_t whylen)
{
	bool ro = o->features & ZF2FS_FEAT_RO;
	uint32_t conf = o->reserved_sections;
	double r = o->overprovision;
	uint64_t ovp;

	lay->reserved_sections = conf;
	if (conf) {
		if (conf < ZF2FS_NR_CURSEG + 2) {
			snprintf(lay->note, sizeof(lay->note),
				 "reserved sections raised from %u to %u (%d logs + 2)",
				 conf, ZF2FS_NR_CURSEG + 2, ZF2FS_NR_CURSEG);
			conf = ZF2FS_NR_CURSEG + 2;
			lay->reserved_sections = conf;
		}
		if (r == 0)
			r = 3.0;
	} else if (r == 0) {
		r = best_overprovision(lay);
	}

	double rsvd = reserved_for(lay, conf, r);

	if (ro) {
		r = 0;
		rsvd = 0;
	}
	lay->overprovision = r;
	lay->rsvd_segments = (uint32_t)rsvd;
	if ((!ro && r == 0) || lay->segment_count < ZF2FS_MIN_SEGMENTS ||
	    (lay->segment_count_main < ZF2FS_NR_CURSEG) ||
	    lay->segment_count_main - ZF2FS_NR_CURSEG < lay->rsvd_segments)
		return zf2fs_set_why(why, whylen, -ENOSPC,
			    "device size is not sufficient for an F2FS volume (%u main segments, "
			    "%u reserved)", lay->segment_count_main, lay->rsvd_segments);

	ovp = (uint64_t)((double)(lay->usable_segments - lay->rsvd_segments) * r / 100);
	if (conf) {
		if (ovp < buffer_segments(lay))
			return zf2fs_set_why(why, whylen, -ENOSPC,
				    "not enough overprovision segments (%llu, at least %u needed): "
				    "raise -o or lower -Z", (unsigned long long)ovp,
				    buffer_segments(lay));
		ovp += lay->rsvd_segments;
	} else {
		if (ovp < lay->rsvd_segments)
			ovp = lay->rsvd_segments;
		ovp += buffer_segments(lay);
	}
	if (lay->usable_segments <= ovp)
		return zf2fs_set_why(why, whylen, -ENOSPC,
			    "not enough segments: %u usable, %llu needed for overprovision",
			    lay->usable_segments, (unsigned long long)ovp);
	lay->ovp_segments = (uint32_t)ovp;
	{
		uint32_t logs = ro ? 2 : ZF2FS_NR_CURSEG;

		/* what the kernel counts free after mounting the new volume (zoned: not U) */
		lay->free_segments = kernel_usable_segments(lay) - logs;
		lay->user_block_count = (uint64_t)(lay->usable_segments - lay->ovp_segments) * BPS;
	}
	return 0;
}

void zf2fs_layout_set_areas(const struct zf2fs_layout *lay, struct zf2fs_super *sb)
{
	zf2fs_set(sb->segment_count, lay->segment_count);
	zf2fs_set(sb->segment_count_ckpt, lay->segment_count_ckpt);
	zf2fs_set(sb->segment_count_sit, lay->segment_count_sit);
	zf2fs_set(sb->segment_count_nat, lay->segment_count_nat);
	zf2fs_set(sb->segment_count_ssa, lay->segment_count_ssa);
	zf2fs_set(sb->segment0_blkaddr, lay->segment0_blkaddr);
	zf2fs_set(sb->cp_blkaddr, lay->cp_blkaddr);
	zf2fs_set(sb->sit_blkaddr, lay->sit_blkaddr);
	zf2fs_set(sb->nat_blkaddr, lay->nat_blkaddr);
	zf2fs_set(sb->ssa_blkaddr, lay->ssa_blkaddr);
	zf2fs_set(sb->main_blkaddr, lay->main_blkaddr);
	zf2fs_set(sb->cp_payload, lay->cp_payload);
}

/* Exported as zf2fs_layout_compute@@ZF2FS_1.1 (lib/format/abi_v10_p.h). */
__typeof__(zf2fs_layout_compute) zf2fs_layout_compute_v11;
ZF2FS_EXPORT_V11(zf2fs_layout_compute)
int zf2fs_layout_compute_v11(const struct zf2fs_dev_geom *devs, unsigned ndevs,
			     const struct zf2fs_layout_opts *o,
			     struct zf2fs_layout *lay, char *why, size_t whylen)
{
	uint64_t zone_bytes, align_bytes, start_off, total_sectors = 0, seg0_off;
	uint32_t total_zones, meta_zones;
	uint32_t log_bs = o->log_blocksize ? o->log_blocksize : ZF2FS_MIN_LOG_BLOCKSIZE;
	struct zf2fs_geom g;
	int err, log_ss;

	memset(lay, 0, sizeof(*lay));
	if (zf2fs_geom_init(&g, log_bs, o->features))
		return zf2fs_set_why(why, whylen, -EINVAL, "block size 2^%u is not supported "
				     "(4096 or 16384)", log_bs);
	lay->log_blocksize = log_bs;
	lay->packed_ssa = g.sums_per_block > 1;
	err = check_devices(devs, ndevs, o, &g, why, whylen);
	if (err)
		return err;
	zone_bytes = zoned_zone_bytes(devs, ndevs, why, whylen, &err);
	if (err)
		return err;
	if (o->zoned && !zone_bytes)
		return zf2fs_set_why(why, whylen, -EINVAL, "-m given but no device is zoned");

	lay->ndevs = ndevs;
	lay->zoned = o->zoned;
	log_ss = log2_exact(devs[0].sector_size);
	lay->log_sectorsize = (uint32_t)log_ss;
	lay->log_sectors_per_block = log_bs - (uint32_t)log_ss;
	if (o->zoned) {
		/* A section is a zone. */
		lay->segs_per_sec = (uint32_t)(zone_bytes / g.seg_bytes);
		lay->secs_per_zone = 1;
		lay->zone_blocks = (uint32_t)(zone_bytes / g.blocksize);
		for (unsigned i = 0; i < ndevs; i++) {
			if (devs[i].zone_model == ZF2FS_ZONED_NONE)
				continue;
			lay->nr_zones += devs[i].nr_zones;
			lay->zone_cap_blocks = (uint32_t)((devs[i].zone_cap_bytes ?
				devs[i].zone_cap_bytes : devs[i].zone_bytes) / g.blocksize);
		}
	} else {
		lay->segs_per_sec = o->segs_per_sec ? o->segs_per_sec : 1;
		lay->secs_per_zone = o->secs_per_zone ? o->secs_per_zone : 1;
	}
	if (lay->segs_per_sec > ZF2FS_MAX_SEGMENTS || lay->secs_per_zone > ZF2FS_MAX_SEGMENTS ||
	    (uint64_t)lay->segs_per_sec * lay->secs_per_zone > ZF2FS_MAX_SEGMENTS)
		return zf2fs_set_why(why, whylen, -EINVAL, "segments per section (%u) times sections per "
			    "zone (%u) is too large", lay->segs_per_sec, lay->secs_per_zone);
	lay->segs_per_zone = lay->segs_per_sec * lay->secs_per_zone;

	for (unsigned i = 0; i < ndevs; i++)
		total_sectors += devs[i].bytes / devs[i].sector_size;
	lay->block_count = total_sectors >> lay->log_sectors_per_block;

	/* Segment 0 goes on the first zone boundary after the two superblock blocks.  With
	 * a metadata device in front of zoned ones, align to a segment and then shift so that
	 * the first zoned device starts on a section boundary. */
	align_bytes = (uint64_t)lay->segs_per_zone * g.seg_bytes;
	if (o->zoned && ndevs > 1)
		align_bytes = g.seg_bytes;
	start_off = devs[0].start_sector * 512;
	if (o->features & ZF2FS_FEAT_RO)
		seg0_off = 2ull * g.blocksize;
	else
		seg0_off = div_up(start_off + 2ull * g.blocksize, align_bytes) * align_bytes -
			   start_off;
	if (o->zoned && ndevs > 1 && devs[0].bytes > seg0_off)
		seg0_off += (devs[0].bytes - seg0_off) % ((uint64_t)lay->segs_per_zone * g.seg_bytes);
	if (devs[0].bytes < seg0_off + g.seg_bytes)
		return zf2fs_set_why(why, whylen, -ENOSPC, "device is too small: %llu bytes",
			    (unsigned long long)devs[0].bytes);
	if (seg0_off / g.blocksize > UINT32_MAX)
		return zf2fs_set_why(why, whylen, -EINVAL, "first device too large");
	lay->segment0_blkaddr = (uint32_t)(seg0_off / g.blocksize);

	{
		uint64_t total = 0;

		for (unsigned i = 0; i < ndevs; i++) {
			uint64_t segs;

			if (i == 0) {
				segs = (devs[0].bytes - seg0_off) / g.seg_bytes;
				lay->dev_start_blk[0] = 0;
			} else {
				segs = devs[i].bytes / g.seg_bytes;
				lay->dev_start_blk[i] = lay->dev_end_blk[i - 1] + 1;
			}
			segs = segs / lay->segs_per_zone * lay->segs_per_zone;
			lay->dev_segments[i] = (uint32_t)segs;
			lay->dev_model[i] = devs[i].zone_model;
			lay->dev_conv_zones[i] = devs[i].nr_conv_zones;
			lay->dev_end_blk[i] = lay->dev_start_blk[i] + segs * BPS - 1 +
					      (i == 0 ? lay->segment0_blkaddr : 0);
			total += segs;
		}
		if (total > ZF2FS_MAX_SEGMENTS)
			return zf2fs_set_why(why, whylen, -EINVAL,
				    "volume too large: %llu segments, F2FS addresses at most %u (%u TiB)",
				    (unsigned long long)total, ZF2FS_MAX_SEGMENTS,
				    (unsigned)(((uint64_t)ZF2FS_MAX_SEGMENTS * g.seg_bytes) >> 40));
		lay->segment_count = (uint32_t)total;
	}
	if (lay->segment_count < ZF2FS_MIN_SEGMENTS)
		return zf2fs_set_why(why, whylen, -ENOSPC,
			    "device size is not sufficient for an F2FS volume (%u segments, at "
			    "least %u needed)", lay->segment_count, ZF2FS_MIN_SEGMENTS);

	zf2fs_layout_size_meta(lay, o);
	meta_zones = (lay->segment_count_ckpt + lay->segment_count_sit +
		      lay->segment_count_nat + lay->segment_count_ssa) / lay->segs_per_zone;
	lay->main_blkaddr = lay->segment0_blkaddr + meta_zones * lay->segs_per_zone * BPS;
	if (lay->segment_count / lay->segs_per_zone <= meta_zones)
		return zf2fs_set_why(why, whylen, -ENOSPC,
			    "device size is not sufficient for an F2FS volume (no room for the "
			    "main area)");
	total_zones = lay->segment_count / lay->segs_per_zone - meta_zones;

	if (o->zoned) {
		const struct zf2fs_dev_geom *d0 = &devs[0];

		if (d0->zone_model == ZF2FS_ZONED_HM &&
		    (uint64_t)d0->nr_conv_zones * (d0->zone_bytes / g.blocksize) <
		    (uint64_t)lay->main_blkaddr)
			return zf2fs_set_why(why, whylen, -ENOSPC, "device does not have enough conventional "
				    "zones for the metadata (%llu needed)",
				    (unsigned long long)div_up(lay->main_blkaddr,
							       d0->zone_bytes / g.blocksize));
		for (unsigned i = 1; i < ndevs; i++)
			if (devs[i].zone_model != ZF2FS_ZONED_NONE &&
			    lay->dev_start_blk[i] < lay->main_blkaddr)
				return zf2fs_set_why(why, whylen, -ENOSPC, "the metadata device is too small "
					    "(%llu MiB more needed)", (unsigned long long)
					    (((lay->main_blkaddr - lay->dev_start_blk[i]) *
					      g.blocksize) >> 20));
	}
	lay->section_count = total_zones * lay->secs_per_zone;
	lay->segment_count_main = lay->section_count * lay->segs_per_sec;
	lay->usable_segments = usable_segments(devs, ndevs, lay);

	err = zf2fs_layout_space(lay, o, why, whylen);
	if (err)
		return err;

	if (total_zones <= (uint32_t)((o->features & ZF2FS_FEAT_RO) ? 2 : ZF2FS_NR_CURSEG))
		return zf2fs_set_why(why, whylen, -ENOSPC, "%u zones: need more zones, shrink the zone size "
			    "(-s, -z)", total_zones);

	{
		uint32_t first = 0;

		if (o->zoned && ndevs > 1 && devs[0].zone_model != ZF2FS_ZONED_HM) {
			uint32_t conv_zones = lay->dev_segments[0] / lay->segs_per_zone - meta_zones;

			if (total_zones - conv_zones >= ZF2FS_NR_CURSEG)
				first = (uint32_t)((lay->dev_start_blk[1] - lay->main_blkaddr) / BPS);
		}
		place_logs(lay, first);
	}
	if (o->features & ZF2FS_FEAT_RO) {
		/* A read-only volume is written once, by mkfs and sload: one data log from the
		 * start of the main area and one node log in the last section, where mkfs.f2fs
		 * -O ro puts them; the other logs point at segment 0 and stay empty. */
		uint32_t last = (total_zones - 1) * lay->segs_per_zone +
				(lay->secs_per_zone - 1) * lay->segs_per_sec;

		for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
			lay->cur_seg[t] = t == ZF2FS_LOG_HOT_NODE ? last : 0;
	}
	return 0;
}

/* ---- device aliasing ------------------------------------------------------------------ */
/* Is main-area segment @seg on a device that @aliases names? */
static bool seg_aliased(const struct zf2fs_layout *lay, const char *const *aliases,
			uint32_t seg)
{
	uint64_t blk = lay->main_blkaddr + (uint64_t)seg * BPS;

	for (unsigned i = 1; i < lay->ndevs; i++)
		if (aliases[i] && blk >= lay->dev_start_blk[i] && blk <= lay->dev_end_blk[i])
			return true;
	return false;
}

/* The logs in the first zones that no aliased device holds, in place_logs' order; a
 * read-only volume's node log in the last such zone. */
static void place_logs_aliased(struct zf2fs_layout *lay, const char *const *aliases, bool ro)
{
	static const int order[ZF2FS_NR_CURSEG] = {
		ZF2FS_LOG_HOT_NODE, ZF2FS_LOG_WARM_NODE, ZF2FS_LOG_COLD_NODE,
		ZF2FS_LOG_HOT_DATA, ZF2FS_LOG_WARM_DATA, ZF2FS_LOG_COLD_DATA,
	};
	uint32_t zones = lay->segment_count_main / lay->segs_per_zone;
	int n = 0;

	if (ro) {
		uint32_t z = zones;

		while (z-- > 0 && seg_aliased(lay, aliases, z * lay->segs_per_zone))
			;
		for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
			lay->cur_seg[t] = 0;
		lay->cur_seg[ZF2FS_LOG_HOT_NODE] = z * lay->segs_per_zone +
						   (lay->secs_per_zone - 1) * lay->segs_per_sec;
		return;
	}
	for (uint32_t z = 0; z < zones && n < ZF2FS_NR_CURSEG; z++)
		if (!seg_aliased(lay, aliases, z * lay->segs_per_zone))
			lay->cur_seg[order[n++]] = z * lay->segs_per_zone;
}

int zf2fs_layout_alias(struct zf2fs_layout *lay, const struct zf2fs_layout_opts *o,
		       const char *const *aliases, char *why, size_t whylen)
{
	bool ro = o->features & ZF2FS_FEAT_RO;
	uint32_t alias_segs = 0, logs = ro ? 2 : ZF2FS_NR_CURSEG;
	unsigned n = 0;

	if (!aliases)
		return 0;
	for (unsigned i = 0; i < lay->ndevs; i++)
		if (aliases[i])
			n++;
	if (!n)
		return 0;
	if (aliases[0])
		return zf2fs_set_why(why, whylen, -EINVAL, "the first device holds the metadata "
				     "and cannot be aliased (Linux refuses an alias of it)");
	if (lay->zoned)
		return zf2fs_set_why(why, whylen, -EINVAL, "device aliasing is not supported "
				     "on a zoned volume (-m)");
	for (unsigned i = 1; i < lay->ndevs; i++) {
		if (!aliases[i])
			continue;
		if (lay->dev_model[i] != ZF2FS_ZONED_NONE)
			return zf2fs_set_why(why, whylen, -EINVAL, "device %u is zoned: Linux "
					     "refuses an alias of a zoned device", i);
		if (lay->dev_start_blk[i] < lay->main_blkaddr || !lay->dev_segments[i])
			return zf2fs_set_why(why, whylen, -EINVAL, "device %u has no segment of "
					     "its own in the main area to alias", i);
		alias_segs += lay->dev_segments[i];
	}
	if ((lay->segment_count_main - alias_segs) / lay->segs_per_zone <= logs)
		return zf2fs_set_why(why, whylen, -ENOSPC, "%u zones outside the aliased "
				     "devices: more than %u are needed for the logs",
				     (lay->segment_count_main - alias_segs) / lay->segs_per_zone,
				     logs);
	if ((uint64_t)alias_segs * BPS > lay->user_block_count)
		return zf2fs_set_why(why, whylen, -ENOSPC, "the aliased devices hold %llu "
				     "blocks, more than the %llu user blocks of the volume",
				     (unsigned long long)alias_segs * BPS,
				     (unsigned long long)lay->user_block_count);
	place_logs_aliased(lay, aliases, ro);
	/* Linux counts a segment free when SIT gives it no valid block: never an aliased
	 * one */
	lay->free_segments -= alias_segs;
	return 0;
}
