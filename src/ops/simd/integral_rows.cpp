// src/ops/simd/integral_rows.hpp, compiled once per instruction set Highway
// targets (foreach_target.h re-includes this file), the best one chosen at
// run time. Without Highway (IMGPAR_HAVE_HWY undefined), the plain loops.
#include "src/ops/simd/integral_rows.hpp"

#include <algorithm>

#if IMGPAR_HAVE_HWY
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/ops/simd/integral_rows.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace imgpar::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The samples in[s, s + lanes), or their squares, in lanes of T: widened to
// 32 bits (where a square, at most 65025, is exact), then to T.
template <class D>
HWY_INLINE hn::Vec<D> load_samples(D d, const std::uint8_t* in, bool squares) {
    using T = hn::TFromD<D>;
    const hn::Rebind<std::uint8_t, D> d8;
    if constexpr (sizeof(T) == 4 && !hwy::IsFloat<T>()) {
        const auto v = hn::PromoteTo(d, hn::LoadU(d8, in));
        return squares ? hn::Mul(v, v) : v;
    } else if constexpr (!hwy::IsFloat<T>()) {
        const hn::Rebind<std::uint32_t, D> d32;
        auto v = hn::PromoteTo(d32, hn::LoadU(d8, in));
        if (squares) v = hn::Mul(v, v);
        return hn::PromoteTo(d, v);
    } else {
        const hn::Rebind<std::uint32_t, D> d32;
        const hn::Rebind<std::int32_t, D> di32;
        auto v = hn::PromoteTo(d32, hn::LoadU(d8, in));
        if (squares) v = hn::Mul(v, v);
        return hn::PromoteTo(d, hn::BitCast(di32, v));
    }
}

template <typename T>
HWY_INLINE void row(const std::uint8_t* in, int width, int channels, bool squares, const T* above, T* out) {
    using TI = hwy::MakeSigned<T>;
    const hn::ScalableTag<T> d;
    const hn::RebindToSigned<decltype(d)> di;
    const std::size_t lanes = hn::Lanes(d);
    const std::size_t C = static_cast<std::size_t>(channels);
    const std::size_t n = static_cast<std::size_t>(width) * C;
    for (std::size_t c = 0; c < C; ++c) out[c] = T(0);
    T run[4] = {};
    std::size_t s = 0;
    if (lanes >= C && n >= lanes) {
        // The scan's steps: lane j adds lane j - k (k = C, 2C, 4C, ... below
        // the lane count), lanes below k add nothing.
        constexpr std::size_t kMax = HWY_MAX_BYTES / sizeof(T);
        HWY_ALIGN TI index[kMax];
        HWY_ALIGN TI carry_index[kMax];
        int steps = 0;
        using Index = decltype(hn::SetTableIndices(d, index));
        Index step_index[8];  // log2(kMax) at most
        hn::Mask<decltype(d)> step_mask[8];
        for (std::size_t k = C; k < lanes; k *= 2, ++steps) {
            for (std::size_t j = 0; j < lanes; ++j) index[j] = static_cast<TI>(j >= k ? j - k : 0);
            step_index[steps] = hn::SetTableIndices(d, index);
            step_mask[steps] = hn::Not(hn::FirstN(d, k));
        }
        for (std::size_t j = 0; j < lanes; ++j) carry_index[j] = static_cast<TI>(lanes - C + j % C);
        const auto to_next = hn::SetTableIndices(d, carry_index);
        (void)di;
        auto carry = hn::Zero(d);
        const T* up = above + C;  // may be `out` itself
        T* dst = out + C;
        for (; s + lanes <= n; s += lanes) {
            auto v = load_samples(d, in + s, squares);
            for (int i = 0; i < steps; ++i)
                v = hn::Add(v, hn::IfThenElseZero(step_mask[i], hn::TableLookupLanes(v, step_index[i])));
            v = hn::Add(v, carry);
            hn::StoreU(hn::Add(hn::LoadU(d, up + s), v), d, dst + s);
            carry = hn::TableLookupLanes(v, to_next);
        }
        // Lane j of the carry continues the total of sample s + j's channel.
        HWY_ALIGN T last[kMax];
        hn::Store(carry, d, last);
        for (std::size_t j = 0; j < C; ++j) run[(s + j) % C] = last[j];
    }
    integral_row_plain(in, width, channels, squares, above, out, s, run);
}

void RowU32(const std::uint8_t* in, int width, int channels, bool squares, const std::uint32_t* above,
            std::uint32_t* out) {
    row(in, width, channels, squares, above, out);
}
void RowU64(const std::uint8_t* in, int width, int channels, bool squares, const std::uint64_t* above,
            std::uint64_t* out) {
    row(in, width, channels, squares, above, out);
}
void RowF64(const std::uint8_t* in, int width, int channels, bool squares, const double* above, double* out) {
    row(in, width, channels, squares, above, out);
}

void Columns(const std::uint8_t* in, std::size_t n, std::uint64_t* sums, std::uint64_t* squares) {
    const hn::ScalableTag<std::uint64_t> d;
    const hn::Rebind<std::uint32_t, decltype(d)> d32;
    const hn::Rebind<std::uint8_t, decltype(d)> d8;
    const std::size_t lanes = hn::Lanes(d);
    std::size_t i = 0;
    for (; i + lanes <= n; i += lanes) {
        const auto v = hn::PromoteTo(d32, hn::LoadU(d8, in + i));
        hn::StoreU(hn::Add(hn::LoadU(d, sums + i), hn::PromoteTo(d, v)), d, sums + i);
        if (squares) hn::StoreU(hn::Add(hn::LoadU(d, squares + i), hn::PromoteTo(d, hn::Mul(v, v))), d, squares + i);
    }
    for (; i < n; ++i) {
        sums[i] += in[i];
        if (squares) squares[i] += std::uint64_t{in[i]} * in[i];
    }
}

}  // namespace imgpar::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace imgpar::simd {

HWY_EXPORT(RowU32);
HWY_EXPORT(RowU64);
HWY_EXPORT(RowF64);
HWY_EXPORT(Columns);

void integral_row(const std::uint8_t* in, int width, int channels, bool squares, const std::uint32_t* above,
                  std::uint32_t* out) {
    HWY_DYNAMIC_DISPATCH(RowU32)(in, width, channels, squares, above, out);
}
void integral_row(const std::uint8_t* in, int width, int channels, bool squares, const std::uint64_t* above,
                  std::uint64_t* out) {
    HWY_DYNAMIC_DISPATCH(RowU64)(in, width, channels, squares, above, out);
}
void integral_row(const std::uint8_t* in, int width, int channels, bool squares, const double* above, double* out) {
    HWY_DYNAMIC_DISPATCH(RowF64)(in, width, channels, squares, above, out);
}
void add_columns(const std::uint8_t* in, std::size_t n, std::uint64_t* sums, std::uint64_t* squares) {
    HWY_DYNAMIC_DISPATCH(Columns)(in, n, sums, squares);
}

}  // namespace imgpar::simd
#endif  // HWY_ONCE

#else  // no Highway: the plain loops

namespace imgpar::simd {
namespace {

template <typename T>
void plain_row(const std::uint8_t* in, int width, int channels, bool squares, const T* above, T* out) {
    T run[4] = {};
    for (int c = 0; c < channels; ++c) out[c] = T(0);
    integral_row_plain(in, width, channels, squares, above, out, 0, run);
}

}  // namespace

void integral_row(const std::uint8_t* in, int width, int channels, bool squares, const std::uint32_t* above,
                  std::uint32_t* out) {
    plain_row(in, width, channels, squares, above, out);
}
void integral_row(const std::uint8_t* in, int width, int channels, bool squares, const std::uint64_t* above,
                  std::uint64_t* out) {
    plain_row(in, width, channels, squares, above, out);
}
void integral_row(const std::uint8_t* in, int width, int channels, bool squares, const double* above, double* out) {
    plain_row(in, width, channels, squares, above, out);
}
void add_columns(const std::uint8_t* in, std::size_t n, std::uint64_t* sums, std::uint64_t* squares) {
    for (std::size_t i = 0; i < n; ++i) {
        sums[i] += in[i];
        if (squares) squares[i] += std::uint64_t{in[i]} * in[i];
    }
}

}  // namespace imgpar::simd
#endif
