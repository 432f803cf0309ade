#!/bin/bash
# The on-disk bits Linux 7.3 has beyond 6.1, set with inject.f2fs on the populated base
# image and named by dump.f2fs (include/linux/f2fs_fs.h and fs/f2fs/f2fs.h of 7.3):
#   (a) feature bits device_alias (0x8000) and packed_ssa (0x10000): --superblock lists
#       them by name, in text and in --json, and the "Info: superblock features" line of
#       dump.f2fs's summary names them as f2fs-tools' development branch does;
#   (b) the inode flag 0x80000000 (device_alias) in --inode's i_flag_names;
#   (c) s_stop_reason slots 7 (no free segment) and 12 (data read error) in stop_reasons,
#       each with its count; an unnamed slot (20) shows as unknown;
#   (d) with those bits our fsck -f -n reads the volume and finds the stop reasons
#       (0x010003) and the device-alias flag on a file that is not pinned, which Linux
#       refuses (0x04003d), nothing else (exit 4); Debian's fsck.f2fs 1.15 knows neither feature: its features
#       line lists the names it knows and leaves 0x18000 unnamed, and it finds nothing
#       wrong (the stop reasons and the inode flag are not judged by 1.15).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/dump_lib.sh"
need_python
[ -x "$INJECT" ] || hard_error "inject.f2fs is not built: $INJECT"
[ -x "$DUMP" ] || hard_error "dump.f2fs is not built: $DUMP"

IMG=$TEST_TMP/p.img
base populated
# the inode flag first: inode writes go through the opened volume, the superblock ones do not
empty=$(ino /empty)
inject --node --nid "$empty" --mb i_flags --val 0x80000000 > /dev/null ||
	hard_error "inject.f2fs could not set i_flags"
f=$(get --sb 1 --mb feature)
for copy in 1 2; do
	inject --sb $copy --mb feature --val $(( f | 0x18000 )) > /dev/null
	inject --sb $copy --mb s_stop_reason --idx 7 --val 1 > /dev/null
	inject --sb $copy --mb s_stop_reason --idx 12 --val 3 > /dev/null
done
[ "$(get --sb 2 --mb feature)" = $(( f | 0x18000 )) ] ||
	hard_error "inject.f2fs did not set the feature bits"

# ---- (a) feature names ----------------------------------------------------------------------
sb=$("$DUMP" --superblock "$IMG")
printf '%s\n' "$sb" | grep -qx '    bit=32768 name=device_alias' &&
	printf '%s\n' "$sb" | grep -qx '    bit=65536 name=packed_ssa' &&
	! printf '%s\n' "$sb" | grep -q 'name=unknown' &&
	tap_ok "--superblock names device_alias and packed_ssa, no bit unknown" ||
	tap_fail "--superblock features: $(printf '%s\n' "$sb" | sed -n '/features:/,/encryption_level/p')"
names=$("$DUMP" --superblock --json "$IMG" | python3 -c '
import json, sys
sb = json.load(sys.stdin)["superblock"]
print(",".join(f["name"] for f in sb["features"]),
      ",".join("%d:%s:%d" % (r["slot"], r["name"], r["count"]) for r in sb["stop_reasons"]))')
[ "$names" = "extra_attr,inode_checksum,flexible_inline_xattr,lost_found,device_alias,packed_ssa 7:no free segment:1,12:data read error:3" ] &&
	tap_ok "--json: the same features and stop reasons" || tap_fail "--json: '$names'"
line=$("$DUMP" "$IMG" | grep '^Info: superblock features')
[ "$line" = "Info: superblock features = 18268 :  extra_attr inode_checksum flexible_inline_xattr lost_found device_alias packed_ssa" ] &&
	tap_ok "the Info: summary names both bits" || tap_fail "Info line: '$line'"

# ---- (b) the inode flag ---------------------------------------------------------------------
in=$("$DUMP" -i "$empty" "$IMG")
printf '%s\n' "$in" | sed -n '/^    i_flag_names:/,/^    i_pino/p' | grep -qx '      bit=2147483648 name=device_alias' &&
	tap_ok "--inode names i_flags 0x80000000 device_alias" ||
	tap_fail "--inode: $(printf '%s\n' "$in" | grep -A3 i_flags)"

# ---- (c) stop reasons -------------------------------------------------------------------------
rows=$(printf '%s\n' "$sb" | sed -n '/^  stop_reasons:/,/^  s_errors/p' | grep '^    ')
[ "$rows" = '    slot=7 name="no free segment" count=1
    slot=12 name="data read error" count=3' ] && tap_ok "stop_reasons: slots 7 and 12 by Linux 7.3's names" ||
	tap_fail "stop_reasons: '$rows'"
inject --sb 1 --mb s_stop_reason --idx 20 --val 2 > /dev/null
inject --sb 2 --mb s_stop_reason --idx 20 --val 2 > /dev/null
"$DUMP" --superblock "$IMG" | grep -qx '    slot=20 name=unknown count=2' &&
	tap_ok "a slot Linux does not name shows as unknown" || tap_fail "slot 20 not shown as unknown"
inject --sb 1 --mb s_stop_reason --idx 20 --val 0 > /dev/null
inject --sb 2 --mb s_stop_reason --idx 20 --val 0 > /dev/null

# ---- (d) the fscks ----------------------------------------------------------------------------
out=$("$FSCK" -f -n "$IMG" 2>&1)
rc=$?
codes=$(printf '%s\n' "$out" | grep -o '^\[0x[0-9a-f]*\]' | sort -u | tr '\n' ' ')
[ $rc -eq 4 ] && [ "$codes" = "[0x010003] [0x04003d] " ] &&
	printf '%s\n' "$out" | grep -q 'stopped by no free segment (1 times), stopped by data read error (3 times)' &&
	tap_ok "our fsck -f -n reads it and finds the stop reasons, by name, and the unpinned alias flag" ||
	tap_fail "our fsck: exit $rc: $out"
if [ -x "$REF_FSCK" ]; then
	ref=$("$REF_FSCK" --dry-run -f "$IMG" < /dev/null 2>&1)
	line=$(printf '%s\n' "$ref" | grep '^Info: superblock features')
	[ "$line" = "Info: superblock features = 18268 :  extra_attr inode_checksum flexible_inline_xattr lost_found" ] &&
		tap_ok "Debian's fsck.f2fs 1.15 leaves 0x18000 unnamed" || tap_fail "Debian's line: '$line'"
	ref_fsck "$IMG" > /dev/null && tap_ok "Debian's fsck.f2fs 1.15 finds nothing wrong" ||
		tap_fail "Debian's fsck.f2fs: $(ref_fsck "$IMG")"
else
	tap_ok "SKIP Debian's fsck.f2fs not installed"
fi

tap_summary
