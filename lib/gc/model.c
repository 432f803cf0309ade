// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model.c - the GC model's state: building it from an image or by hand, deriving
 * what the kernel derives at mount (free, dirty and current units, the cost-benefit
 * time bounds), and the effects of a foreground collection (moving valid blocks into
 * the destination logs, allocating segments the way LFS mode does, prefree victims,
 * checkpoints).  Selection itself is in select.c; the index in index.c.
 *
 * Kernel behaviour modelled (Linux 6.1): segments are free when they hold no valid
 * block, are not current and not prefree; a section is free when all its segments are.
 * A unit (section) is dirty when 0 < valid < capacity and it holds no current segment.
 * New segments: the next free segment of the current section, else the first free
 * section at or after the hint (wrapping to 0); the hint is the log's own section, or
 * section 0 for hot data and node logs on small sections (the default no_heap option).
 *
 * Memory follows what is in use: segment and section records live in chunks of 512,
 * allocated when one of their segments is first set or becomes current; a never-used
 * segment has no record and reads as all zero (free, no valid block, mtime 0).  An empty
 * 15 TiB volume (7.8 million segments) costs two chunk directories of 123 KiB each.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/geometry.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"
#include "zf2fs/zoned.h"
#include "read/volume_p.h"
#include "zf2fs-internal/volume.h"
#include "gc/gc_p.h"

const struct gc_seg gc_seg_zero;

int gc_seg_alloc(struct zf2fs_gc_model *m, uint32_t segno)
{
	struct gc_seg **c = &m->seg_chunk[segno >> GC_SEG_CHUNK_SHIFT];

	if (!*c)
		*c = calloc(GC_SEG_CHUNK, sizeof(**c));
	return *c ? 0 : -ENOMEM;
}

struct gc_seg *gc_seg_slow(struct zf2fs_gc_model *m, uint32_t segno)
{
	if (gc_seg_alloc(m, segno)) {
		m->oom = true;
		memset(&m->scratch, 0, sizeof(m->scratch));
		return &m->scratch;
	}
	return gc_segw(m, segno);
}

const struct gc_sec gc_sec_zero;

int gc_sec_alloc(struct zf2fs_gc_model *m, uint32_t secno)
{
	struct gc_sec **c = &m->sec_chunk[secno >> GC_SEG_CHUNK_SHIFT];

	if (!*c)
		*c = calloc(GC_SEG_CHUNK, sizeof(**c));
	return *c ? 0 : -ENOMEM;
}

struct gc_sec *gc_sec_slow(struct zf2fs_gc_model *m, uint32_t secno)
{
	if (gc_sec_alloc(m, secno)) {
		m->oom = true;
		memset(&m->sec_scratch, 0, sizeof(m->sec_scratch));
		return &m->sec_scratch;
	}
	return gc_secw(m, secno);
}

uint32_t gc_seg_usable(const struct zf2fs_gc_model *m, uint32_t segno)
{
	uint32_t off, start;

	if (!m->unusable)
		return m->bps;
	off = segno % m->sps;
	start = off * m->bps;
	if (start >= m->cap)
		return 0;
	return m->cap - start < m->bps ? m->cap - start : m->bps;
}

bool gc_sec_is_current(const struct zf2fs_gc_model *m, uint32_t secno)
{
	for (int i = 0; i < GC_NR_LOGS; i++)
		if (m->cur_seg[i] != GC_NULL && m->cur_seg[i] / m->sps == secno)
			return true;
	return false;
}

static bool seg_is_current(const struct zf2fs_gc_model *m, uint32_t segno)
{
	for (int i = 0; i < GC_NR_LOGS; i++)
		if (m->cur_seg[i] == segno)
			return true;
	return false;
}

static bool seg_in_use(const struct zf2fs_gc_model *m, uint32_t segno)
{
	return gc_seg(m, segno)->valid || gc_seg(m, segno)->prefree || seg_is_current(m, segno);
}

/* Segment @segno's valid count or prefree state changed: the next checkpoint looks at it.
 * The list grows with the segments in use; when it cannot, the checkpoint visits every
 * segment instead (cp_all), which gives the same result. */
static void cp_note(struct zf2fs_gc_model *m, uint32_t segno)
{
	if (gc_seg(m, segno)->cp_mark)
		return;
	gc_segw(m, segno)->cp_mark = 1;
	if (m->cp_all)
		return;
	if (m->cp_n == m->cp_cap) {
		uint32_t cap = m->cp_cap ? m->cp_cap * 2 : 1024;
		uint32_t *l;

		if (cap > m->total_segs)
			cap = m->total_segs;
		l = realloc(m->cp_list, (size_t)cap * sizeof(*l));
		if (!l) {
			m->cp_all = true;
			return;
		}
		m->cp_list = l;
		m->cp_cap = cap;
	}
	m->cp_list[m->cp_n++] = segno;
}

/* The @k-th segment the next checkpoint visits (k < cp_count). */
static inline uint32_t cp_seg(const struct zf2fs_gc_model *m, uint32_t k)
{
	return m->cp_all ? k : m->cp_list[k];
}

static inline uint32_t cp_count(const struct zf2fs_gc_model *m)
{
	return m->cp_all ? m->total_segs : m->cp_n;
}

static bool sec_is_free(const struct zf2fs_gc_model *m, uint32_t secno)
{
	for (uint32_t i = 0; i < m->sps; i++)
		if (seg_in_use(m, secno * m->sps + i))
			return false;
	return true;
}

/* Capacity of a unit: a section's usable blocks, or one segment's when sps is 1. */
static uint32_t unit_cap(const struct zf2fs_gc_model *m, uint32_t secno)
{
	return m->sps == 1 ? gc_seg_usable(m, secno) : m->cap;
}

void gc_refresh_sec(struct zf2fs_gc_model *m, uint32_t secno)
{
	uint32_t v = gc_sec(m, secno)->valid;
	bool dirty = v > 0 && v < unit_cap(m, secno) && !gc_sec_is_current(m, secno);

	if (dirty != (bool)gc_sec(m, secno)->dirty) {
		gc_secw(m, secno)->dirty = dirty;
		if (dirty)
			m->nr_dirty_units++;
		else
			m->nr_dirty_units--;
	}
	/* the kernel clears a victim mark when the section has no valid block left */
	if (!v && gc_sec(m, secno)->victim) {
		gc_secw(m, secno)->victim = 0;
		m->nr_marked--;
	}
	if (m->ready)
		gc_index_update(m, secno);
}

/* Linux 7.3's date of a section: its segment's mtime, or for a section of several
 * segments the mean of its usable segments' mtimes weighted by their valid blocks;
 * GC_MTIME_NONE when such a section holds no valid block. */
#define GC_MTIME_NONE UINT64_MAX
static uint64_t sec_mtime_weighted(const struct zf2fs_gc_model *m, uint32_t secno)
{
	uint64_t sum = 0, valid = 0;

	if (m->sps == 1)
		return gc_seg(m, secno)->mtime;
	for (uint32_t i = 0; i < m->usegs; i++) {
		const struct gc_seg *g = gc_seg(m, secno * m->sps + i);

		sum += g->mtime * g->valid;
		valid += g->valid;
	}
	if (!valid)
		return GC_MTIME_NONE;
	sum /= valid;
	return sum == GC_MTIME_NONE ? sum - 1 : sum;
}

uint64_t gc_sec_mtime_cb(const struct zf2fs_gc_model *m, uint32_t secno)
{
	uint64_t sum = 0;

	if (m->kernel == ZF2FS_GC_LINUX_7_3) {
		/* a victim always holds valid blocks; 0 keeps a caller's bounds sane */
		sum = sec_mtime_weighted(m, secno);
		return sum == GC_MTIME_NONE ? 0 : sum;
	}
	for (uint32_t i = 0; i < m->usegs; i++)
		sum += gc_seg(m, secno * m->sps + i)->mtime;
	return sum / m->usegs;
}

uint64_t gc_sec_mtime_all(const struct zf2fs_gc_model *m, uint32_t secno)
{
	uint64_t sum = 0;

	if (m->kernel == ZF2FS_GC_LINUX_7_3)
		return sec_mtime_weighted(m, secno);
	for (uint32_t i = 0; i < m->sps; i++)
		sum += gc_seg(m, secno * m->sps + i)->mtime;
	return sum / m->sps;
}

ZF2FS_EXPORT void zf2fs_gc_model_set_kernel(struct zf2fs_gc_model *m, enum zf2fs_gc_kernel k)
{
	uint64_t min = UINT64_MAX;

	m->kernel = k;
	if (!m->ready)
		return;
	/* as zf2fs_gc_model_ready: the smallest section date at mount */
	for (uint32_t s = 0; s < m->main_secs; s++) {
		uint64_t mt = gc_sec_mtime_all(m, s);

		if (mt < min)
			min = mt;
	}
	m->min_mtime = min;
}

/* The kernel's defaults (super.c and the GC thread's start in gc.c): the zoned ones are
 * what a zoned volume always has, the kernel refusing to mount it without the thread. */
static uint32_t knob_default(const struct zf2fs_gc_model *m, enum zf2fs_gc_knob k)
{
	bool zoned = m->knob_set[ZF2FS_GC_KNOB_ZONED] && m->knob[ZF2FS_GC_KNOB_ZONED];

	switch (k) {
	case ZF2FS_GC_KNOB_MIGRATION_GRANULARITY:
		return m->sps;
	case ZF2FS_GC_KNOB_MIGRATION_WINDOW:
		return zoned ? 3 : m->sps;
	case ZF2FS_GC_KNOB_BOOST_ZONED_GC_PERCENT:
		return zoned ? 25 : 0;
	case ZF2FS_GC_KNOB_BOOST_GC_MULTIPLE:
		return 5;
	case ZF2FS_GC_KNOB_ZONED:
	default:
		return 0;
	}
}

ZF2FS_EXPORT uint32_t zf2fs_gc_model_knob(const struct zf2fs_gc_model *m, enum zf2fs_gc_knob k)
{
	if ((unsigned)k >= ZF2FS_GC_NR_KNOBS)
		return 0;
	return m->knob_set[k] ? m->knob[k] : knob_default(m, k);
}

ZF2FS_EXPORT int zf2fs_gc_model_set_knob(struct zf2fs_gc_model *m, enum zf2fs_gc_knob k,
					 uint32_t value)
{
	uint32_t lo = 1, hi = m->sps;

	switch (k) {
	case ZF2FS_GC_KNOB_ZONED:
		lo = 0;
		hi = 1;
		break;
	case ZF2FS_GC_KNOB_BOOST_ZONED_GC_PERCENT:
		lo = 0;
		hi = 100;
		break;
	case ZF2FS_GC_KNOB_MIGRATION_GRANULARITY:
	case ZF2FS_GC_KNOB_MIGRATION_WINDOW:
	case ZF2FS_GC_KNOB_BOOST_GC_MULTIPLE:
		break;
	default:
		return -EINVAL;
	}
	if (value < lo || value > hi)
		return -EINVAL;
	m->knob[k] = value;
	m->knob_set[k] = 1;
	return 0;
}

ZF2FS_EXPORT void zf2fs_gc_params_init(struct zf2fs_gc_params *p, enum zf2fs_gc_type gc_type)
{
	memset(p, 0, sizeof(*p));
	p->gc_type = gc_type;
	p->policy = ZF2FS_GC_POLICY_DEFAULT;
	p->alloc = ZF2FS_GC_LFS;
	p->ssr_type = ZF2FS_LOG_COLD_DATA;
	p->window = ZF2FS_GC_WIN_KERNEL;
	p->window_n = 4096;
	p->max_search = 4096;
	p->engine = ZF2FS_GC_ENGINE_INDEX;
	p->scan_below = 64;
	p->fg_shortcut = true;
	p->lfs_mode = true;
}

ZF2FS_EXPORT int zf2fs_gc_model_new(const struct zf2fs_gc_geom *g, struct zf2fs_gc_model **ret)
{
	struct zf2fs_gc_model *m;
	uint64_t segs;

	*ret = NULL;
	if (!g->main_secs || !g->segs_per_sec || g->segs_per_sec > 512 ||
	    g->log_blocks_per_seg < 1 || g->log_blocks_per_seg > 9)
		return -EINVAL;
	segs = (uint64_t)g->main_secs * g->segs_per_sec;
	if (segs > UINT32_MAX / 2 ||
	    g->unusable_blocks_per_sec >= (g->segs_per_sec << g->log_blocks_per_seg))
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->main_secs = g->main_secs;
	m->sps = g->segs_per_sec;
	m->total_segs = (uint32_t)segs;
	m->log_bps = g->log_blocks_per_seg;
	m->bps = 1u << g->log_blocks_per_seg;
	m->unusable = g->unusable_blocks_per_sec;
	m->cap = m->sps * m->bps - m->unusable;
	m->usegs = m->sps - m->unusable / m->bps;
	m->rsvd_segments = g->rsvd_segments;
	m->ovp_segments = g->ovp_segments;
	m->reserved_secs = g->rsvd_segments / m->sps;
	m->elapsed_time = g->elapsed_time;
	m->seg_nchunks = (uint32_t)((segs + GC_SEG_CHUNK - 1) >> GC_SEG_CHUNK_SHIFT);
	m->seg_chunk = calloc(m->seg_nchunks, sizeof(*m->seg_chunk));
	m->sec_nchunks = (m->main_secs + GC_SEG_CHUNK - 1) >> GC_SEG_CHUNK_SHIFT;
	m->sec_chunk = calloc(m->sec_nchunks, sizeof(*m->sec_chunk));
	if (!m->seg_chunk || !m->sec_chunk) {
		zf2fs_gc_model_free(m);
		return -ENOMEM;
	}
	for (int i = 0; i < GC_NR_LOGS; i++)
		m->cur_seg[i] = GC_NULL;
	m->next_victim[ZF2FS_GC_BG] = m->next_victim[ZF2FS_GC_FG] = GC_NULL;
	*ret = m;
	return 0;
}

ZF2FS_EXPORT void zf2fs_gc_model_free(struct zf2fs_gc_model *m)
{
	if (!m)
		return;
	gc_index_free(&m->idx);
	for (uint32_t i = 0; m->seg_chunk && i < m->seg_nchunks; i++)
		free(m->seg_chunk[i]);
	free(m->seg_chunk);
	free(m->cp_list);
	for (uint32_t i = 0; m->sec_chunk && i < m->sec_nchunks; i++)
		free(m->sec_chunk[i]);
	free(m->sec_chunk);
	free(m);
}

ZF2FS_EXPORT int zf2fs_gc_model_set_segment(struct zf2fs_gc_model *m, uint32_t segno,
					    uint32_t valid, uint32_t type, uint64_t mtime)
{
	struct gc_seg *g;

	if (segno >= m->total_segs)
		return -ERANGE;
	if (valid > gc_seg_usable(m, segno) || type > 7)
		return -EINVAL;
	if (gc_seg_alloc(m, segno))
		return -ENOMEM;
	g = gc_segw(m, segno);
	g->valid = (uint16_t)valid;
	g->ckpt_valid = (uint16_t)valid;
	cp_note(m, segno);
	g->type = (uint8_t)type;
	g->mtime = mtime;
	return 0;
}

ZF2FS_EXPORT int zf2fs_gc_model_set_curseg(struct zf2fs_gc_model *m, int log, uint32_t segno,
					   uint32_t blkoff)
{
	if (log < 0 || log >= GC_NR_LOGS || blkoff > m->bps)
		return -EINVAL;
	if (segno >= m->total_segs)
		return -ERANGE;
	/* a current segment is written to: its records must exist */
	if (gc_seg_alloc(m, segno) || gc_sec_alloc(m, segno / m->sps))
		return -ENOMEM;
	m->cur_seg[log] = segno;
	m->cur_off[log] = blkoff;
	return 0;
}

ZF2FS_EXPORT int zf2fs_gc_model_ready(struct zf2fs_gc_model *m)
{
	uint64_t min = UINT64_MAX;

	m->nr_dirty_units = 0;
	m->free_secs = 0;
	m->prefree_segs = 0;
	for (uint32_t s = 0; s < m->main_secs; s++) {
		uint32_t v = 0;
		uint64_t mt;

		for (uint32_t i = 0; i < m->sps; i++) {
			v += gc_seg(m, s * m->sps + i)->valid;
			m->prefree_segs += gc_seg(m, s * m->sps + i)->prefree;
		}
		/* written only when they change: the pages of free sections stay untouched */
		if (gc_sec(m, s)->valid != v)
			gc_secw(m, s)->valid = v;
		if (gc_sec(m, s)->dirty)
			gc_secw(m, s)->dirty = 0;
		gc_refresh_sec(m, s);
		if (sec_is_free(m, s))
			m->free_secs++;
		/* mount: the smallest section average over all sections, free ones too */
		mt = gc_sec_mtime_all(m, s);
		if (mt < min)
			min = mt;
	}
	m->min_mtime = min;
	m->max_mtime = m->elapsed_time;
	for (int i = 0; i < 5; i++)
		m->last_victim[i] = 0;
	m->next_victim[ZF2FS_GC_BG] = m->next_victim[ZF2FS_GC_FG] = GC_NULL;
	m->ready = true;
	return m->oom ? -ENOMEM : 0;
}

static int set_from_sit(struct zf2fs_gc_model *m, const struct zf2fs_log *log, uint32_t segno,
			const struct zf2fs_sit_entry *se)
{
	uint32_t vb = (uint32_t)zf2fs_get(se->vblocks);
	uint32_t valid = vb & ZF2FS_SIT_VBLOCKS_MASK, type = vb >> ZF2FS_SIT_VBLOCKS_BITS;
	int err;

	if (m->unusable && valid <= m->bps && valid > gc_seg_usable(m, segno)) {
		zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "segment %u holds %u valid blocks, more than "
			   "the %u below the zone capacity of %u blocks: wrong zone capacity?",
			   segno, valid, gc_seg_usable(m, segno), m->cap);
		return -EINVAL;
	}
	err = zf2fs_gc_model_set_segment(m, segno, valid, type, zf2fs_get(se->mtime));
	if (err == -ENOMEM)
		return err;
	if (err) {
		zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "corrupt SIT entry: segment %u, %u valid blocks "
			   "of type %u", segno, valid, type);
		return -ZF2FS_EFSCORRUPTED;
	}
	return 0;
}

static bool sit_entry_zero(const struct zf2fs_sit_entry *se)
{
	static const struct zf2fs_sit_entry zero;

	return !memcmp(se, &zero, sizeof(zero));
}

struct sit_load {
	struct zf2fs_gc_model *m;
	const struct zf2fs_log *log;
};

static int model_sit_block(void *arg, uint32_t idx, uint32_t first, uint32_t cnt,
			   const struct zf2fs_sit_entry *e)
{
	struct sit_load *l = arg;
	int err = 0;

	(void)idx;
	for (uint32_t k = 0; k < cnt && !err; k++)
		/* a never-used segment is what the model starts with: leaving it alone keeps
		 * it without a record (see gc_seg) */
		if (!sit_entry_zero(&e[k]))
			err = set_from_sit(l->m, l->log, first + k, &e[k]);
	return err;
}

/*
 * The SIT straight into the model (zf2fs_sit_read_blocks, lib/read/volume.c: the live
 * copy of each block per the checkpoint's bitmap, runs of consecutive blocks read at
 * once), then the checkpoint's SIT journal on top.  Streaming keeps memory at the model's
 * size on huge volumes.
 */
static int load_sit(struct zf2fs_vol *vol, const struct zf2fs_log *log, struct zf2fs_gc_model *m)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	const struct zf2fs_geom *g = zf2fs_vol_geom(vol);
	const struct zf2fs_journal *j = zf2fs_vol_sit_journal(vol);
	uint32_t segs = m->total_segs, nblocks = zf2fs_geom_sit_blocks(g, segs);
	uint32_t nj = (uint32_t)zf2fs_get(j->n_entries);
	struct sit_load l = { m, log };
	int err;

	if (nblocks > vi->sit_blocks) {
		zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "corrupt superblock: SIT area, %u blocks cannot "
			   "cover %u segments", vi->sit_blocks, segs);
		return -ZF2FS_EFSCORRUPTED;
	}
	if (nj > g->sit_journal_entries) {
		zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "corrupt checkpoint: SIT journal, %u entries",
			   nj);
		return -ZF2FS_EFSCORRUPTED;
	}
	err = zf2fs_sit_read_blocks(vol, segs, model_sit_block, &l);
	for (uint32_t k = 0; k < nj && !err; k++) {
		const struct zf2fs_sit_journal_entry *je = zf2fs_journal_sit(j, k);
		uint32_t segno = (uint32_t)zf2fs_get(je->segno);

		if (segno >= segs) {
			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "corrupt checkpoint: SIT journal entry %u, "
				   "segment %u of %u", k, segno, segs);
			return -ZF2FS_EFSCORRUPTED;
		}
		err = set_from_sit(m, log, segno, &je->se);
	}
	return err;
}

/* Blocks per section past the zone capacity of a zoned volume (see gc.h). */
static int zone_unusable(struct zf2fs_vol *vol, const struct zf2fs_log *log, uint32_t cap,
			 uint32_t *ret)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	uint64_t sec_blocks = (uint64_t)vi->segs_per_sec * vi->blocks_per_seg;
	int err;

	*ret = 0;
	if (!zf2fs_vol_is_zoned(vol))
		return 0;
	if (cap) {
		if (cap > sec_blocks) {
			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "zone capacity of %u blocks is above "
				   "the section size (%llu blocks)", cap,
				   (unsigned long long)sec_blocks);
			return -EINVAL;
		}
		*ret = (uint32_t)(sec_blocks - cap);
		return 0;
	}
	err = zf2fs_vol_zone_unusable(vol, ret);
	if (err == -ENODEV || err == -ENOTSUP) {
		zf2fs_logf(log, ZF2FS_MSG_WARNING, 0, "zoned volume, zone capacity unknown (%s): "
			   "taken as the zone size; give it when it is smaller",
			   err == -ENODEV ? "no device reports zones" : "no libzbd in this build");
		return 0;
	}
	if (err == -EINVAL)
		zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "zones of unequal capacity, or not one "
			   "section each: the kernel does not mount such a volume");
	return err;
}

ZF2FS_EXPORT int zf2fs_gc_model_load(struct zf2fs_vol *vol, const struct zf2fs_log *log,
				     struct zf2fs_gc_model **ret)
{
	return zf2fs_gc_model_load_cap(vol, log, 0, ret);
}

ZF2FS_EXPORT int zf2fs_gc_model_load_cap(struct zf2fs_vol *vol, const struct zf2fs_log *log,
					 uint32_t zone_cap, struct zf2fs_gc_model **ret)
{
	const struct zf2fs_vol_info *vi = zf2fs_vol_info(vol);
	const struct zf2fs_checkpoint *cp = zf2fs_vol_checkpoint(vol);
	const struct zf2fs_super *sb = zf2fs_vol_super(vol);
	struct zf2fs_gc_model *m = NULL;
	struct zf2fs_gc_geom g;
	uint32_t log_bps = (uint32_t)zf2fs_get(sb->log_blocks_per_seg);
	int err;

	*ret = NULL;
	memset(&g, 0, sizeof(g));
	g.main_secs = vi->main_secs;
	g.segs_per_sec = vi->segs_per_sec;
	g.log_blocks_per_seg = log_bps;
	g.rsvd_segments = (uint32_t)zf2fs_get(cp->rsvd_segment_count);
	g.ovp_segments = (uint32_t)zf2fs_get(cp->overprov_segment_count);
	g.elapsed_time = zf2fs_get(cp->elapsed_time);
	err = zone_unusable(vol, log, zone_cap, &g.unusable_blocks_per_sec);
	if (err)
		return err;
	if ((uint64_t)vi->main_secs * vi->segs_per_sec > vi->main_segs || log_bps != 9) {
		zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "corrupt superblock: main area, %u sections "
			   "of %u segments in %u segments", vi->main_secs, vi->segs_per_sec,
			   vi->main_segs);
		return -ZF2FS_EFSCORRUPTED;
	}
	err = zf2fs_gc_model_new(&g, &m);
	if (err == -EINVAL) {
		zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "corrupt superblock: geometry out of range, "
			   "%u sections of %u segments", vi->main_secs, vi->segs_per_sec);
		return -ZF2FS_EFSCORRUPTED;
	}
	if (err)
		return err;
	m->log_blocksize = zf2fs_vol_geom(vol)->log_blocksize;
	if (zf2fs_vol_is_zoned(vol))
		zf2fs_gc_model_set_knob(m, ZF2FS_GC_KNOB_ZONED, 1);
	err = load_sit(vol, log, m);
	if (err)
		goto out;
	for (int i = 0; i < GC_NR_LOGS; i++) {
		uint32_t segno, blkoff;

		zf2fs_vol_curseg(vol, i, &segno, &blkoff);
		err = zf2fs_gc_model_set_curseg(m, i, segno, blkoff);
		if (err == -ENOMEM)
			goto out;
		if (err) {
			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "corrupt checkpoint: current segment "
				   "of log %d, segment %u offset %u", i, segno, blkoff);
			err = -ZF2FS_EFSCORRUPTED;
			goto out;
		}
	}
	err = zf2fs_gc_model_ready(m);
out:
	if (err) {
		zf2fs_gc_model_free(m);
		return err;
	}
	*ret = m;
	return 0;
}

ZF2FS_EXPORT int zf2fs_gc_model_segment(const struct zf2fs_gc_model *m, uint32_t segno,
					struct zf2fs_gc_seginfo *ret)
{
	if (segno >= m->total_segs)
		return -ERANGE;
	ret->valid_blocks = gc_seg(m, segno)->valid;
	ret->ckpt_valid_blocks = gc_seg(m, segno)->ckpt_valid;
	ret->type = gc_seg(m, segno)->type;
	ret->mtime = gc_seg(m, segno)->mtime;
	if (seg_is_current(m, segno))
		ret->state = ZF2FS_GC_SEG_CURRENT;
	else if (gc_seg(m, segno)->prefree)
		ret->state = ZF2FS_GC_SEG_PREFREE;
	else if (!gc_seg(m, segno)->valid)
		ret->state = ZF2FS_GC_SEG_FREE;
	else if (gc_seg(m, segno)->valid < gc_seg_usable(m, segno))
		ret->state = ZF2FS_GC_SEG_DIRTY;
	else
		ret->state = ZF2FS_GC_SEG_FULL;
	return 0;
}

ZF2FS_EXPORT int zf2fs_gc_model_set_last_victim(struct zf2fs_gc_model *m,
						enum zf2fs_gc_policy policy, uint32_t segno)
{
	if (policy < ZF2FS_GC_CB || policy > ZF2FS_GC_AT)
		return -EINVAL;
	m->last_victim[policy] = segno % m->total_segs;
	return 0;
}

ZF2FS_EXPORT uint32_t zf2fs_gc_model_last_victim(const struct zf2fs_gc_model *m,
						 enum zf2fs_gc_policy policy)
{
	if (policy < ZF2FS_GC_CB || policy > ZF2FS_GC_AT)
		return 0;
	return m->last_victim[policy];
}

/* ---- foreground collection ------------------------------------------------------------ */

/* The kernel's segment mtime update, made before a valid count changes. */
static void touch_mtime(struct zf2fs_gc_model *m, uint32_t segno, uint64_t t)
{
	uint64_t old = gc_seg(m, segno)->mtime;
	uint32_t v = gc_seg(m, segno)->valid;

	if (old != t)
		gc_segw(m, segno)->mtime = zf2fs_seg_mtime_next(old, v, t);
	if (t > m->max_mtime)
		m->max_mtime = t;
}

static void set_sec_free_state(struct zf2fs_gc_model *m, uint32_t secno, bool was_free)
{
	bool now_free = sec_is_free(m, secno);

	if (was_free && !now_free) {
		m->free_secs--;
	} else if (!was_free && now_free) {
		m->free_secs++;
		/* Linux 7.3 forgets where a call was to continue a section that became free */
		for (int t = ZF2FS_GC_BG; m->kernel == ZF2FS_GC_LINUX_7_3 && t <= ZF2FS_GC_FG; t++)
			if (m->next_victim[t] != GC_NULL && m->next_victim[t] / m->sps == secno)
				m->next_victim[t] = GC_NULL;
	}
}

/* New segment for log @l whose current segment is full (new_curseg, LFS, no_heap). */
static int new_segment(struct zf2fs_gc_model *m, int l)
{
	uint32_t old = m->cur_seg[l], hint, secno, segno = GC_NULL;

	if (m->alloc_hook) {
		int r = m->alloc_hook(m->hook_arg, l);

		if (r)
			return r < 0 ? r : 0;
	}
	m->ssr[l] = 0;
	if (m->sps > 1 || l == ZF2FS_LOG_WARM_DATA || l == ZF2FS_LOG_COLD_DATA)
		hint = old;
	else
		hint = 0;
	if (hint == GC_NULL)
		hint = 0;
	if ((hint + 1) % m->sps) {
		uint32_t end = (hint / m->sps + 1) * m->sps;

		/* segments past the zone capacity are never allocated */
		for (uint32_t s = hint + 1; s < end; s++)
			if (!seg_in_use(m, s) && gc_seg_usable(m, s)) {
				segno = s;
				break;
			}
	}
	if (segno == GC_NULL) {
		uint32_t h = hint / m->sps;

		for (secno = h; secno < m->main_secs && !sec_is_free(m, secno); secno++)
			;
		if (secno >= m->main_secs)
			for (secno = 0; secno < h && !sec_is_free(m, secno); secno++)
				;
		if (secno >= m->main_secs || !sec_is_free(m, secno))
			return -ENOSPC;
		segno = secno * m->sps;
	}
	if (gc_seg_alloc(m, segno) || gc_sec_alloc(m, segno / m->sps))
		return -ENOMEM;
	{
		uint32_t nsec = segno / m->sps;
		bool was_free = sec_is_free(m, nsec);

		m->cur_seg[l] = segno;
		m->cur_off[l] = 0;
		set_sec_free_state(m, nsec, was_free);
		gc_refresh_sec(m, nsec);
	}
	/* the closed segment is located again now that it is not current */
	if (old != GC_NULL)
		gc_refresh_sec(m, old / m->sps);
	return 0;
}

/* The log's next block: the next one in an LFS segment, the next free slot in SSR. */
static inline void next_off(struct zf2fs_gc_model *m, int l)
{
	if (m->ssr[l])
		m->cur_off[l] = m->next_free_hook(m->hook_arg, m->cur_seg[l], m->cur_off[l] + 1);
	else
		m->cur_off[l]++;
}

static void dec_valid(struct zf2fs_gc_model *m, uint32_t segno)
{
	cp_note(m, segno);
	gc_segw(m, segno)->valid--;
	gc_secw(m, segno / m->sps)->valid--;
	if (!gc_seg(m, segno)->valid && !seg_is_current(m, segno)) {
		gc_segw(m, segno)->prefree = 1;
		m->prefree_segs++;
	}
}

/* ---- one block written to a log (GC moves and appends alike) ------------------------- */
/* Log @l has a segment with room, taking a new one when it has none or is full. */
static int log_ready(struct zf2fs_gc_model *m, int l)
{
	if (m->cur_seg[l] == GC_NULL || m->cur_off[l] >= gc_seg_usable(m, m->cur_seg[l]))
		return new_segment(m, l);
	return 0;
}

/* Account the block just written at log @l's position in segment @dst. */
static void log_count_write(struct zf2fs_gc_model *m, int l, uint32_t dst)
{
	cp_note(m, dst);
	gc_segw(m, dst)->valid++;
	if (gc_seg(m, dst)->ckpt_valid < m->bps)
		gc_segw(m, dst)->ckpt_valid++;
	gc_secw(m, dst / m->sps)->valid++;
	gc_segw(m, dst)->type = (uint8_t)l;
	next_off(m, l);
}

/* A log whose segment @dst just filled takes its next segment at once. */
static int log_full_next(struct zf2fs_gc_model *m, int l, uint32_t dst)
{
	return m->cur_off[l] >= gc_seg_usable(m, dst) ? new_segment(m, l) : 0;
}

int gc_collect_fg(struct zf2fs_gc_model *m, uint32_t secno, uint64_t now)
{
	return gc_collect_fg_from(m, secno, 0, now);
}

int gc_collect_fg_from(struct zf2fs_gc_model *m, uint32_t secno, uint32_t first, uint64_t now)
{
	int moved = 0, err;

	/* pages background GC dirtied are written now (a call continuing the section
	 * after them leaves them) */
	if (!first && (gc_sec(m, secno)->bg_data || gc_sec(m, secno)->bg_node)) {
		struct gc_sec *g = gc_secw(m, secno);

		m->dirty_data -= g->bg_data < m->dirty_data ? g->bg_data : m->dirty_data;
		m->dirty_node -= g->bg_node < m->dirty_node ? g->bg_node : m->dirty_node;
		g->bg_data = g->bg_node = 0;
	}

	for (uint32_t i = first; i < m->usegs; i++) {
		uint32_t src = secno * m->sps + i;
		int l = gc_seg(m, src)->type >= ZF2FS_LOG_HOT_NODE && gc_seg(m, src)->type <= ZF2FS_LOG_COLD_NODE ?
			gc_seg(m, src)->type : ZF2FS_LOG_COLD_DATA;

		/* moved data blocks dirty their node pages: at least one */
		if (gc_seg(m, src)->valid && l == ZF2FS_LOG_COLD_DATA)
			m->dirty_node++;
		while (gc_seg(m, src)->valid) {
			uint32_t dst;

			err = log_ready(m, l);
			if (err)
				return err;
			dst = m->cur_seg[l];
			if (m->move_run_hook && m->no_mtime && !m->ssr[l]) {
				/* as many blocks as the destination segment takes, in one go:
				 * the counts below are what the per-block path adds up to */
				uint32_t room = gc_seg_usable(m, dst) - m->cur_off[l];
				uint32_t n = gc_seg(m, src)->valid < room ? gc_seg(m, src)->valid : room;

				m->move_run_hook(m->hook_arg, src, dst * m->bps + m->cur_off[l], n);
				cp_note(m, dst);
				cp_note(m, src);
				gc_segw(m, dst)->valid = (uint16_t)(gc_seg(m, dst)->valid + n);
				gc_segw(m, dst)->ckpt_valid = (uint16_t)(gc_seg(m, dst)->ckpt_valid + n < m->bps ?
							    gc_seg(m, dst)->ckpt_valid + n : m->bps);
				gc_secw(m, dst / m->sps)->valid += n;
				gc_segw(m, dst)->type = (uint8_t)l;
				m->cur_off[l] += n;
				gc_segw(m, src)->valid = (uint16_t)(gc_seg(m, src)->valid - n);
				gc_secw(m, secno)->valid -= n;
				if (!gc_seg(m, src)->valid && !seg_is_current(m, src)) {
					gc_segw(m, src)->prefree = 1;
					m->prefree_segs++;
				}
				moved += (int)n;
				err = log_full_next(m, l, dst);
				if (err)
					return err;
				continue;
			}
			if (m->move_hook)
				m->move_hook(m->hook_arg, src, dst * m->bps + m->cur_off[l]);
			if (!m->no_mtime) {
				touch_mtime(m, src, now);
				touch_mtime(m, dst, now);
			}
			log_count_write(m, l, dst);
			dec_valid(m, src);
			moved++;
			err = log_full_next(m, l, dst);
			if (err)
				return err;
		}
	}
	gc_refresh_sec(m, secno);
	for (int l = 0; l < GC_NR_LOGS; l++)
		if (m->cur_seg[l] != GC_NULL)
			gc_refresh_sec(m, m->cur_seg[l] / m->sps);
	return moved;
}

int64_t gc_log_append(struct zf2fs_gc_model *m, int l, uint64_t now)
{
	uint32_t dst, off;
	int err;

	err = log_ready(m, l);
	if (err)
		return err;
	dst = m->cur_seg[l];
	off = m->cur_off[l];
	if (!m->no_mtime)
		touch_mtime(m, dst, now);
	log_count_write(m, l, dst);
	err = log_full_next(m, l, dst);
	if (err)
		return err;
	return (int64_t)dst * m->bps + off;
}

void gc_invalidate(struct zf2fs_gc_model *m, uint32_t segno, uint64_t now)
{
	if (!m->no_mtime)
		touch_mtime(m, segno, now);
	dec_valid(m, segno);
}

ZF2FS_EXPORT uint32_t zf2fs_gc_checkpoint(struct zf2fs_gc_model *m)
{
	uint32_t n = 0;

	if (m->cp_hook)
		m->cp_hook(m->hook_arg);

	/* only segments whose counts changed since the last checkpoint can be prefree or
	 * have a checkpointed count to bring up to date */
	for (uint32_t k = 0; k < cp_count(m); k++) {
		uint32_t sec = cp_seg(m, k) / m->sps;
		bool was_free;

		if (!gc_seg(m, cp_seg(m, k))->prefree)
			continue;
		/* the first prefree segment of a section met frees all of the section's */
		was_free = sec_is_free(m, sec);
		for (uint32_t i = 0; i < m->sps; i++) {
			uint32_t seg = sec * m->sps + i;

			if (gc_seg(m, seg)->prefree) {
				gc_segw(m, seg)->prefree = 0;
				n++;
			}
		}
		set_sec_free_state(m, sec, was_free);
	}
	for (uint32_t k = 0; k < cp_count(m); k++) {
		uint32_t seg = cp_seg(m, k);
		struct gc_seg *g;

		if (!gc_seg(m, seg)->cp_mark)
			continue;  /* cp_all: unchanged (and never-used) segments stay as they are */
		g = gc_segw(m, seg);
		g->ckpt_valid = g->valid;
		g->cp_mark = 0;
	}
	m->cp_n = 0;
	m->cp_all = false;
	m->prefree_segs = 0;
	m->dirty_node = 0;
	/* node pages are written by the checkpoint; only sections in use have records */
	for (uint32_t i = 0; i < m->sec_nchunks; i++)
		for (uint32_t j = 0; m->sec_chunk[i] && j < GC_SEG_CHUNK; j++)
			m->sec_chunk[i][j].bg_node = 0;
	return n;
}

/* ---- summary ------------------------------------------------------------------------ */

ZF2FS_EXPORT void zf2fs_gc_summarize(const struct zf2fs_gc_model *m, struct zf2fs_gc_summary *r)
{
	memset(r, 0, sizeof(*r));
	r->main_segs = m->total_segs;
	r->main_secs = m->main_secs;
	r->segs_per_sec = m->sps;
	r->blocks_per_seg = m->bps;
	r->blocks_per_sec = m->cap;
	r->rsvd_segments = m->rsvd_segments;
	r->ovp_segments = m->ovp_segments;
	r->reserved_secs = m->reserved_secs;
	r->ovp_secs = m->ovp_segments / m->sps;
	r->elapsed_time = m->elapsed_time;
	r->min_mtime = UINT64_MAX;
	for (uint32_t s = 0; s < m->total_segs; s++) {
		struct zf2fs_gc_seginfo si;

		zf2fs_gc_model_segment(m, s, &si);
		switch (si.state) {
		case ZF2FS_GC_SEG_FREE: r->free_segs++; break;
		case ZF2FS_GC_SEG_DIRTY: r->dirty_segs++; break;
		case ZF2FS_GC_SEG_FULL: r->full_segs++; break;
		case ZF2FS_GC_SEG_PREFREE: r->prefree_segs++; break;
		case ZF2FS_GC_SEG_CURRENT: break;
		}
		r->valid_blocks += gc_seg(m, s)->valid;
		if (gc_seg(m, s)->mtime && gc_seg(m, s)->valid) {
			if (gc_seg(m, s)->mtime < r->min_mtime)
				r->min_mtime = gc_seg(m, s)->mtime;
			if (gc_seg(m, s)->mtime > r->max_mtime)
				r->max_mtime = gc_seg(m, s)->mtime;
		}
	}
	if (r->min_mtime == UINT64_MAX)
		r->min_mtime = 0;
	for (uint32_t s = 0; s < m->main_secs; s++) {
		uint32_t v = gc_sec(m, s)->valid;
		bool pre = false;

		for (uint32_t i = 0; i < m->sps; i++)
			pre |= gc_seg(m, s * m->sps + i)->prefree;
		if (gc_sec_is_current(m, s))
			r->current_secs++;
		else if (sec_is_free(m, s))
			r->free_secs++;
		else if (gc_sec(m, s)->dirty) {
			uint32_t b = (uint32_t)((uint64_t)v * ZF2FS_GC_HIST_BUCKETS / unit_cap(m, s));

			r->dirty_secs++;
			r->hist[b < ZF2FS_GC_HIST_BUCKETS ? b : ZF2FS_GC_HIST_BUCKETS - 1]++;
		} else if (!v && pre)
			r->prefree_secs++;
		else
			r->full_secs++;
	}
	/* free sections as the kernel counts them: no segment in use (prefree is in use) */
	r->fg_distance = (int64_t)r->free_secs - (int64_t)r->reserved_secs;
	for (int i = 0; i < 8; i++) {
		r->cur_segno[i] = i < GC_NR_LOGS ? m->cur_seg[i] : GC_NULL;
		r->cur_blkoff[i] = i < GC_NR_LOGS ? m->cur_off[i] : 0;
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

ZF2FS_EXPORT int zf2fs_gc_blocks_to_reclaim(const struct zf2fs_gc_model *m, uint32_t k,
					    uint64_t *ret_blocks, uint32_t *ret_secs)
{
	uint32_t *v, n = 0;
	uint64_t sum = 0;

	*ret_blocks = 0;
	*ret_secs = 0;
	v = malloc(((size_t)m->nr_dirty_units + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (uint32_t s = 0; s < m->main_secs; s++)
		if (gc_sec(m, s)->dirty)
			v[n++] = gc_sec(m, s)->valid;
	qsort(v, n, sizeof(*v), cmp_u32);
	for (uint32_t i = 0; i < n && i < k; i++)
		sum += v[i];
	*ret_blocks = sum;
	*ret_secs = n < k ? n : k;
	free(v);
	return 0;
}

ZF2FS_EXPORT const char *zf2fs_gc_policy_name(enum zf2fs_gc_policy policy)
{
	switch (policy) {
	case ZF2FS_GC_CB: return "cb";
	case ZF2FS_GC_GREEDY: return "greedy";
	case ZF2FS_GC_AT: return "atgc";
	default: return "default";
	}
}

ZF2FS_EXPORT const char *zf2fs_gc_type_name(enum zf2fs_gc_type type)
{
	return type == ZF2FS_GC_FG ? "fg" : "bg";
}
