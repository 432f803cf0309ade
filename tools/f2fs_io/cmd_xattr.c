// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_xattr.c - f2fs_io's extended-attribute commands: listxattr, setxattr,
 * removexattr, get_advise and get_fadvise.
 *
 * setxattr and removexattr report the call's result in their "ret=" field and exit 0
 * even when it failed, as f2fs-tools does (a script reads the field, and one under
 * set -e must not stop where it did not before).  removexattr's line names the
 * attribute where its words say file and the reverse, as f2fs-tools prints it.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "f2fs_io.h"
#include "f2fs_uapi.h"

int io_listxattr(int argc, char **argv, const struct io_cmd *cmd)
{
	ssize_t len, vlen;
	char *names, *k, *val;

	if (argc != 2)
		io_usage(cmd);
	len = listxattr(argv[1], NULL, 0);
	if (len < 0)
		io_die_errno("listxattr %s", argv[1]);
	if (len == 0) {
		printf("%s has no attributes.\n", argv[1]);
		return 0;
	}
	names = malloc((size_t)len);
	if (!names)
		io_die("out of memory");
	len = listxattr(argv[1], names, (size_t)len);
	if (len < 0)
		io_die_errno("listxattr %s", argv[1]);
	for (k = names; k < names + len; k += strlen(k) + 1) {
		printf("%s: ", k);
		vlen = getxattr(argv[1], k, NULL, 0);
		if (vlen < 0)
			io_die_errno("getxattr %s %s", argv[1], k);
		if (vlen == 0) {
			printf("<no value>\n");
			continue;
		}
		val = malloc((size_t)vlen + 1);
		if (!val)
			io_die("out of memory");
		vlen = getxattr(argv[1], k, val, (size_t)vlen);
		if (vlen < 0)
			io_die_errno("getxattr %s %s", argv[1], k);
		val[vlen] = 0;
		/* the value as text, up to its first NUL byte */
		printf("%s\n", val);
		free(val);
	}
	free(names);
	return 0;
}

int io_setxattr(int argc, char **argv, const struct io_cmd *cmd)
{
	const char *name = argv[1], *text = argv[2], *path = argv[3];
	unsigned char byte;
	unsigned int word;
	const void *value = text;
	size_t len = strlen(text);
	int ret;

	if (argc != 4)
		io_usage(cmd);
	/* F2FS's own advice attributes take numbers, stored in binary */
	if (!strcmp(name, IO_ADVISE_XATTR)) {
		byte = (unsigned char)strtoul(text, NULL, 0);
		value = &byte;
		len = 1;
	} else if (!strcmp(name, IO_FADVISE_XATTR)) {
		word = (unsigned int)strtoul(text, NULL, 0);
		value = &word;
		len = sizeof(word);
	}
	ret = setxattr(path, name, value, len, XATTR_CREATE);
	printf("setxattr %s CREATE: name: %s, value: %s: ret=%d\n", path, name, text, ret);
	if (ret < 0 && errno == EEXIST) {
		ret = setxattr(path, name, value, len, XATTR_REPLACE);
		printf("setxattr %s REPLACE: name: %s, value: %s: ret=%d\n", path, name, text, ret);
	}
	if (ret < 0)
		fprintf(stderr, "f2fs_io: setxattr %s on %s: %s\n", name, path, strerror(errno));
	return 0;
}

int io_removexattr(int argc, char **argv, const struct io_cmd *cmd)
{
	int ret;

	if (argc != 3)
		io_usage(cmd);
	ret = removexattr(argv[2], argv[1]);
	printf("removexattr %s REMOVE: name: %s: ret=%d\n", argv[1], argv[2], ret);
	if (ret < 0)
		fprintf(stderr, "f2fs_io: removexattr %s on %s: %s\n", argv[1], argv[2],
			strerror(errno));
	return 0;
}

int io_get_advise(int argc, char **argv, const struct io_cmd *cmd)
{
	static const struct {
		unsigned char bit;
		const char *name;
	} bits[] = {
		{ IO_ADV_COLD, "cold" }, { IO_ADV_LOST_PINO, "lost_pino" },
		{ IO_ADV_ENCRYPT, "encrypt" }, { IO_ADV_ENC_NAME, "enc_name" },
		{ IO_ADV_KEEP_SIZE, "keep_size" }, { IO_ADV_HOT, "hot" },
		{ IO_ADV_VERITY, "verity" }, { IO_ADV_TRUNC, "trunc" },
	};
	unsigned char v;
	size_t i;

	if (argc != 2)
		io_usage(cmd);
	if (getxattr(argv[1], IO_ADVISE_XATTR, &v, 1) != 1)
		io_die_errno("getxattr %s %s", argv[1], IO_ADVISE_XATTR);
	printf("i_advise=0x%x, advise_type: ", v);
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (v & bits[i].bit)
			printf("%s ", bits[i].name);
	printf("\n");
	return 0;
}

int io_get_fadvise(int argc, char **argv, const struct io_cmd *cmd)
{
	unsigned int v;

	if (argc != 2)
		io_usage(cmd);
	if (getxattr(argv[1], IO_FADVISE_XATTR, &v, sizeof(v)) != (ssize_t)sizeof(v))
		io_die_errno("getxattr %s %s", argv[1], IO_FADVISE_XATTR);
	printf("fadvise=0x%x, advise_type: %s\n", v, (v & IO_FADV_LARGEFOLIO) ? "largefolio" : "");
	return 0;
}
