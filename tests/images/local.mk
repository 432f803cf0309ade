# Image tests, one script per tool or area (tests/README.md): our tools on image files,
# checked against the reference f2fs-tools 1.15 where it is installed.  The scripts find
# our tools through $top_builddir (AM_TESTS_ENVIRONMENT), write only under $TMPDIR, and
# exit 77 when what they need is missing.  fsck_corpus.sh runs the fsck corpus
# (tests/images/corpus/).
IMAGE_TESTS = tests/images/mkfs_matrix.sh tests/images/mkfs_16k.sh tests/images/mkfs_errors.sh tests/images/fsck_corpus.sh \
	tests/images/fsck_crash.sh tests/images/fsck_powercut.sh tests/images/fsck_cli.sh tests/images/fsck_ref_images.sh \
	tests/images/fsck_scale.sh tests/images/txn_image.sh tests/images/f2fslabel.sh \
	tests/images/sload.sh tests/images/sload_crash.sh tests/images/sload_crash_batches.sh tests/images/sload_android.sh tests/images/sload_quota.sh tests/images/sload_logs.sh tests/images/sload_casefold.sh tests/images/fsck_casefold.sh tests/images/sload_sparse.sh tests/images/sload_compress.sh tests/images/sload_compress_opts.sh tests/images/fsck_many.sh
# a repair larger than a segment, faults across the node log's move (lib/write/commit.c)
IMAGE_TESTS += tests/images/fsck_repair_many.sh
# a full check reads no main-area block twice (the device layer's read trace)
IMAGE_TESTS += tests/images/fsck_reads.sh
# f2fs_metadump and f2fs_mdrestore: restored volumes check as their sources
IMAGE_TESTS += tests/images/metadump.sh
# repairs of 16 KiB volumes, every write failed in turn (fsck_crash.sh on their cases)
IMAGE_TESTS += tests/images/fsck_crash_16k.sh
TESTS += $(IMAGE_TESTS)
# peak resident size of a command, for fsck_scale.sh
check_PROGRAMS += tests/images/peak_rss
tests_images_peak_rss_SOURCES = tests/images/peak_rss.c
# the commit and the superblock writer on the kernel-aged 16 KiB volumes, faults at every write
TESTS += tests/images/txn_16k.sh tests/images/f2fslabel_16k.sh
EXTRA_DIST += tests/images/txn_16k.sh tests/images/f2fslabel_16k.sh
# creates files through the transaction for txn_image.sh and txn_16k.sh
check_PROGRAMS += tests/images/txn_populate
tests_images_txn_populate_SOURCES = tests/images/txn_populate.c
tests_images_txn_populate_LDADD = $(HELPER_LIBS)
EXTRA_DIST += $(IMAGE_TESTS) tests/images/mkfs_16k.table tests/images/lib.sh tests/images/our_bin.sh tests/images/sparse_bytes.py tests/images/sload_lib.sh \
	tests/images/sload_android.d/fs_config tests/images/sload_android.d/file_contexts \
	tests/images/sload_android.d/mktree
EXTRA_DIST += tests/images/fsck_corpus.sh tests/images/fsck_case_image.sh tests/images/base \
	tests/images/corpus
# what each folder of tests/ holds, how to run and add a test
EXTRA_DIST += tests/README.md

# --version of every tool; the tools behind util-linux's fsck(8) and mkfs(8) (issue 18).
PKG_IMAGE_TESTS = tests/images/tools_version.sh tests/images/tools_wrappers.sh
TESTS += $(PKG_IMAGE_TESTS)
EXTRA_DIST += $(PKG_IMAGE_TESTS)
# dump.f2fs
DUMP_TESTS = tests/images/dump_fields.sh tests/images/dump_files.sh tests/images/dump_errors.sh \
	tests/images/dump_frag.sh tests/images/dump_encrypted.sh tests/images/dump_16k.sh \
	tests/images/dump_scan.sh
TESTS += $(DUMP_TESTS)
# fsck.f2fs --rebuild: the tables and checkpoint from a node scan
TESTS += tests/images/fsck_rebuild.sh
EXTRA_DIST += tests/images/fsck_rebuild.sh
EXTRA_DIST += $(DUMP_TESTS) tests/images/dump_lib.sh
# Linux 7.3's superblock and inode bits: mkfs's hashonly and packed_ssa, fsck's
# --nolinear-lookup, dump.f2fs's names of what inject.f2fs sets
NEW_BITS_TESTS = tests/images/mkfs_new_bits.sh tests/images/fsck_linear_lookup.sh \
	tests/images/dump_new_bits.sh
TESTS += $(NEW_BITS_TESTS)
EXTRA_DIST += $(NEW_BITS_TESTS)
# device aliasing: mkfs.f2fs -c DEV@ALIAS, checked by fsck and dump.f2fs
TESTS += tests/images/mkfs_alias.sh
EXTRA_DIST += tests/images/mkfs_alias.sh
# The field-fuzz group: a quick subset here; bench/fuzz-fields.sh runs the whole matrix.
TESTS += tests/images/fuzz_fields.sh tests/images/inject.sh tests/images/inject_16k.sh
EXTRA_DIST += tests/images/fuzz_fields.sh tests/images/inject.sh tests/images/inject_16k.sh \
	tests/images/fuzz_fields_lib.sh \
	tests/images/fuzz_fields.roles tests/images/fuzz_fields_encrypted.roles tests/images/fuzz_fields.known tests/images/fuzz_fields.disagree
# bash completion (completion/zf2fs.bash) against each tool's --help
TESTS += tests/images/completion.sh
EXTRA_DIST += tests/images/completion.sh
# gc.f2fs state on an empty 15 TiB sparse image under a memory limit (issue 15)
TESTS += tests/images/gc_state_sparse.sh
EXTRA_DIST += tests/images/gc_state_sparse.sh
# gc.f2fs collect on an aged image (the block mover, lib/move/move.c)
TESTS += tests/images/gc_collect.sh tests/images/gc_collect_mounted.sh
EXTRA_DIST += tests/images/gc_collect.sh tests/images/gc_collect_mounted.sh
# gc.f2fs on the kernel-aged 16 KiB volumes (base/aged16k*): state and replay read them
TESTS += tests/images/gc_16k.sh
EXTRA_DIST += tests/images/gc_16k.sh
# defrag.f2fs on volumes of 16 KiB blocks: ours (mkfs -b 16384, aged) and base/aged16k*
TESTS += tests/images/defrag_16k.sh
EXTRA_DIST += tests/images/defrag_16k.sh
# defrag.f2fs: a block range moved to a target (the block mover, lib/move/move.c)
TESTS += tests/images/defrag.sh tests/images/sload_16k.sh
EXTRA_DIST += tests/images/defrag.sh tests/images/sload_16k.sh tests/images/move_lib.sh \
	tests/images/resize_faults.sh
TESTS += tests/images/resize.sh tests/images/resize_multi.sh tests/images/resize_16k.sh
EXTRA_DIST += tests/images/resize.sh tests/images/resize_multi.sh tests/images/resize_16k.sh
# the tools on what Linux writes: fscrypt, casefold, verity, compression, pinned files
TESTS += tests/images/tools_kernel_image.sh
EXTRA_DIST += tests/images/tools_kernel_image.sh
# a volume with superblock bits this version does not know is never written
TESTS += tests/images/tools_unwritable.sh
EXTRA_DIST += tests/images/tools_unwritable.sh
# lib/'s layer folders and the direction of their includes; the exports agree in the
# library, lib/libzf2fs.sym, debian/libzf2fs1.symbols and the headers (a function is
# exported only with ZF2FS_EXPORT: -fvisibility=hidden hides the rest)
TESTS += tests/images/lib_layers.sh tests/images/lib_abi.sh
EXTRA_DIST += tests/images/lib_layers.sh tests/images/lib_abi.sh
# README.md's length and man page links, and the links of README.md, docs/ and tests/README.md
TESTS += tests/images/docs_links.sh
EXTRA_DIST += tests/images/docs_links.sh
# every shell script parses under the shells that run it (dash and bash for /bin/sh ones)
TESTS += tests/images/scripts_parse.sh
EXTRA_DIST += tests/images/scripts_parse.sh
# --progress and --progress-fd of fsck, sload, defrag, gc collect and resize: e2fsck's
# -C FD lines, the rest of the output unchanged, a bad descriptor refused
TESTS += tests/images/tools_progress.sh
EXTRA_DIST += tests/images/tools_progress.sh
