#!/bin/bash
# scripts_parse.sh - every shell script of the tree parses under the shells that run it.
# Scripts with a #!/bin/sh line, and the kernel bench's libraries they source
# (tests/vm/, no #! line), run under dash when make runs them, but people run them by
# hand with bash too: a script that bash cannot parse then fails in odd places, or, when the
# parse error sits in a sourced library, a check becomes "command not found" and a
# test passes without comparing anything.  So /bin/sh scripts must parse under both
# dash and bash; bash scripts, and the other libraries (sourced by bash scripts), under
# bash.  The checker is tried first on a script
# that dash reads and bash does not (an apostrophe inside "${x:+...}"), which it must
# refuse.
. "$(dirname "$0")/lib.sh"

# shells FILE: the shells that must parse FILE
shells() {
	local first
	first=$(head -n 1 "$1")
	case $first in
	'#!/bin/bash'* | '#!/usr/bin/env bash'*) echo bash ;;
	'#!'*) echo dash bash ;;
	*) case $1 in */tests/vm/*) echo dash bash ;; *) echo bash ;; esac ;;
	esac
}

# check FILE: prints the shells that cannot parse FILE
check() {
	local sh
	for sh in $(shells "$1"); do
		"$sh" -n "$1" 2>/dev/null || echo "$sh"
	done
}

bad_sample=$(mktemp)
trap 'rm -f "$bad_sample"' EXIT
# shellcheck disable=SC2016
printf '#!/bin/sh\nx=1\necho "a${x:+ b'"'"'s c}"\n' >"$bad_sample"
[ "$(check "$bad_sample")" = bash ] || hard_error "the checker did not refuse a script bash cannot parse"

n=0 bad=0
while IFS= read -r f; do
	case $f in *.sh | quickstart | .ci/run) ;; *) continue ;; esac
	n=$((n + 1))
	shells=$(check "$top_srcdir/$f")
	if [ -n "$shells" ]; then
		echo "FAIL: $f does not parse under $(echo $shells)"
		bad=$((bad + 1))
	fi
done < <(cd "$top_srcdir" && find . \( -name .git -o -name cache -o -name out -o -name '_*' \) -prune -o \
	\( -name '*.sh' -o -path ./quickstart -o -path ./.ci/run \) -type f -printf '%P\n')
[ "$n" -gt 50 ] || hard_error "only $n scripts found"
[ "$bad" -eq 0 ] || hard_error "$bad of $n scripts do not parse"
echo "PASS: $n scripts parse under their shells"
