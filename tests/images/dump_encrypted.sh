#!/bin/bash
# dump.f2fs on the kernel-made fscrypt image (tests/images/base/encrypted.img.xz, see
# base/README): /e2 (fscrypt v2), /e1 (v1) and /cf (encrypted and casefolded) hold the
# same names as /plain, whose names are in the clear.  Ciphertext names are shown and
# taken as {enc:HEX}, never as raw bytes:
#   (a) --ls of each encrypted directory shows only {enc:HEX} names besides . and ..,
#       as many as /plain holds of the same files;
#   (b) --tree (every path from /) prints no byte >= 0x80 and no control character, and shows the
#       encrypted entries; --json of every view on them parses; -i shows an encrypted
#       inode's i_name as {enc:HEX} and /e2's own (clear) name as it is;
#   (c) /e2/{enc:HEX} paths from --ls and --tree (two levels deep) give the inode --ls
#       and --tree showed; a plain name under /e2 is one line naming the cause, exit 1;
#   (d) --cat of an encrypted file is refused, exit 1; with --raw-encrypted it writes the
#       ciphertext: i_size bytes, not the plain file's bytes;
#   (e) --extract / copies /plain (small, sub/leaf, file, sym as the volume has them),
#       creates nothing for /e1, /e2, /cf, names each on stderr and counts them, exit 1;
#   (f) with --raw-encrypted it creates them, with {enc:HEX}-named entries, the file's
#       ciphertext of the file's size, and the symlink's stored target as a file.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/dump_lib.sh"
need_python

img=$TEST_TMP/encrypted.img
src=$top_srcdir/tests/images/base/encrypted.img.xz
[ -f "$src" ] || src=$top_srcdir/tests/vm/fixtures/encrypted.img.xz
[ -f "$src" ] || skip "no encrypted.img.xz (tests/images/base or tests/vm/fixtures)"
xz -dc "$src" > "$img" || hard_error "cannot unpack $src"

# the names /plain holds besides those of the encrypted directories
PLAIN_ONLY="verity c pinned"

result()   # NAME CMD...
{
	local name=$1 log
	shift
	if log=$("$@" 2>&1); then tap_ok "$name"; else tap_fail "$name"; printf '%s\n' "$log" | head -20; fi
}

"$DUMP" --json --ls / --ls /plain --ls /e2 --ls /e1 --ls /cf "$img" > "$TEST_TMP/ls.json" ||
	hard_error "dump.f2fs --ls of the image's directories failed"
"$DUMP" --json --tree "$img" > "$TEST_TMP/tree.json" || hard_error "dump.f2fs --tree failed"

# jq-less queries on the listings: py EXPR (ls = the ls list, tree = the tree entries)
py()
{
	python3 - "$TEST_TMP/ls.json" "$TEST_TMP/tree.json" "$@" <<'EOP'
import json, sys
ls = {d["path"]: d for d in json.load(open(sys.argv[1]))["ls"]}
tree = json.load(open(sys.argv[2]))["tree"]["entries"]
exec(sys.argv[3])
EOP
}

check_ls()
{
	py '
import re
plain_only = set(sys.argv[4].split())
want = [e for e in ls["/plain"]["entries"] if e["name"] not in (".", "..") and e["name"] not in plain_only]
bad = []
if len(want) < 40:
    bad.append("/plain holds %d entries, want at least 40" % len(want))
for d in ("/e2", "/e1", "/cf"):
    names = [e["name"] for e in ls[d]["entries"] if e["name"] not in (".", "..")]
    dots = [e["name"] for e in ls[d]["entries"] if e["name"] in (".", "..")]
    if sorted(dots) != [".", ".."]:
        bad.append("%s: . and .. are %s" % (d, dots))
    odd = [n for n in names if not re.fullmatch(r"\{enc:(?:[0-9a-f]{2})+\}", n)]
    if odd:
        bad.append("%s: %d names not {enc:HEX}, e.g. %r" % (d, len(odd), odd[0][:60]))
    if len(names) != len(want):
        bad.append("%s: %d entries, /plain has %d of the same files" % (d, len(names), len(want)))
for b in bad: print("    " + b)
sys.exit(1 if bad else 0)' "$PLAIN_ONLY"
}

check_tree_text()
{
	local n
	"$DUMP" --tree "$img" > "$TEST_TMP/tree.txt" 2> "$TEST_TMP/tree.err" ||
		{ echo "    --tree: exit $?: $(head -c 200 "$TEST_TMP/tree.err")"; return 1; }
	if LC_ALL=C grep -n '[^ -~]' "$TEST_TMP/tree.txt" | head -3 | cut -c1-120 | grep .; then
		echo "    --tree prints bytes >= 0x80 or control characters (above)"
		return 1
	fi
	n=$(grep -c '^    path=/e2/{enc:[0-9a-f]*}' "$TEST_TMP/tree.txt")
	[ "$n" -ge 40 ] || { echo "    --tree shows $n {enc:HEX} entries under /e2"; return 1; }
	[ ! -s "$TEST_TMP/tree.err" ] || { echo "    stderr: $(head -c 200 "$TEST_TMP/tree.err")"; return 1; }
}

check_json()
{
	local ino
	ino=$(py 'print([e["ino"] for e in ls["/e2"]["entries"] if e["type"] == "regular"][0])')
	"$DUMP" --json --tree --ls /e2 --ls /cf -i "$ino" -i "$(py 'print(ls["/e2"]["ino"])')" \
		--frag /e1 "$img" > "$TEST_TMP/all.json" || { echo "    dump exits $?"; return 1; }
	python3 - "$TEST_TMP/all.json" <<'EOP'
import json, re, sys
d = json.load(open(sys.argv[1]))
bad = []
enc, e2 = d["inode"]
if not re.fullmatch(r"\{enc:(?:[0-9a-f]{2})+\}", enc["i_name"]):
    bad.append("-i of an encrypted file: i_name %r" % enc["i_name"][:60])
if e2["i_name"] != "e2":
    bad.append("-i of /e2 (its name is in the clear): i_name %r" % e2["i_name"])
if not d["fragmentation"][0]["files"]:
    bad.append("--frag /e1 counts no files")
for b in bad: print("    " + b)
sys.exit(1 if bad else 0)
EOP
}

check_lookup()
{
	local ino got path
	# every entry of /e2 and the two-level paths of the tree, each by its {enc:HEX} path;
	# not symlinks: a look-up follows them, and an encrypted one's target is ciphertext
	py '
for e in ls["/e2"]["entries"]:
    if e["name"] not in (".", "..") and e["type"] != "symlink":
        print(e["ino"], "/e2/" + e["name"])
deep = [e for e in tree if e["path"].startswith("/e2/") and e["path"].count("/") == 3
        and e["type"] != "symlink"]
for e in deep:
    print(e["ino"], e["path"])
if not deep:
    print(0, "/e2/no-two-level-path-in-the-tree")' > "$TEST_TMP/paths"
	[ "$(wc -l < "$TEST_TMP/paths")" -ge 40 ] || { echo "    too few paths"; return 1; }
	while read -r ino path; do
		got=$("$DUMP" --json --ls "$path" "$img" | python3 -c '
import json, sys
print(json.load(sys.stdin)["ls"][0]["ino"])') || { echo "    --ls $path fails"; return 1; }
		[ "$got" = "$ino" ] || { echo "    --ls $path: inode $got, want $ino"; return 1; }
	done < "$TEST_TMP/paths"
	# the two-level paths must have been among them
	grep -q '^[1-9][0-9]* /e2/{enc:[0-9a-f]*}/{enc:' "$TEST_TMP/paths" ||
		{ echo "    no two-level path under /e2 in --tree"; return 1; }
}

check_plain_name()
{
	local dino rc p msg
	dino=$(py 'print(ls["/e2"]["ino"])')
	for p in /e2/file /e2/sub/leaf; do
		"$DUMP" --cat "$p" "$img" > "$TEST_TMP/out" 2> "$TEST_TMP/err"
		rc=$?
		[ $rc -eq 1 ] || { echo "    --cat $p: exit $rc, want 1"; return 1; }
		msg="dump.f2fs: ERROR: $p: directory $dino is encrypted: name its entries as {enc:HEX},"
		msg="$msg as --ls shows them"
		[ "$(wc -l < "$TEST_TMP/err")" -eq 1 ] && grep -qxF "$msg" "$TEST_TMP/err" ||
			{ echo "    --cat $p: stderr: $(cat "$TEST_TMP/err")"; return 1; }
		[ ! -s "$TEST_TMP/out" ] || { echo "    --cat $p wrote to stdout"; return 1; }
	done
}

# the {enc:HEX} name of /e2's `file` (2 links, the size of /plain/file), and that size
enc_file()
{
	py '
size = [e for e in ls["/plain"]["entries"] if e["name"] == "file"][0]["size"]
print([e["name"] for e in ls["/e2"]["entries"]
       if e["type"] == "regular" and e["links"] == 2 and e["size"] == size][0], size)'
}

check_cat()
{
	local name size rc
	read -r name size < <(enc_file) || { echo "    no encrypted copy of file in /e2"; return 1; }
	"$DUMP" --cat "/plain/file" "$img" > "$TEST_TMP/plain.file" || return 1
	[ "$(stat -c %s "$TEST_TMP/plain.file")" -eq "$size" ] && [ "$size" -gt 0 ] ||
		{ echo "    /plain/file: $(stat -c %s "$TEST_TMP/plain.file") bytes, --ls says $size"; return 1; }
	"$DUMP" --cat "/e2/$name" "$img" > "$TEST_TMP/out" 2> "$TEST_TMP/err"
	rc=$?
	[ $rc -eq 1 ] && [ ! -s "$TEST_TMP/out" ] && [ "$(wc -l < "$TEST_TMP/err")" -eq 1 ] &&
		grep -q "is encrypted: its contents need the key" "$TEST_TMP/err" ||
		{ echo "    --cat of the encrypted file: exit $rc, $(stat -c %s "$TEST_TMP/out") bytes," \
			"stderr: $(cat "$TEST_TMP/err")"; return 1; }
	"$DUMP" --raw-encrypted --cat "/e2/$name" "$img" > "$TEST_TMP/raw.file" ||
		{ echo "    --raw-encrypted --cat: exit $?"; return 1; }
	[ "$(stat -c %s "$TEST_TMP/raw.file")" -eq "$size" ] ||
		{ echo "    --raw-encrypted --cat: $(stat -c %s "$TEST_TMP/raw.file") bytes, want $size"; return 1; }
	! cmp -s "$TEST_TMP/raw.file" "$TEST_TMP/plain.file" ||
		{ echo "    --raw-encrypted --cat gives the plain file's bytes"; return 1; }
}

check_extract()
{
	local out=$TEST_TMP/x rc d msg
	"$DUMP" --extract / -o "$out" "$img" > "$TEST_TMP/x.log" 2> "$TEST_TMP/x.err"
	rc=$?
	[ $rc -eq 1 ] || { echo "    exit $rc, want 1 (encrypted entries not extracted)"; return 1; }
	[ "$(cat "$out/plain/small")" = "inline data" ] ||
		{ echo "    plain/small: '$(head -c 40 "$out/plain/small")'"; return 1; }
	[ "$(cat "$out/plain/sub/leaf")" = "deeper" ] ||
		{ echo "    plain/sub/leaf: '$(head -c 40 "$out/plain/sub/leaf")'"; return 1; }
	"$DUMP" --cat /plain/file "$img" | cmp -s - "$out/plain/file" ||
		{ echo "    plain/file differs from --cat /plain/file"; return 1; }
	[ "$(readlink "$out/plain/sym")" = file ] ||
		{ echo "    plain/sym -> '$(readlink "$out/plain/sym")', want file"; return 1; }
	for d in e1 e2 cf; do
		[ ! -e "$out/$d" ] || { echo "    $d was created"; return 1; }
		msg="dump.f2fs: /$d: encrypted directory, not extracted: its names and contents"
		msg="$msg need the key (--raw-encrypted copies the ciphertext)"
		grep -qxF "$msg" "$TEST_TMP/x.err" || { echo "    no line for /$d on stderr"; return 1; }
	done
	[ "$(wc -l < "$TEST_TMP/x.err")" -eq 3 ] ||
		{ echo "    stderr has $(wc -l < "$TEST_TMP/x.err") lines, want 3:"; head -5 "$TEST_TMP/x.err"; return 1; }
	grep -q '^  encrypted_skipped  *3$' "$TEST_TMP/x.log" ||
		{ echo "    summary:"; cat "$TEST_TMP/x.log"; return 1; }
	if LC_ALL=C find "$out" -name '*[! -~]*' | grep -q .; then
		echo "    a host name holds bytes >= 0x80 or control characters"; return 1
	fi
}

check_extract_raw()
{
	local out=$TEST_TMP/r rc name size d n hdr
	"$DUMP" --raw-encrypted --extract / -o "$out" "$img" > "$TEST_TMP/r.log" 2> "$TEST_TMP/r.err"
	rc=$?
	[ $rc -eq 0 ] || { echo "    exit $rc: $(head -3 "$TEST_TMP/r.err")"; return 1; }
	for d in e1 e2 cf; do
		n=$(find "$out/$d" -mindepth 1 -maxdepth 1 | wc -l)
		[ "$n" -ge 40 ] || { echo "    $d: $n entries"; return 1; }
		# {enc:HEX}, or for names too long for the host {enc:HEX..HEX}
		n=$(find "$out/$d" -mindepth 1 -maxdepth 1 -printf '%f\n' |
			grep -cvE '^\{enc:([0-9a-f]{2})+(\.\.([0-9a-f]{2})+)?\}$')
		[ "$n" -eq 0 ] || { echo "    $d: $n names not {enc:HEX}"; return 1; }
	done
	read -r name size < <(enc_file) || { echo "    no encrypted copy of file in /e2"; return 1; }
	[ -f "$out/e2/$name" ] || { echo "    e2/$name missing"; return 1; }
	[ "$(stat -c %s "$out/e2/$name")" -eq "$size" ] ||
		{ echo "    e2/$name: $(stat -c %s "$out/e2/$name") bytes, want $size"; return 1; }
	! cmp -s "$out/e2/$name" "$out/plain/file" ||
		{ echo "    e2/$name holds the plain file's bytes"; return 1; }
	# the symlink: a regular file holding its stored target, a 2-byte length first
	name=$(py 'print([e["name"] for e in ls["/e2"]["entries"] if e["type"] == "symlink"][0])')
	[ -f "$out/e2/$name" ] && [ ! -L "$out/e2/$name" ] ||
		{ echo "    e2/$name (the symlink) is not a regular file"; return 1; }
	hdr=$(od -An -tu2 -N2 "$out/e2/$name" | tr -d ' ')
	[ "$((hdr + 2))" -eq "$(stat -c %s "$out/e2/$name")" ] ||
		{ echo "    e2/$name: length field $hdr, file of $(stat -c %s "$out/e2/$name") bytes"; return 1; }
	diff -r --no-dereference "$TEST_TMP/x/plain" "$out/plain" > /dev/null 2>&1 ||
		{ echo "    plain/ differs from the extraction without --raw-encrypted"; return 1; }
	grep -q '^  encrypted_skipped  *0$' "$TEST_TMP/r.log" &&
		grep -Eq '^  encrypted_raw  *[1-9][0-9]*$' "$TEST_TMP/r.log" ||
		{ echo "    summary:"; cat "$TEST_TMP/r.log"; return 1; }
}

result "--ls of /e2, /e1, /cf: only {enc:HEX} names besides . and .., as many as /plain's" check_ls
result "--tree: no byte >= 0x80 or control character, encrypted entries as {enc:HEX}" \
	check_tree_text
result "--json of --tree, --ls, -i, --frag parses; -i: i_name {enc:HEX} below /e2 only" check_json
result "/e2/{enc:HEX} paths (one and two levels) give the inodes --ls and --tree show" \
	check_lookup
result "a plain name under /e2: exit 1, one line naming the cause" check_plain_name
result "--cat of an encrypted file refused; --raw-encrypted gives its ciphertext" check_cat
result "--extract /: /plain copied, /e1 /e2 /cf passed over and named, exit 1" check_extract
result "--extract --raw-encrypted: {enc:HEX} names, ciphertext of the right size" \
	check_extract_raw
tap_summary
