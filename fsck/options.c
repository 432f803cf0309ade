// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - fsck.f2fs's command line: f2fs-tools' options with f2fs-tools' meaning
 * (programs such as Android's fs_mgr, GParted, libblockdev, OpenWrt and fsck(8) run them),
 * and ours beside them.
 *
 * The options decide three things, kept in the context: how questions are answered
 * (ctx->mode), whether a volume that asks for no check is skipped (ctx->skip_clean), and
 * what the superblock should be tuned to before the check (tune.c).  f2fs-tools' -a, -p,
 * -f and -y all repair whatever the check finds; only our --preen stops at a problem it
 * may not repair without a person.
 */
#include "config.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsck.h"
#include "helper.h"

#define PROG "fsck.f2fs"
#define die_usage(...) zs_usage_error(PROG, __VA_ARGS__)

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [options] device\n"
"Check an F2FS volume and repair it.\n"
"\n"
"  -a                repair a volume that needs it (not cleanly unmounted, or marked\n"
"                    by the kernel); one that does not is not checked\n"
"  -p [level]        level 0 (the default): as -a; 1 and 2: check every time\n"
"  -f                check even a clean volume, and repair what is found\n"
"  -y                check and repair everything without asking\n"
"  -n                never write; answer no to every question\n"
"      --dry-run     never write (combines with any other option)\n"
"  -N                answer no where fsck would ask\n"
"      --preen       repair only what is safe without a person; stop (exit 4) at\n"
"                    anything else; skip a volume that needs no check\n"
"  -g android        Android's defaults: -a, and --nolinear-lookup=1\n"
"  -O feature[,...]  switch on the encrypt or casefold feature first\n"
"  -C enc[:flags]    casefold encoding (utf8; flags strict, hashonly, or nostrict,\n"
"                    nohashonly); switches casefold on\n"
"      --nolinear-lookup=X  casefold lookups: 1 hashed only, 0 with linear fallback\n"
"  -q num            keep quota limits when rebuilding quota files (0 is refused)\n"
"  -c num, -m num, -H, --debug-cache, --kernel-check, --no-kernel-check\n"
"                    accepted, no effect (f2fs-tools' cache and kernel-version tuning)\n"
"  -d level          debug output (0-4; more is 4)\n"
"  -t                print the directory tree\n"
"  -l                print the superblock and the checkpoint; no check\n"
"  -M                print each regular file's path and block addresses\n"
"                    (f2fs-tools' file map); no check, nothing written\n"
"  -S                the device is an Android sparse image\n"
"      --rebuild     first rebuild the NAT, SIT, summaries and checkpoint from the\n"
"                    node blocks on the disk (no usable checkpoint, a lost NAT or\n"
"                    SIT), then check and repair everything (-n: only report)\n"
"      --json        print a JSON summary (and the problem list) on stdout\n"
"      --progress    a completion bar on standard error, when it is a terminal\n"
"      --progress-fd FD  lines \"PASS CURRENT TOTAL DEVICE\" on file descriptor FD\n"
"                    for a front-end (as e2fsck -C FD writes them)\n"
"  -V, --version     print the version\n"
"  -h, --help        this help\n"
"f2fs-tools' --fault_injection and --fault_type are refused (see the manual page).\n"
"\n"
"Exit status: 0 clean, 1 errors corrected, 4 errors left, 8 operational error,\n"
"16 usage error, 32 cancelled.\n");
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* f2fs-tools reads these with atoi; a caller passes a number, and anything else is a
 * mistake worth saying. */
static long number(const char *opt, const char *arg)
{
	long v;

	if (!all_digits(arg))
		die_usage("option %s needs a number, not '%s'", opt, arg);
	v = strtol(arg, NULL, 10);   /* saturates at LONG_MAX */
	return v;
}

/* -C utf8[:flags]: the only encoding Linux has; flags as f2fs-tools names them, "noFLAG"
 * clearing FLAG.  hashonly and nohashonly mean --nolinear-lookup=1 and =0 (the later of
 * the two options wins, as in f2fs-tools). */
static void parse_encoding(struct fsck_ctx *ctx, char *arg)
{
	char *flags = strchr(arg, ':');

	if (flags)
		*flags++ = '\0';
	if (strcmp(arg, "utf8"))
		die_usage("unknown encoding '%s' (supported: utf8)", arg);
	ctx->tune_encoding = 1;
	ctx->tune_encoding_flags = 0;
	while (flags && *flags) {
		size_t len = strcspn(flags, ",");
		bool neg = len > 2 && !strncmp(flags, "no", 2);
		const char *name = neg ? flags + 2 : flags;
		size_t n = neg ? len - 2 : len;

		if (n == 6 && !strncmp(name, "strict", 6)) {
			if (neg)
				ctx->tune_encoding_flags &= (uint16_t)~ZF2FS_ENC_STRICT;
			else
				ctx->tune_encoding_flags |= ZF2FS_ENC_STRICT;
		} else if (n == 8 && !strncmp(name, "hashonly", 8)) {
			ctx->linear_lookup = neg ? 0 : 1;
			ctx->linear_lookup_refuse = true;
		} else if (len) {
			die_usage("unknown encoding flag '%.*s' (supported: strict, hashonly, "
				  "nostrict, nohashonly)", (int)len, flags);
		}
		flags += len + (flags[len] == ',');
	}
	ctx->tune_features |= ZF2FS_FEAT_CASEFOLD;
}

static void parse_features(struct fsck_ctx *ctx, const char *arg)
{
	uint32_t f = 0;
	char bad[64];

	if (zf2fs_features_parse(arg, &f, bad, sizeof(bad)))
		die_usage("unknown feature '%s'", bad);
	/* f2fs-tools switches on only these two on an existing volume and ignores the rest;
	 * casefold needs -C (checked against the volume in tune.c) */
	ctx->tune_features |= f & (ZF2FS_FEAT_ENCRYPT | ZF2FS_FEAT_CASEFOLD);
}

/*
 * f2fs-tools gives -p a required argument and hands back what was not a level: "-p",
 * "-p DEV" (the last word), "-p -f" and "-p word" all mean level 0, the word being read
 * again as what it is.  "-pN" and "-p N" give level N (above 2 is 2).  An attached word
 * that is not a number ("-pfoo") makes f2fs-tools read it forever; here it is an error.
 */
static int preen_level(int argc, char **argv)
{
	bool separate = optarg == argv[optind - 1];
	long level;

	if (separate && (optarg[0] == '-' || !all_digits(optarg) || optind == argc)) {
		optind--;
		return 0;
	}
	if (!all_digits(optarg))
		die_usage("invalid preen level '%s' (0, 1 or 2)", optarg);
	level = strtol(optarg, NULL, 10);
	return level >= 2 ? 2 : (int)level;
}

enum { OPT_DRY_RUN = 256, OPT_KERNEL_CHECK, OPT_NO_KERNEL_CHECK, OPT_DEBUG_CACHE,
       OPT_NOLINEAR, OPT_FAULT_INJECTION, OPT_FAULT_TYPE, OPT_JSON, OPT_PREEN,
       OPT_PROGRESS, OPT_PROGRESS_FD, OPT_REBUILD };

const char *fsck_parse_args(struct fsck_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "kernel-check", no_argument, NULL, OPT_KERNEL_CHECK },
		{ "no-kernel-check", no_argument, NULL, OPT_NO_KERNEL_CHECK },
		{ "debug-cache", no_argument, NULL, OPT_DEBUG_CACHE },
		{ "nolinear-lookup", required_argument, NULL, OPT_NOLINEAR },
		{ "fault_injection", required_argument, NULL, OPT_FAULT_INJECTION },
		{ "fault_type", required_argument, NULL, OPT_FAULT_TYPE },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "preen", no_argument, NULL, OPT_PREEN },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "progress-fd", required_argument, NULL, OPT_PROGRESS_FD },
		{ "rebuild", no_argument, NULL, OPT_REBUILD },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	bool a = false, f = false, y = false, n = false, dry = false, no_ask = false;
	bool preen = false, android = false;
	int level = -1, opt;

	ctx->linear_lookup = -1;
	ctx->linear_lookup_refuse = false;
	ctx->progress_fd = -1;
	opterr = 0;   /* our own messages, prefixed fsck.f2fs */
	while ((opt = getopt_long(argc, argv, ":aC:c:m:Md:fg:HlO:p:q:StyNnVh", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'a': a = true; break;
		case 'p': level = preen_level(argc, argv); break;
		case 'f': f = true; break;
		case 'y': y = true; break;
		case 'n': n = true; break;
		case 'N': no_ask = true; break;
		case OPT_DRY_RUN: dry = true; break;
		case OPT_PREEN: preen = true; break;
		case OPT_REBUILD: ctx->rebuild = true; break;
		case 'g':
			/* f2fs-tools ignores a set it does not know */
			if (!strcmp(optarg, "android"))
				android = true;
			break;
		case 'O': parse_features(ctx, optarg); break;
		case 'C': parse_encoding(ctx, optarg); break;
		case OPT_NOLINEAR:
			/* f2fs-tools reads "0" as 0 and any other word as 1; a word that is
			 * neither 0 nor 1 is a mistake worth saying */
			if (strcmp(optarg, "0") && strcmp(optarg, "1"))
				die_usage("--nolinear-lookup takes 0 or 1, not '%s'", optarg);
			ctx->linear_lookup = optarg[0] == '1';
			ctx->linear_lookup_refuse = true;
			break;
		case 'q':
			if (number("-q", optarg) == 0)
				die_usage("%s", "-q 0 (drop quota limits) is not supported: a rebuilt "
					  "quota file keeps every limit it held");
			break;
		case 'c': (void)number("-c", optarg); break;
		case 'm': (void)number("-m", optarg); break;
		case 'H': case OPT_DEBUG_CACHE: case OPT_KERNEL_CHECK: case OPT_NO_KERNEL_CHECK:
			break;
		case 'l': ctx->layout = true; break;
		case 'M': ctx->file_map = true; break;
		case 'S': ctx->sparse = true; break;
		case OPT_FAULT_INJECTION: case OPT_FAULT_TYPE:
			die_usage("%s", "--fault_injection and --fault_type are not supported "
				  "(f2fs-tools' test mode)");
		case 'd':
			ctx->debug = number("-d", optarg) > 4 ? 4 : (int)number("-d", optarg);
			break;
		case 't': ctx->show_tree = true; break;
		case OPT_JSON: ctx->json = true; break;
		case OPT_PROGRESS: ctx->progress_bar = true; break;
		case OPT_PROGRESS_FD: ctx->progress_fd = zs_progress_fd_arg(PROG, optarg); break;
		case 'V':
			exit(zs_print_version(stdout, PROG) ? FSCK_ERROR : FSCK_OK);
		case 'h': usage(stdout); exit(0);
		case ':':
			if (optopt == 'p') {
				level = 0;
				break;
			}
			if (optopt >= OPT_DRY_RUN)
				die_usage("option '%s' needs an argument", argv[optind - 1]);
			die_usage("option -%c needs an argument", optopt);
		default:
			if (optopt && optopt < OPT_DRY_RUN)
				die_usage("unknown option '-%c'", optopt);
			die_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (n && (y || a || level >= 0 || android || preen))
		die_usage("%s", "-n excludes -y, -a, -p, -g android and --preen");
	if (preen && (y || a || level >= 0 || android))
		die_usage("%s", "--preen excludes -y, -a, -p and -g android");
	if (ctx->file_map && ctx->json)
		die_usage("%s", "-M excludes --json");
	if (ctx->rebuild && (preen || ctx->layout || ctx->file_map))
		die_usage("%s", "--rebuild excludes --preen, -l and -M");
	if (optind != argc - 1)
		die_usage("%s", optind >= argc ? "no device given" : "only one device may be given");

	ctx->force = f || y || ctx->rebuild;
	if (android && ctx->linear_lookup < 0)
		ctx->linear_lookup = 1;
	/* a boot-time check goes on where the option does not apply, as f2fs-tools does
	 * (Android 16's fs_mgr runs fsck.f2fs -a ... --nolinear-lookup=1) */
	if (a || level >= 0 || android || preen)
		ctx->linear_lookup_refuse = false;
	/* -M reads only, whatever else is asked */
	ctx->no_writes = n || dry || ctx->layout || ctx->file_map;
	if (ctx->no_writes)
		ctx->mode = MODE_NO;
	else if (preen)
		ctx->mode = MODE_PREEN;
	else if (y || f || a || level >= 0 || android || ctx->rebuild)
		ctx->mode = MODE_YES;
	else if (no_ask)
		ctx->mode = MODE_NO;
	else
		ctx->mode = isatty(0) && isatty(1) ? MODE_ASK : MODE_NO;
	/* -p 1 and -p 2 check every time (f2fs-tools: level 1 checks the metadata, and all
	 * of it when that differs; level 2 checks all of it, and repairs only a volume that
	 * asked for a check): we check all of it and repair what we find */
	ctx->skip_clean = !ctx->force && level != 1 && level != 2 &&
			  (a || android || preen || level == 0);
	return argv[optind];
}
