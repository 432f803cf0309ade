#!/bin/sh
# frag.sh - dump.f2fs --frag against the kernel's own extent map, in one boot.  Linux
# writes a file sequentially (one buffered stream), three files by interleaved 4 KiB
# direct-I/O writes (what concurrent O_DIRECT writers do to each other's allocations,
# made deterministic by zwork interleave) and two files by two dd writers running at
# once; every file's extents come back from FS_IOC_FIEMAP (merged where the kernel splits
# one run at a node boundary).  On the host, --frag must count the same extents and
# blocks for every file, the interleaved files must show one extent per block pair run
# (hundreds) and the sequential one at most a few; the data reads back and both fscks
# find the volume clean.  Then defrag.f2fs --file makes two of those files one extent each
# on the host, in batches of 512 blocks (the 2048-block file in four checkpoints), and a
# second boot reads them back and maps each in one piece.
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

# defrag.f2fs --file on the host makes an interleaved file and a concurrent writer's file
# one extent each; Linux mounts the result, reads them back and maps them in one piece
DEFRAG=$top_builddir/tools/defrag.f2fs
c0_sum=$("$DUMP" --cat /c0 "$img" | sha256sum | cut -d' ' -f1)
for f in i1 c0; do
	"$DEFRAG" --batch-blocks 512 --file /$f "$img" > "$VM_OUT/defrag-$f.out" 2>&1 ||
		vm_fail "defrag.f2fs --file /$f failed: $(tail -1 "$VM_OUT/defrag-$f.out")"
done
vm_fsck data "after defrag.f2fs --file"
vm_guest <<EOT
step "mount the defragmented volume, read and map the files defrag.f2fs moved"
zmount data /mnt/a
zwork checkfile /mnt/a/i1 2048 11
echo "C0SUM \$(sha256sum /mnt/a/c0 | cut -d' ' -f1)"
zwork fiemap /mnt/a/i1
zwork fiemap /mnt/a/c0
zwork checkfile /mnt/a/i0 2048 10
zumount /mnt/a
EOT
first=$(wc -l < "$VM_CONSOLE")
vm_boot
vm_fsck data "after the kernel mounted the defragmented volume"
con=$(tail -n +$((first + 1)) "$VM_CONSOLE" | tr -d '\r')
echo "$con" | grep -q "^checkfile: /mnt/a/i1 matches" || vm_fail "the defragmented i1 does not read back"
echo "$con" | grep -q "^checkfile: /mnt/a/i0 matches" || vm_fail "i0, left in place, does not read back"
[ "$(echo "$con" | sed -n 's/^C0SUM //p')" = "$c0_sum" ] || vm_fail "the defragmented c0 reads differently"
for f in i1 c0; do
	m=$(echo "$con" | sed -n "s|^fiemap: /mnt/a/$f [0-9]* extents \([0-9]*\) merged.*|\1|p" | tail -1)
	if [ "$m" = 1 ]; then
		vm_log "$f: one extent after defrag.f2fs --file, as the kernel maps it"
	else
		vm_fail "$f: the kernel maps ${m:-no} extents after defrag.f2fs --file"
	fi
done
vm_finish
