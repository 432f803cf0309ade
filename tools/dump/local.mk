# dump.f2fs: read-only views of every on-disk structure, file extraction, JSON.
sbin_PROGRAMS += tools/dump.f2fs
tools_dump_f2fs_SOURCES = tools/dump/dump.c tools/dump/dump_out.c tools/dump/dump_meta.c tools/dump/dump_file.c \
	tools/dump/dump_zones.c tools/dump/dump_quota.c tools/dump/dump_frag.c tools/dump/dump_extract.c tools/dump/dump_enc.c tools/dump/dump_scan.c \
	tools/dump/dump.h
tools_dump_f2fs_LDADD = $(HELPER_LIBS)

man_MANS += man/dump.f2fs.8
EXTRA_DIST += man/dump.f2fs.8.in
