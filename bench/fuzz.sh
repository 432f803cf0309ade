#!/bin/sh
# bench/fuzz.sh - build the libFuzzer targets and run each for a given time.
#
#   bench/fuzz.sh [-t SECONDS] [-j PARALLEL] [-o OUTDIR] [TARGET...]
#
# Targets: volume fsck dump gc (the default), repair (fsck -y, then -n).  The source tree
# is copied under OUTDIR and configured there with clang and --enable-fuzzing (the tree
# itself is left alone); it is rebuilt from scratch when a source file changed.  Seeds
# are small images made by that build's mkfs.f2fs and the base images of tests/images/base,
# packed with fuzz/fuzzimg.py.  Each target runs SECONDS (default 60) with PARALLEL targets
# at a time (default: the number of CPUs); then one line per target:
#   TARGET: SECONDS s, N runs, N exec/s, corpus N, artifacts N
# Targets run in fork mode and go on after a finding: crashes, leaks and timeouts are saved
# as OUTDIR/artifacts/TARGET/{crash,leak,timeout}-*;
# turn one into an image with: fuzz/fuzzimg.py unpack FILE IMAGE, and add it (xz) to
# tests/images/fuzz/ with the fix.  -t 0 runs every seed once through every target and
# fails if one crashes (no fuzzing).
set -eu

secs=60
par=$(nproc 2>/dev/null || echo 2)
out=${TMPDIR:-/tmp}/zf2fs-fuzz
while getopts t:j:o:h opt; do
	case $opt in
	t) secs=$OPTARG ;;
	j) par=$OPTARG ;;
	o) out=$OPTARG ;;
	*) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 16 ;;
	esac
done
shift $((OPTIND - 1))
targets=${*:-volume fsck dump gc}
src=$(cd "$(dirname "$0")/.." && pwd)
command -v clang >/dev/null || { echo "fuzz.sh: needs clang (Debian: apt-get install clang)" >&2; exit 1; }
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 ||
	{ echo "fuzz.sh: needs a git checkout (it builds a copy of the files git knows)" >&2; exit 1; }

# ---- build ------------------------------------------------------------------------------
mkdir -p "$out"
build=$out/build
if [ ! -x "$build/fuzz/fuzz_gc" ] || [ -n "$(find "$src/lib" "$src/fsck" "$src/tools" "$src/fuzz" \
	-newer "$build/fuzz/fuzz_gc" -name '*.[ch]' 2>/dev/null | head -1)" ]; then
	rm -rf "$build"
	mkdir -p "$build"
	(cd "$src" && { git ls-files; git ls-files --others --exclude-standard; } 2>/dev/null |
		sort -u | while read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done) |
		(cd "$src" && tar -cf - -T -) | tar -xf - -C "$build"
	(cd "$build" && ./autogen.sh >/dev/null 2>&1 &&
		./configure -q CC=clang --enable-fuzzing --disable-shared >/dev/null &&
		make -j"$par" >build.log 2>&1) || { tail -30 "$build/build.log" >&2; exit 1; }
fi

# ---- seeds ------------------------------------------------------------------------------
seeds=$out/seeds
if [ ! -d "$seeds" ]; then
	mkdir -p "$seeds.tmp"
	img=$out/seed.img
	i=0
	for opts in "" "-O extra_attr,inode_checksum,flexible_inline_xattr,lost_found" \
		"-O extra_attr,project_quota,quota,inode_crtime,sb_checksum" "-s 2 -O compression,extra_attr" \
		"-O casefold -C utf8" "-i"; do
		rm -f "$img"
		truncate -s 64M "$img"
		# shellcheck disable=SC2086
		ASAN_OPTIONS=detect_leaks=0 "$build/mkfs/mkfs.f2fs" -q -f -r $opts "$img" >/dev/null 2>&1 || continue
		python3 "$src/fuzz/fuzzimg.py" pack "$img" "$seeds.tmp/mkfs$i" >/dev/null
		i=$((i + 1))
	done
	for x in "$src"/tests/images/base/*.img.xz "$src"/tests/images/fuzz/*.img.xz; do
		[ -f "$x" ] || continue
		xz -dc "$x" > "$img"
		python3 "$src/fuzz/fuzzimg.py" pack "$img" "$seeds.tmp/$(basename "$x" .img.xz)" >/dev/null
	done
	rm -f "$img"
	mv "$seeds.tmp" "$seeds"
fi

# ---- run --------------------------------------------------------------------------------
# -t 0: no fuzzing, every seed (the corpus images and all earlier findings) once through
# every target; the exit status says whether one of them crashed.  A smoke test for CI.
if [ "$secs" = 0 ]; then
	failed=0
	for t in $targets; do
		if ASAN_OPTIONS=detect_leaks=1 "$build/fuzz/fuzz_$t" -runs=0 -timeout=60 \
			-close_fd_mask=3 "$seeds" >"$out/$t.log" 2>&1; then
			echo "$t: $(ls "$seeds" | wc -l) seeds, no finding"
		else
			echo "$t: FAILED on a seed (see $out/$t.log)"
			grep -m5 -E 'ERROR|runtime error|SUMMARY' "$out/$t.log" || :
			failed=1
		fi
	done
	exit "$failed"
fi
run_one() {
	t=$1
	mkdir -p "$out/corpus/$t" "$out/artifacts/$t"
	ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$build/fuzz/fuzz_$t" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
		-max_total_time="$secs" -max_len=262144 -timeout=20 -rss_limit_mb=2048 \
		-close_fd_mask=3 \
		-artifact_prefix="$out/artifacts/$t/" "$out/corpus/$t" "$seeds" \
		>"$out/$t.log" 2>&1 || true
}
running=0
for t in $targets; do
	[ -x "$build/fuzz/fuzz_$t" ] || { echo "fuzz.sh: no target '$t'" >&2; exit 16; }
	run_one "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$par" ]; then
		wait
		running=0
	fi
done
wait
for t in $targets; do
	# fork mode's last status line: "#RUNS: cov: .. exec/s N oom/timeout/crash: a/b/c time: Ts"
	last=$(grep '^#[0-9]*: cov:' "$out/$t.log" | tail -1)
	runs=$(printf '%s\n' "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
	time=$(printf '%s\n' "$last" | sed -n 's/.* time: \([0-9]*\)s.*/\1/p')
	eps=$( [ -n "$runs" ] && [ "${time:-0}" -gt 0 ] && echo $((runs / time)) || echo '?')
	crashes=$(find "$out/artifacts/$t" -type f | wc -l)
	echo "$t: ${time:-?} s, ${runs:-?} runs, $eps exec/s, corpus $(ls "$out/corpus/$t" | wc -l), artifacts $crashes"
done
