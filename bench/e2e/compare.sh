#!/usr/bin/env bash
# Whole invocations of imgpar compare, as users wait for them: a photo against
# its blurred copy (16 MP and 8192x8192 JPEG), and a folder of photos against
# a folder of their blurred copies, by imgpar and by the peers this machine
# has: scikit-image and OpenCV's SSIM recipe from Python (bench/e2e/peer_ssim.py,
# a process pool of one per core for the folders), ImageMagick's compare
# -metric SSIM where it has it, and -metric PSNR beside imgpar --no-ssim. Prints a Markdown report: median wall seconds of REPEATS runs,
# pairs/s for the folders.
#
#   bench/e2e/compare.sh IMGPAR PHOTOS [REPEATS [PAIRS]]
#
# PAIRS: the folders hold the first PAIRS batch photos (default: all).
# PHOTOS is what make_photos.py made (single/, batch/). The blurred copies
# are made here with imgpar blur --sigma 2 --quality 95 (JPEG).
set -euo pipefail
imgpar=$(realpath "$1")
photos=$(realpath "$2")
repeats=${3:-3}
pairs=${4:-0}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cores=$(nproc)
TIMEFORMAT=%R
have() { command -v "$1" >/dev/null 2>&1; }
have_cv=0; python3 -c "import cv2, numpy" 2>/dev/null && have_cv=1
have_sk=0; python3 -c "import skimage.io, skimage.metrics" 2>/dev/null && have_sk=1
have_gpu=0; "$imgpar" devices --json 2>/dev/null | grep -q '"usable":true' && have_gpu=1
source "$here/timing.sh"
# ImageMagick's compare exits 1 when the images differ, which they do here.
magick_compare() {
    local status=0
    compare "$@" || status=$?
    ((status <= 1)) || return "$status"
}

mkdir -p "$work/a" "$work/b"
batch=("$photos"/batch/*.jpg)
((pairs > 0 && pairs < ${#batch[@]})) && batch=("${batch[@]:0:pairs}")
cp "${batch[@]}" "$work/a/"
"$imgpar" blur "$work"/a/*.jpg --out-dir "$work/b" --sigma 2 --quality 95 -q
n=$(ls "$work/a" | wc -l)
devices=(cpu auto); ((have_gpu)) && devices=(gpu cpu auto)

echo "## compare, whole runs: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo
echo "### One pair, a photo against its blurred copy (median of $repeats, wall seconds)"
echo
echo "| pair | tool | seconds |"
echo "|---|---|---:|"
for p in photo16mp photo8k; do
    a=$photos/single/$p.jpg; b=$work/$p.jpg
    "$imgpar" blur "$a" "$b" --sigma 2 --quality 95 -q
    for d in "${devices[@]}"; do
        echo "| $p.jpg | imgpar compare --device $d | $(median "$imgpar" compare "$a" "$b" --device "$d") |"
    done
    echo "| $p.jpg | imgpar compare --ssim-downsample auto | $(median "$imgpar" compare "$a" "$b" --ssim-downsample auto) |"
    ((have_sk)) && echo "| $p.jpg | scikit-image (Python) | $(median python3 "$here/peer_ssim.py" skimage "$a" "$b") |"
    ((have_cv)) && echo "| $p.jpg | OpenCV SSIM recipe (Python) | $(median python3 "$here/peer_ssim.py" opencv "$a" "$b") |"
    if have compare && compare -list metric 2>/dev/null | grep -qx SSIM; then
        echo "| $p.jpg | ImageMagick compare -metric SSIM | $(median magick_compare -metric SSIM "$a" "$b" null:) |"
    fi
    # Without SSIM: the difference metrics alone, against ImageMagick's PSNR.
    echo "| $p.jpg | imgpar compare --no-ssim | $(median "$imgpar" compare "$a" "$b" --no-ssim) |"
    if have compare && compare -list metric 2>/dev/null | grep -qx PSNR; then
        echo "| $p.jpg | ImageMagick compare -metric PSNR | $(median magick_compare -metric PSNR "$a" "$b" null:) |"
    fi
done
echo
echo "### $n pairs, folder against folder (median of $repeats)"
echo
echo "| tool | seconds | pairs/s |"
echo "|---|---:|---:|"
for d in "${devices[@]}"; do
    s=$(median "$imgpar" compare "$work/a/" "$work/b/" --device "$d" --json)
    echo "| imgpar compare A/ B/ --device $d | $s | $(rate "$n" "$s") |"
done
for kind in skimage opencv; do
    [[ $kind == skimage ]] && ((!have_sk)) && continue
    [[ $kind == opencv ]] && ((!have_cv)) && continue
    s=$(median python3 "$here/peer_ssim.py" --pool "$cores" "$kind" "$work/a" "$work/b")
    echo "| $kind (Python), process pool of $cores | $s | $(rate "$n" "$s") |"
done
