# fuzz_fields_lib.sh - the field-fuzz group (after the fuzz groups of XFS in fstests),
# shared by tests/images/fuzz_fields.sh (a quick subset in make check) and
# bench/fuzz-fields.sh (the whole matrix).  Source it after lib.sh.
#
#   ff_cases IMG ROLES    print the cases for one base image: every member inject.f2fs
#                         knows (--list), on the structures that ROLES (lines "role path")
#                         point at, times every fuzz verb
#   ff_run IMG TAG LINE   run one case on a copy of IMG and print its result line
#   ff_table RESULTS      the table: cases, crashes, hangs, exits, clean after repair
#   ff_classes RESULTS    failures grouped by structure/member/verb -> what went wrong
#   ff_allow              fuzz_fields.disagree as one pattern: reference lines that are no
#                         problem (each with its reason there)
#
# One case: inject.f2fs --fuzz VERB on one member; fsck -f -n (no crash or hang: exit 0
# or 4); fsck -f -y (exit 0 or 1; 4 only where the damage cannot be repaired); fsck -f -n
# again (exit 0) and Debian's fsck clean.  Crashes are exits of 128 and up (timeout's 124
# is a hang) or a sanitizer report; hangs are runs past FF_TIMEOUT seconds.
# Result line: tag|target args|member|idx|verb|inject rc|-n rc|-y rc|rerun rc|ref|lost|
# crash|hang|codes of the -y run.

FF_VERBS="zeroes ones firstbit middlebit lastbit add sub random"
FF_TIMEOUT=${FF_TIMEOUT:-30}
DUMP=${ZF2FS_DUMP:-$OUR_BIN/dump.f2fs}

# Members of option $1 (sb, cp, ...) and structure $2 ("inode", ...), with element counts.
ff_members() { "$INJECT" --list | awk -v o="$1" -v w="$2" '$1 == o && index($0, w) { print $2, $(NF - 1) }'; }

# Indices worth fuzzing of an array of $1 elements: the first, the second, the last.
ff_indices()
{
	if [ "$1" -le 1 ]; then echo -; return; fi
	echo 0 1 $(( $1 - 1 )) | tr ' ' '\n' | sort -un
}

ff_emit() # target-args, member list "name count" lines on stdin
{
	local name count i v
	while read -r name count; do
		for i in $(ff_indices "$count"); do
			for v in $FF_VERBS; do
				echo "$1|$name|$i|$v"
			done
		done
	done
}

ff_cases()
{
	local img=$1 roles=$2 role path nid blk bigino addrs
	# a direct node's addresses: 1018 in 4 KiB blocks, 4090 in 16 KiB
	addrs=1018
	[ "$(od -An -tu4 -j 1040 -N 4 "$img" | tr -d ' ')" != 14 ] || addrs=4090
	ff_members sb superblock | ff_emit "--sb 1"
	ff_members cp checkpoint | ff_emit "--cp 0"
	while read -r role path; do
		case $role in ''|\#*) continue ;; esac
		nid=$("$INJECT" --lookup "$path" "$img") || continue
		ff_members node "node footer" | ff_emit "--node --nid $nid"
		ff_members node "inode" | grep -v '^i_addr \|^i_nid ' | ff_emit "--node --nid $nid"
		# the block map: first slots and the node pointers
		printf 'i_addr 2\ni_nid 5\n' | ff_emit "--node --nid $nid"
		ff_members nat "NAT entry" | ff_emit "--nat 0 --nid $nid"
		case $role in
		root) ;;
		*) ff_members dent "directory entry" | ff_emit "--dent --nid $nid" ;;
		esac
		case $role in
		dir*) ff_members dent "directory entry" | ff_emit "--dent --nid $nid --dots 2" ;;
		esac
		# an encrypted directory's names are ciphertext: its first block's first name
		case $role in
		dir_enc*) ff_members dent "directory entry" |
			ff_emit "--dent --nid $nid --slot 2 --dblk 0" ;;
		esac
		blk=$("$INJECT" --bmap 0 --nid "$nid" "$img" 2>/dev/null) || blk=0
		if [ "$blk" -gt 0 ] 2>/dev/null && [ "$blk" -lt 4294967295 ]; then
			ff_members sit "SIT entry" | ff_emit "--sit 0 --blk $blk"
			ff_members ssa "summary" | ff_emit "--ssa --blk $blk"
		fi
		if [ "$role" = xattr ]; then
			n=$("$INJECT" --node --nid "$nid" --mb i_xattr_nid --get "$img")
			if [ "$n" -gt 0 ]; then
				ff_members node "node footer" | ff_emit "--node --nid $n"
				ff_members nat "NAT entry" | ff_emit "--nat 0 --nid $n"
			fi
		fi
		if [ "$role" = big ] || [ "$role" = dind ]; then
			# its direct and indirect nodes: footers, slots, and the node's summary
			for i in 0 2 4; do
				n=$("$INJECT" --node --nid "$nid" --mb i_nid --idx $i --get "$img")
				[ "$n" -gt 0 ] || continue
				ff_members node "node footer" | ff_emit "--node --nid $n"
				echo "addr $addrs" | ff_emit "--node --nid $n"
				ff_members nat "NAT entry" | ff_emit "--nat 0 --nid $n"
				b=$("$INJECT" --nat 0 --nid "$n" --mb block_addr --get "$img")
				ff_members ssa "summary" | ff_emit "--ssa --blk $b"
			done
		fi
	done < "$roles"
}

# The patterns of fuzz_fields.disagree as one grep pattern (REF_FSCK_ALLOW of ref_fsck).
ff_allow()
{
	awk '!/^#/ && NF { printf "%s%s", (n++ ? "\\|" : ""), $0 }' \
		"$top_srcdir/tests/images/fuzz_fields.disagree"
}

ff_inodes() { sed -n 's/.*: \([0-9]*\) inodes (.*/\1/p' "$1" | tail -1; }

ff_crashed() # exit status, log
{
	[ "$1" -ge 128 ] || grep -q -e 'ERROR: AddressSanitizer' -e 'runtime error:' \
		-e 'ERROR: LeakSanitizer' "$2"
}

ff_run()
{
	local img=$1 tag=$2 line=$3 args mb idx verb w irc rn ry r2 ref=- lost=- crash=0 hang=0
	local codes=- base_inodes id
	IFS='|' read -r args mb idx verb <<< "$line"
	id=$(printf '%s' "$tag$line" | cksum | cut -d' ' -f1)
	w=$FF_WORK/$id.img
	cp --sparse=always "$img" "$w"
	local iarg=""
	[ "$idx" = - ] || iarg="--idx $idx"
	# shellcheck disable=SC2086
	timeout "$FF_TIMEOUT" "$INJECT" $args --mb "$mb" $iarg --fuzz "$verb" --seed "$id" "$w" \
		> "$w.inj" 2>&1
	irc=$?
	if [ $irc -ne 0 ] || grep -q ': \([0-9]*\) (0x[0-9a-f]*) -> \1 (' "$w.inj" ||
	   grep -q ': "\(.*\)" -> "\1"$' "$w.inj"; then
		# refused (no such node here) or a verb that changed nothing
		[ $irc -eq 0 ] && irc=noop
		echo "$tag|$args|$mb|$idx|$verb|$irc|-|-|-|-|-|0|0|-"
		rm -f "$w" "$w.inj"
		return
	fi
	timeout "$FF_TIMEOUT" "$FSCK" -f -n "$w" > "$w.n" 2>&1; rn=$?
	timeout "$FF_TIMEOUT" "$FSCK" -f -y "$w" > "$w.y" 2>&1; ry=$?
	timeout "$FF_TIMEOUT" "$FSCK" -f -n "$w" > "$w.2" 2>&1; r2=$?
	for r in "$rn:$w.n" "$ry:$w.y" "$r2:$w.2"; do
		[ "${r%%:*}" -eq 124 ] && hang=1
		[ "${r%%:*}" -ne 124 ] && ff_crashed "${r%%:*}" "${r#*:}" && crash=1
	done
	if [ -x "$REF_FSCK" ]; then
		# Debian's fsck can loop on damaged images: bounded like ours; the lines of
		# fuzz_fields.disagree are no problem
		timeout "$FF_TIMEOUT" bash -c "$(declare -f ref_fsck); REF_FSCK=$REF_FSCK; REF_FSCK_ALLOW=\$2; ref_fsck \"\$1\"" \
			_ "$w" "$(ff_allow)" > "$w.ref" 2>&1
		case $? in 0) ref=clean ;; 124) ref=refhang ;; *) ref=unclean ;; esac
	fi
	base_inodes=$(cat "$FF_WORK/$tag.inodes" 2>/dev/null)
	local after
	after=$(ff_inodes "$w.2")
	[ -n "$base_inodes" ] && [ -n "$after" ] && lost=$(( base_inodes > after ? base_inodes - after : 0 ))
	codes=$(grep -o '^\[0x[0-9a-f]*\]' "$w.y" | tr -d '[]' | sort -u | head -4 | tr '\n' ' ')
	echo "$tag|$args|$mb|$idx|$verb|$irc|$rn|$ry|$r2|$ref|$lost|$crash|$hang|${codes:--}"
	if [ -n "${FF_KEEP:-}" ] && { [ $crash = 1 ] || [ $hang = 1 ]; }; then
		mkdir -p "$FF_KEEP" && cp "$w.inj" "$w.n" "$w.y" "$w.2" "$FF_KEEP/" 2>/dev/null
	fi
	rm -f "$w" "$w".*
}

# Record the base image's inode count (for "files lost").
ff_prepare()
{
	"$FSCK" -f -n "$1" > "$FF_WORK/$2.baselog" 2>&1 ||
		{ echo "base image $2 is not clean for our fsck:"; tail -5 "$FF_WORK/$2.baselog"; return 1; }
	ff_inodes "$FF_WORK/$2.baselog" > "$FF_WORK/$2.inodes"
}

ff_table()
{
	awk -F'|' '
	function add(k) { n[k]++ }
	{
		img = $1; add(img "|cases"); imgs[img] = 1
		if ($6 == "noop") { add(img "|noop"); next }
		if ($6 != 0) { add(img "|refused"); next }
		add(img "|run")
		if ($12 == 1) add(img "|crash")
		if ($13 == 1) add(img "|hang")
		if ($7 == 0 || $7 == 4) add(img "|n_ok"); else add(img "|n_bad")
		if ($8 == 0 || $8 == 1) add(img "|y01"); else if ($8 == 4) add(img "|y4"); else add(img "|yother")
		if ($9 == 0) add(img "|ours")
		if ($10 == "clean") add(img "|ref")
		if ($9 == 0 && $10 == "clean") add(img "|both")
		if ($11 != "-") lost[img] += $11
	}
	END {
		printf "%-10s %6s %5s %7s %6s %7s %5s %9s %7s %5s %7s %11s %10s %10s %6s\n", "image", "cases", "noop", "refused", "fuzzed", "crashes", "hangs", "-n 0|4", "-y 0|1", "-y 4", "-y else", "clean ours", "clean ref", "clean both", "lost"
		for (i in imgs) {
			r = n[i "|run"] + 0
			printf "%-10s %6d %5d %7d %6d %7d %5d %9d %7d %5d %7d %5d %4.1f%% %4d %4.1f%% %4d %4.1f%% %6d\n", i, n[i "|cases"], n[i "|noop"], n[i "|refused"], r, n[i "|crash"], n[i "|hang"], n[i "|n_ok"], n[i "|y01"], n[i "|y4"], n[i "|yother"], n[i "|ours"], r ? 100 * n[i "|ours"] / r : 0, n[i "|ref"], r ? 100 * n[i "|ref"] / r : 0, n[i "|both"], r ? 100 * n[i "|both"] / r : 0, lost[i]
		}
	}' "$1"
}

# What went wrong, per structure option, member and verb: counts of each outcome class.
ff_classes()
{
	awk -F'|' '
	$6 != 0 { next }
	{
		split($2, a, " "); s = a[1]
		c = ""
		if ($12 == 1) c = c "crash "
		if ($13 == 1) c = c "hang "
		if ($7 != 0 && $7 != 4) c = c "-n exit " $7 " "
		if ($8 != 0 && $8 != 1) c = c "-y exit " $8 " "
		if ($9 != 0) c = c "rerun unclean(" $9 ") "
		if ($10 == "unclean") c = c "ref unclean "
		if ($7 == 0 && $8 == 0 && $10 == "unclean") c = c "(not detected) "
		if (c == "") next
		k = s " " $3 " | " c
		n[k]++
		if (!(k SUBSEP $5 in sv)) { sv[k SUBSEP $5] = 1; vs[k] = vs[k] $5 "," }
		if (!(k in ex)) ex[k] = $2 " --mb " $3 ($4 != "-" ? " --idx " $4 : "") " --fuzz " $5 " [codes " $14 "]"
	}
	END { for (k in n) printf "%5d  %s  verbs: %s  e.g. %s\n", n[k], k, vs[k], ex[k] }' "$1" | sort -rn
}
