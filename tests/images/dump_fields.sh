#!/bin/bash
# dump.f2fs field parity: on images made by our mkfs and by Debian's, loaded by
# sload.f2fs, every value our dump prints agrees with Debian's tools:
#   (a) superblock and current-checkpoint fields with `fsck.f2fs -d 1`;
#   (b) every inode of the tree: all i_* fields and the block addresses of the inode
#       with Debian's `dump.f2fs -i` (its i_addr slots against our block map);
#   (c) NAT entries (nid, ino, blkaddr) with `dump.f2fs -n`;
#   (d) SIT entries (valid blocks, type, bitmap) with `dump.f2fs -s`;
#   (e) SSA entries (nid per block) with `dump.f2fs -a`;
#   (f) --segments adds up to the checkpoint's valid_block_count, and every view
#       gives valid JSON (and the text form of every view exits 0).
# Prints "ok N - ..." / "not ok N - ..." per check.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/dump_lib.sh"
need_ref_dump
need_python

mkdir -p "$TEST_TMP/src/dir/sub" "$TEST_TMP/src/d2"
printf 'hello\n' > "$TEST_TMP/src/tiny"
det_bytes 7 4096 > "$TEST_TMP/src/f4k"
det_bytes 8 1200000 > "$TEST_TMP/src/dir/f1m"
det_bytes 9 9000 > "$TEST_TMP/src/dir/sub/f9k"
for i in $(seq 1 300); do : > "$TEST_TMP/src/d2/e$i"; done
ln -s ../tiny "$TEST_TMP/src/dir/lnk"

check_image()
{
	local img=$1 label=$2 out=$TEST_TMP/$2
	mkdir -p "$out"
	"$REF_FSCK" -d 1 --dry-run "$img" </dev/null >"$out/fsck.txt" 2>&1
	"$DUMP" --json --superblock --checkpoint --segments --tree "$img" >"$out/meta.json" \
		2>"$out/meta.err"
	local rc=$?
	if [ $rc -ne 0 ]; then
		tap_fail "$label: dump exits $rc: $(head -c 300 "$out/meta.err")"
		return
	fi
	# Debian's dump writes dump_nat/dump_sit/dump_ssa in the current directory.
	(cd "$out" &&
	 "$REF_DUMP" -n 0~3000 "$img" </dev/null >/dev/null 2>&1
	 "$REF_DUMP" -s 0~40 "$img" </dev/null >/dev/null 2>&1
	 "$REF_DUMP" -a 0~40 "$img" </dev/null >/dev/null 2>&1)
	"$DUMP" --json -n 0~3000 -s 0~40 -a 0~40 "$img" >"$out/tables.json" 2>"$out/tables.err" ||
		tap_fail "$label: dump of the tables exits $?: $(head -c 300 "$out/tables.err")"
	# every inode of the tree, plus the root
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(3)
for e in d["tree"]["entries"]:
    print(e["ino"])' "$out/meta.json" | sort -un >"$out/inos"
	local ino batch=()
	: >"$out/inodes.ref"
	for ino in $(cat "$out/inos"); do
		echo "@@ $ino" >>"$out/inodes.ref"
		(cd "$out" && "$REF_DUMP" -i "$ino" "$img" </dev/null 2>&1) >>"$out/inodes.ref"
	done
	# ours 64 inodes a run (its most views), split into a file per inode
	set -- $(cat "$out/inos")
	while [ $# -gt 0 ]; do
		batch=("${@:1:64}")
		shift ${#batch[@]}
		"$DUMP" --json $(printf -- '-i %s ' "${batch[@]}") "$img" >"$out/batch.json" \
			2>>"$out/inodes.err" || echo "our dump -i ${batch[0]}.. exits $?" >>"$out/inodes.err"
		python3 -c '
import json, os, sys
for e in json.load(open(sys.argv[1]))["inode"]:
    json.dump({"inode": [e]}, open(os.path.join(sys.argv[2], "inode.%d.json" % e["ino"]), "w"))
' "$out/batch.json" "$out" 2>>"$out/inodes.err"
	done
	rm -f "$out/batch.json"
	python3 - "$out" <<'PYEOF'
import json, os, re, sys
out = sys.argv[1]
results = []
def check(name, problems):
    results.append((name, problems))

line_re = re.compile(r'^(\S+)\s+\[0x\s*([0-9a-f]+) : (\d+)\]')
def sections(path):
    secs, cur = {}, None
    for line in open(path, errors='replace'):
        if line.startswith('| Super block'): cur = secs.setdefault('sb', {}); continue
        if line.startswith('| Checkpoint'): cur = secs.setdefault('cp', {}); continue
        if line.startswith('Info:') or line.startswith('+--'):
            if line.startswith('Info:'): cur = None
            continue
        m = line_re.match(line)
        if m and cur is not None:
            cur[m.group(1)] = int(m.group(3))
    return secs

meta = json.load(open(os.path.join(out, 'meta.json')))
secs = sections(os.path.join(out, 'fsck.txt'))
sb = meta['superblock']
p = []
if len(secs.get('sb', {})) < 25:
    p.append('fsck printed only %d superblock fields' % len(secs.get('sb', {})))
for k, v in secs.get('sb', {}).items():
    if k not in sb: p.append('superblock field %s missing' % k); continue
    if sb[k] != v: p.append('superblock %s: ours %s, fsck %s' % (k, sb[k], v))
check('superblock fields agree with fsck -d 1 (%d fields)' % len(secs.get('sb', {})), p)

cp = [x for x in meta['checkpoint']['packs'] if x['current']][0]
logs = {'CURSEG_HOT_DATA': 0, 'CURSEG_WARM_DATA': 1, 'CURSEG_COLD_DATA': 2,
        'CURSEG_HOT_NODE': 3, 'CURSEG_WARM_NODE': 4, 'CURSEG_COLD_NODE': 5}
p = []
n = 0
for k, v in secs.get('cp', {}).items():
    m = re.match(r'^(\w+)\[(\w+)\]$', k)
    if m:
        name, idx = m.group(1), m.group(2)
        if name == 'sit_nat_version_bitmap': continue
        idx = logs[idx] if idx in logs else int(idx)
        ours = cp.get(name, [None] * 16)[idx]
    else:
        ours = cp.get(k)
    n += 1
    if ours != v: p.append('checkpoint %s: ours %s, fsck %s' % (k, ours, v))
if n < 20: p.append('fsck printed only %d checkpoint fields' % n)
check('current checkpoint fields agree with fsck -d 1 (%d fields)' % n, p)

# inodes
ref = open(os.path.join(out, 'inodes.ref'), errors='replace').read().split('@@ ')[1:]
p = []
nfields = 0
for chunk in ref:
    ino = int(chunk.split('\n', 1)[0])
    ours = json.load(open(os.path.join(out, 'inode.%d.json' % ino)))['inode'][0]
    extra = ours['geometry']['extra_words']
    blocks = {b['fofs']: b['blkaddr'] for b in ours.get('blocks', [])}
    seen_addr = set()
    for line in chunk.split('\n')[1:]:
        m = line_re.match(line)
        if not m: continue
        k, v = m.group(1), int(m.group(3))
        nfields += 1
        am = re.match(r'^i_addr\[0x([0-9a-f]+)\]$', k)
        nm = re.match(r'^i_nid\[(\d)\]$', k)
        if am:
            if ours['layout'] != 'blocks': continue
            fofs = int(am.group(1), 16) - extra
            seen_addr.add(fofs)
            if blocks.get(fofs) != v:
                p.append('ino %d i_addr slot %s: ours %s, ref %d' % (ino, am.group(1), blocks.get(fofs), v))
        elif nm:
            if ours['i_nid'][int(nm.group(1))] != v:
                p.append('ino %d %s differs' % (ino, k))
        elif k in ours:
            if ours[k] != v: p.append('ino %d %s: ours %s, ref %d' % (ino, k, ours[k], v))
        else:
            p.append('ino %d: field %s missing' % (ino, k))
    for fofs in blocks:
        if fofs < ours['geometry']['addrs'] and fofs not in seen_addr:
            p.append('ino %d: our block %d is not among the reference i_addr' % (ino, fofs))
check('inode fields and in-inode block addresses agree with dump.f2fs -i (%d inodes, %d fields)'
      % (len(ref), nfields), p)

tables = json.load(open(os.path.join(out, 'tables.json')))
# NAT
ournat = {e['nid']: e for e in tables['nat']}
p = []
n = 0
for line in open(os.path.join(out, 'dump_nat')):
    m = re.match(r'nid:\s*(\d+)\s+ino:\s*(\d+)\s+offset:\s*(\d+)\s+blkaddr:\s*(\d+)', line)
    if not m: continue
    nid, ino, blk = int(m.group(1)), int(m.group(2)), int(m.group(4))
    n += 1
    e = ournat.get(nid)
    if not e or e['ino'] != ino or e['blkaddr'] != blk:
        p.append('nid %d: ours %s, ref ino %d blkaddr %d' % (nid, e, ino, blk))
if n < 1: p.append('reference NAT dump has only %d entries' % n)
check('NAT entries agree with dump.f2fs -n (%d entries)' % n, p)

# SIT
oursit = {e['segno']: e for e in tables['sit']}
p = []
n = 0
cur = None
bitmaps = {}
for line in open(os.path.join(out, 'dump_sit')):
    m = re.match(r'segno:\s*(\d+)\s+vblocks:\s*(\d+)\s+seg_type:(\d+)', line)
    if m:
        cur = int(m.group(1)); n += 1
        e = oursit.get(cur)
        if not e or e['valid_blocks'] != int(m.group(2)) or e['type'] != int(m.group(3)):
            p.append('segno %d: ours %s, ref vblocks %s type %s' % (cur, e, m.group(2), m.group(3)))
        bitmaps[cur] = ''
        continue
    if cur is not None and re.match(r'^(\s+[0-9a-f]{2})+\s*$', line):
        bitmaps[cur] += ''.join(line.split())
for s, bm in bitmaps.items():
    if bm and oursit.get(s, {}).get('valid_map') != bm:
        p.append('segno %d bitmap differs' % s)
if n < 20: p.append('reference SIT dump has only %d entries' % n)
check('SIT entries and bitmaps agree with dump.f2fs -s (%d segments)' % n, p)

# SSA
ourssa = {s['segno']: s for s in tables['ssa']}
p = []
n = 0
cur = None
for line in open(os.path.join(out, 'dump_ssa')):
    m = re.match(r'segno:\s*(\d+),\s*(Current )?(Node|Data)', line)
    if m:
        cur = int(m.group(1))
        s = ourssa.get(cur)
        if not s or s['type'] != m.group(3).lower():
            p.append('segno %d type: ours %s, ref %s' % (cur, s and s['type'], m.group(3)))
        if s and (s['current'] is not None) != bool(m.group(2)):
            p.append('segno %d: current %s, ref %s' % (cur, s['current'], m.group(2)))
        continue
    if cur is None: continue
    s = ourssa.get(cur)
    if s and s['current'] is not None:
        continue    # Debian reads the stale SSA block; current ones are checked below
    nids = {e['offset']: e['nid'] for e in (s['entries'] if s else [])}
    for off, nid in re.findall(r'\[\s*(\d+):\s*([0-9a-f]+)\]', line):
        n += 1
        nid = int(nid, 16)      # Debian prints the nid in hex, the offset in decimal
        if nids.get(int(off), 0) != nid:
            p.append('segno %d offset %s: ours %s, ref %s' % (cur, off, nids.get(int(off), 0), nid))
if n < 512: p.append('reference SSA dump has only %d entries' % n)
check('SSA entries agree with dump.f2fs -a (%d entries)' % n, p)

# Every valid summary entry (current segments included, which Debian's dump takes from
# the stale SSA block rather than the checkpoint) names the node the NAT maps there, or
# the node whose slot holds that data block in the inode maps.
owner = {}
for e in tables['nat']:
    owner[e['blkaddr']] = e['nid']
for name in os.listdir(out):
    if name.startswith('inode.') and name.endswith('.json'):
        for b in json.load(open(os.path.join(out, name)))['inode'][0].get('blocks', []):
            owner[b['blkaddr']] = b['owner']
p = []
n = 0
for s in tables['ssa']:
    for e in s['entries']:
        if not e['valid']: continue
        n += 1
        if owner.get(e['blkaddr']) != e['nid']:
            p.append('block %d: summary nid %d, owner %s' % (e['blkaddr'], e['nid'], owner.get(e['blkaddr'])))
check('every valid summary entry names the block\'s owner (%d entries)' % n, p)

segs = meta['segments']
p = []
if segs['valid_blocks'] != cp['valid_block_count']:
    p.append('segments add up to %d valid blocks, checkpoint says %d'
             % (segs['valid_blocks'], cp['valid_block_count']))
if sum(1 for s in segs['list'] if s['state'] == 'current') != 6:
    p.append('not six current segments')
check('--segments agrees with the checkpoint', p)

for name, probs in results:
    print(('ok' if not probs else 'not ok') + ' - ' + name)
    for x in probs[:10]:
        print('    ' + x)
PYEOF
}

run_checks()
{
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) tap_ok "$1: ${line#ok - }" ;;
		"not ok - "*) tap_fail "$1: ${line#not ok - }" ;;
		*) echo "$line" ;;
		esac
	done
}

for which in ours ref; do
	img=$(loaded_image "$which.img" "$which")
	run_checks "$which mkfs + sload" < <(check_image "$img" "$which")
	# text form of every view runs clean too
	if "$DUMP" --superblock --checkpoint --segments --tree -n 0~100 -s 0~10 -a 0~10 -i 3 \
		-b 0 -b 600 -b 1600 -b 3000 -b 5000 --ls / --ls dir "$img" >"$TEST_TMP/text.out" \
		2>"$TEST_TMP/text.err"; then
		tap_ok "$which: text form of every view exits 0"
	else
		tap_fail "$which: text views exit $?: $(head -c 300 "$TEST_TMP/text.err")"
	fi
done
# A bare image of our mkfs, never loaded
img=$(new_image bare.img 300M)
"$MKFS" -q "$img" || hard_error "our mkfs failed"
run_checks "bare mkfs" < <(check_image "$img" bare)
tap_summary
