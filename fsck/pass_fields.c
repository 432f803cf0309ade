// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_fields.c - pass 4: inode fields the kernel reads at iget that no file type or
 * block map decides: the extra attribute flag and its size, the inline data-exists bit,
 * i_flags the volume's features rule out, a regular file's i_gc_failures.
 *
 * Called by check_inode (pass_tree.c) on the inode as read, or on its copy with the
 * repairs made so far; a repair changes both the queued inode and that copy, which the
 * rest of the check reads.  Builds nothing for later phases.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/volume.h"


bool inode_xattr_size_ok(const struct fsck_ctx *ctx, const struct zf2fs_inode *in)
{
	uint32_t words = (uint32_t)zf2fs_get(in->i_inline_xattr_size);

	return !(ctx->vi->features & ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR) ||
	       !(in->i_inline & ZF2FS_EXTRA_ATTR) || !(in->i_inline & ZF2FS_INLINE_XATTR) ||
	       (words >= ZF2FS_MIN_INLINE_XATTR_WORDS && words <= ZF2FS_MAX_INLINE_XATTR_WORDS);
}

/*
 * The extra attribute size other inodes have, for a root whose own is damaged: every
 * inode one kernel (or one mkfs) makes gets the same size, so the inodes after the root,
 * sampled in nid order, are its witnesses; the size most of them share wins.  0 when no
 * inode with a usable size is found among the first nids.
 */
uint16_t peer_extra_isize(struct fsck_ctx *ctx)
{
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE);
	uint16_t seen[16];
	unsigned counts[16] = { 0 }, nseen = 0, samples = 0, best = 0;
	uint32_t limit = ctx->vi->max_nid < 4096 ? ctx->vi->max_nid : 4096;

	if (!n)
		return 0;
	for (uint32_t nid = ZF2FS_ROOT_INO + 1; nid < limit && samples < 16; nid++) {
		struct zf2fs_inode_geom g;
		uint16_t v;
		unsigned k;

		if (zf2fs_vol_read_node(ctx->vol, nid, n, NULL, NULL, 0) ||
		    zf2fs_get(n->footer.ino) != nid || !(n->i.i_inline & ZF2FS_EXTRA_ATTR) ||
		    zf2fs_inode_geometry(&n->i, ctx->vi->features, &g) || !inode_xattr_size_ok(ctx, &n->i))
			continue;
		v = (uint16_t)zf2fs_get(n->i.i_extra_isize);
		for (k = 0; k < nseen && seen[k] != v; k++)
			;
		if (k == nseen && nseen < 16)
			seen[nseen++] = v;
		if (k < nseen)
			counts[k]++;
		samples++;
	}
	free(n);
	for (unsigned k = 1; k < nseen; k++)
		if (counts[k] > counts[best])
			best = k;
	return nseen ? seen[best] : 0;
}

/*
 * For a fix of inode @ino found on *@node: returns the inode queued for rewriting, and
 * makes *@copy (allocated the first time) a copy of *@node that the rest of the check
 * reads, *@node pointing at it; the caller changes both.  NULL when out of memory.
 */
struct zf2fs_node *inode_fix_copy(struct fsck_ctx *ctx, uint32_t ino,
				  const struct zf2fs_node **node, struct zf2fs_node **copy)
{
	struct zf2fs_node *n = repair_node(ctx, ino);

	if (!*copy)
		*copy = malloc(ZF2FS_BLKSIZE);
	if (!n || !*copy)
		return NULL;
	if (*node != *copy)
		memcpy(*copy, *node, ZF2FS_BLKSIZE);
	*node = *copy;
	return n;
}

/* Before the inline flags are weighed (they depend on where i_addr starts). */
int check_extra_attr_flag(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node **nodep,
			  struct zf2fs_node **copyp)
{
	const struct zf2fs_node *node = *nodep;
	struct zf2fs_node *copy = *copyp, *n;
	int err = 0;

	/* the extra attribute flag lost: with the feature, the kernel gives every inode it
	 * makes extra attributes; the words where they begin still hold the extra size the
	 * other inodes have, or the one the kernel gives every inode it makes (the root
	 * comes from mkfs, whose size may be smaller).  Read without the flag, those words
	 * would be taken for block 0's address. */
	if (!(node->i.i_inline & ZF2FS_EXTRA_ATTR) && (ctx->vi->features & ZF2FS_FEAT_EXTRA_ATTR) &&
	    zf2fs_get(node->i.i_extra_isize) &&
	    (zf2fs_get(node->i.i_extra_isize) == (ctx->ref_extra_isize ? ctx->ref_extra_isize :
						  ino == ZF2FS_ROOT_INO ? peer_extra_isize(ctx) : 0) ||
	     (ino != ZF2FS_ROOT_INO && zf2fs_get(node->i.i_extra_isize) == ZF2FS_EXTRA_ISIZE_MAX))) {
		struct zf2fs_node *t = malloc(ZF2FS_BLKSIZE);
		struct zf2fs_inode_geom g;

		if (!t) {
			err = -ENOMEM;
			goto out;
		}
		memcpy(t, node, ZF2FS_BLKSIZE);
		t->i.i_inline |= ZF2FS_EXTRA_ATTR;
		/* (a bad inline xattr size is the next check's) */
		if (!zf2fs_inode_geometry(&t->i, ctx->vi->features, &g) &&
		    fix_problem(ctx, PR_4_EXTRA_ATTR_FLAG_LOST, &(struct problem_ctx){
				.ino = ino, .num = zf2fs_get(node->i.i_extra_isize),
				.num2 = zf2fs_get(node->i.i_inline_xattr_size) }) &&
		    (n = repair_node(ctx, ino))) {
			n->i.i_inline |= ZF2FS_EXTRA_ATTR;
			free(copy);
			copy = t;
			node = copy;
			t = NULL;
		}
		free(t);
	}
out:
	*nodep = node;
	*copyp = copy;
	return err;
}

/*
 * A compressed file's flag and cluster size, against its markers.  Lost, the flag leaves
 * the kernel reading a cluster's compressed bytes as the file's data, and a changed
 * cluster size puts markers inside clusters, which the kernel takes for block addresses:
 * where the extra attributes still hold a known algorithm and the markers sit at the
 * starts of clusters of one size, the flag comes back, or the size the markers tell.
 */
static int check_compression(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node **nodep,
			     struct zf2fs_node **copyp)
{
	const struct zf2fs_inode *in = &(*nodep)->i;
	uint32_t flags = (uint32_t)zf2fs_get(in->i_flags), markers, log;
	struct problem_ctx p = { .ino = ino };
	struct zf2fs_node *n;

	if (!(ctx->vi->features & ZF2FS_FEAT_COMPRESSION) ||
	    zf2fs_inode_type(in) != ZF2FS_S_IFREG ||
	    (in->i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY)) ||
	    !(in->i_inline & ZF2FS_EXTRA_ATTR) ||
	    zf2fs_get(in->i_extra_isize) < ZF2FS_EXTRA_ISIZE_MAX || in->i_compress_algorithm > 3)
		return 0;
	zf2fs_inode_cluster_markers(in, ctx->vi->features, &markers, &log);
	if (!markers || log < 2)
		return 0;
	if (!(flags & ZF2FS_COMPR_FL) && in->i_log_cluster_size >= 2 &&
	    in->i_log_cluster_size <= log) {
		p.num = markers;
		p.num2 = 1u << log;
		if (!fix_problem(ctx, PR_4_COMPR_FLAG_LOST, &p))
			return 0;
		n = inode_fix_copy(ctx, ino, nodep, copyp);
		if (!n)
			return -ENOMEM;
		zf2fs_set(n->i.i_flags, flags | ZF2FS_COMPR_FL);
		zf2fs_set((*copyp)->i.i_flags, flags | ZF2FS_COMPR_FL);
	} else if ((flags & ZF2FS_COMPR_FL) && (in->i_log_cluster_size > log ||
						 in->i_log_cluster_size < 2)) {
		p.num = in->i_log_cluster_size;
		p.num2 = log;
		if (!fix_problem(ctx, PR_4_COMPR_CLUSTER_BAD, &p))
			return 0;
		n = inode_fix_copy(ctx, ino, nodep, copyp);
		if (!n)
			return -ENOMEM;
		n->i.i_log_cluster_size = (uint8_t)log;
		(*copyp)->i.i_log_cluster_size = (uint8_t)log;
	}
	return 0;
}

/* After the file type and the inline flags are settled. */
int check_inode_fields(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node **nodep,
		       struct zf2fs_node **copyp)
{
	const struct zf2fs_node *node = *nodep;
	struct zf2fs_node *copy = *copyp, *n;
	int err = 0;

	/* inline data the flag says is not there: the kernel drops it when it converts the
	 * file to blocks (a write past the inline area) */
	if ((node->i.i_inline & ZF2FS_INLINE_DATA) && !(node->i.i_inline & ZF2FS_DATA_EXIST) &&
	    zf2fs_get(node->i.i_size)) {
		struct zf2fs_inode_geom g;
		const uint8_t *a = (const uint8_t *)node->i.i_addr;
		bool any = false;

		if (!zf2fs_inode_geometry(&node->i, ctx->vi->features, &g))
			for (uint32_t b = 4 * (g.extra_words + 1); b < 4 * (g.extra_words + 1) +
			     g.inline_bytes && !any; b++)
				any = a[b] != 0;
		if (any && fix_problem(ctx, PR_4_INLINE_DATA_EXIST, &(struct problem_ctx){
				.ino = ino, .num = zf2fs_get(node->i.i_size) })) {
			n = inode_fix_copy(ctx, ino, &node, &copy);
			if (!n) {
				err = -ENOMEM;
				goto out;
			}
			n->i.i_inline |= ZF2FS_DATA_EXIST;
			copy->i.i_inline |= ZF2FS_DATA_EXIST;
		}
	}
	/* flags Linux refuses the inode for, or never sets on this volume: cleared before the
	 * geometry (the compression flag changes it) is worked out */
	if (zf2fs_inode_flags_bad(&node->i, ctx->vi->features)) {
		uint32_t flags = (uint32_t)zf2fs_get(node->i.i_flags);
		uint32_t bad = zf2fs_inode_flags_bad(&node->i, ctx->vi->features);
		struct problem_ctx p = { .ino = ino, .num = flags, .num2 = bad };

		if (fix_problem(ctx, PR_4_INODE_FLAGS_BAD, &p)) {
			n = inode_fix_copy(ctx, ino, &node, &copy);
			if (!n) {
				err = -ENOMEM;
				goto out;
			}
			zf2fs_set(n->i.i_flags, flags & ~bad);
			zf2fs_set(copy->i.i_flags, flags & ~bad);
		}
	}
	/* the inline xattr flag lost: the kernel reads the inline xattr area only with it,
	 * so every xattr there (an encryption context, a verity location, ACLs) would be
	 * gone.  The area still begins with the xattr list's magic, which only a list the
	 * kernel wrote puts there. */
	if (!(node->i.i_inline & ZF2FS_INLINE_XATTR) && (node->i.i_inline & ZF2FS_EXTRA_ATTR) &&
	    (ctx->vi->features & ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR) &&
	    !(node->i.i_inline & ZF2FS_INLINE_DATA) && inode_xattr_size_ok(ctx, &node->i)) {
		struct zf2fs_inode_geom g;
		uint32_t xs = (uint32_t)zf2fs_get(node->i.i_inline_xattr_size);

		if (xs && !zf2fs_inode_geometry(&node->i, ctx->vi->features, &g) &&
		    zf2fs_get_le32p((const uint8_t *)node->i.i_addr +
				    4 * (ZF2FS_ADDRS_PER_INODE - g.xattr_words)) == ZF2FS_XATTR_MAGIC &&
		    fix_problem(ctx, PR_4_INLINE_XATTR_FLAG_LOST, &(struct problem_ctx){
				.ino = ino, .num = xs })) {
			n = inode_fix_copy(ctx, ino, &node, &copy);
			if (!n) {
				err = -ENOMEM;
				goto out;
			}
			n->i.i_inline |= ZF2FS_INLINE_XATTR;
			copy->i.i_inline |= ZF2FS_INLINE_XATTR;
		}
	}
	/* an inline xattr size the kernel accepts, but whose area does not begin with the
	 * xattr list the kernel wrote, while the default size's area does: the size changed
	 * under the list (read at the wrong place, every xattr would be lost) */
	if ((node->i.i_inline & ZF2FS_INLINE_XATTR) && (node->i.i_inline & ZF2FS_EXTRA_ATTR) &&
	    (ctx->vi->features & ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR) &&
	    zf2fs_get(node->i.i_inline_xattr_size) != ZF2FS_INLINE_XATTR_ADDRS &&
	    inode_xattr_size_ok(ctx, &node->i)) {
		const uint8_t *a = (const uint8_t *)node->i.i_addr;
		uint32_t xs = (uint32_t)zf2fs_get(node->i.i_inline_xattr_size);
		struct zf2fs_inode_geom g;

		if (!zf2fs_inode_geometry(&node->i, ctx->vi->features, &g) &&
		    zf2fs_get_le32p(a + 4 * (ZF2FS_ADDRS_PER_INODE - xs)) != ZF2FS_XATTR_MAGIC &&
		    zf2fs_get_le32p(a + 4 * (ZF2FS_ADDRS_PER_INODE - ZF2FS_INLINE_XATTR_ADDRS)) ==
		    ZF2FS_XATTR_MAGIC &&
		    fix_problem(ctx, PR_4_INLINE_XATTR_SIZE_MOVED, &(struct problem_ctx){
				.ino = ino, .num = xs, .num2 = ZF2FS_INLINE_XATTR_ADDRS })) {
			n = inode_fix_copy(ctx, ino, &node, &copy);
			if (!n) {
				err = -ENOMEM;
				goto out;
			}
			zf2fs_set(n->i.i_inline_xattr_size, ZF2FS_INLINE_XATTR_ADDRS);
			zf2fs_set(copy->i.i_inline_xattr_size, ZF2FS_INLINE_XATTR_ADDRS);
		}
	}
	err = check_compression(ctx, ino, &node, &copy);
	if (err)
		goto out;
	/* a regular file keeps its count of failed moves of a pinned file where a directory
	 * keeps its depth; Linux only counts up and resets it to 0 (at each pin and unpin),
	 * and uses it only to stop pinning a file GC keeps failing on.  Zero loses nothing,
	 * and f2fs-tools' fsck resets any other value, so both agree on the result. */
	if (zf2fs_inode_type(&node->i) == ZF2FS_S_IFREG && zf2fs_get(node->i.i_current_depth)) {
		struct problem_ctx p = { .ino = ino, .num = zf2fs_get(node->i.i_current_depth) };

		if (fix_problem(ctx, PR_4_GC_FAILURES_SET, &p)) {
			n = repair_node(ctx, ino);
			if (!n) {
				err = -ENOMEM;
				goto out;
			}
			zf2fs_set(n->i.i_current_depth, 0);
		}
	}
out:
	*nodep = node;
	*copyp = copy;
	return err;
}
