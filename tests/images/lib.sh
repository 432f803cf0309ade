# Shared helpers for the image tests.  Source it from a test script:
#
#   . "$(dirname "$0")/lib.sh"
#
# It finds our tools, the reference tools (Debian's f2fs-tools 1.15), makes
# a private temporary directory that is removed on exit, and offers:
#
#   skip REASON            print the reason and exit 77 (automake "skipped")
#   hard_error REASON      print the reason and exit 99 (automake "error")
#   need_ref_tools         skip unless the reference mkfs/fsck are installed
#   need_python            skip unless python3 is available
#   new_image NAME SIZE    create an empty sparse file, print its path
#   ref_fsck IMG           read-only full check with the reference fsck;
#                          returns 1 and shows its output on any problem
#   sb_fields IMG          superblock and checkpoint fields as name=value
#   tap_ok / tap_fail      numbered result lines, counted for tap_summary
#   tap_summary            print "N passed, N failed"; returns 1 on failures
#   MATRIX_FULL            1 under ZF2FS_FULL=1: the matrices whole (every fault point,
#                          every base image); 0 (make check's default): the sample each
#                          script's header names
#   IN_SAN                 1 in a sanitizer build (ASAN_OPTIONS set), where each run of
#                          our tools costs several times more: some samples thin further
#   fault_matrix           call first in a script that reruns a tool at fault or case
#                          after case: under the sanitizers (unless ZF2FS_FULL=1) its
#                          runs skip LeakSanitizer's exit scan, which costs more than
#                          most of those runs; leaks on the failure paths are the unit
#                          tests' to find (they fail each write of each writer in turn,
#                          leak check on), and every other image test keeps the check
#
# The test environment (Makefile.am AM_TESTS_ENVIRONMENT) exports
# top_builddir and top_srcdir as absolute paths.  When a script is run by
# hand, both fall back to the tree the script lives in.  Everything the tests
# write goes to the temporary directory, so a read-only source tree (VPATH
# builds, make distcheck) is fine.

set -u
MATRIX_FULL=0
[ "${ZF2FS_FULL:-0}" = 1 ] && MATRIX_FULL=1
IN_SAN=0
[ -n "${ASAN_OPTIONS:-}" ] && IN_SAN=1

LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${top_srcdir:=$(cd "$LIB_DIR/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"

REF_MKFS=${REF_MKFS:-/usr/sbin/mkfs.f2fs}
REF_FSCK=${REF_FSCK:-/usr/sbin/fsck.f2fs}
PROG=$(basename "$0")

skip()
{
	echo "SKIP: $PROG: $*"
	exit 77
}

hard_error()
{
	echo "ERROR: $PROG: $*"
	exit 99
}

need_ref_tools()
{
	[ -x "$REF_FSCK" ] || skip "reference fsck.f2fs not installed ($REF_FSCK)"
	[ -x "$REF_MKFS" ] || skip "reference mkfs.f2fs not installed ($REF_MKFS)"
}

need_python()
{
	command -v python3 >/dev/null 2>&1 || skip "python3 not found"
}

# Private scratch directory, removed however the script ends.
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/zf2fs-${PROG%.sh}.XXXXXX") ||
	hard_error "cannot create a temporary directory"
CLEANUP_HOOKS=()
lib_cleanup()
{
	local h
	for h in "${CLEANUP_HOOKS[@]}"; do
		$h || :
	done
	rm -rf "$TEST_TMP"
}
trap lib_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# leaks_off: no LeakSanitizer scan at the exit of the programs run from here on
leaks_off() { export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"; }
fault_matrix()
{
	[ $IN_SAN = 1 ] && [ $MATRIX_FULL = 0 ] || return 0
	leaks_off
	echo "# a fault matrix: no leak check at its runs' exit (tests/images/lib.sh)"
}

# Debian's python3 before any other on PATH: a version manager's shim (pyenv's is a bash
# script that runs pyenv) costs most of a second a start, and the tests start hundreds.
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
	mkdir -p "$TEST_TMP/python" && ln -s /usr/bin/python3 "$TEST_TMP/python/python3" &&
		export PATH="$TEST_TMP/python:$PATH"
fi

# Our programs, run without libtool's wrapper scripts (our_bin.sh says why).
. "$LIB_DIR/our_bin.sh"
OUR_BIN=$TEST_TMP/bin
our_bin "$OUR_BIN" || hard_error "cannot link our programs into $OUR_BIN"
MKFS=${ZF2FS_MKFS:-$OUR_BIN/mkfs.f2fs}
[ -x "$MKFS" ] || hard_error "our mkfs.f2fs is not built: $MKFS"

# img_sum IMG: a digest of IMG's size, where its data lies and what it holds; same_bytes A
# B: A and B hold the same bytes (holes read as zeros).  Both read only the data
# (tests/images/sparse_bytes.py).
img_sum() { python3 "$LIB_DIR/sparse_bytes.py" sum "$1"; }
same_bytes() { python3 "$LIB_DIR/sparse_bytes.py" same "$1" "$2"; }

# new_image NAME SIZE: an empty sparse file of SIZE (truncate syntax).
new_image()
{
	local img="$TEST_TMP/$1"
	rm -f "$img"
	truncate -s "$2" "$img" || hard_error "truncate -s $2 $img failed"
	echo "$img"
}

# ref_fsck IMG: run the reference fsck without letting it write (--dry-run),
# over the whole volume (-f), with no terminal to answer prompts.  Its exit
# status is 0 even when it finds damage, so the output is read as well: any
# "[Fail]", "[ASSERT]" or a line that is not one of the lines a clean check
# prints counts as a problem.  The check must also reach its final report.
# REF_FSCK_ALLOW, when set, is one more pattern (grep -e) of lines that are no
# problem for the caller.
ref_fsck()
{
	local img=$1 out rc bad
	out=$("$REF_FSCK" --dry-run -f "$img" </dev/null 2>&1)
	rc=$?
	bad=$(printf '%s\n' "$out" | grep -v -e "${REF_FSCK_ALLOW:-^\$}" \
		-e '^Info: ' \
		-e '^  "' -e '^  from "' -e '^    to "' \
		-e '^\[FSCK\] .*\[Ok\.\.\]' \
		-e '^\[FSCK\] Max image size: ' \
		-e '^\[FSCK\] Check node [0-9]* / [0-9]* (' \
		-e '^\[FSCK\] fixing SIT types$' \
		-e '^Done: ' \
		-e '^$')
	if [ $rc -ne 0 ] || [ -n "$bad" ] ||
	   printf '%s\n' "$out" | grep -q -e '\[Fail\]' -e '\[ASSERT\]' ||
	   ! printf '%s\n' "$out" | grep -q '^\[FSCK\] other corrupted bugs .*\[Ok\.\.\]'; then
		echo "reference fsck (exit $rc) reports a problem with $img:"
		printf '%s\n' "$out" | sed 's/^/    | /'
		return 1
	fi
	return 0
}

# our_fsck_clean IMG: our fsck -f -n finds nothing (exit 0, "0 problems, 0 fixed");
# otherwise prints "exit N: " and its output, and returns 1.
our_fsck_clean()
{
	local out rc
	out=$("$FSCK" -f -n "$1" 2>&1)
	rc=$?
	[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '; 0 problems, 0 fixed$' && return 0
	printf 'exit %s: %s\n' "$rc" "$out"
	return 1
}

# sb_fields IMG: print the superblock fields (first copy, byte 1024) and the
# fields of the first checkpoint pack (block cp_blkaddr) as name=value lines.
# Offsets follow the kernel's struct f2fs_super_block / f2fs_checkpoint.
sb_fields()
{
	python3 - "$1" <<'EOF'
import struct, sys
with open(sys.argv[1], 'rb') as f:
    f.seek(1024)
    sb = f.read(3072)
    u32 = lambda off: struct.unpack_from('<I', sb, off)[0]
    u64 = lambda off: struct.unpack_from('<Q', sb, off)[0]
    if u32(0) != 0xF2F52010:
        print('magic=0x%08x' % u32(0))
        sys.exit(2)
    names32 = ['log_sectorsize', 'log_sectors_per_block', 'log_blocksize',
               'log_blocks_per_seg', 'segs_per_sec', 'secs_per_zone',
               'checksum_offset']
    out = {}
    for i, n in enumerate(names32):
        out[n] = u32(8 + 4 * i)
    out['block_count'] = u64(36)
    names32 = ['section_count', 'segment_count', 'segment_count_ckpt',
               'segment_count_sit', 'segment_count_nat', 'segment_count_ssa',
               'segment_count_main', 'segment0_blkaddr', 'cp_blkaddr',
               'sit_blkaddr', 'nat_blkaddr', 'ssa_blkaddr', 'main_blkaddr',
               'root_ino', 'node_ino', 'meta_ino']
    for i, n in enumerate(names32):
        out[n] = u32(44 + 4 * i)
    out['uuid'] = sb[108:124].hex()
    name = sb[124:124 + 1024].decode('utf-16-le', 'replace')
    out['volume_name'] = name.split('\0', 1)[0]
    out['cp_payload'] = u32(1664)
    out['feature'] = '0x%x' % u32(2180)
    out['s_encoding'] = struct.unpack_from('<H', sb, 2758)[0]
    out['s_encoding_flags'] = struct.unpack_from('<H', sb, 2760)[0]
    bsize = 1 << out['log_blocksize']
    f.seek(out['cp_blkaddr'] * bsize)
    cp = f.read(64)
    out['checkpoint_ver'] = struct.unpack_from('<Q', cp, 0)[0]
    out['user_block_count'] = struct.unpack_from('<Q', cp, 8)[0]
    out['valid_block_count'] = struct.unpack_from('<Q', cp, 16)[0]
    out['rsvd_segment_count'] = struct.unpack_from('<I', cp, 24)[0]
    out['overprov_segment_count'] = struct.unpack_from('<I', cp, 28)[0]
    out['free_segment_count'] = struct.unpack_from('<I', cp, 32)[0]
for k, v in out.items():
    print('%s=%s' % (k, v))
EOF
}

# field NAME FILE: value of NAME in a name=value file written by sb_fields.
field()
{
	sed -n "s/^$1=//p" "$2"
}

TAP_N=0
TAP_PASS=0
TAP_FAIL=0

tap_ok()
{
	TAP_N=$((TAP_N + 1))
	TAP_PASS=$((TAP_PASS + 1))
	echo "ok $TAP_N - $*"
}

tap_fail()
{
	TAP_N=$((TAP_N + 1))
	TAP_FAIL=$((TAP_FAIL + 1))
	echo "not ok $TAP_N - $*"
}

tap_summary()
{
	echo "$TAP_PASS passed, $TAP_FAIL failed"
	[ "$TAP_FAIL" -eq 0 ]
}

# ---- fsck cases --------------------------------------------------------------------------
# fsck_case_image CASE IMG: make IMG the corrupted image of the corpus case CASE
# (tests/images/corpus/CASE: its base image, then its script).  Scripts change the image
# with inject.f2fs through these:
#   inject ARGS...        inject.f2fs ARGS on the image (its "Info:" line goes to stdout)
#   get ARGS...           the member's value (inject.f2fs ARGS --get)
#   ino PATH              the inode of PATH
#   addr NID              the node block address of NID (its NAT entry)
#   data INO N            the address of file block N of inode INO
#   set_data INO N ADDR   make ADDR block N of inode INO (one of the inode's own slots)
#   seg_blk SEGNO         the first block of main-area segment SEGNO
#   raw_write BLK OFF HEX bytes HEX at byte OFF of block BLK, nothing recomputed
#   base NAME             start from base image NAME (aliased: with a device aliased as
#                         /alias.dev; aged16k, aged16k_packed: 16 KiB blocks, which
#                         raw_write's BLK then counts)
FSCK=${ZF2FS_FSCK:-$OUR_BIN/fsck.f2fs}
INJECT=${ZF2FS_INJECT:-$OUR_BIN/inject.f2fs}
CASE_BASE=$top_srcdir/tests/images/base
CORPUS=$top_srcdir/tests/images/corpus

inject() { "$INJECT" "$@" "$IMG"; }
get() { "$INJECT" "$@" --get "$IMG"; }
ino() { "$INJECT" --lookup "$1" "$IMG"; }
addr() { get --nat 0 --nid "$1" --mb block_addr; }
data() { "$INJECT" --bmap "$2" --nid "$1" "$IMG"; }
seg_blk() { echo $(( $(get --sb 1 --mb main_blkaddr) + $1 * 512 )); }
set_data()
{
	# i_addr counts from the array's start, the extra attributes included
	local extra=0
	[ $(( $(get --node --nid "$1" --mb i_inline) & 0x20 )) -ne 0 ] &&
		extra=$(( $(get --node --nid "$1" --mb i_extra_isize) / 4 ))
	inject --node --nid "$1" --mb i_addr --idx $((extra + $2)) --val "$3"
}
raw_write()
{
	printf "$(printf '%s' "$3" | sed 's/../\\x&/g')" |
		dd of="$IMG" bs=1 seek=$(( $1 * ${CASE_BLKSIZE:-4096} + $2 )) conv=notrunc status=none
}
# base_unpacked NAME: $IMG a sparse copy of base image NAME, unpacked once per script
base_unpacked() {
	local cache=$TEST_TMP/base-$1.img
	if [ ! -f "$cache" ]; then
		xz -dc "$CASE_BASE/$1.img.xz" | cp --sparse=always /dev/stdin "$cache.part" &&
			mv "$cache.part" "$cache" || return 1
	fi
	rm -f "$IMG"
	cp --sparse=always "$cache" "$IMG"
}
base() {
	case $1 in
	populated|unclean|encrypted) base_unpacked "$1" ;;
	aged16k|aged16k_packed) base_unpacked "$1"; CASE_BLKSIZE=16384 ;;
	fresh) rm -f "$IMG"; truncate -s 128M "$IMG"
	       "$MKFS" -q -r -T 1700000000 -U 11111111-2222-3333-4444-555555555555 \
		       -O extra_attr,inode_checksum,lost_found "$IMG" ;;
	quota) rm -f "$IMG"; truncate -s 128M "$IMG"
	       "$MKFS" -q -r -T 1700000000 -U 11111111-2222-3333-4444-555555555555 \
		       -O extra_attr,inode_checksum,lost_found,quota,project_quota "$IMG" ;;
	quota_noprj) rm -f "$IMG"; truncate -s 128M "$IMG"
	       "$MKFS" -q -r -T 1700000000 -U 11111111-2222-3333-4444-555555555555 \
		       -O extra_attr,inode_checksum,lost_found,quota "$IMG" ;;
	# a device aliased as /alias.dev (16 MiB, 8 segments; aliased_s2: 2 segments a
	# section, on 18 MiB of which mkfs uses 16) next to the image, with quota files and
	# lost+found
	aliased|aliased_s2) local dev; dev=$(dirname "$IMG")/alias.dev
	       rm -f "$IMG" "$dev"; truncate -s 128M "$IMG"
	       truncate -s $([ "$1" = aliased_s2 ] && echo 18M || echo 16M) "$dev"
	       yes "alias device content" | head -c 1048576 | dd of="$dev" conv=notrunc status=none
	       "$MKFS" -q -r -T 1700000000 -U 11111111-2222-3333-4444-555555555555 \
		       $([ "$1" = aliased_s2 ] && echo -s 2) \
		       -O extra_attr,inode_checksum,lost_found,quota -c "$dev@alias.dev" "$IMG" ;;
	*) hard_error "unknown base image $1" ;;
	esac
}

fsck_case_image()
{
	[ -x "$INJECT" ] || hard_error "inject.f2fs is not built: $INJECT"
	IMG=$2
	base populated
	[ -f "$CORPUS/$1/script" ] || hard_error "no corpus case $1 ($CORPUS/$1/script)"
	# the setup's inject.f2fs runs are not what a case tests: no leak check at their exit
	# under the sanitizers (LeakSanitizer's exit scan costs more than most of those runs;
	# inject.f2fs's own tests keep it)
	( set -e; [ $IN_SAN = 0 ] || leaks_off
	  . "$CORPUS/$1/script" )
}

# mounted_loop_image: a 64 MiB ext4 image ($img) on a loop device ($LOOPDEV) mounted
# read-only on $MNT, and $sum, the md5 of its bytes, for tests that a tool refuses a
# mounted device and its backing file before reading them (the host kernel may lack F2FS:
# the refusal comes first).  Skips unless root with losetup, mkfs.ext4 and a mountable loop
# device; undone at exit.
mounted_loop_image()
{
	[ "$(id -u)" = 0 ] || skip "not root"
	command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null ||
		skip "losetup or mkfs.ext4 missing"
	LOOPDEV=
	MNT=
	CLEANUP_HOOKS+=(mounted_loop_cleanup)
	img=$(new_image mounted.img 64M)
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img" >/dev/null 2>&1 ||
		skip "mkfs.ext4 failed"
	LOOPDEV=$(losetup -f --show "$img" 2>/dev/null) || { LOOPDEV=; skip "no loop device"; }
	MNT="$TEST_TMP/mnt"
	mkdir "$MNT"
	mount -o ro -t ext4 "$LOOPDEV" "$MNT" 2>/dev/null || skip "cannot mount a loop device here"
	sum=$(md5sum < "$img")
}

mounted_loop_cleanup()
{
	[ -n "$MNT" ] && mountpoint -q "$MNT" && umount "$MNT"
	[ -n "$LOOPDEV" ] && losetup -d "$LOOPDEV"
}

# fault_total START LIMIT: sets $total to the writes a whole run of a writing tool makes,
# found by halving with the caller's fault_load N (the run with its N-th write failing;
# 0 when the run completes anyway): the least such N, less one.  START is a first guess;
# past LIMIT writes is a hard error.
fault_total()
{
	local lo=1 hi=$1 mid
	while ! fault_load $hi; do
		lo=$hi hi=$((hi * 2))
		[ $hi -le "$2" ] || hard_error "the run takes more than $2 writes"
	done
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(((lo + hi) / 2))
		if fault_load $mid; then hi=$mid; else lo=$mid; fi
	done
	total=$((hi - 1))
}
