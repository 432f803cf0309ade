#!/bin/sh
# blocks16k.sh - volumes of 16 KiB blocks judged by Linux with 16 KiB pages: Debian's
# arm64 kernel with 16 KiB pages (linux-image-arm64-16k, fetched by tests/vm/fetch-kernel.sh
# --flavour arm64-16k) under qemu-system-aarch64.  Since Linux 6.7 F2FS's block size is
# the page size, so this kernel mounts only volumes of 16 KiB blocks: the guest checks its
# page size, and that a volume of 4 KiB blocks is refused with the kernel's reason and left
# unchanged.  Four volumes of the mkfs under test (-b 16384: plain; packed_ssa; and both again with
# extra_attr, inode_checksum, compression, quota and casefold) get, under the kernel, a
# tree that crosses the 16 KiB rules (files around the 16 KiB inline area and block,
# a sparse file with blocks in the inode, both direct nodes, the indirect and the double
# indirect range, a directory of many dentry blocks, hard links, short and long symlinks,
# xattrs inline and in a node, compressed and casefolded directories), random
# overwrites and deletions; a manifest of it is kept on the volume.  A remount verifies
# every file.  On the host: our fsck finds each volume clean, and dump.f2fs extracts
# every file equal to the manifest.  A fifth volume (encrypt, casefold, verity,
# compression) gets what Linux writes of those at 16 KiB: a v2-encrypted directory of 700
# names, an encrypted casefolded one, a verity file, a released compressed file, a pinned
# file and an atomic write, the keys removed before the unmount; our fsck finds it clean
# and -f -y changes no byte.  A second boot reads back, the keys added again, what gc.f2fs
# collect, resize.f2fs, defrag.f2fs, sload.f2fs and mkfs.f2fs --root-dir made of 16 KiB
# volumes.  The two feature-rich volumes are kept as fixtures
# (tests/vm/fixtures/aged16k*.img.xz), the source of the corpus's 16 KiB bases.
ZF2FS_VM_KERNEL=${ZF2FS_VM_KERNEL:-newest-arm64-16k}
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup blocks16k "16 KiB blocks: our volumes aged by Linux with 16 KiB pages, checked, extracted"
[ "$VM_ARCH" = arm64 ] || vm_skip "needs the arm64-16k kernel (ZF2FS_VM_KERNEL=newest-arm64-16k)"

vm_disk b4k 256M
vm_mkfs b4k -O extra_attr,inode_checksum || vm_error "mkfs b4k failed"
b4k_sum=$(md5sum <"$(vm_img b4k)")
RICH=extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime,compression,quota,casefold
vm_disk plain 256M
vm_mkfs plain -b 16384 || vm_error "mkfs plain failed"
vm_disk packed 256M
vm_mkfs packed -b 16384 -O packed_ssa || vm_error "mkfs packed failed"
vm_disk rich 384M
vm_mkfs rich -b 16384 -O "$RICH" -C utf8 || vm_error "mkfs rich failed"
vm_disk richp 384M
vm_mkfs richp -b 16384 -O "packed_ssa,$RICH" -C utf8 || vm_error "mkfs richp failed"
vm_disk cont 384M
vm_mkfs cont -b 16384 -O extra_attr,inode_checksum,sb_checksum,encrypt,casefold,verity,compression \
	-C utf8 || vm_error "mkfs cont failed"

SPARSE_BLOCKS="0 3994 3995 8084 8085 12175 4102175 33464195"
# the kernel's refusal of the 4 KiB volume is what is tested
VM_ALLOW_KLOG='Invalid log_blocksize|Can.t find valid F2FS filesystem|Magic Mismatch'
{ echo "SPARSE_BLOCKS='$SPARSE_BLOCKS'"; cat <<'EOF'
step "page size"
ps=$(sed -n 's/^KernelPageSize: *\([0-9]*\) kB$/\1/p' /proc/self/smaps | sort -u)
[ "$ps" = 16 ] || zfail "KernelPageSize is '$ps' kB, not 16"
echo "info: $(uname -m), Linux $(uname -r), pages of $ps KiB"
step "a volume of 4 KiB blocks"
mkdir -p /mnt/b4k
if mount -t f2fs "$(zdisk b4k)" /mnt/b4k 2>/tmp/mount.err; then
	zfail "Linux with 16 KiB pages mounted a volume of 4 KiB blocks"
fi
dmesg | grep -q 'Invalid log_blocksize (12), supports only 14' ||
	zfail "no refusal of log_blocksize 12 in the kernel's log: $(dmesg | grep -i f2fs | tail -n 3)"
# age NAME RICH: the tree, overwrites and deletions, a manifest, a remount that verifies it
age() {
	m=/mnt/$1
	zmount $1 $m ${2:+compress_algorithm=lz4,compress_chksum}
	d=$m/t
	mkdir -p $d/sizes $d/bigdir $d/links
	step "$1: files around 16 KiB"
	for s in 0 1 100 3400 4097 12000 15000 16383 16384 16385 40000 70000 100000; do
		head -c $s /dev/urandom >$d/sizes/f$s
	done
	step "$1: a sparse file through every level of the block map"
	# blocks 0 and 3994 in the inode, then each direct node,
	# the indirect and the double indirect range (3995 + 2 * 4090 + 2 * 4090 * 4090).
	# Kept out of the tree: reading its 548 GB of holes would take hours.
	mkdir $m/s
	for b in $SPARSE_BLOCKS; do
		dd if=/dev/urandom of=$m/s/sparse bs=16384 seek=$b count=1 conv=notrunc \
			2>/dev/null || zfail "dd at block $b"
		echo "$b $(dd if=$m/s/sparse bs=16384 skip=$b count=1 2>/dev/null | sha256sum)"
	done >$m/s/sums
	step "$1: a directory of many dentry blocks"
	i=0
	while [ $i -lt 900 ]; do
		echo "$i" >$d/bigdir/entry-with-a-longer-name-$i
		i=$((i + 1))
	done
	head -c 20000 /dev/urandom >$d/links/origin
	ln $d/links/origin $d/links/hard1
	ln $d/links/origin $d/sizes/hard2
	ln -s origin $d/links/short
	ln -s "$(i=0; while [ $i -lt 30 ]; do printf 'long/segment/of/a/symlink/target/%02d/' $i; i=$((i + 1)); done)" \
		$d/links/long
	: >$d/xattrs
	zwork xattr $d/xattrs user.small 16 61
	zwork xattr $d/xattrs user.big 3000 62
	zwork xattr $d/xattrs trusted.t 9000 63
	if [ -n "$2" ]; then
		step "$1: compressed and casefolded directories"
		mkdir $d/c $d/cf
		zwork flags $d/c +compr
		yes "a compressible line of text, written under 16 KiB pages" | head -c 1048576 >$d/c/text
		head -c 65536 /dev/urandom >$d/c/random
		zwork flags $d/cf +casefold
		echo upper >$d/cf/MixedCase
		[ "$(cat $d/cf/mixedcase)" = upper ] || zfail "casefold lookup"
	fi
	step "$1: overwrites and deletions"
	head -c 262144 /dev/urandom >$d/ow
	zwork overwrite $d 120 16384 7 >/dev/null
	i=0
	while [ $i -lt 900 ]; do
		rm $d/bigdir/entry-with-a-longer-name-$i
		i=$((i + 3))
	done
	rm $d/sizes/f100000
	zwork manifest $d $m/manifest
	zumount $m
	step "$1: remount and verify"
	zmount $1 $m
	zwork verify $d $m/manifest
	while read -r b sum dash; do
		[ "$(dd if=$m/s/sparse bs=16384 skip=$b count=1 2>/dev/null | sha256sum)" = "$sum  -" ] ||
			zfail "$1: sparse block $b changed"
	done <$m/s/sums
	zumount $m
}
age plain
age packed
age rich 1
age richp 1
step "cont: fscrypt, an encrypted casefolded directory, verity, released, pinned, atomic"
m=/mnt/cont
zmount cont $m compress_algorithm=lz4
mkdir -p $m/d/e2 $m/d/cf $m/d/plain/c
zwork policy $m/d/e2 v2 11
i=0
while [ $i -lt 700 ]; do
	echo "$i" >$m/d/e2/an-encrypted-name-of-some-length-$i
	i=$((i + 1))
done
zwork writefile $m/d/e2/big 300 12 >/dev/null
mkdir $m/d/e2/sub
ln -s ../big $m/d/e2/sub/link
zwork flags $m/d/cf +casefold
zwork policy $m/d/cf v2 21
mkdir $m/d/cf/SubDir
zwork writefile $m/d/cf/SubDir/data 300 22 >/dev/null
[ -f $m/d/cf/subdir/DATA ] || zfail "cont: no case-insensitive lookup in the encrypted directory"
zwork writefile $m/d/plain/verity 1024 31 >/dev/null
zwork verity $m/d/plain/verity
zwork flags $m/d/plain/c +compr
yes "a compressible line" | head -c 300000 >$m/d/plain/c/text
yes "released" | head -c 200000 >$m/d/plain/c/released
sync
zwork release $m/d/plain/c/released release
zwork pin $m/d/plain/pinned 2048 8 9
zwork writefile $m/d/plain/atomic 256 83 fsync >/dev/null
zwork atomic $m/d/plain/atomic 256 84 commit
zwork manifest $m/d $m/manifest
zwork key $m remove v2 11
zwork key $m remove v2 21
zumount $m
EOF
} | vm_guest
failed_before=$VM_FAILED
VM_FAILED=0
vm_boot
guest_ok=$((!VM_FAILED))
VM_FAILED=$((VM_FAILED | failed_before))
[ "$(md5sum <"$(vm_img b4k)")" = "$b4k_sum" ] || vm_fail "the refused 4 KiB volume changed"
vm_fsck b4k

# the fixtures only from a boot that verified them
fixdir=$VM_ROOT/fixtures
mkdir -p "$fixdir"
for pair in rich:aged16k richp:aged16k_packed; do
	[ "$guest_ok" -eq 1 ] || break
	fixture=$fixdir/${pair#*:}.img.xz
	xz -T1 -9 -c "$(vm_img "${pair%%:*}")" >"$fixture.tmp" && mv "$fixture.tmp" "$fixture"
	vm_log "fixture kept: $fixture ($(du -k "$fixture" | cut -f1) KiB)"
done

# sparse_ok DIR: the blocks the guest wrote into DIR/sparse have the sums it noted
sparse_ok() {
	while read -r b sum dash; do
		[ "$(dd if="$1/sparse" bs=16384 skip="$b" count=1 2>/dev/null | sha256sum)" = \
			"$sum  -" ] || return 1
	done <"$1/sums"
	[ "$(stat -c %s "$1/sparse")" = $(((${SPARSE_BLOCKS##* } + 1) * 16384)) ]
}

# contents MANIFEST: a zwork manifest's lines without the link count and the xattr digest
# (dump.f2fs --extract makes hard links copies and leaves xattrs in the volume)
contents() {
	awk '{ $3 = "-"; if (NF >= 7) $6 = "-"; print }' "$1" | LC_ALL=C sort
}

# every file the kernel wrote, extracted by our dump.f2fs, equals the manifest
for n in plain packed rich richp; do
	vm_fsck $n
	rm -rf "$VM_OUT/x-$n"
	"$top_builddir/tools/dump.f2fs" -S --extract / -o "$VM_OUT/x-$n" "$(vm_img $n)" \
		>"$VM_OUT/$n.extract.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		vm_fail "$n: dump.f2fs --extract: exit $rc ($VM_OUT/$n.extract.log)"
	elif ! sparse_ok "$VM_OUT/x-$n/s"; then
		vm_fail "$n: the extracted sparse file differs from the kernel's blocks"
	elif ! "$VM_HOST_ZWORK" manifest "$VM_OUT/x-$n/t" "$VM_OUT/$n.extracted" >/dev/null 2>&1; then
		vm_fail "$n: no manifest of the extracted tree"
	elif ! contents "$VM_OUT/x-$n/manifest" >"$VM_OUT/$n.kernel.c" ||
	     ! contents "$VM_OUT/$n.extracted" >"$VM_OUT/$n.extracted.c" ||
	     ! cmp -s "$VM_OUT/$n.kernel.c" "$VM_OUT/$n.extracted.c"; then
		vm_fail "$n: the extracted tree differs from the kernel's manifest"
		diff "$VM_OUT/$n.kernel.c" "$VM_OUT/$n.extracted.c" | head -n 6 | sed 's/^/  diff: /'
	else
		vm_log "$n: dump.f2fs extracted $(wc -l <"$VM_OUT/$n.kernel.c") entries equal to the kernel's"
	fi
done

# Boot 2: what our writing tools make of 16 KiB volumes, read back by Linux.  Copies of
# the two feature-rich volumes grown by half: gc.f2fs collects 8 sections, resize.f2fs
# grows the volume, defrag.f2fs makes the file the kernel overwrote at random contiguous,
# and sload.f2fs adds a host tree (/sl); a fifth volume is that tree in mkfs.f2fs
# --root-dir.  The tree crosses the 16 KiB rules: files around the inline area and the
# block, a sparse file with blocks in the inode and in the first direct node, a directory
# of several dentry blocks, a hard link, symlinks, and an xattr larger than a 4 KiB
# volume's room.
# The source on tmpfs when there is one: ext4 of 4 KiB blocks holds no 6000-byte xattr.
SRC=$VM_OUT/src SHM=
if [ -d /dev/shm ] && [ -w /dev/shm ] && SHM=$(mktemp -d /dev/shm/zf2fs-blocks16k.XXXXXX); then
	SRC=$SHM/src
fi
mkdir -p "$SRC/sl/many" "$SRC/sl/d"
for s in 0 1 3400 16383 16384 16385 70000; do head -c $s /dev/urandom >"$SRC/sl/f$s"; done
truncate -s $((3996 * 16384)) "$SRC/sl/sparse"
for b in 0 3994 3995; do
	head -c 16384 /dev/urandom | dd of="$SRC/sl/sparse" bs=16384 seek=$b conv=notrunc status=none
done
for i in $(seq 1 300); do echo "$i" >"$SRC/sl/many/entry-with-a-longer-name-$i"; done
ln "$SRC/sl/f16385" "$SRC/sl/d/hard"
ln -s f1 "$SRC/sl/short"
ln -s "$(printf 'long/%.0s' $(seq 60))" "$SRC/sl/long"
for n in 6000 3000; do
	python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.big", os.urandom(int(sys.argv[2])))' \
		"$SRC/sl/f70000" $n 2>/dev/null && break
	[ $n = 3000 ] && vm_error "cannot set an xattr in the source tree"
	vm_log "the source's file system holds no xattr of $n bytes: one of 3000"
done
"$VM_HOST_ZWORK" manifest "$SRC/sl" "$VM_OUT/sl.manifest" >/dev/null ||
	vm_error "zwork manifest failed on the host"
# the encrypted content: our fsck finds nothing, and -f -y changes no byte
vm_fsck cont
cp --sparse=always "$(vm_img cont)" "$VM_OUT/cont-y.img"
"$top_builddir/fsck/fsck.f2fs" -f -y "$VM_OUT/cont-y.img" >"$VM_OUT/cont-y.log" 2>&1 ||
	vm_fail "cont: fsck -f -y: exit $? ($VM_OUT/cont-y.log)"
cmp -s "$(vm_img cont)" "$VM_OUT/cont-y.img" || vm_fail "cont: fsck -f -y changed the volume"
rm -f "$VM_OUT/cont-y.img"
vm_detach_all
vm_attach cont
cp --sparse=always "$(vm_img cont)" "$(vm_img cont-t)"
truncate -s 576M "$(vm_img cont-t)"
vm_change cont-t "$top_builddir/tools/gc.f2fs" collect "$(vm_img cont-t)" -n 8
vm_change cont-t "$top_builddir/tools/resize.f2fs" "$(vm_img cont-t)"
# the blocks of the first 12 segments moved a segment at a time (encrypted names and
# data, the Merkle tree past the verity file's end, compressed clusters), but for a
# segment holding the pinned file, which defrag refuses; then the compressed files made
# contiguous
main=$("$top_builddir/tools/dump.f2fs" --superblock "$(vm_img cont-t)" |
	awk '$1 == "main_blkaddr" { print $2 }')
moved=0 pinned=0
for seg in $(seq 0 11); do
	if "$top_builddir/tools/defrag.f2fs" -s $((main + seg * 512)) -l 512 "$(vm_img cont-t)" \
		>>"$VM_OUT/cont-t.tools.log" 2>&1; then
		moved=$((moved + 1))
	elif tail -n 2 "$VM_OUT/cont-t.tools.log" | grep -q 'belongs to pinned file'; then
		pinned=$((pinned + 1))
	else
		vm_fail "cont-t: defrag of segment $seg failed ($VM_OUT/cont-t.tools.log)"
	fi
done
[ $pinned -ge 1 ] && [ $moved -ge 8 ] ||
	vm_fail "cont-t: defrag moved $moved segments, refused $pinned for the pinned file"
vm_log "cont-t: defrag over 12 segments: $moved moved (or had nothing to move), $pinned refused for the pinned file"
vm_change cont-t "$top_builddir/tools/defrag.f2fs" --file /d/plain/c "$(vm_img cont-t)"
vm_fsck cont-t "after collect, resize and defrag"
vm_attach cont-t
for n in rich richp; do
	cp --sparse=always "$(vm_img $n)" "$(vm_img $n-t)"
	size=$(stat -c %s "$(vm_img $n-t)")
	truncate -s $((size * 3 / 2)) "$(vm_img $n-t)"
	vm_change $n-t "$top_builddir/tools/gc.f2fs" collect "$(vm_img $n-t)" -n 8
	vm_change $n-t "$top_builddir/tools/resize.f2fs" "$(vm_img $n-t)"
	vm_change $n-t "$top_builddir/tools/defrag.f2fs" --file /t/ow "$(vm_img $n-t)"
	vm_change $n-t "$top_builddir/tools/sload.f2fs" -f "$SRC" "$(vm_img $n-t)"
	vm_fsck $n-t "after collect, resize, defrag and sload"
	vm_attach $n-t
done
vm_disk rootd 512M
vm_mkfs rootd -b 16384 -O packed_ssa,extra_attr,inode_checksum,flexible_inline_xattr \
	--root-dir "$SRC" || vm_fail "mkfs --root-dir failed"
vm_fsck rootd "after mkfs --root-dir"
[ -z "$SHM" ] || rm -rf "$SHM"
{ echo 'cat >/tmp/sl.manifest <<"ZEOF"'; cat "$VM_OUT/sl.manifest"; echo ZEOF; cat <<'EOF'
for n in rich-t richp-t; do
	m=/mnt/$n
	zmount $n $m
	zwork verify $m/t $m/manifest
	while read -r b sum dash; do
		[ "$(dd if=$m/s/sparse bs=16384 skip=$b count=1 2>/dev/null | sha256sum)" = "$sum  -" ] ||
			zfail "$n: sparse block $b changed"
	done <$m/s/sums
	zwork verify $m/sl /tmp/sl.manifest
	zumount $m
done
zmount rootd /mnt/rootd
zwork verify /mnt/rootd/sl /tmp/sl.manifest
zumount /mnt/rootd
for n in cont cont-t; do
	m=/mnt/$n
	zmount $n $m
	zwork key $m add v2 11 >/dev/null
	zwork key $m add v2 21 >/dev/null
	zwork verify $m/d $m/manifest
	zumount $m
done
EOF
} | vm_guest
vm_boot
for n in rich-t richp-t rootd cont cont-t; do
	vm_fsck $n "after the second boot"
done
vm_finish
