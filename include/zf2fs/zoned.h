/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zoned.h - zones of zoned block devices and of the F2FS volumes on them.
 *
 * Device level: a zone report (start, length, capacity, write pointer, type, condition)
 * and the zone operations a checker needs (reset, finish).  Volume level: where each
 * device sits in the volume's block addresses, and one record per main-area section
 * that says which zone holds it and where that zone's write pointer is.
 *
 * Zone access goes through libzbd.  A build without it returns -ENOTSUP from every call
 * that needs a device's zones (and logs one line saying so); zf2fs_have_zoned_support()
 * tells in advance.  Same conventions as zf2fs.h: 0 or a negative errno, ret_* outputs.
 */
#ifndef ZF2FS_ZONED_H
#define ZF2FS_ZONED_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zone types and conditions, numbered as the Linux zoned block interface numbers them. */
enum zf2fs_zone_type {
	ZF2FS_ZONE_NONE = 0,          /* not on a zoned device (volume records only) */
	ZF2FS_ZONE_CONV = 1,          /* conventional: no write pointer */
	ZF2FS_ZONE_SEQ_REQ = 2,       /* sequential write required */
	ZF2FS_ZONE_SEQ_PREF = 3,      /* sequential write preferred (host-aware) */
};

enum zf2fs_zone_cond {
	ZF2FS_ZONE_NOT_WP = 0x0,
	ZF2FS_ZONE_EMPTY = 0x1,
	ZF2FS_ZONE_IMP_OPEN = 0x2,
	ZF2FS_ZONE_EXP_OPEN = 0x3,
	ZF2FS_ZONE_CLOSED = 0x4,
	ZF2FS_ZONE_READONLY = 0xd,
	ZF2FS_ZONE_FULL = 0xe,
	ZF2FS_ZONE_OFFLINE = 0xf,
};

/* One zone of a device; positions and sizes in bytes from the device's start. */
struct zf2fs_zone {
	uint64_t start, len, capacity, wp;
	enum zf2fs_zone_type type;
	enum zf2fs_zone_cond cond;
};

/* "conventional", "seq-required", "seq-preferred" or "none"; never NULL. */
ZF2FS_EXPORT const char *zf2fs_zone_type_name(enum zf2fs_zone_type type);
/* "not-wp", "empty", "implicit-open", "explicit-open", "closed", "read-only", "full",
 * "offline" or "unknown"; never NULL. */
ZF2FS_EXPORT const char *zf2fs_zone_cond_name(enum zf2fs_zone_cond cond);

/*
 * Report the zones of @dev that intersect [@ofs, @ofs + @len) (bytes; @len 0 = to the
 * end).  @ret_zones is allocated (caller frees) and holds @ret_nr zones in address order.
 * Returns 0; -ENOTSUP without libzbd; -ENOTBLK when @dev is not a zoned block device
 * (a regular file, a memory device, a block device without zones; the zoned devices tests
 * emulate in memory report their zones, and reset them, without libzbd); -ENOMEM; other
 * negative errnos from opening the device or from the report ioctl.
 */
ZF2FS_EXPORT int zf2fs_dev_report_zones(struct zf2fs_dev *dev, uint64_t ofs, uint64_t len,
					struct zf2fs_zone **ret_zones, unsigned int *ret_nr);

/*
 * Reset the write pointers of the zones in [@ofs, @ofs + @len) (bytes, zone aligned):
 * their contents are gone.  The device must have been opened for writing.  Returns 0;
 * -EBADF when @dev is read-only; -EINVAL for an unaligned range; -ENOTSUP without libzbd;
 * -ENOTBLK when @dev is not a zoned block device; errnos of the ioctl.
 */
ZF2FS_EXPORT int zf2fs_dev_reset_zone_range(struct zf2fs_dev *dev, uint64_t ofs, uint64_t len);

/*
 * Finish the zones in [@ofs, @ofs + @len): their write pointers move to the zone end and
 * they take no more writes until reset; nothing is written.  Same errors as
 * zf2fs_dev_reset_zone_range().
 */
ZF2FS_EXPORT int zf2fs_dev_finish_zone_range(struct zf2fs_dev *dev, uint64_t ofs,
					     uint64_t len);

/* ---- volumes ------------------------------------------------------------------------ */
/* Does the superblock carry the blkzoned feature (sections are zones)? */
ZF2FS_EXPORT bool zf2fs_vol_is_zoned(const struct zf2fs_vol *vol);

/*
 * The volume block addresses device @i covers: [@ret_first, @ret_last].  Device 0 starts
 * at address 0 and includes the metadata areas.  -EINVAL when @i is not a device of @vol.
 */
ZF2FS_EXPORT int zf2fs_vol_dev_range(const struct zf2fs_vol *vol, unsigned i,
				     uint64_t *ret_first, uint64_t *ret_last);

/*
 * Which device holds volume block @blkaddr, and the block's number on that device.
 * -ERANGE when no device covers it.
 */
ZF2FS_EXPORT int zf2fs_vol_block_to_dev(const struct zf2fs_vol *vol, uint64_t blkaddr,
					unsigned *ret_dev, uint64_t *ret_dev_blk);

/* One main-area section and the zone that holds it.  Offsets in 4 KiB blocks. */
struct zf2fs_sec_zone {
	uint32_t secno;              /* section number in the main area */
	unsigned dev;                /* device index in the volume */
	uint64_t blkaddr;            /* volume address of the section's first block */
	uint64_t zone_blkaddr;       /* volume address of the zone's first block */
	enum zf2fs_zone_type type;   /* ZF2FS_ZONE_NONE: the device has no zones */
	enum zf2fs_zone_cond cond;
	uint32_t zone_blocks;        /* zone length (0 without zones) */
	uint32_t cap_blocks;         /* writable blocks of the zone */
	uint32_t wp_blocks;          /* write pointer, blocks from the zone start; a full
				      * zone reports its capacity */
	bool wp_partial;             /* the write pointer is not on a 4 KiB boundary */
	/* from the SIT given to zf2fs_vol_zones(), else 0 and -1 */
	uint32_t valid_blocks;
	int64_t last_valid;          /* section offset of the last valid block, -1 if none */
};

/*
 * One record per main-area section (@ret_nr = main_secs), in section order, with the
 * zone holding the section's first block on each zoned block device of the volume;
 * sections on devices without zones get type ZF2FS_ZONE_NONE.  When @sit is not NULL
 * (main_segs entries, as zf2fs_vol_load_sit() returns them) the valid block counts and
 * last valid blocks are filled from it.  @ret is allocated; the caller frees it.
 * Returns 0; -ENODEV when no device of the volume is a zoned block device (an image file
 * copied from one, say: there are no write pointers to read); -ENOTSUP when a device is
 * zoned but this build has no libzbd (logged); -ENOMEM; errnos of the zone report.
 */
ZF2FS_EXPORT int zf2fs_vol_zones(struct zf2fs_vol *vol, const struct zf2fs_sit_entry *sit,
				 struct zf2fs_sec_zone **ret, uint32_t *ret_nr);

/*
 * Reset or finish the zone of section record @z (from zf2fs_vol_zones()).  The volume's
 * device must be open for writing.  -EINVAL when the record is not a sequential zone;
 * otherwise the errors of zf2fs_dev_reset_zone_range() / zf2fs_dev_finish_zone_range().
 */
ZF2FS_EXPORT int zf2fs_vol_reset_zone(struct zf2fs_vol *vol, const struct zf2fs_sec_zone *z);
ZF2FS_EXPORT int zf2fs_vol_finish_zone(struct zf2fs_vol *vol, const struct zf2fs_sec_zone *z);

/*
 * Blocks of each main-area section beyond its zone's capacity, as Linux 6.1 takes them:
 * zone size minus zone capacity of the sequential zones of the volume's zoned devices
 * (which must all agree: the kernel refuses to mount otherwise), applied to every
 * section of the main area, those on conventional zones and regular devices included.
 * 0 when the capacity equals the zone size.  Returns 0; -ENODEV when no device of the
 * volume reports zones (an image file copied from a zoned device: the capacity is not
 * recorded on disk); -ENOTSUP without libzbd; -EINVAL when the zones disagree or a
 * section is not one zone; -ENOMEM; errnos of the zone report.
 */
ZF2FS_EXPORT int zf2fs_vol_zone_unusable(struct zf2fs_vol *vol, uint32_t *ret_blocks);

/* Usable blocks of main-area segment @segno when @unusable_per_sec blocks of each section
 * lie beyond the zone capacity (the kernel's f2fs_usable_blks_in_seg): a segment wholly
 * beyond it has none, the one across it has the part below. */
ZF2FS_EXPORT uint32_t zf2fs_seg_usable_blocks(const struct zf2fs_vol_info *vi,
					      uint32_t unusable_per_sec, uint32_t segno);

/* Free segments of a checkpoint as Linux 6.1 counts them at mount (init_free_segmap):
 * each main-area segment that holds no valid blocks (@empty(@arg, segno)), that no log
 * of @log_segs is in (whether or not its section is free) and that has blocks below its
 * zone's capacity (@unusable_per_sec as for zf2fs_seg_usable_blocks; 0 without zones). */
ZF2FS_EXPORT uint32_t zf2fs_free_segs(const struct zf2fs_vol_info *vi, uint32_t unusable_per_sec,
				       const uint32_t log_segs[ZF2FS_NR_CURSEG],
				       bool (*empty)(void *arg, uint32_t segno), void *arg);

/* Block @blkoff of main-area segment @segno counted from the start of its section (of
 * @segs_per_sec segments, 0 taken as 1): the number a zone's write pointer is compared
 * with. */
ZF2FS_EXPORT uint64_t zf2fs_sec_blk_pos(uint32_t segs_per_sec, uint32_t segno, uint32_t blkoff);

/* A short state word for a section record: "conventional", "empty", "open", "closed",
 * "full", "read-only", "offline" or "regular" (no zones); never NULL. */
ZF2FS_EXPORT const char *zf2fs_sec_zone_state(const struct zf2fs_sec_zone *z);

#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_ZONED_H */
