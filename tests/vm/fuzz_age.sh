#!/bin/sh
# fuzz_age.sh - the base images of the field-fuzz matrix (bench/fuzz-fields.sh), aged by
# the kernel in one boot, with the same workload on two volumes:
#  - aged: a virtio disk of 128 MiB (our mkfs on the host);
#  - zoned: a zoned null_blk of 512 MiB made in the guest (8 MiB zones, the first 4
#    conventional: the metadata lives there; our mkfs -m in the guest), one device, so
#    that the whole volume is one image file: it is copied block for block to a virtio
#    disk after the unmount (the unwritten part of each sequential zone reads as zeroes).
#    Both fscks check it on the zoned device in the guest first (ours with its write
#    pointers: pass 8).  On the image file the zone state is gone; what the matrix
#    fuzzes is the rest of a zoned volume: sections of 4 segments, logs that never
#    write in place, the blkzoned feature.
# The workload: quota on, zwork's tree (small inline files, sizes past the inode's and
# the direct nodes' pointers, sparse files, a directory of 2300 names over several hash
# levels, hard links, short and long symlinks, inline and node xattrs, special files,
# a deep path), a sparse file with a block past the indirect nodes (a double-indirect
# node), then churn: half the big directory removed, a file rewritten, new ones written.
# Clean unmount; both fscks must find each image clean.  Kept (xz) with their roles
# files under tests/vm/out/fuzz_age.cache/ for bench/fuzz-fields.sh; the manifest of
# every file is /manifest on each volume.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

FEATURES=extra_attr,inode_checksum,flexible_inline_xattr,quota,lost_found
vm_setup fuzz_age "kernel-aged images (one zoned) for the field-fuzz matrix"
vm_all_tools
vm_disk aged 128M
vm_disk zoned 512M
vm_mkfs aged -O "$FEATURES" || vm_fail "mkfs failed"

{ cat "$VM_LIBDIR/zoned_guest.sh"; echo "FEATURES=$FEATURES"; cat <<'GUEST'; } | vm_guest
# age DIR: the workload, on the volume mounted at DIR
age() {
	step "zwork tree on $1"
	zwork tree "$1/t"
	step "a double-indirect node: one block past 2 x 1018 x 1018 + 2959 blocks"
	dd if=/dev/urandom of="$1/dind" bs=4096 count=1 seek=2100000 2>/dev/null
	step "churn"
	i=0
	for f in "$1"/t/bigdir/*; do
		i=$((i + 1))
		[ $((i % 2)) -eq 0 ] && rm -f "$f"
	done
	zwork writefile "$1/t/sizes/rewritten" 300 77
	sync
	zwork writefile "$1/t/sizes/rewritten" 200 78
	zwork writefile "$1/late" 40 79
	# the manifest leaves out the 8 GiB sparse file (reading its holes under TCG takes long)
	mkdir "$1/m"
	mv "$1/t" "$1/late" "$1/m/"
	zwork manifest "$1/m" /tmp/manifest
	cp /tmp/manifest "$1/manifest"
}

zmount aged /mnt/a
age /mnt/a
zumount /mnt/a

step "zoned null_blk: 512 MiB, 8 MiB zones, 4 conventional"
nb=$(znullb fuzz0 512 8 4)
mkfs.f2fs -f -m -O "$FEATURES" "$nb" >/tmp/mkfs.log 2>&1 || { cat /tmp/mkfs.log; zfail "mkfs -m"; }
zmount "$nb" /mnt/z
age /mnt/z
zumount /mnt/z
ourfsck "$nb"
debfsck "$nb"
step "copy the zoned volume to a plain disk"
dd if="$nb" of="$(zdisk zoned)" bs=1M 2>/dev/null
sync
GUEST
vm_boot
vm_fsck aged "after aging"
vm_fsck zoned "after aging"
[ "$VM_FAILED" -eq 0 ] || vm_finish

cache=$VM_ROOT/out/fuzz_age.cache
mkdir -p "$cache" || vm_error "cannot create $cache"
for n in aged zoned; do
	xz -T1 -c "$(vm_img $n)" > "$cache/$n.img.xz.tmp" &&
		mv "$cache/$n.img.xz.tmp" "$cache/$n.img.xz" || vm_error "cannot keep the image $n"
	cat > "$cache/$n.roles" <<ROLES
# roles of $n.img (tests/vm/fuzz_age.sh) for bench/fuzz-fields.sh: role path
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
	vm_log "kept $cache/$n.img.xz ($(du -k "$cache/$n.img.xz" | cut -f1) KiB) and $n.roles"
done
vm_finish
