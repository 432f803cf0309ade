#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""f2fs_corrupt.py - make one precise corruption in an F2FS image, for fsck tests.

Reads the image the way the kernel does (superblock copy 0, newest valid checkpoint pack,
NAT journal before NAT blocks, live copies by the version bitmaps) and changes exactly one
thing, fixing up checksums only where the operation says so.

  f2fs_corrupt.py IMG inode INO FIELD VALUE [--keep-csum]   set an inode field
  f2fs_corrupt.py IMG node NID OFFSET HEXBYTES               raw bytes in a node block
  f2fs_corrupt.py IMG cp FIELD VALUE                         checkpoint field (crc redone)
  f2fs_corrupt.py IMG cp-raw OFFSET HEXBYTES                 raw bytes in the CP block
  f2fs_corrupt.py IMG sb FIELD VALUE [COPY]                  superblock field (no crc fix)
  f2fs_corrupt.py IMG sit SEGNO VBLOCKS                      SIT valid count/type word
  f2fs_corrupt.py IMG sit-bit SEGNO OFF 0|1                  one SIT bitmap bit
  f2fs_corrupt.py IMG nat NID INO BLKADDR                    a NAT entry (journal or block)
  f2fs_corrupt.py IMG dentry DIR_INO NAME FIELD VALUE        ino|hash|type|name_len|bit
  f2fs_corrupt.py IMG lookup PATH                            print the inode of PATH
  f2fs_corrupt.py IMG addr INO                               print an inode's block address
  f2fs_corrupt.py IMG data INO IDX                           print a file's IDX-th data address
  f2fs_corrupt.py IMG data-set INO IDX ADDR                  set it (inode checksum redone)
  f2fs_corrupt.py IMG file-raw INO OFFSET HEXBYTES           raw bytes in a file's contents
  (and inode-get, cp-get, cp-other-raw, ssa, sit-journal-segno, orphan-count, dentry-rename)
"""
import struct
import sys

BLK = 4096
BPS = 512

INODE_FIELDS = {
    'mode': (0, 'H'), 'advise': (2, 'B'), 'inline': (3, 'B'), 'uid': (4, 'I'),
    'gid': (8, 'I'), 'links': (12, 'I'), 'size': (16, 'Q'), 'blocks': (24, 'Q'),
    'generation': (68, 'I'), 'depth': (72, 'I'), 'xattr_nid': (76, 'I'), 'flags': (80, 'I'),
    'pino': (84, 'I'), 'namelen': (88, 'I'), 'dir_level': (347, 'B'),
    'ext_fofs': (348, 'I'), 'ext_blk': (352, 'I'), 'ext_len': (356, 'I'),
    'extra_isize': (360, 'H'), 'inline_xattr_size': (362, 'H'), 'checksum': (368, 'I'),
    'nid0': (4052, 'I'), 'nid1': (4056, 'I'), 'nid2': (4060, 'I'), 'nid3': (4064, 'I'),
    'nid4': (4068, 'I'), 'footer_nid': (4072, 'I'), 'footer_ino': (4076, 'I'),
    'footer_flag': (4080, 'I'),
}
CP_FIELDS = {
    'checkpoint_ver': (0, 'Q'), 'user_block_count': (8, 'Q'), 'valid_block_count': (16, 'Q'),
    'rsvd_segment_count': (24, 'I'), 'overprov_segment_count': (28, 'I'),
    'free_segment_count': (32, 'I'), 'ckpt_flags': (132, 'I'),
    'cp_pack_total_block_count': (136, 'I'), 'cp_pack_start_sum': (140, 'I'),
    'valid_node_count': (144, 'I'), 'valid_inode_count': (148, 'I'),
    'next_free_nid': (152, 'I'),
    'cur_node_segno0': (36, 'I'), 'cur_data_segno0': (84, 'I'),
    'cur_node_blkoff0': (68, 'H'), 'cur_data_blkoff0': (116, 'H'),
}
SB_FIELDS = {
    'magic': (0, 'I'), 'log_blocksize': (16, 'I'), 'log_blocks_per_seg': (20, 'I'),
    'segs_per_sec': (24, 'I'), 'secs_per_zone': (28, 'I'), 'block_count': (36, 'Q'),
    'section_count': (44, 'I'), 'segment_count': (48, 'I'), 'segment_count_main': (68, 'I'),
    'main_blkaddr': (92, 'I'), 'root_ino': (96, 'I'), 'crc': (3068, 'I'),
    'nat_blkaddr': (84, 'I'), 'stop_reason0': (2762, 'B'), 'errors0': (2794, 'B'),
    'feature': (2180, 'I'),
    'qf_ino0': (2745, 'I'), 'qf_ino1': (2749, 'I'), 'qf_ino2': (2753, 'I'),
}


def crc32_f2fs(seed, data):
    crc = seed
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0xEDB88320 if crc & 1 else crc >> 1
    return crc & 0xFFFFFFFF


class Image:
    def __init__(self, path):
        self.f = open(path, 'r+b')
        sb = self.read(0)[1024:1024 + 3072]
        self.sb = sb
        u = lambda o: struct.unpack_from('<I', sb, o)[0]
        self.seg0, self.cp_addr, self.sit_addr = u(72), u(76), u(80)
        self.nat_addr, self.ssa_addr, self.main = u(84), u(88), u(92)
        self.seg_sit, self.seg_nat = u(56), u(60)
        self.payload = u(1664)
        self.features = u(2180)
        self.uuid = sb[108:124]
        self.pick_cp()

    def read(self, blk):
        self.f.seek(blk * BLK)
        return bytearray(self.f.read(BLK))

    def write(self, blk, data):
        assert len(data) == BLK
        self.f.seek(blk * BLK)
        self.f.write(bytes(data))

    def pick_cp(self):
        best = None
        for pack in (0, 1):
            start = self.cp_addr + pack * BPS
            b = self.read(start)
            off = struct.unpack_from('<I', b, 164)[0]
            if off != 4092 or crc32_f2fs(0xF2F52010, b[:off]) != struct.unpack_from('<I', b, off)[0]:
                continue
            ver = struct.unpack_from('<Q', b, 0)[0]
            if best is None or ver > best[0]:
                best = (ver, pack, start)
        if best is None:
            sys.exit('no valid checkpoint')
        self.cp_ver, self.pack, self.cp_start = best
        self.cp = self.read(self.cp_start)
        self.flags = struct.unpack_from('<I', self.cp, 132)[0]
        sitb = struct.unpack_from('<I', self.cp, 156)[0]
        natb = struct.unpack_from('<I', self.cp, 160)[0]
        if self.payload:
            self.natmap = bytes(self.cp[192:192 + natb])
            self.sitmap = bytes(self.read(self.cp_start + 1)[:sitb])
        else:
            self.sitmap = bytes(self.cp[192:192 + sitb])
            self.natmap = bytes(self.cp[192 + sitb:192 + sitb + natb])
        start_sum = struct.unpack_from('<I', self.cp, 140)[0]
        self.sum_blk = self.cp_start + start_sum
        if self.flags & 4:   # compacted: NAT journal first, SIT journal second
            self.nat_j_loc = (self.sum_blk, 0)
            self.sit_j_loc = (self.sum_blk, 507)
        else:
            self.nat_j_loc = (self.sum_blk + 0, 3584)
            self.sit_j_loc = (self.sum_blk + 2, 3584)

    @staticmethod
    def bit(m, n):
        return (m[n // 8] >> (7 - n % 8)) & 1

    def nat_block(self, idx):
        a = self.nat_addr + (idx // BPS) * 2 * BPS + idx % BPS
        return a + BPS if self.bit(self.natmap, idx) else a

    def sit_block(self, idx):
        a = self.sit_addr + idx
        return a + self.seg_sit // 2 * BPS if self.bit(self.sitmap, idx) else a

    def nat_journal(self):
        blk, off = self.nat_j_loc
        b = self.read(blk)
        n = struct.unpack_from('<H', b, off)[0]
        return b, off, n

    def nat_lookup(self, nid):
        b, off, n = self.nat_journal()
        for i in range(n):
            e = off + 2 + i * 13
            if struct.unpack_from('<I', b, e)[0] == nid:
                _, ino, addr = struct.unpack_from('<BII', b, e + 4)
                return ino, addr, ('j', i)
        blk = self.nat_block(nid // 455)
        nb = self.read(blk)
        _, ino, addr = struct.unpack_from('<BII', nb, (nid % 455) * 9)
        return ino, addr, ('b', blk)

    def nat_set(self, nid, ino, addr):
        _, _, where = self.nat_lookup(nid)
        if where[0] == 'j':
            b, off, _ = self.nat_journal()
            struct.pack_into('<II', b, off + 2 + where[1] * 13 + 5, ino, addr)
            self.write(self.nat_j_loc[0], b)
        else:
            nb = self.read(where[1])
            struct.pack_into('<II', nb, (nid % 455) * 9 + 1, ino, addr)
            self.write(where[1], nb)

    def inode_csum(self, node):
        seed = crc32_f2fs(0xFFFFFFFF, self.uuid)
        c = crc32_f2fs(seed, node[4076:4080])
        c = crc32_f2fs(c, node[68:72])
        c = crc32_f2fs(c, node[:368])
        c = crc32_f2fs(c, b'\0' * 4)
        return crc32_f2fs(c, node[372:])

    def has_csum(self, node):
        return (self.features & 0x20) and (node[3] & 0x20) and \
            struct.unpack_from('<H', node, 360)[0] >= 12

    def rewrite_cp(self, cp):
        struct.pack_into('<I', cp, 4092, crc32_f2fs(0xF2F52010, cp[:4092]))
        total = struct.unpack_from('<I', cp, 136)[0]
        self.write(self.cp_start, cp)
        self.write(self.cp_start + total - 1, cp)

    def sit_entry(self, segno):
        # the SIT journal overrides the block
        blk, off = self.sit_j_loc
        b = self.read(blk)
        n = struct.unpack_from('<H', b, off)[0]
        for i in range(n):
            e = off + 2 + i * 78
            if struct.unpack_from('<I', b, e)[0] == segno:
                return ('j', blk, e + 4)
        blk = self.sit_block(segno // 55)
        return ('b', blk, (segno % 55) * 74)

    def dir_entries(self, ino):
        """(block address or None for inline, slot, name, entry offset) for each entry."""
        _, addr, _ = self.nat_lookup(ino)
        node = self.read(addr)
        extra = struct.unpack_from('<H', node, 360)[0] // 4 if node[3] & 0x20 else 0
        out = []
        if node[3] & 0x04:   # inline dentries
            xattr = struct.unpack_from('<H', node, 362)[0] if self.features & 0x40 and node[3] & 0x20 else 50
            room = 4 * (923 - extra - xattr - 1)
            nr = room * 8 // (19 * 8 + 1)
            base = 360 + 4 * (extra + 1)
            bitmap, dent = base, base + room - nr * 19
            names = dent + nr * 11
            out += self._scan(node, addr, bitmap, dent, names, nr)
            return out
        for i in range(923 - extra):
            a = struct.unpack_from('<I', node, 360 + 4 * (extra + i))[0]
            if a in (0, 0xFFFFFFFF):
                continue
            b = self.read(a)
            out += self._scan(b, a, 0, 30, 30 + 214 * 11, 214)
        return out

    @staticmethod
    def _scan(b, addr, bitmap, dent, names, nr):
        out, i = [], 0
        while i < nr:
            if not (b[bitmap + i // 8] >> (i % 8)) & 1:
                i += 1
                continue
            ln = struct.unpack_from('<H', b, dent + i * 11 + 8)[0]
            name = bytes(b[names + i * 8:names + i * 8 + ln])
            out.append((addr, i, name, dent + i * 11, bitmap))
            i += max(1, (ln + 7) // 8)
        return out


def num(s):
    return int(s, 0)


def tea_hash(name):
    """The kernel's directory-entry hash (TEA over 16-byte chunks)."""
    if name in (b'.', b'..'):
        return 0
    state = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]
    p, ln = name, len(name)
    while True:
        pad = (ln | (ln << 8)) & 0xFFFFFFFF
        pad |= (pad << 16) & 0xFFFFFFFF
        words, acc = [], pad
        take = min(ln, 16)
        for i in range(take):
            acc = ((acc << 8) + p[i]) & 0xFFFFFFFF
            if i % 4 == 3:
                words.append(acc)
                acc = pad
        if len(words) < 4 and take % 4:
            words.append(acc)
        while len(words) < 4:
            words.append(pad)
        x, y, tot = state[0], state[1], 0
        for _ in range(16):
            tot = (tot + 0x9E3779B9) & 0xFFFFFFFF
            x = (x + ((((y << 4) + words[0]) & 0xFFFFFFFF) ^ ((y + tot) & 0xFFFFFFFF) ^ (((y >> 5) + words[1]) & 0xFFFFFFFF))) & 0xFFFFFFFF
            y = (y + ((((x << 4) + words[2]) & 0xFFFFFFFF) ^ ((x + tot) & 0xFFFFFFFF) ^ (((x >> 5) + words[3]) & 0xFFFFFFFF))) & 0xFFFFFFFF
        state[0] = (state[0] + x) & 0xFFFFFFFF
        state[1] = (state[1] + y) & 0xFFFFFFFF
        if ln <= 16:
            break
        p, ln = p[16:], ln - 16
    return state[0]


def main():
    img = Image(sys.argv[1])
    op, a = sys.argv[2], sys.argv[3:]
    if op in ('inode', 'node'):
        _, addr, _ = img.nat_lookup(num(a[0]))
        node = img.read(addr)
        if op == 'inode':
            off, fmt = INODE_FIELDS[a[1]]
            struct.pack_into('<' + fmt, node, off, num(a[2]))
            if '--keep-csum' not in a and img.has_csum(node):
                struct.pack_into('<I', node, 368, img.inode_csum(node))
        else:
            data = bytes.fromhex(a[2])
            node[num(a[1]):num(a[1]) + len(data)] = data
        img.write(addr, node)
    elif op == 'inode-get':
        _, addr, _ = img.nat_lookup(num(a[0]))
        off, fmt = INODE_FIELDS[a[1]]
        print(struct.unpack_from('<' + fmt, img.read(addr), off)[0])
    elif op == 'cp-get':
        off, fmt = CP_FIELDS[a[0]]
        print(struct.unpack_from('<' + fmt, img.cp, off)[0])
    elif op == 'cp-other-raw':
        other = img.cp_addr + (1 - img.pack) * BPS
        b = img.read(other)
        data = bytes.fromhex(a[1])
        b[num(a[0]):num(a[0]) + len(data)] = data
        img.write(other, b)
    elif op == 'ssa':
        blk = num(a[0])
        seg, off = (blk - img.main) // BPS, (blk - img.main) % BPS
        b = img.read(img.ssa_addr + seg)
        struct.pack_into('<IBH', b, off * 7, num(a[1]), 0, num(a[2]))
        img.write(img.ssa_addr + seg, b)
    elif op == 'sit-journal-segno':
        blk, off = img.sit_j_loc
        b = img.read(blk)
        struct.pack_into('<I', b, off + 2 + num(a[0]) * 78, num(a[1]))
        img.write(blk, b)
    elif op == 'orphan-count':
        blk = img.cp_start + 1 + img.payload
        b = img.read(blk)
        struct.pack_into('<I', b, 4088, num(a[0]))
        img.write(blk, b)
    elif op == 'dentry-rename':
        old, new = a[1].encode(), a[2].encode()
        assert len(old) == len(new)
        for addr, slot, n, eoff, bitmap in img.dir_entries(num(a[0])):
            if n != old:
                continue
            b = img.read(addr)
            names = eoff + (214 - slot) * 11 + slot * 8 if bitmap == 0 else None
            if names is None:
                sys.exit('dentry-rename works on dentry blocks only')
            b[names:names + len(new)] = new
            struct.pack_into('<I', b, eoff, tea_hash(new))
            img.write(addr, b)
            return
        sys.exit('no entry %s' % a[1])
    elif op == 'cp':
        off, fmt = CP_FIELDS[a[0]]
        struct.pack_into('<' + fmt, img.cp, off, num(a[1]))
        img.rewrite_cp(img.cp)
    elif op == 'cp-raw':
        data = bytes.fromhex(a[1])
        img.cp[num(a[0]):num(a[0]) + len(data)] = data
        img.write(img.cp_start, img.cp)
    elif op == 'sb':
        off, fmt = SB_FIELDS[a[0]]
        copy = num(a[2]) if len(a) > 2 else 0
        b = img.read(copy)
        struct.pack_into('<' + fmt, b, 1024 + off, num(a[1]))
        img.write(copy, b)
    elif op == 'sit':
        kind, blk, off = img.sit_entry(num(a[0]))
        b = img.read(blk)
        struct.pack_into('<H', b, off, num(a[1]))
        img.write(blk, b)
    elif op == 'sit-bit':
        kind, blk, off = img.sit_entry(num(a[0]))
        b = img.read(blk)
        bit = num(a[1])
        mask = 0x80 >> (bit % 8)
        pos = off + 2 + bit // 8
        b[pos] = (b[pos] | mask) if num(a[2]) else (b[pos] & ~mask & 0xFF)
        img.write(blk, b)
    elif op == 'nat':
        img.nat_set(num(a[0]), num(a[1]), num(a[2]))
    elif op == 'dentry':
        name = a[1].encode()
        for addr, slot, n, eoff, bitmap in img.dir_entries(num(a[0])):
            if n != name:
                continue
            b = img.read(addr)
            field, val = a[2], num(a[3])
            if field == 'ino':
                struct.pack_into('<I', b, eoff + 4, val)
            elif field == 'hash':
                struct.pack_into('<I', b, eoff, val)
            elif field == 'type':
                b[eoff + 10] = val
            elif field == 'name_len':
                struct.pack_into('<H', b, eoff + 8, val)
            elif field == 'bit':
                m = 1 << (slot % 8)
                b[bitmap + slot // 8] = (b[bitmap + slot // 8] | m) if val else (b[bitmap + slot // 8] & ~m & 0xFF)
            if b[3] & 0x04 and addr is not None and img.has_csum(b):
                struct.pack_into('<I', b, 368, img.inode_csum(b))
            img.write(addr, b)
            return
        sys.exit('no entry %s in directory %s' % (a[1], a[0]))
    elif op == 'lookup':
        ino = 3
        for part in [p for p in a[0].split('/') if p]:
            for _, _, n, eoff, _ in img.dir_entries(ino):
                if n == part.encode():
                    _, addr, _ = img.nat_lookup(ino)
                    break
            else:
                sys.exit('not found: ' + part)
            for addr, slot, n, eoff, bm in img.dir_entries(ino):
                if n == part.encode():
                    ino = struct.unpack_from('<I', img.read(addr), eoff + 4)[0]
                    break
        print(ino)
    elif op == 'addr':
        print(img.nat_lookup(num(a[0]))[1])
    elif op == 'misplace':
        # rename the first entry of a block at hash level >= 1 so that its (correct) hash
        # selects another bucket of that level
        dino = num(a[0])
        _, iaddr, _ = img.nat_lookup(dino)
        node = img.read(iaddr)
        extra = struct.unpack_from('<H', node, 360)[0] // 4 if node[3] & 0x20 else 0
        for bidx in range(2, 923 - extra):
            baddr = struct.unpack_from('<I', node, 360 + 4 * (extra + bidx))[0]
            if baddr in (0, 0xFFFFFFFF):
                continue
            level, start = 0, 0
            while bidx >= start + (1 << level) * 2:
                start += (1 << level) * 2
                level += 1
            nb, bucket = 1 << level, (bidx - start) // 2
            b = img.read(baddr)
            for addr, slot, n, eoff, bm in Image._scan(b, baddr, 0, 30, 30 + 214 * 11, 214):
                if n in (b'.', b'..'):
                    continue
                for ch in b'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789':
                    new = n[:-1] + bytes([ch])
                    if tea_hash(new) % nb != bucket:
                        names = 30 + 214 * 11 + slot * 8
                        b[names:names + len(new)] = new
                        struct.pack_into('<I', b, eoff, tea_hash(new))
                        img.write(baddr, b)
                        print(new.decode())
                        return
        sys.exit('no entry to misplace')
    elif op == 'data-set':
        _, addr, _ = img.nat_lookup(num(a[0]))
        node = img.read(addr)
        extra = struct.unpack_from('<H', node, 360)[0] // 4 if node[3] & 0x20 else 0
        struct.pack_into('<I', node, 360 + 4 * (extra + num(a[1])), num(a[2]))
        if img.has_csum(node):
            struct.pack_into('<I', node, 368, img.inode_csum(node))
        img.write(addr, node)
    elif op == 'data':
        _, addr, _ = img.nat_lookup(num(a[0]))
        node = img.read(addr)
        extra = struct.unpack_from('<H', node, 360)[0] // 4 if node[3] & 0x20 else 0
        print(struct.unpack_from('<I', node, 360 + 4 * (extra + num(a[1])))[0])
    elif op == 'file-raw':
        # raw bytes at a byte offset of a file held in the inode's direct blocks
        _, addr, _ = img.nat_lookup(num(a[0]))
        node = img.read(addr)
        extra = struct.unpack_from('<H', node, 360)[0] // 4 if node[3] & 0x20 else 0
        off, data = num(a[1]), bytes.fromhex(a[2])
        blk = struct.unpack_from('<I', node, 360 + 4 * (extra + off // BLK))[0]
        buf = bytearray(img.read(blk))
        buf[off % BLK:off % BLK + len(data)] = data
        img.write(blk, bytes(buf))
    else:
        sys.exit('unknown operation ' + op)


if __name__ == '__main__':
    main()
