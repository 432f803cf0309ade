#!/bin/sh
# gc_collect.sh - gc.f2fs collect against the kernel's foreground and background GC.
#
# Boot 1 ages a volume (fill 80%, random 4 KiB overwrites under
# mode=lfs,background_gc=off), writes a sha256 manifest of every file (kept on a
# small raw disk), unmounts and copies the volume to a snapshot disk; then it
# mounts the volume and traces foreground F2FS_IOC_GARBAGE_COLLECT calls
# (f2fs_get_victim).  After unmounting, the volume goes to a second snapshot disk
# and is mounted again for background calls (ioctl 0: the kernel only marks each
# victim and dirties its blocks; `sync` writes them elsewhere and its checkpoint
# frees the victims), traced the same way.  On the host, gc.f2fs collect on each
# snapshot (--gc-type bg on the second), for as many victims as the kernel took:
# the sections it takes must be the kernel's victims, in the same order, of the
# same kind (a background call the kernel turned foreground included), and all
# freed; the kernel's own background victims must be free on the volume after
# its sync; both fscks find every result clean.  Boot 2: Linux mounts both
# collected snapshots, every file reads back with its sha256 (FG GC does not
# change a file's contents, so one manifest serves both), more data can be
# written and removed; both fscks clean again.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

GC_TOOL=$top_builddir/tools/gc.f2fs
[ -x "$GC_TOOL" ] || vm_skip "tools/gc.f2fs is not built"

vm_setup gc_collect "kernel FG and BG GC victims vs gc.f2fs collect; the collected volumes mounted and verified"
vm_disk vol 256M
vm_disk snap 256M
vm_disk bgsnap 256M
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
dd if="$(zdisk vol)" of="$(zdisk bgsnap)" bs=1M 2>/dev/null
sync
step "the kernel's background GC, traced; sync writes the marked blocks and frees the victims"
zmount vol /mnt/g mode=lfs,background_gc=off
zgc_traced col-bg /mnt/g 0 16
sync
zumount /mnt/g
EOF
vm_boot

# col_compare CASE SNAPSHOT fg|bg: the kernel's victims of CASE (first segment of each
# section, as the tracepoint gives it, with the kind of call that took it) against
# gc.f2fs collect on SNAPSHOT asked for as many sections: the same sections in the same
# order, each of the same kind, each freed.  Collect works as an idle machine's kernel
# does, so the comparison ends where the loaded kernel's clock or switch point moved:
# at the first step after a write seconds after the mount (the trace's CLOCK field;
# replay, which takes that clock, checks the rest in gc_replay.sh), or at a step where
# the kernel switched from background to foreground elsewhere than the free-section
# rule (a note says so; the sections before it must still match).
col_compare() {
	kern=$VM_OUT/$1.kernel
	coll=$VM_OUT/$1.collect
	if grep -q "^info: gctrace-lost $1" "$log"; then
		vm_fail "$1: the guest's trace buffer overran: the kernel's list is not whole"
		return 1
	fi
	sed -n "s/^info: gctrace $1 \\(.*\\)/\\1/p" "$log" |
		awk '$2 == "LFS" { print $4, ($1 == "Background" ? "bg" : "fg"), ($7 == "" ? 0 : $7) }' >"$kern.steps"
	cut -d' ' -f1,2 "$kern.steps" >"$kern"
	n=$(wc -l <"$kern")
	if [ "$n" -eq 0 ]; then
		vm_fail "$1: the kernel traced no victim"
		return 1
	fi
	# greedy (foreground) victims do not depend on the clock
	if [ "$3" = fg ]; then
		k=$n
	else
		k=$(awk '$3 != 0 { exit } { n++ } END { print n + 0 }' "$kern.steps")
	fi
	if ! "$GC_TOOL" collect "$(vm_img "$2")" --kernel "$VM_GC_KERNEL" --gc-type "$3" -n "$n" --json \
		>"$coll.json" 2>"$coll.err"; then
		vm_fail "$1: gc.f2fs collect --gc-type $3 failed: $(cat "$coll.err")"
		return 1
	fi
	sed -n 's/.*"segno": \([0-9]*\),.*"gc_type": "\([a-z]*\)".*/\1 \2/p' "$coll.json" >"$coll"
	sed -n 's/.*"data_blocks": \([0-9]*\), "node_blocks": \([0-9]*\).*"free_before": \([0-9]*\), "free_after": \([0-9]*\).*/  collect: moved \1 data and \2 node blocks; free sections \3 -> \4/p' \
		"$coll.json"
	if grep -q '"freed": false' "$coll.json"; then
		vm_fail "$1: gc.f2fs collect --gc-type $3 left victims not free"
		grep '"freed": false' "$coll.json" | sed 's/^/  not freed: /'
		return 1
	fi
	# the first step where the lists differ, within the first k
	d=$(head -n "$k" "$kern" | paste -d' ' - "$coll" | head -n "$k" |
		awk '$1 != $3 || $2 != $4 { print NR; found = 1; exit } END { if (!found) print 0 }')
	if [ "$d" -eq 0 ] && [ "$(wc -l <"$coll")" -ge "$k" ]; then
		if [ "$k" -eq "$n" ]; then
			vm_log "$1: gc.f2fs collect --gc-type $3 freed the kernel's $n victims, in its order: $(cut -d' ' -f1 "$coll" | tr '\n' ' ')"
		else
			vm_log "$1: gc.f2fs collect --gc-type $3 freed the kernel's first $k of $n victims, in its order (the kernel wrote seconds after the mount from step $((k + 1)) on): $(head -n "$k" "$coll" | cut -d' ' -f1 | tr '\n' ' ')"
		fi
		return 0
	fi
	if [ "$d" -gt 1 ] && [ "$3" = bg ] &&
	   [ "$(sed -n "${d}p" "$kern" | cut -d' ' -f2)" != "$(sed -n "${d}p" "$coll" | cut -d' ' -f2)" ]; then
		vm_log "$1: note: the kernel's step $d was $(sed -n "${d}p" "$kern" | cut -d' ' -f2), the free-section rule's $(sed -n "${d}p" "$coll" | cut -d' ' -f2) (the kernel's switch point moves with the machine's load); the $((d - 1)) victims before it matched: $(head -n $((d - 1)) "$coll" | cut -d' ' -f1 | tr '\n' ' ')"
		return 0
	fi
	vm_fail "$1: gc.f2fs collect --gc-type $3 differs from the kernel (victim kind: kernel | collect)"
	paste "$kern" "$coll" | head -n 20 | sed 's/^/  /'
	return 1
}

log=$VM_OUT/boot1.log
col_compare col-fg snap fg
col_compare col-bg bgsnap bg
grep -q "^info: gcstop col-bg nodata" "$log" &&
	vm_fail "col-bg: the kernel ran out of background victims; the comparison needs all 16 calls"

# the kernel's side of the background calls: after its sync, every victim it marked is
# free on the volume (no valid block, no current log)
if "$top_builddir/tools/dump.f2fs" --segments "$(vm_img vol)" >"$VM_OUT/vol.segments" 2>&1; then
	notfree=
	for seg in $(cut -d' ' -f1 "$VM_OUT/col-bg.kernel"); do
		grep -q "^ *segno=$seg .* state=free" "$VM_OUT/vol.segments" || notfree="$notfree $seg"
	done
	if [ -n "$notfree" ]; then
		vm_fail "col-bg: the kernel's background victims$notfree are not free after its sync"
		for seg in $notfree; do grep "^ *segno=$seg " "$VM_OUT/vol.segments" | sed 's/^ */  kernel: /'; done
	else
		vm_log "col-bg: the kernel's $(wc -l <"$VM_OUT/col-bg.kernel") background victims are free after its sync"
	fi
else
	vm_fail "dump.f2fs --segments failed on the kernel's volume: $(tail -n 1 "$VM_OUT/vol.segments")"
fi
vm_fsck vol "after the kernel's background GC"
vm_fsck snap "after gc.f2fs collect"
vm_fsck bgsnap "after gc.f2fs collect --gc-type bg"

vm_detach_all
vm_attach snap
vm_attach bgsnap
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
step "mount the volume collected by background calls, verify every file"
zmount bgsnap /mnt/b
zwork verify /mnt/b/fill /tmp/manifest
dd if=/dev/zero of=/mnt/b/more bs=1M count=16 2>/dev/null
sync
rm /mnt/b/more
zumount /mnt/b
EOF
vm_boot
vm_fsck snap "after the kernel mounted the collected volume"
vm_fsck bgsnap "after the kernel mounted the volume collected by bg calls"
vm_finish
