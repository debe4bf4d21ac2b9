#!/usr/bin/env bash
# Whole runs of blur sigma 2 on one photo at 8 and 16 bits (issue #52: 8-bit
# speed unchanged, 16-bit reasonable): imgpar blur --sigma 2 against vips
# gaussblur 2 (integer precision, its default, keeps 16 bits) and OpenCV in
# Python (bench/e2e/opencv_blur.py: IMREAD_UNCHANGED, GaussianBlur 13x13,
# imwrite). Each writes the input's format: 16-bit PNG (each tool's default
# compression level), 16-bit TIFF (LZW, OpenCV's default), 8-bit JPEG.
# Prints a Markdown table: median of REPEATS runs, user+sys CPU / wall s.
#
#   bench/e2e/blur16.sh PHOTO_PNG PHOTO_JPEG [REPEATS] IMGPAR...
set -euo pipefail
png=$(realpath "$1")
jpeg=$(realpath "$2")
repeats=${3:-3}
shift 3
imgpars=()
for b in "$@"; do imgpars+=("$(realpath "$b")"); done
here=$(dirname "$(realpath "$0")")
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=timing.sh
source "$here/timing.sh"
cd "$work"

vips colourspace "$png" in16.png rgb16
vips copy in16.png "in16.tif[compression=lzw]"
cp "$jpeg" in8.jpg

header="| blur sigma 2, 16 MP (CPU / wall s) |"
rule="|---|"
for b in "${imgpars[@]}"; do header+=" imgpar $(basename "$b") |"; rule+="---:|"; done
echo "$header vips gaussblur | OpenCV (Python) |"
echo "$rule---:|---:|"
for job in "16-bit PNG:in16.png:out.png:" "16-bit TIFF, LZW:in16.tif:out.tif:[compression=lzw]" "8-bit JPEG:in8.jpg:out.jpg:"; do
    IFS=: read -r label in out vopts <<<"$job"
    row="| $label |"
    extra=()
    [[ $out == *.tif ]] && extra=(--compression lzw)
    for b in "${imgpars[@]}"; do row+=" $(cpu_wall_median "$b" blur "$in" "$out" --sigma 2 "${extra[@]}") |"; done
    row+=" $(cpu_wall_median vips gaussblur "$in" "$out$vopts" 2) |"
    row+=" $(cpu_wall_median "$python" "$here/opencv_blur.py" "$in" "$out") |"
    echo "$row"
done
