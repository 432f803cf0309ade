#!/bin/bash
# fsck.f2fs as its callers run it, ours beside Debian's f2fs-tools 1.15, on image files and
# (as root) loop devices.  The command lines come from:
#   aosp-mirror/platform_system_core  fs_mgr/fs_mgr.cpp, check_fs(): fsck.f2fs -a -c 10000
#       --debug-cache DEV, and -f -c 10000 --debug-cache DEV for a forced check; the status
#       is only logged (not 0: FS_STAT_FSCK_FS_FIXED), the volume is mounted after
#   GNOME/gparted  src/f2fs.cc, f2fs::check_repair(): fsck.f2fs -f -a DEV, exit 0 wanted; then
#       stdout searched for ^(Info: checkpoint state = [^\n]*sudden-power-off)$ (multi-line,
#       caseless) to decide to mount once and replay the log
#   storaged-project/libblockdev  src/plugins/fs/f2fs.c, bd_fs_f2fs_check(): fsck.f2fs
#       --dry-run DEV (0 clean, 255 unclean, anything else an error); bd_fs_f2fs_repair():
#       fsck.f2fs -a DEV (0 wanted)
#   openwrt/fstools  block.c, check_filesystem(): fsck.f2fs -f DEV before mounting
#   KDE/kpmcore  src/fs/f2fs.cpp, f2fs::check(): fsck.f2fs DEV, exit 0 wanted
#   systemd/systemd  src/fsck/fsck.c (fsck -a [-f] DEV through fsck(8), which runs
#       fsck.f2fs -a [-f] DEV), and fsck -p DEV as dracut and mkinitcpio's boot scripts
#       run fsck(8): fsck.f2fs -p DEV
# Volumes: clean (unmounted), spo (Linux 6.1 after a power cut: orphan inode, fsync'd
# data awaiting roll-forward), marked (a wrong link count and the kernel's fsck flag),
# damaged (the same link count, no flag).  Deliberate differences are tested as such and
# listed in man/fsck.f2fs.8.
. "$(dirname "$0")/lib.sh"
need_ref fsck.f2fs
[ -x "$INJECT" ] || hard_error "inject.f2fs is not built: $INJECT"

# mk KIND: $IMG (under $TEST_TMP) holds a fresh volume of that kind
mk() {
	IMG=$TEST_TMP/$1.img
	case $1 in
	clean) base populated ;;
	spo) base unclean ;;
	damaged) fsck_case_image f_link_count_bad "$IMG" ;;
	marked) fsck_case_image f_link_count_bad "$IMG" &&
		inject --cp 0 --mb ckpt_flags --val $(( $(get --cp 0 --mb ckpt_flags) | 0x10 )) ;;
	errflag) fsck_case_image f_cp_error_flag "$IMG" ;;
	*) hard_error "unknown volume kind $1" ;;
	esac > "$TEST_TMP/mk.out" 2>&1 || hard_error "cannot make the $1 volume: $(tail -1 "$TEST_TMP/mk.out")"
}

# a file's bytes, read through our dump.f2fs (the data a repair must keep)
content() { "$OUR_BIN/dump.f2fs" --cat "$2" "$1" 2>/dev/null | sha256sum; }

# case KIND WHAT OURS_RC REF_RC ARGS...: the command line on a fresh KIND volume with each
# fsck; both exit statuses as given; a run of ours that exits 0 or 1 leaves a volume both
# fscks find clean, with /small.txt and /big.bin as they were (or, with UNCHECKED=1 set
# for the call, a volume the options do not check: every byte as it was).  Leaves our
# run's output in $TEST_TMP/OURS.out and f2fs-tools' in REF.out, the volume ours left in
# $IMG.
case_() {
	local kind=$1 what=$2 want_ours=$3 want_ref=$4 small big sum
	shift 4
	mk "$kind"
	run REF fsck.f2fs "$@" "$IMG"
	cp "$TEST_TMP/REF.out" "$TEST_TMP/ref.keep"
	mk "$kind"
	small=$(content "$IMG" /small.txt) big=$(content "$IMG" /big.bin) sum=$(sha256sum < "$IMG")
	run OURS fsck.f2fs "$@" "$IMG"
	cp "$TEST_TMP/ref.keep" "$TEST_TMP/REF.out"
	if [ "$RC_OURS" = "$want_ours" ] && [ "$RC_REF" = "$want_ref" ]; then
		tap_ok "$what, $kind volume: exit $RC_OURS (f2fs-tools $RC_REF)"
	else
		tap_fail "$what, $kind volume: exit $RC_OURS (want $want_ours), f2fs-tools $RC_REF (want $want_ref): $(head -c 300 "$TEST_TMP/OURS.err")"
	fi
	if [ "${UNCHECKED:-0}" = 1 ]; then
		[ "$(sha256sum < "$IMG")" = "$sum" ] && tap_ok "$what, $kind volume: not checked, nothing written" ||
			tap_fail "$what, $kind volume: ours wrote to a volume it was not to check"
	elif [ "$RC_OURS" -le 1 ]; then
		both_fsck_clean "$IMG" "$what, $kind volume, after ours"
		if [ "$(content "$IMG" /small.txt)" = "$small" ] && [ "$(content "$IMG" /big.bin)" = "$big" ]; then
			tap_ok "$what, $kind volume: the files' data kept"
		else
			tap_fail "$what, $kind volume: /small.txt or /big.bin changed"
		fi
	fi
}

# GParted's test of the output (its stdout only), as its regular expression reads it
gparted_replay() { grep -Eiq '^Info: checkpoint state = .*sudden-power-off$' "$1"; }

# ---- the checkpoint-state line, word for word ---------------------------------------------
for kind in clean spo marked errflag; do
	case_ "$kind" "GParted's fsck.f2fs -f -a" \
		"$( [ "$kind" = clean ] || [ "$kind" = spo ] && echo 0 || echo 1)" \
		"$( [ "$kind" = marked ] && echo 1 || echo 0)" -f -a
	a=$(grep '^Info: checkpoint state = ' "$TEST_TMP/OURS.out")
	b=$(grep '^Info: checkpoint state = ' "$TEST_TMP/REF.out")
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		tap_ok "$kind: the checkpoint-state line is f2fs-tools' ($a)"
	else
		tap_fail "$kind: checkpoint-state line '$a', f2fs-tools '$b'"
	fi
done
# GParted replays the log (mount, umount) after exit 0 and that line
mk spo
run OURS fsck.f2fs -f -a "$IMG"
[ "$RC_OURS" = 0 ] && gparted_replay "$TEST_TMP/OURS.out" &&
	tap_ok "GParted: a volume cut off by power: exit 0 and the sudden-power-off line (it replays the log)" ||
	tap_fail "GParted: power-cut volume: exit $RC_OURS, line: $(grep '^Info: checkpoint' "$TEST_TMP/OURS.out")"
mk clean
run OURS fsck.f2fs -f -a "$IMG"
[ "$RC_OURS" = 0 ] && ! gparted_replay "$TEST_TMP/OURS.out" &&
	tap_ok "GParted: a clean volume: exit 0, no replay" || tap_fail "GParted: clean volume: exit $RC_OURS or a replay asked"

# ---- Android's fs_mgr at boot ----------------------------------------------------------
case_ clean "Android's fsck.f2fs -a -c 10000 --debug-cache" 0 0 -a -c 10000 --debug-cache
grep -q "^Info: No error was reported" "$TEST_TMP/OURS.out" && tap_ok "and the volume was not checked" ||
	tap_fail "a clean volume was checked by -a"
case_ spo "Android's fsck.f2fs -a -c 10000 --debug-cache" 0 0 -a -c 10000 --debug-cache
case_ marked "Android's fsck.f2fs -a -c 10000 --debug-cache" 1 1 -a -c 10000 --debug-cache
# a damaged volume the kernel did not mark: neither checks it (f2fs-tools' -a does not look)
UNCHECKED=1 case_ damaged "Android's fsck.f2fs -a -c 10000 --debug-cache" 0 0 -a -c 10000 --debug-cache
# the kernel's error flag: f2fs-tools' -a leaves it (no quota files); ours repairs (exit 1)
case_ errflag "Android's fsck.f2fs -a -c 10000 --debug-cache" 1 0 -a -c 10000 --debug-cache
for kind in clean spo marked damaged; do
	case_ "$kind" "Android's forced fsck.f2fs -f -c 10000 --debug-cache" \
		"$( [ "$kind" = clean ] || [ "$kind" = spo ] && echo 0 || echo 1)" \
		"$( [ "$kind" = clean ] || [ "$kind" = spo ] && echo 0 || echo 1)" -f -c 10000 --debug-cache
done

# ---- OpenWrt's block mount: fsck.f2fs -f DEV repairs -------------------------------------
case_ clean "OpenWrt's fsck.f2fs -f" 0 0 -f
case_ damaged "OpenWrt's fsck.f2fs -f" 1 1 -f

# ---- libblockdev (udisks2): check with --dry-run, repair with -a --------------------------
for kind in clean damaged; do
	mk "$kind"
	sum=$(sha256sum < "$IMG")
	run OURS fsck.f2fs --dry-run "$IMG"
	mk "$kind"
	run REF fsck.f2fs --dry-run "$IMG"
	want=$( [ "$kind" = clean ] && echo 0 || echo 4)
	if [ "$RC_OURS" = "$want" ] && [ "$RC_REF" = "$want" ]; then
		tap_ok "libblockdev's fsck.f2fs --dry-run, $kind volume: exit $want, as f2fs-tools"
	else
		tap_fail "libblockdev's check, $kind: exit $RC_OURS, f2fs-tools $RC_REF, want $want"
	fi
	mk "$kind"
	run OURS fsck.f2fs --dry-run "$IMG"
	[ "$(sha256sum < "$IMG")" = "$sum" ] && tap_ok "and ours wrote nothing" || tap_fail "--dry-run wrote"
done
case_ clean "libblockdev's repair fsck.f2fs -a" 0 0 -a
case_ marked "libblockdev's repair fsck.f2fs -a" 1 1 -a

# ---- kpmcore: fsck.f2fs DEV, no option, no terminal ---------------------------------------
case_ clean "kpmcore's fsck.f2fs DEV" 0 0
mk damaged
sum=$(sha256sum < "$IMG")
run OURS fsck.f2fs "$IMG"
[ "$RC_OURS" = 4 ] && [ "$(sha256sum < "$IMG")" = "$sum" ] &&
	tap_ok "kpmcore's fsck.f2fs DEV, damaged volume: exit 4, nothing written (f2fs-tools asks on stdin and exits 255)" ||
	tap_fail "kpmcore's check of a damaged volume: exit $RC_OURS, or it wrote"

# ---- fsck(8) at boot: systemd-fsck (-a, -a -f), dracut and mkinitcpio (-a or -p) ----------
case_ clean "systemd's fsck.f2fs -a" 0 0 -a
case_ marked "systemd's fsck.f2fs -a" 1 1 -a
case_ damaged "systemd's forced fsck.f2fs -a -f" 1 1 -a -f
case_ clean "fsck -p's fsck.f2fs -p" 0 0 -p
case_ marked "fsck -p's fsck.f2fs -p" 1 1 -p

# ---- the same command lines on loop devices ----------------------------------------------
if [ "$(id -u)" -eq 0 ] && command -v losetup > /dev/null 2>&1; then
	mk marked
	if dev=$(losetup -f --show "$IMG" 2>/dev/null); then
		echo "$dev" >>"$LOOPS"
		"${OURS[fsck.f2fs]}" -a -c 10000 --debug-cache "$dev" < /dev/null > "$TEST_TMP/loop.out" 2>&1
		rc=$?
		[ "$rc" = 1 ] && tap_ok "Android's -a on a loop device of a marked volume: exit 1" ||
			tap_fail "Android's -a on a loop device: exit $rc: $(head -c 300 "$TEST_TMP/loop.out")"
		"${OURS[fsck.f2fs]}" -f -a "$dev" < /dev/null > "$TEST_TMP/loop.out" 2>&1
		rc=$?
		[ "$rc" = 0 ] && ! gparted_replay "$TEST_TMP/loop.out" &&
			tap_ok "then GParted's -f -a on it: exit 0, no replay" ||
			tap_fail "GParted's -f -a on the loop device: exit $rc"
		"${REF[fsck.f2fs]}" --dry-run -f "$dev" < /dev/null > "$TEST_TMP/loop.out" 2>&1
		rc=$?
		[ "$rc" = 0 ] && tap_ok "and f2fs-tools' fsck finds the loop device clean" ||
			tap_fail "f2fs-tools' fsck on the loop device: exit $rc: $(grep -v '^Info' "$TEST_TMP/loop.out" | head -c 300)"
		losetup -d "$dev"
	else
		tap_ok "# SKIP loop devices: none can be attached here"
	fi
else
	tap_ok "# SKIP loop devices: not root"
fi

tap_summary
