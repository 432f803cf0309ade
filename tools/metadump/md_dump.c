// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * md_dump.c - the blocks f2fs_metadump copies, read in address order.
 *
 * A check of the volume reads, besides the areas before the main area, node blocks (found
 * through the NAT, the roll-forward chain and the node segments the SIT describes) and
 * the blocks of directories, symlinks and quota files.  That is what is copied, so that
 * fsck finds on the restored volume what it finds on the source:
 *  1. blocks 0 .. main_blkaddr - 1 (superblocks, checkpoint packs, SIT, NAT, SSA);
 *  2. node blocks: every address the NAT gives, every block the SIT marks valid in a
 *     node segment, the whole of each current node segment, and the roll-forward chain
 *     from the warm node log's position (a chain may leave its segment);
 *  3. the data blocks of the directories, symlinks and quota files found in step 2.
 * Each list is sorted and read in runs of adjacent blocks.  What cannot be read is
 * recorded as such (a run that fails is read again block by block) and the dump goes on.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "md_dump.h"
#include "progress.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"
#include "zf2fs-internal/format.h"
#include "zf2fs-internal/volume.h"

/* The offset an xattr node's footer carries (all ones above the flag bits). */
#define XATTR_NODE_OFS (0xFFFFFFFFu >> ZF2FS_FOOTER_OFS_SHIFT)

enum kind {
	K_NODE,
	K_DENTRY,      /* a directory's block */
	K_DENTRY_ENC,  /* an encrypted directory's block: names kept */
	K_LINK,        /* a symlink's block */
	K_KEEP,        /* a quota file's or an encrypted symlink's block */
};

struct ent {
	uint32_t addr;
	uint8_t kind;
};

struct list {
	struct ent *e;
	size_t n, cap;
};

static int add(struct list *l, uint64_t addr, uint8_t kind)
{
	if (addr > UINT32_MAX)
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 4096;
		struct ent *e = realloc(l->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		l->e = e;
		l->cap = cap;
	}
	l->e[l->n++] = (struct ent){ .addr = (uint32_t)addr, .kind = kind };
	return 0;
}

static int cmp_addr(const void *x, const void *y)
{
	const struct ent *a = x, *b = y;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

static int cmp_ent(const void *x, const void *y)
{
	const struct ent *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return (a->kind > b->kind) - (a->kind < b->kind);
}

/* Sorted, one entry per address (the first kind: a node over a data block). */
static void sort_list(struct list *l)
{
	size_t o = 0;

	if (l->n > 1)
		qsort(l->e, l->n, sizeof(*l->e), cmp_ent);
	for (size_t i = 0; i < l->n; i++)
		if (!o || l->e[i].addr != l->e[o - 1].addr)
			l->e[o++] = l->e[i];
	l->n = o;
}

/* Read @count blocks from @addr into @buf; blocks that fail alone are recorded and their
 * bytes zeroed ((*ok)[i] false). */
static int read_run(struct md_dump *d, uint64_t addr, uint32_t count, uint8_t *buf, bool *ok)
{
	size_t bs = d->g->blocksize;

	if (!zf2fs_vol_read_blocks(d->vol, addr, count, buf)) {
		for (uint32_t i = 0; i < count; i++)
			ok[i] = true;
		return 0;
	}
	for (uint32_t i = 0; i < count; i++) {
		ok[i] = !zf2fs_vol_read_block(d->vol, addr + i, buf + i * bs);
		if (!ok[i]) {
			int err = md_writer_unreadable(d->w, addr + i, 1);

			if (err)
				return err;
			d->unreadable++;
			memset(buf + i * bs, 0, bs);
		}
	}
	return 0;
}

/* ---- step 1 -------------------------------------------------------------------------- */

static int dump_meta(struct md_dump *d, uint8_t *buf, bool *ok)
{
	uint64_t end = zf2fs_vol_info(d->vol)->main_blkaddr;
	size_t bs = d->g->blocksize;

	zs_progress_pass(d->prog, 1, "metadata areas", end);
	for (uint64_t a = 0; a < end;) {
		uint32_t n = end - a < MD_RUN_MAX ? (uint32_t)(end - a) : MD_RUN_MAX;
		int err = read_run(d, a, n, buf, ok);

		for (uint32_t i = 0; i < n && !err; i++)
			if (ok[i])
				err = md_writer_block(d->w, a + i, buf + i * bs);
		if (err)
			return err;
		d->meta_blocks += n;
		a += n;
		zs_progress_set(d->prog, a);
	}
	zs_progress_end(d->prog);
	return 0;
}

/* ---- step 2 -------------------------------------------------------------------------- */

static bool in_main(const struct md_dump *d, uint64_t a)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(d->vol);

	return a >= vi->main_blkaddr && a < vi->main_end;
}

/* Without a checkpoint: each block the scan finds (whether it is a node is for the
 * reader of the image to weigh, as fsck --rebuild does). */
static int add_scanned(void *arg, uint64_t addr, const void *node)
{
	(void)node;
	return add(arg, addr, K_NODE);
}

static int list_nat(struct md_dump *d, struct list *l)
{
	uint32_t max = zf2fs_vol_info(d->vol)->max_nid;

	for (uint32_t nid = 0; nid < max; nid++) {
		struct zf2fs_nat_info ni;

		/* a NAT block that cannot be read gives no address (step 1 recorded it) */
		if (!zf2fs_vol_nat_lookup(d->vol, nid, &ni) && in_main(d, ni.blkaddr) &&
		    add(l, ni.blkaddr, K_NODE))
			return -ENOMEM;
	}
	return 0;
}

static int list_sit(struct md_dump *d, struct list *l)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(d->vol);
	struct zf2fs_sit_entry *sit = NULL;
	uint32_t bps = vi->blocks_per_seg;
	int err = zf2fs_vol_load_sit(d->vol, &sit);

	if (err)
		return err == -ENOMEM ? err : 0;   /* unreadable: step 1 recorded it */
	for (uint32_t s = 0; s < vi->main_segs && !err; s++) {
		uint64_t first = vi->main_blkaddr + (uint64_t)s * bps;

		if (zf2fs_sit_type(&sit[s]) < ZF2FS_LOG_HOT_NODE || !zf2fs_sit_valid_blocks(&sit[s]))
			continue;
		for (uint32_t b = 0; b < bps && !err; b++)
			if (zf2fs_sit_block_valid(&sit[s], b))
				err = add(l, first + b, K_NODE);
	}
	free(sit);
	return err;
}

/* The current node segments whole, and the roll-forward chain. */
static int list_logs(struct md_dump *d, struct list *l, uint8_t *blk)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(d->vol);
	uint32_t bps = vi->blocks_per_seg, segno, off;
	uint64_t a, mark = UINT64_MAX, bound = vi->main_end - vi->main_blkaddr;
	int err = 0;

	for (int t = ZF2FS_LOG_HOT_NODE; t <= ZF2FS_LOG_COLD_NODE && !err; t++) {
		zf2fs_vol_curseg(d->vol, t, &segno, &off);
		a = vi->main_blkaddr + (uint64_t)segno * bps;
		for (uint32_t b = 0; b < bps && !err && in_main(d, a + b); b++)
			err = add(l, a + b, K_NODE);
	}
	zf2fs_vol_curseg(d->vol, ZF2FS_LOG_WARM_NODE, &segno, &off);
	a = vi->main_blkaddr + (uint64_t)segno * bps + off;
	/* bounded, and a loop found as fsck finds it (the block at the last power of two) */
	for (uint64_t steps = 0; !err && steps < bound && in_main(d, a) && a != mark; steps++) {
		if (!(steps & (steps - 1)))
			mark = a;
		if (zf2fs_vol_read_block(d->vol, a, blk) ||
		    !zf2fs_cp_node_recoverable2(d->g, zf2fs_vol_checkpoint(d->vol), blk))
			break;
		err = add(l, a, K_NODE);
		a = (uint32_t)zf2fs_get(zf2fs_node_footer(d->g, blk)->next_blkaddr);
	}
	return err;
}

/* A live inode (the NAT puts it here) whose blocks step 3 copies, and its kind. */
static int inode_blocks_kind(struct md_dump *d, const uint8_t *blk, uint32_t nid, uint64_t addr)
{
	const struct zf2fs_super *sb = zf2fs_vol_super(d->vol);
	const struct zf2fs_inode *in = &((const struct zf2fs_node *)blk)->i;
	struct zf2fs_nat_info ni;
	uint32_t mode = zf2fs_inode_type(in);
	bool enc = in->i_advise & ZF2FS_ADVISE_ENCRYPT;

	if (!d->scan && (zf2fs_vol_nat_lookup(d->vol, nid, &ni) || ni.blkaddr != addr))
		return -1;
	/* with a scan: every copy found, old ones too; no blocks of theirs follow */
	d->inodes++;
	d->dirs += mode == ZF2FS_S_IFDIR;
	if (d->scan)
		return -1;
	if (in->i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY))
		return -1;
	for (unsigned q = 0; q < ZF2FS_MAX_QUOTAS; q++)
		if (zf2fs_get(sb->qf_ino[q]) == nid)
			return K_KEEP;
	if (mode == ZF2FS_S_IFDIR)
		return enc || !d->scramble ? K_DENTRY_ENC : K_DENTRY;
	if (mode == ZF2FS_S_IFLNK)
		return enc || !d->scramble ? K_KEEP : K_LINK;
	return -1;
}

struct files {
	uint32_t *nid;
	uint8_t *kind;
	size_t n, cap;
};

static int files_add(struct files *f, uint32_t nid, uint8_t kind)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 1024;
		uint32_t *n = realloc(f->nid, cap * sizeof(*n));
		uint8_t *k = n ? realloc(f->kind, cap) : NULL;

		if (n)
			f->nid = n;
		if (!k)
			return -ENOMEM;
		f->kind = k;
		f->cap = cap;
	}
	f->nid[f->n] = nid;
	f->kind[f->n++] = kind;
	return 0;
}

/* A node block as it goes into the image. */
static int node_block(struct md_dump *d, uint8_t *blk, uint64_t addr, struct files *f)
{
	const struct zf2fs_node_footer *ft = zf2fs_node_footer(d->g, blk);
	uint32_t nid = (uint32_t)zf2fs_get(ft->nid), ino = (uint32_t)zf2fs_get(ft->ino);

	if (nid == ino && !zf2fs_node_ofs(d->g, blk)) {
		int kind = inode_blocks_kind(d, blk, nid, addr);

		if (kind >= 0 && files_add(f, nid, (uint8_t)kind))
			return -ENOMEM;
		md_scramble_inode(d, blk);
	} else if (d->scramble && zf2fs_node_ofs(d->g, blk) == XATTR_NODE_OFS) {
		md_scramble_xattr_node(d, blk);
	}
	return md_writer_block(d->w, addr, blk);
}

/* ---- step 3 -------------------------------------------------------------------------- */

struct collect {
	struct list *l;
	const struct list *nodes;   /* sorted: a block copied as a node is not data too */
	uint8_t kind;
};

static int collect_data(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
			uint32_t ofs_in_node)
{
	struct collect *c = arg;

	(void)fofs;
	(void)owner;
	(void)ofs_in_node;
	if (blkaddr == ZF2FS_NULL_ADDR || blkaddr == ZF2FS_NEW_ADDR ||
	    blkaddr == ZF2FS_COMPRESS_ADDR)
		return 0;
	if (bsearch(&(struct ent){ .addr = blkaddr }, c->nodes->e, c->nodes->n, sizeof(struct ent),
		    cmp_addr))
		return 0;
	return add(c->l, blkaddr, c->kind);
}

static int skip_bad(void *arg, uint32_t nid, uint32_t parent_nid, uint32_t slot, uint32_t ofs,
		    const char *why)
{
	(void)arg, (void)nid, (void)parent_nid, (void)slot, (void)ofs, (void)why;
	return 0;   /* what the tree cannot reach is not copied; fsck reports it */
}

static int list_files(struct md_dump *d, const struct files *f, const struct list *nodes,
		      struct list *l, uint8_t *blk)
{
	struct zf2fs_walk_ops ops = { .data = collect_data, .bad = skip_bad };

	for (size_t i = 0; i < f->n; i++) {
		struct collect c = { .l = l, .nodes = nodes, .kind = f->kind[i] };
		int err;

		if (zf2fs_vol_read_node(d->vol, f->nid[i], blk, NULL, NULL, 0))
			continue;
		err = zf2fs_file_walk(d->vol, (const struct zf2fs_node *)blk, &ops, &c);
		if (err == -ENOMEM)
			return err;
	}
	return 0;
}

static int data_block(struct md_dump *d, uint8_t *blk, uint64_t addr, uint8_t kind)
{
	if (kind == K_DENTRY) {
		struct zf2fs_dentry_view v;

		zf2fs_dentry_view_block2(d->g, blk, &v);
		md_scramble_dentries(d, &v);
	} else if (kind == K_LINK) {
		md_scramble_link(d, blk, strnlen((const char *)blk, d->g->blocksize));
	}
	return md_writer_block(d->w, addr, blk);
}

/* Entries of a list asked of the kernel ahead of the reads (posix_fadvise WILLNEED), so
 * that the disk works on the next ones while this thread scrambles and compresses. */
#define AHEAD 8192u

static size_t hint_ahead(struct md_dump *d, const struct list *l, size_t from, uint64_t *hints)
{
	size_t to = l->n - from < AHEAD ? l->n : from + AHEAD;

	for (size_t i = from; i < to; i++)
		hints[i - from] = l->e[i].addr;
	zf2fs_vol_willneed(d->vol, hints, to - from);
	return to;
}

/* Read the sorted list @l in runs and hand each block on. */
static int copy_list(struct md_dump *d, struct list *l, struct files *f, uint8_t *buf, bool *ok,
		     unsigned pass, const char *label)
{
	size_t bs = d->g->blocksize, hinted = 0;
	uint64_t *hints = malloc(AHEAD * sizeof(*hints));

	if (!hints)
		return -ENOMEM;
	zs_progress_pass(d->prog, pass, label, l->n);
	for (size_t i = 0, j; i < l->n; i = j) {
		int err;

		if (hinted < l->n && i + AHEAD / 2 >= hinted)
			hinted = hint_ahead(d, l, hinted, hints);

		for (j = i + 1; j < l->n && j - i < MD_RUN_MAX && l->e[j].addr == l->e[j - 1].addr + 1; j++)
			;
		err = read_run(d, l->e[i].addr, (uint32_t)(j - i), buf, ok);
		for (size_t k = i; k < j && !err; k++) {
			uint8_t *blk = buf + (k - i) * bs;

			if (!ok[k - i])
				continue;
			if (l->e[k].kind == K_NODE) {
				d->node_blocks++;
				err = node_block(d, blk, l->e[k].addr, f);
			} else {
				d->data_blocks++;
				err = data_block(d, blk, l->e[k].addr, l->e[k].kind);
			}
		}
		if (err) {
			free(hints);
			return err;
		}
		zs_progress_set(d->prog, j);
	}
	free(hints);
	zs_progress_end(d->prog);
	return 0;
}

int md_dump_volume(struct md_dump *d)
{
	size_t bs = d->g->blocksize;
	uint8_t *buf = malloc((size_t)MD_RUN_MAX * bs);
	bool *ok = malloc(MD_RUN_MAX * sizeof(*ok));
	struct list nodes = { 0 }, data = { 0 };
	struct files f = { 0 };
	int err = -ENOMEM;

	if (!buf || !ok)
		goto out;
	err = dump_meta(d, buf, ok);
	if (!err && d->scan)
		err = zf2fs_vol_scan_nodes(d->vol, add_scanned, &nodes);
	if (!err && !d->scan)
		err = list_nat(d, &nodes);
	if (!err && !d->scan)
		err = list_sit(d, &nodes);
	if (!err && !d->scan)
		err = list_logs(d, &nodes, buf);
	if (err)
		goto out;
	sort_list(&nodes);
	err = copy_list(d, &nodes, &f, buf, ok, 2, "node blocks");
	if (!err && !d->scan)
		err = list_files(d, &f, &nodes, &data, buf);
	if (err)
		goto out;
	sort_list(&data);
	err = copy_list(d, &data, &f, buf, ok, 3, "directory, symlink and quota blocks");
out:
	free(buf);
	free(ok);
	free(nodes.e);
	free(data.e);
	free(f.nid);
	free(f.kind);
	return err;
}
