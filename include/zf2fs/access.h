/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * access.h - small accessors for the packed bits of the on-disk format.
 *
 * Front-ends (mkfs, fsck, dump, gc) never shift, mask or sum on-disk bits themselves: a SIT
 * entry's vblocks word, the high-bit-first SIT validity bitmap, the low-bit-first dentry
 * bitmap, hash-bucket geometry and the metadata-area size formulas are given here once,
 * as static inline functions (like libzbd's zone macros), so every caller agrees with
 * the library and with Linux 6.1 (fs/f2fs/segment.h, fs/f2fs/dir.c, f2fs_fs.h).
 */
#ifndef ZF2FS_ACCESS_H
#define ZF2FS_ACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/endian.h"
#include "zf2fs/format.h"

/* ---- bitmaps -------------------------------------------------------------------------- */
/* High-bit-first: bit @nr is bit 7 - nr % 8 of byte nr / 8 (SIT validity maps, the CP
 * version bitmaps of SIT and NAT blocks). */
static inline bool zf2fs_hbit_test(const uint8_t *map, uint64_t nr)
{
	return map[nr / 8] & (0x80u >> (nr % 8));
}

static inline void zf2fs_hbit_set(uint8_t *map, uint64_t nr)
{
	map[nr / 8] |= (uint8_t)(0x80u >> (nr % 8));
}

static inline void zf2fs_hbit_clear(uint8_t *map, uint64_t nr)
{
	map[nr / 8] &= (uint8_t)~(0x80u >> (nr % 8));
}

static inline void zf2fs_hbit_flip(uint8_t *map, uint64_t nr)
{
	map[nr / 8] ^= (uint8_t)(0x80u >> (nr % 8));
}

/* Low-bit-first: bit @nr is bit nr % 8 of byte nr / 8 (dentry bitmaps, nat_bits, and the
 * in-memory maps of the tools). */
static inline bool zf2fs_lbit_test(const uint8_t *map, uint64_t nr)
{
	return map[nr / 8] & (1u << (nr % 8));
}

static inline void zf2fs_lbit_set(uint8_t *map, uint64_t nr)
{
	map[nr / 8] |= (uint8_t)(1u << (nr % 8));
}

static inline void zf2fs_lbit_clear(uint8_t *map, uint64_t nr)
{
	map[nr / 8] &= (uint8_t)~(1u << (nr % 8));
}

/* ---- SIT entries ---------------------------------------------------------------------- */
/* vblocks holds the log type above ZF2FS_SIT_VBLOCKS_BITS and the valid count below. */
static inline uint32_t zf2fs_vblocks_count(uint32_t vblocks)
{
	return vblocks & ZF2FS_SIT_VBLOCKS_MASK;
}

static inline uint32_t zf2fs_vblocks_type(uint32_t vblocks)
{
	return vblocks >> ZF2FS_SIT_VBLOCKS_BITS;
}

static inline uint32_t zf2fs_vblocks_make(uint32_t type, uint32_t count)
{
	return (type << ZF2FS_SIT_VBLOCKS_BITS) | (count & ZF2FS_SIT_VBLOCKS_MASK);
}

static inline uint32_t zf2fs_sit_valid_blocks(const struct zf2fs_sit_entry *se)
{
	return zf2fs_vblocks_count((uint32_t)zf2fs_get(se->vblocks));
}

static inline uint32_t zf2fs_sit_type(const struct zf2fs_sit_entry *se)
{
	return zf2fs_vblocks_type((uint32_t)zf2fs_get(se->vblocks));
}

static inline void zf2fs_sit_set_vblocks(struct zf2fs_sit_entry *se, uint32_t type,
					 uint32_t count)
{
	zf2fs_set(se->vblocks, zf2fs_vblocks_make(type, count));
}

static inline void zf2fs_sit_set_valid_blocks(struct zf2fs_sit_entry *se, uint32_t count)
{
	zf2fs_sit_set_vblocks(se, zf2fs_sit_type(se), count);
}

static inline void zf2fs_sit_set_type(struct zf2fs_sit_entry *se, uint32_t type)
{
	zf2fs_sit_set_vblocks(se, type, zf2fs_sit_valid_blocks(se));
}

/* Block @off (0..511) of the segment in the validity map. */
static inline bool zf2fs_sit_block_valid(const struct zf2fs_sit_entry *se, uint32_t off)
{
	return zf2fs_hbit_test(se->valid_map, off);
}

static inline void zf2fs_sit_block_set(struct zf2fs_sit_entry *se, uint32_t off)
{
	zf2fs_hbit_set(se->valid_map, off);
}

static inline void zf2fs_sit_block_clear(struct zf2fs_sit_entry *se, uint32_t off)
{
	zf2fs_hbit_clear(se->valid_map, off);
}

/* Mark block @off valid (or not) in its segment's entry, the count following; false when
 * it already was. */
static inline bool zf2fs_sit_mark(struct zf2fs_sit_entry *se, uint32_t off, bool valid)
{
	if (zf2fs_sit_block_valid(se, off) == valid)
		return false;
	if (valid)
		zf2fs_sit_block_set(se, off);
	else
		zf2fs_sit_block_clear(se, off);
	zf2fs_sit_set_valid_blocks(se, zf2fs_sit_valid_blocks(se) + (valid ? 1u : (uint32_t)-1));
	return true;
}

/* A segment's modification time after one of its blocks is written or invalidated at
 * volume time @now (seconds of the volume's age: for a tool, the checkpoint's
 * elapsed_time): as the kernel keeps it, @now averaged into the time @old of the @valid
 * blocks the segment held before the change, or @now for a segment without a time. */
static inline uint64_t zf2fs_seg_mtime_next(uint64_t old, uint32_t valid, uint64_t now)
{
	if (!old || old == now)
		return now;
	return (old * valid + now) / ((uint64_t)valid + 1);
}

/* zf2fs_sit_mark, the entry's mtime following (zf2fs_seg_mtime_next) when the mark
 * changes. */
static inline bool zf2fs_sit_mark_at(struct zf2fs_sit_entry *se, uint32_t off, bool valid,
				     uint64_t now)
{
	uint64_t old = zf2fs_get(se->mtime);
	uint32_t v = zf2fs_sit_valid_blocks(se);

	if (!zf2fs_sit_mark(se, off, valid))
		return false;
	zf2fs_set(se->mtime, zf2fs_seg_mtime_next(old, v, now));
	return true;
}

/* Every block of the segment invalid in the map (the count is left to the caller). */
static inline void zf2fs_sit_map_clear(struct zf2fs_sit_entry *se)
{
	for (unsigned i = 0; i < ZF2FS_SIT_MAP_SIZE; i++)
		se->valid_map[i] = 0;
}

/* Bits set in a validity map. */
static inline uint32_t zf2fs_sit_map_weight(const struct zf2fs_sit_entry *se)
{
	uint32_t n = 0;

	for (unsigned i = 0; i < ZF2FS_SIT_MAP_SIZE; i++)
		n += (uint32_t)__builtin_popcount(se->valid_map[i]);
	return n;
}

/* The SIT block holding segment @segno's entry, and the entry's index in it. */
static inline uint32_t zf2fs_sit_block_index(uint32_t segno)
{
	return segno / (uint32_t)ZF2FS_SIT_PER_BLOCK;
}

static inline uint32_t zf2fs_sit_entry_index(uint32_t segno)
{
	return segno % (uint32_t)ZF2FS_SIT_PER_BLOCK;
}

/* Segment @entry of SIT block @block. */
static inline uint32_t zf2fs_sit_block_segno(uint32_t block, uint32_t entry)
{
	return block * (uint32_t)ZF2FS_SIT_PER_BLOCK + entry;
}

/* ---- main-area addresses -------------------------------------------------------------- */
/* The segment (counted from the main area) of block @blk, and the block's offset in it;
 * @main_blkaddr is the first block of the main area. */
static inline uint32_t zf2fs_main_segno(uint64_t main_blkaddr, uint64_t blk)
{
	return (uint32_t)((blk - main_blkaddr) / ZF2FS_BLOCKS_PER_SEG);
}

static inline uint32_t zf2fs_main_seg_off(uint64_t main_blkaddr, uint64_t blk)
{
	return (uint32_t)((blk - main_blkaddr) % ZF2FS_BLOCKS_PER_SEG);
}

/* Block @off of main segment @segno. */
static inline uint64_t zf2fs_main_blk(uint64_t main_blkaddr, uint32_t segno, uint32_t off)
{
	return main_blkaddr + (uint64_t)segno * ZF2FS_BLOCKS_PER_SEG + off;
}

/* ---- superblocks and checkpoint packs ------------------------------------------------- */
/* The two superblock copies sit in blocks 0 and 1 of the volume. */
static inline uint64_t zf2fs_super_blkaddr(int copy)
{
	return copy ? 1 : 0;
}

/* The block of the other copy than @copy. */
static inline uint64_t zf2fs_super_other_blkaddr(int copy)
{
	return zf2fs_super_blkaddr(!copy);
}

/* The closing checkpoint block of the pack starting at @pack_addr whose header gives
 * @total blocks; @pack_addr itself when @total cannot be a pack's size (a pack has its
 * two checkpoint blocks and fits in its segment), so that a damaged count never points
 * elsewhere. */
static inline uint64_t zf2fs_cp_pack_last(uint64_t pack_addr, uint64_t total)
{
	return total >= 2 && total <= ZF2FS_BLOCKS_PER_SEG ? pack_addr + total - 1 : pack_addr;
}

/* ---- sizes ---------------------------------------------------------------------------- */
/* Bytes of a sector from the superblock's log2 field. */
static inline uint32_t zf2fs_sector_size(uint32_t log_sectorsize)
{
	return 1u << log_sectorsize;
}

/* Sectors in @blocks blocks from the superblock's log_sectors_per_block. */
static inline uint64_t zf2fs_blocks_to_sectors(uint64_t blocks, uint32_t log_sectors_per_block)
{
	return blocks << log_sectors_per_block;
}

/* Whole MiB in @blocks blocks. */
static inline uint64_t zf2fs_blocks_to_mib(uint64_t blocks)
{
	return blocks / (1024u * 1024u / ZF2FS_BLKSIZE);
}

/* ---- NAT entries ---------------------------------------------------------------------- */
static inline uint32_t zf2fs_nat_block_index(uint32_t nid)
{
	return nid / (uint32_t)ZF2FS_NAT_PER_BLOCK;
}

static inline uint32_t zf2fs_nat_entry_index(uint32_t nid)
{
	return nid % (uint32_t)ZF2FS_NAT_PER_BLOCK;
}

/* Nid of entry @entry of NAT block @block. */
static inline uint32_t zf2fs_nat_block_nid(uint32_t block, uint32_t entry)
{
	return block * (uint32_t)ZF2FS_NAT_PER_BLOCK + entry;
}

static inline uint32_t zf2fs_nat_ino(const struct zf2fs_nat_entry *e)
{
	return (uint32_t)zf2fs_get(e->ino);
}

static inline uint32_t zf2fs_nat_addr(const struct zf2fs_nat_entry *e)
{
	return (uint32_t)zf2fs_get(e->block_addr);
}

static inline void zf2fs_nat_set(struct zf2fs_nat_entry *e, uint8_t version, uint32_t ino,
				 uint32_t blkaddr)
{
	e->version = version;
	zf2fs_set(e->ino, ino);
	zf2fs_set(e->block_addr, blkaddr);
}

/* ---- node footers -------------------------------------------------------------------- */
/* A node's offset in its inode's tree: the footer flag above the cold, fsync and dentry
 * marks (0 for an inode). */
static inline uint32_t zf2fs_footer_ofs(const struct zf2fs_node *n)
{
	return (uint32_t)(zf2fs_get(n->footer.flag) >> ZF2FS_FOOTER_OFS_SHIFT);
}

/* Set the offset, keeping the marks. */
static inline void zf2fs_footer_set_ofs(struct zf2fs_node *n, uint32_t ofs)
{
	uint32_t marks = (uint32_t)zf2fs_get(n->footer.flag) &
			 ((1u << ZF2FS_FOOTER_OFS_SHIFT) - 1);

	zf2fs_set(n->footer.flag, (ofs << ZF2FS_FOOTER_OFS_SHIFT) | marks);
}

/* The summary footer type of log @log's segments (ZF2FS_LOG_*): node logs hold nodes. */
static inline uint8_t zf2fs_log_sum_type(int log)
{
	return log >= ZF2FS_LOG_HOT_NODE ? ZF2FS_SUM_TYPE_NODE : ZF2FS_SUM_TYPE_DATA;
}

/* ---- metadata area sizes -------------------------------------------------------------- */
/* SIT blocks that describe @segments segments (one copy). */
static inline uint32_t zf2fs_sit_blocks(uint32_t segments)
{
	return (uint32_t)(((uint64_t)segments + ZF2FS_SIT_PER_BLOCK - 1) / ZF2FS_SIT_PER_BLOCK);
}

/* NAT blocks that give a nid to each of @blocks blocks (one copy). */
static inline uint32_t zf2fs_nat_blocks(uint64_t blocks)
{
	return (uint32_t)((blocks + ZF2FS_NAT_PER_BLOCK - 1) / ZF2FS_NAT_PER_BLOCK);
}

/* SSA blocks for @segments main-area segments: one summary block each. */
static inline uint32_t zf2fs_ssa_blocks(uint32_t segments)
{
	return segments;
}

/* Where copy @copy (0 or 1) of NAT block @idx lives in a NAT area starting at @nat_blkaddr:
 * each pair of NAT segments holds copy 0, then copy 1, of 512 consecutive blocks. */
static inline uint64_t zf2fs_nat_copy_addr(uint64_t nat_blkaddr, uint32_t idx, unsigned copy)
{
	return nat_blkaddr + (uint64_t)(idx / ZF2FS_BLOCKS_PER_SEG) * 2 * ZF2FS_BLOCKS_PER_SEG +
	       idx % ZF2FS_BLOCKS_PER_SEG + (copy ? ZF2FS_BLOCKS_PER_SEG : 0);
}

/* Where copy @copy of SIT block @idx lives in a SIT area at @sit_blkaddr whose copies
 * hold @sit_blocks blocks each (half the area): copy 0 in the first half. */
static inline uint64_t zf2fs_sit_copy_addr(uint64_t sit_blkaddr, uint32_t sit_blocks, uint32_t idx,
					   unsigned copy)
{
	return sit_blkaddr + idx + (copy ? sit_blocks : 0);
}

/* Segments that hold @blocks blocks. */
static inline uint32_t zf2fs_blocks_to_segs(uint64_t blocks)
{
	return (uint32_t)((blocks + ZF2FS_BLOCKS_PER_SEG - 1) / ZF2FS_BLOCKS_PER_SEG);
}

/* ---- directories ---------------------------------------------------------------------- */
/* Dentry slots a name of @len bytes takes. */
static inline uint32_t zf2fs_dentry_slots(uint32_t len)
{
	return (len + ZF2FS_SLOT_LEN - 1) / ZF2FS_SLOT_LEN;
}

/* Byte of a dentry bitmap holding slot @slot's bit, and the bit's mask in that byte. */
static inline uint32_t zf2fs_dentry_bit_byte(uint32_t slot)
{
	return slot / 8;
}

static inline uint8_t zf2fs_dentry_bit_mask(uint32_t slot)
{
	return (uint8_t)(1u << (slot % 8));
}

static inline bool zf2fs_dentry_bit_test(const uint8_t *bitmap, uint32_t slot)
{
	return zf2fs_lbit_test(bitmap, slot);
}

static inline void zf2fs_dentry_bit_set(uint8_t *bitmap, uint32_t slot)
{
	zf2fs_lbit_set(bitmap, slot);
}

static inline void zf2fs_dentry_bit_clear(uint8_t *bitmap, uint32_t slot)
{
	zf2fs_lbit_clear(bitmap, slot);
}

/* Hash buckets of a directory: level @level holds 2^(level + i_dir_level) buckets (at most
 * 2^30) of 2 blocks (4 from level 31 on).  Everything in uint64_t: the deep levels
 * overflow 32 bits. */
static inline uint64_t zf2fs_dir_buckets(uint32_t level, uint32_t dir_level)
{
	if ((uint64_t)level + dir_level < ZF2FS_MAX_DIR_HASH_DEPTH / 2)
		return 1ull << (level + dir_level);
	return 1ull << (ZF2FS_MAX_DIR_HASH_DEPTH / 2 - 1);
}

static inline uint64_t zf2fs_dir_bucket_blocks(uint32_t level)
{
	return level < ZF2FS_MAX_DIR_HASH_DEPTH / 2 ? 2 : 4;
}

/* First dentry block of level @level. */
static inline uint64_t zf2fs_dir_level_start(uint32_t level, uint32_t dir_level)
{
	uint64_t b = 0;

	for (uint32_t i = 0; i < level; i++)
		b += zf2fs_dir_buckets(i, dir_level) * zf2fs_dir_bucket_blocks(i);
	return b;
}

/* First dentry block of bucket @bucket of level @level. */
static inline uint64_t zf2fs_dir_bucket_start(uint32_t level, uint32_t dir_level,
					      uint64_t bucket)
{
	return zf2fs_dir_level_start(level, dir_level) + bucket * zf2fs_dir_bucket_blocks(level);
}

/* Level and bucket of dentry block @bidx; false beyond the deepest level. */
static inline bool zf2fs_dir_block_bucket(uint64_t bidx, uint32_t dir_level,
					  uint32_t *ret_level, uint64_t *ret_bucket)
{
	uint64_t start = 0;

	for (uint32_t l = 0; l < ZF2FS_MAX_DIR_HASH_DEPTH; l++) {
		uint64_t n = zf2fs_dir_buckets(l, dir_level) * zf2fs_dir_bucket_blocks(l);

		if (bidx < start + n) {
			*ret_level = l;
			*ret_bucket = (bidx - start) / zf2fs_dir_bucket_blocks(l);
			return true;
		}
		start += n;
	}
	return false;
}

/* Bucket of level @level a name of hash @hash belongs in. */
static inline uint64_t zf2fs_dir_hash_bucket(uint32_t hash, uint32_t level, uint32_t dir_level)
{
	return hash % zf2fs_dir_buckets(level, dir_level);
}

/* Whether a name of hash @hash may sit in dentry block @bidx: the block lies in the bucket
 * the hash picks at the block's level. */
static inline bool zf2fs_dir_hash_in_block(uint32_t hash, uint64_t bidx, uint32_t dir_level)
{
	uint32_t level;
	uint64_t bucket;

	return zf2fs_dir_block_bucket(bidx, dir_level, &level, &bucket) &&
	       zf2fs_dir_hash_bucket(hash, level, dir_level) == bucket;
}

/* i_current_depth that covers dentry block @bidx (the kernel looks only at the levels
 * below it); 0 beyond the deepest level. */
static inline uint32_t zf2fs_dir_depth_covering(uint64_t bidx, uint32_t dir_level)
{
	uint32_t level;
	uint64_t bucket;

	return zf2fs_dir_block_bucket(bidx, dir_level, &level, &bucket) ? level + 1 : 0;
}

/* i_dir_level values that place names differently (0 .. this - 1): from
 * ZF2FS_MAX_DIR_HASH_DEPTH / 2 - 1 on, even level 0 has the most buckets (2^30), so every
 * larger value places names as that one does. */
#define ZF2FS_DIR_LEVEL_SETTINGS (ZF2FS_MAX_DIR_HASH_DEPTH / 2)

/* ---- logs ----------------------------------------------------------------------------- */
/* "hot_data" .. "cold_node" for ZF2FS_LOG_HOT_DATA .. ZF2FS_LOG_COLD_NODE, else "unknown". */
/* ---- xattrs ----------------------------------------------------------------------------- */
/* Bytes an xattr entry takes, its name and value included (4-byte aligned). */
static inline uint32_t zf2fs_xattr_entry_size(const struct zf2fs_xattr_entry *e)
{
	return (4u + e->e_name_len + (uint32_t)zf2fs_get(e->e_value_size) + 3u) & ~3u;
}

/* ---- inodes ----------------------------------------------------------------------------- */
/* The file type bits (ZF2FS_S_IF*) of mode @mode, and of inode @in. */
static inline uint32_t zf2fs_mode_type(uint32_t mode)
{
	return mode & ZF2FS_S_IFMT;
}

static inline uint32_t zf2fs_inode_type(const struct zf2fs_inode *in)
{
	return zf2fs_mode_type((uint32_t)zf2fs_get(in->i_mode));
}

/* Whether the extra attributes of inode @in reach byte @end of the inode (a field's offset
 * plus its size): the kernel reads a field of them only then (F2FS_FITS_IN_INODE). */
static inline bool zf2fs_inode_extra_holds(const struct zf2fs_inode *in, size_t end)
{
	return (in->i_inline & ZF2FS_EXTRA_ATTR) &&
	       zf2fs_get(in->i_extra_isize) >= end - offsetof(struct zf2fs_inode, i_extra_isize);
}

/* Whether inode @in carries a checksum on a volume with @features: inode_checksum on and
 * the extra attributes reaching the field. */
static inline bool zf2fs_inode_has_checksum(const struct zf2fs_inode *in, uint32_t features)
{
	return (features & ZF2FS_FEAT_INODE_CHKSUM) &&
	       zf2fs_inode_extra_holds(in, offsetof(struct zf2fs_inode, i_inode_checksum) + 4);
}

/* Byte position in an inode's block of block address slot @i (counted after the
 * @extra_words words of extra attributes, zf2fs_inode_geometry), and of node id slot @i. */
static inline size_t zf2fs_inode_addr_pos(uint32_t extra_words, uint32_t i)
{
	return offsetof(struct zf2fs_inode, i_addr) + 4 * ((size_t)extra_words + i);
}

static inline size_t zf2fs_inode_nid_pos(uint32_t i)
{
	return offsetof(struct zf2fs_inode, i_nid) + 4 * (size_t)i;
}

/* ---- node footers ---------------------------------------------------------------------- */
/* Little-endian 32-bit words of a node block before its footer (i_addr, i_nid, direct and
 * indirect node arrays: every place a block address or nid may lie), and word @i. */
static inline uint32_t zf2fs_node_nr_words(void)
{
	return (uint32_t)(offsetof(struct zf2fs_node, footer) / 4);
}

static inline uint32_t zf2fs_node_word(const void *blk, uint32_t i)
{
	return zf2fs_get_le32p((const uint8_t *)blk + (uint64_t)i * 4);
}

/* The dentry mark: an fsync'd inode whose name roll-forward recovery re-creates. */
static inline bool zf2fs_node_dent_marked(const struct zf2fs_node *n)
{
	return zf2fs_get(n->footer.flag) & ZF2FS_FOOTER_DENT_BIT;
}

static inline const char *zf2fs_log_name(uint32_t type)
{
	static const char *const names[ZF2FS_NR_CURSEG] = {
		"hot_data", "warm_data", "cold_data", "hot_node", "warm_node", "cold_node",
	};

	return type < ZF2FS_NR_CURSEG ? names[type] : "unknown";
}

#endif /* ZF2FS_ACCESS_H */
