#!/bin/bash
# sload.f2fs -c with each algorithm and f2fs-tools' sub-options.  For lzo, lz4, zstd and
# lzo-rle (those the build has; lzo-rle needs liblzo2 as lzo does, its clusters being
# plain LZO1X-1; the others are refused in one line): every file reads back
# through our dump.f2fs --cat equal to its source, the compressible file's inode holds
# the algorithm (i_compress_algorithm) with saved blocks counted, both fscks find the
# volume clean, and two runs give the same image.  -i and -x compress exactly the files
# they name (i_flags' compression bit per file).  -m: clusters that save two blocks of
# four are compressed with -m 2 and stay plain with -m 3.  -r: compressed files are
# compress-released (i_inline bit 0x80), keep no reserved slots (i_compr_blocks 0,
# i_blocks the inode and the written blocks only), read back equal, both fscks clean.
# Bad combinations are usage errors (exit 16) or one-line refusals, nothing written.
. "$(dirname "$0")/sload_lib.sh"
UUID=5a10ad17-0000-4000-8000-0000000000f2

SRC=$TEST_TMP/src
mkdir -p "$SRC/d"
for i in $(seq 1 3000); do echo "line $i of some very compressible text"; done > "$SRC/text.txt"
head -c 100000 /dev/urandom > "$SRC/random.bin"
for i in $(seq 1 500); do echo "tail $i"; done > "$SRC/d/partial.log"
truncate -s 10M "$SRC/holey"
for i in $(seq 1 2000); do echo "x$i"; done | dd of="$SRC/holey" bs=4096 seek=1000 conv=notrunc status=none
python3 -c 'import sys
sys.stdout.write("".join("%d,%d\n" % (i, i * 7919 % 1000) for i in range(30000)))' > "$SRC/d/table.csv"
echo small > "$SRC/small"
# 8 clusters of 4 blocks that save exactly two blocks each: 6000 random bytes, then zeros
python3 - "$SRC/half" <<'EOF'
import random, sys
r = random.Random(5)
with open(sys.argv[1], "wb") as f:
    for _ in range(8):
        f.write(bytes(r.getrandbits(8) for _ in range(6000)) + bytes(16384 - 6000))
EOF
FILES="text.txt random.bin d/partial.log holey d/table.csv small half"

mkvol()
{
	local img
	img=$(new_image "$1" 128M)
	SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -U "$UUID" -O extra_attr,compression "$img" >/dev/null || return 1
	echo "$img"
}
# inode PATH IMG FIELD...: the fields of a file's inode, space-separated
inode()
{
	local p=$1 img=$2
	shift 2
	"$DUMP" --json -i "$("$INJECT" --lookup "$p" "$img")" "$img" |
		python3 -c 'import json,sys
i = json.load(sys.stdin)["inode"][0]
print(" ".join(str(i[f]) for f in sys.argv[1:]))' "$@"
}
# same IMG: every file of the tree reads back equal through dump.f2fs --cat
same()
{
	local f
	for f in $FILES; do
		"$DUMP" --cat "/$f" "$1" 2>/dev/null | cmp -s - "$SRC/$f" || { echo "/$f differs"; return 1; }
	done
}

n=0
for alg in lzo lz4 zstd lzo-rle; do
	n=$((n + 1))
	if ! "$SLOAD" -V | grep -q "+${alg%-rle}"; then
		plain=$(mkvol "no-$alg.img") || hard_error "mkfs failed"
		out=$("$SLOAD" -c -a $alg -f "$SRC" "$plain" 2>&1)
		[ $? -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
			tap_ok "-a $alg in a build without its library: refused in one line" ||
			tap_fail "-a $alg without its library: '$out'"
		continue
	fi
	num=$(case $alg in lzo) echo 0;; lz4) echo 1;; zstd) echo 2;; lzo-rle) echo 3;; esac)
	img=$(mkvol "$alg.img") || hard_error "mkfs failed"
	if ! "$SLOAD" -c -a $alg -f "$SRC" -T $T "$img"; then
		tap_fail "sload.f2fs -c -a $alg failed"
		continue
	fi
	why=$(same "$img") && tap_ok "-a $alg: dump.f2fs --cat reads every file equal to its source" ||
		tap_fail "-a $alg: $why"
	got=$(inode /text.txt "$img" i_flags i_compress_algorithm i_compr_blocks)
	set -- $got
	[ $(($1 & 4)) = 4 ] && [ "$2" = "$num" ] && [ "$3" -ge 21 ] &&
		tap_ok "-a $alg: the inode holds algorithm $num, $3 blocks saved" ||
		tap_fail "-a $alg: /text.txt i_flags, i_compress_algorithm, i_compr_blocks = '$got'"
	clean "$img" && tap_ok "-a $alg: both fscks clean" || tap_fail "-a $alg: fsck finds problems"
	img2=$(mkvol "$alg.2.img") && "$SLOAD" -c -a $alg -f "$SRC" -T $T "$img2" && cmp -s "$img" "$img2" &&
		tap_ok "-a $alg: two runs give byte-identical images" || tap_fail "-a $alg: two runs differ"
	rm -f "$img2"
done

ALG=lz4
"$SLOAD" -V | grep -q '+lz4' || ALG=zstd
"$SLOAD" -V | grep -q "+$ALG" || { tap_summary; exit; }

# -i / -x: the compression bit per file
bits()
{
	local f fl out= img=$1
	for f in text.txt random.bin d/partial.log holey d/table.csv; do
		fl=$(inode "/$f" "$img" i_flags)
		out="$out $f=$((fl & 4 ? 1 : 0))"
	done
	echo "${out# }"
}
img=$(mkvol only.img) || hard_error "mkfs failed"
"$SLOAD" -c -a $ALG -i txt -i log -f "$SRC" -T $T "$img" || tap_fail "-i txt -i log failed"
got=$(bits "$img")
want="text.txt=1 random.bin=0 d/partial.log=1 holey=0 d/table.csv=0"
[ "$got" = "$want" ] && tap_ok "-i txt -i log compresses only *.txt and *.log" ||
	tap_fail "-i: '$got', want '$want'"
why=$(same "$img") && clean "$img" && tap_ok "-i: files read back equal, both fscks clean" || tap_fail "-i: $why"
img=$(mkvol except.img) || hard_error "mkfs failed"
"$SLOAD" -c -a $ALG -x bin -x csv -f "$SRC" -T $T "$img" || tap_fail "-x bin -x csv failed"
got=$(bits "$img")
want="text.txt=1 random.bin=0 d/partial.log=1 holey=1 d/table.csv=0"
[ "$got" = "$want" ] && tap_ok "-x bin -x csv compresses every file but *.bin and *.csv" ||
	tap_fail "-x: '$got', want '$want'"
why=$(same "$img") && clean "$img" && tap_ok "-x: files read back equal, both fscks clean" || tap_fail "-x: $why"

# -m: /half's clusters save two blocks each
for m in 2 3; do
	img=$(mkvol "m$m.img") || hard_error "mkfs failed"
	"$SLOAD" -c -a $ALG -m $m -f "$SRC" -T $T "$img" || tap_fail "-m $m failed"
	got="$(inode /half "$img" i_compr_blocks) $(inode /text.txt "$img" i_compr_blocks)"
	want=$([ $m = 2 ] && echo "16 21" || echo "0 21")
	[ "$got" = "$want" ] && tap_ok "-m $m: clusters saving 2 blocks $([ $m = 2 ] && echo compressed || echo left plain), those saving 3 compressed" ||
		tap_fail "-m $m: i_compr_blocks of /half and /text.txt '$got', want '$want'"
	why=$(same "$img") && clean "$img" && tap_ok "-m $m: files read back equal, both fscks clean" ||
		tap_fail "-m $m: $why"
done

# -r: released as F2FS_IOC_RELEASE_COMPRESS_BLOCKS leaves a file
img=$(mkvol rel.img) || hard_error "mkfs failed"
"$SLOAD" -c -a $ALG -r -f "$SRC" -T $T "$img" || tap_fail "-r failed"
got=$(inode /text.txt "$img" i_flags i_inline i_compr_blocks i_blocks)
set -- $got
# 8 clusters: 7 whole ones of one block each, 2 plain blocks of the partial last one
[ $(($1 & 4)) = 4 ] && [ $(($2 & 0x80)) = 128 ] && [ "$3" = 0 ] && [ "$4" = 10 ] &&
	tap_ok "-r: compressed, compress-released, i_compr_blocks 0, i_blocks 10 (inode + 7 compressed + 2 plain blocks)" ||
	tap_fail "-r: /text.txt i_flags, i_inline, i_compr_blocks, i_blocks = '$got'"
set -- $(inode /random.bin "$img" i_inline)
[ $(($1 & 0x80)) = 128 ] && tap_ok "-r: a file whose clusters all stay plain is released too" ||
	tap_fail "-r: /random.bin i_inline $1"
why=$(same "$img") && tap_ok "-r: files read back equal" || tap_fail "-r: $why"
clean "$img" && tap_ok "-r: both fscks clean" || tap_fail "-r: fsck finds problems"

# bad combinations: nothing written
img=$(mkvol bad.img) || hard_error "mkfs failed"
cp "$img" "$TEST_TMP/bad.before"
usage()
{
	local rc
	"$SLOAD" "$@" -f "$SRC" "$img" >/dev/null 2>&1
	rc=$?
	[ $rc -eq 16 ] && cmp -s "$img" "$TEST_TMP/bad.before" && tap_ok "sload.f2fs $*: usage error, nothing written" ||
		tap_fail "sload.f2fs $*: exit $rc, want 16"
}
usage -c -i txt -x bin
usage -c -x bin -i txt
usage -i txt
usage -x bin
usage -m 1
usage -r
usage -a lz4
usage -L 3
usage -c -m 4
usage -c -L 3 -m 8
usage -c -m 0
usage -c -a gzip
usage -c -a lzo_rle
"$SLOAD" -c -L 3 -m 7 -f "$SRC" -T $T "$img" >/dev/null 2>&1 && tap_ok "-L 3 -m 7: accepted (the largest minimum)" ||
	tap_fail "-L 3 -m 7 refused"
tap_summary
