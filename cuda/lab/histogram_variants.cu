// Histogram sweep strategies the product does not ship: every merge, chunks
// per step and block shape of cuda/histogram_policy.hpp, chosen at run time
// from a policy. The benchmark sweeps them (imgpar_bench --only histo-policy)
// and the GPU tests check their counts; imgpar itself instantiates only its
// default policies (cuda/histogram.cu).
#include "cuda/lab/histogram_variants.hpp"

#include "cuda/histogram_sweep.cuh"

namespace imgpar::cuda::lab {
namespace {

using hist::SweepArgs;

// Picks the chunks-per-step instantiation; only those within the 64-byte
// cap exist (4 and 2 for gray, 2 for two channels).
template <int C, bool kChannels, bool kLuma, HistogramMerge M>
void launch_sweep_steps(const SweepArgs& a, const HistogramPolicy& policy, cudaStream_t stream) {
    const int steps = hist::effective_steps(policy.chunks_per_step, C);
    if constexpr (C == 1) {
        if (steps == 4) return hist::launch_sweep_variant<C, kChannels, kLuma, M, 4>(a, policy, stream);
    }
    if constexpr (C <= 2) {
        if (steps == 2) return hist::launch_sweep_variant<C, kChannels, kLuma, M, 2>(a, policy, stream);
    }
    hist::launch_sweep_variant<C, kChannels, kLuma, M, 1>(a, policy, stream);
}

template <int C, bool kChannels, bool kLuma>
void launch_sweep(const SweepArgs& a, const HistogramPolicy& policy, cudaStream_t stream) {
    switch (policy.merge) {
        case HistogramMerge::Runs: launch_sweep_steps<C, kChannels, kLuma, HistogramMerge::Runs>(a, policy, stream); break;
        case HistogramMerge::Plain: launch_sweep_steps<C, kChannels, kLuma, HistogramMerge::Plain>(a, policy, stream); break;
        case HistogramMerge::Uniform:
            launch_sweep_steps<C, kChannels, kLuma, HistogramMerge::Uniform>(a, policy, stream);
            break;
        default: launch_sweep_steps<C, kChannels, kLuma, HistogramMerge::Match>(a, policy, stream); break;
    }
}

template <int C>
void dispatch_colour(const SweepArgs& a, HistogramPlanes planes, const HistogramPolicy& policy,
                     cudaStream_t stream) {
    if (!planes.channels)
        launch_sweep<C, false, true>(a, policy, stream);
    else if (planes.luma)
        launch_sweep<C, true, true>(a, policy, stream);
    else
        launch_sweep<C, true, false>(a, policy, stream);
}

}  // namespace

void histogram_with_policy(const ConstDeviceViewU8& image, HistogramPlanes planes, unsigned long long* d_counts,
                           const HistogramPolicy& policy, cudaStream_t stream) {
    hist::check_policy(policy);
    const SweepArgs a = hist::sweep_args(image, planes, d_counts, "histogram", stream);
    switch (image.channels) {
        case 1: launch_sweep<1, true, false>(a, policy, stream); break;
        case 2: launch_sweep<2, true, false>(a, policy, stream); break;
        case 3: dispatch_colour<3>(a, planes, policy, stream); break;
        default: dispatch_colour<4>(a, planes, policy, stream); break;
    }
}

}  // namespace imgpar::cuda::lab
