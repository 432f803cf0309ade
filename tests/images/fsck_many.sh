#!/bin/bash
# A volume of many small inodes, as bench/fsck-scale.sh makes at 10 million: 100,000
# inodes (100 directories of 1000 files, the last of 900, every hundredth file with a data block) written by
# bench/populate through lib/write/txn.c in four transactions.  Both fscks must find it clean and
# count every inode; a few names must lead to the inodes the generator made.
. "$(dirname "$0")/lib.sh"
need_ref_tools

export ZF2FS_NO_PROGRESS=1
POP=$OUR_BIN/populate
[ -x "$POP" ] || hard_error "$POP is not built"
img=$(new_image many.img 1G)
"$MKFS" -f -q "$img" > "$TEST_TMP/mkfs.out" 2>&1 || hard_error "mkfs.f2fs failed"
if "$POP" "$img" 100000 1000 30000 > "$TEST_TMP/pop.out" 2>&1 &&
   grep -qx "populate: 100000 inodes in 100 directories" "$TEST_TMP/pop.out"; then
	tap_ok "populate made 100000 inodes in 100 directories"
else
	tap_fail "populate: $(tail -1 "$TEST_TMP/pop.out")"
fi

"$FSCK" -f -n "$img" > "$TEST_TMP/ours.out" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q ": 100001 inodes (101 directories), .* 0 problems, 0 fixed$" \
	"$TEST_TMP/ours.out"; then
	tap_ok "our fsck -f -n: clean, 100001 inodes in 101 directories"
else
	tap_fail "our fsck -f -n: exit $rc: $(tail -1 "$TEST_TMP/ours.out")"
fi

if ref_fsck "$img" > "$TEST_TMP/ref.out" 2>&1; then
	tap_ok "reference fsck -f --dry-run: clean"
else
	tap_fail "reference fsck -f --dry-run:"
	cat "$TEST_TMP/ref.out"
fi
# 100001 = 0x186a1 inodes, the root included
if "$REF_FSCK" --dry-run -f "$img" </dev/null 2>&1 |
	grep -q '^\[FSCK\] valid_inode_count matched with CP .*\[Ok\.\.\] \[0x186a1\]$'; then
	tap_ok "reference counts 100001 inodes"
else
	tap_fail "reference does not count 100001 inodes"
fi

# the first directory, the last file, and a file with a data block (inode 100 of the run)
for p in d00000 d00099/f0899 d00000/f0099; do
	if n=$("$INJECT" --lookup "$p" "$img" 2>&1) && [ "$n" -gt 3 ] 2>/dev/null; then
		tap_ok "$p is inode $n"
	else
		tap_fail "$p: $n"
	fi
done
if "$INJECT" --lookup d00099/f0900 "$img" > /dev/null 2>&1; then
	tap_fail "d00099/f0900 exists: more inodes than asked for"
else
	tap_ok "d00099/f0900 does not exist"
fi
tap_summary
