#!/bin/sh
# inode_checks.sh - the inode checks Linux added after 6.1, judged by Linux itself: for each
# corpus case of such a check, the corrupted image (tests/images/corpus/f_*, made on the
# host) and a copy repaired by our fsck -y are mounted by the newest kernel.  On the
# corrupted one the kernel must refuse what the check is about: a stat or read of some
# file fails with EFSCORRUPTED ("Structure needs cleaning") and the kernel logs why (an
# ACL it cannot parse fails a non-owner's open with EINVAL instead); on the
# repaired one nothing fails, every file the kernel can read (encrypted ones are read
# without their key only as names) has the contents our dump.f2fs reads, and both fscks
# find it clean after the unmount.  A check whose corruption Linux took without a word
# would be no check of Linux's; a repair Linux still refused would be no repair.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

OUR_FSCK=$top_builddir/fsck/fsck.f2fs
DUMP=$top_builddir/tools/dump.f2fs
[ -x "$OUR_FSCK" ] && [ -x "$DUMP" ] || vm_skip "fsck.f2fs or dump.f2fs not built"
# compression checks from 6.5, the device-alias flag from 6.13
CASES="f_compr_algorithm_bad f_compr_level_bad f_compr_dir_fields_bad f_inline_data_encrypted
f_inode_device_alias_stray f_inode_xattr_size_large f_xattr_nid_bad f_acl_bad"

vm_setup inode_checks "corrupted inodes refused by Linux, our fsck's repairs read by it"
[ "$VM_GC_KERNEL" = 6.1 ] && vm_skip "the checks are those of Linux 6.5 to 7.3 (run with ZF2FS_VM_KERNEL=newest)"

i=0
for c in $CASES; do
	i=$((i + 1))
	vm_case_image "b$i" "$c" 64M
	cp "$(vm_img "b$i")" "$(vm_img "r$i")"
	vm_case_repair "r$i" "$c"
	vm_manifest "$(vm_img "r$i")" >"$VM_OUT/$c.manifest"
done

# guest: each disk mounted, every name stat'ed and every regular file read; the errors and
# the kernel's f2fs lines of that mount printed with the disk's name
guest_walk() {
	cat <<'EOS'
for pair in $PAIRS; do
	disk=${pair%%:*} d=${pair#*:}
	step "mount $disk ($d)"
	k0=$(dmesg | wc -l)	# the kernel log stays whole for the host's check
	zmount "$disk" /mnt/a
	( cd /mnt/a && find . -exec stat -c '%i %s' {} + >/dev/null 2>/tmp/err.stat || true
	  find . -type f | while IFS= read -r f; do
		if s=$(sha256sum <"$f" 2>>/tmp/err.read); then
			echo "MANIFEST $d ${s%% *} ${f#.}"
		fi
	  done )
	# an ACL is read for access by anyone but the owner: f_acl_bad's files are read by
	# another user, whom their mode bits let read them
	if [ "$d" = f_acl_bad ]; then
		mkdir -p /etc
		grep -q '^zu:' /etc/passwd 2>/dev/null || echo 'zu:x:1000:1000::/tmp:/bin/sh' >>/etc/passwd
		for f in onemeg small.txt; do
			su -s /bin/sh zu -c "cat /mnt/a/$f" >/dev/null 2>>/tmp/err.user ||
				echo "(/$f read as uid 1000)" >>/tmp/err.user
		done
	fi
	cat /tmp/err.stat /tmp/err.read /tmp/err.user 2>/dev/null | sed "s/^/ERR $d /"
	rm -f /tmp/err.stat /tmp/err.read /tmp/err.user
	zumount /mnt/a
	dmesg | tail -n +$((k0 + 1)) | grep -i f2fs | sed "s/^/KLOG $d /"
done
EOS
}

# boot 1: the corrupted images; the kernel's complaints are what is being tested
VM_ALLOW_KLOG='F2FS-fs|f2fs'
# shellcheck disable=SC2086 # one word per case
vm_boot_cases b guest_walk $CASES
bl=$VM_OUT/boot$VM_BOOTS.log
for c in $CASES; do
	why=
	if [ "$c" = f_acl_bad ]; then
		# an ACL Linux cannot parse fails the permission check itself (EINVAL), without
		# a log line: both files, read by uid 1000
		n=$(grep -c "^ERR $c .*can't open.*Invalid argument" "$bl")
		[ "$n" -ge 2 ] && why="reads by uid 1000 fail with EINVAL (the ACL is not parsed; nothing logged)"
	else
		n=$(grep -c "^ERR $c .*Structure needs cleaning" "$bl")
		# the kernel's reason: its inode sanity checks (sanity_check_inode and the
		# compression and nid-range checks it calls) name themselves
		why=$(grep -m 1 "^KLOG $c .*\(sanity_check\|check_nid_range\)" "$bl" | sed 's/^KLOG [^ ]* \[ *[0-9.]*\] //')
	fi
	if [ "$n" -ge 1 ] && [ -n "$why" ]; then
		vm_log "$c: Linux refuses the corrupted inode ($n failed accesses): $why"
	else
		vm_fail "$c: Linux took the corrupted image without refusing an access for an inode check ($n failed accesses)"
		grep "^ERR $c \|^KLOG $c " "$bl" | head -n 5 | sed 's/^/  /'
	fi
done

# boot 2: the repaired images; any refusal or f2fs error fails
VM_ALLOW_KLOG=
# shellcheck disable=SC2086 # one word per case
vm_boot_cases r guest_walk $CASES
bl=$VM_OUT/boot$VM_BOOTS.log
i=0
for c in $CASES; do
	i=$((i + 1))
	# an encrypted file without its key is unreadable to anyone: not a refusal
	if grep "^ERR $c " "$bl" | grep -qv 'Required key not available'; then
		vm_fail "$c: Linux refuses part of the repaired image"
		grep "^ERR $c " "$bl" | grep -v 'Required key not available' | head -n 5 | sed 's/^/  /'
	fi
	sed -n "s/^MANIFEST $c \([0-9a-f]*\) \(.*\)$/\1 \2/p" "$bl" |
		LC_ALL=C sort -k2 >"$VM_OUT/$c.kernel.manifest"
	# the files the kernel read (names of encrypted directories are ciphertext to it, and
	# their files unreadable without the key): each as our dump reads it
	n=$(wc -l <"$VM_OUT/$c.kernel.manifest")
	diffs=$(LC_ALL=C join -1 2 -2 2 -o 1.1,2.1,0 "$VM_OUT/$c.manifest" "$VM_OUT/$c.kernel.manifest" |
		awk '$1 != $2' | head -n 3)
	both=$(LC_ALL=C join -1 2 -2 2 "$VM_OUT/$c.manifest" "$VM_OUT/$c.kernel.manifest" | wc -l)
	if [ -n "$diffs" ] || [ "$both" -lt 20 ]; then
		vm_fail "$c: the kernel's reads ($n files, $both shared with our dump's) differ from our dump's"
		echo "$diffs" | sed 's/^/  /'
	else
		vm_log "$c: Linux reads the repaired image: $n files, the $both our dump also names equal"
	fi
	vm_fsck "r$i"
done
vm_finish
