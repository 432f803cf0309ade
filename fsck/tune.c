// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tune.c - the superblock changes f2fs-tools' fsck makes on request, before it checks:
 * -O encrypt, -O casefold / -C (switch a feature on) and --nolinear-lookup=X (whether
 * Linux may fall back to a linear search of a casefolded directory when the hashed lookup
 * misses: bit 0x2 of s_encoding_flags, which Linux calls hashonly).
 *
 * Nothing else of the volume changes, so the new superblock goes through the library's
 * zf2fs_vol_write_super, which writes the copy not in use first: an interruption leaves
 * a valid copy, old or new.  With -n or --dry-run the change is only reported.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>

#include "fsck.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/commit.h"

bool fsck_tune_wanted(const struct fsck_ctx *ctx)
{
	return ctx->tune_features || ctx->linear_lookup >= 0;
}

int fsck_tune_super(struct fsck_ctx *ctx)
{
	struct zf2fs_super sb = *ctx->sb;
	uint32_t feat = zf2fs_get(sb.feature);
	uint16_t flags = zf2fs_get(sb.s_encoding_flags);
	const char *did[3];
	int ndid = 0, err;
	char why[256] = "";

	if ((ctx->tune_features & ZF2FS_FEAT_ENCRYPT) && !(feat & ZF2FS_FEAT_ENCRYPT)) {
		feat |= ZF2FS_FEAT_ENCRYPT;
		did[ndid++] = "the encrypt feature switched on";
	}
	if ((ctx->tune_features & ZF2FS_FEAT_CASEFOLD) && !(feat & ZF2FS_FEAT_CASEFOLD)) {
		/* Linux refuses a casefolded volume whose encoding it does not know */
		if (!ctx->tune_encoding) {
			fprintf(stderr, "fsck.f2fs: the casefold feature needs an encoding: add "
				"-C utf8\n");
			return FSCK_USAGE;
		}
		feat |= ZF2FS_FEAT_CASEFOLD;
		zf2fs_set(sb.s_encoding, ctx->tune_encoding);
		flags = ctx->tune_encoding_flags;
		did[ndid++] = "the casefold feature switched on (utf8)";
	}
	if (ctx->linear_lookup >= 0) {
		uint16_t want = ctx->linear_lookup ? flags | ZF2FS_ENC_HASHONLY :
				flags & ~ZF2FS_ENC_HASHONLY;

		if (!(feat & ZF2FS_FEAT_CASEFOLD)) {
			/* refused, but in a boot-time check (options.c) */
			if (ctx->linear_lookup_refuse) {
				fprintf(stderr, "fsck.f2fs: --nolinear-lookup needs the casefold "
					"feature, which this volume does not have\n");
				return FSCK_USAGE;
			}
			fprintf(ctx->out, "fsck.f2fs: no casefold feature: --nolinear-lookup "
				"changes nothing\n");
		} else if (want != flags)
			did[ndid++] = ctx->linear_lookup ? "linear lookup disabled (hashonly)" :
				      "linear lookup enabled";
		flags = want;
	}
	if (!ndid)
		return 0;
	zf2fs_set(sb.feature, feat);
	zf2fs_set(sb.s_encoding_flags, flags);
	if (ctx->no_writes) {
		for (int i = 0; i < ndid; i++)
			fprintf(ctx->out, "fsck.f2fs: superblock: %s: not written (dry run)\n",
				did[i]);
		return 0;
	}
	err = zf2fs_vol_write_super(ctx->vol, &sb, why, sizeof(why));
	if (err) {
		fprintf(stderr, "fsck.f2fs: %s: the superblock is as it was\n",
			why[0] ? why : strerror(-err));
		return FSCK_ERROR;
	}
	for (int i = 0; i < ndid; i++)
		fprintf(ctx->out, "fsck.f2fs: superblock: %s\n", did[i]);
	return 0;
}
