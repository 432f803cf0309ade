#!/bin/bash
# tools_unwritable: a volume whose superblock carries a bit this version does not know (a
# feature bit nobody defines, or an unknown casefolding flag) is never written.  Every
# tool that writes (fsck.f2fs -y and its superblock tuning, f2fslabel, sload.f2fs,
# resize.f2fs, defrag.f2fs, gc.f2fs collect) refuses it with one line naming the bits and
# leaves every byte as it was; fsck.f2fs still checks it, read-only (exit 0 when clean, 4
# when it finds damage it may not repair); dump.f2fs reads it.  device_alias is known to
# fsck.f2fs and f2fslabel (they keep an alias file's device its own), which write such a
# volume as any other (fsck repairs the damage: exit 1, then clean); the other writers
# refuse it, and with an unknown bit beside it every writer refuses the volume.  Each case is first run on the same volume without the bit, where the tool
# does change the image: the byte comparison can fail.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/move_lib.sh"

FSCK=$OUR_BIN/fsck.f2fs
LABEL=$OUR_BIN/f2fslabel
SLOAD=$OUR_BIN/sload.f2fs
RESIZE=$OUR_BIN/resize.f2fs
DEFRAG=$OUR_BIN/defrag.f2fs
GC=$OUR_BIN/gc.f2fs
DUMP=$OUR_BIN/dump.f2fs
POP=$OUR_BIN/txn_populate
for t in "$FSCK" "$LABEL" "$SLOAD" "$RESIZE" "$DEFRAG" "$GC" "$DUMP" "$INJECT" "$POP"; do
	[ -x "$t" ] || hard_error "$t is not built"
done

TREE=$TEST_TMP/tree
mkdir -p "$TREE/d"
for i in $(seq 1 40); do head -c $((i * 3000)) /dev/urandom > "$TREE/d/f$i"; done
echo hello > "$TREE/small"

# make_volume IMG: a casefolded volume with a tree loaded, then aged (files created and every
# other one removed: partly valid sections for collect); 192 MiB in a 256 MiB file (resize
# has room to grow).
make_volume()
{
	rm -f "$1"
	truncate -s 256M "$1"
	"$MKFS" -q -f -T 1700000000 -O extra_attr,inode_checksum,sb_checksum,casefold -C utf8 \
		"$1" $((192 * 2048)) >/dev/null || hard_error "mkfs failed"
	"$SLOAD" -f "$TREE" -T 1700000000 "$1" >/dev/null || hard_error "sload failed"
	"$INJECT" --lookup /d/f1 "$1" >/dev/null || hard_error "the loaded tree is not there"
	age_image "$1"
}

BASE=$TEST_TMP/base.img
make_volume "$BASE"

# Each case: a name and a command line; @IMG@ is replaced by the image.
CASES=(
	"fsck -f -y|$FSCK -f -y @IMG@"
	"fsck --nolinear-lookup=1|$FSCK --nolinear-lookup=1 @IMG@"
	"f2fslabel|$LABEL @IMG@ newlabel"
	"sload.f2fs|$SLOAD -f $TREE/d -t /more -T 1700000000 @IMG@"
	"resize.f2fs|$RESIZE -t $((256 * 2048)) @IMG@"
	"defrag.f2fs|$DEFRAG -s 4096 -l 8192 -t 40000 @IMG@"
	"gc.f2fs collect|$GC collect @IMG@ -n 4"
)

# run_case NAME CMD IMG: runs CMD on IMG; sets RC and ERR (its stderr).
run_case()
{
	local cmd=${2//@IMG@/$3}
	ERR=$($cmd 2>&1 >/dev/null)
	RC=$?
}

sha() { img_sum "$1"; }

# The control: without the bit, each tool changes the image (fsck -f -y after a change
# the kernel would repair: the link count of a file).
for c in "${CASES[@]}"; do
	name=${c%%|*}
	img=$TEST_TMP/ctl.img
	cp --sparse=always "$BASE" "$img"
	[ "$name" = "fsck -f -y" ] && "$INJECT" --node --path /small --mb i_links --val 3 "$img" >/dev/null
	before=$(sha "$img")
	run_case "$name" "${c#*|}" "$img"
	if [ "$(sha "$img")" = "$before" ]; then
		tap_fail "control, $name: the image is unchanged without an unknown bit (exit $RC: $ERR)"
	else
		tap_ok "control, $name: changes the image"
	fi
done

# set_bits KIND IMG: puts the unknown bits in IMG's superblock (both copies).
set_bits()
{
	local copy
	for copy in 1 2; do
		case $1 in
		unknown) "$INJECT" --sb $copy --mb feature \
			--val $(( $("$INJECT" --sb $copy --mb feature --get "$2") | 0x20000 )) "$2" ;;
		device_alias) "$INJECT" --sb $copy --mb feature \
			--val $(( $("$INJECT" --sb $copy --mb feature --get "$2") | 0x8000 )) "$2" ;;
		alias_unknown) "$INJECT" --sb $copy --mb feature \
			--val $(( $("$INJECT" --sb $copy --mb feature --get "$2") | 0x28000 )) "$2" ;;
		encoding) "$INJECT" --sb $copy --mb s_encoding_flags --val 4 "$2" ;;
		esac >/dev/null || hard_error "inject of $1 bits failed"
	done
}

# handles KIND NAME: whether tool NAME writes a volume with KIND's bits
handles() { [ "$1" = device_alias ] && case $2 in fsck*|f2fslabel) true ;; *) false ;; esac; }

for kind in unknown device_alias alias_unknown encoding; do
	case $kind in
	unknown) want="feature bits 0x20000" ;;
	device_alias) want="feature bits 0x8000" ;;
	# fsck and f2fslabel, which handle device_alias, name the unknown bit alone
	alias_unknown) want="feature bits 0x28000 (device_alias)" ;;
	encoding) want="casefolding flags 0x4" ;;
	esac
	for c in "${CASES[@]}"; do
		name=${c%%|*}
		img=$TEST_TMP/u.img
		cp --sparse=always "$BASE" "$img"
		set_bits $kind "$img"
		before=$(sha "$img")
		run_case "$name" "${c#*|}" "$img"
		after=$(sha "$img")
		lines=$(printf '%s\n' "$ERR" | grep -c .)
		w=$want
		[ $kind = alias_unknown ] && case $name in fsck*|f2fslabel) w="feature bits 0x20000," ;; esac
		if handles $kind "$name"; then
			# a clean volume: fsck -f -y writes nothing, the others what they did
			# without the bit
			if [ $RC -ne 0 ] || printf '%s\n' "$ERR" | grep -q "never written"; then
				tap_fail "$kind, $name: exit $RC on a volume it writes: $ERR"
			elif [ "$name" = "fsck -f -y" ] && [ "$after" != "$before" ]; then
				tap_fail "$kind, $name: a clean volume was written"
			elif [ "$name" != "fsck -f -y" ] && [ "$after" = "$before" ]; then
				tap_fail "$kind, $name: the image is unchanged"
			else
				tap_ok "$kind, $name: writes it as without the bit (exit 0)"
			fi
			continue
		fi
		if [ "$after" != "$before" ]; then
			tap_fail "$kind, $name: the image was written (exit $RC)"
		elif [ "$name" = "fsck -f -y" ] && [ $RC -ne 0 ]; then
			tap_fail "$kind, $name: the read-only check of a clean volume exits $RC: $ERR"
		elif [ "$name" != "fsck -f -y" ] && [ $RC -eq 0 ]; then
			tap_fail "$kind, $name: exit 0 on a volume it may not write"
		elif [ "$lines" -ne 1 ] || ! printf '%s\n' "$ERR" | grep -q "$w.*never written"; then
			tap_fail "$kind, $name: stderr is not one line naming '$w': $ERR"
		else
			tap_ok "$kind, $name: refused in one line (exit $RC), not one byte written"
		fi
	done
	# damage: the read-only check finds it and exits 4, writing nothing
	img=$TEST_TMP/u.img
	cp --sparse=always "$BASE" "$img"
	"$INJECT" --node --path /small --mb i_links --val 3 "$img" >/dev/null
	set_bits $kind "$img"
	before=$(sha "$img")
	run_case fsck "$FSCK -f -y @IMG@" "$img"
	if handles $kind fsck; then
		if [ $RC -ne 1 ] || [ "$(sha "$img")" = "$before" ] ||
		   ! "$FSCK" -f -n "$img" >/dev/null 2>&1; then
			tap_fail "$kind: fsck -f -y on a damaged volume: exit $RC (want 1 and a clean rerun)"
		else
			tap_ok "$kind: fsck -f -y repairs the damage (exit 1) and the rerun is clean"
		fi
	elif [ $RC -ne 4 ] || [ "$(sha "$img")" != "$before" ]; then
		tap_fail "$kind: fsck -f -y on a damaged volume: exit $RC (want 4), written: $([ "$(sha "$img")" != "$before" ] && echo yes || echo no)"
	else
		tap_ok "$kind: fsck -f -y finds the damage, exits 4 and writes nothing"
	fi
	if "$DUMP" -i "$("$INJECT" --lookup /small "$img")" "$img" >/dev/null 2>&1; then
		tap_ok "$kind: dump.f2fs reads the volume"
	else
		tap_fail "$kind: dump.f2fs cannot read the volume"
	fi
done

tap_summary
