#!/bin/sh
# zoned_gc_window.sh - gc.f2fs replay predicts the kernel's background GC victims
# on a zoned volume with large sections, where Linux 7.3 moves a window of a
# victim section per call and the next call continues that section.
#
# One boot: our mkfs -m on a conventional disk + an NVMe ZNS namespace with
# 16 MiB zones of full capacity (sections of 8 segments).  Age it (fill to 60%,
# random overwrites; zoned F2FS runs in mode=lfs), copy both devices to
# snapshot disks, run gc.f2fs replay on the devices themselves, then trace
# background calls of F2FS_IOC_GARBAGE_COLLECT from a fresh mount.  Under
# Linux 7.3 a background call moves migration_window_granularity (3) segments
# of its victim (free sections stay above gc_boost_zoned_gc_percent, 25%, so
# the window is not boosted) and the next call takes the section's next
# segment without a search: the f2fs_get_victim tracepoint shows that segment
# with the policy's largest cost.  Under Linux 6.1 a call collects its whole
# section.  On the host, gc.f2fs replay on the snapshot images (--kernel of
# the booted kernel) must name the same victims, in the same order, with the
# same costs, and so must the guest's replay; the kernel's victims must include
# a continued section under 7.3 (none under 6.1), or the case shows nothing.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"
. "$VM_LIBDIR/gc_lib.sh"

GC_TOOL=$top_builddir/tools/gc.f2fs
[ -x "$GC_TOOL" ] || vm_skip "tools/gc.f2fs is not built"

vm_setup zoned_gc_window "kernel background GC victims on ZNS 16 MiB zones (8-segment sections) vs gc.f2fs replay"
vm_all_tools
vm_disk conv 64M 4096
vm_zns zns 1G 16M 16M
vm_disk convsnap1 64M 4096
vm_disk znssnap1 1G 4096

{ cat "$VM_LIBDIR/zoned_guest.sh"; cat <<'GUEST'; } | vm_guest
conv=$(zdisk conv); zns=$(zdisk zns)
step "mkfs -m on $conv + $zns (16 MiB zones)"
mkfs.f2fs -f -m -c "$zns" "$conv" >/tmp/mkfs.log 2>&1 || { cat /tmp/mkfs.log; zfail "mkfs"; }
grep -E 'zoned|Overprovision|segs_per_sec|section' /tmp/mkfs.log || true

kernel_counts() {
	d=${conv#/dev/}
	echo "info: kernel $1: free_segments $(cat /sys/fs/f2fs/$d/free_segments)" \
		"migration_window_granularity $(cat /sys/fs/f2fs/$d/migration_window_granularity 2>/dev/null || echo -)" \
		"gc_boost_zoned_gc_percent $(cat /sys/fs/f2fs/$d/gc_boost_zoned_gc_percent 2>/dev/null || echo -)"
}

gck=7.3
case $(uname -r) in 6.1|6.1.*|6.1-*) gck=6.1 ;; esac

step "age: fill to 60%, random overwrites"
zmount "$conv" /mnt/a background_gc=off
zwork fill /mnt/a/fill 60% 1024 61
sync
sleep 2
zwork overwrite /mnt/a/fill 4000 4096 62
sync
kernel_counts aged
df -k /mnt/a
zumount /mnt/a
ourfsck "$conv"

step "background case"
dd if="$conv" of="$(zdisk convsnap1)" bs=1M 2>/dev/null
dd if="$zns" of="$(zdisk znssnap1)" bs=1M 2>/dev/null
sync
gc.f2fs replay "$conv" --kernel "$gck" --gc-type bg --count 13 --json >/tmp/gr.json 2>/tmp/gr.err ||
	{ cat /tmp/gr.err; zfail "gc.f2fs replay on the devices failed"; }
sed -n 's/.*"segno": \([0-9]*\),.*"cost": \([0-9]*\),.*/\1 \2/p' /tmp/gr.json |
	while read -r s c; do echo "info: gcguest zwin $s $c"; done
zmount "$conv" /mnt/g background_gc=off
kernel_counts "zwin mount"
zgc_traced zwin /mnt/g 0 12
zumount /mnt/g
ourfsck "$conv"
GUEST
vm_boot

log=$VM_OUT/boot1.log
sed -n 's/^info: \(kernel .*\)/  \1/p' "$log"
gc_compare zwin convsnap1 bg --device "$(vm_img znssnap1)"
gc_compare_guest zwin
# a continued section is traced at a segment inside it (victim not a multiple of 8)
cont=$(awk '$1 % 8 != 0 { n++ } END { print n + 0 }' "$VM_OUT/zwin.kernel")
if grep -q "^info: gctrace zwin" "$log"; then
	if [ "$VM_GC_KERNEL" = 6.1 ]; then
		[ "$cont" -eq 0 ] || vm_fail "zwin: Linux 6.1 continued a section ($cont victims inside one)"
	elif [ "$cont" -eq 0 ]; then
		vm_fail "zwin: Linux $VM_GC_KERNEL continued no section: the window did not show"
	else
		vm_log "zwin: $cont of the kernel's victims continue a section at a later segment"
	fi
fi
vm_finish
