#!/bin/bash
# bench/sload.sh [SOURCE_DIR] [WORK_DIR]: a directory tree loaded into a fresh image in one
# run by ours (mkfs.f2fs + sload.f2fs) and by Debian's f2fs-tools 1.15 (mkfs.f2fs +
# sload.f2fs), side by side.  Not a test.
#
# SOURCE_DIR (default /usr/share: a read-only part of /usr, about 1 GB in 70,000 paths)
# is only read.  The image (a sparse file in WORK_DIR, default $TMPDIR or /tmp, removed at
# the end) is twice the tree's size plus 1 GiB.  Each side: mkfs then sload with -P -T 0,
# timed together, best of $RUNS (default 1) runs; the page cache of the source is warmed
# by a first read so that both sides read it from memory.  Both images are checked by
# both fscks after the timed runs (a failed check stops the script).  Prints wall and CPU
# (user + system) seconds and peak RSS per side, and the ratio reference/ours.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${top_builddir:-$here}
src=${1:-/usr/share}
dir=${2:-${TMPDIR:-/tmp}}
RUNS=${RUNS:-1}
mkfs=$build/mkfs/mkfs.f2fs
sload=$build/tools/sload.f2fs
fsck=$build/fsck/fsck.f2fs
[ -x "$build/mkfs/.libs/mkfs.f2fs" ] && mkfs=$build/mkfs/.libs/mkfs.f2fs
[ -x "$build/tools/.libs/sload.f2fs" ] && sload=$build/tools/.libs/sload.f2fs
[ -x "$build/fsck/.libs/fsck.f2fs" ] && fsck=$build/fsck/.libs/fsck.f2fs
export LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ZF2FS_NO_PROGRESS=1
ref_mkfs=${REF_MKFS:-/usr/sbin/mkfs.f2fs}
ref_sload=${REF_SLOAD:-/usr/sbin/sload.f2fs}
ref_fsck=${REF_FSCK:-/usr/sbin/fsck.f2fs}
for t in /usr/bin/time "$ref_mkfs" "$ref_sload" "$ref_fsck" "$mkfs" "$sload"; do
	[ -x "$t" ] || { echo "bench/sload.sh: $t is needed"; exit 1; }
done
work=$(mktemp -d "$dir/zf2fs-sload-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

kib=$(du -sk "$src" | cut -f1)
paths=$(find "$src" | wc -l)
size=$(( (kib * 2 / 1024 + 1024) ))M
echo "source $src: $((kib / 1024)) MiB, $paths paths; image $size; load $(cut -d' ' -f1-3 /proc/loadavg)"
find "$src" -type f -print0 | xargs -0 cat > /dev/null 2>&1 || :   # warm the page cache

# run NAME MKFS SLOAD: best wall time of $RUNS runs of mkfs + sload on a fresh image
run()
{
	local name=$1 mk=$2 sl=$3 best= line
	for _ in $(seq "$RUNS"); do
		rm -f "$work/$name.img"
		truncate -s "$size" "$work/$name.img"
		line=$(/usr/bin/time -f '%e %U %S %M' bash -c '
			"$1" -f -q "$3" >/dev/null 2>&1 || { echo "mkfs failed" >&2; exit 1; }
			"$2" -f "$4" -P -T 0 "$3" >/dev/null || { echo "sload failed" >&2; exit 1; }' \
			x "$mk" "$sl" "$work/$name.img" "$src" 2>&1 >/dev/null | tail -1)
		if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
			best=$line
		fi
	done
	echo "$best"
}

ours=$(run ours "$mkfs" "$sload")
theirs=$(run ref "$ref_mkfs" "$ref_sload")
for n in ours ref; do
	"$fsck" -f -n "$work/$n.img" > "$work/$n.fsck" 2>&1 || { echo "our fsck: $n image not clean"; tail "$work/$n.fsck"; exit 1; }
	"$ref_fsck" --dry-run -f "$work/$n.img" > "$work/$n.rfsck" 2>&1 || { echo "Debian's fsck: $n image not clean"; tail "$work/$n.rfsck"; exit 1; }
	! grep -q '\[Fail\]' "$work/$n.rfsck" || { echo "Debian's fsck: $n image not clean"; grep Fail "$work/$n.rfsck"; exit 1; }
done
printf '%-28s %8s %8s %10s\n' "mkfs + sload" "wall s" "cpu s" "peak MiB"
for r in "ours:$ours" "f2fs-tools 1.15:$theirs"; do
	read -r e u s m <<< "${r#*:}"
	printf '%-28s %8.2f %8.2f %10.1f\n' "${r%%:*}" "$e" "$(echo "$u + $s" | bc)" "$(echo "$m / 1024" | bc -l)"
done
read -r e1 u1 s1 _ <<< "$ours"
read -r e2 u2 s2 _ <<< "$theirs"
echo "ratio reference/ours: wall $(echo "scale=2; $e2 / $e1" | bc)x, cpu $(echo "scale=2; ($u2 + $s2) / ($u1 + $s1)" | bc)x"
echo "both images clean for both fscks"
