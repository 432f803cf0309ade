/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2fs_io.h - what the files of f2fs_io share: the command table entry and the helpers
 * every subcommand uses to parse its arguments, open its file and fail.
 *
 * Exit codes are f2fs-tools': 0 done (also for help and an unknown command, which only
 * print the command list), 1 a wrong argument count, a bad value or a failed call, 2 a
 * bad option of the subcommands that take options (fallocate, copy).
 */
#ifndef ZF2FS_F2FS_IO_H
#define ZF2FS_F2FS_IO_H

#include <stdint.h>
#include <sys/types.h>

struct io_cmd {
	const char *name;
	/* argv[0] is the subcommand's name; returns the exit status */
	int (*run)(int argc, char **argv, const struct io_cmd *cmd);
	const char *desc;	/* its line in the command list */
	const char *help;	/* `f2fs_io help NAME`: the synopsis line, then details */
};

#define IO_BLOCK 4096u		/* the unit of "in 4kb" arguments */

/* io_usage: the argument count is wrong; the command's help on stderr, exit 1. */
void io_usage(const struct io_cmd *cmd) __attribute__((noreturn));
/* io_bad_option: an unknown option letter; the help on stderr, exit 2. */
void io_bad_option(const struct io_cmd *cmd) __attribute__((noreturn));
/* io_die: "f2fs_io: MESSAGE" on stderr, exit 1; io_die_errno adds strerror(errno). */
void io_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void io_die_errno(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* io_num: a decimal integer argument (leading '-' allowed); anything else is refused
 * with a message naming WHAT, exit 1. */
long long io_num(const char *what, const char *s);
/* io_open: open(2) or die naming PATH. */
int io_open(const char *path, int flags, mode_t mode);
/* io_now_us: microseconds on the boot clock, for the timings the I/O commands print. */
uint64_t io_now_us(void);
/* io_print_version: -V / --version. */
int io_print_version(void);

/* The subcommands, one file per kind. */
int io_fsync(int, char **, const struct io_cmd *);
int io_fdatasync(int, char **, const struct io_cmd *);
int io_shutdown(int, char **, const struct io_cmd *);
int io_checkpoint(int, char **, const struct io_cmd *);
int io_freeze(int, char **, const struct io_cmd *);
int io_thaw(int, char **, const struct io_cmd *);
int io_gc(int, char **, const struct io_cmd *);
int io_gc_range(int, char **, const struct io_cmd *);
int io_gc_urgent(int, char **, const struct io_cmd *);
int io_precache_extents(int, char **, const struct io_cmd *);
int io_defrag_file(int, char **, const struct io_cmd *);
int io_move_range(int, char **, const struct io_cmd *);

int io_set_verity(int, char **, const struct io_cmd *);
int io_getflags(int, char **, const struct io_cmd *);
int io_setflags(int, char **, const struct io_cmd *);
int io_clearflags(int, char **, const struct io_cmd *);
int io_pinfile(int, char **, const struct io_cmd *);
int io_ioprio(int, char **, const struct io_cmd *);
int io_get_filename_encrypt_mode(int, char **, const struct io_cmd *);

int io_write(int, char **, const struct io_cmd *);
int io_write_advice(int, char **, const struct io_cmd *);
int io_fallocate(int, char **, const struct io_cmd *);
int io_erase(int, char **, const struct io_cmd *);
int io_ftruncate(int, char **, const struct io_cmd *);
int io_copy(int, char **, const struct io_cmd *);
int io_rename(int, char **, const struct io_cmd *);

int io_read(int, char **, const struct io_cmd *);
int io_randread(int, char **, const struct io_cmd *);
int io_fragread(int, char **, const struct io_cmd *);
int io_fadvise(int, char **, const struct io_cmd *);
int io_lseek(int, char **, const struct io_cmd *);
int io_fiemap(int, char **, const struct io_cmd *);

int io_get_cblocks(int, char **, const struct io_cmd *);
int io_release_cblocks(int, char **, const struct io_cmd *);
int io_reserve_cblocks(int, char **, const struct io_cmd *);
int io_get_coption(int, char **, const struct io_cmd *);
int io_set_coption(int, char **, const struct io_cmd *);
int io_compress(int, char **, const struct io_cmd *);
int io_decompress(int, char **, const struct io_cmd *);

int io_listxattr(int, char **, const struct io_cmd *);
int io_setxattr(int, char **, const struct io_cmd *);
int io_removexattr(int, char **, const struct io_cmd *);
int io_get_advise(int, char **, const struct io_cmd *);
int io_get_fadvise(int, char **, const struct io_cmd *);

int io_test_create_perf(int, char **, const struct io_cmd *);
int io_test_lookup_perf(int, char **, const struct io_cmd *);

#endif
