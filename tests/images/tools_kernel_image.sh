#!/bin/bash
# Our tools on a volume Linux 6.1 wrote (tests/images/base/encrypted.img.xz: fscrypt v1
# and v2 directories, an encrypted casefolded one, fs-verity, compressed files with
# released blocks, a pinned file; see base/README):
#  - fsck -f -n finds nothing (ciphertext names are names, their hashes are the kernel's
#    hashes of the stored bytes, encrypted casefolded hashes are not recomputed), -f -y
#    changes no byte, and Debian's fsck agrees;
#  - sload refuses to write into an encrypted directory, writing nothing;
#  - defrag over the pinned file's blocks is refused (the kernel never moves them),
#    writing nothing;
#  - gc.f2fs collect, defrag and a resize grow and shrink leave both fscks clean; the
#    defrag moves the verity file's Merkle tree (stored past EOF), which keeps its bytes,
#    and the pinned file keeps its addresses and bytes throughout; every file's stored
#    bytes (ciphertext for the encrypted ones, read with dump --raw-encrypted) stay.
# The kernel bench (tests/vm/content.sh) reads the moved encrypted files back with keys.
. "$(dirname "$0")/lib.sh"

FSCK=$OUR_BIN/fsck.f2fs
INJECT=$OUR_BIN/inject.f2fs
GC=$OUR_BIN/gc.f2fs
DEFRAG=$OUR_BIN/defrag.f2fs
RESIZE=$OUR_BIN/resize.f2fs
SLOAD=$OUR_BIN/sload.f2fs
DUMP=$OUR_BIN/dump.f2fs
img=$TEST_TMP/enc.img
xz -dc "$top_srcdir/tests/images/base/encrypted.img.xz" >"$img" || hard_error "cannot unpack the image"

# clean IMG WHAT: our fsck -f -n finds nothing, -f -y changes nothing, Debian's agrees
clean() {
	local sum rc
	sum=$(sha256sum <"$img")
	"$FSCK" -f -n "$img" >"$TEST_TMP/fsck.n" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || ! grep -q ' 0 problems' "$TEST_TMP/fsck.n"; then
		grep '^\[0x' "$TEST_TMP/fsck.n" | head -5 | sed 's/^/# /'
		tap_fail "$1: our fsck -f -n: exit $rc"
		return
	fi
	"$FSCK" -f -y "$img" >"$TEST_TMP/fsck.y" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || [ "$(sha256sum <"$img")" != "$sum" ]; then
		tap_fail "$1: our fsck -f -y: exit $rc, or it changed the image"
		return
	fi
	if [ -x "$REF_FSCK" ] && ! ref_fsck "$img" >"$TEST_TMP/ref" 2>&1; then
		tail -5 "$TEST_TMP/ref" | sed 's/^/# /'
		tap_fail "$1: Debian's fsck finds problems"
		return
	fi
	tap_ok "$1: both fscks clean, -f -y changes nothing"
}

# addrs PATH N: the addresses of the first N blocks of PATH, from one dump of its inode
# (one process per file, not per block: under the sanitizers each start costs)
addrs() {
	local ino
	ino=$("$INJECT" --lookup "$1" "$img") || return 1
	"$DUMP" -i "$ino" "$img" | awk -v n="$2" '
		$1 ~ /^fofs=/ && $2 ~ /^blkaddr=/ {
			f = substr($1, 6) + 0
			if (f < n) { a[f] = substr($2, 9); got++ }
		}
		END { if (got != n) exit 1; for (i = 0; i < n; i++) print a[i] }'
}
# blocks PATH FIRST N: the bytes of file blocks FIRST..FIRST+N-1 of PATH, read by address
blocks() {
	local a
	addrs "$1" $(($2 + $3)) >"$TEST_TMP/addrs" || return 1
	tail -n "$3" "$TEST_TMP/addrs" | while read -r a; do
		dd if="$img" bs=4096 skip="$a" count=1 status=none
	done
}

clean "as Linux left it"

# a path through an encrypted directory names its entries by their stored bytes in hex,
# as dump.f2fs --ls shows them: every tool's look-up (the library's) takes that form
row=$("$OUR_BIN/dump.f2fs" --ls /e2 "$img" | grep -m1 'type=regular')
hex=$(echo "$row" | sed -n 's/.*name=\({enc:[0-9a-f]*}\).*/\1/p')
want=$(echo "$row" | sed -n 's/.* ino=\([0-9]*\) .*/\1/p')
got=$("$INJECT" --lookup "/e2/$hex" "$img" 2>/dev/null)
if [ -n "$hex" ] && [ "$got" = "$want" ] &&
   ! "$INJECT" --lookup /e2/file "$img" >/dev/null 2>&1; then
	tap_ok "inject --lookup /e2/{enc:HEX}: inode $got, as dump --ls shows; a plain name refused"
else
	tap_fail "inject --lookup /e2/{enc:HEX}: got '$got', want '$want'"
fi

# unchanged WHAT COMMAND...: the command fails, saying why, and writes nothing
refused() {
	local what=$1 want=$2 sum rc
	shift 2
	sum=$(sha256sum <"$img")
	"$@" >"$TEST_TMP/out" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && grep -q "$want" "$TEST_TMP/out" && [ "$(sha256sum <"$img")" = "$sum" ]; then
		tap_ok "$what: refused ($want), nothing written"
	else
		sed 's/^/# /' "$TEST_TMP/out" | head -3
		tap_fail "$what: exit $rc"
	fi
}
mkdir -p "$TEST_TMP/src"
echo data >"$TEST_TMP/src/new"
refused "sload into an encrypted directory" "encrypted" "$SLOAD" -f "$TEST_TMP/src" --target-dir /e2 "$img"
refused "sload below an encrypted directory" "encrypted" "$SLOAD" -f "$TEST_TMP/src" --target-dir /e1/x "$img"
pinned=$("$INJECT" --path /plain/pinned --bmap 0 "$img")
refused "defrag over a pinned file" "pinned file" "$DEFRAG" -s "$pinned" -l 512 "$img"

# every file's stored bytes, ciphertext as stored (names as {enc:HEX}), before the moves
"$DUMP" --extract / -o "$TEST_TMP/before" --raw-encrypted "$img" >/dev/null 2>&1 ||
	hard_error "dump --extract --raw-encrypted failed on the image"
pin_addrs=$(addrs /plain/pinned 512)
pin_sum=$(blocks /plain/pinned 0 512 | sha256sum)
# fs-verity keeps its Merkle tree past EOF, from the 64 KiB boundary after i_size
merkle_sum=$(blocks /plain/verity 16 1 | sha256sum)
[ -n "$pin_addrs" ] && [ -n "$merkle_sum" ] || hard_error "cannot read the pinned or verity file"

moved() {
	if [ "$(addrs /plain/pinned 512)" = "$pin_addrs" ] &&
	   [ "$(blocks /plain/pinned 0 512 | sha256sum)" = "$pin_sum" ] &&
	   [ "$(blocks /plain/verity 16 1 | sha256sum)" = "$merkle_sum" ]; then
		tap_ok "$1: the pinned file stays in place, the Merkle tree keeps its bytes"
	else
		tap_fail "$1: the pinned file moved or changed, or the Merkle tree changed"
	fi
}
if "$GC" collect "$img" -n 4 >"$TEST_TMP/gc" 2>&1 || grep -q 'no victim' "$TEST_TMP/gc"; then
	tap_ok "gc.f2fs collect: $(head -n 1 "$TEST_TMP/gc")"
else
	tail -3 "$TEST_TMP/gc" | sed 's/^/# /'
	tap_fail "gc.f2fs collect failed"
fi
clean "after gc.f2fs collect"
# main-area segments 2-5 (the data logs Linux left, the verity file with its tree, the
# encrypted files' data; the pinned file is in segment 6) moved past them
main=$("$INJECT" --sb 1 --mb main_blkaddr --get "$img")
merkle_at=$(addrs /plain/verity 17 | tail -n 1)
if "$DEFRAG" -s $((main + 1024)) -l 2048 "$img" >"$TEST_TMP/defrag" 2>&1 &&
   [ "$(addrs /plain/verity 17 | tail -n 1)" != "$merkle_at" ]; then
	tap_ok "defrag: $(grep moved "$TEST_TMP/defrag")"
else
	tail -3 "$TEST_TMP/defrag" | sed 's/^/# /'
	tap_fail "defrag of main-area segments 2-5 failed, or left the Merkle tree in place"
fi
clean "after defrag"
moved "after collect and defrag"
truncate -s 96M "$img"
if "$RESIZE" "$img" >"$TEST_TMP/grow" 2>&1 && "$RESIZE" -t $((64 * 2048)) "$img" >"$TEST_TMP/shrink" 2>&1; then
	tap_ok "resize: 64 -> 96 -> 64 MiB"
else
	tail -3 "$TEST_TMP/grow" "$TEST_TMP/shrink" | sed 's/^/# /'
	tap_fail "resize 64 -> 96 -> 64 MiB failed"
fi
clean "after resize"
moved "after resize"
"$DUMP" --extract / -o "$TEST_TMP/after" --raw-encrypted "$img" >/dev/null 2>&1
if [ "$(find "$TEST_TMP/before" -type f | wc -l)" -gt 100 ] &&
   diff -r "$TEST_TMP/before" "$TEST_TMP/after" >"$TEST_TMP/diff" 2>&1; then
	tap_ok "every file's stored bytes (encrypted ones as ciphertext) unchanged by the moves"
else
	head -5 "$TEST_TMP/diff" | sed 's/^/# /'
	tap_fail "the moves changed some file's stored bytes"
fi
tap_summary
