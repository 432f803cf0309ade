# dump.f2fs: read-only views of every on-disk structure, file extraction, JSON.
sbin_PROGRAMS += tools/dump.f2fs
tools_dump_f2fs_SOURCES = tools/dump.c tools/dump_out.c tools/dump_meta.c tools/dump_file.c \
	tools/dump_zones.c tools/dump_quota.c tools/dump.h
tools_dump_f2fs_LDADD = lib/libzf2fs.la

# Reading files by inode and path, in the library.
lib_libzf2fs_la_SOURCES += lib/file_read.c
zf2fsinclude_HEADERS += include/zf2fs/file.h

man_MANS += man/dump.f2fs.8
EXTRA_DIST += man/dump.f2fs.8.in

DUMP_TESTS = tests/images/d_fields.sh tests/images/d_files.sh tests/images/d_errors.sh
TESTS += $(DUMP_TESTS)
EXTRA_DIST += $(DUMP_TESTS) tests/images/d_lib.sh
