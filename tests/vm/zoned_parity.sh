#!/bin/sh
# zoned_parity.sh - layout parity with Debian's mkfs.f2fs 1.15 on the same
# emulated zoned devices, in one boot: a conventional disk + NVMe ZNS pair
# with 64 MiB zones of 62 MiB capacity (512 MiB + 4 GiB, the pair of the
# zoned table in docs/layout.md) and one with 8 MiB zones of
# 6 MiB.  Both tools format each pair in the guest; dump.f2fs reads both
# superblocks and the area layout must be equal field by field (block and
# segment counts, every area address, segments per section, devices).
# Reserved and overprovision segments follow f2fs-tools 1.16 by design, so
# they are not compared with 1.15: ours must equal layout.md's figures
# (10.000%, 608 (GC reserved = 544) for the 64/62 MiB pair) and 1.15's
# must equal the figures layout.md records for it (1023 (896)); the 8/6 MiB
# pair's counts are printed for the record.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup zoned_parity "area layout of our mkfs -m equals mkfs.f2fs 1.15 on conventional + ZNS pairs"
[ -x "$VM_MKFS" ] || vm_error "mkfs not found: $VM_MKFS (build it, or set ZF2FS_MKFS)"
[ -x /usr/sbin/mkfs.f2fs ] || vm_skip "Debian's mkfs.f2fs is not installed (f2fs-tools)"
[ -x "$top_builddir/tools/dump.f2fs" ] || vm_error "tools/dump.f2fs is not built"
vm_disk conv64 512M 4096
vm_zns zns64 4G 64M 62M
vm_disk conv8 256M 4096
vm_zns zns8 2G 8M 6M
vm_tool "$VM_MKFS" mkfs.f2fs
vm_tool /usr/sbin/mkfs.f2fs /zvm/debian/mkfs.f2fs
vm_tool "$top_builddir/tools/dump.f2fs" dump.f2fs

vm_guest <<'EOF'
FIELDS='log_blocks_per_seg segs_per_sec secs_per_zone block_count section_count segment_count
segment_count_ckpt segment_count_sit segment_count_nat segment_count_ssa segment_count_main
segment0_blkaddr cp_blkaddr sit_blkaddr nat_blkaddr ssa_blkaddr main_blkaddr cp_payload'

# layout TOOL CONV ZNS OUT: format with TOOL, keep the superblock's layout
# fields and the checkpoint's reserved/OP counts.
layout() {
	$1 -f -m -c "$3" "$2" >"$4.mkfs" 2>&1 || { cat "$4.mkfs"; zfail "$1 failed"; }
	grep -E 'Overprovision' "$4.mkfs" | sed "s|^|info: $1: |"
	dump.f2fs --superblock --checkpoint "$2" >"$4.dump" || zfail "dump.f2fs on $2"
	: >"$4"
	for f in $FIELDS; do
		grep -E "^ *$f " "$4.dump" | head -n 4 | awk -v f="$f" '{ print f, $2 }' >>"$4"
	done
	# the device list: path and segments of each device
	grep -oE 'path=[^ ]* total_segments=[0-9]+' "$4.dump" >>"$4"
	for f in rsvd_segment_count overprov_segment_count user_block_count; do
		grep -E "^ *$f " "$4.dump" | head -n 1 | awk -v f="$f" '{ print f, $2 }' >>"$4.policy"
	done
}

# pair NAME CONV ZNS: both tools, then the comparison.
pair() {
	step "$1: ours and mkfs.f2fs 1.15 on $2 + $3"
	layout mkfs.f2fs "$2" "$3" "/tmp/$1.ours"
	layout /zvm/debian/mkfs.f2fs "$2" "$3" "/tmp/$1.deb"
	n=$(wc -l <"/tmp/$1.ours")
	[ "$n" -ge 19 ] || { cat "/tmp/$1.ours.dump"; zfail "$1: too few layout fields ($n)"; }
	if ! diff "/tmp/$1.deb" "/tmp/$1.ours"; then
		zfail "$1: area layout differs from mkfs.f2fs 1.15 (- 1.15, + ours)"
	fi
	echo "info: $1: $n layout fields equal: $(tr '\n' ' ' <"/tmp/$1.ours")"
	echo "info: $1: reserved/OP ours (1.16 rules): $(tr '\n' ' ' <"/tmp/$1.ours.policy")"
	echo "info: $1: reserved/OP 1.15:              $(tr '\n' ' ' <"/tmp/$1.deb.policy")"
}

pair zns64 "$(zdisk conv64)" "$(zdisk zns64)"
# layout.md, zoned table: 512 MiB conventional + 4 GiB ZNS, capacity 62/64 MiB
grep -q '^rsvd_segment_count 544$' /tmp/zns64.ours.policy &&
	grep -q '^overprov_segment_count 608$' /tmp/zns64.ours.policy ||
	zfail "zns64: ours differs from layout.md (608, GC reserved 544)"
grep -q '^rsvd_segment_count 896$' /tmp/zns64.deb.policy &&
	grep -q '^overprov_segment_count 1023$' /tmp/zns64.deb.policy ||
	zfail "zns64: 1.15 differs from the figures layout.md records for it (1023, 896)"
grep -q '10.000%' /tmp/zns64.ours.mkfs || zfail "zns64: ours does not print 10.000%"
echo "info: zns64: reserved/OP equal layout.md for both tools"
pair zns8 "$(zdisk conv8)" "$(zdisk zns8)"
EOF
vm_boot
vm_finish
