// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass3_tables.c - pass 3: the SIT and NAT as recorded.
 *
 * Loads every main segment's SIT entry (journal applied; all-zero SIT blocks take no
 * memory) and every NAT entry (journal applied, live copies) into memory, and checks each on its own: a SIT valid count must
 * match its bitmap and name a log type; a NAT entry must point into the main area and name
 * a plausible inode.  Builds: ctx->sit, the NAT map (natmap.c).  Cross-checks against the blocks that
 * are really owned come in pass 7.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"

static int check_sit(struct fsck_ctx *ctx)
{
	const struct zf2fs_journal *j = zf2fs_vol_sit_journal(ctx->vol);
	int err = zf2fs_vol_load_sit_table(ctx->vol, &ctx->sit);

	if (err)
		return err;
	for (uint32_t i = 0; i < zf2fs_get(j->n_entries); i++) {
		uint32_t segno = (uint32_t)zf2fs_get(j->sit.entries[i].segno);

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
		if (!zf2fs_sit_table_block_used(ctx->sit, zf2fs_sit_block_index(s))) {
			s = zf2fs_sit_block_segno(zf2fs_sit_block_index(s) + 1, 0) - 1;
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

static int check_nat(struct fsck_ctx *ctx)
{
	uint32_t nblocks = ctx->vi->nat_blocks;
	const uint32_t chunk = 64;   /* 256 KiB per read: sequential enough, small peak memory */
	const struct zf2fs_journal *j = zf2fs_vol_nat_journal(ctx->vol);
	struct zf2fs_nat_block *buf = malloc((size_t)chunk * ZF2FS_BLKSIZE);
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
			/* a NAT block holds 4095 bytes of entries: step by whole blocks */
			const struct zf2fs_nat_block *nb = (const void *)((const uint8_t *)buf +
								 (size_t)b * ZF2FS_BLKSIZE);

			for (uint32_t e = 0; e < ZF2FS_NAT_PER_BLOCK && !err; e++) {
				uint32_t nid = zf2fs_nat_block_nid(i + b, e);

				if (zf2fs_nat_ino(&nb->entries[e]) || zf2fs_nat_addr(&nb->entries[e]))
					err = nat_set(ctx, nid, &nb->entries[e]);
			}
		}
		i += run;
	}
	free(buf);
	if (err)
		return err;
	for (uint32_t i = 0; i < zf2fs_get(j->n_entries); i++) {
		uint32_t nid = (uint32_t)zf2fs_get(j->nat.entries[i].nid);

		if (nid >= ctx->vi->max_nid)
			continue;
		err = nat_set(ctx, nid, &j->nat.entries[i].ne);
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

int pass3_tables(struct fsck_ctx *ctx)
{
	int err = check_sit(ctx);

	return err ? err : check_nat(ctx);
}
