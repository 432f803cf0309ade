# Image tests: our mkfs.f2fs checked against the reference f2fs-tools 1.15
# (fsck must find every image clean; the area layout must match theirs) and
# against the reserved/overprovision rules of docs/layout.md.
# The scripts find our tools through $top_builddir (AM_TESTS_ENVIRONMENT),
# write only under $TMPDIR, and exit 77 when the reference tools are missing.
IMAGE_TESTS = tests/images/mkfs_matrix.sh tests/images/mkfs_errors.sh tests/images/fsck_cases.sh \
	tests/images/fsck_crash.sh tests/images/fsck_powercut.sh tests/images/fsck_cli.sh tests/images/fsck_ref_images.sh \
	tests/images/fsck_scale.sh tests/images/txn_image.sh tests/images/label.sh \
	tests/images/sload.sh tests/images/sload_crash.sh tests/images/sload_crash_batches.sh tests/images/sload_android.sh tests/images/sload_quota.sh tests/images/sload_logs.sh tests/images/sload_casefold.sh tests/images/fsck_casefold.sh tests/images/sload_sparse.sh tests/images/sload_compress.sh tests/images/sload_compress_opts.sh tests/images/fsck_many.sh
# a repair larger than a segment, faults across the node log's move (lib/write/commit.c)
IMAGE_TESTS += tests/images/fsck_repair_many.sh
TESTS += $(IMAGE_TESTS)
# peak resident size of a command, for fsck_scale.sh
check_PROGRAMS += tests/images/peak_rss
tests_images_peak_rss_SOURCES = tests/images/peak_rss.c
# creates files through the transaction for txn_image.sh
check_PROGRAMS += tests/images/txn_populate
tests_images_txn_populate_SOURCES = tests/images/txn_populate.c
tests_images_txn_populate_LDADD = $(HELPER_LIBS)
EXTRA_DIST += $(IMAGE_TESTS) tests/images/lib.sh tests/images/sload_lib.sh \
	tests/images/sload_android.d/fs_config tests/images/sload_android.d/file_contexts \
	tests/images/sload_android.d/mktree
EXTRA_DIST += tests/images/fsck_cases.sh tests/images/make_case.sh tests/images/base \
	$(wildcard $(srcdir)/tests/images/f_*)

# --version of every tool; the tools behind util-linux's fsck(8) and mkfs(8) (issue 18).
PKG_IMAGE_TESTS = tests/images/tool_version.sh tests/images/fsck_wrappers.sh
TESTS += $(PKG_IMAGE_TESTS)
EXTRA_DIST += $(PKG_IMAGE_TESTS)
# dump.f2fs
DUMP_TESTS = tests/images/d_fields.sh tests/images/d_files.sh tests/images/d_errors.sh \
	tests/images/d_frag.sh tests/images/d_encrypted.sh
TESTS += $(DUMP_TESTS)
EXTRA_DIST += $(DUMP_TESTS) tests/images/d_lib.sh tests/images/codes_needing_devices
# The field-fuzz group: a quick subset here; bench/fuzz-fields.sh runs the whole matrix.
TESTS += tests/images/fuzz_fields.sh tests/images/inject.sh
EXTRA_DIST += tests/images/fuzz_fields.sh tests/images/inject.sh tests/images/fuzz_fields_lib.sh \
	tests/images/fuzz_fields.roles tests/images/fuzz_fields_encrypted.roles tests/images/fuzz_fields.known tests/images/fuzz_fields.disagree
# bash completion (completion/zf2fs.bash) against each tool's --help
TESTS += tests/images/completion.sh
EXTRA_DIST += tests/images/completion.sh
# gc.f2fs state on an empty 15 TiB sparse image under a memory limit (issue 15)
TESTS += tests/images/g_state_sparse.sh
EXTRA_DIST += tests/images/g_state_sparse.sh
# gc.f2fs collect on an aged image (the block mover, lib/move/move.c)
TESTS += tests/images/g_collect.sh tests/images/g_collect_mounted.sh
EXTRA_DIST += tests/images/g_collect.sh tests/images/g_collect_mounted.sh
# defrag.f2fs: a block range moved to a target (the block mover, lib/move/move.c)
TESTS += tests/images/defrag.sh
EXTRA_DIST += tests/images/defrag.sh tests/images/move_lib.sh
TESTS += tests/images/resize.sh tests/images/resize_multi.sh
EXTRA_DIST += tests/images/resize.sh tests/images/resize_multi.sh
# the tools on what Linux writes: fscrypt, casefold, verity, compression, pinned files
TESTS += tests/images/encrypted.sh
EXTRA_DIST += tests/images/encrypted.sh
# lib/'s layer folders and the direction of their includes
TESTS += tests/images/lib_layers.sh
EXTRA_DIST += tests/images/lib_layers.sh
