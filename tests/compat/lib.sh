# Shared helpers for the caller-compatibility group (tests/compat/): each script runs the
# command lines another program runs against f2fs-tools (taken from that program's own
# sources, cited at the top of the script), once with ours and once with Debian's
# f2fs-tools 1.15, and checks the exit codes, the output lines the caller parses (parsed
# the way the caller parses them) and the volume left behind (both fscks).
#
#   . "$(dirname "$0")/lib.sh"
#
# On top of tests/images/lib.sh (skip, hard_error, new_image, ref_fsck, sb_fields, tap_*):
#   OURS[prog] / REF[prog]     the two builds of each f2fs-tools program
#   need_ref PROG...           skip unless the reference has these programs
#   run WHICH PROG ARGS...     run OURS or REF's PROG; stdout to $TEST_TMP/WHICH.out,
#                              stderr to $TEST_TMP/WHICH.err, exit status in RC_<WHICH>
#   our_fsck_clean IMG         our read-only full check finds IMG clean (exit 0)
#   both_fsck_clean IMG WHAT   tap_ok/tap_fail on both fscks' verdicts of IMG
#   need_loop                  skip unless a loop device can be attached (root)
#   loop_attach IMG            attach IMG to a free loop device, print its path; detached
#                              when the script ends
. "$(dirname "${BASH_SOURCE[0]}")/../images/lib.sh"

declare -A OURS=(
	[mkfs.f2fs]=$OUR_BIN/mkfs.f2fs
	[fsck.f2fs]=$OUR_BIN/fsck.f2fs
	[dump.f2fs]=$OUR_BIN/dump.f2fs
	[resize.f2fs]=$OUR_BIN/resize.f2fs
	[sload.f2fs]=$OUR_BIN/sload.f2fs
	[defrag.f2fs]=$OUR_BIN/defrag.f2fs
	[f2fslabel]=$OUR_BIN/f2fslabel
	[f2fs_io]=$OUR_BIN/f2fs_io
	[fibmap.f2fs]=$OUR_BIN/fibmap.f2fs
)
REF_SBIN=${REF_SBIN:-/usr/sbin}
declare -A REF
for _p in "${!OURS[@]}"; do
	REF[$_p]=$REF_SBIN/$_p
done

need_ref()
{
	local p
	for p in "$@"; do
		[ -x "${REF[$p]}" ] || skip "reference $p not installed (${REF[$p]})"
		[ -x "${OURS[$p]}" ] || hard_error "our $p is not built: ${OURS[$p]}"
	done
}

# run OURS|REF PROG ARGS...: no terminal to answer prompts; never fails the script.
run()
{
	local which=$1 prog=$2 bin
	shift 2
	if [ "$which" = OURS ]; then bin=${OURS[$prog]}; else bin=${REF[$prog]}; fi
	"$bin" "$@" </dev/null >"$TEST_TMP/$which.out" 2>"$TEST_TMP/$which.err"
	printf -v "RC_$which" '%d' $?
}

our_fsck_clean()
{
	"${OURS[fsck.f2fs]}" -f -n "$1" </dev/null >"$TEST_TMP/our_fsck.out" 2>&1
}

both_fsck_clean()
{
	local img=$1 what=$2
	if ! our_fsck_clean "$img"; then
		tap_fail "$what: our fsck finds the volume unclean: $(head -c 400 "$TEST_TMP/our_fsck.out")"
	elif ! ref_fsck "$img" >"$TEST_TMP/ref_fsck.out" 2>&1; then
		tap_fail "$what: f2fs-tools' fsck finds the volume unclean: $(head -c 400 "$TEST_TMP/ref_fsck.out")"
	else
		tap_ok "$what: both fscks find the volume clean"
	fi
}

# The attached loop devices, one a line: a file, since callers take loop_attach's output
# through $(...), a subshell whose variables do not come back.
LOOPS=$TEST_TMP/loops
loop_cleanup()
{
	local l
	[ -f "$LOOPS" ] || return 0
	while read -r l; do
		losetup -d "$l" 2>/dev/null
	done <"$LOOPS"
}
CLEANUP_HOOKS+=(loop_cleanup)

need_loop()
{
	[ "$(id -u)" -eq 0 ] || skip "loop devices need root"
	command -v losetup >/dev/null 2>&1 || skip "losetup not found"
	local img l
	img=$(new_image loop-probe 1M)
	l=$(losetup -f --show "$img" 2>/dev/null) || skip "no loop device can be attached here"
	losetup -d "$l"
	rm -f "$img"
}

loop_attach()
{
	local l
	l=$(losetup -f --show "$1") || hard_error "losetup $1 failed"
	echo "$l" >>"$LOOPS"
	echo "$l"
}
