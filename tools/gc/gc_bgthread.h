/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gc_bgthread.h - gc.f2fs state: when the kernel's background GC thread works, per kernel. */
#ifndef ZF2FS_TOOLS_GC_BGTHREAD_H
#define ZF2FS_TOOLS_GC_BGTHREAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "zf2fs/gc.h"

/* The kernel --kernel names by default: the newest whose GC gc.f2fs knows. */
#define GC_KERNEL_NEWEST ZF2FS_GC_LINUX_7_3

/* "6.1", "7.3" (or "newest") to @ret; -EINVAL for anything else. */
int gc_kernel_parse(const char *s, enum zf2fs_gc_kernel *ret);
const char *gc_kernel_name(enum zf2fs_gc_kernel k);

/*
 * Print when kernel @k's background GC thread collects on this volume, with its defaults
 * (the sysfs knobs): text lines, or for @json one member starting with ", "
 * ("background_gc": {...}).  @user_blocks and @valid_blocks are the checkpoint's.
 */
void gc_bgthread_state(FILE *out, bool json, enum zf2fs_gc_kernel k, bool zoned,
		       const struct zf2fs_gc_summary *s, uint64_t user_blocks,
		       uint64_t valid_blocks);

/* --knob NAME=VALUE: the kernel's sysfs knobs the GC model follows (zf2fs_gc_model_set_knob)
 * set as given, the last of a name winning. */
struct gc_knobs {
	uint32_t value[ZF2FS_GC_NR_KNOBS];
	bool set[ZF2FS_GC_NR_KNOBS];
};

/* Parse "NAME=VALUE" into @ks; -EINVAL (with a one-line message on stderr) for an unknown
 * name or a value that is no number. */
int gc_knob_parse(const char *prog, const char *s, struct gc_knobs *ks);

/* Set the knobs of @ks on model @m; -EINVAL for a value outside the kernel's range on
 * this volume, with the message (no prefix) in @msg of @len bytes. */
int gc_knobs_apply(const struct gc_knobs *ks, struct zf2fs_gc_model *m, char *msg, size_t len);

#endif
