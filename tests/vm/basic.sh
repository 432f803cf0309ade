#!/bin/sh
# basic.sh - our mkfs, then the kernel: a varied tree survives a remount
# byte for byte, and the unmounted image is clean for fsck.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup basic "mkfs -> mount -> varied tree -> remount -> sha256 verify -> fsck"
vm_disk data 512M
vm_mkfs data || vm_fail "mkfs failed"

vm_guest <<'EOF'
zwork selftest
step "mount the fresh file system"
zmount data /mnt/a
df -k /mnt/a
step "build the varied tree"
zwork tree /mnt/a/tree
zwork manifest /mnt/a/tree /tmp/manifest
grep '^f ' /tmp/manifest | sed 's/^/MANIFEST /'
zumount /mnt/a
zdrop_caches
step "mount again, verify every file"
zmount data /mnt/a
zwork verify /mnt/a/tree /tmp/manifest
df -k /mnt/a
zumount /mnt/a
EOF
vm_boot
vm_fsck data

# dump.f2fs must read every regular file exactly as the kernel wrote it
DUMP=$top_builddir/tools/dump.f2fs
if [ -x "$DUMP" ]; then
	tr -d '\r' < "$VM_CONSOLE" | sed -n 's/^MANIFEST f [0-7]* [0-9]* [0-9]* \([0-9a-f]*\) [^ ]* \(.*\)$/\1 \2/p' \
		> "$VM_OUT/kernel.manifest"
	total=0 bad=0
	while read -r hash rel; do
		total=$((total + 1))
		got=$("$DUMP" --cat "/tree/$rel" "$(vm_img data)" 2>/dev/null | sha256sum | cut -d' ' -f1)
		[ "$got" = "$hash" ] || { bad=$((bad + 1)); [ $bad -le 3 ] && vm_log "dump differs on /tree/$rel"; }
	done < "$VM_OUT/kernel.manifest"
	if [ "$total" -lt 100 ] || [ "$bad" -ne 0 ]; then
		vm_fail "dump.f2fs --cat: $bad of $total files differ from what the kernel wrote"
	else
		vm_log "dump.f2fs --cat reads all $total regular files as the kernel wrote them"
	fi
fi
vm_finish
