// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump_file.c - dump.f2fs views of files: an inode with its node tree and block map (-i),
 * the owner of any block (-b), directory listings and a whole-tree walk by path (--ls,
 * --tree), and file contents (--cat, -i with -o).
 *
 * Contents and path lookup come from the library (lib/read/file_read.c); this file only
 * decides what to print and where the bytes go.  A node or directory entry that does not
 * check out is reported as damage and the view goes on with what remains.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "zf2fs-internal/volume.h"
#include "dump.h"

#define TREE_MAX_DEPTH 4096

const char *dump_ftype_name(unsigned type)
{
	static const char *const names[] = {
		"unknown", "regular", "directory", "chardev", "blockdev", "fifo", "socket",
		"symlink",
	};

	return type < ZF2FS_FT_MAX ? names[type] : "invalid";
}

static const char *mode_type(uint32_t mode)
{
	switch (zf2fs_mode_type(mode)) {
	case ZF2FS_S_IFREG: return "regular";
	case ZF2FS_S_IFDIR: return "directory";
	case ZF2FS_S_IFLNK: return "symlink";
	case ZF2FS_S_IFCHR: return "chardev";
	case ZF2FS_S_IFBLK: return "blockdev";
	case ZF2FS_S_IFIFO: return "fifo";
	case ZF2FS_S_IFSOCK: return "socket";
	default: return "invalid";
	}
}

static const char *node_kind(const struct zf2fs_geom *g, uint32_t ofs)
{
	const uint32_t dind = zf2fs_geom_ofs_dind(g);

	if (ofs == 0)
		return "inode";
	if (ofs == ZF2FS_OFS_DIR1 || ofs == ZF2FS_OFS_DIR2)
		return "direct";
	if (ofs == ZF2FS_OFS_IND1 || ofs == zf2fs_geom_ofs_ind2(g))
		return "indirect";
	if (ofs == dind)
		return "double_indirect";
	if (ofs > dind && (ofs - dind - 1) % (g->nids_per_block + 1) == 0)
		return "indirect";
	return "direct";
}

static int read_inode(struct dump_ctx *c, uint32_t ino, struct zf2fs_node *n, uint32_t *addr)
{
	char why[256];
	int err = zf2fs_inode_read(c->vol, ino, n, addr, why, sizeof(why));

	if (err == -ZF2FS_EFSCORRUPTED)
		dump_damage(c, "%s", why);
	else if (err)
		dump_error("%s", why);
	return err;
}

/* ---- -i ------------------------------------------------------------------------------- */
struct imap {
	struct dump_ctx *c;
};

static int imap_node(void *arg, uint32_t nid, uint32_t blkaddr, const struct zf2fs_node *node,
		     uint32_t ofs, uint32_t parent, uint32_t slot)
{
	struct dump_ctx *c = ((struct imap *)arg)->c;
	struct out *o = &c->out;

	(void)node;
	(void)slot;
	out_row(o);
	out_u(o, "nid", nid);
	out_u(o, "blkaddr", blkaddr);
	out_u(o, "ofs", ofs);
	out_s(o, "kind", node_kind(c->g, ofs));
	out_u(o, "parent", parent);
	out_row_end(o);
	return 0;
}

static int imap_data(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
		     uint32_t ofs_in_node)
{
	struct out *o = &((struct imap *)arg)->c->out;

	out_row(o);
	out_u(o, "fofs", fofs);
	out_u(o, "blkaddr", blkaddr);
	out_u(o, "owner", owner);
	out_u(o, "ofs_in_node", ofs_in_node);
	out_row_end(o);
	return 0;
}

static int imap_bad(void *arg, uint32_t nid, uint32_t parent, uint32_t slot, uint32_t ofs,
		    const char *why)
{
	(void)slot;
	struct dump_ctx *c = ((struct imap *)arg)->c;

	dump_damage(c, "node %u (offset %u below %u): %s", nid, ofs, parent, why);
	return 0;
}

void dump_inode_fields(struct dump_ctx *c, const struct zf2fs_node *n)
{
	const struct zf2fs_inode *in = &n->i;
	const struct zf2fs_node_footer *footer = zf2fs_node_footer(c->g, n);
	struct out *o = &c->out;
	struct zf2fs_inode_geom g;
	uint32_t namelen = (uint32_t)zf2fs_get(in->i_namelen);
	uint64_t v[ZF2FS_NIDS_PER_INODE];

	out_x(o, "i_mode", zf2fs_get(in->i_mode));
	out_s(o, "type", mode_type((uint32_t)zf2fs_get(in->i_mode)));
	out_x(o, "i_advise", in->i_advise);
	out_x(o, "i_inline", in->i_inline);
	out_u(o, "i_uid", zf2fs_get(in->i_uid));
	out_u(o, "i_gid", zf2fs_get(in->i_gid));
	out_u(o, "i_links", zf2fs_get(in->i_links));
	out_u(o, "i_size", zf2fs_get(in->i_size));
	out_u(o, "i_blocks", zf2fs_get(in->i_blocks));
	out_u(o, "i_atime", zf2fs_get(in->i_atime));
	out_u(o, "i_atime_nsec", zf2fs_get(in->i_atime_nsec));
	out_u(o, "i_ctime", zf2fs_get(in->i_ctime));
	out_u(o, "i_ctime_nsec", zf2fs_get(in->i_ctime_nsec));
	out_u(o, "i_mtime", zf2fs_get(in->i_mtime));
	out_u(o, "i_mtime_nsec", zf2fs_get(in->i_mtime_nsec));
	out_u(o, "i_generation", zf2fs_get(in->i_generation));
	out_u(o, "i_current_depth", zf2fs_get(in->i_current_depth));
	out_u(o, "i_xattr_nid", zf2fs_get(in->i_xattr_nid));
	out_x(o, "i_flags", zf2fs_get(in->i_flags));
	dump_bit_list(o, "i_flag_names", (uint32_t)zf2fs_get(in->i_flags), zf2fs_inode_flag_name);
	out_u(o, "i_pino", zf2fs_get(in->i_pino));
	out_u(o, "i_namelen", namelen);
	if (namelen > ZF2FS_NAME_LEN) {
		dump_damage(c, "inode %llu: i_namelen %u exceeds %d",
			    (unsigned long long)zf2fs_get(footer->ino), namelen, ZF2FS_NAME_LEN);
		namelen = ZF2FS_NAME_LEN;
	}
	dump_out_name(o, "i_name", in->i_name, namelen, dump_iname_encrypted(c, n));
	out_u(o, "i_dir_level", in->i_dir_level);
	out_u(o, "i_ext_fofs", zf2fs_get(in->i_ext.fofs));
	out_u(o, "i_ext_blkaddr", zf2fs_get(in->i_ext.blk));
	out_u(o, "i_ext_len", zf2fs_get(in->i_ext.len));
	if (in->i_inline & ZF2FS_EXTRA_ATTR) {
		out_u(o, "i_extra_isize", zf2fs_get(in->i_extra_isize));
		if (c->info->features & ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR)
			out_u(o, "i_inline_xattr_size", zf2fs_get(in->i_inline_xattr_size));
		if (c->info->features & ZF2FS_FEAT_PRJQUOTA)
			out_u(o, "i_projid", zf2fs_get(in->i_projid));
		if (c->info->features & ZF2FS_FEAT_INODE_CHKSUM) {
			uint32_t want = zf2fs_inode_checksum2(c->g,
				zf2fs_checksum_seed(zf2fs_vol_super(c->vol)->uuid), n);

			out_x(o, "i_inode_checksum", zf2fs_get(in->i_inode_checksum));
			out_b(o, "i_inode_checksum_ok", want == zf2fs_get(in->i_inode_checksum));
		}
		if (c->info->features & ZF2FS_FEAT_INODE_CRTIME) {
			out_u(o, "i_crtime", zf2fs_get(in->i_crtime));
			out_u(o, "i_crtime_nsec", zf2fs_get(in->i_crtime_nsec));
		}
		if (c->info->features & ZF2FS_FEAT_COMPRESSION) {
			out_u(o, "i_compr_blocks", zf2fs_get(in->i_compr_blocks));
			out_u(o, "i_compress_algorithm", in->i_compress_algorithm);
			out_u(o, "i_log_cluster_size", in->i_log_cluster_size);
			out_x(o, "i_compress_flag", zf2fs_get(in->i_compress_flag));
		}
	}
	for (int i = 0; i < ZF2FS_NIDS_PER_INODE; i++)
		v[i] = zf2fs_le32_to_cpu(zf2fs_inode_nids(c->g, n)[i]);
	out_u_array(o, "i_nid", v, ZF2FS_NIDS_PER_INODE);
	out_obj(o, "footer");
	out_u(o, "nid", zf2fs_get(footer->nid));
	out_u(o, "ino", zf2fs_get(footer->ino));
	out_u(o, "ofs", zf2fs_node_ofs(c->g, n));
	out_x(o, "flag", zf2fs_get(footer->flag));
	out_x(o, "cp_ver", zf2fs_get(footer->cp_ver));
	out_u(o, "next_blkaddr", zf2fs_get(footer->next_blkaddr));
	out_obj_end(o);
	if (zf2fs_inode_geometry2(c->g, in, c->info->features, &g)) {
		dump_damage(c, "inode %llu: extra attribute or inline xattr size is impossible",
			    (unsigned long long)zf2fs_get(footer->ino));
		return;
	}
	out_obj(o, "geometry");
	out_u(o, "extra_words", g.extra_words);
	out_u(o, "inline_xattr_words", g.xattr_words);
	out_u(o, "addrs", g.addrs);
	out_u(o, "addrs_per_block", g.addrs_per_block);
	out_u(o, "inline_bytes", g.inline_bytes);
	out_b(o, "compressed", g.compressed);
	out_obj_end(o);
}

int dump_inode(struct dump_ctx *c, uint32_t ino)
{
	const struct zf2fs_walk_ops ops = { .node = imap_node, .data = imap_data,
					    .bad = imap_bad };
	struct out *o = &c->out;
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
	struct imap m = { .c = c };
	uint32_t addr;
	int err;

	if (!n)
		return -ENOMEM;
	err = read_inode(c, ino, n, &addr);
	if (err)
		goto out;
	out_obj(o, NULL);
	out_u(o, "ino", ino);
	out_u(o, "blkaddr", addr);
	dump_inode_fields(c, n);
	if (n->i.i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY)) {
		out_s(o, "layout", n->i.i_inline & ZF2FS_INLINE_DATA ? "inline_data" :
		      "inline_dentry");
	} else {
		out_s(o, "layout", "blocks");
		/* nodes first, then the block map: two walks keep each list contiguous */
		const struct zf2fs_walk_ops nodes_only = { .node = imap_node, .bad = imap_bad };
		const struct zf2fs_walk_ops data_only = { .data = imap_data };

		(void)ops;
		out_list(o, "nodes");
		err = zf2fs_file_walk(c->vol, n, &nodes_only, &m);
		out_list_end(o);
		out_list(o, "blocks");
		if (!err)
			err = zf2fs_file_walk(c->vol, n, &data_only, &m);
		out_list_end(o);
		if (err)
			dump_error("%s: while walking the blocks of inode %u", strerror(
				   err == -ZF2FS_EFSCORRUPTED ? EUCLEAN : -err), ino);
	}
	out_obj_end(o);
	if (!err && c->outpath)
		err = dump_extract(c, ino, c->outpath, NULL);
out:
	free(n);
	return err;
}

/* ---- extraction ------------------------------------------------------------------------- */
struct sink {
	int fd;
	bool seekable, sparse;
	uint64_t size;
	uint8_t *zeros;
};

static int write_all(int fd, const void *buf, size_t len, bool at, uint64_t off)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t w = at ? pwrite(fd, p, len, (off_t)off) : write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		len -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

static int sink_fn(void *arg, uint64_t off, const void *data, size_t len)
{
	struct sink *s = arg;
	int err;

	if (data)
		return write_all(s->fd, data, len, s->seekable, off);
	if (s->sparse && s->seekable)
		return 0;    /* the hole stays a hole; ftruncate sets the size at the end */
	while (len) {
		size_t n = len < ZF2FS_BLKSIZE ? len : ZF2FS_BLKSIZE;

		err = write_all(s->fd, s->zeros, n, s->seekable, off);
		if (err)
			return err;
		off += n;
		len -= n;
	}
	return 0;
}

/* An encrypted inode's data as stored, for --raw-encrypted: a copy of @n without its
 * encryption flag, which is all that makes the library refuse to read it (the blocks are
 * read as they are; nothing is decrypted).  NULL with *@err set when that cannot be. */
static struct zf2fs_node *raw_view(const struct zf2fs_geom *g, const struct zf2fs_node *n,
				   const char *name, int *err)
{
	struct zf2fs_node *raw;

	if (zf2fs_get(n->i.i_flags) & ZF2FS_COMPR_FL) {
		/* its clusters are compressed, then encrypted: no block is its bytes */
		dump_error("%s: inode %llu is encrypted and compressed: no raw copy of its "
			   "clusters is made", name,
			   (unsigned long long)zf2fs_get(zf2fs_node_footer(g, n)->ino));
		*err = -EOPNOTSUPP;
		return NULL;
	}
	raw = malloc(g->blocksize);
	if (!raw) {
		*err = -ENOMEM;
		return NULL;
	}
	memcpy(raw, n, g->blocksize);
	raw->i.i_advise &= (uint8_t)~ZF2FS_ADVISE_ENCRYPT;
	return raw;
}

int dump_write_contents(struct dump_ctx *c, const struct zf2fs_node *n, int fd, const char *name)
{
	struct sink s = { .fd = fd, .sparse = c->sparse, .size = zf2fs_get(n->i.i_size) };
	struct zf2fs_node *raw = NULL;
	struct stat st;
	char why[256];
	int err = 0;

	if (c->raw_encrypted && dump_inode_encrypted(n)) {
		raw = raw_view(c->g, n, name, &err);
		if (!raw)
			return err;
		n = raw;
	}
	s.zeros = calloc(1, ZF2FS_BLKSIZE);
	if (!s.zeros) {
		free(raw);
		return -ENOMEM;
	}
	s.seekable = fd != STDOUT_FILENO && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	err = zf2fs_file_read(c->vol, n, sink_fn, &s, why, sizeof(why));
	if (err == -ZF2FS_EFSCORRUPTED) {
		dump_damage(c, "%s", why);
	} else if (err > 0 || err == -EIO || err == -ENOSPC || err == -EPIPE ||
		   err == -EFBIG || err == -EDQUOT) {
		dump_error("%s: while writing %s", strerror(err > 0 ? err : -err), name);
	} else if (err) {
		dump_error("%s", why);
	}
	if (!err && s.seekable && ftruncate(fd, (off_t)s.size)) {
		err = -errno;
		dump_error("%s: while setting the size of %s", strerror(errno), name);
	}
	free(s.zeros);
	free(raw);
	return err;
}

int dump_extract(struct dump_ctx *c, uint32_t ino, const char *path, const char *what)
{
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
	int err;

	if (!n)
		return -ENOMEM;
	err = read_inode(c, ino, n, NULL);
	if (!err)
		err = dump_extract_node(c, n, ino, path, what);
	free(n);
	return err;
}

int dump_extract_node(struct dump_ctx *c, const struct zf2fs_node *n, uint32_t ino,
		      const char *path, const char *what)
{
	char *target = NULL;
	struct stat st;
	int fd = -1, err = 0;

	if (dump_inode_encrypted(n) && !c->raw_encrypted &&
	    zf2fs_inode_type(&n->i) != ZF2FS_S_IFDIR) {
		dump_error("%s%sinode %u is encrypted: its contents need the key "
			   "(--raw-encrypted writes the ciphertext)", what ? what : "",
			   what ? ": " : "", ino);
		err = -EOPNOTSUPP;
		goto out;
	}
	if (strcmp(path, "-") == 0) {
		fd = STDOUT_FILENO;
		fflush(stdout);
		path = "standard output";
	} else {
		/* an existing directory receives the file under its own name (f2fs-tools) */
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			uint32_t nl = (uint32_t)zf2fs_get(n->i.i_namelen);
			const void *name = n->i.i_name;
			char enc[ZF2FS_ENC_NAME_MAX];

			if (nl && nl <= ZF2FS_NAME_LEN && dump_iname_encrypted(c, n)) {
				/* ciphertext: named as the views show it */
				nl = (uint32_t)zf2fs_enc_name(n->i.i_name, nl, enc);
				nl = (uint32_t)dump_host_name(enc, nl, enc);
				name = enc;
			}
			if (nl == 0 || nl > ZF2FS_NAME_LEN || memchr(name, '/', nl)) {
				dump_error("inode %u has no usable name to extract under %s", ino,
					   path);
				err = -EINVAL;
				goto out;
			}
			target = malloc(strlen(path) + nl + 2);
			if (!target) {
				err = -ENOMEM;
				goto out;
			}
			sprintf(target, "%s/%.*s", path, (int)nl, (const char *)name);
			path = target;
		}
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			err = -errno;
			dump_error("%s: while creating %s", strerror(errno), path);
			goto out;
		}
	}
	err = dump_write_contents(c, n, fd, path);
	/* -P (f2fs-tools): the copy gets the inode's owner and mode */
	if (!err && c->preserve_owner && fd != STDOUT_FILENO &&
	    (fchown(fd, (uid_t)zf2fs_get(n->i.i_uid), (gid_t)zf2fs_get(n->i.i_gid)) ||
	     fchmod(fd, (mode_t)(zf2fs_get(n->i.i_mode) & 07777)))) {
		err = -errno;
		dump_error("%s: while setting the owner and mode of %s", strerror(errno), path);
	}
out:
	if (fd >= 0 && fd != STDOUT_FILENO && close(fd) && !err) {
		err = -errno;
		dump_error("%s: while closing %s", strerror(errno), path);
	}
	free(target);
	return err;
}

int dump_cat(struct dump_ctx *c, const char *path)
{
	char why[256];
	uint32_t ino;
	int err = zf2fs_path_lookup(c->vol, path, ZF2FS_LOOKUP_FOLLOW, &ino, why, sizeof(why));

	if (err) {
		dump_error("%s: %s", path, why);
		return err;
	}
	return dump_extract(c, ino, c->outpath ? c->outpath : "-", path);
}

/* ---- -b ------------------------------------------------------------------------------- */
static void block_owner_name(struct dump_ctx *c, uint32_t ino)
{
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
	char why[256];

	if (n && !zf2fs_inode_read(c->vol, ino, n, NULL, why, sizeof(why))) {
		uint32_t nl = (uint32_t)zf2fs_get(n->i.i_namelen);

		dump_out_name(&c->out, "name", n->i.i_name, nl > ZF2FS_NAME_LEN ? ZF2FS_NAME_LEN : nl,
			      dump_iname_encrypted(c, n));
	}
	free(n);
}

static int block_main(struct dump_ctx *c, uint64_t blkaddr)
{
	struct out *o = &c->out;
	uint64_t segno = zf2fs_main_segno(c->info->main_blkaddr, blkaddr);
	unsigned off = zf2fs_main_seg_off(c->info->main_blkaddr, blkaddr);
	struct zf2fs_summary_block *sum = malloc(c->g->sum_blocksize);
	struct zf2fs_node *node = malloc(c->g->blocksize), *inode = malloc(c->g->blocksize);
	const struct zf2fs_node_footer *footer = node ? zf2fs_node_footer(c->g, node) : NULL;
	struct zf2fs_sit_entry ent;
	const struct zf2fs_sit_entry *se = &ent;
	const struct zf2fs_summary *e;
	uint32_t nid;
	char why[256];
	int err;

	if (!sum || !node || !inode) {
		err = -ENOMEM;
		goto out;
	}
	err = dump_sit_entry(c, segno, &ent);
	if (err)
		goto out;
	out_u(o, "segno", segno);
	out_u(o, "offset", off);
	out_s(o, "segment_type", zf2fs_log_name(zf2fs_sit_type(se)));
	out_b(o, "valid", zf2fs_sit_block_valid(se, (uint32_t)off));
	err = zf2fs_vol_segment_summary(c->vol, (uint32_t)segno, sum);
	if (err == -ENODATA) {
		/* a read-only volume keeps the summaries of its two logs only */
		out_null(o, "summary_type");
		err = 0;
		goto out;
	}
	if (err) {
		dump_error("%s: while reading the summary of segment %llu", strerror(-err),
			   (unsigned long long)segno);
		goto out;
	}
	e = zf2fs_sum_entries(sum) + off;
	nid = (uint32_t)zf2fs_get(e->nid);
	out_s(o, "summary_type", zf2fs_sum_footer(c->g, sum)->entry_type == ZF2FS_SUM_TYPE_NODE ?
	      "node" : "data");
	out_u(o, "summary_nid", nid);
	out_u(o, "summary_version", e->version);
	out_u(o, "summary_ofs_in_node", zf2fs_get(e->ofs_in_node));
	if (zf2fs_sum_footer(c->g, sum)->entry_type == ZF2FS_SUM_TYPE_NODE) {
		struct zf2fs_nat_info ni;
		uint32_t ofs;

		err = zf2fs_vol_read_block(c->vol, blkaddr, node);
		if (err)
			goto out;
		ofs = zf2fs_node_ofs(c->g, node);
		out_s(o, "kind", "node");
		out_u(o, "nid", zf2fs_get(footer->nid));
		out_u(o, "ino", zf2fs_get(footer->ino));
		out_u(o, "node_ofs", ofs);
		out_s(o, "node_kind", node_kind(c->g, ofs));
		if (!zf2fs_vol_nat_lookup(c->vol, (uint32_t)zf2fs_get(footer->nid), &ni)) {
			out_u(o, "nat_blkaddr", ni.blkaddr);
			out_b(o, "live", ni.blkaddr == blkaddr);
		}
		if (zf2fs_get(footer->nid) != nid)
			dump_damage(c, "block %llu: summary says node %u, the footer says %llu",
				    (unsigned long long)blkaddr, nid,
				    (unsigned long long)zf2fs_get(footer->nid));
		block_owner_name(c, (uint32_t)zf2fs_get(footer->ino));
	} else {
		struct zf2fs_inode_geom g;
		uint32_t ofs, slot = (uint32_t)zf2fs_get(e->ofs_in_node), ino, addr;

		out_s(o, "kind", "data");
		if (!nid) {
			out_b(o, "live", false);
			goto out;
		}
		err = zf2fs_vol_read_node(c->vol, nid, node, NULL, why, sizeof(why));
		if (err) {
			out_b(o, "live", false);
			out_s(o, "problem", why);
			err = 0;
			goto out;
		}
		ino = (uint32_t)zf2fs_get(footer->ino);
		ofs = zf2fs_node_ofs(c->g, node);
		out_u(o, "nid", nid);
		out_u(o, "ino", ino);
		out_u(o, "node_ofs", ofs);
		out_s(o, "node_kind", node_kind(c->g, ofs));
		err = zf2fs_inode_read(c->vol, ino, inode, NULL, why, sizeof(why));
		if (!err && zf2fs_inode_geometry2(c->g, &inode->i, c->info->features, &g))
			err = -ZF2FS_EFSCORRUPTED;
		if (err) {
			out_s(o, "problem", why);
			err = 0;
			goto out;
		}
		if (ofs == 0)
			addr = slot < g.addrs ?
			       zf2fs_le32_to_cpu(zf2fs_inode_addrs(node)[g.extra_words + slot]) : 0;
		else
			addr = slot < c->g->addrs_per_block ?
			       zf2fs_le32_to_cpu(zf2fs_node_words(node)[slot]) : 0;
		out_u(o, "fofs", zf2fs_node_fofs2(c->g, &g, ofs, slot));
		out_b(o, "live", addr == blkaddr);
		block_owner_name(c, ino);
	}
out:
	free(sum);
	free(node);
	free(inode);
	return err;
}

int dump_block(struct dump_ctx *c, uint64_t blkaddr)
{
	const struct zf2fs_super *sb = zf2fs_vol_super(c->vol);
	const struct zf2fs_vol_info *in = c->info;
	struct out *o = &c->out;
	uint32_t idx, off;
	unsigned copy;
	int err = 0;

	out_obj(o, NULL);
	out_u(o, "blkaddr", blkaddr);
	if (blkaddr < zf2fs_get(sb->segment0_blkaddr)) {
		out_s(o, "area", blkaddr == 0 ? "superblock" : "reserved");
	} else if (zf2fs_vol_cp_block_of(c->vol, blkaddr, &copy, &off)) {
		out_s(o, "area", "checkpoint");
		out_u(o, "pack", copy);
		out_u(o, "pack_offset", off);
	} else if (zf2fs_vol_sit_block_of(c->vol, blkaddr, &idx, &copy)) {
		out_s(o, "area", "sit");
		out_u(o, "copy", copy);
		out_u(o, "sit_block", idx);
		out_u(o, "first_segno", (uint64_t)idx * c->g->sit_per_block);
		out_b(o, "live", zf2fs_vol_sit_block_addr(c->vol, idx) == blkaddr);
	} else if (zf2fs_vol_nat_block_of(c->vol, blkaddr, &idx, &copy)) {
		out_s(o, "area", "nat");
		out_u(o, "copy", copy);
		out_u(o, "nat_block", idx);
		out_u(o, "first_nid", (uint64_t)idx * c->g->nat_per_block);
		out_b(o, "live", idx < in->nat_blocks &&
		      zf2fs_vol_nat_block_addr(c->vol, idx) == blkaddr);
	} else if (zf2fs_vol_ssa_block_of(c->vol, blkaddr, &idx)) {
		out_s(o, "area", "ssa");
		out_u(o, "segno", idx);
	} else if (blkaddr < in->main_end) {
		out_s(o, "area", "main");
		err = block_main(c, blkaddr);
	} else {
		out_s(o, "area", "beyond");
		dump_error("block %llu is beyond the main area (which ends at %llu)",
			   (unsigned long long)blkaddr, (unsigned long long)in->main_end);
		err = -ERANGE;
	}
	out_obj_end(o);
	return err;
}

/* ---- --ls and --tree ---------------------------------------------------------------- */
static void entry_fields(struct dump_ctx *c, uint32_t ino)
{
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
	struct out *o = &c->out;
	char why[256];

	if (n && !zf2fs_inode_read(c->vol, ino, n, NULL, why, sizeof(why))) {
		out_x(o, "mode", zf2fs_get(n->i.i_mode));
		out_u(o, "links", zf2fs_get(n->i.i_links));
		out_u(o, "size", zf2fs_get(n->i.i_size));
		out_u(o, "blocks", zf2fs_get(n->i.i_blocks));
		out_u(o, "mtime", zf2fs_get(n->i.i_mtime));
	} else if (n) {
		dump_damage(c, "%s", why);
		out_s(o, "problem", why);
	}
	free(n);
}

struct ls {
	struct dump_ctx *c;
	dump_visit_fn visit;    /* a walk's own use of each entry; NULL: --tree's rows */
	void *visit_arg;
	uint8_t *seen;          /* --tree: directories visited, one bit per nid */
	bool enc;               /* the directory being listed is encrypted */
	char *path;
	size_t len;
	int depth;
};

static int ls_bad(void *arg, int64_t block, uint32_t slot, const char *why)
{
	struct ls *l = arg;

	dump_damage(l->c, "directory %s: dentry block %lld slot %u: %s", l->path[0] ? l->path :
		    "/", (long long)block, slot, why);
	return 0;
}

static int ls_entry(void *arg, const struct zf2fs_dentry_info *d)
{
	struct ls *l = arg;
	struct out *o = &l->c->out;

	out_row(o);
	dump_out_name(o, "name", d->name, d->name_len,
		      l->enc && !dump_is_dot(d->name, d->name_len));
	out_u(o, "ino", d->ino);
	out_s(o, "type", dump_ftype_name(d->type));
	out_x(o, "hash", d->hash);
	out_i(o, "dentry_block", d->block);
	out_u(o, "slot", d->slot);
	if (!(d->name_len == 1 && d->name[0] == '.') &&
	    !(d->name_len == 2 && d->name[0] == '.' && d->name[1] == '.'))
		entry_fields(l->c, d->ino);
	out_row_end(o);
	return 0;
}

int dump_ls(struct dump_ctx *c, const char *path)
{
	struct zf2fs_node *n = malloc(ZF2FS_BLKSIZE_MAX);
	struct ls l = { .c = c, .path = (char *)path };
	struct out *o = &c->out;
	char why[256];
	uint32_t ino;
	int err;

	if (!n)
		return -ENOMEM;
	err = zf2fs_path_lookup(c->vol, path, ZF2FS_LOOKUP_FOLLOW, &ino, why, sizeof(why));
	if (err) {
		dump_error("%s: %s", path, why);
		goto out;
	}
	err = read_inode(c, ino, n, NULL);
	if (err)
		goto out;
	l.enc = dump_dir_encrypted(n);
	out_obj(o, NULL);
	out_s(o, "path", path);
	out_u(o, "ino", ino);
	out_s(o, "type", mode_type((uint32_t)zf2fs_get(n->i.i_mode)));
	out_list(o, "entries");
	if (zf2fs_inode_type(&n->i) == ZF2FS_S_IFDIR) {
		err = zf2fs_dir_iterate(c->vol, n, ls_entry, ls_bad, &l);
		if (err)
			dump_error("%s: while listing %s", strerror(err == -ZF2FS_EFSCORRUPTED ?
				   EUCLEAN : -err), path);
	} else {
		const char *base = strrchr(path, '/');

		out_row(o);
		out_s(o, "name", base ? base + 1 : path);
		out_u(o, "ino", ino);
		out_s(o, "type", mode_type((uint32_t)zf2fs_get(n->i.i_mode)));
		entry_fields(c, ino);
		out_row_end(o);
	}
	out_list_end(o);
	out_obj_end(o);
out:
	free(n);
	return err;
}

static int tree_dir(struct ls *l, uint32_t ino);

static int tree_entry(void *arg, const struct zf2fs_dentry_info *d)
{
	struct ls *l = arg;
	struct out *o = &l->c->out;
	size_t old = l->len, nlen = d->name_len;
	const void *name = d->name;
	char enc[ZF2FS_ENC_NAME_MAX];
	bool encname = l->enc;
	char *p;
	int err = 0;

	if (dump_is_dot(d->name, d->name_len))
		return 0;
	if (encname) {
		nlen = zf2fs_enc_name(d->name, d->name_len, enc);
		name = enc;
	}
	p = realloc(l->path, l->len + nlen + 2);
	if (!p)
		return -ENOMEM;
	l->path = p;
	l->path[l->len++] = '/';
	memcpy(l->path + l->len, name, nlen);
	l->len += nlen;
	l->path[l->len] = 0;
	if (l->visit) {
		err = l->visit(l->visit_arg, l->path, d, encname);
	} else {
		out_row(o);
		out_sn(o, "path", l->path, l->len);
		out_u(o, "ino", d->ino);
		out_s(o, "type", dump_ftype_name(d->type));
		entry_fields(l->c, d->ino);
		out_row_end(o);
	}
	if (!err && d->type == ZF2FS_FT_DIR)
		err = tree_dir(l, d->ino);
	l->len = old;
	l->path[l->len] = 0;
	return err;
}

static int tree_dir(struct ls *l, uint32_t ino)
{
	struct zf2fs_node *n;
	char why[256];
	bool outer;             /* the enclosing directory's l->enc, back after this one */
	int err;

	if (ino >= l->c->info->max_nid) {
		dump_damage(l->c, "%s: inode number %u is beyond the NAT", l->path, ino);
		return 0;
	}
	if (zf2fs_lbit_test(l->seen, ino)) {
		dump_damage(l->c, "%s: directory %u was already listed (a directory loop or a "
			    "hard-linked directory)", l->path, ino);
		return 0;
	}
	if (l->depth >= TREE_MAX_DEPTH) {
		dump_damage(l->c, "%s: deeper than %d levels, not descending", l->path,
			    TREE_MAX_DEPTH);
		return 0;
	}
	zf2fs_lbit_set(l->seen, ino);
	n = malloc(ZF2FS_BLKSIZE_MAX);
	if (!n)
		return -ENOMEM;
	err = zf2fs_inode_read(l->c->vol, ino, n, NULL, why, sizeof(why));
	if (err) {
		dump_damage(l->c, "%s", why);
		free(n);
		return 0;
	}
	outer = l->enc;
	l->enc = dump_dir_encrypted(n);
	l->depth++;
	err = zf2fs_dir_iterate(l->c->vol, n, tree_entry, ls_bad, l);
	l->depth--;
	l->enc = outer;
	free(n);
	if (err == -ZF2FS_EFSCORRUPTED) {
		dump_damage(l->c, "%s: the directory's block tree is damaged", l->path);
		err = 0;
	}
	return err;
}

int dump_walk_paths(struct dump_ctx *c, uint32_t ino, dump_visit_fn fn, void *arg)
{
	struct ls l = { .c = c, .visit = fn, .visit_arg = arg };
	int err;

	l.seen = calloc(c->info->max_nid / 8 + 1, 1);
	l.path = malloc(1);
	if (!l.seen || !l.path) {
		free(l.seen);
		free(l.path);
		return -ENOMEM;
	}
	l.path[0] = 0;
	err = tree_dir(&l, ino);
	free(l.seen);
	free(l.path);
	return err;
}

int dump_tree(struct dump_ctx *c, const char *path)
{
	struct out *o = &c->out;
	char why[256];
	uint32_t ino;
	int err;

	err = zf2fs_path_lookup(c->vol, path, ZF2FS_LOOKUP_FOLLOW, &ino, why, sizeof(why));
	if (err) {
		dump_error("%s: %s", path, why);
		return err;
	}
	out_obj(o, "tree");
	out_s(o, "root", path[0] ? path : "/");
	out_u(o, "ino", ino);
	out_list(o, "entries");
	err = dump_walk_paths(c, ino, NULL, NULL);
	out_list_end(o);
	out_obj_end(o);
	if (err)
		dump_error("%s: while walking the tree", strerror(-err));
	return err;
}
