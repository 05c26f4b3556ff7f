#include "mesh_file_checks.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <vector>

#include "grainlab/core/error.hpp"

namespace grainlab::detail {
namespace {

namespace fs = std::filesystem;

std::string lowercaseExtension(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

std::vector<std::string_view> splitWords(std::string_view line) {
    std::vector<std::string_view> words;
    std::size_t pos = 0;
    while (pos < line.size()) {
        const std::size_t begin = line.find_first_not_of(" \t", pos);
        if (begin == std::string_view::npos) break;
        const std::size_t end = std::min(line.find_first_of(" \t", begin), line.size());
        words.push_back(line.substr(begin, end - begin));
        pos = end;
    }
    return words;
}

// Each facet of an ASCII STL must hold three vertices of three numbers each. Assimp reports a
// facet with two as "Invalid number of vertices" or "Normal buffer size does not match position
// buffer size", without saying where, and takes a facet of four followed by one of two as two
// triangles. Lenient otherwise, as Assimp is: a missing endloop, endfacet or endsolid is let pass.
void checkAsciiStlFacets(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    std::size_t facet = 0, vertices = 0, facet_line = 0, line_number = 0;
    bool in_facet = false;
    const auto where = [&] {
        return "ASCII STL facet " + std::to_string(facet) + " (counting from 0, from line " + std::to_string(facet_line) +
               "): ";
    };
    const auto closeFacet = [&] {
        if (!in_facet) return;
        if (vertices != 3)
            throw InputError(path, "", where() + std::to_string(vertices) + " vertices, but a facet is a triangle (3)");
        ++facet;
        in_facet = false;
    };
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string_view line = std::string_view(text).substr(at, end - at);
        at = end + 1;
        ++line_number;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const std::vector<std::string_view> words = splitWords(line);
        if (words.empty()) continue;
        if (words[0] == "facet") {
            closeFacet();
            in_facet = true;
            vertices = 0;
            facet_line = line_number;
        } else if (words[0] == "endfacet" || words[0] == "endsolid") {
            closeFacet();
        } else if (words[0] == "vertex" && in_facet) {
            ++vertices;
            for (std::size_t k = 1; k <= 3; ++k) {
                double value = 0.0;
                const std::string_view word = k < words.size() ? words[k] : std::string_view();
                // from_chars takes no leading '+', which strtod and Assimp do.
                const std::size_t sign = !word.empty() && word[0] == '+' ? 1 : 0;
                const auto [stop, error] = std::from_chars(word.data() + sign, word.data() + word.size(), value);
                if (word.empty() || error == std::errc::invalid_argument || stop != word.data() + word.size())
                    throw InputError(path, "", where() + "line " + std::to_string(line_number) + ": vertex coordinate " +
                                                   std::to_string(k) + (word.empty() ? std::string(" is missing")
                                                                                     : " '" + std::string(word) + "' is not a number"));
            }
        }
    }
    closeFacet();  // a file cut after a whole facet passes: Assimp reads the facets it got
}

// A binary STL's size is fixed by the triangle count in its header; checking it names the defect
// that Assimp only reports as "failed to determine STL storage representation". A file that
// starts with "solid" is ASCII unless its size is exactly that of a binary STL (some exporters
// write "solid" into the binary header): its facets are checked instead.
void checkStl(const std::string& path, std::uint64_t size) {
    std::ifstream in(path, std::ios::binary);
    char head[84] = {};
    in.read(head, sizeof head);
    std::string start(head, std::min<std::size_t>(static_cast<std::size_t>(in.gcount()), 80));
    start.erase(0, start.find_first_not_of(" \t\r\n"));
    std::uint64_t count = 0;  // little-endian uint32 after the 80-byte header
    for (int k = 3; k >= 0; --k) count = count << 8 | static_cast<unsigned char>(head[80 + k]);
    const std::uint64_t expected = 84 + 50 * count;
    if (start.rfind("solid", 0) == 0) {
        if (size != expected) checkAsciiStlFacets(path);
        return;
    }

    if (size < 84)
        throw InputError(path, "", "not an ASCII STL and too short for a binary STL (" +
                                       std::to_string(size) + " bytes; the header alone is 84)");
    if (size != expected)
        throw InputError(path, "", "binary STL header announces " + std::to_string(count) +
                                       " triangles (" + std::to_string(expected) +
                                       " bytes) but the file has " + std::to_string(size) +
                                       " bytes: " +
                                       (size < expected ? "truncated, or not an STL file"
                                                        : "unexpected trailing bytes"));
}

bool isPlyScalarType(std::string_view t) {
    static constexpr std::string_view kTypes[] = {
        "char",  "uchar",  "short", "ushort", "int",   "uint",   "float",   "double",
        "int8",  "uint8",  "int16", "uint16", "int32", "uint32", "float32", "float64"};
    return std::find(std::begin(kTypes), std::end(kTypes), t) != std::end(kTypes);
}

// Strict header grammar (the PLY 1.0 keywords only). Assimp 5.2 loops forever on a header
// without a proper end_header line or with an unknown line in it, so those must not reach it.
// Also, every declared element takes at least a byte: larger counts are corrupt, and would make
// Assimp allocate for billions of phantom vertices.
struct PlyElement {
    std::string name;
    std::uint64_t count = 0;
    std::vector<bool> list;  // per property: a list (count, then items) or one scalar
};

struct PlyLayout {
    bool ascii = false;
    std::size_t body = 0;  // byte offset after end_header
    std::vector<PlyElement> elements;
};

PlyLayout checkPlyHeader(const std::string& path, std::uint64_t size) {
    PlyLayout layout;
    constexpr std::size_t kMaxHeader = 64 * 1024;
    std::ifstream in(path, std::ios::binary);
    std::string text(kMaxHeader, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));

    const auto fail = [&](std::size_t line, const std::string& what) {
        throw InputError(path, "", "PLY header line " + std::to_string(line) + ": " + what);
    };
    bool have_format = false;
    bool have_element = false;
    std::size_t start = 0;
    for (std::size_t number = 1;; ++number) {
        const std::size_t newline = text.find('\n', start);
        if (newline == std::string::npos)
            throw InputError(path, "",
                             "PLY header has no end_header line (truncated, or not a PLY file)");
        std::string_view line(text.data() + start, newline - start);
        start = newline + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        for (char c : line)
            if (!std::isprint(static_cast<unsigned char>(c)) && c != '\t')
                fail(number, "contains bytes that are not text");

        const std::vector<std::string_view> w = splitWords(line);
        if (number == 1) {
            if (w.size() != 1 || (w[0] != "ply" && w[0] != "PLY"))
                fail(number, "expected 'ply' (not a PLY file)");
            continue;
        }
        if (w.empty()) fail(number, "is empty");
        const std::string_view key = w[0];
        if (key == "comment" || key == "obj_info") continue;
        if (key == "end_header") {
            if (w.size() != 1) fail(number, "unexpected text after end_header");
            if (!have_format) fail(number, "no 'format' line before end_header");
            layout.body = start;
            return layout;
        }
        if (key == "format") {
            // Assimp reads the first, this check the last: two could disagree on ascii or binary.
            if (have_format) fail(number, "a second 'format' line");
            if (w.size() != 3 || (w[1] != "ascii" && w[1] != "binary_little_endian" &&
                                  w[1] != "binary_big_endian"))
                fail(number, "expected 'format ascii|binary_little_endian|binary_big_endian 1.0'");
            have_format = true;
            layout.ascii = w[1] == "ascii";
        } else if (key == "element") {
            if (w.size() != 3) fail(number, "expected 'element <name> <count>'");
            std::uint64_t count = 0;
            const char* end = w[2].data() + w[2].size();
            const auto [stop, error] = std::from_chars(w[2].data(), end, count);
            if (error != std::errc() || stop != end)
                fail(number, "element count '" + std::string(w[2]) + "' is not a whole number");
            if (count > size)
                fail(number, "declares " + std::to_string(count) + " '" + std::string(w[1]) +
                                 "' elements but the file has only " + std::to_string(size) +
                                 " bytes");
            have_element = true;
            layout.elements.push_back({std::string(w[1]), count, {}});
        } else if (key == "property") {
            if (!have_element) fail(number, "property before any element");
            const bool list = w.size() == 5 && w[1] == "list" && isPlyScalarType(w[2]) &&
                              isPlyScalarType(w[3]);
            const bool scalar = w.size() == 3 && isPlyScalarType(w[1]);
            if (!list && !scalar)
                fail(number, "expected 'property <type> <name>' or "
                             "'property list <count type> <item type> <name>'");
            layout.elements.back().list.push_back(list);
        } else {
            fail(number, "unknown keyword '" + std::string(key) + "'");
        }
    }
}

// An ASCII body must hold every declared element, one per line, each line exactly the values its
// properties take (a list: its length, then that many items). Assimp 5.2 trusts the header instead:
// a face claiming 2^64 vertices, or a body that ended before its faces (it then took the last line
// again for each face), made it allocate and loop for minutes (both found by fuzzing). Like
// Assimp, line ends are \n, \r, \f and NUL, blank lines are skipped, values are separated by
// spaces and tabs.
void checkPlyAsciiBody(const std::string& path, const PlyLayout& layout) {
    std::ifstream in(path, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(layout.body));
    const std::string body{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    std::size_t at = 0;
    auto nextLine = [&]() -> std::string_view {
        const auto isEnd = [](char c) { return c == '\n' || c == '\r' || c == '\f' || c == '\0'; };
        while (at < body.size() && isEnd(body[at])) ++at;
        const std::size_t begin = at;
        while (at < body.size() && !isEnd(body[at])) ++at;
        return std::string_view(body).substr(begin, at - begin);
    };
    for (const PlyElement& element : layout.elements)
        for (std::uint64_t index = 0; index < element.count; ++index) {
            // Built only for a message: a body of a million vertices would build a million.
            const auto where = [&] { return "PLY " + element.name + " " + std::to_string(index) + " (counting from 0): "; };
            const std::vector<std::string_view> values = splitWords(nextLine());
            if (values.empty())
                throw InputError(path, "", "the PLY body ends after " + std::to_string(index) + " of the " +
                                               std::to_string(element.count) + " '" + element.name +
                                               "' elements the header declares (truncated?)");
            std::size_t next = 0;
            for (const bool list : element.list) {
                if (next >= values.size())
                    throw InputError(path, "", where() + "its line ends after " + std::to_string(values.size()) +
                                                   " values, before all the element's properties");
                if (!list) { ++next; continue; }
                const std::string_view text = values[next++];
                std::uint64_t length = 0;
                const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), length);
                if (error != std::errc() || stop != text.data() + text.size())
                    throw InputError(path, "", where() + "list length '" + std::string(text) + "' is not a whole number");
                if (length > values.size() - next)
                    throw InputError(path, "", where() + "a list of " + std::string(text) + " values, but its line holds only " +
                                                   std::to_string(values.size() - next));
                next += static_cast<std::size_t>(length);
            }
            if (next != values.size())
                throw InputError(path, "", where() + "its line holds " + std::to_string(values.size()) +
                                               " values, but the element's properties take " + std::to_string(next));
        }
}

}  // namespace

void checkMeshFileUsable(const std::string& path) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (!fs::exists(status)) throw InputError(path, "", "no such file");
    if (fs::is_directory(status)) throw InputError(path, "", "is a directory, not a mesh file");
    const std::string ext = lowercaseExtension(path);
    if (ext != ".stl" && ext != ".obj" && ext != ".ply")
        throw InputError(path, "",
                         (ext.empty() ? std::string("no file extension")
                                      : "unsupported mesh format '" + ext + "'") +
                             ": expected .stl, .obj or .ply");
    std::ifstream probe(path, std::ios::binary);
    if (!probe) throw InputError(path, "", "cannot open the file for reading");
    if (probe.peek() == std::ifstream::traits_type::eof())
        throw InputError(path, "", "file is empty");

    const std::uint64_t size = fs::file_size(path, ec);
    if (ec) return;  // not a regular file (e.g. a pipe): leave the judging to Assimp
    if (ext == ".stl") checkStl(path, size);
    if (ext == ".ply") {
        const PlyLayout layout = checkPlyHeader(path, size);
        if (layout.ascii) checkPlyAsciiBody(path, layout);
    }
}

}  // namespace grainlab::detail
