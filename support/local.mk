# The tools' helper library, not installed: command-line conventions (support/cli.c
# prints and exits, which the library never does), what several front-ends print or do
# as f2fs-tools does (support/ftinfo.c: its parsed "Info:" lines; support/simg_run.c:
# -S on an Android sparse image), --progress and --progress-fd (support/progress.c) and
# the tests' hooks (memory device, write faults).
# Every tool and test links it beside libzf2fs.
noinst_LTLIBRARIES += support/libzf2fs_support.la
support_libzf2fs_support_la_SOURCES = support/cli.c support/test_hooks.c support/helper.h \
	support/ftinfo.c support/ftinfo.h support/simg_run.c support/simg_run.h \
	support/progress.c support/progress.h
HELPER_LIBS = support/libzf2fs_support.la lib/libzf2fs.la
