// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkfs.c - mkfs.f2fs: format files and block devices (zoned ones with -m) as F2FS.
 *
 * This front-end checks the target (mounted? existing filesystem?), asks libzf2fs for the
 * layout, prints it, and asks libzf2fs to write it; options.c reads the command line and
 * sparse_out.c turns the result into an Android sparse image for -S.  Everything that can
 * be refused is refused before the first write.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/geometry.h"
#include "zf2fs/load.h"
#include "zf2fs-internal/device.h"
#include "zf2fs-internal/format.h"
#include "zf2fs-internal/load.h"
#include "helper.h"
#include "mkfs.h"

/* SOURCE_DATE_EPOCH: the checkpoint version, the one choice mkfs makes at random besides
 * the UUID (which -U fixes), comes from the UUID and the timestamp instead, so that the
 * same command line gives the same bytes. */
static uint64_t derived_cp_version(const struct mkfs_cli *c)
{
	uint8_t t[8];
	uint32_t v;

	for (int i = 0; i < 8; i++)
		t[i] = (uint8_t)(c->mk.timestamp >> (8 * i));
	v = zf2fs_crc32(zf2fs_crc32(~0u, c->mk.uuid, sizeof(c->mk.uuid)), t, sizeof(t));
	return v ? v : 1;
}

/* --create-file: make sure the image file exists and has the requested size (holes cost
 * nothing). */
static int prepare_file(struct mkfs_cli *c)
{
	uint32_t ss = c->wanted_sector ? c->wanted_sector : 512;
	int fd;

	if (c->sectors > UINT64_MAX / ss)
		return -EFBIG;
	fd = open(c->paths[0], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)(c->sectors * ss))) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	return 0;
}

static void print_summary(const struct mkfs_cli *c, const struct zf2fs_layout *l, FILE *f)
{
	fprintf(f, "Info: sector size = %u\n", zf2fs_sector_size(l->log_sectorsize));
	fprintf(f, "Info: total sectors = %" PRIu64 " (%" PRIu64 " MB)\n",
		zf2fs_blocks_to_sectors(l->block_count, l->log_sectors_per_block),
		(l->block_count << l->log_blocksize) >> 20);
	/* f2fs-tools 1.15's lines for 4 KiB blocks; its development branch names the size */
	if (l->log_blocksize != ZF2FS_BLKSIZE_BITS)
		fprintf(f, "Info: block size = %u\n", 1u << l->log_blocksize);
	fprintf(f, "Info: segments per section = %u, sections per zone = %u\n",
		l->segs_per_sec, l->secs_per_zone);
	if (l->zoned)
		fprintf(f, "Info: zoned: %u zones of %u blocks, capacity %u blocks, "
			"%u usable segments (f2fs-tools 1.16 rule, for reserved and OP), "
			"%u free as the kernel counts them\n", l->nr_zones, l->zone_blocks,
			l->zone_cap_blocks, l->usable_segments, l->free_segments);
	fprintf(f, "Info: segment0 at block %u, main area at block %u, %u sections\n",
		l->segment0_blkaddr, l->main_blkaddr, l->section_count);
	if (l->note[0])
		fprintf(f, "Info: %s\n", l->note);
	for (unsigned i = 1; i < l->ndevs; i++) {
		const char *base;

		if (!c->aliases[i])
			continue;
		fprintf(f, "Info: device aliasing: /%s covers %s (blocks %" PRIu64 "-%" PRIu64
			")\n", c->aliases[i], c->paths[i], l->dev_start_blk[i], l->dev_end_blk[i]);
		/* Linux looks the alias up by the last component of the device path the
		 * superblock records, and keeps new pinned files off a device it finds */
		base = strrchr(c->paths[i], '/');
		base = base ? base + 1 : c->paths[i];
		if (strcmp(base, c->aliases[i]))
			fprintf(f, "Info: Linux marks %s aliased (no new pinned file goes there) "
				"when it finds /%s, not /%s\n", c->paths[i], base, c->aliases[i]);
	}
	fprintf(f, "Info: Overprovision ratio = %.3f%%\n", l->overprovision);
	fprintf(f, "Info: Overprovision segments = %u (GC reserved = %u)\n", l->ovp_segments,
		l->rsvd_segments);
}

/* --root-dir: the tree goes in through the library's loader, as sload.f2fs -P puts it
 * (owners kept; times from -T or SOURCE_DATE_EPOCH when given, else the source's). */
static int load_root_dir(const struct mkfs_cli *c, const struct zf2fs_log *log, FILE *info)
{
	struct zf2fs_load_opts o = {
		.source = c->root_dir,
		.keep_owner = true,
		.fixed_time = c->fixed_time,
		.time = c->mk.timestamp,
	};
	struct zf2fs_load_stats st;

	zs_test_load_flush(&o);
	if (zf2fs_load_tree(c->paths, c->ndevs, &o, log, &st))
		return 1;   /* the library named the path and the cause */
	if (!c->quiet)
		fprintf(info, "Info: %llu inodes and %llu more hard links copied from %s\n",
			(unsigned long long)st.inodes, (unsigned long long)st.links, c->root_dir);
	return 0;
}

/* Size the main device to [sectors], counted in -w units or the device's own sectors, as
 * f2fs-tools does; a count beyond the device is ignored there, and here too. */
static int apply_sectors(struct mkfs_cli *c, struct zf2fs_dev *dev, struct zf2fs_dev_geom *g,
			 FILE *info)
{
	uint32_t ss = c->wanted_sector ? c->wanted_sector : g->sector_size;
	uint64_t bytes;

	if (c->sectors > UINT64_MAX / ss || c->sectors * ss >= g->bytes) {
		if (!c->quiet && (c->sectors > UINT64_MAX / ss || c->sectors * ss > g->bytes))
			fprintf(info, "Info: %s holds fewer than the %" PRIu64 " sectors of %u "
				"bytes asked for: using all of it\n", c->paths[0], c->sectors, ss);
		return 0;
	}
	/* The layout of a zoned device comes from its zone report, which [sectors] does not
	 * cut: the volume would count the whole device's blocks in a smaller main area, and
	 * Linux refuses it ("Wrong user_block_count"). */
	if (g->zone_model != ZF2FS_ZONED_NONE) {
		fprintf(stderr, PROG ": %s is a zoned device, which is formatted whole: "
			"[sectors] cannot limit it\n", c->paths[0]);
		return -EINVAL;
	}
	bytes = c->sectors * ss;
	if (zf2fs_dev_set_size(dev, bytes)) {
		fprintf(stderr, PROG ": cannot limit %s to %" PRIu64 " bytes\n", c->paths[0], bytes);
		return -EINVAL;
	}
	return zf2fs_dev_geometry(dev, g);
}

/* --json: standard output carries the layout alone, so the library's messages go to
 * standard error. */
static void log_to_stderr(void *arg, enum zf2fs_msg_kind kind, const char *msg)
{
	(void)arg;
	fprintf(stderr, "%s%s\n", kind == ZF2FS_MSG_ERROR ? "ERROR: " :
		kind == ZF2FS_MSG_WARNING ? "WARNING: " : "", msg);
}

/* Two device arguments naming one file or block device would put two parts of the volume
 * on the same blocks (an alias of the first device among them, which Linux refuses).
 * Paths stat(2) cannot read are left to the open that reports them. */
static int check_distinct(const struct mkfs_cli *c)
{
	struct stat st[ZF2FS_MAX_DEVICES];
	bool ok[ZF2FS_MAX_DEVICES];

	for (unsigned i = 0; i < c->ndevs; i++) {
		ok[i] = stat(c->paths[i], &st[i]) == 0;
		for (unsigned j = 0; ok[i] && j < i; j++) {
			bool same = S_ISBLK(st[i].st_mode) ?
				    S_ISBLK(st[j].st_mode) && st[i].st_rdev == st[j].st_rdev :
				    st[i].st_dev == st[j].st_dev && st[i].st_ino == st[j].st_ino;

			if (ok[j] && same) {
				fprintf(stderr, PROG ": %s and %s are the same %s: each device "
					"can be given once\n", c->paths[j], c->paths[i],
					S_ISBLK(st[i].st_mode) ? "device" : "file");
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* Format c->paths (then copy --root-dir in).  Returns the exit status. */
static int format_volume(struct mkfs_cli *c)
{
	struct zf2fs_dev *devs[ZF2FS_MAX_DEVICES] = { 0 };
	struct zf2fs_dev_geom geom[ZF2FS_MAX_DEVICES];
	struct zf2fs_layout lay;
	struct zf2fs_log log = { .level = 1 };
	struct utsname un;
	char why[256], type[64];
	int err, ret = 1;
	FILE *info = c->json ? stderr : stdout;

	log.level = c->quiet ? 0 : 1 + c->debug;
	if (c->json)
		log.fn = log_to_stderr;
	if (c->create_file && (err = prepare_file(c))) {
		fprintf(stderr, PROG ": %s: while creating %s\n", strerror(-err), c->paths[0]);
		return 1;
	}

	/* Everything that can refuse the target happens before the first write. */
	if (check_distinct(c))
		return 1;
	for (unsigned i = 0; i < c->ndevs; i++) {
		err = zf2fs_path_is_mounted(c->paths[i]);
		if (err > 0) {
			fprintf(stderr, PROG ": %s is mounted: refusing to format it\n", c->paths[i]);
			goto out;
		}
		/* an aliased device is neither written nor discarded: its content stays, as
		 * the alias file's */
		err = zf2fs_dev_open(c->paths[i], c->aliases[i] ? ZF2FS_DEV_EXCL :
				     ZF2FS_DEV_WRITE | ZF2FS_DEV_EXCL, &log, &devs[i]);
		if (err) {
			fprintf(stderr, PROG ": %s: while opening %s%s\n",
				err == -ENOTBLK ? "not a regular file or block device" : strerror(-err),
				c->paths[i], err == -EBUSY ? " (in use or mounted)" : "");
			goto out;
		}
		if (!c->force && !c->aliases[i]) {
			err = zf2fs_dev_probe_existing(devs[i], type, sizeof(type));
			if (err > 0) {
				fprintf(stderr, PROG ": %s contains %s %s %s: use -f to overwrite it\n",
					c->paths[i], strchr("aeiou", type[0]) ? "an" : "a", type,
					strcmp(type, "dos") && strcmp(type, "gpt") ?
					"filesystem" : "partition table");
				goto out;
			}
		}
		err = zf2fs_dev_geometry(devs[i], &geom[i]);
		if (err)
			goto out;
		if (i == 0 && c->have_sectors && apply_sectors(c, devs[0], &geom[0], info))
			goto out;
		if (geom[i].bytes == 0) {
			fprintf(stderr, PROG ": %s is empty (0 bytes): give it a size first, e.g. "
				"truncate -s 1G %s, or use --create-file with [sectors]\n", c->paths[i],
				c->paths[i]);
			goto out;
		}
	}

	err = zf2fs_layout_compute(geom, c->ndevs, &c->mk.layout, &lay, why, sizeof(why));
	if (!err)
		err = zf2fs_layout_alias(&lay, &c->mk.layout, c->aliased ? c->aliases : NULL, why,
					 sizeof(why));
	if (err) {
		fprintf(stderr, PROG ": %s\n", why);
		goto out;
	}
	if (!c->mk.have_uuid)
		uuid_generate(c->mk.uuid);
	if (c->reproducible && !c->mk.fixed_cp_version)
		c->mk.cp_version = derived_cp_version(c);
	/* a reproducible build names no host kernel: the same image on any machine */
	if (!c->reproducible && uname(&un) == 0)
		snprintf(c->version, sizeof(c->version), "zf2fs-tools %s (Linux %s)",
			 zf2fs_version(), un.release);
	else
		snprintf(c->version, sizeof(c->version), "zf2fs-tools %s", zf2fs_version());
	c->mk.version_string = c->version;

	if (c->root_dir) {
		/* a tree that cannot go in is refused before the device is formatted */
		struct zf2fs_load_opts chk = { .source = c->root_dir, .check_only = true };

		if (zf2fs_load_tree_check(&chk, c->mk.layout.log_blocksize ?
					  c->mk.layout.log_blocksize : ZF2FS_MIN_LOG_BLOCKSIZE,
					  &log))
			goto out;
	}
	if (!c->quiet)
		print_summary(c, &lay, info);
	err = zf2fs_mkfs_write_aliased(devs, &lay, &c->mk, c->aliased ? c->aliases : NULL,
				       &log);
	if (err) {
		fprintf(stderr, PROG ": %s: while formatting %s\n", strerror(-err), c->paths[0]);
		goto out;
	}
	if (c->json)
		zf2fs_layout_print_json(stdout, &lay);
	if (!c->quiet)
		fprintf(info, "Info: format successful\n");
	ret = 0;
out:
	for (unsigned i = 0; i < c->ndevs; i++)
		zf2fs_dev_close(devs[i]);
	if (!ret && c->root_dir)
		ret = load_root_dir(c, &log, info);
	return ret;
}

int main(int argc, char **argv)
{
	struct mkfs_cli c = { 0 };
	char why[256];
	int err;

	mkfs_parse_args(&c, argc, argv);

	err = zf2fs_features_check(c.mk.layout.features, why, sizeof(why));
	if (err) {
		fprintf(stderr, PROG ": %s\n", why);
		return 1;
	}
	if (c.mk.layout.zoned && !zf2fs_have_zoned_support()) {
		fprintf(stderr, PROG ": -m needs zoned device support, which this build lacks "
			"(rebuild with libzbd-dev installed)\n");
		return 1;
	}
	if (c.sparse)
		return mkfs_sparse_output(&c, format_volume);
	return format_volume(&c);
}
