# lib/move: the block mover (gc.f2fs collect, defrag.f2fs, resize.f2fs) and resize: its
# plan, its steps, the relocated metadata areas.
lib_libzf2fs_la_SOURCES += \
	lib/move/move.c lib/move/move_batch.c \
	lib/move/resize_plan.c lib/move/resize_run.c lib/move/resize_meta.c lib/move/resize_p.h
