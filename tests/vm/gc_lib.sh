# gc_lib.sh - host helpers of the GC scenarios (sourced after vmlib.sh).
#
#   gc_compare CASE SNAPSHOT fg|bg [REPLAY_OPTIONS...]
#       the kernel's victims of CASE, read from the "info: gctrace CASE ..."
#       lines of the boot log ($log), against gc.f2fs replay on the snapshot
#       image: same victims, same order, same costs.  Replay gets the kernel's clock
#       per step (--step-clock, from the trace's CLOCK field): a write seconds after
#       the mount moves the newest-write time cost-benefit ages are scaled by, and a
#       slow machine reaches the next second within the calls.  A write traced in a
#       second's first half may carry the second before (CLOCK_LO): replay runs
#       again with that clock when the traced one differs.  When a background case
#       differs, replay runs again told where the kernel switched from background to
#       foreground (--step-types) and must then match exactly: the kernel's switch
#       point moved with the machine's load in our runs (on a loaded machine it switched
#       a call later than on an idle one, whose runs match the free-section rule), and
#       the note says where each side switched.  Both lists are kept in
#       $VM_OUT/CASE.kernel and $VM_OUT/CASE.replay.  When the kernel's last
#       call found no victim ("info: gcstop CASE nodata"), replay must stop
#       there too: one more step asked gives "no victim" (in background runs, or
#       takes over a section the kernel's background GC chose once and did not
#       take over: that depends on the flusher's timing, see below).

# gc_kernel_steps CASE: the kernel's LFS selections of CASE, "GC VICTIM COST CLOCK
# CLOCK_LO" (CLOCK_LO: the clock a write traced just after a second began may carry)
gc_kernel_steps() {
	sed -n "s/^info: gctrace $1 \\(.*\\)/\\1/p" "$log" |
		awk '$2 == "LFS" { c = $7 == "" ? 0 : $7
				   print ($1 == "Background" ? "b" : "f"), $4, $5, c, ($8 == "" ? c : $8) }'
}

# gc_run_replay CASE SNAPSHOT fg|bg COUNT OUT [REPLAY_OPTIONS...]: OUT.json, OUT ("victim
# cost" lines); fails with a message when replay does
gc_run_replay() {
	_case=$1 _snap=$2 _gt=$3 _count=$4 _out=$5
	shift 5
	if ! "$GC_TOOL" replay "$(vm_img "$_snap")" --kernel "$VM_GC_KERNEL" --gc-type "$_gt" \
		--count "$_count" --json "$@" \
		>"$_out.json" 2>"$_out.err"; then
		vm_fail "$_case: gc.f2fs replay failed: $(cat "$_out.err")"
		return 1
	fi
	sed -n 's/.*"segno": \([0-9]*\),.*"cost": \([0-9]*\),.*/\1 \2/p' "$_out.json" >"$_out"
}

# gc_replay_try CLOCKS [REPLAY_OPTIONS...]: gc_compare's replay of its case with the
# kernel's clock per step CLOCKS; a background case that differs runs again with the
# kernel's switch points, and $switch says where each side switched
gc_replay_try() {
	_clk=$1
	shift
	gc_run_replay "$case_name" "$snap" "$gtype" "$ask" "$repl" --step-clock "$_clk" "$@" ||
		return 1
	switch=
	if [ "$gtype" = bg ] && ! head -n "$n" "$repl" | cmp -s "$kern" -; then
		rtypes=$(sed -n '/"step"/s/.*"gc_type": "\([a-z]\)g".*/\1/p' "$repl.json" | head -n "$n" | tr -d '\n')
		switch="the kernel's steps $types, the free-section rule's $rtypes"
		gc_run_replay "$case_name" "$snap" "$gtype" "$ask" "$repl" --step-clock "$_clk" \
			--step-types "$types" "$@" || return 1
	fi
}

gc_compare() {
	case_name=$1
	snap=$2
	gtype=$3
	shift 3
	kern=$VM_OUT/$case_name.kernel
	repl=$VM_OUT/$case_name.replay
	if grep -q "^info: gctrace-lost $case_name" "$log"; then
		vm_fail "$case_name: the guest's trace buffer overran: the kernel's list is not whole"
		return 1
	fi
	gc_kernel_steps "$case_name" >"$kern.steps"
	awk '{ print $2, $3 }' "$kern.steps" >"$kern"
	clock=$(awk '{ print $4 }' "$kern.steps" | paste -sd, -)
	types=$(awk '{ printf "%s", $1 }' "$kern.steps")
	n=$(wc -l <"$kern")
	if [ "$n" -eq 0 ]; then
		vm_fail "$case_name: the kernel traced no GC victim"
		return 1
	fi
	ask=$n
	nodata=
	grep -q "^info: gcstop $case_name nodata" "$log" && { nodata=1; ask=$((n + 1)); }
	gc_replay_try "$clock" "$@" || return 1
	# The kernel stamps a write with its coarse clock, before the traced submission: where
	# the newest write before a step was traced just after a second began, it may carry the
	# second before.  Replay told so must then match; the note says it did.
	clock_lo=$(awk '{ print $5 }' "$kern.steps" | paste -sd, -)
	if [ "$clock_lo" != "$clock" ] && ! head -n "$n" "$repl" | cmp -s "$kern" -; then
		for f in "$repl" "$repl.json"; do cp "$f" "$f.traced"; done
		sw_traced=$switch
		gc_replay_try "$clock_lo" "$@" || return 1
		if head -n "$n" "$repl" | cmp -s "$kern" -; then
			vm_log "$case_name: note: matched with writes traced in a second's first half taken as the second before (clock $clock_lo, traced $clock)"
			clock=$clock_lo
			rm -f "$repl.traced" "$repl.json.traced"
		else
			for f in "$repl" "$repl.json"; do mv "$f.traced" "$f"; done
			switch=$sw_traced
		fi
	fi
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
	if cmp -s "$kern" "$repl" && [ "$(wc -l <"$repl")" -eq "$n" ]; then
		[ -n "$switch" ] &&
			vm_log "$case_name: note: the kernel switched to foreground elsewhere than the free-section rule ($switch); matched with the kernel's switch points"
		case $clock in
		*[1-9]*) vm_log "$case_name: the kernel's clock per step (seconds after mount): $clock" ;;
		esac
		vm_log "$case_name: $n kernel victims matched by gc.f2fs replay${nodata:+ (and no victim after them, as the kernel)}: $(head -n 4 "$kern" | tr '\n' ' ')..."
		return 0
	fi
	# no apostrophe inside ${switch:+...}: bash reads one there as a quote
	[ -n "$switch" ] && switch=", with the kernel's switch points ($switch)"
	vm_fail "$case_name: gc.f2fs replay differs from the kernel (victim cost: kernel | replay)$switch"
	paste "$kern" "$repl" | head -n 20 | sed 's/^/  /'
	return 1
}

#   gc_steps_timeless CASE
#       how many of the kernel's first steps of CASE a replay that knows neither the
#       kernel's clock nor its switch points can match: those before the first one
#       after a write seconds after the mount, and (background cases) before the
#       first foreground step
gc_steps_timeless() {
	gc_kernel_steps "$1" |
		awk 'NR == 1 { fg = $1 == "f" } fg { n++; next } $4 != 0 || $1 == "f" { exit } { n++ }
		     END { print n + 0 }'
}

#   gc_compare_guest CASE
#       gc.f2fs replay run in the guest on the devices themselves before CASE
#       ("info: gcguest CASE SEGNO COST" lines; "info: gcguest-stop CASE" when it
#       found no victim) against the kernel's victims of CASE, which gc_compare
#       has put in $VM_OUT/CASE.kernel: the first victims equal, and when the
#       kernel stopped for lack of a victim, the guest's replay stopped there too.
#       Run before the calls, that replay cannot know the kernel's clock or switch
#       points: it answers for the steps gc_steps_timeless counts.
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
	k=$(gc_steps_timeless "$case_name")
	if [ "$k" -eq 0 ]; then
		vm_log "$case_name: the guest's replay not compared: the kernel wrote seconds after the mount before its first victim"
		return 0
	fi
	head -n "$k" "$kern" >"$kern.head"
	if ! head -n "$k" "$guest" | cmp -s "$kern.head" -; then
		vm_fail "$case_name: gc.f2fs replay on the guest's devices differs from the kernel (victim cost: kernel | replay)"
		paste "$kern" "$guest" | head -n "$k" | sed 's/^/  /'
		return 1
	fi
	if [ "$k" -eq "$n" ] && grep -q "^info: gcstop $case_name nodata" "$log" &&
	   { [ "$(wc -l <"$guest")" -ne "$n" ] || ! grep -q "^info: gcguest-stop $case_name" "$log"; }; then
		vm_fail "$case_name: the kernel found no victim after $n, the guest's replay did not stop there"
		return 1
	fi
	if [ "$k" -lt "$n" ]; then
		vm_log "$case_name: the first $k of $n kernel victims matched by gc.f2fs replay on the guest's zoned devices (capacity from the zone report; later ones follow the kernel's clock)"
	else
		vm_log "$case_name: $n kernel victims matched by gc.f2fs replay on the guest's zoned devices (capacity from the zone report)"
	fi
}
