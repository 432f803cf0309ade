// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkfs_write_v10.c - mkfs's entry for libzf2fs1 0.3.0's programs (zf2fs_mkfs_write@ZF2FS_1.0),
 * which pass 0.3.0's struct zf2fs_layout and struct zf2fs_mkfs_opts
 * (lib/format/abi_v10_p.h): a volume of 4 KiB blocks, as 0.3.0 wrote it.
 */
#include "config.h"

#include "zf2fs/zf2fs.h"
#include "format/abi_v10_p.h"

int zf2fs_mkfs_write_v10(struct zf2fs_dev **devs, const struct zf2fs_layout_v10 *old_lay,
			 const struct zf2fs_mkfs_opts_v10 *old_opts, const struct zf2fs_log *log);

ZF2FS_EXPORT_V10(zf2fs_mkfs_write)
int zf2fs_mkfs_write_v10(struct zf2fs_dev **devs, const struct zf2fs_layout_v10 *old_lay,
			 const struct zf2fs_mkfs_opts_v10 *old_opts, const struct zf2fs_log *log)
{
	struct zf2fs_mkfs_opts o;
	struct zf2fs_layout lay;

	zf2fs_layout_from_v10(&lay, old_lay);
	zf2fs_mkfs_opts_from_v10(&o, old_opts);
	return zf2fs_mkfs_write(devs, &lay, &o, log);
}
