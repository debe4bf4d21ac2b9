#!/usr/bin/env bash
# Builds imgpar with the GPU backend (Hopper, sm_90) on an offline machine:
# one with the CUDA toolkit, cmake and g++ but no package registry. The
# libraries and headers come from a .deps/ folder made beforehand on a
# Debian machine with package access (docs/offline.md):
#
#   .deps/headers/    stb/stb_image.h, stb/stb_image_write.h, cxxopts.hpp, doctest/
#   .deps/debs/       apt-get download libjpeg62-turbo-dev libjpeg62-turbo libpng-dev
#                     libpng16-16 zlib1g-dev libhwy-dev libhwy1 libwebp-dev libgif-dev
#                     libavif-dev libavif15 libaom3 libdav1d6 libgav1-1 librav1e0
#                     libsvtav1enc1 libyuv0 libabsl20220623 (and libjpeg-turbo-progs,
#                     whose cjpeg bench/e2e/make_sets.py uses); for TIFF: libtiff-dev
#                     and the -dev packages of what its static library needs (beside
#                     libwebp-dev and libjpeg62-turbo-dev, already there):
#                     libzstd-dev liblzma-dev liblerc-dev libjbig-dev libdeflate-dev
#
# Every package there is unpacked with dpkg -x into .deps/prefix/ (no root
# needed, nothing installed), and CMake is pointed at the copies: libjpeg-turbo,
# libpng, zlib, libtiff (with the libraries its libtiff-4.pc lists), libwebp
# (with its demuxer and muxer) and giflib are linked statically; Highway and
# libavif are shared libraries (Debian ships no static ones) that the binary
# finds in .deps/prefix through its run path (keep the folder). libavif's own
# AV1 codecs and their libraries are found there too: the run path is written
# as DT_RPATH (--disable-new-dtags), which, unlike DT_RUNPATH, also serves
# the libraries' own dependencies.
#
#   scripts/device_build.sh [BUILD_DIR [CMAKE_ARGS...]]    (BUILD_DIR: build-gpu)
#
# Run from anywhere; paths are taken from the repository root. Environment:
#   IMGPAR_DEPS     the deps folder (default: .deps in the repository root)
#   IMGPAR_TARGETS  targets to build, space-separated (default: all), e.g. "imgpar"
#   IMGPAR_JOBS     parallel build jobs (default: 16)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=${1:-build-gpu}
shift || true
deps=$(realpath "${IMGPAR_DEPS:-.deps}")
headers=$deps/headers
prefix=$deps/prefix

die() { echo "device_build.sh: $*" >&2; exit 1; }
for f in stb/stb_image.h stb/stb_image_write.h cxxopts.hpp doctest/doctest.h; do
    [[ -f $headers/$f ]] || die "$headers/$f is missing (see docs/offline.md)"
done
# libavif's run-time closure on Debian 12 (ldd of libavif.so.15 less glibc,
# libstdc++, libgcc), none of which Ubuntu 24.04 has in these versions.
avif_runtime="libavif15 libaom3 libdav1d6 libgav1-1 librav1e0 libsvtav1enc1 libyuv0 libabsl20220623 libjpeg62-turbo"
# What libtiff's static library needs (its libtiff-4.pc's Libs.private).
tiff_static="libtiff-dev libzstd-dev liblzma-dev liblerc-dev libjbig-dev libdeflate-dev"
for p in libjpeg62-turbo-dev libpng-dev zlib1g-dev libhwy-dev libhwy1 libwebp-dev libgif-dev libavif-dev \
         $avif_runtime $tiff_static; do
    compgen -G "$deps/debs/${p}_*.deb" >/dev/null || die "$deps/debs/${p}_*.deb is missing"
done
command -v dpkg >/dev/null || die "dpkg is needed to unpack the packages"

# Unpack every package afresh, then put jconfig.h (in the architecture's
# include folder) beside jpeglib.h, where FindJPEG's one include folder sees it.
rm -rf "$prefix"
mkdir -p "$prefix"
for deb in "$deps"/debs/*.deb; do
    dpkg -x "$deb" "$prefix"
done
jconfig=("$prefix"/usr/include/*/jconfig.h)
[[ -f ${jconfig[0]} ]] || die "no jconfig.h in the unpacked libjpeg-turbo"
cp -p "${jconfig[0]}" "$prefix/usr/include/"  # -p: an unchanged date rebuilds nothing

lib() {  # the one unpacked file usr/lib/<triplet>/$1
    local found=("$prefix"/usr/lib/*/"$1")
    [[ -e ${found[0]} ]] || die "no $1 under $prefix/usr/lib"
    echo "${found[0]}"
}
jpeg_lib=$(lib libjpeg.a)
png_lib=$(lib libpng16.a)
zlib_lib=$(lib libz.a)
hwy_dir=$(lib cmake/hwy)
tiff_lib=$(lib libtiff.a)
tiff_include=$(dirname "$(echo "$prefix"/usr/include/*/tiffio.h)")
webp_lib=$(lib libwebp.a)
webpdemux_lib=$(lib libwebpdemux.a)
webpmux_lib=$(lib libwebpmux.a)
gif_lib=$(lib libgif.a)
avif_dir=$(lib cmake/libavif)

cmake -S . -B "$build" \
    -DCMAKE_BUILD_TYPE=Release -DIMGPAR_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DSTB_INCLUDE_DIR="$headers/stb" -DCXXOPTS_INCLUDE_DIR="$headers" -DDOCTEST_INCLUDE_DIR="$headers" \
    -DJPEG_INCLUDE_DIR="$prefix/usr/include" -DJPEG_LIBRARY="$jpeg_lib" \
    -DPNG_PNG_INCLUDE_DIR="$prefix/usr/include" -DPNG_LIBRARY="$png_lib" \
    -DZLIB_INCLUDE_DIR="$prefix/usr/include" -DZLIB_LIBRARY="$zlib_lib" \
    -Dhwy_DIR="$hwy_dir" \
    -DTIFF_INCLUDE_DIR="$tiff_include" -DTIFF_LIBRARY="$tiff_lib" \
    -DWEBP_INCLUDE_DIR="$prefix/usr/include" -DWEBP_LIBRARY="$webp_lib" \
    -DWEBPDEMUX_LIBRARY="$webpdemux_lib" -DWEBPMUX_LIBRARY="$webpmux_lib" \
    -DGIF_INCLUDE_DIR="$prefix/usr/include" -DGIF_LIBRARY="$gif_lib" \
    -Dlibavif_DIR="$avif_dir" \
    -DCMAKE_EXE_LINKER_FLAGS="-Wl,--disable-new-dtags" \
    "$@"

targets=()
for t in ${IMGPAR_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" -j "${IMGPAR_JOBS:-16}" "${targets[@]}"
if [[ -x $build/imgpar ]]; then
    "$build/imgpar" --version
fi
