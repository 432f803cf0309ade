#!/bin/bash
# defrag.f2fs (f2fs-tools' -s/-l/-t/-i) on an aged image: our mkfs, files created by
# transactions and every other one removed (age_image, move_lib.sh).  Then:
#  - a range of used segments moved to the right of a target: the range holds no valid
#    block afterwards, every segment that gained blocks lies at or after the target
#    (dump.f2fs --segments), every file's sha256 unchanged (dump.f2fs --cat), both fscks
#    (ours, Debian's 1.15 when installed) clean;
#  - the same with -i (at or below a target above the range);
#  - refusals (range or target outside the main area, target inside the range, a window
#    without room, an unclean volume, --file of a directory or missing path) exit 1 with one line and leave the image
#    byte-identical;
#  - a fault at every write of a small move leaves the old volume or the new one, both
#    fscks clean;
#  - --file: populated.img's fragmented /big.bin ends in one extent (dump.f2fs --frag),
#    files unchanged, fscks clean, the same fault check; a contiguous file is left alone.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/move_lib.sh"
need_python

DEFRAG=$top_builddir/tools/defrag.f2fs
FSCK=$top_builddir/fsck/fsck.f2fs
DUMP=$top_builddir/tools/dump.f2fs
POP=$top_builddir/tests/images/txn_populate
BASE=$top_srcdir/tests/images/base
[ -x "$POP" ] || hard_error "txn_populate is not built: $POP"
[ -x "$DEFRAG" ] || hard_error "defrag.f2fs is not built: $DEFRAG"
export SOURCE_DATE_EPOCH=1700000000
HAVE_REF=0
[ -x "$REF_FSCK" ] && HAVE_REF=1

IMG=$(new_image aged.img 256M)
"$MKFS" -f -q -O extra_attr,inode_checksum,lost_found "$IMG" >/dev/null 2>&1 ||
	hard_error "mkfs failed"
age_image "$IMG"
"$FSCK" -f -n "$IMG" >/dev/null 2>&1 || hard_error "the aged image is not clean"

# both_clean IMG: our fsck and (when installed) Debian's find nothing; prints why not
both_clean()
{
	local out
	out=$("$FSCK" -f -n "$1" 2>&1) || { printf 'our fsck:\n%s\n' "$out" | head -10; return 1; }
	[ $HAVE_REF = 0 ] && return 0
	REF_FSCK_ALLOW="${2:-^\$}" ref_fsck "$1" > "$TEST_TMP/ref.out" 2>&1 ||
		{ head -20 "$TEST_TMP/ref.out"; return 1; }
}
REFNOTE=" and Debian's"
[ $HAVE_REF = 1 ] || REFNOTE=" (Debian's fsck.f2fs not installed: SKIP for it)"

segs() { "$DUMP" --json --segments "$1" > "$2"; }

shas "$IMG" > "$TEST_TMP/before.sha" || hard_error "cannot read the files of the aged image"
[ "$(wc -l < "$TEST_TMP/before.sha")" -gt 50 ] || hard_error "too few files on the aged image"
segs "$IMG" "$TEST_TMP/old.json"

# the range: the used segments that hold no current log, first to last (whole segments)
read -r MAIN FIRST LAST NSEGS < <(python3 - "$TEST_TMP/old.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))['segments']
used = [e['segno'] for e in s['list'] if e['valid_blocks'] and e['state'] != 'current']
print(s['main_blkaddr'], min(used), max(used), s['segment_count'])
EOF
)
[ -n "$LAST" ] && [ "$LAST" -gt "$FIRST" ] || hard_error "the aged image has no range of used segments"
START=$((MAIN + FIRST * 512))
LEN=$(( (LAST - FIRST + 1) * 512 ))

# check_moved OLD.json NEW.json START LEN TARGET right|left: the range is empty, the
# segments that gained blocks lie on the target's side
check_moved()
{
	python3 - "$@" <<'EOF'
import json, sys
old = {e['segno']: e for e in json.load(open(sys.argv[1]))['segments']['list']}
s = json.load(open(sys.argv[2]))['segments']
start, length, target, side = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
main = s['main_blkaddr']
bad = []
gained = 0
for e in s['list']:
    a = main + e['segno'] * 512
    if start <= a < start + length and e['valid_blocks']:
        bad.append('segment %d in the range holds %d valid blocks' % (e['segno'], e['valid_blocks']))
    if e['valid_blocks'] > old[e['segno']]['valid_blocks'] and not (start <= a < start + length):
        gained += e['valid_blocks'] - old[e['segno']]['valid_blocks']
        if (side == 'right' and a < target) or (side == 'left' and a + 511 > target):
            bad.append('segment %d (block %d) gained blocks on the wrong side of %d' % (e['segno'], a, target))
for b in bad[:5]:
    print('    ' + b)
print('    %d blocks gained' % gained)
sys.exit(1 if bad or not gained else 0)
EOF
}

# 1. to the right of a target past the range (its section rounded up)
TARGET=$((MAIN + (LAST + 5) * 512 + 100))
R=$TEST_TMP/right.img
cp "$IMG" "$R"
if "$DEFRAG" -s $START -l $LEN -t $TARGET "$R" > "$TEST_TMP/right.out" 2> "$TEST_TMP/right.err"; then
	tap_ok "defrag -s $START -l $LEN -t $TARGET: $(cat "$TEST_TMP/right.out")"
else
	tap_fail "defrag -s $START -l $LEN -t $TARGET failed:"; sed 's/^/    | /' "$TEST_TMP/right.err"
fi
segs "$R" "$TEST_TMP/right.json"
if check_moved "$TEST_TMP/old.json" "$TEST_TMP/right.json" $START $LEN $TARGET right > "$TEST_TMP/chk"; then
	tap_ok "range empty, moved blocks at or after the target ($(tail -1 "$TEST_TMP/chk" | sed 's/^ *//'))"
else
	tap_fail "where the blocks went:"; cat "$TEST_TMP/chk"
fi
if shas "$R" | cmp -s - "$TEST_TMP/before.sha"; then
	tap_ok "every file's sha256 unchanged ($(wc -l < "$TEST_TMP/before.sha") files)"
else
	tap_fail "file contents changed"
fi
if out=$(both_clean "$R"); then tap_ok "our fsck$REFNOTE: clean"; else tap_fail "fsck:"; echo "$out"; fi

# 2. -i: at or below a target above the range
TARGET=$((MAIN + (NSEGS - 6) * 512 - 1))
L=$TEST_TMP/left.img
cp "$IMG" "$L"
if "$DEFRAG" -s $START -l $LEN -t $TARGET -i "$L" > "$TEST_TMP/left.out" 2> "$TEST_TMP/left.err" &&
   segs "$L" "$TEST_TMP/left.json" &&
   check_moved "$TEST_TMP/old.json" "$TEST_TMP/left.json" $START $LEN $TARGET left > "$TEST_TMP/chk" &&
   shas "$L" | cmp -s - "$TEST_TMP/before.sha" && out=$(both_clean "$L"); then
	tap_ok "defrag -i -t $TARGET: range empty, blocks at or below the target ($(tail -1 "$TEST_TMP/chk" | sed 's/^ *//')), files unchanged, fscks clean"
else
	tap_fail "defrag -i:"; sed 's/^/    | /' "$TEST_TMP/left.err"; cat "$TEST_TMP/chk"; echo "${out:-}"
fi

# 3. refusals: exit 1, one line, nothing written
refused()   # NAME IMAGE ARGS...: the refusal of ARGS on a copy of IMAGE
{
	local name=$1 src=$2 rc
	shift 2
	cp "$src" "$TEST_TMP/ref.img"
	"$DEFRAG" "$@" "$TEST_TMP/ref.img" > /dev/null 2> "$TEST_TMP/ref.err"
	rc=$?
	if [ $rc = 1 ] && [ "$(wc -l < "$TEST_TMP/ref.err")" = 1 ] && cmp -s "$src" "$TEST_TMP/ref.img"; then
		tap_ok "refused, image unchanged: $name: $(cat "$TEST_TMP/ref.err")"
	else
		tap_fail "$name: exit $rc, image $(cmp -s "$src" "$TEST_TMP/ref.img" && echo unchanged || echo CHANGED)"
		sed 's/^/    | /' "$TEST_TMP/ref.err"
	fi
}
refused "range below the main area" "$IMG" -s 0 -l 512 -t $((MAIN + 40 * 512))
refused "range past the main area" "$IMG" -s $((MAIN + NSEGS * 512 - 10)) -l 512
refused "target inside the range" "$IMG" -s $START -l $LEN -t $((START + 1))
refused "target outside the main area" "$IMG" -s $START -l $LEN -t $((MAIN + NSEGS * 512 + 7))
refused "no whole section in the window" "$IMG" -s $START -l $LEN -t $((START + LEN + 1)) -i
refused "a window of one section" "$IMG" -s $START -l $LEN -t $((MAIN + (NSEGS - 1) * 512))
refused "--file of a missing path" "$IMG" --file /age0/no-such-file
refused "--file of a directory" "$IMG" --file /age0
UNC=$TEST_TMP/unclean.img
xz -dc "$BASE/unclean.img.xz" > "$UNC" || hard_error "cannot unpack unclean.img"
refused "unclean volume" "$UNC" -l 512

# fault_run N IMAGE SHAFILE ARGS...: defrag ARGS on a copy of IMAGE with the N-th write
# failing.  The run must leave the old volume or the new one (dump.f2fs --segments equal
# to old.segs or new.segs), both fscks clean, the files of SHAFILE unchanged (all of them,
# or /big.bin's sha alone).  Sets RUN_RC (defrag's exit) and RUN_STATE (old/new), or
# prints why and returns 1.
fault_run()
{
	local n=$1 img=$2 shafile=$3 out
	shift 3
	cp "$img" "$TEST_TMP/t.img"
	ZF2FS_FAULT_WRITES=$n "$DEFRAG" "$@" "$TEST_TMP/t.img" > "$TEST_TMP/run" 2>&1
	RUN_RC=$?
	# a pack begun but not finished is invalid (no CRC): the old checkpoint is taken
	if ! out=$(both_clean "$TEST_TMP/t.img" $'^\tInvalid CP CRC offset: '); then
		echo "write $n failed: $out"
		return 1
	fi
	"$DUMP" --segments "$TEST_TMP/t.img" > "$TEST_TMP/t.segs"
	if cmp -s "$TEST_TMP/t.segs" "$TEST_TMP/old.segs"; then
		RUN_STATE=old
	elif cmp -s "$TEST_TMP/t.segs" "$TEST_TMP/new.segs"; then
		RUN_STATE=new
	else
		echo "write $n failed (exit $RUN_RC): neither the old segment table nor the new one"
		diff "$TEST_TMP/old.segs" "$TEST_TMP/t.segs" | head -5
		return 1
	fi
	if [ "$(wc -l < "$shafile")" = 1 ]; then
		"$DUMP" --cat /big.bin "$TEST_TMP/t.img" | sha256sum | cmp -s - "$shafile"
	else
		shas "$TEST_TMP/t.img" | cmp -s - "$shafile"
	fi || { echo "write $n failed: file contents changed"; return 1; }
}

# fault_loop STEP NAME IMAGE SHAFILE ARGS...: the commit's write count W (defrag -d 3),
# then fault_run for N = 1, 1 + STEP, ... up to W and for each of the last 40 writes
# (the tables, the SSA and the checkpoint pack come last): every one fails and leaves the
# old volume or the new one; with N = W + 1 the run completes with the new volume.
fault_loop()
{
	local step=$1 name=$2 img=$3 shafile=$4 n w olds=0 news=0 runs=0 why=
	shift 4
	cp "$img" "$TEST_TMP/new.img"
	"$DEFRAG" -d 3 "$@" "$TEST_TMP/new.img" > "$TEST_TMP/new.out" 2>&1 ||
		hard_error "$name failed: $(cat "$TEST_TMP/new.out")"
	w=$(sed -n 's/.*the commits\? made \([0-9]*\) writes.*/\1/p' "$TEST_TMP/new.out")
	[ -n "$w" ] && [ "$w" -gt 2 ] || hard_error "$name: no write count in: $(cat "$TEST_TMP/new.out")"
	"$DUMP" --segments "$img" > "$TEST_TMP/old.segs"
	"$DUMP" --segments "$TEST_TMP/new.img" > "$TEST_TMP/new.segs"
	cmp -s "$TEST_TMP/old.segs" "$TEST_TMP/new.segs" && hard_error "$name changed no segment"
	for n in $( (seq 1 "$step" "$w"; seq $((w > 40 ? w - 39 : 1)) "$w") | sort -nu) $((w + 1)); do
		fault_run $n "$img" "$shafile" "$@" > "$TEST_TMP/why" || { why=$(cat "$TEST_TMP/why"); break; }
		runs=$((runs + 1))
		[ $RUN_STATE = old ] && olds=$((olds + 1)) || news=$((news + 1))
		if [ $n -le "$w" ] && [ $RUN_RC = 0 ]; then why="write $n failed, yet defrag exited 0"; break; fi
		if [ $n -gt "$w" ] && { [ $RUN_RC != 0 ] || [ $RUN_STATE != new ]; }; then
			why="with $w writes allowed the move did not complete (exit $RUN_RC, $RUN_STATE volume)"; break
		fi
	done
	if [ -n "$why" ]; then
		tap_fail "$name: $why"
	elif [ $olds -lt 2 ]; then
		tap_fail "$name: $olds old, $news new: the faults did not reach the commit"
	else
		tap_ok "$name, $w writes: a fault at $( [ "$step" = 1 ] && echo "each of them" || echo "every ${step}th and at each of the last 40") ($((runs - 1)) runs): $olds left the old volume, $((news - 1)) the new one, all clean with files unchanged"
	fi
}

# 4. a fault at every write of a small move (one segment of data)
SMALL=$(python3 - "$TEST_TMP/old.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))['segments']
c = [e for e in s['list'] if e['state'] != 'current' and 0 < e['valid_blocks'] < 200]
print(min(c, key=lambda e: e['valid_blocks'])['segno'] if c else '')
EOF
)
[ -n "$SMALL" ] || hard_error "no small segment to move"
SS=$((MAIN + SMALL * 512))
ST=$((MAIN + (NSEGS - 10) * 512))
fault_loop 1 "moving segment $SMALL" "$IMG" "$TEST_TMP/before.sha" -s $SS -l 512 -t $ST

# 5. --file: populated.img's /big.bin (1486 blocks in 3 extents) made contiguous
P=$TEST_TMP/populated.img
xz -dc "$BASE/populated.img.xz" > "$P" || hard_error "cannot unpack populated.img"
frag() { "$DUMP" --json --frag "$1" "$2" | python3 -c 'import json, sys
r = json.load(sys.stdin)["fragmentation"][0]; print(r["blocks"], r["extents"])'; }
read -r PB PE < <(frag /big.bin "$P")
[ "${PE:-0}" -gt 1 ] || hard_error "populated.img's /big.bin is not fragmented (${PE:-?} extents)"
"$DUMP" --cat /big.bin "$P" | sha256sum > "$TEST_TMP/big.sha"
shas "$P" > "$TEST_TMP/p.sha"
PF=$TEST_TMP/pfile.img
cp "$P" "$PF"
if "$DEFRAG" --file /big.bin "$PF" > "$TEST_TMP/file.out" 2> "$TEST_TMP/file.err" &&
   read -r AB AE < <(frag /big.bin "$PF") && [ "$AE" = 1 ] && [ "$AB" = "$PB" ] &&
   shas "$PF" | cmp -s - "$TEST_TMP/p.sha" && out=$(both_clean "$PF"); then
	tap_ok "--file /big.bin: $PB blocks, $PE extents -> $AE (dump.f2fs --frag), every file unchanged, fscks clean: $(cat "$TEST_TMP/file.out")"
else
	tap_fail "--file /big.bin: $(cat "$TEST_TMP/file.out" "$TEST_TMP/file.err") (extents after: ${AE:-?})"; echo "${out:-}"
fi
cp "$PF" "$TEST_TMP/again.img"
if "$DEFRAG" --file /big.bin "$TEST_TMP/again.img" > "$TEST_TMP/again.out" 2>&1 &&
   grep -q "already contiguous" "$TEST_TMP/again.out" && cmp -s "$PF" "$TEST_TMP/again.img"; then
	tap_ok "--file of a contiguous file: nothing written ($(cat "$TEST_TMP/again.out"))"
else
	tap_fail "--file of a contiguous file: $(cat "$TEST_TMP/again.out")"
fi
# the crash check of --file compares /big.bin alone (dumping 400 files per write is slow)
fault_loop 100 "--file /big.bin" "$P" "$TEST_TMP/big.sha" --file /big.bin

tap_summary
