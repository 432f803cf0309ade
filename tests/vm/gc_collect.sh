#!/bin/sh
# gc_collect.sh - gc.f2fs collect against the kernel's foreground GC.
#
# Boot 1 ages a volume (fill 80%, random 4 KiB overwrites under
# mode=lfs,background_gc=off), writes a sha256 manifest of every file (kept on a
# small raw disk), unmounts and copies the volume to a snapshot disk; then it
# mounts the volume and traces foreground F2FS_IOC_GARBAGE_COLLECT calls
# (f2fs_get_victim).  On the host, gc.f2fs collect on the snapshot, for as many
# victims as the kernel took: the sections it frees must be the kernel's victims,
# in the same order; both fscks find the result clean.  Boot 2: Linux mounts the
# collected snapshot, every file reads back with its sha256, more data can be
# written and removed; both fscks clean again.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

GC_TOOL=$top_builddir/tools/gc.f2fs
[ -x "$GC_TOOL" ] || vm_skip "tools/gc.f2fs is not built"

vm_setup gc_collect "kernel FG GC victims vs gc.f2fs collect; the collected volume mounted and verified"
vm_disk vol 256M
vm_disk snap 256M
vm_disk mf 16M
vm_mkfs vol || vm_fail "mkfs failed"

vm_guest <<'EOF'
zmount vol /mnt/a mode=lfs,background_gc=off
step "age: fill 80%, random overwrites"
zwork fill /mnt/a/fill 80% 1024 11
sleep 2
zwork overwrite /mnt/a/fill 12000 4096 12
sync
sleep 2
zwork overwrite /mnt/a/fill 6000 4096 13
sync
zwork manifest /mnt/a/fill /tmp/manifest
zumount /mnt/a
(cd /tmp && tar cf "$(zdisk mf)" manifest)
dd if="$(zdisk vol)" of="$(zdisk snap)" bs=1M 2>/dev/null
sync
step "the kernel's foreground GC, traced"
zmount vol /mnt/g mode=lfs,background_gc=off
zgc_traced col-fg /mnt/g 1 12
zumount /mnt/g
EOF
vm_boot
log=$VM_OUT/boot1.log

# the kernel's victims (first segment of each section, as the tracepoint gives it)
sed -n 's/^info: gctrace col-fg \(.*\)/\1/p' "$log" | awk '$2 == "LFS" { print $4 }' >"$VM_OUT/kernel.v"
n=$(wc -l <"$VM_OUT/kernel.v")
[ "$n" -gt 0 ] || vm_fail "the kernel traced no foreground victim"
if [ "$n" -gt 0 ]; then
	if "$GC_TOOL" collect "$(vm_img snap)" -n "$n" --json >"$VM_OUT/collect.json" 2>"$VM_OUT/collect.err"; then
		sed -n 's/.*"segno": \([0-9]*\),.*/\1/p' "$VM_OUT/collect.json" >"$VM_OUT/collect.v"
		if cmp -s "$VM_OUT/kernel.v" "$VM_OUT/collect.v" &&
		   ! grep -q '"freed": false' "$VM_OUT/collect.json"; then
			vm_log "gc.f2fs collect freed the kernel's $n victims, in its order: $(tr '\n' ' ' <"$VM_OUT/collect.v")"
		else
			vm_fail "gc.f2fs collect's victims differ from the kernel's (kernel | collect)"
			paste "$VM_OUT/kernel.v" "$VM_OUT/collect.v" | head -n 20 | sed 's/^/  /'
		fi
		sed -n 's/.*"data_blocks": \([0-9]*\), "node_blocks": \([0-9]*\).*"free_before": \([0-9]*\), "free_after": \([0-9]*\).*/  collect: moved \1 data and \2 node blocks; free sections \3 -> \4/p' \
			"$VM_OUT/collect.json"
	else
		vm_fail "gc.f2fs collect failed: $(cat "$VM_OUT/collect.err")"
	fi
fi
vm_fsck snap "after gc.f2fs collect"

vm_detach_all
vm_attach snap
vm_attach mf
vm_guest <<'EOF'
(cd /tmp && tar xf "$(zdisk mf)")
step "mount the collected volume, verify every file"
zmount snap /mnt/a
zwork verify /mnt/a/fill /tmp/manifest
step "more data fits, and goes"
dd if=/dev/zero of=/mnt/a/more bs=1M count=16 2>/dev/null
sync
rm /mnt/a/more
zumount /mnt/a
EOF
vm_boot
vm_fsck snap "after the kernel mounted the collected volume"
vm_finish
