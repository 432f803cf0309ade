#!/bin/bash
# fsck_case_image.sh CASE OUT: write the corrupted image of tests/images/corpus/CASE to OUT
# (for the kernel bench, which checks fsck's repairs of some corpus cases in Linux).
. "$(dirname "$0")/lib.sh"

fsck_case_image "$1" "$2"
