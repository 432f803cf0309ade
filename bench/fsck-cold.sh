#!/bin/bash
# bench/fsck-cold.sh IMG [ROUNDS]: a cold full check of IMG against the floor, in rounds
# that each read the floor and then check, both after dropping the page cache: our
# fsck.f2fs -f -n, and with REF=1 also Debian's fsck.f2fs 1.15 -f --dry-run.  A cache
# below the page cache (a VM host's) makes one reading of the floor differ from the next
# by up to two times here, so a check is compared with the floor read just before it:
# each round prints both times and their ratio, and the end the median ratio over the
# rounds (default 5).  ZF2FS_NO_PREFETCH=1 in the environment checks without the
# read-ahead thread.  Needs root (/proc/sys/vm/drop_caches) and a built tree
# (top_builddir, default the source tree).  Not a test.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${top_builddir:-$here}" && pwd)
img=${1:?usage: bench/fsck-cold.sh IMG [ROUNDS]}
rounds=${2:-5}
ours=$build/fsck/fsck.f2fs
[ -x "$build/fsck/.libs/fsck.f2fs" ] && ours=$build/fsck/.libs/fsck.f2fs
floor=$build/bench/fsck-floor
[ -x "$build/bench/.libs/fsck-floor" ] && floor=$build/bench/.libs/fsck-floor
ref=/usr/sbin/fsck.f2fs
export LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ZF2FS_NO_PROGRESS=1
[ -w /proc/sys/vm/drop_caches ] || { echo "bench/fsck-cold.sh: needs root (drop_caches)"; exit 1; }
for t in "$ours" "$floor" /usr/bin/time; do
	[ -x "$t" ] || { echo "bench/fsck-cold.sh: $t is needed (build the tree; Debian: time)"; exit 1; }
done
[ "${REF:-0}" = 0 ] || [ -x "$ref" ] || { echo "bench/fsck-cold.sh: REF=1 needs $ref"; exit 1; }
[ -r "$img" ] || { echo "bench/fsck-cold.sh: cannot read $img"; exit 1; }

drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
# timed CMD...: "wall_s peak_KiB" of one run (its output dropped); fails with the command
timed() {
	local t
	t=$(mktemp)
	if ! /usr/bin/time -o "$t" -f "%e %M" "$@" > /dev/null 2>&1; then
		echo "bench/fsck-cold.sh: $* failed" >&2
		rm -f "$t"
		return 1
	fi
	tail -n 1 "$t"
	rm -f "$t"
}

echo "# $(basename "$img"), $rounds rounds, load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %9s %9s %10s %8s' round floor_s ours_s ours_KiB ratio
[ "${REF:-0}" = 0 ] || printf ' %9s %10s %8s' ref_s ref_KiB ratio
echo
ratios=() refratios=()
for r in $(seq "$rounds"); do
	f=$(timed "$floor" --drop-caches "$img" | cut -d' ' -f1)
	drop
	read -r o om < <(timed "$ours" -f -n "$img")
	x=$(awk -v a="$o" -v b="$f" 'BEGIN { printf "%.2f", a / b }')
	ratios+=("$x")
	printf '%-6s %9s %9s %10s %7sx' "$r" "$f" "$o" "$om" "$x"
	if [ "${REF:-0}" != 0 ]; then
		drop
		read -r c cm < <(timed "$ref" -f --dry-run "$img")
		y=$(awk -v a="$c" -v b="$f" 'BEGIN { printf "%.2f", a / b }')
		refratios+=("$y")
		printf ' %9s %10s %7sx' "$c" "$cm" "$y"
	fi
	echo
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "# median ours / floor: $(median "${ratios[@]}")x"
[ "${REF:-0}" = 0 ] || echo "# median 1.15 / floor: $(median "${refratios[@]}")x"
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
