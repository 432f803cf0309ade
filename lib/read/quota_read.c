// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * quota_read.c - read a quota file off a volume and parse it (fsck's pass 9, dump --quota).
 *
 * The file is read through its block tree like any regular file, bounded first by
 * ZF2FS_QUOTA_FILE_MAX: a hostile i_size never turns into a huge allocation.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/file.h"
#include "zf2fs/quota.h"
#include "zf2fs-internal/quota.h"
#include "format/why_p.h"

ZF2FS_EXPORT int zf2fs_quota_load(struct zf2fs_vol *vol, uint32_t ino, int type,
				  struct zf2fs_quota_file *ret, char *why, size_t whylen)
{
	struct zf2fs_node *inode = malloc(ZF2FS_BLKSIZE_MAX);
	uint8_t *data = NULL;
	size_t len;
	uint64_t size;
	int err;

	memset(ret, 0, sizeof(*ret));
	if (!inode)
		return -ENOMEM;
	err = zf2fs_inode_read(vol, ino, inode, NULL, why, whylen);
	if (err)
		goto out;
	if (zf2fs_inode_type(&inode->i) != ZF2FS_S_IFREG) {
		err = zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "inode %" PRIu32
				    " is not a regular file", ino);
		goto out;
	}
	size = zf2fs_get(inode->i.i_size);
	if (size > ZF2FS_QUOTA_FILE_MAX) {
		err = zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "i_size %" PRIu64
				    " is more than a quota file needs", size);
		goto out;
	}
	data = malloc((size_t)size + 1);
	if (!data) {
		err = -ENOMEM;
		goto out;
	}
	err = zf2fs_file_read_buf(vol, inode, data, (size_t)size, &len, why, whylen);
	if (!err)
		err = zf2fs_quota_parse(data, len, type, ret, why, whylen);
out:
	free(data);
	free(inode);
	return err;
}
