# The Debian packaging travels in the dist tarball, so that a tarball builds packages too
# (quickstart check builds them from one).
EXTRA_DIST += debian/changelog debian/control debian/copyright debian/rules \
	debian/source/format debian/not-installed debian/zf2fs-tools.install \
	debian/libzf2fs1.install debian/libzf2fs1.symbols debian/libzf2fs-dev.install debian/local.mk debian/check-packages
