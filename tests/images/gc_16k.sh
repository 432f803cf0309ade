#!/bin/bash
# gc.f2fs on the kernel-aged volumes of 16 KiB blocks (tests/images/base/aged16k and
# aged16k_packed): state's counts against the SIT as dump.f2fs lists it (valid blocks,
# free, dirty and current sections, the blocks greedy GC moves for one section), replay's
# victims against the same list, the SIT read of one 16 KiB block; simulate counts its
# files and writes in 16 KiB blocks.  Then each volume aged further by
# transactions (move_lib.sh's age_image: partly valid sections of data and nodes) is
# collected, in one checkpoint and in batches: collect's victims are replay's, each is
# free afterwards by dump.f2fs's SIT, every file below /t and the aged directories reads
# back the same, and our fsck finds the volume clean.  Last, simulate -b 16384 without
# an image runs as on our mkfs -b 16384 image of the same size.
. "$(dirname "$0")/lib.sh"
GC=${ZF2FS_GC:-$OUR_BIN/gc.f2fs}
DUMP=${ZF2FS_DUMP:-$OUR_BIN/dump.f2fs}
POP=$OUR_BIN/txn_populate
[ -x "$GC" ] || hard_error "gc.f2fs is not built: $GC"
[ -x "$DUMP" ] || hard_error "dump.f2fs is not built: $DUMP"
[ -x "$POP" ] || hard_error "txn_populate is not built: $POP"
[ -x "$FSCK" ] || hard_error "fsck.f2fs is not built: $FSCK"
. "$(dirname "$0")/move_lib.sh"
command -v xz > /dev/null || skip "xz not found"
export SOURCE_DATE_EPOCH=1700000000

# sha256 of every file below the trees collect must keep (not / : /s/sparse is 510 GiB
# of holes)
tree_shas()
{
	local d
	rm -rf "$TEST_TMP/x"
	mkdir "$TEST_TMP/x"
	for d in t age0 age1 age2; do
		"$DUMP" --extract "/$d" -o "$TEST_TMP/x/$d" "$1" > /dev/null || return 1
	done
	(cd "$TEST_TMP/x" && find . -type f -exec sha256sum {} +) | LC_ALL=C sort -k2
	rm -rf "$TEST_TMP/x"
}

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

	# simulate in 16 KiB blocks: a 64 KiB file is 4 blocks and one inode block, each
	# 4 KiB write one block
	out=$("$GC" simulate "$IMG" --ops 2000 --fill 60 --file-size 64K --format json 2>&1)
	rc=$?
	files=$(num files)
	mib() { printf '%s\n' "$out" | sed -n "s/.*\"$1\": {\"host_mib\": \([0-9.]*\), \"data_mib\": [0-9.]*, \"node_mib\": \([0-9.]*\),.*/\1 \2/p"; }
	check "$base: simulate exits 0 with files ($files), image unchanged" \
		[ "$rc" = 0 ] && [ "${files:-0}" -gt 0 ] && [ "$(md5sum < "$IMG")" = "$sum" ]
	check "$base: simulate's fill writes 64 KiB and one 16 KiB inode a file ($(mib fill))" \
		[ "$(mib fill)" = "$(awk -v n="$files" 'BEGIN { printf "%.6g %.6g", n / 16, n / 64 }')" ]
	check "$base: simulate's 2000 writes of 4 KiB are 2000 blocks of 16 KiB ($(mib run))" \
		[ "$(mib run | cut -d' ' -f1)" = 31.25 ]
	# an 80 MiB file: 5120 blocks, the inode's 3995 addresses and one direct node of 4090
	# (4 KiB blocks' node tree would take 7 node blocks)
	out=$("$GC" simulate "$IMG" --ops 10 --files 1 --file-size 80M --format json 2>&1)
	check "$base: simulate's 80 MiB file has 2 node blocks of 16 KiB ($(mib fill))" \
		[ "$(mib fill)" = "80 0.03125" ]
	"$GC" collect --dry-run -n 2 "$IMG" > /dev/null 2>&1
	check "$base: collect --dry-run changes nothing" [ "$(md5sum < "$IMG")" = "$sum" ]

	age_image "$IMG"
	tree_shas "$IMG" > "$TEST_TMP/before.sha" || hard_error "cannot read the files of $base"
	[ "$(wc -l < "$TEST_TMP/before.sha")" -gt 600 ] || hard_error "too few files on $base"
	want=$("$GC" replay --json -n 8 "$IMG" | sed -n 's/.*"secno": \([0-9]*\),.*/\1/p' | tr '\n' ' ')
	for batch in "" "--batch-blocks 60"; do
		cp --sparse=always "$IMG" "$TEST_TMP/c.img"
		out=$("$GC" collect --json -n 8 $batch "$TEST_TMP/c.img" 2>&1)
		rc=$?
		got=$(printf '%s\n' "$out" | sed -n 's/.*"secno": \([0-9]*\),.*/\1/p' | tr '\n' ' ')
		check "$base: collect ${batch:-in one checkpoint}: exit 0, replay's 8 victims ($got)" \
			[ "$rc" = 0 ] && [ "$got" = "$want" ] && [ "$(printf '%s\n' "$want" | wc -w)" = 8 ]
		check "$base: collect ${batch:-in one checkpoint}: moved data and node blocks" \
			eval 'printf "%s\n" "$out" | grep -q "\"data_blocks\": [1-9][0-9]*, \"node_blocks\": [1-9]"'
		"$DUMP" --segments "$TEST_TMP/c.img" 2>/dev/null |
			sed -n 's/.*segno=\([0-9]*\) .*state=\([a-z]*\).*/\1 \2/p' > "$TEST_TMP/after"
		notfree=$(for s in $want; do awk -v s="$s" '$1 == s && $2 != "free"' "$TEST_TMP/after"; done)
		check "$base: collect ${batch:-in one checkpoint}: every victim free by dump.f2fs ($notfree)" \
			[ -z "$notfree" ] && [ -s "$TEST_TMP/after" ]
		check "$base: collect ${batch:-in one checkpoint}: every file reads the same" \
			eval 'tree_shas "$TEST_TMP/c.img" | cmp -s - "$TEST_TMP/before.sha"'
		check "$base: collect ${batch:-in one checkpoint}: our fsck finds the volume clean" \
			our_fsck_clean "$TEST_TMP/c.img"
	done
	rm -f "$TEST_TMP/c.img"
done

# simulate without an image, -b 16384: the volume mkfs -b 16384 makes of that size, so
# the same run as on such an image (all but the image's name and the -o given)
rm -f "$IMG"; truncate -s 384M "$IMG"
"$MKFS" -q -f -b 16384 "$IMG" > /dev/null 2>&1 || hard_error "mkfs -b 16384 failed"
args=(--ops 3000 --fill 60 --file-size 64K --format json)
"$GC" simulate "$IMG" "${args[@]}" 2>&1 | sed -e 's/"image": [^,]*,//' -e 's/"op_percent": [^,]*,//' \
	> "$TEST_TMP/img.json"
"$GC" simulate -b 16384 --size 384M "${args[@]}" 2>&1 |
	sed -e 's/"image": [^,]*,//' -e 's/"op_percent": [^,]*,//' > "$TEST_TMP/geo.json"
check "simulate -b 16384 --size 384M runs as on our mkfs -b 16384 image of 384 MiB" \
	eval 'grep -q "\"sections\": 40," "$TEST_TMP/geo.json" && cmp -s "$TEST_TMP/img.json" "$TEST_TMP/geo.json"'
"$GC" simulate --size 384M "${args[@]}" 2>&1 |
	sed -e 's/"image": [^,]*,//' -e 's/"op_percent": [^,]*,//' > "$TEST_TMP/geo4k.json"
check "simulate --size 384M (4 KiB blocks) is another volume" \
	eval '! cmp -s "$TEST_TMP/geo4k.json" "$TEST_TMP/geo.json" && grep -q "\"sections\": 184," "$TEST_TMP/geo4k.json"'
"$GC" simulate -b 8192 --size 384M > "$TEST_TMP/out" 2>&1; rc=$?
check "simulate -b 8192: usage error naming the block size" \
	eval '[ $rc = 16 ] && grep -q "block size 8192 is not supported" "$TEST_TMP/out"'
tap_summary
