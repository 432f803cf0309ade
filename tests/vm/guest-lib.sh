# guest-lib.sh - shell helpers for scenario bodies, sourced in the guest.
#
# Scenario bodies run under "sh -e" with this file sourced, so a failing
# command ends the scenario with a non-zero ZVM-EXIT.  Everything printed
# lands in the console log on the host.  Helpers:
#   step TEXT                 mark progress (ZVM-STEP: TEXT)
#   zdisk NAME                /dev path of the disk declared as NAME
#   zmount NAME|DEV DIR [OPTS] / zumount DIR
#   zdrop_caches              drop the page cache (re-read from the device)
#   zf2fs_knob DEV KNOB [VAL] read or write /sys/fs/f2fs/<dev>/<knob>
#   zgc_calls [DEV]           "total background" GC call counts (debugfs)
#   zstatus                   print the f2fs debugfs status page
#   zcursegs                  the current segments of every log (debugfs), one per line
#   ztrace_on EVENT / ztrace_count EVENT / ztrace_off
#                             f2fs tracepoints through tracefs
#   zgc_traced NAME DIR SYNC COUNT
#                             COUNT GC ioctls on the volume at DIR, the kernel's
#                             victims printed as "info: gctrace NAME ..." lines
#   znullb NAME MB ZONE_MB NR_CONV [CAP_MB]
#                             a zoned null_blk made through configfs
#   zpowercut                 power off now: no sync, no unmount
#   zfail TEXT                fail the scenario with a message
#   zkernel_at_least MAJ MIN  whether the booted kernel is MAJ.MIN or later

step() {
	echo "ZVM-STEP: $*"
}

zfail() {
	echo "ZVM-FAIL: $*"
	exit 1
}

zkernel_at_least() {
	_v=$(uname -r)
	_maj=${_v%%.*}
	_min=${_v#*.}
	_min=${_min%%[!0-9]*}
	[ "$_maj" -gt "$1" ] || { [ "$_maj" -eq "$1" ] && [ "$_min" -ge "$2" ]; }
}

# zdisk NAME: virtio disks carry NAME as their serial; NVMe namespaces
# are found by their controller's serial.
zdisk() {
	for s in /sys/block/*/serial /sys/block/*/device/serial; do
		[ -r "$s" ] || continue
		if [ "$(cat "$s" | tr -d ' ')" = "$1" ]; then
			d=${s#/sys/block/}
			echo "/dev/${d%%/*}"
			return 0
		fi
	done
	return 1
}

zdev() {
	case "$1" in
	/dev/*) echo "$1" ;;
	*) zdisk "$1" ;;
	esac
}

zmount() {
	dev=$(zdev "$1") || zfail "no disk $1"
	mkdir -p "$2"
	if [ -z "$3" ]; then
		mount -t f2fs "$dev" "$2"
	elif ! mount -t f2fs -o "$3" "$dev" "$2" 2>/tmp/zmount.err; then
		# Kernels after 6.1 refuse background_gc=off on a zoned volume ("zoned devices
		# need bggc"); there the GC thread's zoned threshold holds it off instead: with
		# gc_no_zoned_gc_percent 0 it never finds the free space short.  (A GC pass in
		# the moment between the mount and the knob needs a nearly full volume.)
		case ",$3," in
		*,background_gc=off,*) dmesg | tail -n 3 | grep -q 'zoned devices need bggc' ;;
		*) false ;;
		esac || { cat /tmp/zmount.err >&2; return 1; }
		opts=$(echo ",$3," | sed 's/,background_gc=off,/,/; s/^,//; s/,$//')
		mount -t f2fs ${opts:+-o "$opts"} "$dev" "$2" || return 1
		zf2fs_knob "$dev" gc_no_zoned_gc_percent 0
		echo "mount: background_gc=off refused on a zoned volume; gc_no_zoned_gc_percent 0"
	fi
	echo "mounted: $(grep " $2 " /proc/mounts)"
}

zumount() {
	umount "$1"
	echo "unmounted: $1"
}

zdrop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

zf2fs_knob() {
	k=/sys/fs/f2fs/${1#/dev/}/$2
	if [ $# -gt 2 ]; then
		echo "$3" >"$k"
	else
		cat "$k"
	fi
}

zstatus() {
	cat /sys/kernel/debug/f2fs/status
}

# The log lines ("- COLD data:", "- Pinned file:", ...) give the segment first in
# Linux 6.1 ("segno, secno, zoneno"); later kernels print a header row
# ("TYPE blkoff segno secno ...") and put the block offset first.
zcursegs() {
	zstatus | awk '
		$1 == "TYPE" { for (i = 2; i <= NF; i++) if ($i == "segno") col = i - 1 }
		/ data:| dnode:| nodes:| file:/ {
			for (i = 1; i <= NF; i++)
				if ($i ~ /:$/) { v = $(i + (col ? col : 1)); sub(/,$/, "", v); print v; break }
		}'
}

# zgc_calls: prints "<all> <background>" summed over mounted volumes, from
# the "GC calls: N (BG: M)" lines (the label of the second number changed
# across kernels, so only the numbers are read).
zgc_calls() {
	sed -n 's/.*GC calls: \([0-9]*\) (\([^:]*\): *\([0-9]*\)).*/\1 \3/p' \
		/sys/kernel/debug/f2fs/status |
		awk '{ a += $1; b += $2 } END { print a + 0, b + 0 }'
}

ztrace_on() {
	echo 0 >/sys/kernel/tracing/tracing_on
	echo >/sys/kernel/tracing/trace
	echo 1 >"/sys/kernel/tracing/events/$1/enable"
	echo 1 >/sys/kernel/tracing/tracing_on
}

ztrace_count() {
	grep -c "${1#*/}:" /sys/kernel/tracing/trace || true
}

ztrace_off() {
	echo 0 >/sys/kernel/tracing/tracing_on
}

# zgc_traced NAME DIR SYNC COUNT: F2FS_IOC_GARBAGE_COLLECT (SYNC 1 foreground, 0
# background) COUNT times on the mounted volume at DIR under the f2fs_get_victim trace.
# Prints "info: gcstop NAME nodata|all" (whether the calls ran out of victims) and one
# "info: gctrace NAME GC ALLOC POLICY VICTIM COST OFS_UNIT CLOCK CLOCK_LO" line per
# selection, for the host to compare with gc.f2fs replay.  CLOCK is the kernel's clock at
# the newest data or node write before the selection, in seconds after the mount (0 when
# none): every such write raises the newest-write time cost-benefit scales segment ages
# by, so on a slow machine, where the calls run past the mount's second, background
# costs move with it.  The trace runs on the boot clock, the one the kernel's f2fs clock
# and mounted_time_sec count in; META writes (checkpoint, SIT, NAT) leave segment times
# alone.  The kernel stamps a write with the coarse boot clock, which only moves at a
# timer tick (late on a loaded machine), and before the traced submission: a write traced
# just after a second began may carry the second before.  CLOCK_LO is the clock of the
# newest write taken 0.5 s earlier, the host's second guess.
# Periodic writeback is off during the calls: the flusher writing the pages a background
# call moved dirties their node pages, and dirty node pages decide when a background call
# turns foreground; left on, that moment would follow the machine's load, not the volume.
zgc_traced() {
	wb=$(cat /proc/sys/vm/dirty_writeback_centisecs)
	ex=$(cat /proc/sys/vm/dirty_expire_centisecs)
	echo 0 >/proc/sys/vm/dirty_writeback_centisecs
	echo 360000 >/proc/sys/vm/dirty_expire_centisecs
	t=/sys/kernel/tracing
	d=$(awk -v m="$2" '$2 == m { print $1 }' /proc/mounts)
	mounted=$(cat "/sys/fs/f2fs/${d#/dev/}/mounted_time_sec") || zfail "no mounted_time_sec for $d"
	echo boot >$t/trace_clock
	# a foreground call writes thousands of blocks: room for all of them
	echo 32768 >$t/buffer_size_kb
	# the event is f2fs_submit_folio_write in kernels after 6.1 (same type field)
	sw=$t/events/f2fs/f2fs_submit_page_write
	[ -d $sw ] || sw=$t/events/f2fs/f2fs_submit_folio_write
	echo 1 >$sw/enable
	ztrace_on f2fs/f2fs_get_victim
	res=$(zwork gc "$2" "$3" "$4") || true
	ztrace_off
	echo 0 >$sw/enable
	echo "$wb" >/proc/sys/vm/dirty_writeback_centisecs
	echo "$ex" >/proc/sys/vm/dirty_expire_centisecs
	echo "$res"
	case "$res" in
	*"No data available"*) echo "info: gcstop $1 nodata" ;;
	*) echo "info: gcstop $1 all" ;;
	esac
	# an overrun drops the oldest events: the host must not compare a partial list
	grep -q "^overrun: [1-9]" $t/per_cpu/cpu*/stats &&
		echo "info: gctrace-lost $1 $(grep -h overrun $t/per_cpu/cpu*/stats | tr '\n' ' ')"
	awk -v m="$mounted" -v name="$1" -v slack=0.5 '
		/f2fs_submit_(page|folio)_write:/ && / type = [A-Z]*_(DATA|NODE)$/ {
			for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i + 0; break }
			s = int(t) - m
			if (s > clock) clock = s
			s = int(t - slack) - m
			if (s > lo) lo = s
			next
		}
		/f2fs_get_victim:/ {
			if (match($0, /policy = \([A-Za-z]* GC, [A-Z_]*-mode, [A-Za-z-]*\), victim = [0-9]*, cost = [0-9]*, ofs_unit = [0-9]*/)) {
				f = substr($0, RSTART, RLENGTH)
				gsub(/policy = \(|GC,|-mode,|\),|victim = |, cost = |, ofs_unit = /, " ", f)
				split(f, a, " ")
				print "info: gctrace", name, a[1], a[2], a[3], a[4], a[5], a[6], clock + 0, lo + 0
			}
		}' $t/trace
}

# znullb NAME SIZE_MB ZONE_MB NR_CONV [ZONE_CAP_MB]: prints the device path.
# The disk name depends on the kernel (nullb<index>, or NAME), so the new
# entry of /sys/block is what counts.
znullb() {
	c=/sys/kernel/config/nullb/$1
	before=$(ls /sys/block)
	mkdir "$c"
	echo 4096 >"$c/blocksize"
	echo "$2" >"$c/size"
	echo 1 >"$c/memory_backed"
	echo 1 >"$c/zoned"
	echo "$3" >"$c/zone_size"
	echo "$4" >"$c/zone_nr_conv"
	[ -z "$5" ] || echo "$5" >"$c/zone_capacity"
	echo 1 >"$c/power"
	for i in 1 2 3 4 5 6 7 8 9 10; do
		for b in $(ls /sys/block); do
			case " $(echo $before) " in
			*" $b "*) ;;
			*) echo "/dev/$b"; return 0 ;;
			esac
		done
		sleep 1
	done
	echo "znullb: no new block device for $1" >&2
	return 1
}

zpowercut() {
	echo "ZVM-STEP: power cut (no sync, no unmount)"
	echo "ZVM-EXIT 0"
	# let the serial port drain before the power goes
	sleep 1
	echo 1 >/proc/sys/kernel/sysrq
	echo o >/proc/sysrq-trigger
	sleep 10
}
