#!/bin/busybox sh
# guest-init.sh - /init of the kernel bench guest (runs as PID 1).
#
# Mounts the kernel file systems, loads the modules listed by the host in
# /lib/modules/load.list, waits for the disks the scenario declared, runs
# the scenario script and reports on the serial console:
#   ZVM-READY                  modules loaded, disks present
#   ZVM-EXIT <status>          the scenario's exit status
#   ZVM-DMESG-BEGIN ... END    the whole kernel log with levels (dmesg -r)
# then powers off.  The host treats a missing ZVM-EXIT as a failed boot.

/bin/busybox mkdir -p /proc /sys /dev /tmp /mnt /bin /sbin /usr/bin /usr/sbin /run
/bin/busybox --install -s
mount -t devtmpfs devtmpfs /dev
# The archive holds no device nodes (it is built without root), so the
# kernel found no /dev/console for us: attach to it now.
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
export PATH=/zvm/bin:/bin:/sbin:/usr/bin:/usr/sbin
export HOME=/tmp

zvm_poweroff() {
	sync
	poweroff -f
	sleep 5
	echo o >/proc/sysrq-trigger
}

kver=$(uname -r)
while read -r mod args; do
	[ -n "$mod" ] || continue
	# shellcheck disable=SC2086 # module parameters are words
	insmod "/lib/modules/$kver/$mod" $args 2>/tmp/insmod.err ||
		echo "ZVM-WARN: insmod $mod: $(cat /tmp/insmod.err)"
done </lib/modules/load.list
grep -q configfs /proc/filesystems && mount -t configfs configfs /sys/kernel/config

if ! grep -qw f2fs /proc/filesystems; then
	echo "ZVM-ERROR: the f2fs module did not load"
	echo "ZVM-EXIT 99"
	zvm_poweroff
fi

. /zvm/lib.sh

# Wait up to 30 s for every declared disk (virtio and NVMe probe async).
missing=
for name in $(cat /zvm/disks 2>/dev/null); do
	n=0
	while ! zdisk "$name" >/dev/null 2>&1; do
		n=$((n + 1))
		if [ "$n" -gt 300 ]; then
			missing="$missing $name"
			break
		fi
		usleep 100000
	done
done
if [ -n "$missing" ]; then
	echo "ZVM-ERROR: disks not found:$missing (block devices: $(ls /sys/block | tr '\n' ' '))"
	echo "ZVM-EXIT 99"
	zvm_poweroff
fi

# Zoned NVMe namespaces: Linux 6.1 gives them no I/O scheduler ("none"), and only
# mq-deadline's zone write locking keeps the writes to a sequential zone in order.  Without
# it F2FS's writers (writeback, the GC thread, checkpoints) reach a zone out of order, the
# namespace refuses the writes (NVMe status 0xbc, Zone Invalid Write) and the blocks are
# lost while the SIT counts them valid.  ZNS users set it (udev rules); so does the bench.
for q in /sys/block/nvme*/queue; do
	[ "$(cat "$q/zoned" 2>/dev/null)" = host-managed ] || continue
	echo mq-deadline > "$q/scheduler" ||
		echo "ZVM-WARNING: cannot set mq-deadline on ${q%/queue}"
done

echo
echo "ZVM-READY kernel $kver, $(grep -c ^processor /proc/cpuinfo) cpus, disks: $(for d in $(cat /zvm/disks 2>/dev/null); do printf '%s=%s ' "$d" "$(zdisk "$d")"; done)"
mkdir -p /mnt
cd /tmp || exit 1
sh -e -c '. /zvm/lib.sh; . /zvm/scenario.sh'
status=$?
echo "ZVM-EXIT $status"
echo "ZVM-DMESG-BEGIN"
dmesg -r
echo "ZVM-DMESG-END"
zvm_poweroff
