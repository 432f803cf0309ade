// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass1_super.c - passes 1 and 2: superblocks and checkpoint packs.
 *
 * The volume was opened with a superblock copy and a checkpoint pack that the kernel would
 * accept (lib/volume.c); here the copy or pack that was rejected is reported.  A bad
 * superblock copy is rebuilt from the good one.  An unclean checkpoint with fsync'd node
 * blocks after it is noted: the kernel replays them at mount, so fsck must not write a new
 * checkpoint over them.  Builds: ctx->orphans (inodes on the orphan list).
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/endian.h"

int pass1_super(struct fsck_ctx *ctx)
{
	for (int i = 0; i < 2; i++) {
		struct problem_ctx p = { .str = zf2fs_vol_super_problem(ctx->vol, i) };

		if (!p.str[0])
			continue;
		if (fix_problem(ctx, i == 0 ? PR_1_SB_PRIMARY_BAD : PR_1_SB_BACKUP_BAD, &p)) {
			int err = repair_rewrite_primary_super(ctx);

			if (err)
				return err;
		}
	}
	return 0;
}

/* Does roll-forward recovery have anything to replay?  The kernel looks for node blocks
 * written after the checkpoint at the warm node log's write position, chained through
 * their footers, carrying the checkpoint's version and the fsync mark. */
static bool needs_roll_forward(struct fsck_ctx *ctx)
{
	const struct zf2fs_checkpoint *cp = ctx->cp;
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE);
	uint32_t segno, off;
	uint64_t blk, ver = ctx->vi->cp_ver;
	bool found = false;

	if (!n || (zf_get(cp->ckpt_flags) & ZF2FS_CP_UMOUNT_FLAG)) {
		free(n);
		return false;
	}
	zf2fs_vol_curseg(ctx->vol, ZF2FS_LOG_WARM_NODE, &segno, &off);
	blk = ctx->vi->main_blkaddr + (uint64_t)segno * ZF2FS_BLOCKS_PER_SEG + off;
	/* follow the chain a bounded number of steps, stopping at a loop (Brent: compare with
	 * the block seen at the last power of two) */
	uint64_t mark = UINT64_MAX;

	for (uint32_t steps = 0; steps < ctx->vi->main_segs * 8u && blk_in_main(ctx, blk); steps++) {
		uint64_t nver;

		if (blk == mark)
			break;
		if (!(steps & (steps - 1)))
			mark = blk;

		if (zf2fs_vol_read_block(ctx->vol, blk, n))
			break;
		nver = zf_get(n->footer.cp_ver);
		/* the kernel's test: the checkpoint version, with the checkpoint's crc in the
		 * upper half when CRC recovery is on (and NOCRC does not turn it off) */
		if ((zf_get(cp->ckpt_flags) & ZF2FS_CP_CRC_RECOVERY_FLAG) &&
		    !(zf_get(cp->ckpt_flags) & ZF2FS_CP_NOCRC_RECOVERY_FLAG)) {
			uint32_t crc = zf_get_le32p((const uint8_t *)cp + zf_get(cp->checksum_offset));

			if (nver != (ver | ((uint64_t)crc << 32)))
				break;
		} else if (nver != ver) {
			break;
		}
		if (zf_get(n->footer.flag) & ZF2FS_FOOTER_FSYNC_BIT) {
			found = true;
			break;
		}
		blk = zf_get(n->footer.next_blkaddr);
	}
	free(n);
	return found;
}

static int load_orphans(struct fsck_ctx *ctx)
{
	const struct zf2fs_checkpoint *cp = ctx->cp;
	uint64_t start = zf_get(ctx->sb->cp_blkaddr) + (uint64_t)ctx->vi->cp_pack *
			 ZF2FS_BLOCKS_PER_SEG + 1 + zf_get(ctx->sb->cp_payload);
	uint64_t nblocks;
	struct zf2fs_orphan_block *ob;
	int err = 0;

	if (!(zf_get(cp->ckpt_flags) & ZF2FS_CP_ORPHAN_PRESENT_FLAG))
		return 0;
	/* orphan blocks sit between the payload and the summaries */
	nblocks = zf_get(cp->cp_pack_start_sum) - 1 - zf_get(ctx->sb->cp_payload);
	ob = malloc(sizeof(*ob));
	ctx->orphans = calloc(nblocks * ZF2FS_ORPHANS_PER_BLOCK + 1, sizeof(uint32_t));
	if (!ob || !ctx->orphans) {
		free(ob);
		return -ENOMEM;
	}
	for (uint64_t b = 0; b < nblocks && !err; b++) {
		uint32_t cnt;
		struct problem_ctx p = { .num = b, .str = "entry count" };

		err = zf2fs_vol_read_block(ctx->vol, start + b, ob);
		if (err)
			break;
		/* the kernel writes no checksum here; it trusts only a sane count */
		cnt = (uint32_t)zf_get(ob->entry_count);
		if (cnt > ZF2FS_ORPHANS_PER_BLOCK) {
			fix_problem(ctx, PR_2_CP_ORPHAN_BLOCK_BAD, &p);
			continue;
		}
		for (uint32_t i = 0; i < cnt; i++) {
			uint32_t ino = zf_le32_to_cpu(ob->ino[i]);

			if (ino >= ZF2FS_RESERVED_NIDS && ino < ctx->vi->max_nid)
				ctx->orphans[ctx->norphans++] = ino;
		}
	}
	free(ob);
	return err;
}

int pass2_checkpoint(struct fsck_ctx *ctx)
{
	for (int i = 0; i < 2; i++) {
		struct problem_ctx p = { .num = (uint64_t)i + 1,
					 .str = zf2fs_vol_cp_problem(ctx->vol, i) };

		if (p.str[0])
			fix_problem(ctx, PR_2_CP_PACK_BAD, &p);
	}
	if (zf_get(ctx->cp->ckpt_flags) & ZF2FS_CP_ERROR_FLAG)
		fix_problem(ctx, PR_2_CP_ERROR_FLAG, &(struct problem_ctx){ 0 });
	if (needs_roll_forward(ctx)) {
		fix_problem(ctx, PR_2_CP_NEEDS_RECOVERY, &(struct problem_ctx){ 0 });
		ctx->needs_recovery = true;
	}
	return load_orphans(ctx);
}
