/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * geometry.h - libzf2fs: every number the block size decides.
 *
 * A volume's block is 4 KiB (log_blocksize 12) or 16 KiB (14); a segment is 512 blocks
 * either way (2 MiB or 8 MiB), since Linux refuses any log_blocks_per_seg but 9.  The
 * block size decides how many entries each fixed-format block holds, where a node
 * block's footer sits, what room a checkpoint block leaves for its bitmaps, and so on:
 * struct zf2fs_geom holds all of them, computed by zf2fs_geom_init() from the
 * superblock's log_blocksize and feature word.  The packed_ssa feature changes only the
 * summaries: each is 4 KiB whatever the block, and a 16 KiB SSA block holds four of them,
 * for four consecutive segments; without it a summary fills its block.
 *
 * The structs of format.h are the 4 KiB views; the geometry for log_blocksize 12 equals
 * their constants (tests/unit/test_geometry.c keeps the two together).
 */
#ifndef ZF2FS_GEOMETRY_H
#define ZF2FS_GEOMETRY_H

#include <stddef.h>
#include <stdint.h>

#include "zf2fs/endian.h"
#include "zf2fs/format.h"
#include "zf2fs/zf2fs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ZF2FS_MIN_LOG_BLOCKSIZE 12
#define ZF2FS_MAX_LOG_BLOCKSIZE 14

struct zf2fs_geom {
	/* block and segment */
	uint32_t log_blocksize;         /* 12 or 14 */
	uint32_t blocksize;             /* bytes */
	uint32_t log_sectors_per_block; /* 512-byte sectors */
	uint32_t log_blocks_per_seg;    /* 9 */
	uint32_t blocks_per_seg;        /* 512 */
	uint64_t seg_bytes;

	/* node blocks: an inode's i_addr[] before extra attributes and inline xattrs */
	uint32_t addrs_per_inode;
	uint32_t nids_per_inode;        /* 5: direct x2, indirect x2, double indirect */
	uint32_t addrs_per_block;       /* a direct node's addresses */
	uint32_t nids_per_block;        /* an indirect node's nids */
	uint32_t node_footer_offset;    /* byte offset of the footer in a node block */
	uint32_t inode_nid_offset;      /* byte offset of an inode's i_nid[] */
	uint64_t max_file_blocks;       /* the largest file, in blocks */

	/* NAT, SIT, orphans */
	uint32_t nat_per_block;
	uint32_t sit_per_block;
	uint32_t orphans_per_block;

	/* summaries: sum_blocksize bytes each, sums_per_block of them in one SSA block */
	uint32_t sum_blocksize;
	uint32_t sums_per_block;
	uint32_t entries_in_sum;
	uint32_t sum_journal_offset;    /* after the entries */
	uint32_t sum_journal_size;      /* n_entries included */
	uint32_t sum_footer_offset;
	uint32_t nat_journal_entries;
	uint32_t sit_journal_entries;

	/* dentry blocks: bitmap, reserved, entries, names */
	uint32_t dentry_per_block;
	uint32_t dentry_bitmap_size;
	uint32_t dentry_reserved;
	uint32_t dentry_reserved_offset;
	uint32_t dentry_entries_offset;
	uint32_t dentry_names_offset;

	/* checkpoint block */
	uint32_t cp_chksum_offset;      /* the crc's default place: the block's last word */
	uint32_t cp_bitmap_room;        /* SIT and NAT version bitmaps inside the cp block */
	uint32_t cp_sit_bitmap_room;    /* the SIT bitmap alone, when NAT has payload blocks */
	uint32_t cp_payload_max;        /* the largest cp_payload Linux accepts */

	/* xattrs and quota */
	uint32_t xattr_block_bytes;     /* an xattr node's room (the block less its footer) */
	uint32_t inline_xattr_min;      /* inline_xattr_size bounds, in 4-byte words */
	uint32_t inline_xattr_max;
	uint32_t quota_file_blocks;     /* data blocks of each quota file mkfs writes */

	uint32_t reserved[16];          /* zero: room for more numbers, same struct size */
};

/* The inline area of one inode: data bytes and the inline dentry's slots and parts. */
struct zf2fs_geom_inline {
	uint32_t data_bytes;            /* after the reserved first word */
	uint32_t dentry_slots;
	uint32_t dentry_bitmap_size;
	uint32_t dentry_reserved;
};

/*
 * Fill @g for a volume of 2^@log_blocksize-byte blocks with the superblock feature word
 * @features (only ZF2FS_FEAT_PACKED_SSA matters; with 4 KiB blocks it changes nothing).
 * -EINVAL for a block size other than 4 KiB or 16 KiB; @g is then cleared.
 */
ZF2FS_EXPORT int zf2fs_geom_init(struct zf2fs_geom *g, uint32_t log_blocksize, uint32_t features);

/*
 * The inline area of an inode whose extra attributes take @extra_isize bytes (0 without
 * them) and whose inline xattrs take @xattr_words 4-byte words (0 without them).
 * -EINVAL when @extra_isize is not a multiple of 4 or the two leave no room.
 */
ZF2FS_EXPORT int zf2fs_geom_inline_area(const struct zf2fs_geom *g, uint32_t extra_isize,
					uint32_t xattr_words, struct zf2fs_geom_inline *ret);

/*
 * Where segment @segno's summary sits: the SSA block (from @ssa_blkaddr, the superblock's)
 * and the byte offset of the summary in it.  Without packed_ssa every segment has its own
 * block and the offset is 0.
 */
static inline uint32_t zf2fs_geom_ssa_block(const struct zf2fs_geom *g, uint32_t ssa_blkaddr,
					    uint32_t segno, uint32_t *ret_offset)
{
	if (ret_offset)
		*ret_offset = segno % g->sums_per_block * g->sum_blocksize;
	return ssa_blkaddr + segno / g->sums_per_block;
}


/*
 * A node block's parts where @g puts them.  format.h's struct zf2fs_node is the 4 KiB
 * view: its footer and i_nid[] sit at the end of the block, so on a 16 KiB volume they
 * are reached only through these.  The address arrays start where the 4 KiB view says
 * (i_addr[] after the inode's fixed fields, a direct node's at 0) and hold
 * g->addrs_per_inode and g->addrs_per_block entries; an indirect node's g->nids_per_block.
 */
static inline struct zf2fs_node_footer *zf2fs_node_footer(const struct zf2fs_geom *g,
							 const void *node_block)
{
	return (struct zf2fs_node_footer *)((uintptr_t)node_block + g->node_footer_offset);
}

static inline zf2fs_le32 *zf2fs_inode_nids(const struct zf2fs_geom *g, const void *node_block)
{
	return (zf2fs_le32 *)((uintptr_t)node_block + g->inode_nid_offset);
}

static inline zf2fs_le32 *zf2fs_inode_addrs(const void *node_block)
{
	return (zf2fs_le32 *)((uintptr_t)node_block + offsetof(struct zf2fs_inode, i_addr));
}

static inline zf2fs_le32 *zf2fs_node_words(const void *node_block)
{
	return (zf2fs_le32 *)(uintptr_t)node_block;
}

/* A node's offset in its inode's tree (the footer flag above its marks: 0 for an inode),
 * and the offsets of the second indirect and the double indirect node, which follow the
 * direct nodes the first indirect one holds. */
static inline uint32_t zf2fs_node_ofs(const struct zf2fs_geom *g, const void *node_block)
{
	return (uint32_t)(zf2fs_get(zf2fs_node_footer(g, node_block)->flag) >>
			  ZF2FS_FOOTER_OFS_SHIFT);
}

static inline uint32_t zf2fs_geom_ofs_ind2(const struct zf2fs_geom *g)
{
	return ZF2FS_OFS_IND1 + 1 + g->nids_per_block;
}

static inline uint32_t zf2fs_geom_ofs_dind(const struct zf2fs_geom *g)
{
	return ZF2FS_OFS_IND1 + 2 + 2 * g->nids_per_block;
}

/* Whether the node at tree offset @ofs holds block addresses (the kernel's IS_DNODE): the
 * inode, the direct nodes and the xattr node; not the indirect ones, which sit at the
 * offsets above and after every nids_per_block direct nodes below the double indirect. */
static inline bool zf2fs_geom_ofs_dnode(const struct zf2fs_geom *g, uint32_t ofs)
{
	const uint32_t dind = zf2fs_geom_ofs_dind(g);

	if (ofs == ZF2FS_OFS_IND1 || ofs == zf2fs_geom_ofs_ind2(g) || ofs == dind)
		return false;
	return ofs < dind || (ofs - dind - 1) % (g->nids_per_block + 1) != 0;
}

/*
 * Table blocks where @g puts their entries: NAT block and entry of a nid, SIT block and
 * entry of a segment, and the SIT blocks of @segs segments.  An entry of a NAT or SIT
 * block, or of a journal, is reached through zf2fs_nat_block_entry and the others below:
 * format.h's arrays hold the 4 KiB counts only.
 */
static inline uint32_t zf2fs_geom_nat_block_index(const struct zf2fs_geom *g, uint32_t nid)
{
	return nid / g->nat_per_block;
}

static inline uint32_t zf2fs_geom_nat_entry_index(const struct zf2fs_geom *g, uint32_t nid)
{
	return nid % g->nat_per_block;
}

static inline uint32_t zf2fs_geom_sit_block_index(const struct zf2fs_geom *g, uint32_t segno)
{
	return segno / g->sit_per_block;
}

static inline uint32_t zf2fs_geom_sit_entry_index(const struct zf2fs_geom *g, uint32_t segno)
{
	return segno % g->sit_per_block;
}

static inline uint32_t zf2fs_geom_sit_blocks(const struct zf2fs_geom *g, uint32_t segs)
{
	return (uint32_t)(((uint64_t)segs + g->sit_per_block - 1) / g->sit_per_block);
}

static inline struct zf2fs_nat_entry *zf2fs_nat_block_entry(const void *nat_block, uint32_t i)
{
	return (struct zf2fs_nat_entry *)((uintptr_t)nat_block +
					  (size_t)i * sizeof(struct zf2fs_nat_entry));
}

static inline struct zf2fs_sit_entry *zf2fs_sit_block_entry(const void *sit_block, uint32_t i)
{
	return (struct zf2fs_sit_entry *)((uintptr_t)sit_block +
					  (size_t)i * sizeof(struct zf2fs_sit_entry));
}

/*
 * A summary's parts where @g puts them: g->entries_in_sum entries from its start, the
 * journal (g->sum_journal_size bytes) and the footer.  @sum is the summary's first byte:
 * an SSA block plus the offset zf2fs_geom_ssa_block gives, or a checkpoint pack's
 * summary block (which holds one summary from its start whatever the block size).
 * The struct zf2fs_summary_block of format.h is the 4 KiB view, which a summary of
 * packed_ssa also is.
 */
static inline struct zf2fs_summary *zf2fs_sum_entries(const void *sum)
{
	return (struct zf2fs_summary *)(uintptr_t)sum;
}

static inline struct zf2fs_journal *zf2fs_sum_journal(const struct zf2fs_geom *g, const void *sum)
{
	return (struct zf2fs_journal *)((uintptr_t)sum + g->sum_journal_offset);
}

static inline struct zf2fs_summary_footer *zf2fs_sum_footer(const struct zf2fs_geom *g,
							   const void *sum)
{
	return (struct zf2fs_summary_footer *)((uintptr_t)sum + g->sum_footer_offset);
}

/* Entry @i of a NAT or SIT journal (below g->nat_journal_entries or
 * g->sit_journal_entries). */
static inline struct zf2fs_nat_journal_entry *zf2fs_journal_nat(const struct zf2fs_journal *j,
								uint32_t i)
{
	return (struct zf2fs_nat_journal_entry *)((uintptr_t)j + sizeof(zf2fs_le16) +
		(size_t)i * sizeof(struct zf2fs_nat_journal_entry));
}

static inline struct zf2fs_sit_journal_entry *zf2fs_journal_sit(const struct zf2fs_journal *j,
								uint32_t i)
{
	return (struct zf2fs_sit_journal_entry *)((uintptr_t)j + sizeof(zf2fs_le16) +
		(size_t)i * sizeof(struct zf2fs_sit_journal_entry));
}

/*
 * The crc of a checkpoint block of @g's size, by its checksum_offset: the block's last
 * word (g->cp_chksum_offset) or, with the large NAT bitmap, right after the header.
 * -ZF2FS_EFSCORRUPTED for any other offset.  zf2fs_cp_checksum is this with 4 KiB.
 */
ZF2FS_EXPORT int zf2fs_cp_checksum2(const struct zf2fs_geom *g, const void *cp_block,
				    uint32_t *ret_crc);

/* The checksum of an inode in a node block of @g's size (zf2fs_inode_checksum is this
 * with 4 KiB). */
ZF2FS_EXPORT uint32_t zf2fs_inode_checksum2(const struct zf2fs_geom *g, uint32_t seed,
					    const void *node_block);

/* The geometry of 4 KiB blocks without packed_ssa: for code that has no volume (format
 * helpers, tests) and for every 4 KiB volume. */
ZF2FS_EXPORT const struct zf2fs_geom *zf2fs_geom_4k(void);

#ifdef __cplusplus
}
#endif

#endif /* ZF2FS_GEOMETRY_H */
