#!/bin/bash
# Benchmark: our mkfs.f2fs against the reference mkfs.f2fs (Debian's
# f2fs-tools 1.15) formatting a sparse image file (1 TiB unless given).
# Prints side by side the median wall time of 3 runs, the bytes the image
# allocates afterwards, whether the reference fsck finds each image clean,
# and the ratios against the targets (ours at least 5x faster, at most a
# tenth of the allocated bytes).  Both run with their default options, on a
# fresh sparse file each run.  Not a test: it always exits 0 unless a tool
# fails or is missing.
#
#   bench/mkfs.sh [SIZE]        SIZE in truncate(1) syntax, default 1T
#
# Our mkfs is found through $top_builddir, else next to this script;
# REF_MKFS / REF_FSCK override the reference tools.

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$BENCH_DIR/.." && pwd)}"
export top_srcdir
# Helpers shared with the image tests: tool paths, temp dir, ref_fsck.
. "$top_srcdir/tests/images/lib.sh"
need_ref_tools

SIZE=${1:-1T}
RUNS=3

# When our mkfs is a libtool wrapper script (shared build, not installed),
# time the real program under it, as an installed one would run.
OURS=("$MKFS")
OURS_NOTE=
if head -c 4096 "$MKFS" | grep -q 'libtool' &&
   [ -x "$(dirname "$MKFS")/.libs/$(basename "$MKFS")" ]; then
	OURS=(env "LD_LIBRARY_PATH=$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	      "$(dirname "$MKFS")/.libs/$(basename "$MKFS")")
	OURS_NOTE=" (timed without its libtool wrapper)"
fi

now_ns() { date +%s%N; }
to_s() { awk -v n="$1" 'BEGIN { printf "%.4f", n / 1e9 }'; }
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }

# run_bench TOOL...: formats $RUNS fresh images.  Sets MEDIAN (mkfs alone),
# SYNC_MEDIAN (mkfs plus sync(1) of the image, i.e. until its data is on
# disk), TIMES, ALLOC (bytes the last image allocates) and CLEAN (reference
# fsck of the last image).
run_bench()
{
	local img="$TEST_TMP/bench.img" i t0 t1 t2 ns=() sns=() blocks bsize
	TIMES=
	for ((i = 0; i < RUNS; i++)); do
		rm -f "$img"
		truncate -s "$SIZE" "$img"
		sync
		t0=$(now_ns)
		"$@" -q "$img" >"$TEST_TMP/log" 2>&1 ||
			hard_error "$* failed: $(cat "$TEST_TMP/log")"
		t1=$(now_ns)
		sync "$img"
		t2=$(now_ns)
		ns+=($((t1 - t0)))
		sns+=($((t2 - t0)))
		TIMES="$TIMES $(to_s $((t1 - t0)) | sed 's/.$//')"
	done
	MEDIAN=$(to_s "$(median "${ns[@]}")")
	SYNC_MEDIAN=$(to_s "$(median "${sns[@]}")")
	read -r blocks bsize <<<"$(stat -c '%b %B' "$img")"
	ALLOC=$((blocks * bsize))
	if ref_fsck "$img" >"$TEST_TMP/fsck"; then
		CLEAN=clean
	else
		CLEAN="NOT CLEAN"
		cat "$TEST_TMP/fsck" >&2
	fi
	rm -f "$img"
}

run_bench "${OURS[@]}"
O_MED=$MEDIAN O_SMED=$SYNC_MEDIAN O_TIMES=$TIMES O_ALLOC=$ALLOC O_CLEAN=$CLEAN
run_bench "$REF_MKFS"
R_MED=$MEDIAN R_SMED=$SYNC_MEDIAN R_TIMES=$TIMES R_ALLOC=$ALLOC R_CLEAN=$CLEAN

O_VER=$("$MKFS" -V 2>&1 | head -n 1 | sed 's/^mkfs\.f2fs //')
R_VER=$("$REF_MKFS" -V 2>&1 | head -n 1 | sed 's/^mkfs\.f2fs //')

echo "mkfs.f2fs formatting a $SIZE sparse file (median of $RUNS runs, default options)$OURS_NOTE"
printf '%-22s %-30s %s\n' "" "ours" "reference"
printf '%-22s %-30s %s\n' "version" "$O_VER" "$R_VER"
printf '%-22s %-30s %s\n' "wall time (median)" "$O_MED s" "$R_MED s"
printf '%-22s %-30s %s\n' "wall time (runs)" "${O_TIMES# }" "${R_TIMES# }"
printf '%-22s %-30s %s\n' "with sync (median)" "$O_SMED s" "$R_SMED s"
printf '%-22s %-30s %s\n' "allocated bytes" "$O_ALLOC" "$R_ALLOC"
printf '%-22s %-30s %s\n' "reference fsck" "$O_CLEAN" "$R_CLEAN"
awk -v o="$O_MED" -v r="$R_MED" -v os="$O_SMED" -v rs="$R_SMED" -v oa="$O_ALLOC" -v ra="$R_ALLOC" 'BEGIN {
	speed = (o > 0) ? r / o : 0
	printf "speed-up: %.1fx faster (target >= 5x: %s)\n", speed,
		(speed >= 5) ? "met" : "MISSED"
	printf "speed-up including sync: %.1fx\n", (os > 0) ? rs / os : 0
	frac = (ra > 0) ? oa / ra : 0
	printf "allocated: %.4f of the reference, 1/%.0f (target <= 1/10: %s)\n",
		frac, (frac > 0) ? 1 / frac : 0, (frac <= 0.1) ? "met" : "MISSED"
}'
