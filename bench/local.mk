# Benchmarks: shipped, never run as tests.
EXTRA_DIST += bench/mkfs.sh
EXTRA_DIST += bench/fsck.sh
EXTRA_DIST += bench/age.c
EXTRA_DIST += bench/gc-replay.sh bench/gc-state.sh bench/gc-sim.sh
EXTRA_DIST += bench/fuzz-fields.sh
EXTRA_DIST += bench/sload.sh bench/resize.sh bench/blocksize.sh
# bench/populate: many small inodes through lib/write/txn.c, for fsck-scale.sh and fsck_many.sh
noinst_PROGRAMS += bench/populate
bench_populate_SOURCES = bench/populate.c
bench_populate_LDADD = $(HELPER_LIBS)
