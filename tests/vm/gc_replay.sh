#!/bin/sh
# gc_replay.sh - gc.f2fs replay predicts the kernel's GC victims.
#
# One boot ages two volumes (fill, then random 4 KiB overwrites under
# mode=lfs,background_gc=off): segs_per_sec 4, and one (segs_per_sec 1) filled
# close to full.  The plain case, segs_per_sec 1 at 80%, is gc_collect.sh's: it
# ages the same volume and checks gc.f2fs collect, whose victims are replay's,
# against the kernel's foreground and background calls.  After unmounting, the guest copies each volume to a
# snapshot disk, mounts the volume, traces f2fs_get_victim and calls
# F2FS_IOC_GARBAGE_COLLECT: foreground (1, greedy) and, after restoring the
# volume from its snapshot, background (0, cost-benefit).  On the host,
# gc.f2fs replay on each snapshot must name the same victims in the same
# order with the same costs.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"
. "$VM_LIBDIR/gc_lib.sh"

GC_TOOL=$top_builddir/tools/gc.f2fs
[ -x "$GC_TOOL" ] || vm_skip "tools/gc.f2fs is not built"

vm_setup gc_replay "kernel GC victims (fg greedy, bg cost-benefit; sps 4; nearly full) vs gc.f2fs replay"
vm_disk s4 256M
vm_disk s4snap 256M
vm_disk full 192M
vm_disk fullsnap 192M
vm_mkfs s4 -s 4 || vm_fail "mkfs s4 failed"
vm_mkfs full || vm_fail "mkfs full failed"

vm_guest <<'EOF'
# gc_age DISK PCT OVERWRITES SEED
gc_age() {
	zmount "$1" /mnt/a mode=lfs,background_gc=off
	step "age $1: fill $2%, $3 random overwrites"
	zwork fill /mnt/a/fill "$2%" 1024 "$4"
	sleep 2
	zwork overwrite /mnt/a/fill "$3" 4096 "$(($4 + 1))"
	sync
	sleep 2
	zwork overwrite /mnt/a/fill "$(($3 / 2))" 4096 "$(($4 + 2))"
	sync
	set -- "$1" $(zgc_calls)
	echo "info: $1: GC calls while aging: $2 (background $3)"
	zumount /mnt/a
}

# gc_case NAME DISK SYNC COUNT: trace COUNT ioctl calls on DISK
gc_case() {
	zmount "$2" /mnt/g mode=lfs,background_gc=off
	zgc_traced "$1" /mnt/g "$3" "$4"
	zumount /mnt/g
}

gc_snap() {
	dd if="$(zdisk "$1")" of="$(zdisk "$2")" bs=1M 2>/dev/null
	sync
}

gc_age s4 80 12000 21
gc_age full 95 4000 31
gc_snap s4 s4snap
gc_snap full fullsnap

step "s4: foreground"
gc_case s4-fg s4 1 12
gc_snap s4snap s4
step "s4: background"
gc_case s4-bg s4 0 12
step "full: foreground"
gc_case full-fg full 1 16
EOF
vm_boot

log=$VM_OUT/boot1.log
gc_compare s4-fg s4snap fg
gc_compare s4-bg s4snap bg
gc_compare full-fg fullsnap fg
for d in s4snap fullsnap; do
	"$GC_TOOL" state "$(vm_img $d)" >"$VM_OUT/$d.state.txt" 2>&1
	sed -n '/^sections:/p; /^foreground GC/p' "$VM_OUT/$d.state.txt" | sed "s/^/  $d: /"
done
vm_fsck s4
vm_fsck full
vm_finish
