// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bitmap.c - a bitmap allocated a chunk at a time.
 *
 * The index holds one pointer per chunk of 2^15 bits (4 KiB); a chunk exists once a bit
 * in it was set.  A volume of 4 G blocks needs a 1 MiB index, and then 4 KiB per 128 MiB
 * of the main area that holds anything.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs-internal/chunkmap.h"

#define CHUNK_SHIFT 15
#define CHUNK_BITS (1ull << CHUNK_SHIFT)
#define CHUNK_BYTES (CHUNK_BITS / 8)

struct zf2fs_bmap {
	uint64_t nbits;
	uint64_t nchunks, used;
	uint8_t **chunk;
};

ZF2FS_EXPORT int zf2fs_bmap_new(uint64_t nbits, struct zf2fs_bmap **ret_map)
{
	struct zf2fs_bmap *m = calloc(1, sizeof(*m));

	*ret_map = NULL;
	if (!m)
		return -ENOMEM;
	m->nbits = nbits;
	m->nchunks = (nbits + CHUNK_BITS - 1) >> CHUNK_SHIFT;
	m->chunk = calloc(m->nchunks ? m->nchunks : 1, sizeof(*m->chunk));
	if (!m->chunk) {
		free(m);
		return -ENOMEM;
	}
	*ret_map = m;
	return 0;
}

ZF2FS_EXPORT void zf2fs_bmap_free(struct zf2fs_bmap *m)
{
	if (!m)
		return;
	for (uint64_t i = 0; i < m->nchunks; i++)
		free(m->chunk[i]);
	free(m->chunk);
	free(m);
}

ZF2FS_EXPORT bool zf2fs_bmap_test(const struct zf2fs_bmap *m, uint64_t nr)
{
	const uint8_t *c;

	if (nr >= m->nbits)
		return false;
	c = m->chunk[nr >> CHUNK_SHIFT];
	nr &= CHUNK_BITS - 1;
	return c && (c[nr / 8] & (1u << (nr % 8)));
}

ZF2FS_EXPORT int zf2fs_bmap_set(struct zf2fs_bmap *m, uint64_t nr)
{
	uint8_t **c;

	if (nr >= m->nbits)
		return -ERANGE;
	c = &m->chunk[nr >> CHUNK_SHIFT];
	if (!*c) {
		*c = calloc(1, CHUNK_BYTES);
		if (!*c)
			return -ENOMEM;
		m->used++;
	}
	nr &= CHUNK_BITS - 1;
	(*c)[nr / 8] |= (uint8_t)(1u << (nr % 8));
	return 0;
}

ZF2FS_EXPORT void zf2fs_bmap_clear(struct zf2fs_bmap *m, uint64_t nr)
{
	uint8_t *c;

	if (nr >= m->nbits)
		return;
	c = m->chunk[nr >> CHUNK_SHIFT];
	nr &= CHUNK_BITS - 1;
	if (c)
		c[nr / 8] &= (uint8_t)~(1u << (nr % 8));
}

ZF2FS_EXPORT bool zf2fs_bmap_any(const struct zf2fs_bmap *m, uint64_t first, uint64_t count)
{
	uint64_t end = first + count < first || first + count > m->nbits ? m->nbits :
		       first + count;

	while (first < end) {
		uint64_t ci = first >> CHUNK_SHIFT;
		uint64_t cend = (ci + 1) << CHUNK_SHIFT;
		const uint8_t *c = m->chunk[ci];

		if (cend > end)
			cend = end;
		if (c) {
			for (uint64_t b = first; b < cend; b++) {
				uint64_t o = b & (CHUNK_BITS - 1);

				/* whole zero bytes at a time */
				if (o % 8 == 0 && b + 8 <= cend && !c[o / 8]) {
					b += 7;
					continue;
				}
				if (c[o / 8] & (1u << (o % 8)))
					return true;
			}
		}
		first = cend;
	}
	return false;
}

ZF2FS_EXPORT uint64_t zf2fs_bmap_bytes(const struct zf2fs_bmap *m)
{
	return sizeof(*m) + m->nchunks * sizeof(*m->chunk) + m->used * CHUNK_BYTES;
}
