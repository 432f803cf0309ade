#!/bin/bash
# The field-fuzz group, quick subset (one case in FF_EVERY, default 20, 100 in the
# sanitizer build unless ZF2FS_FULL=1, of the matrix that bench/fuzz-fields.sh runs whole): inject.f2fs --fuzz VERB on one member of the base image,
# then fsck -f -n, -f -y, -f -n and Debian's fsck (tests/images/fuzz_fields_lib.sh).
# Always failures: a crash or sanitizer report, a hang.  Failures too, unless
# tests/images/fuzz_fields.known lists the case (fsck bugs the matrix found that are not
# fixed yet; see its header): -n exiting other than 0 or 4, -y other than 0, 1 or 4 (with
# or without 1), a repair that leaves the image unclean for either fsck.  A listed case
# that passes now is reported so that its line can go.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/images/fuzz_fields_lib.sh"
[ -x "$INJECT" ] || hard_error "inject.f2fs is not built: $INJECT"

FF_WORK=$TEST_TMP/ff
# under ASan each fsck run is several times slower: a fifth of the cases keep the
# suite's time (the sanitizers look for memory errors, which the crash-free paths share)
if [ -z "${FF_EVERY:-}" ]; then
	FF_EVERY=20
	[ $IN_SAN = 1 ] && [ $MATRIX_FULL = 0 ] && FF_EVERY=100
fi
mkdir -p "$FF_WORK"
export FF_WORK FF_TIMEOUT INJECT FSCK REF_FSCK top_srcdir top_builddir
# the base images and their roles: our mkfs + Debian's sload, and a volume Linux wrote
# with fscrypt, casefold, verity, compression and a pinned file, once by 6.1 and once by
# 7.3 (base/README)
: > "$FF_WORK/results"
for base in populated:fuzz_fields.roles encrypted:fuzz_fields_encrypted.roles \
	encrypted73:fuzz_fields_encrypted.roles; do
	tag=${base%%:*}
	img=$FF_WORK/$tag.img
	xz -dc "$top_srcdir/tests/images/base/$tag.img.xz" > "$img" || hard_error "no base image $tag"
	ff_prepare "$img" "$tag" || hard_error "the base image $tag is not clean"
	ff_cases "$img" "$top_srcdir/tests/images/${base#*:}" |
		awk -v e="$FF_EVERY" '(NR - 1) % e == 0' > "$FF_WORK/cases"
	[ -s "$FF_WORK/cases" ] || hard_error "no cases for $tag"
	export -f ff_run ff_crashed ff_inodes ff_allow ref_fsck
	# shellcheck disable=SC2016
	< "$FF_WORK/cases" xargs -d '\n' -P 2 -n 1 bash -c 'ff_run "$1" "$2" "$3"' _ "$img" "$tag" \
		>> "$FF_WORK/results"
done
known=$top_srcdir/tests/images/fuzz_fields.known
while IFS='|' read -r tag args mb idx verb irc rn ry r2 ref lost crash hang codes; do
	name="$args --mb $mb --fuzz $verb"
	[ "$idx" = - ] || name="$args --mb $mb --idx $idx --fuzz $verb"
	[ "$irc" = 0 ] || continue
	hard= soft=
	[ "$crash" = 1 ] && hard="$hard crash;"
	[ "$hang" = 1 ] && hard="$hard hang;"
	case $rn in 0|4) ;; *) soft="$soft -n exit $rn;" ;; esac
	case $ry in 0|1|4|5) ;; *) soft="$soft -y exit $ry;" ;; esac
	[ "$r2" = 0 ] || soft="$soft rerun exit $r2;"
	[ "$ref" = clean ] || [ "$ref" = - ] || soft="$soft Debian's fsck: $ref;"
	listed=0
	grep -qxF -e "$args|$mb|$idx|$verb" "$known" 2>/dev/null && listed=1
	name="$tag: $name"
	if [ -n "$hard" ]; then
		tap_fail "$name:$hard$soft [$codes]"
	elif [ -n "$soft" ] && [ $listed = 0 ]; then
		tap_fail "$name: -n exit $rn, -y exit $ry:$soft [$codes]"
	elif [ -n "$soft" ]; then
		tap_ok "$name # known fsck bug:$soft"
	else
		[ $listed = 1 ] && echo "# $name: listed in fuzz_fields.known but clean now"
		tap_ok "$name"
	fi
done < "$FF_WORK/results"
ff_table "$FF_WORK/results" | sed 's/^/# /'
tap_summary
