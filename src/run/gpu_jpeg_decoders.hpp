// Which of the GPU's JPEG decoders a file of a run takes, and what each took.
//
// A file that computes on the GPU may decode on the hardware decoder (colour
// baseline files, once it has started), with its Huffman decoding on the GPU
// (cuda/jpeg_huffman.cu: baseline files in one scan) or on a core
// (libjpeg-turbo's entropy decoder), the rest of the decode on the GPU either
// way; the pixels are libjpeg-turbo's whichever. The cores and the GPU's SMs
// may share the Huffman decoding: a file takes the GPU when one of its slots
// is free, else a core, so neither waits while the other has work; or the
// GPU takes every scan it can (the default: it decodes several times as many
// files a second as 16 cores).
#pragma once

#include <atomic>
#include <string>

namespace imgpar {

// How a run's JPEG inputs may decode when their files compute on the GPU
// (--jpeg-decoder): on the cores only; split; or on the hardware decoder
// once it is up (split until then, and for the files it does not take).
enum class GpuJpegDecode { None, Split, Hardware };

class GpuJpegDecoders {
public:
    // `huffman_slots`: files whose Huffman decoding the GPU takes at once
    // (0: none, the cores decode every scan; -1: every file it can take).
    GpuJpegDecoders(GpuJpegDecode how, int huffman_slots) : how_(how), slots_(huffman_slots) {}

    GpuJpegDecode how() const { return how_; }
    bool huffman_on_gpu() const { return slots_ != 0; }
    int huffman_slots() const { return slots_; }

    // A place among the files whose Huffman decoding is on the GPU, held
    // while it lasts; empty (false) when every slot is taken.
    class Slot {
    public:
        explicit Slot(GpuJpegDecoders* owner) : owner_(owner) {}
        Slot(Slot&& o) noexcept : owner_(o.owner_) { o.owner_ = nullptr; }
        Slot& operator=(Slot&&) = delete;
        ~Slot() {
            if (owner_ && owner_->slots_ > 0) owner_->in_flight_.fetch_sub(1);
        }
        explicit operator bool() const { return owner_ != nullptr; }

    private:
        GpuJpegDecoders* owner_;
    };
    Slot huffman_slot();

    // What decoded a file (counted for -v's line).
    enum class Decoder { Hardware, GpuHuffman, Split, Host };
    void count(Decoder d) { counts_[static_cast<int>(d)].fetch_add(1); }
    // A file the GPU's Huffman decoding sent back to a core (a damaged scan,
    // decoders out of step, an unsafe block).
    void count_sent_back() { sent_back_.fetch_add(1); }
    // "JPEG decoders: 1,200 files Huffman-decoded on the GPU, 300 on the
    // cores (split), ..." for -v; empty when no JPEG decoded on the GPU.
    std::string summary() const;

private:
    GpuJpegDecode how_;
    int slots_;
    std::atomic<int> in_flight_{0};
    std::atomic<int> counts_[4] = {};
    std::atomic<int> sent_back_{0};
};

// The name a record gives each decoder ("hardware", "gpu", "split", "cpu").
const char* decoder_name(GpuJpegDecoders::Decoder d);

}  // namespace imgpar
