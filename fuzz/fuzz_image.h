/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_image.h - the compact input every fuzz target takes, and how it becomes an image.
 *
 * A whole image (48 MiB at least for our mkfs) is far too big for libFuzzer, and almost all
 * of it is zeros.  So an input is a sparse description of one:
 *
 *   le16  image size in MiB (clamped to 1..FUZZ_MAX_MIB)
 *   then records, until the input ends:
 *     le32  block number (taken modulo the image's blocks)
 *     le16  length (at most 4096; cut to what the input still holds)
 *     bytes the start of that 4 KiB block (the rest stays zero)
 *
 * fuzz/fuzzimg.py converts images to inputs (seeds) and inputs back to images (crashes).
 */
#ifndef ZF2FS_FUZZ_IMAGE_H
#define ZF2FS_FUZZ_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"
#include "helper.h"

#define FUZZ_MAX_MIB 128u

/* A memory device holding the image (caller closes it). */
int fuzz_image_memdev(const uint8_t *data, size_t size, struct zf2fs_dev **ret_dev);
/* The image written to a file under /dev/shm (or $TMPDIR): its path, reused by every call
 * in this process. */
const char *fuzz_image_file(const uint8_t *data, size_t size);
/* stdout to /dev/null: the tools print a lot and that output is not what is tested. */
void fuzz_quiet_stdout(void);

#endif
