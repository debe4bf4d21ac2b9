#include "src/io/tiff_file.hpp"

#if IMGPAR_HAVE_LIBTIFF

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "src/error.hpp"

namespace imgpar {

namespace {

TiffFile* file_of(thandle_t h) { return static_cast<TiffFile*>(h); }

tmsize_t read_proc(thandle_t h, void* buf, tmsize_t n) {
    TiffFile* f = file_of(h);
    if (!f->in || n <= 0 || f->at >= f->size) return 0;
    const std::uint64_t take = std::min<std::uint64_t>(static_cast<std::uint64_t>(n), f->size - f->at);
    std::memcpy(buf, f->in + f->at, take);
    f->at += take;
    return static_cast<tmsize_t>(take);
}

// Writing to a file: all of it, or -1 with the errno kept for the message.
tmsize_t write_fd(TiffFile* f, const void* buf, tmsize_t n) {
    const auto* p = static_cast<const std::uint8_t*>(buf);
    for (tmsize_t left = n; left > 0;) {
        const ssize_t w = ::write(f->fd, p, static_cast<std::size_t>(left));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (f->write_errno == 0) f->write_errno = w < 0 ? errno : EIO;
            return -1;
        }
        p += w;
        left -= w;
    }
    f->at += static_cast<std::uint64_t>(n);
    return n;
}

// libtiff writes strips in turn, then the directory, and seeks back only
// to link it: the bytes past the end are appended (no zero-filling first),
// the rest overwritten in place.
tmsize_t write_proc(thandle_t h, void* buf, tmsize_t n) {
    TiffFile* f = file_of(h);
    if (f->fd >= 0 && n >= 0) return write_fd(f, buf, n);
    if (!f->out || n < 0) return -1;
    std::vector<std::uint8_t>& out = *f->out;
    const auto* p = static_cast<const std::uint8_t*>(buf);
    if (f->at > out.size()) out.resize(f->at);  // a seek past the end: the gap is zeros
    const std::size_t inside = static_cast<std::size_t>(std::min<std::uint64_t>(out.size() - f->at, static_cast<std::uint64_t>(n)));
    std::memcpy(out.data() + f->at, p, inside);
    out.insert(out.end(), p + inside, p + n);
    f->at += static_cast<std::uint64_t>(n);
    return n;
}

toff_t seek_proc(thandle_t h, toff_t off, int whence) {
    TiffFile* f = file_of(h);
    if (f->fd >= 0) {
        const off_t at = ::lseek(f->fd, static_cast<off_t>(off), whence);
        if (at < 0) return static_cast<toff_t>(-1);
        f->at = static_cast<std::uint64_t>(at);
        return f->at;
    }
    const std::uint64_t size = f->out ? f->out->size() : f->size;
    std::uint64_t base = whence == SEEK_CUR ? f->at : whence == SEEK_END ? size : 0;
    // libtiff seeks with unsigned offsets; a "negative" one wraps, which
    // the sum below undoes.
    f->at = base + off;
    return f->at;
}

int close_proc(thandle_t) { return 0; }

toff_t size_proc(thandle_t h) {
    TiffFile* f = file_of(h);
    if (f->fd >= 0) {
        struct stat st {};
        return ::fstat(f->fd, &st) == 0 ? static_cast<toff_t>(st.st_size) : 0;
    }
    return f->out ? f->out->size() : f->size;
}

// Reading maps the whole file: libtiff then reads strips in place, with no copy.
int map_proc(thandle_t h, void** base, toff_t* size) {
    TiffFile* f = file_of(h);
    if (!f->in) return 0;
    *base = const_cast<std::uint8_t*>(f->in);
    *size = f->size;
    return 1;
}

void unmap_proc(thandle_t, void*, toff_t) {}

std::string format_message(const char* module, const char* fmt, va_list ap) {
    char text[512];
    std::vsnprintf(text, sizeof text, fmt, ap);
    std::string m = text;
    if (module && *module) m = std::string(module) + ": " + m;
    return m;
}

int error_handler(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
    file_of(user)->on_error(nullptr, format_message(module, fmt, ap).c_str());
    return 1;  // handled: libtiff's global handler stays silent
}

int warning_handler(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
    file_of(user)->on_warning(nullptr, format_message(module, fmt, ap).c_str());
    return 1;
}

}  // namespace

TiffFile::TiffFile(const std::string& name, const std::vector<std::uint8_t>& bytes, std::uint64_t max_alloc)
    : name_(name) {
    in = bytes.data();
    size = bytes.size();
    // 'O': strip and tile offsets are read when asked for, so a forged
    // count costs nothing until a strip is read.
    open("rO", max_alloc);
    if (!tif_) throw input_error(name, "the TIFF header or first directory is invalid (" + take_error("unreadable") + ")");
}

TiffFile::TiffFile(const std::string& name, std::vector<std::uint8_t>& buffer, bool big) : name_(name) {
    out = &buffer;
    open(big ? "w8" : "w", 0);
    if (!tif_) throw output_error(name, "libtiff could not start the file (" + take_error("unknown error") + ")");
}

TiffFile::TiffFile(const std::string& name, int file, bool big) : name_(name) {
    fd = file;
    open(big ? "w8" : "w", 0);
    if (!tif_) throw output_error(name, "libtiff could not start the file (" + take_error("unknown error") + ")");
}

void TiffFile::open(const char* mode, std::uint64_t max_alloc) {
    TIFFOpenOptions* options = TIFFOpenOptionsAlloc();
    if (!options) return;
    TIFFOpenOptionsSetErrorHandlerExtR(options, error_handler, this);
    TIFFOpenOptionsSetWarningHandlerExtR(options, warning_handler, this);
    if (max_alloc > 0)
        TIFFOpenOptionsSetMaxSingleMemAlloc(options, static_cast<tmsize_t>(std::min<std::uint64_t>(max_alloc, INT64_MAX)));
    tif_ = TIFFClientOpenExt(name_.c_str(), mode, this, read_proc, write_proc, seek_proc, close_proc, size_proc,
                             map_proc, unmap_proc, options);
    TIFFOpenOptionsFree(options);
}

TiffFile::~TiffFile() {
    if (tif_) TIFFClose(tif_);
}

void TiffFile::close_for_write() {
    TIFF* t = tif_;
    tif_ = nullptr;
    const bool flushed = TIFFFlush(t) == 1;
    TIFFClose(t);
    if (write_errno != 0) throw output_error(name_, std::string("write failed: ") + std::strerror(write_errno));
    if (!flushed || !error_.empty()) throw output_error(name_, "libtiff failed to write: " + take_error("flush failed"));
}

std::string TiffFile::take_error(const std::string& fallback) {
    std::string e = error_.empty() ? fallback : error_;
    error_.clear();
    return e;
}

std::vector<std::string> TiffFile::take_warnings() { return std::move(warnings_); }

void TiffFile::on_error(const char*, const char* text) {
    if (error_.empty()) error_ = text;
}

void TiffFile::on_warning(const char*, const char* text) {
    const std::string m = text;
    // Private tags (GeoTIFF's, a scanner's) are normal in TIFF files and
    // change nothing imgpar reads: not worth a warning.
    if (m.find("Unknown field with tag") != std::string::npos) return;
    if (warnings_.size() >= 4 || std::find(warnings_.begin(), warnings_.end(), m) != warnings_.end()) return;
    warnings_.push_back(m);
}

}  // namespace imgpar

#endif
