#!/bin/bash
# fsck.f2fs at the largest volume size, on a sparse image made by our mkfs.f2fs:
#   - preen (-a) on the clean volume reads nothing but the superblocks and the checkpoint
#     area (every pread of the image, traced with strace, lies below the SIT), prints the
#     checkpoint's counts, and peaks under 16 MiB;
#   - a full check (-f -n) of the empty volume peaks under 16 MiB, since its maps follow
#     what is in use rather than the 8 M segments (a flat SIT alone would be 580 MiB; its
#     per-segment counts, 23 MiB, are touched only where blocks were found), and
#     runs under a 256 MiB address-space limit outside sanitizer builds.
# 15 TiB when the filesystem under $TMPDIR allows such a sparse file, else the biggest of
# 4 TiB and 1 TiB that it does (said in the output).  Peak RSS comes from wait4 on the
# child (tests/images/peak_rss).  Nothing here is timed.
. "$(dirname "$0")/lib.sh"
need_python

export ZF2FS_NO_PROGRESS=1
DUMP=${ZF2FS_DUMP:-$OUR_BIN/dump.f2fs}
img=$TEST_TMP/big.img
size=
for s in 15T 4T 1T; do
	rm -f "$img"
	if truncate -s "$s" "$img" 2>/dev/null; then
		size=$s
		break
	fi
done
[ -n "$size" ] || skip "no sparse file of 1 TiB or more under ${TMPDIR:-/tmp}"
"$MKFS" -f -q "$img" > "$TEST_TMP/mkfs.out" 2>&1 || hard_error "mkfs.f2fs on a $size image failed"
echo "# volume: $size sparse image"

asan=false
for b in "$FSCK" "$top_builddir"/fsck/.libs/*fsck.f2fs "$top_builddir"/lib/.libs/libzf2fs.so; do
	[ -f "$b" ] && grep -qa "__asan_" "$b" && asan=true
done

PEAK=$OUR_BIN/peak_rss
[ -x "$PEAK" ] || hard_error "$PEAK is not built (make check builds it)"
# peak OUT CMD...: run CMD, its output to OUT; prints its peak RSS (KiB) and exit status.
# Through fsck's libtool wrapper the peak includes the wrapper's bash (about 4 MiB): an
# overestimate, never an underestimate.
peak()
{
	local out=$1
	shift
	"$PEAK" "$TEST_TMP/peak" "$@" > "$out" 2>&1
	cat "$TEST_TMP/peak"
}

# ---- preen on the clean volume --------------------------------------------------------------
read -r kib rc < <(peak "$TEST_TMP/preen.out" "$FSCK" -a "$img")
[ "$rc" = 0 ] && tap_ok "-a on the clean $size volume: exit 0" ||
	tap_fail "-a on the clean volume: exit $rc: $(head -c 300 "$TEST_TMP/preen.out")"
grep -q "clean, 1 inodes, 2/[0-9]* blocks" "$TEST_TMP/preen.out" &&
	tap_ok "and prints the checkpoint's counts" ||
	tap_fail "-a output: $(head -c 300 "$TEST_TMP/preen.out")"
if $asan; then
	tap_ok "# SKIP peak RSS of -a: sanitizer build"
elif [ "$kib" -le 16384 ]; then
	tap_ok "-a peaks at $kib KiB (at most 16 MiB)"
else
	tap_fail "-a peaks at $kib KiB, more than 16 MiB"
fi

sit_blk=$("$DUMP" --superblock "$img" 2>/dev/null | awk '$1 == "sit_blkaddr" { print $2; exit }')
if ! command -v strace > /dev/null; then
	tap_ok "# SKIP reads of -a: strace is not installed"
elif [ -z "$sit_blk" ]; then
	tap_fail "dump.f2fs --superblock gives no sit_blkaddr"
else
	limit=$((sit_blk * 4096))
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -y -e trace=pread64 -o "$TEST_TMP/trace" "$FSCK" -a "$img" > /dev/null 2>&1
	# pread64(3</path/big.img>, "..."..., LEN, OFF) = N
	bad=$(grep -F "$img>" "$TEST_TMP/trace" |
	      sed -n 's/.*, \([0-9][0-9]*\), \([0-9][0-9]*\)) = .*/\1 \2/p' |
	      awk -v lim="$limit" '$1 + $2 > lim { n++ } END { print n + 0 }')
	n=$(grep -cF "$img>" "$TEST_TMP/trace")
	if [ "$n" -gt 0 ] && [ "$bad" = 0 ]; then
		tap_ok "-a reads $n times, all below the SIT (byte $limit): superblock and checkpoint only"
	else
		tap_fail "-a: $bad of $n reads reach past the checkpoint area (byte $limit)"
	fi
	# and the same trace on a full check does reach further (the trace can tell)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -y -e trace=pread64 -o "$TEST_TMP/trace" "$FSCK" -f -n "$img" > /dev/null 2>&1
	far=$(grep -F "$img>" "$TEST_TMP/trace" |
	      sed -n 's/.*, \([0-9][0-9]*\), \([0-9][0-9]*\)) = .*/\1 \2/p' |
	      awk -v lim="$limit" '$1 + $2 > lim { n++ } END { print n + 0 }')
	[ "$far" -gt 0 ] && tap_ok "while -f -n reads past it ($far reads)" ||
		tap_fail "the trace of -f -n shows no read past the checkpoint area"
fi

# ---- full check of the empty volume ---------------------------------------------------------
read -r kib rc < <(peak "$TEST_TMP/full.out" "$FSCK" -f -n "$img")
[ "$rc" = 0 ] && tap_ok "-f -n on the empty $size volume: exit 0" ||
	tap_fail "-f -n: exit $rc: $(head -c 300 "$TEST_TMP/full.out")"
if $asan; then
	tap_ok "# SKIP peak RSS of -f -n: sanitizer build"
elif [ "$kib" -le 16384 ]; then
	tap_ok "-f -n peaks at $kib KiB (at most 16 MiB)"
else
	tap_fail "-f -n peaks at $kib KiB, more than 16 MiB"
fi
if $asan; then
	tap_ok "# SKIP address-space limit: sanitizer build"
else
	(ulimit -v 262144; "$FSCK" -f -n "$img" > "$TEST_TMP/full.out" 2>&1)
	rc=$?
	[ "$rc" = 0 ] && tap_ok "-f -n within 256 MiB of address space" ||
		tap_fail "-f -n under ulimit -v 262144: exit $rc: $(head -c 300 "$TEST_TMP/full.out")"
fi
tap_summary
