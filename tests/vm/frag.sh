#!/bin/sh
# frag.sh - dump.f2fs --frag against the kernel's own extent map, in one boot.  Linux
# writes a file sequentially (one buffered stream), three files by interleaved 4 KiB
# direct-I/O writes (what concurrent O_DIRECT writers do to each other's allocations,
# made deterministic by zwork interleave) and two files by two dd writers running at
# once; every file's extents come back from FS_IOC_FIEMAP (merged where the kernel splits
# one run at a node boundary).  On the host, --frag must count the same extents and
# blocks for every file, the interleaved files must show one extent per block pair run
# (hundreds) and the sequential one at most a few; the data reads back and both fscks
# find the volume clean.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

DUMP=$top_builddir/tools/dump.f2fs
[ -x "$DUMP" ] || vm_error "dump.f2fs is not built: $DUMP"

vm_setup frag "sequential, interleaved and concurrent writers -> dump.f2fs --frag vs FIEMAP"
vm_disk data 256M
vm_mkfs data || vm_fail "mkfs failed"

vm_guest <<'EOT'
step "write one file sequentially, three interleaved by direct I/O, two by concurrent dd"
zmount data /mnt/a
zwork writefile /mnt/a/seq 8192 1 fsync
zwork interleave 512 10 /mnt/a/i0 /mnt/a/i1 /mnt/a/i2
dd if=/dev/zero of=/mnt/a/c0 bs=4k count=2048 oflag=direct 2>/dev/null &
dd if=/dev/zero of=/mnt/a/c1 bs=4k count=2048 oflag=direct 2>/dev/null &
wait
sync
for f in seq i0 i1 i2 c0 c1; do zwork fiemap /mnt/a/$f; done
zwork checkfile /mnt/a/seq 8192 1
zwork checkfile /mnt/a/i1 2048 11
zumount /mnt/a
EOT
vm_boot
vm_fsck data

img=$(vm_img data)
tr -d '\r' < "$VM_CONSOLE" | sed -n 's|^fiemap: /mnt/a/||p' > "$VM_OUT/fiemap"
[ "$(wc -l < "$VM_OUT/fiemap")" -eq 6 ] || vm_fail "the guest reported $(wc -l < "$VM_OUT/fiemap") of 6 FIEMAP maps"
grep -q "^checkfile: /mnt/a/seq matches" "$VM_CONSOLE" || vm_fail "the sequential file does not read back"
grep -q "^checkfile: /mnt/a/i1 matches" "$VM_CONSOLE" || vm_fail "an interleaved file does not read back"
args=
for f in seq i0 i1 i2 c0 c1; do args="$args --frag /$f"; done
# shellcheck disable=SC2086
"$DUMP" --json $args "$img" > "$VM_OUT/frag.json" || vm_fail "dump.f2fs --frag failed"
"$DUMP" --frag / "$img" > "$VM_OUT/frag-all.txt" || vm_fail "dump.f2fs --frag / failed"
python3 - "$VM_OUT/frag.json" "$VM_OUT/fiemap" <<'EOP' || vm_fail "dump.f2fs --frag disagrees with the kernel"
import json, sys
ours = {r["path"].lstrip("/"): r for r in json.load(open(sys.argv[1]))["fragmentation"]}
bad = 0
for line in open(sys.argv[2]):
    # NAME RAW extents MERGED merged BLOCKS blocks
    w = line.split()
    name, raw, merged, blocks = w[0], int(w[1]), int(w[3]), int(w[5])
    o = ours.get(name)
    if o is None or o["extents"] != merged or o["blocks"] != blocks:
        print("FAIL: %s: kernel %d extents (%d unmerged), %d blocks; dump.f2fs %s"
              % (name, merged, raw, blocks,
                 "nothing" if o is None else "%d extents, %d blocks" % (o["extents"], o["blocks"])))
        bad = 1
    else:
        print("vm: %s: %d extents, %d blocks, as the kernel maps it" % (name, merged, blocks))
    if name == "seq" and merged > 4:
        print("FAIL: the sequential file is in %d pieces" % merged); bad = 1
    if name.startswith("i") and merged < 256:
        print("FAIL: %s: interleaved writes left only %d extents" % (name, merged)); bad = 1
sys.exit(bad)
EOP
sed -n 's/^ *\(files\|fragmented\|extents\|extents_per_file\) /vm: volume: &/p' "$VM_OUT/frag-all.txt"
vm_finish
