#!/bin/bash
# sload.f2fs -c: regular files in LZ4-compressed clusters on a volume with the
# compression feature.  A file of 7 whole compressible clusters and a partial one is
# marked compressed (i_flags, algorithm, cluster size), each whole cluster takes one
# block plus its marker and reserved slots (i_blocks, i_compr_blocks as the kernel and
# f2fs-tools count them), an incompressible file's clusters stay plain, both fscks find
# the image clean, and two runs give the same image.  A volume without the feature (with
# lz4 or lzo) and a bad cluster size are refused, nothing written.  The kernel bench
# (tests/vm/sload.sh, tests/vm/sload_compress.sh) reads the files back; the other
# algorithms and sub-options are in sload_compress_opts.sh.
. "$(dirname "$0")/sload_lib.sh"
grep -q '^#define HAVE_LIBLZ4 1' "$top_builddir/config.h" || skip "built without liblz4: -c is refused"
UUID=5a10ad17-0000-4000-8000-0000000000f1

SRC=$TEST_TMP/src
mkdir -p "$SRC/d"
# 121,893 bytes: 7 clusters of 4 blocks and 2 blocks more
for i in $(seq 1 3000); do echo "line $i of some very compressible text"; done > "$SRC/text"
head -c 100000 /dev/urandom > "$SRC/random"
truncate -s 10M "$SRC/holey"
for i in $(seq 1 2000); do echo "x$i"; done | dd of="$SRC/holey" bs=4096 seek=1000 conv=notrunc status=none
echo small > "$SRC/d/small"

mkimg()
{
	local img
	img=$(new_image "$1" 128M)
	SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -U "$UUID" -O extra_attr,compression "$img" >/dev/null || return 1
	"$SLOAD" -c -f "$SRC" -T $T "$img" > /dev/null || return 1
	echo "$img"
}
inode() { "$DUMP" --json -i "$("$INJECT" --lookup "$1" "$2")" "$2"; }
field() { python3 -c 'import json,sys; print(json.load(sys.stdin)["inode"][0][sys.argv[1]])' "$1"; }

if img=$(mkimg a.img); then
	tap_ok "sload.f2fs -c loads the tree"
	got=$(inode /text "$img" | python3 -c 'import json,sys
i = json.load(sys.stdin)["inode"][0]
print(i["i_flags"] & 4, i["i_compress_algorithm"], i["i_log_cluster_size"], i["i_blocks"], i["i_compr_blocks"])')
	# 7 clusters of 4 slots (marker, one compressed block, two reserved) + 2 plain blocks
	# + the inode: 31 blocks; 3 counted as saved per cluster: 21
	[ "$got" = "4 1 2 31 21" ] && tap_ok "a compressible file: LZ4 clusters, i_blocks 31, i_compr_blocks 21" ||
		tap_fail "/text: flags&4, algorithm, log, i_blocks, i_compr_blocks = '$got', want '4 1 2 31 21'"
	got=$(inode /random "$img" | field i_compr_blocks)
	[ "$got" = 0 ] && tap_ok "an incompressible file's clusters stay plain" ||
		tap_fail "/random: i_compr_blocks $got"
	clean "$img" && tap_ok "both fscks clean" || tap_fail "fsck finds problems"
	img2=$(mkimg b.img) && cmp "$img" "$img2" && tap_ok "two runs give byte-identical images" ||
		tap_fail "two runs differ"
else
	tap_fail "sload.f2fs -c failed"
fi

plain=$(new_image p.img 64M)
SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -U "$UUID" -O extra_attr "$plain" >/dev/null || hard_error "mkfs failed"
cp "$plain" "$TEST_TMP/p.before"
for o in "-c" "-c -a lzo"; do
	out=$("$SLOAD" $o -f "$SRC" "$plain" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && cmp -s "$plain" "$TEST_TMP/p.before" &&
		tap_ok "sload.f2fs $o on a volume without compression: refused in one line, nothing written" ||
		tap_fail "sload.f2fs $o: exit $rc, '$out'"
done
"$SLOAD" -c -L 9 -f "$SRC" "$plain" >/dev/null 2>&1
[ $? -eq 16 ] && cmp -s "$plain" "$TEST_TMP/p.before" && tap_ok "-L 9: a usage error" ||
	tap_fail "-L 9 is not a usage error"
tap_summary
