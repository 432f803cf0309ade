#!/bin/sh
# gc-replay.sh - victim selection through the index vs the reference scan.
#
# A random volume of SEGMENTS segments (10% free, 10% full, the rest dirty
# with 64 distinct valid counts, so many equal costs), SELECTIONS selections
# in a row, once with the index and once with the plain scan; both must give
# the same victims (the run fails otherwise).  Background steps only mark
# their victims, as the kernel's victim_secmap does: once the cursor creeps
# (a stop after the wrap restarts at the old cursor + 1, as in the kernel)
# its window fills with marked sections and selections find nothing.  Usage: bench/gc-replay.sh [SEGMENTS [SELECTIONS]]
# Environment: GC_F2FS (default: tools/gc.f2fs of the build tree).
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
gc=${GC_F2FS:-${top_builddir:-$here}/tools/gc.f2fs}
segs=${1:-1048576}
sels=${2:-100000}
[ -x "$gc" ] || { echo "gc-replay: $gc not built" >&2; exit 1; }
# Foreground steps (greedy or cost-benefit) move each victim's blocks into
# the cold log, so every selection sees a changed volume; only the selection
# is timed.  fixed:4096 is the kernel's background window (foreground scans
# every dirty unit in 6.1: see "all" below).
for spec in "--gc-type fg --policy greedy --search fixed:4096" \
	    "--gc-type fg --policy cb --search fixed:4096" \
	    "--gc-type fg --policy greedy --search fixed:4096 --segs-per-sec 4" \
	    "--gc-type fg --policy greedy --search fixed:20" \
	    "--gc-type fg --policy greedy --search proportional" \
	    "--gc-type bg --policy cb"; do
	echo "== $gc bench --segments $segs --selections $sels $spec"
	# shellcheck disable=SC2086 # the options are words
	"$gc" bench --segments "$segs" --selections "$sels" $spec
done
# Without a window (what 6.1 does for foreground GC) the scan visits every
# dirty unit: fewer selections, compare the per-selection figures.
all=$((sels / 100))
echo "== $gc bench --segments $segs --selections $all --gc-type fg --policy greedy --search all"
"$gc" bench --segments "$segs" --selections "$all" --gc-type fg --policy greedy --search all
