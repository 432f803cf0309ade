// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_fsck_problems.c - the fsck problem table: sorted, no duplicate codes, a message for
 * each, codes in the pass ranges, every code the sources define has an entry, and the
 * answers of fix_problem() follow -n, -y and -p.
 */
#include "unit.h"
#include "../../fsck/fsck.h"

static void test_table_sorted_unique(void **state)
{
	size_t n;
	const struct problem_def *t = problem_table(&n);

	(void)state;
	assert_true(n >= 40);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(t[i].msg);
		assert_true(t[i].code >> 16 >= 1 && t[i].code >> 16 <= 9);   /* passes 1-9 */
		if (i)
			assert_true(t[i - 1].code < t[i].code);
		assert_ptr_equal(problem_find(t[i].code), &t[i]);
		/* a question unless it is information only */
		assert_true((t[i].flags & PR_NOT_A_FIX) || t[i].prompt != PROMPT_NONE);
	}
	assert_null(problem_find(0x7f0000));
}

/* Every PR_ code defined in fsck.h is in the table (the list below is generated from the
 * header at build time). */
static const uint32_t defined_codes[] = {
#include "fsck_codes.inc"
};

static void test_every_code_has_entry(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(defined_codes) / sizeof(defined_codes[0]); i++) {
		if (!problem_find(defined_codes[i]))
			fail_msg("problem code 0x%06x has no table entry", defined_codes[i]);
	}
}

static void test_modes(void **state)
{
	struct fsck_ctx ctx = { 0 };
	struct problem_ctx p = { .ino = 5, .num = 3, .num2 = 1 };

	(void)state;
	ctx.out = fopen("/dev/null", "w");
	ctx.mode = MODE_NO;
	assert_false(fix_problem(&ctx, PR_6_LINK_COUNT_BAD, &p));
	assert_int_equal(ctx.exit_bits, FSCK_UNCORRECTED);
	ctx.exit_bits = 0;
	ctx.mode = MODE_YES;
	assert_true(fix_problem(&ctx, PR_6_LINK_COUNT_BAD, &p));
	assert_int_equal(ctx.exit_bits, FSCK_NONDESTRUCT);
	/* preen fixes what is marked safe, and stops on anything else */
	ctx.exit_bits = 0;
	ctx.mode = MODE_PREEN;
	assert_true(fix_problem(&ctx, PR_6_LINK_COUNT_BAD, &p));
	assert_false(ctx.abort);
	assert_false(fix_problem(&ctx, PR_6_UNREACHABLE_INODE, &p));
	assert_true(ctx.abort);
	assert_true(ctx.exit_bits & FSCK_UNCORRECTED);
	/* information only: no question, exit code untouched when harmless */
	ctx = (struct fsck_ctx){ .out = ctx.out, .mode = MODE_YES };
	assert_false(fix_problem(&ctx, PR_2_CP_NEEDS_RECOVERY, &p));
	assert_int_equal(ctx.exit_bits, 0);
	fclose(ctx.out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_sorted_unique),
		cmocka_unit_test(test_every_code_has_entry),
		cmocka_unit_test(test_modes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
