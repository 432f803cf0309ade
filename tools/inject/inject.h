/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inject.h - inject.f2fs: the member tables (inject_members.c), the value operations
 * (inject_ops.c) and the front-end (inject.c) that finds the bytes and writes them.
 */
#ifndef ZF2FS_INJECT_H
#define ZF2FS_INJECT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define INJECT_PROG "inject.f2fs"

/* One member of an on-disk structure: @count elements of @size bytes, @stride apart,
 * starting at @off in the structure.  @str members are byte strings (set with --str). */
struct inject_member {
	const char *name;
	uint32_t off;
	uint32_t size;
	uint32_t count;
	uint32_t stride;
	bool str;
};

enum inject_target { T_NONE, T_SB, T_CP, T_NAT, T_SIT, T_SSA, T_NODE, T_DENT };

/* Members of a structure: which table, by target.  The node target has three tables
 * (footer, inode, index node), the SSA target two (entry, footer). */
struct inject_table {
	const char *opt;                      /* the option that selects it: "sb", "node" */
	const char *what;                     /* "superblock", "inode", ... */
	const struct inject_member *m;
	unsigned n;
};

extern const struct inject_table inject_tables[];
extern const unsigned inject_ntables;
enum { TB_SB, TB_CP, TB_NAT, TB_SIT, TB_SSA_ENTRY, TB_SSA_FOOTER, TB_NODE_FOOTER, TB_INODE,
       TB_INDEX, TB_DENT };

const struct inject_member *inject_find(unsigned table, const char *name);
/* Member @m of @table where a block of geometry @g holds it (the tables are 4 KiB's). */
struct zf2fs_geom;
struct inject_member inject_at(const struct zf2fs_geom *g, unsigned table,
			       const struct inject_member *m);
void inject_list(FILE *out);

/* Value operations: set (--val/--str) or one of xfs_db's fuzz verbs. */
enum inject_verb { V_SET, V_ZEROES, V_ONES, V_FIRSTBIT, V_MIDDLEBIT, V_LASTBIT, V_ADD, V_SUB,
		   V_RANDOM };

struct inject_value {
	enum inject_verb verb;
	bool have_val;
	uint64_t val;
	const char *str;
	uint64_t rng;                         /* xorshift state for V_RANDOM */
};

int inject_verb_parse(const char *s, enum inject_verb *ret);
const char *inject_verb_name(enum inject_verb v);
/* Apply @v to the @len bytes at @p (an integer member when @len <= 8 and !@str).  Writes
 * "old -> new" into @desc. */
void inject_apply(uint8_t *p, uint32_t len, bool str, struct inject_value *v, char *desc,
		  size_t desclen);
uint64_t inject_get_int(const uint8_t *p, uint32_t len);

#endif
