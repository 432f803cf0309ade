// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_volume.c - open a freshly formatted volume and read it back through the library:
 * superblock and checkpoint selection, NAT lookups, SIT with journal, node reads, the
 * root directory's entries; then damage one copy or pack and check the fallback.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "unit.h"
#include "zf2fs-internal/rebuild.h"
#include "zf2fs-internal/volume.h"
#include "zf2fs/file.h"
#include "zf2fs/geometry.h"

#define MiB (1024ull * 1024)

static const struct zf2fs_log quiet = { .level = 0 };

static struct zf2fs_dev *make_volume(uint64_t bytes, uint32_t features, struct zf2fs_layout *lay)
{
	struct zf2fs_dev *dev;
	struct zf2fs_dev_geom g;
	struct zf2fs_mkfs_opts mk = { .fixed_cp_version = true, .timestamp = 1 };

	mk.layout.features = features;
	assert_int_equal(zs_dev_open_memory(bytes, &quiet, &dev), 0);
	assert_int_equal(zf2fs_dev_geometry(dev, &g), 0);
	assert_int_equal(zf2fs_layout_compute(&g, 1, &mk.layout, lay, NULL, 0), 0);
	assert_int_equal(zf2fs_mkfs_write(&dev, lay, &mk, &quiet), 0);
	return dev;
}

struct names {
	char seen[8][32];
	int n;
};

static int collect(void *arg, const struct zf2fs_dentry_info *d)
{
	struct names *s = arg;

	if (s->n < 8)
		snprintf(s->seen[s->n++], 32, "%.*s:%u", (int)d->name_len, d->name, d->ino);
	return 0;
}

static void test_open_and_read(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_dev *dev = make_volume(128 * MiB, ZF2FS_FEAT_LOST_FOUND, &lay);
	struct zf2fs_vol *vol;
	struct zf2fs_nat_info ni;
	struct zf2fs_sit_entry *sit;
	struct zf2fs_node node;
	struct names names = { 0 };
	uint32_t addr, seg, off, root_addr;
	char why[128];

	(void)state;
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	assert_int_equal(zf2fs_vol_info(vol)->main_segs, lay.segment_count_main);
	assert_int_equal(zf2fs_vol_info(vol)->cp_pack, 0);
	assert_int_equal(zf2fs_vol_nat_lookup(vol, 3, &ni), 0);
	assert_int_equal(ni.ino, 3);
	root_addr = ni.blkaddr;
	assert_int_equal(zf2fs_vol_nat_lookup(vol, zf2fs_vol_info(vol)->max_nid, &ni), -EINVAL);

	assert_int_equal(zf2fs_vol_load_sit(vol, &sit), 0);
	zf2fs_vol_curseg(vol, ZF2FS_LOG_HOT_NODE, &seg, &off);
	assert_int_equal(off, 2);
	assert_int_equal(zf2fs_get(sit[seg].vblocks) & ZF2FS_SIT_VBLOCKS_MASK, 2);
	free(sit);

	assert_int_equal(zf2fs_vol_read_node(vol, 3, &node, &addr, why, sizeof(why)), 0);
	assert_int_equal(addr, root_addr);
	assert_int_equal(zf2fs_dir_iterate(vol, &node, collect, NULL, &names), 0);
	assert_int_equal(names.n, 3);
	assert_string_equal(names.seen[0], ".:3");
	assert_string_equal(names.seen[1], "..:3");
	assert_string_equal(names.seen[2], "lost+found:4");
	assert_int_equal(zf2fs_vol_read_node(vol, 99, &node, &addr, why, sizeof(why)), -ENOENT);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

/* Whether page @pg of the file mapped at @map is in the page cache. */
static bool resident(void *map, size_t pg)
{
	unsigned char v = 0;
	long psz = sysconf(_SC_PAGESIZE);

	assert_int_equal(mincore((uint8_t *)map + pg * (size_t)psz, (size_t)psz, &v), 0);
	return v & 1;
}

/* Whether page @pg enters the page cache: mincore counts a page once its read is done,
 * which the read-ahead does not wait for (up to 20 s, for a loaded machine). */
static bool becomes_resident(void *map, size_t pg)
{
	for (int i = 0; i < 2000; i++) {
		if (resident(map, pg))
			return true;
		usleep(10000);
	}
	return false;
}

/* zf2fs_vol_willneed on a volume in a file: the blocks asked for enter the page cache,
 * one not asked for stays out, addresses outside the volume are ignored. */
static void test_willneed(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_dev *mem = make_volume(64 * MiB, ZF2FS_FEAT_LOST_FOUND, &lay);
	char path[] = "/var/tmp/zf2fs-willneed.XXXXXX";
	const char *paths[1] = { path };
	struct zf2fs_vol *vol;
	uint64_t blks[4];
	uint64_t main0;
	long psz = sysconf(_SC_PAGESIZE);
	int fd = mkstemp(path);
	void *map;

	(void)state;
	if (fd < 0 || psz != 4096) {
		if (fd >= 0)
			unlink(path);
		zf2fs_dev_close(mem);
		skip();
	}
	assert_true(write(fd, zs_dev_memory(mem), 64 * MiB) == (ssize_t)(64 * MiB));
	zf2fs_dev_close(mem);
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(zf2fs_vol_open(paths, 1, 0, &quiet, &vol), 0);
	main0 = zf2fs_vol_info(vol)->main_blkaddr;
	map = mmap(NULL, 64 * MiB, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(map != MAP_FAILED);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	if (resident(map, main0 + 40) || resident(map, main0 + 7)) {
		/* a file system that keeps every page (tmpfs): nothing to see */
		munmap(map, 64 * MiB);
		zf2fs_vol_close(vol);
		close(fd);
		unlink(path);
		skip();
	}
	blks[0] = main0 + 9;
	blks[1] = main0 + 7;
	blks[2] = main0 + 8;
	blks[3] = UINT64_C(1) << 40;   /* past the volume: ignored */
	zf2fs_vol_willneed(vol, blks, 4);
	assert_true(blks[0] == main0 + 7 && blks[2] == main0 + 9);   /* sorted */
	zf2fs_vol_willneed_run(vol, main0 + 20, 2);
	assert_true(becomes_resident(map, main0 + 7) && becomes_resident(map, main0 + 8) &&
		    becomes_resident(map, main0 + 9));
	assert_true(becomes_resident(map, main0 + 20) && becomes_resident(map, main0 + 21));
	assert_false(resident(map, main0 + 40));
	munmap(map, 64 * MiB);
	zf2fs_vol_close(vol);
	close(fd);
	unlink(path);
}

/* The lines a read trace holds so far (each read of the device one line). */
static int trace_lines(int fd)
{
	char buf[4096];
	ssize_t n;
	int lines = 0;

	assert_true(lseek(fd, 0, SEEK_SET) == 0);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
	return lines;
}

/* zf2fs_vol_preload: the blocks named are read in address order, a request per run of
 * adjacent ones, and the single-block reads that follow come from memory with the
 * device's bytes; a block outside the window, one written since and one the window could
 * not read go to the device (the last with its error); the window is bounded. */
static void test_preload(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_dev *dev = make_volume(64 * MiB, ZF2FS_FEAT_LOST_FOUND, &lay);
	char path[] = "/tmp/zf2fs-preload-trace.XXXXXX";
	int fd = mkstemp(path);
	struct zf2fs_vol *vol;
	uint8_t want[ZF2FS_BLKSIZE], got[ZF2FS_BLKSIZE];
	uint64_t main0, blks[5], *many;
	size_t max;
	int lines;

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	main0 = zf2fs_vol_info(vol)->main_blkaddr;
	/* distinct contents, so that a block served from the wrong slot shows */
	for (uint64_t b = 0; b < 32; b++) {
		memset(want, (int)(0x40 + b), sizeof(want));
		assert_int_equal(zf2fs_vol_write_block(vol, main0 + b, want), 0);
	}
	zs_dev_trace_reads(zf2fs_vol_dev(vol, 0), fd);
	blks[0] = main0 + 9;
	blks[1] = main0 + 7;
	blks[2] = main0 + 20;
	blks[3] = main0 + 8;
	blks[4] = main0 + 9;   /* twice: read once */
	assert_int_equal(zf2fs_vol_preload(vol, blks, 5), 5);
	assert_int_equal(trace_lines(fd), 2);   /* 7..9 and 20 */
	for (uint64_t b = 7; b <= 9; b++) {
		memset(want, (int)(0x40 + b), sizeof(want));
		assert_int_equal(zf2fs_vol_read_block(vol, main0 + b, got), 0);
		assert_memory_equal(got, want, sizeof(want));
	}
	assert_int_equal(zf2fs_vol_read_block(vol, main0 + 20, got), 0);
	assert_int_equal(got[0], 0x40 + 20);
	assert_int_equal(trace_lines(fd), 2);   /* all from memory */
	assert_int_equal(zf2fs_vol_read_block(vol, main0 + 10, got), 0);
	assert_int_equal(got[0], 0x40 + 10);
	assert_int_equal(trace_lines(fd), 3);   /* not in the window */
	/* a write replaces the block on the device: the window's copy is not used */
	memset(want, 0x11, sizeof(want));
	assert_int_equal(zf2fs_vol_write_block(vol, main0 + 8, want), 0);
	assert_int_equal(zf2fs_vol_read_block(vol, main0 + 8, got), 0);
	assert_memory_equal(got, want, sizeof(want));
	assert_int_equal(trace_lines(fd), 4);
	/* the next window replaces this one */
	blks[0] = main0 + 21;
	assert_int_equal(zf2fs_vol_preload(vol, blks, 1), 1);
	assert_int_equal(trace_lines(fd), 5);
	assert_int_equal(zf2fs_vol_read_block(vol, main0 + 7, got), 0);
	assert_int_equal(trace_lines(fd), 6);
	/* a block past the volume's end: not read early, and its own read fails as before */
	blks[0] = UINT64_C(1) << 40;
	assert_int_equal(zf2fs_vol_preload(vol, blks, 1), 1);
	assert_int_equal(trace_lines(fd), 6);
	assert_int_equal(zf2fs_vol_read_block(vol, blks[0], got), -ERANGE);
	/* bounded: the first max of a longer list, in the caller's order */
	max = zf2fs_vol_preload_max(vol);
	assert_true(max >= 64 && max < 32768);
	many = calloc(max + 10, sizeof(*many));
	assert_non_null(many);
	for (size_t i = 0; i < max + 10; i++)
		many[i] = main0 + 10 + (max + 9 - i);   /* descending */
	assert_int_equal(zf2fs_vol_preload(vol, many, max + 10), max);
	lines = trace_lines(fd);
	/* main0 + 20 .. + max + 19 in a few large requests */
	assert_true(lines > 6 && lines - 6 <= (int)(max / 64));
	assert_int_equal(zf2fs_vol_read_block(vol, main0 + 20, got), 0);
	assert_int_equal(zf2fs_vol_read_block(vol, main0 + 19 + max, got), 0);
	assert_int_equal(trace_lines(fd), lines);
	assert_int_equal(zf2fs_vol_read_block(vol, main0 + 19, got), 0);
	assert_int_equal(trace_lines(fd), lines + 1);   /* 19 was past the first max */
	free(many);
	/* freed: every read goes to the device again */
	assert_int_equal(zf2fs_vol_preload(vol, NULL, 0), 0);
	assert_int_equal(zf2fs_vol_read_block(vol, main0 + 20, got), 0);
	assert_int_equal(trace_lines(fd), lines + 2);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
	close(fd);
}

struct scanned {
	uint64_t addr[16];
	uint32_t nid[16];
	int n, stop_at;
};

static int on_scanned(void *arg, uint64_t blkaddr, const void *node)
{
	struct scanned *s = arg;
	const struct zf2fs_node_footer *f = zf2fs_node_footer(zf2fs_geom_4k(), node);

	if (s->n < 16) {
		s->addr[s->n] = blkaddr;
		s->nid[s->n] = (uint32_t)zf2fs_get(f->nid);
	}
	s->n++;
	return s->n == s->stop_at ? 77 : 0;
}

/* zf2fs_vol_scan_nodes: the main area in address order; the inodes mkfs wrote where the
 * NAT says, a copy of one found beside it, blocks whose footers cannot be a node's
 * (a nid past the NAT, an inode's footer at a nonzero offset) passed over; a nonzero
 * return of the callback ends the scan with that value. */
static void test_scan_nodes(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_dev *dev = make_volume(64 * MiB, ZF2FS_FEAT_LOST_FOUND, &lay);
	struct zf2fs_vol *vol;
	struct zf2fs_nat_info root, lf;
	struct scanned s = { .stop_at = -1 };
	uint8_t blk[ZF2FS_BLKSIZE];
	struct zf2fs_node_footer *f = zf2fs_node_footer(zf2fs_geom_4k(), blk);
	uint64_t end;

	(void)state;
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	end = zf2fs_vol_info(vol)->main_end;
	assert_int_equal(zf2fs_vol_nat_lookup(vol, 3, &root), 0);
	assert_int_equal(zf2fs_vol_nat_lookup(vol, 4, &lf), 0);
	assert_int_equal(zf2fs_vol_scan_nodes(vol, on_scanned, &s), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.nid[0] + s.nid[1], 7);
	assert_true((s.addr[0] == root.blkaddr && s.addr[1] == lf.blkaddr) ||
		    (s.addr[0] == lf.blkaddr && s.addr[1] == root.blkaddr));
	/* a copy of the root inode in the last block, and two blocks that are no nodes */
	assert_int_equal(zf2fs_vol_read_block(vol, root.blkaddr, blk), 0);
	assert_int_equal(zf2fs_vol_write_block(vol, end - 1, blk), 0);
	zf2fs_set(f->flag, 1u << ZF2FS_FOOTER_OFS_SHIFT);   /* an inode at offset 1 */
	assert_int_equal(zf2fs_vol_write_block(vol, end - 2, blk), 0);
	zf2fs_set(f->flag, 0);
	zf2fs_set(f->nid, zf2fs_vol_info(vol)->max_nid);
	zf2fs_set(f->ino, zf2fs_vol_info(vol)->max_nid);
	assert_int_equal(zf2fs_vol_write_block(vol, end - 3, blk), 0);
	memset(&s, 0, sizeof(s));
	s.stop_at = -1;
	assert_int_equal(zf2fs_vol_scan_nodes(vol, on_scanned, &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.addr[2], end - 1);
	assert_int_equal(s.nid[2], 3);
	/* the callback's return stops the scan */
	memset(&s, 0, sizeof(s));
	s.stop_at = 1;
	assert_int_equal(zf2fs_vol_scan_nodes(vol, on_scanned, &s), 77);
	assert_int_equal(s.n, 1);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

/* Both checkpoint packs zeroed: the volume opens only through its superblock; the rebuild
 * finds root and lost+found, passes over an older copy of the root, a newer one whose
 * checksum fails and an inode with no link, and writes a checkpoint the next open takes,
 * pointing at the same blocks, its version above every node's (the bad copy's too). */
static void test_rebuild(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_dev *dev = make_volume(64 * MiB, ZF2FS_FEAT_LOST_FOUND | ZF2FS_FEAT_EXTRA_ATTR |
					    ZF2FS_FEAT_INODE_CHKSUM, &lay);
	struct zf2fs_vol *vol;
	struct zf2fs_nat_info root, lf, got;
	struct zf2fs_rebuild_report rep;
	uint8_t blk[ZF2FS_BLKSIZE], zero[ZF2FS_BLKSIZE] = { 0 };
	struct zf2fs_node *n = (struct zf2fs_node *)blk;
	struct zf2fs_node_footer *f = zf2fs_node_footer(zf2fs_geom_4k(), blk);
	uint64_t end, ver;

	(void)state;
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	end = zf2fs_vol_info(vol)->main_end;
	ver = zf2fs_vol_info(vol)->cp_ver;
	assert_int_equal(zf2fs_vol_nat_lookup(vol, 3, &root), 0);
	assert_int_equal(zf2fs_vol_nat_lookup(vol, 4, &lf), 0);
	/* an older copy of the root, and a deleted inode (no link) at nid 9 */
	assert_int_equal(zf2fs_vol_read_block(vol, root.blkaddr, blk), 0);
	zf2fs_set(f->cp_ver, zf2fs_get(f->cp_ver) - 1);
	assert_int_equal(zf2fs_vol_write_block(vol, end - 1, blk), 0);
	/* a newer copy whose checksum no longer holds */
	zf2fs_set(f->cp_ver, zf2fs_get(f->cp_ver) + 6);
	zf2fs_set(n->i.i_inode_checksum, zf2fs_get(n->i.i_inode_checksum) ^ 1);
	assert_int_equal(zf2fs_vol_write_block(vol, end - 3, blk), 0);
	zf2fs_set(n->i.i_inode_checksum, zf2fs_get(n->i.i_inode_checksum) ^ 1);
	zf2fs_set(f->cp_ver, zf2fs_get(f->cp_ver) - 5);
	zf2fs_set(f->nid, 9);
	zf2fs_set(f->ino, 9);
	zf2fs_set(n->i.i_links, 0);
	assert_int_equal(zf2fs_vol_write_block(vol, end - 2, blk), 0);
	for (unsigned p = 0; p < 2; p++)
		assert_int_equal(zf2fs_vol_write_block(vol, zf2fs_vol_cp_pack_addr(vol, p), zero), 0);
	zf2fs_vol_close(vol);

	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), -ZF2FS_EFSCORRUPTED);
	assert_int_equal(zf2fs_vol_open_devs_flags(&dev, 1, ZF2FS_VOL_NO_CHECKPOINT, &quiet,
						   &vol), 0);
	assert_false(zf2fs_vol_has_checkpoint(vol));
	assert_int_equal(zf2fs_vol_rebuild(vol, ZF2FS_REBUILD_DRY_RUN, &rep), 0);
	assert_int_equal(rep.candidates, 5);
	assert_int_equal(rep.older_copies, 2);
	/* nid 9's one copy carries the root's checksum; the root has a good copy */
	assert_int_equal(rep.damaged_inodes, 1);
	assert_int_equal(rep.unlinked, 1);
	assert_int_equal(rep.inodes, 2);
	assert_false(rep.had_checkpoint);
	assert_int_equal(zf2fs_vol_rebuild(vol, 0, &rep), 0);
	assert_true(rep.written);
	assert_int_equal(rep.cp_ver, ver + 6);
	zf2fs_vol_close(vol);

	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	assert_true(zf2fs_vol_has_checkpoint(vol));
	assert_int_equal(zf2fs_vol_info(vol)->cp_ver, ver + 6);
	assert_int_equal(zf2fs_vol_nat_lookup(vol, 3, &got), 0);
	assert_int_equal(got.blkaddr, root.blkaddr);
	assert_int_equal(zf2fs_vol_nat_lookup(vol, 4, &got), 0);
	assert_int_equal(got.blkaddr, lf.blkaddr);
	assert_int_equal(zf2fs_vol_nat_lookup(vol, 9, &got), 0);
	assert_int_equal(got.blkaddr, 0);
	assert_int_equal(zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_inode_count), 2);
	assert_int_equal(zf2fs_get(zf2fs_vol_checkpoint(vol)->valid_node_count), 2);
	/* both packs hold it */
	assert_int_equal(zf2fs_vol_cp_problem(vol, 0)[0], 0);
	assert_int_equal(zf2fs_vol_cp_problem(vol, 1)[0], 0);
	zf2fs_vol_close(vol);
	zf2fs_dev_close(dev);
}

static void test_fallbacks(void **state)
{
	struct zf2fs_layout lay;
	struct zf2fs_dev *dev = make_volume(64 * MiB, 0, &lay);
	struct zf2fs_vol *vol;
	uint8_t junk[16] = "garbage garbage";

	(void)state;
	assert_int_equal(zf2fs_dev_write(dev, junk, sizeof(junk), ZF2FS_SUPER_OFFSET), 0);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	assert_int_equal(zf2fs_vol_info(vol)->sb_copy, 1);
	assert_non_null(strstr(zf2fs_vol_super_problem(vol, 0), "magic"));
	zf2fs_vol_close(vol);

	assert_int_equal(zf2fs_dev_write(dev, junk, sizeof(junk),
					 (uint64_t)lay.cp_blkaddr * ZF2FS_BLKSIZE + 200), 0);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), 0);
	assert_int_equal(zf2fs_vol_info(vol)->cp_pack, 1);
	assert_non_null(strstr(zf2fs_vol_cp_problem(vol, 0), "checksum"));
	zf2fs_vol_close(vol);

	/* both superblock copies bad: refused, no crash */
	assert_int_equal(zf2fs_dev_write(dev, junk, sizeof(junk),
					 ZF2FS_BLKSIZE + ZF2FS_SUPER_OFFSET), 0);
	assert_int_equal(zf2fs_vol_open_devs(&dev, 1, &quiet, &vol), -ZF2FS_EFSCORRUPTED);
	zf2fs_dev_close(dev);
}

/* The views of 16 KiB node and dentry blocks, which need no volume: an inode's address
 * slots and inline area, the inline dentry and a dentry block's parts, and the file
 * offset of a node's slot through the larger indirect nodes. */
static void test_views_16k(void **state)
{
	static uint8_t blk[16384];
	struct zf2fs_inode *in = (void *)blk;
	struct zf2fs_inode_geom ig;
	struct zf2fs_geom_inline area;
	struct zf2fs_dentry_view v;
	struct zf2fs_geom g;
	const uint8_t *addrs = blk + offsetof(struct zf2fs_inode, i_addr);

	(void)state;
	assert_int_equal(zf2fs_geom_init(&g, 14, 0), 0);
	zf2fs_set(in->i_mode, ZF2FS_S_IFDIR | 0755);
	in->i_inline = ZF2FS_EXTRA_ATTR | ZF2FS_INLINE_DENTRY;
	zf2fs_set(in->i_extra_isize, 36);
	/* without flexible_inline_xattr an inline dentry keeps 50 words of xattrs */
	assert_int_equal(zf2fs_inode_geometry2(&g, in, ZF2FS_FEAT_EXTRA_ATTR, &ig), 0);
	assert_int_equal(ig.extra_words, 9);
	assert_int_equal(ig.xattr_words, 50);
	assert_int_equal(ig.addrs, 3995 - 9 - 50);
	assert_int_equal(ig.addrs_per_block, 4090);
	assert_int_equal(ig.inline_bytes, 4 * (3995 - 9 - 50 - 1));
	assert_int_equal(zf2fs_geom_inline_area(&g, 36, 50, &area), 0);
	assert_int_equal(ig.inline_bytes, area.data_bytes);
	/* the 4 KiB reading of the same fields */
	assert_int_equal(zf2fs_inode_geometry(in, ZF2FS_FEAT_EXTRA_ATTR, &ig), 0);
	assert_int_equal(ig.addrs, 923 - 9 - 50);

	/* inline dentry: after the reserved word, bitmap, reserved bytes, entries, names */
	assert_int_equal(zf2fs_dentry_view_inline2(&g, (void *)blk, ZF2FS_FEAT_EXTRA_ATTR, &v), 0);
	assert_int_equal(v.nr, area.dentry_slots);
	assert_ptr_equal(v.bitmap, addrs + 4 * (9 + 1));
	assert_ptr_equal((const uint8_t *)v.dentry, v.bitmap + area.dentry_bitmap_size +
			 area.dentry_reserved);
	assert_ptr_equal((const uint8_t *)v.filename, (const uint8_t *)v.dentry + 11 * v.nr);
	assert_ptr_equal((const uint8_t *)v.filename + 8 * v.nr, addrs + 4 * (3995 - 50));

	/* a dentry block: 856 slots, entries after 107 bitmap and 13 reserved bytes */
	zf2fs_dentry_view_block2(&g, blk, &v);
	assert_int_equal(v.nr, 856);
	assert_ptr_equal(v.bitmap, blk);
	assert_ptr_equal((const uint8_t *)v.dentry, blk + 120);
	assert_ptr_equal((const uint8_t *)v.filename, blk + 120 + 11 * 856);
	blk[106] = 0x80;
	assert_true(zf2fs_dentry_slot_used(&v, 855));
	assert_false(zf2fs_dentry_slot_used(&v, 856));
	zf2fs_dentry_view_block(blk, &v);
	assert_int_equal(v.nr, ZF2FS_DENTRY_PER_BLOCK);

	/* file offsets: the inode's slots, then 2 direct nodes, 4090 under the first
	 * indirect node, and so on */
	zf2fs_set(in->i_mode, ZF2FS_S_IFREG | 0644);
	in->i_inline = ZF2FS_EXTRA_ATTR;
	assert_int_equal(zf2fs_inode_geometry2(&g, in, ZF2FS_FEAT_EXTRA_ATTR, &ig), 0);
	assert_int_equal(ig.addrs, 3995 - 9);
	assert_int_equal(zf2fs_node_fofs2(&g, &ig, 0, 7), 7);
	assert_int_equal(zf2fs_node_fofs2(&g, &ig, ZF2FS_OFS_DIR2, 1), 3986 + 4090 + 1);
	/* the first direct node under the second indirect one (offset 4095) */
	assert_int_equal(zf2fs_node_fofs2(&g, &ig, 4095, 5), 3986 + 4092ull * 4090 + 5);
	/* the first direct node under the double indirect node's first indirect one */
	assert_int_equal(zf2fs_node_fofs2(&g, &ig, 8187, 0), 3986 + 8182ull * 4090);
	assert_int_equal(zf2fs_node_fofs2(&g, &ig, 8187 + 4091, 0), 3986 + 12272ull * 4090);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_and_read),
		cmocka_unit_test(test_willneed),
		cmocka_unit_test(test_preload),
		cmocka_unit_test(test_scan_nodes),
		cmocka_unit_test(test_rebuild),
		cmocka_unit_test(test_fallbacks),
		cmocka_unit_test(test_views_16k),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
