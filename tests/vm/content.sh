#!/bin/sh
# content.sh - what Linux itself puts on a volume, kind by kind, read by our tools.
#
# Boot 1: Linux 6.1 writes on volumes made by our mkfs: fscrypt v1 and v2 directories
# (AES-256-XTS with CTS names, Adiantum) holding a varied tree, 600 long names, a 1 MiB
# file with a hard link, symlinks, renames, holes and inline data (one key removed before
# unmount, one kept); encrypted + casefolded directories (strict encoding); fs-verity
# files; compressed files of every algorithm (inherited FS_COMPR_FL, compress_chksum,
# released and reserved blocks); a pinned fallocated file; atomic writes committed and
# aborted; xattrs of every namespace, inline and in a node; POSIX ACLs; project and user
# quota; a volume filled to ENOSPC and then thinned; and last an atomic write cut by a
# power cut before its commit and one after.  A manifest (sha256 of every file and
# xattr) is kept beside each tree.
# Host: on each volume our fsck -f -n finds nothing, -f -y changes no byte, Debian's
# fsck agrees; dump.f2fs lists the encrypted names as hex and refuses to extract
# ciphertext; copies go through resize.f2fs (grow), defrag.f2fs and gc.f2fs collect,
# and both fscks find them clean.
# Boot 2: Linux adds the keys and checks every manifest, on the volumes as they were and
# on the copies the tools changed; the atomic files hold their last committed data.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup content "every kind of content Linux writes, checked and moved by our tools"

FEAT="extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime"
vm_disk enc 256M
vm_mkfs enc -O "$FEAT,encrypt" || vm_error "mkfs enc failed"
vm_disk encf 128M
vm_mkfs encf -O "$FEAT,encrypt,casefold" -C utf8:strict || vm_error "mkfs encf failed"
vm_disk feat 256M
vm_mkfs feat -O "$FEAT,verity,compression,quota,project_quota" || vm_error "mkfs feat failed"
vm_disk full 64M
vm_mkfs full -O "$FEAT" || vm_error "mkfs full failed"
vm_disk atom 64M
vm_mkfs atom -O "$FEAT" || vm_error "mkfs atom failed"
# a small volume of every encrypted kind, kept as a fixture for the host's image tests
vm_disk fix 64M
vm_mkfs fix -r -T 1700000000 -U 11111111-2222-3333-4444-666666666666 \
	-O "$FEAT,encrypt,casefold,verity,compression" -C utf8 || vm_error "mkfs fix failed"

vm_guest <<'EOF'
M=/mnt
# names DIR COUNT PREFIX: COUNT empty files with long names (and a few directories)
names() {
	long=$(printf '%0180d' 0 | tr 0 n)
	i=0
	while [ $i -lt "$2" ]; do
		: >"$1/$3-$long-$i"
		i=$((i + 1))
	done
	mkdir "$1/$3-sub" "$1/$3-sub/deeper"
}
# mixed DIR: the kinds a user's directory holds
mixed() {
	d=$1
	zwork tree "$d/t" >/dev/null
	mkdir "$d/big"
	names "$d/big" 600 Entry
	zwork writefile "$d/mib" 1024 5 >/dev/null
	ln "$d/mib" "$d/mib.link"
	ln -s mib "$d/sym.short"
	ln -s "$(printf '%0300d' 7)/target" "$d/sym.long"
	echo "inline data" >"$d/small"
	zwork socket "$d/sock" >/dev/null
	mknod "$d/blockdev" b 7 0
	mkfifo "$d/fifo"
	dd if=/dev/zero of="$d/holes" bs=4096 seek=300 count=2 2>/dev/null
	echo tail >>"$d/holes"
	zwork writefile "$d/renamed.tmp" 40 6 >/dev/null
	mv "$d/renamed.tmp" "$d/renamed"
	mv "$d/big/Entry-sub" "$d/moved-sub"
	rm -f "$d/big/Entry-$(printf '%0180d' 0 | tr 0 n)-5"*
}

step "fscrypt v1, v2 and Adiantum"
zmount enc $M/enc
mkdir -p $M/enc/d/e2 $M/enc/d/e1 $M/enc/d/ea $M/enc/d/plain
zwork policy $M/enc/d/e2 v2 11
zwork policy $M/enc/d/e1 v1 12
zwork policy $M/enc/d/ea v2 13 adiantum
mixed $M/enc/d/e2
mixed $M/enc/d/e1
mixed $M/enc/d/ea
mixed $M/enc/d/plain
zwork manifest $M/enc/d $M/enc/manifest
zdrop_caches
zwork key $M/enc remove v2 11
ls $M/enc/d/e2 | head -n 3
zumount $M/enc

step "encrypted and casefolded"
zmount encf $M/encf
mkdir -p $M/encf/d/cf $M/encf/d/fold
zwork flags $M/encf/d/cf +casefold
zwork policy $M/encf/d/cf v2 21
zwork flags $M/encf/d/fold +casefold
for d in cf fold; do
	names $M/encf/d/$d 600 MiXeD
	echo "name in another case" >$M/encf/d/$d/Straße
	mkdir $M/encf/d/$d/SubDir
	zwork writefile $M/encf/d/$d/SubDir/data 300 22 >/dev/null
	[ -f $M/encf/d/$d/subdir/DATA ] || zfail "$d: no case-insensitive lookup"
done
zwork manifest $M/encf/d $M/encf/manifest
zumount $M/encf

step "verity, compression, pinned, atomic, xattrs, ACLs, quota"
zmount feat $M/feat compress_chksum,compress_algorithm=lz4
d=$M/feat/d
mkdir -p $d
zwork writefile $d/verity.1m 1024 31 >/dev/null
zwork verity $d/verity.1m
zwork writefile $d/verity.small 5 32 >/dev/null
zwork verity $d/verity.small
mkdir $d/c
zwork flags $d/c +compr
for alg in lzo lz4 zstd lzo-rle; do
	: >$d/c/$alg
	zwork compress-opt $d/c/$alg $alg 2
	yes "compressible line of $alg" | head -c 1048576 >$d/c/$alg
done
yes "default algorithm" | head -c 600000 >$d/c/inherited
zwork writefile $d/c/random 256 33 >/dev/null
sync
zwork release $d/c/lz4 release
zwork release $d/c/zstd release
zwork release $d/c/zstd reserve
zwork flags $d/c/lzo-rle
zwork pin $d/pinned 8192 1024 41
zwork writefile $d/atomic.commit 256 51 fsync >/dev/null
zwork atomic $d/atomic.commit 256 52 commit
zwork writefile $d/atomic.abort 256 53 fsync >/dev/null
zwork atomic $d/atomic.abort 128 54 abort
: >$d/xattrs
zwork xattr $d/xattrs user.small 16 61
zwork xattr $d/xattrs user.big 3000 62
zwork xattr $d/xattrs trusted.t 200 63
zwork xattr $d/xattrs security.s 100 64
mkdir $d/acl
zwork acl $d/acl access 1000 1000
zwork acl $d/acl default 1000 1000
echo inherits >$d/acl/file
mkdir $d/proj
zwork projid $d/proj 7
zwork flags $d/proj +projinherit
zwork writefile $d/proj/f 100 71 >/dev/null
chown 1000:1000 $d/proj/f
zwork tree $d/t >/dev/null
zwork manifest $d $M/feat/manifest
zumount $M/feat

step "a full volume"
zmount full $M/full
mkdir $M/full/d
zwork enospc $M/full/d 96 90
rm -f $M/full/d/f*[0369]
zwork writefile $M/full/d/after 300 91 >/dev/null
zwork manifest $M/full/d $M/full/manifest
zumount $M/full

step "the fixture"
zmount fix $M/fix
f=$M/fix
mkdir $f/e2 $f/e1 $f/cf $f/plain
zwork policy $f/e2 v2 11
zwork policy $f/e1 v1 12
zwork flags $f/cf +casefold
zwork policy $f/cf v2 21
for d in e2 e1 cf plain; do
	names $f/$d 40 Name
	zwork writefile $f/$d/file 12 7 >/dev/null
	ln $f/$d/file $f/$d/file.link
	ln -s file $f/$d/sym
	echo "inline data" >$f/$d/small
	mkdir $f/$d/sub
	echo deeper >$f/$d/sub/leaf
done
zwork writefile $f/plain/verity 64 8 >/dev/null
zwork verity $f/plain/verity
mkdir $f/plain/c
zwork flags $f/plain/c +compr
yes "compressible" | head -c 200000 >$f/plain/c/text
yes "released" | head -c 100000 >$f/plain/c/released
sync
zwork release $f/plain/c/released release
zwork pin $f/plain/pinned 2048 8 9
zwork key $f remove v2 21
zumount $M/fix

step "atomic writes cut by a power cut"
zmount atom $M/atom
zwork writefile $M/atom/held 512 81 fsync
zwork writefile $M/atom/done 256 83 fsync
zwork atomic $M/atom/done 256 84 commit
sync
zwork atomic $M/atom/held 512 82 hold &
sleep 3
sync
zpowercut
EOF
vm_boot

# ---- host ---------------------------------------------------------------------------

OUR_FSCK=$top_builddir/fsck/fsck.f2fs
RESIZE=$top_builddir/tools/resize.f2fs
DEFRAG=$top_builddir/tools/defrag.f2fs
GC=$top_builddir/tools/gc.f2fs
# strict NAME: our fsck -f -n finds nothing and -f -y changes no byte
strict() {
	img=$(vm_img "$1")
	before=$(sha256sum <"$img")
	"$OUR_FSCK" -f -n "$img" >"$VM_OUT/$1.fsck-fn.log" 2>&1 ||
		{ vm_fail "$1: our fsck -f -n: exit $? (output in $VM_OUT/$1.fsck-fn.log)"
		  grep -E '^\[0x' "$VM_OUT/$1.fsck-fn.log" | head -n 10 | sed 's/^/  our fsck: /'; }
	"$OUR_FSCK" -f -y "$img" >"$VM_OUT/$1.fsck-fy.log" 2>&1 ||
		vm_fail "$1: our fsck -f -y: exit $? (output in $VM_OUT/$1.fsck-fy.log)"
	[ "$(sha256sum <"$img")" = "$before" ] || vm_fail "$1: our fsck -f -y changed the image"
}

fixdir=$VM_ROOT/fixtures
mkdir -p "$fixdir"
fixture=$fixdir/encrypted$VM_KSUFFIX.img.xz
xz -T1 -9 -c "$(vm_img fix)" >"$fixture.tmp" && mv "$fixture.tmp" "$fixture"
vm_log "fixture kept: $fixture ($(du -k "$fixture" | cut -f1) KiB)"

for n in enc encf feat full fix atom; do
	vm_fsck $n
	strict $n
done
# the tools on copies: a GC collect of 8 sections, the main area's first 8 MiB moved
# past it, a grow by half; each leaves a volume both fscks find clean
for n in enc encf feat full; do
	cp "$(vm_img $n)" "$(vm_img $n-t)"
	size=$(stat -c %s "$(vm_img $n-t)")
	truncate -s $((size * 3 / 2)) "$(vm_img $n-t)"
	vm_change $n-t "$GC" collect "$(vm_img $n-t)" -n 8
	vm_change $n-t "$DEFRAG" -l 2048 "$(vm_img $n-t)"
	vm_change $n-t "$RESIZE" "$(vm_img $n-t)"
	vm_fsck $n-t "after resize, defrag and collect"
	strict $n-t
	vm_attach $n-t
done

# a pinned file's blocks never move (the kernel's GC leaves them, and programs read
# them by address): defrag over them is refused and writes nothing
img=$(vm_img feat)
pinned=$("$top_builddir/tools/inject.f2fs" --path /d/pinned --bmap 0 "$img")
before=$(sha256sum <"$img")
if "$DEFRAG" -s "$pinned" -l 512 "$img" >"$VM_OUT/pinned.log" 2>&1; then
	vm_fail "feat: defrag over the pinned file's blocks succeeded"
elif ! grep -q 'pinned file' "$VM_OUT/pinned.log"; then
	vm_fail "feat: defrag over the pinned file: no reason given ($VM_OUT/pinned.log)"
fi
[ "$(sha256sum <"$img")" = "$before" ] || vm_fail "feat: the refused defrag changed the image"

vm_guest <<'EOF'
M=/mnt
for n in enc enc-t; do
	zmount $n $M/$n
	zwork key $M/$n add v2 11 >/dev/null
	zwork key $M/$n add v1 12 >/dev/null
	zwork key $M/$n add v2 13 >/dev/null
	zwork verify $M/$n/d $M/$n/manifest
	zumount $M/$n
done
for n in encf encf-t; do
	zmount $n $M/$n
	zwork key $M/$n add v2 21 >/dev/null
	zwork verify $M/$n/d $M/$n/manifest
	zumount $M/$n
done
for n in feat feat-t full full-t; do
	zmount $n $M/$n
	zwork verify $M/$n/d $M/$n/manifest
	zumount $M/$n
done
step "atomic writes after the power cut"
zmount atom $M/atom
zwork checkfile $M/atom/held 512 81
zwork checkfile $M/atom/done 256 84
zumount $M/atom
EOF
vm_boot
for n in enc encf feat full atom; do
	vm_fsck $n "after the second boot"
done
vm_finish
