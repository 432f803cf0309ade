# Shared helpers of the dump.f2fs tests (d_*.sh).  Source after lib.sh:
#
#   . "$(dirname "$0")/lib.sh"
#   . "$(dirname "$0")/dump_lib.sh"
#
#   DUMP                    our dump.f2fs
#   need_ref_dump           skip unless Debian's dump.f2fs and sload.f2fs are installed
#   make_tree DIR           the source tree the file tests load: empty, inline, 4 KiB,
#                           1 MiB, 13 MiB (past the direct nodes: indirect nodes), a
#                           2100-entry directory, symlinks, nested directories
#   loaded_image NAME MKFS  a 1 GiB image formatted by MKFS (ours or ref) and loaded
#                           with sload.f2fs from $TEST_TMP/src; prints its path

DUMP=${ZF2FS_DUMP:-$OUR_BIN/dump.f2fs}
REF_DUMP=${REF_DUMP:-/usr/sbin/dump.f2fs}
REF_SLOAD=${REF_SLOAD:-/usr/sbin/sload.f2fs}

[ -x "$DUMP" ] || hard_error "our dump.f2fs is not built: $DUMP"

need_ref_dump()
{
	need_ref_tools
	[ -x "$REF_DUMP" ] || skip "reference dump.f2fs not installed ($REF_DUMP)"
	[ -x "$REF_SLOAD" ] || skip "reference sload.f2fs not installed ($REF_SLOAD)"
}

# Deterministic bytes: N bytes from a seeded generator (no /dev/urandom, so failures
# reproduce).
det_bytes()
{
	python3 -c '
import random, sys
r = random.Random(int(sys.argv[1]))
n = int(sys.argv[2])
out = sys.stdout.buffer
while n > 0:
    k = min(n, 1 << 20)
    out.write(r.getrandbits(8 * k).to_bytes(k, "little"))
    n -= k
' "$1" "$2"
}

make_tree()
{
	local d=$1 i
	mkdir -p "$d/dir/sub/deeper" "$d/big_dir" "$d/links" || return 1
	: > "$d/empty"
	printf 'tiny inline file\n' > "$d/tiny"
	det_bytes 1 3000 > "$d/inline_max"          # still fits inline (3476 bytes or less)
	det_bytes 2 4096 > "$d/f4k"
	det_bytes 3 1048576 > "$d/f1m"
	det_bytes 4 13631488 > "$d/f13m"            # 3328 blocks: past 923 + 2 x 1018
	det_bytes 5 5000 > "$d/dir/sub/deeper/nested"
	printf 'name with spaces\n' > "$d/dir/with space"
	for i in $(seq 1 2100); do
		echo "$i" > "$d/big_dir/entry_$i"
	done
	det_bytes 6 20000 > "$d/big_dir/a_larger_one"
	ln -s ../f4k "$d/links/rel"
	ln -s /dir/sub "$d/links/abs_dir"
	ln -s "$(printf 'x%.0s' $(seq 1 300))" "$d/links/long_target"
}

loaded_image()
{
	local name=$1 which=$2 img
	img=$(new_image "$name" 1G)
	if [ "$which" = ref ]; then
		"$REF_MKFS" -f -q "$img" >/dev/null 2>&1 || hard_error "reference mkfs failed"
	else
		"$MKFS" -q -O extra_attr,inode_checksum,lost_found "$img" ||
			hard_error "our mkfs failed"
	fi
	"$REF_SLOAD" -f "$TEST_TMP/src" "$img" >"$TEST_TMP/sload.$name.log" 2>&1 ||
		hard_error "sload.f2fs failed on $name (see $TEST_TMP/sload.$name.log)"
	echo "$img"
}
