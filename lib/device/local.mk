# lib/device: image files, block devices, zoned devices (libzbd), Android sparse images.
lib_libzf2fs_la_SOURCES += \
	lib/device/device.c lib/device/device_probe.c lib/device/device_p.h \
	lib/device/zoned.c lib/device/simg.c
