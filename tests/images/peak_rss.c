// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * peak_rss.c - run a command and print its peak resident set (KiB) and exit status.
 *
 * Usage: peak_rss REPORT CMD [ARG]...: writes "KIB STATUS" to the file REPORT; the
 * command's own output is left alone.  In C on purpose: at exec, Linux folds the peak of
 * the forking process into the child's (a fork of python or bash starts at its parent's
 * size), so the measuring parent must be small.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: peak_rss REPORT CMD [ARG]...\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("peak_rss: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("peak_rss: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("peak_rss: wait4");
		return 2;
	}
	f = fopen(argv[1], "w");
	if (!f) {
		perror("peak_rss: report");
		return 2;
	}
	fprintf(f, "%ld %d\n", ru.ru_maxrss,
		WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return fclose(f) ? 2 : 0;
}
