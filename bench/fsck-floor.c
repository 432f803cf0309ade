// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/fsck-floor.c - the physical floor of a cold full check: read exactly the blocks a
 * full fsck must read, in ascending address order and in large requests, and time it.
 *
 *   fsck-floor [--drop-caches] [--no-hints] DEVICE...
 *
 * The blocks: both superblocks, the checkpoint pack in use, the live copy of every SIT
 * block the main area's segments need, the live copy of every NAT block holding an entry
 * with an address, every node block the NAT (its journal applied) places in the main area
 * (inodes, direct and indirect nodes, xattr nodes), and every dentry block: the data
 * blocks of the directories that keep their entries outside the inode, found in the
 * directory inodes' i_addr and in their direct nodes.
 *
 * Each group is read in ascending address order; adjacent blocks (on one device) go into
 * one read of up to 1 MiB, and nothing between two wanted blocks is read.  While a read
 * waits, the runs of the next 8 MiB of wanted blocks are announced to the kernel
 * (posix_fadvise WILLNEED), so that the device has several reads queued, as a reader
 * that overlaps its reads would; --no-hints reads one request at a time.  The node blocks
 * are read in one sweep in address order.  A directory inode gives its dentry blocks'
 * addresses at once; a direct node seen before its inode (the sweep goes by address, not
 * by tree) is remembered as (address, owner inode), 8 bytes, and after the sweep those
 * of directories are read again (counted apart) for their addresses.  Then the dentry
 * blocks are read, sorted.  Memory: 4 bytes per node block for the sort, two bitmaps of
 * one bit per nid, the remembered direct nodes and the dentry addresses.
 *
 * Which NAT blocks hold entries is found before the timed part, by reading the whole NAT
 * once; --drop-caches (sync, then 3 to /proc/sys/vm/drop_caches: needs root) follows it,
 * so the timed part starts with nothing cached.  The volume is opened before that too
 * (its superblocks and checkpoint pack are read again in the timed part).
 *
 * Output on stdout: one line "floor: B blocks (M MiB) in R requests, S s, T MiB/s" and one
 * line per group.  A warning on stderr when the node blocks read differ from the
 * checkpoint's valid_node_count.  Exit 0; 1 with a one-line error naming the cause.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"
#include "zf2fs/zoned.h"
#include "zf2fs-internal/volume.h"
#include "helper.h"

#define PROG "fsck-floor"
#define REQUEST_BYTES (1u << 20)
#define AHEAD_BYTES (8u << 20)

/* A set of block addresses, grown as they are found. */
struct addrs {
	uint32_t *a;
	size_t n, cap;
};

/* A direct node read before its owner inode: where it is and whose it is. */
struct pending {
	uint32_t addr, ino;
};

/* Blocks and reads of one group. */
struct tally {
	uint64_t blocks, requests;
};

struct floor {
	struct zf2fs_vol *vol;
	const struct zf2fs_geom *g;
	const struct zf2fs_vol_info *vi;
	uint32_t features;
	uint8_t *buf;                  /* one request */
	uint32_t max_run;              /* blocks per request */
	unsigned ndevs;
	uint64_t dev_first[ZF2FS_MAX_DEVICES], dev_last[ZF2FS_MAX_DEVICES];
	int fd[ZF2FS_MAX_DEVICES];     /* the devices again, for the hints (-1: none) */
	uint32_t ahead;                /* blocks hinted ahead of the read; 0: no hints */
	uint8_t *nat_used;             /* a bit per NAT block holding an entry */
	uint8_t *seen, *dir;           /* a bit per nid: inode read, inode is a directory */
	struct addrs nodes, dentry;     /* found in the NAT, in directories */
	struct pending *pend;
	size_t npend, pend_cap;
	uint64_t nat_nodes;            /* NAT entries (journal applied) with a main-area address */
};

typedef int (*block_fn)(struct floor *f, uint32_t addr, const uint8_t *blk);

static int addrs_push(struct addrs *s, uint32_t addr)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4096;
		uint32_t *a = realloc(s->a, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		s->a = a;
		s->cap = cap;
	}
	s->a[s->n++] = addr;
	return 0;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

/* Sort @s and drop repeated addresses. */
static void addrs_sort(struct addrs *s)
{
	size_t k = 0;

	if (!s->n)
		return;
	qsort(s->a, s->n, sizeof(*s->a), cmp_u32);
	for (size_t i = 0; i < s->n; i++)
		if (!k || s->a[i] != s->a[k - 1])
			s->a[k++] = s->a[i];
	s->n = k;
}

static bool in_main(const struct floor *f, uint32_t addr)
{
	return addr >= f->vi->main_blkaddr && addr < f->vi->main_end;
}

/* The last block of the device holding @addr (the volume's last block if none does). */
static unsigned dev_of(const struct floor *f, uint64_t addr)
{
	for (unsigned i = 0; i < f->ndevs; i++)
		if (addr <= f->dev_last[i])
			return i;
	return f->ndevs - 1;
}

static uint64_t dev_last(const struct floor *f, uint64_t addr)
{
	return f->dev_last[dev_of(f, addr)];
}

/* The end of the run of adjacent blocks starting at @a[@i]: at most f->max_run blocks, on
 * one device. */
static size_t run_end(const struct floor *f, const uint32_t *a, size_t n, size_t i)
{
	uint64_t last = dev_last(f, a[i]);
	size_t j = i + 1;

	while (j < n && j - i < f->max_run && a[j] == a[j - 1] + 1 && a[j] <= last)
		j++;
	return j;
}

/* Tell the kernel about the runs from @a[*@h] on that start less than f->ahead blocks
 * after @a[@i], so that the device has them queued while the read at @i waits. */
static void hint(struct floor *f, const uint32_t *a, size_t n, size_t i, size_t *h)
{
	const uint32_t bs = f->g->blocksize;

	if (*h < i)
		*h = i;
	while (f->ahead && *h < n && *h - i < f->ahead) {
		size_t e = run_end(f, a, n, *h);
		unsigned d = dev_of(f, a[*h]);

		if (f->fd[d] >= 0)
			posix_fadvise(f->fd[d], (off_t)((a[*h] - f->dev_first[d]) * bs),
				      (off_t)((e - *h) * bs), POSIX_FADV_WILLNEED);
		*h = e;
	}
}

/*
 * Read the blocks at the sorted, distinct addresses @a[0..@n) in runs of adjacent blocks,
 * each run one read of at most f->max_run blocks inside one device, and call @fn (when
 * not NULL) on each block read.
 */
static int sweep(struct floor *f, const uint32_t *a, size_t n, block_fn fn, struct tally *t)
{
	const uint32_t bs = f->g->blocksize;
	size_t h = 0;

	for (size_t i = 0; i < n;) {
		size_t j = run_end(f, a, n, i);
		int err;

		hint(f, a, n, j, &h);
		err = zf2fs_vol_read_blocks(f->vol, a[i], (uint32_t)(j - i), f->buf);
		if (err)
			return err;
		t->requests++;
		t->blocks += j - i;
		for (size_t k = i; fn && k < j; k++) {
			err = fn(f, a[k], f->buf + (k - i) * bs);
			if (err)
				return err;
		}
		i = j;
	}
	return 0;
}

/* ---- the NAT ----------------------------------------------------------------------------- */
/* Before the timed part: which NAT blocks of the live copy hold an entry with an address. */
static int mark_nat(struct floor *f, uint32_t addr, const uint8_t *blk)
{
	uint32_t idx;
	unsigned copy;

	if (!zf2fs_vol_nat_block_of(f->vol, addr, &idx, &copy))
		return 0;
	for (uint32_t e = 0; e < f->g->nat_per_block; e++)
		if (zf2fs_nat_addr(zf2fs_nat_block_entry(blk, e)) != ZF2FS_NULL_ADDR) {
			zf2fs_hbit_set(f->nat_used, idx);
			break;
		}
	return 0;
}

/* The live copy's addresses of the NAT blocks @used marks (all of them when NULL). */
static int nat_addrs(struct floor *f, const uint8_t *used, struct addrs *s)
{
	for (uint32_t i = 0; i < f->vi->nat_blocks; i++)
		if ((!used || zf2fs_hbit_test(used, i)) &&
		    addrs_push(s, (uint32_t)zf2fs_vol_nat_block_addr(f->vol, i)))
			return -ENOMEM;
	addrs_sort(s);
	return 0;
}

/* Whether the NAT journal holds @nid. */
static bool in_journal(const struct floor *f, uint32_t nid)
{
	const struct zf2fs_journal *j = zf2fs_vol_nat_journal(f->vol);

	for (uint32_t i = 0; i < zf2fs_get(j->n_entries) && i < f->g->nat_journal_entries; i++)
		if (zf2fs_get(zf2fs_journal_nat(j, i)->nid) == nid)
			return true;
	return false;
}

static bool block_in_journal(const struct floor *f, uint32_t idx)
{
	const struct zf2fs_journal *j = zf2fs_vol_nat_journal(f->vol);

	for (uint32_t i = 0; i < zf2fs_get(j->n_entries) && i < f->g->nat_journal_entries; i++)
		if (zf2fs_get(zf2fs_journal_nat(j, i)->nid) / f->g->nat_per_block == idx)
			return true;
	return false;
}

/* In the timed part: the node addresses of a NAT block's entries. */
static int parse_nat(struct floor *f, uint32_t addr, const uint8_t *blk)
{
	uint32_t idx;
	unsigned copy;
	bool journal;

	if (!zf2fs_vol_nat_block_of(f->vol, addr, &idx, &copy))
		return 0;
	journal = block_in_journal(f, idx);
	for (uint32_t e = 0; e < f->g->nat_per_block; e++) {
		uint32_t nid = idx * f->g->nat_per_block + e;
		uint32_t a = zf2fs_nat_addr(zf2fs_nat_block_entry(blk, e));

		if (nid < ZF2FS_RESERVED_NIDS || !in_main(f, a) || (journal && in_journal(f, nid)))
			continue;
		f->nat_nodes++;
		if (addrs_push(&f->nodes, a))
			return -ENOMEM;
	}
	return 0;
}

static int journal_nodes(struct floor *f)
{
	const struct zf2fs_journal *j = zf2fs_vol_nat_journal(f->vol);

	for (uint32_t i = 0; i < zf2fs_get(j->n_entries) && i < f->g->nat_journal_entries; i++) {
		const struct zf2fs_nat_journal_entry *je = zf2fs_journal_nat(j, i);
		uint32_t nid = (uint32_t)zf2fs_get(je->nid), a = zf2fs_nat_addr(&je->ne);

		if (nid < ZF2FS_RESERVED_NIDS || nid >= f->vi->max_nid || !in_main(f, a))
			continue;
		f->nat_nodes++;
		if (addrs_push(&f->nodes, a))
			return -ENOMEM;
	}
	return 0;
}

/* ---- nodes and dentry blocks ------------------------------------------------------------- */
/* Whether a node at offset @ofs of its inode's tree is a direct node. */
static bool direct_ofs(const struct zf2fs_geom *g, uint32_t ofs)
{
	uint32_t n = g->nids_per_block, dind = zf2fs_geom_ofs_dind(g);

	if (ofs == ZF2FS_OFS_DIR1 || ofs == ZF2FS_OFS_DIR2)
		return true;
	if (ofs > ZF2FS_OFS_IND1 && ofs < zf2fs_geom_ofs_ind2(g))
		return true;
	if (ofs > zf2fs_geom_ofs_ind2(g) && ofs < dind)
		return true;
	/* below the double indirect node: groups of one indirect node then n direct ones */
	return ofs > dind && ofs - dind - 1 < (uint64_t)n * (n + 1) &&
	       (ofs - dind - 1) % (n + 1) != 0;
}

static int push_dentry(struct floor *f, uint32_t a)
{
	if (!in_main(f, a))
		return 0;
	return addrs_push(&f->dentry, a);
}

/* The dentry block addresses of a directory's direct node. */
static int direct_dentries(struct floor *f, const uint8_t *blk)
{
	const zf2fs_le32 *w = zf2fs_node_words(blk);

	for (uint32_t i = 0; i < f->g->addrs_per_block; i++)
		if (push_dentry(f, (uint32_t)zf2fs_get(w[i])))
			return -ENOMEM;
	return 0;
}

static int parse_node(struct floor *f, uint32_t addr, const uint8_t *blk)
{
	const struct zf2fs_node_footer *ft = zf2fs_node_footer(f->g, blk);
	uint32_t nid = (uint32_t)zf2fs_get(ft->nid), ino = (uint32_t)zf2fs_get(ft->ino);
	uint32_t ofs = zf2fs_node_ofs(f->g, blk);

	if (ino >= f->vi->max_nid)
		return 0;
	if (ofs == 0 && nid == ino) {
		const struct zf2fs_inode *in = (const struct zf2fs_inode *)blk;
		struct zf2fs_inode_geom ig;
		const zf2fs_le32 *ia = zf2fs_inode_addrs(blk);

		zf2fs_hbit_set(f->seen, ino);
		if (zf2fs_inode_type(in) != ZF2FS_S_IFDIR)
			return 0;
		zf2fs_hbit_set(f->dir, ino);
		if ((in->i_inline & ZF2FS_INLINE_DENTRY) ||
		    zf2fs_inode_geometry2(f->g, in, f->features, &ig))
			return 0;
		for (uint32_t i = 0; i < ig.addrs; i++)
			if (push_dentry(f, (uint32_t)zf2fs_get(ia[ig.extra_words + i])))
				return -ENOMEM;
		return 0;
	}
	if (!direct_ofs(f->g, ofs))
		return 0;
	if (zf2fs_hbit_test(f->seen, ino))
		return zf2fs_hbit_test(f->dir, ino) ? direct_dentries(f, blk) : 0;
	if (f->npend == f->pend_cap) {
		size_t cap = f->pend_cap ? f->pend_cap * 2 : 1024;
		struct pending *p = realloc(f->pend, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		f->pend = p;
		f->pend_cap = cap;
	}
	f->pend[f->npend++] = (struct pending){ .addr = addr, .ino = ino };
	return 0;
}

static int parse_again(struct floor *f, uint32_t addr, const uint8_t *blk)
{
	(void)addr;
	return direct_dentries(f, blk);
}

/* ---- the whole ----------------------------------------------------------------------------- */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int drop_caches(void)
{
	int fd, err = 0;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0 || write(fd, "3\n", 2) != 2)
		err = -errno;
	if (fd >= 0)
		close(fd);
	if (err)
		fprintf(stderr, PROG ": cannot drop the page cache: /proc/sys/vm/drop_caches: %s "
			"(writing it needs root)\n", strerror(-err));
	return err;
}

static double mib(uint64_t blocks, uint32_t bs)
{
	return (double)blocks * bs / (1024.0 * 1024.0);
}

static void usage(FILE *out)
{
	fprintf(out, "usage: " PROG " [--drop-caches] [--no-hints] DEVICE...\n"
		"Reads the blocks a full fsck must read, in address order, and times it.\n");
}

int main(int argc, char **argv)
{
	struct zf2fs_log log = { .level = 0, .fn = zs_cli_log, .arg = (void *)PROG };
	struct floor f = { 0 };
	struct addrs meta = { 0 }, sit = { 0 }, nat = { 0 }, again = { 0 };
	struct tally tm = { 0 }, tsit = { 0 }, tnat = { 0 }, tnode = { 0 }, tagain = { 0 };
	struct tally tdent = { 0 };
	const struct zf2fs_checkpoint *cp;
	const char *doing = "opening the volume";
	bool drop = false, hints = true;
	uint64_t total, requests, cp_nodes;
	uint32_t sit_blocks, cp_blocks;
	double t0, secs;
	int first = 1, err;

	while (first < argc && argv[first][0] == '-') {
		if (!strcmp(argv[first], "--drop-caches")) {
			drop = true;
		} else if (!strcmp(argv[first], "--no-hints")) {
			hints = false;
		} else if (!strcmp(argv[first], "--help")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 1;
		}
		first++;
	}
	if (first == argc || argc - first > ZF2FS_MAX_DEVICES) {
		usage(stderr);
		return 1;
	}
	err = zf2fs_vol_open((const char *const *)argv + first, (unsigned)(argc - first),
			     ZF2FS_VOL_BLOCK16K, &log, &f.vol);
	if (err)
		goto out_quiet;   /* the library said why */
	f.g = zf2fs_vol_geom(f.vol);
	f.vi = zf2fs_vol_info(f.vol);
	f.features = f.vi->features;
	f.ndevs = zf2fs_vol_ndevs(f.vol);
	for (unsigned i = 0; i < f.ndevs; i++) {
		zf2fs_vol_dev_range(f.vol, i, &f.dev_first[i], &f.dev_last[i]);
		f.fd[i] = hints ? open(zf2fs_dev_path(zf2fs_vol_dev(f.vol, i)), O_RDONLY) : -1;
	}
	f.ahead = hints ? AHEAD_BYTES / f.g->blocksize : 0;
	f.max_run = REQUEST_BYTES / f.g->blocksize;
	f.buf = malloc(REQUEST_BYTES);
	f.nat_used = calloc(f.vi->nat_blocks / 8 + 1, 1);
	f.seen = calloc(f.vi->max_nid / 8 + 1, 1);
	f.dir = calloc(f.vi->max_nid / 8 + 1, 1);
	err = -ENOMEM;
	if (!f.buf || !f.nat_used || !f.seen || !f.dir)
		goto out;

	/* untimed: which NAT blocks hold entries */
	doing = "reading the NAT";
	err = nat_addrs(&f, NULL, &nat);
	if (!err)
		err = sweep(&f, nat.a, nat.n, mark_nat, &(struct tally){ 0 });
	if (err)
		goto out;
	nat.n = 0;
	err = nat_addrs(&f, f.nat_used, &nat);
	if (err)
		goto out;
	if (drop) {
		doing = "dropping the page cache";
		err = drop_caches();
		if (err)
			goto out_quiet;
	}

	/* timed: superblocks and checkpoint pack, SIT, NAT, nodes, dentry blocks */
	t0 = now();
	cp = zf2fs_vol_checkpoint(f.vol);
	cp_blocks = (uint32_t)zf2fs_get(cp->cp_pack_total_block_count);
	doing = "reading the superblocks and checkpoint";
	err = addrs_push(&meta, 0) || addrs_push(&meta, 1) ? -ENOMEM : 0;
	for (uint32_t i = 0; !err && i < cp_blocks; i++)
		err = addrs_push(&meta, (uint32_t)zf2fs_vol_cp_pack_addr(f.vol, f.vi->cp_pack) + i);
	if (!err) {
		addrs_sort(&meta);
		err = sweep(&f, meta.a, meta.n, NULL, &tm);
	}
	doing = "reading the SIT";
	sit_blocks = zf2fs_geom_sit_blocks(f.g, f.vi->main_segs);
	for (uint32_t i = 0; !err && i < sit_blocks; i++)
		err = addrs_push(&sit, (uint32_t)zf2fs_vol_sit_block_addr(f.vol, i));
	if (!err) {
		addrs_sort(&sit);
		err = sweep(&f, sit.a, sit.n, NULL, &tsit);
	}
	doing = "reading the NAT";
	if (!err)
		err = sweep(&f, nat.a, nat.n, parse_nat, &tnat);
	if (!err)
		err = journal_nodes(&f);
	doing = "reading the node blocks";
	if (!err) {
		addrs_sort(&f.nodes);
		err = sweep(&f, f.nodes.a, f.nodes.n, parse_node, &tnode);
	}
	/* the direct nodes of directories read before their inode, again */
	doing = "reading directories' direct nodes again";
	for (size_t i = 0; !err && i < f.npend; i++)
		if (zf2fs_hbit_test(f.dir, f.pend[i].ino))
			err = addrs_push(&again, f.pend[i].addr);
	if (!err) {
		addrs_sort(&again);
		err = sweep(&f, again.a, again.n, parse_again, &tagain);
	}
	doing = "reading the dentry blocks";
	if (!err) {
		addrs_sort(&f.dentry);
		err = sweep(&f, f.dentry.a, f.dentry.n, NULL, &tdent);
	}
	if (err)
		goto out;
	secs = now() - t0;

	total = tm.blocks + tsit.blocks + tnat.blocks + tnode.blocks + tagain.blocks + tdent.blocks;
	requests = tm.requests + tsit.requests + tnat.requests + tnode.requests + tagain.requests +
		   tdent.requests;
	printf("floor: %llu blocks (%.1f MiB) in %llu requests, %.3f s, %.1f MiB/s\n",
	       (unsigned long long)total, mib(total, f.g->blocksize), (unsigned long long)requests,
	       secs, mib(total, f.g->blocksize) / (secs > 1e-6 ? secs : 1e-6));
	printf("  meta: %llu blocks in %llu requests (superblocks 2, checkpoint pack %u, "
	       "SIT %llu, NAT %llu of %u)\n",
	       (unsigned long long)(tm.blocks + tsit.blocks + tnat.blocks),
	       (unsigned long long)(tm.requests + tsit.requests + tnat.requests), cp_blocks,
	       (unsigned long long)tsit.blocks, (unsigned long long)tnat.blocks, f.vi->nat_blocks);
	cp_nodes = zf2fs_get(cp->valid_node_count);
	printf("  node: %llu blocks in %llu requests (the checkpoint's valid_node_count: %llu)\n",
	       (unsigned long long)tnode.blocks, (unsigned long long)tnode.requests,
	       (unsigned long long)cp_nodes);
	printf("  node again: %llu blocks in %llu requests (directories' direct nodes before "
	       "their inode)\n", (unsigned long long)tagain.blocks,
	       (unsigned long long)tagain.requests);
	printf("  dentry: %llu blocks in %llu requests\n", (unsigned long long)tdent.blocks,
	       (unsigned long long)tdent.requests);
	if (tnode.blocks != cp_nodes)
		fprintf(stderr, PROG ": WARNING: %llu node blocks read (%llu NAT entries in the "
			"main area), the checkpoint's valid_node_count is %llu\n",
			(unsigned long long)tnode.blocks, (unsigned long long)f.nat_nodes,
			(unsigned long long)cp_nodes);
out:
	if (err)
		fprintf(stderr, PROG ": %s: while %s %s\n", strerror(-err), doing, argv[first]);
out_quiet:
	free(meta.a);
	free(sit.a);
	free(nat.a);
	free(f.nodes.a);
	free(again.a);
	free(f.dentry.a);
	free(f.pend);
	free(f.buf);
	free(f.nat_used);
	free(f.seen);
	free(f.dir);
	for (unsigned i = 0; i < f.ndevs; i++)
		if (f.fd[i] >= 0)
			close(f.fd[i]);
	if (f.vol)
		zf2fs_vol_close(f.vol);
	return err ? 1 : 0;
}
