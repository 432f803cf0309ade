#!/bin/sh
# zoned_zns8.sh - a conventional disk + NVMe ZNS namespace with 8 MiB zones
# of 6 MiB capacity, in one boot: mkfs -m; our fsck clean (pass 8 on the
# devices); mount, 350 MiB written with overwrites and foreground GC, remount,
# verify; Debian's fsck and ours clean; dump.f2fs --zones equal to the
# kernel's zone report.  Then pass 8's problems made for real: a free zone
# written to (0x080003), a current zone's write pointer moved past the log's
# position (0x080001), a zone holding only warm data reset under its valid
# blocks (0x080002), a zone holding data below a write pointer short of its
# capacity (0x080004, where the round left a section to make it from).  Our
# fsck -n must report each code (exit 4), -y must fix them (exit 1: finish,
# reset, the log moved through a new checkpoint and its old zone finished),
# the rerun must be clean, dump --zones must agree with the kernel again,
# and the kernel must mount the result, write and read a file, and leave it
# clean for both fscks.  Last, a block past a log's write pointer makes the
# kernel's mount move that log: Linux 6.1 leaves the old zone open under its
# data, which our fsck reports (0x080004) and finishes; later kernels finish it
# at mount themselves, and our fsck finds nothing.  tests/images/corpus/codes_not_in_corpus names this test for
# these four codes.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup zoned_zns8 "fsck pass 8 problems and fixes on ZNS 8/6 MiB zones; 350 MiB round"
vm_all_tools
vm_disk conv 256M 4096
vm_zns zns 1G 8M 6M

{ cat "$VM_LIBDIR/zoned_guest.sh"; cat <<'EOF'; } | vm_guest
conv=$(zdisk conv); zns=$(zdisk zns)
step "ZNS 8 MiB zones / 6 MiB capacity: mkfs -m on $conv + $zns"
mkfs.f2fs -f -m -c "$zns" "$conv" >/tmp/mkfs.log 2>&1 || { cat /tmp/mkfs.log; zfail "mkfs"; }
ourfsck "$conv"
zround "$conv" /mnt/b 256 zns8
debfsck "$conv" capacity-below-size
ourfsck "$conv"
zcompare "$conv" "$zns"
step "pass 8 problems on $conv + $zns"
dump.f2fs --zones "$conv" >/tmp/dz.txt
dump.f2fs --segments "$conv" >/tmp/ds.txt
zstart=$(awk -v p="$zns" '{ delete f; for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
	/path=/ && f["path"] == p { print f["first_blkaddr"]; exit }' /tmp/dz.txt)
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# an empty zone that is not current: write one block (0x080003)
row=$(grep 'state=empty' /tmp/dz.txt | grep 'type=seq-required' | grep -v current= | tail -n 1)
s_empty=$(( ($(field "$row" zone_blkaddr) - zstart) * 8 ))
zwork zonewrite "$zns" "$s_empty" 1
# a current zone on the zoned device: one block past its write pointer (0x080001)
row=$(grep 'current=' /tmp/dz.txt | grep 'type=seq-required' | head -n 1)
s_cur=$(( ($(field "$row" zone_blkaddr) - zstart) * 8 ))
zwork zonewrite "$zns" $((s_cur + $(field "$row" wp) * 8)) 1
# a zone holding only warm data blocks, not current: reset under them (0x080002)
sec=$(awk '{ delete f; for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) f[kv[1]] = kv[2] }
	("secno" in f) { if (f["state"] == "current" || (f["valid_blocks"] > 0 && f["type"] != "warm_data")) bad[f["secno"]] = 1
		else if (f["valid_blocks"] > 0) has[f["secno"]] = 1 }
	END { for (s in has) if (!(s in bad)) { print s; exit } }' /tmp/ds.txt)
[ -n "$sec" ] || zfail "no section holding only warm data"
row=$(grep "^ *secno=$sec " /tmp/dz.txt | head -n 1)
[ "$(field "$row" type)" = seq-required ] || zfail "section $sec is not on a sequential zone: $row"
zwork zoneop "$zns" reset $(( ($(field "$row" zone_blkaddr) - zstart) * 8 ))
# another section of warm data only, on a sequential zone, whose third segment (the last
# within the 6 MiB capacity) holds nothing: reset its zone and write its first two
# segments again, so that every block in use lies below a write pointer short of the
# capacity (0x080004; their contents are lost, the check is of the zone)
codes="0x080001 0x080002 0x080003"
sec2=$(awk -v skip="$sec" '{ delete f; for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) f[kv[1]] = kv[2] }
	("secno" in f) { s = f["secno"]; k = f["segno"] % 4
		if (s == skip || f["state"] == "current" || (f["valid_blocks"] > 0 && f["type"] != "warm_data")) bad[s] = 1
		else if (f["valid_blocks"] > 0 && k == 0) has[s] = 1
		if (k >= 2 && f["valid_blocks"] > 0) bad[s] = 1 }
	END { for (s in has) if (!(s in bad)) { print s; exit } }' /tmp/ds.txt)
row2=
[ -z "$sec2" ] || row2=$(grep "^ *secno=$sec2 " /tmp/dz.txt | head -n 1)
if [ -n "$row2" ] && [ "$(field "$row2" type)" = seq-required ]; then
	z2=$(( ($(field "$row2" zone_blkaddr) - zstart) * 8 ))
	zwork zoneop "$zns" reset "$z2"
	zwork zonewrite "$zns" "$z2" 1024
	codes="$codes 0x080004"
else
	echo "info: no section of warm data with an empty third segment: 0x080004 not made"
fi
rc=0; fsck.f2fs -f -n "$conv" >/tmp/f1.log 2>&1 || rc=$?
cat /tmp/f1.log
[ "$rc" -eq 4 ] || zfail "fsck -n exit $rc, expected 4"
for code in $codes; do
	grep -q "^\[$code\]" /tmp/f1.log || zfail "fsck -n did not report $code"
done
rc=0; fsck.f2fs -f -y "$conv" >/tmp/f2.log 2>&1 || rc=$?
cat /tmp/f2.log
[ "$rc" -eq 1 ] || zfail "fsck -y exit $rc, expected 1"
ourfsck "$conv"
zcompare "$conv" "$zns"
zmount "$conv" /mnt/b
zwork writefile /mnt/b/after-fix 2048 7 fsync
zumount /mnt/b
zdrop_caches
zmount "$conv" /mnt/b
zwork checkfile /mnt/b/after-fix 2048 7
zumount /mnt/b
ourfsck "$conv"
debfsck "$conv" capacity-below-size
step "a log moved by the kernel's mount leaves its zone part-written"
# a block past a current zone's write pointer again: the kernel's mount moves the log to
# a new section; Linux 6.1 leaves the old zone open under its data (fsck's 0x080004),
# later kernels finish it at mount, which leaves nothing for fsck
dump.f2fs --zones "$conv" >/tmp/dz.txt
row=$(grep 'current=' /tmp/dz.txt | grep 'type=seq-required' | head -n 1)
zb=$(field "$row" zone_blkaddr)
zwork zonewrite "$zns" $(( (zb - zstart) * 8 + $(field "$row" wp) * 8 )) 1
zmount "$conv" /mnt/b
zumount /mnt/b
dump.f2fs --zones "$conv" >/tmp/dz2.txt
after=$(grep " zone_blkaddr=$zb " /tmp/dz2.txt | head -n 1)
echo "info: the log's old zone after the kernel's mount: $after"
case $(field "$after" current) in ?*) zfail "the kernel's mount left a log in the zone at $zb: $after" ;; esac
case $(uname -r) in
6.1|6.1.*)
	[ "$(field "$after" state)" != full ] || zfail "Linux 6.1 finished the zone at $zb"
	rc=0; fsck.f2fs -f -n "$conv" >/tmp/f3.log 2>&1 || rc=$?
	cat /tmp/f3.log
	# a state Linux 6.1 makes itself: reported, but no error (exit 0) when left
	[ "$rc" -eq 0 ] && grep -q '^\[0x080004\]' /tmp/f3.log ||
		zfail "fsck -n: exit $rc, expected 0 with 0x080004 for the zone Linux 6.1 left open"
	rc=0; fsck.f2fs -f -y "$conv" >/tmp/f4.log 2>&1 || rc=$?
	[ "$rc" -eq 1 ] || { cat /tmp/f4.log; zfail "fsck -y exit $rc, expected 1"; }
	echo "info: Linux 6.1 left the zone open: 0x080004 reported and fixed" ;;
*)
	[ "$(field "$after" state)" = full ] || zfail "Linux $(uname -r) did not finish the zone at $zb"
	echo "info: Linux $(uname -r) finished the zone at mount: nothing for fsck" ;;
esac
ourfsck "$conv"
zcompare "$conv" "$zns"
zmount "$conv" /mnt/b
zwork checkfile /mnt/b/after-fix 2048 7
zumount /mnt/b
debfsck "$conv" capacity-below-size
EOF
vm_boot
vm_finish
