# tests/compat: the command lines of the programs that call f2fs-tools (systemd, udisks'
# libblockdev, GParted, kpmcore, Android's fs_mgr and image scripts, OpenWrt, Buildroot,
# genimage, OpenEmbedded, dracut, mkinitcpio), run against ours and Debian's f2fs-tools;
# see tests/compat/README.md.
COMPAT_TESTS =

# mkfs.f2fs callers
COMPAT_TESTS += tests/compat/mkfs_callers.sh tests/compat/mkfs_options.sh

# fsck.f2fs callers
COMPAT_TESTS += tests/compat/fsck_callers.sh tests/compat/fsck_options.sh tests/compat/fsck_file_map.sh

# dump.f2fs, resize.f2fs, sload.f2fs, defrag.f2fs and f2fslabel callers
COMPAT_TESTS += tests/compat/tools_callers.sh tests/compat/tools_options.sh tests/compat/android_ro.sh

# f2fs_io and fibmap.f2fs
COMPAT_TESTS += tests/compat/f2fs_io.sh

TESTS += $(COMPAT_TESTS)
EXTRA_DIST += $(COMPAT_TESTS) tests/compat/lib.sh tests/compat/README.md
