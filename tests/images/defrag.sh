#!/bin/bash
# defrag.f2fs (f2fs-tools' -s/-l/-t/-i) on an aged image: our mkfs, files created by
# transactions and every other one removed (partly valid data and node segments).  Then:
#  - a range of used segments moved to the right of a target: the range holds no valid
#    block afterwards, every segment that gained blocks lies at or after the target
#    (dump.f2fs --segments), every file's sha256 unchanged (dump.f2fs --cat), both fscks
#    (ours, Debian's 1.15 when installed) clean;
#  - the same with -i (at or below a target above the range);
#  - refusals (range or target outside the main area, target inside the range, a window
#    without room, an unclean volume, --file) exit 1 with one line and leave the image
#    byte-identical;
#  - a fault at every write of a small move leaves the old volume or the new one, both
#    fscks clean.

. "$(dirname "$0")/lib.sh"
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
# aging: three rounds of 40 files (1 byte .. 30 KiB, every tenth 300 KiB), then every
# other file of each round removed
SRC=$TEST_TMP/src
mkdir -p "$SRC"
for i in $(seq 0 119); do
	if [ $((i % 10)) = 9 ]; then n=$((300 * 1024 + i)); else n=$(( (i * 7919) % 30720 + 1 )); fi
	head -c $n /dev/urandom > "$SRC/f$i"
done
for r in 0 1 2; do
	items=("age$r/")
	for k in $(seq 0 39); do i=$((r * 40 + k)); items+=("age$r/f$i=$SRC/f$i"); done
	"$POP" "$IMG" "${items[@]}" || hard_error "aging round $r failed"
done
items=()
for r in 0 1 2; do
	for k in $(seq 0 2 39); do i=$((r * 40 + k)); items+=("-age$r/f$i"); done
done
"$POP" "$IMG" "${items[@]}" || hard_error "aging removals failed"
"$FSCK" -f -n "$IMG" >/dev/null 2>&1 || hard_error "the aged image is not clean"

# sha256 of every regular file, by path
shas()
{
	"$DUMP" --json --tree "$1" > "$TEST_TMP/tree.json" || return 1
	python3 - "$TEST_TMP/tree.json" <<'EOF' > "$TEST_TMP/paths" || return 1
import json, sys
for e in json.load(open(sys.argv[1]))['tree']['entries']:
    if e['type'] == 'regular':
        print(e['path'])
EOF
	while read -r p; do
		"$DUMP" --cat "$p" "$1" 2>/dev/null | sha256sum | sed "s|-\$|$p|" || return 1
	done < "$TEST_TMP/paths"
}

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
refused "--file" "$IMG" --file /age0/f1
UNC=$TEST_TMP/unclean.img
xz -dc "$BASE/unclean.img.xz" > "$UNC" || hard_error "cannot unpack unclean.img"
refused "unclean volume" "$UNC" -l 512

# 4. a fault at every write of a small move (one segment of data): each interrupted run
# leaves the old volume or the new one (segment table and files), both fscks clean
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
NEW=$TEST_TMP/new.img
cp "$IMG" "$NEW"
"$DEFRAG" -s $SS -l 512 -t $ST "$NEW" > "$TEST_TMP/new.out" 2>&1 || hard_error "the small move failed: $(cat "$TEST_TMP/new.out")"
"$DUMP" --segments "$IMG" > "$TEST_TMP/old.segs"
"$DUMP" --segments "$NEW" > "$TEST_TMP/new.segs"
cmp -s "$TEST_TMP/old.segs" "$TEST_TMP/new.segs" && hard_error "the small move changed no segment"
olds=0 news=0 bad= completed=0
for n in $(seq 1 400); do
	cp "$IMG" "$TEST_TMP/t.img"
	ZF2FS_FAULT_WRITES=$n "$DEFRAG" -s $SS -l 512 -t $ST "$TEST_TMP/t.img" > "$TEST_TMP/run" 2>&1
	rc=$?
	# a pack begun but not finished is invalid (no CRC): the old checkpoint is taken
	if ! out=$(both_clean "$TEST_TMP/t.img" $'^\tInvalid CP CRC offset: '); then
		bad="write $n failed: $out"
		break
	fi
	"$DUMP" --segments "$TEST_TMP/t.img" > "$TEST_TMP/t.segs"
	if cmp -s "$TEST_TMP/t.segs" "$TEST_TMP/old.segs"; then
		olds=$((olds + 1))
	elif cmp -s "$TEST_TMP/t.segs" "$TEST_TMP/new.segs"; then
		news=$((news + 1))
	else
		bad="write $n failed (exit $rc): neither the old segment table nor the new one"
		diff "$TEST_TMP/old.segs" "$TEST_TMP/t.segs" | head -5
		break
	fi
	if ! shas "$TEST_TMP/t.img" | cmp -s - "$TEST_TMP/before.sha"; then
		bad="write $n failed: file contents changed"
		break
	fi
	if [ $rc -eq 0 ]; then
		completed=$n
		break
	fi
done
if [ -n "$bad" ]; then
	tap_fail "$bad"
elif [ $completed = 0 ]; then
	tap_fail "the move did not complete within 400 writes"
elif [ $olds -lt 2 ] || [ $news -lt 1 ]; then
	tap_fail "fault loop: $olds old, $news new: the faults did not reach the commit"
else
	tap_ok "a fault at each of the $((completed - 1)) writes of moving segment $SMALL: $olds runs left the old volume, $((news - 1)) the new one, all clean"
fi

tap_summary
