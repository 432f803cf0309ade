/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sha256.h - a small SHA-256 (FIPS 180-4) for the guest workload helper.
 *
 * The guest has no crypto library, and the helper must be one static
 * binary, so it carries its own digest.  Not for security use.
 */
#ifndef ZWORK_SHA256_H
#define ZWORK_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_LEN 32

struct sha256_ctx {
	uint32_t state[8];
	uint64_t total;		/* bytes hashed so far */
	uint8_t buf[64];
	size_t used;		/* bytes waiting in buf */
};

void sha256_init(struct sha256_ctx *ctx);
void sha256_update(struct sha256_ctx *ctx, const void *data, size_t len);
void sha256_final(struct sha256_ctx *ctx, uint8_t out[SHA256_DIGEST_LEN]);

/* Writes 64 lower-case hex digits and a NUL into hex. */
void sha256_hex(const uint8_t digest[SHA256_DIGEST_LEN], char hex[65]);

#endif
