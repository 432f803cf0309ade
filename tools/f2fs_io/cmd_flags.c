// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_flags.c - f2fs_io's commands on a file's attributes: getflags, setflags,
 * clearflags, pinfile, set_verity, ioprio and get_filename_encrypt_mode.
 *
 * The output lines are f2fs-tools', quirks included (setflags and clearflags name the
 * flag, not the file, in their first line), so that logs compare line by line.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fscrypt.h>
#include <linux/fsverity.h>

#include "f2fs_io.h"
#include "f2fs_uapi.h"

/* the names getflags prints, in its order */
static const struct {
	unsigned int bit;
	const char *name;
} shown[] = {
	{ FS_CASEFOLD_FL, "casefold" },
	{ FS_COMPR_FL, "compression" },
	{ FS_NOCOMP_FL, "nocompression" },
	{ FS_ENCRYPT_FL, "encrypt" },
	{ FS_VERITY_FL, "verity" },
	{ FS_INLINE_DATA_FL, "inline_data" },
	{ FS_NOCOW_FL, "nocow(pinned)" },
	{ FS_IMMUTABLE_FL, "immutable" },
};

int io_getflags(int argc, char **argv, const struct io_cmd *cmd)
{
	int fd, ret, flags = 0, any = 0;
	size_t i;

	if (argc != 2)
		io_usage(cmd);
	fd = io_open(argv[1], O_RDONLY, 0);
	ret = ioctl(fd, FS_IOC_GETFLAGS, &flags);
	printf("get a flag on %s ret=%d, flags=", argv[1], ret);
	if (ret) {
		putchar('\n');
		io_die_errno("FS_IOC_GETFLAGS on %s", argv[1]);
	}
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		if (!((unsigned int)flags & shown[i].bit))
			continue;
		printf("%s%s", any ? "," : "", shown[i].name);
		any = 1;
	}
	printf("%s\n", any ? "" : "none");
	return 0;
}

/* change_flag: setflags (set = 1) or clearflags; WORDS maps a flag word to its bit.
 * An unknown word is refused before anything is changed. */
static int change_flag(int argc, char **argv, const struct io_cmd *cmd, int set)
{
	static const struct {
		const char *word;
		unsigned int bit;
		int can_set, can_clear;
	} words[] = {
		{ "casefold", FS_CASEFOLD_FL, 1, 0 },
		{ "compression", FS_COMPR_FL, 1, 1 },
		{ "nocompression", FS_NOCOMP_FL, 1, 1 },
		{ "immutable", FS_IMMUTABLE_FL, 1, 1 },
		{ "nocow", FS_NOCOW_FL, 1, 1 },
		/* f2fs-tools 1.15's way to clear the immutable flag */
		{ "noimmutable", FS_IMMUTABLE_FL, 1, 0 },
	};
	int fd, ret, flags = 0;
	size_t i;

	if (argc != 3)
		io_usage(cmd);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(words[i].word, argv[1]) && (set ? words[i].can_set : words[i].can_clear))
			break;
	if (i == sizeof(words) / sizeof(words[0])) {
		fprintf(stderr, "f2fs_io %s: unknown flag '%s'\n\n%s", cmd->name, argv[1], cmd->help);
		return 1;
	}
	fd = io_open(argv[2], O_RDONLY, 0);
	ret = ioctl(fd, FS_IOC_GETFLAGS, &flags);
	printf("get a flag on %s ret=%d, flags=%x\n", argv[1], ret, (unsigned int)flags);
	if (ret)
		io_die_errno("FS_IOC_GETFLAGS on %s", argv[2]);
	if (set && strcmp(argv[1], "noimmutable"))
		flags = (int)((unsigned int)flags | words[i].bit);
	else
		flags = (int)((unsigned int)flags & ~words[i].bit);
	ret = ioctl(fd, FS_IOC_SETFLAGS, &flags);
	printf("%s a flag on %s ret=%d, flags=%s\n", set ? "set" : "clear", argv[2], ret, argv[1]);
	if (ret)
		io_die_errno("FS_IOC_SETFLAGS on %s", argv[2]);
	return 0;
}

int io_setflags(int argc, char **argv, const struct io_cmd *cmd)
{
	return change_flag(argc, argv, cmd, 1);
}

int io_clearflags(int argc, char **argv, const struct io_cmd *cmd)
{
	return change_flag(argc, argv, cmd, 0);
}

int io_pinfile(int argc, char **argv, const struct io_cmd *cmd)
{
	uint32_t pin;
	struct stat st;
	int fd, ret, flags = 0;
	long long size;

	if (argc < 3 || argc > 4)
		io_usage(cmd);
	if (strcmp(argv[1], "set") && strcmp(argv[1], "unset") && strcmp(argv[1], "get")) {
		fprintf(stderr, "f2fs_io pinfile: '%s' is not get, set or unset\n\n%s", argv[1], cmd->help);
		return 1;
	}
	size = argc == 4 ? io_num("size", argv[3]) : -1;
	fd = io_open(argv[2], O_RDWR, 0);
	if (!strcmp(argv[1], "get")) {
		if (ioctl(fd, IO_GET_PIN_FILE, &pin) < 0)
			io_die_errno("F2FS_IOC_GET_PIN_FILE on %s", argv[2]);
		if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
			io_die_errno("FS_IOC_GETFLAGS on %s", argv[2]);
		/* the kernel reports the blocks GC moved of a pinned file (i_gc_failures) */
		printf("get_pin_file: %s with %u blocks moved in %s\n",
		       ((unsigned int)flags & FS_NOCOW_FL) ? "pinned" : "un-pinned", pin, argv[2]);
		return 0;
	}
	pin = !strcmp(argv[1], "set");
	ret = ioctl(fd, IO_SET_PIN_FILE, &pin);
	if (ret)
		io_die_errno("F2FS_IOC_SET_PIN_FILE on %s", argv[2]);
	if (!pin) {
		printf("%s pinfile in %s\n", argv[1], argv[2]);
		return 0;
	}
	if (size < 0) {
		printf("%s pinfile: %u blocks moved in %s\n", argv[1], (unsigned int)ret, argv[2]);
		return 0;
	}
	if (fallocate(fd, 0, 0, (off_t)size))
		io_die_errno("fallocate %s", argv[2]);
	if (fstat(fd, &st))
		io_die_errno("cannot stat %s", argv[2]);
	printf("%s pinfile: %u blocks moved and fallocate %" PRIu64 " bytes in %s\n", argv[1],
	       (unsigned int)ret, (uint64_t)st.st_size, argv[2]);
	return 0;
}

int io_set_verity(int argc, char **argv, const struct io_cmd *cmd)
{
	struct fsverity_enable_arg arg;
	int fd;

	if (argc != 2)
		io_usage(cmd);
	memset(&arg, 0, sizeof(arg));
	arg.version = 1;
	arg.hash_algorithm = FS_VERITY_HASH_ALG_SHA256;
	arg.block_size = IO_BLOCK;
	fd = io_open(argv[1], O_RDONLY, 0);
	if (ioctl(fd, FS_IOC_ENABLE_VERITY, &arg) < 0)
		io_die_errno("FS_IOC_ENABLE_VERITY on %s", argv[1]);
	printf("Set fsverity bit to %s\n", argv[1]);
	return 0;
}

int io_ioprio(int argc, char **argv, const struct io_cmd *cmd)
{
	uint32_t hint;
	int fd;

	if (argc != 3)
		io_usage(cmd);
	if (strcmp(argv[1], "ioprio_write")) {
		fprintf(stderr, "f2fs_io ioprio: unknown hint '%s'\n\n%s", argv[1], cmd->help);
		return 1;
	}
	hint = IO_IOPRIO_WRITE;
	fd = io_open(argv[2], O_RDWR, 0);
	if (ioctl(fd, IO_IO_PRIO, &hint))
		io_die_errno("F2FS_IOC_IO_PRIO on %s", argv[2]);
	printf("ioprio_hint %u to a file: %s\n", hint, argv[2]);
	return 0;
}

int io_get_filename_encrypt_mode(int argc, char **argv, const struct io_cmd *cmd)
{
	/* fscrypt's mode numbers (FSCRYPT_MODE_*) and their names */
	static const char *const modes[] = {
		"invalid", "aes-256-xts", "aes-256-gcm", "aes-256-cbc", "aes-256-cts",
		"aes-128-cbc", "aes-128-cts", "speck128-256-xts", "speck128-256-cts",
		"adiantum", "aes-256-hctr2",
	};
	struct fscrypt_get_policy_ex_arg arg;
	unsigned int mode;
	int fd, ret;

	if (argc != 2)
		io_usage(cmd);
	memset(&arg, 0, sizeof(arg));
	fd = io_open(argv[1], O_RDONLY, 0);
	arg.policy_size = sizeof(arg.policy);
	ret = ioctl(fd, FS_IOC_GET_ENCRYPTION_POLICY_EX, &arg);
	if (ret && errno == ENOTTY)	/* kernels before 5.4 know only v1 policies */
		ret = ioctl(fd, FS_IOC_GET_ENCRYPTION_POLICY, &arg.policy.v1);
	if (ret)
		io_die_errno("cannot read the encryption policy of %s", argv[1]);
	close(fd);
	if (arg.policy.version == FSCRYPT_POLICY_V1) {
		mode = arg.policy.v1.filenames_encryption_mode;
	} else if (arg.policy.version == FSCRYPT_POLICY_V2) {
		mode = arg.policy.v2.filenames_encryption_mode;
	} else {
		printf("Do not support policy version: %d\n", arg.policy.version);
		return 1;
	}
	if (mode >= sizeof(modes) / sizeof(modes[0])) {
		printf("Do not support algorithm: %u\n", mode);
		return 1;
	}
	printf("%s\n", modes[mode]);
	return 0;
}
