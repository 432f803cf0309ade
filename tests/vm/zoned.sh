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

vm_guest <<'EOF'
conv=$(zdisk conv)
zns=$(zdisk zns)
echo "info: $zns zoned=$(cat /sys/block/${zns#/dev/}/queue/zoned) zones=$(cat /sys/block/${zns#/dev/}/queue/nr_zones) chunk_sectors=$(cat /sys/block/${zns#/dev/}/queue/chunk_sectors)"

# zcheck DEV [capacity-below-size]: Debian's fsck in the guest, read-only.
zcheck() {
	[ -x /zvm/debian/fsck.f2fs ] || return 0
	rc=0
	/zvm/debian/fsck.f2fs --dry-run "$1" >/tmp/fsck.log 2>&1 || rc=$?
	# f2fs-tools 1.15 counts free segments differently from the kernel when
	# the zone capacity is below the zone size (the same run with capacity =
	# size is clean): that one failed line, and the exit 4 it causes, are
	# reported instead of failing.  Any other finding still fails.
	if [ -n "$2" ] && grep -q 'free segment_count matched with CP *\[Fail\]' /tmp/fsck.log; then
		echo "info: known fsck 1.15 limitation on $1 (zone capacity < zone size): $(grep 'free segment_count' /tmp/fsck.log | tr -s ' ')"
		sed -i '/free segment_count matched with CP/d' /tmp/fsck.log
		[ "$rc" -ne 4 ] || rc=0
	fi
	if [ "$rc" -ne 0 ] ||
	   grep -E '\[Fail\]|\[FIX\]|[Cc]orrupt|[Ii]nvalid|[Mm]ismatch' /tmp/fsck.log | grep -v '\[Ok\.\.\]'; then
		cat /tmp/fsck.log
		zfail "fsck found problems on $1 (exit $rc)"
	fi
	echo "info: fsck clean on $1"
}

zround() {
	# zround DEV MOUNT FILL_MIB LABEL
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
zround "$conv" /mnt/z 1100 zns
zcheck "$conv" capacity-below-size

step "null_blk zoned: 768 MiB, 8 MiB zones, 16 conventional"
nb=$(znullb zoned0 768 8 16)
echo "info: $nb zoned=$(cat /sys/block/${nb#/dev/}/queue/zoned) zones=$(cat /sys/block/${nb#/dev/}/queue/nr_zones)"
mkfs.f2fs -f -m "$nb"
zround "$nb" /mnt/n 400 nullb
zcheck "$nb"
EOF
vm_boot
vm_finish
