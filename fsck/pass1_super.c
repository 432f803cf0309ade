// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass1_super.c - passes 1 and 2: superblocks and checkpoint packs.
 *
 * The volume was opened with a superblock copy and a checkpoint pack that the kernel would
 * accept (lib/volume.c); here the copy or pack that was rejected is reported.  A bad
 * superblock copy is rebuilt from the good one.  An unclean checkpoint with fsync'd node
 * blocks after it is noted: the kernel replays them at mount; repair_commit() keeps the
 * chain for it.  Builds: ctx->orphans (inodes on the orphan list), ctx->rf_chain.
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
	int err;

	for (int i = 0; i < 2; i++) {
		struct problem_ctx p = { .num = (uint64_t)i + 1,
					 .str = zf2fs_vol_cp_problem(ctx->vol, i) };

		if (p.str[0])
			fix_problem(ctx, PR_2_CP_PACK_BAD, &p);
	}
	if (zf_get(ctx->cp->ckpt_flags) & ZF2FS_CP_ERROR_FLAG)
		fix_problem(ctx, PR_2_CP_ERROR_FLAG, &(struct problem_ctx){ 0 });
	err = rollforward_scan(ctx);
	if (err)
		return err;
	if (ctx->rf_len) {
		fix_problem(ctx, PR_2_CP_NEEDS_RECOVERY, &(struct problem_ctx){ .num = ctx->rf_len });
		ctx->needs_recovery = true;
	}
	return load_orphans(ctx);
}
