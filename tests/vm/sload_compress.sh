#!/bin/sh
# sload_compress.sh - sload.f2fs -c with every algorithm, checked by the kernel in one
# boot.  One volume (extra_attr,inode_checksum,compression) gets a subtree per load:
# /lzo, /lz4, /zstd and /lzorle (-a each, clusters of 4, 8, 16 and 8 blocks; lzo-rle as
# plain LZO1X-1 streams under algorithm 3), /rel (zstd, -r: the
# files released as F2FS_IOC_RELEASE_COMPRESS_BLOCKS leaves them), /only (lzo, -i txt
# -i log) and /except (zstd -x bin -m 2).  Linux 6.1 mounts it, every path matches the
# sources' sha256 manifest, a write to a released file is refused, appends to an lzo and
# a zstd file read back after a remount; then both fscks find the volume clean.  The
# other way round: the kernel writes lzo, lz4, zstd and lzo-rle files on a second volume
# (compress_algorithm=, compress_extension=*) and our dump.f2fs --cat reads each one
# equal to its source, so our reader decompresses what Linux compresses; a file of long
# zero runs makes the kernel's lzo-rle clusters use its run-length form, and the test
# checks that they carry its version header (17, 1) before reading them back.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

SLOAD=$top_builddir/tools/sload.f2fs
DUMP=$top_builddir/tools/dump.f2fs
[ -x "$SLOAD" ] || vm_error "sload.f2fs is not built: $SLOAD"
[ -x "$DUMP" ] || vm_error "dump.f2fs is not built: $DUMP"
for a in lz4 lzo zstd; do
	"$SLOAD" -V | grep -q "+$a" || vm_skip "this build has no $a (see sload.f2fs --version)"
done

vm_setup sload_compress "sload.f2fs -c -a lzo|lz4|zstd|lzo-rle, -r, -i/-x/-m -> mount -> manifest -> kernel writes -> fsck; kernel-compressed files -> dump --cat"
T=1700000017
SRC=$VM_OUT/src
BASE=$VM_OUT/base
rm -rf "$SRC" "$BASE"
# one kind of each file: compressible text (whole clusters and a partial one), random
# bytes (clusters stay plain), a sparse file, runs of one byte, long zero runs between
# a few bytes (never a whole zero cluster, which would stay a hole), a small inline file
fill()
{
	mkdir -p "$1/d"
	for i in $(seq 1 3000); do echo "line $i of some very compressible text"; done > "$1/text.txt"
	head -c 100000 /dev/urandom > "$1/random.bin"
	for i in $(seq 1 500); do echo "tail $i"; done > "$1/d/partial.log"
	truncate -s 10M "$1/holey"
	for i in $(seq 1 2000); do echo "x$i"; done | dd of="$1/holey" bs=4096 seek=1000 conv=notrunc status=none
	head -c 300000 /dev/zero | tr '\0' 'z' > "$1/d/zs"
	python3 -c 'import sys
sys.stdout.write("".join("%d,%d,%d\n" % (i, i * 7919 % 1000, i % 7) for i in range(30000)))' > "$1/d/table.csv"
	python3 -c 'import sys
sys.stdout.buffer.write(b"".join(b"run %05d" % i + bytes(2500 + i % 1500) for i in range(120)))' > "$1/d/zr.bin"
	echo small > "$1/small"
}
for s in lzo lz4 zstd lzorle rel only except; do
	fill "$SRC/$s"
	mkdir -p "$BASE/$s"
done
"$VM_ZWORK" manifest "$SRC" "$VM_OUT/src.manifest" >/dev/null || vm_error "zwork manifest failed"

vm_disk compr 256M
vm_mkfs compr -O extra_attr,inode_checksum,compression || vm_fail "mkfs -O compression failed"
img=$(vm_img compr)
"$SLOAD" -f "$BASE" -T $T "$img" || vm_fail "sload.f2fs of the base failed"
load() { dir=$1; shift; "$SLOAD" "$@" -f "$SRC/$dir" --target-dir "/$dir" -T $T "$img" || vm_fail "sload.f2fs $* into /$dir failed"; }
load lzo -c -a lzo -L 2
load lz4 -c -a lz4 -L 3
load zstd -c -a zstd -L 4
load lzorle -c -a lzo-rle -L 3
load rel -c -a zstd -r -L 3
load only -c -a lzo -i txt -i log
load except -c -a zstd -x bin -m 2
vm_fsck compr "after the loads"

# the volume the kernel compresses on, and the files it copies there
vm_disk kw 256M
vm_mkfs kw -O extra_attr,compression || vm_fail "mkfs of the kernel's volume failed"

{
	echo 'cat > /tmp/manifest <<"ZEOF"'
	cat "$VM_OUT/src.manifest"
	echo 'ZEOF'
	cat <<'EOT'
step "compr: the kernel reads every file sload.f2fs compressed"
zmount compr /mnt/a
zwork verify /mnt/a /tmp/manifest && echo "COMPR-verified"
if echo more >> /mnt/a/rel/text.txt 2>/dev/null; then echo "COMPR-rel-writable"; else echo "COMPR-rel-refused"; fi
for i in 1 2 3 4 5 6 7 8 9 10; do echo "more $i"; done >> /mnt/a/lzo/text.txt
for i in 1 2 3 4 5 6 7 8 9 10; do echo "more $i"; done >> /mnt/a/zstd/d/table.csv
cp /mnt/a/zstd/d/zs /mnt/a/zstd/zs-copy
sync
zumount /mnt/a
zdrop_caches
zmount compr /mnt/a
echo "COMPR-tail $(tail -n 1 /mnt/a/lzo/text.txt) $(tail -n 1 /mnt/a/zstd/d/table.csv) $(cmp /mnt/a/zstd/d/zs /mnt/a/zstd/zs-copy && echo same) $(cmp /mnt/a/rel/text.txt /mnt/a/lzo/text.txt >/dev/null 2>&1 || echo rel-kept)"
step "kw: the kernel compresses copies of the files with each algorithm"
for a in lzo lz4 zstd lzo-rle; do
	zmount kw /mnt/b "compress_algorithm=$a,compress_extension=*"
	mkdir -p /mnt/b/$a/d
	for f in text.txt random.bin d/partial.log d/zs d/table.csv d/zr.bin; do cp /mnt/a/only/$f /mnt/b/$a/$f; done
	sync
	zumount /mnt/b
done
zumount /mnt/a
EOT
} | vm_guest
vm_boot
vm_fsck compr
vm_fsck kw
console=$(tr -d '\r' < "$VM_CONSOLE")
if printf '%s\n' "$console" | grep -q '^COMPR-verified'; then
	vm_log "compr: Linux reads every file of the seven loads (lzo, lz4, zstd, lzo-rle, released, -i, -x -m) as the source has it"
else
	vm_fail "compr: the kernel did not read the loaded files back (console: $VM_CONSOLE)"
fi
if printf '%s\n' "$console" | grep -q '^COMPR-rel-refused'; then
	vm_log "compr: Linux refuses to write to a released file"
else
	vm_fail "compr: a released file took a write"
fi
got=$(printf '%s\n' "$console" | sed -n 's/^COMPR-tail //p' | head -1)
if [ "$got" = "more 10 more 10 same rel-kept" ]; then
	vm_log "compr: the kernel appends to an lzo and a zstd file and copies one, read back after a remount"
else
	vm_fail "compr: after the kernel's writes: '$got', want 'more 10 more 10 same rel-kept'"
fi
# our reader on what the kernel compressed
bad=0 total=0 packed=0
for a in lzo lz4 zstd lzo-rle; do
	for f in text.txt random.bin d/partial.log d/zs d/table.csv d/zr.bin; do
		total=$((total + 1))
		if ! "$DUMP" --cat "/$a/$f" "$(vm_img kw)" 2>"$VM_OUT/kw.dump.err" | cmp -s - "$SRC/only/$f"; then
			bad=$((bad + 1))
			vm_log "dump.f2fs --cat /$a/$f differs from the source: $(head -1 "$VM_OUT/kw.dump.err")"
		fi
	done
	n=$("$DUMP" --json -i "$("$top_builddir/tools/inject.f2fs" --lookup "/$a/text.txt" "$(vm_img kw)")" "$(vm_img kw)" |
	    python3 -c 'import json,sys; i = json.load(sys.stdin)["inode"][0]; print(i["i_compr_blocks"] if i["i_flags"] & 4 and i["i_compress_algorithm"] == int(sys.argv[1]) else 0)' \
		"$(case $a in lzo) echo 0;; lz4) echo 1;; zstd) echo 2;; lzo-rle) echo 3;; esac)")
	[ "${n:-0}" -gt 0 ] && packed=$((packed + 1))
done
if [ "$bad" -eq 0 ] && [ "$packed" -eq 4 ]; then
	vm_log "kw: dump.f2fs --cat reads all $total files Linux compressed (lzo, lz4, zstd, lzo-rle) as their sources"
else
	vm_fail "kw: $bad of $total kernel-compressed files read wrong; $packed of 4 text files compressed by the kernel"
fi
# the kernel's lzo-rle clusters of the zero-run file: each stream (after the 24-byte
# cluster header in the block after the marker) opens with the version header, so our
# reader decoded run-length streams above, which liblzo2 cannot
kwimg=$(vm_img kw)
rle=$("$DUMP" --json -i "$("$top_builddir/tools/inject.f2fs" --lookup /lzo-rle/d/zr.bin "$kwimg")" "$kwimg" |
	python3 -c 'import json,sys
i = json.load(sys.stdin)["inode"][0]
b = i["blocks"]
n = v = 0
with open(sys.argv[1], "rb") as f:
    for k in range(len(b) - 1):
        if b[k]["blkaddr"] == 0xFFFFFFFE and b[k + 1]["blkaddr"] < 0xFFFFFFF0:
            n += 1
            f.seek(b[k + 1]["blkaddr"] * 4096 + 24)
            v += f.read(2) == b"\x11\x01"
print(n, v, i["i_compress_algorithm"])' "$kwimg")
set -- $rle
if [ "${1:-0}" -gt 0 ] && [ "$1" = "$2" ] && [ "$3" = 3 ]; then
	vm_log "kw: all $1 lzo-rle clusters Linux wrote for the zero-run file are version-1 (run-length) streams, read back by dump.f2fs --cat"
else
	vm_fail "kw: /lzo-rle/d/zr.bin: '$rle' (compressed clusters, those with the lzo-rle header, algorithm)"
fi
vm_finish
