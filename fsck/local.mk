# fsck.f2fs: passes, the problem table and the crash-safe repair writer.
sbin_PROGRAMS += fsck/fsck.f2fs
fsck_fsck_f2fs_SOURCES = fsck/main.c fsck/options.c fsck/tune.c fsck/file_map.c fsck/fsck.h fsck/problem.c fsck/pass_super.c \
	fsck/pass_tables.c fsck/pass_tree.c fsck/pass_fields.c fsck/pass_acl.c fsck/pass_dentry_restore.c fsck/pass_dirs.c fsck/dir_blocks.c fsck/pass_links.c \
	fsck/pass_accounting.c fsck/pass_zoned.c fsck/pass_quota.c fsck/repair.c fsck/rollforward.c fsck/dirmap.c \
	fsck/natmap.c fsck/prefetch.c fsck/rebuild.c
fsck_fsck_f2fs_LDADD = $(HELPER_LIBS) -lpthread
man_MANS += man/fsck.f2fs.8
EXTRA_DIST += man/fsck.f2fs.8.in
