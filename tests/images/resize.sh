#!/bin/bash
# resize.f2fs on an aged image (our mkfs, 256 MiB, files made by transactions and every
# other one removed: move_lib.sh).  Every result: every file's sha256 unchanged
# (dump.f2fs --cat), both fscks (ours; Debian's 1.15 when installed) clean, the
# superblock's sizes as asked.
#  1. grow with -s within what the SIT and SSA cover (256 -> 768 MiB): segment 0 stays;
#     -s past that (3 GiB) is refused, the image byte-identical;
#  2. grow 10x (2560 MiB): the metadata areas are rebuilt for the new size behind the
#     old main area's first sections (segment 0 moves), then again to 6 GiB;
#  3. shrink below blocks that defrag.f2fs put near the end: they move, the size drops;
#     a shrink below the data is refused, byte-identical; a shrink where the free
#     sections are too few puts the moved blocks into the holes of partly valid ones
#     (SSR; compaction, which zoned volumes need, is test_resize_zoned's);
#  3d. a shrink whose new size needs smaller metadata areas (1100 -> 600 MiB: SSA 2 -> 1
#     segment, NAT 2 -> 1 per copy): the areas are fitted (moved twice, see resize.h),
#     segment 0, the areas and the main area end where mkfs puts them for 600 MiB; with
#     -s they stay as large;
#  4. a fault at every write (sampled on the long ones) of a relocating grow, a shrink,
#     a grow within the areas and the fitted shrink: each interrupted volume is clean for our fsck (but
#     for the free segment count, which Linux recomputes and never reads, and the pack
#     not in use, which Linux does not check) with every
#     file unchanged and the old or the new size; running resize.f2fs again finishes
#     the job, clean.

. "$(dirname "$0")/lib.sh"
fault_matrix
. "$(dirname "$0")/move_lib.sh"
need_python

RESIZE=$OUR_BIN/resize.f2fs
DEFRAG=$OUR_BIN/defrag.f2fs
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

BASE=$(new_image base.img 256M)
"$MKFS" -f -q -O extra_attr,inode_checksum,lost_found "$BASE" >/dev/null 2>&1 ||
	hard_error "mkfs failed"
age_image "$BASE"
shas "$BASE" > "$TEST_TMP/before.sha" || hard_error "cannot read the files of the aged image"
[ "$(wc -l < "$TEST_TMP/before.sha")" -gt 50 ] || hard_error "too few files on the aged image"

both_clean()
{
	local out
	out=$("$FSCK" -f -n "$1" 2>&1) || { printf 'our fsck:\n%s\n' "$out" | head -10; return 1; }
	[ $HAVE_REF = 0 ] && return 0
	ref_fsck "$1" > "$TEST_TMP/ref.out" 2>&1 || { head -30 "$TEST_TMP/ref.out"; return 1; }
}

# sbf IMG FIELD: one superblock field
sbf() { sb_fields "$1" | sed -n "s/^$2=//p"; }

# verify NAME IMG BLOCKS: files unchanged, both fscks clean, block_count = BLOCKS
verify()
{
	local name=$1 img=$2 blocks=$3 want=${4:-$TEST_TMP/before.sha} why=""
	shas "$img" > "$TEST_TMP/after.sha" || why="cannot read the files"
	[ -z "$why" ] && ! cmp -s "$want" "$TEST_TMP/after.sha" &&
		why="files changed: $(diff "$want" "$TEST_TMP/after.sha" | head -4)"
	[ -z "$why" ] && [ "$(sbf "$img" block_count)" != "$blocks" ] &&
		why="block_count $(sbf "$img" block_count), expected $blocks"
	[ -z "$why" ] && { why=$(both_clean "$img") || true; }
	if [ -z "$why" ]; then tap_ok "$name: files unchanged, fscks (ours$REFNOTE) clean"
	else tap_fail "$name: $why"; fi
}

# refused NAME IMG ARGS...: exit 1, one line naming the cause, image byte-identical
refused()
{
	local name=$1 img=$2 rc; shift 2
	cp --sparse=always "$img" "$TEST_TMP/r.img"
	"$RESIZE" "$@" "$TEST_TMP/r.img" > "$TEST_TMP/out" 2> "$TEST_TMP/err"; rc=$?
	if [ $rc = 1 ] && [ "$(wc -l < "$TEST_TMP/err")" = 1 ] && cmp -s "$img" "$TEST_TMP/r.img"; then
		tap_ok "$name refused: $(cat "$TEST_TMP/err")"
	else
		tap_fail "$name: exit $rc, stderr: $(head -3 "$TEST_TMP/err"), image $(cmp -s "$img" "$TEST_TMP/r.img" && echo same || echo CHANGED)"
	fi
}

# 1. grow within the areas
G1=$TEST_TMP/g1.img
cp --sparse=always "$BASE" "$G1"; truncate -s 768M "$G1"
SEG0=$(sbf "$BASE" segment0_blkaddr)
if "$RESIZE" -s "$G1" > "$TEST_TMP/out" 2>&1 && [ "$(sbf "$G1" segment0_blkaddr)" = "$SEG0" ] &&
   [ "$(sbf "$G1" segment_count_main)" -gt "$(sbf "$BASE" segment_count_main)" ]; then
	tap_ok "grow -s 256 -> 768 MiB: $(head -1 "$TEST_TMP/out")"
else
	tap_fail "grow -s: $(cat "$TEST_TMP/out")"
fi
verify "grow -s to 768 MiB" "$G1" $((768 * 256))
"$RESIZE" "$G1" > "$TEST_TMP/out" 2>&1 && grep -q "nothing to do" "$TEST_TMP/out" &&
	tap_ok "again: $(cat "$TEST_TMP/out")" || tap_fail "again: $(cat "$TEST_TMP/out")"
G3=$TEST_TMP/g3.img
cp --sparse=always "$BASE" "$G3"; truncate -s 3G "$G3"
refused "grow -s to 3 GiB" "$G3" -s
refused "target past the device's end" "$G3" -t $((4 * 1024 * 1024 * 2))

# 2. grow 10x: the metadata areas rebuilt
G10=$TEST_TMP/g10.img
cp --sparse=always "$BASE" "$G10"; truncate -s 2560M "$G10"
if "$RESIZE" "$G10" > "$TEST_TMP/out" 2>&1 && grep -q "metadata areas rebuilt" "$TEST_TMP/out" &&
   [ "$(sbf "$G10" segment0_blkaddr)" = "$(sbf "$BASE" main_blkaddr)" ] &&
   [ "$(sbf "$G10" segment_count_ssa)" -gt "$(sbf "$BASE" segment_count_ssa)" ]; then
	tap_ok "grow 10x to 2560 MiB: $(tr '\n' ' ' < "$TEST_TMP/out")"
else
	tap_fail "grow 10x: $(cat "$TEST_TMP/out"); segment0 $(sbf "$G10" segment0_blkaddr)"
fi
verify "grow 10x" "$G10" $((2560 * 256))
truncate -s 6G "$G10"
"$RESIZE" "$G10" > "$TEST_TMP/out" 2>&1 && grep -q "metadata areas rebuilt" "$TEST_TMP/out" &&
	tap_ok "grown again to 6 GiB: $(head -1 "$TEST_TMP/out")" ||
	tap_fail "grown again: $(cat "$TEST_TMP/out")"
verify "grow again to 6 GiB" "$G10" $((6 * 1024 * 256))

# 3. shrink: put blocks near the end of the 768 MiB volume, then cut below them
S=$TEST_TMP/s.img
cp --sparse=always "$G1" "$S"
MAIN=$(sbf "$S" main_blkaddr)
"$DUMP" --json --segments "$S" > "$TEST_TMP/segs.json"
read -r FIRST LAST < <(python3 - "$TEST_TMP/segs.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))['segments']
used = [e['segno'] for e in s['list'] if e['valid_blocks'] and e['state'] != 'current']
print(min(used), max(used))
EOF
)
TARGET=$((MAIN + 300 * 512))
"$DEFRAG" -s $((MAIN + FIRST * 512)) -l $(( (LAST - FIRST + 1) * 512 )) -t $TARGET "$S" \
	> /dev/null 2>&1 || hard_error "defrag could not move blocks to the end"
HIGH=$("$DUMP" --json --segments "$S" | python3 -c '
import json, sys
s = json.load(sys.stdin)["segments"]
print(max(e["segno"] for e in s["list"] if e["valid_blocks"]))')
[ "$HIGH" -ge 300 ] || hard_error "no block near the end after defrag (highest used segment $HIGH)"
cp --sparse=always "$S" "$TEST_TMP/s_before.img"
if "$RESIZE" -t $((200 * 2048)) "$S" > "$TEST_TMP/out" 2>&1 && grep -q "^shrunk" "$TEST_TMP/out" &&
   [ "$(sbf "$S" segment_count_main)" -lt 200 ]; then
	tap_ok "shrink 768 -> 200 MiB below segment $HIGH: $(tr '\n' ' ' < "$TEST_TMP/out")"
else
	tap_fail "shrink: $(cat "$TEST_TMP/out")"
fi
verify "shrink to 200 MiB" "$S" $((200 * 256))
refused "shrink below the data" "$S" -t $((40 * 2048))

# 3b. a shrink where too few sections are free for the blocks past the cut, though the
# partly valid ones below it hold room: 2 MiB files filling 400 MiB of a 512 MiB volume,
# every third removed (few sections left wholly free), cut to 360 MiB.  The logs go on
# into the holes once no free section is left (SSR).
POPULATE=$OUR_BIN/populate
[ -x "$POPULATE" ] || hard_error "bench/populate is not built"
# filled IMG [FIRST LAST]: 512 MiB, 200 files of 2 MiB, every third one removed, and
# the others from FIRST to LAST too
filled()
{
	local img=$1 i rm=()
	truncate -s 512M "$img"
	"$MKFS" -f -q "$img" >/dev/null 2>&1 || hard_error "mkfs failed"
	ZF2FS_NO_PROGRESS=1 POPULATE_KIB=2048 "$POPULATE" "$img" 201 200 >/dev/null ||
		hard_error "populate failed"
	for i in $(seq 0 199); do
		if [ $((i % 3)) = 0 ] || { [ $# = 3 ] && [ "$i" -ge "$2" ] && [ "$i" -le "$3" ]; }; then
			rm+=("-$(printf 'd00000/f%04d' "$i")")
		fi
	done
	"$POP" "$img" "${rm[@]}" >/dev/null || hard_error "removing every third file failed"
}
FR=$TEST_TMP/frag.img
# and a run of ten, for a few whole free sections below the cut
filled "$FR" 40 49
shas "$FR" > "$TEST_TMP/frag.sha" || hard_error "cannot read the files of the filled image"
if "$RESIZE" -t $((360 * 2048)) "$FR" > "$TEST_TMP/out" 2>&1 && grep -q "^shrunk" "$TEST_TMP/out"; then
	tap_ok "shrink a volume without enough free sections 512 -> 360 MiB: $(tr '\n' ' ' < "$TEST_TMP/out")"
else
	tap_fail "shrink with few free sections: $(cat "$TEST_TMP/out")"
fi
verify "shrink with few free sections" "$FR" $((360 * 256)) "$TEST_TMP/frag.sha"

# 3c. no whole free section below the cut at all: the same fill, every third file removed
# and nothing more, cut to 340 MiB.  The moved blocks go into the holes of the dirty
# sections below it (SSR), where a mover of whole sections has nowhere to start.
FS=$TEST_TMP/ssr.img
filled "$FS"
shas "$FS" > "$TEST_TMP/ssr.sha" || hard_error "cannot read the files of the filled image"
cp --sparse=always "$FS" "$TEST_TMP/ssr_before.img"
# free sections below the new end (no valid block, no log): none to start from
cut_free=$("$DUMP" --json --segments "$FS" | python3 -c '
import json, sys
s = json.load(sys.stdin)["segments"]
cut = (int(sys.argv[1]) - s["main_blkaddr"]) // 512 // s["segs_per_sec"]
busy = set(e["secno"] for e in s["list"] if e["valid_blocks"] or e.get("current"))
print(sum(1 for sec in range(cut) if sec not in busy))' $((340 * 256)))
if [ "$cut_free" -lt 7 ] && "$RESIZE" -t $((340 * 2048)) "$FS" > "$TEST_TMP/out" 2>&1 &&
   grep -q "^shrunk" "$TEST_TMP/out"; then
	tap_ok "shrink with $cut_free free sections below the cut 512 -> 340 MiB (holes filled): $(tr '\n' ' ' < "$TEST_TMP/out")"
else
	tap_fail "shrink into holes ($cut_free free sections): $(cat "$TEST_TMP/out")"
fi
verify "shrink into holes" "$FS" $((340 * 256)) "$TEST_TMP/ssr.sha"

# 3d. the metadata areas fitted to a shrink's new size
FT=$TEST_TMP/fit.img
truncate -s 1100M "$FT"
"$MKFS" -f -q -O extra_attr,inode_checksum,lost_found "$FT" >/dev/null 2>&1 || hard_error "mkfs failed"
age_image "$FT"
shas "$FT" > "$TEST_TMP/fit.sha" || hard_error "cannot read the files of the 1100 MiB image"
cp --sparse=always "$FT" "$TEST_TMP/fit_before.img"
FRESH=$TEST_TMP/fresh600.img
truncate -s 600M "$FRESH"
"$MKFS" -f -q -O extra_attr,inode_checksum,lost_found "$FRESH" >/dev/null 2>&1 || hard_error "mkfs failed"
areas() { for f in segment0_blkaddr nat_blkaddr ssa_blkaddr main_blkaddr segment_count_nat segment_count_ssa segment_count_main; do printf '%s=%s ' $f "$(sbf "$1" $f)"; done; }
[ "$(sbf "$FT" main_blkaddr)" -gt "$(sbf "$FRESH" main_blkaddr)" ] ||
	hard_error "the 1100 MiB volume's areas are not larger than 600 MiB's"
if "$RESIZE" -t $((600 * 2048)) "$FT" > "$TEST_TMP/out" 2>&1 && grep -q "^metadata areas fitted" "$TEST_TMP/out" &&
   [ "$(areas "$FT")" = "$(areas "$FRESH")" ]; then
	tap_ok "shrink 1100 -> 600 MiB, areas as mkfs makes them for 600 MiB ($(areas "$FT")): $(tr '\n' ' ' < "$TEST_TMP/out")"
else
	tap_fail "fitted shrink: $(cat "$TEST_TMP/out"); areas $(areas "$FT"), mkfs's $(areas "$FRESH")"
fi
verify "shrink with the areas fitted" "$FT" $((600 * 256)) "$TEST_TMP/fit.sha"
cp --sparse=always "$TEST_TMP/fit_before.img" "$TEST_TMP/fits.img"
if "$RESIZE" -s -t $((600 * 2048)) "$TEST_TMP/fits.img" > "$TEST_TMP/out" 2>&1 &&
   [ "$(sbf "$TEST_TMP/fits.img" main_blkaddr)" = "$(sbf "$FT" main_blkaddr)" ]; then
	tap_fail "-s: the areas moved: $(areas "$TEST_TMP/fits.img")"
elif [ "$(sbf "$TEST_TMP/fits.img" main_blkaddr)" = "$(sbf "$TEST_TMP/fit_before.img" main_blkaddr)" ] &&
     [ "$(sbf "$TEST_TMP/fits.img" block_count)" = $((600 * 256)) ]; then
	tap_ok "-s: shrunk with the areas kept (main area at block $(sbf "$TEST_TMP/fits.img" main_blkaddr))"
else
	tap_fail "-s shrink: $(cat "$TEST_TMP/out")"
fi
verify "-s shrink" "$TEST_TMP/fits.img" $((600 * 256)) "$TEST_TMP/fit.sha"

# 4. faults (resize_faults.sh): POINTS points spread over the writes (25; 10 in the
# sanitizer build, 5 there unless ZF2FS_FULL=1) and the last 12 (6 there)
. "$(dirname "$0")/resize_faults.sh"
POINTS=25
[ -n "${ASAN_OPTIONS:-}" ] && POINTS=10
[ $IN_SAN = 1 ] && [ $MATRIX_FULL = 0 ] && POINTS=5
fault_files()
{
	shas "$1" > "$TEST_TMP/fsha" && cmp -s "$TEST_TMP/before.sha" "$TEST_TMP/fsha" ||
		{ echo "files changed"; return 1; }
}

fault_loop "faults, grow 10x" "$BASE" 2560M $((256 * 256)) $((2560 * 256))
fault_loop "faults, shrink to 200 MiB" "$TEST_TMP/s_before.img" 768M $((768 * 256)) \
	$((200 * 256)) -t $((200 * 2048))
fault_loop "faults, grow -s to 768 MiB" "$BASE" 768M $((256 * 256)) $((768 * 256)) -s
# the shrink into holes (3c), its files those of the filled image
cp "$TEST_TMP/ssr.sha" "$TEST_TMP/before.sha"
fault_loop "faults, shrink into holes to 340 MiB" "$TEST_TMP/ssr_before.img" 512M $((512 * 256)) \
	$((340 * 256)) -t $((340 * 2048))
# the fitted shrink (3d); running again must also end with mkfs's areas.  Fewer points:
# tests/unit/test_resize_fit faults every write of such a shrink
cp "$TEST_TMP/fit.sha" "$TEST_TMP/before.sha"
POINTS=$((POINTS / 2))
fault_loop "faults, shrink to 600 MiB with the areas fitted" "$TEST_TMP/fit_before.img" 1100M \
	$((1100 * 256)) $((600 * 256)) -t $((600 * 2048))
if [ "$(areas "$TEST_TMP/f.img")" = "$(areas "$FRESH")" ]; then
	tap_ok "the last run after a fault ended with mkfs's areas for 600 MiB"
else
	tap_fail "after the faults: areas $(areas "$TEST_TMP/f.img"), mkfs's $(areas "$FRESH")"
fi
tap_summary
