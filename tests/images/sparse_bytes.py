"""The bytes of sparse image files, read where they hold data (SEEK_DATA/SEEK_HOLE): a
sha256sum or cmp of a 256 MiB image reads its holes too, a second or more a call.

  sparse_bytes.py sum IMG     a digest of IMG: its size, where its data lies, the data
  sparse_bytes.py same A B    exit 0 when A and B hold the same bytes (holes read as
                              zeros), 1 when not
"""
import hashlib
import os
import sys


def extents(fd):
    """The (start, end) of each run of data in the open file fd."""
    pos, size, runs = 0, os.fstat(fd).st_size, []
    while pos < size:
        try:
            pos = os.lseek(fd, pos, os.SEEK_DATA)
        except OSError:
            break
        end = os.lseek(fd, pos, os.SEEK_HOLE)
        runs.append((pos, end))
        pos = end
    return runs


def chunks(fd, lo, hi):
    for off in range(lo, hi, 1 << 20):
        yield off, os.pread(fd, min(hi - off, 1 << 20), off)


def digest(path):
    fd = os.open(path, os.O_RDONLY)
    h = hashlib.sha256(b"size %d;" % os.fstat(fd).st_size)
    for lo, hi in extents(fd):
        h.update(b"data %d %d;" % (lo, hi))
        for _, data in chunks(fd, lo, hi):
            h.update(data)
    return h.hexdigest()


def same(path_a, path_b):
    a, b = os.open(path_a, os.O_RDONLY), os.open(path_b, os.O_RDONLY)
    if os.fstat(a).st_size != os.fstat(b).st_size:
        return False
    for lo, hi in extents(a) + extents(b):
        for off, data in chunks(a, lo, hi):
            if os.pread(b, len(data), off) != data:
                return False
    return True


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "sum":
        print(digest(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "same":
        sys.exit(0 if same(sys.argv[2], sys.argv[3]) else 1)
    else:
        sys.exit(__doc__)
