#!/bin/sh
# fetch-kernel.sh - Debian's newest kernel for the kernel bench, unpacked into a cache.
#
#   tests/vm/fetch-kernel.sh [--flavour F]          fetch it unless the cache has that
#                                       version; print its vmlinuz (the cached one, with a
#                                       warning, when the suite cannot be reached)
#   tests/vm/fetch-kernel.sh [--flavour F] --cached print the cached vmlinuz (exit 1 when
#                                       there is none)
#
# FLAVOUR is Debian's: amd64 (the default: the machine's own architecture) or arm64-16k
# (arm64 with 16 KiB pages, for volumes of 16 KiB blocks, booted under
# qemu-system-aarch64).  A flavour of another architecture also brings that
# architecture's static busybox (busybox-static), the guest's userland.
#
# The kernel bench judges every volume by Debian 12's kernel (6.1, the machine's own) and
# by the newest kernel Debian builds: linux-image-amd64 of trixie-backports.  That suite's
# package index is read with a private apt configuration and the kernel's packages are
# unpacked with dpkg-deb into the cache: nothing is installed on the machine.
#
# Layout of the cache (ZF2FS_KERNEL_CACHE, default ~/.cache/zf2fs-tools/kernels):
#   VERSION/usr/lib/modules/VERSION/vmlinuz    the kernel image
#   VERSION/lib -> usr/lib                     so that modinfo -b VERSION finds the modules
#   VERSION/busybox                            the static busybox (other architectures)
#   newest                                     a symbolic link to the amd64 VERSION
#   newest-FLAVOUR                             one to the VERSION of another flavour
# Environment: ZF2FS_KERNEL_SUITE (default trixie-backports), ZF2FS_KERNEL_MIRROR
# (default http://deb.debian.org/debian), ZF2FS_KERNEL_CACHE.
set -eu

suite=${ZF2FS_KERNEL_SUITE:-trixie-backports}
mirror=${ZF2FS_KERNEL_MIRROR:-http://deb.debian.org/debian}
cache=${ZF2FS_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/zf2fs-tools/kernels}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

flavour=amd64
only_cached=
while [ $# -gt 0 ]; do
	case $1 in
	--cached) only_cached=1 ;;
	--flavour) [ $# -ge 2 ] || { echo "fetch-kernel.sh: --flavour needs a value" >&2; exit 2; }
		flavour=$2; shift ;;
	-h|--help) sed -n '2,/^set -eu/ { /^#/!q; s/^# \{0,1\}//p; }' "$0"; exit 0 ;;
	*) echo "fetch-kernel.sh: unknown option '$1' (use --flavour, --cached or --help)" >&2; exit 2 ;;
	esac
	shift
done
case $flavour in
amd64) arch=amd64 link=newest ;;
arm64|arm64-16k) arch=arm64 link=newest-$flavour ;;
*) echo "fetch-kernel.sh: unknown flavour '$flavour' (amd64, arm64, arm64-16k)" >&2; exit 2 ;;
esac
host_arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)

cached() {
	[ -L "$cache/$link" ] || return 1
	v=$(readlink "$cache/$link")
	[ -f "$cache/$v/usr/lib/modules/$v/vmlinuz" ] && [ -f "$cache/$v/usr/lib/modules/$v/modules.dep" ] ||
		return 1
	[ "$arch" = "$host_arch" ] || [ -x "$cache/$v/busybox" ] || return 1
	echo "$cache/$v/usr/lib/modules/$v/vmlinuz"
}

if [ -n "$only_cached" ]; then
	cached
	exit
fi
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
-o APT::Sandbox::User=root -o APT::Architecture=$arch -o APT::Architectures=$arch"
mkdir -p "$work/apt-cache/archives/partial"
# shellcheck disable=SC2086
if ! apt-get -q $apt_opts update >"$work/update.log" 2>&1; then
	cat "$work/update.log" >&2
	echo "fetch-kernel.sh: cannot read $suite's package index" >&2
	cached && { echo "fetch-kernel.sh: using the cached kernel" >&2; exit 0; }
	exit 1
fi

# linux-image-FLAVOUR (the suite's version) depends on linux-image-VERSION, which depends
# on the packages holding the image and the modules.
# shellcheck disable=SC2086
image=$(apt-cache $apt_opts depends "linux-image-$flavour/$suite" 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
[ -n "$image" ] || { echo "fetch-kernel.sh: no linux-image-$flavour in $suite" >&2; exit 1; }
v=${image#linux-image-}
ln -sfn "$v" "$cache/$link.tmp"
if link=$link.tmp cached >/dev/null; then
	mv -T "$cache/$link.tmp" "$cache/$link"
	cached
	exit 0
fi
rm -f "$cache/$link.tmp"
# shellcheck disable=SC2086
pkgs=$(apt-cache $apt_opts depends "$image" 2>/dev/null |
	sed -n "s/^ *Depends: \(linux-[a-z]*-$v\)\$/\1/p" | sort -u)
echo "fetch-kernel.sh: Linux $v from $suite: $pkgs" >&2
# another architecture's guest has no busybox of the machine's: the suite's static one
[ "$arch" = "$host_arch" ] || pkgs="$pkgs busybox-static"
# shellcheck disable=SC2086
(cd "$work/debs" && apt-get -q $apt_opts download $pkgs >"$work/download.log" 2>&1) ||
	{ cat "$work/download.log" >&2; echo "fetch-kernel.sh: download failed" >&2; exit 1; }
rm -rf "${cache:?}/$v"
mkdir -p "$work/root"
for d in "$work"/debs/*.deb; do
	case $d in
	*/busybox-static_*) dpkg-deb -x "$d" "$work/bb" ;;
	*) dpkg-deb -x "$d" "$work/root" ;;
	esac
done
if [ "$arch" != "$host_arch" ]; then
	for b in "$work/bb/bin/busybox" "$work/bb/usr/bin/busybox"; do
		[ -f "$b" ] && cp "$b" "$work/root/busybox" && break
	done
	[ -x "$work/root/busybox" ] || { echo "fetch-kernel.sh: busybox-static holds no busybox" >&2; exit 1; }
fi
[ -f "$work/root/usr/lib/modules/$v/vmlinuz" ] ||
	{ echo "fetch-kernel.sh: the packages hold no usr/lib/modules/$v/vmlinuz" >&2; exit 1; }
[ -e "$work/root/lib" ] || ln -s usr/lib "$work/root/lib"
# Debian's packages leave modules.dep to the machine that installs them.
depmod -b "$work/root" "$v"
mv "$work/root" "$cache/$v"
ln -sfn "$v" "$cache/$link"
cached
