# libzf2fs, in layers; each folder lists its own files (lib/LAYER/local.mk) and includes
# go one way only, checked by tests/layers.sh:
#   format <- device <- read <- write <- move,  and gc on read.
lib_LTLIBRARIES += lib/libzf2fs.la
lib_libzf2fs_la_SOURCES =
include $(srcdir)/lib/format/local.mk
include $(srcdir)/lib/device/local.mk
include $(srcdir)/lib/read/local.mk
include $(srcdir)/lib/write/local.mk
include $(srcdir)/lib/move/local.mk
include $(srcdir)/lib/gc/local.mk
lib_libzf2fs_la_CPPFLAGS = $(AM_CPPFLAGS) -DZF2FS_BUILDING_LIB
lib_libzf2fs_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden $(UUID_CFLAGS) $(BLKID_CFLAGS) $(LIBZBD_CFLAGS) $(SELINUX_CFLAGS) $(LZ4_CFLAGS) $(LZO_CFLAGS) $(ZSTD_CFLAGS)
lib_libzf2fs_la_LIBADD = $(UUID_LIBS) $(BLKID_LIBS) $(LIBZBD_LIBS) $(SELINUX_LIBS) $(UNISTRING_LIBS) $(LZ4_LIBS) $(LZO_LIBS) $(ZSTD_LIBS) -lpthread -lm
lib_libzf2fs_la_LDFLAGS = $(AM_LDFLAGS) -version-info $(LIBZF2FS_LT_VERSION) \
	-Wl,--version-script=$(srcdir)/lib/libzf2fs.sym
EXTRA_DIST += lib/libzf2fs.sym
EXTRA_lib_libzf2fs_la_DEPENDENCIES = $(srcdir)/lib/libzf2fs.sym
zf2fsinclude_HEADERS += include/zf2fs/zf2fs.h include/zf2fs/format.h include/zf2fs/geometry.h include/zf2fs/endian.h \
	include/zf2fs/quota.h include/zf2fs/access.h include/zf2fs/txn.h include/zf2fs/txn_file.h include/zf2fs/load.h include/zf2fs/compress.h include/zf2fs/simg.h include/zf2fs/sit_table.h \
	include/zf2fs/file.h include/zf2fs/zoned.h include/zf2fs/gc.h include/zf2fs/gc_sim.h \
	include/zf2fs/move.h include/zf2fs/resize.h
# What zf2fs-tools' own programs use beyond that API (fsck's repair, the tools' raw views,
# the tests), included as "zf2fs-internal/NAME.h": not installed, exported in the
# ZF2FS_PRIVATE node of lib/libzf2fs.sym with no ABI promise.
noinst_HEADERS += include/zf2fs-internal/format.h include/zf2fs-internal/chunkmap.h \
	include/zf2fs-internal/compress.h include/zf2fs-internal/device.h \
	include/zf2fs-internal/volume.h include/zf2fs-internal/commit.h \
	include/zf2fs-internal/quota.h include/zf2fs-internal/move.h include/zf2fs-internal/gc.h \
	include/zf2fs-internal/load.h include/zf2fs-internal/rebuild.h
