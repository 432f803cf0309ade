#!/bin/bash
# Files and directories created through the transaction (lib/write/txn.c, driven by
# tests/images/txn_populate) on image files: both fscks (ours and Debian's 1.15)
# find the result clean, and dump.f2fs --cat reads every file back byte for byte.
# Images from our mkfs with and without the inode-checksum features, and from
# Debian's mkfs; a second transaction on top of the first; a directory that
# outgrows its first hash level; a hard link and removals (files and an empty directory).

. "$(dirname "$0")/lib.sh"
need_ref_tools

POP=$OUR_BIN/txn_populate
FSCK=$OUR_BIN/fsck.f2fs
DUMP=$OUR_BIN/dump.f2fs
[ -x "$POP" ] || hard_error "txn_populate is not built: $POP"
export SOURCE_DATE_EPOCH=1700000000

# host files of assorted sizes (0 bytes, one byte, a block, over a block, many blocks, two direct nodes)
SRC=$TEST_TMP/src
mkdir -p "$SRC"
for n in 0 1 4096 5000 200000 8000000; do
	head -c $n /dev/urandom > "$SRC/f$n"
done

# check IMG PATH=SRC...: both fscks clean, every file reads back
check()
{
	local img=$1 out rc p s
	shift
	out=$("$FSCK" -f -n "$img" 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "our fsck exit $rc on $img:"; printf '%s\n' "$out" | sed 's/^/    | /'
		return 1
	fi
	ref_fsck "$img" || return 1
	for p in "$@"; do
		s=${p#*=}; p=${p%%=*}
		if ! "$DUMP" --cat "$p" -o "$TEST_TMP/back" "$img" >/dev/null 2>"$TEST_TMP/err" ||
		   ! cmp -s "$TEST_TMP/back" "$s"; then
			echo "$p does not read back as $s:"; sed 's/^/    | /' "$TEST_TMP/err"
			return 1
		fi
	done
}

FIRST=(d1/ d1/d2/ "top0=$SRC/f0" "top1=$SRC/f1" "d1/blk=$SRC/f4096"
       "d1/d2/over=$SRC/f5000" "d1/d2/a-name-longer-than-several-dentry-slots=$SRC/f200000"
       "d1/large=$SRC/f8000000")
SECOND=(d3/ "d1/later=$SRC/f5000" "d3/x=$SRC/f1" gone/)
MANY=(big/)
for i in $(seq 1 240); do MANY+=("big/name-number-$i=$SRC/f1"); done

run()
{
	local label=$1 img=$2 ok=1
	shift 2
	"$@" "$img" >"$TEST_TMP/mkfs.log" 2>&1 || { tap_fail "$label: mkfs failed"; cat "$TEST_TMP/mkfs.log"; return; }
	if ! "$POP" "$img" "${FIRST[@]}"; then
		tap_fail "$label: first transaction"; return
	fi
	check "$img" "${FIRST[@]:2}" || ok=0
	if [ $ok = 1 ] && ! "$POP" "$img" "${SECOND[@]}"; then
		tap_fail "$label: second transaction"; return
	fi
	[ $ok = 1 ] && { check "$img" "${FIRST[@]:2}" "${SECOND[@]:1:2}" || ok=0; }
	if [ $ok = 1 ] && ! "$POP" "$img" "${MANY[@]}"; then
		tap_fail "$label: a directory of 240 names"; return
	fi
	[ $ok = 1 ] && { check "$img" "${MANY[@]:1:3}" "${MANY[@]: -1}" || ok=0; }
	# a hard link, then the old names removed (the inode lives on under the link;
	# top0, a directory entry of big/ and the empty directory gone/ go for good)
	if [ $ok = 1 ] && ! "$POP" "$img" "d3/link@d1/blk" -d1/blk -top0 -big/name-number-7 -gone; then
		tap_fail "$label: link and unlink"; return
	fi
	if [ $ok = 1 ]; then
		check "$img" "d3/link=$SRC/f4096" "top1=$SRC/f1" "${MANY[@]:1:3}" || ok=0
		for gone in d1/blk top0 big/name-number-7 gone; do
			if "$DUMP" --ls "$gone" "$img" >/dev/null 2>&1; then
				echo "$gone is still there"; ok=0
			fi
		done
	fi
	if [ $ok = 1 ]; then tap_ok "$label"; else tap_fail "$label"; fi
}

run "our mkfs" "$(new_image a.img 200M)" "$MKFS" -q -f
run "our mkfs, extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,sb_checksum" \
	"$(new_image b.img 200M)" "$MKFS" -q -f -O extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,sb_checksum
run "Debian's mkfs" "$(new_image c.img 200M)" "$REF_MKFS" -q -f
# quota files charged by the transactions: both fscks compare them with the inodes
run "our mkfs, quota" "$(new_image d.img 200M)" "$MKFS" -q -f -O quota
run "our mkfs, extra_attr,project_quota,quota" "$(new_image e.img 200M)" "$MKFS" -q -f \
	-O extra_attr,project_quota,quota
run "Debian's mkfs, quota" "$(new_image f.img 200M)" "$REF_MKFS" -q -f -O extra_attr,quota

# Segment times: the kernel stamps a segment with the volume's clock when a block of it is
# written or invalidated, averaged over the blocks it held (its cost-benefit and ATGC GC
# pick the oldest segments).  A transaction runs at the checkpoint's elapsed_time: new
# blocks' segments take it, a segment that loses blocks moves towards it.
INJ=$OUR_BIN/inject.f2fs
MT=$(new_image mtime.img 64M)
"$MKFS" -q -f "$MT" >/dev/null || hard_error "mkfs failed"
sit_times() { "$DUMP" --json -s 0~40 "$1" | python3 -c 'import json, sys
for e in json.load(sys.stdin)["sit"]:
    print(e["segno"], e["valid_blocks"], e["mtime"])'; }
"$INJ" --cp 0 --mb elapsed_time --val 5000 "$MT" >/dev/null 2>&1 || hard_error "inject elapsed_time failed"
"$POP" "$MT" d/ "d/a=$SRC/f200000" "d/b=$SRC/f200000" || hard_error "populating failed"
sit_times "$MT" > "$TEST_TMP/mt1"
"$INJ" --cp 0 --mb elapsed_time --val 9000 "$MT" >/dev/null 2>&1 || hard_error "inject elapsed_time failed"
"$POP" "$MT" -d/a "d/c=$SRC/f5000" || hard_error "the removal failed"
sit_times "$MT" > "$TEST_TMP/mt2"
if python3 - "$TEST_TMP/mt1" "$TEST_TMP/mt2" <<'EOF'
import sys
def load(p):
    return {int(a): (int(b), int(c)) for a, b, c in (l.split() for l in open(p))}
one, two = load(sys.argv[1]), load(sys.argv[2])
# after the first transaction every segment holding blocks has the clock's 5000
bad = [s for s, (v, t) in one.items() if v and t != 5000]
# the second one: a segment it starts holds its blocks at 9000; one it writes into
# (its logs go on where the first left them) or takes blocks from moves towards 9000,
# and one that lost blocks but kept some lies between the two
new = [s for s, (v, t) in two.items() if v and one[s][0] == 0]
touched = [s for s, (v, t) in two.items() if v and one[s][0] and (v, t) != one[s]]
mixed = [s for s, (v, t) in two.items() if 0 < v < one[s][0]]
bad += [s for s in new if two[s][1] != 9000]
bad += [s for s in touched if not 5000 < two[s][1] <= 9000]
bad += [s for s in mixed if not 5000 < two[s][1] < 9000]
print("    new segments %s, written or invalidated %s, partly invalidated %s, wrong %s" %
      (new, touched, mixed, bad))
sys.exit(0 if (new or touched) and mixed and not bad else 1)
EOF
then
	if check "$MT" "d/b=$SRC/f200000" "d/c=$SRC/f5000"; then
		tap_ok "segment times follow the volume's clock (written: elapsed_time; partly invalidated: averaged)"
	else
		tap_fail "segment times: the volume is not clean"
	fi
else
	tap_fail "segment times:"; paste "$TEST_TMP/mt1" "$TEST_TMP/mt2" | awk '$2 || $5' | head -10 | sed 's/^/    | /'
fi
tap_summary
