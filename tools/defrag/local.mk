# defrag.f2fs: move a block range's valid blocks to free space at a target address.
sbin_PROGRAMS += tools/defrag.f2fs
tools_defrag_f2fs_SOURCES = tools/defrag/defrag.c tools/defrag/defrag_dir.c tools/defrag/defrag.h
tools_defrag_f2fs_LDADD = $(HELPER_LIBS)

man_MANS += man/defrag.f2fs.8
EXTRA_DIST += man/defrag.f2fs.8.in
