#!/bin/sh
# aging.sh - fill to about 80%, then random overwrites with mode=lfs (every
# overwrite goes out of place) until the kernel runs foreground garbage
# collection on our layout; the data must survive it and fsck stay clean.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup aging "fill 80%, random overwrites under mode=lfs, foreground GC, verify, fsck"
vm_disk data 256M
vm_mkfs data || vm_fail "mkfs failed"

vm_guest <<'EOF'
dev=$(zdisk data)
# background GC off: every GC the kernel counts is a foreground one
zmount data /mnt/a mode=lfs,background_gc=off
ztrace_on f2fs/f2fs_get_victim
step "fill to 80%"
zwork fill /mnt/a/fill 80% 1024 11
df -k /mnt/a
# Every other file becomes cold: renamed, its blocks stay interleaved with
# the hot files' blocks, so the victims GC picks hold cold data it must
# move.  Its manifest, taken now, checks what GC moved.
mkdir /mnt/a/cold
for f in /mnt/a/fill/fill-*[02468]; do
	mv "$f" /mnt/a/cold/
done
zwork manifest /mnt/a/cold /tmp/cold.manifest
set -- $(zgc_calls)
echo "info: GC calls after fill: $1 (background $2)"
# Rounds of random 4 KiB overwrites, each made durable with sync, until the
# kernel has had to collect (at most 8 rounds, about 400 MiB of writes).
round=0
while [ "$round" -lt 8 ]; do
	round=$((round + 1))
	step "random overwrites, round $round"
	zwork overwrite /mnt/a/fill 15000 4096 $((20 + round))
	sync
	set -- $(zgc_calls)
	echo "info: GC calls after round $round: $1 (background $2)"
	[ "$1" -eq 0 ] || break
done
zwork overwrite /mnt/a/fill 1000 16384 13 sync
set -- $(zgc_calls)
echo "info: GC calls after overwrites: $1 (background $2)"
victims=$(ztrace_count f2fs/f2fs_get_victim)
echo "info: f2fs_get_victim events: $victims"
grep -m 3 f2fs_get_victim /sys/kernel/tracing/trace | sed 's/^ */info: trace: /' || true
[ "$1" -gt "$2" ] || zfail "the kernel never ran foreground GC (calls $1, background $2)"
[ "$victims" -gt 0 ] || zfail "no f2fs_get_victim event was traced"
step "GC through the ioctl"
zwork gc /mnt/a 1 4
zwork gc /mnt/a 0 1
ztrace_off
zstatus | grep -iE 'GC calls|data segments|node segments|Try to move|free|utiliz|valid' | sed 's/^/info: status: /'
echo "info: gc_urgent knob: $(zf2fs_knob "$dev" gc_urgent)"
step "cold data after GC"
zwork verify /mnt/a/cold /tmp/cold.manifest
zwork manifest /mnt/a/fill /tmp/manifest
zumount /mnt/a
zdrop_caches
step "mount again (default mode), verify"
zmount data /mnt/a
zwork verify /mnt/a/fill /tmp/manifest
zwork verify /mnt/a/cold /tmp/cold.manifest
zumount /mnt/a
EOF
vm_boot
vm_fsck data
vm_finish
