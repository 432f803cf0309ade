#!/bin/bash
# --progress-fd and --progress (support/progress.h) of fsck.f2fs, sload.f2fs, defrag.f2fs,
# gc.f2fs collect and resize.f2fs, on small volumes made by our mkfs and filled by our
# sload and the transaction (txn_populate):
#  1. every line on the descriptor is "PASS CURRENT TOTAL DEVICE" as e2fsck -C FD writes
#     it: decimal numbers, TOTAL above 0, CURRENT at most TOTAL and never going back within
#     a pass, passes in increasing order, each opening with CURRENT 0 and ending with
#     CURRENT == TOTAL, nothing after that line; at most 1000 lines between (counted, not
#     timed); a device name with a space stays one word (\040);
#  2. fsck: the eight passes; pass 4 counts the inodes, its last line's TOTAL the inodes
#     the summary line reports; its standard output, standard error and exit status are
#     those of the same run without --progress-fd, also when the reader of the lines went
#     away (a pipe without a reader: the lines stop, the check goes on);
#  3. a descriptor not open, or open only for reading: a usage error (exit 16) from every
#     tool, and the image byte-identical;
#  4. the bar: under script(1) (a terminal) with --progress it is drawn and its line ended;
#     without --progress, or with standard error not a terminal, there is none.

. "$(dirname "$0")/lib.sh"

SLOAD=$OUR_BIN/sload.f2fs
DEFRAG=$OUR_BIN/defrag.f2fs
GC=$OUR_BIN/gc.f2fs
RESIZE=$OUR_BIN/resize.f2fs
POP=$OUR_BIN/txn_populate
[ -x "$POP" ] || hard_error "txn_populate is not built: $POP"
export SOURCE_DATE_EPOCH=1700000000
unset ZF2FS_NO_PROGRESS ZF2FS_PROGRESS_DELAY_MS
T=$TEST_TMP

# check_lines FILE: print the passes FILE reports ("1 2 3"), or "BAD: why" lines
check_lines()
{
	awk '
	function bad(why) { print "BAD: " why ": " $0; err = 1 }
	NF != 4 || $1 !~ /^[1-9][0-9]*$/ || $2 !~ /^(0|[1-9][0-9]*)$/ ||
	$3 !~ /^[1-9][0-9]*$/ { bad("not PASS CURRENT TOTAL DEVICE"); next }
	$1 + 0 != pass {
		if (pass && !done) bad("pass " pass " has no line with CURRENT == TOTAL")
		if ($1 + 0 < pass) bad("pass number going back")
		if ($2 != 0) bad("a pass opening without CURRENT 0")
		pass = $1 + 0; cur = 0; done = 0; lines = 0; passes = passes " " pass
	}
	$2 + 0 > $3 + 0 { bad("CURRENT above TOTAL") }
	$2 + 0 < cur { bad("CURRENT going back") }
	done { bad("a line after the last of its pass") }
	{ cur = $2 + 0; done = ($2 == $3); if (++lines > 1002) bad("more than 1002 lines") }
	END {
		if (pass && !done) { $0 = ""; bad("pass " pass " has no line with CURRENT == TOTAL") }
		if (!err) print substr(passes, 2)
	}' "$1"
}

# expect_lines NAME FILE PASSES: FILE is well formed and reports PASSES
expect_lines()
{
	local got
	got=$(check_lines "$2")
	if [ "$got" = "$3" ]; then
		tap_ok "$1: lines well formed, passes $3 ($(wc -l < "$2") lines)"
	else
		tap_fail "$1: passes '$3' expected, got: $(echo "$got" | head -3)"
	fi
}

# refused NAME CMD...: CMD (run with fd 5 open for reading only, fd 9 closed) exits 16
# with one usage error and leaves $IMG byte-identical
refused()
{
	local name=$1 rc
	shift
	cp "$IMG" "$T/before.img"
	"$@" 5< /dev/null 9>&- > "$T/ref.out" 2> "$T/ref.err"
	rc=$?
	if [ $rc = 16 ] && cmp -s "$IMG" "$T/before.img" &&
	   grep -q -- '--progress-fd [59]: not' "$T/ref.err"; then
		tap_ok "$name: refused (exit 16), image unchanged: $(head -1 "$T/ref.err")"
	else
		tap_fail "$name: exit $rc (16 expected), image $(cmp -s "$IMG" "$T/before.img" &&
			echo unchanged || echo CHANGED): $(head -1 "$T/ref.err")"
	fi
}

# the volume: 128 MiB, three directories of 700 files each and one of 20, loaded by our
# sload
IMG=$(new_image "vol one.img" 128M)
"$MKFS" -f -q "$IMG" > /dev/null 2>&1 || hard_error "mkfs failed"
mkdir -p "$T/tree/a" "$T/tree/b" "$T/tree/c" "$T/tree/few"
for d in a b c; do
	(cd "$T/tree/$d" && for i in $(seq 1 700); do : > "f$i"; done)
done
for i in $(seq 1 20); do echo "$i" > "$T/tree/few/f$i"; done
head -c 300000 /dev/urandom > "$T/tree/a/big"

# 1. sload (one pass; the device name with a space)
"$SLOAD" -f "$T/tree" --progress-fd 3 "$IMG" 3> "$T/sload.p" > /dev/null ||
	hard_error "sload failed"
expect_lines sload "$T/sload.p" "1"
# it counts what it copies: a unit per entry at the least (2125 of them), lines between
last=$(tail -1 "$T/sload.p")
if [ "$(echo "$last" | cut -d' ' -f3)" -gt 2125 ] && [ "$(wc -l < "$T/sload.p")" -gt 100 ]; then
	tap_ok "sload: counts the entries it copies ($(wc -l < "$T/sload.p") lines, last $last)"
else
	tap_fail "sload: $(wc -l < "$T/sload.p") lines, last $last"
fi
if awk '$4 != "vol\\040one.img" && $4 !~ /\/vol\\040one\.img$/ { exit 1 }' "$T/sload.p"; then
	tap_ok "sload: the device with a space is one word (vol\\040one.img)"
else
	tap_fail "sload: device field: $(head -1 "$T/sload.p")"
fi

# 2. fsck: eight passes, pass 4 counting inodes; the rest of its output unchanged
"$FSCK" -f -n --progress-fd 3 "$IMG" 3> "$T/fsck.p" > "$T/fsck1.out" 2> "$T/fsck1.err"
rc1=$?
"$FSCK" -f -n "$IMG" > "$T/fsck2.out" 2> "$T/fsck2.err"
rc2=$?
expect_lines fsck "$T/fsck.p" "1 2 3 4 5 6 7 8"
if [ $rc1 = $rc2 ] && [ $rc1 = 0 ] && cmp -s "$T/fsck1.out" "$T/fsck2.out" &&
   cmp -s "$T/fsck1.err" "$T/fsck2.err"; then
	tap_ok "fsck: stdout, stderr and exit status ($rc1) the same with and without --progress-fd"
else
	tap_fail "fsck: with --progress-fd exit $rc1, without $rc2; $(diff "$T/fsck1.out" "$T/fsck2.out" | head -3)"
fi
inodes=$(sed -n 's/.*: \([0-9]*\) inodes (.*/\1/p' "$T/fsck2.out")
last4=$(awk '$1 == 4' "$T/fsck.p" | tail -1)
n4=$(awk '$1 == 4' "$T/fsck.p" | wc -l)
if [ -n "$inodes" ] && [ "$inodes" -gt 2000 ] && [ "${last4% *}" = "4 $inodes $inodes" ] &&
   [ "$n4" -gt 100 ]; then
	tap_ok "fsck: pass 4 counts the $inodes inodes in $n4 lines"
else
	tap_fail "fsck: pass 4 ends with '$last4' in $n4 lines, the summary says '$inodes' inodes"
fi
# a reader gone away: a pipe whose one reader closed
mkfifo "$T/fifo"
exec 4<> "$T/fifo"
exec 3> "$T/fifo"
exec 4<&-
"$FSCK" -f -n --progress-fd 3 "$IMG" > "$T/fsck3.out" 2> "$T/fsck3.err"
rc3=$?
exec 3>&-
if [ $rc3 = 0 ] && cmp -s "$T/fsck3.out" "$T/fsck2.out" && cmp -s "$T/fsck3.err" "$T/fsck2.err"; then
	tap_ok "fsck: a pipe without a reader stops the lines, not the check"
else
	tap_fail "fsck: with a pipe without a reader: exit $rc3, $(head -2 "$T/fsck3.err")"
fi

# 3. defrag: the main area's first 1024 blocks in batches (its blocks), a directory (its
# files)
"$DEFRAG" -l 1024 --batch-blocks 64 --progress-fd 3 "$IMG" 3> "$T/defrag.p" > /dev/null \
	2> "$T/defrag.err" ||
	tap_fail "defrag range: $(head -1 "$T/defrag.err")"
expect_lines "defrag range" "$T/defrag.p" "1"
"$DEFRAG" --file /few --progress-fd 3 "$IMG" 3> "$T/defrag_dir.p" > /dev/null 2> "$T/defrag.err" ||
	tap_fail "defrag --file: $(head -1 "$T/defrag.err")"
expect_lines "defrag --file DIR" "$T/defrag_dir.p" "1"
[ "$(tail -1 "$T/defrag_dir.p" | cut -d' ' -f2-3)" = "20 20" ] &&
	tap_ok "defrag --file DIR: counts its 20 files" ||
	tap_fail "defrag --file DIR: last line $(tail -1 "$T/defrag_dir.p")"

# 4. gc collect on a volume with partly valid sections: two rounds of files made in
# sections of their own, every other one removed
GIMG=$(new_image gc.img 64M)
"$MKFS" -f -q "$GIMG" > /dev/null 2>&1 || hard_error "mkfs failed"
head -c 8192 /dev/urandom > "$T/8k"
for r in 0 1; do
	items=("r$r/")
	for k in $(seq 0 29); do items+=("r$r/f$k=$T/8k"); done
	ZF2FS_TXN_FRESH_LOGS=1 "$POP" "$GIMG" "${items[@]}" || hard_error "populate failed"
done
items=()
for r in 0 1; do for k in $(seq 0 2 29); do items+=("-r$r/f$k"); done; done
ZF2FS_TXN_FRESH_LOGS=1 "$POP" "$GIMG" "${items[@]}" || hard_error "removals failed"
"$GC" collect "$GIMG" -n 3 --batch-blocks 16 --progress-fd 3 3> "$T/gc.p" > /dev/null \
	2> "$T/gc.err" || tap_fail "gc collect: $(head -1 "$T/gc.err")"
expect_lines "gc collect" "$T/gc.p" "1"

# 5. resize: a grow (no section emptied: its start and end), a shrink (the sections past
# the cut)
cp "$GIMG" "$T/grow.img"
truncate -s 96M "$T/grow.img"
"$RESIZE" --progress-fd 3 "$T/grow.img" 3> "$T/resize.p" > /dev/null 2> "$T/resize.err" ||
	tap_fail "resize: $(head -1 "$T/resize.err")"
expect_lines "resize, a grow" "$T/resize.p" "1"
# a shrink empties the sections past the cut: one pass counting them
cp "$IMG" "$T/shrink.img"
"$RESIZE" -t $((100 * 2048)) --progress-fd 3 "$T/shrink.img" 3> "$T/shrink.p" > /dev/null \
	2> "$T/resize.err" || tap_fail "resize, a shrink: $(head -1 "$T/resize.err")"
expect_lines "resize, a shrink" "$T/shrink.p" "1"
last=$(tail -1 "$T/shrink.p")
[ "${last%% /*}" != "1 1 1" ] && [ "$(echo "$last" | cut -d' ' -f2)" -gt 1 ] &&
	tap_ok "resize, a shrink: counts the sections past the cut ($last)" ||
	tap_fail "resize, a shrink: last line $last"

# 6. bad descriptors: refused before the volume is touched
refused "fsck, fd 9 not open" "$FSCK" -f -y --progress-fd 9 "$IMG"
refused "fsck, fd 5 read-only" "$FSCK" -f -y --progress-fd 5 "$IMG"
refused "sload" "$SLOAD" -f "$T/tree" --progress-fd 9 "$IMG"
refused "defrag" "$DEFRAG" -l 1024 --progress-fd 5 "$IMG"
refused "gc collect" "$GC" collect "$IMG" --progress-fd 9
refused "resize" "$RESIZE" -t 200000 --progress-fd 5 "$IMG"

# 7. the bar, on a terminal (script(1) gives one); ZF2FS_PROGRESS_DELAY_MS=0 draws it
# without waiting a second
if ! command -v script > /dev/null 2>&1 || ! script -qec true /dev/null > /dev/null 2>&1; then
	echo "SKIP: the bar: no script(1) (util-linux) to give fsck a terminal"
else
	ZF2FS_PROGRESS_DELAY_MS=0 script -qec "'$FSCK' -f -n --progress '$IMG'" /dev/null \
		< /dev/null > "$T/bar.tty" 2>&1
	ZF2FS_PROGRESS_DELAY_MS=0 script -qec "'$FSCK' -f -n '$IMG'" /dev/null \
		< /dev/null > "$T/nobar.tty" 2>&1
	ZF2FS_PROGRESS_DELAY_MS=0 script -qec "'$FSCK' -f -n --progress '$IMG' 2>'$T/bar.err'" \
		/dev/null < /dev/null > /dev/null 2>&1
	if grep -q 'pass 8/8, zone write pointers \[=*\] 100\.0%' "$T/bar.tty" &&
	   tr '\r' '\n' < "$T/bar.tty" | grep -qF "$IMG: 2"; then
		tap_ok "bar: drawn with --progress on a terminal, its line ended before the summary"
	else
		tap_fail "bar: not drawn, or not ended: $(tr '\r' '\n' < "$T/bar.tty" | tail -3)"
	fi
	if ! grep -q '%' "$T/nobar.tty" && grep -q 'inodes' "$T/nobar.tty" && [ ! -s "$T/bar.err" ]; then
		tap_ok "bar: none without --progress, none with standard error not a terminal"
	else
		tap_fail "bar: drawn where it must not be: $(head -c 200 "$T/nobar.tty" "$T/bar.err")"
	fi
fi

tap_summary
