/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load.h - copy a directory tree of the host into a volume (sload.f2fs, mkfs.f2fs
 * --root-dir), through transactions (txn.h, txn_file.h).
 */
#ifndef ZF2FS_LOAD_H
#define ZF2FS_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

#ifdef __cplusplus
extern "C" {
#endif

struct zf2fs_load_opts {
	const char *source;      /* host directory whose contents are copied */
	const char *target;      /* existing directory of the volume ("/" when NULL) */
	bool keep_owner;         /* the source's uid and gid; otherwise root owns everything */
	bool fixed_time;         /* every inode's three times are @time (seconds)... */
	uint64_t time;           /* ...otherwise each takes its source's modification time */
	bool check_only;         /* walk and check the source only; @paths is not opened */
	/* Android build inputs (all may be NULL): */
	const char *mount_point; /* the volume's path in the running system, the prefix of
				  * the paths looked up in @fs_config and @file_contexts
				  * ("/" when NULL) */
	const char *fs_config;   /* "path uid gid mode [capabilities=N]" per path */
	const char *file_contexts;  /* SELinux labels (needs libselinux) */
	const char *product_out; /* the directory relative @fs_config and @file_contexts
				  * names are under */
	bool compress;           /* regular files in compressed clusters (the volume's
				  * compression feature; needs the algorithm's library) */
	uint8_t log_cluster;     /* ...of 2^@log_cluster blocks (2..8) */
	/* with @compress (zero values keep f2fs-tools' defaults): */
	const char *algorithm;   /* "lzo", "lz4", "zstd" or "lzo-rle" (zf2fs/compress.h; lzo-rle
				  * is written as plain LZO1X-1); NULL: "lz4" */
	uint32_t min_saved;      /* a cluster is stored compressed only when it saves at
				  * least this many blocks (1..2^@log_cluster - 1; 0: 1) */
	bool release;            /* every compressed file released as
				  * F2FS_IOC_RELEASE_COMPRESS_BLOCKS leaves it (read only) */
	const char *const *exts; /* file name extensions (after the last '.'; "" for none),
				  * @n_exts of them: */
	size_t n_exts;
	bool exts_only;          /* compress only files with one of them (-i); otherwise
				  * every file but those (-x) */
	/* The load is one transaction, its blocks flushed to free sections (out of memory)
	 * whenever this many blocks or inodes are queued (0: 16384 blocks, 4096 inodes);
	 * its one checkpoint is written at the end (tests make these small): */
	uint32_t flush_blocks, flush_inodes;
};

struct zf2fs_load_stats {
	uint64_t inodes, links, data_blocks, commits;
	uint64_t flushes;        /* zf2fs_txn_flush calls before the one commit */
};

/*
 * Copy the contents of @o->source into directory @o->target of the volume on @paths (@n
 * devices, as zf2fs_vol_open()): regular files (holes and all-zero blocks stay holes,
 * small files inline), directories, hard links within the tree, symlinks, fifos,
 * sockets and devices, with their permission bits (setuid, setgid, sticky too), owners
 * and times.  The source is walked and checked first, entries sorted by name, so that
 * nothing is written when a name is too long or the tree does not fit, and the same tree
 * gives the same volume.  The target directory takes the source directory's permissions,
 * owner and times.  The whole load is one transaction with one checkpoint, written
 * last: its blocks are flushed to free sections on the way (memory stays bounded), so an
 * interruption at any write leaves the old volume or the complete new tree.
 * With @o->check_only the source is only walked and checked (names, xattrs as a volume
 * of 4 KiB blocks holds them, readable directories), so that a formatter can refuse a
 * tree before it writes anything.  Volumes of 4 KiB and of 16 KiB blocks are loaded; an
 * entry's xattrs are checked against the volume's room (zf2fs_xattr_max_bytes) before
 * anything is written (-E2BIG).
 * With @o->compress, regular files that @o->exts selects go in compressed clusters
 * (zf2fs/compress.h); a volume without the compression feature, an algorithm this
 * build lacks (-EOPNOTSUPP) and bad compression options (-EINVAL) are refused before
 * anything is written.
 * Errors are logged through @log naming the path; returns 0; -ENAMETOOLONG; -ENOSPC
 * (nothing written); -EEXIST when a name is already in the volume; -EFBIG; read errors
 * of the source (as negative errno) and the errors of the transaction.
 */
ZF2FS_EXPORT int zf2fs_load_tree(const char *const *paths, unsigned n,
				 const struct zf2fs_load_opts *o, const struct zf2fs_log *log,
				 struct zf2fs_load_stats *ret_stats);

/* Whether this build compresses LZ4 files (liblz4); zf2fs/compress.h for the others. */
ZF2FS_EXPORT bool zf2fs_have_lz4_support(void);

/* Whether this build reads file_contexts (libselinux). */
ZF2FS_EXPORT bool zf2fs_have_selinux_support(void);

/* The same on devices the caller opened for writing (every device of the volume, as
 * zf2fs_vol_open_devs(); they stay the caller's). */
ZF2FS_EXPORT int zf2fs_load_tree_devs(struct zf2fs_dev *const *devs, unsigned n,
				      const struct zf2fs_load_opts *o,
				      const struct zf2fs_log *log,
				      struct zf2fs_load_stats *ret_stats);

#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_LOAD_H */
