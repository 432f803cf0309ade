/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file.h - libzf2fs: read files of an open volume by inode number or by path.
 *
 * Everything here reads; nothing writes.  Conventions as in zf2fs.h: 0 or a negative errno,
 * -ZF2FS_EFSCORRUPTED when the volume contradicts itself, ret_* out-parameters, and an
 * optional @why buffer that receives a one-line reason on failure.
 */
#ifndef ZF2FS_FILE_H
#define ZF2FS_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "zf2fs/zf2fs.h"

#ifdef __cplusplus
extern "C" {
#endif


/*
 * Read inode @ino into @buf (one node block: the volume's block size, zf2fs_vol_geom;
 * ZF2FS_BLKSIZE_MAX bytes hold any): the node must carry nid @ino, inode
 * @ino and node offset 0.  @ret_blkaddr (may be NULL) gets its address.
 * Returns 0; -ENOENT when @ino has no NAT entry; -ZF2FS_EFSCORRUPTED when the block is not
 * that inode; -EIO and friends from the device.
 */
ZF2FS_EXPORT int zf2fs_inode_read(struct zf2fs_vol *vol, uint32_t ino, struct zf2fs_node *buf,
				  uint32_t *ret_blkaddr, char *why, size_t whylen);

/*
 * Map file block @fofs of @inode (a node block read with zf2fs_inode_read) to its address,
 * following direct, indirect and double-indirect nodes and checking each node's footer.
 * @ret_blkaddr gets ZF2FS_NULL_ADDR for a hole, ZF2FS_NEW_ADDR for a reserved block that
 * was never written.  Inline files have no blocks: -EINVAL.  -ERANGE when @fofs is beyond
 * what the tree can address; -ZF2FS_EFSCORRUPTED for a node that is not what its parent
 * says.
 */
ZF2FS_EXPORT int zf2fs_file_bmap(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				 uint64_t fofs, uint32_t *ret_blkaddr, char *why, size_t whylen);

/*
 * Sink for zf2fs_file_read(): called with consecutive pieces of the file in order, from
 * offset 0 to i_size.  @data is NULL for a hole (@len bytes that read as zeros).  Return 0
 * to continue, anything else to stop (that value is returned).
 */
typedef int (*zf2fs_file_sink)(void *arg, uint64_t off, const void *data, size_t len);

/*
 * Read the whole contents of @inode: regular files and symlinks, in blocks, inline or
 * sparse.  Holes, unwritten (reserved) blocks and the part of i_size past the last block
 * reach @sink as NULL pieces; blocks past i_size are ignored.
 * Compressed files are decompressed cluster by cluster, as Linux reads them.
 * Returns 0; -EOPNOTSUPP for encrypted files (their bytes cannot be produced without the
 * key) and compressed ones of an algorithm this build lacks; -ZF2FS_EFSCORRUPTED for a
 * broken block tree, a data address outside the main area or a cluster that does not
 * decompress; the sink's nonzero value.
 */
ZF2FS_EXPORT int zf2fs_file_read(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				 zf2fs_file_sink sink, void *arg, char *why, size_t whylen);

/*
 * zf2fs_file_read() into @buf, which holds @cap bytes (holes read as zeros); @ret_len gets
 * the bytes filled, the file's length on success.
 * Returns 0; -EFBIG when the file holds more than @cap bytes; errors of zf2fs_file_read().
 */
ZF2FS_EXPORT int zf2fs_file_read_buf(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				     void *buf, size_t cap, size_t *ret_len, char *why,
				     size_t whylen);

/*
 * A name of an encrypted directory (ciphertext: any bytes) as "{enc:HEX}", the lowercase
 * hex of its @len stored bytes (at most ZF2FS_NAME_LEN are taken), into @buf of
 * ZF2FS_ENC_NAME_MAX bytes; the form zf2fs_dir_lookup() takes back.  Returns its length.
 */
#define ZF2FS_ENC_NAME_MAX (sizeof("{enc:}") + 2 * ZF2FS_NAME_LEN)   /* with the NUL */
ZF2FS_EXPORT size_t zf2fs_enc_name(const uint8_t *name, size_t len, char *buf);

/*
 * Look @name up in directory @dir the way the kernel does: the inline dentry area, or the
 * hash buckets of each level up to i_current_depth (every bucket of a level for casefolded
 * directories, whose names are compared byte for byte here).  In an encrypted directory,
 * whose names are ciphertext, a name other than "." and ".." is given as "{enc:HEX}", the
 * hex of its stored bytes.  @ret_type (may be NULL) gets the entry's ZF2FS_FT_* type.
 * Returns 0; -ENOENT when there is no such entry; -ENOTDIR when @dir is not a directory;
 * -EOPNOTSUPP for a name in an encrypted directory not in the {enc:HEX} form, -EINVAL for
 * a malformed one.
 */
ZF2FS_EXPORT int zf2fs_dir_lookup(struct zf2fs_vol *vol, const struct zf2fs_node *dir,
				  const char *name, size_t len, uint32_t *ret_ino,
				  uint8_t *ret_type, char *why, size_t whylen);

#define ZF2FS_LOOKUP_FOLLOW 0x1   /* also follow a symlink in the last component */

/*
 * Resolve @path from the root directory ('/' separated; a leading '/' is optional, "" and
 * "/" name the root).  "." and ".." are looked up as stored entries.  Symlinks in the
 * middle of the path are followed (absolute targets from the volume's root, relative ones
 * from their directory), at most 40 of them (-ELOOP).
 * Returns 0 with the inode number in @ret_ino; -ENOENT, -ENOTDIR, -ENAMETOOLONG, -ELOOP as
 * a path walk would; errors of zf2fs_dir_lookup() and zf2fs_inode_read().
 */
ZF2FS_EXPORT int zf2fs_path_lookup(struct zf2fs_vol *vol, const char *path, int flags,
				   uint32_t *ret_ino, char *why, size_t whylen);

/* Where a file's blocks lie: see zf2fs_file_extents(). */
struct zf2fs_file_extents {
	uint64_t blocks;        /* written blocks in the main area */
	uint64_t extents;       /* runs of consecutive file blocks at consecutive addresses */
	uint64_t longest;       /* blocks in the longest run */
	uint64_t reserved;      /* blocks reserved but never written (NEW_ADDR) */
	uint64_t outside;       /* addresses outside the main area (damage; not counted) */
	bool damaged;           /* a node of the block tree could not be walked */
};

/*
 * Count the extents of @inode (a node block read with zf2fs_inode_read): an extent is a
 * run of consecutive file blocks stored at consecutive block addresses; holes, reserved
 * blocks and compressed-cluster markers end a run.  Inline files have none.  A damaged
 * node is skipped and reported in @ret->damaged.
 * Returns 0; -ZF2FS_EFSCORRUPTED when the inode's geometry is impossible; device errors.
 */
ZF2FS_EXPORT int zf2fs_file_extents(struct zf2fs_vol *vol, const struct zf2fs_node *inode,
				    struct zf2fs_file_extents *ret);

/*
 * The file block offset of slot @ofs_in_node of a node with footer offset @node_ofs (0 for
 * the inode itself; slots count from the first address, after any extra attributes), given
 * the geometry of the file's inode.
 */
ZF2FS_EXPORT uint64_t zf2fs_node_fofs(const struct zf2fs_inode_geom *g, uint32_t node_ofs,
				      uint32_t ofs_in_node);
/* The same on a volume of geometry @bg (zf2fs_vol_geom); the one above is this with
 * zf2fs_geom_4k(). */
struct zf2fs_geom;
ZF2FS_EXPORT uint64_t zf2fs_node_fofs2(const struct zf2fs_geom *bg,
				       const struct zf2fs_inode_geom *g, uint32_t node_ofs,
				       uint32_t ofs_in_node);

#ifdef __cplusplus
}
#endif
#endif /* ZF2FS_FILE_H */
