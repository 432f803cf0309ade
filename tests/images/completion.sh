#!/bin/bash
# The bash completion (completion/zf2fs.bash): it parses (bash -n), registers all four
# tools, offers gc.f2fs's commands and the fixed values of options, and for every tool
# offers exactly the options its --help lists (so a new option without completion, or a
# completion for an option that is gone, fails here).
. "$(dirname "$0")/lib.sh"

comp=$top_srcdir/completion/zf2fs.bash
[ -f "$comp" ] || hard_error "no $comp"
bash -n "$comp" && tap_ok "bash -n accepts the completion file" || tap_fail "bash -n: syntax error in $comp"

# complete LINE: the words the completion offers for LINE (the last word is completed;
# a trailing space starts a new, empty word), sorted, one per line, in a fresh bash.
complete_line() {
	bash -c '
		. "$1" || exit 99
		read -r -a COMP_WORDS <<< "$2"
		case $2 in *" ") COMP_WORDS+=("") ;; esac
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$2 COMP_POINT=${#2}
		spec=$(complete -p "${COMP_WORDS[0]}") || exit 98
		fn=${spec#*-F }; fn=${fn%% *}
		"$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' complete_line "$comp" "$1" | sed '/^$/d' | sort -u
}

# help_options CMD...: the options CMD --help lists (its option column only).
help_options() {
	"$@" --help | grep -E '^ +-' | sed -E 's/^ +//; s/  .*//' |
		grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[ ,]*//' | sort -u
}

# same NAME WANT_FILE GOT_FILE
same() {
	if cmp -s "$2" "$3"; then
		tap_ok "$1"
	else
		tap_fail "$1: $(diff "$2" "$3" | grep '^[<>]' | tr '\n' ' ' | sed 's/</missing:/g; s/>/extra:/g')"
	fi
}

for t in mkfs.f2fs fsck.f2fs dump.f2fs gc.f2fs sload.f2fs defrag.f2fs resize.f2fs f2fs_io fibmap.f2fs \
	f2fs_metadump f2fs_mdrestore; do
	bash -c '. "$1" && complete -p "$2"' x "$comp" "$t" > /dev/null 2>&1 &&
		tap_ok "$t has a completion" || tap_fail "$t: no completion registered"
done

help_options "$MKFS" > "$TEST_TMP/want"
complete_line "mkfs.f2fs -" > "$TEST_TMP/got"
same "mkfs.f2fs: options as in --help" "$TEST_TMP/want" "$TEST_TMP/got"
help_options "$FSCK" > "$TEST_TMP/want"
complete_line "fsck.f2fs -f -" > "$TEST_TMP/got"
same "fsck.f2fs: options as in --help" "$TEST_TMP/want" "$TEST_TMP/got"
help_options "$OUR_BIN/dump.f2fs" > "$TEST_TMP/want"
complete_line "dump.f2fs --json -" > "$TEST_TMP/got"
same "dump.f2fs: options as in --help" "$TEST_TMP/want" "$TEST_TMP/got"

GC=$OUR_BIN/gc.f2fs
# gc.f2fs's commands are the words after "gc.f2fs" on its usage lines.
"$GC" --help | sed -n 's/^\(Usage:\)\{0,1\} *gc\.f2fs \([a-z]*\).*/\2/p' | sort -u > "$TEST_TMP/want"
[ "$(wc -l < "$TEST_TMP/want")" -ge 4 ] || hard_error "cannot read gc.f2fs's commands from --help"
complete_line "gc.f2fs " > "$TEST_TMP/got"
same "gc.f2fs: its commands" "$TEST_TMP/want" "$TEST_TMP/got"
printf 'replay\n' > "$TEST_TMP/want"
complete_line "gc.f2fs re" > "$TEST_TMP/got"
same "gc.f2fs re<TAB>: replay" "$TEST_TMP/want" "$TEST_TMP/got"
help_options "$GC" > "$TEST_TMP/want"
complete_line "gc.f2fs replay img -" > "$TEST_TMP/got"
same "gc.f2fs replay: options as in --help" "$TEST_TMP/want" "$TEST_TMP/got"
help_options "$GC" simulate > "$TEST_TMP/want"
complete_line "gc.f2fs simulate --size 1G -" > "$TEST_TMP/got"
same "gc.f2fs simulate: options as in simulate --help" "$TEST_TMP/want" "$TEST_TMP/got"
printf 'atgc\ncb\ngreedy\n' > "$TEST_TMP/want"
complete_line "gc.f2fs replay img --policy " > "$TEST_TMP/got"
same "gc.f2fs --policy: its values" "$TEST_TMP/want" "$TEST_TMP/got"
# inject.f2fs: every long option its --help names is offered, and --fuzz's verbs.
"$OUR_BIN/inject.f2fs" --help | grep -oE -- '--[a-z-]+' | sort -u > "$TEST_TMP/want"
complete_line "inject.f2fs --" | grep -- '^--' | grep -Fxf "$TEST_TMP/want" | sort -u > "$TEST_TMP/got"
same "inject.f2fs: the long options of its --help" "$TEST_TMP/want" "$TEST_TMP/got"
complete_line "inject.f2fs --node --fuzz " | grep -qx middlebit && tap_ok "inject.f2fs --fuzz: its verbs" ||
	tap_fail "inject.f2fs --fuzz does not offer middlebit"
"$OUR_BIN/f2fslabel" --help | grep -oE -- ' -(-[a-z]+|[a-zA-Z])\b' | sed 's/^ //' | sort -u > "$TEST_TMP/want"
complete_line "f2fslabel -" > "$TEST_TMP/got"
same "f2fslabel: options as in --help" "$TEST_TMP/want" "$TEST_TMP/got"
help_options "$OUR_BIN/sload.f2fs" > "$TEST_TMP/want"
complete_line "sload.f2fs -f src -" > "$TEST_TMP/got"
same "sload.f2fs: options as in --help" "$TEST_TMP/want" "$TEST_TMP/got"
help_options "$OUR_BIN/defrag.f2fs" > "$TEST_TMP/want"
complete_line "defrag.f2fs -d 1 -" > "$TEST_TMP/got"
same "defrag.f2fs: options as in --help" "$TEST_TMP/want" "$TEST_TMP/got"
help_options "$OUR_BIN/resize.f2fs" > "$TEST_TMP/want"
complete_line "resize.f2fs -d 1 -" > "$TEST_TMP/got"
same "resize.f2fs: options as in --help" "$TEST_TMP/want" "$TEST_TMP/got"
help_options "$OUR_BIN/f2fs_metadump" > "$TEST_TMP/want"
complete_line "f2fs_metadump -o -" > "$TEST_TMP/got"
same "f2fs_metadump: options as in --help" "$TEST_TMP/want" "$TEST_TMP/got"
help_options "$OUR_BIN/f2fs_mdrestore" > "$TEST_TMP/want"
complete_line "f2fs_mdrestore -q -" > "$TEST_TMP/got"
same "f2fs_mdrestore: options as in --help" "$TEST_TMP/want" "$TEST_TMP/got"
# f2fs_io: its commands (the names of its command list) and its options; fibmap.f2fs.
IO=$OUR_BIN/f2fs_io
{ echo help; "$IO" help | sed -n 's/^  \([a-z_]*\) .*/\1/p'; } | sort -u > "$TEST_TMP/want"
[ "$(wc -l < "$TEST_TMP/want")" -ge 40 ] || hard_error "cannot read f2fs_io's commands from its list"
complete_line "f2fs_io " > "$TEST_TMP/got"
same "f2fs_io: its commands" "$TEST_TMP/want" "$TEST_TMP/got"
help_options "$IO" > "$TEST_TMP/want"
complete_line "f2fs_io -" > "$TEST_TMP/got"
same "f2fs_io: options as in --help" "$TEST_TMP/want" "$TEST_TMP/got"
printf 'get\nset\nunset\n' > "$TEST_TMP/want"
complete_line "f2fs_io pinfile " > "$TEST_TMP/got"
same "f2fs_io pinfile: its verbs" "$TEST_TMP/want" "$TEST_TMP/got"
help_options "$OUR_BIN/fibmap.f2fs" > "$TEST_TMP/want"
complete_line "fibmap.f2fs -" > "$TEST_TMP/got"
same "fibmap.f2fs: options as in --help" "$TEST_TMP/want" "$TEST_TMP/got"
complete_line "mkfs.f2fs -O " | grep -qx project_quota && tap_ok "mkfs.f2fs -O: feature names" ||
	tap_fail "mkfs.f2fs -O does not offer project_quota"
# An image argument completes to file names.
touch "$TEST_TMP/zf2fs-completion.img"
( cd "$TEST_TMP" && complete_line "fsck.f2fs -n zf2fs-compl" ) | grep -qx zf2fs-completion.img &&
	tap_ok "a device argument completes file names" || tap_fail "no file name completion"
tap_summary
