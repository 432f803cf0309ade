# sload.f2fs: copy a directory tree into a volume (lib/write/load_tree.c).
sbin_PROGRAMS += tools/sload.f2fs
tools_sload_f2fs_SOURCES = tools/sload.c
tools_sload_f2fs_LDADD = $(HELPER_LIBS)

man_MANS += man/sload.f2fs.8
EXTRA_DIST += man/sload.f2fs.8.in
