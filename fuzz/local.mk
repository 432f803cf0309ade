# Hostile images: libFuzzer targets (./configure --enable-fuzzing, clang) and the replay of
# every image they ever crashed on (a test in every build).
#
# fuzz_volume  superblock and checkpoint parsing (zf2fs_vol_open_devs and what it loads)
# fuzz_fsck    a whole "fsck.f2fs -f -n -t" run: fsck/main.c with main() renamed
# fuzz_repair  "fsck.f2fs -f -y" then "-f -n" on the result: every repair path
# fuzz_dump    dump.f2fs with every view: tools/dump*.c with main() renamed
# fuzz_gc      gc.f2fs state and replay through the library (zf2fs_gc_*)
# Each takes the compact input of fuzz/fuzz_image.h; bench/fuzz.sh builds and runs them.
FUZZ_COMMON = fuzz/fuzz_image.c fuzz/fuzz_image.h
if ENABLE_FUZZING
noinst_PROGRAMS += fuzz/fuzz_volume fuzz/fuzz_fsck fuzz/fuzz_repair fuzz/fuzz_dump fuzz/fuzz_gc
fuzz_fuzz_volume_SOURCES = fuzz/fuzz_volume.c $(FUZZ_COMMON)
fuzz_fuzz_volume_LDADD = $(HELPER_LIBS)
fuzz_fuzz_volume_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_gc_SOURCES = fuzz/fuzz_gc.c $(FUZZ_COMMON)
fuzz_fuzz_gc_LDADD = $(HELPER_LIBS)
fuzz_fuzz_gc_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_fsck_SOURCES = fuzz/fuzz_fsck.c $(FUZZ_COMMON) $(fsck_fsck_f2fs_SOURCES)
fuzz_fuzz_fsck_CPPFLAGS = $(AM_CPPFLAGS) -Dmain=zf2fs_fsck_main
fuzz_fuzz_fsck_LDADD = $(fsck_fsck_f2fs_LDADD)
fuzz_fuzz_fsck_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_repair_SOURCES = $(fuzz_fuzz_fsck_SOURCES)
fuzz_fuzz_repair_CPPFLAGS = $(fuzz_fuzz_fsck_CPPFLAGS) -DFUZZ_REPAIR
fuzz_fuzz_repair_LDADD = $(fsck_fsck_f2fs_LDADD)
fuzz_fuzz_repair_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_dump_SOURCES = fuzz/fuzz_dump.c $(FUZZ_COMMON) $(tools_dump_f2fs_SOURCES)
fuzz_fuzz_dump_CPPFLAGS = $(AM_CPPFLAGS) -Dmain=zf2fs_dump_main
fuzz_fuzz_dump_LDADD = $(tools_dump_f2fs_LDADD)
fuzz_fuzz_dump_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
endif
EXTRA_DIST += fuzz/fuzzimg.py fuzz/README.md bench/fuzz.sh bench/fsck-scale.sh

# Every crash or hang the fuzzers found, replayed through fsck, dump and gc.f2fs; and
# crafted huge or looping images that must be refused plainly or finish.
# fsck_mounted.sh: no repair of a mounted device (root and a loop mount, or skipped).
TESTS += tests/images/fuzz_regress.sh tests/images/tools_hostile.sh tests/images/fsck_mounted.sh
EXTRA_DIST += tests/images/fuzz_regress.sh tests/images/tools_hostile.sh tests/images/fsck_mounted.sh \
	$(wildcard $(srcdir)/tests/images/fuzz/*)
