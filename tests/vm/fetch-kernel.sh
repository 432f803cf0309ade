#!/bin/sh
# fetch-kernel.sh - Debian's newest kernel for the kernel bench, unpacked into a cache.
#
#   tests/vm/fetch-kernel.sh            fetch it unless the cache has that version; print its
#                                       vmlinuz (the cached one, with a warning, when the
#                                       suite cannot be reached)
#   tests/vm/fetch-kernel.sh --cached   print the cached vmlinuz (exit 1 when there is none)
#
# The kernel bench judges every volume by Debian 12's kernel (6.1, the machine's own) and
# by the newest kernel Debian builds: linux-image-amd64 of trixie-backports.  That suite's
# package index is read with a private apt configuration and the kernel's packages are
# unpacked with dpkg-deb into the cache: nothing is installed on the machine.
#
# Layout of the cache (ZF2FS_KERNEL_CACHE, default ~/.cache/zf2fs-tools/kernels):
#   VERSION/usr/lib/modules/VERSION/vmlinuz    the kernel image
#   VERSION/lib -> usr/lib                     so that modinfo -b VERSION finds the modules
#   newest                                     a symbolic link to VERSION
# Environment: ZF2FS_KERNEL_SUITE (default trixie-backports), ZF2FS_KERNEL_MIRROR
# (default http://deb.debian.org/debian), ZF2FS_KERNEL_CACHE.
set -eu

suite=${ZF2FS_KERNEL_SUITE:-trixie-backports}
mirror=${ZF2FS_KERNEL_MIRROR:-http://deb.debian.org/debian}
cache=${ZF2FS_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/zf2fs-tools/kernels}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

cached() {
	[ -L "$cache/newest" ] || return 1
	v=$(readlink "$cache/newest")
	[ -f "$cache/$v/usr/lib/modules/$v/vmlinuz" ] && [ -f "$cache/$v/usr/lib/modules/$v/modules.dep" ] ||
		return 1
	echo "$cache/$v/usr/lib/modules/$v/vmlinuz"
}

case ${1:-} in
--cached) cached; exit ;;
-h|--help) sed -n '2,/^set -eu/ { /^#/!q; s/^# \{0,1\}//p; }' "$0"; exit 0 ;;
"") ;;
*) echo "fetch-kernel.sh: unknown option '$1' (use --cached or --help)" >&2; exit 2 ;;
esac
for c in apt-get apt-cache dpkg-deb depmod; do
	command -v "$c" >/dev/null 2>&1 || { echo "fetch-kernel.sh: $c not found" >&2; exit 1; }
done
[ -r "$keyring" ] || { echo "fetch-kernel.sh: $keyring missing (debian-archive-keyring)" >&2; exit 1; }

mkdir -p "$cache"
work=$(mktemp -d "$cache/fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/debs"
# The suite and its base (backports' packages may depend on the base suite's).
base=${suite%-backports}
{
	echo "deb [signed-by=$keyring] $mirror $suite main"
	[ "$base" = "$suite" ] || echo "deb [signed-by=$keyring] $mirror $base main"
} >"$work/sources.list"
apt_opts="-o Dir::Etc::sourcelist=$work/sources.list -o Dir::Etc::sourceparts=/dev/null
-o Dir::State::Lists=$work/lists -o Dir::Cache=$work/apt-cache -o Debug::NoLocking=1
-o APT::Sandbox::User=root"
mkdir -p "$work/apt-cache/archives/partial"
# shellcheck disable=SC2086
if ! apt-get -q $apt_opts update >"$work/update.log" 2>&1; then
	cat "$work/update.log" >&2
	echo "fetch-kernel.sh: cannot read $suite's package index" >&2
	cached && { echo "fetch-kernel.sh: using the cached kernel" >&2; exit 0; }
	exit 1
fi

# linux-image-amd64 (the suite's version) depends on linux-image-VERSION, which depends on
# the packages holding the image and the modules.
# shellcheck disable=SC2086
image=$(apt-cache $apt_opts depends "linux-image-amd64/$suite" 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
[ -n "$image" ] || { echo "fetch-kernel.sh: no linux-image-amd64 in $suite" >&2; exit 1; }
v=${image#linux-image-}
if [ -f "$cache/$v/usr/lib/modules/$v/modules.dep" ]; then
	ln -sfn "$v" "$cache/newest"
	cached
	exit 0
fi
# shellcheck disable=SC2086
pkgs=$(apt-cache $apt_opts depends "$image" 2>/dev/null |
	sed -n "s/^ *Depends: \(linux-[a-z]*-$v\)\$/\1/p" | sort -u)
echo "fetch-kernel.sh: Linux $v from $suite: $pkgs" >&2
# shellcheck disable=SC2086
(cd "$work/debs" && apt-get -q $apt_opts download $pkgs >"$work/download.log" 2>&1) ||
	{ cat "$work/download.log" >&2; echo "fetch-kernel.sh: download failed" >&2; exit 1; }
rm -rf "${cache:?}/$v"
mkdir -p "$work/root"
for d in "$work"/debs/*.deb; do
	dpkg-deb -x "$d" "$work/root"
done
[ -f "$work/root/usr/lib/modules/$v/vmlinuz" ] ||
	{ echo "fetch-kernel.sh: the packages hold no usr/lib/modules/$v/vmlinuz" >&2; exit 1; }
[ -e "$work/root/lib" ] || ln -s usr/lib "$work/root/lib"
# Debian's packages leave modules.dep to the machine that installs them.
depmod -b "$work/root" "$v"
mv "$work/root" "$cache/$v"
ln -sfn "$v" "$cache/newest"
cached
