// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_accounting.c - pass 7: what the volume records against what was found.
 *
 * Each block owned by a node (pass 4) must be marked valid in its segment's SIT entry and
 * nothing else may be (pass 4 already checked each owned block's summary entry); the current segments must have nothing valid at or
 * after their write position; and the checkpoint's valid block, node and inode counts and
 * free segment count must match.  Fixes rewrite the SIT entries from the found blocks and
 * let the new checkpoint carry recomputed counters.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/endian.h"
#include "zf2fs/zoned.h"

static bool found_bit(const struct fsck_ctx *ctx, uint32_t seg, uint32_t off)
{
	return found_test(ctx, zf2fs_main_blk(0, seg, off));
}

/*
 * The footer of a segment's summary block says the same: the kernel's garbage collector
 * compares it with the SIT type and, when they differ, skips the segment and stops
 * checkpointing (do_garbage_collect).  A segment whose owned blocks are all of one kind
 * gets the summary type of that kind.  (The current segments' summaries are in the
 * checkpoint, written with their log's type.)
 */
static void check_sum_type(struct fsck_ctx *ctx, uint32_t s, struct zf2fs_summary_block *sum)
{
	uint8_t want = seg_kind_get(ctx, s) == SEG_HAS_NODE ? ZF2FS_SUM_TYPE_NODE : ZF2FS_SUM_TYPE_DATA;

	if (zf2fs_vol_segment_summary(ctx->vol, s, sum) || sum_footer(ctx, sum)->entry_type == want)
		return;
	if (fix_problem(ctx, PR_7_SUM_TYPE_WRONG, &(struct problem_ctx){
			.segno = s, .num = sum_footer(ctx, sum)->entry_type, .num2 = want }))
		repair_set_sum_type(ctx, s, want);
}

/*
 * A segment holds nodes or data, and its SIT type says which: the kernel's garbage
 * collector moves a segment's blocks by that type, and stops checkpointing when the
 * blocks are not of it.  A segment whose owned blocks are all data (or all nodes) while
 * its SIT type says the other kind gets the warm type of its kind.  Current segments
 * are check_cursegs's.
 */
static void check_seg_kinds(struct fsck_ctx *ctx)
{
	uint32_t cur[ZF2FS_NR_CURSEG], off;
	struct zf2fs_summary_block *sum;

	if (!ctx->seg_kind)
		return;
	sum = malloc(ZF2FS_BLKSIZE_MAX);
	if (!sum)
		return;
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
		zf2fs_vol_curseg(ctx->vol, t, &cur[t], &off);
	for (uint32_t s = 0; s < ctx->vi->main_segs && !ctx->abort; s++) {
		uint32_t type = zf2fs_sit_type(sit_get(ctx, s));
		uint32_t want = type;
		uint8_t kind = seg_kind_get(ctx, s);
		bool is_cur = false;

		for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
			is_cur |= cur[t] == s;
		if (!is_cur && (kind == SEG_HAS_DATA || kind == SEG_HAS_NODE))
			check_sum_type(ctx, s, sum);
		if (is_cur || type > ZF2FS_LOG_COLD_NODE)
			continue;
		if (kind == SEG_HAS_DATA && type > ZF2FS_LOG_COLD_DATA)
			want = ZF2FS_LOG_WARM_DATA;
		else if (kind == SEG_HAS_NODE && type <= ZF2FS_LOG_COLD_DATA)
			want = ZF2FS_LOG_WARM_NODE;
		if (want != type &&
		    fix_problem(ctx, PR_7_SIT_TYPE_WRONG, &(struct problem_ctx){
				.segno = s, .num = type, .num2 = want }))
			repair_set_seg_type(ctx, s, want);
	}
	free(sum);
}

static void check_sit(struct fsck_ctx *ctx)
{
	for (uint32_t s = 0; s < ctx->vi->main_segs && !ctx->abort; s++) {
		const struct zf2fs_sit_entry *se = sit_get(ctx, s);
		uint32_t count = zf2fs_sit_valid_blocks(se), found = seg_found_get(ctx, s);
		uint32_t diff = 0;
		struct problem_ctx p = { .segno = s };

		/* nothing recorded, nothing found (most of a big volume): nothing to compare */
		if (!found && !count && !ctx->sit_type_fix && !zf2fs_sit_map_weight(se))
			continue;
		for (uint32_t off = 0; off < ZF2FS_BLOCKS_PER_SEG; off++)
			if (sit_bit(se, off) != found_bit(ctx, s, off))
				diff++;
		if (count != found) {
			p.num = count;
			p.num2 = found;
			if (fix_problem(ctx, PR_7_SIT_VALID_BAD, &p))
				repair_sit_from_found(ctx, s);
		} else if (diff) {
			p.num = diff;
			if (fix_problem(ctx, PR_7_SIT_BITMAP_BAD, &p))
				repair_sit_from_found(ctx, s);
		} else if (ctx->sit_type_fix &&
			   zf2fs_sit_type(se) > ZF2FS_LOG_COLD_NODE) {
			repair_sit_from_found(ctx, s);
		}
	}
}

static void check_cursegs(struct fsck_ctx *ctx, uint32_t cur[ZF2FS_NR_CURSEG])
{
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		uint32_t seg, off;
		uint8_t kind;

		zf2fs_vol_curseg(ctx->vol, t, &seg, &off);
		cur[t] = seg;
		/* a read-only volume uses two logs, hot data and hot node; the others point at
		 * segment 0 (the data log's) and are never written */
		if ((ctx->vi->features & ZF2FS_FEAT_RO) && t != ZF2FS_LOG_HOT_DATA &&
		    t != ZF2FS_LOG_HOT_NODE)
			continue;
		/* a data log in a segment of nodes (or a node log among data): the log's next
		 * blocks would mix both kinds in one segment, which the garbage collector moves
		 * by one kind only.  The segment keeps its kind (SIT type, summary footer) and
		 * the log moves to a free segment. */
		kind = seg_kind_get(ctx, seg);
		if (kind == SEG_HAS_DATA || kind == SEG_HAS_NODE) {
			bool node_log = t > ZF2FS_LOG_COLD_DATA;
			bool node_seg = kind == SEG_HAS_NODE;

			if (node_log != node_seg) {
				if (fix_problem(ctx, PR_7_CURSEG_WRONG_KIND, &(struct problem_ctx){
						.segno = seg, .num = (uint64_t)t,
						.str = node_seg ? "nodes" : "data" })) {
					ctx->curseg_fix[t] = ZF2FS_BLOCKS_PER_SEG;
					repair_set_seg_type(ctx, seg, node_seg ? ZF2FS_LOG_WARM_NODE :
							    ZF2FS_LOG_WARM_DATA);
					repair_set_sum_type(ctx, seg, node_seg ? ZF2FS_SUM_TYPE_NODE :
							    ZF2FS_SUM_TYPE_DATA);
					repair_mark_checkpoint(ctx);
				}
				continue;
			}
		}
		{
			uint32_t type = zf2fs_sit_type(sit_get(ctx, seg));

			/* a current segment carries its log's type */
			if (type != (uint32_t)t &&
			    fix_problem(ctx, PR_7_SIT_TYPE_WRONG, &(struct problem_ctx){
					.segno = seg, .num = type, .num2 = (uint64_t)t }))
				repair_set_seg_type(ctx, seg, (uint32_t)t);
		}
		/* the kernel refuses to mount when the block at a log's write position is in
		 * use (sanity_check_curseg), whatever the log's kind; an SSR log (alloc_type 1)
		 * fills holes anywhere: its position moves to the next free block, from the
		 * start of the segment when none follows */
		if (ctx->cp->alloc_type[t] != 0) {
			uint32_t b = off;
			char where[80];

			if (off >= ZF2FS_BLOCKS_PER_SEG || !found_bit(ctx, seg, off))
				continue;
			while (b < ZF2FS_BLOCKS_PER_SEG && found_bit(ctx, seg, b))
				b++;
			if (b == ZF2FS_BLOCKS_PER_SEG)
				for (b = 0; b < off && found_bit(ctx, seg, b); b++)
					;
			if (b == off)
				snprintf(where, sizeof(where), "the segment is full: the log moves to a "
					 "free segment");
			else
				snprintf(where, sizeof(where), "block %u is the next free one", b);
			if (fix_problem(ctx, PR_7_CURSEG_SSR_USED, &(struct problem_ctx){
					.segno = seg, .num = (uint64_t)t, .num2 = off, .str = where })) {
				/* a position past the segment's end: repair_commit opens a new one */
				ctx->curseg_fix[t] = (int32_t)(b == off ? ZF2FS_BLOCKS_PER_SEG : b);
				repair_mark_checkpoint(ctx);
			}
			continue;
		}
		for (uint32_t b = off; b < ZF2FS_BLOCKS_PER_SEG; b++) {
			uint32_t last = ZF2FS_BLOCKS_PER_SEG - 1;

			if (!found_bit(ctx, seg, b))
				continue;
			/* the log goes on after its last block in use */
			if (fix_problem(ctx, PR_7_CURSEG_NEXT_USED, &(struct problem_ctx){
					.segno = seg, .num = (uint64_t)t, .num2 = b })) {
				while (!found_bit(ctx, seg, last))
					last--;
				ctx->curseg_fix[t] = (int32_t)last + 1;
				repair_mark_checkpoint(ctx);
			}
			break;
		}
	}
}

static void counter(struct fsck_ctx *ctx, uint32_t code, uint64_t recorded, uint64_t found)
{
	if (recorded != found &&
	    fix_problem(ctx, code, &(struct problem_ctx){ .num = recorded, .num2 = found }))
		repair_mark_checkpoint(ctx);
}

/* no block fsck found in use lies in main segment @s */
static bool seg_empty(void *arg, uint32_t s)
{
	return !seg_found_get(arg, s);
}

int pass7_accounting(struct fsck_ctx *ctx)
{
	const struct zf2fs_checkpoint *cp = ctx->cp;
	uint32_t cur[ZF2FS_NR_CURSEG], free_segs = 0;

	check_sit(ctx);
	check_seg_kinds(ctx);
	check_cursegs(ctx, cur);
	free(ctx->seg_kind);
	ctx->seg_kind = NULL;
	zoned_prepare(ctx);
	free_segs = zf2fs_free_segs(ctx->vi, ctx->zone_unusable, cur, seg_empty, ctx);
	counter(ctx, PR_7_CP_VALID_BLOCKS_BAD, zf2fs_get(cp->valid_block_count),
		ctx->found_blocks + ctx->found_reserved);
	counter(ctx, PR_7_CP_VALID_NODES_BAD, zf2fs_get(cp->valid_node_count), ctx->found_nodes);
	counter(ctx, PR_7_CP_VALID_INODES_BAD, zf2fs_get(cp->valid_inode_count), ctx->found_inodes);
	/* Zoned volumes: the count needs the zone capacity (segments past it are never
	 * free), which only the devices' zone report gives; on an image file it is not
	 * checked (pass 8 says the capacities were not read). */
	if (free_count_known(ctx))
		counter(ctx, PR_7_CP_FREE_SEGS_BAD, zf2fs_get(cp->free_segment_count), free_segs);
	if ((ctx->vi->features & ZF2FS_FEAT_BLKZONED) && ctx->debug >= 2) {
		zs_progress_clear(&ctx->prog);
		fprintf(ctx->out, "zoned: checkpoint free_segment_count %u, %u usable segments free%s\n",
			(unsigned)zf2fs_get(cp->free_segment_count), free_segs,
			ctx->zone_cap_known ? "" : " (zone capacities unknown: not checked)");
	}
	if (zf2fs_get(cp->next_free_nid) >= ctx->vi->max_nid &&
	    fix_problem(ctx, PR_7_NEXT_FREE_NID_BAD, &(struct problem_ctx){
			.num = zf2fs_get(cp->next_free_nid), .num2 = ctx->vi->max_nid }))
		repair_mark_checkpoint(ctx);
	return 0;
}
