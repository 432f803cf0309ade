# Sourced by the test libraries (tests/images/lib.sh, tests/compat/lib.sh).
#
# our_bin DIR: fill DIR with a link per program of the build (the tools, the test and bench
# helpers), named as make names it, to the program itself: to the ELF file in .libs/ where
# make left a libtool wrapper script.  The wrapper runs sed and ls before it execs, about
# 60 ms a start, more than most runs of the program take; the suite starts tens of
# thousands.  LD_LIBRARY_PATH gets the build's library directory first, as the wrapper
# would set it.  A program that is not built gets a dangling link, which -x sees as missing.
our_bin()
{
	local dir=$1 rel p d b magic
	mkdir -p "$dir" || return 1
	for rel in mkfs/mkfs.f2fs fsck/fsck.f2fs tools/dump.f2fs tools/inject.f2fs \
		tools/gc.f2fs tools/defrag.f2fs tools/sload.f2fs tools/resize.f2fs \
		tools/f2fslabel tools/fibmap.f2fs tools/f2fs_io/f2fs_io \
		tools/f2fs_metadump tools/f2fs_mdrestore \
		tests/images/peak_rss tests/images/txn_populate bench/populate; do
		p=$top_builddir/$rel
		d=${p%/*}
		b=${p##*/}
		magic=
		[ -f "$p" ] && IFS= read -r -n 4 magic <"$p"
		if [ -f "$d/.libs/$b" ] && [ "$magic" = "#! /" ]; then
			p=$d/.libs/$b
		fi
		ln -sf "$p" "$dir/$b" || return 1
	done
	export LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}
