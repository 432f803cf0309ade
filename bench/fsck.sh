#!/bin/bash
# bench/fsck.sh [DIR]: our fsck.f2fs -f -n against Debian's fsck.f2fs 1.15 -f --dry-run
# (--dry-run: the cached image is never written) on one kernel-aged image with at least
# 200,000 inodes and 8 GiB in use, side by side: wall time and peak RSS (/usr/bin/time),
# each timed once after an untimed run of both, so that both read the image from the page
# cache.  Also prints both verdicts, the load average, and the inode count and GiB in use
# from our summary line.  Then, when /proc/sys/vm/drop_caches is writable (root), the
# floor column: bench/fsck-floor --drop-caches reads the blocks a full check must read, in
# address order and in reads of up to 1 MiB (docs/benchmarks.md), and each fsck runs once
# more after dropping the caches; each cold wall time is also given as a multiple of the
# floor's: the smaller of two readings, one before the cold runs and one after them (a
# cache below the page cache, such as a VM host's, makes the first or the last the
# slower).  Not a test.
#
# The image, DIR/fsck-200k-aged.img (DIR defaults to /var/tmp/zf2fs-bench), is built once
# and reused; DIR/fsck-200k-aged.txt says how and when.  Building it: a 24 GiB volume made
# by our mkfs, loaded by Debian's sload.f2fs with 2,000 directories of 100 small files and
# 8 files of 1 GiB (orderly: every file contiguous, nids in tree order), then aged by Linux
# in the kernel bench VM (tests/vm/vmlib.sh, qemu TCG) with bench/age.c in 20 rounds, each
# ending with a checkpoint: 30% of the small files deleted, spread over all directories;
# as many new files plus 2% created in the first 15 rounds, a third in the old directories'
# freed slots and the rest in new directories (they take the freed nids, scattered); the
# nids freed in the last 5 rounds stay holes in the NAT; 300,000 random 4 KiB overwrites
# inside the big files (fragmented extents, rewritten direct nodes, thousands of partly
# valid segments); appends, truncations, renames across directories, hard links, fsync'd
# and fdatasync'd writes; then a clean unmount.  Both fscks must find the aged image
# clean: otherwise the problem lines are printed, the image is kept aside as
# DIR/fsck-200k-aged.unclean.img and the script fails.
#
# Measured here (2 cores shared with other work, load average 0.2): building 526 s (tree,
# mkfs, sload) plus aging 120 s (one boot; bench/age.c 107 s); the aged image has 203,007
# inodes (2,390 directories), 10.67 GiB in use, 16,690 NAT holes below the last used nid,
# 4,925 partly valid data and 576 partly valid node segments.  Two runs: ours 0.33 s /
# 6,444 KiB and 0.32 s / 6,476 KiB, 1.15 1.71 s / 6,580 KiB and 1.70 s / 6,700 KiB: 5.2x and
# 5.3x faster with 0.98 and 0.97 of its peak RSS.  Under load 9 the build took 1,247 s.
#
# Environment: top_builddir (default: the source tree), ZF2FS_BENCH_DIR, and the kernel
# bench's ZF2FS_VM_* variables (tests/vm/README.md).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${top_builddir:-$here}
build=$(cd "$build" && pwd)
dir=${1:-${ZF2FS_BENCH_DIR:-/var/tmp/zf2fs-bench}}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
ours=$build/fsck/fsck.f2fs
[ -x "$build/fsck/.libs/fsck.f2fs" ] && ours=$build/fsck/.libs/fsck.f2fs
floor=$build/bench/fsck-floor
[ -x "$build/bench/.libs/fsck-floor" ] && floor=$build/bench/.libs/fsck-floor
export LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ZF2FS_NO_PROGRESS=1
ref=/usr/sbin/fsck.f2fs
img=$dir/fsck-200k-aged.img
for t in /usr/sbin/sload.f2fs "$ref" /usr/bin/time "$ours" "$build/mkfs/mkfs.f2fs"; do
	[ -x "$t" ] || { echo "bench/fsck.sh: $t is needed (build ours; Debian: f2fs-tools, time)"; exit 1; }
done

# vm_fsck_problems from the kernel bench: the lines of 1.15's output that mean trouble.  With
# -f, 1.15 opens with "Info: Force to fix corruption", which is its banner for -f, not a finding.
ref_problems() {
	# shellcheck source=tests/vm/vmlib.sh
	(set +eu; top_srcdir=$here top_builddir=$build; . "$here/tests/vm/vmlib.sh"; vm_fsck_problems "$1") |
		grep -v '^Info: Force to fix corruption$'
}

# Both fscks on an image; prints their verdicts, returns non-zero unless both are clean.
check_clean() {
	local rc ok=0 p
	rc=0
	"$ours" -f -n "$1" >"$dir/ours.out" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "our fsck -f -n: clean (exit 0)"
	else
		echo "our fsck -f -n: exit $rc on $1:"
		grep -v '^Info' "$dir/ours.out" | head -n 40 | sed 's/^/  ours: /'
		ok=1
	fi
	rc=0
	"$ref" -f --dry-run "$1" >"$dir/ref.out" 2>&1 || rc=$?
	p=$(ref_problems "$dir/ref.out" || true)
	if [ "$rc" -eq 0 ] && [ -z "$p" ]; then
		echo "fsck.f2fs 1.15 -f --dry-run: clean (exit 0, no problem lines)"
	else
		echo "fsck.f2fs 1.15 -f --dry-run: exit $rc on $1, problem lines:"
		echo "$p" | head -n 40 | sed 's/^/  1.15: /'
		ok=1
	fi
	return $ok
}

# age_in_vm IMAGE: one boot of the kernel bench VM with IMAGE attached; bench/age.c runs on
# it, then a clean unmount.  The guest's lines go to the terminal.
age_in_vm() {
	(
		set +eu
		top_srcdir=$here
		top_builddir=$build
		# shellcheck source=tests/vm/vmlib.sh
		. "$here/tests/vm/vmlib.sh"
		# the aging takes longer than a scenario's boot
		VM_TIMEOUT=${ZF2FS_VM_TIMEOUT:-3600}
		vm_setup bench-fsck-age "age the fsck bench image with Linux"
		agebin=$VM_ROOT/cache/age
		${CC:-gcc} -std=gnu11 -O2 -Wall -Wextra -static -o "$agebin" "$here/bench/age.c" ||
			vm_error "cannot build bench/age.c statically (needs libc6-dev)"
		ln -s "$1" "$(vm_img bench)"
		vm_attach bench
		vm_tool "$agebin" age
		vm_guest <<-'EOF'
		zmount bench /mnt/a
		df -k /mnt/a | sed 's/^/info: /'
		age /mnt/a 4 300 300000 20
		sync
		zstatus | grep -iE 'GC calls|utiliz' | sed 's/^/info: status: /'
		zumount /mnt/a
		EOF
		vm_boot
		grep '^age:' "$VM_OUT/boot1.log" | sed 's/^/  guest: /'
		rm -f "$(vm_img bench)"
		[ "$VM_FAILED" -eq 0 ] || exit 1
		rm -rf "$VM_OUT/stage" "$VM_OUT/initrd.cpio"
	)
}

if [ ! -f "$img" ]; then
	work=$img.tmp
	src=$dir/src
	t0=$(date +%s)
	rm -rf "$src" "$work"
	mkdir -p "$src"
	echo "building the source tree: 200,000 small files in 2,000 directories, 8 x 1 GiB"
	python3 - "$src" <<'PY'
import os, sys
root = sys.argv[1]
for d in range(2000):
    p = os.path.join(root, 'd%04d' % d)
    os.mkdir(p)
    for f in range(100):
        with open(os.path.join(p, 'f%03d' % f), 'wb') as fh:
            fh.write(b'%d-%d ' % (d, f) * (50 + (d * 7 + f * 13) % 900))
blk = bytes(range(256)) * 4096
for b in range(8):
    with open(os.path.join(root, 'big%d' % b), 'wb') as fh:
        for _ in range(1024):
            fh.write(blk)
PY
	truncate -s 24G "$work"
	"$build/mkfs/mkfs.f2fs" -q -f "$work"
	echo "loading it with sload.f2fs (a few minutes)"
	/usr/sbin/sload.f2fs -f "$src" "$work" >"$dir/sload.log" 2>&1 || true
	rm -rf "$src"
	t1=$(date +%s)
	echo "built in $((t1 - t0)) s; aging it in the kernel bench VM (TCG: a few minutes)"
	if ! age_in_vm "$work" 2>&1 | tee "$dir/age.log"; then
		echo "bench/fsck.sh: aging failed; the image is left as $work," \
			"the console log under $build/tests/vm/out/"
		exit 1
	fi
	t2=$(date +%s)
	echo "aged in $((t2 - t1)) s"
	if ! check_clean "$work"; then
		mv "$work" "$dir/fsck-200k-aged.unclean.img"
		echo "bench/fsck.sh: the kernel-aged image does not check clean: kept as" \
			"$dir/fsck-200k-aged.unclean.img (outputs: $dir/ours.out, $dir/ref.out)"
		exit 1
	fi
	{
		echo "made $(date -u +%FT%TZ) by bench/fsck.sh: mkfs $build/mkfs/mkfs.f2fs," \
			"sload.f2fs, then Linux $(grep -m1 -o 'kernel [^,]*' "$build/tests/vm/out/bench-fsck-age/boot1.log" || true)"
		echo "build (tree + mkfs + sload): $((t1 - t0)) s; aging in the VM: $((t2 - t1)) s"
		grep '^  guest: age:' "$dir/age.log" | tail -n 1 | sed 's/^  guest: //'
	} >"$img.txt.tmp"
	mv "$img.txt.tmp" "${img%.img}.txt"
	mv "$work" "$img"
fi

echo "image: $img"
[ ! -f "${img%.img}.txt" ] || sed 's/^/  /' "${img%.img}.txt"
echo "load: $(uptime | sed 's/.*load average/load average/')"
sync
# untimed runs: the page cache holds the metadata both read, the verdicts are printed
check_clean "$img" || { echo "bench/fsck.sh: $img does not check clean"; exit 1; }
sum=$(tail -n 1 "$dir/ours.out")
echo "our summary: $sum"
# "<inodes> inodes (<dirs> directories), <blocks> blocks in use"
inodes=$(echo "$sum" | sed -n 's/.*: \([0-9]*\) inodes .*/\1/p')
blocks=$(echo "$sum" | sed -n 's/.*, \([0-9]*\) blocks in use.*/\1/p')
gib=$(python3 -c "print('%.2f' % (${blocks:-0} * 4096 / 2**30))")
echo "inodes: ${inodes:-?}, in use: $gib GiB"
if [ "${inodes:-0}" -lt 200000 ] || [ "${blocks:-0}" -lt 2097152 ]; then
	echo "bench/fsck.sh: the image has fewer than 200,000 inodes or 8 GiB in use"
	exit 1
fi

measure() {
	/usr/bin/time -f '%e %M' -o "$dir/time.out" "$@" >"$dir/run.out" 2>&1 || true
	cat "$dir/time.out"
}
read -r t1 m1 < <(measure "$ours" -f -n "$img")
read -r t2 m2 < <(measure "$ref" -f --dry-run "$img")
# cold: the floor, then each fsck after dropping the caches
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
if [ -w /proc/sys/vm/drop_caches ] && [ -x "$floor" ]; then
	"$floor" --drop-caches "$img" >"$dir/floor.out" 2>&1 ||
		{ cat "$dir/floor.out"; echo "bench/fsck.sh: fsck-floor failed"; exit 1; }
	sed 's/^/  /' "$dir/floor.out"
	tf=$(sed -n 's/^floor: .*, \([0-9.]*\) s, .*/\1/p' "$dir/floor.out")
	drop
	read -r c1 _ < <(measure "$ours" -f -n "$img")
	drop
	read -r c2 _ < <(measure "$ref" -f --dry-run "$img")
	"$floor" --drop-caches "$img" >"$dir/floor.out" 2>&1 ||
		{ cat "$dir/floor.out"; echo "bench/fsck.sh: fsck-floor failed"; exit 1; }
	sed -n 's/^floor/again: floor/p' "$dir/floor.out" | sed 's/^/  /'
	tf2=$(sed -n 's/^floor: .*, \([0-9.]*\) s, .*/\1/p' "$dir/floor.out")
	tf=$(python3 -c "import sys; print(min(sys.argv[1:], key=float))" "$tf" "$tf2")
else
	echo "no floor and no cold runs: /proc/sys/vm/drop_caches is not writable (needs root)" \
		"or $floor is not built"
	tf=- c1=- c2=-
fi
# x TIME FLOOR: TIME as a multiple of FLOOR ("-" without both)
x() {
	python3 -c "import sys; a, f = sys.argv[1:]
print('-' if '-' in (a, f) else '%.1fx' % (float(a) / max(float(f), 0.001)))" "$1" "$2"
}
printf '%-24s %14s %14s %14s\n' "" "ours" "fsck.f2fs 1.15" "floor"
printf '%-24s %14s %14s %14s\n' "command" "-f -n" "-f --dry-run" "fsck-floor"
printf '%-24s %14s %14s %14s\n' "wall time (s)" "$t1" "$t2" ""
printf '%-24s %14s %14s %14s\n' "peak RSS (KiB)" "$m1" "$m2" ""
printf '%-24s %14s %14s %14s\n' "cold wall time (s)" "$c1" "$c2" "$tf"
printf '%-24s %14s %14s %14s\n' "cold / floor" "$(x "$c1" "$tf")" "$(x "$c2" "$tf")" "1.0x"
python3 -c "print('speed-up: %.1fx; memory: %.2f of the reference' % ($t2 / max($t1, 0.001), $m1 / $m2))"
