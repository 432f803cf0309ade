#!/bin/bash
# The command lines other programs run with dump.f2fs, resize.f2fs, sload.f2fs and
# f2fslabel, run with ours and with f2fs-tools 1.15 on image files (and on loop devices
# where one can be attached), their output parsed as the caller parses it:
#
#   storaged-project/libblockdev src/plugins/fs/f2fs.c
#     deps/shrink_deps       resize.f2fs -V, pattern "resize.f2fs\s+([\d\.]+).+", >= 1.12.0
#     bd_fs_f2fs_get_info    dump.f2fs DEV: the lines starting "Info: sector size" (may be
#                            missing), "Info: total FS sectors", "Info: superblock features"
#                            (hex), each read after its '='
#     bd_fs_f2fs_resize      resize.f2fs [-s] [-t SECTORS] DEV
#   GNOME/gparted src/f2fs.cc
#     f2fs::set_used_sectors dump.f2fs -d 1 DEV: sscanf "user_block_count [0x %*x : %lld]",
#                            likewise valid_block_count and log_blocksize, from each name's
#                            first occurrence; "Info: sector size = %lld" and
#                            "Info: total FS sectors = %lld"
#     f2fs::resize           resize.f2fs [-t SECTORS] DEV, exit 0 wanted
#   KDE/kpmcore src/fs/f2fs.cpp
#     f2fs::resize           resize.f2fs DEV;  f2fs::writeLabel: f2fslabel DEV LABEL
#   platform_system_extras f2fs_utils/mkf2fsuserimg.sh, _build
#                            sload_f2fs -f DIR -t /MOUNT -T TIME IMG, exit 0 or 1; MB_SIZE =
#                            `grep "Max image size" | awk '{print $5}'`; the read-only image
#                            is then made again at (MB_SIZE + 6) MiB with -O ro
#   pengutronix/genimage image-f2fs.c f2fs_generate, buildroot fs/f2fs/f2fs.mk
#   ROOTFS_F2FS_CMD, openembedded-core image_types.bbclass IMAGE_CMD:f2fs
#                            sload.f2fs -f DIR IMG (and -t /)
#   f2fs-tools' own defrag.f2fs command line (no known caller):
#                            defrag.f2fs -s START -l LEN -t TARGET [-i] DEV
#
# Each case checks the exit status the caller acts on, the parsed values (ours equal to
# f2fs-tools' and to the volume's truth), and after the writing tools both fscks.
# Deliberate differences, checked as such: f2fs-tools' resize.f2fs exits 0 on a target past
# the device's end without resizing; ours exits 1.  f2fs-tools 1.15's own resize leaves a
# volume its fsck reports "Invalid CP CRC offset: 0" and "fixing SIT types" on: those two
# lines are let pass after its resize only.
#
# The second, read-only build of mkf2fsuserimg.sh is made by the same build as the first
# (tests/compat/android_ro.sh runs that flow's options in full).
. "$(dirname "$0")/lib.sh"
need_ref dump.f2fs resize.f2fs sload.f2fs f2fslabel defrag.f2fs mkfs.f2fs fsck.f2fs
need_python

# ---- parsers, as the callers parse --------------------------------------------------------
# libblockdev: prefix match on lines, strtoull after '=' (base 0, or 16 for features)
lbd_parse()   # FILE -> "SSIZE SECTORS FEATURES" (SSIZE 0 when the line is missing)
{
	python3 - "$1" <<'EOF'
import re, sys
lines = open(sys.argv[1], errors="replace").read().split("\n")
def after(prefix, base):
    for l in lines:
        if l.startswith(prefix):
            v = l[l.index("=") + 1:].strip()
            m = re.match(r"0[xX][0-9a-fA-F]+" if base == 16 and v[:2].lower() == "0x" else
                         (r"[0-9a-fA-F]+" if base == 16 else r"\d+"), v)
            return int(m.group(0), base) if m else 0
    return None
ss, sec, feat = after("Info: sector size", 0), after("Info: total FS sectors", 0), \
    after("Info: superblock features", 16)
if sec is None or feat is None:
    print("PARSE-FAIL"); sys.exit(0)
print(ss or 0, sec, feat)
EOF
}

# GParted: output.find(name) then sscanf(name " [0x %*x : %lld]")
gp_parse()    # FILE -> "USER VALID LOGBS SSIZE TOTAL" (-1 for what does not parse)
{
	python3 - "$1" <<'EOF'
import re, sys
out = open(sys.argv[1], errors="replace").read()
def scan(name, pat):
    i = out.find(name)
    if i < 0:
        return -1
    m = re.match(pat, out[i:])
    return int(m.group(1)) if m else -1
num = r"\s*\[0x\s*[0-9a-fA-F]+\s*:\s*([+-]?\d+)"
print(scan("user_block_count", "user_block_count" + num),
      scan("valid_block_count", "valid_block_count" + num),
      scan("log_blocksize", "log_blocksize" + num),
      scan("Info: sector size =", r"Info: sector size =\s*([+-]?\d+)"),
      scan("Info: total FS sectors =", r"Info: total FS sectors =\s*([+-]?\d+)"))
EOF
}

# the truth, read from the raw superblock and current checkpoint (no tool of either side)
truth()       # IMG -> "SECTORS FEATURES LOGBS USER VALID"
{
	python3 - "$1" <<'EOF'
import struct, sys
f = open(sys.argv[1], "rb")
f.seek(1024); sb = f.read(3072)
log_ss, log_spb, log_bs, log_bps = struct.unpack_from("<4I", sb, 8)
block_count, = struct.unpack_from("<Q", sb, 36)
cp_blkaddr, = struct.unpack_from("<I", sb, 76)
feature, = struct.unpack_from("<I", sb, 2180)
bs = 1 << log_bs; seg = bs << log_bps
best = None
for pack in (0, 1):
    f.seek((cp_blkaddr * bs) + pack * seg); cp = f.read(bs)
    ver, user, valid = struct.unpack_from("<3Q", cp, 0)
    if best is None or ver > best[0]:
        best = (ver, user, valid)
print(block_count << log_spb, feature, log_bs, best[1], best[2])
EOF
}

same_and_true()  # WHAT OURS REF TRUE: tap on OURS == REF == TRUE
{
	if [ "$2" != "$3" ]; then
		tap_fail "$1: ours parses as '$2', f2fs-tools' as '$3'"
	elif [ "$2" != "$4" ]; then
		tap_fail "$1: both parse as '$2', the volume says '$4'"
	else
		tap_ok "$1: '$2' from both, as on the volume"
	fi
}

# a volume made by f2fs-tools' mkfs, one of ours: both tools read both
mkvol()       # NAME SIZE MKFS-WHICH -> path
{
	local img
	img=$(new_image "$1" "$2")
	if [ "$3" = OURS ]; then
		"${OURS[mkfs.f2fs]}" -q -f -O extra_attr,inode_checksum,sb_checksum -l vol "$img" \
			>/dev/null 2>&1 || hard_error "our mkfs failed"
	else
		"${REF[mkfs.f2fs]}" -q -f -O extra_attr,inode_checksum,sb_checksum -l vol "$img" \
			>/dev/null 2>&1 || hard_error "f2fs-tools' mkfs failed"
	fi
	echo "$img"
}

SRC=$TEST_TMP/src
mkdir -p "$SRC/etc/sub" "$SRC/bin"
seq 1 200000 > "$SRC/etc/big"
printf 'hello\n' > "$SRC/etc/sub/small"
ln -s ../etc/sub/small "$SRC/bin/link"
head -c 300000 /dev/urandom > "$SRC/bin/blob"

# contents of SRC's files read back from IMG with our dump (what a mount would see)
contents_ok()  # IMG
{
	local f
	for f in etc/big etc/sub/small bin/blob; do
		"${OURS[dump.f2fs]}" --cat "/$f" "$1" 2>/dev/null | cmp -s - "$SRC/$f" || return 1
	done
}

# ---- libblockdev ------------------------------------------------------------------------
for which in OURS REF; do
	run "$which" resize.f2fs -V
	v=$(grep -oP 'resize.f2fs\s+\K[\d.]+(?=.+)' "$TEST_TMP/$which.out" | head -1)
	if [ -n "$v" ] && [ "$(printf '%s\n1.12.0\n' "$v" | sort -V | head -1)" = 1.12.0 ]; then
		tap_ok "libblockdev: $which resize.f2fs -V gives $v, >= 1.12.0 (safe resize allowed)"
	else
		tap_fail "libblockdev: $which resize.f2fs -V: '$(head -1 "$TEST_TMP/$which.out")'"
	fi
done

for mk in OURS REF; do
	img=$(mkvol "lbd-$mk.img" 256M "$mk")
	read -r t_sec t_feat t_lbs t_user t_valid < <(truth "$img")
	for which in OURS REF; do
		run "$which" dump.f2fs "$img"
		[ "$(eval echo \$RC_$which)" -eq 0 ] || tap_fail "libblockdev: $which dump.f2fs DEV exit $(eval echo \$RC_$which)"
		cp "$TEST_TMP/$which.out" "$TEST_TMP/lbd.$which"
	done
	read -r o_ss o_sec o_feat < <(lbd_parse "$TEST_TMP/lbd.OURS")
	read -r r_ss r_sec r_feat < <(lbd_parse "$TEST_TMP/lbd.REF")
	same_and_true "libblockdev dump.f2fs DEV ($mk mkfs): total FS sectors" "$o_sec" "$r_sec" "$t_sec"
	same_and_true "libblockdev dump.f2fs DEV ($mk mkfs): superblock features" "$o_feat" "$r_feat" "$t_feat"
	same_and_true "libblockdev dump.f2fs DEV ($mk mkfs): sector size (absent: 0)" "$o_ss" "$r_ss" 0
done

# bd_fs_f2fs_resize: grow with -t, safe shrink with -s -t, fill the device (no -t)
resize_case()  # WHO FINAL_SECTORS ARGS... (on a 256M volume in a 512M file)
{
	local who=$1 want=$2 which img rc got
	shift 2
	for which in OURS REF; do
		img=$(mkvol "rs-$which.img" 256M REF)
		truncate -s 512M "$img"
		run "$which" resize.f2fs "$@" "$img"
		rc=$(eval echo \$RC_$which)
		run OURS dump.f2fs "$img"
		got=$(lbd_parse "$TEST_TMP/OURS.out" | cut -d' ' -f2)
		if [ "$rc" -ne 0 ]; then
			tap_fail "$who: $which resize.f2fs $*: exit $rc: $(tail -1 "$TEST_TMP/$which.err")"
		elif [ "$got" != "$want" ] || [ "$(truth "$img" | cut -d' ' -f1)" != "$want" ]; then
			tap_fail "$who: $which resize.f2fs $*: $got sectors, want $want"
		else
			tap_ok "$who: $which resize.f2fs $*: exit 0, $want sectors"
		fi
		if [ $which = REF ]; then
			REF_FSCK_ALLOW='Invalid CP CRC offset: 0\|fixing SIT types' \
				both_fsck_clean "$img" "$who: $which resize.f2fs $*"
		else
			both_fsck_clean "$img" "$who: $which resize.f2fs $*"
		fi
	done
}
resize_case "libblockdev grow" 786432 -t 786432
resize_case "libblockdev safe shrink" 400384 -s -t 400384
resize_case "libblockdev/kpmcore fill the device" 1048576
resize_case "GParted grow to the partition" 917504 -t 917504

# past the device's end: f2fs-tools exits 0 without resizing (libblockdev notes it), ours 1
img=$(mkvol past.img 256M REF)
run OURS resize.f2fs -t 2000000 "$img"
run REF resize.f2fs -t 2000000 "$(mkvol past-ref.img 256M REF)"
if [ "$RC_OURS" -eq 1 ] && [ "$(truth "$img" | cut -d' ' -f1)" = 524288 ]; then
	tap_ok "resize.f2fs -t past the end: ours exit 1, volume untouched (f2fs-tools: exit $RC_REF, untouched)"
else
	tap_fail "resize.f2fs -t past the end: ours exit $RC_OURS"
fi

# ---- GParted ------------------------------------------------------------------------------
for mk in OURS REF; do
	img=$(mkvol "gp-$mk.img" 256M "$mk")
	"${OURS[sload.f2fs]}" -f "$SRC" "$img" >/dev/null 2>&1 || hard_error "loading $img failed"
	read -r t_sec t_feat t_lbs t_user t_valid < <(truth "$img")
	for which in OURS REF; do
		run "$which" dump.f2fs -d 1 "$img"
		[ "$(eval echo \$RC_$which)" -eq 0 ] || tap_fail "GParted: $which dump.f2fs -d 1 exit $(eval echo \$RC_$which)"
		cp "$TEST_TMP/$which.out" "$TEST_TMP/gp.$which"
	done
	read -r o_user o_valid o_lbs o_ss o_total < <(gp_parse "$TEST_TMP/gp.OURS")
	read -r r_user r_valid r_lbs r_ss r_total < <(gp_parse "$TEST_TMP/gp.REF")
	same_and_true "GParted dump.f2fs -d 1 ($mk mkfs): user_block_count" "$o_user" "$r_user" "$t_user"
	same_and_true "GParted dump.f2fs -d 1 ($mk mkfs): valid_block_count" "$o_valid" "$r_valid" "$t_valid"
	same_and_true "GParted dump.f2fs -d 1 ($mk mkfs): log_blocksize" "$o_lbs" "$r_lbs" "$t_lbs"
	same_and_true "GParted dump.f2fs -d 1 ($mk mkfs): total FS sectors" "$o_total" "$r_total" "$t_sec"
	same_and_true "GParted dump.f2fs -d 1 ($mk mkfs): Info: sector size (absent: -1)" "$o_ss" "$r_ss" -1
done

# ---- kpmcore: f2fslabel DEV LABEL; f2fslabel DEV as f2fs-tools prints it -------------------
for which in OURS REF; do
	img=$(mkvol "lb-$which.img" 128M REF)
	run "$which" f2fslabel "$img" "new label"
	rc=$(eval echo \$RC_$which)
	run REF f2fslabel "$img"
	got=$(sed -n 's/^Info: volume label = //p' "$TEST_TMP/REF.out")
	run OURS f2fslabel "$img"
	ours=$(sed -n 's/^Info: volume label = //p' "$TEST_TMP/OURS.out")
	if [ "$rc" -eq 0 ] && [ "$got" = "new label" ] && [ "$ours" = "new label" ]; then
		tap_ok "kpmcore: $which f2fslabel DEV LABEL: exit 0; both f2fslabel DEV print 'Info: volume label = new label'"
	else
		tap_fail "kpmcore: $which f2fslabel DEV LABEL: exit $rc; f2fs-tools reads '$got', ours '$ours'"
	fi
	both_fsck_clean "$img" "kpmcore: $which f2fslabel DEV LABEL"
done

# ---- Android mkf2fsuserimg.sh: sload's "Max image size" sizes the read-only image ----------
for which in OURS REF; do
	img=$(new_image "and-$which.img" 128M)
	"${REF[mkfs.f2fs]}" -g android -f "$img" >/dev/null 2>&1 ||
		{ tap_fail "Android: mkfs -g android failed"; continue; }
	if [ $which = OURS ]; then mk=${OURS[mkfs.f2fs]}; sl=${OURS[sload.f2fs]}; else mk=${REF[mkfs.f2fs]}; sl=${REF[sload.f2fs]}; fi
	log=$("$sl" -f "$SRC" -t /system -T 1000 "$img" 2>/dev/null)
	rc=$?
	mb=$(echo "$log" | grep "Max image size" | awk '{print $5}')
	if { [ $rc -ne 0 ] && [ $rc -ne 1 ]; } || ! [[ "$mb" =~ ^[0-9]+$ ]] || [ "$mb" -lt 1 ]; then
		tap_fail "Android: $which sload: exit $rc, Max image size '$mb'"
		continue
	fi
	# the read-only build, by the same build
	ro=$(new_image "and-ro-$which.img" $(((mb + 6) * 1024 * 1024)))
	"$mk" -g android -O ro -f "$ro" >/dev/null 2>&1 &&
		"$sl" -f "$SRC" -t /system -T 1000 "$ro" >/dev/null 2>&1
	rc=$?
	if { [ $rc -eq 0 ] || [ $rc -eq 1 ]; } && contents_ok "$ro"; then
		tap_ok "Android: $which sload prints Max image size $mb MB; the read-only image made at $((mb + 6)) MiB holds the tree"
	else
		tap_fail "Android: $which: Max image size $mb MB: the read-only image at $((mb + 6)) MiB: exit $rc, contents wrong"
	fi
	both_fsck_clean "$ro" "Android: $which's read-only image at its Max image size + 6 MiB"
done

# ---- genimage / Buildroot / OpenEmbedded: sload.f2fs -f DIR [-t /] IMG ---------------------
for args in "-f $SRC" "-f $SRC -t /"; do
	for which in OURS REF; do
		img=$(mkvol "gi-$which.img" 128M "$which")
		run "$which" sload.f2fs $args "$img"
		rc=$(eval echo \$RC_$which)
		if [ "$rc" -eq 0 ] && contents_ok "$img"; then
			tap_ok "genimage/Buildroot/OE: $which sload.f2fs ${args/$SRC/DIR} IMG: exit 0, the tree is there"
		else
			tap_fail "genimage/Buildroot/OE: $which sload.f2fs ${args/$SRC/DIR} IMG: exit $rc"
		fi
		both_fsck_clean "$img" "genimage/Buildroot/OE: $which sload.f2fs ${args/$SRC/DIR}"
	done
done

# ---- defrag.f2fs: f2fs-tools' own command line -------------------------------------------
for dargs in "" "-s 4096 -l 512 -t 8192" "-s 4096 -l 2048 -t 20480"; do
	for which in OURS REF; do
		img=$(mkvol "df-$which.img" 128M REF)
		"${OURS[sload.f2fs]}" -f "$SRC" "$img" >/dev/null 2>&1 || hard_error "loading failed"
		run "$which" defrag.f2fs $dargs "$img"
		rc=$(eval echo \$RC_$which)
		if [ "$rc" -eq 0 ] && contents_ok "$img"; then
			tap_ok "defrag.f2fs $dargs: $which exit 0, the files as before"
		else
			tap_fail "defrag.f2fs $dargs: $which exit $rc: $(tail -1 "$TEST_TMP/$which.err")"
		fi
		both_fsck_clean "$img" "defrag.f2fs $dargs ($which)"
	done
done

# ---- loop devices: the read and resize command lines on a block device -------------------
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1 &&
   l=$(losetup -f --show "$(new_image probe.img 1M)" 2>/dev/null); then
	losetup -d "$l"
	for which in OURS REF; do
		img=$(mkvol "loop-$which.img" 256M REF)
		dev=$(loop_attach "$img")
		run "$which" dump.f2fs "$dev"
		o=$(lbd_parse "$TEST_TMP/$which.out")
		run "$which" dump.f2fs -d 1 "$dev"
		g=$(gp_parse "$TEST_TMP/$which.out")
		t=$(truth "$img")
		if [ "$(echo "$o" | cut -d' ' -f2)" = "$(echo "$t" | cut -d' ' -f1)" ] &&
		   [ "$(echo "$g" | cut -d' ' -f1-2)" = "$(echo "$t" | cut -d' ' -f4-5)" ]; then
			tap_ok "loop device: $which dump.f2fs DEV and -d 1 DEV parse as the volume says"
		else
			tap_fail "loop device: $which dump: '$o' / '$g', volume '$t'"
		fi
		truncate -s 384M "$img"
		losetup -c "$dev"
		run "$which" resize.f2fs "$dev"
		rc=$(eval echo \$RC_$which)
		if [ "$rc" -eq 0 ] && [ "$(truth "$img" | cut -d' ' -f1)" = 786432 ]; then
			tap_ok "loop device: $which resize.f2fs DEV fills the grown device"
		else
			tap_fail "loop device: $which resize.f2fs DEV: exit $rc, $(truth "$img" | cut -d' ' -f1) sectors"
		fi
		run "$which" resize.f2fs -s -t 655360 "$dev"
		rc=$(eval echo \$RC_$which)
		if [ "$rc" -eq 0 ] && [ "$(truth "$img" | cut -d' ' -f1)" = 655360 ]; then
			tap_ok "loop device: $which resize.f2fs -s -t 655360 DEV"
		else
			tap_fail "loop device: $which resize.f2fs -s -t: exit $rc"
		fi
		if [ $which = REF ]; then
			REF_FSCK_ALLOW='Invalid CP CRC offset: 0\|fixing SIT types' \
				both_fsck_clean "$dev" "loop device: $which resize"
		else
			both_fsck_clean "$dev" "loop device: $which resize"
		fi
	done
else
	echo "# loop devices: none can be attached here; their cases are left out"
fi

tap_summary
