#!/bin/bash
# Repair after a power cut keeps what was fsync'd.  The base image "unclean" (made by
# tests/vm/unclean.sh: power cut after fsyncs, so node blocks wait for the kernel's
# roll-forward) gets damage elsewhere (tests/images/corpus/f_powercut_repair/script).  Debian's
# fsck.f2fs -d 1 lists the fsync'd records it finds the way the kernel does (which inode,
# which node block, which data blocks): that list is the oracle.
#  1. fsck -y repairs (exit 1); a rerun finds only the pending roll-forward (exit 0);
#     Debian's fsck finds the volume clean.
#  2. After the repair Debian finds the same fsync'd inodes and data blocks; the data
#     blocks hold the same bytes; the node blocks it now finds (our copies) equal the
#     originals except for the footer's version and next-block fields and the inode
#     checksum that covers them.  A second repair (new damage) keeps them again.
#  3. A fault at every write of the repair leaves the old volume: the same records at the
#     same places with the same bytes, and our fsck finds what it found before.
# The kernel's replay itself is proven by tests/vm/powercut.sh.
. "$(dirname "$0")/lib.sh"
need_python
need_ref_tools

orig=$TEST_TMP/orig.img
fsck_case_image f_powercut_repair "$orig" > "$TEST_TMP/setup" 2>&1 ||
	hard_error "setup failed: $(tail -1 "$TEST_TMP/setup")"

# records IMG: "node INO BLK" and "data INO BLK" lines of Debian's roll-forward scan
records() {
	"$REF_FSCK" --dry-run -d 1 "$1" </dev/null 2>&1 |
		sed -n 's/^do_record_fsync_data: \[\(node\|data\)\] ino = \([0-9]*\), nid = [0-9]*, blkaddr = \([0-9]*\)$/\1 \2 \3/p'
}
block() { dd if="$1" bs=4096 skip="$2" count=1 status=none; }
# data blocks' bytes, one hash per record
data_sums() {
	local img=$1 kind ino blk
	while read -r kind ino blk; do
		[ "$kind" = data ] && echo "$ino $blk $(block "$img" "$blk" | sha256sum | cut -c1-16)"
	done
}

records "$orig" > "$TEST_TMP/rec.0"
nodes0=$(grep -c '^node' "$TEST_TMP/rec.0")
datas0=$(grep -c '^data' "$TEST_TMP/rec.0")
[ "$nodes0" -ge 2 ] && [ "$datas0" -ge 2 ] ||
	hard_error "the base image has no roll-forward data for Debian's fsck ($nodes0 nodes, $datas0 data blocks)"
data_sums "$orig" < "$TEST_TMP/rec.0" > "$TEST_TMP/sums.0"
"$FSCK" -f -n "$orig" > "$TEST_TMP/before" 2>&1
before_rc=$?
[ $before_rc -eq 4 ] || hard_error "the damaged image checks with exit $before_rc, not 4"

# 1. the repair and the rerun
img=$TEST_TMP/t.img
cp --sparse=always "$orig" "$img"
"$FSCK" -y "$img" > "$TEST_TMP/run1" 2>&1
rc1=$?
"$FSCK" -f -n "$img" > "$TEST_TMP/run2" 2>&1
rc2=$?
if [ $rc1 -ne 1 ] || [ $rc2 -ne 0 ]; then
	tap_fail "repair exit $rc1 (want 1), rerun exit $rc2 (want 0): $(tr '\n' ' ' < "$TEST_TMP/run2")"
elif ! grep -q '^\[0x020003\]' "$TEST_TMP/run2" || [ "$(grep -c '^\[' "$TEST_TMP/run2")" -ne 1 ]; then
	tap_fail "the rerun should report only the pending roll-forward: $(tr '\n' ' ' < "$TEST_TMP/run2")"
elif grep -q ' 0 fixed' "$TEST_TMP/run1"; then
	tap_fail "the repair says it fixed nothing"
else
	tap_ok "fsck -y repairs the damage (exit 1); the rerun notes only the pending roll-forward (exit 0)"
fi
if ref_fsck "$img" > "$TEST_TMP/ref" 2>&1; then
	tap_ok "Debian's fsck finds the repaired volume clean"
else
	tap_fail "Debian's fsck disagrees: $(tail -5 "$TEST_TMP/ref" | tr '\n' ' ')"
fi

# 2. the same fsync'd data after the repair
records "$img" > "$TEST_TMP/rec.1"
data_sums "$img" < "$TEST_TMP/rec.1" > "$TEST_TMP/sums.1"
if ! diff <(grep '^data' "$TEST_TMP/rec.0") <(grep '^data' "$TEST_TMP/rec.1") > "$TEST_TMP/d" ||
   ! diff <(awk '$1=="node"{print $2}' "$TEST_TMP/rec.0") \
	  <(awk '$1=="node"{print $2}' "$TEST_TMP/rec.1") >> "$TEST_TMP/d"; then
	tap_fail "Debian's fsck finds other fsync'd records after the repair: $(head -4 "$TEST_TMP/d" | tr '\n' ' ')"
elif ! cmp -s "$TEST_TMP/sums.0" "$TEST_TMP/sums.1"; then
	tap_fail "fsync'd data blocks changed"
else
	tap_ok "after the repair: the same $nodes0 fsync'd node records and $datas0 data blocks, same bytes"
fi
# node copies: the bytes that may differ are the inode checksum (offset 368, inodes with
# extra attributes) and the footer's cp_ver and next_blkaddr (4084..4095); cmp -l counts
# from 1.
bad=
paste <(awk '$1=="node"{print $3}' "$TEST_TMP/rec.0") <(awk '$1=="node"{print $3}' "$TEST_TMP/rec.1") |
while read -r a b; do
	[ "$a" != "$b" ] || { echo "node block $a was not copied"; continue; }
	cmp -l <(block "$orig" "$a") <(block "$img" "$b") |
		awk -v a="$a" -v b="$b" '!(($1 >= 369 && $1 <= 372) || $1 >= 4085) {
			print "node block " a " copied to " b " differs at byte " $1 - 1; exit }'
done > "$TEST_TMP/nodes"
bad=$(head -1 "$TEST_TMP/nodes")
if [ -n "$bad" ]; then
	tap_fail "$bad"
else
	tap_ok "the node records now point at copies equal to the originals but for version, next block and checksum"
fi

# a second repair of the repaired volume (new damage) copies the chain again
IMG=$img
inject --node --path /base/inline --mb i_links --val 7
"$FSCK" -y "$img" > "$TEST_TMP/run3" 2>&1
rc3=$?
records "$img" > "$TEST_TMP/rec.3"
data_sums "$img" < "$TEST_TMP/rec.3" > "$TEST_TMP/sums.3"
if [ $rc3 -ne 1 ] || ! "$FSCK" -f -n "$img" > /dev/null 2>&1; then
	tap_fail "a second repair: exit $rc3, then not clean"
elif ! cmp -s <(grep '^data' "$TEST_TMP/rec.0") <(grep '^data' "$TEST_TMP/rec.3") ||
     ! cmp -s "$TEST_TMP/sums.0" "$TEST_TMP/sums.3"; then
	tap_fail "a second repair lost fsync'd records"
else
	tap_ok "a second repair of the repaired volume keeps the same fsync'd records"
fi

# 3. a fault at every write
# a half-written inactive pack is noted (0x020001) and counted: harmless, the kernel mounts
# the newest valid pack
norm='s/; [0-9]* problems, 0 fixed/; N problems, 0 fixed/'
sed -e "s|$orig|IMG|g" -e "$norm" "$TEST_TMP/before" > "$TEST_TMP/before.n"
interrupted=0 bad=
for n in $(seq 1 200); do
	cp --sparse=always "$orig" "$img"
	ZF2FS_FAULT_WRITES=$n "$FSCK" -y "$img" > "$TEST_TMP/run" 2>&1
	rc=$?
	[ $((rc & 8)) -ne 0 ] || break
	interrupted=$((interrupted + 1))
	grep -q ' 0 fixed; errors remain' "$TEST_TMP/run" ||
		{ bad="write $n failed, but the summary says something was fixed: $(tail -1 "$TEST_TMP/run")"; break; }
	"$FSCK" -f -n "$img" 2>&1 | sed -e "s|$img|IMG|g" -e '/^\[0x020001\]/d' -e "$norm" > "$TEST_TMP/after"
	if ! cmp -s "$TEST_TMP/before.n" "$TEST_TMP/after"; then
		bad="write $n failed: our fsck no longer finds what it found before"
		break
	fi
	records "$img" > "$TEST_TMP/rec.n"
	data_sums "$img" < "$TEST_TMP/rec.n" > "$TEST_TMP/sums.n"
	if ! cmp -s "$TEST_TMP/rec.0" "$TEST_TMP/rec.n" || ! cmp -s "$TEST_TMP/sums.0" "$TEST_TMP/sums.n"; then
		bad="write $n failed: the roll-forward records of the old checkpoint changed"
		break
	fi
	for blk in $(awk '$1=="node"{print $3}' "$TEST_TMP/rec.0"); do
		cmp -s <(block "$orig" "$blk") <(block "$img" "$blk") ||
			{ bad="write $n failed: node block $blk of the chain was overwritten"; break 2; }
	done
done
if [ -n "$bad" ]; then
	tap_fail "$bad"
elif [ $interrupted -lt 5 ] || [ $rc -ne 1 ]; then
	tap_fail "only $interrupted interrupted runs, then exit $rc"
else
	tap_ok "$interrupted interrupted repairs each left the old volume and its roll-forward chain"
fi
tap_summary
