// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * defrag.c - defrag.f2fs: move the valid blocks of a block range of an unmounted volume
 * to free space at a target address, with f2fs-tools' interface:
 *
 *   defrag.f2fs [-d level] [-s start] [-l length] [-t target] [-i] device
 *
 * The blocks of [start, start + length) move with the library's block mover
 * (include/zf2fs/move.h) on one transaction, the way the kernel's GC moves them (data
 * through its owner node, nodes through the NAT), into whole free sections on the
 * target's side: from the section at or after the target up to the range (or the end of
 * the main area), or with -i from the section at or before the target down to the range
 * (or the start of the main area); lowest free section first.  One checkpoint at the
 * end; until then the old volume stays the valid one.  Everything that can be refused
 * (mounted, unclean, range outside the main area, a window without room for what the
 * range holds) is refused before the first write.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "helper.h"
#include "zf2fs/access.h"
#include "zf2fs/file.h"
#include "zf2fs/move.h"
#include "zf2fs/txn.h"

#define PROG "defrag.f2fs"

struct opts {
	const char *dev;
	uint64_t start, len, target;
	bool have_start, have_len, have_target, left;
	int level;
};

/* The sections the moved blocks may go to, and what they must hold. */
struct plan {
	uint32_t first_sec, end_sec;    /* allocation window */
	uint32_t free_secs;             /* free sections in it */
	uint32_t need_secs;             /* sections the commit may take at most */
	struct zf2fs_move_stats st;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [options] device\n"
"Move the valid blocks of a block range of an unmounted F2FS volume to free space\n"
"at a target address.\n"
"\n"
"  -s, --start ADDR   first block of the range (default: the main area's first)\n"
"  -l, --length N     blocks in the range (default: one segment)\n"
"  -t, --target ADDR  where the blocks go (default: right after the range, or with\n"
"                     -i right before it)\n"
"  -i, --left         take free space at or below the target (default: at or above)\n"
"  -d, --debug LEVEL  print more (0-3)\n"
"      --file PATH    make a regular file's blocks contiguous (alone: none of the\n"
"                     options above)\n"
"  -V, --version      print the version and exit\n"
"  -h, --help         this help\n"
"\n"
"Addresses and counts are in 4 KiB blocks, decimal or 0x hex.  Blocks move in whole\n"
"free sections on the target's side of the range.\n");
}

static int say(int err, const char *doing, const char *dev)
{
	fprintf(stderr, PROG ": %s while %s %s\n",
		strerror(err == -ZF2FS_EFSCORRUPTED ? EUCLEAN : -err), doing, dev);
	return 1;
}

static uint32_t sec_blocks(const struct zf2fs_vol_info *vi)
{
	return vi->segs_per_sec * vi->blocks_per_seg;
}

/* Section of main-area block @blk, rounded up to the next section boundary when @up. */
static uint32_t sec_of(const struct zf2fs_vol_info *vi, uint64_t blk, bool up)
{
	uint64_t off = blk - vi->main_blkaddr;

	return (uint32_t)((off + (up ? sec_blocks(vi) - 1 : 0)) / sec_blocks(vi));
}

static bool cur_in_sec(struct zf2fs_vol *vol, uint32_t sec)
{
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		uint32_t s, off;

		zf2fs_vol_curseg(vol, t, &s, &off);
		if (s / zf2fs_vol_info(vol)->segs_per_sec == sec)
			return true;
	}
	return false;
}

static bool sec_free(struct zf2fs_vol *vol, const struct zf2fs_sit_entry *sit, uint32_t sec)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);

	if (cur_in_sec(vol, sec))
		return false;
	for (uint32_t k = 0; k < vi->segs_per_sec; k++) {
		uint32_t s = sec * vi->segs_per_sec + k;

		if (s >= vi->main_segs || zf2fs_sit_valid_blocks(&sit[s]))
			return false;
	}
	return true;
}

/* The checks that need the volume: the range inside the main area, the target outside the
 * range, a window of whole sections between them.  0 or a one-line refusal printed. */
static int check_range(const struct opts *o, const struct zf2fs_vol_info *vi, struct plan *p)
{
	uint64_t end = o->start + o->len;

	if (o->start < vi->main_blkaddr || o->len > vi->main_end || end > vi->main_end) {
		fprintf(stderr, PROG ": range [0x%" PRIx64 ", 0x%" PRIx64 ") is not inside the main "
			"area [0x%x, 0x%" PRIx64 ")\n", o->start, end, vi->main_blkaddr,
			vi->main_end);
		return -EINVAL;
	}
	if (o->target < vi->main_blkaddr || o->target >= vi->main_end) {
		fprintf(stderr, PROG ": target 0x%" PRIx64 " is not inside the main area [0x%x, 0x%"
			PRIx64 ")\n", o->target, vi->main_blkaddr, vi->main_end);
		return -EINVAL;
	}
	if (o->target >= o->start && o->target < end) {
		fprintf(stderr, PROG ": target 0x%" PRIx64 " lies inside the range [0x%" PRIx64
			", 0x%" PRIx64 ")\n", o->target, o->start, end);
		return -EINVAL;
	}
	if (!o->left) {
		/* whole sections from the target up to the range or the end */
		p->first_sec = sec_of(vi, o->target, true);
		p->end_sec = o->target < o->start ? sec_of(vi, o->start, false) : vi->main_secs;
	} else {
		/* whole sections from the range or the start up to the target's */
		p->first_sec = o->target >= end ? sec_of(vi, end, true) : 0;
		p->end_sec = sec_of(vi, o->target + 1, false);
	}
	if (p->first_sec >= p->end_sec) {
		fprintf(stderr, PROG ": no whole section between target 0x%" PRIx64 " and the "
			"range [0x%" PRIx64 ", 0x%" PRIx64 ") %s\n", o->target, o->start, end,
			o->left ? "at or below the target" : "at or above the target");
		return -EINVAL;
	}
	return 0;
}

/* Sections the commit may take for what is queued: a fresh section for each segment
 * of every log it writes (moved data go to one log, nodes to up to three), and one for
 * each current log in source sections [@lo, @hi) that moves on. */
static uint32_t sections_needed(struct zf2fs_vol *vol, uint32_t lo, uint32_t hi,
				const struct zf2fs_move_stats *st)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint64_t bps = vi->blocks_per_seg;
	uint64_t nodes = st->node_blocks + st->owner_nodes;
	uint64_t need = (st->data_blocks + bps - 1) / bps + (nodes + bps - 1) / bps;

	if (nodes)
		need += 2;   /* the nodes may split over the hot, warm and cold node logs */
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		uint32_t s, off;

		zf2fs_vol_curseg(vol, t, &s, &off);
		if (s / vi->segs_per_sec >= lo && s / vi->segs_per_sec < hi)
			need++;
	}
	return need > UINT32_MAX ? UINT32_MAX : (uint32_t)need;
}

/* Count the window's free sections; queue the range; refuse when the window is short. */
static int plan_move(struct zf2fs_vol *vol, struct zf2fs_txn *txn, const struct opts *o,
		     struct plan *p)
{
	struct zf2fs_sit_entry *sit;
	int err = zf2fs_vol_load_sit(vol, &sit);

	if (err)
		return say(err, "reading the SIT of", o->dev);
	for (uint32_t sec = p->first_sec; sec < p->end_sec; sec++)
		p->free_secs += sec_free(vol, sit, sec);
	free(sit);
	err = zf2fs_move_range(txn, o->start, o->len, &p->st);
	if (!err)
		err = zf2fs_move_set_target(txn, p->first_sec, p->end_sec);
	if (err)
		return say(err, "queueing the moves on", o->dev);
	p->need_secs = sections_needed(vol, sec_of(zf2fs_vol_info(vol), o->start, false),
				       sec_of(zf2fs_vol_info(vol), o->start + o->len, true), &p->st);
	if (p->st.data_blocks + p->st.node_blocks && p->free_secs < p->need_secs) {
		fprintf(stderr, PROG ": the target window (sections %u-%u) has %u free section%s, "
			"the %" PRIu64 " blocks of the range may need %u: nothing moved\n",
			p->first_sec, p->end_sec - 1, p->free_secs, p->free_secs == 1 ? "" : "s",
			p->st.data_blocks + p->st.node_blocks, p->need_secs);
		return 1;
	}
	return 0;
}

/* After the commit (the volume opened again): the range must hold no valid block; the
 * lowest and highest block valid now that was not before the move tell where they went. */
static int verify(struct zf2fs_vol *vol, const struct opts *o, const struct plan *p)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	struct zf2fs_sit_entry *sit;
	uint64_t left = 0;
	int err = zf2fs_vol_load_sit(vol, &sit);

	if (err)
		return say(err, "reading the SIT again of", o->dev);
	for (uint64_t b = o->start; b < o->start + o->len; b++)
		left += zf2fs_sit_block_valid(&sit[zf2fs_main_segno(vi->main_blkaddr, b)],
					      zf2fs_main_seg_off(vi->main_blkaddr, b));
	free(sit);
	printf("moved %" PRIu64 " data and %" PRIu64 " node blocks (%" PRIu64 " owner nodes "
	       "rewritten) from [0x%" PRIx64 ", 0x%" PRIx64 ") into sections %u-%u "
	       "[0x%" PRIx64 ", 0x%" PRIx64 ")\n", p->st.data_blocks, p->st.node_blocks,
	       p->st.owner_nodes, o->start, o->start + o->len, p->first_sec, p->end_sec - 1,
	       vi->main_blkaddr + (uint64_t)p->first_sec * sec_blocks(vi),
	       vi->main_blkaddr + (uint64_t)p->end_sec * sec_blocks(vi));
	if (left) {
		fprintf(stderr, PROG ": %" PRIu64 " valid blocks are still in the range\n", left);
		return 1;
	}
	return 0;
}

/* The volume opened for writing, refused (1, one line printed) when mounted or unclean. */
static int open_for_moving(const struct opts *o, const struct zf2fs_log *log,
			   struct zf2fs_vol **ret)
{
	const char *why;
	int err = zf2fs_path_is_mounted(o->dev);

	if (err) {
		if (err > 0)
			fprintf(stderr, PROG ": %s is mounted: unmount it first\n", o->dev);
		else
			say(err, "checking whether this is mounted:", o->dev);
		return 1;
	}
	err = zf2fs_vol_open(&o->dev, 1, ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL, log, ret);
	if (err)
		return say(err, "opening", o->dev);
	why = zf2fs_unclean_reason(zf2fs_vol_info(*ret)->ckpt_flags);
	if (why) {
		fprintf(stderr, PROG ": %s %s: run fsck.f2fs first\n", o->dev, why);
		zf2fs_vol_close(*ret);
		return 1;
	}
	return 0;
}

/* The commit, with the tests' hooks: the N-th write fails (and every one after) when
 * ZF2FS_FAULT_WRITES=N, as in fsck.f2fs; -d 3 tells how many writes it made. */
static int commit(struct zf2fs_vol *vol, struct zf2fs_txn *txn, const struct zf2fs_log *log)
{
	const char *fault = getenv("ZF2FS_FAULT_WRITES");
	struct zf2fs_dev *dev = zf2fs_vol_dev(vol, 0);
	unsigned long before = zf2fs_dev_write_count(dev);
	int err;

	if (fault && *fault)
		zf2fs_dev_fail_writes_after(dev, strtoul(fault, NULL, 10));
	err = zf2fs_txn_commit(txn);
	zf2fs_logf(log, ZF2FS_MSG_INFO, 3, "the commit made %lu writes",
		   zf2fs_dev_write_count(dev) - before);
	return err;
}

static int run(const struct opts *o, const struct zf2fs_log *log)
{
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn = NULL;
	struct plan p = { 0 };
	int err, rc;

	rc = open_for_moving(o, log, &vol);
	if (rc)
		return rc;
	{
		struct opts d = *o;
		const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);

		/* f2fs-tools' defaults: the main area's start, one segment, next to the range */
		if (!d.have_start)
			d.start = vi->main_blkaddr;
		if (!d.have_len)
			d.len = vi->blocks_per_seg;
		if (!d.have_target)
			d.target = d.left ? d.start - 1 : d.start + d.len;
		rc = check_range(&d, vi, &p) ? 1 : 0;
		if (!rc)
			err = zf2fs_txn_begin(vol, &txn);
		if (!rc && err)
			rc = say(err, "starting a transaction on", o->dev);
		if (!rc)
			rc = plan_move(vol, txn, &d, &p);
		if (!rc && !(p.st.data_blocks + p.st.node_blocks)) {
			printf("no valid block in [0x%" PRIx64 ", 0x%" PRIx64 "): nothing to move\n",
			       d.start, d.start + d.len);
			zf2fs_txn_free(txn);
			zf2fs_vol_close(vol);
			return 0;
		}
		if (!rc) {
			err = commit(vol, txn, log);
			if (err)
				rc = say(err, "moving the blocks on", o->dev);
		}
		zf2fs_txn_free(txn);
		zf2fs_vol_close(vol);
		if (rc)
			return rc;
		/* the handle described the old checkpoint: open the new one */
		err = zf2fs_vol_open(&o->dev, 1, ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL, log, &vol);
		if (err)
			return say(err, "opening again", o->dev);
		err = zf2fs_move_reset_free_zones(vol, NULL);
		rc = err ? say(err, "resetting freed zones of", o->dev) : verify(vol, &d, &p);
		zf2fs_vol_close(vol);
		return rc;
	}
}

/* The lowest run of @need consecutive free sections: its first, or UINT32_MAX. */
static uint32_t free_run(struct zf2fs_vol *vol, const struct zf2fs_sit_entry *sit, uint32_t need)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint32_t len = 0;

	for (uint32_t sec = 0; sec < vi->main_secs && need; sec++) {
		len = sec_free(vol, sit, sec) ? len + 1 : 0;
		if (len == need)
			return sec + 1 - need;
	}
	return UINT32_MAX;
}

/* Queue the move of every written block of @inode in file order: the commit writes moved
 * data in the order queued, to one log, so in a run of free sections they end up at
 * consecutive addresses. */
static int queue_file(struct zf2fs_vol *vol, struct zf2fs_txn *txn, const struct zf2fs_node *inode,
		      uint64_t blocks, struct zf2fs_move_stats *st, uint32_t *logs, char *why,
		      size_t whylen)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint64_t nfofs = (zf2fs_get(inode->i.i_size) + ZF2FS_BLKSIZE - 1) / ZF2FS_BLKSIZE;
	uint64_t found = 0;

	for (uint64_t fofs = 0; fofs < nfofs && found < blocks; fofs++) {
		uint32_t addr;
		int err = zf2fs_file_bmap(vol, inode, fofs, &addr, why, whylen);

		if (err == -ERANGE)
			break;
		if (err)
			return err;
		if (addr < vi->main_blkaddr || addr >= vi->main_end)
			continue;   /* a hole or a reserved block */
		err = zf2fs_move_range(txn, addr, 1, st);
		if (err)
			return err;
		/* a current log holding one of the blocks moves on to a section of its own */
		for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
			uint32_t seg, off;

			zf2fs_vol_curseg(vol, t, &seg, &off);
			if (seg == zf2fs_main_segno(vi->main_blkaddr, addr))
				*logs |= 1u << t;
		}
		found++;
	}
	return 0;
}

/* --file PATH: the file's blocks moved, in file order, into the lowest run of free
 * sections that holds them and what the move rewrites besides. */
static int run_file(const struct opts *o, const struct zf2fs_log *log, const char *path)
{
	struct zf2fs_vol *vol;
	struct zf2fs_txn *txn = NULL;
	struct zf2fs_node *inode = malloc(sizeof(*inode));
	struct zf2fs_file_extents before, after;
	struct zf2fs_move_stats st = { 0 };
	struct zf2fs_sit_entry *sit = NULL;
	uint32_t ino, need, first = UINT32_MAX, logs = 0;
	char why[256] = "";
	int err, rc = inode ? open_for_moving(o, log, &vol) : say(-ENOMEM, "starting on", o->dev);

	if (rc) {
		free(inode);
		return rc;
	}
	err = zf2fs_path_lookup(vol, path, 0, &ino, why, sizeof(why));
	if (!err)
		err = zf2fs_inode_read(vol, ino, inode, NULL, why, sizeof(why));
	if (err) {
		fprintf(stderr, PROG ": %s: %s\n", path, why[0] ? why : strerror(-err));
		goto fail;
	}
	if ((zf2fs_get(inode->i.i_mode) & 0170000) != 0100000) {
		fprintf(stderr, PROG ": %s is not a regular file\n", path);
		goto fail;
	}
	err = zf2fs_file_extents(vol, inode, &before);
	if (!err && (before.damaged || before.outside))
		err = -ZF2FS_EFSCORRUPTED;
	if (err) {
		say(err, "mapping the blocks of", path);
		goto fail;
	}
	if (before.extents <= 1) {
		printf("%s: %" PRIu64 " blocks in %" PRIu64 " extent: already contiguous\n", path,
		       before.blocks, before.extents);
		goto done;
	}
	err = zf2fs_txn_begin(vol, &txn);
	if (!err)
		err = queue_file(vol, txn, inode, before.blocks, &st, &logs, why, sizeof(why));
	if (!err)
		err = zf2fs_vol_load_sit(vol, &sit);
	if (err) {
		say(err, "queueing the blocks of", path);
		goto fail;
	}
	need = sections_needed(vol, 0, 0, &st) + (uint32_t)__builtin_popcount(logs);
	first = free_run(vol, sit, need);
	free(sit);
	if (first == UINT32_MAX) {
		fprintf(stderr, PROG ": %s: no run of %u free sections for its %" PRIu64 " blocks: "
			"nothing moved\n", o->dev, need, before.blocks);
		goto fail;
	}
	err = zf2fs_move_set_target(txn, first, first + need);
	if (!err)
		err = commit(vol, txn, log);
	zf2fs_txn_free(txn);
	txn = NULL;
	zf2fs_vol_close(vol);
	if (err) {
		free(inode);
		return say(err, "moving the blocks of the file on", o->dev);
	}
	err = zf2fs_vol_open(&o->dev, 1, ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL, log, &vol);
	if (err) {
		free(inode);
		return say(err, "opening again", o->dev);
	}
	err = zf2fs_move_reset_free_zones(vol, NULL);
	if (!err)
		err = zf2fs_inode_read(vol, ino, inode, NULL, why, sizeof(why));
	if (!err)
		err = zf2fs_file_extents(vol, inode, &after);
	if (err) {
		say(err, "mapping again the blocks of", path);
		goto fail;
	}
	printf("%s: %" PRIu64 " blocks: %" PRIu64 " extents before, %" PRIu64 " after "
	       "(sections %u-%u)\n", path, before.blocks, before.extents, after.extents, first,
	       first + need - 1);
	if (after.extents > 1) {
		fprintf(stderr, PROG ": %s is still in %" PRIu64 " extents\n", path, after.extents);
		goto fail;
	}
done:
	zf2fs_vol_close(vol);
	free(inode);
	return 0;
fail:
	zf2fs_txn_free(txn);
	zf2fs_vol_close(vol);
	free(inode);
	return 1;
}

int main(int argc, char **argv)
{
	enum { OPT_FILE = 256 };
	static const struct option opts[] = {
		{ "start", required_argument, NULL, 's' },
		{ "length", required_argument, NULL, 'l' },
		{ "target", required_argument, NULL, 't' },
		{ "left", no_argument, NULL, 'i' },
		{ "debug", required_argument, NULL, 'd' },
		{ "file", required_argument, NULL, OPT_FILE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { 0 };
	struct zf2fs_log log = { .level = 0, .fn = zf2fs_cli_log, .arg = (void *)PROG };
	const char *file = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "s:l:t:id:hV", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o.start = zf2fs_parse_u64(PROG, optarg, "start", 0, UINT32_MAX);
			o.have_start = true;
			break;
		case 'l':
			o.len = zf2fs_parse_u64(PROG, optarg, "length", 1, UINT32_MAX);
			o.have_len = true;
			break;
		case 't':
			o.target = zf2fs_parse_u64(PROG, optarg, "target", 0, UINT32_MAX);
			o.have_target = true;
			break;
		case 'i':
			o.left = true;
			break;
		case 'd':
			o.level = (int)zf2fs_parse_u64(PROG, optarg, "debug level", 0, 3);
			break;
		case OPT_FILE:
			file = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			return zf2fs_print_version(stdout, PROG) ? 1 : 0;
		default:
			zf2fs_usage_error(PROG, "unknown option or missing argument: %s",
					  argv[optind - 1]);
		}
	}
	if (optind >= argc)
		zf2fs_usage_error(PROG, "no device given");
	if (argc - optind > 1)
		zf2fs_usage_error(PROG, "too many arguments");
	o.dev = argv[optind];
	log.level = o.level;
	if (file) {
		if (o.have_start || o.have_len || o.have_target || o.left)
			zf2fs_usage_error(PROG, "--file takes none of -s, -l, -t, -i");
		return run_file(&o, &log, file);
	}
	return run(&o, &log);
}
