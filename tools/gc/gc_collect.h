/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gc_collect.h - gc.f2fs collect (tools/gc/gc_collect.c), called by tools/gc/gc.c's parser. */
#ifndef GC_COLLECT_H
#define GC_COLLECT_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/gc.h"
#include "gc_bgthread.h"

struct gc_collect_opts {
	const char *const *devices;     /* [0]: the image */
	unsigned ndevices;
	struct zf2fs_gc_params p;       /* foreground calls, policy as given */
	uint32_t sections;              /* -n: victims to collect */
	uint32_t until_free;            /* --until-free: 0 unless given */
	uint32_t zone_cap_blocks;       /* --zone-capacity in 4 KiB; 0: ask the devices */
	uint64_t batch_blocks;          /* per checkpoint; 0: zs_move_batch_blocks's default */
	enum zf2fs_gc_kernel kernel;    /* --kernel: whose victims */
	const struct gc_knobs *knobs;   /* --knob */
	bool json, dry_run;
	int verbose;
	bool progress_bar;              /* --progress: a bar on a terminal */
	int progress_fd;                /* --progress-fd: lines for a front-end; -1 none */
};

/* tools/gc/gc.c: the library's last error kept (a zf2fs_log callback with a struct
 * last_error as its argument), so that a failure prints as one line. */
struct last_error {
	char msg[512];
};

void log_keep(void *arg, enum zf2fs_msg_kind kind, const char *msg);
void print_error(const struct last_error *le, int err, const char *doing, const char *image);

/* --zone-capacity @cap4k (4 KiB units, 0: none) in blocks of @vol into @ret; -EINVAL,
 * with the reason in @le, when it is no whole number of them. */
struct zf2fs_vol;
int gc_zone_cap(const struct zf2fs_vol *vol, uint32_t cap4k, uint32_t *ret,
		struct last_error *le);

/* Returns the exit status: 0, 1 (no victim), 8 (operational error). */
int gc_collect_run(const struct gc_collect_opts *o);

#endif
