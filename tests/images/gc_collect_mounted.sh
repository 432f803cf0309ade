#!/bin/bash
# gc.f2fs collect and defrag.f2fs never touch a mounted device: on a mounted loop device
# and on the backing file of one they refuse (collect: exit 8, one line saying "is
# mounted"; defrag: nonzero, one line naming it) before opening the
# device, and the bytes stay as they were; --dry-run is refused the same way (the volume
# changes under it).  The host kernel may lack F2FS, so the mount is a read-only ext4 one:
# the refusal comes before any superblock is read.  Needs root, losetup, mkfs.ext4 and a
# mountable loop device; skipped otherwise.
. "$(dirname "$0")/lib.sh"

GC=$OUR_BIN/gc.f2fs
DEFRAG=$OUR_BIN/defrag.f2fs
mounted_loop_image

for target in "$LOOPDEV" "$img"; do
	what=$([ "$target" = "$img" ] && echo "backing file" || echo "loop device")
	for opt in "-n 1" "--until-free 5" "-n 1 --dry-run"; do
		# shellcheck disable=SC2086 # the words of $opt are options
		"$GC" collect "$target" $opt > "$TEST_TMP/out" 2> "$TEST_TMP/err"
		rc=$?
		if [ $rc -eq 8 ] && [ "$(wc -l < "$TEST_TMP/err")" = 1 ] &&
		   grep -q "is mounted: unmount it first" "$TEST_TMP/err" &&
		   [ "$(md5sum < "$img")" = "$sum" ]; then
			tap_ok "$what, collect $opt: refused, untouched"
		else
			sed 's/^/# /' "$TEST_TMP/err" | head -3
			tap_fail "$what, collect $opt: exit $rc"
		fi
	done
	# defrag.f2fs moves blocks through the same library commit: the same refusal
	for opt in "" "--file /x"; do
		# shellcheck disable=SC2086 # the words of $opt are options
		"$DEFRAG" $opt "$target" > "$TEST_TMP/out" 2> "$TEST_TMP/err"
		rc=$?
		if [ $rc -ne 0 ] && [ "$(wc -l < "$TEST_TMP/err")" = 1 ] &&
		   grep -q "mounted" "$TEST_TMP/err" && [ "$(md5sum < "$img")" = "$sum" ]; then
			tap_ok "$what, defrag.f2fs $opt: refused, untouched"
		else
			sed 's/^/# /' "$TEST_TMP/err" | head -3
			tap_fail "$what, defrag.f2fs $opt: exit $rc"
		fi
	done
done
tap_summary
