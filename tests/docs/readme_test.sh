#!/usr/bin/env bash
# README.md as a newcomer reads it:
#   1. it is at most 400 lines, and its relative links (and those of docs/*.md)
#      lead to files that exist, and its #anchors to its headings; links into
#      docs/commands/ are checked once that folder has its README.md;
#   2. every command of its task index runs as written, and
#      scripts/make_pictures.sh still makes the pictures (into a scratch
#      folder): exactly those the README shows, each committed in
#      docs/pictures/, at most 640 pixels wide, all of them under 1 MiB.
# A committed picture whose bytes differ from the new one is a note, not a
# failure (run scripts/make_pictures.sh to renew them).
#
#   tests/docs/readme_test.sh path/to/imgpar
set -euo pipefail

IMGPAR=$(realpath "${1:?usage: readme_test.sh IMGPAR}")
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
README=$ROOT/README.md
failures=0
fail() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
note() { printf 'note: %s\n' "$*"; }

# 1. Length and links.
lines=$(wc -l < "$README")
((lines <= 400)) || fail "README.md has $lines lines, more than 400"
note "README.md: $lines lines, $(wc -w < "$README") words"

anchors=$(grep -E '^#{1,6} ' "$README" | sed -E 's/^#+ //' | tr '[:upper:]' '[:lower:]' |
          sed -E 's/[^a-z0-9 _-]//g; s/ /-/g')
check_links() {  # FILE: its relative links
    local file=$1 dir link target
    dir=$(dirname "$file")
    while IFS= read -r link; do
        link=${link#](}
        link=${link%)}
        case $link in
            http://*|https://*|mailto:*) continue ;;
            '#'*)
                [[ $file == "$README" ]] || continue
                grep -qxF "${link#\#}" <<< "$anchors" || fail "$(basename "$file"): no heading for the link $link"
                continue ;;
        esac
        target=${link%%#*}
        if [[ $target == docs/commands/* || $target == commands/* ]] && [[ ! -f $ROOT/docs/commands/README.md ]]; then
            continue  # the generated reference is not there yet
        fi
        [[ -e $dir/$target ]] || fail "$(realpath --relative-to="$ROOT" "$file"): the link $link leads nowhere"
    done < <(grep -oE '\]\([^) ]+\)' "$file" || true)
}
check_links "$README"
for page in "$ROOT"/docs/*.md; do
    [[ -f $page ]] && check_links "$page"
done
[[ -f $ROOT/docs/commands/README.md ]] || note "docs/commands/README.md is not there yet: links into docs/commands/ not checked"

# 2. The task index's commands and the pictures.
WORK=$(mktemp -d "${TMPDIR:-/tmp}/imgpar-readme.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
if ! "$ROOT/scripts/make_pictures.sh" --imgpar "$IMGPAR" --out "$WORK/pictures"; then
    fail "scripts/make_pictures.sh failed (above: the recipe or the picture)"
else
    shown=$(grep -oE 'docs/pictures/[A-Za-z0-9_.-]+' "$README" | sed 's|docs/pictures/||' | sort -u)
    made=$(cd "$WORK/pictures" && printf '%s\n' * | sort)
    [[ $shown == "$made" ]] ||
        fail "README.md shows pictures [$(tr '\n' ' ' <<< "$shown")] but make_pictures.sh makes [$(tr '\n' ' ' <<< "$made")]"
    for f in $made; do
        width=$("$IMGPAR" info --json "$WORK/pictures/$f" | sed -E 's/.*"width":([0-9]+).*/\1/')
        ((width <= 640)) || fail "docs/pictures/$f is $width pixels wide, more than 640"
        if [[ ! -f $ROOT/docs/pictures/$f ]]; then
            fail "docs/pictures/$f is not committed: run scripts/make_pictures.sh"
        elif ! cmp -s "$ROOT/docs/pictures/$f" "$WORK/pictures/$f"; then
            note "docs/pictures/$f differs from what make_pictures.sh makes now: run scripts/make_pictures.sh to renew it"
        fi
    done
    bytes=$(cat "$ROOT"/docs/pictures/* 2>/dev/null | wc -c)
    ((bytes < 1048576)) || fail "docs/pictures/ holds $bytes bytes, more than 1 MiB"
fi

if ((failures)); then
    printf '%d failed\n' "$failures"
    exit 1
fi
echo "README.md: task index and pictures OK"
