#!/bin/sh
# content_repair.sh - the kernel judges fsck's repairs of what Linux wrote: the corpus
# cases built on the kernel-made encrypted image (tests/images/base/encrypted.img.xz: an
# encryption mark, a casefold flag, a compression flag, cluster size and released flag, a
# verity file's size, an inline xattr size and flag lost or changed) are made on the host
# and repaired by our fsck -y; in one boot Linux adds the image's keys and reads every
# kind back: the files of the v1, v2 and encrypted+casefolded directories, a name in
# another case there, the fs-verity file (verified against its Merkle tree), the
# compressed files, as they were written.  Both fscks find each volume clean afterwards.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

CASES="f_enc_mark_lost f_dir_casefold_lost f_dir_casefold_stray f_compr_flag_lost
f_compr_cluster_bad f_compr_released_lost f_verity_size_bad f_inline_xattr_size_moved
f_inline_xattr_flag_lost f_enc_dentry_hash_bad"
OUR_FSCK=$top_builddir/fsck/fsck.f2fs

vm_setup content_repair "repairs of kernel-made encrypted, casefolded, verity and compressed files, read back by Linux with the keys"
[ -x "$OUR_FSCK" ] || vm_error "fsck/fsck.f2fs is not built"
[ -x "$top_builddir/tools/inject.f2fs" ] || vm_error "tools/inject.f2fs is not built"

n=0
for c in $CASES; do
	n=$((n + 1))
	vm_case_image "d$n" "$c" 64M
	vm_case_repair "d$n" "$c"
	vm_attach "d$n"
done

vm_guest <<EOF
n=0
for c in $(echo $CASES); do
	n=\$((n + 1))
	step "\$c"
	m=/mnt/\$c
	zmount d\$n \$m
	zwork key \$m add v2 11 >/dev/null
	zwork key \$m add v1 12 >/dev/null
	zwork key \$m add v2 21 >/dev/null
	for d in e2 e1 cf plain; do
		zwork checkfile \$m/\$d/file 12 7 >/dev/null || zfail "\$c: \$d/file"
		[ "\$(cat \$m/\$d/small)" = "inline data" ] || zfail "\$c: \$d/small"
		[ "\$(cat \$m/\$d/sub/leaf)" = "deeper" ] || zfail "\$c: \$d/sub/leaf"
		[ "\$(readlink \$m/\$d/sym)" = file ] || zfail "\$c: \$d/sym"
		[ "\$(ls \$m/\$d | wc -l)" -ge 44 ] || zfail "\$c: \$d lists \$(ls \$m/\$d | wc -l) names"
	done
	[ -f \$m/cf/FILE ] && [ -d \$m/cf/SUB ] || zfail "\$c: no lookup in another case in cf"
	zwork checkfile \$m/plain/verity 64 8 >/dev/null || zfail "\$c: plain/verity"
	yes compressible | head -c 200000 | cmp - \$m/plain/c/text || zfail "\$c: plain/c/text"
	yes released | head -c 100000 | cmp - \$m/plain/c/released || zfail "\$c: plain/c/released"
	echo "info: \$c: every file read back"
	zumount \$m
done
EOF
vm_boot
n=0
for c in $CASES; do
	n=$((n + 1))
	vm_fsck "d$n" "after Linux read $c"
done
vm_finish
