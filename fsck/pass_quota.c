// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_quota.c - quota usage against the quota files (quota_ino feature).
 *
 * Pass 4 charges every inode it checks (quota files excepted, as the kernel never charges
 * them) to its user, group and project id: one inode and the bytes of every block it owns
 * but the inode block itself (quota_charge below).  Here each quota file named by the
 * superblock is read and parsed the way the kernel looks ids up, and each id's recorded
 * inodes and bytes are compared with what was charged.  A wrong or damaged file is
 * rebuilt as a whole from the usage found, keeping each id's limits and grace times when
 * the old file could be read; ids with no usage and no limits are left out, as the kernel
 * drops them.  The new contents go through the repair transaction: existing blocks are
 * rewritten out of place and missing ones are added to the inode's direct slots.  A file
 * whose inode pass 3 found gone (its NAT entry holding no block) is built anew, in a new
 * inode of that number, from the usage alone.  The checkpoint flag by which the kernel
 * asks for a quota check is cleared once every file is right.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fsck.h"
#include "zf2fs/endian.h"
#include "zf2fs/file.h"
#include "zf2fs-internal/quota.h"

static bool is_quota_ino(const struct fsck_ctx *ctx, uint32_t ino)
{
	for (int q = 0; q < ZF2FS_MAX_QUOTAS; q++)
		if (ino && zf2fs_get(ctx->sb->qf_ino[q]) == ino)
			return true;
	return false;
}

static bool type_enabled(const struct fsck_ctx *ctx, int q)
{
	/* the kernel turns project quota on only with the project_quota feature */
	return zf2fs_get(ctx->sb->qf_ino[q]) &&
	       (q != ZF2FS_QUOTA_PRJ || (ctx->vi->features & ZF2FS_FEAT_PRJQUOTA));
}

int quota_charge(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_inode *in,
		 uint64_t i_blocks)
{
	/* the library's bytes are of 4 KiB blocks; i_blocks counts the volume's */
	return quota_charge_more(ctx, ino, in, 1, zf2fs_quota_inode_bytes(i_blocks) <<
				 (ctx->g->log_blocksize - ZF2FS_MIN_LOG_BLOCKSIZE));
}

int quota_charge_more(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_inode *in,
		      uint64_t inodes, uint64_t bytes)
{
	uint32_t ids[3];

	if (!ctx->quota_on || is_quota_ino(ctx, ino))
		return 0;
	zf2fs_quota_inode_ids(in, ctx->vi->features, ids);
	for (int q = 0; q < ZF2FS_MAX_QUOTAS; q++) {
		int err;

		if (!type_enabled(ctx, q))
			continue;
		err = zf2fs_quota_usage_add(&ctx->quota_use[q], ids[q], inodes, bytes);
		if (err)
			return err;
	}
	return 0;
}

/* ---- where the file is -------------------------------------------------------------------- */
/* One data block of the quota file: where it is and which node slot holds it. */
struct qblock {
	uint32_t addr, owner, ofs;
};

struct qmap {
	struct qblock *b;
	uint64_t n;
};

static int map_block(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner, uint32_t ofs)
{
	struct qmap *m = arg;

	if (fofs < m->n && blkaddr != ZF2FS_NULL_ADDR)
		m->b[fofs] = (struct qblock){ blkaddr, owner, ofs };
	return 0;
}

/* The inode of quota file @ino as the repairs so far leave it: pass 4 may have set its
 * slots right (a pointer restored or cleared) in the transaction, and what is read and
 * rewritten here must be the file it restored, not the one on disk.  Indirect nodes are
 * read from the disk; a quota file's few blocks sit in the inode's own slots. */
static int quota_inode(struct fsck_ctx *ctx, uint32_t ino, struct zf2fs_node *inode,
		       char *why, size_t whylen)
{
	const struct zf2fs_node *pending = repair_node_pending(ctx, ino);

	if (pending) {
		memcpy(inode, pending, ctx->g->blocksize);
		return 0;
	}
	/* pass 4's copy, which passed the checks zf2fs_inode_read makes */
	for (int q = 0; q < ZF2FS_MAX_QUOTAS; q++)
		if (ctx->quota_node[q] && zf2fs_get(ctx->sb->qf_ino[q]) == ino) {
			memcpy(inode, ctx->quota_node[q], ctx->g->blocksize);
			return 0;
		}
	return zf2fs_inode_read(ctx->vol, ino, inode, NULL, why, whylen);
}

/* The quota file of type @q held by @inode, parsed as the kernel reads it. */
static int quota_load(struct fsck_ctx *ctx, const struct zf2fs_node *inode, int q,
		      struct zf2fs_quota_file *ret, char *why, size_t whylen)
{
	uint64_t size = zf2fs_get(inode->i.i_size);
	uint8_t *data;
	size_t len;
	int err;

	memset(ret, 0, sizeof(*ret));
	if (zf2fs_inode_type(&inode->i) != ZF2FS_S_IFREG) {
		snprintf(why, whylen, "the inode is not a regular file");
		return -ZF2FS_EFSCORRUPTED;
	}
	if (size > ZF2FS_QUOTA_FILE_MAX) {
		snprintf(why, whylen, "i_size %" PRIu64 " is more than a quota file needs", size);
		return -ZF2FS_EFSCORRUPTED;
	}
	data = malloc((size_t)size + 1);
	if (!data)
		return -ENOMEM;
	err = zf2fs_file_read_buf(ctx->vol, inode, data, (size_t)size, &len, why, whylen);
	if (!err)
		err = zf2fs_quota_parse(data, len, q, ret, why, whylen);
	free(data);
	return err;
}

/* ---- comparing ------------------------------------------------------------------------------ */
static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static const struct zf2fs_dquot *find_dquot(const struct zf2fs_quota_file *qf, uint32_t id)
{
	size_t lo = 0, hi = qf->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (qf->dq[mid].id == id)
			return &qf->dq[mid];
		if (qf->dq[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Every id the file or the inodes know, ascending, so that reports come in a stable order. */
static uint32_t *all_ids(const struct zf2fs_quota_file *qf, const struct zf2fs_quota_usage *u,
			 size_t *ret_n)
{
	uint32_t *ids = malloc((qf->n + u->n + 1) * sizeof(*ids));
	size_t n = 0, k = 0;

	if (!ids)
		return NULL;
	for (size_t i = 0; i < qf->n; i++)
		ids[n++] = qf->dq[i].id;
	for (size_t i = 0; i < u->cap; i++)
		if (u->slot[i].used && !find_dquot(qf, u->slot[i].id))
			ids[n++] = u->slot[i].id;
	qsort(ids, n, sizeof(*ids), cmp_u32);
	for (size_t i = 0; i < n; i++)
		if (!k || ids[k - 1] != ids[i])
			ids[k++] = ids[i];
	*ret_n = k;
	return ids;
}

static bool has_limits(const struct zf2fs_dquot *d)
{
	return d->ihardlimit || d->isoftlimit || d->bhardlimit || d->bsoftlimit;
}

/* The file as it should be: @old's limits and times, the usage found, for @ids (all_ids). */
static int corrected(const struct zf2fs_quota_file *old, const struct zf2fs_quota_usage *u,
		     const uint32_t *ids, size_t n, struct zf2fs_quota_file *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->bgrace = old->bgrace;
	ret->igrace = old->igrace;
	ret->flags = old->flags;
	ret->dq = calloc(n + 1, sizeof(*ret->dq));
	if (!ret->dq)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct zf2fs_dquot *d = find_dquot(old, ids[i]);
		struct zf2fs_quota_use use = zf2fs_quota_usage_get(u, ids[i]);
		struct zf2fs_dquot nd = d ? *d : (struct zf2fs_dquot){ .id = ids[i] };

		nd.curinodes = use.inodes;
		nd.curspace = use.bytes;
		if (!nd.curinodes && !nd.curspace && !has_limits(&nd))
			continue;
		/* a grace period runs only while a soft limit is exceeded */
		if (!nd.bsoftlimit || nd.curspace <= nd.bsoftlimit * 1024)
			nd.btime = 0;
		if (!nd.isoftlimit || nd.curinodes <= nd.isoftlimit)
			nd.itime = 0;
		ret->dq[ret->n++] = nd;
	}
	return 0;
}

/* ---- rewriting ---------------------------------------------------------------------------- */
/* Queue @content (@len bytes) as the new contents of quota inode @ino, whose blocks are
 * @map (one entry per block of the old size).  Blocks beyond the new contents are zeroed. */
static int rewrite(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *inode,
		   const struct qmap *map, const uint8_t *content, size_t len)
{
	struct zf2fs_inode_geom g;
	const uint32_t bs = ctx->g->blocksize;
	uint64_t need = (len + bs - 1) / bs, total, added = 0;
	struct zf2fs_node *n;

	if (inode_geom(ctx, &inode->i, &g))
		return -ZF2FS_EFSCORRUPTED;
	total = need > map->n ? need : map->n;
	for (uint64_t f = 0; f < total; f++) {
		const struct qblock *b = f < map->n ? &map->b[f] : NULL;
		void *buf;
		int err;

		if (b && b->addr != ZF2FS_NULL_ADDR && b->addr != ZF2FS_NEW_ADDR &&
		    blk_in_main(ctx, b->addr)) {
			err = repair_data_block(ctx, b->owner, b->ofs, b->addr, &buf);
		} else {
			if (f >= g.addrs)
				return -EFBIG;   /* beyond the inode's own slots: not done here */
			if (b && b->addr == ZF2FS_NEW_ADDR)
				return -EOPNOTSUPP;
			err = repair_new_data_block(ctx, ino, (uint32_t)f, &buf);
			added++;
		}
		if (err)
			return err;
		memset(buf, 0, bs);
		if (f * bs < len) {
			size_t k = len - f * bs;

			memcpy(buf, content + f * bs, k < bs ? k : bs);
		}
	}
	n = repair_node(ctx, ino);
	if (!n)
		return -EIO;
	zf2fs_set(n->i.i_blocks, zf2fs_get(n->i.i_blocks) + added);
	if (zf2fs_get(n->i.i_size) < len)
		zf2fs_set(n->i.i_size, len);
	return 0;
}

/* ---- a quota file built anew ------------------------------------------------------------ */
/* Pass 3 found the inode of quota type @q gone (its NAT entry holds no block) and freed
 * its number: a new inode there, as mkfs makes one (a regular file, mode 0600, one link
 * for the superblock's reference, flagged immutable and noatime as the kernel flags the
 * files it keeps quota in), holding the usage found and default grace times. */
static int create_file(struct fsck_ctx *ctx, int q, uint32_t ino)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	uint64_t now = env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL);
	struct zf2fs_quota_file qf = { .bgrace = ZF2FS_QUOTA_GRACE, .igrace = ZF2FS_QUOTA_GRACE };
	struct zf2fs_quota_file fixed;
	struct qmap map = { 0 };
	struct zf2fs_node *n = repair_new_node(ctx, ino, ino);
	uint8_t *content = NULL;
	uint32_t *ids;
	size_t len, nids;
	uint64_t blocks;
	int err;

	if (!n || zf2fs_inode_init2(ctx->g, n, ctx->vi->features, ino, 0, NULL, 0,
				   ZF2FS_S_IFREG | 0600, now))
		return -EIO;
	zf2fs_set(n->i.i_flags, ZF2FS_IMMUTABLE_FL | ZF2FS_NOATIME_FL);
	ids = all_ids(&qf, &ctx->quota_use[q], &nids);
	if (!ids)
		return -ENOMEM;
	err = corrected(&qf, &ctx->quota_use[q], ids, nids, &fixed);
	free(ids);
	if (err)
		return err;
	err = zf2fs_quota_build(q, &fixed, &content, &len);
	zf2fs_quota_file_free(&fixed);
	if (!err)
		err = rewrite(ctx, ino, n, &map, content, len);
	free(content);
	if (err)
		return err;
	blocks = zf2fs_get(n->i.i_blocks);
	ctx->nid_flags[ino] = NID_INODE | NID_REACHED | NID_CHECKED;
	ctx->ftypes[ino] = ZF2FS_FT_REG_FILE;
	err = links_inc(ctx, ino);   /* the superblock's reference */
	if (!err)
		err = disk_links_set(ctx, ino, 1);
	ctx->found_inodes++;
	ctx->found_nodes++;
	ctx->found_blocks += blocks;
	ctx->files++;
	return err;
}

/* ---- one quota type ----------------------------------------------------------------------- */
/* Each id of @ids (all_ids) whose recorded usage differs from what was found. */
static void report_usage(struct fsck_ctx *ctx, int q, uint32_t ino,
			 const struct zf2fs_quota_file *qf, const struct zf2fs_quota_usage *u,
			 const uint32_t *ids, size_t n, bool *fix, unsigned *bad)
{
	for (size_t i = 0; i < n; i++) {
		const struct zf2fs_dquot *d = find_dquot(qf, ids[i]);
		struct zf2fs_quota_use use = zf2fs_quota_usage_get(u, ids[i]);
		uint64_t fi = d ? d->curinodes : 0, fb = d ? d->curspace : 0;
		char msg[200];

		if (fi == use.inodes && fb == use.bytes)
			continue;
		snprintf(msg, sizeof(msg), "%s id %" PRIu32 ": %" PRIu64 " inodes and %" PRIu64
			 " bytes recorded, %" PRIu64 " inodes and %" PRIu64 " bytes in use",
			 zf2fs_quota_type_name(q), ids[i], fi, fb, use.inodes, use.bytes);
		(*bad)++;
		if (fix_problem(ctx, PR_9_QUOTA_USAGE_BAD, &(struct problem_ctx){ .ino = ino,
								       .str = msg }))
			*fix = true;
	}
}

/* Returns 0, or a negative errno for an operational failure; @ret_ok says whether the file
 * is right (now or once the repair is written). */
static int check_type(struct fsck_ctx *ctx, int q, bool *ret_ok)
{
	uint32_t ino = (uint32_t)zf2fs_get(ctx->sb->qf_ino[q]);
	struct problem_ctx p = { .ino = ino, .str = zf2fs_quota_type_name(q) };
	struct zf2fs_quota_file qf, fixed;
	struct zf2fs_node *inode = NULL;
	struct qmap map = { 0 };
	char why[160] = "", msg[220];
	uint8_t *content = NULL;
	uint32_t *ids = NULL;
	size_t len, nids = 0;
	bool fix = false;
	unsigned bad = 0;
	int err;

	*ret_ok = false;
	if (ctx->qf_create & (1u << q)) {
		err = create_file(ctx, q, ino);
		if (err == -ENOMEM)
			return err;
		if (err) {
			fprintf(ctx->out, "%s quota file inode %u: cannot build it here (%s)\n",
				zf2fs_quota_type_name(q), ino, strerror(-err));
			ctx->exit_bits |= FSCK_UNCORRECTED;
			ctx->abort = true;   /* half a file in the transaction: write nothing */
			return 0;
		}
		*ret_ok = true;
		return 0;
	}
	if (ino >= ctx->nids || !(ctx->nid_flags[ino] & NID_INODE) ||
	    (ctx->nid_flags[ino] & NID_BAD) || ctx->ftypes[ino] != ZF2FS_FT_REG_FILE) {
		fix_problem(ctx, PR_9_QUOTA_INODE_BAD, &p);
		return 0;
	}
	inode = malloc(ZF2FS_BLKSIZE_MAX);
	if (!inode)
		return -ENOMEM;
	err = quota_inode(ctx, ino, inode, why, sizeof(why));
	if (!err)
		err = quota_load(ctx, inode, q, &qf, why, sizeof(why));
	if (err == -ENOMEM || err == -EIO) {
		free(inode);
		return err;
	}
	if (err) {
		snprintf(msg, sizeof(msg), "%s quota: %s", zf2fs_quota_type_name(q),
			 why[0] ? why : strerror(-err));
		p.str = msg;
		fix = fix_problem(ctx, PR_9_QUOTA_FILE_BAD, &p);
		qf = (struct zf2fs_quota_file){ .bgrace = ZF2FS_QUOTA_GRACE,
						.igrace = ZF2FS_QUOTA_GRACE };
		bad = 1;
	}
	/* the ids the file or the inodes know: compared now, the new file's entries later */
	ids = all_ids(&qf, &ctx->quota_use[q], &nids);
	err = ids ? 0 : -ENOMEM;
	if (err)
		goto out;
	if (!bad)
		report_usage(ctx, q, ino, &qf, &ctx->quota_use[q], ids, nids, &fix, &bad);
	if (!bad) {
		*ret_ok = true;
		goto out;
	}
	if (!fix)
		goto out;
	/* the new contents replace the old block by block: find where they are */
	err = quota_inode(ctx, ino, inode, why, sizeof(why));
	if (!err) {
		uint64_t size = zf2fs_get(inode->i.i_size);

		map.n = (size + ctx->g->blocksize - 1) / ctx->g->blocksize;
		map.b = size > ZF2FS_QUOTA_FILE_MAX ? NULL : calloc(map.n + 1, sizeof(*map.b));
		err = size > ZF2FS_QUOTA_FILE_MAX ? -E2BIG : map.b ? 0 : -ENOMEM;
	}
	if (!err) {
		const struct zf2fs_walk_ops ops = { .data = map_block };

		err = zf2fs_file_walk(ctx->vol, inode, &ops, &map);
	}
	if (!err)
		err = corrected(&qf, &ctx->quota_use[q], ids, nids, &fixed);
	if (!err) {
		err = zf2fs_quota_build(q, &fixed, &content, &len);
		zf2fs_quota_file_free(&fixed);
	}
	if (!err)
		err = rewrite(ctx, ino, inode, &map, content, len);
	if (err && err != -ENOMEM) {
		fprintf(ctx->out, "%s quota file inode %u: cannot rewrite it here (%s); "
			"left as it is\n", zf2fs_quota_type_name(q), ino,
			err == -EFBIG ? "it would outgrow the inode's direct blocks" :
			err == -EOPNOTSUPP ? "it has unwritten blocks" :
			err == -E2BIG ? "its i_size is beyond any quota file's" : strerror(-err));
		err = 0;
		ctx->exit_bits |= FSCK_UNCORRECTED;
	} else if (!err) {
		*ret_ok = true;
	}
out:
	free(ids);
	zf2fs_quota_file_free(&qf);
	free(content);
	free(map.b);
	free(inode);
	return err;
}

int pass9_quota(struct fsck_ctx *ctx)
{
	bool all_ok = true;

	if (!ctx->quota_on)
		return 0;
	for (int q = 0; q < ZF2FS_MAX_QUOTAS; q++) {
		bool ok;
		int err;

		if (!type_enabled(ctx, q))
			continue;
		err = check_type(ctx, q, &ok);
		if (err)
			return err;
		all_ok &= ok;
	}
	if ((ctx->vi->ckpt_flags & ZF2FS_CP_QUOTA_NEED_FSCK_FLAG) && all_ok &&
	    fix_problem(ctx, PR_9_QUOTA_NEED_FSCK, &(struct problem_ctx){ 0 })) {
		ctx->quota_clear_flag = true;
		repair_mark_checkpoint(ctx);
	}
	return 0;
}
