# libzf2fs: the on-disk format, devices and layout maths.
lib_LTLIBRARIES += lib/libzf2fs.la
lib_libzf2fs_la_SOURCES = \
	lib/crc32.c lib/hash.c lib/log.c lib/layout.c lib/layout_json.c \
	lib/features.c lib/device.c lib/device_probe.c lib/device_p.h lib/mkfs_write.c \
	lib/super.c lib/checkpoint.c lib/volume.c lib/volume_p.h lib/node.c lib/dir.c lib/why.c lib/why_p.h lib/cli.c \
	lib/quota.c lib/quota_read.c lib/vol_where.c
lib_libzf2fs_la_CPPFLAGS = $(AM_CPPFLAGS) -DZF2FS_BUILDING_LIB
lib_libzf2fs_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden $(UUID_CFLAGS) $(BLKID_CFLAGS) $(LIBZBD_CFLAGS)
lib_libzf2fs_la_LIBADD = $(UUID_LIBS) $(BLKID_LIBS) $(LIBZBD_LIBS) -lpthread
lib_libzf2fs_la_LDFLAGS = $(AM_LDFLAGS) -version-info $(LIBZF2FS_LT_VERSION) \
	-Wl,--version-script=$(srcdir)/lib/libzf2fs.sym
EXTRA_DIST += lib/libzf2fs.sym
EXTRA_lib_libzf2fs_la_DEPENDENCIES = $(srcdir)/lib/libzf2fs.sym
nobase_include_HEADERS += include/zf2fs/zf2fs.h include/zf2fs/format.h include/zf2fs/endian.h \
	include/zf2fs/quota.h
