#!/bin/sh
# sload.sh - sload.f2fs checked by the kernel in one boot: a varied tree (files of 0 B to
# 5 MiB, sparse files of 20 MiB, 1 GiB and 9 GiB (double indirect nodes; the guest reads
# their sizes and data blocks, then removes them: hashing their holes would take minutes), hard links,
# short and long symlinks, a fifo, a socket, devices, setuid/setgid/sticky modes, other
# owners, xattrs inline and in an xattr node, a directory of 400 entries) is loaded on the host with -P -T; Linux mounts the
# image and every path matches the source's sha256 manifest (type, mode, links, size,
# contents, symlink target, device numbers, xattrs) and its owner and times; then the kernel
# writes more (new files, appends, an unlink, a removed directory), unmounts, and both
# fscks find the image clean.  Twice in the boot: on a volume with the default features
# and on one with extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,
# sb_checksum,quota,project_quota.  A third volume (extra_attr, quota) is loaded from a small
# Android-like tree with -t /system -C fs_config and -s file_contexts (-s when the build has
# libselinux): the kernel sees fs_config's modes and owners and the security.capability and
# security.selinux xattrs the build gives (a host copy of the tree that has them is the
# manifest), writes a file, and both fscks find it clean.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

SLOAD=$top_builddir/tools/sload.f2fs
[ -x "$SLOAD" ] || vm_error "sload.f2fs is not built: $SLOAD"
[ "$(id -u)" = 0 ] || vm_skip "needs root on the host for mknod and chown in the source tree"

vm_setup sload "sload.f2fs tree -> mount -> manifest, owners, times -> kernel writes -> fsck"
T=1700000017
SRC=$VM_OUT/src
mkdir -p "$SRC/dir/sub" "$SRC/many" "$SRC/sticky"
: > "$SRC/size0"
printf 'A' > "$SRC/size1"
for n in 3000 4096 9000; do head -c $n /dev/urandom > "$SRC/size$n"; done
head -c $((5 * 1024 * 1024)) /dev/urandom > "$SRC/size5M"
truncate -s 20M "$SRC/sparse20M"
for off in 0 600 2500 4000; do
	head -c 40960 /dev/urandom | dd of="$SRC/sparse20M" bs=4096 seek=$off conv=notrunc status=none
done
ln "$SRC/size3000" "$SRC/dir/hardlink"
ln "$SRC/size5M" "$SRC/dir/sub/big-link"
ln -s size3000 "$SRC/short-symlink"
ln -s "$(printf 'long/%.0s' $(seq 60))" "$SRC/long-symlink"
ln -s "$(printf 'v%.0s' $(seq 3900))" "$SRC/block-symlink"
mkfifo "$SRC/fifo"
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$SRC/socket" ||
	vm_error "cannot make a socket"
mknod "$SRC/chardev" c 1 3
mknod "$SRC/blockdev" b 8 1
mknod "$SRC/blockdev-big" b 259 300000
for i in $(seq 1 400); do printf '%d' "$i" > "$SRC/many/file-with-a-longer-name-$i"; done
chmod 4755 "$SRC/size4096"
chmod 2750 "$SRC/dir"
chmod 1777 "$SRC/sticky"
chmod 6711 "$SRC/size9000"
chown 1234:5678 "$SRC/size3000" "$SRC/dir"
chown -h 42:43 "$SRC/short-symlink"
# xattrs (the manifest digests them): inline, one spilling into an xattr node, on a directory
python3 -c 'import os,sys
s=sys.argv[1]
os.setxattr(s + "/size1", "user.small", b"hello")
os.setxattr(s + "/size3000", "trusted.t", b"\x01\x02")
os.setxattr(s + "/size5M", "user.big", b"b" * 3000)
os.setxattr(s + "/dir", "security.label", b"system_u:object_r:thing:s0")' "$SRC" ||
	vm_error "cannot set xattrs in the source tree"

"$VM_ZWORK" manifest "$SRC" "$VM_OUT/manifest" >/dev/null || vm_error "zwork manifest failed on the host"
# owner and times of every path, as the guest's busybox stat prints them
(cd "$SRC" && find . | LC_ALL=C sort | while read -r p; do
	echo "$(stat -c '%u %g' "$p") $T $T $p"
done) > "$VM_OUT/owners.want"
# two big sparse files, out of the manifest (hashing gigabytes of holes under TCG takes
# minutes): the guest reads their size and data blocks, then removes them
truncate -s 1G "$SRC/sparse1G"
printf 'middle' | dd of="$SRC/sparse1G" bs=1 seek=$((512 * 1024 * 1024 + 5)) conv=notrunc status=none
truncate -s 9G "$SRC/sparse9G"
printf 'far' | dd of="$SRC/sparse9G" bs=1 seek=$((9 * 1024 * 1024 * 1024 - 4096)) conv=notrunc status=none
B1=131072 B9=$((9 * 262144 - 1))
SPARSE_WANT="$(dd if="$SRC/sparse1G" bs=4096 skip=$B1 count=1 2>/dev/null | sha256sum | cut -d' ' -f1) $(dd if="$SRC/sparse9G" bs=4096 skip=$B9 count=1 2>/dev/null | sha256sum | cut -d' ' -f1) $(dd if="$SRC/sparse9G" bs=4096 skip=$((B9 - 1)) count=1 2>/dev/null | sha256sum | cut -d' ' -f1)"

# the default features, and the extra attributes with inode checksums, flexible inline
# xattrs, crtime and quota files (the transaction charges the quota files)
FEAT=extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,sb_checksum,quota,project_quota
vm_disk data 1G
vm_mkfs data || vm_fail "mkfs failed"
vm_disk feat 1G
vm_mkfs feat -O "$FEAT" || vm_fail "mkfs -O $FEAT failed"
for d in data feat; do
	"$SLOAD" -f "$SRC" -P -T $T "$(vm_img $d)" || vm_fail "sload.f2fs failed on $d"
	vm_fsck $d "after sload.f2fs"
done

# ---- the Android-like tree: fs_config and file_contexts decide owners, modes, xattrs ----
AND=$VM_OUT/android
EXP=$VM_OUT/android.expected
FIX=${top_srcdir:-$(dirname "$0")/../..}/tests/images/sload_android.d
. "$FIX/mktree"
mktree "$AND"
cp "$FIX/fs_config" "$FIX/file_contexts" "$VM_OUT/"
SELINUX=no
"$SLOAD" -V | grep -q '+selinux' && SELINUX=yes
# the tree as the kernel must show it: a copy with fs_config's modes and owners and the
# xattrs set on the host (the manifest digests them)
cp -a "$AND" "$EXP"
python3 - "$EXP" "$VM_OUT/fs_config" "$SELINUX" > "$VM_OUT/android.owners.want" <<'PYEOF' ||
import os, sys
exp, cfg, selinux = sys.argv[1:]
labels = {"": "system_file", "bin": "system_bin_file", "bin/tool": "tool_exec"}
out = []
for line in open(cfg):
    path, uid, gid, mode, *rest = line.split()
    rel = path[len("system/"):] if path.startswith("system/") else ""
    p = os.path.join(exp, rel) if rel else exp
    os.chown(p, int(uid), int(gid), follow_symlinks=False)
    if not os.path.islink(p):
        os.chmod(p, int(mode, 8))
    caps = int(rest[0].split("=")[1], 0) if rest else 0
    if caps:
        os.setxattr(p, "security.capability", (0x02000001).to_bytes(4, "little") +
                    (caps & 0xffffffff).to_bytes(4, "little") + bytes(4) +
                    (caps >> 32).to_bytes(4, "little") + bytes(4), follow_symlinks=False)
    if selinux == "yes":
        lab = labels.get(rel, labels["bin"] if rel.startswith("bin/") else labels[""])
        os.setxattr(p, "security.selinux", f"u:object_r:{lab}:s0".encode() + b"\0",
                    follow_symlinks=False)
    out.append(f"{uid} {gid} {int(mode, 8):o} ./{rel}" if rel else f"{uid} {gid} {int(mode, 8):o} .")
print("\n".join(sorted(out, key=lambda l: l.split()[-1])))
PYEOF
	vm_error "cannot build the expected Android tree on the host"
"$VM_ZWORK" manifest "$EXP" "$VM_OUT/android.manifest" >/dev/null || vm_error "zwork manifest failed on the expected tree"
vm_disk android 256M
vm_mkfs android -O extra_attr,quota || vm_fail "mkfs -O extra_attr,quota failed"
aopts="-t /system -C $VM_OUT/fs_config -T $T"
[ $SELINUX = yes ] && aopts="$aopts -s $VM_OUT/file_contexts"
# shellcheck disable=SC2086
"$SLOAD" -f "$AND" $aopts "$(vm_img android)" || vm_fail "sload.f2fs $aopts failed"
vm_fsck android "after sload.f2fs with fs_config"

# ---- compression: files in LZ4-compressed clusters (-c), read back by the kernel ----
COMPR=no
if "$SLOAD" -V | grep -q '+lz4'; then
	COMPR=yes
	CT=$VM_OUT/ctree
	mkdir -p "$CT/d"
	for i in $(seq 1 3000); do echo "line $i of some very compressible text"; done > "$CT/text"
	head -c 100000 /dev/urandom > "$CT/random"
	for i in $(seq 1 500); do echo "tail $i"; done > "$CT/d/partial"
	truncate -s 10M "$CT/holey"
	for i in $(seq 1 2000); do echo "x$i"; done | dd of="$CT/holey" bs=4096 seek=1000 conv=notrunc status=none
	head -c 300000 /dev/zero | tr '\0' 'z' > "$CT/d/zs"
	echo small > "$CT/small"
	"$VM_ZWORK" manifest "$CT" "$VM_OUT/ctree.manifest" >/dev/null || vm_error "zwork manifest failed on the compressed tree"
	vm_disk compr 256M
	vm_mkfs compr -O extra_attr,inode_checksum,compression || vm_fail "mkfs -O compression failed"
	"$SLOAD" -c -L 3 -f "$CT" -T $T "$(vm_img compr)" || vm_fail "sload.f2fs -c failed"
	vm_fsck compr "after sload.f2fs -c"
fi

# ---- casefolding: names loaded into a casefolded directory, looked up in other cases ----
CF=no
if "$SLOAD" -V | grep -q '+casefold'; then
	CF=yes
	mkdir -p "$VM_OUT/cfbase/cf" "$VM_OUT/cfnames/Sub"
	python3 - "$VM_OUT/cfnames" <<'PYEOF' || vm_error "cannot make the casefold names"
import os, sys
d = sys.argv[1]
for n in ["Hello", "stra\u00dfe", "\ufb01le", "x\u00adsoft"] + [f"File-Number-{i}" for i in range(60)]:
    with open(os.path.join(d, n), "w") as f: f.write(n + "\n")
with open(os.path.join(d, "Sub", "Inner"), "w") as f: f.write("inner\n")
PYEOF
	vm_disk cf 256M
	vm_mkfs cf -O casefold -C utf8 || vm_fail "mkfs -O casefold failed"
	"$SLOAD" -f "$VM_OUT/cfbase" -T $T "$(vm_img cf)" || vm_fail "sload.f2fs of the base failed"
	"$top_builddir/tools/inject.f2fs" --node --mb i_flags --path /cf --val 0x40000000 "$(vm_img cf)" >/dev/null ||
		vm_error "inject.f2fs failed"
	"$SLOAD" -f "$VM_OUT/cfnames" --target-dir /cf -T $T "$(vm_img cf)" ||
		vm_fail "sload.f2fs into the casefolded directory failed"
	vm_fsck cf "after sload.f2fs into a casefolded directory"
fi

{
	echo 'cat > /tmp/manifest <<"ZEOF"'
	cat "$VM_OUT/manifest"
	echo 'ZEOF'
	echo 'cat > /tmp/manifest.android <<"ZEOF"'
	cat "$VM_OUT/android.manifest"
	echo 'ZEOF'
	echo "B1=$B1 B9=$B9"
	cat <<'EOT'
step "android: fs_config's owners and modes, the capability and SELinux xattrs"
zmount android /mnt/a
(cd /mnt/a && find . | LC_ALL=C sort | while read -r p; do
	echo "OWN-android $(stat -c '%u %g %a' "$p") $p"
done)
zwork verify /mnt/a /tmp/manifest.android
echo new > /mnt/a/etc/new-file
zumount /mnt/a
EOT
	[ $COMPR = yes ] && echo 'cat > /tmp/manifest.ctree <<"ZEOF"' && cat "$VM_OUT/ctree.manifest" &&
		echo 'ZEOF' && cat <<'EOT'
step "compr: the kernel reads the compressed files, then appends to one"
zmount compr /mnt/a
zwork verify /mnt/a /tmp/manifest.ctree && echo "COMPR-verified"
for i in 1 2 3 4 5 6 7 8 9 10; do echo "more $i"; done >> /mnt/a/text
cp /mnt/a/d/zs /mnt/a/zs-copy
sync
zumount /mnt/a
zmount compr /mnt/a
echo "COMPR-tail $(tail -n 1 /mnt/a/text) $(cmp /mnt/a/d/zs /mnt/a/zs-copy && echo same)"
zumount /mnt/a
EOT
	[ $CF = yes ] && cat <<'EOT'
step "cf: lookups in other cases find the loaded names"
zmount cf /mnt/a
for p in HELLO STRASSE FILE xsoft file-number-42 sub/INNER; do
	echo "CF $p $(cat "/mnt/a/cf/$p" 2>&1)"
done
echo "CF count $(ls /mnt/a/cf | wc -l)"
echo new > /mnt/a/cf/NewOne
zumount /mnt/a
EOT
	cat <<'EOT'
for d in data feat; do
step "$d: mount the loaded volume; owners and times, the big sparse files, then every path against the manifest"
zmount $d /mnt/a
(cd /mnt/a && find . | LC_ALL=C sort | while read -r p; do
	echo "OWN-$d $(stat -c '%u %g %Y %Z' "$p") $p"
done)
echo "SPARSE-$d $(stat -c %s /mnt/a/sparse1G) $(stat -c %s /mnt/a/sparse9G) $(dd if=/mnt/a/sparse1G bs=4096 skip=$B1 count=1 2>/dev/null | sha256sum | cut -d' ' -f1) $(dd if=/mnt/a/sparse9G bs=4096 skip=$B9 count=1 2>/dev/null | sha256sum | cut -d' ' -f1) $(dd if=/mnt/a/sparse9G bs=4096 skip=$((B9 - 1)) count=1 2>/dev/null | sha256sum | cut -d' ' -f1)"
rm /mnt/a/sparse1G /mnt/a/sparse9G
zwork verify /mnt/a /tmp/manifest
step "$d: the kernel writes more"
zwork writefile /mnt/a/new-file 3000 7
zwork writefile /mnt/a/dir/sub/new-deep 40 8
printf 'more' >> /mnt/a/size3000
dd if=/dev/zero of=/mnt/a/sparse20M bs=4096 seek=3000 count=4 conv=notrunc 2>/dev/null
rm /mnt/a/dir/sub/big-link
rm -r /mnt/a/many
ln -s new-file /mnt/a/new-symlink
mkdir /mnt/a/new-dir
sync
zumount /mnt/a
zmount $d /mnt/a
zwork checkfile /mnt/a/new-file 3000 7
zwork checkfile /mnt/a/dir/sub/new-deep 40 8
zumount /mnt/a
done
EOT
} | vm_guest
vm_boot
want="1073741824 9663676416 $SPARSE_WANT"
vm_fsck android
if [ $COMPR = yes ]; then
	vm_fsck compr
	if tr -d '\r' < "$VM_CONSOLE" | grep -q '^COMPR-verified' &&
	   tr -d '\r' < "$VM_CONSOLE" | grep -q '^COMPR-tail more 10 same'; then
		vm_log "compr: Linux reads every compressed file as the source has it, and writes more"
	else
		vm_fail "compr: the kernel did not read the compressed files back (console: $VM_CONSOLE)"
	fi
fi
if [ $CF = yes ]; then
	vm_fsck cf
	tr -d '\r' < "$VM_CONSOLE" | sed -n 's/^CF //p' > "$VM_OUT/cf.got"
	printf '%s\n' "HELLO Hello" "STRASSE straße" "FILE ﬁle" "xsoft x$(printf '\302\255')soft" \
		"file-number-42 File-Number-42" "sub/INNER inner" "count 65" > "$VM_OUT/cf.want"
	if cmp -s "$VM_OUT/cf.want" "$VM_OUT/cf.got"; then
		vm_log "cf: Linux finds the loaded names by other cases, ß as ss, the ligature, the soft hyphen left out"
	else
		vm_fail "cf: casefolded lookups:"
		diff "$VM_OUT/cf.want" "$VM_OUT/cf.got" | head -10
	fi
fi
tr -d '\r' < "$VM_CONSOLE" | sed -n "s/^OWN-android //p" > "$VM_OUT/android.owners"
if [ -s "$VM_OUT/android.owners" ] && cmp -s "$VM_OUT/android.owners.want" "$VM_OUT/android.owners"; then
	vm_log "android: the kernel sees fs_config's owners and modes ($(wc -l < "$VM_OUT/android.owners") paths)"
else
	vm_fail "android: owners or modes differ from fs_config:"
	diff "$VM_OUT/android.owners.want" "$VM_OUT/android.owners" | head -10
fi
for d in data feat; do
	vm_fsck $d
	got=$(tr -d '\r' < "$VM_CONSOLE" | sed -n "s/^SPARSE-$d //p" | head -1)
	if [ "$got" = "$want" ]; then
		vm_log "$d: the kernel reads the 1 GiB and 9 GiB sparse files' sizes and data blocks"
	else
		vm_fail "$d: sparse files: the kernel reads '$got', want '$want'"
	fi
	tr -d '\r' < "$VM_CONSOLE" | sed -n "s/^OWN-$d //p" |
		grep -v -e ' ./sparse1G$' -e ' ./sparse9G$' > "$VM_OUT/owners.$d"
	if [ -s "$VM_OUT/owners.$d" ] && cmp -s "$VM_OUT/owners.want" "$VM_OUT/owners.$d"; then
		vm_log "$d: the kernel sees every path's owner and times as sload.f2fs set them ($(wc -l < "$VM_OUT/owners.$d") paths)"
	else
		vm_fail "$d: owners or times differ from the source:"
		diff "$VM_OUT/owners.want" "$VM_OUT/owners.$d" | head -10
	fi
done
vm_finish
