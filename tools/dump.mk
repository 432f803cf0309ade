# dump.f2fs: read-only views of every on-disk structure, file extraction, JSON.
sbin_PROGRAMS += tools/dump.f2fs
tools_dump_f2fs_SOURCES = tools/dump.c tools/dump_out.c tools/dump_meta.c tools/dump_file.c \
	tools/dump_zones.c tools/dump_quota.c tools/dump_frag.c tools/dump_extract.c tools/dump_enc.c \
	tools/dump.h
tools_dump_f2fs_LDADD = $(HELPER_LIBS)

man_MANS += man/dump.f2fs.8
EXTRA_DIST += man/dump.f2fs.8.in
