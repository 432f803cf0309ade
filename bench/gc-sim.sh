#!/bin/sh
# gc-sim.sh - speed of gc.f2fs simulate: simulated block writes per second on one core.
#
# A volume of 953 zones of 64 MiB (the 2023 patch's null_blk, with a 448 MiB
# conventional device for metadata) is filled to 90% of its free user blocks with
# 64 MiB files and driven by random 4 KiB overwrites to steady state (about twice
# the volume), both with mode=lfs as zoned volumes run; then a 64 GiB regular
# volume in mode=adaptive (SSR once free sections run low, buffered writes out of
# place) and the 2 GiB case of 2013 (sync rewrites of 32 KiB files, mode=lfs).  The
# rate counts every block the simulation wrote: fill, host data, nodes, GC moves and
# checkpoint blocks, per second of wall clock and per second of CPU (the figure that
# counts on a shared machine).  Target: at least 10 million per second.
#
# Then the 2023 patch at its own scale: fio randwrite 4 KiB over ONE file of 58,630 MiB
# (the whole user space) on the same volume, one pass over the file (15 million
# overwrites).  -Z 8 -o 2.965 at that fill; the automatic reserve at that fill leaves
# fewer free sections than it reserves (every write runs foreground GC on a nearly full
# 64 MiB section), so it runs PATCH_AUTO_OPS (default 20000) writes only; and both
# variants side by side (--compare reserved=auto,8 --equal-op, two threads) on a file
# of 58,300 MiB, the size at which the model's automatic reserve gives the patch's WAF
# of 222 (see docs/gc-simulate.md): the wall-clock target, under 60 s for both.
#
#   sh bench/gc-sim.sh [BUILDDIR]       (OPS=... to change the overwrite count; PATCH=0
#                                         skips the patch's cases, PATCH=only runs them)
set -e
top=${1:-$(dirname "$0")/..}
gc=$top/tools/gc.f2fs
[ -x "$gc" ] || { echo "gc-sim: $gc is not built" >&2; exit 1; }
ops=${OPS:-30000000}

run() {
	label=$1
	shift
	out=$("$gc" simulate "$@" -v) || { echo "$out"; exit 1; }
	rate=$(echo "$out" | sed -n 's/^simulated \([0-9]*\) block writes in \([0-9.]*\) s (\([0-9.]*\) M\/s); CPU \([0-9.]*\) s (\([0-9.]*\) M\/s)/\1 \2 \3 \4 \5/p')
	set -- $rate
	waf=$(echo "$out" | sed -n 's/^WAF: //p')
	printf '%-34s %10s blocks  wall %6s s %5s M/s  CPU %6s s %5s M/s  WAF %s\n' "$label" \
		"$1" "$2" "$3" "$4" "$5" "$waf"
}

patch_case() {
	pops=${PATCH_OPS:-15000000}
	run "patch file 58630M, -Z 8 -o 2.965" --zoned 953:64M --conv-dev 448M -Z 8 -o 2.965 \
		--files 1 --file-size 58630M --ops "$pops" --samples 0
	run "patch file 58630M, -Z auto" --zoned 953:64M --conv-dev 448M --files 1 \
		--file-size 58630M --ops "${PATCH_AUTO_OPS:-20000}" --samples 0 2>/dev/null
	t0=$(date +%s.%N)
	out=$(ZF2FS_NO_PROGRESS=1 "$gc" simulate --zoned 953:64M --conv-dev 448M --files 1 \
		--file-size 58300M --ops "$pops" --compare reserved=auto,8 --equal-op \
		--samples 0 -v) || { echo "$out"; exit 1; }
	t1=$(date +%s.%N)
	echo "compare reserved=auto,8 --equal-op, one 58300M file, $pops overwrites:"
	echo "$out" | sed -n 's/^\(auto\|8\): WAF/  \1: WAF/p'
	echo "  both variants: wall $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s (target: under 60 s)"
}

echo "gc-sim: $(nproc 2>/dev/null || echo '?') CPUs, one used per variant"
if [ "${PATCH:-1}" = only ]; then
	patch_case
	exit 0
fi
run "953 x 64 MiB zones, -Z auto" --zoned 953:64M --conv-dev 448M --file-size 64M --fill 90 \
	--ops "$ops" --samples 0
run "953 x 64 MiB zones, -Z 8 -o 2.965" --zoned 953:64M --conv-dev 448M -Z 8 -o 2.965 \
	--file-size 64M --fill 90 --ops "$ops" --samples 0
run "64 GiB, mode=adaptive (SSR)" --size 64G --mode adaptive --fill 85 --ops $((ops / 3)) \
	--samples 0
run "2 GiB, 2013 case (sync), lfs" --preset 2013 --mode lfs --samples 0
[ "${PATCH:-1}" = 0 ] || patch_case
