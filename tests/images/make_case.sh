#!/bin/bash
# make_case.sh CASE OUT: write the corrupted image of tests/images/CASE to OUT (for the
# kernel bench, which checks fsck's repairs of some corpus cases in Linux).
. "$(dirname "$0")/lib.sh"

fsck_case_image "$1" "$2"
