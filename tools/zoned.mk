# Zoned devices (issue 7): fsck's pass 8 (write pointers).  The library's zoned.c is
# listed in lib/local.mk, the tests under tests/.  Included last from Makefile.am: it adds
# to fsck/local.mk's source list (fuzz/local.mk reuses that list); the line belongs in
# fsck/local.mk.
fsck_fsck_f2fs_SOURCES += fsck/pass8_zoned.c
