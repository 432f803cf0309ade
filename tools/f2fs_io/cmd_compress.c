// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_compress.c - f2fs_io's commands on compressed files: get_cblocks,
 * release_cblocks, reserve_cblocks, get_coption, set_coption, compress, decompress.
 *
 * The block counts print alone on their line: xfstests reads get_cblocks' output as the
 * number (f2fs/007).
 */
#include "config.h"
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>

#include "f2fs_io.h"
#include "f2fs_uapi.h"

/* count_op: one of the three ioctls that answer a block count */
static int count_op(int argc, char **argv, const struct io_cmd *cmd, unsigned long req,
		    const char *what)
{
	unsigned long long n = 0;
	int fd;

	if (argc != 2)
		io_usage(cmd);
	fd = io_open(argv[1], O_RDONLY, 0);
	if (ioctl(fd, req, &n) < 0)
		io_die_errno("%s on %s", what, argv[1]);
	printf("%llu\n", n);
	return 0;
}

int io_get_cblocks(int argc, char **argv, const struct io_cmd *cmd)
{
	return count_op(argc, argv, cmd, IO_GET_COMPRESS_BLOCKS, "F2FS_IOC_GET_COMPRESS_BLOCKS");
}

int io_release_cblocks(int argc, char **argv, const struct io_cmd *cmd)
{
	return count_op(argc, argv, cmd, IO_RELEASE_COMPRESS_BLOCKS,
			"F2FS_IOC_RELEASE_COMPRESS_BLOCKS");
}

int io_reserve_cblocks(int argc, char **argv, const struct io_cmd *cmd)
{
	return count_op(argc, argv, cmd, IO_RESERVE_COMPRESS_BLOCKS,
			"F2FS_IOC_RESERVE_COMPRESS_BLOCKS");
}

int io_get_coption(int argc, char **argv, const struct io_cmd *cmd)
{
	struct io_comp_option o = { 0, 0 };
	int fd;

	if (argc != 2)
		io_usage(cmd);
	fd = io_open(argv[1], O_RDONLY, 0);
	if (ioctl(fd, IO_GET_COMPRESS_OPTION, &o) < 0)
		io_die_errno("F2FS_IOC_GET_COMPRESS_OPTION on %s", argv[1]);
	printf("compression algorithm:%u\n", o.algorithm);
	printf("compression cluster log size:%u\n", o.log_cluster_size);
	return 0;
}

int io_set_coption(int argc, char **argv, const struct io_cmd *cmd)
{
	struct io_comp_option o;
	long long alg, log;
	int fd;

	if (argc != 4)
		io_usage(cmd);
	alg = io_num("algorithm", argv[1]);
	log = io_num("log_cluster_size", argv[2]);
	/* the kernel checks the values; these only keep them from wrapping in a byte */
	if (alg < 0 || alg > 255 || log < 0 || log > 255)
		io_die("algorithm or log_cluster_size out of range: %lld %lld", alg, log);
	o.algorithm = (uint8_t)alg;
	o.log_cluster_size = (uint8_t)log;
	fd = io_open(argv[3], O_WRONLY, 0);
	if (ioctl(fd, IO_SET_COMPRESS_OPTION, &o) < 0)
		io_die_errno("F2FS_IOC_SET_COMPRESS_OPTION on %s", argv[3]);
	printf("set compression option: algorithm=%u, log_cluster_size=%u\n", o.algorithm,
	       o.log_cluster_size);
	return 0;
}

static int whole_file_op(int argc, char **argv, const struct io_cmd *cmd, unsigned long req,
			 const char *what)
{
	int fd;

	if (argc != 2)
		io_usage(cmd);
	fd = io_open(argv[1], O_WRONLY, 0);
	if (ioctl(fd, req) < 0)
		io_die_errno("%s on %s", what, argv[1]);
	return 0;
}

int io_compress(int argc, char **argv, const struct io_cmd *cmd)
{
	return whole_file_op(argc, argv, cmd, IO_COMPRESS_FILE, "F2FS_IOC_COMPRESS_FILE");
}

int io_decompress(int argc, char **argv, const struct io_cmd *cmd)
{
	return whole_file_op(argc, argv, cmd, IO_DECOMPRESS_FILE, "F2FS_IOC_DECOMPRESS_FILE");
}
