#!/bin/bash
# f2fs_metadump and f2fs_mdrestore: a restored volume is checked as its source is.
#
#  - Volumes written by Linux and by sload.f2fs (tests/images/base: populated, encrypted73
#    with encrypted, casefolded, verity and compressed files, unclean with an orphan and
#    fsync'd nodes awaiting roll-forward, aged16k with 16 KiB blocks, quota files and xattr
#    nodes): with -o, our fsck and Debian's 1.15 print the same for the restored volume as
#    for the source, with the same exit status; scrambled, our fsck prints the same plus
#    its one line saying the names were scrambled.
#  - Damaged volumes (fsck corpus cases): our fsck's report and exit status are the same
#    on the restored volume (-o, and scrambled for cases that are not about names).
#  - Scrambling hides: no name of five bytes or more of the source, and no byte of a
#    regular file, is in the restored volume (and, so that the check can fail, the names
#    are there with -o).
#  - Multi-device volumes restore onto one target per device; standard input and output;
#    a loop device full of other bytes (as root) gets the zeros the source had too.
#  - A volume without a usable checkpoint: its node blocks found by a scan, and fsck
#    --rebuild -n reports the restored volume as the source.
#  - Bad images are refused with a one-line reason and exit 1 (truncated, a flipped
#    byte, not an image); a wrong count of targets is a usage error (16); -i describes.
# Prints "ok N - ..." / "not ok N - ...".
. "$(dirname "$0")/lib.sh"

export ZF2FS_NO_PROGRESS=1
MD=$OUR_BIN/f2fs_metadump
MR=$OUR_BIN/f2fs_mdrestore
DUMP=$OUR_BIN/dump.f2fs
for t in "$MD" "$MR" "$FSCK" "$DUMP"; do
	[ -x "$t" ] || hard_error "$t is not built"
done
T=$TEST_TMP

# our_report IMG: our fsck -f -n's output with the image's name taken out, then its exit
our_report() {
	local out rc
	out=$("$FSCK" -f -n "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed "s|$1|IMG|g"
	echo "exit $rc"
}

ref_report() {
	local out rc
	out=$("$REF_FSCK" -f --dry-run "$1" </dev/null 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed "s|$1|IMG|g"
	echo "exit $rc"
}

# roundtrip SRC OUT [metadump options]: image and restore; fails with the tools' output
roundtrip() {
	local src=$1 out=$2
	shift 2
	"$MD" -q "$@" "$src" "$out.md" > "$T/md.log" 2>&1 &&
		"$MR" -q "$out.md" "$out" >> "$T/md.log" 2>&1
}

# same_report NAME A B: the two reports are identical
same_report() {
	if cmp -s "$2" "$3"; then
		tap_ok "$1"
	else
		tap_fail "$1: $(diff "$2" "$3" | head -8 | tr '\n' ' ')"
	fi
}

# names_out: a report with the names it quotes left out (scrambled, they differ)
names_out() { sed -E 's/"[^"]*"/"NAME"/g'; }

have_ref=0
[ -x "$REF_FSCK" ] && have_ref=1
marker_line="names scrambled by f2fs_metadump: their hashes are not checked"

# ---- volumes written by Linux and sload.f2fs ------------------------------------------
for b in populated encrypted73 unclean aged16k; do
	src=$T/$b.img
	xz -dc "$CASE_BASE/$b.img.xz" > "$src" || hard_error "cannot unpack $b"
	our_report "$src" > "$T/src.our"
	if ! roundtrip "$src" "$T/$b.o.img" -o; then
		tap_fail "$b -o: $(cat "$T/md.log")"
		continue
	fi
	our_report "$T/$b.o.img" > "$T/o.our"
	same_report "$b, -o: our fsck reports as on the source" "$T/src.our" "$T/o.our"
	if [ $have_ref = 1 ] && [ "$b" != aged16k ]; then
		ref_report "$src" > "$T/src.ref"
		ref_report "$T/$b.o.img" > "$T/o.ref"
		same_report "$b, -o: fsck.f2fs 1.15 reports as on the source" "$T/src.ref" "$T/o.ref"
	fi
	if ! roundtrip "$src" "$T/$b.s.img"; then
		tap_fail "$b scrambled: $(cat "$T/md.log")"
		continue
	fi
	our_report "$T/$b.s.img" | grep -vxF "$marker_line" > "$T/s.our"
	if ! our_report "$T/$b.s.img" | grep -qxF "$marker_line"; then
		tap_fail "$b scrambled: our fsck does not say the names were scrambled"
	else
		same_report "$b, scrambled: our fsck reports as on the source" "$T/src.our" "$T/s.our"
	fi
	# the image holds no regular file's data, and is small
	size=$(stat -c %s "$T/$b.s.img.md")
	vol=$(stat -c %s "$src")
	[ $((size * 50)) -lt "$vol" ] && tap_ok "$b: the image is $size bytes for $vol" ||
		tap_fail "$b: the image is $size bytes for a volume of $vol"
	if [ "$b" = aged16k ]; then
		# the xattr node of /t/xattrs (values of 3000 and 9000 random bytes, a list the
		# inode's inline area begins): its strings are gone when scrambled, kept with -o
		x=$("$INJECT" --lookup /t/xattrs "$src" 2>/dev/null)
		xnid=$("$INJECT" --node --nid "$x" --mb i_xattr_nid --get "$src" 2>/dev/null)
		xa=$("$INJECT" --nat 0 --nid "$xnid" --mb block_addr --get "$src" 2>/dev/null)
		[ -n "$xa" ] && [ "$xa" -gt 0 ] || hard_error "aged16k: no xattr node for /t/xattrs"
		for v in "" .o .s; do
			f=$src
			[ -n "$v" ] && f=$T/$b$v.img
			dd if="$f" bs=16384 skip="$xa" count=1 status=none | xxd -p -c 16 > "$T/x$v"
		done
		# 16-byte rows of the source's that are not zeros, and how many each copy keeps
		rows=$(grep -cv '^0*$' "$T/x")
		kept=$(paste -d' ' "$T/x" "$T/x.o" | awk '$1 !~ /^0*$/ && $1 == $2' | wc -l)
		left=$(paste -d' ' "$T/x" "$T/x.s" | awk '$1 !~ /^0*$/ && $1 == $2' | wc -l)
		[ "$rows" -ge 500 ] || hard_error "aged16k: the xattr node holds only $rows rows"
		[ $((left * 20)) -lt "$rows" ] && [ "$kept" = "$rows" ] &&
			tap_ok "aged16k: xattr values scrambled across inode and xattr node ($left of $rows rows left)" ||
			tap_fail "aged16k: xattr node rows left: $left of $rows (-o: $kept)"
	fi
	rm -f "$T/$b.o.img" "$T/$b.s.img"
done

# ---- what scrambling hides (populated: names from sload.f2fs, file contents known) -----
src=$T/populated.img
roundtrip "$src" "$T/p.s.img" && roundtrip "$src" "$T/p.o.img" -o ||
	hard_error "populated: $(cat "$T/md.log")"
"$DUMP" --tree "$src" 2>/dev/null | sed -n 's/^ *path=\([^ ]*\) ino=.*/\1/p' | tr '/' '\n' |
	grep -E '^.{5,}$' | grep -vx 'lost+found' | sort -u > "$T/names"
[ "$(wc -l < "$T/names")" -ge 20 ] || hard_error "dump.f2fs --tree gave too few names"
# one pass over each volume: the distinct names found in it
found_s=$(grep -aoF -f "$T/names" "$T/p.s.img" | sort -u | wc -l)
found_o=$(grep -aoF -f "$T/names" "$T/p.o.img" | sort -u | wc -l)
[ $found_s = 0 ] && [ $found_o -ge 20 ] &&
	tap_ok "scrambled: none of $(wc -l < "$T/names") names is left (-o: $found_o found)" ||
	tap_fail "scrambled: $found_s names left; -o: $found_o found"
"$DUMP" --cat /small.txt -o "$T/small" "$src" > /dev/null 2>&1 ||
	hard_error "dump.f2fs --cat /small.txt failed"
head -c 64 "$T/small" > "$T/small.head"
[ -s "$T/small.head" ] || hard_error "/small.txt is empty"
if grep -qaF -f "$T/small.head" "$src" && ! grep -qaF -f "$T/small.head" "$T/p.o.img" &&
   ! grep -qaF -f "$T/small.head" "$T/p.s.img"; then
	tap_ok "file contents are left out (-o too)"
else
	tap_fail "a regular file's bytes are in a restored volume (or not in the source)"
fi
# the same name scrambles the same way within an image, and differently in the next one
"$MD" -q "$src" "$T/again.md" && "$MR" -q "$T/again.md" "$T/again.img" ||
	hard_error "second image failed"
cmp -s "$T/p.s.img" "$T/again.img" && tap_fail "two images scramble names alike (no key)" ||
	tap_ok "each image scrambles with a key of its own"

# ---- standard output and input --------------------------------------------------------
if "$MD" -q -o "$src" - 2>/dev/null | "$MR" -q - "$T/pipe.img" 2>/dev/null &&
   cmp -s "$T/pipe.img" "$T/p.o.img"; then
	tap_ok "- as the image: standard output, standard input"
else
	tap_fail "piping the image gave another volume"
fi
rm -f "$T/pipe.img" "$T/again.img" "$T/p.s.img"

# ---- damaged volumes --------------------------------------------------------------------
# cases over the areas a check reads: SIT, NAT, checkpoint, orphans, nodes, dentries,
# xattrs, quota, a hash (only with -o: a scrambled name's hash is not checked)
for c in f_block_dup f_cp_newest_bad f_cp_valid_nodes_bad f_dentry_bad_ino f_dir_link_count_bad \
	 f_extent_bad f_orphan_ino_twice f_dir_block_stray f_dentry_hash_bad; do
	[ -d "$CORPUS/$c" ] || hard_error "no corpus case $c"
	fsck_case_image "$c" "$T/case.img" > /dev/null 2>&1 || hard_error "cannot make $c"
	our_report "$T/case.img" > "$T/src.our"
	grep -q '^exit 0$' "$T/src.our" && hard_error "$c: the source checks clean"
	if ! roundtrip "$T/case.img" "$T/case.o.img" -o; then
		tap_fail "$c -o: $(cat "$T/md.log")"
		continue
	fi
	our_report "$T/case.o.img" > "$T/o.our"
	same_report "$c, -o: our fsck reports the damage as on the source" "$T/src.our" "$T/o.our"
	[ "$c" = f_dentry_hash_bad ] && continue
	roundtrip "$T/case.img" "$T/case.s.img" || { tap_fail "$c: $(cat "$T/md.log")"; continue; }
	our_report "$T/case.s.img" | grep -vxF "$marker_line" | names_out > "$T/s.our"
	names_out < "$T/src.our" > "$T/src.nn"
	same_report "$c, scrambled: our fsck reports the damage as on the source (names aside)" \
		"$T/src.nn" "$T/s.our"
done
rm -f "$T"/case*.img

# ---- two devices --------------------------------------------------------------------------
d0=$(new_image d0.img 256M)
d1=$(new_image d1.img 256M)
if "$MKFS" -q -f -c "$d1" "$d0" > "$T/mkfs.log" 2>&1; then
	our_report "$d0" | sed "s|$d1|DEV1|g" > "$T/src.our"
	r0=$T/r0.img r1=$T/r1.img
	"$MD" -q "$d0" "$T/multi.md" 2> "$T/md.log" || tap_fail "multi-device: $(cat "$T/md.log")"
	"$MR" -q "$T/multi.md" "$r0" > "$T/mr.log" 2>&1
	rc=$?
	[ $rc = 16 ] && grep -q "give 2 targets" "$T/mr.log" &&
		tap_ok "a two-device image wants two targets (exit 16)" ||
		tap_fail "one target for two devices: exit $rc: $(cat "$T/mr.log")"
	if "$MR" -q "$T/multi.md" "$r0" "$r1" 2> "$T/mr.log"; then
		our_report "$r0" | sed "s|$r1|DEV1|g" | grep -vxF "$marker_line" > "$T/r.our"
		same_report "two devices: our fsck reports the restored pair as the source" \
			"$T/src.our" "$T/r.our"
		[ "$(stat -c %s "$r1")" = "$(stat -c %s "$d1")" ] &&
			tap_ok "two devices: the second is as large as its source" ||
			tap_fail "two devices: the second target has the wrong size"
	else
		tap_fail "two devices: restore failed: $(cat "$T/mr.log")"
	fi
else
	tap_fail "mkfs.f2fs -c: $(cat "$T/mkfs.log")"
fi

# ---- onto a block device that held other bytes -------------------------------------------
# Blocks the source read as zeros (most of the NAT, the SIT) are not stored but named:
# on a device they must be written, or its old bytes would stand in the metadata.
if [ "$(id -u)" = 0 ] && command -v losetup > /dev/null; then
	head -c $((64 << 20)) /dev/zero | tr '\0' '\252' > "$T/dev.img"
	if loop=$(losetup --find --show "$T/dev.img" 2>/dev/null); then
		our_report "$T/populated.img" > "$T/src.our"
		if "$MR" -q "$T/populated.o.img.md" "$loop" 2> "$T/mr.log"; then
			our_report "$loop" | sed "s|$loop|$T/populated.img|g; s|$T/populated.img|IMG|g" \
				> "$T/dev.our"
			same_report "onto a loop device full of 0xaa: our fsck reports as on the source" \
				"$T/src.our" "$T/dev.our"
		else
			tap_fail "restore onto $loop: $(cat "$T/mr.log")"
		fi
		losetup -d "$loop"
	else
		echo "# no loop device here: the restore onto a device is not tried"
	fi
	rm -f "$T/dev.img"
fi

# ---- bad images ---------------------------------------------------------------------------
img=$T/populated.s.img.md
"$MR" -i "$img" > "$T/info" 2>&1 && grep -qx 'names: scrambled' "$T/info" &&
	grep -q '^device 0: 67108864 bytes' "$T/info" && tap_ok "-i describes the image" ||
	tap_fail "-i: $(cat "$T/info")"
# bad IMAGE PATTERN NAME: f2fs_mdrestore refuses IMAGE with exit 1 and one line matching
bad() {
	local out rc
	out=$("$MR" "$1" "$T/bad.img" 2>&1)
	rc=$?
	if [ $rc = 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
	   printf '%s\n' "$out" | grep -q -- "$2"; then
		tap_ok "$3: refused (exit 1): ${out#*: }"
	else
		tap_fail "$3: exit $rc: $out"
	fi
}
size=$(stat -c %s "$img")
head -c $((size - 40)) "$img" > "$T/trunc.md"
bad "$T/trunc.md" "ends" "a truncated image"
cp "$img" "$T/flip.md"
printf '\x55' | dd of="$T/flip.md" bs=1 seek=$((4096 + 32 + 10)) conv=notrunc status=none
bad "$T/flip.md" "CRC mismatch" "a flipped byte in a record"
cp "$img" "$T/hdr.md"
printf '\x55' | dd of="$T/hdr.md" bs=1 seek=100 conv=notrunc status=none
bad "$T/hdr.md" "header is damaged" "a flipped byte in the header"
bad "$src" "not an F2FS metadata image" "a volume given as the image"
"$MD" -q "$T/nonexistent" "$T/x.md" > "$T/err" 2>&1
rc=$?
[ $rc = 1 ] && [ ! -e "$T/x.md" ] && tap_ok "a missing device: exit 1, no image left" ||
	tap_fail "a missing device: exit $rc: $(cat "$T/err")"
"$MD" -q "$src" > "$T/err" 2>&1
[ $? = 16 ] && tap_ok "no image named: usage error" || tap_fail "no image named: $(cat "$T/err")"

# No usable checkpoint (both packs zeroed): every block of the main area that looks like
# a node goes into the image, which says so; fsck --rebuild reads the restored volume as
# it reads the source.
src=$T/nocp.img
xz -dc "$CASE_BASE/unclean.img.xz" > "$src" || hard_error "cannot unpack unclean"
cpa=$(python3 -c 'import struct,sys; f=open(sys.argv[1],"rb"); f.seek(1024+0x4c); a,b=struct.unpack("<2I",f.read(8)); print(a,b-a)' "$src")
dd if=/dev/zero of="$src" bs=4096 seek="${cpa% *}" count="${cpa#* }" conv=notrunc status=none
rm -f "$T/nocp.r.img"
"$MD" "$src" "$T/nocp.md" > "$T/md.log" 2>&1 && "$MR" -q "$T/nocp.md" "$T/nocp.r.img" >> "$T/md.log" 2>&1
rc=$?
rb() { "$FSCK" --rebuild -n "$1" 2>&1 | sed -n 's/^[^:]*: tables/tables/p; /^  /p'; }
[ $rc = 0 ] && grep -q 'no usable checkpoint' "$T/md.log" &&
	"$MR" -i "$T/nocp.md" | grep -q '^node blocks: found by a scan' &&
	[ -n "$(rb "$src")" ] && [ "$(rb "$src")" = "$(rb "$T/nocp.r.img")" ] &&
	tap_ok "no checkpoint: the nodes by a scan, fsck --rebuild -n reports the same" ||
	tap_fail "no checkpoint: exit $rc: $(cat "$T/md.log"); $(diff <(rb "$src") <(rb "$T/nocp.r.img"))"

tap_summary
