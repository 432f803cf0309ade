/* SPDX-License-Identifier: GPL-2.0-or-later */
/* volume_p.h - the open-volume handle, private to the library's reading modules. */
#ifndef ZF2FS_VOLUME_P_H
#define ZF2FS_VOLUME_P_H

#include "zf2fs/zf2fs.h"
#include "zf2fs/geometry.h"
#include "zf2fs/endian.h"

/* The largest summary's entries and journal (16 KiB blocks without packed_ssa). */
#define ZF2FS_ENTRIES_IN_SUM_MAX (ZF2FS_BLKSIZE_MAX / 8)
#define ZF2FS_SUM_JOURNAL_MAX (ZF2FS_BLKSIZE_MAX - ZF2FS_SUM_FOOTER_SIZE - \
			       ZF2FS_SUMMARY_SIZE * ZF2FS_ENTRIES_IN_SUM_MAX)

struct zf2fs_vol {
	struct zf2fs_dev *dev[ZF2FS_MAX_DEVICES];
	unsigned ndevs;
	bool owns_devs;
	uint64_t dev_start[ZF2FS_MAX_DEVICES], dev_end[ZF2FS_MAX_DEVICES];
	struct zf2fs_log log;
	struct zf2fs_super sb;
	struct zf2fs_geom geom;       /* from the chosen superblock's block size and features */
	int sb_copy;                  /* 0 or 1: which superblock copy is in use */
	bool sb_copy_bad[2];          /* copies that failed verification */
	char sb_why[2][256];
	struct { uint32_t nid, ino, blkaddr; } nat_fix[4];   /* zf2fs_vol_nat_override */
	unsigned n_nat_fix;
	char map_why[256];            /* why the device list did not fit (map_devices) */
	uint8_t *cp;                  /* CP block followed by cp_payload blocks */
	unsigned cp_pack;             /* 0 or 1 */
	bool cp_pack_bad[2];
	bool cp_pack_sealed[2];     /* checksums and header/footer agree: the kernel may pick it */
	bool cp_pack_refused[2];    /* sealed, and the kernel's mount-time check refuses it */
	uint64_t cp_pack_ver[2];
	char cp_why[2][256];
	uint64_t cp_ver;
	const uint8_t *sit_bitmap, *nat_bitmap;
	/* the journals hold g->sum_journal_size bytes: struct zf2fs_journal is their 4 KiB view */
	union {
		struct zf2fs_journal nat_journal;
		uint8_t nat_journal_room[ZF2FS_SUM_JOURNAL_MAX];
	};
	union {
		struct zf2fs_journal sit_journal;
		uint8_t sit_journal_room[ZF2FS_SUM_JOURNAL_MAX];
	};
	struct zf2fs_summary cur_sum[ZF2FS_NR_CURSEG][ZF2FS_ENTRIES_IN_SUM];   /* a segment's */
	struct zf2fs_vol_info info;
	/* NAT blocks read, direct-mapped by address (a slot's block allocated when first
	 * used): lookups come in runs of nearby nids, and a check that walks a tree comes
	 * back to the same few hundred blocks */
#define NAT_CACHE_SLOTS 64
	uint8_t *nat_cache[NAT_CACHE_SLOTS];
	uint64_t nat_cache_addr[NAT_CACHE_SLOTS];
	/* the last SSA block read, with packed_ssa (several segments' summaries) */
	uint8_t *ssa_cache;
	uint64_t ssa_cache_addr;
	/* blocks read early for the reads that follow (preload.c): sorted addresses, their
	 * blocks, and whether each was read */
	uint64_t *pre_addr;
	uint8_t *pre_buf, *pre_ok;
	size_t pre_n;
	/* opened with ZF2FS_VOL_NO_CHECKPOINT and no pack was usable: vol->cp is zeroes */
	bool no_cp;
	/* lib/write/rebuild.c: the NAT as the node scan found it, asked before the disk's */
	int (*nat_hook)(void *arg, uint32_t nid, struct zf2fs_nat_info *ret);
	void *nat_hook_arg;
	/* nat_bits (nat_bits.c): 0 not loaded yet, 1 loaded, -1 absent or stale */
	int nat_bits_state;
	uint8_t *nat_bits;
};

/* The volume's clock for what a tool writes: the current checkpoint's elapsed_time (the
 * seconds the volume has been mounted), where the kernel adds the time since its mount.
 * A tool runs at the moment the last checkpoint closed. */
static inline uint64_t zf2fs_vol_now(const struct zf2fs_vol *vol)
{
	return zf2fs_get(((const struct zf2fs_checkpoint *)vol->cp)->elapsed_time);
}

int zf2fs_cp_pack_probe(struct zf2fs_vol *vol, unsigned pack, uint8_t *first,
			uint64_t *ret_ver, char *why, size_t whylen);
/* The kernel's checks of a checkpoint at mount, then where its summaries sit (which the
 * kernel does not check); *@ret_kernel_refuses says whether a failure is the kernel's. */
int zf2fs_cp_verify(const struct zf2fs_super *sb, const struct zf2fs_geom *g,
		    const struct zf2fs_checkpoint *cp, char *why, size_t whylen,
		    bool *ret_kernel_refuses);

/* The SIT blocks of the live copy that cover segments 0 to @segs - 1, read in runs of
 * contiguous blocks (64 at most), to @block: block @idx, its first segment and its @cnt
 * entries below @segs.  Stops at the first nonzero return; -ZF2FS_EFSCORRUPTED (nothing
 * logged: the caller checks with zf2fs_sit_blocks first and says it) when the SIT area
 * cannot cover @segs segments. */
int zf2fs_sit_read_blocks(struct zf2fs_vol *vol, uint32_t segs,
			  int (*block)(void *arg, uint32_t idx, uint32_t first, uint32_t cnt,
				       const struct zf2fs_sit_entry *src), void *arg);

/* Every SIT block of the main area's segments (zf2fs_sit_read_blocks) to @block, then every
 * SIT journal entry of a main segment to @journal, which overrides the block's.  Stops at
 * the first nonzero return; -ZF2FS_EFSCORRUPTED when the SIT area cannot cover the main
 * area. */
struct zf2fs_sit_scan_ops {
	int (*block)(void *arg, uint32_t idx, uint32_t first, uint32_t cnt,
		     const struct zf2fs_sit_entry *src);
	int (*journal)(void *arg, uint32_t segno, const struct zf2fs_sit_entry *se);
};
int zf2fs_sit_scan(struct zf2fs_vol *vol, const struct zf2fs_sit_scan_ops *ops, void *arg);

/* zf2fs_vol_read_blocks that logs nothing (a caller reading early, whose reader reads
 * again and reports what fails): -ERANGE outside the devices or across two, else
 * zf2fs_dev_read_quiet's result. */
int zf2fs_vol_read_quiet(struct zf2fs_vol *vol, uint64_t blk, uint32_t count, void *buf);
/* qsort's comparison of two uint64_t. */
int zf2fs_cmp_u64(const void *a, const void *b);

/* preload.c: copy @blk to @buf when the window holds it; drop it from the window (a
 * write); free the window. */
bool zf2fs_preload_get(const struct zf2fs_vol *vol, uint64_t blk, void *buf);
void zf2fs_preload_forget(struct zf2fs_vol *vol, uint64_t blk);
void zf2fs_preload_free(struct zf2fs_vol *vol);

#endif
