#!/usr/bin/env bash
# TIFF decode and encode of one photo, imgpar convert against vips copy with
# the same settings (issue #52: "no slower than vips copy"), 8- and 16-bit.
# Prints a Markdown table: median of REPEATS runs, user+sys CPU seconds and
# wall seconds, for each imgpar given (a baseline build beside a new one).
#
#   bench/e2e/tiff_vips.sh PHOTO [REPEATS] IMGPAR...
#
# PHOTO: any image vips reads (the 16 MP PNG of make_photos.py's single/).
# Decode rows read a compressed TIFF and write it uncompressed (the cheapest
# output both tools share); encode rows read the uncompressed TIFF and write
# the compressed one. vips writes LZW and Deflate with the horizontal
# predictor by default, as imgpar does.
set -euo pipefail
photo=$(realpath "$1")
repeats=${2:-5}
shift 2
imgpars=()
for b in "$@"; do imgpars+=("$(realpath "$b")"); done
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=timing.sh
source "$here/timing.sh"
cd "$work"

vips copy "$photo" rgb8.v
vips colourspace rgb8.v rgb16.v rgb16
for depth in 8 16; do
    for c in none lzw deflate; do vips copy "rgb$depth.v" "p${depth}_$c.tif[compression=$c]"; done
done

header="| job (CPU / wall s) |"
rule="|---|"
for b in "${imgpars[@]}"; do header+=" imgpar $(basename "$b") |"; rule+="---:|"; done
echo "$header vips copy |"
echo "$rule---:|"
for depth in 8 16; do
    for c in none lzw deflate; do
        row="| decode $depth-bit $c |"
        for b in "${imgpars[@]}"; do row+=" $(cpu_wall_median "$b" convert "p${depth}_$c.tif" out.tif --compression none) |"; done
        echo "$row $(cpu_wall_median vips copy "p${depth}_$c.tif" out.tif) |"
    done
    for c in none lzw deflate; do
        row="| encode $depth-bit $c |"
        for b in "${imgpars[@]}"; do row+=" $(cpu_wall_median "$b" convert "p${depth}_none.tif" out.tif --compression "$c") |"; done
        echo "$row $(cpu_wall_median vips copy "p${depth}_none.tif" "out.tif[compression=$c]") |"
    done
done
