// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli.c - what every front-end says about its command line, said one way.
 *
 * A usage error is one line on standard error naming the cause, a hint to --help, and
 * exit status 16 (the fsck(8) usage code, used by every tool here).  --version is one line,
 * the same shape for every tool, so that scripts and bug reports can read the build's
 * optional features from it.
 */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "helper.h"
#include "zf2fs/load.h"
#include "zf2fs/compress.h"
#include "zf2fs/geometry.h"
#include "zf2fs/txn_file.h"

void zs_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
	exit(ZS_EXIT_USAGE);
}

uint64_t zs_parse_u64(const char *prog, const char *s, const char *what,
				      uint64_t min, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!s || !*s || *s == '-')
		zs_usage_error(prog, "invalid %s: '%s'", what, s ? s : "");
	v = strtoull(s, &end, 0);
	if (errno || *end || v < min || v > max)
		zs_usage_error(prog, "invalid %s: '%s' (expected %" PRIu64 "..%" PRIu64 ")", what,
			       s, min, max);
	return v;
}

/* The optional features a build may lack, in the order --version lists them: each one a
 * configure switch (--with-libzbd) whose absence changes what the tools accept. */
static const struct {
	const char *name;
	bool (*have)(void);
} version_features[] = {
	{ "zoned", zf2fs_have_zoned_support },
	{ "selinux", zf2fs_have_selinux_support },
	{ "casefold", zf2fs_have_casefold_support },
	{ "lz4", zf2fs_have_lz4_support },
	{ "lzo", zf2fs_have_lzo_support },
	{ "zstd", zf2fs_have_zstd_support },
};

/* The f2fs-tools release whose command lines, exit codes and parsed output lines the tools
 * implement.  It leads --version in f2fs-tools' own form ("PROG X.Y.Z"), because callers
 * such as libblockdev read the version with a pattern like "fsck.f2fs\s+([\d.]+)" and
 * refuse tools older than the release that gave them an option they use. */
#define F2FS_TOOLS_INTERFACE "1.16.0"

int zs_print_version(FILE *out, const char *prog)
{
	size_t i;

	fprintf(out, "%s %s (zf2fs-tools %s)", prog, F2FS_TOOLS_INTERFACE, zf2fs_version());
	for (i = 0; i < sizeof(version_features) / sizeof(version_features[0]); i++)
		fprintf(out, " %c%s", version_features[i].have() ? '+' : '-',
			version_features[i].name);
	fputc('\n', out);
	return fflush(out) || ferror(out) ? -EIO : 0;
}

const char *zs_unclean_reason(uint32_t f)
{
	if (!(f & ZF2FS_CP_UMOUNT_FLAG))
		return "was not cleanly unmounted";
	if (f & (ZF2FS_CP_ERROR_FLAG | ZF2FS_CP_FSCK_FLAG | ZF2FS_CP_QUOTA_NEED_FSCK_FLAG))
		return "is marked as needing fsck";
	if (f & (ZF2FS_CP_DISABLED_FLAG | ZF2FS_CP_RESIZEFS_FLAG))
		return "has checkpointing disabled or a resize pending";
	return NULL;
}

uint64_t zs_move_batch_blocks(struct zf2fs_vol *vol, uint64_t given)
{
	return given ? given : (128u << 20) >> zf2fs_vol_geom(vol)->log_blocksize;
}

void zs_cli_log(void *prog, enum zf2fs_msg_kind kind, const char *msg)
{
	fprintf(stderr, "%s: %s%s\n", (const char *)prog, kind == ZF2FS_MSG_ERROR ? "ERROR: " :
		kind == ZF2FS_MSG_WARNING ? "WARNING: " : "", msg);
}
