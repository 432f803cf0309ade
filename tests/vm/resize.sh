#!/bin/sh
# resize.sh - resize.f2fs on kernel-aged volumes, judged by Linux.
#
# Boot 1 ages four volumes made by our mkfs: g2 (1 GiB), g10 (256 MiB) and g64 (64 GiB,
# sparse) get zwork's
# tree plus files; sh (1 GiB) is filled to 70% with 1 MiB files, two of every three
# then removed, so that live files sit all over it.  A sha256 manifest of each goes to a
# small raw disk.  On the host: g2's image grows to 2 GiB, g10's to 2560 MiB and g64's to
# 128 GiB (all
# past what their SIT and SSA cover: the metadata areas are rebuilt), sh shrinks to
# 448 MiB below its last used section and its image is cut to that size.  Boot 2:
# Linux mounts each, every file reads back with its sha256, df shows the new size,
# 64 MiB more can be written and read back; both fscks clean after unmount.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

RESIZE=$top_builddir/tools/resize.f2fs
DUMP=$top_builddir/tools/dump.f2fs
[ -x "$RESIZE" ] || vm_skip "tools/resize.f2fs is not built"

vm_setup resize "kernel-aged volumes grown 2x and 10x and shrunk; Linux mounts and reads them"
vm_disk g2 1G
vm_disk g10 256M
vm_disk sh 1G
vm_disk g64 64G
vm_disk mf 16M
for d in g2 g10 sh g64; do vm_mkfs $d || vm_fail "mkfs $d failed"; done

vm_guest <<'EOF'
mkdir -p /tmp/m
for d in g2 g10 g64; do
	zmount $d /mnt/$d
	step "$d: tree and files"
	zwork tree /mnt/$d/t
	zwork fill /mnt/$d/fill 40M 256 7
	zwork manifest /mnt/$d /tmp/m/$d
	zumount /mnt/$d
done
zmount sh /mnt/sh
step "sh: filled to 70%, two of every three files removed"
zwork fill /mnt/sh/fill 70% 1024 9
i=0
for f in /mnt/sh/fill/*; do
	i=$((i + 1))
	[ $((i % 3)) -ne 0 ] && rm -f "$f"
done
sync
zwork manifest /mnt/sh /tmp/m/sh
zumount /mnt/sh
(cd /tmp && tar cf "$(zdisk mf)" m)
EOF
vm_boot
[ "$VM_FAILED" -eq 0 ] || vm_finish
for d in g2 g10 sh g64; do vm_fsck $d "after aging"; done

# last_used IMG: the highest main-area segment holding a valid block
last_used() {
	"$DUMP" --json --segments "$1" | python3 -c '
import json, sys
s = json.load(sys.stdin)["segments"]
print(max(e["segno"] for e in s["list"] if e["valid_blocks"]))'
}

grow() {
	img=$(vm_img "$1")
	truncate -s "$2" "$img"
	if "$RESIZE" "$img" >"$VM_OUT/$1.resize" 2>&1 && grep -q "metadata areas rebuilt" "$VM_OUT/$1.resize"; then
		vm_log "$1 grown to $2: $(tr '\n' ' ' <"$VM_OUT/$1.resize")"
	else
		vm_fail "$1: resize to $2: $(cat "$VM_OUT/$1.resize")"
	fi
}
grow g2 2G
grow g10 2560M
# 64 -> 128 GiB: mkfs's NAT for the new size would be smaller, so the old NAT size
# stays and the SIT bitmap moves out of the CP block into cp_payload
grow g64 128G

img=$(vm_img sh)
last=$(last_used "$img")
if [ "$last" -lt 224 ]; then
	vm_fail "sh: the aged volume's last used segment is $last, not past the 448 MiB cut"
fi
if "$RESIZE" -t $((448 * 2048)) "$img" >"$VM_OUT/sh.resize" 2>&1 && grep -q "^shrunk" "$VM_OUT/sh.resize"; then
	vm_log "sh shrunk to 448 MiB (last used segment was $last): $(tr '\n' ' ' <"$VM_OUT/sh.resize")"
	truncate -s 448M "$img"
else
	vm_fail "sh: shrink: $(cat "$VM_OUT/sh.resize")"
fi
for d in g2 g10 sh g64; do vm_fsck $d "after resize.f2fs"; done

vm_detach_all
for d in g2 g10 sh g64 mf; do vm_attach $d; done
vm_guest <<'EOF'
(cd /tmp && tar xf "$(zdisk mf)")
for d in g2 g10 sh g64; do
	step "$d: mount the resized volume, verify every file"
	zmount $d /mnt/$d
	zwork verify /mnt/$d /tmp/m/$d
	echo "ZDF $d $(df -k /mnt/$d | tail -1)"
	step "$d: 64 MiB more"
	zwork writefile /mnt/$d/more 65536 31
	sync
	zdrop_caches
	zwork checkfile /mnt/$d/more 65536 31
	zumount /mnt/$d
done
EOF
vm_boot
log=$VM_OUT/boot2.log
# df's size in KiB against the superblock's: block_count less what lies before segment 0
for d in g2 g10 sh g64; do
	kib=$(sed -n "s/^ZDF $d [^ ]* *\([0-9]*\) .*/\1/p" "$log" | head -1)
	sb=$(python3 - "$(vm_img $d)" <<'PY'
import struct, sys
with open(sys.argv[1], 'rb') as f:
    f.seek(1024); sb = f.read(3072)
blocks = struct.unpack_from('<Q', sb, 36)[0]
seg0 = struct.unpack_from('<I', sb, 44 + 4 * 7)[0]
print((blocks - seg0) * 4)
PY
)
	if [ -n "$kib" ] && [ "$kib" = "$sb" ]; then
		vm_log "$d: df shows $kib KiB, the new size"
	else
		vm_fail "$d: df shows '$kib' KiB, the superblock says $sb"
	fi
done
for d in g2 g10 sh g64; do vm_fsck $d "after Linux wrote to the resized volume"; done
vm_finish
