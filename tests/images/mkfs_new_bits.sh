#!/bin/bash
# mkfs.f2fs and the superblock bits Linux added after 6.1 that mkfs can be asked for:
#   (a) -C utf8:hashonly writes bit 0x2 of s_encoding_flags (no linear lookup fallback in
#       casefolded directories, Linux 6.16) in both superblock copies; utf8:strict,hashonly
#       writes 0x3 and utf8:hashonly,nohashonly 0 (f2fs-tools' development branch spells
#       the flags so: a comma list, "no" clearing one); dump.f2fs names the flags;
#   (b) -O packed_ssa with 4 KiB blocks is accepted, says so on one Info line and leaves the
#       bit off, as f2fs-tools' development branch does: with 4 KiB blocks a summary block
#       holds one segment's summary either way (Linux 7.3's sum_blocksize is 4096 under
#       packed_ssa, the block size without it), so the image is byte for byte the one made
#       without the option;
#   (c) each volume is clean for our fsck and for Debian's fsck.f2fs 1.15.  1.15 knows
#       neither hashonly nor packed_ssa: it reads s_encoding_flags without judging it, and
#       its "Info: superblock features" line lists casefold only; it finds the volumes
#       clean and writes nothing (checked with a run that may write, then cmp).
# -O device_alias is refused by tests/images/mkfs_errors.sh.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/dump_lib.sh"
[ -x "$INJECT" ] || hard_error "inject.f2fs is not built: $INJECT"
[ -x "$DUMP" ] || hard_error "dump.f2fs is not built: $DUMP"

FIXED=(-r -T 1700000000 -U 11111111-2222-3333-4444-555555555555)

# flags_of IMG: s_encoding_flags of both copies, "A B"
flags_of() { echo "$("$INJECT" --sb 1 --mb s_encoding_flags --get "$1") $("$INJECT" --sb 2 --mb s_encoding_flags --get "$1")"; }
# enc_names IMG: the names dump.f2fs lists under encoding_flags, space separated
enc_names() {
	"$DUMP" --superblock "$1" | sed -n '/^  encoding_flags:/,/^  [a-z_][a-z_]* /p' |
		sed -n 's/.*name=\([a-z]*\).*/\1/p' | tr '\n' ' ' | sed 's/ $//'
}
# both_clean IMG WHAT: our fsck -f -n exits 0 with no problem, Debian's finds nothing
# (read only), and a run of Debian's that may write leaves the image as it was
both_clean() {
	local why
	if why=$(our_fsck_clean "$1"); then
		tap_ok "$2: our fsck -f -n finds nothing"
	else
		tap_fail "$2: our fsck $why"
	fi
	[ -x "$REF_FSCK" ] || { tap_ok "$2: SKIP Debian's fsck.f2fs not installed"; return; }
	if ref_fsck "$1"; then
		cp "$1" "$TEST_TMP/before"
		"$REF_FSCK" -f "$1" < /dev/null > "$TEST_TMP/ref.out" 2>&1
		if cmp -s "$1" "$TEST_TMP/before"; then
			tap_ok "$2: Debian's fsck.f2fs 1.15 finds it clean and writes nothing"
		else
			tap_fail "$2: Debian's fsck.f2fs -f changed the image"
		fi
	else
		tap_fail "$2: Debian's fsck.f2fs reports a problem"
	fi
}

# ---- (a) -C utf8:hashonly and its combinations ------------------------------------------
img=$(new_image cf.img 128M)
"$MKFS" -q "${FIXED[@]}" -O extra_attr,casefold -C utf8:hashonly "$img" ||
	hard_error "mkfs -C utf8:hashonly failed"
[ "$(flags_of "$img")" = "2 2" ] && [ "$(enc_names "$img")" = hashonly ] &&
	tap_ok "-C utf8:hashonly: s_encoding_flags 2 in both copies, dump names it hashonly" ||
	tap_fail "-C utf8:hashonly: flags $(flags_of "$img"), dump names '$(enc_names "$img")'"
both_clean "$img" "-C utf8:hashonly"
if [ -x "$REF_FSCK" ]; then
	# what 1.15 shows of the volume: casefold, nothing of the flag
	line=$(grep '^Info: superblock features' "$TEST_TMP/ref.out")
	[ "$line" = "Info: superblock features = 1008 :  extra_attr casefold" ] &&
		tap_ok "Debian's fsck.f2fs 1.15 lists extra_attr casefold and nothing of hashonly" ||
		tap_fail "Debian's features line: '$line'"
fi

for c in "utf8:strict,hashonly|3 3|strict hashonly" "utf8:hashonly,nohashonly|0 0|" \
	 "utf8:strict,nostrict,hashonly|2 2|hashonly"; do
	IFS='|' read -r arg want names <<< "$c"
	"$MKFS" -q -f "${FIXED[@]}" -O extra_attr,casefold -C "$arg" "$img" ||
		hard_error "mkfs -C $arg failed"
	[ "$(flags_of "$img")" = "$want" ] && [ "$(enc_names "$img")" = "$names" ] &&
		tap_ok "-C $arg: s_encoding_flags $want, dump names '$names'" ||
		tap_fail "-C $arg: flags $(flags_of "$img"), want $want; names '$(enc_names "$img")', want '$names'"
done
both_clean "$img" "-C utf8:strict,nostrict,hashonly"

out=$("$MKFS" -q -f -O extra_attr,casefold -C utf8:hashonly,bogus "$img" 2>&1)
rc=$?
[ $rc -eq 16 ] && [ "$(printf '%s\n' "$out" | head -1)" != "" ] &&
	printf '%s\n' "$out" | head -1 | grep -q "encoding flag 'bogus'" &&
	tap_ok "-C utf8:hashonly,bogus: usage error naming the flag" ||
	tap_fail "-C utf8:hashonly,bogus: exit $rc: $out"

# ---- (b) -O packed_ssa with 4 KiB blocks ----------------------------------------------------
with=$(new_image packed.img 256M)
without=$(new_image plain.img 256M)
out=$("$MKFS" "${FIXED[@]}" -O extra_attr,packed_ssa "$with" 2>&1) ||
	hard_error "mkfs -O packed_ssa failed: $out"
"$MKFS" -q "${FIXED[@]}" -O extra_attr "$without" || hard_error "mkfs without packed_ssa failed"
printf '%s\n' "$out" | grep -qx 'Info: packed_ssa only applies to 16K blocks: not set' &&
	tap_ok "-O packed_ssa: one Info line says it is not set with 4 KiB blocks" ||
	tap_fail "-O packed_ssa: no Info line: $out"
f=$("$INJECT" --sb 1 --mb feature --get "$with")
[ $(( f & 0x10000 )) -eq 0 ] && cmp -s "$with" "$without" &&
	tap_ok "-O packed_ssa: the bit is off and the image is byte for byte the one made without it" ||
	tap_fail "-O packed_ssa: feature $f, or the images differ ($(cmp "$with" "$without" 2>&1))"
both_clean "$with" "-O packed_ssa"

tap_summary
