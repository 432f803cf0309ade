// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * super_find.c - a superblock made again for a volume whose two copies are gone, from what
 * the rest of the device says (fsck.f2fs --rebuild, before the tables are rebuilt).
 *
 * The areas: where mkfs.f2fs puts them on this device with its defaults (a section per
 * segment; per zone on a host-managed zoned device).  That is a guess, and a wrong one
 * would send the tables written next over the volume's own blocks, so it is taken only when
 * the blocks agree: no node block of this volume lies before its main area, no inode
 * points there, the 4 KiB blocks hold the nodes, and where a node log jumped to a new
 * segment it landed on a segment's first block.  A checkpoint pack valid at its place
 * confirms it further.
 *
 * The features: from the inodes (extra attributes and which of their fields are used,
 * encryption, verity, casefolding and compression flags, quota files at the numbers mkfs
 * gives them, a lost+found under the root).  The UUID: inode checksums start from a CRC of
 * it, so the seed is read back out of them (several inodes must agree) and a new random
 * UUID is made that gives that seed, and no inode is rewritten.  Label and extension
 * lists: mkfs's defaults; casefolding: UTF-8 12.1 without strict mode.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/geometry.h"
#include "zf2fs-internal/format.h"
#include "zf2fs-internal/rebuild.h"
#include "zf2fs-internal/volume.h"

#define RUN_BYTES (2u << 20)
/* Checkpoint versions this far from the volume's middle one belong to another volume
 * (one formatted before it on the same device, say). */
#define VER_WINDOW (1u << 24)

/* Whether checkpoint version @ver (low 32 bits) is within VER_WINDOW of @mid. */
static bool near_mid(uint32_t ver, uint32_t mid)
{
	return ver - mid + VER_WINDOW < 2 * VER_WINDOW;
}
/* The xattr node's offset in its footer: all the offset bits set. */
#define XATTR_OFS 0x1FFFFFFFu

struct seen_inode {
	uint32_t seed, ver;
	uint32_t traits;     /* features the inode shows */
	uint32_t low;        /* its block addresses before the main area */
	bool room;           /* its extra attributes hold a checksum */
};

struct finder {
	struct zf2fs_super_found *f;
	struct zf2fs_geom g;
	uint64_t max_nid;
	struct seen_inode *in;
	size_t nin, cap;
	uint32_t *below;     /* versions of the node blocks before the main area */
	size_t nbelow, capbelow;
	struct seen_inode *dlow;   /* direct nodes pointing before the main area */
	size_t ndlow, capdlow;
	uint32_t quota_addr[3], quota_ver[3];   /* nids root+1..root+3: first data block */
	bool quota_seen[3];
	bool quota_like[3];  /* nameless, immutable, one link: as mkfs makes quota files */
	uint32_t lf_nid;     /* a directory named lost+found under the root */
};

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	void *q;

	if (n < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 1024;
	q = realloc(*p, *cap * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

/* What one inode shows of the volume's features, and where its blocks are. */
static void look_at_inode(struct finder *fd, const struct zf2fs_node *n, struct seen_inode *s)
{
	const struct zf2fs_inode *in = &n->i;
	const struct zf2fs_layout *lay = &fd->f->lay;
	uint32_t flags = (uint32_t)zf2fs_get(in->i_flags);
	uint32_t nid = (uint32_t)zf2fs_get(zf2fs_node_footer(&fd->g, n)->nid);
	uint32_t mode = zf2fs_inode_type(in), feats = 0;
	struct zf2fs_inode_geom ig;
	bool geom_ok;

	if (in->i_inline & ZF2FS_EXTRA_ATTR) {
		feats |= ZF2FS_FEAT_EXTRA_ATTR;
		if (zf2fs_inode_extra_holds(in, offsetof(struct zf2fs_inode, i_inline_xattr_size) + 2)
		    && zf2fs_get(in->i_inline_xattr_size))
			feats |= ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR;
		if (zf2fs_inode_extra_holds(in, offsetof(struct zf2fs_inode, i_projid) + 4) &&
		    zf2fs_get(in->i_projid))
			feats |= ZF2FS_FEAT_PRJQUOTA;
		if (zf2fs_inode_extra_holds(in, offsetof(struct zf2fs_inode, i_crtime) + 8) &&
		    zf2fs_get(in->i_crtime))
			feats |= ZF2FS_FEAT_INODE_CRTIME;
	}
	if (in->i_advise & ZF2FS_ADVISE_ENCRYPT)
		feats |= ZF2FS_FEAT_ENCRYPT;
	if (in->i_advise & ZF2FS_ADVISE_VERITY)
		feats |= ZF2FS_FEAT_VERITY;
	if (flags & ZF2FS_CASEFOLD_FL)
		feats |= ZF2FS_FEAT_CASEFOLD;
	if (flags & ZF2FS_COMPR_FL)
		feats |= ZF2FS_FEAT_COMPRESSION;
	s->traits = feats;
	s->room = zf2fs_inode_extra_holds(in, offsetof(struct zf2fs_inode, i_inode_checksum) + 4);
	s->seed = s->room ? zf2fs_inode_seed_of(&fd->g, n) : 0;
	s->ver = (uint32_t)zf2fs_get(zf2fs_node_footer(&fd->g, n)->cp_ver);
	s->low = 0;
	/* the inode read as its own flags say (the volume's features are not known yet);
	 * inline data and dentries fill the address slots with other bytes */
	geom_ok = !zf2fs_inode_geometry2(&fd->g, in, feats, &ig);
	if (geom_ok && !(in->i_inline & (ZF2FS_INLINE_DATA | ZF2FS_INLINE_DENTRY)))
		for (uint32_t i = 0; i < ig.addrs; i++) {
			uint32_t a = zf2fs_get_le32p((const uint8_t *)n +
						     zf2fs_inode_addr_pos(ig.extra_words, i));

			if (a != ZF2FS_NULL_ADDR && a != ZF2FS_NEW_ADDR &&
			    a != ZF2FS_COMPRESS_ADDR && a < lay->main_blkaddr)
				s->low++;
		}
	/* mkfs numbers the quota files right after the root: user, group, project */
	if (nid > ZF2FS_ROOT_INO && nid <= ZF2FS_ROOT_INO + 3 && mode == ZF2FS_S_IFREG &&
	    geom_ok && ig.addrs) {
		unsigned q = nid - ZF2FS_ROOT_INO - 1;

		if (!fd->quota_seen[q] || (int32_t)(s->ver - fd->quota_ver[q]) > 0) {
			fd->quota_seen[q] = true;
			fd->quota_ver[q] = s->ver;
			fd->quota_addr[q] = zf2fs_get_le32p((const uint8_t *)n +
							   zf2fs_inode_addr_pos(ig.extra_words, 0));
			fd->quota_like[q] = (flags & ZF2FS_IMMUTABLE_FL) &&
					    !zf2fs_get(in->i_namelen) &&
					    zf2fs_get(in->i_links) == 1;
		}
	}
	if (mode == ZF2FS_S_IFDIR && zf2fs_get(in->i_pino) == ZF2FS_ROOT_INO &&
	    zf2fs_get(in->i_namelen) == 10 && !memcmp(in->i_name, "lost+found", 10))
		fd->lf_nid = nid;
}

static int look_at(struct finder *fd, uint64_t addr, const uint8_t *blk)
{
	struct zf2fs_super_found *f = fd->f;
	const struct zf2fs_node_footer *ft = zf2fs_node_footer(&fd->g, blk);
	uint64_t next = zf2fs_get(ft->next_blkaddr);
	int err;

	if ((addr & 3) == 3)
		f->blocks16k++;
	if (addr < f->lay.main_blkaddr) {
		err = grow((void **)&fd->below, &fd->capbelow, fd->nbelow, sizeof(*fd->below));
		if (!err)
			fd->below[fd->nbelow++] = (uint32_t)zf2fs_get(ft->cp_ver);
		return err;
	}
	f->nodes++;
	/* a node log that filled its segment went on at the first block of another one */
	if (next != addr + 1 && next >= f->lay.main_blkaddr && next < f->lay.block_count) {
		f->jumps++;
		if ((next - f->lay.main_blkaddr) % ZF2FS_BLOCKS_PER_SEG == 0)
			f->jumps_aligned++;
	}
	if (zf2fs_get(ft->nid) != zf2fs_get(ft->ino)) {
		uint32_t ofs = zf2fs_node_ofs(&fd->g, blk), low = 0;

		/* a direct node's addresses (not the xattr node's, at the highest offset) */
		if (ofs == XATTR_OFS || !zf2fs_geom_ofs_dnode(&fd->g, ofs))
			return 0;
		for (uint32_t i = 0; i < fd->g.addrs_per_block; i++) {
			uint32_t a = zf2fs_get_le32p(blk + 4 * (size_t)i);

			if (a != ZF2FS_NULL_ADDR && a != ZF2FS_NEW_ADDR &&
			    a != ZF2FS_COMPRESS_ADDR && a < f->lay.main_blkaddr)
				low++;
		}
		if (!low)
			return 0;
		err = grow((void **)&fd->dlow, &fd->capdlow, fd->ndlow, sizeof(*fd->dlow));
		if (!err)
			fd->dlow[fd->ndlow++] = (struct seen_inode){
				.ver = (uint32_t)zf2fs_get(ft->cp_ver), .low = low };
		return err;
	}
	f->inodes++;
	err = grow((void **)&fd->in, &fd->cap, fd->nin, sizeof(*fd->in));
	if (!err)
		look_at_inode(fd, (const struct zf2fs_node *)blk, &fd->in[fd->nin++]);
	return err;
}

static int scan(struct finder *fd, struct zf2fs_dev *dev)
{
	const size_t bs = fd->g.blocksize;
	const uint32_t run = RUN_BYTES / bs;
	uint64_t end = fd->f->lay.block_count;
	uint8_t *buf = malloc(RUN_BYTES);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	/* blocks 0 and 1 are the superblocks' */
	for (uint64_t a = 2; a < end && !err;) {
		uint32_t n = end - a < run ? (uint32_t)(end - a) : run;
		bool whole = !zf2fs_dev_read(dev, buf, n * bs, a * bs);

		for (uint32_t i = 0; i < n && !err; i++) {
			uint8_t *b = buf + (size_t)i * bs;

			/* a run that fails is read block by block: only bad blocks are lost */
			if (!whole && zf2fs_dev_read(dev, b, bs, (a + i) * bs))
				continue;
			if (zf2fs_footer_can_be_node(&fd->g, b, fd->max_nid))
				err = look_at(fd, a + i, b);
		}
		a += n;
	}
	free(buf);
	return err;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The seed most inodes with room for a checksum agree on, in *@ret; whether it is one. */
static int choose_seed(struct finder *fd, uint32_t *ret)
{
	struct zf2fs_super_found *f = fd->f;
	uint32_t *seeds = malloc((fd->nin ? fd->nin : 1) * sizeof(*seeds));
	size_t n = 0, best = 0, run = 0;

	if (!seeds)
		return -ENOMEM;
	for (size_t i = 0; i < fd->nin; i++)
		if (fd->in[i].room)
			seeds[n++] = fd->in[i].seed;
	qsort(seeds, n, sizeof(*seeds), cmp_u32);
	*ret = 0;
	for (size_t i = 0; i < n; i++) {
		run = i && seeds[i] == seeds[i - 1] ? run + 1 : 1;
		if (run > best) {
			best = run;
			*ret = seeds[i];
		}
	}
	free(seeds);
	f->seed_inodes = n;
	f->seed_votes = best;
	/* Any block gives some seed: two inodes agreeing by chance is one in 2^32.  At least
	 * half of them, as copies written under another seed (a volume formatted before on
	 * the same device) are few. */
	f->seed_found = best >= 2 && best * 2 >= n;
	return 0;
}

/* Whether inode @s is this volume's: its checksum gives the seed (when there is one), and
 * its version is near the others'. */
static bool ours(const struct finder *fd, const struct seen_inode *s, uint32_t seed,
		 uint32_t mid)
{
	if (fd->f->seed_found)
		return s->room && s->seed == seed;
	return near_mid(s->ver, mid);
}

static uint32_t middle_version(const struct finder *fd, uint32_t seed)
{
	uint32_t *v = malloc((fd->nin ? fd->nin : 1) * sizeof(*v)), mid = 0;
	size_t n = 0;

	if (!v)
		return 0;
	for (size_t i = 0; i < fd->nin; i++)
		if (!fd->f->seed_found || (fd->in[i].room && fd->in[i].seed == seed))
			v[n++] = fd->in[i].ver;
	qsort(v, n, sizeof(*v), cmp_u32);
	if (n)
		mid = v[n / 2];
	free(v);
	return mid;
}

static uint32_t random_seed(void)
{
	uint32_t r = 0;

	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = (uint32_t)rand();
	return r;
}

static int refuse(struct zf2fs_super_found *f, const char *why)
{
	snprintf(f->why, sizeof(f->why), "%s", why);
	return -ZF2FS_EFSCORRUPTED;
}

/* The checks that the layout is the volume's; 0 or the refusal. */
static int judge(struct finder *fd, uint32_t seed, uint32_t mid)
{
	struct zf2fs_super_found *f = fd->f;
	char why[256];

	if (!f->inodes && fd->nbelow) {
		snprintf(why, sizeof(why), "the %zu node blocks found all lie before the main "
			 "area mkfs.f2fs would make on this device: the volume was made with "
			 "other options or for another size", fd->nbelow);
		return refuse(f, why);
	}
	if (!f->inodes)
		return refuse(f, "no inode found on the device");
	if (f->blocks16k * 10 > f->nodes * 9 && f->nodes >= 8)
		return refuse(f, "the node blocks end 16 KiB blocks: a volume of 16 KiB blocks, "
			      "whose superblock this version does not make again");
	/* a node block before the main area is the volume's when its version is near the
	 * volume's (a stray one from a volume formatted before is not) */
	for (size_t i = 0; i < fd->nbelow; i++)
		if (near_mid(fd->below[i], mid))
			f->below_main++;
	for (size_t i = 0; i < fd->nin; i++)
		if (ours(fd, &fd->in[i], seed, mid))
			f->low_pointers += fd->in[i].low;
	for (size_t i = 0; i < fd->ndlow; i++)
		if (near_mid(fd->dlow[i].ver, mid))
			f->low_pointers += fd->dlow[i].low;
	if (f->below_main || f->low_pointers) {
		snprintf(why, sizeof(why), "%llu node blocks of the volume lie before the main "
			 "area mkfs.f2fs would make on this device, and %llu block addresses point "
			 "there: the volume was made with other options or for another size",
			 (unsigned long long)f->below_main, (unsigned long long)f->low_pointers);
		return refuse(f, why);
	}
	if (f->jumps >= 4 && f->jumps_aligned * 2 < f->jumps) {
		snprintf(why, sizeof(why), "only %llu of the node logs' %llu jumps land on the "
			 "first block of a segment of mkfs.f2fs's layout for this device: the "
			 "volume's segments lie elsewhere", (unsigned long long)f->jumps_aligned,
			 (unsigned long long)f->jumps);
		return refuse(f, why);
	}
	return 0;
}

static void find_features(struct finder *fd, struct zf2fs_dev *dev, uint32_t seed,
			  uint32_t mid)
{
	struct zf2fs_super_found *f = fd->f;
	uint8_t *blk = malloc(fd->g.blocksize);

	for (size_t i = 0; i < fd->nin; i++)
		if (ours(fd, &fd->in[i], seed, mid))
			f->features |= fd->in[i].traits;
	if (f->seed_found)
		f->features |= ZF2FS_FEAT_INODE_CHKSUM;
	/* project ids without a project quota file say nothing the kernel needs */
	f->features &= ~ZF2FS_FEAT_PRJQUOTA;
	for (unsigned q = 0; q < 3 && blk; q++) {
		uint32_t a = fd->quota_addr[q];
		int type = -1;

		if (!fd->quota_seen[q])
			continue;
		if (a >= f->lay.main_blkaddr && a < f->lay.block_count &&
		    !zf2fs_dev_read(dev, blk, fd->g.blocksize, (uint64_t)a * fd->g.blocksize))
			type = zf2fs_quota_magic_type(blk);
		/* its contents lost: a file made as mkfs makes quota files, at the number of
		 * the type mkfs gives it when all three are there (fsck writes it anew) */
		if (type < 0 && fd->quota_like[q])
			type = (int)q;
		if (type >= 0 && !f->qf_ino[type])
			f->qf_ino[type] = ZF2FS_ROOT_INO + 1 + q;
	}
	free(blk);
	if (f->qf_ino[0] || f->qf_ino[1] || f->qf_ino[2])
		f->features |= ZF2FS_FEAT_QUOTA_INO;
	if (f->qf_ino[2])
		f->features |= ZF2FS_FEAT_PRJQUOTA;
	if (fd->lf_nid)
		f->features |= ZF2FS_FEAT_LOST_FOUND;
	if (f->features & (ZF2FS_FEAT_FLEXIBLE_INLINE_XATTR | ZF2FS_FEAT_INODE_CRTIME |
			   ZF2FS_FEAT_COMPRESSION | ZF2FS_FEAT_INODE_CHKSUM | ZF2FS_FEAT_PRJQUOTA))
		f->features |= ZF2FS_FEAT_EXTRA_ATTR;
	if (f->lay.zoned)
		f->features |= ZF2FS_FEAT_BLKZONED;
}

/* Whether checkpoint @cp was written for this layout: its version bitmaps have the
 * layout's sizes, and the last block each node log wrote before it holds a node at the
 * address the layout gives (a pack of a volume laid out otherwise points elsewhere). */
static bool cp_fits(const struct finder *fd, struct zf2fs_dev *dev,
		    const struct zf2fs_checkpoint *cp, uint8_t *blk)
{
	const struct zf2fs_layout *lay = &fd->f->lay;
	unsigned seen = 0;

	if (zf2fs_get(cp->sit_ver_bitmap_bytesize) != lay->sit_bitmap_bytes ||
	    zf2fs_get(cp->nat_ver_bitmap_bytesize) != lay->nat_bitmap_bytes)
		return false;
	for (int i = 0; i < 3; i++) {
		uint64_t seg = zf2fs_get(cp->cur_node_segno[i]);
		uint32_t off = (uint32_t)zf2fs_get(cp->cur_node_blkoff[i]);
		uint64_t a = lay->main_blkaddr + seg * ZF2FS_BLOCKS_PER_SEG + off - 1;

		if (seg >= lay->segment_count_main || off > ZF2FS_BLOCKS_PER_SEG)
			return false;
		if (!off)
			continue;
		if (zf2fs_dev_read(dev, blk, fd->g.blocksize, a * fd->g.blocksize) ||
		    !zf2fs_footer_can_be_node(&fd->g, blk, fd->max_nid))
			return false;
		seen++;
	}
	return seen > 0;
}

/* A checkpoint pack at the layout's place that checks and fits it, or -1; f->cp_foreign
 * when one checks but does not fit. */
static int find_cp(struct finder *fd, struct zf2fs_dev *dev)
{
	struct zf2fs_super_found *f = fd->f;
	const struct zf2fs_geom *g = &fd->g;
	uint8_t *blk = malloc(2 * (size_t)g->blocksize);
	int found = -1;

	for (int p = 0; p < 2 && blk && found < 0; p++) {
		uint64_t a = f->lay.cp_blkaddr + (uint64_t)p * ZF2FS_BLOCKS_PER_SEG;
		uint32_t crc;

		if (zf2fs_dev_read(dev, blk, g->blocksize, a * g->blocksize) ||
		    zf2fs_cp_checksum2(g, blk, &crc) ||
		    crc != zf2fs_get_le32p(blk + zf2fs_get(((struct zf2fs_checkpoint *)blk)->
							  checksum_offset)))
			continue;
		if (cp_fits(fd, dev, (struct zf2fs_checkpoint *)blk, blk + g->blocksize))
			found = p;
		else
			f->cp_foreign = true;
	}
	free(blk);
	return found;
}

ZF2FS_EXPORT int zf2fs_super_find(struct zf2fs_dev *dev, const char *version,
				  struct zf2fs_super_found *f)
{
	struct zf2fs_layout_opts lo = { 0 };
	struct zf2fs_mkfs_opts mo = { 0 };
	struct zf2fs_dev_geom dg;
	struct finder fd = { .f = f };
	uint32_t seed = 0, mid, next_nid = ZF2FS_ROOT_INO + 1, features;
	char why[200];
	int err;

	memset(f, 0, sizeof(*f));
	f->cp_pack = -1;
	err = zf2fs_dev_geometry(dev, &dg);
	if (err)
		return err;
	lo.zoned = dg.zone_model == ZF2FS_ZONED_HM;
	if (zf2fs_layout_compute(&dg, 1, &lo, &f->lay, why, sizeof(why))) {
		snprintf(f->why, sizeof(f->why), "mkfs.f2fs would make no volume on this "
			 "device: %s", why);
		return -ZF2FS_EFSCORRUPTED;
	}
	if (zf2fs_geom_init(&fd.g, ZF2FS_BLKSIZE_BITS, 0))
		return -EINVAL;
	fd.max_nid = (uint64_t)f->lay.segment_count_nat / 2 * ZF2FS_BLOCKS_PER_SEG *
		     fd.g.nat_per_block;
	err = scan(&fd, dev);
	if (!err)
		err = choose_seed(&fd, &seed);
	if (err)
		goto out;
	mid = middle_version(&fd, seed);
	err = judge(&fd, seed, mid);
	if (err)
		goto out;
	find_features(&fd, dev, seed, mid);
	f->cp_pack = find_cp(&fd, dev);

	mo.layout = lo;
	mo.version_string = version;
	mo.s_encoding = 1;   /* UTF-8 12.1, the one encoding Linux knows */
	if (f->seed_found)
		zf2fs_uuid_for_seed(seed, mo.uuid);
	else
		zf2fs_uuid_for_seed(random_seed(), mo.uuid);
	/* the quota files are numbered as found, not as mkfs would number them now */
	features = f->features & ~(ZF2FS_FEAT_QUOTA_INO | ZF2FS_FEAT_PRJQUOTA);
	err = zf2fs_mkfs_fill_super(&f->lay, &mo, ZF2FS_BLKSIZE_BITS, &features, &next_nid,
				    NULL, &f->sb, NULL);
	if (err)
		goto out;
	for (int q = 0; q < 3; q++)
		zf2fs_set(f->sb.qf_ino[q], f->qf_ino[q]);
	zf2fs_set(f->sb.feature, f->features);
	if (f->features & ZF2FS_FEAT_SB_CHKSUM)
		zf2fs_set(f->sb.crc, zf2fs_super_checksum(&f->sb));
out:
	free(fd.in);
	free(fd.below);
	free(fd.dlow);
	return err;
}

ZF2FS_EXPORT int zf2fs_super_found_write(struct zf2fs_dev *dev,
					const struct zf2fs_super_found *f)
{
	const struct zf2fs_super *sb = &f->sb;
	uint8_t blk[ZF2FS_BLKSIZE];
	int err = 0;

	/* A checkpoint the layout does not account for must not be taken for the volume's
	 * once the superblock is there: its places are cleared first (they hold no block of
	 * the volume: zf2fs_super_find made sure). */
	if (f->cp_pack < 0) {
		err = zf2fs_dev_zero(dev, (uint64_t)f->lay.cp_blkaddr * sizeof(blk),
				     (uint64_t)f->lay.segment_count_ckpt * ZF2FS_BLOCKS_PER_SEG *
				     sizeof(blk));
		if (!err)
			err = zf2fs_dev_sync(dev);
	}
	/* the second copy first: until the first is written, the volume reads from it */
	for (int c = 1; c >= 0 && !err; c--) {
		err = zf2fs_dev_read(dev, blk, sizeof(blk), (uint64_t)c * sizeof(blk));
		if (!err) {
			memcpy(blk + ZF2FS_SUPER_OFFSET, sb, sizeof(*sb));
			err = zf2fs_dev_write(dev, blk, sizeof(blk), (uint64_t)c * sizeof(blk));
		}
		if (!err)
			err = zf2fs_dev_sync(dev);
	}
	return err;
}
