/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsck.h - the fsck context shared by the passes, and the problem interface.
 *
 * All options and all state live in struct fsck_ctx, passed to every pass: no globals.
 * Passes never look at the options; they describe what they found through fix_problem(),
 * which alone decides (from -n/-y/-p or the user's answer) whether to repair.
 */
#ifndef ZF2FS_FSCK_H
#define ZF2FS_FSCK_H

#include <stdbool.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/geometry.h"
#include "zf2fs/file.h"
#include "zf2fs/quota.h"
#include "zf2fs/sit_table.h"
#include "zf2fs-internal/chunkmap.h"
#include "zf2fs-internal/volume.h"
#include "zf2fs-internal/quota.h"
#include "progress.h"

/* fsck(8) exit bits */
#define FSCK_OK          0
#define FSCK_NONDESTRUCT 1
#define FSCK_REBOOT      2
#define FSCK_UNCORRECTED 4
#define FSCK_ERROR       8
#define FSCK_USAGE       16
#define FSCK_CANCELED    32
#define FSCK_LIBRARY     128

enum fsck_mode { MODE_NO, MODE_YES, MODE_PREEN, MODE_ASK };

/* Per-nid knowledge gathered by the passes. */
#define NID_REACHED   0x01   /* reached from the root or the orphan list */
#define NID_INODE     0x02   /* an inode */
#define NID_DIR       0x04
#define NID_ORPHAN    0x08
#define NID_BAD       0x10   /* unusable: its references get removed */
#define NID_CLEAR     0x20   /* its NAT entry is to be cleared */
#define NID_CHECKED   0x40   /* its inode was checked (reachable or not) */

/* A data slot whose pointer pass 4 cleared: node @owner of inode @ino, slot @ofs. */
struct lost_slot {
	uint32_t ino, owner, ofs;
};

#define SEG_HAS_DATA 0x01
#define SEG_HAS_NODE 0x02

/* A NAT entry whose inode number is not the implied one (natmap.c). */
struct nat_x {
	uint32_t nid, ino;
};

/* Context for one problem report: the fields a message may name. */
struct problem_ctx {
	uint32_t ino, nid, parent;
	uint64_t blkaddr;
	uint32_t segno;
	uint64_t num, num2;
	const char *str;
};

struct fsck_repair;

/* Directories waiting for pass 5, breadth first. */
struct dir_queue {
	uint32_t *items;
	/* the directory's inode block as pass 4 read it, for pass 5 (NULL: read again) */
	void **node;
	size_t head, tail, cap;
	size_t held;             /* bytes in node[] */
	void *last;              /* the directory inode reach_inode read last, and its nid */
	uint32_t last_ino;
};

/* Free the queue's arrays and the blocks it still holds; it is empty after. */
static inline void dir_queue_free(struct dir_queue *q)
{
	for (size_t i = q->head; i < q->tail; i++)
		free(q->node[i]);
	free(q->items);
	free(q->node);
	free(q->last);
	memset(q, 0, sizeof(*q));
}

struct fsck_ctx {
	/* options (read only by fix_problem, main and tune.c; set by options.c) */
	enum fsck_mode mode;
	bool force, show_tree, json, yes_to_all;
	bool skip_clean;                 /* a volume that asks for no check is not checked */
	bool layout;                     /* -l: print the superblock and checkpoint only */
	bool file_map;                   /* -M: print where the files' blocks lie only */
	bool sparse;                     /* -S: the volume is an Android sparse image */
	bool rebuild;                    /* --rebuild: the tables from a node scan first */
	bool rebuilt_blind;              /* ... and no checkpoint told live nodes from dead */
	bool no_writes;                  /* -n, --dry-run: nothing is written, tuning included */
	int linear_lookup;               /* --nolinear-lookup: -1 keep, 0 allow the linear
					  * fallback, 1 hashed lookups only */
	bool linear_lookup_refuse;       /* refuse linear_lookup >= 0 on a volume without
					  * casefold: asked by --nolinear-lookup or -C, in
					  * no boot-time check (-a, -p, -g android, --preen) */
	uint32_t tune_features;          /* -O, -C: features to switch on (encrypt, casefold) */
	uint16_t tune_encoding, tune_encoding_flags;   /* -C: for the casefold feature */
	bool progress_bar;               /* --progress: a bar on a terminal */
	int progress_fd;                 /* --progress-fd: lines for a front-end; -1 none */
	struct zs_progress prog;         /* how far the run got (main.c starts each pass,
					  * pass 4 counts its inodes) */
	int debug;
	FILE *out;

	/* the volume */
	struct zf2fs_vol *vol;
	const struct zf2fs_vol_info *vi;
	const struct zf2fs_super *sb;
	const struct zf2fs_checkpoint *cp;
	const struct zf2fs_geom *g;      /* every number the block size decides */

	/* maps built by the passes */
	struct zf2fs_sit_table *sit;     /* pass 3: SIT as recorded (sit_get, sit_mut) */
	uint32_t *nat_addr;              /* pass 3: NAT block addresses as recorded, by nid */
	uint8_t *nat_ver;                /* pass 3: their versions (copied by the kernel into
					  * its data blocks' summaries) */
	struct nat_x *natx;              /* pass 3: their inode numbers, where not implied */
	size_t nnatx, cap_natx;          /* (natmap.c: nat_ino, nat_put) */
	uint8_t *nid_flags;              /* NID_* per nid */
	uint8_t *links;                  /* pass 4: names of each inode (see links_get) */
	struct dir_map *links_x, *disk_links_x;   /* link counts that do not fit a byte / are not 1 */
	struct dir_map *dirs_map;        /* pass 4: parent and subdirectories of directories */
	struct zf2fs_bmap *blk_found;    /* pass 4: bit per main block owned by a node */
	uint16_t *seg_found;             /* pass 4: owned blocks per segment */
	/* a bit per 2^SEG_PAGE_SHIFT segments: set once seg_found or seg_kind holds anything
	 * there, so that a loop over every segment of a big, empty volume does not touch
	 * (and map) the two arrays' pages (seg_found_get, seg_kind_get) */
	uint8_t *seg_pages;
	uint8_t *seg_kind;               /* pass 4: SEG_HAS_* per segment (NULL: nothing owned) */
	/* pass 4: per device, the alias file that holds its blocks, claimed before the walk
	 * (0: none) */
	uint32_t alias_ino[ZF2FS_MAX_DEVICES];
	struct hot_blk *hot_blks;        /* pass 4: hot data blocks by summary slot */
	size_t nhot;
	bool hot_built;
	uint32_t nids;                   /* pass 3: one past the last nid the NAT uses */
	uint32_t nat_cap;
	struct ssa_cache *ssa;           /* pass 4: recently read summary blocks */
	uint16_t ref_extra_isize;        /* pass 4: the root's extra attribute size */
	uint32_t inode_scans;            /* pass 4: searches of the summaries for inode blocks */
	uint32_t node_scans;             /* pass 3: searches of the summaries for node blocks */
	uint32_t ver_nid;                /* pass 4: last node reported for summary versions */
	bool ver_fix;                    /* and the answer, which its other blocks follow */
	uint32_t *orphans;               /* pass 2: the orphan list's usable entries */
	uint32_t norphans;
	bool orphans_rewrite;            /* pass 2, 4: entries were left out: the next
					  * checkpoint's list is these ... */
	bool orphans_keep;               /* ... unless a bad one was kept (the list stays) */

	/* totals found */
	uint64_t found_blocks, found_nodes, found_inodes;
	uint64_t found_reserved;         /* NEW_ADDR and COMPRESS_ADDR slots: counted by
					  * the checkpoint, not the SIT */
	uint64_t files, dirs;

	bool needs_recovery;             /* pass 2: fsync'd data awaits the kernel */
	uint32_t *rf_chain, rf_len;      /* pass 2: its node chain (rollforward.c) */
	uint32_t *rf_nids, rf_nnids;     /* pass 2: the nids and inodes that chain names */
#define ZF2FS_RF_DENT_MAX 64
	uint32_t rf_dent[ZF2FS_RF_DENT_MAX];   /* pass 2: inodes recovered with their name */
	uint32_t rf_ndent;
	bool sit_dirty, sit_type_fix;
	uint8_t *ftypes;                 /* pass 4: file type (ZF2FS_FT_*) of each inode */
	uint32_t lpf_ino;                /* lost+found, when found */
	struct dir_queue dirq;
	struct prefetch *pf;             /* pass 4: the thread reading ahead of it */
	/* pass 4: files whose first name's directory is not their i_pino; pass 6 fixes
	 * those that turn out to have that one name only */
	struct pino_fix { uint32_t ino, dir, pino; } *pino_fix;
	size_t npino_fix, cap_pino_fix;
	struct lost_slot *lost;          /* pass 4: cleared slots, to restore at its end */
	size_t nlost, cap_lost;
	int32_t curseg_fix[ZF2FS_NR_CURSEG];  /* pass 7: new write position, -1 = keep */
	/* zoned volumes (pass_zoned.c; loaded by pass 7, which needs the capacities) */
	bool zones_loaded;
	int zones_err;                   /* -ENODEV: no zoned device (an image file) */
	struct zf2fs_sec_zone *zones;    /* per main section, on the devices themselves */
	uint32_t nzones;
	bool zone_cap_known;             /* not zoned, or the devices gave the capacity */
	uint32_t zone_unusable;          /* blocks of each section past its zone's capacity */

	/* quota (pass_quota.c): usage per user, group and project id, charged by pass 4 */
	bool quota_on;
	struct zf2fs_quota_usage quota_use[3];
	/* pass 4: the quota files' inode blocks as it read them, for pass 9 (NULL: read
	 * again); keep_ino: the inode reach_inode is to leave in dirq.last */
	void *quota_node[3];
	uint32_t keep_ino;
	/* pass 4: the xattr node of the inode being checked, as check_xattr_node read it,
	 * for its ACL check (pass_acl.c); NULL: read again */
	void *xattr_node;
	uint32_t xattr_nid;
	bool quota_clear_flag;           /* the files are right now: drop quota_need_fsck */
	uint8_t qf_create;               /* pass 3: quota types (bits) whose inode is gone:
					  * pass 9 builds the file anew in its inode number */
	bool sb_errors_clear;            /* pass 1: clear the kernel's error records once
					  * everything is repaired */
	bool saw_extra_attr;             /* pass 4: some inode has extra attributes */
	bool names_scrambled;            /* pass 1: f2fs_mdrestore's marker: pass 5 checks
					  * no name hash outside encrypted directories */
	bool casefold_noted;             /* pass 5: said once that this build cannot hash
					  * names in casefolded directories */
	uint32_t sb_add_features;        /* pass 4: feature bits the superblocks lost */
	bool sb_uuid_fix;                /* pass 1: both copies get ctx->sb's uuid */
	bool sb_qf_clear;                /* pass 1: stale qf_ino (no quota_ino) cleared */
	bool sb_qf_fix;                  /* pass 1: both copies get ctx->sb's qf_ino */
	bool sb_segcount_fix;            /* pass 1: segment_count past the areas */
	struct zf2fs_super *sb_own;      /* pass 1: ctx->sb when its uuid or qf_ino changed */

	/* results */
	unsigned long problems, fixed, unfixed;
	int exit_bits;
	bool abort;                      /* preen hit a problem it may not fix */
	struct fsck_repair *repair;      /* pending repair transaction */
	FILE *json_problems;             /* problems as JSON objects, when --json */
	bool json_first;
};

/* ---- the volume's geometry ------------------------------------------------------------
 * Every number the block size decides comes from ctx->g (zf2fs_vol_geom).  A node block's
 * footer and an inode's i_nid[] sit at the end of the block: on a 16 KiB volume past
 * format.h's 4 KiB view, so they are reached only through these.  Buffers that hold a
 * block are ZF2FS_BLKSIZE_MAX bytes; what is read, copied or written is g->blocksize.
 * The library's inode and directory rules are its geometry-taking ones (the "2" names). */
static inline struct zf2fs_node_footer *nfoot(const struct fsck_ctx *ctx, const void *n)
{
	return zf2fs_node_footer(ctx->g, n);
}

static inline zf2fs_le32 *inode_nids(const struct fsck_ctx *ctx, const void *n)
{
	return zf2fs_inode_nids(ctx->g, n);
}

/* A node's offset in its inode's tree (0 for an inode), and setting it, marks kept. */
static inline uint32_t node_ofs(const struct fsck_ctx *ctx, const void *n)
{
	return zf2fs_node_ofs(ctx->g, n);
}

static inline void node_set_ofs(const struct fsck_ctx *ctx, void *n, uint32_t ofs)
{
	struct zf2fs_node_footer *f = nfoot(ctx, n);
	uint32_t marks = (uint32_t)zf2fs_get(f->flag) & ((1u << ZF2FS_FOOTER_OFS_SHIFT) - 1);

	zf2fs_set(f->flag, (ofs << ZF2FS_FOOTER_OFS_SHIFT) | marks);
}

/* The footer of a summary as zf2fs_vol_segment_summary() returns it (g->sum_blocksize
 * bytes, in a buffer of ZF2FS_BLKSIZE_MAX). */
static inline struct zf2fs_summary_footer *sum_footer(const struct fsck_ctx *ctx, const void *sum)
{
	return zf2fs_sum_footer(ctx->g, sum);
}

static inline int inode_geom(const struct fsck_ctx *ctx, const struct zf2fs_inode *in,
			     struct zf2fs_inode_geom *ret)
{
	return zf2fs_inode_geometry2(ctx->g, in, ctx->vi->features, ret);
}

static inline uint32_t inode_csum(const struct fsck_ctx *ctx, uint32_t seed, const void *node)
{
	return zf2fs_inode_checksum2(ctx->g, seed, node);
}

static inline void dview_block(const struct fsck_ctx *ctx, const void *blk,
			       struct zf2fs_dentry_view *v)
{
	zf2fs_dentry_view_block2(ctx->g, blk, v);
}

static inline int dview_inline(const struct fsck_ctx *ctx, const struct zf2fs_node *inode,
			       struct zf2fs_dentry_view *v)
{
	return zf2fs_dentry_view_inline2(ctx->g, inode, ctx->vi->features, v);
}

/* ---- a directory's dentry blocks, read once (dir_blocks.c) ------------------------------ */
struct dir_block {
	uint64_t fofs;               /* block index in the directory */
	uint32_t blkaddr, owner, ofs;   /* address, the node holding it and its slot there */
	int err;                     /* cached: 0 read, negative errno, 1 not read */
};
struct dir_blocks {
	struct dir_block *e;         /* in file order, as the block tree gives them */
	size_t n, cap;
	uint8_t *buf;                /* the n blocks; NULL: read at each look into one */
	uint8_t *one;
	uint64_t *ra;                /* scratch: addresses of inodes to read ahead */
	size_t nra, cap_ra, ra_upto, pre_upto;
};
/* Walk directory @inode's block tree once and read its dentry blocks (the kernel asked
 * for them in address order first).  0, or the walk's negative errno. */
int dirblocks_load(struct fsck_ctx *ctx, const struct zf2fs_node *inode, struct dir_blocks *db);
/* Entry @i's block; NULL with *@ret_err 1 (address outside the main area) or a negative
 * errno (unreadable). */
const void *dirblocks_get(struct fsck_ctx *ctx, struct dir_blocks *db, size_t i, int *ret_err);
void dirblocks_free(struct dir_blocks *db);
/* Read the inodes named from block @from on, a window at a time, early and in address
 * order (zf2fs_vol_preload), and ask the kernel for a larger window; with no cache, those
 * named by area @cur (the inline area, or block @from as just read). */
void dirblocks_children_willneed(struct fsck_ctx *ctx, struct dir_blocks *db,
				 const struct zf2fs_dentry_view *cur, size_t from);

/* ---- the command line (options.c), the superblock tuning it asks for (tune.c), -l ----- */
/* Parse f2fs-tools' fsck options and ours into @ctx; returns the device.  Usage errors
 * exit 16. */
const char *fsck_parse_args(struct fsck_ctx *ctx, int argc, char **argv);
/* Whether the options ask to change the superblock (features, linear lookup). */
bool fsck_tune_wanted(const struct fsck_ctx *ctx);
/* Apply -O, -C and --nolinear-lookup to the superblock (both copies, through the
 * library's crash-safe write), before the check, as f2fs-tools does.  0, or the fsck(8)
 * exit bits of the failure (message printed). */
int fsck_tune_super(struct fsck_ctx *ctx);
/* -M: every regular file's block addresses in f2fs-tools' format, on @out (file_map.c).
 * Reads only.  Returns the exit bits: 4 when part of the tree could not be read (left out
 * of the map), 8 for a read or write error (message printed). */
int fsck_file_map(struct fsck_ctx *ctx, FILE *out);

/* rebuild.c: --rebuild, before the check: the NAT, SIT, summaries and a checkpoint
 * written from the node blocks found on @path (nothing with no_writes), and a report.
 * 0 to go on to the check, else the exit bits. */
int fsck_rebuild(struct fsck_ctx *ctx, const char *path, const char *shown,
		 const struct zf2fs_log *log);

/* ---- problems (problem.c) ------------------------------------------------------------ */
#define PR_PREEN_OK   0x01   /* -p may fix it without asking */
#define PR_NO_OK      0x02   /* harmless to leave: does not make the exit code 4 */
#define PR_FATAL      0x04   /* checking cannot go on */
#define PR_NOT_A_FIX  0x08   /* information only: no question asked */

enum prompt { PROMPT_NONE, PROMPT_FIX, PROMPT_CLEAR, PROMPT_RECONNECT, PROMPT_REBUILD,
	      PROMPT_REMOVE, PROMPT_RECONNECT_HOME, PROMPT_CREATE };

struct problem_def {
	uint32_t code;
	const char *msg;          /* %i ino, %n nid, %p parent, %b block, %s segno,
				   * %N num, %M num2, %S str */
	enum prompt prompt;
	unsigned flags;
};

/* Report a problem; returns true when it must be repaired now. */
bool fix_problem(struct fsck_ctx *ctx, uint32_t code, const struct problem_ctx *pctx);
const struct problem_def *problem_table(size_t *count);
const struct problem_def *problem_find(uint32_t code);

/* Problem codes: 0xPPNNNN, PP = pass. */
/* pass 1: superblocks */
#define PR_1_SB_PRIMARY_BAD       0x010001
#define PR_1_SB_BACKUP_BAD        0x010002
#define PR_1_SB_ERRORS_RECORDED   0x010003
#define PR_1_SB_UUID_BAD          0x010004
#define PR_1_SB_QF_INO_STALE      0x010005
#define PR_1_SB_SEGMENT_COUNT     0x010006
#define PR_1_SB_QF_INO_BAD        0x010007
/* pass 2: checkpoint */
#define PR_2_CP_PACK_BAD          0x020001
#define PR_2_CP_ORPHAN_BLOCK_BAD  0x020002
#define PR_2_CP_NEEDS_RECOVERY    0x020003
#define PR_2_CP_ERROR_FLAG        0x020004
#define PR_2_CP_NEWEST_BAD        0x020005
#define PR_2_CP_NEWEST_SUMS       0x020006
#define PR_2_CP_ORPHAN_INO_BAD    0x020007
#define PR_2_CP_ORPHAN_LINKED     0x020008
/* pass 3: SIT and NAT */
#define PR_3_SIT_COUNT_BAD        0x030001
#define PR_3_SIT_TYPE_BAD         0x030002
#define PR_3_NAT_ADDR_BAD         0x030003
#define PR_3_NAT_INO_BAD          0x030004
#define PR_3_JOURNAL_SEG_BAD      0x030005
#define PR_3_NAT_ADDR_FOUND       0x030006
#define PR_3_QF_NAT_BAD           0x030007
/* pass 4: inodes and nodes */
#define PR_4_ROOT_BAD             0x040001
#define PR_4_NODE_UNREADABLE      0x040002
#define PR_4_BLOCK_OUTSIDE_MAIN   0x040004
#define PR_4_BLOCK_DUP            0x040005
#define PR_4_INODE_MODE_BAD       0x040006
#define PR_4_INODE_BLOCKS_BAD     0x040007
#define PR_4_INODE_CHECKSUM_BAD   0x040008
#define PR_4_INODE_EXTRA_BAD      0x040009
#define PR_4_INODE_INLINE_SIZE_BAD 0x04000A
#define PR_4_XATTR_NODE_BAD       0x04000B
#define PR_4_SSA_MISMATCH         0x04000F
#define PR_4_INODE_MODE_TYPE      0x040010
#define PR_4_INLINE_FLAG_BOGUS    0x040011
#define PR_4_INLINE_FLAG_MISSING  0x040012
#define PR_4_INLINE_RESERVED_BAD  0x040013
#define PR_4_BLOCK_RESTORED       0x040014
#define PR_4_EXTENT_BAD           0x040015
#define PR_4_INODE_NAME_BAD       0x040016
#define PR_4_FILE_PINO_BAD        0x040017
#define PR_4_INODE_FOOTER_BAD     0x040018
#define PR_4_NODE_RESTORED        0x040019
#define PR_4_INLINE_DENTRY_FLAG_BAD 0x04001A
#define PR_4_SB_FEATURE_MISSING   0x04001B
#define PR_4_ROOT_NAT_LOST        0x04001C
#define PR_4_SSA_VERSION_BAD      0x04001D
#define PR_4_NAT_ADDR_WRONG       0x04001E
#define PR_4_NODE_FOOTER_BAD      0x04001F
#define PR_4_XATTR_LIST_BAD       0x040020
#define PR_4_INODE_NAMELEN_BAD    0x040021
#define PR_4_INODE_EXTRA_RESET    0x040022
#define PR_4_NAT_INO_WRONG        0x040023
#define PR_4_INODE_FLAGS_BAD      0x040024
#define PR_4_GC_FAILURES_SET      0x040025
#define PR_4_ROOT_EXTRA_RESET     0x040026
#define PR_4_INLINE_DENTRY_NOT_DIR 0x040027
#define PR_4_INLINE_DATA_EXIST    0x040028
#define PR_4_EXTRA_ATTR_FLAG_LOST 0x040029
#define PR_4_BLOCK_FREE_STRAY     0x04002A
#define PR_4_EXTRA_OWN            0x04002B
#define PR_4_INODE_XATTR_RESET    0x04002C
#define PR_4_COMPR_BLOCKS_BAD     0x04002D
#define PR_4_COMPR_FLAG_LOST      0x04002E
#define PR_4_COMPR_CLUSTER_BAD    0x04002F
#define PR_4_COMPR_RELEASED_LOST  0x040030
#define PR_4_ENC_CONTEXT_BAD      0x040031
#define PR_4_VERITY_BAD           0x040032
#define PR_4_ENC_MARK_STRAY       0x040033
#define PR_4_VERITY_MARK_STRAY    0x040034
#define PR_4_ENC_MARK_LOST        0x040035
#define PR_4_INLINE_XATTR_FLAG_LOST 0x040036
#define PR_4_VERITY_SIZE_BAD      0x040037
#define PR_4_INLINE_XATTR_SIZE_MOVED 0x040038
#define PR_4_COMPR_ALGO_BAD       0x040039
#define PR_4_COMPR_LEVEL_BAD      0x04003A
#define PR_4_COMPR_INHERIT_BAD    0x04003B
#define PR_4_DEVICE_ALIAS_STRAY   0x04003C
#define PR_4_DEVICE_ALIAS_UNPINNED 0x04003D
#define PR_4_ACL_BAD              0x04003E
#define PR_4_INLINE_POST_READ     0x04003F
#define PR_4_PINO_BAD             0x040040
#define PR_4_ALIAS_DEV0           0x040041
#define PR_4_ALIAS_ZONED          0x040042
#define PR_4_ALIAS_MISALIGNED     0x040043
#define PR_4_ALIAS_NO_DEVICE      0x040044
#define PR_4_ALIAS_BLOCK_DUP      0x040045
#define PR_4_ROOT_CREATE          0x040046
/* pass 5: directories */
#define PR_5_DENTRY_BAD_INO       0x050001
#define PR_5_DENTRY_NAME_BAD      0x050002
#define PR_5_DENTRY_HASH_BAD      0x050003
#define PR_5_DENTRY_TYPE_BAD      0x050004
#define PR_5_DENTRY_BUCKET_BAD    0x050005
#define PR_5_DIR_DOT_MISSING      0x050006
#define PR_5_DIR_MULTI_PARENT     0x050007
#define PR_5_DIR_DEPTH_BAD        0x050009
#define PR_5_INODE_PINO_BAD       0x05000A
#define PR_5_DIR_DOT_WRONG        0x05000B
#define PR_5_DENTRY_BUCKET_FULL   0x05000C
#define PR_5_DIR_LEVEL_BAD        0x05000D
#define PR_5_DIR_DOTDOT_NAME_BAD  0x05000E
#define PR_5_DIR_CASEFOLD_STRAY   0x05000F
#define PR_5_DIR_CASEFOLD_LOST    0x050010
/* pass 6: connectivity and links */
#define PR_6_LINK_COUNT_BAD       0x060001
#define PR_6_UNREACHABLE_INODE    0x060002
#define PR_6_UNREACHABLE_NODE     0x060003
#define PR_6_NO_LOST_FOUND        0x060004
#define PR_6_RECONNECT_HOME       0x060005
#define PR_6_CREATE_LOST_FOUND    0x060006
/* pass 7: accounting */
#define PR_7_SIT_VALID_BAD        0x070001
#define PR_7_SIT_BITMAP_BAD       0x070002
#define PR_7_CP_VALID_BLOCKS_BAD  0x070003
#define PR_7_CP_VALID_NODES_BAD   0x070004
#define PR_7_CP_VALID_INODES_BAD  0x070005
#define PR_7_CP_FREE_SEGS_BAD     0x070006
#define PR_7_CURSEG_NEXT_USED     0x070007
#define PR_7_NEXT_FREE_NID_BAD    0x070008
#define PR_7_SIT_TYPE_WRONG       0x070009
#define PR_7_SUM_TYPE_WRONG       0x07000A
#define PR_7_CURSEG_SSR_USED      0x07000B
#define PR_7_CURSEG_WRONG_KIND    0x07000C
/* pass 8: zones (need the zoned devices themselves) */
#define PR_8_CURSEG_WP_MISMATCH   0x080001
#define PR_8_VALID_BEYOND_WP      0x080002
#define PR_8_ZONE_NOT_RESET       0x080003
#define PR_8_ZONE_NOT_FULL        0x080004
/* pass 9: quota files */
#define PR_9_QUOTA_INODE_BAD      0x090001
#define PR_9_QUOTA_FILE_BAD       0x090002
#define PR_9_QUOTA_USAGE_BAD      0x090003
#define PR_9_QUOTA_NEED_FSCK      0x090004

/* ---- passes ----------------------------------------------------------------------------- */
int pass1_super(struct fsck_ctx *ctx);
int pass2_checkpoint(struct fsck_ctx *ctx);
/* After a commit: add the feature bits pass 4 found missing to both superblocks, and
 * clear their error records when sb_errors_clear (only when nothing was left unfixed). */
int super_update(struct fsck_ctx *ctx, bool clear_errors);
int pass3_tables(struct fsck_ctx *ctx);
int pass4_tree(struct fsck_ctx *ctx);
/* Free pass 4's cache of summary blocks. */
void ssa_cache_free(struct fsck_ctx *ctx);
/* ---- reading ahead of pass 4 on a second thread (prefetch.c) --------------------------- */
/* Start reading the tree from directory @root ahead of pass 4 (nothing when
 * ZF2FS_NO_PREFETCH is set or the thread cannot start: pass 4 reads alone). */
void prefetch_start(struct fsck_ctx *ctx, uint32_t root);
/* Pass 4 read another inode: the thread keeps its lead from this count. */
void prefetch_note_inode(struct fsck_ctx *ctx);
/* Stop the thread and free what it holds. */
void prefetch_stop(struct fsck_ctx *ctx);
int pass6_connectivity(struct fsck_ctx *ctx);
/* pass_links.c: a new, empty root directory when the root inode is gone (pass 4 asks);
 * 0, 1 when declined, or a negative errno */
int fsck_create_root(struct fsck_ctx *ctx);
int pass7_accounting(struct fsck_ctx *ctx);
int pass8_zoned(struct fsck_ctx *ctx);
int pass9_quota(struct fsck_ctx *ctx);
/* rollforward.c: record the roll-forward chain of an unclean checkpoint (ctx->rf_chain) */
int rollforward_scan(struct fsck_ctx *ctx);
/* Whether the roll-forward chain names @nid (as a node or its inode): a repair must not
 * give that number to anything new, or the kernel's replay would write over it. */
bool rollforward_names_nid(const struct fsck_ctx *ctx, uint32_t nid);
/* Charge a checked inode to its quota ids (pass 4); -ENOMEM. */
int quota_charge(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_inode *in,
		 uint64_t i_blocks);
/* Charge more to an inode's ids: @inodes inodes and @bytes bytes (a restored block). */
int quota_charge_more(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_inode *in,
		      uint64_t inodes, uint64_t bytes);
/* pass_tree.c: the inode block of @ino when its NAT entry is null or points elsewhere: a
 * block of a node segment, valid in the SIT and owned by nothing found so far, whose
 * summary entry and footer both name @ino as an inode, and which holds a known file type
 * (a directory when @dir).  Returns the block or 0. */
uint64_t find_inode_block(struct fsck_ctx *ctx, uint32_t ino, bool dir);
/* Read the zones once (zoned volumes); sets zones_err, zone_cap_known, zone_unusable. */
void zoned_prepare(struct fsck_ctx *ctx);
/* Whether the free segment count can be computed: not on a zoned volume whose zone
 * capacities are unknown (an image file copied from the devices). */
static inline bool free_count_known(const struct fsck_ctx *ctx)
{
	return !(ctx->vi->features & ZF2FS_FEAT_BLKZONED) || ctx->zone_cap_known;
}

/* A directory entry that leads to an inode: what it says about it. */
struct dentry_ref {
	uint32_t dir;
	uint8_t type;               /* ZF2FS_FT_* as the entry records it */
	const uint8_t *name;
	uint32_t len;
	bool name_hashed;           /* encrypted and casefolded: i_name carries the hash too */
	bool dir_encrypted;         /* the entry's directory is encrypted */
	uint32_t hash;
};

/* pass5 is driven from pass4's walk: one directory at a time */
struct dir_scan;
int pass5_check_dir(struct fsck_ctx *ctx, uint32_t ino, struct zf2fs_node *inode,
		    uint32_t (*visit_child)(struct fsck_ctx *, uint32_t child,
					    const struct dentry_ref *ref));
/* dirmap.c: per-directory facts */
struct dir_info {
	uint32_t ino, parent, subdirs;
};
struct dir_info *dir_info(struct fsck_ctx *ctx, uint32_t ino);   /* created when missing */
uint32_t dir_parent(const struct fsck_ctx *ctx, uint32_t ino);
uint32_t dir_subdirs(const struct fsck_ctx *ctx, uint32_t ino);
void dir_map_free(struct fsck_ctx *ctx);
int links_inc(struct fsck_ctx *ctx, uint32_t ino);          /* one more name found */
uint32_t links_get(struct fsck_ctx *ctx, uint32_t ino);
int disk_links_set(struct fsck_ctx *ctx, uint32_t ino, uint32_t links);   /* i_links */
uint32_t disk_links_get(struct fsck_ctx *ctx, uint32_t ino);
void links_free(struct fsck_ctx *ctx);

/* main.c: the per-nid maps, sized once pass 3 knows how many nids are in use */
int fsck_alloc_nid_maps(struct fsck_ctx *ctx);
/* Make the per-nid maps cover nids below @n (zeroed); -ENOSPC past the last nid. */
int fsck_grow_nids(struct fsck_ctx *ctx, uint32_t n);
/* pass 4 helpers pass 5 and 6 use */
int check_inode(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *node,
		const struct dentry_ref *ref, uint8_t hint);
uint32_t visit_child(struct fsck_ctx *ctx, uint32_t child, const struct dentry_ref *ref);

/* pass_fields.c: inode fields checked by check_inode; 0 or a negative errno (the caller
 * frees *@copyp).  inode_xattr_size_ok: the inline xattr size the kernel accepts;
 * peer_extra_isize: the extra size most inodes after the root share (0: none found). */
int check_extra_attr_flag(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node **nodep,
			  struct zf2fs_node **copyp);
int check_inode_fields(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node **nodep,
		       struct zf2fs_node **copyp);
bool inode_xattr_size_ok(const struct fsck_ctx *ctx, const struct zf2fs_inode *in);
uint16_t peer_extra_isize(struct fsck_ctx *ctx);
/* A fix of inode @ino found on *@node: returns the inode queued for rewriting and makes
 * *@copy (allocated the first time) the copy of *@node the check reads on, *@node
 * pointing at it; the caller changes both.  NULL when out of memory. */
struct zf2fs_node *inode_fix_copy(struct fsck_ctx *ctx, uint32_t ino,
				  const struct zf2fs_node **node, struct zf2fs_node **copy);

/* pass_acl.c: remove the ACL xattrs Linux cannot parse from the list of inode @ino, read
 * from @inode (its xattr node left out when found unusable); 0 or a negative errno. */
int check_acls(struct fsck_ctx *ctx, uint32_t ino, const struct zf2fs_node *inode);

/* pass_dentry_restore.c: 1 with *@ret_blk set when a valid hot data block nobody owns
 * yet has a summary naming slot @ofs of node @nid; 0 when none; negative errno. */
int dentry_block_lost(struct fsck_ctx *ctx, uint32_t nid, uint32_t ofs, uint64_t *ret_blk);
void dentry_restore_free(struct fsck_ctx *ctx);

/* The NAT entry of @nid (below ctx->nids): its inode number; set ino and address. */
uint32_t nat_ino(const struct fsck_ctx *ctx, uint32_t nid);
int nat_put(struct fsck_ctx *ctx, uint32_t nid, uint32_t ino, uint32_t addr);

static inline bool blk_in_main(const struct fsck_ctx *ctx, uint64_t blk)
{
	return blk >= ctx->vi->main_blkaddr && blk < ctx->vi->main_end;
}

static inline uint32_t blk_segno(const struct fsck_ctx *ctx, uint64_t blk)
{
	return zf2fs_main_segno(ctx->vi->main_blkaddr, blk);
}

/* The maps by segment and by block follow what the volume uses, not its size: the SIT table
 * (include/zf2fs/sit_table.h) and chunk maps (include/zf2fs-internal/chunkmap.h). */
static inline const struct zf2fs_sit_entry *sit_get(const struct fsck_ctx *ctx, uint32_t s)
{
	return zf2fs_sit_table_get(ctx->sit, s);
}

/* NULL when out of memory (or @s out of range) */
static inline struct zf2fs_sit_entry *sit_mut(struct fsck_ctx *ctx, uint32_t s)
{
	return zf2fs_sit_table_mut(ctx->sit, s);
}

/* @off: block offset from the start of the main area */
static inline bool found_test(const struct fsck_ctx *ctx, uint64_t off)
{
	return zf2fs_bmap_test(ctx->blk_found, off);
}

#define SEG_PAGE_SHIFT 11   /* 2048 segments: a 4 KiB page of seg_found */

static inline bool seg_page_used(const struct fsck_ctx *ctx, uint32_t s)
{
	uint32_t pg = s >> SEG_PAGE_SHIFT;

	return ctx->seg_pages[pg / 8] & (1u << (pg % 8));
}

/* Owned blocks pass 4 counted in segment @s, and the kinds it saw there (SEG_HAS_*). */
static inline uint32_t seg_found_get(const struct fsck_ctx *ctx, uint32_t s)
{
	return ctx->seg_found && seg_page_used(ctx, s) ? ctx->seg_found[s] : 0;
}

static inline uint8_t seg_kind_get(const struct fsck_ctx *ctx, uint32_t s)
{
	return ctx->seg_kind && seg_page_used(ctx, s) ? ctx->seg_kind[s] : 0;
}

/* Mark block @off owned and count it in its segment.  Out of memory for a 4 KiB chunk
 * of the map ends the run as an operational error: repairs are only written at the end,
 * so nothing has been written yet. */
static inline void found_set(struct fsck_ctx *ctx, uint64_t off)
{
	uint32_t s = zf2fs_main_segno(0, off), pg = s >> SEG_PAGE_SHIFT;

	if (zf2fs_bmap_set(ctx->blk_found, off)) {
		fprintf(stderr, "fsck.f2fs: %s: while marking the blocks in use\n", strerror(ENOMEM));
		exit(FSCK_ERROR);
	}
	ctx->seg_pages[pg / 8] |= (uint8_t)(1u << (pg % 8));
	ctx->seg_found[s]++;
}

static inline void found_clear(struct fsck_ctx *ctx, uint64_t off)
{
	zf2fs_bmap_clear(ctx->blk_found, off);
	ctx->seg_found[zf2fs_main_segno(0, off)]--;
}

static inline bool sit_bit(const struct zf2fs_sit_entry *se, uint32_t off)
{
	return zf2fs_sit_block_valid(se, off);
}

/* ---- repair (repair.c) ------------------------------------------------------------------ */
/* Everything below queues changes; repair_commit() hands them to the library's crash-safe
 * commit (zf2fs_vol_commit): new node and data blocks out of place, SIT/NAT blocks to
 * their inactive copies, then a new checkpoint in the inactive pack, written last. */
int repair_begin(struct fsck_ctx *ctx);
/* The node block of @nid, as it will be written (read from disk the first time). */
struct zf2fs_node *repair_node(struct fsck_ctx *ctx, uint32_t nid);
/* The node block of @nid as it will be written, when a repair queued it; NULL otherwise. */
const struct zf2fs_node *repair_node_pending(const struct fsck_ctx *ctx, uint32_t nid);
/* Like repair_node, from @blk: node @nid's block as read at its NAT address, whose footer
 * the caller is repairing (repair_node refuses a block whose footer is wrong). */
struct zf2fs_node *repair_node_from(struct fsck_ctx *ctx, uint32_t nid, const void *blk);
/* Drop node @nid (and its NAT entry). */
int repair_free_node(struct fsck_ctx *ctx, uint32_t nid);
/* Drop inode @ino's cached extent (i_ext): due whenever one of its block pointers changes;
 * the kernel rebuilds it from the block map. */
int repair_drop_extent(struct fsck_ctx *ctx, uint32_t ino);
/* Set SIT state of a main-area block. */
int repair_set_block(struct fsck_ctx *ctx, uint64_t blkaddr, bool valid);
/* Rewrite a main-area data block (a dentry block): @owner_nid's slot points at the copy. */
int repair_data_block(struct fsck_ctx *ctx, uint32_t owner_nid, uint32_t ofs_in_node,
		      uint64_t old_blkaddr, void **ret_buf);
/* A zeroed block to fill the hole at slot @ofs_in_node of node @owner_nid; the caller
 * updates the inode's i_blocks (and i_size). */
int repair_new_data_block(struct fsck_ctx *ctx, uint32_t owner_nid, uint32_t ofs_in_node,
			  void **ret_buf);
/* Correct the summary entry of a main-area block. */
int repair_set_summary(struct fsck_ctx *ctx, uint64_t blkaddr, uint32_t nid, uint16_t ofs,
		       uint8_t version);
/* Replace a segment's SIT entry by the blocks really owned (from blk_found). */
int repair_sit_from_found(struct fsck_ctx *ctx, uint32_t segno);
/* Write a new checkpoint even if nothing else changed (counters are recomputed). */
void repair_mark_checkpoint(struct fsck_ctx *ctx);
/* Add a name for @ino in directory @dir (lost+found); -ENOSPC without room. */
/* Inline directory @dir (queued in this repair) to a block directory, as the kernel
 * converts one: its entries into a new first dentry block.  -ENOSPC for casefolded or
 * encrypted directories. */
int repair_dir_to_blocks(struct fsck_ctx *ctx, uint32_t dir);
int repair_add_dentry(struct fsck_ctx *ctx, uint32_t dir, const char *name, uint32_t ino,
		      uint8_t type);
int repair_rewrite_primary_super(struct fsck_ctx *ctx);
/* A new, zeroed node @nid of inode @ino (a free nid): written at commit, NAT set then. */
struct zf2fs_node *repair_new_node(struct fsck_ctx *ctx, uint32_t nid, uint32_t ino);
/* Set the NAT entry of @nid (written with the NAT blocks at commit). */
int repair_set_nat(struct fsck_ctx *ctx, uint32_t nid, uint32_t ino, uint32_t blkaddr);
/* Point ".." of directory @dir at @parent. */
int repair_set_dotdot(struct fsck_ctx *ctx, uint32_t dir, uint32_t parent);
/* Set the type (ZF2FS_SUM_TYPE_*) in the footer of a segment's summary block. */
int repair_set_sum_type(struct fsck_ctx *ctx, uint32_t segno, uint8_t type);
/* Set the log type recorded in a segment's SIT entry. */
int repair_set_seg_type(struct fsck_ctx *ctx, uint32_t segno, uint32_t type);
bool repair_pending(const struct fsck_ctx *ctx);
int repair_commit(struct fsck_ctx *ctx);
void repair_free(struct fsck_ctx *ctx);

#endif
