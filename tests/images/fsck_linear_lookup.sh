#!/bin/bash
# fsck.f2fs --nolinear-lookup=X and -C [no]hashonly, as f2fs-tools' development branch
# spells them (fsck/main.c: "0" allows the linear lookup fallback in casefolded
# directories, 1 turns it off; fsck.c, fsck_update_sb_flags(): bit 0x2 of s_encoding_flags,
# which mkfs's -C calls hashonly):
#   (a) =1 sets the bit and =0 clears it, in both superblock copies, each proven by
#       dump.f2fs --superblock (s_encoding_flags and the hashonly name) and by one line of
#       fsck naming the change; the strict flag beside it is kept; a second =1 changes
#       nothing and says nothing; our fsck and Debian's fsck.f2fs 1.15 find the volume
#       clean after each change (1.15 does not judge s_encoding_flags);
#   (b) fsck -C utf8:hashonly on a volume already casefolded sets it as =1 does, and
#       -C utf8:nohashonly clears it;
#   (c) on a volume without casefold, a plain run with --nolinear-lookup=1 is refused: one
#       line on stderr naming the casefold feature, exit 16, the image unchanged; -a (the
#       boot-time check, as Android's fs_mgr runs it) goes on with exit 0 and writes
#       nothing, as f2fs-tools does;
#   (d) a value other than 0 or 1 is a usage error (exit 16) that writes nothing.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/dump_lib.sh"
[ -x "$INJECT" ] || hard_error "inject.f2fs is not built: $INJECT"
[ -x "$DUMP" ] || hard_error "dump.f2fs is not built: $DUMP"

IMG=$(new_image cf.img 128M)
"$MKFS" -q -r -T 1700000000 -O extra_attr,inode_checksum,casefold -C utf8:strict "$IMG" ||
	hard_error "mkfs -O casefold -C utf8:strict failed"

# dumped COPY: "s_encoding_flags N names" from dump.f2fs --superblock of the copy in use,
# and the raw flags of the other copy through inject.f2fs
dumped() {
	"$DUMP" --superblock "$IMG" | awk '
		/^  s_encoding_flags / { v = $2 }
		/^  encoding_flags:/ { on = 1; next }
		on && /^    / { sub(/.*name=/, ""); n = n " " $0; next }
		{ on = 0 }
		END { print v n }'
}
other_copy() { echo "$(get --sb 1 --mb s_encoding_flags) $(get --sb 2 --mb s_encoding_flags)"; }
clean_both() {
	local why
	if ! why=$(our_fsck_clean "$IMG"); then
		tap_fail "$1: our fsck $why"
	elif [ -x "$REF_FSCK" ] && ! ref_fsck "$IMG"; then
		tap_fail "$1: Debian's fsck.f2fs reports a problem"
	else
		tap_ok "$1: our fsck and Debian's fsck.f2fs 1.15 find it clean"
	fi
}
# tune ARGS... WANT_DUMP WANT_LINE: run fsck ARGS, then compare the dump and the line
tune() {
	local line=${*: -1} want=${*: -2:1} out rc got
	set -- "${@:1:$#-2}"
	out=$("$FSCK" "$@" "$IMG" 2>&1)
	rc=$?
	got=$(dumped)
	if [ $rc -ne 0 ]; then
		tap_fail "fsck $*: exit $rc: $out"
	elif [ "$got" != "$want" ]; then
		tap_fail "fsck $*: dump shows '$got', want '$want'"
	elif [ -n "$line" ] && ! printf '%s\n' "$out" | grep -qx "fsck.f2fs: superblock: $line"; then
		tap_fail "fsck $*: no line 'fsck.f2fs: superblock: $line' in: $out"
	elif [ -z "$line" ] && printf '%s\n' "$out" | grep -q 'fsck.f2fs: superblock:'; then
		tap_fail "fsck $*: a change was reported where none was due: $out"
	else
		tap_ok "fsck $*: dump shows s_encoding_flags '$got'${line:+, fsck says '$line'}"
	fi
}

# ---- (a) set, again, clear ------------------------------------------------------------------
[ "$(dumped)" = "1 strict" ] || hard_error "mkfs -C utf8:strict gave '$(dumped)'"
tune --nolinear-lookup=1 "3 strict hashonly" "linear lookup disabled (hashonly)"
[ "$(other_copy)" = "3 3" ] && tap_ok "=1: both copies hold 3" || tap_fail "=1: copies hold $(other_copy)"
clean_both "after --nolinear-lookup=1"
cp "$IMG" "$TEST_TMP/set.img"
tune --nolinear-lookup=1 "3 strict hashonly" ""
cmp -s "$IMG" "$TEST_TMP/set.img" && tap_ok "a second =1 writes nothing" ||
	tap_fail "a second =1 changed the image"
tune --nolinear-lookup=0 "1 strict" "linear lookup enabled"
[ "$(other_copy)" = "1 1" ] && tap_ok "=0: both copies hold 1" || tap_fail "=0: copies hold $(other_copy)"
clean_both "after --nolinear-lookup=0"

# ---- (b) -C on a casefolded volume ----------------------------------------------------------
tune -C utf8:hashonly "3 strict hashonly" "linear lookup disabled (hashonly)"
tune -C utf8:nohashonly "1 strict" "linear lookup enabled"

# ---- (c) no casefold ------------------------------------------------------------------------
IMG=$(new_image plain.img 128M)
"$MKFS" -q -r -T 1700000000 -O extra_attr "$IMG" || hard_error "mkfs failed"
cp "$IMG" "$TEST_TMP/before"
"$FSCK" --nolinear-lookup=1 "$IMG" > "$TEST_TMP/out" 2> "$TEST_TMP/err"
rc=$?
[ $rc -eq 16 ] && [ "$(wc -l < "$TEST_TMP/err")" -eq 1 ] && grep -q 'casefold' "$TEST_TMP/err" &&
	cmp -s "$IMG" "$TEST_TMP/before" &&
	tap_ok "no casefold, --nolinear-lookup=1: refused in one line naming casefold, exit 16, nothing written" ||
	tap_fail "no casefold, --nolinear-lookup=1: exit $rc, stderr '$(cat "$TEST_TMP/err")'"
"$FSCK" -a --nolinear-lookup=1 "$IMG" > "$TEST_TMP/out" 2>&1
rc=$?
[ $rc -eq 0 ] && cmp -s "$IMG" "$TEST_TMP/before" &&
	tap_ok "no casefold, -a --nolinear-lookup=1: exit 0, nothing written (f2fs-tools goes on too)" ||
	tap_fail "no casefold, -a --nolinear-lookup=1: exit $rc: $(cat "$TEST_TMP/out")"

# ---- (d) values -----------------------------------------------------------------------------
"$FSCK" --nolinear-lookup=yes "$IMG" > "$TEST_TMP/out" 2> "$TEST_TMP/err"
rc=$?
[ $rc -eq 16 ] && grep -q "0 or 1, not 'yes'" "$TEST_TMP/err" && cmp -s "$IMG" "$TEST_TMP/before" &&
	tap_ok "--nolinear-lookup=yes: usage error naming the value, nothing written" ||
	tap_fail "--nolinear-lookup=yes: exit $rc, stderr '$(cat "$TEST_TMP/err")'"

tap_summary
