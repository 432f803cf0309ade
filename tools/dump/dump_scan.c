// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump_scan.c - dump.f2fs --scan-inode INO (f2fs-tools' -I): an inode found by reading
 * the whole main area, for when its NAT entry is lost or points at the wrong block.
 *
 * Every block whose footer names INO as an inode at offset 0 is listed with its address,
 * the checkpoint version in its footer, whether its checksum holds (volumes with inode
 * checksums) and whether the NAT points at it.  The one shown, as -i shows an inode, is
 * the newest whose checksum holds (a torn or stale block loses to it), the NAT's block
 * winning a tie; with -o its contents are written out as -i -o writes them.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/volume.h"

struct hit {
	uint64_t addr, cp_ver;
	bool has_csum, csum_ok, nat;
};

struct scan {
	struct dump_ctx *c;
	uint32_t ino, nat_addr, seed;
	struct hit *h;
	size_t n, cap, best;
	uint8_t *best_blk;
};

/* Whether hit @a is a better pick than @b. */
static bool better(const struct hit *a, const struct hit *b)
{
	bool ga = !a->has_csum || a->csum_ok, gb = !b->has_csum || b->csum_ok;

	if (ga != gb)
		return ga;
	if (a->cp_ver != b->cp_ver)
		return a->cp_ver > b->cp_ver;
	return a->nat && !b->nat;
}

static int on_node(void *arg, uint64_t addr, const void *blk)
{
	struct scan *s = arg;
	const struct zf2fs_geom *g = s->c->g;
	const struct zf2fs_node_footer *f = zf2fs_node_footer(g, blk);
	const struct zf2fs_node *n = blk;
	struct hit h;

	if (zf2fs_get(f->nid) != s->ino || zf2fs_get(f->ino) != s->ino || zf2fs_node_ofs(g, blk))
		return 0;
	h = (struct hit){ .addr = addr, .cp_ver = zf2fs_get(f->cp_ver), .nat = addr == s->nat_addr,
			  .has_csum = zf2fs_inode_has_checksum(&n->i, s->c->info->features) };
	h.csum_ok = h.has_csum && zf2fs_inode_checksum2(g, s->seed, blk) ==
				  zf2fs_get(n->i.i_inode_checksum);
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct hit *t = realloc(s->h, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		s->h = t;
		s->cap = cap;
	}
	s->h[s->n] = h;
	if (s->n == 0 || better(&h, &s->h[s->best])) {
		s->best = s->n;
		memcpy(s->best_blk, blk, g->blocksize);
	}
	s->n++;
	return 0;
}

int dump_scan_inode(struct dump_ctx *c, uint32_t ino)
{
	struct scan s = { .c = c, .ino = ino,
			  .seed = zf2fs_checksum_seed(zf2fs_vol_super(c->vol)->uuid) };
	struct zf2fs_nat_info ni;
	struct out *o = &c->out;
	int err;

	if (ino < ZF2FS_RESERVED_NIDS || ino >= c->info->max_nid) {
		dump_error("--scan-inode: %u is not an inode number of this volume (%u..%u)", ino,
			   ZF2FS_RESERVED_NIDS, c->info->max_nid - 1);
		return -EINVAL;
	}
	s.best_blk = malloc(c->g->blocksize);
	if (!s.best_blk)
		return -ENOMEM;
	if (!zf2fs_vol_nat_lookup(c->vol, ino, &ni))
		s.nat_addr = ni.blkaddr;
	err = zf2fs_vol_scan_nodes(c->vol, on_node, &s);
	if (err) {
		dump_error("%s: while scanning the main area", strerror(-err));
		goto out;
	}
	out_obj(o, NULL);
	out_u(o, "ino", ino);
	out_u(o, "nat_blkaddr", s.nat_addr);
	out_list(o, "found");
	for (size_t i = 0; i < s.n; i++) {
		out_row(o);
		out_u(o, "blkaddr", s.h[i].addr);
		out_u(o, "cp_ver", s.h[i].cp_ver);
		out_s(o, "checksum", !s.h[i].has_csum ? "none" : s.h[i].csum_ok ? "ok" : "bad");
		out_b(o, "nat", s.h[i].nat);
		out_row_end(o);
	}
	out_list_end(o);
	if (!s.n) {
		out_obj_end(o);
		dump_error("no block of the main area holds inode %u", ino);
		err = -ENOENT;
		goto out;
	}
	out_u(o, "chosen", s.h[s.best].addr);
	out_obj(o, "inode");
	dump_inode_fields(c, (const struct zf2fs_node *)s.best_blk);
	out_obj_end(o);
	out_obj_end(o);
	if (s.h[s.best].has_csum && !s.h[s.best].csum_ok)
		dump_damage(c, "inode %u: no block of it has a checksum that holds", ino);
	if (c->outpath)
		err = dump_extract_node(c, (const struct zf2fs_node *)s.best_blk, ino, c->outpath,
					NULL);
out:
	free(s.h);
	free(s.best_blk);
	return err;
}
