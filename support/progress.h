/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress.h - how far a long run got, for a person and for a front-end (support/progress.c),
 * the one way every tool that takes --progress and --progress-fd reports it.
 *
 * A run is a list of passes numbered 1, 2, ... in the order they run; each pass counts
 * something from 0 up to a total it knows at its start (the total grows when the count
 * passes it: a checkpoint's count may be wrong).
 *  - --progress-fd FD: lines "PASS CURRENT TOTAL DEVICE\n" on FD, the shape e2fsck's -C FD
 *    writes and systemd-fsck and libblockdev read (decimal numbers, one space between
 *    fields; DEVICE as given on the command line, with white space, '\' and other control
 *    characters written \ooo as /proc/mounts writes them).  Each pass writes a line with
 *    CURRENT 0 at its start, one each time CURRENT moves on by a thousandth of TOTAL, and
 *    one with CURRENT == TOTAL at its end; TOTAL is never 0 (a pass with nothing to count
 *    says 0 1, then 1 1).  The lines are limited by count, never by time, so that a run
 *    writes the same lines every time.  A write that fails (a front-end that closed its
 *    end) stops the lines, never the run.
 *  - --progress: a bar on standard error when it is a terminal (and ZF2FS_NO_PROGRESS is
 *    not set), drawn once the run took a second (ZF2FS_PROGRESS_DELAY_MS=N: N ms, for
 *    tests), at most five times a second; the run's end leaves it at its last state and
 *    ends the line.
 * Neither changes anything else a tool prints, nor its exit status.
 */
#ifndef ZS_PROGRESS_H
#define ZS_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "zf2fs/zf2fs.h"

struct zs_progress {
	int fd;                  /* lines go here; -1: none */
	bool bar;                /* a bar on standard error */
	char dev[256];           /* the device, escaped for the lines */
	unsigned passes;         /* passes of the run, for the bar ("pass 4/8") */
	unsigned pass;           /* the pass under way; 0 before the first and after its end */
	unsigned bar_pass;       /* the pass the bar shows (the last one after its end) */
	const char *label;       /* its name, for the bar */
	uint64_t cur, max;       /* its count and total */
	uint64_t next;           /* zs_progress_set does nothing below this count */
	uint64_t line_cur;       /* CURRENT of the last line written (UINT64_MAX: none) */
	struct timespec t0;      /* the run's start */
	struct timespec drawn_at;   /* the bar's last drawing */
	long bar_delay_ms;       /* no bar before (1000; tests: ZF2FS_PROGRESS_DELAY_MS) */
	int drawn;               /* columns of the bar on the screen; 0: none */
};

/* --progress-fd's argument @arg: a file descriptor open for writing, or a usage error
 * naming what is wrong with it (exit 16) before anything else happens. */
int zs_progress_fd_arg(const char *prog, const char *arg);

/* Start a run of @passes passes on @dev: lines on @fd (-1: none), the bar when @bar and
 * standard error is a terminal and ZF2FS_NO_PROGRESS is unset. */
void zs_progress_init(struct zs_progress *p, int fd, bool bar, const char *dev,
		      unsigned passes);

/* Whether anything is reported at all (callers may skip counting otherwise). */
static inline bool zs_progress_on(const struct zs_progress *p)
{
	return p->fd >= 0 || p->bar;
}

/* Pass @pass (1, 2, ...; above the one before) named @label starts, counting to @max. */
void zs_progress_pass(struct zs_progress *p, unsigned pass, const char *label, uint64_t max);

void zs_progress_step(struct zs_progress *p, uint64_t cur);

/* The pass's count is @cur (never below the one before): cheap enough for every item. */
static inline void zs_progress_set(struct zs_progress *p, uint64_t cur)
{
	if (cur >= p->next)
		zs_progress_step(p, cur);
}

/* The pass under way is done: its line with CURRENT == TOTAL. */
void zs_progress_end(struct zs_progress *p);

/* Take the bar off the screen (before other output on the terminal); the next step draws
 * it again. */
void zs_progress_clear(struct zs_progress *p);

/* A zf2fs_log_fn for the library's messages during a run (@arg: its struct zs_progress):
 * the bar off the screen, then the message where a log without a callback prints it. */
void zs_progress_log(void *arg, enum zf2fs_msg_kind kind, const char *msg);

/* The run is over (finished or not): a bar on the screen ends its line. */
void zs_progress_close(struct zs_progress *p);

#endif
