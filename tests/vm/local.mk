# Placeholder so the tree configures; the kernel bench work replaces this file.
