#!/bin/bash
# Crash safety of fsck repairs: for a few corpus cases, make the N-th write of the repair
# fail (ZF2FS_FAULT_WRITES=N) for every N until the repair completes.  After each
# interrupted run the image must check exactly as before the repair (same problems, exit
# 4): the previous checkpoint is still the valid one.  The completed run must leave the
# image clean.  The cases on the kernel-made encrypted image (marks and flags told by what
# Linux wrote) are among them, and so are repairs on a volume with an aliased device
# (f_alias_*; where the repair keeps the alias file, the completed one must leave it
# holding its whole device; only our fsck runs here: Debian's fsck.f2fs 1.15 predates
# device_alias).
# FSCK_CRASH_CASES names other cases (fsck_crash_16k.sh: those on 16 KiB volumes).
# make check takes every other case, the first included; ZF2FS_FULL=1 every one.
. "$(dirname "$0")/lib.sh"
fault_matrix

nth=0

for case in ${FSCK_CRASH_CASES:-f_unreachable_dir f_inode_mode_bad f_node_unreadable f_sit_count_bad f_sb_primary_bad \
	f_dentry_bucket_bad f_dir_dot_missing f_dir_dot_occupied f_dir_dot_inline \
	f_quota_id_missing f_quota_block_ptr_garbage f_powercut_repair f_inode_mode_type_dir f_inline_flag_bogus f_block_stray \
	f_extent_stale f_inode_footer_bad f_dentry_bitmap_cleared f_sb_primary_devs_bad f_root_nat_lost \
	f_lost_found_absent f_enc_mark_lost f_compr_flag_lost f_dir_casefold_lost f_compr_released_lost \
	f_alias_unrelated_repair f_alias_block_dup f_alias_extent_no_device f_alias_extent_stray \
	f_alias_lost_found_dup f_alias_sit_cleared f_alias_extent_dev0_unheld}; do
	nth=$((nth + 1))
	[ $MATRIX_FULL = 1 ] || [ $((nth % 2)) = 1 ] || continue
	orig=$TEST_TMP/$case.orig
	fsck_case_image "$case" "$orig" > /dev/null 2>&1 || hard_error "$case: setup failed"
	IMG=$orig
	# the aliased device (its bytes are the alias file's) is never written
	adev=
	[ -f "$TEST_TMP/alias.dev" ] && adev=$(sha256sum < "$TEST_TMP/alias.dev")
	"$FSCK" -f -n "$orig" > "$TEST_TMP/before" 2>&1
	before_rc=$?
	interrupted=0 completed=0 bad=
	for n in $(seq 1 200); do
		cp --sparse=always "$orig" "$TEST_TMP/t.img"
		ZF2FS_FAULT_WRITES=$n "$FSCK" -y "$TEST_TMP/t.img" > "$TEST_TMP/run" 2>&1
		rc=$?
		"$FSCK" -f -n "$TEST_TMP/t.img" > "$TEST_TMP/after" 2>&1
		after_rc=$?
		# An interrupted repair may leave the inactive pack half written; fsck notes that
		# pack as invalid (0x020001), which is harmless: the kernel mounts the newest valid
		# pack, the one the repair never touched.  Everything else must be as before.
		sed -i -e "s|$TEST_TMP/t.img|IMG|g" -e '/^\[0x020001\]/d' "$TEST_TMP/after"
		sed -i 's/; [0-9]* problems, 0 fixed/; N problems, 0 fixed/' "$TEST_TMP/after"
		sed -e "s|$orig|IMG|g" -e '/^\[0x020001\]/d' \
		    -e 's/; [0-9]* problems, 0 fixed/; N problems, 0 fixed/' "$TEST_TMP/before" > "$TEST_TMP/before.n"
		if [ $((rc & 8)) -ne 0 ]; then
			interrupted=$((interrupted + 1))
			# the primary superblock is rewritten on its own, before the rest
			if { [ "$case" = f_sb_primary_bad ] || [ "$case" = f_sb_primary_devs_bad ] ||
			     [ "$case" = f_sb_primary_bad_16k ]; } && [ $after_rc -eq 0 ]; then
				continue
			fi
			if [ $after_rc -ne $before_rc ] || ! cmp -s "$TEST_TMP/before.n" "$TEST_TMP/after"; then
				bad="write $n interrupted: the image no longer checks as before (exit $after_rc)"
				diff "$TEST_TMP/before.n" "$TEST_TMP/after" | head -5
				break
			fi
		else
			completed=1
			[ $rc -eq 1 ] && [ $after_rc -eq 0 ] || bad="completed repair (exit $rc) left exit $after_rc"
			[ -z "$adev" ] || [ "$(sha256sum < "$TEST_TMP/alias.dev")" = "$adev" ] ||
				bad="$bad; the aliased device was written"
			# the alias file keeps its device (8 segments), or gets it back, unless the
			# case releases it; a released one has no extent
			case $case in
			f_alias_extent_dev0_unheld)
				ai=$("$INJECT" --lookup /alias.dev "$TEST_TMP/t.img")
				[ "$("$INJECT" --node --nid "$ai" --mb i_ext.len --get "$TEST_TMP/t.img")" = 0 ] ||
					bad="$bad; the alias file was not released" ;;
			f_alias_*)
				ai=$("$INJECT" --lookup /alias.dev "$TEST_TMP/t.img" 2>/dev/null ||
				    "$INJECT" --lookup /lost+found/alias.dev "$TEST_TMP/t.img")
				[ "$("$INJECT" --node --nid "$ai" --mb i_ext.len --get "$TEST_TMP/t.img")" = 4096 ] ||
					bad="$bad; the alias file lost its device" ;;
			esac
			break
		fi
	done
	if [ -n "$bad" ]; then
		tap_fail "$case: $bad"
	elif [ $completed -ne 1 ] || [ $interrupted -lt 1 ]; then
		tap_fail "$case: $interrupted interrupted runs, completed=$completed"
	else
		tap_ok "$case: $interrupted interrupted repairs left the volume as it was; the full repair is clean"
	fi
done
tap_summary
