# Image tests: our mkfs.f2fs checked against the reference f2fs-tools 1.15
# (fsck must find every image clean; the area layout must match theirs) and
# against the reserved/overprovision rules of ../shared/specs/layout.md.
# The scripts find our tools through $top_builddir (AM_TESTS_ENVIRONMENT),
# write only under $TMPDIR, and exit 77 when the reference tools are missing.
IMAGE_TESTS = tests/images/mkfs_matrix.sh tests/images/mkfs_errors.sh tests/images/fsck_cases.sh \
	tests/images/fsck_crash.sh tests/images/fsck_cli.sh tests/images/fsck_ref_images.sh
TESTS += $(IMAGE_TESTS)
EXTRA_DIST += $(IMAGE_TESTS) tests/images/lib.sh
EXTRA_DIST += tests/images/fsck_cases.sh tests/images/make_case.sh tests/images/base \
	$(wildcard $(srcdir)/tests/images/f_*)

# The field-fuzz group: a quick subset here; bench/fuzz-fields.sh runs the whole matrix.
TESTS += tests/images/fuzz_fields.sh tests/images/inject.sh
EXTRA_DIST += tests/images/fuzz_fields.sh tests/images/inject.sh tests/images/fuzz_fields_lib.sh \
	tests/images/fuzz_fields.roles tests/images/fuzz_fields.known bench/fuzz-fields.sh \
	tests/vm/fuzz_age.sh tests/vm/fuzz_verify.sh
