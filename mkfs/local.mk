# mkfs.f2fs
sbin_PROGRAMS += mkfs/mkfs.f2fs
mkfs_mkfs_f2fs_SOURCES = mkfs/mkfs.c mkfs/options.c mkfs/sparse_out.c mkfs/mkfs.h
mkfs_mkfs_f2fs_CFLAGS = $(AM_CFLAGS) $(UUID_CFLAGS)
mkfs_mkfs_f2fs_LDADD = $(HELPER_LIBS) $(UUID_LIBS)
