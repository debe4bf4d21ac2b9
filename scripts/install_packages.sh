#!/usr/bin/env bash
# Installs Debian/Ubuntu packages with apt-get, as root or through sudo without
# a password, and says what to run when it can do neither.
#
#   scripts/install_packages.sh CALLER PKG...               those packages
#   scripts/install_packages.sh CALLER --group GROUP...     the packages of each GROUP that are missing
#   scripts/install_packages.sh --list GROUP                GROUP's packages, one a line
#
# CALLER prefixes the messages. The groups:
#   build  what building and running imgpar need: scripts/bootstrap.sh installs it
#   test   what only the tests use: scripts/test.sh installs it
# (scripts/fuzz.sh names its own packages: Clang and its libFuzzer runtime.)
#
# Exit status: 0 installed, or nothing was missing; 1 not possible here (the
# message says why, and what to run); 2 usage.
set -euo pipefail

# Debian/Ubuntu package -> a file that proves it is installed (the same path
# on Debian 12 and Ubuntu 24.04; a pattern where the name holds Python's
# version).
declare -A probes=(
    # --- build: the compiler and CMake; the header-only libraries (stb, cxxopts,
    # and doctest: the default build compiles the test suites too); the codecs
    # (libjpeg-turbo, libpng with zlib, libtiff); the CPU's SIMD with runtime dispatch
    # (Google Highway); WebP, AVIF and GIF. Running imgpar needs only what these bring.
    [cmake]=/usr/bin/cmake
    [g++]=/usr/bin/g++
    [make]=/usr/bin/make
    [libstb-dev]=/usr/include/stb/stb_image_write.h
    [libcxxopts-dev]=/usr/include/cxxopts.hpp
    [doctest-dev]=/usr/include/doctest/doctest.h
    [libjpeg-dev]=/usr/include/jpeglib.h
    [libpng-dev]=/usr/include/png.h
    [zlib1g-dev]=/usr/include/zlib.h
    [libhwy-dev]=/usr/include/hwy/highway.h
    # TIFF through libtiff (its headers sit in the architecture's folder).
    [libtiff-dev]='/usr/include/*/tiffio.h'
    # WebP (libwebp with its demuxer and muxer), AVIF (libavif with its AV1 codecs), GIF read (giflib).
    [libwebp-dev]=/usr/include/webp/decode.h
    [libavif-dev]=/usr/include/avif/avif.h
    [libgif-dev]=/usr/include/gif_lib.h
    # --- test: what the suites run beside imgpar.
    # Every file imgpar writes must decode to the same pixels in libvips (tests/cli/test_cli_vips.cpp).
    [libvips-tools]=/usr/bin/vips
    # imgpar's TIFFs are read back by libtiff's own tools, and Pillow writes the CMYK, palette
    # and 16-bit TIFF inputs (tests/cli/test_cli_tiff.cpp).
    [libtiff-tools]=/usr/bin/tiffinfo
    [python3-pil]=/usr/lib/python3/dist-packages/PIL
    # ... and in each format's reference decoder: dwebp (Debian's webp package) and avifdec.
    [webp]=/usr/bin/dwebp
    [libavif-bin]=/usr/bin/avifdec
    # NumPy reads integral's .npy files and computes the references of compare, stats and
    # adaptive threshold; OpenCV (cv2.integral, adaptiveThreshold, meanStdDev) and scikit-image
    # (structural_similarity, threshold_sauvola/niblack) are the peers they are checked against.
    [python3-numpy]=/usr/lib/python3/dist-packages/numpy/__init__.py
    [python3-opencv]='/usr/lib/python3/dist-packages/cv2*'
    [python3-skimage]=/usr/lib/python3/dist-packages/skimage
    # Array jobs under a one-node Slurm that the test starts, and GNU parallel (tests/scale/).
    [slurm-wlm]=/usr/sbin/slurmd
    [munge]=/usr/sbin/munged
    [parallel]=/usr/bin/parallel
    # Metadata written by imgpar read back by exiftool, and Pillow's CMYK JPEGs, palette PNGs and
    # sRGB profile (tests/cli/test_cli_metadata_kinds.cpp).
    [libimage-exiftool-perl]=/usr/bin/exiftool
    [python3-pil]=/usr/lib/python3/dist-packages/PIL
    # A run reads each input once (tests/cli/test_cli_reads.cpp).
    [strace]=/usr/bin/strace
    # The manual page is typeset without a warning (tests/cli/).
    [groff-base]=/usr/bin/groff
    # Shells to load the completion scripts in (bash is there already).
    [zsh]=/usr/bin/zsh
    [fish]=/usr/bin/fish
)
declare -A groups=(
    [build]="cmake g++ make libstb-dev libcxxopts-dev doctest-dev libjpeg-dev libpng-dev zlib1g-dev libhwy-dev libtiff-dev libwebp-dev libavif-dev libgif-dev"
    [test]="libvips-tools libtiff-tools webp libavif-bin python3-numpy python3-opencv python3-skimage libimage-exiftool-perl python3-pil slurm-wlm munge parallel strace groff-base zsh fish"
)
usage="usage: scripts/install_packages.sh CALLER PKG... | CALLER --group GROUP... | --list GROUP  (groups: ${!groups[*]})"

if [[ ${1:-} == --list ]]; then
    [[ -n ${2:-} && -n ${groups[${2}]:-} ]] || { printf '%s\n' "$usage" >&2; exit 2; }
    printf '%s\n' ${groups[$2]}
    exit 0
fi
(($# >= 2)) || { printf '%s\n' "$usage" >&2; exit 2; }
caller=$1
shift
say() { printf '%s: %s\n' "$caller" "$*" >&2; }

packages=()
if [[ $1 == --group ]]; then
    shift
    (($#)) || { printf '%s\n' "$usage" >&2; exit 2; }
    for group in "$@"; do
        [[ -n ${groups[$group]:-} ]] || { printf '%s\n' "$usage" >&2; exit 2; }
        for pkg in ${groups[$group]}; do
            compgen -G "${probes[$pkg]}" >/dev/null || packages+=("$pkg")
        done
    done
    ((${#packages[@]})) || exit 0
else
    packages=("$@")
fi

if ! command -v apt-get >/dev/null 2>&1; then
    say "missing: ${packages[*]}"
    say "this is not a Debian/Ubuntu system: install those (or their equivalents)"
    exit 1
fi
if [[ $(id -u) -eq 0 ]]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
else
    say "missing packages: ${packages[*]}"
    say "install them as root:  apt-get update && apt-get install -y ${packages[*]}"
    exit 1
fi
say "installing: ${packages[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
