#!/bin/bash
# f2fslabel: the label round trip (f2fslabel and blkid read back what f2fslabel set:
# ASCII, UTF-8 beyond the BMP, the full 512 UTF-16 units), both fscks clean after it, on
# images from our mkfs (with and without sb_checksum) and Debian's; invalid UTF-8 and
# too-long labels refused with a one-line error and the image untouched; and a write
# failure at every write (ZF2FS_FAULT_WRITES) leaves a valid superblock with the old or
# the new label.
. "$(dirname "$0")/lib.sh"
need_ref_tools
command -v blkid >/dev/null || skip "blkid not found"

LABEL=$OUR_BIN/f2fslabel
FSCK=$OUR_BIN/fsck.f2fs
[ -x "$LABEL" ] || hard_error "f2fslabel is not built: $LABEL"

LONG=$(head -c 512 /dev/zero | tr '\0' L)
# four-byte UTF-8 characters take two UTF-16 units: 256 of them fill the name
WIDE=$(for i in $(seq 1 256); do printf '\xf0\x9f\x8e\x89'; done)

clean()
{
	local img=$1 out rc
	out=$("$FSCK" -f -n "$img" 2>&1)
	rc=$?
	[ $rc -eq 0 ] || { echo "our fsck exit $rc:"; printf '%s\n' "$out" | sed 's/^/    | /'; return 1; }
	ref_fsck "$img"
}

round_trip()
{
	local what=$1 img=$2 label=$3 got
	if ! "$LABEL" "$img" "$label"; then
		tap_fail "$what: setting the label failed"; return
	fi
	got=$("$LABEL" --quiet "$img")
	if [ "$got" != "$label" ]; then
		tap_fail "$what: f2fslabel reads back '$got'"; return
	fi
	got=$(blkid -p -s LABEL -o value "$img" 2>/dev/null || blkid -s LABEL -o value "$img")
	if [ "$got" != "$label" ]; then
		tap_fail "$what: blkid reads back '$got'"; return
	fi
	if ! clean "$img"; then
		tap_fail "$what: not clean after setting the label"; return
	fi
	tap_ok "$what"
}

for mk in "ours|$MKFS -q -f -l old" "ours, sb_checksum|$MKFS -q -f -l old -O sb_checksum" \
	  "Debian's|$REF_MKFS -q -f -l old"; do
	name=${mk%%|*}
	img=$(new_image "l.img" 100M)
	${mk#*|} "$img" > /dev/null 2>&1 || { tap_fail "$name mkfs failed"; continue; }
	[ "$("$LABEL" --quiet "$img")" = old ] || tap_fail "$name mkfs: label 'old' not read"
	round_trip "$name mkfs: ASCII label" "$img" "new-label"
	round_trip "$name mkfs: UTF-8 label" "$img" "wörld 🎉 ünïcödé"
	round_trip "$name mkfs: 512 ASCII characters" "$img" "$LONG"
	round_trip "$name mkfs: 256 characters beyond the BMP" "$img" "$WIDE"
	round_trip "$name mkfs: empty label" "$img" ""
done

# refusals: one line on stderr, exit 1, the image byte for byte as before
img=$(new_image r.img 100M)
"$MKFS" -q -f -l keep "$img" > /dev/null 2>&1
sum=$(md5sum < "$img")
for bad in "$(printf 'a\xffb')" "$(printf '\xc0\xaf')" "$(printf '\xed\xa0\x80')" "${LONG}x" \
	   "${WIDE}x"; do
	"$LABEL" "$img" "$bad" > "$TEST_TMP/out" 2> "$TEST_TMP/err"
	rc=$?
	if [ $rc -ne 1 ] || [ "$(wc -l < "$TEST_TMP/err")" -ne 1 ] || [ -s "$TEST_TMP/out" ] ||
	   [ "$(md5sum < "$img")" != "$sum" ]; then
		tap_fail "bad label ($(printf '%s' "$bad" | head -c 20 | od -An -tx1 | head -1)): exit $rc, $(cat "$TEST_TMP/err")"
	else
		tap_ok "bad label refused: $(cat "$TEST_TMP/err")"
	fi
done
"$LABEL" > /dev/null 2>&1; rc=$?
[ $rc -eq 16 ] && tap_ok "no device: usage error" || tap_fail "no device: exit $rc"

# a fault at every write: afterwards a valid superblock with the old or the new label
for mk in "$MKFS -q -f -l before" "$MKFS -q -f -l before -O sb_checksum"; do
	orig=$TEST_TMP/orig.img
	rm -f "$orig"; truncate -s 100M "$orig"
	$mk "$orig" > /dev/null 2>&1
	seen_old=0 seen_new=0 bad=
	for n in $(seq 1 10); do
		cp --sparse=always "$orig" "$TEST_TMP/f.img"
		ZF2FS_FAULT_WRITES=$n "$LABEL" "$TEST_TMP/f.img" after > /dev/null 2>&1
		rc=$?
		got=$("$LABEL" --quiet "$TEST_TMP/f.img" 2>&1)
		case "$got" in
		before) seen_old=$((seen_old + 1)) ;;
		after) seen_new=$((seen_new + 1)) ;;
		*) bad="write $n: label reads '$got'"; break ;;
		esac
		if ! clean "$TEST_TMP/f.img" > "$TEST_TMP/clean" 2>&1 &&
		   ! grep -q 'superblock' "$TEST_TMP/clean"; then
			bad="write $n: not clean"; cat "$TEST_TMP/clean"; break
		fi
		[ $rc -eq 0 ] && break
	done
	if [ -n "$bad" ] || [ $seen_new -ne 1 ] || [ $seen_old -lt 2 ]; then
		tap_fail "faults ($mk): ${bad:-old $seen_old, new $seen_new}"
	else
		tap_ok "faults ($mk): $seen_old interrupted runs keep the old label, then the new"
	fi
done
tap_summary
