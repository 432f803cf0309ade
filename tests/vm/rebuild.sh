#!/bin/sh
# rebuild.sh - fsck.f2fs --rebuild against the kernel: a volume Linux aged (a varied tree,
# then deletions, rewrites and random overwrites over two checkpoints, so older node
# copies and deleted inodes lie on the disk) loses its tables on the host, three ways:
# both checkpoint packs; the NAT; the checkpoint packs, NAT, SIT and summary area.  Our
# fsck --rebuild must rebuild each (exit 1, its report saying how, keeping at least the
# tree's inodes and losing no node), a rerun must be clean and Debian's fsck agree.  Where
# the checkpoint survived, its SIT tells deleted files from live ones: nothing comes back
# (lost+found unchanged, the tree exactly as the kernel left it).  Without a checkpoint
# deleted files may come back; every file of the tree must still read as the kernel wrote
# it, at its path or, by content, in lost+found.  A fourth copy also loses the inode of
# the tree's 400-entry directory: its files go to lost+found, which grows to hold them.
# Boot 2 mounts the four copies, checks them so and unmounts them, and both fscks find
# them clean after.  A second volume, aged the same way after a file that fills the front
# of its main area, loses the first 64 MiB of its device, both superblocks with it: the
# superblock is made again, and every file whose inode, nodes and blocks lay past 64 MiB
# must come back (at its path, or by content in lost+found).  In the same boot a zoned
# null_blk volume (4 MiB zones, the metadata on conventional ones, the main area on
# sequential ones) made by our mkfs -m and aged by Linux the same way loses its NAT, then
# all four tables, then all before its main area with the superblocks (on the conventional
# zones), each time rebuilt by our fsck in the guest and judged the same way, our fsck
# reading the write pointers.  Beside them, the aged volume's metadata image
# (f2fs_metadump -o) restored into a file: Linux mounts it and lists every entry as it
# left it (types, modes, links, sizes, xattrs, link targets; file contents are not in
# the image).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

DUMP=$top_builddir/tools/dump.f2fs
[ -x "$VM_OUR_FSCK" ] && [ -x "$DUMP" ] || vm_skip "fsck.f2fs or dump.f2fs not built"

vm_setup rebuild "fsck --rebuild of a kernel-aged volume without its checkpoint, NAT or SIT"
vm_disk data 256M
vm_mkfs data -O extra_attr,inode_checksum,flexible_inline_xattr,quota || vm_fail "mkfs failed"
vm_disk front 256M
vm_mkfs front -O extra_attr,inode_checksum,flexible_inline_xattr,quota || vm_fail "mkfs failed"

# rebuild_lib.sh: shell functions for the host and, prepended to the scenario, the guest
# (busybox: od, dd, awk).
# zap IMG AREA...: zero metadata areas (cp, sit, nat, ssa, or all before the main area
# with the superblocks: front) of a volume, found from its superblock (at byte 1024: log_blocksize at 0x10, cp/sit/nat/ssa/main block addresses at
# 0x4c).
# rbreport LOG RC WHY INODES: one line per fault of a fsck --rebuild run that exited RC
# with output LOG: an exit other than 1, a report not saying "tables rebuilt from the
# node blocks (WHY)", fewer than INODES inodes kept, a "lost:" line, no "written:"
# line.
# rbproblems LOG: the problems the check after the rebuild fixed, one line per code: how
# many, and the first one's message.
# tree_inodes MANIFEST: the inodes a zwork manifest lists (a file of n links n times).
cat >"$VM_OUT/rebuild_lib.sh" <<'EOF'
zap() {
	_img=$1
	shift
	_bs=$((1 << $(od -An -tu4 -j 1040 -N 4 "$_img" | tr -d ' ')))
	set -- $(od -An -tu4 -j 1100 -N 20 "$_img") "$@"
	_cp=$1 _sit=$2 _nat=$3 _ssa=$4 _main=$5
	shift 5
	for _a in "$@"; do
		case $_a in
		cp) _lo=$_cp _hi=$_sit ;;
		sit) _lo=$_sit _hi=$_nat ;;
		nat) _lo=$_nat _hi=$_ssa ;;
		ssa) _lo=$_ssa _hi=$_main ;;
		front) _lo=0 _hi=$_main ;;
		*) echo "zap: no area $_a" >&2; return 1 ;;
		esac
		dd if=/dev/zero of="$_img" bs="$_bs" seek="$_lo" count=$((_hi - _lo)) conv=notrunc 2>/dev/null ||
			return 1
		echo "zap: $_img: $_a zeroed, blocks $_lo to $((_hi - 1))"
	done
}

rbreport() {
	[ "$2" -eq 1 ] || echo "fsck --rebuild exit $2, expected 1"
	grep -qF "tables rebuilt from the node blocks ($3)" "$1" ||
		echo "the report does not say \"tables rebuilt from the node blocks ($3)\""
	_kept=$(sed -n 's/^  kept: \([0-9]*\) inodes, .*/\1/p' "$1")
	[ -n "$_kept" ] && [ "$_kept" -ge "$4" ] ||
		echo "the rebuild kept ${_kept:-no} inodes, the tree alone has $4"
	! grep -q '^  lost: ' "$1" || echo "the rebuild lost nodes: $(grep '^  lost: ' "$1")"
	grep -qE '^  written: NAT, SIT, summaries, checkpoint version [0-9]+ in pack [12]; ' "$1" ||
		echo "the report has no \"written: ... checkpoint version V in pack P\" line"
}

rbproblems() {
	awk '/^\[0x[0-9a-f]*\]/ {
		c = substr($0, 2, 8)
		if (!(c in n)) { m[c] = $0; o[++k] = c }
		n[c]++
	}
	END { for (i = 1; i <= k; i++) printf "%d x %s\n", n[o[i]], m[o[i]] }' "$1"
}

tree_inodes() {
	awk '{ n += $1 == "f" ? 1 / $3 : 1 } END { printf "%d\n", n + 0.5 }' "$1"
}
EOF
. "$VM_OUT/rebuild_lib.sh"

# tree.sh (guest): ztree DIR BIG makes the aged tree under DIR in two checkpointed rounds:
# the files of the first round that the second deletes or rewrites leave their old node
# blocks behind, and the nids of deleted ones go to new files; BIG is the largest file's
# size in MiB.  zscan ROOT takes the manifests of ROOT/t and ROOT/lost+found; zmatch WANT
# LABEL then wants every entry of manifest WANT at its path with the same type, mode,
# links, size, content and xattrs (a directory: its type and mode), or, a file or
# symlink whose path is gone, in lost+found with the same content.  Entries of the tree
# WANT does not list (deleted files brought back) are counted, not failed.
cat >"$VM_OUT/tree.sh" <<'EOF'
ztree() {
	t=$1
	big=$2
	step "$t: a varied tree"
	mkdir -p $t/small $t/big $t/many $t/links $t/sparse $t/xattr $t/churn $t/doomed \
		$t/deep/1/2/3/4/5
	# sizes from empty across the inline-data limit
	i=0
	while [ $i -lt 48 ]; do
		seq 1 $((i * 20)) >$t/small/s$i
		i=$((i + 1))
	done
	# past the inode's direct pointers and its direct nodes: an indirect node
	zwork writefile $t/big/b$big $((big * 1024)) 11
	zwork writefile $t/big/b5 5120 12
	zwork writefile $t/big/b1 1024 13
	# a directory of a few hundred long names: several levels of its hash table
	i=0
	while [ $i -lt 400 ]; do
		echo "entry $i" >$t/many/an-entry-with-a-longer-name-$i
		i=$((i + 1))
	done
	# a sparse file: blocks at 0, in a direct node and in an indirect node (past 2905
	# blocks), a hole at the end
	for b in 0 1500 3500; do
		dd if=/dev/urandom of=$t/sparse/holes bs=4096 seek=$b count=1 conv=notrunc 2>/dev/null
	done
	truncate -s 16M $t/sparse/holes
	ln $t/big/b1 $t/links/hard-b1
	ln $t/big/b1 $t/many/hard-b1-too
	ln $t/small/s7 $t/links/hard-s7
	ln -s ../big/b5 $t/links/sym-short
	ln -s "$(seq -s / 1 500)" $t/links/sym-long
	ln -s /does/not/exist $t/links/sym-dangling
	zwork writefile $t/xattr/carrier 12 21
	zwork xattr $t/xattr/carrier user.small 16 1
	zwork xattr $t/xattr/carrier user.big 2000 2
	zwork xattr $t/xattr user.on-dir 60 3
	echo "bottom of the chain" >$t/deep/1/2/3/4/5/bottom
	# the first round's files the second deletes or rewrites
	i=0
	while [ $i -lt 120 ]; do
		zwork writefile $t/churn/c$i $((1 + i % 37)) $((100 + i)) >/dev/null
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 40 ]; do
		zwork writefile $t/doomed/d$i 8 $((300 + i)) >/dev/null
		i=$((i + 1))
	done
	ln $t/churn/c1 $t/links/hard-c1
	sync
	step "$t: deletions, rewrites, overwrites"
	rm -rf $t/doomed
	rm $t/links/hard-s7
	i=0
	while [ $i -lt 120 ]; do
		case $((i % 4)) in
		0) rm $t/churn/c$i ;;
		1) zwork writefile $t/churn/c$i 20 $((500 + i)) >/dev/null ;;
		esac
		i=$((i + 1))
	done
	mv $t/churn/c2 $t/many/moved-c2
	zwork overwrite $t/churn 150 4096 7
	zwork overwrite $t/big 200 4096 8
	# new files on the deleted ones' nids
	i=0
	while [ $i -lt 50 ]; do
		zwork writefile $t/churn/new$i $((2 + i % 9)) $((700 + i)) >/dev/null
		i=$((i + 1))
	done
	sync
	step "$t: a second round"
	i=0
	while [ $i -lt 50 ]; do
		case $((i % 5)) in
		0) rm $t/churn/new$i ;;
		1) zwork writefile $t/churn/new$i 3 $((900 + i)) >/dev/null ;;
		esac
		i=$((i + 1))
	done
	rm $t/many/an-entry-with-a-longer-name-1[0-9]
	zwork overwrite $t/big 50 65536 9
	sync
}

zscan() {
	if [ -d "$1/t" ]; then
		zwork manifest "$1/t" /tmp/now.manifest >/dev/null
	else
		: >/tmp/now.manifest   # the tree's directory lost: all of it in lost+found
	fi
	if [ -d "$1/lost+found" ]; then
		zwork manifest "$1/lost+found" /tmp/lf.manifest >/dev/null
	else
		: >/tmp/lf.manifest
	fi
}

# zmatch MANIFEST LABEL [drop]: with "drop", a file at its path may have fewer links than
# the manifest says, and a name of a file with several may be gone when the file is at
# another or in lost+found (names of it were in a directory that is gone)
zmatch() {
	awk -v label="$2" -v drop="${3:-}" '
		FILENAME == ARGV[1] { want[++n] = $0; next }
		FILENAME == ARGV[2] { now[$7] = $0; nowk[$1 " " $4 " " $5 " " $6] = 1; next }
		$1 == "f" || $1 == "l" { lf[$1 " " $4 " " $5 " " $6]++; lfk[$1 " " $4 " " $5 " " $6] = 1; lfn++ }
		END {
			for (i = 1; i <= n; i++) {
				split(want[i], w, " ")
				p = w[7]
				if (p in now) {
					seen[p] = 1
					split(now[p], h, " ")
					if (w[1] == "d" ? (h[1] == "d" && h[2] == w[2]) : now[p] == want[i] ||
					    (drop != "" && h[1] == w[1] && h[2] == w[2] && h[3] + 0 < w[3] + 0 &&
					     h[4] == w[4] && h[5] == w[5] && h[6] == w[6])) {
						at++
						continue
					}
				}
				if (w[1] == "d") {
					if (++dirs <= 5) print "info: " label ": directory not at its path: " p
					continue
				}
				k = w[1] " " w[4] " " w[5] " " w[6]
				if (lf[k] > 0) {
					lf[k]--
					if (++inlf <= 5) print "info: " label ": in lost+found: " p
					continue
				}
				if (drop != "" && w[3] > 1 && ((k in nowk) || (k in lfk))) {
					print "info: " label ": a name of a file kept elsewhere: " p
					continue
				}
				if (++bad <= 20) {
					print "verify: MISSING  " want[i]
					if (p in now) print "verify: FOUND    " now[p]
				}
			}
			for (p in now)
				if (!(p in seen) && ++extra <= 5)
					print "info: " label ": not in the manifest: " now[p]
			printf "verify: %s: %d of %d entries at their paths, %d files found in lost+found (of %d there), %d directories elsewhere, %d entries not in the manifest, %d missing\n",
				label, at, n, inlf, lfn, dirs, extra, bad
			exit bad > 0
		}' "$1" /tmp/now.manifest /tmp/lf.manifest
}
EOF

{ cat "$VM_OUT/tree.sh"; cat <<'EOF'; } | vm_guest
zmount data /mnt/a
ztree /mnt/a/t 14
zwork manifest /mnt/a/t /tmp/want.manifest
sed 's/^/MANIFEST /' /tmp/want.manifest
df -k /mnt/a
zumount /mnt/a
# the same tree after a 56 MiB file that fills the front of the main area, so that the
# logs go on past 64 MiB (Linux takes the lowest free segment for a node log that fills)
# and the first 64 MiB hold some of the tree: its first nodes, the root among them
zmount front /mnt/f
dd if=/dev/zero of=/mnt/f/filler bs=1M count=56 2>/dev/null
sync
ztree /mnt/f/t 14
zwork manifest /mnt/f/t /tmp/front.manifest
sed 's/^/FRONTMAN /' /tmp/front.manifest
zumount /mnt/f
EOF
vm_boot
vm_fsck data "after the aging"
vm_fsck front "after the aging"

want=$VM_OUT/want.manifest
sed -n 's/^MANIFEST //p' "$VM_OUT/boot1.log" >"$want"
ninodes=$(tree_inodes "$want")
nfiles=$(grep -c '^f ' "$want")
[ "$nfiles" -ge 500 ] || vm_fail "the guest's manifest lists $nfiles files, expected 500 or more"
vm_log "the tree: $(wc -l <"$want") entries, $nfiles files, $ninodes inodes"

# lf_entries IMG: the names in /lost+found (0 when there is none)
lf_entries() {
	"$DUMP" --ls /lost+found "$1" 2>/dev/null | grep -c ' name=' | awk '{ print ($1 > 2 ? $1 - 2 : 0) }'
}

# rebuild NAME WHY AREA...: a copy of the aged volume as image NAME with AREAs zeroed,
# rebuilt by our fsck (exit 1, a report whose first line gives WHY), then clean.
rebuild() {
	name=$1 why=$2
	shift 2
	img=$(vm_img "$name")
	cp --sparse=always "$(vm_img data)" "$img"
	[ -z "${RB_BEFORE:-}" ] || $RB_BEFORE "$img" || vm_error "$name: $RB_BEFORE failed"
	zap "$img" "$@" >/dev/null || vm_error "$name: zeroing $* failed"
	log=$VM_OUT/$name.rebuild.log
	"$VM_OUR_FSCK" --rebuild "$img" >"$log" 2>&1
	rc=$?
	vm_log "$name ($*): fsck --rebuild exit $rc"
	{ grep -v '^\[0x' "$log"; rbproblems "$log"; } | sed 's/^/  rebuild: /'
	while read -r fault; do
		[ -z "$fault" ] || vm_fail "$name: $fault (output in $log)"
	done <<EOF
$(rbreport "$log" "$rc" "$why" "$ninodes")
EOF
	"$VM_OUR_FSCK" -f "$img" >"$VM_OUT/$name.fsck-f.log" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		vm_fail "$name: our fsck -f after the rebuild: exit $rc, expected 0"
		tail -n 20 "$VM_OUT/$name.fsck-f.log" | sed 's/^/  fsck -f: /'
	fi
	vm_fsck "$name" "after the rebuild"
}

lf_before=$(lf_entries "$(vm_img data)")
rebuild rb_cp "no checkpoint pack was usable" cp
rebuild rb_nat "the checkpoint's SIT told live blocks from old ones" nat
rebuild rb_all "no checkpoint pack was usable" cp nat sit ssa
# the 400-entry directory's inode lost too (every copy the scan finds: an older one would
# bring it back): its files go to lost+found, which must grow
lose_many() {
	_ino=$("$top_builddir/tools/inject.f2fs" --lookup /t/many "$1") || return 1
	for _b in $("$DUMP" --scan-inode "$_ino" "$1" | sed -n 's/^ *blkaddr=\([0-9]*\) .*/\1/p'); do
		dd if=/dev/zero of="$1" bs=4096 seek="$_b" count=1 conv=notrunc status=none || return 1
	done
}
RB_BEFORE=lose_many rebuild rb_dir "no checkpoint pack was usable" cp
lf_dir=$(lf_entries "$(vm_img rb_dir)")
[ "$lf_dir" -ge 400 ] || vm_fail "rb_dir: /lost+found holds $lf_dir entries, expected the 400 of /t/many"
# the aging left what the rebuild must pass over: older copies of nodes (without a
# checkpoint), nodes in blocks the checkpoint's SIT calls free (with it)
older=$(sed -n 's/^  found: .*; \([0-9]*\) older copies passed over.*/\1/p' "$VM_OUT/rb_all.rebuild.log")
[ "${older:-0}" -gt 0 ] || vm_fail "rb_all: no older node copies passed over: the aging left none"
stale=$(sed -n 's/^  found: .*; \([0-9]*\) in blocks the SIT calls free$/\1/p' "$VM_OUT/rb_nat.rebuild.log")
[ "${stale:-0}" -gt 0 ] || vm_fail "rb_nat: no nodes in blocks the SIT calls free: the aging left none"
# with the checkpoint's SIT, deleted files stay deleted
lf_nat=$(lf_entries "$(vm_img rb_nat)")
[ "$lf_nat" -eq "$lf_before" ] ||
	vm_fail "rb_nat: /lost+found holds $lf_nat entries after the rebuild, $lf_before before"
# rb_front: the first 64 MiB of the second volume zeroed (the superblocks with the rest
# of the metadata and the start of the main area).  What must come back: every entry whose
# inode, nodes and blocks all lie past 64 MiB on the aged volume (dump.f2fs -i).
FRONT_BLOCKS=16384
front_all=$VM_OUT/front-all.manifest
sed -n 's/^FRONTMAN //p' "$VM_OUT/boot1.log" >"$front_all"
front_want=$VM_OUT/front.manifest
while read -r line; do
	set -- $line
	case $1 in
	f|l)
		ino=$("$top_builddir/tools/inject.f2fs" --lookup "/t/$7" "$(vm_img front)") || continue
		low=$("$DUMP" -i "$ino" "$(vm_img front)" | grep -o 'blkaddr[= ]*[0-9]*' |
			awk -v lim=$FRONT_BLOCKS '{ sub(/blkaddr[= ]*/, ""); if ($0 + 0 > 0 && $0 + 0 < lim) n++ }
				END { print n + 0 }')
		[ "$low" = 0 ] && echo "$line" ;;
	*) echo "$line" ;;
	esac
done <"$front_all" >"$front_want"
nfront=$(grep -c '^[fl] ' "$front_want")
nfront_all=$(grep -c '^[fl] ' "$front_all")
[ "$nfront" -ge 100 ] && [ "$nfront" -lt "$nfront_all" ] ||
	vm_fail "rb_front: $nfront of $nfront_all files lie past 64 MiB: no test"
img=$(vm_img rb_front)
cp --sparse=always "$(vm_img front)" "$img"
dd if=/dev/zero of="$img" bs=4096 count=$FRONT_BLOCKS conv=notrunc status=none
log=$VM_OUT/rb_front.rebuild.log
"$VM_OUR_FSCK" --rebuild "$img" >"$log" 2>&1
rc=$?
vm_log "rb_front (first 64 MiB zeroed; $nfront of $nfront_all files and symlinks lie past it): fsck --rebuild exit $rc"
{ grep -v '^\[0x' "$log"; rbproblems "$log"; } | sed 's/^/  rebuild: /'
[ "$rc" = 1 ] || vm_fail "rb_front: fsck --rebuild exit $rc, expected 1"
grep -q '^  written: both superblock copies' "$log" ||
	vm_fail "rb_front: the report does not say the superblocks were written"
grep -q '^  features (from the inodes): .* quota' "$log" ||
	vm_fail "rb_front: the quota files were not found again"
"$VM_OUR_FSCK" -f "$img" >"$VM_OUT/rb_front.fsck-f.log" 2>&1 ||
	vm_fail "rb_front: our fsck -f after the rebuild: exit $?"
vm_fsck rb_front "after the rebuild"
vm_log "lost+found: $lf_before entries before, rb_cp $(lf_entries "$(vm_img rb_cp)"), rb_nat $lf_nat, rb_all $(lf_entries "$(vm_img rb_all)"), rb_dir $lf_dir"

# md: the aged volume's metadata image (names kept), restored into a file: Linux must
# mount it and list the tree as it left it (file contents are not in the image)
"$top_builddir/tools/f2fs_metadump" -q -o "$(vm_img data)" "$VM_OUT/data.md" &&
	"$top_builddir/tools/f2fs_mdrestore" "$VM_OUT/data.md" "$(vm_img md)" >/dev/null ||
	vm_fail "md: f2fs_metadump or f2fs_mdrestore failed"
vm_fsck md "restored from the metadata image"

vm_all_tools
vm_detach_all
vm_attach rb_cp
vm_attach rb_nat
vm_attach rb_all
vm_attach rb_dir
vm_attach rb_front
vm_attach md
{
	cat "$VM_OUT/rebuild_lib.sh" "$VM_OUT/tree.sh" "$VM_LIBDIR/zoned_guest.sh"
	echo "cat >/tmp/want.manifest <<'ZVM_MANIFEST'"
	cat "$want"
	echo "ZVM_MANIFEST"
	echo "cat >/tmp/front.manifest <<'ZVM_MANIFEST'"
	cat "$front_want"
	echo "ZVM_MANIFEST"
	cat <<'EOF'
step "rb_nat: the tree exactly as the kernel left it, nothing in lost+found"
zmount rb_nat /mnt/rb_nat
zwork verify /mnt/rb_nat/t /tmp/want.manifest
[ ! -d /mnt/rb_nat/lost+found ] || [ -z "$(ls -A /mnt/rb_nat/lost+found)" ] ||
	zfail "rb_nat: lost+found holds $(ls -A /mnt/rb_nat/lost+found | head -n 5)"
zumount /mnt/rb_nat
for d in rb_dir rb_cp rb_all; do   # rb_all last: the self-test below reads its scan
	step "$d: every file at its path or in lost+found"
	zmount $d /mnt/$d
	zscan /mnt/$d
	zmatch /tmp/want.manifest $d $([ $d != rb_dir ] || echo drop)
	zumount /mnt/$d
done
step "md: the restored metadata image mounts, every entry where Linux left it"
zmount md /mnt/md
zwork manifest /mnt/md/t /tmp/md.manifest >/dev/null
# a file's contents (field 5) are not in the image; the rest must match
awk '$1 == "f" { $5 = "-" } { print }' /tmp/want.manifest >/tmp/want.shape
awk '$1 == "f" { $5 = "-" } { print }' /tmp/md.manifest >/tmp/md.shape
cmp -s /tmp/want.shape /tmp/md.shape ||
	{ diff /tmp/want.shape /tmp/md.shape | head -n 10; zfail "md: the restored tree differs"; }
echo "info: md: $(wc -l </tmp/md.manifest) entries as Linux left them"
zumount /mnt/md
step "rb_dir: lost+found grew past its inline area to hold /t/many's entries"
zmount rb_dir /mnt/rb_dir
n=$(ls -A /mnt/rb_dir/lost+found | wc -l)
[ "$n" -ge 400 ] || zfail "rb_dir: lost+found lists $n entries"
echo "info: rb_dir: lost+found lists $n entries, $(ls -ld /mnt/rb_dir/lost+found)"
zumount /mnt/rb_dir
step "the check fails on a file that is gone and one that differs"
{ cat /tmp/want.manifest; echo "f 0644 1 3 0000 - not-there"; } |
	sed 's/^\(f [0-7]* 1 [0-9]* \)[0-9a-f]*\( - small\/s5\)$/\1ffff\2/' >/tmp/wrong.manifest
! zmatch /tmp/wrong.manifest self-test >/tmp/self.log || zfail "the check passed a wrong manifest"
grep -q ', 2 missing$' /tmp/self.log || { cat /tmp/self.log; zfail "the check did not find the two faults"; }
step "rb_front: every file that lay past 64 MiB at its path or in lost+found"
zmount rb_front /mnt/rb_front
zscan /mnt/rb_front
zmatch /tmp/front.manifest rb_front drop
zumount /mnt/rb_front

step "zoned: null_blk, 256 MiB, 4 MiB zones, 6 conventional"
nb=$(znullb zrb 256 4 6)
mkfs.f2fs -f -m -O extra_attr,inode_checksum,flexible_inline_xattr,quota "$nb" >/tmp/mkfs.log 2>&1 ||
	{ cat /tmp/mkfs.log; zfail "mkfs"; }
zmount "$nb" /mnt/z
ztree /mnt/z/t 12
zwork manifest /mnt/z/t /tmp/z.manifest
zumount /mnt/z
ourfsck "$nb"
n=$(tree_inodes /tmp/z.manifest)
for areas in nat "cp nat sit ssa" front; do
	step "zoned: $areas zeroed, rebuilt"
	zap "$nb" $areas
	rc=0
	fsck.f2fs --rebuild "$nb" >/tmp/rb.log 2>&1 || rc=$?
	{ grep -v '^\[0x' /tmp/rb.log; rbproblems /tmp/rb.log; } | sed 's/^/info: zoned rebuild: /'
	why="no checkpoint pack was usable"
	[ "$areas" != nat ] || why="the checkpoint's SIT told live blocks from old ones"
	faults=$(rbreport /tmp/rb.log $rc "$why" "$n")
	[ "$areas" != front ] || grep -q '^  written: both superblock copies' /tmp/rb.log ||
		faults="$faults; no superblock written"
	[ -z "$faults" ] || { cat /tmp/rb.log; zfail "zoned, $areas zeroed: $faults"; }
	ourfsck "$nb"
	debfsck "$nb"
	zmount "$nb" /mnt/z
	if [ "$areas" = nat ]; then
		zwork verify /mnt/z/t /tmp/z.manifest
		[ ! -d /mnt/z/lost+found ] || [ -z "$(ls -A /mnt/z/lost+found)" ] ||
			zfail "zoned, nat zeroed: lost+found holds $(ls -A /mnt/z/lost+found | head -n 5)"
	else
		zscan /mnt/z
		zmatch /tmp/z.manifest "zoned, $areas zeroed"
	fi
	zumount /mnt/z
	ourfsck "$nb"
done
EOF
} | vm_guest
vm_boot
for d in rb_cp rb_nat rb_all rb_dir rb_front md; do
	vm_fsck "$d" "after the kernel"
done
vm_finish
