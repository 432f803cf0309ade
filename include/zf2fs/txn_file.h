/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * txn_file.h - more changes a transaction (txn.h) can queue: inodes of every type with
 * their owners, modes and times, inline data, and file data block by block (holes kept
 * as holes, direct, indirect and double indirect nodes allocated as the blocks need
 * them).  Used by sload.f2fs and mkfs.f2fs --root-dir.
 */
#ifndef ZF2FS_TXN_FILE_H
#define ZF2FS_TXN_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/geometry.h"
#include "zf2fs/txn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an inode carries besides its data. */
struct zf2fs_txn_attr {
	uint32_t mode;                    /* file type and permission bits (07777) */
	uint32_t uid, gid;
	uint64_t atime, mtime, ctime;     /* seconds */
	uint32_t atime_nsec, mtime_nsec, ctime_nsec;
	uint32_t rdev_major, rdev_minor;  /* character and block devices */
	uint32_t projid;                  /* kept where the volume has project_quota and
					   * the inode's extra attributes hold it */
};

/*
 * Queue a new inode named @name in directory @dir with the type, permissions, owner and
 * times of @a: a directory (with "." and ".."), an empty regular file or symlink (marked
 * for inline data, as the kernel creates them), a fifo, socket or device.  @ret_ino (may
 * be NULL) gets the inode number.  Returns 0; -EINVAL for an unknown type; the errors of
 * zf2fs_txn_create().
 */
ZF2FS_EXPORT int zf2fs_txn_mknod(struct zf2fs_txn *txn, uint32_t dir, const char *name,
				 const struct zf2fs_txn_attr *a, uint32_t *ret_ino);


/*
 * The most bytes regular file or symlink @ino can keep inline in its inode (0 when the
 * inode cannot hold inline data), in @ret.  Returns 0; -EINVAL for other types.
 */
ZF2FS_EXPORT int zf2fs_txn_inline_max(struct zf2fs_txn *txn, uint32_t ino, size_t *ret);

/*
 * Store @len bytes of @data inline in the new regular file or symlink @ino, which gets
 * size @len.  Returns 0; -EFBIG when they do not fit (zf2fs_txn_inline_max()); -EBUSY when
 * the file has data blocks; -EINVAL for other types or an inode not created by this
 * transaction.
 */
ZF2FS_EXPORT int zf2fs_txn_write_inline(struct zf2fs_txn *txn, uint32_t ino, const void *data,
					size_t len);

/*
 * Queue a copy of the block @buf (one block of the volume's size, zf2fs_vol_geom) as
 * block @fofs of regular file or symlink @ino: one created by this transaction (its
 * inline data goes: the file becomes a block-mapped one), or one on disk without inline
 * data whose block @fofs is a hole (so a large file can be written over several
 * commits).  The nodes that address the
 * block are allocated on first use; blocks never written stay holes.  Set the size with
 * zf2fs_txn_set_size().  Returns 0; -EEXIST when block @fofs is not a hole; -EFBIG past
 * what double indirect nodes address; -EINVAL for other types or an inline file not
 * created by this transaction; -ENOSPC without a free nid; -ENOMEM.
 */
ZF2FS_EXPORT int zf2fs_txn_write_block(struct zf2fs_txn *txn, uint32_t ino, uint64_t fofs,
				       const void *buf);

/*
 * Set the size of regular file or symlink @ino (blocks beyond it are not dropped), with
 * the same rules as zf2fs_txn_write_block().  Returns 0; -EINVAL as that function.
 */
ZF2FS_EXPORT int zf2fs_txn_set_size(struct zf2fs_txn *txn, uint32_t ino, uint64_t size);

#define ZF2FS_COMPRESS_LZ4 1
#define ZF2FS_COMPRESS_HEADER 24u   /* clen, chksum, 4 reserved words, then the data */



/* One extended attribute: @index is the on-disk name index (ZF2FS_XATTR_INDEX_*), @name
 * the name without its prefix ("user." and so on). */
struct zf2fs_txn_xattr {
	uint8_t index;
	const char *name;
	size_t name_len;
	const void *value;
	size_t value_len;
};
#define ZF2FS_XATTR_INDEX_USER     1
#define ZF2FS_XATTR_INDEX_TRUSTED  4
#define ZF2FS_XATTR_INDEX_SECURITY 6

/* Bytes @n attributes take in the on-disk xattr area (header and terminator included):
 * zf2fs_txn_set_xattrs() takes at most zf2fs_xattr_max_bytes() of the volume's geometry
 * (zf2fs_vol_geom), ZF2FS_XATTR_MAX_BYTES with 4 KiB blocks. */
ZF2FS_EXPORT size_t zf2fs_xattr_bytes(const struct zf2fs_txn_xattr *x, size_t n);
#define ZF2FS_XATTR_MAX_BYTES (ZF2FS_INLINE_XATTR_ADDRS * 4u + ZF2FS_BLKSIZE - 24u)

/* The most the xattr area holds on a volume of geometry @g: the inode's inline xattr words
 * (the kernel's default, ZF2FS_INLINE_XATTR_ADDRS) and an xattr node's block but its
 * footer. */
static inline size_t zf2fs_xattr_max_bytes(const struct zf2fs_geom *g)
{
	return ZF2FS_INLINE_XATTR_ADDRS * 4u + g->xattr_block_bytes;
}

/*
 * Give inode @ino, created by this transaction and still without data, the @n extended
 * attributes @x, in that order: the inode gets an inline xattr area (the kernel's default
 * of 50 words), and what does not fit there goes to an xattr node.  An inode on disk
 * without xattrs and without inline data or dentries takes them too: in its inline area
 * when it has an empty one, else all in an xattr node (at most one node's worth).
 * Returns 0; -E2BIG when they need more than zf2fs_xattr_max_bytes() (or a node, see above)
 * or a name or value is too long for the format; -EBUSY when the inode has data or
 * xattrs already; -ENOSPC without a free nid; -ENOMEM.
 */
ZF2FS_EXPORT int zf2fs_txn_set_xattrs(struct zf2fs_txn *txn, uint32_t ino,
				      const struct zf2fs_txn_xattr *x, size_t n);

/*
 * The folded form of the name @name (@len bytes) in a casefolded directory, as Linux's
 * utf8-12.1 casefolding gives it (full case folding, canonical decomposition, the
 * default-ignorable code points left out), into @out (@cap bytes), its length in
 * @ret_len.  Returns 0; -EINVAL when @name is not valid UTF-8; -ENAMETOOLONG when the
 * folded form needs more than @cap bytes (the kernel then hashes the name as it is);
 * -EOPNOTSUPP in builds without libunistring (zf2fs_have_casefold_support()); -ENOMEM.
 */
ZF2FS_EXPORT int zf2fs_casefold(const void *name, size_t len, uint8_t *out, size_t cap,
				size_t *ret_len);
ZF2FS_EXPORT bool zf2fs_have_casefold_support(void);

/*
 * The dentry hash of @name (@len bytes) in a casefolded directory, as Linux 6.1 computes
 * it (f2fs_hash_filename): the hash of the folded form, or of the name's own bytes when
 * it has none (not valid UTF-8, or a folded form over ZF2FS_NAME_LEN bytes); 0 for "."
 * and "..".  Into *@ret_hash.  Returns 0; -EOPNOTSUPP in builds without libunistring;
 * -ENAMETOOLONG for a name over ZF2FS_NAME_LEN bytes; -ENOMEM.
 */
ZF2FS_EXPORT int zf2fs_casefold_hash(const void *name, size_t len, uint32_t *ret_hash);



#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_TXN_FILE_H */
