#!/bin/bash
# --version and -V of every tool: one line, "PROG F2FS_TOOLS_VERSION (zf2fs-tools VERSION)"
# (f2fs-tools' own "PROG X.Y.Z" first, for callers that parse it) and then +NAME or
# -NAME for each optional feature of the build, ending in a newline, the same for all
# tools (one implementation: zs_print_version in support/cli.c).  The version must be the
# tree's VERSION and the zoned, selinux, casefold, lz4, lzo and zstd flags what configure decided (config.h); a write error on
# standard output must not exit 0.
. "$(dirname "$0")/lib.sh"

version=$(cat "$top_srcdir/VERSION") || hard_error "no VERSION file"
# The f2fs-tools release whose interface we implement, and the oldest each caller
# accepts: libblockdev wants fsck.f2fs 1.11.0 and resize.f2fs 1.12.0.
f2fs_tools=1.16.0
if grep -q '^#define HAVE_LIBZBD 1' "$top_builddir/config.h"; then zoned=+zoned; else zoned=-zoned; fi
if grep -q '^#define HAVE_LIBSELINUX 1' "$top_builddir/config.h"; then selinux=+selinux; else selinux=-selinux; fi
if grep -q '^#define HAVE_LIBUNISTRING 1' "$top_builddir/config.h"; then casefold=+casefold; else casefold=-casefold; fi
if grep -q '^#define HAVE_LIBLZ4 1' "$top_builddir/config.h"; then lz4=+lz4; else lz4=-lz4; fi
if grep -q '^#define HAVE_LIBLZO2 1' "$top_builddir/config.h"; then lzo=+lzo; else lzo=-lzo; fi
if grep -q '^#define HAVE_LIBZSTD 1' "$top_builddir/config.h"; then zstd=+zstd; else zstd=-zstd; fi

# Every tool the build installs in sbin: the *.f2fs programs of the front-end folders.
tools=()
for t in "$top_builddir"/mkfs/*.f2fs "$top_builddir"/fsck/*.f2fs "$top_builddir"/tools/*.f2fs "$top_builddir"/tools/f2fslabel \
	"$top_builddir"/tools/f2fs_io/f2fs_io "$top_builddir"/tools/f2fs_metadump "$top_builddir"/tools/f2fs_mdrestore; do
	[ -x "$t" ] && tools+=("${t#"$top_builddir"/}")
done
[ "${#tools[@]}" -ge 4 ] || hard_error "expected at least 4 built tools, found: ${tools[*]}"

for tool in "${tools[@]}"; do
	prog=${tool##*/}
	for opt in --version -V; do
		"$top_builddir/$tool" "$opt" > "$TEST_TMP/out" 2> "$TEST_TMP/err"
		rc=$?
		line=$(cat "$TEST_TMP/out")
		want="$prog $f2fs_tools (zf2fs-tools $version) $zoned $selinux $casefold $lz4 $lzo $zstd"
		if [ "$rc" -ne 0 ]; then
			tap_fail "$prog $opt exits $rc"
		elif [ "$(wc -l < "$TEST_TMP/out")" -ne 1 ] || [ "$(tail -c 1 "$TEST_TMP/out" | od -An -c | tr -d ' ')" != '\n' ]; then
			tap_fail "$prog $opt is not one line ending in a newline: '$line'"
		elif [ "$line" != "$want" ]; then
			tap_fail "$prog $opt prints '$line', expected '$want'"
		elif [ -s "$TEST_TMP/err" ]; then
			tap_fail "$prog $opt writes to stderr: $(head -c 200 "$TEST_TMP/err")"
		else
			tap_ok "$prog $opt: $line"
		fi
	done
	# Every feature word has the +/- form (so scripts can split on spaces).
	# libblockdev's pattern (fsck.f2fs\s+([\d.]+)) must find a version of at least 1.12.0.
	parsed=$(sed -nE "s/^${prog//./\\.}[[:space:]]+([0-9.]+).*/\1/p" "$TEST_TMP/out")
	if [ -n "$parsed" ] && [ "$(printf '%s\n1.12.0\n' "$parsed" | sort -V | head -1)" = 1.12.0 ]; then
		tap_ok "$prog: callers parse version $parsed"
	else
		tap_fail "$prog: no f2fs-tools version a caller's pattern reads: $(cat "$TEST_TMP/out")"
	fi
	if sed 's/^[^ ]* [0-9.]* (zf2fs-tools [^ ]*)//' "$TEST_TMP/out" | grep -Eqx '( [+-][a-z0-9_]+)+'; then
		tap_ok "$prog: every feature is +NAME or -NAME"
	else
		tap_fail "$prog: malformed feature list: $(cat "$TEST_TMP/out")"
	fi
	if [ -w /dev/full ]; then
		"$top_builddir/$tool" --version > /dev/full 2>/dev/null && tap_fail "$prog --version > /dev/full exits 0" ||
			tap_ok "$prog --version reports a failed write"
	fi
done
tap_summary
