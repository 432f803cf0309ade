# gc.f2fs: GC state and the kernel's victim selection replayed on an image.
sbin_PROGRAMS += tools/gc.f2fs
tools_gc_f2fs_SOURCES = tools/gc.c tools/gc_zones.c tools/gc_zones.h \
	tools/gc_sim.c tools/gc_sim_cli.h
tools_gc_f2fs_CFLAGS = $(AM_CFLAGS)
tools_gc_f2fs_LDADD = lib/libzf2fs.la -lm

lib_libzf2fs_la_SOURCES += lib/gc_model.c lib/gc_select.c lib/gc_index.c lib/gc_p.h lib/gc_sim.c \
	lib/gc_sim_p.h lib/gc_ssr.c
lib_libzf2fs_la_LIBADD += -lm
zf2fsinclude_HEADERS += include/zf2fs/gc.h include/zf2fs/gc_sim.h

if HAVE_CMOCKA
GC_UNIT_TESTS = tests/unit/test_gc_select tests/unit/test_gc_model tests/unit/test_gc_sim
check_PROGRAMS += $(GC_UNIT_TESTS)
TESTS += $(GC_UNIT_TESTS)
tests_unit_test_gc_select_SOURCES = tests/unit/test_gc_select.c
tests_unit_test_gc_select_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_gc_select_LDADD = lib/libzf2fs.la $(CMOCKA_LIBS)
tests_unit_test_gc_model_SOURCES = tests/unit/test_gc_model.c
tests_unit_test_gc_model_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_gc_model_LDADD = lib/libzf2fs.la $(CMOCKA_LIBS)
tests_unit_test_gc_sim_SOURCES = tests/unit/test_gc_sim.c
tests_unit_test_gc_sim_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_gc_sim_LDADD = lib/libzf2fs.la $(CMOCKA_LIBS) -lm
endif

man_MANS += man/gc.f2fs.8
EXTRA_DIST += man/gc.f2fs.8.in

# The kernel bench: victims traced in the VM against gc.f2fs replay.
GC_VM_TESTS = tests/vm/gc_replay.sh tests/vm/gc_sim_validate.sh
TESTS += $(GC_VM_TESTS)
EXTRA_DIST += $(GC_VM_TESTS) tests/vm/gc_lib.sh bench/gc-replay.sh bench/gc-state.sh \
	bench/gc-sim.sh
