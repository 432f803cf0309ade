# Shared set-up of the sload.f2fs image tests (sload*.sh): lib.sh, the reference tools and
# python, our tools, a fixed timestamp, and
#
#   clean IMG   our fsck (-f -n) and Debian's find IMG clean; shows their output otherwise
. "$(dirname "$0")/lib.sh"
need_ref_tools
need_python

SLOAD=$OUR_BIN/sload.f2fs
FSCK=$OUR_BIN/fsck.f2fs
DUMP=$OUR_BIN/dump.f2fs
INJECT=$OUR_BIN/inject.f2fs
[ -x "$SLOAD" ] || hard_error "sload.f2fs is not built: $SLOAD"
T=1700000017
unset SOURCE_DATE_EPOCH

clean()
{
	local out rc
	out=$("$FSCK" -f -n "$1" 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "our fsck exit $rc on $1:"; printf '%s\n' "$out" | sed 's/^/    | /'
		return 1
	fi
	ref_fsck "$1"
}
