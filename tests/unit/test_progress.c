// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_progress.c - the library's messages during a run with a bar (support/progress.c):
 * zs_progress_log takes the bar off the screen before the message, so that a message
 * never ends up on the bar's line, and prints it where a log without a callback does.
 */
#include "unit.h"
#include <unistd.h>

#include "progress.h"

/* What @fn wrote on descriptor @fd (1 or 2) while it ran, NUL-terminated in @out. */
static void capture(int fd, void (*fn)(struct zs_progress *), struct zs_progress *p,
		    char *out, size_t size)
{
	FILE *tmp = tmpfile();
	int saved = dup(fd);
	size_t n;

	assert_non_null(tmp);
	assert_true(saved >= 0);
	fflush(fd == 1 ? stdout : stderr);
	assert_true(dup2(fileno(tmp), fd) >= 0);
	fn(p);
	fflush(fd == 1 ? stdout : stderr);
	assert_true(dup2(saved, fd) >= 0);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, size - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
}

static void warn(struct zs_progress *p)
{
	zs_progress_log(p, ZF2FS_MSG_WARNING, "a block could not be read");
}

static void info(struct zs_progress *p)
{
	zs_progress_log(p, ZF2FS_MSG_INFO, "checkpoint state = 5");
}

static void test_log_clears_bar(void **state)
{
	struct zs_progress p = { .fd = -1, .bar = true, .drawn = 12 };
	char out[256];

	(void)state;
	/* a bar of 12 columns on the screen: blanked, the cursor back at the line's start,
	 * then the message on a line of its own */
	capture(2, warn, &p, out, sizeof(out));
	assert_string_equal(out, "\r            \rWARNING: a block could not be read\n");
	assert_int_equal(p.drawn, 0);
	/* nothing on the screen: the message alone */
	capture(2, warn, &p, out, sizeof(out));
	assert_string_equal(out, "WARNING: a block could not be read\n");
}

static void test_log_info_to_stdout(void **state)
{
	struct zs_progress p = { .fd = -1, .bar = true, .drawn = 3 };
	char out[256];

	(void)state;
	/* the bar is on standard error: taken off there, the message on standard output */
	capture(1, info, &p, out, sizeof(out));
	assert_string_equal(out, "checkpoint state = 5\n");
	assert_int_equal(p.drawn, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_clears_bar),
		cmocka_unit_test(test_log_info_to_stdout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
