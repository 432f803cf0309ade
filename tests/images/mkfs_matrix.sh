#!/bin/bash
# mkfs matrix: format sparse image files from the smallest size our mkfs
# accepts up to 15 TiB, with the geometry options (-s, -z, -o, -Z, -i), label,
# UUID and every -O feature we implement.  For each configuration:
#   (a) our mkfs.f2fs succeeds, and its --json layout agrees with the disk;
#   (b) the reference fsck.f2fs (Debian's 1.15) finds the image clean;
#   (c) layout parity: the reference mkfs.f2fs, given the same size and
#       options, lays out the same areas (addresses and segment counts);
#   (d) reserved/overprovision/user_block_count follow f2fs-tools 1.16's
#       rules (docs/layout.md): computed here from the spec for
#       every configuration, and compared with the spec's published table
#       where the configuration is one of its rows.
# Prints "ok N - <config>" / "not ok N - <config>: reason" per configuration.

. "$(dirname "$0")/lib.sh"
need_ref_tools
need_python

# Smallest image our mkfs accepts (4 KiB blocks, 2 MiB segments): 22 segments
# of which 14 main, the least that leaves room for 8 reserved segments after
# the 6 logs.  One block less gives one segment less and must be refused.
MIN_SIZE=44M
BELOW_MIN_SIZE=$((44 * 1024 * 1024 - 4096))

UUID=6f1d9a43-8e0c-4c1f-9d0e-2b7a3c5d4e6f
ALL_FEATURES=extra_attr,project_quota,quota,inode_checksum,flexible_inline_xattr,inode_crtime,lost_found,verity,sb_checksum,compression,encrypt

# The published reference figures of f2fs-tools 1.16 (layout.md), by row:
# segment_count_main rsvd_segment_count overprov_segment_count
# user_block_count printed-ratio.
declare -A TABLE=(
	[100M]="42 10 12 15360 30.000"
	[1G]="502 25 27 243200 5.370"
	[2G -s 2]="1010 51 55 488960 5.350"
	[8G -s 4 -z 2]="4056 140 148 2000896 3.570"
	[4G -o 5]="2029 27 102 986624 5.000"
	[10G -O extra_attr,inode_checksum,sb_checksum]="5081 74 76 2562560 1.480"
	[1T]="523141 721 733 267472896 0.140"
	[15T]="7848278 2507 3140 4016710656 0.040"
)

# size | our options | parity mode | reference options | note.
# Parity modes: "same" (reference run with our options; areas and feature
# bits compared), "area" (reference run with the given options, areas only),
# "skip" (no parity check; the note says why).
CONFIGS=(
	"$MIN_SIZE||skip||mkfs.f2fs 1.15 refuses sizes below 52M (older reserve rule)"
	"100M||same"
	"1G||same"
	"2G|-s 2|same"
	"8G|-s 4 -z 2|same"
	"4G|-o 5|same"
	"10G|-O extra_attr,inode_checksum,sb_checksum|same"
	"1T||same"
	"15T||skip||the reference mkfs would allocate ~1.8 GB"
	"8G||same"
	"10G||same"
	"100G||same"
	"1G|-s 4|same"
	"2G|-z 2|same"
	"1G|-o 20|same"
	"1G|-l zf2fs-label|same"
	"1G|-U $UUID|same"
	"100G|-i|same"
	"1T|-i|same"
	"1G|-Z 8|area||1.15 has no -Z: areas compared without it"
	"1G|-Z 3|area||1.15 has no -Z: areas compared without it"
	"4G|-s 2 -Z 12 -o 5|area|-s 2 -o 5|1.15 has no -Z: areas compared without it"
	"1G|-O extra_attr|same"
	"1G|-O extra_attr,project_quota|same"
	"1G|-O quota,lost_found|same"
	"1G|-O extra_attr,inode_checksum|same"
	"1G|-O extra_attr,flexible_inline_xattr|same"
	"1G|-O extra_attr,inode_crtime|same"
	"1G|-O lost_found|same"
	"1G|-O verity|same"
	"1G|-O sb_checksum|same"
	"1G|-C utf8|same"
	"1G|-O casefold -C utf8:strict|same"
	"1G|-O extra_attr,compression|same"
	"1G|-O encrypt|same"
	"2G|-O $ALL_FEATURES -C utf8|same"
	"8G|-s 2 -z 2 -i -O $ALL_FEATURES -C utf8 -l all-features|same"
	"1G|-g android|area|-g android|1.15's android feature set differs: areas only"
)

# Feature bits, as the kernel numbers them.
declare -A FEATURE_BIT=(
	[encrypt]=0x1 [extra_attr]=0x8 [project_quota]=0x10
	[inode_checksum]=0x20 [flexible_inline_xattr]=0x40 [quota]=0x80
	[inode_crtime]=0x100 [lost_found]=0x200 [verity]=0x400
	[sb_checksum]=0x800 [casefold]=0x1000 [compression]=0x2000
)

AREA_FIELDS="log_blocksize log_blocks_per_seg segs_per_sec secs_per_zone
	block_count section_count segment_count segment_count_ckpt
	segment_count_sit segment_count_nat segment_count_ssa segment_count_main
	segment0_blkaddr cp_blkaddr sit_blkaddr nat_blkaddr ssa_blkaddr
	main_blkaddr cp_payload"

# expected_counts FIELDS RATIO Z: the 1.16 rules of layout.md for a volume
# that is not zoned, from its on-disk geometry.  RATIO and Z are "" when not
# given.  Prints rsvd ovp user free ratio.
expected_counts()
{
	python3 - "$@" <<'EOF'
import sys
fields = dict(l.split('=', 1) for l in open(sys.argv[1]).read().split('\n') if '=' in l)
ratio = float(sys.argv[2]) if sys.argv[2] else None
Z = int(sys.argv[3]) if sys.argv[3] else None
M = int(fields['segment_count_main'])
sps = int(fields['segs_per_sec'])
S = int(fields['section_count'])
bps = 1 << int(fields['log_blocks_per_seg'])
U = M                      # not zoned: every main segment is usable
spsU = -(-U // S)          # ceil(U / S)

def reserved(r):
    return (100 / r + 1 + 6) * spsU

if Z is not None:
    Z = max(Z, 8)
    r = ratio if ratio is not None else 3.0
    res = Z * spsU
else:
    if ratio is None:
        if M < 256:
            cand, step, end = 10.0, 5.0, 95.0
        else:
            cand, step, end = 0.01, 0.01, 10.0
        best = None
        r = 0.0
        while cand <= end:
            res = reserved(cand)
            o = (U - res) * cand / 100
            if o >= 0:
                space = U - max(res, o) - 2 * sps
                if best is None or space > best:
                    best, r = space, cand
            cand += step
    else:
        r = ratio
    res = reserved(r)
rsvd = int(res)
ovp = int((U - rsvd) * r / 100)
if Z is None:
    ovp = max(ovp, rsvd) + 2 * sps
elif ovp < 2 * sps:
    print('error not-enough-overprovision')
    sys.exit(0)
else:
    ovp += rsvd
free = U - 6
user = (free + 6 - ovp) * bps
print(rsvd, ovp, user, free, '%.3f' % r)
EOF
}

# json_vs_disk JSON FIELDS: every number the --json layout shares with the
# on-disk fields must be equal.
json_vs_disk()
{
	python3 - "$1" "$2" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
d = dict(l.split('=', 1) for l in open(sys.argv[2]).read().split('\n') if '=' in l)
bad = ['%s json=%s disk=%s' % (k, j[k], d[k]) for k in j
       if k in d and isinstance(j[k], int) and not isinstance(j[k], bool)
       and str(j[k]) != d[k]]
if bad:
    print('; '.join(bad))
    sys.exit(1)
EOF
}

# opt_value OPTS LETTER: the argument of -LETTER in OPTS, or "".
opt_value()
{
	local prev='' w
	for w in $1; do
		[ "$prev" = "-$2" ] && { echo "$w"; return; }
		prev=$w
	done
}

# wanted_features OPTS: the feature bits the options ask for.
wanted_features()
{
	local bits=0 f list
	list=$(opt_value "$1" O | tr ',' ' ')
	for f in $list; do
		bits=$((bits | ${FEATURE_BIT[$f]}))
	done
	[ -n "$(opt_value "$1" C)" ] && bits=$((bits | ${FEATURE_BIT[casefold]}))
	# project quota needs a quota file, so it turns quota on (as mkfs.f2fs does)
	[ $((bits & ${FEATURE_BIT[project_quota]})) -ne 0 ] && bits=$((bits | ${FEATURE_BIT[quota]}))
	printf '0x%x\n' $bits
}

run_config()
{
	local size=$1 opts=$2 mode=$3 refo=$4 note=$5 name img refimg why='' v e f
	name="$size${opts:+ $opts}"
	local dir="$TEST_TMP/cfg"
	rm -rf "$dir"; mkdir "$dir"
	img=$(new_image cfg/ours.img "$size")

	# (a) our mkfs.
	# shellcheck disable=SC2086
	if ! "$MKFS" -f --json $opts "$img" >"$dir/json" 2>"$dir/log"; then
		tap_fail "$name: our mkfs failed: $(tr '\n' ' ' <"$dir/log")"
		return
	fi
	if ! sb_fields "$img" >"$dir/ours"; then
		tap_fail "$name: no F2FS superblock on our image"
		return
	fi
	v=$(json_vs_disk "$dir/json" "$dir/ours") ||
		why="$why; --json differs from disk: $v"

	# Options that land in the superblock.
	v=$(opt_value "$opts" l)
	[ -n "$v" ] && [ "$(field volume_name "$dir/ours")" != "$v" ] &&
		why="$why; label is '$(field volume_name "$dir/ours")', not '$v'"
	v=$(opt_value "$opts" U)
	[ -n "$v" ] && [ "$(field uuid "$dir/ours")" != "${v//-/}" ] &&
		why="$why; uuid is $(field uuid "$dir/ours"), not $v"
	case $opts in
	*-g*) ;;
	*)	e=$(wanted_features "$opts")
		f=$(field feature "$dir/ours")
		[ $((f)) -eq $((e)) ] ||
			why="$why; feature bits $f, expected $e" ;;
	esac
	case $opts in
	*-C\ utf8*)
		[ "$(field s_encoding "$dir/ours")" = 1 ] ||
			why="$why; s_encoding $(field s_encoding "$dir/ours"), expected 1 (utf8)"
		v=0; case $opts in *utf8:strict*) v=1 ;; esac
		[ "$(field s_encoding_flags "$dir/ours")" = $v ] ||
			why="$why; s_encoding_flags $(field s_encoding_flags "$dir/ours"), expected $v" ;;
	esac

	# (b) the reference fsck; on the 15 TiB volume (a minute of the reference reading
	# its tables) only under ZF2FS_FULL=1: 1 TiB is the largest in make check
	if [ "$size" = 15T ] && [ $MATRIX_FULL = 0 ]; then
		note="${note:+$note; }reference fsck under ZF2FS_FULL=1 only"
	elif ! ref_fsck "$img" >"$dir/fsck"; then
		cat "$dir/fsck"
		why="$why; reference fsck reports problems (output above)"
	fi

	# (d) reserved / overprovision / user blocks by the 1.16 rules.
	local Z ratio exp rsvd ovp user free pr
	Z=$(opt_value "$opts" Z)
	ratio=$(opt_value "$opts" o)
	exp=$(expected_counts "$dir/ours" "$ratio" "$Z")
	read -r rsvd ovp user free pr <<<"$exp"
	if [ "$rsvd" = error ]; then
		why="$why; the 1.16 rules refuse this configuration ($ovp)"
	fi
	for v in "$rsvd rsvd_segment_count" "$ovp overprov_segment_count" \
		 "$user user_block_count" "$free free_segment_count"; do
		e=${v% *}
		f=$(field "${v#* }" "$dir/ours")
		[ "$e" = "$f" ] || why="$why; ${v#* } $f, the 1.16 rules give $e"
	done
	grep -q "Overprovision ratio = $pr%" "$dir/log" ||
		why="$why; printed ratio '$(grep -o 'Overprovision ratio = .*' "$dir/log")', rules give $pr%"
	grep -q "Overprovision segments = $ovp (GC reserved = $rsvd)" "$dir/log" ||
		why="$why; printed '$(grep -o 'Overprovision segments = .*' "$dir/log")'"
	if [ -n "$Z" ] && [ "$Z" -lt 8 ]; then
		grep -q "raised from $Z to 8" "$dir/log" ||
			why="$why; no message that -Z $Z was raised to 8"
	fi
	if [ -n "${TABLE[$name]+set}" ]; then
		local tm trsvd tovp tuser tpr
		read -r tm trsvd tovp tuser tpr <<<"${TABLE[$name]}"
		[ "$(field segment_count_main "$dir/ours")" = "$tm" ] ||
			why="$why; segment_count_main $(field segment_count_main "$dir/ours"), table says $tm"
		[ "$(field rsvd_segment_count "$dir/ours")" = "$trsvd" ] ||
			why="$why; rsvd $(field rsvd_segment_count "$dir/ours"), table says $trsvd"
		[ "$(field overprov_segment_count "$dir/ours")" = "$tovp" ] ||
			why="$why; overprov $(field overprov_segment_count "$dir/ours"), table says $tovp"
		[ "$(field user_block_count "$dir/ours")" = "$tuser" ] ||
			why="$why; user_block_count $(field user_block_count "$dir/ours"), table says $tuser"
		grep -q "Overprovision ratio = $tpr%" "$dir/log" ||
			why="$why; printed ratio is not the table's $tpr%"
		name="$name [layout.md row]"
	fi
	rm -f "$img"

	# (c) layout parity with the reference mkfs, feature bits included (both turn
	# quota on for project_quota).
	local refopts=$refo featmask=$((~0)) note=${note:+ [$note]}
	[ "$mode" = same ] && refopts=$opts
	[ "$mode" = skip ] && note=" [parity skipped: ${note# \[}"
	if [ "$mode" != skip ]; then
		refimg=$(new_image cfg/ref.img "$size")
		# shellcheck disable=SC2086
		if ! "$REF_MKFS" -f -q $refopts "$refimg" >"$dir/reflog" 2>&1; then
			why="$why; reference mkfs failed: $(tr '\n' ' ' <"$dir/reflog")"
		elif ! sb_fields "$refimg" >"$dir/ref"; then
			why="$why; cannot read the reference image"
		else
			for f in $AREA_FIELDS; do
				[ "$(field $f "$dir/ours")" = "$(field $f "$dir/ref")" ] ||
					why="$why; $f ours $(field $f "$dir/ours") vs 1.15 $(field $f "$dir/ref")"
			done
			e=$(field feature "$dir/ours")
			f=$(field feature "$dir/ref")
			[ "$mode" != same ] ||
				[ $((e & featmask)) -eq $((f & featmask)) ] ||
				why="$why; feature bits ours $e vs 1.15 $f"
		fi
		rm -f "$refimg"
	fi

	if [ -n "$why" ]; then
		tap_fail "$name$note: ${why#; }"
	else
		tap_ok "$name$note"
	fi
}

# The smallest size is accepted (checked by the matrix); one block less is not.
img=$(new_image below.img "$BELOW_MIN_SIZE")
if "$MKFS" -q "$img" >"$TEST_TMP/below.log" 2>&1; then
	tap_fail "$BELOW_MIN_SIZE bytes (one block under $MIN_SIZE) is refused: mkfs accepted it"
elif ! grep -q 'not sufficient' "$TEST_TMP/below.log"; then
	tap_fail "$BELOW_MIN_SIZE bytes is refused with a size message: $(cat "$TEST_TMP/below.log")"
else
	tap_ok "$BELOW_MIN_SIZE bytes (one block under $MIN_SIZE) is refused"
fi
rm -f "$img"

for c in "${CONFIGS[@]}"; do
	IFS='|' read -r size opts mode refo note <<<"$c"
	run_config "$size" "$opts" "$mode" "$refo" "$note"
done

tap_summary
