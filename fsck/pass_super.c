// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_super.c - passes 1 and 2: superblocks and checkpoint packs.
 *
 * The volume was opened with a superblock copy and a checkpoint pack that the kernel would
 * accept (lib/read/volume.c); here the copy or pack that was rejected is reported.  A bad
 * superblock copy is rebuilt from the good one.  An unclean checkpoint with fsync'd node
 * blocks after it is noted: the kernel replays them at mount; repair_commit() keeps the
 * chain for it.  Builds: ctx->orphans (inodes on the orphan list), ctx->rf_chain.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/format.h"
#include "zf2fs-internal/volume.h"

/* Names of the kernel's error records (include/linux/f2fs_fs.h, enum f2fs_error), for the
 * message; the stop reasons are named by the library (zf2fs_stop_reason_name). */
static const char *const error_names[] = {
	"corrupted cluster", "decompression failure", "invalid block address",
	"corrupted dentry", "corrupted inode", "inconsistent summary", "inconsistent footer",
	"inconsistent summary type", "corrupted journal", "inconsistent node count",
	"inconsistent block count", "invalid current segment", "inconsistent SIT",
	"corrupted verity xattr", "corrupted xattr", "invalid node reference",
	"inconsistent NAT", "inconsistent orphan",
};

/*
 * The kernel records in the superblock why it stopped checkpointing (s_stop_reason, a
 * counter per reason) and which kinds of damage it met (s_errors, a bitmap).  Both say
 * "run fsck"; once fsck has repaired everything, they are history and are cleared.
 */
static void check_error_records(struct fsck_ctx *ctx)
{
	const struct zf2fs_super *sb = ctx->sb;
	char what[400];
	size_t o = 0;

	what[0] = 0;
	for (unsigned i = 0; i < sizeof(sb->s_stop_reason); i++)
		if (sb->s_stop_reason[i] && o < sizeof(what))
			o += (size_t)snprintf(what + o, sizeof(what) - o, "%sstopped by %s (%u times)",
					      o ? ", " : "", zf2fs_stop_reason_name(i) ?
					      zf2fs_stop_reason_name(i) : "an unknown reason",
					      sb->s_stop_reason[i]);
	for (size_t i = 0; i < sizeof(sb->s_errors) * 8; i++)
		if (zf2fs_lbit_test(sb->s_errors, i) && o < sizeof(what))
			o += (size_t)snprintf(what + o, sizeof(what) - o, "%s%s", o ? ", " : "",
					      i < sizeof(error_names) / sizeof(error_names[0]) ?
					      error_names[i] : "an unknown error");
	if (!o)
		return;
	if (fix_problem(ctx, PR_1_SB_ERRORS_RECORDED, &(struct problem_ctx){ .str = what })) {
		ctx->sb_errors_clear = true;
		repair_mark_checkpoint(ctx);   /* a commit, after which they are cleared */
	}
}

int super_update(struct fsck_ctx *ctx, bool clear_errors)
{
	uint8_t *blk = malloc(ZF2FS_BLKSIZE_MAX);
	int err = 0;

	if (!blk)
		return -ENOMEM;
	/* the copy not in use first: a crash between the two leaves two valid copies */
	for (int k = 0; k < 2 && !err; k++) {
		int copy = k ? ctx->vi->sb_copy : !ctx->vi->sb_copy;
		struct zf2fs_super *sb = (struct zf2fs_super *)(blk + ZF2FS_SUPER_OFFSET);
		bool crc_used;

		err = zf2fs_vol_read_block(ctx->vol, (uint64_t)copy, blk);
		if (err)
			break;
		if (zf2fs_vol_super_problem(ctx->vol, copy)[0])
			continue;   /* a bad copy was rewritten from the good one, or is left */
		crc_used = zf2fs_get(sb->crc) == zf2fs_super_checksum(sb);
		if (clear_errors) {
			memset(sb->s_stop_reason, 0, sizeof(sb->s_stop_reason));
			memset(sb->s_errors, 0, sizeof(sb->s_errors));
		}
		zf2fs_set(sb->feature, zf2fs_get(sb->feature) | ctx->sb_add_features);
		if (ctx->sb_uuid_fix)
			memcpy(sb->uuid, ctx->sb->uuid, sizeof(sb->uuid));
		if (ctx->sb_qf_clear && !(zf2fs_get(sb->feature) & ZF2FS_FEAT_QUOTA_INO))
			memset(sb->qf_ino, 0, sizeof(sb->qf_ino));
		if (ctx->sb_qf_fix)
			memcpy(sb->qf_ino, ctx->sb->qf_ino, sizeof(sb->qf_ino));
		if (ctx->sb_segcount_fix &&
		    zf2fs_get(sb->segment_count) > zf2fs_super_areas_segments(sb))
			zf2fs_set(sb->segment_count, zf2fs_super_areas_segments(sb));
		if (crc_used)
			zf2fs_set(sb->crc, zf2fs_super_checksum(sb));
		err = zf2fs_vol_write_block(ctx->vol, (uint64_t)copy, blk);
		if (!err)
			err = zf2fs_dev_sync(zf2fs_vol_dev(ctx->vol, 0));
	}
	free(blk);
	return err;
}

/*
 * The uuid seeds every inode's checksum (and the kernel checks them at each read): two valid
 * copies that differ in it are told apart by the root inode's checksum.  The copy whose
 * uuid does not verify it takes the other's (the kernel reads the primary, so a wrong
 * primary uuid makes every inode unreadable; rewriting every checksum instead would hide
 * which copy was damaged).  Nothing to decide without inode checksums.
 */
static int check_uuid(struct fsck_ctx *ctx)
{
	uint8_t *blk = malloc(2 * ZF2FS_BLKSIZE_MAX);
	struct zf2fs_node *root = blk ? (struct zf2fs_node *)(blk + ZF2FS_BLKSIZE_MAX) : NULL;
	const struct zf2fs_super *other;
	int copy = ctx->vi->sb_copy, err = 0;

	if (!blk)
		return -ENOMEM;
	other = (const struct zf2fs_super *)(blk + ZF2FS_SUPER_OFFSET);
	if (!(ctx->vi->features & ZF2FS_FEAT_INODE_CHKSUM) ||
	    zf2fs_vol_super_problem(ctx->vol, !copy)[0] ||
	    zf2fs_vol_read_block(ctx->vol, (uint64_t)!copy, blk) ||
	    !memcmp(other->uuid, ctx->sb->uuid, sizeof(other->uuid)) ||
	    zf2fs_vol_read_node(ctx->vol, ZF2FS_ROOT_INO, root, NULL, NULL, 0) ||
	    !(root->i.i_inline & ZF2FS_EXTRA_ATTR))
		goto out;
	if (inode_csum(ctx, zf2fs_checksum_seed(ctx->sb->uuid), root) ==
	    zf2fs_get(root->i.i_inode_checksum)) {
		/* the copy in use is right: the other one takes its uuid */
		if (fix_problem(ctx, PR_1_SB_UUID_BAD, &(struct problem_ctx){
				.str = copy ? "the primary" : "the backup" })) {
			ctx->sb_uuid_fix = true;
			repair_mark_checkpoint(ctx);
		}
	} else if (inode_csum(ctx, zf2fs_checksum_seed(other->uuid), root) ==
		   zf2fs_get(root->i.i_inode_checksum)) {
		if (fix_problem(ctx, PR_1_SB_UUID_BAD, &(struct problem_ctx){
				.str = copy ? "the backup" : "the primary" })) {
			ctx->sb_own = malloc(sizeof(*ctx->sb_own));
			if (!ctx->sb_own) {
				err = -ENOMEM;
				goto out;
			}
			memcpy(ctx->sb_own, ctx->sb, sizeof(*ctx->sb_own));
			memcpy(ctx->sb_own->uuid, other->uuid, sizeof(other->uuid));
			ctx->sb = ctx->sb_own;
			ctx->sb_uuid_fix = true;
			repair_mark_checkpoint(ctx);
		}
	}
out:
	free(blk);
	return err;
}

/*
 * Quota file inode numbers are read by the kernel only with the quota_ino feature (it then
 * loads each named inode as a quota file at mount); without it mkfs leaves them 0 and
 * nothing reads them.  Nonzero ones are stale: f2fs-tools' fsck checks the inodes they
 * name as quota files all the same, and fails on them.  Cleared in both copies, which
 * loses nothing.
 */
static void check_stale_qf_ino(struct fsck_ctx *ctx)
{
	char what[80];
	size_t o = 0;

	if (ctx->vi->features & ZF2FS_FEAT_QUOTA_INO)
		return;
	what[0] = 0;
	for (int q = 0; q < ZF2FS_MAX_QUOTAS; q++)
		if (zf2fs_get(ctx->sb->qf_ino[q]))
			o += (size_t)snprintf(what + o, sizeof(what) - o, "%s%s %u", o ? ", " : "",
					      zf2fs_quota_type_name(q),
					      (unsigned)zf2fs_get(ctx->sb->qf_ino[q]));
	if (o && fix_problem(ctx, PR_1_SB_QF_INO_STALE, &(struct problem_ctx){ .str = what })) {
		ctx->sb_qf_clear = true;
		repair_mark_checkpoint(ctx);
	}
}

/* Inode @ino holds a quota file of @type that the kernel can load. */
static bool holds_quota_file(struct fsck_ctx *ctx, uint32_t ino, int type)
{
	struct zf2fs_quota_file qf;
	char why[160];
	bool ok;

	if (!ino || ino >= ctx->vi->max_nid)
		return false;
	ok = zf2fs_quota_load(ctx->vol, ino, type, &qf, why, sizeof(why)) == 0;
	zf2fs_quota_file_free(&qf);
	return ok;
}

/*
 * With quota_ino the kernel loads, at mount, the quota files the superblock copy in use
 * names; a number that names no such file leaves that quota off, and the file itself
 * unreachable.  When the two valid copies name different inodes for one type, the one
 * holding a quota file of that type is the witness: the copy in use takes the other's
 * number, or the other copy takes the number in use.  Both copies are rewritten.
 */
static int check_qf_ino(struct fsck_ctx *ctx)
{
	uint8_t *blk;
	const struct zf2fs_super *other;
	int copy = ctx->vi->sb_copy, err = 0;

	if (!(ctx->vi->features & ZF2FS_FEAT_QUOTA_INO) ||
	    zf2fs_vol_super_problem(ctx->vol, !copy)[0])
		return 0;
	blk = malloc(ZF2FS_BLKSIZE_MAX);
	if (!blk)
		return -ENOMEM;
	other = (const struct zf2fs_super *)(blk + ZF2FS_SUPER_OFFSET);
	if (zf2fs_vol_read_block(ctx->vol, (uint64_t)!copy, blk))
		goto out;
	for (int q = 0; q < ZF2FS_MAX_QUOTAS; q++) {
		uint32_t mine = (uint32_t)zf2fs_get(ctx->sb->qf_ino[q]);
		uint32_t theirs = (uint32_t)zf2fs_get(other->qf_ino[q]);
		bool mine_ok, theirs_ok;
		char what[80];
		struct problem_ctx p = { .str = what };

		if (mine == theirs)
			continue;
		mine_ok = holds_quota_file(ctx, mine, q);
		theirs_ok = holds_quota_file(ctx, theirs, q);
		/* no number at all is right for a type no feature asks for (mkfs writes 0 for
		 * project quota without project_quota); the kernel would try to load one */
		if (!theirs && !mine_ok && q == ZF2FS_QUOTA_PRJ &&
		    !(ctx->vi->features & ZF2FS_FEAT_PRJQUOTA))
			theirs_ok = true;
		if (mine_ok == theirs_ok)
			continue;
		snprintf(what, sizeof(what), "the %s superblock's %s quota file inode",
			 (mine_ok ? !copy : copy) ? "backup" : "primary", zf2fs_quota_type_name(q));
		p.num = mine_ok ? theirs : mine;
		p.num2 = mine_ok ? mine : theirs;
		if (!fix_problem(ctx, PR_1_SB_QF_INO_BAD, &p))
			continue;
		if (!mine_ok) {
			if (!ctx->sb_own) {
				ctx->sb_own = malloc(sizeof(*ctx->sb_own));
				if (!ctx->sb_own) {
					err = -ENOMEM;
					break;
				}
				memcpy(ctx->sb_own, ctx->sb, sizeof(*ctx->sb_own));
				ctx->sb = ctx->sb_own;
			}
			zf2fs_set(ctx->sb_own->qf_ino[q], theirs);
		}
		ctx->sb_qf_fix = true;
		repair_mark_checkpoint(ctx);
	}
out:
	free(blk);
	return err;
}

/*
 * segment_count larger than the areas (segment 0 to the main area's end): the kernel
 * accepts it and writes the superblock back with the areas' count at mount (and
 * f2fs-tools' fsck does the same); both copies get it.
 */
static int check_segment_count(struct fsck_ctx *ctx)
{
	uint8_t *blk = malloc(ZF2FS_BLKSIZE_MAX);

	if (!blk)
		return -ENOMEM;
	for (int copy = 0; copy < 2; copy++) {
		const struct zf2fs_super *sb = (const struct zf2fs_super *)(blk + ZF2FS_SUPER_OFFSET);
		struct problem_ctx p = { .str = copy ? "backup" : "primary" };

		if (zf2fs_vol_super_problem(ctx->vol, copy)[0] ||
		    zf2fs_vol_read_block(ctx->vol, (uint64_t)copy, blk))
			continue;
		p.num = zf2fs_get(sb->segment_count);
		p.num2 = zf2fs_super_areas_segments(sb);
		if (p.num > p.num2 && fix_problem(ctx, PR_1_SB_SEGMENT_COUNT, &p)) {
			ctx->sb_segcount_fix = true;
			repair_mark_checkpoint(ctx);
		}
	}
	free(blk);
	return 0;
}

/* A volume f2fs_mdrestore wrote from an image with scrambled names: their hashes are
 * not the names' (they keep the original names' places), and are not checked. */
static void check_metadump_marker(struct fsck_ctx *ctx)
{
	uint8_t *blk = malloc(ctx->g->blocksize);

	if (blk && !zf2fs_vol_read_block(ctx->vol, 0, blk) &&
	    !memcmp(blk + ZF2FS_METADUMP_MARKER_OFFSET, ZF2FS_METADUMP_MARKER,
		    sizeof(ZF2FS_METADUMP_MARKER))) {
		ctx->names_scrambled = true;
		fprintf(ctx->out, "names scrambled by f2fs_metadump: their hashes are not "
			"checked\n");
	}
	free(blk);
}

int pass1_super(struct fsck_ctx *ctx)
{
	int err;

	check_metadump_marker(ctx);
	check_error_records(ctx);
	err = check_uuid(ctx);
	if (err)
		return err;
	check_stale_qf_ino(ctx);
	err = check_qf_ino(ctx);
	if (!err)
		err = check_segment_count(ctx);
	if (err)
		return err;
	for (int i = 0; i < 2; i++) {
		struct problem_ctx p = { .str = zf2fs_vol_super_problem(ctx->vol, i) };

		if (!p.str[0])
			continue;
		if (fix_problem(ctx, i == 0 ? PR_1_SB_PRIMARY_BAD : PR_1_SB_BACKUP_BAD, &p)) {
			err = repair_rewrite_primary_super(ctx);
			if (err)
				return err;
		}
	}
	return 0;
}

/* Why the kernel cannot free orphan entry @ino at mount (its f2fs_iget fails, or it would
 * free the root), in @why; false when it can.  @seen: the entries kept so far (the kernel
 * frees an inode at its first entry and cannot read it at a second). */
static bool orphan_entry_bad(struct fsck_ctx *ctx, uint32_t ino, struct zf2fs_node *n,
			     struct zf2fs_bmap *seen, char *why, size_t len)
{
	if (ino < ctx->vi->max_nid && zf2fs_bmap_test(seen, ino)) {
		snprintf(why, len, "listed already: freed at its first entry");
		return true;
	}
	if (ino == ZF2FS_ROOT_INO) {
		snprintf(why, len, "the root directory");
		return true;
	}
	if (ino < ZF2FS_RESERVED_NIDS || ino >= ctx->vi->max_nid) {
		snprintf(why, len, "no inode number (3..%u)", ctx->vi->max_nid - 1);
		return true;
	}
	if (zf2fs_vol_read_node(ctx->vol, ino, n, NULL, why, len))
		return true;
	if (zf2fs_get(nfoot(ctx, n)->ino) != ino) {
		snprintf(why, len, "a node of inode %llu, not an inode",
			 (unsigned long long)zf2fs_get(nfoot(ctx, n)->ino));
		return true;
	}
	return false;
}

/*
 * The orphan list: with the orphan flag, the blocks between the payload and the summaries.
 * At mount Linux 7.3 frees every inode it names and fails the mount on a block counting
 * more entries than a block holds, and on an entry it cannot read as an inode (one naming
 * an inode an earlier entry named included: that one is freed by then).  Each such
 * block or entry is left out of the list; unless one is kept, the next checkpoint gets the
 * list that remains (an inode a dropped block named is then found in no directory, and
 * pass 6 reconnects it).
 */
static int load_orphans(struct fsck_ctx *ctx)
{
	const struct zf2fs_checkpoint *cp = ctx->cp;
	uint64_t start = zf2fs_vol_cp_pack_addr(ctx->vol, ctx->vi->cp_pack) + 1 +
			 zf2fs_get(ctx->sb->cp_payload);
	uint64_t nblocks;
	const uint32_t per = ctx->g->orphans_per_block;
	uint8_t *ob;
	struct zf2fs_node *n;
	struct zf2fs_bmap *seen = NULL;
	unsigned dropped = 0, kept = 0;
	int err = 0;

	if (!(zf2fs_get(cp->ckpt_flags) & ZF2FS_CP_ORPHAN_PRESENT_FLAG))
		return 0;
	/* orphan blocks sit between the payload and the summaries */
	nblocks = zf2fs_get(cp->cp_pack_start_sum) - 1 - zf2fs_get(ctx->sb->cp_payload);
	ob = malloc(ZF2FS_BLKSIZE_MAX);
	n = malloc(ZF2FS_BLKSIZE_MAX);
	ctx->orphans = calloc(nblocks * per + 1, sizeof(uint32_t));
	if (!ob || !n || !ctx->orphans || zf2fs_bmap_new(ctx->vi->max_nid, &seen)) {
		free(ob);
		free(n);
		return -ENOMEM;
	}
	for (uint64_t b = 0; b < nblocks && !err; b++) {
		uint32_t cnt;
		struct problem_ctx p = { .num = b };

		err = zf2fs_vol_read_block(ctx->vol, start + b, ob);
		if (err)
			break;
		/* the kernel writes no checksum here; it trusts only a sane count (the block
		 * ends in its entry count and a crc word, its inode numbers from the start) */
		cnt = zf2fs_get_le32p(ob + ctx->g->blocksize - 8);
		if (cnt > per) {
			p.num2 = cnt;
			if (fix_problem(ctx, PR_2_CP_ORPHAN_BLOCK_BAD, &p))
				dropped++;
			else
				kept++;
			continue;
		}
		for (uint32_t i = 0; i < cnt; i++) {
			uint32_t ino = zf2fs_get_le32p(ob + 4 * (size_t)i);
			char why[160];

			p.num2 = i;
			p.ino = ino;
			p.str = why;
			if (!orphan_entry_bad(ctx, ino, n, seen, why, sizeof(why))) {
				ctx->orphans[ctx->norphans++] = ino;
				err = zf2fs_bmap_set(seen, ino);
				if (err)
					break;
				continue;
			}
			if (fix_problem(ctx, PR_2_CP_ORPHAN_INO_BAD, &p))
				dropped++;
			else
				kept++;
		}
	}
	free(ob);
	free(n);
	zf2fs_bmap_free(seen);
	if (!err && dropped) {
		ctx->orphans_rewrite = true;
		repair_mark_checkpoint(ctx);
	}
	ctx->orphans_keep |= kept != 0;
	return err;
}

int pass2_checkpoint(struct fsck_ctx *ctx)
{
	int err;

	for (int i = 0; i < 2; i++) {
		struct problem_ctx p = { .num = (uint64_t)i + 1,
					 .str = zf2fs_vol_cp_problem(ctx->vol, i) };
		uint64_t ver;

		if (!p.str[0])
			continue;
		/* sealed and newer than the pack in use (or as new: the kernel then takes the
		 * first pack): the kernel takes it and checks it; it refuses to mount, or (a
		 * summary layout it does not check) mounts with other blocks' summaries.  A
		 * new checkpoint (written over it) is the repair */
		if (zf2fs_vol_cp_pack_version(ctx->vol, i, &ver) == 0 &&
		    (ver > ctx->vi->cp_ver || (ver == ctx->vi->cp_ver && i == 0))) {
			p.num2 = ver;
			if (fix_problem(ctx, zf2fs_vol_cp_kernel_refuses(ctx->vol, i) ?
					PR_2_CP_NEWEST_BAD : PR_2_CP_NEWEST_SUMS, &p))
				repair_mark_checkpoint(ctx);
			continue;
		}
		fix_problem(ctx, PR_2_CP_PACK_BAD, &p);
	}
	/* the kernel refuses to mount with it (f2fs_sanity_check_ckpt); any new
	 * checkpoint fsck writes goes without it */
	if ((zf2fs_get(ctx->cp->ckpt_flags) & ZF2FS_CP_ERROR_FLAG) &&
	    fix_problem(ctx, PR_2_CP_ERROR_FLAG, &(struct problem_ctx){ 0 }))
		repair_mark_checkpoint(ctx);
	err = rollforward_scan(ctx);
	if (err)
		return err;
	if (ctx->rf_len) {
		fix_problem(ctx, PR_2_CP_NEEDS_RECOVERY, &(struct problem_ctx){ .num = ctx->rf_len });
		ctx->needs_recovery = true;
	}
	return load_orphans(ctx);
}
