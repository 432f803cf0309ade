# resize.f2fs: grow or shrink an unmounted volume (lib/move/resize_*.c).
sbin_PROGRAMS += tools/resize.f2fs
tools_resize_f2fs_SOURCES = tools/resize.c
tools_resize_f2fs_LDADD = $(HELPER_LIBS)

man_MANS += man/resize.f2fs.8
EXTRA_DIST += man/resize.f2fs.8.in
