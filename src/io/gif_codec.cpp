#include "src/io/gif_codec.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>

#include "src/error.hpp"

#if defined(IMGPAR_HAVE_GIFLIB)
#include <gif_lib.h>
#endif

namespace imgpar {

#if defined(IMGPAR_HAVE_GIFLIB)

namespace {

struct Reader {
    const std::uint8_t* data;
    std::size_t size;
    std::size_t at = 0;
};

// giflib asks for bytes through this; fewer than asked is its read error.
int read_bytes(GifFileType* gif, GifByteType* out, int want) {
    auto* r = static_cast<Reader*>(gif->UserData);
    const std::size_t n = std::min(static_cast<std::size_t>(std::max(want, 0)), r->size - r->at);
    std::memcpy(out, r->data + r->at, n);
    r->at += n;
    return static_cast<int>(n);
}

struct GifClose {
    void operator()(GifFileType* g) const {
        int error = 0;
        DGifCloseFile(g, &error);
    }
};
using Gif = std::unique_ptr<GifFileType, GifClose>;

std::string error_text(int code) {
    const char* s = GifErrorString(code);
    return s ? s : "error " + std::to_string(code);
}

Gif open(const std::string& name, Reader& reader) {
    int error = 0;
    Gif g(DGifOpen(&reader, read_bytes, &error));
    if (!g) throw input_error(name, "the GIF header is invalid: " + error_text(error));
    return g;
}

// Passes over the current frame's data; false when it ends early.
bool skip_frame_data(GifFileType* gif) {
    int code_size = 0;
    GifByteType* block = nullptr;
    bool ok = DGifGetCode(gif, &code_size, &block) != GIF_ERROR;
    while (ok && block) ok = DGifGetCodeNext(gif, &block) != GIF_ERROR;
    return ok;
}

// What walk() found before and at the first frame.
struct FirstFrame {
    int transparent = -1;  // the palette index drawn as transparent, or -1
    const ColorMapObject* colours = nullptr;
};

// giflib keeps every frame's descriptor and colour table it is shown (up to
// 800 bytes each, from 12 bytes of file): frames are counted up to this many.
constexpr int kMaxCountedFrames = 10000;

// Walks the blocks: extensions are read and passed over, the first frame is
// handed to `first` (which reads its data), later frames' data is skipped
// unread. Returns the frames seen, up to kMaxCountedFrames; stops quietly at
// damage after the first.
int walk(const std::string& name, GifFileType* gif, const std::function<void(const FirstFrame&)>& first) {
    FirstFrame f;
    int frames = 0;
    for (;;) {
        GifRecordType type = UNDEFINED_RECORD_TYPE;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) {
            if (frames == 0) throw input_error(name, "the GIF ends or is malformed before its first frame: " + error_text(gif->Error));
            return frames;
        }
        if (type == TERMINATE_RECORD_TYPE) return frames;
        if (type == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType* ext = nullptr;
            bool ok = DGifGetExtension(gif, &code, &ext) != GIF_ERROR;
            if (ok && frames == 0 && code == GRAPHICS_EXT_FUNC_CODE && ext && ext[0] >= 4) {
                GraphicsControlBlock gcb;
                if (DGifExtensionToGCB(ext[0], ext + 1, &gcb) != GIF_ERROR) f.transparent = gcb.TransparentColor;
            }
            while (ok && ext) ok = DGifGetExtensionNext(gif, &ext) != GIF_ERROR;
            if (!ok) {
                if (frames == 0) throw input_error(name, "the GIF's extension blocks are malformed: " + error_text(gif->Error));
                return frames;
            }
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE || DGifGetImageDesc(gif) == GIF_ERROR) {
            if (frames == 0) throw input_error(name, "the GIF's first frame descriptor is malformed: " + error_text(gif->Error));
            return frames;
        }
        ++frames;
        if (frames >= kMaxCountedFrames) return frames;
        if (frames == 1) {
            f.colours = gif->Image.ColorMap ? gif->Image.ColorMap : gif->SColorMap;
            if (!f.colours) throw input_error(name, "the GIF's first frame has no colour table");
            first(f);
            continue;
        }
        if (!skip_frame_data(gif)) return frames;
    }
}

}  // namespace

bool gif_codec_available() { return true; }

std::string gif_codec_name() {
    return "giflib " + std::to_string(GIFLIB_MAJOR) + "." + std::to_string(GIFLIB_MINOR) + "." + std::to_string(GIFLIB_RELEASE);
}

GifHeaderInfo gif_read_header(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    Reader reader{bytes.data(), bytes.size()};
    const Gif gif = open(name, reader);
    GifHeaderInfo h;
    h.width = gif->SWidth;
    h.height = gif->SHeight;
    bool transparent = false;
    h.frames = walk(name, gif.get(), [&](const FirstFrame& f) {
        const GifImageDesc& d = gif->Image;
        h.frame_left = d.Left;
        h.frame_top = d.Top;
        h.frame_width = d.Width;
        h.frame_height = d.Height;
        transparent = f.transparent >= 0;
        h.frame_cut = !skip_frame_data(gif.get());
    });
    // A screen of no size (some writers leave it 0): the frame's own.
    if (h.width == 0 || h.height == 0) {
        h.width = h.frame_left + h.frame_width;
        h.height = h.frame_top + h.frame_height;
    }
    const bool covers = h.frame_left == 0 && h.frame_top == 0 && h.frame_width >= h.width && h.frame_height >= h.height;
    h.channels = transparent || !covers ? 4 : 3;
    return h;
}

ImageU8 gif_decode(const std::string& name, const std::vector<std::uint8_t>& bytes, const GifHeaderInfo& h,
                   std::vector<std::string>& warnings, bool allow_partial) {
    ImageU8 out(h.width, h.height, h.channels);
    std::fill(out.data(), out.data() + out.size_bytes(), std::uint8_t{0});  // bare screen: transparent black
    Reader reader{bytes.data(), bytes.size()};
    const Gif gif = open(name, reader);
    int rows_read = 0;
    std::string damage;
    (void)walk(name, gif.get(), [&](const FirstFrame& f) {
        const GifImageDesc& d = gif->Image;
        std::vector<GifPixelType> line(static_cast<std::size_t>(std::max(d.Width, 1)));
        // Interlaced rows come in four passes: every 8th from 0, every 8th
        // from 4, every 4th from 2, every 2nd from 1.
        static const int kStart[] = {0, 4, 2, 1}, kStep[] = {8, 8, 4, 2};
        const int passes = d.Interlace ? 4 : 1;
        for (int p = 0; p < passes && damage.empty(); ++p)
            for (int r = d.Interlace ? kStart[p] : 0; r < d.Height; r += d.Interlace ? kStep[p] : 1) {
                if (DGifGetLine(gif.get(), line.data(), d.Width) == GIF_ERROR) {
                    damage = error_text(gif->Error);
                    break;
                }
                ++rows_read;
                const int y = d.Top + r;
                if (y >= h.height) continue;
                std::uint8_t* px = out.view().row(y);
                for (int x = 0; x < d.Width && d.Left + x < h.width; ++x) {
                    const int index = line[static_cast<std::size_t>(x)];
                    std::uint8_t* p = px + static_cast<std::size_t>(d.Left + x) * static_cast<std::size_t>(h.channels);
                    if (index == f.transparent) continue;  // stays transparent
                    if (index < f.colours->ColorCount) {
                        const GifColorType c = f.colours->Colors[index];
                        p[0] = c.Red;
                        p[1] = c.Green;
                        p[2] = c.Blue;
                    }  // an index past the table: black
                    if (h.channels == 4) p[3] = 255;
                }
            }
        if (damage.empty() && !skip_frame_data(gif.get())) damage = "its data ends after the last row";
    });
    const int frame_rows = h.frame_height;
    if (rows_read < frame_rows) {
        const std::string how = std::to_string(rows_read) + " of the first frame's " + std::to_string(frame_rows) +
                                " rows decoded (" + damage + ")";
        if (!allow_partial) throw input_error(name, "GIF data is truncated or corrupt: " + how);
        warnings.push_back("GIF data is truncated or corrupt: " + how + ", the rest transparent (--allow-partial)");
    }
    if (h.frames > 1)
        warnings.push_back("animated GIF of " + std::to_string(h.frames) +
                           (h.frames >= kMaxCountedFrames ? " or more" : "") + " frames: the first frame is read");
    return out;
}

#else  // no giflib

namespace {
const char* const kAbsent = "this build of imgpar has no GIF decoder (build it with libgif-dev installed)";
}

bool gif_codec_available() { return false; }
std::string gif_codec_name() { return ""; }
GifHeaderInfo gif_read_header(const std::string& name, const std::vector<std::uint8_t>&) { throw input_error(name, kAbsent); }
ImageU8 gif_decode(const std::string& name, const std::vector<std::uint8_t>&, const GifHeaderInfo&,
                   std::vector<std::string>&, bool) {
    throw input_error(name, kAbsent);
}

#endif

}  // namespace imgpar
