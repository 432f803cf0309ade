// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/age.c - ages a loaded f2fs tree through the kernel, for bench/fsck.sh.
 *
 * Static, run inside the kernel bench guest on the mounted volume.  An image
 * loaded by sload.f2fs is too orderly to time a fsck on: every file is
 * contiguous, nids were handed out in tree order and the NAT and SIT are
 * dense.  Real volumes are not like that, so this program works the tree
 * the way a user would, in rounds that each end with sync() (a checkpoint,
 * after which the kernel hands out the nids freed in the round again):
 *
 *   - a share of the small files in the old directories is deleted, so the
 *     NAT gets holes all over and dentry blocks get free slots;
 *   - as many new files (and 2% more) are created, a third in the old
 *     directories' free slots and the rest in new directories, so the new
 *     inodes take scattered nids and their nodes land in new segments.  All
 *     are made in the first three quarters of the rounds: the nids freed in
 *     the last quarter are never handed out again, and stay holes in the
 *     NAT all over the nid range;
 *   - random 4 KiB overwrites inside the big files (out-of-place writes:
 *     their extents fragment and their direct nodes are rewritten), appends
 *     to small and big files, truncations, renames across directories, hard
 *     links, and a few fsync'd and fdatasync'd writes.
 *
 * Usage: age ROOT SEED DELETE_PERMILLE OVERWRITES [ROUNDS]
 * ROOT holds the old directories and the big files (regular files of at
 * least 64 MiB) side by side.  One line per round and a summary line, all
 * starting with "age:".  Errors: "age: <what>: <strerror>", exit 1.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>

#define BIG_MIN ((uint64_t)64 << 20)
#define BLK 4096
/* Files per new directory: about what an old one held. */
#define NEW_DIR_FILES 120

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("age: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64*: enough to spread choices, fixed by the seed */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

struct names {
	char **v;
	size_t n, cap;
};

static void names_add(struct names *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			die("out of memory");
	}
	l->v[l->n] = strdup(s);
	if (!l->v[l->n])
		die("out of memory");
	l->n++;
}

static void names_free(struct names *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint8_t buf[256 * 1024];

static void fill_buf(size_t len)
{
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t v = rnd();

		memcpy(buf + i, &v, 8);
	}
}

static void write_at(int fd, size_t len, off_t off, const char *path)
{
	const uint8_t *p = buf;

	fill_buf(len);
	while (len) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("%s: %s: while writing at %lld", path, strerror(errno), (long long)off);
		}
		p += n;
		len -= (size_t)n;
		off += n;
	}
}

/* A new file of random size: a third fit inline in the inode, the rest
 * take one to sixteen blocks. */
static void new_file(const char *path, int do_fsync)
{
	size_t len = below(3) ? 1 + below(16 * BLK) : 1 + below(3000);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	if (fd < 0)
		die("%s: %s: while creating", path, strerror(errno));
	write_at(fd, len, 0, path);
	if (do_fsync && fsync(fd))
		die("%s: %s: while syncing", path, strerror(errno));
	if (close(fd))
		die("%s: %s: while closing", path, strerror(errno));
}

static void append(const char *path, size_t len, int datasync)
{
	int fd = open(path, O_WRONLY);
	struct stat st;

	if (fd < 0)
		die("%s: %s: while opening", path, strerror(errno));
	if (fstat(fd, &st))
		die("%s: %s: while reading its size", path, strerror(errno));
	write_at(fd, len, st.st_size, path);
	if (datasync && fdatasync(fd))
		die("%s: %s: while syncing", path, strerror(errno));
	close(fd);
}

int main(int argc, char **argv)
{
	struct names dirs = { 0 }, bigs = { 0 };
	uint64_t deleted = 0, created = 0, links = 0, renames = 0, overwrites = 0;
	uint64_t appends = 0, truncs = 0, fsyncs = 0, newdirs = 0, in_newdir = NEW_DIR_FILES;
	uint64_t old_files = 0, to_create;
	unsigned permille, rounds = 20, r, create_rounds;
	uint64_t total_ow;
	char path[4096], path2[4096], newdir[4096] = "";
	struct statvfs sv;
	const char *root;
	double t0 = now();
	struct dirent *de;
	int *bigfd;
	DIR *d;
	size_t i;

	if (argc < 5 || argc > 6)
		die("usage: age ROOT SEED DELETE_PERMILLE OVERWRITES [ROUNDS]");
	root = argv[1];
	rng_state = strtoull(argv[2], NULL, 0) * 0x9e3779b97f4a7c15ULL | 1;
	permille = (unsigned)strtoul(argv[3], NULL, 0);
	total_ow = strtoull(argv[4], NULL, 0);
	if (argc > 5)
		rounds = (unsigned)strtoul(argv[5], NULL, 0);
	if (permille > 1000 || !rounds)
		die("invalid DELETE_PERMILLE or ROUNDS");

	d = opendir(root);
	if (!d)
		die("%s: %s: while opening", root, strerror(errno));
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, de->d_name);
		if (lstat(path, &st))
			die("%s: %s: while reading its status", path, strerror(errno));
		if (S_ISDIR(st.st_mode))
			names_add(&dirs, de->d_name);
		else if (S_ISREG(st.st_mode) && (uint64_t)st.st_size >= BIG_MIN)
			names_add(&bigs, de->d_name);
	}
	closedir(d);
	if (!dirs.n || !bigs.n)
		die("%s: no directories or no big files to age", root);
	/* readdir order is the hash order: sort for a run that the seed fixes */
	qsort(dirs.v, dirs.n, sizeof(*dirs.v), cmp_name);
	qsort(bigs.v, bigs.n, sizeof(*bigs.v), cmp_name);
	bigfd = calloc(bigs.n, sizeof(*bigfd));
	if (!bigfd)
		die("out of memory");
	for (i = 0; i < bigs.n; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, bigs.v[i]);
		bigfd[i] = open(path, O_WRONLY);
		if (bigfd[i] < 0)
			die("%s: %s: while opening", path, strerror(errno));
	}
	/* how many files will be created in all: the expected deletions and 2% */
	for (i = 0; i < dirs.n; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs.v[i]);
		d = opendir(path);
		if (!d)
			die("%s: %s: while opening", path, strerror(errno));
		while ((de = readdir(d)))
			old_files += de->d_name[0] != '.';
		closedir(d);
	}
	to_create = old_files * permille / 1000 * 102 / 100;
	create_rounds = rounds * 3 / 4 ? rounds * 3 / 4 : 1;
	printf("age: %zu directories, %zu big files, deleting %u/1000, %" PRIu64
	       " overwrites in %u rounds\n", dirs.n, bigs.n, permille, total_ow, rounds);
	fflush(stdout);

	for (r = 0; r < rounds; r++) {
		uint64_t del_round = 0, make, k, ow;
		size_t di;

		/* Directories of this round are spread over the whole tree (and
		 * so over the nid range sload gave them). */
		for (di = r; di < dirs.n; di += rounds) {
			struct names files = { 0 };
			uint64_t del_dir = 0;

			snprintf(path, sizeof(path), "%s/%s", root, dirs.v[di]);
			d = opendir(path);
			if (!d)
				die("%s: %s: while opening", path, strerror(errno));
			while ((de = readdir(d)))
				if (de->d_name[0] != '.')
					names_add(&files, de->d_name);
			closedir(d);
			qsort(files.v, files.n, sizeof(*files.v),
			      cmp_name);
			for (i = 0; i < files.n; i++) {
				snprintf(path, sizeof(path), "%s/%s/%s", root, dirs.v[di], files.v[i]);
				if (below(1000) < permille) {
					if (unlink(path))
						die("%s: %s: while unlinking", path, strerror(errno));
					del_dir++;
				} else if (!below(60)) {
					append(path, 1 + below(8 * BLK), 0);
					appends++;
				} else if (!below(150)) {
					if (truncate(path, (off_t)below(2 * BLK)))
						die("%s: %s: while truncating", path, strerror(errno));
					truncs++;
				} else if (!below(100) && newdir[0]) {
					/* a hard link from a new directory */
					snprintf(path2, sizeof(path2), "%s/l%" PRIu64, newdir, links);
					if (link(path, path2))
						die("%s: %s: while linking", path2, strerror(errno));
					links++;
				} else if (!below(200)) {
					/* moved to another old directory */
					snprintf(path2, sizeof(path2), "%s/%s/m%" PRIu64, root,
						 dirs.v[below(dirs.n)], renames);
					if (rename(path, path2))
						die("%s: %s: while renaming", path, strerror(errno));
					renames++;
				}
			}
			/* a third of the deleted count comes back here, in the slots
			 * the deletions freed */
			for (k = 0; r < create_rounds && k < del_dir / 3; k++) {
				snprintf(path, sizeof(path), "%s/%s/g%" PRIu64 "-%u", root,
					 dirs.v[di], k, r);
				new_file(path, 0);
				created++;
			}
			del_round += del_dir;
			deleted += del_dir;
			names_free(&files);
		}
		/* the rest of this round's share goes to new directories */
		make = r < create_rounds ? to_create * (r + 1) / create_rounds : 0;
		make = make > created ? make - created : 0;
		for (k = 0; k < make; k++) {
			if (in_newdir >= NEW_DIR_FILES) {
				snprintf(newdir, sizeof(newdir), "%s/n%04" PRIu64, root, newdirs++);
				if (mkdir(newdir, 0755))
					die("%s: %s: while creating", newdir, strerror(errno));
				in_newdir = 0;
			}
			snprintf(path, sizeof(path), "%s/f%03" PRIu64, newdir, in_newdir++);
			/* a few are made durable on their own, before the checkpoint */
			new_file(path, !(k % 500));
			fsyncs += !(k % 500);
			created++;
		}
		/* random 4 KiB overwrites inside the big files */
		ow = total_ow / rounds + (r < total_ow % rounds);
		for (k = 0; k < ow; k++) {
			size_t b = below(bigs.n);
			struct stat st;

			if (fstat(bigfd[b], &st))
				die("%s: %s: while reading its size", bigs.v[b], strerror(errno));
			write_at(bigfd[b], BLK, (off_t)below((uint64_t)st.st_size / BLK) * BLK,
				 bigs.v[b]);
			overwrites++;
		}
		/* one big file grows, and one has its overwrites made durable */
		snprintf(path, sizeof(path), "%s/%s", root, bigs.v[r % bigs.n]);
		append(path, sizeof(buf), 1);
		appends++;
		fsyncs++;
		if (fdatasync(bigfd[(r + 1) % bigs.n]))
			die("%s: %s: while syncing", bigs.v[(r + 1) % bigs.n], strerror(errno));
		fsyncs++;
		sync();
		printf("age: round %u/%u: %" PRIu64 " deleted, %" PRIu64 " created in all, %"
		       PRIu64 " overwrites, %.0f s\n", r + 1, rounds, del_round, created,
		       overwrites, now() - t0);
		fflush(stdout);
	}
	for (i = 0; i < bigs.n; i++)
		close(bigfd[i]);
	if (statvfs(root, &sv))
		die("%s: %s: while reading usage", root, strerror(errno));
	printf("age: done in %.0f s: %" PRIu64 " deleted, %" PRIu64 " created in %" PRIu64
	       " new directories, %" PRIu64 " hard links, %" PRIu64 " renames, %" PRIu64
	       " overwrites, %" PRIu64 " appends, %" PRIu64 " truncations, %" PRIu64
	       " fsyncs; %.2f GiB used\n", now() - t0, deleted,
	       created, newdirs, links, renames, overwrites, appends, truncs, fsyncs,
	       (double)(sv.f_blocks - sv.f_bfree) * sv.f_frsize / (1 << 30));
	names_free(&dirs);
	names_free(&bigs);
	free(bigfd);
	return 0;
}
