/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zf2fs.h - the libzf2fs API: checksums, layout maths, device access and mkfs.
 *
 * Conventions: every function that can fail returns 0 or a negative errno; corruption is
 * -ZF2FS_EFSCORRUPTED.  Out-parameters are named ret_*.  Nothing here keeps global mutable
 * state: logging goes through the struct zf2fs_log the caller passes.
 */
#ifndef ZF2FS_H
#define ZF2FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "zf2fs/format.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(ZF2FS_BUILDING_LIB)
#define ZF2FS_EXPORT __attribute__((visibility("default")))
#else
#define ZF2FS_EXPORT
#endif

/* The image is inconsistent (EUCLEAN, as the kernel uses it). */
#define ZF2FS_EFSCORRUPTED 117
/* The volume carries superblock bits this version does not write (EMEDIUMTYPE, which no
 * other path of the library returns): it is opened only for reading
 * (zf2fs_super_writable). */
#define ZF2FS_EUNWRITABLE 124
/* The volume's block size is one the caller did not say it handles (EPROTONOSUPPORT, which
 * no other path of the library returns): see ZF2FS_VOL_BLOCK16K. */
#define ZF2FS_EBLOCKSIZE 93

/* ---- logging ----------------------------------------------------------------------- */
/* Levels: 0 quiet, 1 default one-liners, 2 steps, 3 details, 4 debug.  Errors and
 * warnings are level 0 and always delivered. */
enum zf2fs_msg_kind { ZF2FS_MSG_ERROR, ZF2FS_MSG_WARNING, ZF2FS_MSG_INFO };
typedef void (*zf2fs_log_fn)(void *arg, enum zf2fs_msg_kind kind, const char *msg);

struct zf2fs_log {
	int level;
	zf2fs_log_fn fn;   /* NULL: errors and warnings to stderr, info to stdout */
	void *arg;
};

/* Emit a message if @level <= log->level (errors and warnings always).  @log may be NULL. */
ZF2FS_EXPORT void zf2fs_logf(const struct zf2fs_log *log, enum zf2fs_msg_kind kind, int level,
			     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ---- checksums and hashes ---------------------------------------------------------- */
/* Raw F2FS CRC-32: reflected 0xEDB88320, caller's seed, no final inversion. */
ZF2FS_EXPORT uint32_t zf2fs_crc32(uint32_t seed, const void *buf, size_t len);
/* Superblock crc (the field at offset 3068 when sb_checksum is enabled). */
ZF2FS_EXPORT uint32_t zf2fs_super_checksum(const struct zf2fs_super *sb);
/* Checkpoint block crc according to its checksum_offset; -ZF2FS_EFSCORRUPTED if that
 * offset is neither 4092 nor the large-NAT-bitmap position. */
ZF2FS_EXPORT int zf2fs_cp_checksum(const void *cp_block, uint32_t *ret_crc);
/* Roll-forward: would the kernel replay node block @n after checkpoint @cp (its footer
 * carries the checkpoint's version, with the crc when CRC recovery is on and NOCRC off)? */
ZF2FS_EXPORT bool zf2fs_cp_node_recoverable(const struct zf2fs_checkpoint *cp,
					    const struct zf2fs_node *n);
/* The same for a node block of @g's size (geometry.h) and @cp a checkpoint block of it. */
struct zf2fs_geom;
ZF2FS_EXPORT bool zf2fs_cp_node_recoverable2(const struct zf2fs_geom *g,
					     const struct zf2fs_checkpoint *cp, const void *node);
/* The block a roll-forward chain continues at, and the fsync mark, from a node footer. */
ZF2FS_EXPORT uint32_t zf2fs_node_next_blkaddr(const struct zf2fs_node *n);
ZF2FS_EXPORT bool zf2fs_node_fsync_marked(const struct zf2fs_node *n);
/* Seed for inode checksums, from the volume UUID. */
ZF2FS_EXPORT uint32_t zf2fs_checksum_seed(const uint8_t uuid[16]);
/* Inode checksum of a 4 KiB node block that holds an inode. */
ZF2FS_EXPORT uint32_t zf2fs_inode_checksum(uint32_t seed, const void *node_block);
/* Directory-entry hash of a name ("." and ".." give 0). */
ZF2FS_EXPORT uint32_t zf2fs_dentry_hash(const void *name, size_t len);

/* ---- device geometry and layout ---------------------------------------------------- */
enum zf2fs_zone_model { ZF2FS_ZONED_NONE = 0, ZF2FS_ZONED_HA, ZF2FS_ZONED_HM };

/* What the layout needs to know about one device. */
struct zf2fs_dev_geom {
	uint64_t bytes;               /* size used for the filesystem */
	uint32_t sector_size;         /* logical sector size, 512..4096 */
	uint64_t start_sector;        /* partition start in 512-byte units (alignment) */
	enum zf2fs_zone_model zone_model;
	uint64_t zone_bytes;          /* zoned: zone size */
	uint64_t zone_cap_bytes;      /* zoned: capacity of each sequential zone (<= size) */
	uint32_t nr_zones;            /* zoned: all zones */
	uint32_t nr_conv_zones;       /* zoned: conventional zones at the start */
};

struct zf2fs_layout_opts {
	uint32_t segs_per_sec;        /* -s, default 1 (zoned: from the zone size) */
	uint32_t secs_per_zone;       /* -z, default 1 */
	double overprovision;         /* -o percent; 0 = the ratio that leaves most space */
	uint32_t reserved_sections;   /* -Z; 0 = automatic */
	uint32_t features;            /* ZF2FS_FEAT_* */
	bool zoned;                   /* -m */
	bool large_nat_bitmap;        /* -i */
};

struct zf2fs_layout {
	/* superblock geometry */
	uint32_t log_sectorsize, log_sectors_per_block;
	uint32_t segs_per_sec, secs_per_zone, segs_per_zone;
	uint64_t block_count;
	uint32_t segment_count, segment_count_ckpt, segment_count_sit, segment_count_nat;
	uint32_t segment_count_ssa, segment_count_main, section_count;
	uint32_t segment0_blkaddr, cp_blkaddr, sit_blkaddr, nat_blkaddr, ssa_blkaddr;
	uint32_t main_blkaddr;
	uint32_t cp_payload;
	uint32_t sit_bitmap_bytes, nat_bitmap_bytes, nat_bits_blocks;
	/* devices */
	unsigned ndevs;
	uint32_t dev_segments[ZF2FS_MAX_DEVICES];
	uint64_t dev_start_blk[ZF2FS_MAX_DEVICES], dev_end_blk[ZF2FS_MAX_DEVICES];
	enum zf2fs_zone_model dev_model[ZF2FS_MAX_DEVICES];
	uint32_t dev_conv_zones[ZF2FS_MAX_DEVICES];
	/* zoned */
	bool zoned;
	uint32_t zone_blocks;         /* blocks per zone on the zoned devices */
	uint32_t zone_cap_blocks;
	uint32_t nr_zones;            /* zones on the zoned devices */
	/* space policy (f2fs-tools 1.16 rules) */
	uint32_t usable_segments;
	double overprovision;
	uint32_t rsvd_segments, ovp_segments, free_segments;
	uint64_t user_block_count;
	uint32_t reserved_sections;   /* as asked with -Z (after raising to the minimum) */
	/* where the six logs start (segment numbers relative to main) */
	uint32_t cur_seg[ZF2FS_NR_CURSEG];
	char note[200];               /* a message for the user, e.g. "-Z raised" */
};

/*
 * Compute a volume's layout from device geometry and options; pure (no I/O, no state).
 * Returns 0; -EINVAL for impossible options; -ENOSPC when the devices are too small.
 * @why (may be NULL) receives a one-line reason on failure.
 */
ZF2FS_EXPORT int zf2fs_layout_compute(const struct zf2fs_dev_geom *devs, unsigned ndevs,
				      const struct zf2fs_layout_opts *opts,
				      struct zf2fs_layout *ret_layout, char *why, size_t whylen);

/* Print the layout as one JSON object. */
ZF2FS_EXPORT void zf2fs_layout_print_json(FILE *out, const struct zf2fs_layout *lay);

/* ---- devices ------------------------------------------------------------------------- */
struct zf2fs_dev;

#define ZF2FS_DEV_WRITE  0x1   /* open for writing */
#define ZF2FS_DEV_EXCL   0x2   /* block devices: O_EXCL, fails if mounted or in use */
/* zf2fs_vol_open: open for writing even a volume zf2fs_super_writable refuses (only for a
 * tool that writes chosen bytes on purpose: inject.f2fs) */
#define ZF2FS_VOL_ANY_BITS 0x100
/* zf2fs_vol_open: the caller handles device_alias (an alias file owns its device's blocks
 * through its extent, with no block map and no summary entries), so that feature alone
 * does not refuse writing; every other bit zf2fs_super_writable refuses still does
 * (fsck.f2fs, f2fslabel) */
#define ZF2FS_VOL_DEVICE_ALIAS 0x200
/* zf2fs_vol_open: the caller reads blocks through the volume's geometry
 * (zf2fs_vol_geom), so a volume of 16 KiB blocks is opened; without it such a volume is
 * refused with -ZF2FS_EBLOCKSIZE */
#define ZF2FS_VOL_BLOCK16K 0x400

/* Open a regular file or block device.  -ENOENT etc. from open(2); the size of an empty or
 * unreadable device is an error (-EINVAL). */
ZF2FS_EXPORT int zf2fs_dev_open(const char *path, int flags, const struct zf2fs_log *log,
				struct zf2fs_dev **ret_dev);
ZF2FS_EXPORT void zf2fs_dev_close(struct zf2fs_dev *dev);
ZF2FS_EXPORT const char *zf2fs_dev_path(const struct zf2fs_dev *dev);
/* Geometry: size, sector size, zone model and zones (zones need libzbd: -ENOTSUP without). */
ZF2FS_EXPORT int zf2fs_dev_geometry(struct zf2fs_dev *dev, struct zf2fs_dev_geom *ret_geom);
/* Limit the size used (mkfs's [sectors] argument). */
ZF2FS_EXPORT int zf2fs_dev_set_size(struct zf2fs_dev *dev, uint64_t bytes);
/* Whole reads and writes; a short or failed one is an error naming device and offset.
 * Nothing is ever written past the device's end (-ENOSPC). */
ZF2FS_EXPORT int zf2fs_dev_read(struct zf2fs_dev *dev, void *buf, size_t len, uint64_t off);
ZF2FS_EXPORT int zf2fs_dev_write(struct zf2fs_dev *dev, const void *buf, size_t len,
				 uint64_t off);
/* Make a range read back as zeros (hole punching on files, BLKZEROOUT on devices). */
ZF2FS_EXPORT int zf2fs_dev_zero(struct zf2fs_dev *dev, uint64_t off, uint64_t len);
/* Discard a range (files: hole punching; devices: BLKDISCARD; failure is not fatal:
 * returns -EOPNOTSUPP when the device cannot). */
ZF2FS_EXPORT int zf2fs_dev_discard(struct zf2fs_dev *dev, uint64_t off, uint64_t len);
ZF2FS_EXPORT int zf2fs_dev_sync(struct zf2fs_dev *dev);

/* Is @path (or the device it names) mounted?  1 yes, 0 no, negative errno. */
ZF2FS_EXPORT int zf2fs_path_is_mounted(const char *path);
/* Whether this build can talk to zoned devices (libzbd). */
ZF2FS_EXPORT bool zf2fs_have_zoned_support(void);

/* ---- mkfs ---------------------------------------------------------------------------- */
struct zf2fs_mkfs_opts {
	struct zf2fs_layout_opts layout;
	const char *label;            /* UTF-8, at most 512 UTF-16 units; NULL = none */
	bool have_uuid;
	uint8_t uuid[16];
	const char *cold_extensions;  /* -e: comma separated, added to the default list */
	const char *hot_extensions;   /* -E */
	uint32_t root_uid, root_gid;  /* -R */
	uint64_t timestamp;           /* seconds for inode times */
	uint16_t s_encoding, s_encoding_flags;  /* casefold: 1 = utf8-12.1 */
	bool discard;                 /* -t 1 */
	bool fixed_cp_version;        /* -r: checkpoint version 1 rather than random */
	const char *version_string;   /* written in the superblock version fields */
	bool no_nat_bits;             /* leave the nat_bits out of the checkpoint packs */
	uint64_t cp_version;          /* seed of the checkpoint version (made odd and below
				       * 2^31); 0 = random, or 1 with fixed_cp_version */
};

/* Write a new filesystem with layout @lay over @devs (ndevs = lay->ndevs).  Checks nothing
 * about mounts or existing data: the caller does that first. */
ZF2FS_EXPORT int zf2fs_mkfs_write(struct zf2fs_dev **devs, const struct zf2fs_layout *lay,
				  const struct zf2fs_mkfs_opts *opts,
				  const struct zf2fs_log *log);

/* Parse a comma separated feature list ("extra_attr,inode_checksum") into ZF2FS_FEAT_*
 * bits.  Returns 0 or -EINVAL with the unknown name copied to @bad. */
ZF2FS_EXPORT int zf2fs_features_parse(const char *list, uint32_t *ret_features, char *bad,
				      size_t badlen);
/* Name of one checkpoint flag bit (ZF2FS_CP_*_FLAG: "umount", "nat_bits", ...), or NULL. */
ZF2FS_EXPORT const char *zf2fs_cp_flag_name(uint32_t flag);
/* Name of one feature bit, or NULL (every bit of ZF2FS_FEAT_KNOWN has one). */
ZF2FS_EXPORT const char *zf2fs_feature_name(uint32_t bit);
/* Name of one s_encoding_flags bit ("strict", "hashonly"), or NULL. */
ZF2FS_EXPORT const char *zf2fs_encoding_flag_name(uint32_t flag);
/* Name of one s_stop_reason slot (enum zf2fs_stop_reason: "no free segment", ...), or NULL
 * past the slots Linux names. */
ZF2FS_EXPORT const char *zf2fs_stop_reason_name(unsigned slot);
/* Name of one i_flags bit ("immutable", "casefold", "device_alias", ...), or NULL. */
ZF2FS_EXPORT const char *zf2fs_inode_flag_name(uint32_t flag);
/* Check feature dependencies and support: 0, or -EINVAL/-ENOTSUP with a reason. */
ZF2FS_EXPORT int zf2fs_features_check(uint32_t features, char *why, size_t whylen);
/* Whether this version may write a volume with this superblock: false, with the bits it
 * does not handle named in @why (may be NULL), when the superblock carries a feature bit or
 * casefolding flag the writers do not know.  zf2fs_vol_open refuses to open such a volume
 * for writing (-ZF2FS_EUNWRITABLE, one error logged). */
ZF2FS_EXPORT bool zf2fs_super_writable(const struct zf2fs_super *sb, char *why, size_t whylen);

/* ---- reading a volume ------------------------------------------------------------------ */
/* Check a superblock as the kernel does at mount (@dev_blocks: device size in blocks, 0 if
 * unknown).  0 or -ZF2FS_EFSCORRUPTED with "corrupt superblock: <field>, <reason>". */

struct zf2fs_vol;

/* Derived geometry of an open volume. */
struct zf2fs_vol_info {
	uint32_t blocks_per_seg, segs_per_sec, secs_per_zone;
	uint32_t main_blkaddr, main_segs, main_secs;
	uint32_t sit_blkaddr, sit_blocks;       /* blocks in one SIT copy */
	uint32_t nat_blkaddr, nat_blocks;       /* blocks in one NAT copy */
	uint32_t ssa_blkaddr;
	uint32_t max_nid;                       /* nids are below this */
	uint64_t block_count;
	uint64_t main_end;                      /* first block after the main area */
	uint32_t features;
	uint32_t ckpt_flags;
	unsigned cp_pack;                       /* 0 or 1 */
	uint64_t cp_ver;
	int sb_copy;                            /* superblock copy in use: 0 or 1 */
};

/* Open the volume on @paths[0] (and the other devices; when @n is 1 and the superblock
 * lists several devices, their recorded paths are opened).  Picks a valid superblock copy
 * and the newest valid checkpoint pack and loads the current-segment summaries and
 * journals.  -ZF2FS_EFSCORRUPTED (message logged) when neither copy or pack is usable. */
ZF2FS_EXPORT int zf2fs_vol_open(const char *const *paths, unsigned n, int flags,
				const struct zf2fs_log *log, struct zf2fs_vol **ret_vol);
/* The same on devices the caller opened (they stay the caller's: close them after). */
ZF2FS_EXPORT int zf2fs_vol_open_devs(struct zf2fs_dev *const *devs, unsigned n,
				     const struct zf2fs_log *log, struct zf2fs_vol **ret_vol);
ZF2FS_EXPORT void zf2fs_vol_close(struct zf2fs_vol *vol);
ZF2FS_EXPORT const struct zf2fs_super *zf2fs_vol_super(const struct zf2fs_vol *vol);
/* The checkpoint in use (its first block; the SIT bitmap may continue into cp_payload). */
ZF2FS_EXPORT const struct zf2fs_checkpoint *zf2fs_vol_checkpoint(const struct zf2fs_vol *vol);
/* Every number the volume's block size decides (geometry.h). */
struct zf2fs_geom;
ZF2FS_EXPORT const struct zf2fs_geom *zf2fs_vol_geom(const struct zf2fs_vol *vol);
ZF2FS_EXPORT const struct zf2fs_vol_info *zf2fs_vol_info(const struct zf2fs_vol *vol);
/* Why superblock copy / checkpoint pack @i was rejected ("" when it was fine). */
ZF2FS_EXPORT const char *zf2fs_vol_super_problem(const struct zf2fs_vol *vol, int i);
ZF2FS_EXPORT const char *zf2fs_vol_cp_problem(const struct zf2fs_vol *vol, int i);
/* Whether the volume may skip a full check at boot: the newest checkpoint was written at
 * unmount and carries no fsck, error or quota-needs-fsck flag, both superblock copies are
 * valid and the superblock records no stop reason or error.  Reads nothing. */
ZF2FS_EXPORT bool zf2fs_vol_clean(const struct zf2fs_vol *vol);
ZF2FS_EXPORT struct zf2fs_dev *zf2fs_vol_dev(const struct zf2fs_vol *vol, unsigned i);
ZF2FS_EXPORT unsigned zf2fs_vol_ndevs(const struct zf2fs_vol *vol);

/* One block by volume address, of the volume's block size (zf2fs_vol_geom: 4 KiB or
 * 16 KiB) (-ERANGE outside every device). */
ZF2FS_EXPORT int zf2fs_vol_read_block(struct zf2fs_vol *vol, uint64_t blkaddr, void *buf);
/* Consecutive blocks, possibly many (one device). */
ZF2FS_EXPORT int zf2fs_vol_read_blocks(struct zf2fs_vol *vol, uint64_t blkaddr, uint32_t count,
				       void *buf);

/* A NAT entry as the kernel sees it: the journal first, then the live NAT copy. */
struct zf2fs_nat_info {
	uint32_t ino, blkaddr;
	uint8_t version;
	bool in_journal;
};
/* -EINVAL for a nid beyond the NAT. */
ZF2FS_EXPORT int zf2fs_vol_nat_lookup(struct zf2fs_vol *vol, uint32_t nid,
				      struct zf2fs_nat_info *ret);


/* Every main-area segment's SIT entry, journal applied, read in large sequential chunks:
 * @ret_entries gets main_segs entries (caller frees).  */
ZF2FS_EXPORT int zf2fs_vol_load_sit(struct zf2fs_vol *vol, struct zf2fs_sit_entry **ret_entries);

/* Current segment of log @type (ZF2FS_LOG_*): segment number and next block offset. */
ZF2FS_EXPORT void zf2fs_vol_curseg(const struct zf2fs_vol *vol, int type, uint32_t *ret_segno,
				   uint32_t *ret_blkoff);
/* Whether the volume has a summary area (SSA).  A read-only volume (the ro feature) has
 * none: only its current logs' summaries exist, in the checkpoint.  Nothing may write an
 * SSA block on it (there the SSA's address is the main area's first block). */
ZF2FS_EXPORT bool zf2fs_vol_has_ssa(const struct zf2fs_vol *vol);
/* The summary of any main segment: for current segments the one from the checkpoint,
 * otherwise the one in the SSA.  It takes g->sum_blocksize bytes (zf2fs_vol_geom: 4 KiB,
 * or 16 KiB on a volume of 16 KiB blocks without packed_ssa), whose parts are reached
 * through zf2fs_sum_entries, zf2fs_sum_journal and zf2fs_sum_footer; the 4 KiB struct is
 * the view of a 4 KiB summary.  -ENODATA when the volume has no SSA
 * (zf2fs_vol_has_ssa) and the segment is no current log's, -EINVAL past the main area. */
ZF2FS_EXPORT int zf2fs_vol_segment_summary(struct zf2fs_vol *vol, uint32_t segno,
					   struct zf2fs_summary_block *ret);

/* ---- nodes, files and directories ------------------------------------------------------- */
/* Where an inode keeps its addresses, given its flags and the volume's features. */
struct zf2fs_inode_geom {
	uint32_t extra_words;       /* i_addr slots taken by extra attributes */
	uint32_t xattr_words;       /* slots of inline xattrs at the end of i_addr */
	uint32_t addrs;             /* data block addresses in the inode */
	uint32_t addrs_per_block;   /* data block addresses in a direct node */
	uint32_t inline_bytes;      /* room for inline data or dentries */
	bool compressed;
	uint32_t cluster_blocks;    /* compressed files */
};

/* -ZF2FS_EFSCORRUPTED when i_extra_isize or i_inline_xattr_size cannot be right. */
ZF2FS_EXPORT int zf2fs_inode_geometry(const struct zf2fs_inode *in, uint32_t features,
				      struct zf2fs_inode_geom *ret);
/* The same for an inode in a node block of @g's size (zf2fs_vol_geom); the one above is
 * this with zf2fs_geom_4k(). */
ZF2FS_EXPORT int zf2fs_inode_geometry2(const struct zf2fs_geom *g, const struct zf2fs_inode *in,
				       uint32_t features, struct zf2fs_inode_geom *ret);


/*
 * The value of inode @inode's xattr of name index @index (the kernel's F2FS_XATTR_INDEX_*)
 * and name @name, read from the inline xattr area and the xattr node as one list: up to
 * @cap bytes into @buf, its whole length in *@ret_len.  Returns 0; -ENODATA when the inode
 * has no such xattr (or no xattr list); -ZF2FS_EFSCORRUPTED when an entry before it runs
 * past the list's end; an error from reading the xattr node; -ENOMEM.
 */
ZF2FS_EXPORT int zf2fs_vol_get_xattr(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				     uint8_t index, const char *name, void *buf, size_t cap,
				     size_t *ret_len);



/* Read node @nid through the NAT; checks that its address is in the main area and its
 * footer names it.  -ZF2FS_EFSCORRUPTED (with @why) otherwise; -ENOENT if unallocated. */
ZF2FS_EXPORT int zf2fs_vol_read_node(struct zf2fs_vol *vol, uint32_t nid, void *buf,
				     uint32_t *ret_blkaddr, char *why, size_t whylen);


struct zf2fs_walk_ops {
	/* Each node of the tree below the inode, after it was read and its footer checked:
	 * @ofs is the offset its footer must carry (@node is a block of the volume's size:
	 * its footer through zf2fs_node_footer).  Return nonzero to stop the walk (that
	 * value is returned), or ZF2FS_WALK_SKIP to not descend into it. */
	int (*node)(void *arg, uint32_t nid, uint32_t blkaddr, const struct zf2fs_node *node,
		    uint32_t ofs, uint32_t parent_nid, uint32_t slot);
	/* Each non-null block address: file block @fofs, held by node @owner at @ofs_in_node. */
	int (*data)(void *arg, uint64_t fofs, uint32_t blkaddr, uint32_t owner,
		    uint32_t ofs_in_node);
	/* A nid the tree points to that cannot be read or is not what it claims.  @slot is
	 * where the parent holds it: i_nid[slot] of the inode, or nid[slot] of a node. */
	int (*bad)(void *arg, uint32_t nid, uint32_t parent_nid, uint32_t slot, uint32_t ofs,
		   const char *why);
	/* Optional, asked before bad about a node whose block was read through its NAT entry
	 * but whose footer names another nid, inode or offset (@why says which): return 1 to
	 * walk it as the node the tree expects here (the walk then gives @node's footer @nid,
	 * the inode and @ofs; mending the block on disk is the caller's), 0 to go on to bad. */
	int (*mend)(void *arg, uint32_t nid, uint32_t blkaddr, const struct zf2fs_node *node,
		    uint32_t ofs, const char *why);
};
#define ZF2FS_WALK_SKIP 0x7fff0001

/* Walk a file's block tree from its inode block (not for inline data). */
ZF2FS_EXPORT int zf2fs_file_walk(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				 const struct zf2fs_walk_ops *ops, void *arg);

/* A dentry area: a dentry block or an inline directory. */
struct zf2fs_dentry_view {
	const uint8_t *bitmap;                   /* bit i (LSB first) = slot i in use */
	const struct zf2fs_dir_entry *dentry;
	const uint8_t (*filename)[ZF2FS_SLOT_LEN];
	uint32_t nr;                             /* slots */
};
ZF2FS_EXPORT void zf2fs_dentry_view_block(const void *dentry_block,
					  struct zf2fs_dentry_view *ret);
ZF2FS_EXPORT int zf2fs_dentry_view_inline(const struct zf2fs_node *inode, uint32_t features,
					  struct zf2fs_dentry_view *ret);
/* The same for blocks of @g's size (zf2fs_vol_geom: 856 slots in a 16 KiB dentry block);
 * the two above are these with zf2fs_geom_4k(). */
ZF2FS_EXPORT void zf2fs_dentry_view_block2(const struct zf2fs_geom *g, const void *dentry_block,
					   struct zf2fs_dentry_view *ret);
ZF2FS_EXPORT int zf2fs_dentry_view_inline2(const struct zf2fs_geom *g,
					   const struct zf2fs_node *inode, uint32_t features,
					   struct zf2fs_dentry_view *ret);
ZF2FS_EXPORT bool zf2fs_dentry_slot_used(const struct zf2fs_dentry_view *v, uint32_t slot);

/* The dentry blocks of a directory a name of hash @hash may sit in, in the order the kernel
 * looks (fs/f2fs/dir.c, f2fs_find_entry and f2fs_add_regular_entry): level by level from 0
 * below @depth (at most ZF2FS_MAX_DIR_HASH_DEPTH), at each level bucket hash % buckets
 * (zf2fs_dir_buckets with i_dir_level @dir_level; every bucket of the level when the walk
 * comes from zf2fs_bucket_iter_all, for a hash the directory does not key), and the
 * bucket's blocks (zf2fs_dir_bucket_blocks) first to last.  Block indexes only rise: the
 * walk ends at the first one from @nblocks on (the directory's end; UINT64_MAX for none). */
struct zf2fs_bucket_iter {
	uint64_t block;                 /* the block zf2fs_bucket_iter_next gave */
	uint32_t level;                 /* its level */
	/* the walk's own */
	uint32_t depth, dir_level, hash;
	bool every;
	uint64_t bucket, last, next, end, nblocks;
};
ZF2FS_EXPORT void zf2fs_bucket_iter_init(struct zf2fs_bucket_iter *it, uint32_t hash,
					 uint32_t dir_level, uint32_t depth, uint64_t nblocks);
ZF2FS_EXPORT void zf2fs_bucket_iter_all(struct zf2fs_bucket_iter *it, uint32_t dir_level,
					uint32_t depth, uint64_t nblocks);
/* The next block into it->block and it->level; false when the walk is over. */
ZF2FS_EXPORT bool zf2fs_bucket_iter_next(struct zf2fs_bucket_iter *it);
/* The dentry file type (ZF2FS_FT_*) an inode mode calls for; ZF2FS_FT_UNKNOWN if none. */
ZF2FS_EXPORT uint8_t zf2fs_mode_to_ftype(uint32_t mode);
/* @mode with its file type bits set to those of dentry type @ftype (permissions kept);
 * @mode unchanged when @ftype is not a known type. */
ZF2FS_EXPORT uint32_t zf2fs_ftype_to_mode(uint8_t ftype, uint32_t mode);

struct zf2fs_dentry_info {
	const uint8_t *name;
	uint32_t name_len, ino, hash, slot;
	uint8_t type;
	int64_t block;             /* dentry block index in the directory, -1 when inline */
};
/* Call @fn for every entry of directory @inode (inline or in blocks), "." and ".." included.
 * Malformed slots end that block's scan; they are reported through @bad when given. */
ZF2FS_EXPORT int zf2fs_dir_iterate(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				   int (*fn)(void *arg, const struct zf2fs_dentry_info *d),
				   int (*bad)(void *arg, int64_t block, uint32_t slot, const char *why),
				   void *arg);

/* ---- the volume label and the superblock --------------------------------------------- */
/* UTF-8 @label to the superblock's UTF-16LE volume_name (zero-padded).  -EINVAL for
 * invalid UTF-8 (overlong forms and surrogates included), -ENAMETOOLONG past 512 UTF-16
 * code units; @why gets the reason. */
ZF2FS_EXPORT int zf2fs_label_from_utf8(const char *label, void *ret_name, char *why,
				       size_t whylen);
/* (Both take the volume_name field itself, 512 little-endian units, e.g. sb->volume_name.)
 * volume_name to UTF-8 in @out (NUL-terminated, cut at @cap; unpaired surrogates become
 * U+FFFD).  Returns the bytes written. */
ZF2FS_EXPORT size_t zf2fs_label_to_utf8(const void *name, char *out, size_t cap);
/* Set the volume label (UTF-8) in both superblock copies, the copy not in use written and
 * synced first, so one valid copy exists at every moment.  The errors of
 * zf2fs_label_from_utf8(); -ZF2FS_EFSCORRUPTED (nothing written); write errors. */
ZF2FS_EXPORT int zf2fs_vol_set_label(struct zf2fs_vol *vol, const char *label, char *why,
				     size_t whylen);

/* ---- misc ------------------------------------------------------------------------------ */
ZF2FS_EXPORT const char *zf2fs_version(void);

#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_H */
