// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump_enc.c - dump.f2fs and fscrypt's encrypted directories: how their names are shown
 * and how a path through them is looked up.
 *
 * An inode is encrypted when i_advise carries ZF2FS_ADVISE_ENCRYPT.  The names stored in
 * an encrypted directory, all but "." and "..", are ciphertext: any bytes (not UTF-8,
 * '/' and NUL included) of their stored length, and the kernel puts the same bytes in the
 * i_name of the inodes it creates there.  Printed as they are they would garble text
 * output and could never be typed back, so every view shows them as "{enc:HEX}", the
 * lowercase hex of the stored bytes, which path look-ups (the library's) take back.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"

bool dump_inode_encrypted(const struct zf2fs_node *n)
{
	return n->i.i_advise & ZF2FS_ADVISE_ENCRYPT;
}

bool dump_dir_encrypted(const struct zf2fs_node *dir)
{
	return zf2fs_inode_type(&dir->i) == ZF2FS_S_IFDIR &&
	       dump_inode_encrypted(dir);
}

bool dump_is_dot(const uint8_t *name, size_t len)
{
	return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

void dump_out_name(struct out *o, const char *key, const uint8_t *name, size_t len, bool enc)
{
	char buf[ZF2FS_ENC_NAME_MAX];

	if (!enc) {
		out_sn(o, key, name, len);
		return;
	}
	out_sn(o, key, buf, zf2fs_enc_name(name, len, buf));
}

size_t dump_host_name(const char *s, size_t len, char *buf)
{
	const size_t keep = 2 * DUMP_HOST_NAME_KEEP;

	if (len <= DUMP_HOST_NAME_MAX || len < sizeof("{enc:}") - 1 + 2 * keep) {
		memmove(buf, s, len);
		buf[len] = 0;
		return len;
	}
	/* only the {enc:HEX} form of a name over 124 bytes is this long; its ends tell the
	 * kernel's ciphertexts apart (CBC carries a difference to the end, wide-block modes
	 * to every byte), and a hostile image's lookalikes meet O_EXCL, never each other */
	memmove(buf, s, 5 + keep);
	memcpy(buf + 5 + keep, "..", 2);
	memmove(buf + 7 + keep, s + len - 1 - keep, keep + 1);
	buf[8 + 2 * keep] = 0;
	return 8 + 2 * keep;
}

bool dump_iname_encrypted(struct dump_ctx *c, const struct zf2fs_node *n)
{
	uint32_t pino = (uint32_t)zf2fs_get(n->i.i_pino);
	struct zf2fs_node *p;
	bool enc = dump_inode_encrypted(n);
	char why[256];

	/* an unreadable parent leaves the inode's own flag: fscrypt encrypts every directory,
	 * file and symlink made in an encrypted directory, so that is the best guess left */
	if (pino == zf2fs_get(zf2fs_node_footer(c->g, n)->ino) || pino >= c->info->max_nid)
		return enc;
	p = malloc(ZF2FS_BLKSIZE_MAX);
	if (!p)
		return enc;
	if (!zf2fs_inode_read(c->vol, pino, p, NULL, why, sizeof(why)))
		enc = dump_dir_encrypted(p);
	free(p);
	return enc;
}
