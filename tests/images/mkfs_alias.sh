#!/bin/bash
# mkfs.f2fs -c DEV@ALIAS (device aliasing, the device_alias feature of Linux 6.13 and later):
#   (a) one aliased image: its bytes stay as they were (neither written nor discarded); the
#       superblock has feature 0x8000; /ALIAS is a regular file whose inode carries the
#       device_alias flag and the pin bit, and whose extent starts at file block 0 on the
#       device's first block (the block after device 0's last, as Linux computes the
#       device ranges) and covers all of it; SIT gives every aliased segment 512 valid
#       cold data blocks; the checkpoint counts those blocks valid, and free segments are
#       the main area's less the aliased ones and the six logs; no log is on the device;
#   (b) our fsck -f -n finds the volume clean (exit 0), and -f -y writes nothing to it;
#       with the alias extent one block short (no device's range: Linux refuses the
#       inode), fsck -n reports 0x040044 (exit 4), -y makes the extent the device's whole
#       range again (exit 1, the aliased image untouched) and the rerun is clean; a
#       released alias file (no extent, size 0, the inode block alone) is no problem: the
#       repair frees the device's segments in SIT, keeps the file's flag and pin, and the
#       rerun is clean; f2fslabel relabels the volume, which stays clean;
#   (c) two aliased images and one that is not: both alias files cover their device, the
#       logs go to the zones of device 0 and of the non-aliased device, fsck is clean;
#       with quota, lost_found and inode checksums, and with -O ro, fsck is clean too;
#   (d) bad -c syntax and impossible aliasing are refused with one line naming the cause,
#       and no image changes.
# Debian's fsck.f2fs 1.15 cannot judge these volumes: it predates device_alias, takes the
# alias file's extent for a wrong one and its i_blocks for too many, and its -f would
# shrink i_blocks; so only our fsck is run here.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/dump_lib.sh"
[ -x "$DUMP" ] || hard_error "dump.f2fs is not built: $DUMP"
[ -x "$INJECT" ] || hard_error "inject.f2fs is not built: $INJECT"

FIXED=(-r -T 1700000000 -U 11111111-2222-3333-4444-555555555555)

# field TEXT NAME: the value after NAME on its first line in dump.f2fs's output TEXT
dfield() { printf '%s\n' "$1" | awk -v n="$2" '$1 == n { print $2; exit }'; }
# fill IMG: a recognisable pattern in the first and last MiB
fill() {
	local mib=$(( $(stat -c %s "$1") / 1048576 ))
	yes "alias content of $(basename "$1")" | head -c 1048576 |
		dd of="$1" conv=notrunc status=none
	yes "alias tail of $(basename "$1")" | head -c 1048576 |
		dd of="$1" bs=1M seek=$((mib - 1)) conv=notrunc status=none
}
# clean IMG WHAT: our fsck -f -n exits 0 with no problem
clean() {
	local why
	if why=$(our_fsck_clean "$1"); then
		tap_ok "$2: our fsck -f -n finds nothing"
	else
		tap_fail "$2: our fsck -f -n $(printf '%s\n' "$why" | head -5)"
	fi
}
# alias_inode IMG NAME DEVSTART DEVBLOCKS WHAT: /NAME is the alias file of the device at
# DEVSTART (DEVBLOCKS blocks)
alias_inode() {
	local ino out why=''
	ino=$("$INJECT" --lookup "/$2" "$1" 2>/dev/null) || { tap_fail "$5: no /$2"; return; }
	out=$("$DUMP" -i "$ino" "$1" 2>&1)
	[ "$(dfield "$out" type)" = regular ] || why="$why; not a regular file"
	printf '%s\n' "$out" | grep -qx '      bit=2147483648 name=device_alias' ||
		why="$why; no device_alias flag"
	[ $(( $(dfield "$out" i_inline) & 0x40 )) -ne 0 ] || why="$why; not pinned"
	[ "$(dfield "$out" i_ext_fofs)" = 0 ] || why="$why; extent not from file block 0"
	[ "$(dfield "$out" i_ext_blkaddr)" = "$3" ] ||
		why="$why; extent at $(dfield "$out" i_ext_blkaddr), device at $3"
	[ "$(dfield "$out" i_ext_len)" = "$4" ] ||
		why="$why; extent of $(dfield "$out" i_ext_len) blocks, device of $4"
	[ "$(dfield "$out" i_size)" = $(( $4 * 4096 )) ] || why="$why; i_size $(dfield "$out" i_size)"
	[ "$(dfield "$out" i_blocks)" = $(( $4 + 1 )) ] || why="$why; i_blocks $(dfield "$out" i_blocks)"
	[ -z "$why" ] && tap_ok "$5: /$2 is the alias file of its device, extent $3+$4" ||
		tap_fail "$5: /$2${why}"
}
# seg_range IMG FIRST N: every segment FIRST..FIRST+N-1 is full of cold data in SIT
seg_range() {
	"$DUMP" --segments "$1" | awk -v f="$2" -v n="$3" '
		$1 ~ /^segno=/ { s = substr($1, 7) + 0
			if (s >= f && s < f + n) { seen++
				if ($4 != "type=cold_data" || $5 != "valid_blocks=512") bad++ } }
		END { exit !(seen == n && !bad) }'
}
# logs IMG: the six current segments, one per line
logs() {
	"$DUMP" --checkpoint "$1" | awk '$1 == "cur_node_segno" || $1 == "cur_data_segno" {
		for (i = 2; i <= 4; i++) print $i }' | head -6
}

# ---- (a) one aliased image ---------------------------------------------------------------
main=$(new_image main.img 256M)
dev1=$(new_image dev1.img 128M)
fill "$dev1"
cp "$dev1" "$TEST_TMP/dev1.before"
"$MKFS" -q "${FIXED[@]}" -t 1 -c "$dev1@dev1.img" "$main" || hard_error "mkfs -c DEV@ALIAS failed"
cmp -s "$dev1" "$TEST_TMP/dev1.before" &&
	tap_ok "the aliased image keeps its bytes (no discard, no write)" ||
	tap_fail "mkfs changed the aliased image"

sb=$("$DUMP" --superblock "$main")
cp=$("$DUMP" --checkpoint "$main")
seg0=$(dfield "$sb" segment0_blkaddr)
mainblk=$(dfield "$sb" main_blkaddr)
main_segs=$(dfield "$sb" segment_count_main)
[ $(( $(dfield "$sb" feature) & 0x8000 )) -ne 0 ] &&
	tap_ok "feature device_alias (0x8000) is set" || tap_fail "feature is $(dfield "$sb" feature)"
# Linux's device ranges: device 0 from block 0 to segment 0 plus its segments, device 1 next
d0segs=$(( (256 * 1048576 / 4096 - seg0) / 512 ))
start=$(( seg0 + d0segs * 512 ))
len=$(( 128 * 1048576 / 4096 ))
alias_inode "$main" dev1.img "$start" "$len" "one alias"
first=$(( (start - mainblk) / 512 ))
seg_range "$main" "$first" 64 &&
	tap_ok "SIT: segments $first..$((first + 63)) hold 512 valid cold data blocks each" ||
	tap_fail "SIT: the aliased segments are not all full of cold data"
# root node, root dentry block, alias inode, and the device
[ "$(dfield "$cp" valid_block_count)" = $(( len + 3 )) ] &&
	[ "$(dfield "$cp" free_segment_count)" = $(( main_segs - 64 - 6 )) ] &&
	[ "$(dfield "$cp" valid_inode_count)" = 2 ] && [ "$(dfield "$cp" valid_node_count)" = 2 ] &&
	tap_ok "checkpoint: $((len + 3)) valid blocks, $((main_segs - 70)) free segments, 2 inodes" ||
	tap_fail "checkpoint: valid $(dfield "$cp" valid_block_count), free $(dfield "$cp" free_segment_count), inodes $(dfield "$cp" valid_inode_count), nodes $(dfield "$cp" valid_node_count)"
on=$(logs "$main" | awk -v f="$first" '$1 >= f && $1 < f + 64' | wc -l)
[ "$on" -eq 0 ] && tap_ok "no log starts on the aliased device" ||
	tap_fail "$on logs on the aliased device: $(logs "$main" | tr '\n' ' ')"

# ---- (b) fsck ----------------------------------------------------------------------------
clean "$main" "one alias"
cp "$main" "$TEST_TMP/main.before"
out=$("$FSCK" -f -y "$main" 2>&1)
rc=$?
if [ $rc -eq 0 ] && cmp -s "$main" "$TEST_TMP/main.before" && cmp -s "$dev1" "$TEST_TMP/dev1.before"; then
	tap_ok "fsck -f -y on the clean aliased volume exits 0 and writes nothing"
else
	tap_fail "fsck -f -y: exit $rc, or an image changed: $out"
fi
ai=$("$INJECT" --lookup /dev1.img "$main")
"$INJECT" --node --nid "$ai" --mb i_ext.len --val $((len - 1)) "$main" >/dev/null ||
	hard_error "inject i_ext.len failed"
out=$("$FSCK" -f -n "$main" 2>&1)
rc=$?
[ $rc -eq 4 ] && printf '%s\n' "$out" | grep -q '^\[0x040044\] device alias file' &&
	tap_ok "an alias extent one block short of its device is reported (exit 4)" ||
	tap_fail "short alias extent: exit $rc: $(printf '%s\n' "$out" | head -3)"
out=$("$FSCK" -f -y "$main" 2>&1)
rc=$?
[ $rc -eq 1 ] && cmp -s "$dev1" "$TEST_TMP/dev1.before" && our_fsck_clean "$main" >/dev/null &&
	[ "$("$INJECT" --node --nid "$ai" --mb i_ext.len --get "$main")" = "$len" ] &&
	tap_ok "fsck -f -y gives the extent its device's whole range again (exit 1), the rerun is clean" ||
	tap_fail "short alias extent repair: exit $rc, or the aliased image changed, or unclean: $out"
# released, as F2FS_IOC_RELEASE_DEV_ALIAS leaves it (its SIT entries not yet freed)
for m in i_ext.blk_addr i_ext.len i_size; do
	"$INJECT" --node --nid "$ai" --mb $m --val 0 "$main" >/dev/null || hard_error "inject $m failed"
done
"$INJECT" --node --nid "$ai" --mb i_blocks --val 1 "$main" >/dev/null || hard_error "inject i_blocks failed"
out=$("$FSCK" -f -y "$main" 2>&1)
rc=$?
dout=$("$DUMP" -i "$ai" "$main" 2>&1)
if [ $rc -eq 1 ] && ! printf '%s\n' "$out" | grep -q "inode $ai\|file $ai\|0x04004" &&
   printf '%s\n' "$out" | grep -q '^\[0x070001\] segment' && our_fsck_clean "$main" >/dev/null &&
   printf '%s\n' "$dout" | grep -qx '      bit=2147483648 name=device_alias' &&
   [ $(( $(dfield "$dout" i_inline) & 0x40 )) -ne 0 ]; then
	tap_ok "a released alias file is no problem: its device's segments are freed, it stays an alias file"
else
	tap_fail "released alias: exit $rc: $(printf '%s\n' "$out" | head -4)"
fi

# f2fslabel writes the superblocks alone: the alias file and its device stay as they were
LABEL=$OUR_BIN/f2fslabel
if [ -x "$LABEL" ]; then
	"$LABEL" "$main" aliased >/dev/null 2>&1
	rc=$?
	[ $rc -eq 0 ] && "$LABEL" "$main" 2>/dev/null | grep -qx "Info: volume label = aliased" &&
		cmp -s "$dev1" "$TEST_TMP/dev1.before" && our_fsck_clean "$main" >/dev/null &&
		tap_ok "f2fslabel relabels the aliased volume, which stays clean" ||
		tap_fail "f2fslabel on the aliased volume: exit $rc, or unclean, or the device changed"
else
	tap_fail "f2fslabel is not built: $LABEL"
fi

# ---- (c) two aliased images, one not; other feature sets --------------------------------
# 16 MiB zones (-z 8): device 0 holds two zones of the main area, the logs' other four
# zones must come from the third device
main=$(new_image main2.img 64M)
dev1=$(new_image dev1.img 64M)
dev2=$(new_image dev2.img 32M)
dev3=$(new_image dev3.img 128M)
fill "$dev1"
fill "$dev2"
cp "$dev1" "$TEST_TMP/dev1.before"
cp "$dev2" "$TEST_TMP/dev2.before"
"$MKFS" -q "${FIXED[@]}" -z 8 -c "$dev1@first" -c "$dev2@second" -c "$dev3" "$main" ||
	hard_error "mkfs with two aliases failed"
cmp -s "$dev1" "$TEST_TMP/dev1.before" && cmp -s "$dev2" "$TEST_TMP/dev2.before" &&
	tap_ok "two aliased images keep their bytes" || tap_fail "mkfs changed an aliased image"
sb=$("$DUMP" --superblock "$main")
seg0=$(dfield "$sb" segment0_blkaddr)
mainblk=$(dfield "$sb" main_blkaddr)
s1=$(( seg0 + (64 * 256 - seg0) / 4096 * 4096 ))
alias_inode "$main" first "$s1" 16384 "two aliases"
alias_inode "$main" second $(( s1 + 16384 )) 8192 "two aliases"
lo=$(( (s1 - mainblk) / 512 ))
hi=$(( lo + 48 ))
bad=$(logs "$main" | awk -v lo="$lo" -v hi="$hi" '$1 >= lo && $1 < hi' | wc -l)
[ "$bad" -eq 0 ] && [ "$(logs "$main" | wc -l)" -eq 6 ] &&
	tap_ok "the logs skip both aliased devices ($(logs "$main" | tr '\n' ' '))" ||
	tap_fail "logs on aliased segments $lo..$((hi - 1)): $(logs "$main" | tr '\n' ' ')"
clean "$main" "two aliases"

for opts in "-O extra_attr,inode_checksum,quota,project_quota,lost_found" "-O ro"; do
	main=$(new_image main3.img 256M)
	dev1=$(new_image dev1.img 128M)
	"$MKFS" -q "${FIXED[@]}" $opts -c "$dev1@dev1.img" "$main" ||
		hard_error "mkfs $opts -c DEV@ALIAS failed"
	clean "$main" "$opts"
done

# ---- (d) refusals ------------------------------------------------------------------------
main=$(new_image main4.img 64M)
dev1=$(new_image dev1.img 64M)
big=$(new_image big.img 1G)
"$MKFS" -q "${FIXED[@]}" "$main" || hard_error "mkfs of the victim failed"
fill "$dev1"
# refused WHAT EXIT PATTERN ARGS...: mkfs ARGS exits EXIT with one error line matching
# PATTERN, and neither image changes
refused() {
	local what=$1 want=$2 pat=$3 rc lines s0
	shift 3
	s0=$(cat "$main" "$dev1" | sha256sum)
	"$MKFS" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	lines=$(grep -cv "^Try '.*--help' for more information\.$" "$TEST_TMP/err")
	if [ $rc -eq "$want" ] && [ "$lines" -eq 1 ] && grep -qiE "^mkfs.f2fs: .*$pat" "$TEST_TMP/err" &&
	   [ "$(cat "$main" "$dev1" | sha256sum)" = "$s0" ]; then
		tap_ok "refused: $what"
	else
		tap_fail "$what: exit $rc (expected $want), $lines lines: $(head -c 300 "$TEST_TMP/err")"
	fi
}
long=$(printf 'x%.0s' $(seq 256))
refused "no device before @" 16 "no device before '@'" -q -f -c @x "$main"
refused "no name after @" 16 "no alias file name" -q -f -c "$dev1@" "$main"
refused "a name with /" 16 "invalid alias file name 'a/b'" -q -f -c "$dev1@a/b" "$main"
refused "the name .." 16 "invalid alias file name '\.\.'" -q -f -c "$dev1@.." "$main"
refused "a name of 256 bytes" 16 "longer than 255" -q -f -c "$dev1@$long" "$main"
refused "one name twice" 16 "'x' given twice" -q -f -c "$dev1@x" -c "$big@x" "$main"
refused "lost+found with -O lost_found" 16 "lost\+found" -q -f -O lost_found -c "$dev1@lost+found" "$main"
refused "with -m" 16 "not supported with -m" -q -f -m -c "$dev1@x" "$main"
refused "with --root-dir" 16 "root-dir" -q -f --root-dir "$TEST_TMP" -c "$dev1@x" "$main"
refused "aliasing the first device (named twice)" 1 "same file" -q -f -c "$main@x" "$main"
refused "more aliased blocks than user blocks" 1 "more than the [0-9]+ user blocks" \
	-q -f -c "$big@big" "$main"

tap_summary
