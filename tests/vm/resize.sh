#!/bin/sh
# resize.sh - resize.f2fs on kernel-aged volumes, judged by Linux.
#
# Boot 1 ages four volumes made by our mkfs: g2 (1 GiB) and g10 (256 MiB) get zwork's
# tree plus files, g64 (64 GiB, sparse) the files; sh (1 GiB) is filled to 70% with
# 1 MiB files, two of every three then removed, so that live files sit all over it.  A
# sha256 manifest of each goes to a small raw disk.  On the host: g2's image grows to 2 GiB, g10's to 2560 MiB and g64's to
# 128 GiB (all
# past what their SIT and SSA cover: the metadata areas are rebuilt), sh shrinks to
# 448 MiB below its last used section, its metadata areas fitted to the new size (the
# main area starts where mkfs puts it for 448 MiB), and its image is cut to that size.  Boot 2:
# Linux mounts each, every file reads back with its sha256, df shows the new size,
# 16 MiB more can be written and read back; both fscks clean after unmount.
# md is a two-device volume (our mkfs -c, 128 MiB + 128 MiB, aged by Linux like g10):
# its devices (both) are named in the superblock by short host paths (symlinks to the images;
# the guest makes the same symlinks to its disks, which the kernel follows), its second
# image grows 10x, past its SIT and SSA, so segment 0 moves and the device list changes;
# Linux mounts it in boot 2 like the others.
# ms is a two-device volume made 64 MiB + 1100 MiB, files written by Linux; its second
# device shrinks to 64 MiB, the metadata areas fitted to the new size (the main area and
# the device list end as mkfs makes them for 64 + 64 MiB); Linux mounts it in boot 2.
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
vm_disk md0 128M
vm_disk md1 128M
vm_disk ms0 64M
vm_disk ms1 1100M
for d in g2 g10 sh g64; do vm_mkfs $d || vm_fail "mkfs $d failed"; done
# the superblock holds the device paths: short ones, the same on the host and the guest
MD=/tmp/zrg$$
rm -rf "$MD"; mkdir -p "$MD"
trap 'rm -rf "$MD"' EXIT
ln -s "$(vm_img md0)" "$MD/0"; ln -s "$(vm_img md1)" "$MD/1"
"$VM_MKFS" -f -c "$MD/1" "$MD/0" >"$VM_OUT/md.mkfs.log" 2>&1 || vm_fail "mkfs -c md failed"
ln -s "$(vm_img ms0)" "$MD/s0"; ln -s "$(vm_img ms1)" "$MD/s1"
"$VM_MKFS" -f -c "$MD/s1" "$MD/s0" >"$VM_OUT/ms.mkfs.log" 2>&1 || vm_fail "mkfs -c ms failed"

# md_fsck WHEN [NAME PATH]: both fscks on a two-device volume (md unless named), by the
# paths it records
md_fsck() {
	n=${2:-md} p=${3:-$MD/0}
	if "$top_builddir/fsck/fsck.f2fs" -f -n "$p" >"$VM_OUT/$n.fsck.log" 2>&1; then
		vm_log "$n: our fsck $1: clean"
	else
		vm_fail "$n: our fsck $1: $(tail -n 5 "$VM_OUT/$n.fsck.log")"
	fi
	[ -x "$VM_HOST_FSCK" ] || return 0
	"$VM_HOST_FSCK" --dry-run "$p" >"$VM_OUT/$n.ref.log" 2>&1
	rc=$?
	problems=$(vm_fsck_problems "$VM_OUT/$n.ref.log")
	if [ "$rc" -ne 0 ] || [ -n "$problems" ]; then
		vm_fail "$n: $VM_HOST_FSCK $1: exit $rc: $problems $(tail -n 5 "$VM_OUT/$n.ref.log")"
	else
		vm_log "$n: $VM_HOST_FSCK $1: clean"
	fi
}

{ echo "MD=$MD"; cat <<'EOF'; } | vm_guest
mkdir -p "$MD"; ln -s "$(zdisk md0)" "$MD/0"; ln -s "$(zdisk md1)" "$MD/1"
ln -s "$(zdisk ms0)" "$MD/s0"; ln -s "$(zdisk ms1)" "$MD/s1"
zmount md0 /mnt/md
step "md: tree and files on two devices"
zwork tree /mnt/md/t
zwork fill /mnt/md/fill 40M 256 7
zwork manifest /mnt/md /tmp/m.md
zumount /mnt/md
zmount ms0 /mnt/ms
step "ms: files on two devices"
zwork fill /mnt/ms/fill 32M 256 5
zwork manifest /mnt/ms /tmp/m.ms
zumount /mnt/ms
mkdir -p /tmp/m
for d in g2 g10 g64; do
	zmount $d /mnt/$d
	step "$d: tree and files"
	# g64's case is the layout (its SIT bitmap moves to cp_payload): files alone
	[ $d = g64 ] || zwork tree /mnt/$d/t
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
mv /tmp/m.md /tmp/m/md
mv /tmp/m.ms /tmp/m/ms
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
# main_at IMG: the superblock's main_blkaddr
main_at() { "$DUMP" "$1" 2>/dev/null | awk '$1 == "main_blkaddr" { print $2; exit }'; }
truncate -s 448M "$VM_OUT/fresh448.img"
"$VM_MKFS" -f -q "$VM_OUT/fresh448.img" >/dev/null 2>&1 || vm_fail "mkfs of a 448 MiB image failed"
want_main=$(main_at "$VM_OUT/fresh448.img")
rm -f "$VM_OUT/fresh448.img"
if "$RESIZE" -t $((448 * 2048)) "$img" >"$VM_OUT/sh.resize" 2>&1 && grep -q "^shrunk" "$VM_OUT/sh.resize" &&
   grep -q "^metadata areas fitted" "$VM_OUT/sh.resize" && [ "$(main_at "$img")" = "$want_main" ]; then
	vm_log "sh shrunk to 448 MiB (last used segment was $last), its metadata areas fitted (main area at block $want_main, as mkfs puts it): $(tr '\n' ' ' <"$VM_OUT/sh.resize")"
	truncate -s 448M "$img"
else
	vm_fail "sh: shrink: $(cat "$VM_OUT/sh.resize"); main area at block $(main_at "$img"), mkfs's at $want_main"
fi
for d in g2 g10 sh g64; do vm_fsck $d "after resize.f2fs"; done
md_fsck "after aging"
truncate -s 1280M "$(vm_img md1)"
if "$RESIZE" "$MD/0" >"$VM_OUT/md.resize" 2>&1 && grep -q "metadata areas rebuilt" "$VM_OUT/md.resize"; then
	vm_log "md: second device grown to 1280 MiB: $(tr '\n' ' ' <"$VM_OUT/md.resize")"
else
	vm_fail "md: resize: $(cat "$VM_OUT/md.resize")"
fi
md_fsck "after resize.f2fs"
md_fsck "after aging" ms "$MD/s0"
truncate -s 64M "$VM_OUT/fresh_s0.img" "$VM_OUT/fresh_s1.img"
"$VM_MKFS" -f -q -c "$VM_OUT/fresh_s1.img" "$VM_OUT/fresh_s0.img" >/dev/null 2>&1 ||
	vm_fail "mkfs -c of 64 + 64 MiB images failed"
want_main=$(main_at "$VM_OUT/fresh_s0.img")
rm -f "$VM_OUT/fresh_s0.img" "$VM_OUT/fresh_s1.img"
if "$RESIZE" -t $((64 * 2048)) "$MD/s0" >"$VM_OUT/ms.resize" 2>&1 && grep -q "^shrunk" "$VM_OUT/ms.resize" &&
   grep -q "^metadata areas fitted" "$VM_OUT/ms.resize" && [ "$(main_at "$MD/s0")" = "$want_main" ]; then
	vm_log "ms: second device shrunk to 64 MiB, metadata areas fitted (main area at block $want_main, as mkfs puts it for 64 + 64 MiB): $(tr '\n' ' ' <"$VM_OUT/ms.resize")"
	truncate -s 64M "$(vm_img ms1)"
else
	vm_fail "ms: shrink: $(cat "$VM_OUT/ms.resize"); main area at block $(main_at "$MD/s0"), mkfs's at $want_main"
fi
md_fsck "after resize.f2fs" ms "$MD/s0"

vm_detach_all
for d in g2 g10 sh g64 mf md0 md1 ms0 ms1; do vm_attach $d; done
{ echo "MD=$MD"; cat <<'EOF'; } | vm_guest
(cd /tmp && tar xf "$(zdisk mf)")
mkdir -p "$MD"; ln -s "$(zdisk md0)" "$MD/0"; ln -s "$(zdisk md1)" "$MD/1"
ln -s "$(zdisk ms0)" "$MD/s0"; ln -s "$(zdisk ms1)" "$MD/s1"
for d in g2 g10 sh g64 md ms; do
	step "$d: mount the resized volume, verify every file"
	case $d in md|ms) zmount ${d}0 /mnt/$d ;; *) zmount $d /mnt/$d ;; esac
	zwork verify /mnt/$d /tmp/m/$d
	echo "ZDF $d $(df -k /mnt/$d | tail -1)"
	step "$d: 16 MiB more"
	zwork writefile /mnt/$d/more 16384 31
	sync
	zdrop_caches
	zwork checkfile /mnt/$d/more 16384 31
	zumount /mnt/$d
done
EOF
vm_boot
log=$VM_OUT/boot2.log
# df's size in KiB against the superblock's: block_count less what lies before segment 0
for d in g2 g10 sh g64 md ms; do
	img=$(vm_img $d)
	case $d in md|ms) img=$(vm_img ${d}0) ;; esac
	kib=$(sed -n "s/^ZDF $d [^ ]* *\([0-9]*\) .*/\1/p" "$log" | head -1)
	sb=$(python3 - "$img" <<'PY'
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
md_fsck "after Linux wrote to the resized volume"
md_fsck "after Linux wrote to the resized volume" ms "$MD/s0"
vm_finish
