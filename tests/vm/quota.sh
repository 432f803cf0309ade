#!/bin/sh
# quota.sh - quota files written by our mkfs and rebuilt by our fsck, kept by the kernel.
#
# Boot 1: a volume from our mkfs -O quota,project_quota gets files of several users,
# groups and projects (ids across more than one tree branch: 0, 1000, 1001, 65534,
# 70000, 16777300), hard links, sparse and deleted files, and one project change.  The
# kernel keeps usage in the quota files as it goes; afterwards our fsck must agree with
# every id's inodes and bytes, and Debian's fsck must find the files right.
# Then, on the host, a copy gets a wrong user usage and a group file whose header is
# destroyed; our fsck -y rebuilds both (exit 1), a second run is clean.
# Boot 2: the kernel mounts the rebuilt copy (it refuses quota files it cannot read),
# adds and removes files of existing and new ids, unmounts; both fscks are clean again,
# which only holds if the kernel took its starting usage from our rebuilt files.
# Boots 3 and 4: a power cut with an orphan and fsync'd files, then recovery (below).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

OPTS="-O extra_attr,quota,project_quota,inode_checksum,lost_found"

# quota_user_row IMAGE UID INODES BYTES WHEN: dump.f2fs --quota must show user UID with
# exactly that usage (when dump.f2fs is built).
DUMP=$top_builddir/tools/dump.f2fs
quota_user_row() {
	[ -x "$DUMP" ] || return 0
	row=$("$DUMP" --quota "$(vm_img "$1")" | grep "type=user id=$2 ")
	echo "  dump: $row"
	case $row in
	*" inodes=$3 bytes=$4 "*) ;;
	*) vm_fail "dump.f2fs --quota $5: user $2 should hold $3 inodes and $4 bytes" ;;
	esac
}

vm_setup quota "quota files: kernel usage vs our fsck; fsck-rebuilt files used by the kernel"
[ -x "$VM_OUR_FSCK" ] || vm_skip "fsck/fsck.f2fs is not built"
vm_image q 256M
vm_mkfs q $OPTS || vm_fail "mkfs -O quota failed"
vm_attach q

vm_guest <<'EOF'
step "mount, files of several owners and projects"
zmount q /mnt/q
cd /mnt/q
mkdir -p u1000 u70000 shared
zwork writefile u1000/a 100 1
zwork writefile u1000/b 7 2
chown -R 1000:1000 u1000
zwork writefile u70000/big 3000 3
chown -R 70000:100 u70000
zwork writefile shared/p 40 4
chown 1001:16777300 shared/p
zwork projid shared/p 42
zwork writefile shared/q 12 5
zwork projid shared/q 16777300
ln shared/q shared/q.link
dd if=/dev/zero of=shared/sparse bs=4096 seek=1000 count=1 2>/dev/null
chown 65534:65534 shared/sparse
zwork writefile shared/gone 50 6
chown 1000 shared/gone
sync
rm shared/gone
echo hello >small
chown 1000 small
cd /
zumount /mnt/q
EOF
vm_boot
vm_fsck q "after the kernel wrote"
# dump.f2fs --quota shows what the kernel recorded: user 70000 owns its directory (inline
# dentries: no block) and a 3000 KiB file (750 blocks, all in the inode's own slots)
quota_user_row q 70000 2 3072000 "after the kernel wrote"

# The host's part: damage a copy's quota files, repair, check.
cp "$(vm_img q)" "$(vm_img r)"
img=$(vm_img r)
# user file: id 0's inode count (the first entry of leaf block 5, at 0x1428)
INJECT=$top_builddir/tools/inject.f2fs
qino=$("$INJECT" --sb 1 --mb qf_ino --idx 0 --get "$img")
# raw bytes at a byte offset of a file (block through inject.f2fs --bmap)
file_raw() {
	local a
	a=$("$INJECT" --bmap $(( $2 / 4096 )) --nid "$1" "$img") || return 1
	printf "$(printf '%s' "$3" | sed 's/../\\x&/g')" |
		dd of="$img" bs=1 seek=$(( a * 4096 + $2 % 4096 )) conv=notrunc status=none
}
file_raw "$qino" 0x1428 6300000000000000 || vm_fail "corrupting the user quota file failed"
file_raw "$((qino + 1))" 0 0000000000000000 || vm_fail "corrupting the group quota file failed"
"$VM_OUR_FSCK" -f -y "$img" >"$VM_OUT/r.repair.log" 2>&1
rc=$?
sed 's/^/  repair: /' "$VM_OUT/r.repair.log" | head -n 20
[ "$rc" -eq 1 ] || vm_fail "fsck -y on the damaged copy: exit $rc, expected 1"
grep -q '0x090003.*user id 0' "$VM_OUT/r.repair.log" || vm_fail "the wrong user usage was not reported"
grep -q '0x090002' "$VM_OUT/r.repair.log" || vm_fail "the destroyed group file was not reported"
vm_fsck r "after our repair"

vm_detach_all
vm_attach r
vm_guest <<'EOF'
step "mount the repaired copy, change usage of old and new ids"
zmount r /mnt/r
cd /mnt/r
zwork writefile u1000/c 33 7
chown 1000:1000 u1000/c
rm u70000/big
zwork writefile newfile 20 8
chown 4242:4243 newfile
zwork projid newfile 42
cd /
zumount /mnt/r
EOF
vm_boot
if grep -q 'Quota error' "$VM_CONSOLE"; then
	vm_fail "the kernel reported quota errors:"
	grep 'Quota error' "$VM_CONSOLE" | head -n 5 | sed 's/^/  kernel: /'
fi
vm_fsck r "after the kernel used the rebuilt files"
quota_user_row r 70000 1 0 "after its file was removed"
# Boot 3: on the same volume, an orphan and fsync'd files of a new user after the last
# checkpoint, then a power cut.  Our fsck checks the unclean image as the checkpoint left
# it (the quota files belong to that checkpoint too); boot 4 lets the kernel recover
# (orphan released, fsync'd files rolled forward, charged to their owners) and unmount;
# then the usage must match again.
vm_guest <<'EOF'
step "orphan and fsync'd files of user 5000, power cut"
zmount r /mnt/r
zwork writefile /mnt/r/orphan 64 9
chown 5000:5000 /mnt/r/orphan
exec 3</mnt/r/orphan
rm /mnt/r/orphan
sync
zwork writefile /mnt/r/fsynced 40 10
chown 5000:5000 /mnt/r/fsynced
zwork writefile /mnt/r/fsynced 48 10 fsync
zwork writefile /mnt/r/u1000/a 200 11 fsync
zpowercut
EOF
vm_boot
"$VM_OUR_FSCK" -f -n "$(vm_img r)" >"$VM_OUT/r.unclean.log" 2>&1
rc=$?
sed 's/^/  unclean: /' "$VM_OUT/r.unclean.log" | head -n 10
grep -q '0x0900' "$VM_OUT/r.unclean.log" &&
	vm_fail "quota problems on the checkpoint a power cut left (they belong together)"
[ "$rc" -lt 8 ] || vm_fail "our fsck on the unclean image: exit $rc"

vm_guest <<'EOF'
step "mount: recovery, then unmount"
zmount r /mnt/r
ls -l /mnt/r/fsynced /mnt/r/u1000/a
zumount /mnt/r
EOF
vm_boot
vm_fsck r "after recovery"
quota_user_row r 5000 1 49152 "after recovery (the orphan gone, 48 KiB rolled forward)"
vm_finish
