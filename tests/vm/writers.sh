#!/bin/sh
# writers.sh - the library's writers, checked by the kernel in one boot:
#  - f2fslabel: an image labelled by f2fslabel (UTF-8 beyond ASCII, on top of mkfs's label)
#    mounts, and the kernel reports that label (FS_IOC_GETFSLABEL);
#  - the transaction (tests/images/txn_populate): files (up to 9 MB: two direct nodes) and
#    directories it created, a hard link and removals mount and read back byte for byte
#    (sha256 in the guest against the host's sources; removed names are gone);
# both images clean for both fscks after the guest unmounted them.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

LABEL_TOOL=$top_builddir/tools/f2fslabel
POP=$top_builddir/tests/images/txn_populate
[ -x "$LABEL_TOOL" ] || vm_error "f2fslabel is not built: $LABEL_TOOL"
[ -x "$POP" ] || vm_error "txn_populate is not built: $POP (make check builds it)"

vm_setup writers "f2fslabel + txn images -> mount -> label ioctl, sha256 -> fsck"
WANT="zf2fs wörld 🎉"
vm_disk lab 128M
vm_mkfs lab -l before || vm_fail "mkfs failed"
"$LABEL_TOOL" "$(vm_img lab)" "$WANT" || vm_fail "f2fslabel failed"

vm_disk txn 256M
vm_mkfs txn -O extra_attr,inode_checksum,sb_checksum || vm_fail "mkfs failed"
SRC=$VM_OUT/src
mkdir -p "$SRC"
ITEMS="d1/ d1/d2/"
i=0
for n in 0 1 4096 5000 123456 1000000 9000000; do
	head -c $n /dev/urandom > "$SRC/f$n"
	ITEMS="$ITEMS top$n=$SRC/f$n d1/d2/deep-name-$n=$SRC/f$n"
done
for i in $(seq 1 100); do
	ITEMS="$ITEMS d1/many-$i=$SRC/f1"
done
# shellcheck disable=SC2086
"$POP" "$(vm_img txn)" $ITEMS || vm_fail "txn_populate failed"
# a second transaction: a hard link, removals of files and of an empty directory
"$POP" "$(vm_img txn)" empty/ || vm_fail "txn_populate failed"
"$POP" "$(vm_img txn)" d1/hard@top5000 -top5000 -d1/many-1 -empty || vm_fail "txn_populate failed"
ITEMS=$(printf '%s\n' $ITEMS | grep -v -e '^top5000=' -e '^d1/many-1=' | tr '\n' ' ')
ITEMS="$ITEMS d1/hard=$SRC/f5000"
vm_fsck txn "after the transaction"

vm_guest <<'EOT'
step "mount the relabelled volume, ask the kernel for its label"
zmount lab /mnt/a
zwork label /mnt/a
zumount /mnt/a
step "mount the volume the transaction wrote, hash every file"
zmount txn /mnt/b
find /mnt/b -type f | sort | while read -r f; do
	echo "HASH $(sha256sum "$f" | cut -d' ' -f1) ${f#/mnt/b/}"
done
zumount /mnt/b
EOT
vm_boot
vm_fsck lab
vm_fsck txn

got=$(tr -d '\r' < "$VM_CONSOLE" | sed -n 's/^label: "\(.*\)"$/\1/p' | head -1)
if [ "$got" = "$WANT" ]; then
	vm_log "the kernel reports the label f2fslabel set: \"$got\""
else
	vm_fail "the kernel reports label \"$got\", f2fslabel set \"$WANT\""
fi

tr -d '\r' < "$VM_CONSOLE" | sed -n 's/^HASH //p' | sort -k2 > "$VM_OUT/guest.hashes"
: > "$VM_OUT/host.hashes"
for item in $ITEMS; do
	case $item in
	*=*) echo "$(sha256sum < "${item#*=}" | cut -d' ' -f1) ${item%%=*}" >> "$VM_OUT/host.hashes" ;;
	esac
done
sort -k2 -o "$VM_OUT/host.hashes" "$VM_OUT/host.hashes"
if cmp -s "$VM_OUT/host.hashes" "$VM_OUT/guest.hashes"; then
	vm_log "the kernel reads all $(wc -l < "$VM_OUT/host.hashes") files the transaction wrote"
else
	vm_fail "the kernel's files differ from the transaction's sources"
	diff "$VM_OUT/host.hashes" "$VM_OUT/guest.hashes" | head -5
fi
vm_finish
