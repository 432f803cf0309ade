#!/bin/bash
# sload.f2fs into a casefolded directory (mkfs -O casefold -C utf8; the directory made
# casefolded with inject.f2fs, as chattr +F does on an empty one): names are hashed by
# their folded form (lib/format/casefold.c), new directories inherit the flag, and Debian's
# fsck.f2fs 1.15, which recomputes every hash with its own Unicode 12.1 tables, finds
# no mismatch.  The names cover case, ß (folds to ss), ligatures, decomposition,
# default-ignorable code points (soft hyphen, zero-width joiner), names whose folded
# form is longer than 255 bytes, and one that is not UTF-8 (hashed as it is; refused
# with a strict encoding).  The same
# names loaded into a directory that is not casefolded and then flagged make Debian's
# fsck report mismatches: the check can fail.  Two names that fold alike are refused
# before any write.
. "$(dirname "$0")/sload_lib.sh"
grep -q '^#define HAVE_LIBUNISTRING 1' "$top_builddir/config.h" ||
	skip "built without libunistring: casefolded directories are refused"

mkdir -p "$TEST_TMP/base/cf" "$TEST_TMP/base/plain" "$TEST_TMP/names/Sub"
python3 - "$TEST_TMP/names" <<'PYEOF' || hard_error "cannot make the names"
import os, sys
d = sys.argv[1]
names = ["Hello", "stra\u00dfe", "\u00c5NGSTR\u00d6M", "\ufb01le", "cafe\u0301", "x\u00adsoft",
         "\U0001f469\u200d\U0001f4bbdev", "\u0130stanbul", "\u03a9mega", "\u01c5-title",
         "\u00df" * 127, "\u00df" * 127 + "x", "\u1e9e" * 85]
names += [f"File-Number-{i}" for i in range(150)]
for n in names:
    with open(os.path.join(d, n), "w") as f: f.write(n + "\n")
with open(os.path.join(d, "Sub", "Inner"), "w") as f: f.write("inner\n")
with open(os.fsencode(d) + b"/bad\xff\xfename", "w") as f: f.write("bad\n")
PYEOF

img=$(new_image cf.img 128M)
SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -O casefold -C utf8 "$img" >/dev/null || hard_error "mkfs -O casefold failed"
"$SLOAD" -f "$TEST_TMP/base" -T $T "$img" || hard_error "loading the base tree failed"
"$INJECT" --node --mb i_flags --path /cf --val 0x40000000 "$img" >/dev/null || hard_error "inject failed"
if "$SLOAD" -f "$TEST_TMP/names" --target-dir /cf -T $T "$img"; then
	tap_ok "sload.f2fs loads into a casefolded directory"
else
	tap_fail "sload.f2fs into a casefolded directory failed"
fi
out=$("$REF_FSCK" --dry-run -f "$img" </dev/null 2>&1)
if printf '%s\n' "$out" | grep -q 'Mismatch hash_code'; then
	tap_fail "Debian's fsck finds hash mismatches: $(printf '%s\n' "$out" | grep -m3 'Mismatch hash_code')"
else
	ref_fsck "$img" >/dev/null && "$FSCK" -f -n "$img" >/dev/null &&
		tap_ok "every hash is the folded name's: Debian's fsck (Unicode 12.1 tables) and ours clean" ||
		tap_fail "fsck finds problems in the casefolded directory"
fi
flags=$("$INJECT" --node --mb i_flags --path /cf/Sub --get "$img" 2>/dev/null)
[ $(( ${flags:-0} & 0x40000000 )) -ne 0 ] && tap_ok "a new directory inherits casefolding" ||
	tap_fail "/cf/Sub has i_flags '$flags', not casefolded"
# the oracle can fail: the same names hashed as they are, then the directory flagged
"$SLOAD" -f "$TEST_TMP/names" --target-dir /plain -T $T "$img" || hard_error "loading /plain failed"
"$INJECT" --node --mb i_flags --path /plain --val 0x40000000 "$img" >/dev/null
"$REF_FSCK" --dry-run -f "$img" </dev/null 2>&1 | grep -q 'Mismatch hash_code.*"Hello"' &&
	tap_ok "names hashed as they are in a directory flagged afterwards: Debian's fsck reports them" ||
	tap_fail "Debian's fsck does not check casefolded hashes: the test above proves nothing"
# two names that fold alike
mkdir -p "$TEST_TMP/dup"
echo a > "$TEST_TMP/dup/README"
echo b > "$TEST_TMP/dup/readme"
cp "$img" "$TEST_TMP/before"
out=$("$SLOAD" -f "$TEST_TMP/dup" --target-dir /cf/Sub "$img" 2>&1)
[ $? -eq 1 ] && printf '%s' "$out" | grep -q 'README and .*readme: the same name in a casefolded directory' &&
	cmp -s "$img" "$TEST_TMP/before" &&
	tap_ok "two names that fold alike are refused with their paths, nothing written" ||
	tap_fail "README and readme: '$out'"
# a strict encoding refuses a name that is not UTF-8, before any write
strict=$(new_image strict.img 128M)
SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -O casefold -C utf8:strict "$strict" >/dev/null || hard_error "mkfs -C utf8:strict failed"
"$SLOAD" -f "$TEST_TMP/base" -T $T "$strict" || hard_error "loading the base tree failed"
"$INJECT" --node --mb i_flags --path /cf --val 0x40000000 "$strict" >/dev/null || hard_error "inject failed"
cp "$strict" "$TEST_TMP/before"
out=$("$SLOAD" -f "$TEST_TMP/names" --target-dir /cf "$strict" 2>&1)
[ $? -eq 1 ] && printf '%s' "$out" | grep -q 'strict encoding refuses' && cmp -s "$strict" "$TEST_TMP/before" &&
	tap_ok "a strict encoding: a name that is not UTF-8 is refused with its path, nothing written" ||
	tap_fail "strict encoding: '$out'"
tap_summary
