#!/bin/bash
# Crash safety of sload.f2fs: a small tree is loaded into a volume that already holds
# files, with the N-th write of the load failing (ZF2FS_FAULT_WRITES=N) for every N until
# the load completes.  After each interrupted run the volume must be exactly the old one
# (same paths, inodes, modes, sizes, contents) or the complete new one, and both fscks
# (ours and Debian's 1.15) must find it clean.  Here the tree fits in one flush of the
# load's transaction; sload_crash_batches.sh runs this script with the load flushed
# every few blocks or inodes (ZF2FS_LOAD_FLUSH), as a tree of more than 4096 inodes or
# 64 MiB is: the flushes write no checkpoint, so the result must still be the old volume
# or the whole new tree, never part of it.
#
# Set by sload_crash_batches.sh: CRASH_SIZE (the image), CRASH_FLUSH (ZF2FS_LOAD_FLUSH
# for every load of the new tree), CRASH_FLUSHES (the flushes the full load must make
# at least), CRASH_ALL, CRASH_EVERY, CRASH_LAST (fault every write up to CRASH_ALL, then
# every CRASH_EVERY-th and every one of the last CRASH_LAST; by default every write).
. "$(dirname "$0")/sload_lib.sh"
fault_matrix
# under the sanitizers (unless ZF2FS_FULL=1) the default is the first 10 writes, every
# third and the last 10
if [ $IN_SAN = 1 ] && [ $MATRIX_FULL = 0 ]; then
	: "${CRASH_EVERY:=3}" "${CRASH_ALL:=10}" "${CRASH_LAST:=10}"
fi
: "${CRASH_SIZE:=64M}" "${CRASH_FLUSH:=}" "${CRASH_FLUSHES:=0}" "${CRASH_EVERY:=1}"
: "${CRASH_ALL:=0}" "${CRASH_LAST:=0}"
UUID=5a10ad17-0000-4000-8000-0000000000c7

# the old contents: a directory and two files
OLD=$TEST_TMP/old
mkdir -p "$OLD/etc"
echo "old file" > "$OLD/etc/conf"
head -c 20000 /dev/urandom > "$OLD/blob"
# the new tree: inline and block files, a file in a direct node (past the inode's 923
# addresses), a big directory (dentry blocks), a hard link, symlinks, a fifo, xattrs
# inline and in an xattr node
NEW=$TEST_TMP/new
mkdir -p "$NEW/data/many" "$NEW/empty"
echo small > "$NEW/data/small"
head -c 9000 /dev/urandom > "$NEW/data/medium"
truncate -s 4M "$NEW/data/sparse"
printf 'end' | dd of="$NEW/data/sparse" bs=1 seek=$((4 * 1024 * 1024 - 3)) conv=notrunc status=none
head -c 8192 /dev/urandom | dd of="$NEW/data/sparse" bs=4096 seek=950 conv=notrunc status=none
for i in $(seq 1 60); do echo $i > "$NEW/data/many/a-rather-long-file-name-number-$i"; done
ln "$NEW/data/medium" "$NEW/medium-link"
ln -s data/small "$NEW/symlink"
mkfifo "$NEW/fifo"
python3 -c 'import os,sys
os.setxattr(sys.argv[1] + "/data/small", "user.a", b"x" * 40)
os.setxattr(sys.argv[1] + "/data/medium", "user.big", b"y" * 600)' "$NEW" 2>/dev/null ||
	echo "# the source file system takes no user. xattrs: none tested"

# state IMG: every path with its inode, type, mode, links and size, and the contents
# of every regular file and symlink
state()
{
	python3 - "$DUMP" "$1" "$TEST_TMP/content" <<'PYEOF'
import hashlib, json, os, subprocess, sys
dump, img, tmp = sys.argv[1:]
tree = json.loads(subprocess.run([dump, "--json", "--tree", img], check=True,
                  capture_output=True).stdout)["tree"]["entries"]
for e in sorted(tree, key=lambda e: e["path"]):
    h = ""
    if e["type"] in ("regular", "symlink"):
        if os.path.exists(tmp): os.unlink(tmp)
        subprocess.run([dump, "-i", str(e["ino"]), "-o", tmp, img], check=True,
                       capture_output=True)
        h = hashlib.sha256(open(tmp, "rb").read()).hexdigest()
    print(e["path"], e["ino"], e["type"], oct(e["mode"]), e["links"], e["size"], h)
PYEOF
}

base=$(new_image base.img "$CRASH_SIZE")
SOURCE_DATE_EPOCH=1000 "$MKFS" -q -r -U "$UUID" "$base" >/dev/null || hard_error "mkfs failed"
"$SLOAD" -f "$OLD" -T $T "$base" || hard_error "loading the old tree failed"
state "$base" > "$TEST_TMP/old.state" || hard_error "dump of the old volume failed"
cp --sparse=always "$base" "$TEST_TMP/full.img"
ZF2FS_LOAD_FLUSH=$CRASH_FLUSH "$SLOAD" -d 2 -f "$NEW" -T $T "$TEST_TMP/full.img" \
	> "$TEST_TMP/full.out" 2>&1 || { cat "$TEST_TMP/full.out"; hard_error "the uninterrupted load failed"; }
flushes=$(sed -n 's/.* \([0-9]*\) flushes, 1 commit$/\1/p' "$TEST_TMP/full.out")
[ -n "$flushes" ] || { cat "$TEST_TMP/full.out"; hard_error "sload -d 2 did not count its flushes"; }
[ "$flushes" -ge "$CRASH_FLUSHES" ] ||
	hard_error "the load made $flushes flushes, fewer than the $CRASH_FLUSHES this test needs"
# the writes of the whole load (@total): the least N with which a load faulting the N-th
# write completes, less one
fault_load()
{
	cp --sparse=always "$base" "$TEST_TMP/t.img"
	ZF2FS_LOAD_FLUSH=$CRASH_FLUSH ZF2FS_FAULT_WRITES=$1 "$SLOAD" -f "$NEW" -T $T \
		"$TEST_TMP/t.img" > /dev/null 2>&1
}
fault_total 128 8192
state "$TEST_TMP/full.img" > "$TEST_TMP/new.state" || hard_error "dump of the new volume failed"
cmp -s "$TEST_TMP/old.state" "$TEST_TMP/new.state" && hard_error "the load changed nothing"
grep -q '^/data/many/a-rather-long-file-name-number-60 ' "$TEST_TMP/new.state" ||
	hard_error "the new state lacks the new tree"

olds=0 news=0 bad= completed=0 tried=0
for n in $(seq 1 $((total + 1))); do
	# a sample, when asked for: the first writes, every CRASH_EVERY-th, the last ones
	if [ $n -gt "$CRASH_ALL" ] && [ $((n % CRASH_EVERY)) -ne 0 ] &&
	   [ $n -le $((total - CRASH_LAST)) ]; then
		continue
	fi
	tried=$((tried + 1))
	cp --sparse=always "$base" "$TEST_TMP/t.img"
	ZF2FS_LOAD_FLUSH=$CRASH_FLUSH ZF2FS_FAULT_WRITES=$n "$SLOAD" -f "$NEW" -T $T \
		"$TEST_TMP/t.img" > "$TEST_TMP/run" 2>&1
	rc=$?
	if ! out=$("$FSCK" -f -n "$TEST_TMP/t.img" 2>&1); then
		bad="write $n failed: our fsck finds problems: $(printf '%s' "$out" | head -3)"
		break
	fi
	# a pack the load had begun to write is invalid (its CRC is not there): the kernel
	# and both fscks take the other, the old checkpoint; Debian's fsck says so
	if ! REF_FSCK_ALLOW=$'^\tInvalid CP CRC offset: ' ref_fsck "$TEST_TMP/t.img" > "$TEST_TMP/ref" 2>&1; then
		bad="write $n failed: Debian's fsck finds problems"
		head -20 "$TEST_TMP/ref"
		break
	fi
	state "$TEST_TMP/t.img" > "$TEST_TMP/t.state" || { bad="write $n: dump failed"; break; }
	if cmp -s "$TEST_TMP/t.state" "$TEST_TMP/old.state"; then
		olds=$((olds + 1))
	elif cmp -s "$TEST_TMP/t.state" "$TEST_TMP/new.state"; then
		news=$((news + 1))
	else
		bad="write $n failed (exit $rc): the volume is neither the old one nor the new one"
		diff "$TEST_TMP/old.state" "$TEST_TMP/t.state" | head -5
		break
	fi
	if [ $rc -eq 0 ]; then
		completed=$n
		break
	fi
	# an interrupted load says so and fails
	[ $rc -eq 1 ] || { bad="write $n failed: sload exit $rc"; break; }
done
if [ -n "$bad" ]; then
	tap_fail "$bad"
elif [ $completed -eq 0 ] || [ $olds -lt 10 ]; then
	tap_fail "$olds interrupted runs left the old volume, completed at write $completed"
else
	tap_ok "$((tried - 1)) interrupted loads ($flushes flushes) left the old volume ($olds) or the new one ($((news - 1))); the full load at write $completed"
fi
tap_summary
