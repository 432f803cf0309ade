// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sload.c - sload.f2fs: copy a directory tree into an F2FS volume, without mounting it
 * and without root.
 *
 * The interface of f2fs-tools' sload.f2fs.  The work is libzf2fs's (lib/write/load_tree.c on
 * the crash-safe transaction): this file parses options and prints.  With -T (or
 * SOURCE_DATE_EPOCH) and a volume made with a fixed UUID, the same tree gives the same
 * image byte for byte.
 *
 * On success it prints one line of f2fs-tools' output, "[FSCK] Max image size: N MB, Free
 * space: M MB": Android's mkf2fsuserimg.sh takes its fifth word to size a read-only image
 * built again from the same tree.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "zf2fs/format.h"
#include <inttypes.h>
#include "zf2fs/load.h"
#include "zf2fs-internal/load.h"
#include "zf2fs/compress.h"
#include "zf2fs/simg.h"
#include "helper.h"
#include "progress.h"

#define PROG "sload.f2fs"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [options] device\n"
"Copy the directory tree SOURCE_DIR into an F2FS volume (unmounted).  On success,\n"
"print f2fs-tools' line \"[FSCK] Max image size: N MB, Free space: M MB\": the\n"
"size (MiB) an image of this tree needs, and the space left here.\n"
"\n"
"  -f, --from DIR         the source directory (required)\n"
"  -t, --mount-point DIR  where the volume is mounted in the running system: the\n"
"                         prefix of the paths looked up in -C and -s [default: /]\n"
"      --target-dir DIR   the directory of the volume to copy into [default: /]\n"
"  -T, --timestamp SECS   every inode's times (also SOURCE_DATE_EPOCH); otherwise each\n"
"                         takes its source's modification time\n"
"  -P, --preserve-owner   keep the source's uid and gid (otherwise root owns all)\n"
"  -C, --fs-config FILE   owners, modes and capabilities from an Android fs_config\n"
"                         file (\"path uid gid mode [capabilities=N]\" per line)\n"
"  -s, --file-contexts FILE  security.selinux labels from a file_contexts file\n"
"                         (needs a build with libselinux: see --version)\n"
"  -p, --product-out DIR  the directory relative -C and -s files are in\n"
"  -S, --sparse           the device is an Android sparse image: unpacked to a raw\n"
"                         file beside it, loaded, packed back in its place\n"
"  -d, --debug LEVEL      library messages: 0 quiet .. 4 debug (more counts as 4)\n"
"                         [default: 1]\n"
"      --progress         a completion bar on standard error, when it is a terminal\n"
"      --progress-fd FD   lines \"PASS CURRENT TOTAL DEVICE\" on file descriptor FD\n"
"                         for a front-end (as e2fsck -C FD writes them): the\n"
"                         entries copied, weighted by their blocks\n"
"  -V, --version          print the version and exit\n"
"  -h, --help             this help\n"
"\n"
"  -c, --compress         regular files (but inline ones) in compressed clusters\n"
"                         (volumes with -O extra_attr,compression); sub-options:\n"
"  -a, --compress-algorithm NAME  lzo (liblzo2), lz4 (liblz4), zstd (libzstd) or\n"
"                         lzo-rle (liblzo2; plain LZO1X, which Linux reads):\n"
"                         see --version for this build's [default: lz4]\n"
"  -L, --cluster-log N    clusters of 2^N blocks, 2..8 [default: 2]\n"
"  -x, --compress-except EXT  compress every file but those named *.EXT (repeatable)\n"
"  -i, --compress-only EXT    compress only files named *.EXT (repeatable; not with -x)\n"
"  -m, --min-saved-blocks N   store a cluster compressed only when that saves at\n"
"                         least N blocks, 1..2^L-1 [default: 1]\n"
"  -r, --release-blocks   compressed files read only, their unused reserved blocks\n"
"                         released (as the F2FS_IOC_RELEASE_COMPRESS_BLOCKS ioctl)\n");
}

/*
 * The "Max image size" line, from the loaded volume's counts as f2fs-tools' development
 * branch computes it: the metadata areas, then whole sections for the node blocks and
 * whole sections for the other valid blocks; "Free space" the sections left.  In MiB.
 */
static int print_image_size(const char *img, const struct zf2fs_log *log)
{
	struct zf2fs_vol *vol;
	const struct zf2fs_super *sb;
	const struct zf2fs_checkpoint *cp;
	uint64_t per_sec, nodes, blocks, secs, max_blks, free_blks;
	unsigned shift;
	int err = zf2fs_vol_open(&img, 1, ZF2FS_VOL_BLOCK16K, log, &vol);

	if (err) {
		fprintf(stderr, PROG ": %s: while reading back %s\n", strerror(-err), img);
		return 1;
	}
	sb = zf2fs_vol_super(vol);
	cp = zf2fs_vol_checkpoint(vol);
	per_sec = zf2fs_get(sb->segs_per_sec) << zf2fs_get(sb->log_blocks_per_seg);
	nodes = zf2fs_get(cp->valid_node_count);
	blocks = zf2fs_get(cp->valid_block_count);
	secs = (nodes + per_sec - 1) / per_sec +
	       (blocks - (nodes < blocks ? nodes : blocks) + per_sec - 1) / per_sec;
	max_blks = zf2fs_get(sb->main_blkaddr) + secs * per_sec;
	free_blks = zf2fs_get(sb->section_count) > secs ?
		    (zf2fs_get(sb->section_count) - secs) * per_sec : 0;
	shift = 20 - (unsigned)zf2fs_get(sb->log_blocksize);
	printf("[FSCK] Max image size: %" PRIu64 " MB, Free space: %" PRIu64 " MB\n",
	       max_blks >> shift, free_blks >> shift);
	zf2fs_vol_close(vol);
	return fflush(stdout) ? 1 : 0;
}

/* The library's progress of the load: pass 1, counting what it copied. */
static void loaded(void *arg, uint64_t done, uint64_t total)
{
	struct zs_progress *p = arg;

	if (!p->pass)
		zs_progress_pass(p, 1, "loading the tree", total);
	zs_progress_set(p, done);
}

/* -S: @img is an Android sparse image.  It is unpacked to a raw file beside it, loaded,
 * packed to a second file and renamed over @img: until then @img is as it was. */
static int load_sparse(const char *img, const struct zf2fs_load_opts *o,
		       const struct zf2fs_log *log, struct zs_progress *prog)
{
	size_t len = strlen(img) + 40;
	char *raw = malloc(len), *packed = malloc(len), why[512] = "";
	struct zf2fs_load_stats st;
	uint32_t blk_sz = 0;
	int err;

	if (!raw || !packed) {
		free(raw);
		free(packed);
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	snprintf(raw, len, "%s.zf2fs-%ld.raw", img, (long)getpid());
	snprintf(packed, len, "%s.zf2fs-%ld.new", img, (long)getpid());
	if (!access(raw, F_OK) || !access(packed, F_OK)) {
		fprintf(stderr, PROG ": %s or %s exists already: not loading\n", raw, packed);
		free(raw);
		free(packed);
		return 1;
	}
	err = zf2fs_simg_unpack(img, raw, &blk_sz, why, sizeof(why));
	if (err) {
		fprintf(stderr, PROG ": %s\n", why);
	} else {
		err = zf2fs_load_tree_progress((const char *const *)&raw, 1, o,
					       zs_progress_on(prog) ? loaded : NULL, prog, log,
					       &st);
		if (!err)
			zs_progress_end(prog);
		zs_progress_close(prog);
		if (!err && print_image_size(raw, log))
			err = -EIO;
		if (!err) {
			err = zf2fs_simg_pack(raw, packed, blk_sz, why, sizeof(why));
			if (err)
				fprintf(stderr, PROG ": %s\n", why);
		}
		if (!err && rename(packed, img)) {
			err = -errno;
			fprintf(stderr, PROG ": %s: while replacing %s\n", strerror(errno), img);
		}
	}
	if (err)
		unlink(packed);
	unlink(raw);
	free(raw);
	free(packed);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "mount-point", required_argument, NULL, 't' },
		{ "timestamp", required_argument, NULL, 'T' },
		{ "preserve-owner", no_argument, NULL, 'P' },
		{ "fs-config", required_argument, NULL, 'C' },
		{ "file-contexts", required_argument, NULL, 's' },
		{ "product-out", required_argument, NULL, 'p' },
		{ "target-dir", required_argument, NULL, 1 },
		{ "sparse", no_argument, NULL, 'S' },
		{ "compress", no_argument, NULL, 'c' },
		{ "compress-algorithm", required_argument, NULL, 'a' },
		{ "cluster-log", required_argument, NULL, 'L' },
		{ "compress-except", required_argument, NULL, 'x' },
		{ "compress-only", required_argument, NULL, 'i' },
		{ "min-saved-blocks", required_argument, NULL, 'm' },
		{ "release-blocks", no_argument, NULL, 'r' },
		{ "debug", required_argument, NULL, 'd' },
		{ "progress", no_argument, NULL, 2 },
		{ "progress-fd", required_argument, NULL, 3 },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct zf2fs_log log = { .level = 1, .fn = zs_cli_log, .arg = (void *)PROG };
	struct zf2fs_load_opts o = { .log_cluster = 2 };
	struct zf2fs_load_stats st;
	struct zs_progress prog;
	const char *sde = getenv("SOURCE_DATE_EPOCH"), *dev, *fault;
	bool sparse = false, sub = false, progress_bar = false;
	int progress_fd = -1;
	const char *exts[64];   /* -x or -i */
	char sub_opt = 0, ext_opt = 0;
	uint64_t min_saved = 0;
	int c, err, alg;

	if (sde && *sde) {
		o.fixed_time = true;
		o.time = zs_parse_u64(PROG, sde, "SOURCE_DATE_EPOCH", 0, UINT32_MAX * 4ull);
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:t:T:Pd:hVC:s:p:cSa:L:x:i:m:r", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o.source = optarg;
			break;
		case 't':
			o.mount_point = optarg;
			break;
		case 1:
			o.target = optarg;
			break;
		case 'C':
			o.fs_config = optarg;
			break;
		case 's':
			if (!zf2fs_have_selinux_support()) {
				fprintf(stderr, PROG ": -s needs libselinux, and this build has none\n");
				return 1;
			}
			o.file_contexts = optarg;
			break;
		case 'p':
			o.product_out = optarg;
			break;
		case 'T':
			o.fixed_time = true;
			o.time = zs_parse_u64(PROG, optarg, "timestamp", 0, UINT32_MAX * 4ull);
			break;
		case 'P':
			o.keep_owner = true;
			break;
		case 'd':
			log.level = (int)zs_parse_u64(PROG, optarg, "debug level", 0, INT32_MAX);
			if (log.level > 4)
				log.level = 4;   /* f2fs-tools takes any level */
			break;
		case 2:
			progress_bar = true;
			break;
		case 3:
			progress_fd = zs_progress_fd_arg(PROG, optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			return zs_print_version(stdout, PROG) ? 1 : 0;
		case 'S':
			sparse = true;
			break;
		case 'c':
			o.compress = true;
			break;
		case 'a':
			o.algorithm = optarg;
			sub_opt = (char)c;
			break;
		case 'L':
			o.log_cluster = (uint8_t)zs_parse_u64(PROG, optarg, "cluster log", 2, 8);
			sub_opt = (char)c;
			break;
		case 'x':
		case 'i':
			if (ext_opt && ext_opt != c)
				zs_usage_error(PROG, "-i and -x cannot be used together");
			ext_opt = sub_opt = (char)c;
			if (o.n_exts == sizeof(exts) / sizeof(exts[0]))
				zs_usage_error(PROG, "more than %zu extensions (-%c)",
					       sizeof(exts) / sizeof(exts[0]), c);
			exts[o.n_exts++] = optarg;
			break;
		case 'm':
			min_saved = zs_parse_u64(PROG, optarg, "minimum of saved blocks", 1, 255);
			sub_opt = (char)c;
			break;
		case 'r':
			o.release = true;
			sub_opt = (char)c;
			break;
		default:
			zs_usage_error(PROG, "unknown option or missing argument: %s",
				       argv[optind - 1]);
		}
	}
	sub = sub_opt != 0;
	if (sub && !o.compress)
		zs_usage_error(PROG, "-%c is a compression sub-option: it needs -c", sub_opt);
	if (min_saved >= 1u << o.log_cluster)
		zs_usage_error(PROG, "invalid minimum of saved blocks: '%llu' (expected 1..%u with -L %u)",
			       (unsigned long long)min_saved, (1u << o.log_cluster) - 1,
			       (unsigned)o.log_cluster);
	o.min_saved = (uint32_t)min_saved;
	o.exts = exts;
	o.exts_only = ext_opt == 'i';
	if (o.compress) {
		alg = zf2fs_compress_by_name(o.algorithm ? o.algorithm : "lz4");
		if (alg < 0)
			zs_usage_error(PROG, "unknown compression algorithm: '%s' (lzo, lz4, zstd or lzo-rle)",
				       o.algorithm);
		if (!zf2fs_compress_supported((uint8_t)alg)) {
			fprintf(stderr, PROG ": %s\n", alg == ZF2FS_COMPRESS_LZORLE ?
				"-a lzo-rle needs liblzo2, and this build has none" :
				alg == ZF2FS_COMPRESS_LZO ? "-a lzo needs liblzo2, and this build has none" :
				alg == ZF2FS_COMPRESS_ZSTD ? "-a zstd needs libzstd, and this build has none" :
				"-c (lz4) needs liblz4, and this build has none");
			return 1;
		}
	}
	if (!o.source)
		zs_usage_error(PROG, "no source directory given (-f)");
	if (optind >= argc)
		zs_usage_error(PROG, "no device given");
	if (argc - optind > 1)
		zs_usage_error(PROG, "too many arguments");
	dev = argv[optind];
	zs_test_load_flush(&o);
	/* one pass, the load: what the library copied, from the end of its checks */
	zs_progress_init(&prog, progress_fd, progress_bar, dev, 1);
	if (sparse)
		return load_sparse(dev, &o, &log, &prog);
	err = zf2fs_path_is_mounted(dev);
	if (err) {
		if (err > 0)
			fprintf(stderr, PROG ": %s is mounted; not loading into it\n", dev);
		else
			fprintf(stderr, PROG ": %s: while checking whether %s is mounted\n",
				strerror(-err), dev);
		return 1;
	}
	fault = getenv("ZF2FS_FAULT_WRITES");
	if (fault && *fault) {
		/* tests: the N-th write fails (and every one after), as in fsck.f2fs; the
		 * device is opened here so that the count runs over every commit */
		struct zf2fs_dev *d;

		err = zf2fs_dev_open(dev, ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL, &log, &d);
		if (err) {
			fprintf(stderr, PROG ": %s: while opening %s\n", strerror(-err), dev);
			return 1;
		}
		zs_dev_fail_writes_after(d, strtoul(fault, NULL, 10));
		err = zf2fs_load_tree_devs_progress(&d, 1, &o,
						    zs_progress_on(&prog) ? loaded : NULL, &prog,
						    &log, &st);
		zf2fs_dev_close(d);
	} else {
		err = zf2fs_load_tree_progress(&dev, 1, &o, zs_progress_on(&prog) ? loaded : NULL,
					       &prog, &log, &st);
	}
	if (!err)
		zs_progress_end(&prog);
	zs_progress_close(&prog);
	if (err)
		return 1;   /* the library named the path and the cause */
	zf2fs_logf(&log, ZF2FS_MSG_INFO, 2,
		   "%llu inodes, %llu more hard links, %llu flushes, %llu commit",
		   (unsigned long long)st.inodes, (unsigned long long)st.links,
		   (unsigned long long)st.flushes, (unsigned long long)st.commits);
	return print_image_size(dev, &log);
}
