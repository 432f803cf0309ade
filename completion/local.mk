# bash completion: one file, installed under each tool's name (bash-completion loads
# completions/<command> when that command is first completed).
EXTRA_DIST += completion/zf2fs.bash
if INSTALL_BASH_COMPLETION
bashcompletion_DATA = completion/mkfs.f2fs completion/fsck.f2fs completion/dump.f2fs \
	completion/gc.f2fs completion/inject.f2fs completion/sload.f2fs completion/defrag.f2fs \
	completion/resize.f2fs completion/f2fslabel \
	completion/fibmap.f2fs completion/f2fs_io completion/f2fs_metadump completion/f2fs_mdrestore
CLEANFILES += $(bashcompletion_DATA)
completion/%.f2fs: $(srcdir)/completion/zf2fs.bash
	$(AM_V_GEN)$(MKDIR_P) completion && cp $(srcdir)/completion/zf2fs.bash $@
completion/f2fslabel completion/f2fs_io completion/f2fs_metadump completion/f2fs_mdrestore: $(srcdir)/completion/zf2fs.bash
	$(AM_V_GEN)$(MKDIR_P) completion && cp $(srcdir)/completion/zf2fs.bash $@
endif
