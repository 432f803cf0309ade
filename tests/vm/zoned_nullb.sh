#!/bin/sh
# zoned_nullb.sh - our tools on a zoned null_blk device with conventional
# zones (768 MiB, 8 MiB zones, the first 16 conventional: metadata goes
# there), made in the guest through configfs: mkfs -m; our fsck clean with
# pass 8 reading the write pointers; mount with the kernel's default options
# (background GC on), 256 MiB of files plus random and O_SYNC overwrites, foreground
# GC through the ioctl; remount and verify;
# Debian's fsck and ours clean; dump.f2fs --zones equal to the kernel's zone
# report, conventional zones included; f2fs_metadump keeps the zone geometry and
# the volume restored into a file checks as the device.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup zoned_nullb "our mkfs, fsck pass 8 and dump --zones on zoned null_blk with conventional zones"
vm_all_tools
vm_tool "$top_builddir/tools/f2fs_metadump" f2fs_metadump
vm_tool "$top_builddir/tools/f2fs_mdrestore" f2fs_mdrestore

{ cat "$VM_LIBDIR/zoned_guest.sh"; cat <<'EOF'; } | vm_guest
step "null_blk zoned: 768 MiB, 8 MiB zones, 16 conventional"
nb=$(znullb zoned0 768 8 16)
mkfs.f2fs -f -m "$nb" >/tmp/mkfs.log 2>&1 || { cat /tmp/mkfs.log; zfail "mkfs"; }
ourfsck "$nb"
zcompare "$nb" "$nb"
zround "$nb" /mnt/n 256 nullb ""
debfsck "$nb"
ourfsck "$nb"
zcompare "$nb" "$nb"
gc.f2fs state --json "$nb" | grep -q '"zone_report": \[' || zfail "gc.f2fs state --json has no zone report"
# the background GC thread's zoned defaults in gc.f2fs state (--kernel 7.3) are the
# kernel's own sysfs values, where the kernel has them (after 6.1)
mkdir -p /mnt/k
mount -t f2fs "$nb" /mnt/k
k=/sys/fs/f2fs/${nb#/dev/}
if [ -f $k/gc_no_zoned_gc_percent ]; then
	js=$(gc.f2fs state --json --kernel 7.3 "$nb")
	for knob in gc_no_zoned_gc_percent gc_boost_zoned_gc_percent migration_window_granularity \
		gc_boost_gc_multiple gc_boost_gc_greedy gc_valid_thresh_ratio; do
		want=$(cat $k/$knob)
		got=$(echo "$js" | sed -n "s/.*\"$knob\": \([0-9]*\).*/\1/p")
		[ "$got" = "$want" ] || zfail "gc.f2fs state: $knob $got, the kernel's $want"
	done
	echo "info: gc.f2fs state's zoned background GC knobs equal the kernel's"
else
	gc.f2fs state --json --kernel 6.1 "$nb" |
		grep -q '"background_gc": {"kernel": "6.1", "zoned": true' ||
		zfail "gc.f2fs state --kernel 6.1: no background_gc member"
fi
umount /mnt/k
step "f2fs_metadump of the zoned volume, restored into a file"
f2fs_metadump -o "$nb" /tmp/z.md 2>/tmp/md.log || { cat /tmp/md.log; zfail "f2fs_metadump"; }
f2fs_mdrestore -i /tmp/z.md > /tmp/mdi.log || zfail "f2fs_mdrestore -i"
grep -q '^device 0: 805306368 bytes, .*zoned (host-managed), zones of 2048 blocks (2048 writable), 16 conventional' \
	/tmp/mdi.log || { cat /tmp/mdi.log; zfail "the image does not keep the zone geometry"; }
f2fs_mdrestore -q /tmp/z.md /tmp/z.img || zfail "f2fs_mdrestore"
fsck.f2fs -f -n /tmp/z.img > /tmp/zr.log 2>&1 || { cat /tmp/zr.log; zfail "our fsck on the restored file"; }
tail -n 1 /tmp/zr.log | grep -q '; 0 problems, 0 fixed$' || { cat /tmp/zr.log; zfail "restored: problems"; }
fsck.f2fs -f -n "$nb" 2>&1 | tail -n 1 | sed "s|$nb|IMG|" > /tmp/za.txt
tail -n 1 /tmp/zr.log | sed "s|/tmp/z.img|IMG|" > /tmp/zb.txt
cmp -s /tmp/za.txt /tmp/zb.txt || { cat /tmp/za.txt /tmp/zb.txt; zfail "restored volume's summary differs"; }
echo "info: restored: $(cat /tmp/zb.txt)"
rm -f /tmp/z.img /tmp/z.md
EOF
vm_boot
vm_finish
