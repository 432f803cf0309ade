#!/bin/bash
# bench/resize.sh [WORK_DIR]: resize.f2fs, ours against Debian's f2fs-tools 1.15, in one
# run, on sparse image files (WORK_DIR, default $TMPDIR or /tmp; removed at the end).
# Not a test.
#
#  grow:   a 1 TiB volume (our mkfs) holding 2 GiB in two files, grown to 2 TiB: the
#          SIT and SSA must grow.  Ours empties the first sections of the main area and
#          writes new metadata areas there (crash-safe); 1.15 rewrites them in place.
#  shrink: a 64 GiB volume that held 30 GiB in 2 MiB files, every third file then
#          removed (20 GiB left, up to the 30 GiB mark), shrunk to 24 GiB: the blocks
#          past the cut must move.  1.15 shrinks only with -s; both get -s.  Ours runs
#          once more without -s, fitting the metadata areas to the new size (their two
#          moves, include/zf2fs/resize.h): a line of its own, no reference to compare.
# Each side starts from the same volume, built again (bench/populate with POPULATE_KIB,
# deterministic) so that at most one copy is on disk; only resize.f2fs is timed.  Each
# result is checked by both fscks and must keep every file (the count of files and the
# blocks in use).  Prints wall and CPU seconds and the bytes written (rusage block
# output) per side, and the ratio reference/ours.  Sizes can be changed with GROW_FROM,
# GROW_TO, SHRINK_SIZE, SHRINK_FILES (GiB written), SHRINK_TO (all in GiB).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${top_builddir:-$here}
dir=${1:-${TMPDIR:-/tmp}}
GROW_FROM=${GROW_FROM:-1024} GROW_TO=${GROW_TO:-2048}
SHRINK_SIZE=${SHRINK_SIZE:-64} SHRINK_FILES=${SHRINK_FILES:-30} SHRINK_TO=${SHRINK_TO:-24}
mkfs=$build/mkfs/mkfs.f2fs
resize=$build/tools/resize.f2fs
fsck=$build/fsck/fsck.f2fs
pop=$build/bench/populate
rm_tool=$build/tests/images/txn_populate
for t in mkfs resize fsck pop rm_tool; do
	v=${!t}
	d=$(dirname "$v")/.libs/$(basename "$v")
	[ -x "$d" ] && printf -v "$t" '%s' "$d"
done
export LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ZF2FS_NO_PROGRESS=1
ref_resize=${REF_RESIZE:-/usr/sbin/resize.f2fs}
ref_fsck=${REF_FSCK:-/usr/sbin/fsck.f2fs}
for t in /usr/bin/time "$ref_resize" "$ref_fsck" "$mkfs" "$resize" "$fsck" "$pop" "$rm_tool"; do
	[ -x "$t" ] || { echo "bench/resize.sh: $t is needed"; exit 1; }
done
work=$(mktemp -d "$dir/zf2fs-resize-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
img=$work/v.img

# build_grow / build_shrink: the starting volume in $img
build_grow()
{
	rm -f "$img"; truncate -s "${GROW_FROM}G" "$img"
	"$mkfs" -f -q "$img" >/dev/null
	POPULATE_KIB=1048576 "$pop" "$img" 3 >/dev/null
}
build_shrink()
{
	local rm=() d i
	rm -f "$img"; truncate -s "${SHRINK_SIZE}G" "$img"
	"$mkfs" -f -q "$img" >/dev/null
	# a directory per GiB of 2 MiB files (no node block: the transaction removes those)
	POPULATE_KIB=2048 "$pop" "$img" $((SHRINK_FILES * 513)) 512 >/dev/null
	for d in $(seq 0 $((SHRINK_FILES - 1))); do
		for i in $(seq 0 3 511); do rm+=("-$(printf 'd%05d/f%04d' "$d" "$i")"); done
	done
	for i in $(seq 0 200 $((${#rm[@]} - 1))); do   # at most 256 items a run
		"$rm_tool" "$img" "${rm[@]:i:200}" >/dev/null
	done
}

# main_at: where the main area of $img starts
# (awk reads to the end: with pipefail, a reader leaving early fails the pipe)
main_at() { "$build/tools/dump.f2fs" "$img" 2>/dev/null | awk '$1 == "main_blkaddr" && !n { print $2; n = 1 }'; }

# state IMG: files and blocks in use, as our fsck counts them
state() { "$fsck" -f -n "$1" 2>&1 | tail -1 | sed 's/^[^:]*: //; s/;.*//'; }

# timed NAME TOOL ARGS...: runs resize, prints "wall cpu bytes", checks the result
timed()
{
	local name=$1 out; shift
	out=$(/usr/bin/time -f '%e %U %S %O %x' "$@" 2>&1 >/dev/null | tail -1)
	set -- $out
	[ "$5" = 0 ] || echo "  $name: exit $5" >&2
	echo "$1 $(echo "$2 + $3" | bc) $(( $4 * 512 ))"
}

checked()
{
	local name=$1 before=$2 after
	"$fsck" -f -n "$img" >/dev/null 2>&1 || { echo "  $name: our fsck finds problems"; return 1; }
	"$ref_fsck" --dry-run -f "$img" 2>&1 | grep -q '\[Fail\]\|ASSERT' &&
		{ echo "  $name: Debian's fsck finds problems"; return 1; }
	after=$(state "$img")
	[ "$after" = "$before" ] || { echo "  $name: $before before, $after after"; return 1; }
	echo "  $name: both fscks clean, $after"
}

row()
{
	local what=$1 ours=$2 ref=$3
	set -- $ours; local ow=$1 oc=$2 ob=$3
	set -- $ref; local rw=$1 rc=$2 rb=$3
	printf '| %s | %s s | %s s | %.1fx | %s s / %s s | %d MiB | %d MiB |\n' "$what" "$ow" "$rw" \
		"$(echo "$rw / ($ow + 0.001)" | bc -l)" "$oc" "$rc" $((ob >> 20)) $((rb >> 20))
}

echo "load $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
echo "grow ${GROW_FROM} GiB -> ${GROW_TO} GiB, holding 2 GiB"
build_grow; before=$(state "$img"); truncate -s "${GROW_TO}G" "$img"
g_ours=$(timed ours "$resize" "$img"); checked ours "$before"
build_grow; truncate -s "${GROW_TO}G" "$img"
g_ref=$(timed ref "$ref_resize" "$img"); checked "1.15" "$before" || :
echo "shrink ${SHRINK_SIZE} GiB -> ${SHRINK_TO} GiB, holding $(( (SHRINK_FILES * 341 + 256) / 512 )) GiB"
build_shrink; before=$(state "$img")
s_ours=$(timed ours "$resize" -s -t $((SHRINK_TO * 2097152)) "$img"); checked ours "$before"
main_s=$(main_at)
build_shrink
s_fit=$(timed ours-fit "$resize" -t $((SHRINK_TO * 2097152)) "$img"); checked "ours without -s" "$before"
echo "  ours without -s: main area at block $(main_at) (with -s: $main_s; the same when too" \
	"few sections are free to fit the areas)"
build_shrink
s_ref=$(timed ref "$ref_resize" -s -t $((SHRINK_TO * 2097152)) "$img"); checked "1.15" "$before" || :
echo
echo "| case | ours | 1.15 | 1.15/ours | CPU ours / 1.15 | written ours | written 1.15 |"
echo "|---|---|---|---|---|---|---|"
row "grow ${GROW_FROM} -> ${GROW_TO} GiB" "$g_ours" "$g_ref"
row "shrink ${SHRINK_SIZE} -> ${SHRINK_TO} GiB" "$s_ours" "$s_ref"
set -- $s_fit
echo
echo "ours without -s (the metadata areas fitted where free sections allow): $1 s wall, $2 s CPU, $(($3 >> 20)) MiB written"
