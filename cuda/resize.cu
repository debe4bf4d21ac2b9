// GPU resize: cpu::resize's two passes as thin kernels over the shared
// arithmetic (src/ops/resize_math.hpp), so the bytes are the CPU's.
#include "cuda/resize.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "cuda/check.hpp"
#include "cuda/resize_blocks.hpp"
#include "cuda/resize_mma_tables.hpp"
#include "cuda/resize_tiles.hpp"
#include "cuda/session.hpp"
#include "src/error.hpp"
#include "src/ops/resize_math.hpp"

namespace imgpar::cuda {

namespace {

// Sums that cannot leave 32 bits use them; area's and premultiplied colour's
// take 64 (the same sums either way: none overflows).
template <bool Wide>
using Sum = std::conditional_t<Wide, long long, int>;

// First pass, down the columns: one thread an intermediate pixel (all its
// channels) of a kept output row; neighbouring threads read neighbouring
// pixels of the same input rows. T: the sample type; 16-bit samples sum in
// 64 bits (src/ops/resize.hpp, 16 BITS).
template <int C, AxisKind K, bool Premul, typename Mid, typename T = std::uint8_t>
__global__ void resize_columns_kernel(const T* __restrict__ src, std::size_t pitch, int in_width,
                                      int in_height, const std::int32_t* __restrict__ start,
                                      const std::int32_t* __restrict__ weight, int taps, int count,
                                      Mid* __restrict__ mid) {
    constexpr bool kWide = sizeof(T) == 2;
    using Acc = Sum<K == AxisKind::Area || Premul || kWide>;
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int k = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= in_width || k >= count) return;
    const int first = start[k];
    const int live = min(taps, in_height - first);
    const std::int32_t* w = weight + static_cast<std::size_t>(k) * taps;
    const unsigned char* p = reinterpret_cast<const unsigned char*>(src) + static_cast<std::size_t>(first) * pitch +
                             static_cast<std::size_t>(x) * C * sizeof(T);
    Acc sum[C];
    IMGPAR_UNROLL
    for (int c = 0; c < C; ++c) sum[c] = 0;
    for (int t = 0; t < live; ++t, p += pitch) {
        const T* q = reinterpret_cast<const T*>(p);
        const Acc wt = w[t];
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) {
            const Acc v = Premul && c != C - 1 ? static_cast<Acc>(q[c]) * q[C - 1] : static_cast<Acc>(q[c]);
            sum[c] += wt * v;
        }
    }
    Mid* out = mid + (static_cast<std::size_t>(k) * in_width + x) * C;
    IMGPAR_UNROLL
    for (int c = 0; c < C; ++c) {
        if constexpr (kWide)
            out[c] = static_cast<Mid>(first_pass_value16(K, sum[c], Premul && c == C - 1));
        else
            out[c] = static_cast<Mid>(first_pass_value(K, sum[c]));
    }
}

// Second pass, along the rows: one thread an output pixel.
template <int C, bool Premul, typename Mid, bool Wide, typename T = std::uint8_t>
__global__ void resize_rows_kernel(const Mid* __restrict__ mid, int in_width, const std::int32_t* __restrict__ start,
                                   const std::int32_t* __restrict__ weight, int taps, int count_x, int count_y,
                                   T* __restrict__ dst, std::size_t pitch, ExactDivider divider, int alpha_shift) {
    using Acc = Sum<Wide>;
    constexpr bool kWide = sizeof(T) == 2;
    constexpr int kTop = kWide ? 65535 : 255;
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int k = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= count_x || k >= count_y) return;
    const int first = start[j];
    const int live = min(taps, in_width - first);
    const std::int32_t* w = weight + static_cast<std::size_t>(j) * taps;
    const Mid* m = mid + (static_cast<std::size_t>(k) * in_width + first) * C;
    Acc sum[C];
    IMGPAR_UNROLL
    for (int c = 0; c < C; ++c) sum[c] = 0;
    for (int t = 0; t < live; ++t, m += C) {
        const Acc wt = w[t];
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) sum[c] += wt * static_cast<Acc>(m[c]);
    }
    T* o = reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(dst) + static_cast<std::size_t>(k) * pitch) +
           static_cast<std::size_t>(j) * C;
    if (!Premul) {
        IMGPAR_UNROLL
        for (int c = 0; c < C; ++c) o[c] = static_cast<T>(resize_output(sum[c], divider, kTop));
        return;
    }
    if constexpr (kWide) {  // premultiplied alpha alpha_shift bits finer (src/ops/resize_math.hpp)
        o[C - 1] = static_cast<T>(resize_alpha16(sum[C - 1], divider.d, alpha_shift));
        IMGPAR_UNROLL
        for (int c = 0; c < C - 1; ++c) o[c] = static_cast<T>(resize_unpremultiply16(sum[c], sum[C - 1], alpha_shift));
    } else {
        o[C - 1] = static_cast<T>(resize_output(sum[C - 1], divider));
        IMGPAR_UNROLL
        for (int c = 0; c < C - 1; ++c) o[c] = static_cast<T>(resize_unpremultiply(sum[c], sum[C - 1]));
    }
}

dim3 grid_for(int width, int height) {
    return dim3(static_cast<unsigned>((width + ResizePolicy::block_x - 1) / ResizePolicy::block_x),
                static_cast<unsigned>((height + ResizePolicy::block_y - 1) / ResizePolicy::block_y));
}

template <typename T>
struct Passes {
    const ResizePlan& plan;
    const DeviceView<const T>& src;
    const DeviceView<T>& dst;
    const ResizeTables& t;
    void* mid;
    ExactDivider divider;
    cudaStream_t stream;

    template <int C, AxisKind K, bool Premul, typename Mid>
    void first() const {
        const dim3 block(ResizePolicy::block_x, ResizePolicy::block_y);
        resize_columns_kernel<C, K, Premul, Mid, T><<<grid_for(plan.x.in, plan.y.count), block, 0, stream>>>(
            src.data, src.pitch, plan.x.in, plan.y.in, t.y_start, t.y_weight, plan.y.taps, plan.y.count,
            static_cast<Mid*>(mid));
        IMGPAR_CUDA_CHECK_LAUNCH("resize_columns_kernel");
    }
    template <int C, bool Premul, typename Mid, bool Wide>
    void second() const {
        const dim3 block(ResizePolicy::block_x, ResizePolicy::block_y);
        resize_rows_kernel<C, Premul, Mid, Wide, T><<<grid_for(plan.x.count, plan.y.count), block, 0, stream>>>(
            static_cast<const Mid*>(mid), plan.x.in, t.x_start, t.x_weight, plan.x.taps, plan.x.count, plan.y.count,
            dst.data, dst.pitch, divider, premultiplied_alpha_shift16(axis_kind(plan.y.filter)));
        IMGPAR_CUDA_CHECK_LAUNCH("resize_rows_kernel");
    }

    template <int C, bool Premul, typename Mid>
    void run(AxisKind ky, AxisKind kx) const {
        switch (ky) {
            case AxisKind::Gather: first<C, AxisKind::Gather, Premul, Mid>(); break;
            case AxisKind::Filter: first<C, AxisKind::Filter, Premul, Mid>(); break;
            case AxisKind::Area: first<C, AxisKind::Area, Premul, Mid>(); break;
        }
        // 32-bit sums where the intermediate is 16-bit and the weights'
        // magnitudes sum to at most 2^15 (a filter, or a copy): as the CPU.
        if (std::is_same_v<Mid, std::int16_t> && kx != AxisKind::Area)
            second<C, Premul, Mid, false>();
        else
            second<C, Premul, Mid, true>();
    }
};

template <int C>
void run_channels(const Passes<std::uint8_t>& p, AxisKind ky, AxisKind kx, bool premultiply) {
    if (premultiply)
        p.template run<C, true, std::int32_t>(ky, kx);
    else if (ky == AxisKind::Filter)
        p.template run<C, false, std::int16_t>(ky, kx);
    else
        p.template run<C, false, std::int32_t>(ky, kx);
}

// 16-bit samples: a 32-bit intermediate where it fits (a filter's or a
// copy's plain samples: below 2^21), else 64-bit (premultiplied colour up to
// 2^37, area's exact sums); the second pass's sums always 64-bit.
template <int C>
void run_channels(const Passes<std::uint16_t>& p, AxisKind ky, AxisKind kx, bool premultiply) {
    if (premultiply)
        p.template run<C, true, std::int64_t>(ky, kx);
    else if (ky != AxisKind::Area)
        p.template run<C, false, std::int32_t>(ky, kx);
    else
        p.template run<C, false, std::int64_t>(ky, kx);
}

std::size_t mid_bytes16(AxisKind ky, bool premultiply) { return premultiply || ky == AxisKind::Area ? 8 : 4; }

}  // namespace

namespace {

// Where the fragments start in the tables: past the plan's own, 16-byte aligned.
std::size_t fragments_at(const ResizePlan& plan) {
    const std::size_t n = plan.x.start.size() + plan.x.weight.size() + plan.y.start.size() + plan.y.weight.size();
    return (n + 3) / 4 * 4;
}

}  // namespace

ResizeTables resize_tables(const ResizePlan& plan, const std::int32_t* device, const ResizeMmaShape& mma) {
    ResizeTables t;
    t.x_start = device;
    t.x_weight = t.x_start + plan.x.start.size();
    t.y_start = t.x_weight + plan.x.weight.size();
    t.y_weight = t.y_start + plan.y.start.size();
    t.y_frag_k = mma.k_rows;
    t.x_frag_k = mma.k_cols;
    t.y_rows_window = mma.rows_window;
    if (mma.k_rows > 0) {
        t.y_frag = reinterpret_cast<const uint4*>(device + fragments_at(plan));
        t.x_frag = t.y_frag + resize_mma_words(plan, mma, true) / 4;
    }
    return t;
}

const std::int32_t* ResizeWorkspace::tables(const ResizePlan& plan, cudaStream_t stream, const ResizeMmaShape& mma) {
    std::string key = "mma " + std::to_string(mma.k_rows) + " " + std::to_string(mma.k_cols) + ";";
    for (const ResizeAxis* a : {&plan.x, &plan.y})
        key += std::to_string(static_cast<int>(a->filter)) + ":" + std::to_string(a->in) + ":" + std::to_string(a->out) +
               ":" + std::to_string(a->first) + ":" + std::to_string(a->count) + ":" + std::to_string(a->weight_bits) +
               ";";
    if (key == key_) return tables_.get();
    std::vector<std::int32_t> all;
    for (const std::vector<std::int32_t>* v : {&plan.x.start, &plan.x.weight, &plan.y.start, &plan.y.weight})
        all.insert(all.end(), v->begin(), v->end());
    if (mma.k_rows > 0) {
        all.resize(fragments_at(plan), 0);
        append_resize_mma_fragments(plan, mma, all);
    }
    tables_.reserve(all.size(), stream);
    // From pageable memory: the call returns once the host's bytes are copied.
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(tables_.get(), all.data(), all.size() * sizeof(std::int32_t),
                                      cudaMemcpyHostToDevice, stream));
    key_ = key;
    return tables_.get();
}

void* ResizeWorkspace::intermediate(std::size_t bytes, cudaStream_t stream) {
    intermediate_.reserve(std::max<std::size_t>(bytes, 1), stream);
    return intermediate_.get();
}

// What the tensor cores may take where the caller leaves it open (Best):
// IMGPAR_RESIZE_MMA=none no pass, =first the first, =both both or the
// first; unset, both or none. An explicit request (the tests) is kept.
static TilePasses tensor_cores_allowed(TilePasses asked) {
    if (asked != TilePasses::Best) return asked;
    const char* v = std::getenv("IMGPAR_RESIZE_MMA");
    if (v && std::strcmp(v, "none") == 0) return TilePasses::Cores;
    if (v && std::strcmp(v, "first") == 0) return TilePasses::FirstOnTensorCores;
    if (v && std::strcmp(v, "both") == 0) return TilePasses::TensorCores;
    return TilePasses::Best;
}

// The tensor cores' shape for this call, K 0 where they take no pass (then
// the tables carry no fragments: the CUDA cores' path builds and uploads
// nothing more), and in `allowed` what resize_tiled may give them. Gray and
// RGB only (with alpha the colour is premultiplied on the way in). Best:
// both passes or none, and none for RGB enlargements, where the tensor
// cores' second pass, storing the output a byte at a time over 8 rows a
// warp instruction, measured 25% slower (150% bicubic; gray gained 40%:
// bench/TUNING.md, "Resize on the tensor cores").
static ResizeMmaShape tensor_core_shape(const ResizePlan& plan, int channels, bool tiles, TilePasses asked,
                                        TilePasses& allowed) {
    allowed = tiles && (channels == 1 || channels == 3) ? tensor_cores_allowed(asked) : TilePasses::Cores;
    const bool enlarges = static_cast<long long>(plan.x.count) * plan.y.count >
                          static_cast<long long>(plan.x.in) * plan.y.in;
    if (allowed == TilePasses::Best && channels == 3 && enlarges) allowed = TilePasses::Cores;
    if (allowed == TilePasses::Cores) return {};
    const ResizeMmaShape mma = resize_mma_shape(plan);
    return allowed == TilePasses::Best && mma.k_cols == 0 ? ResizeMmaShape{} : mma;
}

void resize(const ResizePlan& plan, const ConstDeviceViewU8& src, const DeviceViewU8& dst, ResizeWorkspace& ws,
            cudaStream_t stream, std::string* kernel, bool tiles, TilePasses tensor_cores) {
    const int C = src.channels;
    if (src.width != plan.x.in || src.height != plan.y.in || dst.width != plan.x.count || dst.height != plan.y.count ||
        dst.channels != C || C < 1 || C > 4)
        throw usage_error("resize", "the device images do not fit the plan");
    if (plan.type != SampleType::U8) throw usage_error("resize", "an 8-bit image needs a plan made for 8 bits");
    check_resize_range(plan, C);
    const AxisKind kx = axis_kind(plan.x.filter), ky = axis_kind(plan.y.filter);
    const bool premultiply = has_alpha(C) && !(kx == AxisKind::Gather && ky == AxisKind::Gather);
    const std::size_t mid_bytes = premultiply || ky != AxisKind::Filter ? 4 : 2;
    TilePasses allowed = TilePasses::Cores;
    const ResizeMmaShape mma = tensor_core_shape(plan, C, tiles, tensor_cores, allowed);
    const ResizeTables t = resize_tables(plan, ws.tables(plan, stream, mma), mma);
    const ExactDivider divider = ExactDivider::of(axis_scale(ky, plan.y.sum, true) * axis_scale(kx, plan.x.sum, false));
    const std::string what = std::string(mid_bytes == 2 ? "16" : "32") + "-bit intermediate" +
                             (premultiply ? ", premultiplied" : "") + "; " + describe_resize(plan) + ")";
    if (tiles && resize_blocks(plan, src, dst, stream)) {
        if (kernel)
            *kernel = "block means (area at whole factors " + std::to_string(plan.x.taps) + " x " +
                      std::to_string(plan.y.taps) + "; " + describe_resize(plan) + ")";
        return;
    }
    const TilePasses ran =
        tiles ? resize_tiled(plan, src, dst, t, premultiply, mid_bytes, divider, stream, allowed) : TilePasses::None;
    if (ran != TilePasses::None) {
        if (kernel)
            *kernel = std::string("output tiles, the intermediate in shared memory (") +
                      (ran == TilePasses::TensorCores          ? "both passes on the tensor cores, int8 MMA; "
                       : ran == TilePasses::FirstOnTensorCores ? "first pass on the tensor cores, int8 MMA; "
                                                               : "") +
                      what;
        return;
    }
    void* mid = ws.intermediate(static_cast<std::size_t>(plan.y.count) * plan.x.in * C * mid_bytes, stream);
    const Passes<std::uint8_t> p{plan, src, dst, t, mid, divider, stream};
    switch (C) {
        case 1: run_channels<1>(p, ky, kx, premultiply); break;
        case 2: run_channels<2>(p, ky, kx, premultiply); break;
        case 3: run_channels<3>(p, ky, kx, premultiply); break;
        default: run_channels<4>(p, ky, kx, premultiply); break;
    }
    if (kernel) *kernel = "down the columns, then along the rows, one thread a pixel (" + what;
}

void resize(const ResizePlan& plan, const ConstDeviceViewU16& src, const DeviceViewU16& dst, ResizeWorkspace& ws,
            cudaStream_t stream, std::string* kernel, bool tiles) {
    const int C = src.channels;
    if (src.width != plan.x.in || src.height != plan.y.in || dst.width != plan.x.count || dst.height != plan.y.count ||
        dst.channels != C || C < 1 || C > 4 || !src.data || !dst.data || src.pitch < src.row_bytes() ||
        dst.pitch < dst.row_bytes())
        throw usage_error("resize", "the device images do not fit the plan");
    if (plan.type != SampleType::U16) throw usage_error("resize", "a 16-bit image needs a plan made for 16 bits");
    check_resize_range(plan, C);
    const AxisKind kx = axis_kind(plan.x.filter), ky = axis_kind(plan.y.filter);
    const bool premultiply = has_alpha(C) && !(kx == AxisKind::Gather && ky == AxisKind::Gather);
    const std::size_t mid_bytes = mid_bytes16(ky, premultiply);
    const ResizeTables t = resize_tables(plan, ws.tables(plan, stream));
    const ExactDivider divider =
        ExactDivider::of(axis_scale(ky, plan.y.sum, true, kResizeRowBits16) * axis_scale(kx, plan.x.sum, false));
    const std::string what = std::string(mid_bytes == 4 ? "32" : "64") + "-bit intermediate, 64-bit sums" +
                             (premultiply ? ", premultiplied" : "") + "; " + describe_resize(plan) + ")";
    if (tiles && resize_blocks(plan, src, dst, stream)) {
        if (kernel)
            *kernel = "block means (area at whole factors " + std::to_string(plan.x.taps) + " x " +
                      std::to_string(plan.y.taps) + ", 16-bit samples; " + describe_resize(plan) + ")";
        return;
    }
    if (tiles && resize_tiled(plan, src, dst, t, premultiply, mid_bytes, divider, stream)) {
        if (kernel) *kernel = "output tiles, the intermediate in shared memory (16-bit samples, " + what;
        return;
    }
    void* mid = ws.intermediate(static_cast<std::size_t>(plan.y.count) * plan.x.in * C * mid_bytes, stream);
    const Passes<std::uint16_t> p{plan, src, dst, t, mid, divider, stream};
    switch (C) {
        case 1: run_channels<1>(p, ky, kx, premultiply); break;
        case 2: run_channels<2>(p, ky, kx, premultiply); break;
        case 3: run_channels<3>(p, ky, kx, premultiply); break;
        default: run_channels<4>(p, ky, kx, premultiply); break;
    }
    if (kernel) *kernel = "down the columns, then along the rows, one thread a pixel (16-bit samples, " + what;
}

}  // namespace imgpar::cuda

namespace imgpar::gpu {

void resize(Session& session, const ResizePlan& plan, ConstDeviceViewU8 src, DeviceViewU8 dst, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::resize(plan, src, dst, session.impl().resizes, stream, kernel);
}

void resize(Session& session, const ResizePlan& plan, ConstDeviceViewU16 src, DeviceViewU16 dst, std::string* kernel) {
    const cudaStream_t stream = cuda::enter(session);
    cuda::resize(plan, src, dst, session.impl().resizes, stream, kernel);
}

}  // namespace imgpar::gpu
