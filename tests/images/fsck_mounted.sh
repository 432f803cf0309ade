#!/bin/bash
# fsck.f2fs never repairs a mounted device: with -y, -p or -a on a mounted loop device or
# on the backing file of one, it refuses (exit 16, "is mounted") before opening the
# device, and the bytes stay as they were; -n is allowed, with a warning.
# The host kernel may lack F2FS, so the mount is a read-only ext4 one: the refusal comes
# before any superblock is read.  Needs root, losetup, mkfs.ext4 and a mountable loop
# device; skipped otherwise.
. "$(dirname "$0")/lib.sh"

mounted_loop_image

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
