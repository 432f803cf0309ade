# inject.f2fs: change one member of one on-disk structure (tests, fuzzing).
sbin_PROGRAMS += tools/inject.f2fs
tools_inject_f2fs_SOURCES = tools/inject/inject.c tools/inject/inject_members.c tools/inject/inject_ops.c \
	tools/inject/inject.h
tools_inject_f2fs_LDADD = $(HELPER_LIBS)

man_MANS += man/inject.f2fs.8
EXTRA_DIST += man/inject.f2fs.8.in
