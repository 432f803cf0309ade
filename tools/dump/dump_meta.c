// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump_meta.c - dump.f2fs views of the metadata areas: superblock, both checkpoint packs,
 * NAT and SIT entries, segment summaries and a per-segment table.
 *
 * Values come from the library's view of the volume (the superblock copy and checkpoint
 * pack it chose, journals applied); raw blocks are read only for what the library does not
 * keep (the other checkpoint pack, NAT blocks in bulk).  Every count taken from disk is
 * clamped to what its container can hold before it drives a loop.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "zf2fs/geometry.h"
#include "zf2fs-internal/volume.h"
#include "dump.h"

#define BPS ZF2FS_BLOCKS_PER_SEG

int dump_load_sit(struct dump_ctx *c)
{
	int err;

	if (c->sit)
		return 0;
	err = zf2fs_vol_load_sit_table(c->vol, &c->sit);
	if (err)
		dump_error("%s: while reading the SIT", strerror(err == -ZF2FS_EFSCORRUPTED ?
			   EUCLEAN : -err));
	return err;
}

int dump_sit_entry(struct dump_ctx *c, uint64_t segno, struct zf2fs_sit_entry *ret)
{
	int err;

	if (c->sit) {
		*ret = *zf2fs_sit_table_get(c->sit, (uint32_t)segno);
		return 0;
	}
	err = zf2fs_vol_sit_lookup(c->vol, (uint32_t)segno, ret);
	if (err)
		dump_error("%s: while reading the SIT entry of segment %llu",
			   strerror(err == -ZF2FS_EFSCORRUPTED ? EUCLEAN : -err),
			   (unsigned long long)segno);
	return err;
}

/* ---- superblock ------------------------------------------------------------------------- */
void dump_bit_list(struct out *o, const char *key, uint32_t word,
		     const char *(*name_of)(uint32_t))
{
	out_list(o, key);
	for (unsigned b = 0; b < 32; b++) {
		const char *name;

		if (!(word & (1u << b)))
			continue;
		name = name_of(1u << b);
		out_row(o);
		out_x(o, "bit", 1u << b);
		out_s(o, "name", name ? name : "unknown");
		out_row_end(o);
	}
	out_list_end(o);
}

/* The slots of s_stop_reason that count something, by the kernel's name. */
static void stop_reason_list(struct out *o, const struct zf2fs_super *sb)
{
	out_list(o, "stop_reasons");
	for (unsigned i = 0; i < sizeof(sb->s_stop_reason); i++) {
		if (!sb->s_stop_reason[i])
			continue;
		out_row(o);
		out_u(o, "slot", i);
		out_s(o, "name", zf2fs_stop_reason_name(i) ? zf2fs_stop_reason_name(i) : "unknown");
		out_u(o, "count", sb->s_stop_reason[i]);
		out_row_end(o);
	}
	out_list_end(o);
}

static void bounded_string(struct out *o, const char *key, const uint8_t *s, size_t cap)
{
	size_t n = 0;

	while (n < cap && s[n])
		n++;
	out_sn(o, key, s, n);
}

int dump_superblock(struct dump_ctx *c)
{
	const struct zf2fs_super *sb = zf2fs_vol_super(c->vol);
	struct out *o = &c->out;
	char name[ZF2FS_MAX_VOLUME_NAME * 4 + 1];
	uint32_t ext = (uint32_t)zf2fs_get(sb->extension_count), hot = sb->hot_ext_count;

	out_obj(o, "superblock");
	out_u(o, "copy", (uint64_t)c->info->sb_copy);
	out_list(o, "copies");
	for (int i = 0; i < 2; i++) {
		const char *why = zf2fs_vol_super_problem(c->vol, i);

		out_row(o);
		out_u(o, "copy", (uint64_t)i);
		out_b(o, "valid", !why[0]);
		out_s(o, "problem", why);
		out_row_end(o);
	}
	out_list_end(o);
	out_x(o, "magic", zf2fs_get(sb->magic));
	out_u(o, "major_ver", zf2fs_get(sb->major_ver));
	out_u(o, "minor_ver", zf2fs_get(sb->minor_ver));
	out_u(o, "log_sectorsize", zf2fs_get(sb->log_sectorsize));
	out_u(o, "log_sectors_per_block", zf2fs_get(sb->log_sectors_per_block));
	out_u(o, "log_blocksize", zf2fs_get(sb->log_blocksize));
	out_u(o, "log_blocks_per_seg", zf2fs_get(sb->log_blocks_per_seg));
	out_u(o, "segs_per_sec", zf2fs_get(sb->segs_per_sec));
	out_u(o, "secs_per_zone", zf2fs_get(sb->secs_per_zone));
	out_u(o, "checksum_offset", zf2fs_get(sb->checksum_offset));
	out_x(o, "block_count", zf2fs_get(sb->block_count));
	out_u(o, "section_count", zf2fs_get(sb->section_count));
	out_u(o, "segment_count", zf2fs_get(sb->segment_count));
	out_u(o, "segment_count_ckpt", zf2fs_get(sb->segment_count_ckpt));
	out_u(o, "segment_count_sit", zf2fs_get(sb->segment_count_sit));
	out_u(o, "segment_count_nat", zf2fs_get(sb->segment_count_nat));
	out_u(o, "segment_count_ssa", zf2fs_get(sb->segment_count_ssa));
	out_u(o, "segment_count_main", zf2fs_get(sb->segment_count_main));
	out_x(o, "segment0_blkaddr", zf2fs_get(sb->segment0_blkaddr));
	out_x(o, "cp_blkaddr", zf2fs_get(sb->cp_blkaddr));
	out_x(o, "sit_blkaddr", zf2fs_get(sb->sit_blkaddr));
	out_x(o, "nat_blkaddr", zf2fs_get(sb->nat_blkaddr));
	out_x(o, "ssa_blkaddr", zf2fs_get(sb->ssa_blkaddr));
	out_x(o, "main_blkaddr", zf2fs_get(sb->main_blkaddr));
	out_u(o, "root_ino", zf2fs_get(sb->root_ino));
	out_u(o, "node_ino", zf2fs_get(sb->node_ino));
	out_u(o, "meta_ino", zf2fs_get(sb->meta_ino));
	out_hex(o, "uuid", sb->uuid, sizeof(sb->uuid));
	out_sn(o, "volume_name", name, zf2fs_label_to_utf8(sb->volume_name, name, sizeof(name)));
	out_u(o, "extension_count", ext);
	out_u(o, "hot_ext_count", hot);
	if (ext > ZF2FS_MAX_EXTENSIONS) {
		dump_damage(c, "superblock: extension_count %u exceeds %d", ext,
			    ZF2FS_MAX_EXTENSIONS);
		ext = ZF2FS_MAX_EXTENSIONS;
	}
	out_list(o, "extensions");
	for (uint32_t i = 0; i < ext; i++) {
		out_row(o);
		bounded_string(o, "name", sb->extension_list[i], ZF2FS_EXTENSION_LEN);
		out_s(o, "temperature", i + hot >= ext ? "hot" : "cold");
		out_row_end(o);
	}
	out_list_end(o);
	out_u(o, "cp_payload", zf2fs_get(sb->cp_payload));
	bounded_string(o, "version", sb->version, ZF2FS_VERSION_LEN);
	bounded_string(o, "init_version", sb->init_version, ZF2FS_VERSION_LEN);
	out_x(o, "feature", zf2fs_get(sb->feature));
	dump_bit_list(o, "features", (uint32_t)zf2fs_get(sb->feature), zf2fs_feature_name);
	out_u(o, "encryption_level", sb->encryption_level);
	out_hex(o, "encrypt_pw_salt", sb->encrypt_pw_salt, sizeof(sb->encrypt_pw_salt));
	out_list(o, "devices");
	for (unsigned i = 0; i < ZF2FS_MAX_DEVICES && sb->devs[i].path[0]; i++) {
		out_row(o);
		bounded_string(o, "path", sb->devs[i].path, ZF2FS_DEVICE_PATH_LEN);
		out_u(o, "total_segments", zf2fs_get(sb->devs[i].total_segments));
		out_row_end(o);
	}
	out_list_end(o);
	{
		uint64_t q[ZF2FS_MAX_QUOTAS];

		for (int i = 0; i < ZF2FS_MAX_QUOTAS; i++)
			q[i] = zf2fs_get(sb->qf_ino[i]);
		out_u_array(o, "qf_ino", q, ZF2FS_MAX_QUOTAS);
	}
	out_u(o, "s_encoding", zf2fs_get(sb->s_encoding));
	out_u(o, "s_encoding_flags", zf2fs_get(sb->s_encoding_flags));
	dump_bit_list(o, "encoding_flags", zf2fs_get(sb->s_encoding_flags),
		      zf2fs_encoding_flag_name);
	out_hex(o, "s_stop_reason", sb->s_stop_reason, sizeof(sb->s_stop_reason));
	stop_reason_list(o, sb);
	out_hex(o, "s_errors", sb->s_errors, sizeof(sb->s_errors));
	out_x(o, "crc", zf2fs_get(sb->crc));
	if (zf2fs_get(sb->feature) & ZF2FS_FEAT_SB_CHKSUM)
		out_b(o, "crc_ok", zf2fs_super_checksum(sb) == zf2fs_get(sb->crc));
	out_obj_end(o);
	return 0;
}

/* ---- checkpoint ------------------------------------------------------------------------- */
static void cp_flag_list(struct out *o, uint32_t flags)
{
	out_list(o, "flags");
	for (unsigned b = 0; b < 32; b++) {
		if (!(flags & (1u << b)))
			continue;
		out_row(o);
		out_x(o, "bit", 1u << b);
		out_s(o, "name", zf2fs_cp_flag_name(1u << b) ? zf2fs_cp_flag_name(1u << b) :
				 "unknown");
		out_row_end(o);
	}
	out_list_end(o);
}

static void orphans(struct dump_ctx *c, const struct zf2fs_checkpoint *cp, uint64_t pack)
{
	struct out *o = &c->out;
	uint64_t total = zf2fs_get(cp->cp_pack_total_block_count);
	uint64_t start_sum = zf2fs_get(cp->cp_pack_start_sum);
	uint64_t first = 1 + zf2fs_get(c->vol ? zf2fs_vol_super(c->vol)->cp_payload : 0);
	struct zf2fs_orphan_block *ob;

	out_list(o, "orphans");
	if (!(zf2fs_get(cp->ckpt_flags) & ZF2FS_CP_ORPHAN_PRESENT_FLAG)) {
		out_list_end(o);
		return;
	}
	if (start_sum > total || start_sum > BPS || start_sum < first) {
		dump_damage(c, "checkpoint pack at %llu: cp_pack_start_sum %llu cannot leave room "
			    "for orphan blocks", (unsigned long long)pack,
			    (unsigned long long)start_sum);
		out_list_end(o);
		return;
	}
	ob = malloc(c->g->blocksize);
	if (!ob) {
		out_list_end(o);
		return;
	}
	for (uint64_t b = first; b < start_sum; b++) {
		uint32_t n;

		if (zf2fs_vol_read_block(c->vol, pack + b, ob))
			break;
		/* the entries fill the block up to its 16 trailing bytes, whose entry_count
		 * is the third word */
		n = zf2fs_get_le32p((const uint8_t *)ob + c->g->blocksize - 8);
		if (n > c->g->orphans_per_block) {
			dump_damage(c, "orphan block %llu: entry_count %u exceeds %u",
				    (unsigned long long)(pack + b), n, c->g->orphans_per_block);
			n = c->g->orphans_per_block;
		}
		for (uint32_t i = 0; i < n; i++) {
			out_row(o);
			out_u(o, "ino", zf2fs_get_le32p((const uint8_t *)ob + 4 * (size_t)i));
			out_u(o, "block", pack + b);
			out_row_end(o);
		}
	}
	free(ob);
	out_list_end(o);
}

static void cp_fields(struct dump_ctx *c, const struct zf2fs_checkpoint *cp)
{
	struct out *o = &c->out;
	uint64_t v[ZF2FS_MAX_ACTIVE_LOGS];

	out_x(o, "checkpoint_ver", zf2fs_get(cp->checkpoint_ver));
	out_u(o, "user_block_count", zf2fs_get(cp->user_block_count));
	out_u(o, "valid_block_count", zf2fs_get(cp->valid_block_count));
	out_u(o, "rsvd_segment_count", zf2fs_get(cp->rsvd_segment_count));
	out_u(o, "overprov_segment_count", zf2fs_get(cp->overprov_segment_count));
	out_u(o, "free_segment_count", zf2fs_get(cp->free_segment_count));
	for (int i = 0; i < ZF2FS_MAX_NODE_LOGS; i++)
		v[i] = zf2fs_get(cp->cur_node_segno[i]);
	out_u_array(o, "cur_node_segno", v, ZF2FS_MAX_NODE_LOGS);
	for (int i = 0; i < ZF2FS_MAX_NODE_LOGS; i++)
		v[i] = zf2fs_get(cp->cur_node_blkoff[i]);
	out_u_array(o, "cur_node_blkoff", v, ZF2FS_MAX_NODE_LOGS);
	for (int i = 0; i < ZF2FS_MAX_DATA_LOGS; i++)
		v[i] = zf2fs_get(cp->cur_data_segno[i]);
	out_u_array(o, "cur_data_segno", v, ZF2FS_MAX_DATA_LOGS);
	for (int i = 0; i < ZF2FS_MAX_DATA_LOGS; i++)
		v[i] = zf2fs_get(cp->cur_data_blkoff[i]);
	out_u_array(o, "cur_data_blkoff", v, ZF2FS_MAX_DATA_LOGS);
	out_x(o, "ckpt_flags", zf2fs_get(cp->ckpt_flags));
	cp_flag_list(o, (uint32_t)zf2fs_get(cp->ckpt_flags));
	out_u(o, "cp_pack_total_block_count", zf2fs_get(cp->cp_pack_total_block_count));
	out_u(o, "cp_pack_start_sum", zf2fs_get(cp->cp_pack_start_sum));
	out_u(o, "valid_node_count", zf2fs_get(cp->valid_node_count));
	out_u(o, "valid_inode_count", zf2fs_get(cp->valid_inode_count));
	out_u(o, "next_free_nid", zf2fs_get(cp->next_free_nid));
	out_u(o, "sit_ver_bitmap_bytesize", zf2fs_get(cp->sit_ver_bitmap_bytesize));
	out_u(o, "nat_ver_bitmap_bytesize", zf2fs_get(cp->nat_ver_bitmap_bytesize));
	out_u(o, "checksum_offset", zf2fs_get(cp->checksum_offset));
	out_u(o, "elapsed_time", zf2fs_get(cp->elapsed_time));
	for (int i = 0; i < ZF2FS_MAX_ACTIVE_LOGS; i++)
		v[i] = cp->alloc_type[i];
	out_u_array(o, "alloc_type", v, ZF2FS_MAX_ACTIVE_LOGS);
}

int dump_checkpoint(struct dump_ctx *c)
{
	struct out *o = &c->out;
	uint8_t *blk = malloc(c->g->blocksize);

	if (!blk)
		return -ENOMEM;
	out_obj(o, "checkpoint");
	out_u(o, "current_pack", c->info->cp_pack);
	out_list(o, "packs");
	for (unsigned p = 0; p < 2; p++) {
		uint64_t addr = zf2fs_vol_cp_pack_addr(c->vol, p);
		const struct zf2fs_checkpoint *cp = (const void *)blk;
		const char *why = zf2fs_vol_cp_problem(c->vol, (int)p);
		uint32_t crc, off;
		int err;

		out_obj(o, NULL);
		out_u(o, "pack", p);
		out_x(o, "blkaddr", addr);
		out_b(o, "current", p == c->info->cp_pack);
		out_b(o, "valid", !why[0]);
		out_s(o, "problem", why);
		err = zf2fs_vol_read_block(c->vol, addr, blk);
		if (err) {
			out_s(o, "error", strerror(-err));
			out_obj_end(o);
			continue;
		}
		off = (uint32_t)zf2fs_get(cp->checksum_offset);
		if (!zf2fs_cp_checksum2(c->g, blk, &crc) && off <= c->g->blocksize - 4) {
			out_x(o, "crc", zf2fs_get_le32p(blk + off));
			out_b(o, "crc_ok", crc == zf2fs_get_le32p(blk + off));
		}
		cp_fields(c, cp);
		if (!why[0])
			orphans(c, cp, addr);
		if (p == c->info->cp_pack) {
			out_u(o, "nat_journal_entries",
			      zf2fs_get(zf2fs_vol_nat_journal(c->vol)->n_entries));
			out_u(o, "sit_journal_entries",
			      zf2fs_get(zf2fs_vol_sit_journal(c->vol)->n_entries));
		}
		out_obj_end(o);
	}
	out_list_end(o);
	out_obj_end(o);
	free(blk);
	return 0;
}

/* ---- NAT ---------------------------------------------------------------------------------- */
int dump_nat(struct dump_ctx *c, uint64_t start, uint64_t end)
{
	const struct zf2fs_journal *j = zf2fs_vol_nat_journal(c->vol);
	uint32_t nj = (uint32_t)zf2fs_get(j->n_entries);
	struct out *o = &c->out;
	uint8_t *blk;
	int64_t loaded = -1;
	int err = 0;

	if (end >= c->info->max_nid)
		end = c->info->max_nid ? c->info->max_nid - 1 : 0;
	if (nj > c->g->nat_journal_entries)
		nj = c->g->nat_journal_entries;
	blk = malloc(c->g->blocksize);   /* entries fill the block but for a few bytes */
	if (!blk)
		return -ENOMEM;
	for (uint64_t nid = start; nid <= end && nid < c->info->max_nid; nid++) {
		uint32_t idx = zf2fs_geom_nat_block_index(c->g, (uint32_t)nid), ino, addr;
		uint64_t baddr = zf2fs_vol_nat_block_addr(c->vol, idx);
		const struct zf2fs_nat_entry *e = NULL;
		uint8_t version;
		bool journal = false;

		for (uint32_t i = 0; i < nj; i++)
			if (zf2fs_get(zf2fs_journal_nat(j, i)->nid) == nid) {
				e = &zf2fs_journal_nat(j, i)->ne;
				journal = true;
				break;
			}
		if (!e) {
			if (loaded != idx) {
				err = zf2fs_vol_read_block(c->vol, baddr, blk);
				if (err) {
					dump_error("%s: while reading NAT block %u at %llu",
						   strerror(-err), idx, (unsigned long long)baddr);
					break;
				}
				loaded = idx;
			}
			e = zf2fs_nat_block_entry(blk, zf2fs_geom_nat_entry_index(c->g,
								(uint32_t)nid));
		}
		ino = (uint32_t)zf2fs_get(e->ino);
		addr = (uint32_t)zf2fs_get(e->block_addr);
		version = e->version;
		if (!ino && !addr)
			continue;
		out_row(o);
		out_u(o, "nid", nid);
		out_u(o, "ino", ino);
		out_u(o, "blkaddr", addr);
		out_u(o, "version", version);
		out_b(o, "journal", journal);
		out_u(o, "copy", baddr == zf2fs_vol_nat_block_copy(c->vol, idx, 1));
		out_row_end(o);
	}
	free(blk);
	return err;
}

/* ---- SIT ---------------------------------------------------------------------------------- */
static bool sit_in_journal(struct dump_ctx *c, uint64_t segno)
{
	const struct zf2fs_journal *j = zf2fs_vol_sit_journal(c->vol);
	uint32_t n = (uint32_t)zf2fs_get(j->n_entries);

	for (uint32_t i = 0; i < n && i < c->g->sit_journal_entries; i++)
		if (zf2fs_get(zf2fs_journal_sit(j, i)->segno) == segno)
			return true;
	return false;
}

int dump_sit(struct dump_ctx *c, uint64_t start, uint64_t end)
{
	struct out *o = &c->out;
	struct zf2fs_sit_entry ent;
	const struct zf2fs_sit_entry *se = &ent;
	int err;

	for (uint64_t s = start; s <= end && s < c->info->main_segs; s++) {
		uint32_t sidx = zf2fs_geom_sit_block_index(c->g, (uint32_t)s);
		uint64_t baddr = zf2fs_vol_sit_block_addr(c->vol, sidx);
		unsigned valid, type;

		err = dump_sit_entry(c, s, &ent);
		if (err)
			return err;
		valid = zf2fs_sit_valid_blocks(se);
		type = zf2fs_sit_type(se);

		if (valid != zf2fs_sit_map_weight(se))
			dump_damage(c, "SIT entry of segment %llu: %u valid blocks but %u bits set",
				    (unsigned long long)s, valid, zf2fs_sit_map_weight(se));
		out_row(o);
		out_u(o, "segno", s);
		out_u(o, "type", type);
		out_s(o, "type_name", zf2fs_log_name(type));
		out_u(o, "valid_blocks", valid);
		out_u(o, "mtime", zf2fs_get(se->mtime));
		out_b(o, "journal", sit_in_journal(c, s));
		out_u(o, "copy", baddr == zf2fs_vol_sit_block_copy(c->vol, sidx, 1));
		out_hex(o, "valid_map", se->valid_map, ZF2FS_SIT_MAP_SIZE);
		out_row_end(o);
	}
	return 0;
}

/* ---- SSA ---------------------------------------------------------------------------------- */
static int current_log(struct dump_ctx *c, uint64_t segno)
{
	for (int t = 0; t < ZF2FS_NR_CURSEG; t++) {
		uint32_t s, off;

		zf2fs_vol_curseg(c->vol, t, &s, &off);
		if (s == segno)
			return t;
	}
	return -1;
}

int dump_ssa(struct dump_ctx *c, uint64_t start, uint64_t end)
{
	struct out *o = &c->out;
	struct zf2fs_summary_block *sum = malloc(c->g->sum_blocksize);
	struct zf2fs_sit_entry ent;
	int err = 0;

	if (!sum)
		return -ENOMEM;
	for (uint64_t s = start; s <= end && s < c->info->main_segs; s++) {
		int log = current_log(c, s);
		bool node;

		err = dump_sit_entry(c, s, &ent);
		if (err)
			break;
		err = zf2fs_vol_segment_summary(c->vol, (uint32_t)s, sum);
		if (err == -ENODATA) {
			/* a read-only volume keeps the summaries of its two logs only */
			out_obj(o, NULL);
			out_u(o, "segno", s);
			out_x(o, "blkaddr", zf2fs_main_blk(c->info->main_blkaddr, (uint32_t)s, 0));
			out_s(o, "type", zf2fs_sit_type(&ent) >= ZF2FS_LOG_HOT_NODE ? "node" : "data");
			out_s(o, "source", "none");
			out_null(o, "current");
			out_list(o, "entries");
			out_list_end(o);
			out_obj_end(o);
			err = 0;
			continue;
		}
		if (err) {
			dump_error("%s: while reading the summary of segment %llu", strerror(-err),
				   (unsigned long long)s);
			break;
		}
		node = zf2fs_sum_footer(c->g, sum)->entry_type == ZF2FS_SUM_TYPE_NODE;
		out_obj(o, NULL);
		out_u(o, "segno", s);
		out_x(o, "blkaddr", zf2fs_main_blk(c->info->main_blkaddr, (uint32_t)s, 0));
		out_s(o, "type", node ? "node" : "data");
		out_s(o, "source", log >= 0 ? "checkpoint" : "ssa");
		if (log >= 0)
			out_s(o, "current", zf2fs_log_name((unsigned)log));
		else
			out_null(o, "current");
		out_list(o, "entries");
		for (unsigned i = 0; i < c->g->blocks_per_seg; i++) {
			const struct zf2fs_summary *e = zf2fs_sum_entries(sum) + i;
			bool valid = zf2fs_sit_block_valid(&ent, i);

			if (!zf2fs_get(e->nid) && !valid)
				continue;
			out_row(o);
			out_u(o, "offset", i);
			out_u(o, "blkaddr", zf2fs_main_blk(c->info->main_blkaddr, (uint32_t)s, i));
			out_u(o, "nid", zf2fs_get(e->nid));
			out_u(o, "version", e->version);
			out_u(o, "ofs_in_node", zf2fs_get(e->ofs_in_node));
			out_b(o, "valid", valid);
			out_row_end(o);
		}
		out_list_end(o);
		out_obj_end(o);
	}
	free(sum);
	return err;
}

/* ---- segments ------------------------------------------------------------------------------ */
int dump_segments(struct dump_ctx *c)
{
	struct out *o = &c->out;
	uint64_t nfree = 0, nfull = 0, ndirty = 0, ncur = 0, total = 0;
	int err = dump_load_sit(c);

	if (err)
		return err;
	out_obj(o, "segments");
	out_u(o, "main_blkaddr", c->info->main_blkaddr);
	out_u(o, "segment_count", c->info->main_segs);
	out_u(o, "segs_per_sec", c->info->segs_per_sec);
	out_list(o, "list");
	for (uint64_t s = 0; s < c->info->main_segs; s++) {
		const struct zf2fs_sit_entry *se = zf2fs_sit_table_get(c->sit, (uint32_t)s);
		unsigned valid = zf2fs_sit_valid_blocks(se), type = zf2fs_sit_type(se);
		int log = current_log(c, s);
		const char *state;

		if (valid > BPS)
			dump_damage(c, "SIT entry of segment %llu: %u valid blocks exceed %u",
				    (unsigned long long)s, valid, BPS);
		total += valid;
		if (log >= 0) {
			state = "current";
			ncur++;
		} else if (!valid) {
			state = "free";
			nfree++;
		} else if (valid >= BPS) {
			state = "full";
			nfull++;
		} else {
			state = "dirty";
			ndirty++;
		}
		out_row(o);
		out_u(o, "segno", s);
		out_u(o, "secno", s / (c->info->segs_per_sec ? c->info->segs_per_sec : 1));
		out_u(o, "blkaddr", zf2fs_main_blk(c->info->main_blkaddr, (uint32_t)s, 0));
		out_s(o, "type", zf2fs_log_name(type));
		out_u(o, "valid_blocks", valid);
		out_u(o, "mtime", zf2fs_get(se->mtime));
		out_s(o, "state", state);
		if (log >= 0) {
			uint32_t cs, off;

			zf2fs_vol_curseg(c->vol, log, &cs, &off);
			out_s(o, "current", zf2fs_log_name((unsigned)log));
			out_u(o, "next_blkoff", off);
		}
		out_row_end(o);
	}
	out_list_end(o);
	out_u(o, "current", ncur);
	out_u(o, "free", nfree);
	out_u(o, "dirty", ndirty);
	out_u(o, "full", nfull);
	out_u(o, "valid_blocks", total);
	out_obj_end(o);
	return 0;
}
