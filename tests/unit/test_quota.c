// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_quota.c - quota files (lib/format/quota_file.c): what we build is what we parse, for one id and
 * for thousands of ids spread over every tree branch; the layout for a single id is the
 * kernel's (header, info, a path of four tree blocks, one leaf); an id-0 entry with no
 * usage survives (the kernel's itime marker); damaged files are refused with a reason and
 * never read out of bounds (tree loops, references past the end, random bytes); usage
 * tables add up per id; an inode's charged bytes leave its inode block out.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/format.h"
#include "zf2fs/endian.h"
#include "zf2fs/quota.h"
#include "zf2fs-internal/quota.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* field by field: the struct has padding after the id */
static void assert_dq_equal(const struct zf2fs_dquot *a, const struct zf2fs_dquot *b)
{
	assert_int_equal(a->id, b->id);
	assert_int_equal(a->ihardlimit, b->ihardlimit);
	assert_int_equal(a->isoftlimit, b->isoftlimit);
	assert_int_equal(a->curinodes, b->curinodes);
	assert_int_equal(a->bhardlimit, b->bhardlimit);
	assert_int_equal(a->bsoftlimit, b->bsoftlimit);
	assert_int_equal(a->curspace, b->curspace);
	assert_int_equal(a->btime, b->btime);
	assert_int_equal(a->itime, b->itime);
}

static void build(int type, struct zf2fs_dquot *dq, size_t n, uint8_t **buf, size_t *len)
{
	struct zf2fs_quota_file qf = { .bgrace = 11, .igrace = 22, .flags = 0, .dq = dq, .n = n };

	assert_int_equal(zf2fs_quota_build(type, &qf, buf, len), 0);
	assert_int_equal(*len % ZF2FS_QUOTA_BLKSIZE, 0);
}

static void test_one_id_layout(void **state)
{
	struct zf2fs_dquot d = { .id = 0, .curinodes = 2, .curspace = 8192 };
	struct zf2fs_quota_file back;
	uint8_t *buf;
	size_t len;

	(void)state;
	build(ZF2FS_QUOTA_USR, &d, 1, &buf, &len);
	/* header, root, three more tree levels, one leaf */
	assert_int_equal(len, 6 * 1024);
	assert_int_equal(le32(buf), 0xd9c01f11u);
	assert_int_equal(le32(buf + 4), 1);
	assert_int_equal(le32(buf + 8 + 12), 6);        /* dqi_blocks */
	assert_int_equal(le32(buf + 8 + 20), 5);        /* the leaf has free entries */
	for (uint32_t b = 1; b <= 4; b++)
		assert_int_equal(le32(buf + b * 1024), b + 1);
	assert_int_equal(buf[5 * 1024 + 8], 1);         /* one entry in the leaf */
	assert_int_equal(zf2fs_quota_parse(buf, len, ZF2FS_QUOTA_USR, &back, NULL, 0), 0);
	assert_int_equal(back.n, 1);
	assert_int_equal(back.bgrace, 11);
	assert_int_equal(back.igrace, 22);
	assert_dq_equal(&back.dq[0], &d);
	zf2fs_quota_file_free(&back);
	/* the wrong type's magic */
	assert_int_equal(zf2fs_quota_parse(buf, len, ZF2FS_QUOTA_GRP, &back, NULL, 0),
			 -ZF2FS_EFSCORRUPTED);
	free(buf);
}

static void test_empty_id0_kept(void **state)
{
	struct zf2fs_dquot d[2] = { { .id = 0 }, { .id = 5, .curinodes = 1 } };
	struct zf2fs_quota_file back;
	uint8_t *buf;
	size_t len;

	(void)state;
	build(ZF2FS_QUOTA_PRJ, d, 2, &buf, &len);
	assert_int_equal(zf2fs_quota_parse(buf, len, ZF2FS_QUOTA_PRJ, &back, NULL, 0), 0);
	assert_int_equal(back.n, 2);
	assert_int_equal(back.dq[0].id, 0);
	assert_int_equal(back.dq[0].itime, 0);     /* the marker reads back as nothing */
	zf2fs_quota_file_free(&back);
	free(buf);
}

static int cmp_id(const void *a, const void *b)
{
	uint32_t x = ((const struct zf2fs_dquot *)a)->id, y = ((const struct zf2fs_dquot *)b)->id;

	return x < y ? -1 : x > y;
}

static void test_many_ids_roundtrip(void **state)
{
	enum { N = 5000 };
	struct zf2fs_dquot *d = calloc(N, sizeof(*d));
	struct zf2fs_quota_file back;
	uint8_t *buf;
	size_t len, n = 0;

	(void)state;
	assert_non_null(d);
	while (n < N) {
		/* ids close together (shared leaves) and far apart (new branches) */
		uint32_t id = (n % 3) ? (uint32_t)next() : (uint32_t)(next() % 4096);
		bool dup = false;

		for (size_t k = 0; k < n && !dup; k++)
			dup = d[k].id == id;
		if (dup)
			continue;
		d[n] = (struct zf2fs_dquot){ .id = id, .curinodes = next() % 1000,
			.curspace = next(), .bhardlimit = n % 7 ? 0 : next() % 100000,
			.isoftlimit = n % 5 ? 0 : 9, .btime = n % 11 ? 0 : 1700000000 + n,
			.itime = n % 13 ? 0 : 1800000000 + n };
		n++;
	}
	build(ZF2FS_QUOTA_GRP, d, N, &buf, &len);
	assert_int_equal(zf2fs_quota_parse(buf, len, ZF2FS_QUOTA_GRP, &back, NULL, 0), 0);
	assert_int_equal(back.n, N);
	qsort(d, N, sizeof(*d), cmp_id);
	for (size_t i = 0; i < N; i++)
		assert_dq_equal(&back.dq[i], &d[i]);
	zf2fs_quota_file_free(&back);
	/* duplicates cannot be built */
	d[1].id = d[0].id;
	{
		struct zf2fs_quota_file qf = { .dq = d, .n = N };
		uint8_t *b2;
		size_t l2;

		assert_int_equal(zf2fs_quota_build(ZF2FS_QUOTA_GRP, &qf, &b2, &l2), -EINVAL);
	}
	free(buf);
	free(d);
}

static void test_damage_refused(void **state)
{
	struct zf2fs_dquot d[3] = { { .id = 1, .curinodes = 1 }, { .id = 70000, .curinodes = 2 },
				    { .id = 16777300, .curinodes = 3 } };
	struct zf2fs_quota_file back;
	uint8_t *buf, *bad;
	size_t len;
	char why[200];

	(void)state;
	build(ZF2FS_QUOTA_USR, d, 3, &buf, &len);
	bad = malloc(len);
	assert_non_null(bad);

	/* more blocks than the file holds */
	memcpy(bad, buf, len);
	put32(bad + 8 + 12, (uint32_t)(len / 1024 + 1));
	assert_int_equal(zf2fs_quota_parse(bad, len, ZF2FS_QUOTA_USR, &back, why, sizeof(why)),
			 -ZF2FS_EFSCORRUPTED);
	assert_non_null(strstr(why, "blocks"));
	/* a tree reference past the end */
	memcpy(bad, buf, len);
	put32(bad + 1024, 999);
	assert_int_equal(zf2fs_quota_parse(bad, len, ZF2FS_QUOTA_USR, &back, why, sizeof(why)),
			 -ZF2FS_EFSCORRUPTED);
	assert_non_null(strstr(why, "999"));
	/* a loop: the root's child points back at itself through every slot */
	memcpy(bad, buf, len);
	for (int i = 0; i < 256; i++)
		put32(bad + 2 * 1024 + 4 * i, 2);
	assert_int_equal(zf2fs_quota_parse(bad, len, ZF2FS_QUOTA_USR, &back, why, sizeof(why)),
			 -ZF2FS_EFSCORRUPTED);
	assert_non_null(strstr(why, "twice"));
	/* too short */
	assert_int_equal(zf2fs_quota_parse(buf, 1024, ZF2FS_QUOTA_USR, &back, why, sizeof(why)),
			 -ZF2FS_EFSCORRUPTED);
	/* random bytes anywhere after the header: parse or refuse, every id found is one the
	 * tree's path leads to (checked by ASan/UBSan for reads out of bounds) */
	for (int round = 0; round < 2000; round++) {
		int err;

		memcpy(bad, buf, len);
		for (int k = 0; k < 1 + round % 8; k++)
			bad[8 + next() % (len - 8)] = (uint8_t)next();
		err = zf2fs_quota_parse(bad, len, ZF2FS_QUOTA_USR, &back, why, sizeof(why));
		assert_true(err == 0 || err == -ZF2FS_EFSCORRUPTED);
		if (!err)
			zf2fs_quota_file_free(&back);
	}
	free(bad);
	free(buf);
}

static void test_usage_table(void **state)
{
	struct zf2fs_quota_usage u = { 0 };
	uint64_t sum = 0;

	(void)state;
	for (uint32_t i = 0; i < 20000; i++) {
		assert_int_equal(zf2fs_quota_usage_add(&u, i % 997 * 7919, 1, i), 0);
		sum += i;
	}
	assert_int_equal(u.n, 997);
	{
		uint64_t inodes = 0, bytes = 0;

		for (uint32_t k = 0; k < 997; k++) {
			struct zf2fs_quota_use s = zf2fs_quota_usage_get(&u, k * 7919);

			inodes += s.inodes;
			bytes += s.bytes;
		}
		assert_int_equal(inodes, 20000);
		assert_int_equal(bytes, sum);
	}
	assert_int_equal(zf2fs_quota_usage_get(&u, 1).inodes, 0);
	zf2fs_quota_usage_free(&u);
	assert_int_equal(zf2fs_quota_usage_get(&u, 0).inodes, 0);
}

static void test_inode_charge(void **state)
{
	struct zf2fs_node *n = calloc(1, sizeof(*n));
	uint32_t ids[3];

	(void)state;
	assert_non_null(n);
	zf2fs_set(n->i.i_uid, 1000);
	zf2fs_set(n->i.i_gid, 100);
	zf2fs_set(n->i.i_projid, 42);
	/* without extra attributes the project id is the default */
	zf2fs_quota_inode_ids(&n->i, ZF2FS_FEAT_PRJQUOTA, ids);
	assert_int_equal(ids[0], 1000);
	assert_int_equal(ids[1], 100);
	assert_int_equal(ids[2], 0);
	n->i.i_inline = ZF2FS_EXTRA_ATTR;
	zf2fs_set(n->i.i_extra_isize, 8);    /* up to and including i_projid */
	zf2fs_quota_inode_ids(&n->i, ZF2FS_FEAT_PRJQUOTA, ids);
	assert_int_equal(ids[2], 42);
	zf2fs_quota_inode_ids(&n->i, 0, ids);
	assert_int_equal(ids[2], 0);
	zf2fs_set(n->i.i_extra_isize, 4);    /* too short to hold it */
	zf2fs_quota_inode_ids(&n->i, ZF2FS_FEAT_PRJQUOTA, ids);
	assert_int_equal(ids[2], 0);
	assert_int_equal(zf2fs_quota_inode_bytes(1), 0);
	assert_int_equal(zf2fs_quota_inode_bytes(3), 8192);
	free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_id_layout),
		cmocka_unit_test(test_empty_id0_kept),
		cmocka_unit_test(test_many_ids_roundtrip),
		cmocka_unit_test(test_damage_refused),
		cmocka_unit_test(test_usage_table),
		cmocka_unit_test(test_inode_charge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
