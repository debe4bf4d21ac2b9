// Reports of a comparison (src/ops/compare.hpp): text for people, CSV and
// JSON for programs. Every function returns complete lines ending in '\n'.
//
// Text (compare_text):
//   a.png vs b.png: 451x300 RGB, 1200 of 405900 samples differ (0.296%) in 400 of 135300 pixels
//     channel  max_abs        differ     share         MAE         MSE        RMSE  PSNR dB      SSIM
//     red           12           400    0.296%      0.0030      0.0120      0.1095    67.34  0.999876
//     ...
//     all           12          1200    0.296%      ...
//   Identical images say so on the first line ("identical"); their PSNR
//   prints as "inf". An SSIM that was not computed prints "-", with a line
//   saying why when it was asked for (an image smaller than the window).
//   SSIM of shrunk images (--ssim-downsample) adds a line saying so.
//
// CSV (compare_csv_header once, then compare_csv_rows per pair): one row per
// channel and one named "all":
//   a,b,channel,max_abs,differ,differ_share,mae,mse,rmse,psnr,ssim
//   psnr "inf" for identical images; ssim empty when not computed.
//
// JSON (compare_json, one line per pair, JSON Lines for several):
//   {"schema":"imgpar.compare/2","a":..,"b":..,"ok":true,"width":..,"height":..,
//    "channels":..,"layout":"RGB","identical":bool,"pixels":..,"pixels_differ":..,
//    "all":{"samples":..,"max_abs":..,"differ":..,"differ_share":..,"mae":..,"mse":..,
//           "rmse":..,"psnr":x|null,"ssim":x|null},
//    "per_channel":[{"name":"red", the same members},...],
//    "ssim":{"window":11,"sigma":1.5,"k1":0.01,"k2":0.03,"data_range":255,
//            "downsample":f (both images shrunk f times first; 1: not),
//            "pixels":N (each channel's mean is over N pixels)} or
//           {"skipped":"why"},
//    "diff":"path"|null,"ssim_map":"path"|null,
//    "limits":{"passed":bool,"violations":[".."]} (only with --fail-above/--fail-below),
//    "backend":"cpu"|"gpu","device":".."|null,"kernel":"..","elapsed_ms":..,"decode_ms":..}
//   PSNR is null for identical images (infinite), SSIM null when not
//   computed: JSON never holds NaN or infinity. Numbers print with enough
//   digits to round-trip, so the GPU's and the CPU's records are equal.
//   A pair that fails: {"schema":..,"a":..,"b":..,"ok":false,"error":".."}.
#pragma once

#include <limits>

#include <string>
#include <vector>

#include "src/ops/compare.hpp"

namespace imgpar {

constexpr const char* kCompareJsonSchema = "imgpar.compare/2";
// "psnr" of identical images in JSON (+inf elsewhere): the largest double,
// 1.7976931348623157e+308. (imgpar.compare/1 wrote null.)
constexpr double kJsonInfinitePsnr = std::numeric_limits<double>::max();

// Where a comparison came from and what the run did besides it.
struct CompareSource {
    std::string a, b;        // as the user named them
    int width = 0;
    int height = 0;
    std::string backend;     // "cpu" / "gpu"
    std::string device;      // the GPU's name, empty on the CPU
    std::string kernel;      // what computed, in words
    std::string no_ssim;     // why there is no SSIM (empty when there is one)
    bool ssim_asked = true;  // false with --no-ssim: the text prints no reason
    std::string diff;        // the difference image written, or empty
    std::string ssim_map;    // the SSIM map written, or empty
    bool limits = false;     // --fail-above / --fail-below were given
    std::vector<std::string> violations;
    double elapsed_ms = 0;   // the comparison (upload, kernels, download on the GPU)
    double decode_ms = 0;    // reading and decoding both files
};

std::string compare_text(const CompareSource& src, const Comparison& c);
std::string compare_csv_header();
std::string compare_csv_rows(const CompareSource& src, const Comparison& c);
std::string compare_json(const CompareSource& src, const Comparison& c);
std::string compare_json_failure(const std::string& a, const std::string& b, const std::string& error);

// A channel's name in the reports: "gray", "alpha", "red", ...
std::string compare_channel_name(int channels, int c);

}  // namespace imgpar
