#!/bin/sh
# fuzz_verify.sh - a sample of the field-fuzz matrix's repairs, judged by the kernel: each
# case damages a copy of the kernel-aged image of fuzz_age.sh with inject.f2fs, our fsck
# repairs it (-y), both fscks must then find it clean; Linux mounts every repaired copy,
# reads every file against the manifest the kernel wrote (files the repair dropped are
# counted, any file whose contents or attributes changed fails), unmounts, and both fscks
# check it again.  The last five are repairs made from witnesses on kernel-made inodes:
# an inline xattr size and an extra size (the kernel's 36, not the root's 12), an inline
# directory's lost extra-attribute and inline-dentry flags, a quota file number from the
# other superblock copy, a direct node's NAT entry from the node's own block.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

cache=$VM_ROOT/out/fuzz_age.cache
[ -f "$cache/aged.img.xz" ] || vm_skip "no aged image: run tests/vm/fuzz_age.sh first"
vm_setup fuzz_verify "repairs of fuzzed fields, read back by Linux"
INJECT=$top_builddir/tools/inject.f2fs
[ -x "$INJECT" ] || vm_error "inject.f2fs is not built"

CASES='--node --path /m/t/sizes/size-65536 --mb i_links --fuzz add
--node --path /m/t/sizes/size-13643781 --mb i_blocks --fuzz add
--nat 0 --path /m/t/sizes/size-65536 --mb version --fuzz add
--cp 0 --mb valid_block_count --fuzz sub
--node --path /m/t/deep --mb i_links --fuzz ones
--dent --path /m/t/inline/note-05 --mb d_ftype --fuzz lastbit
--dent --path /m/t/links/origin --mb d_hash --fuzz zeroes
--node --path /m/t/bigdir --mb i_pino --fuzz add
--node --path /m/t/deep --mb i_inline_xattr_size --fuzz zeroes
--node --path /m/t/sizes/size-65536 --mb i_extra_isize --fuzz middlebit
--node --path /m/t/special --mb i_inline --val 201
--sb 1 --mb qf_ino --idx 1 --fuzz middlebit
--nat 0 --nid @BIGNODE --mb block_addr --fuzz middlebit'
xz -dc "$cache/aged.img.xz" > "$VM_OUT/aged.base"
# @BIGNODE: the first direct node of the 13 MiB file (its NAT entry is fuzzed)
big=$("$INJECT" --node --path /m/t/sizes/size-13643781 --mb i_nid --idx 0 --get "$VM_OUT/aged.base") ||
	vm_error "no direct node in the aged image"
CASES=$(echo "$CASES" | sed "s/@BIGNODE/$big/")
k=0 disks=
echo "$CASES" > "$VM_OUT/cases"
while read -r args; do
	k=$((k + 1))
	img=$(vm_img "c$k")
	cp --sparse=always "$VM_OUT/aged.base" "$img"
	# shellcheck disable=SC2086
	"$INJECT" $args "$img" > "$VM_OUT/c$k.inject.log" 2>&1 || vm_fail "c$k: inject.f2fs $args failed"
	"$VM_OUR_FSCK" -f -y "$img" > "$VM_OUT/c$k.repair.log" 2>&1
	rc=$?
	vm_log "c$k: $args: fsck -y exit $rc"
	case $rc in 0|1) ;; *) vm_fail "c$k: fsck -y exit $rc"; continue ;; esac
	vm_fsck "c$k" "after the repair"
	vm_attach "c$k"
	disks="$disks c$k"
done < "$VM_OUT/cases"
rm -f "$VM_OUT/aged.base"

{
	echo "disks='$disks'"
	cat <<'GUEST'
for d in $disks; do
	step "mount $d, read every file"
	zmount "$d" "/mnt/$d"
	zwork verify "/mnt/$d/m" "/mnt/$d/manifest" > /tmp/v 2>&1 || true
	sed "s|^|$d: |" /tmp/v
	zumount "/mnt/$d"
done
GUEST
} | vm_guest
vm_boot
for d in $disks; do
	log=$VM_OUT/boot1.log
	missing=$(grep -c "^$d: verify: MISSING" "$log")
	changed=$(grep -c -e "^$d: verify: EXPECTED" -e "^$d: verify: EXTRA" "$log")
	vm_log "$d: $missing files gone (the repair dropped them), $changed changed"
	[ "$changed" -eq 0 ] || vm_fail "$d: files read back differ from the manifest"
	grep -q "^$d: verify: " "$log" || vm_fail "$d: no verify output"
	vm_fsck "$d" "after Linux read it"
done
vm_finish
