#!/bin/bash
# defrag.f2fs (f2fs-tools' -s/-l/-t/-i) on an aged image: our mkfs, files created by
# transactions and every other one removed (age_image, move_lib.sh).  Then:
#  - a range of used segments moved to the right of a target: the range holds no valid
#    block afterwards, every segment that gained blocks lies at or after the target
#    (dump.f2fs --segments), every file's sha256 unchanged (dump.f2fs --cat), both fscks
#    (ours, Debian's 1.15 when installed) clean;
#  - the same with -i (at or below a target above the range);
#  - refusals (range or target outside the main area, target inside the range, a window
#    without room, an unclean volume, --file of a missing path) exit 1 with one line and leave the image
#    byte-identical;
#  - a fault at every write of a small move leaves the old volume or the new one, both
#    fscks clean;
#  - --batch-blocks smaller than the range: several checkpoints (the version goes up by
#    more than one), the same checks; faults at sampled writes of a batched move leave
#    the old volume, a completed batch's or the new one, clean, files unchanged;
#  - --file: populated.img's fragmented /big.bin ends in one extent (dump.f2fs --frag),
#    files unchanged, fscks clean, the same fault check; so does it in batches of 400
#    blocks (a checkpoint each; faults at sampled writes over all of them); a contiguous
#    file is left alone; a symlink refused;
#  - --file DIR: the fragmented files below /age1 (cut by small range moves) end in one
#    extent each, files unchanged, fscks clean; a second run writes nothing; a file without
#    a run of free sections large enough is named and skipped, exit 2.

. "$(dirname "$0")/lib.sh"
fault_matrix
. "$(dirname "$0")/move_lib.sh"
need_python

DEFRAG=$OUR_BIN/defrag.f2fs
FSCK=$OUR_BIN/fsck.f2fs
DUMP=$OUR_BIN/dump.f2fs
POP=$OUR_BIN/txn_populate
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
UNC=$TEST_TMP/unclean.img
xz -dc "$BASE/unclean.img.xz" > "$UNC" || hard_error "cannot unpack unclean.img"
refused "unclean volume" "$UNC" -l 512

# same_files IMAGE SHAFILE: the files of IMAGE have the sha256 of SHAFILE (every file's,
# or /big.bin's alone when it holds one line)
same_files()
{
	if [ "$(wc -l < "$2")" = 1 ]; then
		"$DUMP" --cat /big.bin "$1" | sha256sum | cmp -s - "$2"
	else
		shas "$1" | cmp -s - "$2"
	fi
}

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
	same_files "$TEST_TMP/t.img" "$shafile" || { echo "write $n failed: file contents changed"; return 1; }
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

# cpver IMAGE: the checkpoint version in use
cpver() { "$DUMP" --json --checkpoint "$1" | python3 -c 'import json, sys
c = json.load(sys.stdin)["checkpoint"]; print(c["packs"][c["current_pack"]]["checkpoint_ver"])'; }

# 4b. a range moved in batches smaller than it: one checkpoint per batch (the version
# goes up by more than one), the same end state as one big move
BLEN=$((6 * 512))
BT=$((MAIN + (LAST + 5) * 512))
B=$TEST_TMP/batch.img
cp "$IMG" "$B"
V0=$(cpver "$IMG")
if "$DEFRAG" --batch-blocks 256 -s $START -l $BLEN -t $BT "$B" > "$TEST_TMP/batch.out" 2> "$TEST_TMP/batch.err" &&
   V1=$(cpver "$B") && [ $((V1 - V0)) -gt 1 ] &&
   grep -q "in $((V1 - V0)) checkpoints" "$TEST_TMP/batch.out" &&
   segs "$B" "$TEST_TMP/batch.json" &&
   check_moved "$TEST_TMP/old.json" "$TEST_TMP/batch.json" $START $BLEN $BT right > "$TEST_TMP/chk" &&
   shas "$B" | cmp -s - "$TEST_TMP/before.sha" && out=$(both_clean "$B"); then
	tap_ok "--batch-blocks 256 over $BLEN blocks: checkpoint version $V0 -> $V1, range empty, files unchanged, fscks clean: $(cat "$TEST_TMP/batch.out")"
else
	tap_fail "--batch-blocks 256: version $V0 -> ${V1:-?}: $(cat "$TEST_TMP/batch.out" "$TEST_TMP/batch.err")"; cat "$TEST_TMP/chk"; echo "${out:-}"
fi
# the same range in one batch: one checkpoint
cp "$IMG" "$TEST_TMP/onebatch.img"
if "$DEFRAG" -s $START -l $BLEN -t $BT "$TEST_TMP/onebatch.img" > "$TEST_TMP/one.out" 2>&1 &&
   [ $(( $(cpver "$TEST_TMP/onebatch.img") - V0 )) = 1 ]; then
	tap_ok "the same range with the default batch: one checkpoint"
else
	tap_fail "the same range with the default batch: $(cat "$TEST_TMP/one.out")"
fi

# 4c. faults at sampled writes of a batched move (counted over all its commits): the
# volume is the old one, the new one or one a completed batch left (its checkpoint
# version in between), always clean for both fscks with the sha256 of every file of
# SHAFILE unchanged (all of them, or /big.bin's alone).
# batch_fault_loop STEP NAME IMAGE SHAFILE ARGS...
batch_fault_loop()
{
	local step=$1 name=$2 img=$3 shafile=$4 w n v v0 vnew runs=0 mids=0 olds=0 why= seen=
	shift 4
	v0=$(cpver "$img")
	cp "$img" "$TEST_TMP/bnew.img"
	"$DEFRAG" -d 3 "$@" "$TEST_TMP/bnew.img" > "$TEST_TMP/bnew.out" 2>&1 ||
		hard_error "batched move failed: $(cat "$TEST_TMP/bnew.out")"
	w=$(sed -n 's/.*the commits made \([0-9]*\) writes.*/\1/p' "$TEST_TMP/bnew.out")
	[ -n "$w" ] && [ "$w" -gt 2 ] || hard_error "no write count in: $(cat "$TEST_TMP/bnew.out")"
	vnew=$(cpver "$TEST_TMP/bnew.img")
	for n in $( (seq 1 "$step" "$w"; seq $((w > 10 ? w - 9 : 1)) "$w") | sort -nu) $((w + 1)); do
		cp "$img" "$TEST_TMP/bt.img"
		ZF2FS_FAULT_WRITES=$n "$DEFRAG" "$@" "$TEST_TMP/bt.img" > "$TEST_TMP/brun" 2>&1
		rc=$?
		runs=$((runs + 1))
		if [ $n -le "$w" ] && [ $rc = 0 ]; then why="write $n failed, yet defrag exited 0"; break; fi
		if [ $n -gt "$w" ] && [ $rc != 0 ]; then why="with $w writes allowed: exit $rc: $(cat "$TEST_TMP/brun")"; break; fi
		if ! out=$(both_clean "$TEST_TMP/bt.img" $'^\tInvalid CP CRC offset: '); then
			why="write $n: $out"; break
		fi
		v=$(cpver "$TEST_TMP/bt.img")
		seen="$seen $n:$v"
		if [ "$v" -lt "$v0" ] || [ "$v" -gt "$vnew" ]; then why="write $n: checkpoint version $v outside $v0..$vnew"; break; fi
		[ "$v" = "$v0" ] && olds=$((olds + 1))
		[ "$v" -gt "$v0" ] && [ "$v" -lt "$vnew" ] && mids=$((mids + 1))
		same_files "$TEST_TMP/bt.img" "$shafile" || { why="write $n: file contents changed"; break; }
	done
	if [ -n "$why" ]; then
		tap_fail "faults in $name: $why"
	elif [ $mids -lt 1 ] || [ $olds -lt 1 ]; then
		tap_fail "faults in $name: $olds runs left the old volume, $mids a batch's: the faults did not reach every commit (write:version$seen; $v0..$vnew)"
	else
		tap_ok "faults in $name ($w writes, versions $v0..$vnew): $runs runs, $olds left the old volume, $mids a completed batch's, all clean for both fscks with files unchanged"
	fi
}
batch_fault_loop 97 "a batched move" "$IMG" "$TEST_TMP/before.sha" --batch-blocks 128 -s $START -l $((3 * 512)) -t $BT

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
refused "--file of a symlink" "$P" --file /link_short

# 5a. --file in batches: /big.bin moved 400 blocks a checkpoint still ends in one extent
# (its data fill a run kept for them, the cold data log going on where each batch left
# it; the nodes go outside the run), files unchanged, fscks clean; then faults at sampled
# writes over all its commits
PB4=$TEST_TMP/pfile4.img
cp "$P" "$PB4"
if "$DEFRAG" --batch-blocks 400 --file /big.bin "$PB4" > "$TEST_TMP/file4.out" 2> "$TEST_TMP/file4.err" &&
   read -r AB AE < <(frag /big.bin "$PB4") && [ "$AE" = 1 ] && [ "$AB" = "$PB" ] &&
   [ $(( $(cpver "$PB4") - $(cpver "$P") )) -ge 4 ] &&
   shas "$PB4" | cmp -s - "$TEST_TMP/p.sha" && out=$(both_clean "$PB4"); then
	tap_ok "--batch-blocks 400 --file /big.bin: $PE extents -> $AE in $(( $(cpver "$PB4") - $(cpver "$P") )) checkpoints, every file unchanged, fscks clean: $(cat "$TEST_TMP/file4.out")"
else
	tap_fail "--batch-blocks 400 --file /big.bin: $(cat "$TEST_TMP/file4.out" "$TEST_TMP/file4.err") (extents after: ${AE:-?}, versions $(cpver "$P") -> $(cpver "$PB4"))"; echo "${out:-}"
fi
batch_fault_loop 53 "--file /big.bin in batches of 400" "$P" "$TEST_TMP/big.sha" --batch-blocks 400 --file /big.bin

# 5b. --file DIR: the files of /age1 fragmented first (three short pieces of each used
# segment moved away cut the files that cross them), then every regular file below /age1 made contiguous:
# dump.f2fs --frag counts one extent per file, nothing fragmented, files unchanged, fscks
# clean; a second run moves nothing
fragdir() { "$DUMP" --json --frag "$1" "$2" | python3 -c 'import json, sys
r = json.load(sys.stdin)["fragmentation"][0]; print(r["files_with_blocks"], r["extents"], r["fragmented"])'; }
FD=$TEST_TMP/fdir.img
cp "$IMG" "$FD"
for seg in $(seq "$FIRST" "$LAST"); do
	for ofs in 100 250 400; do
		"$DEFRAG" -s $((MAIN + seg * 512 + ofs)) -l 20 -t $((MAIN + (NSEGS - 40) * 512)) "$FD" > /dev/null 2>&1
	done
done
shas "$FD" > "$TEST_TMP/fd.sha"
read -r DF DE DX < <(fragdir /age1 "$FD")
[ "${DX:-0}" -ge 2 ] || hard_error "could not fragment the files of /age1 (${DX:-?} fragmented)"
cp "$FD" "$TEST_TMP/fdir0.img"
if "$DEFRAG" --file /age1 "$FD" > "$TEST_TMP/fdir.out" 2> "$TEST_TMP/fdir.err" &&
   read -r AF AE AX < <(fragdir /age1 "$FD") && [ "$AX" = 0 ] && [ "$AE" = "$AF" ] && [ "$AF" = "$DF" ] &&
   shas "$FD" | cmp -s - "$TEST_TMP/fd.sha" && out=$(both_clean "$FD"); then
	tap_ok "--file /age1: $DF files, $DE extents ($DX fragmented) -> $AE extents, none fragmented (dump.f2fs --frag), files unchanged, fscks clean: $(tail -1 "$TEST_TMP/fdir.out")"
else
	tap_fail "--file /age1: $DF files $DE extents $DX fragmented -> ${AF:-?} ${AE:-?} ${AX:-?}: $(tail -2 "$TEST_TMP/fdir.out") $(cat "$TEST_TMP/fdir.err")"; echo "${out:-}"
fi
cp "$FD" "$TEST_TMP/fdir2.img"
if "$DEFRAG" --file /age1 "$TEST_TMP/fdir2.img" > "$TEST_TMP/fdir2.out" 2>&1 && cmp -s "$FD" "$TEST_TMP/fdir2.img" &&
   [ "$(grep -c 'already contiguous' "$TEST_TMP/fdir2.out")" = "$(grep -c 'already contiguous\|extents before' "$TEST_TMP/fdir.out")" ]; then
	tap_ok "--file /age1 again: nothing written, every file already contiguous"
else
	tap_fail "--file /age1 again: $(tail -3 "$TEST_TMP/fdir2.out")"
fi

# 5c. --file DIR with a file that cannot be made contiguous: sections of 8 segments, 4
# small files, one of them cut by a range move, then two files made in fresh sections
# (ZF2FS_TXN_FRESH_LOGS), which leaves 4 free sections: the cut file (a section for its
# data, up to 5 more for the nodes and logs) is named and skipped, the others are done
# (contiguous already), exit 2, nothing written
N8=$(new_image sec8.img 256M)
"$MKFS" -f -q -s 8 "$N8" >/dev/null 2>&1 || hard_error "mkfs -s 8 failed"
for i in 1 2 3 4; do head -c 300000 /dev/urandom > "$TEST_TMP/h$i"; done
ZF2FS_TXN_FRESH_LOGS=1 "$POP" "$N8" d/ d/h1="$TEST_TMP/h1" d/h2="$TEST_TMP/h2" d/h3="$TEST_TMP/h3" \
	d/h4="$TEST_TMP/h4" || hard_error "populating sec8.img failed"
N8M=$("$DUMP" --json --segments "$N8" | python3 -c 'import json, sys; print(json.load(sys.stdin)["segments"]["main_blkaddr"])')
H1=$("$DUMP" --json --segments "$N8" | python3 -c 'import json, sys
s = json.load(sys.stdin)["segments"]
print(min(e["segno"] for e in s["list"] if e["type"] == "warm_data" and e["valid_blocks"]))')
"$DEFRAG" -s $((N8M + H1 * 512 + 30)) -l 20 "$N8" > /dev/null 2>&1 || hard_error "cutting /d/h1 failed"
for pad in pad1 pad2; do
	ZF2FS_TXN_FRESH_LOGS=1 "$POP" "$N8" "$pad=$TEST_TMP/h1" || hard_error "sec8.img: making $pad failed"
done
read -r NF NE NX < <(fragdir /d "$N8")
[ "${NX:-0}" = 1 ] || hard_error "sec8.img: expected one fragmented file below /d, found ${NX:-?}"
cp "$N8" "$TEST_TMP/sec8b.img"
"$DEFRAG" --file /d "$TEST_TMP/sec8b.img" > "$TEST_TMP/skip.out" 2> "$TEST_TMP/skip.err"
rc=$?
if [ $rc = 2 ] && grep -q '^defrag.f2fs: /d/h1: no run of ' "$TEST_TMP/skip.err" &&
   [ "$(wc -l < "$TEST_TMP/skip.err")" = 1 ] && grep -q '4 regular files, 1 skipped' "$TEST_TMP/skip.out" &&
   cmp -s "$N8" "$TEST_TMP/sec8b.img" && out=$(both_clean "$TEST_TMP/sec8b.img"); then
	tap_ok "--file /d without room for /d/h1: exit 2, skipped and named, the others done: $(cat "$TEST_TMP/skip.err")"
else
	tap_fail "--file /d without room: exit $rc: $(cat "$TEST_TMP/skip.out" "$TEST_TMP/skip.err")"; echo "${out:-}"
fi

# the crash check of --file compares /big.bin alone (dumping 400 files per write is slow)
fault_loop 100 "--file /big.bin" "$P" "$TEST_TMP/big.sha" --file /big.bin

tap_summary
