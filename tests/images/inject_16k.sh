#!/bin/bash
# inject.f2fs on the kernel-aged volumes of 16 KiB blocks (tests/images/base/aged16k and
# aged16k_packed): each change lands at an offset only a 16 KiB block has, and is read back
# at its bytes (the offsets worked out below from the 16 KiB layout, not asked of the tool)
# and through dump.f2fs; the checksums inject.f2fs redoes stay right (our fsck finds only
# the change made); an index past the 16 KiB bound is refused in one line and changes
# nothing.
. "$(dirname "$0")/lib.sh"
[ -x "$INJECT" ] || hard_error "inject.f2fs is not built: $INJECT"
DUMP=${ZF2FS_DUMP:-$OUR_BIN/dump.f2fs}
[ -x "$DUMP" ] || hard_error "dump.f2fs is not built: $DUMP"
[ -x "$FSCK" ] || hard_error "fsck.f2fs is not built: $FSCK"
command -v xz > /dev/null || skip "xz not found"

BS=16384
IMG=$TEST_TMP/t.img

check() # description, then a command that must succeed
{
	local what=$1
	shift
	if "$@"; then tap_ok "$what"; else tap_fail "$what"; fi
}

# u32 BLK OFF / u8 BLK OFF: the little-endian number at byte OFF of 16 KiB block BLK
u32() { od -An -tu4 -j $(($1 * BS + $2)) -N4 "$IMG" | tr -d ' '; }
u8() { od -An -tu1 -j $(($1 * BS + $2)) -N1 "$IMG" | tr -d ' '; }
# the problem codes our fsck -f -n finds, sorted, on one line
fsck_codes() { "$FSCK" -f -n "$IMG" 2>&1 | grep -o '^\[0x[0-9a-f]*\]' | tr -d '[]' | sort -u | tr '\n' ' '; }
# changed: the bytes of IMG that differ from FROM, as "offset" lines (cmp counts from 1)
changed() { cmp -l "$1" "$IMG" | awk '{ print $1 - 1 }'; }

bad() # what the one line must say, then the arguments: refused, exit 1, nothing changed
{
	local want=$1 err rc
	shift
	err=$("$INJECT" "$@" "$IMG" 2>&1 > /dev/null)
	rc=$?
	if [ "$rc" = 1 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
	   [ "$err" = "inject.f2fs: $want" ] && cmp -s "$IMG" "$TEST_TMP/base.img"; then
		tap_ok "$base: refused: $*"
	else
		tap_fail "$base: $* gave exit $rc, '$err' (wanted '$want'), image $(cmp -s "$IMG" \
			"$TEST_TMP/base.img" && echo unchanged || echo CHANGED)"
		cp "$TEST_TMP/base.img" "$IMG"
	fi
}

for base in aged16k aged16k_packed; do
	xz -dc "$CASE_BASE/$base.img.xz" > "$TEST_TMP/base.img" || hard_error "xz -dc $base"
	cp "$TEST_TMP/base.img" "$IMG"
	check "$base: log_blocksize 14" [ "$(get --sb 1 --mb log_blocksize)" = 14 ]

	# /s/sparse: extra attributes of 36 bytes (9 words), so i_addr[3000] is file block
	# 2991, past the 923 addresses a 4 KiB inode holds; i_addr starts at byte 360
	sp=$(ino /s/sparse)
	spb=$(addr "$sp")
	check "$base: i_addr[3000] of /s/sparse is a hole" [ "$(u32 "$spb" $((360 + 3000 * 4)))" = 0 ]
	inject --node --nid "$sp" --mb i_addr --idx 3000 --val 74565 > /dev/null
	check "$base: i_addr[3000] at byte 12360 of the inode block" \
		[ "$(u32 "$spb" $((360 + 3000 * 4)))" = 74565 ]
	check "$base: dump.f2fs maps file block 2991 to 74565" \
		eval '"$DUMP" -i "$sp" "$IMG" 2>/dev/null | grep -q "fofs=2991 blkaddr=74565 owner=$sp "'
	check "$base: the inode checksum is redone over the 16 KiB block" \
		eval '"$DUMP" -i "$sp" "$IMG" 2>/dev/null | grep -q "i_inode_checksum_ok *yes"'
	# the footer is the block's last 24 bytes: nid, ino, flag, cp_ver (8), next_blkaddr
	inject --node --nid "$sp" --mb next_blkaddr --val 77 > /dev/null
	check "$base: footer next_blkaddr at byte 16380" [ "$(u32 "$spb" 16380)" = 77 ]
	check "$base: footer nid at byte 16360" [ "$(u32 "$spb" 16360)" = "$sp" ]
	check "$base: dump.f2fs reads next_blkaddr 77" \
		eval '"$DUMP" -i "$sp" "$IMG" 2>/dev/null | grep -q "next_blkaddr *77$"'
	# i_nid[] are the 5 words before the footer: i_nid[0] at 16340
	check "$base: i_nid[0] read at byte 16340" \
		[ "$(get --node --nid "$sp" --mb i_nid --idx 0)" = "$(u32 "$spb" 16340)" ]
	check "$base: i_nid[0] is /s/sparse's first direct node (nonzero)" \
		[ "$(u32 "$spb" 16340)" -gt 0 ]
	# the first direct node: 4090 addresses, the last at byte 16356, file block 3936 + 4089
	dn=$(u32 "$spb" 16340)
	dnb=$(addr "$dn")
	inject --node --nid "$dn" --mb addr --idx 4089 --val 99999 > /dev/null
	check "$base: direct node addr[4089] at byte 16356" [ "$(u32 "$dnb" 16356)" = 99999 ]
	check "$base: dump.f2fs maps file block 8025 to 99999" \
		eval '"$DUMP" -i "$sp" "$IMG" 2>/dev/null | grep -q "fofs=8025 blkaddr=99999 owner=$dn "'
	cp "$TEST_TMP/base.img" "$IMG"
	bad "invalid index 3995 of i_addr[] (it has 3995)" --node --nid "$sp" --mb i_addr --idx 3995 --val 1
	bad "invalid index 4090 of addr[] (it has 4090)" --node --nid "$dn" --mb addr --idx 4090 --val 1
	bad "invalid index 5 of i_nid[] (it has 5)" --node --nid "$sp" --mb i_nid --idx 5 --val 1

	# NAT: 1820 entries of 9 bytes per block, so nid 700 is entry 700 of block 0 (a 4 KiB
	# block ends at nid 454); ino is 1 byte in
	nat=$(get --sb 1 --mb nat_blkaddr)
	set -- $(inject --nat 1 --nid 700 --mb ino --where)
	check "$base: NAT entry of nid 700 in block 0, byte 6301 ($*)" [ "$*" = "$nat 6301" ]
	inject --nat 1 --nid 700 --mb ino --val 701 > /dev/null
	check "$base: NAT ino of nid 700 at byte 6301" [ "$(u32 "$nat" 6301)" = 701 ]
	check "$base: dump.f2fs reads nid 700's ino 701" \
		eval '"$DUMP" -n 700 "$IMG" 2>/dev/null | grep -q "nid=700 ino=701 "'
	cp "$TEST_TMP/base.img" "$IMG"
	# a nid the NAT journal holds: its entry in the checkpoint pack's summary, the journal
	# of a 16 KiB (or packed 4 KiB) summary
	jn=$("$DUMP" -n 0~-1 "$IMG" 2>/dev/null | sed -n 's/.*nid=\([0-9]*\) .*journal=yes.*/\1/p' | tail -1)
	check "$base: the NAT journal holds a nid ($jn)" [ -n "$jn" ]
	inject --nat 0 --nid "$jn" --mb version --val 9 > /dev/null
	check "$base: journal entry of nid $jn changed, dump.f2fs reads version 9" \
		eval '"$DUMP" -n "$jn" "$IMG" 2>/dev/null | grep -q "nid=$jn .*version=9 journal=yes"'
	cp "$TEST_TMP/base.img" "$IMG"

	# SIT: entry of segment 1 (74 bytes each), vblocks 2 bytes in, in both SIT copies'
	# place by --sit 1
	sit=$(get --sb 1 --mb sit_blkaddr)
	main=$(get --sb 1 --mb main_blkaddr)
	set -- $(inject --sit 1 --blk $((main + 512)) --mb mtime --where)
	check "$base: SIT mtime of segment 1 at byte 74 + 66 of SIT block 0 ($*)" [ "$*" = "$sit 140" ]

	# checkpoint: elapsed_time, the crc redone at the block's last word (16380)
	inject --cp 0 --mb elapsed_time --val 4242 > /dev/null
	check "$base: checkpoint elapsed_time changed" [ "$(get --cp 0 --mb elapsed_time)" = 4242 ]
	check "$base: both checkpoint crcs verify (at byte 16380)" \
		[ "$("$DUMP" --checkpoint "$IMG" 2>/dev/null | grep -c 'crc_ok *yes')" = 2 ]
	check "$base: the checkpoint changed in its header and closing copy only (2 blocks)" \
		[ "$(changed "$TEST_TMP/base.img" | awk -v b=$BS '{ print int($1 / b) }' | sort -u | wc -l)" = 2 ]
	inject --cp 0 --mb valid_inode_count --val 12 > /dev/null
	check "$base: checkpoint changed, crc redone: fsck finds 0x070005 and nothing else" \
		[ "$(fsck_codes)" = "0x070005 " ]
	cp "$TEST_TMP/base.img" "$IMG"
	# an inode member and the inode checksum over the 16 KiB block: i_generation is no
	# quota's business, so fsck finds nothing until the checksum itself is fuzzed
	inject --node --path /t/links --mb i_generation --val 4242 > /dev/null
	check "$base: i_generation changed, checksum redone: fsck finds nothing" [ "$(fsck_codes)" = "" ]
	inject --node --path /t/links --mb i_inode_checksum --fuzz lastbit > /dev/null
	check "$base: i_inode_checksum fuzzed: fsck finds 0x040008" [ "$(fsck_codes)" = "0x040008 " ]
	cp "$TEST_TMP/base.img" "$IMG"

	# dentry blocks: 856 slots, a bitmap of 107 bytes, 13 reserved, entries from byte 120,
	# names from 9536; /t/bigdir's entry in slot 702 (a 4 KiB block has 214 slots)
	name=entry-with-a-longer-name-175
	set -- $(inject --dent --path /t/bigdir --name "$name" --mb d_hash --where)
	check "$base: d_hash of slot 702 at byte 7842 ($*)" [ "$2" = $((120 + 702 * 11)) ]
	inject --dent --path /t/bigdir --name "$name" --mb d_hash --val 12345 > /dev/null
	check "$base: dump.f2fs lists $name with hash 12345 in slot 702" \
		eval '"$DUMP" --ls /t/bigdir "$IMG" 2>/dev/null | grep -q "name=$name .* hash=12345 dentry_block=0 slot=702"'
	set -- $(inject --dent --path /t/bigdir --slot 855 --dblk 0 --mb d_bitmap --where)
	check "$base: the bit of slot 855 in bitmap byte 106 ($*)" [ "$2" = 106 ]
	cp "$TEST_TMP/base.img" "$IMG"
	# inline dentries of /t/links: 15740 bytes (3995 words less 9 extra, 50 xattr, 1
	# reserved) hold 823 slots: bitmap 103 bytes from byte 400, entries from 503, names
	# from 503 + 823 * 11
	set -- $(inject --dent --path /t/links --name long --mb d_ino --where)
	check "$base: inline d_ino of /t/links/long (slot 5) at byte 562 ($*)" [ "$2" = 562 ]
	set -- $(inject --dent --path /t/links --slot 822 --mb d_name --str x --where)
	check "$base: inline name of slot 822 at byte 16132 ($*)" [ "$2" = $((503 + 823 * 11 + 822 * 8)) ]
	lk=$(ino /t/links)
	inject --dent --path /t/links --name long --mb d_ftype --val 1 > /dev/null
	check "$base: inline d_ftype changed at byte 568, inode checksum redone" \
		[ "$(u8 "$(addr "$lk")" 568)" = 1 ] &&
		"$DUMP" -i "$lk" "$IMG" 2>/dev/null | grep -q "i_inode_checksum_ok *yes"
	check "$base: fsck finds the entry's type (0x050004), no inode checksum (0x040008)" \
		[ "$(fsck_codes)" = "0x050004 " ]
	cp "$TEST_TMP/base.img" "$IMG"
	bad "invalid slot 823 (the area has 823)" --dent --path /t/links --slot 823 --mb d_hash --val 1
	bad "invalid slot 856 (the area has 856)" --dent --path /t/bigdir --slot 856 --dblk 0 --mb d_hash --val 1

	# superblock copy 2 sits in 16 KiB block 1
	inject --sb 2 --mb segment_count_main --fuzz lastbit > /dev/null
	check "$base: superblock 2 changed at byte 16384 + 1024 + 68 (and its crc) only" \
		[ "$(changed "$TEST_TMP/base.img" | awk -v b=$BS '$1 < b || $1 >= 2 * b' | wc -l)" = 0 ] &&
		[ "$(od -An -tu4 -j $((BS + 1024 + 68)) -N4 "$IMG" | tr -d ' ')" = \
		  $(( $(od -An -tu4 -j $((1024 + 68)) -N4 "$IMG" | tr -d ' ') ^ 1 )) ]
	cp "$TEST_TMP/base.img" "$IMG"
done

# summaries.  Plain: one 16 KiB summary per segment, 2048 entries, its footer at 16379.
# packed_ssa: segment S's 4 KiB summary is quarter S mod 4 of SSA block S / 4.
base=aged16k
xz -dc "$CASE_BASE/$base.img.xz" > "$TEST_TMP/base.img" && cp "$TEST_TMP/base.img" "$IMG"
ssa=$(get --sb 1 --mb ssa_blkaddr) main=$(get --sb 1 --mb main_blkaddr)
check "aged16k: footer of segment 6's summary at byte 16379 of SSA block $((ssa + 6))" \
	[ "$(inject --ssa --blk $((main + 6 * 512)) --mb entry_type --where)" = "$((ssa + 6)) 16379" ]
check "aged16k: summary entry 2047 at byte 14329" \
	[ "$(inject --ssa --blk $((main + 6 * 512)) --idx 2047 --mb nid --where)" = "$((ssa + 6)) 14329" ]
bad "invalid index 2048 of entries[] (it has 2048)" --ssa --blk $((main + 6 * 512)) --idx 2048 --mb nid --val 1

base=aged16k_packed
xz -dc "$CASE_BASE/$base.img.xz" > "$TEST_TMP/base.img" && cp "$TEST_TMP/base.img" "$IMG"
ssa=$(get --sb 1 --mb ssa_blkaddr) main=$(get --sb 1 --mb main_blkaddr)
# segment 6: the third quarter of SSA block 1; entry 100 (7 bytes each) at 8192 + 700
inject --ssa --blk $((main + 6 * 512)) --idx 100 --mb nid --val 12345 > /dev/null
check "aged16k_packed: summary entry 100 of segment 6 at byte 8892 of SSA block $((ssa + 1))" \
	[ "$(u32 $((ssa + 1)) 8892)" = 12345 ]
check "aged16k_packed: nothing else of the SSA block changed" \
	[ "$(changed "$TEST_TMP/base.img" | tr '\n' ' ')" = "$(( (ssa + 1) * BS + 8892 )) $(( (ssa + 1) * BS + 8893 )) " ]
check "aged16k_packed: dump.f2fs reads nid 12345 in entry 100 of segment 6" \
	eval '"$DUMP" -a 6 "$IMG" 2>/dev/null | grep -q "offset=100 .* nid=12345 "'
check "aged16k_packed: footer of segment 2's summary at byte 8192 + 4091" \
	[ "$(inject --ssa --blk $((main + 2 * 512)) --mb entry_type --where)" = "$ssa $((8192 + 4091))" ]
cp "$TEST_TMP/base.img" "$IMG"
bad "invalid index 512 of entries[] (it has 512)" --ssa --blk $((main + 6 * 512)) --idx 512 --mb nid --val 1
tap_summary
