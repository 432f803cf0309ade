# f2fs_io: F2FS ioctls and I/O patterns on a mounted volume; fibmap.f2fs: a file's
# block addresses by FIBMAP.  Both with f2fs-tools' interface (see their man pages).
F2FS_IO_SOURCES = tools/f2fs_io/main.c tools/f2fs_io/common.c tools/f2fs_io/version.c \
	tools/f2fs_io/cmd_volume.c tools/f2fs_io/cmd_flags.c tools/f2fs_io/cmd_write.c \
	tools/f2fs_io/cmd_read.c tools/f2fs_io/cmd_compress.c tools/f2fs_io/cmd_xattr.c \
	tools/f2fs_io/cmd_perf.c tools/f2fs_io/f2fs_io.h tools/f2fs_io/f2fs_uapi.h
sbin_PROGRAMS += tools/f2fs_io/f2fs_io tools/fibmap.f2fs
tools_f2fs_io_f2fs_io_SOURCES = $(F2FS_IO_SOURCES)
tools_f2fs_io_f2fs_io_LDADD = $(HELPER_LIBS)
tools_fibmap_f2fs_SOURCES = tools/fibmap.c
tools_fibmap_f2fs_LDADD = $(HELPER_LIBS)

# The kernel bench's guest has busybox only: static copies without libzf2fs
# (F2FS_IO_STATIC; -all-static as for tests/vm/zwork).
check_PROGRAMS += tests/vm/f2fs_io tests/vm/fibmap.f2fs
tests_vm_f2fs_io_SOURCES = $(F2FS_IO_SOURCES)
tests_vm_f2fs_io_CPPFLAGS = $(AM_CPPFLAGS) -DF2FS_IO_STATIC
tests_vm_f2fs_io_CFLAGS = -std=gnu11 $(WARN_CFLAGS)
tests_vm_f2fs_io_LDFLAGS = -all-static
tests_vm_fibmap_f2fs_SOURCES = tools/fibmap.c
tests_vm_fibmap_f2fs_CPPFLAGS = $(AM_CPPFLAGS) -DF2FS_IO_STATIC
tests_vm_fibmap_f2fs_CFLAGS = -std=gnu11 $(WARN_CFLAGS)
tests_vm_fibmap_f2fs_LDFLAGS = -all-static

man_MANS += man/f2fs_io.8 man/fibmap.f2fs.8
EXTRA_DIST += man/f2fs_io.8.in man/fibmap.f2fs.8.in
