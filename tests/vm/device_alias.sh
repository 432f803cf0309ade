#!/bin/sh
# device_alias.sh - device aliasing (Linux 6.13 and later) made by our mkfs, judged by
# Linux: in the guest, mkfs.f2fs -c /dev/vdb@vdb /dev/vda makes /dev/vdb part of the volume
# and a pinned file "vdb" in the root that covers it.  Linux mounts the volume; the file
# has the device's size, reads the device's bytes and its writes reach the device; a
# truncation is refused; a varied tree written beside it survives a remount and foreground
# GC, which never moves the alias's blocks; our fsck finds the volume clean before and
# after (Debian's 1.15 does not know the feature and is not asked).  Then the volume is
# damaged with inject.f2fs (the alias extent one block short, which Linux refuses, and a
# wrong link count on the tree's top directory); our fsck -y repairs it (exit 1), -n is then
# clean, and Linux mounts it: the alias file reads the device's bytes at its old size and
# the tree verifies.  Then the alias extent is made device 0's: Linux refuses the file
# (stat fails, its extent check logged); our fsck gives the file its device back (0x040041),
# and Linux reads the device's bytes through it again.  Last, Linux releases the alias file (F2FS_IOC_RELEASE_DEV_ALIAS:
# size 0, the device's blocks free space): our fsck finds that volume clean; Linux
# reserves it again and the file reads the device's bytes; our fsck is clean again.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup device_alias "mkfs -c DEV@ALIAS: Linux mounts the volume and reads and writes the device through its file"
[ "$VM_GC_KERNEL" = 6.1 ] && vm_skip "device aliasing needs Linux 6.13 or later (run with ZF2FS_VM_KERNEL=newest)"
vm_all_tools
[ -x "$top_builddir/tools/inject.f2fs" ] || vm_error "tools/inject.f2fs is not built"
vm_tool "$top_builddir/tools/inject.f2fs" inject.f2fs
vm_disk main 512M
vm_disk alias 64M

vm_guest <<'EOF'
# ourfsck DEV: our fsck, read-only, clean
ourfsck() {
	fsck.f2fs -f -n "$1" >/tmp/ofsck.log 2>&1 || { cat /tmp/ofsck.log; zfail "our fsck: problems on $1"; }
	echo "info: our fsck clean on $1: $(tail -n 1 /tmp/ofsck.log)"
}
# ourrepair DEV CODE: our fsck -y repairs DEV (exit 1), reporting CODE among its problems
ourrepair() {
	rc=0
	fsck.f2fs -f -y "$1" >/tmp/rfsck.log 2>&1 || rc=$?
	cat /tmp/rfsck.log
	[ "$rc" = 1 ] && grep -q "^\[$2\]" /tmp/rfsck.log ||
		zfail "our fsck -y on $1: exit $rc (want 1, with $2)"
}
a=$(zdisk main)
b=$(zdisk alias)
name=${b#/dev/}
step "mkfs -c $b@$name $a"
# a pattern on the device before mkfs: the alias file must read it, mkfs must not touch it
dd if=/dev/urandom of=/tmp/pat bs=1M count=1 2>/dev/null
dd if=/tmp/pat of="$b" bs=1M seek=8 conv=notrunc 2>/dev/null
sync
mkfs.f2fs -f -c "$b@$name" "$a" >/tmp/mkfs.log 2>&1 || { cat /tmp/mkfs.log; zfail "mkfs"; }
ourfsck "$a"
zmount main /mnt/a
fl=/sys/fs/f2fs/${a#/dev/}/feature_list/device_alias
[ "$(cat "$fl" 2>/dev/null)" = supported ] || zfail "the kernel does not see device_alias on the volume ($fl)"
f=/mnt/a/$name
[ -f "$f" ] || zfail "no alias file $f"
size=$(stat -c %s "$f")
dev=$(blockdev --getsize64 "$b")
[ "$size" -gt 0 ] && [ "$size" -le "$dev" ] || zfail "alias file size $size, device $dev bytes"
echo "info: alias file $f: $size bytes of the device's $dev"
# the file reads the device's bytes, and writes through it reach the device
[ "$(dd if="$f" bs=1M skip=8 count=1 2>/dev/null | md5sum)" = "$(md5sum </tmp/pat)" ] ||
	zfail "the alias file does not read the device's bytes"
dd if=/dev/urandom of=/tmp/pat2 bs=1M count=1 2>/dev/null
dd if=/tmp/pat2 of="$f" bs=1M seek=16 conv=notrunc,fsync 2>/dev/null || zfail "writing through the alias file"
echo 1 >/proc/sys/vm/drop_caches
[ "$(dd if="$b" bs=1M skip=16 count=1 iflag=direct 2>/dev/null | md5sum)" = "$(md5sum </tmp/pat2)" ] ||
	zfail "a write through the alias file did not reach the device"
echo "info: the alias file reads and writes the device"
if truncate -s 4096 "$f" 2>/tmp/trunc.err; then
	zfail "truncating the alias file was allowed"
fi
echo "info: truncation refused: $(cat /tmp/trunc.err)"
step "a tree beside it, foreground GC, remount"
zwork tree /mnt/a/tree
zwork manifest /mnt/a/tree /tmp/tree.manifest
rm -rf /mnt/a/tree/big* 2>/dev/null || true
sync
zwork gc /mnt/a 1 8 || true
zwork manifest /mnt/a/tree /tmp/tree2.manifest
zumount /mnt/a
zdrop_caches
zmount main /mnt/a
zwork verify /mnt/a/tree /tmp/tree2.manifest
[ "$(dd if="$f" bs=1M skip=16 count=1 2>/dev/null | md5sum)" = "$(md5sum </tmp/pat2)" ] ||
	zfail "the alias file lost the device's bytes after GC and a remount"
[ "$(stat -c %s "$f")" = "$size" ] || zfail "the alias file changed size"
zumount /mnt/a
ourfsck "$a"
step "damage: alias extent one block short, a wrong link count; our fsck repairs"
ai=$(inject.f2fs --lookup "/$name" "$a") || zfail "no /$name in the image"
len=$(inject.f2fs --node --nid "$ai" --mb i_ext.len --get "$a")
inject.f2fs --node --nid "$ai" --mb i_ext.len --val $((len - 1)) "$a" >/dev/null || zfail "inject i_ext.len"
vi=$(inject.f2fs --lookup /tree "$a") || zfail "no /tree in the image"
inject.f2fs --node --nid "$vi" --mb i_links --val 7 "$a" >/dev/null || zfail "inject i_links"
ourrepair "$a" 0x040044
ourfsck "$a"
[ "$(inject.f2fs --node --nid "$ai" --mb i_ext.len --get "$a")" = "$len" ] ||
	zfail "the repaired alias extent is not the device's whole range"
zmount main /mnt/a
[ "$(stat -c %s "$f")" = "$size" ] || zfail "the repaired alias file has size $(stat -c %s "$f"), not $size"
[ "$(dd if="$f" bs=1M skip=16 count=1 2>/dev/null | md5sum)" = "$(md5sum </tmp/pat2)" ] ||
	zfail "the repaired alias file does not read the device's bytes"
zwork verify /mnt/a/tree /tmp/tree2.manifest
echo "info: Linux mounts the repaired volume; the alias file reads the device, the tree verifies"
zumount /mnt/a
step "damage: the alias extent made device 0's; Linux refuses it, our fsck gives the device back"
seg0=$(dump.f2fs --superblock "$a" | awk '$1 == "segment0_blkaddr" { print $2 }')
d0=$(inject.f2fs --sb 1 --mb devs.total_segments --idx 0 --get "$a")
inject.f2fs --node --nid "$ai" --mb i_ext.blk_addr --val 0 "$a" >/dev/null || zfail "inject i_ext.blk_addr"
inject.f2fs --node --nid "$ai" --mb i_ext.len --val $((seg0 + d0 * 512)) "$a" >/dev/null || zfail "inject i_ext.len"
k0=$(dmesg | wc -l)
zmount main /mnt/a
if stat "$f" >/dev/null 2>/tmp/stat.err; then
	zfail "Linux took an alias file whose extent is device 0's"
fi
# device 0 starts at block 0, which is no block address: Linux's extent check refuses the
# extent for that before it looks at devices
dmesg | tail -n +$((k0 + 1)) | grep -q 'sanity_check_extent_cache: .*incorrect' ||
	zfail "no refusal of the extent in the kernel's log: $(cat /tmp/stat.err)"
echo "info: Linux refuses the alias of device 0: $(cat /tmp/stat.err)"
zumount /mnt/a
ourrepair "$a" 0x040041
ourfsck "$a"
zmount main /mnt/a
[ "$(stat -c %s "$f")" = "$size" ] || zfail "the alias file given its device back has size $(stat -c %s "$f")"
[ "$(dd if="$f" bs=1M skip=16 count=1 2>/dev/null | md5sum)" = "$(md5sum </tmp/pat2)" ] ||
	zfail "the alias file given its device back does not read the device's bytes"
zwork verify /mnt/a/tree /tmp/tree2.manifest
echo "info: after the repair Linux reads the device's bytes through the alias file again"
zumount /mnt/a
step "damage: a file's pointer moved onto the aliased device; our fsck points it back"
# Linux allocates nothing on a device an alias file holds: the pointer is the wrong one
# (0x040045), and the block its summary names that slot with is the file's
zmount main /mnt/a
f1=$(find /mnt/a/tree -type f -size +16k | head -n 1)
zumount /mnt/a
[ -n "$f1" ] || zfail "no file of more than 16 KiB in the tree"
vf=$(inject.f2fs --lookup "${f1#/mnt/a}" "$a") || zfail "no ${f1#/mnt/a} in the image"
# the first data slot: past the extra attributes when the inode has them (i_inline 0x20)
slot=0
if [ $(( $(inject.f2fs --node --nid "$vf" --mb i_inline --get "$a") & 0x20 )) -ne 0 ]; then
	slot=$(( $(inject.f2fs --node --nid "$vf" --mb i_extra_isize --get "$a") / 4 ))
fi
old=$(inject.f2fs --node --nid "$vf" --mb i_addr --idx "$slot" --get "$a")
ab=$(inject.f2fs --node --nid "$ai" --mb i_ext.blk_addr --get "$a")
inject.f2fs --node --nid "$vf" --mb i_addr --idx "$slot" --val $((ab + 100)) "$a" >/dev/null ||
	zfail "inject i_addr"
ourrepair "$a" 0x040045
[ "$(inject.f2fs --node --nid "$vf" --mb i_addr --idx "$slot" --get "$a")" = "$old" ] ||
	zfail "the file's pointer was not pointed back at block $old"
ourfsck "$a"
zmount main /mnt/a
zwork verify /mnt/a/tree /tmp/tree2.manifest
[ "$(dd if="$f" bs=1M skip=16 count=1 2>/dev/null | md5sum)" = "$(md5sum </tmp/pat2)" ] ||
	zfail "the alias file lost the device's bytes"
echo "info: after the repair Linux reads the tree and the device's bytes through the alias file"
step "Linux releases the alias file, our fsck, Linux reserves it again"
zwork devalias "$f" release
zwork devalias "$f" status | grep -q released || zfail "the alias file is not released"
[ "$(stat -c %s "$f")" = 0 ] || zfail "a released alias file has size $(stat -c %s "$f")"
zumount /mnt/a
ourfsck "$a"
[ "$(inject.f2fs --node --nid "$ai" --mb i_ext.len --get "$a")" = 0 ] ||
	zfail "the released alias file still has an extent"
zmount main /mnt/a
zwork devalias "$f" reserve
zwork devalias "$f" status | grep -q reserved || zfail "the alias file is not reserved"
[ "$(stat -c %s "$f")" = "$size" ] || zfail "the reserved alias file has size $(stat -c %s "$f")"
[ "$(dd if="$f" bs=1M skip=16 count=1 2>/dev/null | md5sum)" = "$(md5sum </tmp/pat2)" ] ||
	zfail "the reserved alias file does not read the device's bytes"
zwork verify /mnt/a/tree /tmp/tree2.manifest
zumount /mnt/a
ourfsck "$a"
EOF
# the refused extent: Linux prints the stack of its invalid-address access (no oops)
VM_ALLOW_KLOG='Call Trace:'
vm_boot
vm_finish
