// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mdrestore.c - f2fs_mdrestore: the volume an f2fs_metadump image was taken of, again,
 * as sparse files (or onto block devices) of the source devices' sizes.  Blocks the image
 * does not hold (file data, free space) read as zeros.
 *
 * When the names were scrambled, a marker goes into the first KiB of the volume (which
 * F2FS leaves unused), where our fsck.f2fs finds it and leaves the name hashes unchecked.
 * A multi-device volume names its other devices by path in the superblock: the restored
 * superblocks name the targets instead (when they fit the 63 bytes of a path).
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/fs.h>
#endif

#include "helper.h"
#include "md_image.h"
#include "progress.h"
#include "zf2fs/endian.h"
#include "zf2fs/format.h"
#include "zf2fs-internal/format.h"

#define PROG "f2fs_mdrestore"
#define SB_OFFSET 1024u

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [options] IMAGE TARGET [TARGET...]\n"
"       " PROG " -i IMAGE\n"
"Write the volume an f2fs_metadump image was taken of: one TARGET per device of the\n"
"source (a file, made sparse and of the device's size, or a block device at least that\n"
"large).  File data reads as zeros.  IMAGE \"-\" is standard input.\n"
"\n"
"  -i, --info           print what the image holds and stop\n"
"  -g, --progress       a progress bar on standard error (a terminal)\n"
"      --progress-fd FD \"pass current total device\" lines on FD\n"
"  -q, --quiet          no summary at the end\n"
"  -h, --help           this text\n"
"  -V, --version        the version\n"
"\n"
"Exit status: 0 restored, 1 failure (a damaged image included), 16 usage error.\n");
}

static void print_info(const struct md_header *h)
{
	char when[64] = "?";
	time_t t = (time_t)h->created;
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	printf("source: %s\ntaken: %s\nblock size: %u\nvolume blocks: %" PRIu64 "\n",
	       h->source, when, 1u << h->log_blocksize, h->volume_blocks);
	printf("uuid: ");
	for (unsigned i = 0; i < 16; i++)
		printf("%02x%s", h->uuid[i], i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
	printf("\nnames: %s\nfile data: %s\nnode blocks: %s\ndevices: %u\n",
	       h->flags & MD_NAMES_SCRAMBLED ? "scrambled" : "kept",
	       h->flags & MD_DATA_LEFT_OUT ? "left out" : "kept",
	       h->flags & MD_NODES_SCANNED ? "found by a scan (no usable checkpoint)" :
	       "the NAT's, the SIT's and the logs'", h->ndevs);
	for (unsigned i = 0; i < h->ndevs; i++) {
		const struct md_dev *d = &h->dev[i];

		printf("device %u: %" PRIu64 " bytes, volume blocks %" PRIu64 "..%" PRIu64 ", %s",
		       i, d->bytes, d->first_block, d->first_block + d->blocks - 1,
		       d->zoned == 2 ? "zoned (host-managed)" : d->zoned == 1 ?
		       "zoned (host-aware)" : "not zoned");
		if (d->zoned)
			printf(", zones of %u blocks (%u writable), %u conventional",
			       d->zone_blocks, d->zone_cap_blocks, d->conv_zones);
		if (d->path[0])
			printf(", path %s", d->path);
		printf("\n");
	}
}

struct target {
	const char *path;
	int fd;
	bool device;               /* a block device: the zeros the image names are written */
};

/* Open target @t for device @d: a file made @d->bytes long and empty, or a block device
 * holding at least that much. */
static int open_target(struct target *t, const struct md_dev *d)
{
	struct stat st;
	uint64_t size = 0;

	if (zf2fs_path_is_mounted(t->path) > 0) {
		fprintf(stderr, PROG ": %s is mounted\n", t->path);
		return -EBUSY;
	}
	t->fd = open(t->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (t->fd < 0 || fstat(t->fd, &st)) {
		fprintf(stderr, PROG ": %s: %s\n", t->path, strerror(errno));
		return -errno;
	}
	if (S_ISREG(st.st_mode)) {
		if (ftruncate(t->fd, 0) || ftruncate(t->fd, (off_t)d->bytes)) {
			fprintf(stderr, PROG ": %s: cannot make it %" PRIu64 " bytes: %s\n", t->path,
				d->bytes, strerror(errno));
			return -errno;
		}
		return 0;
	}
#ifdef BLKGETSIZE64
	if (S_ISBLK(st.st_mode) && !ioctl(t->fd, BLKGETSIZE64, &size) && size >= d->bytes) {
		if (d->zoned) {
			fprintf(stderr, PROG ": %s: restoring a zoned volume onto a device is not "
				"supported: restore it into a file\n", t->path);
			return -ENOTSUP;
		}
		t->device = true;
		return 0;
	}
#endif
	fprintf(stderr, PROG ": %s: neither a file nor a block device of %" PRIu64 " bytes or "
		"more (%" PRIu64 ")\n", t->path, d->bytes, size);
	return -EINVAL;
}

static int write_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t w = pwrite(fd, p, len, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		len -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

/* The device volume block @a lies on, and in *@ret_n how many of the blocks from @a up to
 * @end do (a run of the image may go on from one device into the next). */
static unsigned dev_span(const struct md_header *h, uint64_t a, uint64_t end, uint64_t *ret_n)
{
	unsigned dv = 0;
	uint64_t dev_end;

	while (dv + 1 < h->ndevs && a >= h->dev[dv + 1].first_block)
		dv++;
	dev_end = h->dev[dv].first_block + h->dev[dv].blocks;
	*ret_n = (end < dev_end ? end : dev_end) - a;
	return dv;
}

/* Blocks @start .. @start + @count - 1 read as zeros at the source: written on block
 * devices, which hold whatever they held; a file made for the restore is zeros already. */
static int write_zeros(const struct md_header *h, const struct target *t, uint64_t start,
		       uint32_t count)
{
	static const uint8_t zero[65536];
	uint64_t bs = 1u << h->log_blocksize;
	int err = 0;

	for (uint64_t a = start, end = start + count, n; a < end && !err; a += n) {
		unsigned dv = dev_span(h, a, end, &n);
		uint64_t len = n * bs, off = (a - h->dev[dv].first_block) * bs;

		if (!t[dv].device)
			continue;
		for (uint64_t done = 0; done < len && !err; done += sizeof(zero) < len - done ?
							   sizeof(zero) : len - done)
			err = write_all(t[dv].fd, zero, sizeof(zero) < len - done ? sizeof(zero) :
					(size_t)(len - done), off + done);
	}
	return err;
}

/* The superblock copies name the targets as the volume's devices. */
static int rename_devices(const struct md_header *h, const struct target *t)
{
	uint8_t *blk = malloc(ZF2FS_BLKSIZE);
	int err = 0;

	if (!blk)
		return -ENOMEM;
	for (unsigned c = 0; c < 2 && !err; c++) {
		struct zf2fs_super *sb = (struct zf2fs_super *)(blk + SB_OFFSET);
		uint64_t off = (uint64_t)c << h->log_blocksize;
		bool crc_ok;

		if (pread(t[0].fd, blk, ZF2FS_BLKSIZE, (off_t)off) != ZF2FS_BLKSIZE) {
			err = -EIO;
			break;
		}
		if (zf2fs_get(sb->magic) != ZF2FS_MAGIC)
			continue;   /* a copy the source did not have: nothing to name */
		crc_ok = (zf2fs_get(sb->feature) & ZF2FS_FEAT_SB_CHKSUM) &&
			 zf2fs_super_checksum(sb) == zf2fs_get(sb->crc);
		for (unsigned i = 0; i < h->ndevs; i++) {
			memset(sb->devs[i].path, 0, ZF2FS_DEVICE_PATH_LEN);
			memcpy(sb->devs[i].path, t[i].path, strlen(t[i].path));
		}
		if (crc_ok)
			zf2fs_set(sb->crc, zf2fs_super_checksum(sb));
		err = write_all(t[0].fd, blk, ZF2FS_BLKSIZE, off);
	}
	free(blk);
	return err;
}

struct run {
	const char *image;
	const char *const *targets;
	unsigned ntargets;
	bool info, quiet, bar;
	int progress_fd;
};

static int restore(const struct run *r, struct md_reader *rd)
{
	const struct md_header *h = md_reader_header(rd);
	struct target t[ZF2FS_MAX_DEVICES];
	uint64_t written = 0, unreadable = 0, runs_bad = 0;
	uint32_t bs = 1u << h->log_blocksize;
	struct zs_progress prog;
	char why[256] = "";
	int err = 0, got;

	if (r->ntargets != h->ndevs) {
		fprintf(stderr, PROG ": the image holds a volume of %u device%s: give %u target%s\n",
			h->ndevs, h->ndevs == 1 ? "" : "s", h->ndevs, h->ndevs == 1 ? "" : "s");
		return ZS_EXIT_USAGE;
	}
	for (unsigned i = 0; i < h->ndevs; i++)
		t[i] = (struct target){ .path = r->targets[i], .fd = -1 };
	for (unsigned i = 0; i < h->ndevs && !err; i++)
		err = open_target(&t[i], &h->dev[i]);
	if (err)
		goto out;
	if (h->ndevs > 1)
		for (unsigned i = 0; i < h->ndevs; i++)
			if (strlen(t[i].path) >= ZF2FS_DEVICE_PATH_LEN) {
				fprintf(stderr, PROG ": %s: a path of %d bytes or more does not fit "
					"the superblock's device list\n", t[i].path,
					ZF2FS_DEVICE_PATH_LEN);
				err = -ENAMETOOLONG;
				goto out;
			}
	zs_progress_init(&prog, r->progress_fd, r->bar, r->image, 1);
	zs_progress_pass(&prog, 1, "restoring", h->volume_blocks);
	for (;;) {
		uint32_t type, count;
		uint64_t start;
		const uint8_t *data;

		got = md_reader_next(rd, &type, &start, &count, &data, why, sizeof(why));
		if (got <= 0) {
			err = got;
			break;
		}
		if (type == MD_REC_UNREADABLE) {
			if (!r->quiet && runs_bad++ < 20)
				fprintf(stderr, PROG ": blocks %" PRIu64 "..%" PRIu64 " could not be "
					"read from the source\n", start,
					start + count - 1);
			unreadable += count;
			continue;
		}
		if (type == MD_REC_ZEROS) {
			err = write_zeros(h, t, start, count);
			if (err)
				break;
			continue;
		}
		for (uint64_t a = start, n; a < start + count && !err; a += n) {
			unsigned dv = dev_span(h, a, start + count, &n);

			err = write_all(t[dv].fd, data + (size_t)(a - start) * bs, (size_t)n * bs,
					(a - h->dev[dv].first_block) << h->log_blocksize);
		}
		if (err)
			break;   /* a target that cannot be written */
		written += count;
		zs_progress_set(&prog, start + count);
	}
	zs_progress_end(&prog);
	zs_progress_close(&prog);
	if (err) {
		fprintf(stderr, PROG ": %s: %s\n", r->image, why[0] ? why : strerror(-err));
		goto out;
	}
	if (h->ndevs > 1)
		err = rename_devices(h, t);
	if (!err && (h->flags & MD_NAMES_SCRAMBLED))
		err = write_all(t[0].fd, ZF2FS_METADUMP_MARKER, sizeof(ZF2FS_METADUMP_MARKER),
				ZF2FS_METADUMP_MARKER_OFFSET);
	for (unsigned i = 0; i < h->ndevs && !err; i++)
		if (fsync(t[i].fd))
			err = -errno;
	if (err) {
		fprintf(stderr, PROG ": writing the volume: %s\n", strerror(-err));
		goto out;
	}
	if (runs_bad > 20)
		fprintf(stderr, PROG ": ... and %" PRIu64 " more unreadable runs\n", runs_bad - 20);
	if (!r->quiet)
		fprintf(stderr, PROG ": %s: %" PRIu64 " blocks written to %u device%s, %" PRIu64
			" unreadable at the source; names %s\n", r->image, written, h->ndevs,
			h->ndevs == 1 ? "" : "s", unreadable,
			h->flags & MD_NAMES_SCRAMBLED ? "scrambled" : "as on the source");
out:
	for (unsigned i = 0; i < h->ndevs && i < r->ntargets; i++)
		if (t[i].fd >= 0)
			close(t[i].fd);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	enum { OPT_PROGRESS_FD = 256 };
	static const struct option opts[] = {
		{ "info", no_argument, NULL, 'i' },
		{ "progress", no_argument, NULL, 'g' },
		{ "progress-fd", required_argument, NULL, OPT_PROGRESS_FD },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct run r = { .progress_fd = -1 };
	struct md_reader *rd;
	char why[256];
	FILE *in;
	int c, ret;

	while ((c = getopt_long(argc, argv, "igqhV", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			r.info = true;
			break;
		case 'g':
			r.bar = true;
			break;
		case OPT_PROGRESS_FD:
			r.progress_fd = zs_progress_fd_arg(PROG, optarg);
			break;
		case 'q':
			r.quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			return zs_print_version(stdout, PROG) ? 1 : 0;
		default:
			zs_usage_error(PROG, "unknown option or missing argument: %s",
				       argv[optind - 1]);
		}
	}
	if (optind >= argc)
		zs_usage_error(PROG, "no image given");
	r.image = argv[optind];
	r.targets = (const char *const *)argv + optind + 1;
	r.ntargets = (unsigned)(argc - optind - 1);
	if (r.info && r.ntargets)
		zs_usage_error(PROG, "-i takes the image only");
	if (!r.info && !r.ntargets)
		zs_usage_error(PROG, "no target given");
	if (r.ntargets > ZF2FS_MAX_DEVICES)
		zs_usage_error(PROG, "too many targets (a volume has at most %d devices)",
			       ZF2FS_MAX_DEVICES);
	in = strcmp(r.image, "-") ? fopen(r.image, "rb") : stdin;
	if (!in) {
		fprintf(stderr, PROG ": %s: %s\n", r.image, strerror(errno));
		return 1;
	}
	if (md_reader_open(in, &rd, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s: %s\n", r.image, why);
		ret = 1;
	} else {
		if (r.info) {
			print_info(md_reader_header(rd));
			ret = fflush(stdout) ? 1 : 0;
		} else {
			ret = restore(&r, rd);
		}
		md_reader_close(rd);
	}
	if (in != stdin)
		fclose(in);
	return ret;
}
