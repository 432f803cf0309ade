# lib/format: what needs no device: the superblock's rules, checksums, name hashes and
# casefolding, features, layout maths, the label's encoding, compression codecs, quota
# files (their tree format and usage counts), chunked bitmaps, the error reason, the
# library's log and the numbers the block size decides.
lib_libzf2fs_la_SOURCES += \
	lib/format/crc32.c lib/format/hash.c lib/format/casefold.c lib/format/casefold_p.h \
	lib/format/features.c lib/format/writable.c lib/format/super.c lib/format/super_p.h lib/format/label.c \
	lib/format/layout.c lib/format/layout_json.c lib/format/layout_p.h \
	lib/format/compress.c lib/format/lzo_decompress.c lib/format/lzo_p.h \
	lib/format/quota_file.c lib/format/bitmap.c lib/format/inode_p.h lib/format/why.c lib/format/why_p.h lib/format/log.c lib/format/geometry.c \
	lib/format/layout_v10.c lib/format/abi_v10_p.h
