#!/bin/sh
# features.sh - the basic round trip for each -O feature set and section
# layout, all images attached to one boot.  A variant our mkfs rejects as
# unsupported is reported and left out; any other mkfs failure fails.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmlib.sh"

vm_setup features "-O feature sets and -s/-z layouts through the kernel"

# name|mkfs options|mount options
VARIANTS='attrs|-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime,lost_found|
quota|-O quota|
compress|-O extra_attr,compression|compress_extension=txt,compress_algorithm=zstd
seg2|-s 2|
seg4zone2|-s 4 -z 2|
hashonly|-O extra_attr,casefold -C utf8:hashonly|'

attached=
skipped=
IFS_SAVE=$IFS
IFS='
'
for v in $VARIANTS; do
	IFS=$IFS_SAVE
	name=${v%%|*}
	rest=${v#*|}
	opts=${rest%%|*}
	mopts=${rest#*|}
	vm_image "$name" 384M
	# shellcheck disable=SC2086 # options are words
	if vm_mkfs "$name" $opts; then
		vm_attach "$name"
		attached="$attached $name:$mopts"
	elif grep -qiE 'unsupported|not supported|unknown feature|not implemented' "$VM_OUT/$name.mkfs.log"; then
		echo "SKIP variant $name: mkfs does not support $opts yet"
		skipped="$skipped $name"
	else
		vm_fail "$name: mkfs $opts failed"
	fi
	IFS='
'
done
IFS=$IFS_SAVE
[ -n "$attached" ] || vm_skip "mkfs supports none of the variants"

{
	echo "variants='$attached'"
	cat <<'EOF'
zwork selftest
for v in $variants; do
	name=${v%%:*}
	mopts=${v#*:}
	step "$name: mount (${mopts:-default options}), build the tree"
	zmount "$name" "/mnt/$name" "$mopts"
	zwork tree "/mnt/$name/tree"
	if [ "$name" = compress ]; then
		# compressible data with the extension that selects compression
		seq 1 400000 >"/mnt/$name/tree/numbers.txt"
		dd if=/dev/zero of="/mnt/$name/tree/zeros.txt" bs=1M count=8 2>/dev/null
		cp /bin/busybox "/mnt/$name/tree/busybox.txt"
		sync
		dev=$(zdisk "$name")
		for k in compr_written_block compr_saved_block compr_new_inode; do
			echo "info: $name $k=$(zf2fs_knob "$dev" "$k")"
		done
		[ "$(zf2fs_knob "$dev" compr_new_inode)" -gt 0 ] || zfail "$name: no compressed inode"
		[ "$(zf2fs_knob "$dev" compr_saved_block)" -gt 0 ] || zfail "$name: compression saved nothing"
	fi
	if [ "$name" = hashonly ]; then
		# the kernel reads the casefolding flags mkfs wrote (Linux 6.16 and later
		# show them in sysfs; 0x2: no linear lookup)
		k=/sys/fs/f2fs/$(zdisk "$name" | sed 's|^/dev/||')/encoding_flags
		if [ -f "$k" ]; then
			[ "$(cat "$k")" = 2 ] || zfail "$name: the kernel's encoding_flags are $(cat "$k"), not 2"
			echo "info: $name: the kernel's encoding_flags are 2 (hashonly)"
		fi
	fi
	zwork manifest "/mnt/$name/tree" "/tmp/$name.manifest"
	zumount "/mnt/$name"
done
zdrop_caches
for v in $variants; do
	name=${v%%:*}
	mopts=${v#*:}
	step "$name: mount again, verify"
	zmount "$name" "/mnt/$name" "$mopts"
	zwork verify "/mnt/$name/tree" "/tmp/$name.manifest"
	zumount "/mnt/$name"
done
EOF
} | vm_guest
vm_boot
for v in $attached; do
	vm_fsck "${v%%:*}"
done
[ -z "$skipped" ] || vm_log "variants skipped (mkfs lacks them):$skipped"
vm_finish
