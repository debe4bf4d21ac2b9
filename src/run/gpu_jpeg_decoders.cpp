#include "src/run/gpu_jpeg_decoders.hpp"

namespace imgpar {

GpuJpegDecoders::Slot GpuJpegDecoders::huffman_slot() {
    if (slots_ == 0) return Slot(nullptr);
    if (slots_ < 0) return Slot(this);
    int n = in_flight_.load();
    while (n < slots_)
        if (in_flight_.compare_exchange_weak(n, n + 1)) return Slot(this);
    return Slot(nullptr);
}

const char* decoder_name(GpuJpegDecoders::Decoder d) {
    switch (d) {
        case GpuJpegDecoders::Decoder::Hardware: return "hardware";
        case GpuJpegDecoders::Decoder::GpuHuffman: return "gpu";
        case GpuJpegDecoders::Decoder::Split: return "split";
        case GpuJpegDecoders::Decoder::Host: return "cpu";
    }
    return "cpu";
}

std::string GpuJpegDecoders::summary() const {
    const int hardware = counts_[0].load(), gpu = counts_[1].load(), split = counts_[2].load();
    if (hardware + gpu + split == 0) return {};
    std::string line = "JPEG decoders: " + std::to_string(gpu) + " files Huffman-decoded on the GPU, " +
                       std::to_string(split) + " on the cores (the rest of their decode on the GPU)";
    if (how_ == GpuJpegDecode::Hardware) line += ", " + std::to_string(hardware) + " on the hardware decoder";
    if (const int host = counts_[3].load()) line += ", " + std::to_string(host) + " wholly on the cores";
    if (const int back = sent_back_.load())
        line += "; " + std::to_string(back) + " sent back from the GPU's Huffman decoding to the cores";
    return line;
}

}  // namespace imgpar
