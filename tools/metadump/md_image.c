// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * md_image.c - writing and reading the metadata image (the layout is in md_image.h).
 *
 * Header (4096 bytes): magic, version, flags, log2 of the block size, device count,
 * the volume's blocks, the time it was taken, the uuid, the header's CRC32 (computed with
 * that field zero), then 8 device slots of 128 bytes at offset 64 and the source path at
 * 1088 (a device slot: first block, blocks, bytes, zoned, zone blocks, the path's 64
 * bytes, zone capacity in blocks, conventional zones).  Record: "MDRC", type, first block (u64), block count, compression, payload
 * length, CRC32 of the record header (its CRC field zero) followed by the payload.
 * Record types: blocks, unreadable at the source, the end, blocks read as zeros.
 */
#include "config.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBZSTD
#include <zstd.h>
#endif

#include "md_image.h"
#include "zf2fs/endian.h"
#include "zf2fs/zf2fs.h"

#define REC_BYTES   32u
#define REC_MAGIC   "MDRC"
#define DEV_OFFSET  64u
#define DEV_BYTES   128u
#define SRC_OFFSET  1088u
#define CRC_OFFSET  56u
#define ZSTD_LEVEL  1      /* fast: the image is made at the disk's speed */

bool md_have_zstd(void)
{
#ifdef HAVE_LIBZSTD
	return true;
#else
	return false;
#endif
}

static void put32(uint8_t *p, uint32_t v) { zf2fs_put_le_bytes(p, 4, v); }
static void put64(uint8_t *p, uint64_t v) { zf2fs_put_le_bytes(p, 8, v); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)zf2fs_get_le_bytes(p, 4); }
static uint64_t get64(const uint8_t *p) { return zf2fs_get_le_bytes(p, 8); }

static uint32_t block_bytes(uint32_t log_blocksize)
{
	return 1u << log_blocksize;
}

/* ---- writing ----------------------------------------------------------------------- */

/*
 * Compressing takes about as long as reading the blocks, so a second thread does it: the
 * caller fills a slot with a run and goes on with the next slot while the thread
 * compresses and writes the filled ones in order.  Records leave in the order they were
 * handed over, whatever the scheduling, so the image does not depend on it.
 */
#define SLOTS    4u
#define SLOT_RECS 256u             /* records a slot gathers before it is handed over */

struct rec {
	uint64_t start;
	uint32_t n, type;          /* MD_REC_BLOCKS (n blocks at @off), _ZEROS or _UNREADABLE */
	uint32_t off;              /* first block in the slot's buffer */
};

struct slot {
	uint8_t *run;              /* MD_RUN_MAX blocks, shared by the slot's records */
	uint32_t used, nrec;
	struct rec rec[SLOT_RECS];
	bool full;
};

struct md_writer {
	FILE *out;
	uint32_t bs;
	struct slot slot[SLOTS];
	unsigned fill, drain;      /* the slot the caller fills, the next the thread writes */
	bool open;                 /* the fill slot's last record takes the next block */
	uint8_t *packed;
	size_t packed_cap;
	uint64_t stored, bytes;
	int err;                   /* the thread's first error */
	bool done, threaded;
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t cond;
#ifdef HAVE_LIBZSTD
	ZSTD_CCtx *cctx;
#endif
};

static int put_bytes(struct md_writer *w, const void *p, size_t len)
{
	if (len && fwrite(p, 1, len, w->out) != len)
		return -EIO;
	w->bytes += len;
	return 0;
}

static int put_record(struct md_writer *w, uint32_t type, uint64_t start, uint32_t count,
		      uint32_t comp, const void *payload, uint32_t len)
{
	uint8_t h[REC_BYTES] = { 0 };
	uint32_t crc;

	memcpy(h, REC_MAGIC, 4);
	put32(h + 4, type);
	put64(h + 8, start);
	put32(h + 16, count);
	put32(h + 20, comp);
	put32(h + 24, len);
	crc = zf2fs_crc32(~0u, h, REC_BYTES);
	if (len)
		crc = zf2fs_crc32(crc, payload, len);
	put32(h + 28, crc);
	return put_bytes(w, h, REC_BYTES) ?: put_bytes(w, payload, len);
}

/* One record of a filled slot (the thread's side). */
static int write_rec(struct md_writer *w, const struct slot *sl, const struct rec *r)
{
	const uint8_t *raw_p = sl->run + (size_t)r->off * w->bs;
	size_t raw = (size_t)r->n * w->bs;
	const void *payload = raw_p;
	uint32_t len = (uint32_t)raw, comp = MD_COMP_NONE;

	if (r->type != MD_REC_BLOCKS)
		return put_record(w, r->type, r->start, r->n, MD_COMP_NONE, NULL, 0);
#ifdef HAVE_LIBZSTD
	if (w->cctx) {
		size_t c = ZSTD_compressCCtx(w->cctx, w->packed, w->packed_cap, raw_p, raw,
					     ZSTD_LEVEL);

		if (!ZSTD_isError(c) && c < raw) {
			payload = w->packed;
			len = (uint32_t)c;
			comp = MD_COMP_ZSTD;
		}
	}
#endif
	return put_record(w, MD_REC_BLOCKS, r->start, r->n, comp, payload, len);
}

static int write_slot(struct md_writer *w, const struct slot *sl)
{
	int err = 0;

	for (uint32_t i = 0; i < sl->nrec && !err; i++)
		err = write_rec(w, sl, &sl->rec[i]);
	return err;
}

static void *writer_thread(void *arg)
{
	struct md_writer *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct slot *sl = &w->slot[w->drain];
		int err;

		while (!sl->full && !w->done)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!sl->full)
			break;   /* done, and nothing left */
		pthread_mutex_unlock(&w->lock);
		err = w->err ? 0 : write_slot(w, sl);
		pthread_mutex_lock(&w->lock);
		if (err && !w->err)
			w->err = err;
		sl->full = false;
		w->drain = (w->drain + 1) % SLOTS;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* Hand the slot being filled to the thread (or write it here without one) and wait for
 * the next slot to be free. */
static int hand_over(struct md_writer *w)
{
	struct slot *sl = &w->slot[w->fill];
	int err;

	w->open = false;
	if (!sl->nrec)
		return w->err;
	if (!w->threaded) {
		err = w->err ? w->err : write_slot(w, sl);
		if (err && !w->err)
			w->err = err;
		sl->nrec = sl->used = 0;
		return err;
	}
	pthread_mutex_lock(&w->lock);
	sl->full = true;
	w->fill = (w->fill + 1) % SLOTS;
	pthread_cond_broadcast(&w->cond);
	while (w->slot[w->fill].full)
		pthread_cond_wait(&w->cond, &w->lock);
	w->slot[w->fill].nrec = w->slot[w->fill].used = 0;
	err = w->err;
	pthread_mutex_unlock(&w->lock);
	return err;
}

/* A new record in the fill slot (handed over first when it is full). */
static int new_rec(struct md_writer *w, uint32_t type, uint64_t start, uint32_t n,
		   uint32_t blocks)
{
	struct slot *sl = &w->slot[w->fill];
	int err = 0;

	if (sl->nrec == SLOT_RECS || sl->used + blocks > MD_RUN_MAX)
		err = hand_over(w);
	if (err)
		return err;
	sl = &w->slot[w->fill];
	sl->rec[sl->nrec++] = (struct rec){ .start = start, .n = n, .type = type, .off = sl->used };
	return 0;
}

static void header_bytes(const struct md_header *h, uint8_t *b)
{
	memset(b, 0, MD_HEADER_BYTES);
	memcpy(b, MD_MAGIC, 8);
	put32(b + 8, h->version);
	put32(b + 12, h->flags);
	put32(b + 16, h->log_blocksize);
	put32(b + 20, h->ndevs);
	put64(b + 24, h->volume_blocks);
	put64(b + 32, h->created);
	memcpy(b + 40, h->uuid, 16);
	for (unsigned i = 0; i < ZF2FS_MAX_DEVICES; i++) {
		uint8_t *d = b + DEV_OFFSET + i * DEV_BYTES;

		put64(d, h->dev[i].first_block);
		put64(d + 8, h->dev[i].blocks);
		put64(d + 16, h->dev[i].bytes);
		put32(d + 24, h->dev[i].zoned);
		put32(d + 28, h->dev[i].zone_blocks);
		memcpy(d + 32, h->dev[i].path, ZF2FS_DEVICE_PATH_LEN);
		put32(d + 96, h->dev[i].zone_cap_blocks);
		put32(d + 100, h->dev[i].conv_zones);
	}
	memcpy(b + SRC_OFFSET, h->source, sizeof(h->source) - 1);
	put32(b + CRC_OFFSET, zf2fs_crc32(~0u, b, MD_HEADER_BYTES));
}

static void writer_free(struct md_writer *w)
{
	for (unsigned i = 0; i < SLOTS; i++)
		free(w->slot[i].run);
#ifdef HAVE_LIBZSTD
	ZSTD_freeCCtx(w->cctx);
#endif
	free(w->packed);
	free(w);
}

int md_writer_open(FILE *out, const struct md_header *h, struct md_writer **ret)
{
	struct md_writer *w = calloc(1, sizeof(*w));
	uint8_t *hb = malloc(MD_HEADER_BYTES);
	int err = -ENOMEM;

	*ret = NULL;
	if (!w || !hb)
		goto fail;
	w->out = out;
	w->bs = block_bytes(h->log_blocksize);
	for (unsigned i = 0; i < SLOTS; i++)
		if (!(w->slot[i].run = malloc((size_t)MD_RUN_MAX * w->bs)))
			goto fail;
#ifdef HAVE_LIBZSTD
	w->packed_cap = ZSTD_compressBound((size_t)MD_RUN_MAX * w->bs);
	w->packed = malloc(w->packed_cap);
	w->cctx = ZSTD_createCCtx();
	if (!w->packed || !w->cctx)
		goto fail;
#endif
	header_bytes(h, hb);
	err = put_bytes(w, hb, MD_HEADER_BYTES);
	if (err)
		goto fail;
	free(hb);
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	/* without a thread (none could be made), the records are written here */
	w->threaded = !pthread_create(&w->th, NULL, writer_thread, w);
	*ret = w;
	return 0;
fail:
	free(hb);
	if (w)
		writer_free(w);
	return err;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	return !p[0] && !memcmp(p, p + 1, n - 1);
}

int md_writer_block(struct md_writer *w, uint64_t addr, const void *blk)
{
	struct slot *sl = &w->slot[w->fill];
	struct rec *r = sl->nrec ? &sl->rec[sl->nrec - 1] : NULL;
	int err;

	if (all_zero(blk, w->bs)) {
		/* no bytes stored, but said: a restore onto a device must write the zeros */
		w->open = false;
		if (r && r->type == MD_REC_ZEROS && addr == r->start + r->n && r->n < UINT32_MAX) {
			r->n++;
			return 0;
		}
		return new_rec(w, MD_REC_ZEROS, addr, 1, 0);
	}
	if (!w->open || !r || addr != r->start + r->n || sl->used == MD_RUN_MAX) {
		err = new_rec(w, MD_REC_BLOCKS, addr, 0, 1);
		if (err)
			return err;
		sl = &w->slot[w->fill];
		r = &sl->rec[sl->nrec - 1];
		w->open = true;
	}
	memcpy(sl->run + (size_t)sl->used++ * w->bs, blk, w->bs);
	r->n++;
	w->stored++;
	return 0;
}

int md_writer_unreadable(struct md_writer *w, uint64_t addr, uint32_t count)
{
	int err = new_rec(w, MD_REC_UNREADABLE, addr, count, 0);

	w->open = false;
	return err;
}

int md_writer_close(struct md_writer *w, uint64_t *ret_stored, uint64_t *ret_bytes)
{
	int err = hand_over(w);

	if (w->threaded) {
		pthread_mutex_lock(&w->lock);
		w->done = true;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->th, NULL);
	}
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	if (!err)
		err = w->err;
	if (!err)
		err = put_record(w, MD_REC_END, w->stored, 0, MD_COMP_NONE, NULL, 0);
	if (!err && fflush(w->out))
		err = -EIO;
	if (ret_stored)
		*ret_stored = w->stored;
	if (ret_bytes)
		*ret_bytes = w->bytes;
	writer_free(w);
	return err;
}

/* ---- reading ----------------------------------------------------------------------- */

struct md_reader {
	FILE *in;
	struct md_header h;
	uint32_t bs;
	uint8_t *raw, *packed;
	size_t packed_cap;
	bool ended;
};

const struct md_header *md_reader_header(const struct md_reader *r)
{
	return &r->h;
}

static int parse_header(struct md_reader *r, uint8_t *b, char *why, size_t whylen)
{
	struct md_header *h = &r->h;
	uint32_t crc = get32(b + CRC_OFFSET);
	uint64_t next = 0;

	if (memcmp(b, MD_MAGIC, 8)) {
		snprintf(why, whylen, "not an F2FS metadata image (no %s magic)", MD_MAGIC);
		return -EINVAL;
	}
	put32(b + CRC_OFFSET, 0);
	if (zf2fs_crc32(~0u, b, MD_HEADER_BYTES) != crc) {
		snprintf(why, whylen, "the image's header is damaged (CRC mismatch)");
		return -EINVAL;
	}
	h->version = get32(b + 8);
	h->flags = get32(b + 12);
	h->log_blocksize = get32(b + 16);
	h->ndevs = get32(b + 20);
	h->volume_blocks = get64(b + 24);
	h->created = get64(b + 32);
	memcpy(h->uuid, b + 40, 16);
	if (h->version != MD_VERSION) {
		snprintf(why, whylen, "image version %u (this build reads version %u)",
			 h->version, MD_VERSION);
		return -EINVAL;
	}
	if ((h->log_blocksize != 12 && h->log_blocksize != 14) || !h->ndevs ||
	    h->ndevs > ZF2FS_MAX_DEVICES) {
		snprintf(why, whylen, "the image's header is damaged (block size 2^%u, %u devices)",
			 h->log_blocksize, h->ndevs);
		return -EINVAL;
	}
	for (unsigned i = 0; i < h->ndevs; i++) {
		const uint8_t *d = b + DEV_OFFSET + i * DEV_BYTES;
		struct md_dev *v = &h->dev[i];

		v->first_block = get64(d);
		v->blocks = get64(d + 8);
		v->bytes = get64(d + 16);
		v->zoned = get32(d + 24);
		v->zone_blocks = get32(d + 28);
		memcpy(v->path, d + 32, ZF2FS_DEVICE_PATH_LEN);
		v->path[ZF2FS_DEVICE_PATH_LEN] = 0;
		v->zone_cap_blocks = get32(d + 96);
		v->conv_zones = get32(d + 100);
		if (v->first_block != next || !v->blocks ||
		    v->blocks > (v->bytes >> h->log_blocksize) || v->bytes >> 62) {
			snprintf(why, whylen, "the image's header is damaged (device %u: blocks "
				 "%llu from %llu in %llu bytes)", i, (unsigned long long)v->blocks,
				 (unsigned long long)v->first_block, (unsigned long long)v->bytes);
			return -EINVAL;
		}
		next += v->blocks;
	}
	if (next != h->volume_blocks) {
		snprintf(why, whylen, "the image's header is damaged (devices hold %llu blocks, "
			 "the volume %llu)", (unsigned long long)next,
			 (unsigned long long)h->volume_blocks);
		return -EINVAL;
	}
	memcpy(h->source, b + SRC_OFFSET, sizeof(h->source) - 1);
	h->source[sizeof(h->source) - 1] = 0;
	r->bs = block_bytes(h->log_blocksize);
	return 0;
}

int md_reader_open(FILE *in, struct md_reader **ret, char *why, size_t whylen)
{
	struct md_reader *r = calloc(1, sizeof(*r));
	uint8_t *b = malloc(MD_HEADER_BYTES);
	int err;

	*ret = NULL;
	if (!r || !b) {
		free(r);
		free(b);
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	r->in = in;
	if (fread(b, 1, MD_HEADER_BYTES, in) != MD_HEADER_BYTES) {
		snprintf(why, whylen, "too short for a metadata image (no whole header)");
		err = -EINVAL;
	} else {
		err = parse_header(r, b, why, whylen);
	}
	free(b);
	if (!err) {
		size_t raw = (size_t)MD_RUN_MAX * r->bs;

		r->raw = malloc(raw);
		r->packed_cap = raw + raw / 8 + 4096;   /* above zstd's bound for this size */
		r->packed = malloc(r->packed_cap);
		if (!r->raw || !r->packed) {
			snprintf(why, whylen, "%s", strerror(ENOMEM));
			err = -ENOMEM;
		}
	}
	if (err) {
		md_reader_close(r);
		return err;
	}
	*ret = r;
	return 0;
}

int md_reader_next(struct md_reader *r, uint32_t *ret_type, uint64_t *ret_start,
		   uint32_t *ret_count, const uint8_t **ret_data, char *why, size_t whylen)
{
	uint8_t h[REC_BYTES];
	uint32_t type, count, comp, len, crc;
	uint64_t start;
	size_t raw;

	*ret_data = NULL;
	if (r->ended)
		return 0;
	if (fread(h, 1, REC_BYTES, r->in) != REC_BYTES || memcmp(h, REC_MAGIC, 4)) {
		snprintf(why, whylen, "the image ends early or is damaged at offset %lld (no "
			 "record there)", (long long)ftello(r->in));
		return -EINVAL;
	}
	type = get32(h + 4);
	start = get64(h + 8);
	count = get32(h + 16);
	comp = get32(h + 20);
	len = get32(h + 24);
	crc = get32(h + 28);
	raw = (size_t)count * r->bs;
	if (type < MD_REC_BLOCKS || type > MD_REC_ZEROS ||
	    (type == MD_REC_BLOCKS ? !count || count > MD_RUN_MAX || !len ||
	     len > r->packed_cap || comp > MD_COMP_ZSTD || (comp == MD_COMP_NONE && len != raw)
				   : len != 0) ||
	    (type != MD_REC_END && (start >= r->h.volume_blocks ||
				    count > r->h.volume_blocks - start))) {
		snprintf(why, whylen, "a damaged record in the image (type %u, blocks %llu+%u, "
			 "payload %u)", type, (unsigned long long)start, count, len);
		return -EINVAL;
	}
	if (len && fread(r->packed, 1, len, r->in) != len) {
		snprintf(why, whylen, "the image ends inside a record (blocks %llu+%u)",
			 (unsigned long long)start, count);
		return -EINVAL;
	}
	put32(h + 28, 0);
	if (zf2fs_crc32(zf2fs_crc32(~0u, h, REC_BYTES), r->packed, len) != crc) {
		snprintf(why, whylen, "a damaged record in the image (blocks %llu+%u: CRC "
			 "mismatch)", (unsigned long long)start, count);
		return -EINVAL;
	}
	*ret_type = type;
	*ret_start = start;
	*ret_count = count;
	if (type == MD_REC_END) {
		r->ended = true;
		return 0;
	}
	if (type != MD_REC_BLOCKS)
		return 1;
	if (comp == MD_COMP_NONE) {
		*ret_data = r->packed;
		return 1;
	}
#ifdef HAVE_LIBZSTD
	{
		size_t got = ZSTD_decompress(r->raw, raw, r->packed, len);

		if (ZSTD_isError(got) || got != raw) {
			snprintf(why, whylen, "a damaged record in the image (blocks %llu+%u do not "
				 "decompress)", (unsigned long long)start, count);
			return -EINVAL;
		}
	}
	*ret_data = r->raw;
	return 1;
#else
	snprintf(why, whylen, "the image is zstd-compressed and this build has no libzstd");
	return -ENOTSUP;
#endif
}

void md_reader_close(struct md_reader *r)
{
	if (!r)
		return;
	free(r->raw);
	free(r->packed);
	free(r);
}
