# fsck.f2fs: passes, the problem table and the crash-safe repair writer.
sbin_PROGRAMS += fsck/fsck.f2fs
fsck_fsck_f2fs_SOURCES = fsck/main.c fsck/options.c fsck/tune.c fsck/file_map.c fsck/fsck.h fsck/problem.c fsck/pass1_super.c \
	fsck/pass3_tables.c fsck/pass4_tree.c fsck/pass4_fields.c fsck/pass4_dentry_restore.c fsck/pass5_dirs.c fsck/pass6_links.c \
	fsck/pass7_accounting.c fsck/pass8_zoned.c fsck/pass9_quota.c fsck/repair.c fsck/rollforward.c fsck/dirmap.c \
	fsck/natmap.c
fsck_fsck_f2fs_LDADD = $(HELPER_LIBS)
man_MANS += man/fsck.f2fs.8
EXTRA_DIST += man/fsck.f2fs.8.in
