/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load_p.h - lib/write/load_meta.c for lib/write/load_tree.c: owners, modes, capabilities and
 * SELinux labels from a build's fs_config and file_contexts.
 */
#ifndef ZF2FS_LOAD_P_H
#define ZF2FS_LOAD_P_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/load.h"

#define LOAD_CAPS_BYTES 20u   /* a revision 2 security.capability value */

struct load_meta;

/* What the build says about one path. */
struct load_meta_res {
	bool has_perm;              /* fs_config lists the path: */
	uint32_t uid, gid, mode;    /* mode: the permission bits (07777) */
	uint64_t caps;              /* 0: no security.capability */
	char *label;                /* security.selinux (malloc'd), NULL without -s */
};

/* Read @o->fs_config and open @o->file_contexts (relative to @o->product_out when set);
 * *@ret stays NULL when neither is given.  Errors are logged naming the file; -EINVAL
 * for a malformed line; -EOPNOTSUPP for file_contexts in a build without libselinux. */
int load_meta_open(const struct zf2fs_load_opts *o, const struct zf2fs_log *log,
		   struct load_meta **ret);
void load_meta_close(struct load_meta *m);
/* The settings of volume path @vpath ("/a/b"; file type in @mode).  A path fs_config
 * does not list is an error (logged; -ENOENT) unless @optional, and so is one
 * file_contexts gives no label.  Free @res->label. */
int load_meta_lookup(const struct load_meta *m, const char *vpath, uint32_t mode,
		     bool optional, const struct zf2fs_log *log,
		     struct load_meta_res *res);
/* The security.capability value for capability mask @caps. */
void load_meta_caps_value(uint64_t caps, uint8_t out[LOAD_CAPS_BYTES]);

#endif
