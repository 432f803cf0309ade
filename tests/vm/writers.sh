#!/bin/sh
# writers.sh - the library's writers, checked by the kernel in one boot:
#  - f2fslabel: an image labelled by f2fslabel (UTF-8 beyond ASCII, on top of mkfs's label)
#    mounts, and the kernel reports that label (FS_IOC_GETFSLABEL);
#  - the transaction (tests/images/txn_populate): files (up to 9 MB: two direct nodes) and
#    directories it created, a hard link and removals mount and read back byte for byte
#    (sha256 in the guest against the host's sources; removed names are gone);
#  - SSR: a volume the transaction filled (files in sections of their own until no room
#    was left), every other file then removed, takes a file into the holes of its dirty
#    segments with no free section left (its log in SSR order in the checkpoint); the
#    kernel reads every file and writes more;
# the images clean for both fscks before the guest and after it unmounted them.
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

vm_disk ssr 64M
vm_mkfs ssr || vm_fail "mkfs failed"
for k in 0 1 2 3; do head -c 262144 /dev/urandom > "$SRC/q$k"; done
SSR_ITEMS=
r=0
while [ $r -lt 400 ]; do
	set -- "r$r-0=$SRC/q0" "r$r-1=$SRC/q1" "r$r-2=$SRC/q2" "r$r-3=$SRC/q3"
	ZF2FS_TXN_FRESH_LOGS=1 "$POP" "$(vm_img ssr)" "$@" 2>/dev/null || break
	SSR_ITEMS="$SSR_ITEMS $*"
	r=$((r + 1))
done
[ $r -ge 10 ] && [ $r -lt 400 ] || vm_fail "ssr: the volume took $r rounds of four 256 KiB files"
rm_items=
for item in $SSR_ITEMS; do
	case ${item%%=*} in *-0|*-2) rm_items="$rm_items -${item%%=*}" ;; esac
done
# shellcheck disable=SC2086
"$POP" "$(vm_img ssr)" $rm_items || vm_fail "ssr: the removals failed"
SSR_ITEMS=$(printf '%s\n' $SSR_ITEMS | grep -v -e '-0=' -e '-2=' | tr '\n' ' ')
free_secs() { "$GC" state "$(vm_img ssr)" 2>/dev/null | sed -n 's/^sections: free \([0-9]*\),.*/\1/p'; }
GC=$top_builddir/tools/gc.f2fs
before=$(free_secs)
head -c 3000000 /dev/urandom > "$SRC/holes"
"$POP" "$(vm_img ssr)" "in-holes=$SRC/holes" || vm_fail "ssr: the file for the holes was refused"
SSR_ITEMS="$SSR_ITEMS in-holes=$SRC/holes"
after=$(free_secs)
# logs whose checkpoint position is in SSR order (alloc_type 1)
ssr_logs=$("$top_builddir/tools/dump.f2fs" --json --checkpoint "$(vm_img ssr)" | python3 -c '
import json, sys
c = json.load(sys.stdin)["checkpoint"]
p = [x for x in c["packs"] if x.get("current")][0]
print(sum(1 for a in p["alloc_type"][:6] if a == 1))')
if [ "$before" = 0 ] && [ "$after" = 0 ]; then
	vm_log "ssr: $r rounds filled the volume; no free section before or after the 3 MB file went into holes ($ssr_logs logs in SSR order)"
else
	vm_fail "ssr: free sections $before before, $after after the file (expected 0 and 0)"
fi
vm_fsck ssr "after the transaction"

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
step "mount the volume whose holes took a file, hash every file, write more"
zmount ssr /mnt/c
find /mnt/c -type f | sort | while read -r f; do
	echo "SSRHASH $(sha256sum "$f" | cut -d' ' -f1) ${f#/mnt/c/}"
done
dd if=/dev/zero of=/mnt/c/more bs=1M count=4 conv=fsync 2>/dev/null && echo "SSRMORE ok"
zumount /mnt/c
EOT
vm_boot
vm_fsck lab
vm_fsck txn
vm_fsck ssr

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
tr -d '\r' < "$VM_CONSOLE" | sed -n 's/^SSRHASH //p' | sort -k2 > "$VM_OUT/ssr.guest"
for item in $SSR_ITEMS; do
	echo "$(sha256sum < "${item#*=}" | cut -d' ' -f1) ${item%%=*}"
done | sort -k2 > "$VM_OUT/ssr.host"
if cmp -s "$VM_OUT/ssr.host" "$VM_OUT/ssr.guest" && grep -q '^SSRMORE ok' "$VM_CONSOLE"; then
	vm_log "ssr: the kernel reads all $(wc -l < "$VM_OUT/ssr.host") files and writes 4 MiB more"
else
	vm_fail "ssr: the kernel's files differ from the sources, or it could not write more"
	diff "$VM_OUT/ssr.host" "$VM_OUT/ssr.guest" | head -5
fi
vm_finish
