// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * common.c - f2fs_io's helpers: failing with f2fs-tools' exit codes, number arguments,
 * opening files and the clock the timings use.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "f2fs_io.h"

void io_usage(const struct io_cmd *cmd)
{
	fprintf(stderr, "f2fs_io %s: wrong number of arguments\n\n%s", cmd->name, cmd->help);
	exit(1);
}

void io_bad_option(const struct io_cmd *cmd)
{
	fputs(cmd->help, stderr);
	exit(2);
}

static void __attribute__((noreturn)) vdie(int err, const char *fmt, va_list ap)
{
	fputs("f2fs_io: ", stderr);
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
	exit(1);
}

void io_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(0, fmt, ap);
}

void io_die_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vdie(err, fmt, ap);	/* exits: no va_end */
}

long long io_num(const char *what, const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end || errno)
		io_die("%s is not a number: '%s'", what, s);
	return v;
}

int io_open(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags, mode);

	if (fd < 0)
		io_die_errno("cannot open %s", path);
	return fd;
}

uint64_t io_now_us(void)
{
	struct timespec t = { 0, 0 };

	clock_gettime(CLOCK_BOOTTIME, &t);
	return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}
