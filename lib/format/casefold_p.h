/* SPDX-License-Identifier: GPL-2.0-or-later */
/* casefold_p.h - the key of a name in a casefolded directory (lib/format/casefold.c). */
#ifndef ZF2FS_CASEFOLD_P_H
#define ZF2FS_CASEFOLD_P_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The bytes Linux hashes and compares for @name in a casefolded directory: its folded
 * form, or, when it has none (not UTF-8, or folding longer than a name may be), the name
 * as it is; *@ret_folded says which.  @key holds ZF2FS_NAME_LEN bytes.
 * Errors: -ENAMETOOLONG (a name longer than a name may be), -EOPNOTSUPP, -ENOMEM. */
int casefold_key(const void *name, size_t len, uint8_t *key, size_t *ret_len, bool *ret_folded);

#endif
