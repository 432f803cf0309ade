#!/bin/sh
# zoned_counts.sh - free segment counts on zoned volumes: our mkfs, the kernel
# and our fsck must agree.  Linux 6.1 applies the zone capacity of the
# sequential zones to every section of the main area (conventional zones and
# a regular first device included) and never counts a segment past it as
# free.  One boot, four volumes made by our mkfs -m: conventional disk + ZNS
# with 8 MiB zones of 6 MiB capacity and 64 MiB of 62 MiB; zoned null_blk
# with conventional zones, capacity = zone size, and with 6 MiB of 8 MiB.
# For each: the checkpoint's free_segment_count after mkfs equals our fsck's
# count (fsck -n clean), equals the kernel's free_segments right after the
# first mount; after a write and unmount the kernel's checkpoint count equals
# our fsck's again (clean).  mkfs's "usable segments" (the f2fs-tools 1.16
# rule, which sizes reserved and OP) is printed next to it for the record.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup zoned_counts "free segment counts of mkfs -m, the kernel and fsck on ZNS and null_blk zoned volumes"
vm_all_tools
vm_disk conv8 256M 4096
vm_zns zns8 2G 8M 6M
vm_disk conv64 512M 4096
vm_zns zns64 4G 64M 62M

{ cat "$VM_LIBDIR/zoned_guest.sh"; cat <<'EOF'; } | vm_guest
cp_free() {
	dump.f2fs --checkpoint "$1" | awk '$1 == "free_segment_count" { print $2; exit }'
}
# fsck_free DEV: our fsck must be clean; prints its count of free segments
fsck_free() {
	rc=0
	fsck.f2fs -f -n -d 2 "$1" >/tmp/o.log 2>&1 || rc=$?
	if [ "$rc" -ne 0 ] || grep -q '^\[0x' /tmp/o.log; then
		cat /tmp/o.log
		zfail "our fsck found problems on $1 (exit $rc)"
	fi
	n=$(sed -n 's/^zoned: checkpoint free_segment_count [0-9]*, \([0-9]*\) usable segments free$/\1/p' /tmp/o.log)
	[ -n "$n" ] || { cat /tmp/o.log; zfail "our fsck did not count the free segments of $1"; }
	echo "$n"
}
# counts NAME DEV MKFS_OPTIONS...
counts() {
	name=$1; vol=$2; shift 2
	step "$name: mkfs -m $* $vol"
	mkfs.f2fs -f -m "$@" "$vol" >/tmp/mkfs.log 2>&1 || { cat /tmp/mkfs.log; zfail "mkfs"; }
	echo "info: $name: $(grep 'zoned:' /tmp/mkfs.log)"
	cp=$(cp_free "$vol"); ours=$(fsck_free "$vol")
	zmount "$vol" /mnt/p
	k=$(cat "/sys/fs/f2fs/${vol#/dev/}/free_segments")
	echo "info: $name after mkfs: checkpoint $cp, our fsck $ours, kernel at mount $k"
	[ "$cp" = "$ours" ] && [ "$ours" = "$k" ] || zfail "$name: free segment counts differ after mkfs"
	zwork writefile /mnt/p/f 4096 1 fsync
	zumount /mnt/p
	cp=$(cp_free "$vol"); ours=$(fsck_free "$vol")
	echo "info: $name after the kernel: checkpoint $cp, our fsck $ours"
	[ "$cp" = "$ours" ] && [ "$cp" -lt "$k" ] || zfail "$name: free segment counts differ after the kernel"
}
counts zns8 "$(zdisk conv8)" -c "$(zdisk zns8)"
counts zns64 "$(zdisk conv64)" -c "$(zdisk zns64)"
counts nullb "$(znullb nb1 768 8 16)"
counts nullbcap "$(znullb nb2 384 8 6 6)"
EOF
vm_boot
vm_finish
