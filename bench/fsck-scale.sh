#!/bin/bash
# bench/fsck-scale.sh [DIR]: fsck.f2fs time and memory against volume size.  For 1, 10 and
# 100 GiB sparse images (our mkfs.f2fs, empty), fsck.f2fs -f -n is timed with
# /usr/bin/time: wall seconds and peak RSS.  Both should grow at most linearly with the
# volume (fsck's maps are per nid and per main-area block; the NAT and SIT are read once).
# Images live in DIR (default $TMPDIR or /tmp) only while measured.  Not a test.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${top_builddir:-$here}
dir=${1:-${TMPDIR:-/tmp}}
fsck=$build/fsck/fsck.f2fs
mkfs=$build/mkfs/mkfs.f2fs
[ -x "$build/fsck/.libs/fsck.f2fs" ] && fsck=$build/fsck/.libs/fsck.f2fs
[ -x "$build/mkfs/.libs/mkfs.f2fs" ] && mkfs=$build/mkfs/.libs/mkfs.f2fs
export LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -x /usr/bin/time ] || { echo "bench/fsck-scale.sh: /usr/bin/time is needed (Debian: time)"; exit 1; }
img=$dir/zf2fs-scale.$$.img
trap 'rm -f "$img" "$img.time"' EXIT
printf '%-8s %10s %10s %12s %12s\n' size seconds peak_KiB KiB/GiB max_nid
for gib in 1 10 100; do
	rm -f "$img"
	truncate -s "${gib}G" "$img"
	"$mkfs" -f -q -t 0 "$img" >/dev/null
	/usr/bin/time -o "$img.time" -f '%e %M' "$fsck" -f -n "$img" >/dev/null 2>&1 || :
	# shellcheck disable=SC2046
	set -- $(tail -1 "$img.time")
	nids=$(ZF2FS_NO_PROGRESS=1 "$build/tools/dump.f2fs" --superblock "$img" 2>/dev/null |
		awk '$1 == "segment_count_nat" { print $2; exit }')
	printf '%-8s %10s %10s %12s %12s\n' "${gib}G" "$1" "$2" "$(($2 / gib))" \
		"$(( ${nids:-0} / 2 * 512 * 455 ))"
done
