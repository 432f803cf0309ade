#!/bin/bash
# f2fs-tools' own option forms of dump.f2fs, resize.f2fs and defrag.f2fs (the development
# branch's sets, jaegeuk/f2fs-tools fsck/main.c f2fs_parse_options: dump "d:fi:I:n:LMo:Prs:
# Sa:b:VyNH", resize "d:fFg:Hst:o:V", defrag "d:Hs:Sl:t:iV"), as scripts written against
# f2fs-tools run them: each must be taken, and do what f2fs-tools does with it (or what
# dump.f2fs(8), resize.f2fs(8) and defrag.f2fs(8) say it does here on purpose).
. "$(dirname "$0")/lib.sh"
need_ref mkfs.f2fs fsck.f2fs defrag.f2fs

SRC=$TEST_TMP/src
mkdir -p "$SRC/d"
seq 1 50000 > "$SRC/d/f"
printf 'small\n' > "$SRC/g"
img=$(new_image opt.img 128M)
"${REF[mkfs.f2fs]}" -q -f "$img" >/dev/null 2>&1 || hard_error "mkfs failed"
"${OURS[sload.f2fs]}" -f "$SRC" "$img" >/dev/null 2>&1 || hard_error "sload failed"
ino=$("$OUR_BIN/inject.f2fs" --lookup /d/f "$img") || hard_error "lookup failed"
D=${OURS[dump.f2fs]}

# dump -i INO: shows the inode, writes nothing (f2fs-tools asks; no answer is no)
mkdir -p "$TEST_TMP/w1" && cd "$TEST_TMP/w1" || hard_error "cd"
"$D" -i "$ino" "$img" > out 2>&1; rc=$?
[ $rc -eq 0 ] && [ ! -e lost_found ] && grep -q "$ino" out &&
	tap_ok "dump -i INO: the inode shown, nothing written" ||
	tap_fail "dump -i INO: exit $rc, $(ls)"
# -f and -y: the contents into ./lost_found under the inode's name
for f in -f -y; do
	rm -rf lost_found
	"$D" -i "$ino" $f "$img" > /dev/null 2>&1; rc=$?
	[ $rc -eq 0 ] && cmp -s lost_found/f "$SRC/d/f" &&
		tap_ok "dump -i INO $f: ./lost_found/f holds the file" ||
		tap_fail "dump -i INO $f: exit $rc"
done
# hexadecimal inode numbers with 0x, as f2fs-tools reads them
rm -rf lost_found
"$D" -i "$(printf '0x%x' "$ino")" -f "$img" > /dev/null 2>&1 && cmp -s lost_found/f "$SRC/d/f" &&
	tap_ok "dump -i 0xINO -f" || tap_fail "dump -i 0xINO -f"
# -N: answer no
rm -rf lost_found
"$D" -i "$ino" -f -N "$img" > /dev/null 2>&1; rc=$?
[ $rc -eq 0 ] && [ ! -e lost_found/f ] && tap_ok "dump -i INO -f -N: nothing written" ||
	tap_fail "dump -i INO -f -N: exit $rc"
# -r [-o DIR]: the whole tree
"$D" -r -o tree "$img" > /dev/null 2>&1; rc=$?
[ $rc -eq 0 ] && cmp -s tree/d/f "$SRC/d/f" && cmp -s tree/g "$SRC/g" &&
	tap_ok "dump -r -o DIR: the tree copied out" || tap_fail "dump -r -o DIR: exit $rc"
rm -rf lost_found
"$D" -r "$img" > /dev/null 2>&1; rc=$?
[ $rc -eq 0 ] && cmp -s lost_found/d/f "$SRC/d/f" &&
	tap_ok "dump -r: the tree copied into ./lost_found" || tap_fail "dump -r: exit $rc"
# -P: owner and group given back (the source is root's: chown a copy to another owner first)
if [ "$(id -u)" -eq 0 ]; then
	img2=$(new_image own.img 128M)
	"${REF[mkfs.f2fs]}" -q -f "$img2" >/dev/null 2>&1
	chown -R 1234:4321 "$SRC"
	"${OURS[sload.f2fs]}" -P -f "$SRC" "$img2" >/dev/null 2>&1
	chown -R 0:0 "$SRC"
	"$D" -r -P -o owned "$img2" > /dev/null 2>&1; rc=$?
	[ $rc -eq 0 ] && [ "$(stat -c %u:%g owned/d/f)" = 1234:4321 ] &&
		tap_ok "dump -r -P: owner and group kept" ||
		tap_fail "dump -r -P: exit $rc, owner $(stat -c %u:%g owned/d/f 2>&1)"
fi
# accepted flags, and any debug level
"$D" -i "$ino" -M -L -H -I "$ino" -d 9 "$img" > /dev/null 2>&1 && tap_ok "dump -M -L -H -I -d 9: taken" ||
	tap_fail "dump -M -L -H -I -d 9: exit $?"
"$D" -d x "$img" > /dev/null 2>&1; rc=$?
[ $rc -eq 16 ] && tap_ok "dump -d x: a usage error" || tap_fail "dump -d x: exit $rc"
cd "$TEST_TMP" || hard_error "cd"

# resize: f2fs-tools' flags taken, the resize done, the volume clean
r=$(new_image rs.img 128M)
"${REF[mkfs.f2fs]}" -q -f "$r" >/dev/null 2>&1
truncate -s 192M "$r"
run OURS resize.f2fs -f -F -H -g android -d 5 "$r"
sec=$("$D" "$r" | sed -n 's/^Info: total FS sectors = \([0-9]*\) .*/\1/p')
[ "$RC_OURS" -eq 0 ] && [ "$sec" = 393216 ] &&
	tap_ok "resize -f -F -H -g android -d 5: grown to the device" ||
	tap_fail "resize -f -F -H -g android -d 5: exit $RC_OURS, $sec sectors"
both_fsck_clean "$r" "resize -f -F -H -g android"
run OURS resize.f2fs -g other "$r"
[ "$RC_OURS" -eq 16 ] && tap_ok "resize -g other: a usage error" || tap_fail "resize -g other: exit $RC_OURS"

# defrag -S on an Android sparse image (Debian's f2fs-tools is built without sparse mode:
# "Sparse mode is only supported for android"; ours only)
if command -v img2simg >/dev/null 2>&1 && command -v simg2img >/dev/null 2>&1; then
	for which in OURS; do
		img2simg "$img" "$TEST_TMP/s-$which.simg" || hard_error "img2simg failed"
		run "$which" defrag.f2fs -S -s 4096 -l 512 -t 8192 "$TEST_TMP/s-$which.simg"
		rc=$(eval echo \$RC_$which)
		simg2img "$TEST_TMP/s-$which.simg" "$TEST_TMP/s-$which.raw" 2>/dev/null
		if [ "$rc" -eq 0 ] && "$D" --cat /d/f "$TEST_TMP/s-$which.raw" 2>/dev/null | cmp -s - "$SRC/d/f" &&
		   ! cmp -s "$TEST_TMP/s-$which.raw" "$img"; then
			tap_ok "defrag -S (sparse image): $which exit 0, blocks moved, the file as before"
		else
			tap_fail "defrag -S: $which exit $rc: $(tail -1 "$TEST_TMP/$which.err")"
		fi
		both_fsck_clean "$TEST_TMP/s-$which.raw" "defrag -S ($which)"
	done
fi

# The checkpoint's alloc_type is indexed by log, data logs first: dump -d 1's table and
# fsck -l's rows must name each value by its own log, as f2fs-tools does.  A data log and
# a node log marked SSR tell them apart.
if [ -x "${REF[dump.f2fs]}" ] && [ -x "${REF[fsck.f2fs]}" ]; then
	cp "$img" "$TEST_TMP/alloc.img"
	"$OUR_BIN/inject.f2fs" --cp 0 --mb alloc_type --idx 1 --val 1 "$TEST_TMP/alloc.img" >/dev/null &&
		"$OUR_BIN/inject.f2fs" --cp 0 --mb alloc_type --idx 5 --val 1 "$TEST_TMP/alloc.img" >/dev/null ||
		hard_error "inject alloc_type failed"
	for view in "dump.f2fs -d 1" "fsck.f2fs -l"; do
		read -r -a args <<< "$view"
		ours=$("${OURS[${args[0]}]}" "${args[@]:1}" "$TEST_TMP/alloc.img" 2>&1 | grep '^alloc_type')
		theirs=$("${REF[${args[0]}]}" "${args[@]:1}" "$TEST_TMP/alloc.img" 2>&1 | grep '^alloc_type')
		if [ -n "$ours" ] && [ "$ours" = "$theirs" ] && printf '%s\n' "$ours" | grep -q 'WARM_DATA.*1'; then
			tap_ok "$view: alloc_type rows as f2fs-tools names them"
		else
			tap_fail "$view: alloc_type rows differ from f2fs-tools': ours '$ours', theirs '$theirs'"
		fi
	done
fi

tap_summary
