#!/usr/bin/env bash
# A batch's JPEG decoders, whole runs: imgpar blur --sigma 2 -> JPEG on the
# GPU with each --jpeg-decoder setting (cpu: libjpeg-turbo on the cores; auto
# with IMGPAR_GPU_HUFFMAN_SLOTS=0: Huffman decoding on the cores, the rest on
# the GPU, the old auto; auto; gpu: every baseline scan Huffman-decoded on the
# GPU; hardware), against OpenCV's process pool of one worker per core doing
# the same blur. Prints a Markdown table a set: median wall seconds of REPEATS
# runs, images/s, the ratio to OpenCV's pool, -v's timing line (time to the
# first file, steady rate, teardown) and which decoder took how many files;
# then whether every setting's outputs are the CPU backend's bytes.
#
#   bench/e2e/decoders.sh IMGPAR PHOTOS [REPEATS [SLOTS...]]
#
# PHOTOS is what make_sets.py made (batch/, mixed/; large/ where present: the
# batch set four times over, made here when missing). SLOTS: further auto rows
# with IMGPAR_GPU_HUFFMAN_SLOTS set to each (the tuning of kGpuHuffmanSlots).
# DECODER_SETS and DECODER_RUNS ("decoder:slots ...") pick fewer sets and rows.
set -euo pipefail
imgpar=$(realpath "$1")
photos=$(realpath "$2")
repeats=${3:-3}
shift $(($# < 3 ? $# : 3))
slot_rows=("$@")
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cores=$(nproc)
TIMEFORMAT=%R
source "$here/timing.sh"
"$imgpar" devices --json 2>/dev/null | grep -q '"usable":true' || { echo "decoders.sh: no usable GPU" >&2; exit 2; }
have_cv=0; python3 -c "import cv2" 2>/dev/null && have_cv=1

# large/: the batch set four times over (2,080 files), links to the same photos.
if [[ ! -d $photos/large ]] && compgen -G "$photos/batch/*.jpg" >/dev/null; then
    mkdir -p "$work/large"
    for k in 1 2 3 4; do for f in "$photos"/batch/*.jpg; do ln -s "$f" "$work/large/$k-$(basename "$f")"; done; done
    large_dir=$work/large
else
    large_dir=$photos/large
fi

echo "## JPEG decoders, batch blur sigma 2 -> JPEG q95: $cores cores, $(nvidia-smi -L 2>/dev/null | head -1 | cut -d'(' -f1)"
"$imgpar" --version | sed 's/^/    /'

for set in ${DECODER_SETS:-batch mixed large}; do
    dir=$photos/$set; [[ $set == large ]] && dir=$large_dir
    compgen -G "$dir/*.jpg" >/dev/null || continue
    files=("$dir"/*.jpg)
    n=${#files[@]}
    echo
    echo "### $set/: $n JPEGs (median of $repeats, wall seconds)"
    echo
    echo "| run | seconds | images/s | x OpenCV's pool | -v: first file, steady, teardown | decoders |"
    echo "|---|---:|---:|---:|---|---|"
    cv_rate=""
    if ((have_cv)); then
        c=$(batch_median "$work/out" python3 "$here/opencv_blur.py" --pool "$cores" "$work/out" "${files[@]}")
        number "$c" && cv_rate=$(rate "$n" "$c")
        echo "| OpenCV (Python), process pool of $cores | $c | $(rate "$n" "$c") | 1 | | |"
    fi
    read -r -a runs <<<"${DECODER_RUNS:-cpu: auto:0 auto: gpu: hardware:}"
    for s in "${slot_rows[@]}"; do runs+=("auto:$s"); done
    for run in "${runs[@]}"; do
        decoder=${run%%:*}; slots=${run#*:}
        env=(); label="--jpeg-decoder $decoder"
        [[ -n $slots ]] && env=(IMGPAR_GPU_HUFFMAN_SLOTS="$slots") && label+=" (slots $slots)"
        out=$work/out_${decoder}_$slots
        args=(blur --sigma 2 --quality 95 --device gpu --jpeg-decoder "$decoder" -q --out-dir "$out" "${files[@]}")
        t=$(batch_median "$out" env "${env[@]}" "$imgpar" "${args[@]}")
        vs="-"; [[ -n $cv_rate ]] && number "$t" && vs=$(ratio "$(rate "$n" "$t")" "$cv_rate")
        rm -rf "$work/v" && mkdir -p "$work/v"
        log=$(env "${env[@]}" "$imgpar" blur --sigma 2 --quality 95 --device gpu --jpeg-decoder "$decoder" -v \
            --out-dir "$work/v" "${files[@]}" 2>&1 >/dev/null || true)
        timing=$(grep -m1 "timing: start-up" <<<"$log" | sed 's/.*timing: //' || true)
        counts=$(grep -m1 "JPEG decoders:" <<<"$log" | sed 's/.*JPEG decoders: //' || true)
        echo "| $label | $t | $(rate "$n" "$t") | $vs | ${timing:--} | ${counts:--} |"
    done
    # Every setting writes the CPU backend's bytes.
    "$imgpar" blur --sigma 2 --quality 95 --device cpu -q --out-dir "$work/cpu" "${files[@]}"
    for run in "${runs[@]}"; do
        decoder=${run%%:*}; slots=${run#*:}
        same=$(diff -rq "$work/cpu" "$work/out_${decoder}_$slots" >/dev/null && echo "identical" || echo "DIFFERENT")
        echo "- --jpeg-decoder $decoder${slots:+ (slots $slots)}: outputs $same to --device cpu's"
    done
    rm -rf "$work"/out* "$work/cpu" "$work/v"
done
