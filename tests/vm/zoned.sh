#!/bin/sh
# zoned.sh - mkfs -m inside the guest on real zoned block devices: a
# conventional virtio disk plus an NVMe ZNS namespace (zone size 8 MiB,
# capacity 6 MiB), and a null_blk zoned device with conventional zones.
# Each gets more than 1 GiB (ZNS) or 400 MiB (null_blk) of writes with
# overwrites, a remount with verification, and Debian's fsck in the guest.
#
# Passes with our mkfs and with ZF2FS_MKFS=/usr/sbin/mkfs.f2fs.  Should our
# mkfs lose zoned support again, list this test in XFAIL_TESTS with the
# reason rather than deleting it.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup zoned "mkfs -m on ZNS (+ conventional disk) and on zoned null_blk, in the guest"
[ -x "$VM_MKFS" ] || vm_error "mkfs not found: $VM_MKFS (build it, or set ZF2FS_MKFS)"
# Mixing 512 and 4096-byte sectors makes mkfs refuse the pair.
vm_disk conv 256M 4096
vm_zns zns 2G 8M 6M
vm_tool "$VM_MKFS" mkfs.f2fs
[ -x "$VM_HOST_FSCK" ] && vm_tool "$VM_HOST_FSCK" /zvm/debian/fsck.f2fs

{ cat "$VM_LIBDIR/zoned_guest.sh"; cat <<'EOF'; } | vm_guest
conv=$(zdisk conv)
zns=$(zdisk zns)
echo "info: $zns zoned=$(cat /sys/block/${zns#/dev/}/queue/zoned) zones=$(cat /sys/block/${zns#/dev/}/queue/nr_zones) chunk_sectors=$(cat /sys/block/${zns#/dev/}/queue/chunk_sectors)"

# zround_plain DEV MOUNT FILL_MIB LABEL: zoned_guest.sh's round with the default mount
# options (background GC on) and no GC ioctls; debfsck comes from zoned_guest.sh.
zround_plain() {
	zmount "$1" "$2"
	df -k "$2"
	zwork fill "$2/d" "$3M" 4096 31
	sync
	zwork overwrite "$2/d" 2000 65536 32
	sync
	zwork overwrite "$2/d" 300 4096 33 sync
	zwork manifest "$2/d" "/tmp/$4.manifest"
	df -k "$2"
	zumount "$2"
	zdrop_caches
	zmount "$1" "$2"
	zwork verify "$2/d" "/tmp/$4.manifest"
	zumount "$2"
}

step "ZNS: mkfs -m on $conv + $zns"
mkfs.f2fs -f -m -c "$zns" "$conv"
zround_plain "$conv" /mnt/z 1100 zns
debfsck "$conv" capacity-below-size

step "null_blk zoned: 768 MiB, 8 MiB zones, 16 conventional"
nb=$(znullb zoned0 768 8 16)
echo "info: $nb zoned=$(cat /sys/block/${nb#/dev/}/queue/zoned) zones=$(cat /sys/block/${nb#/dev/}/queue/nr_zones)"
mkfs.f2fs -f -m "$nb"
zround_plain "$nb" /mnt/n 400 nullb
debfsck "$nb"
EOF
vm_boot
vm_finish
