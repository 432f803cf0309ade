# vmlib.sh - host side of the kernel bench; sourced by tests/vm/*.sh.
#
# A scenario declares its disks, makes file systems on them, hands a guest
# script body to vm_guest, boots with vm_boot and checks the images on the
# host afterwards:
#
#   . "$top_srcdir/tests/vm/vmlib.sh"
#   vm_setup basic "what this scenario proves"
#   vm_disk data 512M               # raw image, a virtio disk with serial "data"
#   vm_mkfs data -O extra_attr      # our mkfs (or $ZF2FS_MKFS) on the image
#   vm_guest <<'EOF'                # runs in the guest under sh -e, with guest-lib.sh
#   zmount data /mnt/a
#   ...
#   EOF
#   vm_boot                         # one QEMU boot; fails the test unless ZVM-EXIT 0
#   vm_fsck data                    # Debian's fsck.f2fs (and ours when built) on the image
#   vm_finish
#
# Exit codes follow automake: 0 pass, 1 fail, 77 skip, 99 hard error.
# Environment (all optional):
#   ZF2FS_MKFS           mkfs under test (default: $top_builddir/mkfs/mkfs.f2fs)
#   ZF2FS_VM_KERNEL      kernel image (default: newest /boot/vmlinuz-* with modules); an
#                        image at ROOT/usr/lib/modules/VERSION/vmlinuz takes its modules
#                        from ROOT, and "newest" names Debian's newest kernel as
#                        tests/vm/fetch-kernel.sh unpacked it (the scenario's name then
#                        ends in "-newest", so that both kernels may run it at once);
#                        "newest-arm64-16k" names Debian's arm64 kernel with 16 KiB pages,
#                        booted under qemu-system-aarch64 with that kernel's busybox and
#                        a cross-built zwork (names end in "-arm64-16k")
#   ZF2FS_VM_QEMU        qemu binary (default: qemu-system-x86_64, or
#                        qemu-system-aarch64 for an arm64 kernel)
#   ZF2FS_VM_ACCEL       QEMU accelerator (default: tcg)
#   ZF2FS_VM_MEM         guest memory in MiB (default: 2048)
#   ZF2FS_VM_SMP         guest CPUs (default: 2)
#   ZF2FS_VM_TIMEOUT     hard limit for one boot in seconds (default: 600)
#   ZF2FS_VM_READY_TIMEOUT  seconds a guest has to reach its init's ZVM-READY line
#                        (default: 240); one that does not is booted once more
#   ZF2FS_VM_HOST_FSCK   host oracle (default: /usr/sbin/fsck.f2fs)
#   ZF2FS_VM_KEEP        1 keeps the disk images of a passing run

VM_LIBDIR=${top_srcdir:+$top_srcdir/tests/vm}
if [ -z "$top_srcdir" ]; then
	VM_LIBDIR=$(cd "$(dirname "$0")" && pwd)
	top_srcdir=$(cd "$VM_LIBDIR/../.." && pwd)
fi
: "${top_builddir:=$top_srcdir}"
top_builddir=$(cd "$top_builddir" && pwd)

VM_ROOT=$top_builddir/tests/vm
VM_QEMU=${ZF2FS_VM_QEMU:-}
VM_ACCEL=${ZF2FS_VM_ACCEL:-tcg}
VM_MEM=${ZF2FS_VM_MEM:-2048}
VM_SMP=${ZF2FS_VM_SMP:-2}
VM_TIMEOUT=${ZF2FS_VM_TIMEOUT:-600}
VM_READY_TIMEOUT=${ZF2FS_VM_READY_TIMEOUT:-240}
VM_HOST_FSCK=${ZF2FS_VM_HOST_FSCK:-/usr/sbin/fsck.f2fs}
VM_MKFS=${ZF2FS_MKFS:-$top_builddir/mkfs/mkfs.f2fs}
VM_OUR_FSCK=$top_builddir/fsck/fsck.f2fs
# Debian's python3 before any other on PATH: a version manager's shim (pyenv's runs
# pyenv, a bash script) costs most of a second a start.
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
	mkdir -p "$VM_ROOT/cache/python" && ln -sf /usr/bin/python3 "$VM_ROOT/cache/python/python3" &&
		PATH="$VM_ROOT/cache/python:$PATH" && export PATH
fi
# Modules the guest needs; their dependencies are resolved with modinfo.
# The generic crypto providers come first: crc-t10dif, crc64-rocksoft and
# f2fs only ask for them through soft dependencies, and quota_v2 is
# requested by the kernel at mount time (f2fs quota files use its format).
# fscrypt's ciphers (AES-256-XTS and CTS, Adiantum, HKDF-SHA512) are templates and
# modules the kernel would ask modprobe for, which the guest does not run.
VM_MODULES="crc32_generic crc32c_generic libcrc32c crct10dif_generic
crc64_rocksoft_generic configfs virtio virtio_ring virtio_pci virtio_blk
nvme null_blk quota_v2 zstd_compress lz4_compress lz4hc_compress f2fs
ecb xts cts sha512_generic chacha_generic chacha poly1305_generic nhpoly1305 adiantum"
# Of those, the ones one kernel has and another builds in or names differently (kernels
# after 6.1 build the CRC and SHA-512 algorithms in, and call the ChaCha module chacha):
# a kernel without them goes on without them.
VM_MODULES_BY_VERSION="crc32_generic crc32c_generic libcrc32c crct10dif_generic
crc64_rocksoft_generic sha512_generic chacha_generic chacha poly1305_generic nhpoly1305"
# Bumped when the layout of the base archive changes.
VM_BASE_FORMAT=1

VM_FAILED=0
VM_BOOTS=0
VM_DISK_ARGS=
VM_DISK_NAMES=
VM_EXTRA_TOOLS=
VM_NVME_COUNT=0

vm_log() {
	echo "vm: $*"
}

vm_skip() {
	echo "SKIP: $VM_NAME: $*"
	exit 77
}

vm_error() {
	echo "ERROR: $VM_NAME: $*"
	exit 99
}

# vm_fail TEXT: record a failure and go on, so one run shows every fault.
vm_fail() {
	echo "FAIL: $VM_NAME: $*"
	VM_FAILED=1
}

vm_is_elf() {
	[ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' \n')" = '177ELF' ]
}

# ---- prerequisites --------------------------------------------------------------

vm_find_kernel() {
	VM_MODROOT=
	VM_KERNEL=${ZF2FS_VM_KERNEL:-}
	case $VM_KERNEL in
	newest)
		VM_KERNEL=$(sh "$VM_LIBDIR/fetch-kernel.sh" --cached) ||
			vm_skip "Debian's newest kernel is not fetched (tests/vm/fetch-kernel.sh; ./quickstart check runs it)" ;;
	newest-*)
		VM_KERNEL=$(sh "$VM_LIBDIR/fetch-kernel.sh" --flavour "${VM_KERNEL#newest-}" --cached) ||
			vm_skip "Debian's newest ${ZF2FS_VM_KERNEL#newest-} kernel is not fetched (tests/vm/fetch-kernel.sh --flavour ${ZF2FS_VM_KERNEL#newest-}; ./quickstart check runs it)" ;;
	esac
	if [ -n "$VM_KERNEL" ]; then
		case $VM_KERNEL in
		*/usr/lib/modules/*/vmlinuz)
			VM_KVER=$(basename "$(dirname "$VM_KERNEL")")
			VM_MODROOT=${VM_KERNEL%/usr/lib/modules/*}
			;;
		*) VM_KVER=$(basename "$VM_KERNEL" | sed 's/^vmlinuz-//') ;;
		esac
		return
	fi
	for k in $(ls -1 /boot/vmlinuz-* 2>/dev/null | sort -V); do
		v=${k#/boot/vmlinuz-}
		[ -d "/lib/modules/$v/kernel" ] || continue
		VM_KERNEL=$k
		VM_KVER=$v
	done
}

vm_check_prereqs() {
	[ "${ZF2FS_SKIP_VM:-0}" = 1 ] &&
		vm_skip "ZF2FS_SKIP_VM=1 (the kernel scenarios already ran in this check)"
	vm_find_kernel
	# The guest's architecture is the kernel's: Debian names arm64 kernels so.
	case $VM_KVER in
	*-arm64*) VM_ARCH=arm64 ;;
	*) VM_ARCH=amd64 ;;
	esac
	if [ "$VM_ARCH" = arm64 ]; then
		: "${VM_QEMU:=qemu-system-aarch64}"
		VM_MACHINE="-M virt -cpu max"
		VM_CONSOLE_DEV=ttyAMA0
		VM_QEMU_PKG=qemu-system-arm
	else
		: "${VM_QEMU:=qemu-system-x86_64}"
		VM_MACHINE="-cpu max"
		VM_CONSOLE_DEV=ttyS0
		VM_QEMU_PKG=qemu-system-x86
	fi
	command -v "$VM_QEMU" >/dev/null 2>&1 ||
		vm_skip "$VM_QEMU not found (Debian: apt-get install $VM_QEMU_PKG)"
	# Kernels after 6.1 patch their own code on one CPU while another runs it (static
	# keys, early in the boot); with one host thread per guest CPU, TCG may run the
	# stale copy and the boot dies of an int3 oops (seen with 7.3): one host thread for
	# all guest CPUs keeps the code coherent.
	# gc.f2fs replays and collects as the kernel under test picks its victims (it
	# knows 6.1's GC and 7.3's)
	case $VM_KVER in
	6.1|6.1.*|6.1-*) VM_GC_KERNEL=6.1 ;;
	*) VM_GC_KERNEL=7.3 ;;
	esac
	VM_ACCEL_OPTS=
	case $VM_ACCEL:$VM_KVER in
	tcg:[1-5].*|tcg:6.[01].*|tcg:6.[01]) ;;
	tcg:*) VM_ACCEL_OPTS=,thread=single ;;
	esac
	[ -n "$VM_KERNEL" ] ||
		vm_skip "no /boot/vmlinuz-* with modules in /lib/modules (Debian: apt-get install linux-image-amd64)"
	[ -r "$VM_KERNEL" ] ||
		vm_skip "$VM_KERNEL is not readable (Debian installs it mode 0600: chmod 0644 it, or run as root)"
	[ -d "$VM_MODROOT/lib/modules/$VM_KVER" ] || vm_skip "$VM_MODROOT/lib/modules/$VM_KVER missing"
	command -v modinfo >/dev/null 2>&1 || vm_skip "modinfo not found (Debian: kmod)"
	VM_BUSYBOX=
	if [ "$VM_ARCH" = arm64 ]; then
		# tests/vm/fetch-kernel.sh unpacks the arm64 busybox beside the kernel
		[ -x "$VM_MODROOT/busybox" ] && VM_BUSYBOX=$VM_MODROOT/busybox
		[ -n "$VM_BUSYBOX" ] || vm_skip "no arm64 busybox in $VM_MODROOT (tests/vm/fetch-kernel.sh --flavour fetches it)"
	else
		for b in /bin/busybox /usr/bin/busybox; do
			if [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1; then
				VM_BUSYBOX=$b
				break
			fi
		done
		[ -n "$VM_BUSYBOX" ] || vm_skip "no static busybox (Debian: apt-get install busybox-static)"
	fi
	command -v cpio >/dev/null 2>&1 || vm_skip "cpio not found"
	command -v timeout >/dev/null 2>&1 || vm_skip "timeout not found (coreutils)"
}

# ---- archives ---------------------------------------------------------------------

vm_modinfo() {
	modinfo ${VM_MODROOT:+-b "$VM_MODROOT"} -k "$VM_KVER" "$@" 2>/dev/null
}

vm_modfile() {
	vm_modinfo -F filename "$1" | grep -v '^(builtin)' | head -n 1
}

# Depth-first walk over "depends": collects module paths in VM_MOD_ORDER,
# dependencies first.
vm_visit_module() {
	local f d
	f=$(vm_modfile "$1")
	if [ -z "$f" ]; then
		vm_modinfo -F filename "$1" | grep -q '(builtin)' && return 0
		case " $(echo $VM_MODULES_BY_VERSION) " in *" $1 "*) return 0 ;; esac
		echo "vm: module $1 not found for $VM_KVER" >&2
		return 1
	fi
	case "$VM_MOD_SEEN" in *" $f "*) return 0 ;; esac
	VM_MOD_SEEN="$VM_MOD_SEEN$f "
	for d in $(vm_modinfo -F depends "$f" | tr ',' ' '); do
		vm_visit_module "$d" || return 1
	done
	VM_MOD_ORDER="$VM_MOD_ORDER $f"
}

vm_resolve_modules() {
	VM_MOD_SEEN=" "
	VM_MOD_ORDER=
	for m in $VM_MODULES; do
		vm_visit_module "$m" || return 1
	done
}

# The base archive: busybox and the modules, built once per kernel.
vm_build_base() {
	key=$( (echo "$VM_BASE_FORMAT $VM_MODULES"; ls -lL "$VM_BUSYBOX" "$VM_MODROOT/lib/modules/$VM_KVER/modules.dep") |
		sha256sum | cut -c1-12)
	VM_BASE=$VM_ROOT/cache/$VM_KVER/base-$key.cpio
	[ -s "$VM_BASE" ] && return 0
	vm_log "building the base initramfs for $VM_KVER (cached in $VM_BASE)"
	mkdir -p "$VM_ROOT/cache/$VM_KVER"
	stage=$(mktemp -d "$VM_ROOT/cache/$VM_KVER/stage.XXXXXX")
	mkdir -p "$stage/bin" "$stage/lib/modules/$VM_KVER"
	cp "$VM_BUSYBOX" "$stage/bin/busybox"
	vm_resolve_modules || { rm -rf "$stage"; vm_error "cannot resolve the module list"; }
	mods=$VM_MOD_ORDER
	: >"$stage/lib/modules/load.list"
	for f in $mods; do
		rel=${f#"$VM_MODROOT"}
		rel=${rel#/lib/modules/$VM_KVER/}
		mkdir -p "$stage/lib/modules/$VM_KVER/$(dirname "$rel")"
		# busybox insmod loads plain .ko files: decompress the others
		case "$f" in
		*.ko.xz) rel=${rel%.xz}; xz -dc "$f" >"$stage/lib/modules/$VM_KVER/$rel" ;;
		*.ko.zst) rel=${rel%.zst}; zstd -qdc "$f" >"$stage/lib/modules/$VM_KVER/$rel" ;;
		*.ko.gz) rel=${rel%.gz}; gzip -dc "$f" >"$stage/lib/modules/$VM_KVER/$rel" ;;
		*) cp "$f" "$stage/lib/modules/$VM_KVER/$rel" ;;
		esac || { rm -rf "$stage"; vm_error "cannot copy module $f"; }
		case "$rel" in
		*/null_blk.ko) echo "$rel nr_devices=0" ;;
		*) echo "$rel" ;;
		esac >>"$stage/lib/modules/load.list"
	done
	(cd "$stage" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) >"$stage.cpio" ||
		{ rm -rf "$stage" "$stage.cpio"; vm_error "cpio failed"; }
	rm -rf "$stage"
	mv "$stage.cpio" "$VM_BASE"
	vm_log "base initramfs: $(echo $mods | wc -w) modules, $(du -k "$VM_BASE" | cut -f1) KiB"
}

# vm_copy_elf SRC DEST: DEST inside the guest; its shared libraries go to
# /lib (always searched) and the loader to its own path.  A libtool wrapper
# script is replaced by the real program in .libs/.
vm_copy_elf() {
	src=$1
	dest=$VM_STAGE$2
	lddrun="ldd"
	real=$src
	if ! vm_is_elf "$src"; then
		d=$(dirname "$src")
		b=$(basename "$src")
		if [ -f "$d/.libs/lt-$b" ] && vm_is_elf "$d/.libs/lt-$b"; then
			real=$d/.libs/lt-$b
		elif [ -f "$d/.libs/$b" ] && vm_is_elf "$d/.libs/$b"; then
			real=$d/.libs/$b
		else
			vm_error "$src is neither an ELF file nor a libtool wrapper"
		fi
		[ -x "$top_builddir/libtool" ] && lddrun="$top_builddir/libtool --mode=execute ldd"
	fi
	mkdir -p "$(dirname "$dest")" "$VM_STAGE/lib"
	cp -L "$real" "$dest"
	libs=$($lddrun "$src" 2>/dev/null) || return 0	# static
	echo "$libs" | while read -r a b c rest; do
		case "$a $b $c" in
		*"not found"*) echo "vm: $src: library $a not found" >&2 ;;
		*" => /"*) cp -L "$c" "$VM_STAGE/lib/$a" ;;
		/*) mkdir -p "$VM_STAGE$(dirname "$a")"; cp -L "$a" "$VM_STAGE$a" ;;
		esac
	done
}

# vm_build_zwork CC PACKAGE OUT: the static helper built with CC into OUT unless it is
# newer than its sources (PACKAGE names what CC comes from, for the skip message)
vm_build_zwork() {
	if [ ! -x "$3" ] || [ "$top_srcdir/tests/vm/zwork.c" -nt "$3" ] ||
	   [ "$top_srcdir/tests/vm/zwork_content.c" -nt "$3" ] ||
	   [ "$top_srcdir/tests/vm/sha256.c" -nt "$3" ]; then
		mkdir -p "$VM_ROOT/cache"
		command -v "$1" >/dev/null 2>&1 || vm_skip "$1 not found (Debian: apt-get install $2)"
		"$1" -std=gnu11 -O2 -static -o "$3" \
			"$top_srcdir/tests/vm/zwork.c" "$top_srcdir/tests/vm/zwork_content.c" \
			"$top_srcdir/tests/vm/sha256.c" ||
			vm_skip "cannot build the static helper with $1 (needs $2 for static linking)"
	fi
}

# VM_ZWORK, the helper the guest runs, and VM_HOST_ZWORK, the same helper for the host
# (manifests of host trees); one file when the guest is the host's architecture
vm_find_zwork() {
	VM_HOST_ZWORK=$top_builddir/tests/vm/zwork
	if ! [ -x "$VM_HOST_ZWORK" ] || ! vm_is_elf "$VM_HOST_ZWORK"; then
		# run by hand without make: the helper built into the cache
		VM_HOST_ZWORK=$VM_ROOT/cache/zwork
		vm_build_zwork "${CC:-gcc}" libc6-dev "$VM_HOST_ZWORK"
	fi
	VM_ZWORK=$VM_HOST_ZWORK
	if [ "$VM_ARCH" = arm64 ]; then
		# the guest runs arm64 code: a cross-built helper, kept in the cache
		VM_ZWORK=$VM_ROOT/cache/zwork-arm64
		vm_build_zwork aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu "$VM_ZWORK"
	fi
}

# ---- scenario API -------------------------------------------------------------------

# vm_setup NAME DESCRIPTION
vm_setup() {
	VM_NAME=$1
	# what a scenario keeps (console, images, fixtures) is named for its kernel
	case ${ZF2FS_VM_KERNEL:-} in
	newest) VM_KSUFFIX=-newest ;;
	newest-*) VM_KSUFFIX=-${ZF2FS_VM_KERNEL#newest-} ;;
	*) VM_KSUFFIX= ;;
	esac
	VM_NAME=$1$VM_KSUFFIX
	echo "vm: $VM_NAME: $2"
	vm_check_prereqs
	VM_OUT=$VM_ROOT/out/$VM_NAME
	VM_CONSOLE=$VM_ROOT/out/$VM_NAME.console.log
	rm -rf "$VM_OUT"
	mkdir -p "$VM_OUT"
	: >"$VM_CONSOLE"
	vm_find_zwork
	vm_build_base
	vm_log "kernel $VM_KERNEL, mkfs $VM_MKFS, console log $VM_CONSOLE"
}

vm_img() {
	echo "$VM_OUT/$1.img"
}

# vm_image NAME SIZE: a sparse raw image, not attached yet.
vm_image() {
	rm -f "$(vm_img "$1")"
	truncate -s "$2" "$(vm_img "$1")"
}

# vm_disk NAME SIZE [BLOCK_SIZE]: a sparse raw image as a virtio disk.
vm_disk() {
	vm_image "$1" "$2"
	vm_attach "$1" "${3:-}"
}

# vm_attach NAME [BLOCK_SIZE]: attach an image as a virtio disk whose
# serial is NAME (zdisk NAME finds it in the guest).
vm_attach() {
	bs=
	[ -z "$2" ] || bs=",logical_block_size=$2,physical_block_size=$2"
	VM_DISK_ARGS="$VM_DISK_ARGS -drive file=$(vm_img "$1"),format=raw,if=none,id=d_$1,cache=unsafe -device virtio-blk-pci,drive=d_$1,serial=$1$bs"
	VM_DISK_NAMES="$VM_DISK_NAMES $1"
}

# vm_detach_all: forget the attached disks (before the next boot).
vm_detach_all() {
	VM_DISK_ARGS=
	VM_DISK_NAMES=
	VM_NVME_COUNT=0
}

# vm_zns NAME SIZE ZONE_SIZE ZONE_CAPACITY: an NVMe controller with one
# zoned namespace of 4096-byte blocks; the guest finds it by NAME.
vm_zns() {
	rm -f "$(vm_img "$1")"
	truncate -s "$2" "$(vm_img "$1")"
	n=$VM_NVME_COUNT
	VM_NVME_COUNT=$((n + 1))
	VM_DISK_ARGS="$VM_DISK_ARGS -drive file=$(vm_img "$1"),format=raw,if=none,id=d_$1,cache=unsafe -device nvme,id=nvme$n,serial=$1,zoned.zasl=5 -device nvme-ns,drive=d_$1,bus=nvme$n,nsid=1,zoned=true,zoned.zone_size=$3,zoned.zone_capacity=$4,logical_block_size=4096,physical_block_size=4096"
	VM_DISK_NAMES="$VM_DISK_NAMES $1"
}

# vm_mkfs NAME [OPTIONS...]: the mkfs under test on the host image, then
# Debian's fsck on the fresh image.  Returns non-zero when mkfs failed.
vm_mkfs() {
	name=$1
	shift
	[ -x "$VM_MKFS" ] || vm_error "mkfs not found: $VM_MKFS (build it, or set ZF2FS_MKFS)"
	vm_log "mkfs $name: $VM_MKFS -f $* $(vm_img "$name")"
	if ! "$VM_MKFS" -f "$@" "$(vm_img "$name")" >"$VM_OUT/$name.mkfs.log" 2>&1; then
		sed 's/^/  mkfs: /' "$VM_OUT/$name.mkfs.log"
		return 1
	fi
	vm_fsck "$name" "after mkfs"
}

# vm_tool PATH GUEST_NAME: a host program (and its shared libraries)
# copied into the guest as /zvm/bin/GUEST_NAME, or as GUEST_NAME when that
# is an absolute path (f2fs-tools pick their personality by program name).
vm_tool() {
	# the machine's programs do not run in another architecture's guest
	[ "$VM_ARCH" = amd64 ] ||
		vm_skip "$1 runs on the host only: the $VM_ARCH guest takes busybox and zwork alone"
	VM_EXTRA_TOOLS="$VM_EXTRA_TOOLS $1:$2"
}

# vm_change NAME TOOL ARGS...: a host tool that changes image NAME, which must succeed
# (its output in out/<name>.tools.log)
vm_change() {
	tn=$1
	shift
	if "$@" >>"$VM_OUT/$tn.tools.log" 2>&1; then
		vm_log "$tn: $(basename "$1") ${2:-}: done"
	else
		vm_fail "$tn: $* failed: exit $? (output in $VM_OUT/$tn.tools.log)"
		tail -n 5 "$VM_OUT/$tn.tools.log" | sed 's/^/  tool: /'
	fi
}

# vm_all_tools: our mkfs, fsck, dump and gc (which must be built) and Debian's fsck (when
# installed, as /zvm/debian/fsck.f2fs) copied into the guest, for scenarios that run the
# tools on the guest's own devices.
vm_all_tools() {
	[ -x "$VM_MKFS" ] || vm_error "mkfs not found: $VM_MKFS (build it, or set ZF2FS_MKFS)"
	for t in fsck/fsck.f2fs tools/dump.f2fs tools/gc.f2fs; do
		[ -x "$top_builddir/$t" ] || vm_error "$t is not built"
	done
	vm_tool "$VM_MKFS" mkfs.f2fs
	vm_tool "$top_builddir/fsck/fsck.f2fs" fsck.f2fs
	vm_tool "$top_builddir/tools/dump.f2fs" dump.f2fs
	vm_tool "$top_builddir/tools/gc.f2fs" gc.f2fs
	[ ! -x "$VM_HOST_FSCK" ] || vm_tool "$VM_HOST_FSCK" /zvm/debian/fsck.f2fs
}

# vm_case_image NAME CASE SIZE: image NAME (SIZE bytes) holds the corrupted volume of the
# fsck corpus case CASE (tests/images/corpus/CASE, made by fsck_case_image.sh).
vm_case_image() {
	vm_image "$1" "$3"
	bash "$top_srcdir/tests/images/fsck_case_image.sh" "$2" "$(vm_img "$1")" \
		>"$VM_OUT/$2.setup.log" 2>&1 || vm_error "$2: making the corrupted image failed"
}

# vm_case_repair NAME CASE: our fsck -y on image NAME, which must exit as the case's
# expect.1 says (1 when it names no status).
vm_case_repair() {
	"$VM_OUR_FSCK" -y "$(vm_img "$1")" >"$VM_OUT/$2.repair.log" 2>&1
	_rc=$?
	_want=$(sed -n 's/^Exit status is //p' "$top_srcdir/tests/images/corpus/$2/expect.1" 2>/dev/null)
	[ "$_rc" -eq "${_want:-1}" ] ||
		vm_fail "$2: fsck -y exit $_rc, expected ${_want:-1} (see $VM_OUT/$2.repair.log)"
}

# vm_manifest IMG: "sha256 path" of every regular file our dump.f2fs extracts from IMG,
# sorted by path in the C locale (join with LC_ALL=C); a failed extract is noted on stderr.
vm_manifest() {
	rm -rf "$VM_OUT/tree"
	"$top_builddir/tools/dump.f2fs" --extract / -o "$VM_OUT/tree" "$1" >/dev/null \
		2>"$VM_OUT/extract.err" ||
		vm_log "dump.f2fs --extract of $1: $(head -1 "$VM_OUT/extract.err")" >&2
	(cd "$VM_OUT/tree" && find . -type f -exec sha256sum {} +) |
		sed 's|^\([0-9a-f]*\)  \./|\1 /|' | LC_ALL=C sort -k2
	rm -rf "$VM_OUT/tree"
}

# vm_boot_cases PREFIX WALK NAME...: one boot with the images PREFIX1, PREFIX2, ... (one
# per NAME, in order) as its only disks, and as guest body what the shell function WALK
# prints, after a line setting PAIRS to "PREFIXi:NAME ..." for it to loop over.
vm_boot_cases() {
	_prefix=$1 _walk=$2
	shift 2
	vm_detach_all
	_pairs= _i=0
	for _name in "$@"; do
		_i=$((_i + 1))
		vm_attach "$_prefix$_i"
		_pairs="$_pairs $_prefix$_i:$_name"
	done
	{ echo "PAIRS='$_pairs'"; "$_walk"; } | vm_guest
	vm_boot
}

# vm_guest: the scenario body for the next boot, read from stdin.
vm_guest() {
	cat >"$VM_OUT/scenario.sh"
}

vm_build_overlay() {
	VM_STAGE=$VM_OUT/stage
	rm -rf "$VM_STAGE"
	mkdir -p "$VM_STAGE/zvm/bin"
	cp "$VM_LIBDIR/guest-init.sh" "$VM_STAGE/init"
	chmod 755 "$VM_STAGE/init"
	cp "$VM_LIBDIR/guest-lib.sh" "$VM_STAGE/zvm/lib.sh"
	cp "$VM_OUT/scenario.sh" "$VM_STAGE/zvm/scenario.sh"
	echo "$VM_DISK_NAMES" | tr ' ' '\n' | sed '/^$/d' >"$VM_STAGE/zvm/disks"
	cp "$VM_ZWORK" "$VM_STAGE/zvm/bin/zwork"
	for t in $VM_EXTRA_TOOLS; do
		case "${t#*:}" in
		/*) vm_copy_elf "${t%%:*}" "${t#*:}" ;;
		*) vm_copy_elf "${t%%:*}" "/zvm/bin/${t#*:}" ;;
		esac
	done
	(cd "$VM_STAGE" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) \
		>"$VM_OUT/overlay.cpio" || vm_error "cpio failed"
	cat "$VM_BASE" "$VM_OUT/overlay.cpio" >"$VM_OUT/initrd.cpio"
}

# vm_run_qemu: one run of the machine, its console in $log and its exit status in $qrc
# (124 or 137: the hard timeout; 125: no ZVM-READY within VM_READY_TIMEOUT, the machine
# stopped there).
vm_run_qemu() {
	# shellcheck disable=SC2086 # the machine's and the disks' arguments are words
	timeout -k 10 "$VM_TIMEOUT" "$VM_QEMU" -accel "$VM_ACCEL$VM_ACCEL_OPTS" $VM_MACHINE \
		-m "$VM_MEM" -smp "$VM_SMP" -nographic -no-reboot -nic none \
		-kernel "$VM_KERNEL" -initrd "$VM_OUT/initrd.cpio" \
		-append "console=$VM_CONSOLE_DEV panic=-1 quiet" \
		$VM_DISK_ARGS </dev/null >"$log" 2>&1 &
	_qpid=$!
	_waited=0
	while kill -0 "$_qpid" 2>/dev/null && ! grep -q 'ZVM-READY' "$log"; do
		if [ "$_waited" -ge "$VM_READY_TIMEOUT" ]; then
			# timeout passes the signal on to the machine
			kill "$_qpid" 2>/dev/null
			wait "$_qpid"
			qrc=125
			return
		fi
		sleep 1
		_waited=$((_waited + 1))
	done
	wait "$_qpid"
	qrc=$?
}

# vm_boot: one boot with the attached disks and the current vm_guest body.
# Fails the test unless the guest reports ZVM-EXIT 0 and the kernel log is
# free of oopses, warnings, f2fs errors and write errors.  VM_ALLOW_KLOG (an ERE) lists
# kernel error lines a scenario expects.
vm_boot() {
	VM_BOOTS=$((VM_BOOTS + 1))
	log=$VM_OUT/boot$VM_BOOTS.log
	vm_build_overlay
	vm_log "boot $VM_BOOTS: disks:$VM_DISK_NAMES"
	t0=$(date +%s)
	vm_run_qemu
	if [ "$qrc" -eq 125 ]; then
		# The kernel hung before our init got the disks ready (under TCG on a loaded
		# host, rarely: nothing after the firmware's "Booting from ROM").  Nothing has
		# touched the disks yet, so the same boot runs again, once, and says so.
		{
			echo "==== $VM_NAME boot $VM_BOOTS: no ZVM-READY after $VM_READY_TIMEOUT s ===="
			tr -d '\r' <"$log"
		} >>"$VM_CONSOLE"
		vm_log "boot $VM_BOOTS: no ZVM-READY after $VM_READY_TIMEOUT s (the kernel hung before our init ran the scenario): booting again"
		vm_run_qemu
	fi
	VM_BOOT_SECONDS=$(( $(date +%s) - t0 ))
	# drop carriage returns and the terminal resets the firmware prints
	tr -d '\r' <"$log" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1bc//g' >"$log.tmp" &&
		mv "$log.tmp" "$log"
	{
		echo "==== $VM_NAME boot $VM_BOOTS: $VM_BOOT_SECONDS s, qemu exit $qrc ===="
		cat "$log"
	} >>"$VM_CONSOLE"
	vm_log "boot $VM_BOOTS: $VM_BOOT_SECONDS s (qemu exit $qrc), log in $VM_CONSOLE"
	# the scenario's own lines, for the test log
	grep -E '^(ZVM-|zwork|fill:|overwrite:|tree:|manifest:|verify:|checkfile:|writefile:|gc:|mounted:|unmounted:|info:)' "$log" |
		grep -vE '^ZVM-DMESG' | sed 's/^/  guest: /'

	[ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ] &&
		vm_fail "boot $VM_BOOTS: killed after the hard timeout of $VM_TIMEOUT s"
	[ "$qrc" -eq 125 ] &&
		vm_fail "boot $VM_BOOTS: stopped twice without ZVM-READY after $VM_READY_TIMEOUT s"
	if ! grep -q 'ZVM-READY' "$log"; then
		vm_fail "boot $VM_BOOTS: the guest did not get ready (see $VM_CONSOLE)"
		tail -n 30 "$log" | sed 's/^/  console: /'
		return 1
	fi
	st=$(sed -n 's/.*ZVM-EXIT \([0-9]*\).*/\1/p' "$log" | tail -n 1)
	if [ -z "$st" ]; then
		vm_fail "boot $VM_BOOTS: no ZVM-EXIT line: the guest died or hung"
		tail -n 30 "$log" | sed 's/^/  console: /'
	elif [ "$st" -ne 0 ]; then
		vm_fail "boot $VM_BOOTS: the guest scenario exited with $st"
		grep -v '^<' "$log" | grep -B 15 "^ZVM-EXIT" | sed 's/^/  console: /'
	fi
	vm_check_klog "$log"
	[ "$VM_FAILED" -eq 0 ]
}

# Kernel lines that fail a boot: oopses, warnings, and f2fs messages at
# error level or above (dmesg -r prints "<level>"; the first number of
# "<facility*8+level>" lines is reduced to the level).
vm_check_klog() {
	bad=$(sed -n '/^ZVM-DMESG-BEGIN/,/^ZVM-DMESG-END/p' "$1" |
		awk '{
			if (match($0, /^<[0-9]+>/)) {
				lvl = substr($0, 2, RLENGTH - 2) % 8
				if (lvl <= 3 && $0 ~ /F2FS|f2fs/) { print; next }
			}
			if ($0 ~ /BUG:|Oops|WARNING:|Call Trace|Kernel panic|general protection|kernel BUG/) print
			# a device refused a write: the file system lost data the test then
			# misreads (a zoned namespace written out of order, for one)
			else if ($0 ~ /I\/O error, dev .* op 0x1:\(WRITE\)/) print
		}')
	if [ -n "$VM_ALLOW_KLOG" ] && [ -n "$bad" ]; then
		bad=$(echo "$bad" | grep -vE "$VM_ALLOW_KLOG")
	fi
	if [ -n "$bad" ]; then
		vm_fail "boot $VM_BOOTS: the kernel reported problems:"
		echo "$bad" | head -n 40 | sed 's/^/  kernel: /'
	fi
	# f2fs lines of any level, for the test log
	sed -n '/^ZVM-DMESG-BEGIN/,/^ZVM-DMESG-END/p' "$1" | grep -E 'F2FS|f2fs' |
		head -n 40 | sed 's/^/  kernel: /'
}

# vm_log_blocksize IMAGE: the first superblock's log_blocksize (12: 4 KiB blocks).
vm_log_blocksize() {
	od -An -tu4 -j 1040 -N 4 "$1" | tr -d ' '
}

# vm_fsck NAME [WHEN]: Debian's fsck.f2fs read-only on the image must find
# nothing (on 4 KiB blocks, all it reads); our fsck runs too once it is built.
# Output in out/<name>/.
vm_fsck() {
	img=$(vm_img "$1")
	when=${2:-after the guest}
	tag=$(echo "$when" | tr -c 'a-z0-9\n' '-')
	out=$VM_OUT/$1.fsck-$tag.log
	if [ "$(vm_log_blocksize "$img")" != 12 ]; then
		vm_log "$1: $VM_HOST_FSCK $when: skipped, 1.15 reads only 4 KiB blocks"
	elif [ -x "$VM_HOST_FSCK" ]; then
		# no -f: with it, 1.15 rebuilds nat_bits and reports them "corrupted"
		"$VM_HOST_FSCK" --dry-run "$img" >"$out" 2>&1
		rc=$?
		problems=$(vm_fsck_problems "$out")
		if [ "$rc" -ne 0 ] || [ -n "$problems" ]; then
			vm_fail "$1: $VM_HOST_FSCK $when: exit $rc (full output in $out)"
			{ echo "$problems"; tail -n 20 "$out"; } | sed '/^$/d' | sed 's/^/  fsck: /'
		else
			vm_log "$1: $VM_HOST_FSCK $when: clean"
		fi
	else
		vm_log "$1: no host fsck at $VM_HOST_FSCK, oracle skipped"
	fi
	if [ -x "$VM_OUR_FSCK" ]; then
		"$VM_OUR_FSCK" -n "$img" >"$out.ours" 2>&1
		rc=$?
		if [ "$rc" -ne 0 ]; then
			vm_fail "$1: our fsck $when: exit $rc (output in $out.ours)"
			tail -n 20 "$out.ours" | sed 's/^/  our fsck: /'
		else
			vm_log "$1: our fsck $when: clean"
		fi
	fi
}

# Lines of Debian's fsck.f2fs output that mean trouble even with exit 0:
# failed [FSCK] checks, fixes it would make (quota files included), and corruption notices.
vm_fsck_problems() {
	grep -E '\[Fail\]|\[FIX\]|[Cc]orrupt|[Ii]nvalid|[Mm]ismatch|[Ww]rong|Duplicate valid checkpoint|Write valid nat_bits|[Ee]rror|ERROR|Fixing Quota' "$1" |
		grep -vE 'Info: Dry run|\[Ok\.\.\]'
}

# vm_finish: removes the images of a passing run and exits.
vm_finish() {
	if [ "$VM_FAILED" -ne 0 ]; then
		echo "vm: $VM_NAME FAILED; images and logs kept in $VM_OUT, console in $VM_CONSOLE"
		exit 1
	fi
	if [ "${ZF2FS_VM_KEEP:-0}" != 1 ]; then
		rm -f "$VM_OUT"/*.img "$VM_OUT/initrd.cpio"
		rm -rf "$VM_OUT/stage"
	fi
	echo "vm: $VM_NAME passed ($VM_BOOTS boots)"
	exit 0
}
