#!/bin/sh
# resize_zoned.sh - resize.f2fs on kernel-aged zoned volumes, in one boot
# (the zoned devices live in the guest): a zoned null_blk device with 8
# conventional zones holding the metadata (384 MiB, 8 MiB zones of 6 MiB
# capacity), and a conventional disk + NVMe ZNS namespace (512 MiB, 8 MiB
# zones of 6 MiB).  Each is made by our mkfs -m and aged by Linux: filled
# with 256 KiB files to 98% (on volumes this small the kernel allocates from
# the first free section, so only a full volume has blocks in its last
# zones), seven of every eight runs of eight files removed but for the last
# 3% written (whole zones free, live files all over the volume, past the
# cut too), and a sha256 manifest
# taken.  resize.f2fs shrinks the zoned device by 3/8 (whole zones; blocks past the cut must move); our fsck
# (write pointers read) and Debian's clean; Linux mounts it, every file
# reads back with its sha256, df shows a smaller volume, 32 MiB more are
# written and read back; both fscks clean.  Then resize.f2fs grows it back to
# the device's size: the same checks, df shows the size mkfs gave, and the
# user blocks, reserved and overprovision segments are those mkfs wrote.
# Debian's fsck 1.15 miscounts free segments when the zone capacity is
# below the zone size (zoned_guest.sh's debfsck tolerates that one line).
# Last, a relocating grow: a 128 MiB zoned null_blk volume, aged by Linux, copied
# to the front of a 1280 MiB one and grown 10x by resize.f2fs, which rebuilds the
# SIT, NAT and SSA in the first sections of the main area (conventional zones);
# Linux mounts it, reads every file, df shows the new size, 32 MiB more are
# written; both fscks clean, write pointers as the zone report has them.  Then it is
# shrunk back to 384 MiB, its metadata areas fitted (back in the conventional zones
# in front of segment 0, the main area where mkfs put it): the same checks.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

RESIZE=$top_builddir/tools/resize.f2fs
[ -x "$RESIZE" ] || vm_skip "tools/resize.f2fs is not built"

vm_setup resize_zoned "zoned volumes (null_blk with conventional zones, ZNS) shrunk and grown back by resize.f2fs; Linux reads every file"
vm_all_tools
vm_tool "$RESIZE" resize.f2fs
vm_disk conv 128M 4096
vm_zns zns 512M 8M 6M

{ cat "$VM_LIBDIR/zoned_guest.sh"; cat <<'EOF'; } | vm_guest
# counts VOL: the checkpoint's user blocks, reserved and overprovision segments
counts() {
	dump.f2fs --checkpoint "$1" | awk '$1 == "current" { cur = ($2 == "yes") }
		cur && ($1 == "user_block_count" || $1 == "rsvd_segment_count" ||
		$1 == "overprov_segment_count") { printf "%s=%s ", $1, $2 }'
}

# dfk MOUNT: the volume's size in KiB as df shows it
dfk() { df -k "$1" | tail -n 1 | awk '{ print $2 }'; }

# check_round NAME VOL LABEL: mount, verify, df, 32 MiB more, unmount, fscks
check_round() {
	zmount "$2" /mnt/r
	zwork verify /mnt/r "/tmp/$1.manifest"
	size=$(dfk /mnt/r)
	echo "info: $1 $3: df shows $size KiB"
	zwork writefile "/mnt/r/more.$3" 32768 $4
	sync
	zdrop_caches
	zwork checkfile "/mnt/r/more.$3" 32768 $4
	zumount /mnt/r
	rm -f "/tmp/$1.manifest"
	zmount "$2" /mnt/r
	zwork manifest /mnt/r "/tmp/$1.manifest"
	zumount /mnt/r
	ourfsck "$2"
	debfsck "$2" capacity-below-size
}

# age DIR SIZE SEED: SIZE of 256 KiB files, seven of every eight runs of eight removed
# but for the last 3% written (which the kernel put in the last sections it filled).
# Not more: the shrink's plan counts a free section for each segment of moved blocks,
# so the blocks past the cut need that many free sections below it.
age() {
	zwork fill "$1" "$2" 256 "$3"
	n=$(ls "$1" | wc -l)
	i=0
	for f in "$1"/*; do
		[ $(((i / 8) % 8)) -ne 0 ] && [ $((i * 100)) -lt $((n * 97)) ] && rm -f "$f"
		i=$((i + 1))
	done
	sync
}

# scenario NAME VOL ZONEDDEV SHRUNK_SECTORS MKFS_ARGS...
scenario() {
	name=$1; vol=$2; zdev=$3; shrunk=$4; shift 4
	step "$name: mkfs -m $*, aged by Linux"
	mkfs.f2fs -f -m "$@" >/tmp/mkfs.log 2>&1 || { cat /tmp/mkfs.log; zfail "mkfs"; }
	made=$(counts "$vol")
	echo "info: $name: mkfs: $made"
	zmount "$vol" /mnt/r
	full=$(dfk /mnt/r)
	age /mnt/r/a 98% 9
	zwork manifest /mnt/r "/tmp/$name.manifest"
	zumount /mnt/r
	ourfsck "$vol"

	step "$name: shrink to $shrunk sectors of $zdev"
	resize.f2fs -t "$shrunk" "$vol" >/tmp/rs.log 2>&1 || { cat /tmp/rs.log; zfail "resize.f2fs shrink"; }
	cat /tmp/rs.log | sed 's/^/info: /'
	grep -q '^shrunk' /tmp/rs.log || zfail "$name: not shrunk"
	moved=$(sed -n 's/^\([0-9]*\) blocks moved.*/\1/p' /tmp/rs.log)
	# where Linux put the last files varies from run to run (a CI run had none past the
	# cut): the moves themselves are proven by tests/unit/test_resize_zoned, here a
	# shrink without them is only noted
	[ "${moved:-0}" -gt 0 ] || echo "info: $name: no block lay past the cut this run (nothing to move)"
	ourfsck "$vol"
	debfsck "$vol" capacity-below-size
	check_round "$name" "$vol" shrunk 51
	[ "$size" -lt "$full" ] || zfail "$name: df shows $size KiB after the shrink, $full before"

	step "$name: grow back to the device's size"
	resize.f2fs "$vol" >/tmp/rs.log 2>&1 || { cat /tmp/rs.log; zfail "resize.f2fs grow"; }
	cat /tmp/rs.log | sed 's/^/info: /'
	grep -q '^grown' /tmp/rs.log || zfail "$name: not grown"
	ourfsck "$vol"
	debfsck "$vol" capacity-below-size
	check_round "$name" "$vol" grown 52
	[ "$size" = "$full" ] || zfail "$name: df shows $size KiB after growing back, mkfs gave $full"
	# the Linux writes in between changed none of these
	[ "$(counts "$vol")" = "$made" ] ||
		zfail "$name: grown back: $(counts "$vol"), mkfs made $made"
	zcompare "$vol" "$zdev"
}

nb=$(znullb rz 384 8 8 6)
# [sectors] cannot cut a zoned device (its layout comes from the zone report): refused,
# where it once wrote a volume Linux refuses ("Wrong user_block_count").  The count is in
# the device's logical sectors (4096 bytes on this null_blk), as f2fs-tools counts it, and
# one past the device's end means the whole device: 16384 is below it in any unit.
if mkfs.f2fs -f -m "$nb" 16384 >/tmp/mkfs.log 2>&1; then
	cat /tmp/mkfs.log; zfail "mkfs.f2fs took [sectors] on a zoned device"
fi
grep -q "zoned device, which is formatted whole" /tmp/mkfs.log || { cat /tmp/mkfs.log; zfail "mkfs.f2fs: no reason given for refusing [sectors]"; }
# 240 MiB in 4096-byte sectors
scenario nullb "$nb" "$nb" 61440 "$nb"
conv=$(zdisk conv); zns=$(zdisk zns)
# the ZNS namespace cut from 512 MiB to 320 MiB (4096-byte sectors)
scenario zns "$conv" "$zns" 81920 -c "$zns" "$conv"

# A grow 10x, past what the SIT and SSA cover: the metadata areas are rebuilt in the
# first sections of the main area, which must lie on conventional zones.  mkfs formats a
# zoned device whole, so the small volume is made on a small zoned null_blk (128 MiB,
# 2 MiB zones, the last one sequential) and copied to the front of a big one (1280 MiB,
# its first 128 zones conventional: the copy lands on them, and on a sequential zone only
# the past-the-pointer zeros would differ); the big device's zones past the copy are
# sequential and empty, as the grown volume's new sections must be.  Zones of one
# segment: mkfs aligns each area to a zone, and a 2 MiB SSA covers 1 GiB of segments.
step "relocating grow: mkfs -m on a 128 MiB zoned null_blk, aged by Linux"
small=$(znullb rgs 128 2 63)
big=$(znullb rgb 1280 2 128)
mkfs.f2fs -f -m "$small" >/tmp/mkfs.log 2>&1 || { cat /tmp/mkfs.log; zfail "mkfs"; }
zmount "$small" /mnt/r
full=$(dfk /mnt/r)
echo "info: reloc made: df shows $full KiB"
age /mnt/r/a 90% 19
zwork manifest /mnt/r /tmp/reloc.manifest
zumount /mnt/r
ourfsck "$small"
dd if="$small" of="$big" bs=1M count=128 2>/dev/null || zfail "copying the small volume"
sync
step "relocating grow: resize.f2fs to the big device's size"
resize.f2fs "$big" >/tmp/rs.log 2>&1 || { cat /tmp/rs.log; zfail "resize.f2fs relocating grow"; }
cat /tmp/rs.log | sed 's/^/info: /'
grep -q '^grown: .*metadata areas rebuilt' /tmp/rs.log || zfail "reloc: not grown with rebuilt metadata areas"
ourfsck "$big"
debfsck "$big"
check_round reloc "$big" grown 53
[ "$size" -gt $((full * 8)) ] || zfail "reloc: df shows $size KiB after the 10x grow, $full before"
zcompare "$big" "$big"

# Shrunk back to 384 MiB (past the 256 MiB of conventional zones, so that sequential
# zones stay in it): the areas the grow rebuilt are larger than that needs, and the old
# areas' conventional zones in front of segment 0 hold mkfs's (the same as for 128
# MiB): the areas go back there in one move, the main area starting where mkfs put it
# on the small device.
grown_size=$size
step "relocating grow: shrink back to 384 MiB, the metadata areas fitted"
mainat() { dump.f2fs "$1" | awk '$1 == "main_blkaddr" { print $2; exit }'; }
main_was=$(mainat "$small")
ss=$(cat "/sys/block/$(basename "$big")/queue/logical_block_size")
resize.f2fs -t $((384 * 1048576 / ss)) "$big" >/tmp/rs.log 2>&1 ||
	{ cat /tmp/rs.log; zfail "resize.f2fs shrink back"; }
cat /tmp/rs.log | sed 's/^/info: /'
grep -q '^metadata areas fitted' /tmp/rs.log || zfail "reloc: shrunk back without fitting the areas"
[ "$(mainat "$big")" = "$main_was" ] ||
	zfail "reloc: main area at block $(mainat "$big") after the shrink back, mkfs put it at $main_was"
ourfsck "$big"
debfsck "$big" capacity-below-size
check_round reloc "$big" fitted 54
[ "$size" -lt $((grown_size / 2)) ] ||
	zfail "reloc: df shows $size KiB after the shrink back to 384 MiB, $grown_size before"
zcompare "$big" "$big"
EOF
vm_boot
vm_finish
