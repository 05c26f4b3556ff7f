#pragma once
// A minimal reader for the .vtp files GrainLab writes (XML header + raw appended blocks), used by
// the tests to check that every file left behind is complete and self-consistent.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace grainlab::test {

inline std::map<std::string, std::string> attributes(const std::string& text) {
    static const std::regex attribute(R"((\w+)=\"([^\"]*)\")");
    std::map<std::string, std::string> out;
    for (std::sregex_iterator it(text.begin(), text.end(), attribute), end; it != end; ++it)
        out[(*it)[1]] = (*it)[2];
    return out;
}

// --- Minimal reader for the PolyData files written with raw appended data -------------------

struct VtpArray {
    std::string section;  // PointData, CellData, FieldData, Points, Verts, Lines, Polys
    std::string name, type;
    int components = 1;
    std::uint64_t tuples = 0;  // as declared in the header
    std::uint64_t offset = 0;
};

struct VtpFile {
    std::map<std::string, std::string> root, piece;
    std::vector<VtpArray> arrays;
    std::string data;  // the bytes after '_'

    const VtpArray& array(const std::string& section, const std::string& name) const {
        for (const VtpArray& a : arrays)
            if (a.section == section && a.name == name) return a;
        FAIL("no array " << section << "/" << name);
        return arrays.front();
    }
    bool has(const std::string& section, const std::string& name) const {
        for (const VtpArray& a : arrays)
            if (a.section == section && a.name == name) return true;
        return false;
    }
    std::uint64_t blockBytes(const VtpArray& a) const {
        REQUIRE(a.offset + 8 <= data.size());
        std::uint64_t bytes;
        std::memcpy(&bytes, data.data() + a.offset, 8);
        REQUIRE(a.offset + 8 + bytes <= data.size());
        return bytes;
    }
    template <class T>
    std::vector<T> values(const std::string& section, const std::string& name) const {
        const VtpArray& a = array(section, name);
        const std::uint64_t bytes = blockBytes(a);
        REQUIRE(bytes % sizeof(T) == 0);
        std::vector<T> out(bytes / sizeof(T));
        if (bytes > 0) std::memcpy(out.data(), data.data() + a.offset + 8, bytes);
        return out;
    }
    std::size_t count(const char* attribute) const { return std::stoul(piece.at(attribute)); }
};

inline VtpFile parseVtp(const std::string& text) {
    const std::string marker = "<AppendedData encoding=\"raw\">";
    const std::size_t appended = text.find(marker);
    REQUIRE(appended != std::string::npos);
    const std::size_t underscore = text.find('_', appended + marker.size());
    REQUIRE(underscore != std::string::npos);
    const std::string trailer = "\n  </AppendedData>\n</VTKFile>\n";
    REQUIRE(text.size() >= underscore + 1 + trailer.size());
    REQUIRE(text.compare(text.size() - trailer.size(), trailer.size(), trailer) == 0);

    VtpFile file;
    file.data = text.substr(underscore + 1, text.size() - trailer.size() - underscore - 1);
    const std::string header = text.substr(0, appended);
    REQUIRE(header.rfind("<?xml version=\"1.0\"?>\n", 0) == 0);

    static const std::regex tag(R"(<(/?)(\w+)([^>]*)>)");
    std::vector<std::string> open;  // element nesting, to name each array's section
    for (std::sregex_iterator it(header.begin(), header.end(), tag), end; it != end; ++it) {
        const bool closing = (*it)[1] == "/";
        const std::string name = (*it)[2];
        const std::string rest = (*it)[3];
        const bool self_closing = !rest.empty() && rest.back() == '/';
        if (closing) {
            REQUIRE(!open.empty());
            REQUIRE(open.back() == name);
            open.pop_back();
            continue;
        }
        if (name == "VTKFile") file.root = attributes(rest);
        if (name == "Piece") file.piece = attributes(rest);
        if (name == "DataArray") {
            const auto a = attributes(rest);
            REQUIRE(a.at("format") == "appended");
            REQUIRE(!open.empty());
            file.arrays.push_back({open.back(), a.at("Name"), a.at("type"),
                                   std::stoi(a.at("NumberOfComponents")),
                                   std::stoull(a.at("NumberOfTuples")),
                                   std::stoull(a.at("offset"))});
        }
        if (!self_closing) open.push_back(name);
    }
    // Still open: VTKFile, where AppendedData follows.
    REQUIRE(open == std::vector<std::string>{"VTKFile"});
    REQUIRE(file.root.at("type") == "PolyData");
    REQUIRE(file.root.at("byte_order") == "LittleEndian");
    REQUIRE(file.root.at("header_type") == "UInt64");
    return file;
}

inline std::size_t typeSize(const std::string& type) {
    if (type == "Float64" || type == "Int64") return 8;
    if (type == "UInt32") return 4;
    FAIL("unexpected type " << type);
    return 0;
}

// Every block sits where its offset says, blocks follow each other with no gap and the last
// one ends the data; each holds exactly tuples x components values of its type (lines: 2 points;
// polygons: as many as their offsets say).
inline void checkLayout(const VtpFile& file) {
    std::vector<const VtpArray*> by_offset;
    for (const VtpArray& a : file.arrays) by_offset.push_back(&a);
    std::sort(by_offset.begin(), by_offset.end(),
              [](const VtpArray* x, const VtpArray* y) { return x->offset < y->offset; });
    std::uint64_t expected_offset = 0;
    for (const VtpArray* a : by_offset) {
        CHECK(a->offset == expected_offset);
        std::size_t tuples = 0;
        if (a->section == "FieldData") tuples = 1;
        if (a->section == "Points" || a->section == "PointData")
            tuples = file.count("NumberOfPoints");
        if (a->section == "CellData")
            tuples = file.count("NumberOfVerts") + file.count("NumberOfLines") + file.count("NumberOfPolys");
        if (a->section == "Verts") tuples = file.count("NumberOfVerts");
        if (a->section == "Lines")
            tuples = file.count("NumberOfLines") * (a->name == "connectivity" ? 2 : 1);
        if (a->section == "Polys") {
            // Polygons may differ in size: the connectivity ends where the last offset says.
            const auto offsets = file.values<std::int64_t>("Polys", "offsets");
            tuples = a->name == "offsets" ? file.count("NumberOfPolys")
                                          : (offsets.empty() ? 0 : static_cast<std::size_t>(offsets.back()));
        }
        const std::uint64_t bytes = file.blockBytes(*a);
        INFO(a->section << "/" << a->name);
        CHECK(bytes == tuples * static_cast<std::size_t>(a->components) * typeSize(a->type));
        CHECK(a->tuples == tuples);
        expected_offset = a->offset + 8 + bytes;
    }
    CHECK(expected_offset == file.data.size());
}

}  // namespace grainlab::test
