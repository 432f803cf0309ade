// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * txn_names.c - the names a transaction adds to or finds in a directory: in a casefolded
 * directory the key hashed and compared is the folded form (lib/format/casefold.c), and
 * a volume whose encoding is strict refuses a name that has none.
 */
#include "config.h"
#include <errno.h>
#include <string.h>

#include "zf2fs/zf2fs.h"
#include "zf2fs/endian.h"
#include "zf2fs/access.h"
#include "zf2fs/txn_file.h"
#include "format/casefold_p.h"
#include "write/txn_p.h"
#include "read/volume_p.h"

#define ENC_STRICT 0x1u   /* s_encoding_flags: refuse names that are not valid UTF-8 */

/* Whether directory node @dn folds its names. */
static bool casefolded(const struct zf2fs_node *dn)
{
	return zf2fs_get(dn->i.i_flags) & ZF2FS_CASEFOLD_FL;
}

int txn_name_key(const struct zf2fs_txn *t, const struct zf2fs_node *dn, const char *name,
		 size_t len, uint8_t *key, size_t *ret_len)
{
	bool folded;
	int err;

	if (!casefolded(dn) || (len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		goto as_is;
	err = casefold_key(name, len, key, ret_len, &folded);
	if (!err && !folded && (zf2fs_get(t->vol->sb.s_encoding_flags) & ENC_STRICT))
		return -EINVAL;
	return err;
as_is:
	memcpy(key, name, len);
	*ret_len = len;
	return 0;
}

int txn_name_hash(const struct zf2fs_txn *t, const struct zf2fs_node *dn, const char *name,
		  size_t len, uint32_t *ret)
{
	uint8_t key[ZF2FS_NAME_LEN];
	size_t klen;
	int err = txn_name_key(t, dn, name, len, key, &klen);

	if (!err)
		*ret = zf2fs_dentry_hash(key, klen);
	return err;
}

bool txn_slot_matches(const struct zf2fs_txn *t, const struct zf2fs_node *dn,
		      const struct zf2fs_dentry_view *v, uint32_t i, const char *name,
		      size_t len, uint32_t hash)
{
	uint8_t ka[ZF2FS_NAME_LEN], kb[ZF2FS_NAME_LEN];
	uint32_t elen;
	size_t la, lb;

	if (!casefolded(dn) || !zf2fs_dentry_slot_used(v, i) ||
	    zf2fs_get(v->dentry[i].hash_code) != hash)
		return false;
	elen = (uint32_t)zf2fs_get(v->dentry[i].name_len);
	if (!elen || elen > ZF2FS_NAME_LEN || i + zf2fs_dentry_slots(elen) > v->nr)
		return false;
	if (txn_name_key(t, dn, (const char *)v->filename[i], elen, ka, &la) ||
	    txn_name_key(t, dn, name, len, kb, &lb))
		return false;
	return la == lb && !memcmp(ka, kb, la);
}

int txn_casefold_ok(const struct zf2fs_txn *t, const struct zf2fs_node *dn)
{
	if (!casefolded(dn))
		return 0;
	/* a casefolded directory on a volume without the feature, or with an encoding we
	 * do not know, or in a build without the tables: not ours to change */
	if (!(t->vi->features & ZF2FS_FEAT_CASEFOLD) || zf2fs_get(t->vol->sb.s_encoding) != 1 ||
	    !zf2fs_have_casefold_support())
		return -EOPNOTSUPP;
	return 0;
}
