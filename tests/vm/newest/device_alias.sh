#!/bin/sh
# tests/vm/device_alias.sh under Debian's newest kernel (tests/vm/fetch-kernel.sh): device
# aliasing needs Linux 6.13 or later, so it runs under that kernel only.
ZF2FS_VM_KERNEL=newest exec sh "${top_srcdir:-$(dirname "$0")/../../..}/tests/vm/device_alias.sh"
