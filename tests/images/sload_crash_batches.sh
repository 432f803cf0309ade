#!/bin/bash
# Crash safety of a load that spans several flushes: sload_crash.sh with the load's
# transaction flushed every 4 queued blocks or inodes (ZF2FS_LOAD_FLUSH), as a tree of
# more than 4096 inodes or 64 MiB is in real use (some 145 writes in 19 flushes and the
# commit).  Each of the first 20 writes (the first flushes) fails in one run, then every
# fourth, and each of the last 30 (the last flushes and the commit); each run must leave
# the old volume or the whole new tree.  Loads committed every batch before they were one
# transaction: this found part of the tree there at write 19.
CRASH_SIZE=256M CRASH_FLUSH=4 CRASH_FLUSHES=10 CRASH_EVERY=4 CRASH_ALL=20 CRASH_LAST=30
# under the sanitizers, unless ZF2FS_FULL=1: the first 20 (the write that found the bug
# among them), every 8th and the last 15
[ -n "${ASAN_OPTIONS:-}" ] && [ "${ZF2FS_FULL:-0}" != 1 ] && CRASH_EVERY=8 CRASH_LAST=15
. "$(dirname "$0")/sload_crash.sh"
