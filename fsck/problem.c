// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * problem.c - every inconsistency fsck can report, and the one place that decides
 * whether to repair it.
 *
 * Each problem has a stable code 0xPPNNNN (PP = the pass that finds it), a one-line
 * message whose %-fields come from the problem context, the question it asks, and flags
 * (PREEN_OK: -p may fix it; NO_OK: leaving it is harmless).  Output lines are stable so
 * that tests compare them:  "[0xPPNNNN] <message>. <Question>? yes|no".
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsck.h"

static const struct problem_def problems[] = {
	{ PR_1_SB_PRIMARY_BAD, "primary superblock is invalid (%S)", PROMPT_REBUILD,
	  PR_PREEN_OK },
	{ PR_1_SB_BACKUP_BAD, "backup superblock is invalid (%S)", PROMPT_REBUILD, PR_PREEN_OK },
	{ PR_1_SB_ERRORS_RECORDED, "the superblock records what the kernel met: %S", PROMPT_CLEAR,
	  PR_PREEN_OK | PR_NO_OK },
	{ PR_1_SB_UUID_BAD, "%S superblock's uuid differs from the other copy's, which the inode "
	  "checksums are seeded with", PROMPT_FIX, PR_PREEN_OK },
	{ PR_1_SB_QF_INO_STALE, "the superblock names quota file inodes (%S) without the quota_ino "
	  "feature, with which alone the kernel reads them", PROMPT_CLEAR, PR_PREEN_OK },
	{ PR_1_SB_SEGMENT_COUNT, "%S superblock's segment_count %N runs past the main area's end "
	  "(%M segments; the kernel writes that back at mount)", PROMPT_FIX, PR_PREEN_OK },
	{ PR_1_SB_QF_INO_BAD, "%S is %N, which holds no such quota file; the other copy's %M is "
	  "right (an inode that holds it, or 0 for a type no feature asks for)", PROMPT_FIX,
	  PR_PREEN_OK },
	{ PR_2_CP_PACK_BAD, "checkpoint pack %N is invalid (%S)", PROMPT_NONE,
	  PR_NOT_A_FIX | PR_NO_OK },
	{ PR_2_CP_ORPHAN_BLOCK_BAD, "orphan block %N of the checkpoint counts %M entries, more "
	  "than a block holds: the kernel refuses to mount; leave the block out of the orphan "
	  "list", PROMPT_FIX, 0 },
	{ PR_2_CP_NEEDS_RECOVERY, "the volume was not unmounted cleanly: %N node blocks of fsync'd "
	  "data after the checkpoint wait for the kernel's roll-forward at mount (a repair keeps "
	  "them)", PROMPT_NONE, PR_NOT_A_FIX | PR_NO_OK },
	{ PR_2_CP_ERROR_FLAG, "the checkpoint carries the kernel's error flag, with which the "
	  "kernel refuses to mount", PROMPT_CLEAR, PR_PREEN_OK },
	{ PR_2_CP_NEWEST_BAD, "checkpoint pack %N (version %M) is the newest, which the kernel "
	  "uses, and it is invalid (%S): the kernel refuses to mount; the older pack becomes "
	  "current: write a new checkpoint from it", PROMPT_FIX, PR_PREEN_OK },
	{ PR_2_CP_NEWEST_SUMS, "checkpoint pack %N (version %M) is the newest, which the kernel "
	  "uses, and its summaries are not where its flags and block count say (%S): the kernel "
	  "mounts it but reads the logs' summaries and journals from other blocks; the older pack "
	  "becomes current: write a new checkpoint from it", PROMPT_FIX, PR_PREEN_OK },
	{ PR_2_CP_ORPHAN_INO_BAD, "orphan block %N, entry %M names inode %i, which the kernel "
	  "cannot free (%S): it refuses to mount; leave the entry out of the orphan list",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_2_CP_ORPHAN_LINKED, "the orphan list names inode %i, which a name reaches: the "
	  "kernel would free it at mount under its names; leave it out of the orphan list",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_3_SIT_COUNT_BAD, "segment %s: SIT valid count %N differs from its bitmap (%M)",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_3_SIT_TYPE_BAD, "segment %s: SIT type %N is not a log type", PROMPT_FIX, PR_PREEN_OK },
	{ PR_3_NAT_ADDR_BAD, "nid %n: NAT block address %b is outside the main area",
	  PROMPT_CLEAR, 0 },
	{ PR_3_NAT_INO_BAD, "nid %n: NAT inode number %N is invalid", PROMPT_CLEAR, 0 },
	{ PR_3_JOURNAL_SEG_BAD, "SIT journal entry names segment %N beyond the main area",
	  PROMPT_CLEAR, PR_PREEN_OK },
	{ PR_3_NAT_ADDR_FOUND, "nid %n (a node of inode %N): NAT block address %M is outside the "
	  "main area; its node block is at %b (found by its summary entry and footer)",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_3_QF_NAT_BAD, "quota file inode %i: its NAT entry holds no block (address %N), so "
	  "the kernel turns every quota off at mount; %S", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_ROOT_BAD, "root inode is unusable (%S)", PROMPT_NONE, PR_FATAL | PR_NOT_A_FIX },
	{ PR_4_NODE_UNREADABLE, "inode %i: node %n cannot be used (%S)", PROMPT_REMOVE, 0 },
	{ PR_4_BLOCK_OUTSIDE_MAIN, "inode %i: node %n slot %N points outside the main area (%b)",
	  PROMPT_CLEAR, 0 },
	{ PR_4_BLOCK_DUP, "inode %i: block %b is also owned by nid %M", PROMPT_CLEAR, 0 },
	{ PR_4_INODE_MODE_BAD, "inode %i: mode 0%N is not a known file type; its contents and "
	  "its name make it file type %M", PROMPT_FIX, 0 },
	{ PR_4_INODE_BLOCKS_BAD, "inode %i: i_blocks is %N, counted %M", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_INODE_CHECKSUM_BAD, "inode %i: inode checksum mismatch", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_INODE_EXTRA_BAD, "inode %i: extra attribute or inline xattr size is invalid (%N)",
	  PROMPT_CLEAR, 0 },
	{ PR_4_INODE_INLINE_SIZE_BAD, "inode %i: inline data of %N bytes exceeds room for %M",
	  PROMPT_FIX, 0 },
	{ PR_4_XATTR_NODE_BAD, "inode %i: xattr node %n is unusable (%S)", PROMPT_CLEAR, 0 },
	{ PR_4_SSA_MISMATCH, "block %b: summary says nid %N slot %M, owner is nid %n",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_INODE_MODE_TYPE, "inode %i: the file type of mode 0%N contradicts its contents "
	  "and its name, which make it file type %M", PROMPT_FIX, 0 },
	{ PR_4_INLINE_FLAG_BOGUS, "inode %i: flagged as inline data, but %S (size %N)",
	  PROMPT_FIX, 0 },
	{ PR_4_INLINE_FLAG_MISSING, "inode %i: not flagged as inline data, but %S (size %N)",
	  PROMPT_FIX, 0 },
	{ PR_4_INLINE_RESERVED_BAD, "inode %i: the word before its inline area holds %N, which "
	  "the kernel would take for the address of block 0", PROMPT_CLEAR, PR_PREEN_OK },
	{ PR_4_BLOCK_RESTORED, "inode %i: node %n slot %N can point again at block %b, which no "
	  "file owns and whose summary names that slot", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_EXTENT_BAD, "inode %i: cached extent (file block %N, %M blocks at %b) differs from "
	  "its block map", PROMPT_CLEAR, PR_PREEN_OK },
	{ PR_4_INODE_NAME_BAD, "inode %i: the name it keeps for recovery (length %N) is not its "
	  "name \"%S\"", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_FILE_PINO_BAD, "inode %i: parent inode number %N, but its only name is in "
	  "directory %p", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_INODE_FOOTER_BAD, "inode %i: its block's footer says nid %N, inode %M, offset %S; "
	  "the NAT and the summary name it inode %i", PROMPT_FIX, 0 },
	{ PR_4_NODE_RESTORED, "inode %i: i_nid[%N] can point again at node %n, which nothing "
	  "reaches and whose footer names that place", PROMPT_FIX, 0 },
	{ PR_4_INLINE_DENTRY_FLAG_BAD, "directory %i: %S (size %N)", PROMPT_FIX,
	  0 },
	{ PR_4_SB_FEATURE_MISSING, "inodes use the %S feature, which the superblock does not "
	  "have: the kernel refuses them", PROMPT_FIX, 0 },
	{ PR_4_ROOT_NAT_LOST, "root inode %i has no NAT entry, but its inode block is at %b "
	  "(found by its summary entry and footer)", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_SSA_VERSION_BAD, "node %n: the summaries of its data blocks (the first at %b) "
	  "record version %N, its NAT entry has version %M", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_NAT_ADDR_WRONG, "inode %i: its NAT entry points at block %N, which is not its own; "
	  "its inode block is at %b (found by its summary entry and footer)", PROMPT_FIX,
	  PR_PREEN_OK },
	{ PR_4_NODE_FOOTER_BAD, "inode %i: node %n at %b has a wrong footer (%S); its NAT entry, "
	  "its summary entry and its parent's pointer agree on it", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_XATTR_LIST_BAD, "inode %i: its inline xattr list runs past its inline area (entry "
	  "at byte %N of %M) and no xattr node continues it: the kernel refuses all its xattrs",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_INODE_NAMELEN_BAD, "inode %i: i_namelen %N is longer than a name can be; i_name "
	  "holds %M bytes", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_INODE_EXTRA_RESET, "inode %i: extra attribute size %N or inline xattr size %M is "
	  "invalid; the root inode's extra size and the default inline xattr size fit it", PROMPT_FIX, 0 },
	{ PR_4_NAT_INO_WRONG, "inode %i: its NAT entry names inode %N, but its block at %b is "
	  "inode %i by its footer and its summary entry", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_INODE_FLAGS_BAD, "inode %i: i_flags 0x%N hold bits 0x%M this volume cannot have "
	  "(casefold without the casefold feature or on a non-directory, compression without the "
	  "compression feature, with inline data, or on a file whose extra attributes hold no "
	  "cluster size the kernel knows and whose slots no cluster marker)", PROMPT_CLEAR, PR_PREEN_OK },
	{ PR_4_GC_FAILURES_SET, "regular file %i: i_gc_failures is %N (a count of failed moves of "
	  "a pinned file)", PROMPT_CLEAR, PR_PREEN_OK | PR_NO_OK },
	{ PR_4_ROOT_EXTRA_RESET, "root inode %i: extra attribute size %N or inline xattr size %M "
	  "is invalid; the extra size the other inodes share and the default inline xattr size "
	  "fit it", PROMPT_FIX, 0 },
	{ PR_4_INLINE_DENTRY_NOT_DIR, "inode %i: flagged as holding inline dentries, which the "
	  "kernel refuses in anything but a directory; %S (size %N)", PROMPT_FIX, 0 },
	{ PR_4_INLINE_DATA_EXIST, "inode %i: inline data of %N bytes not flagged as present: the "
	  "kernel would drop it when the file grows out of its inode", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_EXTRA_ATTR_FLAG_LOST, "inode %i: not flagged as having extra attributes, but its "
	  "first words hold the extra size the other inodes (or the kernel's) have (%N) and an "
	  "inline xattr size (%M)",
	  PROMPT_FIX, 0 },
	{ PR_4_BLOCK_FREE_STRAY, "inode %i: node %n slot %N points at block %b, which the SIT "
	  "marks free and whose summary names nid %M", PROMPT_CLEAR, 0 },
	{ PR_4_EXTRA_OWN, "inode %i: extra attribute size %N or inline xattr size %M is invalid; "
	  "%S, its block pointers or dentries are where their summaries and dots say",
	  PROMPT_FIX, 0 },
	{ PR_4_INODE_XATTR_RESET, "inode %i: inline xattr size %M is invalid (its extra attribute "
	  "size %N is fine); the default inline xattr size fits it", PROMPT_FIX, 0 },
	{ PR_4_COMPR_BLOCKS_BAD, "compressed file %i: i_compr_blocks is %N, its compressed clusters "
	  "save %M blocks (what the kernel gives back when it releases them)", PROMPT_FIX,
	  PR_PREEN_OK },
	{ PR_4_COMPR_FLAG_LOST, "regular file %i: its block map holds %N compressed clusters of "
	  "%M blocks, but not the compression flag, without which the kernel reads their "
	  "compressed bytes as the file's data", PROMPT_FIX, 0 },
	{ PR_4_COMPR_CLUSTER_BAD, "compressed file %i: clusters of 2^%N blocks, which the kernel "
	  "refuses or which put its cluster markers inside clusters, where the kernel takes "
	  "them for block addresses; the markers begin clusters of 2^%M blocks", PROMPT_FIX, 0 },
	{ PR_4_COMPR_RELEASED_LOST, "compressed file %i: its %N compressed clusters keep no "
	  "reserved blocks and i_compr_blocks is 0, as F2FS_IOC_RELEASE_COMPRESS_BLOCKS leaves "
	  "them, but the released flag is not set", PROMPT_FIX, 0 },
	{ PR_4_ENC_CONTEXT_BAD, "inode %i is encrypted, but its encryption context %S: the "
	  "kernel cannot open it, with the key or without, and fsck cannot rebuild a context",
	  PROMPT_NONE, PR_NOT_A_FIX },
	{ PR_4_VERITY_BAD, "inode %i has fs-verity, but the location of its verity descriptor "
	  "%S: the kernel refuses to open it, and fsck cannot rebuild it", PROMPT_NONE,
	  PR_NOT_A_FIX },
	{ PR_4_ENC_MARK_STRAY, "inode %i is marked encrypted, but has no encryption context and "
	  "its directory %p is not encrypted (an encrypted file's directory always is): the "
	  "mark is what is wrong, and the kernel would refuse to open the file for it",
	  PROMPT_CLEAR, 0 },
	{ PR_4_VERITY_MARK_STRAY, "inode %i is marked as an fs-verity file, but has neither the "
	  "verity xattr nor blocks past EOF for a Merkle tree: the mark is what is wrong, and "
	  "the kernel would refuse to open the file for it", PROMPT_CLEAR, 0 },
	{ PR_4_ENC_MARK_LOST, "inode %i holds a version %N encryption context, which only the "
	  "kernel's encryption gives an inode, but is not marked encrypted: read without the "
	  "mark, its ciphertext (a directory's names, a file's data) passes for plain",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_INLINE_XATTR_FLAG_LOST, "inode %i: its inline xattr area (%N words) holds an "
	  "xattr list, but the flag the kernel reads it by is not set: its xattrs (an "
	  "encryption context, a verity location, ACLs among them) would be lost",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_VERITY_SIZE_BAD, "fs-verity file %i: i_size is %N, its verity descriptor (which "
	  "Linux checks the file against) says %M", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_INLINE_XATTR_SIZE_MOVED, "inode %i: inline xattr size %N words puts its xattr area "
	  "where no xattr list begins, and the list the kernel wrote begins where the default "
	  "size of %M puts it", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_COMPR_ALGO_BAD, "inode %i: compression algorithm %N is none Linux knows (0 lzo, "
	  "1 lz4, 2 zstd, 3 lzo-rle), and Linux refuses the inode for it; %S", PROMPT_FIX,
	  PR_PREEN_OK },
	{ PR_4_COMPR_LEVEL_BAD, "inode %i: compression level %N is none %S has, and Linux "
	  "refuses the inode for it; level 0, the algorithm's default, decides only how new "
	  "writes compress", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_COMPR_INHERIT_BAD, "inode %i is not a regular file, but flagged compressed (a "
	  "directory passes that on to the files made in it), and Linux refuses it for its "
	  "cluster size 2^%N (2^2 to 2^8) or its i_compr_blocks %M (at most its i_blocks): what "
	  "is out of range gets Linux's default (2^2 blocks, 0)", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_DEVICE_ALIAS_STRAY, "inode %i: i_flags 0x%N hold the device-alias flag, "
	  "but the volume has no device_alias feature, and Linux refuses the inode for it; "
	  "without the flag the file's blocks are the ones its block map names",
	  PROMPT_CLEAR, PR_PREEN_OK },
	{ PR_4_DEVICE_ALIAS_UNPINNED, "inode %i: i_flags 0x%N hold the device-alias flag, but "
	  "the file is not pinned, and Linux refuses the inode for it (it makes an alias file "
	  "pinned and never unpins one): pin it again", PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_ACL_BAD, "inode %i: its POSIX ACL (xattr name index %M: 2 access, 3 default) of "
	  "%N bytes is one Linux cannot parse (%S), and Linux fails what it reads it for (access "
	  "by anyone but the owner; files made in a directory with a default ACL): the ACL goes, "
	  "and the mode bits give the file's permissions", PROMPT_REMOVE, 0 },
	{ PR_4_INLINE_POST_READ, "regular file %i (size %N) is %S and flagged as holding inline "
	  "data, which Linux never gives such a file, and refuses it for without blocks: the "
	  "flag goes, and its inline area (%M nonzero words, none written by Linux) is zeroed",
	  PROMPT_FIX, 0 },
	{ PR_4_PINO_BAD, "inode %i has one name, in directory %p, but its i_pino says %N (and "
	  "the kernel's mark for a parent it lost is not set): roll-forward recovery of the "
	  "file after an fsync would put its name in the wrong directory; i_pino becomes %p",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_4_ALIAS_DEV0, "device alias file %i: its extent (block %b, %N blocks) is device 0's, "
	  "which holds the volume's metadata and cannot be aliased, and Linux refuses the inode "
	  "for it: %S", PROMPT_FIX, 0 },
	{ PR_4_ALIAS_ZONED, "device alias file %i: its extent (block %b, %N blocks) is device %M's, "
	  "a zoned device, and Linux refuses the inode of an alias of one: %S", PROMPT_FIX, 0 },
	{ PR_4_ALIAS_MISALIGNED, "device alias file %i: its extent (block %b, %N blocks) is device "
	  "%M's, which does not start and end on a section boundary, and Linux refuses the inode "
	  "for it: %S", PROMPT_FIX, 0 },
	{ PR_4_ALIAS_NO_DEVICE, "device alias file %i: its extent (block %b, %N blocks) matches no "
	  "device's range, and Linux refuses the inode for it: %S", PROMPT_FIX, 0 },
	{ PR_4_ALIAS_BLOCK_DUP, "inode %i: block %b (node %n, slot %N) lies on the device that "
	  "device alias file %M holds: Linux allocates no block there while an alias file holds "
	  "the device, so this pointer is the wrong one; it goes and the alias file keeps the "
	  "block", PROMPT_CLEAR, 0 },
	{ PR_4_ROOT_CREATE, "root inode %i is gone (no NAT entry, no block holds it): a new, "
	  "empty root directory; what no name reaches then goes to lost+found", PROMPT_CREATE, 0 },
	{ PR_5_DENTRY_BAD_INO, "directory %p: entry \"%S\" names inode %i, which does not exist",
	  PROMPT_REMOVE, 0 },
	{ PR_5_DENTRY_NAME_BAD, "directory %p: entry in slot %N has a name the kernel cannot "
	  "use (%S: empty, longer than its slots, or holding '/' or NUL outside an encrypted "
	  "directory), so nothing can reach it by name",
	  PROMPT_REMOVE, 0 },
	{ PR_5_DENTRY_HASH_BAD, "directory %p: entry \"%S\" has hash 0x%N, expected 0x%M",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_5_DENTRY_TYPE_BAD, "directory %p: entry \"%S\" has file type %N, the inode says %M",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_5_DENTRY_BUCKET_BAD, "directory %p: entry \"%S\" is in bucket %N, its hash wants %M",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_5_DIR_DOT_MISSING, "directory %i: entry \"%S\" is missing", PROMPT_FIX,
	  PR_PREEN_OK },
	{ PR_5_DIR_MULTI_PARENT, "directory %i is also named in directory %p as \"%S\" (a "
	  "directory has one parent, its first name; the kernel's rmdir and rename would "
	  "break the tree through a second)",
	  PROMPT_REMOVE, 0 },
	{ PR_5_DIR_DEPTH_BAD, "directory %i: i_current_depth %N, its dentry blocks need %M hash "
	  "levels (the kernel takes at most 63)", PROMPT_FIX, PR_PREEN_OK },
	{ PR_5_INODE_PINO_BAD, "directory %i: parent inode number %N, its parent is %p",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_5_DIR_DOT_WRONG, "directory %i: entry \"%S\" names inode %N, expected %M",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_5_DENTRY_BUCKET_FULL, "directory %i: entry \"%S\" left where it is: no dentry block "
	  "of its hash bucket at levels 0 to %N has %M free slots in a row (the kernel would add "
	  "a hash level or a block; fsck adds neither)", PROMPT_NONE, PR_NOT_A_FIX },
	{ PR_5_DIR_LEVEL_BAD, "directory %i: i_dir_level %N puts its names in wrong hash buckets; "
	  "i_dir_level %M puts every one in its bucket", PROMPT_FIX, PR_PREEN_OK },
	{ PR_5_DIR_DOTDOT_NAME_BAD, "directory %i: slot 1 of its first dentry area, where \"..\" "
	  "belongs, holds \"%S\" (a name length cut short)", PROMPT_FIX, PR_PREEN_OK },
	{ PR_5_DIR_CASEFOLD_STRAY, "directory %i is flagged casefolded, but %N of its names hold "
	  "their plain hash and none a folded one: the flag is what changed (the kernel "
	  "would look for every name where it is not)", PROMPT_CLEAR, PR_PREEN_OK },
	{ PR_5_DIR_CASEFOLD_LOST, "directory %i is not flagged casefolded, but %N of its names "
	  "hold a folded hash and none its plain one: the flag is what was lost (the "
	  "kernel would look for every name where it is not)", PROMPT_FIX, PR_PREEN_OK },
	{ PR_6_LINK_COUNT_BAD, "inode %i: link count is %N, counted %M", PROMPT_FIX, PR_PREEN_OK },
	{ PR_6_UNREACHABLE_INODE, "inode %i is not in any directory", PROMPT_RECONNECT, 0 },
	{ PR_6_UNREACHABLE_NODE, "node %n (inode %i) at %b is not reachable", PROMPT_CLEAR,
	  PR_PREEN_OK },
	{ PR_6_NO_LOST_FOUND, "no lost+found directory to reconnect inode %i to", PROMPT_NONE,
	  PR_NOT_A_FIX },
	{ PR_6_RECONNECT_HOME, "inode %i is not in any directory; it was created in directory %p "
	  "as \"%S\", where that name is free", PROMPT_RECONNECT_HOME, 0 },
	{ PR_6_CREATE_LOST_FOUND, "no lost+found directory in the root: a new one, inode %i, "
	  "takes the inodes no directory holds", PROMPT_CREATE, 0 },
	{ PR_7_SIT_VALID_BAD, "segment %s: SIT records %N valid blocks, found %M", PROMPT_FIX,
	  PR_PREEN_OK },
	{ PR_7_SIT_BITMAP_BAD, "segment %s: SIT bitmap differs from the blocks found (%N of them)",
	  PROMPT_FIX, PR_PREEN_OK },
	{ PR_7_CP_VALID_BLOCKS_BAD, "checkpoint valid_block_count is %N, found %M", PROMPT_FIX,
	  PR_PREEN_OK },
	{ PR_7_CP_VALID_NODES_BAD, "checkpoint valid_node_count is %N, found %M", PROMPT_FIX,
	  PR_PREEN_OK },
	{ PR_7_CP_VALID_INODES_BAD, "checkpoint valid_inode_count is %N, found %M", PROMPT_FIX,
	  PR_PREEN_OK },
	{ PR_7_CP_FREE_SEGS_BAD, "checkpoint free_segment_count is %N, found %M", PROMPT_FIX,
	  PR_PREEN_OK },
	{ PR_7_CURSEG_NEXT_USED, "log %N (segment %s): block %M after the write position is "
	  "in use", PROMPT_FIX, PR_PREEN_OK },
	{ PR_7_NEXT_FREE_NID_BAD, "checkpoint next_free_nid %N is beyond the NAT (%M)", PROMPT_FIX,
	  PR_PREEN_OK },
	{ PR_7_SIT_TYPE_WRONG, "segment %s: SIT type %N, expected %M", PROMPT_FIX, PR_PREEN_OK },
	{ PR_7_SUM_TYPE_WRONG, "segment %s: its summary block's footer says type %N, its blocks "
	  "make it %M (0 data, 1 node)", PROMPT_FIX, PR_PREEN_OK },
	{ PR_7_CURSEG_SSR_USED, "log %N (segment %s, filling holes): block %M at its write "
	  "position is in use, with which the kernel refuses to mount; %S", PROMPT_FIX,
	  PR_PREEN_OK },
	{ PR_7_CURSEG_WRONG_KIND, "log %N is in segment %s, whose blocks in use are all %S: the "
	  "segment keeps its kind and the log moves to a free segment", PROMPT_FIX, PR_PREEN_OK },
	{ PR_8_CURSEG_WP_MISMATCH, "log %N (segment %s) writes next at block %M of its zone, the "
	  "zone's write pointer is at %S", PROMPT_FIX, PR_PREEN_OK },
	{ PR_8_VALID_BEYOND_WP, "zone at block %b (segment %s): block %N in use is at or beyond "
	  "the write pointer (%S): its contents are lost; finish the zone", PROMPT_FIX, 0 },
	{ PR_8_ZONE_NOT_RESET, "zone at block %b (segment %s) holds nothing in use, but its write "
	  "pointer is at block %N: reset it", PROMPT_FIX, PR_PREEN_OK | PR_NO_OK },
	{ PR_8_ZONE_NOT_FULL, "zone at block %b (segment %s) holds blocks in use up to block %N "
	  "and no log writes to it, but it is not full (write pointer at %S): Linux 7.3 "
	  "finishes it at mount; finish it", PROMPT_FIX, PR_PREEN_OK | PR_NO_OK },
	{ PR_9_QUOTA_INODE_BAD, "%S quota file inode %i is not a regular file in use: the kernel "
	  "cannot enable that quota", PROMPT_NONE, PR_NOT_A_FIX },
	{ PR_9_QUOTA_FILE_BAD, "quota file inode %i is damaged (%S): rebuild it from the "
	  "inodes (its limits and grace times are lost)", PROMPT_REBUILD, 0 },
	{ PR_9_QUOTA_USAGE_BAD, "quota file inode %i, %S", PROMPT_FIX, PR_PREEN_OK },
	{ PR_9_QUOTA_NEED_FSCK, "the checkpoint asks for a quota check (quota_need_fsck): clear "
	  "the flag once the quota files are right", PROMPT_FIX, PR_PREEN_OK | PR_NO_OK },
};

const struct problem_def *problem_table(size_t *count)
{
	*count = sizeof(problems) / sizeof(problems[0]);
	return problems;
}

const struct problem_def *problem_find(uint32_t code)
{
	size_t lo = 0, hi = sizeof(problems) / sizeof(problems[0]);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (problems[mid].code == code)
			return &problems[mid];
		if (problems[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void expand(char *out, size_t len, const char *fmt, const struct problem_ctx *p)
{
	size_t o = 0;

	for (const char *f = fmt; *f && o + 1 < len; f++) {
		char tmp[300];

		if (*f != '%' || !f[1]) {
			out[o++] = *f;
			continue;
		}
		f++;
		switch (*f) {
		case 'i': snprintf(tmp, sizeof(tmp), "%u", p->ino); break;
		case 'n': snprintf(tmp, sizeof(tmp), "%u", p->nid); break;
		case 'p': snprintf(tmp, sizeof(tmp), "%u", p->parent); break;
		case 'b': snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)p->blkaddr); break;
		case 's': snprintf(tmp, sizeof(tmp), "%u", p->segno); break;
		case 'N':
			snprintf(tmp, sizeof(tmp), f[-2] == 'x' ? "%llx" : (f[-2] == '0' ? "%llo" : "%llu"),
				 (unsigned long long)p->num);
			break;
		case 'M':
			snprintf(tmp, sizeof(tmp), f[-2] == 'x' ? "%llx" : "%llu",
				 (unsigned long long)p->num2);
			break;
		case 'S':
			/* names may hold anything: show bytes outside printable ASCII escaped */
			{
				size_t t = 0;

				for (const unsigned char *s = (const unsigned char *)(p->str ? p->str : "");
				     *s && t + 5 < sizeof(tmp); s++) {
					if (*s >= 0x20 && *s < 0x7f && *s != '"')
						tmp[t++] = (char)*s;
					else
						t += (size_t)snprintf(tmp + t, sizeof(tmp) - t, "\\x%02x", *s);
				}
				tmp[t] = 0;
			}
			break;
		default: tmp[0] = '%'; tmp[1] = *f; tmp[2] = 0; break;
		}
		for (char *t = tmp; *t && o + 1 < len; t++)
			out[o++] = *t;
	}
	out[o] = 0;
}

static const char *question(enum prompt p)
{
	switch (p) {
	case PROMPT_FIX: return "Fix";
	case PROMPT_CLEAR: return "Clear";
	case PROMPT_RECONNECT: return "Reconnect to lost+found";
	case PROMPT_RECONNECT_HOME: return "Put the name back";
	case PROMPT_REBUILD: return "Rebuild";
	case PROMPT_REMOVE: return "Remove";
	case PROMPT_CREATE: return "Create";
	default: return NULL;
	}
}

static void json_problem(struct fsck_ctx *ctx, uint32_t code, const char *msg, bool fixed)
{
	if (!ctx->json_problems)
		return;
	fprintf(ctx->json_problems, "%s\n    {\"code\": \"0x%06x\", \"message\": \"", ctx->json_first ?
		"" : ",", code);
	for (const char *s = msg; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(ctx->json_problems, "\\%c", *s);
		else
			fputc(*s, ctx->json_problems);
	}
	fprintf(ctx->json_problems, "\", \"fixed\": %s}", fixed ? "true" : "false");
	ctx->json_first = false;
}

static bool ask_user(struct fsck_ctx *ctx, const char *q)
{
	char line[32];

	if (ctx->yes_to_all)
		return true;
	for (;;) {
		fprintf(ctx->out, "%s<y/n/a>? ", q);
		fflush(ctx->out);
		if (!fgets(line, sizeof(line), stdin)) {
			ctx->exit_bits |= FSCK_CANCELED;
			ctx->abort = true;
			return false;
		}
		if (line[0] == 'y' || line[0] == 'Y')
			return true;
		if (line[0] == 'n' || line[0] == 'N')
			return false;
		if (line[0] == 'a' || line[0] == 'A') {
			ctx->yes_to_all = true;
			return true;
		}
	}
}

bool fix_problem(struct fsck_ctx *ctx, uint32_t code, const struct problem_ctx *pctx)
{
	const struct problem_def *pd = problem_find(code);
	const char *q;
	char msg[512];
	bool fix = false;

	if (!pd) {
		fprintf(stderr, "fsck.f2fs: internal error: unknown problem code 0x%06x\n", code);
		ctx->exit_bits |= FSCK_ERROR;
		return false;
	}
	expand(msg, sizeof(msg), pd->msg, pctx);
	ctx->problems++;
	zs_progress_clear(&ctx->prog);   /* the problem's line, not the bar's remains */
	q = question(pd->prompt);
	if ((pd->flags & PR_NOT_A_FIX) || !q) {
		fprintf(ctx->out, "[0x%06x] %s.\n", code, msg);
		if (!(pd->flags & PR_NO_OK))
			ctx->exit_bits |= FSCK_UNCORRECTED;
		if (pd->flags & PR_FATAL)
			ctx->abort = true;
		json_problem(ctx, code, msg, false);
		return false;
	}
	switch (ctx->mode) {
	case MODE_NO:
		fprintf(ctx->out, "[0x%06x] %s. %s? no\n", code, msg, q);
		break;
	case MODE_YES:
		fprintf(ctx->out, "[0x%06x] %s. %s? yes\n", code, msg, q);
		fix = true;
		break;
	case MODE_PREEN:
		if (pd->flags & PR_PREEN_OK) {
			fprintf(ctx->out, "[0x%06x] %s. %s? yes\n", code, msg, q);
			fix = true;
		} else {
			fprintf(ctx->out, "[0x%06x] %s.\n\nUNEXPECTED INCONSISTENCY; RUN fsck.f2fs "
				"MANUALLY (without -a or -p).\n", code, msg);
			ctx->abort = true;
		}
		break;
	case MODE_ASK:
		fprintf(ctx->out, "[0x%06x] %s. ", code, msg);
		fix = ask_user(ctx, q);
		if (ctx->yes_to_all)
			fprintf(ctx->out, "yes\n");
		break;
	}
	if (fix) {
		ctx->fixed++;
		ctx->exit_bits |= FSCK_NONDESTRUCT;
	} else if (!(pd->flags & PR_NO_OK)) {
		ctx->unfixed++;
		ctx->exit_bits |= FSCK_UNCORRECTED;
	}
	if (pd->flags & PR_FATAL)
		ctx->abort = true;
	json_problem(ctx, code, msg, fix);
	return fix;
}
