# lib/read: the volume handle (open, the checkpoint in force, NAT and SIT), node trees,
# directories, files (compressed ones too), xattrs, quota files, the volume's zones.
lib_libzf2fs_la_SOURCES += \
	lib/read/volume.c lib/read/volume_p.h lib/read/checkpoint.c lib/read/sit_table.c \
	lib/read/nat_bits.c lib/read/vol_where.c lib/read/vol_zones.c lib/read/node.c \
	lib/read/dir.c lib/read/file_read.c lib/read/file_read_compr.c lib/read/file_read_p.h lib/read/file_extents.c \
	lib/read/xattr_read.c lib/read/quota_read.c lib/read/preload.c \
	lib/read/node_scan.c
