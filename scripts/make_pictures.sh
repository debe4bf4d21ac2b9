#!/usr/bin/env bash
# Makes the pictures of README.md's task index (docs/pictures/) from the
# samples, so that they show what the commands give. It runs every command of
# the task index as it is written, in a scratch folder holding the files the
# recipes name (made from samples/ by imgpar), then puts inputs and results
# side by side with imgpar itself (crop, resize, transpose, pad, chain; the
# panes are joined as BMP rows).
#
#   scripts/make_pictures.sh [--imgpar BIN] [--out DIR] [--recipes-only] [--keep]
#
#   --imgpar BIN     the imgpar to run (default: build/imgpar)
#   --out DIR        where the pictures go (default: docs/pictures)
#   --recipes-only   run the task index's commands, make no pictures
#   --keep           keep the scratch folder and print its path
#
# The scratch folder holds, for the recipes:
#   photos/          camera.jpg, chelsea.jpg and rocket.jpg, from samples/
#   photo.jpg        chelsea.jpg again
#   scan.png         a printed page under a shadow, drawn here (samples/ has no scan)
#   scans/           page-1.png: scan.png again
#   scan16.png, .tif scan.png blurred at 16 bits (every bit in use)
#   expected/        chelsea.png and rocket.png, decoded from photos/
#   actual/          chelsea.png the same, rocket.png through a JPEG of quality 40
#   examples/        the repository's examples/
# and imgpar on PATH.
#
# A recipe line that needs what this machine lacks is skipped with a note, and
# so is the rest of its code block (which may use its outputs): sbatch (a Slurm
# cluster; tests/scale/ runs the example under a Slurm it starts), GNU parallel,
# --device gpu without a usable GPU. A line must exit 0, or N where its
# comment says "exits N here".
#
# Exit status: 0 done; 1 a recipe failed or a picture could not be made (the
# line and its output are shown); 2 usage.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
imgpar_bin=$root/build/imgpar
out_dir=$root/docs/pictures
recipes_only=0
keep=0
usage="usage: scripts/make_pictures.sh [--imgpar BIN] [--out DIR] [--recipes-only] [--keep]"
while (($#)); do
    case $1 in
        --imgpar) imgpar_bin=${2:?$usage}; shift 2 ;;
        --out) out_dir=${2:?$usage}; shift 2 ;;
        --recipes-only) recipes_only=1; shift ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) printf '%s\n' "$usage" >&2; exit 2 ;;
    esac
done
say() { printf 'make_pictures: %s\n' "$*" >&2; }
fail() { say "$*"; exit 1; }

[[ -x $imgpar_bin ]] || fail "no imgpar at $imgpar_bin: build it first (scripts/bootstrap.sh) or name it with --imgpar"
imgpar_bin=$(realpath "$imgpar_bin")
readme=$root/README.md
work=$(mktemp -d "${TMPDIR:-/tmp}/imgpar-pictures.XXXXXX")
if ((keep)); then
    trap 'say "scratch folder kept: $work"' EXIT
else
    trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/bin" "$work/run" "$work/panes"
ln -s "$imgpar_bin" "$work/bin/imgpar"
export PATH="$work/bin:$PATH"
export LC_ALL=C.UTF-8
run=$work/run
im() { "$imgpar_bin" -q "$@"; }

# --- BMP helpers: imgpar writes 24-bit BMPs with a 54-byte header, rows bottom up.
le32() {
    local s
    s=$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))
    printf "$s"
}
bmp_header() {  # WIDTH HEIGHT: the header of a 24-bit BMP
    local row=$((($1 * 3 + 3) / 4 * 4))
    printf 'BM'; le32 $((54 + row * $2)); le32 0; le32 54; le32 40; le32 "$1"; le32 "$2"
    printf '\x01\x00\x18\x00'; le32 0; le32 0; le32 0; le32 0; le32 0; le32 0
}
bmp_field() { od -An -t d4 -j "$2" -N 4 "$1" | tr -d ' '; }  # FILE OFFSET: a 32-bit field

# page W H OUT: a page of printed text (a 5x7 font at twice its size) lit
# from the right, with a shadow along its left edge, deepening downwards, and
# a little noise (a fixed sequence), as a 24-bit BMP.
page() {
    local w=$1 h=$2
    {
        bmp_header "$w" "$h"
        LC_ALL=C awk -v W="$w" -v H="$h" '
        BEGIN {
            n = split("A:01110100011000111111100011000110001 B:11110100011000111110100011000111110 " \
                      "C:01110100011000010000100001000101110 D:11100100101000110001100011001011100 " \
                      "E:11111100001000011110100001000011111 F:11111100001000011110100001000010000 " \
                      "G:01110100011000010111100011000101111 H:10001100011000111111100011000110001 " \
                      "I:01110001000010000100001000010001110 J:00111000100001000010000101001001100 " \
                      "K:10001100101010011000101001001010001 L:10000100001000010000100001000011111 " \
                      "M:10001110111010110101100011000110001 N:10001100011100110101100111000110001 " \
                      "O:01110100011000110001100011000101110 P:11110100011000111110100001000010000 " \
                      "Q:01110100011000110001101011001001101 R:11110100011000111110101001001010001 " \
                      "S:01111100001000001110000010000111110 T:11111001000010000100001000010000100 " \
                      "U:10001100011000110001100011000101110 V:10001100011000110001100010101000100 " \
                      "W:10001100011000110101101011010101010 X:10001100010101000100010101000110001 " \
                      "Y:10001100010101000100001000010000100 Z:11111000010001000100010001000011111 " \
                      ".:00000000000000000000000000110001100 ,:00000000000000000000011000010001000", g, " ")
            for (i = 1; i <= n; i++) font[substr(g[i], 1, 1)] = substr(g[i], 3)
            lines = split("THE QUICK|BROWN FOX|JUMPS OVER|THE LAZY DOG.|PACK MY BOX|WITH FIVE|" \
                          "DOZEN LIQUOR|JUGS. SPHINX|OF BLACK|QUARTZ, JUDGE|MY VOW.", text, "|")
            s = 2; pitch = 6 * s; lead = 10 * s; left = 12; top = 14
            for (l = 1; l <= lines; l++)
                for (c = 1; c <= length(text[l]); c++) {
                    ch = substr(text[l], c, 1)
                    if (!(ch in font)) continue
                    for (r = 0; r < 7; r++) for (k = 0; k < 5; k++)
                        if (substr(font[ch], r * 5 + k + 1, 1) == "1")
                            for (dy = 0; dy < s; dy++) for (dx = 0; dx < s; dx++)
                                ink[left + (c - 1) * pitch + k * s + dx, top + (l - 1) * lead + r * s + dy] = 1
                }
            seed = 12345
            for (y = H - 1; y >= 0; y--)
                for (x = 0; x < W; x++) {
                    t = x / (0.55 * W); if (t > 1) t = 1
                    light = (0.25 + 0.75 * sqrt(t)) * (1 - 0.25 * y / H)
                    seed = (seed * 16807) % 2147483647
                    v = (((x, y) in ink) ? 45 : 235) * light + seed % 13 - 6
                    v = int(v + 0.5); if (v < 0) v = 0; if (v > 255) v = 255
                    printf "%c%c%c", v, v, v
                }
        }'
    } > "$3"
}

# montage OUT HEIGHT IMAGE...: the images side by side, each scaled to HEIGHT
# (alpha flattened onto white), 8 white pixels between and around them.
montage() {
    local out=$1 height=$2
    shift 2
    local i=0 n=$# total=0 width f ops
    local panes=()
    for f in "$@"; do
        [[ -f $f ]] || fail "picture $(basename "$out"): $f was not made (did a recipe change?)"
        i=$((i + 1))
        # Transposed, every pane is HEIGHT wide, so their rows stack.
        ops="flatten | resize --height $height | transpose"
        ((i < n)) && ops="$ops | pad --bottom 8 --background white"
        im chain "$ops" "$f" "$work/panes/$i.bmp"
        panes+=("$work/panes/$i.bmp")
        total=$((total + $(bmp_field "$work/panes/$i.bmp" 22)))
    done
    width=$(bmp_field "${panes[0]}" 18)
    {
        bmp_header "$width" "$total"
        for ((i = n - 1; i >= 0; i--)); do tail -c +55 "${panes[$i]}"; done  # the first pane on top
    } > "$work/panes/stack.bmp"
    im chain 'transpose | pad --top 8 --bottom 8 --left 8 --right 8 --background white' \
        "$work/panes/stack.bmp" "$out" --quality 85 --strip
    rm -f "$work/panes/"*.bmp
}

# crop_to OUT GEOMETRY IN: a detail of IN, for a picture.
crop_to() {
    [[ -f $3 ]] || fail "picture: $3 was not made (did a recipe change?)"
    im crop "$3" "$1" "$2"
}

# --- The files the recipes name.
(
    cd "$run"
    mkdir -p photos scans expected actual "$work/home"
    cp "$root/samples/rocket.jpg" photos/
    im convert "$root/samples/chelsea.png" photos/chelsea.jpg
    im convert "$root/samples/camera.png" photos/camera.jpg
    cp photos/chelsea.jpg photo.jpg
    page 184 240 "$work/page.bmp"
    im chain 'grayscale | blur 0x0.6' "$work/page.bmp" scan.png
    cp scan.png scans/page-1.png
    im convert scan.png "$work/wide.png" --depth 16
    im blur "$work/wide.png" scan16.png 0x0.8
    im convert scan16.png scan16.tif
    im convert photos/chelsea.jpg expected/chelsea.png
    im convert photos/rocket.jpg expected/rocket.png
    cp expected/chelsea.png actual/
    im convert photos/rocket.jpg "$work/q40.jpg" --quality 40
    im convert "$work/q40.jpg" actual/rocket.png
    ln -s "$root/examples" examples
)

# --- The task index's commands, block by block.
have_gpu=0
"$imgpar_bin" devices --json 2>/dev/null | grep -q '"usable":true' && have_gpu=1
have_parallel=0
parallel --version 2>/dev/null | grep -q 'GNU parallel' && have_parallel=1

grep -q '^<!-- task index' "$readme" || fail "README.md has no '<!-- task index' marker"
# Each code line of the task index as "BLOCK<TAB>LINE", continuation lines joined.
mapfile -t recipe_lines < <(awk '
    /^<!-- task index/ { on = 1; next }
    /^<!-- end of task index/ { on = 0 }
    on && /^```sh/ { block++; code = 1; next }
    on && code && /^```/ { code = 0; next }
    on && code {
        line = pending $0; pending = ""
        if (line ~ /\\$/) { pending = substr(line, 1, length(line) - 1); next }
        if (line ~ /^[ \t]*(#|$)/) next
        print block "\t" line
    }' "$readme")
((${#recipe_lines[@]})) || fail "README.md's task index has no sh code blocks"

ran=0 skipped=0 skip_block=""
for entry in "${recipe_lines[@]}"; do
    block=${entry%%$'\t'*}
    line=${entry#*$'\t'}
    if [[ $block == "$skip_block" ]]; then
        say "skipped (after a skipped line): $line"
        skipped=$((skipped + 1))
        continue
    fi
    why=""
    first=${line%% *}
    if [[ $first == sbatch ]]; then
        why="needs a Slurm cluster"
    elif [[ $line == *gnu_parallel.sh* || $first == parallel ]] && ((!have_parallel)); then
        why="needs GNU parallel"
    elif [[ $line == *"--device gpu"* ]] && ((!have_gpu)); then
        why="needs a usable GPU"
    fi
    if [[ -n $why ]]; then
        say "skipped ($why): $line"
        skipped=$((skipped + 1))
        skip_block=$block
        continue
    fi
    expected=0
    [[ $line =~ \#.*exits\ ([0-9]+)\ here ]] && expected=${BASH_REMATCH[1]}
    status=0
    (cd "$run" && HOME=$work/home bash -c "$line") > "$work/recipe.log" 2>&1 || status=$?
    if ((status != expected)); then
        say "a recipe of README.md's task index exited $status, not $expected: $line"
        sed 's/^/    /' "$work/recipe.log" >&2
        exit 1
    fi
    ran=$((ran + 1))
done
say "task index: $ran commands ran, $skipped skipped"
((recipes_only)) && exit 0

# --- The pictures: the task index shows docs/pictures/NAME for each.
mkdir -p "$out_dir"
out_dir=$(realpath "$out_dir")
p=$work/panes
cd "$run"

crop_to "$p/blur-a.png" 280x250+90+20 photos/chelsea.jpg
crop_to "$p/blur-b.png" 280x250+90+20 blurred/chelsea.jpg
montage "$out_dir/blur.jpg" 250 "$p/blur-a.png" "$p/blur-b.png"

montage "$out_dir/thumbnails.jpg" 184 squares/camera.jpg squares/chelsea.jpg squares/rocket.jpg

montage "$out_dir/geometry.jpg" 134 photo.jpg eyes.jpg tilted.png

montage "$out_dir/chain.jpg" 190 photo.jpg poster.png

montage "$out_dir/edges.jpg" 190 photo.jpg edges.png

montage "$out_dir/threshold.png" 240 scan.png global.png clean.png

montage "$out_dir/histogram.jpg" 176 photo.jpg histogram.png

for f in expected actual ssim; do crop_to "$p/compare-$f.png" 184x240+228+100 "$f/rocket.png"; done
montage "$out_dir/compare.jpg" 240 "$p/compare-expected.png" "$p/compare-actual.png" "$p/compare-ssim.png"

total=0
for f in "$out_dir"/*; do
    [[ -f $f ]] || continue
    total=$((total + $(stat -c %s "$f")))
done
say "pictures in $out_dir: $(ls "$out_dir" | tr '\n' ' ')($((total / 1024)) KiB)"
