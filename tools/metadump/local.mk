# f2fs_metadump and f2fs_mdrestore: a volume's metadata in a compact, scrambled image,
# and the volume again from it.
sbin_PROGRAMS += tools/f2fs_metadump tools/f2fs_mdrestore
tools_f2fs_metadump_SOURCES = tools/metadump/metadump.c tools/metadump/md_dump.c \
	tools/metadump/md_scramble.c tools/metadump/md_image.c tools/metadump/md_dump.h \
	tools/metadump/md_image.h
tools_f2fs_metadump_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)
tools_f2fs_metadump_LDADD = $(HELPER_LIBS) $(ZSTD_LIBS) -lpthread
tools_f2fs_mdrestore_SOURCES = tools/metadump/mdrestore.c tools/metadump/md_image.c \
	tools/metadump/md_image.h
tools_f2fs_mdrestore_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)
tools_f2fs_mdrestore_LDADD = $(HELPER_LIBS) $(ZSTD_LIBS)

man_MANS += man/f2fs_metadump.8 man/f2fs_mdrestore.8
EXTRA_DIST += man/f2fs_metadump.8.in man/f2fs_mdrestore.8.in
