#!/bin/bash
# gc.f2fs on the kernel-aged volumes of 16 KiB blocks (tests/images/base/aged16k and
# aged16k_packed): state's counts against the SIT as dump.f2fs lists it (valid blocks,
# free, dirty and current sections, the blocks greedy GC moves for one section), replay's
# victims against the same list, the SIT read of one 16 KiB block; collect and simulate
# refuse the volume in one line and leave it unchanged.
. "$(dirname "$0")/lib.sh"
GC=${ZF2FS_GC:-$top_builddir/tools/gc.f2fs}
DUMP=${ZF2FS_DUMP:-$top_builddir/tools/dump.f2fs}
[ -x "$GC" ] || hard_error "gc.f2fs is not built: $GC"
[ -x "$DUMP" ] || hard_error "dump.f2fs is not built: $DUMP"
command -v xz > /dev/null || skip "xz not found"

IMG=$TEST_TMP/t.img

check() # description, then a command that must succeed
{
	local what=$1
	shift
	if "$@"; then tap_ok "$what"; else tap_fail "$what"; fi
}

for base in aged16k aged16k_packed; do
	xz -dc "$CASE_BASE/$base.img.xz" > "$IMG" || hard_error "xz -dc $base"
	sum=$(md5sum < "$IMG")
	# the SIT by dump.f2fs, one line per main segment: segno valid current(0/1)
	"$DUMP" --segments "$IMG" 2>/dev/null |
		sed -n 's/.*segno=\([0-9]*\) .*valid_blocks=\([0-9]*\) .*state=\([a-z]*\).*/\1 \2 \3/p' \
		> "$TEST_TMP/sit"
	segs=$(wc -l < "$TEST_TMP/sit")
	valid=$(awk '{ s += $2 } END { print s }' "$TEST_TMP/sit")
	free=$(awk '$3 == "free"' "$TEST_TMP/sit" | wc -l)
	cur=$(awk '$3 == "current"' "$TEST_TMP/sit" | wc -l)
	dirty=$(awk '$3 != "current" && $2 > 0 && $2 < 512' "$TEST_TMP/sit" | wc -l)
	full=$(awk '$3 != "current" && $2 == 512' "$TEST_TMP/sit" | wc -l)
	# greedy's first victim: the dirty segment of fewest valid blocks, the lowest first
	read -r vseg vvalid <<< "$(awk '$3 != "current" && $2 > 0 && $2 < 512 { print $1, $2 }' \
		"$TEST_TMP/sit" | sort -k2,2n -k1,1n | head -1)"
	check "$base: dump.f2fs lists 40 main segments, some dirty ($dirty)" \
		[ "$segs" = 40 ] && [ "$dirty" -gt 0 ]

	out=$("$GC" state --json "$IMG" 2>&1)
	rc=$?
	num() { printf '%s\n' "$out" | sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" | head -1; }
	check "$base: state exits 0" [ "$rc" = 0 ]
	check "$base: 512 blocks a segment, $segs main segments" \
		[ "$(num blocks_per_seg)" = 512 ] && [ "$(num main_segments)" = "$segs" ]
	check "$base: valid blocks $(num valid_blocks), the SIT's $valid" [ "$(num valid_blocks)" = "$valid" ]
	check "$base: sections free/dirty/full/current as the SIT says ($free $dirty $full $cur)" \
		eval 'printf "%s\n" "$out" | grep -q "\"sections\": {\"free\": $free, \"dirty\": $dirty, \"full\": $full, \"prefree\": 0, \"current\": $cur}"'
	check "$base: reclaiming one section moves segment $vseg's $vvalid blocks" \
		eval 'printf "%s\n" "$out" | grep -q "\"reclaim\": \[{\"sections\": 1, \"available\": 1, \"blocks\": $vvalid}"'
	check "$base: the SIT read is one 16 KiB block" \
		eval 'printf "%s\n" "$out" | grep -q "\"sit_read\": {\"bytes\": 16384,"'

	out=$("$GC" replay --json -n 1 "$IMG" 2>&1)
	check "$base: replay's first greedy victim is segment $vseg ($vvalid valid)" \
		eval 'printf "%s\n" "$out" | grep -q "{\"step\": 1, \"segno\": $vseg, .*\"valid_blocks\": $vvalid,"'

	for cmd in "collect" "collect --dry-run" "simulate"; do
		err=$("$GC" $cmd "$IMG" 2>&1 > /dev/null)
		rc=$?
		check "$base: $cmd refused in one line, exit 8, image unchanged" \
			[ "$rc" = 8 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
			printf '%s\n' "$err" | grep -q "^gc.f2fs: ERROR: .*16 KiB blocks" &&
			[ "$(md5sum < "$IMG")" = "$sum" ]
	done
done
tap_summary
