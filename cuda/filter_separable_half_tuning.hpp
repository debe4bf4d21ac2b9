// The tuning table of the tensor-core Gaussian (cuda/filter_separable_half_kernel.cuh):
// one row per kernel variant, with the knobs the kernel reads as compile-time
// constants and a line on the measurement that chose them. bench/TUNING.md
// has the measurements, knob by knob, and what was tried and not kept;
// the blur and sharpen rows of `imgpar_bench --only operations` are the
// measurement to run before changing a row (8K RGB and gray, sigma 1 to 20,
// on an H100).
#pragma once

#include <cstddef>
#include <string>

namespace imgpar::cuda::filter_detail {

// Window blocks: a variant of M covers radius <= 16M (M = 0: radius <= 8).
constexpr int kMaxM = 5;  // radius up to 80

// Whether a plan of window M runs both passes as u8 MMAs: past radius 16,
// where every tap fits a byte (sigma 6.5 and up; past radius 32 every
// Gaussian's taps do, so FP16 serves M <= 2 only).
constexpr bool uses_u8_passes(int m, int max_tap) { return m >= 2 && max_tap <= 255; }

// The row segments (plan_segments): the first long_percent of the output
// row blocks in one wave of long segments (per strip, one per resident block
// and strip; the two edge strips, whose steps cost 1.3-1.5x, cut theirs into
// edge_long_num / edge_long_den as many), the rest in segments of short_len
// row blocks, taken by whichever block finishes first.
struct SegmentTuning {
    int long_percent;
    int short_len;
    int edge_long_num;
    int edge_long_den;
};

// On/off knobs of a row (GaussianTuning::knobs).
enum GaussianKnob : unsigned {
    // Persistent blocks (as many as fit) take segment after segment from a
    // ticket counter; otherwise one block per segment.
    kPersistent = 1u << 0,
    // FP16: the vertical MMAs over the window blocks already held are issued
    // before the horizontal pass. u8: with each fragment's horizontal MMAs
    // (else after the horizontal pass).
    kEarlyVertical = 1u << 1,
    // A second copy of the step body for the steady steps (inside the image,
    // whole rows of a plain blur), without the edge and copy-kind tests.
    kSteadyLoop = 1u << 2,
    // (With kSteadyLoop, unroll 1.) The steady steps run in groups of NB,
    // unrolled, with the H window rotated instead of shifted.
    kRotateWindow = 1u << 3,
    // FP16: a1 and a3 of every Toeplitz fragment get registers of their own.
    kOwnRegisters = 1u << 4,
    // A planar output tile (16-bit result stores); the store phase interleaves.
    kPlanarTile = 1u << 5,
};

struct GaussianTuning {
    // The variant.
    int channels;
    int m;           // window blocks (see kMaxM)
    bool u8_passes;  // both passes as u8 MMAs (uses_u8_passes), else FP16
    int unroll;      // the step loop unrolled; > 1 only for plain blurs (the epilogue copied U times ran slower)
    // Its knobs.
    int strip_px;         // output columns per block
    int tiles_per_warp;   // 16-column tiles per warp (they share fragments, loads and per-step overhead)
    int blocks_per_sm;    // resident blocks asked of __launch_bounds__, which caps the registers
    int convert_unit_px;  // pixels per convert unit (one share item)
    int raw_slots;        // raw input slots in the ring, a power of 2: a block is copied slots - 2 steps ahead
    unsigned knobs;       // GaussianKnob flags
    SegmentTuning segments;
    const char* note;  // the measurement that chose the row (8K, ms, H100; see bench/TUNING.md)

    constexpr bool has(GaussianKnob k) const { return (knobs & k) != 0u; }
};

// One sweep chose the segment plan for every variant (bench/TUNING.md, "Row segments").
inline constexpr SegmentTuning kSegmentSweep{84, 12, 3, 2};

// Rows of gray and RGB only: images with alpha run cuda/filter_wide.cu.
inline constexpr GaussianTuning kGaussianTuning[] = {
    // channels, M, u8 passes, unroll, strip, tiles per warp, blocks per SM, convert unit, raw slots, knobs,
    //     segments, note
    {1, 0, false, 4, 128, 1, 4, 16, 4, kSteadyLoop | kOwnRegisters,
     kSegmentSweep, "steady groups of 4 unrolled steps: sigma 1 / 2 0.081 / 0.082 -> 0.079 / 0.079"},
    {1, 0, false, 1, 128, 1, 4, 16, 4, kOwnRegisters,
     kSegmentSweep, "the modes with an epilogue stay rolled: unrolled, sharpen sigma 1 took 0.25 against 0.19"},
    {1, 1, false, 1, 128, 2, 5, 16, 4, kSteadyLoop | kRotateWindow | kOwnRegisters,
     kSegmentSweep, "two tiles a warp, 5 blocks of 4 warps (76 registers): sigma 5 0.080 / 0.078 -> 0.074 / 0.073"},
    {1, 2, false, 1, 128, 1, 4, 16, 4, kEarlyVertical,
     kSegmentSweep, "early vertical: sigma 10 (FP16 then) 0.143 -> 0.134; the steady loop spilled"},
    {1, 2, true, 1, 128, 1, 4, 16, 4, kEarlyVertical,
     kSegmentSweep, "u8 passes: sigma 10 as with FP16 (0.112-0.115); K = 16 last block 0.117 -> 0.111"},
    {1, 3, true, 1, 128, 1, 3, 16, 4, kEarlyVertical,
     kSegmentSweep, "u8 passes: sigma 14 0.165 -> 0.139"},
    {1, 4, true, 1, 128, 1, 2, 16, 4, kEarlyVertical | kSteadyLoop | kRotateWindow,
     kSegmentSweep, "u8 passes: sigma 20 0.148 -> 0.132; steady loop (FP16 then) 0.228 -> 0.210"},
    {1, 5, true, 1, 128, 1, 2, 16, 4, kEarlyVertical | kSteadyLoop | kRotateWindow,
     kSegmentSweep, "M = 4's knobs, untimed: sigma 25 (radius 75) ran the ring of rows"},
    {3, 0, false, 4, 64, 2, 4, 4, 4, kPersistent | kSteadyLoop | kOwnRegisters,
     kSegmentSweep, "unrolled 4x: sigma 1 0.137 -> 0.131; two tiles a warp: sigma 1 / 2 0.107-0.110 -> 0.101-0.104"},
    {3, 0, false, 1, 64, 2, 4, 4, 4, kPersistent | kOwnRegisters,
     kSegmentSweep, "the modes with an epilogue stay rolled: unrolled, sharpen sigma 1 took 0.35 against 0.29"},
    {3, 1, false, 1, 64, 2, 4, 4, 4, kPersistent | kSteadyLoop | kRotateWindow | kOwnRegisters | kPlanarTile,
     kSegmentSweep, "two tiles a warp, 4 blocks of 6 warps (77 registers): sigma 5 0.116 / 0.115 -> 0.110 / 0.110"},
    {3, 2, false, 1, 64, 1, 2, 4, 4, kEarlyVertical | kSteadyLoop | kRotateWindow | kPlanarTile,
     kSegmentSweep, "steady loop (sigma 10, FP16 then) 0.267 -> 0.247; window rotated 0.246-0.251 -> 0.242-0.244"},
    {3, 2, true, 1, 64, 1, 2, 4, 4, kEarlyVertical | kSteadyLoop | kRotateWindow | kPlanarTile,
     kSegmentSweep, "u8 passes: sigma 10 0.185 -> 0.157; K = 16 last block 0.159 -> 0.155"},
    {3, 3, true, 1, 64, 1, 2, 4, 4, kEarlyVertical | kPlanarTile,
     kSegmentSweep, "u8 passes: sigma 14 0.265 -> 0.230; K = 16 last block 0.231 -> 0.220"},
    {3, 4, true, 1, 64, 2, 2, 16, 4, kPersistent | kSteadyLoop | kPlanarTile,
     kSegmentSweep, "two tiles a warp, vertical pass last: sigma 20 0.274 -> 0.253; 16-pixel units 0.246 -> 0.237"},
    {3, 5, true, 1, 64, 2, 2, 16, 4, kPersistent | kSteadyLoop | kPlanarTile,
     kSegmentSweep, "M = 4's knobs, untimed: sigma 25 (radius 75) ran the ring of rows"},
};
inline constexpr int kGaussianRows = static_cast<int>(sizeof kGaussianTuning / sizeof kGaussianTuning[0]);

constexpr bool gaussian_rows_gray_or_rgb() {
    for (const GaussianTuning& t : kGaussianTuning)
        if (t.channels != 1 && t.channels != 3) return false;
    return true;
}
static_assert(gaussian_rows_gray_or_rgb(), "kernels for gray and RGB only (cuda/filter_separable_half_c1.cu, _c3.cu)");

// The row of a variant, or -1.
constexpr int gaussian_row(int channels, int m, bool u8_passes, int unroll) {
    for (int i = 0; i < kGaussianRows; ++i) {
        const GaussianTuning& t = kGaussianTuning[i];
        if (t.channels == channels && t.m == m && t.u8_passes == u8_passes && t.unroll == unroll) return i;
    }
    return -1;
}

// The row a plan runs (or -1): a plain blur (no epilogue) takes an unrolled
// row where there is one.
constexpr int gaussian_row_for(int channels, int m, bool u8_passes, bool plain) {
    int row = -1;
    for (int i = 0; i < kGaussianRows; ++i) {
        const GaussianTuning& t = kGaussianTuning[i];
        if (t.channels != channels || t.m != m || t.u8_passes != u8_passes || (t.unroll > 1 && !plain)) continue;
        if (row < 0 || t.unroll > kGaussianTuning[row].unroll) row = i;
    }
    return row;
}

// "rgb M=4 u8 unroll=1 strip=64 tiles=2 blocks/SM=2 unit=16px slots=4
// persistent steady planar segments=84%/12 edge=3/2": stable names for
// reports and test messages (cuda/filter_separable_half_dispatch.cu).
std::string describe(const GaussianTuning& t);

}  // namespace imgpar::cuda::filter_detail
