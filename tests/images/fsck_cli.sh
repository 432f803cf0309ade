#!/bin/bash
# fsck.f2fs's command line: fsck(8) exit codes, -n/-y/-p semantics, --json, usage errors,
# no writes without -y/-p (or on a mounted device), and --preen's stop on problems it may
# not fix.  (f2fs-tools' callers' command lines: tests/compat/fsck_*.sh.)
. "$(dirname "$0")/lib.sh"
need_python

img=$TEST_TMP/t.img
check() {   # check NAME EXPECTED_RC CMD...
	local name=$1 want=$2 rc
	shift 2
	"$@" > "$TEST_TMP/out" 2> "$TEST_TMP/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		tap_ok "$name (exit $rc)"
	else
		tap_fail "$name: exit $rc, expected $want: $(head -c 300 "$TEST_TMP/err")"
	fi
}

check "--help exits 0" 0 "$FSCK" --help
grep -q "^Usage: fsck.f2fs" "$TEST_TMP/out" && tap_ok "--help prints usage on stdout" || tap_fail "--help output"
check "-V" 0 "$FSCK" -V
grep -q "^fsck.f2fs 1.16.0 (zf2fs-tools " "$TEST_TMP/out" && tap_ok "-V names the tool" || tap_fail "-V output"
check "no device is a usage error" 16 "$FSCK"
check "-n with -y is a usage error" 16 "$FSCK" -n -y "$img"
check "-n with -a is a usage error" 16 "$FSCK" -n -a "$img"
check "--preen with -y is a usage error" 16 "$FSCK" --preen -y "$img"
check "--preen with -p is a usage error" 16 "$FSCK" --preen -p "$img"
check "bad -d value" 16 "$FSCK" -d x "$img"
check "an attached -p word that is no level" 16 "$FSCK" -pfoo "$img"
check "unknown option" 16 "$FSCK" --frobnicate "$img"
[ "$(wc -l < "$TEST_TMP/err")" -le 2 ] && tap_ok "usage errors are one line plus the --help hint" ||
	tap_fail "usage error output too long"
check "missing image is an operational error" 8 "$FSCK" -n "$TEST_TMP/nope.img"
truncate -s 64M "$TEST_TMP/zero.img"
check "an image without F2FS is reported, not crashed on" 4 "$FSCK" -n "$TEST_TMP/zero.img"

# a problem -p may fix, then one it may not
fsck_case_image f_link_count_bad "$img" > /dev/null 2>&1
sum=$(sha256sum < "$img")
check "no option, no terminal: behaves as -n" 4 "$FSCK" "$img"
[ "$(sha256sum < "$img")" = "$sum" ] && tap_ok "and writes nothing" || tap_fail "the image changed without -y"
check "--json" 4 "$FSCK" -n --json "$img"
python3 - "$TEST_TMP/out" <<'PY' && tap_ok "--json is one valid object with the problem list" || tap_fail "--json output is not what it should be"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_code"] == 4 and d["problems_found"] == 1 and d["problems_fixed"] == 0
assert d["problems"][0]["code"] == "0x060001" and d["problems"][0]["fixed"] is False
assert d["inodes"] > 400
PY
check "--preen -f fixes what is safe" 1 "$FSCK" --preen -f "$img"
check "--preen on a clean, cleanly unmounted volume skips the check" 0 "$FSCK" --preen "$img"
grep -q "clean" "$TEST_TMP/out" && tap_ok "and says it is clean" || tap_fail "--preen clean message"
fsck_case_image f_unreachable_inode "$img" > /dev/null 2>&1
sum=$(sha256sum < "$img")
check "--preen -f stops at a problem it may not fix" 4 "$FSCK" --preen -f "$img"
grep -q "UNEXPECTED INCONSISTENCY" "$TEST_TMP/out" && tap_ok "preen says to run fsck by hand" ||
	tap_fail "no preen stop message"
[ "$(sha256sum < "$img")" = "$sum" ] && tap_ok "and writes nothing" || tap_fail "preen wrote after stopping"
check "--dry-run -f -y (f2fs-tools' --dry-run goes with anything)" 4 "$FSCK" --dry-run -f -y "$img"
[ "$(sha256sum < "$img")" = "$sum" ] && tap_ok "and writes nothing" || tap_fail "--dry-run wrote"
check "-f -N (answer no where fsck would ask: -f repairs without asking)" 1 "$FSCK" -f -N "$img"
check "then -f -n is clean" 0 "$FSCK" -f -n "$img"
fsck_case_image f_unreachable_inode "$img" > /dev/null 2>&1
check "-p -f repairs what --preen may not (f2fs-tools' -f forces and fixes)" 1 "$FSCK" -p -f "$img"
check "then -f -n is clean" 0 "$FSCK" -f -n "$img"

# -d 2: every problem is reported under the banner of the pass its code belongs to
# (0xPPNNNN), problems of passes 4, 5 and 6 here
fsck_case_image f_dentry_bad_ino "$img" > /dev/null 2>&1
"$FSCK" -f -n -d 2 "$img" > "$TEST_TMP/out" 2>&1
bad=$(awk '/^Pass / { nums = $2; sub(":", "", nums); next }
	/^\[0x/ { pp = substr($1, 4, 2) + 0; n = split(nums, a, "+"); ok = 0
		   for (i = 1; i <= n; i++) if (a[i] + 0 == pp) ok = 1
		   if (!ok) print "code " $1 " under Pass " nums }' "$TEST_TMP/out")
if [ -z "$bad" ] && grep -q '^\[0x06' "$TEST_TMP/out" && grep -q '^\[0x05' "$TEST_TMP/out"; then
	tap_ok "-d 2 banners carry the pass numbers of the codes under them"
else
	tap_fail "-d 2 banners: ${bad:-no problems of passes 5 and 6 seen}"
fi
tap_summary
