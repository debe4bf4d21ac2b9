#include "src/report/info_report.hpp"

#include "src/report/csv.hpp"
#include "src/report/json.hpp"
#include "src/report/text_escape.hpp"

namespace imgpar {

namespace {
constexpr std::size_t kCommentShown = 200;  // characters of a comment's text a JSON record carries
}  // namespace

std::string info_text(const InfoRecord& r) {
    // Text for people: the name and the error (which repeats it) escaped.
    if (!r.ok) return escape_control(r.file) + ": error: " + escape_control(r.error);
    const ImageHeader& h = r.header;
    std::string s = escape_control(r.file) + ": " + format_name(h.format) + " " + std::to_string(h.width) + "x" +
                    std::to_string(h.height) + " " + channel_layout_name(h.channels) + " (" +
                    std::to_string(h.channels) + (h.channels == 1 ? " channel" : " channels") + "), " +
                    (h.color_space.empty() ? std::string() : "stored " + h.color_space + ", ") +
                    std::to_string(h.bit_depth) + "-bit, " + std::to_string(h.pages) +
                    (h.pages == 1 ? " page, " : " pages, ") +
                    (h.format == ImageFormat::Tiff && h.pages > 1 ? "page " + std::to_string(h.page) + " read (0-based), "
                                                                  : std::string()) +
                    std::to_string(h.file_bytes) + " bytes";
    if (r.decoded) s += "; " + std::to_string(r.decoded_bytes) + " bytes decoded";
    if (!h.metadata.empty()) s += "; " + escape_control(describe_metadata(h.metadata));
    for (const std::string& p : h.metadata.problems) s += "; metadata dropped: " + escape_control(p);
    return s;
}

std::string info_csv_header() {
    return "file,ok,format,width,height,channels,layout,bit_depth,file_bytes,decoded_bytes,orientation,exif_bytes,"
           "icc_bytes,color_space,pages,xmp_bytes,iptc_bytes,comments,page,error";
}

std::string info_csv_row(const InfoRecord& r) {
    if (!r.ok) return csv_row({r.file, "false", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", r.error});
    const ImageHeader& h = r.header;
    const int orientation = exif_orientation(h.metadata.exif);
    return csv_row({r.file, "true", format_name(h.format), std::to_string(h.width), std::to_string(h.height),
                    std::to_string(h.channels), channel_layout_name(h.channels), std::to_string(h.bit_depth),
                    std::to_string(h.file_bytes), r.decoded ? std::to_string(r.decoded_bytes) : "",
                    orientation ? std::to_string(orientation) : "", std::to_string(h.metadata.exif.size()),
                    std::to_string(h.metadata.icc.size()), h.color_space, std::to_string(h.pages),
                    std::to_string(h.metadata.xmp.size() + h.metadata.xmp_extended.size()),
                    std::to_string(h.metadata.iptc.size()), std::to_string(h.metadata.comments.size()),
                    std::to_string(h.page), ""});
}

std::string info_json(const InfoRecord& r) {
    JsonObject o;
    o.add("schema", "imgpar.info/3").add("file", r.file).add("ok", r.ok);
    if (!r.ok) return o.add("error", r.error).str();
    const ImageHeader& h = r.header;
    o.add("format", format_name(h.format))
        .add("width", h.width)
        .add("height", h.height)
        .add("channels", h.channels)
        .add("layout", channel_layout_name(h.channels))
        .add("bit_depth", h.bit_depth)
        .add("file_bytes", static_cast<unsigned long long>(h.file_bytes));
    if (r.decoded)
        o.add("decoded_bytes", static_cast<unsigned long long>(r.decoded_bytes));
    else
        o.add_null("decoded_bytes");
    if (const int orientation = exif_orientation(h.metadata.exif))
        o.add("orientation", orientation);
    else
        o.add_null("orientation");
    const ImageMetadata& m = h.metadata;
    o.add("exif_bytes", static_cast<unsigned long long>(m.exif.size()))
        .add("icc_bytes", static_cast<unsigned long long>(m.icc.size()))
        .add_text_or_null("icc_description", icc_description(m.icc))
        .add_text_or_null("color_space", h.color_space)
        .add("page", h.page)
        .add("pages", h.pages)
        .add("xmp_bytes", static_cast<unsigned long long>(m.xmp.size()))
        .add("xmp_extended_bytes", static_cast<unsigned long long>(m.xmp_extended.size()))
        .add("iptc_bytes", static_cast<unsigned long long>(m.iptc.size()));
    JsonArray comments;
    for (const Comment& c : m.comments)
        comments.push(JsonObject()
                          .add("keyword", c.keyword)
                          .add("bytes", static_cast<unsigned long long>(c.text.size()))
                          .add("text", shortened_text(c.text, kCommentShown)));
    JsonArray problems;
    for (const std::string& p : m.problems) problems.push(p);
    return o.add("comments", comments).add("metadata_dropped", problems).str();
}

}  // namespace imgpar
