#!/bin/bash
# Benchmark: 16 KiB blocks beside 4 KiB.  For one sparse image size (1 TiB unless given),
# our mkfs.f2fs with -b 4096, -b 16384 and -b 16384 -O packed_ssa, each beside the
# reference for the same options (Debian's f2fs-tools 1.15 for 4 KiB; for 16 KiB the
# mkfs of f2fs-tools' development branch when REF16_MKFS names it, as 1.15 makes no
# 16 KiB volume); then our fsck.f2fs -f -n on each fresh volume beside the reference fsck
# (REF16_FSCK for 16 KiB), and on the kernel-aged 16 KiB images of the corpus
# (tests/images/base/aged16k*.img.xz).  Median wall time of 3 runs and peak RSS of the
# last (/usr/bin/time).  Not a test: it exits 0 unless a tool fails or finds a volume
# unclean.
#
#   bench/blocksize.sh [SIZE]       SIZE in truncate(1) syntax, default 1T
#   REF16_MKFS=/path/mkfs.f2fs REF16_FSCK=/path/fsck.f2fs bench/blocksize.sh 1T

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$BENCH_DIR/.." && pwd)}"
export top_srcdir
. "$top_srcdir/tests/images/lib.sh"
need_ref_tools

SIZE=${1:-1T}
RUNS=3
TIME=/usr/bin/time
[ -x "$TIME" ] || hard_error "needs /usr/bin/time (Debian: apt-get install time)"

# the real programs under libtool's wrappers, as installed ones run
real() {
	if head -c 4096 "$1" | grep -q libtool && [ -x "$(dirname "$1")/.libs/$(basename "$1")" ]; then
		echo "env LD_LIBRARY_PATH=$top_builddir/lib/.libs $(dirname "$1")/.libs/$(basename "$1")"
	else
		echo "$1"
	fi
}
OUR_MKFS=$(real "$MKFS")
OUR_FSCK=$(real "$FSCK")

now_ns() { date +%s%N; }
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }

# timed IMAGE_SETUP CMD...: median seconds of $RUNS runs and the last run's peak KiB,
# as "SECONDS KIB"; IMAGE_SETUP (a function name or :) runs untimed before each run
timed() {
	local setup=$1 i t0 ns=()
	shift
	for ((i = 0; i < RUNS; i++)); do
		$setup
		t0=$(now_ns)
		$TIME -f '%M' -o "$TEST_TMP/rss" "$@" >"$TEST_TMP/log" 2>&1 ||
			hard_error "$* failed: $(tail -n 3 "$TEST_TMP/log")"
		ns+=($(($(now_ns) - t0)))
	done
	awk -v n="$(median "${ns[@]}")" -v k="$(tail -n 1 "$TEST_TMP/rss")" \
		'BEGIN { printf "%.3f %d", n / 1e9, k }'
}

img=$TEST_TMP/bs.img
fresh() { rm -f "$img"; truncate -s "$SIZE" "$img"; }

row() { printf '%-34s %-20s %s\n' "$@"; }
echo "16 KiB blocks beside 4 KiB: a $SIZE sparse image; median of $RUNS runs, peak RSS of the last"
row "" "ours" "reference"
for cfg in "4096:" "16384:" "16384:-O packed_ssa"; do
	bs=${cfg%%:*} opts=${cfg#*:}
	if [ "$bs" = 4096 ]; then
		ref_mkfs=$REF_MKFS ref_fsck=$REF_FSCK
	else
		ref_mkfs=${REF16_MKFS:-} ref_fsck=${REF16_FSCK:-}
	fi
	# shellcheck disable=SC2086
	read -r ms mk <<<"$(timed fresh $OUR_MKFS -q -f -b "$bs" $opts "$img")"
	# shellcheck disable=SC2086
	read -r fs fk <<<"$(timed : $OUR_FSCK -f -n "$img")"
	alloc=$(($(stat -c '%b * %B' "$img")))
	if [ -n "$ref_mkfs" ]; then
		# Debian's 1.15 knows no -b: its 4 KiB default is what it makes
		extra=
		[ "$bs" = 4096 ] || extra="-b $bs"
		# shellcheck disable=SC2086
		read -r rms rmk <<<"$(timed fresh "$ref_mkfs" -q -f $extra $opts "$img")"
		rfs=- rfk=-
		# shellcheck disable=SC2086
		[ -z "$ref_fsck" ] || read -r rfs rfk <<<"$(timed : "$ref_fsck" -f --dry-run "$img")"
		ralloc=$(($(stat -c '%b * %B' "$img")))
	else
		rms=- rmk=- rfs=- rfk=- ralloc=-
	fi
	row "mkfs -b $bs $opts" "$ms s $mk KiB" "$rms s $rmk KiB"
	row "  allocated bytes" "$alloc" "$ralloc"
	row "  fsck -f of the fresh volume" "$fs s $fk KiB" "$rfs s $rfk KiB"
done
rm -f "$img"

for base in aged16k aged16k_packed; do
	xz -dc "$top_srcdir/tests/images/base/$base.img.xz" >"$img" || hard_error "no $base image"
	read -r fs fk <<<"$(timed : $OUR_FSCK -f -n "$img")"
	rfs=- rfk=-
	[ -z "${REF16_FSCK:-}" ] || read -r rfs rfk <<<"$(timed : "$REF16_FSCK" -f --dry-run "$img")"
	row "fsck -f of $base (kernel-aged)" "$fs s $fk KiB" "$rfs s $rfk KiB"
done
rm -f "$img"
