/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dump.h - dump.f2fs: the run context, the text/JSON emitter and the views. */
#ifndef ZF2FS_TOOLS_DUMP_H
#define ZF2FS_TOOLS_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/sit_table.h"
#include "zf2fs/file.h"
#include "zf2fs/access.h"
#include "zf2fs/geometry.h"
#include "helper.h"

#define DUMP_PROG "dump.f2fs"

/* Exit codes (documented in the man page). */
#define DUMP_EXIT_OK      0
#define DUMP_EXIT_ERROR   1   /* could not do what was asked */
#define DUMP_EXIT_DAMAGE  2   /* output produced, but damaged structures were reported */
#define DUMP_EXIT_USAGE  16

/*
 * One emitter for both output forms.  Text: "name value" lines, nested objects indented
 * under a "name:" heading, rows of a list on one line as name=value pairs.  JSON: one
 * document per run; rows are objects on one line each.
 */
#define OUT_MAX_DEPTH 16
struct out {
	FILE *f;
	bool json;
	int depth;
	bool first[OUT_MAX_DEPTH];   /* JSON: nothing written yet at this depth */
	bool row[OUT_MAX_DEPTH];     /* this depth is a one-line row */
};

void out_init(struct out *o, FILE *f, bool json);
void out_finish(struct out *o);
void out_obj(struct out *o, const char *key);
void out_obj_end(struct out *o);
void out_list(struct out *o, const char *key);
void out_list_end(struct out *o);
void out_row(struct out *o);
void out_row_end(struct out *o);
void out_u(struct out *o, const char *key, uint64_t v);
void out_f2(struct out *o, const char *key, double v);     /* two decimals */
void out_x(struct out *o, const char *key, uint64_t v);   /* text adds (0x...) */
void out_i(struct out *o, const char *key, int64_t v);
void out_s(struct out *o, const char *key, const char *s);
void out_sn(struct out *o, const char *key, const void *s, size_t len);
void out_b(struct out *o, const char *key, bool v);
void out_hex(struct out *o, const char *key, const void *buf, size_t len);
void out_null(struct out *o, const char *key);
/* A short array of numbers: JSON [a, b], text "a b". */
void out_u_array(struct out *o, const char *key, const uint64_t *v, size_t n);

/* What one run does. */
struct dump_ctx {
	struct zf2fs_vol *vol;
	const struct zf2fs_vol_info *info;
	const struct zf2fs_geom *g;    /* the volume's block size and what it decides */
	struct out out;
	int level;              /* -d */
	bool sparse;            /* -S */
	const char *outpath;    /* -o */
	bool damage;            /* a damaged structure was reported */
	bool raw_encrypted;     /* --raw-encrypted: copy ciphertext out as it is stored */
	bool preserve_owner;    /* -P: extracted files get the inode's uid and gid */
	struct zf2fs_sit_table *sit;   /* loaded on demand, by views of every segment */
};

/* Report a damaged structure on stderr (and mark the run). */
void dump_damage(struct dump_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One-line error on stderr. */
void dump_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A flag word as a list @key of its set bits, each with @name_of's name for it ("unknown"
 * for a bit without one). */
void dump_bit_list(struct out *o, const char *key, uint32_t word,
		   const char *(*name_of)(uint32_t));
int dump_superblock(struct dump_ctx *c);
int dump_checkpoint(struct dump_ctx *c);
int dump_nat(struct dump_ctx *c, uint64_t start, uint64_t end);
int dump_sit(struct dump_ctx *c, uint64_t start, uint64_t end);
int dump_ssa(struct dump_ctx *c, uint64_t start, uint64_t end);
int dump_segments(struct dump_ctx *c);
int dump_inode(struct dump_ctx *c, uint32_t ino);
/* The fields of inode block @n, as -i lists them. */
void dump_inode_fields(struct dump_ctx *c, const struct zf2fs_node *n);
int dump_block(struct dump_ctx *c, uint64_t blkaddr);
int dump_ls(struct dump_ctx *c, const char *path);
int dump_cat(struct dump_ctx *c, const char *path);
int dump_tree(struct dump_ctx *c, const char *path);
/* Write the contents of inode @n to @fd (@name in messages); -S keeps holes.  An encrypted
 * inode's stored bytes (ciphertext) are written only with --raw-encrypted. */
int dump_write_contents(struct dump_ctx *c, const struct zf2fs_node *n, int fd, const char *name);
/* --extract PATH -o DIR: the tree below directory PATH into host directory DIR. */
int dump_extract_tree(struct dump_ctx *c, const char *path);
/* Call @fn for every entry below directory @ino ("." and ".." left out), depth first,
 * each directory entered once; @path is the entry's path from there, with the names of
 * encrypted directories' entries in their {enc:HEX} form (@encname says the entry's own
 * name is one of those).  A nonzero return stops the walk and is returned. */
typedef int (*dump_visit_fn)(void *arg, const char *path, const struct zf2fs_dentry_info *d,
			     bool encname);
int dump_walk_paths(struct dump_ctx *c, uint32_t ino, dump_visit_fn fn, void *arg);
/* --frag: how the regular files below PATH (or PATH itself) lie on the disk. */
int dump_frag(struct dump_ctx *c, const char *path);
int dump_zones(struct dump_ctx *c);
int dump_quota(struct dump_ctx *c);

/* Shared helpers. */
int dump_load_sit(struct dump_ctx *c);
/* One segment's SIT entry, reading only its SIT block (views of a few segments). */
int dump_sit_entry(struct dump_ctx *c, uint64_t segno, struct zf2fs_sit_entry *ret);
const char *dump_ftype_name(unsigned type);
/* Extract inode @ino's contents to @path ("-" = stdout); @what names the file in the
 * message refusing an encrypted one (the volume path of --cat; NULL: "inode INO"). */
int dump_extract(struct dump_ctx *c, uint32_t ino, const char *path, const char *what);
/* The same from inode block @n (of inode @ino), however it was found. */
int dump_extract_node(struct dump_ctx *c, const struct zf2fs_node *n, uint32_t ino,
		      const char *path, const char *what);
/* --scan-inode, -I: inode @ino's blocks found by reading the main area, and the newest
 * good one shown (and extracted with -o) as -i shows an inode. */
int dump_scan_inode(struct dump_ctx *c, uint32_t ino);

/*
 * fscrypt (dump_enc.c).  The names in an encrypted directory, all but "." and "..", are
 * ciphertext: any bytes of their stored length.  dump shows and accepts them as
 * "{enc:HEX}", the lowercase hex of the stored bytes, so no output carries them raw.
 */
/* @n is an encrypted inode (i_advise), @dir also a directory. */
bool dump_inode_encrypted(const struct zf2fs_node *n);
bool dump_dir_encrypted(const struct zf2fs_node *dir);
bool dump_is_dot(const uint8_t *name, size_t len);
/* The host file name extraction gives a shown name @s (@len bytes, no '/'): @s itself, or
 * when longer than a host name may be (DUMP_HOST_NAME_MAX), "{enc:" the hex of the first
 * and last DUMP_HOST_NAME_KEEP bytes joined by "..", "}".  Into @buf, NUL-terminated
 * (@buf may be @s: the result is never longer); returns its length. */
#define DUMP_HOST_NAME_MAX 255
#define DUMP_HOST_NAME_KEEP 60
size_t dump_host_name(const char *s, size_t len, char *buf);
/* A name to the emitter: as text, or in its {enc:HEX} form when @enc. */
void dump_out_name(struct out *o, const char *key, const uint8_t *name, size_t len, bool enc);
/* Whether inode @n's i_name is ciphertext: its parent (i_pino) is an encrypted directory;
 * when the parent cannot be read, whether @n is itself encrypted. */
bool dump_iname_encrypted(struct dump_ctx *c, const struct zf2fs_node *n);

#endif
