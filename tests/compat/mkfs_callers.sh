#!/bin/bash
# mkfs.f2fs as its callers run it, with ours and with f2fs-tools 1.15, on image files and
# on loop devices.  The command lines come from:
#   systemd          src/shared/mkfs-util.c, make_filesystem() (systemd-repart, systemd-makefs):
#                    -g -f -l LABEL -U UUID -t 0|1 [-q] [-O verity] [-w SECTOR] NODE
#                    (-g takes "-f" as its set's name, so -f does not force)
#   libblockdev      src/plugins/fs/f2fs.c, bd_fs_f2fs_mkfs_options(): -l L -t nodiscard -f
#   GParted          src/f2fs.cc, f2fs::create(): -l LABEL PATH
#   kpmcore          src/fs/f2fs.cpp, f2fs::init() (probes `mkfs.f2fs` without arguments for
#                    "-f"), createWithLabel(): -f -l LABEL NODE, create(): -f NODE
#   Android          platform_system_core fs_mgr/fs_mgr_format.cpp, format_f2fs(): make_f2fs -g
#                    android [-O project_quota,extra_attr] [-O casefold -C utf8] [-O compression
#                    -O extra_attr] [-w 4096 -b 4096] DEV SIZE-in-4096-byte-blocks;
#                    bootable/recovery updater install.cpp, FormatFn(): -g android -w 512 DEV
#                    SIZE/512; platform_system_extras f2fs_utils/mkf2fsuserimg.sh, _build():
#                    make_f2fs -g android [-S SIZE] [-l L] [-O ...] [-O ro] OUT
#   OpenWrt          fstools libfstools/overlay.c, overlay_mount_fs(): -q -f -l rootfs_data DEV;
#                    package/base-files (dual boot): -q -l rootfs_data DEV
#   Buildroot        fs/f2fs/f2fs.mk, ROOTFS_F2FS_CMD: -f -l "L" -t 0|1 -o OP [-e E] [-E E]
#                    [-O "F"] IMG, then sload.f2fs -f DIR IMG
#   genimage         image-f2fs.c, f2fs_generate(): mkfs.f2fs -l 'L' EXTRAARGS 'IMG', then
#                    sload.f2fs -f DIR IMG
#   OpenEmbedded     meta/classes-recipe/image_types.bbclass, IMAGE_CMD:f2fs: mkfs.f2fs
#                    ${EXTRA_IMAGECMD} IMG (empty by default), then sload.f2fs -f ROOTFS IMG
# Each case runs both builds on fresh targets of one size and checks: both succeed or both
# fail, the fields the caller relies on agree (size, label, UUID, features), and both fscks
# find our volume clean.  Where 1.15 lacks what the development branch has (-b, -S with
# libsparse, -g android's dropped nat_bits), ours is checked against the development
# branch's documented behaviour instead, and the case says so.
. "$(dirname "$0")/lib.sh"

need_ref mkfs.f2fs fsck.f2fs
UUID=3f6c2b1e-5a4d-4e7f-9c1b-2a3d4e5f6a7b

declare -A TGT
# subst WHICH ARGS...: ARGS with @DEV@ replaced by WHICH's target, into ARGV
subst()
{
	local w=$1 a
	shift
	ARGV=()
	for a in "$@"; do
		ARGV+=("${a//@DEV@/${TGT[$w]}}")
	done
}

# fields IMG KEY...: "key=value" of the superblock fields KEY (reading through a loop
# device's backing file works as well)
fields()
{
	local img=$1 k
	shift
	sb_fields "$img" > "$TEST_TMP/fields" 2>/dev/null || { echo "unreadable"; return; }
	for k in "$@"; do
		printf '%s=%s ' "$k" "$(field "$k" "$TEST_TMP/fields")"
	done
}

# case_both DESC KEYS ARGS...: run both builds with ARGS on TGT[OURS] and TGT[REF] (set by
# the caller), compare success, KEYS of both superblocks, and check our volume with both
# fscks.  OUR_IMG / REF_IMG name the files behind the targets.
case_both()
{
	local desc=$1 keys=$2 w a b
	shift 2
	for w in OURS REF; do
		subst "$w" "$@"
		run "$w" mkfs.f2fs "${ARGV[@]}"
	done
	if [ $((RC_OURS == 0)) -ne $((RC_REF == 0)) ]; then
		tap_fail "$desc: exit $RC_OURS, f2fs-tools $RC_REF [ours: $(tail -c 300 "$TEST_TMP/OURS.err")] [ref: $(tail -c 300 "$TEST_TMP/REF.out" "$TEST_TMP/REF.err" | tr '\n' ' ')]"
		return
	fi
	if [ "$RC_OURS" -ne 0 ]; then
		tap_ok "$desc: both refuse (exit $RC_OURS, f2fs-tools $RC_REF)"
		return
	fi
	# shellcheck disable=SC2086
	a=$(fields "$OUR_IMG" $keys)
	# shellcheck disable=SC2086
	b=$(fields "$REF_IMG" $keys)
	if [ "$a" = "$b" ]; then
		tap_ok "$desc: both succeed, same $keys"
	else
		tap_fail "$desc: ours $a; f2fs-tools $b"
	fi
	both_fsck_clean "$OUR_IMG" "$desc"
}

# on_files SIZE: fresh image files of SIZE for both builds
on_files()
{
	OUR_IMG=$(new_image ours.img "$1")
	REF_IMG=$(new_image ref.img "$1")
	TGT[OURS]=$OUR_IMG
	TGT[REF]=$REF_IMG
}

# on_loops SIZE: the same behind loop devices (skipped cases when none can be attached)
on_loops()
{
	on_files "$1"
	TGT[OURS]=$(loop_attach "$OUR_IMG")
	TGT[REF]=$(loop_attach "$REF_IMG")
}

GEOM="block_count volume_name feature"

# --- systemd-repart / systemd-makefs ---------------------------------------------------------
on_files 256M
case_both "systemd (v252): -q -g -f -l -U -t 0" "$GEOM uuid" \
	-q -g -f -l root -U $UUID -t 0 @DEV@
on_files 256M
case_both "systemd (v255): -g -f -l -U -t 1 -q -O verity -w 4096" "$GEOM uuid" \
	-g -f -l root -U $UUID -t 1 -q -O verity -w 4096 @DEV@
# the volume is there now and "-f" went to -g: both refuse to overwrite it
case_both "systemd: \"-g -f\" does not force over an existing volume" "$GEOM" \
	-g -f -l root2 -U $UUID -t 1 -q @DEV@

# --- libblockdev (udisks) --------------------------------------------------------------------
on_files 256M
case_both "libblockdev: -l L -t nodiscard -f" "$GEOM" -l data -t nodiscard -f @DEV@
case_both "libblockdev: -l L -t nodiscard without -f over a volume" "$GEOM" -l data -t nodiscard @DEV@

# --- GParted, kpmcore ----------------------------------------------------------------------
on_files 128M
case_both "GParted: -l LABEL PATH" "$GEOM" -l "my disk" @DEV@
on_files 128M
case_both "kpmcore: -f -l LABEL NODE" "$GEOM" -f -l kde @DEV@
case_both "kpmcore: -f NODE" "$GEOM" -f @DEV@
run OURS mkfs.f2fs
if [ "$RC_OURS" -ne 0 ] && cat "$TEST_TMP/OURS.out" "$TEST_TMP/OURS.err" | grep -q -e '-f'; then
	tap_ok "kpmcore: mkfs.f2fs without arguments fails and lists -f (the probe for 1.9+)"
else
	tap_fail "kpmcore: mkfs.f2fs without arguments: exit $RC_OURS, no -f in its output"
fi

# --- Android -------------------------------------------------------------------------------
on_files 512M
case_both "fs_mgr: make_f2fs -g android DEV SIZE/4096" "$GEOM" -g android @DEV@ 65536
on_files 512M
case_both "fs_mgr: -g android -O project_quota,extra_attr -O casefold -C utf8 DEV SIZE/4096" \
	"$GEOM s_encoding" -g android -O project_quota,extra_attr -O casefold -C utf8 @DEV@ 65536
f=$(fields "$OUR_IMG" s_encoding_flags)
[ "$f" = "s_encoding_flags=2 " ] &&
	tap_ok "fs_mgr casefold: hashonly set by -g android (development branch; 1.15 leaves it 0)" ||
	tap_fail "fs_mgr casefold: $f, expected the hashonly flag (2)"
on_files 512M
case_both "updater: -g android -w 512 DEV SIZE/512 (-g android's 4096 wins, whole device)" \
	"$GEOM" -g android -w 512 @DEV@ 1048576
b=$(fields "$OUR_IMG" block_count)
[ "$b" = "block_count=131072 " ] && tap_ok "updater: the whole 512M device is used" ||
	tap_fail "updater: $b, expected the whole device (131072 blocks)"

# fs_mgr since Android 15 adds -w PAGE -b PAGE, which 1.15 does not know (-b is the
# development branch's): its documented meaning, a 4096-byte block size, is what we check.
OUR_IMG=$(new_image ours.img 512M)
TGT[OURS]=$OUR_IMG
subst OURS -g android -O compression -O extra_attr -w 4096 -b 4096 @DEV@ 65536
run OURS mkfs.f2fs "${ARGV[@]}"
b=$(fields "$OUR_IMG" block_count log_blocksize feature)
if [ "$RC_OURS" -eq 0 ] && [ "$b" = "block_count=65536 log_blocksize=12 feature=0x2499 " ]; then
	tap_ok "fs_mgr (Android 15): -g android -O compression -O extra_attr -w 4096 -b 4096: $b"
	both_fsck_clean "$OUR_IMG" "fs_mgr (Android 15)"
else
	tap_fail "fs_mgr (Android 15): exit $RC_OURS, $b [$(tail -c 300 "$TEST_TMP/OURS.err")]"
fi
CP_FLAGS=$(python3 - "$OUR_IMG" <<'EOF'
import struct, sys
with open(sys.argv[1], 'rb') as f:
    f.seek(1024)
    sb = f.read(200)
    cp = struct.unpack_from("<I", sb, 76)[0]
    f.seek(cp * 4096)
    print(struct.unpack_from('<I', f.read(4096), 132)[0])
EOF
)
[ $((CP_FLAGS & 0x80)) -eq 0 ] &&
	tap_ok "-g android leaves nat_bits out (development branch; 1.15 writes them)" ||
	tap_fail "-g android: checkpoint flags $CP_FLAGS carry nat_bits"

# mkf2fsuserimg.sh: a raw image (truncate, then make_f2fs), and --readonly
on_files 200M
case_both "mkf2fsuserimg.sh: -g android -l system OUT" "$GEOM" -g android -l system @DEV@
on_files 200M
case_both "mkf2fsuserimg.sh --readonly: -g android -l system -O ro OUT" "$GEOM" \
	-g android -l system -O ro @DEV@
# mkf2fsuserimg.sh -S: 1.15 (no libsparse) fails with "Sparse mode is only supported for
# android"; f2fs-tools built for Android writes a sparse image of SIZE bytes, as ours does.
SP=$TEST_TMP/system.simg
rm -f "$SP" "$SP.raw"
run OURS mkfs.f2fs -g android -S 209715200 -l system -O ro "$SP"
run REF mkfs.f2fs -g android -S 209715200 -l system -O ro "$TEST_TMP/ref.simg"
if [ "$RC_OURS" -eq 0 ] && command -v simg2img >/dev/null && simg2img "$SP" "$SP.raw" &&
   [ "$(stat -c %s "$SP.raw")" -eq 209715200 ]; then
	tap_ok "mkf2fsuserimg.sh -S: an Android sparse image of 200M (f2fs-tools 1.15: exit $RC_REF)"
	b=$(fields "$SP.raw" volume_name feature)
	[ "$b" = "volume_name=system feature=0x4000 " ] && tap_ok "-S image: $b" ||
		tap_fail "-S image: $b"
	both_fsck_clean "$SP.raw" "mkf2fsuserimg.sh -S (unpacked)"
elif ! command -v simg2img >/dev/null; then
	tap_ok "# SKIP mkf2fsuserimg.sh -S: no simg2img to unpack the image"
else
	tap_fail "mkf2fsuserimg.sh -S: exit $RC_OURS [$(tail -c 300 "$TEST_TMP/OURS.err")]"
fi
if ls "$SP".?????? >/dev/null 2>&1; then
	tap_fail "-S left its scratch file behind: $(ls "$SP".??????)"
else
	tap_ok "-S leaves no scratch file"
fi

# --- OpenWrt -------------------------------------------------------------------------------
on_files 128M
case_both "OpenWrt: -q -l rootfs_data on a blank device" "$GEOM" -q -l rootfs_data @DEV@
case_both "OpenWrt: -q -f -l rootfs_data (reset to defaults)" "$GEOM" -q -f -l rootfs_data @DEV@

# --- Buildroot, genimage, OpenEmbedded (then sload.f2fs -f DIR) ---------------------------
ROOT=$TEST_TMP/rootfs
mkdir -p "$ROOT/etc" "$ROOT/bin"
echo hello > "$ROOT/etc/motd"
ln -s ../etc/motd "$ROOT/bin/link"
# sload_both DESC: the caller's next step on both volumes, then both fscks on ours
sload_both()
{
	local w
	for w in OURS REF; do
		run "$w" sload.f2fs -f "$ROOT" "${TGT[$w]}"
	done
	if [ "$RC_OURS" -eq 0 ] && [ "$RC_REF" -eq 0 ]; then
		tap_ok "$1: sload.f2fs -f DIR succeeds on both"
	else
		tap_fail "$1: sload.f2fs exit $RC_OURS, f2fs-tools $RC_REF"
	fi
	both_fsck_clean "$OUR_IMG" "$1 after sload"
}
on_files 128M
case_both "Buildroot: -f -l L -t 0 -o 0 -e E -E E -O F" "$GEOM" -f -l "rootfs" -t 0 -o 0 \
	-e "mp4,mkv" -E "sqlite" -O "extra_attr,inode_checksum,sb_checksum,compression" @DEV@
sload_both "Buildroot"
on_files 128M
case_both "Buildroot: defaults (-f -l L -t 1 -o 0)" "$GEOM" -f -l "rootfs" -t 1 -o 0 @DEV@
on_files 128M
case_both "genimage: -l 'L' -O extra_attr,compression" "$GEOM" -l data -O extra_attr,compression @DEV@
sload_both "genimage"
on_files 600M
case_both "OpenEmbedded: mkfs.f2fs IMG" "$GEOM" @DEV@
sload_both "OpenEmbedded"

# --- the same on loop devices ----------------------------------------------------------------
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null &&
   l=$(losetup -f --show "$(new_image probe.img 1M)" 2>/dev/null); then
	losetup -d "$l"
	on_loops 256M
	case_both "loop: systemd -g -f -l -U -t 1 -q" "$GEOM uuid" -g -f -l root -U $UUID -t 1 -q @DEV@
	case_both "loop: systemd over an existing volume (no force)" "$GEOM" -g -f -l root -t 1 -q @DEV@
	on_loops 256M
	case_both "loop: libblockdev -l L -t nodiscard -f" "$GEOM" -l data -t nodiscard -f @DEV@
	on_loops 256M
	case_both "loop: OpenWrt -q -f -l rootfs_data" "$GEOM" -q -f -l rootfs_data @DEV@
	on_loops 512M
	case_both "loop: fs_mgr -g android DEV SIZE/4096" "$GEOM" -g android @DEV@ 65536
	on_loops 256M
	case_both "loop: GParted -l LABEL" "$GEOM" -l gp @DEV@
else
	tap_ok "# SKIP loop-device cases: no loop device can be attached here"
fi

tap_summary
