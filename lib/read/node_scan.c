// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * node_scan.c - the node blocks of a volume found without its NAT: every block of the
 * main area read in address order, and those whose footer can be a node's handed on.
 *
 * For what the NAT cannot say: where an inode lies when its entry is lost, and older
 * copies of a node (the log writes a node anew at each change, so earlier versions stay
 * until their segment is cleaned).  A footer can be a node's when its nid and ino are
 * node numbers of the volume (from 3 up, below max_nid), an inode's footer names itself
 * at offset 0, and any other node's ino is an inode number too.  Data can pass that test
 * by chance; callers weigh what they find (an inode's checksum, its version in the
 * footer, whether the NAT points at it).  The footer test is zf2fs_footer_can_be_node.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"
#include "zf2fs-internal/volume.h"
#include "read/volume_p.h"

#define SCAN_RUN_BYTES (1u << 20)

ZF2FS_EXPORT int zf2fs_vol_scan_nodes(struct zf2fs_vol *vol,
				      int (*fn)(void *arg, uint64_t blkaddr, const void *node),
				      void *arg)
{
	size_t bs = vol->geom.blocksize;
	uint32_t run = (uint32_t)(SCAN_RUN_BYTES / bs);
	uint8_t *buf = malloc(SCAN_RUN_BYTES);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (uint64_t a = vol->info.main_blkaddr; a < vol->info.main_end && !err;) {
		uint32_t n = vol->info.main_end - a < run ? (uint32_t)(vol->info.main_end - a) : run;

		if (zf2fs_vol_read_blocks(vol, a, n, buf)) {
			/* a run that fails is read block by block: only bad blocks are lost */
			for (uint32_t i = 0; i < n && !err; i++)
				if (!zf2fs_vol_read_block(vol, a + i, buf) &&
				    zf2fs_footer_can_be_node(&vol->geom, buf, vol->info.max_nid))
					err = fn(arg, a + i, buf);
		} else {
			for (uint32_t i = 0; i < n && !err; i++)
				if (zf2fs_footer_can_be_node(&vol->geom, buf + (size_t)i * bs,
						     vol->info.max_nid))
					err = fn(arg, a + i, buf + (size_t)i * bs);
		}
		a += n;
	}
	free(buf);
	return err;
}
