# libzf2fs: the on-disk format, devices and layout maths.
lib_LTLIBRARIES += lib/libzf2fs.la
lib_libzf2fs_la_SOURCES = \
	lib/crc32.c lib/hash.c lib/log.c lib/layout.c lib/layout_json.c \
	lib/features.c lib/device.c lib/device_probe.c lib/device_p.h lib/mkfs_write.c \
	lib/super.c lib/checkpoint.c lib/cp_write.c lib/cp_write_p.h lib/cp_next.c lib/commit_p.h lib/txn.c lib/txn_p.h lib/txn_file.c lib/txn_xattr.c lib/txn_temp.c lib/casefold.c lib/simg.c lib/load_tree.c lib/compress.c lib/compress_p.h lib/lzo_decompress.c lib/lzo_p.h lib/file_read_compr.c lib/load_meta.c lib/load_p.h lib/inode_p.h lib/label.c lib/super_write.c lib/volume.c lib/volume_p.h lib/node.c lib/xattr_read.c lib/dir.c lib/why.c lib/why_p.h \
	lib/quota.c lib/quota_read.c lib/file_read.c lib/file_extents.c lib/zoned.c lib/bitmap.c lib/sit_table.c lib/nat_bits.c lib/vol_where.c \
	lib/gc_model.c lib/gc_select.c lib/gc_index.c lib/gc_ctree.c lib/gc_p.h lib/gc_sim.c lib/gc_sim_p.h lib/gc_ssr.c
lib_libzf2fs_la_CPPFLAGS = $(AM_CPPFLAGS) -DZF2FS_BUILDING_LIB
lib_libzf2fs_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden $(UUID_CFLAGS) $(BLKID_CFLAGS) $(LIBZBD_CFLAGS) $(SELINUX_CFLAGS) $(LZ4_CFLAGS) $(LZO_CFLAGS) $(ZSTD_CFLAGS)
lib_libzf2fs_la_LIBADD = $(UUID_LIBS) $(BLKID_LIBS) $(LIBZBD_LIBS) $(SELINUX_LIBS) $(UNISTRING_LIBS) $(LZ4_LIBS) $(LZO_LIBS) $(ZSTD_LIBS) -lpthread -lm
lib_libzf2fs_la_LDFLAGS = $(AM_LDFLAGS) -version-info $(LIBZF2FS_LT_VERSION) \
	-Wl,--version-script=$(srcdir)/lib/libzf2fs.sym
EXTRA_DIST += lib/libzf2fs.sym
EXTRA_lib_libzf2fs_la_DEPENDENCIES = $(srcdir)/lib/libzf2fs.sym
zf2fsinclude_HEADERS += include/zf2fs/zf2fs.h include/zf2fs/format.h include/zf2fs/endian.h \
	include/zf2fs/quota.h include/zf2fs/access.h include/zf2fs/txn.h include/zf2fs/txn_file.h include/zf2fs/load.h include/zf2fs/compress.h include/zf2fs/simg.h include/zf2fs/sparse.h \
	include/zf2fs/file.h include/zf2fs/zoned.h include/zf2fs/gc.h include/zf2fs/gc_sim.h
# the block mover (gc.f2fs collect, defrag.f2fs, resize.f2fs)
lib_libzf2fs_la_SOURCES += lib/move.c lib/move_batch.c
zf2fsinclude_HEADERS += include/zf2fs/move.h
# resize (resize.f2fs): plan, steps, relocated metadata areas
lib_libzf2fs_la_SOURCES += lib/resize.c lib/resize_run.c lib/resize_meta.c lib/resize_p.h \
	lib/layout_p.h
zf2fsinclude_HEADERS += include/zf2fs/resize.h

# The tools' helper library, not installed: command-line conventions (lib/cli.c prints
# and exits, which the library never does), what several front-ends print or do as
# f2fs-tools does (lib/ftinfo.c: its parsed "Info:" lines; lib/sparse_run.c: -S on an
# Android sparse image) and the tests' hooks (memory device, write faults).  Every tool and test links it beside libzf2fs.
noinst_LTLIBRARIES += lib/libzf2fs_helper.la
lib_libzf2fs_helper_la_SOURCES = lib/cli.c lib/test_hooks.c lib/helper.h lib/ftinfo.c lib/ftinfo.h \
	lib/sparse_run.c lib/sparse_run.h
HELPER_LIBS = lib/libzf2fs_helper.la lib/libzf2fs.la
