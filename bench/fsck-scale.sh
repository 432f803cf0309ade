#!/bin/bash
# bench/fsck-scale.sh [DIR]: fsck.f2fs's time and peak memory against the volume's size and
# its number of inodes, ours and Debian's fsck.f2fs 1.15 side by side in one run.  Not a test.
#
# Volumes (sparse files in DIR, default $TMPDIR or /tmp, removed at the end):
#   - empty volumes of $SIZES (default "1G 100G 15T"), made by our mkfs.f2fs;
#   - a volume of $FILES inodes (default 100000; 0 skips it; the 10 million case is
#     FILES=10000000), in directories of 1000 files, every hundredth with a data block and
#     the others empty, written by bench/populate through lib/write/txn.c into a volume of about
#     6.4 KiB per inode (64 GiB for 10 million: 39 GiB of it in use).  Both fscks must find
#     it clean, else the script stops.  populate wrote 1 million inodes in 34 s and 10
#     million in 4.4 minutes (16 under load 9) (Debian's sload.f2fs, used before, took 57 s for
#     100,000 files and was slower than linear beyond); $FILES_IMG names a ready image
#     instead (it is not removed).
#
# Measured here (load average 9-12 from other work on 2 cores): see docs/benchmarks.md.
# The 10 million case: FILES=10000000 (5-16 minutes to make, 39 GiB in use, then
# about 25 minutes of fsck runs, most of them the reference's).
# For each volume and tool: the boot-time check of a clean volume (ours -a; the
# reference's -a, which also skips a clean volume) and a full read-only check (ours -f -n;
# the reference's -f --dry-run), with a cold page cache (sync, then
# /proc/sys/vm/drop_caches, when writable: needs root) and warm (the best of two runs after
# that).  Wall seconds, CPU seconds (user + system) and peak RSS from /usr/bin/time; then
# the ratios reference/ours for time and ours/reference for memory.  On a shared machine
# the CPU seconds are the steadier figure.
# The floor (when the cache can be dropped): before and after each volume's runs,
# bench/fsck-floor --drop-caches reads the blocks a full check must read, in address
# order and in reads of up to 1 MiB (docs/benchmarks.md); its rows (tool "floor") give
# the seconds of that reading, and the last lines give each cold full check's wall time
# as a multiple of the smaller of the two (a cache below the page cache, such as a VM
# host's, makes the first or the last reading the slower).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${top_builddir:-$here}
dir=${1:-${TMPDIR:-/tmp}}
SIZES=${SIZES:-1G 100G 15T}
FILES=${FILES:-100000}
FILES_IMG=${FILES_IMG:-}
fsck=$build/fsck/fsck.f2fs
mkfs=$build/mkfs/mkfs.f2fs
[ -x "$build/fsck/.libs/fsck.f2fs" ] && fsck=$build/fsck/.libs/fsck.f2fs
[ -x "$build/mkfs/.libs/mkfs.f2fs" ] && mkfs=$build/mkfs/.libs/mkfs.f2fs
export LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ZF2FS_NO_PROGRESS=1
ref=${REF_FSCK:-/usr/sbin/fsck.f2fs}
populate=$build/bench/populate
[ -x "$build/bench/.libs/populate" ] && populate=$build/bench/.libs/populate
floor=$build/bench/fsck-floor
[ -x "$build/bench/.libs/fsck-floor" ] && floor=$build/bench/.libs/fsck-floor
for t in /usr/bin/time "$ref"; do
	[ -x "$t" ] || { echo "bench/fsck-scale.sh: $t is needed (Debian: time, f2fs-tools)"; exit 1; }
done
work=$(mktemp -d "$dir/zf2fs-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
cold=false
[ -w /proc/sys/vm/drop_caches ] && cold=true
$cold || echo "# /proc/sys/vm/drop_caches is not writable: warm cache only, no floor"
$cold && [ ! -x "$floor" ] && { echo "bench/fsck-scale.sh: $floor is not built"; exit 1; }
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

results=$work/results
: > "$results"

# measure CASE TOOL MODE CACHE CMD...: one timed run, appended to the results
measure()
{
	local c=$1 tool=$2 mode=$3 cache=$4
	shift 4
	/usr/bin/time -o "$work/time" -f '%e %U %S %M' "$@" > "$work/out" 2>&1 || :
	# shellcheck disable=SC2046
	set -- $(tail -1 "$work/time")
	printf '%-10s %-4s %-6s %-5s %9s %9s %11s\n' "$c" "$tool" "$mode" "$cache" "$1" \
		"$(echo "$2 + $3" | bc)" "$4" | tee -a "$results"
}

# measure_floor CASE IMG: bench/fsck-floor's reading time, cold, appended to the results
measure_floor()
{
	local c=$1 s
	"$floor" --drop-caches "$2" > "$work/floor" 2>&1 ||
		{ echo "bench/fsck-scale.sh: fsck-floor failed on $c:"; cat "$work/floor"; exit 1; }
	sed "s/^/# $c: /" "$work/floor"
	s=$(sed -n 's/^floor: .*, \([0-9.]*\) s, .*/\1/p' "$work/floor")
	printf '%-10s %-4s %-6s %-5s %9s %9s %11s\n' "$c" floor full cold "$s" - - |
		tee -a "$results"
}

# run_case CASE IMG: the floor, both tools, both modes, cold and warm, the floor again
run_case()
{
	local c=$1 img=$2 mode tool
	! $cold || measure_floor "$c" "$img"
	for mode in preen full; do
		for tool in ours ref; do
			local -a cmd
			if [ "$tool" = ours ]; then
				[ "$mode" = preen ] && cmd=("$fsck" -a "$img") || cmd=("$fsck" -f -n "$img")
			else
				[ "$mode" = preen ] && cmd=("$ref" -a "$img") ||
					cmd=("$ref" -f --dry-run "$img")
			fi
			if $cold; then
				sync
				echo 3 > /proc/sys/vm/drop_caches
				measure "$c" "$tool" "$mode" cold "${cmd[@]}"
			fi
			"${cmd[@]}" > /dev/null 2>&1 || :
			measure "$c" "$tool" "$mode" warm "${cmd[@]}"
		done
	done
	! $cold || measure_floor "$c" "$img"
}

printf '%-10s %-4s %-6s %-5s %9s %9s %11s\n' volume tool mode cache wall_s cpu_s peak_KiB
for size in $SIZES; do
	img=$work/empty-$size.img
	truncate -s "$size" "$img"
	"$mkfs" -f -q "$img" > /dev/null
	run_case "$size" "$img"
	rm -f "$img"
done

if [ -n "$FILES_IMG" ] || [ "$FILES" -gt 0 ]; then
	if [ -n "$FILES_IMG" ]; then
		img=$FILES_IMG
	else
		[ -x "$populate" ] || { echo "bench/fsck-scale.sh: $populate is not built"; exit 1; }
		img=$work/files.img
		# 4 KiB of node per inode, and room for the overprovision and the logs
		mib=$(( FILES * 64 / 10 / 1024 ))
		[ "$mib" -ge 1024 ] || mib=1024
		truncate -s "${mib}M" "$img"
		"$mkfs" -f -q "$img" > /dev/null
		start=$(date +%s)
		"$populate" "$img" "$FILES" > /dev/null
		echo "# populate of $FILES inodes into ${mib} MiB: $(( $(date +%s) - start )) s"
	fi
	"$fsck" -f -n "$img" > "$work/ours.txt" 2>&1 ||
		{ echo "our fsck finds the files volume unclean:"; cat "$work/ours.txt"; exit 1; }
	"$ref" -f --dry-run "$img" > "$work/ref.txt" 2>&1 ||
		{ echo "the reference finds the files volume unclean:"; tail "$work/ref.txt"; exit 1; }
	echo "# files volume: $(tail -1 "$work/ours.txt")"
	run_case "files" "$img"
fi

echo "# ratios: reference/ours wall (cpu) time, ours/reference peak memory"
awk '{ k = $1 " " $3 " " $4 }
     $2 == "ours" { ow[k] = $5; oc[k] = $6; om[k] = $7 }
     $2 == "ref"  { rw[k] = $5; rc[k] = $6; rm[k] = $7 }
     function ratio(r, o) { if (r < 0.01 && o < 0.01) return "    -"; return sprintf("%5.1fx", r / (o > 0.005 ? o : 0.005)) }
     END { for (k in ow) if (k in rw)
		printf "%-22s %s (%s cpu)  memory %.3f\n", k, ratio(rw[k], ow[k]),
		       ratio(rc[k], oc[k]), om[k] / rm[k] }' "$results" | sort
if $cold; then
	echo "# cold full check against the floor: wall time / the smaller floor time"
	awk '$4 == "cold" && $3 == "full" { k = $1 " " $2
		if (!(k in t) || $2 != "floor" || $5 < t[k]) t[k] = $5
		if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
	     function x(v, f) { return f > 0.0005 ? sprintf("%6.1fx", v / f) : "     -" }
	     END { for (i = 0; i < n; i++) { c = order[i]; f = t[c " floor"]
		printf "%-10s floor %7.3f s  ours %7.2f s = %s  ref %7.2f s = %s\n", c, f,
		       t[c " ours"], x(t[c " ours"], f), t[c " ref"], x(t[c " ref"], f) } }' "$results"
fi
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
