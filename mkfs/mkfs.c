// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkfs.c - mkfs.f2fs: format files and block devices (zoned ones with -m) as F2FS.
 *
 * This front-end only parses options, checks the target (mounted? existing filesystem?),
 * asks libzf2fs for the layout, prints it, and asks libzf2fs to write it.  Everything that
 * can be refused is refused before the first write.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/load.h"
#include "helper.h"

#define PROG "mkfs.f2fs"
#define EXIT_USAGE 16

struct mkfs_cli {
	const char *paths[ZF2FS_MAX_DEVICES];
	unsigned ndevs;
	uint64_t sectors;           /* optional size limit, in sector units */
	uint32_t wanted_sector;     /* -w */
	bool force, quiet, json, sparse;
	bool fixed_time;            /* -T or SOURCE_DATE_EPOCH given */
	const char *root_dir;       /* --root-dir: copied in after formatting */
	int debug;
	struct zf2fs_mkfs_opts mk;
	char version[ZF2FS_VERSION_LEN];
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [options] device [sectors]\n"
"Format a file or block device as F2FS.\n"
"\n"
"  -a 0|1            heap-based allocation (accepted; log placement is fixed)\n"
"  -c device         add a device (up to 7, repeat or separate with commas)\n"
"  -C enc[:flags]    casefolding: utf8, optionally :strict\n"
"  -d level          debug level (0-4)\n"
"  -e ext[,ext]      extra cold file extensions\n"
"  -E ext[,ext]      extra hot file extensions\n"
"  -f                overwrite an existing filesystem\n"
"  -g android        Android defaults (extra_attr,project_quota,inode_checksum,\n"
"                    inode_crtime,verity)\n"
"  -i                large NAT bitmap (NAT sized at 20%% of its maximum)\n"
"  -l label          volume label\n"
"  -m                zoned block device support (a section is a zone)\n"
"  -o percent        overprovision ratio [default: the one leaving most space]\n"
"  -O feature[,...]  features: encrypt, extra_attr, project_quota, inode_checksum,\n"
"                    flexible_inline_xattr, inode_crtime, lost_found, verity,\n"
"                    sb_checksum, casefold, compression, quota\n"
"  -q                quiet\n"
"  -r                fixed checkpoint version (reproducible images)\n"
"  -R uid:gid        owner of the root directory [default: 0:0]\n"
"  -s segments       segments per section [default: 1]\n"
"  -S                sparse mode: create or extend the image file to [sectors]\n"
"  -t 0|1            discard the device first [default: 1]\n"
"  -T seconds        timestamp for the root directory (also SOURCE_DATE_EPOCH)\n"
"  -U uuid           volume UUID\n"
"  -V, --version     print the version and exit\n"
"  -w bytes          sector size that [sectors] counts in\n"
"  -z sections       sections per zone [default: 1]\n"
"  -Z sections       reserved sections for GC (at least 8; implies -o 3 unless given)\n"
"      --json        print the computed layout as JSON on stdout\n"
"      --root-dir DIR  copy the tree DIR into the new volume (as sload.f2fs -P)\n"
"  -h, --help        this help\n");
}

#define die_usage(...) zf2fs_usage_error(PROG, __VA_ARGS__)

#define parse_u64(s, what, min, max) zf2fs_parse_u64(PROG, s, what, min, max)

static void add_devices(struct mkfs_cli *c, char *list)
{
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (c->ndevs >= ZF2FS_MAX_DEVICES)
			die_usage("too many devices (at most %s)", "8");
		c->paths[c->ndevs++] = tok;
	}
}

static void parse_encoding(struct mkfs_cli *c, const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);

	if (len != 4 || strncmp(arg, "utf8", 4))
		die_usage("unknown encoding '%s' (supported: utf8)", arg);
	c->mk.s_encoding = 1;
	c->mk.s_encoding_flags = 0;
	if (colon) {
		if (strcmp(colon + 1, "strict"))
			die_usage("unknown encoding flag '%s' (supported: strict)", colon + 1);
		c->mk.s_encoding_flags = 1;
	}
	c->mk.layout.features |= ZF2FS_FEAT_CASEFOLD;
}

static void parse_args(struct mkfs_cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "json", no_argument, NULL, 'J' },
		{ "root-dir", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	char bad[64];
	int opt;
	char *first_dev;

	c->mk.discard = true;
	c->mk.timestamp = sde ? parse_u64(sde, "SOURCE_DATE_EPOCH", 0, UINT64_MAX) :
				(uint64_t)time(NULL);
	c->ndevs = 1;   /* slot 0 is the main device, filled in below */
	opterr = 0;     /* getopt's messages would carry the libtool path; ours say mkfs.f2fs */
	while ((opt = getopt_long(argc, argv, "a:c:C:d:e:E:fg:hil:mo:O:qrR:s:St:T:U:Vw:z:Z:",
				  longopts, NULL)) != -1) {
		switch (opt) {
		case 'a': parse_u64(optarg, "heap setting", 0, 1); break;
		case 'c': add_devices(c, optarg); break;
		case 'C': parse_encoding(c, optarg); break;
		case 'd': c->debug = (int)parse_u64(optarg, "debug level", 0, 4); break;
		case 'e': c->mk.cold_extensions = optarg; break;
		case 'E': c->mk.hot_extensions = optarg; break;
		case 'f': c->force = true; break;
		case 'g':
			if (strcmp(optarg, "android"))
				die_usage("unknown default set '%s' (supported: android)", optarg);
			c->mk.layout.features |= ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_PRJQUOTA |
				ZF2FS_FEAT_INODE_CHKSUM | ZF2FS_FEAT_INODE_CRTIME | ZF2FS_FEAT_VERITY;
			break;
		case 'h': usage(stdout); exit(0);
		case 'i': c->mk.layout.large_nat_bitmap = true; break;
		case 'l': c->mk.label = optarg; break;
		case 'm': c->mk.layout.zoned = true; break;
		case 'o': {
			char *end;
			double r = strtod(optarg, &end);

			if (*end || !(r > 0 && r < 100))
				die_usage("invalid overprovision ratio '%s' (expected 0 < ratio < 100)",
					  optarg);
			c->mk.layout.overprovision = r;
			break;
		}
		case 'O':
			if (zf2fs_features_parse(optarg, &c->mk.layout.features, bad, sizeof(bad)))
				die_usage("unknown feature '%s'", bad);
			break;
		case 'q': c->quiet = true; break;
		case 'r': c->mk.fixed_cp_version = true; break;
		case 'R': {
			unsigned long uid, gid;
			char extra;

			if (sscanf(optarg, "%lu:%lu%c", &uid, &gid, &extra) != 2 ||
			    uid > UINT32_MAX || gid > UINT32_MAX)
				die_usage("invalid root owner '%s' (expected uid:gid)", optarg);
			c->mk.root_uid = (uint32_t)uid;
			c->mk.root_gid = (uint32_t)gid;
			break;
		}
		case 's':
			c->mk.layout.segs_per_sec = (uint32_t)parse_u64(optarg, "segments per section",
									1, ZF2FS_MAX_SEGMENTS);
			break;
		case 'S': c->sparse = true; break;
		case 't': c->mk.discard = parse_u64(optarg, "discard setting", 0, 1); break;
		case 'T':
			c->mk.timestamp = parse_u64(optarg, "timestamp", 0, UINT64_MAX);
			c->fixed_time = true;
			break;
		case 'U':
			if (uuid_parse(optarg, c->mk.uuid))
				die_usage("invalid UUID '%s'", optarg);
			c->mk.have_uuid = true;
			break;
		case 'V':
			exit(zf2fs_print_version(stdout, PROG) ? 1 : 0);
		case 'w':
			c->wanted_sector = (uint32_t)parse_u64(optarg, "sector size", 512, 4096);
			if (c->wanted_sector & (c->wanted_sector - 1))
				die_usage("sector size %s is not a power of two", optarg);
			break;
		case 'z':
			c->mk.layout.secs_per_zone = (uint32_t)parse_u64(optarg, "sections per zone",
									 1, ZF2FS_MAX_SEGMENTS);
			break;
		case 'Z':
			c->mk.layout.reserved_sections = (uint32_t)parse_u64(optarg,
						"reserved sections", 1, ZF2FS_MAX_SEGMENTS);
			break;
		case 'J': c->json = true; break;
		case 'D': c->root_dir = optarg; break;
		default:
			if (optopt && strchr("acCdeEgloORsStTUwzZ", optopt))
				die_usage("option -%c needs an argument", optopt);
			die_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		die_usage("%s", "no device given");
	first_dev = argv[optind++];
	/* -c devices were collected from slot 1 on; the main device goes first. */
	c->paths[0] = first_dev;
	if (optind < argc)
		c->sectors = parse_u64(argv[optind++], "sector count", 1, UINT64_MAX);
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	if (c->sparse && c->ndevs > 1)
		die_usage("%s", "-S works on a single image file");
	if (c->mk.layout.zoned && (c->mk.layout.segs_per_sec || c->mk.layout.secs_per_zone))
		fprintf(stderr, PROG ": -s and -z are ignored with -m (a section is a zone)\n");
}

/* -S: make sure the image file exists and has the requested size (holes cost nothing). */
static int prepare_sparse(struct mkfs_cli *c)
{
	uint32_t ss = c->wanted_sector ? c->wanted_sector : 512;
	int fd;

	if (!c->sectors) {
		fprintf(stderr, PROG ": -S needs the size as [sectors]\n");
		return -EINVAL;
	}
	fd = open(c->paths[0], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)(c->sectors * ss))) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	return 0;
}

static void print_summary(const struct mkfs_cli *c, const struct zf2fs_layout *l, FILE *f)
{
	fprintf(f, "Info: sector size = %u\n", zf2fs_sector_size(l->log_sectorsize));
	fprintf(f, "Info: total sectors = %" PRIu64 " (%" PRIu64 " MB)\n",
		zf2fs_blocks_to_sectors(l->block_count, l->log_sectors_per_block),
		zf2fs_blocks_to_mib(l->block_count));
	fprintf(f, "Info: segments per section = %u, sections per zone = %u\n",
		l->segs_per_sec, l->secs_per_zone);
	if (l->zoned)
		fprintf(f, "Info: zoned: %u zones of %u blocks, capacity %u blocks, "
			"%u usable segments (f2fs-tools 1.16 rule, for reserved and OP), "
			"%u free as the kernel counts them\n", l->nr_zones, l->zone_blocks,
			l->zone_cap_blocks, l->usable_segments, l->free_segments);
	fprintf(f, "Info: segment0 at block %u, main area at block %u, %u sections\n",
		l->segment0_blkaddr, l->main_blkaddr, l->section_count);
	if (l->note[0])
		fprintf(f, "Info: %s\n", l->note);
	fprintf(f, "Info: Overprovision ratio = %.3f%%\n", l->overprovision);
	fprintf(f, "Info: Overprovision segments = %u (GC reserved = %u)\n", l->ovp_segments,
		l->rsvd_segments);
	(void)c;
}

/* --root-dir: the tree goes in through the library's loader, as sload.f2fs -P puts it
 * (owners kept; times from -T or SOURCE_DATE_EPOCH when given, else the source's). */
static int load_root_dir(const struct mkfs_cli *c, const struct zf2fs_log *log, FILE *info)
{
	struct zf2fs_load_opts o = {
		.source = c->root_dir,
		.keep_owner = true,
		.fixed_time = c->fixed_time,
		.time = c->mk.timestamp,
	};
	struct zf2fs_load_stats st;

	zf2fs_test_load_flush(&o);
	if (zf2fs_load_tree(c->paths, c->ndevs, &o, log, &st))
		return 1;   /* the library named the path and the cause */
	if (!c->quiet)
		fprintf(info, "Info: %llu inodes and %llu more hard links copied from %s\n",
			(unsigned long long)st.inodes, (unsigned long long)st.links, c->root_dir);
	return 0;
}

int main(int argc, char **argv)
{
	struct mkfs_cli c = { 0 };
	struct zf2fs_dev *devs[ZF2FS_MAX_DEVICES] = { 0 };
	struct zf2fs_dev_geom geom[ZF2FS_MAX_DEVICES];
	struct zf2fs_layout lay;
	struct zf2fs_log log = { .level = 1 };
	struct utsname un;
	char why[256], type[64];
	int err, ret = 1;
	FILE *info;

	parse_args(&c, argc, argv);
	info = c.json ? stderr : stdout;
	log.level = c.quiet ? 0 : 1 + c.debug;

	err = zf2fs_features_check(c.mk.layout.features, why, sizeof(why));
	if (err) {
		fprintf(stderr, PROG ": %s\n", why);
		return 1;
	}
	if (c.mk.layout.zoned && !zf2fs_have_zoned_support()) {
		fprintf(stderr, PROG ": -m needs zoned device support, which this build lacks "
			"(rebuild with libzbd-dev installed)\n");
		return 1;
	}
	if (c.sparse && (err = prepare_sparse(&c))) {
		fprintf(stderr, PROG ": %s: while creating %s\n", strerror(-err), c.paths[0]);
		return 1;
	}

	/* Everything that can refuse the target happens before the first write. */
	for (unsigned i = 0; i < c.ndevs; i++) {
		err = zf2fs_path_is_mounted(c.paths[i]);
		if (err > 0) {
			fprintf(stderr, PROG ": %s is mounted: refusing to format it\n", c.paths[i]);
			goto out;
		}
		err = zf2fs_dev_open(c.paths[i], ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL, &log, &devs[i]);
		if (err) {
			fprintf(stderr, PROG ": %s: while opening %s%s\n",
				err == -ENOTBLK ? "not a regular file or block device" : strerror(-err),
				c.paths[i], err == -EBUSY ? " (in use or mounted)" : "");
			goto out;
		}
		if (!c.force) {
			err = zf2fs_dev_probe_existing(devs[i], type, sizeof(type));
			if (err > 0) {
				fprintf(stderr, PROG ": %s contains %s %s %s: use -f to overwrite it\n",
					c.paths[i], strchr("aeiou", type[0]) ? "an" : "a", type, strcmp(type, "dos") && strcmp(type, "gpt") ?
					"filesystem" : "partition table");
				goto out;
			}
		}
		if (i == 0 && c.sectors) {
			uint32_t ss = c.wanted_sector ? c.wanted_sector : 512;

			if (c.sectors > UINT64_MAX / ss ||
			    zf2fs_dev_set_size(devs[0], c.sectors * ss)) {
				fprintf(stderr, PROG ": %s is smaller than the %" PRIu64
					" sectors asked for\n", c.paths[0], c.sectors);
				goto out;
			}
		}
		err = zf2fs_dev_geometry(devs[i], &geom[i]);
		if (err)
			goto out;
		/* The layout of a zoned device comes from its zone report, which [sectors]
		 * does not cut: the volume would count the whole device's blocks in a smaller
		 * main area, and Linux refuses it ("Wrong user_block_count"). */
		if (i == 0 && c.sectors && geom[0].zone_model != ZF2FS_ZONED_NONE) {
			fprintf(stderr, PROG ": %s is a zoned device, which is formatted whole: "
				"[sectors] cannot limit it\n", c.paths[0]);
			goto out;
		}
		if (geom[i].bytes == 0) {
			fprintf(stderr, PROG ": %s is empty (0 bytes): give it a size first, e.g. "
				"truncate -s 1G %s, or use -S with [sectors]\n", c.paths[i], c.paths[i]);
			goto out;
		}
	}

	err = zf2fs_layout_compute(geom, c.ndevs, &c.mk.layout, &lay, why, sizeof(why));
	if (err) {
		fprintf(stderr, PROG ": %s\n", why);
		goto out;
	}
	if (!c.mk.have_uuid)
		uuid_generate(c.mk.uuid);
	/* a reproducible build names no host kernel: the same image on any machine */
	if (!getenv("SOURCE_DATE_EPOCH") && uname(&un) == 0)
		snprintf(c.version, sizeof(c.version), "zf2fs-tools %s (Linux %s)",
			 zf2fs_version(), un.release);
	else
		snprintf(c.version, sizeof(c.version), "zf2fs-tools %s", zf2fs_version());
	c.mk.version_string = c.version;

	if (c.root_dir) {
		/* a tree that cannot go in is refused before the device is formatted */
		struct zf2fs_load_opts chk = { .source = c.root_dir, .check_only = true };

		if (zf2fs_load_tree(c.paths, c.ndevs, &chk, &log, NULL))
			goto out;
	}
	if (!c.quiet)
		print_summary(&c, &lay, info);
	err = zf2fs_mkfs_write(devs, &lay, &c.mk, &log);
	if (err) {
		fprintf(stderr, PROG ": %s: while formatting %s\n", strerror(-err), c.paths[0]);
		goto out;
	}
	if (c.json)
		zf2fs_layout_print_json(stdout, &lay);
	if (!c.quiet)
		fprintf(info, "Info: format successful\n");
	ret = 0;
out:
	for (unsigned i = 0; i < c.ndevs; i++)
		zf2fs_dev_close(devs[i]);
	if (!ret && c.root_dir)
		ret = load_root_dir(&c, &log, info);
	return ret;
}
