# lib/gc: a volume's GC state (model, section index, cost tree), the kernel's victim
# policies and their replay, and the simulator of a workload's GC.
lib_libzf2fs_la_SOURCES += \
	lib/gc/model.c lib/gc/index.c lib/gc/ctree.c lib/gc/select.c lib/gc/gc_p.h \
	lib/gc/simulate.c lib/gc/simulate_p.h lib/gc/ssr.c lib/gc/simulate_v10.c
