// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crc32.c - the checksum F2FS uses everywhere.
 *
 * It is the reflected CRC-32 (polynomial 0xEDB88320) with the caller's seed and no final
 * inversion.  The superblock and checkpoint seed it with the F2FS magic; inode checksums
 * chain it from a seed derived from the volume UUID.  The table is built on first use from
 * the polynomial, so no constant table is carried in the source.
 */
#include "config.h"
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/random.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/geometry.h"
#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "zf2fs-internal/format.h"

static uint32_t crc_table[256];
static uint8_t crc_by_top[256];   /* the entry whose top byte is i */
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_table_build(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
		crc_table[n] = c;
		crc_by_top[c >> 24] = (uint8_t)n;
	}
}

ZF2FS_EXPORT uint32_t zf2fs_crc32(uint32_t seed, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t crc = seed;

	pthread_once(&crc_once, crc_table_build);
	while (len--)
		crc = crc_table[(crc ^ *p++) & 0xFF] ^ (crc >> 8);
	return crc;
}

ZF2FS_EXPORT uint32_t zf2fs_super_checksum(const struct zf2fs_super *sb)
{
	return zf2fs_crc32(ZF2FS_MAGIC, sb, offsetof(struct zf2fs_super, crc));
}

ZF2FS_EXPORT int zf2fs_cp_checksum2(const struct zf2fs_geom *g, const void *cp_block,
				    uint32_t *ret_crc)
{
	const struct zf2fs_checkpoint *cp = cp_block;
	uint32_t off = (uint32_t)zf2fs_get(cp->checksum_offset);
	uint32_t crc;

	/* The crc either ends the block or (large NAT bitmap) sits right after the header. */
	if (off != g->cp_chksum_offset && off != ZF2FS_CP_BITMAP_OFFSET)
		return -ZF2FS_EFSCORRUPTED;
	crc = zf2fs_crc32(ZF2FS_MAGIC, cp_block, off);
	if (off < g->cp_chksum_offset)
		crc = zf2fs_crc32(crc, (const uint8_t *)cp_block + off + 4,
				  g->blocksize - off - 4);
	*ret_crc = crc;
	return 0;
}

ZF2FS_EXPORT int zf2fs_cp_checksum(const void *cp_block, uint32_t *ret_crc)
{
	return zf2fs_cp_checksum2(zf2fs_geom_4k(), cp_block, ret_crc);
}

ZF2FS_EXPORT uint32_t zf2fs_checksum_seed(const uint8_t uuid[16])
{
	return zf2fs_crc32(0xFFFFFFFFu, uuid, 16);
}

ZF2FS_EXPORT uint32_t zf2fs_inode_checksum2(const struct zf2fs_geom *g, uint32_t seed,
					    const void *node_block)
{
	const struct zf2fs_node_footer *footer = zf2fs_node_footer(g, node_block);
	const struct zf2fs_node *node = node_block;
	const size_t cs_off = offsetof(struct zf2fs_inode, i_inode_checksum);
	const uint8_t zero[4] = { 0 };
	uint32_t crc;

	/* ino and generation go in as their on-disk bytes, then the block with a zero crc. */
	crc = zf2fs_crc32(seed, &footer->ino, 4);
	crc = zf2fs_crc32(crc, &node->i.i_generation, 4);
	crc = zf2fs_crc32(crc, node_block, cs_off);
	crc = zf2fs_crc32(crc, zero, 4);
	return zf2fs_crc32(crc, (const uint8_t *)node_block + cs_off + 4,
			   g->blocksize - cs_off - 4);
}

ZF2FS_EXPORT uint32_t zf2fs_crc32_unshift(uint32_t crc, size_t zero_bytes)
{
	pthread_once(&crc_once, crc_table_build);
	/* A step on a zero byte is table[low byte] ^ (crc >> 8): the top byte of the result
	 * is the table entry's alone, and the 256 entries' top bytes all differ. */
	while (zero_bytes--) {
		uint8_t idx = crc_by_top[crc >> 24];

		crc = ((crc ^ crc_table[idx]) << 8) | idx;
	}
	return crc;
}

ZF2FS_EXPORT uint32_t zf2fs_inode_checksum(uint32_t seed, const void *node_block)
{
	return zf2fs_inode_checksum2(zf2fs_geom_4k(), seed, node_block);
}

ZF2FS_EXPORT uint32_t zf2fs_inode_seed_of(const struct zf2fs_geom *g, const void *node)
{
	const struct zf2fs_node *n = node;
	/* The checksum is the register after ino, generation and the block, started from the
	 * seed; the CRC is linear, so the seed's share is what a zero seed leaves over, run
	 * back over those bytes. */
	uint32_t diff = (uint32_t)zf2fs_get(n->i.i_inode_checksum) ^
			zf2fs_inode_checksum2(g, 0, node);

	return zf2fs_crc32_unshift(diff, 8 + g->blocksize);
}

ZF2FS_EXPORT void zf2fs_uuid_for_seed(uint32_t seed, uint8_t uuid[16])
{
	uint32_t s12, tail;

	if (getrandom(uuid, 12, 0) != 12)
		for (int i = 0; i < 12; i++)
			uuid[i] = (uint8_t)rand();
	uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40);   /* version 4 */
	uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80);   /* RFC 4122 variant */
	/* Four bytes fed to the register are the same as XORed into it before four zero
	 * bytes: the last four are what leads from the first twelve's register to the one
	 * four zero bytes before the seed. */
	s12 = zf2fs_crc32(0xFFFFFFFFu, uuid, 12);
	tail = s12 ^ zf2fs_crc32_unshift(seed, 4);
	for (int i = 0; i < 4; i++)
		uuid[12 + i] = (uint8_t)(tail >> (8 * i));
}

void zf2fs_node_seal2(const struct zf2fs_geom *g, void *n, uint32_t nid, uint64_t cp_ver,
		      uint32_t next_blkaddr, uint32_t features, uint32_t seed)
{
	struct zf2fs_node_footer *f = zf2fs_node_footer(g, n);

	zf2fs_set(f->cp_ver, cp_ver);
	zf2fs_set(f->next_blkaddr, next_blkaddr);
	/* written at a checkpoint, not by fsync: nothing for roll-forward to replay */
	zf2fs_set(f->flag, zf2fs_get(f->flag) &
		  ~(uint64_t)(ZF2FS_FOOTER_FSYNC_BIT | ZF2FS_FOOTER_DENT_BIT));
	zf2fs_inode_reseal2(g, n, nid, features, seed);
}

void zf2fs_node_seal(struct zf2fs_node *n, uint32_t nid, uint64_t cp_ver,
		     uint32_t next_blkaddr, uint32_t features, uint32_t seed)
{
	zf2fs_node_seal2(zf2fs_geom_4k(), n, nid, cp_ver, next_blkaddr, features, seed);
}

ZF2FS_EXPORT bool zf2fs_inode_reseal2(const struct zf2fs_geom *g, void *node, uint32_t nid,
				      uint32_t features, uint32_t seed)
{
	struct zf2fs_node *n = node;

	/* only inodes with room for the checksum in their extra attributes carry one */
	if (zf2fs_get(zf2fs_node_footer(g, node)->ino) != nid ||
	    !zf2fs_inode_has_checksum(&n->i, features))
		return false;
	zf2fs_set(n->i.i_inode_checksum, zf2fs_inode_checksum2(g, seed, node));
	return true;
}

ZF2FS_EXPORT bool zf2fs_inode_reseal(struct zf2fs_node *n, uint32_t nid, uint32_t features,
				     uint32_t seed)
{
	return zf2fs_inode_reseal2(zf2fs_geom_4k(), n, nid, features, seed);
}
