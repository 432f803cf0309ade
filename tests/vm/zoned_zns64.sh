#!/bin/sh
# zoned_zns64.sh - our tools on a conventional disk + NVMe ZNS namespace with
# 64 MiB zones of 62 MiB capacity (512 MiB + 4 GiB, the pair of layout.md's
# zoned table), in one boot: mkfs -m in the guest; our fsck clean with pass
# 8 reading the write pointers; dump.f2fs --zones equal to the kernel's zone
# report (BLKREPORTZONE through zwork) zone by zone; mount, 350 MiB written
# (256 MiB of files, 94 MiB of random overwrites, O_SYNC overwrites),
# foreground GC through the ioctl so the kernel's zoned GC moves sections;
# remount and verify every file; Debian's fsck and ours clean; dump --zones
# against the kernel again; gc.f2fs state shows the zones.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup zoned_zns64 "our mkfs, fsck pass 8, dump --zones, gc.f2fs state on ZNS 64/62 MiB zones"
vm_all_tools
vm_disk conv 512M 4096
vm_zns zns 4G 64M 62M

{ cat "$VM_LIBDIR/zoned_guest.sh"; cat <<'EOF'; } | vm_guest
conv=$(zdisk conv); zns=$(zdisk zns)
step "ZNS 64 MiB zones / 62 MiB capacity: mkfs -m on $conv + $zns"
mkfs.f2fs -f -m -c "$zns" "$conv" >/tmp/mkfs.log 2>&1 || { cat /tmp/mkfs.log; zfail "mkfs"; }
grep -E 'Overprovision|zoned' /tmp/mkfs.log || true
ourfsck "$conv"
zcompare "$conv" "$zns"
step "350 MiB of writes with overwrites and foreground GC"
zround "$conv" /mnt/a 256 zns
step "checks after the kernel"
debfsck "$conv" capacity-below-size
ourfsck "$conv"
zcompare "$conv" "$zns"
gc.f2fs state "$conv" >/tmp/gc.txt
grep -E '^zoned|^zones' /tmp/gc.txt
grep -q 'seq\|current\|full\|open\|empty' /tmp/gc.txt || zfail "gc.f2fs state shows no zones"
EOF
vm_boot
vm_finish
