#!/bin/sh
# mount_checks.sh - what Linux 7.3 checks when it mounts a volume, judged by Linux itself:
# for each corpus case of such a check (the quota files' NAT entries, the orphan list), the
# corrupted image (tests/images/corpus/f_*, made on the host) and a copy repaired by our
# fsck -y are mounted by the newest kernel.  On the corrupted one the kernel must do what
# the check is about: refuse the mount (an orphan block or entry it cannot take, a quota
# file's NAT entry marked unwritten), leave quotas off with its reason logged (a quota
# file's NAT entry that holds no block), or delete a file that a name still reaches (an
# orphan entry naming a linked inode).  On the
# repaired one it must mount without an f2fs error, keep that file, read every file, and
# leave the volume clean for both fscks after the unmount.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

OUR_FSCK=$top_builddir/fsck/fsck.f2fs
[ -x "$OUR_FSCK" ] || vm_skip "fsck.f2fs not built"
# CASE:WHAT the damaged image must show: "fail=ERE" the mount fails with a kernel line
# matching ERE, "log=ERE" the mount succeeds with such a line, "gone=INO" the mount
# succeeds and inode INO is no longer reachable
CASES="f_quota_nat_lost:log=qf_ino f_quota_nat_gone:fail=NAT.is.corrupt
f_orphan_block_bad:fail=invalid.orphan.inode.entry.count
f_orphan_ino_twice:fail=f2fs_recover_orphan_inodes f_orphan_linked:gone=6"

vm_setup mount_checks "Linux refuses or misuses what fsck's mount-time checks repair"
[ "$VM_GC_KERNEL" = 6.1 ] && vm_skip "the checks are those of Linux 7.3 (run with ZF2FS_VM_KERNEL=newest)"

i=0
for cw in $CASES; do
	c=${cw%%:*}
	i=$((i + 1))
	vm_case_image "b$i" "$c" 128M
	cp "$(vm_img "b$i")" "$(vm_img "r$i")"
	vm_case_repair "r$i" "$c"
done

# guest: each disk mounted (a refused mount is reported, not fatal), every file read,
# inode 6 looked for, the kernel's f2fs lines of that mount printed with the case's name
guest_walk() {
	cat <<'EOS'
mkdir -p /mnt/a
for pair in $PAIRS; do
	disk=${pair%%:*} d=${pair#*:}
	step "mount $disk ($d)"
	k0=$(dmesg | wc -l)	# the kernel log stays whole for the host's check
	if mount -t f2fs "$(zdisk "$disk")" /mnt/a 2>/tmp/merr; then
		echo "MOUNTED $d"
		( cd /mnt/a && find . -type f | while IFS= read -r f; do
			cat "$f" >/dev/null 2>>/tmp/err.read || true
		  done )
		echo "INO6 $d $(find /mnt/a -inum 6 2>/dev/null | head -n 1)"
		sed "s/^/ERR $d /" /tmp/err.read 2>/dev/null || true
		rm -f /tmp/err.read
		umount /mnt/a
	else
		echo "MOUNTFAIL $d $(cat /tmp/merr)"
	fi
	dmesg | tail -n +$((k0 + 1)) | grep -i f2fs | sed "s/^/KLOG $d /"
done
EOS
}

# boot 1: the corrupted images; the kernel's complaints are what is being tested (an
# orphan listed twice trips one of its own assertions, a warning with a call trace)
VM_ALLOW_KLOG='F2FS-fs|f2fs|Call Trace'
# shellcheck disable=SC2046 # one word per case
vm_boot_cases b guest_walk $(for cw in $CASES; do echo "${cw%%:*}"; done)
bl=$VM_OUT/boot$VM_BOOTS.log
for cw in $CASES; do
	c=${cw%%:*} want=${cw#*:}
	mounted=$(grep -c "^MOUNTED $c\$" "$bl")
	case $want in
	fail=*)
		line=$(grep -m 1 "^KLOG $c .*${want#fail=}" "$bl" | sed 's/^KLOG [^ ]* \[ *[0-9.]*\] //')
		if [ "$mounted" -eq 0 ] && [ -n "$line" ]; then
			vm_log "$c: Linux refuses to mount the corrupted image: $line"
		else
			vm_fail "$c: expected a refused mount with /${want#fail=}/ (mounted: $mounted)"
			grep "^KLOG $c \|^MOUNTFAIL $c " "$bl" | head -n 5 | sed 's/^/  /'
		fi ;;
	log=*)
		line=$(grep -m 1 "^KLOG $c .*${want#log=}" "$bl" | sed 's/^KLOG [^ ]* \[ *[0-9.]*\] //')
		if [ "$mounted" -eq 1 ] && [ -n "$line" ]; then
			vm_log "$c: Linux mounts the corrupted image with: $line"
		else
			vm_fail "$c: expected a mount with /${want#log=}/ logged (mounted: $mounted)"
			grep "^KLOG $c \|^MOUNTFAIL $c " "$bl" | head -n 5 | sed 's/^/  /'
		fi ;;
	gone=*)
		if [ "$mounted" -eq 1 ] && grep -q "^INO6 $c \$" "$bl"; then
			vm_log "$c: Linux mounts the corrupted image and frees inode ${want#gone=}, which a name reached"
		else
			vm_fail "$c: expected inode ${want#gone=} gone after the mount (mounted: $mounted; $(grep "^INO6 $c" "$bl"))"
		fi ;;
	esac
done

# boot 2: the repaired images; a refused mount, a read error or an f2fs error fails
VM_ALLOW_KLOG=
# shellcheck disable=SC2046 # one word per case
vm_boot_cases r guest_walk $(for cw in $CASES; do echo "${cw%%:*}"; done)
bl=$VM_OUT/boot$VM_BOOTS.log
i=0
for cw in $CASES; do
	c=${cw%%:*} want=${cw#*:}
	i=$((i + 1))
	if ! grep -q "^MOUNTED $c\$" "$bl"; then
		vm_fail "$c: Linux refuses to mount the repaired image: $(grep "^MOUNTFAIL $c " "$bl")"
	elif grep -q "^ERR $c " "$bl"; then
		vm_fail "$c: Linux cannot read part of the repaired image"
		grep "^ERR $c " "$bl" | head -n 5 | sed 's/^/  /'
	elif [ "${want%%=*}" = gone ] && grep -q "^INO6 $c \$" "$bl"; then
		vm_fail "$c: Linux freed inode ${want#gone=} of the repaired image"
	else
		vm_log "$c: Linux mounts and reads the repaired image"
	fi
	vm_fsck "r$i"
done
vm_finish
