// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fibmap.c - fibmap.f2fs: where a file's blocks are on the device, by FIBMAP.
 *
 *   fibmap.f2fs FILE      the device, the file's stat, then its runs of blocks
 *   fibmap.f2fs -V | --version | -h | --help
 *
 * The interface and output of f2fs-tools' fibmap.f2fs: a run is a file offset, the first
 * and last block address (file system blocks) and a count; holes read as address 0 and
 * a run of holes prints 0 0.  Exit codes are its: 255 for no file or one that cannot be
 * opened, the errno of a failed FIBMAP (which needs CAP_SYS_RAWIO), 0 otherwise.
 * One difference on purpose: start_lba is the partition's first sector as sysfs gives
 * it (f2fs-tools asks the sysfs directory for it with HDIO_GETGEO and always prints 0).
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#ifndef F2FS_IO_STATIC
#include "zf2fs/zf2fs.h"
#include "helper.h"
#endif

#define PROG "fibmap.f2fs"

struct run {
	uint64_t pos;		/* byte offset in the file */
	uint32_t first, last;	/* block addresses; 0 for a hole */
	uint32_t count;
};

static void print_run(const struct run *r)
{
	/* the addresses print as signed 32-bit numbers, as f2fs-tools prints them */
	printf("%8" PRIu64 "    %8d    %8d    %8d\n", r->pos, r->last ? (int)r->first : 0,
	       r->last ? (int)r->last : 0, (int)r->count);
}

/* print_bdev: the device the file lives on, when sysfs knows it */
static void print_bdev(const struct stat *st)
{
	char dir[64], link[4096], path[128];
	unsigned long long start = 0;
	const char *name;
	ssize_t n;
	FILE *f;

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(st->st_dev), minor(st->st_dev));
	n = readlink(dir, link, sizeof(link) - 1);
	if (n < 0)
		return;
	link[n] = 0;
	name = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	snprintf(path, sizeof(path), "%s/start", dir);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &start) != 1)
			start = 0;
		fclose(f);
	}
	printf("----------------bdev info-------------------\n");
	printf("devname = %s\n", name);
	printf("start_lba = %u\n", (unsigned int)start);
}

static void print_stat(const char *path, const struct stat *st)
{
	printf("\n----------------file info-------------------\n");
	printf("%s :\n", path);
	printf("--------------------------------------------\n");
	printf("dev       [%u:%u]\n", major(st->st_dev), minor(st->st_dev));
	printf("ino       [0x%8" PRIx64 " : %" PRIu64 "]\n", (uint64_t)st->st_ino, (uint64_t)st->st_ino);
	printf("mode      [0x%8x : %u]\n", (unsigned int)st->st_mode, (unsigned int)st->st_mode);
	printf("nlink     [0x%8lx : %ld]\n", (unsigned long)st->st_nlink, (long)st->st_nlink);
	printf("uid       [0x%8x : %u]\n", (unsigned int)st->st_uid, (unsigned int)st->st_uid);
	printf("gid       [0x%8x : %u]\n", (unsigned int)st->st_gid, (unsigned int)st->st_gid);
	printf("size      [0x%8" PRIx64 " : %" PRIu64 "]\n", (uint64_t)st->st_size, (uint64_t)st->st_size);
	printf("blksize   [0x%8lx : %ld]\n", (unsigned long)st->st_blksize, (long)st->st_blksize);
	printf("blocks    [0x%8" PRIx64 " : %" PRIu64 "]\n", (uint64_t)st->st_blocks, (uint64_t)st->st_blocks);
	printf("--------------------------------------------\n\n");
}

static void usage(void)
{
	printf("Usage: " PROG " FILE\n"
	       "Print where FILE's blocks are on its device (FIBMAP; needs CAP_SYS_RAWIO).\n"
	       "\n"
	       "  -V, --version  print the version and exit\n"
	       "  -h, --help     this help\n");
}

int main(int argc, char **argv)
{
	uint64_t nblocks, i;
	struct stat st;
	struct run r;
	int fd, ret = 0, b;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage();
		return 0;
	}
	if (argc == 2 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))) {
#ifdef F2FS_IO_STATIC
		printf(PROG " (zf2fs-tools %s, static kernel-bench build)\n", PACKAGE_VERSION);
		return fflush(stdout) || ferror(stdout) ? 1 : 0;
#else
		return zs_print_version(stdout, PROG) ? 1 : 0;
#endif
	}
	if (argc != 2) {
		fprintf(stderr, PROG ": no file given (usage: " PROG " FILE)\n");
		return 255;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, PROG ": %s: %s\n", argv[1], strerror(errno));
		return 255;
	}
	/* delayed allocation: blocks get addresses when written back */
	fsync(fd);
	if (fstat(fd, &st)) {
		ret = errno;
		fprintf(stderr, PROG ": %s: %s\n", argv[1], strerror(errno));
		goto out;
	}
	print_bdev(&st);
	print_stat(argv[1], &st);
	printf("file_pos   start_blk     end_blk        blks\n");
	nblocks = ((uint64_t)st.st_size + (uint64_t)st.st_blksize - 1) / (uint64_t)st.st_blksize;
	memset(&r, 0, sizeof(r));
	for (i = 0; i == 0 || i < nblocks; i++) {
		b = (int)i;
		if (ioctl(fd, FIBMAP, &b) < 0) {
			ret = errno;
			fprintf(stderr, PROG ": FIBMAP on %s: %s\n", argv[1], strerror(errno));
			goto out;
		}
		if (i == 0) {
			r.first = r.last = (uint32_t)b;
			r.count = 1;
		} else if ((b == 0 && r.last == 0) || r.last + 1 == (uint32_t)b) {
			/* the run goes on: the next address, or one more hole after holes */
			r.last = (uint32_t)b;
			r.count++;
		} else {
			print_run(&r);
			r.pos = i * (uint64_t)st.st_blksize;
			r.first = r.last = (uint32_t)b;
			r.count = 1;
		}
	}
	print_run(&r);
out:
	close(fd);
	return ret;
}
