#!/bin/sh
# powercut.sh - fsck repairs a volume cut off after fsyncs without losing what was
# fsync'd.  Boot 1: a checkpointed tree, then fsyncs after the checkpoint (new files,
# appends, overwrites: ipu_policy 0 so that overwrites go out of place and through the
# roll-forward chain instead of in place), then a power cut.  On the host: a copy of the
# cut image is kept untouched (the reference); the other gets damage elsewhere, our
# fsck -y repairs it (exit 1; the chain it keeps spans two segments), a rerun is clean (exit 0, noting the pending roll-forward),
# Debian's fsck agrees.  Boot 2: both images mounted, the kernel replays each; every file
# of the repaired one equals the reference as the kernel recovered it without our fsck,
# and the fsync'd files hold what was written.  After unmount both fscks find both clean.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup powercut "fsck -y after a power cut keeps the fsync'd data the kernel replays"
vm_disk data 128M
vm_mkfs data -O extra_attr,inode_checksum,lost_found || vm_fail "mkfs failed"

vm_guest <<'EOF'
zmount data /mnt/a
dev=$(basename "$(zdev data)")
echo 0 >/sys/fs/f2fs/$dev/ipu_policy
echo "info: ipu_policy $(cat /sys/fs/f2fs/$dev/ipu_policy)"
step "checkpointed tree"
mkdir /mnt/a/d /mnt/a/ow /mnt/a/keep /mnt/a/many
seq 1 30000 >/mnt/a/keep/numbers
zwork writefile /mnt/a/keep/victim 20 3
zwork writefile /mnt/a/grows 8 6
zwork writefile /mnt/a/ow/one 64 10
zwork writefile /mnt/a/ow/two 48 11
echo "checkpointed" >/mnt/a/d/small
sync
echo "info: checkpoint taken: $(grep -m 1 'CP calls' /sys/kernel/debug/f2fs/status)"
step "fsyncs after the checkpoint"
zwork writefile /mnt/a/new1 40 42 fsync
zwork writefile /mnt/a/d/new2 12 44 fsync
zwork writefile /mnt/a/grows 24 6 fsync
zwork overwrite /mnt/a/ow 24 4096 9 sync
echo "info: ow inodes: $(stat -c %i /mnt/a/ow/one) $(stat -c %i /mnt/a/ow/two)"
# a chain longer than a segment (512 blocks): 600 new inline files, one inode block each
i=0
while [ $i -lt 600 ]; do
	i=$((i + 1))
	zwork writefile /mnt/a/many/f$i 1 $i fsync >/dev/null
done
zwork writefile /mnt/a/not-synced 16 43
echo "info: after the fsyncs: $(grep -m 1 'CP calls' /sys/kernel/debug/f2fs/status), $(grep -m 1 'fsync mark' /sys/kernel/debug/f2fs/status | tr -s ' ')"
zpowercut
EOF
vm_boot

data=$(vm_img data)
ref=$(vm_img ref)
cp --sparse=always "$data" "$ref"
inject=$top_builddir/tools/inject.f2fs
[ -x "$inject" ] || vm_error "inject.f2fs is not built: $inject"

# The cut really left fsync'd data for roll-forward, overwrites included (Debian's fsck
# lists what it finds, as the kernel would).
"$VM_HOST_FSCK" --dry-run -d 1 "$data" >"$VM_OUT/records.log" 2>&1
records=$(sed -n 's/^do_record_fsync_data: \[\(node\|data\)\] ino = \([0-9]*\),.*/\1 \2/p' "$VM_OUT/records.log" | sort -u)
vm_log "roll-forward records (kind, inode): $(echo $records)"
ow=$(sed -n 's/^info: ow inodes: \([0-9][0-9]*\) \([0-9][0-9]*\).*/\1 \2/p' "$VM_CONSOLE" | tail -1)
[ -n "$ow" ] || vm_fail "the guest did not report the inodes of the overwritten files"
for i in $ow; do
	echo "$records" | grep -qx "data $i" ||
		vm_fail "no roll-forward data for overwritten inode $i: the overwrites went in place"
done
nodes=$(echo "$records" | grep -c '^node')
[ "$nodes" -ge 604 ] || vm_fail "only $nodes fsync'd inodes await roll-forward, expected 604 or more"

# Damage elsewhere: a link count, i_blocks and a dentry hash of checkpointed files.
"$inject" --node --path /keep/victim --mb i_links --val 4 "$data" &&
	"$inject" --node --path /keep/numbers --mb i_blocks --val 9 "$data" &&
	"$inject" --dent --path /keep --name numbers --mb d_hash --val 7 "$data" &&
	"$inject" --dent --nid 3 --name keep --mb d_hash --val 7 "$data" >/dev/null ||
	vm_error "damaging the image failed"

"$VM_OUR_FSCK" -y "$data" >"$VM_OUT/fsck-y.log" 2>&1
rc=$?
sed 's/^/  fsck -y: /' "$VM_OUT/fsck-y.log"
[ $rc -eq 1 ] || vm_fail "fsck -y exit $rc, expected 1"
"$VM_OUR_FSCK" -f -n "$data" >"$VM_OUT/fsck-n.log" 2>&1
rc=$?
sed 's/^/  fsck -n: /' "$VM_OUT/fsck-n.log"
[ $rc -eq 0 ] || vm_fail "fsck -f -n after the repair: exit $rc, expected 0"
grep -q '^\[0x020003\]' "$VM_OUT/fsck-n.log" || vm_fail "the rerun does not note the pending roll-forward"
[ "$(grep -c '^\[' "$VM_OUT/fsck-n.log")" -eq 1 ] || vm_fail "the rerun reports more than the pending roll-forward"
vm_fsck data "after our repair"

vm_detach_all
vm_attach data
vm_attach ref
vm_guest <<'EOF'
step "recovery of the reference (no fsck) and of the repaired image"
zmount ref /mnt/r
zmount data /mnt/a
for m in /mnt/r /mnt/a; do
	zwork checkfile $m/new1 40 42
	zwork checkfile $m/d/new2 12 44
	zwork checkfile $m/grows 24 6
	zwork checkfile $m/keep/victim 20 3
	[ "$(stat -c %h $m/keep/victim)" = 1 ] || zfail "$m/keep/victim: link count $(stat -c %h $m/keep/victim)"
	seq 1 30000 | cmp - $m/keep/numbers
	[ "$(ls $m/many | wc -l)" = 600 ] || zfail "$m/many: $(ls $m/many | wc -l) files, expected 600"
	zwork checkfile $m/many/f1 1 1
	zwork checkfile $m/many/f600 1 600
done
zwork manifest /mnt/r /tmp/ref.manifest
zwork verify /mnt/a /tmp/ref.manifest
zwork writefile /tmp/one 64 10
! cmp -s /tmp/one /mnt/a/ow/one || zfail "ow/one reads as before its overwrites"
zumount /mnt/a
zumount /mnt/r
EOF
vm_boot
# The kernel really replayed the repaired image (vda), past the first segment of the
# chain: our fsck replays nothing, so the files created after the checkpoint exist there
# only through the kept chain.  (The kernel's log buffer holds only the last of its ~3600
# recovery lines; vda was mounted last, so its last files are there.)
for name in f512 f600; do
	grep -q "F2FS-fs (vda): recover_dentry: .*name = $name, .*err = 0" "$VM_CONSOLE" ||
		vm_fail "the kernel did not replay $name on the repaired image"
done
vm_fsck data "after recovery"
vm_fsck ref "after recovery"
vm_finish
