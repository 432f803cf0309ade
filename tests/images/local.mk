# Image tests: mkfs matrix checked by the reference fsck and our own tools.
TESTS += tests/images/mkfs_matrix.sh tests/images/mkfs_errors.sh
EXTRA_DIST += tests/images/mkfs_matrix.sh tests/images/mkfs_errors.sh tests/images/lib.sh
