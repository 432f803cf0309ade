// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_perf.c - f2fs_io's metadata timing commands: test_create_perf (create and
 * delete NUM files) and test_lookup_perf (readdir and stat over them).  The result
 * lines are f2fs-tools' CSV-like rows.
 */
#include "config.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "f2fs_io.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int positive_files(const char *s)
{
	long long n = io_num("num_files", s);

	if (n <= 0 || n > 0x7fffffff) {
		fprintf(stderr, "f2fs_io: num_files must be positive: %s\n", s);
		exit(1);
	}
	return (int)n;
}

int io_test_create_perf(int argc, char **argv, const struct io_cmd *cmd)
{
	int c, i, fd, n, kb, each_fsync = 0, final_sync = 0;
	double t0, create_s, del_s;
	char path[4096], *data = NULL;
	long long v;

	while ((c = getopt(argc, argv, "sS")) != -1) {
		if (c == 's')
			each_fsync = 1;
		else if (c == 'S')
			final_sync = 1;
		else {
			fputs(cmd->help, stderr);
			return 1;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 3)
		io_usage(cmd);
	n = positive_files(argv[1]);
	v = io_num("size_kb", argv[2]);
	if (v < 0 || v > 1024 * 1024)
		io_die("size_kb out of range: %lld", v);
	kb = (int)v;
	if (kb) {
		data = malloc((size_t)kb * 1024);
		if (!data)
			io_die("out of memory");
		memset(data, 'a', (size_t)kb * 1024);
	}
	printf("Starting test: Creating %d files of %dKB each in %s (fsync: %s)\n", n, kb,
	       argv[0], each_fsync ? "Enabled" : "Disabled");
	t0 = now_s();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/test_file_%d", argv[0], i);
		fd = open(path, O_WRONLY | O_CREAT, 0644);
		if (fd < 0) {
			perror(path);
			continue;
		}
		if (kb && write(fd, data, (size_t)kb * 1024) < 0)
			perror(path);
		if (each_fsync)
			fsync(fd);
		close(fd);
	}
	create_s = now_s() - t0;
	printf("Deleting %d created files (sync: %s)\n", n, final_sync ? "Enabled" : "Disabled");
	t0 = now_s();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/test_file_%d", argv[0], i);
		if (unlink(path))
			perror(path);
	}
	if (final_sync)
		sync();
	del_s = now_s() - t0;
	printf("Operation,total_files,file_size_kb,total_time_s,throughput_files_per_sec\n");
	printf("CREATE,%d,%d,%.4f,%.2f\n", n, kb, create_s, create_s > 0 ? n / create_s : 0);
	printf("DELETE,%d,%d,%.4f,%.2f\n", n, kb, del_s, del_s > 0 ? n / del_s : 0);
	free(data);
	return 0;
}

static const char *type_name(unsigned char t)
{
	switch (t) {
	case DT_REG: return "regular";
	case DT_DIR: return "directory";
	case DT_FIFO: return "FIFO";
	case DT_SOCK: return "socket";
	case DT_LNK: return "symlink";
	case DT_BLK: return "block dev";
	case DT_CHR: return "char dev";
	default: return "unknown";
	}
}

int io_test_lookup_perf(int argc, char **argv, const struct io_cmd *cmd)
{
	int c, i, n, init = 0, verbose = 0;
	double t0, readdir_s, stat_s;
	char path[4096];
	struct dirent *e;
	struct stat st;
	DIR *d;

	while ((c = getopt(argc, argv, "iv")) != -1) {
		if (c == 'i')
			init = 1;
		else if (c == 'v')
			verbose = 1;
		else {
			fputs(cmd->help, stderr);
			return 1;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		io_usage(cmd);
	n = positive_files(argv[1]);
	if (init) {
		printf("Starting test: Creating %d files in %s\n", n, argv[0]);
		for (i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "%s/test_file_%d", argv[0], i);
			close(io_open(path, O_WRONLY | O_CREAT, 0644));
		}
		return 0;
	}
	printf("Measure readdir performance\n");
	t0 = now_s();
	d = opendir(argv[0]);
	if (!d)
		io_die_errno("cannot open directory %s", argv[0]);
	if (verbose)
		printf("inode    file type  d_reclen  d_off    d_name\n");
	while ((e = readdir(d)))
		if (verbose)
			printf("%-8llu %-10s %-9d %-8jd %s\n", (unsigned long long)e->d_ino,
			       type_name(e->d_type), e->d_reclen, (intmax_t)e->d_off, e->d_name);
	closedir(d);
	readdir_s = now_s() - t0;
	printf("Measure stat performance\n");
	t0 = now_s();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/test_file_%d", argv[0], i);
		if (stat(path, &st))
			io_die_errno("cannot stat %s", path);
	}
	stat_s = now_s() - t0;
	printf("Operation: total_files, total_time_s, throughput_files_per_sec\n");
	printf("readdir: %d, %.4f, %.2f\n", n, readdir_s, readdir_s > 0 ? n / readdir_s : 0);
	printf("stat: %d, %.4f, %.2f\n", n, stat_s, stat_s > 0 ? n / stat_s : 0);
	return 0;
}
