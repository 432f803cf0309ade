// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_volume.c - f2fs_io's commands that act on the volume a file lives on, or flush:
 * fsync, fdatasync, shutdown, checkpoint, freeze, thaw, gc, gc_range, gc_urgent,
 * precache_extents, defrag_file and move_range.
 *
 * Each prints f2fs-tools' line on success (test suites keep those lines in their logs
 * and compare a few); a failed call is reported with the kernel's errno, exit 1.
 */
#include "config.h"
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "f2fs_io.h"
#include "f2fs_uapi.h"

int io_fsync(int argc, char **argv, const struct io_cmd *cmd)
{
	uint64_t t0;
	int fd;

	if (argc != 2)
		io_usage(cmd);
	fd = io_open(argv[1], O_WRONLY, 0);
	t0 = io_now_us();
	if (fsync(fd))
		io_die_errno("fsync %s", argv[1]);
	printf("fsync total_time = %" PRIu64 " us\n", io_now_us() - t0);
	return 0;
}

int io_fdatasync(int argc, char **argv, const struct io_cmd *cmd)
{
	int fd;

	if (argc != 2)
		io_usage(cmd);
	fd = io_open(argv[1], O_WRONLY, 0);
	if (fdatasync(fd))
		io_die_errno("fdatasync %s", argv[1]);
	printf("fdatasync a file\n");
	return 0;
}

int io_shutdown(int argc, char **argv, const struct io_cmd *cmd)
{
	long long level;
	uint32_t arg;
	int fd;

	if (argc != 3)
		io_usage(cmd);
	level = io_num("level", argv[1]);
	if (level < 0 || level >= IO_SHUTDOWN_LEVELS) {
		fprintf(stderr, "f2fs_io shutdown: level %lld is not one of 0-%d\n\n%s", level,
			IO_SHUTDOWN_LEVELS - 1, cmd->help);
		return 1;
	}
	arg = (uint32_t)level;
	fd = io_open(argv[2], O_RDONLY, 0);
	if (ioctl(fd, IO_SHUTDOWN, &arg) < 0)
		io_die_errno("F2FS_IOC_SHUTDOWN on %s", argv[2]);
	printf("Shutdown %s with level=%u\n", argv[2], arg);
	return 0;
}

int io_checkpoint(int argc, char **argv, const struct io_cmd *cmd)
{
	int fd, ret;

	if (argc != 2)
		io_usage(cmd);
	fd = io_open(argv[1], O_WRONLY, 0);
	ret = ioctl(fd, IO_WRITE_CHECKPOINT);
	if (ret < 0)
		io_die_errno("F2FS_IOC_WRITE_CHECKPOINT on %s", argv[1]);
	printf("trigger filesystem checkpoint ret=%d\n", ret);
	return 0;
}

/* freeze and thaw: the generic FIFREEZE/FITHAW on a directory of the volume */
static int freeze_thaw(int argc, char **argv, const struct io_cmd *cmd, int thaw)
{
	int fd, ret;

	if (argc != 2)
		io_usage(cmd);
	fd = io_open(argv[1], O_RDONLY | O_DIRECTORY, 0);
	ret = ioctl(fd, thaw ? FITHAW : FIFREEZE, 0);
	if (ret < 0)
		io_die_errno("%s on %s", thaw ? "FITHAW" : "FIFREEZE", argv[1]);
	printf("%s filesystem ret=%d\n", thaw ? "thaw" : "freeze", ret);
	return 0;
}

int io_freeze(int argc, char **argv, const struct io_cmd *cmd)
{
	return freeze_thaw(argc, argv, cmd, 0);
}

int io_thaw(int argc, char **argv, const struct io_cmd *cmd)
{
	return freeze_thaw(argc, argv, cmd, 1);
}

int io_gc(int argc, char **argv, const struct io_cmd *cmd)
{
	uint32_t sync;
	int fd, ret;

	if (argc != 3)
		io_usage(cmd);
	sync = (uint32_t)io_num("sync_mode", argv[1]);
	fd = io_open(argv[2], O_RDONLY, 0);
	ret = ioctl(fd, IO_GARBAGE_COLLECT, &sync);
	if (ret < 0)
		io_die_errno("F2FS_IOC_GARBAGE_COLLECT on %s", argv[2]);
	printf("trigger %s gc ret=%d\n", sync ? "synchronous" : "asynchronous", ret);
	return 0;
}

int io_gc_range(int argc, char **argv, const struct io_cmd *cmd)
{
	struct io_gc_range r;
	int fd, ret;

	if (argc != 5)
		io_usage(cmd);
	memset(&r, 0, sizeof(r));
	r.sync = (uint32_t)io_num("sync_mode", argv[1]);
	r.start = (uint64_t)io_num("start", argv[2]);
	r.len = (uint64_t)io_num("length", argv[3]);
	fd = io_open(argv[4], O_RDWR, 0);
	ret = ioctl(fd, IO_GC_RANGE, &r);
	if (ret < 0)
		io_die_errno("F2FS_IOC_GARBAGE_COLLECT_RANGE on %s", argv[4]);
	printf("trigger %s gc_range [%" PRIu64 ", %" PRIu64 "] ret=%d\n",
	       r.sync ? "synchronous" : "asynchronous", r.start, r.len, ret);
	return 0;
}

/* gc_urgent_set DEV VALUE: the volume's sysfs knob; the name is the block device's
 * (sda21, vdb, ...) as /sys/fs/f2fs/ lists it. */
static void gc_urgent_set(const char *dev, int value)
{
	char path[4096];
	FILE *f;

	if (strchr(dev, '/'))
		io_die("gc_urgent: '%s' is not a device name as /sys/fs/f2fs/ lists them", dev);
	snprintf(path, sizeof(path), "/sys/fs/f2fs/%s/gc_urgent", dev);
	f = fopen(path, "w");
	if (!f)
		io_die_errno("cannot open %s", path);
	fprintf(f, "%d\n", value);
	if (fclose(f))
		io_die_errno("cannot write %s", path);
}

int io_gc_urgent(int argc, char **argv, const struct io_cmd *cmd)
{
	long long secs;

	if (argc == 3 && !strcmp(argv[2], "start")) {
		printf("gc_urgent: start on %s\n", argv[1]);
		fflush(stdout);
		gc_urgent_set(argv[1], 1);
	} else if (argc == 3 && !strcmp(argv[2], "end")) {
		printf("gc_urgent: end on %s\n", argv[1]);
		fflush(stdout);
		gc_urgent_set(argv[1], 0);
	} else if (argc == 4 && !strcmp(argv[2], "run")) {
		secs = io_num("time", argv[3]);
		if (secs < 0 || secs > 0x7fffffff)
			io_die("time out of range: %lld", secs);
		printf("gc_urgent: start on %s for %d secs\n", argv[1], (int)secs);
		fflush(stdout);
		gc_urgent_set(argv[1], 1);
		sleep((unsigned)secs);
		printf("gc_urgent: end on %s for %d secs\n", argv[1], (int)secs);
		fflush(stdout);
		gc_urgent_set(argv[1], 0);
	} else {
		io_usage(cmd);
	}
	return 0;
}

int io_precache_extents(int argc, char **argv, const struct io_cmd *cmd)
{
	int fd, ret;

	if (argc != 2)
		io_usage(cmd);
	fd = io_open(argv[1], O_WRONLY, 0);
	ret = ioctl(fd, IO_PRECACHE_EXTENTS);
	if (ret < 0)
		io_die_errno("F2FS_IOC_PRECACHE_EXTENTS on %s", argv[1]);
	printf("trigger precache extents ret=%d\n", ret);
	return 0;
}

int io_defrag_file(int argc, char **argv, const struct io_cmd *cmd)
{
	struct io_defragment d;
	const char *path;
	struct stat st;
	uint64_t len;
	int fd;

	if (argc != 2 && argc != 4)
		io_usage(cmd);
	path = argv[argc - 1];
	fd = io_open(path, O_RDWR, 0);
	if (argc == 2) {
		if (fstat(fd, &st))
			io_die_errno("cannot stat %s", path);
		d.start = 0;
		d.len = ((uint64_t)st.st_size + IO_BLOCK - 1) & ~(uint64_t)(IO_BLOCK - 1);
	} else {
		d.start = (uint64_t)io_num("start", argv[1]);
		d.len = (uint64_t)io_num("length", argv[2]);
	}
	/* the kernel returns the length it defragmented in d.len: show the asked range */
	len = d.len;
	if (ioctl(fd, IO_DEFRAGMENT, &d) < 0)
		io_die_errno("F2FS_IOC_DEFRAGMENT on %s", path);
	printf("defrag %s in region[%" PRIu64 ", %" PRIu64 "]\n", path, d.start, d.start + len);
	return 0;
}

int io_move_range(int argc, char **argv, const struct io_cmd *cmd)
{
	struct io_move_range r;
	int fd, ret;

	if (argc != 6)
		io_usage(cmd);
	memset(&r, 0, sizeof(r));
	fd = io_open(argv[1], O_RDWR, 0);
	r.dst_fd = (uint32_t)io_open(argv[2], O_RDWR | O_CREAT, 0644);
	r.pos_in = (uint64_t)io_num("src_start", argv[3]);
	r.pos_out = (uint64_t)io_num("dst_start", argv[4]);
	r.len = (uint64_t)io_num("length", argv[5]);
	ret = ioctl(fd, IO_MOVE_RANGE, &r);
	if (ret < 0)
		io_die_errno("F2FS_IOC_MOVE_RANGE from %s to %s", argv[1], argv[2]);
	printf("move range ret=%d\n", ret);
	return 0;
}
