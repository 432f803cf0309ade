#!/bin/bash
# fsck.f2fs --rebuild: the NAT, SIT, summaries and checkpoint rebuilt from the node blocks
# on the main area, then the full check.  On the base images (ours, Linux 6.1's unclean
# one with an orphan and fsync'd files, Linux 7.3's with every kind of content, 16 KiB
# blocks with packed summaries), each with its checkpoint packs zeroed, its NAT zeroed, and
# all four table areas zeroed:
#  - exit 1, the report's counts, our fsck -f and Debian's clean after, every file (path
#    and contents, by dump.f2fs --extract) as before;
#  - with the NAT lost the checkpoint's SIT tells live nodes from stale ones, so a deleted
#    file's inode left in a free block stays deleted; with no checkpoint it comes back in
#    lost+found;
#  - the fsync'd files of the unclean image are kept as the kernel's roll-forward has them,
#    the orphan is not;
#  - a lost direct node: reported as lost, the rest of the file kept, the volume clean;
#  - an inode whose only copy has a wrong checksum: kept, the check mends it;
#  - a lost directory of 400 entries: every file in lost+found, which grows to hold them;
#    one of 1300 on a volume without lost+found: the new one fsck makes (inline) becomes a
#    block directory and grows levels deeper, every name found by lookup;
#  - both superblocks gone, with everything else before the main area or alone: one made
#    again (mkfs's layout for the size, the features the inodes show, a UUID giving the
#    seed of the inode checksums, which then need no mending), then the same checks; the
#    checkpoint kept where it fits; a volume of 4 segments a section rebuilt in the
#    default layout; refused, with nothing written, for a volume made for another size,
#    for 16 KiB blocks, and for superblocks damaged rather than gone;
#  - -n writes nothing (exit 4), with and without superblocks;
#  - a fault at every write of the rebuild (every 16th in the tables, every one in the
#    checkpoint packs): the volume has no checkpoint or the new one, and a second run ends
#    with the same files.
# Prints "ok N - ..." / "not ok N - ...".
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/dump_lib.sh"
need_python

T=$TEST_TMP

# zap IMG AREA...: zero the checkpoint (cp), sit, nat or ssa area of IMG, its two
# superblocks (supers) or everything before its main area (front) (superblock at byte 1024:
# log_blocksize at 0x10; cp, sit, nat, ssa and main addresses from 0x4C)
zap()
{
	python3 - "$@" <<'EOF'
import struct, sys
img = sys.argv[1]
with open(img, 'r+b') as f:
    f.seek(1024)
    sb = f.read(1024)
    bs = 1 << struct.unpack_from('<I', sb, 0x10)[0]
    cp, sit, nat, ssa, main = struct.unpack_from('<5I', sb, 0x4C)
    areas = {'cp': (cp, sit), 'sit': (sit, nat), 'nat': (nat, ssa), 'ssa': (ssa, main),
             'supers': (0, 2), 'front': (0, main)}
    for what in sys.argv[2:]:
        a, b = areas[what]
        f.seek(a * bs)
        f.write(b'\0' * ((b - a) * bs))
EOF
}

# manifest IMG [DIR]: "sha256  path" of every regular file below DIR (default /), and
# every symlink's target, as dump.f2fs extracts them; lost+found left out
manifest()
{
	local d
	d=$(mktemp -d "$T/x.XXXXXX")
	"$DUMP" --extract "${2:-/}" -o "$d/x" "$1" > /dev/null 2>&1 || { echo "extract failed"; return; }
	(cd "$d/x" && find . -path ./lost+found -prune -o -type f -print0 | sort -z |
		xargs -0 -r sha256sum
	 find . -path ./lost+found -prune -o -type l -print | sort |
		while read -r l; do echo "$(readlink "$l")  $l"; done)
	rm -rf "$d"
}

# lost_found IMG: the names in /lost+found, one a line
lost_found()
{
	"$DUMP" --ls /lost+found "$1" 2>/dev/null | sed -n 's/^ *name=\([^ ]*\) .*/\1/p' |
		grep -v -x -F -e . -e ..
}

# rebuild_case NAME BASE DIR AREAS...: zero AREAS of a copy of BASE and rebuild it
rebuild_case()
{
	local name=$1 base=$2 dir=$3 out rc
	shift 3
	IMG=$T/$name.img
	cp "$T/$base.img" "$IMG"
	zap "$IMG" "$@"
	out=$("$FSCK" --rebuild "$IMG" 2>&1)
	rc=$?
	printf '%s\n' "$out" > "$T/$name.out"
	[ $rc = 1 ] && printf '%s\n' "$out" | grep -q '^  written: NAT, SIT, summaries' &&
		printf '%s\n' "$out" | grep -q '; 0 problems, 0 fixed$\|problems, [0-9]* fixed$' &&
		! printf '%s\n' "$out" | grep -q 'errors remain' &&
		tap_ok "$name: --rebuild exit 1" ||
		tap_fail "$name: --rebuild exit $rc: $(printf '%s' "$out" | tail -5)"
	local clean
	clean=$(our_fsck_clean "$IMG") && tap_ok "$name: our fsck -f clean after" ||
		tap_fail "$name: our fsck after the rebuild: $clean"
	if [ "$(get --sb 0 --mb log_blocksize)" = 12 ] && [ -x "$REF_FSCK" ]; then
		ref_fsck "$IMG" > "$T/$name.ref" && tap_ok "$name: Debian's fsck clean after" ||
			tap_fail "$name: Debian's fsck: $(head -20 "$T/$name.ref")"
	fi
	[ "$(manifest "$IMG" "$dir")" = "$(cat "$T/$base.man")" ] &&
		tap_ok "$name: every file as before ($(wc -l < "$T/$base.man") files)" ||
		tap_fail "$name: files differ: $(diff <(manifest "$IMG" "$dir") "$T/$base.man" | head -5)"
}

# rebuild_untouched [OPTION...]: fsck --rebuild OPTIONs on $IMG, its output in $out and
# exit status in $rc; true when it exits 4 and $IMG is byte for byte as before
rebuild_untouched()
{
	cp "$IMG" "$T/untouched.before"
	out=$("$FSCK" --rebuild "$@" "$IMG" 2>&1)
	rc=$?
	[ $rc = 4 ] && cmp -s "$IMG" "$T/untouched.before"
}

# report NAME FIELD: a number of the report ("kept: 8 inodes" -> kept inodes, ...)
count() { grep -o "$2" "$T/$1.out" | grep -o '^[0-9]*' | head -1; }

for b in populated unclean encrypted73 aged16k_packed; do
	xz -dc "$CASE_BASE/$b.img.xz" > "$T/$b.img" || hard_error "cannot unpack $b"
done
# the 16 KiB image's sparse file reaches the double indirect range: its tree is /t
manifest "$T/populated.img" > "$T/populated.man"
manifest "$T/encrypted73.img" > "$T/encrypted73.man"
manifest "$T/aged16k_packed.img" /t > "$T/aged16k_packed.man"
[ "$(wc -l < "$T/populated.man")" -gt 400 ] || hard_error "populated: no manifest"

# A deleted file's inode left in a free block: /small.txt's (inline data, so no block of
# its own) copied to the last block under an unused nid, given that nid through a NAT
# entry long enough for inject.f2fs to set its footer, then the entry dropped again.
IMG=$T/planted.img
cp "$T/populated.img" "$IMG"
cp "$T/populated.man" "$T/planted.man"
nid=2000
last=$(( $(stat -c %s "$IMG") / 4096 - 1 ))
[ "$(get --nat 0 --nid $nid --mb block_addr)" = 0 ] || hard_error "nid $nid in use"
dd if="$IMG" of="$IMG" bs=4096 skip="$(addr "$(ino /small.txt)")" seek="$last" count=1 \
	conv=notrunc status=none
inject --nat 0 --nid $nid --mb block_addr --val "$last" > /dev/null &&
	inject --nat 0 --nid $nid --mb ino --val $nid > /dev/null &&
	inject --node --nid $nid --mb ino --val $nid > /dev/null &&
	inject --node --nid $nid --mb nid --val $nid > /dev/null &&
	inject --nat 0 --nid $nid --mb block_addr --val 0 > /dev/null &&
	inject --nat 0 --nid $nid --mb ino --val 0 > /dev/null ||
	hard_error "cannot plant a deleted inode"
our_fsck_clean "$IMG" > /dev/null || hard_error "populated with the planted inode is not clean"

rebuild_case pop-nat planted / nat
grep -q "the checkpoint's SIT told live blocks" "$T/pop-nat.out" &&
	[ "$(count pop-nat '[0-9]* in blocks the SIT calls free')" -ge 1 ] &&
	[ -z "$(lost_found "$IMG")" ] &&
	tap_ok "NAT lost: the SIT leaves the deleted inode out, lost+found stays empty" ||
	tap_fail "NAT lost: $(grep -e 'SIT' "$T/pop-nat.out"); lost+found: $(lost_found "$IMG")"
rebuild_case pop-cp planted / cp
[ "$(lost_found "$IMG")" = "#$nid" ] &&
	[ "$("$DUMP" --cat "/lost+found/#$nid" "$IMG" 2>/dev/null)" = "$("$DUMP" --cat /small.txt "$IMG")" ] &&
	tap_ok "no checkpoint: the deleted inode comes back in lost+found as #$nid" ||
	tap_fail "no checkpoint: lost+found holds '$(lost_found "$IMG")'"
rebuild_case pop-all planted / cp nat sit ssa
[ "$(count pop-all '[0-9]* inodes,')" = "$(( $(count pop-nat '[0-9]* inodes,') + 1 ))" ] &&
	tap_ok "kept inodes: the NAT case's and the deleted one" ||
	tap_fail "kept inodes: $(count pop-all '[0-9]* inodes,') and $(count pop-nat '[0-9]* inodes,')"

rebuild_case enc-cp encrypted73 / cp
rebuild_case enc-nat encrypted73 / nat
rebuild_case enc-all encrypted73 / cp nat sit ssa
rebuild_case 16k-cp aged16k_packed /t cp
rebuild_case 16k-all aged16k_packed /t cp nat sit ssa

# size PATH: the size dump.f2fs lists for PATH on $IMG
size() { "$DUMP" --ls "$1" "$IMG" 2>/dev/null | sed -n 's/.* size=\([0-9]*\) .*/\1/p' | head -1; }

# Both superblocks gone: made again.  The features as before (sb_checksum is not found
# again), the inode checksums good under the new UUID (the check mends nothing).
feats() { "$DUMP" "$1" 2>/dev/null | sed -n 's/^Info: superblock features = [0-9a-f]* : *//p' |
	tr ' ' '\n' | grep -v -x -e sb_checksum -e '' | sort | tr '\n' ' '; }
for b in populated encrypted73; do
	rebuild_case "$b-front" "$b" / front
	grep -q '^  written: both superblock copies' "$T/$b-front.out" &&
		[ "$(feats "$IMG")" = "$(feats "$T/$b.img")" ] &&
		grep -q '^  inode checksums: \([0-9]*\) of \1 inodes agree' "$T/$b-front.out" &&
		grep -q '; 0 problems, 0 fixed$' "$T/$b-front.out" &&
		tap_ok "$b, all before the main area lost: superblock made again, features $(feats "$IMG"), checksums good" ||
		tap_fail "$b-front: features '$(feats "$IMG")' (were '$(feats "$T/$b.img")'): $(head -8 "$T/$b-front.out")"
done
rebuild_case pop-supers populated / supers
grep -q 'checkpoint pack 1 is valid at its place' "$T/pop-supers.out" &&
	grep -q "the checkpoint's SIT told live blocks" "$T/pop-supers.out" &&
	tap_ok "superblocks alone lost: the checkpoint at its place fits and is used" ||
	tap_fail "superblocks alone: $(head -12 "$T/pop-supers.out")"
IMG=$T/uc-front.img
cp "$T/unclean.img" "$IMG"
zap "$IMG" front
out=$("$FSCK" --rebuild "$IMG" 2>&1)
rc=$?
[ $rc = 1 ] && [ "$(size /fsynced)" = 40960 ] && [ "$(size /grows)" = 24576 ] &&
	our_fsck_clean "$IMG" > /dev/null && { [ ! -x "$REF_FSCK" ] || ref_fsck "$IMG" > /dev/null; } &&
	tap_ok "unclean, all before the main area lost: /fsynced and /grows as written, both fscks clean" ||
	tap_fail "unclean front: exit $rc, /fsynced $(size /fsynced), /grows $(size /grows): $out"

# A layout mkfs would not make for this size (a 256 MiB volume at the start of a 1 GiB
# file): its blocks lie before the main area guessed, so nothing is written.
IMG=$T/other-size.img
truncate -s 1G "$IMG"
mkdir -p "$T/tree"
for i in $(seq 1 40); do head -c $((i * 3000)) /dev/urandom > "$T/tree/f$i"; done
"$MKFS" -q -f -O extra_attr,inode_checksum --root-dir "$T/tree" "$IMG" 524288 > /dev/null ||
	hard_error "mkfs of other-size"
zap "$IMG" supers
rebuild_untouched &&
	printf '%s\n' "$out" | grep -q 'none can be made again: .*lie before the main area' &&
	tap_ok "volume made for another size: refused, nothing written" ||
	tap_fail "other size: exit $rc: $out"

# A volume of four segments a section (mkfs -s 4): its main area starts later than mkfs's
# default one, which then holds it whole (addresses are absolute): rebuilt with one
# segment a section, every file as before.
IMG=$T/s4.img
truncate -s 256M "$IMG"
"$MKFS" -q -f -s 4 -O extra_attr,inode_checksum --root-dir "$T/tree" "$IMG" > /dev/null ||
	hard_error "mkfs -s 4"
(cd "$T/tree" && sha256sum f* | sort -k 2) > "$T/s4.man"
zap "$IMG" supers
out=$("$FSCK" --rebuild "$IMG" 2>&1)
rc=$?
s4man=$(d=$(mktemp -d "$T/x.XXXXXX") && "$DUMP" --extract / -o "$d/x" "$IMG" > /dev/null 2>&1 &&
	(cd "$d/x" && sha256sum f* | sort -k 2))
[ $rc = 1 ] && our_fsck_clean "$IMG" > /dev/null && { [ ! -x "$REF_FSCK" ] || ref_fsck "$IMG" > /dev/null; } &&
	[ "$s4man" = "$(cat "$T/s4.man")" ] &&
	tap_ok "a volume of 4 segments a section: rebuilt in mkfs's default layout, both fscks clean, 40 files as before" ||
	tap_fail "-s 4: exit $rc: $(printf '%s\n' "$out" | head -6)"

# 16 KiB blocks: not made again (the node blocks end 16 KiB blocks), nothing written
IMG=$T/16k-front.img
cp "$T/aged16k_packed.img" "$IMG"
zap "$IMG" front
rebuild_untouched &&
	printf '%s\n' "$out" | grep -q 'none can be made again: the node blocks end 16 KiB blocks' &&
	tap_ok "16 KiB blocks without superblocks: refused, nothing written" ||
	tap_fail "16 KiB front: exit $rc: $out"

# unclean: the roll-forward's files kept (their newest nodes), the orphan gone
IMG=$T/uc.img
cp "$T/unclean.img" "$IMG"
zap "$IMG" cp
out=$("$FSCK" --rebuild "$IMG" 2>&1)
rc=$?
[ $rc = 1 ] && [ "$(size /fsynced)" = 40960 ] && [ "$(size /grows)" = 24576 ] &&
	printf '%s\n' "$out" | grep -q '^  left out: 1 deleted inodes' &&
	[ -z "$(lost_found "$IMG")" ] && our_fsck_clean "$IMG" > /dev/null &&
	tap_ok "unclean: the fsync'd /fsynced and /grows kept as written, the orphan left out" ||
	tap_fail "unclean: exit $rc, /fsynced $(size /fsynced), /grows $(size /grows): $out"

# an inode whose only copy has a wrong checksum: kept, its checksum mended by the check
IMG=$T/csum.img
cp "$T/populated.img" "$IMG"
inject --node --path /onemeg --mb i_inode_checksum --val 1 > /dev/null
zap "$IMG" cp
out=$("$FSCK" --rebuild "$IMG" 2>&1)
rc=$?
[ $rc = 1 ] && printf '%s\n' "$out" | grep -q '^  damaged: 1 inodes with no copy whose checksum holds' &&
	our_fsck_clean "$IMG" > /dev/null &&
	[ "$("$DUMP" --cat /onemeg "$IMG" | sha256sum)" = "$("$DUMP" --cat /onemeg "$T/populated.img" | sha256sum)" ] &&
	tap_ok "an inode with a wrong checksum and no other copy: kept, mended, its data whole" ||
	tap_fail "wrong checksum: exit $rc: $out"

# a direct node lost: said, the rest of the file kept
IMG=$T/lost.img
cp "$T/populated.img" "$IMG"
dn=$(get --node --path /big.bin --mb i_nid --idx 0)
dd if=/dev/zero of="$IMG" bs=4096 seek="$(addr "$dn")" count=1 conv=notrunc status=none
zap "$IMG" cp
out=$("$FSCK" --rebuild "$IMG" 2>&1)
rc=$?
head_big() { "$DUMP" --cat /big.bin "$1" 2>/dev/null | head -c $((800 * 4096)) | sha256sum; }
[ $rc = 1 ] && printf '%s\n' "$out" | grep -q '^  lost: 1 nodes the files point to' &&
	our_fsck_clean "$IMG" > /dev/null && [ "$(head_big "$IMG")" = "$(head_big "$T/populated.img")" ] &&
	tap_ok "a lost direct node: reported, the inode's own blocks kept, clean" ||
	tap_fail "lost direct node: exit $rc: $out"

# a directory of 400 entries lost: its files go to lost+found, which grows past its one
# block (a new dentry block where their names' hashes lead)
IMG=$T/many.img
cp "$T/populated.img" "$IMG"
dd if=/dev/zero of="$IMG" bs=4096 seek="$(addr "$(ino /many)")" count=1 conv=notrunc status=none
zap "$IMG" cp
out=$("$FSCK" --rebuild "$IMG" 2>&1)
rc=$?
sums() { grep "  \./$1" "$2" | awk '{print $1}' | sort; }
manifest_lf()
{
	local d
	d=$(mktemp -d "$T/x.XXXXXX")
	"$DUMP" --extract /lost+found -o "$d/x" "$1" > /dev/null 2>&1
	(cd "$d/x" && find . -type f -print0 | xargs -0 -r sha256sum | awk '{print $1}' | sort)
	rm -rf "$d"
}
n_lf=$(lost_found "$IMG" | wc -l)
[ $rc = 1 ] && [ "$n_lf" -ge 400 ] && our_fsck_clean "$IMG" > /dev/null &&
	{ [ ! -x "$REF_FSCK" ] || ref_fsck "$IMG" > /dev/null; } &&
	[ "$(sums many/ "$T/populated.man" | comm -23 - <(manifest_lf "$IMG") | wc -l)" = 0 ] &&
	[ "$("$DUMP" -i "$(ino /lost+found)" "$IMG" | sed -n 's/^ *i_size *//p')" -gt 4096 ] &&
	tap_ok "a lost directory: its $n_lf files in a grown lost+found, every content there, clean" ||
	tap_fail "lost directory: exit $rc, $n_lf in lost+found: $(printf '%s' "$out" | tail -3)"

# 1300 files of a lost directory on a volume without lost+found: the one fsck makes
# (inline) fills, becomes a block directory and grows levels deeper
mkdir -p "$T/src/big"
for i in $(seq 1 1300); do echo "file $i" > "$T/src/big/f$i"; done
IMG=$(new_image deep.img 128M)
"$MKFS" -q -f -O extra_attr,inode_checksum "$IMG" > /dev/null &&
	"$OUR_BIN/sload.f2fs" -f "$T/src" "$IMG" > /dev/null || hard_error "cannot make deep.img"
big=$(ino /big)
for b in $("$DUMP" --scan-inode "$big" "$IMG" | sed -n 's/^ *blkaddr=\([0-9]*\) .*/\1/p'); do
	dd if=/dev/zero of="$IMG" bs=4096 seek="$b" count=1 conv=notrunc status=none
done
zap "$IMG" cp
"$FSCK" --rebuild "$IMG" > "$T/deep.out" 2>&1
rc=$?
lf=$(ino /lost+found)
depth=$("$DUMP" -i "$lf" "$IMG" | sed -n 's/^ *i_current_depth *//p')
inline=$(get --node --nid "$lf" --mb i_inline)
found=0
for name in $(lost_found "$IMG" | sed -n '1p;650p;1300p'); do
	"$DUMP" --cat "/lost+found/$name" "$IMG" 2>/dev/null | grep -q -x 'file [0-9]*' &&
		found=$((found + 1))
done
[ $rc = 1 ] && [ "$(lost_found "$IMG" | wc -l)" = 1300 ] && [ "${depth:-0}" -ge 2 ] &&
	[ $((inline & 4)) = 0 ] && [ $found = 3 ] && our_fsck_clean "$IMG" > /dev/null &&
	{ [ ! -x "$REF_FSCK" ] || ref_fsck "$IMG" > /dev/null; } &&
	tap_ok "1300 files into a new lost+found: converted to blocks, depth $depth, each found by name" ||
	tap_fail "deep lost+found: exit $rc, $(lost_found "$IMG" | wc -l) entries, depth $depth, i_inline $inline, $found of 3 found: $(tail -3 "$T/deep.out")"

# -n writes nothing
IMG=$T/dry.img
cp "$T/populated.img" "$IMG"
zap "$IMG" cp
rebuild_untouched -n && printf '%s\n' "$out" | grep -q 'nothing written' &&
	tap_ok "-n: exit 4, the report, no byte written" || tap_fail "-n: exit $rc: $out"

# -n without superblocks: the one it would make said, nothing written
IMG=$T/dry-front.img
cp "$T/populated.img" "$IMG"
zap "$IMG" front
rebuild_untouched -n &&
	printf '%s\n' "$out" | grep -q '^  features (from the inodes): ' &&
	printf '%s\n' "$out" | grep -q 'nothing written' &&
	tap_ok "-n, no superblock: exit 4, what would be made, no byte written" ||
	tap_fail "-n without superblocks: exit $rc: $out"

# superblocks damaged, not gone (the magic left): not replaced by a guess
IMG=$T/damaged.img
cp "$T/populated.img" "$IMG"
printf '\x63' | dd of="$IMG" bs=1 seek=$((1024 + 16)) conv=notrunc status=none
printf '\x63' | dd of="$IMG" bs=1 seek=$((4096 + 1024 + 16)) conv=notrunc status=none
rebuild_untouched &&
	[ "$(printf '%s\n' "$out" | grep -c 'damaged, not gone')" = 1 ] &&
	tap_ok "superblocks damaged, not gone: exit 4, one line, nothing written" ||
	tap_fail "damaged superblocks: exit $rc: $out"

# A fault at each write of the superblock's part (the checkpoint area cleared, copy 2,
# copy 1): a second run ends with every file.
bad=0 hit=0
for k in 1 2 3; do
	IMG=$T/sbf.img
	cp "$T/populated.img" "$IMG"
	zap "$IMG" front
	ZF2FS_FAULT_WRITES=$k "$FSCK" --rebuild "$IMG" > "$T/sbf.out" 2>&1
	grep -q 'while writing the superblock' "$T/sbf.out" && hit=$((hit + 1))
	"$FSCK" --rebuild "$IMG" > "$T/sbf2.out" 2>&1
	if ! our_fsck_clean "$IMG" > /dev/null ||
	   [ "$(manifest "$IMG")" != "$(cat "$T/populated.man")" ]; then
		echo "# superblock fault at write $k: $(tail -2 "$T/sbf.out"); rerun: $(tail -2 "$T/sbf2.out")"
		bad=$((bad + 1))
	fi
done
[ $bad = 0 ] && [ $hit = 3 ] &&
	tap_ok "a fault at each of the superblock's 3 writes: the rerun ends clean with every file" ||
	tap_fail "superblock faults: $bad bad, $hit of 3 stopped in the superblock's writes"

# A fault at every write: no checkpoint (the old volume) or the new one, and a second
# run ends as the first did.
fault_matrix
IMG=$T/f.img
cp "$T/populated.img" "$T/f.base"
zap "$T/f.base" cp
cp "$T/f.base" "$IMG"
total=$("$FSCK" --rebuild -d 1 "$IMG" 2>&1 | sed -n 's/^  \([0-9]*\) blocks written$/\1/p')
[ -n "$total" ] && [ "$total" -gt 20 ] || hard_error "no write count from --rebuild -d 1"
bad=0 old=0 new=0 runs=0
for ((k = 0; k < total; k++)); do
	[ $((k % 16)) = 0 ] || [ $k -ge $((total - 24)) ] || continue
	cp "$T/f.base" "$IMG"
	ZF2FS_FAULT_WRITES=$k "$FSCK" --rebuild "$IMG" > /dev/null 2>&1
	rc=$?
	runs=$((runs + 1))
	# the new volume opens (its lost+found is the second run's to fill); the old one not
	"$FSCK" -f -n "$IMG" > "$T/f.out" 2>&1
	if grep -q 'no usable superblock and checkpoint' "$T/f.out"; then
		old=$((old + 1))
	elif grep -q ' inodes ([0-9]* directories)' "$T/f.out"; then
		new=$((new + 1))
	else
		echo "# fault at write $k (rebuild exit $rc): neither volume: $(tail -3 "$T/f.out")"
		bad=$((bad + 1))
		continue
	fi
	"$FSCK" --rebuild "$IMG" > /dev/null 2>&1
	if ! our_fsck_clean "$IMG" > /dev/null ||
	   [ "$(manifest "$IMG")" != "$(cat "$T/populated.man")" ]; then
		echo "# fault at write $k: the second run did not end clean with every file"
		bad=$((bad + 1))
	fi
done
[ $bad = 0 ] && [ $old -gt 0 ] && [ $new -gt 0 ] &&
	tap_ok "fault at $runs of $total writes: $old left no checkpoint, $new the new one; each rerun complete" ||
	tap_fail "fault matrix: $bad bad of $runs ($old old, $new new)"

tap_summary
