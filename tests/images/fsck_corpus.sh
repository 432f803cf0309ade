#!/bin/bash
# fsck corpus, e2fsprogs style: each tests/images/corpus/f_<topic>/ holds a "script" that
# makes one precise corruption of a base image, "expect.1" (output and exit status of the
# first `fsck.f2fs -y`) and "expect.2" (the second run, which must be clean).  After the
# repair Debian's fsck.f2fs must find the image clean too, unless the case has a "ref_skip"
# file saying why not.  ZF2FS_UPDATE_EXPECT=1 rewrites the expect files (review them!).
# One argument runs that case alone (no coverage check).
. "$(dirname "$0")/lib.sh"


only=${1:-}

# (f2fs-tools' "Info: checkpoint state" line, printed by every run, is left out: the
# expect files hold our problem output; tests/compat/fsck_callers.sh checks that line.)
run_fsck() {
	"$FSCK" "$@" "$IMG" 2>&1 | sed -e "s|$IMG|test.img|g" -e '/^Info: checkpoint state = /d'
	echo "Exit status is ${PIPESTATUS[0]}"
}

for dir in "$CORPUS"/f_*/; do
	case=$(basename "$dir")
	[ -n "$only" ] && [ "$case" != "$only" ] && continue
	if ! fsck_case_image "$case" "$TEST_TMP/$case.img" > "$TEST_TMP/$case.setup" 2>&1; then
		tap_fail "$case: setting up the corruption failed: $(tail -1 "$TEST_TMP/$case.setup")"
		continue
	fi
	run_fsck -y > "$TEST_TMP/$case.1"
	run_fsck -f -y > "$TEST_TMP/$case.2"
	if [ "${ZF2FS_UPDATE_EXPECT:-0}" = 1 ]; then
		cp "$TEST_TMP/$case.1" "$dir/expect.1"
		cp "$TEST_TMP/$case.2" "$dir/expect.2"
	fi
	bad=
	for n in 1 2; do
		if ! cmp -s "$dir/expect.$n" "$TEST_TMP/$case.$n"; then
			diff -u "$dir/expect.$n" "$TEST_TMP/$case.$n" > "$top_builddir/tests/images/$case.$n.failed" 2>/dev/null ||
				diff -u "$dir/expect.$n" "$TEST_TMP/$case.$n" | head -20
			bad="$bad expect.$n differs (see tests/images/$case.$n.failed);"
		fi
	done
	if [ -z "$bad" ] && [ -x "$REF_FSCK" ] && [ ! -f "$dir/ref_skip" ]; then
		ref_fsck "$IMG" > "$TEST_TMP/$case.ref" 2>&1 || bad="reference fsck finds the repaired image unclean:$(tail -3 "$TEST_TMP/$case.ref" | tr '\n' ' ')"
	fi
	if [ -z "$bad" ]; then
		tap_ok "$case"
	else
		tap_fail "$case:$bad"
	fi
	rm -f "$IMG"
done
# every problem code of the table must be produced by some case, or be listed in
# codes_not_in_corpus with the test that produces it (which must exist and name the code)
if [ -z "$only" ]; then
	elsewhere=$CORPUS/codes_not_in_corpus
	table=$(sed -n 's/^#define PR_[0-9]_[A-Z_0-9]* *0x\([0-9A-Fa-f]*\).*/\1/p' "$top_srcdir/fsck/fsck.h" |
		tr 'A-F' 'a-f')
	stale=
	while read -r code test _; do
		case $code in '#'*|'') continue ;; esac
		echo "$table" | grep -qix "${code#0x}" || stale="$stale $code is not in fsck/fsck.h;"
		[ "$test" = - ] && continue
		if [ ! -f "$top_srcdir/$test" ]; then
			stale="$stale $code names $test, which does not exist;"
		elif ! grep -q "$code" "$top_srcdir/$test"; then
			stale="$stale $code names $test, which does not mention it;"
		fi
	done < "$elsewhere"
	if [ -n "$stale" ]; then
		tap_fail "codes_not_in_corpus:$stale"
	else
		tap_ok "codes_not_in_corpus names problem codes of the table and tests that exist"
	fi
	missing=
	for code in $table; do
		grep -qi "^0x$code " "$elsewhere" && continue
		cat "$CORPUS"/f_*/expect.1 | grep -q "^\[0x$code\]" || missing="$missing 0x$code"
	done
	if [ -n "$missing" ]; then
		tap_fail "problem codes no case produces:$missing"
	else
		tap_ok "every problem code is produced by at least one case"
	fi
fi
tap_summary
