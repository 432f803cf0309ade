// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * super_write.c - rewrite the superblock of an open volume so that a valid copy exists
 * at every moment.
 *
 * The two copies sit at byte 1024 of blocks 0 and 1 (of the volume's block size: the
 * second at 4096 + 1024 or 16384 + 1024).  The copy not in use is written
 * first and synced; only then the one in use, and a sync again.  An interruption leaves
 * at least one complete copy, old or new: the kernel and both fscks take whichever copy
 * checks (fs/f2fs/super.c, read_raw_super_block).  The bytes around each copy (the boot
 * area before it) are kept.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"
#include "zf2fs-internal/commit.h"
#include "zf2fs-internal/volume.h"
#include "format/super_p.h"
#include "device/device_p.h"
#include "read/volume_p.h"
#include "format/why_p.h"

static int write_copy(struct zf2fs_vol *vol, unsigned copy, const struct zf2fs_super *sb,
		      uint8_t *blk)
{
	int err = zf2fs_vol_read_block(vol, copy, blk);

	if (err)
		return err;
	memcpy(blk + ZF2FS_SUPER_OFFSET, sb, sizeof(*sb));
	err = zf2fs_vol_write_block(vol, copy, blk);
	if (!err)
		err = zf2fs_dev_sync(vol->dev[0]);
	return err;
}

ZF2FS_EXPORT int zf2fs_vol_write_super(struct zf2fs_vol *vol, const struct zf2fs_super *new_sb,
				       char *why, size_t whylen)
{
	struct zf2fs_super sb = *new_sb;
	const struct zf2fs_geom *g = zf2fs_vol_geom(vol);
	uint64_t dev_blocks = zf2fs_dev_size(vol->dev[0]) >> g->log_blocksize;
	uint8_t *blk;
	int err;

	if (zf2fs_get(sb.feature) & ZF2FS_FEAT_SB_CHKSUM)
		zf2fs_set(sb.crc, zf2fs_super_checksum(&sb));
	/* nothing is written that the kernel would refuse */
	err = zf2fs_super_verify(&sb, vol->ndevs == 1 ? dev_blocks : 0, why, whylen);
	if (err)
		return err;
	blk = malloc(g->blocksize);
	if (!blk)
		return -ENOMEM;
	err = write_copy(vol, vol->sb_copy ? 0 : 1, &sb, blk);
	if (!err)
		err = write_copy(vol, vol->sb_copy ? 1 : 0, &sb, blk);
	free(blk);
	if (err)
		return zf2fs_set_why(why, whylen, err, "%s: while writing the superblock",
				     strerror(-err));
	vol->sb = sb;
	return 0;
}

ZF2FS_EXPORT int zf2fs_vol_set_label(struct zf2fs_vol *vol, const char *label, char *why,
				     size_t whylen)
{
	struct zf2fs_super sb = vol->sb;
	int err = zf2fs_label_from_utf8(label, sb.volume_name, why, whylen);

	if (err)
		return err;
	return zf2fs_vol_write_super(vol, &sb, why, whylen);
}
