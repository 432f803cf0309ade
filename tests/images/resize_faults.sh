# resize_faults.sh - sourced by the resize tests after lib.sh: resize.f2fs interrupted at
# chosen writes (ZF2FS_FAULT_WRITES).  The test sets RESIZE and POINTS and defines
#   sbf IMG FIELD      a superblock field of IMG
#   fault_files IMG    returns 0 when IMG's files are as they were, else prints why
#                      and returns 1

# fault_run N SRC BYTES OLD NEW ARGS...: resize a copy of SRC (its file grown to BYTES)
# with the N-th write failing; prints old, new or done (the resize needed fewer writes),
# or why the interrupted volume is wrong (then returns 1).  The files are read back on
# every third fault; our fsck checks every tree.
fault_run()
{
	local n=$1 src=$2 bytes=$3 old=$4 new=$5 rc bc out f; shift 5
	cp --sparse=always "$src" "$TEST_TMP/f.img"; truncate -s "$bytes" "$TEST_TMP/f.img"
	ZF2FS_FAULT_WRITES=$n "$RESIZE" "$@" "$TEST_TMP/f.img" > "$TEST_TMP/fout" 2>&1; rc=$?
	[ $rc = 0 ] && { echo done; return 0; }
	bc=$(sbf "$TEST_TMP/f.img" block_count)
	out=$("$FSCK" -f -n "$TEST_TMP/f.img" 2>&1)
	# allowed half way: the free segment count (Linux recomputes it, never reads it) and
	# the pack not in use (torn, or sized for the other superblock: Linux checks only
	# the newest pack)
	if [ $? != 0 ] && printf '%s\n' "$out" | grep '^\[0x' | grep -qv -e '^\[0x070006\]' -e '^\[0x020001\]'; then
		echo "write $n: our fsck: $(printf '%s\n' "$out" | head -3 | tr '\n' ' ')"; return 1
	fi
	if [ $((n % 3)) = 0 ]; then
		f=$(fault_files "$TEST_TMP/f.img") || { echo "write $n: $f"; return 1; }
	fi
	if [ "$bc" = "$old" ]; then echo old; elif [ "$bc" = "$new" ]; then echo new
	else echo "write $n: block_count $bc"; return 1; fi
}

# the last writes each faulted: 12; 6 in the sanitizer build, several times slower
TAIL=12
[ -n "${ASAN_OPTIONS:-}" ] && TAIL=6

# fault_loop NAME SRC BYTES OLD NEW ARGS...: the resize's write count W (-d 3), then
# fault_run at POINTS points spread over [1, W] and at each of the last TAIL writes (the
# checkpoint and the superblocks come last); every fifth interrupted volume resized again must
# reach the new size, clean.  One TAP line; the last interrupted volume, finished,
# stays in $TEST_TMP/f.img.
fault_loop()
{
	local name=$1 src=$2 bytes=$3 old=$4 new=$5 n r olds=0 news=0 runs=0 fin=0 why="" w step
	shift 5
	cp --sparse=always "$src" "$TEST_TMP/f.img"; truncate -s "$bytes" "$TEST_TMP/f.img"
	w=$("$RESIZE" -d 3 "$@" "$TEST_TMP/f.img" 2>&1 | sed -n 's/.* \([0-9]*\) writes$/\1/p')
	[ -n "$w" ] && [ "$w" -gt 0 ] || { tap_fail "$name: no write count"; return; }
	step=$(( w / POINTS > 0 ? w / POINTS : 1 ))
	for n in $( (seq 1 "$step" "$w"; seq $((w > TAIL ? w - TAIL + 1 : 1)) $((w + 1))) | sort -nu); do
		r=$(fault_run $n "$src" "$bytes" "$old" "$new" "$@") || { why=$r; break; }
		runs=$((runs + 1))
		[ "$r" = done ] && break
		[ "$r" = old ] && olds=$((olds + 1))
		[ "$r" = new ] && news=$((news + 1))
		if [ $((runs % 5)) = 1 ]; then
			"$RESIZE" "$@" "$TEST_TMP/f.img" > "$TEST_TMP/fout" 2>&1 &&
			[ "$(sbf "$TEST_TMP/f.img" block_count)" = "$new" ] &&
			"$FSCK" -f -n "$TEST_TMP/f.img" > /dev/null 2>&1 ||
				{ why="write $n: running again did not finish: $(cat "$TEST_TMP/fout")"; break; }
			fin=$((fin + 1))
		fi
	done
	if [ -n "$why" ]; then tap_fail "$name: $why"
	elif [ $olds = 0 ] || [ "$r" != done ]; then tap_fail "$name: the faults did not cover the resize ($olds old, last: $r)"
	else tap_ok "$name, $w writes: $((runs - 1)) faults (every ${step}th and the last $TAIL): $olds left the old size, $news the new, all clean with files unchanged; $fin finished by running again"
	fi
}
