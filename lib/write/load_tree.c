// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * load_tree.c - copy a host directory tree into a volume (include/zf2fs/load.h).
 *
 * Two passes.  The walk lists every path of the source depth first, each directory's
 * names sorted bytewise (never by locale), checks what the format cannot hold and
 * estimates the blocks it needs, so that a refusal comes before any write.  The load
 * then creates the entries in that order through one transaction, and last sets every
 * directory's permissions, owner and times (adding an entry stamps a directory with the
 * transaction's time).  Every BATCH_BLOCKS queued blocks or BATCH_INODES inodes the
 * transaction is flushed (zf2fs_txn_flush): the blocks go to free sections and leave
 * memory, but no checkpoint is written until the one commit at the end.  So a load
 * interrupted at any write, however large, leaves the old volume or the whole new tree,
 * never part of it; one that runs out of space on the way fails leaving the old volume.
 * Hard links are found by the source's device and inode numbers.  Nothing random and
 * nothing from the host's clock goes in: the same tree and options give the same volume.
 */
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#ifdef HAVE_LINUX_FS_H
#include <linux/fs.h>
#endif

#include "zf2fs/zf2fs.h"
#include "zf2fs/compress.h"
#include "zf2fs/endian.h"
#include "zf2fs/file.h"
#include "zf2fs/load.h"
#include "zf2fs/txn.h"
#include "zf2fs/txn_file.h"
#include "zf2fs-internal/compress.h"
#include "zf2fs-internal/commit.h"
#include "zf2fs-internal/load.h"
#include "zf2fs-internal/volume.h"
#include "write/txn_p.h"
#include "write/load_p.h"

#define BATCH_BLOCKS 16384u   /* 64 MiB of queued blocks in memory at most... */
#define BATCH_INODES 4096u    /* ...and the blocks of this many inodes */
#define READ_CHUNK   (256u * 1024u)
#define NO_ENTRY     SIZE_MAX

struct lentry {
	char *path;               /* host path */
	const char *name;         /* last component, inside @path */
	size_t parent;            /* index of the parent directory's entry */
	size_t first;             /* first entry of the same source inode (hard links) */
	struct stat st;
	uint32_t ino;             /* in the volume, once created */
	uint32_t xattr_bytes;     /* its xattr area (XATTR_TOO_BIG: more than any volume's) */
	struct load_meta_res meta;   /* fs_config, file_contexts */
};

struct session {
	const char *const *paths;        /* the volume's devices by path... */
	struct zf2fs_dev *const *devs;   /* ...or opened by the caller */
	unsigned npaths;
	const char *name;                /* the first device, for messages */
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn;
	uint64_t commits, flushes;
	uint64_t flushed_blocks, flushed_inodes;   /* zf2fs_txn_usage at the last flush */
	uint32_t batch_blocks, batch_inodes;       /* flush at these */
	struct zf2fs_geom check_g;       /* check only, for a volume of these blocks */
	zf2fs_load_progress_fn progress; /* may be NULL */
	void *progress_arg;
};

struct loader {
	const struct zf2fs_load_opts *o;
	const struct zf2fs_log *log;
	struct lentry *e;
	size_t n, cap;
	uint64_t est_blocks;
	uint64_t min_blocks;    /* what the load takes at the least (check_room) */
	uint64_t xattr_nodes;   /* entries whose xattrs need a node */
	uint8_t *buf;
	struct xattrs *xa;
	struct session *s;
	const struct zf2fs_geom *g;   /* the volume's block size (4 KiB before it is open) */
	uint64_t now;
	struct load_meta *meta;   /* NULL without fs_config and file_contexts */
	bool projids;             /* -P on a volume with project quotas */
	uint8_t *cin, *cout;      /* -c: a cluster, and its compressed form */
	uint8_t alg;              /* -c: the algorithm's number */
	uint32_t min_saved;       /* -c: blocks a compressed cluster saves at least */
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- extended attributes ----------------------------------------------------------
 * The walk reads each entry's xattrs before the volume is open, so up to the room of the
 * largest block (XATTR_ROOM_MAX), and keeps their size; the volume's own room
 * (zf2fs_xattr_max_bytes of its geometry) is checked once it is open, before anything
 * is written (check_xattr_room). */
#define XATTR_ROOM_MAX (ZF2FS_INLINE_XATTR_ADDRS * 4u + ZF2FS_BLKSIZE_MAX)
#define XATTR_TOO_BIG  UINT32_MAX

struct xattrs {
	struct zf2fs_txn_xattr x[256];
	size_t n;
	bool too_big;           /* more names, or longer ones, than any volume holds */
	char names[65536];
	uint8_t values[XATTR_ROOM_MAX];
	uint8_t caps[LOAD_CAPS_BYTES];
};

static const struct {
	const char *prefix;
	uint8_t index;
} xattr_prefixes[] = {
	{ "user.", ZF2FS_XATTR_INDEX_USER },
	{ "trusted.", ZF2FS_XATTR_INDEX_TRUSTED },
	{ "security.", ZF2FS_XATTR_INDEX_SECURITY },
};

static int cmp_xattr(const void *a, const void *b)
{
	const struct zf2fs_txn_xattr *x = a, *y = b;
	size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
	int c;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	c = memcmp(x->name, y->name, n);
	return c ? c : x->name_len < y->name_len ? -1 : x->name_len > y->name_len;
}

/* The extended attributes of @path into @xa: xa->too_big when they are more than any
 * volume holds (their bytes are checked against the volume's room by the caller).
 * Errors are logged naming the path. */
static int read_xattrs(const struct loader *l, const char *path, struct xattrs *xa)
{
	ssize_t len = llistxattr(path, xa->names, sizeof(xa->names));
	size_t used = 0;
	char *name;

	xa->n = 0;
	xa->too_big = false;
	if (len < 0) {
		if (errno == ENOTSUP || errno == ENODATA)
			return 0;
		zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0, "%s: %s: while listing its xattrs", path,
			   strerror(errno));
		return -errno;
	}
	for (name = xa->names; name < xa->names + len; name += strlen(name) + 1) {
		struct zf2fs_txn_xattr *x = &xa->x[xa->n];
		size_t k = 0;
		ssize_t vlen;

		while (k < sizeof(xattr_prefixes) / sizeof(xattr_prefixes[0]) &&
		       strncmp(name, xattr_prefixes[k].prefix, strlen(xattr_prefixes[k].prefix)))
			k++;
		if (k == sizeof(xattr_prefixes) / sizeof(xattr_prefixes[0])) {
			zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0,
				   "%s: xattr %s: only user., trusted. and security. are supported",
				   path, name);
			return -EOPNOTSUPP;
		}
		if (xa->n == sizeof(xa->x) / sizeof(xa->x[0]))
			break;
		vlen = lgetxattr(path, name, xa->values + used, sizeof(xa->values) - used);
		if (vlen < 0) {
			if (errno == ERANGE)
				break;
			zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0, "%s: %s: while reading xattr %s",
				   path, strerror(errno), name);
			return -errno;
		}
		x->index = xattr_prefixes[k].index;
		x->name = name + strlen(xattr_prefixes[k].prefix);
		x->name_len = strlen(x->name);
		x->value = xa->values + used;
		x->value_len = (size_t)vlen;
		used += (size_t)vlen;
		xa->n++;
		if (x->name_len > 255)
			break;
	}
	xa->too_big = name < xa->names + len;   /* left the list early */
	return 0;
}

/* The bytes of @xa's xattr area: XATTR_TOO_BIG when no volume holds them. */
static uint32_t xattrs_size(const struct xattrs *xa)
{
	size_t bytes = xa->too_big ? SIZE_MAX : zf2fs_xattr_bytes(xa->x, xa->n);

	return bytes > XATTR_ROOM_MAX ? XATTR_TOO_BIG : (uint32_t)bytes;
}

/* Refuse @path's @bytes of xattrs when the volume of geometry @g holds fewer. */
static int check_xattrs_fit(const struct loader *l, const char *path, uint32_t bytes,
			    const struct zf2fs_geom *g)
{
	char blocks[32] = "";   /* 4 KiB, the default, goes unsaid */

	if (bytes <= zf2fs_xattr_max_bytes(g))
		return 0;
	if (g->log_blocksize != ZF2FS_MIN_LOG_BLOCKSIZE)
		snprintf(blocks, sizeof(blocks), " with %u KiB blocks", g->blocksize / 1024);
	zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0,
		   "%s: xattrs too big: F2FS holds %u bytes of them per inode%s (names, values and headers)",
		   path, (unsigned)zf2fs_xattr_max_bytes(g), blocks);
	return -E2BIG;
}

/* Drop security.@name from @xa. */
static void drop_security(struct xattrs *xa, const char *name)
{
	for (size_t i = 0; i < xa->n; i++)
		if (xa->x[i].index == ZF2FS_XATTR_INDEX_SECURITY &&
		    xa->x[i].name_len == strlen(name) && !memcmp(xa->x[i].name, name, strlen(name)))
			xa->x[i--] = xa->x[--xa->n];
}

/* The xattrs entry @e gets: the source's, with security.capability as fs_config says
 * (when given) and security.selinux as file_contexts says (when given), sorted (index,
 * then name: the same order whatever the source file system lists).  Their size in
 * *@ret_bytes (may be NULL); without it, xattrs l->g's volume does not hold are
 * refused. */
static int entry_xattrs(const struct loader *l, const struct lentry *e, struct xattrs *xa,
			uint32_t *ret_bytes)
{
	/* the directory loaded into keeps its own, the build's labels aside */
	int err = 0;

	xa->n = 0;
	if (e != l->e)
		err = read_xattrs(l, e->path, xa);
	if (err)
		return err;
	if (l->o->fs_config && !S_ISLNK(e->st.st_mode)) {
		drop_security(xa, "capability");
		if (e->meta.caps && xa->n < sizeof(xa->x) / sizeof(xa->x[0])) {
			load_meta_caps_value(e->meta.caps, xa->caps);
			xa->x[xa->n++] = (struct zf2fs_txn_xattr){ ZF2FS_XATTR_INDEX_SECURITY,
				"capability", 10, xa->caps, LOAD_CAPS_BYTES };
		}
	}
	if (e->meta.label) {
		drop_security(xa, "selinux");
		if (xa->n < sizeof(xa->x) / sizeof(xa->x[0]))
			/* the kernel's labels end in a NUL, as setfiles writes them */
			xa->x[xa->n++] = (struct zf2fs_txn_xattr){ ZF2FS_XATTR_INDEX_SECURITY,
				"selinux", 7, e->meta.label, strlen(e->meta.label) + 1 };
	}
	if (xa->n == sizeof(xa->x) / sizeof(xa->x[0]))
		xa->too_big = true;
	if (ret_bytes)
		*ret_bytes = xattrs_size(xa);
	else
		err = check_xattrs_fit(l, e->path, xattrs_size(xa), l->g);
	if (err)
		return err;
	if (xa->n)
		qsort(xa->x, xa->n, sizeof(xa->x[0]), cmp_xattr);
	return 0;
}

/* Entry @e's path in the running system: the mount point, then its path below the
 * source directory ("/" for the source directory itself). */
static char *volume_path(const struct loader *l, const struct lentry *e)
{
	const char *mp = l->o->mount_point ? l->o->mount_point : "";
	const char *rel = e->path + strlen(l->o->source);
	size_t mlen;
	char *p;

	while (*mp == '/')
		mp++;
	mlen = strlen(mp);
	while (mlen && mp[mlen - 1] == '/')
		mlen--;
	p = malloc(mlen + strlen(rel) + 2);
	if (!p)
		return NULL;
	p[0] = '/';
	memcpy(p + 1, mp, mlen);
	strcpy(p + 1 + mlen, rel);
	if (!mlen && rel[0] == '/')   /* "//name" */
		memmove(p, p + 1, strlen(p + 1) + 1);
	return p;
}

/* What fs_config and file_contexts say about entry @e (@optional: fs_config need not
 * list it). */
static int entry_meta(struct loader *l, struct lentry *e, bool optional)
{
	char *vp;
	int err;

	if (!l->meta)
		return 0;
	vp = volume_path(l, e);
	if (!vp)
		return -ENOMEM;
	err = load_meta_lookup(l->meta, vp, (uint32_t)e->st.st_mode, optional, l->log, &e->meta);
	free(vp);
	return err;
}

static int add_entry(struct loader *l, char *path, size_t name_ofs, size_t parent)
{
	struct lentry *e;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;

		e = realloc(l->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		l->e = e;
		l->cap = cap;
	}
	e = &l->e[l->n];
	memset(e, 0, sizeof(*e));
	e->path = path;
	e->name = path + name_ofs;
	e->parent = parent;
	e->first = l->n;
	if (lstat(path, &e->st)) {
		int err = -errno;

		zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0, "%s: %s", path, strerror(errno));
		return err;
	}
	l->n++;
	return 0;
}

/* List directory entry @dir's contents (sorted), each followed by its own subtree. */
static int walk(struct loader *l, size_t dir)
{
	DIR *d = opendir(l->e[dir].path);
	char **names = NULL;
	size_t nn = 0, cap = 0;
	struct dirent *de;
	int err = 0;

	if (!d) {
		err = -errno;
		zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0, "%s: %s", l->e[dir].path, strerror(errno));
		return err;
	}
	while (!err && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (nn == cap) {
			char **p = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*p));

			if (!p) {
				err = -ENOMEM;
				break;
			}
			names = p;
		}
		names[nn] = strdup(de->d_name);
		if (!names[nn])
			err = -ENOMEM;
		else
			nn++;
	}
	closedir(d);
	if (!err && nn)	/* qsort wants a non-null array, even of nothing */
		qsort(names, nn, sizeof(*names), cmp_name);
	for (size_t i = 0; i < nn && !err; i++) {
		size_t plen = strlen(l->e[dir].path), len = strlen(names[i]);
		char *path = malloc(plen + len + 2);
		size_t me;

		if (!path) {
			err = -ENOMEM;
			break;
		}
		memcpy(path, l->e[dir].path, plen);
		path[plen] = '/';
		memcpy(path + plen + 1, names[i], len + 1);
		if (len > ZF2FS_NAME_LEN) {
			zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0,
				   "%s: name longer than %u bytes", path, ZF2FS_NAME_LEN);
			free(path);
			err = -ENAMETOOLONG;
			break;
		}
		me = l->n;
		err = add_entry(l, path, plen + 1, dir);
		if (err) {
			free(path);
			break;
		}
		/* refused now, before anything is written */
		err = entry_meta(l, &l->e[me], false);
		if (!err)
			err = entry_xattrs(l, &l->e[me], l->xa, &l->e[me].xattr_bytes);
		if (err)
			break;
		if (l->xa->n && l->e[me].xattr_bytes > ZF2FS_INLINE_XATTR_ADDRS * 4u)
			l->xattr_nodes++;
		if (S_ISDIR(l->e[me].st.st_mode))
			err = walk(l, me);
	}
	for (size_t i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	return err;
}

/* Hard links: every entry of a non-directory inode seen before points at the first. */
static int cmp_inode(const void *a, const void *b, void *arg)
{
	const struct lentry *e = arg;
	const struct stat *x = &e[*(const size_t *)a].st, *y = &e[*(const size_t *)b].st;

	if (x->st_dev != y->st_dev)
		return x->st_dev < y->st_dev ? -1 : 1;
	if (x->st_ino != y->st_ino)
		return x->st_ino < y->st_ino ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static void attr_of(const struct loader *l, const struct lentry *e, struct zf2fs_txn_attr *a);

/* Append "@what @mine (inode @kept)" to @buf (used of @size), comma-separated. */
static void add_diff(char *buf, size_t size, size_t *used, const char *what, const char *mine,
		     const char *kept)
{
	int n;

	if (*used >= size)
		return;
	n = snprintf(buf + *used, size - *used, "%s%s %s (inode %s)", *used ? ", " : "", what,
		     mine, kept);
	if (n > 0)
		*used += (size_t)n;
}

/* Hard link @e shares the inode entry @f (the first path in load order) created: the
 * inode has @f's owner, mode, capabilities and label.  When fs_config or file_contexts
 * says otherwise for @e, a warning names both paths and what @e's settings would have
 * been: f2fs-tools take such builds too, where the last path loaded silently wins. */
static int warn_link_meta(const struct loader *l, const struct lentry *f, const struct lentry *e)
{
	struct zf2fs_txn_attr af, ae;
	char diff[1024], mine[64], kept[64], *fp, *ep;
	size_t used = 0;

	if (!l->meta)
		return 0;
	attr_of(l, f, &af);
	attr_of(l, e, &ae);
	if (af.uid != ae.uid || af.gid != ae.gid) {
		snprintf(mine, sizeof(mine), "%u:%u", ae.uid, ae.gid);
		snprintf(kept, sizeof(kept), "%u:%u", af.uid, af.gid);
		add_diff(diff, sizeof(diff), &used, "owner", mine, kept);
	}
	if ((af.mode & 07777u) != (ae.mode & 07777u)) {
		snprintf(mine, sizeof(mine), "%04o", ae.mode & 07777u);
		snprintf(kept, sizeof(kept), "%04o", af.mode & 07777u);
		add_diff(diff, sizeof(diff), &used, "mode", mine, kept);
	}
	/* fs_config's capabilities are not given to symbolic links (entry_xattrs) */
	if (l->o->fs_config && !S_ISLNK(f->st.st_mode) && f->meta.caps != e->meta.caps) {
		snprintf(mine, sizeof(mine), "0x%" PRIx64, e->meta.caps);
		snprintf(kept, sizeof(kept), "0x%" PRIx64, f->meta.caps);
		add_diff(diff, sizeof(diff), &used, "capabilities", mine, kept);
	}
	if ((f->meta.label || e->meta.label) &&
	    (!f->meta.label || !e->meta.label || strcmp(f->meta.label, e->meta.label)))
		add_diff(diff, sizeof(diff), &used, "label", e->meta.label ? e->meta.label : "none",
			 f->meta.label ? f->meta.label : "none");
	if (!used)
		return 0;
	fp = volume_path(l, f);
	ep = volume_path(l, e);
	if (fp && ep)
		zf2fs_logf(l->log, ZF2FS_MSG_WARNING, 0,
			   "%s: hard link of %s, whose settings the inode keeps: %s", ep, fp, diff);
	free(fp);
	free(ep);
	return fp && ep ? 0 : -ENOMEM;
}

/* Every later path of a hard-linked inode points at its first in load order (the walk's
 * sorted order), which creates the inode and decides its settings. */
static int find_links(struct loader *l)
{
	int err = 0;

	size_t *idx = malloc((l->n ? l->n : 1) * sizeof(*idx)), m = 0;

	if (!idx)
		return -ENOMEM;
	for (size_t i = 1; i < l->n; i++)
		if (!S_ISDIR(l->e[i].st.st_mode) && l->e[i].st.st_nlink > 1)
			idx[m++] = i;
	qsort_r(idx, m, sizeof(*idx), cmp_inode, l->e);
	for (size_t i = 1; i < m; i++) {
		const struct stat *a = &l->e[idx[i - 1]].st, *b = &l->e[idx[i]].st;

		if (a->st_dev == b->st_dev && a->st_ino == b->st_ino) {
			l->e[idx[i]].first = l->e[idx[i - 1]].first;
			if (!err)
				err = warn_link_meta(l, &l->e[l->e[idx[i]].first], &l->e[idx[i]]);
		}
	}
	free(idx);
	return err;
}

/* Blocks of @g's size that @bytes take. */
static uint64_t blocks_of(const struct zf2fs_geom *g, uint64_t bytes)
{
	return (bytes + g->blocksize - 1) >> g->log_blocksize;
}

/* Blocks entry @e will take at most (inode, nodes, data, its share of its directory). */
static uint64_t estimate(const struct zf2fs_geom *g, const struct lentry *e, bool first)
{
	uint64_t blocks = 1, data, alloc;

	if (!first)
		return 0;
	if (S_ISREG(e->st.st_mode) || S_ISLNK(e->st.st_mode)) {
		data = blocks_of(g, (uint64_t)e->st.st_size);
		/* holes stay holes: the source allocated at most st_blocks (512 bytes each) */
		alloc = (((uint64_t)e->st.st_blocks * 512) >> g->log_blocksize) + 1;
		if (S_ISREG(e->st.st_mode) && alloc < data)
			data = alloc;
		blocks += data + data / (g->addrs_per_block - 1) + 2;
	} else if (S_ISDIR(e->st.st_mode)) {
		blocks += 2;   /* its first dentry block, a second bucket block */
	}
	return blocks;
}

/* Blocks entry @e takes at the least: its inode, and the data of a file too large to be
 * inline in any inode (none for a regular file with -c: it may compress to little). */
static uint64_t least(const struct loader *l, const struct lentry *e, bool first)
{
	const struct zf2fs_geom *g = l->g;
	uint64_t data = blocks_of(g, (uint64_t)e->st.st_size);
	uint64_t alloc = ((uint64_t)e->st.st_blocks * 512) >> g->log_blocksize;

	if (!first)
		return 0;
	if (!S_ISREG(e->st.st_mode) && !S_ISLNK(e->st.st_mode))
		return 1;
	if ((uint64_t)e->st.st_size <= g->addrs_per_inode * 4u ||
	    (S_ISREG(e->st.st_mode) && l->o->compress))
		return 1;
	if (S_ISREG(e->st.st_mode) && alloc < data)
		data = alloc;   /* holes stay holes */
	return 1 + data;
}

/* The project id of source file or directory @e (0 when its file system has none). */
static uint32_t source_projid(const struct lentry *e)
{
	uint32_t id = 0;
#ifdef FS_IOC_FSGETXATTR
	struct fsxattr fsx;
	int fd;

	if (!S_ISREG(e->st.st_mode) && !S_ISDIR(e->st.st_mode))
		return 0;
	fd = open(e->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (!ioctl(fd, FS_IOC_FSGETXATTR, &fsx))
		id = fsx.fsx_projid;
	close(fd);
#else
	(void)e;
#endif
	return id;
}

static void attr_of(const struct loader *l, const struct lentry *e, struct zf2fs_txn_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->mode = (uint32_t)e->st.st_mode;
	if (e->meta.has_perm) {
		a->mode = (a->mode & ~07777u) | e->meta.mode;
		a->uid = e->meta.uid;
		a->gid = e->meta.gid;
	} else if (l->o->keep_owner) {
		a->uid = (uint32_t)e->st.st_uid;
		a->gid = (uint32_t)e->st.st_gid;
	}
	if (l->projids)
		a->projid = source_projid(&l->e[e->first]);
	if (l->o->fixed_time) {
		a->atime = a->mtime = a->ctime = l->o->time;
	} else {
		a->atime = a->mtime = a->ctime = (uint64_t)e->st.st_mtim.tv_sec;
		a->atime_nsec = a->mtime_nsec = a->ctime_nsec = (uint32_t)e->st.st_mtim.tv_nsec;
	}
	if (S_ISCHR(e->st.st_mode) || S_ISBLK(e->st.st_mode)) {
		a->rdev_major = major(e->st.st_rdev);
		a->rdev_minor = minor(e->st.st_rdev);
	}
}

static bool all_zero(const uint8_t *p, size_t n)
{
	return n == 0 || (p[0] == 0 && !memcmp(p, p + 1, n - 1));
}

/* Every step of a load works in the volume's blocks, 4 KiB or 16 KiB. */
static int session_open(struct session *s, const struct zf2fs_log *log, uint64_t now)
{
	int err = s->devs ?
		  zf2fs_vol_open_devs_flags(s->devs, s->npaths, ZF2FS_VOL_BLOCK16K, log, &s->vol) :
		  zf2fs_vol_open(s->paths, s->npaths, ZF2FS_DEV_WRITE | ZF2FS_VOL_BLOCK16K, log,
				 &s->vol);

	if (!err)
		err = zf2fs_txn_begin(s->vol, &s->txn);
	if (!err) {
		zf2fs_txn_set_time(s->txn, now);
		zf2fs_txn_place_as_kernel(s->txn);
	}
	return err;
}

static int session_commit(struct session *s)
{
	int err = zf2fs_txn_commit(s->txn);

	s->flushes = zf2fs_txn_flushes(s->txn);
	zf2fs_txn_free(s->txn);
	zf2fs_vol_close(s->vol);
	s->txn = NULL;
	s->vol = NULL;
	s->commits++;
	return err;
}

/* Flush the transaction once the blocks or inodes queued since the last flush reach a
 * batch: memory stays bounded, and nothing is checkpointed before the end. */
static int maybe_flush(struct loader *l)
{
	struct session *s = l->s;
	uint64_t blocks, inodes;
	int err;

	zf2fs_txn_usage(s->txn, &blocks, &inodes);
	if (blocks - s->flushed_blocks < s->batch_blocks &&
	    inodes - s->flushed_inodes < s->batch_inodes)
		return 0;
	err = zf2fs_txn_flush(s->txn);
	if (err) {
		zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0,
			   "%s: while writing to %s (nothing committed: the volume is as it was)",
			   strerror(-err), s->name);
		return err;
	}
	s->flushed_blocks = blocks;
	s->flushed_inodes = inodes;
	return 0;
}

/* Read up to @len bytes of @fd at @pos into @buf, zeros past the end; the bytes read in
 * @ret. */
static int read_upto(int fd, uint8_t *buf, size_t len, uint64_t pos, size_t *ret)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = pread(fd, buf + done, len - done, (off_t)(pos + done));

		if (r < 0)
			return -errno;
		if (!r)
			break;
		done += (size_t)r;
	}
	memset(buf + done, 0, len - done);
	*ret = done;
	return 0;
}

/* -c: whether regular file @e goes in compressed: -x lists the extensions left plain,
 * -i the only ones compressed.  The extension is what follows the last '.' of the
 * file's name ("" without one), compared byte for byte as f2fs-tools does. */
static bool wants_compression(const struct loader *l, const struct lentry *e)
{
	const char *dot = strrchr(e->name, '.');
	const char *ext = dot ? dot + 1 : "";
	bool listed = false;

	for (size_t i = 0; i < l->o->n_exts && !listed; i++)
		listed = !strcmp(ext, l->o->exts[i]);
	return listed == l->o->exts_only;
}

/* -c: the data of regular file @e (open on @fd) in clusters, as the kernel writes a
 * compressed file: a whole cluster that the algorithm shrinks by at least
 * l->min_saved blocks goes in compressed (zf2fs_txn_write_cluster), the others and the
 * last partial cluster block by block; all-zero clusters and blocks stay holes.  With
 * -r the file is released first, so its clusters reserve nothing. */
static int load_compressed(struct loader *l, const struct lentry *e, int fd)
{
	const uint32_t cs = 1u << l->o->log_cluster;
	const size_t bs = l->g->blocksize, cbytes = (size_t)cs * bs;
	uint64_t size = (uint64_t)e->st.st_size, pos = 0;
	int err = zf2fs_txn_set_compression(l->s->txn, e->ino, l->alg, l->o->log_cluster);

	if (!err && l->o->release)
		err = zf2fs_txn_release_compressed(l->s->txn, e->ino);
	if (!err)
		err = zf2fs_txn_set_size(l->s->txn, e->ino, size);
	while (!err && pos < size) {
		off_t data = lseek(fd, (off_t)pos, SEEK_DATA);
		size_t got = 0;
		uint32_t nb = 0;
		int c = -ENOSPC;

		if (data < 0) {
			err = errno == ENXIO ? 0 : -errno;
			break;
		}
		if ((uint64_t)data >= pos + cbytes) {   /* a hole: on to its data's cluster */
			pos = (uint64_t)data - (uint64_t)data % cbytes;
			continue;
		}
		err = read_upto(fd, l->cin, cbytes, pos, &got);
		if (err || all_zero(l->cin, cbytes)) {
			pos += cbytes;
			continue;
		}
		if (got == cbytes)
			c = zf2fs_compress_cluster2(l->g->log_blocksize, l->alg, l->o->log_cluster,
						    l->min_saved, l->cin, l->cout, &nb);
		if (!c) {
			err = zf2fs_txn_write_cluster(l->s->txn, e->ino, pos / cbytes, l->cout, nb);
		} else if (c != -ENOSPC) {
			err = c;
		} else {
			for (size_t o = 0; !err && o < got; o += bs)
				if (!all_zero(l->cin + o, bs))
					err = zf2fs_txn_write_block(l->s->txn, e->ino, (pos + o) / bs,
								    l->cin + o);
		}
		if (!err)
			err = maybe_flush(l);
		pos += cbytes;
	}
	return err;
}

/* The data of regular file @e: inline when it fits, else block by block from the
 * source's data extents, all-zero blocks left as holes. */
static int load_file(struct loader *l, const struct lentry *e)
{
	struct zf2fs_txn *t = l->s->txn;
	uint64_t size = (uint64_t)e->st.st_size;
	const off_t bs = (off_t)l->g->blocksize;
	size_t max;
	off_t pos = 0;
	int fd, err;

	err = zf2fs_txn_inline_max(t, e->ino, &max);
	if (err)
		return err;
	fd = open(e->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (size <= max) {
		ssize_t r = size ? pread(fd, l->buf, size, 0) : 0;

		err = r < 0 ? -errno : (uint64_t)r != size ? -EIO : 0;
		if (!err)
			err = zf2fs_txn_write_inline(t, e->ino, l->buf, size);
		close(fd);
		return err;
	}
	if (l->o->compress && wants_compression(l, e)) {
		err = load_compressed(l, e, fd);
		close(fd);
		return err;
	}
	/* the size first: the file's blocks may be flushed before its last ones are queued */
	err = zf2fs_txn_set_size(t, e->ino, size);
	while (!err && (uint64_t)pos < size) {
		off_t data = lseek(fd, pos, SEEK_DATA), hole;

		if (data < 0) {
			err = errno == ENXIO ? 0 : -errno;
			break;
		}
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0) {
			err = -errno;
			break;
		}
		/* whole blocks: what lies past a hole's start inside its block is still read */
		hole += (bs - hole % bs) % bs;
		pos = data - data % bs;
		while (!err && pos < hole) {
			size_t want = (uint64_t)(hole - pos) < READ_CHUNK ? (size_t)(hole - pos) :
				      READ_CHUNK;
			ssize_t r = pread(fd, l->buf, want, pos);

			if (r <= 0) {
				err = r < 0 ? -errno : 0;   /* 0: the end of the file */
				pos = hole;
				break;
			}
			/* a short last block reads as zeros past the end */
			memset(l->buf + r, 0, (size_t)((bs - r % bs) % bs));
			for (size_t o = 0; !err && o < (size_t)r; o += (size_t)bs) {
				if (all_zero(l->buf + o, (size_t)bs))
					continue;
				err = zf2fs_txn_write_block(l->s->txn, e->ino,
							    (uint64_t)((pos + (off_t)o) / bs),
							    l->buf + o);
				/* a large file goes over several flushes */
				if (!err)
					err = maybe_flush(l);
			}
			pos += r;
			pos += (bs - pos % bs) % bs;
		}
	}
	close(fd);
	return err;
}

static int load_symlink(struct loader *l, struct zf2fs_txn *t, const struct lentry *e)
{
	const size_t bs = l->g->blocksize;
	ssize_t len = readlink(e->path, (char *)l->buf, bs);
	size_t max;
	int err;

	if (len < 0)
		return -errno;
	if ((size_t)len >= bs)
		return -ENAMETOOLONG;
	err = zf2fs_txn_inline_max(t, e->ino, &max);
	if (err)
		return err;
	if ((size_t)len <= max)
		return zf2fs_txn_write_inline(t, e->ino, l->buf, (size_t)len);
	memset(l->buf + len, 0, bs - (size_t)len);
	err = zf2fs_txn_write_block(t, e->ino, 0, l->buf);
	if (!err)
		err = zf2fs_txn_set_size(t, e->ino, (uint64_t)len);
	return err;
}

static int load_entry(struct loader *l, struct lentry *e)
{
	struct zf2fs_txn *t = l->s->txn;
	struct zf2fs_txn_attr a;
	uint32_t dir = l->e[e->parent].ino;
	int err;

	/* a hard link keeps what its first path gave the inode (find_links warned) */
	attr_of(l, &l->e[e->first], &a);
	if (e->first != (size_t)(e - l->e)) {
		err = zf2fs_txn_link(t, dir, e->name, l->e[e->first].ino);
		/* a new link stamps the inode's change time: the source's times again */
		return err ? err : zf2fs_txn_set_attr(t, l->e[e->first].ino, &a);
	}
	err = zf2fs_txn_mknod(t, dir, e->name, &a, &e->ino);
	if (!err)
		err = entry_xattrs(l, e, l->xa, NULL);
	if (!err)
		err = zf2fs_txn_set_xattrs(t, e->ino, l->xa->x, l->xa->n);
	if (err)
		return err;
	if (S_ISREG(e->st.st_mode))
		return load_file(l, e);
	if (S_ISLNK(e->st.st_mode))
		return load_symlink(l, t, e);
	return 0;
}


/* A source name's key in a casefolded directory: its folded form, or its bytes. */
struct cf_key {
	size_t entry, parent, len;
	uint8_t key[ZF2FS_NAME_LEN];
};

static int cmp_cf_key(const void *a, const void *b)
{
	const struct cf_key *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	c = memcmp(x->key, y->key, n);
	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* Loading into a casefolded directory (its new subdirectories inherit the flag): two
 * names of one source directory that fold alike, and names a strict encoding refuses,
 * are refused here with their paths, before anything is written. */
static int check_casefold(struct loader *l, struct zf2fs_vol *vol)
{
	const int strict = zf2fs_get(zf2fs_vol_super(vol)->s_encoding_flags) & 1;
	struct zf2fs_node *dn = malloc(zf2fs_vol_geom(vol)->blocksize);
	struct cf_key *k = NULL;
	size_t n = 0;
	int err;

	if (!dn)
		return -ENOMEM;
	err = zf2fs_inode_read(vol, l->e[0].ino, dn, NULL, NULL, 0);
	if (!err && (dn->i.i_advise & ZF2FS_ADVISE_ENCRYPT)) {
		/* names and contents there are ciphertext made with a key sload does not have */
		zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0,
			   "%s: the directory is encrypted (fscrypt): its names and contents need "
			   "its key; nothing written", l->o->target ? l->o->target : "/");
		err = -EOPNOTSUPP;
		goto out;
	}
	if (err || !(zf2fs_get(dn->i.i_flags) & ZF2FS_CASEFOLD_FL))
		goto out;
	if (!zf2fs_have_casefold_support()) {
		zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0,
			   "%s: the directory is casefolded, and this build has no libunistring (configure --with-unistring); nothing written",
			   l->o->target ? l->o->target : "/");
		err = -EOPNOTSUPP;
		goto out;
	}
	k = malloc((l->n ? l->n : 1) * sizeof(*k));
	if (!k) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 1; i < l->n; i++) {
		const char *name = l->e[i].name;
		size_t len = strlen(name);

		k[n].entry = i;
		k[n].parent = l->e[i].parent;
		err = zf2fs_casefold(name, len, k[n].key, sizeof(k[n].key), &k[n].len);
		if (err == -EINVAL || err == -ENAMETOOLONG) {
			if (strict) {
				zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0,
					   "%s: the name is not valid UTF-8 (or folds to more than 255 bytes), which the volume's strict encoding refuses; nothing written",
					   l->e[i].path);
				goto out;
			}
			memcpy(k[n].key, name, len);   /* the kernel hashes it as it is */
			k[n].len = len;
			err = 0;
		}
		if (err)
			goto out;
		n++;
	}
	if (n)
		qsort(k, n, sizeof(*k), cmp_cf_key);
	for (size_t i = 1; i < n; i++)
		if (k[i].parent == k[i - 1].parent && k[i].len == k[i - 1].len &&
		    !memcmp(k[i].key, k[i - 1].key, k[i].len)) {
			zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0,
				   "%s and %s: the same name in a casefolded directory; nothing written",
				   l->e[k[i - 1].entry].path, l->e[k[i].entry].path);
			err = -EEXIST;
			break;
		}
out:
	free(k);
	free(dn);
	return err;
}

/* Room for @need blocks: the user blocks not yet valid, and whole free segments above
 * the overprovision area for everything the one transaction writes.  That is more than
 * @need: a block written by a flush and changed again is written again, and its first
 * copy, in a section no log goes back to, is only freed by the checkpoint at the end.
 * What a load changes again after a flush is its directories (their inodes and the
 * dentry blocks an entry is added to, at most the @dir_blocks estimated for them), a
 * large file's inode and index nodes, and at the end every directory's inode once more.
 * Each of the six logs may end in a section of its own, and takes the first segment of
 * each section it uses (lib/write/commit.c).
 *
 * A read-only volume (feature ro) is made for the tree: Android's image scripts size it
 * from the "Max image size" of a first load, with little to spare, and f2fs-tools fills
 * it to the last block.  There the estimate above would refuse trees that fit, so only
 * a tree that surely does not (l->min_blocks) is refused here; one that runs out later
 * fails at the commit, before the checkpoint, and the volume stays as it was (its two
 * logs write only blocks that checkpoint counts free). */
static int check_room(struct loader *l, struct zf2fs_vol *vol, uint64_t need,
		      uint64_t dir_blocks, uint64_t dirs)
{
	const struct zf2fs_checkpoint *cp = zf2fs_vol_checkpoint(vol);
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	const struct session *s = l->s;
	uint64_t user = zf2fs_get(cp->user_block_count) - zf2fs_get(cp->valid_block_count);
	uint64_t fsegs = zf2fs_get(cp->free_segment_count), ovp = zf2fs_get(cp->overprov_segment_count);
	uint64_t segs = fsegs > ovp ? fsegs - ovp : 0;
	uint64_t flushes = need / s->batch_blocks + l->n / s->batch_inodes + 1;
	uint64_t again = dir_blocks + dirs;
	uint64_t written, seg_need;

	if (again > 2ull * s->batch_inodes)
		again = 2ull * s->batch_inodes;   /* a batch's entries touch no more */
	if (vi->features & ZF2FS_FEAT_RO) {
		/* the blocks its users may have bound it (no garbage collection ever needs
		 * the overprovision area of a volume the kernel mounts read-only) */
		need = l->min_blocks;
		seg_need = (need + ZF2FS_BLOCKS_PER_SEG - 1) / ZF2FS_BLOCKS_PER_SEG;
		segs = fsegs;
	} else {
		written = need + flushes * (again + 4) + dirs;
		seg_need = ((written + ZF2FS_BLOCKS_PER_SEG - 1) / ZF2FS_BLOCKS_PER_SEG +
			    ZF2FS_NR_CURSEG) * vi->segs_per_sec;
	}
	if (need > user || seg_need > segs) {
		zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0,
			   "%s: needs about %llu blocks (%llu segments) but the volume has %llu free blocks (%llu free segments); nothing written",
			   l->o->source, (unsigned long long)need, (unsigned long long)seg_need,
			   (unsigned long long)user, (unsigned long long)segs);
		return -ENOSPC;
	}
	return 0;
}

/* -c's options, checked before anything is written: the algorithm (known, and built
 * in), the cluster size, the blocks a cluster must save. */
static int check_compress_opts(struct loader *l, const char *name)
{
	const struct zf2fs_load_opts *o = l->o;
	int alg = zf2fs_compress_by_name(o->algorithm ? o->algorithm : "lz4");
	const char *why = NULL;

	l->min_saved = o->min_saved ? o->min_saved : 1;
	if (alg < 0)
		why = "unknown compression algorithm (lzo, lz4, zstd or lzo-rle)";
	else if (!zf2fs_compress_supported((uint8_t)alg))
		why = alg == ZF2FS_COMPRESS_LZO || alg == ZF2FS_COMPRESS_LZORLE ?
		      "lzo and lzo-rle need liblzo2, and this build has none" :
		      alg == ZF2FS_COMPRESS_ZSTD ? "zstd needs libzstd, and this build has none" :
		      "lz4 needs liblz4, and this build has none";
	else if (o->log_cluster < 2 || o->log_cluster > 8)
		why = "the cluster size is 2^2 to 2^8 blocks";
	else if (l->min_saved >= 1u << o->log_cluster)
		why = "a cluster can save at most its blocks minus one (-m)";
	if (why) {
		zf2fs_logf(l->log, ZF2FS_MSG_ERROR, 0, "%s: %s; nothing written", name, why);
		return alg < 0 || l->min_saved >= 1u << o->log_cluster ?
		       -EINVAL : -EOPNOTSUPP;
	}
	l->alg = (uint8_t)alg;
	return 0;
}

/* Every entry's xattrs (as the walk measured them) in the room of l->g's volume: the
 * first that does not fit is refused, naming its path, before anything is written. */
static int check_xattr_room(const struct loader *l)
{
	int err = 0;

	for (size_t i = 1; !err && i < l->n; i++)
		err = check_xattrs_fit(l, l->e[i].path, l->e[i].xattr_bytes, l->g);
	return err;
}

/* The blocks the load takes at most and at the least (l->est_blocks, l->min_blocks) in
 * blocks of l->g's size, for the entries' @slots dentry slots; returns the dentry blocks
 * among them. */
static uint64_t estimate_all(struct loader *l, uint64_t slots)
{
	/* dentry blocks: hash buckets fill unevenly, count them twice */
	uint64_t dir_blocks = 2 * slots / l->g->dentry_per_block + 1;

	l->est_blocks = l->xattr_nodes;
	l->min_blocks = 0;
	for (size_t i = 1; i < l->n; i++) {
		l->est_blocks += estimate(l->g, &l->e[i], l->e[i].first == i);
		l->min_blocks += least(l, &l->e[i], l->e[i].first == i);
	}
	l->est_blocks += dir_blocks;
	return dir_blocks;
}

static int load(struct session *s, const struct zf2fs_load_opts *o,
		const struct zf2fs_log *log, struct zf2fs_load_stats *ret_stats)
{
	const char *name = s->name = s->devs ? zf2fs_dev_path(s->devs[0]) :
				     s->paths ? s->paths[0] : o->source;
	struct loader l = { .o = o, .log = log, .s = s };
	struct zf2fs_load_stats st = { 0 };
	uint64_t now = o->fixed_time ? o->time : 0, slots = 0, dirs = 1, dir_blocks;
	uint64_t progress_total = 0, progress_done = 0;
	char *root = strdup(o->source);
	char why[256] = "";
	int err;

	l.g = s->check_g.blocksize ? &s->check_g : zf2fs_geom_4k();
	l.buf = malloc(READ_CHUNK + ZF2FS_BLKSIZE_MAX);
	l.xa = malloc(sizeof(*l.xa));
	if (!root || !l.buf || !l.xa) {
		free(root);
		free(l.buf);
		free(l.xa);
		return -ENOMEM;
	}
	err = add_entry(&l, root, 0, NO_ENTRY);
	if (err) {
		free(root);
		goto out;
	}
	if (!S_ISDIR(l.e[0].st.st_mode)) {
		zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "%s: not a directory", o->source);
		err = -ENOTDIR;
		goto out;
	}
	if (!o->fixed_time)
		now = (uint64_t)l.e[0].st.st_mtim.tv_sec;
	l.now = now;
	err = load_meta_open(o, log, &l.meta);
	/* the directory loaded into: fs_config may leave it out (it exists already) */
	if (!err)
		err = entry_meta(&l, &l.e[0], true);
	if (!err)
		err = walk(&l, 0);
	if (!err)
		err = find_links(&l);
	for (size_t i = 1; !err && i < l.n; i++) {
		slots += (strlen(l.e[i].name) + ZF2FS_SLOT_LEN - 1) / ZF2FS_SLOT_LEN;
		dirs += S_ISDIR(l.e[i].st.st_mode);
	}
	dir_blocks = estimate_all(&l, slots);
	s->batch_blocks = o->flush_blocks ? o->flush_blocks : BATCH_BLOCKS;
	s->batch_inodes = o->flush_inodes ? o->flush_inodes : BATCH_INODES;
	if (!err && o->check_only)
		err = check_xattr_room(&l);
	if (err || o->check_only)
		goto out;
	err = session_open(s, log, now);
	if (err) {
		/* these two named their cause already: the bits, the block size */
		if (err != -ZF2FS_EUNWRITABLE && err != -ZF2FS_EBLOCKSIZE)
			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "%s: while opening %s", strerror(-err),
				   name);
		goto out;
	}
	/* the estimates again in the volume's blocks */
	if (zf2fs_vol_geom(s->vol)->blocksize != l.g->blocksize) {
		l.g = zf2fs_vol_geom(s->vol);
		dir_blocks = estimate_all(&l, slots);
	}
	err = check_xattr_room(&l);
	if (err)
		goto out;
	err = zf2fs_path_lookup(s->vol, o->target ? o->target : "/", ZF2FS_LOOKUP_FOLLOW,
				&l.e[0].ino, why, sizeof(why));
	if (err) {
		zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "%s: %s in the volume%s%s",
			   o->target ? o->target : "/", strerror(-err), why[0] ? ": " : "", why);
		goto out;
	}
	err = check_room(&l, s->vol, l.est_blocks, dir_blocks, dirs);
	if (err)
		goto out;
	err = check_casefold(&l, s->vol);
	if (err)
		goto out;
	l.projids = o->keep_owner && (zf2fs_vol_info(s->vol)->features & ZF2FS_FEAT_PRJQUOTA);
	if (o->compress) {
		err = check_compress_opts(&l, name);
		if (!err && !(zf2fs_vol_info(s->vol)->features & ZF2FS_FEAT_COMPRESSION)) {
			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0,
				   "%s: the volume has no compression feature (mkfs.f2fs -O extra_attr,compression); nothing written",
				   name);
			err = -EOPNOTSUPP;
		}
		if (err)
			goto out;
		l.cin = malloc((size_t)l.g->blocksize << o->log_cluster);
		l.cout = malloc((size_t)l.g->blocksize << o->log_cluster);
		if (!l.cin || !l.cout) {
			err = -ENOMEM;
			goto out;
		}
	}
	if (l.meta && (l.e[0].meta.caps || l.e[0].meta.label)) {
		err = entry_xattrs(&l, &l.e[0], l.xa, NULL);
		if (!err)
			err = zf2fs_txn_set_xattrs(s->txn, l.e[0].ino, l.xa->x, l.xa->n);
		if (err) {
			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "%s: %s: while setting its xattrs",
				   o->target ? o->target : "/", strerror(-err));
			goto out;
		}
	}
	if (s->progress) {
		/* an entry's estimated blocks and one for the entry itself; one for the commit */
		progress_total = 1;
		for (size_t i = 1; i < l.n; i++)
			progress_total += estimate(l.g, &l.e[i], l.e[i].first == i) + 1;
		s->progress(s->progress_arg, 0, progress_total);
	}
	for (size_t i = 1; !err && i < l.n; i++) {
		struct lentry *e = &l.e[i];

		err = load_entry(&l, e);
		if (!err && s->progress) {
			progress_done += estimate(l.g, e, e->first == i) + 1;
			s->progress(s->progress_arg, progress_done, progress_total);
		}
		if (err) {
			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "%s: %s: while copying it%s", e->path,
				   strerror(-err), err != -EOPNOTSUPP ? "" :
				   " (into a casefolded directory in a build without libunistring)");
			break;
		}
		if (e->first == i)
			st.inodes++;
		else
			st.links++;
		err = maybe_flush(&l);
	}
	/* directories last: their entries are in, their times can be set */
	for (size_t i = 0; !err && i < l.n; i++) {
		struct zf2fs_txn_attr a;

		if (!S_ISDIR(l.e[i].st.st_mode))
			continue;
		attr_of(&l, &l.e[i], &a);
		err = zf2fs_txn_set_attr(s->txn, l.e[i].ino, &a);
		if (err)
			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "%s: %s: while setting its attributes",
				   l.e[i].path, strerror(-err));
	}
	if (!err) {
		err = session_commit(s);
		if (err)
			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "%s: while committing to %s",
				   strerror(-err), name);
		else if (s->progress)
			s->progress(s->progress_arg, progress_total, progress_total);
	}
out:
	if (s->txn)
		zf2fs_txn_free(s->txn);
	if (s->vol)
		zf2fs_vol_close(s->vol);
	for (size_t i = 0; i < l.n; i++) {
		free(l.e[i].path);
		free(l.e[i].meta.label);
	}
	load_meta_close(l.meta);
	free(l.cin);
	free(l.cout);
	free(l.e);
	free(l.buf);
	free(l.xa);
	st.commits = s->commits;
	st.flushes = s->flushes;
	if (ret_stats)
		*ret_stats = st;
	return err;
}

ZF2FS_EXPORT int zf2fs_load_tree_progress(const char *const *paths, unsigned n,
					  const struct zf2fs_load_opts *o,
					  zf2fs_load_progress_fn fn, void *arg,
					  const struct zf2fs_log *log,
					  struct zf2fs_load_stats *ret_stats)
{
	struct session s = { .paths = paths, .npaths = n, .progress = fn, .progress_arg = arg };

	return load(&s, o, log, ret_stats);
}

ZF2FS_EXPORT int zf2fs_load_tree_devs_progress(struct zf2fs_dev *const *devs, unsigned n,
					       const struct zf2fs_load_opts *o,
					       zf2fs_load_progress_fn fn, void *arg,
					       const struct zf2fs_log *log,
					       struct zf2fs_load_stats *ret_stats)
{
	struct session s = { .devs = devs, .npaths = n, .progress = fn, .progress_arg = arg };

	return load(&s, o, log, ret_stats);
}

ZF2FS_EXPORT int zf2fs_load_tree(const char *const *paths, unsigned npaths,
				 const struct zf2fs_load_opts *o, const struct zf2fs_log *log,
				 struct zf2fs_load_stats *ret_stats)
{
	return zf2fs_load_tree_progress(paths, npaths, o, NULL, NULL, log, ret_stats);
}

ZF2FS_EXPORT int zf2fs_load_tree_devs(struct zf2fs_dev *const *devs, unsigned n,
				      const struct zf2fs_load_opts *o,
				      const struct zf2fs_log *log,
				      struct zf2fs_load_stats *ret_stats)
{
	return zf2fs_load_tree_devs_progress(devs, n, o, NULL, NULL, log, ret_stats);
}

ZF2FS_EXPORT int zf2fs_load_tree_check(const struct zf2fs_load_opts *o, uint32_t log_blocksize,
				       const struct zf2fs_log *log)
{
	struct zf2fs_load_opts chk = *o;
	struct session s = { 0 };

	if (zf2fs_geom_init(&s.check_g, log_blocksize, 0))
		return -EINVAL;
	chk.check_only = true;
	return load(&s, &chk, log, NULL);
}
