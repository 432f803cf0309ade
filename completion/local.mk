# bash completion: one file, installed under each tool's name (bash-completion loads
# completions/<command> when that command is first completed).
EXTRA_DIST += completion/zf2fs.bash
if INSTALL_BASH_COMPLETION
bashcompletion_DATA = completion/mkfs.f2fs completion/fsck.f2fs completion/dump.f2fs \
	completion/gc.f2fs
CLEANFILES += $(bashcompletion_DATA)
completion/%.f2fs: $(srcdir)/completion/zf2fs.bash
	$(AM_V_GEN)$(MKDIR_P) completion && cp $(srcdir)/completion/zf2fs.bash $@
endif

COMPLETION_TESTS = tests/images/completion.sh
TESTS += $(COMPLETION_TESTS)
EXTRA_DIST += $(COMPLETION_TESTS)
