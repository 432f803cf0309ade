#!/bin/bash
# sload.f2fs and mkfs.f2fs --root-dir on volumes of 16 KiB blocks (our mkfs -b 16384):
# a varied tree is loaded into a plain volume, one of -O packed_ssa, and one of
# extra_attr,inode_checksum,compression,casefold,quota (its root made casefolded, the
# files compressed with -c), and formatted in with --root-dir (plain and packed_ssa).
# The tree: a directory whose names fill several 16 KiB dentry blocks, inline files, a
# file just past the inline room, sparse files with blocks past the inode's 3995
# addresses (a direct node) and past the two direct nodes' 2 x 4090 (an indirect node),
# symlinks, a hard link, a fifo, xattrs inline and in a 16 KiB xattr node (6 to 10 KiB,
# more than a 4 KiB volume holds; where the source file system takes them: tmpfs).  Each result: our fsck -f finds nothing (exit 0,
# nothing fixed), dump.f2fs --extract -S gives every file byte for byte (sha256) and
# link target, and the xattrs read off the image are the source's.  Xattrs no 16 KiB
# inode holds are refused with one line naming the file and the room, the image
# unchanged.  A load interrupted at a sample of its writes leaves the old volume or the
# new one.  The 4 KiB runs are in sload*.sh.
. "$(dirname "$0")/lib.sh"
need_python

SLOAD=$OUR_BIN/sload.f2fs
FSCK=$OUR_BIN/fsck.f2fs
DUMP=$OUR_BIN/dump.f2fs
INJECT=$OUR_BIN/inject.f2fs
for b in "$MKFS" "$SLOAD" "$FSCK" "$DUMP" "$INJECT"; do
	[ -x "$b" ] || hard_error "not built: $b"
done
T=1700000016
unset SOURCE_DATE_EPOCH

# The source on tmpfs when there is one: ext4 with 4 KiB blocks holds no 6 KiB xattrs.
SRC=$TEST_TMP/src
if [ -d /dev/shm ] && [ -w /dev/shm ] && SHM=$(mktemp -d /dev/shm/zf2fs-sload16.XXXXXX); then
	rm_shm() { rm -rf "$SHM"; }
	CLEANUP_HOOKS+=(rm_shm)
	SRC=$SHM/src
fi
python3 - "$SRC" <<'PYEOF' || hard_error "cannot make the source tree"
import os, sys
s = sys.argv[1]
os.makedirs(s + "/many")
os.makedirs(s + "/d/sub")
# 600 names of 5 slots: about 3000 slots, 856 fit a 16 KiB dentry block
for i in range(600):
    open(f"{s}/many/a-file-name-of-forty-bytes-or-so-{i:05d}", "w").write(f"{i}\n")
open(s + "/d/tiny", "w").write("tiny\n")
open(s + "/d/sub/empty", "w").close()
open(s + "/d/past-inline", "wb").write(bytes(range(256)) * 80)          # 20480 bytes
open(s + "/d/random", "wb").write(os.urandom(100000))
def sparse(name, size, blocks):
    with open(name, "wb") as f:
        f.truncate(size)
        for b in blocks:
            f.seek(b * 16384)
            f.write(bytes([b % 251 + 1]) * 16384)
sparse(s + "/d/direct", 5000 * 16384 + 77, [0, 3994, 3995, 4999])
sparse(s + "/d/indirect", 12300 * 16384, [1, 8000, 12175, 12299])
os.symlink("../d/tiny", s + "/d/link")
os.symlink("x" * 3000, s + "/d/longlink")
os.link(s + "/d/random", s + "/hard")
os.mkfifo(s + "/fifo")
PYEOF
# xattrs: inline, 6 KiB and 10 KiB (an xattr node of 16 KiB), on files and a directory
BIGX=yes
python3 - "$SRC" <<'PYEOF' 2>/dev/null || BIGX=
import os, sys
s = sys.argv[1]
os.setxattr(s + "/d/tiny", "user.small", b"hello")
os.setxattr(s + "/d/random", "user.six", b"6" * 6000)
os.setxattr(s + "/d/direct", "user.ten", bytes(range(256)) * 40)
os.setxattr(s + "/d/sub", "user.dir", b"d" * 7000)
PYEOF
[ -n "$BIGX" ] || echo "# the source file system takes no 6 KiB xattrs: none tested"
OLD=$TEST_TMP/oldtree
mkdir -p "$OLD/etc" || hard_error "cannot make the old tree"
echo "old file" > "$OLD/etc/conf"

# matches IMG DIR: our fsck -f finds nothing (exit 0, nothing fixed); every regular
# file and symlink below DIR of the source is in IMG's root with its bytes (dump
# --extract -S; compared where either copy has data), and so are the xattrs of every
# source entry (read off the image: the inline area, then the xattr node)
matches()
{
	local img=$1 out rc
	out=$("$FSCK" -f "$img" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] || ! grep -q '0 problems, 0 fixed' <<< "$out"; then
		echo "our fsck -f: exit $rc"; printf '%s\n' "$out" | sed 's/^/    | /' | head -20
		return 1
	fi
	rm -rf "$TEST_TMP/out"
	"$DUMP" -S --extract / -o "$TEST_TMP/out" "$img" > /dev/null 2>&1 ||
		{ echo "dump --extract failed"; return 1; }
	python3 - "$DUMP" "$img" "$2" "$TEST_TMP/out" <<'PYEOF'
import hashlib, json, os, struct, subprocess, sys
dump, img, src, out = sys.argv[1:]
bad = []
def extents(f):
    pos, size, ret = 0, os.fstat(f.fileno()).st_size, []
    while pos < size:
        try:
            pos = os.lseek(f.fileno(), pos, os.SEEK_DATA)
        except OSError:
            break
        end = os.lseek(f.fileno(), pos, os.SEEK_HOLE)
        ret.append((pos, end))
        pos = end
    return ret
def same(p, q):
    # the same size and bytes: compared where either file has data (holes read as zeros)
    with open(p, "rb") as f, open(q, "rb") as g:
        if os.fstat(f.fileno()).st_size != os.fstat(g.fileno()).st_size:
            return False
        for a, b in sorted(extents(f) + extents(g)):
            f.seek(a); g.seek(a)
            while a < b:
                n = min(b - a, 1 << 20)
                if hashlib.sha256(f.read(n)).digest() != hashlib.sha256(g.read(n)).digest():
                    return False
                a += n
    return True
def run(*a):
    return json.loads(subprocess.run([dump, "--json", *a, img], check=True,
                                     capture_output=True).stdout)
tree = {e["path"]: e for e in run("--tree")["tree"]["entries"]}
raw = open(img, "rb")
bs = 16384
def xattrs(ino):
    n = run("-i", str(ino))["inode"][0]
    raw.seek(n["blkaddr"] * bs)
    blk = raw.read(bs)
    words = n["geometry"]["inline_xattr_words"] if n["i_inline"] & 1 else 0
    apb = (bs - 360 - 20 - 24) // 4
    area = blk[360 + 4 * (apb - words): 360 + 4 * apb]
    if n["i_xattr_nid"]:
        a = run("-n", str(n["i_xattr_nid"]))["nat"][0]["blkaddr"]
        raw.seek(a * bs)
        area += raw.read(bs - 24)
    got, pos, names = {}, 24, {1: "user.", 4: "trusted.", 6: "security."}
    if len(area) < 28 or struct.unpack_from("<I", area)[0] != 0xF2F52011:
        return got
    while pos + 4 <= len(area) and struct.unpack_from("<I", area, pos)[0]:
        idx, nlen, vlen = struct.unpack_from("<BBH", area, pos)
        name = area[pos + 4:pos + 4 + nlen].decode()
        got[names.get(idx, f"{idx}.") + name] = area[pos + 4 + nlen:pos + 4 + nlen + vlen]
        pos += (4 + nlen + vlen + 3) // 4 * 4
    return got
for root, dirs, files in os.walk(src):
    for name in dirs + files:
        p = os.path.join(root, name)
        rel = os.path.relpath(p, src)
        if "/" + rel not in tree:
            bad.append(f"/{rel}: not in the volume"); continue
        q = os.path.join(out, rel)
        if os.path.islink(p):
            if not os.path.islink(q) or os.readlink(q) != os.readlink(p):
                bad.append(f"/{rel}: link target differs")
        elif os.path.isfile(p) and not os.path.isfile(q):
            bad.append(f"/{rel}: not extracted")
        elif os.path.isfile(p) and not same(p, q):
            bad.append(f"/{rel}: contents differ")
        want = {n: os.getxattr(p, n, follow_symlinks=False)
                for n in os.listxattr(p, follow_symlinks=False)}
        if want and xattrs(tree["/" + rel]["ino"]) != want:
            bad.append(f"/{rel}: xattrs differ")
for b in bad[:10]:
    print(b)
sys.exit(1 if bad else 0)
PYEOF
}

# check NAME IMG SRC: matches IMG SRC as one TAP line
check()
{
	local out
	if out=$(matches "$2" "$3" 2>&1); then
		tap_ok "$1: fsck clean, every file, link and xattr read back"
	else
		tap_fail "$1:"; printf '%s\n' "$out" | sed 's/^/    | /'
	fi
}

# fresh NAME MKFS-ARGS...: a new 16 KiB volume
fresh()
{
	local img
	img=$(new_image "$1" 512M)
	shift
	"$MKFS" -q -f -b 16384 -T $T "$@" "$img" > /dev/null || hard_error "mkfs -b 16384 $* failed"
	echo "$img"
}

plain=$(fresh plain.img)
packed=$(fresh packed.img -O packed_ssa)
feat=$(fresh feat.img -O extra_attr,inode_checksum,compression,casefold,quota -C utf8)
# the root casefolded (as chattr +F on an empty directory) where this build folds names
if grep -q '^#define HAVE_LIBUNISTRING 1' "$top_builddir/config.h"; then
	"$INJECT" --node --mb i_flags --path / --val 0x40000000 "$feat" > /dev/null ||
		hard_error "inject (a casefolded root) failed"
else
	echo "# built without libunistring: the root is not casefolded"
fi
# -c where this build compresses LZ4
COMPRESS=
grep -q '^#define HAVE_LIBLZ4 1' "$top_builddir/config.h" && COMPRESS="-c -L 2" ||
	echo "# built without liblz4: no -c"
"$SLOAD" -f "$OLD" -T $T "$plain" > /dev/null || hard_error "loading the old tree failed"
cp --sparse=always "$plain" "$TEST_TMP/old.img"
"$DUMP" --json --tree "$plain" > "$TEST_TMP/old.tree" || hard_error "dump --tree failed"

for v in plain packed; do
	img=${!v}
	if out=$("$SLOAD" -f "$SRC" -T $T "$img" 2>&1); then
		grep -q '^\[FSCK\] Max image size: [0-9]* MB, Free space: [0-9]* MB$' <<< "$out" ||
			tap_fail "sload $v: no Max image size line: $out"
		check "sload $v" "$img" "$SRC"
	else
		tap_fail "sload $v: $out"
	fi
done
# shellcheck disable=SC2086
if out=$("$SLOAD" -f "$SRC" -T $T $COMPRESS "$feat" 2>&1); then
	check "sload ${COMPRESS:+-c }into casefold, compression, quota" "$feat" "$SRC"
else
	tap_fail "sload ${COMPRESS:+-c }into casefold, compression, quota: $out"
fi
if [ -n "$COMPRESS" ]; then
	n=$("$DUMP" --json -i "$("$INJECT" --lookup /d/random "$feat")" "$feat" |
	    python3 -c 'import json,sys; print(json.load(sys.stdin)["inode"][0]["geometry"]["compressed"])')
	[ "$n" = True ] && tap_ok "-c at 16 KiB: /d/random is compressed" ||
		tap_fail "-c at 16 KiB: /d/random compressed: $n"
fi
for f in "" packed_ssa; do
	img=$(new_image "root${f:+_$f}.img" 512M)
	if out=$("$MKFS" -q -f -b 16384 -T $T ${f:+-O $f} --root-dir "$SRC" "$img" 2>&1); then
		check "mkfs -b 16384 ${f:+-O $f }--root-dir" "$img" "$SRC"
	else
		tap_fail "mkfs -b 16384 ${f:+-O $f }--root-dir: $out"
	fi
done

# xattrs no 16 KiB inode holds: one line naming the file and the room, nothing written
if [ -n "$BIGX" ]; then
	NOFIT=$(dirname "$SRC")/nofit
	mkdir -p "$NOFIT" && echo x > "$NOFIT/f" &&
		python3 -c 'import os,sys; os.setxattr(sys.argv[1], "user.a", b"a" * 17000)' \
			"$NOFIT/f" || hard_error "cannot set 17000 bytes of xattrs"
	img=$(new_image nofit.img 256M)
	"$MKFS" -q -f -b 16384 "$img" > /dev/null || hard_error "mkfs -b 16384 (256M) failed"
	cp "$img" "$TEST_TMP/nofit.before"
	out=$("$SLOAD" -f "$NOFIT" "$img" 2>&1)
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <<< "$out")" -eq 1 ] &&
		grep -q "$NOFIT/f: xattrs too big: F2FS holds 16560 bytes .* 16 KiB blocks" <<< "$out" &&
		same_bytes "$img" "$TEST_TMP/nofit.before" &&
		tap_ok "17000 bytes of xattrs: refused, one line naming the file and the room" ||
		tap_fail "17000 bytes of xattrs: exit $rc, '$out'"
	out=$("$MKFS" -q -f -b 16384 --root-dir "$NOFIT" "$img" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && grep -q "$NOFIT/f: xattrs too big" <<< "$out" &&
		same_bytes "$img" "$TEST_TMP/nofit.before" &&
		tap_ok "mkfs --root-dir: the same refusal before formatting" ||
		tap_fail "mkfs --root-dir with 17000 bytes of xattrs: exit $rc, '$out'"
fi

# A load interrupted at a sample of its writes (the N-th write fails) leaves the old
# volume (fsck clean, the old tree's paths and inodes), and the whole load the new one.
fault_load()
{
	cp --sparse=always "$TEST_TMP/old.img" "$TEST_TMP/t.img"
	ZF2FS_FAULT_WRITES=$1 "$SLOAD" -f "$SRC" -T $T "$TEST_TMP/t.img" > /dev/null 2>&1
}
fault_total 1024 65536
bad=
for n in 1 2 $((total / 4)) $((total / 2)) $((3 * total / 4)) $((total - 1)) $total; do
	fault_load $n && { bad="write $n of $total failed and the load succeeded"; break; }
	out=$("$FSCK" -f -n "$TEST_TMP/t.img" 2>&1) ||
		{ bad="write $n of $total failed: our fsck -f -n: $(head -3 <<< "$out")"; break; }
	"$DUMP" --json --tree "$TEST_TMP/t.img" > "$TEST_TMP/t.tree" 2>&1 &&
		cmp -s "$TEST_TMP/t.tree" "$TEST_TMP/old.tree" && continue
	bad="write $n of $total failed: not the old tree: $(diff "$TEST_TMP/old.tree" "$TEST_TMP/t.tree" | head -3)"
	break
done
[ -z "$bad" ] && fault_load $((total + 1)) && matches "$TEST_TMP/t.img" "$SRC" > /dev/null &&
	matches "$TEST_TMP/t.img" "$OLD" > /dev/null || bad=${bad:-"the whole load: not the new volume"}
[ -z "$bad" ] && tap_ok "a load failing at write 1, 2, 1/4, 1/2, 3/4, last-1, last of $total: the old volume" ||
	tap_fail "$bad"
tap_summary
