#!/bin/bash
# dump.f2fs command line, errors and damage:
#   (a) --help and -V exit 0 on stdout; usage errors exit 16 with one line on stderr;
#   (b) operational errors (missing device, not F2FS, unknown path) exit 1 with one line;
#   (c) it never writes: a read-only image gives every view, and its bytes do not change;
#   (d) a broken first superblock copy is reported and the second one used;
#   (e) damage never crashes it: 40 copies of a loaded image, each with bytes
#       overwritten at seeded random places in the metadata areas and in node and dentry
#       blocks, go through every view; exits must be 0, 1 or 2 (never a signal or
#       timeout), and damage is reported on stderr, never mixed into stdout.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/dump_lib.sh"
need_python
[ -x "$REF_SLOAD" ] || skip "reference sload.f2fs not installed ($REF_SLOAD)"

expect_exit()   # WANT NAME ARGS...: run dump, check exit and stderr shape
{
	local want=$1 name=$2 rc lines
	shift 2
	"$DUMP" "$@" > "$TEST_TMP/out" 2> "$TEST_TMP/err" < /dev/null
	rc=$?
	lines=$(wc -l < "$TEST_TMP/err")
	if [ $rc -ne "$want" ]; then
		tap_fail "$name: exit $rc, want $want ($(head -c 200 "$TEST_TMP/err"))"
	elif [ "$want" -ne 0 ] && [ "$lines" -ne 1 ]; then
		tap_fail "$name: $lines lines on stderr, want 1: $(head -c 300 "$TEST_TMP/err")"
	else
		tap_ok "$name"
	fi
}

img=$(new_image small.img 100M)
"$MKFS" -q -O extra_attr,inode_checksum,lost_found "$img" || hard_error "our mkfs failed"
mkdir -p "$TEST_TMP/src/d/e" "$TEST_TMP/src/many"
det_bytes 1 50000 > "$TEST_TMP/src/d/f50k"
det_bytes 2 5000000 > "$TEST_TMP/src/f5m"
printf 'x\n' > "$TEST_TMP/src/d/e/tiny"
for i in $(seq 1 400); do : > "$TEST_TMP/src/many/n$i"; done
ln -s d/e "$TEST_TMP/src/lnk"
"$REF_SLOAD" -f "$TEST_TMP/src" "$img" > /dev/null 2>&1 || hard_error "sload.f2fs failed"

# (a)
if "$DUMP" --help > "$TEST_TMP/out" 2> "$TEST_TMP/err" && [ -s "$TEST_TMP/out" ] &&
   [ ! -s "$TEST_TMP/err" ] && grep -q -- '--superblock' "$TEST_TMP/out"; then
	tap_ok "--help exits 0 on stdout"
else
	tap_fail "--help"
fi
if "$DUMP" -V | grep -q '^dump.f2fs 1.16.0 (zf2fs-tools '; then tap_ok "-V"; else tap_fail "-V"; fi
expect_exit 16 "no device" --superblock
expect_exit 16 "two devices" "$img" "$img"
expect_exit 16 "-i not a number" -i abc "$img"
expect_exit 16 "-n range backwards" -n 9~3 "$img"
expect_exit 16 "-d not a number" -d x "$img"
expect_exit 16 "unknown option" --no-such-option "$img"
expect_exit 16 "-o without -i or --cat" -o "$TEST_TMP/x" "$img"
expect_exit 16 "-S without -o" -i 3 -S "$img"
expect_exit 16 "--cat with --json to stdout" --cat d/f50k --json "$img"
# (b)
expect_exit 1 "missing device" --superblock "$TEST_TMP/nope.img"
zero=$(new_image zero.img 64M)
expect_exit 1 "not an F2FS volume" "$zero"
expect_exit 1 "--cat of a missing path" --cat d/nope "$img"
expect_exit 1 "--cat through a file" --cat d/f50k/x "$img"
expect_exit 1 "-i of an unused inode" -i 4000 "$img"
expect_exit 1 "-b beyond the volume" -b 99999999 "$img"
expect_exit 0 "-b of the superblock" -b 0 "$img"
expect_exit 0 "--ls through a symlink" --ls lnk "$img"

# (c)
before=$(sha256sum < "$img")
chmod a-w "$img"
if "$DUMP" --superblock --checkpoint --segments --tree -n 0~2000 -s 0~50 -a 0~50 -i 3 \
	-b 5000 --ls many --json "$img" > "$TEST_TMP/all.json" 2> "$TEST_TMP/err" &&
   python3 -m json.tool "$TEST_TMP/all.json" > /dev/null &&
   "$DUMP" --cat f5m "$img" | cmp -s - "$TEST_TMP/src/f5m"; then
	tap_ok "read-only image: every view works, JSON is valid, --cat is exact"
else
	tap_fail "read-only image: $(head -c 300 "$TEST_TMP/err")"
fi
chmod u+w "$img"
[ "$(sha256sum < "$img")" = "$before" ] && tap_ok "the image is unchanged" ||
	tap_fail "the image changed"

# (d)
bad=$TEST_TMP/badsb.img
cp --sparse=always "$img" "$bad"
printf '\0\0\0\0' | dd of="$bad" bs=1 seek=1024 conv=notrunc status=none
if "$DUMP" --json --superblock "$bad" 2>/dev/null | python3 -c '
import json, sys
s = json.load(sys.stdin)["superblock"]
sys.exit(0 if s["copy"] == 1 and not s["copies"][0]["valid"] and s["copies"][0]["problem"]
         else 1)'; then
	tap_ok "broken first superblock: reported, second copy used"
else
	tap_fail "broken first superblock"
fi

# (e) seeded damage
"$DUMP" --json --superblock -n 0~3000 --ls many "$img" > "$TEST_TMP/layout.json"
many=$("$DUMP" --json --ls / "$img" | python3 -c '
import json, sys
print([e["ino"] for e in json.load(sys.stdin)["ls"][0]["entries"] if e["name"] == "many"][0])')
"$DUMP" --json -i "$many" "$img" > "$TEST_TMP/many.json"
python3 - "$TEST_TMP/layout.json" "$TEST_TMP/many.json" > "$TEST_TMP/targets" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
sb = d['superblock']
# metadata areas (checkpoint, SIT, NAT, SSA), every node block, the big directory's blocks
print(sb['cp_blkaddr'], sb['main_blkaddr'])
for e in d['nat']:
    if e['blkaddr'] >= sb['main_blkaddr']:
        print(e['blkaddr'], e['blkaddr'] + 1)
for b in json.load(open(sys.argv[2]))['inode'][0]['blocks']:
    print(b['blkaddr'], b['blkaddr'] + 1)
PYEOF
crashes=0 nonzero=0 total=0
for seed in $(seq 1 40); do
	work=$TEST_TMP/fuzz.img
	cp --sparse=always "$img" "$work"
	python3 - "$work" "$seed" "$TEST_TMP/targets" <<'PYEOF'
import random, sys
path, seed = sys.argv[1], int(sys.argv[2])
areas = [tuple(map(int, l.split())) for l in open(sys.argv[3])]
r = random.Random(seed)
with open(path, 'r+b') as f:
    for _ in range(r.choice([1, 4, 16, 64])):
        lo, hi = areas[0] if r.random() < 0.3 else areas[r.randrange(1, len(areas))]
        blk = r.randrange(lo, hi)
        # sometimes a whole word set to an extreme, sometimes a random byte run
        f.seek(blk * 4096 + r.randrange(0, 4092))
        if r.random() < 0.5:
            f.write(r.choice([b'\xff\xff\xff\xff', b'\0\0\0\0', b'\x00\x10\x00\x00',
                              b'\xfe\xff\xff\x7f']))
        else:
            f.write(bytes(r.getrandbits(8) for _ in range(r.randrange(1, 64))))
PYEOF
	for args in "--superblock --checkpoint --segments" "--tree" "-n 0~3000 -s 0~60 -a 0~60" \
		"-i 3 -i 4 -i 5 -i 6 -i 7 -i 8 -b 5200 -b 5700 -b 6700" "--ls many --ls d/e" \
		"--cat f5m" "--json --tree --segments -i 5"; do
		total=$((total + 1))
		# shellcheck disable=SC2086
		timeout 20 "$DUMP" $args "$work" > "$TEST_TMP/fz.out" 2> "$TEST_TMP/fz.err"
		rc=$?
		case $rc in
		0|1|2) [ $rc -ne 0 ] && nonzero=$((nonzero + 1)) ;;
		*)
			crashes=$((crashes + 1))
			echo "# seed $seed, dump.f2fs $args: exit $rc"
			;;
		esac
		if grep -q 'damaged\|ERROR' "$TEST_TMP/fz.out" 2>/dev/null &&
		   [ "$args" != "--cat f5m" ]; then
			crashes=$((crashes + 1))
			echo "# seed $seed, dump.f2fs $args: a message on stdout"
		fi
	done
done
if [ $crashes -eq 0 ]; then
	tap_ok "damaged images: $total runs, no crash or hang ($nonzero reported damage or errors)"
else
	tap_fail "damaged images: $crashes of $total runs crashed, hung or mixed messages into stdout"
fi
tap_summary
