#!/bin/sh
# zoned_gc_replay.sh - gc.f2fs replay predicts the kernel's GC victims on a
# zoned volume whose zone capacity is below the zone size.
#
# One boot: our mkfs -m on a conventional disk + an NVMe ZNS namespace with
# 8 MiB zones of 6 MiB capacity (sections of 4 segments, 3 usable; Linux 6.1
# applies that capacity to every section, those on the conventional disk
# too).  Age it (fill, random overwrites; zoned F2FS runs in mode=lfs), then
# two cases, each from a fresh mount so that replay starts from the state it
# models: background calls of F2FS_IOC_GARBAGE_COLLECT (cost-benefit), and
# after unmounting and a second snapshot, foreground calls (greedy).  Before
# each case the guest copies both devices to snapshot disks and runs
# gc.f2fs replay on the zoned devices themselves (zone capacity from the zone
# report); the kernel's victims come from the f2fs_get_victim tracepoint.
# On the host, gc.f2fs replay on the snapshot images (--device for the second
# one, --zone-capacity 6M since an image file cannot tell) must name the same
# victims, in the same order, with the same costs, and so must the guest's
# replay.  Replay taking the zone size as capacity gets the costs of the
# background case wrong (the cost-benefit utilisation is per usable segment).
# The kernel's free segment count and its unusable blocks per section are
# logged against our fsck's count (fsck pass 7 checks that count).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"
. "$VM_LIBDIR/gc_lib.sh"

GC_TOOL=$top_builddir/tools/gc.f2fs
[ -x "$GC_TOOL" ] || vm_skip "tools/gc.f2fs is not built"

ZCAP=6M
vm_setup zoned_gc_replay "kernel GC victims on ZNS 8/6 MiB zones (bg cost-benefit, fg greedy) vs gc.f2fs replay"
vm_all_tools
vm_disk conv 128M 4096
vm_zns zns 512M 8M $ZCAP
vm_disk convsnap1 128M 4096
vm_disk znssnap1 512M 4096
vm_disk convsnap2 128M 4096
vm_disk znssnap2 512M 4096

{ cat "$VM_LIBDIR/zoned_guest.sh"; cat <<'EOF'; } | vm_guest
conv=$(zdisk conv); zns=$(zdisk zns)
step "mkfs -m on $conv + $zns (8 MiB zones, 6 MiB capacity)"
mkfs.f2fs -f -m -c "$zns" "$conv" >/tmp/mkfs.log 2>&1 || { cat /tmp/mkfs.log; zfail "mkfs"; }
grep -E 'zoned|Overprovision' /tmp/mkfs.log || true

# kernel_counts LABEL: the mounted volume's free segments and unusable blocks
# per section as the kernel has them
kernel_counts() {
	d=${conv#/dev/}
	echo "info: kernel $1: free_segments $(cat /sys/fs/f2fs/$d/free_segments)" \
		"unusable_blocks_per_sec $(cat /sys/fs/f2fs/$d/unusable_blocks_per_sec 2>/dev/null || echo ?)"
}

# snap N: both devices to snapshot disks N
snap() {
	dd if="$conv" of="$(zdisk convsnap$1)" bs=1M 2>/dev/null
	dd if="$zns" of="$(zdisk znssnap$1)" bs=1M 2>/dev/null
	sync
}

# guest_replay CASE fg|bg COUNT: gc.f2fs replay on the devices themselves, as this
# kernel picks its victims
gck=7.3
case $(uname -r) in 6.1|6.1.*|6.1-*) gck=6.1 ;; esac
guest_replay() {
	gc.f2fs replay "$conv" --kernel "$gck" --gc-type "$2" --count "$3" --json >/tmp/gr.json 2>/tmp/gr.err ||
		{ cat /tmp/gr.err; zfail "gc.f2fs replay on the devices failed"; }
	sed -n 's/.*"segno": \([0-9]*\),.*"cost": \([0-9]*\),.*/\1 \2/p' /tmp/gr.json |
		while read -r s c; do echo "info: gcguest $1 $s $c"; done
	grep -q '"stopped": "no victim"' /tmp/gr.json && echo "info: gcguest-stop $1" || true
}

# gc_case CASE 0|1 COUNT: trace COUNT ioctl calls from a fresh mount
gc_case() {
	zmount "$conv" /mnt/g background_gc=off
	kernel_counts "$1 mount"
	zgc_traced "$1" /mnt/g "$2" "$3"
	zumount /mnt/g
}

step "age: fill 80%, random overwrites"
zmount "$conv" /mnt/a background_gc=off
grep -q 'mode=lfs' /proc/mounts || echo "info: mount options: $(grep /mnt/a /proc/mounts)"
zwork fill /mnt/a/fill 80% 1024 51
sync
sleep 2
zwork overwrite /mnt/a/fill 6000 4096 52
sync
sleep 2
zwork overwrite /mnt/a/fill 3000 4096 53
sync
kernel_counts aged
echo "info: GC calls while aging: $(zgc_calls)"
df -k /mnt/a
zumount /mnt/a
ourfsck "$conv"

step "background case"
snap 1
guest_replay zbg bg 13
gc_case zbg 0 12
step "foreground case"
snap 2
guest_replay zfg fg 17
gc_case zfg 1 16
ourfsck "$conv"
debfsck "$conv" capacity-below-size
zmount "$conv" /mnt/a
kernel_counts final
zumount /mnt/a
EOF
vm_boot

log=$VM_OUT/boot1.log
sed -n 's/^info: \(kernel .*\)/  \1/p; s/^info: \(our fsck .*\)/  \1/p; s/^info: zoned: /  fsck: /p' "$log"
gc_compare zbg convsnap1 bg --device "$(vm_img znssnap1)" --zone-capacity $ZCAP
gc_compare_guest zbg
gc_compare zfg convsnap2 fg --device "$(vm_img znssnap2)" --zone-capacity $ZCAP
gc_compare_guest zfg
vm_finish
