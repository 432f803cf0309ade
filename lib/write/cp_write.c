// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cp_write.c - write one checkpoint pack, the last step of every change to a volume.
 *
 * A pack is: the CP block, cp_payload blocks (the rest of the SIT version bitmap),
 * orphan blocks, the current segments' summaries (compacted or not), the CP block again;
 * and, when there is room behind it in the segment, the nat_bits blocks.  The kernel
 * takes a pack whose first and last CP blocks both check and carry the same version, so
 * writing the first CP block last makes the pack appear atomically (fs/f2fs/checkpoint.c,
 * validate_checkpoint).  mkfs (lib/write/mkfs_write.c) and the transaction (lib/write/txn.c) both
 * write through here, so the pack's shape has one owner.
 */
#include "config.h"
#include <errno.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"
#include "write/cp_write_p.h"

int zf2fs_cp_pack_write(struct zf2fs_cp_pack *p, const struct zf2fs_cp_io *io)
{
	struct zf2fs_checkpoint *cp = (struct zf2fs_checkpoint *)p->cp;
	uint32_t flags = (uint32_t)zf2fs_get(cp->ckpt_flags);
	/* node summaries only in a pack the kernel reads them from: after an umount (or a
	 * fastboot) checkpoint; otherwise it rebuilds them from the node footers
	 * (fs/f2fs/checkpoint.c, do_checkpoint and __remain_node_summaries) */
	bool node_sums = flags & (ZF2FS_CP_UMOUNT_FLAG | ZF2FS_CP_FASTBOOT_FLAG);
	uint32_t nsums = (p->compact ? 1 : 3) + (node_sums ? 3 : 0);
	uint32_t total = 1 + p->payload + p->orphan_blocks + nsums + 1;
	uint64_t at = p->start + 1, ver = zf2fs_get(cp->checkpoint_ver);
	bool nat_bits = p->nat_bits && total + p->nat_bits_blocks <= ZF2FS_BLOCKS_PER_SEG;
	size_t bs = p->blocksize ? p->blocksize : ZF2FS_BLKSIZE;
	struct zf2fs_geom g;
	uint32_t crc = 0;
	int err;

	if (total > ZF2FS_BLOCKS_PER_SEG)
		return -E2BIG;
	flags &= ~(ZF2FS_CP_COMPACT_SUM_FLAG | ZF2FS_CP_ORPHAN_PRESENT_FLAG |
		   ZF2FS_CP_NAT_BITS_FLAG);
	if (p->compact)
		flags |= ZF2FS_CP_COMPACT_SUM_FLAG;
	if (p->orphan_blocks)
		flags |= ZF2FS_CP_ORPHAN_PRESENT_FLAG;
	if (nat_bits)
		flags |= ZF2FS_CP_NAT_BITS_FLAG;
	zf2fs_set(cp->ckpt_flags, flags);
	zf2fs_set(cp->cp_pack_total_block_count, total);
	zf2fs_set(cp->cp_pack_start_sum, 1 + p->payload + p->orphan_blocks);
	/* the crc covers the whole block: its size decides where it ends */
	err = zf2fs_geom_init(&g, (uint32_t)__builtin_ctzl(bs), 0);
	if (!err)
		err = zf2fs_cp_checksum2(&g, cp, &crc);
	if (err)
		return err;
	zf2fs_put_le32p(p->cp + zf2fs_get(cp->checksum_offset), crc);

	for (uint32_t i = 0; i < p->payload && !err; i++)
		err = io->write(io->arg, at++, p->cp + (size_t)(i + 1) * bs);
	for (uint32_t i = 0; i < p->orphan_blocks && !err; i++)
		err = io->write(io->arg, at++, p->orphans + (size_t)i * bs);
	for (uint32_t i = 0; i < nsums && !err; i++)
		err = io->write(io->arg, at++, p->sums + (size_t)i * bs);
	if (nat_bits) {
		/* the check value ties the nat_bits to this pack: version and CP crc */
		uint64_t check = zf2fs_cpu_to_le64(ver | ((uint64_t)crc << 32));

		memcpy(p->nat_bits, &check, sizeof(check));
		for (uint32_t i = 0; i < p->nat_bits_blocks && !err; i++)
			err = io->write(io->arg, p->start + ZF2FS_BLOCKS_PER_SEG -
					p->nat_bits_blocks + i, p->nat_bits + (size_t)i * bs);
	}
	if (!err)
		err = io->sync(io->arg);
	if (!err)
		err = io->write(io->arg, at, p->cp);
	if (!err)
		err = io->sync(io->arg);
	if (!err)
		err = io->write(io->arg, p->start, p->cp);
	if (!err)
		err = io->sync(io->arg);
	return err;
}
