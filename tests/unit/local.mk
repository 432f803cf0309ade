# cmocka unit tests, one program per library module.
if HAVE_CMOCKA
UNIT_TESTS = tests/unit/test_format tests/unit/test_checksum tests/unit/test_layout \
	tests/unit/test_mkfs_memory tests/unit/test_volume
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
UNIT_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) -DTEST_DATA_DIR='"$(abs_top_srcdir)/tests/unit/data"'
UNIT_LDADD = lib/libzf2fs.la $(CMOCKA_LIBS) -lm
tests_unit_test_format_SOURCES = tests/unit/test_format.c
tests_unit_test_format_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_format_LDADD = $(UNIT_LDADD)
tests_unit_test_checksum_SOURCES = tests/unit/test_checksum.c
tests_unit_test_checksum_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_checksum_LDADD = $(UNIT_LDADD)
tests_unit_test_layout_SOURCES = tests/unit/test_layout.c
tests_unit_test_layout_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_layout_LDADD = $(UNIT_LDADD)
tests_unit_test_mkfs_memory_SOURCES = tests/unit/test_mkfs_memory.c
tests_unit_test_mkfs_memory_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_mkfs_memory_LDADD = $(UNIT_LDADD)
tests_unit_test_volume_SOURCES = tests/unit/test_volume.c
tests_unit_test_volume_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_volume_LDADD = $(UNIT_LDADD)
endif
EXTRA_DIST += tests/unit/data
noinst_HEADERS += tests/unit/unit.h
