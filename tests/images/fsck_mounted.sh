#!/bin/bash
# fsck.f2fs never repairs a mounted device: with -y, -p or -a on a mounted loop device or
# on the backing file of one, it refuses (exit 16, "is mounted") before opening the
# device, and the bytes stay as they were; -n is allowed, with a warning.
# The host kernel may lack F2FS, so the mount is a read-only ext4 one: the refusal comes
# before any superblock is read.  Needs root, losetup, mkfs.ext4 and a mountable loop
# device; skipped otherwise.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "not root"
command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null ||
	skip "losetup or mkfs.ext4 missing"
LOOPDEV=
MNT=
loop_cleanup()
{
	[ -n "$MNT" ] && mountpoint -q "$MNT" && umount "$MNT"
	[ -n "$LOOPDEV" ] && losetup -d "$LOOPDEV"
}
CLEANUP_HOOKS+=(loop_cleanup)
img=$(new_image mounted.img 64M)
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img" >/dev/null 2>&1 ||
	skip "mkfs.ext4 failed"
LOOPDEV=$(losetup -f --show "$img" 2>/dev/null) || { LOOPDEV=; skip "no loop device"; }
MNT="$TEST_TMP/mnt"
mkdir "$MNT"
mount -o ro -t ext4 "$LOOPDEV" "$MNT" 2>/dev/null || skip "cannot mount a loop device here"
sum=$(md5sum < "$img")

for target in "$LOOPDEV" "$img"; do
	what=$([ "$target" = "$img" ] && echo "backing file" || echo "loop device")
	for opt in -y -p -a "-f -y"; do
		# shellcheck disable=SC2086
		"$FSCK" $opt "$target" > "$TEST_TMP/out" 2>&1
		rc=$?
		if [ $rc -eq 16 ] && grep -q "is mounted: refusing to repair" "$TEST_TMP/out" &&
		   [ "$(md5sum < "$img")" = "$sum" ]; then
			tap_ok "$what, fsck $opt: refused, untouched"
		else
			sed 's/^/# /' "$TEST_TMP/out" | head -3
			tap_fail "$what, fsck $opt: exit $rc"
		fi
	done
	"$FSCK" -n "$target" > "$TEST_TMP/out" 2>&1
	rc=$?
	if grep -q "WARNING: .* is mounted" "$TEST_TMP/out" && [ $rc -ne 16 ] &&
	   [ "$(md5sum < "$img")" = "$sum" ]; then
		tap_ok "$what, fsck -n: runs read-only with a warning (exit $rc)"
	else
		sed 's/^/# /' "$TEST_TMP/out" | head -3
		tap_fail "$what, fsck -n: exit $rc"
	fi
done
tap_summary
