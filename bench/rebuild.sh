#!/bin/bash
# bench/rebuild.sh IMG [ROUNDS]: fsck.f2fs --rebuild's time against its floor.  The
# rebuild reads the whole main area once, in address order, for the node blocks (then
# the kept inodes' trees again, mostly from the page cache); its floor is reading the
# image from start to end (dd, 1 MiB reads).  Each round reads the floor, then runs the
# rebuild without writing (-n: the scan, the choice of nodes, the walk of every kept
# inode; the writes are the metadata areas only), both after dropping the page cache,
# and prints both times, their ratio and the rebuild's peak memory.  Needs root
# (drop_caches) and a built tree (top_builddir, default the source tree).  Not a test.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${top_builddir:-$here}" && pwd)
img=${1:?usage: bench/rebuild.sh IMG [ROUNDS]}
rounds=${2:-3}
bin() { local p=$build/$1; [ -x "${p%/*}/.libs/${p##*/}" ] && p=${p%/*}/.libs/${p##*/}; echo "$p"; }
fsck=$(bin fsck/fsck.f2fs)
export LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ZF2FS_NO_PROGRESS=1
[ -w /proc/sys/vm/drop_caches ] || { echo "bench/rebuild.sh: needs root (drop_caches)"; exit 1; }
for t in "$fsck" /usr/bin/time; do
	[ -x "$t" ] || { echo "bench/rebuild.sh: $t is needed (build the tree; Debian: time)"; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/rebuild-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }

echo "# $(basename "$img"): $(stat -c %s "$img") bytes, $rounds rounds"
printf '%-6s %9s %11s %8s %9s\n' round floor_s rebuild_s ratio peak_MiB
for r in $(seq "$rounds"); do
	drop
	/usr/bin/time -o "$tmp/f" -f %e dd if="$img" of=/dev/null bs=1M status=none
	drop
	rc=0
	/usr/bin/time -o "$tmp/r" -f '%e %M' "$fsck" --rebuild -n "$img" > "$tmp/out" 2>&1 || rc=$?
	# -n ends with exit 4: nothing was written, the volume still needs the rebuild
	[ $rc = 4 ] || { echo "fsck --rebuild -n: exit $rc"; cat "$tmp/out"; exit 1; }
	read -r rs kb < <(tail -n 1 "$tmp/r")
	fs=$(cat "$tmp/f")
	printf '%-6s %9s %11s %7sx %9s\n' "$r" "$fs" "$rs" \
		"$(awk -v a="$rs" -v b="$fs" 'BEGIN { printf "%.2f", a / b }')" $((kb / 1024))
done
sed -n 's/^  /# /p' "$tmp/out"
