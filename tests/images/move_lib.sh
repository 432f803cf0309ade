#!/bin/bash
# Shared by the tests of the block mover's front-ends (gc_collect.sh, defrag.sh); sourced
# after lib.sh, with DUMP and POP (tests/images/txn_populate) set.

# age_image IMG: three rounds of 40 files (1 byte .. 30 KiB, every tenth 512 KiB) made by
# transactions, each in sections of its own (ZF2FS_TXN_FRESH_LOGS), then every other file
# of each round removed: partly valid sections of data and nodes.  The sources stay in
# $TEST_TMP/src.
age_image()
{
	local img=$1 i k r n items
	SRC=$TEST_TMP/src
	mkdir -p "$SRC"
	for i in $(seq 0 119); do
		if [ $((i % 10)) = 9 ]; then n=$((512 * 1024 + i)); else n=$(( (i * 7919) % 30720 + 1 )); fi
		head -c $n /dev/urandom > "$SRC/f$i"
	done
	for r in 0 1 2; do
		items=("age$r/")
		for k in $(seq 0 39); do i=$((r * 40 + k)); items+=("age$r/f$i=$SRC/f$i"); done
		ZF2FS_TXN_FRESH_LOGS=1 "$POP" "$img" "${items[@]}" || hard_error "aging round $r failed"
	done
	items=()
	for r in 0 1 2; do
		for k in $(seq 0 2 39); do i=$((r * 40 + k)); items+=("-age$r/f$i"); done
	done
	ZF2FS_TXN_FRESH_LOGS=1 "$POP" "$img" "${items[@]}" || hard_error "aging removals failed"
}

# sha256 of every regular file, by path ("HASH  /path", sorted): the whole tree copied out
# once by dump.f2fs --extract (any damage it reports fails this)
shas()
{
	rm -rf "$TEST_TMP/shas.tree"
	"$DUMP" --extract / -o "$TEST_TMP/shas.tree" "$1" >/dev/null || return 1
	(cd "$TEST_TMP/shas.tree" && find . -type f -exec sha256sum {} +) |
		sed 's|  \./|  /|' | LC_ALL=C sort -k2
	rm -rf "$TEST_TMP/shas.tree"
}

