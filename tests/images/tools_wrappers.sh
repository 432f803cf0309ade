#!/bin/bash
# Our tools behind util-linux's fsck(8) and mkfs(8) wrappers, the way a system calls them:
# `fsck -t f2fs -a|-p DEV`, systemd-fsck's `fsck -a -T -l -M DEV` (type found by libblkid)
# and `mkfs -t f2fs DEV`, on image files.
#
# Where the wrappers look for fsck.TYPE and mkfs.TYPE: util-linux 2.38 (Debian 12) fsck
# searches the directories of $PATH (only /sbin when PATH is unset or empty) and mkfs finds
# mkfs.TYPE through $PATH as well; older releases searched a fixed list first (/sbin,
# /sbin/fs.d, /sbin/fs, /etc/fs, /etc), where Debian's f2fs-tools (/sbin/fsck.f2fs) would
# win over any PATH entry.  So our build's tools are put first in PATH, as small scripts
# that record each call and run the build's tool, and, where a private mount namespace is
# allowed (unshare -rm: no root needed with user namespaces), the same scripts are also
# bind-mounted over /usr/sbin/fsck.f2fs and mkfs.f2fs inside it, for wrappers that look
# there first.  Nothing outside the namespace sees that.  Every check then reads what only
# ours leaves (the recorded call, our problem codes, "zf2fs-tools" in the superblock's
# version field), so a run that silently reached Debian's tools fails.
. "$(dirname "$0")/lib.sh"
need_python

FSCK8=/sbin/fsck
MKFS8=/sbin/mkfs
[ -x "$FSCK8" ] && [ -x "$MKFS8" ] || skip "util-linux's $FSCK8 or $MKFS8 is missing"
use_ns=0
command -v unshare >/dev/null 2>&1 && unshare -rm true 2>/dev/null && use_ns=1

# Our tools under the names the wrappers look for, in a directory of their own.
wrap=$TEST_TMP/sbin
mkdir "$wrap"
for t in fsck mkfs; do
	case $t in fsck) ours=$FSCK ;; mkfs) ours=$MKFS ;; esac
	cat > "$wrap/$t.f2fs" <<EOF
#!/bin/sh
echo "\$0 \$*" >> "$TEST_TMP/calls"
exec "$ours" "\$@"
EOF
	chmod +x "$wrap/$t.f2fs"
done

# in_ns CMD...: CMD where the wrappers find our tools first.
in_ns() {
	if [ "$use_ns" = 0 ]; then
		PATH=$wrap:$PATH "$@"
		return
	fi
	unshare -rm /bin/sh -c '
		wrap=$1; shift
		for t in fsck.f2fs mkfs.f2fs; do
			if [ -e /usr/sbin/$t ]; then
				mount --bind "$wrap/$t" /usr/sbin/$t || exit 99
			fi
		done
		PATH=$wrap:$PATH exec "$@"' in_ns "$wrap" "$@"
}

# run NAME EXPECTED_RC CMD...: run through in_ns; output in $TEST_TMP/out.
run() {
	local name=$1 want=$2 rc
	shift 2
	: > "$TEST_TMP/calls"
	in_ns "$@" > "$TEST_TMP/out" 2>&1 < /dev/null
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		tap_ok "$name (exit $rc)"
	else
		tap_fail "$name: exit $rc, expected $want: $(head -c 400 "$TEST_TMP/out")"
	fi
}

# called TOOL ARGS: the wrapper ran our TOOL with exactly these arguments (fsck(8) may
# reorder flags: the checker gets -a or -p first, then the others).
called() {
	local want="$wrap/$1 $2"
	if grep -qxF -- "$want" "$TEST_TMP/calls"; then
		tap_ok "the wrapper ran ours as '$1 $2'"
	else
		tap_fail "the wrapper did not run '$1 $2'; calls: $(tr '\n' ';' < "$TEST_TMP/calls")"
	fi
}

ours_wrote() {   # the superblock's version field names the tool that formatted it
	if head -c 4096 "$1" | grep -aq "zf2fs-tools"; then
		tap_ok "$2"
	else
		tap_fail "$2: the superblock does not name zf2fs-tools"
	fi
}

# ---- mkfs(8) --------------------------------------------------------------------------
img=$(new_image m.img 256M)
run "mkfs -t f2fs DEV" 0 "$MKFS8" -t f2fs -l wrapped "$img"
called mkfs.f2fs "-l wrapped $img"
ours_wrote "$img" "mkfs -t f2fs formatted with our mkfs.f2fs"
"$FSCK" -f -n "$img" > /dev/null 2>&1 && tap_ok "and our fsck finds it clean" ||
	tap_fail "the volume made through mkfs(8) is not clean"

# ---- fsck(8) with a type, the way /etc/fstab's passno or a user calls it -----------------
run "fsck -t f2fs -a on a clean volume" 0 "$FSCK8" -t f2fs -a "$img"
called fsck.f2fs "-a $img"
grep -q "clean" "$TEST_TMP/out" && tap_ok "our preen says it is clean" ||
	tap_fail "no clean message from our fsck: $(head -c 300 "$TEST_TMP/out")"

# A wrong link count: -a and -p with -f (f2fs-tools' force and fix) repair it, exit 1.
for flag in -a -p; do
	fsck_case_image f_link_count_bad "$img" > /dev/null 2>&1 || hard_error "cannot build f_link_count_bad"
	run "fsck -t f2fs $flag -f fixes it" 1 "$FSCK8" -t f2fs "$flag" -f "$img"
	called fsck.f2fs "$flag -f $img"
	grep -q "0x060001" "$TEST_TMP/out" && tap_ok "our problem code is in the output" ||
		tap_fail "no 0x060001 in the output of fsck $flag: $(head -c 300 "$TEST_TMP/out")"
	"$FSCK" -f -n "$img" > /dev/null 2>&1 && tap_ok "the volume is clean after fsck $flag" ||
		tap_fail "still damaged after fsck -t f2fs $flag -f"
done

# A problem --preen may not fix: -p -f repairs it as f2fs-tools' does (exit 1); --preen,
# passed on by fsck(8) after "--", stops with exit 4 and writes nothing.
fsck_case_image f_unreachable_inode "$img" > /dev/null 2>&1 || hard_error "cannot build f_unreachable_inode"
sum=$(sha256sum < "$img")
run "fsck -t f2fs -f DEV -- --preen stops at a problem preen may not fix" 4 "$FSCK8" -t f2fs -f "$img" -- --preen
grep -q "UNEXPECTED INCONSISTENCY" "$TEST_TMP/out" && tap_ok "our preen says to run fsck by hand" ||
	tap_fail "no preen stop message: $(head -c 300 "$TEST_TMP/out")"
[ "$(sha256sum < "$img")" = "$sum" ] && tap_ok "and writes nothing" || tap_fail "preen wrote after stopping"
run "fsck -t f2fs -p -f repairs it (f2fs-tools' -f)" 1 "$FSCK8" -t f2fs -p -f "$img"
called fsck.f2fs "-p -f $img"
"$FSCK" -f -n "$img" > /dev/null 2>&1 && tap_ok "the volume is clean after fsck -p -f" ||
	tap_fail "still damaged after fsck -t f2fs -p -f"

# ---- systemd-fsck at boot: fsck -a -T -l -M [-f] DEV, the type probed by libblkid ------
fsck_case_image f_link_count_bad "$img" > /dev/null 2>&1 || hard_error "cannot build f_link_count_bad"
run "systemd-fsck's fsck -a -T -l -M -f" 1 "$FSCK8" -a -T -l -M -f "$img"
called fsck.f2fs "-a -f $img"
"$FSCK" -f -n "$img" > /dev/null 2>&1 && tap_ok "the volume is clean after the boot check" ||
	tap_fail "still damaged after the boot check"
run "systemd-fsck's fsck -a -T -l -M on a clean volume" 0 "$FSCK8" -a -T -l -M "$img"
called fsck.f2fs "-a $img"

# ---- fsck -N shows what it would run, without running it ---------------------------------
run "fsck -N -t f2fs" 0 "$FSCK8" -N -t f2fs -a "$img"
grep -q "fsck.f2fs -a $img" "$TEST_TMP/out" && tap_ok "fsck -N names fsck.f2fs" ||
	tap_fail "fsck -N output: $(head -c 300 "$TEST_TMP/out")"
[ ! -s "$TEST_TMP/calls" ] && tap_ok "and does not run it" || tap_fail "fsck -N ran the checker"

tap_summary
