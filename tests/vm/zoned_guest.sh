# zoned_guest.sh - shell functions the zoned_*.sh scenarios run in the guest
# (prepended to each scenario body): Debian's and our fsck, dump --zones
# against the kernel's zone report, and a write round with GC.
# debfsck DEV [capacity-below-size]: Debian's fsck, read-only (fsck.f2fs 1.15 miscounts
# the free segments when the zone capacity is below the zone size; that line alone is
# reported, not failed).
debfsck() {
	[ -x /zvm/debian/fsck.f2fs ] || return 0
	rc=0
	/zvm/debian/fsck.f2fs --dry-run "$1" >/tmp/dfsck.log 2>&1 || rc=$?
	if [ -n "$2" ] && grep -q 'free segment_count matched with CP *\[Fail\]' /tmp/dfsck.log; then
		echo "info: known fsck 1.15 miscount on $1: $(grep 'free segment_count' /tmp/dfsck.log | tr -s ' ')"
		sed -i '/free segment_count matched with CP/d' /tmp/dfsck.log
		[ "$rc" -ne 4 ] || rc=0
	fi
	if [ "$rc" -ne 0 ] ||
	   grep -E '\[Fail\]|\[FIX\]|[Cc]orrupt|[Ii]nvalid|[Mm]ismatch' /tmp/dfsck.log | grep -v '\[Ok\.\.\]'; then
		cat /tmp/dfsck.log
		zfail "Debian's fsck found problems on $1 (exit $rc)"
	fi
	echo "info: Debian's fsck clean on $1"
}

# ourfsck DEV: our fsck, read-only, must be clean and must have read the
# write pointers (pass 8 on the devices themselves).
ourfsck() {
	rc=0
	fsck.f2fs -f -n -d 2 "$1" >/tmp/ofsck.log 2>&1 || rc=$?
	grep '^zoned: checkpoint free_segment_count' /tmp/ofsck.log | sed 's/^/info: /' || true
	if [ "$rc" -ne 0 ] || grep -q '^\[0x' /tmp/ofsck.log; then
		cat /tmp/ofsck.log
		zfail "our fsck found problems on $1 (exit $rc)"
	fi
	grep -q 'checked the write pointers of [1-9]' /tmp/ofsck.log ||
		{ cat /tmp/ofsck.log; zfail "our fsck did not check the write pointers of $1"; }
	echo "info: our fsck clean on $1: $(grep 'checked the write pointers' /tmp/ofsck.log); $(tail -n 1 /tmp/ofsck.log)"
}

# zcompare VOLDEV ZONEDDEV: dump --zones against the kernel's zone report,
# zone by zone (write pointer and capacity of every sequential zone of the
# main area; full zones count their capacity as written, both sides).
zcompare() {
	dump.f2fs --zones "$1" >/tmp/dz.txt
	zwork zones "$2" >/tmp/kz.txt
	path=$2
	awk -v path="$path" '
		FNR == NR {
			if ($1 == "zone") { kwp[$2] = ($7 == 14) ? $4 : $5 - $2; kcap[$2] = $4; kt[$2] = $6 }
			next
		}
		{
			delete f
			for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) f[kv[1]] = kv[2]
			if (("path" in f) && f["path"] == path) { dev = f["dev"]; first = f["first_blkaddr"] }
			if (!("secno" in f) || f["dev"] != dev || f["type"] == "none") next
			s = (f["zone_blkaddr"] - first) * 8
			if (!(s in kcap)) { print "no kernel zone at sector " s; bad++; next }
			n++
			if (f["type"] == "conventional") { if (kt[s] != 1) { print "type differs at " s; bad++ }; conv++; next }
			seq++
			if (f["wp"] * 8 != kwp[s] || f["capacity"] * 8 != kcap[s]) {
				print "zone at sector " s ": dump wp " f["wp"] " cap " f["capacity"] ", kernel wp " kwp[s] / 8 " cap " kcap[s] / 8
				bad++
			}
			if (f["wp"] > 0) written++
		}
		END {
			printf "zcompare: %d zones (%d sequential, %d with data, %d conventional), %d differ\n", n, seq, written, conv, bad
			exit bad > 0 || seq == 0
		}' /tmp/kz.txt /tmp/dz.txt || { head -n 40 /tmp/dz.txt; zfail "dump --zones differs from the kernel on $2"; }
}

# zround DEV MOUNT FILL_MIB LABEL [OPTIONS]: fill, overwrite, foreground GC, verify.
# OPTIONS are the mount options of the writing mount (default background_gc=off; an
# empty string leaves the kernel's defaults, background GC on).
zround() {
	zmount "$1" "$2" "${5-background_gc=off}"
	zwork fill "$2/d" "$3M" 4096 41
	sync
	zwork overwrite "$2/d" 1500 65536 42
	sync
	zwork overwrite "$2/d" 200 4096 43 sync
	zwork gc "$2" 1 6
	echo "info: GC calls (total background): $(zgc_calls)"
	zwork manifest "$2/d" "/tmp/$4.manifest"
	df -k "$2"
	zumount "$2"
	zdrop_caches
	zmount "$1" "$2"
	zwork verify "$2/d" "/tmp/$4.manifest"
	zumount "$2"
}

