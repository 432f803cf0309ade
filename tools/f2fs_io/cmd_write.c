// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_write.c - f2fs_io's commands that write: write and write_advice (patterns,
 * direct and synchronous I/O, F2FS atomic writes), fallocate, ftruncate, copy, rename
 * and erase (discard a whole block device).
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <linux/falloc.h>

#include "f2fs_io.h"
#include "f2fs_uapi.h"

static void write_all(int fd, const char *buf, size_t n, const char *path)
{
	ssize_t w;

	while (n) {
		w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			io_die_errno("cannot write %s", path);
		buf += w;
		n -= (size_t)w;
	}
}

enum atomic_kind { NOT_ATOMIC, ATOMIC_COMMIT, ATOMIC_ABORT };

/* write_pattern: write and write_advice; ADVISE: argv holds the advice word before the
 * file.  The timing line is f2fs-tools'. */
static int write_pattern(int argc, char **argv, int advise)
{
	const char *pattern = argv[4], *io = argv[5], *path = argv[advise ? 7 : 6];
	int delay_arg = advise ? 8 : 7, flags = 0, replace = 0, fd, random_off = 0;
	enum atomic_kind atomic = NOT_ATOMIC;
	uint64_t written = 0, t0, t, max_lat = 0, chunk, pos;
	long long bs, off, count, i, delay_ms = 0;
	unsigned int counter = 0;
	useconds_t pause = 0;
	char *buf;

	bs = io_num("chunk_size", argv[1]);
	if (bs < 0 || bs > 1024)
		io_die("chunk_size %lld out of range (0 to 1024 blocks of 4 KiB)", bs);
	off = io_num("offset", argv[2]);
	if (off < 0) {	/* chunks at random below -offset */
		random_off = 1;
		off = -off;
	}
	count = io_num("count", argv[3]);
	if (count < 0)
		io_die("count %lld is negative", count);
	if (strcmp(pattern, "zero") && strcmp(pattern, "inc_num") && strcmp(pattern, "rand"))
		io_die("unknown pattern '%s' (zero, inc_num or rand)", pattern);
	if (!strcmp(io, "dio"))
		flags = O_DIRECT;
	else if (!strcmp(io, "dsync"))
		flags = O_DIRECT | O_DSYNC;
	else if (!strcmp(io, "osync"))
		flags = O_SYNC;
	else if (!strcmp(io, "atomic_commit") || !strcmp(io, "atomic_rcommit"))
		atomic = ATOMIC_COMMIT;
	else if (!strcmp(io, "atomic_abort") || !strcmp(io, "atomic_rabort"))
		atomic = ATOMIC_ABORT;
	else if (strcmp(io, "buffered"))
		io_die("unknown IO type '%s'", io);
	replace = atomic != NOT_ATOMIC && io[7] == 'r';
	if (argc > delay_arg)
		delay_ms = io_num("delay", argv[delay_arg]);

	chunk = (uint64_t)bs * IO_BLOCK;
	buf = aligned_alloc(IO_BLOCK, chunk ? chunk : IO_BLOCK);
	if (!buf)
		io_die("out of memory for a %" PRIu64 "-byte buffer", chunk);
	memset(buf, 0, chunk ? chunk : IO_BLOCK);
	srand((unsigned int)time(NULL));

	fd = io_open(path, O_CREAT | O_WRONLY | flags, 0755);
	if (advise) {
		unsigned char adv;

		if (!strcmp(argv[6], "hot"))
			adv = IO_ADV_HOT;
		else if (!strcmp(argv[6], "cold"))
			adv = IO_ADV_COLD;
		else
			io_die("unknown advise '%s' (hot or cold)", argv[6]);
		if (fsetxattr(fd, IO_ADVISE_XATTR, &adv, 1, XATTR_CREATE))
			io_die_errno("cannot set the advise of %s", path);
	}

	t0 = io_now_us();
	if (atomic != NOT_ATOMIC) {
		/* the delay is spread over the writes and the two ends of the transaction */
		if (delay_ms > 0)
			pause = (useconds_t)(delay_ms * 1000 / (count + 2));
		if (pause)
			usleep(pause);
		if (ioctl(fd, replace ? IO_START_ATOMIC_REPLACE : IO_START_ATOMIC_WRITE) < 0)
			io_die_errno("cannot start an atomic write on %s", path);
		if (pause)
			usleep(pause);
	}
	for (i = 0; i < count; i++) {
		ssize_t w;

		/* the chunk's first word tells the chunks apart */
		if (!strcmp(pattern, "inc_num")) {
			memcpy(buf, &counter, sizeof(counter));
			counter++;
		} else if (!strcmp(pattern, "rand")) {
			int r = rand();

			memcpy(buf, &r, sizeof(r));
		}
		pos = random_off ? (uint64_t)(off ? rand() % off : 0) : (uint64_t)(off + i);
		t = io_now_us();
		w = pwrite(fd, buf, chunk, (off_t)(pos * chunk));
		t = io_now_us() - t;
		if (t > max_lat)
			max_lat = t;
		if (w < 0 || (uint64_t)w != chunk)
			break;
		written += (uint64_t)w;
		if (pause)
			usleep(pause);
	}
	if (atomic == ATOMIC_COMMIT && ioctl(fd, IO_COMMIT_ATOMIC_WRITE) < 0)
		io_die_errno("cannot commit the atomic write on %s", path);
	if (atomic == ATOMIC_ABORT && ioctl(fd, IO_ABORT_ATOMIC_WRITE) < 0)
		io_die_errno("cannot abort the atomic write on %s", path);
	printf("Written %" PRIu64 " bytes with pattern = %s, total_time = %" PRIu64
	       " us, max_latency = %" PRIu64 " us\n", written, pattern, io_now_us() - t0, max_lat);
	free(buf);
	return 0;
}

int io_write(int argc, char **argv, const struct io_cmd *cmd)
{
	if (argc < 7 || argc > 8)
		io_usage(cmd);
	return write_pattern(argc, argv, 0);
}

int io_write_advice(int argc, char **argv, const struct io_cmd *cmd)
{
	if (argc < 8 || argc > 9)
		io_usage(cmd);
	return write_pattern(argc, argv, 1);
}

int io_fallocate(int argc, char **argv, const struct io_cmd *cmd)
{
	long long off, len;
	struct stat st;
	int c, fd, mode = 0;

	while ((c = getopt(argc, argv, "cipz")) != -1) {
		switch (c) {
		case 'c': mode |= FALLOC_FL_COLLAPSE_RANGE; break;
		case 'i': mode |= FALLOC_FL_INSERT_RANGE; break;
		case 'p': mode |= FALLOC_FL_PUNCH_HOLE; break;
		case 'z': mode |= FALLOC_FL_ZERO_RANGE; break;
		default: io_bad_option(cmd);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 4)
		io_usage(cmd);
	if (!strcmp(argv[0], "1"))
		mode |= FALLOC_FL_KEEP_SIZE;
	off = io_num("offset", argv[1]);
	len = io_num("length", argv[2]);
	fd = io_open(argv[3], O_RDWR, 0);
	if (fallocate(fd, mode, (off_t)off, (off_t)len))
		io_die_errno("fallocate %s", argv[3]);
	if (fstat(fd, &st))
		io_die_errno("cannot stat %s", argv[3]);
	printf("fallocated a file: i_size=%" PRIu64 ", i_blocks=%" PRIu64 "\n",
	       (uint64_t)st.st_size, (uint64_t)st.st_blocks);
	return 0;
}

int io_ftruncate(int argc, char **argv, const struct io_cmd *cmd)
{
	long long len;
	int fd;

	if (argc != 3)
		io_usage(cmd);
	len = io_num("length", argv[1]);
	fd = io_open(argv[2], O_WRONLY, 0);
	if (ftruncate(fd, (off_t)len))
		io_die_errno("ftruncate %s", argv[2]);
	return 0;
}

int io_copy(int argc, char **argv, const struct io_cmd *cmd)
{
	int c, src, dst, oflags = 0, use_mmap = 0, use_sendfile = 0;
	ssize_t n;

	while ((c = getopt(argc, argv, "dms")) != -1) {
		switch (c) {
		case 'd': oflags |= O_DIRECT; break;
		case 'm': use_mmap = 1; break;
		case 's': use_sendfile = 1; break;
		default: io_bad_option(cmd);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2) {
		fprintf(stderr, "f2fs_io copy: wrong number of arguments\n\n%s", cmd->help);
		return 2;
	}
	if (use_mmap && use_sendfile)
		io_die("copy: -m and -s exclude each other");
	src = io_open(argv[0], O_RDONLY | oflags, 0);
	dst = io_open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | oflags, 0644);
	if (use_mmap) {
		struct stat st;
		void *p;

		if (fstat(src, &st))
			io_die_errno("cannot stat %s", argv[0]);
		if (st.st_size) {
			p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, src, 0);
			if (p == MAP_FAILED)
				io_die_errno("cannot map %s", argv[0]);
			write_all(dst, p, (size_t)st.st_size, argv[1]);
			munmap(p, (size_t)st.st_size);
		}
	} else if (use_sendfile) {
		while ((n = sendfile(dst, src, NULL, INT_MAX)) > 0)
			;
		if (n < 0)
			io_die_errno("sendfile from %s to %s", argv[0], argv[1]);
	} else {
		char *buf = aligned_alloc(IO_BLOCK, IO_BLOCK);

		if (!buf)
			io_die("out of memory");
		while ((n = read(src, buf, IO_BLOCK)) > 0)
			write_all(dst, buf, (size_t)n, argv[1]);
		if (n < 0)
			io_die_errno("cannot read %s", argv[0]);
		free(buf);
	}
	if (close(dst))
		io_die_errno("cannot write %s", argv[1]);
	close(src);
	return 0;
}

int io_rename(int argc, char **argv, const struct io_cmd *cmd)
{
	int fd = -1;

	if (argc != 4)
		io_usage(cmd);
	if (io_num("fsync_after_rename", argv[3]))
		fd = io_open(argv[1], O_WRONLY, 0);
	if (rename(argv[1], argv[2]) < 0)
		io_die_errno("cannot rename %s to %s", argv[1], argv[2]);
	if (fd >= 0) {
		if (fsync(fd))
			io_die_errno("fsync %s", argv[2]);
		close(fd);
	}
	return 0;
}

int io_erase(int argc, char **argv, const struct io_cmd *cmd)
{
	uint64_t range[2];
	struct stat st;
	int fd;

	if (argc != 2)
		io_usage(cmd);
	if (stat(argv[1], &st))
		io_die_errno("cannot stat %s", argv[1]);
	if (!S_ISBLK(st.st_mode))
		io_die("%s is not a block device", argv[1]);
	/* O_EXCL: a device that is mounted or otherwise claimed is refused (EBUSY) */
	fd = io_open(argv[1], O_WRONLY | O_EXCL, 0);
	range[0] = 0;
	if (ioctl(fd, BLKGETSIZE64, &range[1]) < 0)
		io_die_errno("cannot read the size of %s", argv[1]);
	if (ioctl(fd, BLKSECDISCARD, range) < 0 && ioctl(fd, BLKDISCARD, range) < 0)
		io_die_errno("cannot discard %s", argv[1]);
	return 0;
}
