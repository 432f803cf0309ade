#!/bin/bash
# defrag.f2fs on volumes of 16 KiB blocks, plain and packed_ssa (an SSA block holds the
# summaries of four segments): our mkfs.f2fs -b 16384 volumes of 384 MiB aged by
# transactions (move_lib.sh's age_image), and the kernel-aged images
# tests/images/base/aged16k and aged16k_packed (files of /t fragmented by Linux 7.3
# arm64-16k).  The 4 KiB runs are in defrag.sh.  Per volume of ours:
#  1. the used segments moved to the right of a target (-s/-l/-t): the range holds no
#     valid block afterwards, every segment that gained blocks lies at or after the
#     target (dump.f2fs --segments), our fsck -f -n clean, every file's sha256 unchanged;
#  2. the same with -i, at or below a target above the range, in batches of 128 blocks
#     (--batch-blocks: the checkpoint version goes up by more than one);
#  3. the files cut by short range moves, then --file / (every regular file): the extents
#     counted by dump.f2fs --frag drop to one per file, files unchanged, fsck clean;
#  4. faults at sampled writes (the first, a stride of a fifth, the last three) of the
#     range move of 1 (plain) or of --file of the most fragmented file (packed_ssa): each
#     leaves the old volume or the new one (dump.f2fs --segments), our fsck clean (but for
#     the pack being written, not in use), the files unchanged (every other run; the
#     moved file's at each); with every write allowed the run completes.
# Per kernel-aged image: --file /t/sizes (a directory) and --file /t/ow (a file the
# kernel rewrote at random offsets) end in one extent per file, the used segments of the
# image moved by -s/-l/-t, every file of /t unchanged (dump.f2fs --extract -S), fsck clean;
# and a compressed file cut by moving one stored block away ends with its stored blocks
# in one run.
. "$(dirname "$0")/lib.sh"
DEFRAG=$OUR_BIN/defrag.f2fs
FSCK=$OUR_BIN/fsck.f2fs
DUMP=$OUR_BIN/dump.f2fs
POP=$OUR_BIN/txn_populate
for b in "$DEFRAG" "$FSCK" "$DUMP" "$POP"; do [ -x "$b" ] || hard_error "not built: $b"; done
. "$(dirname "$0")/move_lib.sh"
command -v xz > /dev/null || skip "xz not found"
export SOURCE_DATE_EPOCH=1700000000
# ZF2FS_REF16_FSCK: an fsck.f2fs of 16 KiB volumes (f2fs-tools' development branch) run
# too after each defrag, when given (by hand: CI has none)
REF16=${ZF2FS_REF16_FSCK:-}

# copy SRC DST: a sparse copy (DST removed first: truncating a used file costs more)
copy() { rm -f "$2" && cp --sparse=always "$1" "$2"; }
# segs IMG: "segno valid_blocks state" per main-area segment
segs() { "$DUMP" --segments "$1" | sed -n 's/.*segno=\([0-9]*\) .*valid_blocks=\([0-9]*\) .*state=\([a-z]*\).*/\1 \2 \3/p'; }
# frag PATH IMG: files with blocks, extents, fragmented files below PATH (dump.f2fs --frag)
frag() { "$DUMP" --frag "$1" "$2" | awk '$1 == "files_with_blocks" { f = $2 } $1 == "extents" { e = $2 }
	$1 == "fragmented" { x = $2 } END { print f, e, x }'; }
# cpver IMG: the checkpoint version in use (--checkpoint lists the pack in use first)
cpver() { "$DUMP" --checkpoint "$1" | awk '$1 == "checkpoint_ver" { print $2; exit }'; }
# tshas IMG: the sha256 of every file of /t (sparse: /s/sparse is 548 GB apparent)
tshas()
{
	rm -rf "$TEST_TMP/tx"
	"$DUMP" --extract /t -S -o "$TEST_TMP/tx" "$1" > /dev/null || return 1
	(cd "$TEST_TMP/tx" && find . -type f -exec sha256sum {} +) | LC_ALL=C sort -k2
	rm -rf "$TEST_TMP/tx"
}
# files IMG: the files' sha256 as $WANT holds them (every file, those of /t with $T_ONLY,
# or with $ONE the file $ONE's alone)
files()
{
	if [ -n "${ONE:-}" ]; then "$DUMP" --cat "$ONE" "$1" | sha256sum
	elif [ -n "${T_ONLY:-}" ]; then tshas "$1"
	else shas "$1"
	fi | cmp -s - "$WANT"
}

# clean IMG: our fsck -f -n (and $REF16) find nothing; else prints why
clean()
{
	local out
	out=$(our_fsck_clean "$1") || { printf '%s\n' "$out" | head -5; return 1; }
	[ -z "$REF16" ] && return 0
	out=$(REF_FSCK=$REF16 ref_fsck "$1") || { printf '%s\n' "$out" | head -20; return 1; }
}

# moved OLD NEW START LEN TARGET right|left: the range [START, START + LEN) of main
# area MAIN holds no valid block in NEW; the segments that gained blocks lie on the
# target's side.  Prints the blocks gained, or what is wrong (returns 1).
moved()
{
	awk -v main="$MAIN" -v start="$3" -v len="$4" -v target="$5" -v side="$6" '
	NR == FNR { old[$1] = $2; next }
	{
		a = main + $1 * 512; inr = a >= start && a < start + len
		if (inr && $2 > 0) { print "segment " $1 " in the range holds " $2 " valid blocks"; bad = 1 }
		if (!inr && $2 > old[$1]) {
			gained += $2 - old[$1]
			if ((side == "right" && a < target) || (side == "left" && a + 511 > target)) {
				print "segment " $1 " gained blocks on the wrong side of " target; bad = 1
			}
		}
	}
	END { print gained + 0 " blocks gained"; exit bad || !gained }' "$1" "$2"
}

# range_check NAME IMG START LEN TARGET SIDE ARGS...: defrag ARGS -s START -l LEN -t TARGET
# on a copy of IMG, then moved, files, clean
range_check()
{
	local name=$1 img=$2 start=$3 len=$4 target=$5 side=$6 c=$TEST_TMP/rc.img why= m o
	shift 6
	copy "$img" "$c"
	if ! "$DEFRAG" "$@" -s "$start" -l "$len" -t "$target" "$c" > "$TEST_TMP/out" 2>&1; then
		why="exit $?: $(cat "$TEST_TMP/out")"
	elif ! m=$(moved "$TEST_TMP/old.segs" <(segs "$c") "$start" "$len" "$target" "$side"); then
		why=$(printf '%s\n' "$m" | head -4 | tr '\n' ' ')
	elif ! files "$c"; then
		why="file contents changed"
	elif ! o=$(clean "$c"); then
		why="fsck: $o"
	fi
	if [ -n "$why" ]; then tap_fail "$name: $why"
	else tap_ok "$name: range empty, $m on the target's side, fsck clean, files unchanged: $(tail -1 "$TEST_TMP/out")"
	fi
}

# faults NAME IMG ARGS...: the write count W of defrag ARGS (-d 3), then a copy of IMG
# defragmented with the N-th write failing for N = 1, a stride of W / 5, the last 3 and
# W + 1: each run leaves the old segments or the new ones, fsck clean, files unchanged;
# a failed write fails the run, W + 1 completes it with the new segments
faults()
{
	local name=$1 img=$2 w n rc state why= olds=0 news=0 runs=0 o
	shift 2
	copy "$img" "$TEST_TMP/fn.img"
	"$DEFRAG" -d 3 "$@" "$TEST_TMP/fn.img" > "$TEST_TMP/fn.out" 2>&1 ||
		hard_error "$name: $(cat "$TEST_TMP/fn.out")"
	w=$(sed -n 's/.*the commits made \([0-9]*\) writes.*/\1/p' "$TEST_TMP/fn.out" | awk '{ s += $1 } END { print s + 0 }')
	[ "$w" -gt 5 ] || hard_error "$name: no write count in: $(cat "$TEST_TMP/fn.out")"
	segs "$img" > "$TEST_TMP/fo.segs"
	segs "$TEST_TMP/fn.img" > "$TEST_TMP/fnew.segs"
	cmp -s "$TEST_TMP/fo.segs" "$TEST_TMP/fnew.segs" && hard_error "$name changed no segment"
	for n in $( (seq 1 $((w / 5)) "$w"; seq $((w - 2)) $((w + 1))) | sort -nu); do
		copy "$img" "$TEST_TMP/ft.img"
		ZF2FS_FAULT_WRITES=$n "$DEFRAG" "$@" "$TEST_TMP/ft.img" > "$TEST_TMP/ft.out" 2>&1
		rc=$?
		runs=$((runs + 1))
		if [ "$n" -le "$w" ] && [ $rc = 0 ]; then why="write $n failed, yet defrag exited 0"; break; fi
		if [ "$n" -gt "$w" ] && [ $rc != 0 ]; then why="every write allowed: exit $rc: $(cat "$TEST_TMP/ft.out")"; break; fi
		segs "$TEST_TMP/ft.img" > "$TEST_TMP/ft.segs"
		if cmp -s "$TEST_TMP/ft.segs" "$TEST_TMP/fo.segs"; then state=old
		elif cmp -s "$TEST_TMP/ft.segs" "$TEST_TMP/fnew.segs"; then state=new
		else why="write $n: neither the old segments nor the new ones"; break
		fi
		[ "$n" -gt "$w" ] && [ $state != new ] && { why="every write allowed: the old segments"; break; }
		# a pack begun but not finished is invalid (0x020001): the other one is in use
		o=$("$FSCK" -f -n "$TEST_TMP/ft.img" 2>&1)
		if [ $? != 0 ] || printf '%s\n' "$o" | grep '^\[0x' | grep -qv '^\[0x020001\]'; then
			why="write $n ($state): fsck: $(printf '%s\n' "$o" | head -4 | tr '\n' ' ')"; break
		fi
		if [ -n "${ONE:-}" ] || [ $((runs % 2)) = 1 ] || [ "$n" -gt "$w" ]; then
			files "$TEST_TMP/ft.img" || { why="write $n ($state): file contents changed"; break; }
		fi
		[ $state = old ] && olds=$((olds + 1)) || news=$((news + 1))
	done
	if [ -n "$why" ]; then tap_fail "$name: $why"
	elif [ $olds -lt 2 ]; then tap_fail "$name: $olds runs left the old volume: the faults missed the commit"
	else tap_ok "$name, $w writes: $((runs - 1)) faults, $olds left the old volume, $((news - 1)) the new one, all clean with files unchanged; the last run completed"
	fi
}

# used IMG: main_blkaddr, the first and last used segments that hold no current log, and
# the segment count
used()
{
	local main n
	main=$("$DUMP" --segments "$1" | awk '$1 == "main_blkaddr" { print $2 }')
	n=$("$DUMP" --segments "$1" | awk '$1 == "segment_count" { print $2 }')
	segs "$1" | awk -v main="$main" -v n="$n" '$2 > 0 && $3 != "current" { if (f == "") f = $1; l = $1 }
		END { print main, f, l, n }'
}

WANT=$TEST_TMP/want.sha
for feat in "" packed_ssa; do
	name="mkfs -b 16384${feat:+ -O $feat}"
	IMG=$(new_image ours.img 384M)
	"$MKFS" -f -q -b 16384 -O "extra_attr,inode_checksum${feat:+,$feat}" "$IMG" > /dev/null 2>&1 ||
		hard_error "$name failed"
	age_image "$IMG"
	our_fsck_clean "$IMG" > /dev/null || hard_error "$name: the aged image is not clean"
	shas "$IMG" > "$WANT" || hard_error "$name: cannot read the aged files"
	[ "$(wc -l < "$WANT")" -gt 50 ] || hard_error "$name: too few files"
	segs "$IMG" > "$TEST_TMP/old.segs"
	read -r MAIN FIRST LAST NSEGS < <(used "$IMG")
	[ -n "$LAST" ] && [ "$LAST" -gt "$FIRST" ] || hard_error "$name: no range of used segments"
	START=$((MAIN + FIRST * 512))
	LEN=$(( (LAST - FIRST + 1) * 512 ))

	# 1. to the right of a target past the range, inside a section
	range_check "$name: -s/-l/-t" "$IMG" $START $LEN $((MAIN + (LAST + 8) * 512 + 100)) right

	# 2. -i, in batches
	T2=$((MAIN + (NSEGS - 4) * 512 - 1))
	range_check "$name: -i, --batch-blocks 128" "$IMG" $START $LEN $T2 left -i --batch-blocks 128
	v0=$(cpver "$IMG") v1=$(cpver "$TEST_TMP/rc.img")
	if [ $((v1 - v0)) -gt 1 ] && grep -q "in $((v1 - v0)) checkpoints" "$TEST_TMP/out"; then
		tap_ok "$name: -i in batches: checkpoint version $v0 -> $v1"
	else
		tap_fail "$name: -i in batches: checkpoint version $v0 -> $v1: $(cat "$TEST_TMP/out")"
	fi

	# 3. files cut by moving two blocks of every 24 of the used data segments away, then
	# every regular file made contiguous
	FR=$TEST_TMP/frag.img
	copy "$IMG" "$FR"
	for seg in $(segs "$IMG" | awk -v f="$FIRST" -v l="$LAST" '$1 >= f && $1 <= l && $2 > 100 { print $1 }'); do
		for ofs in $(seq 12 24 150); do
			"$DEFRAG" -s $((MAIN + seg * 512 + ofs)) -l 2 -t $((MAIN + NSEGS / 2 * 512)) "$FR" > /dev/null 2>&1 ||
				hard_error "$name: cutting segment $seg at $ofs failed"
		done
	done
	read -r BF BE BX < <(frag / "$FR")
	[ "${BX:-0}" -ge 5 ] || hard_error "$name: the cuts fragmented ${BX:-?} files"
	our_fsck_clean "$FR" > /dev/null && files "$FR" || hard_error "$name: the cut volume is not clean or its files differ"
	copy "$FR" "$TEST_TMP/fd.img"
	if "$DEFRAG" --file / "$TEST_TMP/fd.img" > "$TEST_TMP/out" 2>&1 &&
	   read -r AF AE AX < <(frag / "$TEST_TMP/fd.img") && [ "$AX" = 0 ] && [ "$AE" = "$AF" ] &&
	   [ "$AF" = "$BF" ] && [ "$AE" -lt "$BE" ] && files "$TEST_TMP/fd.img" && o=$(clean "$TEST_TMP/fd.img"); then
		tap_ok "$name: --file /: $BF files, $BE extents ($BX fragmented) -> $AE extents, none fragmented, files unchanged, fsck clean: $(tail -1 "$TEST_TMP/out")"
	else
		tap_fail "$name: --file /: $BF files $BE extents $BX fragmented -> ${AF:-?} ${AE:-?} ${AX:-?}: $(tail -2 "$TEST_TMP/out" | tr '\n' ' ') ${o:-}"
	fi

	# 4. faults
	if [ -z "$feat" ]; then
		faults "$name: faults in -s/-l/-t" "$IMG" -s $START -l $LEN -t $((MAIN + (LAST + 8) * 512))
	else
		F=$("$DUMP" --frag / "$FR" | sed -n 's/^ *path=\([^ ]*\) .*/\1/p' | head -1)
		cp "$WANT" "$TEST_TMP/all.sha"
		"$DUMP" --cat "$F" "$FR" | sha256sum > "$WANT"
		ONE=$F faults "$name: faults in --file $F" "$FR" --file "$F"
		cp "$TEST_TMP/all.sha" "$WANT"
	fi
done

# stored IMG: the addresses of inode $ino's stored blocks in file order (not markers, holes
# or reserved blocks); runs IMG: how many runs of consecutive addresses they make
stored() { "$DUMP" -i "$ino" "$1" 2>/dev/null | sed -n 's/^ *fofs=[0-9]* blkaddr=\([0-9]*\) .*/\1/p' |
	awk '$1 < 4294967294'; }
runs() { stored "$1" | awk 'NR == 1 || $1 != p + 1 { r++ } { p = $1 } END { print r + 0 }'; }

# the kernel-aged images
T_ONLY=1
for base in aged16k aged16k_packed; do
	K=$TEST_TMP/$base.img
	xz -dc "$CASE_BASE/$base.img.xz" | cp --sparse=always /dev/stdin "$K" || hard_error "xz -dc $base"
	tshas "$K" > "$WANT" || hard_error "$base: cannot read /t"
	[ "$(wc -l < "$WANT")" -gt 500 ] || hard_error "$base: too few files in /t"
	read -r SF SE SX < <(frag /t/sizes "$K")
	read -r OF OE OX < <(frag /t/ow "$K")
	[ "${SX:-0}" -ge 2 ] && [ "${OE:-0}" -ge 2 ] || hard_error "$base: /t/sizes or /t/ow not fragmented"
	copy "$K" "$TEST_TMP/k.img"
	if "$DEFRAG" --file /t/sizes "$TEST_TMP/k.img" > "$TEST_TMP/out" 2>&1 &&
	   "$DEFRAG" --file /t/ow "$TEST_TMP/k.img" >> "$TEST_TMP/out" 2>&1 &&
	   read -r AF AE AX < <(frag /t/sizes "$TEST_TMP/k.img") && [ "$AX" = 0 ] && [ "$AE" = "$SF" ] &&
	   [ "$(frag /t/ow "$TEST_TMP/k.img")" = "1 1 0" ] &&
	   files "$TEST_TMP/k.img" && o=$(clean "$TEST_TMP/k.img"); then
		tap_ok "$base: --file /t/sizes ($SE extents -> $AE) and /t/ow ($OE -> 1): files of /t unchanged, fsck clean: $(tail -1 "$TEST_TMP/out")"
	else
		tap_fail "$base: --file /t/sizes, /t/ow: ${AF:-?} ${AE:-?} ${AX:-?}: $(tail -3 "$TEST_TMP/out" | tr '\n' ' ') ${o:-}"
	fi
	segs "$K" > "$TEST_TMP/old.segs"
	read -r MAIN FIRST LAST NSEGS < <(used "$K")
	range_check "$base: -s/-l/-t over its used segments" "$K" $((MAIN + FIRST * 512)) \
		$(( (LAST - FIRST + 1) * 512 )) $((MAIN + (LAST + 1) * 512)) right

	# a compressed file (/t/c/text: a marker, one stored block and two saved ones per
	# cluster) cut by moving its third stored block away, then --file: its stored blocks
	# lie at consecutive addresses in file order again, which is as contiguous as such a
	# file gets (zf2fs_file_extents ends an extent at each marker)
	copy "$K" "$TEST_TMP/kc.img"
	ino=$("$DUMP" --ls /t/c "$K" 2>/dev/null | sed -n 's/.*name=text ino=\([0-9]*\).*/\1/p')
	cut=$(stored "$K" | sed -n 3p)
	"$DEFRAG" -s "$cut" -l 1 -t $((MAIN + NSEGS / 2 * 512)) "$TEST_TMP/kc.img" > /dev/null 2>&1 ||
		hard_error "$base: moving block $cut of /t/c/text failed"
	r0=$(runs "$TEST_TMP/kc.img")
	if [ "$r0" -ge 2 ] && "$DEFRAG" --file /t/c/text "$TEST_TMP/kc.img" > "$TEST_TMP/out" 2>&1 &&
	   [ "$(runs "$TEST_TMP/kc.img")" = 1 ] && [ "$(stored "$TEST_TMP/kc.img" | wc -l)" -ge 8 ] &&
	   files "$TEST_TMP/kc.img" && o=$(clean "$TEST_TMP/kc.img"); then
		tap_ok "$base: --file of a compressed file cut in $r0 runs: its stored blocks in one run, files of /t unchanged, fsck clean: $(tail -1 "$TEST_TMP/out")"
	else
		tap_fail "$base: --file of a compressed file: runs $r0 -> $(runs "$TEST_TMP/kc.img"): $(tail -2 "$TEST_TMP/out" | tr '\n' ' ') ${o:-}"
	fi
done
tap_summary
