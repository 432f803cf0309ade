#!/bin/sh
# blocks16k.sh - the judge of 16 KiB blocks: Debian's arm64 kernel with 16 KiB pages
# (linux-image-arm64-16k, fetched by tests/vm/fetch-kernel.sh --flavour arm64-16k) under
# qemu-system-aarch64.  Since Linux 6.7 F2FS's block size is the page size, so this kernel
# mounts only volumes of 16 KiB blocks.  The scenario proves the bench itself: the guest
# runs with 16 KiB pages (KernelPageSize of its own mappings), the cross-built zwork writes
# and verifies a tree there (on tmpfs), and a volume of our mkfs's 4 KiB blocks is refused
# with the kernel's reason (log_blocksize 12 where it supports only 14) and left unchanged.
# zf2fs-tools makes no 16 KiB volume yet; the scenario is where they will be judged.
ZF2FS_VM_KERNEL=${ZF2FS_VM_KERNEL:-newest-arm64-16k}
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup blocks16k "arm64 with 16 KiB pages: the bench boots, 4 KiB-block volumes refused"
[ "$VM_ARCH" = arm64 ] || vm_skip "needs the arm64-16k kernel (ZF2FS_VM_KERNEL=newest-arm64-16k)"
vm_disk b4k 256M
vm_mkfs b4k -O extra_attr,inode_checksum
sum=$(md5sum <"$(vm_img b4k)")

# the kernel's refusal of the 4 KiB volume is what is tested
VM_ALLOW_KLOG='Invalid log_blocksize|Can.t find valid F2FS filesystem|Magic Mismatch'
vm_guest <<'EOF'
step "page size"
ps=$(sed -n 's/^KernelPageSize: *\([0-9]*\) kB$/\1/p' /proc/self/smaps | sort -u)
[ "$ps" = 16 ] || zfail "KernelPageSize is '$ps' kB, not 16"
echo "info: $(uname -m), Linux $(uname -r), pages of $ps KiB"
step "zwork on tmpfs"
mkdir -p /tmp/w
zwork tree /tmp/w/t
zwork manifest /tmp/w/t /tmp/w.manifest
zwork verify /tmp/w/t /tmp/w.manifest
step "a volume of 4 KiB blocks"
dev=$(zdisk b4k)
mkdir -p /mnt/a
if mount -t f2fs "$dev" /mnt/a 2>/tmp/mount.err; then
	zfail "Linux with 16 KiB pages mounted a volume of 4 KiB blocks"
fi
dmesg | grep -q 'Invalid log_blocksize (12), supports only 14' ||
	zfail "no refusal of log_blocksize 12 in the kernel's log: $(dmesg | grep -i f2fs | tail -n 3)"
echo "info: 4 KiB blocks refused: $(dmesg | grep -m 1 'Invalid log_blocksize')"
EOF
vm_boot
[ "$(md5sum <"$(vm_img b4k)")" = "$sum" ] || vm_fail "the refused volume changed"
vm_fsck b4k
vm_finish
