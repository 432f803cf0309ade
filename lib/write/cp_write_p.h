/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cp_write_p.h - the one checkpoint-pack writer (lib/write/cp_write.c), shared by mkfs and the
 * transaction.  Private to the library.
 */
#ifndef ZF2FS_CP_WRITE_P_H
#define ZF2FS_CP_WRITE_P_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/format.h"
#include "zf2fs/geometry.h"

/* Block writes and syncs go through the caller: mkfs writes by layout before a volume
 * exists, the transaction through its open volume. */
struct zf2fs_cp_io {
	int (*write)(void *arg, uint64_t blkaddr, const void *buf);
	int (*sync)(void *arg);
	void *arg;
};

struct zf2fs_cp_pack {
	const struct zf2fs_geom *geom;   /* the volume's block size (NULL: 4 KiB); every
					  * buffer below is made of blocks of that size */
	uint64_t start;              /* first block of the pack (cp_blkaddr + pack * 512) */
	uint8_t *cp;                 /* the CP block, then @payload blocks of SIT bitmap */
	uint32_t payload;            /* superblock cp_payload */
	const uint8_t *orphans;      /* @orphan_blocks orphan blocks, copied as they are */
	uint32_t orphan_blocks;
	const uint8_t *sums;         /* summary blocks in pack order: 4 when compact (data
				      * compacted into one block, then hot/warm/cold node),
				      * else 6 (hot, warm, cold data, hot, warm, cold node);
				      * the node ones are left out when the CP block has
				      * neither the umount nor the fastboot flag */
	bool compact;
	uint8_t *nat_bits;           /* @nat_bits_blocks blocks or NULL; the first 8 bytes
				      * (the check value) are filled in here */
	uint32_t nat_bits_blocks;
};

/*
 * Complete the CP block's pack fields (cp_pack_total_block_count, cp_pack_start_sum, the
 * COMPACT_SUM, ORPHAN_PRESENT and NAT_BITS flags), set its checksum at checksum_offset
 * (the block's last word by default, whatever the block size),
 * and write the pack so that it is valid only once complete: payload, orphans, summaries
 * and nat_bits first, a sync, the pack's last block (the CP copy), a sync, and its first
 * block (the CP block) last, then a sync.  Until that last write the pack's two CP
 * blocks differ and the kernel ignores it.  0 or the first negative errno.
 */
int zf2fs_cp_pack_write(struct zf2fs_cp_pack *p, const struct zf2fs_cp_io *io);

#endif
