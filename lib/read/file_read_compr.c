// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * file_read_compr.c - read a compressed file (zf2fs_file_read() hands them here).
 *
 * The block tree is walked in file order and each cluster's slots collected; a cluster
 * is done when the walk leaves it.  A cluster whose first slot is the compressed marker
 * holds its stream in the valid addresses that follow the marker (the kernel counts
 * those); it is decompressed as one piece of 2^log blocks.  Any other cluster is plain:
 * each valid address is one block, reserved and empty slots read as zeros.  Every
 * address is checked against the main area before it is read, and the walk bounds
 * the clusters, so no on-disk value makes this read out of bounds or loop.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/compress.h"
#include "zf2fs/endian.h"
#include "zf2fs/file.h"
#include "zf2fs-internal/compress.h"
#include "read/file_read_p.h"
#include "read/volume_p.h"
#include "format/why_p.h"

struct creader {
	struct zf2fs_vol *vol;
	zf2fs_file_sink sink;
	void *arg;
	uint64_t size, done;
	uint32_t ino, cs;
	uint8_t alg, log;
	uint64_t cluster;      /* the cluster being collected, UINT64_MAX before the first */
	uint32_t *slot;        /* its slots (NULL_ADDR where the walk gave none) */
	uint8_t *cbuf, *rbuf;  /* its blocks as read, and decompressed */
	char *why;
	size_t whylen;
};

static int hole_to(struct creader *r, uint64_t off)
{
	return zf2fs_file_hole_to(r->sink, r->arg, r->size, &r->done, off);
}

static int emit(struct creader *r, uint64_t off, const uint8_t *data, size_t len)
{
	int err = hole_to(r, off);

	if (err || off >= r->size)
		return err;
	if (off + len > r->size)
		len = (size_t)(r->size - off);
	err = r->sink(r->arg, off, data, len);
	r->done = off + len;
	return err;
}

static bool valid_addr(const struct creader *r, uint32_t a)
{
	return a >= r->vol->info.main_blkaddr && a < r->vol->info.main_end;
}

static int flush_cluster(struct creader *r)
{
	const uint32_t bs = r->vol->geom.blocksize;
	const uint64_t base = r->cluster * r->cs * (uint64_t)bs;
	uint32_t n = 0;
	int err = 0;

	if (r->cluster == UINT64_MAX)
		return 0;
	if (r->slot[0] == ZF2FS_COMPRESS_ADDR) {
		while (n + 1 < r->cs && r->slot[n + 1] != ZF2FS_NULL_ADDR &&
		       r->slot[n + 1] != ZF2FS_NEW_ADDR)
			n++;
		if (!n)
			return zf2fs_set_why(r->why, r->whylen, -ZF2FS_EFSCORRUPTED, "inode %u: "
				    "compressed cluster %llu has no data blocks", r->ino,
				    (unsigned long long)r->cluster);
		for (uint32_t k = 0; k < n && !err; k++) {
			if (!valid_addr(r, r->slot[k + 1]))
				return zf2fs_set_why(r->why, r->whylen, -ZF2FS_EFSCORRUPTED, "inode %u: "
					    "cluster %llu: address %u outside the main area", r->ino,
					    (unsigned long long)r->cluster, r->slot[k + 1]);
			err = zf2fs_vol_read_block(r->vol, r->slot[k + 1],
						   r->cbuf + (size_t)k * bs);
		}
		if (!err)
			err = zf2fs_decompress_cluster2(r->vol->geom.log_blocksize, r->alg, r->log,
							r->cbuf, n, r->rbuf);
		if (err)
			return zf2fs_set_why(r->why, r->whylen, err, "inode %u: cluster %llu (%s): %s",
				    r->ino, (unsigned long long)r->cluster,
				    zf2fs_compress_name(r->alg) ? zf2fs_compress_name(r->alg) : "?",
				    err == -ZF2FS_EFSCORRUPTED ? "does not decompress" :
				    err == -EOPNOTSUPP ? "this build cannot decompress it" :
				    strerror(-err));
		return emit(r, base, r->rbuf, (size_t)r->cs * bs);
	}
	for (uint32_t k = 0; k < r->cs && !err; k++) {
		uint32_t a = r->slot[k];

		if (a == ZF2FS_NULL_ADDR || a == ZF2FS_NEW_ADDR)
			continue;   /* reads as zeros */
		if (!valid_addr(r, a))
			return zf2fs_set_why(r->why, r->whylen, -ZF2FS_EFSCORRUPTED, "inode %u: block "
				    "%llu has address %u outside the main area", r->ino,
				    (unsigned long long)(r->cluster * r->cs + k), a);
		err = zf2fs_vol_read_block(r->vol, a, r->cbuf);
		if (!err)
			err = emit(r, base + (uint64_t)k * bs, r->cbuf, bs);
	}
	return err;
}

static int collect(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
		   uint32_t ofs_in_node)
{
	struct creader *r = arg;
	uint64_t c = fofs / r->cs;
	int err;

	(void)owner;
	(void)ofs_in_node;
	if (fofs * r->vol->geom.blocksize >= r->size)
		return 0;   /* past the end */
	if (c != r->cluster) {
		if (r->cluster != UINT64_MAX && c < r->cluster)
			return zf2fs_set_why(r->why, r->whylen, -ZF2FS_EFSCORRUPTED,
				    "inode %u: block tree out of order", r->ino);
		err = flush_cluster(r);
		if (err)
			return err;
		r->cluster = c;
		for (uint32_t k = 0; k < r->cs; k++)
			r->slot[k] = ZF2FS_NULL_ADDR;
	}
	r->slot[fofs % r->cs] = blkaddr;
	return 0;
}

static int bad_node(void *arg, uint32_t nid, uint32_t parent, uint32_t slot, uint32_t ofs,
		    const char *why)
{
	struct creader *r = arg;

	(void)slot;
	return zf2fs_set_why(r->why, r->whylen, -ZF2FS_EFSCORRUPTED, "inode %u: node %u (offset "
		    "%u, below %u): %s", r->ino, nid, ofs, parent, why);
}

int compr_file_read(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
		    const struct zf2fs_inode_geom *g, zf2fs_file_sink sink, void *arg, char *why,
		    size_t whylen)
{
	const struct zf2fs_walk_ops ops = { .data = collect, .bad = bad_node };
	struct creader r = { .vol = vol, .sink = sink, .arg = arg, .why = why, .whylen = whylen,
			     .cluster = UINT64_MAX };
	int err;

	r.ino = (uint32_t)zf2fs_get(zf2fs_node_footer(&vol->geom, inode)->ino);
	r.size = zf2fs_get(inode->i.i_size);
	r.cs = g->cluster_blocks;
	r.log = inode->i.i_log_cluster_size;
	r.alg = inode->i.i_compress_algorithm;
	if (!zf2fs_compress_name(r.alg))
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "inode %u: unknown "
			    "compression algorithm %u", r.ino, r.alg);
	if (inode->i.i_inline & ZF2FS_INLINE_DATA)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "inode %u: compressed and "
			    "inline", r.ino);
	r.slot = malloc(r.cs * sizeof(*r.slot));
	r.cbuf = malloc((size_t)r.cs * vol->geom.blocksize);
	r.rbuf = malloc((size_t)r.cs * vol->geom.blocksize);
	err = r.slot && r.cbuf && r.rbuf ? 0 : -ENOMEM;
	if (!err)
		err = zf2fs_file_walk(vol, inode, &ops, &r);
	if (!err)
		err = flush_cluster(&r);
	if (!err)
		err = hole_to(&r, r.size);
	free(r.slot);
	free(r.cbuf);
	free(r.rbuf);
	return err;
}
