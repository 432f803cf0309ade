#!/bin/bash
# fsck.f2fs's f2fs-tools options one by one, ours beside Debian's f2fs-tools 1.15 where 1.15
# has them: -p and its optional level as f2fs-tools parses it, -O and -C (switch a feature
# on), the options that tune nothing of ours (-c, -m, -H, --debug-cache, --kernel-check),
# --nolinear-lookup and -g android (f2fs-tools' development branch, not in 1.15), -N, and
# -l, -S (Android sparse images), and the options we refuse (-q 0, --fault_injection; -M is
# tests/compat/fsck_file_map.sh's).  Sources of the option set:
#   jaegeuk/f2fs-tools  fsck/main.c, f2fs_parse_options() (the fsck.f2fs branch) and
#       fsck/mount.c, f2fs_should_proceed() / tune_sb_features(); fsck/fsck.c,
#       fsck_update_sb_flags() (--nolinear-lookup)
#   aosp-mirror/platform_system_core  fs_mgr/fs_mgr.cpp, check_fs(): Android 16 adds
#       --nolinear-lookup=1 to fsck.f2fs -a -c 10000 --debug-cache DEV
. "$(dirname "$0")/lib.sh"
need_ref fsck.f2fs
[ -x "$INJECT" ] || hard_error "inject.f2fs is not built: $INJECT"

clean() { IMG=$TEST_TMP/c.img; base populated > /dev/null 2>&1 || hard_error "no base image"; }
marked() {
	IMG=$TEST_TMP/m.img
	fsck_case_image f_link_count_bad "$IMG" > /dev/null 2>&1 || hard_error "cannot make f_link_count_bad"
	inject --cp 0 --mb ckpt_flags --val $(( $(get --cp 0 --mb ckpt_flags) | 0x10 )) > /dev/null
}
casefolded() {
	IMG=$TEST_TMP/cf.img
	rm -f "$IMG"
	truncate -s 128M "$IMG"
	"$MKFS" -q -O extra_attr,inode_checksum,casefold -C utf8 "$IMG" || hard_error "mkfs -O casefold failed"
}
# sb_both MEMBER: the member in both superblock copies, "A B"
sb_both() { echo "$(get --sb 1 --mb "$1") $(get --sb 2 --mb "$1")"; }
# skipped WHICH: that run said it did not check the volume (f2fs-tools' words, both)
skipped() { grep -q "^Info: No error was reported" "$TEST_TMP/$1.out"; }

# ---- -p [level] ----------------------------------------------------------------------------
# On a clean volume level 0 skips the check and levels 1 and 2 check, for both; the level
# is optional, attached or separate, and what follows -p that is no level is read as
# itself.  (On a damaged volume that asked for no check, f2fs-tools' -p 1 finds nothing
# (it checks the metadata) and -p 2 leaves what it finds (exit 4); ours repairs, exit 1.)
for args in "-p" "-p 0" "-p0" "-p 1" "-p1" "-p 2" "-p 7" "-p -f" "-p -d 1"; do
	clean
	# shellcheck disable=SC2086
	run OURS fsck.f2fs $args "$IMG"
	# shellcheck disable=SC2086
	run REF fsck.f2fs $args "$IMG"
	ours=$(skipped OURS && echo skipped || echo checked)
	ref=$(skipped REF && echo skipped || echo checked)
	if [ "$RC_OURS" = 0 ] && [ "$RC_REF" = 0 ] && [ "$ours" = "$ref" ]; then
		tap_ok "$args DEV on a clean volume: exit 0, $ours, as f2fs-tools"
	else
		tap_fail "$args DEV: exit $RC_OURS (f2fs-tools $RC_REF), $ours (f2fs-tools $ref)"
	fi
done
for level in 1 2; do
	marked
	run OURS fsck.f2fs -p $level "$IMG"
	marked
	run REF fsck.f2fs -p $level "$IMG"
	[ "$RC_OURS" = 1 ] && [ "$RC_REF" = 1 ] && tap_ok "-p $level repairs a marked volume (exit 1, as f2fs-tools)" ||
		tap_fail "-p $level on a marked volume: exit $RC_OURS (f2fs-tools $RC_REF)"
	IMG=$TEST_TMP/d.img
	fsck_case_image f_link_count_bad "$IMG" > /dev/null 2>&1
	run OURS fsck.f2fs -p $level "$IMG"
	[ "$RC_OURS" = 1 ] && our_fsck_clean "$IMG" && tap_ok "-p $level repairs a damaged unmarked volume (exit 1)" ||
		tap_fail "-p $level on a damaged unmarked volume: exit $RC_OURS"
done
clean
run OURS fsck.f2fs -pfoo "$IMG"
[ "$RC_OURS" = 16 ] && tap_ok "-pfoo is a usage error (f2fs-tools loops on it)" ||
	tap_fail "-pfoo: exit $RC_OURS"

# ---- -O, -C: switch a feature on ----------------------------------------------------------
for which in OURS REF; do
	clean
	run "$which" fsck.f2fs -O encrypt "$IMG"
	f=$(sb_both feature)
	if [ "$(( ${f% *} & 1 ))" = 1 ] && [ "$(( ${f#* } & 1 ))" = 1 ]; then
		tap_ok "$which: -O encrypt switches the encrypt feature on in both copies"
	else
		tap_fail "$which: -O encrypt: features $f (exit ${!which:-})"
	fi
done
both_fsck_clean "$IMG" "after f2fs-tools' -O encrypt"
clean
run OURS fsck.f2fs -O encrypt "$IMG"
both_fsck_clean "$IMG" "after our -O encrypt"
clean
run OURS fsck.f2fs -C utf8:strict "$IMG"
f=$(sb_both feature) e=$(sb_both s_encoding) fl=$(sb_both s_encoding_flags)
if [ "$RC_OURS" = 0 ] && [ "$(( ${f% *} & 0x1000 ))" != 0 ] && [ "$(( ${f#* } & 0x1000 ))" != 0 ] &&
   [ "$e" = "1 1" ] && [ "$fl" = "1 1" ]; then
	tap_ok "-C utf8:strict switches casefold on with encoding 1 (utf8) and the strict flag"
else
	tap_fail "-C utf8:strict: exit $RC_OURS, features $f, encoding $e, flags $fl"
fi
both_fsck_clean "$IMG" "after our -C utf8"
# f2fs-tools 1.15 sets the feature and leaves s_encoding 0, which Linux refuses to mount
clean
run REF fsck.f2fs -C utf8 "$IMG"
[ "$(sb_both s_encoding)" = "0 0" ] && tap_ok "f2fs-tools' -C utf8 leaves s_encoding 0 (a deliberate difference)" ||
	tap_fail "f2fs-tools' -C utf8 now sets s_encoding $(sb_both s_encoding): update the man page"
clean
sum=$(sha256sum < "$IMG")
run OURS fsck.f2fs -O casefold "$IMG"
[ "$RC_OURS" = 16 ] && [ "$(sha256sum < "$IMG")" = "$sum" ] &&
	tap_ok "-O casefold without -C: exit 16, nothing written" || tap_fail "-O casefold without -C: exit $RC_OURS, or a write"
clean
run OURS fsck.f2fs -O nat_bits_bogus "$IMG"
[ "$RC_OURS" = 16 ] && tap_ok "an unknown feature is a usage error" || tap_fail "-O unknown: exit $RC_OURS"

# ---- --nolinear-lookup and -g android (f2fs-tools' development branch) ---------------------
casefolded
run OURS fsck.f2fs -a -c 10000 --debug-cache --nolinear-lookup=1 "$IMG"
fl=$(sb_both s_encoding_flags)
[ "$RC_OURS" = 0 ] && [ "$fl" = "2 2" ] && skipped OURS &&
	tap_ok "Android 16's -a -c 10000 --debug-cache --nolinear-lookup=1: hashonly (0x2) in both copies, exit 0, no check" ||
	tap_fail "--nolinear-lookup=1: exit $RC_OURS, s_encoding_flags $fl"
both_fsck_clean "$IMG" "after --nolinear-lookup=1"
run OURS fsck.f2fs --nolinear-lookup=0 "$IMG"
[ "$RC_OURS" = 0 ] && [ "$(sb_both s_encoding_flags)" = "0 0" ] &&
	tap_ok "--nolinear-lookup=0 clears it" || tap_fail "--nolinear-lookup=0: exit $RC_OURS, flags $(sb_both s_encoding_flags)"
run OURS fsck.f2fs -g android "$IMG"
[ "$RC_OURS" = 0 ] && [ "$(sb_both s_encoding_flags)" = "2 2" ] &&
	tap_ok "-g android sets it (and checks as -a: exit 0)" || tap_fail "-g android: exit $RC_OURS, flags $(sb_both s_encoding_flags)"
run OURS fsck.f2fs -g android --nolinear-lookup=0 "$IMG"
[ "$(sb_both s_encoding_flags)" = "0 0" ] && tap_ok "-g android --nolinear-lookup=0 keeps the fallback" ||
	tap_fail "-g android --nolinear-lookup=0: flags $(sb_both s_encoding_flags)"
sum=$(sha256sum < "$IMG")
run OURS fsck.f2fs --dry-run --nolinear-lookup=1 "$IMG"
[ "$RC_OURS" = 0 ] && [ "$(sha256sum < "$IMG")" = "$sum" ] &&
	tap_ok "--dry-run --nolinear-lookup=1 writes nothing" || tap_fail "--dry-run --nolinear-lookup=1: exit $RC_OURS or a write"
clean
sum=$(sha256sum < "$IMG")
run OURS fsck.f2fs -a --nolinear-lookup=1 "$IMG"
[ "$RC_OURS" = 0 ] && [ "$(sha256sum < "$IMG")" = "$sum" ] &&
	tap_ok "--nolinear-lookup=1 without the casefold feature: exit 0, nothing written (as f2fs-tools)" ||
	tap_fail "--nolinear-lookup=1 without casefold: exit $RC_OURS or a write"

# ---- accepted, no effect on ours; refused --------------------------------------------------
clean
sum=$(sha256sum < "$IMG")
run OURS fsck.f2fs -a -c 10000 -m 16 -H -q 1 -d 1 --debug-cache --kernel-check --no-kernel-check "$IMG"
run REF fsck.f2fs -a -c 10000 -m 16 -q 1 -d 1 --debug-cache --kernel-check --no-kernel-check "$IMG"
[ "$RC_OURS" = 0 ] && [ "$RC_REF" = 0 ] && tap_ok "-c -m -H -q 1 -d --debug-cache --kernel-check --no-kernel-check: accepted, exit 0" ||
	tap_fail "tuning options: exit $RC_OURS (f2fs-tools $RC_REF): $(head -c 200 "$TEST_TMP/OURS.err")"
clean
sum=$(sha256sum < "$IMG")
for args in "-q 0" --fault_injection=2 --fault_type=1 "-c x"; do
	# shellcheck disable=SC2086
	run OURS fsck.f2fs $args "$IMG"
	[ "$RC_OURS" = 16 ] && [ "$(wc -l < "$TEST_TMP/OURS.err")" -le 2 ] && [ "$(sha256sum < "$IMG")" = "$sum" ] &&
		tap_ok "$args: refused (exit 16, one line), nothing written" ||
		tap_fail "$args: exit $RC_OURS: $(head -c 200 "$TEST_TMP/OURS.err")"
done

# ---- -l: the superblock and the checkpoint, no check -------------------------------------
marked
sum=$(sha256sum < "$IMG")
run OURS fsck.f2fs -l "$IMG"
run REF fsck.f2fs -l "$IMG"
if [ "$RC_OURS" = 0 ] && [ "$RC_REF" = 0 ] && grep -q '^user_block_count: ' "$TEST_TMP/OURS.out" &&
   cmp -s "$TEST_TMP/OURS.out" "$TEST_TMP/REF.out" && [ "$(sha256sum < "$IMG")" = "$sum" ]; then
	tap_ok "-l on a marked volume: exit 0, f2fs-tools' output byte for byte, no check, nothing written"
else
	tap_fail "-l: exit $RC_OURS (f2fs-tools $RC_REF): $(diff "$TEST_TMP/OURS.out" "$TEST_TMP/REF.out" | head -4 | tr '\n' ' ')"
fi

# ---- -S: an Android sparse image (Debian's f2fs-tools refuses -S: Android builds only) ----
if command -v img2simg > /dev/null && command -v simg2img > /dev/null; then
	marked
	img2simg "$IMG" "$TEST_TMP/m.simg" || hard_error "img2simg failed"
	sum=$(sha256sum < "$TEST_TMP/m.simg")
	run OURS fsck.f2fs -S -n "$TEST_TMP/m.simg"
	[ "$RC_OURS" = 4 ] && [ "$(sha256sum < "$TEST_TMP/m.simg")" = "$sum" ] &&
		[ -z "$(ls "$TEST_TMP" | grep 'zf2fs-.*\.\(raw\|new\)$')" ] &&
		tap_ok "-S -n on a marked sparse image: exit 4, image and directory as they were" ||
		tap_fail "-S -n: exit $RC_OURS, or the image changed, or a copy was left"
	run OURS fsck.f2fs -S -a "$TEST_TMP/m.simg"
	simg2img "$TEST_TMP/m.simg" "$TEST_TMP/m.raw" || hard_error "simg2img failed"
	[ "$RC_OURS" = 1 ] && tap_ok "-S -a repairs it (exit 1)" || tap_fail "-S -a: exit $RC_OURS"
	both_fsck_clean "$TEST_TMP/m.raw" "the repaired sparse image, unpacked"
	run OURS fsck.f2fs -S -a "$IMG"
	[ "$RC_OURS" = 8 ] && tap_ok "-S on a raw image: exit 8" || tap_fail "-S on a raw image: exit $RC_OURS"
else
	tap_ok "# SKIP -S: img2simg/simg2img not installed"
fi

# ---- -N, -y, --dry-run with -a ------------------------------------------------------------
marked
sum=$(sha256sum < "$IMG")
run OURS fsck.f2fs -N "$IMG"
[ "$RC_OURS" = 4 ] && [ "$(sha256sum < "$IMG")" = "$sum" ] && tap_ok "-N on a marked volume: exit 4, nothing written" ||
	tap_fail "-N: exit $RC_OURS or a write"
run OURS fsck.f2fs --dry-run -a "$IMG"
[ "$RC_OURS" = 4 ] && [ "$(sha256sum < "$IMG")" = "$sum" ] && tap_ok "--dry-run -a on a marked volume: checked, exit 4, nothing written" ||
	tap_fail "--dry-run -a: exit $RC_OURS or a write"
run OURS fsck.f2fs -y "$IMG"
run REF fsck.f2fs --dry-run -f "$IMG"
[ "$RC_OURS" = 1 ] && [ "$RC_REF" = 0 ] && tap_ok "-y repairs it; f2fs-tools then finds it clean" ||
	tap_fail "-y: exit $RC_OURS, then f2fs-tools $RC_REF"

tap_summary
