#!/bin/bash
# f2fslabel on the kernel-aged 16 KiB volumes (base/aged16k.img.xz, plain and packed_ssa):
# the label set and read back (f2fslabel, and blkid where it is installed), the second
# superblock copy at 16 KiB + 1024 the same as the first, our fsck clean; a write failure
# at every write (ZF2FS_FAULT_WRITES) leaves a valid superblock with the old or the new
# label, clean.  With ZF2FS_REF16K_FSCK naming f2fs-tools' development fsck.f2fs, it
# checks every result too.
. "$(dirname "$0")/lib.sh"

LABEL=$OUR_BIN/f2fslabel
BASE=$top_srcdir/tests/images/base
REF16K=${ZF2FS_REF16K_FSCK:-}
[ -x "$LABEL" ] || hard_error "f2fslabel is not built: $LABEL"
command -v xz > /dev/null || skip "xz not found"

clean()
{
	local img=$1 out
	our_fsck_clean "$img" || return 1
	[ -n "$REF16K" ] || return 0
	out=$("$REF16K" --dry-run -f "$img" < /dev/null 2>&1)
	if printf '%s\n' "$out" | grep -v -e '^Info: ' -e '^  ' -e '\[Ok\.\.\]' -e '^\[FSCK\] Max' \
	   -e '^\[FSCK\] fixing SIT types' -e '^Done: ' -e '^$' | grep -q .; then
		echo "reference fsck:"; printf '%s\n' "$out" | sed 's/^/    | /'
		return 1
	fi
}

# both superblock copies of IMG, 4 KiB from byte 1024 of blocks 0 and 1 (16 KiB blocks)
copies_equal()
{
	cmp -s <(dd if="$1" bs=1024 skip=1 count=3 2>/dev/null) \
	       <(dd if="$1" bs=1024 skip=17 count=3 2>/dev/null)
}

for b in aged16k aged16k_packed; do
	orig=$TEST_TMP/$b.img
	xz -dc "$BASE/$b.img.xz" | dd of="$orig" bs=64k conv=sparse status=none ||
		hard_error "cannot unpack $b.img"
	img=$TEST_TMP/l.img
	cp --sparse=always "$orig" "$img"
	old=$("$LABEL" --quiet "$img" 2>&1)
	if ! "$LABEL" "$img" "label-16k wörld" > "$TEST_TMP/out" 2>&1; then
		tap_fail "$b: setting the label failed: $(cat "$TEST_TMP/out")"
		continue
	fi
	got=$("$LABEL" --quiet "$img")
	if [ "$got" != "label-16k wörld" ]; then
		tap_fail "$b: f2fslabel reads back '$got'"
	elif command -v blkid > /dev/null &&
	     got=$(blkid -p -s LABEL -o value "$img" 2>/dev/null) && [ "$got" != "label-16k wörld" ]; then
		tap_fail "$b: blkid reads back '$got'"
	elif ! copies_equal "$img"; then
		tap_fail "$b: the superblock copies differ"
	elif ! clean "$img" > "$TEST_TMP/why" 2>&1; then
		tap_fail "$b: not clean after the label: $(cat "$TEST_TMP/why")"
	else
		tap_ok "$b: label set (was '$old'), read back, both copies, clean"
	fi

	seen_old=0 seen_new=0 bad=
	for n in $(seq 1 10); do
		cp --sparse=always "$orig" "$TEST_TMP/f.img"
		ZF2FS_FAULT_WRITES=$n "$LABEL" "$TEST_TMP/f.img" after > /dev/null 2>&1
		rc=$?
		got=$("$LABEL" --quiet "$TEST_TMP/f.img" 2>&1)
		case "$got" in
		"$old") seen_old=$((seen_old + 1)) ;;
		after) seen_new=$((seen_new + 1)) ;;
		*) bad="write $n: label reads '$got'"; break ;;
		esac
		# the copy written first may differ from the one in use: fsck notes it
		if ! clean "$TEST_TMP/f.img" > "$TEST_TMP/clean" 2>&1 &&
		   ! grep -q 'superblock' "$TEST_TMP/clean"; then
			bad="write $n: not clean: $(cat "$TEST_TMP/clean")"; break
		fi
		[ $rc -eq 0 ] && break
	done
	if [ -n "$bad" ] || [ $seen_new -ne 1 ] || [ $seen_old -lt 2 ]; then
		tap_fail "$b: faults: ${bad:-old $seen_old, new $seen_new}"
	else
		tap_ok "$b: faults: $seen_old interrupted runs keep the old label, then the new"
	fi
done
tap_summary
