// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - mkfs.f2fs's command line.
 *
 * Our package replaces f2fs-tools, so the options are f2fs-tools' (its development
 * branch's set) with f2fs-tools' meanings, parsed the way callers rely on: -g takes the
 * next word whatever it is (systemd-repart runs "-g -f", which names a default set "-f"),
 * -t, -d and -a read a leading number and take a word as 0 ("-t nodiscard" is libblockdev's
 * way to turn discard off), -o reads a leading decimal and 0 lets mkfs choose, -S takes a
 * size in bytes, -c DEV@ALIAS splits at the first '@'.  Our own additions are long
 * options.  Values that cannot make a volume (a block size other than 4096 or 16384) are
 * refused by name before anything is opened.
 */
#include "config.h"
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uuid/uuid.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/geometry.h"
#include "helper.h"
#include "mkfs.h"

#define die_usage(...) zs_usage_error(PROG, __VA_ARGS__)
#define parse_u64(s, what, min, max) zs_parse_u64(PROG, s, what, min, max)


static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [options] device [sectors]\n"
"Format a file or block device as F2FS.\n"
"[sectors] limits the volume, in units of the -w sector size (by default the\n"
"device's own sector size); a larger count than the device holds is ignored.\n"
"\n"
"  -a 0|1            heap-based allocation (accepted and ignored, as f2fs-tools does)\n"
"  -b size           block size: 4096 [default] or 16384 (for 16 KiB-page kernels)\n"
"  -c device[@alias] add a device (repeat for up to 7 more); with @alias, the\n"
"                    file /alias covers the whole device (device aliasing)\n"
"  -C enc[:flags]    casefolding: utf8; flags strict, hashonly (or nostrict, nohashonly)\n"
"  -d level          debug level\n"
"  -e ext[,ext]      extra cold file extensions\n"
"  -E ext[,ext]      extra hot file extensions\n"
"  -f                overwrite an existing filesystem\n"
"  -g name           default set: android (-d 1 -f -w 4096 -R 0:0, no nat_bits, and\n"
"                    unless -O ro: encrypt, quota, project_quota, extra_attr, verity);\n"
"                    other names are ignored\n"
"  -H                write hints (accepted; mkfs's writes carry none)\n"
"  -i                large NAT bitmap (NAT sized at 20%% of its maximum)\n"
"  -l label          volume label\n"
"  -m                zoned block device support (a section is a zone)\n"
"  -o percent        overprovision ratio; 0 = the one leaving most space [default]\n"
"  -O feature[,...]  features: encrypt, extra_attr, project_quota, inode_checksum,\n"
"                    flexible_inline_xattr, quota, inode_crtime, lost_found, verity,\n"
"                    sb_checksum, casefold, compression, ro, packed_ssa (16384-byte\n"
"                    blocks only: four 4 KiB summaries to an SSA block)\n"
"  -q                quiet\n"
"  -r                fixed checkpoint version (reproducible images)\n"
"  -R uid:gid        owner of the root directory [default: 0:0]\n"
"  -s segments       segments per section [default: 1]\n"
"  -S size           write an Android sparse image of size bytes to the device path\n"
"  -t 0|1            discard the device first [default: 1; a word counts as 0]\n"
"  -T seconds        timestamp for the root directory (also SOURCE_DATE_EPOCH)\n"
"  -U uuid           volume UUID\n"
"  -V, --version     print the version and exit\n"
"  -w bytes          sector size that [sectors] counts in\n"
"  -z sections       sections per zone [default: 1]\n"
"  -Z sections       reserved sections for GC (at least 8; implies -o 3 unless given)\n"
"      --create-file  create the image file, or extend it, to [sectors]\n"
"      --json        print the computed layout as JSON on stdout\n"
"      --root-dir DIR  copy the tree DIR into the new volume (as sload.f2fs -P)\n"
"  -h, --help        this help\n");
}

/* atoi's reading: the leading decimal number, 0 when there is none. */
static long lead_long(const char *s)
{
	return strtol(s, NULL, 10);
}

/* -c DEV[@ALIAS]: ALIAS names a file in the root directory, one path component. */
static void add_device(struct mkfs_cli *c, char *arg)
{
	char *at = strchr(arg, '@');

	if (c->ndevs >= ZF2FS_MAX_DEVICES)
		die_usage("too many devices (at most %d)", ZF2FS_MAX_DEVICES);
	if (at) {
		const char *alias = at + 1;

		if (at == arg)
			die_usage("no device before '@' in -c %s", arg);
		if (!*alias)
			die_usage("no alias file name after '@' in -c %s", arg);
		if (strchr(alias, '/') || !strcmp(alias, ".") || !strcmp(alias, ".."))
			die_usage("invalid alias file name '%s' in -c %s (one name in the root "
				  "directory: no '/', not . or ..)", alias, arg);
		if (strlen(alias) > ZF2FS_NAME_LEN)
			die_usage("alias file name in -c %s is longer than %d bytes", arg,
				  ZF2FS_NAME_LEN);
		for (unsigned i = 1; i < c->ndevs; i++)
			if (c->aliases[i] && !strcmp(c->aliases[i], alias))
				die_usage("alias file name '%s' given twice", alias);
		*at = '\0';
		c->aliases[c->ndevs] = alias;
		c->aliased = true;
	}
	c->paths[c->ndevs++] = arg;
}

/* -C utf8[:flag[,flag]...]: a flag list where "noFLAG" clears FLAG. */
static void parse_encoding(struct mkfs_cli *c, const char *arg, bool *hashonly_set)
{
	static const struct { const char *name; uint16_t bit; } flags[] = {
		{ "strict", ZF2FS_ENC_STRICT }, { "hashonly", ZF2FS_ENC_HASHONLY },
	};
	const char *p = strchr(arg, ':');
	size_t len = p ? (size_t)(p - arg) : strlen(arg);

	if (len != 4 || strncmp(arg, "utf8", 4))
		die_usage("unknown encoding '%.*s' (supported: utf8)", (int)len, arg);
	c->mk.s_encoding = 1;
	c->mk.s_encoding_flags = 0;
	while (p && *p) {
		size_t n, i;
		bool neg;

		p += strspn(p, ":,");
		n = strcspn(p, ":,");
		if (!n)
			break;
		neg = n > 2 && !strncmp(p, "no", 2);
		for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			if (strlen(flags[i].name) == n - (neg ? 2 : 0) &&
			    !strncmp(flags[i].name, p + (neg ? 2 : 0), n - (neg ? 2 : 0)))
				break;
		if (i == sizeof(flags) / sizeof(flags[0]))
			die_usage("unknown encoding flag '%.*s' (supported: strict, hashonly)",
				  (int)n, p);
		if (neg)
			c->mk.s_encoding_flags &= (uint16_t)~flags[i].bit;
		else
			c->mk.s_encoding_flags |= flags[i].bit;
		if (flags[i].bit == ZF2FS_ENC_HASHONLY)
			*hashonly_set = true;
		p += n;
	}
	c->mk.layout.features |= ZF2FS_FEAT_CASEFOLD;
}

/* -O: f2fs-tools' names, separated by commas or blanks.  packed_ssa only changes a 16K-block
 * volume: it is kept for after the command line, when -b is known (mkfs_parse_args drops
 * it with 4K blocks, as f2fs-tools does); blkzoned comes from -m. */
static void parse_features(struct mkfs_cli *c, const char *list, bool *packed_ssa)
{
	const char *p = list;
	char word[64], bad[64];

	while (*p) {
		size_t n = strcspn(p, ", ");

		if (n && n < sizeof(word)) {
			memcpy(word, p, n);
			word[n] = '\0';
			if (!strcmp(word, "packed_ssa")) {
				*packed_ssa = true;
			} else if (!strcmp(word, "blkzoned") || !strcmp(word, "device_alias")) {
				die_usage("feature '%s' cannot be set with -O (%s)", word,
					  word[0] == 'b' ? "use -m" : "use -c DEV@ALIAS");
			} else if (zf2fs_features_parse(word, &c->mk.layout.features, bad,
							sizeof(bad))) {
				die_usage("unknown feature '%s'", bad);
			}
		} else if (n) {
			die_usage("unknown feature '%.*s'", (int)n, p);
		}
		p += n;
		p += strspn(p, ", ");
	}
}

static double parse_overprovision(const char *arg)
{
	double r = strtod(arg, NULL);   /* atof: no number reads as 0, "auto" */

	if (isnan(r) || r < 0 || r >= 100)
		die_usage("invalid overprovision ratio '%s' (expected 0 <= ratio < 100; 0 = "
			  "automatic)", arg);
	return r;
}

/* -b: the block sizes Linux mounts on 4 KiB and 16 KiB pages (the block is the page). */
static void parse_block_size(struct mkfs_cli *c, const char *arg)
{
	long v = lead_long(arg);

	if (v <= 0 || (v & (v - 1)))
		die_usage("block size '%s' is not a power of 2", arg);
	if (v != 4096 && v != 16384)
		die_usage("block size %ld is not supported (4096 or 16384)", v);
	c->mk.layout.log_blocksize = v == 16384 ? ZF2FS_MAX_LOG_BLOCKSIZE :
						  ZF2FS_MIN_LOG_BLOCKSIZE;
}

/* -g android: f2fs-tools' Android defaults, applied after the whole command line (so that
 * they override -d, -f, -w and -R given anywhere, as they do there).  A read-only image
 * gets no features beyond those asked for. */
static void apply_android(struct mkfs_cli *c, bool hashonly_set)
{
	c->debug = 1;
	c->force = true;
	c->wanted_sector = 4096;
	c->mk.root_uid = 0;
	c->mk.root_gid = 0;
	c->mk.no_nat_bits = true;
	/* Android turns casefold's linear lookup fallback off unless -C said otherwise */
	if ((c->mk.layout.features & ZF2FS_FEAT_CASEFOLD) && !hashonly_set)
		c->mk.s_encoding_flags |= ZF2FS_ENC_HASHONLY;
	if (c->mk.layout.features & ZF2FS_FEAT_RO)
		return;
	c->mk.layout.features |= ZF2FS_FEAT_ENCRYPT | ZF2FS_FEAT_QUOTA_INO |
		ZF2FS_FEAT_PRJQUOTA | ZF2FS_FEAT_EXTRA_ATTR | ZF2FS_FEAT_VERITY;
}

static void parse_positional(struct mkfs_cli *c, int argc, char **argv)
{
	if (optind >= argc) {
		/* the full usage on stdout as well, as f2fs-tools prints it: programs probe
		 * mkfs.f2fs run without arguments for the options it lists (kpmcore looks
		 * for "-f") */
		if (argc == 1)
			usage(stdout);
		die_usage("%s", "no device given");
	}
	/* -c devices were collected from slot 1 on; the main device goes first */
	c->paths[0] = argv[optind++];
	if (optind < argc) {
		if (c->ndevs > 1)
			die_usage("%s", "[sectors] cannot be given with more than one device");
		c->sectors = parse_u64(argv[optind++], "sector count", 1, UINT64_MAX);
		c->have_sectors = true;
	}
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
}

void mkfs_parse_args(struct mkfs_cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "json", no_argument, NULL, 'J' },
		{ "root-dir", required_argument, NULL, 'D' },
		{ "create-file", no_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	bool hashonly_set = false, packed_ssa = false;
	int opt;

	c->mk.discard = true;
	c->reproducible = sde != NULL;
	c->fixed_time = c->reproducible;
	c->mk.timestamp = sde ? parse_u64(sde, "SOURCE_DATE_EPOCH", 0, UINT64_MAX) :
				(uint64_t)time(NULL);
	c->ndevs = 1;   /* slot 0 is the main device, filled in at the end */
	opterr = 0;     /* getopt's messages would carry the libtool path; ours say mkfs.f2fs */
	while ((opt = getopt_long(argc, argv,
				  "a:b:c:C:d:e:E:fg:hHil:mo:O:qrR:s:S:t:T:U:Vw:z:Z:",
				  longopts, NULL)) != -1) {
		switch (opt) {
		case 'a': break;   /* heap allocation: f2fs-tools no longer acts on it */
		case 'b': parse_block_size(c, optarg); break;
		case 'c': add_device(c, optarg); break;
		case 'C': parse_encoding(c, optarg, &hashonly_set); break;
		case 'd': {
			long v = lead_long(optarg);

			c->debug = v < 0 ? 0 : v > 4 ? 4 : (int)v;
			break;
		}
		case 'e': c->mk.cold_extensions = optarg; break;
		case 'E': c->mk.hot_extensions = optarg; break;
		case 'f': c->force = true; break;
		case 'g':
			/* the word after -g is the set's name, even when it looks like an option */
			if (!strcmp(optarg, "android"))
				c->android = true;
			break;
		case 'h': usage(stdout); exit(0);
		case 'H': break;   /* write-lifetime hints for the kernel: nothing on disk */
		case 'i': c->mk.layout.large_nat_bitmap = true; break;
		case 'l':
			if (strlen(optarg) > 512)
				die_usage("%s", "volume label longer than 512 characters");
			c->mk.label = optarg;
			break;
		case 'm': c->mk.layout.zoned = true; break;
		case 'o': c->mk.layout.overprovision = parse_overprovision(optarg); break;
		case 'O': parse_features(c, optarg, &packed_ssa); break;
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
		case 'S': {
			/* atoll's reading, rounded down to whole blocks */
			long long v = strtoll(optarg, NULL, 10);

			if (v < ZF2FS_BLKSIZE)
				die_usage("invalid sparse image size '%s' (bytes)", optarg);
			c->sparse_bytes = (uint64_t)v & ~(uint64_t)(ZF2FS_BLKSIZE - 1);
			c->sparse = true;
			break;
		}
		case 't': c->mk.discard = lead_long(optarg) != 0; break;
		case 'T':
			c->mk.timestamp = strtoull(optarg, NULL, 0);
			c->fixed_time = true;
			break;
		case 'U':
			if (uuid_parse(optarg, c->mk.uuid))
				die_usage("invalid UUID '%s'", optarg);
			c->mk.have_uuid = true;
			break;
		case 'V':
			exit(zs_print_version(stdout, PROG) ? 1 : 0);
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
		case 'F': c->create_file = true; break;
		default:
			if (optopt && strchr("abcCdeEglLoORsStTUwzZ", optopt))
				die_usage("option -%c needs an argument", optopt);
			die_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (c->android)
		apply_android(c, hashonly_set);
	if (packed_ssa && c->mk.layout.log_blocksize == ZF2FS_MAX_LOG_BLOCKSIZE)
		c->mk.layout.features |= ZF2FS_FEAT_PACKED_SSA;
	else if (packed_ssa && !c->quiet)
		printf("Info: packed_ssa only applies to 16K blocks: not set\n");
	parse_positional(c, argc, argv);
	if (c->sparse) {
		if (c->ndevs > 1)
			die_usage("%s", "-S writes a single image file");
		if (c->create_file)
			die_usage("%s", "-S and --create-file both make the image: give one");
		c->mk.discard = false;   /* nothing to discard in a new image */
	}
	if (c->create_file && !c->have_sectors)
		die_usage("%s", "--create-file needs the size as [sectors]");
	if (c->create_file && c->ndevs > 1)
		die_usage("%s", "--create-file works on a single image file");
	if (c->aliased && (c->mk.layout.features & ZF2FS_FEAT_LOST_FOUND))
		for (unsigned i = 1; i < c->ndevs; i++)
			if (c->aliases[i] && !strcmp(c->aliases[i], "lost+found"))
				die_usage("%s", "alias file name 'lost+found' is taken by the "
					  "lost_found feature's directory");
	if (c->aliased && c->root_dir)
		die_usage("%s", "--root-dir cannot fill a volume with aliased devices (the library "
			  "writes no device_alias volume)");
	if (c->aliased && c->mk.layout.zoned)
		die_usage("%s", "device aliasing is not supported with -m");
	if (c->mk.layout.zoned && (c->mk.layout.segs_per_sec || c->mk.layout.secs_per_zone))
		fprintf(stderr, PROG ": -s and -z are ignored with -m (a section is a zone)\n");
}
