#!/usr/bin/env bash
# Builds imgpar's libFuzzer targets (tests/fuzz/) with AddressSanitizer and
# UndefinedBehaviorSanitizer, runs each for a fixed time from its seed corpus,
# and fails on any finding: a crash, a sanitizer report, a leak, an
# unexpected exception, an input slower than --timeout or memory beyond the
# limits.
#
#   scripts/fuzz.sh                     # every target, 60 s each (what CI runs)
#   scripts/fuzz.sh --time 1800         # 30 minutes each
#   scripts/fuzz.sh --only decode_stb --time 600 --jobs 4
#
# Options:
#   --time SECONDS   fuzzing time per target (default 60)
#   --jobs N         fuzzing processes per target (default: one per core)
#   --only LIST      comma-separated targets (default: all of them):
#                      decode      decode_image: PNG (libpng), JPEG (libjpeg-turbo), BMP (stb),
#                                  WebP (libwebp), AVIF (libavif, dav1d), GIF (giflib), TIFF (libtiff)
#                      header      read_image_header (a TIFF page's directory too), the peeked size, the JPEG layout
#                      metadata    EXIF, ICC, XMP, IPTC and comments from JPEG segments and PNG chunks,
#                                  written back and read again; EXIF and ICC from WebP chunks; EXIF orientation
#                      kernel      custom kernels: --kernel text, --kernel-file, planned and applied
#                      split       the split JPEG decode on the CPU against decode_image's pixels
#                      huffman     the parallel Huffman decoding's CPU twin against the scan walk and
#                                  libjpeg-turbo's coefficients (inputs up to 4 KiB: a scan never in
#                                  step walks for its whole bound)
#                      decode_stb  decode_image in a build without libjpeg-turbo and libpng: stb's
#                                  PNG, JPEG and BMP decoders behind imgpar's checks
#   --build-dir DIR  where to build and write (default build-fuzz): DIR/libs and DIR/stb are the
#                    two build trees, DIR/findings/TARGET/ the reproducers, DIR/run/TARGET/ the
#                    log and the corpus the last run grew (the checked-in seeds are never touched)
#   --timeout S      an input that runs longer than S seconds is a finding (default 10)
#   -- ARGS          further libFuzzer flags, for every target (e.g. -- -max_len=65536)
#
# Environment: IMGPAR_FUZZ_CXX, the Clang to build with (default clang++).
# Clang, its libFuzzer runtime and the build dependencies are installed with
# apt-get when missing (as root, or with sudo), as scripts/bootstrap.sh does.
#
# A finding stops that target: the script prints the end of its log, the
# reproducer and the command that replays it, e.g.
#   build-fuzz/libs/tests/fuzz/fuzz_decode build-fuzz/findings/decode/crash-<sha1>
# then goes on with the other targets, and exits 1 at the end.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD

say() { printf 'fuzz: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

all_targets=(decode header metadata kernel split huffman decode_stb)
time_per_target=60
jobs=$(nproc)
only=""
build_dir=build-fuzz
timeout=10
extra_args=()
while (($#)); do
    case "$1" in
        --time) time_per_target=${2:?--time needs seconds}; shift 2 ;;
        --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
        --only) only=${2:?--only needs a list of targets}; shift 2 ;;
        --build-dir) build_dir=${2:?--build-dir needs a folder}; shift 2 ;;
        --timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
        --) shift; extra_args=("$@"); break ;;
        -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
done
[[ $time_per_target =~ ^[0-9]+$ && $time_per_target -ge 1 ]] || die "--time must be a whole number of seconds, at least 1"
[[ $jobs =~ ^[0-9]+$ && $jobs -ge 1 ]] || die "--jobs must be a whole number, at least 1"
[[ $timeout =~ ^[0-9]+$ && $timeout -ge 1 ]] || die "--timeout must be a whole number of seconds, at least 1"
targets=("${all_targets[@]}")
if [[ -n $only ]]; then
    IFS=, read -r -a targets <<<"$only"
    for t in "${targets[@]}"; do
        [[ " ${all_targets[*]} " == *" $t "* ]] || die "unknown target '$t' (targets: ${all_targets[*]})"
    done
fi
mkdir -p "$build_dir"
build_dir=$(cd "$build_dir" && pwd)

# --- Tools -------------------------------------------------------------------
cxx=${IMGPAR_FUZZ_CXX:-clang++}

# Whether $cxx links a fuzz target with libFuzzer and the sanitizers.
can_build_fuzzers() {
    command -v "$cxx" >/dev/null 2>&1 || return 1
    local probe
    probe=$(mktemp -d)
    printf '%s\n' '#include <cstddef>' '#include <cstdint>' \
        'extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }' >"$probe/probe.cpp"
    "$cxx" -fsanitize=fuzzer,address,undefined "$probe/probe.cpp" -o "$probe/probe" >/dev/null 2>&1
    local ok=$?
    rm -rf "$probe"
    return $ok
}

# Debian/Ubuntu package -> a file that proves it is installed.
declare -A probes=(
    [cmake]=/usr/bin/cmake
    [make]=/usr/bin/make
    [libstb-dev]=/usr/include/stb/stb_image_write.h
    [libcxxopts-dev]=/usr/include/cxxopts.hpp
    [libjpeg-dev]=/usr/include/jpeglib.h
    [libpng-dev]=/usr/include/png.h
    [libtiff-dev]='/usr/include/*/tiffio.h'  # (in the architecture's folder)
    [libwebp-dev]=/usr/include/webp/decode.h
    [libavif-dev]=/usr/include/avif/avif.h
    [libgif-dev]=/usr/include/gif_lib.h
    [llvm]=/usr/bin/llvm-symbolizer  # readable stack traces in the reports
)
missing=()
for pkg in cmake make libstb-dev libcxxopts-dev libjpeg-dev libpng-dev libtiff-dev libwebp-dev libavif-dev libgif-dev llvm; do
    compgen -G "${probes[$pkg]}" >/dev/null || missing+=("$pkg")
done
if [[ -z ${IMGPAR_FUZZ_CXX:-} ]] && ! can_build_fuzzers; then
    missing+=(clang libclang-rt-dev)
fi
if ((${#missing[@]})); then
    scripts/install_packages.sh fuzz "${missing[@]}" ||
        die "install them (or a Clang with libFuzzer, named by IMGPAR_FUZZ_CXX) and retry"
fi
can_build_fuzzers || die "$cxx cannot link a libFuzzer target with ASan and UBSan (set IMGPAR_FUZZ_CXX to a Clang that can)"

# --- Build -------------------------------------------------------------------
needs_tree() {  # needs_tree libs|stb: whether a selected target runs from that tree
    local t
    for t in "${targets[@]}"; do
        if [[ $1 == stb && $t == decode_stb ]] || [[ $1 == libs && $t != decode_stb ]]; then return 0; fi
    done
    return 1
}
build_tree() {  # build_tree NAME TARGET... -- CMAKE_ARGS...
    local tree=$build_dir/$1
    shift
    local build_targets=()
    while [[ $1 != -- ]]; do build_targets+=("$1"); shift; done
    shift
    local started=$SECONDS
    cmake -S "$repo" -B "$tree" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" -DIMGPAR_FUZZ=ON \
        -DIMGPAR_CUDA=OFF -DIMGPAR_BUILD_TESTS=OFF -DIMGPAR_BUILD_BENCH=OFF "$@" >/dev/null
    for target in "${build_targets[@]}"; do
        cmake --build "$tree" -j "$(nproc)" --target "$target" >"$tree/build.log" 2>&1 ||
            { tail -n 40 "$tree/build.log" >&2; die "building $target in $tree failed"; }
    done
    say "built ${build_targets[*]} in $tree ($((SECONDS - started)) s)"
}
# The libraries imgpar ships with, and stb alone (a build without libjpeg-turbo and libpng).
if needs_tree libs; then build_tree libs imgpar_fuzzers -- -DIMGPAR_LIBJPEG=ON -DIMGPAR_LIBPNG=ON; fi
if needs_tree stb; then build_tree stb fuzz_decode -- -DIMGPAR_LIBJPEG=OFF -DIMGPAR_LIBPNG=OFF; fi

# --- Run ---------------------------------------------------------------------
# target -> "tree executable corpus max_len dictionaries..."
declare -A plan=(
    [decode]="libs fuzz_decode images 16384 png jpeg bmp exif metadata webp avif gif tiff"
    [header]="libs fuzz_header images 16384 png jpeg bmp exif metadata webp avif gif tiff"
    [metadata]="libs fuzz_metadata images 16384 png jpeg exif metadata webp"
    [kernel]="libs fuzz_kernel kernels 4096 kernel"
    [split]="libs fuzz_split images 16384 jpeg exif"
    [huffman]="libs fuzz_huffman images 4096 jpeg"
    [decode_stb]="stb fuzz_decode images 16384 png jpeg bmp exif"
)

failed=()
for t in "${targets[@]}"; do
    read -r tree exe corpus max_len dicts <<<"${plan[$t]}"
    binary=$build_dir/$tree/tests/fuzz/$exe
    run=$build_dir/run/$t
    findings=$build_dir/findings/$t
    rm -rf "$run"
    mkdir -p "$run/corpus" "$findings"
    # A copy of the seeds: the fuzzer adds to the corpus it is given.
    cp "$repo/tests/fuzz/corpus/$corpus/"* "$run/corpus/"
    for d in $dicts; do cat "$repo/tests/fuzz/dict/$d.dict"; done >"$run/$t.dict"
    before=$(find "$findings" -type f | wc -l)

    args=(-max_total_time="$time_per_target" -timeout="$timeout" -rss_limit_mb=2048 -malloc_limit_mb=512
          -max_len="$max_len" -dict="$run/$t.dict" -artifact_prefix="$findings/" -print_final_stats=1)
    # Several processes share one corpus in fork mode; there, timeouts and
    # running out of memory are findings too, as they are in one process.
    if ((jobs > 1)); then args+=(-fork="$jobs" -ignore_crashes=0 -ignore_timeouts=0 -ignore_ooms=0); fi
    say "$t: ${time_per_target} s, $jobs process(es), seeds from tests/fuzz/corpus/$corpus (log: $run/fuzz.log)"
    status=0
    (cd "$run" && "$binary" "${args[@]}" "${extra_args[@]}" "$run/corpus" >"$run/fuzz.log" 2>&1) || status=$?
    after=$(find "$findings" -type f | wc -l)
    # Inputs run: from the final statistics, or in fork mode the last status line ("#1234: cov: ...").
    runs=$(grep -oE '^stat::number_of_executed_units: [0-9]+|^#[0-9]+' "$run/fuzz.log" | tail -n 1 | grep -oE '[0-9]+$' || true)
    if ((status == 0 && after == before)); then
        say "$t: no findings (${runs:-?} inputs run)"
        continue
    fi
    failed+=("$t")
    say "$t: FINDING (exit status $status); the end of $run/fuzz.log:"
    tail -n 60 "$run/fuzz.log" >&2
    while IFS= read -r reproducer; do
        say "$t: reproducer $reproducer ($(stat -c %s "$reproducer") bytes); replay with:"
        say "    $binary $reproducer"
        if (($(stat -c %s "$reproducer") <= 4096)); then
            say "$t: the reproducer in base64 (for a CI log):"
            base64 "$reproducer" >&2
        fi
    done < <(find "$findings" -type f -newer "$run/$t.dict")
done

if ((${#failed[@]})); then
    say "findings in: ${failed[*]} (reproducers under $build_dir/findings/)"
    exit 1
fi
say "no findings in ${targets[*]} (${time_per_target} s each)"
