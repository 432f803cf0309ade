# Documentation pages, shipped in the dist tarball.
EXTRA_DIST += docs/README.md
EXTRA_DIST += docs/architecture.md
EXTRA_DIST += docs/benchmarks.md
EXTRA_DIST += docs/compat.md
EXTRA_DIST += docs/defrag.md
EXTRA_DIST += docs/fsck.md
EXTRA_DIST += docs/gc-simulate.md
EXTRA_DIST += docs/gc.md
EXTRA_DIST += docs/kernel-content.md
EXTRA_DIST += docs/kernels.md
EXTRA_DIST += docs/layout.md
EXTRA_DIST += docs/metadump.md
EXTRA_DIST += docs/packaging.md
EXTRA_DIST += docs/resize.md
EXTRA_DIST += docs/sload.md
EXTRA_DIST += docs/testing.md
EXTRA_DIST += docs/zoned.md
