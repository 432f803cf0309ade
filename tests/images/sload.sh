#!/bin/bash
# sload.f2fs (lib/write/load_tree.c on the transaction): a varied tree made here is loaded
# into images from our mkfs; dump.f2fs reads every path back and it must have the
# source's type, permission bits (setuid/setgid/sticky too), owner, size, link count,
# times, contents (holes as holes) and symlink target; both fscks (ours and Debian's
# 1.15) find the images clean; two runs give byte-identical images; errors are
# refused before anything is written (a tree that does not fit, a name that exists);
# mkfs.f2fs --root-dir makes the same image as mkfs.f2fs + sload.f2fs -P.
# Device nodes and other owners need root (mknod, chown): without it they are left out.

. "$(dirname "$0")/sload_lib.sh"
UUID=5a10ad17-0000-4000-8000-000000000017

# ---- the source tree -------------------------------------------------------------------
SRC=$TEST_TMP/src
mkdir -p "$SRC/dir/sub/deeper" "$SRC/many" "$SRC/sticky"
# pattern FILE BYTES: non-zero, non-repeating content (urandom would do; this is faster)
pattern() { python3 -c 'import sys,hashlib
n=int(sys.argv[2]); out=open(sys.argv[1],"wb"); i=0
while n>0:
    b=hashlib.sha256(str(i).encode()).digest()*128; out.write(b[:min(n,len(b))]); n-=len(b); i+=1' "$1" "$2"; }
: > "$SRC/size0"
printf 'A' > "$SRC/size1"
pattern "$SRC/size3000" 3000
pattern "$SRC/size4096" 4096
pattern "$SRC/size5M" $((5 * 1024 * 1024))
pattern "$SRC/dir/sub/deeper/size9000" 9000
# 20 MiB with holes: data in the inode's slots, a direct node, an indirect node, a tail
truncate -s 20M "$SRC/sparse20M"
for off in 0 17 600 2500 4000; do
	pattern "$TEST_TMP/chunk" 40960
	dd if="$TEST_TMP/chunk" of="$SRC/sparse20M" bs=4096 seek=$off conv=notrunc status=none
done
printf 'tail' >> "$SRC/sparse20M"
# 1 GiB sparse, and 9 GiB (past what indirect nodes address: double indirect)
truncate -s 1G "$SRC/sparse1G"
printf 'middle' | dd of="$SRC/sparse1G" bs=1 seek=$((512 * 1024 * 1024 + 5)) conv=notrunc status=none
printf 'end' | dd of="$SRC/sparse1G" bs=1 seek=$((1024 * 1024 * 1024 - 3)) conv=notrunc status=none
truncate -s 9G "$SRC/sparse9G"
printf 'far' | dd of="$SRC/sparse9G" bs=1 seek=$((9 * 1024 * 1024 * 1024 - 4096)) conv=notrunc status=none
# a file of holes only, and one of zeros only: no block at all, not an inline file with
# a size past the inline room (which fsck and Linux refuse)
truncate -s 2M "$SRC/holes-only"
head -c 65536 /dev/zero > "$SRC/zeros-only"
# a block of zeros inside data stays a hole too
{ printf 'x'; head -c 8191 /dev/zero; printf 'y'; } > "$SRC/zeroblock"
ln "$SRC/size3000" "$SRC/dir/hardlink"
ln "$SRC/size5M" "$SRC/dir/sub/big-link"
ln "$SRC/size5M" "$SRC/many/big-link2"
ln -s size3000 "$SRC/short-symlink"
ln -s "$(printf 'long/%.0s' $(seq 60))" "$SRC/long-symlink"          # 300 bytes
ln -s "$(python3 -c 'print("t" * 200 + "/" + "u" * 200 + "/" + "v" * 3680, end="")')" \
	"$SRC/block-symlink"                                               # over inline room
mkfifo "$SRC/fifo"
python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$SRC/socket"
for i in $(seq 1 400); do printf '%d' $i > "$SRC/many/file-with-a-longer-name-$i"; done
chmod 4755 "$SRC/size4096"
chmod 2750 "$SRC/dir"
chmod 1777 "$SRC/sticky"
chmod 0600 "$SRC/size1"
chmod 6711 "$SRC/dir/sub/deeper/size9000"
ROOT=no
if [ "$(id -u)" = 0 ]; then
	ROOT=yes
	mknod "$SRC/chardev" c 1 3
	mknod "$SRC/blockdev-big" b 259 300000
	mknod "$SRC/blockdev" b 8 1
	chown 1234:5678 "$SRC/size3000" "$SRC/dir"
	chown -h 42:43 "$SRC/short-symlink"
else
	echo "# not root: no device nodes, every file owned by $(id -u)"
fi
touch -d @1600000000 "$SRC/size1"
# xattrs: inline ones, one that spills into an xattr node, on files, a directory, a device
XATTRS=no
if python3 -c 'import os,sys
s=sys.argv[1]
os.setxattr(s + "/size1", "user.small", b"hello")
os.setxattr(s + "/size1", "user.another", b"")
os.setxattr(s + "/size3000", "trusted.t", b"\x01\x02")
os.setxattr(s + "/size5M", "user.big", b"b" * 3000)
os.setxattr(s + "/dir", "security.label", b"system_u:object_r:thing:s0")
os.setxattr(s + "/dir/sub/deeper/size9000", "user.z", b"last")' "$SRC" 2>/dev/null; then
	XATTRS=yes
else
	echo "# the source file system takes no user./trusted. xattrs: none tested"
fi

# ---- load ------------------------------------------------------------------------------
# mkimg NAME SIZE SLOAD-OPTION...: mkfs (fixed UUID, time and checkpoint version, no host
# kernel release: SOURCE_DATE_EPOCH), then sload; prints the path
mkimg()
{
	local img
	img=$(new_image "$1" "$2")
	shift 2
	SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -U "$UUID" "$img" >/dev/null || return 1
	"$SLOAD" "$@" "$img" > /dev/null || return 1
	echo "$img"
}

# verify IMG OWNERS TIMES: every path of the source read back through dump.f2fs
verify()
{
	python3 - "$DUMP" "$1" "$SRC" "$2" "$3" "$TEST_TMP/x" <<'PYEOF'
import json, os, stat, subprocess, sys
dump, img, src, owners, times, tmp = sys.argv[1:]
tree = json.loads(subprocess.run([dump, "--json", "--tree", img], check=True,
                  capture_output=True).stdout)["tree"]["entries"]
got = {e["path"]: e for e in tree}
types = {stat.S_IFREG: "regular", stat.S_IFDIR: "directory", stat.S_IFLNK: "symlink",
         stat.S_IFIFO: "fifo", stat.S_IFSOCK: "socket", stat.S_IFCHR: "chardev",
         stat.S_IFBLK: "blockdev"}
# every inode in one run of dump.f2fs (one per path would take minutes)
inos = sorted({e["ino"] for e in tree})
inodes_by_ino = {}
for k in range(0, len(inos), 32):   # dump.f2fs takes at most 32 views per run
    args = [dump, "--json"]
    for i in inos[k:k + 32]: args += ["-i", str(i)]
    inodes_by_ino.update({i["ino"]: i for i in json.loads(subprocess.run(args + [img],
                          check=True, capture_output=True).stdout)["inode"]})
bad = []
want = set()
inodes = {}
for d, dirs, files in os.walk(src):
    for n in dirs + files:
        p = os.path.join(d, n); rel = "/" + os.path.relpath(p, src); want.add(rel)
        st = os.lstat(p)
        e = got.get(rel)
        if e is None:
            bad.append(f"{rel}: missing"); continue
        if e["type"] != types[stat.S_IFMT(st.st_mode)]: bad.append(f"{rel}: type {e['type']}")
        if e["mode"] != st.st_mode: bad.append(f"{rel}: mode {e['mode']:o} want {st.st_mode:o}")
        if e["links"] != st.st_nlink: bad.append(f"{rel}: links {e['links']} want {st.st_nlink}")
        if not stat.S_ISDIR(st.st_mode) and e["size"] != st.st_size:
            bad.append(f"{rel}: size {e['size']} want {st.st_size}")
        tw = int(times) if times != "source" else int(st.st_mtime)
        if e["mtime"] != tw: bad.append(f"{rel}: mtime {e['mtime']} want {tw}")
        ino = inodes_by_ino[e["ino"]]
        uid, gid = (st.st_uid, st.st_gid) if owners == "keep" else (0, 0)
        if (ino["i_uid"], ino["i_gid"]) != (uid, gid):
            bad.append(f"{rel}: owner {ino['i_uid']}:{ino['i_gid']} want {uid}:{gid}")
        for f in ("i_atime", "i_ctime", "i_mtime"):
            if ino[f] != tw: bad.append(f"{rel}: {f} {ino[f]} want {tw}")
        if not stat.S_ISDIR(st.st_mode) and st.st_nlink > 1:
            key = (st.st_dev, st.st_ino)
            if inodes.setdefault(key, e["ino"]) != e["ino"]:
                bad.append(f"{rel}: hard link to inode {e['ino']}, not {inodes[key]}")
        if stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode):
            if os.path.exists(tmp): os.unlink(tmp)
            subprocess.run([dump, "-i", str(e["ino"]), "-S", "-o", tmp, img], check=True,
                           capture_output=True)
            if stat.S_ISLNK(st.st_mode):
                if open(tmp, "rb").read() != os.fsencode(os.readlink(p)):
                    bad.append(f"{rel}: symlink target differs")
            else:
                # compared block by block over the data extents (cmp would read
                # gigabytes of holes): same size, same non-zero blocks at the same offsets
                def blocks(path):
                    out = {}
                    with open(path, "rb") as f:
                        pos = 0
                        while True:
                            try: pos = os.lseek(f.fileno(), pos, os.SEEK_DATA)
                            except OSError: break
                            end = os.lseek(f.fileno(), pos, os.SEEK_HOLE)
                            f.seek(pos - pos % 4096)
                            while f.tell() < end:
                                at = f.tell(); b = f.read(4096)
                                if any(b): out[at] = b
                            pos = f.tell()
                    return out
                mine, theirs = blocks(p), blocks(tmp)
                if mine != theirs or os.path.getsize(tmp) != st.st_size:
                    bad.append(f"{rel}: contents differ")
                nz = len(mine)
                if ino["i_size"] > 3688 and ino["i_blocks"] < 1 + nz:
                    bad.append(f"{rel}: {ino['i_blocks']} blocks for {nz} data blocks")
                if ino["i_size"] > 3688 and nz == 0 and ino["i_blocks"] != 1:
                    bad.append(f"{rel}: all holes but {ino['i_blocks']} blocks")
        if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
            pass  # device numbers: the kernel bench (tests/vm/sload.sh) reads them
        # xattrs: Debian's dump.f2fs prints them (ours does not yet); the kernel bench
        # compares them too
        want_x = sorted((n, os.getxattr(p, n, follow_symlinks=False)) for n in
                        os.listxattr(p, follow_symlinks=False))
        if want_x:
            out = subprocess.run(["/usr/sbin/dump.f2fs", "-i", str(e["ino"]), img],
                                 capture_output=True, text=True, input="n\n").stdout
            got_x = []
            lines = out.splitlines() + [""]
            for k, line in enumerate(lines[:-1]):
                if line.startswith("xattr: e_name_index:"):
                    f = dict(kv.split(":", 1) for kv in line[len("xattr: "):].split(" ")
                             if ":" in kv)
                    pre = {"1": "user.", "4": "trusted.", "6": "security."}[f["e_name_index"]]
                    # the value's hex digits follow on the next line
                    v = f.get("e_value", "") or lines[k + 1].strip()
                    v = v if all(c in "0123456789abcdefABCDEF" for c in v) else ""
                    got_x.append((pre + f["e_name"], bytes.fromhex(v)))
            if sorted(got_x) != want_x:
                bad.append(f"{rel}: xattrs differ: {str(sorted(got_x))[:200]} want {str(want_x)[:200]}")
extra = set(got) - want
if extra: bad.append(f"paths the source does not have: {sorted(extra)}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PYEOF
}


if img=$(mkimg a.img 512M -f "$SRC" -T $T -P); then
	tap_ok "sload.f2fs -T -P loads the tree"
	verify "$img" keep $T && tap_ok "every path reads back as in the source (-P)" ||
		tap_fail "the image differs from the source (-P)"
	clean "$img" && tap_ok "both fscks clean (-P)" || tap_fail "fsck finds problems (-P)"
	"$DUMP" --json -i 3 "$img" | grep -q '"i_mtime": '$T'\b' &&
		tap_ok "the root directory takes the timestamp" || tap_fail "the root's mtime is not $T"
else
	tap_fail "sload.f2fs -T -P failed"
fi
if img2=$(mkimg b.img 512M -f "$SRC" -T $T -P); then
	cmp "$img" "$img2" && tap_ok "two runs give byte-identical images" ||
		tap_fail "two runs give different images"
	"$DUMP" --superblock "$img" | grep -E '^ +(init_)?version ' | grep -q Linux &&
		tap_fail "the image records the host's kernel release" ||
		tap_ok "with SOURCE_DATE_EPOCH the image records no host kernel release"
else
	tap_fail "second sload.f2fs run failed"
fi
rm -f "$img2"
# mkfs.f2fs --root-dir: the same library code in one step, the same image
img5=$(new_image e.img 512M)
if "$MKFS" -q -r -U "$UUID" -T $T --root-dir "$SRC" "$img5" >/dev/null; then
	truncate -s 512M "$img5.3" && "$MKFS" -q -r -U "$UUID" -T $T "$img5.3" >/dev/null &&
		"$SLOAD" -f "$SRC" -P -T $T "$img5.3"
	cmp "$img5" "$img5.3" && tap_ok "mkfs.f2fs --root-dir gives the image of mkfs.f2fs + sload.f2fs -P" ||
		tap_fail "mkfs.f2fs --root-dir and mkfs.f2fs + sload.f2fs -P differ"
else
	tap_fail "mkfs.f2fs --root-dir failed"
fi
rm -f "$img5" "$img5.3"
img6=$(new_image f.img 64M)
out=$("$MKFS" -q --root-dir "$TEST_TMP/no-such-dir" "$img6" 2>&1)
rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q "no-such-dir" && cmp -s -n $((64 * 1024 * 1024)) "$img6" /dev/zero &&
	tap_ok "mkfs.f2fs --root-dir with a missing tree: refused, the device not formatted" ||
	tap_fail "mkfs.f2fs --root-dir missing tree: exit $rc, '$out'"
if img3=$(SOURCE_DATE_EPOCH=$T mkimg c.img 512M -f "$SRC"); then
	verify "$img3" root $T && tap_ok "without -P root owns everything; SOURCE_DATE_EPOCH is -T" ||
		tap_fail "the image differs from the source (no -P)"
else
	tap_fail "sload.f2fs with SOURCE_DATE_EPOCH failed"
fi
rm -f "$img3"
if img4=$(mkimg d.img 512M -f "$SRC" -P); then
	verify "$img4" keep source && tap_ok "without -T each inode takes its source's mtime" ||
		tap_fail "the image differs from the source (no -T)"
	clean "$img4" && tap_ok "both fscks clean (no -T)" || tap_fail "fsck finds problems (no -T)"
else
	tap_fail "sload.f2fs without -T failed"
fi
rm -f "$img4"

# ---- refusals, before any write ------------------------------------------------------
small=$(new_image small.img 64M)
"$MKFS" -q -r -U "$UUID" -T 1000 "$small" >/dev/null || hard_error "mkfs failed"
cp "$small" "$TEST_TMP/small.before"
mkdir -p "$TEST_TMP/big"
pattern "$TEST_TMP/big/f" $((80 * 1024 * 1024))
out=$("$SLOAD" -f "$TEST_TMP/big" -T $T "$small" 2>&1)
rc=$?
if [ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'nothing written' &&
   cmp -s "$small" "$TEST_TMP/small.before"; then
	tap_ok "a tree that does not fit is refused, the image untouched"
else
	tap_fail "tree too big: exit $rc, '$out', image $(cmp -s "$small" "$TEST_TMP/small.before" && echo same || echo changed)"
fi
mkdir -p "$TEST_TMP/one/dir"
echo x > "$TEST_TMP/one/dir/f"
"$SLOAD" -f "$TEST_TMP/one" -T $T "$small" || hard_error "loading a small tree failed"
cp "$small" "$TEST_TMP/small.before"
out=$("$SLOAD" -f "$TEST_TMP/one" -T $T "$small" 2>&1)
rc=$?
if [ $rc -eq 1 ] && printf '%s' "$out" | grep -q "one/dir: File exists" &&
   cmp -s "$small" "$TEST_TMP/small.before"; then
	tap_ok "a name already in the volume is refused with its path, nothing written"
else
	tap_fail "existing name: exit $rc, '$out'"
fi
"$SLOAD" -f "$TEST_TMP/one" --target-dir /dir -T $T "$small" && "$DUMP" --cat /dir/dir/f "$small" | grep -qx x &&
	tap_ok "--target-dir loads below a directory of the volume" || tap_fail "--target-dir /dir did not load there"
out=$("$SLOAD" -f "$TEST_TMP/one" --target-dir /nowhere "$small" 2>&1)
[ $? -eq 1 ] && printf '%s' "$out" | grep -q '/nowhere' && tap_ok "a missing --target-dir directory is named" ||
	tap_fail "missing --target-dir: '$out'"
clean "$small" && tap_ok "both fscks clean after three loads" || tap_fail "fsck after three loads"
# 5000 bytes of xattrs on one file: ext4 with 4 KiB blocks cannot hold them, tmpfs can
BIGX=$TEST_TMP/bigx
[ -d /dev/shm ] && [ -w /dev/shm ] && BIGX=$(mktemp -d /dev/shm/zf2fs-sload.XXXXXX) &&
	rm_bigx() { rm -rf "$BIGX"; } && CLEANUP_HOOKS+=(rm_bigx)
mkdir -p "$BIGX"
echo x > "$BIGX/f"
if python3 -c 'import os,sys
os.setxattr(sys.argv[1], "user.a", b"a" * 2500)
os.setxattr(sys.argv[1], "user.b", b"b" * 2500)' "$BIGX/f" 2>/dev/null; then
	cp "$small" "$TEST_TMP/small.before"
	out=$("$SLOAD" -f "$BIGX" "$small" 2>&1)
	rc=$?
	[ $rc -eq 1 ] && printf '%s' "$out" | grep -q "$BIGX/f: xattrs too big" &&
		cmp -s "$small" "$TEST_TMP/small.before" &&
		tap_ok "xattrs too big for an inode are refused with the path, nothing written" ||
		tap_fail "xattrs too big: exit $rc, '$out'"
else
	echo "# the source file system takes no 5000 bytes of xattrs: that refusal not tested"
fi
# a file larger than one flush of the load holds (200 MiB: written over several flushes
# of 64 MiB, then one checkpoint)
mkdir -p "$TEST_TMP/large"
pattern "$TEST_TMP/large/f" $((200 * 1024 * 1024))
large=$(new_image large.img 512M)
"$MKFS" -q -r -U "$UUID" -T 1000 "$large" >/dev/null || hard_error "mkfs failed"
if "$SLOAD" -d 2 -f "$TEST_TMP/large" -T $T "$large" > "$TEST_TMP/large.out" 2>&1 &&
   grep -q ' 3 flushes, 1 commit$' "$TEST_TMP/large.out" &&
   "$DUMP" --cat /f "$large" | cmp -s - "$TEST_TMP/large/f" && clean "$large"; then
	tap_ok "a 200 MiB file goes in over 3 flushes and one commit, reads back, both fscks clean"
else
	tap_fail "the 200 MiB file: $(tail -1 "$TEST_TMP/large.out")"
fi
rm -f "$large" "$TEST_TMP/large/f"
for o in "-c -a zstd"; do
	out=$("$SLOAD" $o -f "$TEST_TMP/one" "$small" 2>&1)
	rc=$?
	[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
		tap_ok "sload.f2fs $o: refused in one line" || tap_fail "sload.f2fs $o: exit $rc, '$out'"
done
"$SLOAD" "$small" >/dev/null 2>&1
[ $? -eq 16 ] && tap_ok "no -f: usage error 16" || tap_fail "no -f: not a usage error"
tap_summary
