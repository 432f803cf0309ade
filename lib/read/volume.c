// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * volume.c - open an existing volume and look things up in it.
 *
 * Opening picks a superblock copy that passes the kernel's checks, the newest checkpoint
 * pack that is intact and consistent with it, and loads what the kernel keeps in memory
 * from the checkpoint: the SIT and NAT version bitmaps, the NAT and SIT journals and the
 * summaries of the six current segments (compacted or not).  Lookups (NAT entry, SIT
 * entries, a segment's summary) then resolve journal-before-disk and live-copy selection
 * exactly as the kernel does.  Every count read from disk is bounded before use.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs-internal/device.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs-internal/volume.h"
#include "format/super_p.h"
#include "device/device_p.h"
#include "read/volume_p.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

/* ---- block access -------------------------------------------------------------------- */
static int locate(const struct zf2fs_vol *vol, uint64_t blk, unsigned *d, uint64_t *off)
{
	for (unsigned i = 0; i < vol->ndevs; i++)
		if (blk >= vol->dev_start[i] && blk <= vol->dev_end[i]) {
			*d = i;
			*off = (blk - vol->dev_start[i]) << vol->geom.log_blocksize;
			return 0;
		}
	return -ERANGE;
}

ZF2FS_EXPORT int zf2fs_vol_read_block(struct zf2fs_vol *vol, uint64_t blk, void *buf)
{
	return zf2fs_vol_read_blocks(vol, blk, 1, buf);
}

/* The device holding all of blocks [@blk, @blk + @count) (@count > 0), and their offset
 * there; -ERANGE when they are outside the devices or span two. */
static int locate_run(const struct zf2fs_vol *vol, uint64_t blk, uint32_t count, unsigned *d,
		      uint64_t *off)
{
	unsigned d2;
	uint64_t off2;

	if (locate(vol, blk, d, off) || locate(vol, blk + count - 1, &d2, &off2) || *d != d2)
		return -ERANGE;
	return 0;
}

ZF2FS_EXPORT int zf2fs_vol_read_blocks(struct zf2fs_vol *vol, uint64_t blk, uint32_t count,
				       void *buf)
{
	unsigned d;
	uint64_t off;

	if (!count)
		return 0;
	if (count == 1 && vol->pre_n && zf2fs_preload_get(vol, blk, buf))
		return 0;
	if (locate_run(vol, blk, count, &d, &off)) {
		zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "blocks %llu..%llu are outside the "
			   "volume's devices", (unsigned long long)blk,
			   (unsigned long long)(blk + count - 1));
		return -ERANGE;
	}
	return zf2fs_dev_read(vol->dev[d], buf, (size_t)count * vol->geom.blocksize, off);
}

int zf2fs_vol_read_quiet(struct zf2fs_vol *vol, uint64_t blk, uint32_t count, void *buf)
{
	unsigned d;
	uint64_t off;

	if (!count || locate_run(vol, blk, count, &d, &off))
		return -ERANGE;
	return zf2fs_dev_read_quiet(vol->dev[d], buf, (size_t)count << vol->geom.log_blocksize,
				    off);
}

int zf2fs_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

ZF2FS_EXPORT void zf2fs_vol_willneed_run(struct zf2fs_vol *vol, uint64_t blk, uint32_t count)
{
	unsigned d, d2;
	uint64_t off, off2;

	if (!count || locate(vol, blk, &d, &off))
		return;
	if (locate(vol, blk + count - 1, &d2, &off2) || d2 != d) {
		/* across devices: each block alone */
		for (uint32_t i = 0; i < count; i++)
			zf2fs_vol_willneed_run(vol, blk + i, 1);
		return;
	}
	(void)zf2fs_dev_willneed(vol->dev[d], off, off2 - off + vol->geom.blocksize);
}

ZF2FS_EXPORT int zf2fs_vol_read_ahead(struct zf2fs_vol *vol, uint64_t blk, uint32_t count,
				      void *buf)
{
	unsigned d;
	uint64_t off;

	if (!count || locate_run(vol, blk, count, &d, &off))
		return -ERANGE;
	return zf2fs_dev_read_ahead(vol->dev[d], buf, (size_t)count << vol->geom.log_blocksize,
				    off);
}

ZF2FS_EXPORT void zf2fs_vol_willneed(struct zf2fs_vol *vol, uint64_t *blks, size_t n)
{
	if (!n)
		return;
	qsort(blks, n, sizeof(*blks), zf2fs_cmp_u64);
	for (size_t i = 0, j; i < n; i = j) {
		/* a run of adjacent blocks (repeats included): one request */
		for (j = i + 1; j < n && blks[j] <= blks[j - 1] + 1; j++)
			;
		if (blks[j - 1] - blks[i] < UINT32_MAX)
			zf2fs_vol_willneed_run(vol, blks[i], (uint32_t)(blks[j - 1] - blks[i] + 1));
	}
}

ZF2FS_EXPORT int zf2fs_vol_write_block(struct zf2fs_vol *vol, uint64_t blk, const void *buf)
{
	unsigned d;
	uint64_t off;

	if (locate(vol, blk, &d, &off)) {
		zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "block %llu is outside the volume's "
			   "devices", (unsigned long long)blk);
		return -ERANGE;
	}
	if (blk == vol->nat_cache_addr[blk % NAT_CACHE_SLOTS])
		vol->nat_cache_addr[blk % NAT_CACHE_SLOTS] = UINT64_MAX;
	if (blk == vol->ssa_cache_addr)
		vol->ssa_cache_addr = UINT64_MAX;
	zf2fs_preload_forget(vol, blk);
	return zf2fs_dev_write(vol->dev[d], buf, vol->geom.blocksize, off);
}

/* ---- superblock ------------------------------------------------------------------------- */
/* Where copy @i of the superblock sits on a volume of 2^@log_blocksize-byte blocks: at
 * ZF2FS_SUPER_OFFSET in block @i. */
static uint64_t super_at(int i, uint32_t log_blocksize)
{
	return ((uint64_t)i << log_blocksize) + ZF2FS_SUPER_OFFSET;
}

/* Read and verify copy @i assuming blocks of 2^@log_blocksize bytes: 0 when it verifies
 * and says that block size itself. */
static int read_super_copy(struct zf2fs_vol *vol, int i, uint32_t log_blocksize,
			   struct zf2fs_super *sb, char *why, size_t whylen)
{
	uint64_t dev_blocks = zf2fs_dev_size(vol->dev[0]) >> log_blocksize;

	if (zf2fs_dev_read(vol->dev[0], sb, sizeof(*sb), super_at(i, log_blocksize))) {
		snprintf(why, whylen, "unreadable");
		return -EIO;
	}
	if (zf2fs_super_verify(sb, vol->ndevs > 1 ? 0 : dev_blocks, why, whylen))
		return -ZF2FS_EFSCORRUPTED;
	if (zf2fs_get(sb->log_blocksize) != log_blocksize) {
		snprintf(why, whylen, "log_blocksize, %llu in the copy of a %u-byte block",
			 (unsigned long long)zf2fs_get(sb->log_blocksize), 1u << log_blocksize);
		return -ZF2FS_EFSCORRUPTED;
	}
	return 0;
}

/* Copy @i at the block size @log_bs; when that fails and @may_be_16k, at 16 KiB, whose
 * failure is not reported (the copy's reason stays the one at @log_bs). */
static int read_super_either(struct zf2fs_vol *vol, int i, uint32_t log_bs, bool may_be_16k,
			     struct zf2fs_super *sb)
{
	char why16[sizeof(vol->sb_why[0])];
	int err = read_super_copy(vol, i, log_bs, sb, vol->sb_why[i], sizeof(vol->sb_why[i]));

	if (err && may_be_16k && log_bs != ZF2FS_MAX_LOG_BLOCKSIZE &&
	    !read_super_copy(vol, i, ZF2FS_MAX_LOG_BLOCKSIZE, sb, why16, sizeof(why16))) {
		vol->sb_why[i][0] = 0;
		err = 0;
	}
	return err;
}

/* Pick the superblock: the first copy that verifies, from @first.  The second copy sits
 * in block 1, whose place depends on the block size: it is looked for at 16 KiB when the
 * first copy says 16 KiB blocks, else at 4 KiB and then at 16 KiB.  The first copy is
 * read at the block size of a chosen second copy, else at either. */
static int pick_super(struct zf2fs_vol *vol, int first)
{
	int chosen = -1;

	for (int i = 1; i >= first; i--) {
		struct zf2fs_super sb;
		uint32_t log_bs = ZF2FS_MIN_LOG_BLOCKSIZE;

		if (i == 1) {
			char why0[sizeof(vol->sb_why[0])];

			if (!read_super_copy(vol, 0, ZF2FS_MAX_LOG_BLOCKSIZE, &sb, why0, sizeof(why0)))
				log_bs = ZF2FS_MAX_LOG_BLOCKSIZE;
		} else if (chosen == 1) {
			log_bs = (uint32_t)zf2fs_get(vol->sb.log_blocksize);
		}
		if (read_super_either(vol, i, log_bs, i == 1 || chosen < 0, &sb)) {
			vol->sb_copy_bad[i] = true;
			continue;
		}
		vol->sb = sb;
		chosen = i;
	}
	if (chosen < 0) {
		zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "%s: no valid superblock (first copy: %s; "
			   "second copy: %s)", zf2fs_dev_path(vol->dev[0]), vol->sb_why[0],
			   vol->sb_why[1]);
		return -ZF2FS_EFSCORRUPTED;
	}
	vol->sb_copy = chosen;
	zf2fs_geom_init(&vol->geom, (uint32_t)zf2fs_get(vol->sb.log_blocksize),
			(uint32_t)zf2fs_get(vol->sb.feature));
	return 0;
}

/* A tool that has not said it handles 16 KiB blocks (ZF2FS_VOL_BLOCK16K) gets one line
 * and no volume: it would read every block at the wrong size. */
static int refuse_block_size(struct zf2fs_vol *vol, int flags)
{
	if (vol->geom.log_blocksize == ZF2FS_MIN_LOG_BLOCKSIZE || (flags & ZF2FS_VOL_BLOCK16K))
		return 0;
	zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "%s: the volume has %u KiB blocks "
		   "(log_blocksize %u), which this tool does not handle", zf2fs_dev_path(vol->dev[0]),
		   vol->geom.blocksize / 1024, vol->geom.log_blocksize);
	return -ZF2FS_EBLOCKSIZE;
}

/* Device ranges from the superblock's device list (or the single device). */
static int map_devices(struct zf2fs_vol *vol, unsigned n, int flags)
{
	const struct zf2fs_super *sb = &vol->sb;
	unsigned listed = 0;
	uint64_t total = 0;

	while (listed < ZF2FS_MAX_DEVICES && sb->devs[listed].path[0])
		listed++;
	if (!listed) {
		vol->dev_start[0] = 0;
		vol->dev_end[0] = (zf2fs_dev_size(vol->dev[0]) >> vol->geom.log_blocksize) - 1;
		return 0;
	}
	for (unsigned i = 0; i < listed; i++) {
		uint64_t segs = zf2fs_get(sb->devs[i].total_segments);

		vol->dev_start[i] = i ? vol->dev_end[i - 1] + 1 : 0;
		vol->dev_end[i] = vol->dev_start[i] + segs * BPS - 1 +
				  (i ? 0 : zf2fs_get(sb->segment0_blkaddr));
		total += segs;
		if (i == 0)
			continue;
		if (i >= n) {
			char path[ZF2FS_DEVICE_PATH_LEN + 1] = { 0 };
			int err;

			memcpy(path, sb->devs[i].path, ZF2FS_DEVICE_PATH_LEN);
			err = zf2fs_dev_open(path, flags, &vol->log, &vol->dev[i]);
			if (err) {
				snprintf(vol->map_why, sizeof(vol->map_why), "%s: while opening "
					 "device %u (%s) listed in the superblock", strerror(-err), i,
					 path);
				return err;
			}
			vol->ndevs = i + 1;
		}
	}
	if (total != zf2fs_get(sb->segment_count)) {
		snprintf(vol->map_why, sizeof(vol->map_why), "corrupt superblock: devs, their "
			 "segments (%llu) differ from segment_count (%llu)", (unsigned long long)total,
			 (unsigned long long)zf2fs_get(sb->segment_count));
		return -ZF2FS_EFSCORRUPTED;
	}
	/* Each device must hold what the superblock puts on it: the sizes of everything
	 * built from the counts (fsck's maps) then stay in proportion to the real devices. */
	for (unsigned i = 0; i < listed && i < vol->ndevs; i++) {
		uint64_t blocks = zf2fs_dev_size(vol->dev[i]) >> vol->geom.log_blocksize;

		if (vol->dev_end[i] - vol->dev_start[i] + 1 > blocks) {
			snprintf(vol->map_why, sizeof(vol->map_why), "corrupt superblock: devs[%u], "
				 "%llu blocks on %s of %llu blocks", i,
				 (unsigned long long)(vol->dev_end[i] - vol->dev_start[i] + 1),
				 zf2fs_dev_path(vol->dev[i]), (unsigned long long)blocks);
			return -ZF2FS_EFSCORRUPTED;
		}
	}
	return 0;
}

/* ---- checkpoint ---------------------------------------------------------------------------- */
static int load_bitmaps(struct zf2fs_vol *vol)
{
	const struct zf2fs_checkpoint *cp = (const void *)vol->cp;
	uint64_t sit_bytes = zf2fs_get(cp->sit_ver_bitmap_bytesize);
	uint64_t nat_bytes = zf2fs_get(cp->nat_ver_bitmap_bytesize);
	uint64_t payload = zf2fs_get(vol->sb.cp_payload);
	const struct zf2fs_geom *g = &vol->geom;
	uint64_t buf_end = (1 + payload) * g->blocksize;
	uint64_t sit_off, nat_off;   /* offsets from vol->cp */

	if (zf2fs_get(cp->ckpt_flags) & ZF2FS_CP_LARGE_NAT_BITMAP_FLAG) {
		nat_off = ZF2FS_CP_BITMAP_OFFSET + 4;
		sit_off = nat_off + nat_bytes;
	} else if (payload) {
		nat_off = ZF2FS_CP_BITMAP_OFFSET;
		sit_off = g->blocksize;
		if (nat_off + nat_bytes > g->cp_chksum_offset)
			goto bad;
	} else {
		sit_off = ZF2FS_CP_BITMAP_OFFSET;
		nat_off = sit_off + sit_bytes;
		if (nat_off + nat_bytes > g->cp_chksum_offset)
			goto bad;
	}
	if (sit_off + sit_bytes > buf_end || nat_off + nat_bytes > buf_end)
		goto bad;
	vol->sit_bitmap = vol->cp + sit_off;
	vol->nat_bitmap = vol->cp + nat_off;
	return 0;
bad:
	zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "corrupt checkpoint: version bitmaps (%llu SIT "
		   "+ %llu NAT bytes) do not fit the checkpoint", (unsigned long long)sit_bytes,
		   (unsigned long long)nat_bytes);
	return -ZF2FS_EFSCORRUPTED;
}

static int pick_checkpoint(struct zf2fs_vol *vol)
{
	uint8_t *blk[2] = { malloc(vol->geom.blocksize), malloc(vol->geom.blocksize) };
	uint64_t ver[2] = { 0, 0 };
	bool ok[2];
	int order[2], err = -ENOMEM;
	uint64_t payload = zf2fs_get(vol->sb.cp_payload);

	if (!blk[0] || !blk[1])
		goto out;
	for (unsigned p = 0; p < 2; p++) {
		ok[p] = zf2fs_cp_pack_probe(vol, p, blk[p], &ver[p], vol->cp_why[p],
					    sizeof(vol->cp_why[p])) == 0;
		vol->cp_pack_sealed[p] = ok[p];
		vol->cp_pack_ver[p] = ver[p];
		vol->cp_pack_refused[p] = false;
		if (ok[p] && zf2fs_cp_verify(&vol->sb, &vol->geom, (const void *)blk[p],
					     vol->cp_why[p], sizeof(vol->cp_why[p]),
					     &vol->cp_pack_refused[p]))
			ok[p] = false;
		vol->cp_pack_bad[p] = !ok[p];
	}
	/* newest first, as the kernel compares versions: by their difference, which wraps
	 * (a first pack at 2^64-1 is older than a second at 1); on a tie, the first pack */
	order[0] = (ok[1] && (!ok[0] || (int64_t)(ver[1] - ver[0]) > 0)) ? 1 : 0;
	order[1] = 1 - order[0];
	err = -ZF2FS_EFSCORRUPTED;
	for (int k = 0; k < 2 && err; k++) {
		int p = order[k];

		if (!ok[p])
			continue;
		vol->cp = calloc(1 + payload, vol->geom.blocksize);
		if (!vol->cp) {
			err = -ENOMEM;
			break;
		}
		memcpy(vol->cp, blk[p], vol->geom.blocksize);
		err = zf2fs_vol_read_blocks(vol, zf2fs_get(vol->sb.cp_blkaddr) +
					    (uint64_t)p * BPS + 1, (uint32_t)payload,
					    vol->cp + vol->geom.blocksize);
		if (!err)
			err = load_bitmaps(vol);
		if (err) {
			free(vol->cp);
			vol->cp = NULL;
			continue;
		}
		vol->cp_pack = (unsigned)p;
		vol->cp_ver = ver[p];
	}
	if (err == -ZF2FS_EFSCORRUPTED && !vol->cp)
		zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "no valid checkpoint (pack 1: %s; pack 2: "
			   "%s)", vol->cp_why[0][0] ? vol->cp_why[0] : "bitmaps",
			   vol->cp_why[1][0] ? vol->cp_why[1] : "bitmaps");
out:
	free(blk[0]);
	free(blk[1]);
	return err;
}

/* ---- current segment summaries -------------------------------------------------------- */
static uint64_t pack_start(const struct zf2fs_vol *vol)
{
	return zf2fs_get(vol->sb.cp_blkaddr) + (uint64_t)vol->cp_pack * BPS;
}

static int journal_counts_ok(struct zf2fs_vol *vol)
{
	const struct zf2fs_geom *g = &vol->geom;

	if (zf2fs_get(vol->nat_journal.n_entries) > g->nat_journal_entries ||
	    zf2fs_get(vol->sit_journal.n_entries) > g->sit_journal_entries) {
		zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "corrupt checkpoint: journals, %llu NAT "
			   "and %llu SIT entries exceed %zu and %zu",
			   (unsigned long long)zf2fs_get(vol->nat_journal.n_entries),
			   (unsigned long long)zf2fs_get(vol->sit_journal.n_entries),
			   (size_t)g->nat_journal_entries, (size_t)g->sit_journal_entries);
		return -ZF2FS_EFSCORRUPTED;
	}
	return 0;
}

static int load_compacted(struct zf2fs_vol *vol, const struct zf2fs_checkpoint *cp)
{
	uint64_t at = pack_start(vol) + zf2fs_get(cp->cp_pack_start_sum);
	uint64_t end = pack_start(vol) + zf2fs_get(cp->cp_pack_total_block_count) - 1;
	const struct zf2fs_geom *g = &vol->geom;
	uint8_t *blk = malloc(g->blocksize);
	size_t off;
	int err;

	if (!blk)
		return -ENOMEM;
	err = zf2fs_vol_read_block(vol, at, blk);
	if (err)
		goto out;
	/* the two journals first, each of a summary's journal size; then the entries, which
	 * fill whole blocks less a summary footer's room */
	memcpy(vol->nat_journal_room, blk, g->sum_journal_size);
	memcpy(vol->sit_journal_room, blk + g->sum_journal_size, g->sum_journal_size);
	off = 2 * (size_t)g->sum_journal_size;
	for (int t = ZF2FS_LOG_HOT_DATA; t <= ZF2FS_LOG_COLD_DATA; t++) {
		uint32_t n = cp->alloc_type[t] == 1 ? BPS : (uint32_t)zf2fs_get(cp->cur_data_blkoff[t]);

		for (uint32_t j = 0; j < n && j < BPS; j++) {
			if (off + ZF2FS_SUMMARY_SIZE > g->blocksize - ZF2FS_SUM_FOOTER_SIZE) {
				if (++at >= end) {
					zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "corrupt checkpoint: "
						   "compacted summaries run past the pack");
					err = -ZF2FS_EFSCORRUPTED;
					goto out;
				}
				err = zf2fs_vol_read_block(vol, at, blk);
				if (err)
					goto out;
				off = 0;
			}
			memcpy(&vol->cur_sum[t][j], blk + off, ZF2FS_SUMMARY_SIZE);
			off += ZF2FS_SUMMARY_SIZE;
		}
	}
	err = journal_counts_ok(vol);
out:
	free(blk);
	return err;
}

static int restore_node_summary(struct zf2fs_vol *vol, uint32_t segno,
				struct zf2fs_summary *sum)
{
	const struct zf2fs_geom *g = &vol->geom;
	const uint32_t chunk = 64;
	uint8_t *buf;
	uint64_t start;
	int err = 0;

	if (segno >= zf2fs_get(vol->sb.segment_count_main))
		return -ZF2FS_EFSCORRUPTED;
	buf = malloc((size_t)chunk * g->blocksize);
	if (!buf)
		return -ENOMEM;
	start = zf2fs_get(vol->sb.main_blkaddr) + (uint64_t)segno * BPS;
	for (uint32_t i = 0; i < BPS && !err; i += chunk) {
		err = zf2fs_vol_read_blocks(vol, start + i, chunk, buf);
		for (uint32_t j = 0; !err && j < chunk; j++) {
			sum[i + j].nid = zf2fs_node_footer(g, buf + (size_t)j * g->blocksize)->nid;
			sum[i + j].version = 0;
			sum[i + j].ofs_in_node = 0;
		}
	}
	free(buf);
	return err;
}

/* A current log's summary block of the pack: one summary from the block's start, of the
 * volume's summary size (a 4 KiB one in a 16 KiB block with packed_ssa).  The segment's
 * entries go to @sum; the journal, when @journal is given, to it. */
static int read_pack_summary(struct zf2fs_vol *vol, uint64_t addr, uint8_t *blk,
			     struct zf2fs_summary *sum, uint8_t *journal)
{
	const struct zf2fs_geom *g = &vol->geom;
	int err = zf2fs_vol_read_block(vol, addr, blk);

	if (err)
		return err;
	memcpy(sum, zf2fs_sum_entries(blk), BPS * sizeof(*sum));
	if (journal)
		memcpy(journal, zf2fs_sum_journal(g, blk), g->sum_journal_size);
	return 0;
}

static int load_summaries(struct zf2fs_vol *vol)
{
	const struct zf2fs_checkpoint *cp = (const void *)vol->cp;
	uint32_t flags = (uint32_t)zf2fs_get(cp->ckpt_flags);
	uint64_t total = zf2fs_get(cp->cp_pack_total_block_count);
	uint8_t *blk = malloc(vol->geom.blocksize);
	int err = 0;

	if (!blk)
		return -ENOMEM;
	if (flags & ZF2FS_CP_COMPACT_SUM_FLAG) {
		err = load_compacted(vol, cp);
	} else {
		for (int t = ZF2FS_LOG_HOT_DATA; t <= ZF2FS_LOG_COLD_DATA && !err; t++)
			err = read_pack_summary(vol, pack_start(vol) +
						zf2fs_get(cp->cp_pack_start_sum) + (uint64_t)t,
						blk, vol->cur_sum[t],
						t == ZF2FS_LOG_HOT_DATA ? vol->nat_journal_room :
						t == ZF2FS_LOG_COLD_DATA ? vol->sit_journal_room :
						NULL);
		if (!err)
			err = journal_counts_ok(vol);
	}
	for (int t = ZF2FS_LOG_HOT_NODE; t <= ZF2FS_LOG_COLD_NODE && !err; t++) {
		uint64_t addr;

		if (flags & (ZF2FS_CP_UMOUNT_FLAG | ZF2FS_CP_FASTBOOT_FLAG)) {
			/* the three node summaries sit just before the closing CP block,
			 * after the data summaries */
			uint64_t data_end = zf2fs_get(cp->cp_pack_start_sum) +
					    ((flags & ZF2FS_CP_COMPACT_SUM_FLAG) ? 1 : 3);

			if (total < data_end + 4) {
				zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "corrupt checkpoint: "
					   "cp_pack_total_block_count %llu leaves no room for node "
					   "summaries", (unsigned long long)total);
				err = -ZF2FS_EFSCORRUPTED;
				break;
			}
			addr = pack_start(vol) + total - (ZF2FS_NR_CURSEG + 1) + (uint64_t)t;
		} else {
			/* Not in the pack: like the kernel, rebuild each entry from the footer of
			 * the node block at that position. */
			err = restore_node_summary(vol, (uint32_t)zf2fs_get(cp->cur_node_segno[t - 3]),
						   vol->cur_sum[t]);
			continue;
		}
		err = read_pack_summary(vol, addr, blk, vol->cur_sum[t], NULL);
	}
	free(blk);
	return err;
}

static void fill_info(struct zf2fs_vol *vol)
{
	const struct zf2fs_super *sb = &vol->sb;
	struct zf2fs_vol_info *in = &vol->info;

	in->blocks_per_seg = BPS;
	in->segs_per_sec = (uint32_t)zf2fs_get(sb->segs_per_sec);
	in->secs_per_zone = (uint32_t)zf2fs_get(sb->secs_per_zone);
	in->main_blkaddr = (uint32_t)zf2fs_get(sb->main_blkaddr);
	in->main_segs = (uint32_t)zf2fs_get(sb->segment_count_main);
	in->main_secs = (uint32_t)zf2fs_get(sb->section_count);
	in->sit_blkaddr = (uint32_t)zf2fs_get(sb->sit_blkaddr);
	in->sit_blocks = (uint32_t)(zf2fs_get(sb->segment_count_sit) / 2 * BPS);
	in->nat_blkaddr = (uint32_t)zf2fs_get(sb->nat_blkaddr);
	in->nat_blocks = (uint32_t)(zf2fs_get(sb->segment_count_nat) / 2 * BPS);
	in->ssa_blkaddr = (uint32_t)zf2fs_get(sb->ssa_blkaddr);
	in->max_nid = in->nat_blocks * vol->geom.nat_per_block;
	in->block_count = zf2fs_get(sb->block_count);
	in->main_end = (uint64_t)in->main_blkaddr + (uint64_t)in->main_segs * BPS;
	in->features = (uint32_t)zf2fs_get(sb->feature);
	in->ckpt_flags = (uint32_t)zf2fs_get(((struct zf2fs_checkpoint *)vol->cp)->ckpt_flags);
	in->cp_pack = vol->cp_pack;
	in->cp_ver = vol->cp_ver;
	in->sb_copy = vol->sb_copy;
}

static void log_quiet(void *arg, enum zf2fs_msg_kind kind, const char *msg)
{
	(void)arg; (void)kind; (void)msg;
}

/* Does the second superblock copy differ from the first (in vol->sb)? */
static bool backup_differs(struct zf2fs_vol *vol)
{
	struct zf2fs_super *copy = malloc(sizeof(*copy));
	bool r = false;

	if (copy && !zf2fs_dev_read(vol->dev[0], copy, sizeof(*copy),
				    super_at(1, vol->geom.log_blocksize)))
		r = memcmp(copy, &vol->sb, sizeof(vol->sb)) != 0;
	free(copy);
	return r;
}

/*
 * The checkpoint packs are found and read through the superblock's fields (cp_blkaddr,
 * cp_payload, the area sizes).  A first copy with which no pack is valid, while the
 * second copy (which differs) finds one, is a bad first copy, to be rebuilt from the
 * second: the kernel reads the first copy and would refuse to mount.
 */
static int pick_checkpoint_or_backup(struct zf2fs_vol *vol, unsigned n, int flags)
{
	struct zf2fs_log saved = vol->log;
	bool other = vol->sb_copy == 0 && !vol->sb_copy_bad[1] && backup_differs(vol);
	char why[sizeof(vol->sb_why[0])];
	int err;

	if (other)
		vol->log.fn = log_quiet;   /* reported below, whichever copy fails */
	err = pick_checkpoint(vol);
	vol->log = saved;
	if (!other || err != -ZF2FS_EFSCORRUPTED)
		return err;
	snprintf(why, sizeof(why), "no checkpoint pack is valid with it (%.*s)",
		 (int)sizeof(why) - 48, vol->cp_why[0][0] ? vol->cp_why[0] : vol->cp_why[1]);
	for (unsigned i = n; i < vol->ndevs; i++) {
		zf2fs_dev_close(vol->dev[i]);
		vol->dev[i] = NULL;
	}
	vol->ndevs = n;
	err = pick_super(vol, 1);
	if (!err)
		err = refuse_block_size(vol, flags);
	if (!err)
		err = map_devices(vol, n, flags);
	if (!err)
		err = pick_checkpoint(vol);
	if (!err) {
		vol->sb_copy_bad[0] = true;
		memcpy(vol->sb_why[0], why, sizeof(why));
	}
	return err;
}

/* A volume with bits this version does not write is read, never written: refused when
 * any of its devices is open for writing, with one message naming the bits.  With
 * ZF2FS_VOL_DEVICE_ALIAS the caller handles device_alias: only the other bits count. */
static int refuse_unwritable(struct zf2fs_vol *vol, int flags)
{
	struct zf2fs_super sb = vol->sb;
	char why[256];
	bool writing = false;

	for (unsigned i = 0; i < vol->ndevs; i++)
		writing |= vol->dev[i] && vol->dev[i]->writable;
	if (flags & ZF2FS_VOL_DEVICE_ALIAS)
		zf2fs_set(sb.feature, (uint32_t)zf2fs_get(sb.feature) & ~ZF2FS_FEAT_DEVICE_ALIAS);
	if (!writing || zf2fs_super_writable(&sb, why, sizeof(why)))
		return 0;
	zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "%s: the volume has %s, which this version of "
		   "zf2fs-tools does not write: it is only read, never written",
		   zf2fs_dev_path(vol->dev[0]), why);
	return -ZF2FS_EUNWRITABLE;
}

/* ZF2FS_VOL_NO_CHECKPOINT: the volume is opened through its superblock alone, for a
 * caller that rebuilds the checkpoint (lib/write/rebuild.c).  The checkpoint reads as
 * zeroes: empty journals and logs, both version bitmaps 0 (every table block's first
 * copy). */
static int no_checkpoint(struct zf2fs_vol *vol)
{
	uint64_t payload = zf2fs_get(vol->sb.cp_payload);

	free(vol->cp);
	vol->cp = calloc(1 + payload, vol->geom.blocksize);
	if (!vol->cp)
		return -ENOMEM;
	vol->no_cp = true;
	vol->cp_pack = 0;
	vol->cp_ver = 0;
	memset(vol->nat_journal_room, 0, sizeof(vol->nat_journal_room));
	memset(vol->sit_journal_room, 0, sizeof(vol->sit_journal_room));
	memset(vol->cur_sum, 0, sizeof(vol->cur_sum));
	vol->sit_bitmap = vol->cp + ZF2FS_CP_BITMAP_OFFSET;
	vol->nat_bitmap = vol->cp + ZF2FS_CP_BITMAP_OFFSET;
	return 0;
}

static int vol_load(struct zf2fs_vol *vol, unsigned n, int flags)
{
	int err;

	if (zf2fs_dev_size(vol->dev[0]) < 2 * ZF2FS_BLKSIZE) {
		zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "%s is too small to hold F2FS (%llu bytes)",
			   zf2fs_dev_path(vol->dev[0]),
			   (unsigned long long)zf2fs_dev_size(vol->dev[0]));
		return -ZF2FS_EFSCORRUPTED;
	}
	err = pick_super(vol, 0);
	if (!err)
		err = refuse_block_size(vol, flags);
	if (err)
		return err;
	err = map_devices(vol, n, flags);
	/* The device list is checked only here: a first copy whose list does not fit the
	 * volume (a bad path or size) while the second copy's does is a bad first copy, to
	 * be rebuilt from the second, as the kernel mounts only through a list that fits. */
	if (err && err != -ENOMEM && vol->sb_copy == 0 && !vol->sb_copy_bad[1]) {
		char why[sizeof(vol->map_why)];

		memcpy(why, vol->map_why, sizeof(why));
		for (unsigned i = n; i < vol->ndevs; i++) {
			zf2fs_dev_close(vol->dev[i]);
			vol->dev[i] = NULL;
		}
		vol->ndevs = n;
		if (!pick_super(vol, 1) && !refuse_block_size(vol, flags) &&
		    !map_devices(vol, n, flags)) {
			vol->sb_copy_bad[0] = true;
			snprintf(vol->sb_why[0], sizeof(vol->sb_why[0]), "%s", why);
			err = 0;
		} else {
			memcpy(vol->map_why, why, sizeof(why));
		}
	}
	if (err && vol->map_why[0])
		zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "%s", vol->map_why);
	if (!err) {
		struct zf2fs_log saved = vol->log;

		/* without a checkpoint the caller says why (zf2fs_vol_cp_problem) */
		if (flags & ZF2FS_VOL_NO_CHECKPOINT)
			vol->log.fn = log_quiet;
		err = pick_checkpoint_or_backup(vol, n, flags);
		if (!err)
			err = load_summaries(vol);
		vol->log = saved;
		if (err == -ZF2FS_EFSCORRUPTED && (flags & ZF2FS_VOL_NO_CHECKPOINT))
			err = no_checkpoint(vol);
	}
	if (!err)
		fill_info(vol);
	if (!err && !(flags & ZF2FS_VOL_ANY_BITS))
		err = refuse_unwritable(vol, flags);
	return err;
}

static struct zf2fs_vol *vol_alloc(unsigned n, const struct zf2fs_log *log)
{
	struct zf2fs_vol *vol;

	if (n < 1 || n > ZF2FS_MAX_DEVICES)
		return NULL;
	vol = calloc(1, sizeof(*vol));
	if (vol)
		vol->log = log ? *log : (struct zf2fs_log){ .level = 1 };
	return vol;
}

ZF2FS_EXPORT int zf2fs_vol_open(const char *const *paths, unsigned n, int flags,
				const struct zf2fs_log *log, struct zf2fs_vol **ret_vol)
{
	struct zf2fs_vol *vol;
	int err = 0;

	*ret_vol = NULL;
	vol = vol_alloc(n, log);
	if (!vol)
		return n < 1 || n > ZF2FS_MAX_DEVICES ? -EINVAL : -ENOMEM;
	vol->owns_devs = true;
	for (unsigned i = 0; i < n && !err; i++) {
		err = zf2fs_dev_open(paths[i], flags, &vol->log, &vol->dev[i]);
		if (err)
			zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "%s: while opening %s",
				   strerror(-err), paths[i]);
		else
			vol->ndevs = i + 1;
	}
	if (!err)
		err = vol_load(vol, n, flags);
	if (err) {
		zf2fs_vol_close(vol);
		return err;
	}
	*ret_vol = vol;
	return 0;
}

ZF2FS_EXPORT int zf2fs_vol_open_devs(struct zf2fs_dev *const *devs, unsigned n,
				     const struct zf2fs_log *log, struct zf2fs_vol **ret_vol)
{
	return zf2fs_vol_open_devs_flags(devs, n, 0, log, ret_vol);
}

ZF2FS_EXPORT int zf2fs_vol_open_devs_flags(struct zf2fs_dev *const *devs, unsigned n, int flags,
					   const struct zf2fs_log *log, struct zf2fs_vol **ret_vol)
{
	struct zf2fs_vol *vol;
	int err;

	*ret_vol = NULL;
	vol = vol_alloc(n, log);
	if (!vol)
		return n < 1 || n > ZF2FS_MAX_DEVICES ? -EINVAL : -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		vol->dev[i] = devs[i];
	vol->ndevs = n;
	err = vol_load(vol, n, flags & (ZF2FS_VOL_BLOCK16K | ZF2FS_VOL_NO_CHECKPOINT));
	if (err) {
		zf2fs_vol_close(vol);
		return err;
	}
	*ret_vol = vol;
	return 0;
}

ZF2FS_EXPORT void zf2fs_vol_close(struct zf2fs_vol *vol)
{
	if (!vol)
		return;
	if (vol->owns_devs)
		for (unsigned i = 0; i < vol->ndevs; i++)
			zf2fs_dev_close(vol->dev[i]);
	free(vol->cp);
	for (unsigned i = 0; i < NAT_CACHE_SLOTS; i++)
		free(vol->nat_cache[i]);
	free(vol->ssa_cache);
	free(vol->nat_bits);
	zf2fs_preload_free(vol);
	free(vol);
}

ZF2FS_EXPORT const struct zf2fs_super *zf2fs_vol_super(const struct zf2fs_vol *vol)
{
	return &vol->sb;
}

ZF2FS_EXPORT const struct zf2fs_geom *zf2fs_vol_geom(const struct zf2fs_vol *vol)
{
	return &vol->geom;
}

ZF2FS_EXPORT const struct zf2fs_checkpoint *zf2fs_vol_checkpoint(const struct zf2fs_vol *vol)
{
	return (const void *)vol->cp;
}

ZF2FS_EXPORT bool zf2fs_vol_has_checkpoint(const struct zf2fs_vol *vol)
{
	return !vol->no_cp;
}

ZF2FS_EXPORT const struct zf2fs_vol_info *zf2fs_vol_info(const struct zf2fs_vol *vol)
{
	return &vol->info;
}

ZF2FS_EXPORT const char *zf2fs_vol_super_problem(const struct zf2fs_vol *vol, int i)
{
	return (i == 0 || i == 1) && vol->sb_copy_bad[i] ? vol->sb_why[i] : "";
}

ZF2FS_EXPORT const char *zf2fs_vol_cp_problem(const struct zf2fs_vol *vol, int i)
{
	return (i == 0 || i == 1) && vol->cp_pack_bad[i] ? vol->cp_why[i] : "";
}

ZF2FS_EXPORT bool zf2fs_vol_cp_kernel_refuses(const struct zf2fs_vol *vol, int i)
{
	return (i == 0 || i == 1) && vol->cp_pack_refused[i];
}

ZF2FS_EXPORT int zf2fs_vol_cp_pack_version(const struct zf2fs_vol *vol, int i,
					   uint64_t *ret_ver)
{
	if ((i != 0 && i != 1) || !vol->cp_pack_sealed[i])
		return -ZF2FS_EFSCORRUPTED;
	*ret_ver = vol->cp_pack_ver[i];
	return 0;
}

ZF2FS_EXPORT struct zf2fs_dev *zf2fs_vol_dev(const struct zf2fs_vol *vol, unsigned i)
{
	return i < vol->ndevs ? vol->dev[i] : NULL;
}

ZF2FS_EXPORT unsigned zf2fs_vol_ndevs(const struct zf2fs_vol *vol)
{
	return vol->ndevs;
}

/* ---- NAT --------------------------------------------------------------------------------- */
ZF2FS_EXPORT uint64_t zf2fs_vol_nat_block_addr(const struct zf2fs_vol *vol, uint32_t idx)
{
	/* NAT copies alternate by segment: pair k holds copy 0 then copy 1 of its blocks. */
	uint64_t addr = vol->info.nat_blkaddr + (uint64_t)(idx / BPS) * 2 * BPS + idx % BPS;

	if (zf2fs_hbit_test(vol->nat_bitmap, idx))
		addr += BPS;
	return addr;
}

ZF2FS_EXPORT uint64_t zf2fs_vol_sit_block_addr(const struct zf2fs_vol *vol, uint32_t idx)
{
	uint64_t addr = vol->info.sit_blkaddr + idx;

	if (zf2fs_hbit_test(vol->sit_bitmap, idx))
		addr += vol->info.sit_blocks;
	return addr;
}

ZF2FS_EXPORT const struct zf2fs_journal *zf2fs_vol_nat_journal(const struct zf2fs_vol *vol)
{
	return &vol->nat_journal;
}

ZF2FS_EXPORT const struct zf2fs_journal *zf2fs_vol_sit_journal(const struct zf2fs_vol *vol)
{
	return &vol->sit_journal;
}

ZF2FS_EXPORT int zf2fs_vol_nat_override(struct zf2fs_vol *vol, uint32_t nid, uint32_t ino,
				       uint32_t blkaddr)
{
	if (nid >= vol->info.max_nid)
		return -EINVAL;
	if (vol->n_nat_fix >= sizeof(vol->nat_fix) / sizeof(vol->nat_fix[0]))
		return -ENOSPC;
	vol->nat_fix[vol->n_nat_fix].nid = nid;
	vol->nat_fix[vol->n_nat_fix].ino = ino;
	vol->nat_fix[vol->n_nat_fix++].blkaddr = blkaddr;
	return 0;
}

ZF2FS_EXPORT int zf2fs_vol_nat_lookup(struct zf2fs_vol *vol, uint32_t nid,
				      struct zf2fs_nat_info *ret)
{
	uint32_t n = (uint32_t)zf2fs_get(vol->nat_journal.n_entries);
	const struct zf2fs_nat_entry *e;
	uint64_t addr;
	unsigned slot;
	int err;

	memset(ret, 0, sizeof(*ret));
	if (nid >= vol->info.max_nid)
		return -EINVAL;
	if (vol->nat_hook)
		return vol->nat_hook(vol->nat_hook_arg, nid, ret);
	for (unsigned i = 0; i < vol->n_nat_fix; i++) {
		if (vol->nat_fix[i].nid == nid) {
			ret->ino = vol->nat_fix[i].ino;
			ret->blkaddr = vol->nat_fix[i].blkaddr;
			return 0;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct zf2fs_nat_journal_entry *je = zf2fs_journal_nat(&vol->nat_journal, i);

		if (zf2fs_get(je->nid) == nid) {
			ret->ino = (uint32_t)zf2fs_get(je->ne.ino);
			ret->blkaddr = (uint32_t)zf2fs_get(je->ne.block_addr);
			ret->version = je->ne.version;
			ret->in_journal = true;
			return 0;
		}
	}
	addr = zf2fs_vol_nat_block_addr(vol, zf2fs_geom_nat_block_index(&vol->geom, nid));
	slot = addr % NAT_CACHE_SLOTS;
	if (!vol->nat_cache[slot]) {
		vol->nat_cache[slot] = malloc(vol->geom.blocksize);
		if (!vol->nat_cache[slot])
			return -ENOMEM;
		vol->nat_cache_addr[slot] = UINT64_MAX;
	}
	if (vol->nat_cache_addr[slot] != addr) {
		vol->nat_cache_addr[slot] = UINT64_MAX;
		err = zf2fs_vol_read_block(vol, addr, vol->nat_cache[slot]);
		if (err)
			return err;
		vol->nat_cache_addr[slot] = addr;
	}
	e = zf2fs_nat_block_entry(vol->nat_cache[slot], zf2fs_geom_nat_entry_index(&vol->geom, nid));
	ret->ino = (uint32_t)zf2fs_get(e->ino);
	ret->blkaddr = (uint32_t)zf2fs_get(e->block_addr);
	ret->version = e->version;
	return 0;
}

/* ---- SIT --------------------------------------------------------------------------------- */
int zf2fs_sit_read_blocks(struct zf2fs_vol *vol, uint32_t segs,
			  int (*block)(void *arg, uint32_t idx, uint32_t first, uint32_t cnt,
				       const struct zf2fs_sit_entry *src), void *arg)
{
	const struct zf2fs_geom *g = &vol->geom;
	uint32_t nblocks = zf2fs_geom_sit_blocks(g, segs);
	const uint32_t chunk = 64;   /* 256 KiB per read: sequential enough, small peak memory */
	uint8_t *buf;
	int err = 0;

	if (nblocks > vol->info.sit_blocks)
		return -ZF2FS_EFSCORRUPTED;
	buf = malloc((size_t)chunk * g->blocksize);
	if (!buf)
		return -ENOMEM;
	/* Runs of blocks that live in the same copy are contiguous on disk. */
	for (uint32_t i = 0; i < nblocks && !err;) {
		uint64_t addr = zf2fs_vol_sit_block_addr(vol, i);
		uint32_t run = 1;

		while (run < chunk && i + run < nblocks &&
		       zf2fs_vol_sit_block_addr(vol, i + run) == addr + run)
			run++;
		err = zf2fs_vol_read_blocks(vol, addr, run, buf);
		for (uint32_t b = 0; !err && b < run; b++) {
			uint32_t first = (i + b) * g->sit_per_block;
			uint32_t cnt = segs - first < g->sit_per_block ? segs - first :
				       g->sit_per_block;

			/* a SIT block's entries leave a few bytes unused: step by whole blocks */
			err = block(arg, i + b, first, cnt, (const struct zf2fs_sit_entry *)
				    (buf + (size_t)b * g->blocksize));
		}
		i += run;
	}
	free(buf);
	return err;
}

int zf2fs_sit_scan(struct zf2fs_vol *vol, const struct zf2fs_sit_scan_ops *ops, void *arg)
{
	uint32_t segs = vol->info.main_segs;
	uint32_t n = (uint32_t)zf2fs_get(vol->sit_journal.n_entries);
	int err;

	if (zf2fs_geom_sit_blocks(&vol->geom, segs) > vol->info.sit_blocks) {
		zf2fs_logf(&vol->log, ZF2FS_MSG_ERROR, 0, "corrupt superblock: SIT area of %u blocks "
			   "cannot cover %u segments", vol->info.sit_blocks, segs);
		return -ZF2FS_EFSCORRUPTED;
	}
	err = zf2fs_sit_read_blocks(vol, segs, ops->block, arg);
	for (uint32_t j = 0; !err && j < n && j < vol->geom.sit_journal_entries; j++) {
		const struct zf2fs_sit_journal_entry *je = zf2fs_journal_sit(&vol->sit_journal, j);
		uint32_t segno = (uint32_t)zf2fs_get(je->segno);

		if (segno < segs)
			err = ops->journal(arg, segno, &je->se);
	}
	return err;
}

static int flat_block(void *arg, uint32_t idx, uint32_t first, uint32_t cnt,
		      const struct zf2fs_sit_entry *src)
{
	struct zf2fs_sit_entry *out = arg;

	(void)idx;
	memcpy(&out[first], src, cnt * sizeof(*out));
	return 0;
}

static int flat_journal(void *arg, uint32_t segno, const struct zf2fs_sit_entry *se)
{
	struct zf2fs_sit_entry *out = arg;

	out[segno] = *se;
	return 0;
}

ZF2FS_EXPORT int zf2fs_vol_load_sit(struct zf2fs_vol *vol, struct zf2fs_sit_entry **ret)
{
	static const struct zf2fs_sit_scan_ops ops = { flat_block, flat_journal };
	uint32_t segs = vol->info.main_segs;
	struct zf2fs_sit_entry *out = calloc(segs ? segs : 1, sizeof(*out));
	int err;

	*ret = NULL;
	if (!out)
		return -ENOMEM;
	err = zf2fs_sit_scan(vol, &ops, out);
	if (err) {
		free(out);
		return err;
	}
	*ret = out;
	return 0;
}

/* ---- summaries ----------------------------------------------------------------------------- */
ZF2FS_EXPORT void zf2fs_vol_curseg(const struct zf2fs_vol *vol, int type, uint32_t *segno,
				   uint32_t *blkoff)
{
	const struct zf2fs_checkpoint *cp = (const void *)vol->cp;

	if (type >= ZF2FS_LOG_HOT_NODE) {
		*segno = (uint32_t)zf2fs_get(cp->cur_node_segno[type - ZF2FS_LOG_HOT_NODE]);
		*blkoff = (uint32_t)zf2fs_get(cp->cur_node_blkoff[type - ZF2FS_LOG_HOT_NODE]);
	} else {
		*segno = (uint32_t)zf2fs_get(cp->cur_data_segno[type]);
		*blkoff = (uint32_t)zf2fs_get(cp->cur_data_blkoff[type]);
	}
}

ZF2FS_EXPORT const struct zf2fs_summary *zf2fs_vol_curseg_summary(const struct zf2fs_vol *vol,
								 int type)
{
	return vol->cur_sum[type];
}

/* The one rule for volumes without a summary area: a read-only volume (the ro feature)
 * has none, its ssa_blkaddr names the first main-area block.  Only its current logs'
 * summaries exist, in the checkpoint. */
ZF2FS_EXPORT bool zf2fs_vol_has_ssa(const struct zf2fs_vol *vol)
{
	return !(vol->info.features & ZF2FS_FEAT_RO) && zf2fs_get(vol->sb.segment_count_ssa) &&
	       vol->info.ssa_blkaddr < vol->info.main_blkaddr;
}

ZF2FS_EXPORT int zf2fs_vol_segment_summary(struct zf2fs_vol *vol, uint32_t segno,
					   struct zf2fs_summary_block *ret)
{
	const struct zf2fs_geom *g = &vol->geom;
	bool ro = vol->info.features & ZF2FS_FEAT_RO;
	uint32_t addr, at;
	int err;

	if (segno >= vol->info.main_segs)
		return -EINVAL;
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		uint32_t s, off;

		/* a read-only volume writes through hot data and hot node only; its other
		 * logs point at one of their segments and hold no summary of it */
		if (ro && t != ZF2FS_LOG_HOT_DATA && t != ZF2FS_LOG_HOT_NODE)
			continue;
		zf2fs_vol_curseg(vol, t, &s, &off);
		if (s == segno) {
			memset(ret, 0, g->sum_blocksize);
			memcpy(zf2fs_sum_entries(ret), vol->cur_sum[t], sizeof(vol->cur_sum[t]));
			zf2fs_sum_footer(g, ret)->entry_type = t >= ZF2FS_LOG_HOT_NODE ?
				ZF2FS_SUM_TYPE_NODE : ZF2FS_SUM_TYPE_DATA;
			return 0;
		}
	}
	if (!zf2fs_vol_has_ssa(vol))
		return -ENODATA;
	addr = zf2fs_geom_ssa_block(g, vol->info.ssa_blkaddr, segno, &at);
	if (g->sums_per_block == 1)
		return zf2fs_vol_read_block(vol, addr, ret);
	/* packed_ssa: the block holds the summaries of sums_per_block segments in a row,
	 * which readers visit in order: keep the last one */
	if (!vol->ssa_cache) {
		vol->ssa_cache = malloc(g->blocksize);
		if (!vol->ssa_cache)
			return -ENOMEM;
		vol->ssa_cache_addr = UINT64_MAX;
	}
	if (vol->ssa_cache_addr != addr) {
		vol->ssa_cache_addr = UINT64_MAX;
		err = zf2fs_vol_read_block(vol, addr, vol->ssa_cache);
		if (err)
			return err;
		vol->ssa_cache_addr = addr;
	}
	memcpy(ret, vol->ssa_cache + at, g->sum_blocksize);
	return 0;
}
