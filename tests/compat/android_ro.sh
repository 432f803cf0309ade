#!/bin/bash
# Android's read-only system images, built as its image script builds them, with ours and
# with f2fs-tools 1.15 side by side:
#
#   platform_system_extras f2fs_utils/mkf2fsuserimg.sh, _build (with --readonly)
#                            make_f2fs -g android [-O compression,extra_attr] -O ro IMG,
#                            then sload_f2fs -f DIR -t MOUNT [-T TIME] [-C FS_CONFIG]
#                            [-s FILE_CONTEXTS] [-p PRODUCT_OUT] [-c SLDC-OPTIONS] IMG,
#                            exit 0 or 1 wanted (-c and -O compression: --compression);
#                            the size is a first load's "Max image size" + 6 MiB
#                            (tests/compat/tools_callers.sh checks that line)
#
# A read-only volume (feature ro) has no summary area and writes through two logs; only
# the current segments' summaries exist, in the checkpoint.  Checked: both builds' images
# hold the tree (read back by our dump.f2fs), both fscks find ours and f2fs-tools' clean;
# ours loads the tree at the size the script computes from our own "Max image size";
# a load that runs out of room leaves the volume as it was; our fsck repairs such a
# volume without writing a summary block; the tools that move blocks by their summaries
# (defrag.f2fs, gc.f2fs collect, inject.f2fs --ssa) and resize.f2fs refuse it in one line
# naming the feature, the image unchanged; f2fslabel writes its label.
. "$(dirname "$0")/lib.sh"
need_ref mkfs.f2fs sload.f2fs fsck.f2fs
GC=$OUR_BIN/gc.f2fs
INJ=$OUR_BIN/inject.f2fs
[ -x "$GC" ] && [ -x "$INJ" ] || hard_error "gc.f2fs or inject.f2fs is not built"
SELINUX=no
grep -q '^#define HAVE_LIBSELINUX 1' "$top_builddir/config.h" && SELINUX=yes

# the tree: around the inline and direct-pointer limits, a file past a segment, a
# directory of many entries, a symlink
SRC=$TEST_TMP/src
mkdir -p "$SRC/bin" "$SRC/etc/many" "$SRC/lib/deep/er"
echo "ro system" > "$SRC/etc/motd"
head -c 3000 /dev/urandom > "$SRC/lib/deep/er/inline"
head -c 5000 /dev/urandom > "$SRC/lib/deep/er/two"
head -c 3900000 /dev/urandom > "$SRC/bin/direct"
head -c 9000000 /dev/urandom > "$SRC/bin/big"
for i in $(seq 1 400); do echo "entry $i" > "$SRC/etc/many/f$i"; done
ln -s ../etc/motd "$SRC/bin/motd"
FILES=$(cd "$SRC" && find . -type f | sed 's/^\.//' | sort)

# Android's fs_config / file_contexts tree (every path listed)
FIX=$top_srcdir/tests/images/sload_android.d
. "$FIX/mktree"
ASRC=$TEST_TMP/asrc
mktree "$ASRC"
PROD=$TEST_TMP/out
mkdir -p "$PROD/config"
cp "$FIX/fs_config" "$FIX/file_contexts" "$PROD/config/"

# tree_ok IMG DIR FILES...: each file reads back from IMG (our dump.f2fs) as in DIR; one
# --extract for the whole tree (a dump per file would start hundreds of processes)
tree_ok()
{
	local img=$1 dir=$2 out=$TEST_TMP/tree_ok f
	shift 2
	rm -rf "$out"
	"${OURS[dump.f2fs]}" --extract / -o "$out" "$img" >/dev/null 2>&1 || return 1
	for f in "$@"; do
		cmp -s "$out$f" "$dir$f" || return 1
	done
}

# build WHICH NAME SIZE SLOAD-ARGS...: mkf2fsuserimg.sh --readonly's two commands on a
# fresh image of SIZE: the image in $img, sload's exit status in RC_BUILD
build()
{
	local which=$1
	img=$(new_image "$2" "$3")
	shift 3
	if [ "$which" = OURS ]; then
		"${OURS[mkfs.f2fs]}" -g android -O ro "$img" >/dev/null 2>&1
	else
		"${REF[mkfs.f2fs]}" -g android -O ro "$img" >/dev/null 2>&1
	fi || hard_error "$which mkfs.f2fs -g android -O ro failed"
	run "$which" sload.f2fs "$@" "$img"
	RC_BUILD=$(eval echo \$RC_$which)
}

# ---- -f DIR -t / [-T TIME]: both builds, both fscks, the tree read back ----------------
for which in OURS REF; do
	for args in "-f $SRC -t /" "-f $SRC -t / -T 1000"; do
		build $which "plain-$which.img" 64M $args
		what="$which mkfs -g android -O ro; sload ${args/$SRC/DIR}"
		# shellcheck disable=SC2086
		if [ "$RC_BUILD" -eq 0 ] && tree_ok "$img" "$SRC" $FILES &&
		   [ "$("${OURS[dump.f2fs]}" --cat /bin/motd "$img" 2>/dev/null)" = "ro system" ]; then
			tap_ok "$what: exit 0, every file reads back"
		else
			tap_fail "$what: exit $RC_BUILD [$(tail -c 300 "$TEST_TMP/$which.err")]"
		fi
		both_fsck_clean "$img" "$what"
	done
done

# ---- the checkpoint's summaries of our two logs' segments name each block's owner -------
# (dump.f2fs -b follows a block's summary to its node and says whether that node's slot
# holds the block: live).  Every block, 64 to a dump.f2fs run (-b repeats).
img=$TEST_TMP/plain-OURS.img
main=$("$INJ" --sb 1 --mb main_blkaddr --get "$img" 2>/dev/null)
checked=0 wrong=
for log in data node; do
	seg=$("$INJ" --cp 0 --mb cur_${log}_segno --idx 0 --get "$img" 2>/dev/null)
	end=$("$INJ" --cp 0 --mb cur_${log}_blkoff --idx 0 --get "$img" 2>/dev/null)
	# per block: "OFFSET VALID LIVE" (dump.f2fs takes at most 64 views a run)
	for ((first = 0; first < end; first += 64)); do
		args=()
		for ((off = first; off < end && off < first + 64; off++)); do
			args+=(-b $((main + seg * 512 + off)))
		done
		"${OURS[dump.f2fs]}" "${args[@]}" "$img" 2>/dev/null
	done | awk '
		$1 == "offset" { if (o != "") print o, v, l; o = $2; v = "no"; l = "no" }
		$1 == "valid" { v = $2 }
		$1 == "live" { l = $2 }
		END { if (o != "") print o, v, l }' >"$TEST_TMP/owners"
	[ "$(wc -l <"$TEST_TMP/owners")" -eq "$end" ] || wrong="$wrong $log:(dump -b printed $(wc -l <"$TEST_TMP/owners") of $end)"
	while read -r off valid live; do
		[ "$valid" = yes ] || continue
		checked=$((checked + 1))
		[ "$live" = yes ] || wrong="$wrong $log:$off"
	done <"$TEST_TMP/owners"
done
if [ $checked -gt 100 ] && [ -z "$wrong" ]; then
	tap_ok "the hot data and hot node logs' summaries name the owners of all $checked valid blocks"
else
	tap_fail "logs' summaries: $checked valid blocks checked, wrong at:${wrong:- (none)}"
fi

# ---- -f DIR -t /system -T TIME -C fs_config [-s file_contexts] -p PRODUCT_OUT ----------
# the script passes the build's own paths (f2fs-tools 1.15 opens a relative -s below the
# working directory, not -p's)
copts=(-f "$ASRC" -t /system -T 1000 -C "$PROD/config/fs_config" -p "$PROD")
[ $SELINUX = yes ] && copts+=(-s "$PROD/config/file_contexts")
for which in OURS REF; do
	build $which "cfg-$which.img" 64M "${copts[@]}"
	what="$which sload -f DIR -t /system -T 1000 -C fs_config$([ $SELINUX = yes ] && echo " -s file_contexts") -p OUT"
	if [ "$RC_BUILD" -eq 0 ] && tree_ok "$img" "$ASRC" /bin/tool /bin/blob /etc/conf /etc/init/x.rc; then
		tap_ok "$what: exit 0, the files read back"
	else
		tap_fail "$what: exit $RC_BUILD [$(tail -c 300 "$TEST_TMP/$which.err")]"
	fi
	both_fsck_clean "$img" "$what"
done
# the mode fs_config gives (Debian's f2fs-tools 1.15, built without Android's libcutils,
# keeps the source's modes: checked on ours only)
if "${OURS[dump.f2fs]}" --ls /bin "$TEST_TMP/cfg-OURS.img" 2>/dev/null |
   grep -q "name=tool .* mode=$((0104750)) "; then
	tap_ok "-C fs_config: bin/tool is 04750 on our read-only image"
else
	tap_fail "-C fs_config: bin/tool is not 04750 on our read-only image"
fi

# ---- --compression: -O compression,extra_attr -O ro, then sload -c -a lz4 -r ------------
# (Debian's f2fs-tools 1.15 is built without a compressor: it prints an error, loads
# nothing and exits 0; ours only)
if "${OURS[sload.f2fs]}" -V 2>/dev/null | grep -q lz4; then
	img=$(new_image comp.img 64M)
	"${OURS[mkfs.f2fs]}" -g android -O compression,extra_attr -O ro "$img" >/dev/null 2>&1 ||
		hard_error "mkfs -g android -O compression,extra_attr -O ro failed"
	run OURS sload.f2fs -f "$SRC" -t /system -T 1000 -c -a lz4 -r "$img"
	# shellcheck disable=SC2086
	if [ "$RC_OURS" -eq 0 ] && tree_ok "$img" "$SRC" $FILES; then
		tap_ok "--compression: sload -c -a lz4 -r on the read-only volume: exit 0, every file reads back"
	else
		tap_fail "--compression: exit $RC_OURS [$(tail -c 300 "$TEST_TMP/OURS.err")]"
	fi
	both_fsck_clean "$img" "--compression on a read-only volume"
else
	tap_ok "# SKIP --compression: this build has no lz4"
fi

# ---- the size mkf2fsuserimg.sh computes: our first load's "Max image size" + 6 MiB ------
first=$(new_image first.img 256M)
"${OURS[mkfs.f2fs]}" -q -g android "$first" >/dev/null || hard_error "mkfs -g android failed"
mb=$("${OURS[sload.f2fs]}" -f "$SRC" -t /system -T 1000 "$first" 2>/dev/null |
     grep "Max image size" | awk '{print $5}')
if [[ "$mb" =~ ^[0-9]+$ ]]; then
	build OURS sized.img $(((mb + 6) * 1024 * 1024)) -f "$SRC" -t /system -T 1000
	# shellcheck disable=SC2086
	if [ "$RC_BUILD" -eq 0 ] && tree_ok "$img" "$SRC" $FILES; then
		tap_ok "our read-only image at our Max image size $mb + 6 MiB holds the tree"
	else
		tap_fail "read-only image at $((mb + 6)) MiB: exit $RC_BUILD [$(tail -c 300 "$TEST_TMP/OURS.err")]"
	fi
	both_fsck_clean "$img" "read-only image at Max image size + 6 MiB"
else
	tap_fail "our first load printed no Max image size ('$mb')"
fi

# ---- a load that runs out of room at the commit: the volume as it was ------------------
# an inode per empty file passes the early check; the dentry blocks do not fit
many=$TEST_TMP/many
mkdir -p "$many/d"
(cd "$many/d" && seq -f "f%05g" 1 3578 | xargs touch)
build OURS full.img 32M -f "$many" -t / -T 1000
left=$("${OURS[dump.f2fs]}" --ls / "$img" 2>/dev/null | grep -c " name=d ")
if [ "$RC_BUILD" -eq 1 ] && grep -q 'No space left' "$TEST_TMP/OURS.err" && [ "$left" -eq 0 ]; then
	tap_ok "a tree that runs out of room at the commit: exit 1, the root as mkfs left it"
else
	tap_fail "out of room: exit $RC_BUILD, $left entries named d in the root [$(tail -c 300 "$TEST_TMP/OURS.err")]"
fi
both_fsck_clean "$img" "after a load that ran out of room"

# ---- fsck repairs a read-only volume without a summary block ---------------------------
build OURS fix.img 64M -f "$SRC" -t / -T 1000
nid=$("$INJ" --lookup /etc/motd "$img" 2>/dev/null)
"$INJ" --node --mb i_links --nid "$nid" --val 7 "$img" >/dev/null 2>&1 || hard_error "inject failed"
"${OURS[fsck.f2fs]}" -f -y "$img" </dev/null >"$TEST_TMP/fix.out" 2>&1
rc=$?
# shellcheck disable=SC2086
if [ $rc -eq 1 ] && grep -q 'link count is 7' "$TEST_TMP/fix.out" && tree_ok "$img" "$SRC" $FILES; then
	tap_ok "fsck -f -y fixes a link count on a read-only volume (exit 1), every file intact"
else
	tap_fail "fsck -y on a read-only volume: exit $rc [$(tail -c 300 "$TEST_TMP/fix.out")]"
fi
both_fsck_clean "$img" "after our fsck's repair of a read-only volume"

# ---- the writing tools: refused in one line naming the feature, nothing written --------
build OURS tools.img 64M -f "$SRC" -t / -T 1000
ro=$img
main=$("$INJ" --sb 1 --mb main_blkaddr --get "$ro" 2>/dev/null)
[[ "$main" =~ ^[0-9]+$ ]] || hard_error "main_blkaddr unreadable ('$main')"
cp "$ro" "$TEST_TMP/tools.before"
refused() # DESC CMD...: exit nonzero, one line naming the feature, image unchanged
{
	local desc=$1 rc
	shift
	"$@" </dev/null >"$TEST_TMP/t.out" 2>"$TEST_TMP/t.err"
	rc=$?
	if [ $rc -ne 0 ] && [ "$(wc -l < "$TEST_TMP/t.err")" -eq 1 ] &&
	   grep -q 'read-only.*(.*ro' "$TEST_TMP/t.err" && cmp -s "$ro" "$TEST_TMP/tools.before"; then
		tap_ok "$desc: refused (exit $rc): $(cat "$TEST_TMP/t.err")"
	else
		tap_fail "$desc: exit $rc, image $(cmp -s "$ro" "$TEST_TMP/tools.before" && echo same || echo CHANGED): $(head -c 300 "$TEST_TMP/t.err")"
		cp "$TEST_TMP/tools.before" "$ro"
	fi
}
refused "defrag.f2fs -s -l -t" "${OURS[defrag.f2fs]}" -s "$main" -l 512 -t $((main + 5120)) "$ro"
refused "defrag.f2fs --file /bin" "${OURS[defrag.f2fs]}" --file /bin "$ro"
refused "gc.f2fs collect -n 1" "$GC" collect "$ro" -n 1
refused "gc.f2fs collect --dry-run" "$GC" collect "$ro" -n 1 --dry-run
refused "inject.f2fs --ssa" "$INJ" --ssa --mb entry_type --blk "$main" --val 0 "$ro"
refused "resize.f2fs -s -t (shrink)" "${OURS[resize.f2fs]}" -s -t 100000 "$ro"
truncate -s 96M "$ro"
cp "$ro" "$TEST_TMP/tools.before"
refused "resize.f2fs (grow to the device)" "${OURS[resize.f2fs]}" "$ro"
run OURS f2fslabel "$ro" newlabel
run OURS f2fslabel "$ro"
if grep -qx 'Info: volume label = newlabel' "$TEST_TMP/OURS.out"; then
	tap_ok "f2fslabel writes a read-only volume's label"
else
	tap_fail "f2fslabel on a read-only volume: '$(head -c 200 "$TEST_TMP/OURS.out")'"
fi
both_fsck_clean "$ro" "read-only volume after the refused tools and f2fslabel"

tap_summary
