#!/bin/bash
# gc.f2fs state on an empty 15 TiB volume (7.8 million segments, a sparse file of a few
# hundred KiB): the GC model keeps records only for segments in use, so the run fits in
# 64 MiB of address space and 16 MiB of resident memory.  A model with dense per-segment
# arrays (about 250 MiB of address space here) fails under the limit.  The counts printed
# must still cover every section.  Nothing here is timed.
. "$(dirname "$0")/lib.sh"

GC=${ZF2FS_GC:-$top_builddir/tools/gc.f2fs}
PEAK=$top_builddir/tests/images/peak_rss
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
exit $fail
