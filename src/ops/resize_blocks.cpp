// Area resize at whole factors on the CPU (src/ops/resize_blocks.hpp).
#include "src/ops/resize_blocks.hpp"

#include <type_traits>
#include <vector>

#include "src/ops/resize_math.hpp"
#include "src/ops/simd/block_means.hpp"
#include "src/parallel.hpp"

namespace imgpar::cpu {

namespace {

// The axis's factor when each output pixel reads the next `taps` input
// pixels with weight 1 each (area at a whole factor, or a copy); 0 when not.
int whole_factor(const ResizeAxis& a) {
    if (axis_kind(a.filter) == AxisKind::Filter || a.sum != a.taps || a.count == 0) return 0;
    const std::int64_t last = static_cast<std::int64_t>(a.start[0]) + static_cast<std::int64_t>(a.count) * a.taps;
    if (last > a.in) return 0;
    for (int k = 0; k < a.count; ++k) {
        if (a.start[static_cast<std::size_t>(k)] != a.start[0] + k * a.taps) return 0;
        for (int t = 0; t < a.taps; ++t)
            if (a.weight[static_cast<std::size_t>(k) * a.taps + t] != 1) return 0;
    }
    return a.taps;
}

// Blocks of more than 65,536 16-bit samples: sums beyond 32 bits, one
// sample at a time in 64 (a factor that large leaves few outputs).
void wide_block_means(const std::uint16_t* const* rows, int fy, int fx, int C, const ExactDivider& div,
                      std::size_t count, std::uint16_t* out) {
    for (std::size_t j = 0; j < count; ++j)
        for (int c = 0; c < C; ++c) {
            std::uint64_t sum = 0;
            for (int t = 0; t < fy; ++t)
                for (int i = 0; i < fx; ++i) sum += rows[t][(j * fx + static_cast<std::size_t>(i)) * C + c];
            out[j * C + c] = static_cast<std::uint16_t>(div.round(sum));
        }
}

template <typename T>
void blocks(const ResizePlan& plan, ImageView<const T> src, ImageView<T> dst) {
    using Lane = typename simd::BlockLanes<T>::Lane;
    const int fx = plan.x.taps, fy = plan.y.taps, C = src.channels;
    const std::int64_t d = static_cast<std::int64_t>(fx) * fy;
    const bool wide = d > simd::BlockDividerOf<T>::kMaxDivisor;  // 16-bit samples only (resize_takes_blocks)
    const simd::BlockDividerOf<T> div = simd::BlockDividerOf<T>::of(wide ? 1 : static_cast<int>(d));
    const ExactDivider exact = ExactDivider::of(static_cast<std::uint64_t>(d));
    const std::size_t x0 = static_cast<std::size_t>(plan.x.start[0]) * C;
    const std::size_t n = static_cast<std::size_t>(plan.x.count) * fx * C;  // the samples a row's blocks cover
    const std::size_t count = static_cast<std::size_t>(plan.x.count);
    parallel_for(plan.y.count, 8, [&](int k0, int k1) {
        std::vector<Lane> acc(wide ? 0 : n);
        std::vector<const T*> rows(static_cast<std::size_t>(fy));
        for (int k = k0; k < k1; ++k) {
            const int top = plan.y.start[static_cast<std::size_t>(k)];
            for (int t = 0; t < fy; ++t) rows[static_cast<std::size_t>(t)] = src.row(top + t) + x0;
            if constexpr (std::is_same_v<T, std::uint16_t>) {
                if (wide) {
                    wide_block_means(rows.data(), fy, fx, C, exact, count, dst.row(k));
                    continue;
                }
            }
            if (fx == 2 && (C == 1 || C == 3)) {  // the common 50%: no sums in memory
                simd::block_pair_means(rows.data(), fy, C, div, count, dst.row(k));
                continue;
            }
            simd::block_column_sums(rows.data(), fy, n, acc.data());
            simd::block_row_means(acc.data(), C, fx, div, count, dst.row(k));
        }
    });
}

}  // namespace

bool resize_takes_blocks(const ResizePlan& plan, int channels) {
    const bool copies = axis_kind(plan.x.filter) == AxisKind::Gather && axis_kind(plan.y.filter) == AxisKind::Gather;
    if (has_alpha(channels) && !copies) return false;  // premultiplied: the general path
    const int fx = whole_factor(plan.x), fy = whole_factor(plan.y);
    if (fx == 0 || fy == 0) return false;
    return plan.type == SampleType::U16 || static_cast<std::int64_t>(fx) * fy <= 256;
}

void resize_blocks(const ResizePlan& plan, ConstViewU8 src, ViewU8 dst) { blocks(plan, src, dst); }

void resize_blocks(const ResizePlan& plan, ConstViewU16 src, ViewU16 dst) { blocks(plan, src, dst); }

}  // namespace imgpar::cpu
