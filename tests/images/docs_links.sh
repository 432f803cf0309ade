#!/bin/bash
# docs_links.sh - README.md stays the front door: at most 1,200 words, a link to every
# tool's man page, and every relative link in README.md, docs/ and tests/README.md
# leads to a file of the tree (none climbs out of it).  Checked on the tree, then on a
# copy broken on purpose, which must be refused.
. "$(dirname "$0")/lib.sh"

# check_docs ROOT: one line per broken rule; 0 when there is none.
check_docs()
{
	local root=$1 bad=0 words f link target dir

	words=$(wc -w < "$root/README.md")
	if [ "$words" -gt 1200 ]; then
		echo "README.md: $words words, more than 1200"
		bad=1
	fi
	for f in "$root"/man/*.8.in; do
		f=${f##*/}
		grep -q "(man/$f)" "$root/README.md" ||
			{ echo "README.md: no link to man/$f"; bad=1; }
	done
	for f in "$root/README.md" "$root"/docs/*.md "$root/tests/README.md"; do
		dir=$(dirname "$f")
		while IFS= read -r link; do
			link=${link%%#*}
			[ -n "$link" ] || continue
			case $link in *://* | mailto:*) continue ;; esac
			target=$(realpath -m "$dir/$link")
			case $target in
			"$root"/*) [ -e "$target" ] ||
					{ echo "${f#"$root"/}: link to $link: no such file"; bad=1; } ;;
			*) echo "${f#"$root"/}: link to $link leaves the tree"; bad=1 ;;
			esac
		done < <(grep -o '](\([^)]*\))' "$f" | sed 's/^](//; s/)$//')
	done
	return $bad
}

root=$(realpath "$top_srcdir")
if out=$(check_docs "$root"); then
	tap_ok "README.md is short, links every man page, and every docs link resolves"
else
	tap_fail "README.md or docs/ break their rules:"
	printf '%s\n' "$out"
fi

# The checker must refuse what breaks the rules.
copy=$TEST_TMP/tree
mkdir -p "$copy/docs" "$copy/man" "$copy/tests"
cp "$root/README.md" "$copy/"
cp "$root"/docs/*.md "$copy/docs/"
cp "$root"/man/*.8.in "$copy/man/"
cp "$root/tests/README.md" "$copy/tests/"
sed -i 's|(man/gc.f2fs.8.in)|(man/gc.f2fs.8)|' "$copy/README.md"
printf '[spec](../../shared/specs/layout.md)\n' >> "$copy/docs/layout.md"
yes word | head -n 1300 >> "$copy/README.md"
out=$(check_docs "$copy") && tap_fail "a broken copy was let through"
for want in "README.md: no link to man/gc.f2fs.8.in" "more than 1200" \
	"docs/layout.md: link to ../../shared/specs/layout.md leaves the tree" \
	"README.md: link to man/gc.f2fs.8: no such file"; do
	[[ $out == *"$want"* ]] && tap_ok "refused: $want" || tap_fail "not refused: $want ($out)"
done

tap_summary
