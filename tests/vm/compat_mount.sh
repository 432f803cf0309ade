#!/bin/sh
# compat_mount.sh - the volumes mkfs.f2fs's callers make (their exact command lines, as
# tests/compat/mkfs_callers.sh runs them; sources cited there), mounted by Linux in one
# boot: systemd-repart, libblockdev, GParted, Android fs_mgr (casefold, SIZE in 4096-byte
# units), mkf2fsuserimg.sh --readonly (-O ro, then sload.f2fs -f DIR -t / -T TIME as
# that script runs it: mounted read-only, every file read back, writes refused) and -S
# (the sparse image unpacked by simg2img, as fastboot would flash it), OpenWrt, Buildroot
# (then sload.f2fs -f DIR) and OpenEmbedded.  On the writable ones a few files are written,
# read back after a remount, and on the host both fscks find every volume clean.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup compat_mount "mkfs.f2fs as its callers run it, mounted by Linux"
UUID=5a1c9e3d-7b2f-4e6a-8c0d-1f2e3d4c5b6a
# the read-write mount the guest tries on the -O ro volume is refused at error level
VM_ALLOW_KLOG='Allow to mount readonly mode only'

# caller NAME SIZE ARGS...: the caller's mkfs command line on a fresh image; IMG in ARGS
# is the image's path.  Fails the scenario when mkfs fails.
caller() {
	name=$1
	size=$2
	shift 2
	vm_image "$name" "$size"
	img=$(vm_img "$name")
	for a do
		shift
		[ "$a" = IMG ] && a=$img
		set -- "$@" "$a"
	done
	vm_log "mkfs $name: $VM_MKFS $*"
	if ! "$VM_MKFS" "$@" >"$VM_OUT/$name.mkfs.log" 2>&1; then
		sed 's/^/  mkfs: /' "$VM_OUT/$name.mkfs.log"
		vm_fail "$name: mkfs failed"
		return 1
	fi
}

caller repart 256M -g -f -l root -U $UUID -t 1 -q -O verity -w 4096 IMG
caller blockdev 256M -l data -t nodiscard -f IMG
caller gparted 256M -l "my disk" IMG
caller fsmgr 512M -g android -O project_quota,extra_attr -O casefold -C utf8 IMG 98304
caller openwrt 256M -q -f -l rootfs_data IMG
caller buildroot 256M -f -l rootfs -t 0 -o 0 -O extra_attr,inode_checksum,sb_checksum,compression IMG
caller oe 600M IMG
caller system_ro 256M -g android -l system -O ro IMG

# mkf2fsuserimg.sh -S: a sparse image, unpacked as the device would receive it
rm -f "$VM_OUT/vendor.simg"
if "$VM_MKFS" -g android -S 268435456 -l vendor "$VM_OUT/vendor.simg" >"$VM_OUT/vendor.mkfs.log" 2>&1 &&
   simg2img "$VM_OUT/vendor.simg" "$(vm_img vendor)"; then
	sparse=vendor
else
	vm_fail "vendor: mkfs -S or simg2img failed"
	sparse=
fi

# Buildroot's next step
mkdir -p "$VM_OUT/rootfs/etc"
echo "buildroot motd" >"$VM_OUT/rootfs/etc/motd"
"$top_builddir/tools/sload.f2fs" -f "$VM_OUT/rootfs" "$(vm_img buildroot)" >"$VM_OUT/buildroot.sload.log" 2>&1 ||
	vm_fail "buildroot: sload.f2fs -f failed"

# mkf2fsuserimg.sh --readonly's next step: the tree into the -O ro volume, which has no
# summary area and two logs (files around the inline and direct-pointer limits, one past
# a segment, directories, a symlink); Linux must read every file as it was
mkdir -p "$VM_OUT/sysro/bin" "$VM_OUT/sysro/etc/deep/er"
echo "ro system" >"$VM_OUT/sysro/etc/motd"
head -c 3000 /dev/urandom >"$VM_OUT/sysro/etc/deep/er/small"
head -c 5000 /dev/urandom >"$VM_OUT/sysro/etc/deep/er/two"
head -c 3900000 /dev/urandom >"$VM_OUT/sysro/bin/direct"
head -c 9000000 /dev/urandom >"$VM_OUT/sysro/bin/big"
for i in $(seq 1 200); do echo "file $i" >"$VM_OUT/sysro/etc/f$i"; done
ln -sf ../etc/motd "$VM_OUT/sysro/bin/motd"
"$top_builddir/tools/sload.f2fs" -f "$VM_OUT/sysro" -t / -T 1000 "$(vm_img system_ro)" \
	>"$VM_OUT/system_ro.sload.log" 2>&1 || vm_fail "system_ro: sload.f2fs -f DIR -t / -T 1000 failed"
(cd "$VM_OUT/sysro" && find . -type f | sort | xargs md5sum) >"$VM_OUT/sysro.md5"

WRITABLE="repart blockdev gparted fsmgr openwrt buildroot oe $sparse"
for n in $WRITABLE system_ro; do
	vm_fsck "$n" "after mkfs"
	vm_attach "$n"
done

{
	echo "writable='$WRITABLE'"
	echo "cat >/tmp/sysro.md5 <<'MANIFEST'"
	cat "$VM_OUT/sysro.md5"
	echo MANIFEST
	cat <<'EOF'
for n in $writable; do
	step "$n: mount, write a few files"
	zmount "$n" "/mnt/$n"
	echo "hello from $n" >"/mnt/$n/hello.txt"
	mkdir -p "/mnt/$n/dir/sub"
	dd if=/dev/urandom of="/mnt/$n/dir/sub/rand.bin" bs=64k count=40 2>/dev/null
	ln -s ../hello.txt "/mnt/$n/dir/link"
	md5sum "/mnt/$n/dir/sub/rand.bin" >"/tmp/$n.md5"
	zumount "/mnt/$n"
done
zdrop_caches
for n in $writable; do
	step "$n: mount again, read back"
	zmount "$n" "/mnt/$n"
	[ "$(cat "/mnt/$n/hello.txt")" = "hello from $n" ] || zfail "$n: hello.txt"
	[ "$(cat "/mnt/$n/dir/link")" = "hello from $n" ] || zfail "$n: symlink"
	md5sum -c "/tmp/$n.md5" || zfail "$n: rand.bin changed"
	if [ "$n" = buildroot ]; then
		[ "$(cat /mnt/buildroot/etc/motd)" = "buildroot motd" ] || zfail "buildroot: sload's file"
	fi
	df -k "/mnt/$n" | tail -n 1
	zumount "/mnt/$n"
done
step "system_ro: a read-write mount is refused, a read-only one works"
dev=$(zdisk system_ro)
mkdir -p /mnt/ro
if mount -t f2fs "$dev" /mnt/ro 2>/dev/null; then
	grep " /mnt/ro " /proc/mounts | grep -q ' ro[, ]' || zfail "system_ro mounted read-write"
	umount /mnt/ro
fi
zmount system_ro /mnt/ro ro
ls -la /mnt/ro
step "system_ro: every file sload.f2fs loaded reads as the source"
(cd /mnt/ro && md5sum -c /tmp/sysro.md5) || zfail "system_ro: a loaded file differs"
[ "$(cat /mnt/ro/bin/motd)" = "ro system" ] || zfail "system_ro: the symlink"
if touch /mnt/ro/x 2>/dev/null; then
	zfail "system_ro: a write went through"
fi
zumount /mnt/ro
EOF
} | vm_guest
vm_boot
for n in $WRITABLE system_ro; do
	vm_fsck "$n"
done
vm_finish
