// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * progress.c - --progress and --progress-fd (support/progress.h says what each writes and
 * when).  The lines for a front-end are counted, not timed, so that a test sees the same
 * lines every run; only the bar, which a person reads, looks at the clock.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "helper.h"
#include "progress.h"

#define BAR_DELAY_MS 1000     /* no bar for a run shorter than this */
#define BAR_EVERY_MS 200      /* at most five drawings a second */

int zs_progress_fd_arg(const char *prog, const char *arg)
{
	int fd = (int)zs_parse_u64(prog, arg, "--progress-fd", 0, INT_MAX);
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		zs_usage_error(prog, "--progress-fd %d: not an open file descriptor", fd);
	if ((fl & O_ACCMODE) == O_RDONLY)
		zs_usage_error(prog, "--progress-fd %d: not open for writing", fd);
	return fd;
}

/* @src with white space, '\' and control characters as \ooo, so that DEVICE is one word */
static void escape(char *dst, size_t len, const char *src)
{
	size_t o = 0;

	for (; *src && o + 5 < len; src++) {
		unsigned char c = (unsigned char)*src;

		if (c <= ' ' || c == '\\' || c == 0x7f)
			o += (size_t)snprintf(dst + o, len - o, "\\%03o", c);
		else
			dst[o++] = (char)c;
	}
	dst[o] = '\0';
}

void zs_progress_init(struct zs_progress *p, int fd, bool bar, const char *dev,
		      unsigned passes)
{
	memset(p, 0, sizeof(*p));
	p->fd = fd;
	p->bar = bar && isatty(STDERR_FILENO) && !getenv("ZF2FS_NO_PROGRESS");
	escape(p->dev, sizeof(p->dev), dev ? dev : "-");
	p->passes = passes;
	p->bar_delay_ms = BAR_DELAY_MS;
	if (p->bar && getenv("ZF2FS_PROGRESS_DELAY_MS"))
		p->bar_delay_ms = strtol(getenv("ZF2FS_PROGRESS_DELAY_MS"), NULL, 10);
	p->next = UINT64_MAX;
	p->line_cur = UINT64_MAX;
	clock_gettime(CLOCK_MONOTONIC, &p->t0);
}

/* Write all of @s to @fd with SIGPIPE held back, so that a reader gone away makes the write
 * fail (EPIPE) instead of ending the run.  False when it failed. */
static bool write_all(int fd, const char *s, size_t len)
{
	sigset_t pipe_set, old, pending;
	bool was_pending, ok = true;
	int err = 0;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, &old);
	was_pending = !sigpending(&pending) && sigismember(&pending, SIGPIPE);
	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : EIO;
			ok = false;
			break;
		}
		s += n;
		len -= (size_t)n;
	}
	if (err == EPIPE && !was_pending) {
		static const struct timespec zero;

		(void)sigtimedwait(&pipe_set, NULL, &zero);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ok;
}

static void line(struct zs_progress *p)
{
	char buf[sizeof(p->dev) + 64];
	int n;

	if (p->fd < 0 || p->cur == p->line_cur)
		return;
	n = snprintf(buf, sizeof(buf), "%u %" PRIu64 " %" PRIu64 " %s\n", p->pass, p->cur,
		     p->max, p->dev);
	p->line_cur = p->cur;
	if (p->fd == STDOUT_FILENO || p->fd == STDERR_FILENO) {
		/* through the stream the tool prints on, so that no line is cut by its output */
		FILE *f = p->fd == STDOUT_FILENO ? stdout : stderr;

		if (fputs(buf, f) == EOF || fflush(f))
			p->fd = -1;
		return;
	}
	if (!write_all(p->fd, buf, (size_t)n))
		p->fd = -1;
}

static long ms_since(const struct timespec *now, const struct timespec *then)
{
	return (long)(now->tv_sec - then->tv_sec) * 1000 +
	       (now->tv_nsec - then->tv_nsec) / 1000000;
}

static void draw(struct zs_progress *p)
{
	char head[sizeof(((struct zs_progress *)0)->dev) + 160], out[640], tail[16];
	const char *dev = strrchr(p->dev, '/') ? strrchr(p->dev, '/') + 1 : p->dev;
	unsigned permille = p->max ? (unsigned)(p->cur * 1000 / p->max) : 1000;
	int cols = 79, w, fill, n;
	struct winsize ws;

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 40)
		cols = ws.ws_col > 200 ? 199 : ws.ws_col - 1;
	if (p->passes > 1)
		snprintf(head, sizeof(head), "%s: pass %u/%u, %s", dev, p->bar_pass, p->passes,
			 p->label);
	else
		snprintf(head, sizeof(head), "%s: %s", dev, p->label);
	snprintf(tail, sizeof(tail), " %3u.%u%%", permille / 10, permille % 10);
	w = cols - (int)strlen(head) - 3 - (int)strlen(tail);
	if (w < 10) {
		/* the name gives way to the bar */
		int keep = cols - 10 - 3 - (int)strlen(tail);

		w = 10;
		head[keep > 0 ? keep : 0] = '\0';
	}
	fill = (int)((int64_t)w * permille / 1000);
	n = snprintf(out, sizeof(out), "\r%s [", head);
	for (int i = 0; i < w && n < (int)sizeof(out) - 32; i++)
		out[n++] = i < fill ? '=' : ' ';
	n += snprintf(out + n, sizeof(out) - (size_t)n, "]%s", tail);
	/* cover what a longer drawing left */
	for (int i = n - 1; i < p->drawn && n < (int)sizeof(out) - 1; i++)
		out[n++] = ' ';
	out[n] = '\0';
	fputs(out, stderr);
	fflush(stderr);
	p->drawn = n - 1;
}

static void maybe_draw(struct zs_progress *p)
{
	struct timespec now;

	if (!p->bar)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (ms_since(&now, &p->t0) < p->bar_delay_ms)
		return;
	/* taken off for a problem's line or not, the bar waits its turn */
	if ((p->drawn_at.tv_sec || p->drawn_at.tv_nsec) &&
	    ms_since(&now, &p->drawn_at) < BAR_EVERY_MS)
		return;
	p->drawn_at = now;
	draw(p);
}

void zs_progress_step(struct zs_progress *p, uint64_t cur)
{
	uint64_t step;

	if (!p->pass)
		return;
	p->cur = cur;
	if (cur > p->max)
		p->max = cur;
	step = (p->max + 999) / 1000;   /* at most a thousand lines between the first and the last */
	p->next = cur + step;
	line(p);
	maybe_draw(p);
}

void zs_progress_pass(struct zs_progress *p, unsigned pass, const char *label, uint64_t max)
{
	if (!zs_progress_on(p))
		return;
	if (p->pass)
		zs_progress_end(p);
	p->pass = p->bar_pass = pass;
	p->label = label;
	p->cur = 0;
	p->max = max ? max : 1;
	p->line_cur = UINT64_MAX;
	zs_progress_step(p, 0);
}

void zs_progress_end(struct zs_progress *p)
{
	if (!p->pass)
		return;
	if (p->cur < p->max)
		p->cur = p->max;
	line(p);
	maybe_draw(p);
	p->pass = 0;
	p->next = UINT64_MAX;
}

void zs_progress_clear(struct zs_progress *p)
{
	if (!p->drawn)
		return;
	fprintf(stderr, "\r%*s\r", p->drawn, "");
	fflush(stderr);
	p->drawn = 0;
}

void zs_progress_log(void *arg, enum zf2fs_msg_kind kind, const char *msg)
{
	/* the library's own output, from a log without a callback */
	const struct zf2fs_log plain = { .level = INT_MAX };

	zs_progress_clear(arg);
	zf2fs_logf(&plain, kind, 0, "%s", msg);
}

void zs_progress_close(struct zs_progress *p)
{
	if (p->drawn) {
		draw(p);
		fputs("\n", stderr);
	}
	p->drawn = 0;
	p->fd = -1;
	p->bar = false;
	p->pass = 0;
	p->next = UINT64_MAX;
}
