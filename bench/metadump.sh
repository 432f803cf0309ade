#!/bin/bash
# bench/metadump.sh IMG [ROUNDS]: f2fs_metadump's time against the floor of a check, and
# the image's size against the volume's.  Each round reads the floor (bench/fsck-floor:
# the blocks a full check reads, in address order), then makes the image, both after
# dropping the page cache, and prints both times and their ratio; then one restore and
# our fsck on source and restore (the reports must match but for the marker line).
# The image goes to $TMPDIR (default /var/tmp).  Needs root (drop_caches) and a built
# tree (top_builddir, default the source tree).  Not a test.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${top_builddir:-$here}" && pwd)
img=${1:?usage: bench/metadump.sh IMG [ROUNDS]}
rounds=${2:-3}
bin() { local p=$build/$1; [ -x "${p%/*}/.libs/${p##*/}" ] && p=${p%/*}/.libs/${p##*/}; echo "$p"; }
md=$(bin tools/f2fs_metadump) mr=$(bin tools/f2fs_mdrestore) floor=$(bin bench/fsck-floor)
fsck=$(bin fsck/fsck.f2fs)
export LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ZF2FS_NO_PROGRESS=1
[ -w /proc/sys/vm/drop_caches ] || { echo "bench/metadump.sh: needs root (drop_caches)"; exit 1; }
for t in "$md" "$mr" "$floor" "$fsck" /usr/bin/time; do
	[ -x "$t" ] || { echo "bench/metadump.sh: $t is needed (build the tree; Debian: time)"; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/metadump-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
secs() { /usr/bin/time -o "$tmp/t" -f %e "$@" > /dev/null 2>&1 || { echo "failed: $*"; exit 1; }; cat "$tmp/t"; }

echo "# $(basename "$img"): $(stat -c %s "$img") bytes, $rounds rounds"
printf '%-6s %9s %9s %8s %12s\n' round floor_s dump_s ratio image_bytes
for r in $(seq "$rounds"); do
	f=$(secs "$floor" --drop-caches "$img")
	drop
	d=$(secs "$md" -q "$img" "$tmp/img.md")
	printf '%-6s %9s %9s %7sx %12s\n' "$r" "$f" "$d" \
		"$(awk -v a="$d" -v b="$f" 'BEGIN { printf "%.2f", a / b }')" "$(stat -c %s "$tmp/img.md")"
done
used=$("$fsck" -f -n "$img" 2>/dev/null | sed -n 's/.*inodes.*, \([0-9]*\) blocks in use.*/\1/p')
echo "# image / volume: $(awk -v a="$(stat -c %s "$tmp/img.md")" -v b="$(stat -c %s "$img")" \
	'BEGIN { printf "%.2f%%", 100 * a / b }'); / blocks in use ($used of 4 KiB):" \
	"$(awk -v a="$(stat -c %s "$tmp/img.md")" -v b="${used:-0}" \
	'BEGIN { if (b) printf "%.2f%%", 100 * a / (b * 4096); else print "?" }')"
echo "# restore: $(secs "$mr" -q "$tmp/img.md" "$tmp/restored.img") s"
"$fsck" -f -n "$img" 2>&1 | sed "s|$img|IMG|" > "$tmp/a"
"$fsck" -f -n "$tmp/restored.img" 2>&1 | sed "s|$tmp/restored.img|IMG|" |
	grep -v '^names scrambled by f2fs_metadump' > "$tmp/b"
if cmp -s "$tmp/a" "$tmp/b"; then
	echo "# fsck reports the restored volume as the source: $(tail -n 1 "$tmp/a")"
else
	echo "# fsck reports differ:"; diff "$tmp/a" "$tmp/b" | head -20
	exit 1
fi
