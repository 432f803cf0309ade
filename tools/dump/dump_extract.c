// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump_extract.c - dump.f2fs --extract PATH -o DIR: the tree below PATH copied out of the
 * volume into the host directory DIR (as debugfs's rdump does for ext4): directories,
 * regular files and symlinks, with their permission bits and modification times.  Hard
 * links become copies; devices, fifos and sockets are named and left out.
 *
 * The volume may be hostile, so nothing on it may steer a write outside DIR: a name that
 * holds '/' or NUL is refused with everything below it, files and directories are only
 * ever created (O_EXCL, mkdir; an existing name is an error, never overwritten or
 * followed), and symlinks are created last, after every file, so that no path this run
 * writes through can meet one.
 *
 * Encrypted directories, files and symlinks (fscrypt) hold ciphertext, names included:
 * they are passed over, each named on stderr, unless --raw-encrypted asks for the
 * ciphertext as stored.  Then names are their {enc:HEX} form (dump_enc.c), which never
 * holds '/', files their stored blocks, and symlinks become regular files holding the
 * stored target (a 2-byte length, then the ciphertext), which no path could follow.
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
#include "dump.h"

/* Something created now whose mode or times are set at the end. */
struct later {
	char *path;
	char *target;          /* symlinks: what they point to */
	uint32_t mode;
	uint32_t uid, gid;     /* given back with -P */
	struct timespec times[2];
};

struct extract {
	struct dump_ctx *c;
	const char *dir;       /* -o */
	char *skip;            /* a refused subtree: entries below it are passed over */
	struct later *dirs, *links;
	size_t ndirs, nlinks, capdirs, caplinks;
	uint64_t files, directories, symlinks, others, refused, bytes;
	uint64_t encrypted_skipped;   /* passed over: encrypted, without --raw-encrypted */
	uint64_t encrypted_raw;       /* written as ciphertext, with --raw-encrypted */
	bool failed;           /* a host-side error was reported */
};

/* The inode's access and modification times, as utimensat takes them. */
static void inode_times(const struct zf2fs_node *in, struct timespec t[2])
{
	t[0].tv_sec = (time_t)zf2fs_get(in->i.i_atime);
	t[0].tv_nsec = (long)(zf2fs_get(in->i.i_atime_nsec) % 1000000000u);
	t[1].tv_sec = (time_t)zf2fs_get(in->i.i_mtime);
	t[1].tv_nsec = (long)(zf2fs_get(in->i.i_mtime_nsec) % 1000000000u);
}

static int later_add(struct later **v, size_t *n, size_t *cap, const char *path,
		     char *target, const struct zf2fs_node *in)
{
	struct later *l;

	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		struct later *nv = realloc(*v, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = nc;
	}
	l = &(*v)[*n];
	l->path = strdup(path);
	if (!l->path)
		return -ENOMEM;
	l->target = target;
	l->mode = (uint32_t)zf2fs_get(in->i.i_mode) & 07777;
	l->uid = (uint32_t)zf2fs_get(in->i.i_uid);
	l->gid = (uint32_t)zf2fs_get(in->i.i_gid);
	inode_times(in, l->times);
	(*n)++;
	return 0;
}

/* Where @path lands under @dir: components too long for a host name (the {enc:HEX} form of
 * a long ciphertext name) shortened by dump_host_name().  NULL when out of memory. */
static char *host_path(const char *dir, const char *path)
{
	char *host = malloc(strlen(dir) + strlen(path) + 1), *h;

	if (!host)
		return NULL;
	h = stpcpy(host, dir);
	for (const char *p = path; *p;) {
		size_t n;

		if (*p == '/') {
			*h++ = *p++;
			continue;
		}
		n = strcspn(p, "/");
		h += dump_host_name(p, n, h);
		p += n;
	}
	*h = 0;
	return host;
}

static bool below(const char *path, const char *top)
{
	size_t n = strlen(top);

	return strncmp(path, top, n) == 0 && path[n] == '/';
}

/* Pass over what is below @path. */
static int skip_below(struct extract *x, const char *path)
{
	free(x->skip);
	x->skip = strdup(path);
	return x->skip ? 0 : -ENOMEM;
}

/* Pass over @path and what is below it. */
static int refuse(struct extract *x, const char *path)
{
	x->refused++;
	return skip_below(x, path);
}

/* An encrypted inode met without --raw-encrypted: named, counted, and like the other
 * files that could not be produced (put_file's -EOPNOTSUPP) the run's exit is 1. */
static int skip_encrypted(struct extract *x, const char *path, uint32_t type)
{
	const char *what = type == ZF2FS_S_IFDIR ? "directory" :
			   type == ZF2FS_S_IFLNK ? "symlink" : "file";
	const char *need = type == ZF2FS_S_IFDIR ? "its names and contents need" :
			   type == ZF2FS_S_IFLNK ? "its target needs" : "its contents need";

	fprintf(stderr, DUMP_PROG ": %s: encrypted %s, not extracted: %s the key "
		"(--raw-encrypted copies the ciphertext)\n", path, what, need);
	x->encrypted_skipped++;
	x->failed = true;
	return skip_below(x, path);
}

static const char *kind_of(uint32_t mode)
{
	switch (zf2fs_mode_type(mode)) {
	case ZF2FS_S_IFCHR: return "a character device";
	case ZF2FS_S_IFBLK: return "a block device";
	case ZF2FS_S_IFIFO: return "a fifo";
	case ZF2FS_S_IFSOCK: return "a socket";
	default: return "of no known type";
	}
}

static int put_file(struct extract *x, const char *host, const char *path,
		    const struct zf2fs_node *in)
{
	struct timespec t[2];
	mode_t mode = (mode_t)(zf2fs_get(in->i.i_mode) & 07777);
	int fd, err;

	if (zf2fs_inode_type(&in->i) == ZF2FS_S_IFLNK)
		mode = 0644;   /* a raw encrypted symlink: data, not a program */
	fd = open(host, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = -errno;
		dump_error("%s: while creating %s", strerror(errno), host);
		x->failed = true;
		return err == -EEXIST ? refuse(x, path) : err;
	}
	err = dump_write_contents(x->c, in, fd, host);
	if (!err) {
		inode_times(in, t);
		/* the owner first: a chown may clear set-id bits the mode then restores */
		if ((x->c->preserve_owner && fchown(fd, (uid_t)zf2fs_get(in->i.i_uid),
						    (gid_t)zf2fs_get(in->i.i_gid))) ||
		    fchmod(fd, mode) || futimens(fd, t)) {
			err = -errno;
			dump_error("%s: while setting the owner, mode and times of %s",
				   strerror(errno), host);
		}
	}
	if (close(fd) && !err) {
		err = -errno;
		dump_error("%s: while closing %s", strerror(errno), host);
	}
	if (err == -ZF2FS_EFSCORRUPTED) {
		/* reported as damage; the partial copy stays, named in the report */
		return 0;
	}
	if (err == -EOPNOTSUPP) {
		/* encrypted, or compressed by an algorithm this build lacks: reported; no
		 * empty stand-in is left, and the rest of the tree goes on */
		unlink(host);
		x->failed = true;
		return 0;
	}
	if (err) {
		x->failed = true;
		return err;
	}
	x->files++;
	x->bytes += zf2fs_get(in->i.i_size);
	return 0;
}

static int put_dir(struct extract *x, const char *host, const char *path,
		   const struct zf2fs_node *in)
{
	/* owner-writable while it fills; its own mode is set at the end */
	if (mkdir(host, 0700)) {
		int err = -errno;

		dump_error("%s: while creating %s", strerror(errno), host);
		x->failed = true;
		return err == -EEXIST ? refuse(x, path) : err;
	}
	x->directories++;
	return later_add(&x->dirs, &x->ndirs, &x->capdirs, host, NULL, in);
}

static int put_symlink(struct extract *x, const char *host, const char *path,
		       const struct zf2fs_node *in)
{
	char why[256], *target = malloc(x->c->g->blocksize + 1);
	size_t len = 0;
	int err;

	if (!target)
		return -ENOMEM;
	err = zf2fs_file_read_buf(x->c->vol, in, target, x->c->g->blocksize, &len, why,
				  sizeof(why));
	if (!err && (len == 0 || memchr(target, 0, len))) {
		snprintf(why, sizeof(why), "its target is empty or holds NUL");
		err = -ZF2FS_EFSCORRUPTED;
	}
	if (err == -EFBIG)
		snprintf(why, sizeof(why), "its target is longer than a block");
	if (err) {
		dump_damage(x->c, "%s: symlink not extracted: %s", path, why);
		free(target);
		return refuse(x, path);
	}
	target[len] = 0;
	x->symlinks++;
	err = later_add(&x->links, &x->nlinks, &x->caplinks, host, target, in);
	if (err)
		free(target);
	return err;
}

static int extract_entry(void *arg, const char *path, const struct zf2fs_dentry_info *d,
			 bool encname)
{
	struct extract *x = arg;
	struct zf2fs_node *in;
	char why[256], *host;
	uint64_t made = x->files + x->directories;
	uint32_t type;
	bool raw = false;
	int err;

	if (x->skip && below(path, x->skip))
		return 0;
	/* a ciphertext name is in @path as {enc:HEX}: its bytes never reach the host */
	if (!encname && (memchr(d->name, '/', d->name_len) || memchr(d->name, 0, d->name_len))) {
		dump_damage(x->c, "%s: a name holding '/' or NUL: not extracted, nor what is "
			    "below it", path);
		return refuse(x, path);
	}
	in = malloc(ZF2FS_BLKSIZE_MAX);
	host = host_path(x->dir, path);
	if (!in || !host) {
		err = -ENOMEM;
		goto out;
	}
	err = zf2fs_inode_read(x->c->vol, d->ino, in, NULL, why, sizeof(why));
	if (err) {
		dump_damage(x->c, "%s: not extracted: %s", path, why);
		err = refuse(x, path);
		goto out;
	}
	type = zf2fs_inode_type(&in->i);
	if ((d->type == ZF2FS_FT_DIR) != (type == ZF2FS_S_IFDIR)) {
		dump_damage(x->c, "%s: the entry's type and inode %u's mode disagree: not "
			    "extracted", path, d->ino);
		err = refuse(x, path);
		goto out;
	}
	if (dump_inode_encrypted(in) &&
	    (type == ZF2FS_S_IFREG || type == ZF2FS_S_IFDIR || type == ZF2FS_S_IFLNK)) {
		if (!x->c->raw_encrypted) {
			err = skip_encrypted(x, path, type);
			goto out;
		}
		raw = true;
	}
	switch (type) {
	case ZF2FS_S_IFREG: err = put_file(x, host, path, in); break;
	case ZF2FS_S_IFDIR: err = put_dir(x, host, path, in); break;
	case ZF2FS_S_IFLNK:
		err = raw ? put_file(x, host, path, in) : put_symlink(x, host, path, in);
		break;
	default:
		fprintf(stderr, DUMP_PROG ": %s: %s, not extracted\n", path, kind_of(type));
		x->others++;
		break;
	}
	if (raw && x->files + x->directories > made)
		x->encrypted_raw++;
out:
	free(host);
	free(in);
	return err;
}

/* Symlinks, then the directories' modes and times, deepest first. */
static int finish(struct extract *x)
{
	int err = 0;

	for (size_t i = 0; i < x->nlinks; i++) {
		struct later *l = &x->links[i];

		if (symlink(l->target, l->path) ||
		    (x->c->preserve_owner && lchown(l->path, (uid_t)l->uid, (gid_t)l->gid)) ||
		    utimensat(AT_FDCWD, l->path, l->times, AT_SYMLINK_NOFOLLOW)) {
			dump_error("%s: while creating the symlink %s", strerror(errno), l->path);
			x->failed = true;
			err = err ? err : -errno;
		}
	}
	for (size_t i = x->ndirs; i-- > 0;) {
		struct later *l = &x->dirs[i];

		if ((x->c->preserve_owner && chown(l->path, (uid_t)l->uid, (gid_t)l->gid)) ||
		    chmod(l->path, (mode_t)l->mode) || utimensat(AT_FDCWD, l->path, l->times, 0)) {
			dump_error("%s: while setting the mode and times of %s", strerror(errno),
				   l->path);
			x->failed = true;
			err = err ? err : -errno;
		}
	}
	return err;
}

static void later_free(struct later *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].target);
	}
	free(v);
}

int dump_extract_tree(struct dump_ctx *c, const char *path)
{
	struct extract x = { .c = c, .dir = c->outpath };
	struct zf2fs_node *in = malloc(ZF2FS_BLKSIZE_MAX);
	struct out *o = &c->out;
	char why[256];
	struct stat st;
	uint32_t ino;
	int err;

	if (!in)
		return -ENOMEM;
	err = zf2fs_path_lookup(c->vol, path, ZF2FS_LOOKUP_FOLLOW, &ino, why, sizeof(why));
	if (!err)
		err = zf2fs_inode_read(c->vol, ino, in, NULL, why, sizeof(why));
	if (err) {
		dump_error("%s: %s", path, why);
		goto out;
	}
	if (zf2fs_inode_type(&in->i) != ZF2FS_S_IFDIR) {
		dump_error("%s: not a directory (--cat PATH -o FILE extracts one file)", path);
		err = -ENOTDIR;
		goto out;
	}
	if (dump_inode_encrypted(in) && !c->raw_encrypted) {
		dump_error("%s: directory %u is encrypted: its names and contents need the key "
			   "(--raw-encrypted copies the ciphertext)", path, ino);
		err = -EOPNOTSUPP;
		goto out;
	}
	if (mkdir(x.dir, 0755) && errno != EEXIST) {
		err = -errno;
		dump_error("%s: while creating %s", strerror(errno), x.dir);
		goto out;
	}
	if (stat(x.dir, &st) || !S_ISDIR(st.st_mode)) {
		err = -ENOTDIR;
		dump_error("%s: not a directory", x.dir);
		goto out;
	}
	err = dump_walk_paths(c, ino, extract_entry, &x);
	if (err)
		dump_error("%s: while extracting %s", strerror(-err), path);
	{
		int ferr = finish(&x);

		err = err ? err : ferr;
	}
	out_obj(o, "extract");
	out_s(o, "path", path);
	out_s(o, "output", x.dir);
	out_u(o, "files", x.files);
	out_u(o, "bytes", x.bytes);
	out_u(o, "directories", x.directories);
	out_u(o, "symlinks", x.symlinks);
	out_u(o, "not_extracted_special", x.others);
	out_u(o, "refused", x.refused);
	out_u(o, "encrypted_skipped", x.encrypted_skipped);
	out_u(o, "encrypted_raw", x.encrypted_raw);
	out_obj_end(o);
	if (!err && x.failed)
		err = -EIO;
out:
	free(x.skip);
	later_free(x.dirs, x.ndirs);
	later_free(x.links, x.nlinks);
	free(in);
	return err;
}
