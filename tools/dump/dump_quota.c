// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump_quota.c - dump.f2fs --quota: the quota files named by the superblock.
 *
 * For each quota type with a file: its inode, grace periods and flags, then one row per
 * id the kernel's lookup reaches, with the usage the kernel keeps (inodes, bytes) and the
 * limits (inodes; blocks of 1 KiB) and grace deadlines.  A file the kernel could not use
 * is reported as damage with the reason, and the other types are still shown.
 */
#include "config.h"
#include <errno.h>
#include <string.h>

#include "dump.h"
#include "zf2fs/endian.h"
#include "zf2fs/quota.h"

int dump_quota(struct dump_ctx *c)
{
	const struct zf2fs_super *sb = zf2fs_vol_super(c->vol);
	struct zf2fs_quota_file qf[ZF2FS_MAX_QUOTAS] = { 0 };
	struct out *o = &c->out;
	int err = 0;

	/* files first, then every entry as one flat list (rows name their type) */
	out_obj(o, "quota");
	out_b(o, "quota_ino", c->info->features & ZF2FS_FEAT_QUOTA_INO);
	out_list(o, "files");
	for (int q = 0; q < ZF2FS_MAX_QUOTAS; q++) {
		uint32_t ino = (uint32_t)zf2fs_get(sb->qf_ino[q]);
		char why[200] = "";
		int e;

		if (!ino)
			continue;
		out_row(o);
		out_s(o, "type", zf2fs_quota_type_name(q));
		out_u(o, "ino", ino);
		e = zf2fs_quota_load(c->vol, ino, q, &qf[q], why, sizeof(why));
		if (e == -ENOMEM)
			err = e;
		if (e) {
			dump_damage(c, "%s quota file (inode %u): %s", zf2fs_quota_type_name(q), ino,
				    why[0] ? why : strerror(-e));
			out_s(o, "error", why[0] ? why : strerror(-e));
		} else {
			out_u(o, "block_grace", qf[q].bgrace);
			out_u(o, "inode_grace", qf[q].igrace);
			out_x(o, "flags", qf[q].flags);
			out_u(o, "ids", qf[q].n);
		}
		out_row_end(o);
	}
	out_list_end(o);
	out_list(o, "entries");
	for (int q = 0; q < ZF2FS_MAX_QUOTAS; q++) {
		for (size_t i = 0; i < qf[q].n; i++) {
			const struct zf2fs_dquot *d = &qf[q].dq[i];

			out_row(o);
			out_s(o, "type", zf2fs_quota_type_name(q));
			out_u(o, "id", d->id);
			out_u(o, "inodes", d->curinodes);
			out_u(o, "bytes", d->curspace);
			out_u(o, "inode_soft", d->isoftlimit);
			out_u(o, "inode_hard", d->ihardlimit);
			out_u(o, "block_soft", d->bsoftlimit);
			out_u(o, "block_hard", d->bhardlimit);
			out_u(o, "block_time", d->btime);
			out_u(o, "inode_time", d->itime);
			out_row_end(o);
		}
		zf2fs_quota_file_free(&qf[q]);
	}
	out_list_end(o);
	out_obj_end(o);
	return err;
}
