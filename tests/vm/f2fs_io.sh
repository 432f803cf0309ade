#!/bin/sh
# f2fs_io.sh - our f2fs_io and fibmap.f2fs against Linux 6.1, one boot.
#
# Every f2fs_io command Linux 6.1 supports runs on a volume made by our mkfs
# (extra_attr, compression, verity, casefold, encrypt) and its effect is read back:
# flags set and cleared as getflags and the kernel's behaviour show them (an immutable
# file refuses writes, a casefolded directory finds a name in another case), a pinned
# file's blocks unmoved by foreground GC and gc_range refused on them while it moves
# another file's, released and reserved compressed blocks, a checkpoint and GC calls
# counted by the kernel, gc_urgent as sysfs shows it, atomic writes
# committed and aborted, punched holes found by lseek, xattrs and the advise bits, moved
# and copied data compared, freeze and thaw, shutdown then a remount with the data
# intact; commands Linux 6.1 lacks (ioprio, atomic replace) fail there with the kernel's
# error, exit 1, and work on later kernels.  Where Debian's f2fs-tools 1.15 has the command with the same output
# (getflags, setflags, fallocate, fiemap, pinfile get, get_cblocks, get_coption,
# get_filename_encrypt_mode, fibmap.f2fs), its binary runs in the guest too and both
# outputs must be equal.  The guest runs static builds of ours (tests/vm/f2fs_io and
# fibmap.f2fs: the guest has busybox only) and Debian's with its shared libraries.
# Host: fibmap's and fiemap's block addresses of a file with a hole equal the block map
# our dump.f2fs reads from the unmounted image; both fscks find the volume clean.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup f2fs_io "f2fs_io and fibmap.f2fs on Linux 6.1: every supported command, effect read back"

IO_BIN=$top_builddir/tests/vm/f2fs_io
FIBMAP_BIN=$top_builddir/tests/vm/fibmap.f2fs
# make check builds them (check_PROGRAMS); run by hand, make them here
if [ ! -x "$IO_BIN" ] || [ ! -x "$FIBMAP_BIN" ]; then
	make -C "$top_builddir" tests/vm/f2fs_io tests/vm/fibmap.f2fs >"$VM_OUT/build.log" 2>&1 ||
		vm_skip "cannot build the static f2fs_io and fibmap.f2fs (needs libc6-dev for static linking; $VM_OUT/build.log)"
fi
vm_tool "$IO_BIN" f2fs_io
vm_tool "$FIBMAP_BIN" fibmap.f2fs
if [ -x /usr/sbin/f2fs_io ] && [ -x /usr/sbin/fibmap.f2fs ]; then
	vm_tool /usr/sbin/f2fs_io /zvm/debian/f2fs_io
	vm_tool /usr/sbin/fibmap.f2fs /zvm/debian/fibmap.f2fs
else
	vm_log "Debian's f2fs_io is not installed: the output comparisons are skipped"
fi

vm_disk io 512M
vm_mkfs io -O extra_attr,inode_checksum,sb_checksum,compression,verity,casefold,encrypt \
	-C utf8 || vm_error "mkfs failed"

# gc_range takes main-area block addresses: the guest gets the area from our dump
MAIN_BLKADDR=$("$top_builddir/tools/dump.f2fs" --superblock "$(vm_img io)" | awk '$1 == "main_blkaddr" { print $2 }')
MAIN_BLOCKS=$(( $("$top_builddir/tools/dump.f2fs" --superblock "$(vm_img io)" | awk '$1 == "segment_count_main" { print $2 }') * 512 ))
# the kernel wants the range to end before the last block
[ -n "$MAIN_BLKADDR" ] && [ "$MAIN_BLOCKS" -gt 0 ] || vm_error "cannot read the main area from dump.f2fs"

{ echo "MAIN_BLKADDR=$MAIN_BLKADDR MAIN_BLOCKS=$MAIN_BLOCKS"; cat; } <<'EOF' | vm_guest
M=/mnt/io
REF=/zvm/debian/f2fs_io
DEV=$(zdisk io)
NAME=${DEV#/dev/}
ok() { echo "info: ok: $*"; }
# same WHAT WANT GOT
same() {
	[ "$2" = "$3" ] || zfail "$1: expected [$2], got [$3]"
	ok "$1"
}
# match WHAT ERE TEXT
match() {
	echo "$3" | grep -Eq -- "$2" || zfail "$1: [$3] does not match /$2/"
	ok "$1"
}
# fails WHAT ERE CMD...: CMD exits 1 and its standard error matches ERE
fails() {
	what=$1 ere=$2
	shift 2
	if "$@" >/tmp/fails.out 2>/tmp/fails.err; then
		zfail "$what: exit 0 (expected 1): $(cat /tmp/fails.out)"
	else
		rc=$?
	fi
	[ "$rc" = 1 ] || zfail "$what: exit $rc (expected 1): $(cat /tmp/fails.err)"
	grep -Eq -- "$ere" /tmp/fails.err || zfail "$what: stderr [$(cat /tmp/fails.err)] lacks /$ere/"
	ok "$what (exit 1: $(head -n 1 /tmp/fails.err))"
}
# as_ref WHAT ARGS...: when Debian's f2fs_io is here, it prints what ours printed
as_ref() {
	what=$1
	shift
	[ -x $REF ] || return 0
	o=$(f2fs_io "$@" 2>&1) || zfail "$what: ours failed: $o"
	r=$($REF "$@" 2>&1) || zfail "$what: Debian's failed: $r"
	same "$what: ours as Debian's" "$r" "$o"
}
flags() { f2fs_io getflags "$1" | sed 's/.*flags=//'; }
# has_flag WHAT FILE NAME / lacks_flag WHAT FILE NAME: getflags' list names NAME or not
has_flag() {
	f=$(flags "$2")
	echo ",$f," | grep -qF ",$3," || zfail "$1: getflags says [$f], no $3"
	ok "$1 ($f)"
}
lacks_flag() {
	f=$(flags "$2")
	echo ",$f," | grep -qF ",$3," && zfail "$1: getflags says [$f], with $3"
	ok "$1 ($f)"
}

zmount io $M compress_mode=user
mkdir -p $M/d

step "fsync, fdatasync, fallocate, lseek, ftruncate, fadvise"
echo data >$M/d/sync
match "fsync" '^fsync total_time = [0-9]+ us$' "$(f2fs_io fsync $M/d/sync)"
same "fdatasync" "fdatasync a file" "$(f2fs_io fdatasync $M/d/sync)"
: >$M/d/fa
: >$M/d/fb
: >$M/d/fc
same "fallocate 1 MiB" "fallocated a file: i_size=1048576, i_blocks=2048" \
	"$(f2fs_io fallocate 0 0 1048576 $M/d/fa)"
if [ -x $REF ]; then
	same "fallocate: Debian's line" "$(f2fs_io fallocate 1 0 8192 $M/d/fb)" \
		"$($REF fallocate 1 0 8192 $M/d/fc)"
fi
dd if=/dev/zero of=$M/d/holes bs=4096 count=16 conv=fsync 2>/dev/null
same "fallocate -p (punch)" "fallocated a file: i_size=65536, i_blocks=64" \
	"$(f2fs_io fallocate -p 1 16384 32768 $M/d/holes)"
same "lseek hole" "returned offset=16384" "$(f2fs_io lseek hole 0 $M/d/holes)"
same "lseek data" "returned offset=49152" "$(f2fs_io lseek data 16384 $M/d/holes)"
same "lseek end" "returned offset=65546" "$(f2fs_io lseek end 10 $M/d/holes)"
f2fs_io ftruncate 100 $M/d/holes
same "ftruncate" 100 "$(stat -c %s $M/d/holes)"
same "fadvise" "fadvice dontneed to a file: $M/d/fa" "$(f2fs_io fadvise dontneed 0 4096 $M/d/fa)"
fails "fadvise: unknown advice" "unknown advice" f2fs_io fadvise never 0 1 $M/d/fa

step "getflags, setflags, clearflags"
: >$M/d/plain
as_ref "getflags" getflags $M/d/plain
mkdir $M/d/cdir $M/d/cdir2 $M/d/cdir3
out=$(f2fs_io setflags compression $M/d/cdir)
match "setflags compression: the flags before" '^get a flag on compression ret=0, flags=[0-9a-f]+$' \
	"$(echo "$out" | head -n 1)"
same "setflags compression: the flag set" "set a flag on $M/d/cdir ret=0, flags=compression" \
	"$(echo "$out" | tail -n 1)"
has_flag "getflags after setflags" $M/d/cdir compression
if [ -x $REF ]; then
	same "setflags: Debian's lines" "$(f2fs_io setflags nocompression $M/d/cdir2)" \
		"$($REF setflags nocompression $M/d/cdir3 | sed 's|cdir3|cdir2|')"
fi
f2fs_io clearflags compression $M/d/cdir >/dev/null
lacks_flag "getflags after clearflags" $M/d/cdir compression
echo before >$M/d/imm
f2fs_io setflags immutable $M/d/imm >/dev/null
has_flag "immutable set" $M/d/imm immutable
if echo after >>$M/d/imm 2>/dev/null; then zfail "an immutable file took a write"; fi
ok "the immutable file refuses writes"
f2fs_io clearflags immutable $M/d/imm >/dev/null
echo after >>$M/d/imm
same "immutable cleared: the file takes writes" "before
after" "$(cat $M/d/imm)"
f2fs_io setflags immutable $M/d/imm >/dev/null
f2fs_io setflags noimmutable $M/d/imm >/dev/null
lacks_flag "setflags noimmutable (1.15's form) clears it" $M/d/imm immutable
: >$M/d/cow
# Linux 6.1 takes FS_NOCOW_FL through SETFLAGS without pinning (later kernels pin): the
# call and its line only; pinning is pinfile's below
same "setflags nocow" "set a flag on $M/d/cow ret=0, flags=nocow" \
	"$(f2fs_io setflags nocow $M/d/cow | tail -n 1)"
same "clearflags nocow" "clear a flag on $M/d/cow ret=0, flags=nocow" \
	"$(f2fs_io clearflags nocow $M/d/cow | tail -n 1)"
lacks_flag "nocow cleared" $M/d/cow "nocow(pinned)"
fails "setflags: unknown flag" "unknown flag" f2fs_io setflags bogus $M/d/cow
mkdir $M/d/fold
f2fs_io setflags casefold $M/d/fold >/dev/null
has_flag "casefold set" $M/d/fold casefold
echo x >$M/d/fold/MiXeD
[ -f $M/d/fold/mixed ] || zfail "casefolded directory: mixed not found"
ok "the casefolded directory finds MiXeD as mixed"

step "pinfile, gc, gc_range, gc_urgent, checkpoint"
same "pinfile set with size" "set pinfile: 0 blocks moved and fallocate 8388608 bytes in $M/d/pin" \
	"$(: >$M/d/pin; f2fs_io pinfile set $M/d/pin 8388608)"
as_ref "pinfile get" pinfile get $M/d/pin
has_flag "getflags of a pinned file" $M/d/pin "nocow(pinned)"
dd if=/dev/urandom of=$M/d/pin bs=4096 count=2048 conv=notrunc,fsync 2>/dev/null
pin_before=$(f2fs_io fiemap 0 2048 $M/d/pin)
# dirty segments around the pinned file: files written, every other one removed
i=0
while [ $i -lt 400 ]; do
	dd if=/dev/urandom of=$M/d/g$i bs=65536 count=1 2>/dev/null
	i=$((i + 1))
done
sync
i=0
while [ $i -lt 400 ]; do
	rm $M/d/g$i
	i=$((i + 2))
done
sync
cp1=$(sed -n 's/.*CP calls: *\([0-9]*\).*/\1/p' /sys/kernel/debug/f2fs/status | head -n 1)
echo dirty >$M/d/cpdirty	# a clean volume needs no checkpoint: the kernel skips it
same "checkpoint" "trigger filesystem checkpoint ret=0" "$(f2fs_io checkpoint $M/d/sync)"
cp2=$(sed -n 's/.*CP calls: *\([0-9]*\).*/\1/p' /sys/kernel/debug/f2fs/status | head -n 1)
[ "$cp2" -gt "$cp1" ] || zfail "checkpoint: the kernel's CP calls stayed at $cp1"
ok "checkpoint: the kernel counted it ($cp1 -> $cp2)"
gc1=$(zgc_calls)
k=0
while [ $k -lt 2 ]; do
	out=$(f2fs_io gc 1 $M) || zfail "gc 1: $out"
	k=$((k + 1))
done
same "gc 1" "trigger synchronous gc ret=0" "$out"
gc2=$(zgc_calls)
[ "${gc2%% *}" -gt "${gc1%% *}" ] || zfail "gc: the kernel's GC calls stayed at $gc1"
ok "gc: the kernel counted the calls ($gc1 -> $gc2)"
# an asynchronous (background) GC call finds no victim when the synchronous calls above
# took the last dirty sections, which depends on where writeback put the files: the
# kernel then answers ENODATA, which f2fs_io reports as f2fs-tools' does
if out=$(f2fs_io gc 0 $M 2>&1); then
	match "gc 0" '^trigger asynchronous gc ret=0$' "$out"
else
	same "gc 0 (no victim left)" "f2fs_io: F2FS_IOC_GARBAGE_COLLECT on $M: No data available" "$out"
fi
# first_block FILE: the device block of FILE's first block (fiemap's physical address)
first_block() {
	p=$(f2fs_io fiemap 0 1 "$1" | awk '/^0\t/ { print $3 }')
	echo $((0x$p / 4096))
}
# seg_of BLOCK: the first block of BLOCK's segment (512 blocks of 4 KiB)
seg_of() { echo $((MAIN_BLKADDR + ($1 - MAIN_BLKADDR) / 512 * 512)); }
# gc_range on a segment holding a kept file of the ones above (not a segment a log
# writes into: the kernel refuses those): its blocks move, its data stays
cur=" $(zcursegs | tr '\n' ' ') "
i=1
while :; do
	[ $i -lt 400 ] || zfail "gc_range: no kept file outside the logs' segments (logs:$cur)"
	b0=$(first_block $M/d/g$i)
	s0=$(seg_of $b0)
	case $cur in *" $(( (s0 - MAIN_BLKADDR) / 512 )) "*) i=$((i + 2)); continue ;; esac
	break
done
mover=$M/d/g$i
summ=$(md5sum <$mover)
out=$(f2fs_io gc_range 1 $s0 511 $M/d/sync) || zfail "gc_range: $out"
same "gc_range" "trigger synchronous gc_range [$s0, 511] ret=0" "$out"
sync
b1=$(first_block $mover)
[ "$(seg_of $b1)" != "$s0" ] || zfail "gc_range: the file's first block stayed in segment $s0 ($b0 -> $b1)"
ok "gc_range moved ${mover##*/}'s blocks out of segment $s0 ($b0 -> $b1)"
zdrop_caches
same "gc_range keeps the data" "$summ" "$(md5sum <$mover)"
# on the pinned file's segment the kernel refuses: its blocks cannot move
sp=$(seg_of $(first_block $M/d/pin))
fails "gc_range on the pinned file's segment" "Resource temporarily unavailable" \
	f2fs_io gc_range 1 $sp 511 $M/d/sync
fails "gc_range outside the main area" "Invalid argument" f2fs_io gc_range 1 0 8 $M/d/sync
sync
same "the pinned file's blocks stay where they were after gc and gc_range" "$pin_before" \
	"$(f2fs_io fiemap 0 2048 $M/d/pin)"
same "pinfile unset" "unset pinfile in $M/d/pin" "$(f2fs_io pinfile unset $M/d/pin)"
same "pinfile get after unset" "get_pin_file: un-pinned with 0 blocks moved in $M/d/pin" \
	"$(f2fs_io pinfile get $M/d/pin)"
same "gc_urgent start" "gc_urgent: start on $NAME" "$(f2fs_io gc_urgent $NAME start)"
# Linux 6.1 shows the mode's name (GC_URGENT_HIGH for 1, GC_NORMAL for 0); 7.3 shows the
# mode's number in its own list (GC_URGENT_HIGH is 4 there, GC_NORMAL 0)
match "gc_urgent sysfs after start" '^(4|GC_URGENT_HIGH)$' "$(cat /sys/fs/f2fs/$NAME/gc_urgent)"
same "gc_urgent end" "gc_urgent: end on $NAME" "$(f2fs_io gc_urgent $NAME end)"
match "gc_urgent sysfs after end" '^(0|GC_NORMAL)$' "$(cat /sys/fs/f2fs/$NAME/gc_urgent)"
same "gc_urgent run" "gc_urgent: start on $NAME for 1 secs
gc_urgent: end on $NAME for 1 secs" "$(f2fs_io gc_urgent $NAME run 1)"
match "gc_urgent sysfs after run" '^(0|GC_NORMAL)$' "$(cat /sys/fs/f2fs/$NAME/gc_urgent)"
fails "gc_urgent on no volume" "/sys/fs/f2fs/nodev/gc_urgent" f2fs_io gc_urgent nodev start

step "write, write_advice, atomic writes, read, randread, fragread"
match "write inc_num" '^Written 16384 bytes with pattern = inc_num, total_time = [0-9]+ us, max_latency = [0-9]+ us$' \
	"$(f2fs_io write 1 0 4 inc_num buffered $M/d/w)"
same "write inc_num: chunk 2 holds 2" "0000002" "$(od -An -tu4 -j 8192 -N 4 $M/d/w | tr -d ' ' | sed 's/^/000000/; s/.*\(.......\)$/\1/')"
match "write dio" '^Written 8192 bytes with pattern = zero' "$(f2fs_io write 1 0 2 zero dio $M/d/wd)"
match "write osync" '^Written 8192 bytes with pattern = rand' "$(f2fs_io write 2 0 1 rand osync $M/d/wo)"
match "write_advice cold" '^Written 4096 bytes' "$(f2fs_io write_advice 1 0 1 zero buffered cold $M/d/wa)"
same "get_advise of the cold file" "i_advise=0x1, advise_type: cold " "$(f2fs_io get_advise $M/d/wa)"
f2fs_io write 1 0 4 rand atomic_commit $M/d/at >/dev/null
same "atomic_commit: 4 blocks" 16384 "$(stat -c %s $M/d/at)"
sum1=$(md5sum <$M/d/at)
match "atomic_abort" '^Written 16384 bytes' "$(f2fs_io write 1 0 4 inc_num atomic_abort $M/d/at 200)"
zdrop_caches
same "atomic_abort leaves the committed data" "$sum1" "$(md5sum <$M/d/at)"
if zkernel_at_least 6 2; then
	# an atomic replace drops the file's old blocks: one block of zeros is what is left
	match "atomic_rcommit" '^Written 4096 bytes' "$(f2fs_io write 1 0 1 zero atomic_rcommit $M/d/at)"
	zdrop_caches
	same "atomic_rcommit replaces the file" "$(head -c 4096 /dev/zero | md5sum)" "$(md5sum <$M/d/at)"
else
	fails "atomic_rcommit needs Linux 6.2" "Inappropriate ioctl|Invalid argument|not supported" \
		f2fs_io write 1 0 1 zero atomic_rcommit $M/d/at
fi
d8=$(f2fs_io read 1 2 1 buffered 0 8 $M/d/w | tail -n 1)
same "read dump" "00002000 : 0200 0000 0000 0000 " "$d8"
for mode in dio mmap mlock madvise fadvise; do
	same "read $mode: the same bytes" "$d8" "$(f2fs_io read 1 2 1 $mode 1 8 $M/d/w | tail -n 1)"
done
f2fs_io read 1 0 1 dontcache 0 0 $M/d/w >/dev/null
ok "read dontcache runs (RWF_DONTCACHE from Linux 6.14, a plain read before)"
match "randread" '^Read 40960 bytes total_time = [0-9]+ us, avg. latency' \
	"$(f2fs_io randread 1 10 buffered 1 $M/d/w | tail -n 1)"
match "randread mmap" '^Read 81920 bytes' "$(f2fs_io randread 2 10 mmap 0 $M/d/w)"
match "fragread" '^Fragmented_Read 8192 bytes' "$(f2fs_io fragread 1 0 2 1 $M/d/w | grep Fragmented)"

step "fiemap and fibmap.f2fs"
dd if=/dev/urandom of=$M/d/map bs=4096 count=10 2>/dev/null
dd if=/dev/urandom of=$M/d/map bs=4096 seek=20 count=20 conv=notrunc,fsync 2>/dev/null
as_ref "fiemap" fiemap 0 40 $M/d/map
f2fs_io fiemap 0 40 $M/d/map
fibmap.f2fs $M/d/map >/tmp/fibmap.ours
[ ! -x /zvm/debian/fibmap.f2fs ] || {
	/zvm/debian/fibmap.f2fs $M/d/map >/tmp/fibmap.ref
	sed '/bdev info/,/^start_lba/d' /tmp/fibmap.ours >/tmp/fibmap.cmp
	same "fibmap.f2fs: ours as Debian's (its 1.15 prints no device lines)" \
		"$(cat /tmp/fibmap.ref)" "$(cat /tmp/fibmap.cmp)"
}
same "fibmap.f2fs: the device" "devname = $NAME" "$(grep devname /tmp/fibmap.ours)"
cat /tmp/fibmap.ours
ino=$(stat -c %i $M/d/map)
# the map both ways, per block: fibmap's runs and fiemap's extents
awk '/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$/ && $2 != 0 {
	for (k = 0; k < $4; k++) print $1 / 4096 + k, $2 + k }' /tmp/fibmap.ours >/tmp/map.fibmap
f2fs_io fiemap 0 40 $M/d/map | awk '/^[0-9]+\t/ {
	l = 0; p = 0; n = 0
	for (i = 1; i <= 16; i++) {
		l = l * 16 + index("0123456789abcdef", substr($2, i, 1)) - 1
		p = p * 16 + index("0123456789abcdef", substr($3, i, 1)) - 1
		n = n * 16 + index("0123456789abcdef", substr($4, i, 1)) - 1
	}
	for (k = 0; k < n / 4096; k++) print l / 4096 + k, p / 4096 + k }' >/tmp/map.fiemap
same "fiemap and fibmap give the same 30 blocks" "$(cat /tmp/map.fibmap)" "$(cat /tmp/map.fiemap)"
[ "$(wc -l </tmp/map.fibmap)" = 30 ] || zfail "fibmap: $(wc -l </tmp/map.fibmap) mapped blocks, not 30"
sed "s/^/info: map $ino /" /tmp/map.fibmap

step "defrag_file, copy, move_range, rename, precache_extents"
i=0
while [ $i -lt 32 ]; do
	dd if=/dev/urandom of=$M/d/frag bs=4096 seek=$i count=1 conv=notrunc,fsync 2>/dev/null
	dd if=/dev/urandom of=$M/d/other bs=4096 seek=$i count=1 conv=notrunc,fsync 2>/dev/null
	i=$((i + 1))
done
ext_before=$(f2fs_io fiemap 0 32 $M/d/frag | grep -c '^[0-9]')
sum=$(md5sum <$M/d/frag)
same "defrag_file (common/defrag's form)" "defrag $M/d/frag in region[0, 131072]" \
	"$(f2fs_io defrag_file 0 131072 $M/d/frag)"
sync
ext_after=$(f2fs_io fiemap 0 32 $M/d/frag | grep -c '^[0-9]')
[ "$ext_after" -lt "$ext_before" ] || zfail "defrag_file: $ext_before extents before, $ext_after after"
ok "defrag_file: $ext_before extents before, $ext_after after"
zdrop_caches
same "defrag_file keeps the data" "$sum" "$(md5sum <$M/d/frag)"
for o in "" -m -s -d; do
	f2fs_io copy $o $M/d/frag $M/d/copy$o
	cmp $M/d/frag $M/d/copy$o
	ok "copy $o"
done
cp $M/d/other /tmp/other
same "move_range" "move range ret=0" "$(f2fs_io move_range $M/d/other $M/d/moved 0 0 131072)"
zdrop_caches
cmp /tmp/other $M/d/moved
ok "move_range: the destination holds the source's data"
same "precache_extents" "trigger precache extents ret=0" "$(f2fs_io precache_extents $M/d/frag)"
f2fs_io rename $M/d/copy-m $M/d/renamed 1
[ -f $M/d/renamed ] && [ ! -e $M/d/copy-m ] || zfail "rename: not renamed"
ok "rename with fsync"

step "compression: compress, get/release/reserve cblocks, coption, decompress"
mkdir $M/d/c
f2fs_io setflags compression $M/d/c >/dev/null
: >$M/d/c/opt
same "set_coption" "set compression option: algorithm=2, log_cluster_size=3" \
	"$(f2fs_io set_coption 2 3 $M/d/c/opt)"
same "get_coption" "compression algorithm:2
compression cluster log size:3" "$(f2fs_io get_coption $M/d/c/opt)"
as_ref "get_coption" get_coption $M/d/c/opt
i=0
while [ $i -lt 2000 ]; do
	echo "compressible line $i compressible line compressible line"
	i=$((i + 1))
done >$M/d/c/text
sync
same "get_cblocks before compress" 0 "$(f2fs_io get_cblocks $M/d/c/text)"
f2fs_io compress $M/d/c/text
sync
saved=$(f2fs_io get_cblocks $M/d/c/text)
[ "$saved" -gt 0 ] || zfail "compress: get_cblocks is $saved"
ok "compress: $saved blocks saved"
as_ref "get_cblocks" get_cblocks $M/d/c/text
sumc=$(md5sum <$M/d/c/text)
same "release_cblocks" "$saved" "$(f2fs_io release_cblocks $M/d/c/text)"
if echo more >>$M/d/c/text 2>/dev/null; then zfail "a file with released blocks took a write"; fi
ok "the released file refuses writes"
same "reserve_cblocks" "$saved" "$(f2fs_io reserve_cblocks $M/d/c/text)"
f2fs_io decompress $M/d/c/text
sync
same "get_cblocks after decompress" 0 "$(f2fs_io get_cblocks $M/d/c/text)"
zdrop_caches
same "compression round trip keeps the data" "$sumc" "$(md5sum <$M/d/c/text)"

step "set_verity, encryption mode, xattrs, advise"
dd if=/dev/urandom of=$M/d/ver bs=4096 count=8 2>/dev/null
same "set_verity" "Set fsverity bit to $M/d/ver" "$(f2fs_io set_verity $M/d/ver)"
has_flag "getflags of a verity file" $M/d/ver verity
if echo x >>$M/d/ver 2>/dev/null; then zfail "a verity file took a write"; fi
ok "the verity file refuses writes"
mkdir $M/d/e2 $M/d/ea
zwork policy $M/d/e2 v2 41
zwork policy $M/d/ea v2 42 adiantum
same "get_filename_encrypt_mode" aes-256-cts "$(f2fs_io get_filename_encrypt_mode $M/d/e2)"
same "get_filename_encrypt_mode adiantum" adiantum "$(f2fs_io get_filename_encrypt_mode $M/d/ea)"
as_ref "get_filename_encrypt_mode" get_filename_encrypt_mode $M/d/ea
has_flag "getflags of an encrypted directory" $M/d/e2 encrypt
fails "get_filename_encrypt_mode of a plain file" "encryption policy" \
	f2fs_io get_filename_encrypt_mode $M/d/plain
: >$M/d/x
same "listxattr of none" "$M/d/x has no attributes." "$(f2fs_io listxattr $M/d/x)"
same "setxattr create" "setxattr $M/d/x CREATE: name: user.a, value: hello: ret=0" \
	"$(f2fs_io setxattr user.a hello $M/d/x)"
same "setxattr replace" "setxattr $M/d/x CREATE: name: user.a, value: bye: ret=-1
setxattr $M/d/x REPLACE: name: user.a, value: bye: ret=0" "$(f2fs_io setxattr user.a bye $M/d/x)"
same "listxattr" "user.a: bye" "$(f2fs_io listxattr $M/d/x)"
same "removexattr" "removexattr user.a REMOVE: name: $M/d/x: ret=0" "$(f2fs_io removexattr user.a $M/d/x)"
same "removexattr again: ret=-1, exit 0" "removexattr user.a REMOVE: name: $M/d/x: ret=-1" \
	"$(f2fs_io removexattr user.a $M/d/x 2>/dev/null)"
f2fs_io setxattr system.advise 0x20 $M/d/x >/dev/null
same "system.advise set as a number" "i_advise=0x20, advise_type: hot " "$(f2fs_io get_advise $M/d/x)"
f2fs_io setxattr user.fadvise 1 $M/d/x >/dev/null
same "get_fadvise" "fadvise=0x1, advise_type: largefolio" "$(f2fs_io get_fadvise $M/d/x)"
if zkernel_at_least 6 7; then
	same "ioprio" "ioprio_hint 1 to a file: $M/d/x" "$(f2fs_io ioprio ioprio_write $M/d/x)"
else
	fails "ioprio needs Linux 6.7" "Inappropriate ioctl|Invalid argument" f2fs_io ioprio ioprio_write $M/d/x
fi

step "test_create_perf, test_lookup_perf, freeze, thaw"
mkdir $M/d/perf
match "test_create_perf" '^CREATE,20,4,' "$(f2fs_io test_create_perf -s $M/d/perf 20 4 | grep CREATE)"
[ -z "$(ls $M/d/perf)" ] || zfail "test_create_perf left files"
f2fs_io test_lookup_perf -i $M/d/perf 20 >/dev/null
same "test_lookup_perf -i" 20 "$(ls $M/d/perf | wc -l)"
match "test_lookup_perf" '^stat: 20, ' "$(f2fs_io test_lookup_perf $M/d/perf 20 | tail -n 1)"
same "freeze" "freeze filesystem ret=0" "$(f2fs_io freeze $M)"
same "thaw" "thaw filesystem ret=0" "$(f2fs_io thaw $M)"
echo after-thaw >$M/d/thawed

step "erase refuses a mounted device, shutdown, remount"
fails "erase of the mounted device" "busy" f2fs_io erase $DEV
fails "erase of a file" "not a block device" f2fs_io erase $M/d/x
fails "shutdown level 5" "level 5" f2fs_io shutdown 5 $M
echo "kept" >$M/d/kept
sync
sumk=$(md5sum <$M/d/frag)
same "shutdown 1" "Shutdown $M with level=1" "$(f2fs_io shutdown 1 $M)"
if echo lost >$M/d/after-shutdown 2>/dev/null; then zfail "a shut down volume took a new file"; fi
ok "the shut down volume refuses writes"
zumount $M
zmount io $M
same "after shutdown and remount: the data" "kept" "$(cat $M/d/kept)"
same "after shutdown and remount: a file" "$sumk" "$(md5sum <$M/d/frag)"
same "after remount: the pinned file's blocks" "$pin_before" "$(f2fs_io fiemap 0 2048 $M/d/pin)"
zumount $M
EOF

vm_boot
vm_fsck io

# fibmap's and fiemap's addresses of d/map (checked equal in the guest) against the
# block map our dump.f2fs reads from the image
log=$VM_OUT/boot1.log
map=$(sed -n 's/^info: map \([0-9]* [0-9]* [0-9]*\)$/\1/p' "$log")
ino=$(echo "$map" | head -n 1 | cut -d' ' -f1)
if [ -z "$ino" ]; then
	vm_fail "no fibmap lines in the guest's log"
elif ! "$top_builddir/tools/dump.f2fs" --json -i "$ino" "$(vm_img io)" >"$VM_OUT/dump-map.json" 2>&1; then
	vm_fail "dump.f2fs -i $ino failed: $(head -c 300 "$VM_OUT/dump-map.json")"
else
	want=$(echo "$map" | cut -d' ' -f2-)
	got=$(sed -n 's/.*{"fofs": \([0-9]*\), "blkaddr": \([0-9]*\),.*/\1 \2/p' "$VM_OUT/dump-map.json")
	if [ "$want" = "$got" ] && [ "$(echo "$got" | wc -l)" -eq 30 ]; then
		vm_log "fibmap and fiemap addresses of inode $ino equal dump.f2fs's 30 blocks"
	else
		vm_fail "fibmap/fiemap addresses of inode $ino differ from dump.f2fs: $(echo "$want" | tr '\n' ',') vs $(echo "$got" | tr '\n' ',')"
	fi
fi
vm_finish
