// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simg.c - Android sparse images (include/zf2fs/simg.h): what sload.f2fs -S reads and
 * writes in place of a raw image.
 *
 * The container (Android's libsparse format, version 1.0): a 28-byte header (magic
 * 0xed26ff3a, versions, header and chunk header sizes, block size, blocks, chunks, a
 * checksum), then chunks of whole blocks, each with a 12-byte header (type, reserved,
 * blocks, bytes with the header): raw (the blocks follow), fill (one 32-bit value
 * repeated), don't care (nothing: the flashed device keeps what it had) and CRC32 (a
 * checksum of what came before; not checked here).  Larger headers are allowed and
 * their extra bytes skipped.
 *
 * Unpacking gives a raw file with don't-care blocks left as holes; packing turns holes
 * back into don't care, runs of blocks made of one 32-bit value into fill chunks, and
 * the rest into raw chunks.  Blocks written with zeros are data, not holes: they are
 * packed as fill chunks, so the flashed device gets the zeros.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "zf2fs/simg.h"

#define SPARSE_MAGIC   0xed26ff3au
#define FILE_HDR       28u
#define CHUNK_HDR      12u
#define CHUNK_RAW      0xCAC1u
#define CHUNK_FILL     0xCAC2u
#define CHUNK_SKIP     0xCAC3u
#define CHUNK_CRC      0xCAC4u
#define MAX_BLK        (1u << 20)

static uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* "@path: @what" into @why; returns @err. */
static int why_err(char *why, size_t len, int err, const char *what, const char *path)
{
	snprintf(why, len, "%s: %s", path, what);
	return err;
}

static int read_all(int fd, void *buf, size_t len, uint64_t off)
{
	for (size_t done = 0; done < len;) {
		ssize_t r = pread(fd, (uint8_t *)buf + done, len - done, (off_t)(off + done));

		if (r <= 0)
			return r < 0 ? -errno : -ZF2FS_EFSCORRUPTED;
		done += (size_t)r;
	}
	return 0;
}

static int write_all(int fd, const void *buf, size_t len, uint64_t off)
{
	for (size_t done = 0; done < len;) {
		ssize_t r = pwrite(fd, (const uint8_t *)buf + done, len - done, (off_t)(off + done));

		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		done += (size_t)r;
	}
	return 0;
}

ZF2FS_EXPORT bool zf2fs_simg_is(const char *path)
{
	uint8_t hdr[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool is;

	if (fd < 0)
		return false;
	is = !read_all(fd, hdr, sizeof(hdr), 0) && zf2fs_get_le32p(hdr) == SPARSE_MAGIC;
	close(fd);
	return is;
}

ZF2FS_EXPORT int zf2fs_simg_unpack(const char *sparse, const char *raw, uint32_t *ret_blk_sz,
				   char *why, size_t whylen)
{
	uint8_t hdr[FILE_HDR], ch[CHUNK_HDR], *buf = NULL;
	uint32_t blk_sz, total_blks, chunks, fhdr, chdr;
	uint64_t pos, blk = 0;
	int in = -1, out = -1, err;

	in = open(sparse, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return why_err(why, whylen, -errno, "cannot open it", sparse);
	err = read_all(in, hdr, sizeof(hdr), 0);
	blk_sz = zf2fs_get_le32p(hdr + 12);
	total_blks = zf2fs_get_le32p(hdr + 16);
	chunks = zf2fs_get_le32p(hdr + 20);
	fhdr = get_le16(hdr + 8);
	chdr = get_le16(hdr + 10);
	if (err || zf2fs_get_le32p(hdr) != SPARSE_MAGIC || get_le16(hdr + 4) != 1 ||
	    fhdr < FILE_HDR || chdr < CHUNK_HDR || !blk_sz || blk_sz % 4 || blk_sz > MAX_BLK) {
		err = why_err(why, whylen, -ZF2FS_EFSCORRUPTED,
			      "not an Android sparse image (version 1)", sparse);
		goto out;
	}
	out = open(raw, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	buf = malloc(blk_sz);
	if (out < 0 || !buf) {
		err = why_err(why, whylen, out < 0 ? -errno : -ENOMEM, "cannot create it", raw);
		goto out;
	}
	if (ftruncate(out, (off_t)((uint64_t)total_blks * blk_sz))) {
		err = why_err(why, whylen, -errno, "cannot size it", raw);
		goto out;
	}
	pos = fhdr;
	for (uint32_t c = 0; c < chunks; c++) {
		uint32_t type, n, total;

		err = read_all(in, ch, sizeof(ch), pos);
		type = get_le16(ch);
		n = zf2fs_get_le32p(ch + 4);
		total = zf2fs_get_le32p(ch + 8);
		if (err || n > total_blks - blk ||
		    (type == CHUNK_RAW && total != chdr + (uint64_t)n * blk_sz) ||
		    (type == CHUNK_FILL && total != chdr + 4) ||
		    (type == CHUNK_SKIP && total != chdr) ||
		    (type == CHUNK_CRC && (total != chdr + 4 || n)) ||
		    type < CHUNK_RAW || type > CHUNK_CRC) {
			err = why_err(why, whylen, -ZF2FS_EFSCORRUPTED, "a bad chunk header",
				      sparse);
			goto out;
		}
		pos += chdr;
		for (uint32_t k = 0; k < n && type != CHUNK_SKIP; k++) {
			if (type == CHUNK_RAW) {
				err = read_all(in, buf, blk_sz, pos + (uint64_t)k * blk_sz);
			} else {
				uint8_t v[4];

				err = read_all(in, v, 4, pos);
				for (uint32_t o = 0; !err && o < blk_sz; o += 4)
					memcpy(buf + o, v, 4);
			}
			if (!err)
				err = write_all(out, buf, blk_sz, (blk + k) * blk_sz);
			if (err) {
				why_err(why, whylen, err, "cannot unpack it", sparse);
				goto out;
			}
		}
		pos += total - chdr;
		blk += n;
	}
	if (fsync(out))
		err = why_err(why, whylen, -errno, "cannot write it", raw);
	if (ret_blk_sz)
		*ret_blk_sz = blk_sz;
out:
	free(buf);
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return err;
}

/* Whether block @b holds one 32-bit value repeated (into @v). */
static bool one_value(const uint8_t *b, uint32_t len, uint8_t v[4])
{
	memcpy(v, b, 4);
	for (uint32_t o = 4; o < len; o += 4)
		if (memcmp(b + o, v, 4))
			return false;
	return true;
}

struct packer {
	int fd;
	uint64_t pos;
	uint32_t chunks, blk_sz;
};

static int put_chunk(struct packer *p, uint32_t type, uint32_t n, const void *data,
		     uint32_t len)
{
	uint8_t ch[CHUNK_HDR];
	int err;

	put_le16(ch, (uint16_t)type);
	put_le16(ch + 2, 0);
	zf2fs_put_le32p(ch + 4, n);
	zf2fs_put_le32p(ch + 8, CHUNK_HDR + len);
	err = write_all(p->fd, ch, sizeof(ch), p->pos);
	if (!err && len)
		err = write_all(p->fd, data, len, p->pos + CHUNK_HDR);
	p->pos += CHUNK_HDR + len;
	p->chunks++;
	return err;
}

ZF2FS_EXPORT int zf2fs_simg_pack(const char *raw, const char *sparse, uint32_t blk_sz,
				 char *why, size_t whylen)
{
	uint8_t hdr[FILE_HDR] = { 0 }, v[4], fillv[4] = { 0 };
	uint8_t *run = NULL, *buf = NULL;
	struct packer p = { .fd = -1, .pos = FILE_HDR, .blk_sz = blk_sz };
	uint64_t size, blocks, b = 0;
	uint32_t nrun = 0, nfill = 0, runcap;
	int in = -1, err = 0;
	off_t end;

	if (!blk_sz || blk_sz % 4 || blk_sz > MAX_BLK)
		return why_err(why, whylen, -EINVAL, "a bad block size", sparse);
	in = open(raw, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return why_err(why, whylen, -errno, "cannot open it", raw);
	end = lseek(in, 0, SEEK_END);
	size = end < 0 ? 0 : (uint64_t)end;
	blocks = size / blk_sz;
	if (end < 0 || size % blk_sz || blocks > UINT32_MAX) {
		err = why_err(why, whylen, -EINVAL, "not a whole number of blocks", raw);
		goto out;
	}
	runcap = (uint32_t)(4u * 1024 * 1024 / blk_sz) + 1;   /* raw chunks of up to 4 MiB */
	run = malloc((size_t)runcap * blk_sz);
	buf = malloc(blk_sz);
	p.fd = open(sparse, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (!run || !buf || p.fd < 0) {
		err = why_err(why, whylen, p.fd < 0 ? -errno : -ENOMEM, "cannot create it", sparse);
		goto out;
	}
	while (!err && b < blocks) {
		off_t data = lseek(in, (off_t)(b * blk_sz), SEEK_DATA);
		uint64_t first = data < 0 ? blocks : (uint64_t)data / blk_sz, last;
		off_t hole;

		if (first > b) {   /* holes: don't care */
			err = put_chunk(&p, CHUNK_SKIP, (uint32_t)(first - b), NULL, 0);
			b = first;
			continue;
		}
		hole = lseek(in, (off_t)(b * blk_sz), SEEK_HOLE);
		last = hole < 0 ? blocks : ((uint64_t)hole + blk_sz - 1) / blk_sz;
		if (last > blocks)
			last = blocks;
		if (last <= b)
			last = b + 1;
		for (; !err && b < last; b++) {
			err = read_all(in, buf, blk_sz, b * blk_sz);
			if (err)
				break;
			if (one_value(buf, blk_sz, v)) {
				if (nrun)
					err = put_chunk(&p, CHUNK_RAW, nrun, run, nrun * blk_sz);
				nrun = 0;
				if (nfill && memcmp(v, fillv, 4)) {
					err = err ? err : put_chunk(&p, CHUNK_FILL, nfill, fillv, 4);
					nfill = 0;
				}
				memcpy(fillv, v, 4);
				nfill++;
				continue;
			}
			if (nfill)
				err = put_chunk(&p, CHUNK_FILL, nfill, fillv, 4);
			nfill = 0;
			memcpy(run + (size_t)nrun * blk_sz, buf, blk_sz);
			if (++nrun == runcap) {
				err = err ? err : put_chunk(&p, CHUNK_RAW, nrun, run, nrun * blk_sz);
				nrun = 0;
			}
		}
		if (!err && nfill)
			err = put_chunk(&p, CHUNK_FILL, nfill, fillv, 4);
		if (!err && nrun)
			err = put_chunk(&p, CHUNK_RAW, nrun, run, nrun * blk_sz);
		nfill = nrun = 0;
	}
	zf2fs_put_le32p(hdr, SPARSE_MAGIC);
	put_le16(hdr + 4, 1);
	put_le16(hdr + 6, 0);
	put_le16(hdr + 8, FILE_HDR);
	put_le16(hdr + 10, CHUNK_HDR);
	zf2fs_put_le32p(hdr + 12, blk_sz);
	zf2fs_put_le32p(hdr + 16, (uint32_t)blocks);
	zf2fs_put_le32p(hdr + 20, p.chunks);
	if (!err)
		err = write_all(p.fd, hdr, sizeof(hdr), 0);
	if (!err && fsync(p.fd))
		err = -errno;
	if (err)
		why_err(why, whylen, err, "cannot write it", sparse);
out:
	free(run);
	free(buf);
	if (in >= 0)
		close(in);
	if (p.fd >= 0)
		close(p.fd);
	return err;
}
