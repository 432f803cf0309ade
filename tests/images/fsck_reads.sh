#!/bin/bash
# What a full check reads: fsck.f2fs -f -n, with every read of the device traced
# (ZF2FS_TRACE_READS: "byte-offset length" per read, the library's device layer writes it),
# must read each block of the main area at most once: every node (inodes, direct and
# indirect nodes, xattr nodes) and every dentry block, and the quota files' blocks.  Read
# twice, a block costs a second seek on a cold disk (a directory's inode read by pass 4 and
# again by pass 5, its dentry blocks by each of pass 5's looks, an xattr node by its check
# and by the ACL check, a quota inode by pass 4 and pass 9).  Each run must also read at
# least as many distinct main-area blocks as the checkpoint counts nodes, so that a trace
# that misses reads cannot pass.
#
# The read-ahead thread (fsck/prefetch.c; its reads carry an "ra" mark) is let finish the
# tree (ZF2FS_PREFETCH_FINISH=1), so that what it reads does not depend on scheduling: it
# must also read each block at most once, read no block the check itself does not, and
# read ahead at least 95% of the main-area blocks the check reads (the rest: what no
# directory leads to, such as the quota files).  The check's output must be the same as
# without the thread (ZF2FS_NO_PREFETCH=1).
#
# Volumes: tests/images/base/populated (4 KiB; sload.f2fs 1.15: a directory of 400 names
# over several hash levels, a file with indirect nodes), encrypted73 (4 KiB; written by
# Linux 7.3: encrypted, casefolded, verity, compressed files), aged16k and aged16k_packed
# (16 KiB blocks, written by Linux 7.3: quota files, xattr nodes, a casefolded directory,
# a file reaching the double indirect node); base/README says how each was made.
# Prints "ok N - ..." / "not ok N - ...".
. "$(dirname "$0")/lib.sh"

export ZF2FS_NO_PROGRESS=1

# sb_field IMG NAME: a field of fsck -l's superblock and checkpoint listing
sb_field()
{
	"$FSCK" -l "$1" 2>/dev/null | awk -v f="$2:" '$1 == f { print $2; exit }'
}

for b in populated encrypted73 aged16k aged16k_packed; do
	img=$TEST_TMP/$b.img
	xz -dc "$top_srcdir/tests/images/base/$b.img.xz" > "$img" ||
		hard_error "cannot unpack base image $b"
	bs=$(( 1 << $(sb_field "$img" log_blocksize) ))
	main=$(sb_field "$img" main_blkaddr)
	nodes=$(sb_field "$img" valid_node_count)
	[ -n "$main" ] && [ -n "$nodes" ] || hard_error "$b: fsck -l gives no layout"
	rc=0
	ZF2FS_PREFETCH_FINISH=1 ZF2FS_TRACE_READS=$TEST_TMP/$b.trace "$FSCK" -f -n "$img" \
		> "$TEST_TMP/$b.out" 2>&1 || rc=$?
	if [ "$rc" != 0 ] || [ ! -s "$TEST_TMP/$b.trace" ]; then
		tap_fail "$b: fsck -f -n exit $rc, trace of $(wc -l < "$TEST_TMP/$b.trace") reads"
		tail -n 5 "$TEST_TMP/$b.out"
		continue
	fi
	# per main-area block: how often the check and the read-ahead read it; the blocks
	# either read more than once, and the read-ahead's blocks the check did not read
	awk -v bs="$bs" -v main="$main" '
		{ first = int($1 / bs); last = int(($1 + $2 - 1) / bs)
		  for (blk = first; blk <= last; blk++) if (blk >= main) { if ($3 == "ra") ra[blk]++; else n[blk]++ } }
		END { for (blk in n) { distinct++; if (n[blk] > 1) print "block " blk " read " n[blk] " times"
				       if (blk in ra) covered++ }
		      for (blk in ra) { ahead++; if (ra[blk] > 1) print "ra-block " blk " read ahead " ra[blk] " times"
					if (!(blk in n)) print "ra-only " blk }
		      print "distinct " distinct + 0; print "ahead " ahead + 0; print "covered " covered + 0 }' \
		"$TEST_TMP/$b.trace" > "$TEST_TMP/$b.count"
	field() { awk -v k="$1" '$1 == k { print $2 }' "$TEST_TMP/$b.count"; }
	distinct=$(field distinct)
	twice=$(grep -c '^block ' "$TEST_TMP/$b.count")
	if [ "$twice" = 0 ]; then
		tap_ok "$b: no main-area block read twice ($distinct read, $(grep -vc ' ra$' "$TEST_TMP/$b.trace") requests)"
	else
		tap_fail "$b: $twice main-area blocks read more than once"
		grep '^block ' "$TEST_TMP/$b.count" | sort -n -k2 | head -n 10
	fi
	if [ "$distinct" -ge "$nodes" ]; then
		tap_ok "$b: $distinct distinct main-area blocks read, the checkpoint counts $nodes nodes"
	else
		tap_fail "$b: only $distinct main-area blocks read, fewer than the $nodes nodes"
	fi
	ahead=$(field ahead) covered=$(field covered)
	bad=$(grep -c '^ra-' "$TEST_TMP/$b.count")
	if [ "$bad" = 0 ] && [ $((covered * 100)) -ge $((distinct * 95)) ]; then
		tap_ok "$b: read ahead $covered of the $distinct blocks, each once, nothing else"
	else
		tap_fail "$b: read ahead $ahead blocks, $covered of the check's $distinct; $bad read twice or not by the check"
		grep '^ra-' "$TEST_TMP/$b.count" | head -n 10
	fi
	rc=0
	ZF2FS_NO_PREFETCH=1 "$FSCK" -f -n "$img" > "$TEST_TMP/$b.alone" 2>&1 || rc=$?
	if [ "$rc" = 0 ] && cmp -s "$TEST_TMP/$b.out" "$TEST_TMP/$b.alone"; then
		tap_ok "$b: the same output without the read-ahead"
	else
		tap_fail "$b: without the read-ahead: exit $rc, output differs"
		diff "$TEST_TMP/$b.out" "$TEST_TMP/$b.alone" | head -n 10
	fi
done
tap_summary
