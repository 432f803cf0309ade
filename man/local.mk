# Man pages: .in templates filled with the version and date.
man_MANS += man/mkfs.f2fs.8
EXTRA_DIST += man/mkfs.f2fs.8.in
CLEANFILES += $(man_MANS)
MAN_DATE = $(shell date -u -d "@$${SOURCE_DATE_EPOCH:-$$(date +%s)}" +%Y-%m-%d 2>/dev/null || date -u +%Y-%m-%d)
man/%.8: $(srcdir)/man/%.8.in
	$(AM_V_GEN)$(MKDIR_P) man && sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@DATE@|$(MAN_DATE)|g' $< > $@
