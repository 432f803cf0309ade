#!/bin/bash
# dump.f2fs on volumes of 16 KiB blocks written by Linux 7.3 (tests/images/base/aged16k
# and aged16k_packed, the second with packed_ssa; base/README says how they were made).
# Each holds the tree /t and, in /manifest, what Linux saw of it (tests/vm/zwork.c's
# manifest: per path its type, mode, links, size and sha256), and /s/sparse, a file with
# one block in the inode, in each direct node, under both indirect nodes and far into the
# second one's range, whose blocks' sha256 /s/sums lists.  Per image:
#   (a) --extract /t copies every file, symlink and directory the manifest lists with
#       its sha256, size and mode (a directory: the sha256 of its sorted names);
#   (b) --tree lists exactly the manifest's paths;
#   (c) --cat of /s/sparse gives each block /s/sums names, at its 16 KiB offset;
#   (d) with python3: every node the NAT places in the main area has its summary entry
#       (node type, its nid, valid), read from the SSA (four summaries in a block with
#       packed_ssa) or from the checkpoint's summaries of the current logs;
#   (e) every inode of the tree dumps (-i) with its inode checksum good.
# Prints "ok N - ..." / "not ok N - ..." per check.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/dump_lib.sh"

BS=16384

# manifest_py ROOT MANIFEST: each path of zwork's MANIFEST under ROOT has its sha256 (a
# directory's: of its names, "." and ".." included, in byte order, each followed by a NUL),
# size and mode, in one process (a few per path in the shell took a minute per image);
# prints "N BAD FIRST..."
manifest_py()
{
	python3 - "$1" "$2" <<'PY'
import hashlib, os, sys
root, n, bad, first = sys.argv[1], 0, 0, ""
for line in open(sys.argv[2], encoding="utf-8", errors="surrogateescape"):
    parts = line.rstrip("\n").split(" ", 6)
    if len(parts) < 7:
        continue
    typ, mode, links, size, want, xh, rel = parts
    n += 1
    p = root if rel == "." else os.path.join(root, rel)
    try:
        if typ == "f":
            got = hashlib.sha256(open(p, "rb").read()).hexdigest()
            if str(os.path.getsize(p)) != size:
                got = "size %d" % os.path.getsize(p)
        elif typ == "l":
            got = hashlib.sha256(os.fsencode(os.readlink(p))).hexdigest()
        elif typ == "d":
            names = sorted([b".", b".."] + os.listdir(os.fsencode(p)))
            got = hashlib.sha256(b"".join(x + b"\0" for x in names)).hexdigest()
        else:
            got = "type %s not extracted" % typ
        gmode = "%04o" % (os.lstat(p).st_mode & 0o7777)
    except OSError as e:
        got, gmode = str(e), "?"
    if got != want or (typ != "l" and gmode != mode):
        bad += 1
        if not first:
            first = "%s %s: %s mode %s, manifest %s mode %s" % (typ, rel, got, gmode, want, mode)
print(n, bad, first)
PY
}

check_manifest()
{
	local label=$1 root=$2 manifest=$3
	local n=0 bad=0 first=""

	read -r n bad first < <(manifest_py "$root" "$manifest")
	if [ "${n:-0}" -lt 600 ]; then
		tap_fail "$label: the manifest lists $n paths, expected over 600"
	elif [ "$bad" -eq 0 ]; then
		tap_ok "$label: --extract /t gives the $n paths of the manifest, sha256, size and mode"
	else
		tap_fail "$label: $bad of $n paths differ from the manifest (first: $first)"
	fi
}

check_image()
{
	local name=$1 img=$TEST_TMP/$1.img out=$TEST_TMP/$1
	local rc

	mkdir -p "$out"
	xz -dc "$top_srcdir/tests/images/base/$name.img.xz" >"$img" ||
		hard_error "cannot unpack $name.img.xz"
	"$DUMP" --cat /manifest -o "$out/manifest" "$img" 2>"$out/err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$out/err" ]; then
		tap_fail "$name: --cat /manifest exits $rc: $(head -c 300 "$out/err")"
		return
	fi

	# (a) the files, by extraction (-S: a hole stays a hole)
	"$DUMP" -S --extract /t -o "$out/t" "$img" >"$out/extract.txt" 2>"$out/err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$out/err" ]; then
		tap_fail "$name: --extract /t exits $rc: $(head -c 300 "$out/err")"
	else
		check_manifest "$name" "$out/t" "$out/manifest"
	fi

	# (b) the listing
	"$DUMP" --tree "$img" 2>"$out/err" |
		sed -n 's|^ *path=/t/\([^ ]*\) .*|\1|p' | LC_ALL=C sort >"$out/tree.paths"
	awk '$7 != "." { print $7 }' "$out/manifest" | LC_ALL=C sort >"$out/manifest.paths"
	if [ -s "$out/err" ]; then
		tap_fail "$name: --tree: $(head -c 300 "$out/err")"
	elif cmp -s "$out/tree.paths" "$out/manifest.paths"; then
		tap_ok "$name: --tree lists the $(wc -l <"$out/tree.paths") paths of the manifest"
	else
		tap_fail "$name: --tree and the manifest differ: $(diff "$out/tree.paths" \
			"$out/manifest.paths" | head -4 | tr '\n' ' ')"
	fi

	# (c) the sparse file's blocks, up to the second indirect node's range
	"$DUMP" --cat /s/sums -o "$out/sums" "$img" 2>"$out/err" &&
		"$DUMP" -S --cat /s/sparse -o "$out/sparse" "$img" 2>>"$out/err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$out/err" ] || [ ! -s "$out/sums" ]; then
		tap_fail "$name: --cat /s/sums, /s/sparse exit $rc: $(head -c 300 "$out/err")"
	else
		local blk sum dash n=0 bad=0 first="" last=""
		while read -r blk sum dash; do
			n=$((n + 1))
			last=$blk
			if [ "$(dd if="$out/sparse" bs=$BS skip="$blk" count=1 status=none |
				sha256sum | cut -d' ' -f1)" != "$sum" ]; then
				bad=$((bad + 1))
				[ -n "$first" ] || first=$blk
			fi
		done <"$out/sums"
		if [ "$bad" -eq 0 ] && [ "$n" -ge 6 ]; then
			tap_ok "$name: /s/sparse gives the $n blocks /s/sums lists (the last at block $last)"
		else
			tap_fail "$name: /s/sparse: $bad of $n blocks differ (first: block $first)"
		fi
		rm -f "$out/sparse"
	fi

	command -v python3 >/dev/null 2>&1 || return 0
	# (d) summaries of the node blocks; (e) every inode with its checksum
	"$DUMP" --json -n 0~-1 -a 0~-1 --tree "$img" >"$out/tables.json" 2>"$out/err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$out/err" ]; then
		tap_fail "$name: --json -n -a --tree exits $rc: $(head -c 300 "$out/err")"
		return
	fi
	local why
	why=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
by = {}
for seg in d["ssa"]:
    for e in seg["entries"]:
        by[e["blkaddr"]] = (seg["type"], seg["source"], e)
main = min(s["blkaddr"] for s in d["ssa"])
n = 0
src = set()
for e in d["nat"]:
    if e["blkaddr"] < main:
        continue
    t, s, se = by.get(e["blkaddr"], (None, None, None))
    if t != "node" or se["nid"] != e["nid"] or not se["valid"]:
        print("nid %d at %d: summary %s %s" % (e["nid"], e["blkaddr"], t, se))
        sys.exit(1)
    n += 1
    src.add(s)
if n < 600 or src != {"ssa", "checkpoint"}:
    print("%d nodes, summaries from %s" % (n, sorted(src)))
    sys.exit(1)
print(n)' "$out/tables.json")
	if [ $? -eq 0 ]; then
		tap_ok "$name: the $why nodes of the NAT have their summary entries (SSA and checkpoint)"
	else
		tap_fail "$name: $why"
	fi
	# 64 inodes a dump.f2fs run (its most views): one error or a missing "ok" fails the batch
	local inos batch bad=0 n=0 first="" got
	inos=($(python3 -c '
import json, sys
for e in json.load(open(sys.argv[1]))["tree"]["entries"]:
    print(e["ino"])' "$out/tables.json" | sort -un))
	inos=(3 "${inos[@]}")
	while [ ${#inos[@]} -gt 0 ]; do
		batch=("${inos[@]:0:64}")
		inos=("${inos[@]:64}")
		n=$((n + ${#batch[@]}))
		got=$("$DUMP" --json $(printf -- '-i %s ' "${batch[@]}") "$img" 2>"$out/err" |
			grep -c '"i_inode_checksum_ok": true')
		if [ "$got" -ne ${#batch[@]} ] || [ -s "$out/err" ]; then
			bad=$((bad + ${#batch[@]} - got))
			[ -n "$first" ] || first="inodes ${batch[0]}..: $(head -c 200 "$out/err")"
		fi
	done
	if [ "$bad" -eq 0 ] && [ "$n" -ge 600 ]; then
		tap_ok "$name: -i on the $n inodes of the tree, each checksum good"
	else
		tap_fail "$name: -i: $bad of $n inodes fail (first: $first)"
	fi
}

check_image aged16k
check_image aged16k_packed
tap_summary
