#!/usr/bin/env bash
# Whole invocations, as users wait for them: blur sigma 2 of one photo (16 MP
# JPEG and PNG, 8192x8192 JPEG) and of a batch of photos, by imgpar and by the
# peers this machine has (OpenCV from Python, libvips, ImageMagick). Prints a
# Markdown report: median wall seconds of REPEATS runs, output bytes, images/s,
# and where imgpar's time goes.
#
#   bench/e2e/run.sh IMGPAR PHOTOS [REPEATS [BATCH_REPEATS]]
#
# A larger batch, where start-up weighs less (PHOTOS/large/ made by
# `make_photos.py SOURCES PHOTOS 2080` into another folder and moved there),
# adds a table of imgpar on the GPU against OpenCV's pool.
#
# PHOTOS is what make_photos.py made (single/, batch/). The photos come from
# Debian's wallpaper package:
#   apt-get download plasma-workspace-wallpapers && dpkg -x plasma-workspace-wallpapers_*.deb wp
#   bench/e2e/make_photos.py wp/usr/share/wallpapers photos
# JPEG quality 95 everywhere (OpenCV's default), PNG at each tool's default.
# ImageMagick runs -blur 0x2 (its separable Gaussian; -gaussian-blur is a 2-D
# kernel, 20-50x slower on these photos).
set -euo pipefail
imgpar=$(realpath "$1")
photos=$(realpath "$2")
repeats=${3:-5}
batch_repeats=${4:-3}
here=$(dirname "$(realpath "$0")")
for f in single/photo16mp.jpg single/photo8k.jpg single/photo16mp.png; do
    [[ -f $photos/$f ]] || { echo "run.sh: $photos/$f is missing: make the photos with make_photos.py" >&2; exit 2; }
done
compgen -G "$photos/batch/*.jpg" >/dev/null || { echo "run.sh: no batch photos in $photos/batch" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cores=$(nproc)
TIMEFORMAT=%R

have() { command -v "$1" >/dev/null 2>&1; }
have_cv=0; python3 -c "import cv2" 2>/dev/null && have_cv=1
have_gpu=0; "$imgpar" devices --json 2>/dev/null | grep -q '"usable":true' && have_gpu=1

source "$here/timing.sh"
size() { stat -c %s "$1"; }

echo "## Whole runs: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$imgpar" --version | sed 's/^/    /'
echo
echo "### One photo, blur sigma 2 (median of $repeats, wall seconds; output bytes)"
echo
echo "| job | tool | seconds | bytes |"
echo "|---|---|---:|---:|"
for job in photo16mp.jpg:jpg photo8k.jpg:jpg photo16mp.png:png; do
    in=$photos/single/${job%%:*}; ext=${job##*:}; label="${job%%:*} -> $ext"
    row() { echo "| $label | $1 | $2 | $(size "$3") |"; }
    devices=(cpu auto); ((have_gpu)) && devices=(gpu cpu auto)
    for d in "${devices[@]}"; do
        out=$work/imgpar_$d.$ext
        row "imgpar --device $d" "$(median "$imgpar" blur "$in" "$out" --sigma 2 --quality 95 --device "$d")" "$out"
    done
    if ((have_gpu)) && [[ $ext == jpg ]]; then
        # The GPU's blur encoded on the cores: what encoding on the GPU saves.
        out=$work/imgpar_cpuenc.$ext
        row "imgpar --device gpu --jpeg-encoder cpu" \
            "$(median "$imgpar" blur "$in" "$out" --sigma 2 --quality 95 --device gpu --jpeg-encoder cpu)" "$out"
    fi
    if ((have_cv)); then
        out=$work/opencv.$ext
        row "OpenCV (Python)" "$(median python3 "$here/opencv_blur.py" "$in" "$out")" "$out"
    fi
    if have vips; then
        out=$work/vips.$ext; q=""; [[ $ext == jpg ]] && q="[Q=95]"
        row "vips gaussblur" "$(median vips gaussblur "$in" "$out$q" 2)" "$out"
    fi
    if have convert && convert -version 2>/dev/null | grep -q ImageMagick; then
        out=$work/magick.$ext
        row "ImageMagick convert -blur" "$(median convert "$in" -blur 0x2 -quality 95 "$out")" "$out"
    fi
done

echo
echo "### Where imgpar's time goes (one run each, -v)"
echo
echo '```'
for d in cpu $( ((have_gpu)) && echo gpu ); do
    for f in photo16mp.jpg photo16mp.png; do
        "$imgpar" blur "$photos/single/$f" "$work/v_$f" --sigma 2 --quality 95 --device $d -v 2>&1 | grep -E "stages|backend" | tail -1
    done
done
echo '```'

batch=("$photos"/batch/*.jpg)
n=${#batch[@]}
mp=$(python3 -c "import sys,struct
t=0
for f in sys.argv[1:]:
    d=open(f,'rb').read(); i=2
    while i < len(d):
        l=struct.unpack('>H',d[i+2:i+4])[0]
        if d[i+1] in (0xC0,0xC1,0xC2): h,w=struct.unpack('>HH',d[i+5:i+9]); t+=w*h; break
        i+=2+l
print(f'{t/len(sys.argv[1:])/1e6:.1f}')" "${batch[@]}")
echo
echo "### Batch: $n JPEGs (mean $mp MP), blur sigma 2 -> JPEG, all cores (images/s, best of $batch_repeats)"
echo
echo "| tool | images/s | seconds |"
echo "|---|---:|---:|"
best() {  # best wall seconds of "$@" over batch_repeats runs, each into an empty $work/b
    local best=""
    for ((i = 0; i < batch_repeats; i++)); do
        rm -rf "$work/b"; mkdir -p "$work/b"
        local t; t=$( { time "$@" >/dev/null 2>&1; } 2>&1 )
        if [[ -z $best ]] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    done
    echo "$best"
}
brow() { echo "| $1 | $(awk "BEGIN{printf \"%.1f\", $n / $2}") | $2 |"; }
devices=(cpu); ((have_gpu)) && devices=(gpu cpu auto)
for d in "${devices[@]}"; do
    brow "imgpar blur --out-dir, --device $d" "$(best "$imgpar" blur --sigma 2 --quality 95 --device "$d" --out-dir "$work/b" "${batch[@]}")"
done
# imgpar writes 4:4:4 at quality 95 (as libvips and ImageMagick do), OpenCV
# 4:2:0: the like-for-like rows.
for d in "${devices[@]}"; do
    brow "imgpar blur --out-dir --chroma-subsampling 420, --device $d" \
        "$(best "$imgpar" blur --sigma 2 --quality 95 --chroma-subsampling 420 --device "$d" --out-dir "$work/b" "${batch[@]}")"
done
if ((have_gpu)); then
    brow "imgpar blur --out-dir --jpeg-encoder cpu, --device gpu" \
        "$(best "$imgpar" blur --sigma 2 --quality 95 --jpeg-encoder cpu --device gpu --out-dir "$work/b" "${batch[@]}")"
    # How the inputs decode: split (the default), on the hardware decoder, on the cores.
    for dec in hardware cpu; do
        brow "imgpar blur --out-dir --jpeg-decoder $dec, --device gpu" \
            "$(best "$imgpar" blur --sigma 2 --quality 95 --jpeg-decoder "$dec" --device gpu --out-dir "$work/b" "${batch[@]}")"
    done
fi
if ((have_cv)); then
    brow "OpenCV (Python), process pool of $cores" "$(best python3 "$here/opencv_blur.py" --pool "$cores" "$work/b" "${batch[@]}")"
fi
if have vips; then
    brow "vips gaussblur, a shell loop" "$(best bash -c 'for f; do vips gaussblur "$f" "'"$work"'/b/$(basename "$f")[Q=95]" 2 || exit 1; done' _ "${batch[@]}")"
fi
if have mogrify && mogrify -version 2>/dev/null | grep -q ImageMagick; then
    brow "ImageMagick mogrify -blur" "$(best mogrify -path "$work/b" -blur 0x2 -quality 95 "${batch[@]}")"
fi

# Where a batch's time goes: -v's timing line (start-up, the first file, the
# steady rate, the teardown of sessions and services) of one more run, and
# the wall time around it (what remains is the process's exit: CUDA's).
timing_row() {
    rm -rf "$work/b"; mkdir -p "$work/b"
    local t0 t1 line
    t0=$(date +%s.%N)
    line=$("$imgpar" blur --sigma 2 --quality 95 --device "$1" -v --out-dir "$work/b" "${@:2}" 2>&1 >/dev/null | grep -o 'timing: .*')
    t1=$(date +%s.%N)
    echo "- \`--device $1\`: ${line#timing: }; wall $(awk "BEGIN{printf \"%.3f\", $t1 - $t0}") s"
}
echo
echo "Fixed costs and pace, $n files:"
echo
for d in "${devices[@]}"; do timing_row "$d" "${batch[@]}"; done

# The bytes: every output of three more default runs (the GPU decodes,
# computes and encodes) against the CPU backend's.
if ((have_gpu)); then
    rm -rf "$work/ref"; mkdir -p "$work/ref"
    "$imgpar" blur --sigma 2 --quality 95 --device cpu --out-dir "$work/ref" "${batch[@]}" 2>/dev/null
    echo
    for i in 1 2 3; do
        rm -rf "$work/b"; mkdir -p "$work/b"
        "$imgpar" blur --sigma 2 --quality 95 --out-dir "$work/b" "${batch[@]}" 2>/dev/null
        echo "Default run $i: $(diff -rq "$work/ref" "$work/b" | wc -l) of $n outputs differ from the CPU backend's bytes"
    done
fi

# The larger batch: what thousands of files from a batch script see, with
# CUDA's and the hardware decoder's start-up spread over more files.
large=("$photos"/large/*.jpg)
if [[ -f ${large[0]} ]] && ((have_gpu)); then
    n=${#large[@]}
    echo
    echo "### Batch: $n JPEGs, blur sigma 2 -> JPEG, all cores (images/s, best of $batch_repeats)"
    echo
    echo "| tool | images/s | seconds |"
    echo "|---|---:|---:|"
    brow "imgpar blur --out-dir, --device gpu" "$(best "$imgpar" blur --sigma 2 --quality 95 --device gpu --out-dir "$work/b" "${large[@]}")"
    if ((have_cv)); then
        brow "OpenCV (Python), process pool of $cores" "$(best python3 "$here/opencv_blur.py" --pool "$cores" "$work/b" "${large[@]}")"
    fi
    echo
    timing_row gpu "${large[@]}"
fi

# Several GPUs (--device gpu:all): the batches on one GPU and on all of them,
# where each run's time goes (summed over files from --json: decode, compute,
# encode; the workers overlap them, so the sums exceed the wall time), and
# whether every output is byte-identical across one GPU, all GPUs and the CPU.
gpus=$("$imgpar" devices --json 2>/dev/null | python3 -c \
    "import json,sys; print(sum(1 for d in json.load(sys.stdin)['devices'] if d['usable']))" 2>/dev/null || echo 0)
if ((gpus >= 2)); then
    echo
    echo "### Batches on $gpus GPUs (--device gpu:all) against one (gpu:0), blur sigma 2 -> JPEG (best of $batch_repeats)"
    echo
    echo "| photos | device | images/s | seconds | decode s (on GPU / CPU files) | compute s | encode s | files per GPU |"
    echo "|---|---|---:|---:|---:|---:|---:|---|"
    split() {  # the sums of one more run's --json records, and -v's share of files per GPU
        rm -rf "$work/s"; mkdir -p "$work/s"
        "$imgpar" blur --sigma 2 --quality 95 --device "$1" --out-dir "$work/s" --json -v "${@:2}" >"$work/s.json" 2>"$work/s.err"
        python3 - "$work/s.json" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
gpu = sum(1 for r in recs if r.get("decoded_on") == "gpu")
print(f"{sum(r['decode_ms'] for r in recs) / 1e3:.2f} ({gpu} / {len(recs) - gpu}) | "
      f"{sum(r['elapsed_ms'] for r in recs) / 1e3:.2f} | {sum(r['encode_ms'] for r in recs) / 1e3:.2f}", end="")
PY
        echo " | $(grep -o 'files computed on each: .*' "$work/s.err" | cut -d: -f2 | sed 's/^ //')"
    }
    sets=(batch)
    [[ -f ${large[0]} ]] && sets+=(large)
    identity=()
    for set in "${sets[@]}"; do
        files=("$photos/$set"/*.jpg)
        n=${#files[@]}
        for d in gpu:0 gpu:all; do
            t=$(best "$imgpar" blur --sigma 2 --quality 95 --device "$d" --out-dir "$work/b" "${files[@]}")
            echo "| $n ($set) | $d | $(awk "BEGIN{printf \"%.1f\", $n / $t}") | $t | $(split "$d" "${files[@]}")"
        done
        # Each GPU with either JPEG encoder.
        for run in cpu:cpu gpu:0:cpu gpu:all:cpu gpu:0:gpu gpu:1:gpu; do
            d=${run%:*}; e=${run##*:}; tag=${run//:/_}
            rm -rf "$work/same_$tag"; mkdir -p "$work/same_$tag"
            "$imgpar" blur --sigma 2 --quality 95 --device "$d" --jpeg-encoder "$e" --out-dir "$work/same_$tag" "${files[@]}" 2>/dev/null
            [[ $tag == cpu_cpu ]] && continue
            differ=$(diff -rq "$work/same_cpu_cpu" "$work/same_$tag" | wc -l)
            identity+=("$set, --device $d --jpeg-encoder $e: $differ of $n outputs differ from the CPU backend's bytes")
        done
    done
    echo
    printf '%s\n' "${identity[@]}"
fi
