#!/bin/sh
# fuzz_age.sh - the base image of the field-fuzz matrix (bench/fuzz-fields.sh), aged by
# the kernel: quota on, zwork's tree (small inline files, sizes past the inode's and the
# direct nodes' pointers, sparse files, a directory of 2300 names over several hash
# levels, hard links, short and long symlinks, inline and node xattrs, special files,
# a deep path), a sparse file with a block past the indirect nodes (a double-indirect
# node), then churn: half the big directory removed, a file rewritten, new ones written.
# Clean unmount; both fscks must find it clean.  Kept (xz) with its roles file and the
# manifest of every file under tests/vm/out/fuzz_age/ for bench/fuzz-fields.sh.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup fuzz_age "a kernel-aged image for the field-fuzz matrix"
vm_disk aged 128M
vm_mkfs aged -O extra_attr,inode_checksum,flexible_inline_xattr,quota,lost_found ||
	vm_fail "mkfs failed"

vm_guest <<'GUEST'
zmount aged /mnt/a
step "zwork tree"
zwork tree /mnt/a/t
step "a double-indirect node: one block past 2 x 1018 x 1018 + 2959 blocks"
dd if=/dev/urandom of=/mnt/a/dind bs=4096 count=1 seek=2100000 2>/dev/null
step "churn"
i=0
for f in /mnt/a/t/bigdir/*; do
	i=$((i + 1))
	[ $((i % 2)) -eq 0 ] && rm -f "$f"
done
zwork writefile /mnt/a/t/sizes/rewritten 300 77
sync
zwork writefile /mnt/a/t/sizes/rewritten 200 78
zwork writefile /mnt/a/late 40 79
# the manifest leaves out the 8 GiB sparse file (reading its holes under TCG takes long)
mkdir /mnt/a/m
mv /mnt/a/t /mnt/a/late /mnt/a/m/
zwork manifest /mnt/a/m /tmp/manifest
cp /tmp/manifest /mnt/a/manifest
zumount /mnt/a
GUEST
vm_boot
vm_fsck aged "after aging"
[ "$VM_FAILED" -eq 0 ] || vm_finish

cache=$VM_ROOT/out/fuzz_age.cache
mkdir -p "$cache" || vm_error "cannot create $cache"
xz -T1 -c "$(vm_img aged)" > "$cache/aged.img.xz.tmp" &&
	mv "$cache/aged.img.xz.tmp" "$cache/aged.img.xz" || vm_error "cannot keep the image"
cat > "$cache/aged.roles" <<ROLES
# roles of aged.img (tests/vm/fuzz_age.sh) for bench/fuzz-fields.sh: role path
root /
big /m/t/sizes/size-$((13 * 1048576 + 4096 * 3 + 5))
dind /dind
small /m/t/sizes/size-65536
inline /m/t/inline/note-05
sparse /m/t/sparse/holes
dir /m/t/deep
dir_many /m/t/bigdir
dir_inline /m/t/special
symlink /m/t/links/sym-long
symlink_inline /m/t/links/sym-short
hardlink /m/t/links/origin
xattr /m/t/xattr/large
rewritten /m/t/sizes/rewritten
ROLES
vm_log "kept $cache/aged.img.xz ($(du -k "$cache/aged.img.xz" | cut -f1) KiB) and aged.roles"
vm_finish
