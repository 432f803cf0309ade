// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_fsck.c - libFuzzer target: a whole "fsck.f2fs -f -n -t" run.
 *
 * fsck/main.c is compiled into this target with its main() renamed zf2fs_fsck_main (see
 * fuzz/local.mk), so the run is exactly the tool's, on the image written to a file.
 * Built with FUZZ_REPAIR (fuzz_repair), the run is "fsck.f2fs -f -y": every repair path
 * writes to that file, then "fsck.f2fs -f -n" checks the result.
 */
#include "config.h"
#include <getopt.h>
#include <stdlib.h>

#include "fuzz_image.h"

int zf2fs_fsck_main(int argc, char **argv);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("ZF2FS_NO_PROGRESS", "1", 1);
	fuzz_quiet_stdout();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char arg0[] = "fsck.f2fs", f[] = "-f", n[] = "-n", t[] = "-t", y[] = "-y";
	char path[256];
	char *argv[] = { arg0, f, n, t, path, NULL };

	snprintf(path, sizeof(path), "%s", fuzz_image_file(data, size));
#ifdef FUZZ_REPAIR
	{
		char *yargv[] = { arg0, f, y, path, NULL };

		optind = 0;
		zf2fs_fsck_main(4, yargv);
	}
#else
	(void)y;
#endif
	optind = 0;   /* glibc: start getopt afresh */
	zf2fs_fsck_main(5, argv);
	return 0;
}
