/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format.h - the F2FS on-disk format, as Linux 6.1 reads it.
 *
 * Every multi-byte field is little-endian on disk whatever the host is; the zf2fs_le* types
 * are plain integers that must only be read through zf2fs_get() / written through zf2fs_set()
 * (include/zf2fs/endian.h).  Struct sizes and key offsets are checked at compile time at
 * the bottom of this file and again, field by field, in tests/unit/test_format.c.
 */
#ifndef ZF2FS_FORMAT_H
#define ZF2FS_FORMAT_H

#include <stddef.h>
#include <stdint.h>

typedef uint16_t zf2fs_le16;
typedef uint32_t zf2fs_le32;
typedef uint64_t zf2fs_le64;

#define ZF2FS_PACKED __attribute__((packed))

/* ---- sizes and fixed numbers ------------------------------------------------------- */
#define ZF2FS_MAGIC                0xF2F52010u
#define ZF2FS_BLKSIZE              4096u
#define ZF2FS_BLKSIZE_BITS         12
/* The structs below are views of 4 KiB blocks; a volume's own block size (4 or 16 KiB)
 * and every number it decides come from its geometry (geometry.h).  Buffers that must
 * hold any volume's block are ZF2FS_BLKSIZE_MAX bytes. */
#define ZF2FS_BLKSIZE_MAX          16384u
#define ZF2FS_SUPER_OFFSET         1024u   /* byte offset of each superblock in its block */
#define ZF2FS_LOG_BLOCKS_PER_SEG   9
#define ZF2FS_BLOCKS_PER_SEG       512u
#define ZF2FS_SEG_BYTES            (ZF2FS_BLOCKS_PER_SEG * ZF2FS_BLKSIZE)
#define ZF2FS_MAX_SEGMENTS         (16u * 1024 * 1024 / 2)  /* 32-bit block addresses */
#define ZF2FS_MIN_SEGMENTS         9u      /* 2 CP + 2 SIT + 2 NAT + SSA + main */
#define ZF2FS_CP_PACKS             2
#define ZF2FS_MAX_EXTENSIONS       64
#define ZF2FS_EXTENSION_LEN        8
#define ZF2FS_VERSION_LEN          256
#define ZF2FS_MAX_VOLUME_NAME      512     /* UTF-16 code units */
#define ZF2FS_MAX_DEVICES          8
#define ZF2FS_DEVICE_PATH_LEN      64
#define ZF2FS_MAX_QUOTAS           3
#define ZF2FS_MAX_ACTIVE_LOGS      16
#define ZF2FS_MAX_NODE_LOGS        8
#define ZF2FS_MAX_DATA_LOGS        8
#define ZF2FS_NR_CURSEG            6       /* persistent logs the kernel uses */
#define ZF2FS_NULL_ADDR            0u
#define ZF2FS_NEW_ADDR             0xFFFFFFFFu
#define ZF2FS_COMPRESS_ADDR        0xFFFFFFFEu
#define ZF2FS_RESERVED_NIDS        3       /* nid 0, node inode, meta inode */
#define ZF2FS_NODE_INO             1u
#define ZF2FS_META_INO             2u
#define ZF2FS_ROOT_INO             3u

/* Log (current segment) types, in the order of the SIT type field. */
enum zf2fs_log_type {
	ZF2FS_LOG_HOT_DATA = 0,
	ZF2FS_LOG_WARM_DATA = 1,
	ZF2FS_LOG_COLD_DATA = 2,
	ZF2FS_LOG_HOT_NODE = 3,
	ZF2FS_LOG_WARM_NODE = 4,
	ZF2FS_LOG_COLD_NODE = 5,
};

/* Superblock feature bits. */
#define ZF2FS_FEAT_ENCRYPT                0x0001u
#define ZF2FS_FEAT_BLKZONED               0x0002u
#define ZF2FS_FEAT_ATOMIC_WRITE           0x0004u
#define ZF2FS_FEAT_EXTRA_ATTR             0x0008u
#define ZF2FS_FEAT_PRJQUOTA               0x0010u
#define ZF2FS_FEAT_INODE_CHKSUM           0x0020u
#define ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR  0x0040u
#define ZF2FS_FEAT_QUOTA_INO              0x0080u
#define ZF2FS_FEAT_INODE_CRTIME           0x0100u
#define ZF2FS_FEAT_LOST_FOUND             0x0200u
#define ZF2FS_FEAT_VERITY                 0x0400u
#define ZF2FS_FEAT_SB_CHKSUM              0x0800u
#define ZF2FS_FEAT_CASEFOLD               0x1000u
#define ZF2FS_FEAT_COMPRESSION            0x2000u
#define ZF2FS_FEAT_RO                     0x4000u
#define ZF2FS_FEAT_DEVICE_ALIAS           0x8000u   /* files that alias whole devices */
#define ZF2FS_FEAT_PACKED_SSA             0x10000u  /* 4 KiB summaries, several to a block
						     * when blocks are larger */
/* Every feature bit the library has a name for: Linux 7.3's set but atomic_write, which
 * Linux only adds to what F2FS_IOC_GET_FEATURES reports and never writes to a volume. */
#define ZF2FS_FEAT_KNOWN                  0x1fffbu

/* s_encoding_flags bits (casefolding). */
#define ZF2FS_ENC_STRICT                  0x1u   /* names that are not valid UTF-8 are
						  * refused */
#define ZF2FS_ENC_HASHONLY                0x2u   /* a casefolded lookup that the hash
						  * misses does not fall back to a
						  * linear search */

/* s_stop_reason slots: why the kernel stopped writing checkpoints (a counter each). */
enum zf2fs_stop_reason {
	ZF2FS_STOP_SHUTDOWN,
	ZF2FS_STOP_FAULT_INJECT,
	ZF2FS_STOP_META_PAGE,
	ZF2FS_STOP_WRITE_FAIL,
	ZF2FS_STOP_CORRUPTED_SUMMARY,
	ZF2FS_STOP_UPDATE_INODE,
	ZF2FS_STOP_FLUSH_FAIL,
	ZF2FS_STOP_NO_SEGMENT,
	ZF2FS_STOP_CORRUPTED_FREE_BITMAP,
	ZF2FS_STOP_CORRUPTED_NID,
	ZF2FS_STOP_READ_META,
	ZF2FS_STOP_READ_NODE,
	ZF2FS_STOP_READ_DATA,
	ZF2FS_STOP_REASONS,   /* slots Linux 7.3 names */
};

/* ---- superblock ----------------------------------------------------------------------- */
struct zf2fs_device_slot {
	uint8_t path[ZF2FS_DEVICE_PATH_LEN];
	zf2fs_le32 total_segments;
} ZF2FS_PACKED;

struct zf2fs_super {
	zf2fs_le32 magic;
	zf2fs_le16 major_ver;
	zf2fs_le16 minor_ver;
	zf2fs_le32 log_sectorsize;
	zf2fs_le32 log_sectors_per_block;
	zf2fs_le32 log_blocksize;
	zf2fs_le32 log_blocks_per_seg;
	zf2fs_le32 segs_per_sec;
	zf2fs_le32 secs_per_zone;
	zf2fs_le32 checksum_offset;          /* offset of crc below when sb_checksum is on */
	zf2fs_le64 block_count;              /* blocks on all devices */
	zf2fs_le32 section_count;            /* sections in the main area */
	zf2fs_le32 segment_count;            /* segments from segment 0 to the end */
	zf2fs_le32 segment_count_ckpt;
	zf2fs_le32 segment_count_sit;
	zf2fs_le32 segment_count_nat;
	zf2fs_le32 segment_count_ssa;
	zf2fs_le32 segment_count_main;
	zf2fs_le32 segment0_blkaddr;
	zf2fs_le32 cp_blkaddr;
	zf2fs_le32 sit_blkaddr;
	zf2fs_le32 nat_blkaddr;
	zf2fs_le32 ssa_blkaddr;
	zf2fs_le32 main_blkaddr;
	zf2fs_le32 root_ino;
	zf2fs_le32 node_ino;
	zf2fs_le32 meta_ino;
	uint8_t uuid[16];
	zf2fs_le16 volume_name[ZF2FS_MAX_VOLUME_NAME];
	zf2fs_le32 extension_count;          /* cold extensions, then hot_ext_count hot ones */
	uint8_t extension_list[ZF2FS_MAX_EXTENSIONS][ZF2FS_EXTENSION_LEN];
	zf2fs_le32 cp_payload;               /* extra SIT-bitmap blocks in each CP pack */
	uint8_t version[ZF2FS_VERSION_LEN];
	uint8_t init_version[ZF2FS_VERSION_LEN];
	zf2fs_le32 feature;
	uint8_t encryption_level;
	uint8_t encrypt_pw_salt[16];
	struct zf2fs_device_slot devs[ZF2FS_MAX_DEVICES];
	zf2fs_le32 qf_ino[ZF2FS_MAX_QUOTAS];
	uint8_t hot_ext_count;
	zf2fs_le16 s_encoding;
	zf2fs_le16 s_encoding_flags;
	uint8_t s_stop_reason[32];
	uint8_t s_errors[16];
	uint8_t reserved[258];
	zf2fs_le32 crc;
} ZF2FS_PACKED;

/* ---- checkpoint ---------------------------------------------------------------------- */
#define ZF2FS_CP_UMOUNT_FLAG           0x00000001u
#define ZF2FS_CP_ORPHAN_PRESENT_FLAG   0x00000002u
#define ZF2FS_CP_COMPACT_SUM_FLAG      0x00000004u
#define ZF2FS_CP_ERROR_FLAG            0x00000008u
#define ZF2FS_CP_FSCK_FLAG             0x00000010u
#define ZF2FS_CP_FASTBOOT_FLAG         0x00000020u
#define ZF2FS_CP_CRC_RECOVERY_FLAG     0x00000040u
#define ZF2FS_CP_NAT_BITS_FLAG         0x00000080u
#define ZF2FS_CP_TRIMMED_FLAG          0x00000100u
#define ZF2FS_CP_NOCRC_RECOVERY_FLAG   0x00000200u
#define ZF2FS_CP_LARGE_NAT_BITMAP_FLAG 0x00000400u
#define ZF2FS_CP_QUOTA_NEED_FSCK_FLAG  0x00000800u
#define ZF2FS_CP_DISABLED_FLAG         0x00001000u
#define ZF2FS_CP_DISABLED_QUICK_FLAG   0x00002000u
#define ZF2FS_CP_RESIZEFS_FLAG         0x00004000u

#define ZF2FS_CP_CHKSUM_OFFSET 4092u    /* the crc sits in the last 4 bytes of the block */

struct zf2fs_checkpoint {
	zf2fs_le64 checkpoint_ver;
	zf2fs_le64 user_block_count;
	zf2fs_le64 valid_block_count;
	zf2fs_le32 rsvd_segment_count;
	zf2fs_le32 overprov_segment_count;
	zf2fs_le32 free_segment_count;
	zf2fs_le32 cur_node_segno[ZF2FS_MAX_NODE_LOGS];
	zf2fs_le16 cur_node_blkoff[ZF2FS_MAX_NODE_LOGS];
	zf2fs_le32 cur_data_segno[ZF2FS_MAX_DATA_LOGS];
	zf2fs_le16 cur_data_blkoff[ZF2FS_MAX_DATA_LOGS];
	zf2fs_le32 ckpt_flags;
	zf2fs_le32 cp_pack_total_block_count;
	zf2fs_le32 cp_pack_start_sum;
	zf2fs_le32 valid_node_count;
	zf2fs_le32 valid_inode_count;
	zf2fs_le32 next_free_nid;
	zf2fs_le32 sit_ver_bitmap_bytesize;
	zf2fs_le32 nat_ver_bitmap_bytesize;
	zf2fs_le32 checksum_offset;
	zf2fs_le64 elapsed_time;
	uint8_t alloc_type[ZF2FS_MAX_ACTIVE_LOGS];
	uint8_t sit_nat_version_bitmap[];  /* SIT bitmap, then NAT bitmap */
} ZF2FS_PACKED;

#define ZF2FS_CP_BITMAP_OFFSET        (offsetof(struct zf2fs_checkpoint, sit_nat_version_bitmap))
/* Room for both version bitmaps inside the CP block, and for SIT when NAT keeps 64 bytes. */
#define ZF2FS_CP_BITMAP_ROOM          (ZF2FS_CP_CHKSUM_OFFSET - ZF2FS_CP_BITMAP_OFFSET)
#define ZF2FS_CP_SIT_BITMAP_ROOM      (ZF2FS_CP_BITMAP_ROOM - 64)

#define ZF2FS_ORPHANS_PER_BLOCK 1020

struct zf2fs_orphan_block {
	zf2fs_le32 ino[ZF2FS_ORPHANS_PER_BLOCK];
	zf2fs_le32 reserved;
	zf2fs_le16 blk_addr;     /* index of this block among the orphan blocks */
	zf2fs_le16 blk_count;
	zf2fs_le32 entry_count;
	zf2fs_le32 check_sum;
} ZF2FS_PACKED;

/* ---- nodes ------------------------------------------------------------------------------ */
struct zf2fs_extent {
	zf2fs_le32 fofs;
	zf2fs_le32 blk;
	zf2fs_le32 len;
} ZF2FS_PACKED;

#define ZF2FS_NAME_LEN              255
#define ZF2FS_ADDRS_PER_INODE       923   /* before extra attributes and inline xattrs */
#define ZF2FS_NIDS_PER_INODE        5     /* direct x2, indirect x2, double indirect */
#define ZF2FS_ADDRS_PER_BLOCK       1018
#define ZF2FS_NIDS_PER_BLOCK        1018
#define ZF2FS_INLINE_XATTR_ADDRS    50    /* default inline xattr size, in 4-byte words */

/* i_flags bits */
#define ZF2FS_COMPR_FL       0x00000004u   /* compressed file */
#define ZF2FS_SYNC_FL        0x00000008u
#define ZF2FS_IMMUTABLE_FL   0x00000010u
#define ZF2FS_APPEND_FL      0x00000020u
#define ZF2FS_NODUMP_FL      0x00000040u
#define ZF2FS_NOATIME_FL     0x00000080u
#define ZF2FS_NOCOMP_FL      0x00000400u   /* never compressed */
#define ZF2FS_INDEX_FL       0x00001000u
#define ZF2FS_DIRSYNC_FL     0x00010000u
#define ZF2FS_PROJINHERIT_FL 0x20000000u
#define ZF2FS_CASEFOLD_FL    0x40000000u   /* casefolded directory */
#define ZF2FS_DEVICE_ALIAS_FL 0x80000000u  /* a pinned file covering a whole device */

/* i_advise bit: the file's contents (and a directory's names) are encrypted. */
#define ZF2FS_ADVISE_ENCRYPT 0x04u
/* i_advise bit: i_pino and i_name may be stale (the file was linked, renamed, or had
 * several names); the kernel checkpoints at fsync instead of relying on them. */
#define ZF2FS_ADVISE_LOST_PINO 0x02u
/* i_advise bit: the file has fs-verity (its Merkle tree and descriptor past EOF, found
 * through the verity xattr). */
#define ZF2FS_ADVISE_VERITY 0x40u
/* xattr name indexes of what fscrypt and fs-verity keep: the encryption context ("c")
 * and where the verity descriptor is ("v"). */
#define ZF2FS_XATTR_INDEX_ENCRYPTION 9
#define ZF2FS_XATTR_INDEX_VERITY     11

/* The kernel's bounds on i_inline_xattr_size (its MAX_INLINE_XATTR_SIZE: what the extra
 * attributes, the reserved word and the smallest inline dentry area leave; and, with
 * inline xattrs, MIN_INLINE_XATTR_SIZE: an xattr header) */
#define ZF2FS_MAX_INLINE_XATTR_WORDS 903u
#define ZF2FS_MIN_INLINE_XATTR_WORDS 6u

/* Node offsets in a file's tree, as footers record them. */
#define ZF2FS_OFS_DIR1  1u
#define ZF2FS_OFS_DIR2  2u
#define ZF2FS_OFS_IND1  3u
#define ZF2FS_OFS_IND2  (4u + ZF2FS_NIDS_PER_BLOCK)
#define ZF2FS_OFS_DIND  (5u + 2u * ZF2FS_NIDS_PER_BLOCK)

/* i_inline flags */
#define ZF2FS_INLINE_XATTR   0x01
#define ZF2FS_INLINE_DATA    0x02
#define ZF2FS_INLINE_DENTRY  0x04
#define ZF2FS_DATA_EXIST     0x08
#define ZF2FS_INLINE_DOTS    0x10
#define ZF2FS_EXTRA_ATTR     0x20
#define ZF2FS_PIN_FILE       0x40
#define ZF2FS_COMPRESS_RELEASED 0x80

struct zf2fs_inode {
	zf2fs_le16 i_mode;
	uint8_t i_advise;
	uint8_t i_inline;
	zf2fs_le32 i_uid;
	zf2fs_le32 i_gid;
	zf2fs_le32 i_links;
	zf2fs_le64 i_size;
	zf2fs_le64 i_blocks;             /* in 4 KiB blocks, the inode block included */
	zf2fs_le64 i_atime;
	zf2fs_le64 i_ctime;
	zf2fs_le64 i_mtime;
	zf2fs_le32 i_atime_nsec;
	zf2fs_le32 i_ctime_nsec;
	zf2fs_le32 i_mtime_nsec;
	zf2fs_le32 i_generation;
	zf2fs_le32 i_current_depth;      /* directories; regular files keep i_gc_failures here */
	zf2fs_le32 i_xattr_nid;
	zf2fs_le32 i_flags;
	zf2fs_le32 i_pino;
	zf2fs_le32 i_namelen;
	uint8_t i_name[ZF2FS_NAME_LEN];
	uint8_t i_dir_level;
	struct zf2fs_extent i_ext;
	union {
		struct {                  /* present when ZF2FS_EXTRA_ATTR is set */
			zf2fs_le16 i_extra_isize;
			zf2fs_le16 i_inline_xattr_size;
			zf2fs_le32 i_projid;
			zf2fs_le32 i_inode_checksum;
			zf2fs_le64 i_crtime;
			zf2fs_le32 i_crtime_nsec;
			zf2fs_le64 i_compr_blocks;
			uint8_t i_compress_algorithm;
			uint8_t i_log_cluster_size;
			zf2fs_le16 i_compress_flag;
		} ZF2FS_PACKED;
		zf2fs_le32 i_addr[ZF2FS_ADDRS_PER_INODE];
	};
	zf2fs_le32 i_nid[ZF2FS_NIDS_PER_INODE];
} ZF2FS_PACKED;

/* Bytes of the extra attributes this tool writes (everything up to i_compress_flag). */
#define ZF2FS_EXTRA_ISIZE_MAX 36u

struct zf2fs_direct_node {
	zf2fs_le32 addr[ZF2FS_ADDRS_PER_BLOCK];
} ZF2FS_PACKED;

struct zf2fs_indirect_node {
	zf2fs_le32 nid[ZF2FS_NIDS_PER_BLOCK];
} ZF2FS_PACKED;

/* Footer flag bits; the node's offset in its file's tree sits above them. */
#define ZF2FS_FOOTER_COLD_BIT    0x1u
#define ZF2FS_FOOTER_FSYNC_BIT   0x2u
#define ZF2FS_FOOTER_DENT_BIT    0x4u
#define ZF2FS_FOOTER_OFS_SHIFT   3

struct zf2fs_node_footer {
	zf2fs_le32 nid;
	zf2fs_le32 ino;
	zf2fs_le32 flag;
	zf2fs_le64 cp_ver;
	zf2fs_le32 next_blkaddr;
} ZF2FS_PACKED;

struct zf2fs_node {
	union {
		struct zf2fs_inode i;
		struct zf2fs_direct_node dn;
		struct zf2fs_indirect_node in;
	};
	struct zf2fs_node_footer footer;
} ZF2FS_PACKED;

/* ---- NAT and SIT ------------------------------------------------------------------------ */
struct zf2fs_nat_entry {
	uint8_t version;
	zf2fs_le32 ino;
	zf2fs_le32 block_addr;
} ZF2FS_PACKED;

#define ZF2FS_NAT_PER_BLOCK (ZF2FS_BLKSIZE / sizeof(struct zf2fs_nat_entry))   /* 455 */

struct zf2fs_nat_block {
	struct zf2fs_nat_entry entries[ZF2FS_NAT_PER_BLOCK];
} ZF2FS_PACKED;

#define ZF2FS_SIT_MAP_SIZE      64
#define ZF2FS_SIT_VBLOCKS_BITS  10
#define ZF2FS_SIT_VBLOCKS_MASK  ((1u << ZF2FS_SIT_VBLOCKS_BITS) - 1)

struct zf2fs_sit_entry {
	zf2fs_le16 vblocks;                      /* log type << 10 | valid block count */
	uint8_t valid_map[ZF2FS_SIT_MAP_SIZE];  /* bit 7 of byte 0 is block 0 */
	zf2fs_le64 mtime;
} ZF2FS_PACKED;

#define ZF2FS_SIT_PER_BLOCK (ZF2FS_BLKSIZE / sizeof(struct zf2fs_sit_entry))   /* 55 */

struct zf2fs_sit_block {
	struct zf2fs_sit_entry entries[ZF2FS_SIT_PER_BLOCK];
} ZF2FS_PACKED;

/* ---- summaries and journals ------------------------------------------------------------ */
#define ZF2FS_ENTRIES_IN_SUM   512
#define ZF2FS_SUMMARY_SIZE     7
#define ZF2FS_SUM_FOOTER_SIZE  5
#define ZF2FS_SUM_JOURNAL_SIZE (ZF2FS_BLKSIZE - ZF2FS_SUM_FOOTER_SIZE - \
				ZF2FS_SUMMARY_SIZE * ZF2FS_ENTRIES_IN_SUM)          /* 507 */
#define ZF2FS_SUM_TYPE_DATA 0
#define ZF2FS_SUM_TYPE_NODE 1

struct zf2fs_summary {
	zf2fs_le32 nid;           /* data: owning node; node: the node itself */
	uint8_t version;
	zf2fs_le16 ofs_in_node;   /* data: slot in the owning node */
} ZF2FS_PACKED;

struct zf2fs_summary_footer {
	uint8_t entry_type;
	zf2fs_le32 check_sum;
} ZF2FS_PACKED;

struct zf2fs_nat_journal_entry {
	zf2fs_le32 nid;
	struct zf2fs_nat_entry ne;
} ZF2FS_PACKED;

struct zf2fs_sit_journal_entry {
	zf2fs_le32 segno;
	struct zf2fs_sit_entry se;
} ZF2FS_PACKED;

#define ZF2FS_NAT_JOURNAL_ENTRIES ((ZF2FS_SUM_JOURNAL_SIZE - 2) / sizeof(struct zf2fs_nat_journal_entry))
#define ZF2FS_SIT_JOURNAL_ENTRIES ((ZF2FS_SUM_JOURNAL_SIZE - 2) / sizeof(struct zf2fs_sit_journal_entry))

struct zf2fs_journal {
	zf2fs_le16 n_entries;     /* n_nats or n_sits, depending on the log */
	union {
		struct {
			struct zf2fs_nat_journal_entry entries[ZF2FS_NAT_JOURNAL_ENTRIES];
			uint8_t reserved[(ZF2FS_SUM_JOURNAL_SIZE - 2) %
					 sizeof(struct zf2fs_nat_journal_entry)];
		} ZF2FS_PACKED nat;
		struct {
			struct zf2fs_sit_journal_entry entries[ZF2FS_SIT_JOURNAL_ENTRIES];
			uint8_t reserved[(ZF2FS_SUM_JOURNAL_SIZE - 2) %
					 sizeof(struct zf2fs_sit_journal_entry)];
		} ZF2FS_PACKED sit;
		struct {
			zf2fs_le64 kbytes_written;
			uint8_t reserved[ZF2FS_SUM_JOURNAL_SIZE - 2 - 8];
		} ZF2FS_PACKED info;
	};
} ZF2FS_PACKED;

struct zf2fs_summary_block {
	struct zf2fs_summary entries[ZF2FS_ENTRIES_IN_SUM];
	struct zf2fs_journal journal;
	struct zf2fs_summary_footer footer;
} ZF2FS_PACKED;

/* ---- directories ---------------------------------------------------------------------- */
#define ZF2FS_SLOT_LEN          8
#define ZF2FS_DENTRY_PER_BLOCK  214
#define ZF2FS_DIR_ENTRY_SIZE    11
#define ZF2FS_DENTRY_BITMAP_SIZE ((ZF2FS_DENTRY_PER_BLOCK + 7) / 8)
#define ZF2FS_DENTRY_RESERVED   (ZF2FS_BLKSIZE - (ZF2FS_DIR_ENTRY_SIZE + ZF2FS_SLOT_LEN) * \
				 ZF2FS_DENTRY_PER_BLOCK - ZF2FS_DENTRY_BITMAP_SIZE)
#define ZF2FS_MAX_DIR_HASH_DEPTH 63

/* The file type bits of i_mode (Linux's S_IF*; the host's <sys/stat.h> describes host
 * files, these the volume's inodes). */
#define ZF2FS_S_IFMT   0170000u
#define ZF2FS_S_IFSOCK 0140000u
#define ZF2FS_S_IFLNK  0120000u
#define ZF2FS_S_IFREG  0100000u
#define ZF2FS_S_IFBLK  0060000u
#define ZF2FS_S_IFDIR  0040000u
#define ZF2FS_S_IFCHR  0020000u
#define ZF2FS_S_IFIFO  0010000u

enum zf2fs_file_type {
	ZF2FS_FT_UNKNOWN, ZF2FS_FT_REG_FILE, ZF2FS_FT_DIR, ZF2FS_FT_CHRDEV,
	ZF2FS_FT_BLKDEV, ZF2FS_FT_FIFO, ZF2FS_FT_SOCK, ZF2FS_FT_SYMLINK, ZF2FS_FT_MAX
};

struct zf2fs_dir_entry {
	zf2fs_le32 hash_code;
	zf2fs_le32 ino;
	zf2fs_le16 name_len;
	uint8_t file_type;
} ZF2FS_PACKED;

/* Xattrs (fs/f2fs/xattr.h): the inline area, continued by the xattr node, holds a 24-byte
 * header, then entries (this, the name, the value, padded to 4 bytes), ended by a zero
 * word. */
#define ZF2FS_XATTR_HDR_SIZE 24
#define ZF2FS_XATTR_MAGIC    0xF2F52011u   /* first word of the header */
struct zf2fs_xattr_entry {
	uint8_t e_name_index;
	uint8_t e_name_len;
	zf2fs_le16 e_value_size;
} ZF2FS_PACKED;

struct zf2fs_dentry_block {
	uint8_t dentry_bitmap[ZF2FS_DENTRY_BITMAP_SIZE];
	uint8_t reserved[ZF2FS_DENTRY_RESERVED];
	struct zf2fs_dir_entry dentry[ZF2FS_DENTRY_PER_BLOCK];
	uint8_t filename[ZF2FS_DENTRY_PER_BLOCK][ZF2FS_SLOT_LEN];
} ZF2FS_PACKED;

/* ---- compile-time layout checks ------------------------------------------------------- */
_Static_assert(sizeof(struct zf2fs_device_slot) == 68, "device slot");
_Static_assert(sizeof(struct zf2fs_super) == 3072, "superblock size");
_Static_assert(offsetof(struct zf2fs_super, uuid) == 108, "superblock uuid");
_Static_assert(offsetof(struct zf2fs_super, feature) == 2180, "superblock feature");
_Static_assert(offsetof(struct zf2fs_super, crc) == 3068, "superblock crc");
_Static_assert(sizeof(struct zf2fs_checkpoint) == 192, "checkpoint header size");
_Static_assert(offsetof(struct zf2fs_checkpoint, ckpt_flags) == 132, "checkpoint flags");
_Static_assert(sizeof(struct zf2fs_orphan_block) == ZF2FS_BLKSIZE, "orphan block");
_Static_assert(sizeof(struct zf2fs_inode) == 4072, "inode size");
_Static_assert(offsetof(struct zf2fs_inode, i_ext) == 0x15c, "inode extent");
_Static_assert(offsetof(struct zf2fs_inode, i_addr) == 0x168, "inode addresses");
_Static_assert(offsetof(struct zf2fs_inode, i_inode_checksum) == 0x170, "inode checksum");
_Static_assert(sizeof(struct zf2fs_node_footer) == 24, "node footer");
_Static_assert(sizeof(struct zf2fs_node) == ZF2FS_BLKSIZE, "node block");
_Static_assert(sizeof(struct zf2fs_xattr_entry) == 4, "xattr entry");
_Static_assert(sizeof(struct zf2fs_nat_entry) == 9, "nat entry");
_Static_assert(ZF2FS_NAT_PER_BLOCK == 455, "nat entries per block");
_Static_assert(sizeof(struct zf2fs_sit_entry) == 74, "sit entry");
_Static_assert(ZF2FS_SIT_PER_BLOCK == 55, "sit entries per block");
_Static_assert(sizeof(struct zf2fs_summary) == ZF2FS_SUMMARY_SIZE, "summary entry");
_Static_assert(sizeof(struct zf2fs_journal) == ZF2FS_SUM_JOURNAL_SIZE, "journal");
_Static_assert(ZF2FS_NAT_JOURNAL_ENTRIES == 38, "nat journal entries");
_Static_assert(ZF2FS_SIT_JOURNAL_ENTRIES == 6, "sit journal entries");
_Static_assert(sizeof(struct zf2fs_summary_block) == ZF2FS_BLKSIZE, "summary block");
_Static_assert(sizeof(struct zf2fs_dir_entry) == ZF2FS_DIR_ENTRY_SIZE, "dir entry");
_Static_assert(sizeof(struct zf2fs_dentry_block) == ZF2FS_BLKSIZE, "dentry block");

#endif /* ZF2FS_FORMAT_H */
