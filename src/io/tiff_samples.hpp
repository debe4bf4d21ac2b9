// The two halves of decoding a TIFF page's samples (libtiff builds only):
// reading its strips or tiles into an image of the samples as stored
// (tiff_decode.cpp), then converting them to gray / gray+alpha / RGB /
// RGBA (tiff_convert.cpp).
#pragma once

#if IMGPAR_HAVE_LIBTIFF

#include <string>
#include <vector>

#include "src/image.hpp"
#include "src/io/tiff_layout.hpp"

namespace imgpar {

// Every sample of the page, l.samples a pixel, in T (u8 for up to 8 bits,
// values as stored: 0..2^bits-1; u16 for 16 bits and for floats mapped to
// 0..65535), into `out`: width x height x l.samples, packed (up to 16
// samples a pixel, more than an Image holds).
template <typename T>
void read_tiff_samples(TiffFile& f, const TiffLayout& l, T* out, std::vector<std::string>& warnings, bool allow_partial);

// Whether the samples as stored are already imgpar's pixels (then
// read_tiff_samples may write into the Image itself).
bool tiff_samples_are_pixels(const TiffLayout& l);

// The samples as imgpar's pixels (l.channels a pixel), with a warning for
// each lossy conversion (palette, CMYK, samples dropped).
template <typename T>
Image<T> convert_tiff_samples(const std::vector<T>& stored, TiffFile& f, const TiffLayout& l,
                              std::vector<std::string>& warnings);

// A page of a colour model imgpar does not convert itself, through
// libtiff's RGBA interface: RGB, or RGBA with alpha divided out.
ImageU8 read_tiff_rgba(TiffFile& f, const TiffLayout& l, std::vector<std::string>& warnings, bool allow_partial);

}  // namespace imgpar

#endif
