// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * checkpoint.c - find the checkpoint pack the kernel would mount from.
 *
 * A pack is valid when its first and last blocks both carry a good checksum and the same
 * version; of two valid packs the newer version wins.  The winner is then checked against
 * the superblock the way the kernel does before trusting it (segment counts, current
 * segments, bitmap sizes, summary positions, nat_bits room).  At the end: the roll-forward
 * rules tied to a checkpoint (which node blocks written after it the kernel replays, and
 * the footer fields that chain them).
 */
#include "config.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/volume.h"
#include "read/volume_p.h"
#include "format/why_p.h"

/* Check one CP block's checksum; ret_ver gets its version. */
static int cp_block_ok(const struct zf2fs_geom *g, const uint8_t *blk, uint64_t *ret_ver)
{
	const struct zf2fs_checkpoint *cp = (const void *)blk;
	uint32_t crc, off = (uint32_t)zf2fs_get(cp->checksum_offset);

	if (zf2fs_cp_checksum2(g, blk, &crc))
		return -ZF2FS_EFSCORRUPTED;
	if (crc != zf2fs_get_le32p(blk + off))
		return -ZF2FS_EFSCORRUPTED;
	*ret_ver = zf2fs_get(cp->checkpoint_ver);
	return 0;
}

int zf2fs_cp_pack_probe(struct zf2fs_vol *vol, unsigned pack, uint8_t *first,
			uint64_t *ret_ver, char *why, size_t whylen)
{
	uint64_t start = zf2fs_get(vol->sb.cp_blkaddr) + (uint64_t)pack * ZF2FS_BLOCKS_PER_SEG;
	uint8_t *last = malloc(vol->geom.blocksize);
	uint64_t v1, v2;
	uint32_t total;
	int err;

	if (!last)
		return -ENOMEM;
	err = zf2fs_vol_read_block(vol, start, first);
	if (err)
		goto out;
	if (cp_block_ok(&vol->geom, first, &v1)) {
		err = zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: pack %u block 0 at %llu, bad checksum",
			  pack + 1, (unsigned long long)start);
		goto out;
	}
	total = (uint32_t)zf2fs_get(((struct zf2fs_checkpoint *)first)->cp_pack_total_block_count);
	if (total < 2 || total > ZF2FS_BLOCKS_PER_SEG) {
		err = zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: pack %u, cp_pack_total_block_count, "
			  "bad value %u", pack + 1, total);
		goto out;
	}
	err = zf2fs_vol_read_block(vol, start + total - 1, last);
	if (err)
		goto out;
	if (cp_block_ok(&vol->geom, last, &v2)) {
		err = zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: pack %u last block at %llu, bad checksum",
			  pack + 1, (unsigned long long)(start + total - 1));
		goto out;
	}
	if (v1 != v2) {
		err = zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: pack %u, versions of first and last "
			  "block differ (%llu, %llu)", pack + 1, (unsigned long long)v1,
			  (unsigned long long)v2);
		goto out;
	}
	*ret_ver = v1;
out:
	free(last);
	return err;
}

/* The kernel's checks of a checkpoint against its superblock at mount
 * (f2fs_sanity_check_ckpt): a pack that fails one of them is refused. */
static int cp_verify_kernel(const struct zf2fs_super *sb, const struct zf2fs_geom *g,
			    const struct zf2fs_checkpoint *cp, char *why, size_t whylen)
{
	uint32_t total = (uint32_t)zf2fs_get(sb->segment_count);
	uint32_t sit_segs = (uint32_t)zf2fs_get(sb->segment_count_sit);
	uint32_t nat_segs = (uint32_t)zf2fs_get(sb->segment_count_nat);
	uint32_t main_segs = (uint32_t)zf2fs_get(sb->segment_count_main);
	uint32_t rsvd = (uint32_t)zf2fs_get(cp->rsvd_segment_count);
	uint32_t ovp = (uint32_t)zf2fs_get(cp->overprov_segment_count);
	uint64_t fsmeta = (uint64_t)zf2fs_get(sb->segment_count_ckpt) + sit_segs + nat_segs + rsvd +
			  zf2fs_get(sb->segment_count_ssa);
	bool ro = zf2fs_get(sb->feature) & ZF2FS_FEAT_RO;
	uint64_t user = zf2fs_get(cp->user_block_count);
	uint32_t payload = (uint32_t)zf2fs_get(sb->cp_payload);
	uint32_t start_sum = (uint32_t)zf2fs_get(cp->cp_pack_start_sum);
	uint64_t nat_blocks = (uint64_t)nat_segs / 2 * ZF2FS_BLOCKS_PER_SEG;
	uint64_t nat_bits_blocks = (nat_blocks / 8 * 2 + 8 + g->blocksize - 1) / g->blocksize;
	uint32_t flags = (uint32_t)zf2fs_get(cp->ckpt_flags);

	if (fsmeta >= total)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: rsvd_segment_count, metadata and "
			   "reserve (%llu) exceed %u segments", (unsigned long long)fsmeta, total);
	if (!ro && (fsmeta < 8 || ovp == 0 || rsvd == 0))
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: overprov/rsvd_segment_count, bad "
			   "values %u/%u", ovp, rsvd);
	if (!user || user >= ((uint64_t)main_segs + (ro ? 1 : 0)) * ZF2FS_BLOCKS_PER_SEG)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: user_block_count, bad value %llu",
			   (unsigned long long)user);
	if (zf2fs_get(cp->valid_block_count) > user)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: valid_block_count, %llu above "
			   "user_block_count %llu", (unsigned long long)zf2fs_get(cp->valid_block_count),
			   (unsigned long long)user);
	if (zf2fs_get(cp->valid_node_count) > nat_blocks * g->nat_per_block)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: valid_node_count, bad value %llu",
			   (unsigned long long)zf2fs_get(cp->valid_node_count));
	for (int i = 0; i < 3; i++) {
		uint32_t ns = (uint32_t)zf2fs_get(cp->cur_node_segno[i]);
		uint32_t ds = (uint32_t)zf2fs_get(cp->cur_data_segno[i]);

		if (ns >= main_segs || zf2fs_get(cp->cur_node_blkoff[i]) >= ZF2FS_BLOCKS_PER_SEG)
			return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: cur_node_segno[%d], segment %u "
				   "offset %llu", i, ns, (unsigned long long)zf2fs_get(cp->cur_node_blkoff[i]));
		if (ds >= main_segs || zf2fs_get(cp->cur_data_blkoff[i]) >= ZF2FS_BLOCKS_PER_SEG)
			return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: cur_data_segno[%d], segment %u "
				   "offset %llu", i, ds, (unsigned long long)zf2fs_get(cp->cur_data_blkoff[i]));
		if (ro)
			continue;
		for (int j = 0; j < 3; j++) {
			if (j > i && ns == zf2fs_get(cp->cur_node_segno[j]))
				return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: node logs %d and %d share "
					   "segment %u", i, j, ns);
			if (j > i && ds == zf2fs_get(cp->cur_data_segno[j]))
				return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: data logs %d and %d share "
					   "segment %u", i, j, ds);
			if (ns == zf2fs_get(cp->cur_data_segno[j]))
				return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: node log %d and data log "
					   "%d share segment %u", i, j, ns);
		}
	}
	if (zf2fs_get(cp->sit_ver_bitmap_bytesize) != (uint64_t)sit_segs / 2 * ZF2FS_BLOCKS_PER_SEG / 8 ||
	    zf2fs_get(cp->nat_ver_bitmap_bytesize) != (uint64_t)nat_segs / 2 * ZF2FS_BLOCKS_PER_SEG / 8)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: sit/nat_ver_bitmap_bytesize, bad values "
			   "%llu/%llu", (unsigned long long)zf2fs_get(cp->sit_ver_bitmap_bytesize),
			   (unsigned long long)zf2fs_get(cp->nat_ver_bitmap_bytesize));
	if (zf2fs_get(cp->sit_ver_bitmap_bytesize) * 8 <
	    zf2fs_geom_sit_blocks(g, main_segs))
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: sit_ver_bitmap_bytesize, too small");
	if (start_sum < payload + 1 || start_sum > ZF2FS_BLOCKS_PER_SEG - 1 - ZF2FS_NR_CURSEG)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: cp_pack_start_sum, bad value %u",
			   start_sum);
	if ((flags & ZF2FS_CP_LARGE_NAT_BITMAP_FLAG) &&
	    zf2fs_get(cp->checksum_offset) != ZF2FS_CP_BITMAP_OFFSET)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: checksum_offset, large NAT bitmap "
			   "layout with offset %llu", (unsigned long long)zf2fs_get(cp->checksum_offset));
	if (!(flags & ZF2FS_CP_LARGE_NAT_BITMAP_FLAG) &&
	    zf2fs_get(cp->checksum_offset) != g->cp_chksum_offset)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: checksum_offset, bad value %llu",
			   (unsigned long long)zf2fs_get(cp->checksum_offset));
	if ((flags & ZF2FS_CP_NAT_BITS_FLAG) &&
	    payload + ZF2FS_CP_PACKS + ZF2FS_NR_CURSEG + nat_bits_blocks >= ZF2FS_BLOCKS_PER_SEG)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: cp_payload %u with %llu nat_bits blocks "
			   "overflows the pack", payload, (unsigned long long)nat_bits_blocks);
	return 0;
}

/* Where the summaries sit in the pack.  The kernel does not check this at mount: it takes
 * the pack and reads the logs' summaries and journals from the blocks the flags and the
 * count point at, so a pack failing here is mounted with other blocks' summaries. */
static int cp_verify_sums(const struct zf2fs_super *sb, const struct zf2fs_checkpoint *cp,
			  char *why, size_t whylen)
{
	uint32_t payload = (uint32_t)zf2fs_get(sb->cp_payload);
	uint32_t start_sum = (uint32_t)zf2fs_get(cp->cp_pack_start_sum);
	uint32_t flags = (uint32_t)zf2fs_get(cp->ckpt_flags);

	if (zf2fs_get(cp->cp_pack_total_block_count) < (uint64_t)start_sum + 2)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: cp_pack_total_block_count, %llu too "
			   "small", (unsigned long long)zf2fs_get(cp->cp_pack_total_block_count));
	/* The kernel writes the summaries right after the payload and the orphan blocks, and
	 * orphan blocks only with the orphan flag; it reads the data summaries from
	 * cp_pack_start_sum and the node summaries back from the pack's end, so a start
	 * that does not follow the payload, or a pack too short for both, gives every log
	 * another log's summaries and journals. */
	if (!(flags & ZF2FS_CP_ORPHAN_PRESENT_FLAG) && start_sum != payload + 1)
		return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: cp_pack_start_sum %u, without "
			   "orphan blocks the summaries start at %u", start_sum, payload + 1);
	/* The pack ends with the data summaries (three blocks, or one to three compacted),
	 * the node summaries with the umount or fastboot flag only, and the closing block;
	 * the kernel finds the summaries counting back from the end, by the flags, so a
	 * count or flags that disagree give the logs other blocks' summaries. */
	{
		uint64_t nodes = (flags & (ZF2FS_CP_UMOUNT_FLAG | ZF2FS_CP_FASTBOOT_FLAG)) ?
				 ZF2FS_NR_CURSEG / 2 : 0;
		uint64_t lo = start_sum + ((flags & ZF2FS_CP_COMPACT_SUM_FLAG) ? 1 : 3) + nodes + 1;
		uint64_t hi = start_sum + 3 + nodes + 1;
		uint64_t count = zf2fs_get(cp->cp_pack_total_block_count);

		if (count < lo || count > hi)
			return zf2fs_set_why(why, whylen, -ZF2FS_EFSCORRUPTED, "corrupt checkpoint: "
					     "cp_pack_total_block_count %llu, summaries from block %u "
					     "%s node summaries take %llu to %llu", (unsigned long long)count,
					     start_sum, nodes ? "with" : "without",
					     (unsigned long long)lo, (unsigned long long)hi);
	}
	return 0;
}

int zf2fs_cp_verify(const struct zf2fs_super *sb, const struct zf2fs_geom *g,
		    const struct zf2fs_checkpoint *cp, char *why, size_t whylen,
		    bool *ret_kernel_refuses)
{
	int err = cp_verify_kernel(sb, g, cp, why, whylen);

	*ret_kernel_refuses = err != 0;
	return err ? err : cp_verify_sums(sb, cp, why, whylen);
}

/* Roll-forward recovery (the kernel's test, done at mount): a node block written after the
 * checkpoint is replayed only when its footer carries the checkpoint's version.  With
 * CRC recovery on, the upper half holds the checkpoint block's checksum too; a checkpoint
 * written by fsck may set NOCRC, and then only the lower 32 bits are compared. */
ZF2FS_EXPORT bool zf2fs_cp_node_recoverable2(const struct zf2fs_geom *g,
					     const struct zf2fs_checkpoint *cp, const void *node)
{
	const struct zf2fs_node_footer *f = zf2fs_node_footer(g, node);
	uint64_t flags = zf2fs_get(cp->ckpt_flags), ver = zf2fs_get(cp->checkpoint_ver);
	uint64_t nver = zf2fs_get(f->cp_ver);

	if (flags & ZF2FS_CP_NOCRC_RECOVERY_FLAG)
		return (uint32_t)ver == (uint32_t)nver;
	if (flags & ZF2FS_CP_CRC_RECOVERY_FLAG) {
		uint32_t off = (uint32_t)zf2fs_get(cp->checksum_offset);

		if (off > g->cp_chksum_offset)
			return false;
		ver |= (uint64_t)zf2fs_get_le32p((const uint8_t *)cp + off) << 32;
	}
	return nver == ver;
}

ZF2FS_EXPORT bool zf2fs_cp_node_recoverable(const struct zf2fs_checkpoint *cp,
					    const struct zf2fs_node *n)
{
	return zf2fs_cp_node_recoverable2(zf2fs_geom_4k(), cp, n);
}

ZF2FS_EXPORT uint32_t zf2fs_node_next_blkaddr(const struct zf2fs_node *n)
{
	return (uint32_t)zf2fs_get(n->footer.next_blkaddr);
}

ZF2FS_EXPORT bool zf2fs_node_fsync_marked(const struct zf2fs_node *n)
{
	return zf2fs_get(n->footer.flag) & ZF2FS_FOOTER_FSYNC_BIT;
}

/* Make @n part of a roll-forward chain under @cp (which must not use CRC recovery, see
 * above): its version, and the block the chain continues at (0 ends it). */
ZF2FS_EXPORT void zf2fs_node_set_chain2(const struct zf2fs_geom *g, void *node,
					const struct zf2fs_checkpoint *cp, uint32_t next_blkaddr)
{
	struct zf2fs_node_footer *f = zf2fs_node_footer(g, node);

	zf2fs_set(f->cp_ver, zf2fs_get(cp->checkpoint_ver));
	zf2fs_set(f->next_blkaddr, next_blkaddr);
}

ZF2FS_EXPORT void zf2fs_node_set_chain(struct zf2fs_node *n, const struct zf2fs_checkpoint *cp,
				       uint32_t next_blkaddr)
{
	zf2fs_node_set_chain2(zf2fs_geom_4k(), n, cp, next_blkaddr);
}
