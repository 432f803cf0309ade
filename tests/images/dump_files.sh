#!/bin/bash
# dump.f2fs file extraction and lookups, on images made by our mkfs and by Debian's and
# loaded by sload.f2fs from a tree with an empty file, inline files, 4 KiB, 1 MiB and
# 13 MiB files (the last needs indirect nodes), a 2100-entry directory (several hash
# levels), symlinks and nested directories:
#   (a) --tree lists exactly the source tree, with the right types and sizes;
#   (b) --cat of every file outside the big directory and of a sample inside it (each a
#       hashed lookup) gives bytes whose sha256 is the source's;
#   (c) -i INO -o FILE extracts byte-identical copies, and -o DIR uses the inode's name;
#   (d) a sparse file (holes punched into a loaded file's tree: in-inode slots and a whole
#       direct node) comes out with zeros there, and with -S keeps the holes;
#   (e) symlinks: --cat follows them (relative and absolute), -i -o gives the target;
#   (f) -b on a sample of data and node blocks of the block maps names the same inode,
#       file offset and node, and says the block is live;
#   (g) a file marked compressed whose clusters are all plain reads back as the kernel
#       reads it (block by block), and its inode says compressed;
#   (h) --extract / -o DIR copies out the source tree (contents, symlink targets, modes,
#       modification times), refuses to write over what DIR already holds, and a name
#       holding '/' on a hostile image writes nothing outside DIR.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/dump_lib.sh"
need_ref_dump
need_python

SRC=$TEST_TMP/src
make_tree "$SRC" || hard_error "cannot build the source tree"
(cd "$SRC" && find . -type f -printf '%P\n' | sort | while IFS= read -r f; do
	printf '%s  %s\n' "$(sha256sum < "$f" | cut -d' ' -f1)" "$f"
done) > "$TEST_TMP/manifest"

sha() { sha256sum | cut -d' ' -f1; }

ino_of()   # IMG PATH
{
	"$DUMP" --json --ls "$2" "$1" | python3 -c '
import json, sys
print(json.load(sys.stdin)["ls"][0]["ino"])'
}

check_tree()   # IMG
{
	"$DUMP" --json --tree "$1" > "$TEST_TMP/tree.json" || return 1
	python3 - "$TEST_TMP/tree.json" "$SRC" <<'PYEOF'
import json, os, stat, sys
t = json.load(open(sys.argv[1]))['tree']['entries']
src = sys.argv[2]
want = {}
for root, dirs, files in os.walk(src):
    for n in dirs + files:
        p = os.path.join(root, n)
        want['/' + os.path.relpath(p, src)] = os.lstat(p)
got = {e['path']: e for e in t if not e['path'].startswith('/lost+found')}
bad = []
for p in sorted(set(want) | set(got)):
    if p not in got: bad.append('missing ' + p); continue
    if p not in want: bad.append('extra ' + p); continue
    st, e = want[p], got[p]
    kind = {stat.S_IFREG: 'regular', stat.S_IFDIR: 'directory', stat.S_IFLNK: 'symlink'}[stat.S_IFMT(st.st_mode)]
    if e['type'] != kind: bad.append('%s: type %s, want %s' % (p, e['type'], kind))
    if kind != 'directory' and e['size'] != st.st_size:
        bad.append('%s: size %s, want %d' % (p, e['size'], st.st_size))
for b in bad[:10]: print('    ' + b)
sys.exit(1 if bad else 0)
PYEOF
}

check_cat()   # IMG: every file outside big_dir, and every 50th inside
{
	local img=$1 sum f n=0 bad=0
	while read -r sum f; do
		case $f in
		big_dir/entry_*) n=$((n + 1)); [ $((n % 50)) -eq 7 ] || continue ;;
		esac
		if [ "$("$DUMP" --cat "$f" "$img" | sha)" != "$sum" ]; then
			echo "    --cat $f: sha256 differs"
			bad=1
		fi
	done < "$TEST_TMP/manifest"
	return $bad
}

check_extract()   # IMG
{
	local img=$1 f ino bad=0 out=$TEST_TMP/x
	mkdir -p "$out"
	for f in empty tiny inline_max f4k f1m f13m dir/sub/deeper/nested; do
		ino=$(ino_of "$img" "$f") || { echo "    no inode for $f"; bad=1; continue; }
		"$DUMP" -i "$ino" -o "$out/file" "$img" > /dev/null &&
			cmp -s "$out/file" "$SRC/$f" || { echo "    -i $ino -o: $f differs"; bad=1; }
	done
	rm -rf "$out/d" && mkdir "$out/d"
	ino=$(ino_of "$img" f1m)
	"$DUMP" -i "$ino" -o "$out/d" "$img" > /dev/null && cmp -s "$out/d/f1m" "$SRC/f1m" ||
		{ echo "    -i $ino -o DIR did not write f1m there"; bad=1; }
	return $bad
}

check_links()   # IMG
{
	local img=$1 bad=0 ino
	[ "$("$DUMP" --cat links/rel "$img" | sha)" = "$(sha < "$SRC/f4k")" ] ||
		{ echo "    --cat links/rel did not give f4k"; bad=1; }
	[ "$("$DUMP" --cat links/abs_dir/deeper/nested "$img" | sha)" = \
	  "$(sha < "$SRC/dir/sub/deeper/nested")" ] ||
		{ echo "    --cat through an absolute directory link failed"; bad=1; }
	ino=$("$DUMP" --json --ls links "$img" | python3 -c '
import json, sys
print([e["ino"] for e in json.load(sys.stdin)["ls"][0]["entries"] if e["name"] == "long_target"][0])')
	[ "$("$DUMP" -i "$ino" -o - "$img" | tail -c 300)" = "$(readlink "$SRC/links/long_target")" ] ||
		{ echo "    -i -o of a 300-byte symlink is not its target"; bad=1; }
	return $bad
}

check_blocks()   # IMG: -b against the block maps of three files
{
	local img=$1 f ino args=() maps=()
	for f in f13m f1m big_dir; do
		ino=$(ino_of "$img" "$f")
		"$DUMP" --json -i "$ino" "$img" > "$TEST_TMP/map.$f.json" || return 1
		maps+=("$TEST_TMP/map.$f.json")
	done
	python3 - "${maps[@]}" > "$TEST_TMP/sample" <<'PYEOF'
import json, sys
for path in sys.argv[1:]:
    i = json.load(open(path))['inode'][0]
    b = i['blocks']
    step = max(1, len(b) // 12)
    for x in b[::step] + b[-1:]:
        print('data %d %d %d %d' % (x['blkaddr'], i['ino'], x['fofs'], x['owner']))
    for nd in i['nodes']:
        print('node %d %d %d %d' % (nd['blkaddr'], i['ino'], nd['ofs'], nd['nid']))
PYEOF
	while read -r _ addr _ _ _; do args+=(-b "$addr"); done < "$TEST_TMP/sample"
	"$DUMP" --json "${args[@]}" "$img" > "$TEST_TMP/blocks.json" || return 1
	python3 - "$TEST_TMP/sample" "$TEST_TMP/blocks.json" <<'PYEOF'
import json, sys
want = [l.split() for l in open(sys.argv[1])]
got = json.load(open(sys.argv[2]))['block']
bad = []
if len(want) != len(got): bad.append('%d answers for %d blocks' % (len(got), len(want)))
kinds = set()
for (kind, addr, ino, ofs, nid), g in zip(want, got):
    addr, ino, ofs, nid = int(addr), int(ino), int(ofs), int(nid)
    kinds.add((kind, g.get('node_kind')))
    ok = g['blkaddr'] == addr and g['kind'] == kind and g['ino'] == ino and g['nid'] == nid \
         and g['live'] and g['valid']
    if kind == 'data': ok = ok and g['fofs'] == ofs
    else: ok = ok and g['node_ofs'] == ofs
    if not ok: bad.append('block %d: want %s ino %d ofs %d nid %d, got %s' % (addr, kind, ino, ofs, nid, g))
need = {('data', 'inode'), ('data', 'direct'), ('node', 'indirect'), ('node', 'direct')}
if not need <= kinds: bad.append('sample lacks %s' % (need - kinds))
for b in bad[:10]: print('    ' + b)
sys.exit(1 if bad else 0)
PYEOF
}

# Punch holes into f13m's tree: in-inode slots 10..19 and its first direct node (i_nid[0]).
check_sparse()   # IMG (a copy is modified)
{
	local img=$1 work=$TEST_TMP/sparse.img ino out=$TEST_TMP/sparse.out
	cp --sparse=always "$img" "$work" || return 1
	ino=$(ino_of "$work" f13m)
	"$DUMP" --json -i "$ino" "$work" > "$TEST_TMP/sp.json" || return 1
	python3 - "$work" "$TEST_TMP/sp.json" "$SRC/f13m" "$TEST_TMP/sp.expect" <<'PYEOF' || return 1
import json, struct, sys
img, mapf, src, expect = sys.argv[1:]
i = json.load(open(mapf))['inode'][0]
extra, addrs = i['geometry']['extra_words'], i['geometry']['addrs']
data = bytearray(open(src, 'rb').read())
with open(img, 'r+b') as f:
    base = i['blkaddr'] * 4096
    for fofs in range(10, 20):
        f.seek(base + 360 + 4 * (extra + fofs)); f.write(b'\0' * 4)
        data[fofs * 4096:(fofs + 1) * 4096] = bytes(4096)
    f.seek(base + 360 + 4 * 923); f.write(b'\0' * 4)          # i_nid[0]
    end = min(len(data), (addrs + 1018) * 4096)
    data[addrs * 4096:end] = bytes(end - addrs * 4096)
open(expect, 'wb').write(data)
PYEOF
	"$DUMP" -i "$ino" -o "$out" "$work" > /dev/null 2>&1
	cmp -s "$out" "$TEST_TMP/sp.expect" || { echo "    holes do not read as zeros"; return 1; }
	"$DUMP" -i "$ino" -o "$out.S" -S "$work" > /dev/null 2>&1
	cmp -s "$out.S" "$TEST_TMP/sp.expect" || { echo "    -S output differs"; return 1; }
	[ "$(stat -c %b "$out.S")" -lt "$(stat -c %b "$out")" ] ||
		{ echo "    -S output is not sparse ($(stat -c %b "$out.S") blocks)"; return 1; }
	"$DUMP" --cat f13m "$work" | cmp -s - "$TEST_TMP/sp.expect" ||
		{ echo "    --cat of the sparse file differs"; return 1; }
}

check_rdump()   # IMG
{
	local img=$1 out=$TEST_TMP/rd rc
	rm -rf "$out"
	"$DUMP" --extract / -o "$out" "$img" > "$TEST_TMP/rd.log" || { cat "$TEST_TMP/rd.log"; return 1; }
	# our mkfs makes lost+found, Debian's does not
	[ ! -d "$out/lost+found" ] || rmdir "$out/lost+found" || return 1
	diff -r --no-dereference "$SRC" "$out" | head -5 | sed 's/^/    /'
	diff -qr --no-dereference "$SRC" "$out" > /dev/null || return 1
	# sload.f2fs keeps the source's modes and modification times
	(cd "$SRC" && find . -printf '%y %m %T@ %p\n' | sort -k4) > "$TEST_TMP/rd.want"
	(cd "$out" && find . -printf '%y %m %T@ %p\n' | sort -k4) > "$TEST_TMP/rd.got"
	python3 - "$TEST_TMP/rd.want" "$TEST_TMP/rd.got" <<'PYEOF' || return 1
import sys
def rows(f):
    return {l.split()[3]: l.split()[:3] for l in open(f) if l.split()[3] != '.'}
w, g = rows(sys.argv[1]), rows(sys.argv[2])
bad = [p for p in w if p not in g or w[p][:2] != g[p][:2] or
       int(float(w[p][2])) != int(float(g[p][2]))]
for p in bad[:5]: print('    %s: want %s, got %s' % (p, w[p], g.get(p)))
sys.exit(1 if bad else 0)
PYEOF
	# a second run meets every name already there: errors, and nothing is overwritten
	echo keep > "$out/tiny.new" && cp "$out/f4k" "$TEST_TMP/rd.f4k" && echo changed > "$out/f4k"
	"$DUMP" --extract / -o "$out" "$img" > /dev/null 2> "$TEST_TMP/rd.err"
	rc=$?
	[ $rc -ne 0 ] && grep -q "File exists: while creating $out/f4k" "$TEST_TMP/rd.err" &&
		[ "$(cat "$out/f4k")" = changed ] ||
		{ echo "    a second run into the same directory: exit $rc, f4k '$(head -c 20 "$out/f4k")'"; return 1; }
}

check_rdump_hostile()   # IMG (a copy is modified): a name becomes "../../escape"
{
	local work=$TEST_TMP/host.img out=$TEST_TMP/h/out rc
	cp --sparse=always "$1" "$work" || return 1
	python3 - "$work" <<'PYEOF' || return 1
import mmap, sys
with open(sys.argv[1], 'r+b') as f:
    m = mmap.mmap(f.fileno(), 0)
    n, at = 0, m.find(b'a_larger_one')
    while at >= 0:
        m[at:at + 12] = b'../../escape'
        n += 1
        at = m.find(b'a_larger_one', at + 12)
    sys.exit(0 if n else 1)
PYEOF
	rm -rf "$TEST_TMP/h" && mkdir -p "$TEST_TMP/h"
	"$DUMP" --extract / -o "$out" "$work" > /dev/null 2> "$TEST_TMP/h.err"
	rc=$?
	[ ! -e "$TEST_TMP/h/escape" ] && [ ! -e "$TEST_TMP/escape" ] ||
		{ echo "    a file was written outside the output directory"; return 1; }
	[ $rc -eq 2 ] && grep -q "big_dir/\.\./\.\./escape: a name holding '/'" "$TEST_TMP/h.err" ||
		{ echo "    exit $rc: $(cat "$TEST_TMP/h.err")"; return 1; }
	cmp -s "$out/big_dir/entry_7" "$SRC/big_dir/entry_7" ||
		{ echo "    the rest of the tree was not extracted"; return 1; }
}

result()   # NAME CMD...
{
	local name=$1 log
	shift
	if log=$("$@" 2>&1); then tap_ok "$name"; else tap_fail "$name"; printf '%s\n' "$log"; fi
}

for which in ours ref; do
	img=$(loaded_image "$which.img" "$which")
	result "$which: --tree lists the source tree with types and sizes" check_tree "$img"
	result "$which: --cat gives the source's sha256 (hashed lookups in 2100 entries)" \
		check_cat "$img"
	result "$which: -i -o extracts byte-identical files, -o DIR uses the inode name" \
		check_extract "$img"
	result "$which: symlinks followed by --cat, extracted by -i -o" check_links "$img"
	result "$which: -b agrees with the block maps (data, direct, indirect nodes)" \
		check_blocks "$img"
	result "$which: --extract copies the tree out with modes and times, never overwrites" \
		check_rdump "$img"
done
result "--extract: a name holding '/' on a hostile image writes nothing outside -o" \
	check_rdump_hostile "$TEST_TMP/ours.img"
result "sparse file: holes read as zeros, -S keeps them" check_sparse "$TEST_TMP/ours.img"

# A compressed file: Debian's sload.f2fs is built without compressors, so a loaded file is
# marked compressed by hand (i_flags compression bit, 4-block clusters); none of its
# clusters has the compressed marker, so it reads as its plain blocks, as Linux reads
# it (decompression itself: tests/images/sload_compress_opts.sh, tests/vm/sload_compress.sh).
cimg=$(new_image comp.img 200M)
"$MKFS" -q -O extra_attr,compression "$cimg" || hard_error "our mkfs failed"
mkdir -p "$TEST_TMP/csrc" && det_bytes 11 200000 > "$TEST_TMP/csrc/data.txt"
"$REF_SLOAD" -f "$TEST_TMP/csrc" "$cimg" > "$TEST_TMP/csload.log" 2>&1 ||
	hard_error "sload.f2fs failed on the compression image"
cino=$(ino_of "$cimg" data.txt)
caddr=$("$DUMP" --json -i "$cino" "$cimg" | python3 -c '
import json, sys
print(json.load(sys.stdin)["inode"][0]["blkaddr"])')
python3 - "$cimg" "$caddr" <<'PYEOF'
import struct, sys
with open(sys.argv[1], 'r+b') as f:
    base = int(sys.argv[2]) * 4096
    f.seek(base + 80); fl = struct.unpack('<I', f.read(4))[0]
    f.seek(base + 80); f.write(struct.pack('<I', fl | 4))
    f.seek(base + 360); isize = struct.unpack('<H', f.read(2))[0]
    if isize < 36:
        f.seek(base + 360); f.write(struct.pack('<H', 36))
    f.seek(base + 393); f.write(b'\x02')
PYEOF
"$DUMP" --cat data.txt "$cimg" > "$TEST_TMP/c.out" 2> "$TEST_TMP/c.err"
rc=$?
if [ $rc -eq 0 ] && cmp -s "$TEST_TMP/c.out" "$TEST_TMP/csrc/data.txt" && [ ! -s "$TEST_TMP/c.err" ] &&
   "$DUMP" -i "$cino" "$cimg" 2>/dev/null | grep -q 'compressed  *yes'; then
	tap_ok "compressed file of plain clusters: contents read block by block; inode shown as compressed"
else
	tap_fail "compressed file: exit $rc, stderr: $(cat "$TEST_TMP/c.err")"
fi
tap_summary
