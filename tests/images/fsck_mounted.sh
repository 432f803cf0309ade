#!/bin/bash
# fsck.f2fs never repairs a mounted device: with -y, -p, -a or -f on the backing file of a
# mounted loop device, it refuses (exit 16, "is mounted") before opening the device; on a
# device mounted read-only it checks without repairing, as f2fs-tools does (systemd-fsck
# checks a root the kernel mounted read-only with fsck -a); the bytes stay as they were
# either way; -n is allowed, with a warning.
# The host kernel may lack F2FS, so the mount is a read-only ext4 one: the refusal comes
# before any superblock is read.  Needs root, losetup, mkfs.ext4 and a mountable loop
# device; skipped otherwise.
. "$(dirname "$0")/lib.sh"

mounted_loop_image

for target in "$LOOPDEV" "$img"; do
	what=$([ "$target" = "$img" ] && echo "backing file" || echo "loop device")
	for opt in -y -p -a "-f -y" "-a -f"; do
		# shellcheck disable=SC2086
		"$FSCK" $opt "$target" > "$TEST_TMP/out" 2>&1
		rc=$?
		if [ "$target" = "$LOOPDEV" ] && [ $rc -ne 16 ] &&
		   grep -q "is mounted read-only: checking it without repairing" "$TEST_TMP/out" &&
		   [ "$(md5sum < "$img")" = "$sum" ]; then
			tap_ok "$what (read-only mount), fsck $opt: checked read-only (exit $rc), untouched"
		elif [ "$target" = "$img" ] && [ $rc -eq 16 ] &&
		     grep -q "is mounted: refusing to repair" "$TEST_TMP/out" &&
		     [ "$(md5sum < "$img")" = "$sum" ]; then
			tap_ok "$what, fsck $opt: refused, untouched"
		else
			sed 's/^/# /' "$TEST_TMP/out" | head -3
			tap_fail "$what, fsck $opt: exit $rc"
		fi
	done
	"$FSCK" -a --nolinear-lookup=1 "$target" > "$TEST_TMP/out" 2>&1
	rc=$?
	[ $rc -eq 16 ] && [ "$(md5sum < "$img")" = "$sum" ] &&
		tap_ok "$what, fsck -a --nolinear-lookup=1: refused (exit 16), untouched" ||
		tap_fail "$what, fsck -a --nolinear-lookup=1: exit $rc"
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
# mounted read-write: -a is refused (f2fs-tools refuses it too)
if mount -o remount,rw "$MNT" 2>/dev/null; then
	"$FSCK" -a "$LOOPDEV" > "$TEST_TMP/out" 2>&1
	rc=$?
	[ $rc -eq 16 ] && grep -q "is mounted: refusing to repair" "$TEST_TMP/out" &&
		tap_ok "loop device mounted read-write, fsck -a: refused" ||
		tap_fail "loop device mounted read-write, fsck -a: exit $rc"
else
	tap_ok "# SKIP cannot remount the loop device read-write"
fi
tap_summary
