#!/bin/bash
# sload.f2fs with a build's metadata: -C fs_config (owners, modes, capabilities as
# security.capability), -s file_contexts (security.selinux through libselinux), -p
# product_out (where relative -C and -s files are) and -t (the mount point the looked-up
# paths start with).  Our dump.f2fs reads modes and owners back, Debian's dump.f2fs 1.15
# the xattrs; both fscks find the image clean; two runs give the same image; a path
# fs_config does not list, a malformed line, and -s in a build without libselinux are
# refused in one line before anything is written.
. "$(dirname "$0")/sload_lib.sh"
UUID=5a10ad17-0000-4000-8000-0000000000a1
SELINUX=no
grep -q '^#define HAVE_LIBSELINUX 1' "$top_builddir/config.h" && SELINUX=yes

FIX=$top_srcdir/tests/images/sload_android.d
. "$FIX/mktree"
SRC=$TEST_TMP/src
mktree "$SRC"
PROD=$TEST_TMP/out
mkdir -p "$PROD/config"
cp "$FIX/fs_config" "$FIX/file_contexts" "$PROD/config/"

# mkimg NAME SLOAD-OPTION...: a formatted 64 MiB image loaded with the options
mkimg()
{
	local img
	img=$(new_image "$1" 64M)
	shift
	SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -U "$UUID" "$img" >/dev/null || return 1
	"$SLOAD" "$@" "$img" > /dev/null || return 1
	echo "$img"
}

# check IMG: every path's mode, owner and security xattrs as the build says
check()
{
	python3 - "$DUMP" "$INJECT" "$1" "$SELINUX" <<'PYEOF'
import json, subprocess, sys
dump, inject, img, selinux = sys.argv[1:]
want = {  # path: mode, uid, gid, capabilities, label
    "/": (0o40755, 0, 0, 0, "system_file"),
    "/bin": (0o40751, 0, 2000, 0, "system_bin_file"),
    "/bin/tool": (0o104750, 1000, 1001, 0x1000000400, "tool_exec"),
    "/bin/plain": (0o100755, 0, 2000, 0, "system_bin_file"),
    "/bin/blob": (0o100644, 0, 2000, 0, "system_bin_file"),
    "/bin/link": (0o120777, 0, 0, 0, "system_bin_file"),
    "/etc": (0o40755, 0, 0, 0, "system_file"),
    "/etc/conf": (0o100640, 1000, 1000, 0, "system_file"),
    "/etc/init": (0o40755, 0, 0, 0, "system_file"),
    "/etc/init/x.rc": (0o100644, 0, 0, 0, "system_file"),
}
bad = []
for path, (mode, uid, gid, caps, label) in want.items():
    ino = int(subprocess.run([inject, "--lookup", path, img], check=True,
                             capture_output=True, text=True).stdout)
    i = json.loads(subprocess.run([dump, "--json", "-i", str(ino), img], check=True,
                                  capture_output=True).stdout)["inode"][0]
    if (i["i_mode"], i["i_uid"], i["i_gid"]) != (mode, uid, gid):
        bad.append(f"{path}: mode {i['i_mode']:o} owner {i['i_uid']}:{i['i_gid']}, want {mode:o} {uid}:{gid}")
    out = subprocess.run(["/usr/sbin/dump.f2fs", "-i", str(ino), img], capture_output=True,
                         text=True, input="n\n").stdout.splitlines() + [""]
    got = {}
    for k, line in enumerate(out[:-1]):
        if line.startswith("xattr: e_name_index:"):
            f = dict(kv.split(":", 1) for kv in line[len("xattr: "):].split(" ") if ":" in kv)
            got[(f["e_name_index"], f["e_name"])] = bytes.fromhex(f.get("e_value", "") or out[k + 1].strip())
    wx = {}
    if caps:
        wx[("6", "capability")] = ((0x02000001).to_bytes(4, "little") + (caps & 0xffffffff).to_bytes(4, "little") +
                                   bytes(4) + (caps >> 32).to_bytes(4, "little") + bytes(4))
    if selinux == "yes":
        wx[("6", "selinux")] = f"u:object_r:{label}:s0".encode() + b"\0"
    if got != wx:
        bad.append(f"{path}: xattrs {got}, want {wx}")
if bad: print("\n".join(bad))
sys.exit(1 if bad else 0)
PYEOF
}


opts=(-f "$SRC" -t /system -T $T -p "$PROD" -C config/fs_config)
[ $SELINUX = yes ] && opts+=(-s config/file_contexts)
if img=$(mkimg a.img "${opts[@]}"); then
	tap_ok "sload.f2fs ${opts[*]#"$TEST_TMP"/} loads the tree"
	check "$img" && tap_ok "modes, owners, capabilities$([ $SELINUX = yes ] && echo ' and SELinux labels') as the build says" ||
		tap_fail "the image differs from what fs_config/file_contexts say"
	clean "$img" && tap_ok "both fscks clean" || tap_fail "fsck finds problems"
	img2=$(mkimg b.img "${opts[@]}") && cmp "$img" "$img2" &&
		tap_ok "two runs give byte-identical images" || tap_fail "two runs differ"
else
	tap_fail "sload.f2fs with fs_config failed"
fi

# refusals before any write
base=$(new_image base.img 64M)
SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -U "$UUID" "$base" >/dev/null || hard_error "mkfs failed"
cp "$base" "$TEST_TMP/base.before"
grep -v '^system/etc/init/x.rc ' "$PROD/config/fs_config" > "$TEST_TMP/partial"
out=$("$SLOAD" -f "$SRC" -t /system -C "$TEST_TMP/partial" "$base" 2>&1)
rc=$?
[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
	printf '%s' "$out" | grep -q '/system/etc/init/x.rc: not in the fs_config' &&
	cmp -s "$base" "$TEST_TMP/base.before" &&
	tap_ok "a path fs_config does not list is refused with its path, nothing written" ||
	tap_fail "partial fs_config: exit $rc, '$out'"
{ cat "$PROD/config/fs_config"; echo "system/x 0 0 0999"; } > "$TEST_TMP/malformed"
out=$("$SLOAD" -f "$SRC" -t /system -C "$TEST_TMP/malformed" "$base" 2>&1)
rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q "malformed:11: " && cmp -s "$base" "$TEST_TMP/base.before" &&
	tap_ok "a malformed fs_config line is refused with its line number" ||
	tap_fail "malformed fs_config: exit $rc, '$out'"
out=$("$SLOAD" -f "$SRC" -p "$PROD" -C no-such-file "$base" 2>&1)
[ $? -eq 1 ] && printf '%s' "$out" | grep -q "$PROD/no-such-file" &&
	tap_ok "-p: a relative -C file is looked for in product_out" || tap_fail "-p: '$out'"
if [ $SELINUX = no ]; then
	out=$("$SLOAD" -f "$SRC" -s "$PROD/config/file_contexts" "$base" 2>&1)
	rc=$?
	[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && printf '%s' "$out" | grep -q libselinux &&
		cmp -s "$base" "$TEST_TMP/base.before" &&
		tap_ok "-s without libselinux: refused in one line" || tap_fail "-s without libselinux: exit $rc, '$out'"
else
	printf '/system/bin(/.*)? u:object_r:x:s0\n' > "$TEST_TMP/fc"
	out=$("$SLOAD" -f "$SRC" -t /system -s "$TEST_TMP/fc" "$base" 2>&1)
	rc=$?
	[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'no label in the file_contexts' &&
		cmp -s "$base" "$TEST_TMP/base.before" &&
		tap_ok "a path file_contexts gives no label is refused, nothing written" ||
		tap_fail "unlabelled path: exit $rc, '$out'"
fi
# Hard links whose fs_config (and file_contexts) entries differ: the first path in the
# load's sorted order creates the inode and decides its owner, mode, capabilities and
# label; the later path gets one warning naming both paths and what differs; exit 0.
# Links whose entries agree load without a word.
LSRC=$TEST_TMP/lsrc
mkdir -p "$LSRC/bin" "$LSRC/etc"
printf '#!/bin/sh\n' > "$LSRC/bin/a"
ln "$LSRC/bin/a" "$LSRC/bin/b"
echo same > "$LSRC/etc/c"
ln "$LSRC/etc/c" "$LSRC/etc/d"
cat > "$TEST_TMP/lfs_config" <<'CFG'
system 0 0 0755
system/bin 0 2000 0751
system/bin/a 1000 1001 04750 capabilities=0x400
system/bin/b 0 2000 0644
system/etc 0 0 0755
system/etc/c 1000 1000 0640
system/etc/d 1000 1000 0640
CFG
cat > "$TEST_TMP/lfile_contexts" <<'CFG'
/system(/.*)?           u:object_r:system_file:s0
/system/bin/a           u:object_r:tool_exec:s0
/system/bin/b           u:object_r:system_bin_file:s0
CFG
lopts=(-f "$LSRC" -t /system -T $T -C "$TEST_TMP/lfs_config")
[ $SELINUX = yes ] && lopts+=(-s "$TEST_TMP/lfile_contexts")
# facts IMG PATH: "ino mode uid gid capabilities label" of PATH's inode
facts()
{
	python3 - "$DUMP" "$INJECT" "$1" "$2" <<'PYEOF'
import json, subprocess, sys
dump, inject, img, path = sys.argv[1:]
ino = int(subprocess.run([inject, "--lookup", path, img], check=True,
                         capture_output=True, text=True).stdout)
i = json.loads(subprocess.run([dump, "--json", "-i", str(ino), img], check=True,
                              capture_output=True).stdout)["inode"][0]
out = subprocess.run(["/usr/sbin/dump.f2fs", "-i", str(ino), img], capture_output=True,
                     text=True, input="n\n").stdout.splitlines() + [""]
caps, label = 0, "none"
for k, line in enumerate(out[:-1]):
    if line.startswith("xattr: e_name_index:"):
        f = dict(kv.split(":", 1) for kv in line[len("xattr: "):].split(" ") if ":" in kv)
        v = bytes.fromhex(f.get("e_value", "") or out[k + 1].strip())
        if f["e_name"] == "capability":
            caps = int.from_bytes(v[4:8], "little") | int.from_bytes(v[12:16], "little") << 32
        elif f["e_name"] == "selinux":
            label = v.rstrip(b"\0").decode()
print(ino, oct(i["i_mode"]), i["i_uid"], i["i_gid"], hex(caps), label)
PYEOF
}
limg=$(new_image links.img 64M)
SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -U "$UUID" "$limg" >/dev/null || hard_error "mkfs failed"
out=$("$SLOAD" "${lopts[@]}" "$limg" 2>&1 > /dev/null)
rc=$?
want_label=none
[ $SELINUX = yes ] && want_label=u:object_r:tool_exec:s0
fa=$(facts "$limg" /bin/a 2>&1)
fb=$(facts "$limg" /bin/b 2>&1)
fc=$(facts "$limg" /etc/c 2>&1)
fd=$(facts "$limg" /etc/d 2>&1)
warn="sload.f2fs: WARNING: /system/bin/b: hard link of /system/bin/a, whose settings the inode keeps: owner 0:2000 (inode 1000:1001), mode 0644 (inode 4750), capabilities 0x0 (inode 0x400)"
[ $SELINUX = yes ] && warn="$warn, label u:object_r:system_bin_file:s0 (inode u:object_r:tool_exec:s0)"
if [ $rc -eq 0 ] && [ "$fa" = "$fb" ] && [ "${fa#* }" = "0o104750 1000 1001 0x400 $want_label" ]; then
	tap_ok "hard links with differing fs_config entries: the inode has the first path's owner, mode, capabilities$([ $SELINUX = yes ] && echo ' and label'), exit 0"
else
	tap_fail "differing hard links: exit $rc, /bin/a: $fa, /bin/b: $fb"
fi
[ "$out" = "$warn" ] && tap_ok "one warning names both paths and what differs" ||
	tap_fail "the warning: got '$out', want '$warn'"
[ "$fc" = "$fd" ] && [ "${fc#* }" = "0o100640 1000 1000 0x0 $([ $SELINUX = yes ] && echo u:object_r:system_file:s0 || echo none)" ] &&
	! printf '%s' "$out" | grep -q /system/etc/ &&
	tap_ok "hard links whose entries agree: no warning, the entries' settings" ||
	tap_fail "agreeing hard links: /etc/c: $fc, /etc/d: $fd"
clean "$limg" && tap_ok "hard links: both fscks clean" || tap_fail "hard links: fsck finds problems"
tap_summary
