// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * geom.c - what the volume's block size changes in an inode: its address count and
 * inline room (inode_geom), its checksum (inode_csum).  With 4 KiB blocks both are the
 * library's functions; with 16 KiB blocks the same rules run on the volume's numbers
 * (struct zf2fs_geom), until the library takes the geometry itself.
 */
#include "config.h"
#include <stddef.h>

#include "fsck.h"
#include "zf2fs/file.h"

int inode_geom(const struct fsck_ctx *ctx, const struct zf2fs_inode *in,
	       struct zf2fs_inode_geom *ret)
{
	const struct zf2fs_geom *g = ctx->g;
	uint32_t per, extra = 0, xattr = 0;

	if (g->log_blocksize == ZF2FS_MIN_LOG_BLOCKSIZE)
		return zf2fs_inode_geometry(in, ctx->vi->features, ret);
	/* the library's rules for the extra and inline xattr words, bounded by this block */
	memset(ret, 0, sizeof(*ret));
	if (in->i_inline & ZF2FS_EXTRA_ATTR) {
		extra = (uint32_t)zf2fs_get(in->i_extra_isize);
		if (extra % 4 || extra < 4 || extra > ZF2FS_EXTRA_ISIZE_MAX + 4 * 16)
			return -ZF2FS_EFSCORRUPTED;
		extra /= 4;
	}
	if (ctx->vi->features & ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR)
		xattr = (in->i_inline & ZF2FS_EXTRA_ATTR) ? (uint32_t)zf2fs_get(in->i_inline_xattr_size) : 0;
	else if (in->i_inline & (ZF2FS_INLINE_XATTR | ZF2FS_INLINE_DENTRY))
		xattr = ZF2FS_INLINE_XATTR_ADDRS;
	per = g->addrs_per_inode;
	if (xattr > g->inline_xattr_max || extra + xattr + 1 > per)
		return -ZF2FS_EFSCORRUPTED;
	ret->extra_words = extra;
	ret->xattr_words = xattr;
	ret->addrs = per - extra - xattr;
	ret->addrs_per_block = g->addrs_per_block;
	ret->inline_bytes = 4 * (per - extra - xattr - 1);
	/* compression: clusters of 4 to 256 blocks, whole in the inode and in a node */
	if ((ctx->vi->features & ZF2FS_FEAT_COMPRESSION) &&
	    zf2fs_inode_type(in) == ZF2FS_S_IFREG && (zf2fs_get(in->i_flags) & ZF2FS_COMPR_FL)) {
		uint32_t log = (in->i_inline & ZF2FS_EXTRA_ATTR) && extra * 4 >= ZF2FS_EXTRA_ISIZE_MAX ?
			       in->i_log_cluster_size : 0;

		if (log < 2 || log > 8)
			return -ZF2FS_EFSCORRUPTED;
		ret->compressed = true;
		ret->cluster_blocks = 1u << log;
		ret->addrs -= ret->addrs % ret->cluster_blocks;
		ret->addrs_per_block -= ret->addrs_per_block % ret->cluster_blocks;
	}
	return 0;
}

uint32_t inode_csum(const struct fsck_ctx *ctx, uint32_t seed, const void *node)
{
	const size_t at = offsetof(struct zf2fs_inode, i_inode_checksum);
	const struct zf2fs_node_footer *f = nfoot(ctx, node);
	const struct zf2fs_inode *in = node;
	const uint8_t zero[4] = { 0 };
	uint32_t crc;

	if (ctx->g->log_blocksize == ZF2FS_MIN_LOG_BLOCKSIZE)
		return zf2fs_inode_checksum(seed, node);
	crc = zf2fs_crc32(seed, &f->ino, 4);
	crc = zf2fs_crc32(crc, &in->i_generation, 4);
	crc = zf2fs_crc32(crc, node, at);
	crc = zf2fs_crc32(crc, zero, 4);
	return zf2fs_crc32(crc, (const uint8_t *)node + at + 4, ctx->g->blocksize - at - 4);
}

bool node_recoverable(const struct fsck_ctx *ctx, const void *node)
{
	const struct zf2fs_checkpoint *cp = ctx->cp;
	uint64_t flags = zf2fs_get(cp->ckpt_flags), ver = zf2fs_get(cp->checkpoint_ver);
	uint64_t nver = zf2fs_get(nfoot(ctx, node)->cp_ver);

	if (ctx->g->log_blocksize == ZF2FS_MIN_LOG_BLOCKSIZE)
		return zf2fs_cp_node_recoverable(cp, node);
	/* the version in the lower half; with CRC recovery the checkpoint block's crc in
	 * the upper one */
	if (flags & ZF2FS_CP_NOCRC_RECOVERY_FLAG)
		return (uint32_t)ver == (uint32_t)nver;
	if (flags & ZF2FS_CP_CRC_RECOVERY_FLAG) {
		uint32_t off = (uint32_t)zf2fs_get(cp->checksum_offset);

		if (off > ctx->g->blocksize - 4)
			return false;
		ver |= (uint64_t)zf2fs_get_le32p((const uint8_t *)cp + off) << 32;
	}
	return nver == ver;
}

void dview_block(const struct fsck_ctx *ctx, const void *blk, struct zf2fs_dentry_view *v)
{
	const struct zf2fs_geom *g = ctx->g;
	const uint8_t *b = blk;

	if (g->log_blocksize == ZF2FS_MIN_LOG_BLOCKSIZE) {
		zf2fs_dentry_view_block(blk, v);
		return;
	}
	v->bitmap = b;
	v->dentry = (const struct zf2fs_dir_entry *)(b + g->dentry_entries_offset);
	v->filename = (const uint8_t (*)[ZF2FS_SLOT_LEN])(b + g->dentry_names_offset);
	v->nr = g->dentry_per_block;
}

int dview_inline(const struct fsck_ctx *ctx, const struct zf2fs_node *inode,
		 struct zf2fs_dentry_view *v)
{
	const uint32_t slot = ZF2FS_DIR_ENTRY_SIZE + ZF2FS_SLOT_LEN;
	struct zf2fs_inode_geom g;
	const uint8_t *base;
	uint32_t nr;

	if (ctx->g->log_blocksize == ZF2FS_MIN_LOG_BLOCKSIZE)
		return zf2fs_dentry_view_inline(inode, ctx->vi->features, v);
	if (inode_geom(ctx, &inode->i, &g))
		return -ZF2FS_EFSCORRUPTED;
	/* after one reserved word: the bitmap, then the entries and names at the end */
	base = (const uint8_t *)zf2fs_inode_addrs(inode) + 4 * (g.extra_words + 1);
	nr = g.inline_bytes * 8 / (slot * 8 + 1);
	v->bitmap = base;
	v->dentry = (const struct zf2fs_dir_entry *)(base + g.inline_bytes - nr * slot);
	v->filename = (const uint8_t (*)[ZF2FS_SLOT_LEN])((const uint8_t *)v->dentry +
		      nr * ZF2FS_DIR_ENTRY_SIZE);
	v->nr = nr;
	return 0;
}

int xattr_cut(const struct fsck_ctx *ctx, const struct zf2fs_inode *in,
	      const struct zf2fs_inode_geom *ig, uint32_t *ret_start, uint32_t *ret_cut)
{
	uint32_t start = 4 * (ctx->g->addrs_per_inode - ig->xattr_words);
	uint32_t end = 4 * ig->xattr_words, pos = ZF2FS_XATTR_HDR_SIZE;
	const uint8_t *area = (const uint8_t *)in->i_addr + start;

	if (ctx->g->log_blocksize == ZF2FS_MIN_LOG_BLOCKSIZE)
		return zf2fs_inline_xattr_cut(in, ig, ret_start, ret_cut);
	/* the entries up to the end word; cut at the first that runs past the area */
	*ret_start = start;
	if (!(in->i_inline & ZF2FS_INLINE_XATTR) || end < ZF2FS_XATTR_HDR_SIZE + 4 ||
	    zf2fs_get_le32p(area) != ZF2FS_XATTR_MAGIC)
		return 0;
	while (pos + 4 <= end && zf2fs_get_le32p(area + pos)) {
		struct zf2fs_xattr_entry e;
		uint32_t size;

		memcpy(&e, area + pos, sizeof(e));
		size = zf2fs_xattr_entry_size(&e);
		if (pos + size + 4 > end)
			break;
		pos += size;
	}
	if (pos + 4 <= end && !zf2fs_get_le32p(area + pos))
		return 0;
	*ret_cut = pos;
	return 1;
}

void cluster_markers(const struct fsck_ctx *ctx, const struct zf2fs_inode *in,
		     uint32_t *ret_markers, uint32_t *ret_log)
{
	struct zf2fs_inode_geom ig;
	const zf2fs_le32 *a = zf2fs_inode_addrs(in);
	uint32_t log = 8, n = 0;

	if (ctx->g->log_blocksize == ZF2FS_MIN_LOG_BLOCKSIZE) {
		zf2fs_inode_cluster_markers(in, ctx->vi->features, ret_markers, ret_log);
		return;
	}
	/* the largest cluster (up to 2^8 blocks) every marker's slot is a multiple of */
	if (!inode_geom(ctx, in, &ig))
		for (uint32_t k = 0; k < ig.addrs; k++) {
			if (zf2fs_get(a[ig.extra_words + k]) != ZF2FS_COMPRESS_ADDR)
				continue;
			n++;
			while (log && k % (1u << log))
				log--;
		}
	*ret_markers = n;
	*ret_log = log;
}

uint64_t node_fofs(const struct fsck_ctx *ctx, const struct zf2fs_inode_geom *ig,
		   uint32_t ofs, uint32_t ofs_in_node)
{
	const uint64_t n = ctx->g->nids_per_block;
	const uint64_t ind_end = 2 * n + 4;   /* the offset of the last node below IND2 */
	uint64_t before;                      /* direct nodes before this one */

	if (ctx->g->log_blocksize == ZF2FS_MIN_LOG_BLOCKSIZE)
		return zf2fs_node_fofs(ig, ofs, ofs_in_node);
	if (ofs == 0)
		return ofs_in_node;
	if (ofs <= ZF2FS_OFS_DIR2)
		before = ofs - 1;
	else if (ofs <= ind_end)
		before = ofs - 2 - (ofs - 4) / (n + 1);
	else
		before = ofs - 5 - (ofs - ind_end - 3) / (n + 1);
	return ig->addrs + before * ig->addrs_per_block + ofs_in_node;
}
