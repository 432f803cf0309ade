#!/bin/bash
# Crash safety of fsck repairs on 16 KiB volumes: fsck_crash.sh's test (every write of
# the repair failed in turn: the volume checks as before; the full repair leaves it
# clean) on corpus cases of the kernel-aged 16 KiB images, plain and packed_ssa (not the
# summary ones: a summary correction is written in place, right under both checkpoints,
# as fsck_crash.sh leaves f_ssa_mismatch out).
FSCK_CRASH_CASES="f_dentry_bitmap_16k f_dnode_addr_bad_16k f_dnode_addr_bad_16k_packed \
	f_dentry_bitmap_cleared_16k f_inode_addr_bad_16k f_nat_addr_bad_16k f_node_footer_bad_16k \
	f_lost_found_16k f_sb_primary_bad_16k" \
	exec bash "$(dirname "$0")/fsck_crash.sh"
