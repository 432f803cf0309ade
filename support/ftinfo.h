/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftinfo.h - the "Info:" lines f2fs-tools' dump.f2fs and f2fslabel print when they open a
 * volume, and the superblock and checkpoint tables its dump.f2fs -d 1 adds.  Programs
 * parse them (libblockdev: "Info: total FS sectors", "Info: superblock features";
 * GParted: "user_block_count [0x ... : N]"), so their text is f2fs-tools' own.
 */
#ifndef ZS_FTINFO_H
#define ZS_FTINFO_H

#include <stdio.h>
#include <time.h>

#include "zf2fs/zf2fs.h"

/* The lines printed before any work: versions, superblock features and encryption, and the
 * geometry; with @level >= 1 also the superblock table.  Ends after "Info: CKPT version". */
void zs_ftinfo_open_lines(FILE *f, const struct zf2fs_vol *vol, int level);
/* With @level >= 1 the checkpoint table; then the "Info: checkpoint state" line. */
void zs_ftinfo_cp_lines(FILE *f, const struct zf2fs_vol *vol, int level);

/* fsck.f2fs -l: the same superblock and checkpoint fields as the -d 1 tables, as plain
 * "name: decimal" rows without banners. */
void zs_ftinfo_layout(FILE *f, const struct zf2fs_super *sb, const struct zf2fs_checkpoint *cp);

/* The last line, "Done: <seconds since @start> secs" after an empty line. */
void zs_ftinfo_start(struct timespec *start);
void zs_ftinfo_done(FILE *f, const struct timespec *start);

#endif
