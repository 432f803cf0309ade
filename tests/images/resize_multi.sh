#!/bin/bash
# resize.f2fs on a two-device volume (our mkfs -c second.img first.img, 128 MiB each, aged
# with files made by transactions and every other one removed: move_lib.sh), the second
# device's file truncated 10x larger (1280 MiB): the main area then needs more SIT and SSA
# than the volume has, so the metadata areas are rebuilt behind the first sections of the
# main area (on the first device) and segment 0 moves onto them.  The superblock's device
# list must then give the first device that many segments fewer (its last block stays
# where it was: Linux counts its blocks from address 0 to segment 0 plus its segments),
# the last device its new count, and their sum the new segment count.  Every result:
# every file's sha256 unchanged (dump.f2fs --cat), both fscks (ours; Debian's 1.15 when
# installed) clean, the size reported and in the superblock.  A fault at sampled writes
# of the first device (where every metadata write goes) leaves the old or the new size
# (the superblock being the grow's last write, the old one), clean, files intact, and
# running again finishes.  A first device too small to hold the
# new areas is refused, both images byte-identical.  Shrunk back, and a volume made with
# a 1100 MiB second device shrunk to 128 MiB: the metadata areas are fitted, the layout
# ending as mkfs makes it for 128 + 128 MiB (segment 0, main area, device list).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/move_lib.sh"
need_python

RESIZE=$OUR_BIN/resize.f2fs
FSCK=$OUR_BIN/fsck.f2fs
DUMP=$OUR_BIN/dump.f2fs
POP=$OUR_BIN/txn_populate
[ -x "$POP" ] || hard_error "txn_populate is not built: $POP"
[ -x "$RESIZE" ] || hard_error "resize.f2fs is not built: $RESIZE"
export SOURCE_DATE_EPOCH=1700000000
HAVE_REF=0
[ -x "$REF_FSCK" ] && HAVE_REF=1
REFNOTE=" and Debian's"
[ $HAVE_REF = 1 ] || REFNOTE=" (Debian's fsck.f2fs not installed: SKIP for it)"

# the superblock holds the devices' paths: the volume lives at these two, absolute
case $TEST_TMP in /*) ;; *) TEST_TMP=$(cd "$TEST_TMP" && pwd) ;; esac
A=$TEST_TMP/first.img
B=$TEST_TMP/second.img
rm -f "$A" "$B"
truncate -s 128M "$A" "$B"
"$MKFS" -f -q -O extra_attr,inode_checksum,lost_found -c "$B" "$A" >/dev/null 2>&1 ||
	hard_error "mkfs -c failed"
age_image "$A"
shas "$A" > "$TEST_TMP/before.sha" || hard_error "cannot read the files of the aged volume"
[ "$(wc -l < "$TEST_TMP/before.sha")" -gt 50 ] || hard_error "too few files on the aged volume"
cp --sparse=always "$A" "$TEST_TMP/a0.img"
cp --sparse=always "$B" "$TEST_TMP/b0.img"

# restore SIZE: the aged volume back at its paths, the second device SIZE long
restore()
{
	cp --sparse=always "$TEST_TMP/a0.img" "$A"
	cp --sparse=always "$TEST_TMP/b0.img" "$B"
	truncate -s "$1" "$B"
}

both_clean()
{
	local out
	out=$("$FSCK" -f -n "$A" 2>&1) || { printf 'our fsck:\n%s\n' "$out" | head -10; return 1; }
	[ $HAVE_REF = 0 ] && return 0
	ref_fsck "$A" > "$TEST_TMP/ref.out" 2>&1 || { head -30 "$TEST_TMP/ref.out"; return 1; }
}

sbf() { sb_fields "$A" | sed -n "s/^$1=//p"; }

# the device list: "segments of device 0, segments of device 1"
devsegs()
{
	"$DUMP" --json --superblock "$A" | python3 -c '
import json, sys
d = json.load(sys.stdin)["superblock"]["devices"]
print(" ".join(str(x["total_segments"]) for x in d))'
}

OLD_SEG0=$(sbf segment0_blkaddr)
OLD_MAIN=$(sbf main_blkaddr)
read -r D0 D1 < <(devsegs)
[ -n "$D1" ] || hard_error "mkfs -c made no device list"
# the second device starts where the first ends; it grows to 1280 MiB
START=$((OLD_SEG0 + D0 * 512))
OLD_BC=$(sbf block_count)
NEW_BC=$((START + 1280 * 256))
GAP=$(( (OLD_MAIN - OLD_SEG0) / 512 ))

# 1. grow the second device 10x
restore 1280M
if "$RESIZE" "$A" > "$TEST_TMP/out" 2>&1 && grep -q "metadata areas rebuilt" "$TEST_TMP/out"; then
	tap_ok "grow the second device 128 -> 1280 MiB: $(tr '\n' ' ' < "$TEST_TMP/out")"
else
	tap_fail "grow: $(cat "$TEST_TMP/out")"
fi
read -r N0 N1 < <(devsegs)
why=""
[ "$(sbf segment0_blkaddr)" = "$OLD_MAIN" ] || why="segment 0 at $(sbf segment0_blkaddr), not $OLD_MAIN"
[ -z "$why" ] && [ "$N0" != $((D0 - GAP)) ] && why="device 0 has $N0 segments, not $((D0 - GAP))"
[ -z "$why" ] && [ $((N0 + N1)) != "$(sbf segment_count)" ] &&
	why="devices' segments $N0 + $N1, segment_count $(sbf segment_count)"
[ -z "$why" ] && [ "$N1" -le "$D1" ] && why="device 1 has $N1 segments (was $D1)"
[ -z "$why" ] && [ $((START + N1 * 512)) -gt "$NEW_BC" ] && why="device 1's $N1 segments pass its end"
[ -z "$why" ] && [ "$(sbf segment_count_main)" -le 512 ] && why="main area $(sbf segment_count_main) segments"
[ -z "$why" ] && [ "$(sbf block_count)" != "$NEW_BC" ] && why="block_count $(sbf block_count), expected $NEW_BC"
[ -z "$why" ] && ! grep -q "(327680 blocks of the last device)" "$TEST_TMP/out" && why="size not reported"
[ -z "$why" ] && { shas "$A" > "$TEST_TMP/after.sha" || why="cannot read the files"; }
[ -z "$why" ] && ! cmp -s "$TEST_TMP/before.sha" "$TEST_TMP/after.sha" &&
	why="files changed: $(diff "$TEST_TMP/before.sha" "$TEST_TMP/after.sha" | head -4)"
[ -z "$why" ] && { why=$(both_clean) || true; }
if [ -z "$why" ]; then
	tap_ok "grown: segment 0 $OLD_SEG0 -> $OLD_MAIN, devices $D0+$D1 -> $N0+$N1 segments, $(sbf segment_count_main) main, files unchanged, fscks (ours$REFNOTE) clean"
else
	tap_fail "grown: $why"
fi
"$RESIZE" "$A" > "$TEST_TMP/out" 2>&1 && grep -q "nothing to do" "$TEST_TMP/out" &&
	tap_ok "again: $(cat "$TEST_TMP/out")" || tap_fail "again: $(cat "$TEST_TMP/out")"

# 2. a first device that cannot hold the new areas: a 32 MiB one (its main area has
# fewer sections than the new areas take) with a 96 MiB second one grown to 2 GiB
SA=$TEST_TMP/small_first.img
SB=$TEST_TMP/small_second.img
rm -f "$SA" "$SB"
truncate -s 32M "$SA"; truncate -s 96M "$SB"
"$MKFS" -f -q -c "$SB" "$SA" >/dev/null 2>&1 || hard_error "mkfs -c (small first) failed"
truncate -s 2G "$SB"
cp --sparse=always "$SA" "$TEST_TMP/sa0.img"; cp --sparse=always "$SB" "$TEST_TMP/sb0.img"
"$RESIZE" "$SA" > "$TEST_TMP/out" 2> "$TEST_TMP/err"; rc=$?
if [ $rc = 1 ] && [ "$(wc -l < "$TEST_TMP/err")" = 1 ] && grep -q "first device" "$TEST_TMP/err" &&
   cmp -s "$SA" "$TEST_TMP/sa0.img" && cmp -s "$SB" "$TEST_TMP/sb0.img"; then
	tap_ok "small first device refused: $(cat "$TEST_TMP/err")"
else
	tap_fail "small first device: exit $rc, stderr: $(head -3 "$TEST_TMP/err")"
fi

# 3. faults.  fault_run N: the grow with the N-th write of the first device failing;
# prints "old", "new" or "done", or why the interrupted volume is wrong (returns 1)
fault_run()
{
	local n=$1 rc bc out
	restore 1280M
	ZF2FS_FAULT_WRITES=$n "$RESIZE" "$A" > "$TEST_TMP/fout" 2>&1; rc=$?
	[ $rc = 0 ] && { echo done; return 0; }
	bc=$(sbf block_count)
	out=$("$FSCK" -f -n "$A" 2>&1)
	# allowed half way, as in resize.sh: the free segment count and the pack not in use
	if [ $? != 0 ] && printf '%s\n' "$out" | grep '^\[0x' | grep -qv -e '^\[0x070006\]' -e '^\[0x020001\]'; then
		echo "write $n: our fsck: $(printf '%s\n' "$out" | head -3)"; return 1
	fi
	if [ $((n % 3)) = 0 ]; then
		shas "$A" > "$TEST_TMP/fsha" && cmp -s "$TEST_TMP/before.sha" "$TEST_TMP/fsha" ||
			{ echo "write $n: files changed"; return 1; }
	fi
	if [ "$bc" = "$OLD_BC" ]; then echo old; elif [ "$bc" = "$NEW_BC" ]; then echo new
	else echo "write $n: block_count $bc"; return 1; fi
}

POINTS=25
[ -n "${ASAN_OPTIONS:-}" ] && POINTS=10
restore 1280M
W=$("$RESIZE" -d 3 "$A" 2>&1 | sed -n 's/.* \([0-9]*\) writes$/\1/p')
if [ -z "$W" ] || [ "$W" -le 0 ]; then
	tap_fail "faults: no write count"
else
	step=$(( W / POINTS > 0 ? W / POINTS : 1 ))
	olds=0 news=0 runs=0 fin=0 why="" r=""
	for n in $( (seq 1 "$step" "$W"; seq $((W > 12 ? W - 11 : 1)) $((W + 1))) | sort -nu); do
		r=$(fault_run "$n") || { why=$r; break; }
		runs=$((runs + 1))
		[ "$r" = done ] && break
		[ "$r" = old ] && olds=$((olds + 1))
		[ "$r" = new ] && news=$((news + 1))
		if [ $((runs % 3)) = 1 ]; then
			"$RESIZE" "$A" > "$TEST_TMP/fout" 2>&1 && [ "$(sbf block_count)" = "$NEW_BC" ] &&
			both_clean > /dev/null 2>&1 ||
				{ why="write $n: running again did not finish: $(cat "$TEST_TMP/fout")"; break; }
			fin=$((fin + 1))
		fi
	done
	if [ -n "$why" ]; then tap_fail "faults: $why"
	elif [ $olds = 0 ] || [ "$r" != done ]; then
		tap_fail "faults did not cover the grow ($olds old, $news new, last: $r)"
	else tap_ok "faults, $W writes of the first device: $((runs - 1)) faults (every ${step}th and the last 12): $olds left the old size, $news the new, all clean with files unchanged; $fin finished by running again, both fscks clean"
	fi
fi
# as_mkfs NAME: the last resize's output ($TEST_TMP/out) says the areas were fitted, and
# segment 0, the main area, the device list and the block count are mkfs's for 128 +
# 128 MiB; every file unchanged, both fscks clean
as_mkfs()
{
	local why="" n0 n1
	read -r n0 n1 < <(devsegs)
	grep -q "^metadata areas fitted" "$TEST_TMP/out" || why="areas not fitted: $(tr '\n' ' ' < "$TEST_TMP/out")"
	[ -z "$why" ] && [ "$(sbf segment0_blkaddr) $(sbf main_blkaddr) $n0 $n1" != "$OLD_SEG0 $OLD_MAIN $D0 $D1" ] &&
		why="segment 0 $(sbf segment0_blkaddr), main $(sbf main_blkaddr), devices $n0+$n1; mkfs makes $OLD_SEG0, $OLD_MAIN, $D0+$D1"
	[ -z "$why" ] && [ "$(sbf block_count)" != "$OLD_BC" ] && why="block_count $(sbf block_count), expected $OLD_BC"
	[ -z "$why" ] && { shas "$A" > "$TEST_TMP/after.sha" || why="cannot read the files"; }
	[ -z "$why" ] && ! cmp -s "$TEST_TMP/before.sha" "$TEST_TMP/after.sha" &&
		why="files changed: $(diff "$TEST_TMP/before.sha" "$TEST_TMP/after.sha" | head -4)"
	[ -z "$why" ] && { why=$(both_clean) || true; }
	if [ -z "$why" ]; then
		tap_ok "$1: segment 0 $OLD_SEG0, main area $OLD_MAIN, devices $n0+$n1 segments, as mkfs makes them for 128 + 128 MiB; files unchanged, fscks (ours$REFNOTE) clean: $(tr '\n' ' ' < "$TEST_TMP/out")"
	else
		tap_fail "$1: $why"
	fi
}

# 4. back down: the grown volume's second device shrunk to 128 MiB again.  The areas the
# grow rebuilt are larger than 256 MiB needs, and the old ones' space in front of
# segment 0 holds areas of the size mkfs gives: they go back there in one move, and the
# layout is the one mkfs made (segment 0, main area, device list).
"$RESIZE" -t $((128 * 2048)) "$A" > "$TEST_TMP/out" 2>&1 || tap_fail "shrink back: $(cat "$TEST_TMP/out")"
as_mkfs "shrunk back to 128 + 128 MiB"

# 5. a volume made with a 1100 MiB second device, its second device shrunk to 128 MiB:
# the areas move twice (first onto the main area's first sections, on the first device),
# ending as mkfs makes them for 128 + 128 MiB
rm -f "$A" "$B"
truncate -s 128M "$A"; truncate -s 1100M "$B"
"$MKFS" -f -q -O extra_attr,inode_checksum,lost_found -c "$B" "$A" >/dev/null 2>&1 ||
	hard_error "mkfs -c (1100 MiB second) failed"
age_image "$A"
shas "$A" > "$TEST_TMP/before.sha" || hard_error "cannot read the files of the 128 + 1100 MiB volume"
[ "$(sbf main_blkaddr)" -gt "$OLD_MAIN" ] || hard_error "the 128 + 1100 MiB volume's areas are not larger"
"$RESIZE" -t $((128 * 2048)) "$A" > "$TEST_TMP/out" 2>&1 && grep -q "^shrunk" "$TEST_TMP/out" ||
	tap_fail "shrink 1100 -> 128 MiB: $(cat "$TEST_TMP/out")"
as_mkfs "second device 1100 -> 128 MiB, the areas fitted"
tap_summary
