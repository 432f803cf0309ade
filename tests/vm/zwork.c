// SPDX-License-Identifier: GPL-2.0-only
/*
 * zwork.c - the workload helper the kernel bench runs inside the guest.
 *
 * One static binary (the guest has only busybox) with a subcommand per job:
 * filling a directory, random overwrites with latency percentiles, building
 * a tree that touches many on-disk structures, writing and checking a
 * sha256 manifest, and calling the F2FS garbage collection ioctl.  File
 * contents come from a seeded generator, so a file can also be checked
 * without a manifest (writefile/checkfile), which is what survives a power
 * cut.  Every subcommand prints one summary line starting with its name;
 * errors go to stderr as "zwork: <what>: <strerror>" and exit 1.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <linux/fiemap.h>

#include "sha256.h"
#include "zwork.h"

/* F2FS_IOC_GARBAGE_COLLECT: _IOW(0xf5, 6, __u32); the argument selects a
 * foreground (1, synchronous) or background (0) collection. */
#define ZW_IOC_GARBAGE_COLLECT _IOW(0xf5, 6, uint32_t)
/* device aliasing (Linux 7.3's include/uapi/linux/f2fs.h) */
#define ZW_IOC_RESERVE_DEV_ALIAS _IO(0xf5, 28)
#define ZW_IOC_RELEASE_DEV_ALIAS _IO(0xf5, 29)
#define ZW_IOC_GET_DEV_ALIAS_STATUS _IOR(0xf5, 30, uint32_t)

#define KIB ((uint64_t)1024)
#define MIB ((uint64_t)1024 * 1024)

void die(const char *fmt, ...)
{
	va_list ap;

	fputs("zwork: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

unsigned long long parse_num(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		die("invalid %s: %s", what, s);
	return v;
}

/* ---- deterministic content ------------------------------------------------ */

/* splitmix64 to spread a seed, xorshift64* to produce the stream. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

struct rng {
	uint64_t s;
};

static void rng_seed(struct rng *r, uint64_t seed)
{
	r->s = mix64(seed) | 1;
}

static uint64_t rng_next(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

/* The bytes of a generated file at a 4 KiB-aligned block depend only on
 * (seed, block index), so any block can be regenerated for checking. */
void gen_block(uint64_t seed, uint64_t blkno, uint8_t *buf, size_t len)
{
	struct rng r;
	size_t i;

	rng_seed(&r, seed * 0x100000001b3ULL ^ blkno);
	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t v = rng_next(&r);

		memcpy(buf + i, &v, 8);
	}
	for (; i < len; i++)
		buf[i] = (uint8_t)rng_next(&r);
}

static void write_all(int fd, const void *buf, size_t len, off_t off, const char *path)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("%s: %s: while writing at %lld", path, strerror(errno),
			    (long long)off);
		}
		p += n;
		len -= (size_t)n;
		off += n;
	}
}

/* Writes a generated file of size bytes; returns 0, or -ENOSPC when the
 * file system filled up and allow_full was set. */
int gen_file(const char *path, uint64_t size, uint64_t seed, int do_fsync,
		    int allow_full)
{
	static uint8_t buf[64 * 1024];
	uint64_t off = 0;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		if (allow_full && errno == ENOSPC)
			return -ENOSPC;
		die("%s: %s: while creating", path, strerror(errno));
	}
	while (off < size) {
		size_t len = size - off < sizeof(buf) ? (size_t)(size - off) : sizeof(buf);
		size_t i;
		ssize_t n;

		for (i = 0; i < len; i += 4096)
			gen_block(seed, (off + i) / 4096, buf + i,
				  len - i < 4096 ? len - i : 4096);
		n = pwrite(fd, buf, len, (off_t)off);
		if (n < 0 && allow_full && errno == ENOSPC) {
			close(fd);
			return -ENOSPC;
		}
		if (n < 0)
			die("%s: %s: while writing at %" PRIu64, path, strerror(errno), off);
		off += (uint64_t)n;
	}
	if (do_fsync && fsync(fd))
		die("%s: %s: while syncing", path, strerror(errno));
	if (close(fd))
		die("%s: %s: while closing", path, strerror(errno));
	return 0;
}

/* ---- fill ---------------------------------------------------------------------- */

static double fs_used_pct(const char *dir)
{
	struct statvfs st;

	if (statvfs(dir, &st))
		die("%s: %s: while reading statvfs", dir, strerror(errno));
	if (!st.f_blocks)
		return 100.0;
	return 100.0 * (double)(st.f_blocks - st.f_bfree) / (double)st.f_blocks;
}

/* fill DIR TARGET FILE_KIB [SEED]: TARGET is "<n>M" (MiB written) or
 * "<n>%" (file system usage). */
static int cmd_fill(int argc, char **argv)
{
	const char *dir, *target;
	uint64_t file_size, seed = 1, written = 0, limit = 0;
	double pct = 0;
	unsigned int count = 0;
	size_t tl;
	char path[4096];
	int full = 0;

	if (argc < 3)
		die("usage: fill DIR <MiB>M|<pct>%% FILE_KIB [SEED]");
	dir = argv[0];
	target = argv[1];
	file_size = parse_num(argv[2], "file size") * KIB;
	if (argc > 3)
		seed = parse_num(argv[3], "seed");
	tl = strlen(target);
	if (tl < 2)
		die("invalid target: %s", target);
	{
		char num[32];

		snprintf(num, sizeof(num), "%.*s", (int)(tl - 1), target);
		if (target[tl - 1] == '%')
			pct = (double)parse_num(num, "percentage");
		else if (target[tl - 1] == 'M')
			limit = parse_num(num, "size") * MIB;
		else
			die("target must end in M or %%: %s", target);
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		die("%s: %s: while creating", dir, strerror(errno));

	for (;;) {
		if (limit && written >= limit)
			break;
		if (pct > 0 && fs_used_pct(dir) >= pct)
			break;
		snprintf(path, sizeof(path), "%s/fill-%06u", dir, count);
		if (gen_file(path, file_size, seed + count, 0, 1)) {
			full = 1;
			break;
		}
		written += file_size;
		count++;
	}
	printf("fill: %u files of %" PRIu64 " KiB, %" PRIu64 " MiB written, usage %.1f%%%s\n",
	       count, file_size / KIB, written / MIB, fs_used_pct(dir),
	       full ? " (stopped: no space)" : "");
	return 0;
}

/* ---- overwrite ------------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void print_percentiles(const char *name, uint64_t *lat, size_t n)
{
	static const double pcts[] = { 50, 90, 99, 99.9 };
	size_t i;

	if (!n)
		return;
	qsort(lat, n, sizeof(*lat), cmp_u64);
	printf("%s: latency_us", name);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		size_t idx = (size_t)((double)(n - 1) * pcts[i] / 100.0);

		printf(" p%g=%" PRIu64, pcts[i], lat[idx] / 1000);
	}
	printf(" max=%" PRIu64 "\n", lat[n - 1] / 1000);
}

struct file_list {
	char **names;
	uint64_t *sizes;
	size_t n;
};

static void list_files(const char *dir, uint64_t min_size, struct file_list *fl)
{
	struct dirent **ents;
	int n, i;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		die("%s: %s: while listing", dir, strerror(errno));
	fl->names = calloc((size_t)n + 1, sizeof(char *));
	fl->sizes = calloc((size_t)n + 1, sizeof(uint64_t));
	fl->n = 0;
	if (!fl->names || !fl->sizes)
		die("out of memory");
	for (i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (!lstat(path, &st) && S_ISREG(st.st_mode) &&
		    (uint64_t)st.st_size >= min_size) {
			fl->names[fl->n] = strdup(path);
			fl->sizes[fl->n] = (uint64_t)st.st_size;
			fl->n++;
		}
		free(ents[i]);
	}
	free(ents);
}

/* overwrite DIR COUNT BS SEED [sync]: COUNT writes of BS bytes at random
 * BS-aligned offsets of random files of DIR (not recursive). */
static int cmd_overwrite(int argc, char **argv)
{
	struct file_list fl;
	struct rng r;
	uint64_t count, bs, seed, i, *lat;
	uint8_t *buf;
	int sync_flag = 0;

	if (argc < 4)
		die("usage: overwrite DIR COUNT BS SEED [sync]");
	count = parse_num(argv[1], "count");
	bs = parse_num(argv[2], "block size");
	seed = parse_num(argv[3], "seed");
	if (argc > 4 && !strcmp(argv[4], "sync"))
		sync_flag = O_SYNC;
	if (!bs || bs > 64 * MIB)
		die("invalid block size: %s", argv[2]);
	list_files(argv[0], bs, &fl);
	if (!fl.n)
		die("%s: no file of at least %" PRIu64 " bytes", argv[0], bs);
	buf = malloc(bs);
	lat = calloc(count ? count : 1, sizeof(*lat));
	if (!buf || !lat)
		die("out of memory");
	rng_seed(&r, seed);

	for (i = 0; i < count; i++) {
		size_t f = (size_t)(rng_next(&r) % fl.n);
		uint64_t off = rng_next(&r) % (fl.sizes[f] / bs) * bs;
		uint64_t t0;
		int fd;

		gen_block(seed ^ 0x5eed, i, buf, bs);
		fd = open(fl.names[f], O_WRONLY | sync_flag);
		if (fd < 0)
			die("%s: %s: while opening", fl.names[f], strerror(errno));
		t0 = now_ns();
		write_all(fd, buf, bs, (off_t)off, fl.names[f]);
		lat[i] = now_ns() - t0;
		if (close(fd))
			die("%s: %s: while closing", fl.names[f], strerror(errno));
	}
	printf("overwrite: %" PRIu64 " writes of %" PRIu64 " bytes over %zu files%s, usage %.1f%%\n",
	       count, bs, fl.n, sync_flag ? " (O_SYNC)" : "", fs_used_pct(argv[0]));
	print_percentiles("overwrite", lat, count);
	return 0;
}

/* ---- varied tree ------------------------------------------------------------------ */

static void mkdir_or_die(const char *path)
{
	if (mkdir(path, 0755))
		die("%s: %s: while creating directory", path, strerror(errno));
}

static void join(char *out, size_t outlen, const char *dir, const char *name)
{
	if ((size_t)snprintf(out, outlen, "%s/%s", dir, name) >= outlen)
		die("path too long: %s/%s", dir, name);
}

static void small_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die("%s: %s: while creating", path, strerror(errno));
	write_all(fd, text, strlen(text), 0, path);
	close(fd);
}

static void set_xattr(const char *path, const char *name, size_t len, uint64_t seed)
{
	uint8_t *val = malloc(len ? len : 1);

	if (!val)
		die("out of memory");
	gen_block(seed, 0, val, len);
	if (lsetxattr(path, name, val, len, 0))
		die("%s: %s: while setting xattr %s", path, strerror(errno), name);
	free(val);
}

/* tree DIR: everything a first mount should exercise.  Deterministic, so
 * two runs give the same manifest (times are not part of it). */
static int cmd_tree(int argc, char **argv)
{
	/* sizes around the inline-data limit, one block, node boundaries, and
	 * past the direct pointers of the inode and its direct nodes */
	static const uint64_t sizes[] = {
		0, 1, 100, 3000, 3400, 3500, 4095, 4096, 4097, 65536, 1 * MIB + 17,
		6 * MIB, 13 * MIB + 4096 * 3 + 5,
	};
	char base[1024], p[2048], q[4096], target[4096];
	unsigned int i, entries = 0;
	int fd;

	if (argc < 1)
		die("usage: tree DIR");
	snprintf(base, sizeof(base), "%s", argv[0]);
	mkdir_or_die(base);

	/* regular files of many sizes */
	join(p, sizeof(p), base, "sizes");
	mkdir_or_die(p);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		snprintf(q, sizeof(q), "%s/size-%" PRIu64, p, sizes[i]);
		gen_file(q, sizes[i], 1000 + i, 0, 0);
		entries++;
	}

	/* small inline files */
	join(p, sizeof(p), base, "inline");
	mkdir_or_die(p);
	for (i = 0; i < 64; i++) {
		char text[128];

		snprintf(q, sizeof(q), "%s/note-%02u", p, i);
		snprintf(text, sizeof(text), "inline file %u: %.*s\n", i, (int)(i % 90),
			 "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			 "abcdefghijklmnopqrstuvwxyzABCD");
		small_file(q, text);
		entries++;
	}

	/* sparse files: holes at the start, in the middle and at the end */
	join(p, sizeof(p), base, "sparse");
	mkdir_or_die(p);
	{
		static const uint64_t offs[] = { 0, 5 * MIB + 4096, 15 * MIB };
		uint8_t blk[4096];

		join(q, sizeof(q), p, "holes");
		fd = open(q, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			die("%s: %s: while creating", q, strerror(errno));
		if (ftruncate(fd, (off_t)(16 * MIB)))
			die("%s: %s: while truncating", q, strerror(errno));
		for (i = 0; i < 3; i++) {
			gen_block(77, i, blk, sizeof(blk));
			write_all(fd, blk, sizeof(blk), (off_t)offs[i], q);
		}
		close(fd);

		join(q, sizeof(q), p, "tail-only");
		fd = open(q, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			die("%s: %s: while creating", q, strerror(errno));
		gen_block(78, 0, blk, sizeof(blk));
		write_all(fd, blk, 123, (off_t)(40 * MIB), q);
		close(fd);
		entries += 2;
	}

	/* a large directory: multi-level hashed dentries */
	join(p, sizeof(p), base, "bigdir");
	mkdir_or_die(p);
	for (i = 0; i < 2300; i++) {
		char text[64];

		snprintf(q, sizeof(q), "%s/entry-with-a-longer-name-%05u", p, i);
		snprintf(text, sizeof(text), "%u\n", i * 7919);
		small_file(q, text);
		entries++;
	}
	/* a name of the maximum length */
	memset(target, 'n', 255);
	target[255] = '\0';
	join(q, sizeof(q), p, target);
	small_file(q, "longest name\n");

	/* hard links within and across directories */
	join(p, sizeof(p), base, "links");
	mkdir_or_die(p);
	join(q, sizeof(q), p, "origin");
	gen_file(q, 10000, 2000, 0, 0);
	for (i = 1; i <= 3; i++) {
		char l[4096];

		snprintf(l, sizeof(l), "%s/link-%u", p, i);
		if (link(q, l))
			die("%s: %s: while linking", l, strerror(errno));
	}
	{
		char l[4096];

		join(l, sizeof(l), base, "sizes/hardlink-to-origin");
		if (link(q, l))
			die("%s: %s: while linking", l, strerror(errno));
	}

	/* symlinks: short (inline), long, dangling, to a directory */
	join(q, sizeof(q), p, "sym-short");
	if (symlink("origin", q))
		die("%s: %s: while creating symlink", q, strerror(errno));
	for (i = 0; i < 3000; i++)
		target[i] = (char)('a' + i % 26);
	for (i = 100; i < 3000; i += 100)
		target[i] = '/';
	target[3000] = '\0';
	join(q, sizeof(q), p, "sym-long");
	if (symlink(target, q))
		die("%s: %s: while creating a 3000-byte symlink", q, strerror(errno));
	join(q, sizeof(q), p, "sym-dangling");
	if (symlink("/does/not/exist", q))
		die("%s: %s: while creating symlink", q, strerror(errno));
	join(q, sizeof(q), p, "sym-dir");
	if (symlink("../sizes", q))
		die("%s: %s: while creating symlink", q, strerror(errno));

	/* xattrs: small (inline), large (xattr node), on files and dirs */
	join(p, sizeof(p), base, "xattr");
	mkdir_or_die(p);
	join(q, sizeof(q), p, "small");
	small_file(q, "xattr carrier\n");
	set_xattr(q, "user.a", 8, 1);
	set_xattr(q, "user.b", 40, 2);
	join(q, sizeof(q), p, "large");
	gen_file(q, 5000, 3000, 0, 0);
	set_xattr(q, "user.big1", 1500, 3);
	set_xattr(q, "user.big2", 1500, 4);
	set_xattr(q, "trusted.t", 100, 5);
	set_xattr(p, "user.on-dir", 60, 6);

	/* special files */
	join(p, sizeof(p), base, "special");
	mkdir_or_die(p);
	join(q, sizeof(q), p, "fifo");
	if (mkfifo(q, 0600))
		die("%s: %s: while creating fifo", q, strerror(errno));
	join(q, sizeof(q), p, "null");
	if (mknod(q, S_IFCHR | 0666, makedev(1, 3)))
		die("%s: %s: while creating device node", q, strerror(errno));
	join(q, sizeof(q), p, "empty-dir");
	mkdir_or_die(q);

	/* a deep chain of directories */
	join(p, sizeof(p), base, "deep");
	mkdir_or_die(p);
	for (i = 0; i < 16; i++) {
		size_t len = strlen(p);

		if (len + 3 > sizeof(p))
			die("path too long: %s", p);
		memcpy(p + len, "/d", 3);
		mkdir_or_die(p);
	}
	join(q, sizeof(q), p, "bottom");
	small_file(q, "bottom of the chain\n");

	printf("tree: %s built (%u files in the main sets)\n", base, entries);
	return 0;
}

/* ---- manifest -------------------------------------------------------------------- */

struct manifest_stats {
	unsigned long entries;
	unsigned long long bytes;
};

static void digest_file(const char *path, char hex[65])
{
	static uint8_t buf[256 * 1024];
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_LEN];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("%s: %s: while opening for digest", path, strerror(errno));
	sha256_init(&ctx);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&ctx, buf, (size_t)n);
	if (n < 0)
		die("%s: %s: while reading", path, strerror(errno));
	close(fd);
	sha256_final(&ctx, d);
	sha256_hex(d, hex);
}

static void digest_mem(const void *p, size_t len, char hex[65])
{
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_LEN];

	sha256_init(&ctx);
	sha256_update(&ctx, p, len);
	sha256_final(&ctx, d);
	sha256_hex(d, hex);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Digest of all extended attributes as sorted "name=<value digest>" lines,
 * or "-" when there are none. */
static void digest_xattrs(const char *path, char out[17])
{
	char names[65536], *n, **list;
	ssize_t len;
	size_t count = 0, i;
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_LEN];
	char hex[65];

	len = llistxattr(path, names, sizeof(names));
	if (len < 0)
		die("%s: %s: while listing xattrs", path, strerror(errno));
	if (len == 0) {
		strcpy(out, "-");
		return;
	}
	for (n = names; n < names + len; n += strlen(n) + 1)
		count++;
	list = calloc(count, sizeof(*list));
	if (!list)
		die("out of memory");
	i = 0;
	for (n = names; n < names + len; n += strlen(n) + 1)
		list[i++] = n;
	qsort(list, count, sizeof(*list), cmp_str);
	sha256_init(&ctx);
	for (i = 0; i < count; i++) {
		static uint8_t val[65536];
		ssize_t vl = lgetxattr(path, list[i], val, sizeof(val));

		if (vl < 0)
			die("%s: %s: while reading xattr %s", path, strerror(errno), list[i]);
		digest_mem(val, (size_t)vl, hex);
		sha256_update(&ctx, list[i], strlen(list[i]));
		sha256_update(&ctx, "=", 1);
		sha256_update(&ctx, hex, 64);
		sha256_update(&ctx, "\n", 1);
	}
	free(list);
	sha256_final(&ctx, d);
	sha256_hex(d, hex);
	memcpy(out, hex, 16);
	out[16] = '\0';
}

/* One line per object, in sorted path order:
 *   <type> <mode> <nlink> <size> <digest> <xattrs> <relative path>
 * type f/d/l/p/c/b/s; the digest covers file data, a directory's sorted
 * entry names, a symlink's target, or a device number. */
static void walk(FILE *out, const char *root, const char *rel, struct manifest_stats *ms)
{
	char path[8192], hex[65], xh[17];
	struct dirent **ents;
	struct stat st;
	int n, i;
	char type;

	snprintf(path, sizeof(path), "%s%s%s", root, *rel ? "/" : "", rel);
	if (lstat(path, &st))
		die("%s: %s: while reading status", path, strerror(errno));
	digest_xattrs(path, xh);
	ms->entries++;

	if (S_ISDIR(st.st_mode)) {
		struct sha256_ctx ctx;
		uint8_t d[SHA256_DIGEST_LEN];

		n = scandir(path, &ents, NULL, alphasort);
		if (n < 0)
			die("%s: %s: while listing", path, strerror(errno));
		sha256_init(&ctx);
		for (i = 0; i < n; i++) {
			sha256_update(&ctx, ents[i]->d_name, strlen(ents[i]->d_name) + 1);
		}
		sha256_final(&ctx, d);
		sha256_hex(d, hex);
		/* a directory's size is layout, not content: print 0 */
		fprintf(out, "d %04o %lu 0 %s %s %s\n", (unsigned int)(st.st_mode & 07777),
			(unsigned long)st.st_nlink, hex, xh, *rel ? rel : ".");
		for (i = 0; i < n; i++) {
			const char *name = ents[i]->d_name;

			if (strcmp(name, ".") && strcmp(name, "..")) {
				char sub[8192];

				snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", name);
				walk(out, root, sub, ms);
			}
			free(ents[i]);
		}
		free(ents);
		return;
	}

	if (S_ISREG(st.st_mode)) {
		type = 'f';
		digest_file(path, hex);
		ms->bytes += (unsigned long long)st.st_size;
	} else if (S_ISLNK(st.st_mode)) {
		char t[8192];
		ssize_t tl = readlink(path, t, sizeof(t));

		if (tl < 0)
			die("%s: %s: while reading link", path, strerror(errno));
		type = 'l';
		digest_mem(t, (size_t)tl, hex);
	} else {
		char dev[64];

		type = S_ISFIFO(st.st_mode) ? 'p' : S_ISCHR(st.st_mode) ? 'c' :
		       S_ISBLK(st.st_mode) ? 'b' : 's';
		snprintf(dev, sizeof(dev), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
		digest_mem(dev, strlen(dev), hex);
	}
	fprintf(out, "%c %04o %lu %lld %s %s %s\n", type, (unsigned int)(st.st_mode & 07777),
		(unsigned long)st.st_nlink, (long long)st.st_size, hex, xh, rel);
}

static int cmd_manifest(int argc, char **argv)
{
	struct manifest_stats ms = { 0, 0 };
	FILE *out;

	if (argc < 2)
		die("usage: manifest DIR OUTFILE");
	out = fopen(argv[1], "w");
	if (!out)
		die("%s: %s: while creating", argv[1], strerror(errno));
	walk(out, argv[0], "", &ms);
	if (fflush(out) || fsync(fileno(out)) || fclose(out))
		die("%s: %s: while writing", argv[1], strerror(errno));
	printf("manifest: %lu entries, %llu MiB of file data, written to %s\n",
	       ms.entries, ms.bytes / MIB, argv[1]);
	return 0;
}

static int cmd_verify(int argc, char **argv)
{
	struct manifest_stats ms = { 0, 0 };
	char *now = NULL, *want_line = NULL, *p, *eol;
	size_t now_len = 0, cap = 0;
	unsigned long line = 0, bad = 0;
	FILE *mem, *want;

	if (argc < 2)
		die("usage: verify DIR MANIFEST");
	want = fopen(argv[1], "r");
	if (!want)
		die("%s: %s: while opening", argv[1], strerror(errno));
	mem = open_memstream(&now, &now_len);
	if (!mem)
		die("out of memory");
	walk(mem, argv[0], "", &ms);
	fclose(mem);

	p = now;
	while (getline(&want_line, &cap, want) > 0) {
		line++;
		eol = strchr(p, '\n');
		if (!eol) {
			if (bad++ < 20)
				printf("verify: MISSING  %s", want_line);
			continue;
		}
		if ((size_t)(eol - p + 1) != strlen(want_line) ||
		    memcmp(p, want_line, (size_t)(eol - p + 1))) {
			if (bad++ < 20) {
				printf("verify: EXPECTED %s", want_line);
				printf("verify: FOUND    %.*s\n", (int)(eol - p), p);
			}
		}
		p = eol + 1;
	}
	if (*p) {
		bad++;
		printf("verify: EXTRA    %s", p);
	}
	fclose(want);
	free(want_line);
	free(now);
	if (bad) {
		printf("verify: FAILED, %lu of %lu entries differ\n", bad, line);
		return 1;
	}
	printf("verify: %lu entries match %s\n", line, argv[1]);
	return 0;
}

/* ---- writefile / checkfile ----------------------------------------------------- */

static int cmd_writefile(int argc, char **argv)
{
	uint64_t size, seed;
	int do_fsync;

	if (argc < 3)
		die("usage: writefile FILE SIZE_KIB SEED [fsync]");
	size = parse_num(argv[1], "size") * KIB;
	seed = parse_num(argv[2], "seed");
	do_fsync = argc > 3 && !strcmp(argv[3], "fsync");
	gen_file(argv[0], size, seed, do_fsync, 0);
	printf("writefile: %s %" PRIu64 " KiB seed %" PRIu64 "%s\n", argv[0], size / KIB,
	       seed, do_fsync ? " fsynced" : "");
	return 0;
}

static int cmd_checkfile(int argc, char **argv)
{
	static uint8_t want[4096], got[4096];
	uint64_t size, seed, off;
	struct stat st;
	int fd;

	if (argc < 3)
		die("usage: checkfile FILE SIZE_KIB SEED");
	size = parse_num(argv[1], "size") * KIB;
	seed = parse_num(argv[2], "seed");
	fd = open(argv[0], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die("%s: %s: while opening", argv[0], strerror(errno));
	if ((uint64_t)st.st_size != size) {
		printf("checkfile: FAILED %s: size %lld, expected %" PRIu64 "\n", argv[0],
		       (long long)st.st_size, size);
		return 1;
	}
	for (off = 0; off < size; off += 4096) {
		size_t len = size - off < 4096 ? (size_t)(size - off) : 4096;

		if (pread(fd, got, len, (off_t)off) != (ssize_t)len)
			die("%s: short read at %" PRIu64, argv[0], off);
		gen_block(seed, off / 4096, want, len);
		if (memcmp(want, got, len)) {
			printf("checkfile: FAILED %s: data differs in block %" PRIu64 "\n",
			       argv[0], off / 4096);
			return 1;
		}
	}
	close(fd);
	printf("checkfile: %s matches (%" PRIu64 " KiB, seed %" PRIu64 ")\n", argv[0],
	       size / KIB, seed);
	return 0;
}

/* ---- gc -------------------------------------------------------------------------- */

/* gc PATH 1|0 [COUNT]: calls F2FS_IOC_GARBAGE_COLLECT up to COUNT times,
 * stopping at the first error (EAGAIN or ENODATA: nothing to collect). */
static int cmd_gc(int argc, char **argv)
{
	unsigned long long count = 1, i, ok = 0;
	uint32_t sync_arg;
	int fd, err = 0;

	if (argc < 2)
		die("usage: gc PATH 1|0 [COUNT]");
	sync_arg = (uint32_t)parse_num(argv[1], "sync flag");
	if (argc > 2)
		count = parse_num(argv[2], "count");
	fd = open(argv[0], O_RDONLY);
	if (fd < 0)
		die("%s: %s: while opening", argv[0], strerror(errno));
	for (i = 0; i < count; i++) {
		if (ioctl(fd, ZW_IOC_GARBAGE_COLLECT, &sync_arg)) {
			err = errno;
			break;
		}
		ok++;
	}
	close(fd);
	printf("gc: %s %llu of %llu calls done%s%s\n", sync_arg ? "foreground" : "background",
	       ok, count, err ? ", stopped: " : "", err ? strerror(err) : "");
	/* running out of victims is an answer, not a failure */
	return err && err != EAGAIN && err != ENODATA;
}

/* devalias FILE release|reserve|status: F2FS_IOC_RELEASE_DEV_ALIAS (the device's blocks
 * become free space, the file size 0), F2FS_IOC_RESERVE_DEV_ALIAS (the file holds its
 * device again), or F2FS_IOC_GET_DEV_ALIAS_STATUS, printed as released or reserved. */
static int cmd_devalias(int argc, char **argv)
{
	uint32_t status = 0;
	unsigned long req;
	int fd;

	if (argc < 2)
		die("usage: devalias FILE release|reserve|status");
	if (!strcmp(argv[1], "release"))
		req = ZW_IOC_RELEASE_DEV_ALIAS;
	else if (!strcmp(argv[1], "reserve"))
		req = ZW_IOC_RESERVE_DEV_ALIAS;
	else if (!strcmp(argv[1], "status"))
		req = ZW_IOC_GET_DEV_ALIAS_STATUS;
	else
		die("devalias: unknown operation %s (release, reserve or status)", argv[1]);
	fd = open(argv[0], O_RDONLY);
	if (fd < 0)
		die("%s: %s: while opening", argv[0], strerror(errno));
	if (ioctl(fd, req, &status))
		die("%s: %s: devalias %s", argv[0], strerror(errno), argv[1]);
	close(fd);
	if (req == ZW_IOC_GET_DEV_ALIAS_STATUS)
		printf("devalias: %s is %s\n", argv[0], status ? "reserved" : "released");
	else
		printf("devalias: %s %sd\n", argv[0], argv[1]);
	return 0;
}

/* ---- zones -------------------------------------------------------------------- */

/* projid PATH ID: set a file's project id (what chattr -p does), so that project quota
 * charges it to ID. */
static int cmd_projid(int argc, char **argv)
{
	struct fsxattr fa;
	int fd;

	if (argc < 2)
		die("usage: projid PATH ID");
	fd = open(argv[0], O_RDONLY);
	if (fd < 0)
		die("%s: %s: while opening", argv[0], strerror(errno));
	if (ioctl(fd, FS_IOC_FSGETXATTR, &fa))
		die("%s: %s: while reading its attributes", argv[0], strerror(errno));
	fa.fsx_projid = (uint32_t)strtoul(argv[1], NULL, 0);
	if (ioctl(fd, FS_IOC_FSSETXATTR, &fa))
		die("%s: %s: while setting project id %s", argv[0], strerror(errno), argv[1]);
	close(fd);
	return 0;
}

/* zones DEV: the kernel's zone report (BLKREPORTZONE), one line per zone in
 * 512-byte sectors: "zone START LEN CAP WP TYPE COND". */
static int cmd_zones(int argc, char **argv)
{
	enum { BATCH = 256 };
	size_t sz = sizeof(struct blk_zone_report) + BATCH * sizeof(struct blk_zone);
	struct blk_zone_report *rep = calloc(1, sz);
	uint64_t sector = 0, n = 0;
	int fd;

	if (argc < 1 || !rep)
		die("usage: zones DEV");
	fd = open(argv[0], O_RDONLY);
	if (fd < 0)
		die("%s: %s: while opening", argv[0], strerror(errno));
	for (;;) {
		memset(rep, 0, sz);
		rep->sector = sector;
		rep->nr_zones = BATCH;
		if (ioctl(fd, BLKREPORTZONE, rep))
			die("%s: %s: while reporting zones", argv[0], strerror(errno));
		if (!rep->nr_zones)
			break;
		for (uint32_t i = 0; i < rep->nr_zones; i++) {
			struct blk_zone *z = &rep->zones[i];

			printf("zone %llu %llu %llu %llu %u %u\n", (unsigned long long)z->start,
			       (unsigned long long)z->len, (unsigned long long)z->capacity,
			       (unsigned long long)z->wp, z->type, z->cond);
			sector = z->start + z->len;
			n++;
		}
	}
	close(fd);
	free(rep);
	printf("zones: %" PRIu64 " zones\n", n);
	return 0;
}

/* zoneop DEV reset|finish SECTOR: one zone operation on the zone at SECTOR. */
static int cmd_zoneop(int argc, char **argv)
{
	struct blk_zone_report *rep = calloc(1, sizeof(*rep) + sizeof(struct blk_zone));
	struct blk_zone_range r;
	unsigned long op;
	int fd;

	if (argc < 3 || !rep)
		die("usage: zoneop DEV reset|finish SECTOR");
	op = !strcmp(argv[1], "reset") ? BLKRESETZONE : BLKFINISHZONE;
	fd = open(argv[0], O_RDWR);
	if (fd < 0)
		die("%s: %s: while opening", argv[0], strerror(errno));
	rep->sector = parse_num(argv[2], "sector");
	rep->nr_zones = 1;
	if (ioctl(fd, BLKREPORTZONE, rep) || rep->nr_zones != 1)
		die("%s: %s: while reporting the zone", argv[0], strerror(errno));
	r.sector = rep->zones[0].start;
	r.nr_sectors = rep->zones[0].len;
	if (ioctl(fd, op, &r))
		die("%s: %s: while %s the zone at %llu", argv[0], strerror(errno), argv[1],
		    (unsigned long long)r.sector);
	close(fd);
	free(rep);
	printf("zoneop: %s zone at sector %llu\n", argv[1], (unsigned long long)r.sector);
	return 0;
}

/* zonewrite DEV SECTOR BLOCKS: BLOCKS 4 KiB blocks of 0x5a at SECTOR with
 * O_DIRECT (a zone's write pointer must be there). */
static int cmd_zonewrite(int argc, char **argv)
{
	uint64_t at, nb;
	void *buf;
	int fd;

	if (argc < 3)
		die("usage: zonewrite DEV SECTOR BLOCKS");
	at = parse_num(argv[1], "sector") * 512;
	nb = parse_num(argv[2], "blocks");
	if (posix_memalign(&buf, 4096, 4096))
		die("out of memory");
	memset(buf, 0x5a, 4096);
	fd = open(argv[0], O_WRONLY | O_DIRECT);
	if (fd < 0)
		die("%s: %s: while opening", argv[0], strerror(errno));
	for (uint64_t i = 0; i < nb; i++)
		if (pwrite(fd, buf, 4096, (off_t)(at + i * 4096)) != 4096)
			die("%s: %s: while writing at byte %llu", argv[0], strerror(errno),
			    (unsigned long long)(at + i * 4096));
	close(fd);
	free(buf);
	printf("zonewrite: %" PRIu64 " blocks at sector %" PRIu64 "\n", nb, at / 512);
	return 0;
}

/* ---- self test ---------------------------------------------------------------- */

static int cmd_selftest(int argc, char **argv)
{
	static const struct {
		const char *msg, *hex;
	} vec[] = {
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	};
	size_t i;
	char hex[65];

	(void)argc;
	(void)argv;
	for (i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		digest_mem(vec[i].msg, strlen(vec[i].msg), hex);
		if (strcmp(hex, vec[i].hex)) {
			printf("selftest: sha256 vector %zu FAILED: %s\n", i, hex);
			return 1;
		}
	}
	printf("selftest: sha256 ok\n");
	return 0;
}

/* label PATH: the volume label the kernel reports for the file system holding PATH
 * (FS_IOC_GETFSLABEL), printed between quotes. */
static int cmd_label(int argc, char **argv)
{
	char label[FSLABEL_MAX + 1] = { 0 };
	int fd;

	if (argc < 1)
		die("usage: label PATH");
	fd = open(argv[0], O_RDONLY);
	if (fd < 0)
		die("%s: %s: while opening", argv[0], strerror(errno));
	if (ioctl(fd, FS_IOC_GETFSLABEL, label))
		die("%s: %s: while asking for the label", argv[0], strerror(errno));
	close(fd);
	printf("label: \"%s\"\n", label);
	return 0;
}

/* ---- interleave / fiemap ---------------------------------------------------------- */

/* interleave BLOCKS SEED FILE...: O_DIRECT writes of 4 KiB, block 0 of every file, then
 * block 1 of every file, ...: the allocation pattern of concurrent direct-I/O writers,
 * made deterministic.  File k holds gen_block(SEED + k) data (checkfile can read it). */
static int cmd_interleave(int argc, char **argv)
{
	uint64_t blocks, seed;
	int n = argc - 2, *fd;
	uint8_t *buf;

	if (argc < 3)
		die("usage: interleave BLOCKS SEED FILE...");
	blocks = parse_num(argv[0], "blocks");
	seed = parse_num(argv[1], "seed");
	fd = calloc((size_t)n, sizeof(*fd));
	if (!fd || posix_memalign((void **)&buf, 4096, 4096))
		die("out of memory");
	for (int k = 0; k < n; k++) {
		fd[k] = open(argv[2 + k], O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0644);
		if (fd[k] < 0)
			die("%s: %s: while opening with O_DIRECT", argv[2 + k], strerror(errno));
	}
	for (uint64_t b = 0; b < blocks; b++)
		for (int k = 0; k < n; k++) {
			gen_block(seed + (uint64_t)k, b, buf, 4096);
			if (pwrite(fd[k], buf, 4096, (off_t)(b * 4096)) != 4096)
				die("%s: %s: while writing block %" PRIu64, argv[2 + k],
				    strerror(errno), b);
		}
	for (int k = 0; k < n; k++)
		if (fsync(fd[k]) || close(fd[k]))
			die("%s: %s: while syncing", argv[2 + k], strerror(errno));
	printf("interleave: %d files of %" PRIu64 " blocks, seed %" PRIu64 "\n", n, blocks, seed);
	free(fd);
	free(buf);
	return 0;
}

/* fiemap FILE: the kernel's extents of FILE (FS_IOC_FIEMAP after a sync), and the same
 * merged where one ends at the block before the next one starts, logically and physically. */
static int cmd_fiemap(int argc, char **argv)
{
	enum { BATCH = 256 };
	struct fiemap *fm;
	uint64_t start = 0, raw = 0, merged = 0, blocks = 0, next_l = 0, next_p = 0;
	bool last = false;
	int fd;

	if (argc < 1)
		die("usage: fiemap FILE");
	fd = open(argv[0], O_RDONLY);
	if (fd < 0)
		die("%s: %s: while opening", argv[0], strerror(errno));
	fm = calloc(1, sizeof(*fm) + BATCH * sizeof(struct fiemap_extent));
	if (!fm)
		die("out of memory");
	while (!last) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm))
			die("%s: %s: FS_IOC_FIEMAP", argv[0], strerror(errno));
		if (!fm->fm_mapped_extents)
			break;
		for (uint32_t i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];

			raw++;
			blocks += e->fe_length / 4096;
			if (!(merged && e->fe_logical == next_l && e->fe_physical == next_p))
				merged++;
			next_l = e->fe_logical + e->fe_length;
			next_p = e->fe_physical + e->fe_length;
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				last = true;
		}
		start = next_l;
	}
	close(fd);
	free(fm);
	printf("fiemap: %s %" PRIu64 " extents %" PRIu64 " merged %" PRIu64 " blocks\n", argv[0],
	       raw, merged, blocks);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
} commands[] = {
	{ "fill", cmd_fill, "DIR <MiB>M|<pct>% FILE_KIB [SEED]" },
	{ "overwrite", cmd_overwrite, "DIR COUNT BS SEED [sync]" },
	{ "tree", cmd_tree, "DIR" },
	{ "manifest", cmd_manifest, "DIR OUTFILE" },
	{ "verify", cmd_verify, "DIR MANIFEST" },
	{ "writefile", cmd_writefile, "FILE SIZE_KIB SEED [fsync]" },
	{ "checkfile", cmd_checkfile, "FILE SIZE_KIB SEED" },
	{ "projid", cmd_projid, "PATH ID" },
	{ "gc", cmd_gc, "PATH 1|0 [COUNT]" },
	{ "devalias", cmd_devalias, "FILE release|reserve|status" },
	{ "zones", cmd_zones, "DEV" },
	{ "zoneop", cmd_zoneop, "DEV reset|finish SECTOR" },
	{ "zonewrite", cmd_zonewrite, "DEV SECTOR BLOCKS" },
	{ "label", cmd_label, "PATH" },
	{ "interleave", cmd_interleave, "BLOCKS SEED FILE..." },
	{ "fiemap", cmd_fiemap, "FILE" },
	{ "selftest", cmd_selftest, "" },
	ZWORK_CONTENT_COMMANDS
};

int main(int argc, char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2) {
		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[1], commands[i].name))
				return commands[i].fn(argc - 2, argv + 2);
		if (!strcmp(argv[1], "--help")) {
			for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
				printf("zwork %s %s\n", commands[i].name, commands[i].usage);
			return 0;
		}
	}
	fprintf(stderr, "usage: zwork COMMAND ARGS (zwork --help lists them)\n");
	return 16;
}
