// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * casefold.c - names in casefolded directories (the casefold feature, encoding utf8).
 *
 * The kernel hashes a name in a casefolded directory by its folded form, and two names
 * with the same folded form are the same name.  The folded form (Linux 6.1's utf8-12.1
 * "nfdicf") is the Unicode full case folding in canonical decomposition (NFD), with the
 * default-ignorable code points left out; at most 255 bytes.  A name that is not valid
 * UTF-8, or whose folded form is longer, has none: the kernel hashes its bytes as they
 * are, or refuses it when the volume's encoding is strict.  The tables are libunistring's
 * (a later Unicode than 12.1: names with characters assigned since may fold otherwise).
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_LIBUNISTRING
#include <unicase.h>
#include <unictype.h>
#include <uniconv.h>
#include <unistr.h>
#endif

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "format/casefold_p.h"

ZF2FS_EXPORT bool zf2fs_have_casefold_support(void)
{
#ifdef HAVE_LIBUNISTRING
	return true;
#else
	return false;
#endif
}

ZF2FS_EXPORT int zf2fs_casefold(const void *name, size_t len, uint8_t *out, size_t cap,
				size_t *ret_len)
{
#ifdef HAVE_LIBUNISTRING
	uint32_t *u = NULL, *f = NULL;
	uint8_t *o = NULL;
	size_t n = 0, fn = 0, on = 0, k = 0;
	int err = 0;

	if (u8_check(name, len))
		return -EINVAL;
	u = u8_to_u32(name, len, NULL, &n);
	if (!u)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!uc_is_property_default_ignorable_code_point(u[i]))
			u[k++] = u[i];
	f = u32_casefold(u, k, NULL, UNINORM_NFD, NULL, &fn);
	if (f)
		o = u32_to_u8(f, fn, NULL, &on);
	if (!f || !o)
		err = -ENOMEM;
	else if (on > cap)
		err = -ENAMETOOLONG;
	else
		memcpy(out, o, on);
	*ret_len = err ? 0 : on;
	free(u);
	free(f);
	free(o);
	return err;
#else
	(void)name, (void)len, (void)out, (void)cap;
	*ret_len = 0;
	return -EOPNOTSUPP;
#endif
}

int casefold_key(const void *name, size_t len, uint8_t *key, size_t *ret_len,
		    bool *ret_folded)
{
	int err = zf2fs_casefold(name, len, key, ZF2FS_NAME_LEN, ret_len);

	*ret_folded = !err;
	if (err == -EINVAL || err == -ENAMETOOLONG) {
		if (len > ZF2FS_NAME_LEN)
			return -ENAMETOOLONG;
		memcpy(key, name, len);
		*ret_len = len;
		return 0;
	}
	return err;
}

ZF2FS_EXPORT int zf2fs_casefold_hash(const void *name, size_t len, uint32_t *ret_hash)
{
	uint8_t key[ZF2FS_NAME_LEN];
	size_t klen;
	bool folded;
	int err;

	if ((len == 1 && ((const char *)name)[0] == '.') ||
	    (len == 2 && !memcmp(name, "..", 2))) {
		*ret_hash = 0;
		return 0;
	}
	err = casefold_key(name, len, key, &klen, &folded);
	if (!err)
		*ret_hash = zf2fs_dentry_hash(key, klen);
	return err;
}
