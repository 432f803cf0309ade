/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zf2fs-internal/device.h - devices: what mkfs probes for before it writes (lib/device/).
 *
 * For zf2fs-tools' own programs (fsck, the tools, the tests): not installed, and no ABI
 * promise.  The functions are exported from libzf2fs.so in the version node ZF2FS_PRIVATE
 * of lib/libzf2fs.sym; the installed API is include/zf2fs/.
 */
#ifndef ZF2FS_INTERNAL_DEVICE_H
#define ZF2FS_INTERNAL_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

/* Probe @dev for an existing filesystem or partition table with libblkid.  Returns 1 and
 * its type in @type (e.g. "ext4", "f2fs", "dos"), 0 when none, negative errno. */
ZF2FS_EXPORT int zf2fs_dev_probe_existing(struct zf2fs_dev *dev, char *type, size_t typelen);

/* Tell the kernel that bytes [@off, @off + @len) of @dev will be read soon, so that it
 * starts reading them now (POSIX_FADV_WILLNEED); nothing for a memory device.  Library
 * only (not exported).  Returns 0 or a negative errno, which callers may ignore: it only
 * changes how fast later reads are. */
int zf2fs_dev_willneed(struct zf2fs_dev *dev, uint64_t off, uint64_t len);
/* Read @len bytes at @off for a reader running on another thread ahead of the program's
 * own reads (fsck's read-ahead): touches no state of @dev but its file descriptor, logs
 * nothing, and is traced with an "ra" mark (ZF2FS_TRACE_READS).  -EOPNOTSUPP for a memory
 * device, -ERANGE past its end, -EACCES outside a test's allowed range. */
int zf2fs_dev_read_ahead(struct zf2fs_dev *dev, void *buf, size_t len, uint64_t off);

/* zf2fs_dev_read that logs nothing when it fails (a caller that reads early, and whose
 * reader reads the block again and reports what it cannot read): -ERANGE past the end,
 * -EACCES outside a test's allowed range, or the read's error.  Traced as a read. */
int zf2fs_dev_read_quiet(struct zf2fs_dev *dev, void *buf, size_t len, uint64_t off);

#endif /* ZF2FS_INTERNAL_DEVICE_H */
