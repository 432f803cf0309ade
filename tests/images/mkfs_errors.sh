#!/bin/bash
# mkfs error handling and command-line contract:
#   - bad input (missing path, a directory, too small, bad option values,
#     unknown or unsupported features, a broken feature dependency, an
#     existing filesystem without -f, a mounted device) is refused with one
#     line naming the cause, a nonzero exit (16 for usage errors), and the
#     target left byte-for-byte as it was;
#   - --help goes to stdout and exits 0, -V/--version prints a version;
#   - -t 0 and -t 1 both give images the reference fsck finds clean, even
#     over old data;
#   - -r with the same -U and -T gives byte-identical images.
# The mounted-device case needs root and a loop device; it is skipped with a
# note otherwise.

. "$(dirname "$0")/lib.sh"
need_ref_tools

UUID=0b5e3c1a-7d2f-4e8a-9c6b-1f0a2d3e4c5b

# A victim image that a correct mkfs would format: 64M holding a reference
# filesystem, so an error that slipped through to writing would show.
VICTIM=$(new_image victim.img 64M)
"$REF_MKFS" -q "$VICTIM" >/dev/null 2>&1 || hard_error "reference mkfs failed on $VICTIM"

# sha256 of each target after the last check that used it.
declare -A SUMS=()

# check_refusal DESC RC PATTERN TARGET -- MKFS-ARGS...
# Runs our mkfs, expecting exit RC ("nz" = any nonzero), nothing on stdout,
# one line on stderr matching PATTERN (grep -E, case-insensitive) that starts
# with the program name (a second "Try '... --help'" hint is allowed), and
# TARGET unchanged (sha256 of a file; "-" for none).
check_refusal()
{
	local desc=$1 want=$2 pat=$3 target=$4 sum='' rc why=''
	shift 5
	if [ "$target" != - ]; then
		sum=${SUMS[$target]:-$(sha256sum <"$target")}
	fi
	"$MKFS" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	if [ "$want" = nz ]; then
		[ $rc -ne 0 ] || why="$why; exit 0, expected a failure"
	else
		[ $rc -eq "$want" ] || why="$why; exit $rc, expected $want"
	fi
	[ $rc -lt 128 ] || why="$why; killed by signal $((rc - 128))"
	[ -s "$TEST_TMP/out" ] && why="$why; stdout not empty: $(head -c 200 "$TEST_TMP/out")"
	local first lines
	first=$(head -n 1 "$TEST_TMP/err")
	lines=$(grep -cv "^Try '.*--help' for more information\.$" "$TEST_TMP/err")
	[ "$lines" -eq 1 ] || why="$why; $lines error lines, expected 1"
	case $first in
	*mkfs.f2fs:\ *) ;;
	*) why="$why; error does not start with the program name" ;;
	esac
	printf '%s\n' "$first" | grep -qiE "$pat" ||
		why="$why; error does not match /$pat/"
	if [ -n "$sum" ]; then
		SUMS[$target]=$(sha256sum <"$target")
		[ "${SUMS[$target]}" = "$sum" ] || why="$why; $target was modified"
	fi
	if [ -n "$why" ]; then
		tap_fail "$desc: ${why#; } [stderr: $(tr '\n' ' ' <"$TEST_TMP/err")]"
	else
		tap_ok "$desc (exit $rc: $first)"
	fi
}

# --- paths -----------------------------------------------------------------
check_refusal "no device argument is a usage error" 16 'device' - -- -q
check_refusal "missing path" nz 'no such file.*nothere\.img' - -- \
	-q "$TEST_TMP/nothere.img"
if [ -e "$TEST_TMP/nothere.img" ]; then
	tap_fail "missing path is not created"
else
	tap_ok "missing path is not created"
fi
check_refusal "missing parent directory" nz 'no such file.*nodir/x\.img' - -- \
	-q "$TEST_TMP/nodir/x.img"
mkdir "$TEST_TMP/adir"
check_refusal "a directory" nz 'adir' - -- -q -f "$TEST_TMP/adir"
if [ -d "$TEST_TMP/adir" ] && [ -z "$(ls -A "$TEST_TMP/adir")" ]; then
	tap_ok "the directory is left as it was"
else
	tap_fail "the directory is left as it was"
fi

# --- too small ---------------------------------------------------------------
SMALL=$(new_image small.img 16M)
head -c 1048576 /dev/urandom | dd of="$SMALL" conv=notrunc status=none
check_refusal "16M is too small" nz 'not sufficient|too small' "$SMALL" -- -q -f "$SMALL"
rm -f "$SMALL"

# --- bad option values (with -f, so only the option can stop it) ---------------
# (0, a word and a trailing suffix read as f2fs-tools' atof reads them: tests/compat/mkfs_options.sh)
for v in 100 -5 150 nan; do
	check_refusal "-o $v" 16 "overprovision.*'?$v'?" "$VICTIM" -- -q -f -o "$v" "$VICTIM"
done
for o in s z; do
	for v in 0 abc; do
		check_refusal "-$o $v" 16 "section.*'$v'" "$VICTIM" -- -q -f -"$o" "$v" "$VICTIM"
	done
done
check_refusal "-Z abc" 16 "reserved.*'abc'" "$VICTIM" -- -q -f -Z abc "$VICTIM"
check_refusal "-U not-a-uuid" 16 "uuid.*not-a-uuid" "$VICTIM" -- -q -f -U not-a-uuid "$VICTIM"
check_refusal "-C bogus" 16 "encoding.*bogus" "$VICTIM" -- -q -f -C bogus "$VICTIM"
check_refusal "unknown option -x" 16 "option.*x" "$VICTIM" -- -q -f -x "$VICTIM"

# --- features ------------------------------------------------------------------
check_refusal "unknown feature" 16 "feature.*no_such_feature" "$VICTIM" -- \
	-q -f -O extra_attr,no_such_feature "$VICTIM"
for f in inode_checksum project_quota flexible_inline_xattr inode_crtime compression; do
	check_refusal "$f without extra_attr" nz "$f.*extra_attr" "$VICTIM" -- \
		-q -f -O "$f" "$VICTIM"
done
check_refusal "feature blkzoned is not set with -O" 16 "feature '?blkzoned.*-m" "$VICTIM" -- \
	-q -f -O blkzoned "$VICTIM"
check_refusal "feature device_alias is not set with -O, and the message names -c DEV@ALIAS" 16 \
	"feature '?device_alias.*-c DEV@ALIAS" "$VICTIM" -- -q -f -O extra_attr,device_alias "$VICTIM"
check_refusal "-b 8192 is not supported" 16 "block size 8192 is not supported .4096 or 16384." \
	"$VICTIM" -- -q -f -b 8192 "$VICTIM"
check_refusal "-b 1000 is not a power of 2" 16 "block size.*1000.*power of 2" "$VICTIM" -- \
	-q -f -b 1000 "$VICTIM"
check_refusal "aliasing the first device (given twice) is refused" 1 "same file" "$VICTIM" -- \
	-q -f -c "$VICTIM@x" "$VICTIM"
check_refusal "-S without a size" 16 "sparse.*size" "$VICTIM" -- -q -f -S abc "$VICTIM"
check_refusal "[sectors] with two devices" 16 "sectors.*device" "$VICTIM" -- \
	-q -f -c "$VICTIM" "$VICTIM" 1000

# --- existing filesystems without -f ------------------------------------------------
check_refusal "existing 1.15 filesystem without -f" nz "f2fs.*-f" "$VICTIM" -- "$VICTIM"
check_refusal "existing 1.15 filesystem without -f, quiet" nz "f2fs.*-f" "$VICTIM" -- -q "$VICTIM"
OURS=$(new_image ours.img 100M)
if "$MKFS" -q "$OURS" >/dev/null 2>&1; then
	check_refusal "existing filesystem of ours without -f" nz "f2fs.*-f" "$OURS" -- -q "$OURS"
else
	tap_fail "existing filesystem of ours without -f: our mkfs failed to format $OURS"
fi
rm -f "$OURS"
if command -v mkfs.ext4 >/dev/null 2>&1; then
	EXT=$(new_image ext4.img 100M)
	if mkfs.ext4 -q -F "$EXT" >/dev/null 2>&1; then
		check_refusal "existing ext4 without -f" nz "ext4.*-f" "$EXT" -- -q "$EXT"
	fi
	rm -f "$EXT"
else
	echo "# note: mkfs.ext4 not found, foreign-filesystem case not run"
fi

# --- help and version ------------------------------------------------------------
"$MKFS" --help >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^Usage: mkfs.f2fs' "$TEST_TMP/out" && [ ! -s "$TEST_TMP/err" ]; then
	tap_ok "--help exits 0 with the usage on stdout"
else
	tap_fail "--help exits 0 with the usage on stdout (exit $rc, stderr: $(head -c 200 "$TEST_TMP/err"))"
fi
for v in -V --version; do
	"$MKFS" $v >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	if [ $rc -eq 0 ] && grep -qE '^mkfs\.f2fs .*[0-9]+\.[0-9]+' "$TEST_TMP/out"; then
		tap_ok "$v prints a version ($(head -n 1 "$TEST_TMP/out"))"
	else
		tap_fail "$v prints a version (exit $rc, stdout: $(head -c 200 "$TEST_TMP/out"))"
	fi
done

# --- a mounted device ----------------------------------------------------------
# A read-only ext4 mount of a loop device: our mkfs -f must refuse both the
# loop device and its backing file.  Read-only so that nothing else changes
# the bytes while we compare them.
LOOPDEV=
MNT=
loop_cleanup()
{
	[ -n "$MNT" ] && mountpoint -q "$MNT" && umount "$MNT"
	[ -n "$LOOPDEV" ] && losetup -d "$LOOPDEV"
}
CLEANUP_HOOKS+=(loop_cleanup)
mounted_case()
{
	local img
	[ "$(id -u)" = 0 ] || { echo "# note: mounted-device case skipped: not root"; return; }
	command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null ||
		{ echo "# note: mounted-device case skipped: losetup or mkfs.ext4 missing"; return; }
	img=$(new_image mounted.img 64M)
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img" >/dev/null 2>&1 ||
		{ echo "# note: mounted-device case skipped: mkfs.ext4 failed"; return; }
	LOOPDEV=$(losetup -f --show "$img" 2>/dev/null) ||
		{ LOOPDEV=; echo "# note: mounted-device case skipped: no loop device"; return; }
	MNT="$TEST_TMP/mnt"
	mkdir "$MNT"
	if ! mount -o ro -t ext4 "$LOOPDEV" "$MNT" 2>/dev/null; then
		echo "# note: mounted-device case skipped: cannot mount here"
		return
	fi
	check_refusal "mounted loop device, with -f" nz "mounted" "$img" -- -q -f "$LOOPDEV"
	check_refusal "backing file of a mounted loop device, with -f" nz "mounted" "$img" -- -q -f "$img"
}
mounted_case
loop_cleanup
LOOPDEV=
MNT=

# --- discard on and off, over old data -------------------------------------------
for t in 0 1; do
	img=$(new_image discard.img 1G)
	# Old data where the metadata areas go and in the first main segments.
	head -c $((48 * 1024 * 1024)) /dev/urandom | dd of="$img" conv=notrunc status=none
	if ! "$MKFS" -q -f -t "$t" "$img" >"$TEST_TMP/log" 2>&1; then
		tap_fail "-t $t over old data: mkfs failed: $(tr '\n' ' ' <"$TEST_TMP/log")"
	elif ref_fsck "$img"; then
		tap_ok "-t $t over old data: reference fsck finds it clean"
	else
		tap_fail "-t $t over old data: reference fsck finds problems (output above)"
	fi
	rm -f "$img"
done

# --- reproducibility -------------------------------------------------------------
a=$(new_image repro-a.img 256M)
b=$(new_image repro-b.img 256M)
"$MKFS" -q -r -U "$UUID" -T 1700000000 "$a" >/dev/null 2>&1
rc_a=$?
sleep 1
"$MKFS" -q -r -U "$UUID" -T 1700000000 "$b" >/dev/null 2>&1
rc_b=$?
if [ $rc_a -ne 0 ] || [ $rc_b -ne 0 ]; then
	tap_fail "-r twice with the same -U/-T: mkfs failed (exit $rc_a, $rc_b)"
elif cmp -s "$a" "$b"; then
	tap_ok "-r twice with the same -U/-T gives byte-identical images"
else
	tap_fail "-r twice with the same -U/-T gives byte-identical images: $(cmp "$a" "$b" 2>&1)"
fi
rm -f "$a" "$b"

tap_summary
