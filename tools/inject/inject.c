// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inject.c - inject.f2fs: change one member of one on-disk structure, for tests.
 *
 * The option set is f2fs-tools' (--sb/--cp/--nat/--sit N, --ssa, --node, --dent with --mb,
 * --val/--str, --idx, --nid, --blk, --dots) and an invocation changes the same bytes,
 * with checksums recomputed where f2fs-tools recomputes them, except where f2fs-tools
 * writes the wrong place (see the man page).  On top: --fuzz VERB (xfs_db's verbs), --list,
 * and look-ups for test scripts (--path, --name, --get, --where, --lookup, --bmap, --hash).
 * The volume is read through libzf2fs; this file only finds the block and offset of the
 * record, checks every argument before anything is written, and writes one block (two for
 * a checkpoint, whose header is repeated at the end of its pack).
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/file.h"
#include "zf2fs/geometry.h"
#include "zf2fs-internal/volume.h"
#include "helper.h"
#include "inject.h"

struct opts {
	enum inject_target target;
	int pack;                  /* --sb/--cp/--nat/--sit: 0 auto, 1 first, 2 second */
	const char *mb, *path, *name, *dev, *lookup, *hash_name;
	bool have_idx, have_nid, have_blk, dry_run, get, where, list, have_bmap;
	uint32_t idx, nid, blk;
	uint64_t bmap;
	int dots;
	int debug;
	struct inject_value v;
	bool have_str, fuzz, have_slot, have_dblk;
	uint32_t slot, dblk;
};

/* What a target resolved to: the block, where the member's bytes are in it, and how to
 * finish the write. */
struct site {
	uint64_t blkaddr;
	uint32_t off;              /* of the member's bytes in the block */
	uint32_t blksize;          /* bytes of the block: the volume's (the superblock's 4 KiB) */
	struct inject_member mm;   /* the member where the volume's block size puts it */
	const struct inject_member *m;
	uint32_t idx;
	char what[160];
	enum { FIX_NONE, FIX_SB_CRC, FIX_CP, FIX_INODE } fix;
	bool bit;                  /* d_bitmap: one bit, mask below */
	uint8_t bitmask;
	uint32_t name_len;         /* d_name: bytes the entry's name holds */
	uint64_t cp_tail;          /* FIX_CP: the closing copy of the header */
	uint64_t raw_at;           /* the superblock's: byte offset of its block's first 4 KiB */
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, INJECT_PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " INJECT_PROG " [options] device\n"
"  --sb 0|1|2 --mb NAME [--idx N] --val V|--str S   superblock (0: the first copy)\n"
"  --cp 0|1|2 --mb NAME [--idx N] --val V           checkpoint (0: the pack in use)\n"
"  --nat 0|1|2 --mb NAME --nid N --val V            NAT entry (0: journal or live copy)\n"
"  --sit 0|1|2 --mb NAME --blk B [--idx N] --val V  SIT entry of B's segment\n"
"  --ssa --mb NAME --blk B [--idx N] --val V        summary of B's segment\n"
"  --node --mb NAME --nid N [--idx N] --val V       node block of nid N\n"
"  --dent --mb NAME --nid N [--dots 1|2] --val V    directory entry of inode N (or of\n"
"                                                   directory N: \".\", \"..\", --name)\n"
"  --fuzz VERB        instead of --val: zeroes ones firstbit middlebit lastbit add sub\n"
"                     random (--seed N)\n"
"  --path P           the nid of path P instead of --nid\n"
"  --name NAME        --dent: the entry NAME of directory --nid/--path\n"
"  --slot S [--dblk K] --dent: slot S of dentry block K (or of the inline area) of\n"
"                     directory --nid/--path, used or not\n"
"  --get | --where    print the member's value | its block and byte offset; no write\n"
"  --list             every member known, per structure\n"
"  --lookup P         print the inode number of path P\n"
"  --bmap N           print the address of file block N of --nid/--path\n"
"  --hash NAME        print the directory hash of NAME\n"
"  --dry-run          change nothing;  -d N  debug level;  -V  version;  -h  help\n");
}

static uint32_t parse_u32(const char *s, const char *what)
{
	return (uint32_t)zs_parse_u64(INJECT_PROG, s, what, 0, UINT32_MAX);
}

static void set_target(struct opts *o, enum inject_target t)
{
	if (o->target != T_NONE)
		zs_usage_error(INJECT_PROG, "give one of --sb, --cp, --nat, --sit, --ssa, "
			       "--node, --dent");
	o->target = t;
}

enum {
	O_DRY = 256, O_MB, O_IDX, O_VAL, O_STR, O_SB, O_CP, O_NAT, O_NID, O_SIT, O_BLK, O_SSA,
	O_NODE, O_DENT, O_DOTS, O_FUZZ, O_SEED, O_LIST, O_PATH, O_NAME, O_GET, O_WHERE,
	O_LOOKUP, O_BMAP, O_HASH, O_HELP, O_SLOT, O_DBLK,
};

static void parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "dry-run", no_argument, 0, O_DRY }, { "mb", required_argument, 0, O_MB },
		{ "idx", required_argument, 0, O_IDX }, { "val", required_argument, 0, O_VAL },
		{ "str", required_argument, 0, O_STR }, { "sb", required_argument, 0, O_SB },
		{ "cp", required_argument, 0, O_CP }, { "nat", required_argument, 0, O_NAT },
		{ "nid", required_argument, 0, O_NID }, { "sit", required_argument, 0, O_SIT },
		{ "blk", required_argument, 0, O_BLK }, { "ssa", no_argument, 0, O_SSA },
		{ "node", no_argument, 0, O_NODE }, { "dent", no_argument, 0, O_DENT },
		{ "dots", required_argument, 0, O_DOTS }, { "fuzz", required_argument, 0, O_FUZZ },
		{ "seed", required_argument, 0, O_SEED }, { "list", no_argument, 0, O_LIST },
		{ "path", required_argument, 0, O_PATH }, { "name", required_argument, 0, O_NAME },
		{ "get", no_argument, 0, O_GET }, { "where", no_argument, 0, O_WHERE },
		{ "lookup", required_argument, 0, O_LOOKUP }, { "bmap", required_argument, 0, O_BMAP },
		{ "hash", required_argument, 0, O_HASH }, { "help", no_argument, 0, O_HELP },
		{ "slot", required_argument, 0, O_SLOT }, { "dblk", required_argument, 0, O_DBLK },
		{ "version", no_argument, 0, 'V' }, { 0, 0, 0, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, ":d:Vh", lo, NULL)) != -1) {
		switch (c) {
		case O_DRY: o->dry_run = true; break;
		case O_MB: o->mb = optarg; break;
		case O_IDX: o->idx = parse_u32(optarg, "--idx"); o->have_idx = true; break;
		case O_VAL: {
			/* f2fs-tools takes signed values too: -1 is all ones */
			char *end;

			errno = 0;
			if (optarg[0] == '-')
				o->v.val = (uint64_t)strtoll(optarg, &end, 0);
			else
				o->v.val = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end)
				zs_usage_error(INJECT_PROG, "--val: not a number: %s", optarg);
			o->v.have_val = true;
			break;
		}
		case O_STR: o->v.str = optarg; o->have_str = true; break;
		case O_SB: set_target(o, T_SB); goto pack;
		case O_CP: set_target(o, T_CP); goto pack;
		case O_NAT: set_target(o, T_NAT); goto pack;
		case O_SIT: set_target(o, T_SIT);
pack:
			o->pack = (int)zs_parse_u64(INJECT_PROG, optarg, "pack", 0, 2);
			break;
		case O_NID: o->nid = parse_u32(optarg, "--nid"); o->have_nid = true; break;
		case O_BLK: o->blk = parse_u32(optarg, "--blk"); o->have_blk = true; break;
		case O_SSA: set_target(o, T_SSA); break;
		case O_NODE: set_target(o, T_NODE); break;
		case O_DENT: set_target(o, T_DENT); break;
		case O_DOTS: o->dots = (int)zs_parse_u64(INJECT_PROG, optarg, "--dots", 1, 2); break;
		case O_FUZZ:
			if (inject_verb_parse(optarg, &o->v.verb))
				zs_usage_error(INJECT_PROG, "unknown fuzz verb %s (zeroes, ones, "
						  "firstbit, middlebit, lastbit, add, sub, random)",
						  optarg);
			o->fuzz = true;
			break;
		case O_SEED: o->v.rng = zs_parse_u64(INJECT_PROG, optarg, "--seed", 0,
							  UINT64_MAX); break;
		case O_LIST: o->list = true; break;
		case O_PATH: o->path = optarg; break;
		case O_NAME: o->name = optarg; break;
		case O_GET: o->get = true; break;
		case O_WHERE: o->where = true; break;
		case O_LOOKUP: o->lookup = optarg; break;
		case O_BMAP: o->bmap = zs_parse_u64(INJECT_PROG, optarg, "--bmap", 0, UINT32_MAX);
			o->have_bmap = true; break;
		case O_HASH: o->hash_name = optarg; break;
		case O_SLOT: o->slot = parse_u32(optarg, "--slot"); o->have_slot = true; break;
		case O_DBLK: o->dblk = parse_u32(optarg, "--dblk"); o->have_dblk = true; break;
		case 'd': o->debug = (int)zs_parse_u64(INJECT_PROG, optarg, "-d", 0, 9); break;
		case 'V': exit(zs_print_version(stdout, INJECT_PROG) ? 1 : 0);
		case 'h': case O_HELP: usage(stdout); exit(0);
		case ':': zs_usage_error(INJECT_PROG, "%s needs an argument", argv[optind - 1]);
		default: zs_usage_error(INJECT_PROG, "unknown option %s", argv[optind - 1]);
		}
	}
	if (o->list || o->hash_name)
		return;
	if (optind != argc - 1)
		zs_usage_error(INJECT_PROG, optind >= argc ? "no device given" :
			       "one device only");
	o->dev = argv[optind];
	if (o->lookup || o->have_bmap)
		return;
	if (o->target == T_NONE)
		zs_usage_error(INJECT_PROG, "nothing to inject: give --sb, --cp, --nat, --sit, "
			       "--ssa, --node or --dent");
	if (!o->mb)
		zs_usage_error(INJECT_PROG, "--mb NAME is needed (--list shows them)");
	if (o->get || o->where)
		return;
	if (o->fuzz && (o->have_str || (o->v.have_val && o->v.verb != V_ADD && o->v.verb != V_SUB)))
		zs_usage_error(INJECT_PROG, "--fuzz takes no --val or --str (except add/sub: "
				  "--val is the step)");
	if (!o->fuzz && o->v.have_val == o->have_str &&
	    !(o->target == T_DENT && !strcmp(o->mb, "d_bitmap")))
		zs_usage_error(INJECT_PROG, "give one of --val, --str or --fuzz");
	if (!o->fuzz)
		o->v.verb = V_SET;
}

static const struct inject_member *member(unsigned table, const char *name)
{
	const struct inject_member *m = inject_find(table, name);

	if (!m)
		die("unknown member \"%s\" of %s (--list shows them)", name,
		    inject_tables[table].what);
	return m;
}

/* Member @name of @table where a block of @g holds it; @ret keeps it. */
static const struct inject_member *member_at(const struct zf2fs_geom *g, unsigned table,
					     const char *name, struct inject_member *ret)
{
	*ret = inject_at(g, table, member(table, name));
	return ret;
}

/* The element --idx picks, or @def when it was not given (-1: required for arrays). */
static uint32_t element(const struct opts *o, const struct inject_member *m, int64_t def)
{
	if (m->count == 1)
		return 0;
	if (!o->have_idx && def < 0)
		die("%s is an array of %u: give --idx", m->name, m->count);
	uint32_t i = o->have_idx ? o->idx : (uint32_t)def;

	if (i >= m->count)
		die("invalid index %u of %s[] (it has %u)", i, m->name, m->count);
	return i;
}

static void place(struct site *s, uint32_t base, const struct inject_member *m, uint32_t idx)
{
	s->mm = *m;
	s->m = &s->mm;
	s->idx = idx;
	s->off = base + m->off + idx * m->stride;
}

static bool inode_has_csum(const struct zf2fs_node *n, uint32_t features)
{
	return zf2fs_inode_has_checksum(&n->i, features);
}

/* Print (--get, --where) or change the member, fix checksums, write. */
static int finish(struct opts *o, struct site *s, uint8_t *blk, struct zf2fs_vol *vol,
		  struct zf2fs_dev *dev)
{
	uint8_t *p = blk + s->off;
	uint32_t len = s->name_len ? s->name_len : s->m->size;
	char desc[256], label[64];
	int err;

	if (vol)
		s->blksize = zf2fs_vol_geom(vol)->blocksize;
	if ((uint64_t)s->off + len > s->blksize)
		die("%s lies outside its block", s->m->name);
	if (o->where) {
		printf("%" PRIu64 " %u\n", s->blkaddr, s->off);
		return 0;
	}
	if (o->get) {
		if (s->bit)
			printf("%d\n", (*p & s->bitmask) != 0);
		else if (s->m->str)
			printf("%.*s\n", (int)strnlen((const char *)p, len), (const char *)p);
		else
			printf("%" PRIu64 "\n", inject_get_int(p, len));
		return 0;
	}
	if (o->v.verb == V_SET && s->m->str && !o->have_str)
		die("%s is a string: give --str", s->m->name);
	if (o->v.verb == V_SET && !s->m->str && !o->v.have_val && !s->bit)
		die("%s is a number: give --val", s->m->name);
	if (s->bit) {
		bool old = *p & s->bitmask, now;

		switch (o->v.verb) {
		case V_SET: now = o->v.have_val ? (o->v.val & 1) : false; break;
		case V_ZEROES: now = false; break;
		case V_ONES: now = true; break;
		case V_RANDOM: now = !old; break;
		default: now = !old; break;
		}
		*p = (uint8_t)(now ? (*p | s->bitmask) : (*p & ~s->bitmask));
		snprintf(desc, sizeof(desc), "%d -> %d", old, now);
	} else {
		inject_apply(p, len, s->m->str, &o->v, desc, sizeof(desc));
	}
	if (s->fix == FIX_SB_CRC) {
		struct zf2fs_super *sb = (void *)(blk + ZF2FS_SUPER_OFFSET);

		zf2fs_set(sb->crc, zf2fs_super_checksum(sb));
	} else if (s->fix == FIX_CP) {
		uint32_t crc, at = (uint32_t)zf2fs_get(((struct zf2fs_checkpoint *)blk)->checksum_offset);

		/* a checksum_offset the kernel would refuse leaves the crc as it was */
		if (!zf2fs_cp_checksum2(zf2fs_vol_geom(vol), blk, &crc) && at <= s->blksize - 4)
			zf2fs_put_le32p(blk + at, crc);
	} else if (s->fix == FIX_INODE) {
		struct zf2fs_node *n = (void *)blk;

		if (inode_has_csum(n, zf2fs_vol_info(vol)->features))
			zf2fs_set(n->i.i_inode_checksum,
				  zf2fs_inode_checksum2(zf2fs_vol_geom(vol),
					zf2fs_checksum_seed(zf2fs_vol_super(vol)->uuid), n));
	}
	if (s->m->count > 1)
		snprintf(label, sizeof(label), "%s[%u]", s->m->name, s->idx);
	else
		snprintf(label, sizeof(label), "%s", s->m->name);
	printf("Info: %s %s of %s: %s\n", o->fuzz ? inject_verb_name(o->v.verb) : "inject", label,
	       s->what, desc);
	if (o->debug)
		printf("Info: block %" PRIu64 ", byte %u\n", s->blkaddr, s->off);
	if (o->dry_run) {
		printf("Info: dry run, nothing written\n");
		return 0;
	}
	if (vol) {
		err = zf2fs_vol_write_block(vol, s->blkaddr, blk);
		if (!err && s->fix == FIX_CP && s->cp_tail != s->blkaddr)
			err = zf2fs_vol_write_block(vol, s->cp_tail, blk);
		if (!err)
			err = zf2fs_dev_sync(zf2fs_vol_dev(vol, 0));
	} else {
		err = zf2fs_dev_write(dev, blk, ZF2FS_BLKSIZE, s->raw_at);
		if (!err)
			err = zf2fs_dev_sync(dev);
	}
	if (err)
		die("%s: while writing block %" PRIu64, strerror(-err), s->blkaddr);
	return 0;
}

/* ---- superblock: raw device, either copy even when the volume does not open ------------ */
/* Whether the superblock copy in the 4 KiB at @at carries the magic and log_blocksize @log. */
static bool sb_says(struct zf2fs_dev *dev, uint64_t at, uint32_t log)
{
	uint8_t b[ZF2FS_BLKSIZE];
	const struct zf2fs_super *sb = (const void *)(b + ZF2FS_SUPER_OFFSET);

	return !zf2fs_dev_read(dev, b, sizeof(b), at) &&
	       zf2fs_get(sb->magic) == ZF2FS_MAGIC && zf2fs_get(sb->log_blocksize) == log;
}

/* The block size whose block 1 holds the second copy: 16 KiB when the first copy says so,
 * or when the first copy is no help and only the 16 KiB place holds a 16 KiB copy. */
static uint32_t sb_blksize(struct zf2fs_dev *dev)
{
	if (sb_says(dev, 0, ZF2FS_MAX_LOG_BLOCKSIZE) ||
	    (!sb_says(dev, 0, ZF2FS_MIN_LOG_BLOCKSIZE) &&
	     !sb_says(dev, ZF2FS_BLKSIZE, ZF2FS_MIN_LOG_BLOCKSIZE) &&
	     sb_says(dev, ZF2FS_BLKSIZE_MAX, ZF2FS_MAX_LOG_BLOCKSIZE)))
		return ZF2FS_BLKSIZE_MAX;
	return ZF2FS_BLKSIZE;
}

static int do_sb(struct opts *o)
{
	struct zf2fs_dev *dev;
	struct site s = { 0 };
	uint8_t blk[ZF2FS_BLKSIZE];    /* the superblock lies in its block's first 4 KiB */
	int copy = o->pack == 2 ? 1 : 0, err;
	bool write = !o->dry_run && !o->get && !o->where;

	const struct inject_member *m = member(TB_SB, o->mb);

	s.idx = element(o, m, -1);
	err = zf2fs_dev_open(o->dev, write ? ZF2FS_DEV_WRITE : 0, NULL, &dev);
	if (err)
		die("%s: while opening %s", strerror(-err), o->dev);
	s.raw_at = copy ? sb_blksize(dev) : 0;
	err = zf2fs_dev_read(dev, blk, sizeof(blk), s.raw_at);
	if (err)
		die("%s: while reading superblock %d", strerror(-err), copy + 1);
	s.blksize = ZF2FS_BLKSIZE;      /* what finish() may touch: the 4 KiB read */
	struct zf2fs_super *sb = (void *)(blk + ZF2FS_SUPER_OFFSET);
	uint32_t features = (uint32_t)zf2fs_get(sb->feature);

	s.blkaddr = (uint64_t)copy;
	place(&s, ZF2FS_SUPER_OFFSET, m, s.idx);
	if (o->have_str && m->str && strlen(o->v.str) >= m->size)
		die("--str is %zu bytes; %s holds %u with its NUL", strlen(o->v.str), m->name,
		    m->size);
	snprintf(s.what, sizeof(s.what), "sb %d", copy + 1);
	s.fix = (features & ZF2FS_FEAT_SB_CHKSUM) && strcmp(m->name, "crc") ? FIX_SB_CRC : FIX_NONE;
	err = finish(o, &s, blk, NULL, dev);
	zf2fs_dev_close(dev);
	return err;
}

/* ---- the rest goes through the open volume ------------------------------------------- */
static void read_block(struct zf2fs_vol *vol, uint64_t addr, uint8_t *blk)
{
	int err = zf2fs_vol_read_block(vol, addr, blk);

	if (err)
		die("%s: while reading block %" PRIu64, strerror(-err), addr);
}

static int do_cp(struct opts *o, struct zf2fs_vol *vol, uint8_t *blk)
{
	const struct zf2fs_vol_info *in = zf2fs_vol_info(vol);
	const struct inject_member *m = member(TB_CP, o->mb);
	unsigned pack = o->pack ? (unsigned)o->pack - 1 : in->cp_pack;
	struct site s = { 0 };

	s.blkaddr = zf2fs_vol_cp_pack_addr(vol, pack);
	read_block(vol, s.blkaddr, blk);
	/* the closing copy, where the header says it is before the change (bounded by the
	 * pack: a fuzzed count must not send the second write elsewhere) */
	uint64_t total = zf2fs_get(((struct zf2fs_checkpoint *)blk)->cp_pack_total_block_count);

	s.cp_tail = zf2fs_cp_pack_last(s.blkaddr, total);
	place(&s, 0, m, element(o, m, -1));
	snprintf(s.what, sizeof(s.what), "cp %u", pack + 1);
	s.fix = strcmp(m->name, "checksum_offset") ? FIX_CP : FIX_NONE;
	return finish(o, &s, blk, vol, NULL);
}

static uint32_t resolve_nid(struct opts *o, struct zf2fs_vol *vol)
{
	char why[256] = "";

	if (o->path) {
		uint32_t ino;
		int err = zf2fs_path_lookup(vol, o->path, 0, &ino, why, sizeof(why));

		if (err)
			die("%s: %s%s%s", o->path, strerror(-err), *why ? ": " : "", why);
		return ino;
	}
	if (!o->have_nid)
		die("give --nid or --path");
	if (o->nid >= zf2fs_vol_info(vol)->max_nid)
		die("invalid nid %u (the NAT holds nids below %u)", o->nid,
		    zf2fs_vol_info(vol)->max_nid);
	return o->nid;
}

/* Where a journal holds the NAT entry of @key (@sit false) or the SIT entry of segment
 * @key: its index in the journal of the checkpoint in use, or -1. */
static int journal_slot(struct zf2fs_vol *vol, bool sit, uint32_t key)
{
	const struct zf2fs_geom *g = zf2fs_vol_geom(vol);
	const struct zf2fs_journal *j = sit ? zf2fs_vol_sit_journal(vol) : zf2fs_vol_nat_journal(vol);
	uint32_t n = (uint32_t)zf2fs_get(j->n_entries);
	uint32_t cap = sit ? g->sit_journal_entries : g->nat_journal_entries;

	for (uint32_t i = 0; i < n && i < cap; i++)
		if (zf2fs_get(sit ? zf2fs_journal_sit(j, i)->segno : zf2fs_journal_nat(j, i)->nid) == key)
			return (int)i;
	return -1;
}

/* The NAT entry of nid @key or the SIT entry of segment @key, @entry_off bytes into table
 * block @bidx: with no --pack, the journal's copy when the journal holds one (the kernel
 * reads that one, not the table block), else the live copy; --pack 1/2 names the copy. */
static int table_entry(struct opts *o, struct zf2fs_vol *vol, uint8_t *blk,
		       const struct inject_member *m, bool sit, uint32_t key, uint32_t bidx,
		       uint32_t entry_off, uint32_t idx)
{
	const char *what = sit ? "segment" : "nid";
	struct site s = { 0 };
	int i = o->pack == 0 ? journal_slot(vol, sit, key) : -1;

	if (i >= 0) {
		uint32_t at, off = sit ?
			(uint32_t)(offsetof(struct zf2fs_journal, sit.entries) +
				   (size_t)i * sizeof(struct zf2fs_sit_journal_entry) +
				   offsetof(struct zf2fs_sit_journal_entry, se)) :
			(uint32_t)(offsetof(struct zf2fs_journal, nat.entries) +
				   (size_t)i * sizeof(struct zf2fs_nat_journal_entry) +
				   offsetof(struct zf2fs_nat_journal_entry, ne));

		zf2fs_vol_journal_where(vol, sit, &s.blkaddr, &at);
		read_block(vol, s.blkaddr, blk);
		place(&s, at + off, m, idx);
		snprintf(s.what, sizeof(s.what), "%s %u in the %s journal", what, key,
			 sit ? "SIT" : "NAT");
		return finish(o, &s, blk, vol, NULL);
	}
	uint64_t live = sit ? zf2fs_vol_sit_block_addr(vol, bidx) : zf2fs_vol_nat_block_addr(vol, bidx);
	uint64_t second = sit ? zf2fs_vol_sit_block_copy(vol, bidx, 1) :
				zf2fs_vol_nat_block_copy(vol, bidx, 1);
	unsigned copy = o->pack ? (unsigned)o->pack - 1 : (live == second);

	s.blkaddr = sit ? zf2fs_vol_sit_block_copy(vol, bidx, copy) :
			  zf2fs_vol_nat_block_copy(vol, bidx, copy);
	read_block(vol, s.blkaddr, blk);
	place(&s, entry_off, m, idx);
	snprintf(s.what, sizeof(s.what), "%s %u in pack %u", what, key, copy + 1);
	return finish(o, &s, blk, vol, NULL);
}

static int do_nat(struct opts *o, struct zf2fs_vol *vol, uint8_t *blk)
{
	const struct zf2fs_geom *g = zf2fs_vol_geom(vol);
	const struct inject_member *m = member(TB_NAT, o->mb);
	uint32_t nid = resolve_nid(o, vol);

	return table_entry(o, vol, blk, m, false, nid, zf2fs_geom_nat_block_index(g, nid),
			   zf2fs_geom_nat_entry_index(g, nid) *
			   (uint32_t)sizeof(struct zf2fs_nat_entry), 0);
}

static uint32_t main_segno(struct opts *o, struct zf2fs_vol *vol)
{
	const struct zf2fs_vol_info *in = zf2fs_vol_info(vol);

	if (!o->have_blk)
		die("give --blk");
	if (o->blk < in->main_blkaddr || o->blk >= in->main_end)
		die("invalid blkaddr %u (the main area is %u..%" PRIu64 ")", o->blk,
		    in->main_blkaddr, in->main_end - 1);
	return zf2fs_main_segno(in->main_blkaddr, o->blk);
}

static int do_sit(struct opts *o, struct zf2fs_vol *vol, uint8_t *blk)
{
	const struct zf2fs_geom *g = zf2fs_vol_geom(vol);
	const struct inject_member *m = member(TB_SIT, o->mb);
	uint32_t segno = main_segno(o, vol);
	uint32_t slot = zf2fs_geom_sit_entry_index(g, segno);

	/* f2fs-tools' default index of valid_map[] is the entry's slot in its SIT block */
	return table_entry(o, vol, blk, m, true, segno, zf2fs_geom_sit_block_index(g, segno),
			   slot * (uint32_t)sizeof(struct zf2fs_sit_entry), element(o, m, slot));
}

static int do_ssa(struct opts *o, struct zf2fs_vol *vol, uint8_t *blk)
{
	const struct zf2fs_vol_info *in = zf2fs_vol_info(vol);
	const struct zf2fs_geom *g = zf2fs_vol_geom(vol);
	uint32_t segno = main_segno(o, vol), at;
	const struct inject_member *m = inject_find(TB_SSA_FOOTER, o->mb);
	struct inject_member mm;
	struct site s = { 0 };
	uint8_t *sum;
	int err;

	/* its SSA address is a main-area block: nothing of a file's to overwrite */
	if (!zf2fs_vol_has_ssa(vol))
		die("a read-only volume (feature ro) has no summary area: no summary to inject");
	/* like f2fs-tools: the segment's summary as the kernel sees it (from the checkpoint
	 * for current segments), written to its place in its SSA block (with packed_ssa one
	 * 4 KiB quarter of it, the other segments' summaries kept) */
	s.blkaddr = zf2fs_vol_ssa_block_addr(vol, segno);
	(void)zf2fs_geom_ssa_block(g, 0, segno, &at);
	read_block(vol, s.blkaddr, blk);
	sum = malloc(g->sum_blocksize);
	if (!sum)
		die("out of memory");
	err = zf2fs_vol_segment_summary(vol, segno, (struct zf2fs_summary_block *)sum);
	if (err)
		die("%s: while reading the summary of segment %u", strerror(-err), segno);
	memcpy(blk + at, sum, g->sum_blocksize);
	free(sum);
	if (m) {
		place(&s, at, member_at(g, TB_SSA_FOOTER, o->mb, &mm), 0);
	} else {
		m = member(TB_SSA_ENTRY, o->mb);
		uint32_t e = o->have_idx ? o->idx : zf2fs_main_seg_off(in->main_blkaddr, o->blk);

		if (e >= g->entries_in_sum)
			die("invalid index %u of entries[] (it has %u)", e, g->entries_in_sum);
		place(&s, at + e * (uint32_t)sizeof(struct zf2fs_summary), m, 0);
		s.idx = e;
	}
	snprintf(s.what, sizeof(s.what), "the summary of segment %u", segno);
	return finish(o, &s, blk, vol, NULL);
}

static uint32_t node_addr(struct zf2fs_vol *vol, uint32_t nid, struct zf2fs_nat_info *ni)
{
	const struct zf2fs_vol_info *in = zf2fs_vol_info(vol);
	int err = zf2fs_vol_nat_lookup(vol, nid, ni);

	if (err)
		die("%s: while looking nid %u up", strerror(-err), nid);
	if (ni->blkaddr < in->main_blkaddr || ni->blkaddr >= in->main_end)
		die("nid %u has no node block (NAT address %u)", nid, ni->blkaddr);
	return ni->blkaddr;
}

static int do_node(struct opts *o, struct zf2fs_vol *vol, uint8_t *blk)
{
	uint32_t nid = resolve_nid(o, vol);
	struct zf2fs_nat_info ni;
	struct site s = { 0 };
	struct inject_member mm;
	const struct inject_member *m;
	unsigned table = TB_NODE_FOOTER;

	s.blkaddr = node_addr(vol, nid, &ni);
	read_block(vol, s.blkaddr, blk);
	if (!inject_find(table, o->mb))
		table = ni.ino == nid ? TB_INODE : TB_INDEX;
	m = member_at(zf2fs_vol_geom(vol), table, o->mb, &mm);
	place(&s, 0, m, element(o, m, -1));
	snprintf(s.what, sizeof(s.what), "nid %u", nid);
	/* f2fs-tools redoes an inode's checksum unless the checksum itself is the target */
	if (ni.ino == nid && strcmp(m->name, "i_inode_checksum"))
		s.fix = FIX_INODE;
	return finish(o, &s, blk, vol, NULL);
}

/* ---- directory entries --------------------------------------------------------------- */
struct dent_find {
	uint32_t ino;               /* the entry points here (0: match by name) */
	const char *name;
	bool found;
	struct zf2fs_dentry_info d;
	char namebuf[ZF2FS_NAME_LEN + 1];   /* d.name points into the library's buffer */
};

static int dent_match(void *arg, const struct zf2fs_dentry_info *d)
{
	struct dent_find *f = arg;
	bool dots = (d->name_len == 1 && d->name[0] == '.') ||
		    (d->name_len == 2 && !memcmp(d->name, "..", 2));

	if (f->name ? (strlen(f->name) == d->name_len && !memcmp(f->name, d->name, d->name_len))
		    : (!dots && d->ino == f->ino)) {
		f->d = *d;
		memcpy(f->namebuf, d->name, d->name_len <= ZF2FS_NAME_LEN ? d->name_len : ZF2FS_NAME_LEN);
		f->d.name = (const uint8_t *)f->namebuf;
		f->found = true;
		return 1;
	}
	return 0;
}

static int do_dent(struct opts *o, struct zf2fs_vol *vol, uint8_t *blk)
{
	const struct inject_member *m = member(TB_DENT, o->mb);
	uint32_t nid = resolve_nid(o, vol), dir = nid;
	const struct zf2fs_geom *g = zf2fs_vol_geom(vol);
	struct zf2fs_node *node = malloc(g->blocksize);
	struct dent_find f = { 0 };
	struct zf2fs_dentry_view v;
	struct site s = { 0 };
	char why[256] = "";
	uint32_t iaddr;
	int err;

	if (!node)
		die("out of memory");
	if (o->have_slot) {
		f.found = true;
		f.d.slot = o->slot;
		f.d.block = o->have_dblk ? (int64_t)o->dblk : -1;
		f.d.name = (const uint8_t *)"";
	} else if (o->dots)
		f.name = o->dots == 1 ? "." : "..";
	else if (o->name)
		f.name = o->name;
	if (!f.name && !o->have_slot) {
		/* the entry of inode @nid in the directory its i_pino names */
		err = zf2fs_inode_read(vol, nid, node, NULL, why, sizeof(why));
		if (err)
			die("inode %u: %s%s%s", nid, strerror(-err), *why ? ": " : "", why);
		dir = (uint32_t)zf2fs_get(node->i.i_pino);
		f.ino = nid;
	}
	err = zf2fs_inode_read(vol, dir, node, &iaddr, why, sizeof(why));
	if (err)
		die("directory %u: %s%s%s", dir, strerror(-err), *why ? ": " : "", why);
	if (zf2fs_inode_type(&node->i) != ZF2FS_S_IFDIR)
		die("inode %u is not a directory", dir);
	if (o->have_slot && !o->have_dblk && !(node->i.i_inline & ZF2FS_INLINE_DENTRY))
		die("directory %u keeps its entries in blocks: give --dblk", dir);
	if (!o->have_slot)
		zf2fs_dir_iterate(vol, node, dent_match, NULL, &f);
	if (!f.found) {
		if (f.name)
			die("no entry \"%s\" in directory %u", f.name, dir);
		die("no entry for inode %u in directory %u (its i_pino)", nid, dir);
	}
	if (f.d.block < 0) {
		s.blkaddr = iaddr;
		read_block(vol, s.blkaddr, blk);
		if (zf2fs_dentry_view_inline2(g, (const struct zf2fs_node *)blk,
					      zf2fs_vol_info(vol)->features, &v))
			die("directory %u: its inline area is damaged", dir);
		s.fix = FIX_INODE;
	} else {
		uint32_t a;

		err = zf2fs_file_bmap(vol, node, (uint64_t)f.d.block, &a, why, sizeof(why));
		if (err)
			die("directory %u block %" PRId64 ": %s", dir, f.d.block, strerror(-err));
		s.blkaddr = a;
		read_block(vol, s.blkaddr, blk);
		zf2fs_dentry_view_block2(g, blk, &v);
	}
	uint32_t slot = f.d.slot;

	if (slot >= v.nr)
		die("invalid slot %u (the area has %u)", slot, v.nr);
	if (o->have_slot)
		f.d.name_len = o->have_str ? (uint32_t)strlen(o->v.str) :
			       (uint32_t)zf2fs_get(v.dentry[slot].name_len);

	if (!strcmp(m->name, "d_bitmap")) {
		place(&s, (uint32_t)(v.bitmap + zf2fs_dentry_bit_byte(slot) - blk), m, 0);
		s.off = (uint32_t)(v.bitmap + zf2fs_dentry_bit_byte(slot) - blk);
		s.bit = true;
		s.bitmask = zf2fs_dentry_bit_mask(slot);
	} else if (!strcmp(m->name, "d_name")) {
		s.m = m;
		s.off = (uint32_t)((const uint8_t *)v.filename[slot] - blk);
		/* the name's own slots, never past the area */
		s.name_len = f.d.name_len;
		if (s.name_len > (v.nr - slot) * ZF2FS_SLOT_LEN)
			s.name_len = (v.nr - slot) * ZF2FS_SLOT_LEN;
		if (!s.name_len)
			die("the entry's name is empty");
	} else {
		place(&s, (uint32_t)((const uint8_t *)&v.dentry[slot] - blk), m, 0);
	}
	if (o->have_slot)
		snprintf(s.what, sizeof(s.what), "slot %u of directory %u", slot, dir);
	else
		snprintf(s.what, sizeof(s.what), "entry \"%.*s\" (slot %u) of directory %u",
			 (int)(f.d.name_len > 64 ? 64 : f.d.name_len), (const char *)f.d.name, slot,
			 dir);
	free(node);
	return finish(o, &s, blk, vol, NULL);
}

/* ---- look-ups ------------------------------------------------------------------------ */
static int do_lookups(struct opts *o, struct zf2fs_vol *vol)
{
	char why[256] = "";
	int err;

	if (o->lookup) {
		uint32_t ino;

		err = zf2fs_path_lookup(vol, o->lookup, 0, &ino, why, sizeof(why));
		if (err)
			die("%s: %s%s%s", o->lookup, strerror(-err), *why ? ": " : "", why);
		printf("%u\n", ino);
	}
	if (o->have_bmap) {
		struct zf2fs_node *node = malloc(zf2fs_vol_geom(vol)->blocksize);
		uint32_t ino = resolve_nid(o, vol), a;

		if (!node)
			die("out of memory");
		err = zf2fs_inode_read(vol, ino, node, NULL, why, sizeof(why));
		if (!err)
			err = zf2fs_file_bmap(vol, node, o->bmap, &a, why, sizeof(why));
		free(node);	/* before die(): the sanitizer run counts what exit leaves */
		if (err)
			die("inode %u block %" PRIu64 ": %s%s%s", ino, o->bmap, strerror(-err),
			    *why ? ": " : "", why);
		printf("%u\n", a);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct zf2fs_vol *vol;
	uint8_t *blk;
	int err;

	o.v.rng = 1;
	parse(argc, argv, &o);
	if (o.list) {
		inject_list(stdout);
		return 0;
	}
	if (o.hash_name) {
		printf("%u\n", zf2fs_dentry_hash(o.hash_name, strlen(o.hash_name)));
		return 0;
	}
	if (o.target == T_SB && !o.lookup && !o.have_bmap)
		return do_sb(&o) ? 1 : 0;

	const char *paths[1] = { o.dev };
	bool ro = o.dry_run || o.get || o.where || o.target == T_NONE;

	/* inject.f2fs writes what it is told, whatever bits the volume carries */
	err = zf2fs_vol_open(paths, 1, ZF2FS_VOL_BLOCK16K |
			     (ro ? 0 : ZF2FS_DEV_WRITE | ZF2FS_VOL_ANY_BITS), NULL, &vol);
	if (err)
		die("%s: while opening the volume on %s", strerror(-err), o.dev);
	blk = aligned_alloc(ZF2FS_BLKSIZE_MAX, ZF2FS_BLKSIZE_MAX);
	if (!blk)
		die("out of memory");
	if (o.lookup || o.have_bmap)
		err = do_lookups(&o, vol);
	else if (o.target == T_CP)
		err = do_cp(&o, vol, blk);
	else if (o.target == T_NAT)
		err = do_nat(&o, vol, blk);
	else if (o.target == T_SIT)
		err = do_sit(&o, vol, blk);
	else if (o.target == T_SSA)
		err = do_ssa(&o, vol, blk);
	else if (o.target == T_NODE)
		err = do_node(&o, vol, blk);
	else
		err = do_dent(&o, vol, blk);
	free(blk);
	zf2fs_vol_close(vol);
	return err ? 1 : 0;
}
