// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_fields.c - pass 4: inode fields the kernel reads at iget that no file type or
 * block map decides: the extra attribute flag and its size, the inline data-exists bit,
 * i_flags the volume's features rule out, the device-alias flag, a compressed inode's
 * algorithm, level and cluster size (Linux's sanity_check_compress_inode), a regular
 * file's i_gc_failures.
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
#include "zf2fs/compress.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/compress.h"
#include "zf2fs-internal/volume.h"

/* What Linux gives an inode it compresses unless mounted otherwise: lz4, clusters of
 * 2^2 blocks, the algorithm's default level. */
#define COMPR_DEFAULT_ALG ZF2FS_COMPRESS_LZ4
#define COMPR_DEFAULT_LOG 2
#define COMPR_LOG_MIN     2
#define COMPR_LOG_MAX     8
#define COMPR_LEVEL_SHIFT 8       /* i_compress_flag: the level above its flag bits */
#define COMPR_PROBE       4       /* compressed clusters an unknown algorithm is sought in */


bool inode_xattr_size_ok(const struct fsck_ctx *ctx, const struct zf2fs_inode *in)
{
	uint32_t words = (uint32_t)zf2fs_get(in->i_inline_xattr_size);

	return !(ctx->vi->features & ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR) ||
	       !(in->i_inline & ZF2FS_EXTRA_ATTR) || !(in->i_inline & ZF2FS_INLINE_XATTR) ||
	       (words >= ctx->g->inline_xattr_min && words <= ctx->g->inline_xattr_max);
}

/*
 * The extra attribute size other inodes have, for a root whose own is damaged: every
 * inode one kernel (or one mkfs) makes gets the same size, so the inodes after the root,
 * sampled in nid order, are its witnesses; the size most of them share wins.  0 when no
 * inode with a usable size is found among the first nids.
 */
uint16_t peer_extra_isize(struct fsck_ctx *ctx)
{
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
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
		    zf2fs_get(nfoot(ctx, n)->ino) != nid || !(n->i.i_inline & ZF2FS_EXTRA_ATTR) ||
		    inode_geom(ctx, &n->i, &g) || !inode_xattr_size_ok(ctx, &n->i))
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
		*copy = malloc(ZF2FS_BLKSIZE_MAX);
	if (!n || !*copy)
		return NULL;
	if (*node != *copy)
		memcpy(*copy, *node, ctx->g->blocksize);
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
		struct zf2fs_node *t = malloc(ZF2FS_BLKSIZE_MAX);
		struct zf2fs_inode_geom g;

		if (!t) {
			err = -ENOMEM;
			goto out;
		}
		memcpy(t, node, ctx->g->blocksize);
		t->i.i_inline |= ZF2FS_EXTRA_ATTR;
		/* (a bad inline xattr size is the next check's) */
		if (!inode_geom(ctx, &t->i, &g) &&
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
	    zf2fs_get(in->i_extra_isize) < ZF2FS_EXTRA_ISIZE_MAX)
		return 0;
	zf2fs_inode_cluster_markers2(ctx->g, in, ctx->vi->features, &markers, &log);
	if (!markers || log < 2)
		return 0;
	/* (the flag comes back only with an algorithm the kernel knows; with the flag set,
	 * an unknown one is check_compress_fields' to replace) */
	if (!(flags & ZF2FS_COMPR_FL) && in->i_log_cluster_size >= 2 &&
	    in->i_log_cluster_size <= log && zf2fs_compress_name(in->i_compress_algorithm)) {
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

/* The levels Linux accepts for @alg (sanity_check_compress_inode, with every codec
 * built in, as Debian's kernels have them): none for lzo and lzo-rle, lz4's
 * high-compression levels 3 to 12, zstd's up to 22; 0 is each one's default. */
static bool compress_level_ok(uint8_t alg, unsigned level)
{
	switch (alg) {
	case ZF2FS_COMPRESS_LZ4:
		return !level || (level >= 3 && level <= 12);
	case ZF2FS_COMPRESS_ZSTD:
		return level <= 22;
	default:
		return !level;
	}
}

/* The first compressed clusters of a file: the addresses of their data blocks. */
struct compr_probe {
	uint32_t log, n;
	uint64_t cluster[COMPR_PROBE];
	uint32_t blocks[COMPR_PROBE];
	uint32_t addr[COMPR_PROBE][1u << COMPR_LOG_MAX];
	bool open;                    /* the last cluster found is still being collected */
};

#define PROBE_FULL 1

static int probe_data(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner, uint32_t ofs)
{
	struct compr_probe *pr = arg;
	uint64_t c = fofs >> pr->log;
	uint32_t k = (uint32_t)(fofs & ((1u << pr->log) - 1));

	(void)owner;
	(void)ofs;
	if (pr->open && c != pr->cluster[pr->n - 1])
		pr->open = false;
	if (!pr->open && pr->n == COMPR_PROBE)
		return PROBE_FULL;
	if (!k && blkaddr == ZF2FS_COMPRESS_ADDR) {
		pr->cluster[pr->n] = c;
		pr->blocks[pr->n++] = 0;
		pr->open = true;
	} else if (pr->open && k == pr->blocks[pr->n - 1] + 1 && blkaddr != ZF2FS_NEW_ADDR) {
		pr->addr[pr->n - 1][pr->blocks[pr->n - 1]++] = blkaddr;
	}
	return 0;
}

/* Whether every probed cluster decompresses with @alg. */
static bool probe_decodes(struct fsck_ctx *ctx, const struct compr_probe *pr, uint8_t alg,
			  uint8_t *in, uint8_t *out)
{
	for (uint32_t c = 0; c < pr->n; c++) {
		uint32_t nb = pr->blocks[c];

		if (!nb)
			return false;
		for (uint32_t b = 0; b < nb; b++)
			if (!blk_in_main(ctx, pr->addr[c][b]) ||
			    zf2fs_vol_read_block(ctx->vol, pr->addr[c][b],
						 in + (size_t)b * ctx->g->blocksize))
				return false;
		if (zf2fs_decompress_cluster2(ctx->g->log_blocksize, alg, (uint8_t)pr->log, in, nb, out))
			return false;
	}
	return true;
}

/*
 * The algorithm the compressed clusters of regular file @node decompress with, tried on
 * its first few: 1 with *@ret_alg set, 0 when it has no compressed cluster, -ENOENT when
 * no algorithm this build has decompresses them, -ENOMEM.  lzo and lzo-rle streams read
 * alike; Linux's lzo-rle ones begin with the bytes 17, 1, which an lzo stream never does.
 */
static int compress_algorithm_found(struct fsck_ctx *ctx, const struct zf2fs_node *node,
				    uint8_t *ret_alg)
{
	static const uint8_t order[] = { ZF2FS_COMPRESS_LZ4, ZF2FS_COMPRESS_ZSTD,
					 ZF2FS_COMPRESS_LZO };
	const struct zf2fs_walk_ops ops = { .data = probe_data };
	struct compr_probe *pr = calloc(1, sizeof(*pr));
	uint8_t *in = NULL, *out = NULL;
	int r = -ENOMEM;

	if (!pr)
		return -ENOMEM;
	pr->log = node->i.i_log_cluster_size;
	in = malloc((size_t)ctx->g->blocksize << pr->log);
	out = malloc((size_t)ctx->g->blocksize << pr->log);
	if (!in || !out)
		goto out;
	r = zf2fs_file_walk(ctx->vol, node, &ops, pr);
	if (r < 0)
		goto out;
	r = 0;
	if (!pr->n)
		goto out;
	r = -ENOENT;
	for (size_t a = 0; a < sizeof(order); a++) {
		if (!probe_decodes(ctx, pr, order[a], in, out))
			continue;
		*ret_alg = order[a];
		if (order[a] == ZF2FS_COMPRESS_LZO && in[ZF2FS_COMPRESS_HEADER] == 17 &&
		    in[ZF2FS_COMPRESS_HEADER + 1] == 1)
			*ret_alg = ZF2FS_COMPRESS_LZORLE;
		r = 1;
		break;
	}
out:
	free(pr);
	free(in);
	free(out);
	return r;
}

/*
 * The fields Linux checks on an inode flagged compressed whose extra attributes reach
 * i_compress_flag, and refuses the inode for (sanity_check_compress_inode): a known
 * algorithm, a cluster size of 2^2 to 2^8 blocks, a level the algorithm has, and
 * i_compr_blocks within i_blocks.  A regular file's cluster size and i_compr_blocks are
 * settled by its markers (check_compression, and the count after the walk); here the
 * algorithm its clusters decompress with, the default level, and for any other inode
 * (a directory passes the fields on to the files made in it) Linux's defaults.
 */
static int check_compress_fields(struct fsck_ctx *ctx, uint32_t ino,
				 const struct zf2fs_node **nodep, struct zf2fs_node **copyp)
{
	const struct zf2fs_inode *in = &(*nodep)->i;
	bool regular = zf2fs_inode_type(in) == ZF2FS_S_IFREG;
	struct problem_ctx p = { .ino = ino };
	struct zf2fs_node *n;
	char why[200];

	if (!(ctx->vi->features & ZF2FS_FEAT_COMPRESSION) ||
	    !(zf2fs_get(in->i_flags) & ZF2FS_COMPR_FL) || !(in->i_inline & ZF2FS_EXTRA_ATTR) ||
	    zf2fs_get(in->i_extra_isize) < ZF2FS_EXTRA_ISIZE_MAX)
		return 0;
	if (!zf2fs_compress_name(in->i_compress_algorithm)) {
		uint8_t alg = COMPR_DEFAULT_ALG;
		int r = 0;

		snprintf(why, sizeof(why), "it holds no compressed cluster: %s (%u), Linux's "
			 "default, which only decides how new writes compress",
			 zf2fs_compress_name(alg), alg);
		if (!regular)
			snprintf(why, sizeof(why), "it is not a regular file (a directory passes "
				 "the algorithm on to the files made in it): %s (%u), Linux's "
				 "default", zf2fs_compress_name(alg), alg);
		else if (in->i_log_cluster_size >= COMPR_LOG_MIN &&
			 in->i_log_cluster_size <= COMPR_LOG_MAX)
			r = compress_algorithm_found(ctx, *nodep, &alg);
		else
			snprintf(why, sizeof(why), "its cluster size 2^%u is out of range, so its "
				 "clusters are not tried: %s (%u), Linux's default",
				 in->i_log_cluster_size, zf2fs_compress_name(alg), alg);
		if (r == -ENOMEM)
			return r;
		if (r == 1)
			snprintf(why, sizeof(why), "its compressed clusters decompress with %s "
				 "(%u), which it gets", zf2fs_compress_name(alg), alg);
		else if (r < 0)
			snprintf(why, sizeof(why), "no algorithm this build has decompresses "
				 "its compressed clusters: %s (%u), Linux's default, lets Linux "
				 "open the file and read its other clusters",
				 zf2fs_compress_name(alg), alg);
		p.num = in->i_compress_algorithm;
		p.num2 = alg;
		p.str = why;
		if (fix_problem(ctx, PR_4_COMPR_ALGO_BAD, &p)) {
			n = inode_fix_copy(ctx, ino, nodep, copyp);
			if (!n)
				return -ENOMEM;
			n->i.i_compress_algorithm = alg;
			(*copyp)->i.i_compress_algorithm = alg;
			in = &(*nodep)->i;
		}
	}
	if (zf2fs_compress_name(in->i_compress_algorithm) &&
	    !compress_level_ok(in->i_compress_algorithm,
			       (unsigned)zf2fs_get(in->i_compress_flag) >> COMPR_LEVEL_SHIFT)) {
		uint16_t flag = (uint16_t)zf2fs_get(in->i_compress_flag);

		p.num = flag >> COMPR_LEVEL_SHIFT;
		p.str = zf2fs_compress_name(in->i_compress_algorithm);
		if (fix_problem(ctx, PR_4_COMPR_LEVEL_BAD, &p)) {
			flag &= (1u << COMPR_LEVEL_SHIFT) - 1;
			n = inode_fix_copy(ctx, ino, nodep, copyp);
			if (!n)
				return -ENOMEM;
			zf2fs_set(n->i.i_compress_flag, flag);
			zf2fs_set((*copyp)->i.i_compress_flag, flag);
			in = &(*nodep)->i;
		}
	}
	if (!regular && (in->i_log_cluster_size < COMPR_LOG_MIN ||
			 in->i_log_cluster_size > COMPR_LOG_MAX ||
			 zf2fs_get(in->i_compr_blocks) > zf2fs_get(in->i_blocks))) {
		p.num = in->i_log_cluster_size;
		p.num2 = zf2fs_get(in->i_compr_blocks);
		p.str = NULL;
		if (fix_problem(ctx, PR_4_COMPR_INHERIT_BAD, &p)) {
			n = inode_fix_copy(ctx, ino, nodep, copyp);
			if (!n)
				return -ENOMEM;
			if (in->i_log_cluster_size < COMPR_LOG_MIN ||
			    in->i_log_cluster_size > COMPR_LOG_MAX) {
				n->i.i_log_cluster_size = COMPR_DEFAULT_LOG;
				(*copyp)->i.i_log_cluster_size = COMPR_DEFAULT_LOG;
			}
			if (zf2fs_get(in->i_compr_blocks) > zf2fs_get(in->i_blocks)) {
				zf2fs_set(n->i.i_compr_blocks, 0);
				zf2fs_set((*copyp)->i.i_compr_blocks, 0);
			}
		}
	}
	return 0;
}

/*
 * The device-alias flag: Linux refuses an inode with it on a volume without the
 * device_alias feature, and one that is not pinned (an alias file is made pinned and
 * Linux refuses to unpin it).  Without the feature the flag is what is wrong (the file's
 * blocks are the ones its block map names, which the walk checks as any file's); with
 * it, the lost pin comes back.
 */
static int check_device_alias(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node **nodep,
			      struct zf2fs_node **copyp)
{
	const struct zf2fs_inode *in = &(*nodep)->i;
	uint32_t flags = (uint32_t)zf2fs_get(in->i_flags);
	struct problem_ctx p = { .ino = ino, .num = flags };
	struct zf2fs_node *n;

	if (!(flags & ZF2FS_DEVICE_ALIAS_FL))
		return 0;
	if (!(ctx->vi->features & ZF2FS_FEAT_DEVICE_ALIAS)) {
		if (!fix_problem(ctx, PR_4_DEVICE_ALIAS_STRAY, &p))
			return 0;
		n = inode_fix_copy(ctx, ino, nodep, copyp);
		if (!n)
			return -ENOMEM;
		zf2fs_set(n->i.i_flags, flags & ~ZF2FS_DEVICE_ALIAS_FL);
		zf2fs_set((*copyp)->i.i_flags, flags & ~ZF2FS_DEVICE_ALIAS_FL);
	} else if (!(in->i_inline & ZF2FS_PIN_FILE)) {
		if (!fix_problem(ctx, PR_4_DEVICE_ALIAS_UNPINNED, &p))
			return 0;
		n = inode_fix_copy(ctx, ino, nodep, copyp);
		if (!n)
			return -ENOMEM;
		n->i.i_inline |= ZF2FS_PIN_FILE;
		(*copyp)->i.i_inline |= ZF2FS_PIN_FILE;
	}
	return 0;
}

/*
 * Inline data on a regular file Linux reads through a post-read step (encrypted, or with
 * fs-verity): Linux never gives such a file inline data (it makes an encrypted file so
 * from the start, and converts a file's inline data before it enables verity), and
 * refuses the inode when it has no blocks (f2fs_sanity_check_inline_data).  Only a file
 * whose encryption context or verity location is there (the mark is right) is taken: its
 * inline flag goes, and the inline area, bytes Linux never wrote, is zeroed, as the block
 * pointers it becomes must be.
 */
static int check_post_read_inline(struct fsck_ctx *ctx, uint32_t ino,
				  const struct zf2fs_node **nodep, struct zf2fs_node **copyp)
{
	const struct zf2fs_inode *in = &(*nodep)->i;
	uint64_t blocks = zf2fs_get(in->i_blocks);
	uint32_t xnid = (uint32_t)zf2fs_get(in->i_xattr_nid);
	struct problem_ctx p = { .ino = ino };
	struct zf2fs_inode_geom g;
	struct zf2fs_node *n;
	uint8_t v[64];
	size_t vlen;
	uint32_t nonzero = 0;

	if (zf2fs_inode_type(in) != ZF2FS_S_IFREG || !(in->i_inline & ZF2FS_INLINE_DATA) ||
	    !(in->i_advise & (ZF2FS_ADVISE_ENCRYPT | ZF2FS_ADVISE_VERITY)) ||
	    (blocks && blocks - 1 > (xnid ? 1u : 0u)) ||
	    inode_geom(ctx, in, &g))
		return 0;
	for (uint32_t k = 0; k < ZF2FS_NIDS_PER_INODE; k++)
		if (zf2fs_get(inode_nids(ctx, in)[k]))
			return 0;
	if (in->i_advise & ZF2FS_ADVISE_ENCRYPT) {
		p.str = "encrypted";
		if (zf2fs_vol_get_xattr(ctx->vol, *nodep, ZF2FS_XATTR_INDEX_ENCRYPTION, "c", v,
					sizeof(v), &vlen))
			return 0;
	} else {
		p.str = "an fs-verity file";
		if (zf2fs_vol_get_xattr(ctx->vol, *nodep, ZF2FS_XATTR_INDEX_VERITY, "v", v,
					sizeof(v), &vlen))
			return 0;
	}
	for (uint32_t k = 0; k < g.addrs; k++)
		nonzero += zf2fs_get(zf2fs_inode_addrs(in)[g.extra_words + k]) != 0;
	p.num = zf2fs_get(in->i_size);
	p.num2 = nonzero;
	if (!fix_problem(ctx, PR_4_INLINE_POST_READ, &p))
		return 0;
	n = inode_fix_copy(ctx, ino, nodep, copyp);
	if (!n)
		return -ENOMEM;
	for (struct zf2fs_node *t = n; t; t = t == n ? *copyp : NULL) {
		t->i.i_inline &= (uint8_t)~(ZF2FS_INLINE_DATA | ZF2FS_DATA_EXIST);
		memset(zf2fs_inode_addrs(t) + g.extra_words, 0, 4 * (size_t)g.addrs);
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

		if (!inode_geom(ctx, &node->i, &g))
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
	if (zf2fs_inode_flags_bad2(ctx->g, &node->i, ctx->vi->features)) {
		uint32_t flags = (uint32_t)zf2fs_get(node->i.i_flags);
		uint32_t bad = zf2fs_inode_flags_bad2(ctx->g, &node->i, ctx->vi->features);
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
	err = check_device_alias(ctx, ino, &node, &copy);
	if (!err)
		err = check_post_read_inline(ctx, ino, &node, &copy);
	if (err)
		goto out;
	/* the inline xattr flag lost: the kernel reads the inline xattr area only with it,
	 * so every xattr there (an encryption context, a verity location, ACLs) would be
	 * gone.  The area still begins with the xattr list's magic, which only a list the
	 * kernel wrote puts there. */
	if (!(node->i.i_inline & ZF2FS_INLINE_XATTR) && (node->i.i_inline & ZF2FS_EXTRA_ATTR) &&
	    (ctx->vi->features & ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR) &&
	    !(node->i.i_inline & ZF2FS_INLINE_DATA) && inode_xattr_size_ok(ctx, &node->i)) {
		struct zf2fs_inode_geom g;
		uint32_t xs = (uint32_t)zf2fs_get(node->i.i_inline_xattr_size);

		if (xs && !inode_geom(ctx, &node->i, &g) &&
		    zf2fs_get_le32p((const uint8_t *)node->i.i_addr +
				    4 * (ctx->g->addrs_per_inode - g.xattr_words)) == ZF2FS_XATTR_MAGIC &&
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

		if (!inode_geom(ctx, &node->i, &g) &&
		    zf2fs_get_le32p(a + 4 * (ctx->g->addrs_per_inode - xs)) != ZF2FS_XATTR_MAGIC &&
		    zf2fs_get_le32p(a + 4 * (ctx->g->addrs_per_inode - ZF2FS_INLINE_XATTR_ADDRS)) ==
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
	if (!err)
		err = check_compress_fields(ctx, ino, &node, &copy);
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
