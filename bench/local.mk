# Benchmarks: shipped, never run as tests.
EXTRA_DIST += bench/mkfs.sh
EXTRA_DIST += bench/fsck.sh
EXTRA_DIST += bench/age.c
EXTRA_DIST += bench/gc-replay.sh bench/gc-state.sh bench/gc-sim.sh
EXTRA_DIST += bench/fuzz-fields.sh
EXTRA_DIST += bench/sload.sh
