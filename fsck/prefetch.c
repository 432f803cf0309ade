// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prefetch.c - a second thread that reads, ahead of pass 4, the blocks pass 4 will read.
 *
 * Pass 4 walks the tree breadth first and each directory's names in their hash order, so
 * on an aged volume its reads land all over the disk, and while one waits the checking
 * stands still.  This thread walks the same tree in nearly the same order (a queue of
 * directories) and reads, for a few directories at a time, their dentry blocks, then the
 * inodes those name, then the node blocks the inodes point to (direct, indirect and
 * xattr nodes).  Each group goes in chunks sorted by address: the kernel is asked for the
 * whole chunk first (POSIX_FADV_WILLNEED), so the disk has a deep queue, then it is read
 * in runs of adjacent blocks.  What it read stays in the page cache, where pass 4 finds
 * it: the disk works on the next chunk while pass 4 checks the last one.  It keeps at
 * most PF_LEAD_BYTES of inodes ahead of pass 4, so that the cache still holds them when
 * pass 4 gets there.  Before the tree, it reads the summary blocks (SSA) of the segments
 * in use: pass 4 checks every block it finds against its summary entry, and would
 * otherwise read them one at a time, in no order, as it meets the segments.
 *
 * It decides nothing: pass 4 reads and checks every block itself, and the thread reads
 * through zf2fs_vol_read_ahead (no state shared with the program's own reads, nothing
 * logged), so the output is the same with it or without it; on a damaged volume it skips
 * what does not parse.  ZF2FS_NO_PREFETCH=1 turns it off (benchmarks compare);
 * ZF2FS_PREFETCH_FINISH=1 has pass 4 wait for it to read the whole tree (tests).
 */
#include "config.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fsck.h"
#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "zf2fs-internal/format.h"
#include "zf2fs-internal/volume.h"

#define PF_LEAD_BYTES  (64u << 20)   /* inodes read ahead of pass 4 */
#define PF_HELD_BYTES  (2u << 20)    /* queued directories' inode blocks kept */
#define PF_CHUNK       4096u         /* blocks asked for and read as one sorted group */
#define PF_RUN_BYTES   (1u << 20)    /* the largest single read */
#define PF_DIRS        64u           /* directories taken from the queue at a time */

enum pf_kind {
	PF_DIR,       /* a directory's inode, taken from the queue */
	PF_DENTRY,    /* a dentry block */
	PF_DIR_NODE,  /* a directory's direct (depth 0) or indirect node */
	PF_INODE,     /* an inode a name leads to */
	PF_NODE,      /* a file's direct (depth 0) or indirect node, or an xattr node */
};

/*
 * @key orders entries as pass 4 meets them: the directory's place in the queue (bits 40
 * and up), then the dentry block's index in the directory (bits 10-39), then the slot;
 * a node's entry carries the first block index it covers in @fofs.
 */
struct pf_ent {
	uint64_t key;
	uint32_t addr, nid, fofs;
	uint8_t kind, depth;
};

#define KEY_FOFS_MAX ((1u << 30) - 1)
#define KEY_DIR_MAX  ((1u << 24) - 1)

struct pf_list {
	struct pf_ent *e;
	size_t n, cap;
};

struct pf_dir {
	uint64_t key;  /* where its name sits (struct pf_ent): the queue's order */
	uint32_t ino;
	void *blk;     /* its inode block as read, or NULL: read it again */
};

struct prefetch {
	struct zf2fs_vol *vol;
	const struct zf2fs_geom *g;
	const uint32_t *nat;        /* ctx->nat_addr: entries read with atomic loads */
	uint32_t nids, features;
	uint64_t main0, main_end;
	unsigned long lead;         /* inodes */
	pthread_t th;
	int stop;                   /* atomic: pass 4 is done */
	unsigned long done;         /* atomic (a word: no libatomic on 32-bit targets) */
	unsigned long ahead;        /* inodes this thread has read */
	struct pf_dir *q;
	size_t qh, qt, qcap, held;
	struct pf_dir *found;       /* directories the batch met, queued at its end by key */
	size_t nfound, cap_found;
	uint8_t *seen;              /* bit per nid: an inode already queued for reading */
	uint8_t *buf;
	uint64_t *hints;
	uint32_t *ssa;              /* the SSA blocks of the segments in use, ascending */
	size_t nssa;
};

static bool pf_stopped(struct prefetch *pf)
{
	return __atomic_load_n(&pf->stop, __ATOMIC_ACQUIRE);
}

static uint32_t pf_addr(const struct prefetch *pf, uint32_t nid)
{
	if (nid < ZF2FS_RESERVED_NIDS || nid >= pf->nids)
		return 0;
	return __atomic_load_n(&pf->nat[nid], __ATOMIC_RELAXED);
}

static bool pf_in_main(const struct prefetch *pf, uint64_t addr)
{
	return addr >= pf->main0 && addr < pf->main_end;
}

/* A block index as the key and an entry's @fofs hold it: past KEY_FOFS_MAX, all one. */
static uint32_t fofs_clamp(uint64_t fofs)
{
	return fofs < KEY_FOFS_MAX ? (uint32_t)fofs : KEY_FOFS_MAX;
}

static uint64_t key_of(uint64_t dir_key, uint32_t fofs, uint32_t slot)
{
	return dir_key | (uint64_t)fofs << 10 | (slot & 1023);
}

/* The depth of the tree under i_nid[@i]: two direct nodes, two indirect, one double. */
static uint8_t nid_depth(uint32_t i)
{
	return (uint8_t)(i < 2 ? 0 : i < 4 ? 1 : 2);
}

static int list_add(struct pf_list *l, uint32_t addr, uint32_t nid, uint8_t kind, uint8_t depth,
		    uint64_t key, uint32_t fofs)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct pf_ent *e = realloc(l->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		l->e = e;
		l->cap = cap;
	}
	l->e[l->n++] = (struct pf_ent){ .key = key, .addr = addr, .nid = nid, .fofs = fofs,
					.kind = kind, .depth = depth };
	return 0;
}

/* A node of @nid to read, when the NAT places it in the main area. */
static int add_nid(struct prefetch *pf, struct pf_list *l, uint32_t nid, uint8_t kind,
		   uint8_t depth, uint64_t key, uint32_t fofs)
{
	uint32_t addr = pf_addr(pf, nid);

	return pf_in_main(pf, addr) ? list_add(l, addr, nid, kind, depth, key, fofs) : 0;
}

/* An inode a name leads to, once. */
static int add_child(struct prefetch *pf, struct pf_list *l, uint32_t ino, uint64_t key)
{
	if (ino < ZF2FS_RESERVED_NIDS || ino >= pf->nids || (pf->seen[ino / 8] & (1u << (ino % 8))))
		return 0;
	pf->seen[ino / 8] |= (uint8_t)(1u << (ino % 8));
	return add_nid(pf, l, ino, PF_INODE, 0, key, 0);
}

struct names {
	struct prefetch *pf;
	struct pf_list *l;
	uint64_t key;
};

static int add_name(void *arg, const struct zf2fs_dentry_info *d)
{
	struct names *nm = arg;

	return add_child(nm->pf, nm->l, d->ino, nm->key | (d->slot & 1023));
}

/* The inodes of the names in area @v, whose key is @key (slot 0); a malformed slot ends
 * the area (pass 4 reports it). */
static int add_names(struct prefetch *pf, struct pf_list *l, const struct zf2fs_dentry_view *v,
		     uint64_t key)
{
	struct names nm = { .pf = pf, .l = l, .key = key };

	return zf2fs_dentry_view_scan(v, 0, add_name, NULL, &nm);
}

/* The footer says this is node @nid (a block moved or reused since says otherwise). */
static bool is_node(const struct prefetch *pf, const void *blk, uint32_t nid)
{
	return zf2fs_get(zf2fs_node_footer(pf->g, blk)->nid) == nid;
}

/* A directory's inode: its inline names, or its dentry blocks and the nodes that hold
 * more of their addresses. */
static int parse_dir(struct prefetch *pf, const void *blk, uint32_t ino, uint64_t key,
		     struct pf_list *out)
{
	const struct zf2fs_node *n = blk;
	struct zf2fs_inode_geom ig;
	const zf2fs_le32 *nids = zf2fs_inode_nids(pf->g, blk);
	uint64_t apb = pf->g->addrs_per_block, npb = pf->g->nids_per_block, fofs;

	if (!is_node(pf, blk, ino) || zf2fs_inode_geometry2(pf->g, &n->i, pf->features, &ig))
		return 0;
	if (n->i.i_inline & ZF2FS_INLINE_DENTRY) {
		struct zf2fs_dentry_view v;

		if (zf2fs_dentry_view_inline2(pf->g, n, pf->features, &v))
			return 0;
		return add_names(pf, out, &v, key);
	}
	for (uint32_t i = 0; i < ig.addrs; i++) {
		uint32_t a = zf2fs_get_le32p((const uint8_t *)blk +
					     zf2fs_inode_addr_pos(ig.extra_words, i));

		if (pf_in_main(pf, a) && list_add(out, a, ino, PF_DENTRY, 0, key_of(key, i, 0), i))
			return -ENOMEM;
	}
	/* the first block index each node covers */
	fofs = ig.addrs;
	for (uint32_t i = 0; i < ZF2FS_NIDS_PER_INODE; i++) {
		uint8_t depth = nid_depth(i);
		uint32_t f = fofs_clamp(fofs);

		if (add_nid(pf, out, (uint32_t)zf2fs_get(nids[i]), PF_DIR_NODE, depth,
			    key_of(key, f, 0), f))
			return -ENOMEM;
		fofs += depth == 0 ? apb : depth == 1 ? apb * npb : apb * npb * npb;
	}
	return 0;
}

static int dir_add(struct pf_dir **v, size_t *n, size_t *cap, struct pf_dir d)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 256;
		struct pf_dir *t = realloc(*v, c * sizeof(*t));

		if (!t)
			return -ENOMEM;
		*v = t;
		*cap = c;
	}
	(*v)[(*n)++] = d;
	return 0;
}

/* A directory the batch met (its inode block kept while memory allows). */
static int found_dir(struct prefetch *pf, uint32_t ino, uint64_t key, const void *blk)
{
	size_t bs = pf->g->blocksize;
	void *copy = NULL;
	int err;

	if (blk && pf->held + bs <= PF_HELD_BYTES && (copy = malloc(bs))) {
		memcpy(copy, blk, bs);
		pf->held += bs;
	}
	err = dir_add(&pf->found, &pf->nfound, &pf->cap_found,
		      (struct pf_dir){ .key = key, .ino = ino, .blk = copy });
	if (err) {
		free(copy);
		if (copy)
			pf->held -= bs;
	}
	return err;
}

static int cmp_dir_key(const void *x, const void *y)
{
	const struct pf_dir *a = x, *b = y;

	return (a->key > b->key) - (a->key < b->key);
}

/* The batch's directories join the queue in the order pass 4 queues them: by where their
 * names sit. */
static int queue_found(struct prefetch *pf)
{
	if (pf->nfound > 1)
		qsort(pf->found, pf->nfound, sizeof(*pf->found), cmp_dir_key);
	for (size_t i = 0; i < pf->nfound; i++) {
		struct pf_dir d = pf->found[i];

		if (dir_add(&pf->q, &pf->qt, &pf->qcap, d)) {
			for (size_t j = i; j < pf->nfound; j++)
				free(pf->found[j].blk);
			pf->nfound = 0;
			return -ENOMEM;
		}
	}
	pf->nfound = 0;
	return 0;
}

static int parse(struct prefetch *pf, const struct pf_ent *e, const uint8_t *blk,
		 struct pf_list *out)
{
	const struct zf2fs_node *n = (const struct zf2fs_node *)blk;

	switch (e->kind) {
	case PF_DIR:
		return parse_dir(pf, blk, e->nid, e->key, out);
	case PF_DENTRY: {
		struct zf2fs_dentry_view v;

		zf2fs_dentry_view_block2(pf->g, blk, &v);
		return add_names(pf, out, &v, e->key);
	}
	case PF_DIR_NODE:
	case PF_NODE: {
		uint64_t dir_key = e->key & ~(((uint64_t)1 << 40) - 1);
		uint64_t span = e->depth == 2 ? (uint64_t)pf->g->addrs_per_block * pf->g->nids_per_block
					      : pf->g->addrs_per_block;
		uint32_t count = e->depth ? pf->g->nids_per_block : pf->g->addrs_per_block;

		if (!is_node(pf, blk, e->nid) || (e->kind == PF_NODE && !e->depth))
			return 0;   /* a file's direct node or xattr node: nothing further */
		for (uint32_t i = 0; i < count; i++) {
			uint32_t w = zf2fs_node_word(blk, i);
			uint32_t fofs = fofs_clamp(!e->depth ? (uint64_t)e->fofs + i
							      : e->fofs + span * i);
			int err = 0;

			if (!e->depth)
				err = pf_in_main(pf, w) ? list_add(out, w, e->nid, PF_DENTRY, 0,
								   key_of(dir_key, fofs, 0), fofs) : 0;
			else
				err = add_nid(pf, out, w, e->kind, (uint8_t)(e->depth - 1),
					      key_of(dir_key, fofs, 0), fofs);
			if (err)
				return err;
		}
		return 0;
	}
	case PF_INODE: {
		const zf2fs_le32 *nids = zf2fs_inode_nids(pf->g, blk);
		uint32_t mode = (uint32_t)zf2fs_get(n->i.i_mode);

		if (!is_node(pf, blk, e->nid) || zf2fs_node_ofs(pf->g, blk))
			return 0;
		pf->ahead++;
		if (add_nid(pf, out, (uint32_t)zf2fs_get(n->i.i_xattr_nid), PF_NODE, 0, e->key, 0))
			return -ENOMEM;
		if ((mode & 0170000) == 0040000)
			return found_dir(pf, e->nid, e->key, blk);
		if (n->i.i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY))
			return 0;
		for (uint32_t i = 0; i < ZF2FS_NIDS_PER_INODE; i++)
			if (add_nid(pf, out, (uint32_t)zf2fs_get(nids[i]), PF_NODE, nid_depth(i),
				    e->key, 0))
				return -ENOMEM;
		return 0;
	}
	}
	return 0;
}

static int cmp_key(const void *x, const void *y)
{
	const struct pf_ent *a = x, *b = y;

	return (a->key > b->key) - (a->key < b->key);
}

static int cmp_addr(const void *x, const void *y)
{
	const struct pf_ent *a = x, *b = y;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

/* Wait while this thread is a whole lead of inodes ahead of pass 4. */
static void keep_pace(struct prefetch *pf)
{
	struct timespec ms = { .tv_nsec = 1000000 };

	while (!pf_stopped(pf) && pf->ahead > __atomic_load_n(&pf->done, __ATOMIC_RELAXED) + pf->lead)
		nanosleep(&ms, NULL);
}

/* Read the entries of @l, a chunk at a time in address order, and what each leads to
 * before the next chunk (the depth of this is bounded: directory, dentry block or
 * directory node, inode, and a file's three levels of nodes). */
static int read_list(struct prefetch *pf, struct pf_list *l)
{
	size_t bs = pf->g->blocksize, run_max = PF_RUN_BYTES / bs;
	int err = 0;

	/* chunks follow pass 4's order; each is read in the disk's */
	if (l->n > 1)
		qsort(l->e, l->n, sizeof(*l->e), cmp_key);
	for (size_t c = 0; c < l->n && !err && !pf_stopped(pf); c += PF_CHUNK) {
		struct pf_ent *e = l->e + c;
		size_t n = l->n - c < PF_CHUNK ? l->n - c : PF_CHUNK;
		struct pf_list out = { 0 };

		if (e->kind == PF_INODE)
			keep_pace(pf);
		qsort(e, n, sizeof(*e), cmp_addr);
		for (size_t i = 0; i < n; i++)
			pf->hints[i] = e[i].addr;
		zf2fs_vol_willneed(pf->vol, pf->hints, n);
		for (size_t i = 0, j; i < n && !err; i = j) {
			uint32_t blocks = 1;

			/* a run of adjacent blocks (an address named twice read once) */
			for (j = i + 1; j < n && (e[j].addr == e[j - 1].addr ||
				(e[j].addr == e[j - 1].addr + 1 && blocks < run_max)); j++)
				blocks += e[j].addr != e[j - 1].addr;
			if (zf2fs_vol_read_ahead(pf->vol, e[i].addr, blocks, pf->buf))
				continue;   /* pass 4 reports what it cannot read */
			for (size_t k = i; k < j && !err; k++)
				err = parse(pf, &e[k], pf->buf + (size_t)(e[k].addr - e[i].addr) * bs,
					    &out);
		}
		if (!err)
			err = read_list(pf, &out);
		free(out.e);
	}
	return err;
}

/* The summary blocks, in runs of adjacent blocks. */
static void read_ssa(struct prefetch *pf)
{
	size_t run_max = PF_RUN_BYTES / pf->g->blocksize;

	for (size_t i = 0, j; i < pf->nssa && !pf_stopped(pf); i = j) {
		for (j = i + 1; j < pf->nssa && j - i < run_max && pf->ssa[j] == pf->ssa[j - 1] + 1; j++)
			;
		(void)zf2fs_vol_read_ahead(pf->vol, pf->ssa[i], (uint32_t)(j - i), pf->buf);
	}
}

/* The SSA blocks of the segments the SIT counts blocks in, one per block (none on a
 * read-only volume: it keeps no summaries, and pass 4 reads none). */
static int list_ssa(struct prefetch *pf, const struct fsck_ctx *ctx)
{
	uint32_t segs = ctx->vi->main_segs, per = ctx->g->sit_per_block, cap = 0;

	for (uint32_t sb = 0; sb * per < segs; sb++) {
		if (!zf2fs_sit_table_block_used(ctx->sit, sb))
			continue;
		for (uint32_t s = sb * per; s < segs && s < (sb + 1) * per; s++) {
			uint32_t a;

			if (!zf2fs_vblocks_count((uint32_t)zf2fs_get(sit_get(ctx, s)->vblocks)))
				continue;
			a = zf2fs_geom_ssa_block(ctx->g, ctx->vi->ssa_blkaddr, s, NULL);
			if (pf->nssa && pf->ssa[pf->nssa - 1] == a)
				continue;   /* packed: several segments' summaries in one block */
			if (pf->nssa == cap) {
				uint32_t *t;

				cap = cap ? cap * 2 : 1024;
				t = realloc(pf->ssa, cap * sizeof(*t));
				if (!t)
					return -ENOMEM;
				pf->ssa = t;
			}
			pf->ssa[pf->nssa++] = a;
		}
	}
	return 0;
}

static void *run(void *arg)
{
	struct prefetch *pf = arg;

	read_ssa(pf);
	while (pf->qh < pf->qt && !pf_stopped(pf)) {
		struct pf_list dirs = { 0 }, out = { 0 };
		int err = 0;

		for (unsigned i = 0; i < PF_DIRS && pf->qh < pf->qt && !err; i++) {
			size_t at = pf->qh;
			struct pf_dir d = pf->q[pf->qh++];
			uint64_t key = (uint64_t)(at < KEY_DIR_MAX ? at : KEY_DIR_MAX) << 40;

			if (d.blk) {
				err = parse_dir(pf, d.blk, d.ino, key, &out);
				pf->held -= pf->g->blocksize;
				free(d.blk);
			} else {
				err = add_nid(pf, &dirs, d.ino, PF_DIR, 0, key, 0);
			}
		}
		if (!err)
			err = read_list(pf, &dirs);
		if (!err)
			err = read_list(pf, &out);
		if (!err)
			err = queue_found(pf);
		free(dirs.e);
		free(out.e);
		if (err)
			break;   /* out of memory: pass 4 goes on without it */
	}
	return NULL;
}

static void pf_free(struct prefetch *pf)
{
	for (size_t i = pf->qh; i < pf->qt; i++)
		free(pf->q[i].blk);
	for (size_t i = 0; i < pf->nfound; i++)
		free(pf->found[i].blk);
	free(pf->q);
	free(pf->found);
	free(pf->seen);
	free(pf->buf);
	free(pf->hints);
	free(pf->ssa);
	free(pf);
}

/* An environment switch: on when set to anything but empty or 0. */
static bool env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

void prefetch_start(struct fsck_ctx *ctx, uint32_t root)
{
	struct prefetch *pf;

	if (env_on("ZF2FS_NO_PREFETCH") || ctx->pf)
		return;
	pf = calloc(1, sizeof(*pf));
	if (!pf)
		return;
	pf->vol = ctx->vol;
	pf->g = ctx->g;
	pf->nat = ctx->nat_addr;
	pf->nids = ctx->nids;
	pf->features = ctx->vi->features;
	pf->main0 = ctx->vi->main_blkaddr;
	pf->main_end = pf->main0 + (uint64_t)ctx->vi->main_segs * ctx->g->blocks_per_seg;
	pf->lead = PF_LEAD_BYTES / ctx->g->blocksize;
	pf->seen = calloc((size_t)ctx->nids / 8 + 1, 1);
	pf->buf = malloc(PF_RUN_BYTES);
	pf->hints = malloc(PF_CHUNK * sizeof(*pf->hints));
	if (!pf->seen || !pf->buf || !pf->hints ||
	    dir_add(&pf->q, &pf->qt, &pf->qcap, (struct pf_dir){ .ino = root }) ||
	    (ctx->sit && !(ctx->vi->features & ZF2FS_FEAT_RO) && list_ssa(pf, ctx))) {
		pf_free(pf);
		return;
	}
	pf->seen[root / 8] |= (uint8_t)(1u << (root % 8));
	if (pthread_create(&pf->th, NULL, run, pf)) {
		pf_free(pf);
		return;
	}
	ctx->pf = pf;
}

void prefetch_note_inode(struct fsck_ctx *ctx)
{
	if (ctx->pf)
		__atomic_fetch_add(&ctx->pf->done, 1, __ATOMIC_RELAXED);
}

void prefetch_stop(struct fsck_ctx *ctx)
{
	struct prefetch *pf = ctx->pf;

	if (!pf)
		return;
	/* tests: let it read the whole tree, so that what it reads does not depend on
	 * how the two threads were scheduled */
	if (!env_on("ZF2FS_PREFETCH_FINISH"))
		__atomic_store_n(&pf->stop, 1, __ATOMIC_RELEASE);
	pthread_join(pf->th, NULL);
	pf_free(pf);
	ctx->pf = NULL;
}
