#!/bin/bash
# The library's exports agree everywhere they are written down, without building a package:
#   1. the built libzf2fs.so exports exactly the names of lib/libzf2fs.sym, each in its
#      version nodes (the ABI nodes ZF2FS_1.0, ZF2FS_1.1, ..., each inheriting the one
#      before; ZF2FS_PRIVATE, zf2fs-tools' own programs); a name in several ABI nodes (a
#      function whose interface changed: its old entries kept) is exported at each, its
#      default (name@@NODE) at the newest;
#   2. debian/libzf2fs1.symbols lists exactly the ABI nodes, name@NODE for each name of
#      each (what the package build checks at dpkg-gensymbols level 4), every entry of a
#      node at that node's version (a node holds one release's additions), names the
#      library's SONAME and covers ZF2FS_PRIVATE with one pattern;
#   3. the installed headers (include/zf2fs/) declare with ZF2FS_EXPORT exactly the
#      names of the ABI nodes, and include/zf2fs-internal/ exactly ZF2FS_PRIVATE; no
#      installed header includes an internal one, and each compiles on its own;
#   4. hidden is spelled one way: by default (-fvisibility=hidden), never by an attribute;
#   5. the tools' helper library (support/) defines only zs_ names, never the library's
#      zf2fs_ prefix.
# Exit status: 0 all agree, 1 a disagreement (each printed), 77 no shared library or nm.
set -u
src=${top_srcdir:-.}
build=${top_builddir:-.}
so=$build/lib/.libs/libzf2fs.so
support=$build/support/.libs/libzf2fs_support.a
sym=$src/lib/libzf2fs.sym
deb=$src/debian/libzf2fs1.symbols

if ! command -v nm >/dev/null 2>&1 || ! command -v objdump >/dev/null 2>&1; then
	echo "lib_abi.sh: skipped: nm or objdump is missing (binutils)"
	exit 77
fi
if [ ! -e "$so" ]; then
	echo "lib_abi.sh: skipped: no shared library at $so (configured --disable-shared?)"
	exit 77
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
# differ WHAT A B: print what only A and only B hold, and fail, unless the sorted files agree
differ() {
	if ! cmp -s "$2" "$3"; then
		echo "lib_abi.sh: FAIL: $1"
		comm -3 "$2" "$3" | sed 's/^\t/    only in the second: /; t; s/^/    only in the first: /'
		failed=1
	fi
}

# The version script: "name node" for every name of every node.
awk '/^[A-Z0-9_.]+ *\{/ { node = $1 } /^\t\tzf2fs_[a-z0-9_]*;/ { gsub(/[\t;]/, ""); print $0 " " node }' \
	"$sym" | sort > "$tmp/sym"
# The ABI nodes, oldest first: ZF2FS_1.0, then each later one inheriting the one before.
nodes=$(awk '/^ZF2FS_1\.[0-9]+ *\{/ { print $1 }' "$sym")
awk '$2 ~ /^ZF2FS_1\.[0-9]+$/ { print $1 }' "$tmp/sym" | sort -u > "$tmp/sym_public"
awk '$2 == "ZF2FS_PRIVATE" { print $1 }' "$tmp/sym" > "$tmp/sym_private"
[ "${nodes%%[[:space:]]*}" = ZF2FS_1.0 ] && [ -s "$tmp/sym_public" ] && [ -s "$tmp/sym_private" ] || {
	echo "lib_abi.sh: FAIL: $sym does not open with ZF2FS_1.0, or has no ABI or no ZF2FS_PRIVATE names"
	exit 1
}
awk '/^ZF2FS_1\.[0-9]+ *\{/ { node = $1 } /^\}/ && node { sub(/;.*/, ""); print node " " $2; node = "" }' \
	"$sym" > "$tmp/parents"
prev=
for n in $nodes; do
	grep -qx "$n ${prev}" "$tmp/parents" ||
		{ echo "lib_abi.sh: FAIL: $sym: node $n does not inherit ${prev:-nothing} (its last ABI node before it)"; failed=1; }
	prev=$n
done
# the default version of each name: the newest ABI node listing it
awk '/^ZF2FS_1\.[0-9]+ *\{/ { node = $1 } /^ZF2FS_PRIVATE/ { node = "" }
	node && /^\t\tzf2fs_[a-z0-9_]*;/ { gsub(/[\t;]/, ""); last[$0] = node }
	END { for (n in last) print n " " last[n] }' "$sym" | sort > "$tmp/sym_default"

# 1. The library, as the dynamic linker sees it.
nm -D --defined-only "$so" | awk '{ print $3 }' | grep -v '^ZF2FS' |
	sed 's/@@*/ /' | sort > "$tmp/so"
differ "the exports of $so (first) and lib/libzf2fs.sym (second)" "$tmp/so" "$tmp/sym"
nm -D --defined-only "$so" | awk '$3 ~ /^zf2fs_.*@@ZF2FS_1\./ { print $3 }' |
	sed 's/@@/ /' | sort > "$tmp/so_default"
differ "the default versions (name@@NODE) of $so (first) and the newest ABI node listing each name in lib/libzf2fs.sym (second)" \
	"$tmp/so_default" "$tmp/sym_default"

# 2. The Debian symbols file.
soname=$(objdump -p "$so" | sed -n 's/^ *SONAME *//p')
pkg=libzf2fs${soname#libzf2fs.so.}
head -1 "$deb" | grep -qx "$soname $pkg #MINVER#" ||
	{ echo "lib_abi.sh: FAIL: $deb does not open with '$soname $pkg #MINVER#'"; failed=1; }
grep -qx ' (symver)ZF2FS_PRIVATE [0-9.]*' "$deb" ||
	{ echo "lib_abi.sh: FAIL: $deb has no '(symver)ZF2FS_PRIVATE VERSION' pattern"; failed=1; }
sed -n 's/^ \(ZF2FS_1\.[0-9]*\)@\1 [0-9.]*$/\1/p' "$deb" | sort > "$tmp/deb_nodes"
echo "$nodes" | sort > "$tmp/nodes"
differ "the version nodes of debian/libzf2fs1.symbols (first) and the ABI nodes of lib/libzf2fs.sym (second)" \
	"$tmp/deb_nodes" "$tmp/nodes"
sed -n 's/^ \(zf2fs_[a-z0-9_]*\)@\(ZF2FS_1\.[0-9]*\) [0-9.]*$/\1 \2/p' "$deb" | sort > "$tmp/deb"
grep ' ZF2FS_1\.[0-9]*$' "$tmp/sym" > "$tmp/sym_abi"
differ "debian/libzf2fs1.symbols (first) and the ABI nodes of lib/libzf2fs.sym (second)" \
	"$tmp/deb" "$tmp/sym_abi"
# one version per node, the release that added it: every entry at its node's own line's
awk 'NR == FNR { if (split($1, p, "@") == 2 && p[1] == p[2]) v[p[2]] = $2; next }
	$1 ~ /^zf2fs_[a-z0-9_]*@ZF2FS_1\.[0-9]+$/ { split($1, p, "@")
		if ($2 != v[p[2]]) print "    " $1 " " $2 " (" p[2] "@" p[2] " " v[p[2]] ")" }' \
	"$deb" "$deb" > "$tmp/deb_ver"
if [ -s "$tmp/deb_ver" ]; then
	echo "lib_abi.sh: FAIL: $deb gives these entries a version other than their node's:"
	cat "$tmp/deb_ver"
	failed=1
fi
if sed 1d "$deb" | grep -vx -e ' zf2fs_[a-z0-9_]*@ZF2FS_1\.[0-9]* [0-9.]*' \
	-e ' \(ZF2FS_1\.[0-9]*\)@\1 [0-9.]*' -e '\* Build-Depends-Package: libzf2fs-dev' \
	-e ' (symver)ZF2FS_PRIVATE [0-9.]*' > "$tmp/deb_other"; then
	echo "lib_abi.sh: FAIL: $deb has lines of another form:"
	sed 's/^/    /' "$tmp/deb_other"
	failed=1
fi

# 3. The headers: the name of each ZF2FS_EXPORT declaration (on its line or the next).
declared() {
	cat "$@" | awk '/^ZF2FS_EXPORT/ { s = $0; if (s !~ /\(/) { getline; s = s " " $0 }
		sub(/\(.*/, "", s); n = split(s, w, /[ *]+/); print w[n] }' | sort
}
declared "$src"/include/zf2fs/*.h > "$tmp/h_public"
declared "$src"/include/zf2fs-internal/*.h > "$tmp/h_private"
differ "the ZF2FS_EXPORT declarations of include/zf2fs/ (first) and the ABI nodes (second)" \
	"$tmp/h_public" "$tmp/sym_public"
differ "the ZF2FS_EXPORT declarations of include/zf2fs-internal/ (first) and the ZF2FS_PRIVATE node (second)" \
	"$tmp/h_private" "$tmp/sym_private"
if grep -n 'zf2fs-internal/' "$src"/include/zf2fs/*.h; then
	echo "lib_abi.sh: FAIL: an installed header includes an internal one (above)"
	failed=1
fi
cc=${CC:-cc}
if command -v "${cc%% *}" >/dev/null 2>&1; then
	for h in "$src"/include/zf2fs/*.h; do
		if ! echo "#include <zf2fs/${h##*/}>" |
			$cc -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I"$src/include" -x c - 2> "$tmp/cc"; then
			echo "lib_abi.sh: FAIL: <zf2fs/${h##*/}> does not compile on its own:"
			sed 's/^/    /' "$tmp/cc"
			failed=1
		fi
	done
fi

# 4. One spelling of hidden: the default.
if grep -rnE 'visibility\("hidden"\)|[A-Z]+_HIDDEN\b' "$src"/lib "$src"/support "$src"/include \
	--include='*.c' --include='*.h'; then
	echo "lib_abi.sh: FAIL: hidden spelled by an attribute or macro (above); -fvisibility=hidden is the one way"
	failed=1
fi

# 5. The helper library's own prefix.
if [ -e "$support" ]; then
	nm --defined-only "$support" | awk '$2 ~ /^[TDBR]$/ { print $3 }' | grep -v '^zs_' > "$tmp/support"
	if [ -s "$tmp/support" ]; then
		echo "lib_abi.sh: FAIL: support/ defines names without the zs_ prefix:"
		sed 's/^/    /' "$tmp/support"
		failed=1
	fi
else
	echo "lib_abi.sh: FAIL: no $support"
	failed=1
fi

[ "$failed" = 0 ] && echo "lib_abi.sh: $(wc -l < "$tmp/sym_public") ABI and $(wc -l < "$tmp/sym_private") private exports agree in the library, lib/libzf2fs.sym, the Debian symbols file and the headers"
exit "$failed"
