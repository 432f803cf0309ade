#!/bin/sh
# gc_sim_validate.sh - gc.f2fs simulate against the kernel: write amplification.
#
# Three volumes, one boot, the same workload on each (mount -o
# mode=lfs,background_gc=off), and the first one again in the kernel's default
# mode=adaptive: 1 MiB files filling 85% of the free user
# blocks, then random 4 KiB O_SYNC overwrites: a warm-up of $SIM_W1 writes,
# then $SIM_W2 measured ones (3000 + 3000 on the zoned volumes).  The kernel's WAF is the sectors written to the
# device (/sys/block/*/stat, field 7) during the measured writes over the
# bytes they wrote.  gc.f2fs simulate runs the same geometry, mkfs options,
# file count and write counts; its WAF over the same window must be within
# 15% of the kernel's.
#   plain   virtio disk 256 MiB, mkfs defaults (host mkfs)
#   zauto   zoned null_blk 384 MiB, 8 MiB zones (6 conventional), mkfs -m
#   z8      the same with -Z 8 and the -o that keeps zauto's overprovision
#           segments (computed by gc.f2fs simulate --equal-op)
#   adapt   plain again (mkfs in the guest), mounted background_gc=off only:
#           mode=adaptive; on a volume this small the kernel updates every
#           overwrite in place (ipu_policy force), so the data stays put and the
#           inodes (new mtime, O_SYNC) are what moves, through SSR when free
#           sections run low
#   ssr     the same with ipu_policy 0 (sysfs): every write out of place, so the
#           data logs reuse dirty segments by SSR once free sections run low
#           (simulate --ipu-policy none)
# And the 2023 finding: fewer reserved sections at equal overprovision
# segments give a lower WAF, in the kernel and in the simulation.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

GC_TOOL=$top_builddir/tools/gc.f2fs
[ -x "$GC_TOOL" ] || vm_skip "tools/gc.f2fs is not built"
SIM_W1=${SIM_W1:-5000}
SIM_W2=${SIM_W2:-5000}
# zoned null_blk takes several ms per sync write under TCG: fewer writes there
SIM_ZW1=${SIM_ZW1:-3000}
SIM_ZW2=${SIM_ZW2:-3000}
ZZONES=48
ZCONV=6
SIM_FILL=${SIM_FILL:-85}
SIM_TOL=${SIM_TOL:-15}

vm_setup gc_sim_validate "kernel WAF vs gc.f2fs simulate (plain 256 MiB; zoned null_blk 384 MiB -Z auto vs -Z 8 at equal OP)"
[ -x "$VM_MKFS" ] || vm_error "mkfs not found: $VM_MKFS (build it, or set ZF2FS_MKFS)"

# sim NAME W1 W2 GEOMETRY...: the simulated run; prints the file count, keeps the WAF
sim() {
	name=$1
	w1=$2
	w2=$3
	shift 3
	[ "$w1" -eq "$w2" ] || vm_error "sim: the warm-up and the measured writes must be equal"
	if ! "$GC_TOOL" simulate "$@" --fill "$SIM_FILL" --ops $((w1 + w2)) --sync \
		--samples 2 --series "$VM_OUT/$name.sim.csv" --format json >"$VM_OUT/$name.sim.json" \
		2>"$VM_OUT/$name.sim.err"; then
		vm_error "gc.f2fs simulate failed for $name: $(cat "$VM_OUT/$name.sim.err")"
	fi
	sed -n 's/.*"files": \([0-9]*\),.*/\1/p' "$VM_OUT/$name.sim.json" | head -n 1
}

# the -o that gives -Z 8 the overprovision segments of the automatic layout
zop=$("$GC_TOOL" simulate --zoned $ZZONES:8M --conv-zones $ZCONV --compare reserved=auto,8 --equal-op \
	--ops 1 --format csv 2>/dev/null | awk -F, '$1 == "8" { print $4 }')
[ -n "$zop" ] || vm_error "gc.f2fs simulate --equal-op gave no overprovision ratio"
f_plain=$(sim plain "$SIM_W1" "$SIM_W2" --mode lfs --size 256M)
f_zauto=$(sim zauto "$SIM_ZW1" "$SIM_ZW2" --mode lfs --zoned $ZZONES:8M --conv-zones $ZCONV)
f_z8=$(sim z8 "$SIM_ZW1" "$SIM_ZW2" --mode lfs --zoned $ZZONES:8M --conv-zones $ZCONV -Z 8 -o "$zop")
f_adapt=$(sim adapt "$SIM_W1" "$SIM_W2" --mode adaptive --size 256M)
f_ssr=$(sim ssr "$SIM_W1" "$SIM_W2" --mode adaptive --ipu-policy none --size 256M)
vm_log "files: plain $f_plain, zauto $f_zauto, z8 $f_z8 (-Z 8 -o $zop), adapt $f_adapt, ssr $f_ssr"

vm_disk plain 256M
vm_mkfs plain || vm_fail "mkfs plain failed"
vm_tool "$VM_MKFS" mkfs.f2fs

vm_guest <<EOF
W1=$SIM_W1
W2=$SIM_W2
ZW1=$SIM_ZW1
ZW2=$SIM_ZW2
F_PLAIN=$f_plain
F_ZAUTO=$f_zauto
F_Z8=$f_z8
F_ADAPT=$f_adapt
F_SSR=$f_ssr
ZOP=$zop
ZMB=$((ZZONES * 8))
ZCONV=$ZCONV
EOF
cat >>"$VM_OUT/scenario.sh" <<'EOF'
sectors() {
	cat "/sys/block/${1#/dev/}/stat" | awk '{ print $7 }'
}

# wcase NAME DEV FILES SEED W1 W2 [MOUNT-OPTIONS [IPU-POLICY]]
wcase() {
	W1=$5
	W2=$6
	zmount "$2" /mnt/w "${7:-mode=lfs,background_gc=off}"
	if [ -n "$8" ]; then
		for f in /sys/fs/f2fs/*/ipu_policy; do echo "$8" >"$f"; done
	fi
	step "$1: fill $3 files of 1 MiB, $W1 + $W2 sync 4 KiB overwrites"
	zwork fill /mnt/w/d "$3M" 1024 "$4"
	sync
	zwork overwrite /mnt/w/d "$W1" 4096 "$(($4 + 1))" sync
	sync
	a=$(sectors "$2")
	zwork overwrite /mnt/w/d "$W2" 4096 "$(($4 + 2))" sync
	b=$(sectors "$2")
	set -- "$1" $(zgc_calls)
	echo "info: simwaf $1 $a $b $W2 gc=$2"
	echo "info: ipu_policy $1 $(cat /sys/fs/f2fs/*/ipu_policy 2>/dev/null | head -n 1)"
	grep -E '^(IPU|SSR|LFS):|CP calls' /sys/kernel/debug/f2fs/status | sed "s/^/info: $1 /"
	zumount /mnt/w
}

wcase plain "$(zdisk plain)" "$F_PLAIN" 101 "$W1" "$W2"
mkfs.f2fs -f "$(zdisk plain)" >/dev/null
wcase adapt "$(zdisk plain)" "$F_ADAPT" 401 "$W1" "$W2" background_gc=off
mkfs.f2fs -f "$(zdisk plain)" >/dev/null
wcase ssr "$(zdisk plain)" "$F_SSR" 501 "$W1" "$W2" background_gc=off 0

nullb_off() {
	echo 0 >"/sys/kernel/config/nullb/$1/power"
	rmdir "/sys/kernel/config/nullb/$1"
}

nb=$(znullb zauto $ZMB 8 $ZCONV)
mkfs.f2fs -f -m "$nb" | grep -i 'overprovision' || true
wcase zauto "$nb" "$F_ZAUTO" 201 "$ZW1" "$ZW2"
nullb_off zauto

nb=$(znullb z8 $ZMB 8 $ZCONV)
mkfs.f2fs -f -m -Z 8 -o "$ZOP" "$nb" | grep -i 'overprovision' || true
wcase z8 "$nb" "$F_Z8" 301 "$ZW1" "$ZW2"
nullb_off z8
EOF
vm_boot

log=$VM_OUT/boot1.log
summary=$VM_OUT/summary.txt
: >"$summary"
for c in plain zauto z8 adapt ssr; do
	line=$(sed -n "s/^info: simwaf $c //p" "$log")
	if [ -z "$line" ]; then
		vm_fail "$c: no measurement from the guest"
		continue
	fi
	# shellcheck disable=SC2086 # fields
	set -- $line
	kw=$(awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.3f", (b - a) * 512 / (n * 4096) }')
	sw=$(tail -n 1 "$VM_OUT/$c.sim.csv" | awk -F, '{ printf "%.3f", $5 }')
	dev=$(awk -v k="$kw" -v s="$sw" 'BEGIN { d = (s - k) / k * 100; printf "%+.1f", d }')
	echo "$c kernel $kw simulated $sw ($dev%) $4" >>"$summary"
	if awk -v k="$kw" -v s="$sw" -v t="$SIM_TOL" 'BEGIN { d = (s - k) / k * 100; exit !(d <= t && d >= -t) }'; then
		vm_log "$c: WAF kernel $kw, simulated $sw ($dev%): within $SIM_TOL%"
	else
		vm_fail "$c: WAF kernel $kw, simulated $sw ($dev%): off by more than $SIM_TOL%"
	fi
done
waf() { awk -v c="$1" -v f="$2" '$1 == c { print $f }' "$summary"; }
for f in 3 5; do
	what=kernel
	[ "$f" -eq 5 ] && what=simulation
	if [ -n "$(waf z8 $f)" ] && [ -n "$(waf zauto $f)" ] &&
	   awk -v a="$(waf zauto $f)" -v b="$(waf z8 $f)" 'BEGIN { exit !(b < a) }'; then
		vm_log "$what: -Z 8 WAF $(waf z8 $f) < automatic reserve WAF $(waf zauto $f) at equal overprovision segments"
	else
		vm_fail "$what: -Z 8 WAF $(waf z8 $f) is not below the automatic reserve's $(waf zauto $f)"
	fi
done
sed 's/^/  /' "$summary"
vm_fsck plain
vm_finish
