# gc.f2fs: GC state and the kernel's victim selection replayed on an image.
sbin_PROGRAMS += tools/gc.f2fs
tools_gc_f2fs_SOURCES = tools/gc/gc.c tools/gc/gc_zones.c tools/gc/gc_zones.h \
	tools/gc/gc_bgthread.c tools/gc/gc_bgthread.h \
	tools/gc/gc_collect.c tools/gc/gc_collect.h \
	tools/gc/gc_simulate.c tools/gc/gc_simulate.h
tools_gc_f2fs_CFLAGS = $(AM_CFLAGS)
tools_gc_f2fs_LDADD = $(HELPER_LIBS) -lm

man_MANS += man/gc.f2fs.8
EXTRA_DIST += man/gc.f2fs.8.in
