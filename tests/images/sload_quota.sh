#!/bin/bash
# sload.f2fs on volumes with quota files: the load charges every new inode and block to
# its user, group and project, as the kernel's accounting would.  A tree whose owners
# come from fs_config (several users and groups) is loaded into a volume with
# extra_attr,quota,project_quota; dump.f2fs --quota must show, per id, the inodes and
# bytes counted here from the tree, and both fscks (which recount the charges) must find
# the image clean.  With -P each inode takes its source's project id
# (FS_IOC_FSGETXATTR): checked where the host's file system can set project ids.
. "$(dirname "$0")/sload_lib.sh"
UUID=5a10ad17-0000-4000-8000-0000000000d1

SRC=$TEST_TMP/src
mkdir -p "$SRC/a/deep" "$SRC/b"
head -c 100000 /dev/urandom > "$SRC/a/big"        # 25 blocks
head -c 5000 /dev/urandom > "$SRC/a/deep/mid"     # 2 blocks
echo small > "$SRC/b/inline"                      # inline: no block
head -c 4096 /dev/urandom > "$SRC/b/one"          # 1 block
ln -s inline "$SRC/b/link"
cat > "$TEST_TMP/fs_config" <<'EOF'
a 1000 1000 0755
a/big 1000 1000 0644
a/deep 1001 1000 0755
a/deep/mid 1001 1001 0644
b 0 0 0755
b/inline 1002 1002 0644
b/one 1002 1000 0644
b/link 0 0 0777
EOF

img=$(new_image q.img 128M)
SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -U "$UUID" -O extra_attr,quota,project_quota "$img" >/dev/null ||
	hard_error "mkfs -O extra_attr,quota,project_quota failed"
if "$SLOAD" -f "$SRC" -C "$TEST_TMP/fs_config" -T $T "$img"; then
	tap_ok "sload.f2fs -C loads into a volume with quota files"
else
	tap_fail "sload.f2fs -C failed on a volume with quota files"
fi
# the charges, counted from the tree: every inode once; every block but the inode block
# (data and dentry blocks, node blocks) as the volume holds them (i_blocks - 1)
if python3 - "$DUMP" "$INJECT" "$img" <<'PYEOF'
import json, subprocess, sys
dump, inject, img = sys.argv[1:]
tree = json.loads(subprocess.run([dump, "--json", "--tree", img], check=True,
                  capture_output=True).stdout)["tree"]["entries"]
inos = sorted({e["ino"] for e in tree} | {3})
want = {}
for k in range(0, len(inos), 32):
    args = [dump, "--json"]
    for i in inos[k:k + 32]: args += ["-i", str(i)]
    for i in json.loads(subprocess.run(args + [img], check=True, capture_output=True).stdout)["inode"]:
        for t, key in (("user", "i_uid"), ("group", "i_gid"), ("project", "i_projid")):
            c = want.setdefault((t, i.get(key, 0)), [0, 0])
            c[0] += 1
            c[1] += (i["i_blocks"] - 1) * 4096
got = {}
for line in subprocess.run([dump, "--quota", img], check=True, capture_output=True,
                           text=True).stdout.splitlines():
    line = line.strip()
    if line.startswith("type=") and " id=" in line:
        f = dict(kv.split("=", 1) for kv in line.split())
        got[(f["type"], int(f["id"]))] = [int(f["inodes"]), int(f["bytes"])]
# the quota files themselves are not charged
ids = {(t, u) for t, u in want}
if not any(t == "user" and u == 1002 for t, u in ids): sys.exit("fs_config's owners are not in the volume")
bad = [f"{k}: quota {got.get(k)} want {v}" for k, v in want.items() if got.get(k) != v]
bad += [f"{k}: quota {v}, no such inodes" for k, v in got.items() if k not in want and v != [0, 0]]
if bad: print("\n".join(bad))
sys.exit(1 if bad else 0)
PYEOF
then
	tap_ok "every user, group and project is charged the inodes and bytes of the tree"
else
	tap_fail "the quota charges differ from the tree"
fi
out=$("$FSCK" -f -n "$img" 2>&1) && ref_fsck "$img" && tap_ok "both fscks clean (they recount the charges)" ||
	tap_fail "fsck: $out"

# -P: the source's project ids, where the host can set them
if python3 - "$SRC/a" 42 <<'PYEOF' 2>/dev/null
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
x = list(struct.unpack("IIIII8s", fcntl.ioctl(fd, 0x801c581f, bytes(28))))
x[3] = int(sys.argv[2])
fcntl.ioctl(fd, 0x401c5820, struct.pack("IIIII8s", *x))
PYEOF
then
	img2=$(new_image p.img 128M)
	SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -U "$UUID" -O extra_attr,quota,project_quota "$img2" >/dev/null
	"$SLOAD" -f "$SRC" -P -T $T "$img2" &&
		"$DUMP" --json -i "$("$INJECT" --lookup /a "$img2")" "$img2" | grep -q '"i_projid": 42\b' &&
		"$FSCK" -f -n "$img2" >/dev/null && ref_fsck "$img2" &&
		tap_ok "-P keeps the source's project id; both fscks clean" ||
		tap_fail "-P: the project id 42 of the source is not in the volume"
else
	echo "# the host's file system sets no project ids: -P's project ids not tested here"
fi
tap_summary
