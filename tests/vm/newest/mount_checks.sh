#!/bin/sh
# tests/vm/mount_checks.sh under Debian's newest kernel (tests/vm/fetch-kernel.sh): the
# mount-time checks it judges are those of Linux 7.3, so it runs under that kernel only.
ZF2FS_VM_KERNEL=newest exec sh "${top_srcdir:-$(dirname "$0")/../../..}/tests/vm/mount_checks.sh"
