# Zoned devices (issue 7): zone reports and operations in the library, fsck's pass 8
# (write pointers), and the kernel-bench scenarios on emulated ZNS and null_blk zoned
# devices.  Included last from Makefile.am: it adds to variables the other fragments
# define.
lib_libzf2fs_la_SOURCES += lib/zoned.c
zf2fsinclude_HEADERS += include/zf2fs/zoned.h
fsck_fsck_f2fs_SOURCES += fsck/pass8_zoned.c

ZONED_VM_TESTS = tests/vm/zoned_zns64.sh tests/vm/zoned_zns8.sh tests/vm/zoned_nullb.sh \
	tests/vm/zoned_parity.sh
TESTS += $(ZONED_VM_TESTS)
EXTRA_DIST += $(ZONED_VM_TESTS) tests/vm/zoned_guest.sh tests/images/codes_needing_devices

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_zoned
TESTS += tests/unit/test_zoned
tests_unit_test_zoned_SOURCES = tests/unit/test_zoned.c
tests_unit_test_zoned_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_zoned_LDADD = $(UNIT_LDADD)
endif
