// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_tables.c - pass 3: the SIT and NAT as recorded.
 *
 * Loads every main segment's SIT entry (journal applied; all-zero SIT blocks take no
 * memory) and every NAT entry (journal applied, live copies) into memory, and checks each
 * on its own: a SIT valid count must match its bitmap and name a log type; a NAT entry
 * must point into the main area and name a plausible inode, and a quota file's entry
 * must hold a block.  Builds: ctx->sit, the NAT map (natmap.c).  Cross-checks against the
 * blocks that are really owned come in pass 7.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/quota.h"
#include "zf2fs-internal/volume.h"

static int check_sit(struct fsck_ctx *ctx)
{
	const struct zf2fs_journal *j = zf2fs_vol_sit_journal(ctx->vol);
	int err = zf2fs_vol_load_sit_table(ctx->vol, &ctx->sit);

	if (err)
		return err;
	for (uint32_t i = 0; i < zf2fs_get(j->n_entries) && i < ctx->g->sit_journal_entries; i++) {
		uint32_t segno = (uint32_t)zf2fs_get(zf2fs_journal_sit(j, i)->segno);

		/* a new checkpoint flushes the journal and leaves such entries out */
		if (segno >= ctx->vi->main_segs &&
		    fix_problem(ctx, PR_3_JOURNAL_SEG_BAD, &(struct problem_ctx){ .num = segno }))
			repair_mark_checkpoint(ctx);
	}
	for (uint32_t s = 0; s < ctx->vi->main_segs; s++) {
		const struct zf2fs_sit_entry *se;
		uint32_t count, type, bits;
		struct problem_ctx p = { .segno = s };

		/* a block of entries that is all zeros on disk holds nothing to check */
		if (!zf2fs_sit_table_block_used(ctx->sit, zf2fs_geom_sit_block_index(ctx->g, s))) {
			s = (zf2fs_geom_sit_block_index(ctx->g, s) + 1) * ctx->g->sit_per_block - 1;
			continue;
		}
		se = sit_get(ctx, s);
		count = zf2fs_sit_valid_blocks(se);
		type = zf2fs_sit_type(se);
		bits = zf2fs_sit_map_weight(se);

		/* the fix itself comes from pass 7, which knows the blocks really in use */
		if (count != bits) {
			p.num = count;
			p.num2 = bits;
			fix_problem(ctx, PR_3_SIT_COUNT_BAD, &p);
			ctx->sit_dirty = true;
		}
		if (type > ZF2FS_LOG_COLD_NODE) {
			p.num = type;
			if (fix_problem(ctx, PR_3_SIT_TYPE_BAD, &p))
				ctx->sit_type_fix = true;
		}
	}
	return 0;
}

/* Make the table cover nids below @n (zeroed); it grows up to the last nid in use. */
static int nat_grow(struct fsck_ctx *ctx, uint32_t n)
{
	if (n > ctx->nat_cap) {
		uint32_t cap = (n + 65535) / 65536 * 65536;
		uint32_t *t;
		uint8_t *v;

		if (cap > ctx->vi->max_nid)
			cap = ctx->vi->max_nid;
		t = realloc(ctx->nat_addr, (size_t)cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		memset(t + ctx->nat_cap, 0, (size_t)(cap - ctx->nat_cap) * sizeof(*t));
		ctx->nat_addr = t;
		v = realloc(ctx->nat_ver, cap);
		if (!v)
			return -ENOMEM;
		memset(v + ctx->nat_cap, 0, cap - ctx->nat_cap);
		ctx->nat_ver = v;
		ctx->nat_cap = cap;
	}
	if (n > ctx->nids)
		ctx->nids = n;
	return 0;
}

static int nat_set(struct fsck_ctx *ctx, uint32_t nid, const struct zf2fs_nat_entry *ne)
{
	int err = nat_grow(ctx, nid + 1);

	if (!err)
		err = nat_put(ctx, nid, zf2fs_nat_ino(ne), zf2fs_nat_addr(ne));
	if (!err)
		ctx->nat_ver[nid] = ne->version;
	return err;
}

/* Searches of the summaries for node blocks a run: the library holds four NAT overrides. */
#define FIND_NODE_SCANS 4

/*
 * A node block that its NAT entry lost (an address outside the main area) is usually still
 * where it was: valid in the SIT, in a node segment whose summary names the nid, its footer
 * naming the nid and the inode the entry names.  The newest such block is taken back, so
 * that the file keeps every block below that node (clearing the entry loses them all).
 * Only for nodes other than inodes (pass 4 finds an inode's block when it reaches it).
 * Returns 1 when the entry points at it now, 0 when not, or a negative errno.
 */
static int restore_node_nat(struct fsck_ctx *ctx, uint32_t nid, uint32_t ino, uint32_t old)
{
	struct zf2fs_summary_block *sum;
	struct zf2fs_node *n;
	uint64_t best = 0, best_ver = 0;
	int err = 0;

	if (ino == nid || ino < ZF2FS_RESERVED_NIDS || ino >= ctx->vi->max_nid ||
	    ctx->node_scans >= FIND_NODE_SCANS)
		return 0;
	ctx->node_scans++;
	sum = malloc(ZF2FS_BLKSIZE_MAX);
	n = malloc(ZF2FS_BLKSIZE_MAX);
	if (!sum || !n) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t s = 0; s < ctx->vi->main_segs; s++) {
		const struct zf2fs_sit_entry *se = sit_get(ctx, s);

		if (!zf2fs_sit_valid_blocks(se) || zf2fs_sit_type(se) < ZF2FS_LOG_HOT_NODE ||
		    zf2fs_vol_segment_summary(ctx->vol, s, sum) ||
		    sum_footer(ctx, sum)->entry_type != ZF2FS_SUM_TYPE_NODE)
			continue;
		for (uint32_t off = 0; off < ZF2FS_BLOCKS_PER_SEG; off++) {
			uint64_t blk = zf2fs_main_blk(ctx->vi->main_blkaddr, s, off);

			if (!sit_bit(se, off) || zf2fs_get(sum->entries[off].nid) != nid ||
			    zf2fs_vol_read_block(ctx->vol, blk, n) ||
			    zf2fs_get(nfoot(ctx, n)->nid) != nid || zf2fs_get(nfoot(ctx, n)->ino) != ino ||
			    !node_ofs(ctx, n))
				continue;
			if (!best || zf2fs_get(nfoot(ctx, n)->cp_ver) > best_ver) {
				best = blk;
				best_ver = zf2fs_get(nfoot(ctx, n)->cp_ver);
			}
		}
	}
	if (best && fix_problem(ctx, PR_3_NAT_ADDR_FOUND, &(struct problem_ctx){
			.nid = nid, .num = ino, .num2 = old, .blkaddr = best })) {
		/* later passes read the node through the library: it takes the new address too */
		err = zf2fs_vol_nat_override(ctx->vol, nid, ino, (uint32_t)best);
		if (!err)
			err = repair_set_nat(ctx, nid, ino, (uint32_t)best);
		if (!err) {
			ctx->nat_addr[nid] = (uint32_t)best;
			err = 1;
		}
	}
out:
	free(sum);
	free(n);
	return err;
}

static int check_nat(struct fsck_ctx *ctx)
{
	uint32_t nblocks = ctx->vi->nat_blocks;
	const uint32_t chunk = 64;   /* 256 KiB per read: sequential enough, small peak memory */
	const struct zf2fs_journal *j = zf2fs_vol_nat_journal(ctx->vol);
	const uint32_t bs = ctx->g->blocksize, per = ctx->g->nat_per_block;
	uint8_t *buf = malloc((size_t)chunk * bs);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	/* Every block is read, even those the checkpoint's nat_bits mark empty: a full check
	 * is asked for to find entries the kernel would not see (and would overwrite), and
	 * the NAT is small next to the SIT (120 MiB against 560 MiB at 16 TiB). */
	for (uint32_t i = 0; i < nblocks && !err;) {
		uint64_t addr = zf2fs_vol_nat_block_addr(ctx->vol, i);
		uint32_t run = 1;

		while (run < chunk && i + run < nblocks &&
		       zf2fs_vol_nat_block_addr(ctx->vol, i + run) == addr + run)
			run++;
		err = zf2fs_vol_read_blocks(ctx->vol, addr, run, buf);
		for (uint32_t b = 0; !err && b < run; b++) {
			/* a NAT block's entries leave a few bytes at its end: step by
			 * whole blocks */
			const uint8_t *nb = buf + (size_t)b * bs;

			for (uint32_t e = 0; e < per && !err; e++) {
				const struct zf2fs_nat_entry *ne = zf2fs_nat_block_entry(nb, e);
				uint32_t nid = (i + b) * per + e;

				if (zf2fs_nat_ino(ne) || zf2fs_nat_addr(ne))
					err = nat_set(ctx, nid, ne);
			}
		}
		i += run;
	}
	free(buf);
	if (err)
		return err;
	for (uint32_t i = 0; i < zf2fs_get(j->n_entries) && i < ctx->g->nat_journal_entries; i++) {
		uint32_t nid = (uint32_t)zf2fs_get(zf2fs_journal_nat(j, i)->nid);

		if (nid >= ctx->vi->max_nid)
			continue;
		err = nat_set(ctx, nid, &zf2fs_journal_nat(j, i)->ne);
		if (err)
			return err;
	}
	/* the root's slot always exists, even when the NAT is empty */
	err = nat_grow(ctx, ZF2FS_ROOT_INO + 1);
	if (!err && ctx->nat_cap > ctx->nids) {
		uint32_t *t = realloc(ctx->nat_addr, (size_t)ctx->nids * sizeof(*t));
		uint8_t *v;

		if (t)
			ctx->nat_addr = t;
		v = t ? realloc(ctx->nat_ver, ctx->nids) : NULL;
		if (v) {
			ctx->nat_ver = v;
			ctx->nat_cap = ctx->nids;
		}
	}
	if (!err)
		err = fsck_alloc_nid_maps(ctx);
	if (err)
		return err;
	for (uint32_t nid = ZF2FS_RESERVED_NIDS; nid < ctx->nids; nid++) {
		uint32_t addr = ctx->nat_addr[nid], ino;
		struct problem_ctx p = { .nid = nid, .blkaddr = addr };

		if (addr == ZF2FS_NULL_ADDR)
			continue;
		ino = nat_ino(ctx, nid);
		p.num = ino;
		if (addr != ZF2FS_NEW_ADDR && !blk_in_main(ctx, addr)) {
			int r = restore_node_nat(ctx, nid, ino, addr);

			if (r < 0)
				return r;
			if (r)
				continue;
			if (fix_problem(ctx, PR_3_NAT_ADDR_BAD, &p))
				ctx->nid_flags[nid] |= NID_BAD | NID_CLEAR;
			else
				ctx->nid_flags[nid] |= NID_BAD;
			continue;
		}
		if (ino < ZF2FS_RESERVED_NIDS || ino >= ctx->vi->max_nid) {
			if (fix_problem(ctx, PR_3_NAT_INO_BAD, &p))
				ctx->nid_flags[nid] |= NID_BAD | NID_CLEAR;
			else
				ctx->nid_flags[nid] |= NID_BAD;
		}
	}
	return 0;
}

/*
 * With quota_ino the kernel refuses to look up the node of a quota file whose NAT entry
 * holds no block (null or new address): it cannot load the file at mount and leaves every
 * quota off.  The inode block is often still where it was (the entry alone was lost): then
 * the entry points at it again, limits and all.  Otherwise pass 9 builds the file anew
 * in that inode number from the usage it finds; the blocks of the old file, which nothing
 * owns any longer, are freed by pass 7.
 */
static int check_quota_nat(struct fsck_ctx *ctx)
{
	for (int q = 0; ctx->quota_on && q < ZF2FS_MAX_QUOTAS; q++) {
		uint32_t qino = (uint32_t)zf2fs_get(ctx->sb->qf_ino[q]), addr;
		char what[200];
		struct problem_ctx p = { .ino = qino, .str = what };
		uint64_t blk;
		int err;

		if (qino < ZF2FS_RESERVED_NIDS || qino >= ctx->vi->max_nid)
			continue;   /* pass 1 and pass 9 report numbers that name no inode */
		if (qino >= ctx->nids && fsck_grow_nids(ctx, qino + 1))
			return -ENOMEM;
		addr = ctx->nat_addr[qino];
		if (addr != ZF2FS_NULL_ADDR && addr != ZF2FS_NEW_ADDR)
			continue;
		p.num = addr;
		blk = find_inode_block(ctx, qino, false);
		if (blk)
			snprintf(what, sizeof(what), "the %s quota file's inode block is at %llu "
				 "(found by its summary entry and footer): point the entry at it",
				 zf2fs_quota_type_name(q), (unsigned long long)blk);
		else
			snprintf(what, sizeof(what), "the %s quota file's inode block is gone: "
				 "build the file anew from the usage found (its limits and grace "
				 "times are lost)", zf2fs_quota_type_name(q));
		if (!fix_problem(ctx, PR_3_QF_NAT_BAD, &p))
			continue;
		if (blk) {
			/* later passes read the inode through the library: it takes it too */
			err = zf2fs_vol_nat_override(ctx->vol, qino, qino, (uint32_t)blk);
			if (!err)
				err = repair_set_nat(ctx, qino, qino, (uint32_t)blk);
		} else {
			err = addr == ZF2FS_NULL_ADDR ? 0 :
			      repair_set_nat(ctx, qino, 0, ZF2FS_NULL_ADDR);
			ctx->qf_create |= (uint8_t)(1u << q);
		}
		if (err)
			return err;
	}
	return 0;
}

int pass3_tables(struct fsck_ctx *ctx)
{
	int err = check_sit(ctx);

	if (!err)
		err = check_nat(ctx);
	return err ? err : check_quota_nat(ctx);
}
