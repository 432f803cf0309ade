#!/bin/bash
# gc.f2fs state on an empty 15 TiB volume (7.8 million segments, a sparse file of a few
# hundred KiB): the GC model keeps records only for segments in use, so the run fits in
# 64 MiB of address space and 16 MiB of resident memory.  A model with dense per-segment
# arrays (about 250 MiB of address space here) fails under the limit.  The counts printed
# must still cover every section.  Then replay through the victim index, under the same
# limits, with the scan's victims.  Nothing here is timed.
. "$(dirname "$0")/lib.sh"

GC=${ZF2FS_GC:-$OUR_BIN/gc.f2fs}
PEAK=$OUR_BIN/peak_rss
VLIMIT=65536    # KiB
RSS_MAX=16384   # KiB
[ -x "$GC" ] || hard_error "gc.f2fs is not built: $GC"
[ -x "$PEAK" ] || hard_error "peak_rss is not built: $PEAK"
# ASan reserves terabytes of address space and doubles resident memory
for b in "$GC" "$top_builddir"/tools/.libs/*gc.f2fs "$top_builddir"/lib/.libs/libzf2fs.so; do
	[ -f "$b" ] && grep -qa "__asan_" "$b" && skip "sanitizer build: memory limits do not apply"
done

img=$(new_image big.img 15T)
"$MKFS" -q -f "$img" || hard_error "mkfs.f2fs failed on a 15 TiB sparse file"
# the limit itself must leave room for the tool (shell, loader, libraries)
(ulimit -v "$VLIMIT"; "$GC" --help >/dev/null) || hard_error "gc.f2fs --help fails under ulimit -v $VLIMIT"

fail=0
(ulimit -v "$VLIMIT"; "$GC" state --json "$img") >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
if [ "$rc" -ne 0 ]; then
	echo "FAIL: gc.f2fs state under ulimit -v $VLIMIT KiB: exit $rc: $(head -1 "$TEST_TMP/err")"
	fail=1
else
	main=$(sed -n 's/.*"main_sections": \([0-9]*\).*/\1/p' "$TEST_TMP/out" | head -1)
	free=$(sed -n 's/.*"sections": {"free": \([0-9]*\), "dirty": \([0-9]*\), "full": \([0-9]*\), "prefree": \([0-9]*\), "current": \([0-9]*\)}.*/\1 \2 \3 \4 \5/p' "$TEST_TMP/out")
	# 15 TiB of 2 MiB sections, less the metadata areas; six logs hold one section each
	if [ -z "$main" ] || [ "$main" -lt 7800000 ] || [ "$free" != "$((main - 6)) 0 0 0 6" ]; then
		echo "FAIL: section counts: main $main, free/dirty/full/prefree/current: $free"
		fail=1
	fi
fi
"$PEAK" "$TEST_TMP/rss" "$GC" state "$img" >/dev/null
read -r kib status <"$TEST_TMP/rss"
if [ "$status" -ne 0 ] || [ "$kib" -ge "$RSS_MAX" ]; then
	echo "FAIL: gc.f2fs state: exit $status, peak resident $kib KiB (limit $RSS_MAX)"
	fail=1
fi
[ "$fail" -eq 0 ] && echo "PASS: gc.f2fs state on 15 TiB: $main sections, peak $kib KiB"

# replay through the victim index: more dirty sections than the scan shortcut takes (64),
# made by filling a few hundred segments and lowering their valid counts.  The index's
# trees hold only chunks with a dirty section (a flat index took 197 MiB here); its
# victims must be the literal scan's.
POP=$OUR_BIN/populate
INJECT=$OUR_BIN/inject.f2fs
if [ -x "$POP" ] && [ -x "$INJECT" ]; then
	"$POP" "$img" 60000 >/dev/null || hard_error "bench/populate failed on the 15 TiB image"
	mb=$("$INJECT" --sb 0 --mb main_blkaddr --get "$img")
	for i in $(seq 0 89); do
		seg=$((8 + i))
		"$INJECT" --sit 0 --blk $((mb + seg * 512)) --mb vblocks --val $((100 + (i * 37) % 89)) \
			"$img" >/dev/null 2>&1 || hard_error "inject.f2fs failed on segment $seg"
	done
	(ulimit -v "$VLIMIT"; "$GC" replay "$img" --gc-type fg -n 5 --engine index --json) \
		>"$TEST_TMP/index" 2>"$TEST_TMP/err"
	rc=$?
	"$GC" replay "$img" --gc-type fg -n 5 --engine scan --json >"$TEST_TMP/scan" 2>&1
	if [ "$rc" -ne 0 ]; then
		echo "FAIL: gc.f2fs replay under ulimit -v $VLIMIT KiB: exit $rc: $(head -1 "$TEST_TMP/err")"
		fail=1
	elif ! grep -q '"searched": 8[0-9]' "$TEST_TMP/index"; then
		echo "FAIL: replay did not search the 80-odd dirty sections: $(head -3 "$TEST_TMP/index")"
		fail=1
	elif ! diff <(grep '"step"' "$TEST_TMP/index") <(grep '"step"' "$TEST_TMP/scan"); then
		echo "FAIL: the index's victims differ from the scan's on 15 TiB"
		fail=1
	fi
	"$PEAK" "$TEST_TMP/rss" "$GC" replay "$img" --gc-type fg -n 5 >/dev/null
	read -r kib status <"$TEST_TMP/rss"
	if [ "$status" -ne 0 ] || [ "$kib" -ge "$RSS_MAX" ]; then
		echo "FAIL: gc.f2fs replay: exit $status, peak resident $kib KiB (limit $RSS_MAX)"
		fail=1
	fi
	[ "$fail" -eq 0 ] && echo "PASS: gc.f2fs replay on 15 TiB: victims as the scan's, peak $kib KiB"
else
	echo "note: bench/populate or inject.f2fs not built: replay case skipped"
fi
exit $fail
