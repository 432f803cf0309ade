#!/bin/bash
# Hostile images: every image a fuzz target (fuzz/, bench/fuzz.sh) ever crashed or hung on,
# in tests/images/fuzz/*.img.xz, goes through
#   fsck.f2fs -f -n -t, fsck.f2fs -f -y (on a copy) and fsck.f2fs -f -n again,
#   dump.f2fs with every view (text and JSON), gc.f2fs state and replay.
# Only one thing is required: no tool dies of a signal (exit 134 abort, 139 segfault, any
# 128+N), reports a sanitizer error (ASan, UBSan, LeakSanitizer) or runs past the time
# limit (exit 124).  What the tools say about the image is not checked.
. "$(dirname "$0")/lib.sh"

DUMP=${ZF2FS_DUMP:-$OUR_BIN/dump.f2fs}
GC=${ZF2FS_GC:-$OUR_BIN/gc.f2fs}
LIMIT=${ZF2FS_FUZZ_TIMEOUT:-60}
command -v xz >/dev/null 2>&1 || skip "xz not found"
command -v timeout >/dev/null 2>&1 || skip "timeout not found"

# run NAME CMD...: the command must neither crash, nor hang, nor trip a sanitizer
run()
{
	local name=$1 rc
	shift
	timeout -k 5 "$LIMIT" "$@" > /dev/null 2> "$TEST_TMP/err"
	rc=$?
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		why="$name: no answer within ${LIMIT}s"
	elif [ $rc -ge 128 ]; then
		why="$name: killed by signal $((rc - 128))"
	elif grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$TEST_TMP/err"; then
		why="$name: sanitizer report"
	else
		return 0
	fi
	grep -m5 -E 'ERROR:|runtime error:|#[0-9] ' "$TEST_TMP/err" | sed 's/^/# /'
	return 1
}

n=0
for x in "$top_srcdir"/tests/images/fuzz/*.img.xz; do
	[ -f "$x" ] || continue
	n=$((n + 1))
	name=$(basename "$x" .img.xz)
	img=$TEST_TMP/$name.img
	xz -dc "$x" > "$img" || hard_error "$name: cannot decompress"
	why=
	export ZF2FS_NO_PROGRESS=1
	run "fsck -n" "$FSCK" -f -n -t "$img" &&
	run "dump" "$DUMP" --superblock --checkpoint --segments --tree --frag / -n 0~200 -s 0~64 -a 0~16 \
		-i 3 -i 4 -b 0 -b 1024 -b 4096 --ls / "$img" &&
	run "dump --json" "$DUMP" --json --superblock --checkpoint --segments --tree -n 0~200 \
		-s 0~64 -i 3 --ls / "$img" &&
	run "gc state" "$GC" state "$img" &&
	run "gc replay" "$GC" replay "$img" -n 20 &&
	run "gc replay bg" "$GC" replay "$img" --gc-type bg -n 20 &&
	cp --sparse=always "$img" "$img.y" &&
	run "fsck -y" "$FSCK" -f -y "$img.y" &&
	run "fsck -n after -y" "$FSCK" -f -n "$img.y"
	if [ -n "$why" ]; then
		tap_fail "$name: $why"
	else
		tap_ok "$name: fsck, dump and gc.f2fs survive it"
	fi
	rm -f "$img" "$img.y"
done
[ $n -gt 0 ] || skip "no images in tests/images/fuzz"
tap_summary
