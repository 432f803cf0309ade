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
vm_finish
