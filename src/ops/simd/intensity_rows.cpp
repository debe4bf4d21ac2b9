// src/ops/simd/intensity_rows.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time. Without Highway (IMGPAR_HAVE_HWY undefined), the same values in
// plain loops.
#include "src/ops/simd/intensity_rows.hpp"

#include <algorithm>
#include <cstring>

#include "src/ops/histogram_math.hpp"

// The plain loops both builds use (the vector code for its tails), defined
// once: foreach_target.h includes this file again per target.
#ifndef IMGPAR_SIMD_INTENSITY_ROWS_PLAIN
#define IMGPAR_SIMD_INTENSITY_ROWS_PLAIN
namespace imgpar::simd {
namespace {

// The counting loop both builds share: eight sub-histograms, one per byte of
// eight consecutive samples read as one word, so that a run of one value
// (common in photos) increments eight counters in turn instead of waiting
// on one counter's last store.
inline void count_values(const std::uint8_t* v, std::size_t n, std::uint32_t* counts) {
    std::size_t x = 0;
    for (; x + 8 <= n; x += 8) {
        std::uint64_t word;
        std::memcpy(&word, v + x, 8);
        for (int k = 0; k < 8; ++k) ++counts[k * 256 + ((word >> (8 * k)) & 0xff)];
    }
    for (; x < n; ++x) ++counts[v[x]];
}

inline void intensity_lanes(const std::uint8_t* src, int channels, std::size_t x0, std::size_t x1,
                            std::uint8_t* out) {
    for (std::size_t x = x0; x < x1; ++x) out[x] = static_cast<std::uint8_t>(intensity_of(src + x * channels, channels));
}

inline void threshold_lanes(const std::uint8_t* src, int channels, std::size_t x0, std::size_t x1, int t,
                            std::uint8_t* dst) {
    const int out_c = channels == 2 || channels == 4 ? 2 : 1;
    for (std::size_t x = x0; x < x1; ++x) {
        const std::uint8_t* s = src + x * channels;
        dst[x * out_c] = static_cast<std::uint8_t>(threshold_value(intensity_of(s, channels), t));
        if (out_c == 2) dst[x * out_c + 1] = s[channels - 1];
    }
}

inline void equalize_luma_lanes(const std::uint8_t* src, int channels, std::size_t x0, std::size_t x1,
                                const std::uint8_t* lut, std::uint8_t* dst) {
    for (std::size_t x = x0; x < x1; ++x) {
        const std::uint8_t* s = src + x * channels;
        std::uint8_t* d = dst + x * channels;
        int r = s[0], g = s[1], b = s[2];
        equalize_luma_pixel(lut, r, g, b);
        d[0] = static_cast<std::uint8_t>(r);
        d[1] = static_cast<std::uint8_t>(g);
        d[2] = static_cast<std::uint8_t>(b);
        if (channels == 4) d[3] = s[3];
    }
}

inline void table_lanes(const std::uint8_t* src, int channels, std::size_t x0, std::size_t x1,
                        const std::uint8_t* const* tables, std::uint8_t* dst) {
    for (std::size_t i = x0 * channels; i < x1 * channels; ++i) dst[i] = tables[i % channels][src[i]];
}

}  // namespace
}  // namespace imgpar::simd
#endif  // IMGPAR_SIMD_INTENSITY_ROWS_PLAIN

#if IMGPAR_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/ops/simd/intensity_rows.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace imgpar::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Pixels go through 16-bit lanes, as many as a vector holds; their bytes
// load as a half-width vector.
using DI16 = hn::ScalableTag<std::int16_t>;
using DU16 = hn::RebindToUnsigned<DI16>;
using D8 = hn::Rebind<std::uint8_t, DI16>;
using V16 = hn::Vec<DI16>;
using V8 = hn::Vec<D8>;

// luma601 per lane: the weighted sum fits 16 unsigned bits, its high byte
// is the result.
HWY_INLINE V16 Luma(V8 r, V8 g, V8 b) {
    const DU16 du;
    auto sum = hn::Add(hn::Mul(hn::PromoteTo(du, r), hn::Set(du, 77)), hn::Set(du, 128));
    sum = hn::Add(sum, hn::Mul(hn::PromoteTo(du, g), hn::Set(du, 150)));
    sum = hn::Add(sum, hn::Mul(hn::PromoteTo(du, b), hn::Set(du, 29)));
    return hn::BitCast(DI16(), hn::ShiftRight<8>(sum));
}

// The intensity of the lanes' pixels from src (pixel 0 of the group), and
// their alpha where there is one.
template <int C>
HWY_INLINE V16 LoadIntensity(const std::uint8_t* HWY_RESTRICT src, V8& alpha) {
    const D8 d8;
    const DI16 di;
    if constexpr (C == 1) {
        return hn::PromoteTo(di, hn::LoadU(d8, src));
    } else if constexpr (C == 2) {
        V8 gray;
        hn::LoadInterleaved2(d8, src, gray, alpha);
        return hn::PromoteTo(di, gray);
    } else if constexpr (C == 3) {
        V8 r, g, b;
        hn::LoadInterleaved3(d8, src, r, g, b);
        return Luma(r, g, b);
    } else {
        V8 r, g, b;
        hn::LoadInterleaved4(d8, src, r, g, b, alpha);
        return Luma(r, g, b);
    }
}

template <int C>
HWY_INLINE std::size_t IntensityFull(const std::uint8_t* HWY_RESTRICT src, std::size_t n, std::uint8_t* HWY_RESTRICT out) {
    const D8 d8;
    const std::size_t lanes = hn::Lanes(d8);
    std::size_t x = 0;
    V8 alpha = hn::Zero(d8);
    for (; x + lanes <= n; x += lanes) hn::StoreU(hn::DemoteTo(d8, LoadIntensity<C>(src + x * C, alpha)), d8, out + x);
    return x;
}

void IntensityRow(const std::uint8_t* src, int channels, std::size_t n, std::uint8_t* out) {
    std::size_t done = 0;
    switch (channels) {
        case 1: std::copy(src, src + n, out); return;
        case 2: done = IntensityFull<2>(src, n, out); break;
        case 3: done = IntensityFull<3>(src, n, out); break;
        default: done = IntensityFull<4>(src, n, out); break;
    }
    intensity_lanes(src, channels, done, n, out);
}

void CountIntensityRow(const std::uint8_t* src, int channels, std::size_t n, std::uint32_t* counts) {
    if (channels == 1) {
        count_values(src, n, counts);
        return;
    }
    // Intensities a block at a time into L1, then counted.
    constexpr std::size_t kBlock = 2048;
    HWY_ALIGN std::uint8_t block[kBlock];
    for (std::size_t x0 = 0; x0 < n; x0 += kBlock) {
        const std::size_t len = std::min(kBlock, n - x0);
        IntensityRow(src + x0 * channels, channels, len, block);
        count_values(block, len, counts);
    }
}

template <int C>
HWY_INLINE std::size_t ThresholdFull(const std::uint8_t* HWY_RESTRICT src, std::size_t n, int t,
                                     std::uint8_t* HWY_RESTRICT dst) {
    const D8 d8;
    const DI16 di;
    const std::size_t lanes = hn::Lanes(d8);
    const V16 level = hn::Set(di, static_cast<std::int16_t>(t));
    const V16 white = hn::Set(di, 255);
    std::size_t x = 0;
    V8 alpha = hn::Zero(d8);
    for (; x + lanes <= n; x += lanes) {
        const V16 v = LoadIntensity<C>(src + x * C, alpha);
        const V8 out = hn::DemoteTo(d8, hn::IfThenElseZero(hn::Gt(v, level), white));
        if constexpr (C == 2 || C == 4)
            hn::StoreInterleaved2(out, alpha, d8, dst + 2 * x);
        else
            hn::StoreU(out, d8, dst + x);
    }
    return x;
}

void ThresholdRow(const std::uint8_t* src, int channels, std::size_t n, int t, std::uint8_t* dst) {
    std::size_t done = 0;
    switch (channels) {
        case 1: done = ThresholdFull<1>(src, n, t, dst); break;
        case 2: done = ThresholdFull<2>(src, n, t, dst); break;
        case 3: done = ThresholdFull<3>(src, n, t, dst); break;
        default: done = ThresholdFull<4>(src, n, t, dst); break;
    }
    threshold_lanes(src, channels, done, n, t, dst);
}

// A 256-entry table as sixteen 16-byte pieces, each repeated in every
// 128-bit block (byte shuffles index within a block). Highway's one-lane
// target has no 16-byte vector: it reads the table.
template <class D>
struct Table256 {
#if HWY_TARGET == HWY_SCALAR
    const std::uint8_t* table;
    Table256(D, const std::uint8_t* t) : table(t) {}
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> v) const { return hn::Set(d, table[hn::GetLane(v)]); }
#else
    hn::Vec<D> piece[16];
    Table256(D d, const std::uint8_t* table) {
        for (int k = 0; k < 16; ++k) piece[k] = hn::LoadDup128(d, table + 16 * k);
    }
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> v) const {
        const auto low = hn::And(v, hn::Set(d, 15));
        const auto high = hn::ShiftRight<4>(v);
        auto out = hn::TableLookupBytes(piece[0], low);
        for (int k = 1; k < 16; ++k)
            out = hn::IfThenElse(hn::Eq(high, hn::Set(d, static_cast<std::uint8_t>(k))), hn::TableLookupBytes(piece[k], low), out);
        return out;
    }
#endif
};

// Three steps a block at a time: the lumas, their table entries (Table256),
// then lut[Y] - Y added to each colour channel, clamped by the saturating
// narrowing.
template <int C>
HWY_INLINE std::size_t EqualizeLumaFull(const std::uint8_t* src, std::size_t n, const std::uint8_t* lut,
                                        std::uint8_t* dst) {
    const D8 d8;
    const DI16 di;
    const std::size_t lanes = hn::Lanes(d8);
    constexpr std::size_t kBlock = 1024;
    HWY_ALIGN std::uint8_t luma[kBlock];
    HWY_ALIGN std::uint8_t mapped[kBlock];
    const hn::ScalableTag<std::uint8_t> d8_full;
    const std::size_t full_lanes = hn::Lanes(d8_full);
    const Table256<decltype(d8_full)> table(d8_full, lut);
    const std::size_t full = n / lanes * lanes;
    for (std::size_t x0 = 0; x0 < full; x0 += kBlock) {
        const std::size_t len = std::min(kBlock, full - x0);
        const std::uint8_t* s = src + x0 * C;
        std::uint8_t* d = dst + x0 * C;
        V8 alpha = hn::Zero(d8);
        for (std::size_t x = 0; x < len; x += lanes) hn::Store(hn::DemoteTo(d8, LoadIntensity<C>(s + x * C, alpha)), d8, luma + x);
        std::size_t x = 0;
        for (; x + full_lanes <= len; x += full_lanes) hn::Store(table(d8_full, hn::Load(d8_full, luma + x)), d8_full, mapped + x);
        for (; x < len; ++x) mapped[x] = lut[luma[x]];
        for (std::size_t x = 0; x < len; x += lanes) {
            const V16 delta = hn::Sub(hn::PromoteTo(di, hn::Load(d8, mapped + x)), hn::PromoteTo(di, hn::Load(d8, luma + x)));
            const auto shift = [&](V8 c) { return hn::DemoteTo(d8, hn::Add(hn::PromoteTo(di, c), delta)); };
            V8 r, g, b;
            if constexpr (C == 3) {
                hn::LoadInterleaved3(d8, s + x * C, r, g, b);
                hn::StoreInterleaved3(shift(r), shift(g), shift(b), d8, d + x * C);
            } else {
                hn::LoadInterleaved4(d8, s + x * C, r, g, b, alpha);
                hn::StoreInterleaved4(shift(r), shift(g), shift(b), alpha, d8, d + x * C);
            }
        }
    }
    return full;
}

void EqualizeLumaRow(const std::uint8_t* src, int channels, std::size_t n, const std::uint8_t* lut, std::uint8_t* dst) {
    const std::size_t done = channels == 3 ? EqualizeLumaFull<3>(src, n, lut, dst) : EqualizeLumaFull<4>(src, n, lut, dst);
    equalize_luma_lanes(src, channels, done, n, lut, dst);
}

template <int C>
HWY_INLINE std::size_t TablesFull(const std::uint8_t* src, std::size_t n, const std::uint8_t* const* tables, std::uint8_t* dst) {
    const hn::ScalableTag<std::uint8_t> d;
    const std::size_t lanes = hn::Lanes(d);
    const Table256<decltype(d)> t0(d, tables[0]);
    std::size_t x = 0;
    if constexpr (C == 1) {
        for (; x + lanes <= n; x += lanes) hn::StoreU(t0(d, hn::LoadU(d, src + x)), d, dst + x);
    } else if constexpr (C == 2) {
        for (; x + lanes <= n; x += lanes) {
            hn::Vec<decltype(d)> g, a;
            hn::LoadInterleaved2(d, src + 2 * x, g, a);
            hn::StoreInterleaved2(t0(d, g), a, d, dst + 2 * x);
        }
    } else {
        const Table256<decltype(d)> t1(d, tables[1]), t2(d, tables[2]);
        for (; x + lanes <= n; x += lanes) {
            hn::Vec<decltype(d)> r, g, b, a;
            if constexpr (C == 3) {
                hn::LoadInterleaved3(d, src + 3 * x, r, g, b);
                hn::StoreInterleaved3(t0(d, r), t1(d, g), t2(d, b), d, dst + 3 * x);
            } else {
                hn::LoadInterleaved4(d, src + 4 * x, r, g, b, a);
                hn::StoreInterleaved4(t0(d, r), t1(d, g), t2(d, b), a, d, dst + 4 * x);
            }
        }
    }
    return x;
}

// Alpha is left as it is (its table is the identity).
void ApplyTablesRow(const std::uint8_t* src, int channels, std::size_t n, const std::uint8_t* const* tables, std::uint8_t* dst) {
    std::size_t done = 0;
    switch (channels) {
        case 1: done = TablesFull<1>(src, n, tables, dst); break;
        case 2: done = TablesFull<2>(src, n, tables, dst); break;
        case 3: done = TablesFull<3>(src, n, tables, dst); break;
        default: done = TablesFull<4>(src, n, tables, dst); break;
    }
    table_lanes(src, channels, done, n, tables, dst);
}

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(IntensityRow);
HWY_EXPORT(CountIntensityRow);
HWY_EXPORT(ThresholdRow);
HWY_EXPORT(EqualizeLumaRow);
HWY_EXPORT(ApplyTablesRow);

void intensity_row(const std::uint8_t* src, int channels, std::size_t n, std::uint8_t* out) {
    HWY_DYNAMIC_DISPATCH(IntensityRow)(src, channels, n, out);
}
void count_intensity_row(const std::uint8_t* src, int channels, std::size_t n, std::uint32_t* counts) {
    HWY_DYNAMIC_DISPATCH(CountIntensityRow)(src, channels, n, counts);
}
void threshold_row(const std::uint8_t* src, int channels, std::size_t n, int t, std::uint8_t* dst) {
    HWY_DYNAMIC_DISPATCH(ThresholdRow)(src, channels, n, t, dst);
}
void equalize_luma_row(const std::uint8_t* src, int channels, std::size_t n, const std::uint8_t* lut,
                       std::uint8_t* dst) {
    HWY_DYNAMIC_DISPATCH(EqualizeLumaRow)(src, channels, n, lut, dst);
}
void apply_tables_row(const std::uint8_t* src, int channels, std::size_t n, const std::uint8_t* const* tables,
                      std::uint8_t* dst) {
    HWY_DYNAMIC_DISPATCH(ApplyTablesRow)(src, channels, n, tables, dst);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway: the same values, one pixel at a time

namespace imgpar::simd {

void intensity_row(const std::uint8_t* src, int channels, std::size_t n, std::uint8_t* out) {
    intensity_lanes(src, channels, 0, n, out);
}
void count_intensity_row(const std::uint8_t* src, int channels, std::size_t n, std::uint32_t* counts) {
    constexpr std::size_t kBlock = 2048;
    std::uint8_t block[kBlock];
    for (std::size_t x0 = 0; x0 < n; x0 += kBlock) {
        const std::size_t len = std::min(kBlock, n - x0);
        intensity_lanes(src + x0 * channels, channels, 0, len, block);
        count_values(block, len, counts);
    }
}
void threshold_row(const std::uint8_t* src, int channels, std::size_t n, int t, std::uint8_t* dst) {
    threshold_lanes(src, channels, 0, n, t, dst);
}
void equalize_luma_row(const std::uint8_t* src, int channels, std::size_t n, const std::uint8_t* lut,
                       std::uint8_t* dst) {
    equalize_luma_lanes(src, channels, 0, n, lut, dst);
}
void apply_tables_row(const std::uint8_t* src, int channels, std::size_t n, const std::uint8_t* const* tables,
                      std::uint8_t* dst) {
    table_lanes(src, channels, 0, n, tables, dst);
}

}  // namespace imgpar::simd
#endif
