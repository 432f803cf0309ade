#!/bin/bash
# Crash safety of a load that spans several flushes: sload_crash.sh with the load's
# transaction flushed every 4 queued blocks or inodes (ZF2FS_LOAD_FLUSH), as a tree of
# more than 4096 inodes or 64 MiB is in real use.  Every write of the load up to the
# end of the second flush fails in one run, then every third and each of the last 40
# (the last flushes and the commit); each run must leave the old volume or the whole new
# tree.  Before loads were one transaction, this found part of the tree committed.
CRASH_SIZE=256M CRASH_FLUSH=4 CRASH_FLUSHES=10 CRASH_EVERY=3 CRASH_ALL=30 CRASH_LAST=40
. "$(dirname "$0")/sload_crash.sh"
