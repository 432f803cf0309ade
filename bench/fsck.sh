#!/bin/bash
# bench/fsck.sh [DIR]: our fsck.f2fs -f -n against Debian's fsck.f2fs 1.15 (-f --dry-run) on
# one image with at least 200,000 inodes and 8 GiB in use, side by side: wall time and peak
# RSS.  The image is built once (our mkfs, then Debian's sload.f2fs from a generated tree)
# and kept in DIR (default /var/tmp/zf2fs-bench) for later runs.  Not a test.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${top_builddir:-$here}
dir=${1:-${ZF2FS_BENCH_DIR:-/var/tmp/zf2fs-bench}}
ours=$build/fsck/fsck.f2fs
[ -x "$build/fsck/.libs/fsck.f2fs" ] && ours=$build/fsck/.libs/fsck.f2fs
export LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ref=/usr/sbin/fsck.f2fs
img=$dir/fsck-200k.img
mkdir -p "$dir"
for t in /usr/sbin/sload.f2fs "$ref" /usr/bin/time; do
	[ -x "$t" ] || { echo "bench/fsck.sh: $t is needed (Debian: f2fs-tools, time)"; exit 1; }
done

if [ ! -f "$img" ]; then
	src=$dir/src
	rm -rf "$src"
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
	truncate -s 24G "$img"
	"$build/mkfs/mkfs.f2fs" -q -f "$img"
	echo "loading it with sload.f2fs (a few minutes)"
	/usr/sbin/sload.f2fs -f "$src" "$img" > "$dir/sload.log" 2>&1 || true
	rm -rf "$src"
fi

measure() {
	/usr/bin/time -f '%e %M' -o "$dir/time.out" "$@" > "$dir/run.out" 2>&1 || true
	cat "$dir/time.out"
}
sync
read -r t1 m1 < <(measure "$ours" -f -n "$img")
read -r t2 m2 < <(measure "$ref" -f --dry-run "$img")
sum=$(tail -1 "$dir/run.out")
"$ours" -f -n "$img" | tail -1
printf '%-24s %14s %14s\n' "" "ours" "fsck.f2fs 1.15"
printf '%-24s %14s %14s\n' "wall time (s)" "$t1" "$t2"
printf '%-24s %14s %14s\n' "peak RSS (KiB)" "$m1" "$m2"
python3 -c "print('speed-up: %.1fx; memory: %.2f of the reference' % ($t2 / max($t1, 0.001), $m1 / $m2))"
echo "reference summary: $sum"
