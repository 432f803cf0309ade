// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_dump.c - libFuzzer target: dump.f2fs with every view at once.
 *
 * tools/dump*.c are compiled into this target with main() renamed zf2fs_dump_main (see
 * fuzz/local.mk); the views run on the image written to a file, text and JSON in turn.
 */
#include "config.h"
#include <getopt.h>
#include <stdlib.h>

#include "fuzz_image.h"

int zf2fs_dump_main(int argc, char **argv);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet_stdout();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const args[] = {
		"dump.f2fs", "-d", "0", "--superblock", "--checkpoint", "--segments", "--tree",
		"-n", "0~64", "-s", "0~16", "-a", "0~8", "-i", "3", "-i", "4", "-b", "0",
		"-b", "1024", "-b", "4096", "-b", "5632", "--ls", "/", "--ls", "/lost+found",
		"--quota", "--frag", "/",
	};
	enum { NARGS = sizeof(args) / sizeof(args[0]) };
	char *argv[NARGS + 3];
	char path[256];
	int argc = 0;

	snprintf(path, sizeof(path), "%s", fuzz_image_file(data, size));
	for (unsigned i = 0; i < NARGS; i++)
		argv[argc++] = (char *)args[i];
	/* the first byte after the size picks JSON or text */
	if (size > 2 && (data[2] & 1))
		argv[argc++] = (char *)"--json";
	argv[argc++] = path;
	argv[argc] = NULL;
	optind = 0;
	zf2fs_dump_main(argc, argv);
	return 0;
}
