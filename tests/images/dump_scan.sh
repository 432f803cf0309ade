#!/bin/bash
# dump.f2fs --scan-inode INO (-I, as f2fs-tools): the inode found by reading the whole
# main area, without the NAT.  On tests/images/base/populated (/small.txt):
#  - with the NAT intact, the one block found is the NAT's, and its fields are -i's;
#  - with its NAT entry zeroed, -i fails and -I -o DIR still writes the file's contents;
#  - a stale copy with an older checkpoint version in its footer is listed and not
#    chosen; when the current block's checksum no longer holds, the stale good copy is
#    chosen and the run exits 0 (a block of it is good);
#  - an inode no block holds, and a number outside the volume: exit 1, one line.
# Prints "ok N - ..." / "not ok N - ...".
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/dump_lib.sh"

T=$TEST_TMP
IMG=$T/p.img
xz -dc "$CASE_BASE/populated.img.xz" > "$IMG" || hard_error "cannot unpack populated"
ino=$(ino /small.txt)
nat=$(addr "$ino")
[ -n "$ino" ] && [ "$nat" -gt 0 ] || hard_error "no /small.txt in populated"
"$DUMP" --cat /small.txt "$IMG" > "$T/small" 2>/dev/null || hard_error "dump --cat failed"

# json_field JQ-PATH: a field of --json --scan-inode's first result
scan_json() { "$DUMP" --json --scan-inode "$ino" "$IMG" 2>/dev/null; }
field() {
	python3 -c 'import json, sys
d = json.load(sys.stdin)["scan_inodes"][0]
print(eval(sys.argv[1]))' "$1"
}
need_python

out=$(scan_json)
found=$(printf '%s' "$out" | field 'len(d["found"])')
chosen=$(printf '%s' "$out" | field 'd["chosen"]')
[ "$found" = 1 ] && [ "$chosen" = "$nat" ] &&
	tap_ok "intact: one block found, the NAT's ($nat)" ||
	tap_fail "intact: $found found, chosen $chosen, NAT $nat"
"$DUMP" -i "$ino" "$IMG" 2>/dev/null | grep -E '^ +i_' > "$T/i.fields"
"$DUMP" -I "$ino" "$IMG" 2>/dev/null | grep -E '^ +i_' | sed 's/^  //' > "$T/s.fields"
[ -s "$T/i.fields" ] && diff <(sed -E 's/^ +//; s/ +/ /g' "$T/i.fields") <(sed -E 's/^ +//; s/ +/ /g' "$T/s.fields") > /dev/null &&
	tap_ok "-I shows the fields -i shows" || tap_fail "-I's fields differ from -i's"

# a stale copy in a free block at the volume's end (the block as it is), then the
# current block one checkpoint newer (inject.f2fs keeps its checksum right)
bs=4096
last=$(( $(stat -c %s "$IMG") / bs - 1 ))
"$DUMP" --scan-inode "$ino" "$IMG" 2>/dev/null | grep -q "blkaddr=$last " &&
	hard_error "block $last already holds inode $ino"
dd if="$IMG" of="$IMG" bs=$bs skip="$nat" seek="$last" count=1 conv=notrunc status=none
cpver=$(get --node --nid "$ino" --mb cp_ver)
inject --node --nid "$ino" --mb cp_ver --val $((cpver + 1)) > /dev/null
out=$(scan_json)
found=$(printf '%s' "$out" | field 'len(d["found"])')
chosen=$(printf '%s' "$out" | field 'd["chosen"]')
[ "$found" = 2 ] && [ "$chosen" = "$nat" ] &&
	tap_ok "a stale copy (older cp_ver) is listed, the current one chosen" ||
	tap_fail "stale copy: $found found, chosen $chosen (want $nat)"

# the NAT entry lost: -i fails, -I still finds and extracts the file
inject --nat 0 --nid "$ino" --mb block_addr --val 0 > /dev/null
"$DUMP" -i "$ino" "$IMG" > /dev/null 2>&1 && tap_fail "-i found inode $ino without its NAT entry" ||
	tap_ok "-i fails without the NAT entry"
mkdir -p "$T/out"
if "$DUMP" -I "$ino" -o "$T/out" "$IMG" > /dev/null 2> "$T/err" && cmp -s "$T/out/small.txt" "$T/small"; then
	tap_ok "-I -o DIR writes the file's contents without its NAT entry"
else
	tap_fail "-I -o: $(cat "$T/err")"
fi

# the current block's checksum broken (a byte of i_mtime changed): the good copy wins
python3 - "$IMG" "$nat" <<'PY'
import sys
p, blk = sys.argv[1], int(sys.argv[2])
with open(p, "r+b") as f:
    f.seek(blk * 4096 + 0x40)   # i_mtime
    b = f.read(1)
    f.seek(blk * 4096 + 0x40)
    f.write(bytes([b[0] ^ 0x5a]))
PY
out=$(scan_json)
rc=$?
chosen=$(printf '%s' "$out" | field 'd["chosen"]')
bad=$(printf '%s' "$out" | field '[h["checksum"] for h in d["found"] if h["blkaddr"] == '"$nat"'][0]')
[ "$chosen" = "$last" ] && [ "$bad" = bad ] &&
	tap_ok "a block whose checksum fails loses to an older good one" ||
	tap_fail "torn block: chosen $chosen (want $last), its checksum $bad"

"$DUMP" --scan-inode 5000 "$IMG" > /dev/null 2> "$T/err"
rc=$?
[ $rc = 1 ] && [ "$(wc -l < "$T/err")" = 1 ] && grep -q "no block of the main area holds inode 5000" "$T/err" &&
	tap_ok "an inode no block holds: exit 1, one line" || tap_fail "missing inode: exit $rc: $(cat "$T/err")"
"$DUMP" --scan-inode 99999999 "$IMG" > /dev/null 2> "$T/err"
rc=$?
[ $rc = 1 ] && grep -q "not an inode number of this volume" "$T/err" &&
	tap_ok "a number outside the volume: exit 1" || tap_fail "out of range: exit $rc: $(cat "$T/err")"

tap_summary
