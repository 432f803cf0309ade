# f2fslabel: print or set the volume label.
sbin_PROGRAMS += tools/f2fslabel
tools_f2fslabel_SOURCES = tools/f2fslabel.c
tools_f2fslabel_LDADD = $(HELPER_LIBS)

man_MANS += man/f2fslabel.8
EXTRA_DIST += man/f2fslabel.8.in
