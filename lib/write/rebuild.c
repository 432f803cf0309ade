// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rebuild.c - a volume's tables rebuilt from the node blocks on its main area, for a volume
 * whose checkpoint packs or NAT are gone (fsck.f2fs --rebuild).
 *
 * Every node block carries its nid, its inode and the version of the checkpoint it was
 * written under; the log writes a node anew at each change, so older copies of a nid stay
 * until their segment is cleaned, and the newest copy is the live one.  From the newest
 * copies, the inodes that still have links and the trees they reach give the NAT (each
 * node's address), the SIT (every block they hold) and the summaries (each block's owner).
 * Inodes are taken newest first: a block that a newer file already holds makes an older
 * inode a deleted one whose blocks were reused, and it is left out whole.  When a
 * checkpoint is usable and its SIT agrees with it, only nodes in blocks that SIT calls
 * valid count, which leaves out deleted files exactly.
 *
 * The writes touch the metadata areas only, never the main area: the summaries in place,
 * the NAT and SIT into the copies a usable checkpoint does not read (the first copies
 * otherwise), then a checkpoint one version above any seen, in the pack not in use, its CP
 * blocks last (lib/write/cp_write.c).  An interruption before that last write leaves the
 * volume as it was, and a second run finds the same nodes.  Names, link counts, lost+found
 * and quotas are a full check's to mend: the rebuilt volume is one fsck can open.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"
#include "zf2fs-internal/commit.h"
#include "zf2fs-internal/format.h"
#include "zf2fs-internal/rebuild.h"
#include "zf2fs-internal/volume.h"
#include "format/layout_p.h"
#include "read/volume_p.h"
#include "write/commit_p.h"
#include "write/cp_write_p.h"

#define BPS ZF2FS_BLOCKS_PER_SEG
#define XATTR_NODE_OFS (UINT32_MAX >> ZF2FS_FOOTER_OFS_SHIFT)
#define NO_WINNER UINT32_MAX

/* A block whose footer can be a node's; ver is the checkpoint version (its low half: the
 * high half holds a crc when the checkpoint asked for crc recovery). */
struct cand {
	uint32_t nid, ino, addr, ver, ofs;
	bool cold;
	bool bad_csum;   /* an inode whose checksum does not hold */
};

/* A block one inode's tree holds: its owner node and slot, and the log type its segment
 * gets; @win is the node's index among the winners (NO_WINNER for data). */
struct claim {
	uint32_t addr, nid, win;
	uint16_t ofs;
	uint8_t type;
};

struct rb {
	struct zf2fs_vol *vol;
	const struct zf2fs_geom *g;
	struct zf2fs_rebuild_report *rep;
	uint32_t main, segs, seed;
	uint32_t max_ver;                        /* the newest version of any candidate */
	const struct zf2fs_sit_entry *old_sit;   /* when trusted */
	struct cand *c;                          /* candidates, then the winners */
	size_t n, cap;
	uint8_t *kept;                           /* per winner */
	struct zf2fs_sit_entry *sit;             /* the new SIT */
	uint8_t *kind;                           /* per segment: 0 free, 1 data, 2 node */
	struct zf2fs_summary **sum;              /* per segment, allocated when used */
	struct claim *t;                         /* the inode in hand's blocks */
	size_t tn, tcap;
	uint64_t t_reserved;                     /* and its slots counted without a block */
	bool dir, released;                      /* its kind, its compressed blocks released */
	uint8_t *blk;
	int err;
};

/* ---- finding the nodes ----------------------------------------------------------------- */
static int add_cand(void *arg, uint64_t addr, const void *node)
{
	struct rb *r = arg;
	const struct zf2fs_node_footer *f = zf2fs_node_footer(r->g, node);
	struct cand c = {
		.nid = (uint32_t)zf2fs_get(f->nid), .ino = (uint32_t)zf2fs_get(f->ino),
		.addr = (uint32_t)addr, .ver = (uint32_t)zf2fs_get(f->cp_ver),
		.ofs = zf2fs_node_ofs(r->g, node),
		.cold = zf2fs_get(f->flag) & ZF2FS_FOOTER_COLD_BIT,
	};

	r->rep->candidates++;
	/* the new checkpoint's version goes above every node's, kept or not, so that no
	 * node left on the disk can pass for part of its roll-forward chain */
	if (c.ver > r->max_ver)
		r->max_ver = c.ver;
	if (r->old_sit) {
		uint32_t seg = (uint32_t)((addr - r->main) / BPS);

		if (!zf2fs_sit_block_valid(&r->old_sit[seg], (uint32_t)((addr - r->main) % BPS))) {
			r->rep->off_sit++;
			return 0;
		}
	}
	if (c.nid == c.ino) {
		/* an inode whose checksum the kernel checks: a copy where it holds is taken
		 * before any where it does not */
		const struct zf2fs_inode *in = node;

		c.bad_csum = zf2fs_inode_has_checksum(in, r->vol->info.features) &&
			     zf2fs_inode_checksum2(r->g, r->seed, node) !=
			     (uint32_t)zf2fs_get(in->i_inode_checksum);
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 4096;
		struct cand *m = realloc(r->c, cap * sizeof(*m));

		if (!m)
			return -ENOMEM;
		r->c = m;
		r->cap = cap;
	}
	r->c[r->n++] = c;
	return 0;
}

/* By nid, a good copy before a damaged one, then the newest first; between copies of one
 * version (a node written twice before a checkpoint: an fsync, then the checkpoint), the
 * later place in the log. */
static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->nid != y->nid)
		return x->nid < y->nid ? -1 : 1;
	if (x->bad_csum != y->bad_csum)
		return x->bad_csum ? 1 : -1;
	if (x->ver != y->ver)
		return (int32_t)(y->ver - x->ver) < 0 ? -1 : 1;
	return x->addr > y->addr ? -1 : x->addr < y->addr;
}

static void keep_newest(struct rb *r)
{
	size_t w = 0;

	qsort(r->c, r->n, sizeof(*r->c), cand_cmp);
	for (size_t i = 0; i < r->n; i++) {
		if (w && r->c[w - 1].nid == r->c[i].nid) {
			r->rep->older_copies++;
			continue;
		}
		/* no good copy of this inode: the newest, its checksum for the check to mend */
		r->rep->damaged_inodes += r->c[i].bad_csum;
		r->c[w++] = r->c[i];
	}
	r->n = w;
}

static uint32_t winner(const struct rb *r, uint32_t nid)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->c[mid].nid == nid)
			return (uint32_t)mid;
		if (r->c[mid].nid < nid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NO_WINNER;
}

/* The volume's NAT lookups, while the trees are walked: the winners. */
static int nat_from_scan(void *arg, uint32_t nid, struct zf2fs_nat_info *ret)
{
	const struct rb *r = arg;
	uint32_t w = winner(r, nid);

	memset(ret, 0, sizeof(*ret));
	if (w != NO_WINNER) {
		ret->ino = r->c[w].ino;
		ret->blkaddr = r->c[w].addr;
	}
	return 0;
}

/* ---- walking the inodes ------------------------------------------------------------------ */
/* The log the kernel gives a node: a directory's dnodes hot, a file's warm (the footer's
 * cold mark), indirect nodes cold. */
static uint8_t node_log(const struct rb *r, const struct cand *c)
{
	if (!zf2fs_geom_ofs_dnode(r->g, c->ofs))
		return ZF2FS_LOG_COLD_NODE;
	return c->cold ? ZF2FS_LOG_WARM_NODE : ZF2FS_LOG_HOT_NODE;
}

static int add_claim(struct rb *r, uint32_t addr, uint32_t nid, uint32_t win, uint16_t ofs,
		     uint8_t type)
{
	if (r->tn == r->tcap) {
		size_t cap = r->tcap ? r->tcap * 2 : 256;
		struct claim *m = realloc(r->t, cap * sizeof(*m));

		if (!m)
			return -ENOMEM;
		r->t = m;
		r->tcap = cap;
	}
	r->t[r->tn++] = (struct claim){ addr, nid, win, ofs, type };
	return 0;
}

static int walk_node(void *arg, uint32_t nid, uint32_t blkaddr, const struct zf2fs_node *node,
		     uint32_t ofs, uint32_t parent_nid, uint32_t slot)
{
	struct rb *r = arg;
	uint32_t w = winner(r, nid);

	(void)node; (void)ofs; (void)parent_nid; (void)slot;
	if (w == NO_WINNER || r->c[w].addr != blkaddr)
		return -EIO;   /* the hook answered from the winners: cannot differ */
	return add_claim(r, blkaddr, nid, w, 0, node_log(r, &r->c[w]));
}

static int walk_data(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
		     uint32_t ofs_in_node)
{
	struct rb *r = arg;

	(void)fofs;
	/* counted in use without a block: a slot allocated and not yet written, and a
	 * compressed cluster's marker until the file's blocks are released */
	if (blkaddr == ZF2FS_NEW_ADDR || (blkaddr == ZF2FS_COMPRESS_ADDR && !r->released)) {
		r->t_reserved++;
		return 0;
	}
	if (blkaddr == ZF2FS_NULL_ADDR || blkaddr == ZF2FS_COMPRESS_ADDR)
		return 0;
	if (blkaddr < r->main || blkaddr >= r->vol->info.main_end) {
		r->rep->bad_pointers++;
		return 0;
	}
	return add_claim(r, blkaddr, owner, NO_WINNER, (uint16_t)ofs_in_node,
			 r->dir ? ZF2FS_LOG_HOT_DATA : ZF2FS_LOG_WARM_DATA);
}

static int walk_bad(void *arg, uint32_t nid, uint32_t parent_nid, uint32_t slot, uint32_t ofs,
		    const char *why)
{
	struct rb *r = arg;

	(void)nid; (void)parent_nid; (void)slot; (void)ofs; (void)why;
	r->rep->missing_nodes++;
	return 0;
}

static bool is_node_log(uint8_t type)
{
	return type >= ZF2FS_LOG_HOT_NODE;
}

/* Whether block @c is free for the inode in hand: no earlier inode holds it, and its
 * segment holds blocks of its kind only. */
static bool claimable(const struct rb *r, const struct claim *c)
{
	uint32_t seg = (c->addr - r->main) / BPS;
	uint8_t kind = is_node_log(c->type) ? 2 : 1;

	return !zf2fs_sit_block_valid(&r->sit[seg], (c->addr - r->main) % BPS) &&
	       (!r->kind[seg] || r->kind[seg] == kind);
}

static int take(struct rb *r, const struct claim *c)
{
	uint32_t seg = (c->addr - r->main) / BPS, off = (c->addr - r->main) % BPS;
	struct zf2fs_sit_entry *se = &r->sit[seg];

	if (!claimable(r, c)) {
		r->rep->bad_pointers++;   /* the same block twice in one file */
		return 0;
	}
	if (!r->sum[seg]) {
		r->sum[seg] = calloc(ZF2FS_ENTRIES_IN_SUM, sizeof(struct zf2fs_summary));
		if (!r->sum[seg])
			return -ENOMEM;
	}
	if (!r->kind[seg]) {
		uint8_t type = c->type;

		/* the temperature the checkpoint had, where it knew the segment */
		if (r->old_sit && zf2fs_sit_valid_blocks(&r->old_sit[seg]) &&
		    is_node_log((uint8_t)zf2fs_sit_type(&r->old_sit[seg])) == is_node_log(type) &&
		    zf2fs_sit_type(&r->old_sit[seg]) < ZF2FS_NR_CURSEG)
			type = (uint8_t)zf2fs_sit_type(&r->old_sit[seg]);
		r->kind[seg] = is_node_log(c->type) ? 2 : 1;
		zf2fs_sit_set_type(se, type);
		r->rep->segments_used++;
	}
	zf2fs_sit_mark(se, off, true);
	zf2fs_set(r->sum[seg][off].nid, c->nid);
	zf2fs_set(r->sum[seg][off].ofs_in_node, c->ofs);
	r->sum[seg][off].version = 0;
	if (c->win != NO_WINNER) {
		r->kept[c->win] = 1;
		r->rep->nodes++;
	} else {
		r->rep->data_blocks++;
	}
	return 0;
}

/* The newest version first: a newer file takes its blocks before an older copy can. */
static int by_version(const void *a, const void *b, void *arg)
{
	const struct rb *r = arg;
	const struct cand *x = &r->c[*(const uint32_t *)a], *y = &r->c[*(const uint32_t *)b];

	if (x->ver != y->ver)
		return (int32_t)(y->ver - x->ver) < 0 ? -1 : 1;
	return x->nid < y->nid ? -1 : x->nid > y->nid;
}

static int take_inode(struct rb *r, uint32_t w)
{
	static const struct zf2fs_walk_ops ops = { .node = walk_node, .data = walk_data,
						   .bad = walk_bad };
	const struct cand *c = &r->c[w];
	struct zf2fs_node *in = (struct zf2fs_node *)r->blk;
	uint32_t xnid;
	int err;

	err = zf2fs_vol_read_block(r->vol, c->addr, r->blk);
	if (err)
		return err == -ENOMEM ? err : 0;
	if (!zf2fs_get(in->i.i_links)) {
		r->rep->unlinked++;
		return 0;
	}
	r->tn = 0;
	r->t_reserved = 0;
	r->dir = zf2fs_inode_type(&in->i) == ZF2FS_S_IFDIR;
	r->released = in->i.i_inline & ZF2FS_COMPRESS_RELEASED;
	err = add_claim(r, c->addr, c->nid, w, 0, node_log(r, c));
	xnid = (uint32_t)zf2fs_get(in->i.i_xattr_nid);
	if (!err && xnid) {
		uint32_t x = winner(r, xnid);

		if (x != NO_WINNER && r->c[x].ino == c->nid && r->c[x].ofs == XATTR_NODE_OFS)
			err = add_claim(r, r->c[x].addr, xnid, x, 0, node_log(r, &r->c[x]));
		else
			r->rep->missing_nodes++;
	}
	if (!err)
		err = zf2fs_file_walk(r->vol, in, &ops, r);
	if (err == -ZF2FS_EFSCORRUPTED) {
		r->rep->damaged_inodes++;   /* its own layout is impossible */
		return 0;
	}
	if (err)
		return err;
	/* all or nothing: a block a newer file holds makes this inode an older, deleted one */
	for (size_t i = 0; i < r->tn; i++) {
		if (!claimable(r, &r->t[i])) {
			r->rep->stale_inodes++;
			return 0;
		}
	}
	for (size_t i = 0; i < r->tn && !err; i++)
		err = take(r, &r->t[i]);
	if (!err) {
		r->rep->inodes++;
		r->rep->reserved_blocks += r->t_reserved;
	}
	return err;
}

static int take_inodes(struct rb *r)
{
	uint32_t *order = malloc((r->n ? r->n : 1) * sizeof(*order));
	size_t k = 0;
	int err = 0;

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < r->n; i++)
		if (r->c[i].nid == r->c[i].ino && r->c[i].ofs == 0)
			order[k++] = (uint32_t)i;
	qsort_r(order, k, sizeof(*order), by_version, r);
	r->vol->nat_hook = nat_from_scan;
	r->vol->nat_hook_arg = r;
	for (size_t i = 0; i < k && !err; i++)
		err = take_inode(r, order[i]);
	r->vol->nat_hook = NULL;
	for (size_t i = 0; i < r->n; i++)
		if (!r->kept[i] && r->c[i].nid != r->c[i].ino)
			r->rep->unreached++;
	free(order);
	return err;
}

/* ---- the checkpoint's SIT, when it can be trusted ---------------------------------------- */
/* The SIT of a usable checkpoint decides which copies are live when its valid blocks add
 * up to the checkpoint's count: a zeroed or foreign SIT does not. */
static int load_old_sit(struct rb *r, struct zf2fs_sit_entry **ret)
{
	const struct zf2fs_checkpoint *cp = (const void *)r->vol->cp;
	uint64_t sum = 0;
	int err;

	*ret = NULL;
	if (r->vol->no_cp)
		return 0;
	err = zf2fs_vol_load_sit(r->vol, ret);
	if (err)
		return err == -ENOMEM ? err : 0;
	for (uint32_t s = 0; s < r->segs; s++)
		sum += zf2fs_sit_valid_blocks(&(*ret)[s]);
	/* the checkpoint's count adds the blocks allocated and not yet written (NEW_ADDR),
	 * which the SIT does not hold */
	if (!sum || sum > zf2fs_get(cp->valid_block_count)) {
		free(*ret);
		*ret = NULL;
	}
	return 0;
}

/* ---- writing ------------------------------------------------------------------------------ */
static int write_ssa(struct rb *r)
{
	const struct zf2fs_geom *g = r->g;
	uint32_t blocks = (r->segs + g->sums_per_block - 1) / g->sums_per_block;
	static const struct zf2fs_summary none[ZF2FS_ENTRIES_IN_SUM];
	int err = 0;

	for (uint32_t b = 0; b < blocks && !err; b++) {
		memset(r->blk, 0, g->blocksize);
		for (uint32_t k = 0; k < g->sums_per_block; k++) {
			uint32_t seg = b * g->sums_per_block + k;

			if (seg >= r->segs)
				break;
			zf2fs_ssa_put(g, r->blk, seg, r->sum[seg] ? r->sum[seg] : none,
				      r->kind[seg] == 2 ? ZF2FS_SUM_TYPE_NODE : ZF2FS_SUM_TYPE_DATA);
		}
		err = zf2fs_vol_write_block(r->vol, zf2fs_vol_ssa_block_addr(r->vol, b *
					    g->sums_per_block), r->blk);
	}
	return err;
}

/* Where the new checkpoint keeps its version bitmaps, as the kernel reads them. */
static void bitmap_places(const struct rb *r, bool large, uint32_t sit_bytes, size_t *ret_sit,
			  size_t *ret_nat)
{
	if (large) {
		*ret_nat = ZF2FS_CP_BITMAP_OFFSET + 4;
		*ret_sit = *ret_nat + (r->vol->info.nat_blocks / 8);
	} else if (zf2fs_get(r->vol->sb.cp_payload)) {
		*ret_nat = ZF2FS_CP_BITMAP_OFFSET;
		*ret_sit = r->g->blocksize;
	} else {
		*ret_sit = ZF2FS_CP_BITMAP_OFFSET;
		*ret_nat = *ret_sit + sit_bytes;
	}
}

/* Each table block to the copy the usable checkpoint does not read (the first copy when
 * none is usable), its bit set accordingly in @bitmap. */
static unsigned next_copy(const struct rb *r, bool sit, uint32_t idx)
{
	const uint8_t *old = sit ? r->vol->sit_bitmap : r->vol->nat_bitmap;

	if (r->vol->no_cp)
		return 0;
	return zf2fs_hbit_test(old, idx) ? 0 : 1;
}

static int write_nat(struct rb *r, uint8_t *bitmap)
{
	const struct zf2fs_geom *g = r->g;
	size_t w = 0;
	int err = 0;

	for (uint32_t b = 0; b < r->vol->info.nat_blocks && !err; b++) {
		uint32_t first = b * g->nat_per_block;
		unsigned copy = next_copy(r, false, b);

		memset(r->blk, 0, g->blocksize);
		if (b == 0) {
			/* the node and meta inodes have no block: an address of 1 marks them */
			for (uint32_t ino = ZF2FS_NODE_INO; ino <= ZF2FS_META_INO; ino++) {
				zf2fs_set(zf2fs_nat_block_entry(r->blk, ino)->ino, ino);
				zf2fs_set(zf2fs_nat_block_entry(r->blk, ino)->block_addr, 1);
			}
		}
		for (; w < r->n && r->c[w].nid < first + g->nat_per_block; w++) {
			struct zf2fs_nat_entry *e;

			if (!r->kept[w])
				continue;
			e = zf2fs_nat_block_entry(r->blk, r->c[w].nid - first);
			zf2fs_set(e->ino, r->c[w].ino);
			zf2fs_set(e->block_addr, r->c[w].addr);
		}
		if (copy)
			zf2fs_hbit_set(bitmap, b);
		err = zf2fs_vol_write_block(r->vol, zf2fs_vol_nat_block_copy(r->vol, b, copy),
					    r->blk);
	}
	return err;
}

static int write_sit(struct rb *r, uint8_t *bitmap)
{
	const struct zf2fs_geom *g = r->g;
	int err = 0;

	for (uint32_t b = 0; b < zf2fs_geom_sit_blocks(g, r->segs) && !err; b++) {
		unsigned copy = next_copy(r, true, b);

		memset(r->blk, 0, g->blocksize);
		for (uint32_t e = 0; e < g->sit_per_block && b * g->sit_per_block + e < r->segs; e++)
			*zf2fs_sit_block_entry(r->blk, e) = r->sit[b * g->sit_per_block + e];
		if (copy)
			zf2fs_hbit_set(bitmap, b);
		err = zf2fs_vol_write_block(r->vol, zf2fs_vol_sit_block_copy(r->vol, b, copy),
					    r->blk);
	}
	return err;
}

/* Six sections with no block in use, one per log, the lowest first. */
static int pick_logs(struct rb *r, uint32_t segno[ZF2FS_NR_CURSEG])
{
	uint32_t sps = r->vol->info.segs_per_sec, got = 0;

	for (uint32_t sec = 0; sec < r->vol->info.main_secs && got < ZF2FS_NR_CURSEG; sec++) {
		bool used = false;

		for (uint32_t s = sec * sps; s < (sec + 1) * sps && s < r->segs; s++)
			used |= r->kind[s] != 0;
		if (used)
			continue;
		segno[got] = sec * sps;
		zf2fs_sit_set_type(&r->sit[segno[got]], got);
		got++;
	}
	return got == ZF2FS_NR_CURSEG ? 0 : -ENOSPC;
}

/* Reserved and overprovision space of a volume whose checkpoint is gone: what mkfs gives
 * its main area by default (the ratio it was made with is not on disk elsewhere). */
static int space_policy(const struct rb *r, struct zf2fs_layout *lay)
{
	const struct zf2fs_vol_info *vi = &r->vol->info;
	struct zf2fs_layout_opts lo = { 0 };
	char why[160];

	memset(lay, 0, sizeof(*lay));
	lay->log_blocksize = r->g->log_blocksize;
	lay->segs_per_sec = vi->segs_per_sec;
	lay->secs_per_zone = vi->secs_per_zone;
	lay->segs_per_zone = vi->segs_per_sec * vi->secs_per_zone;
	lay->segment_count = (uint32_t)zf2fs_get(r->vol->sb.segment_count);
	lay->segment_count_main = vi->main_segs;
	lay->section_count = vi->main_secs;
	lay->usable_segments = vi->main_segs;
	return zf2fs_layout_space(lay, &lo, why, sizeof(why));
}

static uint64_t newest_version(const struct rb *r)
{
	uint64_t v = r->max_ver;

	for (unsigned p = 0; p < 2; p++)
		if (r->vol->cp_pack_sealed[p] && r->vol->cp_pack_ver[p] > v)
			v = r->vol->cp_pack_ver[p];
	return v;
}

static int write_tables(struct rb *r)
{
	const struct zf2fs_geom *g = r->g;
	const struct zf2fs_checkpoint *old = (const void *)r->vol->cp;
	uint32_t payload = (uint32_t)zf2fs_get(r->vol->sb.cp_payload);
	uint32_t sit_bytes = r->vol->info.sit_blocks / 8, nat_bytes = r->vol->info.nat_blocks / 8;
	bool large = !r->vol->no_cp &&
		     (zf2fs_get(old->ckpt_flags) & ZF2FS_CP_LARGE_NAT_BITMAP_FLAG);
	uint8_t *cpb = calloc(1 + (size_t)payload, g->blocksize);
	uint8_t *sums = calloc(6, g->blocksize);
	struct zf2fs_checkpoint *cp = (void *)cpb;
	struct zf2fs_cp_io io = { zf2fs_vol_io_write, zf2fs_vol_io_sync, r->vol };
	struct zf2fs_cp_pack p = { .payload = payload, .sums = sums,
				   .blocksize = g->blocksize };
	uint32_t segno[ZF2FS_NR_CURSEG], free_segs = 0, max_nid = 0;
	size_t sit_at, nat_at;
	int err = -ENOMEM;

	if (!cpb || !sums)
		goto out;
	err = pick_logs(r, segno);
	if (err)
		goto out;
	bitmap_places(r, large, sit_bytes, &sit_at, &nat_at);
	if (r->vol->no_cp) {
		struct zf2fs_layout lay;

		err = space_policy(r, &lay);
		if (err)
			goto out;
		zf2fs_set(cp->user_block_count, lay.user_block_count);
		zf2fs_set(cp->rsvd_segment_count, lay.rsvd_segments);
		zf2fs_set(cp->overprov_segment_count, lay.ovp_segments);
	} else {
		cp->user_block_count = old->user_block_count;
		cp->rsvd_segment_count = old->rsvd_segment_count;
		cp->overprov_segment_count = old->overprov_segment_count;
		cp->elapsed_time = old->elapsed_time;
	}
	if (r->rep->data_blocks + r->rep->nodes + r->rep->reserved_blocks >
	    zf2fs_get(cp->user_block_count)) {
		err = -ENOSPC;
		goto out;
	}
	for (uint32_t s = 0; s < r->segs; s++)
		free_segs += !r->kind[s];
	r->rep->cp_ver = newest_version(r) + 1;
	zf2fs_set(cp->checkpoint_ver, r->rep->cp_ver);
	zf2fs_set(cp->valid_block_count, r->rep->data_blocks + r->rep->nodes +
		  r->rep->reserved_blocks);
	zf2fs_set(cp->free_segment_count, free_segs - ZF2FS_NR_CURSEG);
	for (int i = 0; i < ZF2FS_MAX_NODE_LOGS; i++) {
		zf2fs_set(cp->cur_node_segno[i], i < 3 ? segno[ZF2FS_LOG_HOT_NODE + i] : UINT32_MAX);
		zf2fs_set(cp->cur_data_segno[i], i < 3 ? segno[ZF2FS_LOG_HOT_DATA + i] : UINT32_MAX);
	}
	zf2fs_set(cp->ckpt_flags, ZF2FS_CP_UMOUNT_FLAG | (large ? ZF2FS_CP_LARGE_NAT_BITMAP_FLAG : 0));
	for (size_t i = 0; i < r->n; i++)
		if (r->kept[i] && r->c[i].nid > max_nid)
			max_nid = r->c[i].nid;
	zf2fs_set(cp->valid_node_count, r->rep->nodes);
	zf2fs_set(cp->valid_inode_count, r->rep->inodes);
	zf2fs_set(cp->next_free_nid, max_nid + 1 < r->vol->info.max_nid ? max_nid + 1 :
		  ZF2FS_RESERVED_NIDS + 1);
	zf2fs_set(cp->sit_ver_bitmap_bytesize, sit_bytes);
	zf2fs_set(cp->nat_ver_bitmap_bytesize, nat_bytes);
	zf2fs_set(cp->checksum_offset, large ? ZF2FS_CP_BITMAP_OFFSET : g->cp_chksum_offset);
	for (int t = 0; t < 6; t++)
		zf2fs_sum_footer(g, sums + (size_t)t * g->blocksize)->entry_type =
			t < 3 ? ZF2FS_SUM_TYPE_DATA : ZF2FS_SUM_TYPE_NODE;

	err = write_ssa(r);
	if (!err)
		err = write_nat(r, cpb + nat_at);
	if (!err)
		err = write_sit(r, cpb + sit_at);
	if (!err)
		err = zf2fs_vol_io_sync(r->vol);
	if (err)
		goto out;
	r->rep->pack = r->vol->no_cp ? 0 : 1 - r->vol->cp_pack;
	p.start = zf2fs_vol_cp_pack_addr(r->vol, r->rep->pack);
	p.cp = cpb;
	err = zf2fs_cp_pack_write(&p, &io);
	r->rep->written = !err;
	if (!err && r->vol->no_cp) {
		/* the other pack held nothing usable: the same checkpoint there too, so that
		 * both packs are valid (a usable old pack stays, as the commit keeps it) */
		p.start = zf2fs_vol_cp_pack_addr(r->vol, 1);
		err = zf2fs_cp_pack_write(&p, &io);
	}
out:
	free(cpb);
	free(sums);
	return err;
}

ZF2FS_EXPORT int zf2fs_vol_rebuild(struct zf2fs_vol *vol, unsigned flags,
				   struct zf2fs_rebuild_report *rep)
{
	struct rb r = { .vol = vol, .g = &vol->geom, .rep = rep, .main = vol->info.main_blkaddr,
			.segs = vol->info.main_segs };
	struct zf2fs_sit_entry *old_sit = NULL;
	int err;

	memset(rep, 0, sizeof(*rep));
	if (!zf2fs_vol_has_ssa(vol))
		return -EROFS;
	rep->had_checkpoint = !vol->no_cp;
	r.seed = zf2fs_checksum_seed(vol->sb.uuid);
	r.blk = malloc(vol->geom.blocksize);
	r.sit = calloc(r.segs, sizeof(*r.sit));
	r.kind = calloc(r.segs, 1);
	r.sum = calloc(r.segs, sizeof(*r.sum));
	err = r.blk && r.sit && r.kind && r.sum ? load_old_sit(&r, &old_sit) : -ENOMEM;
	r.old_sit = old_sit;
	rep->sit_used = old_sit != NULL;
	if (!err)
		err = zf2fs_vol_scan_nodes(vol, add_cand, &r);
	if (!err) {
		keep_newest(&r);
		r.kept = calloc(r.n ? r.n : 1, 1);
		err = r.kept ? take_inodes(&r) : -ENOMEM;
	}
	if (!err && !(flags & ZF2FS_REBUILD_DRY_RUN))
		err = write_tables(&r);
	for (uint32_t s = 0; r.sum && s < r.segs; s++)
		free(r.sum[s]);
	free(r.sum);
	free(r.kind);
	free(r.sit);
	free(r.blk);
	free(r.kept);
	free(r.c);
	free(r.t);
	free(old_sit);
	return err;
}
