#!/bin/bash
# f2fs_io and fibmap.f2fs as their callers run them, on the host (no F2FS mount: the
# effects on a mounted volume are tests/vm/f2fs_io.sh's).
#
# Callers: xfstests (github.com/kdave/xfstests): common/defrag, _require_defrag() and
# _defrag() run "f2fs_io defrag_file 0 SIZE FILE"; tests/f2fs/007 runs compress,
# release_cblocks, reserve_cblocks, decompress and reads "$(f2fs_io get_cblocks FILE)"
# as the number; tests/f2fs/003, 004, 009, 010, 013 run "write 1 0 N zero atomic_commit
# FILE [DELAY]", "shutdown 1 MNT/", "gc 1 MNT", "fsync FILE"; 011 "pinfile set FILE";
# 012 "setflags casefold DIR".  Scripts probe for a command by f2fs_io's list and its
# "Unknown command:" line (exit 0 either way).
#
# Checked against Debian's f2fs-tools 1.15 (/usr/sbin): the command list, help, unknown
# commands, the exit code of every command of 1.15 given no arguments, and on a file of
# the host's file system the output lines of fallocate, fiemap, getflags and write,
# copy's result, the exit code and empty output of F2FS-only ioctls (get_cblocks,
# defrag_file, pinfile) and of erase and shutdown refusals; fibmap.f2fs's stat and
# block table.  The commands 1.15 lacks (f2fs-tools' development branch,
# tools/f2fs_io/f2fs_io.c) are checked against that source's exit codes.
. "$(dirname "$0")/lib.sh"

# our f2fs_io is built in its own folder
OURS[f2fs_io]=$OUR_BIN/f2fs_io
need_ref f2fs_io fibmap.f2fs

# same_rc WHAT: ours exited as f2fs-tools did
same_rc()
{
	if [ "$RC_OURS" = "$RC_REF" ]; then
		tap_ok "$1: exit $RC_OURS as f2fs-tools"
	else
		tap_fail "$1: ours exits $RC_OURS, f2fs-tools $RC_REF"
	fi
}
# same_out WHAT [FILTER]: the same standard output (through the sed FILTER)
same_out()
{
	local f=${2:-}
	if [ "$(sed "$f" "$TEST_TMP/OURS.out")" = "$(sed "$f" "$TEST_TMP/REF.out")" ]; then
		tap_ok "$1: the output of f2fs-tools"
	else
		tap_fail "$1: ours [$(head -c 300 "$TEST_TMP/OURS.out")] f2fs-tools [$(head -c 300 "$TEST_TMP/REF.out")]"
	fi
}
both() { run OURS "$@"; run REF "$@"; }

# --- the list, help and unknown commands
both f2fs_io
same_rc "no arguments"
head -n 1 "$TEST_TMP/OURS.out" | grep -qx 'Available commands:' &&
	tap_ok "no arguments: the command list" || tap_fail "no arguments: $(head -n 1 "$TEST_TMP/OURS.out")"
sed -n 's/^  \([a-z_]*\) .*/\1/p' "$TEST_TMP/REF.out" | sort > "$TEST_TMP/ref.cmds"
sed -n 's/^  \([a-z_]*\) .*/\1/p' "$TEST_TMP/OURS.out" | sort > "$TEST_TMP/our.cmds"
missing=$(comm -23 "$TEST_TMP/ref.cmds" "$TEST_TMP/our.cmds" | tr '\n' ' ')
[ "$(wc -l < "$TEST_TMP/ref.cmds")" -ge 20 ] && [ -z "$missing" ] &&
	tap_ok "every command of f2fs-tools 1.15 is in our list ($(wc -l < "$TEST_TMP/our.cmds") commands)" ||
	tap_fail "commands missing from our list: $missing"
both f2fs_io help
same_rc "help"
cp "$TEST_TMP/OURS.out" "$TEST_TMP/help.out"
run OURS f2fs_io
cmp -s "$TEST_TMP/OURS.out" "$TEST_TMP/help.out" &&
	tap_ok "help prints the list" || tap_fail "help and no arguments differ"
both f2fs_io help fiemap
same_rc "help fiemap"
grep -q '^USAGE:$' "$TEST_TMP/OURS.out" && grep -q '^  f2fs_io fiemap \[offset in 4kb\]' "$TEST_TMP/OURS.out" &&
	tap_ok "help fiemap: the usage line" || tap_fail "help fiemap: $(head -c 200 "$TEST_TMP/OURS.out")"
for w in bogus "help bogus"; do
	# shellcheck disable=SC2086 # two words
	both f2fs_io $w
	same_rc "f2fs_io $w"
	[ "$(head -n 1 "$TEST_TMP/OURS.out")" = "Unknown command: bogus" ] &&
	[ "$(head -n 1 "$TEST_TMP/REF.out")" = "Unknown command: bogus" ] &&
		tap_ok "f2fs_io $w: the 'Unknown command:' line" ||
		tap_fail "f2fs_io $w: $(head -n 1 "$TEST_TMP/OURS.out")"
done

# --- every command of 1.15 without its arguments: exit 1 (copy: 2)
rcs=
while read -r c; do
	both f2fs_io "$c"
	[ "$RC_OURS" = "$RC_REF" ] && [ "$RC_OURS" != 0 ] || rcs="$rcs $c:$RC_OURS/$RC_REF"
done < "$TEST_TMP/ref.cmds"
[ -z "$rcs" ] && tap_ok "1.15's commands without arguments: the exit codes of f2fs-tools" ||
	tap_fail "without arguments (ours/f2fs-tools):$rcs"
# the development branch's commands: 1 for a wrong argument count
rcs=
for c in fdatasync clearflags fadvise write_advice fragread gc checkpoint precache_extents \
	move_range gc_range listxattr setxattr removexattr lseek get_advise get_fadvise ioprio \
	ftruncate test_create_perf test_lookup_perf freeze thaw; do
	run OURS f2fs_io "$c"
	[ "$RC_OURS" = 1 ] && [ -s "$TEST_TMP/OURS.err" ] || rcs="$rcs $c:$RC_OURS"
done
[ -z "$rcs" ] && tap_ok "newer commands without arguments: exit 1 with their help" ||
	tap_fail "newer commands without arguments:$rcs"
run OURS f2fs_io fallocate -x 0 0 1 "$TEST_TMP/f"
[ "$RC_OURS" = 2 ] && tap_ok "fallocate with an unknown option: exit 2 (the development branch's getopt)" ||
	tap_fail "fallocate -x: exit $RC_OURS"
run OURS f2fs_io copy -x a b
[ "$RC_OURS" = 2 ] && tap_ok "copy with an unknown option: exit 2" || tap_fail "copy -x: exit $RC_OURS"

# --- ours only: version and help options
for o in -V --version; do
	run OURS f2fs_io "$o"
	[ "$RC_OURS" = 0 ] && grep -q '^f2fs_io [0-9.]* (zf2fs-tools ' "$TEST_TMP/OURS.out" &&
		tap_ok "f2fs_io $o: $(cat "$TEST_TMP/OURS.out")" || tap_fail "f2fs_io $o: exit $RC_OURS"
done
run OURS f2fs_io --help
[ "$RC_OURS" = 0 ] && head -n 1 "$TEST_TMP/OURS.out" | grep -qx 'Available commands:' &&
	tap_ok "f2fs_io --help: the list" || tap_fail "f2fs_io --help: exit $RC_OURS"

# --- on a file of the host's file system
F=$TEST_TMP/host
touch "$F.ours" "$F.ref"
run OURS f2fs_io fallocate 0 0 65536 "$F.ours"
run REF f2fs_io fallocate 0 0 65536 "$F.ref"
same_rc "fallocate 0 0 65536"
same_out "fallocate 0 0 65536"
run OURS f2fs_io fallocate 1 65536 8192 "$F.ours"
run REF f2fs_io fallocate 1 65536 8192 "$F.ref"
same_out "fallocate with keep_size"
dd if=/dev/urandom of="$F.map" bs=4096 count=4 conv=fsync 2>/dev/null
dd if=/dev/urandom of="$F.map" bs=4096 seek=8 count=4 conv=notrunc,fsync 2>/dev/null
both f2fs_io fiemap 0 12 "$F.map"
same_rc "fiemap"
same_out "fiemap (the header, the extent table)"
both f2fs_io getflags "$F.map"
same_rc "getflags"
same_out "getflags"
run OURS f2fs_io write 1 0 4 inc_num buffered "$F.wo"
run REF f2fs_io write 1 0 4 inc_num buffered "$F.wr"
same_rc "write 1 0 4 inc_num buffered"
# the development branch's line ("pattern = P, total_time = N us"); 1.15 writes
# "pattern=P, total_time=N us": the byte count is the same
grep -qE '^Written 16384 bytes with pattern = inc_num, total_time = [0-9]+ us, max_latency = [0-9]+ us$' \
	"$TEST_TMP/OURS.out" && grep -q '^Written 16384 bytes with pattern' "$TEST_TMP/REF.out" &&
	tap_ok "write: the development branch's line, 1.15's byte count" ||
	tap_fail "write: ours [$(cat "$TEST_TMP/OURS.out")] f2fs-tools [$(cat "$TEST_TMP/REF.out")]"
cmp -s "$F.wo" "$F.wr" && tap_ok "write inc_num: the same file" || tap_fail "write inc_num: the files differ"
run OURS f2fs_io copy "$F.map" "$F.co"
run REF f2fs_io copy "$F.map" "$F.cr"
same_rc "copy"
cmp -s "$F.co" "$F.map" && cmp -s "$F.cr" "$F.map" && tap_ok "copy: both copies equal the source" ||
	tap_fail "copy: a copy differs"
# F2FS-only ioctls elsewhere: exit 1 and nothing on standard output (xfstests reads it)
for args in "get_cblocks $F.map" "release_cblocks $F.map" "defrag_file 0 16384 $F.map" \
	"pinfile set $F.map" "get_coption $F.map" "shutdown 5 $TEST_TMP" "erase $F.map"; do
	# shellcheck disable=SC2086 # the command's words
	both f2fs_io $args
	same_rc "${args%% *} (refused)"
	[ ! -s "$TEST_TMP/OURS.out" ] || [ "${args%% *}" = pinfile ] &&
		tap_ok "${args%% *} (refused): nothing on standard output" ||
		tap_fail "${args%% *} (refused) prints: $(head -c 200 "$TEST_TMP/OURS.out")"
done
touch "$F.a" "$F.c"
run OURS f2fs_io rename "$F.a" "$F.b" 1
run REF f2fs_io rename "$F.c" "$F.d" 1
same_rc "rename with fsync"
[ -f "$F.b" ] && [ ! -e "$F.a" ] && tap_ok "rename: renamed" || tap_fail "rename: not renamed"

# --- fibmap.f2fs
both fibmap.f2fs
same_rc "fibmap.f2fs without a file"
both fibmap.f2fs "$TEST_TMP/none"
same_rc "fibmap.f2fs on a missing file"
both fibmap.f2fs "$F.map"
same_rc "fibmap.f2fs FILE"
# 1.15 prints no device lines: the file's stat and the block table must be equal
same_out "fibmap.f2fs FILE (stat and block runs)" '/bdev info/,/^start_lba/d'
if [ "$RC_OURS" = 0 ]; then
	runs=$(grep -cE '^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$' "$TEST_TMP/OURS.out")
	[ "$runs" -ge 2 ] && tap_ok "fibmap.f2fs: $runs runs for a file with a hole" ||
		tap_fail "fibmap.f2fs: $runs runs for a file with a hole"
fi
run OURS fibmap.f2fs --version
[ "$RC_OURS" = 0 ] && grep -q '^fibmap.f2fs [0-9.]* (zf2fs-tools ' "$TEST_TMP/OURS.out" &&
	tap_ok "fibmap.f2fs --version" || tap_fail "fibmap.f2fs --version: exit $RC_OURS"
tap_summary
