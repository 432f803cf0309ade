# Benchmarks: shipped, never run as tests.
EXTRA_DIST += bench/mkfs.sh
EXTRA_DIST += bench/fsck.sh
EXTRA_DIST += bench/age.c
