#!/bin/bash
# sload.f2fs places blocks in the six logs as the kernel would (lib/write/txn_temp.c): a file
# whose extension is in the superblock's cold list (mp4) is marked cold (i_advise) and
# its data goes to the cold data log, one in the hot list (db) is marked hot and goes to
# the hot data log, small files (at most 16 blocks) and directories to the hot data log,
# large files to the warm one; directory inodes to the hot node log, other inodes to the
# warm one, indirect nodes to the cold one.  Both fscks find the image clean (they check
# each block's segment type against its summary).
. "$(dirname "$0")/sload_lib.sh"

SRC=$TEST_TMP/src
mkdir -p "$SRC/dir"
head -c 200000 /dev/urandom > "$SRC/big"           # 49 blocks: warm
head -c 20000 /dev/urandom > "$SRC/small"          # 5 blocks: hot
head -c 20000 /dev/urandom > "$SRC/movie.MP4"      # cold extension (any case)
head -c 20000 /dev/urandom > "$SRC/clip.mp4.tmp"   # cold, with a temporary suffix
head -c 20000 /dev/urandom > "$SRC/cache.db"       # hot extension
truncate -s 100M "$SRC/sparse"                     # block 21972: an indirect node
echo x | dd of="$SRC/sparse" bs=1 seek=90000000 conv=notrunc status=none
for i in $(seq 1 300); do echo "$i" > "$SRC/dir/file-number-$i"; done

img=$(new_image l.img 256M)
SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r "$img" >/dev/null || hard_error "mkfs failed"
"$SLOAD" -f "$SRC" -T 1700000017 "$img" || hard_error "sload.f2fs failed"

if python3 - "$DUMP" "$INJECT" "$img" <<'PYEOF'
import json, subprocess, sys
dump, inject, img = sys.argv[1:]
def run(*a): return subprocess.run(a, check=True, capture_output=True, text=True).stdout
seg = json.loads(run(dump, "--json", "--segments", img))["segments"]
main = seg["main_blkaddr"]
types = {s["segno"]: s["type"] for s in seg["list"]}
def where(blk): return types[(blk - main) // 512]
def ino(p): return int(run(inject, "--lookup", p, img))
def node(i): return int(run(inject, "--nat", "0", "--nid", str(i), "--mb", "block_addr", "--get", img))
def data(i, b): return int(run(inject, "--bmap", str(b), "--nid", str(i), img))
def advise(i): return json.loads(run(dump, "--json", "-i", str(i), img))["inode"][0]["i_advise"]
bad = []
def want(what, got, exp):
    if got != exp: bad.append(f"{what}: {got}, want {exp}")
for p, log, adv in (("/big", "warm_data", 0), ("/small", "hot_data", 0),
                    ("/movie.MP4", "cold_data", 1), ("/clip.mp4.tmp", "cold_data", 1),
                    ("/cache.db", "hot_data", 0x20)):
    i = ino(p)
    want(f"{p} block 0", where(data(i, 0)), log)
    want(f"{p} i_advise", advise(i), adv)
    want(f"{p} inode", where(node(i)), "warm_node")
for p in ("/", "/dir"):
    i = ino(p)
    want(f"{p} inode", where(node(i)), "hot_node")
    want(f"{p} dentry block", where(data(i, 0)), "hot_data")
i = ino("/sparse")
want("/sparse's data", where(data(i, 21972)), "warm_data")
# the inode's i_nid[2] is the first indirect node
ind = json.loads(run(dump, "--json", "-i", str(i), img))["inode"][0]["i_nid"][2]
want("/sparse's indirect node", where(node(ind)), "cold_node")
if bad: print("\n".join(bad))
sys.exit(1 if bad else 0)
PYEOF
then
	tap_ok "data, inodes and indirect nodes sit in the logs the kernel would choose"
else
	tap_fail "blocks in the wrong logs"
fi
out=$("$FSCK" -f -n "$img" 2>&1) && ref_fsck "$img" && tap_ok "both fscks clean" || tap_fail "fsck: $out"
tap_summary
