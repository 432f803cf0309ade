#!/bin/sh
# fsck_repair.sh - the kernel judges fsck's repairs: corpus cases (tests/images/f_*) are
# corrupted on the host, repaired by our fsck -y, then mounted by Linux.  The kernel must
# mount each one without complaint and read every regular file with exactly the contents
# our dump.f2fs reads; files the corruption did not touch must keep the base image's
# contents; after unmount both fscks must find the images clean.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

OUR_FSCK=$top_builddir/fsck/fsck.f2fs
DUMP=$top_builddir/tools/dump.f2fs
[ -x "$OUR_FSCK" ] && [ -x "$DUMP" ] || vm_skip "fsck.f2fs or dump.f2fs not built"
command -v python3 >/dev/null 2>&1 || vm_skip "python3 not found"
CASES="f_unreachable_inode f_unreachable_dir f_inode_mode_bad f_node_unreadable f_dentry_bad_ino f_sit_count_bad f_dir_multi_parent f_block_dup"

vm_setup fsck_repair "corpus images repaired by our fsck, mounted and read by Linux"

# manifest IMG: "sha256 path" of every regular file, as our dump.f2fs reads it
manifest() {
	"$DUMP" --tree "$1" | sed -n 's/^ *path=\([^ ]*\) ino=[0-9]* type=regular.*/\1/p' | sort |
	while read -r p; do
		printf '%s %s\n' "$("$DUMP" --cat "$p" "$1" | sha256sum | cut -d' ' -f1)" "$p"
	done
}

base=$VM_OUT/base.img
xz -dc "$top_srcdir/tests/images/base/populated.img.xz" > "$base"
manifest "$base" > "$VM_OUT/base.manifest"
for c in $CASES; do
	vm_image "$c" 64M
	bash "$top_srcdir/tests/images/make_case.sh" "$c" "$(vm_img "$c")" >"$VM_OUT/$c.setup.log" 2>&1 ||
		vm_error "$c: making the corrupted image failed"
	"$OUR_FSCK" -y "$(vm_img "$c")" >"$VM_OUT/$c.repair.log" 2>&1
	rc=$?
	[ "$rc" -eq 1 ] || vm_fail "$c: fsck -y exit $rc, expected 1 (see $VM_OUT/$c.repair.log)"
	manifest "$(vm_img "$c")" > "$VM_OUT/$c.manifest"
	# what the corruption may have touched is what differs from the base; the rest must
	# be byte for byte the base's
	kept=$(join -1 2 -2 2 -o 1.1,2.1 "$VM_OUT/base.manifest" "$VM_OUT/$c.manifest" |
	       awk '$1 == $2' | wc -l)
	[ "$kept" -ge 400 ] || vm_fail "$c: only $kept files kept the base image's contents"
	vm_attach "$c"
done

{
	echo 'for d in '"$CASES"'; do'
	cat <<'EOS'
	step "mount the repaired $d"
	zmount "$d" /mnt/a
	( cd /mnt/a && find . -type f | sed 's|^\.||' | sort | while read -r p; do
		echo "MANIFEST $d $(sha256sum "/mnt/a$p" | cut -d' ' -f1) $p"; done )
	ls -la /mnt/a/lost+found | sed "s/^/LPF $d /"
	zumount /mnt/a
done
EOS
} | vm_guest
vm_boot

for c in $CASES; do
	sed -n "s/^MANIFEST $c \([0-9a-f]*\) \(.*\)\r*$/\1 \2/p" "$VM_CONSOLE" | tr -d '\r' |
		sort -k2 > "$VM_OUT/$c.kernel.manifest"
	if ! cmp -s "$VM_OUT/$c.manifest" "$VM_OUT/$c.kernel.manifest"; then
		vm_fail "$c: the kernel reads different files or contents than our dump"
		diff "$VM_OUT/$c.manifest" "$VM_OUT/$c.kernel.manifest" | head -5 | sed 's/^/  /'
	else
		vm_log "$c: the kernel reads all $(wc -l < "$VM_OUT/$c.manifest") files as our dump does"
	fi
	vm_fsck "$c"
done
vm_finish
