# lib/write: the one crash-safe commit (commit.c) every writing tool ends in, the
# transaction that queues changes for it (txn*.c), checkpoint and superblock writing,
# mkfs's writer, sload's loader of host trees and the rebuild of the tables from a node
# scan (rebuild.c), with a superblock found again for it (super_find.c).
lib_libzf2fs_la_SOURCES += \
	lib/write/commit.c lib/write/commit_p.h lib/write/cp_write.c lib/write/cp_write_p.h \
	lib/write/txn.c lib/write/txn_p.h lib/write/txn_file.c lib/write/txn_xattr.c \
	lib/write/txn_temp.c lib/write/txn_names.c lib/write/super_write.c \
	lib/write/mkfs_write.c lib/write/mkfs_write_v10.c \
	lib/write/load_tree.c lib/write/load_meta.c lib/write/load_p.h \
	lib/write/rebuild.c \
	lib/write/super_find.c
