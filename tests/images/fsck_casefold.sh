#!/bin/bash
# fsck.f2fs checks dentry hashes in casefolded directories (mkfs -O casefold -C utf8, the
# directory flagged with inject.f2fs as chattr +F flags an empty one, the names loaded by
# sload.f2fs, which hashes the folded names): names with case differences ("ReadMe",
# "README.txt", "Ä", "straße", a ligature, one that is not UTF-8 and is hashed as it is)
# are not reported; one entry's hash set wrong is reported by -n (nothing written, exit
# 4), fixed by -y (exit 1), the second run is clean and so is Debian's fsck.  Names
# loaded into a plain directory that is then flagged casefolded (hashed and placed by
# their bytes, none by its folded form) tell that the flag is what changed: it is cleared
# and no hash rewritten; afterwards both fscks find the volume clean.  In a build without
# libunistring
# fsck says once that it cannot check those hashes and reports nothing.
. "$(dirname "$0")/sload_lib.sh"

SRC=$TEST_TMP/names
mkdir -p "$TEST_TMP/base/cf" "$TEST_TMP/base/plain" "$SRC"
python3 - "$SRC" <<'PYEOF' || hard_error "cannot make the names"
import os, sys
d = sys.argv[1]
names = ["ReadMe", "README.txt", "\u00c4", "stra\u00dfe", "\ufb01le", "MiXeD-CaSe"]
names += [f"Entry-{i:03d}" for i in range(300)]
for n in names:
    with open(os.path.join(d, n), "w") as f: f.write(n + "\n")
with open(os.fsencode(d) + b"/raw\xff\xfename", "w") as f: f.write("raw\n")
PYEOF

img=$(new_image cf.img 128M)
SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -O casefold -C utf8 "$img" >/dev/null || hard_error "mkfs -O casefold failed"
"$SLOAD" -f "$TEST_TMP/base" -T $T "$img" || hard_error "loading the base tree failed"

if ! grep -q '^#define HAVE_LIBUNISTRING 1' "$top_builddir/config.h"; then
	# this build's sload.f2fs refuses casefolded directories: two directories loaded
	# plain and then flagged, whose hashes (of the bytes) are wrong, are not reported
	for d in cf plain; do
		"$SLOAD" -f "$SRC" --target-dir /$d -T $T "$img" || hard_error "sload.f2fs into /$d failed"
		"$INJECT" --node --mb i_flags --path /$d --val 0x40000000 "$img" >/dev/null || hard_error "inject failed"
	done
	out=$("$FSCK" -f -n "$img" 2>&1)
	rc=$?
	[ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c 'casefolded directories: this build has no libunistring')" = 1 ] &&
		! printf '%s\n' "$out" | grep -q '^\[0x' &&
		tap_ok "no libunistring: fsck says once that it cannot check casefold hashes, reports nothing" ||
		tap_fail "no libunistring: exit $rc, '$out'"
	tap_summary
	exit
fi

"$INJECT" --node --mb i_flags --path /cf --val 0x40000000 "$img" >/dev/null || hard_error "inject failed"
"$SLOAD" -f "$SRC" --target-dir /cf -T $T "$img" || hard_error "sload.f2fs into /cf failed"
cf=$("$INJECT" --lookup /cf "$img") || hard_error "no /cf"

out=$("$FSCK" -f -n "$img" 2>&1)
rc=$?
[ $rc -eq 0 ] && ! printf '%s\n' "$out" | grep -q '^\[0x' &&
	tap_ok "names that differ in case, fold or are not UTF-8: not reported" ||
	tap_fail "a correct casefolded directory: exit $rc, '$out'"
ref_fsck "$img" >/dev/null && tap_ok "Debian's fsck agrees the loaded hashes are right" ||
	tap_fail "Debian's fsck finds the loaded casefolded directory unclean"

# fsck shows bytes that are not printable ASCII as \xNN
for name in ReadMe "$(printf '\xc3\x84')"; do
	shown=$(printf '%s' "$name" | od -An -tx1 | python3 -c 'import sys
print("".join(chr(int(b, 16)) if 32 < int(b, 16) < 127 else "\\x" + b for b in sys.stdin.read().split()))')
	good=$("$INJECT" --dent --nid "$cf" --name "$name" --mb d_hash --get "$img") ||
		hard_error "cannot read the hash of $name"
	good=$(printf '0x%x' "$good")
	"$INJECT" --dent --nid "$cf" --name "$name" --mb d_hash --val 7 "$img" >/dev/null ||
		hard_error "cannot set the hash of $name"
	cp "$img" "$TEST_TMP/before"
	out=$("$FSCK" -f -n "$img" 2>&1)
	rc=$?
	[ $rc -eq 4 ] && [ "$(printf '%s\n' "$out" | grep -c '^\[0x')" = 1 ] &&
		printf '%s\n' "$out" | grep -qF "[0x050003] directory $cf: entry \"$shown\" has hash 0x7, expected $good." &&
		cmp -s "$img" "$TEST_TMP/before" &&
		tap_ok "$name: a wrong hash is reported by -n (the folded name's $good), nothing written" ||
		tap_fail "$name: -n exit $rc, '$out'"
	out=$("$FSCK" -f -y "$img" 2>&1)
	rc=$?
	[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q '^\[0x050003\].*Fix? yes' &&
		[ "$(printf '0x%x' "$("$INJECT" --dent --nid "$cf" --name "$name" --mb d_hash --get "$img")")" = "$good" ] &&
		tap_ok "$name: -y rewrites the hash (exit 1)" || tap_fail "$name: -y exit $rc, '$out'"
	clean "$img" && tap_ok "$name: the second run and Debian's fsck are clean" ||
		tap_fail "$name: unclean after the repair"
done

# names hashed and placed by their bytes, then the directory flagged (the kernel sets the
# flag only on an empty directory, so this is damage): every name holds its plain hash,
# none a folded one, so the flag is what changed.  It goes; no hash is rewritten.
"$SLOAD" -f "$SRC" --target-dir /plain -T $T "$img" || hard_error "loading /plain failed"
"$INJECT" --node --mb i_flags --path /plain --val 0x40000000 "$img" >/dev/null || hard_error "inject failed"
out=$("$FSCK" -f -y "$img" 2>&1)
rc=$?
nhash=$(printf '%s\n' "$out" | grep -c '^\[0x050003\]')
flags=$("$INJECT" --node --mb i_flags --path /plain --get "$img")
[ $rc -eq 1 ] && [ "$nhash" -eq 0 ] && [ "$flags" = 0 ] &&
	printf '%s\n' "$out" | grep -q '^\[0x05000f\] directory .* flagged casefolded, but [0-9]* of its names hold their plain hash' &&
	tap_ok "a plain directory flagged casefolded: the flag cleared, no hash rewritten" ||
	tap_fail "flagged /plain: exit $rc, $nhash hash reports, i_flags $flags: $(printf '%s\n' "$out" | head -3)"
clean "$img" && tap_ok "after that repair both fscks find the volume clean" ||
	tap_fail "flagged /plain: unclean after the repair"
tap_summary
