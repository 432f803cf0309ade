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
	# the tree copied out once: a dump.f2fs run per file costs minutes over hundreds
	"$DUMP" --extract /tree -o "$VM_OUT/tree" "$(vm_img data)" >/dev/null 2>"$VM_OUT/extract.err" ||
		vm_log "dump.f2fs --extract /tree: $(head -1 "$VM_OUT/extract.err")"
	(cd "$VM_OUT/tree" 2>/dev/null && find . -type f -exec sha256sum {} +) |
		sed 's|^\([0-9a-f]*\)  \./|\1 |' | sort > "$VM_OUT/dump.manifest"
	rm -rf "$VM_OUT/tree"
	sort "$VM_OUT/kernel.manifest" > "$VM_OUT/kernel.sorted"
	total=$(wc -l < "$VM_OUT/kernel.sorted")
	bad=$(comm -3 "$VM_OUT/kernel.sorted" "$VM_OUT/dump.manifest" | wc -l)
	comm -3 "$VM_OUT/kernel.sorted" "$VM_OUT/dump.manifest" | head -3 |
		while read -r l; do vm_log "dump differs: $l"; done
	if [ "$total" -lt 100 ] || [ "$bad" -ne 0 ]; then
		vm_fail "dump.f2fs --extract: $bad lines of $total files differ from what the kernel wrote"
	else
		vm_log "dump.f2fs --extract reads all $total regular files as the kernel wrote them"
	fi
fi
vm_finish
