# tests/vm: the kernel bench.  Each scenario boots Debian's kernel in QEMU
# (TCG) with our images attached; see tests/vm/README.md.  Scenarios skip
# (exit 77) when qemu, the kernel or busybox-static is missing.

# The guest has only busybox: the workload helper is one static binary.
# (-all-static: libtool's -static would still link libc dynamically;
# no sanitizers, they do not link statically.)
check_PROGRAMS += tests/vm/zwork
tests_vm_zwork_SOURCES = tests/vm/zwork.c tests/vm/zwork.h tests/vm/zwork_content.c \
	tests/vm/sha256.c tests/vm/sha256.h
tests_vm_zwork_CFLAGS = -std=gnu11 $(WARN_CFLAGS)
tests_vm_zwork_LDFLAGS = -all-static

VM_TESTS = \
	tests/vm/basic.sh \
	tests/vm/features.sh \
	tests/vm/compat_mount.sh \
	tests/vm/aging.sh \
	tests/vm/unclean.sh \
	tests/vm/powercut.sh \
	tests/vm/fsck_repair.sh \
	tests/vm/quota.sh \
	tests/vm/zoned_gc_replay.sh \
	tests/vm/zoned_gc_window.sh \
	tests/vm/zoned_counts.sh \
	tests/vm/writers.sh \
	tests/vm/sload.sh \
	tests/vm/sload_compress.sh \
	tests/vm/frag.sh \
	tests/vm/resize.sh \
	tests/vm/content.sh \
	tests/vm/content_repair.sh \
	tests/vm/f2fs_io.sh \
	tests/vm/rebuild.sh

TESTS += $(VM_TESTS)
# GC: victims traced in the VM against gc.f2fs replay
GC_VM_TESTS = tests/vm/gc_replay.sh tests/vm/gc_sim_validate.sh
# gc.f2fs collect (the block mover) against the kernel's foreground GC
GC_VM_TESTS += tests/vm/gc_collect.sh
TESTS += $(GC_VM_TESTS)
EXTRA_DIST += $(GC_VM_TESTS) tests/vm/gc_lib.sh
# zoned devices: emulated ZNS and null_blk
ZONED_VM_TESTS = tests/vm/zoned_zns64.sh tests/vm/zoned_zns8.sh tests/vm/zoned_nullb.sh \
	tests/vm/zoned_parity.sh
TESTS += $(ZONED_VM_TESTS)
EXTRA_DIST += $(ZONED_VM_TESTS) tests/vm/zoned_guest.sh
# resize.f2fs on zoned volumes in the kernel (null_blk with conventional zones, and a
# conventional disk + NVMe ZNS).  It was out of the suite while Linux's aging step lost
# writes on the ZNS namespace (no mq-deadline: see guest-init.sh).
TESTS += tests/vm/resize_zoned.sh
EXTRA_DIST += tests/vm/resize_zoned.sh
# The scenarios that judge the format, again under Debian's newest kernel
# (tests/vm/fetch-kernel.sh; ZF2FS_VM_KERNEL=newest): every mkfs feature set mounted and
# aged, the kernel-made content of every feature, the power cut's roll-forward, resize,
# sload, defrag, collect, GC replay and simulation, zoned volumes on ZNS and null_blk,
# fsck --rebuild.
NEWEST_VM_TESTS = tests/vm/newest/features.sh tests/vm/newest/aging.sh \
	tests/vm/newest/content.sh tests/vm/newest/powercut.sh tests/vm/newest/unclean.sh \
	tests/vm/newest/resize.sh tests/vm/newest/sload.sh tests/vm/newest/frag.sh \
	tests/vm/newest/gc_collect.sh tests/vm/newest/gc_replay.sh \
	tests/vm/newest/gc_sim_validate.sh tests/vm/newest/zoned_zns64.sh \
	tests/vm/newest/zoned_nullb.sh tests/vm/newest/zoned_gc_replay.sh \
	tests/vm/newest/zoned_gc_window.sh tests/vm/newest/device_alias.sh \
	tests/vm/newest/f2fs_io.sh tests/vm/newest/inode_checks.sh \
	tests/vm/newest/mount_checks.sh tests/vm/newest/rebuild.sh
TESTS += $(NEWEST_VM_TESTS)
EXTRA_DIST += $(NEWEST_VM_TESTS) tests/vm/fetch-kernel.sh tests/vm/device_alias.sh \
	tests/vm/inode_checks.sh tests/vm/mount_checks.sh
# Under Debian's arm64 kernel with 16 KiB pages (tests/vm/fetch-kernel.sh --flavour
# arm64-16k; qemu-system-aarch64): the judge of 16 KiB blocks.
ARM64_16K_VM_TESTS = tests/vm/blocks16k.sh
TESTS += $(ARM64_16K_VM_TESTS)
EXTRA_DIST += $(ARM64_16K_VM_TESTS)
# Every scenario that boots the kernel: quickstart check runs these in the normal build
# and the rest of the suite (HOST_TESTS, Makefile.am) in the sanitizer build.
KERNEL_TESTS = $(VM_TESTS) $(GC_VM_TESTS) $(ZONED_VM_TESTS) tests/vm/resize_zoned.sh \
	$(NEWEST_VM_TESTS) $(ARM64_16K_VM_TESTS)
# The second kernel's run of scenarios whose other run stays in quickstart check's
# subset; ZF2FS_FULL=1 runs them too (print-kernel-tests, Makefile.am).  Under both
# kernels stay the judges of the format as each kernel reads it (features, power cut
# and unclean roll-forward, zoned mounts) and the GC replays, which follow each
# kernel's own policy.  Content, resize, collect and the WAF simulation stay under the
# newest kernel (Linux 6.1's content is also the host tests' fixture,
# tests/images/base/encrypted.img.xz); aging, fragmentation, sload and the zoned
# volumes' aging under 6.1.
KERNEL_FULL_ONLY = tests/vm/content.sh tests/vm/resize.sh tests/vm/gc_collect.sh \
	tests/vm/gc_sim_validate.sh tests/vm/newest/aging.sh tests/vm/newest/frag.sh \
	tests/vm/newest/sload.sh tests/vm/newest/zoned_zns64.sh tests/vm/newest/zoned_nullb.sh

EXTRA_DIST += \
	$(VM_TESTS) \
	tests/vm/vmlib.sh \
	tests/vm/guest-init.sh \
	tests/vm/guest-lib.sh \
	tests/vm/README.md

# Images, console logs, the cached base initramfs and the fixture of the
# unclean scenario all live in the build tree.
clean-local-vm:
	-rm -rf tests/vm/out tests/vm/cache tests/vm/fixtures

.PHONY: clean-local-vm
EXTRA_DIST += tests/vm/fuzz_age.sh tests/vm/fuzz_verify.sh
