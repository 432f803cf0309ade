#!/bin/bash
# sload.f2fs -S: the device is an Android sparse image (lib/device/simg.c).  A volume made raw,
# packed by Android's img2simg, loaded with -S and unpacked by simg2img is byte for byte
# the raw volume loaded without -S; a second -S load reads our own packing back; both
# fscks find the result clean.  A file that is not a sparse image, and a load that fails
# (a name exists), leave the image as it was and no temporary file beside it.
. "$(dirname "$0")/sload_lib.sh"
command -v img2simg >/dev/null && command -v simg2img >/dev/null ||
	skip "img2simg/simg2img not installed (Debian: android-sdk-libsparse-utils)"
UUID=5a10ad17-0000-4000-8000-0000000000e1

mkdir -p "$TEST_TMP/one/d" "$TEST_TMP/two"
head -c 300000 /dev/urandom > "$TEST_TMP/one/big"
echo small > "$TEST_TMP/one/d/small"
{ printf 'x'; head -c 20000 /dev/zero; printf 'y'; } > "$TEST_TMP/one/zeros"
for i in $(seq 1 50); do echo "$i" > "$TEST_TMP/two/f$i"; done

raw=$(new_image raw.img 256M)
SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -U "$UUID" "$raw" >/dev/null || hard_error "mkfs failed"
img2simg "$raw" "$TEST_TMP/s.img" || hard_error "img2simg failed"
"$SLOAD" -f "$TEST_TMP/one" -T $T "$raw" || hard_error "the raw load failed"

if "$SLOAD" -S -f "$TEST_TMP/one" -T $T "$TEST_TMP/s.img" && simg2img "$TEST_TMP/s.img" "$TEST_TMP/s.out"; then
	cmp "$TEST_TMP/s.out" "$raw" &&
		tap_ok "-S into img2simg's image: simg2img gives the raw load's image byte for byte" ||
		tap_fail "-S and the raw load differ"
	clean "$TEST_TMP/s.out" && tap_ok "both fscks clean" || tap_fail "fsck finds problems"
else
	tap_fail "sload.f2fs -S or simg2img failed"
fi
"$SLOAD" -f "$TEST_TMP/two" -T $T "$raw" || hard_error "the second raw load failed"
if "$SLOAD" -S -f "$TEST_TMP/two" -T $T "$TEST_TMP/s.img" && simg2img "$TEST_TMP/s.img" "$TEST_TMP/s.out2" &&
   cmp "$TEST_TMP/s.out2" "$raw"; then
	tap_ok "a second -S load reads our own packing back: the same image again"
else
	tap_fail "the second -S load"
fi
cp "$TEST_TMP/s.img" "$TEST_TMP/s.before"
out=$("$SLOAD" -S -f "$TEST_TMP/two" -T $T "$TEST_TMP/s.img" 2>&1)
rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'File exists' && cmp -s "$TEST_TMP/s.img" "$TEST_TMP/s.before" &&
	[ -z "$(ls "$TEST_TMP" | grep 'zf2fs-')" ] &&
	tap_ok "a failed -S load leaves the image as it was, no temporary files" ||
	tap_fail "failed -S load: exit $rc, '$out', $(ls "$TEST_TMP")"
out=$("$SLOAD" -S -f "$TEST_TMP/two" "$raw" 2>&1)
rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'not an Android sparse image' &&
	[ -z "$(ls "$TEST_TMP" | grep 'zf2fs-')" ] &&
	tap_ok "-S on a raw image: refused in one line" || tap_fail "-S on a raw image: exit $rc, '$out'"
# hostile sparse images: a chunk past the image's blocks, a truncated one
python3 - "$TEST_TMP/s.img" "$TEST_TMP/bad1.img" "$TEST_TMP/bad2.img" <<'PYEOF' || hard_error "cannot make bad images"
import struct, sys
src, bad1, bad2 = sys.argv[1:]
d = bytearray(open(src, "rb").read())
# the first chunk claims every block of the image and one more
total = struct.unpack_from("<I", d, 16)[0]
struct.pack_into("<I", d, 28 + 4, total + 1)
open(bad1, "wb").write(d)
open(bad2, "wb").write(open(src, "rb").read()[:100])
PYEOF
for b in bad1 bad2; do
	cp "$TEST_TMP/$b.img" "$TEST_TMP/$b.before"
	out=$("$SLOAD" -S -f "$TEST_TMP/two" "$TEST_TMP/$b.img" 2>&1)
	rc=$?
	[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
		cmp -s "$TEST_TMP/$b.img" "$TEST_TMP/$b.before" && [ -z "$(ls "$TEST_TMP" | grep 'zf2fs-')" ] &&
		tap_ok "a damaged sparse image ($b): refused in one line, untouched" ||
		tap_fail "damaged sparse image $b: exit $rc, '$out'"
done
tap_summary
