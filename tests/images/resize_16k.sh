#!/bin/bash
# resize.f2fs on volumes of 16 KiB blocks, plain and packed_ssa (an SSA block holds the
# summaries of four segments): the kernel-aged images tests/images/base/aged16k and
# aged16k_packed (384 MiB, /t with its zwork manifest in /manifest) and our own
# mkfs.f2fs -b 16384 volumes aged by transactions (move_lib.sh).  After every resize: our
# fsck -f -n clean, the superblock's size as asked, the files unchanged (the aged
# images: every path of /t, extracted by dump.f2fs, as /manifest lists it, but for the
# link counts and xattr digests that an extracted copy does not carry; ours: every
# file's sha256).  Per aged image:
#  1. grow 384 MiB -> 1 GiB within the areas (segment 0 stays), the space counts those
#     of our mkfs -b 16384 for 1 GiB;
#  2. grow past what the SSA covers (512 segments plain, 2048 packed: 5 and 20 GiB):
#     the metadata areas rebuilt for the new size (segment 0 moves), the SSA larger;
#  3. shrink that back to 384 MiB: the areas fitted, where the image had them;
#  4. grown to 1 GiB, files added by transactions in fresh sections past the old end,
#     shrink back to 384 MiB: the blocks move below the cut;
#  5. a shrink below what the space policy needs, and -s past the SSA, are refused, the
#     image byte-identical;
#  6. a fault at writes spread over the resizes of 2 and 4 (and each of the last ones):
#     the old or the new size, clean, files unchanged; running again finishes.
# Our volumes (plain and packed_ssa, 384 MiB, aged): grow to 1 GiB and past the SSA;
# the 1 GiB one, with files added past 384 MiB, shrunk back moving them, with faults.
# make check takes one of each pair, the kernel's packed_ssa image and our plain volume;
# ZF2FS_FULL=1 all four.
. "$(dirname "$0")/lib.sh"
fault_matrix
RESIZE=$OUR_BIN/resize.f2fs
DUMP=$OUR_BIN/dump.f2fs
POP=$OUR_BIN/txn_populate
ZWORK=$top_builddir/tests/vm/zwork
[ -x "$RESIZE" ] || hard_error "resize.f2fs is not built: $RESIZE"
[ -x "$DUMP" ] || hard_error "dump.f2fs is not built: $DUMP"
[ -x "$POP" ] || hard_error "txn_populate is not built: $POP"
[ -x "$ZWORK" ] || hard_error "zwork is not built: $ZWORK"
[ -x "$FSCK" ] || hard_error "fsck.f2fs is not built: $FSCK"
. "$(dirname "$0")/move_lib.sh"
command -v xz > /dev/null || skip "xz not found"
export SOURCE_DATE_EPOCH=1700000000
M=1048576
# ZF2FS_REF16_FSCK: an fsck.f2fs of 16 KiB volumes (f2fs-tools' development branch) run
# too after each resize, when given (by hand: CI has none)
REF16=${ZF2FS_REF16_FSCK:-}

# sbf IMG FIELD: a superblock field (dump.f2fs --superblock); cpf: of the current
# checkpoint (--checkpoint lists the pack in use first)
sbf() { "$DUMP" --superblock "$1" 2>/dev/null | awk -v f="$2" '$1 == f { print $2; exit }'; }
cpf() { "$DUMP" --checkpoint "$1" 2>/dev/null | awk -v f="$2" '$1 == f { print $2; exit }'; }
areas()
{
	local f
	for f in segment0_blkaddr nat_blkaddr ssa_blkaddr main_blkaddr segment_count_ssa segment_count_main; do
		printf '%s=%s ' $f "$(sbf "$1" $f)"
	done
}

# files IMG: one line saying the files are as they were, or what differs.  With $MAN
# set: /t against that manifest; else every file's sha256 against $WANT.
files()
{
	local out
	if [ -n "$MAN" ]; then
		rm -rf "$TEST_TMP/x"; mkdir "$TEST_TMP/x"
		"$DUMP" --extract /t -o "$TEST_TMP/x/t" "$1" > /dev/null 2>&1 ||
			{ echo "dump.f2fs --extract /t failed"; return 1; }
		out=$("$ZWORK" verify "$TEST_TMP/x/t" "$MAN" 2>&1)
		rm -rf "$TEST_TMP/x"
		printf '%s\n' "$out" | grep -q '^verify: [0-9]* entries match' ||
			{ printf '%s\n' "$out" | head -3 | tr '\n' ' '; return 1; }
		printf '%s\n' "$out" | tail -1 | sed 's/ match .*/ of \/t as the manifest lists them/'
	else
		shas "$1" > "$TEST_TMP/now.sha" 2>/dev/null || { echo "cannot read the files"; return 1; }
		cmp -s "$WANT" "$TEST_TMP/now.sha" ||
			{ echo "files changed: $(diff "$WANT" "$TEST_TMP/now.sha" | head -3 | tr '\n' ' ')"; return 1; }
		echo "$(wc -l < "$WANT") files' sha256 unchanged"
	fi
}

# verify NAME IMG BLOCKS: block_count, our fsck, the files
verify()
{
	local name=$1 img=$2 blocks=$3 why="" out f
	[ "$(sbf "$img" block_count)" = "$blocks" ] ||
		why="block_count $(sbf "$img" block_count), expected $blocks"
	if [ -z "$why" ]; then
		out=$("$FSCK" -f -n "$img" 2>&1) || why="our fsck: $(printf '%s\n' "$out" | head -3 | tr '\n' ' ')"
	fi
	[ -z "$why" ] && { f=$(files "$img") || why=$f; }
	if [ -z "$why" ] && [ -n "$REF16" ]; then
		out=$("$REF16" -f --dry-run "$img" 2>&1)
		{ [ $? = 0 ] && ! printf '%s\n' "$out" | grep -q 'Fail'; } ||
			why="$REF16: $(printf '%s\n' "$out" | grep -m3 'Fail' | tr '\n' ' ')"
		f="$f; $REF16 -f --dry-run clean"
	fi
	if [ -z "$why" ]; then tap_ok "$name: our fsck clean, $f"; else tap_fail "$name: $why"; fi
}

# resize_ok NAME IMG PATTERN ARGS...: resize.f2fs exits 0 and says PATTERN
resize_ok()
{
	local name=$1 img=$2 pat=$3; shift 3
	if "$RESIZE" "$@" "$img" > "$TEST_TMP/out" 2>&1 && grep -q "$pat" "$TEST_TMP/out"; then
		tap_ok "$name: $(tr '\n' ' ' < "$TEST_TMP/out")"
	else
		tap_fail "$name: $(tr '\n' ' ' < "$TEST_TMP/out")"
	fi
}

# faults (resize_faults.sh): POINTS points spread over the writes (16; 4 in the sanitizer
# build) and the last 12 (6 there)
. "$(dirname "$0")/resize_faults.sh"
POINTS=16
[ -n "${ASAN_OPTIONS:-}" ] && POINTS=4
fault_files() { local f; f=$(files "$1") || { echo "$f"; return 1; }; }

# our mkfs -b 16384 of SIZE with FEATURES into IMG
mkfs16() { truncate -s "$2" "$1" && "$MKFS" -f -q -b 16384 ${3:+-O "$3"} "$1" > /dev/null 2>&1; }

# add_files IMG: on a 1 GiB volume, 12 files (up to 900 KiB) in /more by transactions
# past 384 MiB's cut: 40 files of 8 MiB in /fill first take the free sections below it,
# and go after
add_files()
{
	local i items=("more/") fill=("fill/") gone=()
	head -c $((8 * M)) /dev/zero | tr '\0' 'z' > "$TEST_TMP/filler"
	for i in $(seq 0 39); do fill+=("fill/f$i=$TEST_TMP/filler"); gone+=("-fill/f$i"); done
	ZF2FS_TXN_FRESH_LOGS=1 "$POP" "$1" "${fill[@]}" > /dev/null || hard_error "filling failed"
	for i in $(seq 0 11); do
		head -c $((i * 77777 + 5)) /dev/urandom > "$TEST_TMP/more$i"
		items+=("more/m$i=$TEST_TMP/more$i")
	done
	ZF2FS_TXN_FRESH_LOGS=1 "$POP" "$1" "${items[@]}" > /dev/null || hard_error "adding files failed"
	"$POP" "$1" "${gone[@]}" > /dev/null || hard_error "removing the fillers failed"
	rm -f "$TEST_TMP/filler"
}

AGED="aged16k aged16k_packed" OURS16=("" packed_ssa)
[ $MATRIX_FULL = 1 ] || { AGED=aged16k_packed; OURS16=(""); }
for base in $AGED; do
	B=$TEST_TMP/$base.img
	xz -dc "$CASE_BASE/$base.img.xz" > "$B" || hard_error "xz -dc $base"
	[ "$(sbf "$B" log_blocksize)" = 14 ] || hard_error "$base: not of 16 KiB blocks"
	if [ $base = aged16k ]; then big=5; feat=""; else big=20; feat=packed_ssa; fi
	MAN=$TEST_TMP/$base.manifest
	# the manifest without what an extracted copy cannot carry: link counts of files
	# (extracted once per path) and xattr digests
	"$DUMP" --cat /manifest "$B" |
		sed -E 's/^f ([0-7]+) [0-9]+ /f \1 1 /; s/^([^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+) [^ ]+ /\1 - /' \
		> "$MAN" || hard_error "$base: no /manifest"
	f=$(files "$B") || hard_error "$base: the image's own /t differs from its manifest: $f"
	seg0=$(sbf "$B" segment0_blkaddr)

	# 1. grow within the areas, mkfs's space counts for 1 GiB
	G1=$TEST_TMP/g1.img
	cp --sparse=always "$B" "$G1"; truncate -s 1G "$G1"
	resize_ok "$base: grow 384 MiB -> 1 GiB" "$G1" "^grown: 40 -> 120 main segments"
	REF=$TEST_TMP/ref.img
	rm -f "$REF"; mkfs16 "$REF" 1G "extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime,compression,quota,casefold${feat:+,$feat}" ||
		hard_error "mkfs -b 16384 of 1 GiB failed"
	counts() { for c in user_block_count rsvd_segment_count overprov_segment_count; do printf '%s=%s ' $c "$(cpf "$1" $c)"; done; }
	if [ "$(sbf "$G1" segment0_blkaddr)" = "$seg0" ] && [ "$(counts "$G1")" = "$(counts "$REF")" ]; then
		tap_ok "$base: 1 GiB: segment 0 stays, space counts as our mkfs -b 16384 gives 1 GiB ($(counts "$G1"))"
	else
		tap_fail "$base: 1 GiB: segment 0 $(sbf "$G1" segment0_blkaddr) (was $seg0), counts $(counts "$G1"), mkfs's $(counts "$REF")"
	fi
	verify "$base: grown to 1 GiB" "$G1" $((1024 * M / 16384))

	# 2. grow past the SSA: the areas rebuilt
	GB=$TEST_TMP/gbig.img
	cp --sparse=always "$B" "$GB"; truncate -s ${big}G "$GB"
	resize_ok "$base: grow 384 MiB -> $big GiB" "$GB" "metadata areas rebuilt"
	if [ "$(sbf "$GB" segment0_blkaddr)" = "$(sbf "$B" main_blkaddr)" ] &&
	   [ "$(sbf "$GB" segment_count_ssa)" -gt "$(sbf "$B" segment_count_ssa)" ] &&
	   [ "$(sbf "$GB" segment_count_main)" -gt 512 ]; then
		tap_ok "$base: $big GiB: segment 0 on the old main area, $(areas "$GB")"
	else
		tap_fail "$base: $big GiB: $(areas "$GB")"
	fi
	verify "$base: grown to $big GiB" "$GB" $((big * 1024 * M / 16384))

	# 3. back to 384 MiB, the areas fitted where the image has them
	resize_ok "$base: shrink $big GiB -> 384 MiB" "$GB" "^shrunk" -t $((384 * 2048))
	truncate -s 384M "$GB"
	if [ "$(areas "$GB")" = "$(areas "$B")" ]; then
		tap_ok "$base: 384 MiB again: the areas where the image has them ($(areas "$GB"))"
	else
		tap_fail "$base: 384 MiB again: $(areas "$GB"), the image's $(areas "$B")"
	fi
	verify "$base: shrunk back to 384 MiB" "$GB" $((384 * M / 16384))

	# 4. blocks past the cut move
	S=$TEST_TMP/s.img
	cp --sparse=always "$G1" "$S"
	add_files "$S"
	cp --sparse=always "$S" "$TEST_TMP/s_before.img"
	"$DUMP" --extract /more -o "$TEST_TMP/more.x" "$S" > /dev/null ||
		hard_error "cannot read /more"
	past=$("$DUMP" --segments "$S" 2>/dev/null |
		sed -n 's/.*segno=\([0-9]*\) .*valid_blocks=\([0-9]*\).*/\1 \2/p' | awk '$1 >= 40 && $2 > 0' | wc -l)
	resize_ok "$base: shrink 1 GiB with files past 384 MiB ($past segments) -> 384 MiB" "$S" \
		"^[1-9][0-9]* blocks moved" -t $((384 * 2048))
	truncate -s 384M "$S"
	verify "$base: shrunk to 384 MiB, blocks moved" "$S" $((384 * M / 16384))
	rm -rf "$TEST_TMP/more.y"
	if [ "$past" -gt 0 ] && "$DUMP" --extract /more -o "$TEST_TMP/more.y" "$S" > /dev/null &&
	   diff -r "$TEST_TMP/more.x" "$TEST_TMP/more.y" > /dev/null; then
		tap_ok "$base: the 12 files added past the cut read back the same"
	else
		tap_fail "$base: the files added past the cut ($past segments) differ"
	fi
	rm -rf "$TEST_TMP/more.x" "$TEST_TMP/more.y"

	# 5. refused: too small for the space policy; -s past the SSA
	cp --sparse=always "$B" "$TEST_TMP/r.img"; truncate -s ${big}G "$TEST_TMP/r.img"
	cp --sparse=always "$TEST_TMP/r.img" "$TEST_TMP/r0.img"
	"$RESIZE" -s "$TEST_TMP/r.img" > "$TEST_TMP/out" 2> "$TEST_TMP/err"; rc=$?
	if [ $rc = 1 ] && [ "$(wc -l < "$TEST_TMP/err")" = 1 ] && cmp -s "$TEST_TMP/r0.img" "$TEST_TMP/r.img"; then
		tap_ok "$base: grow -s to $big GiB refused: $(cat "$TEST_TMP/err")"
	else
		tap_fail "$base: grow -s to $big GiB: exit $rc, $(head -2 "$TEST_TMP/err")"
	fi
	cp --sparse=always "$B" "$TEST_TMP/r.img"
	"$RESIZE" -t $((160 * 2048)) "$TEST_TMP/r.img" > "$TEST_TMP/out" 2> "$TEST_TMP/err"; rc=$?
	if [ $rc = 1 ] && [ "$(wc -l < "$TEST_TMP/err")" = 1 ] && cmp -s "$B" "$TEST_TMP/r.img"; then
		tap_ok "$base: shrink to 160 MiB refused: $(cat "$TEST_TMP/err")"
	else
		tap_fail "$base: shrink to 160 MiB: exit $rc, $(head -2 "$TEST_TMP/err")"
	fi

	# 6. faults
	fault_loop "$base: faults, grow to $big GiB" "$B" ${big}G $((384 * M / 16384)) \
		$((big * 1024 * M / 16384))
	fault_loop "$base: faults, shrink 1 GiB -> 384 MiB moving blocks" "$TEST_TMP/s_before.img" 1G \
		$((1024 * M / 16384)) $((384 * M / 16384)) -t $((384 * 2048))
done

# our volumes
MAN=""
WANT=$TEST_TMP/want.sha
for feat in "${OURS16[@]}"; do
	name="mkfs -b 16384${feat:+ -O $feat}"
	O=$TEST_TMP/ours.img
	rm -f "$O"
	mkfs16 "$O" 384M "extra_attr,inode_checksum${feat:+,$feat}" || hard_error "$name failed"
	age_image "$O"
	shas "$O" > "$WANT" || hard_error "$name: cannot read the aged files"
	[ "$(wc -l < "$WANT")" -gt 50 ] || hard_error "$name: too few files"
	[ $feat ] && big=20 || big=5
	cp --sparse=always "$O" "$TEST_TMP/o1.img"; truncate -s 1G "$TEST_TMP/o1.img"
	resize_ok "$name: grow 384 MiB -> 1 GiB" "$TEST_TMP/o1.img" "^grown"
	verify "$name: grown to 1 GiB" "$TEST_TMP/o1.img" $((1024 * M / 16384))
	cp --sparse=always "$O" "$TEST_TMP/ob.img"; truncate -s ${big}G "$TEST_TMP/ob.img"
	resize_ok "$name: grow 384 MiB -> $big GiB" "$TEST_TMP/ob.img" "metadata areas rebuilt"
	verify "$name: grown to $big GiB" "$TEST_TMP/ob.img" $((big * 1024 * M / 16384))
	# files past the cut of 384 MiB on the 1 GiB volume
	add_files "$TEST_TMP/o1.img"
	shas "$TEST_TMP/o1.img" > "$WANT" || hard_error "$name: cannot read the files"
	cp --sparse=always "$TEST_TMP/o1.img" "$TEST_TMP/os_before.img"
	resize_ok "$name: shrink 1 GiB with files past 384 MiB -> 384 MiB" "$TEST_TMP/o1.img" \
		"^[1-9][0-9]* blocks moved" -t $((384 * 2048))
	truncate -s 384M "$TEST_TMP/o1.img"
	verify "$name: shrunk to 384 MiB" "$TEST_TMP/o1.img" $((384 * M / 16384))
	fault_loop "$name: faults, shrink 1 GiB -> 384 MiB moving blocks" "$TEST_TMP/os_before.img" 1G \
		$((1024 * M / 16384)) $((384 * M / 16384)) -t $((384 * 2048))
done
tap_summary
