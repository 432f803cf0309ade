/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * endian.h - read and write the little-endian on-disk fields of format.h on any host.
 *
 * The accessors take a pointer to the field so that a packed (unaligned) member can be
 * passed as &s->field: the bytes are copied, never dereferenced as a wider type.
 */
#ifndef ZF2FS_ENDIAN_H
#define ZF2FS_ENDIAN_H

#include <stdint.h>
#include <string.h>

static inline uint16_t zf2fs_le16_to_cpu(uint16_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap16(v);
#else
	return v;
#endif
}

static inline uint32_t zf2fs_le32_to_cpu(uint32_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap32(v);
#else
	return v;
#endif
}

static inline uint64_t zf2fs_le64_to_cpu(uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return __builtin_bswap64(v);
#else
	return v;
#endif
}

#define zf2fs_cpu_to_le16 zf2fs_le16_to_cpu
#define zf2fs_cpu_to_le32 zf2fs_le32_to_cpu
#define zf2fs_cpu_to_le64 zf2fs_le64_to_cpu

/* zf2fs_get(field) / zf2fs_set(field, value): size taken from the field itself. */
#define zf2fs_get(f)                                                            \
	(sizeof(f) == 1 ? (uint64_t)(f) :                                        \
	 sizeof(f) == 2 ? (uint64_t)zf2fs_le16_to_cpu((uint16_t)(f)) :              \
	 sizeof(f) == 4 ? (uint64_t)zf2fs_le32_to_cpu((uint32_t)(f)) :              \
	                  zf2fs_le64_to_cpu((uint64_t)(f)))

#define zf2fs_set(f, v)                                                         \
	do {                                                                     \
		uint64_t zf2fs_v_ = (uint64_t)(v);                                      \
		if (sizeof(f) == 1)                                                  \
			(f) = (uint8_t)zf2fs_v_;                                            \
		else if (sizeof(f) == 2)                                             \
			(f) = zf2fs_cpu_to_le16((uint16_t)zf2fs_v_);                           \
		else if (sizeof(f) == 4)                                             \
			(f) = zf2fs_cpu_to_le32((uint32_t)zf2fs_v_);                           \
		else                                                                 \
			(f) = zf2fs_cpu_to_le64(zf2fs_v_);                                     \
	} while (0)

static inline uint32_t zf2fs_get_le32p(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return zf2fs_le32_to_cpu(v);
}

static inline uint64_t zf2fs_get_le64p(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return zf2fs_le64_to_cpu(v);
}

static inline void zf2fs_put_le32p(void *p, uint32_t v)
{
	v = zf2fs_cpu_to_le32(v);
	memcpy(p, &v, sizeof(v));
}

/* A little-endian integer of @len bytes (at most 8 are read), for fields whose width comes
 * from a table rather than a type. */
static inline uint64_t zf2fs_get_le_bytes(const void *p, uint32_t len)
{
	const uint8_t *b = p;
	uint64_t x = 0;

	for (uint32_t i = 0; i < len && i < 8; i++)
		x |= (uint64_t)b[i] << (8 * i);
	return x;
}

static inline void zf2fs_put_le_bytes(void *p, uint32_t len, uint64_t x)
{
	uint8_t *b = p;

	for (uint32_t i = 0; i < len && i < 8; i++)
		b[i] = (uint8_t)(x >> (8 * i));
}

#endif /* ZF2FS_ENDIAN_H */
