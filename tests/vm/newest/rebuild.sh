#!/bin/sh
# tests/vm/rebuild.sh under Debian's newest kernel (tests/vm/fetch-kernel.sh).
ZF2FS_VM_KERNEL=newest exec sh "${top_srcdir:-$(dirname "$0")/../../..}/tests/vm/rebuild.sh"
