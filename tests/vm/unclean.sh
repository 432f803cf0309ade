#!/bin/sh
# unclean.sh - power cut after fsync: the checkpoint holds an orphan (an
# unlinked file still open), and fsynced data after it waits for
# roll-forward.  The image is kept as a fixture for fsck work; a second
# boot lets the kernel recover it, then everything must check out.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup unclean "fsync after the last checkpoint, an open unlinked file, power cut, recovery"
vm_disk data 128M
vm_mkfs data || vm_fail "mkfs failed"

vm_guest <<'EOF'
zmount data /mnt/a
step "checkpointed data"
mkdir /mnt/a/base
seq 1 20000 >/mnt/a/base/numbers
zwork writefile /mnt/a/base/random 32 5
zwork writefile /mnt/a/grows 8 6
echo "small inline file" >/mnt/a/base/inline
zwork manifest /mnt/a/base /mnt/a/base.manifest
step "an unlinked file kept open"
zwork writefile /mnt/a/orphan 64 7
exec 3</mnt/a/orphan
rm /mnt/a/orphan
sync
echo "info: checkpoint taken: $(grep -m 1 'CP calls' /sys/kernel/debug/f2fs/status)"
step "fsync after the checkpoint"
zwork writefile /mnt/a/fsynced 40 42 fsync
zwork writefile /mnt/a/grows 24 6 fsync
zwork writefile /mnt/a/not-synced 16 43
echo "info: after the fsyncs: $(grep -m 1 'CP calls' /sys/kernel/debug/f2fs/status), $(grep -m 1 'fsync mark' /sys/kernel/debug/f2fs/status | tr -s ' ')"
zpowercut
EOF
vm_boot

# The fixture: the image as the power cut left it.
fixdir=$VM_ROOT/fixtures
mkdir -p "$fixdir"
fixture=$fixdir/unclean-shutdown$VM_KSUFFIX.img.xz
xz -T1 -9 -c "$(vm_img data)" >"$fixture.tmp" && mv "$fixture.tmp" "$fixture"
cat >"$fixdir/unclean-shutdown$VM_KSUFFIX.txt" <<EOF
unclean-shutdown$VM_KSUFFIX.img.xz: 128 MiB image made by tests/vm/unclean.sh
mkfs: $VM_MKFS
kernel: $VM_KVER
State: the last checkpoint lists one orphan inode (an unlinked file held
open, 64 KiB); after it, /fsynced (40 KiB, zwork seed 42) was created and
fsynced and /grows was rewritten from 8 to 24 KiB (seed 6) and fsynced, so
both need roll-forward recovery; /not-synced (16 KiB) was never synced.
Power was cut with sysrq o: no unmount, no sync.
EOF
vm_log "fixture kept: $fixture ($(du -k "$fixture" | cut -f1) KiB), notes in $fixdir/unclean-shutdown.txt"

# Debian's fsck on the raw state, for the record (it may want to fix).
"$VM_HOST_FSCK" --dry-run "$(vm_img data)" >"$VM_OUT/data.fsck-unclean.log" 2>&1
rc=$?
vm_log "host fsck on the unclean image: exit $rc (output in $VM_OUT/data.fsck-unclean.log)"
[ "$rc" -lt 128 ] || vm_fail "host fsck crashed on the unclean image (exit $rc)"

vm_guest <<'EOF'
step "mount: recovery"
zmount data /mnt/a
ls -la /mnt/a
zwork checkfile /mnt/a/fsynced 40 42
zwork checkfile /mnt/a/grows 24 6
zwork verify /mnt/a/base /mnt/a/base.manifest
[ ! -e /mnt/a/orphan ] || zfail "the unlinked file came back"
echo "info: orphan/append/update inodes: $(grep -m 1 'Orphan' /sys/kernel/debug/f2fs/status | tr -s ' ')"
zumount /mnt/a
EOF
vm_boot
vm_fsck data "after recovery"
vm_finish
