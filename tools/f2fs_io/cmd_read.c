// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_read.c - f2fs_io's commands that read or map a file: read, randread, fragread,
 * fadvise, lseek and fiemap.
 *
 * The timing lines and fiemap's table are f2fs-tools'.  read's dump differs on purpose:
 * bytes print as two hex digits whatever their value, and each line starts with the
 * file offset of its first byte (f2fs-tools sign-extends bytes from 0x80 and numbers
 * the lines offset + 256, + 512, ...).
 */
#include "config.h"
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <linux/fiemap.h>

#include "f2fs_io.h"
#include "f2fs_uapi.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 0x01
#endif
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080	/* Linux 6.14 and later */
#endif

static void advise_or_die(int fd, off_t off, off_t len, int advice, const char *path)
{
	int err = posix_fadvise(fd, off, len, advice);

	if (err)
		io_die("posix_fadvise on %s: %s", path, strerror(err));
}

static void *map_or_die(size_t len, int flags, int fd, off_t off, const char *path)
{
	void *p = mmap(NULL, len, PROT_READ, flags, fd, off);

	if (p == MAP_FAILED)
		io_die_errno("cannot map %s", path);
	return p;
}

enum read_mode { RD_BUFFERED, RD_DONTCACHE, RD_DIO, RD_MMAP, RD_MLOCK, RD_MADVISE, RD_FADVISE };

int io_read(int argc, char **argv, const struct io_cmd *cmd)
{
	static const char *const modes[] = { "buffered", "dontcache", "dio", "mmap", "mlock",
					     "madvise", "fadvise" };
	uint64_t chunk, off, got = 0, io0 = 0, io1 = 0, ml0 = 0, ml1 = 0, len;
	long long bs, count, nprint, i;
	unsigned char *buf, *shown;
	const char *path = argv[7];
	enum read_mode mode;
	char *map = NULL;
	int fd;

	if (argc != 8)
		io_usage(cmd);
	bs = io_num("chunk_size", argv[1]);
	if (bs < 0 || bs > 256 * 1024)
		io_die("chunk_size %lld out of range (0 to 262144 blocks of 4 KiB)", bs);
	chunk = (uint64_t)bs * IO_BLOCK;
	off = (uint64_t)io_num("offset", argv[2]) * chunk;
	count = io_num("count", argv[3]);
	if (count < 0)
		io_die("count %lld is negative", count);
	for (mode = RD_BUFFERED; mode <= RD_FADVISE; mode++)
		if (!strcmp(argv[4], modes[mode]))
			break;
	if (mode > RD_FADVISE)
		io_die("unknown IO type '%s'", argv[4]);
	nprint = io_num("print_nbytes", argv[6]);
	if (nprint < 0 || (uint64_t)nprint > chunk)
		io_die("print_nbytes %lld is more than a chunk (%" PRIu64 " bytes)", nprint, chunk);
	buf = aligned_alloc(IO_BLOCK, chunk ? chunk : IO_BLOCK);
	shown = calloc(1, (size_t)nprint + 1);
	if (!buf || !shown)
		io_die("out of memory");
	fd = io_open(path, O_RDONLY | (mode == RD_DIO ? O_DIRECT : 0), 0);
	if (io_num("advice", argv[5])) {
		advise_or_die(fd, 0, IO_BLOCK, POSIX_FADV_SEQUENTIAL, path);
		advise_or_die(fd, 0, IO_BLOCK, POSIX_FADV_WILLNEED, path);
		printf("fadvise SEQUENTIAL|WILLNEED to a file: %s\n", path);
	}

	len = (uint64_t)count * chunk;
	switch (mode) {
	case RD_MMAP:	/* the mapping itself reads everything */
		io0 = io_now_us();
		map = map_or_die(len, MAP_SHARED | MAP_POPULATE, fd, (off_t)off, path);
		io1 = io_now_us();
		ml0 = io_now_us();
		if (mlock(map, len))
			io_die_errno("mlock");
		ml1 = io_now_us();
		break;
	case RD_MLOCK:	/* mlock faults the pages in: the reading is the locking */
		map = map_or_die(len, MAP_SHARED, fd, (off_t)off, path);
		io0 = ml0 = io_now_us();
		if (mlock(map, len))
			io_die_errno("mlock");
		io1 = ml1 = io_now_us();
		break;
	case RD_MADVISE:
		map = map_or_die(len, MAP_SHARED, fd, (off_t)off, path);
		ml0 = io_now_us();
		if (mlock2(map, len, MLOCK_ONFAULT))
			io_die_errno("mlock2");
		ml1 = io_now_us();
		io0 = io_now_us();
		if (madvise(map, len, MADV_POPULATE_READ))
			io_die_errno("madvise");
		io1 = io_now_us();
		break;
	case RD_FADVISE:
		map = map_or_die(len, MAP_SHARED, fd, (off_t)off, path);
		io0 = io_now_us();
		advise_or_die(fd, (off_t)off, (off_t)len, POSIX_FADV_WILLNEED, path);
		io1 = io_now_us();
		ml0 = io_now_us();
		if (mlock(map, len))
			io_die_errno("mlock");
		ml1 = io_now_us();
		break;
	default:
		io0 = io_now_us();
		for (i = 0; i < count; i++) {
			struct iovec iov = { buf, chunk };
			ssize_t r;

			if (mode == RD_DONTCACHE)
				r = preadv2(fd, &iov, 1, (off_t)(off + chunk * (uint64_t)i), RWF_DONTCACHE);
			else
				r = pread(fd, buf, chunk, (off_t)(off + chunk * (uint64_t)i));
			if (r < 0 || (uint64_t)r != chunk) {
				printf("pread expected: %" PRIu64 ", readed: %" PRIu64 "\n", chunk,
				       (uint64_t)(int64_t)r);
				if (r > 0) {
					got += (uint64_t)r;
					memcpy(shown, buf, (size_t)nprint);
				}
				break;
			}
			got += (uint64_t)r;
			if (i == 0)
				memcpy(shown, buf, (size_t)nprint);
		}
		io1 = io_now_us();
		break;
	}
	if (map) {
		got = len;
		memcpy(shown, map, (size_t)nprint);
	}
	printf("Read %" PRIu64 " bytes total_time = %" PRIu64 " us, BW = %.Lf MB/s, "
	       "IO time = %" PRIu64 " us, mlock time = %" PRIu64 " us, print %u bytes:\n",
	       got, io_now_us() - io0, (long double)got / (long double)(io1 - io0), io1 - io0,
	       ml1 - ml0, (unsigned int)nprint);
	printf("%08" PRIx64 " : ", off);
	for (i = 1; i <= nprint; i++) {
		printf("%02x", shown[i - 1]);
		if (i % 16 == 0)
			printf("\n%08" PRIx64 " : ", off + (uint64_t)i);
		else if (i % 2 == 0)
			putchar(' ');
	}
	putchar('\n');
	if (map) {
		munlock(map, len);
		munmap(map, len);
	}
	free(buf);
	free(shown);
	return 0;
}

int io_randread(int argc, char **argv, const struct io_cmd *cmd)
{
	uint64_t chunk, size, slots, got = 0, t0, dt, idx;
	long long bs, count, i, j;
	const char *path = argv[5];
	struct stat st;
	char *buf, *map = NULL;
	volatile char sink;
	int fd, use_mmap = 0, oflags = 0;

	if (argc != 6)
		io_usage(cmd);
	bs = io_num("chunk_size", argv[1]);
	if (bs < 1 || bs > 1024)
		io_die("chunk_size %lld out of range (1 to 1024 blocks of 4 KiB)", bs);
	chunk = (uint64_t)bs * IO_BLOCK;
	count = io_num("count", argv[2]);
	if (count < 0)
		io_die("count %lld is negative", count);
	if (!strcmp(argv[3], "dio"))
		oflags = O_DIRECT;
	else if (!strcmp(argv[3], "mmap"))
		use_mmap = 1;
	else if (strcmp(argv[3], "buffered"))
		io_die("unknown IO type '%s'", argv[3]);
	buf = aligned_alloc(IO_BLOCK, chunk);
	if (!buf)
		io_die("out of memory");
	fd = io_open(path, O_RDONLY | oflags, 0);
	if (fstat(fd, &st))
		io_die_errno("cannot stat %s", path);
	size = (uint64_t)st.st_size;
	if (S_ISBLK(st.st_mode) && ioctl(fd, BLKGETSIZE64, &size) < 0)
		io_die_errno("cannot read the size of %s", path);
	if (io_num("advise", argv[4])) {
		advise_or_die(fd, 0, (off_t)size, POSIX_FADV_RANDOM, path);
		advise_or_die(fd, 0, IO_BLOCK, POSIX_FADV_WILLNEED, path);
		printf("fadvise RANDOM|WILLNEED to a file: %s\n", path);
	}
	size &= ~(uint64_t)(IO_BLOCK - 1);
	if (size < chunk)
		io_die("%s is smaller than one chunk", path);
	slots = (size - chunk) / IO_BLOCK + 1;	/* chunk starts, block-aligned */
	if (use_mmap) {
		map = map_or_die(size, MAP_SHARED, fd, 0, path);
		if (madvise(map, size, MADV_RANDOM))
			io_die_errno("madvise");
	}
	srand((unsigned int)time(NULL));
	t0 = io_now_us();
	for (i = 0; i < count; i++) {
		idx = (uint64_t)rand() % slots;
		if (!use_mmap) {
			ssize_t r = pread(fd, buf, chunk, (off_t)(idx * IO_BLOCK));

			if (r < 0 || (uint64_t)r != chunk)
				break;
		} else {
			for (j = 0; j < bs; j++)
				sink = map[IO_BLOCK * (idx + (uint64_t)j)];
		}
		got += chunk;
	}
	(void)sink;
	dt = io_now_us() - t0;
	printf("Read %" PRIu64 " bytes total_time = %" PRIu64 " us, avg. latency = %.Lf us, "
	       "IOPs= %.Lf, BW = %.Lf MB/s\n", got, dt, (long double)dt / (long double)count,
	       (long double)count * 1000 * 1000 / (long double)dt, (long double)got / (long double)dt);
	if (map)
		munmap(map, size);
	free(buf);
	return 0;
}

#define HOLE_SIZE (2u * 1024 * 1024 - 4096)	/* touched between the buffer's pages */

int io_fragread(int argc, char **argv, const struct io_cmd *cmd)
{
	uint64_t chunk, off, got = 0, t0, dt, pages, k, p;
	long long bs, count, i;
	const char *path = argv[5];
	long page = sysconf(_SC_PAGESIZE);
	char *buf, **holes;
	int fd;

	if (argc != 6)
		io_usage(cmd);
	bs = io_num("chunk_size", argv[1]);
	if (bs < 1 || bs > 256 * 1024)
		io_die("chunk_size %lld out of range (1 to 262144 blocks of 4 KiB)", bs);
	chunk = (uint64_t)bs * IO_BLOCK;
	off = (uint64_t)io_num("offset", argv[2]) * chunk;
	count = io_num("count", argv[3]);
	pages = chunk / (uint64_t)page;
	holes = calloc(pages ? pages : 1, sizeof(*holes));
	buf = mmap(NULL, chunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!holes || buf == MAP_FAILED)
		io_die("out of memory");
	/* each page of the buffer is faulted in, then almost 2 MiB of other memory, so that
	 * the buffer's pages end up physically apart */
	for (k = 0; k < pages; k++) {
		((volatile char *)buf)[k * (uint64_t)page] = 0;
		holes[k] = mmap(NULL, HOLE_SIZE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (holes[k] == MAP_FAILED)
			io_die_errno("cannot map memory");
		for (p = 0; p < HOLE_SIZE; p += (uint64_t)page)
			((volatile char *)holes[k])[p] = 0;
	}
	printf("Touched allocated memory: count = %u\n", (unsigned int)pages);
	printf(" - allocated memory: = ");
	for (k = 0; k < pages && k < 5; k++)
		printf(" %p", (void *)holes[k]);
	printf("\n");
	if (mlock(buf, chunk))
		io_die_errno("mlock");
	fd = io_open(path, O_RDONLY, 0);
	if (io_num("advice", argv[4])) {
		advise_or_die(fd, 0, IO_BLOCK, POSIX_FADV_SEQUENTIAL, path);
		advise_or_die(fd, 0, IO_BLOCK, POSIX_FADV_WILLNEED, path);
		printf("fadvise SEQUENTIAL|WILLNEED to a file: %s\n", path);
	}
	t0 = io_now_us();
	for (i = 0; i < count; i++) {
		ssize_t r = pread(fd, buf, chunk, (off_t)(off + chunk * (uint64_t)i));

		if (r < 0 || (uint64_t)r != chunk) {
			printf("pread expected: %" PRIu64 ", readed: %" PRIu64 "\n", chunk,
			       (uint64_t)(int64_t)r);
			if (r > 0)
				got += (uint64_t)r;
			break;
		}
		got += chunk;
	}
	dt = io_now_us() - t0;
	printf("Fragmented_Read %" PRIu64 " bytes total_time = %" PRIu64 " us, BW = %.Lf MB/s\n",
	       got, dt, (long double)got / (long double)dt);
	printf("\n");
	return 0;
}

int io_fadvise(int argc, char **argv, const struct io_cmd *cmd)
{
	static const struct {
		const char *word;
		int advice;
	} words[] = {
		{ "willneed", POSIX_FADV_WILLNEED }, { "dontneed", POSIX_FADV_DONTNEED },
		{ "noreuse", POSIX_FADV_NOREUSE }, { "sequential", POSIX_FADV_SEQUENTIAL },
		{ "random", POSIX_FADV_RANDOM },
	};
	long long off, len;
	size_t i;
	int fd;

	if (argc != 5)
		io_usage(cmd);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(argv[1], words[i].word))
			break;
	if (i == sizeof(words) / sizeof(words[0])) {
		fprintf(stderr, "f2fs_io fadvise: unknown advice '%s'\n\n%s", argv[1], cmd->help);
		return 1;
	}
	off = io_num("offset", argv[2]);
	len = io_num("length", argv[3]);
	fd = io_open(argv[4], O_RDONLY, 0);
	advise_or_die(fd, (off_t)off, (off_t)len, words[i].advice, argv[4]);
	printf("fadvice %s to a file: %s\n", argv[1], argv[4]);
	return 0;
}

int io_lseek(int argc, char **argv, const struct io_cmd *cmd)
{
	static const struct {
		const char *word;
		int whence;
	} words[] = {
		{ "set", SEEK_SET }, { "cur", SEEK_CUR }, { "end", SEEK_END },
		{ "data", SEEK_DATA }, { "hole", SEEK_HOLE },
	};
	long long off;
	off_t ret;
	size_t i;
	int fd;

	if (argc != 4)
		io_usage(cmd);
	off = io_num("offset", argv[2]);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(argv[1], words[i].word))
			break;
	if (i == sizeof(words) / sizeof(words[0]))
		io_die("unknown whence '%s' (set, cur, end, data or hole)", argv[1]);
	fd = io_open(argv[3], O_RDONLY, 0);
	ret = lseek(fd, (off_t)off, words[i].whence);
	if (ret < 0)
		io_die_errno("lseek %s", argv[3]);
	printf("returned offset=%lld\n", (long long)ret);
	return 0;
}

int io_fiemap(int argc, char **argv, const struct io_cmd *cmd)
{
	uint64_t start, len;
	uint32_t flags = 0, n, i;
	struct fiemap *fm;
	int fd;

	if (argc < 4 || argc > 5)
		io_usage(cmd);
	start = (uint64_t)io_num("offset", argv[1]) * IO_BLOCK;
	len = (uint64_t)io_num("count", argv[2]) * IO_BLOCK;
	if (argc == 5)
		flags = (uint32_t)io_num("flags", argv[4]);
	fd = io_open(argv[3], O_RDONLY, 0);
	printf("Fiemap: offset = %" PRIu64 " len = %" PRIu64 "\n", start / IO_BLOCK, len / IO_BLOCK);
	fflush(stdout);
	/* a first call counts the extents, the second fetches them */
	fm = calloc(1, sizeof(*fm));
	if (!fm)
		io_die("out of memory");
	fm->fm_start = start;
	fm->fm_length = len;
	fm->fm_flags = flags;
	if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0)
		io_die_errno("FS_IOC_FIEMAP on %s", argv[3]);
	n = fm->fm_mapped_extents;
	free(fm);
	fm = calloc(1, sizeof(*fm) + (size_t)n * sizeof(struct fiemap_extent));
	if (!fm)
		io_die("out of memory");
	fm->fm_start = start;
	fm->fm_length = len;
	fm->fm_flags = flags;
	fm->fm_extent_count = n;
	if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0)
		io_die_errno("FS_IOC_FIEMAP on %s", argv[3]);
	printf("\t%-17s%-17s%-17s%s\n", "logical addr.", "physical addr.", "length", "flags");
	for (i = 0; i < fm->fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &fm->fm_extents[i];

		printf("%u\t%.16llx %.16llx %.16llx %.8x\n", i, (unsigned long long)e->fe_logical,
		       (unsigned long long)e->fe_physical, (unsigned long long)e->fe_length,
		       e->fe_flags);
		if (e->fe_flags & FIEMAP_EXTENT_LAST)
			break;
	}
	printf("\n");
	free(fm);
	return 0;
}
