#!/bin/bash
# The transaction's one commit (lib/write/commit.c, driven by tests/images/txn_populate)
# on the kernel-aged 16 KiB volumes (base/aged16k.img.xz, plain and packed_ssa) and on
# fresh ones of our mkfs (-b 16384, plain and packed_ssa, with quota files to charge):
#  - a commit of directories, an inline file, a file of 100 KB and one of 9 MB (its
#    warm data log fills a segment and retires: a summary into the SSA, with packed_ssa
#    read, changed and written back in a block shared with three other segments) and a
#    directory of 300 names (its inline dentries converted to a 16 KiB dentry block):
#    the new checkpoint is one version up, its pack laid out as Linux 7.3 reads it
#    (CP block crc at byte 16380, pack of 1 + cp_payload + 6 summaries + 1 blocks, each
#    summary's footer type at its summary's last 5 bytes, nothing past a packed 4 KiB
#    summary), the summaries of segments it did not write unchanged (the never-written
#    ones filled with a pattern first, so that a dropped neighbour shows), our fsck finds
#    it clean and dump.f2fs reads every file back;
#  - a write failure at every write of a small commit, and (aged volumes) at sampled
#    writes and each of the last 40 (20 under the sanitizers) of the commit above
#    (ZF2FS_FAULT_WRITES): afterwards the volume is the old one (the old checkpoint in
#    use) or the new one, clean either way, the new one with every file.  make check
#    faults two volumes, the aged packed_ssa one (both commits) and the plain mkfs one
#    (the small commit), the big commit's last 10 under the sanitizers; ZF2FS_FULL=1
#    faults all four.
# With ZF2FS_REF16K_FSCK naming f2fs-tools' development fsck.f2fs (16 KiB blocks), it
# checks every result too.
. "$(dirname "$0")/lib.sh"
fault_matrix
need_python

POP=$OUR_BIN/txn_populate
DUMP=$OUR_BIN/dump.f2fs
BASE=$top_srcdir/tests/images/base
REF16K=${ZF2FS_REF16K_FSCK:-}
[ -x "$POP" ] || hard_error "txn_populate is not built: $POP"
command -v xz > /dev/null || skip "xz not found"
export SOURCE_DATE_EPOCH=1700000000

SRC=$TEST_TMP/src
mkdir -p "$SRC"
head -c 5 /dev/urandom > "$SRC/f5"
head -c 100000 /dev/urandom > "$SRC/f100k"
head -c 9000000 /dev/urandom > "$SRC/f9m"

# cp16 IMG [check]: the version of the checkpoint in use (the valid pack with the higher
# version: both CP blocks of the pack check and agree), "none" without one; with
# "check", also the layout of that pack as the commit writes it, a line per problem.
cp16()
{
	python3 - "$@" <<'EOF'
import struct, sys, zlib
img, check = sys.argv[1], len(sys.argv) > 2
f = open(img, 'rb')
f.seek(1024)
sb = f.read(4096)
(log_bs,) = struct.unpack_from('<I', sb, 16)
bs = 1 << log_bs
(cp_blkaddr,) = struct.unpack_from('<I', sb, 76)
(payload,) = struct.unpack_from('<I', sb, 1664)
(feature,) = struct.unpack_from('<I', sb, 2180)
packed = bool(feature & 0x10000)
def blk(n):
    f.seek(n * bs)
    return f.read(bs)
def crc(data):
    return zlib.crc32(data, 0xF2F52010 ^ 0xffffffff) ^ 0xffffffff
def cp_ok(b):
    (off,) = struct.unpack_from('<I', b, 164)
    if off != bs - 4:
        return False
    return crc(b[:off]) == struct.unpack_from('<I', b, off)[0]
best = None
for p in range(2):
    start = cp_blkaddr + p * 512
    first = blk(start)
    if not cp_ok(first):
        continue
    (total,) = struct.unpack_from('<I', first, 136)
    if total < 2 or total > 512:
        continue
    last = blk(start + total - 1)
    if not cp_ok(last) or last[:8] != first[:8]:
        continue
    ver = struct.unpack_from('<Q', first, 0)[0]
    if best is None or ver > best[0]:
        best = (ver, start, first)
if best is None:
    print('none')
    sys.exit(0)
ver, start, cp = best
print(ver)
if not check:
    sys.exit(0)
flags, total, start_sum = struct.unpack_from('<III', cp, 132)
orphans = start_sum - 1 - payload if flags & 0x2 else 0
sum_size = 4096 if packed else bs
if flags & 0x4:
    print('compact summaries: the commit writes normal ones')
if not flags & 0x1:
    print('no umount flag')
if start_sum != 1 + payload + orphans:
    print('cp_pack_start_sum %d, not %d' % (start_sum, 1 + payload + orphans))
if total != 1 + payload + orphans + 6 + 1:
    print('cp_pack_total_block_count %d, not %d' % (total, 1 + payload + orphans + 7))
for t in range(6):
    s = blk(start + start_sum + t)
    if s[sum_size - 5] != (1 if t >= 3 else 0):
        print('summary %d: footer type %d at byte %d' % (t, s[sum_size - 5], sum_size - 5))
    if any(s[sum_size:]):
        print('summary %d: bytes past its %d' % (t, sum_size))
EOF
}

# ssa_kept ORIG IMG: the main segments whose summary differs between ORIG and IMG though
# none of their blocks does (with packed_ssa: a summary that shares its SSA block with
# one the commit wrote must be written back as it was), one line each
ssa_kept()
{
	python3 - "$1" "$2" <<'EOF'
import struct, sys
a, b = open(sys.argv[1], 'rb'), open(sys.argv[2], 'rb')
a.seek(1024)
sb = a.read(4096)
bs = 1 << struct.unpack_from('<I', sb, 16)[0]
ssa, main = struct.unpack_from('<II', sb, 88)
(nseg,) = struct.unpack_from('<I', sb, 68)
(feature,) = struct.unpack_from('<I', sb, 2180)
sum_size = 4096 if feature & 0x10000 else bs
per = bs // sum_size
def read(f, off, n):
    f.seek(off)
    return f.read(n)
for s in range(nseg):
    off = (ssa + s // per) * bs + (s % per) * sum_size
    if read(a, off, sum_size) == read(b, off, sum_size):
        continue
    seg = (main + s * 512) * bs
    if read(a, seg, 512 * bs) == read(b, seg, 512 * bs):
        print('segment %d: summary changed, none of its blocks' % s)
EOF
}

# ssa_poison IMG: every summary of IMG's SSA that was never written (all zero) filled
# with 0x5a bytes: nothing reads the summary of a segment without valid blocks, and a
# writer that dropped a summary sharing its SSA block would now change it (ssa_kept)
ssa_poison()
{
	python3 - "$1" <<'EOF'
import struct, sys
f = open(sys.argv[1], 'r+b')
f.seek(1024)
sb = f.read(4096)
bs = 1 << struct.unpack_from('<I', sb, 16)[0]
(ssa,) = struct.unpack_from('<I', sb, 88)
(nseg,) = struct.unpack_from('<I', sb, 68)
(feature,) = struct.unpack_from('<I', sb, 2180)
sum_size = 4096 if feature & 0x10000 else bs
per = bs // sum_size
for s in range(nseg):
    off = (ssa + s // per) * bs + (s % per) * sum_size
    f.seek(off)
    if not any(f.read(sum_size)):
        f.seek(off)
        f.write(b'\x5a' * sum_size)
EOF
}

# files IMG PATH=SRC...: every file reads back through dump.f2fs
files()
{
	local img=$1 p s
	shift
	for p in "$@"; do
		case $p in *=*) ;; *) continue ;; esac
		s=${p#*=}; p=${p%%=*}
		if ! "$DUMP" --cat "/$p" -o "$TEST_TMP/back" "$img" > /dev/null 2> "$TEST_TMP/err" ||
		   ! cmp -s "$TEST_TMP/back" "$s"; then
			echo "/$p does not read back: $(head -1 "$TEST_TMP/err")"
			return 1
		fi
	done
}

# clean IMG [fault]: our fsck, and the development reference when named; after a fault
# our fsck may note the inactive pack the commit left half written (0x020001), which is
# harmless: every reader takes the newest valid pack, the old one
clean()
{
	local img=$1 out rc
	if [ $# -gt 1 ]; then
		out=$("$FSCK" -f -n "$img" 2>&1)
		rc=$?
		if [ $rc -ne 0 ] || printf '%s\n' "$out" | grep '^\[0x' | grep -qv '^\[0x020001\]'; then
			printf 'exit %s: %s\n' "$rc" "$out"
			return 1
		fi
	else
		our_fsck_clean "$img" || return 1
	fi
	[ -n "$REF16K" ] || return 0
	out=$("$REF16K" --dry-run -f "$img" < /dev/null 2>&1)
	if printf '%s\n' "$out" | grep -v -e '^Info: ' -e '^  ' -e '\[Ok\.\.\]' -e '^\[FSCK\] Max' \
	   -e '^\[FSCK\] fixing SIT types' -e '^Done: ' -e '^$' -e 'Invalid CP CRC offset: 0' |
	   grep -q .; then
		echo "reference fsck:"; printf '%s\n' "$out" | sed 's/^/    | /'
		return 1
	fi
}

NAMES=(d300/)
for i in $(seq 1 300); do NAMES+=("d300/entry-with-a-name-of-some-length-$i=$SRC/f5"); done
BIG=(n1/ n1/n2/ "n1/s=$SRC/f5" "n1/n2/b=$SRC/f100k" "n1/h=$SRC/f9m")
SMALL=(z1/ "z1/f=$SRC/f100k" "z1/g=$SRC/f5")

# faults NAME ORIG STEP ITEMS...: a fault at write 1, 1 + STEP, ... and at each of the
# last TAIL writes of the commit of ITEMS on ORIG (STEP 1: every write).  TAIL is 40;
# the sanitizer build, several times slower, takes every second STEP and the last 20.
TAIL=40 SPARSER=1
[ $IN_SAN = 1 ] && TAIL=20 SPARSER=2
[ $IN_SAN = 1 ] && [ $MATRIX_FULL = 0 ] && TAIL=10
faults()
{
	local name=$1 orig=$2 step=$3 v0 w total rc v old=0 new=0 why=
	shift 3
	[ "$step" = 1 ] || step=$((step * SPARSER))
	v0=$(cp16 "$orig")
	cp --sparse=always "$orig" "$TEST_TMP/t.img"
	total=$(ZF2FS_WRITE_COUNT=1 "$POP" "$TEST_TMP/t.img" "$@" 2>&1 | sed -n 's/^writes //p')
	[ -n "$total" ] || { tap_fail "$name: the commit without faults failed"; return; }
	w=1
	while :; do
		cp --sparse=always "$orig" "$TEST_TMP/t.img"
		ZF2FS_FAULT_WRITES=$w "$POP" "$TEST_TMP/t.img" "$@" > /dev/null 2>&1
		rc=$?
		v=$(cp16 "$TEST_TMP/t.img")
		if [ "$v" = "$v0" ]; then
			old=$((old + 1))
		elif [ "$v" = $((v0 + 1)) ]; then
			new=$((new + 1))
			files "$TEST_TMP/t.img" "${@:2}" > "$TEST_TMP/why" 2>&1 ||
				{ why="write $w: $(cat "$TEST_TMP/why")"; break; }
		else
			why="write $w: checkpoint version $v (old $v0)"; break
		fi
		clean "$TEST_TMP/t.img" fault > "$TEST_TMP/why" 2>&1 ||
			{ why="write $w: not clean: $(cat "$TEST_TMP/why")"; break; }
		if [ $rc -eq 0 ]; then
			[ "$v" = $((v0 + 1)) ] || why="write $w: the commit went through, version $v"
			break
		fi
		[ $((w + step)) -lt $((total - TAIL)) ] && w=$((w + step)) ||
			{ [ $w -lt $((total - TAIL)) ] && w=$((total - TAIL)) || w=$((w + 1)); }
	done
	if [ -n "$why" ] || [ $new -ne 1 ] || [ $old -lt 2 ]; then
		tap_fail "$name: ${why:-$old runs left the old volume, $new the new one}"
	else
		tap_ok "$name, $w writes: $old faults left the old volume, then the new one, all clean"
	fi
}

for b in aged16k aged16k_packed mkfs16k mkfs16k_packed; do
	orig=$TEST_TMP/$b.img
	case $b in
	aged*)
		xz -dc "$BASE/$b.img.xz" | dd of="$orig" bs=64k conv=sparse status=none ||
			hard_error "cannot unpack $b.img" ;;
	*)
		feat=extra_attr,inode_checksum,quota
		[ "$b" = mkfs16k ] || feat=$feat,packed_ssa
		rm -f "$orig"; truncate -s 512M "$orig"
		"$MKFS" -q -f -b 16384 -O "$feat" "$orig" > "$TEST_TMP/out" 2>&1 ||
			{ tap_fail "$b: mkfs failed: $(cat "$TEST_TMP/out")"; continue; } ;;
	esac
	ssa_poison "$orig"
	v0=$(cp16 "$orig")
	[ "$v0" != none ] || hard_error "$b: no valid checkpoint in the base image"
	img=$TEST_TMP/c.img
	cp --sparse=always "$orig" "$img"
	if ! "$POP" "$img" "${BIG[@]}" "${NAMES[@]}" > "$TEST_TMP/out" 2>&1; then
		tap_fail "$b: the commit failed: $(cat "$TEST_TMP/out")"
		continue
	fi
	v=$(cp16 "$img")
	bad=$(cp16 "$img" check | tail -n +2)
	if [ "$v" != $((v0 + 1)) ] || [ -n "$bad" ]; then
		tap_fail "$b: checkpoint version $v (was $v0): $bad"
	else
		tap_ok "$b: checkpoint $v, its pack as Linux 7.3 reads it"
	fi
	bad=$(ssa_kept "$orig" "$img")
	[ -z "$bad" ] && tap_ok "$b: the SSA summaries of segments the commit did not write kept" ||
		tap_fail "$b: $bad"
	clean "$img" > "$TEST_TMP/why" 2>&1 && tap_ok "$b: clean after the commit" ||
		tap_fail "$b: not clean after the commit: $(cat "$TEST_TMP/why")"
	files "$img" "${BIG[@]:2}" "${NAMES[@]:1:3}" "${NAMES[300]}" > "$TEST_TMP/why" 2>&1 &&
		tap_ok "$b: every file reads back" || tap_fail "$b: $(cat "$TEST_TMP/why")"

	case $MATRIX_FULL:$b in 0:aged16k|0:mkfs16k_packed) continue ;; esac
	faults "$b: a fault at every write of a small commit" "$orig" 1 "${SMALL[@]}"
	[ "${b#aged}" != "$b" ] || continue
	faults "$b: faults at sampled writes of a commit with a retiring log" "$orig" 31 "${BIG[@]}"
done
tap_summary
