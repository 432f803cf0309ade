#!/bin/bash
# fsck.f2fs -M (the file map), ours beside Debian's f2fs-tools 1.15, byte for byte.  The
# command line comes from:
#   platform_system_extras (AOSP)  f2fs_utils/mkf2fsuserimg.sh, the -B block_map and
#       --readonly options: after make_f2fs -g android [-S SIZE] -O ro and sload_f2fs
#       [-S] -t MOUNT_POINT, "fsck.f2fs $BLOCK_MAP_OPT $OUTPUT_FILE > $BLOCK_MAP_FILE"
#       (BLOCK_MAP_OPT is " -S -M" for a sparse image, " -M" otherwise; the exit status
#       is not looked at, stdout is the map Android's release tools read)
#   jaegeuk/f2fs-tools  fsck/fsck.c print_dentry() and fsck/dump.c dump_node(),
#       dump_inode_blk(), dump_data_blk(), print_extent() (the format); lib/libf2fs.c
#       f2fs_max_file_offset()
# Volumes: trees with files of 0 bytes, inline, one block, 4096 * k bytes, holes (our
# sload keeps them, Debian's fills them), indirect nodes, hard links, symlinks (not
# listed), a 255-byte name, a name with a space, a directory of 300 files, and files met
# after a deeper directory's walk (f2fs-tools names them by a shortened path), made by
# Debian's mkfs and sload and by ours, compressed, in Android's flow (-g android -O ro,
# and an Android sparse image for -S -M), and the kernel-written base image with encrypted
# directories, inline dentries, compressed and released files.  Where f2fs-tools 1.15 and
# its development branch differ (offsets past 4 GiB, device-aliasing files), ours follows
# the development branch and the case checks the expected map instead.  The image is
# byte for byte as it was after every -M.
. "$(dirname "$0")/lib.sh"
need_ref fsck.f2fs mkfs.f2fs sload.f2fs
[ -x "$INJECT" ] || hard_error "inject.f2fs is not built: $INJECT"

# tree DIR [COMPRESSIBLE]: the source directory for sload.  With COMPRESSIBLE, no sparse
# file with a lone block under an indirect node (1.15 miscounts i_blocks of such a
# compressed file and says so on stdout, among the map).
tree() {
	local d=$1 i
	rm -rf "$d"
	mkdir -p "$d/a/b/c/d" "$d/emptydir" "$d/many" "$d/x y"
	: > "$d/empty"
	head -c 100 /dev/urandom > "$d/small.txt"
	head -c 4000 /dev/urandom > "$d/one"
	head -c 4096 /dev/urandom > "$d/b4096"
	head -c 8192 /dev/urandom > "$d/b8192"
	head -c $((923 * 4096)) /dev/urandom > "$d/b923"
	head -c $((924 * 4096)) /dev/urandom > "$d/b924"
	head -c $((3100 * 4096 + 5)) /dev/urandom > "$d/big"
	truncate -s 1M "$d/sparse"
	printf X | dd of="$d/sparse" bs=4096 seek=10 conv=notrunc status=none
	printf Y | dd of="$d/sparse" bs=4096 seek=100 conv=notrunc status=none
	if [ -z "${2:-}" ]; then
		truncate -s 20M "$d/sparse_ind"
		for i in 0 1000 4000 4001; do
			printf Z | dd of="$d/sparse_ind" bs=4096 seek=$i conv=notrunc status=none
		done
	fi
	truncate -s 12288 "$d/hole_tail"
	printf W | dd of="$d/hole_tail" conv=notrunc status=none
	head -c 5000 /dev/urandom > "$d/a/first"
	head -c 9000 /dev/urandom > "$d/a/b/bfile"
	head -c 9000 /dev/urandom > "$d/a/b/c/cfile"
	head -c 5000 /dev/urandom > "$d/a/b/c/d/deep"
	head -c 9000 /dev/urandom > "$d/a/b/c/d/dfile"
	# after d/ (c's), after c/ (b's): f2fs-tools prints /c/zz_after and /b/zz_after
	head -c 7000 /dev/urandom > "$d/a/b/c/zz_after"
	head -c 7000 /dev/urandom > "$d/a/b/zz_after"
	head -c 7000 /dev/urandom > "$d/a/zz_after"
	head -c 6000 /dev/urandom > "$d/x y/with space"
	head -c 6000 /dev/urandom > "$d/a/$(printf 'n%.0s' $(seq 255))"
	for i in $(seq 300); do head -c $((4097 + i)) /dev/urandom > "$d/many/file_$i"; done
	ln "$d/one" "$d/a/one_link"
	ln "$d/big" "$d/a/b/c/big_link"
	ln -s one "$d/link"
	ln -s a/b "$d/a/dirlink"
}

# same_map WHAT IMG [ARGS...]: our fsck.f2fs ARGS -M IMG prints what f2fs-tools' prints
# (at least one file line), both exit 0, and ours leaves IMG as it was.
same_map() {
	local what=$1 img=$2
	shift 2
	cp "$img" "$TEST_TMP/before"
	run REF fsck.f2fs "$@" -M "$img"
	run OURS fsck.f2fs "$@" -M "$img"
	if ! cmp -s "$img" "$TEST_TMP/before"; then
		tap_fail "$what: -M changed the image"
	elif [ "$RC_OURS" != 0 ] || [ "$RC_REF" != 0 ]; then
		tap_fail "$what: exit $RC_OURS (f2fs-tools $RC_REF): $(head -c 300 "$TEST_TMP/OURS.err")"
	elif ! grep -aq '^/[^ ]* [0-9]' "$TEST_TMP/REF.out"; then
		tap_fail "$what: f2fs-tools printed no file map: $(head -c 300 "$TEST_TMP/REF.out")"
	elif ! cmp -s "$TEST_TMP/OURS.out" "$TEST_TMP/REF.out"; then
		tap_fail "$what: the maps differ: $(cmp "$TEST_TMP/OURS.out" "$TEST_TMP/REF.out" 2>&1) $(diff <(cut -c1-120 "$TEST_TMP/OURS.out") <(cut -c1-120 "$TEST_TMP/REF.out") | head -6 | tr '\n' ' ')"
	else
		tap_ok "$what: f2fs-tools' map byte for byte ($(wc -l < "$TEST_TMP/OURS.out") lines), exit 0, image unchanged"
	fi
}

# volume IMG SIZE MKFS_WHICH "MKFS ARGS" SLOAD_WHICH "SLOAD ARGS" SRC
volume() {
	new_image "${1##*/}" "$2" > /dev/null
	run "$3" mkfs.f2fs $4 "$1"
	[ "$(eval echo \$RC_$3)" = 0 ] || hard_error "$3 mkfs.f2fs $4: $(tail -2 "$TEST_TMP/$3.out")"
	# shellcheck disable=SC2086
	run "$5" sload.f2fs -f "$7" $6 "$1"
	[ "$(eval echo \$RC_$5)" = 0 ] || hard_error "$5 sload.f2fs $6: $(tail -2 "$TEST_TMP/$5.err")"
}

tree "$TEST_TMP/src"
tree "$TEST_TMP/srcc" compressible
V=$TEST_TMP/v.img

# ---- plain volumes: f2fs-tools' mkfs and sload, ours --------------------------------------
volume "$V" 128M REF "-q" REF "" "$TEST_TMP/src"
same_map "Debian's mkfs and sload" "$V"
cp "$TEST_TMP/OURS.out" "$TEST_TMP/map1"
grep -aq '^/c/zz_after [0-9]' "$TEST_TMP/OURS.out" && grep -aq '^/b/zz_after [0-9]' "$TEST_TMP/OURS.out" &&
	grep -aq "^/empty$(printf '\33\\[2K\r')/" "$TEST_TMP/OURS.out" && grep -aq '^/b4096 [0-9]* 0$' "$TEST_TMP/OURS.out" &&
	! grep -aq '^/link\|dirlink' "$TEST_TMP/OURS.out" &&
	tap_ok "the map shows f2fs-tools' quirks: shortened paths after a deeper walk, ESC[2K CR after an inline file, a trailing 0 at i_size, no symlinks" ||
	tap_fail "the quirks are not in the map: $(grep -a 'zz_after\|^/b4096' "$TEST_TMP/OURS.out" | tr '\n' ' ')"
# -a skips a clean volume (nothing printed, by both); f2fs-tools prints -a's "Info:" line
# when -a comes before -M, so -M goes first
cp "$V" "$TEST_TMP/before"
run REF fsck.f2fs -M -a "$V"
run OURS fsck.f2fs -M -a "$V"
[ "$RC_OURS" = 0 ] && [ "$RC_REF" = 0 ] && [ ! -s "$TEST_TMP/OURS.out" ] && [ ! -s "$TEST_TMP/REF.out" ] &&
	cmp -s "$V" "$TEST_TMP/before" && tap_ok "-M -a on a clean volume: nothing printed, exit 0, as f2fs-tools" ||
	tap_fail "-M -a: exit $RC_OURS (f2fs-tools $RC_REF), $(wc -c < "$TEST_TMP/OURS.out") bytes (f2fs-tools $(wc -c < "$TEST_TMP/REF.out"))"
# whatever else is asked, -M writes nothing (-f, -y: repair; --nolinear-lookup: tuning)
run OURS fsck.f2fs -M -f -y --nolinear-lookup=1 "$V"
[ "$RC_OURS" = 0 ] && cmp -s "$V" "$TEST_TMP/before" && cmp -s "$TEST_TMP/OURS.out" "$TEST_TMP/map1" &&
	tap_ok "-M -f -y --nolinear-lookup=1: the same map, exit 0, nothing written" ||
	tap_fail "-M -f -y --nolinear-lookup=1: exit $RC_OURS, or the image changed"

volume "$V" 128M OURS "" OURS "" "$TEST_TMP/src"
same_map "our mkfs and sload (holes kept)" "$V"
grep -aq '/sparse 0 0 0 0 0 0 0 0 0 0 [0-9]* 0 ' "$TEST_TMP/OURS.out" &&
	tap_ok "holes print as 0" || tap_fail "holes: $(grep -a '/sparse ' "$TEST_TMP/OURS.out" | cut -c1-80)"

# encrypted names (base64) and encrypted files (not listed), by flag: the kernel's own in
# the base image below
"$INJECT" --node --mb i_advise --path "/x y" --val 4 "$V" > /dev/null &&
	"$INJECT" --node --mb i_advise --path /a/b --val 4 "$V" > /dev/null &&
	"$INJECT" --node --mb i_advise --path /a/first --val 4 "$V" > /dev/null || hard_error "inject i_advise failed"
same_map "directories and a file flagged encrypted" "$V"

volume "$V" 128M OURS "-O extra_attr,compression" OURS "-c -a lz4" "$TEST_TMP/srcc"
same_map "compressed files (our sload -c)" "$V"

# ---- Android's flow: make_f2fs -g android [-S SIZE] -O ro, sload_f2fs -t /system -------------
# (our sload on an -O ro volume is left out: see the report of issue #27)
volume "$V" 128M REF "-q -g android -O ro" REF "-t /system" "$TEST_TMP/src"
same_map "Android's -g android -O ro volume (f2fs-tools' mkfs and sload)" "$V"
volume "$V" 128M OURS "-g android -O ro" REF "-t /system" "$TEST_TMP/src"
same_map "Android's -g android -O ro volume (our mkfs)" "$V"
volume "$V" 128M OURS "-g android" OURS "-t /system -T 0" "$TEST_TMP/src"
same_map "-g android volume, our mkfs and sload" "$V"

# -S -M on an Android sparse image (Debian's f2fs-tools has no -S: it reads the same image
# unpacked)
if command -v simg2img > /dev/null; then
	S=$TEST_TMP/s.simg
	rm -f "$S"
	"${OURS[mkfs.f2fs]}" -g android -S $((128 << 20)) "$S" > /dev/null 2>&1 &&
		"${OURS[sload.f2fs]}" -S -f "$TEST_TMP/src" -t /system "$S" > /dev/null 2>&1 &&
		simg2img "$S" "$TEST_TMP/s.raw" || hard_error "cannot make the sparse image"
	cp "$S" "$TEST_TMP/before"
	run OURS fsck.f2fs -S -M "$S"
	run REF fsck.f2fs -M "$TEST_TMP/s.raw"
	if [ "$RC_OURS" = 0 ] && [ "$RC_REF" = 0 ] && cmp -s "$S" "$TEST_TMP/before" &&
	   grep -aq '^/big [0-9]' "$TEST_TMP/OURS.out" && cmp -s "$TEST_TMP/OURS.out" "$TEST_TMP/REF.out" &&
	   [ -z "$(ls "$TEST_TMP" | grep 'zf2fs-.*\.\(raw\|new\)$')" ]; then
		tap_ok "-S -M on an Android sparse image: f2fs-tools' map of the unpacked image, image and directory unchanged"
	else
		tap_fail "-S -M: exit $RC_OURS (f2fs-tools $RC_REF), or maps differ, or the image changed: $(head -c 200 "$TEST_TMP/OURS.err")"
	fi
else
	tap_ok "# SKIP -S -M: simg2img not installed"
fi

# ---- the kernel's volume: fscrypt v1 and v2, casefold, inline dentries, compressed and
# released files, fs-verity.  f2fs-tools stops at a block past i_size (the verity file's
# Merkle tree: "[ASSERT] ... blkaddr == NULL_ADDR", exit 255); ours leaves such blocks out
# and goes on.  Compared whole with the verity file's i_size covering its tree, and up to
# f2fs-tools' stop without.
IMG=$TEST_TMP/enc.img
base encrypted
cp "$IMG" "$TEST_TMP/enc.orig"
"$INJECT" --node --mb i_size --path /plain/verity --val $((1 << 20)) "$IMG" > /dev/null ||
	hard_error "inject i_size failed"
same_map "the kernel's volume with encrypted directories" "$IMG"
grep -aq "^/e2/[A-Za-z0-9+,]\{40,\}" "$TEST_TMP/OURS.out" &&
	tap_ok "encrypted names in f2fs-tools' base64" || tap_fail "no base64 name under /e2"
IMG=$TEST_TMP/enc.orig
run REF fsck.f2fs -M "$IMG"
run OURS fsck.f2fs -M "$IMG"
stop=$(grep -abo '\[ASSERT\] (dump_data_blk' "$TEST_TMP/REF.out" | head -1 | cut -d: -f1)
if [ -n "$stop" ] && [ "$RC_REF" = 255 ] && [ "$RC_OURS" = 0 ] &&
   cmp -s <(head -c "$stop" "$TEST_TMP/REF.out") <(head -c "$stop" "$TEST_TMP/OURS.out") &&
   [ "$(tail -c +$((stop + 1)) "$TEST_TMP/OURS.out" | head -c 2)" = " 6" ] &&
   [ "$(grep -ac '^/plain/pinned [0-9]' "$TEST_TMP/OURS.out")" = 1 ]; then
	tap_ok "blocks past i_size (fs-verity): f2fs-tools' map up to its stop, then ours goes on (exit 0; f2fs-tools 255)"
else
	tap_fail "blocks past i_size: exit $RC_OURS (f2fs-tools $RC_REF), stop at ${stop:-none}"
fi

# ---- f2fs-tools' development branch: offsets past 4 GiB (1.15 cuts i_size to 32 bits and
# stops at the first block it then finds past it) -----------------------------------------
rm -rf "$TEST_TMP/huge" && mkdir "$TEST_TMP/huge"
H=$TEST_TMP/huge/huge
truncate -s $((2075611 * 4096)) "$H"
for i in 0 1050000 2075610; do   # inode; under the second indirect node; double indirect
	printf Z | dd of="$H" bs=4096 seek=$i conv=notrunc status=none
done
volume "$V" 64M OURS "" OURS "" "$TEST_TMP/huge"
IMG=$V
a=$("$INJECT" --bmap 0 --path /huge "$V") b=$("$INJECT" --bmap 1050000 --path /huge "$V")
c=$("$INJECT" --bmap 2075610 --path /huge "$V")
zeros() { printf ' 0%.0s' $(seq "$1"); }
# 923 slots in the inode; direct node 10 of the second indirect node (file blocks from
# 1039283): 537 before b, 480 after; the first direct node below the double-indirect one (from
# 2075607): 3 before c, and one at i_size
printf '/huge %s%s%s %s%s%s %s 0\n' "$a" "$(zeros 922)" "$(zeros 537)" "$b" "$(zeros 480)" \
	"$(zeros 3)" "$c" > "$TEST_TMP/want"
run OURS fsck.f2fs -M "$V"
[ "$RC_OURS" = 0 ] && cmp -s "$TEST_TMP/OURS.out" "$TEST_TMP/want" &&
	tap_ok "a file past 4 GiB with double-indirect blocks: the development branch's map" ||
	tap_fail "past 4 GiB: exit $RC_OURS: $(cmp "$TEST_TMP/OURS.out" "$TEST_TMP/want" 2>&1); got $(tr " " "\n" < "$TEST_TMP/OURS.out" | uniq -c | tr -s " \n" " ")"

# a device-aliasing file (development branch: its blocks are i_ext's, up to i_size)
volume "$V" 128M OURS "" OURS "" "$TEST_TMP/src"
"$INJECT" --node --mb i_flags --path /b8192 --val $((0x80000000)) "$V" > /dev/null &&
	"$INJECT" --node --mb i_ext.blk_addr --path /b8192 --val 6000 "$V" > /dev/null &&
	"$INJECT" --node --mb i_ext.len --path /b8192 --val 9 "$V" > /dev/null || hard_error "inject i_ext failed"
run OURS fsck.f2fs -M "$V"
[ "$RC_OURS" = 0 ] && grep -aqx '/b8192 6000-6002' "$TEST_TMP/OURS.out" &&
	tap_ok "a device-aliasing file: its extent, up to i_size" ||
	tap_fail "device aliasing: exit $RC_OURS: $(grep -a '^/b8192' "$TEST_TMP/OURS.out")"

# ---- a damaged tree: what cannot be read is left out, exit 4 (f2fs-tools prints whatever
# the block a bad pointer leads to holds) -------------------------------------------------
volume "$V" 128M OURS "" OURS "" "$TEST_TMP/src"
run OURS fsck.f2fs -M "$V"
cp "$TEST_TMP/OURS.out" "$TEST_TMP/map1"
nid=$("$INJECT" --node --mb i_nid --idx 0 --path /big --get "$V")
"$INJECT" --node --mb ino --nid "$nid" --val 7 "$V" > /dev/null || hard_error "inject footer failed"
cp "$V" "$TEST_TMP/before"
run OURS fsck.f2fs -M "$V"
if [ "$RC_OURS" = 4 ] && cmp -s "$V" "$TEST_TMP/before" && grep -q 'could not be read' "$TEST_TMP/OURS.err" &&
   [ "$(grep -av '^/big \|big_link ' "$TEST_TMP/OURS.out")" = "$(grep -av '^/big \|big_link ' "$TEST_TMP/map1")" ] &&
   [ "$(grep -a '^/big ' "$TEST_TMP/OURS.out")" != "$(grep -a '^/big ' "$TEST_TMP/map1")" ]; then
	tap_ok "a direct node of another inode under /big: its slots left out, the rest of the map as before, exit 4"
else
	tap_fail "damaged node: exit $RC_OURS: $(head -c 200 "$TEST_TMP/OURS.err")"
fi

# ---- -M with --json: refused -------------------------------------------------------------
run OURS fsck.f2fs -M --json "$V"
[ "$RC_OURS" = 16 ] && [ ! -s "$TEST_TMP/OURS.out" ] && tap_ok "-M --json: refused (exit 16)" ||
	tap_fail "-M --json: exit $RC_OURS"

tap_summary
