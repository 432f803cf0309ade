// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inject_members.c - the members inject.f2fs knows, per on-disk structure.
 *
 * Every offset and size comes from include/zf2fs/format.h through offsetof/sizeof, so the
 * tables cannot drift from the format.  Names are f2fs-tools' where it has one (its
 * inject.f2fs uses the kernel's field names, "i_ext.blk_addr", "devs.path", "d_ino"...).
 */
#include "config.h"
#include <stddef.h>
#include <string.h>

#include "zf2fs/format.h"
#include "zf2fs/geometry.h"
#include "inject.h"

#define FSZ(T, f) ((uint32_t)sizeof(((T *)0)->f))
/* a scalar */
#define M(T, f) { #f, (uint32_t)offsetof(T, f), FSZ(T, f), 1, FSZ(T, f), false }
/* a scalar under another name */
#define MN(name, T, f) { name, (uint32_t)offsetof(T, f), FSZ(T, f), 1, FSZ(T, f), false }
/* an array of integers, picked by --idx */
#define MA(T, f) { #f, (uint32_t)offsetof(T, f), FSZ(T, f[0]), FSZ(T, f) / FSZ(T, f[0]), \
		   FSZ(T, f[0]), false }
#define MAN(name, T, f) { name, (uint32_t)offsetof(T, f), FSZ(T, f[0]), \
			  FSZ(T, f) / FSZ(T, f[0]), FSZ(T, f[0]), false }
/* a byte string (set with --str) */
#define MS(T, f) { #f, (uint32_t)offsetof(T, f), FSZ(T, f), 1, FSZ(T, f), true }
/* an array of byte strings */
#define MSA(T, f) { #f, (uint32_t)offsetof(T, f), FSZ(T, f[0]), FSZ(T, f) / FSZ(T, f[0]), \
		    FSZ(T, f[0]), true }

#define SB struct zf2fs_super
static const struct inject_member sb_members[] = {
	M(SB, magic), M(SB, major_ver), M(SB, minor_ver), M(SB, log_sectorsize),
	M(SB, log_sectors_per_block), M(SB, log_blocksize), M(SB, log_blocks_per_seg),
	M(SB, segs_per_sec), M(SB, secs_per_zone), M(SB, checksum_offset), M(SB, block_count),
	M(SB, section_count), M(SB, segment_count), M(SB, segment_count_ckpt),
	M(SB, segment_count_sit), M(SB, segment_count_nat), M(SB, segment_count_ssa),
	M(SB, segment_count_main), M(SB, segment0_blkaddr), M(SB, cp_blkaddr), M(SB, sit_blkaddr),
	M(SB, nat_blkaddr), M(SB, ssa_blkaddr), M(SB, main_blkaddr), M(SB, root_ino),
	M(SB, node_ino), M(SB, meta_ino), MS(SB, uuid), MS(SB, volume_name),
	M(SB, extension_count), MSA(SB, extension_list), M(SB, cp_payload), MS(SB, version),
	MS(SB, init_version), M(SB, feature), M(SB, encryption_level), MS(SB, encrypt_pw_salt),
	{ "devs.path", (uint32_t)offsetof(SB, devs[0].path), FSZ(SB, devs[0].path),
	  ZF2FS_MAX_DEVICES, (uint32_t)sizeof(struct zf2fs_device_slot), true },
	{ "devs.total_segments", (uint32_t)offsetof(SB, devs[0].total_segments),
	  FSZ(SB, devs[0].total_segments), ZF2FS_MAX_DEVICES,
	  (uint32_t)sizeof(struct zf2fs_device_slot), false },
	MA(SB, qf_ino), M(SB, hot_ext_count), M(SB, s_encoding), M(SB, s_encoding_flags),
	MA(SB, s_stop_reason), MA(SB, s_errors), M(SB, crc),
};

#define CP struct zf2fs_checkpoint
static const struct inject_member cp_members[] = {
	M(CP, checkpoint_ver), M(CP, user_block_count), M(CP, valid_block_count),
	M(CP, rsvd_segment_count), M(CP, overprov_segment_count), M(CP, free_segment_count),
	MA(CP, cur_node_segno), MA(CP, cur_node_blkoff), MA(CP, cur_data_segno),
	MA(CP, cur_data_blkoff), M(CP, ckpt_flags), M(CP, cp_pack_total_block_count),
	M(CP, cp_pack_start_sum), M(CP, valid_node_count), M(CP, valid_inode_count),
	M(CP, next_free_nid), M(CP, sit_ver_bitmap_bytesize), M(CP, nat_ver_bitmap_bytesize),
	M(CP, checksum_offset), M(CP, elapsed_time), MA(CP, alloc_type),
};

static const struct inject_member nat_members[] = {
	M(struct zf2fs_nat_entry, version), M(struct zf2fs_nat_entry, ino),
	M(struct zf2fs_nat_entry, block_addr),
};

static const struct inject_member sit_members[] = {
	M(struct zf2fs_sit_entry, vblocks), MA(struct zf2fs_sit_entry, valid_map),
	M(struct zf2fs_sit_entry, mtime),
};

/* summary entries are picked by --idx (default: the block's slot in its segment) */
static const struct inject_member ssa_entry_members[] = {
	M(struct zf2fs_summary, nid), M(struct zf2fs_summary, version),
	M(struct zf2fs_summary, ofs_in_node),
};

/* offsets in the summary block */
static const struct inject_member ssa_footer_members[] = {
	MN("entry_type", struct zf2fs_summary_block, footer.entry_type),
	MN("check_sum", struct zf2fs_summary_block, footer.check_sum),
};

/* offsets in the node block */
#define ND struct zf2fs_node
static const struct inject_member footer_members[] = {
	MN("nid", ND, footer.nid), MN("ino", ND, footer.ino), MN("flag", ND, footer.flag),
	MN("cp_ver", ND, footer.cp_ver), MN("next_blkaddr", ND, footer.next_blkaddr),
};

#define IN(f) MN(#f, ND, i.f)
static const struct inject_member inode_members[] = {
	IN(i_mode), IN(i_advise), IN(i_inline), IN(i_uid), IN(i_gid), IN(i_links), IN(i_size),
	IN(i_blocks), IN(i_atime), IN(i_ctime), IN(i_mtime), IN(i_atime_nsec), IN(i_ctime_nsec),
	IN(i_mtime_nsec), IN(i_generation), IN(i_current_depth), IN(i_xattr_nid), IN(i_flags),
	IN(i_pino), IN(i_namelen),
	{ "i_name", (uint32_t)offsetof(ND, i.i_name), FSZ(ND, i.i_name), 1, FSZ(ND, i.i_name),
	  true },
	IN(i_dir_level), MN("i_ext.fofs", ND, i.i_ext.fofs),
	MN("i_ext.blk_addr", ND, i.i_ext.blk), MN("i_ext.len", ND, i.i_ext.len),
	IN(i_extra_isize), IN(i_inline_xattr_size), IN(i_projid), IN(i_inode_checksum),
	IN(i_crtime), IN(i_crtime_nsec), IN(i_compr_blocks), IN(i_compress_algorithm),
	IN(i_log_cluster_size), IN(i_compress_flag),
	MAN("i_addr", ND, i.i_addr), MAN("i_nid", ND, i.i_nid),
};

/* direct and indirect nodes: f2fs-tools calls both arrays "addr" */
static const struct inject_member index_members[] = {
	MAN("addr", ND, dn.addr),
};

/* a directory entry; d_bitmap and d_name are handled by the dentry code (they live in the
 * slot bitmap and the name slots, not in struct zf2fs_dir_entry) */
static const struct inject_member dent_members[] = {
	MN("d_hash", struct zf2fs_dir_entry, hash_code), MN("d_ino", struct zf2fs_dir_entry, ino),
	MN("d_name_len", struct zf2fs_dir_entry, name_len),
	MN("d_ftype", struct zf2fs_dir_entry, file_type),
	{ "d_bitmap", 0, 1, 1, 1, false },
	{ "d_name", 0, ZF2FS_NAME_LEN, 1, ZF2FS_NAME_LEN, true },
};

#define TABLE(o, w, a) { o, w, a, sizeof(a) / sizeof(a[0]) }
const struct inject_table inject_tables[] = {
	[TB_SB] = TABLE("sb", "superblock", sb_members),
	[TB_CP] = TABLE("cp", "checkpoint", cp_members),
	[TB_NAT] = TABLE("nat", "NAT entry", nat_members),
	[TB_SIT] = TABLE("sit", "SIT entry", sit_members),
	[TB_SSA_ENTRY] = TABLE("ssa", "summary entry", ssa_entry_members),
	[TB_SSA_FOOTER] = TABLE("ssa", "summary footer", ssa_footer_members),
	[TB_NODE_FOOTER] = TABLE("node", "node footer", footer_members),
	[TB_INODE] = TABLE("node", "inode", inode_members),
	[TB_INDEX] = TABLE("node", "direct/indirect node", index_members),
	[TB_DENT] = TABLE("dent", "directory entry", dent_members),
};
const unsigned inject_ntables = sizeof(inject_tables) / sizeof(inject_tables[0]);

const struct inject_member *inject_find(unsigned table, const char *name)
{
	const struct inject_table *t = &inject_tables[table];

	for (unsigned i = 0; i < t->n; i++)
		if (!strcmp(t->m[i].name, name))
			return &t->m[i];
	return NULL;
}

/* The tables give the members of 4 KiB blocks (format.h's views); a block of another
 * size moves the parts that sit at its end (a node's footer and i_nid[], a summary's
 * footer) and holds longer address arrays (i_addr[], a direct node's addr[]) and
 * summaries of more entries. */
struct inject_member inject_at(const struct zf2fs_geom *g, unsigned table,
			       const struct inject_member *m)
{
	struct inject_member r = *m;

	switch (table) {
	case TB_NODE_FOOTER:
		r.off = m->off - (uint32_t)offsetof(ND, footer) + g->node_footer_offset;
		break;
	case TB_INODE:
		if (!strcmp(m->name, "i_addr"))
			r.count = g->addrs_per_inode;
		else if (!strcmp(m->name, "i_nid"))
			r.off = g->inode_nid_offset;
		break;
	case TB_INDEX:
		r.count = g->addrs_per_block;
		break;
	case TB_SSA_FOOTER:
		r.off = m->off - (uint32_t)offsetof(struct zf2fs_summary_block, footer) +
			g->sum_footer_offset;
		break;
	default:
		break;
	}
	return r;
}

/* One line per member: option, name, byte offset, bytes per element, elements, kind. */
void inject_list(FILE *out)
{
	for (unsigned t = 0; t < inject_ntables; t++)
		for (unsigned i = 0; i < inject_tables[t].n; i++) {
			const struct inject_member *m = &inject_tables[t].m[i];

			fprintf(out, "%-5s %-22s %-26s offset %-5u size %-3u count %-4u %s\n",
				inject_tables[t].opt, m->name, inject_tables[t].what, m->off,
				m->size, m->count, m->str ? "string" : "integer");
		}
}
