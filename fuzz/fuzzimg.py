#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""fuzzimg.py - convert between F2FS images and the fuzz targets' compact input.

  fuzzimg.py pack IMAGE SEED     an image to a fuzz input (a seed for the corpus)
  fuzzimg.py unpack SEED IMAGE   a fuzz input (e.g. a crash) back to the image it stands for

The input format is described in fuzz/fuzz_image.h: le16 size in MiB, then records
(le32 block, le16 length, bytes).  pack keeps every block before the main area, every
node block, and the data blocks of directories, symlinks and quota files (found through the
SSA and the node footers); file contents are left out so that seeds stay small.
"""
import struct
import sys

BLK = 4096
MAX_MIB = 128


def pack(img_path, seed_path, budget=160 * 1024):
    data = open(img_path, 'rb').read()
    nblocks = len(data) // BLK
    mib = min(MAX_MIB, max(1, (len(data) + (1 << 20) - 1) >> 20))
    sb = data[1024:1024 + 3072]
    main_blk = struct.unpack_from('<I', sb, 92)[0] if sb[:4] == b'\x10\x20\xf5\xf2' else nblocks
    ssa_blk = struct.unpack_from('<I', sb, 88)[0] if main_blk < nblocks else 0
    meta = [b for b in range(min(main_blk, nblocks)) if any(data[b * BLK:(b + 1) * BLK])]
    # node blocks: the SSA footer says so (entry_type 1, 5 bytes before the end); current
    # segments have no SSA block yet: their non-zero blocks come last, as room allows
    nodes, modes, node_blks, unknown = {}, {}, [], []
    segs = (nblocks - main_blk) // 512 if main_blk < nblocks else 0
    seg_type = {}
    for s in range(segs):
        sblk = data[(ssa_blk + s) * BLK:(ssa_blk + s + 1) * BLK]
        seg_type[s] = sblk[BLK - 5] if any(sblk) else None
        if seg_type[s] == 0:
            continue
        for b in range(main_blk + s * 512, main_blk + (s + 1) * 512):
            blk = data[b * BLK:(b + 1) * BLK]
            if not any(blk):
                continue
            if seg_type[s] is None:
                unknown.append(b)
                continue
            nid, ino = struct.unpack_from('<II', blk, BLK - 24)
            node_blks.append((b, nid, ino))
            nodes[nid] = ino
            if nid == ino:
                modes[ino] = struct.unpack_from('<H', blk, 0)[0]
    # quota files (superblock qf_ino) are kept whole too: fsck parses their trees
    qf = set(struct.unpack_from('<3I', sb, 2745)) - {0}
    is_dir = lambda ino: ino in qf or modes.get(ino, 0) & 0o170000 in (0o040000, 0o120000)
    dirs = [b for b, nid, ino in node_blks if is_dir(ino)]
    others = [b for b, nid, ino in node_blks if not is_dir(ino)]
    # data blocks of directories and symlinks: the SSA entry names the owning node
    dir_data = []
    for s in range(segs):
        if seg_type[s] != 0:
            continue
        sblk = data[(ssa_blk + s) * BLK:(ssa_blk + s + 1) * BLK]
        for i in range(512):
            b = main_blk + s * 512 + i
            if any(data[b * BLK:(b + 1) * BLK]) and \
               is_dir(nodes.get(struct.unpack_from('<I', sblk, i * 7)[0], 0)):
                dir_data.append(b)
    keep, size = [], 2
    for group in (meta, dirs, dir_data, unknown, others):
        for b in group:
            n = 6 + len(data[b * BLK:(b + 1) * BLK].rstrip(b'\0'))
            if group is not meta and size + n > budget:
                continue
            keep.append(b)
            size += n
    out = bytearray(struct.pack('<H', mib))
    for b in sorted(set(keep)):
        blk = data[b * BLK:(b + 1) * BLK].rstrip(b'\0')
        out += struct.pack('<IH', b, len(blk)) + blk
    open(seed_path, 'wb').write(out)
    print('%s: %d blocks, %d bytes' % (seed_path, len(keep), len(out)))


def unpack(seed_path, img_path):
    d = open(seed_path, 'rb').read()
    mib = d[0] | d[1] << 8 if len(d) >= 2 else 1
    mib = min(MAX_MIB, max(1, mib))
    nblocks = (mib << 20) // BLK
    img = bytearray(mib << 20)
    pos = 2
    while pos + 6 <= len(d):
        b, n = struct.unpack_from('<IH', d, pos)
        pos += 6
        n = min(n, BLK, len(d) - pos)
        off = (b % nblocks) * BLK
        img[off:off + n] = d[pos:pos + n]
        pos += n
    with open(img_path, 'wb') as f:
        f.write(img)


if __name__ == '__main__':
    if len(sys.argv) != 4 or sys.argv[1] not in ('pack', 'unpack'):
        sys.exit(__doc__)
    (pack if sys.argv[1] == 'pack' else unpack)(sys.argv[2], sys.argv[3])
