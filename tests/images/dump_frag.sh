#!/bin/bash
# dump.f2fs --frag on tests/images/base/populated.img (files of every size, hard links,
# a file split in several runs), checked against extents counted here from the block
# maps that dump.f2fs -i prints for every regular file of --tree (each inode once):
# the totals, the histogram and the most fragmented list of "--frag /", the report of one
# file and of a subdirectory; a missing path is one line and exit 1.  The kernel's view
# of the same rule (FIEMAP) is tests/vm/frag.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/dump_lib.sh"
need_python

img=$TEST_TMP/populated.img
xz -dc "$top_srcdir/tests/images/base/populated.img.xz" > "$img" || hard_error "cannot unpack populated.img"

"$DUMP" --json --tree "$img" > "$TEST_TMP/tree.json" || hard_error "dump.f2fs --tree failed"
python3 - "$TEST_TMP/tree.json" > "$TEST_TMP/files" <<'EOP'
import json, sys
seen = set()
for e in json.load(open(sys.argv[1]))["tree"]["entries"]:
    if e["type"] == "regular" and e["ino"] not in seen:
        seen.add(e["ino"])
        print(e["ino"], e["path"])
EOP
[ -s "$TEST_TMP/files" ] || hard_error "no regular files in populated.img"
# block maps, 50 inodes per run
: > "$TEST_TMP/maps"
cut -d' ' -f1 "$TEST_TMP/files" | xargs -n 50 | while read -r inos; do
	args=
	for i in $inos; do args="$args -i $i"; done
	# shellcheck disable=SC2086
	"$DUMP" --json $args "$img" >> "$TEST_TMP/maps" || exit 1
	echo >> "$TEST_TMP/maps"
done || hard_error "dump.f2fs -i failed"
"$DUMP" --json --frag / --frag /docs --frag /big.bin "$img" > "$TEST_TMP/frag.json" ||
	hard_error "dump.f2fs --frag failed"

python3 - "$TEST_TMP/files" "$TEST_TMP/maps" "$TEST_TMP/frag.json" <<'EOP'
import json, sys
paths = dict(l.split(" ", 1) for l in open(sys.argv[1]).read().splitlines())
maps = {}
dec = json.JSONDecoder()
text = open(sys.argv[2]).read()
pos = 0
while True:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if pos >= len(text):
        break
    doc, pos = dec.raw_decode(text, pos)
    for ino in doc["inode"]:
        maps[str(ino["ino"])] = ino
def extents(ino):
    n = blocks = 0
    last = None
    for b in maps[ino].get("blocks", []):
        a = b["blkaddr"]
        if a in (0xFFFFFFFF, 0xFFFFFFFE):
            last = None
            continue
        blocks += 1
        if not (last and b["fofs"] == last[0] + 1 and a == last[1] + 1):
            n += 1
        last = (b["fofs"], a)
    return n, blocks
want = {ino: extents(ino) for ino in paths}
reports = json.load(open(sys.argv[3]))["fragmentation"]
fail = 0
def check(what, got, exp):
    global fail
    if got != exp:
        print("FAIL: %s: dump.f2fs says %s, the block maps %s" % (what, got, exp)); fail = 1
def summary(rep, inos):
    w = [want[i] for i in inos]
    wb = [x for x in w if x[1]]
    check(rep["path"] + " files", rep["files"], len(w))
    check(rep["path"] + " files_with_blocks", rep["files_with_blocks"], len(wb))
    check(rep["path"] + " fragmented", rep["fragmented"], sum(1 for x in wb if x[0] > 1))
    check(rep["path"] + " extents", rep["extents"], sum(x[0] for x in wb))
    check(rep["path"] + " blocks", rep["blocks"], sum(x[1] for x in wb))
    hist = {h["from"]: h["files"] for h in rep["extents_histogram"]}
    bounds = [1, 2, 4, 16, 64, 256, 1 << 62]
    for lo, hi in zip(bounds, bounds[1:]):
        check("%s histogram %d.." % (rep["path"], lo), hist[lo], sum(1 for x in wb if lo <= x[0] < hi))
    frag = sorted((-want[i][0], i) for i in inos if want[i][0] > 1)[:20]
    check(rep["path"] + " most fragmented", [(r["ino"], r["extents"]) for r in rep["most_fragmented"]],
          [(int(i), -n) for n, i in frag])
root, sub, one = reports
summary(root, list(paths))
summary(sub, [i for i, p in paths.items() if p.startswith("/docs/")])
summary(one, [i for i, p in paths.items() if p == "/big.bin"])
if root["fragmented"] < 1:
    print("FAIL: populated.img has a fragmented file; --frag / found none"); fail = 1
if fail == 0:
    print("PASS: --frag: %d files, %d extents over %d blocks, as the block maps say"
          % (root["files"], root["extents"], root["blocks"]))
sys.exit(fail)
EOP
rc=$?

if "$DUMP" --frag /no/such/file "$img" > "$TEST_TMP/out" 2> "$TEST_TMP/err"; then
	echo "FAIL: --frag of a missing path exits 0"
	rc=1
elif [ "$(wc -l < "$TEST_TMP/err")" -ne 1 ] || ! grep -q "/no/such/file" "$TEST_TMP/err"; then
	echo "FAIL: --frag of a missing path: not one line naming it: $(cat "$TEST_TMP/err")"
	rc=1
fi
exit $rc
