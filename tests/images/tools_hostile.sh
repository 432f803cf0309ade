#!/bin/bash
# Deliberately huge or looping images get a clear error or a finished run, never an
# out-of-memory kill or a hang.  Each image is made by our mkfs.f2fs and crafted here:
#   huge_single    a 64 MiB file whose superblock claims 16 TiB (8M segments)
#   huge_devs      the same claim routed through the device list (devs[0] names a path),
#                  where the superblock's block_count is not compared with the file size
#   nat_2_32       a NAT of 36,874 segments: more nids than 32 bits can name (on an 80 GiB
#                  sparse file, so that only the NAT limit can refuse it)
#   dir_loop       a directory entry deep in the tree naming an ancestor directory
# The refusals must name the field ("corrupt superblock: ...") and every run must finish
# within the time limit; outside sanitizer builds, within 1 GiB of address space too.
. "$(dirname "$0")/lib.sh"
need_python

DUMP=${ZF2FS_DUMP:-$OUR_BIN/dump.f2fs}
GC=${ZF2FS_GC:-$OUR_BIN/gc.f2fs}
LIMIT=60
export ZF2FS_NO_PROGRESS=1
# ASan reserves terabytes of address space: no ulimit -v there
vlimit=1048576
for b in "$FSCK" "$top_builddir"/fsck/.libs/*fsck.f2fs "$top_builddir"/lib/.libs/libzf2fs.so; do
	[ -f "$b" ] && grep -qa "__asan_" "$b" && vlimit=unlimited
done

# bounded CMD...: run under the time (and memory) limit; prints the exit status
bounded()
{
	(ulimit -v "$vlimit"; timeout -k 5 "$LIMIT" "$@")
}

# sbset IMG OFFSET FORMAT VALUE...: set superblock fields in both copies
sbset()
{
	python3 - "$@" <<'PY'
import struct, sys
img, args = sys.argv[1], sys.argv[2:]
with open(img, 'r+b') as f:
    for copy in (0, 1):
        f.seek(copy * 4096)
        b = bytearray(f.read(4096))
        for i in range(0, len(args), 3):
            off, fmt, val = int(args[i]), args[i + 1], args[i + 2]
            v = val.encode() if fmt.endswith('s') else int(val, 0)
            struct.pack_into('<' + fmt, b, 1024 + off, v)
        f.seek(copy * 4096)
        f.write(b)
PY
}

# expect_refused NAME IMG PATTERN: fsck, dump and gc.f2fs refuse IMG saying PATTERN
expect_refused()
{
	local name=$1 img=$2 pat=$3 rc bad=
	bounded "$FSCK" -f -n "$img" > "$TEST_TMP/out" 2>&1
	rc=$?
	[ $rc -eq 4 ] || bad="fsck -n exit $rc"
	grep -q "$pat" "$TEST_TMP/out" || bad="${bad:+$bad; }fsck does not say '$pat'"
	bounded "$DUMP" --superblock "$img" > /dev/null 2> "$TEST_TMP/dump"
	rc=$?
	{ [ $rc -ge 1 ] && [ $rc -lt 124 ]; } || bad="${bad:+$bad; }dump exit $rc"
	grep -q "$pat" "$TEST_TMP/dump" || bad="${bad:+$bad; }dump does not say '$pat'"
	bounded "$GC" state "$img" > /dev/null 2>&1
	rc=$?
	{ [ $rc -ge 1 ] && [ $rc -lt 124 ]; } || bad="${bad:+$bad; }gc state exit $rc"
	if [ -n "$bad" ]; then
		sed 's/^/# /' "$TEST_TMP/out" | head -5
		tap_fail "$name: $bad"
	else
		tap_ok "$name: refused plainly ($(grep -m1 -o "$pat.*" "$TEST_TMP/out" | cut -c1-70))"
	fi
}

# 16 TiB claimed: 8M segments (the format's maximum), block_count 2^32
mkhuge()
{
	local img=$1
	"$MKFS" -f -q -r "$img" > /dev/null || hard_error "mkfs failed"
	# segment_count 8388608 - metadata ahead of main (8 segments) = main
	sbset "$img" 36 Q 0x100000000 48 I 8388607 68 I 8388599 44 I 8388599
}

img=$(new_image huge_single 64M)
mkhuge "$img"
expect_refused huge_single "$img" "corrupt superblock: block_count"

img=$(new_image huge_devs 64M)
mkhuge "$img"
sbset "$img" 2201 64s "$img" 2265 I 8388607
expect_refused huge_devs "$img" "corrupt superblock: devs\[0\]"

# NAT: (36874 / 2) * 512 * 455 > 2^32 nids; the areas still follow each other
img=$(new_image nat_2_32 80G)
"$MKFS" -f -q -r -t 0 "$img" 1048576 > /dev/null || hard_error "mkfs failed"
nat_segs=36874
read -r nat ssa_segs main_segs < <(python3 - "$img" <<'PY'
import struct, sys
with open(sys.argv[1], 'rb') as f:
    f.seek(1024)
    sb = f.read(3072)
print(struct.unpack_from('<I', sb, 84)[0], struct.unpack_from('<I', sb, 64)[0],
      struct.unpack_from('<I', sb, 68)[0])
PY
)
ssa=$((nat + nat_segs * 512))
main=$((ssa + ssa_segs * 512))
segs=$(((main - 512) / 512 + main_segs))
sbset "$img" 60 I $nat_segs 88 I $ssa 92 I $main 48 I $segs 36 Q $((512 + segs * 512))
expect_refused nat_2_32 "$img" "corrupt superblock: segment_count_nat"
rm -f "$img"

# A loop through the directory tree: docs/deep/deeper/leaf names docs (as a directory)
base=$TEST_TMP/populated.img
xz -dc "$top_srcdir/tests/images/base/populated.img.xz" > "$base" || hard_error "no base image"
INJECT=$OUR_BIN/inject.f2fs
docs=$("$INJECT" --lookup /docs "$base")
"$INJECT" --dent --path /docs/deep/deeper --name leaf --mb d_ino --val "$docs" "$base" > /dev/null &&
"$INJECT" --dent --path /docs/deep/deeper --name leaf --mb d_ftype --val 2 "$base" > /dev/null ||
	hard_error "cannot craft dir_loop"
bad=
bounded "$FSCK" -f -n -t "$base" > "$TEST_TMP/out" 2>&1; rc=$?
[ $rc -eq 4 ] || bad="fsck -n exit $rc"
bounded "$DUMP" --tree --frag / --ls /docs/deep/deeper/leaf/deep/deeper/leaf "$base" > /dev/null 2>&1; rc=$?
{ [ $rc -ge 0 ] && [ $rc -lt 124 ]; } || bad="${bad:+$bad; }dump --tree exit $rc"
cp --sparse=always "$base" "$base.y"
bounded "$FSCK" -f -y "$base.y" > /dev/null 2>&1; rc=$?
{ [ $rc -ge 1 ] && [ $rc -lt 124 ]; } || bad="${bad:+$bad; }fsck -y exit $rc"
bounded "$FSCK" -f -n "$base.y" > "$TEST_TMP/after" 2>&1; rc=$?
[ $rc -eq 0 ] || bad="${bad:+$bad; }fsck -n after the repair: exit $rc"
if [ -n "$bad" ]; then
	grep '^\[0x' "$TEST_TMP/out" "$TEST_TMP/after" | head -5 | sed 's/^/# /'
	tap_fail "dir_loop: $bad"
else
	tap_ok "dir_loop: found ($(grep -c '^\[0x' "$TEST_TMP/out") problems), dump finishes, the repair leaves it clean"
fi
tap_summary
