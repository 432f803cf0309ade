#!/bin/bash
# One repair that rewrites more node blocks than a segment holds: 600 inodes with a wrong
# link count, each fixed by rewriting the inode out of place.  The library's commit moves
# its warm node log on to another free section when the first is full (fsck used to
# refuse such a run: "too many blocks to rewrite in one run").  A fault at a sample of the
# repair's writes, across the segment boundary, must leave the volume checking exactly as
# before; the completed repair is clean for both fscks.
. "$(dirname "$0")/lib.sh"
need_ref_tools

export ZF2FS_NO_PROGRESS=1
POP=$OUR_BIN/populate
INJECT=${ZF2FS_INJECT:-$OUR_BIN/inject.f2fs}
[ -x "$POP" ] || hard_error "$POP is not built"
[ -x "$INJECT" ] || hard_error "$INJECT is not built"
N=600
orig=$(new_image many.orig 256M)
"$MKFS" -f -q "$orig" > /dev/null 2>&1 || hard_error "mkfs.f2fs failed"
"$POP" "$orig" 1200 1000 > /dev/null 2>&1 || hard_error "populate failed"
first=$("$INJECT" --lookup /d00000/f0000 "$orig")
last=$("$INJECT" --lookup "/d00000/f$(printf %04d $((N - 1)))" "$orig")
# populate gives the files of a directory consecutive inode numbers
[ $((last - first)) -eq $((N - 1)) ] || hard_error "inodes $first..$last are not $N in a row"
for ino in $(seq "$first" "$last"); do
	"$INJECT" --node --nid "$ino" --mb i_links --val 3 "$orig" > /dev/null ||
		hard_error "inject i_links of $ino failed"
done

"$FSCK" -f -n "$orig" > "$TEST_TMP/before" 2>&1
before_rc=$?
if [ $before_rc -eq 4 ] && [ "$(grep -c '^\[0x060001\] inode .*: link count is 3, counted 1' \
	"$TEST_TMP/before")" -eq $N ]; then
	tap_ok "fsck -n: $N link counts wrong"
else
	tap_fail "fsck -n: exit $before_rc, $(grep -c '^\[0x060001\]' "$TEST_TMP/before") link counts"
fi
sed -e "s|$orig|IMG|g" "$TEST_TMP/before" > "$TEST_TMP/before.n"

# the node log's first segment is full after 512 blocks: faults around there and spread
# over the rest until a run completes
interrupted=0 completed=0 bad=
for n in 1 2 100 300 510 511 512 513 514 515 $(seq 550 23 1200); do
	cp --sparse=always "$orig" "$TEST_TMP/t.img"
	ZF2FS_FAULT_WRITES=$n "$FSCK" -y "$TEST_TMP/t.img" > "$TEST_TMP/run" 2>&1
	rc=$?
	"$FSCK" -f -n "$TEST_TMP/t.img" > "$TEST_TMP/after" 2>&1
	after_rc=$?
	if [ $((rc & 8)) -ne 0 ]; then
		interrupted=$((interrupted + 1))
		# a half-written inactive pack is noted (0x020001) and harmless, as in fsck_crash.sh
		sed -i -e "s|$TEST_TMP/t.img|IMG|g" -e '/^\[0x020001\]/d' "$TEST_TMP/after"
		if [ $after_rc -ne $before_rc ] || ! cmp -s "$TEST_TMP/before.n" "$TEST_TMP/after"; then
			bad="write $n interrupted: the image no longer checks as before (exit $after_rc)"
			diff "$TEST_TMP/before.n" "$TEST_TMP/after" | head -5
			break
		fi
	else
		completed=$n
		break
	fi
done
if [ -n "$bad" ]; then
	tap_fail "$bad"
elif [ "$completed" -eq 0 ] || [ $interrupted -lt 10 ]; then
	tap_fail "$interrupted interrupted runs, completed at write $completed"
else
	tap_ok "$interrupted interrupted repairs (writes 1 to 515 and on) left the volume as it was"
fi

if [ "$completed" -ne 0 ] && [ $rc -eq 1 ] &&
   grep -q "; $N problems, $N fixed$" "$TEST_TMP/run"; then
	tap_ok "fsck -y: $N problems fixed in one run (exit 1)"
else
	tap_fail "fsck -y: exit $rc: $(tail -1 "$TEST_TMP/run")"
fi
if [ $after_rc -eq 0 ] && grep -q "; 0 problems, 0 fixed$" "$TEST_TMP/after"; then
	tap_ok "our fsck -f -n after the repair: clean"
else
	tap_fail "our fsck -f -n after the repair: exit $after_rc: $(tail -1 "$TEST_TMP/after")"
fi
if ref_fsck "$TEST_TMP/t.img" > "$TEST_TMP/ref.out" 2>&1; then
	tap_ok "reference fsck after the repair: clean"
else
	tap_fail "reference fsck after the repair: $(tail -1 "$TEST_TMP/ref.out")"
fi
links=$("$INJECT" --node --nid "$last" --mb i_links --get "$TEST_TMP/t.img")
if [ "$links" = 1 ]; then
	tap_ok "inode $last: link count 1 again"
else
	tap_fail "inode $last: link count $links"
fi
tap_summary
