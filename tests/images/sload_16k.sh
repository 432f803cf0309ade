#!/bin/bash
# sload.f2fs and defrag.f2fs on volumes of 16 KiB blocks (our mkfs -b 16384, plain and
# packed_ssa): both refuse them with one line naming the block size, exit nonzero, and
# leave every byte of the image as it was.  The 4 KiB runs are in sload*.sh and defrag.sh.
. "$(dirname "$0")/lib.sh"

MKFS=$top_builddir/mkfs/mkfs.f2fs
SLOAD=$top_builddir/tools/sload.f2fs
DEFRAG=$top_builddir/tools/defrag.f2fs
for b in "$MKFS" "$SLOAD" "$DEFRAG"; do
	[ -x "$b" ] || hard_error "not built: $b"
done

tree=$TEST_TMP/tree
mkdir -p "$tree/d" && printf 'data\n' > "$tree/d/f" || hard_error "cannot make $tree"

# refused NAME IMG CMD...: CMD exits nonzero with one line on stderr that names 16 KiB
# blocks, and IMG keeps its sha256
refused()
{
	local name=$1 img=$2 sum out rc
	shift 2
	sum=$(sha256sum < "$img")
	out=$("$@" 2>&1 > /dev/null)
	rc=$?
	if [ "$rc" -eq 0 ]; then
		tap_fail "$name: exit 0 on a volume of 16 KiB blocks"
	elif [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ] || ! grep -q '16 KiB blocks' <<< "$out"; then
		tap_fail "$name: not one line naming 16 KiB blocks:"; printf '%s\n' "$out" | sed 's/^/    | /'
	elif [ "$(sha256sum < "$img")" != "$sum" ]; then
		tap_fail "$name: the image changed"
	else
		tap_ok "$name: refused with one line, the image unchanged"
	fi
}

for feat in "" packed_ssa; do
	img=$(new_image "v16k${feat:+_$feat}.img" 256M)
	"$MKFS" -f -b 16384 ${feat:+-O $feat} "$img" > /dev/null 2>&1 ||
		hard_error "mkfs -b 16384 ${feat:+-O $feat} failed"
	n="16k${feat:+ $feat}"
	refused "sload $n" "$img" "$SLOAD" -f "$tree" "$img"
	refused "defrag $n" "$img" "$DEFRAG" -s 100 -l 10 -t 2000 "$img"
done
tap_summary
