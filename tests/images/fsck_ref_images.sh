#!/bin/bash
# Images made by Debian's mkfs.f2fs 1.15 (and loaded by its sload.f2fs) must check clean
# with our fsck, with several options.
. "$(dirname "$0")/lib.sh"
need_ref_tools
[ -x /usr/sbin/sload.f2fs ] || skip "sload.f2fs not installed"

src=$TEST_TMP/src
mkdir -p "$src/d/e" "$src/many"
printf 'tiny\n' > "$src/tiny"
head -c 5000000 /dev/zero | tr '\0' 'z' > "$src/d/five_mb"
for i in $(seq 1 300); do echo "$i" > "$src/many/f$i"; done
ln -s tiny "$src/link"

while read -r opts; do
	img=$(new_image ref.img 512M)
	# shellcheck disable=SC2086
	if ! "$REF_MKFS" -q -f $opts "$img" > "$TEST_TMP/mkfs.log" 2>&1; then
		tap_fail "reference mkfs $opts failed: $(tail -1 "$TEST_TMP/mkfs.log")"
		continue
	fi
	for loaded in empty loaded; do
		if [ $loaded = loaded ]; then
			/usr/sbin/sload.f2fs -f "$src" "$img" > /dev/null 2>&1
		fi
		"$FSCK" -f -n "$img" > "$TEST_TMP/out" 2>&1
		rc=$?
		if [ $rc -eq 0 ]; then
			tap_ok "mkfs.f2fs 1.15 ${opts:-(defaults)}, $loaded: clean"
		else
			tap_fail "mkfs.f2fs 1.15 ${opts:-(defaults)}, $loaded: exit $rc: $(head -3 "$TEST_TMP/out" | tr '\n' ' ')"
		fi
	done
done <<'OPTS'

-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime,lost_found
-O extra_attr,project_quota,quota
-O extra_attr,compression -s 2
-C utf8 -O lost_found
-s 4 -z 2 -i
OPTS
tap_summary
