// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * file_map.c - fsck.f2fs -M: where every regular file's blocks lie, in f2fs-tools' "file
 * map" format.  Android's image script (mkf2fsuserimg.sh -B) redirects this output into the
 * block map its release tools read, so stdout carries the map and nothing else, byte for
 * byte as f2fs-tools writes it, odd parts included.  Nothing is checked or written.
 *
 * The tree is walked as f2fs-tools' fsck walks it: depth first from the root, each
 * directory's dentry blocks in file order (or its inline dentries), each block's entries in
 * slot order, a subdirectory walked when its entry is met.  Each entry of a regular file
 * (every name of a hard-linked one) gives:
 *
 *   PATH BLOCKS\n     BLOCKS: for each block slot of the file, in file order, whose byte
 *                     offset is not beyond i_size, runs of consecutive addresses as " A" or
 *                     " A-B", and " 0" for each slot holding no written block (a hole, a
 *                     reserved block, a compressed cluster's marker).  A slot AT i_size
 *                     counts, so a file of k whole blocks ends in " 0" (unless that slot
 *                     is in a node the file does not have: such slots print nothing) and
 *                     an empty one is " 0".
 *                     For a compressed file the limit is i_size rounded up to a multiple
 *                     of its cluster's block count, counted in bytes, as f2fs-tools does.
 *   PATH ESC[2K CR    (no newline) for a file whose blocks are not listed: inline data, an
 *                     encrypted file, an inode without a name of its own or not a regular
 *                     file.  On a terminal the line is erased; in a file it stays.
 *
 * PATH is '/' and the entry's name (an encrypted directory's names in f2fs-tools' base64,
 * alphabet A-Z a-z 0-9 + ,), behind the directories above it, each named by the i_name of
 * its inode and cut at a NUL.  f2fs-tools keeps those names in a list whose head moves to
 * the parent's entry each time a dentry block is done, so once a block of a directory at
 * depth k (the root's blocks are at depth 1) has been done, the paths printed name only
 * the directories from depth k - 1 down, until a block at a shallower depth is done: the
 * files of /a/b met after the walk of /a/b/c print as /b/FILE.  Paths are reproduced
 * with that loss, since the maps built from them are f2fs-tools' (fmap.head below).
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/file.h"

/* i_flags bit of a file that maps a whole device through its extent (f2fs-tools'
 * development branch, mkfs.f2fs -c DEV@ALIAS): no node tree, i_ext gives its blocks. */
#define DEVICE_ALIAS_FL 0x80000000u
/* Directories nested deeper are not walked: the walk recurses, and no image a tool builds
 * nests so deep. */
#define MAX_DEPTH 1024

struct fmap {
	struct zf2fs_vol *vol;
	const struct zf2fs_vol_info *vi;
	const struct fsck_ctx *ctx;
	FILE *out;
	uint8_t *seen;              /* directories walked: one bit per nid */
	uint8_t (*names)[ZF2FS_NAME_LEN + 1];   /* i_name of the directory at each depth */
	uint32_t cap;
	uint32_t head;              /* depth of the first directory a path names */
	bool damaged, too_deep;
	int err;                    /* an operational error (reads, memory) */
	/* the blocks of the file being printed */
	uint64_t max_off;           /* slots whose byte offset is beyond are not printed */
	uint32_t run_blk, run_len;  /* addresses pending as one run */
};

/* ---- one file's blocks ---------------------------------------------------------------- */
static void run_flush(struct fmap *m)
{
	/* f2fs-tools prints the addresses as int */
	if (m->run_len == 1)
		fprintf(m->out, " %d", (int32_t)m->run_blk);
	else if (m->run_len)
		fprintf(m->out, " %d-%d", (int32_t)m->run_blk,
			(int32_t)(m->run_blk + m->run_len - 1));
	m->run_len = 0;
}

/* File block @fofs at @addr; false once past the offsets printed (all later ones are). */
static bool slot(struct fmap *m, uint64_t fofs, uint32_t addr)
{
	if (fofs > m->max_off / m->ctx->g->blocksize)
		return false;
	if (addr == ZF2FS_NULL_ADDR || addr == ZF2FS_NEW_ADDR || addr == ZF2FS_COMPRESS_ADDR) {
		run_flush(m);
		fputs(" 0", m->out);
	} else if (m->run_len && m->run_blk + m->run_len == addr) {
		m->run_len++;
	} else {
		run_flush(m);
		m->run_blk = addr;
		m->run_len = 1;
	}
	return true;
}

struct block_walk {
	struct fmap *m;
	const struct zf2fs_inode_geom *g;
};

#define STOP 1   /* past the printed offsets: the rest of the tree is not read */

static bool direct_node(uint32_t ofs, uint32_t per)
{
	const uint32_t ind2 = ZF2FS_OFS_IND1 + 1 + per, dind = ZF2FS_OFS_IND1 + 2 + 2 * per;

	if (ofs == ZF2FS_OFS_IND1 || ofs == ind2 || ofs == dind)
		return false;
	/* under the double-indirect node, each indirect node precedes its direct ones */
	return ofs < dind || (ofs - dind - 1) % (per + 1) != 0;
}

static int file_node(void *arg, uint32_t nid, uint32_t blkaddr, const struct zf2fs_node *n,
		     uint32_t ofs, uint32_t parent_nid, uint32_t pslot)
{
	struct block_walk *w = arg;
	uint64_t base;

	(void)nid, (void)blkaddr, (void)parent_nid, (void)pslot;
	if (!direct_node(ofs, w->m->ctx->g->nids_per_block))
		return 0;
	base = zf2fs_node_fofs2(w->m->ctx->g, w->g, ofs, 0);
	for (uint32_t i = 0; i < w->g->addrs_per_block; i++)
		if (!slot(w->m, base + i, (uint32_t)zf2fs_get(zf2fs_node_words(n)[i])))
			return STOP;
	return ZF2FS_WALK_SKIP;   /* its addresses are printed: the walk need not give them */
}

/* A node of the tree that is not what its parent says (both walks' arguments start with
 * the fmap).  f2fs-tools would print what the block holds; its slots are left out here. */
static int tree_bad(void *arg, uint32_t nid, uint32_t parent_nid, uint32_t pslot,
		    uint32_t ofs, const char *why)
{
	struct fmap *m = *(struct fmap **)arg;

	(void)nid, (void)parent_nid, (void)pslot, (void)ofs, (void)why;
	m->damaged = true;
	return 0;
}

/* The blocks of regular file @n: the rest of its line. */
static void print_blocks(struct fmap *m, const struct zf2fs_node *n)
{
	const struct zf2fs_inode *in = &n->i;
	uint32_t flags = (uint32_t)zf2fs_get(in->i_flags);
	const struct zf2fs_walk_ops ops = { .node = file_node, .bad = tree_bad };
	struct zf2fs_inode_geom g;
	struct block_walk w = { m, &g };
	int r;

	m->max_off = zf2fs_get(in->i_size);
	if ((flags & ZF2FS_COMPR_FL) && in->i_log_cluster_size < 32) {
		uint64_t c = 1ull << in->i_log_cluster_size;

		m->max_off = (m->max_off + c - 1) / c * c;
	}
	m->run_len = 0;
	if (flags & DEVICE_ALIAS_FL) {
		uint32_t blk = (uint32_t)zf2fs_get(in->i_ext.blk);
		uint32_t len = (uint32_t)zf2fs_get(in->i_ext.len);

		for (uint32_t i = 0; i < len && slot(m, i, blk + i); i++)
			;
	} else if (inode_geom(m->ctx, in, &g)) {
		m->damaged = true;
	} else {
		bool more = true;

		for (uint32_t i = 0; i < g.addrs && more; i++)
			more = slot(m, i, (uint32_t)zf2fs_get(zf2fs_inode_addrs(n)[g.extra_words + i]));
		r = more ? zf2fs_file_walk(m->vol, n, &ops, &w) : 0;
		if (r < 0 && r != -ZF2FS_EFSCORRUPTED)
			m->err = r;
		else if (r < 0)
			m->damaged = true;
	}
	run_flush(m);
	fputc('\n', m->out);
}

/* ---- paths ---------------------------------------------------------------------------- */
/* f2fs-tools' base64 of an encrypted name: six bits at a time from the low end, the last
 * partial group as it stands, no padding. */
static void put_base64(FILE *out, const uint8_t *s, uint32_t len)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+,";
	uint32_t acc = 0, bits = 0;

	for (uint32_t i = 0; i < len; i++) {
		acc |= (uint32_t)s[i] << bits;
		for (bits += 8; bits >= 6; bits -= 6, acc >>= 6)
			fputc(digits[acc & 63], out);
	}
	if (bits)
		fputc(digits[acc & 63], out);
}

/* A name as printf("%s") prints it: up to its first NUL. */
static void put_name(FILE *out, const uint8_t *s, uint32_t len)
{
	fwrite(s, 1, strnlen((const char *)s, len), out);
}

static void print_path(struct fmap *m, uint32_t depth, const uint8_t *name, uint32_t len,
		       bool enc)
{
	for (uint32_t d = m->head > 2 ? m->head : 2; d <= depth; d++) {
		fputc('/', m->out);
		put_name(m->out, m->names[d], ZF2FS_NAME_LEN);
	}
	fputc('/', m->out);
	if (enc)
		put_base64(m->out, name, len);
	else
		put_name(m->out, name, len);
}

/* ---- the tree ------------------------------------------------------------------------- */
static void walk_dir(struct fmap *m, const struct zf2fs_node *dir, uint32_t depth);

/* Entry of inode @ino and type @type, named @name, in a dentry block at @depth. */
static void entry(struct fmap *m, uint32_t depth, uint32_t ino, uint8_t type,
		  const uint8_t *name, uint32_t len, bool enc)
{
	struct zf2fs_node *n;
	char why[160];
	int err;

	if (type != ZF2FS_FT_REG_FILE && type != ZF2FS_FT_DIR)
		return;
	if (type == ZF2FS_FT_DIR && (ino >= m->vi->max_nid || zf2fs_lbit_test(m->seen, ino)))
		return;   /* f2fs-tools walks a directory once */
	n = malloc(ZF2FS_BLKSIZE_MAX);
	if (!n) {
		m->err = -ENOMEM;
		return;
	}
	err = zf2fs_inode_read(m->vol, ino, n, NULL, why, sizeof(why));
	if (err && err != -ZF2FS_EFSCORRUPTED && err != -ENOENT)
		m->err = err;
	else if (err)
		m->damaged = true;
	if (type == ZF2FS_FT_REG_FILE) {
		const struct zf2fs_inode *in = &n->i;
		uint32_t mode = zf2fs_inode_type(in);
		uint32_t namelen = (uint32_t)zf2fs_get(in->i_namelen);

		print_path(m, depth, name, len, enc);
		/* an inode that cannot be read: f2fs-tools ends the path with nothing */
		if (err)
			;
		else if ((in->i_advise & ZF2FS_ADVISE_ENCRYPT) ||
			 (mode != ZF2FS_S_IFREG && mode != ZF2FS_S_IFLNK) || !namelen ||
			 namelen > ZF2FS_NAME_LEN || (in->i_inline & ZF2FS_INLINE_DATA))
			fputs("\33[2K\r", m->out);
		else
			print_blocks(m, n);
	} else if (!err && zf2fs_inode_type(&n->i) == ZF2FS_S_IFDIR) {
		zf2fs_lbit_set(m->seen, ino);
		walk_dir(m, n, depth + 1);
	}
	free(n);
}

/* The entries of one dentry block (or inline area) of a directory at @depth, skipped where
 * f2fs-tools' fsck skips them. */
static void dentry_area(struct fmap *m, const struct zf2fs_dentry_view *v, uint32_t depth,
			bool enc)
{
	for (uint32_t i = 0; i < v->nr && !m->err;) {
		const struct zf2fs_dir_entry *de = &v->dentry[i];
		uint32_t len = (uint32_t)zf2fs_get(de->name_len);
		uint32_t slots = zf2fs_dentry_slots(len);
		const uint8_t *name = v->filename[i];

		if (!zf2fs_dentry_slot_used(v, i) || de->file_type == ZF2FS_FT_UNKNOWN ||
		    !len || len > ZF2FS_NAME_LEN || i + slots > v->nr ||
		    (de->file_type == ZF2FS_FT_DIR &&
		     ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.')))) {
			i++;
			continue;
		}
		entry(m, depth, (uint32_t)zf2fs_get(de->ino), de->file_type, name, len, enc);
		i += slots;
	}
	/* a block done: the paths lose the directories above its parent (see the top) */
	m->head = depth - 1;
}

struct dir_walk {
	struct fmap *m;
	uint32_t depth;
	bool enc;
	uint8_t *blk;
};

static int dir_block(void *arg, uint64_t fofs, uint32_t addr, uint32_t owner, uint32_t ofs)
{
	struct dir_walk *w = arg;
	struct zf2fs_dentry_view v;
	int err;

	(void)fofs, (void)owner, (void)ofs;
	if (addr == ZF2FS_NEW_ADDR || addr == ZF2FS_COMPRESS_ADDR)
		return 0;   /* no dentry block: fsck reads none */
	if (addr < w->m->vi->main_blkaddr || addr >= w->m->vi->main_end) {
		w->m->damaged = true;
		return 0;
	}
	err = zf2fs_vol_read_block(w->m->vol, addr, w->blk);
	if (err)
		return err;
	dview_block(w->m->ctx, w->blk, &v);
	dentry_area(w->m, &v, w->depth, w->enc);
	return w->m->err;
}

/* Walk directory @dir, whose dentry blocks are at @depth. */
static void walk_dir(struct fmap *m, const struct zf2fs_node *dir, uint32_t depth)
{
	const struct zf2fs_walk_ops ops = { .data = dir_block, .bad = tree_bad };
	struct dir_walk w = { m, depth, dir->i.i_advise & ZF2FS_ADVISE_ENCRYPT, NULL };
	struct zf2fs_dentry_view v;
	uint32_t namelen = (uint32_t)zf2fs_get(dir->i.i_namelen);
	int r;

	if (depth > MAX_DEPTH) {
		m->too_deep = true;
		return;
	}
	if (depth >= m->cap) {
		uint32_t cap = m->cap ? 2 * m->cap : 64;
		void *p = realloc(m->names, (size_t)cap * sizeof(*m->names));

		if (!p) {
			m->err = -ENOMEM;
			return;
		}
		m->names = p;
		m->cap = cap;
	}
	memset(m->names[depth], 0, sizeof(m->names[depth]));
	memcpy(m->names[depth], dir->i.i_name, namelen < ZF2FS_NAME_LEN ? namelen : ZF2FS_NAME_LEN);
	if (dir->i.i_inline & ZF2FS_INLINE_DENTRY) {
		if (dview_inline(m->ctx, dir, &v))
			m->damaged = true;
		else
			dentry_area(m, &v, depth, w.enc);
		return;
	}
	w.blk = malloc(ZF2FS_BLKSIZE_MAX);
	if (!w.blk) {
		m->err = -ENOMEM;
		return;
	}
	r = zf2fs_file_walk(m->vol, dir, &ops, &w);
	if (r == -ZF2FS_EFSCORRUPTED)
		m->damaged = true;
	else if (r < 0 && !m->err)
		m->err = r;
	free(w.blk);
}

int fsck_file_map(struct fsck_ctx *ctx, FILE *out)
{
	struct fmap m = { .vol = ctx->vol, .vi = ctx->vi, .ctx = ctx, .out = out };
	uint32_t root = (uint32_t)zf2fs_get(ctx->sb->root_ino);
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
	char why[160];
	int err, bits = FSCK_OK;

	m.seen = calloc(ctx->vi->max_nid / 8 + 1, 1);
	if (!n || !m.seen) {
		err = -ENOMEM;
		goto out;
	}
	err = zf2fs_inode_read(ctx->vol, root, n, NULL, why, sizeof(why));
	if (err) {
		fprintf(stderr, "fsck.f2fs: %s: while reading the root directory\n",
			err == -ZF2FS_EFSCORRUPTED ? why : strerror(-err));
		bits = err == -ZF2FS_EFSCORRUPTED ? FSCK_UNCORRECTED : FSCK_ERROR;
		goto out;
	}
	if (root < ctx->vi->max_nid)
		zf2fs_lbit_set(m.seen, root);
	walk_dir(&m, n, 1);
	err = m.err;
out:
	if (fflush(out) || ferror(out)) {
		fprintf(stderr, "fsck.f2fs: %s: while writing the file map\n", strerror(errno));
		bits |= FSCK_ERROR;
	}
	if (err) {
		fprintf(stderr, "fsck.f2fs: %s: while reading the files' blocks\n", strerror(-err));
		bits |= FSCK_ERROR;
	}
	if (m.too_deep)
		fprintf(stderr, "fsck.f2fs: directories nested deeper than %d levels: not listed\n",
			MAX_DEPTH);
	if (m.damaged)
		fprintf(stderr, "fsck.f2fs: some directories or files could not be read: the "
			"map leaves them out (run fsck.f2fs without -M)\n");
	if (m.damaged || m.too_deep)
		bits |= FSCK_UNCORRECTED;
	free(m.names);
	free(m.seen);
	free(n);
	return bits;
}
