# Benchmarks: shipped, never run as tests.
EXTRA_DIST += bench/mkfs.sh
