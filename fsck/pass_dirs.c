// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_dirs.c - pass 5: the entries of one directory.
 *
 * For every used slot of every dentry block (or of the inline dentry area): the name must
 * fit its slots and hold neither '/' nor NUL (in an encrypted directory, whose names are
 * ciphertext, any bytes: only the length counts, as for the kernel); its hash must be the
 * kernel's hash of the name (in a casefolded directory of a volume with the casefold
 * feature, of its folded form, as lib/format/casefold.c folds it: a build without libunistring
 * says once that it cannot check those; in an encrypted directory, of the stored
 * ciphertext, which is what the kernel hashes there; not checked in encrypted casefolded
 * directories, whose hash is keyed: it needs the key and the plain name); it must
 * sit in the hash bucket its hash selects; it must name an existing
 * inode, with the file type of that inode; a directory may be named once.  "." and ".."
 * must be present, and a directory's i_pino must name its parent.  Children are handed to
 * pass 4 (visit_child), which checks them and queues subdirectories.
 *
 * Two repairs move or add names, and both wait until the whole directory was scanned, so
 * that they see the slots other fixes freed: an entry in the wrong hash bucket moves to
 * where the kernel's lookup looks for it, and a missing "." or ".." is recreated in the
 * slot the kernel keeps for it.  Both only rewrite existing dentry blocks (or the inline
 * area) through the repair transaction; when there is no room, the name stays where it is.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/endian.h"
#include "zf2fs/file.h"
#include "zf2fs/txn.h"
#include "zf2fs/txn_file.h"
#include "zf2fs-internal/commit.h"
#include "zf2fs-internal/format.h"

struct area {
	int64_t bidx;            /* dentry block index; -1: the inline area */
	uint32_t blkaddr, owner, ofs_in_node;
};

/* A name as problem lines show it: its bytes, or in an encrypted directory, where they
 * are ciphertext, "{enc:HEX}" (as dump.f2fs shows such names). */
#define SHOWN_LEN ZF2FS_ENC_NAME_MAX

/* An entry to move to its hash bucket once the directory has been scanned. */
struct move {
	struct area from;
	uint32_t slot, hash;
	char name[SHOWN_LEN];
};

struct dscan {
	struct fsck_ctx *ctx;
	uint32_t ino, depth, dir_level;
	bool check_hash, saw_dot, saw_dotdot;
	bool opaque;             /* encrypted: names are ciphertext, any bytes */
	bool fold;               /* with check_hash: the names hash folded (casefold) */
	uint32_t (*visit)(struct fsck_ctx *, uint32_t, const struct dentry_ref *);
	bool name_hashed;
	uint8_t *blk;
	const struct zf2fs_node *inode;
	struct move *moves;
	size_t nmoves, cap_moves;
	struct dir_blocks *db;   /* its dentry blocks (none for an inline directory) */
};

static bool name_ok(const uint8_t *name, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (name[i] == '/' || name[i] == 0)
			return false;
	return true;
}

/* A writable view of the area being scanned: the copy that repair will write. */
static int writable_area(struct dscan *d, const struct area *a, struct zf2fs_dentry_view *v)
{
	if (a->bidx < 0) {
		struct zf2fs_node *n = repair_node(d->ctx, d->ino);

		if (!n)
			return -ENOMEM;
		return dview_inline(d->ctx, n, v);
	} else {
		void *buf;
		int err = repair_data_block(d->ctx, a->owner, a->ofs_in_node, a->blkaddr, &buf);

		if (err)
			return err;
		dview_block(d->ctx, buf, v);
		return 0;
	}
}

/* A repair that was accepted turned out impossible: count it as left. */
static void fix_failed(struct fsck_ctx *ctx)
{
	ctx->fixed--;
	ctx->unfixed++;
	ctx->exit_bits |= FSCK_UNCORRECTED;
	if (!ctx->fixed)
		ctx->exit_bits &= ~FSCK_NONDESTRUCT;
}

/* A name in a plain line: bytes outside printable ASCII escaped, as problem lines do. */
static void print_name(FILE *out, const uint8_t *name, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (name[i] >= 0x20 && name[i] < 0x7f && name[i] != '"')
			fputc(name[i], out);
		else
			fprintf(out, "\\x%02x", name[i]);
}

struct find_blk {
	uint64_t fofs;
	struct area a;
};

static int find_blk_cb(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
		       uint32_t ofs_in_node)
{
	struct find_blk *f = arg;

	if (fofs < f->fofs)
		return 0;
	if (fofs > f->fofs)
		return 2;   /* the walk goes in file order: a hole */
	f->a = (struct area){ .bidx = (int64_t)fofs, .blkaddr = blkaddr, .owner = owner,
			      .ofs_in_node = ofs_in_node };
	return 1;
}

/* The writable copy of dentry block @fofs; -ENOENT for a hole or an unusable address. */
static int block_view(struct dscan *d, uint64_t fofs, struct zf2fs_dentry_view *v)
{
	struct find_blk f = { .fofs = fofs };
	const struct zf2fs_walk_ops ops = { .data = find_blk_cb };

	if (d->db) {
		/* the list the scan went through: in file order, so the first at or past
		 * @fofs answers */
		size_t i = 0;

		while (i < d->db->n && d->db->e[i].fofs < fofs)
			i++;
		if (i == d->db->n || d->db->e[i].fofs != fofs)
			return -ENOENT;
		f.a = (struct area){ .bidx = (int64_t)fofs, .blkaddr = d->db->e[i].blkaddr,
				     .owner = d->db->e[i].owner, .ofs_in_node = d->db->e[i].ofs };
	} else if (zf2fs_file_walk(d->ctx->vol, d->inode, &ops, &f) != 1) {
		return -ENOENT;
	}
	if (!blk_in_main(d->ctx, f.a.blkaddr))
		return -ENOENT;
	return writable_area(d, &f.a, v);
}

static int queue_move(struct dscan *d, const struct area *a, uint32_t slot, uint32_t hash,
		      const char *name)
{
	struct move *m;

	if (d->nmoves == d->cap_moves) {
		size_t cap = d->cap_moves ? d->cap_moves * 2 : 8;

		m = realloc(d->moves, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		d->moves = m;
		d->cap_moves = cap;
	}
	m = &d->moves[d->nmoves++];
	m->from = *a;
	m->slot = slot;
	m->hash = hash;
	snprintf(m->name, sizeof(m->name), "%s", name);
	return 0;
}

/*
 * Move a misplaced entry where the kernel would add its name today: the kernel's lookup
 * (fs/f2fs/dir.c, find_in_level) searches, at each level below i_current_depth, only the
 * blocks of bucket hash % buckets; adding a name takes the first of those blocks, level
 * by level from level 0, with a free run of slots.  Holes (blocks never written) are
 * skipped: filling one would add a block to the directory, which fsck does not do.  The
 * name is added before the old slots are cleared, and both happen in the same repair
 * transaction, so the name is never lost.
 */
static void run_move(struct dscan *d, const struct move *m)
{
	struct fsck_ctx *ctx = d->ctx;
	uint32_t depth = d->depth < ZF2FS_MAX_DIR_HASH_DEPTH ? d->depth : ZF2FS_MAX_DIR_HASH_DEPTH;
	struct zf2fs_bucket_iter it;
	struct zf2fs_dentry_view src, to;
	uint32_t n;

	if (writable_area(d, &m->from, &src) || !zf2fs_dentry_slot_used(&src, m->slot))
		return;
	n = zf2fs_dentry_entry_slots(&src, m->slot);
	zf2fs_bucket_iter_init(&it, m->hash, d->dir_level, depth, UINT64_MAX);
	while (zf2fs_bucket_iter_next(&it)) {
		if ((int64_t)it.block == m->from.bidx || block_view(d, it.block, &to))
			continue;
		/* slots 0 and 1 of the first block belong to "." and ".." */
		if (zf2fs_dentry_copy(&to, it.block == 0 ? 2 : 0, &src, m->slot, m->hash) < 0)
			continue;
		zf2fs_dentry_del(&src, m->slot, n);
		return;
	}
	/* the move was accepted before its target could be known: it is reported again as
	 * left (its own code, for --json readers), and counted once, as not fixed */
	fix_problem(ctx, PR_5_DENTRY_BUCKET_FULL, &(struct problem_ctx){ .ino = d->ino,
		    .str = m->name, .num = depth ? depth - 1 : 0, .num2 = n });
	ctx->problems--;
	fix_failed(ctx);
}

static int scan_area(struct dscan *d, const struct zf2fs_dentry_view *v, const struct area *a)
{
	struct fsck_ctx *ctx = d->ctx;
	uint32_t level = 0;
	uint64_t bucket = 0;
	bool have_bucket = a->bidx >= 0 &&
			   zf2fs_dir_block_bucket((uint64_t)a->bidx, d->dir_level, &level, &bucket);

	for (uint32_t i = 0; i < v->nr && !ctx->abort;) {
		const struct zf2fs_dir_entry *de = &v->dentry[i];
		uint32_t len = (uint32_t)zf2fs_get(de->name_len);
		uint32_t slots = zf2fs_dentry_slots(len);
		uint32_t child = (uint32_t)zf2fs_get(de->ino), hash = (uint32_t)zf2fs_get(de->hash_code);
		const uint8_t *name = v->filename[i];
		char shown[SHOWN_LEN];
		struct problem_ctx p = { .parent = d->ino, .ino = child, .num = i, .str = shown };
		struct zf2fs_dentry_view w;
		uint32_t verdict;
		bool move = false;

		if (!zf2fs_dentry_slot_used(v, i)) {
			i++;
			continue;
		}
		if (len == 0 || len > ZF2FS_NAME_LEN || i + slots > v->nr) {
			snprintf(shown, sizeof(shown), "length %u", len);
			if (fix_problem(ctx, PR_5_DENTRY_NAME_BAD, &p) && !writable_area(d, a, &w))
				zf2fs_dentry_del(&w, i, 1);
			i++;
			continue;
		}
		memcpy(shown, name, len);
		shown[len] = 0;
		if (d->opaque && !(len == 1 && name[0] == '.') &&
		    !(len == 2 && name[0] == '.' && name[1] == '.'))
			zf2fs_enc_name(name, len, shown);
		if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.')) {
			uint32_t want;

			/* slot 1 of the first area is where the kernel makes ".." (and where its
			 * empty-directory check skips it): a "." there is ".." with its name cut
			 * short, not a second "." */
			if (len == 1 && i == 1 && a->bidx <= 0) {
				struct problem_ctx q = { .ino = d->ino, .str = shown };

				if (fix_problem(ctx, PR_5_DIR_DOTDOT_NAME_BAD, &q) &&
				    !writable_area(d, a, &w)) {
					zf2fs_set(((struct zf2fs_dir_entry *)w.dentry)[i].name_len, 2);
					((uint8_t *)w.filename[i])[1] = '.';
				}
				len = 2;
				memcpy(shown, "..", 3);
			}
			want = len == 1 ? d->ino : dir_parent(ctx, d->ino);

			if (len == 1)
				d->saw_dot = true;
			else
				d->saw_dotdot = true;
			/* the kernel hashes both dots to 0 (and finds ".." by that hash) */
			if (hash != 0) {
				p.num = hash;
				p.num2 = 0;
				if (fix_problem(ctx, PR_5_DENTRY_HASH_BAD, &p) && !writable_area(d, a, &w))
					zf2fs_set(((struct zf2fs_dir_entry *)w.dentry)[i].hash_code, 0);
			}
			if (want && child != want) {
				struct problem_ctx q = { .ino = d->ino, .str = shown, .num = child,
							 .num2 = want };

				if (fix_problem(ctx, PR_5_DIR_DOT_WRONG, &q) && !writable_area(d, a, &w))
					zf2fs_set(((struct zf2fs_dir_entry *)w.dentry)[i].ino, want);
			}
			/* both name a directory: readdir reports the type the entry holds */
			if (de->file_type != ZF2FS_FT_DIR) {
				p.num = de->file_type;
				p.num2 = ZF2FS_FT_DIR;
				if (fix_problem(ctx, PR_5_DENTRY_TYPE_BAD, &p) && !writable_area(d, a, &w))
					((struct zf2fs_dir_entry *)w.dentry)[i].file_type = ZF2FS_FT_DIR;
			}
			i += slots;
			continue;
		}
		if (!d->opaque && !name_ok(name, len)) {
			if (fix_problem(ctx, PR_5_DENTRY_NAME_BAD, &p) && !writable_area(d, a, &w))
				zf2fs_dentry_del(&w, i, slots);
			i += slots;
			continue;
		}
		if (d->check_hash) {
			uint32_t want = zf2fs_dentry_hash(name, len);

			if (d->fold) {
				int e = zf2fs_casefold_hash(name, len, &want);

				if (e)
					return e;
			}
			if (want != hash) {
				p.num = hash;
				p.num2 = want;
				if (fix_problem(ctx, PR_5_DENTRY_HASH_BAD, &p) && !writable_area(d, a, &w))
					zf2fs_set(((struct zf2fs_dir_entry *)w.dentry)[i].hash_code, want);
				hash = want;
			}
			if (have_bucket &&
			    zf2fs_dir_hash_bucket(hash, level, d->dir_level) != bucket) {
				p.num = bucket;
				p.num2 = zf2fs_dir_hash_bucket(hash, level, d->dir_level);
				move = fix_problem(ctx, PR_5_DENTRY_BUCKET_BAD, &p);
			}
		}
		{
			struct dentry_ref ref = { .dir = d->ino, .type = de->file_type, .name = name,
						  .len = len, .name_hashed = d->name_hashed,
						  .dir_encrypted = d->opaque,
						  .hash = (uint32_t)zf2fs_get(de->hash_code) };

			verdict = d->visit(ctx, child, &ref);
		}
		if ((verdict & 0xff) == 1) {
			if (fix_problem(ctx, PR_5_DENTRY_BAD_INO, &p) && !writable_area(d, a, &w)) {
				zf2fs_dentry_del(&w, i, slots);
				move = false;
			}
		} else if ((verdict & 0xff) == 2) {
			p.ino = child;
			if (fix_problem(ctx, PR_5_DIR_MULTI_PARENT, &p) && !writable_area(d, a, &w)) {
				zf2fs_dentry_del(&w, i, slots);
				move = false;
			}
		} else if ((verdict >> 8) != de->file_type) {
			p.num = de->file_type;
			p.num2 = verdict >> 8;
			if (fix_problem(ctx, PR_5_DENTRY_TYPE_BAD, &p) && !writable_area(d, a, &w))
				((struct zf2fs_dir_entry *)w.dentry)[i].file_type = (uint8_t)(verdict >> 8);
		}
		if (move && queue_move(d, a, i, hash, shown))
			return -ENOMEM;
		i += slots;
	}
	return 0;
}

/* Every dentry block in file order (the walk's data callback, from the list): stops at
 * the first unreadable block or nonzero scan, and returns that. */
static int scan_blocks(struct dscan *d)
{
	for (size_t i = 0; i < d->db->n; i++) {
		const struct dir_block *e = &d->db->e[i];
		struct area a = { .bidx = (int64_t)e->fofs, .blkaddr = e->blkaddr, .owner = e->owner,
				  .ofs_in_node = e->ofs };
		struct zf2fs_dentry_view v;
		const void *blk;
		int err;

		blk = dirblocks_get(d->ctx, d->db, i, &err);
		if (err == 1)
			continue;   /* reported by pass 4 */
		if (err)
			return err;
		dview_block(d->ctx, blk, &v);
		dirblocks_children_willneed(d->ctx, d->db, &v, i);
		err = scan_area(d, &v, &a);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Recreate "." (slot 0) or ".." (slot 1) in the first dentry block or the inline area,
 * as the kernel makes a new directory (f2fs_do_make_empty_dir).  Where they sit matters
 * to the kernel: a lookup of ".." only needs the name in a block of hash bucket 0 (its
 * hash is 0), but f2fs_empty_dir and f2fs_empty_inline_dir take slots 0 and 1 for the two
 * dots and look for names from slot 2 on, so a name left in slot 0 or 1 would be ignored
 * by rmdir, which could then remove a directory that is not empty.  A name occupying the
 * slot therefore moves to free slots of the same area or of block 1 (level 0, bucket 0
 * like block 0) first; without room, the dot is not recreated.
 */
static void fix_dot(struct dscan *d, uint32_t slot, uint32_t target)
{
	static const char *const dots[2] = { ".", ".." };
	struct fsck_ctx *ctx = d->ctx;
	struct zf2fs_dentry_view v, other;
	const char *why = NULL;
	bool inl = d->inode->i.i_inline & ZF2FS_INLINE_DENTRY;
	struct area a = { .bidx = -1 };

	if (inl ? writable_area(d, &a, &v) : block_view(d, 0, &v))
		why = "the directory has no first dentry block";
	for (uint32_t i = 0; !why && i <= slot; ) {
		uint32_t n = zf2fs_dentry_entry_slots(&v, i);
		uint32_t len = (uint32_t)zf2fs_get(v.dentry[i].name_len);
		uint32_t hash = (uint32_t)zf2fs_get(v.dentry[i].hash_code);

		if (!zf2fs_dentry_slot_used(&v, i) || i + n <= slot) {
			i += zf2fs_dentry_slot_used(&v, i) ? n : 1;
			continue;
		}
		/* a name covers the dot's slot */
		if ((len == 1 || len == 2) && !memcmp(v.filename[i], "..", len)) {
			why = "the other dot entry is in its slot";
			break;
		}
		/* the entry keeps its hash: the block it is in holds it already */
		if (zf2fs_dentry_copy(&v, 2, &v, i, hash) < 0 &&
		    (inl || block_view(d, 1, &other) || zf2fs_dentry_copy(&other, 0, &v, i, hash) < 0)) {
			why = "a name holds its slot and there is no free slot to move it to";
			break;
		}
		fprintf(ctx->out, "    directory %u: entry \"", d->ino);
		print_name(ctx->out, v.filename[i], len);
		fprintf(ctx->out, "\" moved out of slot %u, which the kernel keeps for \"%s\".\n",
			slot, dots[slot]);
		zf2fs_dentry_del(&v, i, n);
		i += n;
	}
	if (why) {
		fprintf(ctx->out, "    directory %u: \"%s\" not recreated: %s.\n", d->ino, dots[slot],
			why);
		fix_failed(ctx);
		return;
	}
	zf2fs_dentry_put(&v, slot, dots[slot], slot + 1, 0, target, ZF2FS_FT_DIR);
}

/*
 * i_dir_level decides how many buckets each hash level has, so where every name must sit:
 * a changed value puts every name of the directory in a wrong bucket, and moving them all
 * would rewrite the directory for one wrong byte.  Before the scan, the names' blocks and
 * hashes are weighed against every level setting (the larger values all give
 * the buckets of ZF2FS_DIR_LEVEL_SETTINGS - 1):
 * when the recorded one misplaces names and another misplaces none, the setting is what
 * was damaged.  The same look gives the hash levels the blocks occupy, which
 * i_current_depth must cover (the kernel searches only the levels below it, and refuses
 * more than 63).
 */
#define DIR_LEVELS ZF2FS_DIR_LEVEL_SETTINGS
struct level_ev {
	struct fsck_ctx *ctx;
	uint64_t bad[DIR_LEVELS];   /* names misplaced under dir_level i */
	uint64_t last;              /* highest dentry block index with names, + 1 */
};

static void ev_dir_block(struct level_ev *e, uint64_t fofs, const void *blk)
{
	struct zf2fs_dentry_view v;
	bool any = false;

	dview_block(e->ctx, blk, &v);
	for (uint32_t i = 0; i < v.nr; i++) {
		uint32_t len = (uint32_t)zf2fs_get(v.dentry[i].name_len);
		uint32_t hash = (uint32_t)zf2fs_get(v.dentry[i].hash_code);

		if (!zf2fs_dentry_slot_used(&v, i) || len == 0 || len > ZF2FS_NAME_LEN)
			continue;
		any = true;
		if ((len == 1 && v.filename[i][0] == '.') ||
		    (len == 2 && !memcmp(v.filename[i], "..", 2)))
			continue;   /* the dots sit in block 0 whatever the setting */
		for (uint32_t dl = 0; dl < DIR_LEVELS; dl++)
			if (!zf2fs_dir_hash_in_block(hash, fofs, dl))
				e->bad[dl]++;
	}
	if (any && fofs + 1 > e->last)
		e->last = fofs + 1;
}

/* How a directory's stored hashes were made: names whose plain and folded hashes differ,
 * counted by which of the two they hold.  In an encrypted directory the folded hash is
 * keyed (unknown here): there "folded" counts the names whose hash is not the plain one. */
struct fold_ev {
	bool enc;
	uint64_t plain, folded;
};

static int fold_ev_entry(void *arg, const struct zf2fs_dentry_info *de)
{
	struct fold_ev *e = arg;
	uint32_t plain, folded;

	if ((de->name_len == 1 && de->name[0] == '.') ||
	    (de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	plain = zf2fs_dentry_hash(de->name, de->name_len);
	if (e->enc) {
		if (de->hash == plain)
			e->plain++;
		else
			e->folded++;
		return 0;
	}
	if (zf2fs_casefold_hash(de->name, de->name_len, &folded) || plain == folded)
		return 0;
	if (de->hash == plain)
		e->plain++;
	else if (de->hash == folded)
		e->folded++;
	return 0;
}

/*
 * The casefold flag decides how every name of a directory is hashed, so where the kernel
 * looks for it: a flag set or lost by damage leaves every name where the other rule put
 * it, and "fixing" each hash would rewrite the directory for one wrong bit.  When the
 * names that hash differently under the two rules all hold the hash of the rule the flag
 * does not say (at least one such name, none of the other), the flag is what changed.
 * In an encrypted directory a casefolded name's hash is keyed: there, every name holding
 * a hash other than its stored bytes' plain one, or every name holding that one, tells
 * the flag.  Not without the feature, nor, for directories not encrypted, in a build
 * that cannot fold.  Returns 0 or a negative errno.
 */
static int check_casefold_flag(struct fsck_ctx *ctx, uint32_t ino, struct zf2fs_node *inode,
			       struct dir_blocks *db)
{
	uint32_t flags = (uint32_t)zf2fs_get(inode->i.i_flags);
	bool cf = flags & ZF2FS_CASEFOLD_FL;
	struct fold_ev e = { .enc = inode->i.i_advise & ZF2FS_ADVISE_ENCRYPT };
	struct problem_ctx p = { .ino = ino };
	struct zf2fs_node *n;
	int err;

	if (!(ctx->vi->features & ZF2FS_FEAT_CASEFOLD) || ctx->sb->s_encoding != 1 ||
	    (!e.enc && !zf2fs_have_casefold_support()))
		return 0;
	if (inode->i.i_inline & ZF2FS_INLINE_DENTRY) {
		err = zf2fs_dir_iterate(ctx->vol, inode, fold_ev_entry, NULL, &e);
	} else {
		err = 0;
		for (size_t i = 0; i < db->n && !err; i++) {
			struct zf2fs_dentry_view v;
			const void *blk = dirblocks_get(ctx, db, i, &err);

			if (err == 1) {
				err = 0;   /* outside the main area (reserved too): no names */
				continue;
			}
			if (err)
				break;
			dview_block(ctx, blk, &v);
			err = zf2fs_dentry_view_scan(&v, (int64_t)db->e[i].fofs, fold_ev_entry, NULL,
						     &e);
		}
	}
	if (err < 0)
		return 0;   /* unreadable blocks are reported by the scan */
	if (!(cf ? e.plain && !e.folded : e.folded && !e.plain))
		return 0;
	p.num = cf ? e.plain : e.folded;
	if (!fix_problem(ctx, cf ? PR_5_DIR_CASEFOLD_STRAY : PR_5_DIR_CASEFOLD_LOST, &p))
		return 0;
	n = repair_node(ctx, ino);
	if (!n)
		return -ENOMEM;
	flags ^= ZF2FS_CASEFOLD_FL;
	zf2fs_set(n->i.i_flags, flags);
	zf2fs_set(inode->i.i_flags, flags);
	return 0;
}

static int check_dir(struct fsck_ctx *ctx, uint32_t ino, struct zf2fs_node *inode,
		     uint32_t (*visit)(struct fsck_ctx *, uint32_t, const struct dentry_ref *),
		     struct dir_blocks *db)
{
	int cerr = check_casefold_flag(ctx, ino, inode, db);   /* before the flag is read */
	uint32_t flags = (uint32_t)zf2fs_get(inode->i.i_flags);
	/* the kernel keeps "encrypted" in i_advise, not in i_flags */
	bool enc = inode->i.i_advise & ZF2FS_ADVISE_ENCRYPT;
	bool casefolded = flags & ZF2FS_CASEFOLD_FL;
	bool fold = casefolded && !enc;
	/* the kernel folds only with the feature and its one encoding (utf8, 1) */
	bool can_fold = fold && (ctx->vi->features & ZF2FS_FEAT_CASEFOLD) &&
			ctx->sb->s_encoding == 1;
	struct dscan d = {
		.ctx = ctx, .ino = ino, .visit = visit,
		.depth = (uint32_t)zf2fs_get(inode->i.i_current_depth),
		.dir_level = inode->i.i_dir_level,
		/* encrypted: the plain hash of the ciphertext, unless casefolded too (then
		 * a keyed hash of the folded plain name) */
		.check_hash = enc ? !casefolded
				  : !ctx->names_scrambled &&
				    (!fold || (can_fold && zf2fs_have_casefold_support())),
		.fold = fold,
		.opaque = enc,
		.name_hashed = casefolded && enc,
		.inode = inode,
		.db = inode->i.i_inline & ZF2FS_INLINE_DENTRY ? NULL : db,
	};
	struct problem_ctx p = { .ino = ino };
	uint32_t need = 0;   /* no dentry block (an inline directory): any depth will do */
	int err;

	if (cerr)
		return cerr;
	if (can_fold && !d.check_hash && !ctx->names_scrambled && !ctx->casefold_noted) {
		fprintf(ctx->out, "casefolded directories: this build has no libunistring, so the "
			"hashes of their entries are not checked\n");
		ctx->casefold_noted = true;
	}

	if (!(inode->i.i_inline & ZF2FS_INLINE_DENTRY)) {
		struct level_ev e = { .ctx = ctx };
		uint32_t rec = d.dir_level < DIR_LEVELS ? d.dir_level : DIR_LEVELS - 1, best = rec;

		for (size_t i = 0; i < db->n; i++) {
			int rerr;   /* an unreadable block gives no evidence (the scan reports it) */
			const void *blk = dirblocks_get(ctx, db, i, &rerr);

			if (blk)
				ev_dir_block(&e, db->e[i].fofs, blk);
		}
		for (uint32_t dl = 0; dl < DIR_LEVELS && e.bad[rec]; dl++)
			if (!e.bad[dl]) {
				best = dl;
				break;
			}
		if (best != rec) {
			p.num = d.dir_level;
			p.num2 = best;
			if (fix_problem(ctx, PR_5_DIR_LEVEL_BAD, &p)) {
				struct zf2fs_node *n = repair_node(ctx, ino);

				if (!n)
					return -ENOMEM;
				n->i.i_dir_level = (uint8_t)best;
				d.dir_level = best;
			}
		}
		if (e.last)
			need = zf2fs_dir_depth_covering(e.last - 1, d.dir_level);
	}
	/* inline dentries: the kernel sets the depth to 1 when it converts them */
	if (d.depth > ZF2FS_MAX_DIR_HASH_DEPTH || d.depth < need) {
		need = need ? need : 1;
		p.num = d.depth;
		p.num2 = need;
		if (fix_problem(ctx, PR_5_DIR_DEPTH_BAD, &p)) {
			struct zf2fs_node *n = repair_node(ctx, ino);

			if (!n)
				return -ENOMEM;
			zf2fs_set(n->i.i_current_depth, need);
			d.depth = need;
		}
	}
	if (inode->i.i_inline & ZF2FS_INLINE_DENTRY) {
		struct zf2fs_dentry_view v;
		struct area a = { .bidx = -1 };

		if (dview_inline(ctx, inode, &v))
			return 0;   /* reported by pass 4 as bad geometry */
		dirblocks_children_willneed(ctx, db, &v, 0);
		err = scan_area(&d, &v, &a);
	} else {
		err = scan_blocks(&d);
	}
	if (err < 0) {
		free(d.moves);
		return err;
	}
	for (size_t i = 0; i < d.nmoves; i++)
		run_move(&d, &d.moves[i]);
	free(d.moves);
	if (!d.saw_dot) {
		p.str = ".";
		if (fix_problem(ctx, PR_5_DIR_DOT_MISSING, &p))
			fix_dot(&d, 0, ino);
	}
	if (!d.saw_dotdot) {
		uint32_t parent = dir_parent(ctx, ino);

		/* unknown when no directory names this one: i_pino then, until pass 6
		 * reconnects it and points ".." at lost+found */
		if (!parent)
			parent = ino == ZF2FS_ROOT_INO ? ino : (uint32_t)zf2fs_get(inode->i.i_pino);
		p.str = "..";
		if (fix_problem(ctx, PR_5_DIR_DOT_MISSING, &p))
			fix_dot(&d, 1, parent);
	}
	/* the root's i_pino is not used (mkfs.f2fs 1.15 leaves it 0) */
	if (ino != ZF2FS_ROOT_INO && dir_parent(ctx, ino) &&
	    zf2fs_get(inode->i.i_pino) != dir_parent(ctx, ino)) {
		p.num = zf2fs_get(inode->i.i_pino);
		p.parent = dir_parent(ctx, ino);
		if (fix_problem(ctx, PR_5_INODE_PINO_BAD, &p)) {
			struct zf2fs_node *n = repair_node(ctx, ino);

			if (n)
				zf2fs_set(n->i.i_pino, dir_parent(ctx, ino));
		}
	}
	return 0;
}

int pass5_check_dir(struct fsck_ctx *ctx, uint32_t ino, struct zf2fs_node *inode,
		    uint32_t (*visit)(struct fsck_ctx *, uint32_t, const struct dentry_ref *))
{
	struct dir_blocks db = { 0 };
	int err = 0;

	/* a block tree that cannot be walked ends the directory's check, as the first of
	 * the looks (the hash levels') would */
	if (!(inode->i.i_inline & ZF2FS_INLINE_DENTRY))
		err = dirblocks_load(ctx, inode, &db);
	if (!err)
		err = check_dir(ctx, ino, inode, visit, &db);
	dirblocks_free(&db);
	return err;
}
