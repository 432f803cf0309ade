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
 * lowercase hex of the stored bytes, and path look-ups take that form back.  Their hashes
 * are keyed, so a look-up compares the stored names one by one instead of hashing.
 */
#include "config.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"

#define PATH_MAX_BYTES 4096   /* as zf2fs_path_lookup() */
#define LINKS_MAX 40

bool dump_inode_encrypted(const struct zf2fs_node *n)
{
	return n->i.i_advise & ZF2FS_ADVISE_ENCRYPT;
}

bool dump_dir_encrypted(const struct zf2fs_node *dir)
{
	return ((uint32_t)zf2fs_get(dir->i.i_mode) & 0170000) == 0040000 &&
	       dump_inode_encrypted(dir);
}

bool dump_is_dot(const uint8_t *name, size_t len)
{
	return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

size_t dump_enc_name(const uint8_t *name, size_t len, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	if (len > ZF2FS_NAME_LEN)
		len = ZF2FS_NAME_LEN;
	memcpy(buf, "{enc:", 5);
	n = 5;
	for (size_t i = 0; i < len; i++) {
		buf[n++] = hex[name[i] >> 4];
		buf[n++] = hex[name[i] & 15];
	}
	buf[n++] = '}';
	buf[n] = 0;
	return n;
}

void dump_out_name(struct out *o, const char *key, const uint8_t *name, size_t len, bool enc)
{
	char buf[DUMP_ENC_NAME_MAX];

	if (!enc) {
		out_sn(o, key, name, len);
		return;
	}
	out_sn(o, key, buf, dump_enc_name(name, len, buf));
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
	if (pino == zf2fs_get(n->footer.ino) || pino >= c->info->max_nid)
		return enc;
	p = malloc(sizeof(*p));
	if (!p)
		return enc;
	if (!zf2fs_inode_read(c->vol, pino, p, NULL, why, sizeof(why)))
		enc = dump_dir_encrypted(p);
	free(p);
	return enc;
}

/* ---- path look-up ---------------------------------------------------------------------- */
static int set_why(char *why, size_t whylen, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int set_why(char *why, size_t whylen, int err, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return err;
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* The bytes of "{enc:HEX}" (@len bytes at @s) into @ret: 1, or 0 when @s is not of that
 * form, or -EINVAL when its HEX is not an even number of hex digits naming 1 to
 * ZF2FS_NAME_LEN bytes. */
static int parse_enc(const char *s, size_t len, uint8_t *ret, size_t *ret_len)
{
	size_t n;

	if (len < 6 || memcmp(s, "{enc:", 5) || s[len - 1] != '}')
		return 0;
	s += 5;
	len -= 6;
	if (!len || len % 2 || len / 2 > ZF2FS_NAME_LEN)
		return -EINVAL;
	for (n = 0; n < len / 2; n++) {
		int hi = hexval(s[2 * n]), lo = hexval(s[2 * n + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		ret[n] = (uint8_t)(hi << 4 | lo);
	}
	*ret_len = n;
	return 1;
}

struct match {
	const uint8_t *name;
	size_t len;
	uint32_t ino;
	uint8_t type;
};

static int match_entry(void *arg, const struct zf2fs_dentry_info *d)
{
	struct match *m = arg;

	if (d->name_len != m->len || memcmp(d->name, m->name, m->len))
		return 0;
	m->ino = d->ino;
	m->type = d->type;
	return 1;   /* found: ends the scan */
}

/* Component @name (@len bytes) in encrypted directory @dir, by a scan of every entry. */
static int enc_dir_lookup(struct dump_ctx *c, const struct zf2fs_node *dir, const char *name,
			  size_t len, uint32_t *ret_ino, uint8_t *ret_type, char *why,
			  size_t whylen)
{
	uint32_t dino = (uint32_t)zf2fs_get(dir->footer.ino);
	uint8_t raw[ZF2FS_NAME_LEN];
	struct match m = { .name = (const uint8_t *)name, .len = len };
	int r;

	if (!dump_is_dot((const uint8_t *)name, len)) {
		r = parse_enc(name, len, raw, &m.len);
		if (r == 0)
			return set_why(why, whylen, -EOPNOTSUPP, "directory %u is encrypted: name its "
				       "entries as {enc:HEX}, as --ls shows them", dino);
		if (r < 0)
			return set_why(why, whylen, -EINVAL, "\"%.*s\" in directory %u: not "
				       "{enc:HEX} (an even number of hex digits, 1 to %d bytes)",
				       (int)len, name, dino, ZF2FS_NAME_LEN);
		m.name = raw;
	}
	r = zf2fs_dir_iterate(c->vol, dir, match_entry, NULL, &m);
	if (r == 1) {
		*ret_ino = m.ino;
		*ret_type = m.type;
		return 0;
	}
	if (r < 0)
		return set_why(why, whylen, r, "%s: while reading directory %u", strerror(
			       r == -ZF2FS_EFSCORRUPTED ? EUCLEAN : -r), dino);
	return set_why(why, whylen, -ENOENT, "no entry %.*s in directory %u", (int)len, name,
		       dino);
}

/* The target of symlink @ino into @target (PATH_MAX_BYTES): its length, or an error. */
static int link_target(struct dump_ctx *c, uint32_t ino, struct zf2fs_node *node, char *target,
		       size_t *ret_len, char *why, size_t whylen)
{
	int err = zf2fs_inode_read(c->vol, ino, node, NULL, why, whylen);

	if (err)
		return err;
	if (dump_inode_encrypted(node))
		return set_why(why, whylen, -EOPNOTSUPP, "symlink %u is encrypted: its target "
			       "cannot be followed without the key", ino);
	err = zf2fs_file_read_buf(c->vol, node, target, PATH_MAX_BYTES - 1, ret_len, why,
				  whylen);
	if (err == -EFBIG)
		err = set_why(why, whylen, -ENAMETOOLONG, "symlink %u is too long", ino);
	if (!err)
		target[*ret_len] = 0;
	return err;
}

/* zf2fs_path_lookup()'s walk, step for step, with encrypted directories added. */
static int walk(struct dump_ctx *c, const char *path, int flags, uint32_t *ret_ino, char *why,
		size_t whylen)
{
	uint32_t root = (uint32_t)zf2fs_get(zf2fs_vol_super(c->vol)->root_ino), cur = root;
	struct zf2fs_node *node = malloc(sizeof(*node));
	char *rest = malloc(2 * PATH_MAX_BYTES + 2), *tmp = malloc(2 * PATH_MAX_BYTES + 2);
	char *target = malloc(PATH_MAX_BYTES);
	int links = 0, err = 0;
	size_t pos = 0;

	if (!node || !rest || !tmp || !target) {
		err = -ENOMEM;
		goto out;
	}
	if (strlen(path) > PATH_MAX_BYTES) {
		err = set_why(why, whylen, -ENAMETOOLONG, "path is longer than %d bytes",
			      PATH_MAX_BYTES);
		goto out;
	}
	strcpy(rest, path);
	for (;;) {
		size_t start, len, tl, rl;
		uint32_t next;
		uint8_t type;
		bool last = true;
		char *swap;

		while (rest[pos] == '/')
			pos++;
		if (!rest[pos])
			break;
		start = pos;
		while (rest[pos] && rest[pos] != '/')
			pos++;
		len = pos - start;
		for (size_t k = pos; rest[k]; k++)
			if (rest[k] != '/') {
				last = false;
				break;
			}
		err = zf2fs_inode_read(c->vol, cur, node, NULL, why, whylen);
		if (err)
			goto out;
		if (dump_dir_encrypted(node))
			err = enc_dir_lookup(c, node, rest + start, len, &next, &type, why, whylen);
		else
			err = zf2fs_dir_lookup(c->vol, node, rest + start, len, &next, &type, why,
					       whylen);
		if (err)
			goto out;
		if (type == ZF2FS_FT_SYMLINK && (!last || (flags & ZF2FS_LOOKUP_FOLLOW))) {
			if (++links > LINKS_MAX) {
				err = set_why(why, whylen, -ELOOP, "more than %d symlinks in the path",
					      LINKS_MAX);
				goto out;
			}
			err = link_target(c, next, node, target, &tl, why, whylen);
			if (err)
				goto out;
			tl = strlen(target);
			rl = strlen(rest + pos);
			if (tl + rl + 2 > 2 * PATH_MAX_BYTES) {
				err = set_why(why, whylen, -ENAMETOOLONG, "path grows too long "
					      "through symlink %u", next);
				goto out;
			}
			/* splice: target, then what is left of the path */
			memcpy(tmp, target, tl);
			tmp[tl] = '/';
			memcpy(tmp + tl + 1, rest + pos, rl + 1);
			swap = rest;
			rest = tmp;
			tmp = swap;
			pos = 0;
			if (target[0] == '/')
				cur = root;
			continue;
		}
		if (!last && type != ZF2FS_FT_DIR) {
			err = set_why(why, whylen, -ENOTDIR, "\"%.*s\" is not a directory", (int)len,
				      rest + start);
			goto out;
		}
		cur = next;
	}
	*ret_ino = cur;
out:
	free(node);
	free(rest);
	free(tmp);
	free(target);
	return err;
}

int dump_lookup(struct dump_ctx *c, const char *path, int flags, uint32_t *ret_ino, char *why,
		size_t whylen)
{
	int err = zf2fs_path_lookup(c->vol, path, flags, ret_ino, why, whylen);

	/* the library stops at an encrypted directory (or symlink) with -EOPNOTSUPP; paths
	 * that meet none keep its answers and messages exactly */
	if (err != -EOPNOTSUPP)
		return err;
	return walk(c, path, flags, ret_ino, why, whylen);
}
