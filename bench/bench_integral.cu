// The summed-area table (cuda/integral.hpp) against a device copy of the
// bytes it must read and write (the image once, the table once), CUB's 1-D
// DeviceScan::InclusiveSum over the same number of elements into the same
// output type, and NPP Integral / SqrIntegral where their 32-bit sums hold
// the totals (4096x4096 gray). Every row checks its table against the CPU
// reference and says so in the note.
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_scan.cuh>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/npp_integral_peer.hpp"
#include "cuda/buffers.hpp"
#include "cuda/check.hpp"
#include "cuda/device_image.hpp"
#include "cuda/integral.hpp"
#include "src/ops/integral.hpp"

namespace imgpar::bench {
namespace {

template <typename Out>
struct Widen {
    __host__ __device__ Out operator()(std::uint8_t v) const { return static_cast<Out>(v); }
};

// CUB's 1-D inclusive scan of n bytes into Out (widened on the way in, so
// the sums are Out's): the peer of a 2-D table with as many elements.
template <typename Out>
Timing time_cub_scan(Context& ctx, const std::uint8_t* in, std::size_t n) {
    cuda::DeviceBuffer<Out> out(n);
    const auto widened = thrust::make_transform_iterator(in, Widen<Out>());
    std::size_t temp_bytes = 0;
    IMGPAR_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, widened, out.get(), static_cast<int>(n), ctx.stream()));
    cuda::DeviceBuffer<unsigned char> temp(temp_bytes);
    return ctx.time([&](cudaStream_t s) {
        IMGPAR_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp.get(), temp_bytes, widened, out.get(), static_cast<int>(n), s));
    });
}

struct Case {
    int w, h, c;
    const char* label;
    SumType type;
    bool squared;
    bool npp;  // NPP's 32-bit sums hold this image's totals
    bool u16 = false;  // the image widened to 16 bits (noise in the low byte)
};

const Case kCases[] = {
    {8192, 8192, 1, "8192x8192 gray", SumType::U64, false, false},
    {7680, 4320, 3, "7680x4320 RGB", SumType::U64, false, false},
    {8192, 8192, 1, "8192x8192 gray", SumType::U64, true, false},
    {4096, 4096, 1, "4096x4096 gray", SumType::U32, false, true},  // 255 x 4096^2 fits in 32 bits
    {4096, 4096, 1, "4096x4096 gray", SumType::U64, true, true},
    {8192, 8192, 1, "8192x8192 gray", SumType::U64, false, false, true},
    {7680, 4320, 3, "7680x4320 RGB", SumType::U64, false, false, true},
    {8192, 8192, 1, "8192x8192 gray", SumType::U64, true, false, true},
};

// The source image of a case, and its device copy, in the case's sample type.
template <typename T>
Image<T> case_image(const Case& k);
template <>
ImageU8 case_image<std::uint8_t>(const Case& k) {
    return make_photo_like(k.w, k.h, k.c, 3);
}
template <>
ImageU16 case_image<std::uint16_t>(const Case& k) {
    return widen_with_noise(make_photo_like(k.w, k.h, k.c, 3), 777);
}

template <typename T>
void integral_case(Context& ctx, const Case& k, cuda::IntegralWorkspace& ws) {
    const cudaStream_t s = ctx.stream();
    const Image<T> img = case_image<T>(k);
    cuda::DeviceImage<T> d = cuda::DeviceImage<T>::from_host(img.cview(), s);
    SumTableView host = sum_table_view(nullptr, k.type, k.w, k.h, k.c, k.squared);
    const std::size_t table_bytes = host.row_bytes() * host.height * host.planes;
    std::vector<std::uint8_t> want(table_bytes), got(table_bytes);
    host.data = want.data();
    cpu::integral(img.cview(), host);
    cuda::DeviceBuffer<unsigned char> table(table_bytes);
    SumTableView dev = host;
    dev.data = table.get();
    ws.reserve(sizeof(T) == 1 ? cuda::integral_workspace_bytes(k.w, k.h, k.c, k.type)
                              : cuda::integral16_workspace_bytes(k.w, k.h, k.c),
               s);

    const Timing t = ctx.time([&](cudaStream_t st) { cuda::integral(DeviceView<const T>(d.view()), dev, ws, st); }, 3, 50);
    IMGPAR_CUDA_CHECK(cudaMemcpyAsync(got.data(), table.get(), table_bytes, cudaMemcpyDeviceToHost, s));
    IMGPAR_CUDA_CHECK(cudaStreamSynchronize(s));
    const bool same = std::memcmp(want.data(), got.data(), table_bytes) == 0;

    const std::size_t samples = static_cast<std::size_t>(k.w) * k.h * k.c;
    const std::size_t bytes = samples * sizeof(T) + table_bytes;
    Row r;
    r.group = sizeof(T) == 1 ? "integral" : "integral u16";
    r.name = std::string(sizeof(T) == 1 ? "integral -> " : "integral u16 -> ") + sum_type_name(k.type) +
             (k.squared ? ", sums + squares" : "");
    r.image = k.label;
    r.bytes = static_cast<double>(bytes);
    r.gpu = t;
    r.copy_ms = ctx.copy_ms(bytes);
    if (ctx.options().cpu) r.cpu_ms = Context::time_host_ms([&] { cpu::integral(img.cview(), host); });
    const std::string check = same ? "table = CPU" : "TABLE DIFFERS FROM CPU";
    if constexpr (sizeof(T) == 1) {
        if (!k.squared) {
            r.peer = std::string("CUB DeviceScan::InclusiveSum u8->") + sum_type_name(k.type) + " (1-D, same elements)";
            r.peer_ms = (k.type == SumType::U32 ? time_cub_scan<std::uint32_t>(ctx, d.view().data, samples)
                                                : time_cub_scan<unsigned long long>(ctx, d.view().data, samples))
                            .median_ms;
        }
    }
    r.note = check;
    ctx.add(r);

    if constexpr (sizeof(T) == 1) {
        if (k.npp) {
            // NPP's sums are i32 (and its squares f64): compared with imgpar's u32 sums.
            std::vector<std::uint32_t> sums32(static_cast<std::size_t>(k.w + 1) * (k.h + 1));
            if (k.type == SumType::U32) {
                std::memcpy(sums32.data(), want.data(), sums32.size() * 4);
            } else {
                for (std::size_t i = 0; i < sums32.size(); ++i) {
                    std::uint64_t v;
                    std::memcpy(&v, want.data() + i * 8, 8);
                    sums32[i] = static_cast<std::uint32_t>(v);
                }
            }
            const NppIntegralRun npp = time_npp_integral(ctx, d.view(), k.squared, sums32.data());
            if (npp.available) ctx.add(vs_peer_row(r, "NPP", npp.name, npp.timing.median_ms, check + "; " + npp.note));
        }
    }
}

// (NPP has no 16-bit integral: the u16 rows have only the copy beside them.)
void integral_cases(Context& ctx) {
    cuda::IntegralWorkspace ws;
    for (const Case& k : kCases) {
        if (k.u16)
            integral_case<std::uint16_t>(ctx, k, ws);
        else
            integral_case<std::uint8_t>(ctx, k, ws);
    }
}

IMGPAR_BENCH(4, "integral", integral_cases);

}  // namespace
}  // namespace imgpar::bench
