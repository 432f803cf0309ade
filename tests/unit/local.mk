# cmocka unit tests, one program per library module.
if HAVE_CMOCKA
UNIT_TESTS = tests/unit/test_format tests/unit/test_checksum tests/unit/test_layout \
	tests/unit/test_mkfs_memory tests/unit/test_volume tests/unit/test_fsck_problems \
	tests/unit/test_abi_v10
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
UNIT_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) -DTEST_DATA_DIR='"$(abs_top_srcdir)/tests/unit/data"'
UNIT_LDADD = $(HELPER_LIBS) $(CMOCKA_LIBS) -lm
tests_unit_test_format_SOURCES = tests/unit/test_format.c
tests_unit_test_format_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_format_LDADD = $(UNIT_LDADD)
tests_unit_test_checksum_SOURCES = tests/unit/test_checksum.c
tests_unit_test_checksum_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_checksum_LDADD = $(UNIT_LDADD)
tests_unit_test_layout_SOURCES = tests/unit/test_layout.c
tests_unit_test_layout_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_layout_LDADD = $(UNIT_LDADD)
# a program built against libzf2fs1 0.3.0's structs, bound to the ZF2FS_1.0 entries
tests_unit_test_abi_v10_SOURCES = tests/unit/test_abi_v10.c
tests_unit_test_abi_v10_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_abi_v10_LDADD = $(UNIT_LDADD)
tests_unit_test_mkfs_memory_SOURCES = tests/unit/test_mkfs_memory.c
tests_unit_test_mkfs_memory_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_mkfs_memory_LDADD = $(UNIT_LDADD)
tests_unit_test_fsck_problems_SOURCES = tests/unit/test_fsck_problems.c fsck/problem.c
nodist_tests_unit_test_fsck_problems_SOURCES = tests/unit/fsck_codes.inc
tests_unit_test_fsck_problems_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/unit
tests_unit_test_fsck_problems_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_fsck_problems_LDADD = $(UNIT_LDADD)
BUILT_SOURCES = tests/unit/fsck_codes.inc
CLEANFILES += tests/unit/fsck_codes.inc
# every "#define PR_..." code of the fsck header, for the table test
tests/unit/fsck_codes.inc: $(top_srcdir)/fsck/fsck.h
	$(AM_V_GEN)$(MKDIR_P) tests/unit && sed -n 's/^#define PR_[0-9]_[A-Z_0-9]* *\(0x[0-9A-Fa-f]*\).*/\1,/p' $< > $@
tests_unit_test_volume_SOURCES = tests/unit/test_volume.c
tests_unit_test_volume_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_volume_LDADD = $(UNIT_LDADD)
# nothing read or written past a device's end (file and memory backends, volume addresses)
UNIT_TESTS += tests/unit/test_device
tests_unit_test_device_SOURCES = tests/unit/test_device.c
tests_unit_test_device_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_device_LDADD = $(UNIT_LDADD)
# a library message during a run with a bar takes the bar off the screen (support/progress.c)
UNIT_TESTS += tests/unit/test_progress
tests_unit_test_progress_SOURCES = tests/unit/test_progress.c
tests_unit_test_progress_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_progress_LDADD = $(UNIT_LDADD)
# chunked maps (bitmaps, the SIT table), nat_bits, and the clean test reading only superblock and checkpoint
UNIT_TESTS += tests/unit/test_chunkmap
tests_unit_test_chunkmap_SOURCES = tests/unit/test_chunkmap.c
tests_unit_test_chunkmap_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_chunkmap_LDADD = $(UNIT_LDADD)
# quota files: build/parse round trips, the kernel's layout, damaged files refused
UNIT_TESTS += tests/unit/test_quota
tests_unit_test_quota_SOURCES = tests/unit/test_quota.c
tests_unit_test_quota_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_quota_LDADD = $(UNIT_LDADD)
# roll-forward: which node blocks the kernel replays after a checkpoint
UNIT_TESTS += tests/unit/test_rollforward
tests_unit_test_rollforward_SOURCES = tests/unit/test_rollforward.c
tests_unit_test_rollforward_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_rollforward_LDADD = $(UNIT_LDADD)
# include/zf2fs/access.h: on-disk bit accessors against hand-computed values
UNIT_TESTS += tests/unit/test_access
tests_unit_test_access_SOURCES = tests/unit/test_access.c
tests_unit_test_access_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_access_LDADD = $(UNIT_LDADD)
# lib/write/txn.c: read-back, hash levels, a fault at every write of a commit
UNIT_TESTS += tests/unit/test_txn
tests_unit_test_txn_SOURCES = tests/unit/test_txn.c
tests_unit_test_txn_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_txn_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/test_move
tests_unit_test_move_SOURCES = tests/unit/test_move.c
tests_unit_test_move_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_move_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/test_resize_zoned
tests_unit_test_resize_zoned_SOURCES = tests/unit/test_resize_zoned.c
tests_unit_test_resize_zoned_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_resize_zoned_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/test_resize_fit
tests_unit_test_resize_fit_SOURCES = tests/unit/test_resize_fit.c
tests_unit_test_resize_fit_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_resize_fit_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/test_txn_file
tests_unit_test_txn_file_SOURCES = tests/unit/test_txn_file.c
tests_unit_test_txn_file_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_txn_file_LDADD = $(UNIT_LDADD)
# lib/device/zoned.c without a zoned device
UNIT_TESTS += tests/unit/test_zoned
tests_unit_test_zoned_SOURCES = tests/unit/test_zoned.c
tests_unit_test_zoned_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_zoned_LDADD = $(UNIT_LDADD)
# GC: victim selection, the state model and the simulator
UNIT_TESTS += tests/unit/test_gc_select tests/unit/test_gc_model tests/unit/test_gc_sim
tests_unit_test_gc_select_SOURCES = tests/unit/test_gc_select.c
tests_unit_test_gc_select_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_gc_select_LDADD = $(HELPER_LIBS) $(CMOCKA_LIBS)
tests_unit_test_gc_model_SOURCES = tests/unit/test_gc_model.c
tests_unit_test_gc_model_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_gc_model_LDADD = $(HELPER_LIBS) $(CMOCKA_LIBS)
tests_unit_test_gc_sim_SOURCES = tests/unit/test_gc_sim.c
tests_unit_test_gc_sim_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_gc_sim_LDADD = $(HELPER_LIBS) $(CMOCKA_LIBS) -lm
# compressed clusters: lzo, lz4, zstd, lzo-rle round trips, header, saved-blocks minimum,
# zstd window, a cluster in the kernel's lzo-rle form
UNIT_TESTS += tests/unit/test_compress
tests_unit_test_compress_SOURCES = tests/unit/test_compress.c
tests_unit_test_compress_CFLAGS = $(UNIT_CFLAGS) $(ZSTD_CFLAGS)
tests_unit_test_compress_LDADD = $(UNIT_LDADD) $(ZSTD_LIBS)
# the LZO1X decoder (lzo and lzo-rle): liblzo2 round trips, hand-built lzo-rle zero
# runs, truncated and garbled streams; built from its source, its symbol is not exported
UNIT_TESTS += tests/unit/test_lzo
tests_unit_test_lzo_SOURCES = tests/unit/test_lzo.c lib/format/lzo_decompress.c
tests_unit_test_lzo_CFLAGS = $(UNIT_CFLAGS) $(LZO_CFLAGS)
tests_unit_test_lzo_LDADD = $(UNIT_LDADD) $(LZO_LIBS)
# include/zf2fs/geometry.h: the 4 KiB numbers equal format.h, the 16 KiB ones the kernel's formulas
UNIT_TESTS += tests/unit/test_geometry
tests_unit_test_geometry_SOURCES = tests/unit/test_geometry.c
tests_unit_test_geometry_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_geometry_LDADD = $(UNIT_LDADD)
# the commit's summary and orphan blocks at 4 and 16 KiB, packed_ssa's shared SSA block
UNIT_TESTS += tests/unit/test_commit
tests_unit_test_commit_SOURCES = tests/unit/test_commit.c
tests_unit_test_commit_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_commit_LDADD = $(UNIT_LDADD)
endif
EXTRA_DIST += tests/unit/data
noinst_HEADERS += tests/unit/unit.h tests/unit/unit_aged.h
