/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * md_image.h - the metadata image file that f2fs_metadump writes and f2fs_mdrestore reads.
 *
 * A header names the source volume (block size, devices with their place in the volume's
 * block addresses, sizes, zone geometry, uuid) and what was changed (names scrambled,
 * file data left out); then records, each a run of volume blocks (compressed with zstd
 * when this build has it, or stored), a run of blocks read as zeros, a run that could
 * not be read, or the end.  Every
 * record carries a CRC32 of its payload, so a truncated or damaged image is refused
 * instead of restored wrong.  Blocks in no record were not copied (file data, free
 * space).  All numbers are little-endian.
 */
#ifndef MD_IMAGE_H
#define MD_IMAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "zf2fs/format.h"

#define MD_MAGIC         "ZF2FSMDI"
#define MD_VERSION       1
#define MD_HEADER_BYTES  4096u
#define MD_RUN_MAX       256u      /* blocks in one record */

/* header flags */
#define MD_NAMES_SCRAMBLED   0x1u  /* names, symlink targets, user xattrs replaced */
#define MD_DATA_LEFT_OUT     0x2u  /* regular files' blocks (and inline data) are zeros */
#define MD_NODES_SCANNED     0x4u  /* no usable checkpoint: the node blocks are every block
				    * of the main area whose footer can be a node's */

/* record types */
#define MD_REC_BLOCKS      1u
#define MD_REC_UNREADABLE  2u      /* no payload: the source could not read these */
#define MD_REC_END         3u      /* no payload: @start holds the count of blocks stored */
#define MD_REC_ZEROS       4u      /* no payload: blocks read and found all zeros */

#define MD_COMP_NONE 0u
#define MD_COMP_ZSTD 1u

struct md_dev {
	uint64_t first_block;      /* its first block in the volume's addresses */
	uint64_t blocks;           /* blocks of the volume on it */
	uint64_t bytes;            /* the device's size */
	uint32_t zoned;            /* enum zf2fs_zone_model: 0 none, 1 host-aware, 2 host-managed */
	uint32_t zone_blocks;      /* zoned: zone size in blocks */
	uint32_t zone_cap_blocks;  /* zoned: writable blocks of a sequential zone */
	uint32_t conv_zones;       /* zoned: conventional zones at the start */
	char path[ZF2FS_DEVICE_PATH_LEN + 1];
};

struct md_header {
	uint32_t version, flags, log_blocksize, ndevs;
	uint64_t volume_blocks, created;
	uint8_t uuid[16];
	struct md_dev dev[ZF2FS_MAX_DEVICES];
	char source[256];
};

struct md_writer;
int md_writer_open(FILE *out, const struct md_header *h, struct md_writer **ret);
/* Block @addr, @bs bytes; adjacent calls of ascending addresses share a record. */
int md_writer_block(struct md_writer *w, uint64_t addr, const void *blk);
int md_writer_unreadable(struct md_writer *w, uint64_t addr, uint32_t count);
/* Flush, write the end record; returns 0 or a negative errno.  Frees @w either way. */
int md_writer_close(struct md_writer *w, uint64_t *ret_stored, uint64_t *ret_bytes);

struct md_reader;
/* Reads and checks the header; @why gets the reason of a refusal. */
int md_reader_open(FILE *in, struct md_reader **ret, char *why, size_t whylen);
const struct md_header *md_reader_header(const struct md_reader *r);
/* The next record: 1 with @ret_type, @ret_start, @ret_count and (for blocks) *@ret_data
 * (valid until the next call); 0 at the end record; a negative errno with @why. */
int md_reader_next(struct md_reader *r, uint32_t *ret_type, uint64_t *ret_start,
		   uint32_t *ret_count, const uint8_t **ret_data, char *why, size_t whylen);
void md_reader_close(struct md_reader *r);

bool md_have_zstd(void);

#endif
