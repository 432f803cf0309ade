// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - f2fs_io: run one F2FS ioctl or I/O pattern on a file of a mounted volume.
 *
 *   f2fs_io                  the command list
 *   f2fs_io help [CMD]       the list, or CMD's arguments
 *   f2fs_io CMD ARGS...      run CMD
 *   f2fs_io -V | --version   our version line;  -h | --help  the list and these options
 *
 * The interface of f2fs-tools' f2fs_io: the same command names, argument order, output
 * lines and exit codes, so that test suites (xfstests' f2fs group, common/defrag) and
 * scripts run unchanged.  An unknown command prints "Unknown command: NAME" and the list
 * and exits 0, as f2fs-tools does: callers probe for a command by that line.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "f2fs_io.h"

#define IO_ARG_HELP(syn, text) "f2fs_io " syn "\n\n" text

static const struct io_cmd cmds[] = {
	{ "fsync", io_fsync, "fsync(2) a file",
	  IO_ARG_HELP("fsync [file]", "Flush FILE's data and metadata; prints the time it took.\n") },
	{ "fdatasync", io_fdatasync, "fdatasync(2) a file",
	  IO_ARG_HELP("fdatasync [file]", "Flush FILE's data.\n") },
	{ "set_verity", io_set_verity, "enable fs-verity on a file",
	  IO_ARG_HELP("set_verity [file]",
		      "Build FILE's Merkle tree (SHA-256, 4096-byte blocks) and make it read-only.\n") },
	{ "getflags", io_getflags, "show a file's inode flags",
	  IO_ARG_HELP("getflags [file]",
		      "Print the flags FS_IOC_GETFLAGS reports, among: casefold, compression,\n"
		      "nocompression, encrypt, verity, inline_data, nocow(pinned), immutable.\n") },
	{ "setflags", io_setflags, "set an inode flag",
	  IO_ARG_HELP("setflags [flag] [file]",
		      "flag: casefold, compression, nocompression, immutable or nocow.\n") },
	{ "clearflags", io_clearflags, "clear an inode flag",
	  IO_ARG_HELP("clearflags [flag] [file]",
		      "flag: compression, nocompression, immutable or nocow.\n") },
	{ "shutdown", io_shutdown, "shut the file system down",
	  IO_ARG_HELP("shutdown [level] [dir]",
		      "Stop all I/O of the volume mounted at DIR.  level:\n"
		      "  0  after syncing everything\n"
		      "  1  after a checkpoint only\n"
		      "  2  at once, without syncing\n"
		      "  3  after flushing metadata\n"
		      "  4  at once, marking the volume for fsck\n") },
	{ "pinfile", io_pinfile, "pin a file's blocks in place",
	  IO_ARG_HELP("pinfile [get|set|unset] [file] {size}",
		      "Show, set or clear FILE's pinning (GC does not move a pinned file's blocks).\n"
		      "With set, SIZE bytes are then preallocated with fallocate.\n") },
	{ "fadvise", io_fadvise, "posix_fadvise(2) a range",
	  IO_ARG_HELP("fadvise [advice] [offset] [length] [file]",
		      "advice: willneed, dontneed, noreuse, sequential or random.\n") },
	{ "fallocate", io_fallocate, "fallocate(2) a range",
	  IO_ARG_HELP("fallocate [-c] [-i] [-p] [-z] [keep_size] [offset] [length] [file]",
		      "keep_size: 1 keeps the file size.  Modes: -c collapse the range, -i insert\n"
		      "a range, -p punch a hole, -z zero the range.\n") },
	{ "erase", io_erase, "discard a whole block device",
	  IO_ARG_HELP("erase [block_device_path]",
		      "Secure-discard every sector of the device, or discard it where secure\n"
		      "discard is not supported.\n") },
	{ "write", io_write, "write a pattern into a file",
	  IO_ARG_HELP("write [chunk_size in 4kb] [offset in chunk_size] [count] [pattern] [IO] [file_path] {delay}",
		      "Write COUNT chunks from chunk OFFSET (a negative OFFSET: chunks at random\n"
		      "below -OFFSET).  pattern: zero, inc_num (a counter in each chunk's first\n"
		      "word) or rand.  IO: buffered, dio (O_DIRECT), dsync (O_DIRECT|O_DSYNC),\n"
		      "osync (O_SYNC), atomic_commit, atomic_abort, atomic_rcommit, atomic_rabort\n"
		      "(F2FS atomic writes; the r forms replace the file).  {delay}: for atomic\n"
		      "writes, milliseconds spread over the writes.\n") },
	{ "write_advice", io_write_advice, "write a pattern into a new file given a hot/cold hint",
	  IO_ARG_HELP("write_advice [chunk_size in 4kb] [offset in chunk_size] [count] [pattern] [IO] [advise] [file_path] {delay}",
		      "As write, first setting the file's advice: hot or cold.\n") },
	{ "read", io_read, "read a file and dump its first bytes",
	  IO_ARG_HELP("read [chunk_size in 4kb] [offset in chunk_size] [count] [IO] [advice] [print_nbytes] [file_path]",
		      "IO: buffered, dontcache, dio, mmap (MAP_POPULATE and mlock), mlock (mlock\n"
		      "faults the pages in), madvise (MADV_POPULATE_READ), fadvise (WILLNEED then\n"
		      "mlock).  advice: 1 advises sequential and willneed first, 0 nothing.\n") },
	{ "randread", io_randread, "read random chunks of a file",
	  IO_ARG_HELP("randread [chunk_size in 4kb] [count] [IO] [advise] [file_path]",
		      "IO: buffered, dio or mmap.  advise: 1 advises random and willneed first.\n") },
	{ "fragread", io_fragread, "read into a buffer of scattered pages",
	  IO_ARG_HELP("fragread [chunk_size in 4kb] [offset in chunk_size] [count] [advice] [file_path]",
		      "Read with a locked buffer whose pages are spread over memory.\n") },
	{ "fiemap", io_fiemap, "show the block addresses of a file",
	  IO_ARG_HELP("fiemap [offset in 4kb] [count in 4kb] [file_path] {flags}",
		      "flags (FIEMAP_FLAG_*, sum of): 1 sync first, 2 map the xattrs, 4 cache.\n") },
	{ "gc_urgent", io_gc_urgent, "turn urgent GC on or off, or on for a while",
	  IO_ARG_HELP("gc_urgent $dev [start/end/run] [time in sec]",
		      "Write /sys/fs/f2fs/DEV/gc_urgent: start (1), end (0), run SECONDS (1, then 0).\n") },
	{ "defrag_file", io_defrag_file, "defragment a file or a byte range of it",
	  IO_ARG_HELP("defrag_file [file_path]\nf2fs_io defrag_file [start] [length] [file_path]",
		      "START and LENGTH are bytes; without them the whole file.\n") },
	{ "copy", io_copy, "copy a file",
	  IO_ARG_HELP("copy [-d] [-m] [-s] src_path dst_path",
		      "-d O_DIRECT, -m read the source through mmap, -s use sendfile.\n") },
	{ "get_cblocks", io_get_cblocks, "count a compressed file's saved blocks",
	  IO_ARG_HELP("get_cblocks [file]", "Print the number of blocks compression saved.\n") },
	{ "release_cblocks", io_release_cblocks, "release a compressed file's saved blocks",
	  IO_ARG_HELP("release_cblocks [file]",
		      "Give back the blocks compression saved (the file becomes read-only).\n") },
	{ "reserve_cblocks", io_reserve_cblocks, "reserve the released blocks again",
	  IO_ARG_HELP("reserve_cblocks [file]", "Undo release_cblocks; prints the blocks taken.\n") },
	{ "get_coption", io_get_coption, "show a compressed file's algorithm and cluster size",
	  IO_ARG_HELP("get_coption [file]", "algorithm: 0 lzo, 1 lz4, 2 zstd, 3 lzo-rle.\n") },
	{ "set_coption", io_set_coption, "set a compressed file's algorithm and cluster size",
	  IO_ARG_HELP("set_coption [algorithm] [log_cluster_size] [file_path]",
		      "algorithm: 0 lzo, 1 lz4, 2 zstd, 3 lzo-rle; log_cluster_size: 2 to 8.\n") },
	{ "decompress", io_decompress, "decompress a compressed file in place",
	  IO_ARG_HELP("decompress [file_path]", "(mount with compress_mode=user)\n") },
	{ "compress", io_compress, "compress a file with the compression flag",
	  IO_ARG_HELP("compress [file_path]", "(mount with compress_mode=user)\n") },
	{ "get_filename_encrypt_mode", io_get_filename_encrypt_mode,
	  "show the name encryption of a file or directory",
	  IO_ARG_HELP("get_filename_encrypt_mode [file or directory path]",
		      "Print the fscrypt file name cipher of the path's policy.\n") },
	{ "rename", io_rename, "rename a file, optionally fsyncing it after",
	  IO_ARG_HELP("rename [src_path] [target_path] [fsync_after_rename]",
		      "With fsync_after_rename 1: open the source, rename, fsync the open file.\n") },
	{ "gc", io_gc, "run one garbage collection",
	  IO_ARG_HELP("gc sync_mode [file_path]",
		      "sync_mode: 1 foreground (waits), 0 background.\n") },
	{ "checkpoint", io_checkpoint, "write a checkpoint",
	  IO_ARG_HELP("checkpoint [file_path]", "") },
	{ "precache_extents", io_precache_extents, "load a file's extents into the cache",
	  IO_ARG_HELP("precache_extents [file_path]", "") },
	{ "move_range", io_move_range, "move data blocks from one file to another",
	  IO_ARG_HELP("move_range [src_path] [dst_path] [src_start] [dst_start] [length]",
		      "Offsets and length in bytes; DST is created when missing.\n") },
	{ "gc_range", io_gc_range, "garbage-collect the sections of a block range",
	  IO_ARG_HELP("gc_range [sync_mode] [start] [length] [file_path]",
		      "sync_mode: 1 foreground, 0 background; START and LENGTH in blocks.\n") },
	{ "listxattr", io_listxattr, "list a file's xattrs and values",
	  IO_ARG_HELP("listxattr [file_path]", "") },
	{ "setxattr", io_setxattr, "create or replace an xattr",
	  IO_ARG_HELP("setxattr [name] [value] [file_path]",
		      "system.advise takes a number (one byte), user.fadvise a number (32 bits).\n") },
	{ "removexattr", io_removexattr, "remove an xattr",
	  IO_ARG_HELP("removexattr [name] [file_path]", "") },
	{ "lseek", io_lseek, "lseek(2) a file",
	  IO_ARG_HELP("lseek [whence] [offset] [file_path]",
		      "whence: set, cur, end, data (next data from OFFSET) or hole (next hole).\n") },
	{ "get_advise", io_get_advise, "show a file's i_advise bits",
	  IO_ARG_HELP("get_advise [file_path]", "") },
	{ "get_fadvise", io_get_fadvise, "show a file's user.fadvise bits",
	  IO_ARG_HELP("get_fadvise [file_path]", "") },
	{ "ioprio", io_ioprio, "give a file's writes I/O priority",
	  IO_ARG_HELP("ioprio [hint] [file]", "hint: ioprio_write (Linux 6.7 and later).\n") },
	{ "ftruncate", io_ftruncate, "ftruncate(2) a file",
	  IO_ARG_HELP("ftruncate [length] [file_path]", "") },
	{ "test_create_perf", io_test_create_perf, "time creating and deleting files",
	  IO_ARG_HELP("test_create_perf [-s] [-S] <dir> <num_files> <size_kb>",
		      "-s fsync each file, -S sync after the deletions.\n") },
	{ "test_lookup_perf", io_test_lookup_perf, "time readdir and stat",
	  IO_ARG_HELP("test_lookup_perf [-i] [-v] <dir> <num_files>",
		      "-i only create the files, -v list the entries.\n") },
	{ "freeze", io_freeze, "freeze the file system",
	  IO_ARG_HELP("freeze [directory_path]", "") },
	{ "thaw", io_thaw, "thaw the file system",
	  IO_ARG_HELP("thaw [directory_path]", "") },
};

#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static const struct io_cmd *find(const char *name)
{
	size_t i;

	for (i = 0; i < NCMDS; i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

static void list(void)
{
	size_t i;

	fputs("Available commands:\n", stdout);
	for (i = 0; i < NCMDS; i++)
		printf("  %-20s %s\n", cmds[i].name, cmds[i].desc);
	printf("\nRun 'f2fs_io help CMD' for the arguments of CMD.\n");
}

static int help(int argc, char **argv)
{
	const struct io_cmd *c;

	if (argc > 2) {
		c = find(argv[2]);
		if (c) {
			printf("\nUSAGE:\n  %s", c->help);
			return 0;
		}
		printf("Unknown command: %s\n\n", argv[2]);
	}
	list();
	return 0;
}

int main(int argc, char **argv)
{
	const struct io_cmd *c;

	if (argc < 2 || !strcmp(argv[1], "help"))
		return help(argc, argv);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))
		return io_print_version() ? 1 : 0;
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		list();
		printf("\nOptions (alone):\n"
		       "  -h, --help     this list\n"
		       "  -V, --version  print the version and exit\n");
		return 0;
	}
	c = find(argv[1]);
	if (!c) {
		printf("Unknown command: %s\n\n", argv[1]);
		list();
		return 0;
	}
	/* the subcommands with options parse them with getopt from their own argv */
	optind = 1;
	return c->run(argc - 1, argv + 1, c);
}
