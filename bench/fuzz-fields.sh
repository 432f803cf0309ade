#!/bin/bash
# fuzz-fields.sh - the field-fuzz matrix: every member inject.f2fs knows, on every structure
# the base images' roles point at, times every fuzz verb of xfs_db; each case checked with
# fsck -f -n, repaired with -y, checked again by both fscks (tests/images/fuzz_fields_lib.sh).
#
#   bench/fuzz-fields.sh [-j N] [-s EVERY] [-o DIR] [IMAGE ROLES]...
#
# Without images it uses the kernel-aged images of tests/vm/fuzz_age.sh (cached under
# tests/vm/out/fuzz_age.cache/, made once with `sh tests/vm/fuzz_age.sh` from the build tree) when
# they exist, else tests/images/base/populated.img.xz (a note says so), and always the
# kernel-made tests/images/base/encrypted.img.xz (Linux 6.1) and encrypted73.img.xz
# (7.3).  -s EVERY runs one case in EVERY; -j N runs N at once (default 2, both cores).  Prints the table and
# the failure classes; results and classes are kept in DIR (default ./fuzz-fields.out).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
: "${top_srcdir:=$here}" "${top_builddir:=$here}"
export top_srcdir top_builddir
. "$top_srcdir/tests/images/lib.sh"
. "$top_srcdir/tests/images/fuzz_fields_lib.sh"

jobs=2 every=1 out=$PWD/fuzz-fields.out
while getopts j:s:o: o; do
	case $o in
	j) jobs=$OPTARG ;; s) every=$OPTARG ;; o) out=$OPTARG ;;
	*) echo "usage: $0 [-j N] [-s EVERY] [-o DIR] [IMAGE ROLES]..." >&2; exit 16 ;;
	esac
done
shift $((OPTIND - 1))
mkdir -p "$out"
FF_WORK=$(mktemp -d /dev/shm/zf2fs-ff.XXXXXX 2>/dev/null || mktemp -d "$TEST_TMP/ff.XXXXXX")
CLEANUP_HOOKS+=("rm -rf $FF_WORK")
FF_KEEP=$out/kept
export FF_WORK FF_KEEP FF_TIMEOUT INJECT FSCK REF_FSCK DUMP

if [ $# -eq 0 ]; then
	aged=$top_builddir/tests/vm/out/fuzz_age.cache
	if [ -f "$aged/aged.img.xz" ]; then
		for n in aged zoned; do
			[ -f "$aged/$n.img.xz" ] || continue
			xz -dc "$aged/$n.img.xz" > "$FF_WORK/$n.base"
			set -- "$@" "$FF_WORK/$n.base" "$aged/$n.roles"
		done
	else
		echo "note: no kernel-aged images in $aged (make them with sh tests/vm/fuzz_age.sh);" \
		     "using tests/images/base/populated.img.xz"
		xz -dc "$top_srcdir/tests/images/base/populated.img.xz" > "$FF_WORK/populated.base"
		set -- "$FF_WORK/populated.base" "$top_srcdir/tests/images/fuzz_fields.roles"
	fi
	# and the volume Linux wrote with fscrypt, casefold, verity, compression, a pinned
	# file: by 6.1 and by 7.3
	for n in encrypted encrypted73; do
		xz -dc "$top_srcdir/tests/images/base/$n.img.xz" > "$FF_WORK/$n.base"
		set -- "$@" "$FF_WORK/$n.base" "$top_srcdir/tests/images/fuzz_fields_encrypted.roles"
	done
fi

: > "$out/cases"
while [ $# -ge 2 ]; do
	img=$1 roles=$2; shift 2
	tag=$(basename "$img"); tag=${tag%%.*}
	ff_prepare "$img" "$tag" || exit 1
	ff_cases "$img" "$roles" | awk -v e="$every" 'NR % e == 0' | sed "s|^|$img	$tag	|" >> "$out/cases"
done
# a fixed shuffle: a run stopped early is still a sample of every structure and verb
shuf --random-source=<(yes) -o "$out/cases" "$out/cases"
echo "$(wc -l < "$out/cases") cases, $jobs at a time"
export -f ff_run ff_crashed ff_inodes ff_allow ref_fsck
# shellcheck disable=SC2016
< "$out/cases" xargs -d '\n' -P "$jobs" -n 1 bash -c '
	IFS="	" read -r img tag line <<< "$1"; ff_run "$img" "$tag" "$line"' _ > "$out/results"
ff_table "$out/results" | tee "$out/table"
ff_classes "$out/results" > "$out/classes"
echo
echo "failure classes (count, structure member | what went wrong, verbs, example), $out/classes:"
head -n 60 "$out/classes"
