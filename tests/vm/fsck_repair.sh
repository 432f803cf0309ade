#!/bin/sh
# fsck_repair.sh - the kernel judges fsck's repairs: corpus cases (tests/images/corpus/f_*) are
# corrupted on the host, repaired by our fsck -y, then mounted by Linux.  The kernel must
# mount each one without complaint and read every regular file with exactly the contents
# our dump.f2fs reads; files the corruption did not touch must keep the base image's
# contents; after unmount both fscks must find the images clean.  Directory repairs are
# also used the ways the kernel depends on them: the name moved to its hash bucket is
# looked up first thing after mount; a directory whose ".." was recreated is renamed to
# another parent and back (the kernel looks ".." up for that); and a directory whose
# slot 0 held a name must not be removable while that name is in it.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

OUR_FSCK=$top_builddir/fsck/fsck.f2fs
DUMP=$top_builddir/tools/dump.f2fs
[ -x "$OUR_FSCK" ] && [ -x "$DUMP" ] || vm_skip "fsck.f2fs or dump.f2fs not built"
command -v python3 >/dev/null 2>&1 || vm_skip "python3 not found"
# Boots of ten disks each: with twenty virtio disks attached the guest never got past
# the firmware within the boot limit (seen three times), with eleven it boots as usual.
# The lost+found cases took the places of f_unreachable_inode (f_lost_found_absent
# reconnects an unreachable inode too), f_extent_stale (the same repair as f_extent_bad)
# and f_sit_count_bad (a SIT count only: nothing the kernel reads of a file).
BATCH1="f_lost_found_absent f_unreachable_dir f_inode_mode_bad f_node_unreadable f_dentry_bad_ino f_lost_found_not_dir f_dir_multi_parent f_block_dup f_dentry_bucket_bad f_dir_dot_missing"
BATCH2="f_dir_dot_occupied f_inode_mode_type_dir f_inline_flag_bogus f_inline_flag_missing f_block_stray f_extent_bad f_root_footer_bad f_inode_footer_bad f_dentry_bitmap_cleared f_lost_found_home"
# issue #13's classes: what the kernel refused or misread before the repair
BATCH3="f_dir_block_ptr_lost f_inode_flags_bad f_inode_inline_flags_kind f_dir_mode_other f_root_extra_bad f_curseg_ssr_used f_curseg_wrong_kind f_sb_primary_cp_payload f_cp_flags_umount_lost f_block_free_stray"
# issue #13's "who is right" pointers: into the metadata area, past the volume's end, and
# onto another file's inode block (both fscks agree after the repair; the kernel decides)
BATCH4="f_block_outside_main f_block_past_end f_data_ptr_to_node"
CASES="$BATCH1 $BATCH2 $BATCH3 $BATCH4"
# disk_of CASE: the disk a case is attached as: d1, d2, ... (a virtio serial holds 20
# bytes, fewer than some case names, and the guest finds its disks by serial)
disk_of() {
	i=0
	for x in $CASES; do
		i=$((i + 1))
		[ "$x" = "$1" ] && { echo "d$i"; return; }
	done
}

vm_setup fsck_repair "corpus images repaired by our fsck, mounted and read by Linux"

base=$VM_OUT/base.img
xz -dc "$top_srcdir/tests/images/base/populated.img.xz" > "$base"
vm_manifest "$base" > "$VM_OUT/base.manifest"
for c in $CASES; do
	# the case's expect files say what fsck's two runs end with; without them nothing
	# below could tell a wrong exit status from a right one
	[ -f "$top_srcdir/tests/images/corpus/$c/expect.1" ] &&
		[ -f "$top_srcdir/tests/images/corpus/$c/expect.2" ] ||
		vm_error "$c: no expect.1 and expect.2 in tests/images/corpus/$c"
	d=$(disk_of "$c")
	vm_case_image "$d" "$c" 64M
	# exit 1, or what the case's expect.1 says (f_lost_found_not_dir: 5, one inode has
	# nowhere to go since a file holds the name lost+found)
	vm_case_repair "$d" "$c"
	vm_manifest "$(vm_img "$d")" > "$VM_OUT/$c.manifest"
	# what the corruption may have touched is what differs from the base; the rest must
	# be byte for byte the base's
	kept=$(LC_ALL=C join -1 2 -2 2 -o 1.1,2.1 "$VM_OUT/base.manifest" "$VM_OUT/$c.manifest" |
	       awk '$1 == $2' | wc -l)
	[ "$kept" -ge 400 ] || vm_fail "$c: only $kept files kept the base image's contents"
done
# the name f_dentry_bucket_bad's corruption gave the misplaced entry (its script prints
# it), and the inode the directory entry names, found without the hash
moved=$(tail -n 1 "$VM_OUT/f_dentry_bucket_bad.setup.log")
case $moved in *[!A-Za-z0-9_]*|'') vm_error "f_dentry_bucket_bad: no moved name in its setup log" ;; esac
moved_ino=$("$top_builddir/tools/inject.f2fs" --lookup "/many/$moved" "$(vm_img "$(disk_of f_dentry_bucket_bad)")") || vm_error "f_dentry_bucket_bad: /many/$moved not in the repaired image"

for batch in "$BATCH1" "$BATCH2" "$BATCH3" "$BATCH4"; do
	vm_detach_all
	pairs=
	for c in $batch; do
		vm_attach "$(disk_of "$c")"
		pairs="$pairs $(disk_of "$c"):$c"
	done
	{
		echo "moved=$moved"
		echo 'for pair in'"$pairs"'; do'
		cat <<'EOS'
	disk=${pair%%:*} d=${pair#*:}
	step "mount the repaired $d"
	zmount "$disk" /mnt/a
	# a fresh mount: nothing is cached, this is the kernel's hashed lookup
	[ "$d" != f_dentry_bucket_bad ] || echo "LOOKUP $d $(stat -c %i "/mnt/a/many/$moved")"
	# one sha256sum for many files: a process per file costs seconds under TCG
	( cd /mnt/a && find . -type f -exec sha256sum {} + |
		sed "s|^\([0-9a-f]*\)  \./|MANIFEST $d \1 /|" )
	ls -la /mnt/a/lost+found | sed "s/^/LPF $d /"
	case $d in
	f_dir_dot_missing)
		# f2fs_rename finds ".." of a directory that changes parent
		mv /mnt/a/docs/deep /mnt/a/deep_moved
		mv /mnt/a/deep_moved /mnt/a/docs/deep
		echo "RENAMED $d" ;;
	f_dir_dot_occupied)
		# f2fs_empty_dir skips slots 0 and 1: "readme" must have left slot 0
		rm -r /mnt/a/docs/deep
		! rmdir /mnt/a/docs 2>/dev/null || zfail "rmdir removed /docs with readme in it"
		echo "NOTEMPTY $d" ;;
	esac
	zumount /mnt/a
done
EOS
	} | vm_guest
	vm_boot
done

for c in $CASES; do
	sed -n "s/^MANIFEST $c \([0-9a-f]*\) \(.*\)\r*$/\1 \2/p" "$VM_CONSOLE" | tr -d '\r' |
		LC_ALL=C sort -k2 > "$VM_OUT/$c.kernel.manifest"
	if ! cmp -s "$VM_OUT/$c.manifest" "$VM_OUT/$c.kernel.manifest"; then
		vm_fail "$c: the kernel reads different files or contents than our dump"
		diff "$VM_OUT/$c.manifest" "$VM_OUT/$c.kernel.manifest" | head -5 | sed 's/^/  /'
	else
		vm_log "$c: the kernel reads all $(wc -l < "$VM_OUT/$c.manifest") files as our dump does"
	fi
	# a case whose rerun is not clean by design (expect.2) is read by the kernel, not
	# judged by the fscks
	if grep -qx 'Exit status is 0' "$top_srcdir/tests/images/corpus/$c/expect.2"; then
		vm_fsck "$(disk_of "$c")"
	else
		vm_log "$c: left unclean by design (its expect.2): fscks not asked"
	fi
done
got=$(sed -n 's/^LOOKUP f_dentry_bucket_bad \([0-9]*\).*/\1/p' "$VM_CONSOLE" | tr -d '\r')
if [ "$got" = "$moved_ino" ]; then
	vm_log "f_dentry_bucket_bad: the kernel looks /many/$moved up as inode $got"
else
	vm_fail "f_dentry_bucket_bad: the kernel's lookup of /many/$moved gave '$got', expected $moved_ino"
fi
grep -q '^RENAMED f_dir_dot_missing' "$VM_CONSOLE" ||
	vm_fail "f_dir_dot_missing: the directory with a recreated \"..\" could not be moved"
grep -q '^NOTEMPTY f_dir_dot_occupied' "$VM_CONSOLE" ||
	vm_fail "f_dir_dot_occupied: the emptiness check did not run"
vm_finish
