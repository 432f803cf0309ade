/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zwork.h - what zwork.c shares with the helper's other command files: errors, numbers,
 * the seeded content generator, and the content commands' table entries.
 */
#ifndef ZWORK_H
#define ZWORK_H

#include <stddef.h>
#include <stdint.h>

void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
unsigned long long parse_num(const char *s, const char *what);
/* the bytes of a generated file at block @blkno depend only on (@seed, @blkno) */
void gen_block(uint64_t seed, uint64_t blkno, uint8_t *buf, size_t len);
/* writes a generated file; -ENOSPC when the volume filled up and @allow_full is set */
int gen_file(const char *path, uint64_t size, uint64_t seed, int do_fsync, int allow_full);

/* zwork_content.c: fscrypt, fs-verity and F2FS's own file ioctls */
int cmd_key(int argc, char **argv);
int cmd_policy(int argc, char **argv);
int cmd_verity(int argc, char **argv);
int cmd_flags(int argc, char **argv);
int cmd_compress_opt(int argc, char **argv);
int cmd_release(int argc, char **argv);
int cmd_pin(int argc, char **argv);
int cmd_atomic(int argc, char **argv);
int cmd_xattr(int argc, char **argv);
int cmd_acl(int argc, char **argv);
int cmd_enospc(int argc, char **argv);
int cmd_socket(int argc, char **argv);

#define ZWORK_CONTENT_COMMANDS \
	{ "key", cmd_key, "MNT add|remove v1|v2 SEED" }, \
	{ "policy", cmd_policy, "DIR v1|v2 SEED [xts|adiantum]" }, \
	{ "verity", cmd_verity, "FILE" }, \
	{ "flags", cmd_flags, "PATH [+|-]casefold|compr|nocompr|immutable|append|noatime|projinherit..." }, \
	{ "compress-opt", cmd_compress_opt, "FILE lzo|lz4|zstd|lzo-rle LOG_CLUSTER" }, \
	{ "release", cmd_release, "FILE release|reserve" }, \
	{ "pin", cmd_pin, "FILE SIZE_KIB [WRITE_KIB SEED]" }, \
	{ "atomic", cmd_atomic, "FILE SIZE_KIB SEED commit|abort|hold" }, \
	{ "xattr", cmd_xattr, "PATH NAME SIZE SEED" }, \
	{ "acl", cmd_acl, "PATH access|default UID GID" }, \
	{ "enospc", cmd_enospc, "DIR FILE_KIB SEED" }, \
	{ "socket", cmd_socket, "PATH" },

#endif
