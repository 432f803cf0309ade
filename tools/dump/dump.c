// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump.c - dump.f2fs: show what is on an F2FS volume, read-only.
 *
 * This front-end parses options (f2fs-tools' short ones plus our long views), opens the
 * volume without write access, runs the requested views in the order they were given and
 * maps the outcome to an exit status.  The views live in dump_meta.c (metadata areas) and
 * dump_file.c (files and directories); both print through the emitter of dump_out.c.
 *
 * Given no view, it prints what f2fs-tools' dump.f2fs prints for a bare device: its
 * "Info:" lines, with -d 1 or more also its superblock and checkpoint tables (ftinfo.c).
 * Programs parse that output (libblockdev, GParted); our own superblock and checkpoint
 * views are --superblock and --checkpoint, and the default of --json.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dump.h"
#include "ftinfo.h"

enum view {
	V_SUPER, V_CP, V_NAT, V_SIT, V_SSA, V_SEGMENTS, V_INODE, V_BLOCK, V_LS, V_CAT, V_TREE,
	V_ZONES, V_QUOTA, V_FRAG, V_EXTRACT, V_SCAN_INODE,
};

struct action {
	enum view view;
	uint64_t a, b;          /* number or range */
	const char *path;
};

#define MAX_ACTIONS 64

enum {
	OPT_SUPER = 256, OPT_CP, OPT_SEGMENTS, OPT_LS, OPT_CAT, OPT_TREE, OPT_JSON, OPT_HELP,
	OPT_ZONES, OPT_QUOTA, OPT_FRAG, OPT_EXTRACT, OPT_RAW_ENCRYPTED, OPT_SCAN_INODE,
};

/* Where f2fs-tools' dump.f2fs puts what -f/-y and -r copy out when -o names no place. */
#define FT_DUMP_DIR "./lost_found"


static void usage(FILE *f)
{
	fprintf(f,
"Usage: " DUMP_PROG " [options] device\n"
"Show the structures and files of an F2FS volume; never writes to it.\n"
"\n"
"Given no view, the \"Info:\" summary f2fs-tools' dump.f2fs prints (with -d 1 or\n"
"more, also its superblock and checkpoint tables); with --json, --superblock\n"
"--checkpoint.\n"
"\n"
"Views (several may be given; they run in order):\n"
"  -i, --inode INO          an inode, its node tree and block map; with -f, -y or\n"
"                           -o also its contents (see -o)\n"
"  -I, --scan-inode INO     find inode INO by reading the whole main area (when the\n"
"                           NAT lost it): every block holding it, and the newest\n"
"                           good one shown as -i shows it; with -o also its contents\n"
"  -n, --nat START~END      NAT entries of nids START..END (or one nid; END -1:\n"
"                           to the last)\n"
"  -s, --sit START~END      SIT entries of main-area segments START..END\n"
"  -a, --ssa START~END      summary entries of segments START..END\n"
"  -b, --block BLKADDR      which area, node or inode owns a block, at which offset\n"
"  -r                       copy the whole tree out, as --extract /, into -o DIR\n"
"                           (default " FT_DUMP_DIR ")\n"
"      --superblock         superblock fields and the state of both copies\n"
"      --checkpoint         both checkpoint packs and which one is current\n"
"      --segments           one row per main-area segment: type, valid blocks, state\n"
"      --ls PATH            a directory's entries (or one file) by path\n"
"      --cat PATH           a file's contents, to standard output or -o\n"
"      --tree               every path below the root\n"
"      --extract PATH       copy the tree below directory PATH into the host\n"
"                           directory -o DIR: files, directories, symlinks, with\n"
"                           modes and times (hard links become copies; encrypted\n"
"                           ones are passed over: see --raw-encrypted)\n"
"      --frag PATH          how the regular files below PATH (or the file PATH) lie\n"
"                           on the disk: extents per file, the most fragmented\n"
"      --zones              zoned devices: per section its zone's write pointer,\n"
"                           capacity, valid blocks and state\n"
"      --quota              the quota files: per id its inodes, bytes and limits\n"
"Output:\n"
"      --json               one JSON document instead of text\n"
"  -o, --output PATH        with -i or --cat: write the contents to PATH (a directory:\n"
"                           under the inode's own name); with --extract or -r: the\n"
"                           directory to fill (created if missing)\n"
"  -f, -y                   with -i: write the inode's contents without -o, into\n"
"                           " FT_DUMP_DIR " (f2fs-tools' \"do not prompt\"; we never\n"
"                           prompt)\n"
"  -N                       write no contents (f2fs-tools' \"answer no\"): -i shows\n"
"                           the inode only, -r copies nothing\n"
"  -P                       copies get the inode's owner (and mode)\n"
"  -L                       accepted: symlinks are always copied as symlinks\n"
"  -M                       accepted: -i always shows the block map\n"
"  -H                       accepted: dump never writes to the volume\n"
"  -S, --sparse             with -o: keep holes as holes\n"
"      --raw-encrypted      with --cat, --extract or -i -o: write encrypted files,\n"
"                           directories and symlinks as stored (ciphertext; a\n"
"                           symlink as a file holding its stored target) instead\n"
"                           of refusing them\n"
"  -d, --debug LEVEL        library messages: 0 quiet .. 4 debug (default 1; above\n"
"                           4 counts as 4); with no view, 1 or more adds the tables\n"
"  -V, --version            print the version and exit\n"
"  -h, --help               print this help and exit\n"
"\n"
"Numbers may be decimal or 0x-prefixed hexadecimal.  Names in encrypted directories\n"
"(fscrypt) are ciphertext: they are shown, and taken in paths, as {enc:HEX}, the hex\n"
"of the stored bytes.\n");
}

static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(DUMP_PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (try --help)\n", stderr);
	exit(DUMP_EXIT_USAGE);
}

void dump_error(const char *fmt, ...)
{
	va_list ap;

	fputs(DUMP_PROG ": ERROR: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void dump_damage(struct dump_ctx *c, const char *fmt, ...)
{
	va_list ap;

	c->damage = true;
	fputs(DUMP_PROG ": WARNING: damaged: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint64_t parse_num(const char *s, const char *what, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!*s || *s == '-')
		usage_error("%s: \"%s\" is not a number", what, s);
	v = strtoull(s, &end, (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10);
	if (errno || *end || v > max)
		usage_error("%s: \"%s\" is not a number up to %llu", what, s,
			    (unsigned long long)max);
	return v;
}

/* "START~END" (END excluded, as f2fs-tools counts) or "N" (just N); END below START is a
 * usage error.  The result is inclusive: *a..*b, empty when *b < *a. */
static void parse_range(const char *s, const char *what, uint64_t *a, uint64_t *b)
{
	const char *tilde = strchr(s, '~');

	if (!tilde) {
		*a = *b = parse_num(s, what, UINT32_MAX);
		return;
	}
	{
		char first[32];
		size_t n = (size_t)(tilde - s);

		if (n == 0 || n >= sizeof(first))
			usage_error("%s: \"%s\" is not a range START~END", what, s);
		memcpy(first, s, n);
		first[n] = 0;
		*a = parse_num(first, what, UINT32_MAX);
		/* f2fs-tools' "START~-1": to the last */
		*b = strcmp(tilde + 1, "-1") == 0 ? (uint64_t)UINT32_MAX + 1 :
			parse_num(tilde + 1, what, (uint64_t)UINT32_MAX + 1);
	}
	if (*b < *a)
		usage_error("%s: range \"%s\" ends before it starts", what, s);
	if (tilde) {
		if (*b == *a)
			*a = *a + 1;    /* empty */
		else
			*b = *b - 1;
	}
}

/* Views that may be given several times print under one list of their name; others
 * print one object of their own. */
static const char *group_name(enum view v)
{
	switch (v) {
	case V_NAT: return "nat";
	case V_SIT: return "sit";
	case V_SSA: return "ssa";
	case V_INODE: return "inode";
	case V_SCAN_INODE: return "scan_inodes";
	case V_BLOCK: return "block";
	case V_LS: return "ls";
	case V_FRAG: return "fragmentation";
	default: return NULL;
	}
}

/* Bring repeats of a view next to its first occurrence (stable), so each view name appears
 * once in the output: kinds in the order they were first given. */
static void group(struct action *acts, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		unsigned j = i;
		struct action a = acts[i];

		/* move back past elements whose kind first appears after a's kind */
		while (j > 0 && acts[j - 1].view != a.view) {
			bool seen_before = false;

			for (unsigned k = 0; k < j - 1; k++)
				if (acts[k].view == a.view)
					seen_before = true;
			if (!seen_before)
				break;
			acts[j] = acts[j - 1];
			j--;
		}
		acts[j] = a;
	}
}

static int run(struct dump_ctx *c, const struct action *a)
{
	switch (a->view) {
	case V_SUPER: return dump_superblock(c);
	case V_CP: return dump_checkpoint(c);
	case V_NAT: return dump_nat(c, a->a, a->b);
	case V_SIT: return dump_sit(c, a->a, a->b);
	case V_SSA: return dump_ssa(c, a->a, a->b);
	case V_SEGMENTS: return dump_segments(c);
	case V_INODE: return dump_inode(c, (uint32_t)a->a);
	case V_BLOCK: return dump_block(c, a->a);
	case V_LS: return dump_ls(c, a->path);
	case V_CAT: return dump_cat(c, a->path);
	case V_TREE: return dump_tree(c, "/");
	case V_ZONES: return dump_zones(c);
	case V_QUOTA: return dump_quota(c);
	case V_FRAG: return dump_frag(c, a->path);
	case V_EXTRACT: return dump_extract_tree(c, a->path);
	case V_SCAN_INODE: return dump_scan_inode(c, (uint32_t)a->a);
	}
	return -EINVAL;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "inode", required_argument, NULL, 'i' },
		{ "nat", required_argument, NULL, 'n' },
		{ "sit", required_argument, NULL, 's' },
		{ "ssa", required_argument, NULL, 'a' },
		{ "block", required_argument, NULL, 'b' },
		{ "debug", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "sparse", no_argument, NULL, 'S' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ "superblock", no_argument, NULL, OPT_SUPER },
		{ "checkpoint", no_argument, NULL, OPT_CP },
		{ "segments", no_argument, NULL, OPT_SEGMENTS },
		{ "ls", required_argument, NULL, OPT_LS },
		{ "cat", required_argument, NULL, OPT_CAT },
		{ "tree", no_argument, NULL, OPT_TREE },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "zones", no_argument, NULL, OPT_ZONES },
		{ "quota", no_argument, NULL, OPT_QUOTA },
		{ "frag", required_argument, NULL, OPT_FRAG },
		{ "extract", required_argument, NULL, OPT_EXTRACT },
		{ "raw-encrypted", no_argument, NULL, OPT_RAW_ENCRYPTED },
		{ "scan-inode", required_argument, NULL, OPT_SCAN_INODE },
		{ NULL, 0, NULL, 0 },
	};
	struct action acts[MAX_ACTIONS];
	struct dump_ctx c = { .level = 1 };
	struct zf2fs_log log = { .fn = zs_cli_log, .arg = (void *)DUMP_PROG };
	unsigned nacts = 0, ncat = 0, ninode = 0, nextract = 0;
	bool json = false, force = false, answer_no = false, root = false;
	int opt, rc = DUMP_EXIT_OK, ft_level = -1;   /* -d as given; -1: none */
	struct timespec start;

	zs_ftinfo_start(&start);

	opterr = 0;   /* one message of our own per usage error */
	while ((opt = getopt_long(argc, argv, ":a:b:d:fhHi:I:LMn:No:Prs:SVy", longopts, NULL)) != -1) {
		struct action *a = &acts[nacts];

		if (nacts >= MAX_ACTIONS && (strchr("iInsabr", opt) || opt >= OPT_SUPER) &&
		    opt != OPT_JSON && opt != OPT_RAW_ENCRYPTED)
			usage_error("at most %d views per run", MAX_ACTIONS);
		memset(a, 0, sizeof(*a));
		switch (opt) {
		case 'i':
			a->view = V_INODE;
			a->a = parse_num(optarg, "-i", UINT32_MAX);
			ninode++;
			nacts++;
			break;
		case 'I':
		case OPT_SCAN_INODE:
			a->view = V_SCAN_INODE;
			a->a = parse_num(optarg, opt == 'I' ? "-I" : "--scan-inode", UINT32_MAX);
			ninode++;
			nacts++;
			break;
		case 'n': a->view = V_NAT; parse_range(optarg, "-n", &a->a, &a->b); nacts++; break;
		case 's': a->view = V_SIT; parse_range(optarg, "-s", &a->a, &a->b); nacts++; break;
		case 'a': a->view = V_SSA; parse_range(optarg, "-a", &a->a, &a->b); nacts++; break;
		case 'b':
			a->view = V_BLOCK;
			a->a = parse_num(optarg, "-b", UINT32_MAX);
			nacts++;
			break;
		case 'd':
			ft_level = (int)parse_num(optarg, "-d", INT32_MAX);
			c.level = ft_level > 4 ? 4 : ft_level;
			break;
		case 'f':
		case 'y':
			force = true;
			break;
		case 'N': answer_no = true; break;
		case 'r':
			if (!root) {
				a->view = V_EXTRACT;
				a->path = "/";
				nextract++;
				nacts++;
			}
			root = true;
			break;
		case 'P': c.preserve_owner = true; break;
		case 'L': case 'M': case 'H': break;   /* what they ask for is what we do */
		case 'o': c.outpath = optarg; break;
		case 'S': c.sparse = true; break;
		case 'V':
			return zs_print_version(stdout, DUMP_PROG) ? DUMP_EXIT_ERROR : DUMP_EXIT_OK;
		case 'h':
			usage(stdout);
			return DUMP_EXIT_OK;
		case OPT_SUPER: a->view = V_SUPER; nacts++; break;
		case OPT_CP: a->view = V_CP; nacts++; break;
		case OPT_SEGMENTS: a->view = V_SEGMENTS; nacts++; break;
		case OPT_LS: a->view = V_LS; a->path = optarg; nacts++; break;
		case OPT_CAT: a->view = V_CAT; a->path = optarg; ncat++; nacts++; break;
		case OPT_TREE: a->view = V_TREE; nacts++; break;
		case OPT_ZONES: a->view = V_ZONES; nacts++; break;
		case OPT_QUOTA: a->view = V_QUOTA; nacts++; break;
		case OPT_FRAG: a->view = V_FRAG; a->path = optarg; nacts++; break;
		case OPT_EXTRACT:
			a->view = V_EXTRACT;
			a->path = optarg;
			nextract++;
			nacts++;
			break;
		case OPT_JSON: json = true; break;
		case OPT_RAW_ENCRYPTED: c.raw_encrypted = true; break;
		case ':':
			usage_error("%s needs a value", argv[optind - 1]);
		default:
			if (optopt)
				usage_error("unknown option -%c", optopt);
			usage_error("unknown option %s", argv[optind - 1]);
		}
	}
	if (answer_no) {
		/* nothing is copied out: drop -r and ignore -f */
		unsigned k = 0;

		for (unsigned i = 0; i < nacts; i++)
			if (!(acts[i].view == V_EXTRACT && acts[i].path && !strcmp(acts[i].path, "/") &&
			      root))
				acts[k++] = acts[i];
		nextract -= root ? 1 : 0;
		nacts = k;
		root = force = false;
	}
	if (!c.outpath && ((force && ninode) || root))
		c.outpath = FT_DUMP_DIR;
	if (optind != argc - 1)
		usage_error(optind >= argc ? "no device given" : "one device only, got \"%s\" "
			    "after \"%s\"", argv[argc - 1], argv[optind]);
	if (c.outpath && !ninode && !ncat && !nextract)
		usage_error("-o needs -i, --cat or --extract");
	if (nextract && !c.outpath)
		usage_error("--extract needs -o DIR, the directory to fill");
	if (c.outpath && ninode + ncat + nextract > 1)
		usage_error("-o takes one -i, --cat or --extract only");
	if (c.sparse && !c.outpath)
		usage_error("-S needs -o");
	if (c.raw_encrypted && !ncat && !c.outpath)
		usage_error("--raw-encrypted needs --cat, --extract or -i with -o");
	if (ncat && !c.outpath && (nacts > 1 || json))
		usage_error("--cat writes to standard output: use it alone, or give -o");
	if (!nacts && json) {
		acts[nacts++].view = V_SUPER;
		acts[nacts].view = V_CP;
		nacts++;
	}
	log.level = c.level;
	if (c.outpath && !strcmp(c.outpath, FT_DUMP_DIR) && ninode && !nextract &&
	    mkdir(FT_DUMP_DIR, 0755) && errno != EEXIST) {
		dump_error("%s: while creating %s", strerror(errno), FT_DUMP_DIR);
		return DUMP_EXIT_ERROR;
	}
	{
		const char *paths[1] = { argv[optind] };
		int err = zf2fs_vol_open(paths, 1, ZF2FS_VOL_BLOCK16K, &log, &c.vol);

		if (err) {
			if (err != -ZF2FS_EFSCORRUPTED && err != -ENOENT && err != -EACCES)
				dump_error("%s: while opening %s", strerror(-err), argv[optind]);
			return DUMP_EXIT_ERROR;
		}
	}
	c.info = zf2fs_vol_info(c.vol);
	c.g = zf2fs_vol_geom(c.vol);
	if (!nacts) {
		/* f2fs-tools' bare dump.f2fs [-d N] DEV, word for word */
		if (ft_level >= 0)
			printf("Info: Debug level = %d\n", ft_level);
		zs_ftinfo_open_lines(stdout, c.vol, ft_level);
		zs_ftinfo_cp_lines(stdout, c.vol, ft_level);
		zs_ftinfo_done(stdout, &start);
		if (fflush(stdout) || ferror(stdout)) {
			dump_error("%s: while writing standard output", strerror(errno));
			rc = DUMP_EXIT_ERROR;
		}
		zf2fs_vol_close(c.vol);
		return rc;
	}
	out_init(&c.out, stdout, json);
	group(acts, nacts);
	for (unsigned i = 0; i < nacts; i++) {
		const char *list = group_name(acts[i].view);
		bool first = !i || acts[i - 1].view != acts[i].view;
		bool last = i + 1 == nacts || acts[i + 1].view != acts[i].view;
		int err;

		if (!list && !first)
			continue;     /* a view without parameters shown twice */
		if (list && first)
			out_list(&c.out, list);
		err = run(&c, &acts[i]);
		if (list && last)
			out_list_end(&c.out);
		if (err)
			rc = DUMP_EXIT_ERROR;
	}
	if (acts[0].view != V_CAT)
		out_finish(&c.out);
	if (rc == DUMP_EXIT_OK && c.damage)
		rc = DUMP_EXIT_DAMAGE;
	if (fflush(stdout) || ferror(stdout)) {
		dump_error("%s: while writing standard output", strerror(errno));
		rc = DUMP_EXIT_ERROR;
	}
	zf2fs_sit_table_free(c.sit);
	zf2fs_vol_close(c.vol);
	return rc;
}
