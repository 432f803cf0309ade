# Benchmarks: shipped, never run as tests.
EXTRA_DIST += bench/mkfs.sh
EXTRA_DIST += bench/fsck.sh bench/fsck-cold.sh bench/metadump.sh bench/rebuild.sh
EXTRA_DIST += bench/age.c
EXTRA_DIST += bench/gc-replay.sh bench/gc-state.sh bench/gc-sim.sh
EXTRA_DIST += bench/fuzz-fields.sh
EXTRA_DIST += bench/sload.sh bench/resize.sh bench/blocksize.sh
# bench/populate: many small inodes through lib/write/txn.c, for fsck-scale.sh and fsck_many.sh
noinst_PROGRAMS += bench/populate
bench_populate_SOURCES = bench/populate.c
bench_populate_LDADD = $(HELPER_LIBS)
# bench/fsck-floor: reads the blocks a full fsck must read, in address order, for
# fsck.sh and fsck-scale.sh (the floor of a cold full check)
noinst_PROGRAMS += bench/fsck-floor
bench_fsck_floor_SOURCES = bench/fsck-floor.c
bench_fsck_floor_LDADD = $(HELPER_LIBS)
