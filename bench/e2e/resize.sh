#!/usr/bin/env bash
# Whole runs of resizing, as users wait for them, against the peers the
# machine has: thumbnails of a batch (imgpar thumbnail --size 512x512 against
# OpenCV's process pool decoding with shrink-on-load, IMREAD_REDUCED_COLOR_4 +
# INTER_AREA, and a vipsthumbnail loop), the chain 'resize 50% --filter area
# | blur --sigma 1 | sharpen' against a plain blur of the same photos and
# OpenCV's pool doing the same chain, and one 16 MP JPEG halved (imgpar
# resize 50% against OpenCV and vips resize). Markdown; median of REPEATS
# runs, wall seconds. JPEG quality 95 everywhere.
#
#   bench/e2e/resize.sh IMGPAR PHOTOS [REPEATS [FILES]]
#
# PHOTOS is what make_sets.py made (batch/, mixed/, single/; RESIZE_SETS
# picks sets, RESIZE_DEVICES="gpu" the backends); FILES: only the first FILES
# photos of each set.
set -euo pipefail
imgpar=$(realpath "$1")
photos=$(realpath "$2")
repeats=${3:-3}
limit=${4:-0}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cores=$(nproc)
TIMEFORMAT=%R
source "$here/timing.sh"

have() { command -v "$1" >/dev/null 2>&1; }
have_cv=0; python3 -c "import cv2, numpy" 2>/dev/null && have_cv=1
have_gpu=0; "$imgpar" devices --json 2>/dev/null | grep -q '"usable":true' && have_gpu=1
devices=(cpu); ((have_gpu)) && devices=(gpu cpu auto)
[[ -n ${RESIZE_DEVICES:-} ]] && read -r -a devices <<<"$RESIZE_DEVICES"
chain='resize 50% --filter area | blur --sigma 1 | sharpen'


echo "## Resizing, whole runs: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$imgpar" --version | sed 's/^/    /'
for set in ${RESIZE_SETS:-batch mixed}; do
    compgen -G "$photos/$set/*.jpg" >/dev/null || continue
    files=("$photos/$set"/*.jpg)
    ((limit > 0 && limit < ${#files[@]})) && files=("${files[@]:0:limit}")
    n=${#files[@]}
    echo
    echo "### $set/: $n JPEGs (wall seconds, images/s; median of $repeats)"
    echo
    echo "| job | tool | seconds | images/s |"
    echo "|---|---|---:|---:|"
    for d in "${devices[@]}"; do
        t=$(batch_median "$work/o" "$imgpar" thumbnail --size 512x512 --quality 95 --device "$d" -q --out-dir "$work/o" "${files[@]}")
        echo "| thumbnail 512 | imgpar --device $d | $t | $(rate "$n" "$t") |"
    done
    if ((have_cv)); then
        t=$(batch_median "$work/o" python3 "$here/opencv_resize.py" --pool "$cores" thumbnail "$work/o" "${files[@]}")
        echo "| thumbnail 512 | OpenCV (Python), pool of $cores, IMREAD_REDUCED_COLOR_4 + INTER_AREA | $t | $(rate "$n" "$t") |"
    fi
    if have vipsthumbnail; then
        # One run over every file, as many threads as cores (libvips' default).
        t=$(batch_median "$work/o" vipsthumbnail --size 512x512 -o "$work/o/%s.jpg[Q=95]" "${files[@]}")
        echo "| thumbnail 512 | vipsthumbnail, one run over the files | $t | $(rate "$n" "$t") |"
    fi
    for d in "${devices[@]}"; do
        b=$(batch_median "$work/o" "$imgpar" blur --sigma 2 --quality 95 --device "$d" -q --out-dir "$work/o" "${files[@]}")
        c=$(batch_median "$work/o" "$imgpar" chain "$chain" --quality 95 --device "$d" -q --out-dir "$work/o" "${files[@]}")
        echo "| blur sigma 2 | imgpar --device $d | $b | $(rate "$n" "$b") |"
        echo "| chain: resize 50% area, blur 1, sharpen | imgpar --device $d (chain / blur $(ratio "$c" "$b")) | $c | $(rate "$n" "$c") |"
    done
    if ((have_cv)); then
        t=$(batch_median "$work/o" python3 "$here/opencv_resize.py" --pool "$cores" chain "$work/o" "${files[@]}")
        echo "| chain: resize 50% area, blur 1, sharpen | OpenCV (Python), pool of $cores | $t | $(rate "$n" "$t") |"
    fi
done

single=$photos/single/photo16mp.jpg
if [[ -f $single ]]; then
    echo
    echo "### One 16 MP JPEG halved (median of $repeats, wall seconds)"
    echo
    echo "| tool | seconds |"
    echo "|---|---:|"
    for d in "${devices[@]}"; do
        for f in lanczos3 area; do
            echo "| imgpar resize 50% --filter $f --device $d | $(median "$imgpar" resize "$single" "$work/h.jpg" 50% --filter "$f" --quality 95 --device "$d") |"
        done
        echo "| imgpar thumbnail --size 512x512 --device $d | $(median "$imgpar" thumbnail "$single" "$work/t.jpg" --size 512x512 --quality 95 --device "$d") |"
    done
    ((have_cv)) && echo "| OpenCV (Python) INTER_AREA | $(median python3 "$here/opencv_resize.py" half "$single" "$work/c.jpg") |"
    ((have_cv)) && echo "| OpenCV (Python) thumbnail 512 | $(median python3 "$here/opencv_resize.py" thumbnail "$single" "$work/c.jpg") |"
    if have vips; then
        echo "| vips resize 0.5 (lanczos3) | $(median vips resize "$single" "$work/v.jpg[Q=95]" 0.5) |"
        echo "| vips resize 0.5 --kernel linear | $(median vips resize "$single" "$work/v.jpg[Q=95]" 0.5 --kernel linear) |"
    fi
    have vipsthumbnail && echo "| vipsthumbnail --size 512x512 | $(median vipsthumbnail "$single" --size 512x512 -o "$work/vt.jpg[Q=95]") |"
fi
