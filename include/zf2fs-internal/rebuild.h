/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zf2fs-internal/rebuild.h - a volume's NAT, SIT, summaries and checkpoint rebuilt from the
 * node blocks found on its main area (lib/write/rebuild.c), for fsck.f2fs --rebuild.
 *
 * Not installed, no ABI promise: exported in the version node ZF2FS_PRIVATE.
 */
#ifndef ZF2FS_INTERNAL_REBUILD_H
#define ZF2FS_INTERNAL_REBUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

/* What the rebuild found and kept.  Node counts are of blocks whose footer can be a
 * node's (zf2fs_vol_scan_nodes). */
struct zf2fs_rebuild_report {
	uint64_t candidates;       /* blocks that look like nodes */
	uint64_t damaged_inodes;   /* inodes kept with a wrong checksum (no good copy), or
				    * passed over for an impossible layout */
	uint64_t older_copies;     /* copies of a nid that a newer copy replaces */
	uint64_t off_sit;          /* candidates in blocks the checkpoint's SIT calls free */
	uint64_t unlinked;         /* newest inodes with no link left (deleted) */
	uint64_t stale_inodes;     /* inodes left out: a newer file holds one of their blocks */
	uint64_t unreached;        /* newest non-inode nodes no kept inode points to */
	uint64_t missing_nodes;    /* nodes kept inodes point to that were not found */
	uint64_t bad_pointers;     /* block addresses outside the main area */
	uint64_t inodes, nodes, data_blocks;   /* kept: inodes, all nodes, data blocks */
	uint64_t reserved_blocks;  /* their slots allocated but not written (NEW_ADDR) */
	uint64_t segments_used;
	bool had_checkpoint;       /* a checkpoint pack was usable */
	bool sit_used;             /* its SIT agreed with it and chose between copies */
	unsigned pack;             /* the pack written (0 or 1) */
	bool written;              /* it is complete: the volume is the rebuilt one */
	uint64_t cp_ver;           /* its version */
};

#define ZF2FS_REBUILD_DRY_RUN 0x1   /* find and count, write nothing */

/*
 * Scan @vol's main area for node blocks (opened for writing, with ZF2FS_VOL_NO_CHECKPOINT
 * when no checkpoint is usable), keep the newest copy of each nid, the inodes that still
 * have links and the nodes and data blocks their trees reach, and write from them a new
 * NAT and SIT (in the copies the current checkpoint, if any, does not use), every summary
 * block, and a checkpoint one version above any seen, in the pack not in use, last.  The
 * main area is not written: nothing found is overwritten, and an interruption before the
 * checkpoint's last block leaves the volume as it was.  The result is consistent in its
 * tables; names, links and quotas are for a full check to mend (fsck.f2fs).
 * 0; -ENOSPC when no six free sections are left for the logs; -ENOMEM; I/O errors.
 */
ZF2FS_EXPORT int zf2fs_vol_rebuild(struct zf2fs_vol *vol, unsigned flags,
				   struct zf2fs_rebuild_report *rep);

/* A superblock made again for a volume whose two copies are gone (lib/write/super_find.c):
 * what it rests on. */
struct zf2fs_super_found {
	struct zf2fs_super sb;       /* to write (zf2fs_super_found_write) */
	struct zf2fs_layout lay;     /* mkfs.f2fs's layout for the device */
	uint64_t nodes;              /* blocks of the main area that look like nodes */
	uint64_t inodes;             /* inodes among them */
	uint64_t seed_inodes;        /* inodes with room for a checksum */
	uint64_t seed_votes;         /* of those, the ones giving the seed chosen */
	uint64_t below_main;         /* node blocks of this volume before the main area */
	uint64_t low_pointers;       /* inode block addresses before the main area */
	uint64_t jumps, jumps_aligned;   /* node logs' jumps, and those to a segment's start */
	uint64_t blocks16k;          /* node-like blocks that end a 16 KiB block */
	uint32_t features;           /* found in the inodes (and blkzoned from the device) */
	uint32_t qf_ino[3];          /* quota files found, 0 none */
	int cp_pack;                 /* a checkpoint pack valid at the layout's place and
				      * fitting it (the rebuild may use it), or -1 */
	bool cp_foreign;             /* one there checks but was written for another layout */
	bool seed_found;             /* the inode checksums agree on a seed: the UUID gives it */
	char why[256];               /* why no superblock is made */
};

/*
 * Find again the superblock of the volume on @dev, whose two copies are gone: the areas
 * where mkfs.f2fs puts them for @dev with its defaults, taken only when the node blocks
 * agree with them; the features from the inodes; a UUID that gives the checksum seed the
 * inode checksums imply (so that no inode needs rewriting); the rest mkfs's defaults.
 * @version goes in the version fields.  Reads only.  0; -ZF2FS_EFSCORRUPTED with
 * @f->why when the blocks do not fit any superblock made so; -ENOMEM; I/O errors.
 */
ZF2FS_EXPORT int zf2fs_super_find(struct zf2fs_dev *dev, const char *version,
				  struct zf2fs_super_found *f);
/* Write @f's superblock to both places on @dev (the bytes around it kept), the second copy
 * first, each synced; when no checkpoint pack fits the layout (@f->cp_pack -1), its
 * checkpoint area is zeroed before, so that the rebuild that follows, or a second one
 * after an interruption, takes none. */
ZF2FS_EXPORT int zf2fs_super_found_write(struct zf2fs_dev *dev,
					const struct zf2fs_super_found *f);

#endif /* ZF2FS_INTERNAL_REBUILD_H */
