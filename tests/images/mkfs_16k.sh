#!/bin/bash
# mkfs.f2fs -b 16384 [-O packed_ssa]: our 16 KiB-block volumes against the layout of
# f2fs-tools' development branch, recorded in mkfs_16k.table (sizes from 300 MiB to
# 15 TiB, with and without packed_ssa, -s/-z, -o, -i and the features that add inodes or
# change them).  For each configuration our mkfs formats a sparse file and every
# field the table holds is read back from the image and compared: the superblock's areas
# and counts, the checkpoint's counts (user, valid, reserved, overprovision and free
# segments, the pack's size) and the inodes mkfs made (root, quota files, lost+found)
# with their places.  Then:
#   - the blocks mkfs writes have their parts where 16 KiB blocks put them: checkpoint
#     crc, inode footers and checksums, the root's dentry block, the summaries' footers;
#   - --json names the block size and packed_ssa, and its areas are the superblock's;
#   - -b 4096 writes the same bytes as no -b;
#   - -O packed_ssa with 4 KiB blocks is dropped with one Info line, and the superblock
#     has no packed_ssa bit;
#   - -b 8192 is refused with one line, exit 16 (--root-dir at 16 KiB: sload_16k.sh);
#   - with F2FS_DEV_FSCK naming f2fs-tools' development fsck.f2fs (not in CI), each
#     volume must check clean with it.
. "$(dirname "$0")/lib.sh"
need_python

TABLE=$top_srcdir/tests/images/mkfs_16k.table
UUID=11111111-2222-3333-4444-555555555555
FIELDS=$TEST_TMP/fields.py
cat > "$FIELDS" <<'PY'
import struct, sys

def u32(b, o):
    return struct.unpack_from('<I', b, o)[0]

def u64(b, o):
    return struct.unpack_from('<Q', b, o)[0]

f = open(sys.argv[1], 'rb')
f.seek(1024)
sb = f.read(3072)
out = [(n, u32(sb, o)) for n, o in (('log_sectorsize', 8), ('log_sectors_per_block', 12),
       ('log_blocksize', 16), ('log_blocks_per_seg', 20), ('segs_per_sec', 24),
       ('secs_per_zone', 28))]
out.append(('block_count', u64(sb, 36)))
for i, n in enumerate(('section_count', 'segment_count', 'segment_count_ckpt',
                       'segment_count_sit', 'segment_count_nat', 'segment_count_ssa',
                       'segment_count_main', 'segment0_blkaddr', 'cp_blkaddr', 'sit_blkaddr',
                       'nat_blkaddr', 'ssa_blkaddr', 'main_blkaddr')):
    out.append((n, u32(sb, 44 + 4 * i)))
out += [('root_ino', u32(sb, 96)), ('cp_payload', u32(sb, 1664)),
        ('feature', '0x%x' % u32(sb, 2180))]
out += [('qf_ino%d' % q, u32(sb, 2745 + 4 * q)) for q in range(3)]
d = dict(out)
bs = 1 << d['log_blocksize']
best = None
for pack in range(2):
    f.seek((d['cp_blkaddr'] + pack * 512) * bs)
    cp = f.read(bs)
    if best is None or u64(cp, 0) > best[0]:
        best = (u64(cp, 0), cp, pack)
cp = best[1]
out += [('user_block_count', u64(cp, 8)), ('valid_block_count', u64(cp, 16))]
out += [(n, u32(cp, o)) for n, o in (('rsvd_segment_count', 24),
        ('overprov_segment_count', 28), ('free_segment_count', 32),
        ('cp_pack_total_block_count', 136), ('cp_pack_start_sum', 140),
        ('valid_node_count', 144), ('valid_inode_count', 148), ('next_free_nid', 152),
        ('sit_ver_bitmap_bytesize', 156), ('nat_ver_bitmap_bytesize', 160),
        ('cp_checksum_offset', 164))]
out += [('cur_node_blkoff0', struct.unpack_from('<H', cp, 68)[0]),
        ('cur_data_blkoff0', struct.unpack_from('<H', cp, 116)[0])]
# NAT block 0 of the first copy, then the NAT journal (compacted: first in the block)
f.seek(d['nat_blkaddr'] * bs)
nat = f.read(bs)
entries = {nid: struct.unpack_from('<II', nat, nid * 9 + 1) for nid in range(3, u32(cp, 152))}
f.seek((d['cp_blkaddr'] + best[2] * 512 + u32(cp, 140)) * bs)
j = f.read(bs)
if not u32(cp, 132) & 0x4:
    j = j[((4096 if int(d['feature'], 16) & 0x10000 else bs) // 8) * 7:]
for k in range(struct.unpack_from('<H', j, 0)[0]):
    nid, _, ino, addr = struct.unpack_from('<IBII', j, 2 + 13 * k)
    entries[nid] = (ino, addr)
for nid in range(3, u32(cp, 152)):
    ino, addr = entries.get(nid, (0, 0))
    if not addr:
        continue
    f.seek(addr * bs)
    node = f.read(bs)
    rel = addr - d['main_blkaddr']
    out.append(('nid%d' % nid, 'ino=%d seg=%d off=%d mode=0%o links=%d size=%d blocks=%d '
                'inline=0x%x flags=0x%x extra_isize=%d' % (
                    ino, rel // 512, rel % 512, struct.unpack_from('<H', node, 0)[0],
                    u32(node, 12), u64(node, 16), u64(node, 24), node[3], u32(node, 80),
                    struct.unpack_from('<H', node, 360)[0] if node[3] & 0x20 else 0)))
for n, v in out:
    print(n, v)
PY

# check_config SIZE OPTIONS EXPECTED-FILE
check_config()
{
	local img ours why
	img=$(new_image v16.img "$1")
	# shellcheck disable=SC2086  # the options are words
	if ! "$MKFS" -q -f -r -t 0 -T 1 -U "$UUID" $2 "$img" > "$TEST_TMP/mkfs.out" 2>&1; then
		tap_fail "$1 $2: mkfs failed: $(tail -1 "$TEST_TMP/mkfs.out")"
		return
	fi
	ours=$TEST_TMP/ours.txt
	python3 "$FIELDS" "$img" > "$ours" || { tap_fail "$1 $2: image unreadable"; return; }
	why=$(awk 'NR == FNR { k = $1; $1 = ""; want[k] = $0; next }
		{ k = $1; $1 = ""; got[k] = $0 }
		END { for (k in want) if (got[k] != want[k])
			printf "%s%s:%s (f2fs-tools) vs%s", sep, k, want[k], got[k] (sep = "; ") }' \
		"$3" "$ours")
	if [ -n "$why" ]; then
		tap_fail "$1 $2: $why"
	elif [ -n "${F2FS_DEV_FSCK:-}" ] && ! "$F2FS_DEV_FSCK" -f "$img" > "$TEST_TMP/fsck.out" 2>&1; then
		tap_fail "$1 $2: $F2FS_DEV_FSCK -f exits $?"
	elif [ -n "${F2FS_DEV_FSCK:-}" ] && grep -q "\[Fail\]" "$TEST_TMP/fsck.out"; then
		tap_fail "$1 $2: $F2FS_DEV_FSCK finds: $(grep "\[Fail\]" "$TEST_TMP/fsck.out" | head -1)"
	else
		tap_ok "$1 $2: $(wc -l < "$3") fields as f2fs-tools' development branch lays them"
	fi
	rm -f "$img"
}

# The table: one expected-fields file per [SIZE|OPTIONS] block.
n=0
while IFS= read -r line; do
	case $line in
	\#*|'') continue ;;
	\[*)
		n=$((n + 1))
		line=${line#[}
		line=${line%]}
		printf '%s\n' "$line" > "$TEST_TMP/cfg$n"
		: > "$TEST_TMP/want$n"
		;;
	*) printf '%s\n' "$line" >> "$TEST_TMP/want$n" ;;
	esac
done < "$TABLE"
[ "$n" -ge 20 ] || hard_error "$TABLE holds $n configurations, expected at least 20"
for i in $(seq 1 "$n"); do
	IFS='|' read -r size opts < "$TEST_TMP/cfg$i"
	check_config "$size" "$opts" "$TEST_TMP/want$i"
done

# The blocks mkfs writes, where the 16 KiB geometry puts their parts (docs/layout.md,
# "Block size"): the checkpoint's crc in the block's last word; each inode's footer in the
# last 24 bytes of its block, its checksum over the whole block; the root's dentry block
# (bitmap, then 856 entries from byte 120, names from byte 9536) holding . and .. (and
# lost+found); each summary's footer at the end of the summary (4 KiB with packed_ssa).
CHECK=$TEST_TMP/check.py
cat > "$CHECK" <<'PY'
import struct, sys, zlib

def crc(data, seed):
    return ~zlib.crc32(data, ~seed & 0xFFFFFFFF) & 0xFFFFFFFF

def u32(b, o):
    return struct.unpack_from('<I', b, o)[0]

f = open(sys.argv[1], 'rb')
def blk(a):
    f.seek(a * bs)
    return f.read(bs)
f.seek(1024)
sb = f.read(3072)
bs = 1 << u32(sb, 16)
feature = u32(sb, 2180)
packed = feature & 0x10000
cp_addr, nat_addr, main_addr = u32(sb, 76), u32(sb, 84), u32(sb, 92)
cp = blk(cp_addr)
assert bs == 16384, bs
assert u32(cp, 164) == 16380, 'cp checksum_offset %d' % u32(cp, 164)
assert crc(cp[:16380], 0xF2F52010) == u32(cp, 16380), 'cp crc'
ver = struct.unpack_from('<Q', cp, 0)[0]
seed = crc(sb[108:124], 0xFFFFFFFF)
sum_bs = 4096 if packed else bs
start = cp_addr + u32(cp, 140)
types = [blk(start + i)[sum_bs - 5] for i in range(4)]
assert types == [0, 1, 1, 1], 'summary footer types %s' % types
nat = blk(nat_addr)
names = {}
for nid in range(3, u32(cp, 152)):
    ino, addr = struct.unpack_from('<II', nat, nid * 9 + 1)
    node = blk(addr)
    fnid, fino, flag, cpver, nxt = struct.unpack_from('<IIIQI', node, bs - 24)
    assert (fnid, fino, cpver) == (nid, nid, ver), 'footer of %d: %s' % (nid, (fnid, fino, cpver))
    assert not any(node[4072:4096]), 'inode %d: bytes in the 4 KiB view footer' % nid
    if feature & 0x20:
        # footer ino, i_generation, then the block with the checksum word as zero
        c = crc(node[bs - 20:bs - 16] + node[68:72], seed)
        c = crc(node[:368] + b'\0' * 4 + node[372:], c)
        assert c == u32(node, 368), 'inode %d checksum' % nid
    mode = struct.unpack_from('<H', node, 0)[0]
    if mode & 0o170000 == 0o040000:
        extra = struct.unpack_from('<H', node, 360)[0] if node[3] & 0x20 else 0
        d = blk(u32(node, 360 + extra))
        ents = []
        for slot in range(856):
            if d[slot // 8] >> (slot % 8) & 1:
                h, eino, nlen, typ = struct.unpack_from('<IIHB', d, 120 + 11 * slot)
                if nlen:
                    ents.append((d[9536 + 8 * slot:9536 + 8 * slot + nlen].decode(), eino))
        names[nid] = ents
root = names[3]
assert root[:2] == [('.', 3), ('..', 3)], root
if feature & 0x400:
    assert [n for n, _ in root[2:]] == ['lost+found'], root
print('ok')
PY
for cfg in "1G|-b 16384" "1G|-b 16384 -O packed_ssa,extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,quota,lost_found,sb_checksum"; do
	IFS='|' read -r size opts <<< "$cfg"
	img=$(new_image blocks.img "$size")
	# shellcheck disable=SC2086
	"$MKFS" -q -f -t 0 $opts "$img" > /dev/null 2>&1
	if out=$(python3 "$CHECK" "$img" 2>&1); then
		tap_ok "$opts: checkpoint crc, inode footers and checksums, dentry block, summary footers where 16 KiB blocks put them"
	else
		tap_fail "$opts: $(tail -1 <<< "$out")"
	fi
done

# --json: block size, packed_ssa, and the areas as the superblock has them.
img=$(new_image json.img 8G)
if "$MKFS" -q -f -t 0 -b 16384 -O packed_ssa --json "$img" > "$TEST_TMP/j" 2>&1 &&
   python3 "$FIELDS" "$img" > "$TEST_TMP/f" &&
   python3 - "$TEST_TMP/j" "$TEST_TMP/f" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
f = dict(l.split(' ', 1) for l in open(sys.argv[2]).read().splitlines())
assert j['block_size'] == 16384 and j['packed_ssa'] is True, (j['block_size'], j['packed_ssa'])
for k in ('segment_count', 'segment_count_sit', 'segment_count_nat', 'segment_count_ssa',
          'segment_count_main', 'main_blkaddr', 'ssa_blkaddr', 'rsvd_segment_count',
          'overprov_segment_count', 'free_segment_count', 'user_block_count'):
    assert str(j[k]) == f[k], (k, j[k], f[k])
PY
then
	tap_ok "--json: block_size 16384, packed_ssa true, areas and counts as on disk"
else
	tap_fail "--json disagrees with the 16 KiB volume: $(tail -2 "$TEST_TMP/j")"
fi

# -b 4096 is the default: the same bytes.
a=$(new_image a.img 1G)
b=$(new_image b.img 1G)
"$MKFS" -q -f -r -t 0 -T 1 -U "$UUID" "$a" && "$MKFS" -q -f -r -t 0 -T 1 -U "$UUID" -b 4096 "$b"
if cmp -s "$a" "$b"; then
	tap_ok "-b 4096 writes the bytes of the default"
else
	tap_fail "-b 4096 writes other bytes than the default"
fi

# packed_ssa with 4 KiB blocks: dropped, said once.
out=$("$MKFS" -f -r -t 0 -O packed_ssa "$a" 2>&1)
feat=$(python3 "$FIELDS" "$a" | awk '$1 == "feature" { print $2 }')
if [ "$(grep -c "packed_ssa only applies to 16K blocks" <<< "$out")" = 1 ] && [ "$feat" = 0x0 ]; then
	tap_ok "-O packed_ssa with 4 KiB blocks: one Info line, no feature bit"
else
	tap_fail "-O packed_ssa with 4 KiB blocks: feature $feat, output: $out"
fi

# Refusals: one line, exit 16, the image untouched.
cp "$a" "$b"
for args in "-b 8192"; do
	# shellcheck disable=SC2086
	"$MKFS" -f $args "$b" > "$TEST_TMP/out" 2> "$TEST_TMP/err"
	rc=$?
	if [ "$rc" = 16 ] && [ "$(wc -l < "$TEST_TMP/err")" -le 2 ] && cmp -s "$a" "$b" &&
	   grep -q "block size 8192 is not supported" "$TEST_TMP/err"; then
		tap_ok "$args: refused ($(head -1 "$TEST_TMP/err"))"
	else
		tap_fail "$args: exit $rc, $(cat "$TEST_TMP/err")"
	fi
done

tap_summary
