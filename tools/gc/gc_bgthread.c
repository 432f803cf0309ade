// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gc_bgthread.c - gc.f2fs state: when the kernel's background GC thread collects.
 *
 * The thread wakes, and when the volume is idle it runs one background pass; what
 * differs between kernels is what decides whether it works and how hard (gc.c and gc.h
 * of each kernel, with their defaults, all sysfs knobs):
 *  - Linux 6.1, and 7.3 on a volume without zones: it runs whenever the volume is idle,
 *    waking every 30 s instead of up to 60 s while the user blocks not valid are more
 *    than 40% of the user blocks and free user blocks (free segments less overprovision)
 *    fewer than 40% of those;
 *  - Linux 7.3 on a zoned volume: it stays idle while more than gc_no_zoned_gc_percent
 *    (60) of the sections are free, and is boosted at gc_boost_zoned_gc_percent (25) or
 *    fewer: greedy passes (gc_boost_gc_greedy) over gc_boost_gc_multiple (5) times the
 *    migration window; a background pass moves at most migration_window_granularity (3)
 *    segments of its victim section.  Linux 7.3 also refuses background_gc=off there.
 */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gc_bgthread.h"

#define LIMIT_INVALID_PCT   40
#define LIMIT_FREE_PCT      40
#define NO_ZONED_GC_PCT     60
#define BOOST_ZONED_GC_PCT  25
#define WINDOW_ZONED        3
#define BOOST_MULTIPLE      5
#define VALID_THRESH_RATIO  80

int gc_kernel_parse(const char *s, enum zf2fs_gc_kernel *ret)
{
	if (!strcmp(s, "6.1"))
		*ret = ZF2FS_GC_LINUX_6_1;
	else if (!strcmp(s, "7.3") || !strcmp(s, "newest"))
		*ret = ZF2FS_GC_LINUX_7_3;
	else
		return -EINVAL;
	return 0;
}

/* the sysfs names of the knobs --knob takes (ZF2FS_GC_KNOB_ZONED is the volume's) */
static const char *const knob_names[ZF2FS_GC_NR_KNOBS] = {
	[ZF2FS_GC_KNOB_MIGRATION_GRANULARITY] = "migration_granularity",
	[ZF2FS_GC_KNOB_MIGRATION_WINDOW] = "migration_window_granularity",
	[ZF2FS_GC_KNOB_BOOST_ZONED_GC_PERCENT] = "gc_boost_zoned_gc_percent",
	[ZF2FS_GC_KNOB_BOOST_GC_MULTIPLE] = "gc_boost_gc_multiple",
};

int gc_knob_parse(const char *prog, const char *s, struct gc_knobs *ks)
{
	const char *eq = strchr(s, '=');
	char *end;
	unsigned long v;

	for (int k = 0; eq && k < ZF2FS_GC_NR_KNOBS; k++) {
		if (!knob_names[k] || strlen(knob_names[k]) != (size_t)(eq - s) ||
		    strncmp(s, knob_names[k], (size_t)(eq - s)))
			continue;
		errno = 0;
		v = strtoul(eq + 1, &end, 10);
		if (errno || end == eq + 1 || *end || eq[1] == '-' || v > UINT32_MAX) {
			fprintf(stderr, "%s: ERROR: --knob %s: value is not a number\n", prog, s);
			return -EINVAL;
		}
		ks->value[k] = (uint32_t)v;
		ks->set[k] = true;
		return 0;
	}
	fprintf(stderr, "%s: ERROR: --knob %s: unknown knob (migration_granularity, "
		"migration_window_granularity, gc_boost_zoned_gc_percent, gc_boost_gc_multiple)\n",
		prog, s);
	return -EINVAL;
}

int gc_knobs_apply(const struct gc_knobs *ks, struct zf2fs_gc_model *m, char *msg, size_t len)
{
	for (int k = 0; k < ZF2FS_GC_NR_KNOBS; k++) {
		if (!ks->set[k])
			continue;
		if (zf2fs_gc_model_set_knob(m, (enum zf2fs_gc_knob)k, ks->value[k])) {
			snprintf(msg, len, "--knob %s=%u: out of the kernel's range on this volume",
				 knob_names[k], ks->value[k]);
			return -EINVAL;
		}
	}
	return 0;
}

const char *gc_kernel_name(enum zf2fs_gc_kernel k)
{
	return k == ZF2FS_GC_LINUX_6_1 ? "6.1" : "7.3";
}

static void zoned_state(FILE *out, bool json, const struct zf2fs_gc_summary *s)
{
	uint32_t idle_above = (uint32_t)((uint64_t)s->main_secs * NO_ZONED_GC_PCT / 100);
	uint32_t boost_at = (uint32_t)((uint64_t)s->main_secs * BOOST_ZONED_GC_PCT / 100);
	const char *now = s->free_secs > idle_above ? "idle" :
			  s->free_secs > boost_at ? "runs" : "boosted";

	if (json) {
		fprintf(out, ", \"background_gc\": {\"kernel\": \"7.3\", \"zoned\": true, "
			"\"idle_above_free_sections\": %u, \"boosted_at_free_sections\": %u, "
			"\"now\": \"%s\", \"knobs\": {\"gc_no_zoned_gc_percent\": %d, "
			"\"gc_boost_zoned_gc_percent\": %d, \"migration_window_granularity\": %d, "
			"\"gc_boost_gc_multiple\": %d, \"gc_boost_gc_greedy\": 1, "
			"\"gc_valid_thresh_ratio\": %d}}", idle_above, boost_at, now,
			NO_ZONED_GC_PCT, BOOST_ZONED_GC_PCT, WINDOW_ZONED, BOOST_MULTIPLE,
			VALID_THRESH_RATIO);
		return;
	}
	fprintf(out, "background GC (Linux 7.3, zoned): idle above %u free sections "
		"(gc_no_zoned_gc_percent %d), boosted at %u or fewer (gc_boost_zoned_gc_percent "
		"%d): %s with %u free\n", idle_above, NO_ZONED_GC_PCT, boost_at,
		BOOST_ZONED_GC_PCT, now, s->free_secs);
	fprintf(out, "  a pass moves at most %d segments of its victim (%d boosted, greedy); "
		"background_gc=off is refused\n", WINDOW_ZONED, WINDOW_ZONED * BOOST_MULTIPLE);
}

void gc_bgthread_state(FILE *out, bool json, enum zf2fs_gc_kernel k, bool zoned,
		       const struct zf2fs_gc_summary *s, uint64_t user_blocks,
		       uint64_t valid_blocks)
{
	uint64_t invalid = user_blocks > valid_blocks ? user_blocks - valid_blocks : 0;
	uint64_t free_blocks = (uint64_t)s->free_segs * s->blocks_per_seg;
	uint64_t ovp_blocks = (uint64_t)s->ovp_segments * s->blocks_per_seg;
	uint64_t free_user = free_blocks > ovp_blocks ? free_blocks - ovp_blocks : 0;
	bool invalid_many = invalid > user_blocks * LIMIT_INVALID_PCT / 100;
	bool free_few = free_user < invalid * LIMIT_FREE_PCT / 100;
	bool faster = invalid_many && free_few;

	if (zoned && k == ZF2FS_GC_LINUX_7_3) {
		zoned_state(out, json, s);
		return;
	}
	if (json) {
		fprintf(out, ", \"background_gc\": {\"kernel\": \"%s\", \"zoned\": %s, "
			"\"not_valid_user_blocks\": %" PRIu64 ", \"free_user_blocks\": %" PRIu64 ", "
			"\"shorter_sleep\": %s}", gc_kernel_name(k), zoned ? "true" : "false",
			invalid, free_user, faster ? "true" : "false");
		return;
	}
	fprintf(out, "background GC (Linux %s): runs when the volume is idle, every %s: "
		"user blocks not valid %" PRIu64 " (%s 40%% of %" PRIu64 "), free user blocks %"
		PRIu64 " (%s 40%% of those)\n", gc_kernel_name(k),
		faster ? "30 s" : "30 to 60 s", invalid, invalid_many ? "over" : "not over",
		user_blocks, free_user, free_few ? "under" : "not under");
}
