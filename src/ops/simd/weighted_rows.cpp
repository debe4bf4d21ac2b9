// src/ops/simd/weighted_rows.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time. Without Highway (IMGPAR_HAVE_HWY undefined), the same sums in
// plain loops.
#include "src/ops/simd/weighted_rows.hpp"

#include <algorithm>

#if IMGPAR_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/ops/simd/weighted_rows.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace imgpar::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The sums of out[t0, t0 + len) (len a multiple of the vector's lanes),
// rounded, handed to store(t, vector). Term by term over a block short
// enough to stay in L1, so each term streams through one or two rows: term
// after term for each vector instead would read from 2r + 1 rows at once,
// more streams than the prefetchers follow (measured: 3x slower at r = 60).
// Samples widen to 32 bits as they load; symmetric taps add rows i and
// 2r - i before the one multiply they share.
template <class D32, typename T, class Store>
HWY_INLINE void block_sums(D32 d32, const WeightedRows& w, const T* const* rows, std::size_t t0, std::size_t len,
                           std::int32_t* HWY_RESTRICT acc, const Store& store) {
    const hn::Rebind<T, D32> dt;
    const std::size_t lanes = hn::Lanes(d32);
    const int r = w.radius;
    const auto load = [&](int i, std::size_t t) { return hn::PromoteTo(d32, hn::LoadU(dt, rows[i] + t0 + t)); };
    const auto centre = hn::Set(d32, w.taps[r]);
    for (std::size_t t = 0; t < len; t += lanes) hn::Store(hn::Mul(centre, load(r, t)), d32, acc + t);
    for (int i = 0; i < r; ++i) {
        if (w.symmetric) {
            const auto tap = hn::Set(d32, w.taps[i]);
            for (std::size_t t = 0; t < len; t += lanes)
                hn::Store(hn::Add(hn::Load(d32, acc + t), hn::Mul(tap, hn::Add(load(i, t), load(2 * r - i, t)))), d32, acc + t);
            continue;
        }
        for (const int k : {i, 2 * r - i}) {
            const auto tap = hn::Set(d32, w.taps[k]);
            for (std::size_t t = 0; t < len; t += lanes)
                hn::Store(hn::Add(hn::Load(d32, acc + t), hn::Mul(tap, load(k, t))), d32, acc + t);
        }
    }
    const auto add = hn::Set(d32, w.add);
    for (std::size_t t = 0; t < len; t += lanes) store(t0 + t, hn::ShiftRightSame(hn::Add(hn::Load(d32, acc + t), add), w.shift));
}

// Every full vector of [0, n) through block_sums, the rest one lane at a time.
template <typename T, typename Out, class Store>
HWY_INLINE void all_sums(const WeightedRows& w, const T* const* rows, std::size_t n, Out* out, const Store& store) {
    const hn::ScalableTag<std::int32_t> d32;
    const std::size_t lanes = hn::Lanes(d32);
    constexpr std::size_t kBlock = 1024;  // 4 KB of sums
    HWY_ALIGN std::int32_t acc[kBlock];
    const std::size_t full = n / lanes * lanes;
    for (std::size_t t0 = 0; t0 < full; t0 += kBlock) block_sums(d32, w, rows, t0, std::min(kBlock, full - t0), acc, store);
    for (std::size_t t = full; t < n; ++t) out[t] = static_cast<Out>(weighted_lane(w, rows, t));
}

template <typename T>
HWY_INLINE void rows_to_u16(const WeightedRows& w, const T* const* rows, std::size_t n, std::uint16_t* out) {
    const hn::ScalableTag<std::int32_t> d32;
    const hn::Rebind<std::uint16_t, decltype(d32)> d16;
    all_sums(w, rows, n, out, [&](std::size_t t, hn::Vec<decltype(d32)> v) { hn::StoreU(hn::DemoteTo(d16, v), d16, out + t); });
}

void RowsU8ToU16(const WeightedRows& w, const std::uint8_t* const* rows, std::size_t n, std::uint16_t* out) {
    rows_to_u16(w, rows, n, out);
}
void RowsU16ToU16(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::uint16_t* out) {
    rows_to_u16(w, rows, n, out);
}
void RowsU16ToI32(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::int32_t* out) {
    const hn::ScalableTag<std::int32_t> d32;
    all_sums(w, rows, n, out, [&](std::size_t t, hn::Vec<decltype(d32)> v) { hn::StoreU(v, d32, out + t); });
}

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(RowsU8ToU16);
HWY_EXPORT(RowsU16ToU16);
HWY_EXPORT(RowsU16ToI32);

void weighted_rows(const WeightedRows& w, const std::uint8_t* const* rows, std::size_t n, std::uint16_t* out) {
    HWY_DYNAMIC_DISPATCH(RowsU8ToU16)(w, rows, n, out);
}
void weighted_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::uint16_t* out) {
    HWY_DYNAMIC_DISPATCH(RowsU16ToU16)(w, rows, n, out);
}
void weighted_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::int32_t* out) {
    HWY_DYNAMIC_DISPATCH(RowsU16ToI32)(w, rows, n, out);
}

std::string simd_target_name() {
    // The target the dispatch above picks: the best one this machine supports
    // among those compiled in.
    const std::int64_t chosen = hwy::SupportedTargets() & HWY_TARGETS;
    return hwy::TargetName(chosen & -chosen);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway: the same sums, one lane at a time

namespace imgpar::simd {
namespace {

template <typename T, typename Out>
void plain_rows(const WeightedRows& w, const T* const* rows, std::size_t n, Out* out) {
    for (std::size_t t = 0; t < n; ++t) out[t] = static_cast<Out>(weighted_lane(w, rows, t));
}

}  // namespace

void weighted_rows(const WeightedRows& w, const std::uint8_t* const* rows, std::size_t n, std::uint16_t* out) {
    plain_rows(w, rows, n, out);
}
void weighted_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::uint16_t* out) {
    plain_rows(w, rows, n, out);
}
void weighted_rows(const WeightedRows& w, const std::uint16_t* const* rows, std::size_t n, std::int32_t* out) {
    plain_rows(w, rows, n, out);
}
std::string simd_target_name() { return "scalar"; }

}  // namespace imgpar::simd
#endif
