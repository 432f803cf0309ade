#!/bin/bash
# gc.f2fs collect on an aged image: our mkfs, a tree loaded by Debian's sload.f2fs (big
# file with indirect nodes, many names, symlinks), aged by transactions that create files
# and remove every other one (partly valid sections of data and nodes).  Then:
#  - collect's victims equal `gc.f2fs replay`'s predicted victims for as many foreground
#    calls, in the same order;
#  - every section collect reports is free afterwards (dump.f2fs --segments);
#  - every file's sha256 is unchanged (dump.f2fs --cat of every regular file);
#  - both fscks (ours, Debian's 1.15) find the result clean;
#  - the same in batches of a few blocks (several checkpoints);
#  - on sections of 4 segments, a background window of one segment (--knob): replay's next
#    calls continue the section under Linux 7.3, not under 6.1, and collect lists each
#    section once;
#  - a dry run, an unclean volume and a volume too full for the moved blocks change
#    nothing (the last two refused with a one-line error).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/move_lib.sh"
need_ref_tools
need_python

GC=$OUR_BIN/gc.f2fs
FSCK=$OUR_BIN/fsck.f2fs
DUMP=$OUR_BIN/dump.f2fs
POP=$OUR_BIN/txn_populate
BASE=$top_srcdir/tests/images/base
[ -x "$POP" ] || hard_error "txn_populate is not built: $POP"
export SOURCE_DATE_EPOCH=1700000000

IMG=$(new_image aged.img 256M)
"$MKFS" -f -q -O extra_attr,inode_checksum,lost_found "$IMG" \
	>/dev/null 2>&1 || hard_error "mkfs failed"

# a tree loaded by Debian's sload.f2fs: a big file with indirect nodes, a directory of
# several hash levels, symlinks, deep directories
TREE=$TEST_TMP/tree
mkdir -p "$TREE/many" "$TREE/docs/deep/deeper"
head -c 9000000 /dev/urandom > "$TREE/big.bin"
head -c 100 /dev/urandom > "$TREE/docs/deep/deeper/leaf"
for i in $(seq 1 150); do echo "entry $i" > "$TREE/many/name-$i"; done
ln -s docs/deep/deeper/leaf "$TREE/link"
/usr/sbin/sload.f2fs -f "$TREE" "$IMG" > "$TEST_TMP/sload.log" 2>&1 || { tail -3 "$TEST_TMP/sload.log"; skip "Debian's sload.f2fs failed"; }

age_image "$IMG"
"$FSCK" -f -n "$IMG" >/dev/null 2>&1 || hard_error "the aged image is not clean"

# secno of each victim of a --json document on stdin, one a line
victims()
{
	python3 -c 'import json, sys
for v in json.load(sys.stdin)["victims"]: print(v["secno"])'
}

N=8
shas "$IMG" > "$TEST_TMP/before.sha" || hard_error "cannot read the files of the aged image"
[ "$(wc -l < "$TEST_TMP/before.sha")" -gt 60 ] || hard_error "too few files on the aged image"

cp "$IMG" "$TEST_TMP/batch.img"

# 1. collect's victims are replay's
"$GC" replay "$IMG" -n $N --json > "$TEST_TMP/replay.json" || hard_error "replay failed"
victims < "$TEST_TMP/replay.json" > "$TEST_TMP/replay.v"
[ "$(wc -l < "$TEST_TMP/replay.v")" = $N ] || hard_error "replay predicts fewer than $N victims"
cp "$IMG" "$TEST_TMP/dry.img"
if "$GC" collect "$IMG" -n $N --dry-run --json > "$TEST_TMP/dry.json" &&
   cmp -s "$IMG" "$TEST_TMP/dry.img"; then
	tap_ok "collect --dry-run changes nothing"
else
	tap_fail "collect --dry-run changed the image or failed"
fi
if "$GC" collect "$IMG" -n $N --json > "$TEST_TMP/collect.json" 2> "$TEST_TMP/collect.err"; then
	tap_ok "collect -n $N"
else
	tap_fail "collect -n $N failed:"; sed 's/^/    | /' "$TEST_TMP/collect.err"
fi
victims < "$TEST_TMP/collect.json" > "$TEST_TMP/collect.v"
if cmp -s "$TEST_TMP/replay.v" "$TEST_TMP/collect.v"; then
	tap_ok "collect's victims are replay's ($(tr '\n' ' ' < "$TEST_TMP/collect.v"))"
else
	tap_fail "victims differ: replay $(tr '\n' ' ' < "$TEST_TMP/replay.v"), collect $(tr '\n' ' ' < "$TEST_TMP/collect.v")"
fi
python3 - "$TEST_TMP/collect.json" <<'EOF' || tap_fail "collect moved nothing (not an aged image?)"
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d['data_blocks'] > 0 and d['node_blocks'] > 0 else 1)
EOF

# 2. the sections reported are free, per dump.f2fs
"$DUMP" --json --segments "$IMG" > "$TEST_TMP/segs.json"
if python3 - "$TEST_TMP/segs.json" "$TEST_TMP/collect.v" <<'EOF'
import json, sys
segs = json.load(open(sys.argv[1]))['segments']['list']
want = set(int(l) for l in open(sys.argv[2]))
bad = [s for s in segs if s['secno'] in want and (s['valid_blocks'] or s['state'] != 'free')]
for s in bad[:5]:
    print('    section %d: segment %d %s with %d valid' % (s['secno'], s['segno'], s['state'], s['valid_blocks']))
sys.exit(1 if bad or not want else 0)
EOF
then tap_ok "the collected sections are free"; else tap_fail "a collected section is not free"; fi

# 3. every file is unchanged
shas "$IMG" > "$TEST_TMP/after.sha"
if cmp -s "$TEST_TMP/before.sha" "$TEST_TMP/after.sha"; then
	tap_ok "every file's sha256 is unchanged ($(wc -l < "$TEST_TMP/after.sha") files)"
else
	tap_fail "file contents changed:"; diff "$TEST_TMP/before.sha" "$TEST_TMP/after.sha" | head -5
fi

# 4. both fscks clean
if out=$("$FSCK" -f -n "$IMG" 2>&1); then
	tap_ok "our fsck: clean"
else
	tap_fail "our fsck:"; printf '%s\n' "$out" | head -20 | sed 's/^/    | /'
fi
if ref_fsck "$IMG"; then tap_ok "Debian's fsck: clean"; else tap_fail "Debian's fsck"; fi

# 4b. the same victims in batches of at most 64 blocks, one checkpoint each: the same
# victims freed, the same files, both fscks clean
B=$TEST_TMP/batch.img
if "$GC" collect "$B" -n $N --batch-blocks 64 --json > "$TEST_TMP/batch.json" 2> "$TEST_TMP/batch.err" &&
   victims < "$TEST_TMP/batch.json" | cmp -s - "$TEST_TMP/collect.v" &&
   python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["checkpoints"] > 1 and all(v["freed"] for v in d["victims"]) else 1)' "$TEST_TMP/batch.json" &&
   "$FSCK" -f -n "$B" >/dev/null 2>&1 && ref_fsck "$B" >/dev/null &&
   shas "$B" | cmp -s - "$TEST_TMP/before.sha"; then
	tap_ok "collect in batches: $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["checkpoints"])' "$TEST_TMP/batch.json") checkpoints, same victims, same files, both fscks clean"
else
	tap_fail "collect in batches:"; sed 's/^/    | /' "$TEST_TMP/batch.err"; tail -3 "$TEST_TMP/batch.json"
fi

# 4c. background calls (--gc-type bg): replay's background victims (cost-benefit; the
# kernel only marks them and its writeback moves their blocks), moved for real and freed,
# the same files, both fscks clean
# Our writers leave a segment's mtime 0, and the kernel's cost-benefit selection takes
# no section when every age is equal: the segments get mtimes of their own first (a
# segment number's worth of seconds apart, shuffled), as a volume Linux wrote has.
BG=$TEST_TMP/bg.img
cp "$TEST_TMP/dry.img" "$BG"
MAIN0=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["segments"]["main_blkaddr"])' "$TEST_TMP/segs.json")
for seg in $(seq 0 47); do
	"$OUR_BIN/inject.f2fs" --sit 0 --mb mtime --blk $((MAIN0 + seg * 512)) \
		--val $(( (seg * 37) % 48 * 1000 + 1000 )) "$BG" >/dev/null 2>&1 ||
		hard_error "inject.f2fs could not set segment $seg's mtime"
done
cp "$BG" "$TEST_TMP/bg0.img"
"$GC" replay "$BG" --gc-type bg -n $N --json > "$TEST_TMP/bg-replay.json" ||
	hard_error "replay --gc-type bg failed"
victims < "$TEST_TMP/bg-replay.json" > "$TEST_TMP/bg-replay.v"
if "$GC" collect "$BG" --gc-type bg -n $N --json > "$TEST_TMP/bg.json" 2> "$TEST_TMP/bg.err" &&
   victims < "$TEST_TMP/bg.json" | cmp -s - "$TEST_TMP/bg-replay.v" &&
   [ "$(wc -l < "$TEST_TMP/bg-replay.v")" = $N ] &&
   python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
ok = d["gc_type"] == "bg" and d["policy"] == "cb" and d["data_blocks"] > 0
ok = ok and all(v["freed"] and v["gc_type"] == "bg" for v in d["victims"])
sys.exit(0 if ok else 1)' "$TEST_TMP/bg.json" &&
   "$FSCK" -f -n "$BG" >/dev/null 2>&1 && ref_fsck "$BG" >/dev/null &&
   shas "$BG" | cmp -s - "$TEST_TMP/before.sha"; then
	tap_ok "collect --gc-type bg: replay's background victims ($(tr '\n' ' ' < "$TEST_TMP/bg-replay.v")), all freed, same files, both fscks clean"
else
	tap_fail "collect --gc-type bg:"; sed 's/^/    | /' "$TEST_TMP/bg.err"
	echo "    replay: $(tr '\n' ' ' < "$TEST_TMP/bg-replay.v") collect: $(victims < "$TEST_TMP/bg.json" | tr '\n' ' ')"
fi
# --until-free counts the sections background calls marked as freed by this collect (the
# moved blocks take fresh sections of their own, as in foreground collects)
free0=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["free_before"])' "$TEST_TMP/bg.json")
cp "$TEST_TMP/bg0.img" "$BG"
if "$GC" collect "$BG" --gc-type bg --until-free $((free0 + 3)) --json > "$TEST_TMP/bgu.json" 2>&1 &&
   python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if len(d["victims"]) == 3 and all(v["freed"] for v in d["victims"]) else 1)' "$TEST_TMP/bgu.json"; then
	tap_ok "collect --gc-type bg --until-free: 3 victims freed for 3 more free sections by replay's count"
else
	tap_fail "collect --gc-type bg --until-free $((free0 + 3)):"; tail -5 "$TEST_TMP/bgu.json"
fi

# 5. until there is nothing left: --until-free far beyond the volume stops at "no more
# victims" or a current log, and leaves a clean volume with the same files
if "$GC" collect "$IMG" --until-free 100000 > "$TEST_TMP/all.txt" 2>&1 &&
   grep -q "^stopped: " "$TEST_TMP/all.txt" && "$FSCK" -f -n "$IMG" >/dev/null 2>&1 &&
   ref_fsck "$IMG" >/dev/null && shas "$IMG" | cmp -s - "$TEST_TMP/before.sha"; then
	tap_ok "collect --until-free (all it can): $(grep "^collected" "$TEST_TMP/all.txt"), $(grep "^stopped" "$TEST_TMP/all.txt")"
else
	tap_fail "collect --until-free:"; sed 's/^/    | /' "$TEST_TMP/all.txt" | tail -5
fi

# 5b. hostile images: one field of a victim's summary, SIT entry, an owner's NAT entry
# or node damaged (inject.f2fs --fuzz): collect exits 0 or 8 (a one-line refusal), never
# crashes or hangs
INJ=$OUR_BIN/inject.f2fs
MAIN=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["segments"]["main_blkaddr"])' "$TEST_TMP/segs.json")
crash=0 cases=0 refused=0
for k in 1 2 3 4; do
	seg=$(sed -n "${k}p" "$TEST_TMP/replay.v")
	[ -n "$seg" ] || continue
	blk=$((MAIN + seg * 512))
	for what in "--ssa --mb nid" "--ssa --mb ofs_in_node" "--ssa --mb entry_type" \
		    "--sit 0 --mb vblocks" "--sit 0 --mb valid_map --idx 0"; do
		H=$TEST_TMP/hostile.img
		cp "$TEST_TMP/dry.img" "$H"
		# shellcheck disable=SC2086 # the words of $what are options
		"$INJ" $what --blk $blk --fuzz random --seed $((k * 7)) "$H" >/dev/null 2>&1 || continue
		cases=$((cases + 1))
		timeout 120 "$GC" collect "$H" -n 4 >/dev/null 2>"$TEST_TMP/hostile.err"
		rc=$?
		case $rc in
		0) ;;
		8) refused=$((refused + 1))
		   [ "$(wc -l < "$TEST_TMP/hostile.err")" = 1 ] ||
			{ crash=$((crash + 1)); echo "    $what blk $blk: more than one line:"; head -3 "$TEST_TMP/hostile.err"; } ;;
		*) crash=$((crash + 1)); echo "    $what blk $blk: exit $rc"; head -3 "$TEST_TMP/hostile.err" ;;
		esac
	done
done
if [ $crash = 0 ] && [ $cases -gt 10 ]; then
	tap_ok "hostile images: $cases damaged copies, $refused refused, none crashed or hung"
else
	tap_fail "hostile images: $crash of $cases went wrong"
fi

# 5c. sections of 4 segments: the checkpoint's free segment count is the kernel's (each
# free segment, whole sections or not), victims freed, files kept, both fscks clean
S4=$(new_image s4.img 512M)
"$MKFS" -f -q -s 4 "$S4" >/dev/null 2>&1 || hard_error "mkfs -s 4 failed"
# three directories of the same files, each written in sections of its own
# (ZF2FS_TXN_FRESH_LOGS), every other one then removed: the writer fills a section before
# it takes the next, so this many are needed for four dirty sections
for d in d e g; do
	items=("$d/")
	for i in $(seq 0 119); do items+=("$d/f$i=$SRC/f$i"); done
	ZF2FS_TXN_FRESH_LOGS=1 "$POP" "$S4" "${items[@]}" || hard_error "populating the -s 4 image failed"
	items=()
	for i in $(seq 0 2 119); do items+=("-$d/f$i"); done
	ZF2FS_TXN_FRESH_LOGS=1 "$POP" "$S4" "${items[@]}" || hard_error "removals on the -s 4 image failed"
done
# Linux 7.3's background window, one segment (--knob): the next three calls continue the
# first victim's section at its next segments, traced with greedy's largest cost (twice the
# section's blocks: 4096; the image's segments all have one mtime, so cost-benefit finds
# no victim, as the kernel's does); Linux 6.1 has no window and takes another section;
# collect moves each section once
seg_cost() { sed -n 's/.*"segno": \([0-9]*\),.*"cost": \([0-9]*\),.*/\1 \2/p'; }
"$GC" replay "$S4" --gc-type bg --policy greedy -n 4 --json --knob migration_window_granularity=1 |
	seg_cost >"$TEST_TMP/w73"
"$GC" replay "$S4" --gc-type bg --policy greedy -n 2 --json --kernel 6.1 --knob migration_window_granularity=1 |
	seg_cost >"$TEST_TMP/w61"
"$GC" collect "$S4" --gc-type bg --policy greedy -n 2 --dry-run --json --knob migration_window_granularity=1 |
	sed -n 's/.*"secno": \([0-9]*\),.*/\1/p' >"$TEST_TMP/wcol"
w0=$(awk 'NR == 1 { print $1 }' "$TEST_TMP/w73")
if [ -n "$w0" ] && [ $((w0 % 4)) -eq 0 ] &&
   [ "$(awk 'NR > 1 { printf "%s ", $0 }' "$TEST_TMP/w73")" = "$((w0 + 1)) 4096 $((w0 + 2)) 4096 $((w0 + 3)) 4096 " ] &&
   [ "$(head -n 1 "$TEST_TMP/w61")" = "$(head -n 1 "$TEST_TMP/w73")" ] &&
   [ "$(awk 'NR == 2 { print $1 % 4 }' "$TEST_TMP/w61")" = 0 ] &&
   [ "$(awk 'NR == 2 { print int($1 / 4) }' "$TEST_TMP/w61")" != $((w0 / 4)) ] &&
   [ "$(wc -l <"$TEST_TMP/wcol")" -eq 2 ] && [ "$(head -n 1 "$TEST_TMP/wcol")" = $((w0 / 4)) ] &&
   [ "$(sort -u "$TEST_TMP/wcol" | wc -l)" -eq 2 ]; then
	tap_ok "background window of one segment: 7.3 continues section $((w0 / 4)) at $((w0 + 1))..$((w0 + 3)), 6.1 takes another, collect lists two sections"
else
	tap_fail "background window: 7.3 $(tr '\n' ' ' <"$TEST_TMP/w73")| 6.1 $(tr '\n' ' ' <"$TEST_TMP/w61")| collect $(tr '\n' ' ' <"$TEST_TMP/wcol")"
fi
shas "$S4" > "$TEST_TMP/s4.sha"
if "$GC" collect "$S4" -n 4 --json > "$TEST_TMP/s4.json" 2> "$TEST_TMP/s4.err" &&
   python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if len(d["victims"]) == 4 and all(v["freed"] for v in d["victims"]) and d["data_blocks"] else 1)' "$TEST_TMP/s4.json" &&
   out=$("$FSCK" -f -n "$S4" 2>&1) && ref_fsck "$S4" && shas "$S4" | cmp -s - "$TEST_TMP/s4.sha"; then
	tap_ok "sections of 4 segments: 4 collected, same files, both fscks clean"
else
	tap_fail "sections of 4 segments:"; sed 's/^/    | /' "$TEST_TMP/s4.err"; printf '%s\n' "${out:-}" | tail -3
fi

# 5d. no free section at all: files of four 256 KiB each in sections of their own until
# the volume takes no more, every other one removed; the moved blocks go into the holes
# of dirty segments (SSR), the victims come out free, files kept, both fscks clean
NF=$(new_image nofree.img 64M)
"$MKFS" -f -q "$NF" >/dev/null 2>&1 || hard_error "mkfs failed"
for k in 0 1 2 3; do head -c 262144 /dev/urandom > "$TEST_TMP/q$k"; done
r=0
while [ $r -lt 400 ] && ZF2FS_TXN_FRESH_LOGS=1 "$POP" "$NF" "r$r-0=$TEST_TMP/q0" "r$r-1=$TEST_TMP/q1" \
	"r$r-2=$TEST_TMP/q2" "r$r-3=$TEST_TMP/q3" 2>/dev/null; do r=$((r + 1)); done
items=()
for i in $(seq 0 $((r - 1))); do items+=("-r$i-0" "-r$i-2"); done
"$POP" "$NF" "${items[@]}" >/dev/null || hard_error "removals on nofree.img failed"
shas "$NF" > "$TEST_TMP/nf.sha"
nf_free=$("$GC" state "$NF" | sed -n 's/^sections: free \([0-9]*\),.*/\1/p')
if [ "$nf_free" = 0 ] && "$GC" collect "$NF" -n 3 > "$TEST_TMP/nf.out" 2> "$TEST_TMP/nf.err" &&
   grep -q '^free sections: 0 before, [1-9]' "$TEST_TMP/nf.out" && "$FSCK" -f -n "$NF" >/dev/null 2>&1 &&
   ref_fsck "$NF" >/dev/null && shas "$NF" | cmp -s - "$TEST_TMP/nf.sha"; then
	tap_ok "no free section: $(grep '^collected' "$TEST_TMP/nf.out"), $(grep '^free sections' "$TEST_TMP/nf.out")"
else
	tap_fail "no free section ($nf_free free):"; sed 's/^/    | /' "$TEST_TMP/nf.out" "$TEST_TMP/nf.err" | tail -5
fi

# 6. an unclean volume is refused, untouched
UNC=$TEST_TMP/unclean.img
xz -dc "$BASE/unclean.img.xz" > "$UNC"
cp "$UNC" "$UNC.orig"
"$GC" collect "$UNC" -n 1 > /dev/null 2> "$TEST_TMP/unc.err"
rc=$?
if [ $rc = 8 ] && [ "$(wc -l < "$TEST_TMP/unc.err")" = 1 ] && grep -q 'fsck' "$TEST_TMP/unc.err" &&
   cmp -s "$UNC" "$UNC.orig"; then
	tap_ok "unclean volume refused: $(cat "$TEST_TMP/unc.err")"
else
	tap_fail "unclean volume: exit $rc"; sed 's/^/    | /' "$TEST_TMP/unc.err"
fi

# 6b. a volume too full for the moved blocks: refused at the commit, the checkpoint in use
# untouched, the files the same, both fscks clean
FULL=$TEST_TMP/full.img
xz -dc "$BASE/populated.img.xz" > "$FULL"
head -c 3000000 /dev/urandom > "$TEST_TMP/3m"
for i in $(seq 1 20); do "$POP" "$FULL" "x$i=$TEST_TMP/3m" >/dev/null 2>&1 || break; done
shas "$FULL" > "$TEST_TMP/full.sha"
"$DUMP" --json --checkpoint "$FULL" > "$TEST_TMP/full.cp"
"$GC" collect "$FULL" --until-free 1000 > /dev/null 2> "$TEST_TMP/full.err"
rc=$?
if [ $rc = 8 ] && [ "$(wc -l < "$TEST_TMP/full.err")" = 1 ] && grep -q 'free section' "$TEST_TMP/full.err" &&
   "$DUMP" --json --checkpoint "$FULL" | cmp -s - "$TEST_TMP/full.cp" &&
   shas "$FULL" | cmp -s - "$TEST_TMP/full.sha" && "$FSCK" -f -n "$FULL" >/dev/null 2>&1 &&
   ref_fsck "$FULL" >/dev/null; then
	tap_ok "too full a volume refused, nothing committed: $(cat "$TEST_TMP/full.err")"
else
	tap_fail "too full a volume: exit $rc"; sed 's/^/    | /' "$TEST_TMP/full.err"
fi

# 7. usage errors
"$GC" collect "$IMG" -n 1 --until-free 3 >/dev/null 2>&1
rc=$?
if [ $rc = 16 ]; then tap_ok "-n with --until-free: usage error"; else tap_fail "-n with --until-free: exit $rc"; fi
# replay's trace-following options: refused where they mean nothing, or malformed
usage_error() {
	what=$1
	shift
	"$GC" "$@" >/dev/null 2>"$TEST_TMP/usage.err"
	rc=$?
	if [ $rc = 16 ] && [ "$(wc -l <"$TEST_TMP/usage.err")" -le 2 ]; then
		tap_ok "$what: usage error: $(head -n 1 "$TEST_TMP/usage.err")"
	else
		tap_fail "$what: exit $rc"; sed 's/^/    | /' "$TEST_TMP/usage.err"
	fi
}
usage_error "--step-clock on collect" collect "$IMG" -n 1 --step-clock 0,1
usage_error "--step-types on a foreground replay" replay "$IMG" --step-types bf
usage_error "--step-clock not numbers" replay "$IMG" --gc-type bg --step-clock 0,x
usage_error "--step-clock empty value" replay "$IMG" --gc-type bg --step-clock 0,,1
usage_error "--step-types other letters" replay "$IMG" --gc-type bg --step-types bgf
usage_error "--now with --step-clock" replay "$IMG" --gc-type bg --now 5 --step-clock 0
usage_error "--knob of no kernel" replay "$IMG" --knob migration_window=3
usage_error "--knob not a number" collect "$IMG" --dry-run --knob gc_boost_gc_multiple=-1
# a knob out of the kernel's range on this volume (segments per section 1): one line, exit 8
knob_range() {
	"$GC" "$@" --knob migration_window_granularity=2 >/dev/null 2>"$TEST_TMP/knob.err"
	rc=$?
	if [ $rc -eq 8 ] && [ "$(wc -l <"$TEST_TMP/knob.err")" -eq 1 ] &&
	   grep -q "migration_window_granularity=2: out of the kernel's range" "$TEST_TMP/knob.err"; then
		tap_ok "$1 --knob out of range: $(cat "$TEST_TMP/knob.err")"
	else
		tap_fail "$1 --knob out of range: exit $rc"; sed 's/^/    | /' "$TEST_TMP/knob.err"
	fi
}
knob_range replay "$IMG"
knob_range collect "$IMG" --dry-run
# and followed: 4c's image with segment mtimes, a clock far past its last write, other costs
"$GC" replay "$TEST_TMP/bg0.img" --gc-type bg -n 3 --json | sed -n 's/.*"cost": \([0-9]*\),.*/\1/p' >"$TEST_TMP/c0"
"$GC" replay "$TEST_TMP/bg0.img" --gc-type bg -n 3 --json --step-clock 0,100000 |
	sed -n 's/.*"cost": \([0-9]*\),.*/\1/p' >"$TEST_TMP/c1"
if [ "$(head -n 1 "$TEST_TMP/c0")" = "$(head -n 1 "$TEST_TMP/c1")" ] && [ "$(wc -l <"$TEST_TMP/c1")" = 3 ] &&
   ! cmp -s "$TEST_TMP/c0" "$TEST_TMP/c1"; then
	tap_ok "replay --step-clock: step 1 as without, later costs scaled by the later clock ($(tr '\n' ' ' <"$TEST_TMP/c1"))"
else
	tap_fail "replay --step-clock: $(tr '\n' ' ' <"$TEST_TMP/c0") | $(tr '\n' ' ' <"$TEST_TMP/c1")"
fi
"$GC" replay "$TEST_TMP/bg0.img" --gc-type bg -n 2 --json --step-types bf >"$TEST_TMP/t.json"
if [ "$(sed -n '/"step"/s/.*"gc_type": "\([a-z]*\)".*/\1/p' "$TEST_TMP/t.json" | tr '\n' ' ')" = "bg fg " ] &&
   grep -q '"from_bg_map": true' "$TEST_TMP/t.json"; then
	tap_ok "replay --step-types bf: a background step, then the foreground take-over of its victim"
else
	tap_fail "replay --step-types bf"; sed 's/^/    | /' "$TEST_TMP/t.json"
fi

tap_summary
