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
 * pass 4 gets there.
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
#include "zf2fs-internal/volume.h"

#define PF_LEAD_BYTES  (64u << 20)   /* inodes read ahead of pass 4 */
#define PF_HELD_BYTES  (8u << 20)    /* queued directories' inode blocks kept */
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

struct pf_ent {
	uint32_t addr, nid;
	uint8_t kind, depth;
};

struct pf_list {
	struct pf_ent *e;
	size_t n, cap;
};

struct pf_dir {
	uint32_t ino;
	void *blk;   /* its inode block as read, or NULL: read it again */
};

struct prefetch {
	struct zf2fs_vol *vol;
	const struct zf2fs_geom *g;
	const uint32_t *nat;        /* ctx->nat_addr: entries read with atomic loads */
	uint32_t nids, features;
	uint64_t main0, main_end;
	uint64_t lead;              /* inodes */
	pthread_t th;
	int stop;                   /* atomic: pass 4 is done */
	uint64_t done;              /* atomic: inodes pass 4 has read */
	uint64_t ahead;             /* inodes this thread has read */
	struct pf_dir *q;
	size_t qh, qt, qcap, held;
	uint8_t *seen;              /* bit per nid: an inode already queued for reading */
	uint8_t *buf;
	uint64_t *hints;
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

static int list_add(struct pf_list *l, uint32_t addr, uint32_t nid, uint8_t kind, uint8_t depth)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct pf_ent *e = realloc(l->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		l->e = e;
		l->cap = cap;
	}
	l->e[l->n++] = (struct pf_ent){ .addr = addr, .nid = nid, .kind = kind, .depth = depth };
	return 0;
}

/* A node of @nid to read, when the NAT places it in the main area. */
static int add_nid(struct prefetch *pf, struct pf_list *l, uint32_t nid, uint8_t kind,
		   uint8_t depth)
{
	uint32_t addr = pf_addr(pf, nid);

	return pf_in_main(pf, addr) ? list_add(l, addr, nid, kind, depth) : 0;
}

/* An inode a name leads to, once. */
static int add_child(struct prefetch *pf, struct pf_list *l, uint32_t ino)
{
	if (ino < ZF2FS_RESERVED_NIDS || ino >= pf->nids || (pf->seen[ino / 8] & (1u << (ino % 8))))
		return 0;
	pf->seen[ino / 8] |= (uint8_t)(1u << (ino % 8));
	return add_nid(pf, l, ino, PF_INODE, 0);
}

static int add_names(struct prefetch *pf, struct pf_list *l, const struct zf2fs_dentry_view *v)
{
	for (uint32_t i = 0; i < v->nr;) {
		uint32_t len;

		if (!zf2fs_dentry_slot_used(v, i)) {
			i++;
			continue;
		}
		if (add_child(pf, l, (uint32_t)zf2fs_get(v->dentry[i].ino)))
			return -ENOMEM;
		len = (uint32_t)zf2fs_get(v->dentry[i].name_len);
		i += len && len <= ZF2FS_NAME_LEN ? zf2fs_dentry_slots(len) : 1;
	}
	return 0;
}

/* The footer says this is node @nid (a block moved or reused since says otherwise). */
static bool is_node(const struct prefetch *pf, const void *blk, uint32_t nid)
{
	return zf2fs_get(zf2fs_node_footer(pf->g, blk)->nid) == nid;
}

/* A directory's inode: its inline names, or its dentry blocks and the nodes that hold
 * more of their addresses. */
static int parse_dir(struct prefetch *pf, const void *blk, uint32_t ino, struct pf_list *out)
{
	const struct zf2fs_node *n = blk;
	struct zf2fs_inode_geom ig;
	const zf2fs_le32 *nids = zf2fs_inode_nids(pf->g, blk);

	if (!is_node(pf, blk, ino) || zf2fs_inode_geometry2(pf->g, &n->i, pf->features, &ig))
		return 0;
	if (n->i.i_inline & ZF2FS_INLINE_DENTRY) {
		struct zf2fs_dentry_view v;

		if (zf2fs_dentry_view_inline2(pf->g, n, pf->features, &v))
			return 0;
		return add_names(pf, out, &v);
	}
	for (uint32_t i = 0; i < ig.addrs; i++) {
		uint32_t a = zf2fs_get_le32p((const uint8_t *)blk +
					     zf2fs_inode_addr_pos(ig.extra_words, i));

		if (pf_in_main(pf, a) && list_add(out, a, ino, PF_DENTRY, 0))
			return -ENOMEM;
	}
	for (uint32_t i = 0; i < ZF2FS_NIDS_PER_INODE; i++)
		if (add_nid(pf, out, (uint32_t)zf2fs_get(nids[i]), PF_DIR_NODE,
			    (uint8_t)(i < 2 ? 0 : i < 4 ? 1 : 2)))
			return -ENOMEM;
	return 0;
}

static int queue_dir(struct prefetch *pf, uint32_t ino, const void *blk)
{
	size_t bs = pf->g->blocksize;
	void *copy = NULL;

	if (pf->qt == pf->qcap) {
		size_t cap = pf->qcap ? pf->qcap * 2 : 1024;
		struct pf_dir *q = realloc(pf->q, cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		pf->q = q;
		pf->qcap = cap;
	}
	if (blk && pf->held + bs <= PF_HELD_BYTES && (copy = malloc(bs))) {
		memcpy(copy, blk, bs);
		pf->held += bs;
	}
	pf->q[pf->qt++] = (struct pf_dir){ .ino = ino, .blk = copy };
	return 0;
}

static int parse(struct prefetch *pf, const struct pf_ent *e, const uint8_t *blk,
		 struct pf_list *out)
{
	const struct zf2fs_node *n = (const struct zf2fs_node *)blk;

	switch (e->kind) {
	case PF_DIR:
		return parse_dir(pf, blk, e->nid, out);
	case PF_DENTRY: {
		struct zf2fs_dentry_view v;

		zf2fs_dentry_view_block2(pf->g, blk, &v);
		return add_names(pf, out, &v);
	}
	case PF_DIR_NODE:
	case PF_NODE: {
		uint32_t count = e->depth ? pf->g->nids_per_block : pf->g->addrs_per_block;

		if (!is_node(pf, blk, e->nid) || (e->kind == PF_NODE && !e->depth))
			return 0;   /* a file's direct node or xattr node: nothing further */
		for (uint32_t i = 0; i < count; i++) {
			uint32_t w = zf2fs_node_word(blk, i);
			int err = !e->depth ? (pf_in_main(pf, w) ? list_add(out, w, e->nid,
									  PF_DENTRY, 0) : 0)
					    : add_nid(pf, out, w, e->kind, (uint8_t)(e->depth - 1));

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
		if (add_nid(pf, out, (uint32_t)zf2fs_get(n->i.i_xattr_nid), PF_NODE, 0))
			return -ENOMEM;
		if ((mode & 0170000) == 0040000)
			return queue_dir(pf, e->nid, blk);
		if (n->i.i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY))
			return 0;
		for (uint32_t i = 0; i < ZF2FS_NIDS_PER_INODE; i++)
			if (add_nid(pf, out, (uint32_t)zf2fs_get(nids[i]), PF_NODE,
				    (uint8_t)(i < 2 ? 0 : i < 4 ? 1 : 2)))
				return -ENOMEM;
		return 0;
	}
	}
	return 0;
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

static void *run(void *arg)
{
	struct prefetch *pf = arg;

	while (pf->qh < pf->qt && !pf_stopped(pf)) {
		struct pf_list dirs = { 0 }, out = { 0 };
		int err = 0;

		for (unsigned i = 0; i < PF_DIRS && pf->qh < pf->qt && !err; i++) {
			struct pf_dir d = pf->q[pf->qh++];

			if (d.blk) {
				err = parse_dir(pf, d.blk, d.ino, &out);
				pf->held -= pf->g->blocksize;
				free(d.blk);
			} else {
				err = add_nid(pf, &dirs, d.ino, PF_DIR, 0);
			}
		}
		if (!err)
			err = read_list(pf, &dirs);
		if (!err)
			err = read_list(pf, &out);
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
	free(pf->q);
	free(pf->seen);
	free(pf->buf);
	free(pf->hints);
	free(pf);
}

void prefetch_start(struct fsck_ctx *ctx, uint32_t root)
{
	const char *off = getenv("ZF2FS_NO_PREFETCH");
	struct prefetch *pf;

	if ((off && *off && strcmp(off, "0")) || ctx->pf)
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
	if (!pf->seen || !pf->buf || !pf->hints || queue_dir(pf, root, NULL)) {
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
	const char *finish = getenv("ZF2FS_PREFETCH_FINISH");

	if (!pf)
		return;
	/* tests: let it read the whole tree, so that what it reads does not depend on
	 * how the two threads were scheduled */
	if (!finish || !*finish || !strcmp(finish, "0"))
		__atomic_store_n(&pf->stop, 1, __ATOMIC_RELEASE);
	pthread_join(pf->th, NULL);
	pf_free(pf);
	ctx->pf = NULL;
}
