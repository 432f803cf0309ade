#!/bin/sh
# gc-state.sh - SIT read speed of gc.f2fs state on a large sparse image.
#
# mkfs.f2fs -q on a sparse file of SIZE (default 15T), then gc.f2fs state -v,
# which times the SIT load (both copies' live blocks, journal applied) and
# prints MB/s; the run is repeated with a cold page cache when we may drop it.
# Usage: bench/gc-state.sh [SIZE [DIR]]
# Environment: GC_F2FS, MKFS_F2FS (default: the build tree's).
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$here}
gc=${GC_F2FS:-$b/tools/gc.f2fs}
mkfs=${MKFS_F2FS:-$b/mkfs/mkfs.f2fs}
size=${1:-15T}
dir=${2:-${TMPDIR:-/tmp}}
img=$dir/gc-state-bench.$$.img
trap 'rm -f "$img"' EXIT INT TERM
rm -f "$img"
truncate -s "$size" "$img"
t0=$(date +%s.%N)
"$mkfs" -q "$img"
t1=$(date +%s.%N)
echo "mkfs.f2fs -q on a $size sparse image: $(echo "$t1 - $t0" | bc) s"
sync
if [ -w /proc/sys/vm/drop_caches ]; then
	echo 3 >/proc/sys/vm/drop_caches
	echo "== cold page cache"
else
	echo "== page cache as mkfs left it (cannot drop caches)"
fi
/usr/bin/time -f "gc.f2fs state: %e s wall, %M KiB max RSS" "$gc" state -v "$img" |
	sed -n '/^SIT read/p; /^sections:/p; /^[^ ]*: [0-9]* sections/p'
echo "== warm page cache"
"$gc" state -v "$img" | sed -n '/^SIT read/p'
"$gc" state --json "$img" | sed -n 's/.*"sit_read": \(.*\)}$/sit_read \1/p'
