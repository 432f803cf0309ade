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
	"$SLOAD" "$@" "$img" || return 1
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
tap_summary
