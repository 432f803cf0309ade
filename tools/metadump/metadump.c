// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * metadump.c - f2fs_metadump: an F2FS volume's metadata, without file data and with its
 * names scrambled, in one compressed file that f2fs_mdrestore turns back into a volume
 * (the pair follows xfs_metadump and xfs_mdrestore).
 *
 * The image is for sharing a broken volume with whoever debugs it: fsck run on the
 * restored volume finds what it finds on the source, apart from file contents and the
 * name hashes of scrambled names.  The source is only read.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "helper.h"
#include "md_dump.h"
#include "progress.h"
#include "zf2fs/format.h"
#include "zf2fs/geometry.h"
#include "zf2fs/zoned.h"
#include "zf2fs-internal/volume.h"

#define PROG "f2fs_metadump"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [options] DEVICE IMAGE\n"
"Copy the metadata of the F2FS volume on DEVICE into IMAGE (\"-\": standard output):\n"
"superblocks, checkpoints, SIT, NAT, SSA, every node block, the blocks of directories,\n"
"symlinks and quota files; no file data.  Names, symlink targets and user and trusted\n"
"xattrs are scrambled (same lengths, same places) unless -o is given.  f2fs_mdrestore\n"
"makes a volume of the image again.  DEVICE is only read.\n"
"\n"
"  -o, --keep-names     copy names, symlink targets and xattrs as they are\n"
"  -g, --progress       a progress bar on standard error (a terminal)\n"
"      --progress-fd FD \"pass current total device\" lines on FD\n"
"  -q, --quiet          no summary at the end\n"
"  -h, --help           this text\n"
"  -V, --version        the version\n"
"\n"
"Exit status: 0 image written (blocks that could not be read are listed in it and\n"
"counted in the summary), 1 failure, 16 usage error.\n");
}

/* Each device's share of the volume's block addresses (the library's map), its size and
 * zone geometry, and its path in the superblock. */
static int fill_devices(struct zf2fs_vol *vol, struct md_header *h)
{
	const struct zf2fs_super *sb = zf2fs_vol_super(vol);
	const struct zf2fs_geom *g = zf2fs_vol_geom(vol);
	unsigned n = zf2fs_vol_ndevs(vol);
	uint64_t first = 0, last = 0;

	h->ndevs = n;
	for (unsigned i = 0; i < n; i++) {
		struct zf2fs_dev_geom dg;
		struct md_dev *d = &h->dev[i];
		int err = zf2fs_vol_dev_range(vol, i, &first, &last) ?:
			  zf2fs_dev_geometry(zf2fs_vol_dev(vol, i), &dg);

		if (err)
			return err;
		d->first_block = first;
		d->blocks = last - first + 1;
		d->bytes = dg.bytes;
		d->zoned = dg.zone_model;
		if (dg.zone_model != ZF2FS_ZONED_NONE) {
			d->zone_blocks = (uint32_t)(dg.zone_bytes >> g->log_blocksize);
			d->zone_cap_blocks = (uint32_t)(dg.zone_cap_bytes >> g->log_blocksize);
			d->conv_zones = dg.nr_conv_zones;
		}
		memcpy(d->path, sb->devs[i].path, ZF2FS_DEVICE_PATH_LEN);
	}
	h->volume_blocks = last + 1;
	return 0;
}

struct run {
	const char *dev, *out;
	bool keep_names, quiet, bar;
	int progress_fd;
};

static int run(const struct run *r)
{
	struct zf2fs_log log = { .level = 0, .fn = zs_cli_log, .arg = (void *)PROG };
	struct md_header h = { .version = MD_VERSION, .flags = MD_DATA_LEFT_OUT };
	struct zs_progress prog;
	struct md_dump d = { .scramble = !r->keep_names, .prog = &prog };
	struct zf2fs_vol *vol = NULL;
	FILE *out = NULL;
	uint64_t stored = 0, bytes = 0;
	int err, ret = 1;

	if (zf2fs_path_is_mounted(r->dev) > 0)
		fprintf(stderr, PROG ": WARNING: %s is mounted: the image may not be consistent\n",
			r->dev);
	err = zf2fs_vol_open(&r->dev, 1, ZF2FS_VOL_BLOCK16K | ZF2FS_VOL_NO_CHECKPOINT, &log, &vol);
	if (err) {
		fprintf(stderr, PROG ": %s: cannot open the volume: %s\n", r->dev, strerror(-err));
		return 1;
	}
	if (!zf2fs_vol_has_checkpoint(vol)) {
		/* the case the image is most wanted for: what fsck --rebuild would read */
		d.scan = true;
		h.flags |= MD_NODES_SCANNED;
		if (!r->quiet)
			fprintf(stderr, PROG ": %s: no usable checkpoint (pack 1: %s; pack 2: %s): "
				"copying every block of the main area that looks like a node\n",
				r->dev, zf2fs_vol_cp_problem(vol, 0), zf2fs_vol_cp_problem(vol, 1));
	}
	d.vol = vol;
	d.g = zf2fs_vol_geom(vol);
	d.features = zf2fs_vol_info(vol)->features;
	d.csum_seed = zf2fs_checksum_seed(zf2fs_vol_super(vol)->uuid);
	if (d.scramble) {
		if (getrandom(&d.key, sizeof(d.key), 0) != sizeof(d.key))
			d.key = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
		h.flags |= MD_NAMES_SCRAMBLED;
	}
	h.log_blocksize = d.g->log_blocksize;
	h.created = (uint64_t)time(NULL);
	memcpy(h.uuid, zf2fs_vol_super(vol)->uuid, 16);
	snprintf(h.source, sizeof(h.source), "%s", r->dev);
	err = fill_devices(vol, &h);
	if (err) {
		fprintf(stderr, PROG ": %s: %s\n", r->dev, strerror(-err));
		goto out;
	}
	if (!strcmp(r->out, "-")) {
		out = stdout;
	} else {
		struct stat a, b;

		if (!stat(r->out, &a) && !stat(r->dev, &b) && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino) {
			fprintf(stderr, PROG ": %s is the device itself\n", r->out);
			goto out;
		}
		out = fopen(r->out, "wb");
		if (!out) {
			fprintf(stderr, PROG ": %s: %s\n", r->out, strerror(errno));
			goto out;
		}
	}
	err = md_writer_open(out, &h, &d.w);
	if (!err) {
		zs_progress_init(&prog, r->progress_fd, r->bar, r->dev, 3);
		err = md_dump_volume(&d);
		zs_progress_close(&prog);
		if (err) {
			md_writer_close(d.w, NULL, NULL);
			d.w = NULL;
		} else {
			err = md_writer_close(d.w, &stored, &bytes);
		}
	}
	if (out != stdout && fclose(out) && !err)
		err = -errno;
	out = NULL;
	if (err) {
		fprintf(stderr, PROG ": %s: writing the image: %s\n", r->out, strerror(-err));
		if (strcmp(r->out, "-"))
			unlink(r->out);
		goto out;
	}
	if (!r->quiet)
		fprintf(stderr, PROG ": %s: %llu inodes (%llu directories); %llu metadata-area, "
			"%llu node and %llu directory, symlink and quota blocks read, %llu stored "
			"in %llu bytes; %llu unreadable; names %s\n", r->dev,
			(unsigned long long)d.inodes, (unsigned long long)d.dirs,
			(unsigned long long)d.meta_blocks, (unsigned long long)d.node_blocks,
			(unsigned long long)d.data_blocks, (unsigned long long)stored,
			(unsigned long long)bytes, (unsigned long long)d.unreadable,
			d.scramble ? "scrambled" : "kept");
	ret = 0;
out:
	if (out && out != stdout)
		fclose(out);
	zf2fs_vol_close(vol);
	return ret;
}

int main(int argc, char **argv)
{
	enum { OPT_PROGRESS_FD = 256 };
	static const struct option opts[] = {
		{ "keep-names", no_argument, NULL, 'o' },
		{ "progress", no_argument, NULL, 'g' },
		{ "progress-fd", required_argument, NULL, OPT_PROGRESS_FD },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct run r = { .progress_fd = -1 };
	int c;

	while ((c = getopt_long(argc, argv, "ogqhV", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			r.keep_names = true;
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
	if (argc - optind < 2)
		zs_usage_error(PROG, "a device and an image file are needed");
	if (argc - optind > 2)
		zs_usage_error(PROG, "too many arguments");
	r.dev = argv[optind];
	r.out = argv[optind + 1];
	if (!strcmp(r.out, "-") && isatty(STDOUT_FILENO))
		zs_usage_error(PROG, "will not write an image to a terminal");
	return run(&r);
}
