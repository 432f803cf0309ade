// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * txn_temp.c - hot, warm and cold: which of the six logs a transaction's blocks go to
 * when it places them as the kernel would (zf2fs_txn_place_as_kernel(); otherwise
 * lib/write/txn.c writes data to the warm data log and nodes to the warm node log).
 *
 * The kernel's rules with its default six logs (fs/f2fs/segment.c, namei.c, data.c):
 * - a new regular file whose name ends in one of the superblock's extensions is marked
 *   cold (the first extension_count entries) or hot (the next hot_ext_count) in
 *   i_advise; "name.ext" or "name.ext.tmp", compared without case, "*" matching all;
 * - data of a file marked cold goes to the cold data log, of one marked hot to the hot
 *   one; otherwise the hot log when writeback finds at most 16 dirty pages (its
 *   min_hot_blocks: small files and directories, written whole), else the warm one;
 * - direct nodes (inodes, direct nodes, xattr nodes) go to the warm node log when their
 *   footer has the cold mark (every file but a directory), else the hot one; indirect
 *   nodes go to the cold node log.
 */
#include "config.h"
#include <strings.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/access.h"
#include "zf2fs/endian.h"
#include "zf2fs/txn_file.h"
#include "write/txn_p.h"
#include "read/volume_p.h"

#define ADVISE_COLD      0x01u
#define ADVISE_HOT       0x20u
#define MIN_HOT_BLOCKS   16u
#define XATTR_NODE_OFS   0x1FFFFFFFu

void zf2fs_txn_place_as_kernel(struct zf2fs_txn *t)
{
	t->kernel_logs = true;
}

/* Whether @name has extension @ext as the kernel matches it at create time: after the
 * last dot of "name.ext", or after any dot but the first byte ("name.ext.tmp"). */
static bool has_extension(const char *name, size_t len, const char *ext, size_t elen)
{
	if (elen == 1 && ext[0] == '*')
		return true;
	if (!elen || len < elen + 2)
		return false;
	for (size_t i = 1; i < len - elen; i++)
		if (name[i] == '.' && !strncasecmp(name + i + 1, ext, elen))
			return true;
	return false;
}

void txn_set_temperature(const struct zf2fs_txn *t, struct zf2fs_node *inode,
			 const char *name, size_t len)
{
	const struct zf2fs_super *sb = &t->vol->sb;
	uint32_t cold = (uint32_t)zf2fs_get(sb->extension_count), hot = sb->hot_ext_count;

	if (!t->kernel_logs || cold > ZF2FS_MAX_EXTENSIONS || cold + hot > ZF2FS_MAX_EXTENSIONS)
		return;
	for (uint32_t i = 0; i < cold + hot; i++) {
		const char *ext = (const char *)sb->extension_list[i];

		if (has_extension(name, len, ext, strnlen(ext, ZF2FS_EXTENSION_LEN))) {
			inode->i.i_advise |= i < cold ? ADVISE_COLD : ADVISE_HOT;
			return;
		}
	}
}

int txn_data_log(const struct zf2fs_txn *t, const struct zf2fs_node *inode)
{
	uint64_t blocks;

	if (!t->kernel_logs || !inode)
		return ZF2FS_LOG_WARM_DATA;
	if (inode->i.i_advise & ADVISE_COLD)
		return ZF2FS_LOG_COLD_DATA;
	if (inode->i.i_advise & ADVISE_HOT)
		return ZF2FS_LOG_HOT_DATA;
	blocks = txn_blocks(t, zf2fs_get(inode->i.i_size));
	return blocks <= MIN_HOT_BLOCKS ? ZF2FS_LOG_HOT_DATA : ZF2FS_LOG_WARM_DATA;
}

int txn_node_log(const struct zf2fs_txn *t, const struct zf2fs_node *n)
{
	const struct zf2fs_geom *g = t->g;
	uint32_t ofs = zf2fs_node_ofs(g, n), ind2 = zf2fs_geom_ofs_ind2(g);
	uint32_t dind = zf2fs_geom_ofs_dind(g);
	bool dnode = true;

	if (!t->kernel_logs)
		return ZF2FS_LOG_WARM_NODE;
	if (ofs != XATTR_NODE_OFS) {
		if (ofs == ZF2FS_OFS_IND1 || ofs == ind2 || ofs == dind)
			dnode = false;
		else if (ofs > dind && (ofs - dind - 1) % (g->nids_per_block + 1) == 0)
			dnode = false;   /* the indirect nodes below the double indirect one */
	}
	if (!dnode)
		return ZF2FS_LOG_COLD_NODE;
	return (zf2fs_get(zf2fs_node_footer(g, n)->flag) & ZF2FS_FOOTER_COLD_BIT) ?
	       ZF2FS_LOG_WARM_NODE : ZF2FS_LOG_HOT_NODE;
}
