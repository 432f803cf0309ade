#!/bin/bash
# lib_layers.sh - lib/ keeps its layers: every file sits in a layer folder and no
# #include climbs a layer.
#
#   format <- device <- read <- write <- move,  and gc on read
#
# A file of lib/L may include the private headers of the layers L stands on
# ("read/volume_p.h") and the public headers (include/zf2fs/) that belong to those
# layers; a private header named without its folder is refused too, since the folder is
# what says its layer.  The rule is checked on lib/ as it is, then on two copies broken
# on purpose (a read file including a write header; a file at the top of lib/), which
# must both be refused: a checker that passes everything would fail here.
. "$(dirname "$0")/lib.sh"

# The layers each layer may include.
declare -A ALLOWED=(
	[format]="format"
	[device]="format device"
	[read]="format device read"
	[write]="format device read write"
	[move]="format device read write move"
	[gc]="format device read gc"
)

# The layer of each public header; one not listed here is refused, so that a new header
# is placed on purpose.
declare -A PUBLIC=(
	[zf2fs.h]=format [format.h]=format [endian.h]=format [access.h]=format
	[compress.h]=format [quota.h]=format [geometry.h]=format
	[simg.h]=device [zoned.h]=device
	[file.h]=read [sit_table.h]=read
	[txn.h]=write [txn_file.h]=write [load.h]=write
	[move.h]=move [resize.h]=move
	[gc.h]=gc [gc_sim.h]=gc
)

# The layer of each internal header (include/zf2fs-internal/: what the tools share with
# the library beyond the installed API), by the same rule.
declare -A INTERNAL=(
	[format.h]=format [chunkmap.h]=format [compress.h]=format [quota.h]=format
	[device.h]=device
	[volume.h]=read
	[commit.h]=write [load.h]=write [rebuild.h]=write
	[move.h]=move
	[gc.h]=gc
)

# check_tree LIBDIR: print one line per broken rule; 0 when there is none.
check_tree()
{
	local dir=$1 bad=0 f rel layer inc to

	while IFS= read -r f; do
		rel=${f#"$dir"/}
		case $rel in
		local.mk | libzf2fs.sym) continue ;;
		*/*) layer=${rel%%/*} ;;
		*) echo "$rel: not in a layer folder"; bad=1; continue ;;
		esac
		if [ -z "${ALLOWED[$layer]+set}" ]; then
			echo "$rel: $layer is not a layer (${!ALLOWED[*]})"
			bad=1
			continue
		fi
		case $rel in *.c | *.h) ;; *) continue ;; esac
		while IFS= read -r inc; do
			case $inc in
			config.h) continue ;;
			zf2fs/*)
				to=${PUBLIC[${inc#zf2fs/}]:-}
				if [ -z "$to" ]; then
					echo "$rel: includes $inc, a public header with no layer in ${0##*/}"
					bad=1
					continue
				fi ;;
			zf2fs-internal/*)
				to=${INTERNAL[${inc#zf2fs-internal/}]:-}
				if [ -z "$to" ]; then
					echo "$rel: includes $inc, an internal header with no layer in ${0##*/}"
					bad=1
					continue
				fi ;;
			*/*) to=${inc%%/*} ;;
			*) echo "$rel: includes \"$inc\" without its layer folder"; bad=1; continue ;;
			esac
			case " ${ALLOWED[$layer]} " in
			*" $to "*) ;;
			*) echo "$rel: $layer includes $inc ($to layer)"; bad=1 ;;
			esac
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
	done < <(find "$dir" -type f ! -name '*.o' ! -name '*.lo' ! -name '*.la' \
		! -path '*/.libs/*' ! -path '*/.deps/*' ! -name '.dirstamp' | sort)
	return $bad
}

if out=$(check_tree "$top_srcdir/lib"); then
	tap_ok "lib/ keeps its layers"
else
	tap_fail "lib/ breaks its layers:"
	printf '%s\n' "$out"
fi

# The checker must refuse what breaks the rule.
copy=$TEST_TMP/lib
mkdir -p "$copy"
cp -r "$top_srcdir/lib/." "$copy/"
printf '#include "write/txn_p.h"\n' >> "$copy/read/dir.c"
if out=$(check_tree "$copy"); then
	tap_fail "a read file including write/txn_p.h was let through"
elif [[ $out == *"read/dir.c: read includes write/txn_p.h (write layer)"* ]]; then
	tap_ok "a read file including a write header is refused"
else
	tap_fail "wrong complaint for read including write: $out"
fi
rm -rf "$copy" && mkdir -p "$copy" && cp -r "$top_srcdir/lib/." "$copy/"
printf '/* stray */\n' > "$copy/stray.c"
printf '#include "zf2fs/gc.h"\n' >> "$copy/format/crc32.c"
out=$(check_tree "$copy") && tap_fail "a stray lib/stray.c and format including gc.h let through"
[[ $out == *"stray.c: not in a layer folder"* ]] &&
	tap_ok "a file outside the layer folders is refused" ||
	tap_fail "lib/stray.c not refused: $out"
[[ $out == *"format/crc32.c: format includes zf2fs/gc.h (gc layer)"* ]] &&
	tap_ok "format including a gc public header is refused" ||
	tap_fail "format including zf2fs/gc.h not refused: $out"

tap_summary
