#!/bin/bash
# inject.f2fs: member offsets come from the format header, records are found where the
# kernel reads them (journal entries in the checkpoint pack), checksums are redone where
# f2fs-tools redoes them, the fuzz verbs do what xfs_db's do, and bad input changes nothing.
. "$(dirname "$0")/lib.sh"
[ -x "$INJECT" ] || hard_error "inject.f2fs is not built: $INJECT"

IMG=$TEST_TMP/t.img
base fresh > /dev/null || hard_error "mkfs failed"
cp "$IMG" "$TEST_TMP/fresh.img"

check() # description, then a command that must succeed
{
	local what=$1
	shift
	if "$@"; then tap_ok "$what"; else tap_fail "$what"; fi
}

# --list: offsets the format header pins with static asserts
list=$("$INJECT" --list)
off() { printf '%s\n' "$list" | awk -v o="$1" -v m="$2" '$1 == o && $2 == m { print $(NF - 5) }' | head -1; }
check "--list knows more than 100 members" [ "$(printf '%s\n' "$list" | wc -l)" -gt 100 ]
check "sb feature at 2180" [ "$(off sb feature)" = 2180 ]
check "sb crc at 3068" [ "$(off sb crc)" = 3068 ]
check "cp ckpt_flags at 132" [ "$(off cp ckpt_flags)" = 132 ]
check "inode i_ext.fofs at 0x15c" [ "$(off node i_ext.fofs)" = $((0x15c)) ]
check "inode i_addr at 0x168" [ "$(off node i_addr)" = $((0x168)) ]
check "inode i_inode_checksum at 0x170" [ "$(off node i_inode_checksum)" = $((0x170)) ]
check "node footer nid at 4072" [ "$(off node nid)" = 4072 ]

# where records are: the NAT entry of the root in NAT block 0 (entry 3, ino one byte in);
# the SIT entry of a current segment in the checkpoint pack's journal, not the SIT area
nat=$(get --sb 1 --mb nat_blkaddr)
check "NAT entry of nid 3" [ "$(inject --nat 0 --nid 3 --mb ino --where)" = "$nat $((3 * 9 + 1))" ]
check "NAT entry of nid 600 (block 1), copy 2" \
	[ "$(inject --nat 2 --nid 600 --mb ino --where)" = "$((nat + 513)) $(((600 - 455) * 9 + 1))" ]
cp0=$(get --sb 1 --mb cp_blkaddr) sit=$(get --sb 1 --mb sit_blkaddr)
set -- $(inject --sit 0 --blk "$(seg_blk "$(get --cp 0 --mb cur_data_segno --idx 0)")" --mb vblocks --where)
check "SIT entry of a current segment: in the checkpoint pack's journal ($1)" \
	[ "$1" -gt "$cp0" ] && [ "$1" -lt "$sit" ]
set -- $(inject --sit 1 --blk "$(seg_blk "$(get --cp 0 --mb cur_data_segno --idx 0)")" --mb vblocks --where)
check "--sit 1 names the SIT block itself" [ "$1" = "$sit" ]

# the fuzz verbs on a 32-bit member (i_generation, 0 after mkfs) and a 16-bit one
fz() { inject --node --nid 3 --mb "$1" --fuzz "$2" ${3:+--seed $3} > /dev/null && get --node --nid 3 --mb "$1"; }
inject --node --nid 3 --mb i_generation --val 0 > /dev/null
check "ones" [ "$(fz i_generation ones)" = 4294967295 ]
check "zeroes" [ "$(fz i_generation zeroes)" = 0 ]
check "firstbit is the most significant" [ "$(fz i_generation firstbit)" = 2147483648 ]
check "middlebit" [ "$(fz i_generation middlebit)" = $((2147483648 + 65536)) ]
check "lastbit" [ "$(fz i_generation lastbit)" = $((2147483648 + 65537)) ]
check "add" [ "$(fz i_generation add)" = $((2147483648 + 65538)) ]
check "sub" [ "$(fz i_generation sub)" = $((2147483648 + 65537)) ]
r1=$(fz i_generation random 7) r2=$(fz i_generation random 7)
check "random: one seed, one value ($r1)" [ "$r1" = "$r2" ]
check "a 16-bit member wraps at 16 bits" [ "$(inject --node --nid 3 --mb i_mode --val 0 > /dev/null; fz i_mode sub)" = 65535 ]
cp "$TEST_TMP/fresh.img" "$IMG"

# checksums: an inode change keeps the inode checksum right; --mb i_inode_checksum does not
# redo it; a checkpoint change keeps its pack valid
fsck_codes() { "$FSCK" -f -n "$IMG" 2>&1 | grep -o '^\[0x[0-9a-f]*\]' | tr -d '[]' | sort -u | tr '\n' ' '; }
inject --node --path /lost+found --mb i_uid --val 4242 > /dev/null
check "i_uid changed, checksum redone: no 0x040008" eval '! fsck_codes | grep -q 0x040008'
inject --node --path /lost+found --mb i_inode_checksum --fuzz lastbit > /dev/null
check "i_inode_checksum fuzzed: 0x040008" eval 'fsck_codes | grep -q 0x040008'
cp "$TEST_TMP/fresh.img" "$IMG"
inject --cp 0 --mb valid_inode_count --val 12 > /dev/null
check "checkpoint changed, crc redone: 0x070005 and no other" [ "$(fsck_codes)" = "0x070005 " ]
cp "$TEST_TMP/fresh.img" "$IMG"
inject --sb 1 --mb magic --val 0x12345678 > /dev/null
check "superblock 1 changed, superblock 2 intact" [ "$(get --sb 2 --mb magic)" = $((0xF2F52010)) ]
cp "$TEST_TMP/fresh.img" "$IMG"

# bad input: one line on stderr, nonzero exit, the image unchanged
bad() # expected exit status, arguments
{
	local want=$1 rc err
	shift
	err=$("$INJECT" "$@" "$IMG" 2>&1 > /dev/null)
	rc=$?
	if [ "$rc" = "$want" ] && [ "$(printf '%s\n' "$err" | grep -c '^inject.f2fs: ')" = 1 ] &&
	   cmp -s "$IMG" "$TEST_TMP/fresh.img"; then
		tap_ok "refused (exit $rc): $*"
	else
		tap_fail "$* gave exit $rc, wanted $want, image $(cmp -s "$IMG" "$TEST_TMP/fresh.img" && echo unchanged || echo CHANGED): $err"
		cp "$TEST_TMP/fresh.img" "$IMG"
	fi
}
bad 1 --node --nid 99999999 --mb i_links --val 1
bad 1 --node --nid 3 --mb no_such_member --val 1
bad 1 --node --nid 3 --mb i_addr --val 1
bad 1 --node --nid 3 --mb i_nid --idx 5 --val 1
bad 1 --sb 1 --mb s_errors --idx 16 --val 1
bad 1 --sb 1 --mb devs.path --idx 0 --str "$(printf '%070d' 0)"
bad 1 --sit 0 --blk 3 --mb vblocks --val 1
bad 1 --ssa --blk 999999999 --mb nid --val 1
bad 1 --dent --nid 3 --name no-such-name --mb d_ino --val 1
bad 1 --node --path /no/such/path --mb i_links --val 1
bad 16 --node --nid 3 --mb i_links
bad 16 --node --nid 3 --mb i_links --fuzz sideways
bad 16 --sb 3 --mb magic --val 1
bad 16 --cp 0 --node --mb magic --val 1
out=$(inject --node --nid 3 --mb i_links --val 9 --dry-run)
check "--dry-run writes nothing" cmp -s "$IMG" "$TEST_TMP/fresh.img"
check "--dry-run says what it would do" eval 'printf "%s\n" "$out" | grep -q "i_links of nid 3: .* -> 9 (0x9)"'
tap_summary
