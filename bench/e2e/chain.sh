#!/usr/bin/env bash
# Whole invocations of imgpar chain 'blur --sigma 2 | sharpen | equalize', as
# users wait for them, against imgpar blur --sigma 2 alone (what the two more
# stages cost when the file is decoded and encoded once) and against OpenCV
# from Python doing the same three stages (bench/e2e/opencv_chain.py; its
# blur alone is bench/e2e/opencv_blur.py). Prints a Markdown report: for each
# batch set, wall seconds and images/s of whole runs over the folder (median of
# REPEATS, each into an empty folder), the ratio of the chain's time to the
# blur's, and imgpar's chain images/s over OpenCV's process pool of one worker
# per core; then the 16 MP JPEG alone (median of REPEATS); then whether the
# GPU's chain outputs are byte-identical to the CPU backend's.
#
#   bench/e2e/chain.sh IMGPAR PHOTOS [REPEATS [FILES]]
#
# PHOTOS is what make_sets.py made: the sets batch/ (baseline 4:2:0 JPEGs) and
# mixed/ (qualities 75-95, progressive, 4:4:4, 4:2:2, gray), and single/; each
# set found is timed (CHAIN_SETS="mixed" picks some; large/, where present, too).
# FILES: only the first FILES photos of each set (a quick run; default all).
# imgpar runs with --device gpu when a GPU is usable, and --device cpu; JPEG
# quality 95 everywhere. imgpar writes 4:4:4 at quality 95 and OpenCV 4:2:0: on
# a GPU, a row with --chroma-subsampling 420 is the like-for-like one.
set -euo pipefail
imgpar=$(realpath "$1")
photos=$(realpath "$2")
repeats=${3:-3}
limit=${4:-0}
here=$(dirname "$(realpath "$0")")
chain='blur --sigma 2 | sharpen | equalize'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cores=$(nproc)
TIMEFORMAT=%R

have_cv=0; python3 -c "import cv2, numpy" 2>/dev/null && have_cv=1
have_gpu=0; "$imgpar" devices --json 2>/dev/null | grep -q '"usable":true' && have_gpu=1
devices=(cpu); ((have_gpu)) && devices=(gpu cpu)
source "$here/timing.sh"

sets=()
for s in ${CHAIN_SETS:-batch mixed large}; do
    compgen -G "$photos/$s/*.jpg" >/dev/null && sets+=("$s")
done
single=$photos/single/photo16mp.jpg
((${#sets[@]})) || [[ -f $single ]] || {
    echo "chain.sh: no sets (batch/, mixed/) and no single/photo16mp.jpg in $photos: make them with make_sets.py" >&2
    exit 2
}


echo "## chain '$chain', whole runs: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$imgpar" --version | sed 's/^/    /'
((have_gpu)) || echo "No usable GPU: imgpar runs on the CPU only."
((have_cv)) || echo "No OpenCV for Python (python3 -c 'import cv2' fails): imgpar alone."

for set in "${sets[@]}"; do
    files=("$photos/$set"/*.jpg)
    ((limit > 0 && limit < ${#files[@]})) && files=("${files[@]:0:limit}")
    n=${#files[@]}
    about=$(python3 - "${files[@]}" <<'PY'
import sys
pixels = progressive = gray = 0
for path in sys.argv[1:]:
    d = open(path, "rb").read(); i = 2
    while i + 4 <= len(d):
        code, length = d[i + 1], int.from_bytes(d[i + 2:i + 4], "big")
        if code == 0xFF:
            i += 1; continue
        if 0xC0 <= code <= 0xCF and code not in (0xC4, 0xC8, 0xCC):
            pixels += int.from_bytes(d[i + 5:i + 7], "big") * int.from_bytes(d[i + 7:i + 9], "big")
            progressive += code in (0xC2, 0xC6, 0xCA, 0xCE); gray += d[i + 9] == 1
            break
        i += 2 + length
n = len(sys.argv) - 1
print(f"mean {pixels / n / 1e6:.1f} MP, {progressive} progressive, {gray} gray")
PY
)
    echo
    echo "### $set/: $n JPEGs ($about), all cores, JPEG quality 95 (median of $repeats, wall seconds)"
    echo
    echo "| tool | blur s | blur images/s | chain s | chain images/s | chain / blur time | chain images/s / OpenCV's |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    cv_rate=""
    cv_row=""
    if ((have_cv)); then
        b=$(batch_median "$work/out" python3 "$here/opencv_blur.py" --pool "$cores" "$work/out" "${files[@]}")
        c=$(batch_median "$work/out" python3 "$here/opencv_chain.py" --pool "$cores" "$work/out" "${files[@]}")
        number "$c" && cv_rate=$(rate "$n" "$c")
        cv_row="| OpenCV (Python), process pool of $cores | $b | $(rate "$n" "$b") | $c | $(rate "$n" "$c") | $(ratio "$c" "$b") | 1 |"
    fi
    runs=()
    for d in "${devices[@]}"; do runs+=("$d:"); done
    ((have_gpu)) && runs+=("gpu:--chroma-subsampling 420")
    for run in "${runs[@]}"; do
        d=${run%%:*}; extra=(${run#*:})
        b=$(batch_median "$work/out" "$imgpar" blur --sigma 2 --quality 95 "${extra[@]}" --device "$d" -q --out-dir "$work/out" "${files[@]}")
        # The chain's outputs of the last run stay, for the bytes below.
        keep=$work/$set-chain-$d; ((${#extra[@]})) && keep=$work/out
        c=$(batch_median "$keep" "$imgpar" chain "$chain" --quality 95 "${extra[@]}" --device "$d" -q --out-dir "$keep" "${files[@]}")
        vs="-"; [[ -n $cv_rate ]] && number "$c" && vs=$(ratio "$(rate "$n" "$c")" "$cv_rate")
        echo "| imgpar --device $d${extra[*]:+ ${extra[*]}} | $b | $(rate "$n" "$b") | $c | $(rate "$n" "$c") | $(ratio "$c" "$b") | $vs |"
    done
    [[ -n $cv_row ]] && echo "$cv_row"
    rm -rf "$work/out"
done

if [[ -f $single ]]; then
    echo
    echo "### One photo: $(basename "$single") (16 MP), JPEG quality 95 (median of $repeats, wall seconds; chain output bytes)"
    echo
    echo "| tool | blur s | chain s | chain / blur time | bytes |"
    echo "|---|---:|---:|---:|---:|"
    for d in "${devices[@]}"; do
        b=$(median "$imgpar" blur "$single" "$work/blur.jpg" --sigma 2 --quality 95 --device "$d")
        c=$(median "$imgpar" chain "$chain" "$single" "$work/chain_$d.jpg" --quality 95 --device "$d")
        echo "| imgpar --device $d | $b | $c | $(ratio "$c" "$b") | $(stat -c %s "$work/chain_$d.jpg" 2>/dev/null || echo -) |"
    done
    if ((have_cv)); then
        b=$(median python3 "$here/opencv_blur.py" "$single" "$work/blur_cv.jpg")
        c=$(median python3 "$here/opencv_chain.py" "$single" "$work/chain_cv.jpg")
        echo "| OpenCV (Python) | $b | $c | $(ratio "$c" "$b") | $(stat -c %s "$work/chain_cv.jpg" 2>/dev/null || echo -) |"
    fi
    echo
    echo "Where imgpar's chain time goes ($(basename "$single"), one run each, -v):"
    echo
    echo '```'
    for d in "${devices[@]}"; do
        "$imgpar" chain "$chain" "$single" "$work/v.jpg" --quality 95 --device "$d" -v >"$work/v.txt" 2>&1 || true
        sed -nE "s/.*(backend (cpu|gpu [^;]*)).*(stages: [^;]*).*/--device $d: \1; \3/p; s/.*: (stage [0-9]+\/[0-9]+ [a-z]+).*; ([0-9.]+ ms)$/    \1: \2/p" "$work/v.txt" >"$work/v.short"
        # Unforeseen wording: the lines as they are.
        if [[ -s $work/v.short ]]; then cat "$work/v.short"; else cut -c1-400 "$work/v.txt"; fi
    done
    echo '```'
fi

# The bytes: the GPU's chain outputs (the last timed run, decoded the default
# way) and those of one more run with each other JPEG decoder, against the
# CPU backend's.
if ((have_gpu)) && ((${#sets[@]})); then
    echo
    for set in "${sets[@]}"; do
        n=$(ls "$work/$set-chain-cpu" | wc -l)
        echo "- $set/, chain --device gpu: $(diff -rq "$work/$set-chain-cpu" "$work/$set-chain-gpu" | wc -l) of $n outputs differ from --device cpu's bytes"
        files=("$photos/$set"/*.jpg)
        ((limit > 0 && limit < ${#files[@]})) && files=("${files[@]:0:limit}")
        for dec in hardware cpu; do
            rm -rf "$work/dec"; mkdir -p "$work/dec"
            status=0
            "$imgpar" chain "$chain" --quality 95 --device gpu --jpeg-decoder "$dec" -q --out-dir "$work/dec" "${files[@]}" || status=$?
            echo "- $set/, chain --device gpu --jpeg-decoder $dec: $(diff -rq "$work/$set-chain-cpu" "$work/dec" | wc -l) of $n outputs differ from --device cpu's bytes$( ((status)) && echo " (exit $status)")"
        done
    done
fi
