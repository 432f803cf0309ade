// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkfs_write.c - write a new, empty F2FS volume for a computed layout.
 *
 * Order of work, chosen so that an interrupted mkfs never leaves a volume that looks
 * valid but is not: discard (or reset zones), zero the areas that must read as zero (both
 * checkpoint segments, the live SIT and NAT copies, stale node blocks where roll-forward
 * recovery would look), write the root directory (and lost+found), the NAT block, both
 * checkpoint packs with their summaries and nat_bits, flush, and only then the two
 * superblocks, and flush again.
 *
 * The six logs start empty except hot node (the directory inodes) and hot data (their
 * dentry blocks).  Their SIT entries travel in the SIT journal of the compacted data
 * summary; node summaries are stored in the checkpoint pack (clean unmount state).
 *
 * Blocks are the layout's size (4 KiB or 16 KiB): every block mkfs writes is laid out by
 * the volume's geometry (include/zf2fs/geometry.h), so that a node's footer, a dentry
 * block's parts and a summary's journal and footer sit where that size puts them.
 *
 * An aliased device (zf2fs_mkfs_write_aliased) is neither discarded nor written: its
 * segments are fully valid cold data in SIT, with zeroed summaries (no owner), and a
 * pinned file in the root directory, its inode in the cold node log, covers them through
 * its extent.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/quota.h"
#include "zf2fs/geometry.h"
#include "zf2fs-internal/volume.h"
#include "zf2fs-internal/quota.h"
#include "zf2fs-internal/format.h"
#include "device/device_p.h"
#include "write/cp_write_p.h"
#include "format/layout_p.h"
#include "format/inode_p.h"
#include "format/abi_v10_p.h"

#define BPS ZF2FS_BLOCKS_PER_SEG
#define MAX_LOG_BLOCKS 16  /* blocks mkfs itself puts in one log */

struct nat_item {
	uint32_t nid, ino, addr;
};

struct builder {
	struct zf2fs_dev **devs;
	const struct zf2fs_layout *lay;
	const struct zf2fs_mkfs_opts *o;
	const struct zf2fs_log *log;
	struct zf2fs_geom g;         /* the layout's block size and packed_ssa */
	struct zf2fs_super sb;
	uint32_t features;
	uint64_t cp_ver;
	uint32_t csum_seed;
	bool trimmed;
	uint32_t blkoff[ZF2FS_NR_CURSEG];
	struct zf2fs_summary sums[ZF2FS_NR_CURSEG][MAX_LOG_BLOCKS];
	struct nat_item nat[16];
	const char *const *aliases;  /* per device, NULL: not aliased (or no array) */
	uint64_t alias_blocks;
	unsigned nnat;
	uint32_t next_nid;
	uint32_t valid_nodes, valid_inodes;
};

/* ---- block I/O across the volume's devices ---------------------------------------------- */
static int vol_locate(const struct builder *b, uint64_t blk, unsigned *ret_dev,
		      uint64_t *ret_off)
{
	for (unsigned i = 0; i < b->lay->ndevs; i++) {
		if (blk >= b->lay->dev_start_blk[i] && blk <= b->lay->dev_end_blk[i]) {
			*ret_dev = i;
			*ret_off = (blk - b->lay->dev_start_blk[i]) * b->g.blocksize;
			return 0;
		}
	}
	zf2fs_logf(b->log, ZF2FS_MSG_ERROR, 0, "block %llu is outside every device",
		   (unsigned long long)blk);
	return -ERANGE;
}

static int vol_write(const struct builder *b, uint64_t blk, const void *buf)
{
	unsigned d;
	uint64_t off;
	int err = vol_locate(b, blk, &d, &off);

	return err ? err : zf2fs_dev_write(b->devs[d], buf, b->g.blocksize, off);
}

/* Zero @count blocks from @blk; the range may not cross devices (areas never do). */
static int vol_zero(const struct builder *b, uint64_t blk, uint64_t count)
{
	unsigned d;
	uint64_t off;
	int err = vol_locate(b, blk, &d, &off);

	return err ? err : zf2fs_dev_zero(b->devs[d], off, count * b->g.blocksize);
}

/* Is @blk in a sequential-write-required zone (zoned volumes only)? */
static bool blk_in_sequential_zone(const struct builder *b, uint64_t blk)
{
	const struct zf2fs_layout *lay = b->lay;
	unsigned d;
	uint64_t off;

	if (!lay->zoned || vol_locate(b, blk, &d, &off))
		return false;
	if (lay->dev_model[d] != ZF2FS_ZONED_HM)
		return false;
	return off / ((uint64_t)lay->zone_blocks * b->g.blocksize) >= lay->dev_conv_zones[d];
}

/* ---- superblock ---------------------------------------------------------------------------- */
static const char *const default_cold_ext[] = {
	"mp", "wm", "og", "jp", "avi", "mkv", "mov", "webm", "wav", "flac", "m4a", "opus",
	"gif", "png", "webp", "svg", "iso", "gz", "xz", "zst", "bz2", "zip", "jar", "deb",
	"rpm", "pdf", "ttf", "so", "apk", NULL,
};
static const char *const default_hot_ext[] = { "db", NULL };

static int add_extensions(struct zf2fs_super *sb, unsigned *pos, const char *const *defaults,
			  const char *user, const struct zf2fs_log *log)
{
	char name[ZF2FS_EXTENSION_LEN + 1];
	const char *p;

	for (; *defaults && *pos < ZF2FS_MAX_EXTENSIONS; defaults++)
		memcpy(sb->extension_list[(*pos)++], *defaults, strlen(*defaults));
	for (p = user; p && *p;) {
		size_t len = strcspn(p, ", ");
		bool dup = false;

		if (len >= ZF2FS_EXTENSION_LEN) {
			zf2fs_logf(log, ZF2FS_MSG_WARNING, 0, "extension \"%.*s\" is too long (at most "
				   "%d characters): skipped", (int)len, p, ZF2FS_EXTENSION_LEN - 1);
		} else if (len) {
			memcpy(name, p, len);
			name[len] = 0;
			for (unsigned i = 0; i < *pos; i++)
				if (!strncmp((char *)sb->extension_list[i], name, ZF2FS_EXTENSION_LEN))
					dup = true;
			if (!dup) {
				if (*pos >= ZF2FS_MAX_EXTENSIONS)
					return -ENOSPC;
				memcpy(sb->extension_list[(*pos)++], name, len);
			}
		}
		p += len;
		p += strspn(p, ", ");
	}
	return 0;
}

ZF2FS_EXPORT int zf2fs_mkfs_fill_super(const struct zf2fs_layout *lay,
				      const struct zf2fs_mkfs_opts *o, uint32_t log_blocksize,
				      uint32_t *features, uint32_t *next_nid,
				      struct zf2fs_dev **devs, struct zf2fs_super *sb,
				      const struct zf2fs_log *log)
{
	unsigned pos = 0;
	int err;

	memset(sb, 0, sizeof(*sb));
	zf2fs_set(sb->magic, ZF2FS_MAGIC);
	zf2fs_set(sb->major_ver, 1);
	zf2fs_set(sb->minor_ver, 15);
	zf2fs_set(sb->log_sectorsize, lay->log_sectorsize);
	zf2fs_set(sb->log_sectors_per_block, lay->log_sectors_per_block);
	zf2fs_set(sb->log_blocksize, log_blocksize);
	zf2fs_set(sb->log_blocks_per_seg, ZF2FS_LOG_BLOCKS_PER_SEG);
	zf2fs_set(sb->segs_per_sec, lay->segs_per_sec);
	zf2fs_set(sb->secs_per_zone, lay->secs_per_zone);
	zf2fs_set(sb->block_count, lay->block_count);
	zf2fs_set(sb->section_count, lay->section_count);
	zf2fs_set(sb->segment_count_main, lay->segment_count_main);
	zf2fs_layout_set_areas(lay, sb);
	zf2fs_set(sb->root_ino, ZF2FS_ROOT_INO);
	zf2fs_set(sb->node_ino, ZF2FS_NODE_INO);
	zf2fs_set(sb->meta_ino, ZF2FS_META_INO);
	/* Quota files take the inode numbers right after the root, as with mkfs.f2fs: user
	 * and group with quota, project with project_quota (which therefore turns quota on:
	 * without a file the kernel would have nowhere to keep project usage). */
	for (int q = 0; q < ZF2FS_MAX_QUOTAS; q++) {
		bool want = q == ZF2FS_QUOTA_PRJ ? *features & ZF2FS_FEAT_PRJQUOTA :
						   *features & ZF2FS_FEAT_QUOTA_INO;

		if (want)
			zf2fs_set(sb->qf_ino[q], (*next_nid)++);
	}
	if (*features & ZF2FS_FEAT_PRJQUOTA)
		*features |= ZF2FS_FEAT_QUOTA_INO;
	memcpy(sb->uuid, o->uuid, 16);
	if (o->label) {
		char why[96];

		err = zf2fs_label_from_utf8(o->label, sb->volume_name, why, sizeof(why));
		if (err) {
			zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "volume label: %s", why);
			return -EINVAL;
		}
	}
	err = add_extensions(sb, &pos, default_cold_ext, o->cold_extensions, log);
	if (!err) {
		zf2fs_set(sb->extension_count, pos);
		err = add_extensions(sb, &pos, default_hot_ext, o->hot_extensions, log);
		sb->hot_ext_count = (uint8_t)(pos - zf2fs_get(sb->extension_count));
	}
	if (err) {
		zf2fs_logf(log, ZF2FS_MSG_ERROR, 0, "too many file extensions (at most %d)",
			   ZF2FS_MAX_EXTENSIONS);
		return err;
	}
	if (o->version_string) {
		strncpy((char *)sb->version, o->version_string, ZF2FS_VERSION_LEN - 1);
		strncpy((char *)sb->init_version, o->version_string, ZF2FS_VERSION_LEN - 1);
	}
	zf2fs_set(sb->feature, *features);
	if (lay->ndevs > 1 && devs) {
		for (unsigned i = 0; i < lay->ndevs; i++) {
			strncpy((char *)sb->devs[i].path, zf2fs_dev_path(devs[i]),
				ZF2FS_DEVICE_PATH_LEN - 1);
			zf2fs_set(sb->devs[i].total_segments, lay->dev_segments[i]);
		}
	}
	if (*features & ZF2FS_FEAT_CASEFOLD) {
		zf2fs_set(sb->s_encoding, o->s_encoding);
		zf2fs_set(sb->s_encoding_flags, o->s_encoding_flags);
	}
	if (*features & ZF2FS_FEAT_SB_CHKSUM) {
		zf2fs_set(sb->checksum_offset, offsetof(struct zf2fs_super, crc));
		zf2fs_set(sb->crc, zf2fs_super_checksum(sb));
	}
	return 0;
}

static int build_super(struct builder *b)
{
	return zf2fs_mkfs_fill_super(b->lay, b->o, b->g.log_blocksize, &b->features, &b->next_nid,
				     b->devs, &b->sb, b->log);
}

/* ---- logs ---------------------------------------------------------------------------------- */
static uint32_t log_next_blkaddr(const struct builder *b, int type)
{
	return b->lay->main_blkaddr + b->lay->cur_seg[type] * BPS + b->blkoff[type];
}

/* Take the next block of a log and record its summary entry. */
static uint32_t log_alloc(struct builder *b, int type, uint32_t nid, uint16_t ofs_in_node)
{
	uint32_t addr = log_next_blkaddr(b, type);
	struct zf2fs_summary *s = &b->sums[type][b->blkoff[type]];

	zf2fs_set(s->nid, nid);
	s->version = 0;
	zf2fs_set(s->ofs_in_node, ofs_in_node);
	b->blkoff[type]++;
	return addr;
}

/* ---- directories ---------------------------------------------------------------------- */
/* Add @name at slot *@slot of dentry block @d, whose bitmap, entries and names sit where
 * @g puts them. */
static void dentry_add(const struct zf2fs_geom *g, uint8_t *d, unsigned *slot,
		       const char *name, uint32_t ino, uint8_t type)
{
	size_t len = strlen(name);
	unsigned slots = zf2fs_dentry_slots((uint32_t)len);
	struct zf2fs_dir_entry *de = (struct zf2fs_dir_entry *)(d + g->dentry_entries_offset) +
				     *slot;

	zf2fs_set(de->hash_code, zf2fs_dentry_hash(name, len));
	zf2fs_set(de->ino, ino);
	zf2fs_set(de->name_len, len);
	de->file_type = type;
	memcpy(d + g->dentry_names_offset + (size_t)*slot * ZF2FS_SLOT_LEN, name, len);
	for (unsigned i = 0; i < slots; i++, (*slot)++)
		zf2fs_dentry_bit_set(d, *slot);
}

uint16_t zf2fs_extra_isize(uint32_t f)
{
	if (f & ZF2FS_FEAT_COMPRESSION)
		return ZF2FS_EXTRA_ISIZE_MAX;
	if (f & ZF2FS_FEAT_INODE_CRTIME)
		return offsetof(struct zf2fs_inode, i_compr_blocks) -
		       offsetof(struct zf2fs_inode, i_extra_isize);
	if (f & ZF2FS_FEAT_INODE_CHKSUM)
		return offsetof(struct zf2fs_inode, i_crtime) -
		       offsetof(struct zf2fs_inode, i_extra_isize);
	if (f & ZF2FS_FEAT_PRJQUOTA)
		return offsetof(struct zf2fs_inode, i_inode_checksum) -
		       offsetof(struct zf2fs_inode, i_extra_isize);
	return offsetof(struct zf2fs_inode, i_projid) - offsetof(struct zf2fs_inode, i_extra_isize);
}

struct inode_spec {
	uint32_t ino, pino;
	const char *name;       /* NULL: no name (the root, quota files) */
	uint16_t mode;
	uint32_t links, uid, gid, flags;
	uint64_t size;
	const uint32_t *addrs;  /* data blocks, from file block 0 */
	unsigned naddrs;
};

/* The inode fields every inode mkfs writes shares, its block addresses, and its footer
 * (the next block of the hot node log follows); the checksum comes last. */
static void fill_inode(struct builder *b, struct zf2fs_node *node, const struct inode_spec *is)
{
	struct zf2fs_inode *in = &node->i;
	struct zf2fs_node_footer *footer = zf2fs_node_footer(&b->g, node);
	unsigned addr_index = 0;

	/* the fields every new inode has come from the library; then mkfs's own */
	(void)zf2fs_inode_init(node, b->features, is->ino, is->pino, is->name,
			       is->name ? strlen(is->name) : 0, is->mode, b->o->timestamp);
	if (footer != &node->footer) {
		/* zf2fs_inode_init fills the 4 KiB view's footer: move it to the block's end,
		 * which leaves i_addr[] empty where the view put it */
		memcpy(footer, &node->footer, sizeof(*footer));
		memset(&node->footer, 0, sizeof(node->footer));
	}
	zf2fs_set(in->i_uid, is->uid);
	zf2fs_set(in->i_gid, is->gid);
	zf2fs_set(in->i_links, is->links);
	zf2fs_set(in->i_size, is->size);
	zf2fs_set(in->i_blocks, 1 + is->naddrs);   /* the inode block and its data blocks */
	zf2fs_set(in->i_flags, is->flags);
	/* No inline xattr area: i_inline_xattr_size stays 0 and the flag off. */
	if (b->features & ZF2FS_FEAT_EXTRA_ATTR)
		addr_index = zf2fs_extra_isize(b->features) / 4;
	for (unsigned i = 0; i < is->naddrs; i++)
		zf2fs_set(in->i_addr[addr_index + i], is->addrs[i]);

	zf2fs_set(footer->flag, 0);   /* offset 0; nothing mkfs writes is cold */
	zf2fs_set(footer->cp_ver, b->cp_ver);
	zf2fs_set(footer->next_blkaddr, log_next_blkaddr(b, ZF2FS_LOG_HOT_NODE));
	if (b->features & ZF2FS_FEAT_INODE_CHKSUM)
		zf2fs_set(in->i_inode_checksum, zf2fs_inode_checksum2(&b->g, b->csum_seed, node));
}

struct dir_spec {
	uint32_t ino, pino;
	const char *name;       /* NULL for the root */
	uint16_t mode;
	uint32_t links;
	uint32_t uid, gid;
};

struct dir_child {
	const char *name;
	uint32_t ino;
	uint8_t type;
};

/* Write a directory inode with one dentry block holding "." and "..", plus @kids. */
static int write_dir(struct builder *b, const struct dir_spec *ds, const struct dir_child *kids,
		     unsigned nkids)
{
	struct zf2fs_node *node = calloc(1, b->g.blocksize);
	uint8_t *dent = calloc(1, b->g.blocksize);
	uint32_t node_addr, data_addr;
	unsigned slot = 0;
	int err = -ENOMEM;

	if (!node || !dent)
		goto out;
	node_addr = log_alloc(b, ZF2FS_LOG_HOT_NODE, ds->ino, 0);
	data_addr = log_alloc(b, ZF2FS_LOG_HOT_DATA, ds->ino, 0);

	dentry_add(&b->g, dent, &slot, ".", ds->ino, ZF2FS_FT_DIR);
	dentry_add(&b->g, dent, &slot, "..", ds->pino, ZF2FS_FT_DIR);
	for (unsigned i = 0; i < nkids; i++) {
		if (slot + zf2fs_dentry_slots((uint32_t)strlen(kids[i].name)) >
		    b->g.dentry_per_block) {
			zf2fs_logf(b->log, ZF2FS_MSG_ERROR, 0, "the names in the root directory "
				   "do not fit its one dentry block (\"%s\")", kids[i].name);
			err = -ENAMETOOLONG;
			goto out;
		}
		dentry_add(&b->g, dent, &slot, kids[i].name, kids[i].ino, kids[i].type);
	}

	zf2fs_set(node->i.i_current_depth, 1);
	fill_inode(b, node, &(struct inode_spec){ .ino = ds->ino, .pino = ds->pino,
		   .name = ds->name, .mode = ds->mode, .links = ds->links, .uid = ds->uid,
		   .gid = ds->gid, .size = b->g.blocksize, .addrs = &data_addr, .naddrs = 1 });
	err = vol_write(b, data_addr, dent);
	if (!err)
		err = vol_write(b, node_addr, node);
	if (!err) {
		b->nat[b->nnat++] = (struct nat_item){ ds->ino, ds->ino, node_addr };
		b->valid_nodes++;
		b->valid_inodes++;
	}
out:
	free(node);
	free(dent);
	return err;
}

/* ---- quota files ------------------------------------------------------------------------ */
/* What one inode mkfs writes is charged in quota: one inode and its data blocks. */
struct charge {
	uint32_t uid, gid;
	uint64_t blocks;
};

/* Quota file @q (ino @ino) charging each of @use, as the kernel would have; its blocks
 * follow in the hot data log. */
static int write_quota_file(struct builder *b, int q, uint32_t ino,
			    const struct charge *use, unsigned nuse)
{
	struct zf2fs_dquot dq[2] = { 0 };
	struct zf2fs_quota_file qf = { .bgrace = ZF2FS_QUOTA_GRACE, .igrace = ZF2FS_QUOTA_GRACE,
				       .dq = dq };
	const size_t bs = b->g.blocksize;
	struct zf2fs_node *node = calloc(1, bs);
	uint8_t *content = NULL, *blk = calloc(1, bs);
	uint32_t addrs[MAX_LOG_BLOCKS], node_addr;
	size_t len = 0, nblk;
	int err = -ENOMEM;

	if (!node || !blk)
		goto out;
	for (unsigned i = 0; i < nuse; i++) {
		uint32_t id = q == ZF2FS_QUOTA_USR ? use[i].uid :
			      q == ZF2FS_QUOTA_GRP ? use[i].gid : 0;   /* default project */
		size_t k = 0;

		while (k < qf.n && dq[k].id != id)
			k++;
		if (k == qf.n)
			dq[qf.n++].id = id;
		dq[k].curinodes++;
		dq[k].curspace += use[i].blocks * bs;
	}
	err = zf2fs_quota_build(q, &qf, &content, &len);
	if (err)
		goto out;
	nblk = (len + bs - 1) / bs;
	err = -E2BIG;
	if (nblk + b->blkoff[ZF2FS_LOG_HOT_DATA] > MAX_LOG_BLOCKS)
		goto out;
	node_addr = log_alloc(b, ZF2FS_LOG_HOT_NODE, ino, 0);
	for (size_t i = 0; i < nblk; i++)
		addrs[i] = log_alloc(b, ZF2FS_LOG_HOT_DATA, ino, (uint16_t)i);
	/* immutable, as the kernel marks the files it keeps quota in; on 16 KiB volumes also
	 * noatime, as f2fs-tools' development branch writes them (the kernel's own flags
	 * for a quota file) */
	fill_inode(b, node, &(struct inode_spec){ .ino = ino, .mode = ZF2FS_S_IFREG | 0600,
		   .links = 1, .flags = ZF2FS_IMMUTABLE_FL |
		   (b->g.blocksize > ZF2FS_BLKSIZE ? ZF2FS_NOATIME_FL : 0), .size = len, .addrs = addrs,
		   .naddrs = (unsigned)nblk });
	err = 0;
	for (size_t i = 0; !err && i < nblk; i++) {
		size_t k = len - i * bs;

		memset(blk, 0, bs);
		memcpy(blk, content + i * bs, k < bs ? k : bs);
		err = vol_write(b, addrs[i], blk);
	}
	if (!err)
		err = vol_write(b, node_addr, node);
	if (!err) {
		b->nat[b->nnat++] = (struct nat_item){ ino, ino, node_addr };
		b->valid_nodes++;
		b->valid_inodes++;
	}
out:
	free(content);
	free(blk);
	free(node);
	return err;
}

/* ---- aliased devices ------------------------------------------------------------------ */
/* Device @d's segments in the main area: [*ret_first, *ret_first + return value). */
static uint32_t alias_segments(const struct builder *b, unsigned d, uint32_t *ret_first)
{
	*ret_first = (uint32_t)((b->lay->dev_start_blk[d] - b->lay->main_blkaddr) / BPS);
	return b->lay->dev_segments[d];
}

/* The alias file of device @d: a pinned regular file whose extent covers every block of
 * the device (fofs 0), in the cold node log (a read-only volume's one node log); no data
 * block and no node below it. */
static int write_alias_inode(struct builder *b, unsigned d, uint32_t ino)
{
	struct zf2fs_node *node = calloc(1, b->g.blocksize);
	struct zf2fs_inode *in;
	uint32_t first, nsegs = alias_segments(b, d, &first), node_addr;
	uint64_t len = (uint64_t)nsegs * BPS;
	/* a read-only volume's unused logs all sit on segment 0, its data log's */
	int log = b->features & ZF2FS_FEAT_RO ? ZF2FS_LOG_HOT_NODE : ZF2FS_LOG_COLD_NODE;
	int err;

	if (!node)
		return -ENOMEM;
	in = &node->i;
	node_addr = log_alloc(b, log, ino, 0);
	fill_inode(b, node, &(struct inode_spec){ .ino = ino, .pino = ZF2FS_ROOT_INO,
		   .name = b->aliases[d], .mode = ZF2FS_S_IFREG | 0700, .links = 1,
		   .uid = b->o->root_uid, .gid = b->o->root_gid, .flags = ZF2FS_DEVICE_ALIAS_FL,
		   .size = len * b->g.blocksize });
	zf2fs_set(in->i_blocks, len + 1);
	in->i_inline |= ZF2FS_PIN_FILE;
	zf2fs_set(in->i_ext.fofs, 0);
	zf2fs_set(in->i_ext.blk, (uint32_t)b->lay->dev_start_blk[d]);
	zf2fs_set(in->i_ext.len, (uint32_t)len);
	zf2fs_set(zf2fs_node_footer(&b->g, node)->next_blkaddr, log_next_blkaddr(b, log));
	if (b->features & ZF2FS_FEAT_INODE_CHKSUM)
		zf2fs_set(in->i_inode_checksum, zf2fs_inode_checksum2(&b->g, b->csum_seed, node));
	err = vol_write(b, node_addr, node);
	if (!err) {
		b->nat[b->nnat++] = (struct nat_item){ ino, ino, node_addr };
		b->valid_nodes++;
		b->valid_inodes++;
	}
	free(node);
	return err;
}

/* Every aliased segment fully valid cold data in the live SIT copy, and its summary block
 * zeroed: the blocks belong to the alias file through its extent, and no summary names
 * an owner. */
static int mark_aliased_segments(struct builder *b)
{
	const struct zf2fs_layout *lay = b->lay;
	const uint32_t per = b->g.sit_per_block;
	uint8_t *sb = calloc(1, b->g.blocksize);
	uint32_t cur = UINT32_MAX;   /* the SIT block in @sb */
	int err = 0;

	if (!sb)
		return -ENOMEM;
	for (unsigned d = 1; d < lay->ndevs && !err; d++) {
		uint32_t first, n;

		if (!b->aliases[d])
			continue;
		n = alias_segments(b, d, &first);
		b->alias_blocks += (uint64_t)n * BPS;
		if (lay->segment_count_ssa) {   /* a read-only volume has no SSA */
			/* the SSA blocks that hold these segments' summaries (packed_ssa: an
			 * edge block may hold another segment's too, unused on a new volume) */
			uint32_t lo = zf2fs_geom_ssa_block(&b->g, lay->ssa_blkaddr, first, NULL);
			uint32_t hi = zf2fs_geom_ssa_block(&b->g, lay->ssa_blkaddr, first + n - 1,
							   NULL);

			err = vol_zero(b, lo, (uint64_t)hi - lo + 1);
		}
		for (uint32_t seg = first; seg < first + n && !err; seg++) {
			struct zf2fs_sit_entry *e;

			if (seg / per != cur) {
				if (cur != UINT32_MAX)
					err = vol_write(b, lay->sit_blkaddr + cur, sb);
				cur = seg / per;
				memset(sb, 0, b->g.blocksize);
			}
			e = (struct zf2fs_sit_entry *)sb + seg % per;
			memset(e->valid_map, 0xFF, sizeof(e->valid_map));
			zf2fs_sit_set_vblocks(e, ZF2FS_LOG_COLD_DATA, BPS);
		}
	}
	if (!err && cur != UINT32_MAX)
		err = vol_write(b, lay->sit_blkaddr + cur, sb);
	free(sb);
	return err;
}

/* The root (with a dentry per alias file), then the quota files, then lost+found, then
 * the alias files: mkfs.f2fs's order of inode numbers and blocks, so that both tools'
 * volumes look alike. */
static int write_root(struct builder *b)
{
	bool lpf = b->features & ZF2FS_FEAT_LOST_FOUND;
	uint32_t lpf_ino = lpf ? b->next_nid++ : 0;
	struct dir_spec dirs[2] = {
		{ .ino = ZF2FS_ROOT_INO, .pino = ZF2FS_ROOT_INO, .mode = ZF2FS_S_IFDIR | 0755,
		  .links = lpf ? 3 : 2, .uid = b->o->root_uid, .gid = b->o->root_gid },
		{ .ino = lpf_ino, .pino = ZF2FS_ROOT_INO, .name = "lost+found",
		  .mode = ZF2FS_S_IFDIR | 0700, .links = 2, .uid = b->o->root_uid, .gid = b->o->root_gid },
	};
	struct dir_child kids[1 + ZF2FS_MAX_DEVICES];
	struct charge use[2 + ZF2FS_MAX_DEVICES];
	uint32_t alias_ino[ZF2FS_MAX_DEVICES] = { 0 };
	unsigned nkids = 0, nuse = 0;
	int err;

	if (lpf)
		kids[nkids++] = (struct dir_child){ "lost+found", lpf_ino, ZF2FS_FT_DIR };
	for (unsigned i = 0; i < 2; i++)
		if (i == 0 || lpf)
			use[nuse++] = (struct charge){ dirs[i].uid, dirs[i].gid, 1 };
	for (unsigned d = 1; b->aliases && d < b->lay->ndevs; d++) {
		uint32_t first;

		if (!b->aliases[d])
			continue;
		alias_ino[d] = b->next_nid++;
		kids[nkids++] = (struct dir_child){ b->aliases[d], alias_ino[d], ZF2FS_FT_REG_FILE };
		use[nuse++] = (struct charge){ b->o->root_uid, b->o->root_gid,
					       alias_segments(b, d, &first) * (uint64_t)BPS };
	}
	err = write_dir(b, &dirs[0], kids, nkids);
	for (int q = 0; !err && q < ZF2FS_MAX_QUOTAS; q++)
		if (zf2fs_get(b->sb.qf_ino[q]))
			err = write_quota_file(b, q, (uint32_t)zf2fs_get(b->sb.qf_ino[q]), use,
					       nuse);
	if (!err && lpf)
		err = write_dir(b, &dirs[1], NULL, 0);
	for (unsigned d = 1; !err && d < b->lay->ndevs; d++)
		if (alias_ino[d])
			err = write_alias_inode(b, d, alias_ino[d]);
	return err;
}

/* ---- NAT ---------------------------------------------------------------------------------- */
static int write_nat(struct builder *b)
{
	struct zf2fs_nat_block *nb = calloc(1, b->g.blocksize);
	int err;

	if (!nb)
		return -ENOMEM;
	/* The node and meta inodes have no node block; an address of 1 marks them in use. */
	zf2fs_set(nb->entries[ZF2FS_NODE_INO].ino, ZF2FS_NODE_INO);
	zf2fs_set(nb->entries[ZF2FS_NODE_INO].block_addr, 1);
	zf2fs_set(nb->entries[ZF2FS_META_INO].ino, ZF2FS_META_INO);
	zf2fs_set(nb->entries[ZF2FS_META_INO].block_addr, 1);
	for (unsigned i = 0; i < b->nnat; i++) {
		zf2fs_set(nb->entries[b->nat[i].nid].ino, b->nat[i].ino);
		zf2fs_set(nb->entries[b->nat[i].nid].block_addr, b->nat[i].addr);
	}
	err = vol_write(b, b->lay->nat_blkaddr, nb);
	free(nb);
	return err;
}

/* ---- checkpoint packs ----------------------------------------------------------------------- */
static void fill_sit_journal(const struct builder *b, struct zf2fs_journal *j)
{
	/* A read-only volume has two logs in use (hot data, hot node): one entry each. */
	static const int ro_logs[] = { ZF2FS_LOG_HOT_DATA, ZF2FS_LOG_HOT_NODE };
	bool ro = b->features & ZF2FS_FEAT_RO;
	int n = ro ? 2 : ZF2FS_NR_CURSEG;

	zf2fs_set(j->n_entries, n);
	for (int i = 0; i < n; i++) {
		int t = ro ? ro_logs[i] : i;
		struct zf2fs_sit_journal_entry *e = &j->sit.entries[i];

		zf2fs_set(e->segno, b->lay->cur_seg[t]);
		zf2fs_sit_set_vblocks(&e->se, (uint32_t)t, b->blkoff[t]);
		for (uint32_t k = 0; k < b->blkoff[t]; k++)
			zf2fs_sit_block_set(&e->se, k);
	}
}

/* The summary footer's entry type, at the end of the summary (not of a 16 KiB block). */
static void set_sum_type(const struct builder *b, uint8_t *blk, uint8_t type)
{
	((struct zf2fs_summary_footer *)(blk + b->g.sum_footer_offset))->entry_type = type;
}

/* Compacted data summaries: NAT journal, SIT journal (each the summary's journal size,
 * which the 4 KiB view's few entries begin), then the hot, warm and cold data entries
 * back to back (they fit one block for what mkfs writes). */
static void fill_compact_summary(const struct builder *b, uint8_t *blk)
{
	struct zf2fs_journal nat = { 0 }, sit = { 0 };
	size_t jlen = b->g.sum_journal_size, view = sizeof(nat), off = 0;

	if (view > jlen)
		view = jlen;
	fill_sit_journal(b, &sit);
	memcpy(blk + off, &nat, view);
	off += jlen;
	memcpy(blk + off, &sit, view);
	off += jlen;
	for (int t = ZF2FS_LOG_HOT_DATA; t <= ZF2FS_LOG_COLD_DATA; t++) {
		memcpy(blk + off, b->sums[t], b->blkoff[t] * sizeof(struct zf2fs_summary));
		off += b->blkoff[t] * sizeof(struct zf2fs_summary);
	}
	set_sum_type(b, blk, ZF2FS_SUM_TYPE_DATA);
}

static void fill_node_summary(const struct builder *b, int type, uint8_t *blk)
{
	memset(blk, 0, b->g.blocksize);
	memcpy(blk, b->sums[type], b->blkoff[type] * sizeof(struct zf2fs_summary));
	set_sum_type(b, blk, ZF2FS_SUM_TYPE_NODE);
}

static void build_cp(const struct builder *b, struct zf2fs_checkpoint *cp, uint64_t ver)
{
	const struct zf2fs_layout *lay = b->lay;
	uint32_t flags = ZF2FS_CP_UMOUNT_FLAG;
	uint64_t valid = 0;

	for (int t = 0; t < ZF2FS_NR_CURSEG; t++)
		valid += b->blkoff[t];
	valid += b->alias_blocks;
	zf2fs_set(cp->checkpoint_ver, ver);
	zf2fs_set(cp->user_block_count, lay->user_block_count);
	zf2fs_set(cp->valid_block_count, valid);
	zf2fs_set(cp->rsvd_segment_count, lay->rsvd_segments);
	zf2fs_set(cp->overprov_segment_count, lay->ovp_segments);
	zf2fs_set(cp->free_segment_count, lay->free_segments);
	for (int i = 0; i < ZF2FS_MAX_NODE_LOGS; i++) {
		zf2fs_set(cp->cur_node_segno[i], 0xFFFFFFFFu);
		zf2fs_set(cp->cur_data_segno[i], 0xFFFFFFFFu);
	}
	for (int i = 0; i < 3; i++) {
		zf2fs_set(cp->cur_node_segno[i], lay->cur_seg[ZF2FS_LOG_HOT_NODE + i]);
		zf2fs_set(cp->cur_node_blkoff[i], b->blkoff[ZF2FS_LOG_HOT_NODE + i]);
		zf2fs_set(cp->cur_data_segno[i], lay->cur_seg[ZF2FS_LOG_HOT_DATA + i]);
		zf2fs_set(cp->cur_data_blkoff[i], b->blkoff[ZF2FS_LOG_HOT_DATA + i]);
	}
	if (b->trimmed)
		flags |= ZF2FS_CP_TRIMMED_FLAG;
	if (b->o->layout.large_nat_bitmap)
		flags |= ZF2FS_CP_LARGE_NAT_BITMAP_FLAG;
	zf2fs_set(cp->ckpt_flags, flags);   /* the pack writer adds the pack's own flags */
	zf2fs_set(cp->valid_node_count, b->valid_nodes);
	zf2fs_set(cp->valid_inode_count, b->valid_inodes);
	zf2fs_set(cp->next_free_nid, b->next_nid);
	zf2fs_set(cp->sit_ver_bitmap_bytesize, lay->sit_bitmap_bytes);
	zf2fs_set(cp->nat_ver_bitmap_bytesize, lay->nat_bitmap_bytes);
	zf2fs_set(cp->checksum_offset, b->o->layout.large_nat_bitmap ? ZF2FS_CP_BITMAP_OFFSET :
		b->g.cp_chksum_offset);
}

/* nat_bits after the check value: a "full" bitmap (no NAT block is full) and an "empty"
 * bitmap (every NAT block is empty but the first). */
static void fill_nat_bits(const struct builder *b, uint8_t *nb)
{
	const struct zf2fs_layout *lay = b->lay;

	memset(nb + 8 + lay->nat_bitmap_bytes, 0xFF, lay->nat_bitmap_bytes);
	zf2fs_lbit_clear(nb + 8 + lay->nat_bitmap_bytes, 0);   /* NAT block 0 is not empty */
}

static int mkfs_cp_write(void *arg, uint64_t blk, const void *buf)
{
	return vol_write(arg, blk, buf);
}

static int sync_all(const struct builder *b);

static int mkfs_cp_sync(void *arg)
{
	return sync_all(arg);
}

static int write_cp_pack(const struct builder *b, unsigned pack, uint64_t ver)
{
	const struct zf2fs_layout *lay = b->lay;
	struct zf2fs_cp_io io = { mkfs_cp_write, mkfs_cp_sync, (void *)b };
	struct zf2fs_cp_pack p = {
		.start = lay->cp_blkaddr + (uint64_t)pack * BPS,
		.payload = lay->cp_payload,
		.compact = true,
		.nat_bits_blocks = lay->nat_bits_blocks,
		.blocksize = b->g.blocksize,
	};
	const size_t bs = b->g.blocksize;
	uint8_t *sums = calloc(4, bs);
	int err = -ENOMEM;

	/* the CP block and the cp_payload blocks of the all-zero SIT version bitmap */
	p.cp = calloc(1 + (size_t)lay->cp_payload, bs);
	p.nat_bits = calloc(lay->nat_bits_blocks ? lay->nat_bits_blocks : 1, bs);
	if (!p.cp || !sums || !p.nat_bits)
		goto out;
	if (b->o->no_nat_bits) {
		free(p.nat_bits);
		p.nat_bits = NULL;
	}
	build_cp(b, (struct zf2fs_checkpoint *)p.cp, ver);
	fill_compact_summary(b, sums);
	for (int t = ZF2FS_LOG_HOT_NODE; t <= ZF2FS_LOG_COLD_NODE; t++)
		fill_node_summary(b, t, sums + (size_t)(1 + t - ZF2FS_LOG_HOT_NODE) * bs);
	p.sums = sums;
	if (p.nat_bits)
		fill_nat_bits(b, p.nat_bits);
	err = zf2fs_cp_pack_write(&p, &io);
out:
	free(p.nat_bits);
	free(p.cp);
	free(sums);
	return err;
}

/* ---- preparation ------------------------------------------------------------------------------ */
static int discard_devices(struct builder *b)
{
	bool all = true;

	for (unsigned i = 0; i < b->lay->ndevs; i++) {
		struct zf2fs_dev *d = b->devs[i];
		int err;

		if (b->aliases && b->aliases[i]) {
			/* its content is what the alias file holds */
			zf2fs_logf(b->log, ZF2FS_MSG_INFO, 2, "not discarding %s: aliased as /%s",
				   zf2fs_dev_path(d), b->aliases[i]);
			continue;
		}

		if (b->lay->dev_model[i] == ZF2FS_ZONED_HM) {
			err = zf2fs_dev_reset_zones(d);
			if (err)
				return err;   /* sequential zones must start empty */
			continue;
		}
		zf2fs_logf(b->log, ZF2FS_MSG_INFO, 2, "discarding %s", zf2fs_dev_path(d));
		err = zf2fs_dev_discard(d, 0, zf2fs_dev_size(d));
		if (err) {
			all = false;
			if (err != -EOPNOTSUPP)
				zf2fs_logf(b->log, ZF2FS_MSG_INFO, 2, "%s: discard failed (%s), "
					   "continuing", zf2fs_dev_path(d), strerror(-err));
		}
	}
	b->trimmed = all;
	return 0;
}

/* Zero what the kernel will read before anything is written there. */
static int zero_metadata(const struct builder *b)
{
	const struct zf2fs_layout *lay = b->lay;
	int err;

	err = vol_zero(b, lay->cp_blkaddr, (uint64_t)lay->segment_count_ckpt * BPS);
	if (!err)   /* first SIT copy, which the all-zero version bitmap selects */
		err = vol_zero(b, lay->sit_blkaddr, (uint64_t)lay->segment_count_sit / 2 * BPS);
	/* NAT copies alternate by segment; the first of each pair is live. */
	for (uint32_t s = 0; !err && s < lay->segment_count_nat; s += 2)
		err = vol_zero(b, lay->nat_blkaddr + (uint64_t)s * BPS, BPS);
	/* Roll-forward recovery reads node blocks from where each node log continues: make
	 * sure nothing stale sits there (sequential zones were reset instead). */
	for (int t = ZF2FS_LOG_HOT_NODE; !err && t <= ZF2FS_LOG_COLD_NODE; t++) {
		uint64_t blk = lay->main_blkaddr + (uint64_t)lay->cur_seg[t] * BPS;

		/* a read-only volume is never recovered, and its empty node logs share
		 * segment 0 with the data log */
		if (b->features & ZF2FS_FEAT_RO)
			break;

		if (!blk_in_sequential_zone(b, blk))
			err = vol_zero(b, blk, MAX_LOG_BLOCKS);
	}
	return err;
}

static int sync_all(const struct builder *b)
{
	for (unsigned i = 0; i < b->lay->ndevs; i++) {
		int err = zf2fs_dev_sync(b->devs[i]);

		if (err)
			return err;
	}
	return 0;
}

static int write_supers(const struct builder *b)
{
	uint8_t *blk = calloc(1, b->g.blocksize);
	int err = -ENOMEM;

	if (!blk)
		return err;
	memcpy(blk + ZF2FS_SUPER_OFFSET, &b->sb, sizeof(b->sb));
	err = vol_write(b, 0, blk);
	if (!err)
		err = vol_write(b, 1, blk);
	free(blk);
	return err;
}

/* Exported as zf2fs_mkfs_write@@ZF2FS_1.1 (lib/format/abi_v10_p.h). */
__typeof__(zf2fs_mkfs_write) zf2fs_mkfs_write_v11;
ZF2FS_EXPORT_V11(zf2fs_mkfs_write)
int zf2fs_mkfs_write_v11(struct zf2fs_dev **devs, const struct zf2fs_layout *lay,
			 const struct zf2fs_mkfs_opts *o, const struct zf2fs_log *log)
{
	return zf2fs_mkfs_write_aliased(devs, lay, o, NULL, log);
}

ZF2FS_EXPORT int zf2fs_mkfs_write_aliased(struct zf2fs_dev **devs, const struct zf2fs_layout *lay,
					  const struct zf2fs_mkfs_opts *o,
					  const char *const *aliases, const struct zf2fs_log *log)
{
	struct builder *b = calloc(1, sizeof(*b));
	int err;

	if (!b)
		return -ENOMEM;
	b->devs = devs;
	b->lay = lay;
	b->o = o;
	b->log = log;
	b->features = o->layout.features | (lay->zoned ? ZF2FS_FEAT_BLKZONED : 0);
	if (lay->log_blocksize == ZF2FS_BLKSIZE_BITS || !lay->log_blocksize)
		b->features &= ~ZF2FS_FEAT_PACKED_SSA;   /* no meaning with 4 KiB blocks */
	if (zf2fs_geom_init(&b->g, lay->log_blocksize ? lay->log_blocksize : ZF2FS_BLKSIZE_BITS,
			    b->features)) {
		free(b);
		return -EINVAL;
	}
	for (unsigned i = 1; aliases && i < lay->ndevs; i++)
		if (aliases[i]) {
			b->aliases = aliases;
			b->features |= ZF2FS_FEAT_DEVICE_ALIAS;
		}
	b->next_nid = ZF2FS_ROOT_INO + 1;
	b->csum_seed = zf2fs_checksum_seed(o->uuid);
	/* Odd and below 2^31, so that pack 2 can carry the version just below it. */
	b->cp_ver = 1;
	if (o->cp_version)
		b->cp_ver = (o->cp_version & 0x7FFFFFFFu) | 1;
	else if (!o->fixed_cp_version) {
		uint32_t r = 0;

		if (getrandom(&r, sizeof(r), 0) == sizeof(r))
			b->cp_ver = (r & 0x7FFFFFFFu) | 1;
	}

	err = build_super(b);
	if (!err && o->discard)
		err = discard_devices(b);
	else if (!err && lay->zoned)
		for (unsigned i = 0; i < lay->ndevs && !err; i++)
			if (lay->dev_model[i] == ZF2FS_ZONED_HM)
				err = zf2fs_dev_reset_zones(devs[i]);
	if (!err)
		err = zero_metadata(b);
	if (!err && b->aliases)
		err = mark_aliased_segments(b);
	if (!err)
		err = write_root(b);
	if (!err)
		err = write_nat(b);
	if (!err)
		err = write_cp_pack(b, 0, b->cp_ver);
	if (!err)
		err = write_cp_pack(b, 1, b->cp_ver - 1);
	if (!err)
		err = sync_all(b);
	if (!err)
		err = write_supers(b);
	if (!err)
		err = sync_all(b);
	free(b);
	return err;
}
