#!/bin/bash
# How mkfs.f2fs reads its options, against f2fs-tools 1.15 and the development branch
# (jaegeuk/f2fs-tools, mkfs/f2fs_format_main.c, f2fs_parse_options() and
# add_default_options()): -t, -d and -a read with atoi (a word is 0), -o with atof (0 and a
# word: mkfs chooses), -g takes the next word as a set's name and ignores names it does not
# know, -g android overrides -w/-R given before or after it, [sectors] beyond the device is
# ignored, -b (development branch only) accepts 4096 and 16384, -S SIZE is a sparse image of SIZE
# bytes (1.15 without libsparse refuses it).  Then SOURCE_DATE_EPOCH with -U: two runs give
# the same bytes, before and after sload.f2fs, and a raw -S image as well.
. "$(dirname "$0")/lib.sh"

need_ref mkfs.f2fs fsck.f2fs
UUID=0b8f6f6e-21a1-4c1e-8a61-5b7d3c2e1f00

# same_outcome DESC SIZE ARGS...: both builds on fresh SIZE images (IMG in ARGS is the image)
# succeed or both fail; our volume is then clean for both fscks.
same_outcome()
{
	local desc=$1 size=$2 w a
	shift 2
	for w in OURS REF; do
		local img args=()
		img=$(new_image "$w.img" "$size")
		for a in "$@"; do args+=("${a//IMG/$img}"); done
		run "$w" mkfs.f2fs "${args[@]}"
	done
	if [ $((RC_OURS == 0)) -eq $((RC_REF == 0)) ]; then
		tap_ok "$desc: exit $RC_OURS, f2fs-tools $RC_REF"
		[ "$RC_OURS" -eq 0 ] && both_fsck_clean "$TEST_TMP/OURS.img" "$desc"
	else
		tap_fail "$desc: exit $RC_OURS, f2fs-tools $RC_REF [$(tail -c 300 "$TEST_TMP/OURS.err")]"
	fi
}

# cp_flags IMG: the current checkpoint's flags (pack 1's, which mkfs makes current)
cp_flags()
{
	python3 - "$1" <<'EOF'
import struct, sys
with open(sys.argv[1], 'rb') as f:
    f.seek(1024)
    cp = struct.unpack_from('<I', f.read(200), 76)[0]
    f.seek(cp * 4096)
    print(struct.unpack_from('<I', f.read(4096), 132)[0])
EOF
}

for t in 0 1 nodiscard 2; do
	same_outcome "-t $t" 128M -f -t "$t" IMG
	o=$(( $(cp_flags "$TEST_TMP/OURS.img") & 0x100 ))
	r=$(( $(cp_flags "$TEST_TMP/REF.img") & 0x100 ))
	[ "$o" = "$r" ] && tap_ok "-t $t: trimmed flag as f2fs-tools ($o)" ||
		tap_fail "-t $t: trimmed flag $o, f2fs-tools $r"
done
for o in 0 abc 5x 7.5; do
	same_outcome "-o $o" 256M -f -o "$o" IMG
done
same_outcome "-d 3 -a 1" 128M -f -d 3 -a 1 IMG
same_outcome "-d word" 128M -f -d x IMG
same_outcome "-g with an unknown set name" 128M -g desktop -l x IMG
same_outcome "-g -f takes -f as the name (blank image: no need to force)" 128M -g -f -l x IMG
# -g -f on an image that holds a volume: both refuse, since nothing forced the overwrite
img=$(new_image held.img 128M)
"${OURS[mkfs.f2fs]}" -q "$img" || hard_error "mkfs of held.img failed"
run OURS mkfs.f2fs -q -g -f -l x "$img"
run REF mkfs.f2fs -q -g -f -l x "$img"
[ "$RC_OURS" -ne 0 ] && [ "$RC_REF" -ne 0 ] &&
	tap_ok "-g -f over a volume: both refuse (exit $RC_OURS, f2fs-tools $RC_REF)" ||
	tap_fail "-g -f over a volume: exit $RC_OURS, f2fs-tools $RC_REF"

# [sectors]: in -w units; -g android's 4096 wins over any -w; more than the device: all of it
same_outcome "-w 4096 IMG 20000" 256M -f -w 4096 IMG 20000
b=$(sb_fields "$TEST_TMP/OURS.img" | sed -n 's/^block_count=//p')
[ "$b" = 20000 ] && tap_ok "-w 4096 with 20000 sectors: 20000 blocks" || tap_fail "-w 4096 20000: $b blocks"
same_outcome "-w 512 -g android IMG 20000 (android's 4096 wins)" 256M -w 512 -g android IMG 20000
b=$(sb_fields "$TEST_TMP/OURS.img" | sed -n 's/^block_count=//p')
r=$(sb_fields "$TEST_TMP/REF.img" | sed -n 's/^block_count=//p')
[ "$b" = "$r" ] && [ "$b" = 20000 ] && tap_ok "-w 512 -g android 20000: $b blocks, as f2fs-tools" ||
	tap_fail "-w 512 -g android 20000: $b blocks, f2fs-tools $r"
same_outcome "[sectors] beyond the device" 128M -f IMG 99999999
b=$(sb_fields "$TEST_TMP/OURS.img" | sed -n 's/^block_count=//p')
[ "$b" = 32768 ] && tap_ok "[sectors] beyond the device: the whole device" ||
	tap_fail "[sectors] beyond the device: $b blocks"
same_outcome "-R given before -g android (android's 0:0 wins)" 128M -R 1000:1000 -g android IMG

# -O ro: the development branch's layout (mkfs/f2fs_format.c, f2fs_prepare_super_block):
# segment 0 right after the superblocks, no SSA, data log at segment 0 and node log in the
# last section (1.15 puts the node log first and data at segment 1)
same_outcome "-O ro" 256M -f -O ro -l sys IMG
ro=$(python3 - "$TEST_TMP/OURS.img" <<'EOF'
import struct, sys
with open(sys.argv[1], 'rb') as f:
    f.seek(1024)
    sb = f.read(200)
    u32 = lambda o: struct.unpack_from('<I', sb, o)[0]
    f.seek(u32(76) * 4096)
    cp = f.read(4096)
    node = struct.unpack_from('<I', cp, 36)[0]
    data = struct.unpack_from('<I', cp, 84)[0]
    print('seg0=%d ssa=%d node_log_last=%d data_log=%d' %
          (u32(72), u32(64), node == u32(68) - 1, data))
EOF
)
[ "$ro" = "seg0=2 ssa=0 node_log_last=1 data_log=0" ] && tap_ok "-O ro layout: $ro" ||
	tap_fail "-O ro layout: $ro"
# 1.15's read-only layout (node log at segment 0, whose other logs point there too) is
# read through the two logs Linux uses
our_fsck_clean "$TEST_TMP/REF.img" && tap_ok "our fsck finds f2fs-tools 1.15's -O ro volume clean" ||
	tap_fail "our fsck on 1.15's -O ro volume: $(head -c 300 "$TEST_TMP/our_fsck.out")"

# -b: the development branch's; 1.15 does not know it
img=$(new_image b.img 128M)
run OURS mkfs.f2fs -q -f -b 4096 "$img"
[ "$RC_OURS" -eq 0 ] && our_fsck_clean "$img" && tap_ok "-b 4096 accepted (development branch)" ||
	tap_fail "-b 4096: exit $RC_OURS"
img=$(new_image b16.img 512M)   # 64 segments of 8 MiB
run OURS mkfs.f2fs -q -f -b 16384 "$img"
lbs=$(od -An -tu4 -j $((1024 + 16)) -N4 "$img" | tr -d ' ')
[ "$RC_OURS" -eq 0 ] && [ "$lbs" = 14 ] && tap_ok "-b 16384 accepted: log_blocksize 14" ||
	tap_fail "-b 16384: exit $RC_OURS, log_blocksize $lbs [$(cat "$TEST_TMP/OURS.err")]"
run OURS mkfs.f2fs -q -f -b 8192 "$img"
[ "$RC_OURS" -ne 0 ] && [ "$(wc -l < "$TEST_TMP/OURS.err")" -le 2 ] &&
	grep -q "8192.*not supported" "$TEST_TMP/OURS.err" &&
	tap_ok "-b 8192 refused: $(head -n 1 "$TEST_TMP/OURS.err")" ||
	tap_fail "-b 8192: exit $RC_OURS [$(cat "$TEST_TMP/OURS.err")]"

# -S SIZE: 1.15 (Debian, no libsparse) refuses; ours writes a sparse image of SIZE bytes
rm -f "$TEST_TMP/s.img" "$TEST_TMP/r.img"
run OURS mkfs.f2fs -q -S 134217728 "$TEST_TMP/s.img"
run REF mkfs.f2fs -q -S 134217728 "$TEST_TMP/r.img"
if [ "$RC_OURS" -eq 0 ] && [ "$(head -c 4 "$TEST_TMP/s.img" | od -An -tx4 | tr -d ' ')" = ed26ff3a ]; then
	tap_ok "-S 134217728: an Android sparse image (f2fs-tools 1.15: exit $RC_REF)"
else
	tap_fail "-S 134217728: exit $RC_OURS, no sparse image"
fi

# --- SOURCE_DATE_EPOCH -----------------------------------------------------------------------
mkdir -p "$TEST_TMP/tree/d"
echo data > "$TEST_TMP/tree/d/f"
touch -d @1600000000 "$TEST_TMP/tree/d/f" "$TEST_TMP/tree/d" "$TEST_TMP/tree"
for i in 1 2; do
	img=$(new_image "rep$i.img" 256M)
	SOURCE_DATE_EPOCH=1700000000 "${OURS[mkfs.f2fs]}" -q -U $UUID -l rep "$img" ||
		hard_error "mkfs with SOURCE_DATE_EPOCH failed"
done
cmp -s "$TEST_TMP/rep1.img" "$TEST_TMP/rep2.img" &&
	tap_ok "SOURCE_DATE_EPOCH + -U: two runs, the same bytes" ||
	tap_fail "SOURCE_DATE_EPOCH + -U: two runs differ at $(cmp "$TEST_TMP/rep1.img" "$TEST_TMP/rep2.img")"
img=$(new_image rep3.img 256M)
SOURCE_DATE_EPOCH=1700000001 "${OURS[mkfs.f2fs]}" -q -U $UUID -l rep "$img"
a=$(sb_fields "$TEST_TMP/rep1.img" | sed -n 's/^checkpoint_ver=//p')
b=$(sb_fields "$img" | sed -n 's/^checkpoint_ver=//p')
[ "$a" != "$b" ] && [ "$a" != 1 ] &&
	tap_ok "the checkpoint version follows the timestamp ($a, $b), not -r's fixed 1" ||
	tap_fail "checkpoint versions $a and $b for two timestamps"
for i in 1 2; do
	SOURCE_DATE_EPOCH=1700000000 "${OURS[sload.f2fs]}" -f "$TEST_TMP/tree" "$TEST_TMP/rep$i.img" \
		>/dev/null 2>&1 || hard_error "sload into rep$i.img failed"
done
cmp -s "$TEST_TMP/rep1.img" "$TEST_TMP/rep2.img" &&
	tap_ok "SOURCE_DATE_EPOCH + -U, then sload.f2fs -f: the same bytes" ||
	tap_fail "after sload.f2fs the two images differ at $(cmp "$TEST_TMP/rep1.img" "$TEST_TMP/rep2.img")"
for i in 1 2; do
	rm -f "$TEST_TMP/rep$i.simg"
	SOURCE_DATE_EPOCH=1700000000 "${OURS[mkfs.f2fs]}" -q -U $UUID -g android -S 268435456 \
		"$TEST_TMP/rep$i.simg" || hard_error "mkfs -S with SOURCE_DATE_EPOCH failed"
done
cmp -s "$TEST_TMP/rep1.simg" "$TEST_TMP/rep2.simg" &&
	tap_ok "SOURCE_DATE_EPOCH + -U -g android -S: the same sparse image" ||
	tap_fail "two -S runs differ"

tap_summary
