// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * load_meta.c - what a build system says about the files sload.f2fs copies, rather than
 * what the source tree has (include/zf2fs/load.h: fs_config, file_contexts).
 *
 * fs_config is Android's canned text format: one "PATH UID GID MODE [capabilities=N]"
 * per line, PATH relative to the volume's root without its leading '/', UID and GID
 * decimal, MODE octal, N any C integer (the 64-bit capability mask).  A path the
 * build loads and the file does not list is an error, as in Android's tools: a
 * partial config would leave files owned by the build user.  The capabilities become
 * a security.capability xattr (revision 2, effective, the mask as permitted).
 *
 * file_contexts goes through libselinux's selabel_lookup(): its regular expressions,
 * specificity rules and compiled .bin files are libselinux's to read, so a build without
 * libselinux refuses -s rather than guess.
 */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef HAVE_LIBSELINUX
#include <selinux/label.h>
#include <selinux/selinux.h>
#endif

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "write/load_p.h"

struct fs_config_entry {
	char *path;
	uint32_t uid, gid, mode;
	uint64_t caps;
};

struct load_meta {
	struct fs_config_entry *cfg;
	size_t ncfg;
#ifdef HAVE_LIBSELINUX
	struct selabel_handle *sehnd;
#endif
};

ZF2FS_EXPORT bool zf2fs_have_selinux_support(void)
{
#ifdef HAVE_LIBSELINUX
	return true;
#else
	return false;
#endif
}

static int cmp_cfg(const void *a, const void *b)
{
	return strcmp(((const struct fs_config_entry *)a)->path,
		      ((const struct fs_config_entry *)b)->path);
}

/* A decimal or octal field of fs_config: digits only, bounded. */
static bool parse_num(const char *s, int base, uint64_t max, uint64_t *ret)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*ret = strtoull(s, &end, base);
	return !errno && !*end && *ret <= max;
}

static int read_fs_config(struct load_meta *m, const char *file, const struct zf2fs_log *log)
{
	FILE *f = fopen(file, "re");
	char *line = NULL;
	size_t cap = 0, ncap = 0, lineno = 0;
	ssize_t len;
	int err = 0;

	if (!f) {
		err = -errno;
		zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "%s: %s: while opening the fs_config file", file,
			   strerror(errno));
		return err;
	}
	while (!err && (len = getline(&line, &cap, f)) >= 0) {
		char *tok[5] = { 0 }, *save = NULL, *p = line;
		struct fs_config_entry *e;
		uint64_t uid, gid, mode, caps = 0;
		int n = 0;

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		for (char *t = strtok_r(p, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
			if (n < 5)
				tok[n++] = t;
			else
				n++;
		if (n == 0 || tok[0][0] == '#')
			continue;
		if (n > 4 && strncmp(tok[4], "capabilities=", 13) == 0) {
			char *end;

			errno = 0;
			caps = strtoull(tok[4] + 13, &end, 0);
			if (errno || *end || !tok[4][13])
				n = -1;
		} else if (n > 4) {
			n = -1;
		}
		if (n < 4 || n > 5 || !parse_num(tok[1], 10, UINT32_MAX, &uid) ||
		    !parse_num(tok[2], 10, UINT32_MAX, &gid) || !parse_num(tok[3], 8, 07777, &mode)) {
			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0,
				   "%s:%zu: not \"path uid gid mode [capabilities=N]\"", file, lineno);
			err = -EINVAL;
			break;
		}
		if (m->ncfg == ncap) {
			e = realloc(m->cfg, (ncap = ncap ? ncap * 2 : 256) * sizeof(*e));
			if (!e) {
				err = -ENOMEM;
				break;
			}
			m->cfg = e;
		}
		e = &m->cfg[m->ncfg];
		/* canned paths lack the leading '/' (one is tolerated) */
		e->path = strdup(tok[0][0] == '/' ? tok[0] + 1 : tok[0]);
		if (!e->path) {
			err = -ENOMEM;
			break;
		}
		e->uid = (uint32_t)uid;
		e->gid = (uint32_t)gid;
		e->mode = (uint32_t)mode;
		e->caps = caps;
		m->ncfg++;
	}
	free(line);
	fclose(f);
	if (!err && m->ncfg)
		qsort(m->cfg, m->ncfg, sizeof(*m->cfg), cmp_cfg);
	/* the same path twice: which line wins would depend on the sort */
	for (size_t i = 1; !err && i < m->ncfg; i++)
		if (!strcmp(m->cfg[i - 1].path, m->cfg[i].path)) {
			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "%s: \"%s\" is listed twice", file,
				   m->cfg[i].path);
			err = -EINVAL;
		}
	return err;
}

/* @name relative to @dir unless absolute or @dir is NULL; NULL on allocation failure. */
static char *under(const char *dir, const char *name)
{
	char *p;

	if (!dir || name[0] == '/')
		return strdup(name);
	p = malloc(strlen(dir) + strlen(name) + 2);
	if (p)
		sprintf(p, "%s/%s", dir, name);
	return p;
}

int load_meta_open(const struct zf2fs_load_opts *o, const struct zf2fs_log *log,
		   struct load_meta **ret)
{
	struct load_meta *m;
	char *file = NULL;
	int err = 0;

	*ret = NULL;
	if (!o->fs_config && !o->file_contexts)
		return 0;
#ifndef HAVE_LIBSELINUX
	if (o->file_contexts) {
		zf2fs_logf(log, ZF2FS_MSG_ERROR, 0,
			   "%s: file_contexts needs libselinux, and this build has none (configure --with-selinux)",
			   o->file_contexts);
		return -EOPNOTSUPP;
	}
#endif
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	if (o->fs_config) {
		file = under(o->product_out, o->fs_config);
		err = file ? read_fs_config(m, file, log) : -ENOMEM;
		free(file);
	}
#ifdef HAVE_LIBSELINUX
	if (!err && o->file_contexts) {
		struct selinux_opt opt = { SELABEL_OPT_PATH, NULL };

		file = under(o->product_out, o->file_contexts);
		opt.value = file;
		if (!file) {
			err = -ENOMEM;
		} else {
			m->sehnd = selabel_open(SELABEL_CTX_FILE, &opt, 1);
			if (!m->sehnd) {
				err = errno ? -errno : -EINVAL;
				zf2fs_logf(log, ZF2FS_MSG_ERROR, 0,
					   "%s: %s: while reading the file_contexts", file,
					   strerror(-err));
			}
		}
		free(file);
	}
#endif
	if (err) {
		load_meta_close(m);
		return err;
	}
	*ret = m;
	return 0;
}

void load_meta_close(struct load_meta *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->ncfg; i++)
		free(m->cfg[i].path);
	free(m->cfg);
#ifdef HAVE_LIBSELINUX
	if (m->sehnd)
		selabel_close(m->sehnd);
#endif
	free(m);
}

int load_meta_lookup(const struct load_meta *m, const char *vpath, uint32_t mode,
		     bool optional, const struct zf2fs_log *log, struct load_meta_res *res)
{
	memset(res, 0, sizeof(*res));
	if (!m)
		return 0;
	if (m->cfg) {
		struct fs_config_entry key = { .path = (char *)(vpath[0] == '/' ? vpath + 1 : vpath) };
		const struct fs_config_entry *e = bsearch(&key, m->cfg, m->ncfg, sizeof(*m->cfg),
							  cmp_cfg);

		if (e) {
			res->has_perm = true;
			res->uid = e->uid;
			res->gid = e->gid;
			res->mode = e->mode;
			res->caps = e->caps;
		} else if (!optional) {
			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "%s: not in the fs_config file", vpath);
			return -ENOENT;
		}
	}
#ifdef HAVE_LIBSELINUX
	if (m->sehnd) {
		char *con = NULL;

		if (selabel_lookup(m->sehnd, &con, vpath, (int)mode) < 0) {
			int err = errno ? -errno : -ENOENT;

			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "%s: %s: no label in the file_contexts",
				   vpath, strerror(-err));
			return err;
		}
		res->label = strdup(con);
		freecon(con);
		if (!res->label)
			return -ENOMEM;
	}
#else
	(void)mode;
#endif
	return 0;
}

void load_meta_caps_value(uint64_t caps, uint8_t out[LOAD_CAPS_BYTES])
{
	/* struct vfs_cap_data, revision 2: magic and flags, then permitted and inheritable
	 * of the low and the high 32 capabilities, little endian */
	memset(out, 0, LOAD_CAPS_BYTES);
	zf2fs_put_le32p(out, 0x02000000u | 0x1u);
	zf2fs_put_le32p(out + 4, (uint32_t)caps);
	zf2fs_put_le32p(out + 12, (uint32_t)(caps >> 32));
}
