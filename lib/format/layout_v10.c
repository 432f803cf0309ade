// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layout_v10.c - the layout maths' entries for libzf2fs1 0.3.0's programs
 * (zf2fs_layout_compute@ZF2FS_1.0, zf2fs_layout_print_json@ZF2FS_1.0), which pass
 * 0.3.0's structs, and the conversions the other layers' such entries use
 * (lib/format/abi_v10_p.h says which structs differ and how).
 */
#include "config.h"
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "format/abi_v10_p.h"

void zf2fs_layout_opts_from_v10(struct zf2fs_layout_opts *o,
				const struct zf2fs_layout_opts_v10 *old)
{
	memset(o, 0, sizeof(*o));
	o->segs_per_sec = old->segs_per_sec;
	o->secs_per_zone = old->secs_per_zone;
	o->overprovision = old->overprovision;
	o->reserved_sections = old->reserved_sections;
	o->features = old->features;
	o->zoned = old->zoned;
	o->large_nat_bitmap = old->large_nat_bitmap;
	o->log_blocksize = ZF2FS_BLKSIZE_BITS;
}

void zf2fs_layout_from_v10(struct zf2fs_layout *lay, const struct zf2fs_layout_v10 *old)
{
	memset(lay, 0, sizeof(*lay));
	memcpy(lay, old, ZF2FS_LAYOUT_V10_BYTES);
	lay->log_blocksize = ZF2FS_BLKSIZE_BITS;
	lay->packed_ssa = false;
}

void zf2fs_mkfs_opts_from_v10(struct zf2fs_mkfs_opts *o, const struct zf2fs_mkfs_opts_v10 *old)
{
	memset(o, 0, sizeof(*o));
	zf2fs_layout_opts_from_v10(&o->layout, &old->layout);
	o->label = old->label;
	o->have_uuid = old->have_uuid;
	memcpy(o->uuid, old->uuid, sizeof(o->uuid));
	o->cold_extensions = old->cold_extensions;
	o->hot_extensions = old->hot_extensions;
	o->root_uid = old->root_uid;
	o->root_gid = old->root_gid;
	o->timestamp = old->timestamp;
	o->s_encoding = old->s_encoding;
	o->s_encoding_flags = old->s_encoding_flags;
	o->discard = old->discard;
	o->fixed_cp_version = old->fixed_cp_version;
	o->version_string = old->version_string;
	o->no_nat_bits = old->no_nat_bits;
	o->cp_version = old->cp_version;
}

int zf2fs_layout_compute_v10(const struct zf2fs_dev_geom *devs, unsigned ndevs,
			     const struct zf2fs_layout_opts_v10 *old_opts,
			     struct zf2fs_layout_v10 *old_lay, char *why, size_t whylen);
void zf2fs_layout_print_json_v10(FILE *f, const struct zf2fs_layout_v10 *old);

/* As 0.3.0 did, the whole of @old_lay is written, on failure too (cleared). */
ZF2FS_EXPORT_V10(zf2fs_layout_compute)
int zf2fs_layout_compute_v10(const struct zf2fs_dev_geom *devs, unsigned ndevs,
			     const struct zf2fs_layout_opts_v10 *old_opts,
			     struct zf2fs_layout_v10 *old_lay, char *why, size_t whylen)
{
	struct zf2fs_layout_opts o;
	struct zf2fs_layout lay;
	int err;

	zf2fs_layout_opts_from_v10(&o, old_opts);
	err = zf2fs_layout_compute(devs, ndevs, &o, &lay, why, whylen);
	memset(old_lay, 0, sizeof(*old_lay));
	memcpy(old_lay, &lay, ZF2FS_LAYOUT_V10_BYTES);
	return err;
}

ZF2FS_EXPORT_V10(zf2fs_layout_print_json)
void zf2fs_layout_print_json_v10(FILE *f, const struct zf2fs_layout_v10 *old)
{
	struct zf2fs_layout lay;

	zf2fs_layout_from_v10(&lay, old);
	zf2fs_layout_print_json(f, &lay);
}
