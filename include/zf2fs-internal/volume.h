/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zf2fs-internal/volume.h - a volume's raw metadata (where each table block lives, the
 * journals, the checkpoint packs), the checks fsck makes of inodes, and the writes fsck's
 * repair and the tools make without a transaction (lib/read/).
 *
 * For zf2fs-tools' own programs (fsck, the tools, the tests): not installed, and no ABI
 * promise.  The functions are exported from libzf2fs.so in the version node ZF2FS_PRIVATE
 * of lib/libzf2fs.sym; the installed API is include/zf2fs/.
 */
#ifndef ZF2FS_INTERNAL_VOLUME_H
#define ZF2FS_INTERNAL_VOLUME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/sit_table.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"

/* zf2fs_vol_open: open a volume whose checkpoint packs are all unusable through its
 * superblock alone (for fsck.f2fs --rebuild, which writes a new checkpoint from what it
 * finds on the disk).  The checkpoint then reads as zeroes (zf2fs_vol_has_checkpoint
 * says so): no journal, no log, each table read from its first copy. */
#define ZF2FS_VOL_NO_CHECKPOINT 0x800

/* False when the volume was opened with ZF2FS_VOL_NO_CHECKPOINT and no pack was usable. */
ZF2FS_EXPORT bool zf2fs_vol_has_checkpoint(const struct zf2fs_vol *vol);

/* ---- checkpoint packs, as the kernel judges them ----------------------------------------- */
/* Whether Linux refuses checkpoint pack @i at mount (f2fs_sanity_check_ckpt) although its
 * checksums, header and footer are fine.  False for a pack that zf2fs_vol_cp_problem()
 * calls bad only for where its summaries sit, which the kernel does not check: it mounts
 * the pack and reads the logs' summaries and journals from other blocks. */
ZF2FS_EXPORT bool zf2fs_vol_cp_kernel_refuses(const struct zf2fs_vol *vol, int i);

/* The version of checkpoint pack @i (0 or 1) when its checksums and its header and footer
 * agree, which is all the kernel asks of a pack before taking the newest one and checking
 * its contents (so a pack zf2fs_vol_cp_problem() calls bad may still be the kernel's
 * choice).  -ZF2FS_EFSCORRUPTED otherwise. */
ZF2FS_EXPORT int zf2fs_vol_cp_pack_version(const struct zf2fs_vol *vol, int i,
					   uint64_t *ret_ver);

/* ---- where each metadata block lives (dump.f2fs, inject.f2fs, resize) --------------------- */
/* Where NAT block @idx of the live copy lives. */
ZF2FS_EXPORT uint64_t zf2fs_vol_nat_block_addr(const struct zf2fs_vol *vol, uint32_t idx);
ZF2FS_EXPORT uint64_t zf2fs_vol_sit_block_addr(const struct zf2fs_vol *vol, uint32_t idx);

/* Block @idx of NAT (or SIT) copy @copy (0 or 1), whichever copy is live. */
ZF2FS_EXPORT uint64_t zf2fs_vol_nat_block_copy(const struct zf2fs_vol *vol, uint32_t idx,
					       unsigned copy);
ZF2FS_EXPORT uint64_t zf2fs_vol_sit_block_copy(const struct zf2fs_vol *vol, uint32_t idx,
					       unsigned copy);

/* The summary block (SSA) of main segment @segno: one per segment, or with packed_ssa
 * one per g->sums_per_block segments (zf2fs_geom_ssa_block gives the offset).  Only where the
 * volume has an SSA (zf2fs_vol_has_ssa): on a read-only volume this is a main-area block,
 * no summary. */
ZF2FS_EXPORT uint64_t zf2fs_vol_ssa_block_addr(const struct zf2fs_vol *vol, uint32_t segno);

/* What metadata block @blkaddr is: a block of the checkpoint area (its pack and the
 * offset in it), of the SIT or NAT area (the table block and the copy; the SIT area's
 * slack beyond both copies gives copy 2 and up), or the SSA block of a segment (with
 * packed_ssa the first of the segments it holds).  False when @blkaddr lies outside that
 * area. */
ZF2FS_EXPORT bool zf2fs_vol_cp_block_of(const struct zf2fs_vol *vol, uint64_t blkaddr,
					unsigned *ret_pack, uint32_t *ret_off);
ZF2FS_EXPORT bool zf2fs_vol_sit_block_of(const struct zf2fs_vol *vol, uint64_t blkaddr,
					 uint32_t *ret_idx, unsigned *ret_copy);
ZF2FS_EXPORT bool zf2fs_vol_nat_block_of(const struct zf2fs_vol *vol, uint64_t blkaddr,
					 uint32_t *ret_idx, unsigned *ret_copy);
ZF2FS_EXPORT bool zf2fs_vol_ssa_block_of(const struct zf2fs_vol *vol, uint64_t blkaddr,
					 uint32_t *ret_segno);

/* zf2fs_vol_open_devs with zf2fs_vol_open's @flags (ZF2FS_VOL_BLOCK16K and
 * ZF2FS_VOL_NO_CHECKPOINT count): a library step that reopens the caller's devices opens
 * what the caller said it handles. */
ZF2FS_EXPORT int zf2fs_vol_open_devs_flags(struct zf2fs_dev *const *devs, unsigned n, int flags,
					   const struct zf2fs_log *log, struct zf2fs_vol **ret_vol);

/* First block of checkpoint pack @pack (0 or 1). */
ZF2FS_EXPORT uint64_t zf2fs_vol_cp_pack_addr(const struct zf2fs_vol *vol, unsigned pack);

/* The NAT and SIT journals of the checkpoint in use: g->sum_journal_size bytes, whose
 * entries are reached through zf2fs_journal_nat and zf2fs_journal_sit (geometry.h). */
ZF2FS_EXPORT const struct zf2fs_journal *zf2fs_vol_nat_journal(const struct zf2fs_vol *vol);
ZF2FS_EXPORT const struct zf2fs_journal *zf2fs_vol_sit_journal(const struct zf2fs_vol *vol);

/* Where the NAT journal (@sit false) or SIT journal of the pack in use sits on disk: its
 * block and the byte offset of struct zf2fs_journal in it.  Returns 0. */
ZF2FS_EXPORT int zf2fs_vol_journal_where(const struct zf2fs_vol *vol, bool sit,
					 uint64_t *ret_blkaddr, uint32_t *ret_off);

/* The summary entries of a current segment (512 entries, whatever the block size). */
ZF2FS_EXPORT const struct zf2fs_summary *zf2fs_vol_curseg_summary(const struct zf2fs_vol *vol,
								  int type);

/* Whether the checkpoint's nat_bits (written at unmount, tied to the checkpoint by its
 * version and checksum) say NAT block @idx holds no entry.  False when the checkpoint has
 * no valid nat_bits.  The first call reads them from the checkpoint pack. */
ZF2FS_EXPORT bool zf2fs_vol_nat_block_empty(struct zf2fs_vol *vol, uint32_t idx);

/* ---- inodes as fsck checks them ----------------------------------------------------------- */
/*
 * The cluster markers (ZF2FS_COMPRESS_ADDR) among inode @in's own block address slots
 * (after its extra attributes, before its inline xattrs): their count in *@ret_markers,
 * and in *@ret_log the largest log2 cluster size, up to 8 (the kernel's most), that puts
 * each at the start of a cluster.  Where the slots' bounds are impossible, no marker.
 */
ZF2FS_EXPORT void zf2fs_inode_cluster_markers(const struct zf2fs_inode *in, uint32_t features,
					      uint32_t *ret_markers, uint32_t *ret_log);
/* The same in an inode block of @bg's size (the functions without 2 take 4 KiB). */
struct zf2fs_geom;
ZF2FS_EXPORT void zf2fs_inode_cluster_markers2(const struct zf2fs_geom *bg,
					       const struct zf2fs_inode *in, uint32_t features,
					       uint32_t *ret_markers, uint32_t *ret_log);

/*
 * The bits of @in's i_flags that cannot be there on a volume with @features: the casefold
 * flag without the casefold feature or on anything but a directory (Linux refuses such an
 * inode at iget), the compression flag without the compression feature (Linux never sets
 * it then and ignores it) or together with inline data (Linux refuses that inode).
 * 0 when the flags are possible.
 */
ZF2FS_EXPORT uint32_t zf2fs_inode_flags_bad(const struct zf2fs_inode *in, uint32_t features);
ZF2FS_EXPORT uint32_t zf2fs_inode_flags_bad2(const struct zf2fs_geom *bg,
					     const struct zf2fs_inode *in, uint32_t features);

/*
 * The inline xattr list of inode @in (geometry @g) as the kernel reads it without an xattr
 * node: a header then entries, ended by a zero word that must lie inside the area.  Sets
 * *@ret_start to the area's byte offset in i_addr.  Returns 1 with *@ret_cut set to the
 * byte offset in the area where the end word belongs (before the first entry that does
 * not fit with the end word after it) when the list runs past the area; 0 when it ends
 * inside, or when there is no list to check (no inline xattr flag, an area too small for
 * the header and an end word, or no xattr magic).
 */
ZF2FS_EXPORT int zf2fs_inline_xattr_cut(const struct zf2fs_inode *in,
					const struct zf2fs_inode_geom *g, uint32_t *ret_start,
					uint32_t *ret_cut);
ZF2FS_EXPORT int zf2fs_inline_xattr_cut2(const struct zf2fs_geom *bg, const struct zf2fs_inode *in,
					 const struct zf2fs_inode_geom *g, uint32_t *ret_start,
					 uint32_t *ret_cut);

/* ---- writes without a transaction (fsck's repair and tune, inject.f2fs, resize) ----------- */
/* Write one block (of the volume's block size) by volume address, in place (-ERANGE
 * outside every device):
 * for fsck's repairs and inject.f2fs, which change blocks where they lie. */
ZF2FS_EXPORT int zf2fs_vol_write_block(struct zf2fs_vol *vol, uint64_t blkaddr,
				       const void *buf);

/* From now on, lookups of @nid (and reads of its node) answer @ino at @blkaddr: in memory
 * only, for fsck, which restores a lost entry and writes it in its repair.  -EINVAL for a
 * nid beyond the NAT, -ENOSPC after a few. */
ZF2FS_EXPORT int zf2fs_vol_nat_override(struct zf2fs_vol *vol, uint32_t nid, uint32_t ino,
					uint32_t blkaddr);

/* Segment @segno's entry of @t (zf2fs_sit_table_get) for changing it: allocates its
 * chunk; NULL on -ENOMEM or out of range. */
ZF2FS_EXPORT struct zf2fs_sit_entry *zf2fs_sit_table_mut(struct zf2fs_sit_table *t,
							 uint32_t segno);

/* Fill a zeroed inode block @node for inode @ino (its footer too, offset 0) as the kernel
 * creates one: @mode, 2 links for a directory and 1 otherwise, one block (itself), the
 * three times @now, parent @pino and @name (@len bytes, at most ZF2FS_NAME_LEN), extra
 * attributes (and i_crtime) when @features has them.  Directories' nodes are hot, other
 * nodes cold.  The checksum is left to whoever writes the block.  -EINVAL for a bad @len. */
ZF2FS_EXPORT int zf2fs_inode_init(struct zf2fs_node *node, uint32_t features, uint32_t ino,
				  uint32_t pino, const char *name, size_t len, uint32_t mode,
				  uint64_t now);
/* The same in a zeroed node block of @g's size (its footer at the block's end). */
ZF2FS_EXPORT int zf2fs_inode_init2(const struct zf2fs_geom *g, void *node, uint32_t features,
				   uint32_t ino, uint32_t pino, const char *name, size_t len,
				   uint32_t mode, uint64_t now);

/* Put @n in a roll-forward chain of @cp (a checkpoint with NOCRC recovery or without CRC
 * recovery): @cp's version and the next block, 0 to end the chain. */
ZF2FS_EXPORT void zf2fs_node_set_chain(struct zf2fs_node *n, const struct zf2fs_checkpoint *cp,
				       uint32_t next_blkaddr);
/* The same in a node block of @g's size. */
struct zf2fs_geom;
ZF2FS_EXPORT void zf2fs_node_set_chain2(const struct zf2fs_geom *g, void *node,
					const struct zf2fs_checkpoint *cp, uint32_t next_blkaddr);

/* ---- reading many blocks in another order than the disk's ------------------------------- */
/* The kernel is asked to start reading blocks @blks[0..@n) now (a request per run of
 * adjacent blocks, in address order: @blks is sorted in place), for a reader that needs
 * them soon, one at a time and in another order (fsck: a directory's inodes, in its names'
 * order).  Only a hint: reads give the same bytes with or without it; nothing for memory
 * devices and addresses outside the volume. */
ZF2FS_EXPORT void zf2fs_vol_willneed(struct zf2fs_vol *vol, uint64_t *blks, size_t n);

/* Whether node block @blk (of @g's size) has a footer that can be a node's: nid and ino
 * node numbers (from 3 up, below @max_nid), an inode naming itself at offset 0, any other
 * node at a nonzero offset.  Data can pass by chance. */
static inline bool zf2fs_footer_can_be_node(const struct zf2fs_geom *g, const void *blk,
					    uint64_t max_nid)
{
	const struct zf2fs_node_footer *f = zf2fs_node_footer(g, blk);
	uint64_t nid = zf2fs_get(f->nid), ino = zf2fs_get(f->ino);
	uint32_t ofs = zf2fs_node_ofs(g, blk);

	if (nid < ZF2FS_RESERVED_NIDS || nid >= max_nid ||
	    ino < ZF2FS_RESERVED_NIDS || ino >= max_nid)
		return false;
	return nid == ino ? ofs == 0 : ofs != 0;
}

/* Read the whole main area in address order and call @fn for each block whose footer can
 * be a node's (nid and ino node numbers of the volume; an inode names itself at offset 0,
 * other nodes have a nonzero offset), with its address and bytes (valid during the call).
 * For finding nodes without the NAT; data can pass by chance.  A block that cannot be
 * read is passed over.  Returns the first nonzero return of @fn, 0, or -ENOMEM. */
ZF2FS_EXPORT int zf2fs_vol_scan_nodes(struct zf2fs_vol *vol,
				      int (*fn)(void *arg, uint64_t blkaddr, const void *node),
				      void *arg);
/* The same for the @count blocks from @blk (split where they cross devices). */
ZF2FS_EXPORT void zf2fs_vol_willneed_run(struct zf2fs_vol *vol, uint64_t blk, uint32_t count);
/* Read @count blocks from @blk (one device) from a second thread that reads ahead of the
 * program: safe beside the program's own reads, logs nothing (the program reports what
 * it cannot read when it reads it), traced with an "ra" mark.  0 or a negative errno. */
ZF2FS_EXPORT int zf2fs_vol_read_ahead(struct zf2fs_vol *vol, uint64_t blk, uint32_t count,
				      void *buf);

/* Read the first zf2fs_vol_preload_max() blocks of @blks[0..@n) now, in address order (a
 * request per run of adjacent blocks), and keep them for the single-block reads
 * (zf2fs_vol_read_block) that follow, in place of the window before; @n 0 frees it.  Only
 * a way to read faster: a block it could not read, or one written since, is read from the
 * device when asked for, and reports its error then.  Returns how many were taken. */
ZF2FS_EXPORT size_t zf2fs_vol_preload(struct zf2fs_vol *vol, const uint64_t *blks, size_t n);
ZF2FS_EXPORT size_t zf2fs_vol_preload_max(const struct zf2fs_vol *vol);

#endif /* ZF2FS_INTERNAL_VOLUME_H */
