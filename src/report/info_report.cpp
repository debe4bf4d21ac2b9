#include "src/report/info_report.hpp"

#include "src/report/csv.hpp"
#include "src/report/json.hpp"
#include "src/report/text_escape.hpp"

namespace imgpar {

std::string info_text(const InfoRecord& r) {
    // Text for people: the name and the error (which repeats it) escaped.
    if (!r.ok) return escape_control(r.file) + ": error: " + escape_control(r.error);
    const ImageHeader& h = r.header;
    std::string s = escape_control(r.file) + ": " + format_name(h.format) + " " + std::to_string(h.width) + "x" +
                    std::to_string(h.height) + " " + channel_layout_name(h.channels) + " (" +
                    std::to_string(h.channels) + (h.channels == 1 ? " channel" : " channels") + "), " +
                    std::to_string(h.bit_depth) + "-bit, " + std::to_string(h.file_bytes) + " bytes";
    if (h.pages > 1) s += "; page " + std::to_string(h.page) + " of " + std::to_string(h.pages) + " (0-based)";
    if (r.decoded) s += "; " + std::to_string(r.decoded_bytes) + " bytes decoded";
    if (!h.metadata.empty()) s += "; " + describe_metadata(h.metadata);
    return s;
}

std::string info_csv_header() {
    return "file,ok,format,width,height,channels,layout,bit_depth,file_bytes,decoded_bytes,orientation,exif_bytes,"
           "icc_bytes,error";
}

std::string info_csv_row(const InfoRecord& r) {
    if (!r.ok) return csv_row({r.file, "false", "", "", "", "", "", "", "", "", "", "", "", r.error});
    const ImageHeader& h = r.header;
    const int orientation = exif_orientation(h.metadata.exif);
    return csv_row({r.file, "true", format_name(h.format), std::to_string(h.width), std::to_string(h.height),
                    std::to_string(h.channels), channel_layout_name(h.channels), std::to_string(h.bit_depth),
                    std::to_string(h.file_bytes), r.decoded ? std::to_string(r.decoded_bytes) : "",
                    orientation ? std::to_string(orientation) : "", std::to_string(h.metadata.exif.size()),
                    std::to_string(h.metadata.icc.size()), ""});
}

std::string info_json(const InfoRecord& r) {
    JsonObject o;
    o.add("schema", "imgpar.info/2").add("file", r.file).add("ok", r.ok);
    if (!r.ok) return o.add("error", r.error).str();
    const ImageHeader& h = r.header;
    o.add("format", format_name(h.format))
        .add("width", h.width)
        .add("height", h.height)
        .add("channels", h.channels)
        .add("layout", channel_layout_name(h.channels))
        .add("bit_depth", h.bit_depth)
        .add("page", h.page)
        .add("pages", h.pages)
        .add("file_bytes", static_cast<unsigned long long>(h.file_bytes));
    if (r.decoded)
        o.add("decoded_bytes", static_cast<unsigned long long>(r.decoded_bytes));
    else
        o.add_null("decoded_bytes");
    if (const int orientation = exif_orientation(h.metadata.exif))
        o.add("orientation", orientation);
    else
        o.add_null("orientation");
    o.add("exif_bytes", static_cast<unsigned long long>(h.metadata.exif.size()))
        .add("icc_bytes", static_cast<unsigned long long>(h.metadata.icc.size()));
    return o.str();
}

}  // namespace imgpar
