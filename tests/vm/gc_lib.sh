# gc_lib.sh - host helpers of the GC scenarios (sourced after vmlib.sh).
#
#   gc_compare CASE SNAPSHOT fg|bg [REPLAY_OPTIONS...]
#       the kernel's victims of CASE, read from the "info: gctrace CASE ..."
#       lines of the boot log ($log), against gc.f2fs replay on the snapshot
#       image: same victims, same order, same costs.  One exception: a background
#       (cost-benefit) cost after foreground GC has moved blocks depends on the seconds
#       between the kernel's mount and that move (the moved blocks' mtime), which the
#       trace does not record; there only the victim is compared.  Both lists are kept in
#       $VM_OUT/CASE.kernel and $VM_OUT/CASE.replay.  When the kernel's last
#       call found no victim ("info: gcstop CASE nodata"), replay must stop
#       there too: one more step asked gives "no victim" (in background runs, or
#       takes over a section the kernel's background GC chose once and did not
#       take over: that depends on the flusher's timing, see below).

gc_compare() {
	case_name=$1
	snap=$2
	gtype=$3
	shift 3
	kern=$VM_OUT/$case_name.kernel
	repl=$VM_OUT/$case_name.replay
	# "<gc> <alloc> <policy> <victim> <cost> <ofs_unit>": GC victims only (LFS)
	sed -n "s/^info: gctrace $case_name \\(.*\\)/\\1/p" "$log" | awk '$2 == "LFS" { print $4, $5 }' >"$kern"
	# which kernel lines have a clock-dependent cost: background ones after a foreground one
	sed -n "s/^info: gctrace $case_name \\(.*\\)/\\1/p" "$log" |
		awk '$2 == "LFS" { print (fg && $1 == "Background") ? 1 : 0; if ($1 == "Foreground") fg = 1 }' \
		>"$kern.clock"
	n=$(wc -l <"$kern")
	if [ "$n" -eq 0 ]; then
		vm_fail "$case_name: the kernel traced no GC victim"
		return 1
	fi
	ask=$n
	nodata=
	grep -q "^info: gcstop $case_name nodata" "$log" && { nodata=1; ask=$((n + 1)); }
	if ! "$GC_TOOL" replay "$(vm_img "$snap")" --gc-type "$gtype" --count "$ask" --json "$@" \
		>"$repl.json" 2>"$repl.err"; then
		vm_fail "$case_name: gc.f2fs replay failed: $(cat "$repl.err")"
		return 1
	fi
	sed -n 's/.*"segno": \([0-9]*\),.*"cost": \([0-9]*\),.*/\1 \2/p' "$repl.json" >"$repl"
	if [ -n "$nodata" ] && ! grep -q '"stopped": "no victim"' "$repl.json"; then
		extra=$(sed -n "$((n + 1))p" "$repl" | cut -d' ' -f1)
		if [ "$gtype" = bg ] && [ -n "$extra" ] &&
		   [ "$(awk -v s="$extra" '$1 == s { c++ } END { print c + 0 }' "$kern")" -eq 1 ]; then
			# The kernel turns a background call into a foreground one when free sections
			# run short, and the foreground pass first takes a section background GC
			# already chose.  That test counts free sections and dirty node/dentry pages,
			# both of which change when the flusher writes the pages background GC only
			# dirtied, at a time the trace does not record (under load, later than usual).
			# Replay writes them at once, so one more take-over of a background victim
			# the kernel had not yet taken over is timing, not a wrong choice.
			vm_log "$case_name: note: after the kernel's last victim replay also took over section $extra, chosen earlier by background GC (depends on when the kernel's flusher wrote its dirtied pages)"
			head -n "$n" "$repl" >"$repl.tmp" && mv "$repl.tmp" "$repl"
			nodata=
		else
			vm_fail "$case_name: the kernel found no victim after $n, gc.f2fs replay went on"
		fi
	fi
	# mask the clock-dependent costs on both sides
	paste -d' ' "$kern.clock" "$kern" | awk '{ print $2, ($1 ? "*" : $3) }' >"$kern.cmp"
	paste -d' ' "$kern.clock" "$repl" | awk '{ print $2, ($1 ? "*" : $3) }' >"$repl.cmp"
	if cmp -s "$kern.cmp" "$repl.cmp" && [ "$(wc -l <"$repl")" -eq "$n" ]; then
		vm_log "$case_name: $n kernel victims matched by gc.f2fs replay${nodata:+ (and no victim after them, as the kernel)}: $(head -n 4 "$kern" | tr '\n' ' ')..."
		return 0
	fi
	vm_fail "$case_name: gc.f2fs replay differs from the kernel (victim cost: kernel | replay)"
	paste "$kern" "$repl" | head -n 20 | sed 's/^/  /'
	return 1
}

#   gc_compare_guest CASE
#       gc.f2fs replay run in the guest on the devices themselves before CASE
#       ("info: gcguest CASE SEGNO COST" lines; "info: gcguest-stop CASE" when it
#       found no victim) against the kernel's victims of CASE, which gc_compare
#       has put in $VM_OUT/CASE.kernel: the first victims equal, and when the
#       kernel stopped for lack of a victim, the guest's replay stopped there too.
gc_compare_guest() {
	case_name=$1
	kern=$VM_OUT/$case_name.kernel
	guest=$VM_OUT/$case_name.guest
	sed -n "s/^info: gcguest $case_name \\([0-9]*\\) \\([0-9]*\\)\$/\\1 \\2/p" "$log" >"$guest"
	n=$(wc -l <"$kern")
	if [ "$n" -eq 0 ]; then
		vm_fail "$case_name: no kernel victims to compare the guest's replay with"
		return 1
	fi
	if ! head -n "$n" "$guest" | cmp -s "$kern" -; then
		vm_fail "$case_name: gc.f2fs replay on the guest's devices differs from the kernel (victim cost: kernel | replay)"
		paste "$kern" "$guest" | head -n 20 | sed 's/^/  /'
		return 1
	fi
	if grep -q "^info: gcstop $case_name nodata" "$log" &&
	   { [ "$(wc -l <"$guest")" -ne "$n" ] || ! grep -q "^info: gcguest-stop $case_name" "$log"; }; then
		vm_fail "$case_name: the kernel found no victim after $n, the guest's replay did not stop there"
		return 1
	fi
	vm_log "$case_name: $n kernel victims matched by gc.f2fs replay on the guest's zoned devices (capacity from the zone report)"
}
